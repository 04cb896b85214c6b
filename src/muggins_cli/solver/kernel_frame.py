"""The search's frame record and what it reads at a position: the columns
of a frame (``FI[d, I_*]`` ints, ``FF[d, F_*]`` floats), the registers
``S``, the memo of each canonical layout's placements, a frame's table
key, and a round end's results.

Every function here is compiled by Numba (:mod:`.jit`), most of them into
the code of :func:`.kernel_run.run` (``inline="always"``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from muggins_cli.engine.keys import R_N_TILES
from muggins_cli.engine.turn import NOBODY
from muggins_cli.solver.jit import (
    drawable,
    fit_mask,
    jit,
    search_moves_into,
    settle,
    winner_at_settlement,
)

#: The most seats the kernel holds (frames and keys are sized for it).
MAX_SEATS = 4
#: Hands are int64 masks: the largest set the kernel takes (double-nine).
MAX_TILES = 62
#: A value beyond any the game can make.
BIG = 1e18

# S: parameters (set once), registers kept between slices, counters.
(S_N, S_ROOT, S_MAXN, S_CHANCE, S_NST, S_MATCH, S_FAR, S_OFF, S_BONUS, S_MAXPLACE,
 S_KW, S_GEN, S_NODES, S_SLICE_END, S_STATUS, S_DEPTH, S_MODE, S_MV_N, S_LC_N,
 S_WIN, S_LIVE, S_STORED, S_DPER, S_DSHIFT, S_FORCED, S_REACH, S_RCOL) = range(27)
S_SIZE = 27
# S_STATUS values.
OK, SLICE, NEED_ROOM = range(3)
# S_MODE: what the loop does next.
M_ENTER, M_NEXT, M_DELIVER, M_FINISH = range(4)
#: Not a mode: what a step of the loop returns to stop it (``S_STATUS`` says why).
M_STOP = 4

# Frames: FI[depth, I_*] (ints), FF[depth, F_*] (floats).
(I_KIND, I_SEAT, I_KEY, I_STOCK, I_DRAWN, I_STAGE, I_J, I_START, I_END, I_SLOT, I_HINT,
 I_TOP, I_CUR, I_COUNT, I_ADDSEAT, I_ADDPTS, I_STORE, I_N0, I_FIT, I_ROW, I_CHAIN) = range(21)
I_H = 21  # hands, MAX_SEATS columns
I_D = I_H + MAX_SEATS  # distances to the target
I_K = I_D + MAX_SEATS  # table key words
KW_MAX = MAX_SEATS + 4
I_CP = I_K + KW_MAX  # the points each seat made in the frame's forced moves
I_KCP = I_CP + MAX_SEATS  # those up to the position the frame keys
I_M = I_KCP + MAX_SEATS  # reach: the most each seat made from that position, in any line
NI = I_M + MAX_SEATS
(F_ALPHA, F_BETA, F_A0, F_B0, F_LO, F_HI, F_BEST, F_SUM, F_CARRY, F_KCARRY) = range(10)
F_V = 10  # max-n: the best vector so far
F_S = F_V + MAX_SEATS  # max-n: chance sums
F_CV = F_S + MAX_SEATS  # max-n: the points of the forced moves a frame followed
F_KCV = F_CV + MAX_SEATS  # max-n: those points up to the position the frame keys
NF = F_KCV + MAX_SEATS
# Frame kinds: a seat chooses, or a tile comes out of the stock.
DECIDE, CHANCE = range(2)
# Where a frame is in its children.
ST_DRAWN, ST_HINT, ST_MOVES, ST_DRAWONE, ST_FORCED, ST_PASS, ST_CHANCE, ST_DONE = range(8)


_H = (-7046029254386353131, -4417276706812531889, 1609587929392839161,
      -3372029247567499371, 7109453100751455733, -2848908526405428903,
      5573154213466862731, -6214308151155768049)
_HASH = np.array(_H, dtype=np.int64)

@jit(inline="always")
def _pips(pc: Any, mask: int) -> int:
    total = 0
    c = 0
    while mask:
        total += pc[c, mask & 255]
        mask >>= 8
        c += 1
    return total


@jit(inline="always")
def _popcount(x: int) -> int:
    """Set bits of a non-negative int64, without a loop per bit."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & 0x7FFFFFFFFFFFFFFF) >> 56


