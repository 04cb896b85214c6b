"""The canonical writer: one spelling per record, read back to the same record."""

from __future__ import annotations

import pytest

from muggins_cli.notation.model import Annotation, Match, RoundLine, Tag
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.writer import (
    canonical_tag_order,
    with_canonical_tags,
    write_match,
    write_matches,
)

from .conftest import CORPUS, RECORDS, files

MESSY = (
    "# a comment before anything\r\n"
    '[Result "Ana"]\r\n'
    '[Scorer "Bu Ani"]   # who kept the sheet\r\n'
    '[Players   "Ana, Budi"]\r\n'
    '[Event "Club \\"Balak\\" night \\\\ 2"]\r\n'
    '[Zeta "z"]\r\n'
    '[Date "2026-01-02"]\r\n'
    "{about the match}\r\n"
    "round   1\r\n"
    "lead\tAna\r\n"
    "deal Ana 4-0 1-1\r\n"
    "deal   Budi 0-0  5-6   # dealt by Ana\r\n"
    "stock\r\n"
    "Ana:  4-0L!?  +5 {odd\r\n"
    "  but fine}\r\n"
    "Budi: muggins +5   {sharp} {eyed}\r\n"
    "\r\n"
    "\r\n"
    "round 2\r\n"
    "  Budi: d?? d1-2 pass\r\n"
    "reveal Ana 1-1\r\n"
    "score Ana 5,Budi -5\r\n"
)

CANONICAL = (
    '[Event "Club \\"Balak\\" night \\\\ 2"]\n'
    '[Date "2026-01-02"]\n'
    '[Players "Ana, Budi"]\n'
    "# a comment before anything\n"
    '[Result "Ana"]\n'
    '[Scorer "Bu Ani"] # who kept the sheet\n'
    '[Zeta "z"]\n'
    "{about the match}\n"
    "\n"
    "round 1\n"
    "lead Ana\n"
    "deal Ana 4-0 1-1\n"
    "deal Budi 0-0 5-6 # dealt by Ana\n"
    "stock\n"
    "Ana: 4-0L!? +5\n"
    "{odd\n"
    "  but fine}\n"
    "Budi: muggins +5 {sharp} {eyed}\n"
    "\n"
    "round 2\n"
    "Budi: d?? d1-2 pass\n"
    "reveal Ana 1-1\n"
    "score Ana 5, Budi -5\n"
)


def test_canonical_form() -> None:
    matches = parse_text(MESSY)
    assert [d for m in matches for d in m.diagnostics] == []
    assert write_matches(matches) == CANONICAL


def test_canonical_form_is_a_fixed_point() -> None:
    matches = parse_text(CANONICAL)
    assert write_matches(matches) == CANONICAL
    assert matches == [with_canonical_tags(m) for m in parse_text(MESSY)]


def test_tag_order() -> None:
    names = ["Zeta", "Result", "Target", "Rules", "Players", "Alpha", "Date", "Site", "Event"]
    tags = [Tag(name, "v", 0, 0) for name in names]
    ordered = [t.name for t in canonical_tag_order(tags)]
    assert ordered == [
        "Event",
        "Site",
        "Date",
        "Players",
        "Rules",
        "Target",
        "Result",
        "Zeta",
        "Alpha",
    ]


def test_matches_are_separated_by_one_blank_line() -> None:
    text = (
        '[Players "Ana, Budi"]\nround 1\nAna: 1-1\n'
        '[Players "Eko, Joko"]\nround 1\n\n\n'
        "round 2 # again\n"
        "Eko: 6-6 {fine}\n"
    )
    assert write_matches(parse_text(text)) == (
        '[Players "Ana, Budi"]\n\nround 1\nAna: 1-1\n'
        "\n"
        '[Players "Eko, Joko"]\n\nround 1\n\nround 2 # again\nEko: 6-6 {fine}\n'
    )
    assert write_matches([]) == ""


def test_orientation_and_pips_as_written() -> None:
    text = '[Players "Ana, Budi"]\nround 01\nAna: 6-1\nBudi: 1-1R\nAna: 4-0L\nBudi: 12-11 +023\n'
    assert write_matches(parse_text(text)).splitlines()[2:] == [
        "round 1",
        "Ana: 6-1",
        "Budi: 1-1R",
        "Ana: 4-0L",
        "Budi: 12-11 +23",
    ]


def test_notes_after_a_multi_line_note_stay_on_their_own_lines() -> None:
    text = '[Players "Ana, Budi"]\nround 1 {a} {b\nc} {d}\n{e}\nAna: 1-1\n'
    written = write_matches(parse_text(text))
    assert written == '[Players "Ana, Budi"]\n\nround 1 {a}\n{b\nc}\n{d}\n{e}\nAna: 1-1\n'
    assert [n.text for n in parse_text(written)[0].body[0].notes] == ["a", "b\nc", "d", "e"]


def test_a_match_without_tags_or_body() -> None:
    assert write_match(Match((), (RoundLine(1, 0, 0),), 0)) == "round 1\n"
    assert write_match(Match((Tag("Event", "x", 0, 0),), (), 0)) == '[Event "x"]\n'


def test_what_mgn_cannot_spell_is_refused() -> None:
    bad_note = Match((), (RoundLine(1, 0, 0, (Annotation("a } b", 0, 0),)),), 0)
    with pytest.raises(ValueError, match="annotation"):
        write_match(bad_note)
    with pytest.raises(ValueError, match="line break"):
        write_match(Match((Tag("Event", "a\nb", 0, 0),), (), 0))


def test_corpus_round_trip_and_idempotence() -> None:
    """parse → write → parse gives the record back (tags in canonical order),
    and writing again changes nothing; for every file, faults included (the
    lines a fault file loses are lost before the first write), and the
    records shipped in records/. Comments are part of the record, so this
    is also the round trip of every comment (tests/test_comments.py checks
    that none is lost on the way)."""
    crlf = 0
    for path in [*files(RECORDS), *CORPUS]:
        text = path.read_bytes().decode("utf-8")
        crlf += "\r\n" in text
        matches = parse_text(text)
        written = write_matches(matches)
        again = parse_text(written)
        assert again == [with_canonical_tags(m) for m in matches], path.name
        assert write_matches(again) == written, path.name
        assert "\r" not in written and written.endswith("\n") and "\n\n\n" not in written
    assert crlf > 0
