"""A turn's draws as the round tracker follows them, and every finding
they give in order: a tile drawn that the stock cannot hold, and what a
fitting draw then requires.

Each case changes Ana's draws on one line of tests/test_check.py's PAGAT
(its line 21: the ends show L 5, from 5-5, and R 2, from Budi's 2-2R; she
draws 0-4 and 2-6, and lays 2-6R). The expected findings are worked out
by hand from docs/rules.md: a drawn tile that fits must be laid at once,
so drawing again after it, or laying another tile, is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from muggins_cli.engine.layout import open_ends
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import decisions, position_at, replay_match
from muggins_cli.replay.watch import CommentsRead
from muggins_cli.rules.resolve import resolver_for
from muggins_cli.tiles import End, Tile
from tests.test_check import PAGAT, edit
from tests.test_opening_deals import ROUND_1
from tests.test_recovery import OUT

Finding = tuple[int, int, str, str, str]

DRAWS = "Ana: d0-4 d2-6 2-6R"


def found(text: str) -> list[Finding]:
    (match,) = parse_text(text)
    return [(d.line, d.column, d.severity.name, d.code, d.message)
            for d in replay_match(match, resolver_for(None)).diagnostics]


def without(text: str, *starts: str) -> str:
    """``text`` without the lines that start with any of ``starts``."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(starts)) + "\n"


def test_a_dealt_tile_drawn_where_the_stock_line_is_missing() -> None:
    """No stock line: the stock is the 14 tiles not dealt, and 1-2 was
    dealt to Budi (line 19 once the stock line is gone). 1-2 fits R (2):
    drawing 2-6 after it (column 16) and laying 2-6 (column 21) are
    wrong."""
    text = edit(without(PAGAT, "stock "), DRAWS, "Ana: d0-4 d1-2 d2-6 2-6R")
    assert found(text) == [
        (20, 11, "ERROR", "illegal-draw", "Ana drew 1-2, which is not in the stock"),
        (20, 16, "ERROR", "illegal-draw", "Ana drew again after drawing 1-2, which fits R (2)"),
        (20, 21, "ERROR", "drawn-tile-not-played",
         "Ana drew 1-2, which fits R (2), and must place it, not 2-6"),
    ]
    assert found(without(PAGAT, "stock ")) == []


def test_a_dealt_tile_drawn_from_a_stock_line() -> None:
    text = edit(PAGAT, DRAWS, "Ana: d0-4 d1-2 d2-6 2-6R")
    assert found(text) == [
        (21, 11, "ERROR", "illegal-draw", "Ana drew 1-2, which is not in the stock"),
        (21, 16, "ERROR", "illegal-draw", "Ana drew again after drawing 1-2, which fits R (2)"),
        (21, 21, "ERROR", "drawn-tile-not-played",
         "Ana drew 1-2, which fits R (2), and must place it, not 2-6"),
    ]


def test_a_tile_on_the_table_drawn_with_the_hands_hidden() -> None:
    """No deal or stock lines (line 18 then): 5-0, which Budi laid on line
    9, cannot be drawn. Taken as drawn, it fits L (5), so the draw after it
    and the 2-6 laid are wrong, and Ana's draw of 3-5 on line 20 while
    holding it too."""
    text = edit(without(PAGAT, "deal ", "stock "), DRAWS, "Ana: d0-4 d5-0 d2-6 2-6R")
    assert [f for f in found(text) if f[2] == "ERROR"] == [
        (18, 11, "ERROR", "illegal-draw", "Ana drew 0-5, which is already placed or held"),
        (18, 16, "ERROR", "illegal-draw", "Ana drew again after drawing 0-5, which fits L (5)"),
        (18, 21, "ERROR", "drawn-tile-not-played",
         "Ana drew 0-5, which fits L (5), and must place it, not 2-6"),
        (20, 6, "ERROR", "illegal-draw", "Ana drew 3-5 while holding 0-5, which fits L (5)"),
    ]


