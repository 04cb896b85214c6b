"""Three or four players: max-n, each player maximising their own result.

A player's *result* is their own points from here to the end of the round,
the settlement included (and, under the match objective, ``MATCH_WIN`` for
reaching the target, ``-MATCH_WIN`` when someone else does). Max-n has no
sound deep pruning, so this is a full search with a transposition table on
the same structural key as the two-player search; the stock is either a
known order (``perfect``) or a mask of unseen tiles drawn uniformly
(``expect``, a chance node averaging the result vectors).

Ties. Among moves with equal own results the mover prefers the one whose
best-placed opponent does worst, then the one whose opponents' results,
read clockwise from the next seat, are lexicographically smallest. That
order depends only on the result vectors, never on the order moves are
tried, so the answer cannot change with move ordering or with the mirror
images that share a table entry; among moves with equal vectors the first
in ``legal_moves`` order is reported as best.
"""

from __future__ import annotations

from collections.abc import Sequence

from muggins_cli.engine.scoring import credit_ends_match
from muggins_cli.engine.table import LayoutTable
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import (
    MATCH_WIN,
    Budget,
    Objective,
    Settler,
    dist_offset,
    pip_counter,
    settle_bonus_max,
)

Vec = tuple[float, ...]


def preference(vec: Sequence[float], seat: int) -> tuple[float, float, tuple[float, ...]]:
    """The tie-break order of the module docstring, as a key to maximise."""
    n = len(vec)
    opps = tuple(vec[(seat + k) % n] for k in range(1, n))
    return (vec[seat], -max(opps), tuple(-x for x in opps))


