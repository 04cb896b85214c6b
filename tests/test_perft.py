"""Perft: legal-move counts from fixed positions, like python-chess's
``examples/perft``.

A position is a fixed deal and stock order (once shuffled with a seeded
``random.Random`` and written out here as literal tiles), a leader, and a
prefix of moves played from it. ``perft(n)`` is the number of leaves of the
move tree ``n`` moves deep, where a move is anything ``legal_moves`` offers:
a placement (one per tile and open end, several when ends show the same pip),
a draw or a pass. A round that ends before depth ``n`` contributes nothing.

The expected numbers were computed once by the enumerator in this file, which
is written from docs/rules.md "Play" and never calls ``legal_moves``/``apply``;
the engine was checked to agree and the numbers were then frozen in
``POSITIONS``. The enumerator stays as a cross-check: it must give the same
counts, and at every node of the tree the same move list and the same
open-end total as ``engine.layout.count``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pytest

from muggins_cli.engine.layout import count
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    PassTurn,
    Place,
    RoundState,
    apply,
    legal_moves,
    new_round,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules, Spinner, SpinnerCount
from muggins_cli.tiles import End, Tile, full_set

PAGAT = load_preset("pagat")
SPINNER = load_preset("spinner")
ALL_THREES = load_preset("all-threes")
SPINNER_SIDES_FIRST = dataclasses.replace(SPINNER, spinner_sides_first=True)
DOUBLE_NINE_HANDS = {2: 10, 3: 8, 4: 7}
PAGAT_NINE = dataclasses.replace(
    PAGAT, name="pagat-double-nine", max_pip=9, hand_size=DOUBLE_NINE_HANDS
)
SPINNER_NINE = dataclasses.replace(
    SPINNER, name="spinner-double-nine", max_pip=9, hand_size=DOUBLE_NINE_HANDS
)
PAGAT_RESERVE = dataclasses.replace(PAGAT, stock_reserve=2)


# --------------------------------------------------------------------------
# The independent enumerator, from docs/rules.md "Play" alone.
#
# It keeps only what move generation and counting need: the pip showing at
# each open end and whether a crosswise double ends it, whether a spinner is
# down and which of its arms are still bare.
# Moves are strings in the engine's spelling: "a-b" for the lead (a faces L),
# "a-bE" for a tile joining end E, "da-b" for a draw and "pass".


def _tile(text: str) -> Tile:
    return Tile.parse(text)


@dataclass
class Table:
    """The open ends of the layout and what each one counts.

    ``doubled`` marks an end whose outermost tile is a double laid crosswise
    (it counts both halves); ``bare`` holds the spinner's arms that have no
    tile yet; ``lone`` is true while the opening tile is alone.
    """

    started: bool = False
    ends: dict[str, int] = field(default_factory=dict)  # L, R (and U, D with a spinner)
    doubled: dict[str, bool] = field(default_factory=dict)
    spinner: int | None = None  # the spinner's pip, once the first double is down
    bare: set[str] = field(default_factory=set)
    lone: bool = False

    def copy(self) -> Table:
        return Table(self.started, dict(self.ends), dict(self.doubled), self.spinner,
                     set(self.bare), self.lone)

    def open_ends(self, rules: Rules) -> list[tuple[str, int]]:
        """Which ends a tile may join, with their pips, in the order L, R, U, D."""
        out = [("L", self.ends["L"]), ("R", self.ends["R"])]
        # "the first double played takes tiles on all four sides"; with
        # spinner_sides_first "U and D arms open only once both L and R
        # sides have a tile".
        if self.spinner is not None and not (
            rules.spinner_sides_first and self.bare & {"L", "R"}
        ):
            out += [("U", self.ends["U"]), ("D", self.ends["D"])]
        return out

    def lay_lead(self, rules: Rules, a: int, b: int) -> None:
        self.started, self.lone = True, True
        self.ends = {"L": a, "R": b}
        self.doubled = {"L": a == b, "R": a == b}
        if rules.spinner is Spinner.FIRST_DOUBLE and a == b:
            self._make_spinner(a, bare={"L", "R"})

    def lay(self, rules: Rules, tile: Tile, end: str) -> None:
        pip = self.ends[end]
        outer = tile.hi if tile.lo == pip else tile.lo
        self.ends[end] = outer
        self.lone = False
        if self.spinner is None and rules.spinner is Spinner.FIRST_DOUBLE and tile.is_double:
            # A later first double: the line lies on one side of it and the
            # side it was played from is bare, as are the new U and D arms.
            self.doubled[end] = False
            self._make_spinner(outer, bare={end})
        else:
            self.doubled[end] = tile.is_double
            self.bare.discard(end)

    def _make_spinner(self, pip: int, bare: set[str]) -> None:
        self.spinner = pip
        self.ends.update(U=pip, D=pip)
        self.doubled.update(U=False, D=False)
        self.bare = bare | {"U", "D"}  # a bare arm of the spinner counts by spinner_count

    def total(self, rules: Rules) -> int:
        """The open-end count of docs/rules.md "Play" and "spinner_count"."""

        def end(e: str) -> int:
            return 2 * self.ends[e] if self.doubled.get(e) else self.ends[e]

        if self.spinner is None:
            if self.lone and self.doubled["L"]:
                return 2 * self.ends["L"]  # "a lone lead double counts its pips once"
            return end("L") + end("R")
        total = sum(end(e) for e in "LRUD" if e not in self.bare)
        if rules.spinner_count is SpinnerCount.EXPOSED_ENDS:
            return total + self.spinner * len(self.bare & {"U", "D"})
        return total + (2 * self.spinner if self.bare & {"L", "R"} else 0)


@dataclass
class Brute:
    """A round with every tile known, as docs/rules.md "Play" describes it."""

    rules: Rules
    hands: list[set[Tile]]
    stock: list[Tile]
    to_move: int
    table: Table = field(default_factory=Table)
    pending: Tile | None = None  # drawn, fits, must be placed at once
    over: bool = False

    @classmethod
    def start(cls, rules: Rules, hands: Sequence[Sequence[str]], stock: Sequence[str],
              leader: int) -> Brute:
        return cls(rules, [{_tile(t) for t in h} for h in hands], [_tile(t) for t in stock],
                   leader)

    def copy(self) -> Brute:
        return Brute(self.rules, [set(h) for h in self.hands], list(self.stock), self.to_move,
                     self.table.copy(), self.pending, self.over)

    def drawable(self) -> int:
        return max(0, len(self.stock) - self.rules.stock_reserve)

    def joins(self, tiles: Sequence[Tile] | set[Tile]) -> list[str]:
        if not self.table.started:
            return [f"{t.lo}-{t.hi}" for t in sorted(tiles)]
        ends = self.table.open_ends(self.rules)
        return [f"{t}{e}" for t in sorted(tiles) for e, pip in ends if pip in (t.lo, t.hi)]

    def moves(self) -> list[str]:
        if self.over:
            return []
        if self.pending is not None:
            return self.joins([self.pending])
        out = self.joins(self.hands[self.to_move])
        assert self.rules.must_play, "the enumerator knows must_play only"
        if not out:
            # "A player who cannot draws one tile at a time ... Only with no
            # fit and an empty stock (down to stock_reserve) does a player pass."
            out = [f"d{self.stock[0]}"] if self.drawable() else ["pass"]
        return out

    def blocked(self) -> bool:
        return not self.drawable() and not any(self.joins(h) for h in self.hands)

    def play(self, move: str) -> Brute:
        nxt = self.copy()
        nxt._play(move)
        return nxt

    def _play(self, move: str) -> None:
        seat = self.to_move
        hand = self.hands[seat]
        if move.startswith("d"):
            tile = self.stock.pop(0)
            assert str(tile) == move[1:]
            hand.add(tile)
            ends = self.table.open_ends(self.rules)
            self.pending = tile if any(tile.has(p) for _, p in ends) else None
            return  # the drawer keeps the turn
        self.to_move = (seat + 1) % len(self.hands)
        if move != "pass":
            if move[-1] in "LRUD":
                tile, end = _tile(move[:-1]), move[-1]
                self.table.lay(self.rules, tile, end)
            else:
                a, b = (int(x) for x in move.split("-"))
                tile = Tile.of(a, b)
                self.table.lay_lead(self.rules, a, b)
            hand.remove(tile)
            self.pending = None
            if not hand:  # domino
                self.over = True
                return
        # "... or when the stock is empty and nobody can place (blocked)". A
        # turn is draws and then a placement or a pass, so a player who draws
        # the last tile and cannot place it still passes before the round ends.
        if self.blocked():
            self.over = True


def brute_perft(node: Brute, depth: int) -> int:
    if depth == 0:
        return 1
    moves = node.moves()
    if depth == 1:
        return len(moves)
    return sum(brute_perft(node.play(mv), depth - 1) for mv in moves)


# --------------------------------------------------------------------------
# The engine side


def engine_move(text: str) -> Move:
    if text == "pass":
        return PassTurn()
    if text.startswith("d"):
        return KnownDraw(_tile(text[1:]))
    if text[-1] in "LRUD":
        return Place(_tile(text[:-1]), End(text[-1]))
    a, _ = (int(x) for x in text.split("-"))
    return Place(_tile(text), None, left=a)


def engine_perft(rules: Rules, state: RoundState, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(rules, state)
    if depth == 1:
        return len(moves)
    return sum(engine_perft(rules, apply(rules, state, mv)[0], depth - 1) for mv in moves)


# --------------------------------------------------------------------------
# Positions


@dataclass(frozen=True)
class Position:
    name: str
    rules: Rules
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    leader: int
    prefix: tuple[str, ...]
    perft: tuple[int, ...]  # depth 1, 2, 3, 4

    def engine_state(self) -> RoundState:
        hands = [[_tile(t) for t in h] for h in self.hands]
        state = new_round(hands, [_tile(t) for t in self.stock], self.leader)
        for text in self.prefix:
            state, _ = apply(self.rules, state, engine_move(text))
        return state

    def brute(self) -> Brute:
        node = Brute.start(self.rules, self.hands, self.stock, self.leader)
        for text in self.prefix:
            assert text in node.moves(), f"{text} is not legal in {self.name}"
            node = node.play(text)
        return node


def _walk(position: Position, depth: int) -> Iterator[tuple[RoundState, Brute]]:
    """Every node of the tree down to ``depth``, reached by both sides."""
    rules = position.rules
    frontier = [(position.engine_state(), position.brute())]
    for _ in range(depth):
        grown: list[tuple[RoundState, Brute]] = []
        for state, node in frontier:
            yield state, node
            for mv in legal_moves(rules, state):
                grown.append((apply(rules, state, mv)[0], node.play(str(mv))))
        frontier = grown
    yield from frontier


# The deals are ``deal(rules, players, random.Random(seed))`` for a fixed
# seed, the prefixes seeded random play from them, written out once; the
# counts are ``brute_perft`` at depths 1 to 4 (the engine agreed).
POSITIONS: list[Position] = [
    Position(
        "pagat, 2 players, the deal",
        PAGAT,
        (
            ("2-6", "5-6", "1-4", "0-4", "1-6", "0-1", "2-2"),
            ("6-6", "4-5", "3-4", "3-3", "2-5", "1-5", "0-0"),
        ),
        (
            "1-3", "0-6", "0-3", "2-4", "5-5", "4-4", "0-5", "0-2", "2-3", "1-1",
            "3-6", "4-6", "3-5", "1-2",
        ),
        0,
        (),
        (7, 18, 49, 113),
    ),
    Position(
        "pagat, 2 players, stock of 2: draws",
        PAGAT,
        (
            ("0-5", "3-4", "5-5", "2-3", "1-1", "3-3", "4-5"),
            ("2-4", "0-4", "6-6", "3-5", "4-4", "2-5", "4-6"),
        ),
        (
            "1-6", "0-2", "0-6", "1-4", "1-2", "3-6", "5-6", "1-3", "2-2", "0-1",
            "2-6", "1-5", "0-0", "0-3",
        ),
        0,
        (
            "4-5", "4-4L", "3-4L", "2-5R", "3-3L", "3-5L", "2-3R", "d1-6", "d0-2",
            "d0-6", "d1-4", "d1-2", "d3-6", "3-6R", "5-5L", "0-6R", "0-5R", "d5-6",
            "5-6L", "d1-3", "d2-2", "d0-1", "d2-6", "2-6L", "0-2L", "0-1L", "1-2L",
            "2-2L", "2-4L", "d1-5", "1-5R",
        ),
        (5, 10, 17, 18),
    ),
    Position(
        "pagat, 3 players, stock out: passes, blocks, dominoes",
        PAGAT,
        (
            ("1-4", "2-3", "3-5", "2-5", "3-3"),
            ("1-1", "3-4", "5-6", "3-6", "1-6"),
            ("2-6", "0-2", "5-5", "0-4", "1-2"),
        ),
        (
            "0-1", "6-6", "0-5", "0-0", "4-6", "4-5", "0-3", "1-5", "1-3", "4-4",
            "0-6", "2-2", "2-4",
        ),
        0,
        (
            "3-3", "3-6R", "2-6R", "2-3L", "d0-1", "d6-6", "d0-5", "d0-0", "d4-6",
            "d4-5", "d0-3", "d1-5", "d1-3", "d4-4", "d0-6", "d2-2", "2-2L", "0-2R",
            "2-5L", "5-6L", "0-4R", "1-4R", "1-6L", "1-2L", "d2-4", "2-4L",
        ),
        (8, 8, 6, 28),
    ),
    Position(
        "pagat stock_reserve 2, 2 players, 1 tile drawable",
        PAGAT_RESERVE,
        (
            ("0-5", "3-4", "5-5", "2-3", "1-1", "3-3", "4-5"),
            ("2-4", "0-4", "6-6", "3-5", "4-4", "2-5", "4-6"),
        ),
        (
            "1-6", "0-2", "0-6", "1-4", "1-2", "3-6", "5-6", "1-3", "2-2", "0-1",
            "2-6", "1-5", "0-0", "0-3",
        ),
        0,
        (
            "4-5", "4-4L", "3-4L", "2-5R", "3-3L", "3-5L", "2-3R", "d1-6", "d0-2",
            "d0-6", "d1-4", "d1-2", "d3-6", "3-6R", "5-5L", "0-6R", "0-5R", "d5-6",
            "5-6L", "d1-3", "d2-2", "d0-1", "d2-6", "2-6L",
        ),
        (3, 5, 9, 14),
    ),
    Position(
        "spinner, 2 players, the deal",
        SPINNER,
        (
            ("2-6", "5-6", "1-4", "0-4", "1-6", "0-1", "2-2"),
            ("6-6", "4-5", "3-4", "3-3", "2-5", "1-5", "0-0"),
        ),
        (
            "1-3", "0-6", "0-3", "2-4", "5-5", "4-4", "0-5", "0-2", "2-3", "1-1",
            "3-6", "4-6", "3-5", "1-2",
        ),
        0,
        (),
        (7, 20, 77, 197),
    ),
    Position(
        "spinner, 2 players, a double led",
        SPINNER,
        (
            ("2-6", "5-6", "1-4", "0-4", "1-6", "0-1", "2-2"),
            ("6-6", "4-5", "3-4", "3-3", "2-5", "1-5", "0-0"),
        ),
        (
            "1-3", "0-6", "0-3", "2-4", "5-5", "4-4", "0-5", "0-2", "2-3", "1-1",
            "3-6", "4-6", "3-5", "1-2",
        ),
        0,
        (
            "2-2",
        ),
        (4, 16, 40, 164),
    ),
    Position(
        "spinner, 2 players, the spinner is not the lead",
        SPINNER,
        (
            ("0-6", "3-6", "5-6", "4-5", "3-5", "2-4", "4-6"),
            ("6-6", "4-4", "2-2", "2-6", "1-4", "2-3", "5-5"),
        ),
        (
            "3-4", "2-5", "1-5", "0-4", "0-2", "0-1", "0-0", "0-5", "1-3", "1-6",
            "3-3", "1-2", "0-3", "1-1",
        ),
        0,
        (
            "2-4",
        ),
        (5, 19, 81, 416),
    ),
    Position(
        "spinner, 2 players, a drawn tile to place after a later spinner",
        SPINNER,
        (
            ("3-5", "6-6", "1-6", "0-4", "0-1", "5-5", "4-4"),
            ("1-1", "0-5", "0-6", "4-5", "1-2", "0-3", "2-6"),
        ),
        (
            "5-6", "2-4", "1-3", "0-0", "0-2", "2-3", "2-5", "2-2", "3-6", "1-4",
            "3-3", "4-6", "3-4", "1-5",
        ),
        0,
        (
            "1-6", "0-6R", "0-4R", "4-5R", "0-1L", "0-5L", "5-5R", "d5-6",
        ),
        (4, 16, 28, 36),
    ),
    Position(
        "spinner, 3 players, stock out",
        SPINNER,
        (
            ("3-3", "1-5", "1-4", "5-6", "4-6"),
            ("2-3", "1-2", "0-1", "1-1", "3-6"),
            ("2-4", "3-5", "1-3", "4-5", "2-2"),
        ),
        (
            "2-6", "5-5", "6-6", "0-3", "0-0", "1-6", "0-5", "0-2", "4-4", "2-5",
            "3-4", "0-6", "0-4",
        ),
        0,
        (
            "1-4", "1-2L", "2-4L", "4-6L", "3-6L", "4-5R", "5-6R", "2-3L", "2-2L",
            "d2-6", "2-6R", "d5-5", "d6-6", "d0-3", "d0-0", "d1-6", "d0-5", "d0-2",
            "0-2R", "d4-4", "d2-5", "2-5D", "1-5D", "1-6D", "d3-4", "d0-6", "0-6D",
            "d0-4", "0-4D",
        ),
        (4, 13, 14, 10),
    ),
    Position(
        "spinner sides-first, 2 players, a double led",
        SPINNER_SIDES_FIRST,
        (
            ("2-6", "5-6", "1-4", "0-4", "1-6", "0-1", "2-2"),
            ("6-6", "4-5", "3-4", "3-3", "2-5", "1-5", "0-0"),
        ),
        (
            "1-3", "0-6", "0-3", "2-4", "5-5", "4-4", "0-5", "0-2", "2-3", "1-1",
            "3-6", "4-6", "3-5", "1-2",
        ),
        0,
        (
            "2-2",
        ),
        (2, 4, 8, 30),
    ),
    Position(
        "spinner sides-first, 2 players, the spinner is not the lead",
        SPINNER_SIDES_FIRST,
        (
            ("0-6", "3-6", "5-6", "4-5", "3-5", "2-4", "4-6"),
            ("6-6", "4-4", "2-2", "2-6", "1-4", "2-3", "5-5"),
        ),
        (
            "3-4", "2-5", "1-5", "0-4", "0-2", "0-1", "0-0", "0-5", "1-3", "1-6",
            "3-3", "1-2", "0-3", "1-1",
        ),
        0,
        (
            "2-4",
        ),
        (5, 15, 47, 176),
    ),
    Position(
        "all-threes, 4 players, the deal",
        ALL_THREES,
        (
            ("0-3", "4-6", "1-6", "3-6", "0-1"),
            ("2-2", "2-4", "0-4", "3-3", "4-4"),
            ("6-6", "2-6", "3-4", "0-2", "1-5"),
            ("2-3", "0-6", "0-0", "1-1", "5-6"),
        ),
        (
            "5-5", "0-5", "4-5", "1-4", "1-2", "2-5", "3-5", "1-3",
        ),
        0,
        (),
        (5, 8, 26, 87),
    ),
    Position(
        "all-threes, 4 players, stock out",
        ALL_THREES,
        (
            ("1-6", "1-4", "2-5", "2-2", "0-5"),
            ("3-3", "0-3", "2-4", "5-5", "4-6"),
            ("5-6", "3-4", "0-4", "3-6", "2-6"),
            ("6-6", "0-1", "1-3", "4-4", "1-5"),
        ),
        (
            "3-5", "0-2", "2-3", "4-5", "0-0", "0-6", "1-1", "1-2",
        ),
        0,
        (
            "1-6", "4-6R", "0-4R", "0-1R", "1-4L", "2-4L", "2-6L", "6-6L", "d3-5",
            "d0-2", "d2-3", "d4-5", "d0-0", "d0-6", "0-6U", "0-3U", "3-6L", "1-3U",
            "2-3L", "d1-1", "1-1R", "5-6D", "1-5R", "2-2L", "5-5D", "d1-2", "1-2U",
        ),
        (1, 12, 12, 10),
    ),
    Position(
        "double-nine pagat, 2 players, the deal",
        PAGAT_NINE,
        (
            ("2-7", "6-7", "0-9", "4-9", "7-9", "5-6", "3-7", "5-5", "6-9", "2-9"),
            ("6-8", "4-8", "4-5", "5-8", "4-4", "5-9", "4-6", "3-4", "1-3", "0-3"),
        ),
        (
            "3-3", "8-8", "2-4", "1-6", "1-8", "3-9", "3-5", "1-5", "1-2", "0-2",
            "0-1", "0-5", "5-7", "0-8", "6-6", "0-7", "0-4", "3-6", "1-1", "8-9",
            "7-7", "1-9", "2-2", "2-8", "9-9", "4-7", "0-6", "0-0", "7-8", "1-4",
            "2-3", "2-5", "2-6", "3-8", "1-7",
        ),
        0,
        (),
        (10, 30, 108, 352),
    ),
    Position(
        "double-nine spinner, 2 players, the deal",
        SPINNER_NINE,
        (
            ("2-7", "6-7", "0-9", "4-9", "7-9", "5-6", "3-7", "5-5", "6-9", "2-9"),
            ("6-8", "4-8", "4-5", "5-8", "4-4", "5-9", "4-6", "3-4", "1-3", "0-3"),
        ),
        (
            "3-3", "8-8", "2-4", "1-6", "1-8", "3-9", "3-5", "1-5", "1-2", "0-2",
            "0-1", "0-5", "5-7", "0-8", "6-6", "0-7", "0-4", "3-6", "1-1", "8-9",
            "7-7", "1-9", "2-2", "2-8", "9-9", "4-7", "0-6", "0-0", "7-8", "1-4",
            "2-3", "2-5", "2-6", "3-8", "1-7",
        ),
        0,
        (),
        (10, 36, 150, 822),
    ),
    Position(
        "double-nine spinner, 3 players, a double led",
        SPINNER_NINE,
        (
            ("2-7", "6-7", "0-9", "4-9", "7-9", "5-6", "3-7", "5-5"),
            ("6-9", "2-9", "6-8", "4-8", "4-5", "5-8", "4-4", "5-9"),
            ("4-6", "3-4", "1-3", "0-3", "3-3", "8-8", "2-4", "1-6"),
        ),
        (
            "1-8", "3-9", "3-5", "1-5", "1-2", "0-2", "0-1", "0-5", "5-7", "0-8",
            "6-6", "0-7", "0-4", "3-6", "1-1", "8-9", "7-7", "1-9", "2-2", "2-8",
            "9-9", "4-7", "0-6", "0-0", "7-8", "1-4", "2-3", "2-5", "2-6", "3-8",
            "1-7",
        ),
        0,
        (
            "5-5",
        ),
        (12, 20, 68, 456),
    ),

]
DEPTHS = (1, 2, 3, 4)


def _cases(depths: Sequence[int] = DEPTHS) -> list[object]:
    return [
        pytest.param(pos, depth, id=f"{pos.name} | depth {depth}")
        for pos in POSITIONS
        for depth in depths
    ]


@pytest.mark.parametrize(("position", "depth"), _cases())
def test_perft(position: Position, depth: int) -> None:
    state = position.engine_state()
    assert engine_perft(position.rules, state, depth) == position.perft[depth - 1]


@pytest.mark.parametrize(("position", "depth"), _cases())
def test_perft_independent_enumerator(position: Position, depth: int) -> None:
    assert brute_perft(position.brute(), depth) == position.perft[depth - 1]


@pytest.mark.parametrize("position", [pytest.param(p, id=p.name) for p in POSITIONS])
def test_move_lists_agree_at_every_node(position: Position) -> None:
    rules = position.rules
    nodes = 0
    for state, node in _walk(position, 3):
        nodes += 1
        assert [str(mv) for mv in legal_moves(rules, state)] == node.moves()
        assert state.over == node.over
        assert [set(h) for h in state.hands] == node.hands
        assert list(state.stock) == node.stock
        assert state.to_move == node.to_move
        assert state.drawn == node.pending
        if node.table.started:
            assert count(rules, state.layout) == node.table.total(rules)
    assert nodes >= sum(position.perft[:3])


@pytest.mark.parametrize("position", [pytest.param(p, id=p.name) for p in POSITIONS])
def test_position_is_a_fair_deal(position: Position) -> None:
    rules = position.rules
    players = len(position.hands)
    assert players in rules.players
    assert all(len(h) == rules.hand_size_for(players) for h in position.hands)
    tiles = [_tile(t) for h in position.hands for t in h] + [_tile(t) for t in position.stock]
    assert sorted(tiles) == sorted(full_set(rules.max_pip)), "the deal is the whole set"


def test_positions_cover_what_they_say() -> None:
    by_name = {p.name: p for p in POSITIONS}
    assert len(by_name) == len(POSITIONS)
    for name, pos in by_name.items():
        state = pos.engine_state()
        moves = legal_moves(pos.rules, state)
        if "spinner is not the lead" in name:
            assert state.layout.root is not None and not state.layout.root.is_double
            assert not state.layout.spinner
            made = [
                mv for mv in moves
                if apply(pos.rules, state, mv)[0].layout.spinner
            ]
            assert made, "a double can become the spinner at once"
        if "a double led" in name:
            assert state.layout.root is not None and state.layout.root.is_double
        if "a drawn tile" in name:
            assert state.drawn is not None
        if "stock out" in name:
            assert not state.stock
    rules_seen = {pos.rules.name for pos in POSITIONS}
    assert {"pagat", "spinner", "all-threes", "pagat-double-nine"} <= rules_seen
    assert any(p.rules.spinner_sides_first for p in POSITIONS)
