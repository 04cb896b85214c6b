"""The move list of a study page: each turn as written with its notes,
comments and muggins calls, what it scored and the analysis's verdict on
it; each round's end and settlement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.plays import PlayAnalysis
from muggins_cli.analysis.verdicts import BLUNDER, MISTAKE, VERDICT_WORDS, WeighOptions, points
from muggins_cli.analysis.weigh import Weighed
from muggins_cli.notation.model import BodyLine, Match, Turn
from muggins_cli.notation.writer import turn_steps
from muggins_cli.replay.position import Position
from muggins_cli.replay.values import Called
from muggins_cli.report.board import after_settlement, went_out
from muggins_cli.report.study_turn import plus_minus, signed_points


@dataclass(frozen=True)
class Call:
    player: str
    seat: int
    points: int
    notes: tuple[str, ...]


@dataclass(frozen=True)
class MoveEntry:
    """A turn in the move list: as written, with its notes and calls, what
    it scored, and the analysis's verdict on it. ``verdict`` is the
    solver's (``mistake``, ``blunder``: coloured, with ``glyph``); ``lost``
    says what the play gave away, neutral unless it is a verdict."""

    board: str
    turn: int
    player: str
    seat: int
    text: str
    points: int | None
    claim: int | None
    notes: tuple[str, ...]
    calls: tuple[Call, ...]
    missed: int = 0
    best: str | None = None
    lost: str | None = None
    glyph: str | None = None
    comments: tuple[str, ...] = ()
    verdict: str | None = None
    luck: str | None = None


@dataclass
class RoundView:
    number: int
    board: str
    leader: str
    entries: list[MoveEntry] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    end: str = ""
    settlement: list[tuple[str, int, str, int]] = field(default_factory=list)
    """Each player: name, seat, the change the settlement made (``+5``, ``-10``)
    and the total after it."""


def _notes(item: BodyLine) -> tuple[str, ...]:
    return tuple(" ".join(n.text.split()) for n in item.notes)


def calls_of(called: dict[int, tuple[Called, ...]]) -> dict[int, tuple[Call, ...]]:
    """The muggins calls the replay credited after each turn, by the turn's
    line, as the move list writes them."""
    return {line: tuple(Call(c.call.player, c.seat, c.points, _notes(c.call)) for c in calls)
            for line, calls in called.items()}


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def match_notes(match: Match) -> tuple[str, ...]:
    return tuple(" ".join(n.text.split()) for n in match.notes)


def move_entry(bid: str, turn_no: int, turn: Turn, seat: dict[str, int],
           calls: dict[int, tuple[Call, ...]], plays: dict[int, PlayAnalysis],
           weighed: dict[int, Weighed], options: WeighOptions | None) -> MoveEntry:
    p = plays.get(turn.line)
    w = weighed.get(turn.line)
    missed, best_now, pts = 0, None, None
    if p is not None:
        pts = None if p.played == "pass" else p.points
        missed = p.missed
        b = p.best
        best_now = f"{b.text} scored {b.points}" if missed and b is not None else None
    lost = glyph = verdict = luck = None
    if w is not None and options is not None:
        if w.weighed and w.unforced:
            glyph = verdict_glyph(w.verdict)
            verdict = w.verdict
            if w.cost:
                lost = f"lost {points(w.cost)}{plus_minus(w.error)}"
                if w.verdict in (MISTAKE, BLUNDER):
                    lost += f": {w.best} was better"
                else:
                    lost += f", {VERDICT_WORDS.get(w.verdict or '', '')} ({w.best})"
        if w.luck is not None and abs(w.luck) > 2 * (w.luck_error or 0.0) and w.luck:
            # Only draws that surely gave or took: the panel has the rest.
            luck = f"luck {signed_points(w.luck)}{plus_minus(w.luck_error)}"
    claim = turn.claim.points if turn.claim is not None else None
    return MoveEntry(bid, turn_no, turn.player, seat.get(turn.player, 0),
                     turn_steps(turn, claim=False), pts, claim if claim != pts else None,
                     _notes(turn), calls.get(turn.line, ()), missed, best_now, lost, glyph,
                     verdict=verdict, luck=luck)


def round_end(seen: Sequence[tuple[Position, BodyLine | None]], k: int,
               final: Sequence[int]) -> tuple[str, list[tuple[str, int, str, int]]]:
    pos = seen[k][0]
    after = after_settlement(seen, k, final)
    if pos.round_over:
        who = went_out(pos)
        how = f"{who} went out" if who is not None else "blocked"
    elif pos.match_over:
        how = "the match ended"
    else:
        how = "the record stops"
    rows: list[tuple[str, int, str, int]] = []
    if after is not None:
        # Applied already (a score line followed the round), or about to be:
        # then it is what the next position adds (nothing, for a match won
        # at a placement).
        deltas = pos.settlement or tuple(a - s for a, s in zip(after, pos.scores))
        for i, name in enumerate(pos.players):
            rows.append((name, i, _signed(deltas[i]), after[i]))
    return how, rows
