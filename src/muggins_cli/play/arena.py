"""Two strategies against each other, in duplicate format.

Every deal is played twice with the seats swapped, to take the luck of the
deal out: match ``k`` draws its rounds' shuffles (and the lots that choose a
leader) from its own seeded stream, in round order, and keeps them, so both
legs see round N's deal, whoever won the round before. In the first leg
seat ``i`` is played by A when ``i`` is even and by B when odd; in the second
leg the other way round, so each strategy sits behind the same hands once.
With ``lone``, A takes one seat and B every other, and the deal sequence is
played once per seat, A in seat 0, then 1, and so on (A's fair share of the
wins is then one in the number of players).

Every pair is a pure function of (settings, seed, pair number), so pairs
can be played in any order or in other processes and give the same result.

Under rules with a muggins call each side's claims and calls are counted
(:class:`~muggins_cli.play.selfplay.Claims`): the scores its placements
made and what it claimed of them, the unclaimed scores it was shown and
what it called, so that "claims every score it makes, calls every unclaimed
score it is shown" is a number, not a hope.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from muggins_cli.engine.state import deal, deal_with_double, leads_by_deal
from muggins_cli.notation import model as m
from muggins_cli.play.selfplay import Claims, RoundDeal, play_match
from muggins_cli.play.strategies import (
    DEFAULT_FORGET,
    DEFAULT_NODES,
    make_strategy,
    samples_for,
)
from muggins_cli.rules.model import Rules

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``wins`` in ``n``
    (``(0.0, 1.0)`` when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


class DealSequence:
    """Round deals for one match: round N's shuffle and lot are the N-th
    drawn from ``random.Random(seed)``, drawn once and kept."""

    def __init__(self, rules: Rules, players: int, seed: str) -> None:
        self.rules = rules
        self.players = players
        self._rng = random.Random(seed)
        self._deals: list[RoundDeal] = []

    def __call__(self, round_number: int) -> RoundDeal:
        while len(self._deals) < round_number:
            lot = self._rng.randrange(self.players)
            # Under the highest-double lead every deal holds a double, so
            # whichever rounds turn out to need one, both legs can use it.
            dealer = deal_with_double if leads_by_deal(self.rules) else deal
            hands, stock = dealer(self.rules, self.players, self._rng)
            self._deals.append(RoundDeal(tuple(tuple(h) for h in hands), tuple(stock), lot))
        return self._deals[round_number - 1]


@dataclass(frozen=True)
class ArenaSpec:
    """What an arena plays: the two strategies (by name), the rules, the
    table size and target, the seed, the solver's budget per move, and how
    often ``careless`` forgets to claim."""

    a: str
    b: str
    rules: Rules
    players: int = 2
    seed: int = 0
    target: int | None = None
    rules_tag: str | None = None
    samples: int | None = None
    node_limit: int | None = DEFAULT_NODES
    time_limit: float | None = None
    objective: str = "match"
    search_lead: bool = False
    hidden: str = "sample"
    lone: bool = False
    forget: float = DEFAULT_FORGET

    @property
    def legs(self) -> int:
        """Matches per deal sequence: 2, or one per seat when ``lone``."""
        return self.players if self.lone else 2

    @property
    def fair_share(self) -> float:
        """A's share of the wins if it were no better than B."""
        return 1 / self.players if self.lone else 0.5

    def labels(self) -> tuple[str, str]:
        """The two sides' names in tables and records."""
        if self.a == self.b:
            return f"{self.a}-a", f"{self.b}-b"
        return self.a, self.b

    def sides(self, leg: int) -> tuple[int, ...]:
        """Which side (0: A, 1: B) sits in each seat in a leg."""
        if self.lone:
            return tuple(0 if i == leg else 1 for i in range(self.players))
        return tuple((i + leg) % 2 for i in range(self.players))

    def names(self, leg: int) -> list[str]:
        labels = self.labels()
        sides = self.sides(leg)
        seen: dict[int, int] = {}
        out = []
        for s in sides:
            seen[s] = seen.get(s, 0) + 1
            alone = self.players == 2 or (self.lone and sides.count(s) == 1)
            out.append(labels[s] if alone else f"{labels[s]}{seen[s]}")
        return out


