"""The solver against plain exhaustive searches over the engine.

Every endgame is a seeded random round played down to a few tiles; the
solver's value of *every* legal move must equal the reference's (minimax of
the points difference for two players, max-n with the documented tie-break
for three and four), over the three presets and variants that exercise the
other rules branches (no must-play, a stock reserve, winner-takes, spinner
sides first, multiples), with scores near the target and both objectives.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins_cli.engine.layout import Arm, Layout, count, key_of, lead, open_ends, place
from muggins_cli.engine.scoring import settle
from muggins_cli.engine.state import (
    KnownDraw,
    Place,
    RoundState,
    apply,
    deal,
    legal_moves,
    new_round,
)
from muggins_cli.engine.table import LayoutTable
from muggins_cli.engine.view import view_of
from muggins_cli.errors import InputError
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import RoundEnd, Rules, ScoreValue, SpinnerCount
from muggins_cli.solver import MATCH_WIN, Plan, solve
from muggins_cli.solver.game import Ending as Ended
from muggins_cli.solver.game import SolverGame
from muggins_cli.solver.perfect import root_node
from muggins_cli.tiles import End, Tile, full_set
from tests.conftest import quick_then_thorough
from tests.test_solver_reference import endgame, move_value2, move_vec

PAGAT = load_preset("pagat")
SPINNER = load_preset("spinner")
ALL_THREES = load_preset("all-threes")

VARIANTS: dict[str, Rules] = {
    "pagat": PAGAT,
    "spinner": SPINNER,
    "all-threes": ALL_THREES,
    "no-must-play": dataclasses.replace(PAGAT, must_play=False),
    "reserve-2": dataclasses.replace(SPINNER, stock_reserve=2),
    "winner-takes": dataclasses.replace(PAGAT, round_end=RoundEnd.WINNER_TAKES),
    "sides-first-until-covered": dataclasses.replace(
        SPINNER, spinner_sides_first=True, spinner_count=SpinnerCount.UNTIL_SIDES_COVERED),
    "multiples-free-draw": dataclasses.replace(
        SPINNER, score_value=ScoreValue.MULTIPLES, must_play=False),
    "double-nine": dataclasses.replace(
        SPINNER, name="spinner-9", max_pip=9, hand_size={2: 9, 3: 7, 4: 7}),
}

SEEDS = 25  # per variant and player count: 9 x 3 x 25 = 675 endgames
QUICK_SEEDS = 8  # of them in every run; the rest with -m slow


def _scores(rules: Rules, players: int, seed: int) -> tuple[list[int], int]:
    """Scores that put some seats within reach of the target, some not."""
    rng = random.Random(seed)
    target = rules.target_for(players)
    return [rng.choice([0, 0, target - 5, target - 15, target - 30]) for _ in range(players)], \
        target


@pytest.mark.parametrize("seeds", quick_then_thorough(SEEDS, QUICK_SEEDS))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_move_value_equals_exhaustive_search(name: str, players: int, seeds: range
                                                   ) -> None:
    rules = VARIANTS[name]
    checked = 0
    for seed in seeds:
        # Free draws (no must-play) multiply the reference's work: fewer tiles.
        left = {2: 10, 3: 9, 4: 10}[players] - (0 if rules.must_play else 2)
        state = endgame(rules, players, 1000 * players + seed, left)
        scores, target = _scores(rules, players, seed)
        dists = [target - s for s in scores]
        match = seed % 3 == 0
        res = solve(rules, state, scores=scores, target=target,
                    plan=Plan(objective="match" if match else "points"))
        assert res.exact and res.stopped is None
        assert [m.move for m in res.moves] == legal_moves(rules, state)
        for mv in res.moves:
            if players == 2:
                assert mv.value == move_value2(rules, state, mv.move, dists, match), (seed, mv)
            else:
                assert mv.results is not None
                ref = move_vec(rules, state, mv.move, dists, match)
                assert list(mv.results) == ref, (seed, mv)
                assert mv.value == ref[state.to_move]
            checked += 1
        assert res.value == max(m.value for m in res.moves if m.value is not None)
    assert checked >= len(seeds)


@pytest.mark.parametrize("name", ["pagat", "spinner", "no-must-play", "reserve-2"])
def test_principal_variation_replays_to_the_value(name: str) -> None:
    """Each move's PV is legal move by move in the engine and scores, with
    the settlement, exactly the value claimed for it."""
    rules = VARIANTS[name]
    for seed in range(8):
        state = endgame(rules, 2, 77 + seed, 12)
        res = solve(rules, state, scores=[0, 0], target=10_000)
        for mv in res.moves:
            s = state
            seat = s.to_move
            diff = 0
            for m in mv.pv:
                assert m in legal_moves(rules, s), (mv.pv, m)
                mover = s.to_move
                assert isinstance(m, (Place, KnownDraw)) or str(m) == "pass"
                s, pts = apply(rules, s, m)  # type: ignore[arg-type]
                diff += pts if mover == seat else -pts
            assert s.over, mv.pv
            d = settle(rules, s.hand_pips(), s.went_out)
            diff += d[seat] - d[1 - seat]
            assert diff == mv.value, (seed, mv)


def test_match_objective_plays_for_the_target() -> None:
    """Near the target a 'match' value carries MATCH_WIN exactly when the
    mover (+) or the opponent (-) gets there first in the line played."""
    seen_win = False
    for seed in range(40):
        state = endgame(PAGAT, 2, 500 + seed, 8)
        res = solve(PAGAT, state, scores=[240, 240], target=250, plan=Plan(objective="match"))
        pts = solve(PAGAT, state, scores=[240, 240], target=250)
        for a, b in zip(res.moves, pts.moves):
            assert a.value is not None and b.value is not None
            if abs(a.value) > MATCH_WIN / 2:
                seen_win = True
                assert abs(a.value - (MATCH_WIN if a.value > 0 else -MATCH_WIN)) < 1000
    assert seen_win


def _naive_open_ends(rules: Rules, layout: Layout) -> list[tuple[End, int]]:
    """A second model of the open ends, read off the tiles of each arm
    (the engine asks the interned summary instead)."""
    if layout.root is None:
        return []
    arms = layout.arms
    out = [(End.L, arms[0].tiles[-1][1] if arms[0].tiles else layout.left),
           (End.R, arms[1].tiles[-1][1] if arms[1].tiles else layout.right)]
    if layout.spinner and (not rules.spinner_sides_first or (arms[0].tiles and arms[1].tiles)):
        out += [(e, a.tiles[-1][1] if a.tiles else layout.left)
                for e, a in ((End.U, arms[2]), (End.D, arms[3]))]
    return out


def _naive_count(rules: Rules, layout: Layout) -> int:
    """A second model of the open-end total (docs/rules.md "Play"): an arm's
    last tile counts its outer half, twice when a double; an empty arm shows
    the root's half, a double root both of its halves; a lone opening double
    counts once; a spinner's empty arms count as the rules say."""
    root = layout.root
    if root is None:
        return 0

    def end(arm: Arm) -> int:
        inner, outer = arm.tiles[-1]
        return 2 * outer if inner == outer else outer

    arms = layout.arms
    if not layout.spinner:
        if root.is_double:
            if not arms[0].tiles and not arms[1].tiles:
                return 2 * root.lo
            return sum(end(a) if a.tiles else 2 * root.lo for a in arms[:2])
        return ((end(arms[0]) if arms[0].tiles else layout.left)
                + (end(arms[1]) if arms[1].tiles else layout.right))
    d = layout.left
    total = sum(end(a) for a in arms if a.tiles)
    if rules.spinner_count is SpinnerCount.EXPOSED_ENDS:
        return total + d * ((not arms[2].tiles) + (not arms[3].tiles))
    return total + (0 if arms[0].tiles and arms[1].tiles else 2 * d)


