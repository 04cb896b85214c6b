"""Properties of the notation layer over generated input (seeded by
hypothesis): any record the writer writes reads back the same; any text at
all reads without an exception, only diagnostics."""

from __future__ import annotations

import dataclasses
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins_cli.notation.model import (
    GLYPHS,
    KEYWORDS,
    NO_COMMENTS,
    Annotation,
    BodyLine,
    Claim,
    Comment,
    Comments,
    DealLine,
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
    StockLine,
    Tag,
    TileTok,
    Turn,
)
from muggins_cli.notation.parser import iter_matches, parse_text
from muggins_cli.notation.writer import with_canonical_tags, write_matches

from .conftest import CLEAN

NOTATION_CODES = {"syntax", "unknown-player", "bad-header"}
# 60 records: generating them, not reading them, is what each costs (50 ms).
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------
# Records built from the model, every field a value MGN can spell.

# Names without digits cannot look like a tile or a number, which is the one
# thing that would make "deal NAME T..." ambiguous.
_NAME_CHARS = string.ascii_letters + "éñÉ'\"\\._-()"
_word = st.text(_NAME_CHARS, min_size=1, max_size=6)
_free_name = st.lists(_word, min_size=1, max_size=3).map(" ".join)
_name = st.one_of(
    st.sampled_from(["Ana", "Ana Maria", "Putu Ayu", "lead singer", "d", "pass", "muggins"]),
    _free_name,
).filter(lambda name: name not in KEYWORDS)

_tile = st.builds(lambda a, b: TileTok(a, b, 0, 0), st.integers(0, 99), st.integers(0, 99))
_tiles = st.lists(_tile, max_size=8).map(tuple)
_note_text = st.text(st.characters(codec="utf-8", exclude_characters="}\r"), max_size=24)
# A comment runs to the end of its line, whose closing blanks are not kept.
_comment = st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=12).map(
    lambda text: Comment(text.rstrip(" \t"), 0, 0))
_comments = st.one_of(
    st.just(NO_COMMENTS),
    st.builds(Comments, st.lists(_comment, max_size=2).map(tuple), st.none() | _comment),
)
_notes = st.lists(st.builds(lambda text, comments: Annotation(text, 0, 0, comments),
                            _note_text, _comments), max_size=2).map(tuple)
_tag_value = st.text(st.characters(codec="utf-8", exclude_characters="\n"))
_tag = st.builds(
    lambda name, value, comments: Tag(name, value, 0, 0, comments),
    st.one_of(
        st.sampled_from(["Event", "Site", "Date", "Rules", "Target", "Result", "Event"]),
        st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True),
    ).filter(lambda name: name != "Players"),
    _tag_value.filter(lambda value: len(value) <= 30),
    _comments,
)


@st.composite
def _turn(draw: st.DrawFn, player: str) -> Turn:
    draws = draw(st.lists(st.one_of(st.none(), _tile), max_size=3))
    action: Placement | Pass
    claim: Claim | None = None
    if draw(st.booleans()):
        action = Pass(0, 0)
    else:
        end = draw(st.sampled_from([None, *End]))
        glyph = draw(st.sampled_from([None, *GLYPHS]))
        action = Placement(draw(_tile), end, glyph, 0, 0)
        points = draw(st.none() | st.integers(0, 10**6))
        claim = None if points is None else Claim(points, 0, 0)
    notes = draw(_notes)
    return Turn.of(player, tuple(Draw(t, 0, 0) for t in draws), action, claim, 0, 0, notes,
                   draw(_comments))


@st.composite
def _body_line(draw: st.DrawFn, players: list[str]) -> BodyLine:
    line = draw(_bare_body_line(players))
    if isinstance(line, Turn):
        return line
    return dataclasses.replace(line, comments=draw(_comments))


@st.composite
def _bare_body_line(draw: st.DrawFn, players: list[str]) -> BodyLine:
    player = draw(st.sampled_from(players))
    notes = draw(_notes)
    kind = draw(st.sampled_from(["round", "lead", "deal", "stock", "reveal", "score", "turn"]))
    if kind == "round":
        return RoundLine(draw(st.integers(0, 10**6)), 0, 0, notes)
    if kind == "lead":
        return LeadLine(player, 0, 0, 0, notes)
    if kind == "deal":
        return DealLine(player, draw(_tiles), 0, 0, 0, notes)
    if kind == "stock":
        return StockLine(draw(_tiles), 0, 0, notes)
    if kind == "reveal":
        return RevealLine(player, draw(_tiles), 0, 0, 0, notes)
    if kind == "score":
        entries = draw(
            st.lists(
                st.builds(
                    lambda p, n: ScoreEntry(p, n, 0, 0),
                    st.sampled_from(players),
                    st.integers(-(10**6), 10**6),
                ),
                min_size=1,
                max_size=4,
            )
        )
        return ScoreLine(tuple(entries), 0, 0, notes)
    if draw(st.integers(0, 5)) == 0:
        return MugginsCall(player, draw(st.integers(0, 10**6)), 0, 0, 0, notes)
    return draw(_turn(player))


