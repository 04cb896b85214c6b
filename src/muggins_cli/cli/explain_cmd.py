"""``muggins explain``: the documentation of a diagnostic code, offline.

A finding names its code (``illegal-draw``) and a user who meets it wants
to know what it means and how to mend the record without a browser or a
clone of the repository, as ``ruff rule E501`` answers for ruff. The text is
docs/diagnostics.md itself, shipped with the package.
"""

from __future__ import annotations

import difflib
from typing import Annotated

import typer
from tabulate import tabulate

from muggins_cli.cli.app import app
from muggins_cli.cli.options import note
from muggins_cli.report.explain import entries


@app.command("explain")
def explain(
    code: Annotated[
        str | None,
        typer.Argument(metavar="CODE", show_default=False,
                       help="A diagnostic code, as printed after the severity (illegal-draw). "
                            "Leave it out to list every code."),
    ] = None,
) -> None:
    """Explain a diagnostic code: what it means, a record that produces it,
    how to fix the record.

    The entries are those of docs/diagnostics.md, printed as Markdown.

    \b
    Examples:
        muggins explain                  # every code, its severity and meaning
        muggins explain illegal-draw     # one code in full

    Exit status: 0, or 2 for a code that does not exist.
    """
    known = entries()
    if code is None:
        rows = [(e.code, e.severity, e.summary) for e in known.values()]
        typer.echo(tabulate(rows, headers=("code", "severity", "meaning"), tablefmt="simple"))
        return
    entry = known.get(code.strip().lower())
    if entry is None:
        close = difflib.get_close_matches(code, list(known), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        note(f"muggins explain: no diagnostic code {code!r} ({hint}"
                   "`muggins explain` lists them)")
        raise typer.Exit(2)
    typer.echo(entry.text, nl=False)
