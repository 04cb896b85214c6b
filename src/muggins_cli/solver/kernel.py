"""The one search of the solver, compiled by Numba: every objective, two to
four seats, a known stock order or a stock of unknown order.

Why compiled: nearly all of ``analyze --solver``'s time is this search,
solved once per sampled deal and per move. In CPython it made about 300,000
nodes a second; compiled, about ten times as many.

Why one: the game's rules are the engine's (:mod:`muggins_cli.engine.keys`
and :mod:`muggins_cli.engine.turn`), which this module compiles as they
stand (:func:`_compile`) and calls; what is here is only the search around
them. One kernel serves every view of the game the solver knows:

- **alpha-beta** on a weighted sum of the points each seat makes from here
  to the round's end, settlement included: with two seats the mover's
  points minus the other's (negamax's value), with three or four the
  paranoid reduction (the root seat's points times ``n - 1`` minus the
  others'; the others play as one side against it). The root seat
  maximises, every other seat minimises.
- **max-n** (``maxn``): each seat maximises its own result; the value is the
  vector of results, ties broken as :func:`preference` says.
- the stock as a known order (``perfect``) or as a set of tiles drawn in an
  unknown order (``chance``): a draw is then a chance node whose value is
  the average over the tiles it may bring, each searched with a full window
  (expectimax).

Under the ``match`` objective a seat reaching the target gets ``MATCH_WIN``
and every other seat loses it.

How it runs: an explicit stack of frames (Numba's cache cannot load a
recursive function), a transposition table of fixed size with replacement
(memory stays bounded; an entry holds valid bounds whatever replaced what),
and a memo of each canonical layout's placements built inside the kernel on
first visit (the spinner's hundred thousand layouts are never built ahead).
The kernel stops after a slice of nodes with its stack intact; the Python
side checks the clock, the node budget and Ctrl-C between slices and calls
it again, so a deadline lands within a few milliseconds.

A node is a position where the mover has a choice. A position with one
thing to do (a draw from a known order, a drawn tile that fits one way, a
last fitting tile, a pass) is followed in the frame that reached it, with
no node, table probe or frame of its own: about half the positions of a
round's end are such. The frame carries the points of the moves it
followed, and the table keeps the value of the last position of the line
that has a key (a drawn tile's has none).

Under ``at-target`` the table's keys leave the scores out: an entry holds,
for each seat, the most it made in any line the entry's search met (or the
distance to the target it had, where a line met it), and answers a position
reached with other scores when no seat is within that: the same lines, the
same values (:func:`_reach_ok`). Positions reached with different scores,
most of them, then share entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import tempfile
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import numba
import numpy as np

from muggins_cli.engine import keys as _keys
from muggins_cli.engine import turn as _turn
from muggins_cli.engine.keys import (
    R_MUST_PLAY,
    R_N_TILES,
)
from muggins_cli.engine.turn import (
    BLOCKED,
    GOES_ON,
    MAY_DRAW,
    MAY_PLACE,
    NOBODY,
    REACHED,
    WENT_OUT,
)


def _sources() -> str:
    """Numba keeps compiled code per machine; the kernels call the engine's
    functions, whose changes Numba's cache would not notice, so the folder
    is named by the sources it depends on and Numba's version."""
    digest = hashlib.sha256(numba.__version__.encode())
    here = Path(__file__)
    for path in (here, Path(_keys.__file__), Path(_turn.__file__)):
        digest.update(path.read_bytes())
    return f"numba-{digest.hexdigest()[:16]}"


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def cache_folder(name: str, usual: Path | None, temp: Path | None
                 ) -> tuple[Path, bool] | None:
    """Where the compiled code ``name`` is kept, and whether that is not
    the usual place: ``usual/muggins-cli/name`` if it can be written, else
    ``name`` in a folder of this user's own in ``temp``
    (``muggins-cli-UID``), else None (nowhere: compile in memory). Numba
    runs the code it loads from there, so the folder in ``temp``, where
    anyone may make files, is used only if it is a real folder this user
    owns and no one else may write."""
    if usual is not None and _writable(usual / "muggins-cli" / name):
        return usual / "muggins-cli" / name, False
    if temp is None:
        return None
    own = temp / f"muggins-cli-{os.geteuid()}"
    with contextlib.suppress(OSError):  # there already, or not to be made: seen below
        os.mkdir(own, 0o700)
    try:
        st = os.lstat(own)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
        return None
    return (own / name, True) if _writable(own / name) else None


def _usual_cache() -> Path | None:
    found = os.environ.get("XDG_CACHE_HOME")
    if found:
        return Path(found)
    try:
        return Path.home() / ".cache"
    except RuntimeError:  # no HOME, and no entry in the password file
        return None


def _temporary() -> Path | None:
    try:
        return Path(tempfile.gettempdir())
    except OSError:  # not one of the places it tries can be written
        return None


#: Set once the note on where the code is kept was said, so that a worker
#: process that imports this module again does not say it again.
_NOTED = "MUGGINS_CLI_CACHE_NOTED"


def _say_where(found: tuple[Path, bool] | None, usual: Path | None) -> None:
    """One line on stderr, once, when the code is not kept in the usual place."""
    if (found is not None and not found[1]) or os.environ.get(_NOTED):
        return
    os.environ[_NOTED] = "1"
    tried = _shown(str(usual)) if usual is not None else "a cache folder (there is no home)"
    if found is None:
        where = (f"{tried} nor in a folder of your own in the temporary folder; it is "
                 "compiled in memory for this run")
    else:
        where = f"{tried}; it is kept in {_shown(str(found[0].parent))}"
    stream = sys.stderr
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"muggins: note: the solver's compiled code cannot be kept in {where}\n")
            stream.flush()


