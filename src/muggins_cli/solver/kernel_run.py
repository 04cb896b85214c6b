"""The search's loop: an explicit stack of frames (Numba's cache cannot
load a recursive function), each step one of four modes over the frame on
top, written as small functions that Numba compiles into :func:`run`.

- :func:`_enter`: a frame begins (or follows one more forced move): count
  the node, ask the table (:func:`_probe`), find the layout's placements,
  and see what the mover may do (:func:`.kernel_moves._turn`): a position
  with one thing to do is followed in the same frame, a round end settled.
- :func:`_next`: the frame's next child (a placement, a draw, a tile of a
  chance node) is pushed (:mod:`.kernel_moves`), or valued at once where
  it ends the round.
- :func:`_deliver`: a child's value is taken into its parent.
- :func:`_finish`: the frame's value is stored in the table and handed to
  the frame below.

Which moves a position has, and in what order, is the engine's
(:func:`~muggins_cli.engine.turn.turn_options`, compiled in :mod:`.jit`).
"""

from __future__ import annotations

from typing import Any

from muggins_cli.engine.turn import (
    MAY_DRAW,
)
from muggins_cli.solver.jit import jit, turn_options
from muggins_cli.solver.kernel_frame import (
    BIG,
    CHANCE,
    F_A0,
    F_ALPHA,
    F_B0,
    F_BEST,
    F_BETA,
    F_CARRY,
    F_CV,
    F_HI,
    F_KCARRY,
    F_KCV,
    F_LO,
    F_S,
    F_SUM,
    F_V,
    I_ADDPTS,
    I_ADDSEAT,
    I_CHAIN,
    I_COUNT,
    I_CP,
    I_CUR,
    I_DRAWN,
    I_END,
    I_FIT,
    I_H,
    I_HINT,
    I_J,
    I_KCP,
    I_KEY,
    I_KIND,
    I_M,
    I_N0,
    I_ROW,
    I_SEAT,
    I_SLOT,
    I_STAGE,
    I_START,
    I_STOCK,
    I_STORE,
    I_TOP,
    M_DELIVER,
    M_ENTER,
    M_FINISH,
    M_NEXT,
    M_STOP,
    MAX_SEATS,
    NEED_ROOM,
    OK,
    S_DEPTH,
    S_GEN,
    S_KW,
    S_MAXN,
    S_MODE,
    S_N,
    S_NODES,
    S_REACH,
    S_ROOT,
    S_SLICE_END,
    S_STATUS,
    SLICE,
    ST_CHANCE,
    ST_DONE,
    ST_DRAWN,
    ST_DRAWONE,
    ST_HINT,
    ST_MOVES,
    Arrays,
    _can_draw,
    _key_words,
    _moves_of,
)
from muggins_cli.solver.kernel_moves import _child_draw, _child_place, _child_tile, _turn
from muggins_cli.solver.kernel_table import (
    REACH_ANY,
    _find,
    _reach_from,
    _store,
)


@jit()
def run(A: Arrays) -> None:
    """Search from the frames on the stack until the root's value is in
    ``OUT`` (status ``OK``), a slice of nodes is spent (``SLICE``: call
    again to go on) or the layout memo is full (``NEED_ROOM``)."""
    depth = A.S[S_DEPTH]
    mode = A.S[S_MODE]
    val = 0.0
    while True:
        if mode == M_ENTER:
            mode, val = _enter(A, depth, val)
        elif mode == M_NEXT:
            mode, depth, val = _next(A, depth, val)
        elif mode == M_DELIVER:
            mode = _deliver(A, depth - 1, val)
        elif mode == M_FINISH:
            mode, depth, val = _finish(A, depth, val)
        else:
            return


