"""Every turn weighed by the solver: what the play made cost over the round,
and what the turn's draws gave or took compared with the average draw.

The immediate analysis (:mod:`.plays`) can say "you missed 15 now"; the
solver can say "this play cost you 8 points by the end of the round", which
is what a player studying a match wants to know. Values are the solver's
(:func:`muggins_cli.solver.solve`, ``points`` objective): for two players
the mover's points minus the opponent's from the decision to the round's
end, settlement included; for three or four, the mover's points minus the
opponents' average, the others taken as one side playing against the mover
(the paranoid reduction, :mod:`muggins_cli.solver.paranoid`: max-n could not
finish the round's first turns). "Points lost" is then what the play gave
away of that margin against the best play.

How many deals: a turn is dealt at least ``min_deals`` times, and then more
(up to ``samples``) until the cost of the play made is known well enough to
say on which side of each threshold (``costly``, ``blunder``) it lies: its
mean lies more than ``z`` standard errors from the threshold. Moves that are
clearly worse than the leader stop being valued (a race: the deals go to
the moves that might be best). A turn still undecided at the cap is
``uncertain``: it is not warned about, and the reports say so.

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
from dataclasses import dataclass, replace

from muggins_cli.analysis.plays import TurnRef, play_text, same_move, written, written_halves
from muggins_cli.engine.state import Pass, Place, UnseenDraw, as_seen
from muggins_cli.engine.view import moves_seen
from muggins_cli.errors import MugginsError
from muggins_cli.notation.model import Diagnostic, Match, Severity
from muggins_cli.replay.position import Decision, Position
from muggins_cli.replay.replay import decisions
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.solver import (
    Enough,
    MoveValue,
    Multi,
    SolveResult,
    SolverMove,
    solve,
)

#: The solver's budget per search by default: enough for every position of a
#: two-player round (about three seconds at worst here), and a cap on the
#: rare position with many hidden tiles that would otherwise take a minute.
DEFAULT_NODES = 1_000_000
FINE, MISTAKE, BLUNDER, UNCERTAIN = "fine", "mistake", "blunder", "uncertain"
#: The most deals one decision may take in the ``sample`` view by default.
DEFAULT_SAMPLES = 96
#: The fewest deals a decision is judged on (and the deals of the luck
#: column, which is not raced).
MIN_DEALS_JUDGED = 8
#: Standard errors between a cost and a threshold before the verdict is
#: taken as known (about 95% one-sided at 2).
DEFAULT_Z = 2.0
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
    (``costly-play``) and marked ``?``, ``blunder`` or more ``??``.
    """

    perfect: bool = False
    samples: int = DEFAULT_SAMPLES
    nodes: int | None = None
    seed: int = 0
    costly: float = 5.0
    blunder: float = 15.0
    min_deals: int = MIN_DEALS_JUDGED
    z: float = DEFAULT_Z

    def node_limit(self, players: int) -> int | None:
        """The cap per search (in the sample view, per deal): ``nodes``, 0
        for none, or by default :data:`DEFAULT_NODES`."""
        if self.nodes is None:
            return DEFAULT_NODES
        return self.nodes or None

    def verdict(self, cost: float, error: float | None) -> str:
        """``blunder`` when the cost lies above ``blunder`` by more than ``z``
        standard errors, ``mistake`` when above ``costly`` so (at least a
        mistake), ``fine`` when below ``costly`` so, ``uncertain`` otherwise
        (an exact cost has no error)."""
        margin = self.z * (error or 0.0)
        return self.band(cost - margin, cost + margin)

    def band(self, low: float, high: float) -> str:
        """The verdict of a cost known to lie between ``low`` and ``high``."""
        if low >= self.blunder:
            return BLUNDER
        if low >= self.costly:
            return MISTAKE
        if high < self.costly:
            return FINE
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
    search finished); ``samples`` the deals averaged (sample view), and
    ``error`` the standard error of ``cost`` over them. ``verdict`` is what
    the cost says of the play by the thresholds (:meth:`WeighOptions.verdict`),
    None when there was no choice or no answer. ``candidates`` are every
    legal play the search valued, best first (:class:`Candidate`), and
    ``luck_error`` the standard error of ``luck`` (None when unknown).
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
    candidates: tuple[Candidate, ...] = ()
    luck_error: float | None = None

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
    result: SolveResult | None
    why: str | None


