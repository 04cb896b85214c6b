"""``muggins selfplay``: complete matches played by strategies, as MGN."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from muggins_cli.cli.app import app, interrupted
from muggins_cli.cli.files import STDOUT, Output
from muggins_cli.cli.options import (
    NUMBER_MAX,
    ForceOption,
    ForgetOption,
    HiddenOpt,
    HiddenOption,
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
    node_cap,
)
from muggins_cli.cli.progress import with_progress
from muggins_cli.cli.terminal import ColorOption, ColorWhen
from muggins_cli.errors import InputError, MugginsError
from muggins_cli.notation import model as m
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import (
    DEFAULT_FORGET,
    DEFAULT_NODES,
    STRATEGY_NAMES,
    AnyStrategy,
    make_strategy,
)
from muggins_cli.rules.loader import DEFAULT_PRESET, load_rules, preset_names
from muggins_cli.rules.model import Rules

_NAME = "muggins selfplay"
#: Player names by seat when --names is not given.
DEFAULT_NAMES = ("Ana", "Budi", "Citra", "Dewi")


@app.command("selfplay")
def selfplay(
    *,
    rules_spec: RulesOption = DEFAULT_PRESET,
    players: Annotated[int, typer.Option("--players", "-n", min=2, max=8, metavar="N",
                                         help="Seats at the table (2 to 8, as the rules "
                                              "allow).")] = 2,
    seed: SeedOption = 0,
    matches: Annotated[int, typer.Option("--matches", "-k", min=1, max=NUMBER_MAX,
                                         metavar="K",
                                         help="Matches to play (at least 1).")] = 1,
    strategy: Annotated[
        str, typer.Option("--strategy", metavar="A,B[,C,D]",
                          help="A strategy per seat, in seating order (one name: every seat). "
                               f"Strategies: {', '.join(STRATEGY_NAMES)}.")
    ] = "greedy",
    names: Annotated[
        str | None, typer.Option("--names", metavar="NAME,NAME[,...]",
                                 help=f"Player names by seat (default {', '.join(DEFAULT_NAMES)}).",
                                 show_default=False)
    ] = None,
    target: TargetOption = None,
    output: Annotated[
        str | None, typer.Option("--output", "-o", metavar="FILE",
                                 help="Write the records to FILE instead of stdout (- is "
                                      "stdout), atomically (an existing FILE needs --force). "
                                      "Ctrl-C keeps the matches finished.",
                                 show_default=False)
    ] = None,
    force: ForceOption = False,
    samples: SamplesOption = None,
    nodes: MoveNodesOption = DEFAULT_NODES,
    move_time: MoveTimeOption = None,
    objective: ObjectiveOption = ObjectiveOpt.match,
    search_lead: SearchLeadOption = False,
    hidden: HiddenOption = HiddenOpt.sample,
    forget: ForgetOption = DEFAULT_FORGET,
    quiet: QuietOption = False,
    color: ColorOption = ColorWhen.auto,
) -> None:
    """Play complete matches between strategies and write them as MGN records,
    with every deal and the stock order, so `muggins check` can verify every
    move in them.

    Strategies: random (any legal move), greedy (the highest immediate score,
    ties to the heaviest tile), careless (greedy that forgets to claim a
    score with probability --forget), defensive (greedy, less the reply it leaves
    the next player over the tiles they may hold, shedding heavy tiles late,
    keeping suits), expectimax (a few plies ahead, the hidden tiles as
    chance), solver (deals of the hidden tiles consistent with what the
    others drew, passed and passed over, each solved exactly, the best
    average played, or --hidden expectimax; an exact search once the deal
    is known; all on what the player sees: own hand, layout, hand
    sizes, stock count, draws, passes and placements), oracle
    (CHEATS: sees every hand and the stock; an upper bound, not a player).
    Match k of a run is played from the seed and k alone.

    Under rules with a muggins call (spinner, all-threes) a placement
    credits only what its player claims. Every strategy claims all it
    scores, except careless, which now and then claims nothing: that turn
    then has no `+N`, and an opponent may take the points with a
    `NAME: muggins +N` line right after it. The opponents are asked in
    turn, clockwise from the next player, and the first to call takes them
    (one call at most); every strategy calls on every unclaimed score.

    Exit status: 0, or 2 when the command line or the rules are wrong.

    \b
    Examples:
        muggins selfplay --players 3 --strategy greedy,random,greedy --matches 5 -o games.mgn
        muggins selfplay --rules spinner --strategy solver,greedy --seed 7 | muggins check -
        muggins selfplay --rules spinner --strategy solver,careless --forget 0.5 | grep muggins
    """
    try:
        rules = load_rules(rules_spec)
        seats = seat_names(players, names, rules)
        kinds = strategy_list(strategy, players)
        tag = rules_tag(rules_spec, output)
        for kind in kinds:  # refuse a bad name before any output
            make_strategy(kind, forget=forget)
    except MugginsError as e:
        raise fail(_NAME, str(e)) from None
    check_output(_NAME, output, force)

    def one(k: int) -> m.Match:
        strategies: list[AnyStrategy] = [
            make_strategy(x, samples=samples, node_limit=node_cap(nodes), time_limit=move_time,
                          objective=objective.value, search_lead=search_lead, forget=forget,
                          hidden=hidden.value)
            for x in kinds]
        rng = random.Random(f"selfplay:{seed}:{k}")
        out = play_match(rules, seats, strategies, rng, rules_tag=tag, target=target)
        extra = m.Tag("Strategies", ", ".join(kinds), 0, 0)
        return replace(out.record, tags=(*out.record.tags, extra))

    with Output(output if output is not None else STDOUT, force=force) as sink:
        try:
            for k in with_progress(range(matches), matches, quiet=quiet, noun="match",
                                   verb="played"):
                sink.write(("\n" if k else "") + write_match(one(k)))
                sink.flush()
        except KeyboardInterrupt:
            sink.commit()  # the matches finished, each whole
            raise typer.Exit(interrupted(_NAME)) from None
        sink.commit()


def strategy_list(spec: str, players: int) -> list[str]:
    """The strategy of each seat: one name for all, or one per seat."""
    kinds = [x.strip() for x in spec.split(",")]
    for k in kinds:
        if k not in STRATEGY_NAMES:
            raise InputError(f"unknown strategy {k!r}; choose from {', '.join(STRATEGY_NAMES)}")
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        raise InputError(f"--strategy names {len(kinds)} strategies for {players} players "
                         "(give one for every seat, or one for all)")
    return kinds


def seat_names(players: int, names: str | None, rules: Rules) -> list[str]:
    if players not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise InputError(f"the rules {rules.name} allow {allowed} players, not {players}")
    if names is None:
        if players > len(DEFAULT_NAMES):
            return [f"P{i + 1}" for i in range(players)]
        return list(DEFAULT_NAMES[:players])
    out = list(m.split_players(names))
    if len(out) != players:
        raise InputError(f"--names gives {len(out)} names for {players} players")
    problems = m.players_problems(out)
    if problems:
        raise InputError(f"--names: {problems[0]}")
    return out


def rules_tag(spec: str, output: str | None) -> str:
    """The Rules tag that names ``spec`` from the record: a preset by name,
    a file by its path relative to the output's folder (the current one for
    stdout), which must not leave it."""
    if spec in preset_names():
        return spec
    base = Path(os.path.dirname(os.path.abspath(output))) if output else Path.cwd()
    rel = os.path.relpath(os.path.abspath(spec), base)
    if rel.startswith(os.pardir) or os.path.isabs(rel):
        raise InputError(f"the rules file {spec} is outside the output's folder; a record "
                         "can only name rules files beside it or below it")
    return Path(rel).as_posix()




__all__ = ["selfplay", "strategy_list"]
