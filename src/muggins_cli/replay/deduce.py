"""Opening hands a record kept without deals still gives away."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from muggins_cli.notation.model import BodyLine, DealLine, RevealLine, RoundLine, Turn
from muggins_cli.tiles import Tile


def _line_of(item: BodyLine) -> int:
    return item.line


def deduce_round(body: Sequence[BodyLine], line: int, seat: dict[str, int],
                 hand_size: int) -> dict[int, set[Tile]]:
    """The opening hands, by seat, that the round whose ``round`` line is on
    ``line`` gives away without deal lines.

    A hand's end is known when its holder revealed it or went out (as many
    placements as tiles dealt and drawn); with every draw's face written,
    the opening hand is then the end hand plus what was placed minus what was
    drawn. The replay then checks those hands as if they had been dealt
    (docs/notation.md 6: deduced and checked). Asked once per round that
    has no deal line, when it opens, so a record with deals costs nothing.
    """
    placed: dict[int, list[Tile]] = {}
    drawn: dict[int, list[Tile]] = {}
    hidden: dict[int, int] = {}
    revealed: dict[int, list[Tile]] = {}
    for item in body[bisect.bisect_right(body, line, key=_line_of):]:
        cls = item.__class__
        if cls is RoundLine:
            break
        if cls is DealLine:
            return {}
        if isinstance(item, Turn):
            s = seat.get(item.player)
            if s is None and item.slip is not None and len(item.slip.names) == 1:
                s = seat.get(item.slip.names[0])  # a name misspelt: the one it is near
            if s is None:
                continue
            spelling = item.spelling
            for tile in spelling.drawn:
                if tile is None:
                    hidden[s] = hidden.get(s, 0) + 1
                else:
                    drawn.setdefault(s, []).append(tile)
            if spelling.tile is not None:
                placed.setdefault(s, []).append(spelling.tile)
        elif isinstance(item, RevealLine) and item.player in seat:
            revealed[seat[item.player]] = [t.tile for t in item.tiles]
    found: dict[int, set[Tile]] = {}
    for s in sorted(set(seat.values())):
        if hidden.get(s):
            continue
        hand = _opening(placed.get(s, []), drawn.get(s, []), revealed.get(s), hand_size)
        if hand is not None:
            found[s] = hand
    tiles = [t for h in found.values() for t in h]
    return found if len(tiles) == len(set(tiles)) else {}


def _opening(mine: list[Tile], got: list[Tile], end: list[Tile] | None,
             hand_size: int) -> set[Tile] | None:
    """One seat's opening hand from what it placed (``mine``), drew
    (``got``) and held at the end (``end``, None when not revealed: then it
    went out, if it placed every tile it had)."""
    if end is None and hand_size + len(got) != len(mine):
        return None
    start = list(end or []) + mine
    for t in got:
        if t not in start:
            return None
        start.remove(t)
    if len(start) == hand_size and len(set(start)) == hand_size:
        return set(start)
    return None
