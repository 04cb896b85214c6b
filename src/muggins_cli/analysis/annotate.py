"""Writing the analysis back into the record: glyphs and notes on turns.

A turn that missed points gets a note naming the better play
(``{6-1L would have scored 15}``) and, past the thresholds, the glyph ``?``
(a mistake) or ``??`` (a blunder) on its placement (docs/notation.md 4). When the
solver weighed a turn, its verdict replaces the immediate one: the points
a play gave away by the end of the round, with its standard error or as
exact (``{3-6R was 11.6 ± 2.1 points better by the end of the round}``,
``{3-6R was exactly 15 points better by the end of the round}``), with a glyph only
when the verdict is sure (``mistake`` or ``blunder``); a turn whose cost is
known to lie near the mistake line, or that the deals could not settle,
says so in the verdict's words (``{3-6R was 4.8 ± 0.6 points better by the
end of the round: close to the mistake line}``, ``...: uncertain``); a
turn the solver could not weigh keeps the immediate verdict.

Annotating an annotated record replaces the tool's own marks: its notes
(those two sentences) are taken out and written anew, and ``?``/``??`` on a
turn that carried one of them follow the new verdict. Every other note and
glyph is the keeper's and stays.

The record is annotated as a model (:func:`annotate_match`, frozen values
changed with ``dataclasses.replace``) and written by patching its own text:
only the placement token and the end of the turn line change, so comments,
spacing and everything else the user wrote stay as they were. The patched
text is read back and must give exactly the annotated model; if it ever does
not (a note written between the placement and its claim), the canonical
writer is used instead, which keeps comments and annotations but not the
user's spacing, and a record whose lines the parser could not all read is
refused rather than written without them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli import lexicon
from muggins_cli.analysis.match import MatchAnalysis
from muggins_cli.analysis.plays import PlayAnalysis
from muggins_cli.analysis.verdicts import BLUNDER as BLUNDER_VERDICT
from muggins_cli.analysis.verdicts import CLOSE, UNCERTAIN, VERDICT_WORDS, measured, points
from muggins_cli.analysis.verdicts import MISTAKE as MISTAKE_VERDICT
from muggins_cli.analysis.weigh import Weighed
from muggins_cli.errors import MugginsError
from muggins_cli.notation.model import Annotation, BodyLine, Match, Placement, Severity, Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.writer import write_matches

MISTAKE, BLUNDER = "?", "??"
_OURS = frozenset({MISTAKE, BLUNDER})
_PLACEMENT_RE = lexicon.PLACEMENT_TEXT_RE
_CLAIM_RE = lexicon.CLAIM_RE
#: The verdicts whose words a solver's note carries (no glyph says them).
_SAID = (CLOSE, UNCERTAIN)
#: The notes this module writes (:func:`note_text`, :func:`solver_note`).
_TOOL_NOTE_RE = re.compile(
    rf"{lexicon.NOTE_PLACEMENT} (would have scored [0-9]+"
    r"|was (exactly )?[0-9]+(\.[0-9])?( ± ([0-9]+\.[0-9]|\?))? points better by the end of "
    r"the round(: (" + "|".join(re.escape(VERDICT_WORDS[v]) for v in _SAID) + "))?)")


class AnnotateError(MugginsError):
    """A record that cannot be written back with its annotations."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Points missed from which a play is a mistake (``?``) or a blunder (``??``)."""

    mistake: int = 5
    blunder: int = 15

    def __post_init__(self) -> None:
        if self.mistake < 1 or self.blunder < 1:
            raise AnnotateError("the glyph thresholds must be at least 1 point")
        if self.blunder < self.mistake:
            raise AnnotateError(
                f"the blunder threshold ({self.blunder}) is below the mistake threshold "
                f"({self.mistake})")

    def glyph(self, missed: float) -> str | None:
        if missed >= self.blunder:
            return BLUNDER
        if missed >= self.mistake:
            return MISTAKE
        return None


@dataclass(frozen=True, slots=True)
class Mark:
    """What to change on the turn on ``line``: its glyph (None: keep the one
    written; ``""``: take it off), a note to add (None: none, or the same
    note is there already), and the tool's old notes to take out."""

    line: int
    glyph: str | None
    note: str | None
    drop: tuple[Annotation, ...] = ()


def note_text(p: PlayAnalysis) -> str:
    best = p.best
    assert best is not None
    return f"{best.text} would have scored {best.points}"


def solver_note(w: Weighed) -> str:
    cost = f"exactly {points(w.cost)}" if w.exact else measured(w.cost, w.error, False)
    said = f": {VERDICT_WORDS[w.verdict]}" if w.verdict in _SAID and w.verdict else ""
    return f"{w.best} was {cost} points better by the end of the round{said}"


def is_tool_note(text: str) -> bool:
    """Whether a note is one this module writes (so re-annotating may
    replace it)."""
    return _TOOL_NOTE_RE.fullmatch(text) is not None


def verdict_glyph(verdict: str | None) -> str | None:
    """The glyph of a solver verdict: ``??`` for a blunder, ``?`` for a
    mistake, none for a fine play, a close one or an uncertain one."""
    return {BLUNDER_VERDICT: BLUNDER, MISTAKE_VERDICT: MISTAKE}.get(verdict or "")


#: Below this many points the solver's note is left out: a sampled value
#: moves by about that much from one seed to another.
SOLVER_NOTE_FROM = 1.0


