"""The expectimax player values a position by the engine's rules, checked
against a second model: the exact solver.

In an endgame with nothing left to draw and every unseen tile in the one
opponent's hand, the expectimax model of the hidden tiles has no chance
left in it (the opponent holds each unseen tile with probability 1), so its
search to the round's end is plain minimax on the mover's points less the
opponent's. The solver's ``match`` objective values the same position by
exhaustive search: the points difference, plus or minus ``MATCH_WIN`` when
the round makes a winner. The two must agree move by move: a solver value
of a win or a loss is expectimax's ``WIN`` (give or take the points on the
way to it), anything else is the very same number.

The mover is put within reach of the target of its best placement, so one
move of each position reaches it. Under ``match_end: round-end`` that is no
win (the rules wait for the settlement, where ``deduct-own`` takes the
mover's remaining pips off again).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins_cli.engine.state import (
    Place,
    RoundState,
    apply,
    deal,
    legal_moves,
    new_round,
    placement_score,
)
from muggins_cli.engine.table import table_for
from muggins_cli.engine.view import view_of
from muggins_cli.play.expectimax import WIN, ExpectimaxStrategy, _Search
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import MatchEnd, Rules
from muggins_cli.solver import Plan, solve
from muggins_cli.solver.common import MATCH_WIN

PAGAT = load_preset("pagat")  # deduct-own, no reserve, must_play


def _endgames(rules: Rules, count: int) -> list[RoundState]:
    """Two-player positions of seeded random play with the stock empty, at
    most four tiles a hand, and a placement for the mover that scores."""
    out: list[RoundState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        hands, stock = deal(rules, 2, rng)
        state = new_round(hands, stock, 0)
        while not state.over:
            moves = legal_moves(rules, state)
            small = max(len(h) for h in state.hands) <= 4
            if not state.stock and small and state.drawn is None and any(
                    isinstance(m, Place) and placement_score(rules, state.layout, m) > 0
                    for m in moves):
                out.append(state)
                break
            state, _ = apply(rules, state, rng.choice(moves))
    return out


def _expectimax_values(rules: Rules, state: RoundState, scores: tuple[int, int],
                       target: int) -> list[float]:
    seen = view_of(rules, state, legal_moves(rules, state), scores, target)
    table = table_for(rules)
    search = _Search(rules, table, 0.5, None)
    root = ExpectimaxStrategy.root(rules, table, seen)
    return [ExpectimaxStrategy.move_value(search, table, root, seen.layout.key, m, 40)
            for m in seen.moves]


@pytest.mark.parametrize("match_end", [MatchEnd.ROUND_END, MatchEnd.AT_TARGET])
def test_expectimax_values_endgames_as_the_solver_does(match_end: MatchEnd) -> None:
    rules = dataclasses.replace(PAGAT, match_end=match_end)
    target = rules.target_for(2)
    reaching = 0
    for state in _endgames(rules, 12):
        seat = state.to_move
        best = max(placement_score(rules, state.layout, m) for m in legal_moves(rules, state)
                   if isinstance(m, Place))
        scores = [0, 0]
        scores[seat] = target - best  # the best placement reaches the target
        sc = (scores[0], scores[1])
        exact = solve(rules, state, Plan(objective="match", pv=False), scores=sc, target=target)
        values = _expectimax_values(rules, state, sc, target)
        assert [mv.move for mv in exact.moves] == legal_moves(rules, state)
        for mv, got in zip(exact.moves, values, strict=True):
            assert mv.value is not None
            if mv.value > MATCH_WIN / 2:
                assert got > WIN / 2, (state, mv)
            elif mv.value < -MATCH_WIN / 2:
                assert got < -WIN / 2, (state, mv)
            else:
                assert got == mv.value, (state, mv)
                reaching += isinstance(mv.move, Place) and placement_score(
                    rules, state.layout, mv.move) == best
    if match_end is MatchEnd.ROUND_END:
        # Positions where reaching the target is no win are among them.
        assert reaching >= 3
