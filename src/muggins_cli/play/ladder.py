"""A ladder of strategies: duplicate arenas between neighbours (or every
pair) and one rating scale for all of them.

A win rate says how two strategies compare; a ladder has to put five of
them on one scale, which needs a model: Bradley–Terry (the model behind
Elo), fitted by maximum likelihood to every pairing's wins, on the Elo
scale (400 points: ten to one odds) and anchored at the first strategy
(``random``) = 0. Half a win is added to each side of every pairing, so a
clean sweep gives a large but finite gap. An unfinished match counts half
to each side. With neighbours only, the fit is exact: each step up the
ladder is ``400 log10(wins / losses)`` of that pairing alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from muggins_cli.errors import InputError
from muggins_cli.play.arena import ArenaResult, ArenaSpec, Game, Pool, play_pairs, tally, wilson
from muggins_cli.play.strategies import STRATEGY_NAMES

#: Added to each side's wins in every pairing before the fit.
PRIOR = 0.5


def pairings(names: Sequence[str], every: bool = False) -> list[tuple[str, str]]:
    """Who plays whom: each strategy against the next (the lower rung
    first), or with ``every`` all pairs, in the order given."""
    if len(names) < 2:
        raise InputError("a ladder needs at least two strategies")
    if len(set(names)) != len(names):
        raise InputError("a ladder names each strategy once")
    for n in names:
        if n not in STRATEGY_NAMES:
            raise InputError(f"unknown strategy {n!r}; choose from {', '.join(STRATEGY_NAMES)}")
    if every:
        return [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    return [(names[i], names[i + 1]) for i in range(len(names) - 1)]


@dataclass(frozen=True)
class Rung:
    """One pairing's result, from A's side: wins, losses and matches
    nobody won."""

    a: str
    b: str
    matches: int
    wins: int
    losses: int
    unfinished: int

    @classmethod
    def of(cls, result: ArenaResult) -> Rung:
        a, b = result.sides
        return cls(result.spec.a, result.spec.b, result.matches, a.wins, b.wins, result.draws)

    @property
    def score(self) -> float:
        """A's share of the matches, an unfinished one counting half."""
        return (self.wins + self.unfinished / 2) / self.matches if self.matches else 0.0


def ratings(names: Sequence[str], rungs: Sequence[Rung], iterations: int = 10_000
            ) -> dict[str, float]:
    """Elo-scale Bradley–Terry ratings, ``names[0]`` = 0 (see the module
    docstring). Raises InputError when a strategy is not linked to the
    first by some chain of pairings (its rating would mean nothing)."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    won = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for r in rungs:
        i, j = index[r.a], index[r.b]
        won[i] += r.wins + r.unfinished / 2 + PRIOR
        won[j] += r.losses + r.unfinished / 2 + PRIOR
        games[i][j] += r.matches + 2 * PRIOR
        games[j][i] += r.matches + 2 * PRIOR
    linked = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in range(k):
            if games[i][j] and j not in linked:
                linked.add(j)
                frontier.append(j)
    if len(linked) < k:
        missing = ", ".join(names[i] for i in range(k) if i not in linked)
        raise InputError(f"no chain of pairings links {missing} to {names[0]}")
    gamma = [1.0] * k
    for _ in range(iterations):  # the minorise-maximise updates of Hunter (2004)
        new = []
        for i in range(k):
            den = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if games[i][j])
            new.append(won[i] / den)
        top = new[0]
        new = [g / top for g in new]
        step = max(abs(math.log(a / b)) for a, b in zip(new, gamma))
        gamma = new
        if step < 1e-12:
            break
    return {n: 400 * math.log10(gamma[i]) for n, i in index.items()}


@dataclass
class Ladder:
    """Every pairing's arena result and the ratings they give."""

    names: tuple[str, ...]
    results: list[ArenaResult]

    @property
    def rungs(self) -> list[Rung]:
        return [Rung.of(r) for r in self.results]

    def ratings(self) -> dict[str, float]:
        return ratings(self.names, self.rungs)


def run_ladder(names: Sequence[str], base: ArenaSpec, pairs: int, *, every: bool = False,
               pool: Pool | None = None,
               on_pair: Callable[[list[Game]], None] | None = None) -> Ladder:
    """Play each pairing as an arena of ``pairs`` deal sequences; ``base``
    gives everything but the two strategies (the same seed for each, so
    every pairing sees the same deals)."""
    results = []
    for a, b in pairings(names, every):
        spec = replace(base, a=a, b=b)
        games: list[Game] = []
        for done in play_pairs(spec, pairs, pool=pool):
            games.extend(done)
            if on_pair is not None:
                on_pair(done)
        results.append(tally(spec, games))
    return Ladder(tuple(names), results)


def ladder_json(ladder: Ladder) -> dict[str, object]:
    rates = ladder.ratings()
    spec = ladder.results[0].spec
    return {
        "rules": spec.rules_tag or spec.rules.name,
        "players": spec.players,
        "seed": spec.seed,
        "ladder": list(ladder.names),
        "pairings": [
            {"a": r.a, "b": r.b, "matches": r.matches, "a_wins": r.wins, "b_wins": r.losses,
             "unfinished": r.unfinished, "a_score": round(r.score, 4),
             "interval95": [round(x, 4) for x in wilson(r.wins, r.matches)]}
            for r in ladder.rungs
        ],
        "ratings": {n: round(v, 1) for n, v in rates.items()},
        "anchor": ladder.names[0],
    }


__all__ = ["PRIOR", "Ladder", "Rung", "ladder_json", "pairings", "ratings", "run_ladder"]
