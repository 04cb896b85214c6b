"""Writing records back as canonical MGN text.

One spelling per record, so that ``muggins fmt`` output can be diffed and
checked in CI: tags in a fixed order, single spaces, LF line ends, a blank
line after the tags and before each round after the first. Annotations are
kept (they are the analyser's output), and so are comments (the keeper's
words, docs/notation.md 1): a comment of its own line stays on its own line above
the line it preceded, one at the end of a line at the end of that line, with
one space before its ``#``. Reading the text back gives the same record, tags
in the canonical order (:func:`canonical_tag_order`)::

    parse_text(write_match(m)) == [with_canonical_tags(m)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from muggins_cli.notation.model import (
    NO_COMMENTS,
    Annotation,
    BodyLine,
    Comment,
    Comments,
    DealLine,
    Draw,
    LeadLine,
    Match,
    MugginsCall,
    Pass,
    Placement,
    RevealLine,
    RoundLine,
    ScoreLine,
    StockLine,
    Tag,
    TileTok,
    Turn,
)

__all__ = [
    "TAG_ORDER",
    "canonical_tag_order",
    "format_line",
    "with_canonical_tags",
    "write_match",
    "write_matches",
]

TAG_ORDER: tuple[str, ...] = ("Event", "Site", "Date", "Players", "Rules", "Target", "Result")
_RANK = {name: rank for rank, name in enumerate(TAG_ORDER)}


def canonical_tag_order(tags: Iterable[Tag]) -> tuple[Tag, ...]:
    """The tags of :data:`TAG_ORDER` first, in that order, then the others
    as they were written (a stable sort keeps repeated names in order)."""
    return tuple(sorted(tags, key=lambda tag: _RANK.get(tag.name, len(TAG_ORDER))))


def with_canonical_tags(match: Match) -> Match:
    """``match`` as it reads back after writing: only the tag order moves."""
    return dataclasses.replace(match, tags=canonical_tag_order(match.tags))


def write_matches(matches: Iterable[Match]) -> str:
    """Matches one after another, a blank line between two; ``""`` for none."""
    return "\n".join(write_match(match) for match in matches)


def write_match(match: Match) -> str:
    """One match in canonical form, ending with a newline.

    Raises ValueError for a record that MGN cannot spell (an annotation
    holding ``}``, a tag value, name or comment holding a line break): such
    a record was not read from text, and writing it would change its meaning.
    """
    out: list[str] = []
    for tag in canonical_tag_order(match.tags):
        out.extend(_with_comments(_tag_line(tag), tag.comments))
    for note in match.notes:
        out.extend(_with_comments(_annotation(note), note.comments))
    if out and match.body:
        out.append("")
    for index, record in enumerate(match.body):
        if index and isinstance(record, RoundLine):
            out.append("")
        out.extend(_with_notes(format_line(record), record.comments, record.notes))
    out.extend(_comment(c) for c in match.closing)
    return "\n".join(out) + "\n"


def _with_notes(line: str, comments: Comments, notes: tuple[Annotation, ...]) -> list[str]:
    """A body line, its comments and its annotations, as physical lines.

    Notes go on the line while they can: a multi-line note, a note with a
    comment, and every note after one, go on lines of their own (still after
    this body line, so they read back as its notes), and the line's own end
    comment comes after the notes kept on it."""
    out = [_comment(c) for c in comments.before]
    own: list[str] = []
    for note in notes:
        text = _annotation(note)
        if own or "\n" in note.text or note.comments != NO_COMMENTS:
            own.extend(_with_comments(text, note.comments))
        else:
            line = f"{line} {text}"
    out.extend(_with_comments(line, Comments((), comments.end)))
    out.extend(own)
    return out


def _with_comments(line: str, comments: Comments) -> list[str]:
    out = [_comment(c) for c in comments.before]
    out.append(line if comments.end is None else f"{line} {_comment(comments.end)}")
    return out


def _comment(comment: Comment) -> str:
    # A CR inside a comment is a character of it (lines end with LF or
    # CRLF); only an LF, or a CR at its end, would not read back the same,
    # and the reader never makes either.
    if "\n" in comment.text or comment.text.endswith("\r"):
        raise ValueError(f"a comment holds a line break, which MGN cannot write: "
                         f"{comment.text!r}")
    return f"#{comment.text}"


def format_line(record: BodyLine) -> str:
    """A body line without its annotations (also what the replay quotes)."""
    if isinstance(record, Turn):
        return f"{record.player}: {turn_steps(record)}"
    if isinstance(record, DealLine):
        return _with_tiles(f"deal {record.player}", record.tiles)
    if isinstance(record, RoundLine):
        return f"round {record.number}"
    if isinstance(record, ScoreLine):
        entries = ", ".join(f"{entry.player} {entry.points}" for entry in record.entries)
        return f"score {entries}"
    if isinstance(record, RevealLine):
        return _with_tiles(f"reveal {record.player}", record.tiles)
    if isinstance(record, StockLine):
        return _with_tiles("stock", record.tiles)
    if isinstance(record, LeadLine):
        return f"lead {record.player}"
    if isinstance(record, MugginsCall):
        return f"{record.player}: muggins +{record.points}"
    raise TypeError(f"not a body line: {record!r}")


def turn_steps(turn: Turn, *, claim: bool = True) -> str:
    """A turn line after the mover's name: its draws, its play and, with
    ``claim``, its claim (a page that shows the points made beside the
    claim leaves it out)."""
    steps = [_draw(draw) for draw in turn.draws]
    action = turn.action
    steps.append("pass" if isinstance(action, Pass) else _placement(action))
    if claim and turn.claim is not None:
        steps.append(f"+{turn.claim.points}")
    return " ".join(steps)


def _with_tiles(head: str, tiles: tuple[TileTok, ...]) -> str:
    if not tiles:
        return head
    return f"{head} {' '.join(f'{tile.a}-{tile.b}' for tile in tiles)}"


def _draw(draw: Draw) -> str:
    return "d??" if draw.tile is None else f"d{draw.tile.a}-{draw.tile.b}"


def _placement(placement: Placement) -> str:
    end = "" if placement.end is None else placement.end.value
    glyph = placement.glyph or ""
    return f"{placement.tile.a}-{placement.tile.b}{end}{glyph}"


def _tag_line(tag: Tag) -> str:
    if "\n" in tag.value:
        raise ValueError(f"tag {tag.name} holds a line break, which MGN cannot write")
    value = tag.value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{tag.name} "{value}"]'


def _annotation(note: Annotation) -> str:
    if "}" in note.text:
        raise ValueError(f"annotation holds '}}', which MGN cannot write: {note.text!r}")
    return f"{{{note.text}}}"
