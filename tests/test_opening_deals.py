"""The hands a round opens with when its deal lines are not all there, the
stock line held to them, and who leads: the edges of replay/opening.py
(``_hands_shown``, ``_lead_by_deal``, ``check_leader``) that mutation
testing left unguarded.

Each case changes a clean record (tests/test_check.py's PAGAT, round 1 of
records/family-pagat-3p.mgn without its deal lines, or with its seats
named in another order) and lists every error and warning it then gives,
worked out by hand from docs/notation.md and docs/rules.md: one slip, one
finding, in the words that say how the line was read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import RECORDS
from tests.test_check import PAGAT, edit
from tests.test_recovery import OUT, ROUND_2, notes, shown
from tests.test_replay_rules import NO_DOUBLE

FAMILY = (RECORDS / "family-pagat-3p.mgn").read_text(encoding="utf-8")

#: Round 1 of FAMILY alone (Citra, Dewi, Eko; Dewi leads 5-5; Citra goes
#: out with 3-3R on line 31; Dewi and Eko reveal), its Result left open.
ROUND_1 = edit(FAMILY[:FAMILY.index("round 2\n")], '[Result "Citra"]', '[Result "*"]')


def _without(text: str, *keywords: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith(keywords))


#: ROUND_1 kept without deals: every hand is given away by the play. Citra
#: went out: she placed 5-6 2-4 3-4 2-2 1-4 3-3 and drew 2-2, so she was
#: dealt 5-6 2-4 3-4 1-4 3-3. Dewi revealed 0-0 0-5 4-4, placed 5-5 0-4 0-6
#: 1-6 2-6 3-6 and drew 0-5 1-6 4-4 3-6: dealt 0-0 5-5 0-4 0-6 2-6. Eko
#: revealed 0-3 1-1 1-3 1-5 3-5, placed 4-5 0-2 0-1 2-3 4-6 1-2 and drew
#: 0-2 4-5 0-3 3-5 1-5 4-6: dealt 1-1 1-3 0-1 2-3 1-2. Turns from line 10
#: (Dewi: 5-5) to line 27 (Citra: 3-3R).
KEPT = _without(ROUND_1, "deal ", "stock ")


def test_the_records_the_cases_change_are_clean() -> None:
    assert shown(ROUND_1) == []
    assert shown(KEPT) == []


# -- one deal line missing, the stock line there ------------------------------


def test_a_stock_line_holding_a_dealt_tile_with_a_deal_line_missing() -> None:
    """PAGAT without Budi's deal line, its stock line with Ana's 1-1 added
    at the end (15 tiles). Budi's hand is what neither Ana's deal line nor
    the stock line holds: 28 - 7 - 14 = 7 tiles, his 5-0 1-2 6-6 0-3 2-2
    4-6 1-3, so the deal is known after all and the undealt tiles are the
    14: the stock line is held to them, and the tile too many is named
    (not only counted). The round then plays as written."""
    text = edit(PAGAT, "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n", "")
    text = edit(text, "5-6 0-2\n", "5-6 0-2 1-1\n")
    assert shown(text) == [
        (8, 1, "bad-deal", "deal lines for only some players (none for Budi)"),
        (9, 1, "bad-deal", "the stock is not the undealt tiles: it holds dealt tiles 1-1")]


# -- no deal lines: the hands the play gives away ------------------------------


def test_a_draw_of_a_tile_on_the_table_without_deal_lines() -> None:
    """KEPT with Eko's third draw on line 23 written 5-5 (Dewi's lead, on
    the table since line 10) where it was 1-5, and his reveal with 5-5 for
    1-5: his opening hand is the same (5-5 drawn and held, as 1-5 was), so
    every hand is still known, and the stock is the 13 tiles nobody was
    dealt, which 5-5 is not among. The ends then show 6 and 6, so 5-5 does
    not fit and he draws on. Eko's pips at the end, 3 + 2 + 4 + 10 + 8 =
    27, round to 25 as 23 did: the score line holds."""
    text = edit(KEPT, "d3-5 d1-5 d4-6", "d3-5 d5-5 d4-6")
    text = edit(text, "reveal Eko 0-3 1-1 1-3 1-5 3-5", "reveal Eko 0-3 1-1 1-3 5-5 3-5")
    assert shown(text) == [(23, 16, "illegal-draw", "Eko drew 5-5, which is not in the stock")]


def test_a_reveal_of_a_tile_another_deduced_hand_holds() -> None:
    """KEPT with its seats named Eko, Citra, Dewi (the same order of play)
    and Dewi's d4-4 on line 25 left unwritten (d??): her hand is hidden,
    while Eko's and Citra's are still given away (Eko dealt 1-1 1-3 0-1 2-3
    1-2). Eko never places 1-1, so he holds it to the end, and Dewi's reveal
    (line 28) that lists it for 4-4 cannot be true: she holds 3 tiles (5
    dealt, 4 drawn, 6 placed), of which the record shows 0-5, drawn face up
    and never placed."""
    text = edit(KEPT, '[Players "Citra, Dewi, Eko"]', '[Players "Eko, Citra, Dewi"]')
    text = edit(text, "Dewi: d4-4 d3-6", "Dewi: d?? d3-6")
    assert shown(text) == []
    text = edit(text, "reveal Dewi 0-0 0-5 4-4", "reveal Dewi 0-0 0-5 1-1")
    assert shown(text) == [
        (28, 1, "reveal-mismatch", "Dewi cannot hold 0-0 0-5 1-1 (they hold 3 tiles, known: "
         "0-5)")]


def test_no_double_given_away_points_at_the_round_line(tmp_path: Path) -> None:
    """tests/test_replay_rules.py's NO_DOUBLE under lead_tile highest-double:
    Ana goes out (1-2 1-4 4-6 3-6 0-3 0-2 2-6), Budi reveals 2-4 (2-3 3-5
    0-5 0-1 1-5 5-6 2-4): no double, a deal dealt again. With no deal line
    to point at, the finding is on the `round` line (5), at its start."""
    (tmp_path / "hd.yaml").write_text("base: pagat\nlead_tile: highest-double\n",
                                      encoding="utf-8")
    text = edit(NO_DOUBLE, '[Rules "pagat"]', '[Rules "hd.yaml"]')
    assert shown(text, tmp_path / "m.mgn") == [
        (5, 1, "bad-deal", "nobody is dealt a double in round 1; with the highest double "
         "leading, such a deal is dealt again")]


# -- who leads -----------------------------------------------------------------


def test_a_first_turn_by_neither_the_lead_line_nor_the_rules() -> None:
    """FAMILY's round 2 (Citra went out in round 1, so she leads it) with a
    `lead Eko` line, and Dewi laying the first tile (4-5, nine pips, no
    score): the lead line is wrong, and so is the turn, whichever of the
    two is taken; each says so. With Citra's lead kept, the lead line's
    finding is the only one."""
    lines = FAMILY.splitlines(keepends=True)
    head = edit("".join(lines[:41]), '[Result "Citra"]', '[Result "*"]')
    assert head.endswith("Citra: 6-6\n")
    text = edit(head, "round 2\n", "round 2\nlead Eko\n")
    lead = (37, 6, "wrong-leader", "Citra went out last round and leads round 2, not Eko")
    assert shown(text) == [lead]
    assert shown(edit(text, "Citra: 6-6\n", "Dewi: 4-5\n")) == [
        lead, (42, 1, "wrong-leader", "Eko leads round 2, not Dewi")]


def test_a_lead_line_not_read_leaves_the_leader_unknown() -> None:
    """PAGAT's `lead Ana` (line 7) with no name: the parser cannot read it,
    and the first turn is not blamed for a lead line that may be the one
    not read. A line not read after the first turn (Budi's, line 14, with no
    colon) is no such excuse: round 1 needs a `lead` line."""
    assert shown(edit(PAGAT, "lead Ana\n", "lead\n")) == [
        (7, 5, "syntax", "expected a player name after 'lead'")]
    text = edit(edit(PAGAT, "lead Ana\n", ""), "Budi: 0-3R\n", "Budi 0-3R\n")
    assert shown(text) == [
        (10, 1, "wrong-leader", "round 1 needs a `lead` line (the leader is chosen by lot)"),
        (13, 6, "syntax", "expected ':' after the player name 'Budi'")]


def test_after_a_blocked_round_a_lead_line_is_needed() -> None:
    """FAMILY's round 14 is blocked; round 15 (line 386) is led by lot,
    which its `lead Eko` line states. Without it, Eko's first tile (line
    391, after the round's three deal lines and its stock line) is played by no leader the record names."""
    text = edit(FAMILY, "round 15\nlead Eko\n", "round 15\n")
    assert shown(text) == [
        (391, 1, "wrong-leader", "round 15 after a blocked round needs a `lead` line (the "
         "leader is chosen by lot)")]


