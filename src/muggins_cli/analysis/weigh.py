"""Every turn weighed by the solver: what the play made cost over the round,
and what the turn's draws gave or took compared with the average draw.

The immediate analysis (:mod:`.plays`) can say "you missed 15 now"; the
solver can say "this play cost you 8 points by the end of the round", which
is what a player studying a match wants to know. Values are the solver's
(:func:`muggins_cli.solver.solve`, ``points`` objective): for two players
the mover's points minus the opponent's from the decision to the round's
end, settlement included; for three or four, the mover's points minus the
opponents' average, the others taken as one side playing against the mover
(the paranoid reduction of :mod:`muggins_cli.solver.kernel`: max-n could not
finish the round's first turns). "Points lost" is then what the play gave
away of that margin against the best play.

How many deals: when the unseen tiles can be dealt in at most ``exact``
ways (late in a round, or three or four players' small hands), every deal
is valued, each weighed as the sampler would deal it, and the turn is
exact. Otherwise a turn is dealt at least ``min_deals`` times, and then
more until the cost of the play made has a verdict (:func:`judge`): its
range at ``z`` standard errors below ``costly`` (fine) or above it (a
mistake; and on one side of ``blunder`` too while the turn has had fewer
than ``blunder_deals`` deals: past that, a turn known to be costly stays
"at least a mistake"), or its range at ``close_z`` standard errors within
``close`` points of ``costly`` either way (``close``: the indifference
zone, so that a cost on the line ends too). The question is put only at a
few counts of deals, each half as many again as the last (:func:`looks`):
asked after every deal, a cost sitting on a threshold would sooner or
later stray past ``z`` errors by chance, and two seeds could then call one
turn fine and a mistake. The deals stop at ``samples`` or once the deals'
searches have taken the turn's ``work`` nodes (the same answer on any
machine), whichever comes first; every deal dealt counts (a costly one is
searched with what is left of the work, and one that does not finish even
then with a bound on its values). Moves that are clearly worse than the
leader (:data:`DROP_Z` standard errors) stop being valued (a race: the
deals go to the moves that might be best). A turn still without a verdict
then is ``uncertain``. Neither ``close`` nor ``uncertain`` is warned about,
and the reports say which a turn is.

Every value the solver gives from sampled deals comes with its standard
error (``error``, ``value_error``, ``best_value_error``, ``luck_error``); an
exact one has none. Tried and not kept, because they did not pay for
their time here (bench/bench_verdicts.py and the commit messages have the
figures): the value of a greedy playout of the same deal, or of the deal
with its stock cut to a few tiles, as a control variate (their correlation
with a deal's cost was 0.0 to 0.6 and 0.5 to 0.7), and the hands and the
first tiles of the stock as regressors or strata (they explain almost none
of a deal's cost: a perfect-information search on a deal moves by tens of
points with any tile).

Two views:

- ``sample`` (default): only what the mover could know at the table (own
  hand, the layout, hand sizes, what draws and passes showed). The unseen
  tiles are dealt ``samples`` times and each deal is solved exactly; a
  play's value is its average. This judges the decision the player could
  actually make.
- ``perfect``: every hand and the stock order, as the record shows them.
  This judges the play against what was really lying in the other hands.

Luck is always taken from the mover's view, whatever the mode: it compares
the value the mover held after the turn's draws with the value of drawing
before they saw the tiles (the average draw), so it is what the draws gave
or took, and nothing the player chose.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from muggins_cli.analysis.plays import (
    TurnRef,
    named_best,
    play_text,
    same_move,
    written,
    written_halves,
)
from muggins_cli.engine.state import Pass, Place, UnseenDraw, as_seen
from muggins_cli.engine.view import moves_seen
from muggins_cli.errors import MugginsError
from muggins_cli.notation.model import Diagnostic, Match, Severity
from muggins_cli.replay.position import Decision, Position
from muggins_cli.replay.replay import decisions
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.solver.knowledge import every_deal

if TYPE_CHECKING:  # the solver itself (Numba) is imported only to weigh a turn
    from muggins_cli.solver import Enough, MoveValue, SolveResult, SolverMove

#: The solver's budget per search by default: enough for every position of a
#: two-player round (about three seconds at worst here), and a cap on the
#: rare position with many hidden tiles that would otherwise take a minute.
DEFAULT_NODES = 1_000_000
FINE, CLOSE, MISTAKE, BLUNDER, UNCERTAIN = "fine", "close", "mistake", "blunder", "uncertain"
#: The most deals one decision may take in the ``sample`` view by default.
DEFAULT_SAMPLES = 1024
#: The fewest deals a decision is judged on: a few deals of a cost with
#: long tails can show a spread far below its own (README, "The solver's
#: verdicts").
MIN_DEALS_JUDGED = 16
#: Standard errors between a cost and a threshold before the verdict is
#: taken as known, at each of :func:`looks`.
DEFAULT_Z = 2.5
#: Each count of deals at which a turn's verdict is looked at is this many
#: times the last.
LOOK_RATIO = 1.5
#: Standard errors a move must lie below the leader before it stops being
#: valued: more than ``z``, for a move dropped is never valued again, and
#: dropping the best one by chance turns a costly play into a fine one.
DROP_Z = 3.5
#: Points by which one more deal may change a difference between two moves
#: that the deals so far have not shown (:func:`margin`).
RARE_SWING = 30.0
#: Points either side of ``costly`` within which a cost known to lie there
#: is a verdict of its own, ``close`` (the indifference zone): a cost near
#: the line varies by up to 35 points from deal to deal, so 1,024 deals
#: pin it to about ±2 at ``z`` standard errors (README, "The solver's
#: verdicts", has the figures).
DEFAULT_CLOSE = 2.5
#: Standard errors the range a ``close`` cost is read from lies either side
#: of it: fewer than ``z``, for a cost near the line is neither warned
#: about nor called fine, whichever side of it the truth is.
DEFAULT_CLOSE_Z = 1.0
#: Value every deal when there are at most this many (``exact``).
DEFAULT_EXACT = 512
#: The nodes all of one turn's searches may take, by players (``work``):
#: the choice's deals about a second and a half of search for two players
#: (4 million nodes), four for three or four (12 million: their searches
#: cost more and their records have fewer turns), and what the luck's deals
#: took before there was a bound on a whole turn, one deal's node cap.
DEFAULT_WORK = {2: 5_000_000, 3: 13_000_000, 4: 13_000_000}
#: Deals past which a turn known to be costly is not dealt further to tell
#: a mistake from a blunder.
DEFAULT_BLUNDER_DEALS = 64
#: Deals of the position before a turn's draws, for its luck.
DEFAULT_LUCK_DEALS = 32
#: The share of a turn's work one of its luck's searches may take (one
#: part in this many) when there is no node cap (``nodes`` 0); else a cap.
LUCK_SHARE = 5
#: A sampled value averaged over fewer deals than this is too rough to judge
#: a play by; the turn is reported as not weighed instead.
MIN_DEALS = 4

COSTLY_PLAY = "costly-play"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal play at a weighed decision, as the solver valued it: what
    a study page lists beside the play made, so that a player sees what
    else was on and what each was worth.

    ``cost`` is what it gives away against the best play (0 for the best)
    and ``error`` the standard error of that cost, paired over the deals
    both were valued in (None when exact); ``value_error`` is the standard
    error of ``value`` itself. ``deals`` counts the deals it was valued in
    (0 when exact; fewer than the best's when the race stopped valuing it).
    ``line`` is the solver's best line after it (``MoveValue.pv`` without
    the move), empty when the solver gives none.
    """

    move: SolverMove
    value: float
    cost: float
    error: float | None = None
    value_error: float | None = None
    deals: int = 0
    line: tuple[SolverMove, ...] = ()


