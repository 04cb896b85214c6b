"""The sampled views: each move's value as an average over deals.

``sample`` deals the tiles the mover has not seen (consistently with the
draws and passes seen) and ``expect``, past its budget, the stock's order;
each deal is solved as ``perfect`` (:func:`~.perfect.solve_perfect`) and
every move's values averaged. One loop does it (:func:`average`): search a
deal, count it, then one stop rule (:meth:`_Run.goes_on`) says whether
another is dealt. What the loop does is the :class:`~.plan.Plan`'s to say:
how many deals, the node budget shared by all of them or given to each,
whether an ``enough`` callback picks the moves worth valuing next.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from muggins_cli.engine.scoring import credit_ends_match
from muggins_cli.engine.state import RoundState, as_seen, legal_moves
from muggins_cli.engine.table import table_for
from muggins_cli.engine.turn import round_hand
from muggins_cli.engine.view import SeatView
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import MATCH_WIN, Budget, Objective, Stopped
from muggins_cli.solver.game import SolverMove, settle_bonus_max
from muggins_cli.solver.knowledge import Sampler
from muggins_cli.solver.perfect import solve_perfect
from muggins_cli.solver.plan import Plan
from muggins_cli.solver.result import Row, SolveResult, Stop, finish, stopping

#: The least node cap a deal's principal variations get when the budget
#: is spent (they value the moves of one deal again, and then walk the
#: lines: about what the deal's own search took).
LINES_LEAST_NODES = 20_000


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


@dataclass(frozen=True)
class Deals:
    """Where the deals of an average come from."""

    #: The next deal (called once for each deal searched).
    deal: Callable[[], RoundState]
    #: What the answer says it averaged over (``SolveResult.method``).
    method: str
    #: One a deal, in proportion to its probability (every deal there is:
    #: the average is then exact once all are solved); None: each deal
    #: counts once.
    weights: Sequence[float] | None = None


@dataclass(frozen=True)
class Stakes:
    """Where the deals are played: the match's scores and target, and the
    seat whose moves are valued."""

    scores: Sequence[int]
    target: int
    seat: int


class _Tally:
    """Each move's values deal by deal (as the mover sees the move: a draw
    is ``d??``, its tile different in every deal), and the sums its
    average is made of."""

    def __init__(self, order: list[SolverMove], weights: Sequence[float] | None) -> None:
        self.order = order
        self.weights = weights
        self.per: dict[SolverMove, list[float]] = {m: [] for m in order}
        #: How far either way each value may lie (0 for a deal solved).
        self.spread: dict[SolverMove, list[float]] = {m: [] for m in order}
        self.vecs: dict[SolverMove, list[float]] = {}
        self.vec_deals: dict[SolverMove, int] = {}
        self.done = 0

    def count(self, sub: SolveResult, keep: Collection[SolverMove] | None,
              wide: float | None) -> None:
        """One deal's values, those of the moves in ``keep`` (every move
        without it). With ``wide``, the deal's search did not finish: a
        move it left without a value counts as the middle of ``-wide ..
        wide``, and how far its value may lie from it."""
        w = 1.0 if self.weights is None else self.weights[self.done]
        for mv in sub.moves:
            key: SolverMove = as_seen(mv.move)
            if keep is not None and key not in keep:
                continue
            if mv.value is None:
                if wide is not None:
                    self.per[key].append(0.0)
                    self.spread[key].append(wide)
                continue
            self.per[key].append(mv.value)
            self.spread[key].append(0.0)
            if mv.results is not None:
                acc = self.vecs.setdefault(key, [0.0] * len(mv.results))
                self.vec_deals[key] = self.vec_deals.get(key, 0) + 1
                for i, x in enumerate(mv.results):
                    acc[i] += x if self.weights is None else w * x
        self.done += 1

    def rows(self) -> list[Row]:
        """Each move's average. Without weights each deal counts once; with
        them (every move is valued in every deal then) by its probability.
        A max-n vector is the average over the deals that gave one."""
        weights = self.weights
        values: list[Row] = []
        for key in self.order:
            got = self.per[key]
            mass = float(len(got)) if weights is None else sum(weights[:len(got)])
            vec = (tuple(x / (mass if weights is not None else self.vec_deals[key])
                         for x in self.vecs[key])
                   if key in self.vecs and got else None)
            if weights is None:
                mean = sum(got) / len(got) if got else None
            else:
                mean = sum(w * v for w, v in zip(weights, got)) / mass if got else None
            values.append(Row(key, mean, [key], vec))
        return values


class _Run:
    """One average under way: the deals counted so far, the nodes each one's
    search took, and why the loop stopped. Every node searched is counted
    in one place, :meth:`_search`, into the budget of the whole answer."""

    def __init__(self, rules: Rules, plan: Plan, deals: Deals, stakes: Stakes, budget: Budget,
                 first: RoundState) -> None:
        self.rules = rules
        self.plan = plan
        self.stakes = stakes
        self.budget = budget
        self.tally = _Tally([as_seen(m) for m in legal_moves(rules, first)], deals.weights)
        self.took: list[int] = []
        self.keep: Collection[SolverMove] | None = None
        self.stop = Stop()
        self.dealt = 1
        self.unfinished = False
        self.past = False

    def _search(self, state: RoundState, budget: Budget) -> SolveResult:
        t = self.stakes
        sub = solve_perfect(self.rules, state, t.scores, t.target, self.plan.objective, budget,
                            False, self.plan.multi, self.keep)
        self.budget.nodes += sub.nodes
        self.took[-1] += sub.nodes
        return sub

    def cap(self) -> int | None:
        """The node cap of the next deal's search. Without ``enough`` the
        plan's cap is shared by every deal: what is left of it. With it,
        each deal gets the cap, or what is left of ``node_total`` when that
        is more: every deal dealt counts, whatever its search costs."""
        plan = self.plan
        if plan.node_limit is None:
            return None
        if plan.enough is None:
            return plan.node_limit - self.budget.nodes
        if plan.node_total is not None:
            return max(plan.node_limit, plan.node_total - self.budget.nodes)
        return plan.node_limit

    def deal(self, state: RoundState) -> bool:
        """Search ``state`` and count it; whether another deal follows.

        A deal whose search stopped is not counted (the answer stops, with
        the reason), except: with ``enough``, one cut by its node cap counts
        with what it found and the range :func:`value_bound` gives the rest;
        and with ``first_whole``, a first deal cut by the budget is solved
        whole past it (Ctrl-C still ends it), and is the only one."""
        self.took.append(0)
        sub = self._search(state, Budget(self.budget.left(), self.cap()))
        wide = None
        if sub.stopped is Stopped.NODES and self.plan.enough is not None:
            wide = value_bound(self.rules, state, self.plan.objective)
        elif sub.stopped is not None:
            self.stop.reason = sub.stopped
            if not (self.plan.first_whole and self.tally.done == 0
                    and sub.stopped is not Stopped.INTERRUPT):
                return False
            sub = self._search(state, Budget(None, None))
            if sub.stopped is not None:
                self.stop.reason = sub.stopped
                return False
            self.past = True
        self.tally.count(sub, self.keep, wide)
        self.unfinished = wide is not None
        return self.goes_on()

    def goes_on(self) -> bool:
        """The stop rule, after each deal counted. Sampling stops after a
        deal solved past the budget or left unfinished; when the time is
        up; without ``enough``, when the shared node cap is spent; with it,
        once the deals have searched ``node_total`` nodes, or when
        ``enough`` says so (else it names the moves to value next); after
        ``samples`` deals; and, with ``enough`` and ``node_total``, when a
        deal as costly as the costliest so far would not fit in its cap."""
        plan, budget = self.plan, self.budget
        if self.past or self.unfinished:
            return False
        left = budget.left()
        if left is not None and left <= 0:
            self.stop.reason = Stopped.TIME
            return False
        if plan.enough is not None:
            if plan.node_total is not None and budget.nodes >= plan.node_total:
                return False
            self.keep = plan.enough(self.tally.per, self.tally.done)
            if self.keep is None:
                return False
        elif plan.node_limit is not None and budget.nodes >= plan.node_limit:
            self.stop.reason = Stopped.NODES
            return False
        if self.tally.done >= max(1, plan.samples):
            return False
        if plan.enough is not None and plan.node_total is not None:
            cap = self.cap()
            return cap is None or cap >= max(self.took)
        return True

    def answer(self, method: str) -> SolveResult:
        """The average as an answer. It is exact when every deal there is
        (``weights``) was solved; it names why it stopped when it stopped
        short of ``samples`` deals for a budget or Ctrl-C (not when
        ``enough`` ended it)."""
        plan, tally = self.plan, self.tally
        early = plan.enough is not None and self.stop.reason is None
        whole = tally.weights is not None and tally.done == len(tally.weights)
        res = finish(plan.mode, plan.objective, self.stakes.seat, tally.rows(), whole,
                     self.budget.nodes, self.budget, method, samples=tally.done,
                     stopped=self.stop.reason if tally.done < plan.samples and not early
                     else None)
        res.moves = [dataclasses.replace(
            mv, deals=tuple(tally.per[mv.move]),
            spread=tuple(tally.spread[mv.move]) if self.unfinished else ())
            for mv in res.moves]
        res.dealt = self.dealt
        res.unfinished = int(self.unfinished)
        res.deal_nodes = tuple(self.took)
        if self.past:
            res.notes.append("the budget ran out before one deal was solved: the first deal "
                             "was solved whole past it, and its values are those of that "
                             "deal alone")
        return res


def average(rules: Rules, plan: Plan, deals: Deals, stakes: Stakes, budget: Budget
            ) -> SolveResult:
    """Solve up to ``plan.samples`` deals from ``deals`` as ``perfect`` and
    average each move's value (see :class:`_Run` for when it stops and
    what counts). ``budget`` is the whole answer's: its nodes count every
    deal's search."""
    state = deals.deal()
    run = _Run(rules, plan, deals, stakes, budget, state)
    with stopping(run.stop):
        while run.deal(state):
            state = deals.deal()
            run.dealt += 1
    return run.answer(deals.method)


