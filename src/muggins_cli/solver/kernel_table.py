"""The search's transposition table: where a frame's key lives, whether an
entry answers a frame (under ``at-target``, at which distances to the
target it holds: the reach words), and what a finished frame stores.

Compiled by Numba (:mod:`.jit`) into :func:`.kernel_run.run`.
"""

from __future__ import annotations

from typing import Any

from muggins_cli.solver.jit import jit
from muggins_cli.solver.kernel_frame import (
    _HASH,
    CHANCE,
    F_A0,
    F_B0,
    F_HI,
    F_LO,
    I_CP,
    I_D,
    I_K,
    I_KCP,
    I_KIND,
    I_M,
    I_N0,
    I_TOP,
    S_FAR,
    S_MATCH,
    S_N,
    S_NODES,
    S_RCOL,
    S_REACH,
    S_STORED,
)

# The transposition table, one cache line a row where it fits: TK[slot] =
# a word of generation (24 bits), the best move's place plus one (8 bits)
# and the nodes the entry cost (31 bits); the key words; then the values,
# read through TV, a float view of the same rows: lo and hi (alpha-beta) or
# the vector (max-n).
GEN_BITS = (1 << 24) - 1
#: A table entry's reach word (``S_REACH``): 15 bits a seat, the most the
#: seat made in any line its search met, or, with ``REACH_EXACT``, the
#: distance to the target it had (the search met the target: the value
#: holds for that distance only). ``REACH_ANY`` in a frame: the value
#: depends on the exact distance.
REACH_EXACT = 1 << 14
REACH_ANY = REACH_EXACT - 1
#: Slots probed from a key's home slot before one is replaced.
CLUSTER = 4


@jit(inline="always")
def _home(TK: Any, FI: Any, d: int, kw: int) -> int:
    h = 0
    for k in range(kw):
        h ^= FI[d, I_K + k] * _HASH[k]
    h ^= h >> 29
    return int(h & (TK.shape[0] - 1))


@jit(inline="always")
def _holds(TK: Any, slot: int, FI: Any, d: int, kw: int) -> bool:
    """Whether table row ``slot`` holds frame ``d``'s key words."""
    for k in range(kw):
        if TK[slot, 1 + k] != FI[d, I_K + k]:
            return False
    return True


@jit(inline="always")
def _find(S: Any, TK: Any, FI: Any, d: int, kw: int, gen: int) -> int:
    """The slot holding frame ``d``'s key, or -1 (also when the entry does
    not hold at the frame's distances to the target: :func:`_reach_ok`)."""
    cap = TK.shape[0]
    slot = _home(TK, FI, d, kw)
    for _ in range(CLUSTER):
        if TK[slot, 0] & GEN_BITS == gen and _holds(TK, slot, FI, d, kw):
            if S[S_REACH] and not _reach_ok(S, TK, slot, FI, d):
                return -1
            return slot
        slot = (slot + 1) & (cap - 1)
    return -1


@jit(inline="always")
def _reach_ok(S: Any, TK: Any, slot: int, FI: Any, d: int) -> bool:
    """Whether the entry in ``slot`` holds at frame ``d``'s distances: for
    each seat, a search that never brought it to the target holds for any
    distance beyond the most it made (the same lines, the same values); one
    that did, for that distance only."""
    word = TK[slot, S[S_RCOL]]
    far = S[S_FAR]
    for i in range(S[S_N]):
        f = word >> (15 * i) & 0x7FFF
        dist = FI[d, I_D + i]
        if f & REACH_EXACT:
            if min(dist, far) != f & REACH_ANY:
                return False
        elif dist <= f:
            return False
    return True


@jit(inline="always")
def _reach_from(S: Any, TK: Any, slot: int, FI: Any, d: int) -> None:
    """Frame ``d`` used the entry in ``slot``: its value now rests on what
    that entry's search met."""
    word = TK[slot, S[S_RCOL]]
    for i in range(S[S_N]):
        f = word >> (15 * i) & 0x7FFF
        m = REACH_ANY if f & REACH_EXACT else f
        if m > FI[d, I_M + i]:
            FI[d, I_M + i] = m


@jit(inline="always")
def _reach_word(S: Any, FI: Any, d: int) -> int:
    """What frame ``d``'s search met, as an entry's reach word, for the
    position it keys."""
    far = S[S_FAR]
    w = 0
    for i in range(S[S_N]):
        dist = FI[d, I_D + i] + FI[d, I_CP + i] - FI[d, I_KCP + i]  # at the keyed position
        if dist > far:
            dist = far
        m = FI[d, I_M + i]
        w |= (REACH_EXACT | dist if m >= dist else m) << (15 * i)
    return w


