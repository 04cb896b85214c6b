"""``muggins check``: the main job."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from enum import Enum
from typing import Annotated, TypeVar

import typer

from muggins_cli.batch import BatchError, check_many
from muggins_cli.check import FileReport, expand_paths
from muggins_cli.cli.app import app
from muggins_cli.cli.progress import with_progress
from muggins_cli.report import github, junit, table, text
from muggins_cli.report.json_report import Totals, write_json

T = TypeVar("T")


class Format(str, Enum):
    text = "text"
    json = "json"
    table = "table"
    github = "github"
    junit = "junit"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"
    never = "never"


# Options shared with the other commands that read many files (stats).
PathsArgument = Annotated[
    list[str],
    typer.Argument(help="Record files, folders (every *.mgn below, sorted) or - for stdin.",
                   show_default=False),
]
#: ``--match N``: which match of a record file a one-position command reads
#: (``replay``, ``solve``).
MatchOption = Annotated[
    int, typer.Option("--match", "-m", min=1, metavar="N",
                      help="Which match of the file (the first is 1).")
]
JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, show_default="the number of cores",
                 help="Worker processes to spread the files over; 1 checks them in this "
                      "process. The output is the same, in the same order."),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS",
                 help="Run on the Dask cluster at ADDRESS (e.g. tcp://10.0.0.5:8786) "
                      "instead of local processes; needs muggins-cli[dask], and workers "
                      "that see the files at the same absolute paths."),
]


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
    paths: PathsArgument,
    *,
    fmt: Annotated[
        Format,
        typer.Option("--format", "-f",
                     help="text: one finding per line (path:line:col: severity code message); "
                          "json: the report of NOTATION.md 9; table: one row per match; "
                          "github: GitHub Actions annotations; junit: JUnit XML, one test "
                          "case per match."),
    ] = Format.text,
    fail_on: Annotated[
        FailOn,
        typer.Option(help="What makes the exit status 1: errors (default), warnings too, "
                          "or never."),
    ] = FailOn.error,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q",
                           help="No closing summary line (text format) and no progress "
                                "on stderr.")
    ] = False,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Replay records through the rules engine and report every problem.

    Every move is checked for legality, every score and total recomputed, and
    each finding printed with its file, line, column and stable code
    (NOTATION.md 8). Files are checked in parallel (--jobs) or on a Dask
    cluster (--scheduler); the output is the same as one process gives.
    Exit status: 0 no error, 1 at least one error, 2 a file could not be read
    or the command line is wrong.

    Example: muggins check records/ --format table
    """
    totals = Totals()
    files = list(expand_paths(paths))
    try:
        reports = with_progress(check_many(files, jobs=jobs, scheduler=scheduler),
                                len(files), quiet=quiet)
        write_report(reports, fmt, totals, quiet=quiet)
    except BatchError as e:
        typer.echo(f"muggins check: {e}", err=True)
        raise typer.Exit(2) from None
    if totals.files == 0:
        typer.echo("muggins check: no .mgn files found in " + " ".join(paths), err=True)
        raise typer.Exit(2)
    raise typer.Exit(exit_status(totals, fail_on))


def write_report(reports: Iterable[FileReport], fmt: Format, totals: Totals, *,
                 quiet: bool = False) -> None:
    """The reports in ``fmt`` on stdout, as they come (tables at the end)."""
    out = sys.stdout
    if fmt is Format.json:
        write_json(reports, out, totals)
    elif fmt is Format.github:
        github.write_github(reports, out, totals)
    elif fmt is Format.junit:
        junit.write_junit(reports, out, totals)
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
