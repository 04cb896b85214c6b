"""``muggins check``: the main job."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Annotated

import typer

import muggins_cli
from muggins_cli.batch import BatchError, check_many
from muggins_cli.check import FileReport
from muggins_cli.cli.app import app
from muggins_cli.cli.config import settings
from muggins_cli.cli.options import (
    FINDINGS_FORMATS,
    ExcludeOption,
    FailOn,
    Format,
    IgnoreOption,
    JobsOption,
    JsonOption,
    PathsArgument,
    QuietOption,
    RetriesOption,
    SchedulerOption,
    SelectOption,
    closing_line,
    exit_status,
    fail,
    format_option,
    output_format,
    record_files,
    report_unreadable,
    summary_line,
    summary_stream,
    use_colour,
    worker_count,
)
from muggins_cli.cli.progress import with_progress
from muggins_cli.cli.terminal import ColorOption, ColorWhen
from muggins_cli.report import text
from muggins_cli.report.json_report import Totals, write_json

_NAME = "muggins check"


@app.command("check")
def check(
    paths: PathsArgument,
    *,
    fmt: Annotated[
        str,
        format_option(*FINDINGS_FORMATS,
                      help="text: one finding per line (path:line:col: severity "
                           "code message), then a summary line that says what a non-zero exit "
                           "status means; json: the report of docs/notation.md 9 (its schema "
                           "is schemas/report.schema.json, installed with the package as "
                           "muggins_cli/schemas/report.schema.json); jsonl: one JSON object "
                           "per finding, a line each; sarif: SARIF 2.1.0, for GitHub code "
                           "scanning; table: one row per match; github: GitHub Actions "
                           "annotations; junit: JUnit XML, one test case per match."),
    ] = Format.text.value,
    as_json: JsonOption = False,
    fail_on: Annotated[
        FailOn,
        typer.Option(metavar="WHAT",
                     help="What makes the exit status 1: error (the default), warning (errors "
                          "or warnings), or never."),
    ] = FailOn.error,
    quiet: QuietOption = False,
    color: ColorOption = ColorWhen.auto,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exclude: ExcludeOption = None,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    retries: RetriesOption = None,
) -> None:
    """Replay records through the rules engine and report every problem.

    Every move is checked for legality, every score and total recomputed, and
    each finding printed with its file, line, column and stable code
    (docs/diagnostics.md; `muggins explain CODE` prints one). Files are
    checked in parallel (--jobs) or on a Dask cluster (--scheduler); the
    output is the same as one process gives.

    Exit status: 0 no error, 1 at least one error (a record holds mistakes:
    the check itself worked), 2 a file could not be read, no record was
    found, or the command line is wrong.

    Findings can be chosen by code or severity (--select, --ignore, or
    [tool.muggins] in pyproject.toml), accepted in the record (a comment
    # muggins: ignore[CODE] on the line), and files left out (--exclude).

    Example: muggins check records/ --format table
    """
    fmt = output_format(fmt, as_json)
    chosen = settings(paths, select=select or (), ignore=ignore or (), exclude=exclude or ())
    files = record_files(_NAME, paths, chosen.keep)
    n = worker_count(_NAME, jobs, len(files)) if scheduler is None else jobs
    totals = Totals()
    try:
        checked = check_many(files, jobs=n, scheduler=scheduler, retries=retries)
        reports = with_progress(map(chosen.selection.apply, checked), len(files),
                                quiet=quiet, summary=summary_stream(fmt))
        write_report(reports, fmt, totals)
    except BatchError as e:
        raise fail(_NAME, str(e)) from None
    status = exit_status(totals, fail_on)
    if not quiet:
        closing_line(summary_line(totals, status, fail_on), fmt)
    raise typer.Exit(status)


def write_report(reports: Iterable[FileReport], fmt: Format, totals: Totals) -> None:
    """The reports in ``fmt`` on stdout, as they come (tables at the end; a
    table has no place for why a file could not be read, so that goes to
    stderr)."""
    # Each format's module is imported when it is chosen, so that the text
    # report does not start slower for the XML and the tables it does not use.
    out = sys.stdout
    if fmt is Format.json:
        write_json(reports, out, totals)
    elif fmt is Format.jsonl:
        from muggins_cli.report.jsonl import write_jsonl

        write_jsonl(reports, out, totals)
    elif fmt is Format.sarif:
        from muggins_cli.report.sarif import write_sarif

        write_sarif(reports, out, totals, muggins_cli.__version__)
    elif fmt is Format.github:
        from muggins_cli.report import github

        github.write_github(reports, out, totals)
    elif fmt is Format.junit:
        from muggins_cli.report import junit

        junit.write_junit(reports, out, totals)
    elif fmt is Format.table:
        from muggins_cli.report import table

        kept: list[FileReport] = []
        for f in reports:
            totals.add(f)
            kept.append(f)
        out.write(table.render(kept) + "\n")
        out.flush()
        report_unreadable(kept)
    else:
        colour = use_colour(out)
        for f in reports:
            totals.add(f)
            for line in text.file_lines(f, colour):
                out.write(line + "\n")
    out.flush()
