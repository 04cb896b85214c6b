"""What a replay hands out: the match's summary, how it ended, each turn as
the replay saw it, and the whole result. Plain values, so that a visitor,
the analysis or a report reads them without knowing how the replay works.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.scoring import EndReason
from muggins_cli.engine.state import Place
from muggins_cli.notation.model import Diagnostic, MugginsCall, Turn
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile


@dataclass
class MatchSummary:
    """What docs/notation.md 9 reports per match, plus what tables want."""

    line: int
    players: list[str]
    rules: str
    target: int | None
    rounds: int
    scores: dict[str, int]
    winner: str | None
    turns: int = 0


@dataclass(frozen=True, slots=True)
class MatchEnding:
    """Where and why the match was decided, so that displays (``replay``,
    the study page) can say it without knowing the rules: ``line`` is the
    record line of the deciding placement or muggins call, or the line
    after which the round's settlement was applied (its last turn or
    reveal); ``scores`` are the final totals by seat."""

    winner: int
    reason: EndReason
    round: int
    line: int
    scores: tuple[int, ...]
    target: int


def won_text(players: list[str] | tuple[str, ...], target: int, winner: int | None,
             ending: MatchEnding | None) -> str:
    """How the winner won, as every end-of-match message says it (the
    checker's, ``replay``'s title, ``--at`` past the end), so that under
    ``match_end: round-end`` none of them says the target ended it."""
    name = players[winner] if winner is not None else "?"
    if ending is not None and ending.reason is EndReason.ROUND_END:
        return (f"{name} won at the end of round {ending.round} with the highest total "
                f"at or above the target of {target}")
    return f"{name} reached the target of {target}"


@dataclass(frozen=True, slots=True)
class Called:
    """A muggins line after a turn, as the replay credited it: ``points``
    as called, ``taken`` what it took (0 where the rules did not let it
    take any), ``call`` the record's line (its words, notes and comments,
    for a display)."""

    seat: int
    points: int
    taken: int
    call: MugginsCall


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """One placement or pass as the replay saw it, for analysis and display.

    ``hand`` is the mover's hand when they placed (after any draws), or None
    when the record hides part of it. ``choices`` are the tiles the mover was
    allowed to place: the drawn tile alone after a fitting draw.

    What the turn credited is the replay's, so that no reader of the event
    follows claims and calls through the record again: ``written`` is the
    record's turn line as written (to name the play as the record does),
    ``claimed`` the claim it writes (None: none), ``credited`` what the
    placement credited its player (the score itself under rules without a
    muggins call; under them what the claim earned, as the replay read it),
    ``calls`` the muggins lines that followed the turn, in order, each with
    what it took.
    """

    round: int
    turn: int
    seat: int
    line: int
    column: int
    layout: Layout
    hand: frozenset[Tile] | None
    choices: frozenset[Tile] | None
    draws: int
    placed: Place | None
    points: int
    scores_before: tuple[int, ...]
    stock_left: int
    written: Turn
    claimed: int | None
    credited: int
    calls: tuple[Called, ...]

    @property
    def unclaimed(self) -> int:
        """The points the placement scored that neither its claim nor a
        muggins call credited: left on the table."""
        return self.points - self.credited - sum(c.taken for c in self.calls)


@dataclass(frozen=True)
class RecordComments:
    """The record's ``#`` comments (those of its notes with them), each with
    what it was written beside, as the replay met them on its one walk
    through the body, so that a display reads no body: ``turns`` by a turn
    line's number, the turn's own then those of the muggins lines right
    after it; ``rounds`` by the number of the round the replay read them in
    (the page's rounds are the replay's, whatever number a round line
    writes), those of the round's other lines, a muggins line after one of
    them too; ``match`` the tags', the match's notes', those of lines read
    in no round (before the first; a new round's once the match was
    decided), then the closing ones. Each in the order written."""

    turns: dict[int, tuple[str, ...]] = field(default_factory=dict)
    rounds: dict[int, tuple[str, ...]] = field(default_factory=dict)
    match: tuple[str, ...] = ()


@dataclass
class MatchReplay:
    summary: MatchSummary
    diagnostics: list[Diagnostic]
    rules: Rules | None
    events: list[TurnEvent] = field(default_factory=list)
    #: How the match was decided; None when nobody has won (or the winner
    #: was only taken from the Result tag of a record with hidden hands).
    ending: MatchEnding | None = None
    #: The record's comments, when the replay was asked to collect them.
    comments: RecordComments = field(default_factory=RecordComments)

    def calls_by_line(self) -> dict[int, tuple[Called, ...]]:
        """The muggins calls after each turn, by the turn's line (from the
        events: none where the replay made no event)."""
        return {e.line: e.calls for e in self.events if e.calls}
