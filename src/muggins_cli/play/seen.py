"""What a seat sees at the table: the view a fair strategy decides from.

The match driver (:func:`muggins_cli.play.selfplay.play_match`) holds every
hand and the stock, so it is the one place that could leak them. It hands a
:class:`SeenStrategy` a :class:`Seen` instead: the mover's own hand, the
layout, every hand's size, the number of tiles left to draw, the scores, and
what the other players showed by drawing and passing (voids, gathered by
:class:`~muggins_cli.engine.voids.VoidWatch`). A
draw in the list of moves is an :class:`UnseenDraw`, which names no tile: in
the engine's ``legal_moves`` the draw carries the stock's next tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import Draw, Move, Pass, Place, RoundState, UnseenDraw, as_seen
from muggins_cli.engine.voids import Void
from muggins_cli.errors import IllegalMoveError
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile, full_set

SeenMove = Place | Pass | UnseenDraw


@dataclass(frozen=True)
class Seen:
    """The position as the player to move sees it (nothing here is hidden
    from them). ``moves`` is the engine's ``legal_moves`` with the draw's
    tile taken out."""

    seat: int
    hand: frozenset[Tile]
    layout: Layout
    hand_sizes: tuple[int, ...]
    stock_count: int
    drawn: Tile | None
    scores: tuple[int, ...]
    target: int
    moves: tuple[SeenMove, ...]
    voids: tuple[Void, ...] = ()
    #: The double the mover must open the round with, if the rules say so.
    lead_tile: Tile | None = None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def unseen(self, rules: Rules) -> frozenset[Tile]:
        """The tiles the mover has not seen: the other hands and the stock."""
        return frozenset(full_set(rules.max_pip)) - set(self.layout.tiles()) - self.hand

    def excluded(self, seat: int) -> frozenset[int]:
        """The pips ``seat`` is known to hold none of: a void it showed and
        has drawn nothing since (a tile drawn later may carry those pips)."""
        out: set[int] = set()
        for v in self.voids:
            if v.seat == seat and v.drawn_since == 0:
                out |= v.pips
        return frozenset(out)

    def possible(self, rules: Rules, seat: int) -> frozenset[Tile]:
        """The unseen tiles ``seat`` may hold, as far as the table showed."""
        pips = self.excluded(seat)
        return frozenset(t for t in self.unseen(rules) if t.lo not in pips and t.hi not in pips)


def seen_moves(moves: Sequence[Move]) -> tuple[SeenMove, ...]:
    """``moves`` with each draw's tile hidden."""
    return tuple(as_seen(m) for m in moves)


def real_move(moves: Sequence[Move], choice: SeenMove) -> Move:
    """The engine move that ``choice`` stands for (a draw takes the stock's
    next tile). Raises IllegalMoveError when ``choice`` is not among ``moves``."""
    for m in moves:
        if isinstance(choice, UnseenDraw):
            if isinstance(m, Draw):
                return m
        elif m == choice:
            return m
    raise IllegalMoveError(f"{choice} is not a legal move here")


def seen_of(
    state: RoundState,
    moves: Sequence[Move],
    scores: Sequence[int],
    target: int,
    voids: Sequence[Void] = (),
) -> Seen:
    """The mover's view of ``state``: reads the mover's hand, and of the
    other hands and the stock only their sizes."""
    seat = state.to_move
    return Seen(
        seat=seat,
        hand=frozenset(state.hands[seat]),
        layout=state.layout,
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_count=len(state.stock),
        drawn=state.drawn,
        scores=tuple(scores),
        target=target,
        moves=seen_moves(moves),
        voids=tuple(voids),
        lead_tile=state.lead_tile,
    )
