"""The two-player perfect search of :mod:`.perfect`, compiled by Numba.

Why: nearly all of ``analyze --solver``'s time is this one search, solved
once per sampled deal and per move (a profile of two turns of the club
record: 99% in ``nega`` and the helpers it calls). In CPython it makes
about 300,000 nodes a second; compiled, the same nodes cost a small
fraction of that, which is what lets the verdicts take the deals they need.

It is the same algorithm, node for node: the same move order (the layout
table's successor lists), the same fail-soft negamax with the same table
entries, the same budget checks. :class:`~.perfect.Perfect2` uses it when
it can (:func:`usable`) and keeps the Python search otherwise (the
``match`` objective, a time limit, a set of more than 62 tiles), and the
tests hold the two to equal values on seeded deals.

What differs is only where the data lives: numbers in NumPy arrays instead
of Python lists and dicts.

- ``LI`` (per layout id): its fit mask and the slice of ``MV`` holding its
  search moves (``-1`` while the table has not built them);
- ``MV`` (per search move): tile bit, tile index, successor id, points;
- ``SET``: the round-end settlement by the two hands' pips and who went
  out, filled a row at a time from the engine's own ``settle``;
- ``TT``: the transposition table, open addressing on three key words, an
  entry valid while its generation is the search's (so dropping a table is
  one increment);
- ``S``: the search's counters, parameters and status.

The layout table grows lazily (a spinner game reaches a few thousand of
its 100,000 summaries). When the compiled search meets a layout whose
moves it does not have, a settlement row not yet filled, or a full
transposition table, it stops with a status saying which; the caller fills
it in (or grows the table), puts the node counters back and runs the same
call again. The table keeps what the first attempt found, so the second is
quicker, and it is why a search stopped by a node budget may have counted
its nodes differently from the Python one (the values of finished searches
are the same: both are exact).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numba import njit

from muggins_cli.engine.table import LayoutTable
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import Budget, BudgetExhausted, Settler, Stopped, pip_chunks

# S: counters and status (0-9), parameters (10-).
NODES, BUDGET_NODES, NODE_LIMIT, EVERY, MASK, STATUS, MISS, TT_COUNT, GEN, JN = range(10)
LIM, MUST_PLAY, WIN, LIVE, EMPTY, BONUS, MAX_PLACE, FAR, OFF, ENDS = range(10, 20)
S_SIZE = 20
# STATUS values.
OK, OUT_OF_NODES, NEED_LAYOUT, NEED_SETTLE, NEED_ROOM = range(5)
# Entry points of _search.
NEGA, NO_FIT, DRAW_ONE, PLACE, LAY_DRAWN = range(5)

BIG = 1 << 40
#: A settlement not computed yet.
UNSET = -(1 << 62)
#: Key field widths (see _search): layout ids and offset distances must fit.
LAY_LIMIT = 1 << 28
DIST_LIMIT = 1 << 17
#: Hands are int64 masks, the stock position above the mover's hand.
MAX_TILES = 56
TT_START = 1 << 16
#: Stores one call may make before its journal grows.
JOURNAL_START = 1 << 13
#: The largest table kept for the next search (56 MB); a bigger one is freed.
TT_KEEP = 1 << 20
#: Rows of the settlement table filled either side of a missing one.
SETTLE_ROWS = 16

_H1 = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit int
_H2 = -4417276706812531889  # 0xC2B2AE3D27D4EB4F
_H3 = 1609587929392839161  # 0x165667B19E3779F9
_H4 = -3372029247567499371  # 0xD1342543DE82EF95
#: The same multipliers for the general hash of _rehash (a probe of k words
#: XORs the first k of them, each times its key word).
_HS = np.array([_H1, _H2, _H3, _H4], dtype=np.int64)


@njit(cache=True, nogil=True)
def _pips(pc: Any, mask: int) -> int:
    total = 0
    for c in range(pc.shape[0]):
        total += pc[c, mask & 0x3FFF]
        mask >>= 14
    return total


@njit(cache=True, nogil=True)
def _settle(S: Any, SET: Any, pc: Any, a: int, b: int, a_out: int) -> int:
    pa = _pips(pc, a)
    v = SET[pa, _pips(pc, b), a_out]
    if v == UNSET:
        S[STATUS] = NEED_SETTLE
        S[MISS] = pa
        return 0
    return int(v)


@njit(cache=True, nogil=True)
def _probe(S: Any, TT: Any, k1: int, k2: int, k3: int) -> int:
    """The slot holding the key, or the empty slot where it would go."""
    cap: int = TT.shape[0]
    gen = S[GEN]
    h = k1 * _H1 ^ k2 * _H2 ^ k3 * _H3
    h ^= h >> 29
    slot: int = h & (cap - 1)
    while TT[slot, 6] == gen:
        if TT[slot, 0] == k1 and TT[slot, 1] == k2 and TT[slot, 2] == k3:
            return slot
        slot = (slot + 1) & (cap - 1)
    return slot


@njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# Frame fields (F[depth, field]) of the explicit stack.
(F_KIND, F_ME, F_OP, F_LAY, F_SP, F_DME, F_DOP, F_ALPHA, F_BETA, F_A0, F_LO, F_HI, F_FIRST,
 F_TOP, F_BEST, F_J, F_STAGE, F_K1, F_K3, F_TI, F_ROFF, F_RSIGN) = range(22)
F_SIZE = 22
# Where a NEGA frame is: trying the table's first move, the move list, a
# draw without must_play, or waiting for its no_fit.
ST_FIRST, ST_LOOP, ST_DRAW, ST_NOFIT = range(4)
# What the loop of _search does next.
DESCEND, DELIVER, ADVANCE, FINISH = range(4)
#: Frames: one per placement, pass or draw on the path; far above any path.
DEPTH = 4 * MAX_TILES + 16


@njit(cache=True, nogil=True)
def _search(S: Any, LI: Any, MV: Any, ST: Any, SET: Any, pc: Any, TT: Any, J: Any, F: Any,
            kind: int,
            me: int, op: int, lay: int, sp: int, dme: int, dop: int,
            alpha: int, beta: int) -> int:
    """Perfect2's ``nega`` (``kind`` NEGA) or ``no_fit`` (NO_FIT), with an
    explicit stack instead of recursion: Numba's cache cannot load a
    recursive function (it crashes), and compiling one took 30 s.

    Perfect2's helpers that hold no state of their own (``place``,
    ``pass_``, ``draw_one``'s first half) are followed in DESCEND, each
    turning the value its child returns by ``off + sign * v``; the two that
    loop (``nega`` over its moves, a drawn tile over the ends it fits) are
    frames. Returns 0 with ``S[STATUS]`` set when it must stop."""
    lim = S[LIM]
    must_play = S[MUST_PLAY]
    empty = S[EMPTY]
    gen = S[GEN]
    depth = 0
    x = 0
    off = 0
    sign = 1
    val = 0
    mode = DESCEND
    while True:
        if mode == DESCEND:
            while True:
                if kind == PLACE:
                    pts = x
                    if S[ENDS] and pts >= dme:
                        val = pts + S[WIN]
                        mode = DELIVER
                        break
                    if not me:
                        val = pts + _settle(S, SET, pc, 0, op, 1)
                        mode = DELIVER
                        break
                    if sp >= lim and not (me | op) & LI[lay, 0]:
                        val = pts + _settle(S, SET, pc, me, op, 0)
                        mode = DELIVER
                        break
                    off += sign * pts
                    sign = -sign
                    me, op = op, me
                    dme, dop = dop, dme - pts
                    alpha, beta = pts - beta, pts - alpha
                    kind = NEGA
                    continue
                if kind == NO_FIT:
                    fm = LI[lay, 0]
                    if sp < lim and lay != empty:
                        if not must_play:
                            kind = DRAW_ONE
                            continue
                        k = sp
                        ti = -1
                        while k < lim:
                            t = ST[k]
                            k += 1
                            if fm >> t & 1:
                                ti = t
                                break
                            me |= 1 << t
                        if ti >= 0:
                            kind = LAY_DRAWN
                            sp = k
                            x = ti
                            continue
                        sp = lim  # drew the stock dry: pass
                    if not op & fm:
                        val = _settle(S, SET, pc, me, op, 0)  # blocked
                        mode = DELIVER
                        break
                    sign = -sign
                    me, op = op, me
                    dme, dop = dop, dme
                    alpha, beta = -beta, -alpha
                    kind = NEGA
                    continue
                if kind == DRAW_ONE:
                    ti = ST[sp]
                    sp += 1
                    if LI[lay, 0] >> ti & 1:
                        kind = LAY_DRAWN
                        x = ti
                    else:
                        me |= 1 << ti
                        kind = NEGA
                    continue
                if kind == LAY_DRAWN:
                    if LI[lay, 1] < 0:
                        S[STATUS] = NEED_LAYOUT
                        S[MISS] = lay
                        return 0
                    d = depth
                    depth += 1
                    F[d, F_KIND] = LAY_DRAWN
                    F[d, F_ME] = me
                    F[d, F_OP] = op
                    F[d, F_LAY] = lay
                    F[d, F_SP] = sp
                    F[d, F_DME] = dme
                    F[d, F_DOP] = dop
                    F[d, F_ALPHA] = alpha
                    F[d, F_BETA] = beta
                    F[d, F_TI] = x
                    F[d, F_J] = LI[lay, 1] - 1
                    F[d, F_BEST] = -BIG
                    F[d, F_ROFF] = off
                    F[d, F_RSIGN] = sign
                    mode = ADVANCE
                    break
                # NEGA
                S[NODES] += 1
                if not S[NODES] & S[MASK]:
                    S[BUDGET_NODES] += S[EVERY]
                    if S[NODE_LIMIT] >= 0 and S[BUDGET_NODES] >= S[NODE_LIMIT]:
                        S[STATUS] = OUT_OF_NODES
                        return 0
                k1 = me | sp << 56
                k3 = lay
                if S[LIVE]:
                    room = S[BONUS] + S[MAX_PLACE] * (lim - sp if sp < lim else 0)
                    mp = S[MAX_PLACE]
                    d1 = dme if dme <= room + mp * _popcount(me) else S[FAR]
                    d2 = dop if dop <= room + mp * _popcount(op) else S[FAR]
                    k3 |= (d1 + S[OFF]) << 28 | (d2 + S[OFF]) << 45
                slot = _probe(S, TT, k1, op, k3)
                if TT[slot, 6] == gen:
                    lo = TT[slot, 3]
                    hi = TT[slot, 4]
                    first = TT[slot, 5]
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
                fm = LI[lay, 0]
                if me & fm and LI[lay, 1] < 0:
                    S[STATUS] = NEED_LAYOUT
                    S[MISS] = lay
                    return 0
                d = depth
                depth += 1
                F[d, F_KIND] = NEGA
                F[d, F_ME] = me
                F[d, F_OP] = op
                F[d, F_LAY] = lay
                F[d, F_SP] = sp
                F[d, F_DME] = dme
                F[d, F_DOP] = dop
                F[d, F_ALPHA] = alpha
                F[d, F_BETA] = beta
                F[d, F_A0] = alpha
                F[d, F_LO] = lo
                F[d, F_HI] = hi
                F[d, F_FIRST] = first
                F[d, F_TOP] = first
                F[d, F_BEST] = -BIG
                F[d, F_K1] = k1
                F[d, F_K3] = k3
                F[d, F_ROFF] = off
                F[d, F_RSIGN] = sign
                off = 0
                sign = 1
                if not me & fm:
                    F[d, F_STAGE] = ST_NOFIT
                    kind = NO_FIT
                    continue
                if first >= 0:
                    # The move that was best or cut off here before goes first.
                    F[d, F_STAGE] = ST_FIRST
                    me ^= MV[first, 0]
                    lay = MV[first, 2]
                    x = MV[first, 3]
                    kind = PLACE
                    continue
                F[d, F_STAGE] = ST_LOOP
                F[d, F_J] = LI[lay, 1] - 1
                mode = ADVANCE
                break
            if S[STATUS]:
                return 0
            if mode == DELIVER:
                val = off + sign * val
            continue

        if mode == DELIVER:
            # ``val`` is the value of the top frame's child.
            if depth == 0:
                return val
            d = depth - 1
            v = val
            if F[d, F_KIND] == LAY_DRAWN:
                mode = ADVANCE
                if v > F[d, F_BEST]:
                    F[d, F_BEST] = v
                    if v > F[d, F_ALPHA]:
                        F[d, F_ALPHA] = v
                        if v >= F[d, F_BETA]:
                            mode = FINISH
                continue
            stage = F[d, F_STAGE]
            if stage == ST_FIRST:
                F[d, F_BEST] = v
                if v > F[d, F_ALPHA]:
                    F[d, F_ALPHA] = v
                F[d, F_STAGE] = ST_LOOP
                F[d, F_J] = LI[F[d, F_LAY], 1] - 1
                mode = ADVANCE
                if v >= F[d, F_BETA]:
                    F[d, F_J] = LI[F[d, F_LAY], 2]  # no more moves; on to the draw
            elif stage == ST_LOOP:
                mode = ADVANCE
                if v > F[d, F_BEST]:
                    F[d, F_BEST] = v
                    if v > F[d, F_ALPHA]:
                        F[d, F_ALPHA] = v
                        F[d, F_TOP] = F[d, F_J]
                        if v >= F[d, F_BETA]:
                            F[d, F_J] = LI[F[d, F_LAY], 2]
            else:  # ST_DRAW, ST_NOFIT
                if stage == ST_NOFIT or v > F[d, F_BEST]:
                    F[d, F_BEST] = v
                mode = FINISH
            continue

        d = depth - 1
        if mode == ADVANCE:
            me = F[d, F_ME]
            lay = F[d, F_LAY]
            stop = LI[lay, 2]
            j = F[d, F_J] + 1
            if F[d, F_KIND] == LAY_DRAWN:
                ti = F[d, F_TI]
                while j < stop and MV[j, 1] != ti:
                    j += 1
            else:
                first = F[d, F_FIRST]
                while j < stop and (not me & MV[j, 0] or j == first):
                    j += 1
            if j < stop:
                F[d, F_J] = j
                if F[d, F_KIND] == NEGA:
                    me ^= MV[j, 0]
                kind = PLACE
                op = F[d, F_OP]
                lay = MV[j, 2]
                sp = F[d, F_SP]
                dme = F[d, F_DME]
                dop = F[d, F_DOP]
                alpha = F[d, F_ALPHA]
                beta = F[d, F_BETA]
                x = MV[j, 3]
                off = 0
                sign = 1
                mode = DESCEND
                continue
            F[d, F_J] = stop
            sp = F[d, F_SP]
            if (F[d, F_KIND] == NEGA and F[d, F_STAGE] == ST_LOOP and not must_play
                    and F[d, F_BEST] < F[d, F_BETA] and sp < lim and lay != empty):
                F[d, F_STAGE] = ST_DRAW
                kind = DRAW_ONE
                op = F[d, F_OP]
                dme = F[d, F_DME]
                dop = F[d, F_DOP]
                alpha = F[d, F_ALPHA]
                beta = F[d, F_BETA]
                off = 0
                sign = 1
                mode = DESCEND
                continue
            mode = FINISH

        # FINISH: the top frame is done; store a NEGA frame's bounds.
        best = F[d, F_BEST]
        if F[d, F_KIND] == NEGA:
            lo = F[d, F_LO]
            hi = F[d, F_HI]
            if best <= F[d, F_A0]:
                lo2, hi2 = lo, (best if best < hi else hi)
            elif best >= F[d, F_BETA]:
                lo2, hi2 = (best if best > lo else lo), hi
            else:
                lo2, hi2 = best, best
            k1 = F[d, F_K1]
            k2 = F[d, F_OP]
            k3 = F[d, F_K3]
            slot = _probe(S, TT, k1, k2, k3)
            jn = S[JN]
            if jn == J.shape[0] or 2 * (S[TT_COUNT] + 1) > TT.shape[0]:
                S[STATUS] = NEED_ROOM  # the caller grows the table and starts again
                return 0
            # What this store replaces, so that a call started again can be
            # undone to the table it began with.
            J[jn, 0] = slot
            J[jn, 1] = TT[slot, 6] != gen
            J[jn, 2] = TT[slot, 3]
            J[jn, 3] = TT[slot, 4]
            J[jn, 4] = TT[slot, 5]
            S[JN] = jn + 1
            if TT[slot, 6] != gen:
                S[TT_COUNT] += 1
                TT[slot, 0] = k1
                TT[slot, 1] = k2
                TT[slot, 2] = k3
                TT[slot, 6] = gen
            TT[slot, 3] = lo2
            TT[slot, 4] = hi2
            TT[slot, 5] = F[d, F_TOP]
        depth -= 1
        val = F[d, F_ROFF] + F[d, F_RSIGN] * best
        mode = DELIVER


@njit(cache=True, nogil=True)
def _undo(S: Any, TT: Any, J: Any, keys: int) -> None:
    """Put the table back as it was before the call, newest store first
    (so an entry emptied again was never probed past by a later one). A
    table row is ``keys`` key words, then lo, hi, first and generation."""
    for i in range(S[JN] - 1, -1, -1):
        slot = J[i, 0]
        if J[i, 1]:
            TT[slot, keys + 3] = 0
            S[TT_COUNT] -= 1
        else:
            TT[slot, keys] = J[i, 2]
            TT[slot, keys + 1] = J[i, 3]
            TT[slot, keys + 2] = J[i, 4]
    S[JN] = 0


@njit(cache=True, nogil=True)
def _rehash(old: Any, new: Any, gen: int, keys: int) -> int:
    """The live entries of ``old`` moved into ``new``, each at the slot the
    kernels' probe would find (the same hash of its ``keys`` words)."""
    cap = new.shape[0]
    count = 0
    for i in range(old.shape[0]):
        if old[i, keys + 3] != gen:
            continue
        h = 0
        for k in range(keys):
            h ^= old[i, k] * _HS[k]
        h ^= h >> 29
        slot = h & (cap - 1)
        while new[slot, keys + 3] == gen:
            slot = (slot + 1) & (cap - 1)
        new[slot, :] = old[i, :]
        count += 1
    return count


