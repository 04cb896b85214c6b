"""One turn at a time: the legal placements and what each would have scored.

Everything here is a pure function of the rules, the layout before the turn
and the tiles the mover was allowed to place (``TurnEvent.choices``); the
engine does the counting, so the analysis can never disagree with the check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from muggins_cli.engine.layout import Layout, open_ends
from muggins_cli.engine.state import Place, placement_score, placements
from muggins_cli.notation.model import Pass as PassStep
from muggins_cli.notation.model import Placement, Turn
from muggins_cli.replay.values import TurnEvent
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Option:
    """One legal placement and the points it scores at once.

    ``text`` is the placement in MGN with the joining half first (``6-1L``
    joins a 6 on the left end), the way a player reads it off the table.
    """

    place: Place
    points: int
    text: str


def play_halves(rules: Rules, layout: Layout, move: Place,
                written: tuple[int, int] | None = None) -> tuple[int, int]:
    """``move``'s tile as it reads off the table: the half that joins the
    end first (a lead: the heavier half first, or as it lies); or, when
    ``written`` (the halves of the tile the record placed, in its order) is
    the same tile, in the record's order, so that a message naming the play
    made and a better one writes one tile one way (a placement's halves
    orient themselves, and a lead whichever way round is the same play)."""
    tile = move.tile
    if written is not None and Tile.of(*written) == tile:
        return written
    if move.end is None:
        first = tile.hi if move.left is None else move.left
    else:
        first = open_ends(rules, layout)[move.end]
    return first, tile.other(first)


def play_text(rules: Rules, layout: Layout, move: Place,
              written: tuple[int, int] | None = None) -> str:
    """``move`` in MGN, its halves as :func:`play_halves` orders them."""
    a, b = play_halves(rules, layout, move, written)
    return f"{a}-{b}{move.end.value if move.end is not None else ''}"


def options(rules: Rules, layout: Layout, tiles: Iterable[Tile],
            written: tuple[int, int] | None = None) -> tuple[Option, ...]:
    """Every legal placement of ``tiles`` on ``layout`` with its immediate
    score, in the engine's order (tiles sorted, then ends L, R, U, D);
    ``written`` as for :func:`play_text`."""
    out: list[Option] = []
    for move in placements(rules, layout, tiles):
        out.append(Option(move, placement_score(rules, layout, move),
                          play_text(rules, layout, move, written)))
    return tuple(out)


def named_best(best: T, best_value: float, made: T | None, made_value: float | None) -> T:
    """The play to name as the best: the play made when it is worth as much
    as ``best`` (ties name the play made: a player who found one of the
    best plays is not told of another), else ``best``. Every report that
    names a best play, at once or by the solver, names it by this rule."""
    if made is not None and made_value is not None and made_value >= best_value:
        return made
    return best


def best_option(opts: Iterable[Option], made: Option | None = None) -> Option | None:
    """The highest-scoring option, named by :func:`named_best` among equals
    (else the first of them, in engine order)."""
    top: Option | None = None
    for o in opts:
        if top is None or o.points > top.points:
            top = o
    if top is None:
        return None
    return named_best(top, top.points, made, made.points if made is not None else None)


def same_move(a: Place, b: Place) -> bool:
    """The same tile on the same end (the opening tile's orientation aside)."""
    return a.tile == b.tile and a.end == b.end


@dataclass(frozen=True, slots=True)
class TurnRef:
    """Which turn a finding is about: where it stands in the match and the
    record, who moved, and the play as written (``pass`` for a pass)."""

    round: int
    turn: int
    line: int
    column: int
    seat: int
    player: str
    played: str


@dataclass(frozen=True, slots=True)
class PlayAnalysis(TurnRef):
    """A turn as analysed.

    ``options`` is None when the record hides the tiles the mover could
    place; ``chosen`` is the option the mover took, None for a pass or for a
    placement that was not among the legal ones (the check reports that).
    """

    points: int
    options: tuple[Option, ...] | None
    chosen: Option | None

    @property
    def analysed(self) -> bool:
        return self.options is not None

    @property
    def best(self) -> Option | None:
        return best_option(self.options, self.chosen) if self.options is not None else None

    @property
    def forced(self) -> bool:
        """One legal placement or none: nothing to choose."""
        return self.options is not None and len(self.options) <= 1

    @property
    def missed(self) -> int:
        """Points a better legal placement would have scored on top."""
        best = self.best
        if self.chosen is None or best is None:
            return 0
        return max(0, best.points - self.points)


def analyse_event(rules: Rules, event: TurnEvent, player: str, played: str,
                  written: tuple[int, int] | None = None) -> PlayAnalysis:
    """The alternatives of one replayed turn. ``played`` is the placement as
    written in the record (or ``pass``), used only to name it; ``written``
    the halves of its tile as written (:func:`written_halves`)."""
    opts = None if event.choices is None else options(rules, event.layout, event.choices,
                                                      written)
    chosen: Option | None = None
    if opts is not None and event.placed is not None:
        placed = event.placed
        chosen = next((o for o in opts if same_move(o.place, placed)), None)
    return PlayAnalysis(
        round=event.round, turn=event.turn, line=event.line, column=event.column,
        seat=event.seat, player=player, played=played, points=event.points,
        options=opts, chosen=chosen)


def written(turn: Turn) -> str:
    """The placement as the record writes it, without its glyph; or ``pass``."""
    action = turn.action
    if isinstance(action, PassStep):
        return "pass"
    end = action.end.value if action.end is not None else ""
    return f"{action.tile}{end}"


def written_halves(turn: Turn | None) -> tuple[int, int] | None:
    """The halves of the tile a turn places, in the record's order; None for
    a pass (or no turn)."""
    action = turn.action if turn is not None else None
    if isinstance(action, Placement):
        return action.tile.a, action.tile.b
    return None
