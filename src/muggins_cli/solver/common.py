"""Shared pieces of the searches: budgets, settlement, pip sums, target caps.

Kept apart from the searches so that each search module is only its hot
loop, and so that the semantics that must equal the engine's (settlement,
"a credit that reaches the target ends the match") live in one place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from enum import Enum

from muggins_cli.engine.scoring import credit_ends_match, settle, winner_at_settlement
from muggins_cli.engine.table import LayoutTable
from muggins_cli.rules.model import RoundEnd, Rules

#: The bonus a player gets for reaching the target under ``objective="match"``:
#: far above any points a round can score, so winning the match comes first.
MATCH_WIN = 100_000
#: A distance to the target that cannot be closed in what is left of a round.
FAR = 1 << 30
INF = float("inf")


class Objective(str, Enum):
    POINTS = "points"
    MATCH = "match"


class Mode(str, Enum):
    PERFECT = "perfect"
    EXPECT = "expect"
    SAMPLE = "sample"


class Stopped(str, Enum):
    """Why a search stopped before it finished (``SolveResult.stopped``).
    A ``str`` enum: ``res.stopped == "nodes"`` holds, and JSON writes the
    word."""

    NODES = "nodes"
    TIME = "time"
    INTERRUPT = "interrupt"


class BudgetExhausted(Exception):
    """Raised inside a search when its time or node budget runs out; the
    caller keeps what it finished and reports the answer as not exact."""

    def __init__(self, reason: Stopped) -> None:
        super().__init__(reason)
        self.reason = reason


class Budget:
    """Time and node limits shared by every search of one ``solve`` call.

    Checked every ``every`` nodes (a clock read per node would cost more
    than the node): 1024, or the largest power of two not above a smaller
    node limit, so that ``--nodes 10`` stops after about ten nodes and not
    a thousand. A search counts its nodes and, each time the count is a
    multiple of ``every`` (``not count & mask``), adds ``every`` and checks.
    """

    def __init__(self, time_limit: float | None, node_limit: int | None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.nodes = 0
        every = 1024
        while node_limit is not None and every > max(node_limit, 1):
            every >>= 1
        self.every = every
        self.mask = every - 1

    def check(self) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise BudgetExhausted(Stopped.NODES)
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise BudgetExhausted(Stopped.TIME)

    def left(self) -> float | None:
        """Seconds left, or None when there is no time limit."""
        if self.deadline is None:
            return None
        return self.deadline - time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


_PIPS: dict[int, Callable[[int], int]] = {}


def pip_counter(table: LayoutTable) -> Callable[[int], int]:
    """A function from a tile mask to its pip total, by 14-bit chunk tables:
    settlement needs hand pips at every leaf, and a bit loop there would be
    the slowest thing in the search. Built once per size of set."""
    found = _PIPS.get(table.n_tiles)
    if found is None:
        found = _PIPS[table.n_tiles] = _pip_counter(table)
    return found


def pip_chunks(table: LayoutTable) -> list[list[int]]:
    """The pips of every mask of 14 tiles, one table per 14 tiles of the set
    (the last one shorter): a hand's pips are the sum of its chunks'."""
    tiles = table.by_index
    chunks: list[list[int]] = []
    for base in range(0, table.n_tiles, 14):
        width = min(14, table.n_tiles - base)
        sums = [0] * (1 << width)
        for m in range(1, 1 << width):
            low = m & -m
            sums[m] = sums[m ^ low] + tiles[base + low.bit_length() - 1].pips
        chunks.append(sums)
    return chunks


def _pip_counter(table: LayoutTable) -> Callable[[int], int]:
    chunks = pip_chunks(table)
    if len(chunks) == 2:
        c0, c1 = chunks

        def two(mask: int) -> int:
            return c0[mask & 0x3FFF] + c1[mask >> 14]

        return two

    def many(mask: int) -> int:
        total = 0
        for sums in chunks:
            total += sums[mask & 0x3FFF]
            mask >>= 14
        return total

    return many


def settle_bonus_max(rules: Rules, table: LayoutTable) -> int:
    """The largest credit a round end can give anyone (0 under deduct-own)."""
    if rules.round_end is RoundEnd.DEDUCT_OWN:
        return 0
    total = sum(t.pips for t in table.tiles)
    if rules.round_end is RoundEnd.LIGHTEST_BONUS:
        return rules.round_hand(total) // rules.bonus_divisor
    return rules.round_hand(total)


class Settler:
    """Round-end results per seat, the engine's ``settle`` memoised by pips.

    ``results(pips, went_out, dists)`` gives what each seat gets from the
    settlement, with the match-objective bonus: a credit reaching the target
    ends the match there (the settlement *is* that credit, so the points are
    unchanged) and under ``match`` its owner gets ``MATCH_WIN`` and everyone
    else ``-MATCH_WIN``.
    """

    def __init__(self, rules: Rules, objective: Objective) -> None:
        self.rules = rules
        self.match = objective is Objective.MATCH
        self.cache: dict[tuple[tuple[int, ...], int | None], list[int]] = {}

    def deltas(self, pips: Sequence[int], went_out: int | None) -> list[int]:
        key = (tuple(pips), went_out)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = settle(self.rules, pips, went_out)
        return found

    def winner(self, deltas: Sequence[int], dists: Sequence[int]) -> int | None:
        """Who the settlement ``deltas`` makes the winner, by the engine's
        rule: totals are taken as minus the distances, with a target of 0."""
        return winner_at_settlement(self.rules, [-d for d in dists], deltas, 0)

    def results(
        self, pips: Sequence[int], went_out: int | None, dists: Sequence[int]
    ) -> list[int]:
        d = self.deltas(pips, went_out)
        if not self.match:
            return d
        i = self.winner(d, dists)
        if i is not None:
            return [y + (MATCH_WIN if j == i else -MATCH_WIN) for j, y in enumerate(d)]
        return d

    def pair(self, pips_a: int, pips_b: int, a_out: bool, da: int, db: int) -> int:
        """Two players, from ``a``'s side: ``a``'s settlement minus ``b``'s,
        with the match bonus when a settlement reaches a target (``da`` and
        ``db`` are the distances to it)."""
        d = self.deltas((pips_a, pips_b), 0 if a_out else None)
        v = d[0] - d[1]
        if self.match:
            won = self.winner(d, (da, db))
            if won is not None:
                v += MATCH_WIN if won == 0 else -MATCH_WIN
        return v


def dist_offset(rules: Rules, far: int, low: int) -> int:
    """What table keys add to a distance to the target so that it is never
    negative. Under ``at-target`` a distance is always positive (reaching 0
    ends the match); under ``round-end`` play goes on past the target, so a
    distance falls as low as the lowest at the root (``low``) less what one
    round can score (under ``far``)."""
    if credit_ends_match(rules):
        return 0
    return far - min(low, 0)


class TwoPlayerSearch:
    """What the two-player searches (:class:`~.perfect.Perfect2`,
    :class:`~.expect.Expect2`) share: the round-end settlement from one
    side, the pip counts, the largest round-end bonus, and ``far``, a
    distance to the target no round can close (the key then ignores it).
    Each search builds its own closures over these for speed."""

    def __init__(self, rules: Rules, table: LayoutTable, objective: Objective,
                 budget: Budget, live: bool, low: int = 0) -> None:
        self.rules = rules
        self.table = table
        self.objective = objective
        self.budget = budget
        self.live = live
        self.settler = Settler(rules, objective)
        self.pips = pip_counter(table)
        self.bonus = settle_bonus_max(rules, table)
        self.far = table.max_place * table.n_tiles + self.bonus + 1
        self.off = dist_offset(rules, self.far, low)
        self.dist_bits = (self.far + self.off).bit_length()
        #: Whether a placement reaching the target ends the match there.
        self.ends_on_credit = credit_ends_match(rules)
        self.nodes = 0
        self.settle2 = self._settle2()

    def _settle2(self) -> Callable[[int, int, bool, int, int], int]:
        """``settle2(a, b, a_out, da, db)``: the round end from the side of
        the hand ``a`` (see :meth:`Settler.pair`). Under the points
        objective it depends on the two pip counts alone, and is looked up
        in a table shared by every search of the same rules (a sampled
        position solves many deals, each a new search)."""
        pips, pair = self.pips, self.settler.pair
        if self.objective is Objective.MATCH:
            def settle2_match(a: int, b: int, a_out: bool, da: int, db: int) -> int:
                return pair(pips(a), pips(b), a_out, da, db)

            return settle2_match
        known = _PAIRS.setdefault(self.rules, {})
        get = known.get

        def settle2(a: int, b: int, a_out: bool, da: int, db: int) -> int:
            pa, pb = pips(a), pips(b)
            key = (pa << 11 | pb) << 1 | a_out  # a hand holds under 2048 pips
            v = get(key)
            if v is None:
                v = known[key] = pair(pa, pb, a_out, da, db)
            return v

        return settle2


#: Two-player round ends under the points objective, by rules, keyed by the
#: two pip counts and who went out (see :meth:`TwoPlayerSearch._settle2`).
_PAIRS: dict[Rules, dict[int, int]] = {}