def test_the_lead_faces_the_way_it_is_written() -> None:
    """PAGAT's deal with Ana leading 4-3, written high half first: the
    position after it shows 4 at L and 3 at R, as written (the engine's
    own way would put the low half at L), and Budi's 1-3R then joins the
    3, leaving L 4 and R 1. Nothing is wrong with either turn."""
    text = PAGAT[:PAGAT.index("Ana: 5-5 +10")] + "Ana: 4-3\nBudi: 1-3R\n"
    assert found(text) == []
    (match,) = parse_text(text)
    resolve = resolver_for(None)
    after_lead = position_at(match, resolve, "1.2")
    assert open_ends(after_lead.rules, after_lead.layout) == {End.L: 4, End.R: 3}
    after = position_at(match, resolve, "1.3")
    assert open_ends(after.rules, after.layout) == {End.L: 4, End.R: 1}


def test_the_lead_is_told_as_written() -> None:
    """The same lead's turn event: 4-3 with its 4 facing L (what the
    analysis and the study page show of the turn), then 1-3 at R."""
    text = PAGAT[:PAGAT.index("Ana: 5-5 +10")] + "Ana: 4-3\nBudi: 1-3R\n"
    (match,) = parse_text(text)
    events = replay_match(match, resolver_for(None), collect_events=True).events
    assert [(e.line, str(e.placed), e.placed.left if e.placed else -1) for e in events] == [
        (11, "4-3", 4), (12, "1-3R", None)]


def test_a_first_turn_with_a_draw_has_no_draw_to_weigh_whoever_plays_it() -> None:
    """A round's first turn that draws (any tile may open, so the draw is
    wrong) is weighed as its placement alone: no position before the
    draw, whether the player due to lead drew (Ana) or another did
    (Budi, out of turn, read as written)."""
    head = PAGAT[:PAGAT.index("Ana: 5-5 +10")]
    for body, seat in (("Ana: d0-4 5-5\n", 0), ("Budi: d0-4 6-6\n", 1)):
        (match,) = parse_text(head + body)
        assert [(d.turn.line, d.start, d.at.to_move)
                for d in decisions(match, resolver_for(None))] == [(11, None, seat)]


def test_a_placement_that_scores_one_point_is_credited(tmp_path: Path) -> None:
    """Under ``score_value: multiples`` a count of 5 scores one point: Budi
    leads 5-0 (5 + 0 = 5, one multiple of five) and claims +1, which is
    his total on the score line after it; as much as 1 point is credited."""
    (tmp_path / "mult.yaml").write_text("base: pagat\nscore_value: multiples\n",
                                        encoding="utf-8")
    head = PAGAT[:PAGAT.index("Ana: 5-5 +10")]
    head = edit(edit(head, '[Rules "pagat"]', '[Rules "mult.yaml"]'), "lead Ana", "lead Budi")
    (match,) = parse_text(head + "Budi: 5-0 +1\nscore Ana 0, Budi 1\n")
    result = replay_match(match, resolver_for(str(tmp_path / "r.mgn")))
    assert [d.code for d in result.diagnostics] == []
    (match,) = parse_text(head + "Budi: 5-0 +1\nscore Ana 0, Budi 0\n")
    result = replay_match(match, resolver_for(str(tmp_path / "r.mgn")))
    assert [(d.line, d.code, d.message) for d in result.diagnostics] == [
        (12, "total-mismatch", "Budi has 1, not 0")]


def test_two_passes_on_the_empty_table_are_two_findings() -> None:
    """Ana, due to lead, passes (any tile may open); Budi then passes on
    the table still empty, which is as wrong: two turns, two findings,
    and the round goes on with Ana's lead 5-5 (it scores 10, as claimed)."""
    head = PAGAT[:PAGAT.index("Ana: 5-5 +10")]
    assert found(head + "Ana: pass\nBudi: pass\nAna: 5-5 +10\n") == [
        (11, 6, "ERROR", "illegal-pass", "Ana passed on the round's first turn; any tile may "
         "open"),
        (12, 7, "ERROR", "illegal-pass", "Budi passed on the round's first turn; any tile may "
         "open")]


def test_a_line_read_once_does_not_end_the_replay() -> None:
    """PAGAT with Budi's 0-3R (line 14) written twice: the second is read
    as the line repeated (one finding), and the replay goes on to the end:
    the score line, now with Budi's 10 written 15, is checked (line 25)."""
    text = edit(edit(PAGAT, "Budi: 0-3R\n", "Budi: 0-3R\nBudi: 0-3R\n"),
                "score Ana 35, Budi 10", "score Ana 35, Budi 15")
    assert [(line, code) for line, _, _, code, _ in found(text)] == [
        (15, "out-of-turn"), (25, "total-mismatch")]


