"""What follows a round's play, as `muggins check` reports it: a
settlement that hidden hands leave unknown, the hands revealed, score lines
taken after a turn set aside, and the Result tag.

Every expected finding and total is worked out by hand from the record
and docs/rules.md; the numbers are in each case's docstring.
"""

from __future__ import annotations

from pathlib import Path

from muggins_cli.engine.scoring import EndReason
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.values import MatchEnding, MatchReplay
from muggins_cli.rules.resolve import resolver_for
from tests.test_check import PAGAT, SPINNER, edit
from tests.test_faults_cases import HIDDEN, NO_DRAW, cut
from tests.test_recovery import OUT, ROUND_2

Finding = tuple[int, int, str, str, str]


def replay(text: str, path: Path | None = None) -> MatchReplay:
    """The replay of a one-match record (``path``: where it lies, for a
    rules file named beside it)."""
    (match,) = parse_text(text)
    return replay_match(match, resolver_for(str(path) if path is not None else None))


def found(result: MatchReplay) -> list[Finding]:
    return [(d.line, d.column, d.severity.name, d.code, d.message) for d in result.diagnostics]


#: tests/data/conformance/clean/clean-0076.mgn (spinner, three players,
#: five tiles each) without its deal and stock lines. Wayan goes out with
#: 6-6 (dealt 5, drew 1-3 and 3-6, laid 7), so his hand is worked out from
#: the round; Budi ends holding 1-4 (dealt 1-5 4-1 6-5 3-3 0-0, drew 5-5
#: 0-2, laid six) and Eko 4-4 (dealt 3-4 1-2 0-4 4-4 3-5, drew 0-3 2-5,
#: laid six), which the record does not show. Settled, Wayan's empty hand
#: is the lightest: 5 + 8 = 13 pips of the others, 15 rounded, / 5 = 3,
#: so Wayan 5 + 3 = 8.
SPIN = """\
[Event "Practice"]
[Date "2026-05-08"]
[Players "Budi, Wayan, Eko"]
[Rules "spinner"]
[Result "*"]

round 1
lead Wayan
Wayan: 3-2 +5
Eko: 1-2
Budi: 1-5
Wayan: d1-3 1-3
Eko: 5-3
Budi: 3-3
Wayan: 1-0
Eko: 4-3R +10
Budi: 0-0 +10
Wayan: 6-4
Eko: 0-4
Budi: 5-6 +15
Wayan: 4-2
score Budi 25, Wayan 5, Eko 10
Eko: d0-3 3-0U +10
Budi: d5-5 5-5 +15
Wayan: d3-6 3-6
Eko: d2-5 5-2R +10
Budi: d0-2 0-2R
Wayan: 6-6
score Budi 40, Wayan 8, Eko 30
"""

#: The notes every version of SPIN gives: the first placement of a hand
#: not known (Eko's 1-2, line 10) and the first draw by such a hand (Eko's
#: d0-3, line 23); the lines move up one without the Result tag.
IN_HAND = ("round 1: hands are not in the record, so whether players held the tiles they "
           "placed is not checked (first: Eko's 1-2 here)")
DRAWING = ("round 1: hands are not in the record, so whether a player could play instead "
           "of drawing is not checked (first: Eko here)")
UNSETTLED = ("round 1: the hands left at the end are not all in the record (no deal or "
             "reveal lines), so the round-end settlement is not computed")


def test_a_settlement_that_needs_hidden_hands() -> None:
    """Budi's and Eko's last tiles are not shown: the settlement is not
    computed (said at the round's line, 7), and the score line's 8 for
    Wayan, which the replay cannot check, is taken as written."""
    result = replay(SPIN)
    assert found(result) == [
        (7, 1, "INFO", "unverified", UNSETTLED),
        (10, 6, "INFO", "unverified", IN_HAND),
        (23, 6, "INFO", "unverified", DRAWING),
        (29, 1, "INFO", "unverified", "the totals cannot be recomputed (a settlement needed "
         "hidden hands); the score line is taken as written"),
    ]
    assert result.summary.scores == {"Budi": 40, "Wayan": 8, "Eko": 30}


