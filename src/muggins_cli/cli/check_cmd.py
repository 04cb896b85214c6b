"""``muggins check``: the main job."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated

import typer

from muggins_cli.check import FileReport, check_paths
from muggins_cli.cli.app import app
from muggins_cli.report import table, text
from muggins_cli.report.json_report import Totals, write_json


class Format(str, Enum):
    text = "text"
    json = "json"
    table = "table"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"
    never = "never"


def use_colour(stream: object) -> bool:
    return (hasattr(stream, "isatty") and stream.isatty()
            and "NO_COLOR" not in os.environ)


def exit_status(totals: Totals, fail_on: FailOn) -> int:
    """0 clean, 1 findings at or above ``fail_on``, 2 a file could not be read."""
    if totals.unreadable:
        return 2
    if fail_on is FailOn.error and totals.errors:
        return 1
    if fail_on is FailOn.warning and (totals.errors or totals.warnings):
        return 1
    return 0


@app.command("check")
def check(
    paths: Annotated[
        list[str],
        typer.Argument(help="Record files, folders (every *.mgn below, sorted) or - for stdin.",
                       show_default=False),
    ],
    *,
    fmt: Annotated[
        Format,
        typer.Option("--format", "-f",
                     help="text: one finding per line (path:line:col: severity code message); "
                          "json: the report of NOTATION.md 9; table: one row per match."),
    ] = Format.text,
    fail_on: Annotated[
        FailOn,
        typer.Option(help="What makes the exit status 1: errors (default), warnings too, "
                          "or never."),
    ] = FailOn.error,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Text format: no closing summary line.")
    ] = False,
) -> None:
    """Replay records through the rules engine and report every problem.

    Every move is checked for legality, every score and total recomputed, and
    each finding printed with its file, line, column and stable code
    (NOTATION.md 8). Exit status: 0 no error, 1 at least one error, 2 a file
    could not be read or the command line is wrong.

    Example: muggins check records/ --format table
    """
    totals = Totals()
    reports = check_paths(paths)
    out = sys.stdout
    if fmt is Format.json:
        write_json(reports, out, totals)
    elif fmt is Format.table:
        kept: list[FileReport] = []
        for f in reports:
            totals.add(f)
            kept.append(f)
        out.write(table.render(kept) + "\n")
    else:
        colour = use_colour(out)
        for f in reports:
            totals.add(f)
            for line in text.file_lines(f, colour):
                out.write(line + "\n")
        if not quiet:
            out.write(text.summary_line(totals.files, totals.matches, totals.errors,
                                        totals.warnings) + "\n")
    out.flush()
    if totals.files == 0:
        typer.echo("muggins check: no .mgn files found in " + " ".join(paths), err=True)
        raise typer.Exit(2)
    raise typer.Exit(exit_status(totals, fail_on))
