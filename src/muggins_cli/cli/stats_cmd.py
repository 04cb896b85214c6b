"""``muggins stats``: a summary of a corpus of records."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from muggins_cli.batch import BatchError, run
from muggins_cli.check import check_file
from muggins_cli.cli.app import app
from muggins_cli.cli.config import settings
from muggins_cli.cli.options import (
    NUMBER_MAX,
    ExcludeOption,
    Format,
    JobsOption,
    JsonOption,
    PathsArgument,
    QuietOption,
    RetriesOption,
    SchedulerOption,
    fail,
    format_option,
    output_format,
    record_files,
    report_unreadable,
    worker_count,
)
from muggins_cli.cli.progress import with_progress
from muggins_cli.cli.terminal import ColorOption, ColorWhen
from muggins_cli.report.stats import STATS, CorpusStats, as_json, render

_NAME = "muggins stats"


@app.command("stats")
def stats(
    paths: PathsArgument,
    *,
    fmt: Annotated[
        str,
        format_option(Format.table, Format.json,
                      help="table: four tables; json: one JSON document."),
    ] = Format.table.value,
    as_json_out: JsonOption = False,
    top: Annotated[
        int,
        typer.Option(min=0, max=NUMBER_MAX, metavar="N",
                     help="Players and pairs of players (most matches first) and "
                          "diagnostic codes (most frequent first) to list; 0 for all."),
    ] = 10,
    quiet: QuietOption = False,
    color: ColorOption = ColorWhen.auto,
    exclude: ExcludeOption = None,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    retries: RetriesOption = None,
) -> None:
    """Summarise a corpus: files, matches, rounds, turns, players, points per
    turn (points scored by placements over turns played), per player, head
    to head (each pair of players: the matches they sat at together, and
    how many each of them won), and the most frequent diagnostic codes.

    Exit status: 0, or 2 when a file cannot be read, no file was found, or the
    command line is wrong. Findings in the records do not change it (use
    muggins check for that).

    Example: muggins stats archive/ --format json --jobs 2
    """
    fmt = output_format(fmt, as_json_out)
    files = record_files(_NAME, paths, settings(paths, exclude=exclude or ()).keep)
    n = worker_count(_NAME, jobs, len(files)) if scheduler is None else jobs
    total = CorpusStats()
    unreadable: list[str] = []
    try:
        parts = run(STATS, files, jobs=n, scheduler=scheduler, retries=retries)
        for i, part in enumerate(with_progress(parts, len(files), quiet=quiet, verb="read")):
            total.merge(part)
            if part.unreadable:
                unreadable.append(files[i])
    except BatchError as e:
        raise fail(_NAME, str(e)) from None
    out = sys.stdout
    if fmt is Format.json:
        out.write(json.dumps(as_json(total, top), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(render(total, top) + "\n")
    out.flush()
    # The summary only counts them; the check's own reading says why, as
    # `muggins check` would (a file that cannot be read is quick to find so).
    report_unreadable(check_file(path) for path in unreadable)
    raise typer.Exit(2 if total.unreadable else 0)
