"""The compiled search's own machinery: budgets between slices, the layout
memo and the transposition table growing or replaced, and the limits it
refuses with a message. Values are held to the exhaustive searches of
tests/test_solver_reference.py, never to the search's own output."""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from muggins_cli.engine.keys import rule_ints
from muggins_cli.engine.state import deal, legal_moves, new_round
from muggins_cli.engine.table import table_for
from muggins_cli.errors import InputError
from muggins_cli.rules.model import MatchEnd
from muggins_cli.solver import Plan, common, kernel, kernel_frame, solve
from muggins_cli.solver.common import Objective
from muggins_cli.solver.game import SolverGame
from muggins_cli.solver.kernel import SLICE
from muggins_cli.solver.perfect import root_node
from muggins_cli.solver.roots import Root
from tests.test_solver import PAGAT, VARIANTS
from tests.test_solver_reference import (
    endgame,
    minimax2,
    move_value2,
    move_vec,
    paranoid,
    paranoid_move,
)
from tests.test_solver_reference import maxn as maxn_ref

SPINNER = VARIANTS["spinner"]


def _exhaustive2(rules, state):  # type: ignore[no-untyped-def]
    return [move_value2(rules, state, m, [250, 250], False) for m in legal_moves(rules, state)]


def _values(rules, state, **kw):  # type: ignore[no-untyped-def]
    res = solve(rules, state, Plan(pv=False, **kw), scores=[0] * state.players, target=250)
    return [m.value for m in res.moves], res.nodes


def test_tiny_tables_still_give_exact_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of 16 rows that may grow to 64 replaces entries all the
    time: every value still equals the exhaustive search's (an entry holds
    valid bounds whatever replaced what)."""
    monkeypatch.setattr(kernel, "TT_FIRST", 16)
    monkeypatch.setattr(kernel, "TT_MOST", 64)
    monkeypatch.setattr(kernel, "_POOL", {})
    for seed in range(4):
        for rules in (PAGAT, SPINNER):
            state = endgame(rules, 2, 4400 + seed, 10)
            values, _ = _values(rules, state)
            assert values == _exhaustive2(rules, state)
    state = endgame(PAGAT, 3, 4500, 9)
    values, _ = _values(PAGAT, state, multi="paranoid")
    assert values == pytest.approx([paranoid_move(PAGAT, state, m, [250] * 3, False, state.to_move)
                                    for m in legal_moves(PAGAT, state)])


def test_a_memo_that_grows_starts_the_search_again_with_the_same_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A layout memo of 4 layouts must grow many times during one search:
    the answer, and what the search counted, are those of a search that
    never had to (so a node budget stops it where it would have)."""
    state = endgame(SPINNER, 2, 4600, 12)
    roomy = _values(SPINNER, state)
    monkeypatch.setattr(kernel, "MEMO_KEYS", 4)
    monkeypatch.setattr(kernel, "MEMO_MOVES", 64)
    monkeypatch.setattr(kernel, "_MEMO", {})
    cramped = _values(SPINNER, state)
    assert cramped == roomy
    assert cramped[0] == _exhaustive2(SPINNER, state)


def test_a_memo_at_its_largest_is_emptied_and_a_search_that_needs_more_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its largest the memo is emptied, not grown (memory stays
    bounded); a search that needs more layouts than that is refused with a
    message, not run for ever."""
    monkeypatch.setattr(kernel, "MEMO_KEYS", 4)
    monkeypatch.setattr(kernel, "MEMO_MOVES", 16)
    monkeypatch.setattr(kernel, "MEMO_MOST_MOVES", 32)
    monkeypatch.setattr(kernel, "_MEMO", {})
    hands, stock = deal(SPINNER, 2, random.Random(5))
    with pytest.raises(InputError, match="more layouts than the solver keeps"):
        solve(SPINNER, new_round(hands, stock, 0), Plan(pv=False))


def test_a_slice_of_a_few_nodes_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search stops after every slice and goes on from its stack: with
    slices of 7 nodes the values and the count are those of slices of
    thousands."""
    state = endgame(PAGAT, 3, 4700, 11)
    whole = _values(PAGAT, state, multi="paranoid")
    monkeypatch.setattr(kernel, "SLICE", 7)
    assert _values(PAGAT, state, multi="paranoid") == whole


@pytest.mark.parametrize("limit", [1, 500, 5000])
def test_a_node_budget_stops_at_that_node(limit: int) -> None:
    """A round from its lead needs far more nodes: the search stops at the
    budget exactly, and says why."""
    hands, stock = deal(PAGAT, 3, random.Random(0))
    res = solve(PAGAT, new_round(hands, stock, 0), Plan(pv=False, multi="paranoid",
                node_limit=limit))
    assert res.stopped == "nodes" and not res.exact
    assert res.nodes == limit


