"""The paranoid search of :mod:`.paranoid` (three and four players, the
mover against the rest), compiled by Numba like the two-player one
(:mod:`.compiled`, whose docstring says why and how the two share the
layout arrays, the budget and the restarts).

Differences from the two-player kernel, all the paranoid search's own:
the value is a weighted sum carried down the path (``off + v``, never
negated); the root seat maximises and the others minimise; the hands and
the distances are four of each (zero for an absent seat); the key is four
words; and the settlement is worked out in the kernel from the rules'
rounding table (:func:`_settle`), because its four pip counts are too many
to tabulate. That function is the one piece of the engine written twice:
``tests/test_solver_compiled.py`` holds it to ``engine.scoring.settle`` on
every round end kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from muggins_cli.engine.table import LayoutTable
from muggins_cli.rules.model import RoundEnd, Rules
from muggins_cli.solver.common import Budget
from muggins_cli.solver.compiled import (
    _H1,
    _H2,
    _H3,
    _H4,
    BIG,
    NEED_LAYOUT,
    NEED_ROOM,
    OUT_OF_NODES,
    Kernel,
    _pips,
    _popcount,
    settings_compile,
)

# S: counters, status, parameters.
(NODES, BUDGET_NODES, NODE_LIMIT, EVERY, MASK, STATUS, MISS, TT_COUNT, GEN, JN,
 LIM, MUST_PLAY, LIVE, EMPTY, BONUS, MAX_PLACE, FAR, OFF, ENDS, N, ROOT, ROUND_END,
 DIVISOR, W0) = range(24)
S_SIZE = W0 + 4
# ROUND_END values.
DEDUCT_OWN, LIGHTEST_BONUS, WINNER_TAKES = range(3)
# Steps of the walk down (DESCEND) and the frames.
SEARCH, AFTER, PASS, DRAW, PLACE_DRAWN = range(5)
# Frame fields.
(F_KIND, F_H, F_LAY, F_SP, F_SEAT, F_D, F_ALPHA, F_BETA, F_A0, F_B0, F_LO, F_HI, F_FIRST,
 F_TOP, F_BEST, F_J, F_STAGE, F_K, F_TI, F_ROFF, F_CUT) = (
    0, 1, 5, 6, 7, 8, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 27, 28, 29)
F_SIZE = 30
ST_FIRST, ST_LOOP, ST_DRAW, ST_NOFIT = range(4)
DESCEND, DELIVER, ADVANCE, FINISH = range(4)
#: Hands in 31 bits each, two to a key word.
MAX_TILES = 31
DIST_LIMIT = 1 << 15
LAY_LIMIT = 1 << 24
TT_START = 1 << 15
TT_KEEP = 1 << 21
DEPTH = 4 * MAX_TILES + 16
# TT columns: four key words, lo, hi, first, generation.
T_LO, T_HI, T_FIRST, T_GEN = 4, 5, 6, 7


@njit(cache=True, nogil=True)
def _settle(S: Any, RH: Any, pc: Any, H: Any, went_out: int) -> int:
    """The weighted settlement: ``engine.scoring.settle`` under the points
    objective, with ``RH[x]`` the rules' ``round_hand(x)``."""
    n = S[N]
    total = 0
    lightest = 1 << 30
    count = 0
    winner = -1
    p = np.empty(4, dtype=np.int64)
    for i in range(n):
        p[i] = _pips(pc, H[i])
        total += p[i]
    if S[ROUND_END] == DEDUCT_OWN:
        v = 0
        for i in range(n):
            v -= S[W0 + i] * RH[p[i]]
        return v
    if S[ROUND_END] == WINNER_TAKES and went_out >= 0:
        winner = went_out
    else:
        for i in range(n):
            if p[i] < lightest:
                lightest = p[i]
                count = 1
                winner = i
            elif p[i] == lightest:
                count += 1
        if count != 1:
            return 0  # a shared lightest hand gains nothing
    others = total - p[winner]
    if S[ROUND_END] == LIGHTEST_BONUS:
        return int(S[W0 + winner] * (RH[others - p[winner]] // S[DIVISOR]))
    return int(S[W0 + winner] * RH[others])


@njit(cache=True, nogil=True)
def _probe(S: Any, TT: Any, K: Any) -> int:
    cap: int = TT.shape[0]
    gen = S[GEN]
    h = K[0] * _H1 ^ K[1] * _H2 ^ K[2] * _H3 ^ K[3] * _H4
    h ^= h >> 29
    slot: int = h & (cap - 1)
    while TT[slot, T_GEN] == gen:
        if TT[slot, 0] == K[0] and TT[slot, 1] == K[1] and TT[slot, 2] == K[2] \
                and TT[slot, 3] == K[3]:
            return slot
        slot = (slot + 1) & (cap - 1)
    return slot


@njit(cache=True, nogil=True)
def _fits_any(H: Any, n: int, fm: int) -> bool:
    for i in range(n):  # noqa: SIM110 (a generator is not compiled as well)
        if H[i] & fm:
            return True
    return False


@njit(cache=True, nogil=True)
def _search(S: Any, LI: Any, MV: Any, ST: Any, RH: Any, pc: Any, TT: Any, J: Any, F: Any,
            H: Any, D: Any, lay: int, sp: int, seat: int, alpha: int, beta: int) -> int:
    """Paranoid's ``search`` with an explicit stack (see the two-player
    kernel's ``_search``): ``H`` and ``D`` are the hands and distances,
    worked on in place. Returns 0 with ``S[STATUS]`` set when it must stop."""
    lim = S[LIM]
    n = S[N]
    root = S[ROOT]
    gen = S[GEN]
    must_play = S[MUST_PLAY]
    empty = S[EMPTY]
    K = np.zeros(4, dtype=np.int64)
    depth = 0
    kind = SEARCH
    x = 0
    off = 0
    val = 0
    mode = DESCEND
    while True:
        if mode == DESCEND:
            while True:
                if kind == AFTER:
                    pts = x
                    here = S[W0 + seat] * pts
                    if S[ENDS] and pts >= D[seat]:
                        val = here  # the points objective: reaching adds nothing more
                        mode = DELIVER
                        break
                    D[seat] -= pts
                    if not H[seat]:
                        val = here + _settle(S, RH, pc, H, seat)
                        mode = DELIVER
                        break
                    if sp >= lim and not _fits_any(H, n, LI[lay, 0]):
                        val = here + _settle(S, RH, pc, H, -1)
                        mode = DELIVER
                        break
                    off += here
                    alpha -= here
                    beta -= here
                    seat = (seat + 1) % n
                    kind = SEARCH
                    continue
                if kind == PASS:
                    if not _fits_any(H, n, LI[lay, 0]):
                        val = _settle(S, RH, pc, H, -1)  # blocked
                        mode = DELIVER
                        break
                    seat = (seat + 1) % n
                    kind = SEARCH
                    continue
                if kind == DRAW:
                    fm = LI[lay, 0]
                    me = H[seat]
                    k = sp
                    ti = -1
                    while k < lim:
                        t = ST[k]
                        k += 1
                        if fm >> t & 1:
                            ti = t
                            break
                        me |= 1 << t
                        if x:
                            break
                    H[seat] = me
                    sp = k
                    if ti >= 0:
                        kind = PLACE_DRAWN
                        x = ti
                        continue
                    kind = SEARCH if x else PASS
                    continue
                if kind == PLACE_DRAWN:
                    if LI[lay, 1] < 0:
                        S[STATUS] = NEED_LAYOUT
                        S[MISS] = lay
                        return 0
                    d = depth
                    depth += 1
                    F[d, F_KIND] = PLACE_DRAWN
                    for i in range(4):
                        F[d, F_H + i] = H[i]
                        F[d, F_D + i] = D[i]
                    F[d, F_LAY] = lay
                    F[d, F_SP] = sp
                    F[d, F_SEAT] = seat
                    F[d, F_ALPHA] = alpha
                    F[d, F_BETA] = beta
                    F[d, F_TI] = x
                    F[d, F_J] = LI[lay, 1] - 1
                    F[d, F_BEST] = -BIG if seat == root else BIG
                    F[d, F_CUT] = 0
                    F[d, F_ROFF] = off
                    mode = ADVANCE
                    break
                # SEARCH
                S[NODES] += 1
                if not S[NODES] & S[MASK]:
                    S[BUDGET_NODES] += S[EVERY]
                    if S[NODE_LIMIT] >= 0 and S[BUDGET_NODES] >= S[NODE_LIMIT]:
                        S[STATUS] = OUT_OF_NODES
                        return 0
                K[0] = H[0] | H[1] << 31
                K[1] = H[2] | H[3] << 31
                K[2] = lay | sp << 24 | seat << 32
                K[3] = 0
                if S[LIVE]:
                    room = S[BONUS] + S[MAX_PLACE] * (lim - sp if sp < lim else 0)
                    for i in range(n):
                        di = D[i] if D[i] <= room + S[MAX_PLACE] * _popcount(H[i]) else S[FAR]
                        K[3] |= (di + S[OFF]) << (15 * i)
                slot = _probe(S, TT, K)
                if TT[slot, T_GEN] == gen:
                    lo = TT[slot, T_LO]
                    hi = TT[slot, T_HI]
                    first = TT[slot, T_FIRST]
                    if lo >= beta or lo == hi:
                        val = lo
                        mode = DELIVER
                        break
                    if hi <= alpha:
                        val = hi
                        mode = DELIVER
                        break
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
                else:
                    lo = -BIG
                    hi = BIG
                    first = -1
                me = H[seat]
                fm = LI[lay, 0]
                if me & fm and LI[lay, 1] < 0:
                    S[STATUS] = NEED_LAYOUT
                    S[MISS] = lay
                    return 0
                d = depth
                depth += 1
                F[d, F_KIND] = SEARCH
                for i in range(4):
                    F[d, F_H + i] = H[i]
                    F[d, F_D + i] = D[i]
                    F[d, F_K + i] = K[i]
                F[d, F_LAY] = lay
                F[d, F_SP] = sp
                F[d, F_SEAT] = seat
                F[d, F_ALPHA] = alpha
                F[d, F_BETA] = beta
                F[d, F_A0] = alpha
                F[d, F_B0] = beta
                F[d, F_LO] = lo
                F[d, F_HI] = hi
                F[d, F_FIRST] = first
                F[d, F_TOP] = first
                F[d, F_BEST] = -BIG if seat == root else BIG
                F[d, F_CUT] = 0
                F[d, F_ROFF] = off
                off = 0
                if not me & fm:
                    F[d, F_STAGE] = ST_NOFIT
                    if sp < lim and lay != empty:
                        kind = DRAW
                        x = 0
                    else:
                        kind = PASS
                    continue
                if first >= 0:
                    # The move that was best or cut off here before goes first.
                    F[d, F_STAGE] = ST_FIRST
                    H[seat] = me ^ MV[first, 0]
                    lay = MV[first, 2]
                    x = MV[first, 3]
                    kind = AFTER
                    continue
                F[d, F_STAGE] = ST_LOOP
                F[d, F_J] = LI[lay, 1] - 1
                mode = ADVANCE
                break
            if S[STATUS]:
                return 0
            if mode == DELIVER:
                val = off + val
            continue

        if mode == DELIVER:
            if depth == 0:
                return val
            d = depth - 1
            v = val
            mine = F[d, F_SEAT] == root
            stage = F[d, F_STAGE]
            if F[d, F_KIND] == PLACE_DRAWN or stage <= ST_LOOP:
                mode = ADVANCE
                better = v > F[d, F_BEST] if mine else v < F[d, F_BEST]
                if better:
                    F[d, F_BEST] = v
                    if mine and v > F[d, F_ALPHA]:
                        F[d, F_ALPHA] = v
                        if F[d, F_KIND] == SEARCH:
                            F[d, F_TOP] = F[d, F_FIRST] if stage == ST_FIRST else F[d, F_J]
                        if v >= F[d, F_BETA]:
                            F[d, F_CUT] = 1
                    elif not mine and v < F[d, F_BETA]:
                        F[d, F_BETA] = v
                        if F[d, F_KIND] == SEARCH:
                            F[d, F_TOP] = F[d, F_FIRST] if stage == ST_FIRST else F[d, F_J]
                        if v <= F[d, F_ALPHA]:
                            F[d, F_CUT] = 1
                if F[d, F_KIND] == PLACE_DRAWN:
                    if F[d, F_CUT]:
                        mode = FINISH
                    continue
                if stage == ST_FIRST:
                    F[d, F_STAGE] = ST_LOOP
                    F[d, F_J] = LI[F[d, F_LAY], 1] - 1
                if F[d, F_CUT]:
                    F[d, F_J] = LI[F[d, F_LAY], 2]
            else:  # ST_DRAW, ST_NOFIT
                if stage == ST_NOFIT or (v > F[d, F_BEST] if mine else v < F[d, F_BEST]):
                    F[d, F_BEST] = v
                mode = FINISH
            continue

        d = depth - 1
        if mode == ADVANCE:
            for i in range(4):
                H[i] = F[d, F_H + i]
                D[i] = F[d, F_D + i]
            seat = F[d, F_SEAT]
            lay = F[d, F_LAY]
            me = H[seat]
            stop = LI[lay, 2]
            j = F[d, F_J] + 1
            if F[d, F_KIND] == PLACE_DRAWN:
                ti = F[d, F_TI]
                while j < stop and MV[j, 1] != ti:
                    j += 1
            else:
                first = F[d, F_FIRST]
                while j < stop and (not me & MV[j, 0] or j == first):
                    j += 1
            if j < stop and not F[d, F_CUT]:
                F[d, F_J] = j
                if F[d, F_KIND] == SEARCH:
                    H[seat] = me ^ MV[j, 0]
                kind = AFTER
                lay = MV[j, 2]
                sp = F[d, F_SP]
                alpha = F[d, F_ALPHA]
                beta = F[d, F_BETA]
                x = MV[j, 3]
                off = 0
                mode = DESCEND
                continue
            F[d, F_J] = stop
            sp = F[d, F_SP]
            if (F[d, F_KIND] == SEARCH and F[d, F_STAGE] == ST_LOOP and not F[d, F_CUT]
                    and not must_play and sp < lim and lay != empty):
                F[d, F_STAGE] = ST_DRAW
                kind = DRAW
                x = 1
                alpha = F[d, F_ALPHA]
                beta = F[d, F_BETA]
                off = 0
                mode = DESCEND
                continue
            mode = FINISH

        # FINISH
        best = F[d, F_BEST]
        if F[d, F_KIND] == SEARCH:
            lo = F[d, F_LO]
            hi = F[d, F_HI]
            if best <= F[d, F_A0]:
                lo2, hi2 = lo, (best if best < hi else hi)
            elif best >= F[d, F_B0]:
                lo2, hi2 = (best if best > lo else lo), hi
            else:
                lo2, hi2 = best, best
            for i in range(4):
                K[i] = F[d, F_K + i]
            slot = _probe(S, TT, K)
            jn = S[JN]
            if jn == J.shape[0] or 2 * (S[TT_COUNT] + 1) > TT.shape[0]:
                S[STATUS] = NEED_ROOM
                return 0
            J[jn, 0] = slot
            J[jn, 1] = TT[slot, T_GEN] != gen
            J[jn, 2] = TT[slot, T_LO]
            J[jn, 3] = TT[slot, T_HI]
            J[jn, 4] = TT[slot, T_FIRST]
            S[JN] = jn + 1
            if TT[slot, T_GEN] != gen:
                S[TT_COUNT] += 1
                for i in range(4):
                    TT[slot, i] = K[i]
                TT[slot, T_GEN] = gen
            TT[slot, T_LO] = lo2
            TT[slot, T_HI] = hi2
            TT[slot, T_FIRST] = F[d, F_TOP]
        depth -= 1
        val = F[d, F_ROFF] + best
        mode = DELIVER


_ROUND_END = {RoundEnd.DEDUCT_OWN: DEDUCT_OWN, RoundEnd.LIGHTEST_BONUS: LIGHTEST_BONUS,
              RoundEnd.WINNER_TAKES: WINNER_TAKES}
_ROUNDING: dict[Rules, np.ndarray] = {}
_FREE_TABLES: list[np.ndarray] = []


def usable(table: LayoutTable, budget: Budget, match: bool, far: int, off: int) -> bool:
    """As :func:`.compiled.usable`, for hands in 31 bits (double-six and
    smaller)."""
    return (
        settings_compile(table.n_tiles, MAX_TILES, budget.deadline is not None, match)
        and far + off < DIST_LIMIT
        # Layout ids go in a key field: half of it left for what one search
        # may intern (a spinner set interns some thousands a position).
        and len(table.keys) < LAY_LIMIT // 2
    )


def _rounding(rules: Rules, table: LayoutTable) -> np.ndarray:
    found = _ROUNDING.get(rules)
    if found is None:
        total = sum(t.pips for t in table.tiles)
        found = _ROUNDING[rules] = np.array([rules.round_hand(x) for x in range(total + 1)],
                                            dtype=np.int64)
    return found


class CompiledParanoid(Kernel):
    """One paranoid search over one stock order: ``search`` as
    :class:`~.paranoid.Paranoid` has it, run compiled."""

    keys = 4
    tt_start = TT_START
    tt_keep = TT_KEEP
    pool = _FREE_TABLES

    def __init__(self, rules: Rules, table: LayoutTable, players: int, root: int,
                 stock: Sequence[int], budget: Budget, weights: Sequence[int],
                 params: Sequence[int]) -> None:
        super().__init__(table, stock, budget, S_SIZE, DEPTH, F_SIZE)
        self.n = players
        self.rh = _rounding(rules, table)
        s = self.s
        s[LIM:ENDS + 1] = params
        s[N] = players
        s[ROOT] = root
        s[ROUND_END] = _ROUND_END[rules.round_end]
        s[DIVISOR] = rules.bonus_divisor
        s[W0:W0 + players] = weights
        self.H = np.zeros(4, dtype=np.int64)
        self.D = np.zeros(4, dtype=np.int64)
        self.args = (0, 0, 0, 0, 0)
        self.at: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    def search(self, hands: tuple[int, ...], lay: int, sp: int, seat: int,
               dists: tuple[int, ...], alpha: int, beta: int) -> int:
        self.at = (hands, dists)
        self.args = (lay, sp, seat, alpha, beta)
        mask = 0
        for h in hands:
            mask |= h
        return self._run(mask)

    def _attempt(self) -> int:
        hands, dists = self.at
        self.H[:] = 0
        self.D[:] = 0
        self.H[: self.n] = hands
        self.D[: self.n] = dists
        a = self.arrays
        return int(_search(self.s, a.li, a.mv, self.stock, self.rh, self.pc, self.tt,
                           self.journal, self.frames, self.H, self.D, *self.args))
