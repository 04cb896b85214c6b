"""Tiles: the one vocabulary shared by notation, engine and solver.

A tile is an unordered pair of pip counts, so ``3-5`` and ``5-3`` are the same
value; which half faces where belongs to a placement, not to the tile.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from muggins_cli.lexicon import TILE_RE

Pip: TypeAlias = int

class End(str, Enum):
    """Where a tile joins the layout; the values are the MGN end letters."""

    L = "L"
    R = "R"
    U = "U"
    D = "D"


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A domino, normalised so that ``lo <= hi``."""

    lo: Pip
    hi: Pip

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            lo, hi = self.hi, self.lo
            object.__setattr__(self, "lo", lo)
            object.__setattr__(self, "hi", hi)

    @classmethod
    def of(cls, a: Pip, b: Pip) -> Tile:
        """The interned tile with halves ``a`` and ``b`` (in either order).

        Replays ask for the same few dozen tiles millions of times; handing
        out one object per tile saves building and hashing a new one.
        """
        try:
            return _INTERNED[a, b]
        except KeyError:
            tile = cls(min(a, b), max(a, b))
            if len(_INTERNED) < 4096:
                _INTERNED[a, b] = tile
            return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``A-B``; raises ValueError so callers choose the diagnostic."""
        m = TILE_RE.fullmatch(text)
        if m is None:
            raise ValueError(f"not a tile: {text!r}")
        return cls.of(int(m.group(1)), int(m.group(2)))

    @property
    def is_double(self) -> bool:
        return self.lo == self.hi

    @property
    def pips(self) -> int:
        return self.lo + self.hi

    def has(self, pip: Pip) -> bool:
        return self.lo == pip or self.hi == pip

    def other(self, pip: Pip) -> Pip:
        """The half that faces out when the ``pip`` half joins an end."""
        return self.hi if self.lo == pip else self.lo

    def index(self) -> int:
        """A dense index (0-based) for bit masks: 0-0, 0-1, 1-1, 0-2, ..."""
        return self.hi * (self.hi + 1) // 2 + self.lo

    def __str__(self) -> str:
        return f"{self.lo}-{self.hi}"


_INTERNED: dict[tuple[int, int], Tile] = {}


_FULL_SETS: dict[Pip, tuple[Tile, ...]] = {}


def full_set(max_pip: Pip) -> tuple[Tile, ...]:
    """Every tile of a double-``max_pip`` set, in index order.

    Built once per ``max_pip`` (the replay asks for it every round), of the
    interned tiles of :meth:`Tile.of`."""
    try:
        return _FULL_SETS[max_pip]
    except KeyError:
        pass
    tiles = tuple(Tile.of(lo, hi) for hi in range(max_pip + 1) for lo in range(hi + 1))
    if len(_FULL_SETS) < 64:
        _FULL_SETS[max_pip] = tiles
    return tiles


def tile_from_index(index: int) -> Tile:
    hi = 0
    while (hi + 1) * (hi + 2) // 2 <= index:
        hi += 1
    return Tile(index - hi * (hi + 1) // 2, hi)


_BY_INDEX: list[Tile] = []


def bits_of(tiles: Iterable[Tile]) -> int:
    """Tiles as a bit mask of :meth:`Tile.index`: how the replay holds a
    hand, the stock and what is seen (a tile off the set too, above the
    set's bits)."""
    bits = 0
    for t in tiles:
        bits |= 1 << t.index()
    return bits


def tiles_of(bits: int) -> list[Tile]:
    """The tiles of a bit mask, in index order (interned, as Tile.of gives)."""
    out: list[Tile] = []
    while bits:
        low = bits & -bits
        index = low.bit_length() - 1
        while len(_BY_INDEX) <= index:
            t = tile_from_index(len(_BY_INDEX))
            _BY_INDEX.append(Tile.of(t.lo, t.hi))
        out.append(_BY_INDEX[index])
        bits ^= low
    return out
