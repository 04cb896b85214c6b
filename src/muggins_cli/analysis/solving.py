"""Solving a recorded position: the state each mode needs and what the mover saw.

``muggins solve`` asks the solver about one position of a record. Which
state the solver gets depends on the mode and on what the record shows
(perfect: every hand and the stock order; expect: every hand; sample: the
mover's view only), and a mode the record cannot support is an
:class:`InputError`. This is game logic, so it lives here and not in the
command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from muggins_cli.engine.state import RoundState
from muggins_cli.errors import InputError
from muggins_cli.notation.model import Match, Severity, Turn
from muggins_cli.notation.model import Pass as PassStep
from muggins_cli.replay.position import Position, parse_at
from muggins_cli.replay.replay import run_replay
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.replay.watch import Checker, PositionAt, Positions
from muggins_cli.tiles import Tile, full_set

if TYPE_CHECKING:  # the solver (Numba) only when a position is solved
    from muggins_cli.solver import SolveResult

def playable_position(match: Match, resolve: RulesResolver, at: str
                      ) -> tuple[Position, list[str]]:
    """The position before turn ``at`` (R.T) and the turns of its round so
    far as the mover saw them (other players' draws as ``d??``); a position
    with nothing left to play is an :class:`InputError`."""
    wanted, seen, checked = PositionAt(*parse_at(at)), Positions(), Checker()
    run_replay(match, resolve, wanted, seen, checked)
    pos = wanted.position()
    problem = position_problem(pos)
    if problem is not None:
        errors = [d for d in checked.diagnostics if d.severity is Severity.ERROR]
        why = "" if not errors else (
            f" (the record has {len(errors)} error{'' if len(errors) == 1 else 's'}, the "
            f"first at line {errors[0].line}: {errors[0].code} {errors[0].message})")
        raise InputError(f"position {pos.round}.{pos.turn} cannot be played: {problem}{why}")
    if pos.match_over:
        raise InputError(f"position {pos.round}.{pos.turn}: the match is over")
    if pos.round_over:
        raise InputError(f"position {pos.round}.{pos.turn} is the end of the round: "
                         "nothing is left to play")
    history = [seen_turn(item, pos.players.index(item.player) == pos.to_move)
               for p, item in seen.out
               if p.round == pos.round and isinstance(item, Turn) and p.turn < pos.turn]
    return pos, history


def position_problem(pos: Position) -> str | None:
    """Why no deal can lead to ``pos``, or None. A record with errors can
    take the replay to such a position (a hand dealt one tile too many, a
    tile both dealt and in the stock), and a search from it would value a
    game that cannot be played: every tile the record places must be in one
    place, and the hands, the stock and the table must make up the set."""
    where: dict[Tile, str] = {}
    places: list[tuple[str, Sequence[Tile]]] = [("on the table", list(pos.layout.tiles()))]
    places += [(f"in {pos.players[seat]}'s hand", sorted(hand))
               for seat, hand in enumerate(pos.hands) if hand is not None]
    if pos.stock is not None:
        places.append(("in the stock", pos.stock))
    for place, tiles in places:
        for t in tiles:
            if t.hi > pos.rules.max_pip:
                return f"{t} is not in a double-{pos.rules.max_pip} set"
            if t in where:
                return f"{t} is both {where[t]} and {place}"
            where[t] = place
    in_set = len(full_set(pos.rules.max_pip))
    total = len(pos.layout.tiles()) + sum(pos.hand_sizes) + pos.stock_count
    if total != in_set:
        return (f"the hands, the stock and the table hold {total} tiles, and a "
                f"double-{pos.rules.max_pip} set has {in_set}")
    return None


def seen_turn(item: Turn, own: bool) -> str:
    """A turn line as a player at the table saw it: their own draws, or
    another player's as ``d??``."""
    steps = [f"d{d.tile.tile}" if own and d.tile is not None else "d??" for d in item.draws]
    if isinstance(item.action, PassStep):
        steps.append("pass")
    else:
        a = item.action
        steps.append(f"{a.tile.tile}{a.end.value if a.end is not None else ''}")
    return f"{item.player}: {' '.join(steps)}"


def solve_position(
    pos: Position, mode: str, *, objective: str, time_limit: float | None,
    node_limit: int | None, seed: int, samples: int, history: Sequence[str] = (),
    multi: str = "paranoid",
) -> tuple[SolveResult, RoundState | None]:
    """Solve ``pos`` in ``mode``; also the state the search started from
    (in ``sample``, the sampled deal its principal variations were played
    in, or None)."""
    from muggins_cli.solver import Mode, Multi, Objective, Plan, solve

    rules = pos.rules
    plan = Plan(mode=Mode(mode), objective=Objective(objective), multi=Multi(multi),
                time_limit=time_limit, node_limit=node_limit, seed=seed, samples=samples)
    where = f"position {pos.round}.{pos.turn}"
    if mode == "perfect":
        if not pos.perfect:
            raise InputError(f"{where}: --mode perfect needs every hand and the stock order, "
                             "which the record does not show (try --mode expect or sample)")
        state = pos.state()
    elif mode == "expect":
        if any(h is None for h in pos.hands):
            raise InputError(f"{where}: --mode expect needs every hand (deal lines), which the "
                             "record does not show (try --mode sample)")
        state = open_state(pos)
    else:
        know = dataclasses.replace(pos.view(), history=tuple(history))
        res = solve(rules, know, dataclasses.replace(plan, mode=Mode.SAMPLE, first_whole=True))
        return res, res.deal
    return solve(rules, state, plan, scores=pos.scores, target=pos.target), state


def open_state(pos: Position) -> RoundState:
    """Every hand known, the stock's order perhaps not: a state whose stock
    holds the right tiles (in the recorded order when known; ``expect``
    reads only which tiles they are)."""
    hands = tuple(h if h is not None else frozenset() for h in pos.hands)
    if pos.stock is not None:
        stock: tuple[Tile, ...] = pos.stock
    else:
        used = set(pos.layout.tiles()).union(*hands)
        stock = tuple(t for t in full_set(pos.rules.max_pip) if t not in used)
    return RoundState(hands, stock, pos.layout, pos.to_move, pos.drawn,
                      lead_tile=pos.lead_tile)
