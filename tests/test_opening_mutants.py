"""The edges of replay/opening.py that mutation testing found unguarded: a
round's opening lines out of their place. A `lead`, `deal` or `stock` line
after a round ended with no `round` line before it starts the next round
(the `lead` line kept for it); a `deal` line a `round` line follows was
written in another order and is out of place; a `stock` line twice; an
opening line before any `round` line.

Each case changes tests/test_recovery.py's OUT (Budi goes out on line 19)
and ROUND_2 (its second round, Budi leading as who went out, the same
deal); every finding is worked out by hand from docs/notation.md: one
slip, one finding, in the words that say how the line was read.

Then who leads under ``lead_tile: highest-double`` (HD_OPEN: PAGAT's deal,
where Budi holds 6-6, the highest double dealt), a stock line held to the
deal (or, without deal lines, to the hands it leaves hidden), a round whose
end the replay did not follow, and the position before a first turn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from muggins_cli import position_at
from muggins_cli.notation.parser import parse_text
from muggins_cli.rules.resolve import resolver_for
from tests.conftest import RECORDS
from tests.records import THREES
from tests.test_check import PAGAT, edit
from tests.test_recovery import OUT, ROUND_2, shown

#: The tiles ROUND_2's deal leaves undealt: its stock.
STOCK = "stock 0-0 0-1 0-3 0-5 1-1 1-2 1-5 2-2 2-4 3-3 3-4 3-6 4-5 4-6\n"
READ_AS_START = ("round 1 has ended and no `round 2` line starts the next one: read as "
                 "its start")


@pytest.mark.parametrize(("text", "expected"), [
    # `round 2` left out, its `lead` line kept: the lead line waits for the
    # round the deal line then starts; Budi went out, so Budi leading holds.
    (OUT + edit(ROUND_2, "round 2\n", "lead Budi\n"),
     [(23, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
       + READ_AS_START)]),
    # ... and a lead line naming Ana is read for that round and is wrong.
    (OUT + edit(ROUND_2, "round 2\n", "lead Ana\n"),
     [(22, 6, "wrong-leader", "Budi went out last round and leads round 2, not Ana"),
      (23, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
       + READ_AS_START)]),
    # `round 2` left out before a stock line (the undealt tiles, right).
    (OUT + edit(ROUND_2, "round 2\n", STOCK),
     [(22, 1, "bad-deal", "a `stock` line must come before the round's first turn; "
       + READ_AS_START)]),
    # A deal line that ends the record: nothing after it says it was
    # written out of order, so it starts round 2.
    (OUT + "deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\n",
     [(22, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
       + READ_AS_START)]),
    # Ana's deal line before `round 2`: the lines were written in another
    # order, the deal line is out of place (not read), and round 2 has
    # Budi's deal line alone.
    (OUT + "deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\nround 2\n"
     "deal Budi 6-6 4-4 0-6 1-4 0-4 2-5 5-6\nBudi: 1-4\n",
     [(22, 1, "bad-deal", "a `deal` line must come before the round's first turn"),
      (24, 1, "bad-deal", "deal lines for only some players (none for Ana)")]),
    # The stock line written twice: the second is out of place.
    (edit(OUT, "Budi: 1-4\n", STOCK + STOCK + "Budi: 1-4\n"),
     [(8, 1, "bad-deal", "a `stock` line must come once, before the round's first turn")]),
    # `round 2` left out before a stock line and no deal lines: the stock
    # line starts round 2, whose hands are then worked out from the lines
    # after it (none given away); Budi, who went out, leads 1-4 for 5.
    (OUT + STOCK + "Budi: 1-4\nscore Ana 10, Budi 30\n",
     [(22, 1, "bad-deal", "a `stock` line must come before the round's first turn; "
       + READ_AS_START)]),
    # Ana's deal line straight after the turn that ended round 1, before the
    # reveal, the score line and `round 2`: written out of order, so out of
    # place (not read); the reveal and the totals are round 1's.
    (edit(OUT, "Budi: 0-6L\n", "Budi: 0-6L\ndeal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\n")
     + ROUND_2,
     [(20, 1, "bad-deal", "a `deal` line must come before the round's first turn")]),
    # A deal line before any round: not read, and round 1 has its own.
    (edit(OUT, "round 1\n", "deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\nround 1\n"),
     [(3, 1, "bad-round", "this line comes before any `round` line")]),
    # The lead line before any round: not read, so round 1 has none.
    (edit(OUT, "round 1\nlead Budi\n", "lead Budi\nround 1\n"),
     [(3, 1, "bad-round", "this line comes before any `round` line"),
      (7, 1, "wrong-leader", "round 1 needs a `lead` line (the leader is chosen by lot)")]),
])
def test_an_opening_line_out_of_its_place(text: str,
                                          expected: list[tuple[int, int, str, str]]) -> None:
    assert shown(text) == expected


def test_two_round_lines_left_out_in_a_row() -> None:
    """`round 2` and `round 3` both left out, round 2 with its `lead` line
    (read for it) and round 3 without one: each first deal line starts its
    round. Round 2 plays round 1 again (Ana 10 more, Budi 25 more: 20 and
    50), round 3 has Budi, who went out, lead 1-4 for 5 (55). The lead line
    taken for round 2 is not read again for round 3."""
    round_1 = OUT[OUT.index("round 1\n"):OUT.index("reveal")]
    round_2 = edit(round_1, "round 1\n", "") + "reveal Ana 1-3\nscore Ana 20, Budi 50\n"
    text = (OUT + round_2 + edit(ROUND_2, "round 2\n", "")
            .replace("score Ana 10, Budi 30", "score Ana 20, Budi 55"))
    assert shown(text) == [
        (23, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
         + READ_AS_START),
        (40, 1, "bad-deal", "a `deal` line must come before the round's first turn; round 2 "
         "has ended and no `round 3` line starts the next one: read as its start")]


def test_a_round_whose_end_was_not_followed_has_no_leader_by_right() -> None:
    """Round 1's reveal (line 19) comes before Budi's last turn: its end
    is then not followed (the totals are the score line's), so nobody leads
    round 2 by right and Ana's lead (line 24) is no finding."""
    text = edit(OUT, "Budi: 0-6L\nreveal Ana 1-3\n", "reveal Ana 1-3\nBudi: 0-6L\n")
    text += edit(ROUND_2, "Budi: 1-4\nscore Ana 10, Budi 30\n", "Ana: 1-3\n")
    assert shown(text) == [(19, 1, "reveal-mismatch",
                            "reveal before round 1 ended")]


# -- a round led by the highest double dealt ----------------------------------

#: PAGAT's deal under ``lead_tile: highest-double`` (hd.yaml), no `lead`
#: line: Budi holds 6-6, Ana's highest double is 5-5, so Budi must lead 6-6.
#: The first turn is line 9.
HD_OPEN = """\
[Players "Ana, Budi"]
[Rules "hd.yaml"]
[Result "*"]

round 1
deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2
"""


def _hd(tmp_path: Path, text: str) -> list[tuple[int, int, str, str]]:
    (tmp_path / "hd.yaml").write_text("base: pagat\nlead_tile: highest-double\n",
                                      encoding="utf-8")
    return shown(text, tmp_path / "r.mgn")


def test_the_highest_double_opens_the_round(tmp_path: Path) -> None:
    assert _hd(tmp_path, HD_OPEN + "Budi: 6-6\nAna: 6-1R\n") == []


@pytest.mark.parametrize(("text", "expected"), [
    # The holder leads another tile of his: the finding is on the tile.
    (HD_OPEN + "Budi: 1-2\n",
     [(9, 7, "wrong-leader", "Budi must lead 6-6, the highest double dealt, not 1-2")]),
    # ... or passes: one slip, one finding (the pass on an empty table is
    # that same slip).
    (HD_OPEN + "Budi: pass\n",
     [(9, 7, "wrong-leader", "Budi must lead 6-6, the highest double dealt, not a pass")]),
    # Ana, who is not due, passes first, and Budi then leads as due: the
    # pass is a line too many, said once.
    (HD_OPEN + "Ana: pass\nBudi: 6-6\n",
     [(9, 1, "wrong-leader", "Budi holds 6-6, the highest double dealt, and leads round 1 "
       "with it, not Ana")]),
    # A lead line naming Ana, and Ana leads as it says: one finding, on the
    # lead line's name (column 6), none on the turn that follows it.
    (edit(HD_OPEN, "round 1\n", "round 1\nlead Ana\n") + "Ana: 5-5\n",
     [(6, 6, "wrong-leader", "Budi holds 6-6, the highest double dealt, and leads round 1 "
       "with it, not Ana")]),
])
def test_a_lead_against_the_highest_double(tmp_path: Path, text: str,
                                           expected: list[tuple[int, int, str, str]]) -> None:
    assert _hd(tmp_path, text) == expected


def test_after_a_block_the_deal_decides_who_leads(tmp_path: Path) -> None:
    """records/highest-double-3p.mgn: round 4 is blocked, so round 5 is led
    by the highest double dealt, Eko's 6-6, with or without its `lead`
    line. Both left out, with Eko's 6-6: Citra's 3-6L (line 144) is the
    first turn, and fits L of 6-6 once Eko's lead is read before it; the
    rest of the round is as it was."""
    (tmp_path / "highest-double.yaml").write_text(
        (RECORDS / "highest-double.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    clean = (RECORDS / "highest-double-3p.mgn").read_text(encoding="utf-8")
    text = edit(clean, "round 5\nlead Eko\n", "round 5\n")
    text = edit(text, "4-5\nEko: 6-6\nCitra: 3-6L", "4-5\nCitra: 3-6L")
    assert shown(text, tmp_path / "r.mgn") == [
        (144, 1, "wrong-leader", "Eko holds 6-6, the highest double dealt, and leads round 5 "
         "with it, not Citra; a turn of Eko's seems missing before this line (read as "
         "Eko: 6-6)")]


@pytest.mark.parametrize(("turn", "expected"), [
    # Budi leads another tile of his: that finding, which needs his hand.
    ("Budi: 1-2\n",
     [(8, 7, "wrong-leader", "Budi must lead 6-6, the highest double dealt, not 1-2")]),
    # Ana, who is not the holder, leads her highest double.
    ("Ana: 5-5\n",
     [(8, 1, "wrong-leader", "Budi holds 6-6, the highest double dealt, and leads round 1 "
       "with it, not Ana")]),
])
def test_a_hand_left_out_beside_the_stock_line_decides_the_lead(
        tmp_path: Path, turn: str, expected: list[tuple[int, int, str, str]]) -> None:
    """HD_OPEN without Budi's deal line (the stock line is line 7, the
    first turn line 8): his hand is what Ana's deal and the stock leave,
    5-0 1-2 6-6 0-3 2-2 4-6 1-3 (docs/diagnostics.md, bad-deal), so he
    holds 6-6, the highest double dealt, and must lead it."""
    text = edit(HD_OPEN, "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n", "") + turn
    assert _hd(tmp_path, text) == [
        (6, 1, "bad-deal", "deal lines for only some players (none for Budi)"), *expected]


def test_after_going_out_the_winner_leads_not_the_deal(tmp_path: Path) -> None:
    """records/highest-double-3p.mgn to the end of round 2: Eko goes out in
    round 1 (line 35), so he leads round 2 (docs/rules.md: the deal decides
    round 1 and a round after a block only), though Dewi holds 6-6. His
    4-6 (line 45) left out, Citra's 2-4L is the first turn: read as after
    Eko's lost lead, the one tile of his after which 2-4 fits L and the
    rest of the round holds (Dewi's 6-6R, Eko's 2-3L +15)."""
    (tmp_path / "highest-double.yaml").write_text(
        (RECORDS / "highest-double.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    clean = (RECORDS / "highest-double-3p.mgn").read_text(encoding="utf-8")
    text = edit(clean[:clean.index("round 3\n")], '[Result "Eko"]', '[Result "*"]')
    assert shown(text, tmp_path / "r.mgn") == []
    assert shown(edit(text, "Eko: 4-6 +10\n", ""), tmp_path / "r.mgn") == [
        (45, 1, "wrong-leader", "Eko went out last round and leads round 2, not Citra; a turn "
         "of Eko's seems missing before this line (read as Eko: 4-6)")]


def test_the_leaders_lost_lead_in_round_1() -> None:
    """PAGAT's `lead Ana` with her 5-5 +10 (line 11) left out: Budi's 5-0R
    +10 is then the first turn, by the player after the leader. Of Ana's
    tiles only 5-5 makes 5-0 on R score 10 (0-0 would make it 5, and Ana
    lays 0-0 on line 12), and her total of 35 counts its 10: one finding,
    read as her lost lead."""
    assert shown(edit(PAGAT, "Ana: 5-5 +10\n", "")) == [
        (11, 1, "wrong-leader", "Ana leads round 1, not Budi; a turn of Ana's seems missing "
         "before this line (read as Ana: 5-5)")]


def test_a_lead_line_against_the_rules_makes_up_no_lost_lead() -> None:
    """Round 2 after OUT with `lead Ana` (line 23), though Budi went out:
    who led is then not known, so Budi's first turn is read as written
    (no turn of Ana's made up before it: Budi leading is no slip, so that
    reading would go unsaid). As written, 2-5L opens with an end letter
    and claims 5 for ends of 2 + 5 = 7."""
    text = OUT + edit(ROUND_2, "round 2\n", "round 2\nlead Ana\n").replace(
        "Budi: 1-4\nscore Ana 10, Budi 30\n", "Budi: 2-5L +5\n")
    assert shown(text) == [
        (23, 6, "wrong-leader", "Budi went out last round and leads round 2, not Ana"),
        (26, 7, "bad-end", "the opening tile takes no end letter (2-5L)"),
        (26, 12, "score-mismatch", "Budi claims 5; 2-5 scores 0 (the open ends add up to 7)")]


# -- the stock line ------------------------------------------------------------


def test_a_stock_that_holds_dealt_tiles_and_lacks_none() -> None:
    """PAGAT's stock line with Ana's 5-5 and 1-1 added: every undealt tile
    is there, two dealt ones too (named in order)."""
    assert shown(edit(PAGAT, "5-6 0-2\n", "5-6 0-2 5-5 1-1\n")) == [
        (10, 1, "bad-deal", "the stock is not the undealt tiles: it holds dealt tiles 1-1 "
         "5-5")]


def test_without_deal_lines_a_stock_tile_is_in_no_hand() -> None:
    """PAGAT without its deal lines (the stock line is line 8): the hands
    are what the stock leaves, in shares the record hides, so 3-5, which
    the stock line holds, is nobody's. Ana lays it (line 21) without the
    draw: it is in the stock, the next tile its order brings out (0-4 and
    2-6 were drawn on line 19)."""
    text = "".join(line for line in PAGAT.splitlines(keepends=True)
                   if not line.startswith("deal "))
    assert shown(edit(text, "Ana: d3-5 3-5L +15", "Ana: 3-5L +15")) == [
        (21, 6, "not-in-hand", "Ana places 3-5, which they do not hold (it is in the "
         "stock); 3-5 is the next tile the draws show: write d3-5 before it")]


#: OUT kept without deal lines (its stock line goes on line 5): Budi goes
#: out placing 1-4 6-6 4-4 0-4 5-6 2-5 0-6 and draws nothing, Ana reveals
#: 1-3 after placing 1-6 2-6 2-3 3-5 0-2 5-5, so both opening hands are
#: given away (docs/notation.md 6), and the undealt tiles are the other
#: fourteen, STOCK's.
NO_DEALS = "".join(line for line in OUT.splitlines(keepends=True)
                   if not line.startswith("deal "))


@pytest.mark.parametrize(("stock", "expected"), [
    (STOCK, []),
    # 5-5 for 0-0: Ana places 5-5 (line 17) and never draws, so the stock
    # cannot hold it. The stock line or Ana's turns are wrong: taking the
    # stock as written makes Ana's hand the rest of the set, with 0-0 for
    # 5-5, and then her 5-5 (line 17) and her reveal (she would keep 0-0)
    # are two findings; taking the hands the play gives away makes the
    # stock line the one slip. The round reads with fewer, so the stock
    # line is the finding, naming both tiles.
    (STOCK.replace("0-0", "5-5"),
     [(5, 1, "bad-deal", "the stock is not the undealt tiles: it lacks 0-0 and holds "
       "dealt tiles 5-5")]),
])
def test_a_stock_line_is_held_to_the_hands_a_record_gives_away(
        stock: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert shown(edit(NO_DEALS, "Budi: 1-4\n", stock + "Budi: 1-4\n")) == expected


# -- the position before a first turn --------------------------------------------


def test_the_position_before_a_first_turn_not_the_leaders() -> None:
    """records.THREES with Dara's 3-3 for Eko's lead (line 13): the
    position before it has Dara, whose turn the line is, to move (seat 1),
    as when nobody is due to lead; not Chen, who is neither due nor
    playing."""
    text = edit(THREES, "Eko: 6-6 +12\nscore Chen 0, Dara 0, Eko 12\n", "Dara: 3-3\n")
    (match,) = parse_text(text)
    assert position_at(match, resolver_for(None), "1.1").to_move == 1
    (match,) = parse_text(edit(text, "lead Eko\n", ""))
    assert position_at(match, resolver_for(None), "1.1").to_move == 1


def test_a_pass_by_the_player_not_due_to_lead_is_one_finding() -> None:
    """The lead line names Ana; Budi's pass comes first, then Ana leads as
    due. Budi's line is the slip: it is not his turn, which says all (that
    a pass on an empty table is no turn is the same line read again)."""
    text = ('[Players "Ana, Budi"]\n[Rules "pagat"]\n[Result "*"]\n\nround 1\nlead Ana\n'
            "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1\ndeal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n"
            "stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2\n"
            "Budi: pass\nAna: 5-5\n")
    assert shown(text) == [(10, 1, "wrong-leader", "Ana leads round 1, not Budi")]