def settings_compile(n_tiles: int, max_tiles: int, timed: bool, match: bool) -> bool:
    """The part of :func:`usable` that the settings decide before any
    position is seen, for a caller that budgets by it: a compiled search
    makes about ten times the nodes a second."""
    return (os.environ.get("MUGGINS_PURE_PYTHON", "") in ("", "0")
            and not timed and not match and n_tiles <= max_tiles)


def usable(rules: Rules, table: LayoutTable, budget: Budget, match: bool, far: int,
           off: int) -> bool:
    """Whether the compiled search can run this search: it knows no clock
    (a time limit keeps the Python search, which checks one), plays the
    ``points`` objective, holds hands in 56 bits, and packs layout ids and
    distances in its key. ``MUGGINS_PURE_PYTHON=1`` turns it off (the tests
    compare the two)."""
    return (
        settings_compile(table.n_tiles, MAX_TILES, budget.deadline is not None, match)
        and far + off < DIST_LIMIT
        # Layout ids go in a key field: half of it left for what one search
        # may intern (a spinner set interns some thousands a position).
        and len(table.keys) < LAY_LIMIT // 2
    )


class _Arrays:
    """The layout table as the compiled search reads it, grown as the table
    grows; one per table, shared by every search of its rules."""

    def __init__(self, table: LayoutTable) -> None:
        self.table = table
        self.li = np.full((256, 3), -1, dtype=np.int64)
        self.mv = np.zeros((1024, 4), dtype=np.int64)
        self.n_ids = 0
        self.n_moves = 0

    def sync(self) -> None:
        """Every id the table has interned, with its fit mask."""
        t = self.table
        n = len(t.keys)
        if n > len(self.li):
            li = np.full((max(n, 2 * len(self.li)), 3), -1, dtype=np.int64)
            li[: self.n_ids] = self.li[: self.n_ids]
            self.li = li
        old = self.n_ids
        for i in range(old, n):
            self.li[i, 0] = t.fitmask[i]
        self.n_ids = n
        for i in range(old, n):  # what other searches built before this one came
            moves = t.smoves[i]
            if moves is not None:
                self._export(i, moves)

    def build(self, cid: int) -> None:
        """The search moves of canonical id ``cid``."""
        if self.li[cid, 1] >= 0:
            return
        moves = self.table.search_moves(cid)
        self.sync()
        if self.li[cid, 1] < 0:
            self._export(cid, moves)

    def _export(self, cid: int, moves: Sequence[tuple[int, int, int, int]]) -> None:
        need = self.n_moves + len(moves)
        if need > len(self.mv):
            mv = np.zeros((max(need, 2 * len(self.mv)), 4), dtype=np.int64)
            mv[: self.n_moves] = self.mv[: self.n_moves]
            self.mv = mv
        start = self.n_moves
        for k, m in enumerate(moves):
            self.mv[start + k] = m
        self.n_moves = need
        self.li[cid, 1] = start
        self.li[cid, 2] = need

    def reach(self, cid: int, tiles: int, most: int = 1024) -> None:
        """Build ``cid`` and what it leads to by the tiles in play, up to
        ``most`` layouts: one stop of the search then brings in many."""
        todo = [cid]
        built = 0
        while todo and built < most:
            c = todo.pop()
            if self.li[c, 1] >= 0 and c != cid:
                continue
            self.build(c)
            built += 1
            for j in range(int(self.li[c, 1]), int(self.li[c, 2])):
                if int(self.mv[j, 0]) & tiles:
                    nl = int(self.mv[j, 2])
                    if nl >= self.n_ids or self.li[nl, 1] < 0:
                        todo.append(nl)
            self.sync()