def test_a_score_line_that_needs_no_settlement_is_checked() -> None:
    """Totals that are the play's alone (Wayan 5) are the replay's own:
    nothing to say of them; the next score line is checked again."""
    text = edit(SPIN, "score Budi 40, Wayan 8, Eko 30\n",
                "score Budi 40, Wayan 5, Eko 30\nscore Budi 40, Wayan 6, Eko 30\n")
    assert found(replay(text)) == [
        (7, 1, "INFO", "unverified", UNSETTLED),
        (10, 6, "INFO", "unverified", IN_HAND),
        (23, 6, "INFO", "unverified", DRAWING),
        (30, 16, "ERROR", "total-mismatch", "Wayan has 5, not 6"),
    ]


def test_both_hands_revealed_settle_the_round() -> None:
    """Budi shows 1-4, Eko 4-4: every opening hand is then worked back
    (the hand at the end + laid - drawn), so nothing is left unchecked, and
    the settlement gives Wayan 8, as the record says."""
    text = edit(SPIN, "score Budi 40, Wayan 8", "reveal Budi 4-1\nreveal Eko 4-4\n"
                "score Budi 40, Wayan 8")
    result = replay(text)
    assert found(result) == []
    assert result.summary.scores == {"Budi": 40, "Wayan": 8, "Eko": 30}
    # A wrong total is then an error.
    text = edit(text, "Wayan 8", "Wayan 13")
    assert (31, 16, "ERROR", "total-mismatch", "Wayan has 8, not 13") in found(replay(text))


def test_a_reveal_that_cannot_be_the_hand() -> None:
    """Budi holds one tile, none of it shown: two tiles cannot be it."""
    text = edit(SPIN, "score Budi 40, Wayan 8", "reveal Budi 4-1 4-4\nscore Budi 40, Wayan 8")
    assert (29, 1, "ERROR", "reveal-mismatch",
            "Budi cannot hold 1-4 4-4 (they hold 1 tiles, known: none)") in found(replay(text))


def test_without_a_result_tag_whether_anyone_won_is_not_known() -> None:
    """No score line after the round and no Result tag: the totals wait on
    the hidden hands, so whether anyone reached 200 (the spinner target
    for three) is not known; said at the record's first line."""
    text = edit(edit(SPIN, "score Budi 40, Wayan 8, Eko 30\n", ""), '[Result "*"]\n', "")
    result = replay(text)
    assert found(result) == [
        (1, 1, "INFO", "unverified", "the totals depend on hidden hands, so whether anyone "
         "reached 200 is not known"),
        (6, 1, "INFO", "unverified", UNSETTLED),
        (9, 6, "INFO", "unverified", IN_HAND),
        (22, 6, "INFO", "unverified", DRAWING),
    ]
    assert result.summary.winner is None


def test_the_result_tag_names_the_winner_of_hidden_totals() -> None:
    text = edit(edit(SPIN, "score Budi 40, Wayan 8, Eko 30\n", ""), '[Result "*"]',
                '[Result "Budi"]')
    result = replay(text)
    assert found(result)[0] == (5, 1, "INFO", "unverified", "the totals depend on hidden "
                                "hands, so that Budi won is taken from the Result tag, not "
                                "recomputed")
    assert result.summary.winner == "Budi"


#: PAGAT with Budi's hand shown (line 24) before the round ended (Budi
#: still holds 1-2, Ana 4-4 1-1 0-4): the replay's round is set aside and
#: the totals are the next score line's (line 25).
LOOSE = edit(PAGAT, "score Ana 35, Budi 10", "reveal Budi 1-2\nscore Ana 35, Budi 10")
EARLY = (24, 1, "ERROR", "reveal-mismatch", "reveal before round 1 ended")


def test_totals_taken_after_a_turn_set_aside() -> None:
    result = replay(LOOSE)
    assert found(result) == [EARLY]
    assert result.summary.scores == {"Ana": 35, "Budi": 10}
    assert result.summary.winner is None and result.ending is None