@dataclass(frozen=True, slots=True)
class WeighOptions:
    """How to weigh: ``perfect`` for the all-seeing view, the deals to
    average (``samples``), a node cap per search (``nodes``: see
    :meth:`node_limit`)
    and the seed of the deals (each turn's deals are seeded from it and the
    turn's line, so a turn's value does not depend on the turns around it).
    A play that gives away ``costly`` points or more is reported
    (``costly-play``) and marked ``?``, ``blunder`` or more ``??``; one
    known to give away within ``close`` points of ``costly`` either way is
    ``close``. ``lines``: also the solver's line after each candidate
    (what the study page shows; ``analyze`` does not, and saves the search).
    """

    perfect: bool = False
    samples: int = DEFAULT_SAMPLES
    nodes: int | None = None
    seed: int = 0
    costly: float = 5.0
    blunder: float = 15.0
    min_deals: int = MIN_DEALS_JUDGED
    z: float = DEFAULT_Z
    exact: int = DEFAULT_EXACT
    work: int | None = None
    blunder_deals: int = DEFAULT_BLUNDER_DEALS
    luck_deals: int = DEFAULT_LUCK_DEALS
    close: float = DEFAULT_CLOSE
    close_z: float = DEFAULT_CLOSE_Z
    lines: bool = False

    def node_limit(self, players: int) -> int | None:
        """The cap per search (in the sample view, per deal): ``nodes``, 0
        for none, or by default :data:`DEFAULT_NODES`."""
        if self.nodes is None:
            return DEFAULT_NODES
        return self.nodes or None

    def work_limit(self, players: int) -> int | None:
        """The nodes all of one turn's deals may search: ``work``, 0 for
        no bound, or by default :data:`DEFAULT_WORK` for the players, grown
        in proportion to ``samples`` above :data:`DEFAULT_SAMPLES` (so that
        one option, ``--max-samples``, buys more certainty at more time)."""
        if self.work is None:
            base = DEFAULT_WORK.get(players, DEFAULT_WORK[4])
            return base * max(self.samples, DEFAULT_SAMPLES) // DEFAULT_SAMPLES
        return self.work or None

    def verdict(self, cost: float, error: float | None) -> str:
        """The verdict of a cost give or take ``z`` standard errors, and
        ``close_z`` for the zone (an exact cost has no error):
        :meth:`band`."""
        e = error or 0.0
        return self.band(cost - self.z * e, cost + self.z * e,
                         (cost - self.close_z * e, cost + self.close_z * e))

    def band(self, low: float, high: float,
             near: tuple[float, float] | None = None) -> str:
        """The verdict of a cost known to lie between ``low`` and ``high``
        (``z`` standard errors either side): ``blunder`` from ``blunder``
        up, ``mistake`` from ``costly`` up (at least a mistake: it may reach
        ``blunder``), ``fine`` below ``costly``; else ``close`` when ``near``
        (the range at ``close_z`` standard errors, by default the same) lies
        within ``close`` points of ``costly`` either way, and ``uncertain``
        when none of these holds (the deals or the work ran out first)."""
        if low >= self.blunder:
            return BLUNDER
        if low >= self.costly:
            return MISTAKE
        if high < self.costly:
            return FINE
        lo, hi = near if near is not None else (low, high)
        if lo >= self.costly - self.close and hi <= self.costly + self.close:
            return CLOSE
        return UNCERTAIN

    @property
    def mode(self) -> str:
        return "perfect" if self.perfect else "sample"