_ARRAYS: dict[int, _Arrays] = {}
#: The table size the last search of each kind ended with, up to the size
#: kept between searches.
_HINTS: dict[type, int] = {}
#: The journal and frames the last search of each kind left.
_SPARE: dict[type, tuple[np.ndarray, np.ndarray]] = {}
_SETTLE: dict[Rules, np.ndarray] = {}
_PIPS: dict[int, np.ndarray] = {}
_GENS = itertools.count(1)
_FREE_TABLES: list[np.ndarray] = []


def _arrays_of(table: LayoutTable) -> _Arrays:
    """The arrays of ``table``, shared by every compiled search of its rules."""
    arrays = _ARRAYS.get(id(table))
    if arrays is None or arrays.table is not table:
        arrays = _ARRAYS[id(table)] = _Arrays(table)
    arrays.sync()
    return arrays


def _pip_chunks(table: LayoutTable) -> np.ndarray:
    """:func:`~.common.pip_chunks` as one array, each row 2**14 long (the
    kernel reads a row at ``mask & 0x3FFF``; a shorter last chunk is padded)."""
    found = _PIPS.get(table.n_tiles)
    if found is None:
        chunks = pip_chunks(table)
        found = np.zeros((len(chunks), 1 << 14), dtype=np.int64)
        for c, sums in enumerate(chunks):
            found[c, : len(sums)] = sums
        _PIPS[table.n_tiles] = found
    return found


