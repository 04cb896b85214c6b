"""Every deal dealt counts: a costly deal is searched with what its turn
has left, or counted with a bound on its values, never put aside for
another; the turn's work bound holds; the principal lines are searched
only when asked for, and capped."""

from __future__ import annotations

import pytest

from muggins_cli.engine.state import legal_moves
from muggins_cli.engine.view import view_of
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import Multi, Plan, perfect, sampled, solve
from muggins_cli.solver.common import Objective
from muggins_cli.solver.sampled import value_bound
from tests.test_solver_reference import endgame


def _every(per: object, done: int) -> list[object]:
    return list(per)  # type: ignore[call-overload]


def _free_and_know(seed: int, deals: int):  # type: ignore[no-untyped-def]
    """A two-player view with deals of unequal cost (tens to a thousand
    nodes), and every move valued in each of ``deals`` deals with no cap at
    all (the truth to compare)."""
    rules = load_preset("pagat")
    state = endgame(rules, 2, seed, 18, min_stock=4)
    assert len(legal_moves(rules, state)) >= 3
    know = view_of(rules, state, legal_moves(rules, state), (0, 0), 250)
    free = solve(rules, know, Plan(mode="sample", samples=deals, enough=_every, pv=False, seed=seed,
                 node_limit=None, multi=Multi.PARANOID))
    assert free.samples == free.dealt == deals and free.unfinished == 0
    return rules, know, free


def test_a_deal_past_the_cap_goes_on_with_the_turns_work_and_is_never_replaced() -> None:
    """With a cap below what half the deals take and work enough for all,
    the sampling is the uncapped one deal by deal: the same deals in the
    same order (a deal put aside and replaced would shift every later one),
    each valued exactly."""
    rules, know, free = _free_and_know(3, 12)
    took = sorted(free.deal_nodes)
    cap = took[len(took) // 2]
    assert sum(n > cap for n in free.deal_nodes) >= 3  # deals the cap alone would cut
    got = solve(rules, know, Plan(mode="sample", samples=12, enough=_every, pv=False, seed=3,
                node_limit=cap, node_total=2 * sum(free.deal_nodes), multi=Multi.PARANOID))
    assert got.samples == got.dealt == 12 and got.unfinished == 0
    assert got.deal_nodes == free.deal_nodes
    truth = {str(mv.move): mv.deals for mv in free.moves}
    for mv in got.moves:
        assert mv.deals == truth[str(mv.move)] and mv.spread == ()


def _record(took: tuple[int, ...]) -> int:
    """The first deal after the first that took more nodes than every one
    before it."""
    return next(j for j in range(1, len(took)) if took[j] > max(took[:j]))


def test_the_work_bound_holds_and_the_deal_it_cuts_is_counted_with_a_bound() -> None:
    """A cap of one node, and work for the deals before the first one
    costlier than all before it (deal j) and halfway from the costliest of
    those to what deal j takes: deal j is dealt (one as costly as any so far
    fits), may search what is left of the work, does not finish, and is
    counted with what it found (a move it valued, exactly; any other at the
    middle of the value bound, half its width as its spread); sampling stops
    there, within the work plus one cap."""
    rules, know, free = _free_and_know(1, 8)
    took = free.deal_nodes
    j = _record(took)
    total = sum(took[:j]) + (max(took[:j]) + took[j]) // 2
    got = solve(rules, know, Plan(mode="sample", samples=8, enough=_every, pv=False, seed=1,
                node_limit=1, node_total=total, multi=Multi.PARANOID))
    assert got.samples == got.dealt == j + 1 and got.unfinished == 1
    assert got.nodes <= total + 1
    truth = {str(mv.move): mv.deals for mv in free.moves}
    cut = []
    for mv in got.moves:
        assert mv.deals[:j] == truth[str(mv.move)][:j] and mv.spread[:j] == (0.0,) * j
        if mv.spread[j]:
            cut.append(mv)
            assert mv.deals[j] == 0.0
        else:
            assert mv.deals[j] == truth[str(mv.move)][j]
    assert cut  # the search stopped before it valued every move
    bound = max(mv.spread[j] for mv in cut)
    assert all(mv.spread[j] == bound for mv in cut)
    for values in truth.values():
        assert all(abs(v) <= bound for v in values[:j + 1])


def test_no_deal_is_dealt_that_one_as_costly_as_before_would_not_fit() -> None:
    """Work that leaves less for deal j than the costliest deal before it
    took: sampling stops before dealing it, with every deal it dealt solved."""
    rules, know, free = _free_and_know(1, 8)
    took = free.deal_nodes
    j = _record(took)
    total = sum(took[:j]) + max(took[:j]) - 1
    got = solve(rules, know, Plan(mode="sample", samples=8, enough=_every, pv=False, seed=1,
                node_limit=1, node_total=total, multi=Multi.PARANOID))
    assert got.samples == got.dealt == j and got.unfinished == 0
    assert got.deal_nodes == took[:j]


@pytest.mark.parametrize("preset", ["pagat", "spinner", "all-threes"])
@pytest.mark.parametrize("objective", [Objective.POINTS, Objective.MATCH])
def test_the_value_bound_bounds_every_exact_value(preset: str, objective: Objective) -> None:
    """Exact values of every move in positions of several sizes lie within
    the bound a deal that does not finish is counted with."""
    rules = load_preset(preset)
    for players in (2, 3):
        for seed in range(4):
            state = endgame(rules, players, seed, 9)
            res = solve(rules, state, Plan(mode="perfect", objective=objective, pv=False,
                        multi=Multi.PARANOID))
            assert res.exact
            bound = value_bound(rules, state, objective)
            assert all(mv.value is not None and abs(mv.value) <= bound for mv in res.moves)


def test_principal_lines_only_when_asked_and_always_capped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sampled answer without ``pv`` makes no search for lines; with it,
    the one search for lines has a node cap (twice what its deal took, and
    a little), whatever the budget of the answer."""
    rules, know, free = _free_and_know(3, 6)
    asked: list[int | None] = []
    real = sampled.solve_perfect

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        if args[6]:  # want_pv
            asked.append(args[5].node_limit)
        return real(*args, **kwargs)

    monkeypatch.setattr(sampled, "solve_perfect", spy)
    solve(rules, know, Plan(mode="sample", samples=6, enough=_every, pv=False, seed=3,
          multi=Multi.PARANOID))
    assert asked == []
    with_lines = solve(rules, know, Plan(mode="sample", samples=6, enough=_every, pv=True, seed=3,
                       node_limit=None, multi=Multi.PARANOID))
    assert len(asked) == 1 and asked[0] is not None
    assert asked[0] <= 2 * max(free.deal_nodes) + sampled.LINES_LEAST_NODES
    assert with_lines.deal is not None
    assert any(len(mv.pv) > 1 for mv in with_lines.moves)


def test_a_deal_values_the_moves_in_the_order_they_are_named() -> None:
    """Named as a sequence, the moves are valued in its order (and only
    those); named as a set, or not at all, in the engine's order."""
    rules = load_preset("pagat")
    state = endgame(rules, 2, 3, 18, min_stock=4)
    moves = legal_moves(rules, state)
    assert len(moves) >= 3
    assert perfect.in_order(moves, None) == list(range(len(moves)))
    assert perfect.in_order(moves, [moves[2], moves[0]]) == [2, 0]
    assert perfect.in_order(moves, {moves[2], moves[0]}) == [0, 2]
