"""Strategies: how a seat chooses among the legal moves.

Three interfaces. A :class:`Strategy` is handed the full state object and
must use only what its seat could know; ``random`` and ``greedy`` look only
at the layout and their own hand. A :class:`SeenStrategy` is handed a
:class:`~muggins_cli.engine.view.SeatView`, which holds nothing hidden from the
mover, so it cannot look at a hidden tile even by mistake; the match driver
prefers this interface when a strategy has both. ``solver`` is one
(:class:`SolverStrategy`: sampled deals of the hidden tiles, each solved
exactly, the solver's exact search once the view fixes the deal), and so are ``defensive``
(:mod:`muggins_cli.play.defensive`) and ``expectimax``
(:mod:`muggins_cli.play.expectimax`). A :class:`FullStrategy` is handed
everything and cheats: ``oracle``, the upper bound of what the hidden tiles
are worth, kept apart so that no fair player can take that interface by
accident.

Under rules with a muggins call two more decisions are made: how much of
its placement's score a seat claims (:class:`Claimer`), and whether an
opponent calls muggins on the rest, and for how much (:class:`Caller`).
Both are optional: a strategy without them claims every score it makes
(:func:`claim_all`) and calls muggins on every unclaimed score it is shown
(:func:`call_all`), so every strategy above plays as before. ``careless``
(:class:`CarelessStrategy`) is greedy that forgets to claim now and then,
the opponent that makes calls happen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from muggins_cli.engine.layout import layout_score
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    PassTurn,
    Place,
    RoundState,
    UnseenDraw,
    placement_score,
)
from muggins_cli.engine.view import SeatView, SeenMove, view_of
from muggins_cli.errors import InputError
from muggins_cli.play.seen import CallView, ClaimView, real_move
from muggins_cli.rules.model import Rules


class Strategy(Protocol):
    name: str

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move: ...


@runtime_checkable
class SeenStrategy(Protocol):
    """A strategy that decides from the mover's view alone."""

    name: str

    def choose_seen(self, rules: Rules, seen: SeatView, rng: random.Random) -> SeenMove: ...


@runtime_checkable
class FullStrategy(Protocol):
    """A strategy that is handed every hand and the stock: it cheats. Only
    ``oracle`` is one, as the upper bound of what knowing the hidden tiles
    is worth; nothing that judges a player uses it."""

    name: str

    def choose_full(self, rules: Rules, state: RoundState, moves: list[Move],
                    scores: Sequence[int], target: int, rng: random.Random) -> Move: ...


@runtime_checkable
class Claimer(Protocol):
    """A strategy that decides how much of its placement's score to claim,
    under rules with a muggins call: from 0 (no claim written) to
    ``view.points``. A strategy without ``claim`` claims it all."""

    def claim(self, rules: Rules, view: ClaimView, rng: random.Random) -> int: ...


@runtime_checkable
class Caller(Protocol):
    """A strategy that decides whether to call muggins on the placement it
    is shown, and for how much: 0 for no call, else at most what went
    unclaimed. A strategy without ``call`` takes every unclaimed point."""

    def call(self, rules: Rules, view: CallView, rng: random.Random) -> int: ...


def claim_all(view: ClaimView) -> int:
    """The default claim: every point the placement scored."""
    return view.points


def call_all(rules: Rules, view: CallView) -> int:
    """The default call: every point left unclaimed, counted from the
    layout the placement made (0, no call, when the claim was full)."""
    return max(0, layout_score(rules, view.layout) - view.claimed)


def claim_of(strategy: object, rules: Rules, view: ClaimView, rng: random.Random) -> int:
    """What ``strategy`` claims: its own decision, or :func:`claim_all`."""
    if isinstance(strategy, Claimer):
        return strategy.claim(rules, view, rng)
    return claim_all(view)


def call_of(strategy: object, rules: Rules, view: CallView, rng: random.Random) -> int:
    """What ``strategy`` calls muggins for: its own decision, or :func:`call_all`."""
    if isinstance(strategy, Caller):
        return strategy.call(rules, view, rng)
    return call_all(rules, view)


def greedy_seen(rules: Rules, seen: SeatView) -> SeenMove:
    """The greedy choice among the mover's moves: highest immediate score,
    ties to the heaviest tile; a draw or pass when nothing can be placed."""
    places = [m for m in seen.moves if isinstance(m, Place)]
    if not places:
        return seen.moves[0]
    return max(places, key=lambda m: (placement_score(rules, seen.layout, m), m.tile.pips))


class RandomStrategy:
    name = "random"

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move:
        return rng.choice(moves)


