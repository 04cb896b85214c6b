"""The edges of replay/closing.py that mutation testing found unguarded: the
one hand a record hides, worked out at the round's end from everything else
so that the settlement is computed; the hands revealed at a round's end,
held to a hand the record shows or hides.

The expected totals are worked out by hand from docs/rules.md (pagat:
raw scores of multiples of 5, deduct-own to the nearest 5).
"""

from __future__ import annotations

from pathlib import Path

from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.rules.resolve import resolver_for
from tests.test_check import edit
from tests.test_closing_cases import SPIN

#: Pagat with hands of 14: the whole set is dealt and the stock is empty.
#: Only Ana's deal line is in the record; Budi's hand is the other 14
#: tiles: 1-6 1-2 2-6 0-6 5-6 (which he lays) and 2-2 2-3 2-4 2-5 3-3 3-5
#: 4-4 4-5 5-5. Plays (L, R after each, total): 6-6 (12: 0), 6-1R (6-6
#: double 12 + 1: 0), 6-3L (3 + 1: 0), 1-2R (3 + 2 = 5: Budi 5), 3-4L (4 +
#: 2: 0), 2-6R (4 + 6 = 10: Budi 10), 4-6L (6 + 6: 0), 6-0R (6 + 0: 0),
#: 0-5R (6 + 5: 0), 5-6R (6 + 6: 0). Every 6 is down and both ends show 6:
#: both pass, the round is blocked. Ana keeps 0-0 0-1 0-2 0-3 0-4 1-1 1-3
#: 1-4 1-5, 27 pips, counted 25; Budi 63, counted 65. Totals: Ana 0 - 25,
#: Budi 15 - 65.
HIDDEN_LAST = ('[Players "Ana, Budi"]\n[Rules "h14.yaml"]\n[Result "*"]\n\nround 1\n'
               "lead Ana\ndeal Ana 6-6 3-6 3-4 4-6 0-5 0-0 0-1 0-2 0-3 0-4 1-1 1-3 1-4 1-5\n"
               "Ana: 6-6\nBudi: 6-1R\nAna: 6-3L\nBudi: 1-2R +5\nAna: 3-4L\nBudi: 2-6R +10\n"
               "Ana: 4-6L\nBudi: 6-0R\nAna: 0-5R\nBudi: 5-6R\nAna: pass\nBudi: pass\n")


def _replayed(tmp_path: Path, text: str) -> tuple[dict[str, int], list[str]]:
    (tmp_path / "h14.yaml").write_text("base: pagat\nhand_size: {2: 14}\n", encoding="utf-8")
    (match,) = parse_text(text)
    result = replay_match(match, resolver_for(str(tmp_path / "r.mgn")))
    return dict(result.summary.scores), [d.message for d in result.diagnostics]


def test_the_one_hidden_hand_is_the_rest_of_the_set(tmp_path: Path) -> None:
    scores, messages = _replayed(tmp_path, HIDDEN_LAST)
    assert scores == {"Ana": -25, "Budi": -50}
    assert not any("settlement is not computed" in m for m in messages)


def test_two_hidden_hands_leave_the_settlement_unknown(tmp_path: Path) -> None:
    """Without Ana's deal line both hands are hidden: the rest of the set
    is 18 tiles for two hands, so neither is known and the settlement is
    not computed; the totals are the placements' alone (Budi 15)."""
    text = HIDDEN_LAST.replace(
        "deal Ana 6-6 3-6 3-4 4-6 0-5 0-0 0-1 0-2 0-3 0-4 1-1 1-3 1-4 1-5\n", "")
    scores, messages = _replayed(tmp_path, text)
    assert scores == {"Ana": 0, "Budi": 15}
    assert any("settlement is not computed" in m for m in messages)


def test_a_wrong_reveal_of_a_known_hand_lists_what_it_held(tmp_path: Path) -> None:
    """Ana's hand is known to the end (her deal line less her plays): a
    reveal with 1-6 (on the table) for her 1-5 is wrong, and the finding
    lists the nine tiles she held."""
    _, messages = _replayed(tmp_path, HIDDEN_LAST
                            + "reveal Ana 0-0 0-1 0-2 0-3 0-4 1-1 1-3 1-4 1-6\n")
    assert ("Ana held 0-0 0-1 0-2 0-3 0-4 1-1 1-3 1-4 1-5 at the end of round 1, "
            "not 0-0 0-1 0-2 0-3 0-4 1-1 1-3 1-4 1-6") in messages


def test_the_hidden_hand_revealed_as_it_is(tmp_path: Path) -> None:
    """Budi's hand, hidden all round, revealed as the rest of the set: no
    finding, and the same settlement."""
    scores, messages = _replayed(tmp_path, HIDDEN_LAST
                                 + "reveal Budi 2-2 2-3 2-4 2-5 3-3 3-5 4-4 4-5 5-5\n")
    assert scores == {"Ana": -25, "Budi": -50}
    assert not [m for m in messages if "hold" in m]


#: tests/test_closing_cases.py's SPIN with Budi's last draw face down: his
#: opening hand can no longer be worked back from the round, so a reveal of
#: his last tile is held to a hand the record hides (one tile, none known).
#: Eko's hand is worked back (he ends with 4-4), and Wayan went out.
SPIN_HIDDEN = edit(SPIN, "Budi: d0-2 0-2R", "Budi: d?? 0-2R")


