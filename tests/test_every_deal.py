"""Every deal of the unseen tiles, for an exact sampled value.

``every_deal`` is checked against a brute force that knows nothing of how
it enumerates: every ordering of the unseen tiles cut into the other hands
and the stock, kept when it agrees with the voids, the distinct ones
counted. ``solve(..., deals=...)`` is checked against the average of each
deal solved on its own with every hand in view.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

import pytest

from muggins_cli.engine.layout import lead, open_ends
from muggins_cli.engine.state import RoundState, as_seen, legal_moves
from muggins_cli.engine.view import SeatView, view_of
from muggins_cli.engine.voids import Void
from muggins_cli.errors import InputError
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import Plan, Sampler, solve
from muggins_cli.solver.knowledge import every_deal
from muggins_cli.tiles import Tile, full_set
from tests.test_solver_reference import endgame

PAGAT = load_preset("pagat")

Key = tuple[tuple[frozenset[Tile], ...], tuple[Tile, ...]]


def _key(state: RoundState) -> Key:
    return state.hands, state.stock


def _brute(know: SeatView) -> Counter[Key]:
    """Each distinct deal that agrees with the voids, by brute force over
    every ordering of the unseen tiles (each counted once)."""
    others = [s for s in range(know.players) if s != know.seat]
    found: set[Key] = set()
    for order in itertools.permutations(sorted(know.unseen)):
        hands = [frozenset()] * know.players
        hands[know.seat] = know.hand
        at = 0
        for s in others:
            hands[s] = frozenset(order[at:at + know.hand_sizes[s]])
            at += know.hand_sizes[s]
        ok = all(sum(1 for t in hands[v.seat] if t.lo in v.pips or t.hi in v.pips)
                 <= v.drawn_since for v in know.voids if v.seat != know.seat)
        if ok:
            found.add((tuple(hands), tuple(order[at:])))
    return Counter(found)


def _small(players: int, seed: int, left: int) -> SeatView:
    state = endgame(PAGAT, players, seed, left, min_stock=1)
    return view_of(PAGAT, state, legal_moves(PAGAT, state), (0,) * players, 250)


@pytest.mark.parametrize(("players", "seed", "left"),
                         [(2, 1, 8), (2, 5, 8), (3, 2, 10), (3, 5, 9), (3, 4, 7), (4, 1, 9),
                          (4, 2, 9)])
def test_every_deal_is_each_consistent_deal_once(players: int, seed: int, left: int) -> None:
    know = _small(players, seed, left)
    assert 5 <= len(know.unseen) <= 8  # small enough for the brute force
    seat = know.seat
    ends = frozenset(open_ends(PAGAT, know.layout).values())
    other = (seat + 1) % players
    voided = dataclasses.replace(know, voids=(Void(other, ends, 0),))
    assert 0 < len(_brute(voided)) < len(_brute(know))  # the void bites
    for view in (know, voided):
        brute = _brute(view)
        if not brute:
            with pytest.raises(InputError):
                every_deal(view, 100_000)
            continue
        got = every_deal(view, 100_000)
        assert got is not None
        keys = [_key(s) for s, _ in got]
        assert Counter(keys) == brute
        assert all(w == 1.0 for _, w in got)
        assert all(s.layout == view.layout and s.to_move == seat for s, _ in got)


def test_every_deal_counts_a_void_that_later_draws_loosen() -> None:
    """A void with draws since allows that many tiles of its pips."""
    know = _small(2, 11, 8)
    other = 1 - know.seat
    ends = frozenset(open_ends(PAGAT, know.layout).values())
    for since in (0, 1, 2):
        view = dataclasses.replace(know, voids=(Void(other, ends, since),))
        assert len(view.unseen) <= 8
        brute = _brute(view)
        got = every_deal(view, 100_000) if brute else None
        assert (Counter(_key(s) for s, _ in got) if got else Counter()) == brute


def test_every_deal_gives_up_past_its_limit_and_quickly() -> None:
    know = _small(2, 4, 10)
    got = every_deal(know, 100_000)
    assert got is not None
    n = len(got)
    assert every_deal(know, n) is not None
    assert every_deal(know, n - 1) is None
    # A round's start: 21 unseen tiles, 14 in the stock (14! orders).
    mine = frozenset(Tile.parse(t) for t in ("0-0", "0-1", "1-1", "0-2", "1-2", "2-2", "0-4"))
    table = Tile.parse("0-3")
    unseen = frozenset(t for t in full_set(6) if t not in mine and t != table)
    start = SeatView(seat=0, hand=mine, layout=lead(PAGAT, table), hand_sizes=(7, 6),
                     unseen=unseen, stock_count=len(unseen) - 6, scores=(0, 0), target=250)
    assert every_deal(start, 10_000_000) is None


def test_every_deal_gives_up_on_many_hands_with_a_short_stock() -> None:
    """Three players' hands of 5 from 11 unseen tiles and one in the stock:
    over 2,000 splits, so a limit of 100 stops the listing early."""
    mine = frozenset(Tile.parse(t) for t in ("0-0", "0-1", "1-1", "0-2", "1-2"))
    placed = [Tile.parse(t) for t in ("2-2", "0-3", "1-3", "2-3", "3-3", "0-4", "1-4",
                                      "2-4", "3-4", "4-4", "0-5")]
    unseen = frozenset(t for t in full_set(6) if t not in mine and t not in placed)
    assert len(unseen) == 12
    know = SeatView(seat=0, hand=mine, layout=lead(PAGAT, placed[0]), hand_sizes=(5, 6, 5),
                    unseen=unseen, stock_count=1, scores=(0, 0, 0), target=200)
    assert every_deal(know, 100) is None
    assert math.comb(12, 6) * math.comb(6, 5) == 5544
    got = every_deal(know, 10_000)
    assert got is not None and len(got) == 5544


def test_a_prior_weighs_every_deal_as_the_sampler_deals_them() -> None:
    """The weights are the prior's product over the other hand; the
    sampler's deals follow them (each hand's share within four standard
    errors of its weight's share, over 8,000 deals)."""
    know = _small(2, 6, 9)
    other = 1 - know.seat
    weights = [1.0] * 28
    held = sorted(know.unseen)
    weights[held[0].index()] = 0.05
    weights[held[1].index()] = 0.4
    got = every_deal(know, 100_000, prior={other: weights})
    assert got is not None
    for state, w in got:
        assert w == pytest.approx(math.prod(weights[t.index()] for t in state.hands[other]))
    total = sum(w for _, w in got)
    share: Counter[frozenset[Tile]] = Counter()
    for state, w in got:
        share[state.hands[other]] += w / total
    sampler = Sampler(know, random.Random(3), prior={other: weights})
    n = 8000
    seen = Counter(sampler.deal().hands[other] for _ in range(n))
    for hand, p in share.items():
        assert abs(seen[hand] / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9, hand


def test_no_deal_agrees_with_the_voids() -> None:
    know = _small(2, 1, 8)
    other = 1 - know.seat
    impossible = dataclasses.replace(know, voids=(Void(other, frozenset(range(7)), 0),))
    with pytest.raises(InputError):
        every_deal(impossible, 100_000)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4)])