def test_layout_summary_matches_engine_layouts() -> None:
    """The placements the layout keys give equal the engine's along random
    rounds of every variant, and their counts and open ends equal a naive
    reading of the layout's tiles (``key_of``: the key worked out from the
    tiles, not carried along)."""
    for name, rules in VARIANTS.items():
        table = LayoutTable(rules)
        rng = random.Random(name)
        for _ in range(25):
            hands, stock = deal(rules, 2, rng)
            state = new_round(hands, stock, 0)
            key = table.empty
            while not state.over:
                moves = legal_moves(rules, state)
                move = rng.choice(moves)
                nxt, pts = apply(rules, state, move)
                if isinstance(move, Place):
                    ends = [e for e, _, _ in table.moves(key, move.tile.index())]
                    assert ends == [m.end for m in moves
                                    if isinstance(m, Place) and m.tile == move.tile]
                    key, got = next((k, p) for e, k, p in table.moves(key, move.tile.index())
                                    if e == move.end)
                    assert got == pts
                    assert key == key_of(nxt.layout) == nxt.layout.key
                    assert table.total(key) == count(rules, nxt.layout) == _naive_count(
                        rules, nxt.layout)
                    assert list(table.ends(key).items()) == list(
                        open_ends(rules, nxt.layout).items()) == _naive_open_ends(
                            rules, nxt.layout)
                state = nxt