def test_a_reveal_of_a_hand_the_record_hides(tmp_path: Path) -> None:
    """Budi shows 1-4: it can be his one tile, and with it and Eko's 4-4
    the settlement gives Wayan 5 + 3 (13 pips, 15, / 5) = 8. 4-4 cannot be
    his where Eko's reveal shows Eko holds it."""
    (match,) = parse_text(edit(SPIN_HIDDEN, "score Budi 40, Wayan 8",
                               "reveal Budi 4-1\nreveal Eko 4-4\nscore Budi 40, Wayan 8"))
    result = replay_match(match, resolver_for(None))
    assert [d.code for d in result.diagnostics if d.code != "unverified"] == []
    assert result.summary.scores == {"Budi": 40, "Wayan": 8, "Eko": 30}
    (match,) = parse_text(edit(SPIN_HIDDEN, "score Budi 40, Wayan 8",
                               "reveal Budi 4-4\nreveal Eko 4-4\nscore Budi 40, Wayan 8"))
    assert [(d.line, d.code, d.message) for d in replay_match(match, resolver_for(None))
            .diagnostics if d.code == "reveal-mismatch"] == [
        (29, "reveal-mismatch", "Budi cannot hold 4-4 (they hold 1 tiles, known: none)")]


def test_a_reveal_held_to_the_tiles_a_hidden_hand_is_known_to_keep() -> None:
    """SPIN_HIDDEN with Budi drawing 1-1 and 1-6 face up before his 5-5
    (line 24) and keeping them: at the end he holds three tiles, 1-1 and
    1-6 known and one the record hides. 1-4 alone cannot be that hand."""
    text = edit(SPIN_HIDDEN, "Budi: d5-5 5-5 +15", "Budi: d1-1 d1-6 d5-5 5-5 +15")
    (match,) = parse_text(edit(text, "score Budi 40, Wayan 8",
                               "reveal Budi 4-1\nreveal Eko 4-4\nscore Budi 40, Wayan 8"))
    assert (29, "Budi cannot hold 1-4 (they hold 3 tiles, known: 1-1 1-6)") in [
        (d.line, d.message) for d in replay_match(match, resolver_for(None)).diagnostics
        if d.code == "reveal-mismatch"]


def test_a_reveal_that_lists_a_known_tile_twice_is_not_the_hidden_hand() -> None:
    """The same three-tile hand (1-1 and 1-6 known, one tile hidden)
    revealed as 1-1 1-6 1-6: three tiles listed, both known ones among
    them, but a hand holds a tile once, so this is two tiles and cannot be
    his. Taken as true, it settled the round on two tiles' pips."""
    text = edit(SPIN_HIDDEN, "Budi: d5-5 5-5 +15", "Budi: d1-1 d1-6 d5-5 5-5 +15")
    (match,) = parse_text(edit(text, "score Budi 40, Wayan 8",
                               "reveal Budi 1-1 1-6 1-6\nreveal Eko 4-4\n"
                               "score Budi 40, Wayan 8"))
    assert (29, "Budi cannot hold 1-1 1-6 1-6 (they hold 3 tiles, known: 1-1 1-6)") in [
        (d.line, d.message) for d in replay_match(match, resolver_for(None)).diagnostics
        if d.code == "reveal-mismatch"]


#: Hands of two under pagat: 24 tiles stay in the stock, all of them listed,
#: and no deal line. Ana leads 6-6 (ends 12), Budi lays 6-4 (12 + 4: 0), Ana
#: 4-3 (12 + 3 = 15) and is out. Budi's other tile is the one tile neither
#: laid nor in the stock: 5-5. Deduct-own: Ana 15 - 0, Budi 0 - 10.
SHORT_HANDS = ('[Players "Ana, Budi"]\n[Rules "h2.yaml"]\n[Result "*"]\n\nround 1\nlead Ana\n'
               "stock 0-0 0-1 1-1 0-2 1-2 2-2 0-3 1-3 2-3 3-3 0-4 1-4 2-4 4-4 0-5 1-5 2-5 "
               "3-5 4-5 0-6 1-6 2-6 3-6 5-6\n"
               "Ana: 6-6\nBudi: 6-4R\nAna: 4-3R +15\nscore Ana 15, Budi -10\n")


def test_the_hidden_hand_left_beside_a_listed_stock_is_worked_out(tmp_path: Path) -> None:
    """A stock still full but written out is as good as an empty one: the
    one hand the record hides is the rest of the set, and the settlement
    is computed from it."""
    (tmp_path / "h2.yaml").write_text("base: pagat\nhand_size: {2: 2}\n", encoding="utf-8")
    (match,) = parse_text(SHORT_HANDS)
    result = replay_match(match, resolver_for(str(tmp_path / "r.mgn")))
    assert result.summary.scores == {"Ana": 15, "Budi": -10}
    assert [d.message for d in result.diagnostics if "settlement" in d.message
            or d.code == "total-mismatch"] == []


def test_an_unfinished_match_is_pointed_at_its_result_tag_where_it_is_written() -> None:
    """The Result tag names a winner, but the record stops after the first
    turn of round 1 (nobody near 250): the warning is on the tag, at the
    column its bracket is written in."""
    text = ('[Players "Ana, Budi"]\n[Rules "pagat"]\n  [Result "Ana"]\n\n'
            "round 1\nlead Ana\nAna: 6-6\n")
    (match,) = parse_text(text)
    found = [(d.line, d.column) for d in replay_match(match, resolver_for(None)).diagnostics
             if d.code == "unfinished"]
    assert found == [(3, 3)]