class GreedyStrategy:
    """Highest immediate score; ties go to the heaviest tile (shed pips)."""

    name = "greedy"

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move:
        places = [m for m in moves if isinstance(m, Place)]
        if not places:
            return moves[0]
        return max(places, key=lambda m: (placement_score(rules, state.layout, m), m.tile.pips))


#: How often ``careless`` forgets to claim a score it made: one in ten
#: already costs it much (over 80 duplicate two-player ``spinner`` matches,
#: seed 0, greedy beat it in 77.5%; in 61% at 0.05, 92.5% at 0.2).
DEFAULT_FORGET = 0.1


class CarelessStrategy(GreedyStrategy):
    """Greedy's moves, but it forgets to claim: under rules with a muggins
    call, each score it makes goes unclaimed with probability ``forget``
    (no claim written, so it credits nothing and an opponent may call
    muggins for all of it). Whether it forgets is drawn from the match's
    random stream, so a seed replays it; at ``forget`` 0 it never draws
    and plays greedy's match exactly. It calls muggins itself on every
    unclaimed score it is shown, as every strategy does. Under rules
    without a muggins call every score counts by itself, and it is greedy."""

    name = "careless"

    def __init__(self, forget: float = DEFAULT_FORGET) -> None:
        if not 0.0 <= forget <= 1.0:
            raise InputError(f"careless: forget must be a probability from 0 to 1, "
                             f"not {forget}")
        self.forget = forget

    def claim(self, rules: Rules, view: ClaimView, rng: random.Random) -> int:
        # No draw at 0 or 1: at 0 the match's random stream, and so the
        # match, is greedy's to the byte.
        if self.forget >= 1 or (self.forget > 0 and rng.random() < self.forget):
            return 0
        return view.points


#: The solver strategy's default cap on search nodes per move: about a
#: second at most (over 24 two-player ``pagat`` matches a cap of a quarter
#: of this cut 15 of 1,916 searches short; without one, a rare position, an
#: opponent who drew to 14 tiles early in a round, took 26 million nodes
#: and a minute for one move).
DEFAULT_NODES = 4_000_000


#: Deals the solver strategy solves a move while tiles are hidden, by the
#: number of players. Two players: 64 (over 30 duplicate pairs against
#: ``expectimax``, 8 deals lost 7 of 16 matches, 64 won 37 of 60 and 128 no
#: more in twice the time); three and four: 32, each deal a search of
#: every hand against the mover (paranoid).
SAMPLES: dict[int, int] = {2: 64, 3: 32, 4: 32}


def samples_for(players: int) -> int:
    """The solver strategy's deals a move for a table of ``players``."""
    return SAMPLES.get(players, SAMPLES[4])

#: How :class:`SolverStrategy` searches while tiles are hidden.
HIDDEN_SEARCHES: tuple[str, ...] = ("sample", "expectimax")
#: Its expectimax budget a move, by the number of players: nodes, and the
#: deepest iteration. With more opponents a ply reaches fewer of the mover's own
#: turns, so three and four players get four times the nodes: with two
#: players 5,000 (``expectimax``'s own budget, a few plies) won 287 of 300
#: matches against ``greedy``; with three, against two ``greedy`` seats on
#: the same 20 deal sequences, 20,000 won 39 of 60 and 5,000 won 34, each
#: move under 0.6 s.
EXPECTIMAX_BUDGET: dict[int, tuple[int, int]] = {2: (5_000, 7), 3: (20_000, 9), 4: (20_000, 9)}


#: The weight the solver's expectimax part gives a tile an opponent would
#: have outscored its placement with, per such placement (1: no inference;
#: see :mod:`muggins_cli.play.expectimax`). Players who score what they can
#: rarely hold such a tile; a small weight rather than none keeps a player
#: who does not in the model.
PASSED_OVER = 0.05


def deal_known(seen: SeatView) -> bool:
    """Whether the view fixes every hidden tile: one other hand, and it
    holds every tile the mover has not seen (the stock drawn down to
    nothing), so a search of the real deal is exact."""
    others = [n for s, n in enumerate(seen.hand_sizes) if s != seen.seat]
    return len(others) == 1 and others[0] == len(seen.unseen)