def test_a_slip_in_a_turn_that_gives_a_hand_away_is_one_finding() -> None:
    """ROUND_1 without its deal lines but with its stock line, Citra's
    last turn (3-3R, line 28) written 2-5L. The hand the play gives away
    for her then holds 2-5, which the stock line lists: the turn is the
    slip (2-5 is in the stock), and it is the one finding; neither the
    stock line nor her draw of 2-2 (line 22, while "holding" 2-5) is
    wrong. Her hand is then the rest of the set beside the stock and the
    other two: 3-3 is hers, and fits where 2-5 went."""
    text = _without(ROUND_1, "deal ")
    assert shown(edit(text, "Citra: 3-3R", "Citra: 2-5L")) == [
        (28, 8, "not-in-hand", "Citra places 2-5, which they do not hold (it is in the "
         "stock); read as 3-3R, the tile of theirs the rest of the round bears out")]


def test_a_slip_in_a_turn_that_gives_a_hand_away_without_a_stock_line() -> None:
    """KEPT (no deal lines, no stock line), Citra's last turn (3-3R, line
    27) written 6-6R. As written, the play gives her 6-6 from the deal,
    and her draw of 2-2 on line 21 would be illegal "while holding 6-6"
    (R showed 6 then); but 6-6 fits neither end on line 27, so that turn
    is the slip, and the hand it gives away is no evidence against line
    21: one finding, on line 27. Her last tile is then unknown (3-3 fits
    R, but so would any 2 or 3 she may hold), so the turn is set aside,
    and the rest of the round (she goes out, the reveals, the score)
    reads the same whichever."""
    assert shown(edit(KEPT, "Citra: 3-3R", "Citra: 6-6R")) == [
        (27, 8, "does-not-fit", "6-6 does not fit R, which shows 3; open ends: L=2, R=3; "
         "the turn is set aside, as no reading of it fits the hands and the table")]


