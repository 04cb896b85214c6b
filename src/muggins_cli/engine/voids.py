"""What draws, passes and placements show about hands.

Under ``must_play`` a player who draws or passes holds no tile matching the
open ends at that moment: a void, certain knowledge. A placement shows
something softer: the tiles that would have scored more than the one laid
were probably not held (a player who scores what it can would have laid
them). Both are public, everyone at the table saw them. The replay of a
record, the self-play driver and the strategies need them counted the same
way, so they live here once; what a placement implies is left to the
strategy that reads it (:data:`Placed` keeps only the facts).
"""

from __future__ import annotations

from dataclasses import dataclass

from muggins_cli.engine.layout import End, Layout, open_ends
from muggins_cli.engine.state import KnownDraw, Move, PassTurn, Place, RoundState
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile

#: ``(seat, layout, tile, end)``: ``seat`` chose to lay ``tile`` on ``end`` of
#: ``layout`` (a plain tuple: the replay makes one at every placement).
Placed = tuple[int, Layout, Tile, End | None]


@dataclass(slots=True, unsafe_hash=True)
class Void:
    """``seat`` showed it held no tile with any of ``pips`` (it drew or
    passed with those ends open). It has kept ``drawn_since`` drawn tiles
    since, any of which may carry those pips, so at most that many of its
    tiles may now. A value, never changed once built (not frozen: the
    replay makes one at every draw, and a frozen dataclass's
    ``__init__`` costs three times as much)."""

    seat: int
    pips: frozenset[int]
    drawn_since: int = 0


class VoidWatch:
    """The voids of one round, as everyone at the table saw them.

    A void implied by a later one of the same seat (its pips among the
    later one's) is not kept: the same deals agree with the voids kept as
    with all of them, and their number is bounded by the sets of pips, not
    by the length of the round.

    The tiles a seat draws in the turn that showed a void do not fit (the
    one that fits is placed at once), so they keep that void exact; tiles it
    keeps from later turns may carry those pips, and are counted. Without
    ``must_play`` a draw may be a choice and shows nothing, so no void is
    kept. Only the kind of each move is read, never a drawn tile's face.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._voids: list[Void] = []
        self._placed: list[Placed] = []
        self._turn_draws = 0
        self._turn_first_void = 0

    def start_round(self) -> None:
        self._voids = []
        self._placed = []
        self._turn_draws = 0

    def voids(self) -> tuple[Void, ...]:
        return tuple(self._voids)

    def placements(self) -> tuple[Placed, ...]:
        """The placements each seat chose since it last drew, in play order.
        A seat's earlier ones are dropped when it draws: the tiles they
        suggest it lacked may be among those it drew since. A placement
        after a draw in the same turn was forced (the drawn tile) and is not
        kept, nor a round's lead (nothing could have scored more)."""
        return tuple(self._placed)

    def drew(self, seat: int, layout: Layout) -> None:
        """``seat`` draws one tile, its face unknown to the others."""
        if self._turn_draws == 0:
            self._show_void(seat, layout)
            if self._placed:
                self._placed = [p for p in self._placed if p[0] != seat]
        self._turn_draws += 1
        self._count_kept(seat, 1)  # kept, as far as anyone knows yet

    def passed(self, seat: int, layout: Layout) -> None:
        if self._turn_draws == 0:
            self._show_void(seat, layout)
        self._turn_draws = 0

    def placed(self, seat: int, layout: Layout, tile: Tile, end: End | None) -> None:
        """``seat`` lays ``tile`` on ``end`` of ``layout`` (before the move)."""
        if self._turn_draws:  # the drawn tile fitted and went down
            self._count_kept(seat, -1)
        elif layout.started:
            self._placed.append((seat, layout, tile, end))
        self._turn_draws = 0

    def observe(self, before: RoundState, move: Move) -> None:
        """Note engine ``move``, about to be played by ``before.to_move``."""
        seat = before.to_move
        if isinstance(move, KnownDraw):
            self.drew(seat, before.layout)
        elif isinstance(move, PassTurn):
            self.passed(seat, before.layout)
        else:
            assert isinstance(move, Place)
            self.placed(seat, before.layout, move.tile, move.end)

    def _show_void(self, seat: int, layout: Layout) -> None:
        if layout.started and self.rules.must_play:
            pips = frozenset(open_ends(self.rules, layout).values())
            # An earlier void of the seat over some of these pips says less
            # than this one (at most as many of them, and a count that can
            # only have grown since): dropped, so a seat keeps at most one
            # void per set of pips, and a round of ten thousand passes holds
            # a few voids instead of ten thousand (which every position of
            # the replay copied).
            if any(v.seat == seat and v.pips <= pips for v in self._voids):
                self._voids = [v for v in self._voids
                               if v.seat != seat or not v.pips <= pips]
            self._turn_first_void = len(self._voids)
            self._voids.append(Void(seat, pips))
        else:
            self._turn_first_void = len(self._voids)

    def _count_kept(self, seat: int, tiles: int) -> None:
        self._voids = [
            Void(v.seat, v.pips, v.drawn_since + tiles)
            if v.seat == seat and i < self._turn_first_void else v
            for i, v in enumerate(self._voids)
        ]
