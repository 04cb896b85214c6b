"""One slip, one finding: the replay reads a slipped line as the rest of the
record has it, and reports nothing that follows from the slip alone.

Each case changes one line of a clean record and lists every error and
warning the record then gives, worked out by hand: the slip's finding, in
the words that say how it was read, and nothing else. PAGAT's layout, line
by line, is in the comments of tests/test_check.py's record; the numbers
used here are repeated where a case needs them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_check import PAGAT, edit
from .test_replay_rules import _all

Found = tuple[int, int, str, str]  # line, column, code, message


def shown(text: str, path: Path | None = None) -> list[Found]:
    """Every error and warning of ``text`` (notes aside), in order."""
    return [(line, column, code, message)
            for line, column, severity, code, message in _all(text, path) if severity != "INFO"]


def notes(text: str) -> list[tuple[int, str, str]]:
    return [(line, code, message)
            for line, _, severity, code, message in _all(text) if severity == "INFO"]


def test_the_record_the_cases_slip_is_clean() -> None:
    assert shown(PAGAT) == []


# PAGAT at line 14, Budi's turn: the ends show L=5 (the 5-5 lead) and R=0
# (Ana's 0-0R); Budi holds 1-2 6-6 0-3 2-2 4-6 1-3, and only 0-3 fits (R).
# Ana's 3-4R on line 15 needs R to show 3.
CASES: list[tuple[str, str, str, list[Found]]] = [
    ("name-typo", "Budi: 0-3R\n", "Bud: 0-3R\n",
     [(14, 1, "unknown-player", "'Bud' is not in Players (Ana, Budi); did you mean 'Budi'?")]),
    ("name-case", "Budi: 0-3R\n", "budi: 0-3R\n",
     [(14, 1, "unknown-player", "'budi' is not in Players (Ana, Budi); did you mean 'Budi'?")]),
    ("no-colon", "Budi: 0-3R\n", "Budi 0-3R\n",
     [(14, 6, "syntax", "expected ':' after the player name 'Budi'")]),
    # Line 21: after 0-4 (which fits neither 5 nor 2) Ana drew 2-6, the
    # stock's next tile, and placed it on R (2).
    ("no-d-placed", "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 2-6R",
     [(21, 11, "not-in-hand", "Ana places 2-6, which they do not hold (it is in the stock); "
       "2-6 is the next tile the draws show: write d2-6 before it")]),
    ("no-d-both", "Ana: d0-4 d2-6 2-6R", "Ana: 2-6R",
     [(21, 6, "not-in-hand", "Ana places 2-6, which they do not hold (it is in the stock); "
       "2-6 comes out of the stock after 0-4: write d0-4 d2-6 before it")]),
    ("no-d-list", "Ana: d0-4 d2-6 2-6R", "Ana: 0-4 d2-6 2-6R",
     [(21, 6, "syntax", "'0-4' among the draws is not MGN; a draw is written with its d: "
       "did you mean 'd0-4'?")]),
    # 0-3 written 0-5: 0-5 is on the table already; 0-3 is his, a digit away.
    ("digits", "Budi: 0-3R\n", "Budi: 0-5R\n",
     [(14, 7, "not-in-hand", "Budi places 0-5, which they do not hold (it is already on the "
       "table); did you mean 0-3?")]),
    # Budi's line 14 left out: Ana's 3-4R is line 14 now, after her own
    # turn; Budi's one tile that fits, 0-3, on R, lets it fit.
    ("drop-turn", "Budi: 0-3R\n", "",
     [(14, 1, "out-of-turn", "it is Budi's turn, not Ana's; a turn of Budi's seems missing "
       "before this line (read as Budi: 0-3R)")]),
    # A pass for the turn: the stock has 14 tiles, so it cannot be; his
    # one tile that fits, 0-3 on R, makes the rest of the round right.
    ("pass-for-turn", "Budi: 0-3R\n", "Budi: pass\n",
     [(14, 7, "illegal-pass", "Budi passed while the stock has 14 tiles to draw; read as "
       "Budi: 0-3R, which the rest of the round needs")]),
    ("double-turn", "Budi: 0-3R\n", "Budi: 0-3R\nBudi: 0-3R\n",
     [(15, 1, "out-of-turn", "it is Ana's turn, not Budi's; the line repeats line 14 and is "
       "read once")]),
    # Ana's last turn (line 23, 3-5L for 15) left out: the score line says
    # 35 for Ana, who has 20 (5-5 10, 0-0R 10); drawing the stock's next
    # tile, 3-5, is her turn (her 4-4 1-1 0-4 fit neither 5 nor 6).
    ("drop-last-turn", "Ana: d3-5 3-5L +15\n", "",
     [(23, 7, "total-mismatch", "Ana has 20, not 35; a turn of Ana's seems missing before "
       "this line (read as Ana: d3-5 3-5L)")]),
    # Budi's deal line left out: his hand is what neither Ana's deal nor the
    # stock holds. The round is then checked to its end: the claim of 5 on
    # line 11 (5-0R scores 10) is found.
    ("drop-deal", "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\nstock",
     "stock", [(8, 1, "bad-deal", "deal lines for only some players (none for Budi)")]),
]


@pytest.mark.parametrize(("old", "new", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_one_slip_gives_one_finding(old: str, new: str, expected: list[Found]) -> None:
    assert shown(edit(PAGAT, old, new)) == expected


def test_a_missing_deal_line_leaves_the_round_checked() -> None:
    """Budi's deal line left out and his 5-0R claimed as 5 (it scores 10):
    both found, the second because his hand is worked out from the rest."""
    text = edit(PAGAT, "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n", "")
    text = edit(text, "Budi: 5-0R +10", "Budi: 5-0R +5")
    assert shown(text) == [
        (8, 1, "bad-deal", "deal lines for only some players (none for Budi)"),
        (11, 12, "score-mismatch", "Budi claims 5; 5-0 scores 10 (the open ends add up to 10)")]


def test_two_slips_far_apart_are_both_found() -> None:
    """A name misspelt on line 14 and a claim of 10 for Budi's 2-2R on line
    20 (5 + 5 + 2 + 2 = 14 scores nothing): the first is read as Budi's turn,
    so the round goes on and the second is found; nothing else."""
    text = edit(edit(PAGAT, "Budi: 0-3R\n", "Bdi: 0-3R\n"), "Budi: 2-2R\n", "Budi: 2-2R +10\n")
    assert shown(text) == [
        (14, 1, "unknown-player", "'Bdi' is not in Players (Ana, Budi); did you mean 'Budi'?"),
        (20, 12, "score-mismatch", "Budi claims 10; 2-2 scores 0 (the open ends add up to 14)")]


# -- a round's end, and the next round -------------------------------------

#: Budi leads 1-4 and goes out on line 19 (0-6L); Ana is left with 1-3,
#: four pips, which pagat (deduct-own, to the nearest 5) takes from her as
#: 5. Scores: Budi 1-4 (5) + 4-4R (10) + 0-6L (10) = 25; Ana 1-6L (10) +
#: 3-5L (5) - 5 = 10.
OUT = """\
[Players "Ana, Budi"]
[Result "*"]
round 1
lead Budi
deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6
deal Budi 6-6 4-4 0-6 1-4 0-4 2-5 5-6
Budi: 1-4
Ana: 1-6L
Budi: 6-6L
Ana: 2-6L
Budi: 4-4R
Ana: 2-3L
Budi: 0-4R
Ana: 3-5L
Budi: 5-6L
Ana: 0-2R
Budi: 2-5R
Ana: 5-5R
Budi: 0-6L
reveal Ana 1-3
score Ana 10, Budi 25
"""
#: A second round, led by Budi, who went out (no lead line needed): the same
#: deal, and his 1-4 for 5 more.
ROUND_2 = """\
round 2
deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6
deal Budi 6-6 4-4 0-6 1-4 0-4 2-5 5-6
Budi: 1-4
score Ana 10, Budi 30
"""


def test_the_round_records_are_clean() -> None:
    assert shown(OUT) == []
    assert shown(OUT + ROUND_2) == []


def test_the_last_turn_left_out_before_the_reveal() -> None:
    """Budi's 0-6L (line 19) left out: the reveal comes before the round
    ended; his one tile, 0-6, fits L (6) and ends it, and then the reveal
    and the totals hold."""
    assert shown(edit(OUT, "Budi: 0-6L\n", "")) == [
        (19, 1, "reveal-mismatch", "reveal before round 1 ended; the turn that ended round 1 "
         "seems missing (read as Budi: 0-6L)")]


def test_a_round_line_left_out() -> None:
    """``round 2`` left out: its first deal line comes after round 1 ended,
    and is read as round 2's start; Budi, who went out, leads it, and its
    totals hold."""
    assert shown(OUT + edit(ROUND_2, "round 2\n", "")) == [
        (22, 1, "bad-deal", "a `deal` line must come before the round's first turn; round 1 "
         "has ended and no `round 2` line starts the next one: read as its start")]


def test_a_round_line_written_twice() -> None:
    assert shown(OUT + edit(ROUND_2, "round 2\n", "round 2\nround 2\n")) == [
        (23, 1, "bad-round", "expected round 3, got round 2; the line repeats line 22 and is "
         "read once")]


# -- the end a placement without its letter took ------------------------------


def test_a_muggins_call_tells_the_end(tmp_path: Path) -> None:
    """Pagat with a muggins call. 3-2 led (L=3, R=2), Budi's 5-3L (L=5):
    Ana's 2-5 fits L (the ends then show 2 and 2: nothing) and R (5 and 5:
    10). She claims nothing; Budi's call of 10 can only take from R."""
    (tmp_path / "m.yaml").write_text("base: pagat\nmuggins: true\n", encoding="utf-8")
    text = ('[Players "Ana, Budi"]\n[Rules "m.yaml"]\n[Result "*"]\n\nround 1\nlead Ana\n'
            "Ana: 3-2 +5\nBudi: 5-3L\nAna: 2-5\nBudi: muggins +10\n")
    assert shown(text, tmp_path / "r.mgn") == [
        (9, 6, "ambiguous-end", "2-5 fits L and R; taken as R, which the muggins call on line "
         "10 needs; write the end: 2-5R")]