def test_a_slip_whose_tile_fits_the_other_end_gives_no_hand_away() -> None:
    """KEPT with Citra's 1-4L on line 24 written 6-6L: 6-6 fits R (6), not
    L (4), and as written her hand holds 6-6 from the deal, so her draw
    on line 21 (R showing 6) would be illegal. Placed at R, 6-6 leaves
    Dewi's 3-6R on line 25 nowhere to go; the turn is the slip, set
    aside, and line 21 no finding: one finding, the rest of the round
    notes that follow from it."""
    assert shown(edit(KEPT, "Citra: 1-4L", "Citra: 6-6L")) == [
        (24, 8, "does-not-fit", "6-6 does not fit L, which shows 4; open ends: L=4, R=6; "
         "the turn is set aside, as no reading of it fits the hands and the table")]


def test_a_slip_in_a_given_away_hand_is_read_as_the_tile_a_digit_away() -> None:
    """KEPT with Citra's 5-6R on line 12 written 6-6R: the lead 5-5 shows
    5 at both ends, so 6-6 fits nowhere, and her hand as written holds
    6-6 and not 5-6. Taken as a slip, that tile of her hand is unknown,
    and the line reads as 5-6R (one digit away, fitting R), after which
    the round plays as written: one finding with its reading, not the
    rest of the round set aside."""
    text = edit(KEPT, "Citra: 5-6R +10", "Citra: 6-6R +10")
    assert shown(text) == [
        (12, 8, "does-not-fit", "6-6 does not fit R, which shows 5; open ends: L=4, R=5; "
         "did you mean 6-5?")]


