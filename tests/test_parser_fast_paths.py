"""The parser's fast paths for turns read a line exactly as its word-by-word
reading does (issue 13): every record of the project and of the conformance
corpus, and turns made to sit on the edge of each fast path, are read both
ways and must give the same matches, to the column, and the same
diagnostics."""

from __future__ import annotations

from typing import Any

import pytest

from muggins_cli.notation import parser
from muggins_cli.notation.model import Match
from tests.conftest import CORPUS, RECORDS, files

TEXTS = files(RECORDS) + CORPUS


def _slow(text: str, monkeypatch: pytest.MonkeyPatch) -> list[Match]:
    with monkeypatch.context() as m:
        m.setattr(parser, "_quick_turn", lambda rest: None)
        m.setattr(parser, "_draws_turn", lambda *args: None)
        return parser.parse_text(text)


def _same(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = parser.parse_text(text)
    slow = _slow(text, monkeypatch)
    assert repr(fast) == repr(slow)
    assert [m.diagnostics for m in fast] == [m.diagnostics for m in slow]


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
])
def test_edge_turns_read_the_same_both_ways(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[Any] = []
    quick, draws = parser._quick_turn, parser._draws_turn

    def quick_spy(rest: str) -> Any:
        found = quick(rest)
        taken.append(found)
        return found

    def draws_spy(*args: Any) -> Any:
        found = draws(*args)
        taken.append(found)
        return found

    monkeypatch.setattr(parser, "_quick_turn", quick_spy)
    monkeypatch.setattr(parser, "_draws_turn", draws_spy)
    text = HEADER + line + "\n"
    fast = parser.parse_text(text)
    assert any(t is not None for t in taken), "the line must go a fast way"
    monkeypatch.undo()
    assert repr(fast) == repr(_slow(text, monkeypatch))
