"""The layout: the tiles on the table, as arms growing out of a root tile.

Without a spinner the layout is a line: the opening tile is the root and arms
L and R grow from its two halves. Under ``spinner: first-double`` the first
double played becomes the root (the spinner) with four arms L, R, U, D; when
that double is not the opening tile, the line laid so far is re-hung as one
arm of it, so every later question (open ends, counting) has one shape.

Everything here is a pure function of ``(rules, layout)``; nothing knows text.
What a layout offers the next tile (its open ends, their total, which tiles
fit) depends only on its summary, which :mod:`muggins_cli.engine.table`
interns per rules as a small int with those answers precomputed: the
replay, the strategies and the solver all ask that one table. A layout
remembers its id there. Layouts and arms are values, never changed once
built (a placement makes a new one), but not frozen dataclasses: a replay
builds one per placement, and a frozen dataclass costs three times as much
to build (issue 13).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from muggins_cli.engine.table import LayoutTable, layout_key, table_for
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
    arms U and D exist too.
    """

    root: Tile | None = None
    left: Pip = 0
    right: Pip = 0
    spinner: bool = False
    arms: tuple[Arm, Arm, Arm, Arm] = _EMPTY_ARMS
    # Its id in the table of the rules last asked about it (``layout_id``).
    at: tuple[LayoutTable, int] | None = field(
        default=None, compare=False, repr=False, hash=False)

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


def layout_id(rules: Rules, layout: Layout) -> tuple[LayoutTable, int]:
    """The table of ``rules`` and the layout's (oriented) id in it,
    remembered on the layout for the next question under the same rules."""
    at = layout.at
    if at is not None and at[0].rules is rules:
        return at
    key = layout_key(layout)
    table = table_for(rules)
    if not table.holds(key):
        table = LayoutTable(rules)
    at = layout.at = (table, table.intern(key))
    return at


def open_ends(rules: Rules, layout: Layout) -> dict[End, Pip]:
    """The ends a tile may join now, with the pip each one shows.

    Order is L, R, U, D; U and D exist only on a spinner and, under
    ``spinner_sides_first``, only once L and R both hold a tile. The dict
    is shared: do not change it.
    """
    table, lid = layout_id(rules, layout)
    return table.end_pips(lid)


def ends_for(rules: Rules, layout: Layout, tile: Tile) -> list[End]:
    """The open ends that accept ``tile`` (several ends may show the same pip)."""
    table, lid = layout_id(rules, layout)
    return table.ends_for(lid, tile)


def fits(rules: Rules, layout: Layout, tile: Tile) -> bool:
    if layout.root is None:
        return True
    return any(tile.has(pip) for pip in open_ends(rules, layout).values())


def playable(rules: Rules, layout: Layout, hand: Iterable[Tile]) -> list[Tile]:
    """The tiles of ``hand`` that fit somewhere, sorted."""
    table, lid = layout_id(rules, layout)
    return fitting(table, lid, bits_of(hand))


def fitting(table: LayoutTable, lid: int, bits: int) -> list[Tile]:
    """:func:`playable` for a hand held as a bit mask (``tiles.bits_of``)
    on the layout of id ``lid``: the table's fit mask, and a tile off the
    set (a record's typo, above the mask) by its pips."""
    if lid == table.empty:
        return sorted(tiles_of(bits))
    tiles = tiles_of(bits & table.fitmask[lid])
    off = bits >> table.n_tiles
    if off:
        pips = table.pips[lid].values()
        tiles += [t for t in tiles_of(off << table.n_tiles) if t.lo in pips or t.hi in pips]
    return sorted(tiles)


def blocked_at(table: LayoutTable, lid: int, hands: Iterable[int], drawable: int) -> bool:
    """Nothing left to draw (the stock down to its reserve), the round
    begun, and no tile of any hand (bit masks) fits an open end: the one
    test of a blocked round, for the engine's states and the replay."""
    if drawable > 0 or lid == table.empty:
        return False
    fit, size = table.fitmask[lid], table.n_tiles
    return not any(h & fit or (h >> size and fitting(table, lid, h)) for h in hands)


def count(rules: Rules, layout: Layout) -> int:
    """The open-end total that a placement is scored on (docs/rules.md "Play")."""
    table, lid = layout_id(rules, layout)
    return table.total[lid]


def lead(rules: Rules, tile: Tile, left: Pip | None = None) -> Layout:
    """Lay the opening tile; ``left`` is the half facing L (as written)."""
    a = tile.lo if left is None else left
    b = tile.other(a)
    out = Layout(root=tile, left=a, right=b, spinner=rules.has_spinner and tile.is_double)
    if tile.hi <= rules.max_pip and tile.has(a):
        table = table_for(rules)
        out.at = (table, table.lead_id(tile, a))
    return out


def layout_score(rules: Rules, layout: Layout) -> int:
    """Points the placement that made ``layout`` scores: the count of its
    open ends, scored by the rules. The one definition of a placement's
    score (the table's successors are scored the same way)."""
    return rules.score_of(count(rules, layout))


def place(rules: Rules, layout: Layout, tile: Tile, end: End) -> Layout:
    """Join ``tile`` to ``end``; the caller has checked that it fits there."""
    return place_scored(rules, layout, tile, end)[0]


def place_scored(rules: Rules, layout: Layout, tile: Tile, end: End) -> tuple[Layout, int]:
    """:func:`place`, and what the placement scores: the table's one
    look-up gives both, where asking for the new layout's count after it
    would be a second (the replay scores every placement it lays)."""
    table, lid = layout_id(rules, layout)
    pip = table.end_pips(lid)[end]
    if tile.lo == tile.hi and not layout.spinner and rules.has_spinner:
        out = _become_spinner(layout, tile, end)
    else:
        outer = tile.hi if tile.lo == pip else tile.lo
        arms = list(layout.arms)
        i = _INDEX[end]
        arms[i] = arms[i].extended(pip, outer)
        out = Layout(layout.root, layout.left, layout.right, layout.spinner,
                     (arms[0], arms[1], arms[2], arms[3]))
    # The table knows where the placement leads and what it scores: no
    # summary to build (a tile off the set, a record's typo, has none there).
    if tile.hi <= rules.max_pip:
        for e, nid, pts in table.real_moves(lid, tile.index()):
            if e is end:
                out.at = (table, nid)
                return out, pts
    return out, layout_score(rules, out)


def _become_spinner(layout: Layout, double: Tile, end: End) -> Layout:
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
    return Layout(root=double, left=d, right=d, spinner=True, arms=arms)