def test_solve_over_every_deal_is_their_exact_average(players: int, seed: int) -> None:
    """The value of each move is the weighted average of its value in each
    deal solved with every hand in view, and the answer is exact."""
    know = _small(players, seed, 3 + players * 2)
    got = every_deal(know, 5_000)
    assert got is not None
    weighted = [(s, 1.0 + (i % 3)) for i, (s, _) in enumerate(got)]  # any weights
    for deals in (got, weighted):
        res = solve(PAGAT, know, Plan(mode="sample", deals=deals, multi="paranoid"))
        assert res.exact and res.samples == len(deals) and res.stopped is None
        total = sum(w for _, w in deals)
        sums: dict[str, float] = {}
        for state, w in deals:
            one = solve(PAGAT, state, Plan(mode="perfect", multi="paranoid", pv=False),
                        scores=(0,) * players, target=250)
            for mv in one.moves:
                assert mv.value is not None
                name = str(as_seen(mv.move))
                sums[name] = sums.get(name, 0.0) + w * mv.value
        assert sorted(sums) == sorted(str(mv.move) for mv in res.moves)
        for mv in res.moves:
            assert mv.value == pytest.approx(sums[str(mv.move)] / total)


def test_every_deal_out_of_budget_is_not_exact() -> None:
    know = _small(2, 3, 8)
    got = every_deal(know, 5_000)
    assert got is not None and len(got) > 2
    res = solve(PAGAT, know, Plan(mode="sample", deals=got, node_limit=5))
    assert not res.exact and res.stopped == "nodes"
