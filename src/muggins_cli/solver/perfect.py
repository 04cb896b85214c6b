"""Two players, every tile known: negamax alpha-beta with a transposition table.

This is the hot loop of the solver, written for speed over elegance:

- a position is a handful of ints (the mover's and the other's hand masks, a
  canonical layout id, the stock position, the distances to the target), so
  "make a move" is an xor and "unmake" is returning;
- the search is a closure, so every table it reads is a fast local;
- placements come from ``LayoutTable.search_moves``, already sorted by
  immediate score (scoring moves first), filtered by the hand mask;
- under ``must_play`` a player who cannot place draws until a tile fits and
  must lay that tile: there is no choice in between, so the whole draw run is
  one step of the search rather than one node per tile;
- the table key is structural: ``(mover, other, layout, stock position)``,
  plus both distances to the target when some player could still reach it
  in this round (capped otherwise, so that positions reached with different
  scores share an entry whenever the target cannot matter).

Values are ints: the mover's points minus the other's, from here to the end
of the round, the settlement included (with ``MATCH_WIN`` added or taken
under the match objective).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from muggins_cli.engine.table import LayoutTable, SearchMove
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import (
    MATCH_WIN,
    Budget,
    Objective,
    TwoPlayerSearch,
)
from muggins_cli.solver.compiled import Compiled2, usable

#: Bigger than any value: the table's "no bound yet".
BIG = 1 << 40

Nega = Callable[[int, int, int, int, int, int, int, int], int]


class Perfect2(TwoPlayerSearch):
    """Exact two-player search over one known stock order.

    ``nega(me, op, lay, sp, dme, dop, alpha, beta)`` is the fail-soft negamax
    value for the player holding ``me`` to move, with canonical layout
    ``lay``, the next draw at ``stock[sp]`` and distances to the target
    ``dme``/``dop``. The table is kept between calls, so the root's moves and
    the principal variations reuse one another's work.
    """

    def __init__(
        self,
        rules: Rules,
        table: LayoutTable,
        stock: Sequence[int],
        objective: Objective,
        budget: Budget,
        live: bool,
        low: int = 0,
    ) -> None:
        super().__init__(rules, table, objective, budget, live, low)
        self.stock = tuple(stock)
        self.lim = max(0, len(self.stock) - rules.stock_reserve)
        self.tt: dict[int, tuple[int, int, SearchMove | None]] = {}
        # Key layout (low to high bits): mover's hand, other's hand, stock
        # position, [both capped distances,] layout id. Packing into one int
        # is about a third faster than a tuple key (no allocation to hash).
        n = table.n_tiles
        self.sp_shift = 2 * n
        dist_bits = self.dist_bits
        self.d1_shift = self.sp_shift + max(1, len(self.stock).bit_length())
        self.d2_shift = self.d1_shift + dist_bits
        self.lay_shift = self.d2_shift + dist_bits if live else self.d1_shift
        self.compiled: Compiled2 | None = None
        if usable(rules, table, budget, objective is Objective.MATCH, self.far, self.off):
            self.compiled = Compiled2(rules, table, self.stock, budget, (
                self.lim, rules.must_play, 0, live, table.empty, self.bonus, table.max_place,
                self.far, self.off, self.ends_on_credit), self.settler)
            self.nega: Nega = self.compiled.nega
            self.no_fit: Nega = self.compiled.no_fit
        else:
            self.nega = self._build()

    def cap(self, dist: int, hand: int, sp: int) -> int:
        """``dist`` when the seat holding ``hand`` could still close it in this
        round (at most ``max_place`` per tile it holds or may draw, plus a
        round-end bonus), else ``far``: the key then ignores the score."""
        room = self.table.max_place * (hand.bit_count() + max(0, self.lim - sp)) + self.bonus
        return dist if dist <= room else self.far

    def _build(self) -> Nega:
        table = self.table
        fitmask = table.fitmask
        smoves = table.smoves
        search_moves = table.search_moves
        tile_moves = table.tile_moves
        stock = self.stock
        lim = self.lim
        tt = self.tt
        tget = tt.get
        must_play = self.rules.must_play
        win = MATCH_WIN if self.objective is Objective.MATCH else 0
        budget = self.budget
        every, mask = budget.every, budget.mask
        settle2 = self.settle2
        live = self.live
        empty = table.empty
        nodes = 0
        op_shift = table.n_tiles
        sp_shift = self.sp_shift
        d1_shift = self.d1_shift
        d2_shift = self.d2_shift
        lay_shift = self.lay_shift
        bonus = self.bonus
        max_place = table.max_place
        far = self.far
        off = self.off
        ends = self.ends_on_credit

        def place(
            rest: int, op: int, nl: int, sp: int, dme: int, dop: int, pts: int,
            alpha: int, beta: int,
        ) -> int:
            """The mover has laid a tile scoring ``pts`` and holds ``rest``."""
            if ends and pts >= dme:
                return pts + win
            if not rest:
                return pts + settle2(0, op, True, dme - pts, dop)
            if sp >= lim and not (rest | op) & fitmask[nl]:
                return pts + settle2(rest, op, False, dme - pts, dop)
            return pts - nega(op, rest, nl, sp, dop, dme - pts, pts - beta, pts - alpha)

        def no_fit(
            me: int, op: int, lay: int, sp: int, dme: int, dop: int, alpha: int, beta: int
        ) -> int:
            """The mover holds nothing that fits: draw, or pass."""
            fm = fitmask[lay]
            if sp < lim and lay != empty:
                if not must_play:
                    return draw_one(me, op, lay, sp, dme, dop, alpha, beta)
                k = sp
                while k < lim:
                    ti = stock[k]
                    k += 1
                    if fm >> ti & 1:
                        break
                    me |= 1 << ti
                else:
                    return pass_(me, op, lay, lim, dme, dop, alpha, beta)
                best = -BIG
                for nl, pts in tile_moves(lay, ti):
                    v = place(me, op, nl, k, dme, dop, pts, alpha, beta)
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                return best
            return pass_(me, op, lay, sp, dme, dop, alpha, beta)

        def pass_(
            me: int, op: int, lay: int, sp: int, dme: int, dop: int, alpha: int, beta: int
        ) -> int:
            if not op & fitmask[lay]:
                return settle2(me, op, False, dme, dop)  # blocked
            return -nega(op, me, lay, sp, dop, dme, -beta, -alpha)

        def draw_one(
            me: int, op: int, lay: int, sp: int, dme: int, dop: int, alpha: int, beta: int
        ) -> int:
            """Without ``must_play``: one draw, then a fitting tile is laid at
            once, or the same player moves again."""
            ti = stock[sp]
            if fitmask[lay] >> ti & 1:
                best = -BIG
                for nl, pts in tile_moves(lay, ti):
                    v = place(me, op, nl, sp + 1, dme, dop, pts, alpha, beta)
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                return best
            return nega(me | 1 << ti, op, lay, sp + 1, dme, dop, alpha, beta)

        def nega(
            me: int, op: int, lay: int, sp: int, dme: int, dop: int, alpha: int, beta: int
        ) -> int:
            nonlocal nodes
            nodes += 1
            if not nodes & mask:
                budget.nodes += every
                budget.check()
            key = me | op << op_shift | sp << sp_shift | lay << lay_shift
            if live:
                # Distances enter the key only while they can still be closed.
                room = bonus + max_place * (lim - sp if sp < lim else 0)
                if dme <= room + max_place * me.bit_count():
                    key |= (dme + off) << d1_shift
                else:
                    key |= (far + off) << d1_shift
                if dop <= room + max_place * op.bit_count():
                    key |= (dop + off) << d2_shift
                else:
                    key |= (far + off) << d2_shift
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
            if me & fm:
                best = -BIG
                if first is not None:
                    # The move that was best or cut off here before goes first.
                    best = place(me ^ first[0], op, first[2], sp, dme, dop, first[3], alpha, beta)
                    if best > alpha:
                        alpha = best
                if best < beta:
                    ml = smoves[lay]
                    if ml is None:
                        ml = search_moves(lay)
                    for mv in ml:
                        if not me & mv[0] or mv is first:
                            continue
                        bit, _, nl, pts = mv
                        rest = me ^ bit
                        if ends and pts >= dme:
                            v = pts + win
                        elif not rest:
                            v = pts + settle2(0, op, True, dme - pts, dop)
                        elif sp >= lim and not (rest | op) & fitmask[nl]:
                            v = pts + settle2(rest, op, False, dme - pts, dop)
                        else:
                            v = pts - nega(op, rest, nl, sp, dop, dme - pts, pts - beta,
                                           pts - alpha)
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                top = mv
                                if v >= beta:
                                    break
                if not must_play and best < beta and sp < lim and lay != empty:
                    v = draw_one(me, op, lay, sp, dme, dop, alpha, beta)
                    if v > best:
                        best = v
            else:
                best = no_fit(me, op, lay, sp, dme, dop, alpha, beta)
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
        self.no_fit = no_fit
        self.place = place
        return nega

    def node_count(self) -> int:
        if self.compiled is not None:
            return self.compiled.node_count()
        return self._counted()

    def release(self) -> None:
        """Drop the table now. The search's closures refer to one another,
        so without this the table would wait for the cycle collector; a
        sampled position solves many deals, and their tables piled up."""
        if self.compiled is not None:
            self.compiled.release()
        self.tt.clear()