def test_the_same_lines_claim_tells_the_end() -> None:
    """The claim +0 of a pagat placement: 2-5 on L of 3-2 (after 5-3L)
    scores nothing, on R 10; +0 fits L alone, and no score-mismatch
    follows."""
    text = ('[Players "Ana, Budi"]\n[Result "*"]\n\nround 1\nlead Ana\n'
            "Ana: 3-2 +5\nBudi: 5-3L\nAna: 2-5 +0\n")
    assert shown(text) == [
        (8, 6, "ambiguous-end", "2-5 fits L and R; taken as L, which the claim +0 needs; "
         "write the end: 2-5L")]


# -- what follows a turn set aside ----------------------------------------------


def test_a_turn_no_reading_fits_is_set_aside() -> None:
    """Ana's line 21 written 6-6R: Budi holds 6-6, it is in no draw, none of
    her tiles (4-4, 1-1) is a digit from it, and none fits (the ends show 5
    and 2). The turn is set aside: what the rest of the round then shows
    (Budi's 6-6R does not fit the 2 her 2-6 would have covered, her 3-5 is
    not the stock's next tile and scores nothing) is said as info naming
    line 21, and the score line's totals are taken as written."""
    text = edit(PAGAT, "Ana: d0-4 d2-6 2-6R", "Ana: 6-6R")
    assert shown(text) == [
        (21, 6, "not-in-hand", "Ana places 6-6, which they do not hold (Budi holds it); the "
         "turn is set aside, as no reading of it fits the hands and the table")]
    found = notes(text)
    assert found and all(line > 21 and message.endswith(
        "(this may follow from the turn set aside on line 21)") for line, _, message in found)


