"""What every search and its callers share: objectives, modes, budgets and
why a search stopped, and the pip sums of hands held as masks."""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum

from muggins_cli.engine.table import LayoutTable

#: The bonus a player gets for reaching the target under ``objective="match"``:
#: far above any points a round can score, so winning the match comes first.
MATCH_WIN = 100_000


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

    The compiled search runs in slices of a few thousand nodes and the
    limits are checked between them (:mod:`.kernel`); ``nodes`` counts what
    every search of the call has spent.
    """

    def __init__(self, time_limit: float | None, node_limit: int | None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.nodes = 0

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
