"""``expectimax``: a depth-limited search over what the mover cannot see.

The player of alinden/dominoes_bot: look a few plies ahead, treat the
other hands and the stock as chance, and score the horizon with a plain
evaluation. Unlike the ``solver`` strategy it never deals the hidden tiles
out; it reasons about them directly, which is what a depth limit needs
(a sampled deal is solved to the round's end or not at all).

The model of the hidden tiles, all from the mover's view:

- each opponent holds each tile it may hold (unseen, and no suit it showed
  a void in) independently with probability ``size / possible``, or, with
  ``passed_over`` below 1, in proportion to a weight: ``passed_over`` to the
  power of the number of its placements (since it last drew) that a tile
  would have outscored (a player who takes what it can score would have
  laid that tile: :func:`read_placements`); and plays
  the tile and end that is worst for the mover among those it holds
  (paranoid: every opponent against the mover); the best reply is there
  with the chance it is held, the second best when the best is not, and so
  on, and with the chance that none is held the opponent draws;
- a draw takes any unseen tile, each equally likely: a tile that fits is
  laid at once; one that does not stays hidden, and the drawer has shown a
  void in the open suits;
- the horizon is the points so far plus ``pip_weight`` times the pips the
  opponents are expected to hold less the mover's (what a settlement
  counts), and a round end is settled with those expected pips.

Values are the mover's points less the opponents' mean, in points; a credit
that ends the match by the engine's rules is worth ``WIN`` (under
``at-target`` one that reaches the target, under ``round-end`` a settlement
that makes a winner). Which moves a seat has, and in what order, is the
engine's too (:func:`~muggins_cli.engine.turn.turn_options`). Iterative deepening up to
``depth`` plies stops when ``node_limit`` search nodes are spent, and the
deepest finished iteration decides, so a move costs a bounded time and the
play depends only on the position (no randomness at all).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import NamedTuple

from muggins_cli.engine import turn
from muggins_cli.engine.scoring import settle
from muggins_cli.engine.state import PassTurn, Place, UnseenDraw
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.engine.view import SeatView, SeenMove
from muggins_cli.engine.voids import Placed
from muggins_cli.rules.model import RoundEnd, Rules
from muggins_cli.solver.common import pip_counter
from muggins_cli.tiles import Tile

#: What reaching the target is worth, in points: more than any round.
WIN = 10_000.0


class _OutOfNodes(Exception):
    pass


class _Node(NamedTuple):
    """A position in the search: the mover's hand, the canonical layout,
    the unseen pool, each opponent's hand size and excluded tiles (by seat
    order after the mover), the stock count, whose turn (0: the mover), the
    passes in a row, and the distances to the target (the mover first)."""

    me: int
    lay: int
    pool: int
    sizes: tuple[int, ...]
    excl: tuple[int, ...]
    stock: int
    turn: int
    passes: int
    dists: tuple[int, ...]


#: Per opponent (in seat order after the mover), each tile's weight by
#: index, or None when every tile it may hold is as likely.
Weights = tuple[list[float] | None, ...]


class _Search:
    def __init__(self, rules: Rules, table: LayoutTable, pip_weight: float,
                 node_limit: int | None, weights: Weights | None = None) -> None:
        self.rules = rules
        self.t = table
        self.r = table.r
        self.pip_weight = pip_weight
        self.node_limit = node_limit
        self.nodes = 0
        self.memo: dict[tuple[_Node, int], float] = {}
        self.mask_pips = pip_counter(table)
        self.weights = weights
        self.masses: dict[tuple[int, int], tuple[float, float]] = {}
        self.tile_pips = [t.lo + t.hi for t in table.by_index]

    # -- helpers -------------------------------------------------------

    def mass(self, i: int, poss: int) -> tuple[float, float]:
        """Opponent ``i``'s total weight over ``poss`` and its weighted pips
        (with no weights: the count and the pips, so the two models agree
        exactly when every weight is 1)."""
        key = (i, poss)
        found = self.masses.get(key)
        if found is None:
            w = self.weights[i] if self.weights is not None else None
            if w is None:
                found = (float(poss.bit_count()), float(self.mask_pips(poss)))
            else:
                total = pips = 0.0
                m = poss
                while m:
                    bit = m & -m
                    m ^= bit
                    ti = bit.bit_length() - 1
                    total += w[ti]
                    pips += w[ti] * self.tile_pips[ti]
                found = (total, pips)
            self.masses[key] = found
        return found

    def expected_pips(self, n: _Node) -> list[float]:
        """Each opponent's expected pips: its size times the (weighted) mean
        of the tiles it may hold."""
        out = []
        for k, size in enumerate(n.sizes):
            total, pips = self.mass(k, n.pool & ~n.excl[k])
            out.append(size * (pips / total) if total else 0.0)  # as before weights, to the bit
        return out

    def horizon(self, n: _Node) -> float:
        opp = self.expected_pips(n)
        mean = sum(opp) / len(opp)
        return self.pip_weight * (mean - self.mask_pips(n.me))

    def settle(self, n: _Node, me: int, sizes: tuple[int, ...], went_out: int | None) -> float:
        """The round end as the mover can expect it (opponents' pips by
        expectation); ``went_out`` is 0 for the mover, k for opponent k."""
        n2 = _Node(me, n.lay, n.pool, sizes, n.excl, n.stock, n.turn, n.passes, n.dists)
        pips = [self.mask_pips(me)] + [round(x) for x in self.expected_pips(n2)]
        deltas = settle(self.rules, pips, went_out)
        winner = turn.winner_at_settlement(self.r, [-d for d in n.dists], deltas, 0)
        if winner != turn.NOBODY:
            return WIN if winner == 0 else -WIN
        return deltas[0] - sum(deltas[1:]) / len(n.sizes)

    def wins(self, dist: int, pts: int) -> bool:
        """Whether a placement scoring ``pts`` by a seat ``dist`` short of
        the target ends the match (only under ``at-target``)."""
        return turn.winner_on_credit(self.r, (-dist,), (pts,), 0) == 0

    def options(self, n: _Node, hand: int) -> int:
        """What the seat to move may do holding ``hand`` of what fits
        (:func:`~muggins_cli.engine.turn.turn_options`)."""
        return turn.turn_options(self.r, n.lay, hand, self.t.fit(n.lay),
                                 turn.drawable(self.r, n.stock), False)

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfNodes

    # -- the search ------------------------------------------------------

    def value(self, n: _Node, depth: int) -> float:
        self.tick()
        if depth <= 0:
            return self.horizon(n)
        key = (n, depth)
        found = self.memo.get(key)
        if found is not None:
            return found
        v = self.mover(n, depth) if n.turn == 0 else self.opponent(n, depth)
        self.memo[key] = v
        return v

    def after_mover_places(self, n: _Node, bit: int, lay: int, pts: int, depth: int) -> float:
        if self.wins(n.dists[0], pts):
            return WIN
        rest = n.me ^ bit
        dists = (n.dists[0] - pts, *n.dists[1:])
        nxt = _Node(rest, lay, n.pool, n.sizes, n.excl, n.stock, 1, 0, dists)
        if not rest:
            return pts + self.settle(nxt, 0, n.sizes, 0)
        return pts + self.value(nxt, depth - 1)

    def mover(self, n: _Node, depth: int) -> float:
        options = self.options(n, n.me)
        if options & turn.MUST_PASS:
            return self.passed(n, depth)
        best = -WIN * 2
        if options & turn.MAY_PLACE:
            for bit, _, c, pts in self.t.search_moves(n.lay):
                if n.me & bit:
                    best = max(best, self.after_mover_places(n, bit, c, pts, depth))
        if options & turn.MAY_DRAW:
            best = max(best, self.mover_draws(n, depth))
        return best

    def mover_draws(self, n: _Node, depth: int) -> float:
        """Each unseen tile equally likely; a fitting one is laid at once."""
        t = self.t
        pool = n.pool
        count = pool.bit_count()
        if not count:
            return self.passed(n, depth)
        total = 0.0
        m = pool
        while m:
            bit = m & -m
            m ^= bit
            ti = bit.bit_length() - 1
            base = _Node(n.me | bit, n.lay, pool ^ bit, n.sizes, n.excl, n.stock - 1, 0, 0,
                         n.dists)
            if t.fit(n.lay) & bit:
                total += max(self.after_mover_places(base, bit, c, pts, depth)
                             for c, pts in t.tile_moves(n.lay, ti))
            else:
                total += self.value(base, depth - 1)
        return total / count

    def passed(self, n: _Node, depth: int) -> float:
        players = len(n.sizes) + 1
        if n.passes + 1 >= players:  # nobody could place: blocked
            return self.settle(n, n.me, n.sizes, None)
        nxt = _Node(n.me, n.lay, n.pool, n.sizes, n.excl, n.stock, (n.turn + 1) % players,
                    n.passes + 1, n.dists)
        return self.value(nxt, depth - 1 if n.turn else depth)

    def after_opponent_places(self, n: _Node, k: int, bit: int, lay: int, pts: int,
                              size: int, stock: int, excl: int, depth: int) -> float:
        """Opponent ``k`` (1-based turn) laid ``bit`` for ``pts``, holding
        ``size`` tiles after it."""
        i = k - 1
        if self.wins(n.dists[k], pts):
            return -WIN
        share = pts / len(n.sizes)
        sizes = (*n.sizes[:i], size, *n.sizes[i + 1:])
        excls = (*n.excl[:i], excl, *n.excl[i + 1:])
        dists = (*n.dists[:k], n.dists[k] - pts, *n.dists[k + 1:])
        players = len(n.sizes) + 1
        nxt = _Node(n.me, lay, n.pool ^ bit, sizes, excls, stock, (k + 1) % players, 0, dists)
        if size == 0:
            return -share + self.settle(nxt, n.me, sizes, k)
        return -share + self.value(nxt, depth - 1)

    def best_for_opponent(self, n: _Node, k: int, ti: int, size: int, stock: int, excl: int,
                          depth: int) -> float:
        bit = 1 << ti
        return min(self.after_opponent_places(n, k, bit, c, pts, size, stock, excl, depth)
                   for c, pts in self.t.tile_moves(n.lay, ti))

    def opponent(self, n: _Node, depth: int) -> float:
        k = n.turn
        i = k - 1
        t = self.t
        poss = n.pool & ~n.excl[i]
        total, _ = self.mass(i, poss)
        size = n.sizes[i]
        share = size / total if total else 0.0
        w = self.weights[i] if self.weights is not None else None
        fits = poss & t.fit(n.lay)
        replies = []
        m = fits
        while m:
            bit = m & -m
            m ^= bit
            ti = bit.bit_length() - 1
            held = min(1.0, share * w[ti]) if w is not None else min(1.0, share)
            replies.append((self.best_for_opponent(n, k, ti, size - 1, n.stock, n.excl[i],
                                                   depth), held))
        replies.sort()
        out = 0.0
        miss = 1.0
        for v, held in replies:
            out += v * held * miss
            miss *= 1.0 - held
        if miss > 0:
            out += miss * self.opponent_cannot(n, depth)
        return out

    def opponent_cannot(self, n: _Node, depth: int) -> float:
        """Opponent ``n.turn`` holds nothing that fits: it shows a void and
        draws one tile (any unseen tile, equally likely), or passes."""
        k = n.turn
        i = k - 1
        t = self.t
        if not self.options(n, 0) & turn.MAY_DRAW:
            return self.passed(n, depth)
        excl = n.excl[i] | t.fit(n.lay)
        fits = n.pool & t.fit(n.lay)
        count = n.pool.bit_count()
        total = 0.0
        m = fits
        while m:
            bit = m & -m
            m ^= bit
            total += self.best_for_opponent(n, k, bit.bit_length() - 1, n.sizes[i], n.stock - 1,
                                            excl, depth)
        misses = count - fits.bit_count()
        if misses:
            sizes = (*n.sizes[:i], n.sizes[i] + 1, *n.sizes[i + 1:])
            excls = (*n.excl[:i], excl, *n.excl[i + 1:])
            again = _Node(n.me, n.lay, n.pool, sizes, excls, n.stock - 1, k, n.passes, n.dists)
            total += misses * self.value(again, depth - 1)
        return total / count if count else self.passed(n, depth)


def settled_pip_weight(rules: Rules) -> float:
    """The horizon's weight on pips, as the settlement counts them: half
    their face (they are not all left when the round ends), divided as a
    ``lightest-bonus`` divides them."""
    if rules.round_end is RoundEnd.LIGHTEST_BONUS:
        return 0.5 / rules.bonus_divisor
    return 0.5


class ExpectimaxStrategy:
    """The depth-limited expectimax player (see the module docstring).

    The default budget, 5,000 nodes a move, reaches 3 to 5 plies in
    about a tenth of a second: with 2,000 it already won 7 of 8 matches
    against ``greedy`` in a trial, and its figures in ``bench_arena.py``
    must be affordable next to the solver's.
    """

    name = "expectimax"

    def __init__(self, *, depth: int = 7, node_limit: int | None = 5_000,
                 pip_weight: float = 0.5, passed_over: float = 1.0,
                 loose: set[int] | None = None) -> None:
        self.depth = depth
        self.node_limit = node_limit
        self.pip_weight = pip_weight
        self.passed_over = passed_over
        #: Seats whose passing over is not read; each search adds those it
        #: finds loose, so a caller that passes the same set every move
        #: remembers them for the match.
        self.loose = loose if loose is not None else set()
        self.reached: list[int] = []  # the depth each search finished

    def choose_seen(self, rules: Rules, seen: SeatView, rng: random.Random) -> SeenMove:
        if len(seen.moves) == 1:
            return seen.moves[0]
        table = table_for(rules)
        root = self.root(rules, table, seen)
        lid = seen.layout.key
        best: SeenMove = seen.moves[0]
        search = _Search(rules, table, self.pip_weight, self.node_limit,
                         self.weights(table, seen))
        done = 0
        for depth in range(1, self.depth + 1):
            search.memo.clear()
            try:
                values = [self.move_value(search, table, root, lid, m, depth)
                          for m in seen.moves]
            except _OutOfNodes:
                break
            best = seen.moves[values.index(max(values))]
            done = depth
        self.reached.append(done)
        return best

    def weights(self, table: LayoutTable, seen: SeatView) -> Weights | None:
        """Each opponent's tile weights from what it passed over (None: off)."""
        if self.passed_over >= 1.0:
            return None
        prior = passed_over_prior(table, seen, self.passed_over, self.loose)
        return tuple(prior.get((seen.seat + k) % seen.players) for k in range(1, seen.players))

    @staticmethod
    def root(rules: Rules, table: LayoutTable, seen: SeatView) -> _Node:
        me = _mask(seen.hand)
        pool = _mask(seen.unseen)
        n = seen.players
        order = [(seen.seat + k) % n for k in range(1, n)]
        sizes = tuple(seen.hand_sizes[s] for s in order)
        excl = tuple(_mask(t for t in table.by_index
                           if {t.lo, t.hi} & seen.excluded(s)) for s in order)
        dists = tuple(seen.target - seen.scores[(seen.seat + k) % n] for k in range(n))
        lay = table.canonical(seen.layout.key)
        return _Node(me, lay, pool, sizes, excl, seen.stock_count, 0, 0, dists)

    @staticmethod
    def move_value(search: _Search, table: LayoutTable, root: _Node, lid: int, move: SeenMove,
                   depth: int) -> float:
        if isinstance(move, Place):
            ti = move.tile.index()
            nid, pts = next((i, p) for e, i, p in table.moves(lid, ti) if e == move.end)
            bit = 1 << ti
            if not root.me & bit:  # a tile just drawn, to be laid at once
                root = _Node(root.me | bit, root.lay, root.pool, root.sizes, root.excl,
                             root.stock, 0, 0, root.dists)
            return search.after_mover_places(root, bit, table.canonical(nid), pts, depth)
        if isinstance(move, UnseenDraw):
            return search.mover_draws(root, depth)
        assert isinstance(move, PassTurn)
        return search.passed(root, depth)