@jit(inline="always")
def _moves_of(S: Any, R: Any, PM: Any, TLO: Any, THI: Any, ORDER: Any, LC: Any, MV: Any,
              BUF: Any, key: int) -> int:
    """The memo's row of ``key``: its placements MV[start:end] (tile,
    canonical successor, points, the successor's fit mask) and its own fit
    mask, built on first visit; -1 when the memo is full."""
    cap = LC.shape[0]
    h = key * _H[0]
    h ^= h >> 29
    slot = h & (cap - 1)
    while LC[slot, 0] != -1:
        if LC[slot, 0] == key:
            return int(slot)
        slot = (slot + 1) & (cap - 1)
    return _build_moves(S, R, PM, TLO, THI, ORDER, LC, MV, BUF, key, slot)


@jit()
def _build_moves(S: Any, R: Any, PM: Any, TLO: Any, THI: Any, ORDER: Any, LC: Any, MV: Any,
                 BUF: Any, key: int, slot: int) -> int:
    """Fill row ``slot`` of the memo with ``key``'s placements."""
    cap = LC.shape[0]
    start = S[S_MV_N]
    if 2 * (S[S_LC_N] + 1) > cap or start + 4 * R[R_N_TILES] > MV.shape[0]:
        return -1
    m = search_moves_into(R, PM, TLO, THI, ORDER, key, BUF)
    for j in range(m):
        MV[start + j, 4] = -1  # the successor's row, found on first visit
        MV[start + j, 0] = BUF[3 * j]
        MV[start + j, 1] = BUF[3 * j + 1]
        MV[start + j, 2] = BUF[3 * j + 2]
        MV[start + j, 3] = fit_mask(R, BUF[3 * j + 1], PM)
    LC[slot, 0] = key
    LC[slot, 1] = start
    LC[slot, 2] = start + m
    LC[slot, 3] = fit_mask(R, key, PM)
    S[S_MV_N] = start + m
    S[S_LC_N] += 1
    return slot


@jit()
def _settle_vec(S: Any, R: Any, PC: Any, hands: Any, dists: Any, went_out: int, seat: int,
                pts: int, out: Any, pips: Any, deltas: Any, neg: Any) -> None:
    """The round's end as a vector of results by seat: the settlement,
    ``pts`` to ``seat`` (the placement that ended it), and under the match
    objective the winner's bonus (``dists``: what each lacks of the target
    after the placement)."""
    n = S[S_N]
    for i in range(n):
        pips[i] = _pips(PC, hands[i])
    settle(R, pips, went_out, deltas)
    for i in range(n):
        out[i] = deltas[i]
    out[seat] += pts
    if S[S_MATCH]:
        for i in range(n):
            neg[i] = -dists[i]
        w = winner_at_settlement(R, neg, deltas, 0)
        if w != NOBODY:
            for i in range(n):
                out[i] += S[S_WIN] if i == w else -S[S_WIN]


@jit()
def _reach_vec(S: Any, seat: int, pts: int, out: Any) -> None:
    """A placement took ``seat`` to the target: the match ends there."""
    n = S[S_N]
    for i in range(n):
        out[i] = 0
    out[seat] = pts
    if S[S_MATCH]:
        for i in range(n):
            out[i] += S[S_WIN] if i == seat else -S[S_WIN]


@jit(inline="always")
def _only_move(MV: Any, start: int, end: int, tiles: int) -> int:
    """The one placement in MV[start:end] of a tile of ``tiles``, or -1
    when there are none or several."""
    found = -1
    for j in range(start, end):
        if tiles >> MV[j, 0] & 1:
            if found >= 0:
                return -1
            found = j
    return found


@jit(inline="always")
def _ends_frame(FF: Any, d: int, maxn: int, n: int, W: Any, res: Any) -> None:
    """Frame ``d``'s last position ends the round with the results
    ``res``: its value, exact (whatever window it was searched in)."""
    if maxn:
        for i in range(n):
            FF[d, F_V + i] = res[i]
    else:
        v = 0.0
        for i in range(n):
            v += W[i] * res[i]
        FF[d, F_BEST] = v
    FF[d, F_A0] = -BIG
    FF[d, F_B0] = BIG


@jit(inline="always")
def _can_draw(S: Any, R: Any, stock: int) -> int:
    if S[S_CHANCE]:
        return int(drawable(R, _popcount(stock)))
    return int(drawable(R, S[S_NST] - stock))


