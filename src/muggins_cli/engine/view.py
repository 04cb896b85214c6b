"""What the player to move sees: the one value every fair decision starts from.

The self-play driver makes it from a full :class:`~muggins_cli.engine.state.RoundState`
(:func:`view_of`), the replay from a recorded position (``Position.view``),
and the strategies and the solver's ``sample`` mode read nothing else. It
has no field for another player's tiles or the stock order, so a decision
made from it cannot depend on a hidden tile: ``unseen`` lumps the other
hands and the stock together, and only their sizes are apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from muggins_cli.engine import turn
from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import (
    Move,
    PassTurn,
    Place,
    RoundState,
    UnseenDraw,
    as_seen,
    own_moves,
)
from muggins_cli.engine.table import table_for
from muggins_cli.engine.voids import Placed, Void
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile, full_set

#: A move as the mover sees it: a draw names no tile.
SeenMove = Place | PassTurn | UnseenDraw


@dataclass(frozen=True)
class SeatView:
    """The position as the player to move sees it; nothing here is hidden
    from them.

    ``unseen`` is every tile neither on the table nor in the mover's hand
    (the other hands and the stock between them). ``moves`` are the mover's
    legal moves with the draw's tile taken out. ``history`` is free text
    (the draws and passes seen, e.g. ``"Budi: d?? d?? 3-4R"``) kept for
    display; the constraints a sampler uses are in ``voids``, and the
    placements the others chose since they last drew (what they passed over)
    in ``placed``.
    """

    seat: int
    hand: frozenset[Tile]
    layout: Layout
    hand_sizes: tuple[int, ...]
    unseen: frozenset[Tile]
    stock_count: int
    scores: tuple[int, ...]
    target: int
    moves: tuple[SeenMove, ...] = ()
    voids: tuple[Void, ...] = ()
    drawn: Tile | None = None
    #: The double the mover must open the round with, if the rules say so.
    lead_tile: Tile | None = None
    history: tuple[str, ...] = ()
    placed: tuple[Placed, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def check(self) -> None:
        """Refuse a view whose counts do not add up (no deal could match)."""
        others = sum(s for i, s in enumerate(self.hand_sizes) if i != self.seat)
        if len(self.hand) != self.hand_sizes[self.seat]:
            raise InputError("the mover's hand does not have the stated size")
        if others + self.stock_count != len(self.unseen):
            raise InputError(
                f"{len(self.unseen)} unseen tiles cannot make up the other hands "
                f"({others}) and the stock ({self.stock_count})")
        if self.hand & self.unseen:
            raise InputError("a tile is both in the mover's hand and unseen")

    def excluded(self, seat: int) -> frozenset[int]:
        """The pips ``seat`` is known to hold none of: a void it showed and
        has drawn nothing since (a tile drawn later may carry those pips)."""
        out: set[int] = set()
        for v in self.voids:
            if v.seat == seat and v.drawn_since == 0:
                out |= v.pips
        return frozenset(out)

    def possible(self, seat: int) -> frozenset[Tile]:
        """The unseen tiles ``seat`` may hold, as far as the table showed."""
        pips = self.excluded(seat)
        return frozenset(t for t in self.unseen if t.lo not in pips and t.hi not in pips)


def seen_moves(moves: Sequence[Move]) -> tuple[SeenMove, ...]:
    """``moves`` with each draw's tile hidden."""
    return tuple(as_seen(m) for m in moves)


def moves_seen(rules: Rules, layout: Layout, hand: Iterable[Tile], drawn: Tile | None,
               stock_count: int, lead_tile: Tile | None) -> tuple[SeenMove, ...]:
    """The mover's legal moves from what they see, in ``legal_moves``'s order:
    the placements, then a draw (while the stock has a tile above its
    reserve) or else a pass."""
    places, options = own_moves(rules, layout, hand, drawn,
                                turn.drawable(table_for(rules).r, stock_count), lead_tile)
    out: list[SeenMove] = list(places)
    if options & turn.MAY_DRAW:
        out.append(UnseenDraw())
    elif options & turn.MUST_PASS:
        out.append(PassTurn())
    return tuple(out)


def view_of(
    rules: Rules,
    state: RoundState,
    moves: Sequence[Move],
    scores: Sequence[int],
    target: int,
    voids: Sequence[Void] = (),
    history: Sequence[str] = (),
    placed: Sequence[Placed] = (),
) -> SeatView:
    """The mover's view of a full state, ``moves`` being its legal moves.
    Reads the mover's hand; of the other hands and the stock only their
    sizes (``unseen`` is the set less the table and the mover's hand)."""
    seat = state.to_move
    hand = state.hands[seat]
    unseen = set(full_set(rules.max_pip)).difference(state.layout.tiles(), hand)
    return SeatView(
        seat=seat,
        hand=frozenset(hand),
        layout=state.layout,
        hand_sizes=tuple(len(h) for h in state.hands),
        unseen=frozenset(unseen),
        stock_count=len(state.stock),
        scores=tuple(scores),
        target=target,
        moves=seen_moves(moves),
        voids=tuple(voids),
        drawn=state.drawn,
        lead_tile=state.lead_tile,
        history=tuple(history),
        placed=tuple(placed),
    )
