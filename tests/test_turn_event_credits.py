"""What a turn credited, carried by its ``TurnEvent``: the claim as written,
what the placement credited, and each muggins call after it with what it
took, so that the analysis (and the study page) read them from the event
instead of following claims and calls through the record again.

The numbers are worked by hand in the records' comments (spinner rules: a
score counts only as claimed, and an opponent may call the rest).
"""

from __future__ import annotations

from muggins_cli.analysis import analyse_text
from muggins_cli.check import record_resolver
from muggins_cli.notation.model import Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.values import TurnEvent
from tests.test_check import PAGAT, edit

HEAD = """\
[Players "Ana, Budi"]
[Rules "{rules}"]
[Result "*"]

round 1
lead Ana
deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2
"""

CALLS = HEAD.format(rules="spinner") + """\
Ana: 5-5             # 5 + 5 = 10 scored, nothing claimed: 0 credited
Budi: muggins +5     # takes 5 of the 10: 5 left on the table
Budi: 5-0L +10       # 0 + 10 = 10, all claimed
Ana: 0-0L +5         # 0 + 10 = 10, 5 claimed
Budi: muggins +10    # only 5 were left: takes nothing
Budi: 0-3L           # 3 + 10 = 13: scores nothing
Ana: 3-4L
Ana: muggins +5      # on her own play, after a turn that scored nothing: takes nothing
"""

# A claim above the score that the totals after it show was the score
# written wrong: the replay credits 10, as the score line has it.
MISREAD = HEAD.format(rules="spinner") + """\
Ana: 5-5 +10         # 10, all claimed
Budi: 5-0L +100      # scores 10; the totals below show +10 credited
Ana: 0-0L +10        # 0 + 10 = 10, all claimed
score Ana 20, Budi 10
"""


def _events(text: str) -> list[TurnEvent]:
    (match,) = parse_text(text)
    return replay_match(match, record_resolver("hand.mgn"), collect_events=True).events


def _credits(events: list[TurnEvent]) -> list[tuple[int, int, int | None, int,
                                                    list[tuple[int, int, int]], int]]:
    return [(e.line, e.points, e.claimed, e.credited,
             [(c.seat, c.points, c.taken) for c in e.calls], e.unclaimed) for e in events]


def test_claims_and_calls_credited_as_the_rules_say() -> None:
    assert _credits(_events(CALLS)) == [
        (10, 10, None, 0, [(1, 5, 5)], 5),
        (12, 10, 10, 10, [], 0),
        (13, 10, 5, 5, [(1, 10, 0)], 5),
        (15, 0, None, 0, [], 0),
        (16, 0, None, 0, [(0, 5, 0)], 0),
    ]


def test_the_event_carries_the_record_line_and_each_call_line() -> None:
    events = _events(CALLS)
    assert [(e.written.line, e.written.player) for e in events] == [
        (10, "Ana"), (12, "Budi"), (13, "Ana"), (15, "Budi"), (16, "Ana")]
    assert all(isinstance(e.written, Turn) for e in events)
    assert [c.call.line for e in events for c in e.calls] == [11, 14, 17]


def test_without_a_muggins_call_every_score_is_credited_whatever_is_claimed() -> None:
    text = HEAD.format(rules="pagat") + """\
Ana: 5-5             # 5 + 5 = 10: credited without a claim
Budi: 5-0L +10       # 0 + 10 = 10
"""
    events = _events(text)
    assert [(e.claimed, e.points, e.credited, e.unclaimed) for e in events] == [
        (None, 10, 10, 0), (10, 10, 10, 0)]


def test_a_claim_read_as_the_totals_have_it_is_credited_so() -> None:
    events = _events(MISREAD)
    assert [(e.claimed, e.credited) for e in events] == [(10, 10), (100, 10), (10, 10)]


def test_the_analysis_counts_what_the_replay_credited() -> None:
    # Budi's +100 was read as +10, as the score line shows: he scored 10 in
    # play and left nothing on the table (the analysis once took the claim
    # as written: 0 scored, 10 unclaimed, against the replay's totals).
    f = analyse_text("hand.mgn", MISREAD)
    stats = {s.player: (s.scored, s.unclaimed) for s in f.matches[0].players}
    assert stats == {"Ana": (20, 0), "Budi": (10, 0)}
    assert [d.code for d in f.report.diagnostics if d.code == "unclaimed"] == []


def test_the_analysis_counts_calls_from_the_events() -> None:
    f = analyse_text("hand.mgn", CALLS)
    # Ana: 0 + 5 credited; Budi: 10 + the 5 his first call took.
    stats = {s.player: (s.scored, s.unclaimed) for s in f.matches[0].players}
    assert stats == {"Ana": (5, 10), "Budi": (15, 0)}


def test_a_placement_read_as_another_tile_is_told_as_read_where_it_was_played() -> None:
    """PAGAT with Budi's 0-3R (line 14) written 0-4R: 0-4 is in the stock,
    and the line is read as 0-3R, his tile a digit away that fits R (0).
    Its event is the turn as read, played on the table Budi faced: the
    lead 5-5, his 5-0R, Ana's 0-0R; 0-3R scores 5 + 3 = 8, nothing a
    multiple of five: 0 points; his hand before it was his deal less 5-0."""
    text = edit(PAGAT, "Budi: 0-3R\n", "Budi: 0-4R\n")
    (event,) = [e for e in _events(text) if e.line == 14]
    assert [str(t) for t in event.layout.tiles()] == ["5-5", "0-5", "0-0"]
    assert (str(event.placed), event.points, event.seat) == ("0-3R", 0, 1)
    assert sorted(map(str, event.hand or ())) == ["0-3", "1-2", "1-3", "2-2", "4-6", "6-6"]
    assert event.written.line == 14 and str(event.written.spelling.tile) == "0-4"


def test_a_call_after_the_match_is_decided_takes_nothing() -> None:
    """Spinner rules to 10: Ana's lead 5-5 scores 10, all claimed, and
    decides the match on line 10. Budi's call after it is a line after the
    match's end: it is told with that turn, as called, taking nothing."""
    text = HEAD.format(rules="spinner").replace('[Result "*"]', '[Result "Ana"]\n[Target "10"]')
    text += "Ana: 5-5 +10\nBudi: muggins +5\n"
    (match,) = parse_text(text)
    replayed = replay_match(match, record_resolver("hand.mgn"), collect_events=True)
    assert [(d.line, d.code) for d in replayed.diagnostics] == [(12, "after-match-end")]
    assert _credits(replayed.events) == [(11, 10, 10, 10, [(1, 5, 0)], 0)]


def test_a_call_before_any_round_is_a_line_out_of_place() -> None:
    """A muggins line before the first ``round`` line follows no turn: the
    finding says where it is, at its own line and column."""
    text = '[Players "Ana, Budi"]\n[Rules "spinner"]\n[Result "*"]\n\nBudi: muggins +5\n'
    (match,) = parse_text(text)
    assert [(d.line, d.column, d.code, d.message)
            for d in replay_match(match, record_resolver("hand.mgn")).diagnostics] == [
        (5, 1, "bad-round", "this line comes before any `round` line")]