@dataclass(frozen=True)
class Game:
    """One leg of one pair: who sat where and how it ended."""

    pair: int
    leg: int
    sides: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int | None  # the seat
    rounds: int
    record: m.Match | None = None
    #: Seconds of each decision with a choice, by side (A, B): not compared,
    #: since they depend on the machine.
    seconds: tuple[tuple[float, ...], tuple[float, ...]] = field(
        default=((), ()), compare=False)
    #: Claims and muggins calls, by side (A, B), summed over its seats.
    claims: tuple[Claims, Claims] = (Claims(), Claims())

    @property
    def winning_side(self) -> int | None:
        return None if self.winner is None else self.sides[self.winner]


def play_pair(spec: ArenaSpec, pair: int, keep_records: bool = False) -> list[Game]:
    """Every leg of pair ``pair`` (numbered from 0)."""
    deals = DealSequence(spec.rules, spec.players, f"arena:{spec.seed}:{pair}:deals")
    games = []
    for leg in range(spec.legs):
        sides = spec.sides(leg)
        strategies = [
            make_strategy((spec.a, spec.b)[s], samples=spec.samples, node_limit=spec.node_limit,
                          time_limit=spec.time_limit, objective=spec.objective,
                          search_lead=spec.search_lead, forget=spec.forget,
                          hidden=spec.hidden)
            for s in sides
        ]
        rng = random.Random(f"arena:{spec.seed}:{pair}:{leg}")
        timings: list[list[float]] = [[] for _ in sides]
        out = play_match(spec.rules, spec.names(leg), strategies, rng, rules_tag=spec.rules_tag,
                         target=spec.target, event=f"Arena {pair + 1}.{leg + 1}", dealer=deals,
                         timings=timings)
        by_side = tuple(tuple(t for seat, s in enumerate(sides) if s == side
                              for t in timings[seat]) for side in (0, 1))
        claims = tuple(sum((out.claims[seat] for seat, s in enumerate(sides) if s == side),
                           Claims()) for side in (0, 1))
        record = None
        if keep_records:
            labels = spec.labels()
            tag = m.Tag("Strategies", ", ".join(labels[s] for s in sides), 0, 0)
            record = replace(out.record, tags=(*out.record.tags, tag))
        games.append(Game(pair, leg, sides, tuple(out.scores), out.winner, out.rounds, record,
                          (by_side[0], by_side[1]), (claims[0], claims[1])))
    return games


T = TypeVar("T")


class Pool(Protocol):
    """Worker processes to play pairs on (the command line's, which knows
    how to stop them on Ctrl-C or a signal): ``fn(item, *args)`` for every
    item, results in order."""

    def map(self, fn: Callable[..., T], items: Iterable[Any], *args: Any) -> Iterator[T]: ...


def _pair(k: int, spec: ArenaSpec, keep_records: bool) -> list[Game]:
    return play_pair(spec, k, keep_records)


def play_pairs(spec: ArenaSpec, pairs: int, *, pool: Pool | None = None,
               keep_records: bool = False) -> Iterator[list[Game]]:
    """Every pair's games, in pair order, on ``pool``'s workers or, without
    one, here."""
    if pool is None:
        return (play_pair(spec, k, keep_records) for k in range(pairs))
    return pool.map(_pair, range(pairs), spec, keep_records)


