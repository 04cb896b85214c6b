"""Strength of the ``solver`` strategy (issue 7): ``python bench/bench_arena.py``.

Plays ``solver`` against ``greedy`` in duplicate format, two-player
``pagat`` to 250 (every deal sequence twice, seats swapped), exactly as

    muggins arena solver greedy --rules pagat --matches PAIRS --seed SEED --jobs JOBS

and prints the figures: matches, wins, win rate with its 95% Wilson
interval, points per round, pairs won in both seats, and time per match.
The goal is a lower end of the interval above 75%.

The solver's budget per move is ``--samples`` deals and ``--nodes`` search
nodes (default 8 and 1,000,000, as in ``muggins arena``), with no time cap,
so the run is reproducible to the move on any machine; only the seconds
change. The default 150 pairs (300 matches) take about 16 minutes on 2
free cores here.

Measured (seed 2026, 300 matches, lead played greedily):

- defaults: solver 259 wins, 86.3%, 95% [82.0%, 89.8%]; 15.67 points a
  round against greedy's 7.70; solver won both legs of 110 deal sequences,
  greedy of 1, 39 split; 941 s on 2 processes (6.3 core-seconds a match).
- ``--nodes 0`` (no cap): 263 wins, 87.7%, 95% [83.5%, 90.9%]; about twice
  as slow (a few positions take a minute for one move).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from muggins_cli.play.arena import ArenaSpec, Game, as_json, play_pairs, tally
from muggins_cli.play.strategies import DEFAULT_NODES
from muggins_cli.rules.loader import load_preset


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=150, help="deal sequences (2x matches)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES,
                    help="cap on search nodes per move, 0 for none")
    ap.add_argument("--search-lead", action="store_true",
                    help="search each round's opening tile too (about 3x slower)")
    ap.add_argument("--a", default="solver")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--json", metavar="FILE", help="also write the arena's JSON here")
    args = ap.parse_args(argv)

    spec = ArenaSpec(args.a, args.b, load_preset("pagat"), players=2, seed=args.seed,
                     samples=args.samples, node_limit=args.nodes or None,
                     search_lead=args.search_lead)
    command = (f"muggins arena {args.a} {args.b} --rules pagat --matches {args.pairs} "
               f"--seed {args.seed} --jobs {args.jobs} --samples {args.samples}"
               + (f" --nodes {args.nodes}" if args.nodes != DEFAULT_NODES else "")
               + (" --search-lead" if args.search_lead else ""))
    print(f"# {command}", flush=True)
    games: list[Game] = []
    start = time.perf_counter()
    for k, done in enumerate(play_pairs(spec, args.pairs, jobs=args.jobs), start=1):
        games.extend(done)
        if k % 10 == 0 or k == args.pairs:
            part = tally(spec, games)
            a = part.sides[0]
            lo, hi = a.interval
            print(f"  {k:4d} pairs  {a.name} {a.wins}/{a.games} = {a.win_rate:.1%} "
                  f"[{lo:.1%}, {hi:.1%}]  {time.perf_counter() - start:7.0f} s",
                  file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    result = tally(spec, games)
    a, b = result.sides
    lo, hi = a.interval
    print(f"matches: {result.matches} ({result.pairs} deal sequences, seats swapped)")
    for s in result.sides:
        slo, shi = s.interval
        print(f"{s.name:>8}: {s.wins:4d} wins  {s.win_rate:6.1%}  95% [{slo:.1%}, {shi:.1%}]  "
              f"{s.points_per_round:6.2f} points/round")
    print(f"deal sequences won in both seats: {a.name} {result.swept[0]}, "
          f"{b.name} {result.swept[1]}, split {result.split}")
    print(f"time: {seconds:.0f} s on {args.jobs} process(es), "
          f"{seconds * args.jobs / max(1, result.matches):.1f} core-seconds a match")
    print(f"lower end of the 95% interval above 75%: {'yes' if lo > 0.75 else 'no'} "
          f"({lo:.1%})")
    if args.json:
        doc = as_json(result)
        doc["seconds"] = round(seconds, 1)
        doc["command"] = command
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