@jit(inline="always")
def _enter(A: Arrays, depth: int, val: float) -> tuple[int, float]:
    """Frame ``depth - 1`` begins, or goes on along a forced line: its
    node, its table entry, its layout's placements, its mover's options."""
    S, FI, FF, LC = A.S, A.FI, A.FF, A.LC
    d = depth - 1
    chained = FI[d, I_CHAIN]
    if not chained:
        if S[S_NODES] >= S[S_SLICE_END]:
            S[S_STATUS] = SLICE
            S[S_DEPTH] = depth
            S[S_MODE] = M_ENTER
            return M_STOP, val
        _count_node(A, d)
    store = FI[d, I_DRAWN] < 0
    FI[d, I_HINT] = -1
    FI[d, I_SLOT] = -1
    if store:
        answered, val = _probe(A, d, val)
        if answered:
            return M_FINISH, val
    row = FI[d, I_ROW]
    if row < 0:
        row = _moves_of(S, A.R, A.PM, A.TLO, A.THI, A.ORDER, LC, A.MV, A.BUF, FI[d, I_KEY])
        if row < 0:
            S[S_STATUS] = NEED_ROOM
            return M_STOP, val
        if d > 0 and FI[d, I_ADDSEAT] >= 0 and not chained:
            A.MV[FI[d - 1, I_START] + FI[d - 1, I_CUR], 4] = row  # the move that led here
        FI[d, I_ROW] = row
    FI[d, I_CHAIN] = 0
    FI[d, I_START] = LC[row, 1]
    FI[d, I_END] = LC[row, 2]
    FI[d, I_FIT] = LC[row, 3]
    FI[d, I_TOP] = -1
    FF[d, F_BEST] = -BIG if FI[d, I_SEAT] == S[S_ROOT] else BIG
    if FI[d, I_KIND] == CHANCE:
        FI[d, I_COUNT] = 0
        FF[d, F_SUM] = 0.0
        for i in range(S[S_N]):
            FF[d, F_S + i] = 0.0
        FI[d, I_STAGE] = ST_CHANCE
        FI[d, I_J] = FI[d, I_STOCK]
        if S[S_MAXN]:
            FF[d, F_V] = -BIG
        return M_NEXT, val
    if S[S_MAXN]:
        FF[d, F_V] = -BIG
    return _turn(A, d, store), val


@jit(inline="always")
def _count_node(A: Arrays, d: int) -> None:
    """Frame ``d`` is a node: counted, nothing stored or carried yet."""
    S, FI, FF = A.S, A.FI, A.FF
    n = S[S_N]
    S[S_NODES] += 1
    FI[d, I_N0] = S[S_NODES]
    FI[d, I_STORE] = 0
    FF[d, F_CARRY] = 0.0
    if S[S_MAXN]:
        for i in range(n):
            FF[d, F_CV + i] = 0.0
    if S[S_REACH]:
        for i in range(n):
            FI[d, I_CP + i] = 0
            FI[d, I_KCP + i] = 0
            FI[d, I_M + i] = 0


@jit(inline="always")
def _probe(A: Arrays, d: int, val: float) -> tuple[bool, float]:
    """The position frame ``d`` keys in the table (the last one of its
    forced line that has a key: a drawn tile's has none): whether the
    table answers it (its value in ``val``, or the max-n vector in
    ``OUT``), else the window narrowed by the entry's bounds."""
    S, FI, FF, TK, TV = A.S, A.FI, A.FF, A.TK, A.TV
    n = S[S_N]
    maxn = S[S_MAXN]
    reach = S[S_REACH]
    kw = S[S_KW]
    FF[d, F_LO] = -BIG
    FF[d, F_HI] = BIG
    FF[d, F_KCARRY] = FF[d, F_CARRY]
    if maxn:
        for i in range(n):
            FF[d, F_KCV + i] = FF[d, F_CV + i]
    if reach:
        for i in range(n):
            FI[d, I_KCP + i] = FI[d, I_CP + i]
            FI[d, I_M + i] = 0
    _key_words(S, A.R, FI, d)
    slot = _find(S, TK, FI, d, kw, S[S_GEN])
    if slot >= 0:
        if reach:
            _reach_from(S, TK, slot, FI, d)
        FI[d, I_HINT] = (TK[slot, 0] >> 24 & 255) - 1
        lo = TV[slot, 1 + kw]
        hi = TV[slot, 2 + kw]
        if maxn:
            for i in range(n):
                A.OUT[MAX_SEATS + i] = TV[slot, 1 + kw + i]
        if maxn or lo >= FF[d, F_BETA] or lo == hi or hi <= FF[d, F_ALPHA]:
            val = lo if lo >= FF[d, F_BETA] or lo == hi else hi
            FI[d, I_SLOT] = -2  # answered by the table
            FI[d, I_STORE] = 0
            FI[d, I_CHAIN] = 0
            return True, val
        if lo > FF[d, F_ALPHA]:
            FF[d, F_ALPHA] = lo
        if hi < FF[d, F_BETA]:
            FF[d, F_BETA] = hi
        FF[d, F_LO] = lo
        FF[d, F_HI] = hi
    FI[d, I_STORE] = 1
    FF[d, F_A0] = FF[d, F_ALPHA]
    FF[d, F_B0] = FF[d, F_BETA]
    return False, val


