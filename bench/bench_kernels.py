"""The solver's search, timed position by position: one command.

    python bench/bench_kernels.py                          # this tree alone
    python bench/bench_kernels.py --against /old/src       # side by side with another tree
    python bench/bench_kernels.py --deals 12 --repeat 3

Positions: rounds as dealt (seeds 0, 1, ...) under ``pagat`` and ``spinner``,
solved from the lead (three-player spinner: after three plies) with every
move valued (``solve``, perfect view, no
principal variation): two players, and three with the paranoid view. Each
tree runs in a process of its own (``PYTHONPATH``), compiles (or loads) its
search and warms up first, then solves every position; with ``--against``
the two trees take turns, ``--repeat`` times each, so that a busy machine
slows both alike. The values of every move must agree between the trees.

Printed per row: the fastest and the median CPU seconds a position (the
sum over the row's deals), the nodes a second (each tree counts its own
nodes: the two may count differently), and with ``--against`` the ratio of
the medians. The machine may be shared: compare the columns of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "src"
#: (rules, players, plies played before the position): a three-player
#: spinner round from its lead can take a minute for one deal, so that
#: row starts after the first round of turns.
ROWS = (("pagat", 2, 0), ("pagat", 3, 0), ("spinner", 2, 0), ("spinner", 3, 3))

_CHILD = r"""
import json, random, sys, time
from muggins_cli.engine.state import apply, deal, legal_moves, new_round
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import solve

deals = int(sys.argv[1])
rows = json.loads(sys.argv[2])

def positions(name, players, plies):
    rules = load_preset(name)
    out = []
    for seed in range(deals):
        hands, stock = deal(rules, players, random.Random(seed))
        state = new_round(hands, stock, 0)
        for _ in range(plies):  # the first legal move, a fixed line
            state, _ = apply(rules, state, legal_moves(rules, state)[0])
        out.append((rules, state))
    return out

work = [(name, players, positions(name, players, plies)) for name, players, plies in rows]
for _, _, row in work:  # compile (or load) and warm up
    solve(row[0][0], row[0][1], pv=False, multi="paranoid")
out = []
for name, players, row in work:
    took = 0.0
    nodes = 0
    values = []
    for rules, state in row:
        start = time.process_time()
        res = solve(rules, state, pv=False, multi="paranoid")
        took += time.process_time() - start
        nodes += res.nodes
        values.append([round(m.value, 6) for m in res.moves])
    out.append({"row": f"{name} {players}p", "seconds": took, "nodes": nodes,
                "values": values})
print(json.dumps(out))
"""


def run(src: Path, deals: int) -> list[dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(deals), json.dumps(ROWS)],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{src}: {done.stderr.strip().splitlines()[-1] if done.stderr else 'failed'}")
    result: list[dict[str, object]] = json.loads(done.stdout)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", type=Path, help="another tree's src/ folder")
    a = ap.parse_args(argv)
    trees = {"this": HERE} | ({"other": a.against} if a.against else {})
    got: dict[str, list[list[dict[str, object]]]] = {t: [] for t in trees}
    for _ in range(a.repeat):
        for name, src in trees.items():
            got[name].append(run(src, a.deals))
    for i, (rules, players, plies) in enumerate(ROWS):
        start = "the lead" if not plies else f"ply {plies + 1}"
        print(f"{rules}, {players} players, {a.deals} deals from {start}, x{a.repeat}:")
        medians = {}
        for name in trees:
            rows = [rep[i] for rep in got[name]]
            secs = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
            nodes = int(rows[0]["nodes"])  # type: ignore[call-overload]
            medians[name] = statistics.median(secs)
            print(f"  {name:5}  min {min(secs) / a.deals * 1000:8.1f} ms  median "
                  f"{medians[name] / a.deals * 1000:8.1f} ms a position  "
                  f"{nodes / min(secs):12,.0f} nodes/s  ({nodes // a.deals:,} nodes a position)")
        if len(trees) == 2:
            if got["this"][0][i]["values"] != got["other"][0][i]["values"]:
                sys.exit(f"the two trees disagree on a value ({rules}, {players} players)")
            print(f"  same values; median time other/this: "
                  f"{medians['other'] / medians['this']:.2f}x")


if __name__ == "__main__":
    main()