def test_mirror_images_share_a_canonical_key() -> None:
    """2-4 led with its 4 facing L and 4-4 laid on that 4, and 2-4 led with
    its 2 facing L and 4-4 on the R, are mirror images: two real keys, one
    canonical key (the one whose L end is the lower), the same count."""
    table = LayoutTable(PAGAT)
    flipped = place(PAGAT, lead(PAGAT, Tile(2, 4), 4), Tile(4, 4), End.L).key
    canonical = table.canonical(flipped)
    assert canonical != flipped
    assert table.canonical(canonical) == canonical
    laid = place(PAGAT, lead(PAGAT, Tile(2, 4), 2), Tile(4, 4), End.R).key
    assert laid == canonical
    assert table.ends(flipped) == {End.L: 4, End.R: 2}
    assert table.ends(laid) == {End.L: 2, End.R: 4}
    assert table.total(flipped) == table.total(laid) == 2 + 8


def test_every_lead_reads_as_its_tiles_say() -> None:
    """A lead carries its key from the start; what it answers, for every
    tile with either half facing L, is what the naive reading of the
    opening tile gives."""
    for rules in VARIANTS.values():
        for tile in full_set(rules.max_pip):
            for left in {tile.lo, tile.hi}:
                layout = lead(rules, tile, left)
                assert layout.key == key_of(layout)
                assert count(rules, layout) == _naive_count(rules, layout)
                assert list(open_ends(rules, layout).items()) == _naive_open_ends(rules, layout)


def test_internal_moves_match_engine_legal_moves() -> None:
    """The solver's positions (root and principal variations) step as the
    engine's states do, and list the same legal moves, along random
    rounds, draws included."""
    for name, rules in VARIANTS.items():
        rng = random.Random(name + "ctx")
        table = LayoutTable(rules)
        for players in (2, 3):
            hands, stock = deal(rules, players, rng)
            state = new_round(hands, stock, 0)
            scores = [0] * players
            while not state.over:
                node, order = root_node(rules, table, state, scores, 10_000, chance=False)
                game = SolverGame(rules, table, players, order, _objective_points())
                assert game.legal(node) == legal_moves(rules, state)
                move = rng.choice(legal_moves(rules, state))
                pts, nxt = game.step(node, move)
                state, epts = apply(rules, state, move)
                assert pts == epts
                assert isinstance(nxt, Ended) == state.over