def passed_over(table: LayoutTable, placed: Placed) -> set[int]:
    """The tiles, by index, that would have outscored ``placed``: off the
    table, fitting the same layout, scoring more than the tile laid. An end
    the record left out is taken as the tile's best; an illegal placement
    (a record's) shows nothing."""
    _, layout, tile, end = placed
    lid = layout.key
    ti = tile.index()
    scored = [p for e, _, p in table.moves(lid, ti) if end is None or e == end]
    if not scored:
        return set()
    laid = max(scored)
    down = {x.index() for x in layout.tiles()}
    return {tj for _, tj, _, pts in table.search_moves(table.canonical(lid))
            if pts > laid and tj != ti and tj not in down}


def read_placements(table: LayoutTable,
                    seen: SeatView) -> tuple[dict[int, dict[int, int]], set[int]]:
    """What the others' kept placements (``seen.placed``) show, in one walk:

    - by seat, how many of its placements each tile, by index, would have
      outscored (:func:`passed_over`);
    - the loose seats: those seen laying a tile they had passed over, with
      no draw between; they held it and chose fewer points, so they do not
      always take what they can score, and what they pass over says little.

    The mover's own placements are left out."""
    counts: dict[int, dict[int, int]] = {}
    loose: set[int] = set()
    over: dict[int, set[int]] = {}
    for placed in seen.placed:
        seat = placed[0]
        if seat == seen.seat:
            continue
        mine = counts.setdefault(seat, {})
        before = over.setdefault(seat, set())
        if placed[2].index() in before:
            loose.add(seat)
        now = passed_over(table, placed)
        before |= now
        for tj in now:
            mine[tj] = mine.get(tj, 0) + 1
    return counts, loose


def passed_over_prior(table: LayoutTable, seen: SeatView, weight: float,
                      loose: set[int]) -> dict[int, list[float]]:
    """By seat, each tile's weight (by index) from what the seat passed
    over: ``weight`` to the power of the number of its placements the tile
    would have outscored (:func:`read_placements`). Seats with nothing
    passed over are left out, and so are the loose ones: ``loose`` gains
    those this view shows, so a caller that passes the same set every move
    remembers them for the match."""
    counts, now = read_placements(table, seen)
    loose |= now
    out: dict[int, list[float]] = {}
    for seat, mine in counts.items():
        if not mine or seat in loose:
            continue
        w = [1.0] * table.n_tiles
        for ti, c in mine.items():
            w[ti] = weight ** c
        out[seat] = w
    return out


def _mask(tiles: Iterable[Tile]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t.index()
    return m


__all__ = [
    "WIN",
    "ExpectimaxStrategy",
    "passed_over",
    "passed_over_prior",
    "read_placements",
    "settled_pip_weight",
]
