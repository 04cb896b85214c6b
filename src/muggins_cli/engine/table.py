"""The layout as a small finite-state machine, interned to integers: the
one place that says what a layout's open ends are, what they add up to and
which tiles fit.

Scoring and legality never look at a layout's inner tiles: only at what each
open end shows (its pip, and whether a double lies crosswise there), whether
an arm is still empty, and the spinner's pip. That summary has a few hundred
values in a line game and some thousands with a spinner, so each summary is
interned once per rules as a small int, with the open ends, their total, the
mask of tiles that fit and every placement's successor and score worked out
once. The engine's ``open_ends`` and ``count`` (:mod:`.layout`) read them
from here for a ``Layout``, and a search step in the solver is a list
look-up instead of building a ``Layout``.

Summaries (``Key``):

- ``("E",)``: nothing played yet.
- ``("L", lone, left, right)``: a line; ``left``/``right`` are ``(pip,
  double)`` for the open ends. An end whose arm is still empty shows the
  root's half, a double root counting as a double at both ends; ``lone`` is
  the lone opening double, which counts its pips once (docs/rules.md).
- ``("S", d, l, r, u, down)``: a spinner of pip ``d``; each arm is ``(pip,
  double)`` or ``EMPTY_ARM``.

Searching uses *canonical* ids: mirror images (L<->R in a line; L<->R and
U<->D on a spinner) have the same future, so they share one id and one
transposition-table entry. The real (oriented) ids are kept for the root
and the principal variation, which must name real ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from muggins_cli.rules.model import Rules, SpinnerCount
from muggins_cli.tiles import End, Tile, full_set

if TYPE_CHECKING:  # the layout asks this table; the table only reads it
    from muggins_cli.engine.layout import Layout

EndState: TypeAlias = tuple[int, bool]
Key: TypeAlias = tuple[object, ...]

EMPTY_ARM: EndState = (-1, False)
EMPTY_KEY: Key = ("E",)
#: Engine order of ends, so placements come out as ``legal_moves`` lists them.
END_ORDER: tuple[End, ...] = (End.L, End.R, End.U, End.D)

#: A search move: (tile bit, tile index, canonical successor id, points).
SearchMove: TypeAlias = tuple[int, int, int, int]
#: A real move: (end or None for the lead, real successor id, points).
RealMove: TypeAlias = tuple[End | None, int, int]


class LayoutTable:
    """Interned layout summaries for one rules value, grown lazily.

    Ids are dense ints; per id the table holds the mask of tiles fitting
    some open end, the open-end total and, once a search asks
    (:meth:`canonical`), the canonical id. Successor lists are built the
    first time a search visits an id, because a spinner game can reach far
    fewer summaries than exist.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tiles: tuple[Tile, ...] = full_set(rules.max_pip)
        self.n_tiles = len(self.tiles)
        self.all_mask = (1 << self.n_tiles) - 1
        # Tile index -> Tile, and the engine's placement order (by (lo, hi)).
        self.by_index: list[Tile] = [t for t in self.tiles]
        self.legal_order: list[int] = sorted(range(self.n_tiles), key=lambda i: self.by_index[i])
        self.pip_mask: list[int] = [
            sum(1 << t.index() for t in self.tiles if t.has(p)) for p in range(rules.max_pip + 1)
        ]
        self.keys: list[Key] = []
        self.ids: dict[Key, int] = {}
        self.canon: list[int] = []
        self.fitmask: list[int] = []
        self.total: list[int] = []
        self.pips: list[dict[End, int]] = []
        self.smoves: list[list[SearchMove] | None] = []
        self.tmoves: list[dict[int, list[tuple[int, int]]]] = []
        self.rmoves: list[dict[int, list[RealMove]] | None] = []
        self.leads: dict[tuple[Tile, int], int] = {}
        self.empty = self.intern(EMPTY_KEY)
        per_end = 2 * rules.max_pip
        ends = 4 if rules.has_spinner else 2
        #: The largest score one placement can make: bounds future points.
        self.max_place = max(
            (rules.score_of(c) for c in range(ends * per_end + 1)), default=0
        )

    # ------------------------------------------------------------------
    # Interning

    def intern(self, key: Key) -> int:
        """The id of ``key``, adding it (and its canonical form) if new."""
        found = self.ids.get(key)
        if found is not None:
            return found
        i = len(self.keys)
        self.keys.append(key)
        self.ids[key] = i
        self.canon.append(-1)  # not asked yet: see canonical()
        ends = self.open_ends(key)
        self.fitmask.append(self._fitmask(key, ends))
        self.total.append(self._count(key))
        self.pips.append(dict(ends))
        self.smoves.append(None)
        self.tmoves.append({})
        self.rmoves.append(None)
        return i

    def canonical(self, lid: int) -> int:
        """The canonical id of ``lid``, found the first time it is asked:
        only the searches ask, so a replay, which never does, interns no
        mirror image of the layouts it lays."""
        c = self.canon[lid]
        if c < 0:
            key = self.keys[lid]
            mirror = _canonical(key)
            c = self.canon[lid] = lid if mirror == key else self.intern(mirror)
        return c

    def from_layout(self, layout: Layout) -> int:
        """The real (oriented) id of an engine layout."""
        return self.intern(layout_key(layout))

    def holds(self, key: Key) -> bool:
        """Whether every pip ``key`` shows is of the set: only such keys go
        into a table shared by every replay and search (a record's typo
        tiles, 6-7 in double-six, are counted on a throwaway one, so a
        hostile file cannot grow it without end)."""
        top = self.rules.max_pip
        if key[0] == "L":
            return all(end[0] <= top for end in key[2:])  # type: ignore[index]
        if key[0] == "S":
            return int(key[1]) <= top and all(  # type: ignore[call-overload]
                end[0] <= top for end in key[2:])  # type: ignore[index]
        return True

    # ------------------------------------------------------------------
    # What the engine's layout functions compute, on summaries

    def open_ends(self, key: Key) -> list[tuple[End, int]]:
        """Open ends in engine order with their pips (engine ``open_ends``)."""
        if key[0] == "E":
            return []
        if key[0] == "L":
            left, right = key[2], key[3]
            assert isinstance(left, tuple) and isinstance(right, tuple)
            return [(End.L, left[0]), (End.R, right[0])]
        d = key[1]
        arms = key[2:]
        assert isinstance(d, int)
        out: list[tuple[End, int]] = []
        for j in range(4):
            arm = arms[j]
            assert isinstance(arm, tuple)
            if j == 2 and self.rules.spinner_sides_first and (
                arms[0] == EMPTY_ARM or arms[1] == EMPTY_ARM
            ):
                break
            out.append((END_ORDER[j], d if arm == EMPTY_ARM else arm[0]))
        return out

    def end_pips(self, lid: int) -> dict[End, int]:
        """:meth:`open_ends` of id ``lid`` as the engine's dict, built when
        the id was interned (its fit mask is made from it)."""
        return self.pips[lid]

    def ends_for(self, lid: int, tile: Tile) -> list[End]:
        """The open ends of id ``lid`` that accept ``tile`` (several ends may
        show the same pip), in engine order."""
        return [e for e, pip in self.pips[lid].items() if tile.has(pip)]

    def _fitmask(self, key: Key, ends: list[tuple[End, int]]) -> int:
        if key[0] == "E":
            return self.all_mask
        m = 0
        masks = self.pip_mask
        for _, p in ends:
            if p < len(masks):  # an end off the set (a record's typo) fits no tile of it
                m |= masks[p]
        return m

    def _count(self, key: Key) -> int:
        """The open-end total (engine ``count``)."""
        if key[0] == "E":
            return 0
        if key[0] == "L":
            lone, left, right = key[1], key[2], key[3]
            assert isinstance(left, tuple) and isinstance(right, tuple)
            if lone:
                return 2 * int(left[0])
            return sum(int(p) * (2 if dbl else 1) for p, dbl in (left, right))
        d = key[1]
        assert isinstance(d, int)
        arms = [a for a in key[2:] if isinstance(a, tuple)]
        total = sum(p * (2 if dbl else 1) for p, dbl in arms if (p, dbl) != EMPTY_ARM)
        if self.rules.spinner_count is SpinnerCount.EXPOSED_ENDS:
            total += d * ((arms[2] == EMPTY_ARM) + (arms[3] == EMPTY_ARM))
        elif arms[0] == EMPTY_ARM or arms[1] == EMPTY_ARM:
            total += 2 * d
        return int(total)

    def _place(self, key: Key, tile: Tile, at: tuple[End, int] | None) -> Key:
        """The summary after laying ``tile`` (engine ``lead``/``place``) on
        the end ``at`` and the pip it shows (None: the lead)."""
        rules = self.rules
        if key[0] == "E":
            if rules.has_spinner and tile.is_double:
                return ("S", tile.lo, EMPTY_ARM, EMPTY_ARM, EMPTY_ARM, EMPTY_ARM)
            if tile.is_double:
                return ("L", True, (tile.lo, True), (tile.lo, True))
            return ("L", False, (tile.lo, False), (tile.hi, False))
        assert at is not None
        end, pip = at
        new_end: EndState = (tile.other(pip), tile.is_double)
        if key[0] == "L":
            left, right = key[2], key[3]
            assert isinstance(left, tuple) and isinstance(right, tuple)
            if rules.has_spinner and tile.is_double:
                # The first double becomes the spinner; the line hangs off the
                # side opposite the end it joined, showing its far end.
                far: EndState = (int(right[0]), bool(right[1])) if end is End.L else (
                    int(left[0]), bool(left[1]))
                if end is End.R:
                    return ("S", tile.lo, far, EMPTY_ARM, EMPTY_ARM, EMPTY_ARM)
                return ("S", tile.lo, EMPTY_ARM, far, EMPTY_ARM, EMPTY_ARM)
            if end is End.L:
                return ("L", False, new_end, right)
            return ("L", False, left, new_end)
        arms = list(key[2:])
        arms[END_ORDER.index(end)] = new_end
        return ("S", key[1], *arms)

    # ------------------------------------------------------------------
    # Successors

    def lead_id(self, tile: Tile, left: int) -> int:
        """The real id once ``tile`` opens the round, its ``left`` half
        facing L: every round starts here, so a fresh layout needs no
        summary built to answer its first question."""
        found = self.leads.get((tile, left))
        if found is None:
            key = self._place(EMPTY_KEY, tile, None)
            if key[0] == "L" and left != tile.lo:
                key = ("L", key[1], key[3], key[2])
            found = self.leads[(tile, left)] = self.intern(key)
        return found

    def real_moves(self, lid: int, ti: int) -> list[RealMove]:
        """Placements of tile ``ti`` from real id ``lid``, in engine order."""
        table = self.rmoves[lid]
        if table is None:
            table = self.rmoves[lid] = {}
        found = table.get(ti)
        if found is not None:
            return found
        key = self.keys[lid]
        tile = self.by_index[ti]
        out: list[RealMove] = []
        if key[0] == "E":
            nid = self.intern(self._place(key, tile, None))
            out.append((None, nid, self.rules.score_of(self.total[nid])))
        else:
            for end, pip in self.pips[lid].items():
                if tile.has(pip):
                    nid = self.intern(self._place(key, tile, (end, pip)))
                    out.append((end, nid, self.rules.score_of(self.total[nid])))
        table[ti] = out
        return out

    def search_moves(self, cid: int) -> list[SearchMove]:
        """Every distinct placement from canonical id ``cid`` of any tile that
        fits, best immediate score first: the search filters by hand, so the
        order doubles as the "scoring moves first" ordering for free."""
        found = self.smoves[cid]
        if found is not None:
            return found
        out: list[SearchMove] = []
        seen: set[tuple[int, int]] = set()
        for ti in self.legal_order:
            if not self.fitmask[cid] >> ti & 1:
                continue
            for _, nid, pts in self.real_moves(cid, ti):
                c = self.canonical(nid)
                if (ti, c) not in seen:
                    seen.add((ti, c))
                    out.append((1 << ti, ti, c, pts))
        out.sort(key=lambda m: -m[3])
        self.smoves[cid] = out
        return out

    def tile_moves(self, cid: int, ti: int) -> list[tuple[int, int]]:
        """Distinct (canonical successor, points) for one tile: a drawn tile
        that must be placed at once."""
        per = self.tmoves[cid]
        found = per.get(ti)
        if found is None:
            found = per[ti] = [(c, p) for _, t, c, p in self.search_moves(cid) if t == ti]
        return found