@dataclass(frozen=True, slots=True)
class Weighed(TurnRef):
    """One turn as the solver sees it.

    ``choices`` counts the mover's legal moves at the decision (after the
    turn's draws). ``value`` is what the play made was worth, ``best_value``
    what the best play (``best``, in MGN) was worth; both None when the
    turn could not be weighed (``why`` says why). ``luck`` is the value
    after the turn's draws minus the value of drawing before them (the
    mover's view), None for a turn without draws or when it could not be
    measured. ``exact`` is True when every value is exact (perfect view,
    search finished, or every deal of the unseen tiles valued); ``samples``
    the deals averaged (sample view), and ``error`` the standard error of
    ``cost`` over them (paired deal by deal; when the play made leads, of
    its lead over the runner-up, which bounds what it may truly have cost).
    ``value_error``, ``best_value_error`` and ``luck_error`` are the
    standard errors of ``value``, ``best_value`` and ``luck`` (None when
    exact or not measured). ``nodes`` and ``solved`` are the work the turn
    took: the nodes searched and the deals searched, its luck's included;
    ``dealt`` the deals dealt at random (a listing of every deal aside),
    ``dropped`` how many of those were not counted (none: a deal is never
    put aside for its cost; the count is kept to show it), and
    ``unfinished`` those whose search did not finish within the turn's work
    and were counted with a bound on their values (its width is in the
    range and the errors).
    ``verdict`` is what the cost says of the play by the thresholds
    (:meth:`WeighOptions.band`), read from the range ``cost_low`` to
    ``cost_high`` the cost was found in (``z`` standard errors either side,
    and every other move's lead over the play made); None when there was no
    choice or no answer. ``candidates`` are every legal play the search
    valued, best first (:class:`Candidate`).
    """

    choices: int
    value: float | None
    best: str | None
    best_value: float | None
    luck: float | None
    exact: bool
    samples: int
    why: str | None = None
    error: float | None = None
    verdict: str | None = None
    value_error: float | None = None
    best_value_error: float | None = None
    luck_error: float | None = None
    cost_low: float | None = None
    cost_high: float | None = None
    nodes: int = 0
    solved: int = 0
    candidates: tuple[Candidate, ...] = ()
    dealt: int = 0
    unfinished: int = 0
    dropped: int = 0

    @property
    def costly(self) -> bool:
        """Judged a mistake or a blunder, beyond the uncertainty."""
        return self.verdict in (MISTAKE, BLUNDER)

    @property
    def weighed(self) -> bool:
        return self.value is not None and self.best_value is not None

    @property
    def unforced(self) -> bool:
        return self.choices > 1

    @property
    def cost(self) -> float:
        """Points the play made gave away against the best play (0 or more)."""
        if self.value is None or self.best_value is None:
            return 0.0
        return max(0.0, self.best_value - self.value)


