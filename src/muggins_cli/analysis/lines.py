"""The solver's line after a play, as a reader follows it: turn by turn,
who moved (the engine's answer, not a rule of the reader's), the tiles they
drew, the tile they laid as it reads off the table and what it scored.

A line is walked through the engine from the state it was searched in (the
recorded deal all-seeing, one sampled deal in the mover's view), so a move
the engine refuses there ends it rather than being drawn wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from muggins_cli.analysis.plays import play_halves, play_text
from muggins_cli.engine.state import KnownDraw, PassTurn, Place, RoundState, UnseenDraw, apply
from muggins_cli.errors import IllegalMoveError
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile

if TYPE_CHECKING:  # the solver itself (Numba) is imported only to weigh a turn
    from muggins_cli.solver import SolverMove


@dataclass(frozen=True, slots=True)
class LineTurn:
    """One turn of a line: the seat that moved, the tiles it drew first
    (None for one nobody knows yet), then its play: a placement (``text``
    in MGN with the joining half first, ``halves`` the tile in that order,
    ``points`` what it scored) or a pass; ``play`` None when the line stops
    after the draws."""

    seat: int
    draws: tuple[Tile | None, ...]
    play: Place | PassTurn | None
    text: str = ""
    halves: tuple[int, int] | None = None
    points: int = 0


def line_turns(rules: Rules, state: RoundState | None, first: SolverMove,
               rest: Sequence[SolverMove]) -> tuple[LineTurn, ...]:
    """The turns of ``rest``, the moves after ``first`` (both as the solver
    gave them in ``state``); empty without a state to walk them in. The
    draws of the turn ``first`` begins (a draw) are the mover's own, not
    shown again."""
    if state is None or not rest:
        return ()
    try:
        s, _ = apply(rules, state, first)  # type: ignore[arg-type]
    except IllegalMoveError:
        return ()
    out: list[LineTurn] = []
    draws: list[Tile | None] = []
    for m in rest:
        if s.over:
            break
        seat = s.to_move
        if isinstance(m, UnseenDraw):
            draws.append(None)
            break  # its tile is not known: the line cannot go on
        try:
            after, points = apply(rules, s, m)
        except IllegalMoveError:
            break
        if isinstance(m, KnownDraw):
            draws.append(m.tile)
        elif isinstance(m, Place):
            out.append(LineTurn(seat, tuple(draws), m, play_text(rules, s.layout, m),
                                play_halves(rules, s.layout, m), points))
            draws = []
        else:
            out.append(LineTurn(seat, tuple(draws), PassTurn(), "pass"))
            draws = []
        s = after
    if draws:
        out.append(LineTurn(s.to_move, tuple(draws), None))
    return tuple(out)