def test_a_tile_read_for_another_is_noted_unverified_once() -> None:
    """The case above: whether Citra held her tile on line 12 is not
    checked (it is unknown), which is said once a round, of the tile the
    line is read as, not also of the tile as written (a note of each
    kind per round, docs/notation.md 6)."""
    text = edit(KEPT, "Citra: 5-6R +10", "Citra: 6-6R +10")
    assert notes(text) == [
        (12, "unverified", "round 1: hands are not in the record, so whether players held "
         "the tiles they placed is not checked (first: Citra's 6-5 here)")]


def test_an_illegal_draw_the_deduced_hand_shows_is_still_found() -> None:
    """KEPT with Citra's draw of 2-2 moved from line 21 to line 18, before
    her 3-4L: there she held 3-4 and 1-4 (given away by the play, as in
    KEPT), 3-4 fitting L (4) and 1-4 both L and R (1), so drawing was
    illegal; on line 21 she places the 2-2 she drew. Without a stock line
    the order of the draws is not known, her hand is the same, and no
    turn is set aside: the hand the play gives away stands, and the draw
    is the one finding."""
    text = edit(KEPT, "Citra: 3-4L", "Citra: d2-2 3-4L")
    text = edit(text, "Citra: d2-2 2-2L +10", "Citra: 2-2L +10")
    assert shown(text) == [
        (18, 8, "illegal-draw", "Citra drew 2-2 while holding 1-4, which fits L (4), R (1)")]


def test_an_end_letter_slip_in_a_given_away_hand_leaves_the_hand_known() -> None:
    """KEPT with Citra's 1-4L on line 24 written 1-4R: R shows 6, so 1-4
    fits only L (4), where the next turns have it. The tile is hers as
    the play gives it away (placed here, drawn nowhere), and only the end
    letter is wrong: read as 1-4L, one finding. The hands stay given away,
    so nothing is unverified (KEPT gives no note)."""
    text = edit(KEPT, "Citra: 1-4L", "Citra: 1-4R")
    assert shown(text) == [
        (24, 8, "does-not-fit", "1-4 does not fit R, which shows 6; open ends: L=4, R=6; "
         "read as 1-4L")]
    assert notes(text) == []


def test_a_tile_off_the_set_in_a_given_away_hand_is_read_as_the_tile_a_digit_away(
) -> None:
    """KEPT with Citra's 2-4L on line 15 written 2-9L: the ends show L=2,
    R=6, so the 2 of 2-9 matches L, but there is no 2-9 in a double-6 set:
    the tile, not its end, is the slip. As written the play gives her hand
    a 2-9 (and not the 2-4); taken as a slip, that tile is unknown and the
    line reads as 2-4L (one digit away, fitting L): one finding, not the
    rest of the round set aside."""
    text = edit(KEPT, "Citra: 2-4L +10", "Citra: 2-9L +10")
    assert shown(text) == [
        (15, 8, "not-in-hand", "2-9 is not in a double-6 set; did you mean 2-4?")]


def test_a_tile_nothing_near_can_stand_for_is_not_doubted() -> None:
    """KEPT with Dewi's 0-6R on line 16 written 4-6R: R then shows 4, not
    0, so Eko's 0-1R on line 17 fits neither end (L=4, R=4), and the
    finding falls there, the first line that cannot go down. The play
    gives Eko's hand away with 0-1 in it, and doubting that tile gains no
    reading: a tile one digit away that fits 4 is 0-4 (on the table since
    line 13) or 1-4 (Citra's, line 24). So the round reads as many
    findings either way, the hands stay as the play gives them away, and
    no `unverified` note says otherwise (KEPT gives none)."""
    text = edit(KEPT, "Dewi: 0-6R", "Dewi: 4-6R")
    assert shown(text) == [
        (17, 6, "does-not-fit", "0-1 does not fit R, which shows 4; open ends: L=4, R=4; "
         "the turn is set aside, as no reading of it fits the hands and the table")]
    assert [line for line, code, _ in notes(text) if code == "unverified"] == []


