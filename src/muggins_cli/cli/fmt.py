"""``muggins fmt``: records in canonical MGN, printed, checked or rewritten.

Modelled on black: print by default, ``--check`` for CI, ``--in-place`` to
rewrite. A file with notation errors is never rewritten, because the parser
leaves out the lines it cannot read and writing back would lose them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from muggins_cli.cli.app import app
from muggins_cli.cli.files import write_atomic
from muggins_cli.notation.model import Severity
from muggins_cli.notation.parser import UnreadableError, parse_text, read_record_text
from muggins_cli.notation.writer import write_matches

_OK, _CHANGED, _UNREADABLE = 0, 1, 2


@app.command("fmt")
def fmt_command(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Record files, or folders (every *.mgn below, sorted); '-' reads stdin.",
            show_default=False,
        ),
    ],
    *,
    in_place: Annotated[
        bool,
        typer.Option("--in-place", help="Rewrite each file that changes, atomically."),
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Write nothing; list the files that would change and exit 1 if any.",
        ),
    ] = False,
) -> None:
    """Print records in canonical MGN: tags in a fixed order, single spaces,
    annotations and comments kept."""
    if in_place and check:
        typer.echo("muggins fmt: --in-place and --check cannot be used together", err=True)
        raise typer.Exit(code=2)
    status = _OK
    printed = False
    for path in _expand(paths):
        shown = str(path)
        try:
            text = read_record_text(path)
        except UnreadableError as exc:
            typer.echo(f"{shown}:0:0: error unreadable {exc.reason}", err=True)
            status = max(status, _UNREADABLE)
            continue
        matches = parse_text(text)
        errors = [
            diag
            for match in matches
            for diag in match.diagnostics
            if diag.severity is Severity.ERROR
        ]
        if errors:
            for diag in errors:
                typer.echo(
                    f"{shown}:{diag.line}:{diag.column}: error {diag.code} {diag.message}",
                    err=True,
                )
            status = max(status, _CHANGED)
            continue
        # A text without a match (only comments, or blank) has no canonical
        # form; writing "" would throw the comments away.
        canonical = write_matches(matches) if matches else text
        if check:
            if canonical != text:
                typer.echo(f"would reformat {shown}", err=True)
                status = max(status, _CHANGED)
        elif in_place and shown != "-":
            if canonical != text:
                try:
                    write_atomic(path, canonical)
                except OSError as exc:
                    typer.echo(f"{shown}:0:0: error unwritable {exc.strerror or exc}", err=True)
                    status = max(status, _UNREADABLE)
                    continue
                typer.echo(f"reformatted {shown}", err=True)
        else:
            if printed and canonical:
                typer.echo("")
            typer.echo(canonical, nl=False)
            printed = printed or bool(canonical)
    raise typer.Exit(code=status)


def _expand(paths: list[Path]) -> list[Path]:
    """Files as given; a folder becomes every ``*.mgn`` file below it."""
    out: list[Path] = []
    for path in paths:
        if str(path) != "-" and path.is_dir():
            out.extend(sorted(p for p in path.rglob("*.mgn") if p.is_file()))
        else:
            out.append(path)
    return out