class SolverStrategy:
    """The strongest search on the mover's view, in two parts.

    While the view leaves the deal open (the stock not yet drawn down, or
    three and four players, whose hidden tiles are split among several
    hands), ``hidden`` says how the hidden tiles are searched:

    - ``sample`` (default): the solver's ``sample`` mode. The unseen tiles
      are dealt ``samples`` times (by default :data:`SAMPLES` for the
      number of players) consistently with the draws and passes seen and
      with what each opponent passed over (a tile that would have
      outscored a placement it made is held with weight ``passed_over``
      per such placement: a player who takes what it can score rarely
      holds one; a player seen laying a tile it had passed over is not
      read again); each deal is solved exactly (three and four players:
      every other hand against the mover, paranoid), and the best average
      is played. It is the strongest: over 30 duplicate pairs against
      ``expectimax`` it won 37 of 60 two-player matches where the
      expectimax search below won 24, and it wins where the knowledge of a
      deal is worth most, late in a round.
    - ``expectimax``: the depth-limited search of
      :mod:`muggins_cli.play.expectimax`, the other hands and the stock as
      chance, every opponent against the mover, on its own budget
      (``expectimax_nodes`` a move, by default :data:`EXPECTIMAX_BUDGET`
      for the number of players). Kept for comparison.

    Once the view fixes the deal (two players, every unseen tile in the
    other hand because the stock is drawn down), nothing is hidden and the
    solver's exact search decides, one deal.

    ``objective`` is that of the known deal's search: ``match`` (default)
    counts reaching the target first above any points; ``points`` counts
    only points to the round's end. Sampled deals are always solved for
    points, the objective the compiled search plays: solved for the match
    (in Python) whenever a player was within a quarter of the target, one
    pair of matches against ``greedy`` took 92 s and a move up to 9.9 s,
    against 15 s and 1.2 s.

    Forced moves are played without a search, and so is the round's
    opening tile unless ``search_lead``: it is led greedily (the
    highest-scoring lead, ties to the heaviest). Searching the lead a whole
    round deep costs about two thirds of a sampled match's time, and over
    60 duplicate rounds against ``greedy`` it gained nothing measurable
    (+10.5 points a round searched, +11.3 led greedily, 8 samples each).

    A move's searches stop at ``node_limit`` search nodes (default
    :data:`DEFAULT_NODES`; None for no cap) or ``time_limit`` seconds when
    given (a node
    limit keeps the play reproducible; a time limit makes it depend on the
    machine); the deals solved within the budget are averaged. Each search
    is seeded from the match's random stream, so a seeded match is played
    the same way every time. When the budget runs out before one deal is
    solved, the greedy move is played (counted in ``fallbacks``).
    """

    name = "solver"

    def __init__(self, *, samples: int | None = None, node_limit: int | None = DEFAULT_NODES,
                 time_limit: float | None = None, objective: str = "match",
                 search_lead: bool = False, hidden: str = "sample",
                 expectimax_nodes: int | None = None, passed_over: float = PASSED_OVER,
                 ) -> None:
        if samples is not None and samples < 1:
            raise InputError("solver: samples must be at least 1")
        if objective not in ("match", "points"):
            raise InputError(f"solver: unknown objective {objective!r} (match or points)")
        if hidden not in HIDDEN_SEARCHES:
            raise InputError(f"solver: unknown search of the hidden tiles {hidden!r} "
                             f"({' or '.join(HIDDEN_SEARCHES)})")
        self.hidden = hidden
        self.expectimax_nodes = expectimax_nodes
        self.passed_over = passed_over
        #: Seats seen laying a tile they had passed over: from then on in the
        #: match, what they pass over is not read (see ``read_placements``).
        self.loose: set[int] = set()
        self.samples = samples
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.objective = objective
        self.search_lead = search_lead
        self.searches = 0
        self.fallbacks = 0

    def choose_seen(self, rules: Rules, seen: SeatView, rng: random.Random) -> SeenMove:
        if len(seen.moves) == 1:
            return seen.moves[0]
        if not seen.layout.started and not self.search_lead:
            return greedy_seen(rules, seen)
        from muggins_cli.engine.table import table_for
        from muggins_cli.play.expectimax import passed_over_prior
        from muggins_cli.solver import Mode, Multi, Objective, Plan, solve

        seed = rng.randrange(1 << 31)
        self.searches += 1
        known = deal_known(seen)
        if not known and self.hidden == "expectimax":
            from muggins_cli.play.expectimax import ExpectimaxStrategy, settled_pip_weight

            nodes, depth = EXPECTIMAX_BUDGET.get(seen.players, EXPECTIMAX_BUDGET[4])
            return ExpectimaxStrategy(node_limit=self.expectimax_nodes or nodes, depth=depth,
                                      pip_weight=settled_pip_weight(rules),
                                      passed_over=self.passed_over,
                                      loose=self.loose).choose_seen(rules, seen, rng)
        objective = self.objective
        prior = None
        samples = 1
        if not known:
            samples = self.samples or samples_for(seen.players)
            objective = "points"
            if self.passed_over < 1.0:
                prior = passed_over_prior(table_for(rules), seen, self.passed_over, self.loose)
        cap = self.node_limit
        try:
            result = solve(rules, seen, Plan(Mode.SAMPLE, Objective(objective), Multi.PARANOID,
                                             samples=samples, seed=seed,
                                             time_limit=self.time_limit, node_limit=cap,
                                             pv=False, prior=prior))
        except InputError:  # no deal agrees with the view: never seen, but play on
            self.fallbacks += 1
            return greedy_seen(rules, seen)
        if result.interrupted:  # solve answers Ctrl-C; the match must stop
            raise KeyboardInterrupt
        choice = result.best  # None: no deal solved in the budget
        if not isinstance(choice, Place | PassTurn | UnseenDraw) or choice not in seen.moves:
            self.fallbacks += 1
            return greedy_seen(rules, seen)
        return choice

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move:
        """The :class:`Strategy` interface: decides from the mover's view of
        ``state`` (scores taken as 0, no draws or passes remembered)."""
        n = state.players
        seen = view_of(rules, state, moves, (0,) * n, rules.target_for(n))
        return real_move(moves, self.choose_seen(rules, seen, rng))


