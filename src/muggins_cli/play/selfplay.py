"""Complete matches played by strategies, kept as MGN records.

The records carry deals and the stock order, so every move in them can be
checked; ``muggins check`` must accept each one with no error, which makes
self-play the widest test of the engine, the writer and the replay together.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli.engine.scoring import reached, settle
from muggins_cli.engine.state import Draw, Pass, Place, apply, deal, legal_moves, new_round
from muggins_cli.notation import model as m
from muggins_cli.play.strategies import Strategy
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile


def _tok(t: Tile, left: int | None = None) -> m.TileTok:
    a = t.lo if left is None else left
    return m.TileTok(a, t.other(a), 0, 0)


@dataclass
class MatchOutcome:
    record: m.Match
    scores: list[int]
    winner: int | None
    rounds: int


def play_match(
    rules: Rules,
    names: Sequence[str],
    strategies: Sequence[Strategy],
    rng: random.Random,
    *,
    rules_tag: str | None = None,
    target: int | None = None,
    event: str = "Self-play",
    max_rounds: int = 200,
) -> MatchOutcome:
    """Play one match to the target and return it as a record."""
    n = len(names)
    goal = target if target is not None else rules.target_for(n)
    scores = [0] * n
    body: list[m.BodyLine] = []
    winner: int | None = None
    leader: int | None = None  # None: chosen by lot
    rounds = 0
    while winner is None and rounds < max_rounds:
        rounds += 1
        body.append(m.RoundLine(rounds, 0, 0))
        if leader is None:
            leader = rng.randrange(n)
            body.append(m.LeadLine(names[leader], 0, 0, 0))
        hands, stock = deal(rules, n, rng)
        for i in range(n):
            body.append(m.DealLine(names[i], tuple(_tok(t) for t in hands[i]), 0, 0, 0))
        body.append(m.StockLine(tuple(_tok(t) for t in stock), 0, 0))
        state = new_round(hands, stock, leader)
        draws: list[m.Draw] = []
        while not state.over:
            seat = state.to_move
            moves = legal_moves(rules, state)
            move = strategies[seat].choose(rules, state, moves, rng)
            state, points = apply(rules, state, move)
            if isinstance(move, Draw):
                draws.append(m.Draw(_tok(move.tile), 0, 0))
                continue
            action: m.Placement | m.Pass
            if isinstance(move, Pass):
                action = m.Pass(0, 0)
            else:
                assert isinstance(move, Place)
                action = m.Placement(_tok(move.tile, move.left), move.end, None, 0, 0)
            claim = m.Claim(points, 0, 0) if points else None
            body.append(m.Turn(names[seat], tuple(draws), action, claim, 0, 0))
            draws = []
            if points:
                winner = reached(scores, [points if i == seat else 0 for i in range(n)], goal)
                scores[seat] += points
                if winner is not None:
                    break
        if winner is not None:
            body.append(_score_line(names, scores))
            break
        for i, h in enumerate(state.hands):
            if h:
                body.append(m.RevealLine(names[i], tuple(_tok(t) for t in sorted(h)), 0, 0, 0))
        deltas = settle(rules, state.hand_pips(), state.went_out)
        winner = reached(scores, deltas, goal)
        scores = [s + d for s, d in zip(scores, deltas)]
        body.append(_score_line(names, scores))
        leader = state.went_out
    tags = [
        m.Tag("Event", event, 0, 0),
        m.Tag("Players", ", ".join(names), 0, 0),
        m.Tag("Rules", rules_tag or rules.name, 0, 0),
        m.Tag("Target", str(goal), 0, 0),
        m.Tag("Result", names[winner] if winner is not None else "*", 0, 0),
    ]
    return MatchOutcome(m.Match(tuple(tags), tuple(body), 0), scores, winner, rounds)


def _score_line(names: Sequence[str], scores: Sequence[int]) -> m.ScoreLine:
    return m.ScoreLine(tuple(m.ScoreEntry(nm, s, 0, 0) for nm, s in zip(names, scores)), 0, 0)
