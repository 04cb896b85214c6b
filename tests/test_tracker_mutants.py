"""The round tracker's edges that mutation testing of replay/tracker.py
left unguarded: a tile off the set kept in a hand, what a draw shows the
table (the voids of a position), the event of a pass, a round taken as
blocked where the hands are hidden, and the line an event names when the
replay read the record's line as another.

Each case changes a clean record (tests/test_check.py's PAGAT, or PAGAT
without its deal and stock lines) and lists every finding it then gives,
or the values the replay hands its visitors, worked out by hand from
docs/rules.md and docs/notation.md in the docstring.
"""

from __future__ import annotations

from pathlib import Path

from muggins_cli.engine.layout import lead, open_ends, place
from muggins_cli.engine.voids import Void
from muggins_cli.notation.model import Match, Pass, Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import positions, replay_match
from muggins_cli.replay.values import MatchReplay, TurnEvent
from muggins_cli.replay.watch import TurnEvents
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.resolve import resolver_for
from muggins_cli.tiles import End, Tile
from tests.test_check import PAGAT, edit
from tests.test_faults_cases import HIDDEN, NO_DRAW, cut
from tests.test_tracker_cases import without

Finding = tuple[int, int, str, str, str]


def replay(text: str | Match, path: Path | None = None
           ) -> tuple[MatchReplay, list[TurnEvent]]:
    """The replay of a one-match record (or of its match, parsed) and its
    turn events (``path``: where it lies, for a rules file named beside
    it)."""
    (match,) = parse_text(text) if isinstance(text, str) else (text,)
    events = TurnEvents()
    result = replay_match(match, resolver_for(str(path) if path is not None else None), events)
    return result, events.events


def found(text: str, path: Path | None = None) -> list[Finding]:
    return [(d.line, d.column, d.severity.name, d.code, d.message)
            for d in replay(text, path)[0].diagnostics]


# -- a tile off the set, drawn and kept ------------------------------------------

#: PAGAT's line 21 with a 6-7 drawn between Ana's 0-4 and 2-6: no tile of
#: a double-six set, so not in the stock; taken as drawn (docs/diagnostics.md,
#: illegal-draw), it stays in her hand, a tile nobody can play.
OFF_SET = edit(PAGAT, "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d6-7 d2-6 2-6R")


def test_a_tile_off_the_set_kept_in_hand_fits_no_end() -> None:
    """After Budi's 6-6R (line 22) R shows 6, and Ana draws 3-5 (line 23)
    holding 4-4 1-1 0-4 (none fits L 5 or R 6) and the 6-7 of her slip.
    What she really drew there is not known, so whether she held a tile
    that fits is not either: the 6-7 fits no end by its pips, and her
    draw is no finding. One slip, one finding."""
    assert found(OFF_SET) == [
        (21, 11, "ERROR", "illegal-draw", "Ana drew 6-7, which is not in the stock")]


def test_a_tile_off_the_set_drawn_with_the_hands_hidden() -> None:
    """OFF_SET without deal and stock lines (every turn three lines
    earlier: the draw on line 18, column 11): the stock is hidden, but no
    stock of a double-six set holds 6-7, so the draw is as wrong as with
    the stock shown, and the one finding. The hands being hidden, Ana's
    first placement and her first draw are noted as unchecked (lines 8
    and 18)."""
    text = without(OFF_SET, "deal ", "stock ")
    assert found(text) == [
        (8, 6, "INFO", "unverified", "round 1: hands are not in the record, so whether "
         "players held the tiles they placed is not checked (first: Ana's 5-5 here)"),
        (18, 6, "INFO", "unverified", "round 1: hands are not in the record, so whether a "
         "player could play instead of drawing is not checked (first: Ana here)"),
        (18, 11, "ERROR", "illegal-draw", "Ana drew 6-7, which is not in a double-6 set"),
    ]


# -- what a draw shows the table ------------------------------------------------------


def test_a_draw_shows_a_void_of_the_drawer() -> None:
    """Under must_play (pagat) a draw shows the drawer held nothing for the
    ends open when it began: Ana's d0-4 on line 21, ends L 5 (the 5-5 lead)
    and R 2 (Budi's 2-2R), gives her void of 5 and 2, with no tile kept
    since (0-4 was drawn in that same turn, 2-6 placed). Her placements
    before it are no longer kept (what they suggest she lacked she may have
    drawn since): the position before Budi's 6-6R (line 22) keeps Budi's
    five placements after the lead, 5-0 0-3 4-6 1-3 2-2, all on R."""
    (match,) = parse_text(PAGAT)
    before = {item.line: pos for pos, item in positions(match, resolver_for(None))
              if item is not None}
    pos = before[22]
    assert pos.voids == (Void(0, frozenset({5, 2}), 0),)
    assert [(seat, tile, end) for seat, _, tile, end in pos.placed] == [
        (1, Tile(0, 5), End.R), (1, Tile(0, 3), End.R), (1, Tile(4, 6), End.R),
        (1, Tile(1, 3), End.R), (1, Tile(2, 2), End.R)]
    assert before[21].voids == ()  # nobody drew before line 21


