"""``solve``: every legal move of a position with its value.

The answer is shaped like a double-dummy solver's: each legal move (in the
engine's ``legal_moves`` order) with its value and the principal variation
that follows it, the best move, and how far the answer can be trusted.

Values (points objective):

- Two players: the mover's points minus the opponent's, from this position
  to the end of the round, the round-end settlement included, every score
  taken as claimed (muggins rules: as if each player claims in full). A
  credit that takes a player to the target ends the match there: nothing
  after it counts, no settlement.
- Three or four players: max-n; the value is the mover's own result (own
  points from here to the round end, settlement included). Ties are broken
  as :mod:`muggins_cli.solver.maxn` says: equal own results -> the move whose
  best opponent does worst -> the opponents' results read clockwise, smallest
  first; among equal vectors the first move in ``legal_moves`` order.
- ``objective="match"``: reaching the target first wins the match whatever
  the points: ``MATCH_WIN`` is added for the winner (and taken from the other
  side: for two players the value is the difference plus or minus it). Under
  ``match_end: round-end`` nothing ends at a placement: the winner is whoever
  the round's settlement makes one by the engine's rule (the highest total,
  alone, at or above the target), and a position whose totals are already
  past the target is still played.

Modes:

- ``perfect``: hands and stock order known; exact.
- ``expect``: hands known, stock order unknown: expectimax, each draw uniform
  over the tiles still in the stock. Exact while it fits in half the budget;
  otherwise the average over ``samples`` random stock orders solved as
  ``perfect`` (``exact`` is then False and ``method`` says so).
- ``sample``: only a :class:`~muggins_cli.engine.view.SeatView` (the mover's view). The unseen tiles
  are dealt ``samples`` times consistently with the draws and passes seen,
  each deal solved as ``perfect``, and each move's values averaged. Seeded.
  Given ``deals`` (every consistent deal with its weight, from
  :func:`~muggins_cli.solver.knowledge.every_deal`), each is solved once
  and the weighted average is exact.

Budgets: ``time_limit`` (seconds) and ``node_limit``. When one runs out, or
on Ctrl-C (``KeyboardInterrupt``), ``solve`` returns what it has: the moves
whose values were finished (the others have ``value=None``), ``exact`` False
and ``stopped`` naming the reason.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, Protocol

from muggins_cli.engine.scoring import credit_ends_match
from muggins_cli.engine.state import (
    Draw,
    Pass,
    Place,
    RoundState,
    UnseenDraw,
    as_seen,
    legal_moves,
)
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.engine.view import SeatView, view_of
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import (
    MATCH_WIN,
    Budget,
    BudgetExhausted,
    Mode,
    Objective,
    Settler,
    Stopped,
    pip_counter,
    settle_bonus_max,
)
from muggins_cli.solver.expect import Expect2
from muggins_cli.solver.knowledge import Prior, Sampler, WeightedDeal
from muggins_cli.solver.maxn import MaxN, Vec, preference
from muggins_cli.solver.paranoid import Paranoid
from muggins_cli.solver.perfect import BIG, Perfect2
from muggins_cli.tiles import Tile

SolverMove = Place | Draw | Pass | UnseenDraw


class Multi(str, Enum):
    """How three or four players are searched: ``max-n`` (each player for
    themselves; exact but slow from a round's start) or ``paranoid`` (the
    others as one side against the mover: see :mod:`.paranoid`)."""

    MAXN = "max-n"
    PARANOID = "paranoid"


class _Row(NamedTuple):
    """One root move while it is being valued: becomes a :class:`MoveValue`."""

    move: SolverMove
    value: float | None
    pv: list[SolverMove]
    results: Vec | None = None


def _rows(moves: Sequence[SolverMove]) -> list[_Row]:
    """Every move without a value yet (what a search that stops at once returns)."""
    return [_Row(m, None, [m]) for m in moves]


class _Stop:
    """Where :func:`_stopping` writes why a search stopped (None: it finished)."""

    reason: Stopped | None = None


@contextmanager
def _stopping(stop: _Stop) -> Iterator[None]:
    """Run a search that may stop: a budget running out or Ctrl-C ends it
    and is noted in ``stop``; what the search wrote so far is kept."""
    try:
        yield
    except BudgetExhausted as exc:
        stop.reason = exc.reason
    except KeyboardInterrupt:
        stop.reason = Stopped.INTERRUPT


@dataclass(frozen=True)
class MoveValue:
    """One legal move, its value for the mover and what follows it.

    ``results`` is the whole result vector by seat under max-n (three or
    four players), None otherwise. ``pv`` starts with the move itself; in
    ``expect`` it stops at the first draw (its tile is unknown), in
    ``sample`` it is the move alone (every deal goes on differently).
    ``deals`` are the move's values in each sampled deal or stock order, in
    the order they were solved (the same deals for every move, so two
    moves' differences can be paired); empty for an exact answer.
    """

    move: SolverMove
    value: float | None
    pv: list[SolverMove]
    results: tuple[float, ...] | None = None
    deals: tuple[float, ...] = ()


@dataclass
class SolveResult:
    """The answer of :func:`solve` (see the module docstring)."""

    mode: Mode
    objective: Objective
    to_move: int
    moves: list[MoveValue]
    best: SolverMove | None
    value: float | None
    exact: bool
    nodes: int
    seconds: float
    method: str
    samples: int = 0
    stopped: Stopped | None = None
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    replaced: int = 0


class _Node(NamedTuple):
    """A position inside the solver: hand masks by seat, the real (oriented)
    layout id, the stock (a position in ``order`` or a mask of tiles), the
    seat to move, distances to the target by seat, and a drawn tile that
    must be placed at once (-1 for none)."""

    hands: tuple[int, ...]
    lid: int
    stock: int
    seat: int
    dists: tuple[int, ...]
    drawn: int


class _End(NamedTuple):
    """A move that ends the round or the match: points by seat (the move's
    own score included) and the seat that reached the target, if any."""

    points: tuple[int, ...]
    winner: int | None


class _Ctx:
    """Legal moves and their effects on :class:`_Node`, exactly as the
    engine's ``legal_moves``/``apply`` (tests check the two against each
    other), but on masks and interned layouts so the root and the principal
    variations cost microseconds per step."""

    def __init__(
        self, rules: Rules, table: LayoutTable, players: int, order: Sequence[int] | None,
        objective: Objective,
    ) -> None:
        self.rules = rules
        self.table = table
        self.n = players
        self.order = tuple(order) if order is not None else None
        self.lim = max(0, len(self.order) - rules.stock_reserve) if self.order is not None else 0
        self.settler = Settler(rules, objective)
        self.match = objective is Objective.MATCH
        self.pips = pip_counter(table)
        self.ends_on_credit = credit_ends_match(rules)
        self.lead_tile: Tile | None = None  # the double the round must open with

    def drawable(self, stock: int) -> int:
        if self.order is None:
            return max(0, stock.bit_count() - self.rules.stock_reserve)
        return max(0, self.lim - stock)

    def legal(self, node: _Node) -> list[SolverMove]:
        t = self.table
        if node.drawn >= 0:
            tile = t.by_index[node.drawn]
            return [Place(tile, end) for end, _, _ in t.real_moves(node.lid, node.drawn)]
        if node.lid == t.empty and self.lead_tile is not None:
            return [Place(self.lead_tile)]
        me = node.hands[node.seat]
        fit = me & t.fitmask[node.lid]
        moves: list[SolverMove] = []
        for ti in t.legal_order:
            if fit >> ti & 1:
                tile = t.by_index[ti]
                moves.extend(Place(tile, end) for end, _, _ in t.real_moves(node.lid, ti))
        if self.drawable(node.stock) and node.lid != t.empty and (
            not moves or not self.rules.must_play
        ):
            if self.order is None:
                moves.append(UnseenDraw())
            else:
                moves.append(Draw(t.by_index[self.order[node.stock]]))
        elif not moves:
            moves.append(Pass())
        return moves

    def _settle(self, hands: Sequence[int], went_out: int | None, dists: Sequence[int],
                pts: int, seat: int) -> _End:
        d = self.settler.deltas([self.pips(h) for h in hands], went_out)
        points = tuple(x + (pts if i == seat else 0) for i, x in enumerate(d))
        return _End(points, self.settler.winner(d, dists))

    def step(self, node: _Node, move: SolverMove) -> tuple[int, _Node | _End]:
        """Apply a known move: its points and the next node, or how it ends."""
        t = self.table
        hands, seat, n = node.hands, node.seat, self.n
        me = hands[seat]
        if isinstance(move, Place):
            ti = move.tile.index()
            nid, pts = next((i, p) for e, i, p in t.real_moves(node.lid, ti) if e == move.end)
            rest = me & ~(1 << ti)
            if self.ends_on_credit and pts >= node.dists[seat]:
                return pts, _End(tuple(pts if i == seat else 0 for i in range(n)), seat)
            new_hands = (*hands[:seat], rest, *hands[seat + 1:])
            dists = (*node.dists[:seat], node.dists[seat] - pts, *node.dists[seat + 1:])
            if not rest:
                return pts, self._settle(new_hands, seat, dists, pts, seat)
            if not self.drawable(node.stock) and not any(
                h & t.fitmask[nid] for h in new_hands
            ):
                return pts, self._settle(new_hands, None, dists, pts, seat)
            return pts, _Node(new_hands, nid, node.stock, (seat + 1) % n, dists, -1)
        if isinstance(move, Draw):
            assert self.order is not None
            ti = self.order[node.stock]
            new_hands = (*hands[:seat], me | 1 << ti, *hands[seat + 1:])
            fits = t.fitmask[node.lid] >> ti & 1
            return 0, _Node(new_hands, node.lid, node.stock + 1, seat, node.dists,
                            ti if fits else -1)
        if isinstance(move, Pass):
            fm = t.fitmask[node.lid]
            if not self.drawable(node.stock) and not any(h & fm for h in hands):
                return 0, self._settle(hands, None, node.dists, 0, seat)
            return 0, node._replace(seat=(seat + 1) % n)
        raise ValueError(f"{move} has no known outcome")

    def end_value2(self, end: _End, seat: int) -> int:
        """A round end from ``seat``'s side in a two-player game."""
        v = end.points[seat] - end.points[1 - seat]
        if self.match and end.winner is not None:
            v += MATCH_WIN if end.winner == seat else -MATCH_WIN
        return v

    def end_vec(self, end: _End) -> Vec:
        if self.match and end.winner is not None:
            return tuple(float(p + (MATCH_WIN if i == end.winner else -MATCH_WIN))
                         for i, p in enumerate(end.points))
        return tuple(float(p) for p in end.points)


