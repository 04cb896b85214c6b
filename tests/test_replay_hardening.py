"""Replay hardening: player names spelled with inner runs of
blanks, muggins calls in the wrong place, and blocked rounds inferred under
a stock reserve. Every expected total is worked by hand in the comments."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.notation.model import Severity
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import positions, replay_match
from muggins_cli.replay.values import MatchReplay
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules
from muggins_cli.rules.resolve import resolver_for
from tests.records import AMBIGUOUS, CLUB_FIRST


def replay(text: str, rules: Rules | None = None) -> MatchReplay:
    (match,) = parse_text(text)
    if rules is None:
        return replay_match(match, resolver_for(None))
    return replay_match(match, lambda _spec: rules)


def errors(result: MatchReplay) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in result.diagnostics if d.severity is Severity.ERROR]


# ---------------------------------------------------------------------------
# 2. Names: one spelling, the notation layer's


SPACED = """\
[Players "Putu  Ayu, Ketut"]
[Rules "pagat"]
[Result "*"]

round 1
lead Putu Ayu
deal Putu Ayu 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Ketut 5-0 1-2 6-6 0-3 2-2 4-6 1-3
stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2
Putu Ayu: 5-5 +10
Ketut: 5-0R +10
Putu  Ayu: 0-0R +10
score Putu Ayu 20, Ketut 10
"""


def test_inner_blanks_in_a_players_name_replay_like_one_space() -> None:
    # 5-5 alone: 10; 5-0 on the right: 5 + 5 + 0 = 10; 0-0 on the 0: 5 + 5 + 0 + 0 = 10.
    result = replay(SPACED)
    assert result.diagnostics == []
    assert result.summary.players == ["Putu Ayu", "Ketut"]
    assert result.summary.scores == {"Putu Ayu": 20, "Ketut": 10}


def test_a_tab_inside_a_name_is_one_space_too() -> None:
    text = SPACED.replace('"Putu  Ayu, Ketut"', '"Putu\tAyu ,  Ketut "')
    result = replay(text)
    assert result.summary.players == ["Putu Ayu", "Ketut"]
    assert result.summary.scores == {"Putu Ayu": 20, "Ketut": 10}


def test_selfplay_names_are_split_and_spelled_as_the_notation_does(tmp_path: Path) -> None:
    out = tmp_path / "g.mgn"
    result = CliRunner().invoke(app, ["selfplay", "--names", " Putu  Ayu ,Ketut\t", "--seed", "1",
                                      "--matches", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert '[Players "Putu Ayu, Ketut"]' in text
    assert "\nPutu Ayu: " in text and "Putu  Ayu" not in text


# ---------------------------------------------------------------------------
# 3. One muggins call at most, on the line right after the placement

# Spinner: Ana leads 5-5 and claims nothing, so the 10 it scores is left for
# the taking.
THREE = """\
[Players "Ana, Budi, Citra"]
[Rules "spinner"]
[Result "*"]

round 1
lead Ana
Ana: 5-5
"""


def test_a_second_call_on_the_same_placement_is_invalid() -> None:
    result = replay(THREE + "Budi: muggins +5\nCitra: muggins +5\nscore Ana 0, Budi 5, Citra 0\n")
    assert errors(result) == [(9, "muggins-invalid")]
    assert result.summary.scores == {"Ana": 0, "Budi": 5, "Citra": 0}


def test_the_same_caller_cannot_call_twice() -> None:
    result = replay(THREE + "Budi: muggins +5\nBudi: muggins +5\nscore Ana 0, Budi 5, Citra 0\n")
    assert errors(result) == [(9, "muggins-invalid")]
    assert result.summary.scores["Budi"] == 5


def test_a_call_after_the_placers_own_call_is_invalid() -> None:
    result = replay(THREE + "Ana: muggins +5\nBudi: muggins +5\nscore Ana 0, Budi 0, Citra 0\n")
    assert errors(result) == [(8, "muggins-invalid"), (9, "muggins-invalid")]
    assert result.summary.scores == {"Ana": 0, "Budi": 0, "Citra": 0}


def test_a_call_after_a_score_line_is_invalid() -> None:
    result = replay(THREE + "score Ana 0, Budi 0, Citra 0\nBudi: muggins +5\n")
    assert errors(result) == [(9, "muggins-invalid")]
    assert result.summary.scores["Budi"] == 0


def test_the_message_names_the_call_already_made() -> None:
    result = replay(THREE + "Budi: muggins +5\nCitra: muggins +5\n")
    (bad,) = [d for d in result.diagnostics if d.code == "muggins-invalid"]
    assert (bad.line, bad.column) == (9, 1)
    assert "line 8" in bad.message and "Budi" in bad.message


# ---------------------------------------------------------------------------
# 4. A blocked round is inferred once the stock is down to its reserve

# Pagat with 12 tiles that may never be drawn: two players are dealt 14 of
# the 28 tiles, so only 2 of the 14 undealt ones can be drawn. Budi draws
# both, and the record (kept without deals) goes on to round 2 without the
# closing passes: the stock is exhausted, so the round may have been blocked.
RESERVED = dataclasses.replace(load_preset("pagat"), name="reserve-12", stock_reserve=12)
KEPT = """\
[Players "Ana, Budi"]
[Result "*"]

