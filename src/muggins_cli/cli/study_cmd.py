"""``muggins study``: one match as a self-contained HTML page."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import typer

from muggins_cli.analysis.match import MatchAnalysis, analyse_match
from muggins_cli.analysis.weigh import DEFAULT_SAMPLES, Weigher, WeighOptions, weigh_each
from muggins_cli.check import record_resolver
from muggins_cli.cli.app import app, interrupted
from muggins_cli.cli.files import STDOUT, Output
from muggins_cli.cli.options import (
    ForceOption,
    JobsOption,
    MatchOption,
    QuietOption,
    check_output,
    note,
)
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
from muggins_cli.errors import InputError
from muggins_cli.notation.model import BodyLine, Match, Severity
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.position import Position
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.replay.values import Called, RecordComments
from muggins_cli.replay.watch import Decisions, Positions
from muggins_cli.report.study import Page, build_page, page_parts, render_page

_NAME = "muggins study"


def _fail(message: str) -> typer.Exit:
    note(f"{_NAME}: {message}")
    return typer.Exit(2)


@app.command("study")
def study(
    path: Annotated[
        str,
        typer.Argument(metavar="FILE", help="A record file, or - for stdin.",
                       show_default=False),
    ],
    *,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE",
                     help="Write the page to FILE, an .html file (default, or -: standard "
                          "output). An existing FILE needs --force.", show_default=False),
    ] = None,
    force: ForceOption = False,
    match_number: MatchOption = 1,
    quiet: QuietOption = False,
    color: ColorOption = ColorWhen.auto,
    mistake: MistakeOption = 5,
    blunder: BlunderOption = 15,
    solver: SolverOption = False,
    mode: ModeOption = ViewOpt.sample,
    perfect: PerfectOption = False,
    samples: SolverSamplesOption = DEFAULT_SAMPLES,
    nodes: SolverNodesOption = None,
    seed: SolverSeedOption = 0,
    jobs: JobsOption = None,
) -> None:
    """Write one match as a page to study in a browser, as an analysis
    board: the table drawn at every turn, the move list beside it, a chart
    of the match and each player's statistics.

    The page is one HTML file that fetches nothing (no network, no fonts,
    no scripts from elsewhere) and opens from disk. A file of several
    matches gives one page per match: pick it with --match. Each turn has
    its own address (page.html#r3t12: round 3 after its 12th turn). Keys:
    the arrows step through the turns (up and down pick a candidate play),
    Home and End go to the first and last, N and P to the next and previous
    mistake. Every board and every candidate can be read with JavaScript
    off. The same input gives the same bytes.

    With --solver (the options are those of `muggins analyze`) each turn
    lists every legal play the solver weighed, ranked, with its value and
    its loss against the best (with its standard error, or exact with
    --mode perfect), the play made and the best marked; picking one draws it
    on the table as a ghost tile and shows the line the solver expects after
    it (in the mover's view, played in one sampled deal of the unseen tiles,
    as the page says). The turn's luck (what its draws gave
    against the average draw) is shown with its error. Under the score
    chart a curve gives the expected margin at the round's end after each
    play; only mistakes and blunders are coloured, a loss within its error
    is not. The statistics gain lost, lost/turn and luck.

    \b
    Examples:
        muggins study records/club-night-pagat-2p.mgn -o club.html
        muggins study records/club-night-pagat-2p.mgn --solver --mode perfect -o club.html
        muggins study records/pos-ronda-spinner-4p.mgn --solver -o ronda.html
        muggins study league.mgn --match 2 -o league-2.html --force
    """
    check_output(_NAME, output, force)
    try:
        weigh = weigh_options(solver=solver, perfect=perfect_view(mode, perfect),
                              samples=samples, nodes=nodes,
                              seed=seed, mistake=mistake, blunder=blunder)
    except ValueError as e:
        raise _fail(str(e)) from None
    try:
        if weigh is not None:
            with solver_weigher(_NAME, jobs, quiet=quiet) as (weigher, _):
                page = study_page_of(path, match_number, weigh, weigher)
        else:
            page = study_page_of(path, match_number, None, weigh_each)
    except InputError as e:
        raise _fail(str(e)) from None
    except KeyboardInterrupt:
        raise typer.Exit(interrupted(_NAME)) from None
    # Written as the template makes it: a page of tens of MB is never held
    # whole (and again encoded) on top of what it is made from.
    with Output(output if output is not None else STDOUT, force=force) as out:
        for part in page_parts(page):
            out.write(part)
        out.commit()
    if not quiet and not out.to_stdout:
        note(f"wrote {output}")


@dataclass(frozen=True)
class Studied:
    """A match read, replayed and analysed: everything its page is made of
    but the drawing (kept apart so that a benchmark can time the page on
    top of the analysis)."""

    match: Match
    number: int
    resolve: RulesResolver
    analysis: MatchAnalysis
    notes: tuple[str, ...]
    #: Every position of the match with the line after it, from the same replay.
    positions: tuple[tuple[Position, BodyLine | None], ...]
    #: The muggins calls after each turn line, and the record's comments, from it too.
    calls: dict[int, tuple[Called, ...]]
    comments: RecordComments


def study_analysis(path: str, number: int, weigh: WeighOptions | None = None,
                   weigher: Weigher = weigh_each) -> Studied:
    """Match ``number`` of the record at ``path``, replayed and analysed
    (weighed by the solver with ``weigh``, the line after each play
    included: the page shows them)."""
    if weigh is not None:
        weigh = replace(weigh, lines=True)
    match = read_match(path, number)
    resolve = record_resolver(path)
    # One replay for the checker, the analysis, the solver and the boards.
    seen = Positions()
    decided = Decisions() if weigh is not None else None
    replay = replay_match(match, resolve, seen, *([decided] if decided is not None else []),
                          collect_events=True, collect_comments=True)
    if replay.rules is None:
        first = replay.diagnostics[0] if replay.diagnostics else None
        why = f": line {first.line}: {first.message}" if first is not None else ""
        raise InputError(f"match {number} of {path} cannot be replayed{why}")
    notes: list[str] = []
    errors = [d for d in replay.diagnostics if d.severity is Severity.ERROR]
    if errors:
        e = errors[0]
        notes.append(f"The record has {len(errors)} error{'' if len(errors) == 1 else 's'}, "
                     f"the first at line {e.line}: {e.code} {e.message}. The page shows the "
                     "match as far as the replay can follow it (muggins check lists them).")
    analysis = analyse_match(match, replay, resolve, weigh, weigher,
                             decisions=decided.decisions() if decided is not None else None)
    return Studied(match, number, resolve, analysis, tuple(notes), tuple(seen.out),
                   replay.calls_by_line(), replay.comments)


def study_page_of(path: str, number: int, weigh: WeighOptions | None = None,
                  weigher: Weigher = weigh_each) -> Page:
    """What the page of match ``number`` shows. The replay, the analysis
    and the positions it is made from go with this call, before the page
    is written."""
    return _page(study_analysis(path, number, weigh, weigher))


def _page(studied: Studied) -> Page:
    return build_page(studied.match, studied.number, studied.analysis,
                      list(studied.positions), calls=studied.calls,
                      comments=studied.comments, notes=studied.notes)


def study_html(studied: Studied) -> str:
    """The page of an analysed match: its positions drawn and the analysis."""
    return render_page(_page(studied))


def study_page(path: str, number: int, weigh: WeighOptions | None = None,
               weigher: Weigher = weigh_each) -> str:
    """The page of match ``number`` of the record at ``path``."""
    return render_page(study_page_of(path, number, weigh, weigher))