def test_totals_taken_that_reach_the_target() -> None:
    """Ana 250 is pagat's target for two: she won by the score line's
    totals, which the Result tag * contradicts."""
    result = replay(edit(LOOSE, "score Ana 35", "score Ana 250"))
    assert found(result) == [
        (4, 1, "ERROR", "result-mismatch", "Result is *, but Ana reached the target of 250"),
        EARLY,
    ]
    assert result.summary.winner == "Ana"
    assert result.ending == MatchEnding(0, EndReason.PLACEMENT, 1, 25, (250, 10), 250)
    named = replay(edit(edit(LOOSE, "score Ana 35", "score Ana 250"), '[Result "*"]',
                        '[Result "Budi"]'))
    assert found(named)[0] == (4, 1, "ERROR", "result-mismatch", "Result names Budi, but Ana won")


def test_totals_taken_one_short_of_the_target() -> None:
    result = replay(edit(LOOSE, "score Ana 35", "score Ana 249"))
    assert found(result) == [EARLY]
    assert result.summary.winner is None and result.ending is None


def test_a_score_line_for_some_players_leaves_the_totals_unknown() -> None:
    """Ana's 250 alone: Budi's total is still unknown, so nobody has won
    and the Result tag * stands."""
    result = replay(edit(LOOSE, "score Ana 35, Budi 10", "score Ana 250"))
    assert found(result) == [EARLY]
    assert result.summary.winner is None and result.ending is None


def test_totals_taken_are_checked_from_then_on() -> None:
    """Once every total is taken (line 25), the next score line is held to
    them: Ana has 35, not 40."""
    result = replay(edit(LOOSE, "score Ana 35, Budi 10", "score Ana 35, Budi 10\n"
                         "score Ana 40, Budi 10"))
    assert found(result) == [EARLY, (26, 7, "ERROR", "total-mismatch", "Ana has 35, not 40")]


def test_totals_taken_under_round_end(tmp_path: Path) -> None:
    """Under ``match_end: round-end`` the totals taken end the match as a
    round's end does: Ana 250, the highest, at or above 250."""
    (tmp_path / "house.yaml").write_text("base: pagat\nmatch_end: round-end\n", encoding="utf-8")
    text = edit(edit(LOOSE, "score Ana 35", "score Ana 250"), '[Rules "pagat"]',
                '[Rules "house.yaml"]')
    result = replay(text, tmp_path / "m.mgn")
    assert found(result) == [
        (4, 1, "ERROR", "result-mismatch", "Result is *, but Ana won at the end of round 1 "
         "with the highest total at or above the target of 250"),
        EARLY,
    ]
    assert result.ending == MatchEnding(0, EndReason.ROUND_END, 1, 25, (250, 10), 250)


def test_a_result_tag_naming_nobody_at_the_table() -> None:
    """PAGAT ends inside round 1 with nobody at 250: a Result of Cici is
    wrong for who she is, and nothing else is said of the unfinished
    match."""
    text = edit(PAGAT, '[Result "*"]', '[Result "Cici"]')
    assert found(replay(text)) == [
        (4, 1, "ERROR", "result-mismatch", "Result names Cici, who is not a player"),
    ]


def test_a_muggins_call_that_reaches_the_target(tmp_path: Path) -> None:
    """tests/test_check.py's SPINNER with a target of 25 and Budi's 0-2L
    left unclaimed: the open ends then show L 2, R 3 and the spinner's free
    U and D 5 each, 15 in all, which Ana calls (line 14): 10 + 15 = 25
    ends the match there."""
    (tmp_path / "house.yaml").write_text("base: spinner\ntarget: {2: 25}\n", encoding="utf-8")
    text = edit(SPINNER, '[Rules "spinner"]', '[Rules "house.yaml"]')
    text = edit(text, "Budi: 0-2L +10", "Budi: 0-2L")
    text = edit(text, "Ana: muggins +5\nscore Ana 15, Budi 20\n", "Ana: muggins +15\n")
    result = replay(edit(text, '[Result "*"]', '[Result "Ana"]'), tmp_path / "m.mgn")
    assert found(result) == []
    assert result.ending == MatchEnding(0, EndReason.MUGGINS, 1, 14, (25, 10), 25)


