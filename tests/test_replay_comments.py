"""The record's ``#`` comments as the replay hands them over, met on its
own walk through the body: a turn's (its line's, its notes', then those of
the muggins calls right after it) by the turn's line; every other line of
a round (the round, lead, deal, stock, score lines, a muggins call after
one of them) by the number of the round the replay read it in; the tags',
the match's notes', those of lines read in no round (before the first,
after the match was decided) and the closing ones to the match. A display then
reads no body.

The texts and line numbers below are read off the records by hand.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.values import RecordComments

# A comment on every kind of line; line 1 is the first comment.
EVERY = """\
# above the first tag
[Event "Arisan RT 05"]  # the club's evening
[Date "2025-09-12"]
[Site "Denpasar"]
[Players "Citra, Ana"]
[Rules "spinner"]
[Target "100"]
[Result "Ana"]
[Scorer "Bu Ani"]
{kept on paper}  # copied out later

# round one begins
round 1  # first round
lead Citra  # by lot
deal Citra 4-0 0-6 4-4 6-1 3-6 0-2 4-3  # Citra's hand
deal Ana 3-3 0-0 2-2 0-5 4-2 3-5 5-1
Citra: 6-1  # opening
Ana: 1-5
Citra: 6-3L
Ana: 3-5L +10
Citra: d5-5 5-5R +5  # she forgot ten
# Ana saw it
Ana: muggins +10  # called at once
Ana: 5-0R +15
Citra: 0-6
Ana: d1-2 d2-6 6-2
Citra: 0-2 +15
Ana: 0-0 +15
Citra: 4-0
Ana: 2-4
score Citra 20, Ana 50  # halfway
Ana: muggins +5  # after the score line
Citra: d1-1 d4-6 d3-2 3-2 +0
Ana: 3-3
Citra: 4-3
Ana: d1-0 d1-4 4-1
Citra: 1-1
Ana: 0-1R +15
{a fine count}  # said Citra
Citra: d1-3 d0-3 0-3
Ana: d6-5 5-6L
Citra: 6-4
Ana: d2-5 2-5D
Citra: 4-4
Ana: 2-2D +20
Citra: 1-3
score Citra 21, Ana 85  # end of round one

