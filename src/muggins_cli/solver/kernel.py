"""The one search of the solver, compiled by Numba: every objective, two to
four seats, a known stock order or a stock of unknown order.

Why compiled: nearly all of ``analyze --solver``'s time is this search,
solved once per sampled deal and per move. In CPython it made about 300,000
nodes a second; compiled, about ten times as many.

Why one: the game's rules are the engine's (:mod:`muggins_cli.engine.keys`
and :mod:`muggins_cli.engine.turn`), which this module compiles as they
stand (:func:`.jit._compile`) and calls; what is here is only the search
around them. One kernel serves every view of the game the solver knows:

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
it again, so a deadline lands within a few milliseconds. The compiled part
is split by idea: :mod:`.jit` (how it is compiled and cached),
:mod:`.kernel_frame` (the frame record), :mod:`.kernel_table` (the
transposition table), :mod:`.kernel_moves` (the move stages) and
:mod:`.kernel_run` (the loop); this module is the Python side.

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
same values (:func:`.kernel_table._reach_ok`). Positions reached with
different scores, most of them, then share entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from muggins_cli.engine import keys as _keys
from muggins_cli.engine.keys import R_N_TILES
from muggins_cli.solver.jit import KEPT, cache_folder
from muggins_cli.solver.kernel_frame import (
    BIG,
    CHANCE,
    DECIDE,
    F_ALPHA,
    F_BETA,
    I_ADDSEAT,
    I_D,
    I_DRAWN,
    I_H,
    I_K,
    I_KEY,
    I_KIND,
    I_ROW,
    I_SEAT,
    I_STOCK,
    M_ENTER,
    MAX_SEATS,
    MAX_TILES,
    NEED_ROOM,
    NF,
    NI,
    OK,
    S_BONUS,
    S_CHANCE,
    S_DEPTH,
    S_DPER,
    S_DSHIFT,
    S_FAR,
    S_FORCED,
    S_GEN,
    S_KW,
    S_LC_N,
    S_LIVE,
    S_MATCH,
    S_MAXN,
    S_MAXPLACE,
    S_MODE,
    S_MV_N,
    S_N,
    S_NODES,
    S_NST,
    S_OFF,
    S_RCOL,
    S_REACH,
    S_ROOT,
    S_SIZE,
    S_SLICE_END,
    S_STATUS,
    S_STORED,
    S_WIN,
    Arrays,
)
from muggins_cli.solver.kernel_run import run
from muggins_cli.solver.kernel_table import GEN_BITS, REACH_ANY, rehash_into


def preference(vec: Sequence[float], seat: int) -> tuple[float, float, tuple[float, ...]]:
    """Max-n's order of result vectors for ``seat``, as a key to maximise:
    its own result; then the best-placed opponent doing worse; then the
    opponents' results, read clockwise from the next seat, smallest first.
    It depends only on the vectors, never on the order moves are tried, so
    neither move ordering nor the mirror images that share a table entry
    can change the answer (:func:`.kernel_run._prefer` is the kernel's reading of it)."""
    n = len(vec)
    opps = tuple(vec[(seat + k) % n] for k in range(1, n))
    return (vec[seat], -max(opps), tuple(-x for x in opps))



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
            run(Arrays(s, self.r, self.pm, self.tlo, self.thi, self.order, self.pc, self.w,
                       self.st, lc, mv, self.buf, self.tk, self.tv, self.fi, self.ff, self.out,
                       *self.scratch))
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


__all__ = [
    "BIG",
    "CHANCE",
    "DECIDE",
    "I_D",
    "I_H",
    "I_K",
    "KEPT",
    "PREPARE_SECONDS",
    "SLICE",
    "S_FORCED",
    "S_KW",
    "S_REACH",
    "Kernel",
    "MemoGrew",
    "SearchError",
    "cache_folder",
    "distance_packing",
    "preference",
    "prepared",
    "ready",
    "run",
]