@jit(inline="always")
def _push(S: Any, FI: Any, FF: Any, d: int, kind: int, seat: int, key: int, row: int,
          stock: int, drawn: int, addseat: int, addpts: int, alpha: float, beta: float,
          W: Any) -> int:
    """Frame ``d + 1`` for a position reached from frame ``d`` by a move
    that gave ``addpts`` to ``addseat``, holding frame ``d``'s hands and
    distances (the caller changes what the move changed); the window is
    the parent's less what that move adds."""
    n = S[S_N]
    nd = d + 1
    FI[nd, I_KIND] = kind
    FI[nd, I_SEAT] = seat
    FI[nd, I_KEY] = key
    FI[nd, I_ROW] = row
    FI[nd, I_STOCK] = stock
    FI[nd, I_DRAWN] = drawn
    FI[nd, I_ADDSEAT] = addseat
    FI[nd, I_ADDPTS] = addpts
    FI[nd, I_CHAIN] = 0
    for i in range(n):
        FI[nd, I_H + i] = FI[d, I_H + i]
        FI[nd, I_D + i] = FI[d, I_D + i]
    add = W[addseat] * addpts if addseat >= 0 else 0.0
    FF[nd, F_ALPHA] = alpha - add
    FF[nd, F_BETA] = beta - add
    return nd


@jit(inline="always")
def _key_words(S: Any, R: Any, FI: Any, d: int) -> None:
    """The table key of frame ``d``, as few words as the search needs: the
    hands; the canonical layout (41 bits) with the frame's kind, the seat to
    move and, with a known order, the next draw's place; with an unknown
    order the stock's tiles; and under ``round-end`` while some seat can
    still reach the target in this round, each distance to it that can
    still be closed (else one value for all, so that positions reached with
    different scores share). Under ``at-target`` the distances stay out of
    the key: an entry says at which distances it holds (``S_REACH``)."""
    n = S[S_N]
    for i in range(n):
        FI[d, I_K + i] = FI[d, I_H + i]
    stock = FI[d, I_STOCK]
    word = FI[d, I_KEY] | FI[d, I_KIND] << 41 | FI[d, I_SEAT] << 42
    k = n + 1
    if S[S_CHANCE]:
        FI[d, I_K + n] = word
        FI[d, I_K + k] = stock
        k += 1
    else:
        FI[d, I_K + n] = word | stock << 45
    if not S[S_LIVE] or S[S_REACH]:
        return
    room = S[S_BONUS] + S[S_MAXPLACE] * _can_draw(S, R, stock)
    per = S[S_DPER]
    shift = S[S_DSHIFT]
    w = 0
    c = 0
    for i in range(n):
        dist = FI[d, I_D + i]
        if dist > room + S[S_MAXPLACE] * _popcount(FI[d, I_H + i]):
            dist = S[S_FAR]
        w |= (dist + S[S_OFF]) << (shift * c)
        c += 1
        if c == per or i == n - 1:
            FI[d, I_K + k] = w
            k += 1
            w = 0
            c = 0


class Arrays(NamedTuple):
    """Everything the search reads and writes, handed to it as one record
    (Numba passes it as a tuple of arrays; the functions inlined into the
    search read its fields at no cost). ``S`` the registers, ``R`` the rule
    ints; per set ``PM`` (each pip's tiles), ``TLO``/``THI`` (each tile's
    halves), ``ORDER`` (the engine's order of tiles), ``PC`` (pips by byte
    of a mask); ``W`` the seats' weights, ``ST`` the stock's known order;
    the layout memo ``LC`` (rows) and ``MV`` (placements) and ``BUF`` to
    build them; the transposition table ``TK`` and its float view ``TV``;
    the frames ``FI`` and ``FF``; ``OUT`` the value handed up (its second
    and third quarters: a max-n vector, a round end's results); ``HB``,
    ``DB``, ``PB``, ``XB``, ``NB`` scratch rows of a seat each."""

    S: Any
    R: Any
    PM: Any
    TLO: Any
    THI: Any
    ORDER: Any
    PC: Any
    W: Any
    ST: Any
    LC: Any
    MV: Any
    BUF: Any
    TK: Any
    TV: Any
    FI: Any
    FF: Any
    OUT: Any
    HB: Any
    DB: Any
    PB: Any
    XB: Any
    NB: Any
