"""The mover's choice mapped back to the engine's move.

The match driver (:func:`muggins_cli.play.selfplay.play_match`) holds every
hand and the stock, so it is the one place that could leak them. It hands a
:class:`~muggins_cli.play.strategies.SeenStrategy` the mover's
:class:`~muggins_cli.engine.view.SeatView` instead (the same value the
replay makes from a record and the solver's ``sample`` mode reads), in which
a draw is an :class:`~muggins_cli.engine.state.UnseenDraw` that names no
tile; :func:`real_move` turns the choice back into the engine's move, whose
draw carries the stock's next tile.
"""

from __future__ import annotations

from collections.abc import Sequence

from muggins_cli.engine.state import Draw, Move, UnseenDraw
from muggins_cli.engine.view import SeenMove
from muggins_cli.errors import IllegalMoveError


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