@dataclass
class SideStats:
    """One side's tally over every game."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0  # final scores of its seats, summed
    seat_rounds: int = 0  # rounds played, once per seat it held
    claims: Claims = field(default_factory=Claims)  # under rules with a muggins call

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def points_per_round(self) -> float:
        return self.points / self.seat_rounds if self.seat_rounds else 0.0


@dataclass
class ArenaResult:
    """The tally: per side, and per pair (which side won both legs)."""

    spec: ArenaSpec
    pairs: int
    sides: list[SideStats]
    games: list[Game] = field(default_factory=list)
    swept: tuple[int, int] = (0, 0)  # pairs where A, B won every leg
    split: int = 0
    draws: int = 0  # games nobody won (stopped at the round limit)

    @property
    def matches(self) -> int:
        return len(self.games)


def tally(spec: ArenaSpec, games: Sequence[Game]) -> ArenaResult:
    games = sorted(games, key=lambda g: (g.pair, g.leg))
    labels = spec.labels()
    sides = [SideStats(labels[0]), SideStats(labels[1])]
    by_pair: dict[int, list[int | None]] = {}
    for g in games:
        for s, st in enumerate(sides):
            seats = [i for i, side in enumerate(g.sides) if side == s]
            st.games += 1
            st.wins += g.winning_side == s
            st.points += sum(g.scores[i] for i in seats)
            st.seat_rounds += g.rounds * len(seats)
            st.claims += g.claims[s]
        by_pair.setdefault(g.pair, []).append(g.winning_side)
    swept_a = sum(1 for w in by_pair.values() if w == [0] * spec.legs)
    swept_b = sum(1 for w in by_pair.values() if w == [1] * spec.legs)
    draws = sum(1 for g in games if g.winner is None)
    return ArenaResult(spec, len(by_pair), sides, list(games), (swept_a, swept_b),
                       len(by_pair) - swept_a - swept_b, draws)


def run_arena(spec: ArenaSpec, pairs: int, *, pool: Pool | None = None,
              keep_records: bool = False,
              on_pair: Callable[[list[Game]], None] | None = None) -> ArenaResult:
    """Play ``pairs`` duplicate pairs and tally them."""
    games: list[Game] = []
    for done in play_pairs(spec, pairs, pool=pool, keep_records=keep_records):
        games.extend(done)
        if on_pair is not None:
            on_pair(done)
    return tally(spec, games)


def as_json(result: ArenaResult) -> dict[str, object]:
    spec = result.spec
    return {
        "a": spec.a,
        "b": spec.b,
        "rules": spec.rules_tag or spec.rules.name,
        "players": spec.players,
        "seating": "lone" if spec.lone else "alternate",
        "fair_share": round(spec.fair_share, 4),
        "target": spec.target if spec.target is not None else spec.rules.target_for(spec.players),
        "seed": spec.seed,
        "pairs": result.pairs,
        "matches": result.matches,
        "solver": {"samples": spec.samples or samples_for(spec.players),
                   "nodes": spec.node_limit,
                   "time": spec.time_limit, "objective": spec.objective,
                   "search_lead": spec.search_lead, "hidden": spec.hidden},
        "careless": {"forget": spec.forget},
        "strategies": [
            {"name": s.name, "matches": s.games, "wins": s.wins,
             "win_rate": round(s.win_rate, 4),
             "interval95": [round(x, 4) for x in s.interval],
             "points_per_round": round(s.points_per_round, 2),
             **({"muggins": claims_json(s.claims)} if spec.rules.muggins else {})}
            for s in result.sides
        ],
        "duplicate": {"a_won_both": result.swept[0], "b_won_both": result.swept[1],
                      "split": result.split},
        "unfinished": result.draws,
    }


def claims_json(c: Claims) -> dict[str, int]:
    """A side's claims and calls: the scores it made and claimed in full
    (and their points), the unclaimed scores it was shown and called (and
    theirs), and the points credited by claims and calls together."""
    return {"made": c.made, "made_points": c.made_points, "claimed": c.claimed,
            "claimed_points": c.claimed_points, "shown": c.shown,
            "shown_points": c.shown_points, "called": c.called,
            "called_points": c.called_points, "credited": c.credited}


def claims_text(name: str, c: Claims) -> str:
    """One line on a side's claims and calls, for the table and the bench."""
    return (f"{name} claimed {c.claimed} of the {c.made} scores it made "
            f"({c.claimed_points} of {c.made_points} points) and called muggins on "
            f"{c.called} of the {c.shown} unclaimed scores it was shown "
            f"({c.called_points} of {c.shown_points} points)")


__all__ = [
    "Z95",
    "ArenaResult",
    "ArenaSpec",
    "DealSequence",
    "Game",
    "Pool",
    "SideStats",
    "as_json",
    "claims_json",
    "claims_text",
    "play_pair",
    "play_pairs",
    "run_arena",
    "tally",
    "wilson",
]
