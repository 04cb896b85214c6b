"""Strategies: how a seat chooses among the legal moves.

A strategy sees the full state object but must use only what its seat could
know; ``random`` and ``greedy`` look only at the layout and their own hand.
"""

from __future__ import annotations

import random
from typing import Protocol

from muggins_cli.engine.layout import count, lead, place
from muggins_cli.engine.state import Move, Place, RoundState
from muggins_cli.rules.model import Rules


class Strategy(Protocol):
    name: str

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move: ...


def immediate_score(rules: Rules, state: RoundState, move: Place) -> int:
    """Points the placement scores at once (the analysis board's first column)."""
    if move.end is None:
        layout = lead(rules, move.tile, move.left)
    else:
        layout = place(rules, state.layout, move.tile, move.end)
    return rules.score_of(count(rules, layout))


class RandomStrategy:
    name = "random"

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move:
        return rng.choice(moves)


class GreedyStrategy:
    """Highest immediate score; ties go to the heaviest tile (shed pips)."""

    name = "greedy"

    def choose(self, rules: Rules, state: RoundState, moves: list[Move],
               rng: random.Random) -> Move:
        places = [m for m in moves if isinstance(m, Place)]
        if not places:
            return moves[0]
        return max(places, key=lambda m: (immediate_score(rules, state, m), m.tile.pips))


STRATEGIES: dict[str, type[RandomStrategy] | type[GreedyStrategy]] = {
    "random": RandomStrategy,
    "greedy": GreedyStrategy,
}