# -- passes with the hands hidden -------------------------------------------------------

#: PAGAT without deals or stock, under pagat with the whole stock held back
#: (nothing may be drawn), cut after Ana's 0-0R (line 10), then both pass.
PASSES = edit(cut(HIDDEN, "Ana: 0-0R"), '[Rules "pagat"]', '[Rules "house.yaml"]') \
    + "Budi: pass\nAna: pass\n"


def test_both_passing_with_hidden_hands_is_a_block_taken_on_trust(tmp_path: Path) -> None:
    """Nothing to draw, and each seat passed in turn (lines 11 and 12): the
    round is over, blocked, on the passes' word, which hidden hands do not
    let the replay check, said at the pass that ended it. The hands left
    being hidden, the settlement is not computed (said at the round's line,
    6); the placements and Budi's pass are noted unchecked where they first
    are (lines 8 and 11)."""
    (tmp_path / "house.yaml").write_text(NO_DRAW, encoding="utf-8")
    assert found(PASSES, tmp_path / "m.mgn") == [
        (6, 1, "INFO", "unverified", "round 1: the hands left at the end are not all in the "
         "record (no deal or reveal lines), so the round-end settlement is not computed"),
        (8, 6, "INFO", "unverified", "round 1: hands are not in the record, so whether "
         "players held the tiles they placed is not checked (first: Ana's 5-5 here)"),
        (11, 7, "INFO", "unverified", "round 1: hands are not in the record, so whether a "
         "player could play instead of passing is not checked (first: Budi here)"),
        (12, 1, "INFO", "unverified", "round 1 is taken as blocked; with hidden hands that "
         "nobody could play is not checked"),
    ]


def test_the_event_of_a_pass(tmp_path: Path) -> None:
    """Budi's pass (line 11) and Ana's (line 12), the round's fourth and
    fifth turns: each by its own seat (Budi 1, Ana 0), facing the layout
    the three placements made (the 5-5 lead, 5-0 and 0-0 on R: ends 5 and
    0), with the totals before it, Ana 20 (5-5 alone 10, 0-0R 5 + 5 + 0 +
    0 = 10) and Budi 10 (5-0R 5 + 5 + 0); nothing placed, drawn, scored or
    credited, so nothing left unclaimed."""
    (tmp_path / "house.yaml").write_text(NO_DRAW, encoding="utf-8")
    _, events = replay(PASSES, tmp_path / "m.mgn")
    rules = load_preset("pagat")
    layout = place(rules, place(rules, lead(rules, Tile(5, 5)), Tile(0, 5), End.R),
                   Tile(0, 0), End.R)
    assert open_ends(rules, layout) == {End.L: 5, End.R: 0}
    passes = [e for e in events if e.placed is None]
    assert [(e.line, e.turn, e.seat) for e in passes] == [(11, 4, 1), (12, 5, 0)]
    for e in passes:
        assert e.layout == layout
        assert e.scores_before == (20, 10)
        assert (e.draws, e.points, e.credited, e.claimed, e.calls) == (0, 0, 0, None, ())
        assert e.unclaimed == 0
        assert isinstance(e.written.action, Pass)


# -- the line an event names ---------------------------------------------------------


def test_the_event_of_a_line_read_as_another_names_the_line_as_written() -> None:
    """PAGAT's Budi: 0-3R (line 14) written as a pass, which the stock of
    14 forbids: read as 0-3R (tests/test_recovery.py, pass-for-turn), so
    the event is of 0-3 laid on R, and its ``written`` is the record's own
    line, the pass, to name the play as the record does."""
    text = edit(PAGAT, "Budi: 0-3R\n", "Budi: pass\n")
    (match,) = parse_text(text)
    (line_14,) = [item for item in match.body if isinstance(item, Turn) and item.line == 14]
    result, events = replay(match)
    assert [d.code for d in result.diagnostics] == ["illegal-pass"]
    (event,) = [e for e in events if e.line == 14]
    assert event.placed is not None
    assert (event.seat, event.placed.tile, event.placed.end) == (1, Tile(0, 3), End.R)
    assert event.written is line_14
    assert isinstance(event.written.action, Pass)