class Kernel:
    """What the compiled searches share around their kernel: the layout
    arrays, the stock, the transposition table (``keys`` key words a row,
    from a pool of one), the journal, the counters in ``s`` and the restart
    loop of :meth:`_run`. A subclass sets its parameters in ``s`` and says
    how one attempt runs (:meth:`_attempt`)."""

    keys = 3
    tt_start = TT_START
    tt_keep = TT_KEEP
    pool: list[np.ndarray] = _FREE_TABLES

    def __init__(self, table: LayoutTable, stock: Sequence[int], budget: Budget, s_size: int,
                 depth: int, frame: int) -> None:
        self.table = table
        self.budget = budget
        self.arrays = _arrays_of(table)
        self.stock = np.array(list(stock) or [0], dtype=np.int64)
        self.in_play = sum(1 << t for t in stock)
        self.pc = _pip_chunks(table)
        width = self.keys + 4
        # As big as the last search of this kind ended with (a deal of the
        # same position needs about as much, and each growth costs a
        # restart), up to the size kept between searches.
        hint = _HINTS.get(type(self), self.tt_start)
        pooled = self.pool.pop() if self.pool else None
        self.tt = pooled if pooled is not None and len(pooled) >= hint else np.zeros(
            (hint, width), dtype=np.int64)
        # The journal and the frames need no clearing (the counters say what
        # is live): the last search's are taken as they are.
        spare = _SPARE.pop(type(self), None)
        if spare is not None and spare[1].shape == (depth, frame):
            self.journal, self.frames = spare
        else:
            self.journal = np.zeros((JOURNAL_START, 5), dtype=np.int64)
            self.frames = np.zeros((depth, frame), dtype=np.int64)
        s = np.zeros(s_size, dtype=np.int64)
        s[EVERY] = budget.every
        s[MASK] = budget.mask
        s[NODE_LIMIT] = -1 if budget.node_limit is None else budget.node_limit
        s[GEN] = next(_GENS)
        self.s = s

    def _attempt(self) -> int:
        raise NotImplementedError

    def _fill(self, status: int) -> None:
        """Fill in what a stop with ``status`` lacked, other than a layout or
        room (the two-player kernel's settlement rows)."""

    def _run(self, hands: int) -> int:
        """The call :meth:`_attempt` makes, to its end: filling in what it
        lacked and starting again, from the same counts and the same table
        (node for node as the Python search), or raising when the budget
        ran out."""
        s, a = self.s, self.arrays
        # The root's layout may have been interned since this search began
        # (the caller asks for its canonical id): the compiled search must
        # never read past the ids it was given.
        a.sync()
        # The compiled search cannot be interrupted: a Ctrl-C lands when it
        # returns, here, as it would at the Python search's next check.
        self.budget.check()
        self.in_play |= hands
        nodes = int(s[NODES])
        s[BUDGET_NODES] = self.budget.nodes
        while True:
            s[JN] = 0
            v = self._attempt()
            status = int(s[STATUS])
            if status == OK:
                self.budget.nodes = int(s[BUDGET_NODES])
                return v
            s[STATUS] = OK
            if status == OUT_OF_NODES:
                self.budget.nodes = int(s[BUDGET_NODES])
                raise BudgetExhausted(Stopped.NODES)
            journal_full = int(s[JN]) >= len(self.journal)
            _undo(s, self.tt, self.journal, self.keys)
            s[NODES] = nodes
            s[BUDGET_NODES] = self.budget.nodes
            if status == NEED_LAYOUT:
                a.reach(int(s[MISS]), self.in_play)
            elif status != NEED_ROOM:
                self._fill(status)
            elif journal_full:
                self.journal = np.zeros((2 * len(self.journal), 5), dtype=np.int64)
            else:
                new = np.zeros((2 * len(self.tt), self.keys + 4), dtype=np.int64)
                s[TT_COUNT] = _rehash(self.tt, new, int(s[GEN]), self.keys)
                self.tt = new

    def node_count(self) -> int:
        return int(self.s[NODES])

    def release(self) -> None:
        """Hand the table to the next search: its entries are dead once the
        generation moves on, and a table that had to grow is kept grown (the
        next deal of the same position is likely to need as much)."""
        _HINTS[type(self)] = min(len(self.tt), self.tt_keep)
        if len(self.journal) <= self.tt_keep:
            _SPARE[type(self)] = (self.journal, self.frames)
        if len(self.tt) <= self.tt_keep:
            self.pool.append(self.tt)
            self.pool.sort(key=len)
            del self.pool[:-1]
        # The search's closures make a cycle, which the collector may not
        # visit for thousands of deals: what is big goes now.
        self.tt = self.journal = np.zeros((1, self.keys + 4), dtype=np.int64)