def _shown(text: str) -> str:
    """A path from the environment, what a terminal would act on escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _in_memory(njit: Any) -> Any:
    """``numba.njit`` that keeps nothing: with ``cache=True`` and no folder
    it can write, Numba refuses to compile at all."""
    def njit_in_memory(*args: Any, **options: Any) -> Any:
        options["cache"] = False
        return njit(*args, **options)
    return njit_in_memory


_USUAL = _usual_cache()
_FOLDER = cache_folder(_sources(), _USUAL, _temporary())
_say_where(_FOLDER, _USUAL)
#: Whether the compiled code is kept between runs (else every run compiles it).
KEPT = _FOLDER is not None
# Set for the compilations of this module, put back at its end.
_SAVED_CACHE_DIR = numba.config.CACHE_DIR  # type: ignore[attr-defined]
_SAVED_NJIT = numba.njit
if _FOLDER is not None:
    numba.config.CACHE_DIR = str(_FOLDER[0])  # type: ignore[attr-defined]
else:
    numba.njit = _in_memory(numba.njit)


#: The engine's functions a search calls at every node, compiled into the
#: kernel's own code (about twice the nodes a second); the rest are calls,
#: which keeps the first compilation short.
_INLINE = frozenset({"open_pip", "ends_of", "fit_mask", "drawable", "draw_faults", "turn_options",
                     "_spinner", "end_code",
                     "blocked", "after_placement", "after_pass", "pass_fault"})


_F = TypeVar("_F", bound=Callable[..., Any])
#: How every function of the search is compiled: cached on disk, without
#: the GIL, and without Numba's reference counts (the search allocates
#: nothing; with them each array handed to a function cost two atomic
#: operations, a third of the search's time).
_FLAGS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def _jit(**options: Any) -> Callable[[_F], _F]:
    decorate: Callable[[_F], _F] = numba.njit(**_FLAGS, **options)
    return decorate


def _compile(*modules: types.ModuleType) -> types.SimpleNamespace:
    """Every function of ``modules`` compiled, calling one another compiled:
    each is rebuilt over one shared namespace in which the names of the
    others are their compiled forms, so the engine's source stays plain
    Python (it knows nothing of Numba) and is the code that runs here."""
    ns: dict[str, Any] = {}
    funcs: list[tuple[str, types.FunctionType]] = []
    for mod in modules:
        for name, value in vars(mod).items():
            if isinstance(value, types.FunctionType) and value.__module__ == mod.__name__:
                funcs.append((name, value))
            elif isinstance(value, int) and not name.startswith("__"):
                ns[name] = value
    out = types.SimpleNamespace()
    for name, f in funcs:
        g = types.FunctionType(f.__code__, ns, name, f.__defaults__)
        g.__module__ = f.__module__
        g.__qualname__ = f.__qualname__
        inline: Literal["always", "never"] = "always" if name in _INLINE else "never"
        compiled = _jit(inline=inline)(g)
        ns[name] = compiled
        setattr(out, name, compiled)
    return out


_E = _compile(_keys, _turn)
fit_mask = _E.fit_mask
search_moves_into = _E.search_moves_into
drawable = _E.drawable
turn_options = _E.turn_options
after_placement = _E.after_placement
after_pass = _E.after_pass
settle = _E.settle
winner_at_settlement = _E.winner_at_settlement
_keys_canonical = _E.canonical

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

_H = (-7046029254386353131, -4417276706812531889, 1609587929392839161,
      -3372029247567499371, 7109453100751455733, -2848908526405428903,
      5573154213466862731, -6214308151155768049)
_HASH = np.array(_H, dtype=np.int64)


@_jit(inline="always")
def _pips(pc: Any, mask: int) -> int:
    total = 0
    c = 0
    while mask:
        total += pc[c, mask & 255]
        mask >>= 8
        c += 1
    return total


@_jit(inline="always")
def _popcount(x: int) -> int:
    """Set bits of a non-negative int64, without a loop per bit."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & 0x7FFFFFFFFFFFFFFF) >> 56


@_jit(inline="always")
def _home(TK: Any, FI: Any, d: int, kw: int) -> int:
    h = 0
    for k in range(kw):
        h ^= FI[d, I_K + k] * _HASH[k]
    h ^= h >> 29
    return int(h & (TK.shape[0] - 1))


@_jit(inline="always")
def _holds(TK: Any, slot: int, FI: Any, d: int, kw: int) -> bool:
    """Whether table row ``slot`` holds frame ``d``'s key words."""
    for k in range(kw):
        if TK[slot, 1 + k] != FI[d, I_K + k]:
            return False
    return True


@_jit(inline="always")
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


@_jit(inline="always")
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


@_jit(inline="always")
def _reach_from(S: Any, TK: Any, slot: int, FI: Any, d: int) -> None:
    """Frame ``d`` used the entry in ``slot``: its value now rests on what
    that entry's search met."""
    word = TK[slot, S[S_RCOL]]
    for i in range(S[S_N]):
        f = word >> (15 * i) & 0x7FFF
        m = REACH_ANY if f & REACH_EXACT else f
        if m > FI[d, I_M + i]:
            FI[d, I_M + i] = m


@_jit(inline="always")
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


@_jit(inline="always")
def _reached(FI: Any, d: int, seat: int, pts: int) -> None:
    """A line from frame ``d`` took ``seat`` ``pts`` further (a placement,
    or a settlement's credit) past what the frame's forced moves made
    since its keyed position."""
    m = FI[d, I_CP + seat] - FI[d, I_KCP + seat] + pts
    if m > REACH_ANY:
        m = REACH_ANY
    if m > FI[d, I_M + seat]:
        FI[d, I_M + seat] = m