@jit(inline="always")
def _next(A: Arrays, depth: int, val: float) -> tuple[int, int, float]:
    """Frame ``depth - 1``'s next child: a placement (``j >= 0``), or what
    its stage says (a tile of a chance node, a draw); the frame is
    finished when there is none left."""
    FI = A.FI
    d = depth - 1
    stage = FI[d, I_STAGE]
    hand = FI[d, I_H + FI[d, I_SEAT]]
    j = -1
    if stage == ST_MOVES:
        j = FI[d, I_J]
        end = FI[d, I_END]
        skip = FI[d, I_START] + FI[d, I_HINT] if FI[d, I_HINT] >= 0 else -1
        while j < end and (not hand >> A.MV[j, 0] & 1 or j == skip):
            j += 1
        if j < end:
            FI[d, I_J] = j + 1
        elif turn_options(A.R, FI[d, I_KEY], hand, FI[d, I_FIT],
                          _can_draw(A.S, A.R, FI[d, I_STOCK]), False) & MAY_DRAW:
            FI[d, I_STAGE] = ST_DRAWONE  # no must_play: a draw is a choice too
            return M_NEXT, depth, val
        else:
            return M_FINISH, depth, val
    elif stage == ST_HINT:
        FI[d, I_STAGE] = ST_MOVES
        j = FI[d, I_START] + FI[d, I_HINT]
        if j >= FI[d, I_END] or not hand >> A.MV[j, 0] & 1:
            FI[d, I_HINT] = -1
            return M_NEXT, depth, val
    elif stage == ST_DRAWN:
        j = FI[d, I_J]
        end = FI[d, I_END]
        while j < end and A.MV[j, 0] != FI[d, I_DRAWN]:
            j += 1
        if j >= end:
            return M_FINISH, depth, val
        FI[d, I_J] = j + 1
    elif stage == ST_DONE:
        return M_FINISH, depth, val
    if j >= 0:
        return _child_place(A, depth, j, val)
    if stage == ST_CHANCE:
        return _child_tile(A, depth, val)
    return _child_draw(A, depth, val)


@jit(inline="always")
def _deliver(A: Arrays, d: int, val: float) -> int:
    """``val`` (alpha-beta) or the vector in ``OUT`` (max-n), the value of
    frame ``d``'s child with what the move to it added, taken into frame
    ``d``: a chance node sums it, a seat keeps the best, and a cut finishes
    the frame."""
    S, FI, FF = A.S, A.FI, A.FF
    n = S[S_N]
    seat = FI[d, I_SEAT]
    vec = A.OUT[MAX_SEATS:2 * MAX_SEATS]
    if FI[d, I_KIND] == CHANCE:
        FI[d, I_COUNT] += 1
        if S[S_MAXN]:
            for i in range(n):
                FF[d, F_S + i] += vec[i]
        else:
            FF[d, F_SUM] += val
    elif S[S_MAXN]:
        if FF[d, F_V] == -BIG or _prefer(vec, FF, d, seat, n):
            for i in range(n):
                FF[d, F_V + i] = vec[i]
            FI[d, I_TOP] = FI[d, I_CUR]
    elif seat == S[S_ROOT]:
        if val > FF[d, F_BEST]:
            # The best so far is the table's hint, also when every move
            # fails low: a search of it in a lower window (the next MTD(f)
            # probe) tries it first.
            FF[d, F_BEST] = val
            FI[d, I_TOP] = FI[d, I_CUR]
            if val > FF[d, F_ALPHA]:
                FF[d, F_ALPHA] = val
                if val >= FF[d, F_BETA]:
                    return M_FINISH
    elif val < FF[d, F_BEST]:
        FF[d, F_BEST] = val
        FI[d, I_TOP] = FI[d, I_CUR]
        if val < FF[d, F_BETA]:
            FF[d, F_BETA] = val
            if val <= FF[d, F_ALPHA]:
                return M_FINISH
    return M_NEXT