def test_a_deadline_lands_between_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock is read between slices: a clock that moves a second at
    each reading stops a search given 3.5 seconds after a few slices, not
    at its end (a three-player round from its lead takes over a million
    nodes)."""
    ticks = itertools.count()
    monkeypatch.setattr(common.time, "perf_counter", lambda: float(next(ticks)))
    hands, stock = deal(PAGAT, 3, random.Random(0))
    res = solve(PAGAT, new_round(hands, stock, 0), Plan(pv=False, multi="paranoid",
                time_limit=3.5))
    assert res.stopped == "time"
    assert 0 < res.nodes <= 4 * SLICE


def test_seats_and_sets_past_the_kernels_limits_are_refused() -> None:
    """Five seats, or a set of more tiles than a mask holds (double-ten:
    66), are refused with a message naming the limit."""
    five = dataclasses.replace(PAGAT, name="five", players=(2, 3, 4, 5),
                               hand_size={**PAGAT.hand_size, 5: 4},
                               target={**PAGAT.target, 5: 200})
    hands, stock = deal(five, 5, random.Random(1))
    with pytest.raises(InputError, match="2 to 4 seats"):
        solve(five, new_round(hands, stock, 0), scores=[0] * 5, target=200)
    ten = dataclasses.replace(PAGAT, name="double-ten", max_pip=10)
    hands, stock = deal(ten, 2, random.Random(1))
    with pytest.raises(InputError, match="62 tiles"):
        solve(ten, new_round(hands, stock, 0))


@pytest.mark.slow
def test_the_kernel_runs_as_plain_python_under_numba_disable_jit() -> None:
    """NUMBA_DISABLE_JIT=1 is the way to step through the search in a
    debugger: it runs the same source as Python and gives the same values."""
    code = (
        "from tests.test_solver_reference import endgame, move_value2\n"
        "from muggins_cli.engine.state import legal_moves\n"
        "from muggins_cli.rules.loader import load_preset\n"
        "from muggins_cli.solver import Plan, solve\n"
        "r = load_preset('pagat'); s = endgame(r, 2, 4800, 7)\n"
        "got = [m.value for m in solve(r, s, Plan(pv=False), scores=[0, 0], target=250).moves]\n"
        "want = [move_value2(r, s, m, [250, 250], False) for m in legal_moves(r, s)]\n"
        "assert got == want, (got, want); print('same')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                          cwd=str(Path(__file__).parents[1]), timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "same"




@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("most", [600, (1 << 15) - 1, 1 << 15, (1 << 21) - 1, 1 << 21,
                                  (1 << 31) - 1])
def test_the_distances_in_a_key_never_run_into_each_other(players: int, most: int) -> None:
    """Under ``match_end: round-end`` (where the settlement compares the
    seats' totals with each other) the table key holds every seat's
    distance to the target in as few words as they fit: two positions whose
    distances differ, and nothing else, get different keys, for distances
    anywhere up to the largest the search may meet (``far + off``)."""
    r = rule_ints(dataclasses.replace(PAGAT, match_end=MatchEnd.ROUND_END))
    chunks = np.zeros((8, 256), dtype=np.int64)
    k = kernel.Kernel(r, players, 0, [1.0] * players, maxn=False, order=[0] * 8, match=True,
                      far=most, off=0, bonus=0, max_place=most, win=1, live=True,
                      pip_chunks=chunks, budget=common.Budget(None, None))
    rng = random.Random(most + players)
    edges = [0, 1, 2, most - 1, most]  # every combination of the extremes, and random ones
    cases = set(itertools.product(edges, repeat=players)) | {
        tuple(rng.randrange(most + 1) for _ in range(players)) for _ in range(300)}
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for dists in cases:
        k.fi[0, :] = 0
        for i, dist in enumerate(dists):
            k.fi[0, kernel.I_H + i] = 1  # one tile each: every distance kept, none capped
            k.fi[0, kernel.I_D + i] = dist
        kernel_frame._key_words(k.s, k.r, k.fi, 0)
        words = tuple(int(x) for x in k.fi[0, kernel.I_K:kernel.I_K + int(k.s[kernel.S_KW])])
        assert seen.setdefault(words, dists) == dists, (words, dists, seen[words])
    k.release()


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_near_the_target_keeps_its_own_distance(players: int) -> None:
    """With every seat a few placements from the target, positions that
    differ only in how far each seat still has to go must never share a
    table entry: the match objective's values equal the exhaustive paranoid
    search's, over endgames where the distances decide who wins. (Packing
    the distances into one key word is where they could run into each
    other.)"""
    checked = 0
    for seed in range(12):
        state = endgame(PAGAT, players, 9100 + seed, {3: 9, 4: 10}[players])
        target = PAGAT.target_for(players)
        rng = random.Random(seed)
        scores = [target - rng.choice([5, 10, 15, 20]) for _ in range(players)]
        dists = [target - s for s in scores]
        res = solve(PAGAT, state, scores=scores, target=target, plan=Plan(objective="match",
                    multi="paranoid", pv=False))
        assert res.exact
        for mv in res.moves:
            ref = paranoid_move(PAGAT, state, mv.move, dists, True, state.to_move)
            assert mv.value == pytest.approx(ref), (seed, mv.move)
            checked += 1
    assert checked >= 12


FORCED_RULES = {
    "pagat": PAGAT,
    "spinner": SPINNER,
    "no-must-play": dataclasses.replace(PAGAT, must_play=False),
    "reserve-2": dataclasses.replace(SPINNER, stock_reserve=2),
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(FORCED_RULES))
def test_forced_lines_followed_in_one_frame_keep_every_value(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A position with one thing to do (a draw from a known order, a drawn
    tile that fits one way, a last tile, a pass, a stock running dry, a
    block) is followed in its parent's frame: endgames with tiles left in
    the stock, where most positions are such, get the exhaustive searches'
    values (two players: minimax; three: max-n; four: paranoid), in a
    table of 64 rows that replaces entries keyed midway through a line."""
    monkeypatch.setattr(kernel, "TT_FIRST", 16)
    monkeypatch.setattr(kernel, "TT_MOST", 64)
    monkeypatch.setattr(kernel, "_POOL", {})
    forced = []
    release = kernel.Kernel.release

    def counting(self: kernel.Kernel) -> None:
        forced.append(int(self.s[kernel.S_FORCED]))
        release(self)

    monkeypatch.setattr(kernel.Kernel, "release", counting)
    rules = FORCED_RULES[name]
    left = {2: 11, 3: 10, 4: 12}[players] - (0 if rules.must_play else 2)
    for seed in range(3):
        state = endgame(rules, players, 9300 + 10 * players + seed, left, min_stock=3)
        target = rules.target_for(players)
        scores = [target - 15 if (seed + i) % 3 == 0 else 0 for i in range(players)]
        dists = [target - s for s in scores]
        match = seed == 1
        res = solve(rules, state, scores=scores, target=target,
                    plan=Plan(objective="match" if match else "points", pv=False,
                    multi="max-n" if players == 3 else "paranoid"))
        assert res.exact
        for mv in res.moves:
            if players == 2:
                assert mv.value == move_value2(rules, state, mv.move, dists, match), (seed, mv)
            elif players == 3:
                assert list(mv.results or ()) == move_vec(rules, state, mv.move, dists, match)
            else:
                ref = paranoid_move(rules, state, mv.move, dists, match, state.to_move)
                assert mv.value == pytest.approx(ref), (seed, mv.move)
    assert sum(forced) > 0


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["pagat", "spinner", "all-threes"])
def test_an_entry_holds_at_other_distances_only_where_no_line_met_the_target(
        name: str, players: int) -> None:
    """Under ``at-target`` the table's keys leave the distances to the
    target out: an entry says the most each seat made in the lines its
    search met, and holds at another distance only beyond that (or, where a
    line met the target, at that distance alone). One search's table, the
    same endgame searched again and again at distances near and far (so
    that some lines end the match and others do not, and every position
    recurs at other distances): each value equals the exhaustive search's
    (minimax; paranoid for three and four, and max-n for three), under both
    objectives."""
    rules = VARIANTS[name]
    left = {2: 10, 3: 9, 4: 10}[players]
    target = rules.target_for(players)
    table = table_for(rules)
    checked = 0
    for seed in range(3):
        state = endgame(rules, players, 9700 + 10 * players + seed, left)
        match = seed == 1
        objective = Objective.MATCH if match else Objective.POINTS
        rng = random.Random(seed)
        near = [5] * players
        node, order = root_node(rules, table, state, [target - x for x in near], target, False)
        game = SolverGame(rules, table, players, order, objective, state.lead_tile)
        maxn = players == 3 and seed == 2
        root = Root(rules, table, game, node, objective, common.Budget(None, None), maxn=maxn)
        assert root.kernel.s[kernel.S_REACH]
        hands = node.hands
        for _ in range(10):
            dists = [rng.choice([5, 10, 15, 20, 30, 45, 200]) for _ in range(players)]
            out = root.kernel.search(kernel.DECIDE, node.seat, node.key, node.stock, -1, hands,
                                     dists)
            if maxn:
                assert list(out[:players]) == maxn_ref(rules, state, dists, match), dists
            elif players == 2:
                assert out[0] == minimax2(rules, state, dists, match), (seed, dists)
            else:
                want = (players - 1) * paranoid(rules, state, dists, match, state.to_move)
                assert out[0] == pytest.approx(want), (seed, dists)
            checked += 1
        root.release()
    assert checked == 30
