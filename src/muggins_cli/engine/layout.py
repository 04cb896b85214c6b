"""The layout: the tiles on the table, as arms growing out of a root tile.

Without a spinner the layout is a line: the opening tile is the root and arms
L and R grow from its two halves. Under ``spinner: first-double`` the first
double played becomes the root (the spinner) with four arms L, R, U, D; when
that double is not the opening tile, the line laid so far is re-hung as one
arm of it, so every later question (open ends, counting) has one shape.

What a layout offers the next tile (its open ends, their total, which tiles
fit) depends only on its summary, its *key* (:mod:`muggins_cli.engine.keys`),
which every layout carries, made as the tiles are laid. This module keeps the
tiles themselves, for displays and conservation checks, and asks the key
everything else. Layouts and arms are values, never changed once built (a
placement makes a new one), but not frozen dataclasses: a replay builds one
per placement, and a frozen dataclass costs three times as much to build.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from muggins_cli.engine.keys import (
    EMPTY as EMPTY_KEY,
)
from muggins_cli.engine.keys import (
    LINE,
    LINE_AT,
    NONE,
    SPIN_AT,
    SPINNER,
    end_code,
    tile_fits,
)
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.engine.turn import blocked
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End as End
from muggins_cli.tiles import Pip, Tile, bits_of, tiles_of

ENDS: tuple[End, ...] = (End.L, End.R, End.U, End.D)
_INDEX = {End.L: 0, End.R: 1, End.U: 2, End.D: 3}


@dataclass(slots=True, unsafe_hash=True)
class Arm:
    """One arm: its tiles from the root outwards as ``(inner, outer)`` halves."""

    tiles: tuple[tuple[Pip, Pip], ...] = ()

    @property
    def empty(self) -> bool:
        return not self.tiles

    @property
    def open(self) -> Pip:
        return self.tiles[-1][1]

    @property
    def double_end(self) -> bool:
        """A double at the end of an arm counts both halves (docs/rules.md)."""
        inner, outer = self.tiles[-1]
        return inner == outer

    def extended(self, inner: Pip, outer: Pip) -> Arm:
        return Arm((*self.tiles, (inner, outer)))


_EMPTY_ARMS = (Arm(), Arm(), Arm(), Arm())


@dataclass(slots=True, unsafe_hash=True)
class Layout:
    """The table. ``root`` is None before the opening tile.

    ``left``/``right`` are the root's halves facing L and R (equal for a
    double). ``spinner`` says whether the root is a spinner, in which case
    arms U and D exist too. ``key`` is the summary every rule reads
    (:mod:`muggins_cli.engine.keys`); it follows from the rest.
    """

    root: Tile | None = None
    left: Pip = 0
    right: Pip = 0
    spinner: bool = False
    arms: tuple[Arm, Arm, Arm, Arm] = _EMPTY_ARMS
    key: int = field(default=EMPTY_KEY, compare=False, repr=False, hash=False)

    @property
    def started(self) -> bool:
        return self.root is not None

    def arm(self, end: End) -> Arm:
        return self.arms[_INDEX[end]]

    def tile_count(self) -> int:
        if self.root is None:
            return 0
        return 1 + sum(len(a.tiles) for a in self.arms)

    def tiles(self) -> list[Tile]:
        """Every tile on the table (for conservation checks and displays)."""
        if self.root is None:
            return []
        out = [self.root]
        for arm in self.arms:
            out.extend(Tile.of(a, b) for a, b in arm.tiles)
        return out


EMPTY = Layout()


def key_of(layout: Layout) -> int:
    """The key of a layout worked out from its tiles (a layout made by
    :func:`lead` and :func:`place` carries it already: this is the second
    way the tests hold it to)."""
    root = layout.root
    if root is None:
        return EMPTY_KEY
    arms = layout.arms
    if not layout.spinner:
        dbl = int(root.is_double)
        left = (end_code(arms[0].open, arms[0].double_end) if arms[0].tiles
                else end_code(layout.left, dbl))
        right = (end_code(arms[1].open, arms[1].double_end) if arms[1].tiles
                 else end_code(layout.right, dbl))
        lone = int(bool(dbl) and not arms[0].tiles and not arms[1].tiles)
        return LINE | lone << 2 | left << LINE_AT | right << (LINE_AT + 8)
    key = SPINNER | layout.left << 2
    for i, a in enumerate(arms):
        key |= (end_code(a.open, a.double_end) if a.tiles else NONE) << (SPIN_AT + 8 * i)
    return key


def open_ends(rules: Rules, layout: Layout) -> dict[End, Pip]:
    """The ends a tile may join now, with the pip each one shows.

    Order is L, R, U, D; U and D exist only on a spinner and, under
    ``spinner_sides_first``, only once L and R both hold a tile. The dict
    is shared: do not change it.
    """
    return table_for(rules).ends(layout.key)


def ends_for(rules: Rules, layout: Layout, tile: Tile) -> list[End]:
    """The open ends that accept ``tile`` (several ends may show the same pip)."""
    return table_for(rules).ends_for(layout.key, tile)


def fits(rules: Rules, layout: Layout, tile: Tile) -> bool:
    return tile_fits(table_for(rules).r, layout.key, tile.lo, tile.hi)


def playable(rules: Rules, layout: Layout, hand: Iterable[Tile]) -> list[Tile]:
    """The tiles of ``hand`` that fit somewhere, sorted."""
    return fitting(table_for(rules), layout.key, bits_of(hand))


def fitting(table: LayoutTable, key: int, bits: int) -> list[Tile]:
    """:func:`playable` for a hand held as a bit mask (``tiles.bits_of``)
    on the layout ``key``."""
    return sorted(tiles_of(fit_bits(table, key, bits)))


def fit_bits(table: LayoutTable, key: int, bits: int) -> int:
    """The tiles of ``bits`` that fit the layout ``key``, as bits: the fit
    mask, and a tile off the set (a record's typo, above the mask) by its
    pips."""
    if key == EMPTY_KEY:
        return bits
    fit = bits & table.fit(key)
    off = bits >> table.n_tiles
    if off:
        for t in tiles_of(off << table.n_tiles):
            if tile_fits(table.r, key, t.lo, t.hi):
                fit |= 1 << t.index()
    return fit


def blocked_at(table: LayoutTable, key: int, hands: Iterable[int], drawable: int) -> bool:
    """:func:`~muggins_cli.engine.turn.blocked` for hands that may hold a
    tile off the set (a record's typo, above the set's bits)."""
    fit = table.fit(key)
    masks = [h if not h >> table.n_tiles else fit if fitting(table, key, h) else 0
             for h in hands]
    return blocked(key, fit, masks, drawable)


def count(rules: Rules, layout: Layout) -> int:
    """The open-end total that a placement is scored on (docs/rules.md "Play")."""
    return table_for(rules).total(layout.key)


def lead(rules: Rules, tile: Tile, left: Pip | None = None) -> Layout:
    """Lay the opening tile; ``left`` is the half facing L (as written)."""
    a = tile.lo if left is None else left
    b = tile.other(a)
    return Layout(root=tile, left=a, right=b, spinner=rules.has_spinner and tile.is_double,
                  key=table_for(rules).lead(tile, a))


def layout_score(rules: Rules, layout: Layout) -> int:
    """Points the placement that made ``layout`` scores: the count of its
    open ends, scored by the rules."""
    return table_for(rules).score_of(layout.key)


def place(rules: Rules, layout: Layout, tile: Tile, end: End) -> Layout:
    """Join ``tile`` to ``end``; the caller has checked that it fits there."""
    return place_scored(rules, layout, tile, end)[0]


def place_scored(rules: Rules, layout: Layout, tile: Tile, end: End) -> tuple[Layout, int]:
    """:func:`place`, and what the placement scores, from one look-up of
    the table (the replay scores every placement it lays)."""
    table = table_for(rules)
    pip = table.ends(layout.key)[end]
    key, points = -1, 0
    for e, nkey, pts in table.moves(layout.key, tile.index()):
        if e is end:
            key, points = nkey, pts
            break
    if tile.lo == tile.hi and not layout.spinner and rules.has_spinner:
        return _become_spinner(layout, tile, end, key), points
    outer = tile.hi if tile.lo == pip else tile.lo
    arms = list(layout.arms)
    i = _INDEX[end]
    arms[i] = arms[i].extended(pip, outer)
    return Layout(layout.root, layout.left, layout.right, layout.spinner,
                  (arms[0], arms[1], arms[2], arms[3]), key), points


def _become_spinner(layout: Layout, double: Tile, end: End, key: int) -> Layout:
    """Re-hang the line as one arm of the first double, now the spinner.

    The double joined ``end`` (L or R) of the line, so the whole line lies on
    the opposite side of it: walking from the spinner inwards we meet the
    joined arm reversed, the old root, then the far arm outwards.
    """
    assert layout.root is not None
    near = layout.arm(end)
    far = layout.arm(End.R if end is End.L else End.L)
    root_near = layout.left if end is End.L else layout.right
    root_far = layout.right if end is End.L else layout.left
    walk: list[tuple[Pip, Pip]] = [(o, i) for i, o in reversed(near.tiles)]
    walk.append((root_near, root_far))
    walk.extend(far.tiles)
    line = Arm(tuple(walk))
    d = double.lo
    arms = (line, Arm(), Arm(), Arm()) if end is End.R else (Arm(), line, Arm(), Arm())
    return Layout(root=double, left=d, right=d, spinner=True, arms=arms, key=key)
