"""The parser reads what follows a turn's colon once per distinct text and
shares it (so a long record stays light): a line read from that table must be
the line its word-by-word reading makes. Every record of the project and of
the conformance corpus, and turns made to sit on the edges of the table,
are read both ways (the table warm, and a table that keeps nothing) and
must give the same matches, to the column, and the same diagnostics."""

from __future__ import annotations

import pytest

from muggins_cli.notation import parser
from muggins_cli.notation.model import Match, Spelling, Turn
from tests.conftest import CORPUS, RECORDS, files

TEXTS = files(RECORDS) + CORPUS


class _Forgetful(dict[str, Spelling]):
    """A table that keeps nothing: every turn is read word by word."""

    def __setitem__(self, key: str, value: Spelling) -> None:
        pass


def _slow(text: str, monkeypatch: pytest.MonkeyPatch) -> list[Match]:
    with monkeypatch.context() as m:
        m.setattr(parser, "_SPELLINGS", _Forgetful())
        return parser.parse_text(text)


def _same(text: str, monkeypatch: pytest.MonkeyPatch) -> list[Match]:
    parser.parse_text(text)  # the table now holds every spelling of the text
    fast = parser.parse_text(text)
    slow = _slow(text, monkeypatch)
    assert repr(fast) == repr(slow)
    assert fast == slow
    assert [m.diagnostics for m in fast] == [m.diagnostics for m in slow]
    return fast


def test_every_record_reads_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(TEXTS) > 100
    for path in TEXTS:
        _same(path.read_text(encoding="utf-8", errors="replace"), monkeypatch)


HEADER = '[Players "Ana, Ana Maria, Budi"]\n[Rules "pagat"]\n\nround 1\n'


@pytest.mark.parametrize("line", [
    "Ana: 3-4R",
    "Ana: 3-4R +5",
    "Ana Maria: 3-4L!? +10",
    "Budi:   6-6",
    "Budi: 6-6 \t+12 ",
    "Ana: 10-12U?? +005",
    "Ana: d1-2 3-4L!",
    "Ana Maria: d0-0  d1-1 0-1R?? +10",
    "Budi: d6-6\td5-5 5-6",
    "Ana: pass",
    "Budi: d?? d1-2  pass ",
    "Ana Maria: d?? 3-4R +5",
])
def test_edge_turns_read_the_same_both_ways(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same text after the colon on two lines, the second under another
    # name: the second is read from the table and shifted to its colon.
    rest = line.split(":", 1)[1]
    other = "Budi" if not line.startswith("Budi") else "Ana Maria"
    text = HEADER + line + "\n" + other + ":" + rest + "\n"
    fast = _same(text, monkeypatch)
    first, second = fast[0].body[1:3]
    assert isinstance(first, Turn) and isinstance(second, Turn)
    assert first.spelling is second.spelling, "the second line must come from the table"


@pytest.mark.parametrize("line", ["Ana: PASS", "Ana: 3-4r", "Ana: 3-4R 5", "Ana: d3"])
def test_a_turn_with_a_finding_is_read_anew_each_time(line: str) -> None:
    """Only a text read without a finding is kept: the next line saying it
    gets its finding too, at its own line."""
    text = HEADER + line + "\n" + line + "\n"
    (match,) = parser.parse_text(text)
    assert [d.line for d in match.diagnostics] == [5, 6]


def test_the_table_of_spellings_stays_small_on_hostile_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A stranger's file of long turns, each different (thousands of draws
    on one line is valid MGN), must not fill memory with their texts: the
    table keeps short texts only, and at most SPELLINGS_LIMIT of them."""
    monkeypatch.setattr(parser, "_SPELLINGS", {})
    draws = " ".join(["d1-2"] * 2000)
    lines = [f"Ana: {draws} {a}-{b}R" for a in range(10) for b in range(10)]
    short = [f"Budi: d{a}-{b} {b}-{a}L +{n}" for a in range(10) for b in range(10)
             for n in range(parser.SPELLINGS_LIMIT // 50)]
    (match,) = parser.parse_text(HEADER + "\n".join(lines + short) + "\n")
    assert len(match.body) == 1 + len(lines) + len(short)
    kept = parser._SPELLINGS
    assert len(kept) == parser.SPELLINGS_LIMIT
    assert max(len(text) for text in kept) <= parser.SPELLING_CHARS