def test_comments_go_with_the_turn_or_the_round_they_are_read_in() -> None:
    """PAGAT with a comment at the end of the round line, one on a line of
    its own before the lead line (it goes with that line), and one at the
    end of Budi's 0-3R (line 15 once the comment line is in): the turn's
    own comment is the turn's, the others the round's, in order."""
    text = edit(edit(edit(PAGAT, "round 1\n", "round 1  # the first round\n"),
                     "lead Ana\n", "# Ana leads\nlead Ana\n"),
                "Budi: 0-3R\n", "Budi: 0-3R   # a quiet move\n")
    (match,) = parse_text(text)
    read = CommentsRead()
    replay_match(match, resolver_for(None), read)
    comments = read.comments(match)
    assert comments.turns == {15: ("a quiet move",)}
    assert comments.rounds == {1: ("the first round", "Ana leads")}
    assert comments.match == ()


def test_the_turns_of_a_match_are_its_turn_lines_played() -> None:
    """PAGAT's body has 13 turn lines (11 to 23), each played: what
    ``muggins stats`` counts as the match's turns."""
    (match,) = parse_text(PAGAT)
    assert replay_match(match, resolver_for(None)).summary.turns == 13


def test_a_pass_after_a_fitting_draw_is_weighed_with_the_tile_drawn() -> None:
    """PAGAT's line 21 written ``Ana: d0-4 d2-6 pass``: she drew 2-6, which
    fits R (2), and passed. Her decision is weighed where she stood after
    the draws, the 11th turn, with 2-6 in hand to place; the position
    before her first draw is that turn's too, nothing drawn yet."""
    (match,) = parse_text(edit(PAGAT, "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d2-6 pass"))
    (decision,) = [d for d in decisions(match, resolver_for(None)) if d.turn.line == 21]
    assert (decision.turn.player, decision.turn.spelling.drawn) == (
        "Ana", (Tile.of(0, 4), Tile.of(2, 6)))
    assert (decision.at.turn, decision.at.drawn) == (11, Tile.of(2, 6))
    assert decision.start is not None
    assert (decision.start.turn, decision.start.drawn) == (11, None)


def test_a_pass_holding_a_fit_with_nothing_to_draw_is_read_as_the_play(
        tmp_path: Path) -> None:
    """PAGAT under pagat with the whole stock held back (nothing may be
    drawn), cut after Ana's 0-0R: Budi's pass on line 14 while he holds
    0-3, which fits R (0), is wrong, and Ana's 3-4R after it needs R to
    show 3: the line is read as his 0-3R, one finding that says so."""
    (tmp_path / "house.yaml").write_text("base: pagat\nplayers: [2]\nstock_reserve: 14\n",
                                         encoding="utf-8")
    text = edit(PAGAT, '[Rules "pagat"]', '[Rules "house.yaml"]')
    text = text[:text.index("Budi: 0-3R")] + "Budi: pass\nAna: 3-4R\n"
    (match,) = parse_text(text)
    assert [(d.line, d.column, d.code, d.message) for d in
            replay_match(match, resolver_for(str(tmp_path / "r.mgn"))).diagnostics] == [
        (14, 7, "illegal-pass", "Budi passed while holding 0-3, which fits R (0); read as "
         "Budi: 0-3R, which the rest of the round needs")]


def test_a_last_line_written_twice_is_a_turn_after_the_round() -> None:
    """tests/test_recovery.py's OUT, Budi's going out (0-6L, line 19)
    written twice: the round is over, so the second is a turn after its
    end, said as such; whose turn it would have been is no question once
    the round is over."""
    text = edit(OUT, "Budi: 0-6L\n", "Budi: 0-6L\nBudi: 0-6L\n")
    assert [(line, column, code, message) for line, column, _, code, message
            in found(text)] == [
        (20, 1, "after-round-end", "Budi plays after round 1 ended (Budi went out)")]