@jit(inline="always")
def _finish(A: Arrays, depth: int, val: float) -> tuple[int, int, float]:
    """Frame ``depth - 1`` is done (or answered by the table): its value is
    stored and handed to the frame below, or is the root's answer."""
    S, FI, FF = A.S, A.FI, A.FF
    n = S[S_N]
    maxn = S[S_MAXN]
    d = depth - 1
    vec = A.OUT[MAX_SEATS:2 * MAX_SEATS]
    val = _frame_value(A, d, val)
    # The frame's value: its last position's, plus the points of the forced
    # moves it followed (the table keeps the value of the last position it
    # keyed: the points of the moves after that one added).
    carry = F_CARRY
    if FI[d, I_SLOT] != -2 and FI[d, I_STORE]:
        if maxn:
            for i in range(n):
                vec[i] += FF[d, F_CV + i] - FF[d, F_KCV + i]
        else:
            val += FF[d, F_CARRY] - FF[d, F_KCARRY]
        _store(S, A.TK, A.TV, FI, FF, d, S[S_KW], S[S_GEN], maxn, val, vec)
        carry = F_KCARRY
    if maxn:
        for i in range(n):
            vec[i] += FF[d, F_CV + i if carry == F_CARRY else F_KCV + i]
    else:
        val += FF[d, carry]
    addseat = FI[d, I_ADDSEAT]
    if S[S_REACH] and d > 0:
        _reach_up(A, d, addseat)
    if addseat >= 0:
        pts = FI[d, I_ADDPTS]
        if maxn:
            vec[addseat] += pts
        else:
            val += A.W[addseat] * pts
    depth -= 1
    if depth == 0:
        if not maxn:
            A.OUT[0] = val
        else:
            for i in range(n):
                A.OUT[i] = vec[i]
        S[S_STATUS] = OK
        S[S_DEPTH] = 0
        return M_STOP, depth, val
    return M_DELIVER, depth, val


@jit(inline="always")
def _frame_value(A: Arrays, d: int, val: float) -> float:
    """The value frame ``d`` found among its children (unless the table
    answered it: ``val`` and ``OUT`` hold that already)."""
    S, FI, FF = A.S, A.FI, A.FF
    if FI[d, I_SLOT] == -2:
        return val
    n = S[S_N]
    vec = A.OUT[MAX_SEATS:2 * MAX_SEATS]
    if FI[d, I_KIND] == CHANCE:
        count = FI[d, I_COUNT]
        if S[S_MAXN]:
            for i in range(n):
                vec[i] = FF[d, F_S + i] / count
        else:
            val = FF[d, F_SUM] / count
    elif S[S_MAXN]:
        for i in range(n):
            vec[i] = FF[d, F_V + i]
    else:
        val = FF[d, F_BEST]
    return val


@jit(inline="always")
def _reach_up(A: Arrays, d: int, addseat: int) -> None:
    """What the lines from frame ``d`` met, for the frame that reached it."""
    FI = A.FI
    for i in range(A.S[S_N]):
        m = FI[d, I_KCP + i] + FI[d, I_M + i]
        if FI[d, I_M + i] >= REACH_ANY:
            m = REACH_ANY
        if i == addseat:
            m += FI[d, I_ADDPTS]
        if m > REACH_ANY:
            m = REACH_ANY
        m += FI[d - 1, I_CP + i] - FI[d - 1, I_KCP + i]
        if m > FI[d - 1, I_M + i]:
            FI[d - 1, I_M + i] = m if m < REACH_ANY else REACH_ANY


@jit()
def _prefer(vec: Any, FF: Any, d: int, seat: int, n: int) -> bool:
    """Whether result vector ``vec`` beats frame ``d``'s best for ``seat``
    (:func:`.kernel.preference`): more for the seat; then the best-placed opponent
    doing worse; then the opponents, read clockwise, doing worse."""
    if vec[seat] != FF[d, F_V + seat]:
        return bool(vec[seat] > FF[d, F_V + seat])
    top_new = -BIG
    top_old = -BIG
    for k in range(1, n):
        i = (seat + k) % n
        if vec[i] > top_new:
            top_new = vec[i]
        if FF[d, F_V + i] > top_old:
            top_old = FF[d, F_V + i]
    if top_new != top_old:
        return top_new < top_old
    for k in range(1, n):
        i = (seat + k) % n
        if vec[i] != FF[d, F_V + i]:
            return bool(vec[i] < FF[d, F_V + i])
    return False
