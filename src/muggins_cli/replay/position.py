"""Positions in a record: ``R.T`` (docs/notation.md 7) as engine state.

The solver and the turn-by-turn display start from a position; the replay
hands one to the visitors that ask (:mod:`.watch`) with only what the record
shows: a hand the record hides stays ``None``, never a guess.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeVar

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import PassTurn as EnginePass
from muggins_cli.engine.state import Place, RoundState
from muggins_cli.engine.view import SeatView, moves_seen
from muggins_cli.engine.voids import Placed, Void
from muggins_cli.errors import InputError
from muggins_cli.notation.model import NUMBER_MAX, Turn, whole_number
from muggins_cli.notation.quoting import quote
from muggins_cli.replay.values import MatchEnding
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile


@dataclass(frozen=True, slots=True)
class Position:
    """The moment before turn ``turn`` of round ``round`` (1-based)."""

    rules: Rules
    players: tuple[str, ...]
    round: int
    turn: int
    hands: tuple[frozenset[Tile] | None, ...]
    hand_sizes: tuple[int, ...]
    stock: tuple[Tile, ...] | None
    stock_count: int
    layout: Layout
    to_move: int
    drawn: Tile | None
    scores: tuple[int, ...]
    target: int
    unseen: frozenset[Tile]
    voids: tuple[Void, ...]
    round_over: bool
    winner: int | None
    """The seat that won, once the match is over (None before)."""
    #: The placements the others chose since they last drew (SeatView.placed).
    placed: tuple[Placed, ...] = ()
    #: The double the round must open with (``lead_tile: highest-double``),
    #: while nothing is on the table; None when any tile may open.
    lead_tile: Tile | None = None
    #: How the match was decided, once it is over (see ``MatchEnding``).
    ending: MatchEnding | None = None
    settlement: tuple[int, ...] | None = None
    """At a round's end: what its settlement credited each player, once the
    replay has applied it (``scores`` then include it); None before."""

    @property
    def match_over(self) -> bool:
        return self.winner is not None

    @property
    def perfect(self) -> bool:
        """Every hand and the stock order are known."""
        return all(h is not None for h in self.hands) and self.stock is not None

    def view(self) -> SeatView:
        """What the player to move sees here: their hand (the record must
        show it), the table, the sizes, the voids the replay counted. Never
        another seat's hand or ``stock``."""
        seat = self.to_move
        hand = self.hands[seat]
        if hand is None:
            raise InputError("the record does not show the mover's hand (no deal line)")
        return SeatView(
            seat=seat,
            hand=hand,
            layout=self.layout,
            hand_sizes=self.hand_sizes,
            unseen=self.unseen,
            stock_count=self.stock_count,
            scores=self.scores,
            target=self.target,
            moves=moves_seen(self.rules, self.layout, hand, self.drawn, self.stock_count,
                             self.lead_tile),
            voids=self.voids,
            drawn=self.drawn,
            lead_tile=self.lead_tile,
            placed=self.placed,
        )

    def state(self) -> RoundState:
        """The engine state; only when every hand and the stock order are known."""
        if not self.perfect:
            raise InputError(
                f"position {self.round}.{self.turn}: the record does not show every hand "
                "and the stock order (it needs deal lines and a stock line)")
        hands = tuple(h if h is not None else frozenset() for h in self.hands)
        assert self.stock is not None
        return RoundState(hands, self.stock, self.layout, self.to_move, self.drawn,
                          over=self.round_over, lead_tile=self.lead_tile)


def parse_at(at: str) -> tuple[int, int]:
    r, dot, t = at.strip().partition(".")
    round_number, turn = whole_number(r), whole_number(t)
    if not dot or not round_number or not turn:
        raise InputError(f"--at {quote(at)}: expected R.T, a round and a turn number such "
                         f"as 2.5 (each from 1 to {NUMBER_MAX:,})")
    return round_number, turn


@dataclass(frozen=True)
class Decision:
    """A turn at the moment its mover chose a placement or a pass.

    ``at`` is the position then: after the turn's draws, ``drawn`` the drawn
    tile that must go down; its ``turn`` is the turn's number. ``start`` is
    the position before the turn's first draw, None for a turn without
    draws. ``move`` is the placement as the replay resolved it (its
    end filled in) or ``Pass``; None when the replay refused the turn.
    """

    turn: Turn
    start: Position | None
    at: Position
    move: Place | EnginePass | None


#: Values positions hold, each kept once (see :func:`shared`); cleared when
#: full, so it stays small whatever the record.
_SHARED: dict[object, object] = {}
_SHARED_MAX = 4096
_V = TypeVar("_V", bound=Hashable)


def shared(value: _V) -> _V:
    """``value``, or the equal one an earlier position already holds.
    Consecutive positions mostly repeat their hands, stock, unseen tiles,
    scores and voids (a round of passes, all of them): sharing them keeps a
    long record's positions to a few hundred bytes each, where copies made
    them 3.8 KB (77 MB for the 20,000 positions of a study page)."""
    found = _SHARED.get(value)
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        _SHARED[value] = found = value
    return found  # type: ignore[return-value]

