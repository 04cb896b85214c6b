"""Replay a parsed record through the engine, once, with the visitors a
command needs.

The replay never raises on a bad record: like python-chess's ``GameBuilder``
it reports typed diagnostics and goes on where the record still makes sense.
:func:`replay_match` checks a match (its :class:`~.watch.Checker` gives the
diagnostics) and feeds any other visitors on the same pass; a command that
wants positions, decisions or events as well passes those visitors, so a
match is replayed once whatever is asked of it.
"""

from __future__ import annotations

from collections.abc import Iterator

from muggins_cli.notation.model import BodyLine, Match, RoundLine
from muggins_cli.replay.position import Decision, Position, parse_at
from muggins_cli.replay.setup import Header, RulesResolver, read_setup
from muggins_cli.replay.tracker import Tracker
from muggins_cli.replay.values import MatchReplay, MatchSummary, RecordComments
from muggins_cli.replay.visitor import ReplayVisitor, Visitors
from muggins_cli.replay.watch import (
    Checker,
    CommentsRead,
    Decisions,
    PositionAt,
    Positions,
    TurnEvents,
)


def run_replay(match: Match, resolve_rules: RulesResolver,
           *visitors: ReplayVisitor) -> tuple[Header, Tracker | None]:
    """Replay ``match`` with ``visitors``, which get the parser's and the
    header's findings first; the header, and the tracker where the header
    gave a whole setup (None where the body cannot be replayed)."""
    visitor = Visitors(*visitors)
    diags = list(match.diagnostics)
    header = read_setup(match, resolve_rules, diags)
    # The findings of turns whose name is not a player's are the tracker's to
    # report, in its words, once it knows whose turn each was.
    later = {id(d) for d in match.deferred} if header.setup is not None else set()
    for d in diags:
        if id(d) not in later:
            visitor.finding(d)
    if header.setup is None:
        return header, None
    tracker = Tracker(match, header.setup, visitor)
    tracker.run()
    return header, tracker


def replay_match(match: Match, resolve_rules: RulesResolver, *visitors: ReplayVisitor,
                 collect_events: bool = False, collect_comments: bool = False) -> MatchReplay:
    """Check one match, feeding ``visitors`` on the same pass; never raises
    for anything in the record. ``collect_events`` keeps every turn's event
    in the result, ``collect_comments`` the record's comments."""
    checker = Checker()
    events = TurnEvents() if collect_events else None
    read = CommentsRead() if collect_comments else None
    header, tracker = run_replay(match, resolve_rules, checker, *visitors,
                             *([events] if events is not None else []),
                             *([read] if read is not None else []))
    comments = read.comments(match) if read is not None else RecordComments()
    rules_tag = match.tag("Rules")
    rules_name = rules_tag if rules_tag is not None else "pagat"
    if tracker is None:
        players = list(header.players)
        summary = MatchSummary(
            line=match.line, players=players, rules=rules_name, target=None,
            rounds=sum(isinstance(b, RoundLine) for b in match.body),
            scores=dict.fromkeys(players, 0), winner=None)
        return MatchReplay(summary, checker.diagnostics, header.rules, comments=comments)
    summary = MatchSummary(
        line=match.line,
        players=list(tracker.players),
        rules=rules_name,
        target=tracker.target or None,
        rounds=tracker.rounds,
        scores=dict(zip(tracker.players, tracker.scores)),
        winner=tracker.players[tracker.winner] if tracker.winner is not None else None,
        turns=tracker.turns,
    )
    return MatchReplay(summary, checker.diagnostics, tracker.rules,
                       events.events if events is not None else [], tracker.ending, comments)


def position_at(match: Match, resolve: RulesResolver, at: str) -> Position:
    """Replay ``match`` up to ``R.T``; raises InputError when it has no such
    position (naming the end when the match was over before it) or the
    record stops making sense before it."""
    visitor = PositionAt(*parse_at(at))
    run_replay(match, resolve, visitor)
    return visitor.position()


def positions(match: Match, resolve: RulesResolver) -> Iterator[tuple[Position, BodyLine | None]]:
    """Every position before a turn line, and each round's end, in order,
    with the line that follows it (None at the very end); once the match is
    over, its last position and nothing after it."""
    visitor = Positions()
    run_replay(match, resolve, visitor)
    yield from visitor.out


def decisions(match: Match, resolve: RulesResolver) -> Iterator[Decision]:
    """Every turn of ``match`` that the replay played, at its decision."""
    visitor = Decisions()
    run_replay(match, resolve, visitor)
    yield from visitor.decisions()