def _judged(analysis: MatchAnalysis, thresholds: Thresholds) -> dict[int, tuple[str | None,
                                                                             str | None]]:
    """(glyph, note) for each turn to mark: the solver's verdict where it
    weighed the turn, else the points missed at once."""
    weighed = analysis.weighed_by_line() if analysis.weigh is not None else {}
    out: dict[int, tuple[str | None, str | None]] = {}
    for p in analysis.plays:
        w = weighed.get(p.line)
        if w is not None and w.weighed:
            if w.unforced:
                note = solver_note(w) if w.cost >= SOLVER_NOTE_FROM else None
                out[p.line] = (verdict_glyph(w.verdict), note)
        elif p.missed > 0:
            out[p.line] = (thresholds.glyph(p.missed), note_text(p))
    return out


def marks_for(match: Match, analysis: MatchAnalysis, thresholds: Thresholds) -> list[Mark]:
    """The marks for every turn of ``match``: the new verdicts, and the
    tool's old marks brought up to date.

    A glyph the keeper wrote (``!``, ``!?``, ...) is kept; ``?`` and ``??``
    are replaced by a new verdict's, and taken off a turn whose old tool
    note goes when the new verdict has no glyph. A note already on the turn
    is not added twice, so annotating twice changes nothing.
    """
    judged = _judged(analysis, thresholds)
    marks: list[Mark] = []
    for turn in match.body:
        if not isinstance(turn, Turn) or not isinstance(turn.action, Placement):
            continue
        glyph, text = judged.get(turn.line, (None, None))
        old = tuple(n for n in turn.notes if n.line == turn.line and is_tool_note(n.text))
        keep = next((n for n in old if n.text == text), None)
        drop = tuple(n for n in old if n is not keep)
        note = None if keep is not None else text
        current = turn.action.glyph
        new_glyph: str | None = None
        if current is None or current in _OURS:
            if glyph is not None and glyph != current:
                new_glyph = glyph
            elif glyph is None and current is not None and old and keep is None:
                new_glyph = ""  # the tool's old glyph, with its old note
        if new_glyph is not None or note is not None or drop:
            marks.append(Mark(turn.line, new_glyph, note, drop))
    return marks


def annotate_match(match: Match, marks: Sequence[Mark]) -> Match:
    """``match`` with ``marks`` applied; a new note comes first among the
    turn's notes, where :func:`patch_text` writes it."""
    by_line = {m.line: m for m in marks}
    if not by_line:
        return match
    body: list[BodyLine] = []
    for item in match.body:
        mark = by_line.get(item.line) if isinstance(item, Turn) else None
        if mark is not None and isinstance(item, Turn) and isinstance(item.action, Placement):
            action = item.action
            if mark.glyph is not None:
                action = dataclasses.replace(action, glyph=mark.glyph or None)
            notes = tuple(n for n in item.notes if not any(n is d for d in mark.drop))
            if mark.note is not None:
                notes = (Annotation(mark.note, item.line, 0), *notes)
            body.append(item.changed(action=action, notes=notes))
        else:
            body.append(item)
    return dataclasses.replace(match, body=tuple(body))


def patch_text(text: str, records: Sequence[Match], marks: Sequence[Mark]) -> str:
    """The record text with ``marks`` written in: the tool's old notes taken
    out, the glyph straight after the placement, the note after the turn's
    last token (before any other note or comment on the line)."""
    lines = text.split("\n")
    turns = {item.line: item for m in records for item in m.body if isinstance(item, Turn)}
    for mark in marks:
        turn = turns[mark.line]
        action = turn.action
        assert isinstance(action, Placement)
        index = mark.line - 1
        physical = lines[index]
        shift = 1 if index == 0 and physical.startswith("\ufeff") else 0
        at = action.column - 1 + shift
        claim_col = turn.claim.column - 1 + shift if turn.claim is not None else 0
        for note in sorted(mark.drop, key=lambda n: -n.column):
            start = note.column - 1 + shift
            stop = start + len(note.text) + 2
            if physical[start:stop] != "{" + note.text + "}" or start < claim_col or start < at:
                raise AnnotateError(f"line {mark.line}: the note is not where the record "
                                    "says it is")
            if start and physical[start - 1] == " ":
                start -= 1
            physical = physical[:start] + physical[stop:]
        found = _PLACEMENT_RE.match(physical, at)
        if found is None:
            raise AnnotateError(f"line {mark.line}: the placement is not where the record "
                                "says it is")
        token = found.group(1) + (mark.glyph if mark.glyph is not None else found.group(2) or "")
        patched = physical[:at] + token + physical[found.end():]
        end = at + len(token)
        if turn.claim is not None:
            claim_at = claim_col + (len(patched) - len(physical))
            claim = _CLAIM_RE.match(patched, claim_at)
            if claim is None:
                raise AnnotateError(f"line {mark.line}: the claim is not where the record "
                                    "says it is")
            end = claim.end()
        if mark.note is not None:
            patched = patched[:end] + " {" + mark.note + "}" + patched[end:]
        lines[index] = patched
    return "\n".join(lines)


def annotate_text(text: str, records: Sequence[Match], analyses: Sequence[MatchAnalysis],
                  thresholds: Thresholds) -> tuple[str, int]:
    """The annotated text of a whole file and how many turns were marked.

    ``records`` are the matches parsed from ``text``, ``analyses`` their
    analyses, in step. Raises :class:`AnnotateError` when the result could
    not be written faithfully.
    """
    marks = [mk for m, a in zip(records, analyses) for mk in marks_for(m, a, thresholds)]
    if not marks:
        return text, 0
    expected = [annotate_match(m, marks) for m in records]
    patched = patch_text(text, records, marks)
    if parse_text(patched) == expected:
        return patched, len(marks)
    if any(d.severity is Severity.ERROR for m in records for d in m.diagnostics):
        raise AnnotateError("the record has lines that MGN does not allow; fix them first "
                            "(muggins check shows them), or they would be lost")
    try:
        return write_matches(expected), len(marks)
    except ValueError as e:
        raise AnnotateError(str(e)) from None