class MaxN:
    """``value(hands, lay, stock, seat, dists)``: the result vector.

    ``stock`` is the next draw position into ``order`` when the order is
    known, else the mask of tiles left in the stock (``chance=True``).
    """

    def __init__(
        self,
        rules: Rules,
        table: LayoutTable,
        players: int,
        objective: Objective,
        budget: Budget,
        live: bool,
        order: Sequence[int] | None,
        low: int = 0,
    ) -> None:
        self.rules = rules
        self.table = table
        self.n = players
        self.objective = objective
        self.budget = budget
        self.live = live
        self.order = tuple(order) if order is not None else None
        self.chance = order is None
        self.reserve = rules.stock_reserve
        self.lim = max(0, len(self.order) - self.reserve) if self.order is not None else 0
        self.tt: dict[int, Vec] = {}
        self.hand_bits = table.n_tiles
        self.settler = Settler(rules, objective)
        self.win = objective is Objective.MATCH
        self.pips = pip_counter(table)
        self.bonus = settle_bonus_max(rules, table)
        self.far = table.max_place * table.n_tiles + self.bonus + 1
        self.off = dist_offset(rules, self.far, low)
        self.ends_on_credit = credit_ends_match(rules)
        self.nodes = 0

    # ------------------------------------------------------------------
    def drawable(self, stock: int) -> int:
        if self.chance:
            return max(0, stock.bit_count() - self.reserve)
        return max(0, self.lim - stock)

    def cap(self, dist: int, hand: int, stock: int) -> int:
        room = self.table.max_place * (hand.bit_count() + self.drawable(stock)) + self.bonus
        return dist if dist <= room else self.far

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & self.budget.mask:
            self.budget.nodes += self.budget.every
            self.budget.check()

    def settle(self, hands: Sequence[int], went_out: int | None, dists: Sequence[int]) -> Vec:
        res = self.settler.results([self.pips(h) for h in hands], went_out, dists)
        return tuple(float(x) for x in res)

    def reach(self, seat: int, pts: int) -> Vec:
        """A placement took ``seat`` to the target: the match ends there."""
        bonus = MATCH_WIN if self.win else 0
        return tuple(
            float(pts + bonus) if i == seat else float(-bonus) for i in range(self.n)
        )

    # ------------------------------------------------------------------
    def value(
        self, hands: tuple[int, ...], lay: int, stock: int, seat: int, dists: tuple[int, ...]
    ) -> Vec:
        self.nodes += 1
        if not self.nodes & self.budget.mask:
            self.budget.nodes += self.budget.every
            self.budget.check()
        table = self.table
        drawable = self.drawable(stock)
        # An int key (hands, stock, seat, layout; capped distances when the
        # target is live) hashes far faster than nested tuples.
        shift = self.hand_bits
        key = lay
        for h in hands:
            key = key << shift | h
        key = (key << shift | stock) * self.n + seat
        if self.live:
            room = self.bonus + table.max_place * drawable
            far, off = self.far, self.off
            for d, h in zip(dists, hands):
                key = key * (far + off + 1) + off + (
                    d if d <= room + table.max_place * h.bit_count() else far)
        found = self.tt.get(key)
        if found is not None:
            return found
        me = hands[seat]
        best: Vec | None = None
        can_draw = drawable > 0 and lay != table.empty
        if me & table.fitmask[lay]:
            for bit, _, nl, pts in table.search_moves(lay):
                if me & bit:
                    vec = self.after_place(hands, seat, me ^ bit, nl, stock, pts, dists)
                    if best is None or vec[seat] > best[seat] or (
                        vec[seat] == best[seat] and preference(vec, seat) > preference(best, seat)
                    ):
                        best = vec
            if can_draw and not self.rules.must_play:
                vec = self.draw(hands, lay, stock, seat, dists, one=True)
                assert best is not None
                if vec[seat] > best[seat] or (
                    vec[seat] == best[seat] and preference(vec, seat) > preference(best, seat)
                ):
                    best = vec
        elif can_draw:
            best = self.draw(hands, lay, stock, seat, dists, one=False)
        else:
            best = self.pass_(hands, lay, stock, seat, dists)
        assert best is not None
        self.tt[key] = best
        return best

    def after_place(
        self, hands: tuple[int, ...], seat: int, rest: int, nl: int, stock: int, pts: int,
        dists: tuple[int, ...],
    ) -> Vec:
        if self.ends_on_credit and pts >= dists[seat]:
            return self.reach(seat, pts)
        new_hands = (*hands[:seat], rest, *hands[seat + 1:])
        new_dists = (*dists[:seat], dists[seat] - pts, *dists[seat + 1:])
        if not rest:
            vec = self.settle(new_hands, seat, new_dists)
        elif not self.drawable(stock) and not any(
            h & self.table.fitmask[nl] for h in new_hands
        ):
            vec = self.settle(new_hands, None, new_dists)
        else:
            vec = self.value(new_hands, nl, stock, (seat + 1) % self.n, new_dists)
        return (*vec[:seat], vec[seat] + pts, *vec[seat + 1:])

    def pass_(
        self, hands: tuple[int, ...], lay: int, stock: int, seat: int, dists: tuple[int, ...]
    ) -> Vec:
        fm = self.table.fitmask[lay]
        if not self.drawable(stock) and not any(h & fm for h in hands):
            return self.settle(hands, None, dists)
        return self.value(hands, lay, stock, (seat + 1) % self.n, dists)

    def place_drawn(
        self, hands: tuple[int, ...], lay: int, stock: int, seat: int, dists: tuple[int, ...],
        ti: int,
    ) -> Vec:
        """Lay the tile just drawn (``hands[seat]`` does not hold it)."""
        best: Vec | None = None
        best_pref = None
        for nl, pts in self.table.tile_moves(lay, ti):
            vec = self.after_place(hands, seat, hands[seat], nl, stock, pts, dists)
            p = preference(vec, seat)
            if best_pref is None or p > best_pref:
                best, best_pref = vec, p
        assert best is not None
        return best

    def draw(
        self, hands: tuple[int, ...], lay: int, stock: int, seat: int, dists: tuple[int, ...],
        *, one: bool,
    ) -> Vec:
        """Draw (one tile, or under ``must_play`` until a tile fits)."""
        fm = self.table.fitmask[lay]
        me = hands[seat]
        if self.order is not None:
            k = stock
            while k < self.lim:
                ti = self.order[k]
                k += 1
                if fm >> ti & 1:
                    held = (*hands[:seat], me, *hands[seat + 1:])
                    return self.place_drawn(held, lay, k, seat, dists, ti)
                me |= 1 << ti
                if one:
                    break
            with_drawn = (*hands[:seat], me, *hands[seat + 1:])
            if one:
                return self.value(with_drawn, lay, k, seat, dists)
            return self.pass_(with_drawn, lay, k, seat, dists)
        total = [0.0] * self.n
        count = stock.bit_count()
        rest = stock
        while rest:
            bit = rest & -rest
            rest ^= bit
            left = stock ^ bit
            if fm & bit:
                vec = self.place_drawn(hands, lay, left, seat, dists, bit.bit_length() - 1)
            else:
                more = (*hands[:seat], me | bit, *hands[seat + 1:])
                vec = self.value(more, lay, left, seat, dists)
            for i in range(self.n):
                total[i] += vec[i]
        return tuple(x / count for x in total)