round 1
lead Ana
Ana: 5-5 +10
Budi: d?? d?? 5-0R +10
Ana: 0-0R +10
"""


def test_blocked_round_is_inferred_at_the_reserve_before_a_new_round() -> None:
    result = replay(KEPT + "round 2\nlead Budi\nBudi: 6-6\n", RESERVED)
    assert errors(result) == []
    blocked = [d for d in result.diagnostics
               if d.code == "unverified" and "taken as blocked" in d.message]
    assert [d.line for d in blocked] == [9]


def test_blocked_round_is_inferred_at_the_reserve_before_a_reveal() -> None:
    result = replay(KEPT + "reveal Ana 1-2 1-3 1-4 1-5 1-6\n", RESERVED)
    assert [c for c in errors(result) if c[1] == "reveal-mismatch"] == []


def test_above_the_reserve_a_new_round_is_still_too_early() -> None:
    # Only one of the two drawable tiles was drawn: the stock is not exhausted.
    text = KEPT.replace("d?? d?? 5-0R", "d?? 5-0R") + "round 2\nlead Budi\n"
    assert errors(replay(text, RESERVED)) == [(9, "bad-round")]



# ---------------------------------------------------------------------------
# Memory in proportion to the record: what every position holds is bounded


def test_every_position_of_a_round_of_passes_holds_a_few_voids() -> None:
    """4,000 passes after the lead: every position holds the voids the
    passes showed, one per seat (each pass shows the same open end, 6), not
    one per pass, which made the positions of a long record grow with the
    square of its turns."""
    head = CLUB_FIRST[: CLUB_FIRST.index("Budi: 4-6R")]
    body = "".join("Budi: pass\n" if i % 2 == 0 else "Ana: pass\n" for i in range(4000))
    (match,) = parse_text(head + body)
    seen = [pos for pos, _ in positions(match, resolver_for(None))]
    assert len(seen) == 4002  # before the lead, before each pass, and the round's end
    assert max(len(pos.voids) for pos in seen) == 2
    assert {(v.seat, v.pips) for v in seen[-1].voids} == {(0, frozenset({6})),
                                                          (1, frozenset({6}))}
    # What does not change from one pass to the next (the unseen tiles: one
    # pass by each seat) is held once, not copied into each position.
    a, b = seen[100], seen[102]
    assert a.hands == b.hands and a.unseen == b.unseen and a.stock == b.stock
    assert a.hands is b.hands and a.unseen is b.unseen and a.stock is b.stock
    assert a.voids is b.voids and a.scores is b.scores


# ---------------------------------------------------------------------------
# An end letter left out where two ends fit: the end the record needs




def test_a_missing_end_is_taken_where_the_next_plays_need_it() -> None:
    """3-6 fits both ends of 3-3. Laid on L, Ana's 6-2R (line 12) and then
    Budi's 2-2R would not fit: only R lets the record go on, so R is taken
    and the one error is the missing letter. Scores (the lone 3-3 counts 6
    on the L end): 3-6R 6 + 6 = 12, 6-2R 6 + 2 = 8, 2-2R 6 + 4 = 10 for
    Budi."""
    result = replay(AMBIGUOUS)
    assert errors(result) == [(11, "ambiguous-end")]
    (diag,) = [d for d in result.diagnostics if d.code == "ambiguous-end"]
    assert diag.message == ("3-6 fits L and R; taken as R, which the play on line 12 "
                            "needs; write the end: 3-6R")
    assert result.summary.scores == {"Ana": 0, "Budi": 10}


def test_a_missing_end_nothing_later_decides_says_which_end_was_taken() -> None:
    """Without the lines after it, nothing tells L from R: the first end is
    taken, and the message says so."""
    text = AMBIGUOUS[: AMBIGUOUS.index("Ana: 6-2R")]
    result = replay(text)
    assert errors(result) == [(11, "ambiguous-end")]
    (diag,) = [d for d in result.diagnostics if d.code == "ambiguous-end"]
    assert diag.message == ("3-6 fits L and R; taken as L, as nothing later tells which; "
                            "write the end, e.g. 3-6L")


def test_a_missing_end_the_record_contradicts_either_way_keeps_the_later_error() -> None:
    """Ana's next play, 1-4R, fits neither choice (R shows 3 or 6): it
    decides nothing, L is taken, and 1-4R is an error of its own."""
    text = AMBIGUOUS.replace("Ana: 6-2R\nBudi: 2-2R\n", "Ana: 1-4R\n")
    result = replay(text)
    assert errors(result) == [(11, "ambiguous-end"), (12, "does-not-fit")]


#: AMBIGUOUS up to Budi's 3-6 without its end (line 11): laid on L the
#: ends show 6 and 3-3, laid on R 3-3 and 6.
UNDECIDED = AMBIGUOUS.replace("Ana: 6-2R\nBudi: 2-2R\n", "")


@pytest.mark.parametrize(("after", "message"), [
    # Ana's 5-6 joins the 6 either way (L or R): both stay possible, and
    # Budi's 5-5R fits only where R shows her 5, after 3-6 on R.
    ("Ana: 5-6\nBudi: 5-5R\n", "taken as R, which the play on line 13 needs"),
    # A score line and passes say nothing of the layout: the plays after
    # them still decide.
    ("score Ana 0, Budi 0\nAna: 5-6\nBudi: 5-5R\n",
     "taken as R, which the play on line 14 needs"),
    ("Ana: pass\nBudi: pass\nAna: 5-6\nBudi: 5-5R\n",
     "taken as R, which the play on line 15 needs"),
    # The next round's plays are on another layout; a tile off the set
    # decides nothing.
    ("round 2\nlead Ana\nAna: 6-2R\nBudi: 2-2R\n", "taken as L, as nothing later tells which"),
    ("Ana: 6-7R\nBudi: 2-2R\n", "taken as L, as nothing later tells which"),
])
def test_what_the_lines_after_a_missing_end_tell(after: str, message: str) -> None:
    (diag,) = [d for d in replay(UNDECIDED + after).diagnostics if d.code == "ambiguous-end"]
    assert (diag.line, diag.message.split("; ")[1]) == (11, message)


@pytest.mark.parametrize(("claim", "told"), [
    (" +10", "taken as L, which the claim +10 needs; write the end: 2-5L"),
    ("", "taken as L, which the play on line 10 needs; write the end: 2-5L"),
])
def test_a_later_play_that_is_itself_ambiguous_still_tells(claim: str, told: str) -> None:
    """2-3 led, 3-5R: the ends show 2 and 5. 2-5 fits both: on L the ends
    show 5 and 5 (10), on R 2 and 2 (4, nothing). Its claim of 10 fits L
    alone. Without it, Budi's 1-5 tells: it fits both ends after 2-5L
    (either way, itself ambiguous) and no end after 2-5R, so only L lets it
    fit; it is then its own ambiguous-end, taken as L as nothing after it
    tells, and never does-not-fit."""
    text = ('[Players "Ana, Budi"]\n[Rules "pagat"]\n[Result "*"]\n\nround 1\nlead Ana\n'
            f"Ana: 2-3 +5\nBudi: 3-5R\nAna: 2-5{claim}\nBudi: 1-5\n")
    assert [(d.line, d.code, d.message) for d in replay(text).diagnostics
            if d.severity is not Severity.INFO] == [
        (9, "ambiguous-end", f"2-5 fits L and R; {told}"),
        (10, "ambiguous-end", "1-5 fits L and R; taken as L, as nothing later tells which; "
                              "write the end, e.g. 1-5L")]