@dataclass(frozen=True, slots=True)
class _Searched:
    """An answer (or why there is none) and the work it took: the nodes
    searched and the deals searched, a listing of every deal given up on
    included; the deals dealt at random and, of those, the ones counted
    with a bound."""

    result: SolveResult | None
    why: str | None
    nodes: int = 0
    solved: int = 0
    dealt: int = 0
    unfinished: int = 0
    counted: int = 0


def looks(first: int, last: int) -> list[int]:
    """The counts of deals at which a turn's verdict is looked at: ``first``,
    then each :data:`LOOK_RATIO` times the last (rounded, at least one
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


def _racer(played: SolverMove, options: WeighOptions) -> Enough:
    """When a sampled decision has had enough deals (module docstring), and
    which moves are still worth valuing: the play made, the leader, and
    every move not yet clearly below the leader."""
    seen: SolverMove = as_seen(played)
    asked = set(looks(options.min_deals, options.samples))

    def enough(per: Mapping[SolverMove, Sequence[float]],
               done: int) -> Collection[SolverMove] | None:
        nonlocal seen
        if seen not in per:  # a lead names its orientation; the solver's may differ
            seen = next((m for m in per if _same(m, seen)), seen)
        mine = per.get(seen)
        if mine is None or len(mine) < done:
            return None  # not a move here: the caller says so
        # The play made first, then the others best first (the leader
        # second): a deal whose search is cut short has valued those.
        alive = sorted((m for m, vals in per.items() if len(vals) == done),
                       key=lambda m: (m != seen, -sum(per[m])))
        if done >= options.samples:
            return None
        if done not in asked:
            return alive
        verdict, low, high, leader = judge({m: per[m] for m in alive}, seen, options)
        if settled(verdict, low, high, done, options):
            return None
        keep = []
        for m in alive:
            gap, _ = _paired(per[leader], per[m])
            if m in (seen, leader) or gap - margin(per[leader], per[m], DROP_Z) <= 0:
                keep.append(m)
        return keep

    return enough


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
    at least :data:`RARE_SWING` over the deals (a difference the deals so
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


def _search(pos: Position, options: WeighOptions, line: int, *, view: str,
            played: SolverMove | None = None, work: int | None = None) -> _Searched:
    """The solver on ``pos`` in ``view`` (``perfect`` or ``sample``), or
    why there is no answer to trust: a position the record cannot support,
    an exact search cut short, or too few deals within the work.
    In the sample view every deal is valued when there are at most
    ``exact`` of them (and their searches fit in half of ``work``);
    otherwise, with ``played``, the deals are raced and stop when the
    verdict on that move is known (:func:`_racer`), and without, it takes
    ``luck_deals`` deals. ``work`` bounds the nodes the deals search
    together, bar the overrun of one deal's cap: every deal dealt counts
    (:func:`muggins_cli.solver.sampled.average`). The principal lines are
    asked for only with ``options.lines`` and ``played``."""
    from muggins_cli.solver import Mode, Multi, Objective, Plan, solve

    rules = pos.rules
    players = len(pos.players)
    per_deal = options.node_limit(players)
    lines = options.lines and played is not None
    try:
        if view == "perfect":
            if not pos.perfect:
                return _Searched(None, "the record does not show every hand and the stock "
                                       "order (deal and stock lines)")
            res = solve(rules, pos.state(), Plan(Mode.PERFECT, Objective.POINTS, Multi.PARANOID,
                                                 node_limit=per_deal, pv=lines),
                        scores=pos.scores, target=pos.target)
            if res.interrupted:
                raise KeyboardInterrupt
            if res.stopped is not None:
                return _Searched(None, "the search did not finish within the node budget "
                                       "(--deal-nodes)", res.nodes, 1)
            return _Searched(res, None, res.nodes, 1)
        if pos.hands[pos.to_move] is None:
            return _Searched(None, "the record does not show the mover's hand (deal lines)")
        if work is not None and work <= 0:
            return _Searched(None, "the turn's work bound was spent before a deal")
        know = pos.view()
        nodes = solved = 0
        every = every_deal(know, options.exact) if options.exact else None
        if every is not None:
            # The deals share half the turn's work, and none may take more
            # than a deal's node cap on average. A listing cut short is
            # given up whole (it is no sample: nothing is left out of one).
            caps = [c for c in (None if work is None else work // 2,
                                None if per_deal is None else per_deal * len(every))
                    if c is not None]
            res = solve(rules, know, Plan(Mode.SAMPLE, Objective.POINTS, deals=every,
                                          node_limit=min(caps) if caps else None,
                                          multi=Multi.PARANOID, pv=lines))
            if res.interrupted:
                raise KeyboardInterrupt
            if res.exact:
                return _Searched(res, None, res.nodes, res.dealt)
            nodes, solved = res.nodes, res.dealt
        left = None if work is None else work - nodes
        enough: Enough
        if played is None:
            samples = min(options.luck_deals, options.samples)
            enough = _counted(samples)
        else:
            samples, enough = options.samples, _racer(played, options)
        res = solve(rules, know, Plan(Mode.SAMPLE, Objective.POINTS, node_limit=per_deal,
                                      samples=samples, seed=options.seed * 1_000_003 + line,
                                      multi=Multi.PARANOID, enough=enough, node_total=left,
                                      pv=lines))
        nodes += res.nodes
        solved += res.dealt
    except MugginsError as e:  # counts that do not add up after an error in the record
        return _Searched(None, str(e))
    if res.interrupted:  # solve answers Ctrl-C with what it has; a whole match stops
        raise KeyboardInterrupt
    least = min(MIN_DEALS, options.samples)
    if res.samples < least:
        return _Searched(None, f"{res.samples} deal{'s' if res.samples != 1 else ''} within "
                               f"the turn's work bound, fewer than {least}", nodes, solved,
                         res.dealt, res.unfinished, res.samples)
    return _Searched(res, None, nodes, solved, res.dealt, res.unfinished, res.samples)


def _counted(samples: int) -> Enough:
    """Every move valued in each deal, ``samples`` deals."""
    def enough(per: Mapping[SolverMove, Sequence[float]],
               done: int) -> Collection[SolverMove] | None:
        return None if done >= samples else list(per)

    return enough


def _same(m: SolverMove, move: SolverMove) -> bool:
    """The same decision: a placement of the same tile on the same end, a
    pass, or a draw (its tile unseen)."""
    if isinstance(move, Place):
        return isinstance(m, Place) and same_move(m, move)
    return type(as_seen(m)) is type(as_seen(move))


def _move_of(result: SolveResult, move: SolverMove | Pass | Place) -> MoveValue | None:
    return next((mv for mv in result.moves if _same(mv.move, move)), None)


def _value_of(result: SolveResult, move: SolverMove | Pass | Place) -> float | None:
    mv = _move_of(result, move)
    return mv.value if mv is not None else None


def cost_error(result: SolveResult, move: SolverMove | Pass | Place) -> float | None:
    """The standard error of what ``move`` gave away against the best move,
    from the deals both were valued in (paired, so what the deals share
    cancels); when ``move`` is the best, of its lead over the runner-up
    valued in as many deals (by which another move might yet prove the
    better: its cost is 0 as measured, not surely). A deal counted with a
    bound adds how far the mean may lie from the deals' middles. None for
    an exact answer or fewer than two deals."""
    played = _move_of(result, move)
    best = _move_of(result, result.best) if result.best is not None else None
    if result.exact or played is None or best is None or len(played.deals) < 2:
        return None
    if best is played:
        rivals = [mv for mv in result.moves
                  if mv is not played and len(mv.deals) == len(played.deals)]
        if not rivals:
            return 0.0
        runner = max(rivals, key=lambda mv: statistics.fmean(mv.deals))
        return _pair_error(runner, played)
    return _pair_error(best, played)


def _pair_error(a: MoveValue, b: MoveValue) -> float:
    """The standard error of ``a``'s lead over ``b`` in the deals ``b`` was
    valued in, widened by what deals counted with a bound leave open."""
    k = len(b.deals)
    spread = {a.move: a.spread, b.move: b.spread}
    return _paired(a.deals, b.deals)[1] + _slack(spread, a.move, b.move, k)


def _value_error(mv: MoveValue) -> float | None:
    """The standard error of a value averaged over its deals, widened by
    what deals counted with a bound leave open (None from fewer than two
    deals)."""
    k = len(mv.deals)
    if k < 2:
        return None
    return statistics.stdev(mv.deals) / math.sqrt(k) + sum(mv.spread) / k


def _candidates(result: SolveResult, named: SolverMove | None = None) -> tuple[Candidate, ...]:
    """Every move the search valued, best first (``named``, the best as the
    turn names it, then the solver's order among equals): its value, its
    cost against the best and their errors, and the line the solver expects
    after it (when it was asked for)."""
    best = _move_of(result, result.best) if result.best is not None else None
    if best is None or best.value is None:
        return ()
    first = _move_of(result, named) if named is not None else None
    first = best if first is None else first
    out = []
    for mv in result.moves:
        if mv.value is None:
            continue
        error = (None if mv is best or result.exact or len(mv.deals) < 2
                 else _pair_error(best, mv))
        out.append(Candidate(mv.move, mv.value, max(0.0, best.value - mv.value), error,
                             None if result.exact else _value_error(mv),
                             len(mv.deals), tuple(mv.pv[1:])))
    order = sorted(range(len(out)), key=lambda i: (out[i].move != first.move, -out[i].value, i))
    return tuple(out[i] for i in order)


def value_error(result: SolveResult, move: SolverMove | Pass | Place | None) -> float | None:
    """The standard error of ``move``'s value over its deals; None for an
    exact answer, fewer than two deals or no such move."""
    mv = _move_of(result, move) if move is not None else None
    if result.exact or mv is None:
        return None
    return _value_error(mv)


class _Work:
    """What one turn's searches have taken of its work bound (``bound``,
    None for none): each search is given what is left, or less, and the
    turn searches at most the bound plus one deal's cap (the deal that
    starts below it may finish past it)."""

    def __init__(self, bound: int | None) -> None:
        self.bound = bound
        self.nodes = 0
        self.solved = 0
        self.dealt = 0
        self.unfinished = 0
        self.counted = 0

    def left(self, most: int | None = None) -> int | None:
        """What is left of the bound, and at most ``most``."""
        if self.bound is None:
            return most
        left = self.bound - self.nodes
        return left if most is None else min(most, left)

    def took(self, searched: _Searched) -> _Searched:
        self.nodes += searched.nodes
        self.solved += searched.solved
        self.dealt += searched.dealt
        self.unfinished += searched.unfinished
        self.counted += searched.counted
        return searched

    def counts(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "solved": self.solved, "dealt": self.dealt,
                "unfinished": self.unfinished, "dropped": self.dealt - self.counted}


def _luck(before: SolveResult | None, after: SolveResult | None
          ) -> tuple[float | None, float | None]:
    """A turn's luck: the value after its draws (``after``, the best move's)
    minus the value of drawing before them (``before``), both in the
    mover's view, and its standard error (the two values come from deals of
    their own, so their errors add in quadrature; None when both are
    exact). No luck is given for a sampled value without an error, nor
    from a deal counted with a bound."""
    drew = _value_of(before, UnseenDraw()) if before is not None else None
    if before is None or after is None or drew is None or after.value is None:
        return None, None
    if before.unfinished or after.unfinished:
        return None, None
    errors = [value_error(res, move) for res, move in ((after, after.best),
                                                       (before, UnseenDraw()))
              if not res.exact]
    if any(e is None for e in errors):
        return None, None  # one deal: no error to give it
    error = math.sqrt(sum(e * e for e in errors if e is not None)) if errors else None
    return after.value - drew, error


def _choices(pos: Position) -> int | None:
    """The mover's legal moves at ``pos`` (a pass counts as one), from what
    the mover sees; None when the record hides their hand."""
    hand = pos.hands[pos.to_move]
    if hand is None:
        return None
    return len(moves_seen(pos.rules, pos.layout, hand, pos.drawn, pos.stock_count,
                          pos.lead_tile))


def not_weighed(d: Decision, why: str) -> Weighed:
    """A turn that could not be weighed at all, and why: the record does
    not allow it, or its task kept failing on a Dask cluster."""
    return _weighed(d, 0, None, None, None, None, False, 0, why)


def _weighed(d: Decision, choices: int, value: float | None, best: str | None,
             best_value: float | None, luck: float | None, exact: bool, samples: int,
             why: str | None, error: float | None = None, verdict: str | None = None,
             **more: Any) -> Weighed:
    at, turn = d.at, d.turn
    return Weighed(at.round, at.turn, turn.line, turn.column, at.to_move, turn.player,
                   written(turn), choices, value, best, best_value, luck, exact, samples, why,
                   error, verdict, **more)


#: Digits an exact cost is rounded to: a weighted average of whole points
#: may come out a hair off a threshold it sits on.
EXACT_DIGITS = 9


def weigh_decision(d: Decision, options: WeighOptions) -> Weighed:
    """One turn: the play made against the best, and the luck of its draws.

    Everything the turn searches shares its work bound
    (:meth:`WeighOptions.work_limit`): the luck's position before the draws
    first (at most one deal's node cap, as much as the luck took before the
    bound covered it), then the choice (what is left), then, when the
    choice's answer cannot serve as the value after the draws, that value
    (a cap again)."""
    at, turn = d.at, d.turn
    if d.move is None:
        return not_weighed(d, "the replay did not accept this turn")
    choices = _choices(at)
    if choices is None:
        return not_weighed(d, "the record does not show the mover's hand (deal lines)")
    players = len(at.players)
    work = _Work(options.work_limit(players))
    bound = work.bound
    luck_most = options.node_limit(players) or (None if bound is None else bound // LUCK_SHARE)
    before = None
    if d.start is not None:
        before = work.took(_search(d.start, options, -turn.line, view="sample",
                                   work=work.left(luck_most))).result

    def after() -> SolveResult | None:
        if before is None:
            return None
        return work.took(_search(at, options, turn.line, view="sample",
                                 work=work.left(luck_most))).result

    if choices == 1:  # nothing to choose: only the draws' luck to measure
        luck, luck_error = _luck(before, after())
        return _weighed(d, 1, None, None, None, luck, False, 0, None, luck_error=luck_error,
                        **work.counts())
    searched = work.took(_search(at, options, turn.line, view=options.mode, played=d.move,
                                 work=work.left()))
    res = searched.result
    if res is None:
        return _weighed(d, choices, None, None, None, None, False, 0, searched.why,
                        **work.counts())
    luck, luck_error = _luck(before, res if options.mode == "sample" else after())
    value = _value_of(res, d.move)
    best_value = res.value
    mv = _move_of(res, d.move)
    named = res.best
    if named is not None and best_value is not None and mv is not None:
        named = named_best(named, best_value, mv.move, value)
    best: str | None = None
    if isinstance(named, Place):
        best = play_text(at.rules, at.layout, named, written_halves(turn))
    elif named is not None:
        best = str(named)
    if value is None or best_value is None or mv is None:
        return _weighed(d, choices, None, best, None, luck, res.exact, res.samples,
                        "the play made is not a legal move here", luck_error=luck_error,
                        **work.counts())
    if res.exact or not mv.deals:
        cost = round(max(0.0, best_value - value), EXACT_DIGITS)
        low = high = cost
        verdict = options.band(low, high)
    else:
        verdict, low, high, _ = judge({m.move: m.deals for m in res.moves}, mv.move, options,
                                      {m.move: m.spread for m in res.moves if m.spread})
    return _weighed(d, choices, value, best, best_value, luck, res.exact, res.samples, None,
                    cost_error(res, d.move), verdict,
                    value_error=value_error(res, d.move),
                    best_value_error=value_error(res, res.best),
                    luck_error=luck_error, cost_low=low, cost_high=high,
                    candidates=_candidates(res, named), **work.counts())


#: Weighs a match's decisions, in order: one after another here
#: (:func:`weigh_each`), or spread over processes by the caller, which may
#: also count them as they come back.
Weigher = Callable[[Sequence[Decision], WeighOptions], Iterable[Weighed]]


def weigh_each(ds: Sequence[Decision], options: WeighOptions) -> Iterator[Weighed]:
    for d in ds:
        yield weigh_decision(d, options)


def weigh_match(match: Match, resolve: RulesResolver, options: WeighOptions,
                weigher: Weigher = weigh_each) -> list[Weighed]:
    """Every turn of ``match`` weighed, in order."""
    return list(weigher(list(decisions(match, resolve)), options))


@dataclass(frozen=True, slots=True)
class SolverStats:
    """One player's line of the solver's statistics.

    ``unforced`` counts the player's turns with a choice that were weighed;
    ``lost`` the points their plays gave away over those turns, so
    ``error_rate`` is points lost per unforced turn (GNU Backgammon's error
    rate, in points). ``luck`` adds up what the player's own draws gave or
    took against the average draw, over ``draws`` turns with draws.
    ``unweighed`` counts turns with a choice that could not be weighed;
    ``costly`` the plays judged a mistake or a blunder, ``close`` those
    known to lie near the mistake line, ``uncertain`` those whose verdict
    the deals could not settle. ``lost_error`` and
    ``luck_error`` are the standard errors of ``lost`` and ``luck`` (each
    turn's deals are its own, so the turns' errors add in quadrature; 0 when
    every turn was exact), ``exact`` counts the unforced turns whose cost is
    exact.
    """

    player: str
    unforced: int = 0
    lost: float = 0.0
    costly: int = 0
    luck: float = 0.0
    draws: int = 0
    unweighed: int = 0
    uncertain: int = 0
    lost_error: float = 0.0
    luck_error: float = 0.0
    exact: int = 0
    close: int = 0

    @property
    def error_rate(self) -> float | None:
        return self.lost / self.unforced if self.unforced else None

    @property
    def error_rate_error(self) -> float | None:
        return self.lost_error / self.unforced if self.unforced else None


def solver_stats(players: Sequence[str], weighed: Iterable[Weighed],
                 options: WeighOptions) -> list[SolverStats]:
    """Each player's statistics, in seating order."""
    rows = {name: SolverStats(name) for name in players}
    lost_var = dict.fromkeys(players, 0.0)
    luck_var = dict.fromkeys(players, 0.0)
    for w in weighed:
        s = rows.get(w.player)
        if s is None:
            continue
        unforced, lost, costly, luck, draws, unweighed, uncertain, exact, close = (
            s.unforced, s.lost, s.costly, s.luck, s.draws, s.unweighed, s.uncertain, s.exact,
            s.close)
        if w.weighed and w.unforced:
            unforced += 1
            lost += w.cost
            costly += w.costly
            close += w.verdict == CLOSE
            uncertain += w.verdict == UNCERTAIN
            exact += w.exact
            lost_var[w.player] += (w.error or 0.0) ** 2
        elif w.choices != 1:
            unweighed += 1
        if w.luck is not None:
            luck += w.luck
            draws += 1
            luck_var[w.player] += (w.luck_error or 0.0) ** 2
        rows[w.player] = SolverStats(w.player, unforced, lost, costly, luck, draws, unweighed,
                                     uncertain, math.sqrt(lost_var[w.player]),
                                     math.sqrt(luck_var[w.player]), exact, close)
    return list(rows.values())


