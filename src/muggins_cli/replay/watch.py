"""The visitors every command composes: the checker's diagnostics, the
turn events of the analysis, one position ``R.T``, every position of a
match (the study page, ``muggins replay``), each turn's decision (what
the solver weighs) and the record's comments (the study page). Each reads
only what the replay hands it.
"""

from __future__ import annotations

from collections.abc import Sequence

from muggins_cli.engine.state import PassTurn as EnginePass
from muggins_cli.engine.state import Place
from muggins_cli.errors import InputError
from muggins_cli.notation.model import (
    NO_COMMENTS,
    Annotation,
    BodyLine,
    Comments,
    Diagnostic,
    Match,
    MugginsCall,
    Severity,
    Turn,
)
from muggins_cli.replay.position import Decision, Position
from muggins_cli.replay.values import RecordComments, TurnEvent, won_text
from muggins_cli.replay.visitor import At, Moment, ReplayVisitor


def _where(d: Diagnostic) -> tuple[int, int]:
    return d.line, d.column


class Checker(ReplayVisitor):
    """Every diagnostic of a match: the parser's, the header's and the
    tracker's findings, by line and column (findings on one spot in the
    order they were made)."""

    def __init__(self) -> None:
        self.found: list[Diagnostic] = []

    def finding(self, d: Diagnostic) -> None:
        self.found.append(d)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return sorted(self.found, key=_where)


class TurnEvents(ReplayVisitor):
    """Keeps every :class:`TurnEvent`, for the analysis, the statistics and
    the study page."""

    wants_turns = True

    def __init__(self) -> None:
        self.events: list[TurnEvent] = []

    def turn(self, event: TurnEvent) -> None:
        self.events.append(event)


class PositionAt(ReplayVisitor):
    """The position ``R.T`` (before turn T of round R, or round R's end when
    T is one past its last turn), or where the match ended if it ended
    first, and the findings made until then (to say why there is none)."""

    wants_moments = True

    def __init__(self, round_number: int, turn: int) -> None:
        self.want = (round_number, turn)
        self.found: Position | None = None
        self.over: Position | None = None
        self.findings: list[Diagnostic] = []
        self._done = False

    def finding(self, d: Diagnostic) -> None:
        if not self._done:
            self.findings.append(d)

    def moment(self, m: Moment) -> bool:
        here = (m.round, m.turn) == self.want
        if m.at is At.OVER:
            if here:
                self.found = m.position
            else:
                self.over = m.position
        elif here:
            self.found = m.position
        else:
            return True
        self._done = True
        return False

    def position(self) -> Position:
        """The position found; else an InputError that names the end when
        the match was over before it, or the record's first error."""
        if self.found is not None:
            return self.found
        want_round, want_turn = self.want
        where = f"the match has no position {want_round}.{want_turn}"
        end = self.over
        if end is not None and self.want > (end.round, end.turn):
            assert end.winner is not None
            raise InputError(f"{where}: it was over at {end.round}.{end.turn}, when "
                             + won_text(end.players, end.target, end.winner, end.ending))
        errors = [d for d in sorted(self.findings, key=_where) if d.severity is Severity.ERROR]
        hint = f" (the record has errors first, e.g. line {errors[0].line}: " \
            f"{errors[0].message})" if errors else ""
        raise InputError(f"{where}{hint}")


class Positions(ReplayVisitor):
    """Every position before a turn line and each round's end, in order,
    with the line that follows it (None at the very end); once the match is
    over, its last position and nothing after it."""

    wants_moments = True

    def __init__(self) -> None:
        self.out: list[tuple[Position, BodyLine | None]] = []

    def moment(self, m: Moment) -> bool:
        if m.at is At.OVER:
            self.out.append((m.position, None))
            return False
        if m.at is At.TURN:
            self.out.append((m.position, m.item))
        elif m.at is At.ROUND_END and m.started:
            pos = m.position
            self.out.append((pos, m.item))
            return not pos.match_over
        return True


class Decisions(ReplayVisitor):
    """Each turn at its decision, and before its first draw if it drew, with
    the move the replay then played."""

    wants_moments = True
    wants_decisions = True
    wants_turns = True

    def __init__(self) -> None:
        self.found: list[tuple[Turn, Position | None, Position]] = []
        self.starts: dict[int, Position] = {}
        self.played: dict[int, Place | EnginePass] = {}

    def moment(self, m: Moment) -> bool:
        item = m.item
        if m.at is At.TURN and m.started and isinstance(item, Turn) and item.spelling.drawn:
            self.starts[item.line] = m.position
        return True

    def decide(self, turn: Turn, at: Position) -> None:
        self.found.append((turn, self.starts.get(turn.line), at))

    def turn(self, event: TurnEvent) -> None:
        self.played[event.line] = event.placed if event.placed is not None else EnginePass()

    def decisions(self) -> list[Decision]:
        return [Decision(turn, start, at, self.played.get(turn.line))
                for turn, start, at in self.found]


def comment_texts(comments: Comments, notes: Sequence[Annotation] = ()) -> list[str]:
    """A line's comments in the order written: those above it, the one at
    its end, then those that went with its notes."""
    out = [c.text.strip() for c in comments.before]
    if comments.end is not None:
        out.append(comments.end.text.strip())
    for n in notes:
        out.extend(comment_texts(n.comments))
    return out


class CommentsRead(ReplayVisitor):
    """The record's comments with what the parser gave each to, placed as
    the replay reads the body (:class:`~.values.RecordComments`): a muggins
    line goes with the turn line it follows, other lines with the round
    the replay was in."""

    wants_lines = True

    def __init__(self) -> None:
        self.turns: dict[int, list[str]] = {}
        self.rounds: dict[int, list[str]] = {}
        self.no_round: list[str] = []  # lines read in no round
        self._turn: int | None = None  # the turn line a muggins line would follow

    def line(self, item: BodyLine, round_number: int) -> None:
        cls = item.__class__
        if cls is Turn:
            self._turn = item.line
        elif cls is not MugginsCall:
            self._turn = None
        texts = comment_texts(item.comments, item.notes)
        if not texts:
            return
        if self._turn is not None:
            self.turns.setdefault(self._turn, []).extend(texts)
        elif round_number:
            self.rounds.setdefault(round_number, []).extend(texts)
        else:
            self.no_round.extend(texts)

    def comments(self, match: Match) -> RecordComments:
        """What was read, with the comments of ``match``'s tags, notes and
        closing (which are no body line)."""
        head = [t for tag in match.tags for t in comment_texts(tag.comments)]
        head += comment_texts(NO_COMMENTS, match.notes)
        closing = [c.text.strip() for c in match.closing]
        return RecordComments({k: tuple(v) for k, v in self.turns.items()},
                              {k: tuple(v) for k, v in self.rounds.items()},
                              (*head, *self.no_round, *closing))
