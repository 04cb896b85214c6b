"""The move stages of the search: what the mover of a frame may do (the
engine's order of a turn, :func:`~muggins_cli.engine.turn.turn_options`),
a position with one thing to do followed in its frame (a draw from a known
order, a forced placement, a pass, a round's settlement), and the frames
pushed for a choice's children (a placement, a tile from a chance node's
draw, a draw). Compiled by Numba into :func:`.kernel_run.run`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from muggins_cli.engine.keys import R_MUST_PLAY
from muggins_cli.engine.turn import (
    BLOCKED,
    GOES_ON,
    MAY_DRAW,
    MAY_PLACE,
    NOBODY,
    REACHED,
    WENT_OUT,
)
from muggins_cli.solver.jit import after_pass, after_placement, jit, turn_options
from muggins_cli.solver.kernel_frame import (
    BIG,
    CHANCE,
    DECIDE,
    F_ALPHA,
    F_BETA,
    F_CARRY,
    F_CV,
    I_CHAIN,
    I_CP,
    I_CUR,
    I_D,
    I_DRAWN,
    I_END,
    I_FIT,
    I_H,
    I_HINT,
    I_J,
    I_KEY,
    I_ROW,
    I_SEAT,
    I_STAGE,
    I_START,
    I_STOCK,
    M_DELIVER,
    M_ENTER,
    M_FINISH,
    M_NEXT,
    M_STOP,
    MAX_SEATS,
    NEED_ROOM,
    S_CHANCE,
    S_FORCED,
    S_MAXN,
    S_N,
    S_REACH,
    S_STATUS,
    ST_DONE,
    ST_DRAWN,
    ST_DRAWONE,
    ST_FORCED,
    ST_HINT,
    ST_MOVES,
    Arrays,
    _can_draw,
    _ends_frame,
    _moves_of,
    _only_move,
    _popcount,
    _push,
    _reach_vec,
    _settle_vec,
)
from muggins_cli.solver.kernel_table import (
    _reached,
    _reached_end,
)

# Constants as typed values: a literal argument would make Numba compile the
# function it is passed to once more, for that literal.
_NONE: Any = np.int64(-1)
_ZERO: Any = np.int64(0)
_NOBODY: Any = np.int64(NOBODY)
_DECIDE: Any = np.int64(DECIDE)
_CHANCE: Any = np.int64(CHANCE)
_LOW: Any = np.float64(-BIG)
_HIGH: Any = np.float64(BIG)


@jit(inline="always")
def _turn(A: Arrays, d: int, store: bool) -> int:
    """What the mover of frame ``d`` may do (the engine's order of a turn);
    a position with one thing to do is followed in this frame, without a
    node of its own (most of a round's end: draws, passes, a last tile
    that fits one way). The mode to go on in."""
    S, R, FI, MV = A.S, A.R, A.FI, A.MV
    n = S[S_N]
    seat = FI[d, I_SEAT]
    key = FI[d, I_KEY]
    fit = FI[d, I_FIT]
    hand = FI[d, I_H + seat]
    can = _can_draw(S, R, FI[d, I_STOCK])
    options = turn_options(R, key, hand, fit, can, not store)
    j = -1
    if not store:
        FI[d, I_STAGE] = ST_DRAWN
        FI[d, I_J] = FI[d, I_START]
        j = _only_move(MV, FI[d, I_START], FI[d, I_END], 1 << FI[d, I_DRAWN])
    elif options & MAY_PLACE:
        FI[d, I_STAGE] = ST_HINT if FI[d, I_HINT] >= 0 else ST_MOVES
        FI[d, I_J] = FI[d, I_START]
        mine = hand & fit
        if mine & (mine - 1) == 0 and not options & MAY_DRAW:
            j = _only_move(MV, FI[d, I_START], FI[d, I_END], mine)
    elif options & MAY_DRAW and S[S_CHANCE]:
        FI[d, I_STAGE] = ST_FORCED if R[R_MUST_PLAY] else ST_DRAWONE  # a chance node next
    else:
        S[S_FORCED] += 1
        if options & MAY_DRAW:
            can = _draw_known(A, d, seat, hand, fit, can)
            if can < 0:
                return M_ENTER
        # A pass (nothing to draw, or the stock ran dry on the way).
        for i in range(n):
            A.HB[i] = FI[d, I_H + i]
        if after_pass(key, fit, A.HB, can) != BLOCKED:
            FI[d, I_SEAT] = (seat + 1) % n
            FI[d, I_CHAIN] = 1
            return M_ENTER
        return _settle_frame(A, d, _NOBODY, seat, _ZERO)
    if j == -1:
        return M_NEXT
    return _place_forced(A, d, j, seat, hand, can)


@jit(inline="always")
def _draw_known(A: Arrays, d: int, seat: int, hand: int, fit: int, can: int) -> int:
    """A draw from a known order, the mover's only move: the tiles that
    come, up to the one that fits (one tile without ``must_play``). -1
    when the frame goes on with the same seat (the drawn tile goes down
    next, or without ``must_play`` the seat may draw again); else the tiles
    left to draw (none: the mover passes)."""
    FI = A.FI
    must_play = A.R[R_MUST_PLAY]
    k = FI[d, I_STOCK]
    got = -1
    while can > 0:
        t = A.ST[k]
        k += 1
        can -= 1
        if fit >> t & 1:
            got = t
            break
        hand |= 1 << t
        if not must_play:
            break
    FI[d, I_STOCK] = k
    FI[d, I_H + seat] = hand
    if got >= 0 or (not must_play and can > 0):
        FI[d, I_DRAWN] = got
        FI[d, I_CHAIN] = 1
        return -1
    return can


@jit(inline="always")
def _place_forced(A: Arrays, d: int, j: int, seat: int, hand: int, can: int) -> int:
    """The mover's one placement, ``MV[j]``, made in frame ``d``: the
    frame goes on from the position after it, or the match or the round
    ends there."""
    S, FI, FF, MV, W = A.S, A.FI, A.FF, A.MV, A.W
    n = S[S_N]
    S[S_FORCED] += 1
    ti = MV[j, 0]
    nkey = MV[j, 1]
    pts = MV[j, 2]
    if FI[d, I_DRAWN] < 0:
        FI[d, I_H + seat] = hand ^ (1 << ti)
    FI[d, I_DRAWN] = -1
    for i in range(n):
        A.HB[i] = FI[d, I_H + i]
    out = after_placement(A.R, nkey, MV[j, 3], A.HB, seat, pts, FI[d, I_D + seat], can)
    FI[d, I_D + seat] -= pts
    if S[S_REACH] and pts > 0:
        _reached(FI, d, seat, pts)
        FI[d, I_CP + seat] += pts
    if out == GOES_ON:
        add = W[seat] * pts
        FF[d, F_CARRY] += add
        FF[d, F_ALPHA] -= add
        FF[d, F_BETA] -= add
        if S[S_MAXN]:
            FF[d, F_CV + seat] += pts
        FI[d, I_KEY] = nkey
        FI[d, I_SEAT] = (seat + 1) % n
        nrow = MV[j, 4]
        if nrow < 0:
            nrow = _moves_of(S, A.R, A.PM, A.TLO, A.THI, A.ORDER, A.LC, MV, A.BUF, nkey)
            if nrow < 0:
                S[S_STATUS] = NEED_ROOM
                return M_STOP
            MV[j, 4] = nrow
        FI[d, I_ROW] = nrow
        FI[d, I_CHAIN] = 1
        return M_ENTER
    if out == REACHED:
        res = A.OUT[2 * MAX_SEATS:3 * MAX_SEATS]
        _reach_vec(S, seat, pts, res)
        _ends_frame(FF, d, S[S_MAXN], n, W, res)
        return M_FINISH
    return _settle_frame(A, d, seat if out == WENT_OUT else _NOBODY, seat, pts)


@jit(inline="always")
def _settle_frame(A: Arrays, d: int, went: int, seat: int, pts: int) -> int:
    """The round ends at frame ``d``'s last position (``HB`` its hands):
    its settlement, the points of a placement that ended it included, is
    the frame's value."""
    S, FI = A.S, A.FI
    n = S[S_N]
    res = A.OUT[2 * MAX_SEATS:3 * MAX_SEATS]
    for i in range(n):
        A.DB[i] = FI[d, I_D + i]
    _settle_vec(S, A.R, A.PC, A.HB, A.DB, went, seat, pts, res, A.PB, A.XB, A.NB)
    if S[S_REACH]:  # the placement's points are already the frame's
        _reached_end(S, FI, d, seat, 0, A.XB, True)
    _ends_frame(A.FF, d, S[S_MAXN], n, A.W, res)
    return M_FINISH


@jit(inline="always")
def _child_place(A: Arrays, depth: int, j: int, val: float) -> tuple[int, int, float]:
    """The placement ``MV[j]`` from frame ``depth - 1``: a frame for the
    position after it, or its value at once where it ends the round."""
    S, FI, FF, MV, W = A.S, A.FI, A.FF, A.MV, A.W
    n = S[S_N]
    d = depth - 1
    seat = FI[d, I_SEAT]
    stock = FI[d, I_STOCK]
    hand = FI[d, I_H + seat]
    FI[d, I_CUR] = j - FI[d, I_START]
    ti = MV[j, 0]
    nkey = MV[j, 1]
    pts = MV[j, 2]
    nd = _push(S, FI, FF, d, _DECIDE, (seat + 1) % n, nkey, MV[j, 4], stock,
               _NONE, seat, pts, FF[d, F_ALPHA], FF[d, F_BETA], W)
    if FI[d, I_DRAWN] < 0:
        FI[nd, I_H + seat] = hand ^ (1 << ti)
    for i in range(n):  # no slice: a view of FI would cost two atomic counts
        A.HB[i] = FI[nd, I_H + i]
    out = after_placement(A.R, nkey, MV[j, 3], A.HB, seat, pts, FI[d, I_D + seat],
                          _can_draw(S, A.R, stock))
    FI[nd, I_D + seat] -= pts
    if out == GOES_ON:
        return M_ENTER, depth + 1, val
    res = A.OUT[2 * MAX_SEATS:3 * MAX_SEATS]
    if out == REACHED:
        _reach_vec(S, seat, pts, res)
        if S[S_REACH]:
            _reached(FI, d, seat, pts)
    else:
        for i in range(n):
            A.DB[i] = FI[nd, I_D + i]
        _settle_vec(S, A.R, A.PC, A.HB, A.DB, seat if out == WENT_OUT else _NOBODY,
                    seat, pts, res, A.PB, A.XB, A.NB)
        if S[S_REACH]:
            _reached_end(S, FI, d, seat, pts, A.XB, True)
    # A round end reached directly from frame d: its value.
    if S[S_MAXN]:
        for i in range(n):
            A.OUT[MAX_SEATS + i] = res[i]
    else:
        val = 0.0
        for i in range(n):
            val += W[i] * res[i]
    return M_DELIVER, depth, val


@jit(inline="always")
def _child_tile(A: Arrays, depth: int, val: float) -> tuple[int, int, float]:
    """The next tile a chance node's draw may bring: a frame for it (a tile
    that fits goes down next), or the node is finished."""
    S, FI, FF = A.S, A.FI, A.FF
    d = depth - 1
    rest = FI[d, I_J]
    if rest == 0:
        return M_FINISH, depth, val
    seat = FI[d, I_SEAT]
    stock = FI[d, I_STOCK]
    bit = rest & -rest
    FI[d, I_J] = rest ^ bit
    t = _popcount(bit - 1)
    if FI[d, I_FIT] & bit:
        _push(S, FI, FF, d, _DECIDE, seat, FI[d, I_KEY], FI[d, I_ROW], stock ^ bit, t,
              _NONE, _ZERO, _LOW, _HIGH, A.W)
    else:
        nd = _push(S, FI, FF, d, _DECIDE, seat, FI[d, I_KEY], FI[d, I_ROW],
                   stock ^ bit, _NONE, _NONE, _ZERO, _LOW, _HIGH, A.W)
        FI[nd, I_H + seat] = FI[d, I_H + seat] | bit
    return M_ENTER, depth + 1, val


@jit(inline="always")
def _child_draw(A: Arrays, depth: int, val: float) -> tuple[int, int, float]:
    """A draw from frame ``depth - 1``: under ``chance`` a chance node; with
    a known order one tile, the mover's choice where a placement was
    possible too (a position with nothing but a draw or a pass to do never
    gets here: :func:`_turn` follows it)."""
    S, FI, FF = A.S, A.FI, A.FF
    d = depth - 1
    seat = FI[d, I_SEAT]
    key = FI[d, I_KEY]
    stock = FI[d, I_STOCK]
    FI[d, I_STAGE] = ST_DONE
    FI[d, I_CUR] = -1
    if S[S_CHANCE]:
        _push(S, FI, FF, d, _CHANCE, seat, key, FI[d, I_ROW], stock, _NONE, _NONE,
              _ZERO, FF[d, F_ALPHA], FF[d, F_BETA], A.W)
    else:
        t = A.ST[stock]
        drawn = t if FI[d, I_FIT] >> t & 1 else -1
        hand = FI[d, I_H + seat]
        nd = _push(S, FI, FF, d, _DECIDE, seat, key, FI[d, I_ROW], stock + 1, drawn,
                   _NONE, _ZERO, FF[d, F_ALPHA], FF[d, F_BETA], A.W)
        FI[nd, I_H + seat] = hand if drawn >= 0 else hand | 1 << t
    return M_ENTER, depth + 1, val
