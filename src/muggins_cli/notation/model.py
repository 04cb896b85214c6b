"""The parsed form of an MGN record (docs/notation.md), with no rules knowledge.

Every element keeps the line and column where it was written so that the
replay can point at the offending token. The body of a match is kept flat, in
file order, because a record may be wrong in its structure too (a turn before
any ``round``), and only the replay knows what that means.

The classes are values (compared and hashed by their fields, never changed
once built: make a new one with ``dataclasses.replace``), but not frozen
dataclasses: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` and costs three times as much, and a large record
holds millions of these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from muggins_cli.lexicon import COUNT_RE
from muggins_cli.lexicon import NUMBER_MAX as NUMBER_MAX
from muggins_cli.notation.quoting import quote, shorten
from muggins_cli.tiles import End as End
from muggins_cli.tiles import Tile


def whole_number(text: str) -> int | None:
    """``text`` as a number of a record (a tag's value, a part of ``R.T``):
    one to nine ASCII digits, so at most :data:`NUMBER_MAX`; None otherwise.
    Bounded here, where such text is read, because ``int()`` refuses a
    string of more than 4,300 digits and other scripts' digits are no MGN."""
    return int(text) if COUNT_RE.fullmatch(text) is not None else None



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


class Spelling:
    """What a turn line says after its colon, read once per distinct text
    and shared by every line that says it, so a long record stays light.

    A record spells the same few hundred turns again and again; a turn line
    is then its player, its line number, where its colon is and one of
    these, instead of four or five token objects built per line. The
    columns here are counted as if the colon were the line's first
    character: a turn adds its colon's 0-based offset (:attr:`Turn.at`).
    ``tile`` is None for a pass; ``drawn`` holds each draw's tile, None for
    ``d??``; ``draws`` each draw as ``(a, b, column)``, ``a`` = -1 for
    ``d??``. The replay reads the ints and tiles; the token objects
    (:attr:`Turn.draws`, :attr:`Turn.action`, :attr:`Turn.claim`) are built
    from them only when somebody asks (a diagnostic, the writer).
    """

    __slots__ = ("a", "b", "claim_column", "column", "drawn", "draws", "end", "glyph",
                 "index", "points", "tile")

    def __init__(self, draws: tuple[tuple[int, int, int], ...], a: int, b: int,
                 end: End | None, glyph: str | None, column: int, points: int | None,
                 claim_column: int) -> None:
        self.draws = draws
        self.drawn: tuple[Tile | None, ...] = tuple(
            None if da < 0 else Tile.of(da, db) for da, db, _ in draws)
        self.a = a
        self.b = b
        self.tile: Tile | None = None if a < 0 else Tile.of(a, b)
        self.index = -1 if self.tile is None else self.tile.index()  # its bit in a mask
        self.end = end
        self.glyph = glyph
        self.column = column
        self.points = points
        self.claim_column = claim_column

    @classmethod
    def of(cls, draws: tuple[Draw, ...], action: Placement | Pass, claim: Claim | None,
           at: int = 0) -> Spelling:
        """The spelling of a turn's tokens, their columns counted from ``at``."""
        spelt = tuple((-1, -1, d.column - at) if d.tile is None
                      else (d.tile.a, d.tile.b, d.column - at) for d in draws)
        if isinstance(action, Pass):
            a = b = -1
            end: End | None = None
            glyph: str | None = None
        else:
            a, b, end, glyph = action.tile.a, action.tile.b, action.end, action.glyph
        return cls(spelt, a, b, end, glyph, action.column - at,
                   None if claim is None else claim.points,
                   0 if claim is None else claim.column - at)


class Slip:
    """A turn line whose name is not in ``Players``, kept anyway: the
    parser's finding and the players the name may be (``names``, nearest
    first: the same name in other case, then names a letter or two away).

    Which player's turn it was is the replay's to say (the one whose turn it
    is, when the name is near theirs), so the parser leaves the line in the
    body with this attached, and the replay reports the finding in its own
    words (:attr:`Match.deferred`)."""

    __slots__ = ("finding", "names")

    def __init__(self, finding: Diagnostic, names: tuple[str, ...]) -> None:
        self.finding = finding
        self.names = names

    def __repr__(self) -> str:
        return f"Slip(finding={self.finding!r}, names={self.names!r})"


class Turn:
    """``NAME: draws... (placement [+N] | pass)``.

    A value like the other record classes (compared and hashed by player,
    tokens, notes and comments; never changed once built), but light: what
    follows the colon is a shared :class:`Spelling`, and the token objects
    with their lines and columns are made the first time they are asked
    for. Build one from tokens with :meth:`of`. ``slip`` is set on a turn
    whose name is not a player's (the name as written is then ``player``).
    """

    __slots__ = ("_tokens", "at", "column", "comments", "line", "notes", "player", "slip",
                 "spelling")

    def __init__(self, player: str, spelling: Spelling, at: int, line: int, column: int,
                 notes: tuple[Annotation, ...] = (), comments: Comments = NO_COMMENTS,
                 slip: Slip | None = None) -> None:
        self.player = player
        self.spelling = spelling
        self.at = at
        self.line = line
        self.column = column
        self.notes = notes
        self.comments = comments
        self.slip = slip
        self._tokens: tuple[tuple[Draw, ...], Placement | Pass, Claim | None] | None = None

    @classmethod
    def of(cls, player: str, draws: tuple[Draw, ...], action: Placement | Pass,
           claim: Claim | None, line: int, column: int, notes: tuple[Annotation, ...] = (),
           comments: Comments = NO_COMMENTS) -> Turn:
        """A turn of these tokens (kept as given)."""
        turn = cls(player, Spelling.of(draws, action, claim), 0, line, column, notes, comments)
        turn._tokens = (draws, action, claim)
        return turn

    def read_as(self, player: str) -> Turn:
        """The same line read as ``player``'s turn (a name the replay took
        to mean theirs)."""
        turn = Turn(player, self.spelling, self.at, self.line, self.column, self.notes,
                    self.comments)
        turn._tokens = self._tokens
        return turn

    def _made(self) -> tuple[tuple[Draw, ...], Placement | Pass, Claim | None]:
        tokens = self._tokens
        if tokens is None:
            sp, at, line = self.spelling, self.at, self.line
            draws = tuple(Draw(None, line, at + c) if a < 0
                          else Draw(TileTok(a, b, line, at + c + 1), line, at + c)
                          for a, b, c in sp.draws)
            action: Placement | Pass
            if sp.a < 0:
                action = Pass(line, at + sp.column)
            else:
                action = Placement(TileTok(sp.a, sp.b, line, at + sp.column), sp.end, sp.glyph,
                                   line, at + sp.column)
            claim = None if sp.points is None else Claim(sp.points, line, at + sp.claim_column)
            tokens = self._tokens = (draws, action, claim)
        return tokens

    @property
    def draws(self) -> tuple[Draw, ...]:
        return self._made()[0]

    @property
    def action(self) -> Placement | Pass:
        return self._made()[1]

    @property
    def claim(self) -> Claim | None:
        return self._made()[2]

    def with_notes(self, notes: tuple[Annotation, ...]) -> Turn:
        """The same turn with other annotations (the parser adds those that
        follow it)."""
        turn = Turn(self.player, self.spelling, self.at, self.line, self.column, notes,
                    self.comments, self.slip)
        turn._tokens = self._tokens
        return turn

    def changed(self, *, action: Placement | Pass | None = None,
                notes: tuple[Annotation, ...] | None = None, drop_claim: bool = False) -> Turn:
        """The same turn with another action or other annotations, or with
        no points claimed (the annotator's glyphs, the study page's plays)."""
        draws, own, claim = self._made()
        return Turn.of(self.player, draws, own if action is None else action,
                       None if drop_claim else claim, self.line, self.column,
                       self.notes if notes is None else notes, self.comments)

    def _key(self) -> tuple[object, ...]:
        return (self.player, *self._made(), self.notes, self.comments)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Turn:
            return NotImplemented
        assert isinstance(other, Turn)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        draws, action, claim = self._made()
        return (f"Turn(player={self.player!r}, draws={draws!r}, action={action!r}, "
                f"claim={claim!r}, line={self.line!r}, column={self.column!r}, "
                f"notes={self.notes!r}, comments={self.comments!r}"
                + (f", slip={self.slip!r})" if self.slip is not None else ")"))


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
    from ``body``, except the lines of ``kept``, which are in it as read
    (a keyword in the wrong case, a name without its colon, a draw without
    its ``d``, a turn whose name is not a player's). ``deferred`` are the
    findings of the last kind, which the replay reports in its own words
    once it has decided whose turn the line was. ``closing`` are the
    comments after its last line, at the end of the text (a comment before
    the next match's first tag is that tag's).
    """

    tags: tuple[Tag, ...]
    body: tuple[BodyLine, ...]
    line: int = field(compare=False)
    notes: tuple[Annotation, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)
    closing: tuple[Comment, ...] = ()
    kept: tuple[int, ...] = field(default=(), compare=False, repr=False)
    deferred: tuple[Diagnostic, ...] = field(default=(), compare=False, repr=False)

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


def near_names(written: str, names: Iterable[str]) -> tuple[str, ...]:
    """The names a misspelt ``written`` may be, nearest first: the same name
    in other case, then those one edit away (a letter dropped, added,
    changed, or two neighbours swapped), then two edits away for names of
    six letters or more. Text alone: whose turn it was is the replay's."""
    folded = written.casefold()
    found: list[tuple[int, int, str]] = []
    for order, name in enumerate(names):
        other = name.casefold()
        if other == folded:
            found.append((0, order, name))
            continue
        reach = 2 if min(len(other), len(folded)) >= 6 else 1
        d = _edits(folded, other, reach)
        if d <= reach:
            found.append((d, order, name))
    return tuple(name for _, _, name in sorted(found))


def _edits(a: str, b: str, most: int) -> int:
    """The edit distance of ``a`` and ``b`` (an adjacent swap counts one),
    or ``most + 1`` once it is sure to exceed ``most``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] \
                    and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > most:
            return most + 1
        before, row = row, current
    return row[-1]


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
