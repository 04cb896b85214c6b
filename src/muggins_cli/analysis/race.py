"""How sure a sampled weighing is: the deals' values of each move, paired
deal by deal, give a play's cost a range (:func:`bounds`) and a verdict
(:func:`judge`); the race (:func:`racer`) decides after each deal whether
the verdict is known and which moves are still worth valuing; and the
standard errors the reports print beside each value come from the same
deals (:func:`cost_error`, :func:`value_error`). The reasons for the
numbers are in :mod:`.weigh`'s docstring.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from muggins_cli.analysis.plays import same_move
from muggins_cli.analysis.verdicts import (
    CLOSE,
    DROP_Z,
    FINE,
    LOOK_RATIO,
    RARE_SWING,
    UNCERTAIN,
    WeighOptions,
)
from muggins_cli.engine.state import PassTurn, Place, as_seen

if TYPE_CHECKING:  # the solver itself (Numba) is imported only to weigh a turn
    from muggins_cli.solver import Enough, MoveValue, SolveResult, SolverMove


def looks(first: int, last: int) -> list[int]:
    """The counts of deals at which a turn's verdict is looked at: ``first``,
    then each :data:`.verdicts.LOOK_RATIO` times the last (rounded, at least one
    more), and ``last``."""
    out = []
    k = max(1, first)
    while k < last:
        out.append(k)
        k = max(k + 1, round(k * LOOK_RATIO))
    out.append(last)
    return out


def settled(verdict: str, low: float, high: float, done: int,
            options: WeighOptions) -> bool:
    """Whether a cost with ``verdict``, known to lie from ``low`` to
    ``high`` after ``done`` deals, needs no more: it has a verdict
    (:func:`judge`), and when it is costly, lies on one side of ``blunder``
    too, unless it has had ``blunder_deals`` deals."""
    if verdict in (FINE, CLOSE):
        return True
    if verdict == UNCERTAIN:
        return False
    return (low >= options.blunder or high < options.blunder
            or done >= options.blunder_deals)


class Race:
    """When a sampled decision has had enough deals (module docstring), and
    which moves are still worth valuing: the play made, the leader, and
    every move not yet clearly below the leader. Called as an
    :data:`~muggins_cli.solver.api.Enough`; ``dropped`` keeps, for each
    move it stopped valuing, the deals it had been valued in and how far
    below the leader it was known to lie then (the leader's lead less
    :data:`.verdicts.DROP_Z` standard errors), which is all that is known of
    it after."""

    def __init__(self, played: SolverMove, options: WeighOptions) -> None:
        self.seen: SolverMove = as_seen(played)
        self.options = options
        self.asked = set(looks(options.min_deals, options.samples))
        self.dropped: dict[SolverMove, tuple[int, float]] = {}

    def __call__(self, per: Mapping[SolverMove, Sequence[float]],
                 done: int) -> Collection[SolverMove] | None:
        seen, options = self.seen, self.options
        if seen not in per:  # a lead names its orientation; the solver's may differ
            seen = self.seen = next((m for m in per if same(m, seen)), seen)
        mine = per.get(seen)
        if mine is None or len(mine) < done:
            return None  # not a move here: the caller says so
        # The play made first, then the others best first (the leader
        # second): a deal whose search is cut short has valued those.
        alive = sorted((m for m, vals in per.items() if len(vals) == done),
                       key=lambda m: (m != seen, -sum(per[m])))
        if done >= options.samples:
            return None
        if done not in self.asked:
            return alive
        verdict, low, high, leader = judge({m: per[m] for m in alive}, seen, options)
        if settled(verdict, low, high, done, options):
            return None
        keep = []
        for m in alive:
            gap, _ = _paired(per[leader], per[m])
            below = gap - margin(per[leader], per[m], DROP_Z)
            if m in (seen, leader) or below <= 0:
                keep.append(m)
            else:
                self.dropped[m] = (done, below)
        return keep


def racer(played: SolverMove, options: WeighOptions) -> Race:
    """A new :class:`Race` for a decision whose play made is ``played``."""
    return Race(played, options)


def judge(per: Mapping[SolverMove, Sequence[float]], played: SolverMove,
          options: WeighOptions, spread: Mapping[SolverMove, Sequence[float]] | None = None
          ) -> tuple[str, float, float, SolverMove]:
    """The verdict on ``played`` from each move's values in the same deals
    (:meth:`WeighOptions.band`), the range its cost lies in at ``z``
    standard errors (:func:`bounds`) and the leader."""
    low, high, leader = bounds(per, played, options.z, spread)
    verdict = options.band(low, high)
    if verdict == UNCERTAIN and options.close_z != options.z:
        near = bounds(per, played, options.close_z, spread)[:2]
        verdict = options.band(low, high, near)
    return verdict, low, high, leader


def bounds(per: Mapping[SolverMove, Sequence[float]], played: SolverMove,
           z: float, spread: Mapping[SolverMove, Sequence[float]] | None = None
           ) -> tuple[float, float, SolverMove]:
    """Where the cost of ``played`` lies, from each move's values in the same
    deals: above ``low`` (the leader's margin over it, less ``z`` standard
    errors; 0 when it leads) and below ``high`` (the largest margin any move
    might have over it, plus ``z`` standard errors; at least 0), and the
    leader. A play that leads by a hair is not "fine" until the runner-up is
    known not to be better by a threshold. ``spread`` (``MoveValue.spread``)
    widens both by how far a deal counted with a bound may lie from its
    middle, averaged over the deals."""
    mine = per[played]
    k = len(mine)
    means = {m: sum(v) / k for m, v in per.items() if len(v) == k}
    leader = max(means, key=lambda m: means[m])
    cost, _ = _paired(per[leader], mine)
    low = (max(0.0, cost - margin(per[leader], mine, z) - _slack(spread, leader, played, k))
           if leader != played else 0.0)
    high = 0.0
    for m in means:
        if m != played:
            gap, _ = _paired(per[m], mine)
            high = max(high, gap + margin(per[m], mine, z) + _slack(spread, m, played, k))
    return low, high, leader


def _slack(spread: Mapping[SolverMove, Sequence[float]] | None, a: SolverMove,
           b: SolverMove, k: int) -> float:
    """How far the mean of ``a - b`` over ``k`` deals may lie from its
    deals' middles, for the deals counted with a bound."""
    if not spread:
        return 0.0
    return (sum(spread.get(a, ())[:k]) + sum(spread.get(b, ())[:k])) / k


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` deal by deal."""
    diffs = [x - y for x, y in zip(a, b)]
    k = len(diffs)
    mean = sum(diffs) / k
    if k < 2:
        return mean, 0.0
    return mean, statistics.stdev(diffs) / math.sqrt(k)


def margin(a: Sequence[float], b: Sequence[float], z: float) -> float:
    """How far the mean of ``a - b`` (deal by deal) may lie from the truth
    at ``z`` standard errors, made honest for few deals: the normal
    quantile becomes Student's (:func:`student`), and the standard error is
    at least :data:`.verdicts.RARE_SWING` over the deals (a difference the deals so
    far happen not to show: two moves alike in twelve deals may differ in
    the thirteenth by a whole round's points)."""
    _, se = _paired(a, b)
    k = len(a)
    return student(z, k - 1) * math.hypot(se, RARE_SWING / max(1, k))


def student(z: float, df: int) -> float:
    """The quantile of Student's t with ``df`` degrees of freedom that has
    the normal ``z``'s tail (Hill's expansion to the third order: within
    0.01 of the exact quantile from 7 degrees of freedom, the first look's,
    for ``z`` up to 2.5, and 0.07 at 3.5; a little below it with fewer;
    below 2 degrees of freedom, twice ``z``)."""
    if df < 2:
        return 2 * z
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def counted(samples: int) -> Enough:
    """Every move valued in each deal, ``samples`` deals."""
    def enough(per: Mapping[SolverMove, Sequence[float]],
               done: int) -> Collection[SolverMove] | None:
        return None if done >= samples else list(per)

    return enough


def same(m: SolverMove, move: SolverMove) -> bool:
    """The same decision: a placement of the same tile on the same end, a
    pass, or a draw (its tile unseen)."""
    if isinstance(move, Place):
        return isinstance(m, Place) and same_move(m, move)
    return type(as_seen(m)) is type(as_seen(move))


def move_of(result: SolveResult, move: SolverMove | PassTurn | Place) -> MoveValue | None:
    return next((mv for mv in result.moves if same(mv.move, move)), None)


def value_of(result: SolveResult, move: SolverMove | PassTurn | Place) -> float | None:
    mv = move_of(result, move)
    return mv.value if mv is not None else None


def cost_error(result: SolveResult, move: SolverMove | PassTurn | Place) -> float | None:
    """The standard error of what ``move`` gave away against the best move,
    from the deals both were valued in (paired, so what the deals share
    cancels); when ``move`` is the best, of its lead over the runner-up
    valued in as many deals (by which another move might yet prove the
    better: its cost is 0 as measured, not surely). A deal counted with a
    bound adds how far the mean may lie from the deals' middles. None for
    an exact answer or fewer than two deals."""
    played = move_of(result, move)
    best = move_of(result, result.best) if result.best is not None else None
    if result.exact or played is None or best is None or len(played.deals) < 2:
        return None
    if best is played:
        rivals = [mv for mv in result.moves
                  if mv is not played and len(mv.deals) == len(played.deals)]
        if not rivals:
            return 0.0
        runner = max(rivals, key=lambda mv: statistics.fmean(mv.deals))
        return pair_error(runner, played)
    return pair_error(best, played)


def pair_error(a: MoveValue, b: MoveValue) -> float:
    """The standard error of ``a``'s lead over ``b`` in the deals ``b`` was
    valued in, widened by what deals counted with a bound leave open."""
    k = len(b.deals)
    spread = {a.move: a.spread, b.move: b.spread}
    return _paired(a.deals, b.deals)[1] + _slack(spread, a.move, b.move, k)


def mean_error(mv: MoveValue) -> float | None:
    """The standard error of a value averaged over its deals, widened by
    what deals counted with a bound leave open (None from fewer than two
    deals)."""
    k = len(mv.deals)
    if k < 2:
        return None
    return statistics.stdev(mv.deals) / math.sqrt(k) + sum(mv.spread) / k


def value_error(result: SolveResult, move: SolverMove | PassTurn | Place | None) -> float | None:
    """The standard error of ``move``'s value over its deals; None for an
    exact answer, fewer than two deals or no such move."""
    mv = move_of(result, move) if move is not None else None
    if result.exact or mv is None:
        return None
    return mean_error(mv)
