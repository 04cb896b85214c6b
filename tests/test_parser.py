"""The MGN parser (docs/notation.md 1-5): what it reads, where it points, what it
refuses, and that it reads a stream lazily."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from muggins_cli.errors import InputError
from muggins_cli.notation.model import (
    Claim,
    Comment,
    Comments,
    DealLine,
    End,
    LeadLine,
    Match,
    MugginsCall,
    Pass,
    Placement,
    RevealLine,
    RoundLine,
    ScoreLine,
    StockLine,
    Turn,
)
from muggins_cli.notation.parser import iter_matches, parse_text
from muggins_cli.notation.reading import (
    UnreadableError,
    open_record,
    read_matches,
    read_record_text,
)
from muggins_cli.notation.writer import format_line

from .conftest import CLEAN, FAULTS


def only(text: str) -> Match:
    matches = parse_text(text)
    assert len(matches) == 1, matches
    return matches[0]


def codes(match: Match) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in match.diagnostics]


# ---------------------------------------------------------------------------
# Malformed lines: the exact code, line and column, and the line is dropped.

HEADER = '[Event "t"]\n[Players "Ana, Ana Maria, Budi"]\n\nround 1\n'
BAD_LINE = 5  # HEADER has four lines

MALFORMED: list[tuple[str, str, int]] = [
    ("deal Ana 1-1 x", "syntax", 14),
    ("deal Ana 1-1 2-2L", "syntax", 14),
    ("deal Ana Marie 3-3", "syntax", 10),
    ("deal 3-3 4-4", "syntax", 6),
    ("deal", "syntax", 5),
    ("deal Bob 1-1", "unknown-player", 6),
    ("deal Siti Rahma 1-1 2-2", "unknown-player", 6),
    ("lead Bob", "unknown-player", 6),
    ("lead", "syntax", 5),
    ("lead Ana x", "syntax", 10),
    ("reveal Bob 1-1", "unknown-player", 8),
    ("stock 1-1 1/2", "syntax", 11),
    ("round", "syntax", 6),
    ("round x", "syntax", 7),
    ("round 1 2", "syntax", 9),
    ("round -1", "syntax", 7),
    ("score Ana 5, Bob 3", "unknown-player", 14),
    ("score Ana 5 Budi 3", "syntax", 13),
    ("score Ana x", "syntax", 11),
    ("score Ana +5", "syntax", 11),
    ("score", "syntax", 6),
    ("score Ana 5,", "syntax", 13),
    ("score 5", "syntax", 7),
    ("Ana: d02 0-2", "syntax", 6),
    ("Ana: d4-4 d5-1 5/1", "syntax", 16),
    ("Ana: 0-5R +", "syntax", 11),
    ("Ana: passs", "syntax", 6),
    ("Ana: 6-4R x +10", "syntax", 11),
    ("Ana: 6-4R+10", "syntax", 6),
    ("Ana: pass +3", "syntax", 11),
    ("Ana: 3-4 d1-1", "syntax", 10),
    ("Ana: d1-1", "syntax", 10),
    ("Bob: 3-4X", "unknown-player", 1),  # more wrong than the name: dropped, one finding
    ("Ana 3-4 x", "syntax", 5),  # no colon, and no turn after the name either
    ("Ana: 3-4 3-5 +5 x", "syntax", 10),  # a draw without its d, and more: as read strictly
    ("Ana:", "syntax", 5),
    (": 3-4", "syntax", 1),
    ("Ana: muggins", "syntax", 13),
    ("Ana: muggins 3", "syntax", 14),
    ("Ana: muggins +3 x", "syntax", 17),
    ("Ana: 3-4X", "syntax", 6),
    ("Ana: 3-4 +5 +6", "syntax", 13),
    ("Ana: 3-4 -5", "syntax", 10),
    ("Ana: 3-4}", "syntax", 9),
    ("Ana: 123-4", "syntax", 6),
    ("Ana: \u0663-\u0664", "syntax", 6),  # Arabic-Indic digits are not pips
    ("\tAna:\t3-4 x", "syntax", 11),  # a tab is one column
    ("Ana: 3-4 {note} x", "syntax", 17),  # columns survive an annotation
    ("Ana: 3-4 +5 [x]", "syntax", 13),
]


@pytest.mark.parametrize(("line", "code", "column"), MALFORMED)
def test_malformed_line(line: str, code: str, column: int) -> None:
    match = only(HEADER + line + "\nBudi: 1-1\n")
    assert codes(match) == [(code, BAD_LINE, column)], match.diagnostics
    assert match.diagnostics[0].message
    # The bad line is dropped whole; the next line is still read.
    assert [b.line for b in match.body] == [4, 6]
    assert isinstance(match.body[-1], Turn)


#: Lines kept despite their finding, as the rest of them reads: (line, code,
#: column, what the body holds for it: the player, the written draws and
#: placement, the names a slipped name may be or None when it is a player's).
KEPT: list[tuple[str, str, int, tuple[str, str, tuple[str, ...] | None]]] = [
    ("Bob: 1-1", "unknown-player", 1, ("Bob", "1-1", ())),
    ("Budy: 3-3L", "unknown-player", 1, ("Budy", "3-3L", ("Budi",))),
    ("budi: d1-2 3-3L +5", "unknown-player", 1, ("budi", "d1-2 3-3L +5", ("Budi",))),
    ("  Siti Rahma: d3-3 3-3R", "unknown-player", 3, ("Siti Rahma", "d3-3 3-3R", ())),
    ("Ana 3-4", "syntax", 5, ("Ana", "3-4", None)),
    ("Ana Maria d1-1 pass", "syntax", 11, ("Ana Maria", "d1-1 pass", None)),
    ("Ana: d0-5 4-5 d3-6 3-6L", "syntax", 11, ("Ana", "d0-5 d4-5 d3-6 3-6L", None)),
    ("Ana: 0-5 3-6L +10", "syntax", 6, ("Ana", "d0-5 3-6L +10", None)),
    ("Ana: d1-1 2-2 pass", "syntax", 11, ("Ana", "d1-1 d2-2 pass", None)),
]


@pytest.mark.parametrize(("line", "code", "column", "kept"), KEPT)
def test_a_line_kept_despite_its_finding(line: str, code: str, column: int,
                                         kept: tuple[str, str, tuple[str, ...] | None]) -> None:
    """A turn whose name is not a player's, a name without its colon, a
    draw without its ``d``: reported, and kept in the body as the rest of
    the line reads (the replay decides whose turn a slipped name was)."""
    match = only(HEADER + line + "\nBudi: 1-1\n")
    assert codes(match) == [(code, BAD_LINE, column)], match.diagnostics
    assert [b.line for b in match.body] == [4, 5, 6]
    turn = match.body[1]
    assert isinstance(turn, Turn)
    player, steps, names = kept
    assert (turn.player, format_line(turn).split(": ", 1)[1]) == (player, steps)
    assert match.kept == (BAD_LINE,)
    if names is None:
        assert turn.slip is None and match.deferred == ()
    else:
        assert turn.slip is not None and turn.slip.names == names
        assert match.deferred == (turn.slip.finding,) == match.diagnostics


def test_a_draw_without_its_d_is_said_with_the_fix() -> None:
    match = only(HEADER + "Ana: d0-5 4-5 d3-6 3-6L\n")
    assert match.diagnostics[0].message == (
        "'4-5' among the draws is not MGN; a draw is written with its d: did you mean 'd4-5'?")


def test_malformed_table_is_large() -> None:
    assert len(MALFORMED) >= 25


def test_syntax_message_says_what_was_expected() -> None:
    match = only(HEADER + "deal Ana 1-1 x\n")
    assert match.diagnostics[0].message == "expected a tile like 3-5 after 'deal Ana', got 'x'"
    match = only(HEADER + "Ana: d02 0-2\n")
    assert "expected a tile like 3-5 or ?? after 'd', got 'd02'" in match.diagnostics[0].message
    match = only(HEADER + "Bob: 1-1\n")
    assert match.diagnostics[0].message == "'Bob' is not in Players (Ana, Ana Maria, Budi)"


BAD_TAGS: list[tuple[str, int]] = [
    ('[Event "a\\nb"]', 10),  # an escape other than \" and \\
    ('[Event "abc', 8),  # the value is never closed: points at its quote
    ('[Event abc"]', 8),
    ('[ "x"]', 3),
    ('[Event "x" y]', 12),
    ('[Event "x"] [Site "y"]', 13),
    ('[Event "x"] junk', 13),
    ('[Ev-ent "x"]', 4),
    ('[Event "x"', 11),
    ('[Event "x" # no closing bracket', 12),
]


@pytest.mark.parametrize(("line", "column"), BAD_TAGS)
def test_malformed_tag(line: str, column: int) -> None:
    match = only(line + '\n[Players "Ana, Budi"]\n\nround 1\nAna: 1-1\n')
    assert codes(match) == [("syntax", 1, column)], match.diagnostics
    assert [t.name for t in match.tags] == ["Players"]
    assert len(match.body) == 2


BAD_PLAYERS = [
    '[Players "Ana, Ana"]',
    '[Players "Ana, lead"]',
    '[Players "Ana, B:b"]',
    '[Players "Ana, "]',
    '[Players "Ana, Bu{d}i"]',
    '[Players "Ana, Bu[d]i"]',
    '[Players "Ana, Bu#di"]',
    '[Players ""]',
]


@pytest.mark.parametrize("players", BAD_PLAYERS)
def test_bad_players_is_bad_header_on_the_tag(players: str) -> None:
    match = only('[Event "x"]\n' + players + "\n\nround 1\nBob: 1-1\n")
    assert {(c, line, col) for c, line, col in codes(match)} == {("bad-header", 2, 1)}
    # Without valid Players, names are read as written: no unknown-player.
    turn = match.body[1]
    assert isinstance(turn, Turn) and turn.player == "Bob"


def test_players_trimmed_and_spaces_inside_a_name_made_one() -> None:
    match = only('[Players " Putu   Ayu ,Eko "]\nround 1\nPutu Ayu: 1-1\nEko: 1-2R\n')
    assert match.diagnostics == ()
    assert match.players == ("Putu Ayu", "Eko")
    assert [b.player for b in match.body if isinstance(b, Turn)] == ["Putu Ayu", "Eko"]


def test_missing_players_is_bad_header_at_the_first_line() -> None:
    match = only('\n# sheet\n[Event "x"]\n\nround 1\n')
    assert codes(match) == [("bad-header", 3, 1)]
    assert match.line == 3


def test_second_players_tag_is_bad_header() -> None:
    match = only('[Players "Ana, Budi"]\n[Players "Eko, Joko"]\nround 1\n')
    assert codes(match) == [("bad-header", 2, 1)]


def test_without_players_names_are_guessed() -> None:
    text = (
        '[Event "x"]\nround 1\nlead Putu Ayu\ndeal Putu Ayu 1-1 2-2\ndeal Eko 3-3\n'
        "Putu Ayu: 1-1\nreveal Putu Ayu 2-2\nscore Putu Ayu 5, Eko -3\n"
    )
    match = only(text)
    assert codes(match) == [("bad-header", 1, 1)]
    lead, deal1, deal2, turn, reveal, score = match.body[1:]
    assert isinstance(lead, LeadLine) and lead.player == "Putu Ayu"
    assert isinstance(deal1, DealLine) and deal1.player == "Putu Ayu"
    assert [str(t) for t in deal1.tiles] == ["1-1", "2-2"]
    assert isinstance(deal2, DealLine) and deal2.player == "Eko"
    assert isinstance(turn, Turn) and turn.player == "Putu Ayu"
    assert isinstance(reveal, RevealLine) and reveal.player == "Putu Ayu"
    assert isinstance(score, ScoreLine)
    assert [(e.player, e.points) for e in score.entries] == [("Putu Ayu", 5), ("Eko", -3)]


# ---------------------------------------------------------------------------
# What good lines become.


def test_every_kind_of_body_line() -> None:
    text = (
        '[Players "Ana, Ana Maria, Budi"]\n'
        "round 12\n"
        "lead Ana Maria\n"
        "deal Ana Maria 5-5 3-4\n"
        "deal Ana 12-11 0-0\n"
        "stock\n"
        "stock 0-4 2-6\n"
        "Ana Maria: 5-5 +10\n"
        "Ana: d0-4 d?? 4-0L?? +0\n"
        "Budi: d2-6 pass\n"
        "Budi: muggins +5\n"
        "reveal Ana 0-0\n"
        "reveal Budi\n"
        "score Ana 85, Ana Maria -40, Budi 0\n"
    )
    match = only(text)
    assert match.diagnostics == ()
    body = match.body
    assert body[0] == RoundLine(12, 0, 0)
    assert body[1] == LeadLine("Ana Maria", 0, 0, 0)
    assert isinstance(body[2], DealLine) and body[2].player == "Ana Maria"
    assert isinstance(body[3], DealLine)
    assert [(t.a, t.b) for t in body[3].tiles] == [(12, 11), (0, 0)]
    assert body[4] == StockLine((), 0, 0)
    assert isinstance(body[5], StockLine) and len(body[5].tiles) == 2
    first = body[6]
    assert isinstance(first, Turn) and first.player == "Ana Maria"
    assert first.claim is not None and first.claim.points == 10
    assert isinstance(first.action, Placement) and first.action.end is None
    second = body[7]
    assert isinstance(second, Turn)
    assert [None if d.tile is None else str(d.tile) for d in second.draws] == ["0-4", None]
    action = second.action
    assert isinstance(action, Placement)
    assert (action.tile.a, action.tile.b, action.end, action.glyph) == (4, 0, End.L, "??")
    assert second.claim == Claim(0, 0, 0)
    third = body[8]
    assert isinstance(third, Turn) and isinstance(third.action, Pass) and third.claim is None
    assert body[9] == MugginsCall("Budi", 5, 0, 0, 0)
    assert isinstance(body[10], RevealLine) and len(body[10].tiles) == 1
    assert isinstance(body[11], RevealLine) and body[11].tiles == ()
    score = body[12]
    assert isinstance(score, ScoreLine)
    assert [(e.player, e.points) for e in score.entries] == [
        ("Ana", 85),
        ("Ana Maria", -40),
        ("Budi", 0),
    ]


@pytest.mark.parametrize("glyph", ["!!", "!", "!?", "?!", "?", "??"])
def test_glyphs(glyph: str) -> None:
    match = only(f'[Players "Ana, Budi"]\nAna: 3-4R{glyph} +5\n')
    turn = match.body[0]
    assert isinstance(turn, Turn) and isinstance(turn.action, Placement)
    assert turn.action.glyph == glyph and turn.action.end is End.R


def test_columns_of_a_turn() -> None:
    # 1234567890123456789012345678
    line = "  Ana Maria:\td1-1 d??  3-4U! +15"
    match = only('[Players "Ana, Ana Maria"]\n' + line + "\n")
    turn = match.body[0]
    assert isinstance(turn, Turn)
    assert (turn.line, turn.column) == (2, 3)
    assert [(d.line, d.column) for d in turn.draws] == [(2, 14), (2, 19)]
    first = turn.draws[0].tile
    assert first is not None and first.column == 15
    assert isinstance(turn.action, Placement)
    assert turn.action.column == 24 and turn.action.tile.column == 24
    assert turn.claim is not None and turn.claim.column == 30


@pytest.mark.parametrize(("line", "turn_at", "draws_at", "placed_at", "claim_at"), [
    # The lines the parser reads without splitting them into words:
    # columns counted by hand, 1-based, a tab one column.
    ("Ana: 3-4R +5", 1, [], 6, 11),
    ("Ana: d3-5 d2-2 3-4R +5", 1, [6, 11], 16, 21),
    ("  Ana:\td3-5  d2-2 3-4R!\t+5", 3, [8, 14], 19, 25),
    ("Ana: d6-6 0-1L", 1, [6], 11, None),
])
def test_columns_of_a_turn_read_whole(line: str, turn_at: int, draws_at: list[int],
                                      placed_at: int, claim_at: int | None) -> None:
    match = only('[Players "Ana, Budi"]\n' + line + "\n")
    assert match.diagnostics == ()
    turn = match.body[0]
    assert isinstance(turn, Turn) and isinstance(turn.action, Placement)
    assert (turn.line, turn.column) == (2, turn_at)
    assert [d.column for d in turn.draws] == draws_at
    assert [d.tile.column if d.tile else None for d in turn.draws] == [c + 1 for c in draws_at]
    assert turn.action.column == placed_at and turn.action.tile.column == placed_at
    assert (turn.claim.column if turn.claim else None) == claim_at


def test_columns_of_keyword_lines() -> None:
    text = '[Players "Ana, Putu Ayu"]\n  deal  Putu Ayu\t1-1 2-2\nlead Putu Ayu\nscore Ana 5,  Putu Ayu -1\nAna: muggins  +7\n'
    deal, lead, score, call = only(text).body
    assert isinstance(deal, DealLine)
    assert (deal.column, deal.player_column) == (3, 9)
    assert [t.column for t in deal.tiles] == [18, 22]
    assert isinstance(lead, LeadLine) and lead.player_column == 6
    assert isinstance(score, ScoreLine)
    assert [e.column for e in score.entries] == [7, 15]
    assert isinstance(call, MugginsCall)
    assert (call.column, call.points_column) == (1, 15)


def test_longest_player_name_wins() -> None:
    text = '[Players "Ana, Ana Maria"]\ndeal Ana Maria 1-1\ndeal Ana 2-2\nreveal Ana Maria\n'
    deal1, deal2, reveal = only(text).body
    assert isinstance(deal1, DealLine) and deal1.player == "Ana Maria"
    assert isinstance(deal2, DealLine) and deal2.player == "Ana"
    assert isinstance(reveal, RevealLine) and reveal.player == "Ana Maria"
    assert reveal.tiles == ()


def test_a_name_may_begin_with_a_keyword() -> None:
    match = only(
        '[Players "lead singer, score keeper"]\nlead singer: 1-1\nlead lead singer\nscore score keeper 5\n'
    )
    assert match.diagnostics == ()
    turn, lead, score = match.body
    assert isinstance(turn, Turn) and turn.player == "lead singer"
    assert isinstance(lead, LeadLine) and lead.player == "lead singer"
    assert isinstance(score, ScoreLine) and score.entries[0].player == "score keeper"


def test_tags_escapes_unknown_tags_and_comments() -> None:
    text = (
        '[Event "Club \\"Balak\\" night \\\\ # {not} ]"]  # a comment\n'
        '[ Scorer\t"Bu Ani" ]\n'
        '[Players "Ana, Budi"]\n'
        '[X_1 ""]\n'
    )
    match = only(text)
    assert match.diagnostics == ()
    assert [(t.name, t.value) for t in match.tags] == [
        ("Event", 'Club "Balak" night \\ # {not} ]'),
        ("Scorer", "Bu Ani"),
        ("Players", "Ana, Budi"),
        ("X_1", ""),
    ]
    assert match.notes == ()


def test_comments_are_kept_with_their_lines_and_blank_lines_ignored() -> None:
    text = '# top\n\n[Players "Ana, Budi"]   \n\n   \n# {not an annotation\nround 1 # one\n\t\n'
    match = only(text)
    assert match.diagnostics == ()
    assert match.tags[0].comments == Comments((Comment(" top", 1, 1),))
    (round_line,) = match.body
    assert round_line == RoundLine(1, 0, 0, comments=Comments(
        (Comment(" {not an annotation", 0, 0),), Comment(" one", 0, 0)))
    assert [(c.line, c.column) for c in round_line.comments.before] == [(6, 1)]
    assert round_line.comments.end is not None
    assert (round_line.comments.end.line, round_line.comments.end.column) == (7, 9)
    assert match.notes == () and match.closing == ()


def test_annotations_attach_to_what_precedes_them() -> None:
    text = (
        '[Event "x"] {match note 1}\n'
        '[Players "Ana, Budi"]\n'
        "{match note 2}\n"
        "\n"
        "{match note 3}\n"
        "round 1 {on round}\n"
        "{after round\n"
        "  spans # [lines] {\n"
        "}\n"
        "Ana: 1-1 {mid} +5 {end}\n"
        "{# not a comment} Budi: 1-2R\n"
    )
    match = only(text)
    assert match.diagnostics == ()
    assert [n.text for n in match.notes] == ["match note 1", "match note 2", "match note 3"]
    round_line, ana, budi = match.body
    assert [n.text for n in round_line.notes] == ["on round", "after round\n  spans # [lines] {\n"]
    assert [(n.line, n.column) for n in round_line.notes] == [(6, 9), (7, 1)]
    assert isinstance(ana, Turn) and ana.claim is not None and ana.claim.points == 5
    assert [n.text for n in ana.notes] == ["mid", "end", "# not a comment"]
    assert isinstance(budi, Turn) and budi.notes == ()


def test_text_after_a_multi_line_annotation_is_a_new_line() -> None:
    match = only('[Players "Ana, Budi"]\nAna: 1-1 {a\nb} Budi: 1-2R\n')
    assert match.diagnostics == ()
    ana, budi = match.body
    assert [n.text for n in ana.notes] == ["a\nb"]
    assert isinstance(budi, Turn) and (budi.line, budi.column) == (3, 4)


def test_annotation_of_a_dropped_line_goes_to_the_line_before() -> None:
    match = only('[Players "Ana, Budi"]\nround 1\nAna: x {why}\n')
    assert codes(match) == [("syntax", 3, 6)]
    assert [n.text for n in match.body[0].notes] == ["why"]


def test_unterminated_annotation() -> None:
    match = only('[Players "Ana, Budi"]\nround 1\nAna: 1-1 {never closed\nBudi: 1-2\n')
    assert codes(match) == [("syntax", 3, 10)]
    assert len(match.body) == 2  # the turn before the brace stays
    assert match.body[1].notes == ()


def test_stray_closing_brace() -> None:
    match = only('[Players "Ana, Budi"]\nround 1 }\n')
    assert codes(match) == [("syntax", 2, 9)]
    assert match.body == ()


# ---------------------------------------------------------------------------
# Matches, line ends, streaming


def test_a_tag_after_a_body_starts_a_new_match() -> None:
    text = (
        '[Event "one"]\n[Players "Ana, Budi"]\n{note}\n[Site "s"]\nround 1\n'
        "# between\n\n"
        '[Event "two"]\n[Players "Eko, Joko"]\nround 1\nEko: 1-1\n'
    )
    first, second = parse_text(text)
    assert [t.name for t in first.tags] == ["Event", "Players", "Site"]
    assert (first.line, second.line) == (1, 8)
    assert second.tag("Event") == "two"
    assert second.players == ("Eko", "Joko")
    assert isinstance(second.body[1], Turn) and second.body[1].player == "Eko"
    assert first.diagnostics == second.diagnostics == ()


def test_empty_and_comment_only_text_has_no_match() -> None:
    assert parse_text("") == []
    assert parse_text("\n\n# nothing\n   \n") == []


def test_crlf_and_bom_read_like_lf() -> None:
    lf = '[Event "x"]\n[Players "Ana, Budi"]\n\nround 1\nAna: 1-1 +5 {a\nb}\n'
    crlf = "\ufeff" + lf.replace("\n", "\r\n")
    (plain,) = parse_text(lf)
    (windows,) = parse_text(crlf)
    assert windows == plain
    assert windows.diagnostics == ()
    assert windows.tags[0].column == 1
    assert [n.text for n in windows.body[1].notes] == ["a\nb"]


def test_iter_matches_accepts_lines_with_their_ends() -> None:
    lines = ['\ufeff[Players "Ana, Budi"]\r\n', "round 1\r\n", "Ana: 1-1\n", "Budi: 1-2R"]
    (match,) = iter_matches(lines)
    assert match.diagnostics == ()
    assert len(match.body) == 3


def test_streaming_yields_each_match_before_reading_on() -> None:
    consumed = 0

    def lines() -> Iterator[str]:
        nonlocal consumed
        for number in range(100_000):
            for line in (f'[Event "{number}"]', '[Players "Ana, Budi"]', "round 1", "Ana: 1-1"):
                consumed += 1
                yield line

    stream = iter_matches(lines())
    first = next(stream)
    assert first.tag("Event") == "0"
    assert consumed == 5  # the first match, then the tag line that ends it
    second = next(stream)
    assert second.tag("Event") == "1" and second.line == 5
    assert consumed == 9


# ---------------------------------------------------------------------------
# Files


def test_read_matches_and_text(tmp_path: Path) -> None:
    path = tmp_path / "a.mgn"
    path.write_bytes(b'\xef\xbb\xbf[Players "Jos\xc3\xa9, Budi"]\r\nround 1\r\n')
    (match,) = read_matches(path)
    assert match.players == ("José", "Budi")
    assert read_record_text(path) == '\ufeff[Players "José, Budi"]\r\nround 1\r\n'
    assert list(open_record(str(path))) == ['\ufeff[Players "José, Budi"]\r\n', "round 1\r\n"]


def test_missing_file_and_folder_are_unreadable_at_once(tmp_path: Path) -> None:
    with pytest.raises(UnreadableError) as missing:
        read_matches(tmp_path / "nope.mgn")
    assert "nope.mgn" in str(missing.value)
    assert isinstance(missing.value, InputError)
    with pytest.raises(UnreadableError):
        open_record(tmp_path)
    diagnostic = missing.value.diagnostic()
    assert (diagnostic.line, diagnostic.column, diagnostic.code) == (0, 0, "unreadable")


def test_binary_file_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "b.mgn"
    path.write_bytes(b'[Players "Ana, Budi"]\nround 1\x00\x01\n')
    with pytest.raises(UnreadableError, match="NUL byte on line 2"):
        list(read_matches(path))


def test_bad_utf8_mid_stream_is_unreadable_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "c.mgn"
    good = '[Players "Ana, Budi"]\nround 1\nAna: 1-1\n'
    path.write_bytes((good + good).encode() + b"Budi: \xff\xfe\n")
    stream = read_matches(path)
    assert next(stream).players == ("Ana", "Budi")  # the first match is out already
    with pytest.raises(UnreadableError, match=r"not UTF-8 text \(line 7, byte 7\)"):
        next(stream)
    with pytest.raises(UnreadableError):
        read_record_text(path)


def test_dash_reads_stdin_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    data = '[Players "José, Budi"]\r\nround 1\r\n'.encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    (match,) = read_matches("-")
    assert match.players == ("José", "Budi")
    assert len(match.body) == 1


# ---------------------------------------------------------------------------
# The conformance corpus: the parser agrees with the independent answers.


def _expected(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    return data


def test_clean_corpus_has_no_notation_problem() -> None:
    for path in CLEAN:
        matches = list(read_matches(path))
        expected = _expected(path)["matches"]
        assert isinstance(expected, list)
        assert [d for m in matches for d in m.diagnostics] == [], path.name
        assert [(m.line, list(m.players)) for m in matches] == [
            (e["line"], e["players"]) for e in expected
        ], path.name


NOTATION_CODES = {"syntax", "unknown-player", "bad-header"}


def test_fault_corpus_first_error_is_not_preceded_by_a_notation_error() -> None:
    hits = 0
    for path in FAULTS:
        first = _expected(path)["first_error"]
        assert isinstance(first, dict)
        diagnostics = [d for m in read_matches(path) for d in m.diagnostics]
        assert [d for d in diagnostics if d.line < first["line"]] == [], path.name
        if first["code"] in NOTATION_CODES:
            hits += 1
            assert any(d.line == first["line"] and d.code == first["code"] for d in diagnostics), (
                path.name,
                diagnostics,
            )
    assert hits >= 10
