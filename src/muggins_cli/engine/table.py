"""The answers of :mod:`.keys` for one rules value, remembered per key.

The replay, the engine's states and the strategies ask the same few
hundred layouts the same questions (which ends are open and what they
show, which tiles fit, where a tile leads and what it scores) millions of
times; :mod:`.keys` computes each answer and this table keeps it. It adds
no rule of its own: every answer is a call into :mod:`.keys`. The solver's
compiled searches compile :mod:`.keys` itself and keep their own memo in
their arrays.

A key is a layout's summary (:mod:`.keys`), so it is also its id here:
there is nothing to intern, and mirror images share their future under
:func:`~.keys.canonical`.
"""

from __future__ import annotations

from typing import TypeAlias

from muggins_cli.engine.keys import (
    EMPTY,
    canonical,
    count,
    ends_of,
    fit_mask,
    lead_key,
    max_place,
    open_pip,
    pip_masks,
    place_tile,
    rule_ints,
    score,
    search_moves_into,
)
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End, Tile, full_set, tile_from_index

#: Engine order of ends, so placements come out as ``legal_moves`` lists them.
END_ORDER: tuple[End, ...] = (End.L, End.R, End.U, End.D)

#: A search move: (tile bit, tile index, canonical successor key, points).
SearchMove: TypeAlias = tuple[int, int, int, int]
#: A real move: (end, or None for the lead, successor key, points).
RealMove: TypeAlias = tuple[End | None, int, int]

#: Keys one table remembers before it starts afresh: a hostile record or a
#: long batch cannot grow it without end.
_MOST = 1 << 18


class LayoutTable:
    """What :mod:`.keys` says of each layout key under one rules value."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.r = rule_ints(rules)
        self.tiles: tuple[Tile, ...] = full_set(rules.max_pip)
        self.n_tiles = len(self.tiles)
        self.all_mask = (1 << self.n_tiles) - 1
        self.by_index: list[Tile] = list(self.tiles)
        #: Tile indices in the engine's placement order (by ``(lo, hi)``).
        self.legal_order: list[int] = sorted(range(self.n_tiles), key=lambda i: self.by_index[i])
        self.pip_mask: tuple[int, ...] = pip_masks(rules.max_pip)
        self.tile_lo: tuple[int, ...] = tuple(t.lo for t in self.tiles)
        self.tile_hi: tuple[int, ...] = tuple(t.hi for t in self.tiles)
        self.empty = EMPTY
        #: The largest score one placement can make: bounds future points.
        self.max_place = max_place(self.r)
        self._ends: dict[int, dict[End, int]] = {}
        self._fit: dict[int, int] = {}
        self._moves: dict[int, list[RealMove]] = {}
        self._search: dict[int, list[SearchMove]] = {}

    def _room(self, cache: dict[int, object]) -> None:
        if len(cache) >= _MOST:
            cache.clear()

    def ends(self, key: int) -> dict[End, int]:
        """The open ends in engine order with the pip each shows (shared:
        do not change it)."""
        found = self._ends.get(key)
        if found is None:
            self._room(self._ends)  # type: ignore[arg-type]
            found = {}
            for e in range(ends_of(key)):
                pip = open_pip(self.r, key, e)
                if pip >= 0:
                    found[END_ORDER[e]] = pip
            self._ends[key] = found
        return found

    def fit(self, key: int) -> int:
        """The tiles of the set that fit some open end, as bits."""
        found = self._fit.get(key)
        if found is None:
            self._room(self._fit)  # type: ignore[arg-type]
            found = self._fit[key] = fit_mask(self.r, key, self.pip_mask)
        return found

    def total(self, key: int) -> int:
        """The open-end total a placement that made ``key`` is scored on."""
        return count(self.r, key)

    def score_of(self, key: int) -> int:
        """What the placement that made ``key`` scores."""
        return score(self.r, count(self.r, key))

    def ends_for(self, key: int, tile: Tile) -> list[End]:
        """The open ends of ``key`` that accept ``tile`` (several ends may
        show the same pip), in engine order."""
        return [e for e, pip in self.ends(key).items() if tile.lo == pip or tile.hi == pip]

    def lead(self, tile: Tile, left: int) -> int:
        """The key once ``tile`` opens the round, its ``left`` half facing L."""
        return lead_key(self.r, left, tile.other(left))

    def moves(self, key: int, ti: int) -> list[RealMove]:
        """Every placement of the tile of index ``ti`` from ``key``, in
        engine order: the lead on an empty table, else one per open end it
        fits, with the successor key and the points it scores."""
        slot = key << 16 | ti  # a tile index of MGN's largest pip, 99, is below 2**16
        found = self._moves.get(slot)
        if found is None:
            self._room(self._moves)  # type: ignore[arg-type]
            tile = self.by_index[ti] if ti < self.n_tiles else tile_from_index(ti)
            r = self.r
            if key == EMPTY:
                nkey = lead_key(r, tile.lo, tile.hi)
                found = [(None, nkey, score(r, count(r, nkey)))]
            else:
                found = []
                for e in range(ends_of(key)):
                    nkey = place_tile(r, key, e, tile.lo, tile.hi)
                    if nkey >= 0:
                        found.append((END_ORDER[e], nkey, score(r, count(r, nkey))))
            self._moves[slot] = found
        return found

    def canonical(self, key: int) -> int:
        return canonical(key)

    def search_moves(self, ckey: int) -> list[SearchMove]:
        """Every distinct placement from ``ckey`` of any tile that fits,
        best immediate score first (:func:`~.keys.search_moves_into`, which
        the compiled searches run too), as (tile bit, tile index, canonical
        successor, points)."""
        found = self._search.get(ckey)
        if found is None:
            self._room(self._search)  # type: ignore[arg-type]
            out = [0] * (3 * 4 * self.n_tiles)
            m = search_moves_into(self.r, self.pip_mask, self.tile_lo, self.tile_hi,
                                  self.legal_order, ckey, out)
            found = [(1 << out[3 * j], out[3 * j], out[3 * j + 1], out[3 * j + 2])
                     for j in range(m)]
            self._search[ckey] = found
        return found

    def tile_moves(self, ckey: int, ti: int) -> list[tuple[int, int]]:
        """Distinct (canonical successor, points) for one tile: a drawn tile
        that must be placed at once."""
        return [(c, p) for _, t, c, p in self.search_moves(ckey) if t == ti]


_TABLES: dict[Rules, LayoutTable] = {}


def table_for(rules: Rules) -> LayoutTable:
    """The shared table of a rules value (rules hash by name, so a rules
    value is checked to be the very one the table was made for)."""
    found = _TABLES.get(rules)
    if found is None:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        found = _TABLES[rules] = LayoutTable(rules)
    return found
