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
more until the cost of the play made has a verdict (:func:`.race.judge`): its
range at ``z`` standard errors below ``costly`` (fine) or above it (a
mistake; and on one side of ``blunder`` too while the turn has had fewer
than ``blunder_deals`` deals: past that, a turn known to be costly stays
"at least a mistake"), or its range at ``close_z`` standard errors within
``close`` points of ``costly`` either way (``close``: the indifference
zone, so that a cost on the line ends too). The question is put only at a
few counts of deals, each half as many again as the last (:func:`.race.looks`):
asked after every deal, a cost sitting on a threshold would sooner or
later stray past ``z`` errors by chance, and two seeds could then call one
turn fine and a mistake. The deals stop at ``samples`` or once the deals'
searches have taken the turn's ``work`` nodes (the same answer on any
machine), whichever comes first; every deal dealt counts (a costly one is
searched with what is left of the work, and one that does not finish even
then with a bound on its values). Moves that are clearly worse than the
leader (:data:`.verdicts.DROP_Z` standard errors) stop being valued (a race: the
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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from muggins_cli.analysis.lines import LineTurn, line_turns
from muggins_cli.analysis.plays import TurnRef, named_best, play_text, written, written_halves
from muggins_cli.analysis.race import (
    Race,
    cost_error,
    counted,
    judge,
    mean_error,
    move_of,
    pair_error,
    racer,
    same,
    value_error,
    value_of,
)
from muggins_cli.analysis.verdicts import (
    BLUNDER,
    DEFAULT_SAMPLES,
    LUCK_SHARE,
    MIN_DEALS,
    MISTAKE,
    WeighOptions,
)
from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import Place, UnseenDraw, placed_scored
from muggins_cli.engine.view import moves_seen
from muggins_cli.errors import MugginsError
from muggins_cli.notation.model import Match
from muggins_cli.replay.position import Decision, Position
from muggins_cli.replay.replay import decisions
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.solver.knowledge import every_deal

if TYPE_CHECKING:  # the solver itself (Numba) is imported only to weigh a turn
    from muggins_cli.solver import Enough, SolveResult, SolverMove

#: What the commands take from here besides the weighing itself.
__all__ = [
    "DEFAULT_SAMPLES",
    "Candidate",
    "WeighOptions",
    "Weighed",
    "Weigher",
    "not_weighed",
    "weigh_decision",
    "weigh_each",
    "weigh_match",
]


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
    the move), empty when the solver gives none, and ``turns`` the same
    line as a reader follows it (:func:`.lines.line_turns`), walked in the
    deal the solver played it in. ``text`` is the play in MGN as the
    reports write it (the tile the record placed in the record's order),
    ``points`` what it scores at once and ``layout`` the table after it
    (None for a draw or a pass). ``below``: for a play the race stopped
    valuing, how far below the leader it was known to lie then
    (:class:`.race.Race`), after ``deals`` deals.
    """

    move: SolverMove
    value: float
    cost: float
    error: float | None = None
    value_error: float | None = None
    deals: int = 0
    line: tuple[SolverMove, ...] = ()
    text: str = ""
    points: int = 0
    layout: Layout | None = None
    turns: tuple[LineTurn, ...] = ()
    below: float | None = None


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
    valued, best first (:class:`Candidate`), ``rank`` the index of the play
    made among them (None when it is not one), and ``sampled`` whether
    their lines are played in one sampled deal of the unseen tiles rather
    than the recorded one.
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
    rank: int | None = None
    sampled: bool = False

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
    below: Mapping[SolverMove, tuple[int, float]] | None = None


def _search(pos: Position, options: WeighOptions, line: int, *, view: str,
            played: SolverMove | None = None, work: int | None = None) -> _Searched:
    """The solver on ``pos`` in ``view`` (``perfect`` or ``sample``), or
    why there is no answer to trust: a position the record cannot support,
    an exact search cut short, or too few deals within the work.
    In the sample view every deal is valued when there are at most
    ``exact`` of them (and their searches fit in half of ``work``);
    otherwise, with ``played``, the deals are raced and stop when the
    verdict on that move is known (:func:`.race.racer`), and without, it takes
    ``luck_deals`` deals. ``work`` bounds the nodes the deals search
    together, bar the overrun of one deal's cap: every deal dealt counts
    (:func:`muggins_cli.solver.sampled.average`). The principal lines are
    asked for only with ``options.lines`` and ``played``."""
    lines = options.lines and played is not None
    try:
        if view == "perfect":
            return _search_perfect(pos, options, lines)
        if pos.hands[pos.to_move] is None:
            return _Searched(None, "the record does not show the mover's hand (deal lines)")
        if work is not None and work <= 0:
            return _Searched(None, "the turn's work bound was spent before a deal")
        return _search_sampled(pos, options, line, played, work, lines)
    except MugginsError as e:  # counts that do not add up after an error in the record
        return _Searched(None, str(e))


def _search_perfect(pos: Position, options: WeighOptions, lines: bool) -> _Searched:
    """Every hand and the stock order seen: one exact search."""
    from muggins_cli.solver import Mode, Multi, Objective, Plan, solve

    if not pos.perfect:
        return _Searched(None, "the record does not show every hand and the stock "
                               "order (deal and stock lines)")
    res = solve(pos.rules, pos.state(),
                Plan(Mode.PERFECT, Objective.POINTS, Multi.PARANOID,
                     node_limit=options.node_limit(len(pos.players)), pv=lines),
                scores=pos.scores, target=pos.target)
    if res.interrupted:
        raise KeyboardInterrupt
    if res.stopped is not None:
        return _Searched(None, "the search did not finish within the node budget "
                               "(--deal-nodes)", res.nodes, 1)
    return _Searched(res, None, res.nodes, 1)


def _search_sampled(pos: Position, options: WeighOptions, line: int,
                    played: SolverMove | None, work: int | None, lines: bool) -> _Searched:
    """The mover's view: every deal when there are few enough, else deals
    dealt at random and raced (:func:`_search`)."""
    from muggins_cli.solver import Mode, Multi, Objective, Plan, solve

    rules = pos.rules
    per_deal = options.node_limit(len(pos.players))
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
    race: Race | None = None
    if played is None:
        samples = min(options.luck_deals, options.samples)
        enough = counted(samples)
    else:
        race = racer(played, options)
        samples, enough = options.samples, race
    res = solve(rules, know, Plan(Mode.SAMPLE, Objective.POINTS, node_limit=per_deal,
                                  samples=samples, seed=options.seed * 1_000_003 + line,
                                  multi=Multi.PARANOID, enough=enough, node_total=left,
                                  pv=lines))
    nodes += res.nodes
    solved += res.dealt
    if res.interrupted:  # solve answers Ctrl-C with what it has; a whole match stops
        raise KeyboardInterrupt
    least = min(MIN_DEALS, options.samples)
    if res.samples < least:
        return _Searched(None, f"{res.samples} deal{'s' if res.samples != 1 else ''} within "
                               f"the turn's work bound, fewer than {least}", nodes, solved,
                         res.dealt, res.unfinished, res.samples)
    return _Searched(res, None, nodes, solved, res.dealt, res.unfinished, res.samples,
                     race.dropped if race is not None else None)


def _candidates(at: Position, result: SolveResult, named: SolverMove | None,
                written: tuple[int, int] | None,
                below: Mapping[SolverMove, tuple[int, float]] | None) -> tuple[Candidate, ...]:
    """Every move the search valued, best first (``named``, the best as the
    turn names it, then the solver's order among equals): its value, its
    cost against the best and their errors, what it lays and scores, the
    line the solver expects after it (when it was asked for) walked in the
    deal it was played in, and where the race dropped it."""
    best = move_of(result, result.best) if result.best is not None else None
    if best is None or best.value is None:
        return ()
    first = move_of(result, named) if named is not None else None
    first = best if first is None else first
    rules, layout = at.rules, at.layout
    deal = result.deal if result.mode.value == "sample" else at.state()
    out = []
    for mv in result.moves:
        if mv.value is None:
            continue
        error = (None if mv is best or result.exact or len(mv.deals) < 2
                 else pair_error(best, mv))
        text, points, after = str(mv.move), 0, None
        if isinstance(mv.move, Place):
            text = play_text(rules, layout, mv.move, written)
            after, points = placed_scored(rules, layout, mv.move)
        dropped = (below or {}).get(mv.move)
        out.append(Candidate(mv.move, mv.value, max(0.0, best.value - mv.value), error,
                             None if result.exact else mean_error(mv),
                             len(mv.deals), tuple(mv.pv[1:]), text, points, after,
                             line_turns(rules, deal, mv.pv[0], mv.pv[1:]) if mv.pv else (),
                             dropped[1] if dropped is not None else None))
    order = sorted(range(len(out)), key=lambda i: (out[i].move != first.move, -out[i].value, i))
    return tuple(out[i] for i in order)


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
    drew = value_of(before, UnseenDraw()) if before is not None else None
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
    value = value_of(res, d.move)
    best_value = res.value
    mv = move_of(res, d.move)
    named = res.best
    if named is not None and best_value is not None and mv is not None:
        named = named_best(named, best_value, mv.move, value)
    best = _named_text(d, named)
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
                    **_listed(d, res, named, searched.below), **work.counts())


def _named_text(d: Decision, named: SolverMove | None) -> str | None:
    """The best play as the reports name it: the tile the record placed in
    the record's order, any other with its joining half first."""
    if isinstance(named, Place):
        return play_text(d.at.rules, d.at.layout, named, written_halves(d.turn))
    return str(named) if named is not None else None


def _listed(d: Decision, res: SolveResult, named: SolverMove | None,
            below: Mapping[SolverMove, tuple[int, float]] | None) -> dict[str, Any]:
    """A weighed turn's candidates, the rank of the play made among them,
    and whether their lines are played in one sampled deal."""
    cands = _candidates(d.at, res, named, written_halves(d.turn), below)
    rank = next((k for k, c in enumerate(cands)
                 if d.move is not None and same(c.move, d.move)), None)
    sampled = res.mode.value == "sample" and any(c.turns for c in cands)
    return {"candidates": cands, "rank": rank, "sampled": sampled}


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
