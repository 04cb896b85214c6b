"""Replay: records + engine → diagnostics and replayed totals."""

from muggins_cli.replay.replay import (
    MatchReplay,
    MatchSetup,
    MatchSummary,
    Replayer,
    ReplayVisitor,
    RulesResolver,
    TurnEvent,
    TurnEvents,
    Visitors,
    replay_match,
)

__all__ = ["MatchReplay", "MatchSetup", "MatchSummary", "ReplayVisitor", "Replayer",
           "RulesResolver", "TurnEvent", "TurnEvents", "Visitors", "replay_match"]