#: KEPT with Eko's draws written d??: the play then gives away Citra's and
#: Dewi's hands, not his.
EKO_HIDDEN = edit(edit(KEPT, "Eko: d0-2 d4-5 4-5L", "Eko: d?? d?? 4-5L"),
                  "Eko: d0-3 d3-5 d1-5 d4-6 4-6L +10", "Eko: d?? d?? d?? d?? 4-6L +10")


@pytest.mark.parametrize(("written", "meant", "finding"), [
    ("Eko: 1-2L", "Eko: 0-2L",
     (14, 6, "does-not-fit", "1-2 does not fit L, which shows 0; open ends: L=0, R=6; "
      "did you mean 0-2?")),
    ("Eko: 0-0R +5", "Eko: 0-1R +5",
     (17, 6, "not-in-hand", "Eko places 0-0, which they do not hold (Dewi holds it); "
      "did you mean 0-1?")),
])
def test_a_slip_by_a_player_whose_hand_is_not_given_away(
        written: str, meant: str, finding: tuple[int, int, str, str]) -> None:
    """EKO_HIDDEN with a slip in Eko's turn (0-2L written 1-2L on line 14,
    0-1R written 0-0R on line 17, 0-0 being the double Dewi reveals): the
    turn is the round's first that cannot go down as written, but his hand
    is hidden, not given away, so nothing of it is doubted (his hand keeps
    its five unknown tiles) and the line reads as the tile a digit away
    that he may hold: one finding."""
    assert shown(EKO_HIDDEN) == []
    assert shown(edit(EKO_HIDDEN, meant, written)) == [finding]


def test_an_end_letter_slip_leaves_an_earlier_illegal_draw_as_found() -> None:
    """The illegal draw of the case before (Citra drew 2-2 on line 18
    holding 1-4, which fits L (4), R (1)) with her 1-4L on line 24 written
    1-4R: two slips, two findings, the draw's said of the 1-4 the play
    gives her."""
    text = edit(KEPT, "Citra: 3-4L", "Citra: d2-2 3-4L")
    text = edit(text, "Citra: d2-2 2-2L +10", "Citra: 2-2L +10")
    text = edit(text, "Citra: 1-4L", "Citra: 1-4R")
    assert shown(text) == [
        (18, 8, "illegal-draw", "Citra drew 2-2 while holding 1-4, which fits L (4), R (1)"),
        (24, 8, "does-not-fit", "1-4 does not fit R, which shows 6; open ends: L=4, R=6; "
         "read as 1-4L")]


# -- a pass as a round's first turn -------------------------------------------
# A pass on the empty table is a slip of its own (any tile may open), unless
# the turn is already found to be the wrong player's: then it is that one
# slip, said once.

#: PAGAT's deal under lead_tile: highest-double, as in
#: tests/test_opening_mutants.py: Budi holds 6-6 and must lead it.
HD_DEAL = ("deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1\ndeal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n"
           "stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2\n")


def _hd(tmp_path: Path, body: str) -> list[tuple[int, int, str, str]]:
    (tmp_path / "hd.yaml").write_text("base: pagat\nlead_tile: highest-double\n",
                                      encoding="utf-8")
    text = '[Players "Ana, Budi"]\n[Rules "hd.yaml"]\n[Result "*"]\n\nround 1\n' + body
    return shown(text, tmp_path / "r.mgn")


def test_the_holder_named_wrong_by_the_lead_line_then_passing(tmp_path: Path) -> None:
    """`lead Ana` is wrong (Budi holds 6-6), and Budi, who is due, passes:
    two slips, two findings."""
    assert _hd(tmp_path, "lead Ana\n" + HD_DEAL + "Budi: pass\n") == [
        (6, 6, "wrong-leader", "Budi holds 6-6, the highest double dealt, and leads round 1 "
         "with it, not Ana"),
        (10, 7, "illegal-pass", "Budi passed on the round's first turn; any tile may open")]


def test_a_pass_first_where_no_double_was_dealt(tmp_path: Path) -> None:
    """NO_DOUBLE's hands (given away by its play) under the highest double:
    the deal is wrong (on the round line), and Ana's first turn a pass in
    place of her 1-2: a slip of its own."""
    text = NO_DOUBLE.replace('[Rules "pagat"]', '[Rules "hd.yaml"]')
    (tmp_path / "hd.yaml").write_text("base: pagat\nlead_tile: highest-double\n",
                                      encoding="utf-8")
    found = shown(edit(text, "lead Ana\nAna: 1-2\n", "lead Ana\nAna: pass\nAna: 1-2\n"),
                  tmp_path / "r.mgn")
    assert (7, 6, "illegal-pass", "Ana passed on the round's first turn; any tile may open") \
        in found


