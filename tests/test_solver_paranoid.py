"""The paranoid search for three and four players against a plain
exhaustive paranoid minimax over the engine (tests/test_solver_reference.py),
move by move, over the rules variants the other solver tests use."""

from __future__ import annotations

import dataclasses

import pytest

from muggins_cli.engine.state import legal_moves
from muggins_cli.rules.model import MatchEnd
from muggins_cli.solver import Plan, solve
from tests.conftest import quick_then_thorough
from tests.test_solver import QUICK_SEEDS, SEEDS, VARIANTS, _scores
from tests.test_solver_reference import endgame, move_value2, paranoid_move

CASES = {**VARIANTS, "round-end": dataclasses.replace(VARIANTS["pagat"],
                                                      match_end=MatchEnd.ROUND_END)}


@pytest.mark.parametrize("seeds", quick_then_thorough(SEEDS, QUICK_SEEDS))
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("name", list(CASES))
def test_every_move_value_equals_exhaustive_paranoid(name: str, players: int, seeds: range
                                                     ) -> None:
    rules = CASES[name]
    checked = 0
    for seed in seeds:
        left = {3: 9, 4: 10}[players] - (0 if rules.must_play else 2)
        state = endgame(rules, players, 7000 * players + seed, left)
        scores, target = _scores(rules, players, seed)
        dists = [target - s for s in scores]
        match = seed % 3 == 0
        res = solve(rules, state, scores=scores, target=target,
                    plan=Plan(objective="match" if match else "points", multi="paranoid", pv=False))
        assert res.exact and res.stopped is None
        assert [m.move for m in res.moves] == legal_moves(rules, state)
        for mv in res.moves:
            ref = paranoid_move(rules, state, mv.move, dists, match, state.to_move)
            assert mv.value == pytest.approx(ref), (seed, mv)
            checked += 1
        assert res.value == max(m.value for m in res.moves if m.value is not None)
    assert checked >= len(seeds)


@pytest.mark.parametrize("seeds", quick_then_thorough(10, 3))
@pytest.mark.parametrize("name", ["pagat", "spinner", "no-must-play"])
def test_two_players_paranoid_is_the_two_player_value(name: str, seeds: range) -> None:
    """With two players the reduction is no reduction: the same values."""
    rules = VARIANTS[name]
    for seed in seeds:
        state = endgame(rules, 2, 500 + seed, 10)
        dists = [rules.target_for(2)] * 2
        res = solve(rules, state, Plan(multi="paranoid", pv=False))
        for mv in res.moves:
            assert mv.value == move_value2(rules, state, mv.move, dists, False)