def test_what_follows_a_turn_set_aside_is_not_held_against_the_record() -> None:
    """The set-aside record above, then a round 2 that Budi leads without a
    `lead` line, after the score line of round 1 (taken as written). Round
    1's end was never followed, so neither its not having ended nor who
    leads round 2 is a finding; round 2's totals follow from round 1's
    score line: Budi's 5-0 lead scores 5, 15 in all."""
    text = edit(PAGAT, "Ana: d0-4 d2-6 2-6R", "Ana: 6-6R") + (
        "round 2\n"
        "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1\n"
        "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n"
        "Budi: 5-0\n"
        "score Ana 35, Budi 15\n")
    assert shown(text) == [
        (21, 6, "not-in-hand", "Ana places 6-6, which they do not hold (Budi holds it); the "
         "turn is set aside, as no reading of it fits the hands and the table")]


def test_muggins_replay_shows_the_line_as_read(tmp_path: Path) -> None:
    """The position before PAGAT's line 14 written ``Bud: 0-3R`` is 1.4, and
    the turn played from it is Budi's, as the replay read it."""
    from typer.testing import CliRunner

    from muggins_cli.cli import app

    path = tmp_path / "r.mgn"
    path.write_text(edit(PAGAT, "Budi: 0-3R\n", "Bud: 0-3R\n"), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--at", "1.4"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "  played      Budi: 0-3R"


@pytest.mark.parametrize(("second", "said"), [
    # The keeper's 15 carried on to round 2's line (5 more than the replay's
    # 10 there too): said once, then the record's totals are taken.
    ("score Ana 15, Budi 30", "Ana has 10, not 15; the score lines after it carry these "
                             "totals on, so they are taken"),
    # A total written wrong once: the next line goes on from the replay's.
    ("score Ana 10, Budi 30", "Ana has 10, not 15"),
])
def test_totals_the_record_carries_on_are_said_once(second: str, said: str) -> None:
    text = edit(OUT + ROUND_2, "score Ana 10, Budi 25", "score Ana 15, Budi 25")
    text = edit(text, "score Ana 10, Budi 30", second)
    assert shown(text) == [(21, 7, "total-mismatch", said)]


def test_a_misspelt_name_still_gives_the_hands_away() -> None:
    """OUT kept without its deal lines: Budi went out and Ana revealed, so
    both opening hands are worked out from the plays (docs/notation.md 6).
    With his 4-4R (now line 9) under ``Bdi``, the one name it is near is
    still his, his hand is still worked out, and nothing is left unchecked:
    the one finding, no note."""
    text = "\n".join(line for line in OUT.split("\n") if not line.startswith("deal "))
    assert _all(edit(text, "Budi: 4-4R\n", "Bdi: 4-4R\n")) == [
        (9, 1, "ERROR", "unknown-player", "'Bdi' is not in Players (Ana, Budi); did you mean "
         "'Budi'?")]


def test_a_rounds_only_turn_left_out_before_its_score_line() -> None:
    """Round 2's one turn, Budi's 1-4 lead for 5, left out: its score line
    (now line 25) says Budi 30 where the replay has 25. Budi, who went out
    in round 1, leads; of his tiles only 1-4 opens for 5 (4-4 makes 8, 0-6
    6, 2-5 7, ...), so the lead lost is read in."""
    assert shown(OUT + edit(ROUND_2, "Budi: 1-4\n", "")) == [
        (25, 15, "total-mismatch", "Budi has 25, not 30; a turn of Budi's seems missing before "
         "this line (read as Budi: 1-4)")]


def test_a_lead_by_the_highest_double_left_out(tmp_path: Path) -> None:
    """records/highest-double-3p.mgn with round 1's lead, Eko's 6-6 (the
    highest double dealt, line 14), left out: Citra's 1-6L is line 14 now,
    and fits L of 6-6 once Eko's lead is read before it; the rest of the
    round is as it was, so the lead is the one finding."""
    records = Path(__file__).resolve().parent.parent / "records"
    (tmp_path / "highest-double.yaml").write_text(
        (records / "highest-double.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    clean = (records / "highest-double-3p.mgn").read_text(encoding="utf-8")
    assert shown(clean, tmp_path / "r.mgn") == []
    slipped = edit(clean, "stock 0-4 4-4 2-3 1-1 2-5 3-6 4-6 4-5 5-5 0-3 5-6 3-5 2-6\nEko: 6-6\n",
                   "stock 0-4 4-4 2-3 1-1 2-5 3-6 4-6 4-5 5-5 0-3 5-6 3-5 2-6\n")
    assert shown(slipped, tmp_path / "r.mgn") == [
        (14, 1, "wrong-leader", "Eko holds 6-6, the highest double dealt, and leads round 1 "
         "with it, not Citra; a turn of Eko's seems missing before this line (read as "
         "Eko: 6-6)")]