def test_a_pass_first_with_the_hands_hidden(tmp_path: Path) -> None:
    """The highest double leads, no deal lines: nobody's double is known,
    so a pass is no wrong leader, but it is a pass on the empty table."""
    assert _hd(tmp_path, "Ana: pass\n") == [
        (6, 6, "illegal-pass", "Ana passed on the round's first turn; any tile may open")]


def test_a_pass_first_by_the_player_the_lead_line_does_not_name(tmp_path: Path) -> None:
    """The hands hidden, `lead Ana`, and Budi passes first: the wrong
    player's turn, one finding."""
    assert _hd(tmp_path, "lead Ana\nBudi: pass\n") == [
        (7, 1, "wrong-leader", "Ana leads round 1, not Budi")]


def test_a_pass_first_by_the_player_who_did_not_go_out() -> None:
    """OUT: Budi went out of round 1, so he leads round 2; Ana's pass comes
    first (line 25): her turn is the slip, said once."""
    text = OUT + ROUND_2.replace("Budi: 1-4\n", "Ana: pass\nBudi: 1-4\n")
    assert shown(text)[:1] == [
        (25, 1, "wrong-leader", "Budi went out last round and leads round 2, not Ana")]
    assert [f for f in shown(text) if f[0] == 25] == [
        (25, 1, "wrong-leader", "Budi went out last round and leads round 2, not Ana")]


def test_a_pass_first_in_a_round_whose_leader_is_not_known() -> None:
    """OUT cut before Budi's last turn, and round 2 begun (line 19): round
    1's end is not known, so neither who leads round 2 nor the totals
    (the score line's are taken). Budi's first turn of round 2 a pass: no
    wrong leader, but a pass on the empty table."""
    cut = OUT[:OUT.index("Budi: 0-6L\n")]
    text = cut + ROUND_2.replace("Budi: 1-4\n", "Budi: pass\n")
    assert shown(text) == [
        (19, 1, "bad-round", "round 2 starts before round 1 ended"),
        (22, 7, "illegal-pass", "Budi passed on the round's first turn; any tile may open")]


@pytest.mark.parametrize(("hand", "said"), [
    # 1-1 written twice: eight tiles, the size following from the one slip.
    ("5-5 3-4 6-1 0-0 2-3 4-4 1-1 1-1", (8, 38, "bad-deal", "1-1 is dealt twice")),
    # A tile off the set added: the same.
    ("5-5 3-4 6-1 0-0 2-3 4-4 1-1 7-7", (8, 38, "bad-deal", "7-7 is not in a double-6 set")),
])
def test_a_deal_line_with_a_tile_too_many_that_is_wrong_is_one_finding(
        hand: str, said: tuple[int, int, str, str]) -> None:
    """PAGAT's deal line for Ana (line 8) with an eighth tile that is
    itself the slip: that tile is the finding, not the hand's size too."""
    found = shown(edit(PAGAT, "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1",
                       f"deal Ana {hand}"))
    assert [f for f in found if f[0] == 8] == [said]


def test_a_deal_line_missing_beside_a_stock_line_a_tile_short() -> None:
    """PAGAT without Budi's deal line and with its stock line a tile short
    (0-2 left out: 13 tiles). What neither Ana's deal line nor the stock
    line holds is 28 - 7 - 13 = 8 tiles, not a hand of 7, so Budi's hand
    is not known and stays hidden, and the stock line is held to the count
    the deal leaves: two slips, two findings, each saying what it is."""
    text = edit(PAGAT, "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n", "")
    assert shown(edit(text, " 5-6 0-2\n", " 5-6\n")) == [
        (8, 1, "bad-deal", "deal lines for only some players (none for Budi)"),
        (9, 1, "bad-deal", "the stock holds 13 tiles; 14 were left undealt")]