class Compiled2(Kernel):
    """One two-player search over one stock order: ``nega`` and ``no_fit``
    as :class:`~.perfect.Perfect2` has them, run compiled."""

    def __init__(self, rules: Rules, table: LayoutTable, stock: Sequence[int], budget: Budget,
                 params: Sequence[int], settler: Settler) -> None:
        super().__init__(table, stock, budget, S_SIZE, DEPTH, F_SIZE)
        self.settler = settler
        total = sum(t.pips for t in table.tiles) + 1
        settle = _SETTLE.get(rules)
        if settle is None:
            settle = _SETTLE[rules] = np.full((total, total, 2), UNSET, dtype=np.int64)
        self.settle = settle
        self.s[LIM:ENDS + 1] = params
        self.args = (NEGA, 0, 0, 0, 0, 0, 0, 0, 0)
        self.nega = self._entry(NEGA)
        self.no_fit = self._entry(NO_FIT)

    def _entry(self, kind: int) -> Callable[[int, int, int, int, int, int, int, int], int]:
        def call(me: int, op: int, lay: int, sp: int, dme: int, dop: int, alpha: int,
                 beta: int) -> int:
            self.args = (kind, me, op, lay, sp, dme, dop, alpha, beta)
            return self._run(me | op)

        return call

    def _attempt(self) -> int:
        a = self.arrays
        return int(_search(self.s, a.li, a.mv, self.stock, self.settle, self.pc, self.tt,
                           self.journal, self.frames, *self.args))

    def _fill(self, status: int) -> None:
        self._settle_rows(int(self.s[MISS]))

    def _settle_rows(self, pa: int) -> None:
        """The settlements of ``pa`` pips against every hand, and of the
        hands a little lighter and heavier, which the same search meets
        next (each stop costs a restart)."""
        pair = self.settler.pair
        table = self.settle
        for a in range(max(0, pa - SETTLE_ROWS), min(len(table), pa + SETTLE_ROWS + 1)):
            row = table[a]
            if row[0, 0] != UNSET:
                continue
            for pb in range(len(row)):
                row[pb, 0] = pair(a, pb, False, 0, 0)
                row[pb, 1] = pair(a, pb, True, 0, 0)