@_jit(inline="always")
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


@_jit(inline="always")
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


@_jit()
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


@_jit(inline="always")
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


@_jit()
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


@_jit()
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


@_jit()
def _reach_vec(S: Any, seat: int, pts: int, out: Any) -> None:
    """A placement took ``seat`` to the target: the match ends there."""
    n = S[S_N]
    for i in range(n):
        out[i] = 0
    out[seat] = pts
    if S[S_MATCH]:
        for i in range(n):
            out[i] += S[S_WIN] if i == seat else -S[S_WIN]


@_jit(inline="always")
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


@_jit(inline="always")
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


@_jit(inline="always")
def _can_draw(S: Any, R: Any, stock: int) -> int:
    if S[S_CHANCE]:
        return int(drawable(R, _popcount(stock)))
    return int(drawable(R, S[S_NST] - stock))


@_jit(inline="always")
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


@_jit(inline="always")
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


@_jit()
def run(S: Any, R: Any, PM: Any, TLO: Any, THI: Any, ORDER: Any, PC: Any, W: Any, ST: Any,
        LC: Any, MV: Any, BUF: Any, TK: Any, TV: Any, FI: Any, FF: Any, OUT: Any,
        HB: Any, DB: Any, PB: Any, XB: Any, NB: Any) -> None:
    """Search from the frames on the stack until the root's value is in
    ``OUT`` (status ``OK``), a slice of nodes is spent (``SLICE``: call
    again to go on) or the layout memo is full (``NEED_ROOM``)."""
    n = S[S_N]
    maxn = S[S_MAXN]
    chance = S[S_CHANCE]
    must_play = R[R_MUST_PLAY]
    kw = S[S_KW]
    gen = S[S_GEN]
    root = S[S_ROOT]
    reach = S[S_REACH]
    depth = S[S_DEPTH]
    mode = S[S_MODE]
    vec = OUT[MAX_SEATS:2 * MAX_SEATS]  # the value being handed up (max-n)
    res = OUT[2 * MAX_SEATS:3 * MAX_SEATS]  # a round end's results
    val = 0.0
    # Constants as typed values: a literal argument would make Numba compile
    # the function it is passed to once more, for that literal.
    none: Any = np.int64(-1)
    zero: Any = np.int64(0)
    decide: Any = np.int64(DECIDE)
    chance_kind: Any = np.int64(CHANCE)
    nobody: Any = np.int64(NOBODY)
    low: Any = np.float64(-BIG)
    high: Any = np.float64(BIG)
    while True:
        d = depth - 1
        if mode == M_ENTER:
            chained = FI[d, I_CHAIN]
            if not chained:
                if S[S_NODES] >= S[S_SLICE_END]:
                    S[S_STATUS] = SLICE
                    S[S_DEPTH] = depth
                    S[S_MODE] = mode
                    return
                S[S_NODES] += 1
                FI[d, I_N0] = S[S_NODES]
                FI[d, I_STORE] = 0
                FF[d, F_CARRY] = 0.0
                if maxn:
                    for i in range(n):
                        FF[d, F_CV + i] = 0.0
                if reach:
                    for i in range(n):
                        FI[d, I_CP + i] = 0
                        FI[d, I_KCP + i] = 0
                        FI[d, I_M + i] = 0
            key = FI[d, I_KEY]
            seat = FI[d, I_SEAT]
            store = FI[d, I_DRAWN] < 0
            FI[d, I_HINT] = -1
            FI[d, I_SLOT] = -1
            if store:
                # The position the frame keys in the table: the last one of
                # its forced line that has a key (a drawn tile's has none).
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
                _key_words(S, R, FI, d)
                slot = _find(S, TK, FI, d, kw, gen)
                if slot >= 0:
                    if reach:
                        _reach_from(S, TK, slot, FI, d)
                    FI[d, I_HINT] = (TK[slot, 0] >> 24 & 255) - 1
                    lo = TV[slot, 1 + kw]
                    hi = TV[slot, 2 + kw]
                    if maxn:
                        for i in range(n):
                            vec[i] = TV[slot, 1 + kw + i]
                    if maxn or lo >= FF[d, F_BETA] or lo == hi or hi <= FF[d, F_ALPHA]:
                        val = lo if lo >= FF[d, F_BETA] or lo == hi else hi
                        FI[d, I_SLOT] = -2  # answered by the table
                        FI[d, I_STORE] = 0
                        FI[d, I_CHAIN] = 0
                        mode = M_FINISH
                        continue
                    if lo > FF[d, F_ALPHA]:
                        FF[d, F_ALPHA] = lo
                    if hi < FF[d, F_BETA]:
                        FF[d, F_BETA] = hi
                    FF[d, F_LO] = lo
                    FF[d, F_HI] = hi
                FI[d, I_STORE] = 1
                FF[d, F_A0] = FF[d, F_ALPHA]
                FF[d, F_B0] = FF[d, F_BETA]
            row = FI[d, I_ROW]
            if row < 0:
                row = _moves_of(S, R, PM, TLO, THI, ORDER, LC, MV, BUF, key)
                if row < 0:
                    S[S_STATUS] = NEED_ROOM
                    return
                if d > 0 and FI[d, I_ADDSEAT] >= 0 and not chained:
                    MV[FI[d - 1, I_START] + FI[d - 1, I_CUR], 4] = row  # the move that led here
                FI[d, I_ROW] = row
            FI[d, I_CHAIN] = 0
            FI[d, I_START] = LC[row, 1]
            FI[d, I_END] = LC[row, 2]
            fit = LC[row, 3]
            FI[d, I_FIT] = fit
            FI[d, I_TOP] = -1
            FF[d, F_BEST] = -BIG if seat == root else BIG
            if FI[d, I_KIND] == CHANCE:
                FI[d, I_COUNT] = 0
                FF[d, F_SUM] = 0.0
                for i in range(n):
                    FF[d, F_S + i] = 0.0
                FI[d, I_STAGE] = ST_CHANCE
                FI[d, I_J] = FI[d, I_STOCK]
                if maxn:
                    FF[d, F_V] = -BIG
                mode = M_NEXT
                continue
            if maxn:
                FF[d, F_V] = -BIG
            # What the mover may do; a position with one thing to do is
            # followed in this frame, without a node of its own (most of a
            # round's end: draws, passes, a last tile that fits one way).
            hand = FI[d, I_H + seat]
            stock = FI[d, I_STOCK]
            drawn = FI[d, I_DRAWN]
            can = _can_draw(S, R, stock)
            options = turn_options(R, key, hand, fit, can, not store)
            drawing = options & MAY_DRAW
            j = -1
            if not store:
                FI[d, I_STAGE] = ST_DRAWN
                FI[d, I_J] = FI[d, I_START]
                j = _only_move(MV, FI[d, I_START], FI[d, I_END], 1 << drawn)
            elif options & MAY_PLACE:
                FI[d, I_STAGE] = ST_HINT if FI[d, I_HINT] >= 0 else ST_MOVES
                FI[d, I_J] = FI[d, I_START]
                mine = hand & fit
                if mine & (mine - 1) == 0 and not drawing:
                    j = _only_move(MV, FI[d, I_START], FI[d, I_END], mine)
            elif drawing and chance:
                FI[d, I_STAGE] = ST_FORCED if must_play else ST_DRAWONE  # a chance node next
            else:
                S[S_FORCED] += 1
                if drawing:
                    # A draw from a known order: the tiles that come, and
                    # the one that fits (or a pass when the stock runs dry).
                    k = stock
                    got = -1
                    while can > 0:
                        t = ST[k]
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
                        # The drawn tile goes down next, or (no must_play) a
                        # tile that does not fit: the same seat again.
                        FI[d, I_DRAWN] = got
                        FI[d, I_CHAIN] = 1
                        continue
                # A pass (nothing to draw, or the stock ran dry on the way).
                for i in range(n):
                    HB[i] = FI[d, I_H + i]
                if after_pass(key, fit, HB, can) != BLOCKED:
                    FI[d, I_SEAT] = (seat + 1) % n
                    FI[d, I_CHAIN] = 1
                    continue
                j = -2  # blocked: settled below
            if j == -1:
                mode = M_NEXT
                continue
            went = nobody
            pts = zero
            if j >= 0:
                # One placement: made here.
                S[S_FORCED] += 1
                ti = MV[j, 0]
                nkey = MV[j, 1]
                pts = MV[j, 2]
                if drawn < 0:
                    FI[d, I_H + seat] = hand ^ (1 << ti)
                FI[d, I_DRAWN] = -1
                for i in range(n):
                    HB[i] = FI[d, I_H + i]
                out = after_placement(R, nkey, MV[j, 3], HB, seat, pts, FI[d, I_D + seat], can)
                FI[d, I_D + seat] -= pts
                if reach and pts > 0:
                    _reached(FI, d, seat, pts)
                    FI[d, I_CP + seat] += pts
                if out == GOES_ON:
                    add = W[seat] * pts
                    FF[d, F_CARRY] += add
                    FF[d, F_ALPHA] -= add
                    FF[d, F_BETA] -= add
                    if maxn:
                        FF[d, F_CV + seat] += pts
                    FI[d, I_KEY] = nkey
                    FI[d, I_SEAT] = (seat + 1) % n
                    nrow = MV[j, 4]
                    if nrow < 0:
                        nrow = _moves_of(S, R, PM, TLO, THI, ORDER, LC, MV, BUF, nkey)
                        if nrow < 0:
                            S[S_STATUS] = NEED_ROOM
                            return
                        MV[j, 4] = nrow
                    FI[d, I_ROW] = nrow
                    FI[d, I_CHAIN] = 1
                    continue
                if out == REACHED:
                    _reach_vec(S, seat, pts, res)
                    _ends_frame(FF, d, maxn, n, W, res)
                    mode = M_FINISH
                    continue
                if out == WENT_OUT:
                    went = seat
            # The round ends at the frame's last position: its settlement
            # (the points of a placement that ended it included).
            for i in range(n):
                DB[i] = FI[d, I_D + i]
            _settle_vec(S, R, PC, HB, DB, went, seat, pts, res, PB, XB, NB)
            if reach:  # the placement's points are already the frame's (above)
                _reached_end(S, FI, d, seat, 0, XB, True)
            _ends_frame(FF, d, maxn, n, W, res)
            mode = M_FINISH
            continue

        if mode == M_NEXT:
            stage = FI[d, I_STAGE]
            seat = FI[d, I_SEAT]
            key = FI[d, I_KEY]
            stock = FI[d, I_STOCK]
            hand = FI[d, I_H + seat]
            alpha = FF[d, F_ALPHA]
            beta = FF[d, F_BETA]
            # The next child: a placement (j >= 0), or what the stage says.
            j = -1
            if stage == ST_MOVES:
                j = FI[d, I_J]
                end = FI[d, I_END]
                skip = FI[d, I_START] + FI[d, I_HINT] if FI[d, I_HINT] >= 0 else -1
                while j < end and (not hand >> MV[j, 0] & 1 or j == skip):
                    j += 1
                if j < end:
                    FI[d, I_J] = j + 1
                elif turn_options(R, key, hand, FI[d, I_FIT], _can_draw(S, R, stock),
                                  False) & MAY_DRAW:
                    FI[d, I_STAGE] = ST_DRAWONE  # no must_play: a draw is a choice too
                    continue
                else:
                    mode = M_FINISH
                    continue
            elif stage == ST_HINT:
                FI[d, I_STAGE] = ST_MOVES
                j = FI[d, I_START] + FI[d, I_HINT]
                if j >= FI[d, I_END] or not hand >> MV[j, 0] & 1:
                    FI[d, I_HINT] = -1
                    continue
            elif stage == ST_DRAWN:
                j = FI[d, I_J]
                end = FI[d, I_END]
                while j < end and MV[j, 0] != FI[d, I_DRAWN]:
                    j += 1
                if j >= end:
                    mode = M_FINISH
                    continue
                FI[d, I_J] = j + 1
            elif stage == ST_DONE:
                mode = M_FINISH
                continue
            if j >= 0:
                FI[d, I_CUR] = j - FI[d, I_START]
                ti = MV[j, 0]
                nkey = MV[j, 1]
                pts = MV[j, 2]
                nd = _push(S, FI, FF, d, decide, (seat + 1) % n, nkey, MV[j, 4], stock, none,
                           seat, pts, alpha, beta, W)
                if FI[d, I_DRAWN] < 0:
                    FI[nd, I_H + seat] = hand ^ (1 << ti)
                for i in range(n):  # no slice: a view of FI would cost two atomic counts
                    HB[i] = FI[nd, I_H + i]
                out = after_placement(R, nkey, MV[j, 3], HB, seat, pts, FI[d, I_D + seat],
                                      _can_draw(S, R, stock))
                FI[nd, I_D + seat] -= pts
                if out == GOES_ON:
                    depth += 1
                    mode = M_ENTER
                    continue
                if out == REACHED:
                    _reach_vec(S, seat, pts, res)
                    if reach:
                        _reached(FI, d, seat, pts)
                else:
                    for i in range(n):
                        DB[i] = FI[nd, I_D + i]
                    _settle_vec(S, R, PC, HB, DB, seat if out == WENT_OUT else nobody, seat, pts,
                                res, PB, XB, NB)
                    if reach:
                        _reached_end(S, FI, d, seat, pts, XB, True)
            elif stage == ST_CHANCE:
                rest = FI[d, I_J]
                if rest == 0:
                    mode = M_FINISH
                    continue
                bit = rest & -rest
                FI[d, I_J] = rest ^ bit
                t = _popcount(bit - 1)
                if FI[d, I_FIT] & bit:
                    _push(S, FI, FF, d, decide, seat, key, FI[d, I_ROW], stock ^ bit, t, none,
                          zero, low, high, W)
                else:
                    nd = _push(S, FI, FF, d, decide, seat, key, FI[d, I_ROW], stock ^ bit, none,
                               none, zero, low, high, W)
                    FI[nd, I_H + seat] = hand | bit
                depth += 1
                mode = M_ENTER
                continue
            else:
                # A draw: under chance a chance node; with a known order one
                # tile, the mover's choice where a placement was possible
                # too (a position with nothing but a draw or a pass to do
                # never gets here: M_ENTER follows it).
                FI[d, I_STAGE] = ST_DONE
                FI[d, I_CUR] = -1
                if chance:
                    _push(S, FI, FF, d, chance_kind, seat, key, FI[d, I_ROW], stock, none, none,
                          zero, alpha, beta, W)
                else:
                    t = ST[stock]
                    drawn = t if FI[d, I_FIT] >> t & 1 else -1
                    nd = _push(S, FI, FF, d, decide, seat, key, FI[d, I_ROW], stock + 1, drawn,
                               none, zero, alpha, beta, W)
                    FI[nd, I_H + seat] = hand if drawn >= 0 else hand | 1 << t
                depth += 1
                mode = M_ENTER
                continue
            # A round end reached directly from frame d: its value.
            if maxn:
                for i in range(n):
                    vec[i] = res[i]
            else:
                val = 0.0
                for i in range(n):
                    val += W[i] * res[i]
            mode = M_DELIVER
            continue

        if mode == M_DELIVER:
            # ``val`` / ``vec``: the value of frame d's child, what the move
            # to it added included.
            seat = FI[d, I_SEAT]
            mode = M_NEXT
            if FI[d, I_KIND] == CHANCE:
                FI[d, I_COUNT] += 1
                if maxn:
                    for i in range(n):
                        FF[d, F_S + i] += vec[i]
                else:
                    FF[d, F_SUM] += val
            elif maxn:
                if FF[d, F_V] == -BIG or _prefer(vec, FF, d, seat, n):
                    for i in range(n):
                        FF[d, F_V + i] = vec[i]
                    FI[d, I_TOP] = FI[d, I_CUR]
            elif seat == root:
                if val > FF[d, F_BEST]:
                    # The best so far is the table's hint, also when every
                    # move fails low: a search of it in a lower window (the
                    # next MTD(f) probe) tries it first.
                    FF[d, F_BEST] = val
                    FI[d, I_TOP] = FI[d, I_CUR]
                    if val > FF[d, F_ALPHA]:
                        FF[d, F_ALPHA] = val
                        if val >= FF[d, F_BETA]:
                            mode = M_FINISH
            elif val < FF[d, F_BEST]:
                FF[d, F_BEST] = val
                FI[d, I_TOP] = FI[d, I_CUR]
                if val < FF[d, F_BETA]:
                    FF[d, F_BETA] = val
                    if val <= FF[d, F_ALPHA]:
                        mode = M_FINISH
            continue

        # M_FINISH: frame d is done (or answered by the table); store, pop.
        if FI[d, I_SLOT] != -2:
            if FI[d, I_KIND] == CHANCE:
                count = FI[d, I_COUNT]
                if maxn:
                    for i in range(n):
                        vec[i] = FF[d, F_S + i] / count
                else:
                    val = FF[d, F_SUM] / count
            elif maxn:
                for i in range(n):
                    vec[i] = FF[d, F_V + i]
            else:
                val = FF[d, F_BEST]
        # The frame's value: its last position's, plus the points of the
        # forced moves it followed (the table keeps the value of the last
        # position it keyed: the points of the moves after that one added).
        carry = F_CARRY
        if FI[d, I_SLOT] != -2 and FI[d, I_STORE]:
            if maxn:
                for i in range(n):
                    vec[i] += FF[d, F_CV + i] - FF[d, F_KCV + i]
            else:
                val += FF[d, F_CARRY] - FF[d, F_KCARRY]
            _store(S, TK, TV, FI, FF, d, kw, gen, maxn, val, vec)
            carry = F_KCARRY
        if maxn:
            for i in range(n):
                vec[i] += FF[d, F_CV + i if carry == F_CARRY else F_KCV + i]
        else:
            val += FF[d, carry]
        addseat = FI[d, I_ADDSEAT]
        if reach and d > 0:
            # What the lines from here met, for the frame that reached it.
            for i in range(n):
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
        if addseat >= 0:
            pts = FI[d, I_ADDPTS]
            if maxn:
                vec[addseat] += pts
            else:
                val += W[addseat] * pts
        depth -= 1
        if depth == 0:
            if not maxn:
                OUT[0] = val
            else:
                for i in range(n):
                    OUT[i] = vec[i]
            S[S_STATUS] = OK
            S[S_DEPTH] = 0
            return
        mode = M_DELIVER