_TABLES: dict[Rules, LayoutTable] = {}


def table_for(rules: Rules) -> LayoutTable:
    """The shared table of a rules value: summaries and successor lists only
    grow and never depend on a position, so every solve of the same rules
    reuses them (building them is most of the cost of a small endgame)."""
    found = _TABLES.get(rules)
    if found is None:
        found = _TABLES[rules] = LayoutTable(rules)
    return found


def layout_key(layout: Layout) -> Key:
    """The summary of an engine layout (see the module docstring)."""
    root = layout.root
    if root is None:
        return EMPTY_KEY
    arms = layout.arms
    if not layout.spinner:
        dbl = root.is_double
        left = (arms[0].open, arms[0].double_end) if arms[0].tiles else (layout.left, dbl)
        right = (arms[1].open, arms[1].double_end) if arms[1].tiles else (layout.right, dbl)
        lone = dbl and not arms[0].tiles and not arms[1].tiles
        return ("L", lone, left, right)
    sides = tuple((a.open, a.double_end) if a.tiles else EMPTY_ARM for a in arms)
    return ("S", layout.left, *sides)


def _canonical(key: Key) -> Key:
    """Mirror-image summaries share a future: sort the symmetric ends."""
    if key[0] == "L":
        left, right = key[2], key[3]
        assert isinstance(left, tuple) and isinstance(right, tuple)
        if right < left:
            return ("L", key[1], right, left)
        return key
    if key[0] == "S":
        arms = key[2:]
        assert all(isinstance(a, tuple) for a in arms)
        lr = sorted((arms[0], arms[1]))  # type: ignore[type-var]
        ud = sorted((arms[2], arms[3]))  # type: ignore[type-var]
        return ("S", key[1], *lr, *ud)
    return key
