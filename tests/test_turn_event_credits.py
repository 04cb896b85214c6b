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
