"""Records built to cost: memory in proportion to the text, and messages
of a bounded length whatever the record holds."""

from __future__ import annotations

import tracemalloc

from muggins_cli.notation.parser import parse_text
from tests.records import CLUB_FIRST

EVENT = '[Event "Club night"]'


def _peak_bytes(text: str) -> int:
    tracemalloc.start()
    try:
        parse_text(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_tag_value_costs_memory_in_proportion_to_its_line() -> None:
    """A 2 MB Event value: the text, its line, the value and a few copies,
    not the 170 bytes per character the tag's regex stacked up. Its
    escapes (\\" and \\\\) are read the same."""
    value = "x" * 2_000_000
    text = CLUB_FIRST.replace(EVENT, f'[Event "{value}"]')
    peak = _peak_bytes(text)
    assert peak < 12 * len(value), peak
    escaped = '\\"' * 500_000 + "\\\\" * 500_000
    (match,) = parse_text(CLUB_FIRST.replace(EVENT, f'[Event "{escaped}"]'))
    assert match.tag("Event") == '"' * 500_000 + "\\" * 500_000
    assert _peak_bytes(CLUB_FIRST.replace(EVENT, f'[Event "{escaped}"]')) < 12 * len(escaped)


def test_a_long_unclosed_tag_value_is_one_finding_in_proportion() -> None:
    """An unclosed value and one with a bad escape: the messages that say
    so find the spot with the same linear reading."""
    value = "x" * 1_000_000
    for bad, column, message in [
        (f'[Event "{value}]', 8, "the value of tag Event is not closed by '\"'"),
        (f'[Event "{value}\\x"]', 8 + len(value) + 1,
         'only \\" and \\\\ may follow a backslash in a tag value'),
    ]:
        text = CLUB_FIRST.replace(EVENT, bad)
        assert _peak_bytes(text) < 12 * len(value)
        (match,) = parse_text(text)
        found = [(d.line, d.column, d.code, d.message) for d in match.diagnostics]
        assert found[0] == (1, column, "syntax", message)


def test_an_unknown_player_message_quotes_a_few_names_of_a_long_list() -> None:
    """20,000 players: the message names the first few and how many more,
    not all 20,000 (a 165 KB record gave 298 MB of findings)."""
    names = [f"P{i}" for i in range(20_000)]
    text = CLUB_FIRST.replace('[Players "Ana, Budi"]', f'[Players "{", ".join(names)}"]')
    text += "".join("Zed: pass\n" for _ in range(100))
    (match,) = parse_text(text)
    unknown = [d for d in match.diagnostics if d.code == "unknown-player"]
    assert len(unknown) >= 100
    assert all(len(d.message) < 200 for d in unknown)
    assert unknown[-1].message == (
        "'Zed' is not in Players (P0, P1, P2, P3, P4, P5, P6, P7 and 19,992 more)")


def test_an_unknown_player_message_names_every_player_of_a_short_list() -> None:
    (match,) = parse_text(CLUB_FIRST + "Zed: pass\n")
    (found,) = [d for d in match.diagnostics if d.code == "unknown-player"]
    assert found.message == "'Zed' is not in Players (Ana, Budi)"
