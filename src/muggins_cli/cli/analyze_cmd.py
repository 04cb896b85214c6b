"""``muggins analyze``: the check, plus each turn weighed against its alternatives."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import IO, Annotated

import typer

import muggins_cli
from muggins_cli.analysis.annotate import AnnotateError, Thresholds, annotate_text
from muggins_cli.analysis.files import FileAnalysis, analysis_work
from muggins_cli.analysis.weigh import (
    DEFAULT_SAMPLES,
    WeighOptions,
)
from muggins_cli.batch import BatchError, cluster_retries, run
from muggins_cli.check import STDIN
from muggins_cli.cli.app import app, interrupted
from muggins_cli.cli.config import settings
from muggins_cli.cli.files import STDOUT, write_atomic
from muggins_cli.cli.options import (
    FINDINGS_FORMATS,
    ExcludeOption,
    FailOn,
    ForceOption,
    Format,
    IgnoreOption,
    JobsOption,
    JsonOption,
    PathsArgument,
    QuietOption,
    SchedulerOption,
    SelectOption,
    TurnRetriesOption,
    check_output,
    closing_line,
    exit_status,
    fail,
    format_option,
    note,
    output_format,
    record_files,
    report_unreadable,
    summary_line,
    summary_stream,
    use_colour,
    worker_count,
)
from muggins_cli.cli.progress import with_progress
from muggins_cli.cli.solver_options import (
    BlunderOption,
    MistakeOption,
    ModeOption,
    PerfectOption,
    SolverNodesOption,
    SolverOption,
    SolverSamplesOption,
    SolverSeedOption,
    ViewOpt,
    perfect_view,
    solver_weigher,
    weigh_options,
)
from muggins_cli.cli.terminal import ColorOption, ColorWhen
from muggins_cli.report import github, junit, table, text
from muggins_cli.report.analysis_report import (
    all_players_table,
    file_text_blocks,
    write_analysis_json,
)
from muggins_cli.report.json_report import Totals

_NAME = "muggins analyze"


def _fail(message: str) -> typer.Exit:
    return fail(_NAME, message)


@app.command("analyze")
def analyze(
    paths: PathsArgument,
    *,
    fmt: Annotated[
        str,
        format_option(*FINDINGS_FORMATS,
                      help="text: findings, then each match's player statistics; json: "
                           "the check's report with players_summary and plays added to each "
                           "match (and the solver's verdicts with --solver; schema in "
                           "schemas/analysis.schema.json, installed with the package as "
                           "muggins_cli/schemas/analysis.schema.json); table: the match "
                           "table, then one row per player; jsonl, sarif, github, junit: as "
                           "for check, the analysis findings included."),
    ] = Format.text.value,
    as_json: JsonOption = False,
    fail_on: Annotated[
        FailOn,
        typer.Option(metavar="WHAT",
                     help="What makes the exit status 1: error (the default), warning (errors "
                          "or warnings; missed-score and costly-play are warnings), or never."),
    ] = FailOn.error,
    quiet: QuietOption = False,
    color: ColorOption = ColorWhen.auto,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exclude: ExcludeOption = None,
    turns: Annotated[
        bool, typer.Option("--turns", help="Text and table formats: list every turn with its "
                                           "legal alternatives and what each scores.")
    ] = False,
    annotate: Annotated[
        bool, typer.Option("--annotate", help="Write the record back with ? / ?? glyphs and "
                                              "{notes} naming the better play: to standard "
                                              "output (the report then goes to standard "
                                              "error) unless -o or --in-place.")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE",
                     help="With --annotate: write the annotated record to FILE (one input "
                          "file only; - is standard output). An existing FILE needs --force; "
                          "it keeps its mode and owner, and a read-only one is refused.",
                     show_default=False),
    ] = None,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="With --annotate: rewrite each record that "
                                               "gains annotations, atomically, keeping its "
                                               "mode and owner. A read-only record (no write "
                                               "permission for its owner) is refused, even "
                                               "for root.")
    ] = False,
    force: ForceOption = False,
    mistake: MistakeOption = 5,
    blunder: BlunderOption = 15,
    solver: SolverOption = False,
    mode: ModeOption = ViewOpt.sample,
    perfect: PerfectOption = False,
    samples: SolverSamplesOption = DEFAULT_SAMPLES,
    nodes: SolverNodesOption = None,
    seed: SolverSeedOption = 0,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    retries: TurnRetriesOption = None,
) -> None:
    """Check records and weigh every turn against its legal alternatives.

    Everything `muggins check` reports, in the same formats and with the same
    exit status, plus: a missed-score warning on each turn whose placement
    scored less than the best legal one ("Ana played 3-4R for 0; 6-1L scored
    15 (15 missed)"), an unclaimed note per player under muggins rules, and
    a statistics table per match (turns, forced turns, points scored and
    missed, illegal actions, unclaimed points). Turns whose choices the
    record hides (no deal lines) are not weighed.

    With --solver each turn is also played out by the solver. A play's value
    is, for two players, the mover's points minus the opponent's from that
    turn to the end of the round (for three or four, the mover's points
    minus the opponents' average, the others taken as one side against the
    mover); "lost" is how much less the play made was worth than the best
    play, "lost/turn" the points lost per unforced turn (the error rate),
    and "luck" what the player's draws gave or took against the average
    draw; each figure from sampled deals comes with its standard error
    (a figure without one is exact). By default (--mode sample, as `muggins
    solve` names it) the solver sees what the mover saw (the unseen tiles
    dealt up to --max-samples times, consistently with the draws and passes
    seen, or every deal when there are few); --mode perfect judges with
    every hand and the stock in view. A play that
    lost --mistake points or more, beyond the uncertainty of its cost, gets
    a costly-play warning, the turn's one verdict (what it missed at once
    is its note, not a missed-score warning), and with --annotate the
    glyphs and notes are the solver's (the missed-score verdict where the
    solver could not weigh a turn).

    \b
    Examples:
        muggins analyze records/
        muggins analyze club.mgn --turns
        muggins analyze club.mgn --annotate -o club-annotated.mgn
        muggins analyze club.mgn --annotate --in-place --mistake 10 --blunder 20
        muggins analyze club.mgn --solver --turns
        muggins analyze club.mgn --solver --mode perfect --annotate -o study.mgn

    The annotated record keeps everything written in it (comments too); only
    glyphs and {notes} are added, and `muggins check` reads it as before.
    """
    fmt = output_format(fmt, as_json)
    writing = output is not None or in_place
    thresholds = _thresholds(annotate, writing, output, in_place, mistake, blunder)
    check_output(_NAME, output, force)
    chosen = settings(paths, select=select or (), ignore=ignore or (), exclude=exclude or ())
    if output == STDOUT:
        output = None  # as without -o: the record on stdout, the report on stderr
        writing = in_place
    files = record_files(_NAME, paths, chosen.keep)
    if output is not None and len(files) != 1:
        raise _fail(f"-o/--output takes one record; {len(files)} files were given")
    if in_place and STDIN in files:
        raise _fail("--in-place cannot rewrite standard input; use -o FILE")
    try:
        weigh = weigh_options(solver=solver, perfect=perfect_view(mode, perfect),
                              samples=samples, nodes=nodes,
                              seed=seed, mistake=mistake, blunder=blunder)
    except ValueError as e:
        raise _fail(str(e)) from None

    # The annotated record takes standard output when it has no file to go to.
    to_stdout = annotate and not writing
    out: IO[str] = sys.stderr if to_stdout else sys.stdout
    totals = Totals()
    status = 0

    def annotated(f: FileAnalysis) -> FileAnalysis:
        nonlocal status
        if annotate and f.text is not None:
            status = max(status, _write_annotation(f, thresholds, output, in_place, force))
        return replace(f, report=chosen.selection.apply(f.report))

    try:
        tries_again = cluster_retries(scheduler, retries)
        analysed: AbstractContextManager[Iterable[FileAnalysis]]
        if weigh is not None:
            analysed = _weighed_files(files, annotate=annotate, weigh=weigh, jobs=jobs,
                                      quiet=quiet, scheduler=scheduler, retries=tries_again)
        else:
            analysed = _files_analysed(files, annotate=annotate, fmt=fmt, jobs=jobs,
                                       quiet=quiet, scheduler=scheduler, retries=retries)
        with analysed as results:
            after_table = _write_report((annotated(f) for f in results), fmt, out, totals,
                                        turns=turns)
    except BatchError as e:
        raise _fail(str(e)) from None
    except KeyboardInterrupt:
        raise typer.Exit(interrupted(_NAME)) from None
    status = max(status, exit_status(totals, fail_on))
    if not quiet:
        closing_line(("\n" if after_table and fmt is Format.text else "")
                     + summary_line(totals, status, fail_on), fmt, out)
    raise typer.Exit(status)


def _thresholds(annotate: bool, writing: bool, output: str | None, in_place: bool,
                mistake: int, blunder: int) -> Thresholds:
    """The glyphs' thresholds, once the options that write a record agree."""
    if writing and not annotate:
        raise _fail("-o/--output and --in-place write an annotated record; add --annotate")
    if output is not None and in_place:
        raise _fail("use either -o/--output or --in-place, not both")
    try:
        return Thresholds(mistake, blunder)
    except AnnotateError as e:
        raise _fail(str(e)) from None


