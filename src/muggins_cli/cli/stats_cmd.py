"""``muggins stats``: a summary of a corpus of records."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Annotated

import typer

from muggins_cli.batch import BatchError, run
from muggins_cli.check import expand_paths
from muggins_cli.cli.app import app
from muggins_cli.cli.check_cmd import JobsOption, PathsArgument, SchedulerOption
from muggins_cli.cli.progress import with_progress
from muggins_cli.report.stats import STATS, CorpusStats, as_json, render


class StatsFormat(str, Enum):
    table = "table"
    json = "json"


@app.command("stats")
def stats(
    paths: PathsArgument,
    *,
    fmt: Annotated[
        StatsFormat,
        typer.Option("--format", "-f", help="table: three tables; json: one JSON document."),
    ] = StatsFormat.table,
    top: Annotated[
        int,
        typer.Option(min=0, help="Players (most matches first) and diagnostic codes (most "
                                 "frequent first) to list; 0 for all."),
    ] = 10,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress on stderr.")
    ] = False,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Summarise a corpus: files, matches, rounds, turns, players, points per
    turn (points scored by placements over turns played), per player, and the
    most frequent diagnostic codes.

    Exit status: 0, or 2 when a file cannot be read, no file was found, or the
    command line is wrong. Findings in the records do not change it (use
    muggins check for that).

    Example: muggins stats archive/ --format json --jobs 2
    """
    files = list(expand_paths(paths))
    total = CorpusStats()
    try:
        for part in with_progress(run(STATS, files, jobs=jobs, scheduler=scheduler),
                                  len(files), quiet=quiet, verb="read"):
            total.merge(part)
    except BatchError as e:
        typer.echo(f"muggins stats: {e}", err=True)
        raise typer.Exit(2) from None
    out = sys.stdout
    if fmt is StatsFormat.json:
        out.write(json.dumps(as_json(total, top), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(render(total, top) + "\n")
    out.flush()
    if total.files == 0:
        typer.echo("muggins stats: no .mgn files found in " + " ".join(paths), err=True)
        raise typer.Exit(2)
    raise typer.Exit(2 if total.unreadable else 0)
