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
  as :func:`muggins_cli.solver.kernel.preference` says: equal own results -> the move whose
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
from typing import NamedTuple

from muggins_cli.engine.scoring import credit_ends_match
from muggins_cli.engine.state import (
    RoundState,
    as_seen,
    legal_moves,
)
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.engine.turn import round_hand
from muggins_cli.engine.view import SeatView, view_of
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import (
    MATCH_WIN,
    Budget,
    BudgetExhausted,
    Mode,
    Objective,
    Stopped,
)
from muggins_cli.solver.game import Node, SolverGame, SolverMove, settle_bonus_max
from muggins_cli.solver.kernel import MEMO_MOST_MOVES, MemoGrew, preference, ready
from muggins_cli.solver.knowledge import Prior, Sampler, WeightedDeal
from muggins_cli.solver.roots import Root, Vec
from muggins_cli.tiles import Tile


class Multi(str, Enum):
    """How three or four players are searched: ``max-n`` (each player for
    themselves; exact but slow from a round's start) or ``paranoid`` (the
    others as one side against the mover: see :mod:`.kernel`)."""

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
    the order they were dealt (the same deals for every move, so two
    moves' differences can be paired); empty for an exact answer.
    For a deal whose search did not finish, ``deals`` holds the middle of
    the range the move's value in it is known to lie in, and ``spread`` how
    far either way the value may lie from it (0 for a deal solved; empty
    when every deal was solved).
    """

    move: SolverMove
    value: float | None
    pv: list[SolverMove]
    results: tuple[float, ...] | None = None
    deals: tuple[float, ...] = ()
    spread: tuple[float, ...] = ()


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
    #: Deals (or stock orders) dealt; each one dealt is counted in
    #: ``samples``, unless a budget shared by every deal (no ``enough``)
    #: or Ctrl-C stopped its search.
    dealt: int = 0
    #: Deals counted with a bound on their values (``MoveValue.spread``)
    #: because their search did not finish in what it might take.
    unfinished: int = 0
    #: The nodes each deal's search took, in the order they were dealt.
    deal_nodes: tuple[int, ...] = ()
    #: ``sample``: the sampled deal the principal variations were played
    #: in (the one whose value of the best move lies nearest its average);
    #: None when there are none.
    deal: RoundState | None = None


def _mask(tiles: frozenset[Tile] | Sequence[Tile]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t.index()
    return m


def _root(
    rules: Rules, table: LayoutTable, state: RoundState, scores: Sequence[int], target: int,
    chance: bool,
) -> tuple[Node, tuple[int, ...] | None]:
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
    node = Node(tuple(_mask(h) for h in state.hands), state.layout.key, stock,
                state.to_move, dists, drawn)
    return node, order


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
    first_whole: bool = False,
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
    ``first_whole`` (``sample``): when the budget runs out before the
    first deal is solved, that deal is solved whole past it, so that every
    move still gets a value (from that one deal, with a note saying so).
    """
    mode = Mode(mode)
    objective = Objective(objective)
    multi = Multi(multi)
    ready()  # compiled (or loaded) before the clock starts
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
                         deals, node_total, want_pv=pv, first_whole=first_whole)


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
    sees them: a draw as ``d??``), the others are left without a value.
    Two players: alpha-beta on the margin; three or four: max-n, or the
    paranoid alpha-beta (``multi``), whose values are reported divided by
    ``n - 1`` (the mover's points minus the opponents' average)."""
    table = table_for(rules)
    node, order = _root(rules, table, state, scores, target, chance=False)
    assert order is not None
    game = SolverGame(rules, table, state.players, order, objective, state.lead_tile)
    maxn = state.players > 2 and multi is Multi.MAXN
    moves: list[SolverMove] = list(legal_moves(rules, state))
    method = "max-n" if maxn else "alpha-beta" if state.players == 2 else "paranoid alpha-beta"
    return _value_moves(lambda: Root(rules, table, game, node, objective, budget, maxn=maxn), moves,
                        Mode.PERFECT, objective, budget, method, want_pv, only)


def _value_moves(make: Callable[[], Root], moves: list[SolverMove], mode: Mode,
                 objective: Objective, budget: Budget, method: str, want_pv: bool,
                 only: Collection[SolverMove] | None = None) -> SolveResult:
    """Each root move's exact value (written as it is found, so what
    finished survives a budget running out), then the principal variations.
    When the search's layout memo had to grow, the whole valuation starts
    again with a new search: what it counts, and so where a node budget
    stops it, must not depend on what ran before in the process."""
    spent = budget.nodes
    emptied = 0
    while True:
        root = make()
        try:
            return _valued(root, moves, mode, objective, budget, method, want_pv, only)
        except MemoGrew as e:
            if not e.afresh:
                budget.nodes = spent
            else:  # the search needs more layouts than are kept: its budget bounds it
                emptied += 1
                if emptied > 2:
                    raise InputError("this search meets more layouts than the solver keeps "
                                     f"({MEMO_MOST_MOVES:,} placements); give it --nodes or "
                                     "--time, or a position later in the round") from None
        finally:
            root.release()


def _in_order(moves: Sequence[SolverMove], only: Collection[SolverMove] | None) -> list[int]:
    """Which of ``moves`` to value, by index, in the order to value them:
    every one, in order, without ``only``; else those ``only`` names (as
    the mover sees them), in its order when it is a sequence (the moves
    that matter most first: what a search cut short leaves valued)."""
    if only is None:
        return list(range(len(moves)))
    picked = [i for i, m in enumerate(moves) if as_seen(m) in only]
    if isinstance(only, Sequence):
        rank = {m: k for k, m in enumerate(only)}
        picked.sort(key=lambda i: rank[as_seen(moves[i])])
    return picked


def _valued(root: Root, moves: list[SolverMove], mode: Mode, objective: Objective,
            budget: Budget, method: str, want_pv: bool,
            only: Collection[SolverMove] | None) -> SolveResult:
    scale = root.game.n - 1
    values = _rows(moves)
    stop = _Stop()
    with _stopping(stop):
        guess = 0.0
        for i in _in_order(moves, only):
            m = moves[i]
            if root.maxn:
                vec = root.move_vec(root.node, m)
                values[i] = _Row(m, vec[root.node.seat], [m], vec)
            else:
                v = guess = root.exact_value(m, guess)
                values[i] = _Row(m, v / scale, [m])
        if want_pv:
            for i, row in enumerate(values):
                if row.value is not None:
                    goal = row.results if row.results is not None else row.value * scale
                    values[i] = row._replace(pv=root.pv(row.move, goal))
    return _finish(mode, objective, root.node.seat, values, True, root.nodes(), budget, method,
                   stopped=stop.reason)


# ----------------------------------------------------------------------
# Expect


def _solve_expect(
    rules: Rules, state: RoundState, scores: Sequence[int], target: int, objective: Objective,
    budget: Budget, seed: int, samples: int, want_pv: bool,
) -> SolveResult:
    """Hands known, the stock's order not: each draw a chance node over
    the tiles still in the stock (expectimax: alpha-beta on the margin for
    two players, max-n for more). Exact while it fits in half the budget;
    otherwise the average over sampled stock orders."""
    table = table_for(rules)
    node, _ = _root(rules, table, state, scores, target, chance=True)
    game = SolverGame(rules, table, state.players, None, objective, state.lead_tile)
    moves: list[SolverMove] = [as_seen(m) for m in legal_moves(rules, state)]
    # The exact search gets half of each budget; sampling has the rest.
    half = Budget(
        None if budget.deadline is None else (budget.deadline - budget.start) / 2,
        None if budget.node_limit is None else budget.node_limit // 2,
    )
    maxn = state.players > 2
    method = "expecti-max-n" if maxn else "expectimax"
    res = _value_moves(lambda: Root(rules, table, game, node, objective, half, maxn=maxn), moves,
                       Mode.EXPECT, objective, half, method, want_pv)
    if res.stopped is None or res.stopped is Stopped.INTERRUPT:
        return res
    # Too big to do exactly in the budget: average over sampled stock orders.
    budget.nodes += res.nodes
    rng = random.Random(seed)
    pool = sorted(state.stock)

    def deal() -> RoundState:
        order = list(pool)
        rng.shuffle(order)
        return RoundState(state.hands, tuple(order), state.layout, state.to_move, state.drawn,
                          lead_tile=state.lead_tile)

    out = _average(rules, deal, scores, target, objective, budget, samples, Mode.EXPECT,
                   "sampled stock orders", node.seat, res.nodes)
    out.notes.append("exact expectimax did not fit in half the budget")
    return out


# ----------------------------------------------------------------------
# Sample


def _solve_sample(
    rules: Rules, know: SeatView, objective: Objective, budget: Budget, seed: int, samples: int,
    multi: Multi = Multi.MAXN, enough: Enough | None = None, prior: Prior | None = None,
    deals: Sequence[WeightedDeal] | None = None, node_total: int | None = None,
    want_pv: bool = False, first_whole: bool = False,
) -> SolveResult:
    if min(know.target - s for s in know.scores) <= 0 and credit_ends_match(rules):
        raise InputError("the match is over: a score has reached the target")
    dealt: list[RoundState] = []
    if deals is not None:
        if not deals:
            raise InputError("no deal to average over")
        dealt = [d for d, _ in deals]
        listed = iter(dealt)
        res = _average(rules, lambda: next(listed), know.scores, know.target, objective,
                       budget, len(deals), Mode.SAMPLE, "every deal", know.seat, 0, multi,
                       weights=[w for _, w in deals])
    else:
        sampler = Sampler(know, random.Random(seed), prior=prior)

        def deal() -> RoundState:
            state = sampler.deal()
            dealt.append(state)
            return state

        res = _average(rules, deal, know.scores, know.target, objective, budget, samples,
                       Mode.SAMPLE, "sampled deals", know.seat, 0, multi, enough,
                       node_total=node_total, first_whole=first_whole)
    if want_pv and not res.interrupted:
        _lines_in_a_deal(rules, res, dealt, know, objective, budget, multi)
    return res


#: The least node cap a deal's principal variations get when the budget
#: is spent (they value the moves of one deal again, and then walk the
#: lines: about what the deal's own search took).
LINES_LEAST_NODES = 20_000


def _lines_in_a_deal(rules: Rules, res: SolveResult, dealt: Sequence[RoundState],
                     know: SeatView, objective: Objective, budget: Budget,
                     multi: Multi) -> None:
    """Give each move of a sampled answer the principal variation it has in
    one of the deals: among the deals whose search finished with the best
    move valued, the one in which its value lies nearest its average. Every
    deal goes on differently, so a line shows one way the round may go, its
    hidden tiles dealt at random. The search is capped like any other: by
    what is left of the budget's time and nodes, and by twice what that
    deal's own search took (a budget already spent leaves it that alone)."""
    best = next((m for m in res.moves if m.move == res.best), None)
    if best is None or not best.deals or not dealt:
        return
    mean = best.value if best.value is not None else sum(best.deals) / len(best.deals)
    solved = [i for i in range(min(len(best.deals), len(dealt), len(res.deal_nodes)))
              if not (best.spread and best.spread[i])]
    if not solved:
        return
    at = min(solved, key=lambda i: abs(best.deals[i] - mean))
    left = budget.left()
    if left is not None and left <= 0:
        left = None  # past the time: the deal's own nodes bound it
    cap = 2 * res.deal_nodes[at] + LINES_LEAST_NODES
    if budget.node_limit is not None and budget.nodes < budget.node_limit:
        cap = min(cap, budget.node_limit - budget.nodes)
    sub = _solve_perfect(rules, dealt[at], know.scores, know.target, objective,
                         Budget(left, cap), True, multi)
    if sub.stopped is not None:
        return
    lines = {as_seen(m.move): m.pv for m in sub.moves}
    res.moves = [dataclasses.replace(m, pv=lines.get(as_seen(m.move), m.pv))
                 for m in res.moves]
    res.deal = dealt[at]


