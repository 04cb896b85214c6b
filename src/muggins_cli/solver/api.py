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

What to search is one :class:`~muggins_cli.solver.plan.Plan` (mode,
objective, budgets, samples, seed...); the position is a state or a view,
with the scores and target that place it in its match. The modules behind
it: :mod:`.perfect` values the moves of one known deal, :mod:`.sampled`
averages over deals, :mod:`.result` is the answer's shape.

Budgets: ``time_limit`` (seconds) and ``node_limit``. When one runs out, or
on Ctrl-C (``KeyboardInterrupt``), ``solve`` returns what it has: the moves
whose values were finished (the others have ``value=None``), ``exact`` False
and ``stopped`` naming the reason.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from muggins_cli.engine.state import RoundState, as_seen, legal_moves
from muggins_cli.engine.table import table_for
from muggins_cli.engine.view import SeatView, view_of
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import Budget, Mode, Objective, Stopped
from muggins_cli.solver.game import SolverGame, SolverMove
from muggins_cli.solver.kernel import ready
from muggins_cli.solver.perfect import root_node, solve_perfect, value_moves
from muggins_cli.solver.plan import Enough, Multi, Plan
from muggins_cli.solver.result import MoveValue, SolveResult
from muggins_cli.solver.roots import Root
from muggins_cli.solver.sampled import Deals, Stakes, average, solve_sample


def solve(
    rules: Rules,
    position: RoundState | SeatView,
    plan: Plan | None = None,
    *,
    scores: Sequence[int] | None = None,
    target: int | None = None,
) -> SolveResult:
    """Value every legal move of ``position`` for the player to move, as
    ``plan`` says (by default: ``perfect``, ``points``, no budget).

    ``position`` is an engine :class:`RoundState` (``perfect``: its stock
    order is used; ``expect``: only its stock's contents; ``sample``: only
    what the mover sees, through :func:`~muggins_cli.engine.view.view_of`) or a
    :class:`SeatView` (``sample`` only). ``scores`` (default zeros) and
    ``target`` (default the rules' target) place the round in its match;
    a :class:`SeatView` carries its own.
    """
    if plan is None:
        plan = Plan()
    ready()  # compiled (or loaded) before the clock starts
    budget = Budget(plan.time_limit, plan.node_limit)
    if isinstance(position, SeatView):
        if plan.mode is not Mode.SAMPLE:
            raise InputError(
                f"mode {plan.mode.value} needs every hand; a mover's view has only the mover's")
        return solve_sample(rules, position, plan, budget)
    n = position.players
    sc = tuple(scores) if scores is not None else (0,) * n
    tg = target if target is not None else rules.target_for(n)
    if plan.mode is Mode.SAMPLE:
        know = view_of(rules, position, legal_moves(rules, position), sc, tg)
        return solve_sample(rules, know, plan, budget)
    if plan.mode is Mode.PERFECT:
        return solve_perfect(rules, position, sc, tg, plan.objective, budget, plan.pv, plan.multi)
    return _solve_expect(rules, position, Stakes(sc, tg, position.to_move), plan, budget)


def _solve_expect(rules: Rules, state: RoundState, stakes: Stakes, plan: Plan,
                  budget: Budget) -> SolveResult:
    """Hands known, the stock's order not: each draw a chance node over
    the tiles still in the stock (expectimax: alpha-beta on the margin for
    two players, max-n for more). Exact while it fits in half the budget;
    otherwise the average over sampled stock orders."""
    table = table_for(rules)
    node, _ = root_node(rules, table, state, stakes.scores, stakes.target, chance=True)
    objective = plan.objective
    game = SolverGame(rules, table, state.players, None, objective, state.lead_tile)
    moves: list[SolverMove] = [as_seen(m) for m in legal_moves(rules, state)]
    # The exact search gets half of each budget; sampling has the rest.
    half = Budget(
        None if budget.deadline is None else (budget.deadline - budget.start) / 2,
        None if budget.node_limit is None else budget.node_limit // 2,
    )
    maxn = state.players > 2
    method = "expecti-max-n" if maxn else "expectimax"
    res = value_moves(lambda: Root(rules, table, game, node, objective, half, maxn=maxn),
                      moves, Mode.EXPECT, objective, half, method, plan.pv)
    if res.stopped is None or res.stopped is Stopped.INTERRUPT:
        return res
    # Too big to do exactly in the budget: average over sampled stock orders
    # (each searched as max-n with three or four players), the nodes spent
    # on the exact search counted in the answer's.
    budget.nodes += res.nodes
    rng = random.Random(plan.seed)
    pool = sorted(state.stock)

    def deal() -> RoundState:
        order = list(pool)
        rng.shuffle(order)
        return RoundState(state.hands, tuple(order), state.layout, state.to_move, state.drawn,
                          lead_tile=state.lead_tile)

    orders = dataclasses.replace(plan, multi=Multi.MAXN, enough=None, node_total=None,
                                 first_whole=False)
    out = average(rules, orders, Deals(deal, "sampled stock orders"), stakes, budget)
    out.notes.append("exact expectimax did not fit in half the budget")
    return out


__all__ = [
    "Enough",
    "Mode",
    "MoveValue",
    "Multi",
    "Objective",
    "Plan",
    "SolveResult",
    "SolverMove",
    "Stopped",
    "solve",
]
