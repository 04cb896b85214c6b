"""The mover's choice mapped back to the engine's move, and what a seat is
shown of a claim.

The match driver (:func:`muggins_cli.play.selfplay.play_match`) holds every
hand and the stock, so it is the one place that could leak them. It hands a
:class:`~muggins_cli.play.strategies.SeenStrategy` the mover's
:class:`~muggins_cli.engine.view.SeatView` instead (the same value the
replay makes from a record and the solver's ``sample`` mode reads), in which
a draw is an :class:`~muggins_cli.engine.state.UnseenDraw` that names no
tile; :func:`real_move` turns the choice back into the engine's move, whose
draw carries the stock's next tile.

Under rules with a muggins call (docs/notation.md 5) a placement scores what
its player claims, and an opponent may take the unclaimed rest. The placer
decides its claim from a :class:`ClaimView`, an opponent its call from a
:class:`CallView`: the placement, the layout it made and the claim written
on the table, all public.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import KnownDraw, Move, Place, UnseenDraw
from muggins_cli.engine.view import SeenMove
from muggins_cli.errors import IllegalMoveError


def real_move(moves: Sequence[Move], choice: SeenMove) -> Move:
    """The engine move that ``choice`` stands for (a draw takes the stock's
    next tile). Raises IllegalMoveError when ``choice`` is not among ``moves``."""
    for m in moves:
        if isinstance(choice, UnseenDraw):
            if isinstance(m, KnownDraw):
                return m
        elif m == choice:
            return m
    raise IllegalMoveError(f"{choice} is not a legal move here")


@dataclass(frozen=True)
class ClaimView:
    """What the placer knows when it claims (rules with a muggins call):
    its placement, the layout it made, and the points that layout scores
    (the count of its open ends, which anyone at the table can make).
    ``scores`` are the totals before the claim is credited."""

    seat: int
    move: Place
    layout: Layout
    points: int
    scores: tuple[int, ...]
    target: int


@dataclass(frozen=True)
class CallView:
    """What an opponent is shown when it may call muggins: who placed, the
    placement, the layout it made and the claim written (0 when none was).
    What the placement really scored is not given: the caller counts the
    layout itself, as a player at the table must. ``scores`` are the totals
    with the claim credited."""

    seat: int
    placer: int
    move: Place
    layout: Layout
    claimed: int
    scores: tuple[int, ...]
    target: int