@contextmanager
def _weighed_files(files: Sequence[str], *, annotate: bool, weigh: WeighOptions,
                   jobs: int | None, quiet: bool, scheduler: str | None, retries: int
                   ) -> Iterator[Iterable[FileAnalysis]]:
    """The files analysed, each turn weighed by the solver. The solver's
    turns, not the files, are the work to share out (over processes or the
    cluster) and to count: one match can take a minute, and a folder of
    records is read faster than one turn is weighed. The files are read
    here."""
    with solver_weigher(_NAME, jobs, quiet=quiet, scheduler=scheduler,
                        retries=retries) as (weigher, tally):
        work = analysis_work(annotate=annotate, weigh=weigh, weigher=weigher)
        yield tally.handing(run(work, files, jobs=1))


def _files_analysed(files: Sequence[str], *, annotate: bool, fmt: Format, jobs: int | None,
                    quiet: bool, scheduler: str | None, retries: int | None
                    ) -> AbstractContextManager[Iterable[FileAnalysis]]:
    """The files analysed without the solver: the files are the work, over
    ``jobs`` processes or the cluster, with a progress line."""
    work = analysis_work(annotate=annotate, weigh=None)
    workers = worker_count(_NAME, jobs, len(files)) if scheduler is None else jobs
    return nullcontext(with_progress(run(work, files, jobs=workers, scheduler=scheduler,
                                         retries=retries),
                                     len(files), quiet=quiet, verb="analysed",
                                     summary=summary_stream(fmt)))


