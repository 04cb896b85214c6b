"""The parsed form of an MGN record (docs/notation.md), with no rules knowledge.

Every element keeps the line and column where it was written so that the
replay can point at the offending token. The body of a match is kept flat, in
file order, because a record may be wrong in its structure too (a turn before
any ``round``), and only the replay knows what that means.

The classes are values (compared and hashed by their fields, never changed
once built: make a new one with ``dataclasses.replace``), but not frozen
dataclasses: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` and costs three times as much, and a large record
holds millions of these (issue 13).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from muggins_cli.notation.quoting import quote, shorten
from muggins_cli.tiles import End as End
from muggins_cli.tiles import Tile


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(slots=True, unsafe_hash=True)
class Diagnostic:
    """One finding; ``code`` is one of the stable codes of docs/notation.md 8."""

    line: int
    column: int
    severity: Severity
    code: str
    message: str

    @classmethod
    def error(cls, line: int, column: int, code: str, message: str) -> Diagnostic:
        return cls(line, column, Severity.ERROR, code, message)


GLYPHS: tuple[str, ...] = ("!!", "!", "!?", "?!", "?", "??")


@dataclass(slots=True, unsafe_hash=True)
class Comment:
    """``# ...`` to the end of a line. It means nothing to the replay, but it
    is the keeper's words (a "disputed deal" note on a score sheet is data),
    so the writer keeps it (docs/notation.md 1). ``text`` is what follows the
    ``#``, without the blanks that ended the line."""

    text: str
    line: int = field(compare=False)
    column: int = field(compare=False)


@dataclass(slots=True, unsafe_hash=True)
class Comments:
    """The comments that go with one written line: ``before`` on lines of
    their own just above it, ``end`` at its end. The parser gives a comment
    to the tag or body line on its line, or on a line of its own to the
    next one; a line holding only annotations gives its comments to them."""

    before: tuple[Comment, ...] = ()
    end: Comment | None = None


NO_COMMENTS = Comments()


@dataclass(slots=True, unsafe_hash=True, init=False)
class TileTok:
    """A tile as written: ``a`` is the half written first (orientation matters
    for the opening tile, which is laid with ``a`` on the left)."""

    a: int
    b: int
    line: int = field(compare=False)
    column: int = field(compare=False)
    # The normalised tile, kept because the replay asks for it at every step.
    tile: Tile = field(init=False, compare=False, repr=False)

    def __init__(self, a: int, b: int, line: int, column: int) -> None:
        self.a = a
        self.b = b
        self.line = line
        self.column = column
        self.tile = Tile.of(a, b)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


@dataclass(slots=True, unsafe_hash=True)
class Draw:
    """``dT`` or ``d??`` (``tile`` is None when the face was not recorded)."""

    tile: TileTok | None
    line: int = field(compare=False)
    column: int = field(compare=False)


@dataclass(slots=True, unsafe_hash=True)
class Placement:
    tile: TileTok
    end: End | None
    glyph: str | None
    line: int = field(compare=False)
    column: int = field(compare=False)


@dataclass(slots=True, unsafe_hash=True)
class Pass:
    line: int = field(compare=False)
    column: int = field(compare=False)


@dataclass(slots=True, unsafe_hash=True)
class Claim:
    points: int
    line: int = field(compare=False)
    column: int = field(compare=False)


@dataclass(slots=True, unsafe_hash=True)
class Tag:
    name: str
    value: str
    line: int = field(compare=False)
    column: int = field(compare=False)
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class Annotation:
    text: str
    line: int = field(compare=False)
    column: int = field(compare=False)
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class RoundLine:
    number: int
    line: int = field(compare=False)
    column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class LeadLine:
    player: str
    line: int = field(compare=False)
    column: int = field(compare=False)
    player_column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class DealLine:
    player: str
    tiles: tuple[TileTok, ...]
    line: int = field(compare=False)
    column: int = field(compare=False)
    player_column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class StockLine:
    tiles: tuple[TileTok, ...]
    line: int = field(compare=False)
    column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class RevealLine:
    player: str
    tiles: tuple[TileTok, ...]
    line: int = field(compare=False)
    column: int = field(compare=False)
    player_column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class ScoreEntry:
    player: str
    points: int
    line: int = field(compare=False)
    column: int = field(compare=False)


