"""What a seat sees at the table: the view a fair strategy decides from.

The match driver (:func:`muggins_cli.play.selfplay.play_match`) holds every
hand and the stock, so it is the one place that could leak them. It hands a
:class:`SeenStrategy` a :class:`Seen` instead: the mover's own hand, the
layout, every hand's size, the number of tiles left to draw, the scores, and
what the other players showed by drawing and passing (:class:`SeenVoid`). A
draw in the list of moves is an :class:`UnseenDraw`, which names no tile: in
the engine's ``legal_moves`` the draw carries the stock's next tile.

:class:`TableWatch` gathers the voids as the round is played, from the type
of each move only (a draw or a pass, never the tile drawn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli.engine.layout import Layout, open_ends
from muggins_cli.engine.state import Draw, Move, Pass, Place, RoundState
from muggins_cli.errors import IllegalMoveError
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile


@dataclass(frozen=True, slots=True)
class UnseenDraw:
    """Draw from the stock; which tile comes is not known yet (MGN ``d??``)."""

    def __str__(self) -> str:
        return "d??"


SeenMove = Place | Pass | UnseenDraw


@dataclass(frozen=True, slots=True)
class SeenVoid:
    """``seat`` drew or passed while the open ends showed ``pips``, so it
    held none of them then; it has kept ``drawn_since`` unseen tiles since,
    so at most that many of its tiles may carry those pips now."""

    seat: int
    pips: frozenset[int]
    drawn_since: int = 0


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
    voids: tuple[SeenVoid, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hand_sizes)


def seen_moves(moves: Sequence[Move]) -> tuple[SeenMove, ...]:
    """``moves`` with each draw's tile hidden."""
    return tuple(UnseenDraw() if isinstance(m, Draw) else m for m in moves)


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
    voids: Sequence[SeenVoid] = (),
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
    )


class TableWatch:
    """What everyone at the table saw in one round: voids, and the tiles
    each seat drew and kept after showing one.

    Under ``must_play`` a seat that draws or passes holds nothing matching
    the open ends. The tiles it draws in that turn do not fit either (the
    one that fits is placed at once), so they keep the void exact; tiles it
    keeps from later turns may carry those pips, and are counted. Without
    ``must_play`` a draw shows nothing, and no void is kept.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._voids: list[SeenVoid] = []
        self._turn_draws = 0
        self._turn_first_void = 0

    def start_round(self) -> None:
        self._voids = []
        self._turn_draws = 0

    def voids(self) -> tuple[SeenVoid, ...]:
        return tuple(self._voids)

    def observe(self, before: RoundState, move: Move) -> None:
        """Note ``move``, about to be played by ``before.to_move``: only
        whether it is a draw, a pass or a placement is read."""
        seat = before.to_move
        if isinstance(move, Draw | Pass) and self._turn_draws == 0:
            # The turn's first draw, or a bare pass: it shows a void.
            self._turn_first_void = len(self._voids)
            if before.layout.started and self.rules.must_play:
                pips = frozenset(open_ends(self.rules, before.layout).values())
                self._voids.append(SeenVoid(seat, pips))
        if isinstance(move, Draw):
            # Kept, as far as anyone knows yet: older voids may now be broken.
            self._turn_draws += 1
            self._count_kept(seat, 1)
        elif self._turn_draws:
            if isinstance(move, Place):  # the drawn tile fitted and went down
                self._count_kept(seat, -1)
            self._turn_draws = 0

    def _count_kept(self, seat: int, tiles: int) -> None:
        self._voids = [
            SeenVoid(v.seat, v.pips, v.drawn_since + tiles)
            if v.seat == seat and i < self._turn_first_void else v
            for i, v in enumerate(self._voids)
        ]
