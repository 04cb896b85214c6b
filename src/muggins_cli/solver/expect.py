"""Two players, hands known, stock order unknown: expectimax.

The same negamax as :mod:`muggins_cli.solver.perfect` at the decision nodes
(alpha-beta, a structural table, scoring moves first), with the stock as a
mask of the tiles not yet seen instead of a sequence: a draw is a chance
node whose outcomes are those tiles, each equally likely. A chance node is
always evaluated exactly (it averages exact values, so a window cannot cut
it short) and cached in a table of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from muggins_cli.engine.table import LayoutTable, SearchMove
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import (
    MATCH_WIN,
    Budget,
    Objective,
    TwoPlayerSearch,
)

BIG = float(1 << 40)

Nega = Callable[[int, int, int, int, int, int, float, float], float]
Chance = Callable[[int, int, int, int, int, int], float]


class Expect2(TwoPlayerSearch):
    """``nega(me, op, lay, stk, dme, dop, alpha, beta)``: the expected value
    of the mover's points minus the other's, ``stk`` the mask of tiles still
    in the stock (in an unknown order). ``chance(me, op, lay, stk, dme, dop)``
    is the exact value of the mover drawing now."""

    def __init__(
        self,
        rules: Rules,
        table: LayoutTable,
        objective: Objective,
        budget: Budget,
        live: bool,
        low: int = 0,
    ) -> None:
        super().__init__(rules, table, objective, budget, live, low)
        self.reserve = rules.stock_reserve
        self.tt: dict[int, tuple[float, float, SearchMove | None]] = {}
        self.ct: dict[int, float] = {}
        n = table.n_tiles
        self.lay_shift = 3 * n + (2 * self.dist_bits if live else 0)
        self._build()

    def cap(self, dist: int, hand: int, stk: int) -> int:
        """As :meth:`Perfect2.cap`: the distance only while it can matter."""
        drawable = max(0, stk.bit_count() - self.reserve)
        room = self.table.max_place * (hand.bit_count() + drawable) + self.bonus
        return dist if dist <= room else self.far

    def _build(self) -> None:
        table = self.table
        fitmask = table.fitmask
        smoves = table.smoves
        search_moves = table.search_moves
        tile_moves = table.tile_moves
        tt = self.tt
        tget = tt.get
        ct = self.ct
        reserve = self.reserve
        must_play = self.rules.must_play
        win = MATCH_WIN if self.objective is Objective.MATCH else 0
        budget = self.budget
        every, mask = budget.every, budget.mask
        settle2 = self.settle2
        cap = self.cap
        live = self.live
        empty = table.empty
        n = table.n_tiles
        op_shift, stk_shift = n, 2 * n
        d1_shift = 3 * n
        d2_shift = d1_shift + self.dist_bits
        off = self.off
        ends = self.ends_on_credit
        lay_shift = self.lay_shift
        nodes = 0

        def key_of(me: int, op: int, lay: int, stk: int, dme: int, dop: int) -> int:
            key = me | op << op_shift | stk << stk_shift | lay << lay_shift
            if live:
                key |= ((cap(dme, me, stk) + off) << d1_shift
                        | (cap(dop, op, stk) + off) << d2_shift)
            return key

        def place(
            rest: int, op: int, nl: int, stk: int, dme: int, dop: int, pts: int,
            alpha: float, beta: float,
        ) -> float:
            if ends and pts >= dme:
                return pts + win
            if not rest:
                return pts + settle2(0, op, True, dme - pts, dop)
            if stk.bit_count() <= reserve and not (rest | op) & fitmask[nl]:
                return pts + settle2(rest, op, False, dme - pts, dop)
            return pts - nega(op, rest, nl, stk, dop, dme - pts, pts - beta, pts - alpha)

        def pass_(
            me: int, op: int, lay: int, stk: int, dme: int, dop: int, alpha: float, beta: float
        ) -> float:
            if not op & fitmask[lay]:
                return settle2(me, op, False, dme, dop)
            return -nega(op, me, lay, stk, dop, dme, -beta, -alpha)

        def chance(me: int, op: int, lay: int, stk: int, dme: int, dop: int) -> float:
            """The mover draws one of ``stk``'s tiles, each equally likely."""
            key = key_of(me, op, lay, stk, dme, dop)
            found = ct.get(key)
            if found is not None:
                return found
            fm = fitmask[lay]
            total = 0.0
            rest_stk = stk
            while rest_stk:
                bit = rest_stk & -rest_stk
                rest_stk ^= bit
                left = stk ^ bit
                if fm & bit:
                    best = -BIG
                    for nl, pts in tile_moves(lay, bit.bit_length() - 1):
                        v = place(me, op, nl, left, dme, dop, pts, -BIG, BIG)
                        if v > best:
                            best = v
                    total += best
                else:
                    total += nega(me | bit, op, lay, left, dme, dop, -BIG, BIG)
            value = total / stk.bit_count()
            ct[key] = value
            return value

        def nega(
            me: int, op: int, lay: int, stk: int, dme: int, dop: int, alpha: float, beta: float
        ) -> float:
            nonlocal nodes
            nodes += 1
            if not nodes & mask:
                budget.nodes += every
                budget.check()
            key = me | op << op_shift | stk << stk_shift | lay << lay_shift
            if live:
                key |= ((cap(dme, me, stk) + off) << d1_shift
                        | (cap(dop, op, stk) + off) << d2_shift)
            e = tget(key)
            if e is not None:
                lo, hi, first = e
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi, first = -BIG, BIG, None
            a0 = alpha
            fm = fitmask[lay]
            top = first
            drawable = stk.bit_count() > reserve and lay != empty
            if me & fm:
                best = -BIG
                if first is not None:
                    best = place(me ^ first[0], op, first[2], stk, dme, dop, first[3], alpha, beta)
                    if best > alpha:
                        alpha = best
                if best < beta:
                    ml = smoves[lay]
                    if ml is None:
                        ml = search_moves(lay)
                    for mv in ml:
                        if not me & mv[0] or mv is first:
                            continue
                        v = place(me ^ mv[0], op, mv[2], stk, dme, dop, mv[3], alpha, beta)
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                top = mv
                                if v >= beta:
                                    break
                if not must_play and best < beta and drawable:
                    v = chance(me, op, lay, stk, dme, dop)
                    if v > best:
                        best = v
            elif drawable:
                best = chance(me, op, lay, stk, dme, dop)
            else:
                best = pass_(me, op, lay, stk, dme, dop, alpha, beta)
            if best <= a0:
                tt[key] = (lo, best if best < hi else hi, top)
            elif best >= beta:
                tt[key] = (best if best > lo else lo, hi, top)
            else:
                tt[key] = (best, best, top)
            return best

        def counted() -> int:
            return nodes

        self._counted = counted
        self.nega: Nega = nega
        self.chance: Chance = chance
        self.place = place
        self.pass_ = pass_

    def node_count(self) -> int:
        return self._counted()