@_jit(inline="always")
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


@_jit()
def _prefer(vec: Any, FF: Any, d: int, seat: int, n: int) -> bool:
    """Whether result vector ``vec`` beats frame ``d``'s best for ``seat``
    (:func:`preference`): more for the seat; then the best-placed opponent
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


def preference(vec: Sequence[float], seat: int) -> tuple[float, float, tuple[float, ...]]:
    """Max-n's order of result vectors for ``seat``, as a key to maximise:
    its own result; then the best-placed opponent doing worse; then the
    opponents' results, read clockwise from the next seat, smallest first.
    It depends only on the vectors, never on the order moves are tried, so
    neither move ordering nor the mirror images that share a table entry
    can change the answer (:func:`_prefer` is the kernel's reading of it)."""
    n = len(vec)
    opps = tuple(vec[(seat + k) % n] for k in range(1, n))
    return (vec[seat], -max(opps), tuple(-x for x in opps))


numba.config.CACHE_DIR = _SAVED_CACHE_DIR  # type: ignore[attr-defined]
numba.njit = _SAVED_NJIT


# ----------------------------------------------------------------------
# The Python side: arrays, slices, budgets


#: Nodes between two looks at the clock, the node budget and Ctrl-C (a few
#: milliseconds of search).
SLICE = 1 << 15
#: Rows of a search's first transposition table; it grows four times over
#: whenever it is half full, up to :data:`TT_MOST` (a small search then
#: stays in the processor's caches, a big one gets room).
TT_FIRST = 1 << 17
TT_MOST = 1 << 20
#: Tables kept for the next searches, by (rows, width): allocating and
#: clearing them anew each time would cost more than many searches.
_POOL: dict[tuple[int, int], np.ndarray] = {}
_STACKS: dict[int, tuple[np.ndarray, np.ndarray]] = {}
_GEN = [0]
_SETS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
#: The layout memo's first size (layouts, placements) and the most
#: placements it grows to (160 MB).
MEMO_KEYS = 1 << 14
MEMO_MOVES = 1 << 17
MEMO_MOST_MOVES = 1 << 22


def _new_memo(keys: int, moves: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """An empty layout memo: rows of (key, first move, end, fit mask), the
    moves, and how much of each is used."""
    return (np.full((keys, 4), -1, dtype=np.int64), np.zeros((moves, 5), dtype=np.int64),
            [0, 0])


def _set_arrays(max_pip: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per set: each pip's tiles (:func:`~muggins_cli.engine.keys.pip_masks`),
    each tile's halves, and the engine's order of tiles (by halves)."""
    found = _SETS.get(max_pip)
    if found is None:
        tiles = [(lo, hi) for hi in range(max_pip + 1) for lo in range(hi + 1)]
        found = _SETS[max_pip] = (
            np.array(_keys.pip_masks(max_pip), dtype=np.int64),
            np.array([t[0] for t in tiles], dtype=np.int64),
            np.array([t[1] for t in tiles], dtype=np.int64),
            np.array(sorted(range(len(tiles)), key=lambda i: tiles[i]), dtype=np.int64))
    return found


def _table(rows: int, width: int) -> np.ndarray:
    """A table from the pool, or a new one."""
    found = _POOL.pop((rows, width), None)
    if found is not None:
        return found
    return np.zeros((rows, width), dtype=np.int64)


def _next_generation() -> int:
    """A new search's generation: entries of any other are empty to it.
    After 2**24 - 1 searches the pooled tables are cleared and it starts
    again."""
    _GEN[0] += 1
    if _GEN[0] > GEN_BITS:
        for table in _POOL.values():
            table[:, 0] = 0
        _GEN[0] = 1
    return _GEN[0]
_MEMO: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, list[int]]] = {}


def distance_packing(players: int, most: int) -> tuple[int, int]:
    """How the distances to the target share key words: ``per`` to a word,
    each ``shift`` bits apart, as loosely as the fewest words allow (every
    distance, offset, is at most ``most``). Fewer words keep a three-player
    table row within one cache line; two players keep two 32-bit halves."""
    for words in range(1, players + 1):
        per = -(-players // words)
        shift = 64 // per
        # The last distance stays clear of the sign bit.
        if shift <= 32 and most < 1 << (shift - (per * shift == 64)):
            return per, shift
    raise SearchError("the scores are too far apart for the solver's keys")


class MemoGrew(Exception):
    """The layout memo was full and has grown: the caller starts its
    valuation again with a new search, so that what a search counts never
    depends on what ran before it in the process. ``afresh``: it was at its
    largest and was emptied instead (the search meets more layouts than it
    keeps)."""

    def __init__(self, afresh: bool) -> None:
        super().__init__("the layout memo grew")
        self.afresh = afresh


class SearchError(Exception):
    """A position the kernel cannot hold (too many tiles or seats, scores
    too far apart); the message names the limit."""


class Kernel:
    """One search's state: the rules' arrays, the layout memo (shared by
    every search of the same rules), a transposition table from a pool of
    one per process, the stack. ``maxn`` picks max-n, else alpha-beta on
    the weights ``weights``; ``order`` is the stock's known order, or None
    for a stock of unknown order (chance nodes)."""

    def __init__(self, r: tuple[int, ...], players: int, root: int, weights: Sequence[float],
                 *, maxn: bool, order: Sequence[int] | None, match: bool, far: int, off: int,
                 bonus: int, max_place: int, win: int, live: bool, pip_chunks: np.ndarray,
                 budget: Any) -> None:
        n_tiles = r[R_N_TILES]
        if n_tiles > MAX_TILES:
            raise SearchError(f"the solver holds sets of up to {MAX_TILES} tiles "
                              f"(double-nine); this set has {n_tiles}")
        if not 2 <= players <= MAX_SEATS:
            raise SearchError(f"the solver plays 2 to {MAX_SEATS} seats, not {players}")
        if off < 0:
            raise SearchError("the scores are too far apart for the solver's keys")
        self.r = r
        self.n = players
        self.budget = budget
        self.pm, self.tlo, self.thi, self.order = _set_arrays(r[_keys.R_MAX_PIP])
        self.pc = pip_chunks
        self.w = np.zeros(MAX_SEATS, dtype=np.float64)
        self.w[:players] = weights
        self.st = np.array(list(order) if order else [0], dtype=np.int64)
        memo = _MEMO.get(r)
        if memo is None:
            memo = _MEMO[r] = _new_memo(MEMO_KEYS, MEMO_MOVES)
        self.memo = memo
        per, shift = distance_packing(players, far + off)
        # Under at-target a seat's distance to the target changes a value
        # only where a line reaches it: entries hold the most each seat made
        # in their lines instead of keys holding distances (_reach_ok).
        reach = live and bool(r[_keys.R_AT_TARGET]) and far < REACH_ANY
        kw = players + 1 + (order is None) + (-(-players // per) if live and not reach else 0)
        used = 1 + kw + (players if maxn else 2) + reach
        self.width = 8 if used <= 8 else 16
        # Every search starts at the same size, whatever ran before it: its
        # node count, and so where a node budget stops it, depends on the
        # position alone (a seeded analysis gives the same bytes however
        # its turns are spread over processes).
        self.tk = _table(TT_FIRST, self.width)
        self.tv = self.tk.view(np.float64)
        depth = 4 * n_tiles + 64
        # The stack needs no clearing: a frame is written before it is read.
        stack = _STACKS.pop(depth, None)
        self.fi: np.ndarray
        self.ff: np.ndarray
        self.fi, self.ff = stack if stack is not None else (
            np.zeros((depth, NI), dtype=np.int64), np.zeros((depth, NF), dtype=np.float64))
        self.out = np.zeros(3 * MAX_SEATS, dtype=np.float64)
        self.scratch = [np.zeros(players, dtype=np.int64) for _ in range(5)]
        self.buf = np.zeros(3 * 4 * n_tiles, dtype=np.int64)
        s = np.zeros(S_SIZE, dtype=np.int64)
        s[S_N] = players
        s[S_ROOT] = root
        s[S_MAXN] = int(maxn)
        s[S_CHANCE] = int(order is None)
        s[S_NST] = len(order) if order is not None else 0
        s[S_MATCH] = int(match)
        s[S_FAR] = far
        s[S_OFF] = off
        s[S_BONUS] = bonus
        s[S_MAXPLACE] = max_place
        s[S_KW] = kw
        s[S_GEN] = _next_generation()
        s[S_WIN] = win
        s[S_LIVE] = int(live)
        s[S_DPER] = per
        s[S_DSHIFT] = shift
        s[S_REACH] = int(reach)
        s[S_RCOL] = 1 + kw + (players if maxn else 2)
        self.s = s

    def node_count(self) -> int:
        return int(self.s[S_NODES])

    def release(self) -> None:
        """Hand the transposition table to the next search (its entries die
        with this search's generation)."""
        if self.tk.shape[0] > 1:
            _POOL[self.tk.shape] = self.tk
        self.tk = self.tv = np.zeros((1, 1), dtype=np.int64)
        _STACKS[self.fi.shape[0]] = (self.fi, self.ff)

    def _root(self, kind: int, seat: int, key: int, stock: int, drawn: int,
              hands: Sequence[int], dists: Sequence[int], alpha: float, beta: float) -> None:
        fi, ff = self.fi, self.ff
        fi[0, :] = 0
        fi[0, I_KIND] = kind
        fi[0, I_SEAT] = seat
        fi[0, I_KEY] = _keys.canonical(key)
        fi[0, I_STOCK] = stock
        fi[0, I_DRAWN] = drawn
        fi[0, I_ADDSEAT] = -1
        fi[0, I_ROW] = -1
        for i in range(self.n):
            fi[0, I_H + i] = hands[i]
            fi[0, I_D + i] = dists[i]
        ff[0, F_ALPHA] = alpha
        ff[0, F_BETA] = beta
        self.s[S_DEPTH] = 1
        self.s[S_MODE] = M_ENTER

    def search(self, kind: int, seat: int, key: int, stock: int, drawn: int,
               hands: Sequence[int], dists: Sequence[int], alpha: float = -BIG,
               beta: float = BIG) -> np.ndarray:
        """The value of a position (``OUT[0]`` under alpha-beta, the vector
        ``OUT[:n]`` under max-n), searched in slices; raises
        ``BudgetExhausted`` when the budget runs out between two slices."""
        from muggins_cli.solver.common import BudgetExhausted, Stopped

        s, budget = self.s, self.budget
        budget.check()  # a Ctrl-C or a deadline also lands between searches
        self._root(kind, seat, key, stock, drawn, hands, dists, alpha, beta)
        while True:
            before = int(s[S_NODES])
            step = SLICE
            if budget.node_limit is not None:
                step = min(step, max(0, budget.node_limit - budget.nodes))
            s[S_SLICE_END] = before + step
            lc, mv, _ = self.memo
            s[S_MV_N], s[S_LC_N] = self.memo[2]
            run(s, self.r, self.pm, self.tlo, self.thi, self.order, self.pc, self.w, self.st,
                lc, mv, self.buf, self.tk, self.tv, self.fi, self.ff, self.out, *self.scratch)
            self.memo[2][:] = [int(s[S_MV_N]), int(s[S_LC_N])]
            budget.nodes += int(s[S_NODES]) - before
            if 2 * int(s[S_STORED]) > self.tk.shape[0] and self.tk.shape[0] < TT_MOST:
                self._grow_table()
            status = int(s[S_STATUS])
            if status == OK:
                return self.out
            if status == NEED_ROOM:
                self._grow()
                raise MemoGrew(afresh=False)
            if budget.node_limit is not None and budget.nodes >= budget.node_limit:
                raise BudgetExhausted(Stopped.NODES)
            budget.check()

    def _grow_table(self) -> None:
        """Four times the rows, the live entries moved over (between two
        slices: no frame refers to a slot)."""
        old = self.tk
        new = _table(min(4 * old.shape[0], TT_MOST), self.width)
        s = self.s
        s[S_GEN] = gen = _next_generation()
        s[S_STORED] = rehash_into(old, new, int(s[S_KW]), gen)
        _POOL[old.shape] = old
        self.tk = new
        self.tv = new.view(np.float64)

    def _grow(self) -> None:
        """The layout memo is full: twice as big (it holds the placements of
        every layout a search of these rules has met, a few thousand), or,
        past :data:`MEMO_MOST_MOVES`, started afresh: its memory stays
        bounded whatever the set."""
        lc, mv, used = self.memo
        if 2 * mv.shape[0] > MEMO_MOST_MOVES:
            self.memo = _MEMO[self.r] = _new_memo(MEMO_KEYS, MEMO_MOVES)
            raise MemoGrew(afresh=True)
        elif 2 * (used[1] + 1) > lc.shape[0]:
            self.memo = _new_memo(2 * lc.shape[0], 2 * mv.shape[0])
        else:
            self.memo = (lc, np.concatenate([mv, np.zeros_like(mv)]), used)
        _MEMO[self.r] = self.memo


_READY: list[bool] = []

#: About how long a first compile of the search takes on an idle two-core
#: machine (``bench/bench_prepare.py`` measures it: 27 CPU seconds).
PREPARE_SECONDS = 30


def prepared() -> bool:
    """Whether this machine's cache holds the compiled search, so that
    :func:`ready` loads it in a fraction of a second; otherwise it compiles
    it, once, which takes tens of seconds (a caller says so first)."""
    compiled: Any = run  # a Numba dispatcher
    try:
        index = compiled._cache._cache_file._load_index()
        machine = compiled.targetctx.codegen().magic_tuple()
    except Exception:  # Numba's cache is private: when its shape changes, assume not
        return False
    return any(key[1] == machine for key in index)


def ready() -> None:
    """Compile the search now (or load it from Numba's cache), on a
    one-tile endgame, and the table's growth: a caller with a time budget
    starts its clock after this, so that a first run on a new machine
    spends its budget on the search, not on compiling it."""
    if _READY:
        return
    from muggins_cli.solver.common import Budget

    r = (6, 0, 0, 0, 5, 0, 1, 0, 0, 5, 1, 0, 1, 0, 28, 0)  # pagat, as rule_ints gives it
    chunks = np.zeros((8, 256), dtype=np.int64)  # pips by byte of a mask: none here
    k = Kernel(r, 2, 0, (1.0, -1.0), maxn=False, order=[], match=False, far=1000, off=0,
               bonus=0, max_place=20, win=0, live=False, pip_chunks=chunks,
               budget=Budget(None, None))
    k.search(DECIDE, 0, _keys.lead_key(r, 6, 6), 0, -1, (1, 2), (250, 250))
    k.release()
    rehash_into(np.zeros((2, 8), dtype=np.int64), np.zeros((4, 8), dtype=np.int64), 3, 1)
    _READY.append(True)

