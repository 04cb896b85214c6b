"""The solver's cost at a round's first turn in machine instructions, this
tree beside another.

    python bench/bench_kernels_instructions.py --base OTHER/src [--open-deals 1]

``bench_kernels.py --rows openings`` times the search; on a shared machine
those times move by more than a small change to the search costs, and the
per-deal medians and the whole-run throughput can even disagree. The
number of instructions a run executes does not move with the load. So this
deals the openings rows as ``bench_kernels.py`` does (the same positions
for both trees), and runs each tree's search on them under valgrind's
callgrind (``PYTHONPATH=SRC``): once warming up only, once per row solving
every deal of it; the difference is the instructions of the row's search,
without the start-up, the imports and the loading of the compiled search.
Printed per row and tree: nodes (they must agree with the other tree, as
must every move's value), instructions, instructions a node, and the ratio
of the two trees.

Needs valgrind (``apt-get install valgrind``) and the search compiled for
each tree first (any solver command, or ``muggins prepare``); callgrind runs
the search some fifty times slower, so the default is one deal per round
opening: about 30 deals of two-player ``pagat`` and 8 of four-player
``spinner``, some ten minutes a tree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kernels import _PARANOID, HERE, openings

_CHILD = r"""
import json, sys
from muggins_cli.engine.state import new_round
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import solve

{paranoid}
from muggins_cli.tiles import Tile

rows = json.loads(open(sys.argv[1]).read())
solve_row = int(sys.argv[2])  # -1: warm up only

def state(d):
    hands = [[Tile.parse(t) for t in h] for h in d["hands"]]
    return new_round(hands, [Tile.parse(t) for t in d["stock"]], d["leader"])

first = rows[0]
paranoid(load_preset(first["rules"]), state(first["deals"][0]), node_limit=1000)
out = {"nodes": 0, "values": []}
if solve_row >= 0:
    row = rows[solve_row]
    rules = load_preset(row["rules"])
    for d in row["deals"]:
        res = paranoid(rules, state(d), scores=d["scores"], target=d["target"])
        out["nodes"] += res.nodes
        out["values"].append([round(m.value, 6) for m in res.moves])
print(json.dumps(out))
""".replace("{paranoid}", _PARANOID)


def measured(src: Path, rows_file: str, row: int) -> tuple[int, dict[str, object]]:
    """What a process that warms up and solves row ``row`` (-1: none)
    executes, all told, and what it found."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(src))
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", _CHILD, rows_file, str(row)],
                          env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        sys.exit(f"{src}: the run failed: {tail[0]}")
    result: dict[str, object] = json.loads(done.stdout)
    return int(found.group(1)), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="another tree's src/ folder")
    ap.add_argument("--open-deals", type=int, default=1,
                    help="deals of each two-player pagat round opening")
    ap.add_argument("--open-deals-4p", type=int, default=1,
                    help="deals of each four-player spinner round opening")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed: apt-get install valgrind")
    rows = openings(args.open_deals, args.open_deals_4p)
    trees = {"this": HERE, "base": args.base.resolve()}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rows, f)
    try:
        start = {name: measured(src, f.name, -1)[0] for name, src in trees.items()}
        for i, row in enumerate(rows):
            deals = row["deals"]
            assert isinstance(deals, list)
            print(f"{row['name']}: {len(deals)} deals")
            got = {name: measured(src, f.name, i) for name, src in trees.items()}
            for name, (total, found) in got.items():
                nodes = int(found["nodes"])  # type: ignore[call-overload]
                work = total - start[name]
                print(f"  {name:5} {nodes:>12,} nodes  {work / 1e6:>12,.1f} M instructions  "
                      f"{work / max(nodes, 1):>8,.1f} a node")
            if got["this"][1] != got["base"][1]:
                sys.exit("  the two trees disagree on nodes or a value")
            ratio = (got["this"][0] - start["this"]) / (got["base"][0] - start["base"])
            print(f"  same nodes and values; this / base instructions: {ratio:.3f}")
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    main()