def _objective_points():  # type: ignore[no-untyped-def]
    from muggins_cli.solver import Objective

    return Objective.POINTS


def test_full_round_from_first_turn() -> None:
    """A whole two-player pagat round from its lead: every lead gets a value
    and the principal variation of the best lead plays to the round's end."""
    hands, stock = deal(PAGAT, 2, random.Random(2026))
    state = new_round(hands, stock, 0)
    res = solve(PAGAT, state)
    assert res.exact and len(res.moves) == 7
    assert all(isinstance(m.move, Place) and m.move.end is None for m in res.moves)
    best = next(m for m in res.moves if m.move == res.best)
    s: RoundState = state
    for m in best.pv:
        s, _ = apply(PAGAT, s, m)  # type: ignore[arg-type]
    assert s.over


def test_refusals() -> None:
    state = endgame(PAGAT, 2, 3, 8)
    with pytest.raises(InputError):
        solve(PAGAT, state, scores=[250, 0], target=250)
    with pytest.raises(InputError):
        solve(PAGAT, view_of(PAGAT, state, legal_moves(PAGAT, state), [0, 0], 250), Plan(mode="perfect"))
    over = dataclasses.replace(state, over=True)
    with pytest.raises(InputError):
        solve(PAGAT, over)


def _drawn_states(rules: Rules, count_wanted: int) -> list[RoundState]:
    """Positions just after drawing a tile that fits, which must be laid."""
    out: list[RoundState] = []
    rng = random.Random(31)
    while len(out) < count_wanted:
        hands, stock = deal(rules, 2, rng)
        state = new_round(hands, stock, 0)
        while not state.over:
            if state.drawn is not None and sum(len(h) for h in state.hands) + len(
                    state.stock) <= 11:
                out.append(state)
                break
            state, _ = apply(rules, state, rng.choice(legal_moves(rules, state)))
    return out


@pytest.mark.parametrize("name", ["pagat", pytest.param("spinner", marks=pytest.mark.slow),
                                  "no-must-play"])
def test_a_drawn_tile_must_be_laid(name: str) -> None:
    rules = VARIANTS[name]
    for state in _drawn_states(rules, 6):
        assert state.drawn is not None
        res = solve(rules, state)
        assert [m.move for m in res.moves] == legal_moves(rules, state)
        assert all(isinstance(m.move, Place) and m.move.tile == state.drawn for m in res.moves)
        for mv in res.moves:
            assert mv.value == move_value2(rules, state, mv.move, [250, 250], False)
        for mode in ("expect", "sample"):
            other = solve(rules, state, Plan(mode=mode, samples=3))
            assert [m.move for m in other.moves] == legal_moves(rules, state)


def test_a_position_gets_the_same_values_whatever_was_solved_before() -> None:
    """The search keeps its tables, stacks and layout memo for the next
    search in the process; what one search left there never changes
    another's answer. Solve endgames of two rules and player counts (the
    tables grow, change key width and generation), then the first ones
    again: the same values, and those of the exhaustive search."""
    positions = [(PAGAT, endgame(PAGAT, 2, 900 + s, 9)) for s in range(4)]
    spinner = VARIANTS["spinner"]
    others = [(spinner, endgame(spinner, 3, 950 + s, 9)) for s in range(4)]
    first = [[m.value for m in solve(r, st, scores=[0, 0], target=250, plan=Plan(pv=False)).moves]
             for r, st in positions]
    for r, st in others:
        solve(r, st, Plan(pv=False, multi="paranoid", objective="match"))
        solve(r, st, Plan(pv=False), scores=[0, 0, 0], target=30)
    again = [[m.value for m in solve(r, st, scores=[0, 0], target=250, plan=Plan(pv=False)).moves]
             for r, st in positions]
    assert again == first
    for (r, st), values in zip(positions, first):
        assert values == [move_value2(r, st, m, [250, 250], False) for m in legal_moves(r, st)]