def _write_report(files: Iterable[FileAnalysis], fmt: Format, out: IO[str], totals: Totals,
                  *, turns: bool) -> bool:
    """The check's report in ``fmt`` with the analysis findings in it, and
    the analysis tables where the format has room for them. True when the
    text ends with a table (a blank line then goes before the summary)."""
    if fmt is Format.json:
        write_analysis_json(files, out, totals)
    elif fmt is Format.jsonl:
        from muggins_cli.report.jsonl import write_jsonl

        write_jsonl((f.report for f in files), out, totals)
    elif fmt is Format.sarif:
        from muggins_cli.report.sarif import write_sarif

        write_sarif((f.report for f in files), out, totals, muggins_cli.__version__)
    elif fmt is Format.github:
        github.write_github((f.report for f in files), out, totals)
    elif fmt is Format.junit:
        junit.write_junit((f.report for f in files), out, totals)
    elif fmt is Format.table:
        kept = list(files)
        for f in kept:
            totals.add(f.report)
        out.write(table.render([f.report for f in kept]) + "\n\n")
        out.write(all_players_table(kept) + "\n")
        if turns:
            for block in (b for f in kept for b in file_text_blocks(f, turns=True)):
                out.write("\n" + block + "\n")
        out.flush()
        report_unreadable(f.report for f in kept)
    else:
        colour = use_colour(out)
        started = after_table = False  # a blank line goes around each table
        for f in files:
            totals.add(f.report)
            for line in text.file_lines(f.report, colour):
                out.write(("\n" if after_table else "") + line + "\n")
                started, after_table = True, False
            for block in file_text_blocks(f, turns):
                out.write(("\n" if started else "") + block + "\n")
                started = after_table = True
        out.flush()
        return after_table
    out.flush()
    return False


def _write_annotation(f: FileAnalysis, thresholds: Thresholds, output: str | None,
                      in_place: bool, force: bool) -> int:
    """Write one file's annotated record where it goes; 2 when it cannot be."""
    assert f.text is not None
    path = f.report.path
    try:
        result, marked = annotate_text(f.text, f.records, f.matches, thresholds)
    except AnnotateError as e:
        note(f"{_NAME}: {path}: not annotated: {e}")
        return 2
    plural = "" if marked == 1 else "s"
    try:
        if output is not None:
            write_atomic(output, result, replace=force)
            note(f"wrote {output} ({marked} turn{plural} annotated)")
        elif in_place:
            if marked:
                write_atomic(Path(path), result, f.read_as, replace=True)
                note(f"annotated {path} ({marked} turn{plural})")
        else:
            sys.stdout.write(result if result.endswith("\n") or not result else result + "\n")
            sys.stdout.flush()
    except OSError as e:
        target = output if output is not None else path
        note(f"{_NAME}: cannot write {target}: {e.strerror or e}")
        return 2
    return 0