# ----------------------------------------------------------------------
# Conversion


def _mask(tiles: frozenset[Tile] | Sequence[Tile]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t.index()
    return m


def _live(table: LayoutTable, rules: Rules, node: _Node, drawable: int) -> bool:
    """Whether some seat could reach the target before this round ends; if
    not, the table keys leave the scores out (more positions share)."""
    bonus = settle_bonus_max(rules, table)
    return any(
        d <= table.max_place * (h.bit_count() + drawable) + bonus
        for d, h in zip(node.dists, node.hands)
    )


def _root(
    rules: Rules, table: LayoutTable, state: RoundState, scores: Sequence[int], target: int,
    chance: bool,
) -> tuple[_Node, tuple[int, ...] | None]:
    if state.over:
        raise InputError("the round is over: there is nothing to solve")
    n = state.players
    if len(scores) != n:
        raise InputError(f"{len(scores)} scores for {n} players")
    dists = tuple(target - s for s in scores)
    if min(dists) <= 0 and credit_ends_match(rules):
        # Under round-end a total past the target plays on to the round's end.
        raise InputError("the match is over: a score has reached the target")
    order = None if chance else tuple(t.index() for t in state.stock)
    stock = _mask(state.stock) if chance else 0
    drawn = state.drawn.index() if state.drawn is not None else -1
    node = _Node(tuple(_mask(h) for h in state.hands), table.from_layout(state.layout), stock,
                 state.to_move, dists, drawn)
    return node, order


# ----------------------------------------------------------------------
# Two players, perfect information


def _mtd(f: Callable[[int, int], int], guess: int) -> int:
    """MTD(f): the exact value by null-window tests, which with a table
    costs about half of one full-window search (measured on pagat rounds)."""
    lo, hi = -BIG, BIG
    g = guess
    while lo < hi:
        beta = g if g > lo else lo + 1
        v = f(beta - 1, beta)
        if v < beta:
            hi = v
        else:
            lo = v
        g = v
    return lo


class _Root(Protocol):
    def move_value(self, node: _Node, move: SolverMove, alpha: int, beta: int) -> int: ...


def _root_values(
    root: _Root, node: _Node, moves: Sequence[SolverMove],
    only: Collection[SolverMove] | None,
    values: list[_Row],
    scale: int = 1,
) -> None:
    """Each root move's exact value by MTD(f), the previous move's value as
    the first guess, written into ``values`` as it is found (so what
    finished survives a budget running out); moves not in ``only`` (as the
    mover sees them) are left without one. ``scale`` divides the search's
    int values (the paranoid search's ``n - 1``)."""
    guess = 0
    for i, m in enumerate(moves):
        if only is not None and as_seen(m) not in only:
            continue

        def probe(alpha: int, beta: int, m: SolverMove = m) -> int:
            return root.move_value(node, m, alpha, beta)

        v = _mtd(probe, guess)
        guess = v
        values[i] = _Row(m, v if scale == 1 else v / scale, [m])


#: Picks the principal variation's next move: given the node before the
#: last move, that move's points, the node after it and the legal moves there.
_Choose = Callable[[_Node, int, _Node, list[SolverMove]], SolverMove]


def _line(ctx: _Ctx, node: _Node, move: SolverMove, choose: _Choose,
          limit: int = 200) -> list[SolverMove]:
    """A principal variation: ``move``, then at each step the move ``choose``
    picks, until the round ends or a draw whose tile nobody knows yet (an
    ``expect`` line stops there). The one loop of the three searches."""
    line: list[SolverMove] = [move]
    while len(line) < limit and not isinstance(move, UnseenDraw):
        pts, nxt = ctx.step(node, move)
        if isinstance(nxt, _End):
            break
        move = choose(node, pts, nxt, ctx.legal(nxt))
        node = nxt
        line.append(move)
    return line


class _Perfect2Root:
    def __init__(self, ctx: _Ctx, search: Perfect2) -> None:
        self.ctx = ctx
        self.s = search

    def node_value(self, node: _Node, alpha: int, beta: int) -> int:
        if node.drawn >= 0:
            best = -BIG
            for m in self.ctx.legal(node):
                v = self.move_value(node, m, alpha, beta)
                if v > best:
                    best = v
                    alpha = max(alpha, v)
                    if v >= beta:
                        break
            return best
        me, op = node.hands[node.seat], node.hands[1 - node.seat]
        dme, dop = node.dists[node.seat], node.dists[1 - node.seat]
        return self.s.nega(me, op, self.ctx.table.canonical(node.lid), node.stock, dme, dop,
                           alpha, beta)

    def move_value(self, node: _Node, move: SolverMove, alpha: int, beta: int) -> int:
        if isinstance(move, Draw) and self.ctx.rules.must_play:
            # The whole run of draws is one step of the search.
            me, op = node.hands[node.seat], node.hands[1 - node.seat]
            return self.s.no_fit(me, op, self.ctx.table.canonical(node.lid), node.stock,
                                 node.dists[node.seat], node.dists[1 - node.seat], alpha, beta)
        pts, nxt = self.ctx.step(node, move)
        if isinstance(nxt, _End):
            return self.ctx.end_value2(nxt, node.seat)
        if nxt.seat == node.seat:
            return pts + self.node_value(nxt, alpha - pts, beta - pts)
        return pts - self.node_value(nxt, pts - beta, pts - alpha)

    def pv(self, node: _Node, move: SolverMove, value: int) -> list[SolverMove]:
        """At each step the first legal move that keeps the value (found by
        null-window tests, which the table mostly answers)."""

        def keeps_value(before: _Node, pts: int, after: _Node, moves: list[SolverMove]
                        ) -> SolverMove:
            nonlocal value
            value = value - pts if after.seat == before.seat else pts - value
            if len(moves) > 1:
                for m in moves:
                    if self.move_value(after, m, value - 1, value) >= value:
                        return m
            return moves[0]

        return _line(self.ctx, node, move, keeps_value)


# ----------------------------------------------------------------------
# Public API


def solve(
    rules: Rules,
    position: RoundState | SeatView,
    *,
    scores: Sequence[int] | None = None,
    target: int | None = None,
    mode: Mode | str = Mode.PERFECT,
    objective: Objective | str = Objective.POINTS,
    time_limit: float | None = None,
    node_limit: int | None = None,
    seed: int = 0,
    samples: int = 32,
    pv: bool = True,
    multi: Multi | str = Multi.MAXN,
    enough: Enough | None = None,
    prior: Prior | None = None,
    deals: Sequence[WeightedDeal] | None = None,
    node_total: int | None = None,
) -> SolveResult:
    """Value every legal move of ``position`` for the player to move.

    ``position`` is an engine :class:`RoundState` (``perfect``: its stock
    order is used; ``expect``: only its stock's contents; ``sample``: only
    what the mover sees, through :func:`~muggins_cli.engine.view.view_of`) or a
    :class:`SeatView` (``sample`` only). ``scores`` (default zeros) and
    ``target`` (default the rules' target) place the round in its match;
    a :class:`SeatView` carries its own. ``pv=False`` skips the principal
    variations (the benchmark's sampled modes do not need them). ``prior``
    (``sample`` only) weighs the deals by what the mover believes of the
    other hands beyond the voids (:class:`~muggins_cli.solver.knowledge.Sampler`).
    ``deals`` (``sample`` only) replaces the sampling by these deals, each
    solved once, every move valued in each, their values weighed by the
    deals' weights: ``exact`` when every one was solved within the
    budget (``node_limit`` is then shared by all of them), and ``samples``,
    ``enough`` and ``prior`` play no part. ``node_total`` (``sample`` with
    ``enough``) also ends the sampling once the deals together have searched
    that many nodes, as if ``enough`` had said so: a bound on the work one
    answer takes that does not depend on the machine's speed.
    """
    mode = Mode(mode)
    objective = Objective(objective)
    multi = Multi(multi)
    budget = Budget(time_limit, node_limit)
    if isinstance(position, SeatView):
        if mode is not Mode.SAMPLE:
            raise InputError(
                f"mode {mode.value} needs every hand; a mover's view has only the mover's")
        know = position
    else:
        n = position.players
        sc = tuple(scores) if scores is not None else (0,) * n
        tg = target if target is not None else rules.target_for(n)
        if mode is Mode.SAMPLE:
            know = view_of(rules, position, legal_moves(rules, position), sc, tg)
        elif mode is Mode.PERFECT:
            return _solve_perfect(rules, position, sc, tg, objective, budget, pv, multi)
        else:
            return _solve_expect(rules, position, sc, tg, objective, budget, seed, samples, pv)
    return _solve_sample(rules, know, objective, budget, seed, samples, multi, enough, prior,
                         deals, node_total)


def runs_compiled(rules: Rules, players: int, objective: Objective | str, *, timed: bool,
                  multi: Multi | str = Multi.MAXN) -> bool:
    """Whether :func:`solve` searches these settings' deals with the
    compiled search (:mod:`.compiled`, :mod:`.compiled_paranoid`), about
    ten times as many nodes a second as the Python one: a caller that caps
    nodes to bound time needs to know which it gets."""
    from muggins_cli.solver import compiled, compiled_paranoid

    n_tiles = table_for(rules).n_tiles
    match = Objective(objective) is Objective.MATCH
    if players == 2:
        return compiled.settings_compile(n_tiles, compiled.MAX_TILES, timed, match)
    return Multi(multi) is Multi.PARANOID and compiled.settings_compile(
        n_tiles, compiled_paranoid.MAX_TILES, timed, match)


def _finish(
    mode: Mode, objective: Objective, seat: int, values: list[_Row], exact: bool, nodes: int,
    budget: Budget, method: str, *, samples: int = 0, stopped: Stopped | None = None,
) -> SolveResult:
    moves = [MoveValue(m, v, p, r) for m, v, p, r in values]
    best: SolverMove | None = None
    best_value: float | None = None
    best_key: tuple[float, ...] | None = None
    for mv in moves:
        if mv.value is None:
            continue
        key: tuple[float, ...] = (mv.value,)
        if mv.results is not None:
            own, worst, rest = preference(mv.results, seat)
            key = (own, worst, *rest)
        if best_key is None or key > best_key:
            best, best_value, best_key = mv.move, mv.value, key
    complete = all(mv.value is not None for mv in moves)
    notes = []
    if stopped is not None and complete and exact:
        notes.append("every value is exact; the budget ran out while writing the principal "
                     "variations, which may stop short")
    return SolveResult(
        mode=mode, objective=objective, to_move=seat, moves=moves, best=best,
        value=best_value, exact=exact and complete, nodes=nodes,
        seconds=budget.elapsed(), method=method, samples=samples, stopped=stopped,
        interrupted=stopped is Stopped.INTERRUPT, notes=notes,
    )


def _solve_perfect(
    rules: Rules, state: RoundState, scores: Sequence[int], target: int, objective: Objective,
    budget: Budget, want_pv: bool, multi: Multi = Multi.MAXN,
    only: Collection[SolverMove] | None = None,
) -> SolveResult:
    """Every legal move valued exactly; with ``only`` (moves as the mover
    sees them: a draw as ``d??``), the others are left without a value."""
    table = table_for(rules)
    node, order = _root(rules, table, state, scores, target, chance=False)
    assert order is not None
    ctx = _Ctx(rules, table, state.players, order, objective)
    ctx.lead_tile = state.lead_tile
    live = _live(table, rules, node, ctx.drawable(0))
    moves: list[SolverMove] = list(legal_moves(rules, state))
    values = _rows(moves)
    stop = _Stop()
    if state.players == 2:
        search = Perfect2(rules, table, order, objective, budget, live, min(node.dists))
        root = _Perfect2Root(ctx, search)
        with _stopping(stop):
            try:
                _root_values(root, node, moves, only, values)
                if want_pv:
                    for i, row in enumerate(values):
                        if row.value is not None:
                            values[i] = row._replace(pv=root.pv(node, row.move, int(row.value)))
            finally:
                search.release()
        return _finish(Mode.PERFECT, objective, node.seat, values, True, search.node_count(),
                       budget, "alpha-beta", stopped=stop.reason)
    if multi is Multi.PARANOID:
        return _solve_paranoid(ctx, node, order, moves, objective, budget, live, only)
    msearch = MaxN(rules, table, state.players, objective, budget, live, order,
                   min(node.dists))
    mroot = _MaxNRoot(ctx, msearch)
    with _stopping(stop):
        for i, m in enumerate(moves):
            vec = mroot.move_vec(node, m)
            values[i] = _Row(m, vec[node.seat], [m], vec)
        if want_pv:
            for i, row in enumerate(values):
                values[i] = row._replace(pv=mroot.pv(node, row.move))
    return _finish(Mode.PERFECT, objective, node.seat, values, True, msearch.nodes, budget,
                   "max-n", stopped=stop.reason)


class _ParanoidRoot:
    """The root of a paranoid search: the moves from a real (oriented)
    layout, and a drawn tile that must be laid, before the search takes over
    on canonical ids."""

    def __init__(self, ctx: _Ctx, search: Paranoid) -> None:
        self.ctx = ctx
        self.s = search

    def node_value(self, node: _Node, alpha: int, beta: int) -> int:
        if node.drawn >= 0:
            mine = node.seat == self.s.root
            best = -BIG if mine else BIG
            for m in self.ctx.legal(node):
                v = self.move_value(node, m, alpha, beta)
                if mine and v > best:
                    best = v
                    alpha = max(alpha, v)
                elif not mine and v < best:
                    best = v
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            return best
        return self.s.search(node.hands, self.ctx.table.canonical(node.lid), node.stock, node.seat,
                             node.dists, alpha, beta)

    def move_value(self, node: _Node, move: SolverMove, alpha: int, beta: int) -> int:
        pts, nxt = self.ctx.step(node, move)
        if isinstance(nxt, _End):
            vec = self.ctx.end_vec(nxt)
            return self.s.weigh(vec)
        here = self.s.w[node.seat] * pts
        return here + self.node_value(nxt, alpha - here, beta - here)


def _solve_paranoid(
    ctx: _Ctx, node: _Node, order: Sequence[int], moves: list[SolverMove],
    objective: Objective, budget: Budget, live: bool, only: Collection[SolverMove] | None,
) -> SolveResult:
    """Three or four players, the others taken as one side (see
    :mod:`.paranoid`): each root move's value by MTD(f) on one table. The
    values are reported divided by ``n - 1``, so they read as the mover's
    points minus the opponents' average. No principal variation: the
    analysis that asks for this view does not need one."""
    n = ctx.n
    search = Paranoid(ctx.rules, ctx.table, n, node.seat, order, objective, budget, live,
                      min(node.dists))
    root = _ParanoidRoot(ctx, search)
    values = _rows(moves)
    stop = _Stop()
    with _stopping(stop):
        try:
            _root_values(root, node, moves, only, values, scale=n - 1)
        finally:
            search.release()
    return _finish(Mode.PERFECT, objective, node.seat, values, True, search.node_count(), budget,
                   "paranoid alpha-beta", stopped=stop.reason)


class _MaxNRoot:
    def __init__(self, ctx: _Ctx, search: MaxN) -> None:
        self.ctx = ctx
        self.s = search

    def node_vec(self, node: _Node) -> Vec:
        if node.drawn >= 0:
            return max((self.move_vec(node, m) for m in self.ctx.legal(node)),
                       key=lambda v: preference(v, node.seat))
        return self.s.value(node.hands, self.ctx.table.canonical(node.lid), node.stock, node.seat,
                            node.dists)

    def move_vec(self, node: _Node, move: SolverMove) -> Vec:
        if isinstance(move, UnseenDraw) or (isinstance(move, Draw) and self.ctx.rules.must_play):
            return self.s.draw(node.hands, self.ctx.table.canonical(node.lid), node.stock,
                               node.seat, node.dists, one=not self.ctx.rules.must_play)
        pts, nxt = self.ctx.step(node, move)
        if isinstance(nxt, _End):
            return self.ctx.end_vec(nxt)
        vec = self.node_vec(nxt)
        seat = node.seat
        return (*vec[:seat], vec[seat] + pts, *vec[seat + 1:])

    def pv(self, node: _Node, move: SolverMove) -> list[SolverMove]:
        """At each step the mover's preferred move (the first of equals)."""

        def preferred(before: _Node, pts: int, after: _Node, moves: list[SolverMove]
                      ) -> SolverMove:
            return max(moves, key=lambda m: preference(self.move_vec(after, m), after.seat))

        return _line(self.ctx, node, move, preferred)


# ----------------------------------------------------------------------
# Expect


class _Expect2Root:
    def __init__(self, ctx: _Ctx, search: Expect2) -> None:
        self.ctx = ctx
        self.s = search

    def move_value(self, node: _Node, move: SolverMove) -> float:
        t = self.ctx.table
        me, op = node.hands[node.seat], node.hands[1 - node.seat]
        dme, dop = node.dists[node.seat], node.dists[1 - node.seat]
        if isinstance(move, UnseenDraw):
            return self.s.chance(me, op, t.canonical(node.lid), node.stock, dme, dop)
        pts, nxt = self.ctx.step(node, move)
        if isinstance(nxt, _End):
            return self.ctx.end_value2(nxt, node.seat)
        nme, nop = nxt.hands[nxt.seat], nxt.hands[1 - nxt.seat]
        v = self.s.nega(nme, nop, t.canonical(nxt.lid), nxt.stock, nxt.dists[nxt.seat],
                        nxt.dists[1 - nxt.seat], -BIG, BIG)
        return pts + v if nxt.seat == node.seat else pts - v

    def pv(self, node: _Node, move: SolverMove) -> list[SolverMove]:
        """Decisions up to the first draw, whose tile nobody knows yet: at
        each step the move of the highest expected value (the first of equals)."""

        def highest(before: _Node, pts: int, after: _Node, moves: list[SolverMove]
                    ) -> SolverMove:
            if len(moves) == 1:
                return moves[0]
            return max(moves, key=lambda m: self.move_value(after, m))

        return _line(self.ctx, node, move, highest)


def _solve_expect(
    rules: Rules, state: RoundState, scores: Sequence[int], target: int, objective: Objective,
    budget: Budget, seed: int, samples: int, want_pv: bool,
) -> SolveResult:
    table = table_for(rules)
    node, _ = _root(rules, table, state, scores, target, chance=True)
    ctx = _Ctx(rules, table, state.players, None, objective)
    ctx.lead_tile = state.lead_tile
    live = _live(table, rules, node, ctx.drawable(node.stock))
    moves: list[SolverMove] = [
        as_seen(m) for m in legal_moves(rules, state)]
    values = _rows(moves)
    # The exact search gets half of each budget; sampling has the rest.
    half = Budget(
        None if budget.deadline is None else (budget.deadline - budget.start) / 2,
        None if budget.node_limit is None else budget.node_limit // 2,
    )
    method = "expectimax" if state.players == 2 else "expecti-max-n"
    value_of: Callable[[SolverMove], tuple[float, Vec | None]]
    pv_of: Callable[[SolverMove], list[SolverMove]]
    if state.players == 2:
        search = Expect2(rules, table, objective, half, live, min(node.dists))
        root = _Expect2Root(ctx, search)
        count: Callable[[], int] = search.node_count

        def value_of(m: SolverMove) -> tuple[float, Vec | None]:
            return root.move_value(node, m), None

        def pv_of(m: SolverMove) -> list[SolverMove]:
            return root.pv(node, m)
    else:
        msearch = MaxN(rules, table, state.players, objective, half, live, None,
                       min(node.dists))
        mroot = _MaxNRoot(ctx, msearch)

        def count() -> int:
            return msearch.nodes

        def value_of(m: SolverMove) -> tuple[float, Vec | None]:
            vec = mroot.move_vec(node, m)
            return vec[node.seat], vec

        def pv_of(m: SolverMove) -> list[SolverMove]:
            return mroot.pv(node, m)

    stop = _Stop()
    with _stopping(stop):
        for i, m in enumerate(moves):
            v, vec = value_of(m)
            values[i] = _Row(m, v, [m], vec)
    if stop.reason is Stopped.INTERRUPT:
        return _finish(Mode.EXPECT, objective, node.seat, values, False, count(), budget,
                       method, stopped=stop.reason)
    if stop.reason is None:
        with _stopping(stop):
            if want_pv:
                for i, row in enumerate(values):
                    values[i] = row._replace(pv=pv_of(row.move))
        return _finish(Mode.EXPECT, objective, node.seat, values, True, count(), budget,
                       method, stopped=stop.reason)
    # The exact search ran out of its half of the budget: sample stock orders.
    nodes = count()
    # Too big to do exactly in the budget: average over sampled stock orders.
    budget.nodes += nodes
    rng = random.Random(seed)
    pool = sorted(state.stock)

    def deal() -> RoundState:
        order = list(pool)
        rng.shuffle(order)
        return RoundState(state.hands, tuple(order), state.layout, state.to_move, state.drawn,
                          lead_tile=state.lead_tile)

    res = _average(rules, deal, scores, target, objective, budget, samples, Mode.EXPECT,
                   "sampled stock orders", node.seat, nodes)
    res.notes.append("exact expectimax did not fit in half the budget")
    return res


# ----------------------------------------------------------------------
# Sample


def _solve_sample(
    rules: Rules, know: SeatView, objective: Objective, budget: Budget, seed: int, samples: int,
    multi: Multi = Multi.MAXN, enough: Enough | None = None, prior: Prior | None = None,
    deals: Sequence[WeightedDeal] | None = None, node_total: int | None = None,
) -> SolveResult:
    if min(know.target - s for s in know.scores) <= 0 and credit_ends_match(rules):
        raise InputError("the match is over: a score has reached the target")
    if deals is not None:
        if not deals:
            raise InputError("no deal to average over")
        listed = iter(deals)
        return _average(rules, lambda: next(listed)[0], know.scores, know.target, objective,
                        budget, len(deals), Mode.SAMPLE, "every deal", know.seat, 0, multi,
                        weights=[w for _, w in deals])
    sampler = Sampler(know, random.Random(seed), prior=prior)
    return _average(rules, sampler.deal, know.scores, know.target, objective, budget, samples,
                    Mode.SAMPLE, "sampled deals", know.seat, 0, multi, enough,
                    node_total=node_total)


#: Called after each sampled deal with every move's values so far (in deal
#: order; a move left out of a deal has no value for it) and the number of
#: deals solved: the moves worth valuing in the next deal, or None when the
#: answer is known well enough and sampling may stop.
Enough = Callable[[Mapping[SolverMove, Sequence[float]], int], Collection[SolverMove] | None]


def _average(
    rules: Rules, deal: Callable[[], RoundState], scores: Sequence[int], target: int,
    objective: Objective, budget: Budget, samples: int, mode: Mode, method: str, seat: int,
    nodes: int, multi: Multi = Multi.MAXN, enough: Enough | None = None,
    weights: Sequence[float] | None = None, node_total: int | None = None,
) -> SolveResult:
    """Solve up to ``samples`` perfect-information states from ``deal`` and
    average each move's value. A draw is reported as ``d??``: its tile is
    different in every sample. With ``weights`` (one a deal, in proportion
    to its probability: every deal there is), the average is weighed by
    them and exact once all ``samples`` deals are solved.

    Without ``enough`` the node cap is shared by all the deals and sampling
    stops when it runs out. With ``enough``, sampling stops when ``enough``
    says so, only the moves it names are valued in the next deal, and the
    node cap applies to each deal: a deal that does not finish in it is put
    aside and another dealt (``replaced`` counts them; after ``samples``
    such deals sampling stops), or when the deals' nodes reach ``node_total``."""
    vecs: dict[SolverMove, list[float]] = {}
    done = 0
    replaced = 0
    stop = _Stop()
    state = deal()
    order: list[SolverMove] = [as_seen(m) for m in legal_moves(rules, state)]
    per: dict[SolverMove, list[float]] = {m: [] for m in order}
    keep: Collection[SolverMove] | None = None
    with _stopping(stop):
        k = 0
        while done < max(1, samples):
            if k:
                state = deal()
            k += 1
            left = budget.left()
            if enough is not None:
                cap = budget.node_limit
            else:
                cap = None if budget.node_limit is None else budget.node_limit - budget.nodes
            sub = _solve_perfect(rules, state, scores, target, objective, Budget(left, cap),
                                 False, multi, keep)
            nodes += sub.nodes
            budget.nodes += sub.nodes
            if sub.stopped is not None:
                if enough is not None and sub.stopped is Stopped.NODES and replaced < samples:
                    replaced += 1
                    continue
                stop.reason = sub.stopped
                break
            w = 1.0 if weights is None else weights[done]
            for mv in sub.moves:
                if mv.value is None:
                    continue
                key: SolverMove = as_seen(mv.move)
                per[key].append(mv.value)
                if mv.results is not None:
                    acc = vecs.setdefault(key, [0.0] * len(mv.results))
                    for i, x in enumerate(mv.results):
                        acc[i] += x if weights is None else w * x
            done += 1
            if budget.left() is not None and (budget.left() or 0) <= 0:
                stop.reason = Stopped.TIME
                break
            if enough is not None:
                keep = enough(per, done)
                if keep is None or (node_total is not None and nodes >= node_total):
                    break
            elif budget.node_limit is not None and budget.nodes >= budget.node_limit:
                stop.reason = Stopped.NODES
                break
    values: list[_Row] = []
    for key in order:
        got = per[key]
        # Without weights each deal counts once; with them (every move is
        # valued in every deal then) by its probability.
        mass = float(len(got)) if weights is None else sum(weights[:len(got)])
        vec = tuple(x / mass for x in vecs[key]) if key in vecs and got else None
        if weights is None:
            mean = sum(got) / len(got) if got else None
        else:
            mean = sum(w * v for w, v in zip(weights, got)) / mass if got else None
        values.append(_Row(key, mean, [key], vec))
    early = enough is not None and stop.reason is None
    whole = weights is not None and done == len(weights)  # every deal, wholly solved
    res = _finish(mode, objective, seat, values, whole, nodes, budget, method, samples=done,
                  stopped=stop.reason if done < samples and not early else None)
    res.moves = [dataclasses.replace(mv, deals=tuple(per[mv.move])) for mv in res.moves]
    res.replaced = replaced
    return res


__all__ = [
    "Enough",
    "Mode",
    "MoveValue",
    "Multi",
    "Objective",
    "SolveResult",
    "SolverMove",
    "Stopped",
    "runs_compiled",
    "solve",
]
