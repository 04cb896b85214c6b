"""``muggins arena``: two strategies, duplicate format, a table of results;
or with ``--ladder`` several, each against the next, and their ratings."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from contextlib import AbstractContextManager
from typing import Annotated

import typer
from tabulate import tabulate

from muggins_cli.batch import TaskPool
from muggins_cli.cli.app import app, interrupted
from muggins_cli.cli.files import Output
from muggins_cli.cli.options import (
    NUMBER_MAX,
    ForceOption,
    ForgetOption,
    Format,
    HiddenOpt,
    HiddenOption,
    JobsOption,
    JsonOption,
    MoveNodesOption,
    MoveTimeOption,
    ObjectiveOpt,
    ObjectiveOption,
    QuietOption,
    RulesOption,
    SamplesOption,
    SearchLeadOption,
    SeedOption,
    TargetOption,
    check_output,
    fail,
    format_option,
    node_cap,
    output_format,
    prepare_solver,
    worker_count,
)
from muggins_cli.cli.progress import ProgressCount, counted, with_progress
from muggins_cli.cli.selfplay_cmd import rules_tag
from muggins_cli.cli.terminal import ColorOption, ColorWhen
from muggins_cli.errors import InputError, MugginsError
from muggins_cli.notation.writer import write_match
from muggins_cli.play.arena import (
    ArenaResult,
    ArenaSpec,
    Game,
    Pool,
    as_json,
    claims_text,
    play_pairs,
    tally,
    wilson,
)
from muggins_cli.play.ladder import Ladder, ladder_json, pairings, run_ladder
from muggins_cli.play.strategies import (
    DEFAULT_FORGET,
    DEFAULT_NODES,
    SEARCHING,
    STRATEGY_NAMES,
    make_strategy,
)
from muggins_cli.rules.loader import DEFAULT_PRESET, load_rules

_NAME = "muggins arena"
HEADERS = ("strategy", "matches", "wins", "win rate", "95% interval", "points/round")
LADDER_HEADERS = ("A", "B", "matches", "A wins", "B wins", "unfinished", "A win rate",
                  "95% interval")


def render(result: ArenaResult, tablefmt: str = "simple") -> str:
    """The table, and a line on the pairs (who won both legs of a deal)."""
    rows = []
    for s in result.sides:
        lo, hi = s.interval
        rows.append((s.name, s.games, s.wins, f"{s.win_rate:.1%}", f"{lo:.1%} – {hi:.1%}",
                     f"{s.points_per_round:.2f}"))
    table = tabulate(rows, headers=HEADERS, tablefmt=tablefmt, disable_numparse=True,
                     colalign=("left", "right", "right", "right", "right", "right"))
    a, b = (s.name for s in result.sides)
    spec = result.spec
    goal = spec.target if spec.target is not None else spec.rules.target_for(spec.players)
    sequences = counted(result.pairs, "deal sequence")
    head = (f"{spec.rules_tag or spec.rules.name}, {spec.players} players, to {goal}: "
            f"{sequences}, each played twice with the seats swapped "
            f"({counted(result.matches, 'match')})")
    if spec.lone:
        head = (f"{spec.rules_tag or spec.rules.name}, {spec.players} players, to {goal}: "
                f"{sequences}, each played {spec.players} times with {a} in "
                f"each seat in turn ({counted(result.matches, 'match')}; {a}'s fair share "
                f"{spec.fair_share:.0%})")
        tail = (f"deal sequences won in every seat: {a} {result.swept[0]}, {b} "
                f"{result.swept[1]}; split {result.split}")
    else:
        tail = (f"deal sequences won in both seats: {a} {result.swept[0]}, {b} "
                f"{result.swept[1]}; split {result.split}")
    if spec.rules.muggins:
        calls = "\n".join(claims_text(s.name, s.claims) for s in result.sides)
        tail = f"{calls}\n\n{tail}"
    return f"{head}\n\n{table}\n\n{tail}"


def render_ladder(ladder: Ladder, tablefmt: str = "simple") -> str:
    """The pairings, then the ratings from the top."""
    rows = []
    for r in ladder.rungs:
        lo, hi = wilson(r.wins, r.matches)
        rows.append((r.a, r.b, r.matches, r.wins, r.losses, r.unfinished,
                     f"{r.wins / r.matches:.1%}", f"{lo:.1%} – {hi:.1%}"))
    games = tabulate(rows, headers=LADDER_HEADERS, tablefmt=tablefmt, disable_numparse=True,
                     colalign=("left", "left", "right", "right", "right", "right", "right",
                               "right"))
    rates = ladder.ratings()
    order = sorted(rates, key=lambda n: -rates[n])
    board = tabulate([(n, f"{rates[n]:+.0f}") for n in order], headers=("strategy", "rating"),
                     tablefmt=tablefmt, disable_numparse=True, colalign=("left", "right"))
    spec = ladder.results[0].spec
    goal = spec.target if spec.target is not None else spec.rules.target_for(spec.players)
    head = (f"{spec.rules_tag or spec.rules.name}, {spec.players} players, to {goal}: "
            f"{counted(len(ladder.results), 'pairing')}, "
            f"{counted(ladder.results[0].pairs, 'deal sequence')} each, "
            "every one played in both seats")
    foot = (f"rating: Elo scale (400 = ten to one), Bradley-Terry fit to every pairing, "
            f"{ladder.names[0]} = 0")
    return f"{head}\n\n{games}\n\n{board}\n\n{foot}"


@app.command("arena")
def arena(
    a: Annotated[str | None, typer.Argument(
        metavar="A", help=f"A strategy: {', '.join(STRATEGY_NAMES)}.", show_default=False)] = None,
    b: Annotated[str | None, typer.Argument(metavar="B", help="The strategy it plays against.",
                                            show_default=False)] = None,
    *,
    ladder: Annotated[
        str | None, typer.Option("--ladder", metavar="S1,S2,...",
                                 help="Instead of A and B: each strategy against the next, then "
                                      "a rating for each (the first = 0).", show_default=False)
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="With --ladder: every pair, not only neighbours.")
    ] = False,
    lone: Annotated[
        bool, typer.Option("--lone", help="A in one seat against B in every other, each seat "
                                          "in turn (a deal sequence is played once per seat).")
    ] = False,
    rules_spec: RulesOption = DEFAULT_PRESET,
    sequences: Annotated[
        int, typer.Option("--sequences", "--matches", "-k", min=1, max=NUMBER_MAX, metavar="K",
                          help="Deal sequences (at least 1); each is played twice, seats "
                               "swapped (2K matches; with --lone once per seat).")
    ] = 50,
    seed: SeedOption = 0,
    players: Annotated[
        int, typer.Option("--players", "-n", min=2, max=4, metavar="N",
                          help="Seats, 2 to 4: A and B alternate round the table (A first in "
                               "the first leg, B first in the second).")
    ] = 2,
    target: TargetOption = None,
    samples: SamplesOption = None,
    nodes: MoveNodesOption = DEFAULT_NODES,
    move_time: MoveTimeOption = None,
    objective: ObjectiveOption = ObjectiveOpt.match,
    search_lead: SearchLeadOption = False,
    hidden: HiddenOption = HiddenOpt.sample,
    forget: ForgetOption = DEFAULT_FORGET,
    jobs: JobsOption = None,
    fmt: Annotated[
        str,
        format_option(Format.table, Format.json,
                      help="table: the table and a line on the pairs; json: "
                           "one JSON document."),
    ] = Format.table.value,
    as_json_out: JsonOption = False,
    output: Annotated[
        str | None, typer.Option("--output", "-o", metavar="FILE",
                                 help="Also write every match as an MGN record to FILE, "
                                      "atomically (an existing FILE needs --force); - writes "
                                      "them to stdout and the table to stderr.",
                                 show_default=False)
    ] = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
    color: ColorOption = ColorWhen.auto,
) -> None:
    """Play strategy A against B in duplicate format: every deal sequence is
    played twice with the seats swapped (the same shuffles in the same round
    order), to take the luck of the deal out. Then a table: match wins, win
    rate with its 95% Wilson interval, and average points per round (the
    final scores over the rounds played, per seat).

    With --ladder, each strategy plays the next on the same deals (--all:
    every pair), and a second table rates them on the Elo scale, anchored
    at the first.

    Strategies: random (any legal move), greedy (the highest immediate
    score, ties to the heaviest tile), careless (greedy that forgets to
    claim a score with probability --forget), defensive (greedy, less the reply it
    leaves the next player over the tiles they may hold, shedding heavy
    tiles late, keeping suits), expectimax (a few plies ahead, the hidden
    tiles as chance), solver (deals of the hidden tiles consistent with
    what the others drew, passed and passed over, each solved exactly, the
    best average played, or --hidden expectimax; an exact search once the
    deal is known; on what the player sees), oracle
    (CHEATS: sees every hand and the stock; the upper bound of what knowing
    them is worth, never a fair opponent).

    Under rules with a muggins call (spinner, all-threes) a placement
    credits only what its player claims, and an opponent may take the rest
    by calling muggins. Every strategy but careless claims all it scores,
    and every strategy calls on every unclaimed score it is shown; the table
    is followed by what each side made and claimed, and what it was shown
    unclaimed and called, e.g. against careless.

    The interval treats the 2K matches as independent; the two legs of a
    deal sequence are not (the luck of the deal cancels between them), which
    makes it conservative.

    Exit status: 0, or 2 when the command line or the rules are wrong.

    \b
    Examples:
        muggins arena greedy random --sequences 100 --seed 1
        muggins arena solver greedy --rules pagat --sequences 100 --jobs 2 --json
        muggins arena --ladder random,greedy,defensive --sequences 50
        muggins arena solver greedy --players 3 --lone --sequences 20
        muggins arena solver careless --rules spinner --forget 0.3 --sequences 20
    """
    try:
        names = _names(a, b, ladder, every=every, writing=output is not None)
        a, b = names[0], names[1]
        for name in (a, b):
            make_strategy(name, forget=forget)
        rules = load_rules(rules_spec)
        if players not in rules.players:
            allowed = ", ".join(str(p) for p in rules.players)
            raise InputError(f"the rules {rules.name} allow {allowed} players, not {players}")
        tag = rules_tag(rules_spec, output) if output is not None else rules.name
    except MugginsError as e:
        raise fail(_NAME, str(e)) from None
    fmt = output_format(fmt, as_json_out)
    check_output(_NAME, output, force)
    spec = ArenaSpec(a, b, rules, players=players, seed=seed, target=target, rules_tag=tag,
                     samples=samples, node_limit=node_cap(nodes), time_limit=move_time,
                     objective=objective.value, search_lead=search_lead, lone=lone,
                     forget=forget, hidden=hidden.value)
    if SEARCHING & {a, b, *names}:
        prepare_solver(_NAME, quiet=quiet)
    if ladder is not None:
        jobs = worker_count(_NAME, jobs, sequences, unit="deal sequence")
        _ladder(names, spec, sequences, every, jobs, fmt is Format.json, quiet)
        return
    sink = Output(output, force=force) if output is not None else None
    jobs = worker_count(_NAME, jobs, sequences, unit="deal sequence")
    start = time.perf_counter()
    games = _played(spec, sequences, jobs, sink, quiet)
    if games is None:
        raise typer.Exit(interrupted(_NAME))
    result = tally(spec, games)
    # The records on standard output (-o -) leave the table to standard error.
    out = sys.stderr if sink is not None and sink.to_stdout else sys.stdout
    if fmt is Format.json:
        doc = as_json(result)
        out.write(json.dumps(doc, indent=2) + "\n")
    else:
        out.write(render(result) + "\n")
    if not quiet:
        sys.stderr.write(f"{counted(result.matches, 'match')} in "
                         f"{time.perf_counter() - start:.1f} s\n")


def _names(a: str | None, b: str | None, ladder: str | None, *, every: bool,
           writing: bool) -> list[str]:
    """The strategies to play: A and B, or the ladder's (at least two)."""
    if ladder is not None:
        if a is not None or writing:
            raise InputError("--ladder takes the place of A and B, and writes no records")
        names = [x.strip() for x in ladder.split(",")]
        pairings(names, every)
        return names
    if a is None or b is None:
        raise InputError("name two strategies, A and B, or give --ladder")
    if every:
        raise InputError("--all goes with --ladder")
    return [a, b]


