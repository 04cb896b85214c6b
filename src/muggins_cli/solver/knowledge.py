"""Deals consistent with what the mover sees (``sample`` mode).

The mover's :class:`~muggins_cli.engine.view.SeatView` holds only what a
player at the table sees: their own hand, the layout, every hand's size, the
tiles they have not seen, how many tiles are left to draw, and what draws
and passes showed (a player who drew or passed held no tile fitting the open
ends at that moment). It has no field for another player's tiles or the
stock order, so a search built from it cannot read a hidden tile: the
sampler deals the unseen tiles afresh each time, consistently with the voids.

When the unseen tiles can be dealt in few ways (late in a round, or the
small hands of three or four players), :func:`every_deal` lists every
consistent deal with its probability under the sampler's law instead, so
that an average over them is exact rather than an estimate.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence

from muggins_cli.engine.state import RoundState
from muggins_cli.engine.view import SeatView
from muggins_cli.engine.voids import Void
from muggins_cli.errors import InputError
from muggins_cli.tiles import Tile


def _fits_voids(tiles: Sequence[Tile], voids: Sequence[Void]) -> bool:
    return all(
        sum(1 for t in tiles if t.lo in v.pips or t.hi in v.pips) <= v.drawn_since
        for v in voids
    )


#: A belief about other hands beyond the voids: by seat, each tile's weight
#: by index (from 0 to 1; a seat left out holds every tile it may hold as
#: likely as any other).
Prior = Mapping[int, Sequence[float]]

#: Deals drawn to find one the prior keeps, before it is dropped for a deal.
PRIOR_TRIES = 64


class Sampler:
    """Deals the unseen tiles consistently with a :class:`SeatView`.

    Each deal is uniform among the consistent ones while rejection sampling
    finds one within ``tries`` shuffles; past that (tight voids) a greedy
    deal with restarts is used, which is consistent but not exactly uniform.
    With a ``prior``, a consistent deal is kept with the probability the
    product of its hands' tile weights (rejection again: the deals kept
    follow the prior exactly, and the prior stays out of the solver's
    averages); when none is kept within :data:`PRIOR_TRIES` deals, the prior is
    dropped rather than the deal. Seeded, so the same knowledge, prior and
    seed give the same deals.
    """

    def __init__(self, know: SeatView, rng: random.Random, tries: int = 200,
                 prior: Prior | None = None) -> None:
        know.check()
        self.know = know
        self.rng = rng
        self.tries = tries
        self.prior = {s: w for s, w in (prior or {}).items()
                      if s != know.seat and any(x < 1.0 for x in w)}
        self.pool = sorted(know.unseen)
        self.others = [s for s in range(know.players) if s != know.seat]
        self.by_seat: dict[int, list[Void]] = {s: [] for s in self.others}
        for v in know.voids:
            if v.seat in self.by_seat:
                self.by_seat[v.seat].append(v)

    def deal(self) -> RoundState:
        """A full state the mover cannot tell from the real one."""
        for _ in range(PRIOR_TRIES if self.prior else 0):
            state = self._uniform()
            if self.rng.random() < self._weight(state):
                return state
        return self._uniform()

    def _weight(self, state: RoundState) -> float:
        out = 1.0
        for s, w in self.prior.items():
            for t in state.hands[s]:
                out *= w[t.index()]
        return out

    def _uniform(self) -> RoundState:
        know = self.know
        hands: list[frozenset[Tile]] = [frozenset()] * know.players
        hands[know.seat] = know.hand
        for _ in range(self.tries):
            pool = list(self.pool)
            self.rng.shuffle(pool)
            at = 0
            ok = True
            for s in self.others:
                size = know.hand_sizes[s]
                mine = pool[at:at + size]
                at += size
                if not _fits_voids(mine, self.by_seat[s]):
                    ok = False
                    break
                hands[s] = frozenset(mine)
            if ok:
                return self._state(hands, pool[at:])
        return self._greedy(hands)

    def _greedy(self, hands: list[frozenset[Tile]]) -> RoundState:
        know = self.know
        for _ in range(1000):
            pool = list(self.pool)
            self.rng.shuffle(pool)
            held: dict[int, list[Tile]] = {s: [] for s in self.others}
            stock: list[Tile] = []
            for t in pool:
                places = [
                    s for s in self.others
                    if len(held[s]) < know.hand_sizes[s]
                    and _fits_voids([*held[s], t], self.by_seat[s])
                ]
                room = know.stock_count - len(stock)
                weights = [know.hand_sizes[s] - len(held[s]) for s in places] + [room]
                if sum(weights) == 0:
                    break
                pick = self.rng.choices([*places, -1], weights=weights)[0]
                (stock if pick == -1 else held[pick]).append(t)
            else:
                for s in self.others:
                    hands[s] = frozenset(held[s])
                return self._state(hands, stock)
        raise InputError("no deal of the unseen tiles agrees with the draws and passes seen")

    def _state(self, hands: Sequence[frozenset[Tile]], stock: Sequence[Tile]) -> RoundState:
        know = self.know
        return RoundState(tuple(hands), tuple(stock), know.layout, know.seat, know.drawn,
                          lead_tile=know.lead_tile)


#: One deal of the unseen tiles and its weight (in proportion to its
#: probability; 1 for each deal when every consistent deal is as likely).
WeightedDeal = tuple[RoundState, float]


class _TooMany(Exception):
    """Raised inside :func:`_splits` when the deals outnumber the limit."""


def every_deal(know: SeatView, limit: int, prior: Prior | None = None
               ) -> list[WeightedDeal] | None:
    """Every deal the :class:`Sampler` may make from ``know``, each with its
    weight there (the prior's product over the other hands' tiles, or 1 for
    every deal without a prior), or None when there are more than ``limit``.

    A deal is the other hands and the stock in its order: every split of
    the unseen tiles into hands of the sizes shown that keeps the voids,
    times every order of the stock. So a stock of more than a few tiles
    is never dealt out this way (7 tiles have 5,040 orders); the work
    before giving up is bounded by ``limit`` too. A prior that weighs
    every consistent deal at zero is dropped, as the sampler drops it.
    """
    know.check()
    orders = math.factorial(know.stock_count)
    if limit < 1 or orders > limit:
        return None
    weights = {s: w for s, w in (prior or {}).items() if s != know.seat}
    try:
        splits = _splits(know, limit // orders)
    except _TooMany:
        return None
    if not splits:
        raise InputError("no deal of the unseen tiles agrees with the draws and passes seen")
    mass = [math.prod(w[t.index()] for s, w in weights.items() for t in hands[s])
            for hands, _ in splits]
    if sum(mass) <= 0.0:
        mass = [1.0] * len(splits)
    return [(RoundState(hands, order, know.layout, know.seat, know.drawn,
                        lead_tile=know.lead_tile), m)
            for (hands, stock), m in zip(splits, mass) if m > 0.0
            for order in itertools.permutations(stock)]


def _splits(know: SeatView, most: int
            ) -> list[tuple[tuple[frozenset[Tile], ...], tuple[Tile, ...]]]:
    """Every split of the unseen tiles into the other hands (voids kept) and
    the stock (sorted), seat by seat; :class:`_TooMany` past ``most`` splits
    or after looking at many hands that break a void."""
    others = [s for s in range(know.players) if s != know.seat]
    voids: dict[int, list[Void]] = {s: [] for s in others}
    for v in know.voids:
        if v.seat in voids:
            voids[v.seat].append(v)
    may_hold = {s: know.possible(s) for s in others}
    budget = 8 * most + 64
    out: list[tuple[tuple[frozenset[Tile], ...], tuple[Tile, ...]]] = []
    hands: list[frozenset[Tile]] = [frozenset()] * know.players
    hands[know.seat] = know.hand

    def deal_from(k: int, left: frozenset[Tile]) -> None:
        nonlocal budget
        if k == len(others):
            if len(out) >= most:
                raise _TooMany
            out.append((tuple(hands), tuple(sorted(left))))
            return
        seat = others[k]
        for hand in itertools.combinations(sorted(left & may_hold[seat]),
                                           know.hand_sizes[seat]):
            budget -= 1
            if budget < 0:
                raise _TooMany
            if _fits_voids(hand, voids[seat]):
                hands[seat] = frozenset(hand)
                deal_from(k + 1, left.difference(hand))

    deal_from(0, know.unseen)
    return out