def _racer(played: SolverMove, options: WeighOptions) -> Enough:
    """When a sampled decision has had enough deals (module docstring), and
    which moves are still worth valuing: the play made, the leader, and
    every move not yet clearly below the leader."""
    seen: SolverMove = as_seen(played)
    thresholds = (options.costly, options.blunder)
    z = options.z

    def enough(per: Mapping[SolverMove, Sequence[float]],
               done: int) -> Collection[SolverMove] | None:
        nonlocal seen
        if seen not in per:  # a lead names its orientation; the solver's may differ
            seen = next((m for m in per if _same(m, seen)), seen)
        mine = per.get(seen)
        if mine is None or len(mine) < done:
            return None  # not a move here: the caller says so
        alive = [m for m, vals in per.items() if len(vals) == done]
        if done < options.min_deals:
            return alive
        low, high, leader = bounds({m: per[m] for m in alive}, seen, z)
        # Settled as the verdict will be read: the cost on one side of each
        # threshold.
        if all(low >= t or high < t for t in thresholds) or done >= options.samples:
            return None
        keep = []
        for m in alive:
            gap, gap_se = _paired(per[leader], per[m])
            if m in (seen, leader) or gap - z * gap_se <= 0:
                keep.append(m)
        return keep

    return enough


def bounds(per: Mapping[SolverMove, Sequence[float]], played: SolverMove,
           z: float) -> tuple[float, float, SolverMove]:
    """Where the cost of ``played`` lies, from each move's values in the same
    deals: above ``low`` (the leader's margin over it, less ``z`` standard
    errors; 0 when it leads) and below ``high`` (the largest margin any move
    might have over it, plus ``z`` standard errors; at least 0), and the
    leader. A play that leads by a hair is not "fine" until the runner-up is
    known not to be better by a threshold."""
    mine = per[played]
    k = len(mine)
    means = {m: sum(v) / k for m, v in per.items() if len(v) == k}
    leader = max(means, key=lambda m: means[m])
    cost, se = _paired(per[leader], mine)
    low = max(0.0, cost - z * se) if leader != played else 0.0
    high = 0.0
    for m in means:
        if m != played:
            gap, gap_se = _paired(per[m], mine)
            high = max(high, gap + z * gap_se)
    return low, high, leader


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` deal by deal."""
    diffs = [x - y for x, y in zip(a, b)]
    k = len(diffs)
    mean = sum(diffs) / k
    if k < 2:
        return mean, 0.0
    return mean, statistics.stdev(diffs) / math.sqrt(k)


def _search(pos: Position, options: WeighOptions, line: int, *, view: str,
            played: SolverMove | None = None) -> _Searched:
    """The solver on ``pos`` in ``view`` (``perfect`` or ``sample``), or
    why there is no answer to trust: a position the record cannot support,
    an exact search cut short, or too few deals solved in the budget.
    With ``played``, a sampled search is raced and stops when the verdict on
    that move is known (:func:`_racer`); without, it takes ``min_deals``
    deals."""
    rules = pos.rules
    try:
        if view == "perfect":
            if not pos.perfect:
                return _Searched(None, "the record does not show every hand and the stock "
                                       "order (deal and stock lines)")
            res = solve(rules, pos.state(), scores=pos.scores, target=pos.target,
                        mode="perfect", objective="points", multi=Multi.PARANOID,
                        node_limit=options.node_limit(len(pos.players)))
            if res.interrupted:
                raise KeyboardInterrupt
            if res.stopped is not None:
                return _Searched(None, "the search did not finish within the node budget "
                                       "(--nodes)")
            return _Searched(res, None)
        if pos.hands[pos.to_move] is None:
            return _Searched(None, "the record does not show the mover's hand (deal lines)")
        if played is None:
            samples, enough = min(options.min_deals, options.samples), None
        else:
            samples, enough = options.samples, _racer(played, options)
        res = solve(rules, pos.view(), mode="sample", objective="points",
                    node_limit=options.node_limit(len(pos.players)), samples=samples,
                    seed=options.seed * 1_000_003 + line, multi=Multi.PARANOID,
                    enough=enough)
    except MugginsError as e:  # counts that do not add up after an error in the record
        return _Searched(None, str(e))
    if res.interrupted:  # solve answers Ctrl-C with what it has; a whole match stops
        raise KeyboardInterrupt
    if res.samples < min(MIN_DEALS, options.samples):
        return _Searched(None, f"fewer than {min(MIN_DEALS, options.samples)} deals solved "
                               "within the node budget (--nodes)")
    return _Searched(res, None)


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
    cancels); None for an exact answer, fewer than two deals, or when
    ``move`` is the best (its cost is then 0 by definition, whatever the
    deals say of the others)."""
    played = _move_of(result, move)
    best = _move_of(result, result.best) if result.best is not None else None
    if played is None or best is None or best is played or len(played.deals) < 2:
        return None
    return _paired(best.deals, played.deals)[1]


def _luck(d: Decision, options: WeighOptions, after: SolveResult | None
          ) -> tuple[float | None, float | None]:
    """Value after the turn's draws minus the value of drawing, both in the
    mover's view, and its standard error (the two searches deal apart, so
    their errors add in quadrature)."""
    if d.start is None:
        return None, None
    if after is None or after.value is None:
        got = _search(d.at, options, d.turn.line, view="sample").result
        if got is None or got.value is None:
            return None, None
        after = got
    before = _search(d.start, options, -d.turn.line, view="sample").result
    if before is None:
        return None, None
    drew = _move_of(before, UnseenDraw())
    if drew is None or drew.value is None or after.value is None:
        return None, None
    best = _move_of(after, after.best) if after.best is not None else None
    spread = [_value_error(mv.deals) for mv in (best, drew) if mv is not None]
    error = (math.sqrt(sum(e * e for e in spread if e is not None))
             if len(spread) == 2 and None not in spread else None)
    return after.value - drew.value, error


def _value_error(deals: Sequence[float]) -> float | None:
    """The standard error of a value averaged over ``deals`` (None when
    exact or from fewer than two deals)."""
    if len(deals) < 2:
        return None
    return statistics.stdev(deals) / math.sqrt(len(deals))


def _candidates(result: SolveResult) -> tuple[Candidate, ...]:
    """Every move the search valued, best first (the solver's order among
    equals): its value, its cost against the best and their errors, and the
    line the solver expects after it."""
    best = _move_of(result, result.best) if result.best is not None else None
    if best is None or best.value is None:
        return ()
    out = []
    for mv in result.moves:
        if mv.value is None:
            continue
        error = (None if mv is best or len(mv.deals) < 2
                 else _paired(best.deals, mv.deals)[1])
        out.append(Candidate(mv.move, mv.value, max(0.0, best.value - mv.value), error,
                             _value_error(mv.deals), len(mv.deals), tuple(mv.pv[1:])))
    order = sorted(range(len(out)), key=lambda i: (out[i].move != best.move, -out[i].value, i))
    return tuple(out[i] for i in order)


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
             why: str | None, error: float | None = None,
             verdict: str | None = None) -> Weighed:
    at, turn = d.at, d.turn
    return Weighed(at.round, at.turn, turn.line, turn.column, at.to_move, turn.player,
                   written(turn), choices, value, best, best_value, luck, exact, samples, why,
                   error, verdict)


def weigh_decision(d: Decision, options: WeighOptions) -> Weighed:
    """One turn: the play made against the best, and the luck of its draws."""
    at, turn = d.at, d.turn

    def out(choices: int, value: float | None, best: str | None, best_value: float | None,
            luck: float | None, exact: bool, samples: int, why: str | None,
            error: float | None = None, verdict: str | None = None) -> Weighed:
        if verdict is None and choices > 1 and value is not None and best_value is not None:
            verdict = options.verdict(max(0.0, best_value - value), error)
        return _weighed(d, choices, value, best, best_value, luck, exact, samples, why, error,
                        verdict)

    if d.move is None:
        return not_weighed(d, "the replay did not accept this turn")
    choices = _choices(at)
    if choices is None:
        return not_weighed(d, "the record does not show the mover's hand (deal lines)")
    if choices == 1:  # nothing to choose: only the draws' luck to measure
        luck, luck_error = _luck(d, options, None)
        return replace(out(1, None, None, None, luck, False, 0, None), luck_error=luck_error)
    searched = _search(at, options, turn.line, view=options.mode, played=d.move)
    res = searched.result
    if res is None:
        return out(choices, None, None, None, None, False, 0, searched.why)
    luck, luck_error = _luck(d, options, res if options.mode == "sample" else None)
    value = _value_of(res, d.move)
    best_value = res.value
    best: str | None = None
    if isinstance(res.best, Place):
        best = play_text(at.rules, at.layout, res.best, written_halves(turn))
    elif res.best is not None:
        best = str(res.best)
    why: str | None = None
    if value is None or best_value is None:
        why = "the play made is not a legal move here"
        value = best_value = None
    error = cost_error(res, d.move) if why is None else None
    verdict = None
    mv = _move_of(res, d.move)
    if why is None and mv is not None and mv.deals and choices > 1:
        low, high, _ = bounds({m.move: m.deals for m in res.moves}, mv.move, options.z)
        verdict = options.band(low, high)
    return replace(out(choices, value, best, best_value, luck, res.exact, res.samples, why,
                       error, verdict),
                   candidates=_candidates(res) if why is None else (), luck_error=luck_error)


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
    ``costly`` the plays judged a mistake or a blunder, ``uncertain`` those
    whose verdict the deals could not settle.
    """

    player: str
    unforced: int = 0
    lost: float = 0.0
    costly: int = 0
    luck: float = 0.0
    draws: int = 0
    unweighed: int = 0
    uncertain: int = 0

    @property
    def error_rate(self) -> float | None:
        return self.lost / self.unforced if self.unforced else None


def solver_stats(players: Sequence[str], weighed: Iterable[Weighed],
                 options: WeighOptions) -> list[SolverStats]:
    """Each player's statistics, in seating order."""
    rows = {name: SolverStats(name) for name in players}
    for w in weighed:
        s = rows.get(w.player)
        if s is None:
            continue
        unforced, lost, costly, luck, draws, unweighed, uncertain = (
            s.unforced, s.lost, s.costly, s.luck, s.draws, s.unweighed, s.uncertain)
        if w.weighed and w.unforced:
            unforced += 1
            lost += w.cost
            costly += w.costly
            uncertain += w.verdict == UNCERTAIN
        elif w.choices != 1:
            unweighed += 1
        if w.luck is not None:
            luck += w.luck
            draws += 1
        rows[w.player] = SolverStats(w.player, unforced, lost, costly, luck, draws, unweighed,
                                     uncertain)
    return list(rows.values())


def points(x: float) -> str:
    """A value in points as the reports write it: whole when it is, else one
    decimal (sampled values are averages)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def view_text(w: Weighed, options: WeighOptions) -> str:
    if options.perfect:
        return "all hands seen"
    return f"the mover's view, {w.samples} deal{'s' if w.samples != 1 else ''}"


def costly_message(w: Weighed, options: WeighOptions) -> str:
    error = f" ± {w.error:.1f}" if w.error else ""
    return (f"{w.player} played {w.played}: {w.best} was {points(w.cost)}{error} points "
            f"better by the end of the round (solver, {view_text(w, options)})")


def costly_findings(weighed: Iterable[Weighed], options: WeighOptions) -> list[Diagnostic]:
    """A ``costly-play`` warning for each play judged a mistake or a blunder:
    its cost above ``options.costly`` by more than ``z`` standard errors."""
    return [Diagnostic(w.line, w.column, Severity.WARNING, COSTLY_PLAY,
                       costly_message(w, options))
            for w in weighed if w.weighed and w.costly]