@dataclass(slots=True, unsafe_hash=True)
class ScoreLine:
    entries: tuple[ScoreEntry, ...]
    line: int = field(compare=False)
    column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class Turn:
    """``NAME: draws... (placement [+N] | pass)``."""

    player: str
    draws: tuple[Draw, ...]
    action: Placement | Pass
    claim: Claim | None
    line: int = field(compare=False)
    column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


@dataclass(slots=True, unsafe_hash=True)
class MugginsCall:
    """``NAME: muggins +N``."""

    player: str
    points: int
    line: int = field(compare=False)
    column: int = field(compare=False)
    points_column: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    comments: Comments = NO_COMMENTS


BodyLine: TypeAlias = (
    RoundLine | LeadLine | DealLine | StockLine | RevealLine | ScoreLine | Turn | MugginsCall
)


@dataclass(slots=True, unsafe_hash=True)
class Match:
    """One match: its tags in file order, then its body lines in file order.

    ``notes`` are annotations that come after the tags and before any body
    line (they belong to the match). ``diagnostics`` are the notation problems
    found while reading this match; lines that could not be read are absent
    from ``body``. ``closing`` are the comments after its last line, at the
    end of the text (a comment before the next match's first tag is that
    tag's).
    """

    tags: tuple[Tag, ...]
    body: tuple[BodyLine, ...]
    line: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)
    closing: tuple[Comment, ...] = ()

    def tag(self, name: str) -> str | None:
        for t in self.tags:
            if t.name == name:
                return t.value
        return None

    def tag_line(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None

    @property
    def players(self) -> tuple[str, ...]:
        """The names of the ``Players`` tag, spelled as the body lines spell
        them (see :func:`split_players`); empty when the tag is missing."""
        value = self.tag("Players")
        return split_players(value) if value is not None else ()


KEYWORDS: frozenset[str] = frozenset({"round", "lead", "deal", "stock", "reveal", "score"})

_BLANKS_RE = re.compile(r"[ \t\r]+")


def normalise_name(text: str) -> str:
    """One spelling per player: trimmed, inner runs of spaces or tabs (or a
    stray carriage return) made one space, so ``Putu  Ayu`` in a tag and
    ``Putu Ayu:`` in a turn agree."""
    return _BLANKS_RE.sub(" ", text.strip(" \t\r"))


def split_players(value: str) -> tuple[str, ...]:
    """The names of a ``Players`` tag value, in seating order, normalised.

    No validation here: the parser reports bad names as ``bad-header``, and
    the replay and the parser must agree on the spelling, hence one function.
    """
    return tuple(normalise_name(part) for part in value.split(","))


_NAME_FORBIDDEN = frozenset(":,#{}[]\n")


def players_problems(names: Iterable[str]) -> list[str]:
    """What is wrong with the names of a Players tag (docs/notation.md 2), one
    entry each, for every place that takes names: the tag, ``--names``.
    A line break cannot come from a tag line; it can from elsewhere."""
    problems: list[str] = []
    seen: set[str] = set()
    for name in names:
        if not name:
            problems.append("Players holds an empty name")
            continue
        bad = sorted(_NAME_FORBIDDEN.intersection(name))
        if bad:
            if bad[0] == "\n":
                problems.append(f"player name {shorten(repr(name))} holds a line break")
            else:
                problems.append(f"player name {quote(name)} holds {quote(bad[0])}; "
                                "names may not hold : , # { } [ ]")
        elif name in KEYWORDS:
            problems.append(f"player name {quote(name)} is a keyword of MGN")
        elif name in seen:
            problems.append(f"player {quote(name)} is named twice in Players")
        seen.add(name)
    return problems
