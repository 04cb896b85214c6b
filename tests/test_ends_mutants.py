"""The edges of replay/ends.py that mutation testing found unguarded: a
muggins call on the line after a placement without its end letter (which
end it tells, and when it tells nothing), the column of the finding when
nothing tells, a wrong end letter on a line read while an earlier slip is
weighed, and the words for a tile not held whose place the record does not
show.

Every expected finding and total is worked out by hand from docs/rules.md
and docs/notation.md 5 (a call takes at most what the placer left
unclaimed, never from one's own play) and 8 (one slip, one finding).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from muggins_cli.notation.model import Severity
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.rules.resolve import resolver_for
from tests.test_check import PAGAT, edit

Finding = tuple[int, int, str, str]


def replayed(text: str, path: Path | None = None) -> tuple[list[Finding], dict[str, int]]:
    """The findings that are not info, and the totals at the end."""
    (match,) = parse_text(text)
    result = replay_match(match, resolver_for(None if path is None else str(path)))
    found = [(d.line, d.column, d.code, d.message) for d in result.diagnostics
             if d.severity is not Severity.INFO]
    return found, dict(result.summary.scores)


#: Pagat with the muggins call. Ana leads 5-5 (+10: a lone double counts
#: its pips once, 10). Budi's 5-3R: L shows the 5-5 (a double at an end:
#: 10) and R 3, 13. Ana's 3-1R: 10 + 1 = 11. Budi's 1-5R: 10 + 5 = 15,
#: all claimed. Now L shows the double 5 and R a plain 5: Ana's 5-0 fits
#: both, on L 0 + 5 = 5, on R 10 + 0 = 10.
CALLED = ('[Players "Ana, Budi"]\n[Rules "m.yaml"]\n[Result "*"]\n\nround 1\nlead Ana\n'
          "Ana: 5-5 +10\nBudi: 5-3R\nAna: 3-1R\nBudi: 1-5R +15\n")


@pytest.mark.parametrize(("after", "found", "scores"), [
    # Ana claims 5 (allowed on either end). Budi's call of 5 needs 5 left
    # unclaimed: on L 5 - 5 = 0, on R 10 - 5 = 5. Only R.
    ("Ana: 5-0 +5\nBudi: muggins +5\n",
     [(11, 6, "ambiguous-end", "5-0 fits L and R; taken as R, which the muggins call on "
       "line 12 needs; write the end: 5-0R")],
     {"Ana": 15, "Budi": 20}),
    # Ana calls on her own play: no end allows that, so the call tells
    # nothing (a call of 10 would fit R alone were it Budi's), and the call
    # is wrong. Without a claim her 5-0 credits nothing.
    ("Ana: 5-0\nAna: muggins +10\n",
     [(11, 6, "ambiguous-end", "5-0 fits L and R; taken as L, as nothing later tells which; "
       "write the end, e.g. 5-0L"),
      (12, 1, "muggins-invalid", "Ana cannot call muggins on their own play")],
     {"Ana": 10, "Budi": 15}),
    # Budi's call of 5 fits both ends (5 and 10 left unclaimed): it tells
    # nothing, nothing after it either, and L is taken. It takes 5.
    ("Ana: 5-0\nBudi: muggins +5\n",
     [(11, 6, "ambiguous-end", "5-0 fits L and R; taken as L, as nothing later tells which; "
       "write the end, e.g. 5-0L")],
     {"Ana": 10, "Budi": 20}),
])
def test_what_a_muggins_call_after_a_missing_end_tells(
        tmp_path: Path, after: str, found: list[Finding], scores: dict[str, int]) -> None:
    (tmp_path / "m.yaml").write_text("base: pagat\nmuggins: true\n", encoding="utf-8")
    assert replayed(CALLED + after, tmp_path / "r.mgn") == (found, scores)


def test_a_wrong_end_after_a_slip_is_one_finding_more() -> None:
    """Two slips in PAGAT (tests/test_check.py): Ana's 3-4R written 3-5R
    (line 15; she holds 3-4, not 3-5) and Budi's 4-6R written 4-6L (line
    16; L shows 5). Read as 3-4R, R shows 4 and Budi's 4-6 fits there, and
    the rest of the round goes as written. Two slips, two findings, and the
    totals of the record as written clean (Ana 35, Budi 10)."""
    text = edit(edit(PAGAT, "Ana: 3-4R", "Ana: 3-5R"), "Budi: 4-6R", "Budi: 4-6L")
    found, scores = replayed(text)
    assert [(line, column, code) for line, column, code, _ in found] == [
        (15, 6, "not-in-hand"), (16, 7, "does-not-fit")]
    assert found[0][3].endswith("did you mean 3-4?")
    assert found[1][3] == ("4-6 does not fit L, which shows 5; open ends: L=5, R=4; "
                           "read as 4-6R")
    assert scores == {"Ana": 35, "Budi": 10}


#: Three players, pagat (hands of 5, a stock of 13): only Ana's deal line.
THREE = ('[Players "Ana, Budi, Chen"]\n[Rules "pagat"]\n[Result "*"]\n\nround 1\nlead Ana\n'
         "deal Ana 5-5 3-4 1-6 0-0 2-3\n")
#: The stock; Budi and Chen hold the rest, unseen: 1-2 2-6 3-3 3-5 3-6 4-4
#: 4-5 4-6 5-6 6-6.
STOCK = "stock 0-1 0-2 0-3 0-4 0-5 0-6 1-1 1-3 1-4 1-5 2-2 2-4 2-5\n"
#: Ana leads 5-5, Budi 5-6R, Chen 6-6R (R shows 6); Ana then lays 2-6,
#: which is not hers and lies in Budi's or Chen's hand.
PLAY = "Ana: 5-5 +10\nBudi: 5-6R\nChen: 6-6R\nAna: 2-6R\n"


@pytest.mark.parametrize(("text", "line"), [
    (THREE + STOCK + PLAY, 12),  # the stock is known and 2-6 is not in it
    (THREE + PLAY, 11),  # no stock line: where the undealt tiles are is not known
])
def test_a_tile_whose_place_the_record_hides_is_not_placed(text: str, line: int) -> None:
    """Ana's 2-6 is not on the table, not in her hand, not in a stock the
    record shows: it is in a hand the record hides, so the finding says
    she does not hold it and nothing of where it is."""
    found, _ = replayed(text)
    assert (7, 1, "bad-deal", "deal lines for only some players (none for Budi, Chen)") \
        in found
    (place,) = [f for f in found if f[2] == "not-in-hand"]
    assert place[:3] == (line, 6, "not-in-hand")
    assert place[3].split(";")[0] == "Ana places 2-6, which they do not hold"


def test_a_tile_in_the_hidden_hand_of_two_players() -> None:
    """Two players, only Ana's deal line, no stock line: Budi's hand and
    the stock are one pool the record does not split, so a tile of it that
    Ana lays is said to be not hers, and no more."""
    text = ('[Players "Ana, Budi"]\n[Rules "pagat"]\n[Result "*"]\n\nround 1\nlead Ana\n'
            "deal Ana 5-5 3-4 1-6 0-0 2-3 4-4 1-1\nAna: 5-5 +10\nBudi: 5-6R\nAna: 2-6R\n")
    found, _ = replayed(text)
    (place,) = [f for f in found if f[2] == "not-in-hand"]
    assert place[:3] == (10, 6, "not-in-hand")
    assert place[3].split(";")[0] == "Ana places 2-6, which they do not hold"
