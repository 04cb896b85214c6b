"""Engine speed: placements and legal-move generation per second.

    python bench/bench_engine.py [--rounds N] [--repeat K] [--seed S]

For each preset and player count, N rounds are played with random legal moves
from a seeded ``random.Random``; every state met and every placement made is
kept. Then, each best of K timings with ``time.perf_counter``:

- ``legal_moves/s``: ``legal_moves(rules, state)`` over every state met;
- ``place/s``: ``apply(rules, state, move)`` over every placement made (the
  lead included; ``apply`` checks legality, so this includes one
  ``legal_moves`` call and the blocked test);
- ``playout moves/s`` and ``rounds/s``: whole rounds, deal to end, with a
  random legal move at every step (the loop self-play and the tests run).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from muggins_cli.engine.state import (
    Move,
    Place,
    RoundState,
    apply,
    deal,
    legal_moves,
    new_round,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules

PRESETS = ("pagat", "spinner", "all-threes")


def playouts(
    rules: Rules, players: int, rounds: int, rng: random.Random
) -> tuple[list[RoundState], list[tuple[RoundState, Move]]]:
    """Every state met, and every (state, placement) made, in ``rounds`` rounds."""
    states: list[RoundState] = []
    places: list[tuple[RoundState, Move]] = []
    for _ in range(rounds):
        hands, stock = deal(rules, players, rng)
        state = new_round(hands, stock, rng.randrange(players))
        while not state.over:
            moves = legal_moves(rules, state)
            move = rng.choice(moves)
            states.append(state)
            if isinstance(move, Place):
                places.append((state, move))
            state, _ = apply(rules, state, move)
    return states, places


def best_of(repeat: int, work: Callable[[], int]) -> float:
    """Operations per second of ``work`` (which returns its operation count)."""
    best = float("inf")
    ops = 0
    for _ in range(repeat):
        start = time.perf_counter()
        ops = work()
        best = min(best, time.perf_counter() - start)
    return ops / best


def bench(rules: Rules, players: int, rounds: int, repeat: int, seed: int) -> list[str]:
    states, places = playouts(rules, players, rounds, random.Random(seed))

    def gen() -> int:
        for state in states:
            legal_moves(rules, state)
        return len(states)

    def place() -> int:
        for state, move in places:
            apply(rules, state, move)
        return len(places)

    def whole() -> int:
        rng = random.Random(seed)
        n = 0
        for _ in range(rounds):
            hands, stock = deal(rules, players, rng)
            state = new_round(hands, stock, rng.randrange(players))
            while not state.over:
                state, _ = apply(rules, state, rng.choice(legal_moves(rules, state)))
                n += 1
        return n

    moves_per_s = best_of(repeat, whole)
    return [
        rules.name,
        str(players),
        f"{rounds:,}",
        f"{len(states) / rounds:.1f}",
        f"{best_of(repeat, gen):,.0f}",
        f"{best_of(repeat, place):,.0f}",
        f"{moves_per_s:,.0f}",
        f"{moves_per_s * rounds / len(states):,.0f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds per preset and count")
    parser.add_argument("--repeat", type=int, default=5, help="timings per figure (best kept)")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()

    head = [
        "preset", "players", "rounds", "moves/round", "legal_moves/s", "place/s",
        "playout moves/s", "rounds/s",
    ]
    rows = [head]
    for k, name in enumerate(PRESETS):
        rules = load_preset(name)
        for players in rules.players:
            seed = args.seed + 10 * k + players
            rows.append(bench(rules, players, args.rounds, args.repeat, seed))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    rule = "  ".join("-" * w for w in widths)
    print(f"Engine, random legal play, best of {args.repeat} (time.perf_counter)")
    print()
    for i, row in enumerate(rows):
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w)
                        for j, (c, w) in enumerate(zip(row, widths))))
        if i == 0:
            print(rule)


if __name__ == "__main__":
    main()
