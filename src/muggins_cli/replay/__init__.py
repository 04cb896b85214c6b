"""Replay: records + engine → diagnostics and replayed totals."""

from muggins_cli.replay.replay import (
    MatchReplay,
    MatchSummary,
    Replayer,
    ReplayVisitor,
    RulesResolver,
    TurnEvent,
    replay_match,
)

__all__ = ["MatchReplay", "MatchSummary", "ReplayVisitor", "Replayer", "RulesResolver", "TurnEvent",
           "replay_match"]