def _workers(jobs: int) -> AbstractContextManager[Pool | None]:
    """The worker processes for ``jobs`` over 1, started before the progress
    bar's thread, and stopped, on Ctrl-C or a signal, by the pool that knows
    how (``None``: play here)."""
    return TaskPool(jobs) if jobs > 1 else contextlib.nullcontext()


def _played(spec: ArenaSpec, sequences: int, jobs: int, sink: Output | None,
            quiet: bool) -> list[Game] | None:
    """Every game of ``sequences`` deal sequences, or None after Ctrl-C;
    with ``sink``, the whole matches played are written to it in order,
    also after Ctrl-C."""
    games: list[Game] = []
    stopped = False
    with sink if sink is not None else contextlib.nullcontext():
        try:
            with _workers(jobs) as pool:
                pairs = play_pairs(spec, sequences, pool=pool, keep_records=sink is not None)
                for done in with_progress(pairs, sequences, quiet=quiet, noun="deal sequence",
                                          verb="played"):
                    games.extend(done)
        except KeyboardInterrupt:
            stopped = True
        if sink is not None:
            records = [g.record for g in sorted(games, key=lambda g: (g.pair, g.leg))]
            sink.write("\n".join(write_match(r) for r in records if r is not None))
            sink.commit()
    return None if stopped else games


def _ladder(names: list[str], spec: ArenaSpec, matches: int, every: bool, jobs: int,
            as_json_out: bool, quiet: bool) -> None:
    start = time.perf_counter()
    total = len(pairings(names, every)) * matches
    try:
        with _workers(jobs) as pool, ProgressCount(total, quiet=quiet, noun="deal sequence",
                                                   verb="played") as count:
            result = run_ladder(names, spec, matches, every=every, pool=pool,
                                on_pair=lambda _: count.advance())
    except KeyboardInterrupt:
        raise typer.Exit(interrupted(_NAME)) from None
    if as_json_out:
        sys.stdout.write(json.dumps(ladder_json(result), indent=2) + "\n")
    else:
        sys.stdout.write(render_ladder(result) + "\n")
    if not quiet:
        matches_played = sum(r.matches for r in result.results)
        sys.stderr.write(f"{counted(matches_played, 'match')} in "
                         f"{time.perf_counter() - start:.1f} s\n")


__all__ = ["arena", "render", "render_ladder"]