def solve_sample(rules: Rules, know: SeatView, plan: Plan, budget: Budget) -> SolveResult:
    """The mover's view: the unseen tiles dealt ``plan.samples`` times by
    the :class:`~.knowledge.Sampler` (or each of ``plan.deals`` once), then
    the principal variations played in one of those deals."""
    if min(know.target - s for s in know.scores) <= 0 and credit_ends_match(rules):
        raise InputError("the match is over: a score has reached the target")
    stakes = Stakes(know.scores, know.target, know.seat)
    dealt: list[RoundState] = []
    if plan.deals is not None:
        if not plan.deals:
            raise InputError("no deal to average over")
        dealt = [d for d, _ in plan.deals]
        listed = iter(dealt)
        every = dataclasses.replace(plan, samples=len(dealt), enough=None, node_total=None,
                                    first_whole=False)
        res = average(rules, every, Deals(lambda: next(listed), "every deal",
                                          [w for _, w in plan.deals]), stakes, budget)
    else:
        sampler = Sampler(know, random.Random(plan.seed), prior=plan.prior)

        def deal() -> RoundState:
            state = sampler.deal()
            dealt.append(state)
            return state

        res = average(rules, plan, Deals(deal, "sampled deals"), stakes, budget)
    if plan.pv and not res.interrupted:
        _lines_in_a_deal(rules, res, dealt, plan, stakes, budget)
    return res


def _lines_in_a_deal(rules: Rules, res: SolveResult, dealt: Sequence[RoundState],
                     plan: Plan, stakes: Stakes, budget: Budget) -> None:
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
    sub = solve_perfect(rules, dealt[at], stakes.scores, stakes.target, plan.objective,
                        Budget(left, cap), True, plan.multi)
    if sub.stopped is not None:
        return
    lines = {as_seen(m.move): m.pv for m in sub.moves}
    res.moves = [dataclasses.replace(m, pv=lines.get(as_seen(m.move), m.pv))
                 for m in res.moves]
    res.deal = dealt[at]
