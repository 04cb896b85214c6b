"""Replay: records + engine → diagnostics, positions, decisions and events."""

from muggins_cli.replay.position import Decision, Position, parse_at
from muggins_cli.replay.replay import decisions, position_at, positions, replay_match, run_replay
from muggins_cli.replay.setup import MatchSetup, RulesResolver
from muggins_cli.replay.values import MatchEnding, MatchReplay, MatchSummary, TurnEvent, won_text
from muggins_cli.replay.visitor import At, Moment, ReplayVisitor, Visitors
from muggins_cli.replay.watch import Checker, Decisions, PositionAt, Positions, TurnEvents

__all__ = ["At", "Checker", "Decision", "Decisions", "MatchEnding", "MatchReplay", "MatchSetup",
           "MatchSummary", "Moment", "Position", "PositionAt", "Positions", "ReplayVisitor",
           "RulesResolver", "TurnEvent", "TurnEvents", "Visitors", "decisions", "parse_at",
           "position_at", "positions", "replay_match", "run_replay", "won_text"]
