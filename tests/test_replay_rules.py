"""The round tracker's own bookkeeping, case by case: the hands a record
without deals gives away, a round led by the highest double with hidden
hands, and the words of its findings.

Every expected hand is the deal line of the record the case was cut from
(tests/test_check.py's PAGAT), and every expected message is worked out
from the record as a reader would say it, not taken from the replay.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from muggins_cli.check import check_file
from muggins_cli.notation.model import Severity
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.deduce import deduce_round
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.visitor import At, Moment, ReplayVisitor
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.resolve import resolver_for
from muggins_cli.tiles import Tile
from tests.test_check import PAGAT, SPINNER, edit

PAGAT_RULES = load_preset("pagat")
SEAT = {"Ana": 0, "Budi": 1}
#: The deal lines of PAGAT.
ANA = {"5-5", "3-4", "6-1", "0-0", "2-3", "4-4", "1-1"}
BUDI = {"5-0", "1-2", "6-6", "0-3", "2-2", "4-6", "1-3"}
#: PAGAT kept without its deals, each hand shown at the end: Ana kept 4-4
#: 1-1 0-4 (she drew 0-4, 2-6, 3-5 and laid the last two), Budi 1-2.
HIDDEN = "\n".join(line for line in PAGAT.splitlines()
                   if not line.startswith(("deal ", "stock ")))
REVEALED = edit(HIDDEN, "score Ana 35", "reveal Ana 4-4 1-1 0-4\nreveal Budi 1-2\nscore Ana 35")


def _tiles(names: set[str]) -> set[Tile]:
    return {Tile.of(int(n[0]), int(n[2])) for n in names}


def _deduced(text: str, line: int = 6) -> dict[int, set[str]]:
    (match,) = parse_text(text)
    found = deduce_round(match.body, line, SEAT, 7)
    return {seat: {str(t) for t in hand} for seat, hand in found.items()}


def test_revealed_hands_give_the_deal_away() -> None:
    """Opening hand = end hand + placed - drawn: Ana 4-4 1-1 0-4 + her seven
    placements - 0-4 2-6 3-5; Budi 1-2 + his six placements."""
    assert _deduced(REVEALED) == {0: {str(t) for t in _tiles(ANA)},
                                  1: {str(t) for t in _tiles(BUDI)}}


def test_without_a_reveal_only_who_went_out_is_known() -> None:
    """Neither went out (Ana laid 7 of 10, Budi 6 of 7) and only Budi shows
    his hand: Budi alone."""
    text = edit(HIDDEN, "score Ana 35", "reveal Budi 1-2\nscore Ana 35")
    assert _deduced(text) == {1: {str(t) for t in _tiles(BUDI)}}
    # Budi goes out with his last tile: 7 laid, none drawn.
    text = edit(HIDDEN, "Ana: d3-5 3-5L +15\n", "Ana: d3-5 3-5L +15\nBudi: 1-2R\n")
    assert _deduced(text) == {1: {str(t) for t in _tiles(BUDI)}}


def test_going_out_after_drawing() -> None:
    """Budi draws 1-5 and goes out laying it last: 8 tiles laid, 1 drawn,
    so his opening hand is the 7 others (legality is the replay's
    business, not the deduction's)."""
    text = edit(HIDDEN, "Ana: d3-5 3-5L +15\n",
                "Ana: d3-5 3-5L +15\nBudi: d1-5 1-2R\nAna: 4-4L\nBudi: 1-5R\n")
    assert _deduced(text) == {1: {str(t) for t in _tiles(BUDI)}}
    # One tile short of going out: nothing known of his end.
    text = edit(HIDDEN, "Ana: d3-5 3-5L +15\n", "Ana: d3-5 3-5L +15\nBudi: d1-5 1-2R\n")
    assert _deduced(text) == {}


def test_a_deduction_for_some_seats_reads_the_whole_round() -> None:
    """Asked for Ana alone, the turns of a player it was not asked about
    are passed over, and Ana's later lines still count."""
    (match,) = parse_text(REVEALED)
    found = deduce_round(match.body, 6, {"Ana": 0}, 7)
    assert found == {0: _tiles(ANA)}


@pytest.mark.parametrize(("old", "new", "expected"), [
    # A draw whose face is hidden: that seat's hand cannot be worked back.
    ("Ana: d0-4 d2-6 2-6R", "Ana: d?? d2-6 2-6R", {1}),
    # A drawn tile neither kept nor laid: no hand explains it.
    ("reveal Ana 4-4 1-1 0-4", "reveal Ana 4-4 1-1 5-6", {1}),
    # A reveal of too many tiles gives eight at the start.
    ("reveal Ana 4-4 1-1 0-4", "reveal Ana 4-4 1-1 0-4 5-6", {1}),
    # A tile twice: no hand of seven distinct tiles.
    ("reveal Ana 4-4 1-1 0-4", "reveal Ana 4-4 4-4 0-4", {1}),
    # The same tile in both hands: neither is trusted.
    ("reveal Budi 1-2", "reveal Budi 1-1", set()),
    # A deal line anywhere in the round: nothing to deduce.
    ("Budi: 6-6R", "deal Budi 5-0\nBudi: 6-6R", set()),
])
def test_what_spoils_a_deduction(old: str, new: str, expected: set[int]) -> None:
    assert set(_deduced(edit(REVEALED, old, new))) == expected


def test_a_deduction_reads_only_its_own_round() -> None:
    """Round 2 begins after Budi's 2-2R: round 1 then lacks the end of the
    record, round 2 has no reveal of Ana's."""
    text = edit(REVEALED, "Ana: d0-4 d2-6 2-6R", "round 2\nAna: d0-4 d2-6 2-6R")
    assert _deduced(text, 6) == {}
    line = text.splitlines().index("round 2") + 1
    assert _deduced(text, line) == {}  # Budi laid only 6-6R there, and holds 1-2


def _errors(text: str, path: Path | None = None) -> list[tuple[int, str, str]]:
    if path is None:
        (match,) = parse_text(text)
        result = replay_match(match, resolver_for(None))
        diags = result.diagnostics
    else:
        path.write_text(text, encoding="utf-8")
        diags = check_file(str(path)).diagnostics
    return [(d.line, d.code, d.message) for d in diags if d.severity is not Severity.INFO]


def test_deduced_hands_are_checked_as_if_dealt() -> None:
    """Without the reveals nothing is deduced, and the first placement says
    the hands are not checked (line 8, Ana's 5-5); with them both hands are
    worked out and every placement is checked against them."""
    def notes(text: str) -> list[tuple[int, str]]:
        (match,) = parse_text(text)
        return [(d.line, d.message) for d in replay_match(match, resolver_for(None)).diagnostics
                if d.code == "unverified"]
    held = ("round 1: hands are not in the record, so whether players held the tiles they "
            "placed is not checked (first: Ana's 5-5 here)")
    assert (8, held) in notes(HIDDEN)
    assert [n for n in notes(REVEALED) if "held the tiles" in n[1]] == []


HOUSE = "base: pagat\nlead_tile: highest-double\n"


def _house(tmp_path: Path, text: str) -> list[tuple[int, str, str]]:
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    text = edit(text, '[Rules "pagat"]', '[Rules "house.yaml"]')
    return _errors(text, tmp_path / "m.mgn")


def test_a_hidden_deal_led_by_the_highest_double(tmp_path: Path) -> None:
    """Round 1 under highest-double with the hands hidden: 5-5 may be the
    highest double dealt (not checked); 3-4 is no double at all; and the
    lead line names who leads."""
    found = _house(tmp_path, edit(HIDDEN, "Ana: 5-5 +10", "Ana: 3-4 +5"))
    assert (8, "wrong-leader", "round 1 opens with the highest double dealt, not 3-4") in found
    found = _house(tmp_path, edit(HIDDEN, "lead Ana", "lead Budi"))
    assert (8, "wrong-leader", "Budi leads round 1, not Ana") in found
    found = _house(tmp_path, HIDDEN)
    assert [f for f in found if f[1] == "wrong-leader"] == []


#: A round kept without deals in which neither hand holds a double: Ana
#: lays her seven tiles and goes out, Budi shows the one he kept (2-4), so
#: both deals are worked out (Ana 1-2 1-4 4-6 3-6 0-3 0-2 2-6, Budi 2-3 3-5
#: 5-0 0-1 1-5 5-6 2-4). Only 1-5R (ends 0 and 5) scores; Budi's 2-4 (6
#: pips) costs him 5 at the round's end.
NO_DOUBLE = """\
[Players "Ana, Budi"]
[Rules "pagat"]
[Result "*"]

round 1
lead Ana
Ana: 1-2
Budi: 2-3R
Ana: 1-4L
Budi: 3-5R
Ana: 4-6L
Budi: 5-0R
Ana: 6-3L
Budi: 0-1R
Ana: 3-0L
Budi: 1-5R +5
Ana: 0-2L
Budi: 5-6R
Ana: 2-6L
reveal Budi 2-4
score Ana 0, Budi 0
"""


def test_a_deal_worked_out_without_a_double(tmp_path: Path) -> None:
    """Under highest-double a deal without a double is dealt again: the
    hands the record gives away are checked as if dealt, so the round is
    bad-deal, at its ``round`` line as there is no deal line to point at.
    Under pagat, where any tile leads, the record is clean."""
    assert _errors(NO_DOUBLE) == []
    assert _house(tmp_path, NO_DOUBLE) == [
        (5, "bad-deal", "nobody is dealt a double in round 1; with the highest double "
         "leading, such a deal is dealt again")]


@pytest.mark.parametrize(("base", "old", "new", "expected"), [
    ("P", "Budi: 0-3R\n", "Budi: d0-4 0-3R\n",
     (14, "illegal-draw", "Budi drew 0-4 while holding 0-3, which fits R (0)")),
    # Ana's 2-3R left R showing 2: Budi holds 1-2 and 2-2 (a tile next to
    # its double, and a double), and names the lower.
    ("P", "Budi: 2-2R\n", "Budi: d0-4 2-2R\n",
     (20, "illegal-draw", "Budi drew 0-4 while holding 1-2, which fits R (2)")),
    ("P", "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d2-6 pass",
     (21, "drawn-tile-not-played", "Ana drew 2-6, which fits R (2), and must place it")),
    # 1-1 fits no end; the 2-6 she drew must go down, and R takes it.
    ("P", "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d2-6 1-1R",
     (21, "drawn-tile-not-played", "Ana drew 2-6, which fits R (2), and must place it, not "
      "1-1; read as 2-6, the tile drawn, which must go down")),
    ("P", "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d2-6 d3-5 2-6R",
     (21, "illegal-draw", "Ana drew again after drawing 2-6, which fits R (2)")),
    ("P", "Ana: d0-4 d2-6 2-6R", "Ana: d2-6 2-6R",
     (21, "illegal-draw", "Ana drew 2-6, which is not the next tile of the stock (0-4 is)")),
    # Nothing of hers fits (5, 2): the stock's 0-4 does not, 2-6 does.
    ("P", "Ana: d0-4 d2-6 2-6R", "Ana: pass",
     (21, "illegal-pass", "Ana passed while the stock has 14 tiles to draw; read as Ana: "
      "d0-4 d2-6 2-6R, which the rest of the round needs")),
    ("P", "Budi: 0-3R\n", "Budi: pass\n",
     (14, "illegal-pass", "Budi passed while the stock has 14 tiles to draw; read as Budi: "
      "0-3R, which the rest of the round needs")),
    ("P", "Ana: 5-5 +10\n", "Ana: pass\n",
     (11, "illegal-pass", "Ana passed on the round's first turn; any tile may open")),
    ("P", "Ana: 5-5 +10\n", "Ana: d0-4 5-5 +10\n",
     (11, "illegal-draw", "Ana drew on the round's first turn; any tile may open")),
    # A draw whose face is hidden takes the next tile of the stock all the same.
    ("P", "Budi: 0-3R\n", "Budi: d?? 0-3R\n",
     (14, "illegal-draw", "Budi drew while holding 0-3, which fits R (0)")),
    # A lone 5-5 shows 5 at both ends: Budi's 5-0 fits either.
    ("P", "Budi: 5-0R +10\n", "Budi: d0-4 5-0R +10\n",
     (12, "illegal-draw", "Budi drew 0-4 while holding 0-5, which fits L (5), R (5)")),
    # A tile Budi does not hold is read as the one of his a digit away that
    # fits where the line says (0-3 fits R, which shows 0); drawing the
    # stock's next tile, 0-4, instead is no reading: he holds 0-3, which fits.
    ("P", "Budi: 0-3R\n", "Budi: 0-4R\n",
     (14, "not-in-hand", "Budi places 0-4, which they do not hold (it is in the stock); "
      "did you mean 0-3?")),
    # 0-6 and 1-1 sit next to a tile held elsewhere (1-6 Ana's, 0-2 in the
    # stock) in the order of the set: the tile itself is looked for.
    ("P", "Budi: 0-3R\n", "Budi: 0-6R\n",
     (14, "not-in-hand", "Budi places 0-6, which they do not hold (it is in the stock); "
      "did you mean 0-3?")),
    ("P", "Budi: 0-3R\n", "Budi: 1-1R\n",
     # None of his tiles is a digit from 1-1 and fits: the one that fits R
     # and lets Ana's 3-4R follow, 0-3.
     (14, "not-in-hand", "Budi places 1-1, which they do not hold (Ana holds it); read as "
      "0-3, the tile of theirs the rest of the round bears out")),
    ("P", "Budi: 0-3R\n", "Budi: 3-0R\n", None),  # the same tile, halves either way
    ("P", "Budi: 0-3R\n", "Budi: 0-0R\n",
     (14, "not-in-hand", "Budi places 0-0, which they do not hold (it is already on the "
      "table); did you mean 0-3?")),
    ("P", "Budi: 0-3R\n", "Budi: 3-4R\n",
     (14, "not-in-hand", "Budi places 3-4, which they do not hold (Ana holds it); did you "
      "mean 3-0?")),
    ("P", "Budi: 0-3R\n", "Budi: 0-7R\n",
     (14, "not-in-hand", "0-7 is not in a double-6 set; did you mean 0-3?")),
    ("P", "Budi: 0-3R\n", "Budi: 0-3L\n",
     (14, "does-not-fit", "0-3 does not fit L, which shows 5; open ends: L=5, R=0; read as "
      "0-3R")),
    ("P", "Budi: 0-3R\n", "Budi: 0-3U\n",
     (14, "bad-end", "end U is not open (there is no spinner); open ends: L=5, R=0; read as "
      "0-3R")),
    # 1-2 and 1-3 both fit R (1); Ana's 2-3R after it needs the 3.
    ("P", "Budi: 1-3R\n", "Budi: 6-6\n", (18, "does-not-fit", "6-6 fits no open end (L=5, "
                                          "R=1); read as 1-3, the tile of theirs the rest of "
                                          "the round bears out")),
    ("P", "Ana: 5-5 +10\n", "Ana: 5-5L +10\n",
     (11, "bad-end", "the opening tile takes no end letter (5-5L)")),
    ("P", "Budi: 0-3R\n", "Budi: 0-3R +5\n",
     (14, "score-mismatch", "Budi claims 5; 0-3 scores 0 (the open ends add up to 13)")),
    ("S", "Budi: 0-2L +10\n", "Budi: 0-2L +20\n",
     # Taken as the rules say, +20 credits nothing; the muggins call of 5
     # and the score line (Budi 20) bear out +10, 20 with one digit wrong.
     (13, "score-mismatch", "Budi claims 20; 0-2 scores 15 (the open ends add up to 15); "
      "read as +10, which the totals after it bear out")),
    ("P", "Budi: 0-3R\n", "Budi: 0-3R\nAna: muggins +5\n",
     (15, "muggins-invalid",
      "rules 'pagat' have no muggins call; every placement scores by itself")),
    ("S", "Ana: muggins +5\n", "Ana: muggins +10\n",
     (14, "muggins-invalid", "Ana calls muggins for 10, but only 5 went unclaimed")),
    ("S", "Ana: muggins +5\n", "Budi: muggins +5\n",
     (14, "muggins-invalid", "Budi cannot call muggins on their own play")),
    ("S", "Ana: muggins +5\n", "Ana: muggins +5\nAna: muggins +5\n",
     (15, "muggins-invalid", "one muggins call at most follows a placement, and Ana called "
      "on line 14")),
    ("S", "Budi: 0-2L +10\nAna: muggins +5\n", "Budi: 0-2L +15\nAna: muggins +5\n",
     (14, "muggins-invalid", "nothing to take: Budi claimed all the play scored")),
    ("S", "Ana: muggins +5\n", "score Ana 10, Budi 20\nAna: muggins +5\n",
     (15, "muggins-invalid", "a muggins call must follow the turn it takes points from")),
    # Ana holds 0-0, Budi does not: her turn, written under his name.
    ("P", "Ana: 0-0R +10\n", "Budi: 0-0R +10\n", (13, "out-of-turn",
                                                  "it is Ana's turn, not Budi's; read as "
                                                  "Ana's turn")),
    ("P", "score Ana 35, Budi 10", "score Ana 35, Budi 15",
     (24, "total-mismatch", "Budi has 10, not 15")),
    ("P", "round 1\n", "round 2\n", (6, "bad-round", "expected round 1, got round 2")),
    ("P", "lead Ana\n", "lead Ana\nlead Ana\n", None),
])
def test_the_words_of_a_finding(base: str, old: str, new: str,
                                expected: tuple[int, str, str] | None) -> None:
    found = _errors(edit(PAGAT if base == "P" else SPINNER, old, new))
    if expected is None:
        assert [f for f in found if f[1] != "bad-round"] == []
    else:
        assert expected in found, found


def _all(text: str, path: Path | None = None) -> list[tuple[int, int, str, str, str]]:
    """Every finding, notes included, with its column and severity."""
    if path is None:
        (match,) = parse_text(text)
        diags = replay_match(match, resolver_for(None)).diagnostics
    else:
        path.write_text(text, encoding="utf-8")
        diags = check_file(str(path)).diagnostics
    return [(d.line, d.column, d.severity.name, d.code, d.message) for d in diags]


def test_a_draw_from_the_reserve(tmp_path: Path) -> None:
    """A reserve of 13 leaves one of PAGAT's 14 undealt tiles to draw: Ana's
    0-4 (line 21) is it, her 2-6 comes from an empty stock. Nothing left to
    draw, after Budi's 6-6R (ends 5 and 6-6) neither hand fits (Ana 4-4 1-1
    0-4, Budi 1-2): blocked, so Ana's 3-5L is a play after the round's end.
    Each loses their own hand rounded: Ana 14 → 15 (20 - 15 = 5), Budi 3 → 5
    (10 - 5 = 5)."""
    (tmp_path / "reserve.yaml").write_text("base: pagat\nplayers: [2]\nstock_reserve: 13\n",
                                           encoding="utf-8")
    text = edit(PAGAT, '[Rules "pagat"]', '[Rules "reserve.yaml"]')
    assert _all(text, tmp_path / "m.mgn") == [
        (21, 11, "ERROR", "illegal-draw", "Ana drew from an empty stock"),
        (23, 1, "ERROR", "after-round-end", "Ana plays after round 1 ended (the round was blocked)"),
        (24, 7, "ERROR", "total-mismatch", "Ana has 5, not 35"),
        (24, 15, "ERROR", "total-mismatch", "Budi has 5, not 10"),
    ]


def test_where_a_finding_of_a_draw_points() -> None:
    """At the draw's own token: Ana's d0-4 on the first turn (line 11,
    column 6); Ana's d3-5 after the fitting 2-6 (line 21, column 16)."""
    found = _all(edit(PAGAT, "Ana: 5-5 +10\n", "Ana: d0-4 5-5 +10\n"))
    assert found[0] == (11, 6, "ERROR", "illegal-draw",
                        "Ana drew on the round's first turn; any tile may open")
    found = _all(edit(PAGAT, "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d2-6 d3-5 2-6R"))
    assert found[0] == (21, 16, "ERROR", "illegal-draw",
                        "Ana drew again after drawing 2-6, which fits R (2)")


def test_a_draw_with_hidden_hands_is_noted_once_a_round() -> None:
    """HIDDEN (no deals): whether Ana could have played instead of drawing
    (line 18, her d0-4 at column 6) is not known; her draw of line 20 is not
    noted again. Her first placement is noted for the tiles held."""
    assert _all(HIDDEN) == [
        (8, 6, "INFO", "unverified", "round 1: hands are not in the record, so whether "
         "players held the tiles they placed is not checked (first: Ana's 5-5 here)"),
        (18, 6, "INFO", "unverified", "round 1: hands are not in the record, so whether a "
         "player could play instead of drawing is not checked (first: Ana here)"),
    ]


def test_the_spinners_sides_first(tmp_path: Path) -> None:
    """Under spinner_sides_first, U and D open once L and R hold a tile:
    Budi's 5-0U on the lone spinner 5-5 (line 11) is on no open end."""
    (tmp_path / "sides.yaml").write_text("base: spinner\nspinner_sides_first: true\n",
                                         encoding="utf-8")
    text = edit(edit(SPINNER, '[Rules "spinner"]', '[Rules "sides.yaml"]'),
                "Budi: 5-0L +10", "Budi: 5-0U +10")
    found = _errors(text, tmp_path / "m.mgn")
    # L and R both take it; Ana's 3-5R on the next line needs R to show 5.
    assert (11, "bad-end", "end U is not open (the spinner's U and D open once L and R hold "
            "a tile); open ends: L=5, R=5; read as 5-0L") in found


def test_a_line_before_any_round_is_placed_at_its_start() -> None:
    """A turn or a lead line before the first ``round`` line: bad-round at
    column 1 of that line."""
    (match,) = parse_text(edit(PAGAT, "round 1\n", "Ana: 5-5\nlead Budi\nround 1\n"))
    found = [(d.line, d.column, d.code, d.message)
             for d in replay_match(match, resolver_for(None)).diagnostics]
    said = "this line comes before any `round` line"
    assert (6, 1, "bad-round", said) in found and (7, 1, "bad-round", said) in found


def test_turn_events_show_a_hand_only_where_the_record_does() -> None:
    """PAGAT: Ana's first turn holds her deal, all of it choices; after her
    draws of 0-4 and 2-6 (line 21) only the fitting 2-6 may go down. Kept
    without deals and reveals, no event shows a hand or choices."""
    (match,) = parse_text(PAGAT)
    events = replay_match(match, resolver_for(None), collect_events=True).events
    first = events[0]
    assert (first.line, first.hand, first.choices) == (11, frozenset(_tiles(ANA)),
                                                       frozenset(_tiles(ANA)))
    drew = next(e for e in events if e.line == 21)
    assert drew.choices == frozenset({Tile.of(2, 6)}) and drew.draws == 2
    assert drew.hand == frozenset(_tiles({"4-4", "1-1", "0-4", "2-6"}))
    (match,) = parse_text(HIDDEN)
    events = replay_match(match, resolver_for(None), collect_events=True).events
    assert [e.hand for e in events] == [None] * 13
    assert {e.line: e.choices for e in events if e.choices is not None} == {
        18: frozenset({Tile.of(2, 6)}), 20: frozenset({Tile.of(3, 5)})}


def test_a_turn_event_in_full() -> None:
    """Budi's 0-3R (line 14, the round's 4th turn) on 5-5 5-0 0-0, with the
    six tiles he has left of his deal, for nothing: Ana had 20 (5-5 and
    0-0R, 10 each), Budi 10 (5-0R), 14 tiles in the stock. Passing there
    instead (and Ana after him, so that no other turn of his makes the
    round right), his hand is the same six, without a tile placed; a pass
    alone there is read as his 0-3R, which Ana's 3-4R needs."""
    from muggins_cli.engine.state import Place
    from muggins_cli.tiles import End

    (match,) = parse_text(PAGAT)
    events = replay_match(match, resolver_for(None), collect_events=True).events
    e = next(e for e in events if e.line == 14)
    hand = frozenset(_tiles(BUDI - {"5-0"}))
    assert (e.round, e.turn, e.seat, e.line, e.column) == (1, 4, 1, 14, 1)
    assert sorted(map(str, e.layout.tiles())) == ["0-0", "0-5", "5-5"]
    assert (e.hand, e.choices, e.draws) == (hand, hand, 0)
    assert (e.placed, e.points, e.scores_before, e.stock_left) == \
        (Place(Tile.of(0, 3), End.R), 0, (20, 10), 14)
    (match,) = parse_text(edit(PAGAT, "Budi: 0-3R\nAna: 3-4R\n", "Budi: pass\nAna: pass\n"))
    events = replay_match(match, resolver_for(None), collect_events=True).events
    e = next(e for e in events if e.line == 14)
    assert (e.placed, e.hand, e.points) == (None, hand, 0)
    (match,) = parse_text(edit(PAGAT, "Budi: 0-3R\n", "Budi: pass\n"))
    events = replay_match(match, resolver_for(None), collect_events=True).events
    e = next(e for e in events if e.line == 14)
    assert (e.placed, e.hand, e.points) == (Place(Tile.of(0, 3), End.R), hand, 0)


def test_positions_of_a_record() -> None:
    """PAGAT: before the first turn the hands are the deal lines, the stock
    its line, Ana to move, the unseen tiles the 21 she does not hold; before
    Budi's 0-3R (1.4) the table holds 5-5 5-0 0-0 and the score is 20 to 10;
    the record ends inside the round, whose end is 1.14, with no 1.15."""
    from muggins_cli.errors import InputError
    from muggins_cli.replay.replay import decisions, position_at, positions
    from muggins_cli.tiles import full_set

    (match,) = parse_text(PAGAT)
    resolve = resolver_for(None)
    seen = list(positions(match, resolve))
    assert [(p.round, p.turn) for p, _ in seen] == [(1, t) for t in range(1, 15)]
    first, item = seen[0]
    assert item is not None and item.line == 11
    assert first.hands == (frozenset(_tiles(ANA)), frozenset(_tiles(BUDI)))
    assert first.hand_sizes == (7, 7) and first.stock_count == 14 and first.to_move == 0
    assert [str(t) for t in first.stock or ()] == ["0-4", "2-6", "3-5", "1-5", "0-1", "2-4", "3-6", "0-6", "1-4", "3-3", "2-5", "4-5", "5-6", "0-2"]
    assert first.unseen == frozenset(full_set(6)) - frozenset(_tiles(ANA))
    assert (first.scores, first.target, first.layout.tiles(), first.drawn) == ((0, 0), 250, [], None)
    assert (first.round_over, first.winner, first.settlement, first.voids) == (False, None, None, ())
    last, after = seen[-1]
    assert after is None and not last.round_over
    at = position_at(match, resolve, "1.4")
    assert at.to_move == 1 and at.scores == (20, 10)
    assert sorted(map(str, at.layout.tiles())) == ["0-0", "0-5", "5-5"]
    assert at.hands[1] == frozenset(_tiles(BUDI - {"5-0"}))
    with pytest.raises(InputError, match=r"^the match has no position 1\.15$"):
        position_at(match, resolve, "1.15")
    drew = next(d for d in decisions(match, resolve) if d.turn.line == 21)
    assert drew.start is not None and drew.start.turn == drew.at.turn == 11
    assert drew.at.drawn == Tile.of(2, 6) and drew.start.drawn is None
    assert drew.at.hands[0] == frozenset(_tiles({"4-4", "1-1", "0-4", "2-6"}))
    assert drew.start.stock_count == 14 and drew.at.stock_count == 12


def test_where_the_match_was_decided() -> None:
    """SPINNER to 20: Budi's 0-2L (the 4th turn, +10) takes him from 10 to
    20, so the match is over at 1.5 and the muggins call after it is one
    line too many; the last position says so, and none follows it."""
    from muggins_cli.engine.scoring import EndReason
    from muggins_cli.errors import InputError
    from muggins_cli.replay.replay import position_at, positions

    text = edit(SPINNER, '[Result "*"]', '[Result "Budi"]\n[Target "20"]')
    (match,) = parse_text(text)
    resolve = resolver_for(None)
    seen = list(positions(match, resolve))
    last, item = seen[-1]
    assert item is None and (last.round, last.turn) == (1, 5)
    assert last.winner == 1 and last.ending is not None
    assert (last.ending.reason, last.ending.line, last.ending.scores) == \
        (EndReason.PLACEMENT, 14, (10, 20))
    assert position_at(match, resolve, "1.5").winner == 1
    with pytest.raises(InputError, match=r"no position 1\.6: it was over at 1\.5, when Budi "
                                         r"reached the target of 20$"):
        position_at(match, resolve, "1.6")


#: PAGAT without its stock line: the deals are known, a draw whose face
#: is hidden is not.
NO_STOCK = "\n".join(line for line in PAGAT.splitlines() if not line.startswith("stock ")) + "\n"


def _in_hand(tile: str) -> tuple[int, int, str, str, str]:
    return (20, 14, "INFO", "unverified", "round 1: hands are not in the record, so whether "
            f"players held the tiles they placed is not checked (first: Ana's {tile} here)")


@pytest.mark.parametrize(("play", "found"), [
    # Budi holds 1-2 (dealt): whatever Ana drew, it is not hers to lay. Of
    # the tiles her draws may have been, a digit from 1-2 and fitting R
    # (which shows 2), only 2-6 lets Budi's 6-6R follow: read as that, the
    # 2 kept where she wrote it; that she held it is then not known.
    ("1-2R", [(20, 14, "ERROR", "not-in-hand", "Ana places 1-2, which another player holds; "
               "did you mean 6-2?"), _in_hand("6-2")]),
    # 2-6 was dealt to nobody: one of her hidden draws may have been it.
    ("2-6R", [_in_hand("2-6")]),
])
def test_a_tile_a_hidden_draw_may_be(play: str, found: list[tuple[int, int, str, str, str]]
                                     ) -> None:
    """NO_STOCK, Ana's two draws of line 20 hidden (d??): she held no tile
    that fits before them; after the first, the second may have been drawn
    holding one. The rest of PAGAT then checks clean."""
    drew = (20, 10, "INFO", "unverified", "round 1: hands are not in the record, so whether "
            "a player could play instead of drawing is not checked (first: Ana here)")
    text = edit(NO_STOCK, "Ana: d0-4 d2-6 2-6R", f"Ana: d?? d?? {play}")
    assert _all(text) == [drew, *found]


@pytest.mark.parametrize(("play", "finding"), [
    ("0-7R", (14, 7, "ERROR", "not-in-hand", "0-7 is not in a double-6 set; did you mean 0-3?")),
    ("3-4R", (14, 7, "ERROR", "not-in-hand",
              "Budi places 3-4, which they do not hold (Ana holds it); did you mean 3-0?")),
])
def test_a_tile_that_is_not_there_is_read_as_the_one_meant(
        play: str, finding: tuple[int, int, str, str, str]) -> None:
    """Budi's tile on line 14 is not one he can hold: the one finding, at the
    tile, says which of his tiles it is read as (0-3, a digit away, fits R,
    which shows 0); the rest of the round, checked as before, is clean,
    and so are its score line's totals (35 to 10)."""
    assert _all(edit(PAGAT, "Budi: 0-3R\n", f"Budi: {play}\n")) == [finding]


def test_a_line_read_as_meant_still_has_its_turn_checked() -> None:
    """Budi's 0-0r (line 13) is a syntax error read as 0-0R, not a line
    lost: nothing was dropped before it, so it is still out of turn; Ana,
    whose turn it is, holds 0-0 and Budi does not, so it is read as hers,
    and the rest of PAGAT is clean."""
    found = _all(edit(PAGAT, "Ana: 0-0R +10\n", "Budi: 0-0r +10\n"))
    assert found == [
        (13, 1, "ERROR", "out-of-turn", "it is Ana's turn, not Budi's; read as Ana's turn"),
        (13, 7, "ERROR", "syntax", "'0-0r' is not MGN; end letters are upper case: did you "
         "mean '0-0R'?")]


@pytest.mark.parametrize(("old", "new", "line"), [
    ('[Result "*"]', '[Result "Ana"]', 4),  # at the tag
    ('[Result "*"]\n', "", 1),  # no tag: at the match's first line
])
def test_a_record_that_ends_before_the_match_does(old: str, new: str, line: int) -> None:
    """PAGAT stops inside round 1 at 35 to 10, far from pagat's 250."""
    assert _all(edit(PAGAT, old, new)) == [
        (line, 1, "WARNING", "unfinished", "the record ends inside round 1 before anyone "
         'reached 250; write [Result "*"] for an unfinished match')]


def test_the_words_after_the_match_was_decided() -> None:
    """SPINNER to 20, its Result left at *: Budi's 0-2L (line 14) took him
    to 20, so the tag is wrong, Ana's muggins call (line 15) is a play after
    the end and is not counted: the score line's 15 for Ana is 10."""
    text = edit(SPINNER, '[Result "*"]', '[Result "*"]\n[Target "20"]')
    assert _all(text) == [
        (3, 1, "ERROR", "result-mismatch", "Result is *, but Budi reached the target of 20"),
        (15, 1, "ERROR", "after-match-end", "a play after Budi reached the target of 20; "
         "the match was over (later lines are not checked)"),
        (16, 7, "ERROR", "total-mismatch", "Ana has 10, not 15"),
    ]


FAMILY = (Path(__file__).resolve().parent.parent / "records" / "family-pagat-3p.mgn"
          ).read_text(encoding="utf-8")


@pytest.mark.parametrize(("after", "expected"), [
    # Round 14 is blocked by Eko's 2-6L (line 380): nobody holds a 2, a 6 or
    # the ends' pips. The closing passes may follow, each seat once, in seat
    # order from the next one (Citra).
    ("Citra: pass\nDewi: pass\nEko: pass\n", []),
    ("Citra: pass\nCitra: pass\n",
     [(382, "after-round-end", "Citra plays after round 14 ended (the round was blocked)")]),
    ("Dewi: pass\n",
     [(381, "after-round-end", "Dewi plays after round 14 ended (the round was blocked)")]),
    ("Citra: pass\nDewi: pass\nEko: pass\nCitra: pass\n",
     [(384, "after-round-end", "Citra plays after round 14 ended (the round was blocked)")]),
    ("Citra: d1-2 pass\n",
     [(381, "after-round-end", "Citra plays after round 14 ended (the round was blocked)")]),
])
def test_closing_passes_after_a_block(after: str, expected: list[tuple[int, str, str]]) -> None:
    text = edit(FAMILY, "Eko: 2-6L\nreveal Citra 2-2\n", "Eko: 2-6L\n" + after + "reveal Citra 2-2\n")
    (match,) = parse_text(text)
    found = [(d.line, d.code, d.message) for d in
             replay_match(match, resolver_for(None)).diagnostics if d.code == "after-round-end"]
    assert found == expected
    columns = {d.column for d in replay_match(match, resolver_for(None)).diagnostics
               if d.code == "after-round-end"}
    assert columns <= {1}


#: PAGAT up to Budi's 2-2R (line 20) under a reserve of all 14 undealt
#: tiles: nothing may be drawn. Ana (4-4 1-1) passes, Budi lays 1-2R (ends
#: 5 and 1), Ana 1-1R (ends 5 and 1-1): Ana's 4-4 and Budi's 6-6 fit
#: neither, so Ana's placement blocks the round. Each loses their own hand
#: rounded: Ana 8 → 10 (20 - 10), Budi 12 → 10 (10 - 10).
BARE = dataclasses.replace(PAGAT_RULES, stock_reserve=14)
BLOCKED_BY_ANA = (PAGAT[:PAGAT.index("Ana: d0-4 d2-6 2-6R")]
                  + "Ana: pass\nBudi: 1-2R\nAna: 1-1R\nBudi: pass\nAna: pass\n"
                  + "score Ana 10, Budi 0\n")


def _bare(text: str, *visitors: ReplayVisitor) -> list[tuple[int, str, str]]:
    (match,) = parse_text(text)
    return [(d.line, d.code, d.message)
            for d in replay_match(match, lambda _spec: BARE, *visitors).diagnostics]


def test_closing_passes_after_a_block_by_the_first_seat() -> None:
    """Budi, then Ana, may each pass once after Ana's block; Budi's second
    pass is a play after the round's end."""
    assert _bare(BLOCKED_BY_ANA) == []
    text = edit(BLOCKED_BY_ANA, "Ana: pass\nscore", "Ana: pass\nBudi: pass\nscore")
    assert _bare(text) == [
        (26, "after-round-end", "Budi plays after round 1 ended (the round was blocked)")]


class _Moments(ReplayVisitor):
    """Every moment, as (where, round, turn, the line that follows, started)."""

    wants_moments = True

    def __init__(self) -> None:
        self.seen: list[tuple[At, int, int, int | None, bool]] = []

    def moment(self, m: Moment) -> bool:
        self.seen.append((m.at, m.round, m.turn, m.item.line if m.item else None, m.started))
        return True


def test_the_moments_a_visitor_is_told() -> None:
    """BLOCKED_BY_ANA: before each of its 13 turns (the hands set up from
    the second on), then the two closing passes after the block (turns 14
    and 15 of round 1), then the round's end at the record's end (the
    score line is no moment). SPINNER to 20: once Budi's 0-2L (line 14, the
    4th turn) decided the match, every later line and the end are the
    position where it was decided, 1.5."""
    seen = _Moments()
    _bare(BLOCKED_BY_ANA, seen)
    assert seen.seen == [(At.TURN, 1, 1, 11, False)] + [
        (At.TURN, 1, t, 10 + t, True) for t in range(2, 14)] + [
        (At.ENDED_TURN, 1, 14, 24, True), (At.ENDED_TURN, 1, 15, 25, True),
        (At.ROUND_END, 1, 16, None, True)]
    seen = _Moments()
    (match,) = parse_text(edit(SPINNER, '[Result "*"]', '[Result "Budi"]\n[Target "20"]'))
    replay_match(match, resolver_for(None), seen)
    assert seen.seen == [(At.TURN, 1, 1, 11, False)] + [
        (At.TURN, 1, t, 10 + t, True) for t in range(2, 5)] + [
        (At.OVER, 1, 5, 15, True), (At.OVER, 1, 5, 16, True), (At.OVER, 1, 5, None, True)]


def test_a_play_after_someone_went_out() -> None:
    """Round 1 ends when Citra lays her last tile (line 31)."""
    text = edit(FAMILY, "Citra: 3-3R\nreveal Dewi", "Citra: 3-3R\nDewi: pass\nreveal Dewi")
    assert (32, "after-round-end", "Dewi plays after round 1 ended (Citra went out)") \
        in _errors(text)


def test_the_rules_as_ints() -> None:
    """engine/keys.py's R_* fields, from the presets' YAML: pagat (no spinner,
    fives, must play, deduct-own to 5, nearest, at-target, no muggins, 28
    tiles, any lead), spinner (a spinner, lightest-bonus divided by 5, the
    muggins call), and a house rules file with every other value."""
    from muggins_cli.engine.keys import max_place, rule_ints
    from muggins_cli.rules.loader import load_preset

    assert rule_ints(load_preset("pagat")) == (6, 0, 0, 0, 5, 0, 1, 0, 0, 5, 1, 0, 1, 0, 28, 0)
    assert rule_ints(load_preset("spinner")) == (6, 1, 0, 0, 5, 0, 1, 0, 1, 5, 5, 0, 1, 1, 28, 0)
    # The most one placement scores: the open ends add up to at most 24 on a
    # line (two 6-6 ends) and 48 with a spinner's four; the best multiple of
    # 5 below is 20 and 45, of 3 (all-threes) 48 itself.
    assert max_place(rule_ints(load_preset("pagat"))) == 20
    assert max_place(rule_ints(load_preset("spinner"))) == 45
    assert max_place(rule_ints(load_preset("all-threes"))) == 48


def test_the_rules_as_ints_of_a_house_file(tmp_path: Path) -> None:
    from muggins_cli.engine.keys import max_place, rule_ints

    (tmp_path / "house.yaml").write_text(
        "base: spinner\nmax_pip: 9\nhand_size: {2: 9, 3: 7, 4: 7}\nspinner_sides_first: true\n"
        "spinner_count: until-sides-covered\nscore_value: multiples\nmust_play: false\n"
        "stock_reserve: 2\nround_end: winner-takes\nrounding: up\nmatch_end: round-end\n"
        "muggins: false\nlead_tile: highest-double\nbonus_divisor: 1\nmodulus: 5\n",
        encoding="utf-8")
    rules = resolver_for(str(tmp_path / "m.mgn"))("house.yaml")
    # A double-nine set: 55 tiles; four 9-9 ends add up to 72, 70 / 5 = 14.
    assert rule_ints(rules) == (9, 1, 1, 1, 5, 1, 0, 2, 2, 5, 1, 2, 0, 0, 55, 1)
    assert max_place(rule_ints(rules)) == 14


RECORDS = Path(__file__).resolve().parent.parent / "records"


def _positions(path: Path) -> list[tuple[object, object]]:
    from muggins_cli.check import record_resolver
    from muggins_cli.replay.replay import positions

    (match,) = parse_text(path.read_text(encoding="utf-8"))
    return list(positions(match, record_resolver(str(path))))


def test_round_ends_and_what_they_hold() -> None:
    """family-pagat-3p, round 1: Citra goes out with 3-3R (line 31); the
    round's end is followed by the ``round 2`` line (36); under pagat's
    deduct-own each loses their hand rounded to 5: Dewi 0-0 0-5 4-4 (13 ->
    15), Eko 0-3 1-1 1-3 1-5 3-5 (23 -> 25)."""
    seen = _positions(RECORDS / "family-pagat-3p.mgn")
    end, item = next((p, i) for p, i in seen if p.round_over)  # type: ignore[attr-defined]
    assert (end.round, item.line) == (1, 36)  # type: ignore[attr-defined]
    assert end.settlement == (0, -15, -25)  # type: ignore[attr-defined]
    assert end.winner is None  # type: ignore[attr-defined]


def test_a_match_decided_at_a_rounds_end() -> None:
    """fives-round-end-2p: under match_end round-end the match is decided by
    the last settlement (Ketut, as its Result tag says): the last position
    is that round's end and names him, and why."""
    from muggins_cli.engine.scoring import EndReason

    last, item = _positions(RECORDS / "fives-round-end-2p.mgn")[-1]
    assert item is None
    assert last.round_over and last.winner == 1  # type: ignore[attr-defined]
    assert last.ending.reason is EndReason.ROUND_END  # type: ignore[attr-defined]


def test_the_highest_double_to_lead_is_in_the_opening_position() -> None:
    """highest-double-3p round 1: Eko is dealt 6-6, the highest double, and
    must open with it; once it is down no lead tile is due."""
    seen = _positions(RECORDS / "highest-double-3p.mgn")
    assert seen[0][0].lead_tile == Tile.of(6, 6)  # type: ignore[attr-defined]
    assert seen[1][0].lead_tile is None  # type: ignore[attr-defined]


def test_hidden_hands_and_passed_over_placements_in_a_position() -> None:
    """Without deals no hand is shown and there is no stock order; with
    them, before Budi's 0-3R (1.4) the placements chosen since each seat
    last drew are Budi's 5-0R and Ana's 0-0R (a round's lead is not kept)."""
    from muggins_cli.replay.replay import position_at, positions

    (match,) = parse_text(HIDDEN)
    for pos, _ in positions(match, resolver_for(None)):
        assert pos.hands == (None, None) and pos.stock is None
    (match,) = parse_text(PAGAT)
    at = position_at(match, resolver_for(None), "1.4")
    assert [(s, str(t), e.value if e else None) for s, _, t, e in at.placed] == \
        [(1, "0-5", "R"), (0, "0-0", "R")]


def test_positions_at_a_closing_pass_and_at_a_rounds_end() -> None:
    """family round 14: Eko's blocking 2-6L is its 26th turn line (line 380),
    then Citra's closing pass: 14.27 is before it (the round over, Citra to
    move), 14.28 the round's end; family round 1 has 18 turn lines, so 1.19
    is its end."""
    from muggins_cli.replay.replay import position_at

    text = edit(FAMILY, "Eko: 2-6L\nreveal Citra 2-2\n", "Eko: 2-6L\nCitra: pass\nreveal Citra 2-2\n")
    (match,) = parse_text(text)
    resolve = resolver_for(str(RECORDS / "x.mgn"))
    before = position_at(match, resolve, "14.27")
    assert before.round_over and (before.round, before.turn, before.to_move) == (14, 27, 0)
    assert not position_at(match, resolve, "14.26").round_over
    assert position_at(match, resolve, "14.28").round_over
    assert position_at(match, resolve, "1.19").round_over


def test_a_rules_key_holds_pips_up_to_99() -> None:
    import dataclasses

    from muggins_cli.engine.keys import R_MAX_PIP, R_N_TILES, rule_ints

    r = rule_ints(dataclasses.replace(PAGAT_RULES, max_pip=99))
    assert (r[R_MAX_PIP], r[R_N_TILES]) == (99, 5050)
    with pytest.raises(ValueError, match=r"^max_pip 100 is above 99$"):
        rule_ints(dataclasses.replace(PAGAT_RULES, max_pip=100))


def test_may_draw_only_when_nothing_fits_and_the_stock_has_one() -> None:
    from muggins_cli.engine import turn
    from muggins_cli.engine.keys import EMPTY, lead_key, rule_ints

    r = rule_ints(PAGAT_RULES)
    line = lead_key(r, 3, 4)
    fit = 1 << Tile.of(3, 5).index()
    other = 1 << Tile.of(1, 2).index()
    assert turn.may_draw(r, line, other, fit, 1)
    assert not turn.may_draw(r, line, fit, fit, 1)
    assert not turn.may_draw(r, line, other, fit, 0)
    assert not turn.may_draw(r, EMPTY, other, fit, 1)
    assert turn.call_fault((*r[:13], 1, *r[14:]), False, 0, 1, 1, 1) == turn.CALL_OK


def test_a_round_end_settled_where_the_record_ends() -> None:
    """fives-round-end-2p without its last reveal and score lines: the last
    round is settled only at the record's end, and that settlement decides
    the match (Ketut, as the Result tag says): the round's end position,
    taken before the settlement, still names the winner and why."""
    from muggins_cli.check import record_resolver
    from muggins_cli.engine.scoring import EndReason
    from muggins_cli.replay.replay import positions

    path = RECORDS / "fives-round-end-2p.mgn"
    text = edit(path.read_text(encoding="utf-8"),
                "reveal Wayan 4-4\nscore Wayan 150, Ketut 195\n", "")
    (match,) = parse_text(text)
    last, item = list(positions(match, record_resolver(str(path))))[-1]
    assert item is None and last.round_over and last.settlement is None
    assert last.winner == 1 and last.ending is not None
    assert last.ending.reason is EndReason.ROUND_END
