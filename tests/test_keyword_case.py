"""A keyword, ``pass``, ``muggins`` or an end letter in the wrong case: one
``syntax`` diagnostic that names the right spelling, and the line read as
meant, so that the rest of the record replays as if it had been right
(the totals are the hand-worked ones of test_check's SPINNER and PAGAT)."""

from __future__ import annotations

import pytest

from muggins_cli.notation.model import MugginsCall, Pass, Placement, RoundLine, Severity, Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.rules.resolve import resolver_for
from muggins_cli.tiles import End

from .test_check import PAGAT, SPINNER, edit


def check(text: str) -> tuple[list[tuple[int, int, str, str]], dict[str, int]]:
    (match,) = parse_text(text)
    result = replay_match(match, resolver_for(None))
    found = [(d.line, d.column, d.code, d.message) for d in result.diagnostics
             if d.severity is Severity.ERROR]
    return found, result.summary.scores


@pytest.mark.parametrize(("base", "old", "new", "line", "column", "wrote", "meant"), [
    ("S", "round 1\n", "Round 1\n", 5, 1, "Round", "round"),
    ("S", "round 1\n", "ROUND 1\n", 5, 1, "ROUND", "round"),
    ("S", "lead Ana\n", "Lead Ana\n", 6, 1, "Lead", "lead"),
    ("S", "deal Budi", "Deal Budi", 8, 1, "Deal", "deal"),
    ("S", "stock 0-0", "  Stock 0-0", 9, 3, "Stock", "stock"),
    ("S", "score Ana 15", "Score Ana 15", 15, 1, "Score", "score"),
    ("S", "Ana: muggins +5", "Ana: Muggins +5", 14, 6, "Muggins", "muggins"),
    ("P", "Budi: 0-3R\n", "Budi: 0-3r\n", 14, 7, "0-3r", "0-3R"),
], ids=["round", "ROUND", "lead", "deal", "stock", "score", "muggins", "end-letter"])
def test_one_diagnostic_and_the_line_read_as_meant(
        base: str, old: str, new: str, line: int, column: int, wrote: str, meant: str) -> None:
    text = SPINNER if base == "S" else PAGAT
    found, scores = check(edit(text, old, new))
    rule = "end letters are upper case" if base == "P" else "keywords are lower case"
    assert found == [(line, column, "syntax",
                      f"'{wrote}' is not MGN; {rule}: did you mean '{meant}'?")]
    assert scores == ({"Ana": 15, "Budi": 20} if base == "S" else {"Ana": 35, "Budi": 10})


def test_the_recovered_lines_are_what_they_spell() -> None:
    text = edit(SPINNER, "round 1\n", "Round 1\n")
    text = edit(text, "Ana: muggins +5", "Ana: Muggins +5")
    text = edit(text, "Budi: 0-2L +10", "Budi: 0-2l +10")
    (match,) = parse_text(text)
    assert [d.line for d in match.diagnostics] == [5, 13, 14]
    assert isinstance(match.body[0], RoundLine) and match.body[0].number == 1
    budi = match.body[-3]
    assert isinstance(budi, Turn) and isinstance(budi.action, Placement)
    assert budi.action.end is End.L and budi.claim is not None and budi.claim.points == 10
    call = match.body[-2]
    assert isinstance(call, MugginsCall) and (call.player, call.points) == ("Ana", 5)


def test_pass_in_the_wrong_case_is_a_pass() -> None:
    text = '[Players "Ana, Budi"]\nround 1\nAna: 1-1\nBudi: PASS\n'
    (match,) = parse_text(text)
    assert [(d.line, d.column, d.code) for d in match.diagnostics] == [(4, 7, "syntax")]
    assert "did you mean 'pass'?" in match.diagnostics[0].message
    budi = match.body[-1]
    assert isinstance(budi, Turn) and isinstance(budi.action, Pass)


def test_a_player_named_like_a_keyword_is_still_a_player() -> None:
    # 'Round' is not the keyword 'round', so it may name a player; a line
    # that starts with it is that player's turn missing its colon.
    (match,) = parse_text('[Players "Round, Ana"]\nround 1\nRound 5-5\n')
    assert [(d.line, d.code) for d in match.diagnostics] == [(3, "syntax")]
    assert match.diagnostics[0].message == "expected ':' after the player name 'Round'"


def test_other_words_are_not_guessed() -> None:
    (match,) = parse_text('[Players "Ana, Budi"]\nround 1\nRounds 1\nAna: 1-1x\n')
    assert [d.message for d in match.diagnostics] == [
        "expected a keyword (round, lead, deal, stock, reveal, score) or a turn 'NAME: ...', "
        "got 'Rounds'",
        "expected a placement like 3-5R, 'pass' or a draw like d3-5, got '1-1x'",
    ]