@jit(inline="always")
def _reached(FI: Any, d: int, seat: int, pts: int) -> None:
    """A line from frame ``d`` took ``seat`` ``pts`` further (a placement,
    or a settlement's credit) past what the frame's forced moves made
    since its keyed position."""
    m = FI[d, I_CP + seat] - FI[d, I_KCP + seat] + pts
    if m > REACH_ANY:
        m = REACH_ANY
    if m > FI[d, I_M + seat]:
        FI[d, I_M + seat] = m


@jit(inline="always")
def _reached_end(S: Any, FI: Any, d: int, seat: int, pts: int, deltas: Any,
                 settled: bool) -> None:
    """A line from frame ``d`` ended the round: ``seat``'s last placement
    scored ``pts``; under the match objective a settlement's credit
    (``deltas``) may bring a seat to the target too."""
    if pts > 0:
        _reached(FI, d, seat, pts)
    if settled and S[S_MATCH]:
        for i in range(S[S_N]):
            if deltas[i] > 0:
                _reached(FI, d, i, deltas[i] + (pts if i == seat else 0))


@jit(inline="always")
def _room(TK: Any, FI: Any, d: int, kw: int, gen: int) -> int:
    """The slot to store frame ``d``'s key in, in one pass over its
    cluster: its own, else an empty one, else the one whose entry cost the
    fewest nodes to find."""
    cap = TK.shape[0]
    slot = _home(TK, FI, d, kw)
    empty = -1
    least = slot
    for _ in range(CLUSTER):
        meta = TK[slot, 0]
        if meta & GEN_BITS == gen:
            if _holds(TK, slot, FI, d, kw):
                return slot
            if meta >> 32 < TK[least, 0] >> 32:
                least = slot
        elif empty < 0:
            empty = slot
        slot = (slot + 1) & (cap - 1)
    return empty if empty >= 0 else least


@jit()
def rehash_into(old: Any, new: Any, kw: int, gen: int) -> int:
    """The entries of table ``old`` of the generation before ``gen`` moved
    into ``new`` (a bigger one) under ``gen``, each where the probe will
    look for it; how many."""
    cap = new.shape[0]
    count = 0
    was = gen - 1 if gen > 1 else GEN_BITS
    for i in range(old.shape[0]):
        if old[i, 0] & GEN_BITS != was:
            continue
        h = 0
        for k in range(kw):
            h ^= old[i, 1 + k] * _HASH[k]
        h ^= h >> 29
        slot = h & (cap - 1)
        for _ in range(CLUSTER):
            if new[slot, 0] & GEN_BITS != gen:
                break
            slot = (slot + 1) & (cap - 1)
        for k in range(old.shape[1]):
            new[slot, k] = old[i, k]
        new[slot, 0] = (old[i, 0] & ~GEN_BITS) | gen
        count += 1
    return count


@jit(inline="always")
def _store(S: Any, TK: Any, TV: Any, FI: Any, FF: Any, d: int, kw: int, gen: int, maxn: int,
           val: float, vec: Any) -> None:
    """Keep what frame ``d`` found: a max-n vector or a chance node's value
    (exact), or alpha-beta's bounds (the value is exact only inside the
    window the frame was searched with)."""
    slot = _room(TK, FI, d, kw, gen)
    if TK[slot, 0] & GEN_BITS != gen:
        S[S_STORED] += 1
    for k in range(kw):
        TK[slot, 1 + k] = FI[d, I_K + k]
    size = S[S_NODES] - FI[d, I_N0]
    if size > 0x7FFFFFFF:
        size = 0x7FFFFFFF
    TK[slot, 0] = gen | (FI[d, I_TOP] + 1) << 24 | size << 32
    if S[S_REACH]:
        TK[slot, S[S_RCOL]] = _reach_word(S, FI, d)
    v = 1 + kw
    if maxn:
        for i in range(S[S_N]):
            TV[slot, v + i] = vec[i]
        return
    if FI[d, I_KIND] == CHANCE:
        TV[slot, v] = val
        TV[slot, v + 1] = val
        return
    lo = FF[d, F_LO]
    hi = FF[d, F_HI]
    if val <= FF[d, F_A0]:
        TV[slot, v] = lo
        TV[slot, v + 1] = val if val < hi else hi
    elif val >= FF[d, F_B0]:
        TV[slot, v] = val if val > lo else lo
        TV[slot, v + 1] = hi
    else:
        TV[slot, v] = val
        TV[slot, v + 1] = val