@st.composite
def records(draw: st.DrawFn) -> Match:
    players = draw(st.lists(_name, min_size=1, max_size=4, unique=True))
    players_tag = Tag("Players", ", ".join(players), 0, 0, draw(_comments))
    # Each tag once: a tag given twice reads back as a bad-header finding.
    tags = [players_tag, *draw(st.lists(_tag, max_size=4, unique_by=lambda t: t.name))]
    tags = draw(st.permutations(tags))
    body = draw(st.lists(_body_line(players), min_size=1, max_size=10))
    closing = draw(st.lists(_comment, max_size=2).map(tuple))
    return Match(tuple(tags), tuple(body), 0, draw(_notes), closing=closing)


@SETTINGS
@given(st.lists(records(), min_size=1, max_size=3))
def test_written_records_read_back(matches: list[Match]) -> None:
    # Comments after a match's last line read back as the next match's
    # (they come before its first tag): only the last match may close with some.
    matches = [dataclasses.replace(m, closing=()) for m in matches[:-1]] + matches[-1:]
    text = write_matches(matches)
    again = parse_text(text)
    assert [d for m in again for d in m.diagnostics] == []
    assert again == [with_canonical_tags(m) for m in matches]
    assert write_matches(again) == text


# ---------------------------------------------------------------------------
# Any text: diagnostics only, pointing inside the text.


def _check_any(text: str) -> None:
    matches = parse_text(text)
    lines = text.split("\n")
    for match in matches:
        assert 1 <= match.line <= len(lines)
        for diag in match.diagnostics:
            assert diag.code in NOTATION_CODES
            assert 1 <= diag.line <= len(lines)
            assert 1 <= diag.column <= len(lines[diag.line - 1]) + 1
        for record in match.body:
            assert 1 <= record.line <= len(lines)
    # What was read can be written, and the writing read, whatever it was.
    written = write_matches(matches)
    again = parse_text(written)
    if not any(m.diagnostics for m in matches):
        # A text the parser accepted whole reads back the same once written.
        assert again == [with_canonical_tags(m) for m in matches]
        assert write_matches(again) == written


# Pieces of MGN, so that random text often comes close to a record.
_FRAGMENTS = [
    "[",
    "]",
    "{",
    "}",
    "#",
    '"',
    "\\",
    ":",
    ",",
    "+",
    "-",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\ufeff",
    "d",
    "d??",
    "L",
    "R",
    "U",
    "D",
    "!",
    "?",
    "0",
    "5",
    "12",
    "3-4",
    "6-6",
    "pass",
    "muggins",
    "round",
    "lead",
    "deal",
    "stock",
    "reveal",
    "score",
    "Ana",
    "Ana Maria",
    "Ana:",
    "Ana Maria:",
    "Budi:",
    '[Players "Ana, Ana Maria, Budi"]\n',
    '[Event "x"]\n',
    "round 1\n",
]
_mgnish = st.lists(st.sampled_from(_FRAGMENTS), max_size=60).map("".join)


@SETTINGS
@given(st.text())
def test_any_text_gives_diagnostics_not_exceptions(text: str) -> None:
    _check_any(text)


@SETTINGS
@given(_mgnish)
def test_mgn_like_text_gives_diagnostics_not_exceptions(text: str) -> None:
    _check_any(text)


@SETTINGS
@given(st.binary(max_size=300), st.sampled_from(["replace", "surrogateescape", "ignore"]))
def test_any_bytes_decoded_leniently_give_diagnostics(data: bytes, errors: str) -> None:
    _check_any(data.decode("utf-8", errors=errors))


@SETTINGS
@given(st.lists(st.text(max_size=40), max_size=20))
def test_any_lines_through_iter_matches(lines: list[str]) -> None:
    for match in iter_matches(lines):
        assert all(d.code in NOTATION_CODES for d in match.diagnostics)


# ---------------------------------------------------------------------------
# Valid records, mutated at random.


def _corpus_texts() -> list[str]:
    # The short ones keep each example fast; a slice of text is enough.
    texts = [f.read_bytes().decode("utf-8") for f in CLEAN]
    return [text[:3000] for text in sorted(texts, key=len)[:40]]


_EDIT_TEXT = st.sampled_from(_FRAGMENTS) | st.text(max_size=3)


@st.composite
def _mutated(draw: st.DrawFn, texts: list[str]) -> str:
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "swap-lines"]))
        if kind == "insert":
            text = text[:at] + draw(_EDIT_TEXT) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif kind == "replace":
            text = text[:at] + draw(_EDIT_TEXT) + text[at + 1 :]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


_TEXTS: list[str] = []


@st.composite
def _mutated_corpus(draw: st.DrawFn) -> str:
    if not _TEXTS:
        _TEXTS.extend(_corpus_texts())
    return draw(_mutated(_TEXTS))


@SETTINGS
@given(_mutated_corpus())
def test_mutated_records_give_diagnostics_not_exceptions(text: str) -> None:
    _check_any(text)