round 2
deal Citra 4-6 1-2 0-0 0-6 2-6 1-4 5-5
deal Ana 3-3 5-6 6-6 2-2 2-4 0-5 2-0
stock 0-1 4-4 3-6 3-1 3-5 1-1 1-5 3-4 1-6 2-3 5-2 0-3 5-4 4-0  # stock as stacked
Citra: 0-6
Ana: 6-5 +5
Citra: 0-0 +5
Ana: 0-5L +10  # the winning play
score Citra 26, Ana 100
# the end of the evening
# signed by both
"""

# The same with slips the replay reads past: a name written wrong (line
# 19, read as Citra's), a turn that fits nothing set aside (line 26), a
# second round written as round 3 (line 50: the replay's round 2), a turn
# written twice (line 55, read once).
SLIPS = (EVERY.replace("Citra: 6-3L\n", "Citr: 6-3L  # a name slip\n")
         .replace("Citra: 0-6\n", "Citra: 0-6\nCitra: 0-6  # written twice\n")
         .replace("round 2\n", "round 3  # misnumbered\n"))

MATCH_COMMENTS = ("above the first tag", "the club's evening", "copied out later",
                  "the end of the evening", "signed by both")
ROUND_1 = ("round one begins", "first round", "by lot", "Citra's hand", "halfway",
           "after the score line", "end of round one")
runner = CliRunner()


def _comments(text: str) -> RecordComments:
    (match,) = parse_text(text)
    return replay_match(match, record_resolver("hand.mgn"), collect_comments=True).comments


def test_every_comment_goes_with_its_turn_round_or_match() -> None:
    got = _comments(EVERY)
    assert got.turns == {
        17: ("opening",),
        21: ("she forgot ten", "Ana saw it", "called at once"),  # the call's with its turn
        38: ("said Citra",),  # the comment of the turn's note
        56: ("the winning play",),
    }
    # The muggins call on line 32 follows a score line, not a turn: a line
    # of round 1 like the score line.
    assert got.rounds == {1: ROUND_1, 2: ("stock as stacked",)}
    assert got.match == MATCH_COMMENTS


def test_comments_of_lines_the_replay_reads_past() -> None:
    got = _comments(SLIPS)
    assert got.turns == {
        17: ("opening",), 19: ("a name slip",), 21: ("she forgot ten", "Ana saw it",
                                                     "called at once"),
        26: ("written twice",), 39: ("said Citra",), 55: ("written twice",),
        58: ("the winning play",),
    }
    # Round 3 as written is the replay's (and the page's) round 2.
    assert got.rounds == {1: ROUND_1, 2: ("misnumbered", "stock as stacked")}
    assert got.match == MATCH_COMMENTS


def test_comments_of_lines_after_the_match_was_decided() -> None:
    # Ana's 0-5L (line 56) reaches the target; a muggins line after the
    # final score line is a line of round 2 still, a new round's lines are
    # read in no round (the replay does not follow them), like those above
    # the first round.
    text = EVERY.replace("score Citra 26, Ana 100\n", "score Citra 26, Ana 100  # final\n"
                         "Ana: muggins +5  # too late\nround 3  # after the end\n"
                         "deal Citra 1-2  # late deal\nCitra: 1-2  # too late to play\n")
    got = _comments(text)
    assert got.rounds == {1: ROUND_1, 2: ("stock as stacked", "final", "too late")}
    assert got.turns[56] == ("the winning play",)
    assert got.turns[61] == ("too late to play",)
    assert got.match == (*MATCH_COMMENTS[:3], "after the end", "late deal", *MATCH_COMMENTS[3:])


def test_no_comments_unless_asked() -> None:
    (match,) = parse_text(EVERY)
    got = replay_match(match, record_resolver("hand.mgn")).comments
    assert (got.turns, got.rounds, got.match) == ({}, {}, ())


def _round_comments(html: str) -> list[list[str]]:
    moves = html.split('<aside class="moves"', 1)[1].split("</aside>", 1)[0]
    return [[c.split("</div>", 1)[0] for c in r.split("<ol>", 1)[0].split('<div class="cmt"># ')[1:]]
            for r in moves.split('<section class="round">')[1:]]


def test_the_page_shows_each_round_its_comments(tmp_path: Path) -> None:
    # Before, a muggins call after a score line gave its comment to the
    # last turn line above it, and a round written with the wrong number
    # lost its comments (the page numbers rounds as the replay does).
    for text, second in ((EVERY, ["stock as stacked"]),
                         (SLIPS, ["misnumbered", "stock as stacked"])):
        record = tmp_path / "c.mgn"
        record.write_text(text, encoding="utf-8")
        r = runner.invoke(app, ["study", str(record)])
        assert r.exit_code == 0, r.output
        html = r.stdout.replace("&#39;", "'")
        assert _round_comments(html) == [list(ROUND_1), second]
        assert html.count("# after the score line") == 1


def test_a_muggins_line_after_a_turn_set_aside_is_no_call_of_it(tmp_path: Path) -> None:
    # Line 26 is set aside (0-6 is on the table already), and the replay
    # finds that the muggins line after it follows no turn it can take
    # from. The page lists the calls the replay read with each turn (before,
    # it listed this one on the turn set aside); its comment stays with it.
    text = SLIPS.replace("Citra: 0-6  # written twice\n",
                         "Citra: 0-6  # written twice\nAna: muggins +5  # after a set-aside turn\n",
                         1)
    (match,) = parse_text(text)
    replay = replay_match(match, record_resolver("hand.mgn"), collect_events=True,
                          collect_comments=True)
    assert ("muggins-invalid", 27) in {(d.code, d.line) for d in replay.diagnostics}
    assert replay.comments.turns[26] == ("written twice", "after a set-aside turn")
    record = tmp_path / "c.mgn"
    record.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["study", str(record)])
    assert r.exit_code == 0, r.output
    entries = r.stdout.split('<aside class="moves"', 1)[1].split("<li ")[1:]
    aside = [e for e in entries if "# after a set-aside turn" in e]
    called = [e for e in entries if "# called at once" in e]
    assert len(aside) == len(called) == 1
    assert '<div class="call' not in aside[0]
    assert '<div class="call p1">Ana: muggins +10</div>' in called[0]
    assert "Ana: muggins +5" not in r.stdout