class OracleStrategy:
    """Cheats: the solver's ``perfect`` mode on the real hands and stock
    order, so it knows every hidden tile and every draw to come. Its margin
    over ``solver`` is what hidden information costs. Forced moves and the
    round's lead are played as :class:`SolverStrategy` plays them (the lead
    greedily), so the two differ only in what they know. When the node
    budget runs out, the best of the moves already valued is played (the
    greedy move when none is)."""

    name = "oracle"

    def __init__(self, *, node_limit: int | None = DEFAULT_NODES,
                 time_limit: float | None = None, objective: str = "match") -> None:
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.objective = objective

    def choose_full(self, rules: Rules, state: RoundState, moves: list[Move],
                    scores: Sequence[int], target: int, rng: random.Random) -> Move:
        greedy = GreedyStrategy()
        if len(moves) == 1 or not state.layout.started:
            return greedy.choose(rules, state, moves, rng)
        from muggins_cli.solver import Mode, Objective, Plan, solve

        result = solve(rules, state, Plan(Mode.PERFECT, Objective(self.objective),
                                          node_limit=self.node_limit,
                                          time_limit=self.time_limit, pv=False),
                       scores=scores, target=target)
        if result.interrupted:
            raise KeyboardInterrupt
        if result.best is None or result.best not in moves:
            return greedy.choose(rules, state, moves, rng)
        choice = result.best
        assert isinstance(choice, Place | PassTurn | KnownDraw)
        return choice


AnyStrategy = (RandomStrategy | GreedyStrategy | CarelessStrategy | SolverStrategy
               | OracleStrategy | SeenStrategy)

#: Every strategy by name, as the command line spells it.
STRATEGY_NAMES: tuple[str, ...] = ("random", "greedy", "careless", "defensive", "expectimax",
                                   "solver", "oracle")
#: The strategies that search with the solver (its first use on a machine
#: compiles it).
SEARCHING: frozenset[str] = frozenset({"solver", "oracle"})

#: The strategies that search with the solver (the ``solver`` extra).
SOLVING = frozenset({"solver", "oracle"})


def make_strategy(name: str, *, samples: int | None = None, node_limit: int | None = DEFAULT_NODES,
                  time_limit: float | None = None, objective: str = "match",
                  search_lead: bool = False, forget: float = DEFAULT_FORGET,
                  hidden: str = "sample") -> AnyStrategy:
    """A fresh strategy by name; the options are the solver's, and
    ``forget`` is careless's (each ignored by the others). Raises
    :class:`InputError` for an unknown name or a bad option, and
    :class:`NotInstalledError` for a solving one without the solver."""
    from muggins_cli.play.defensive import DefensiveStrategy
    from muggins_cli.play.expectimax import ExpectimaxStrategy

    makers: dict[str, Callable[[], AnyStrategy]] = {
        "random": RandomStrategy,
        "greedy": GreedyStrategy,
        "careless": lambda: CarelessStrategy(forget),
        "defensive": DefensiveStrategy,
        "expectimax": ExpectimaxStrategy,
        "solver": lambda: SolverStrategy(samples=samples, node_limit=node_limit,
                                         time_limit=time_limit, objective=objective,
                                         search_lead=search_lead, hidden=hidden),
        "oracle": lambda: OracleStrategy(node_limit=node_limit, time_limit=time_limit,
                                         objective=objective),
    }
    maker = makers.get(name)
    if maker is None:
        raise InputError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGY_NAMES)}")
    if name in SOLVING:
        from muggins_cli.solver import require

        require()
    return maker()