def test_where_a_wrong_muggins_call_is_reported() -> None:
    """SPINNER's Budi claims 10 of the 15 his 0-2L scores (line 13): a
    call of 10 asks for more than the 5 left, said at its points (column
    14); Budi calling on his own play is said at the line's start."""
    text = edit(SPINNER, "Ana: muggins +5\nscore Ana 15, Budi 20\n", "Ana: muggins +10\n")
    assert found(replay(text)) == [
        (14, 14, "ERROR", "muggins-invalid", "Ana calls muggins for 10, but only 5 went "
         "unclaimed")]
    text = edit(SPINNER, "Ana: muggins +5\nscore Ana 15, Budi 20\n", "Budi: muggins +5\n")
    assert found(replay(text)) == [
        (14, 1, "ERROR", "muggins-invalid", "Budi cannot call muggins on their own play")]


def test_a_reveal_after_the_settlement_won_the_match(tmp_path: Path) -> None:
    """tests/test_recovery.py's OUT under winner-takes with a target of 30:
    Budi goes out on line 20 with 25 and takes Ana's 1-3, 4 pips, as 5:
    30 wins the match there (Ana keeps 1-6L's 10 and 3-5L's 5). A reveal
    after the score line is still held to the hand: Ana held 1-3."""
    (tmp_path / "house.yaml").write_text(
        "base: pagat\nround_end: winner-takes\ntarget: {2: 30}\n", encoding="utf-8")
    text = edit(OUT, '[Players "Ana, Budi"]', '[Players "Ana, Budi"]\n[Rules "house.yaml"]')
    text = edit(text, '[Result "*"]', '[Result "Budi"]')
    text = edit(text, "reveal Ana 1-3\nscore Ana 10, Budi 25\n", "score Ana 15, Budi 30\n"
                "reveal Ana 1-3\n")
    result = replay(text, tmp_path / "m.mgn")
    assert found(result) == []
    assert result.ending == MatchEnding(1, EndReason.SETTLEMENT, 1, 20, (15, 30), 30)
    wrong = replay(edit(text, "reveal Ana 1-3", "reveal Ana 1-2"), tmp_path / "m.mgn")
    assert found(wrong) == [
        (22, 1, "ERROR", "reveal-mismatch", "Ana held 1-3 at the end of round 1, not 1-2")]


def test_reveals_held_to_the_hands_at_the_end() -> None:
    """OUT's hands are dealt, so each is known at the end (line 20): Budi
    went out holding nothing, Ana holds 1-3; a tile shown twice is not
    what was held, nor is an empty reveal."""
    def mismatch(old: str, new: str) -> list[Finding]:
        return [f for f in found(replay(edit(OUT, old, new))) if f[3] == "reveal-mismatch"]
    assert mismatch("reveal Ana 1-3\n", "reveal Ana 1-3\nreveal Budi 1-3\n") == [
        (21, 1, "ERROR", "reveal-mismatch", "Budi held nothing at the end of round 1, not 1-3")]
    assert mismatch("reveal Ana 1-3\n", "reveal Ana 1-3 1-3\n") == [
        (20, 1, "ERROR", "reveal-mismatch", "Ana held 1-3 at the end of round 1, not 1-3 1-3")]
    assert mismatch("reveal Ana 1-3\n", "reveal Ana\n") == [
        (20, 1, "ERROR", "reveal-mismatch", "Ana held 1-3 at the end of round 1, not nothing")]


def test_a_hidden_hand_cannot_show_a_tile_laid() -> None:
    """SPIN: Budi laid 3-3 on line 15, so his one last tile is not 3-3;
    nor is it nothing."""
    for shown, listed in (("3-3", "3-3"), ("", "nothing")):
        text = edit(SPIN, "score Budi 40, Wayan 8", f"reveal Budi {shown}".rstrip()
                    + "\nscore Budi 40, Wayan 8")
        assert [f for f in found(replay(text)) if f[3] == "reveal-mismatch"] == [
            (29, 1, "ERROR", "reveal-mismatch",
             f"Budi cannot hold {listed} (they hold 1 tiles, known: none)")]


