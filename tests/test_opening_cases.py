"""A round's opening lines (round, lead, deal, stock) and who leads, as
`muggins check` reports them: the words, line and column of each finding.

Each case changes one line of a clean record (tests/test_check.py's PAGAT:
Ana is dealt 5-5 3-4 6-1 0-0 2-3 4-4 1-1, Budi 5-0 1-2 6-6 0-3 2-2 4-6
1-3, the stock is the other 14; tests/test_recovery.py's OUT + ROUND_2:
Budi goes out in round 1 and leads round 2) and the expected findings are
worked out by hand from docs/notation.md and docs/rules.md. Where a slip
makes the rest of the round unreadable, only its own findings (the first
ones) are asserted.
"""

from __future__ import annotations

import pytest

from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.rules.resolve import resolver_for
from tests.test_check import PAGAT, edit
from tests.test_recovery import OUT, ROUND_2

Finding = tuple[int, int, str, str]

STOCK = "stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2\n"


def errors(text: str) -> list[Finding]:
    (match,) = parse_text(text)
    return [(d.line, d.column, d.code, d.message)
            for d in replay_match(match, resolver_for(None)).diagnostics
            if d.severity.name == "ERROR"]


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("round 1\n", "round 3\n", [(6, 1, "bad-round", "expected round 1, got round 3")]),
    # The same round line twice in a row: read once.
    ("round 1\n", "round 1\nround 1\n",
     [(7, 1, "bad-round", "expected round 2, got round 1; the line repeats line 6 and is "
       "read once")]),
    # A round line inside the round (after Ana's 5-5 on line 11 was laid).
    ("Ana: 5-5 +10\n", "round 1\nAna: 5-5 +10\n",
     [(11, 1, "bad-round", "round 1 starts before round 1 ended"),
      (11, 1, "bad-round", "expected round 2, got round 1")]),
    ("Budi: 4-6R\n", "round 2\nBudi: 4-6R\n",
     [(16, 1, "bad-round", "round 2 starts before round 1 ended")]),
    ("deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1", "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4",
     [(8, 1, "bad-deal", "Ana is dealt 6 tiles; with 2 players a hand is 7"),
      (10, 1, "bad-deal", "the stock is not the undealt tiles: it lacks 1-1")]),
    ("deal Budi 5-0 1-2", "deal Budi 5-5 1-2",
     [(9, 11, "bad-deal", "5-5 is dealt twice"),
      (10, 1, "bad-deal", "the stock is not the undealt tiles: it lacks 0-5")]),
    ("deal Budi 5-0 1-2", "deal Budi 7-0 1-2",
     [(9, 11, "bad-deal", "7-0 is not in a double-6 set"),
      (10, 1, "bad-deal", "the stock is not the undealt tiles: it lacks 0-5")]),
    ("stock 0-4", "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1\nstock 0-4",
     [(10, 1, "bad-deal", "Ana already has a deal line in this round")]),
    ("stock 0-4 2-6", "stock 0-7 2-6", [(10, 7, "bad-deal", "0-7 is not in the set")]),
    ("stock 0-4 2-6", "stock 0-4 0-4", [(10, 11, "bad-deal", "0-4 is twice in the stock")]),
    ("stock 0-4 2-6 ", "stock ",
     [(10, 1, "bad-deal", "the stock is not the undealt tiles: it lacks 0-4 2-6")]),
    ("stock 0-4 2-6", "stock 0-4 5-5",
     [(10, 1, "bad-deal", "the stock is not the undealt tiles: it lacks 2-6 and holds dealt "
       "tiles 5-5")]),
    ("Ana: 5-5 +10\n", STOCK + "Ana: 5-5 +10\n",
     [(11, 1, "bad-deal", "a `stock` line must come once, before the round's first turn")]),
    ("Budi: 5-0R +10\n", "deal Budi 5-0\nBudi: 5-0R +10\n",
     [(12, 1, "bad-deal", "a `deal` line must come before the round's first turn")]),
    ("Budi: 5-0R +10\n", "lead Budi\nBudi: 5-0R +10\n",
     [(12, 1, "bad-round", "a `lead` line must come before the round's first turn")]),
    ("lead Ana\n", "", [(10, 1, "wrong-leader",
                         "round 1 needs a `lead` line (the leader is chosen by lot)")]),
    ("lead Ana\n", "lead Budi\n", [(11, 1, "wrong-leader", "Budi leads round 1, not Ana")]),
])
def test_an_opening_slip(old: str, new: str, expected: list[Finding]) -> None:
    assert errors(edit(PAGAT, old, new))[:len(expected)] == expected


def test_who_went_out_leads_the_next_round() -> None:
    """Budi went out on line 19, so he leads round 2 (line 21): a lead
    line naming Ana (its name at column 6), or Ana laying the first tile,
    is wrong; naming Budi is right. Ana's 5-5 still counts: 10 + 10 = 20."""
    assert errors(OUT + ROUND_2) == []
    assert errors(OUT + edit(ROUND_2, "round 2\n", "round 2\nlead Budi\n")) == []
    assert errors(OUT + edit(ROUND_2, "round 2\n", "round 2\nlead Ana\n")) == [
        (23, 6, "wrong-leader", "Budi went out last round and leads round 2, not Ana")]
    text = OUT + edit(ROUND_2, "Budi: 1-4\nscore Ana 10, Budi 30",
                      "Ana: 5-5 +10\nscore Ana 20, Budi 25")
    assert errors(text) == [
        (25, 1, "wrong-leader", "Budi went out last round and leads round 2, not Ana")]


def test_a_stock_line_without_deals_holds_the_undealt_count() -> None:
    """No deal lines: the stock line (line 8) is all that says where the
    tiles are, and it must hold the 28 - 2 x 7 = 14 not dealt."""
    text = "\n".join(line for line in PAGAT.splitlines() if not line.startswith("deal ")) + "\n"
    assert errors(text) == []
    assert errors(edit(text, "stock 0-4 2-6 ", "stock ")) == [
        (8, 1, "bad-deal", "the stock holds 12 tiles; 14 were left undealt")]
    assert errors(edit(text, "stock 0-4 2-6 ", "stock 0-9 2-6 ")) == [
        (8, 7, "bad-deal", "0-9 is not in the set")]
