"""What a replay hands out: the match's summary, how it ended, each turn as
the replay saw it, and the whole result. Plain values, so that a visitor,
the analysis or a report reads them without knowing how the replay works.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.scoring import EndReason
from muggins_cli.engine.state import Place
from muggins_cli.notation.model import Diagnostic
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
class TurnEvent:
    """One placement or pass as the replay saw it, for analysis and display.

    ``hand`` is the mover's hand when they placed (after any draws), or None
    when the record hides part of it. ``choices`` are the tiles the mover was
    allowed to place: the drawn tile alone after a fitting draw.
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


@dataclass
class MatchReplay:
    summary: MatchSummary
    diagnostics: list[Diagnostic]
    rules: Rules | None
    events: list[TurnEvent] = field(default_factory=list)
    #: How the match was decided; None when nobody has won (or the winner
    #: was only taken from the Result tag of a record with hidden hands).
    ending: MatchEnding | None = None