def test_a_wrong_total_the_record_carries_on() -> None:
    """OUT's score line (line 21) gives Ana 15 where she has 10 (1-6L 10 +
    3-5L 5 - her 1-3 as 5). When round 2's line goes on from 15 (Budi's
    1-4 adds 5 to him), the wrong total is said once and taken; when it
    goes on from 10, the totals stay the table's."""
    wrong = edit(OUT, "score Ana 10, Budi 25", "score Ana 15, Budi 25")
    result = replay(wrong + edit(ROUND_2, "score Ana 10, Budi 30", "score Ana 15, Budi 30"))
    assert found(result) == [
        (21, 7, "ERROR", "total-mismatch", "Ana has 10, not 15; the score lines after it "
         "carry these totals on, so they are taken")]
    assert result.summary.scores == {"Ana": 15, "Budi": 30}
    result = replay(wrong + ROUND_2)
    assert found(result) == [(21, 7, "ERROR", "total-mismatch", "Ana has 10, not 15")]
    assert result.summary.scores == {"Ana": 10, "Budi": 30}


def test_the_result_tag_names_the_winner_of_totals_not_known() -> None:
    """Ana's 250 alone after the turn set aside: Budi's total is unknown,
    so who won is the Result tag's to say, without a word."""
    text = edit(edit(LOOSE, "score Ana 35, Budi 10", "score Ana 250"), '[Result "*"]',
                '[Result "Ana"]')
    result = replay(text)
    assert found(result) == [EARLY]
    assert result.summary.winner == "Ana"


def test_a_new_round_after_the_match_was_won(tmp_path: Path) -> None:
    """Budi won at the settlement of round 1 (see the case above): a round
    2 after it (line 23, after the reveal and the score line) is said once,
    as a new round; a play there is not said again."""
    (tmp_path / "house.yaml").write_text(
        "base: pagat\nround_end: winner-takes\ntarget: {2: 30}\n", encoding="utf-8")
    text = edit(OUT, '[Players "Ana, Budi"]', '[Players "Ana, Budi"]\n[Rules "house.yaml"]')
    text = edit(text, '[Result "*"]', '[Result "Budi"]')
    text = edit(text, "score Ana 10, Budi 25\n", "score Ana 15, Budi 30\nround 2\nBudi: 1-4\n")
    assert found(replay(text, tmp_path / "m.mgn")) == [
        (23, 1, "ERROR", "after-match-end", "a new round after Budi reached the target of 30; "
         "the match was over (later lines are not checked)")]


def test_hands_shown_with_nothing_to_draw_end_the_round_as_blocked(tmp_path: Path) -> None:
    """PAGAT kept without deals, under a stock held back whole (nothing
    to draw): after three plays Ana shows her five tiles left (line 11), so
    the round is over, taken as blocked, which hidden hands do not let the
    replay check; Budi's hand stays hidden, so it is not settled. (Her
    reveal gives her opening hand away, so the first placement not checked
    is Budi's 5-0 on line 9.)"""
    (tmp_path / "house.yaml").write_text(NO_DRAW, encoding="utf-8")
    text = edit(cut(HIDDEN, "Ana: 0-0R"), '[Rules "pagat"]', '[Rules "house.yaml"]')
    result = replay(text + "reveal Ana 3-4 6-1 2-3 4-4 1-1\n", tmp_path / "m.mgn")
    assert found(result) == [
        (6, 1, "INFO", "unverified", UNSETTLED),
        (9, 7, "INFO", "unverified", "round 1: hands are not in the record, so whether "
         "players held the tiles they placed is not checked (first: Budi's 5-0 here)"),
        (11, 1, "INFO", "unverified", "round 1 is taken as blocked; with hidden hands that "
         "nobody could play is not checked"),
    ]


def test_hands_shown_early_are_said_once() -> None:
    """Both hands shown before round 1 ended (lines 24 and 25): one
    finding, at the first; the totals are the score line's."""
    result = replay(edit(LOOSE, "reveal Budi 1-2\n", "reveal Budi 1-2\nreveal Ana 4-4 1-1 0-4\n"))
    assert found(result) == [EARLY]
    assert result.summary.scores == {"Ana": 35, "Budi": 10}
