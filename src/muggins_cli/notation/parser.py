"""Reading MGN text (docs/notation.md 1-5) into :class:`Match` records.

The parser knows the grammar and nothing of the rules: whether a tile fits, a
pip is in the set or a round number comes next is the replay's business. It
never raises on text. Every problem becomes a :class:`Diagnostic` on the
match, the line that holds it is left out of the body (never half kept), and
reading goes on with the next line, so one run reports every problem. The
exceptions are slips whose meaning the text alone gives, because dropping
the line would make every later line of the round an error too: a word in
the wrong case (``Round``, ``Muggins``, ``3-5r``), a player's name without
its colon (``Budi 3-4L``), a tile among the draws without its ``d``
(``d0-5 4-5 d3-6 3-6L``): reported with the right spelling, then read as
meant. A turn whose name is not in Players is kept too, with a
:class:`~muggins_cli.notation.model.Slip` (its finding and the names it is
near): whose turn it was is the replay's to say (:attr:`Match.deferred`).

Records are read one physical line at a time and each match is handed out as
soon as the next one begins, so a file of any size is read in bounded memory
(:func:`iter_matches`). Files and standard input are read apart, in
:mod:`muggins_cli.notation.reading`, the one place that decides whether
bytes are MGN text at all; the parser takes text.

Lines and annotations:

- ``#`` starts a comment to the end of the line, except inside a tag value or
  an annotation. Comments are kept for the writer (:class:`Comments`): one
  at the end of a line goes with the tag or body line on it, one on a line
  of its own with the next line's; a line holding only annotations gives its
  comments to them (the first takes those above, the last the one at its end).
- ``{...}`` is an annotation wherever it appears outside a tag value. It is
  attached to the last body line read before it closes (the line it sits on
  when text precedes it there), or to the match when the match has no body
  line yet. The text after a ``}`` that closes a multi-line annotation is
  read as a new line.
- Annotations and comments are replaced by blanks before a line is read, so
  every column reported is the column in the physical line (a tab is one).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple, TypeAlias

from muggins_cli import lexicon
from muggins_cli.notation.model import (
    NO_COMMENTS,
    Annotation,
    BodyLine,
    Claim,
    Comment,
    Comments,
    DealLine,
    Diagnostic,
    Draw,
    End,
    LeadLine,
    Match,
    MugginsCall,
    Pass,
    Placement,
    RevealLine,
    RoundLine,
    ScoreEntry,
    ScoreLine,
    Severity,
    Slip,
    Spelling,
    StockLine,
    Tag,
    TileTok,
    Turn,
    near_names,
    normalise_name,
    players_problems,
    split_players,
)
from muggins_cli.notation.quoting import listing, quote, shorten

__all__ = ["iter_matches", "parse_text"]

# A line without these characters holds no tag, annotation or comment: it is
# read without scanning it character by character.
_SPECIAL_RE = re.compile(r"[{}#\[]")
# Inside a tag line, where a quoted value hides '{', '#' and ']'. A value is
# read by looking for its next quote or backslash (_QUOTE_OR_ESCAPE_RE), not
# with one regex for the whole value: a repeated group such as
# (?:[^"\\]|\\.)* keeps a backtracking record per character, 170 bytes of
# memory each, 1.7 GB for a 10 MB Event.
_TAG_STOP_RE = re.compile(r'["\]{#]')
_QUOTE_OR_ESCAPE_RE = re.compile(r'["\\]')
_TAG_HEAD_RE = re.compile(r'\[[ \t\r]*([A-Za-z0-9_]+)[ \t\r]*"')
_TAG_TAIL_RE = re.compile(r'[ \t\r]*\]')
_TAG_NAME_RE = re.compile(r"[A-Za-z0-9_]+")
_UNESCAPE_RE = re.compile(r'\\(["\\])')
_BLANK_RE = re.compile(r"[ \t\r]*")
_WORD_RE = re.compile(r"[^ \t\r]*")
# Spaces and tabs separate words (docs/notation.md 1). A carriage return counts as
# one too: at the end of a line it is part of the line end and gone, so a name
# or word could not keep it there, and must not keep it anywhere else.
_BLANKS = " \t\r"

# The tokens' grammar is the lexicon's (muggins_cli/lexicon.py).
_TILE_RE = lexicon.TILE_RE
_PLACEMENT_RE = lexicon.PLACEMENT_RE
_CLAIM_RE = lexicon.CLAIM_RE
_COUNT_RE = lexicon.COUNT_RE
_POINTS_RE = lexicon.POINTS_RE

_ENDS: dict[str, End] = {"L": End.L, "R": End.R, "U": End.U, "D": End.D}

Token: TypeAlias = tuple[str, int]
"""A word of a line and its 1-based column."""


# ---------------------------------------------------------------------------
# Text


def parse_text(text: str) -> list[Match]:
    """Every match of a whole text (LF or CRLF line ends)."""
    return list(iter_matches(text.split("\n")))


def iter_matches(lines: Iterable[str]) -> Iterator[Match]:
    """Yield each match as soon as it is complete: when the next match's
    first tag line arrives, or at the end of the input.

    ``lines`` may keep their ``\\n`` or ``\\r\\n`` ends; a UTF-8 byte order
    mark at the start of the first line is skipped. Never raises on text.
    """
    parser = _Parser()
    for number, line in enumerate(lines, 1):
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        done = parser.feed(number, line.rstrip("\r\n"))
        if done is not None:
            yield done
    last = parser.finish()
    if last is not None:
        yield last


# ---------------------------------------------------------------------------
# The parser

_Handler: TypeAlias = Callable[["_Parser", int, str, list[Token], tuple[Annotation, ...]],
                               "BodyLine | None"]


def _tokens(text: str, offset: int) -> list[Token]:
    """The words of ``text`` with their columns, ``text`` starting at the
    0-based ``offset`` of its physical line. Only spaces, tabs and stray CRs
    separate words (docs/notation.md 1), hence no ``str.split()``, which would
    also split on other Unicode blanks a name may hold."""
    out: list[Token] = []
    column = offset + 1
    if "\t" in text:
        text = text.replace("\t", " ")
    if "\r" in text:
        text = text.replace("\r", " ")
    for word in text.split(" "):
        if word:
            out.append((word, column))
        column += len(word) + 1
    return out


def _end_column(content: str) -> int:
    """Where a missing token would have been: just past the last one."""
    return len(content.rstrip(_BLANKS)) + 1


def _tag_span_end(text: str, start: int) -> int:
    """Where the tag opened by the '[' at ``start`` ends: after its ']', or
    at a '{' or '#' outside its quoted value, or at the end of the line."""
    pos = start + 1
    size = len(text)
    while True:
        stop = _TAG_STOP_RE.search(text, pos)
        if stop is None:
            return size
        char = stop.group()
        if char == '"':
            pos = _quoted_end(text, stop.end())
            if pos >= size:
                return size
            pos += 1  # the closing quote
            continue
        if char == "]":
            return stop.end()
        return stop.start()


def _escapes_hidden(text: str, pos: int, size: int) -> str:
    """``text[pos:pos + size]`` with each escape ``\\"`` and ``\\\\`` written as
    ``__``: the same length, so a '"' or a backslash left in it is one that
    no escape hides. ``str.replace`` pairs the backslashes of a run from the
    left, as a reader does (the run cannot start before ``pos``, just after
    the opening quote); done in C, a value of millions of escapes is read
    in a blink, where a loop over them took seconds."""
    return text[pos:pos + size].replace("\\\\", "__").replace('\\"', "__")


def _quoted_end(text: str, pos: int) -> int:
    """The index of the '"' that closes the quoted text starting at ``pos``
    (a backslash hides the character after it), or the length of ``text``
    when none does. Read in windows that double, so that a line of many
    short values costs no more than one long one."""
    size = 64
    while True:
        at = _escapes_hidden(text, pos, size).find('"')
        if at >= 0:
            return pos + at
        if pos + size >= len(text):
            return len(text)
        size *= 2


def _value_end(text: str, pos: int) -> tuple[int, bool]:
    """Where the tag value starting at ``pos`` stops: at its closing '"',
    at a backslash that escapes neither '"' nor a backslash (True), or at
    the end of ``text``."""
    total = len(text)
    size = 64
    while True:
        window = _escapes_hidden(text, pos, size)
        found = _QUOTE_OR_ESCAPE_RE.search(window)
        if found is not None:
            at = found.start()
            if found.group() == '"':
                return pos + at, False
            # A backslash the window cuts from its next character may still
            # be half of an escape: look further.
            if at + 1 < len(window) or pos + size >= total:
                return pos + at, True
        elif pos + size >= total:
            return total, False
        size *= 2


def _unescaped(value: str) -> str:
    """A tag value read (its escapes all ``\\"`` or ``\\\\``) with them undone:
    by ``str.replace`` through a placeholder the value does not hold, in C;
    ``re.sub`` expands its template in Python, seconds for millions."""
    if "\\" not in value:
        return value
    if "\0" in value:
        return _UNESCAPE_RE.sub(lambda m: m.group(1), value)
    return value.replace("\\\\", "\0").replace('\\"', '"').replace("\0", "\\")


def _looks_like_tile(word: str) -> bool:
    return _TILE_RE.fullmatch(word) is not None


def _draw_left_bare(word: str, following: str) -> bool:
    """``word`` is a tile without end letter, glyph or ``d`` and what
    follows it is a draw, a placement or a pass: a draw whose ``d`` was
    left out (a placement is the last step of a turn but for its claim)."""
    return _TILE_RE.fullmatch(word) is not None and (
        following[0] == "d" or following == "pass"
        or _PLACEMENT_RE.fullmatch(following) is not None)


# Tables of what a spelling reads as, filled as spellings are met: a record
# spells the same few hundred tiles and placements again and again, and a
# dict look-up costs a tenth of a regex match and its int() calls.
# Bounded, so that hostile input cannot grow them without end.
_TABLE_LIMIT = 1 << 16
_TILE_WORDS: dict[str, tuple[int, int] | None] = {}
#: Every distinct text that follows a turn's colon, read once (a long
#: record stays light): a turn line is then a dict look-up and one small object.
#: Only texts read without a finding are kept, so a line that needs one
#: gets it every time; and only short ones, at most SPELLINGS_LIMIT, so
#: that a stranger's file of long distinct turns (thousands of draws on a
#: line is valid MGN) cannot fill memory with them. A record spells a few
#: hundred to a few thousand turns.
_SPELLINGS: dict[str, Spelling] = {}
SPELLINGS_LIMIT = 1 << 14
SPELLING_CHARS = 96


def _tile_word(word: str) -> tuple[int, int] | None:
    """``A-B`` as its two halves, or None when ``word`` is no tile."""
    try:
        return _TILE_WORDS[word]
    except KeyError:
        pass
    found = _TILE_RE.fullmatch(word)
    halves = None if found is None else (int(found.group(1)), int(found.group(2)))
    if len(_TILE_WORDS) < _TABLE_LIMIT:
        _TILE_WORDS[word] = halves
    return halves


class _Split(NamedTuple):
    """A line in its pieces, as :meth:`_Parser._scan` reads them."""

    #: The content, annotations and comment blanked (columns kept).
    parts: list[str]
    #: The annotations after the content.
    after: list[Annotation]
    has_content: bool
    #: Where a tag ends (-1: the line holds none).
    tag_end: int
    #: A stray '}' (its column and the message).
    error: tuple[int, str] | None
    comment: Comment | None


class _Parser:
    """The state of one pass over a text: the match being built and an
    annotation that is still open at the end of a line."""

    def __init__(self) -> None:
        self._done: Match | None = None
        # An annotation not closed on the line that opened it, and the
        # comments on the lines above it when it opened a line.
        self._open_at: tuple[int, int] | None = None
        self._open_chunks: list[str] = []
        self._open_comments: tuple[Comment, ...] = ()
        # Comments on lines of their own, waiting for the next line, and
        # those of the line being read.
        self._pending: list[Comment] = []
        self._comments = NO_COMMENTS
        # The match being read.
        self._active = False
        self._line = 0
        self._column = 1
        self._tags: list[Tag] = []
        self._body: list[BodyLine] = []
        self._notes: list[Annotation] = []
        self._diags: list[Diagnostic] = []
        self._deferred: list[Diagnostic] = []
        self._in_body = False
        # Player names of the match (None: unknown, names are guessed).
        self._players: dict[str, str] | None = None
        self._name_words: list[tuple[list[str], str]] = []

    # -- the main loop ----------------------------------------------------

    def feed(self, number: int, text: str) -> Match | None:
        """Read one physical line; return the match it completed, if any."""
        # 1. The commonest line of all, a turn by a player of Players spelled
        # as the tag spells them, inside a match's body with no comment
        # waiting, saying what an earlier turn said after its colon: what
        # _scan, _logical, _body_line and _turn would make of it, without
        # their questions, for speed. Such a line holds no tag, annotation
        # or comment: no name may hold { } # [, and a text is kept in
        # _SPELLINGS only when read without a finding, which a { } # [ left
        # in a turn's content would have given.
        players = self._players
        if players is not None and self._open_at is None and self._in_body and self._active \
                and not self._pending:
            colon = text.find(":")
            name = players.get(text[:colon]) if colon > 0 else None
            if name is not None:
                spelling = _SPELLINGS.get(text[colon + 1 :])
                if spelling is not None:
                    self._done = None
                    self._comments = NO_COMMENTS
                    self._body.append(Turn(name, spelling, colon, number, 1))
                    return None
        self._done = None
        # 2. Inside a multi-line annotation: everything up to '}' is its text.
        if self._open_at is not None:
            close = text.find("}")
            if close < 0:
                self._open_chunks.append(text)
                return None
            self._open_chunks.append(text[:close])
            line, column = self._open_at
            self._open_at = None
            closing = Annotation("\n".join(self._open_chunks), line, column,
                                 Comments(self._open_comments))
            self._open_chunks = []
            self._open_comments = ()
            # 2b. The rest of the line reads as a new one, the annotation first on it.
            self._scan(number, text, close + 1, closing)
            return self._done
        # 3. No tag, annotation or comment on the line: read it as it is.
        if _SPECIAL_RE.search(text) is None:
            self._logical(number, text, -1, (), None)
            return self._done
        # 4. Blank out annotations and the comment, then read what is left.
        self._scan(number, text, 0)
        return self._done

    def finish(self) -> Match | None:
        """End of input: close the last match."""
        self._done = None
        if self._open_at is not None:
            line, column = self._open_at
            self._open_at = None
            self._open_chunks = []
            self._open_comments = ()
            if not self._active:
                self._start_match(line, column)
            self._syntax(line, column, "annotation '{' is never closed by '}'")
        if self._active:
            self._end_match(tuple(self._pending))
        self._pending = []
        return self._done

    def _scan(self, number: int, text: str, start: int, closing: Annotation | None = None) -> None:
        """Split a line into its content (annotations and comment blanked,
        columns kept), the annotations before and after the content, its
        comment and a stray '}'; then read the content. ``closing`` is a
        multi-line annotation that closed at ``start``."""
        before: list[Annotation] = [] if closing is None else [closing]
        line = self._split(number, text, start, before)
        comment = line.comment
        if not line.has_content and (before or comment is not None):
            self._comments_of_a_bare_line(before, comment)
            comment = None
        for note in before:
            self._attach(note)
        self._logical(number, "".join(line.parts), line.tag_end, tuple(line.after), line.error,
                      comment)

    def _split(self, number: int, text: str, start: int, before: list[Annotation]) -> _Split:
        """The line from ``start`` in its pieces (see :meth:`_scan`); the
        annotations before the content are added to ``before``. An
        annotation left open at the line's end is kept open."""
        size = len(text)
        parts: list[str] = [" " * start]
        after: list[Annotation] = []
        has_content = False
        tag_end = -1
        error: tuple[int, str] | None = None
        comment: Comment | None = None
        pos = start
        while pos < size:
            found = _SPECIAL_RE.search(text, pos)
            stop = size if found is None else found.start()
            chunk = text[pos:stop]
            parts.append(chunk)
            if not has_content and chunk.strip(_BLANKS):
                has_content = True
            if found is None:
                break
            char = text[stop]
            if char == "#":
                comment = Comment(text[stop + 1 :].rstrip(_BLANKS), number, stop + 1)
                break
            if char == "{":
                close = text.find("}", stop + 1)
                if close < 0:
                    # 3a. An annotation that goes on below: kept open, with
                    # the comments above it when it is the line's first thing.
                    self._open_at = (number, stop + 1)
                    self._open_chunks = [text[stop + 1 :]]
                    if not has_content and not before and self._pending:
                        self._open_comments = tuple(self._pending)
                        self._pending = []
                    break
                note = Annotation(text[stop + 1 : close], number, stop + 1)
                (after if has_content else before).append(note)
                parts.append(" " * (close + 1 - stop))
                pos = close + 1
            elif char == "[" and not has_content:
                # 3b. A tag: its quoted value may hold '{', '#' and ']'.
                end = _tag_span_end(text, stop)
                parts.append(text[stop:end])
                has_content = True
                tag_end = end
                pos = end
            else:
                if char == "}" and error is None:
                    error = (stop + 1, "'}' without an opening '{'")
                parts.append(char)
                has_content = True
                pos = stop + 1
        return _Split(parts, after, has_content, tag_end, error, comment)

    def _comments_of_a_bare_line(self, before: list[Annotation],
                                 comment: Comment | None) -> None:
        """3c. A line without content: its comments go to its annotations,
        or wait for the next line when it holds nothing else."""
        if before and self._pending:
            first = before[0]
            before[0] = Annotation(first.text, first.line, first.column, Comments(
                (*self._pending, *first.comments.before), first.comments.end))
            self._pending = []
        if before and comment is not None:
            last = before[-1]
            before[-1] = Annotation(last.text, last.line, last.column,
                                    Comments(last.comments.before, comment))
        elif comment is not None:
            self._pending.append(comment)

    def _logical(
        self,
        number: int,
        content: str,
        tag_end: int,
        notes: tuple[Annotation, ...],
        error: tuple[int, str] | None,
        comment: Comment | None = None,
    ) -> None:
        """Read one line's content: a tag, a body line, or nothing. The
        comments waiting above it and ``comment``, at its end, go with it
        (and are lost with it when it cannot be read)."""
        stripped = content.lstrip(_BLANKS)
        if not stripped:
            for note in notes:
                self._attach(note)
            return
        column = len(content) - len(stripped) + 1
        # The line's comments, for the constructors of its tag or body line.
        self._comments = NO_COMMENTS
        if self._pending or comment is not None:
            self._comments = Comments(tuple(self._pending), comment)
            self._pending = []
        # 4. A tag line starts a new match after a body (or at the top).
        if stripped[0] == "[":
            if not self._active or self._in_body:
                if self._active:
                    self._end_match()
                self._start_match(number, column)
            if error is not None:
                self._syntax(number, error[0], error[1])
            else:
                end = tag_end if tag_end >= 0 else len(content)
                tag = self._tag(number, content, column - 1, end)
                if tag is not None:
                    self._tags.append(tag)
            for note in notes:
                self._attach(note)
            return
        # 5. A body line; the first one settles the players of the match.
        if not self._active:
            self._start_match(number, column)
        if not self._in_body:
            self._in_body = True
            self._settle_players()
        record: BodyLine | None = None
        if error is not None:
            self._syntax(number, error[0], error[1])
        else:
            record = self._body_line(number, content, stripped, column, notes)
        if record is not None:
            self._body.append(record)
        else:
            for note in notes:
                self._attach(note)

    # -- matches ----------------------------------------------------------

    def _start_match(self, number: int, column: int) -> None:
        self._active = True
        self._line = number
        self._column = column
        self._tags = []
        self._body = []
        self._notes = []
        self._diags = []
        self._deferred = []
        self._in_body = False
        self._players = None
        self._name_words = []

    def _end_match(self, closing: tuple[Comment, ...] = ()) -> None:
        if not self._in_body:
            self._settle_players()
        self._diags.sort(key=lambda d: (d.line, d.column))
        kept: tuple[int, ...] = ()
        if self._diags:
            # The lines read as meant despite a finding (asked only of a
            # match that has findings, so a clean one costs nothing).
            wrong = {d.line for d in self._diags if d.severity is Severity.ERROR}
            kept = tuple(b.line for b in self._body if b.line in wrong)
        self._done = Match(
            tags=tuple(self._tags),
            body=tuple(self._body),
            line=self._line,
            notes=tuple(self._notes),
            diagnostics=tuple(self._diags),
            closing=closing,
            kept=kept,
            deferred=tuple(self._deferred),
        )
        self._active = False

    def _attach(self, note: Annotation) -> None:
        """An annotation belongs to the last body line, else to the match."""
        if not self._active:
            self._start_match(note.line, note.column)
        if self._body:
            last = self._body[-1]
            notes = (*last.notes, note)
            self._body[-1] = (last.with_notes(notes) if isinstance(last, Turn)
                              else dataclasses.replace(last, notes=notes))
        else:
            self._notes.append(note)

    def _settle_players(self) -> None:
        """Check the header once it is complete: a tag given again is one
        finding each time (the first is the one read, :meth:`Match.tag`),
        and the Players tag; with no valid one, names are guessed from each
        line instead of checked."""
        seen: set[str] = set()
        for tag in self._tags:
            if tag.name in seen:
                self._diag(tag.line, tag.column, "bad-header", f"a second {tag.name} tag")
            seen.add(tag.name)
        players = next((tag for tag in self._tags if tag.name == "Players"), None)
        if players is None:
            self._diag(self._line, self._column, "bad-header", "the match has no Players tag")
            return
        problems = players_problems(split_players(players.value))
        for problem in problems:
            self._diag(players.line, players.column, "bad-header", problem)
        if problems:
            return
        names = split_players(players.value)
        self._players = {name: name for name in names}
        words = [(name.split(" "), name) for name in names]
        self._name_words = sorted(words, key=lambda item: -len(item[0]))

    def _diag(self, line: int, column: int, code: str, message: str) -> None:
        self._diags.append(Diagnostic.error(line, column, code, message))

    def _syntax(self, line: int, column: int, message: str) -> None:
        self._diags.append(Diagnostic.error(line, column, "syntax", message))

    def _wrong_case(self, line: int, column: int, wrote: str, meant: str, rule: str) -> None:
        """MGN is case-sensitive (docs/notation.md 4); the fix is obvious, so say it."""
        self._syntax(line, column,
                     f"{quote(wrote)} is not MGN; {rule}: did you mean {quote(meant)}?")

    # -- tags -------------------------------------------------------------

    def _tag(self, number: int, content: str, start: int, end: int) -> Tag | None:
        span = content[start:end]
        head = _TAG_HEAD_RE.match(span)
        close, bad_escape = _value_end(span, head.end()) if head is not None else (0, True)
        if head is None or bad_escape or close >= len(span) \
                or _TAG_TAIL_RE.fullmatch(span, close + 1) is None:
            column, message = _tag_problem(span)
            self._syntax(number, start + column, message)
            return None
        rest = content[end:]
        extra = rest.lstrip(_BLANKS)
        if extra:
            column = end + len(rest) - len(extra) + 1
            word = _tokens(extra, 0)[0][0]
            self._syntax(number, column,
                         f"unexpected {quote(word)} after the tag; one tag per line")
            return None
        value = _unescaped(span[head.end():close])
        return Tag(head.group(1), value, number, start + 1, self._comments)

    # -- body lines -------------------------------------------------------

    def _body_line(
        self,
        number: int,
        content: str,
        stripped: str,
        column: int,
        notes: tuple[Annotation, ...],
    ) -> BodyLine | None:
        colon = content.find(":")
        first = _WORD_RE.match(stripped).group()  # type: ignore[union-attr]
        handler = _HANDLERS.get(first)
        if colon >= 0 and (handler is None or self._is_player(content[:colon])):
            return self._turn(number, content, colon, notes)
        tokens = _tokens(content, 0)
        if handler is None:
            name = self._name_prefix(tokens, 0)
            meant = first.lower()
            if name is not None:
                after = tokens[len(name[0])] if len(name[0]) < len(tokens) else None
                where = after[1] if after else _end_column(content)
                self._syntax(number, where, f"expected ':' after the player name {quote(name[1])}")
                # 4b. Said once, then read as the turn it spells when the
                # rest of the line is one, as a reader would.
                word, at = tokens[len(name[0]) - 1]
                return self._without_colon(number, content, at - 1 + len(word), name[1],
                                           tokens[0][1], notes)
            elif meant in _HANDLERS:
                # 4a. A keyword in the wrong case: said once, then read as the
                # keyword it spells, so that the lines after it still make sense.
                self._wrong_case(number, column, first, meant, "keywords are lower case")
                return _HANDLERS[meant](self, number, content, [(meant, column), *tokens[1:]],
                                        notes)
            else:
                self._syntax(
                    number,
                    column,
                    "expected a keyword (round, lead, deal, stock, reveal, score) or a turn"
                    f" 'NAME: ...', got {quote(first)}",
                )
            return None
        return handler(self, number, content, tokens, notes)

    def _is_player(self, raw: str) -> bool:
        return self._players is not None and normalise_name(raw) in self._players

    def _name_prefix(self, tokens: list[Token], start: int) -> tuple[list[str], str] | None:
        """The longest player name whose words begin ``tokens[start:]``."""
        if not self._name_words:
            return None
        longest = len(self._name_words[0][0])  # sorted longest first
        words = [word for word, _ in tokens[start : start + longest]]
        for name_words, name in self._name_words:
            if words[: len(name_words)] == name_words:
                return name_words, name
        return None

    def _player_then(
        self, number: int, content: str, tokens: list[Token]
    ) -> tuple[str, int, int] | None:
        """The player named after a keyword: (name, its column, index of the
        next token); the longest name of Players wins, and without Players
        the name is every word up to the first tile."""
        keyword = tokens[0][0]
        if len(tokens) == 1:
            self._syntax(number, _end_column(content), f"expected a player name after '{keyword}'")
            return None
        column = tokens[1][1]
        if self._players is not None:
            prefix = self._name_prefix(tokens, 1)
            if prefix is not None:
                return prefix[1], column, 1 + len(prefix[0])
        index = 1
        while index < len(tokens) and not _looks_like_tile(tokens[index][0]):
            index += 1
        if index == 1:
            self._syntax(
                number, column,
                f"expected a player name after '{keyword}', got {quote(tokens[1][0])}"
            )
            return None
        name = " ".join(word for word, _ in tokens[1:index])
        if self._players is not None:
            self._unknown(number, column, name)
            return None
        return name, column, index

    def _unknown(self, number: int, column: int, name: str) -> None:
        known = listing(self._players or ())
        self._diag(number, column, "unknown-player", f"{quote(name)} is not in Players ({known})")

    def _tiles(
        self, number: int, tokens: list[Token], start: int, after: str
    ) -> tuple[TileTok, ...] | None:
        tiles: list[TileTok] = []
        known = _TILE_WORDS
        for word, column in tokens[start:]:
            halves = known[word] if word in known else _tile_word(word)
            if halves is None:
                self._syntax(
                    number, column,
                    f"expected a tile like 3-5 after {quote(after)}, got {quote(word)}"
                )
                return None
            tiles.append(TileTok(halves[0], halves[1], number, column))
        return tuple(tiles)

    def _round(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        if len(tokens) < 2:
            self._syntax(number, _end_column(content), "expected a round number after 'round'")
            return None
        word, column = tokens[1]
        if _COUNT_RE.fullmatch(word) is None:
            self._syntax(number, column,
                         f"expected a round number after 'round', got {quote(word)}")
            return None
        if len(tokens) > 2:
            extra, where = tokens[2]
            self._syntax(number, where, f"unexpected {quote(extra)} after {quote(f'round {word}')}")
            return None
        return RoundLine(int(word), number, tokens[0][1], notes, self._comments)

    def _lead(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        player = self._player_then(number, content, tokens)
        if player is None:
            return None
        name, column, index = player
        if index < len(tokens):
            extra, where = tokens[index]
            self._syntax(number, where, f"unexpected {quote(extra)} after {quote(f'lead {name}')}")
            return None
        return LeadLine(name, number, tokens[0][1], column, notes, self._comments)

    def _deal(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        return self._player_tiles(number, content, tokens, notes, "deal", DealLine)

    def _reveal(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        return self._player_tiles(number, content, tokens, notes, "reveal", RevealLine)

    def _player_tiles(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...],
        keyword: str, kind: type[DealLine] | type[RevealLine],
    ) -> BodyLine | None:
        """``deal NAME TILES`` and ``reveal NAME TILES``: the same shape."""
        player = self._player_then(number, content, tokens)
        if player is None:
            return None
        name, column, index = player
        tiles = self._tiles(number, tokens, index, f"{keyword} {name}")
        if tiles is None:
            return None
        return kind(name, tiles, number, tokens[0][1], column, notes, self._comments)

    def _stock(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        tiles = self._tiles(number, tokens, 1, "stock")
        if tiles is None:
            return None
        return StockLine(tiles, number, tokens[0][1], notes, self._comments)

    def _score(
        self, number: int, content: str, tokens: list[Token], notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        keyword_at = tokens[0][1] - 1
        offset = keyword_at + len("score")
        if len(tokens) == 1:
            self._syntax(
                number, _end_column(content), "expected 'NAME N, NAME N ...' after 'score'"
            )
            return None
        entries: list[ScoreEntry] = []
        previous = "score"
        for part in content[offset:].split(","):
            words = _tokens(part, offset)
            offset += len(part) + 1
            if not words:
                self._syntax(number, offset, f"expected 'NAME N' after {quote(previous)}")
                return None
            *name_words, (points, points_at) = words
            if not name_words:
                self._syntax(
                    number, points_at, f"expected a player name before {quote(points)} in 'score'"
                )
                return None
            name = " ".join(word for word, _ in name_words)
            name_at = name_words[0][1]
            if _POINTS_RE.fullmatch(points) is None:
                self._syntax(
                    number,
                    points_at,
                    f"expected a number after {quote(name)} in 'score', got {quote(points)}",
                )
                return None
            known = self._players is None or name in self._players
            if not known:
                for (word, _), (following, following_at) in itertools.pairwise(name_words):
                    if _POINTS_RE.fullmatch(word) is not None:
                        self._syntax(
                            number,
                            following_at,
                            f"expected ',' between score entries, got {quote(following)}",
                        )
                        return None
                self._unknown(number, name_at, name)
                return None
            entries.append(ScoreEntry(name, int(points), number, name_at))
            previous = f"{name} {points},"
        return ScoreLine(tuple(entries), number, tokens[0][1], notes, self._comments)

    def _turn(
        self, number: int, content: str, colon: int, notes: tuple[Annotation, ...]
    ) -> BodyLine | None:
        raw = content[:colon]
        players = self._players
        name: str | None = players.get(raw) if players is not None else None
        name_at = 1
        if name is None:
            text = raw.lstrip(_BLANKS)
            name_at = len(raw) - len(text) + 1
            text = normalise_name(text)
            if not text:
                self._syntax(number, colon + 1, "expected a player name before ':'")
                return None
            if players is None:
                name = text
            else:
                name = players.get(text)
                if name is None:
                    return self._unknown_turn(number, content, colon, text, name_at, notes)
        rest = content[colon + 1 :]
        spelling = _SPELLINGS.get(rest)
        if spelling is None:
            found = len(self._diags)
            read = self._read_turn(number, content, colon, name, name_at, notes)
            if not isinstance(read, Spelling):
                return read  # a muggins call, or nothing
            spelling = read
            if len(self._diags) == found and len(rest) <= SPELLING_CHARS \
                    and len(_SPELLINGS) < SPELLINGS_LIMIT:
                _SPELLINGS[rest] = spelling
        return Turn(name, spelling, colon, number, name_at, notes, self._comments)

    def _unknown_turn(self, number: int, content: str, colon: int, name: str, name_at: int,
                      notes: tuple[Annotation, ...]) -> BodyLine | None:
        """A turn whose name is not in Players: reported, and kept with its
        :class:`Slip` when the rest of the line reads as a turn, for the
        replay to say whose turn it was (a line with more wrong than its
        name is dropped with the one finding, as before)."""
        self._unknown(number, name_at, name)
        finding = self._diags[-1]
        read = self._quietly(number, content, colon, name, name_at, notes)
        if not isinstance(read, Spelling):
            return None
        self._deferred.append(finding)
        return Turn(name, read, colon, number, name_at, notes, self._comments,
                    Slip(finding, near_names(name, self._players or ())))

    def _without_colon(self, number: int, content: str, end: int, name: str, name_at: int,
                       notes: tuple[Annotation, ...]) -> BodyLine | None:
        """``NAME STEPS``: the turn (or muggins call) it spells, as if the
        colon stood at ``end``, the 0-based offset just after the name;
        None when the rest is no turn (the one finding said stands)."""
        read = self._quietly(number, content, end, name, name_at, notes)
        if isinstance(read, Spelling):
            return Turn(name, read, end, number, name_at, notes, self._comments)
        return read

    def _quietly(self, number: int, content: str, colon: int, name: str, name_at: int,
                 notes: tuple[Annotation, ...]) -> Spelling | BodyLine | None:
        """What follows the colon of a line already found wrong, or None
        without another finding when it does not read either."""
        found = len(self._diags)
        read = self._read_turn(number, content, colon, name, name_at, notes)
        if len(self._diags) > found:
            del self._diags[found:]
            return None
        return read

    def _read_turn(self, number: int, content: str, colon: int, name: str, name_at: int,
                   notes: tuple[Annotation, ...]) -> Spelling | BodyLine | None:
        """What follows a turn's colon. A line that does not read is read
        again taking a bare tile before more draws or the placement as a
        draw written without its ``d`` (``d0-5 4-5 d3-6 3-6L``): if that
        reads, its one finding per such tile replaces the line's."""
        found = len(self._diags)
        read = self._turn_words(number, content, colon, name, name_at, notes)
        if read is not None or len(self._diags) == found:
            return read
        strict = self._diags[found:]
        del self._diags[found:]
        bare: list[int] = []
        again = self._turn_words(number, content, colon, name, name_at, notes, bare)
        if bare and isinstance(again, Spelling) and len(self._diags) == found + len(bare):
            return again
        del self._diags[found:]
        self._diags.extend(strict)
        return None

    def _turn_words(self, number: int, content: str, colon: int, name: str, name_at: int,
                    notes: tuple[Annotation, ...], bare: list[int] | None = None
                    ) -> Spelling | BodyLine | None:
        """What follows a turn's colon, read word by word: the turn's
        spelling, a muggins call, or None (with its finding) when it cannot
        be read. With ``bare``, a tile without its ``d`` followed by a draw,
        a placement or ``pass`` is read as a draw, reported, and its column
        added to ``bare``."""
        words = _tokens(content[colon + 1 :], colon + 1)
        if not words:
            self._syntax(
                number,
                _end_column(content),
                f"expected draws, a placement or 'pass' after {quote(f'{name}:')}",
            )
            return None
        # A muggins call: NAME: muggins +N
        if words[0][0] == "muggins":
            return self._muggins(number, content, name, name_at, words, notes)
        if words[0][0].lower() == "muggins":
            self._wrong_case(number, words[0][1], words[0][0], "muggins",
                             "keywords are lower case")
            return self._muggins(number, content, name, name_at, words, notes)
        # Draws, then a placement or pass, then a claim after a placement.
        draws = self._draws(number, words, bare)
        if draws is None:
            return None
        if len(draws) == len(words):
            self._syntax(
                number,
                _end_column(content),
                "expected a placement like 3-5R or 'pass' after the draws",
            )
            return None
        acted = self._action(number, words, len(draws))
        if acted is None:
            return None
        return Spelling.of(tuple(draws), acted[0], acted[1], colon)

    def _draws(self, number: int, words: list[Token], bare: list[int] | None
               ) -> list[Draw] | None:
        """The draws that open a turn's words (one a word), or None (with
        its finding) when one cannot be read. With ``bare``, see
        :meth:`_turn_words`."""
        draws: list[Draw] = []
        count = len(words)
        index = 0
        while index < count and (words[index][0][0] == "d" or (
                bare is not None and index + 1 < count
                and _draw_left_bare(words[index][0], words[index + 1][0]))):
            word, column = words[index]
            if word[0] != "d":
                halves = _tile_word(word)
                assert halves is not None and bare is not None
                self._syntax(number, column, f"{quote(word)} among the draws is not MGN; a "
                             f"draw is written with its d: did you mean {quote('d' + word)}?")
                bare.append(column)
                draws.append(Draw(TileTok(halves[0], halves[1], number, column), number, column))
            elif word == "d??":
                draws.append(Draw(None, number, column))
            else:
                halves = _tile_word(word[1:])
                if halves is None:
                    self._syntax(
                        number, column,
                        f"expected a tile like 3-5 or ?? after 'd', got {quote(word)}"
                    )
                    return None
                tok = TileTok(halves[0], halves[1], number, column + 1)
                draws.append(Draw(tok, number, column))
            index += 1
        return draws

    def _action(self, number: int, words: list[Token], index: int
                ) -> tuple[Placement | Pass, Claim | None] | None:
        """The placement or ``pass`` at ``words[index]`` and the claim after
        a placement, or None (with its finding) when a word cannot be read
        or one is left over."""
        word, column = words[index]
        if word.lower() != "pass":
            return self._placement(number, words, index)
        if word != "pass":
            self._wrong_case(number, column, word, "pass", "keywords are lower case")
        if index + 1 < len(words):
            extra, where = words[index + 1]
            self._syntax(number, where, f"unexpected {quote(extra)} after 'pass'")
            return None
        return Pass(number, column), None

    def _placement(self, number: int, words: list[Token], index: int
                   ) -> tuple[Placement, Claim | None] | None:
        """The placement at ``words[index]`` and its claim (see :meth:`_action`)."""
        word, column = words[index]
        count = len(words)
        placed = _PLACEMENT_RE.fullmatch(word)
        if placed is None and word != word.upper():
            placed = _PLACEMENT_RE.fullmatch(word.upper())
            if placed is not None:
                self._wrong_case(number, column, word, word.upper(),
                                 "end letters are upper case")
        if placed is None:
            self._syntax(
                number,
                column,
                "expected a placement like 3-5R, 'pass' or a draw like d3-5, "
                f"got {quote(word)}",
            )
            return None
        a, b, end, glyph = placed.groups()
        action = Placement(
            TileTok(int(a), int(b), number, column),
            _ENDS[end] if end else None,
            glyph,
            number,
            column,
        )
        if index + 1 == count:
            return action, None
        extra, where = words[index + 1]
        points = _CLAIM_RE.fullmatch(extra)
        if points is None:
            if extra[0] == "d":
                message = (f"draws come before the placement, got {quote(extra)} "
                           f"after {quote(word)}")
            elif extra[0] == "+":
                message = f"expected the points claimed, like +10, got {quote(extra)}"
            else:
                message = (f"expected a claim like +10 after {quote(word)}, "
                           f"got {quote(extra)}")
            self._syntax(number, where, message)
            return None
        if index + 2 < count:
            extra, where = words[index + 2]
            self._syntax(number, where, f"unexpected {quote(extra)} after the claim")
            return None
        return action, Claim(int(points.group(1)), number, where)

    def _muggins(
        self,
        number: int,
        content: str,
        name: str,
        name_at: int,
        words: list[Token],
        notes: tuple[Annotation, ...],
    ) -> BodyLine | None:
        if len(words) < 2:
            self._syntax(
                number, _end_column(content), "expected the points taken, like +5, after 'muggins'"
            )
            return None
        word, column = words[1]
        points = _CLAIM_RE.fullmatch(word)
        if points is None:
            self._syntax(
                number, column,
                f"expected the points taken, like +5, after 'muggins', got {quote(word)}"
            )
            return None
        if len(words) > 2:
            extra, where = words[2]
            self._syntax(number, where,
                         f"unexpected {quote(extra)} after {quote(f'muggins {word}')}")
            return None
        return MugginsCall(name, int(points.group(1)), number, name_at, column, notes,
                           self._comments)


#: The reader of each keyword's line. A table of the class's functions, not
#: of one parser's bound methods: those would make every parser a cycle,
#: and its last match would wait for the cycle collector instead of going
#: when the file is read.
_HANDLERS: dict[str, _Handler] = {
    "round": _Parser._round,
    "lead": _Parser._lead,
    "deal": _Parser._deal,
    "stock": _Parser._stock,
    "reveal": _Parser._reveal,
    "score": _Parser._score,
}


def _tag_problem(span: str) -> tuple[int, str]:
    """Why a tag does not match ``[Name "value"]``: (0-based offset in the
    span + 1, message); only called once the fast whole-tag match failed."""
    pos = _BLANK_RE.match(span, 1).end()  # type: ignore[union-attr]
    name = _TAG_NAME_RE.match(span, pos)
    if name is None:
        got = _shown(span, pos)
        return pos + 1, f"expected a tag name (letters, digits, _) after '[', got {got}"
    pos = _BLANK_RE.match(span, name.end()).end()  # type: ignore[union-attr]
    if not span.startswith('"', pos):
        got = _shown(span, pos)
        return pos + 1, f"expected '\"' to open the value of tag {shorten(name.group())}, got {got}"
    opening = pos
    pos, _ = _value_end(span, pos + 1)
    if pos >= len(span):
        return opening + 1, f"the value of tag {shorten(name.group())} is not closed by '\"'"
    if span[pos] == "\\":
        return pos + 1, 'only \\" and \\\\ may follow a backslash in a tag value'
    pos = _BLANK_RE.match(span, pos + 1).end()  # type: ignore[union-attr]
    return pos + 1, (f"expected ']' after the value of tag {shorten(name.group())}, "
                     f"got {_shown(span, pos)}")


def _shown(text: str, pos: int) -> str:
    if pos >= len(text):
        return "end of line"
    word = _WORD_RE.match(text, pos).group()  # type: ignore[union-attr]
    return quote(word)
