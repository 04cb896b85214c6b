"""What watches a replay, in the spirit of python-chess's ``BaseVisitor``:
the replay follows the record and tells its visitors what happened in
public values (a finding, a :class:`Moment` and its :class:`Position`, a
turn's decision, a :class:`TurnEvent`); a visitor never sees how the replay
keeps the round.

The checker (:class:`~.watch.Checker`) is a visitor like the positions of
``R.T``, every position of the study page, the decisions the solver weighs
and the turn events of the analysis (:mod:`.watch`), so a command replays a
match once with the visitors it needs (:func:`~.replay.replay_match`).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from muggins_cli.notation.model import BodyLine, Diagnostic, Turn
from muggins_cli.replay.position import Position
from muggins_cli.replay.values import TurnEvent


class At(Enum):
    """Where a :class:`Moment` is."""

    #: Before a turn line of a round in play (its hands set up).
    TURN = "turn"
    #: Before a turn line of a round that has ended (a closing pass, or a
    #: play the record should not have).
    ENDED_TURN = "ended-turn"
    #: Before a round line or after the record's last line: the round's end
    #: as far as it went (its settlement applied, if it ended).
    ROUND_END = "round-end"
    #: The match was decided: the last position there is.
    OVER = "over"


class Moment:
    """A point between two lines of a round the replay follows: where it is
    (``at``, ``round``, ``turn`` the number of the turn to play next, the
    line that comes next, None at the very end) and, when asked for, the
    position there. ``started``: whether the round's hands were set up
    before this moment (a round's first turn sets them up).

    The position is made once, on the first request: most moments are
    passed over by every visitor."""

    __slots__ = ("_make", "_position", "at", "item", "round", "started", "turn")

    def __init__(self, at: At, round_number: int, turn: int, item: BodyLine | None,
                 started: bool, make: Callable[[], Position]) -> None:
        self.at = at
        self.round = round_number
        self.turn = turn
        self.item = item
        self.started = started
        self._make = make
        self._position: Position | None = None

    @property
    def position(self) -> Position:
        pos = self._position
        if pos is None:
            pos = self._position = self._make()
        return pos


class ReplayVisitor:
    """The hooks of a replay; each does nothing here, and a visitor
    overrides those it needs. The ``wants_*`` flags say which hooks cost
    the replay something to feed, so that a plain check pays for none."""

    #: :meth:`moment` between lines (hands are then set up before a
    #: round's first turn, so that the opening position shows them).
    wants_moments: bool = False
    #: :meth:`decide` inside each turn.
    wants_decisions: bool = False
    #: :meth:`turn` after each placement or pass.
    wants_turns: bool = False
    #: :meth:`line` after each line of the body.
    wants_lines: bool = False

    def finding(self, d: Diagnostic) -> None:
        """Each diagnostic, the parser's and the header's first, as found."""

    def moment(self, m: Moment) -> bool:
        """Between lines; False when this visitor wants no more moments (a
        replay watched only by such visitors stops once all are done, and
        reports nothing after)."""
        return True

    def decide(self, turn: Turn, at: Position) -> None:
        """In each turn at the moment the mover chooses a placement or a
        pass: after the turn's draws (``at.drawn`` the drawn tile that must
        go down), before the action is replayed."""

    def turn(self, event: TurnEvent) -> None:
        """After each placement or pass the replay accepted."""

    def line(self, item: BodyLine, round_number: int) -> None:
        """After each line of the body the replay read, as written, with
        the number of the round it was read in (0: none, before the first
        round or in a new one once the match was decided)."""


class Visitors(ReplayVisitor):
    """Several visitors as one, each asked in order, and each only for the
    hooks it wants."""

    def __init__(self, *visitors: ReplayVisitor) -> None:
        self.visitors = visitors
        self._moments = [v for v in visitors if v.wants_moments]
        self._decisions = [v for v in visitors if v.wants_decisions]
        self._turns = [v for v in visitors if v.wants_turns]
        self._lines = [v for v in visitors if v.wants_lines]
        self.wants_moments = bool(self._moments)
        self.wants_decisions = bool(self._decisions)
        self.wants_turns = bool(self._turns)
        self.wants_lines = bool(self._lines)
        # A visitor that only looks at positions may end the replay early;
        # any other (the checker) needs it to the end.
        self._may_stop = all(v.wants_moments for v in visitors)

    def finding(self, d: Diagnostic) -> None:
        for v in self.visitors:
            v.finding(d)

    def moment(self, m: Moment) -> bool:
        self._moments = [v for v in self._moments if v.moment(m)]
        self.wants_moments = bool(self._moments)
        return self.wants_moments or not self._may_stop

    def decide(self, turn: Turn, at: Position) -> None:
        for v in self._decisions:
            v.decide(turn, at)

    def turn(self, event: TurnEvent) -> None:
        for v in self._turns:
            v.turn(event)

    def line(self, item: BodyLine, round_number: int) -> None:
        for v in self._lines:
            v.line(item, round_number)
