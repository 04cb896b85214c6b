"""Benchmark of the solver: ``python bench/bench_solver.py``.

Positions: two-player ``pagat`` rounds from seeded deals (seed 0, 1, ...;
a deal whose round ends before its 10th turn is skipped, so every deal
gives all three positions), taken before turn 1 (the lead), turn 5 and
turn 10, the turns played by a seeded random legal policy. Scores 0-0,
target 250 (so the target is "live" in the table key near the start).

Figures:

1. ``perfect``: median and maximum time to value every legal move, with
   principal variations, and nodes per second.
2. ``expect``: the same with a node budget (default 300k: half for exact
   expectimax, the rest for sampled stock orders), and how many were exact.
3. A plain alpha-beta on ``engine.state`` objects, no table, no move
   ordering, valuing every root move with a full window, on the same
   positions, capped at ``--plain-cap`` seconds a position: the speed-up is
   plain time / solver time, a lower bound where the plain search hit the
   cap. Where it finished, its values must equal the solver's.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from muggins_cli.engine.scoring import settle
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    RoundState,
    apply,
    deal,
    legal_moves,
    new_round,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules
from muggins_cli.solver import Plan, solve

TURNS = (1, 5, 10)
TARGET = 250


def positions(rules: Rules, deals: int) -> dict[int, list[RoundState]]:
    """``deals`` rounds, each seen before turns 1, 5 and 10."""
    out: dict[int, list[RoundState]] = {t: [] for t in TURNS}
    seed = 0
    while len(out[1]) < deals:
        rng = random.Random(seed)
        seed += 1
        hands, stock = deal(rules, 2, rng)
        state = new_round(hands, stock, rng.randrange(2))
        got: dict[int, RoundState] = {1: state}
        turn = 1
        while not state.over and turn < max(TURNS):
            move = rng.choice(legal_moves(rules, state))
            state, _ = apply(rules, state, move)
            if not isinstance(move, KnownDraw) and state.drawn is None:
                turn += 1
                if turn in TURNS and not state.over:
                    got[turn] = state
        if len(got) == len(TURNS):
            for t in TURNS:
                out[t].append(got[t])
    return out


class Capped(Exception):
    pass


def plain_values(rules: Rules, state: RoundState, cap: float) -> list[int] | None:
    """Every root move's value by plain alpha-beta over the engine: no
    table, moves in ``legal_moves`` order. None when it passes ``cap``."""
    deadline = time.perf_counter() + cap
    count = [0]

    def value(s: RoundState, move: Move, alpha: float, beta: float) -> float:
        seat = s.to_move
        child, pts = apply(rules, s, move)
        if pts >= TARGET:  # scores start at 0: only a 250 credit could end the match
            return pts
        if child.over:
            d = settle(rules, child.hand_pips(), child.went_out)
            return pts + d[seat] - d[1 - seat]
        if child.to_move == seat:
            return pts + ab(child, alpha - pts, beta - pts)
        return pts - ab(child, pts - beta, pts - alpha)

    def ab(s: RoundState, alpha: float, beta: float) -> float:
        count[0] += 1
        if not count[0] & 255 and time.perf_counter() > deadline:
            raise Capped
        best = -float("inf")
        for m in legal_moves(rules, s):
            v = value(s, m, alpha, beta)
            if v > best:
                best = v
                alpha = max(alpha, v)
                if v >= beta:
                    break
        return best

    try:
        return [int(value(state, m, -float("inf"), float("inf")))
                for m in legal_moves(rules, state)]
    except Capped:
        return None


def ms(xs: Sequence[float], cpu: Sequence[float] | None = None) -> str:
    out = f"median {1000 * statistics.median(xs):8.1f} ms   max {1000 * max(xs):8.1f} ms"
    if cpu is not None:
        out += (f"   (cpu: median {1000 * statistics.median(cpu):.1f} ms, "
                f"max {1000 * max(cpu):.1f} ms)")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--expect-nodes", type=int, default=300_000)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--plain-cap", type=float, default=1.0)
    ap.add_argument("--skip-plain", action="store_true")
    args = ap.parse_args()
    rules = load_preset("pagat")
    pos = positions(rules, args.deals)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"two-player pagat, {args.deals} seeded deals, scores 0-0, target {TARGET}; "
          f"Python {sys.version.split()[0]}, load average {load:.2f}, {os.cpu_count()} cpus")
    print("times are wall clock per solve; cpu is the process time of the same solve "
          "(the two differ when the machine is shared)")

    print("\nperfect (every legal move valued, with principal variations)")
    perfect: dict[int, list[float]] = {}
    values: dict[int, list[list[float | None]]] = {}
    all_nodes = 0
    all_secs = 0.0
    for t in TURNS:
        times = []
        cpu = []
        values[t] = []
        for s in pos[t]:
            t0 = time.perf_counter()
            c0 = time.process_time()
            res = solve(rules, s, scores=[0, 0], target=TARGET)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            assert res.exact
            all_nodes += res.nodes
            all_secs += res.seconds
            values[t].append([m.value for m in res.moves])
        perfect[t] = times
        print(f"  turn {t:2d}: {ms(times, cpu)}")
    print(f"  nodes per second: {all_nodes / all_secs:,.0f} ({all_nodes:,} nodes in "
          f"{all_secs:.2f} s)")

    print(f"\nexpect (node budget {args.expect_nodes:,}: half exact expectimax, then up to "
          f"{args.samples} sampled stock orders)")
    for t in TURNS:
        times = []
        cpu = []
        exact = 0
        for s in pos[t]:
            t0 = time.perf_counter()
            c0 = time.process_time()
            res = solve(rules, s, scores=[0, 0], target=TARGET, plan=Plan(mode="expect",
                        node_limit=args.expect_nodes, samples=args.samples))
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            exact += res.exact
        print(f"  turn {t:2d}: {ms(times, cpu)}   exact {exact}/{len(times)}")

    if args.skip_plain:
        return
    print(f"\nplain alpha-beta on engine.state (no table, no ordering), capped at "
          f"{args.plain_cap:g} s a position")
    for t in TURNS:
        ratios = []
        capped = 0
        agree = 0
        for i, s in enumerate(pos[t]):
            t0 = time.perf_counter()
            got = plain_values(rules, s, args.plain_cap)
            plain = time.perf_counter() - t0
            if got is None:
                capped += 1
            else:
                assert got == values[t][i], (t, i, got, values[t][i])
                agree += 1
            ratios.append(plain / perfect[t][i])
        sign = ">=" if capped else ""
        print(f"  turn {t:2d}: speed-up median {sign}{statistics.median(ratios):,.1f}x   "
              f"min {min(ratios):,.1f}x   capped {capped}/{len(ratios)}   "
              f"values equal where finished {agree}/{agree}")


if __name__ == "__main__":
    main()