#: What each verdict says of a play, in the words every report uses (the
#: study page, ``--annotate``'s notes, the text and the docs).
VERDICT_WORDS = {
    FINE: "not a mistake",
    CLOSE: "close to the mistake line",
    MISTAKE: "a mistake",
    BLUNDER: "a blunder",
    UNCERTAIN: "uncertain",
}


def verdict_reason(verdict: str | None, options: WeighOptions, exact: bool = False) -> str:
    """Why a turn has the verdict it has, for a reader: what the verdict
    means in points (empty for none)."""
    t, c = points(options.costly), points(options.close)
    beyond = "" if exact else ", beyond the deals' uncertainty"
    return {
        FINE: f"below {t} points{beyond}",
        CLOSE: f"within {c} points of {t} either way, beyond the deals' uncertainty: one "
               "deal more or less could carry it across",
        MISTAKE: f"{t} points or more{beyond}",
        BLUNDER: f"{points(options.blunder)} points or more{beyond}",
        UNCERTAIN: "the turn's deals or work ran out before they placed its cost",
    }.get(verdict or "", "")


def points(x: float) -> str:
    """A value in points as the reports write it: whole when it is, else one
    decimal (sampled values are averages)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def measured(x: float, error: float | None, exact: bool, *, signed: bool = False) -> str:
    """A value as the reports write it with how sure it is: ``11.6 ± 2.1``
    (one standard error), or the bare value when it is exact; a sampled
    value whose error is unknown (too few deals) says so with ``± ?``."""
    text = (f"{x:+.0f}" if float(x).is_integer() else f"{x:+.1f}") if signed else points(x)
    if exact:
        return text
    return f"{text} ± {error:.1f}" if error is not None else f"{text} ± ?"


def view_text(w: Weighed, options: WeighOptions) -> str:
    if options.perfect:
        return "all hands seen"
    if w.exact:
        return f"the mover's view, every one of the {w.samples} deals"
    return f"the mover's view, {w.samples} deal{'s' if w.samples != 1 else ''}"


def costly_message(w: Weighed, options: WeighOptions, at_once: str | None = None) -> str:
    """The costly-play warning: what the play cost by the end of the round
    (exactly, or with its standard error), and ``at_once``, the immediate
    score it missed, as a note."""
    cost = f"exactly {points(w.cost)}" if w.exact else measured(w.cost, w.error, False)
    note = f"; at once, {at_once}" if at_once else ""
    return (f"{w.player} played {w.played}: {w.best} was {cost} points "
            f"better by the end of the round (solver, {view_text(w, options)}){note}")


def costly_findings(weighed: Iterable[Weighed], options: WeighOptions,
                    at_once: Mapping[int, str] | None = None) -> list[Diagnostic]:
    """A ``costly-play`` warning for each play judged a mistake or a blunder:
    its cost above ``options.costly`` by more than ``z`` standard errors.
    ``at_once`` holds, by line, the immediate score a turn missed, which its
    warning notes (the turn gets no second warning for it)."""
    notes = at_once or {}
    return [Diagnostic(w.line, w.column, Severity.WARNING, COSTLY_PLAY,
                       costly_message(w, options, notes.get(w.line)))
            for w in weighed if w.weighed and w.costly]
