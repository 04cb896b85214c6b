"""The Typer application object that every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="muggins",
    help=(
        "Check, analyse and solve recorded matches of the domino game Muggins.\n\n"
        "Records are plain text in MGN notation (NOTATION.md). Start with "
        "`muggins check records/`."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _root() -> None:
    """Check, analyse and solve recorded matches of the domino game Muggins."""