def test_a_comment_on_a_line_before_any_round_goes_with_the_match() -> None:
    """A score line before the first ``round`` line (out of place: one
    finding) with a comment at its end: read in no round, the comment goes
    with the match, not with a round."""
    text = edit(PAGAT, "round 1\n", "score Ana 0, Budi 0   # before any round\n\nround 1\n")
    (match,) = parse_text(text)
    read = CommentsRead()
    result = replay_match(match, resolver_for(None), read)
    assert [(d.line, d.code) for d in result.diagnostics] == [(6, "bad-round")]
    comments = read.comments(match)
    assert (comments.turns, comments.rounds, comments.match) == ({}, {}, ("before any round",))


def test_a_drawn_tile_with_a_digit_wrong_is_read_as_the_stocks_next() -> None:
    """Line 21 with Ana's first draw written 0-1 (in the stock, not next)
    or 0-7 (in no double-six set) for 0-4: one half off the tile the stock
    brings out next, with the draws after it in step (2-6 follows): a
    digit written wrong, read as 0-4, one finding; the turn then plays as
    recorded."""
    assert found(edit(PAGAT, DRAWS, "Ana: d0-1 d2-6 2-6R")) == [
        (21, 6, "ERROR", "illegal-draw", "Ana drew 0-1, which is not the next tile of the "
         "stock (0-4 is); read as 0-4")]
    assert found(edit(PAGAT, DRAWS, "Ana: d0-7 d2-6 2-6R")) == [
        (21, 6, "ERROR", "illegal-draw", "Ana drew 0-7, which is not in the stock; read as 0-4")]


def test_a_drawn_tile_on_the_table_with_a_digit_wrong_is_read_as_the_stocks_next(
) -> None:
    """Round 1 of records/family-pagat-3p.mgn (deal and stock lines
    there), Dewi's first draw on line 23 (``d0-5 d1-6 1-6R``) written
    d0-4: 0-4 is on the table (Dewi laid it on line 17), so it cannot be
    drawn; it is one half off 0-5, the stock's next, and her second draw
    (1-6) follows the stock. A digit written wrong, read as 0-5: one
    finding. Taken as drawn, the tile on the table put every later draw
    of the round out of step with the stock (eight more findings), her
    reveal and the totals."""
    text = edit(ROUND_1, "Dewi: d0-5 d1-6 1-6R", "Dewi: d0-4 d1-6 1-6R")
    assert found(text) == [
        (23, 7, "ERROR", "illegal-draw", "Dewi drew 0-4, which is not in the stock; read as 0-5")]
    assert found(ROUND_1) == []


@pytest.mark.parametrize(("written", "what"), [
    ("d2-5", "is not the next tile of the stock (2-2 is)"),
    ("d2-3", "is not in the stock"),
])
def test_a_draw_the_turns_placement_bears_out_is_read_as_the_stocks_next(
        written: str, what: str) -> None:
    """ROUND_1's line 25, Citra's ``d2-2 2-2L +10`` (2-2 the stock's next),
    with the draw written 2-5 (later in the stock) or 2-3 (Eko's, dealt to
    him): one half off 2-2, and the turn places 2-2, the tile the stock
    gave. A digit written wrong, read as 2-2: one finding, the stock in
    step for Eko's and Dewi's draws after it."""
    text = edit(ROUND_1, "Citra: d2-2 2-2L +10", f"Citra: {written} 2-2L +10")
    assert found(text) == [
        (25, 8, "ERROR", "illegal-draw", f"Citra drew {written[1:]}, which {what}; "
         "read as 2-2")]


def test_an_extra_draw_of_a_tile_on_the_table_keeps_the_stock_in_step() -> None:
    """ROUND_1's line 22, Citra's ``3-4L``, written with a draw before it
    (``d0-4 3-4L``): 0-4 is on the table and one half off 0-5, the
    stock's next, but nothing in the turn bears a draw out (no later draw,
    and she places 3-4, not 0-5), so it is not read as 0-5: the stock's
    order stands for the draws after it (Dewi's d0-5 d1-6 on line 23 and
    the rest), none of which is out of step."""
    text = edit(ROUND_1, "Citra: 3-4L", "Citra: d0-4 3-4L")
    findings = found(text)
    assert (22, 8, "ERROR", "illegal-draw", "Citra drew 0-4, which is not in the stock") \
        in findings
    assert [f for f in findings if f[0] > 22 and f[3] == "illegal-draw"] == []