#: Called after each sampled deal with every move's values so far (in deal
#: order; a move left out of a deal has no value for it) and the number of
#: deals solved: the moves worth valuing in the next deal, or None when the
#: answer is known well enough and sampling may stop.
Enough = Callable[[Mapping[SolverMove, Sequence[float]], int], Collection[SolverMove] | None]


def value_bound(rules: Rules, state: RoundState, objective: Objective) -> float:
    """How far from 0 any move's value at ``state`` can lie: every seat
    gains at most the best placement's score for each tile still to be
    placed and the largest settlement credit, and loses at most its whole
    hand (``deduct-own``); the match objective adds its bonus. The bound
    a deal whose search did not finish is counted with."""
    table = table_for(rules)
    left = sum(len(h) for h in state.hands) + len(state.stock)
    gain = table.max_place * left + settle_bonus_max(rules, table)
    loss = round_hand(table.r, sum(t.pips for t in table.tiles))
    bound = float(gain + loss)
    return bound + 2 * MATCH_WIN if objective is Objective.MATCH else bound


def _average(
    rules: Rules, deal: Callable[[], RoundState], scores: Sequence[int], target: int,
    objective: Objective, budget: Budget, samples: int, mode: Mode, method: str, seat: int,
    nodes: int, multi: Multi = Multi.MAXN, enough: Enough | None = None,
    weights: Sequence[float] | None = None, node_total: int | None = None,
    first_whole: bool = False,
) -> SolveResult:
    """Solve up to ``samples`` perfect-information states from ``deal`` and
    average each move's value. A draw is reported as ``d??``: its tile is
    different in every sample. With ``weights`` (one a deal, in proportion
    to its probability: every deal there is), the average is weighed by
    them and exact once all ``samples`` deals are solved.

    Without ``enough`` the node cap is shared by all the deals and sampling
    stops when it runs out (the deal then in search is not counted). With
    ``enough``, sampling stops when ``enough`` says so, or once the deals
    together have searched ``node_total`` nodes; only the moves it names are
    valued in the next deal. Every deal dealt then counts, whatever its
    search costs: it may search what is left of ``node_total``, and at
    least the node cap (so the deals together search less than
    ``node_total`` plus one cap), and another is dealt only while a deal as
    costly as the costliest so far would fit in that. A deal whose search
    does not finish in it is counted with what it found: a move it valued
    with its value, any other with the range :func:`value_bound` gives (its
    middle, and half its width in ``MoveValue.spread``), and sampling stops
    there."""
    vecs: dict[SolverMove, list[float]] = {}
    vec_deals: dict[SolverMove, int] = {}
    done = 0
    count = 1
    unfinished = 0
    took: list[int] = []
    past = False
    stop = _Stop()
    state = deal()
    order: list[SolverMove] = [as_seen(m) for m in legal_moves(rules, state)]
    per: dict[SolverMove, list[float]] = {m: [] for m in order}
    spread: dict[SolverMove, list[float]] = {m: [] for m in order}
    keep: Collection[SolverMove] | None = None
    with _stopping(stop):
        k = 0
        while done < max(1, samples):
            cap = budget.node_limit
            if enough is None:
                cap = None if cap is None else cap - budget.nodes
            elif cap is not None and node_total is not None:
                cap = max(cap, node_total - nodes)
                if k and cap < max(took):
                    break  # a deal as costly as one already seen would not fit
            if k:
                state = deal()
                count += 1
            k += 1
            left = budget.left()
            sub = _solve_perfect(rules, state, scores, target, objective, Budget(left, cap),
                                 False, multi, keep)
            nodes += sub.nodes
            budget.nodes += sub.nodes
            took.append(sub.nodes)
            bounded = False
            if sub.stopped is not None:
                if enough is not None and sub.stopped is Stopped.NODES:
                    bounded = True  # counted with what it found, below
                else:
                    stop.reason = sub.stopped
                    if not (first_whole and done == 0
                            and sub.stopped is not Stopped.INTERRUPT):
                        break
                    # Nothing to answer with yet: this deal is finished past
                    # the budget (Ctrl-C still ends it), and sampling stops
                    # there.
                    sub = _solve_perfect(rules, state, scores, target, objective,
                                         Budget(None, None), False, multi, keep)
                    nodes += sub.nodes
                    budget.nodes += sub.nodes
                    took[-1] += sub.nodes
                    if sub.stopped is not None:
                        stop.reason = sub.stopped
                        break
                    past = True
            w = 1.0 if weights is None else weights[done]
            wide = value_bound(rules, state, objective) if bounded else 0.0
            for mv in sub.moves:
                key: SolverMove = as_seen(mv.move)
                if keep is not None and key not in keep:
                    continue
                if mv.value is None:
                    if not bounded:
                        continue
                    per[key].append(0.0)  # the middle of -wide .. wide
                    spread[key].append(wide)
                    continue
                per[key].append(mv.value)
                spread[key].append(0.0)
                if mv.results is not None:
                    acc = vecs.setdefault(key, [0.0] * len(mv.results))
                    vec_deals[key] = vec_deals.get(key, 0) + 1
                    for i, x in enumerate(mv.results):
                        acc[i] += x if weights is None else w * x
            done += 1
            if past:
                break
            if bounded:
                unfinished = 1
                break
            if budget.left() is not None and (budget.left() or 0) <= 0:
                stop.reason = Stopped.TIME
                break
            if enough is not None:
                if node_total is not None and nodes >= node_total:
                    break
                keep = enough(per, done)
                if keep is None:
                    break
            elif budget.node_limit is not None and budget.nodes >= budget.node_limit:
                stop.reason = Stopped.NODES
                break
    values: list[_Row] = []
    for key in order:
        got = per[key]
        # Without weights each deal counts once; with them (every move is
        # valued in every deal then) by its probability. A max-n vector is
        # the average over the deals that gave one.
        mass = float(len(got)) if weights is None else sum(weights[:len(got)])
        vec = (tuple(x / (mass if weights is not None else vec_deals[key]) for x in vecs[key])
               if key in vecs and got else None)
        if weights is None:
            mean = sum(got) / len(got) if got else None
        else:
            mean = sum(w * v for w, v in zip(weights, got)) / mass if got else None
        values.append(_Row(key, mean, [key], vec))
    early = enough is not None and stop.reason is None
    whole = weights is not None and done == len(weights)  # every deal, wholly solved
    res = _finish(mode, objective, seat, values, whole, nodes, budget, method, samples=done,
                  stopped=stop.reason if done < samples and not early else None)
    res.moves = [dataclasses.replace(mv, deals=tuple(per[mv.move]),
                                     spread=tuple(spread[mv.move]) if unfinished else ())
                 for mv in res.moves]
    res.dealt = count
    res.unfinished = unfinished
    res.deal_nodes = tuple(took)
    if past:
        res.notes.append("the budget ran out before one deal was solved: the first deal was "
                         "solved whole past it, and its values are those of that deal alone")
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
    "solve",
]
