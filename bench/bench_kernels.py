"""The compiled searches against the Python ones, side by side: one command.

    python bench/bench_kernels.py               # 12 deals, 2 and 3 players
    python bench/bench_kernels.py --deals 30

Positions: ``pagat`` rounds as dealt (seeds 0, 1, ...), solved from the lead
with every move valued (``solve``, perfect view, no principal variation):
the two-player search for two players, the paranoid one for three. Each
position is solved by the Python search (``MUGGINS_PURE_PYTHON=1``) and by
the compiled one, alternately and ``--repeat`` times each, in one process
(the compiled one compiled and warmed up first), and the two must give the
same values and node counts. Printed per player count: the fastest and the
median seconds a position for each, nodes a second, and the ratio of the
medians. The machine may be shared: compare the two columns of one run.
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

from muggins_cli.engine.state import RoundState, deal, new_round
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import solve

PAGAT = load_preset("pagat")


def positions(players: int, count: int) -> list[RoundState]:
    out = []
    for seed in range(count):
        hands, stock = deal(PAGAT, players, random.Random(seed))
        out.append(new_round(hands, stock, 0))
    return out


def timed(state: RoundState, pure: bool) -> tuple[float, object, int]:
    os.environ["MUGGINS_PURE_PYTHON"] = "1" if pure else "0"
    start = time.process_time()
    res = solve(PAGAT, state, pv=False, multi="paranoid")
    took = time.process_time() - start
    return took, [(m.move, m.value) for m in res.moves], res.nodes


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    timed(positions(2, 1)[0], pure=False)  # compile (or load) and warm up
    timed(positions(3, 1)[0], pure=False)
    for players in (2, 3):
        times: dict[bool, list[float]] = {True: [], False: []}
        nodes = 0
        for state in positions(players, a.deals):
            for _ in range(a.repeat):
                got = {}
                for pure in (True, False):
                    took, values, n = timed(state, pure)
                    times[pure].append(took)
                    got[pure] = (values, n)
                if got[True] != got[False]:
                    sys.exit(f"the two searches disagree on a {players}-player deal")
                nodes += got[True][1]
        total = {p: sum(t) for p, t in times.items()}
        print(f"{players} players, {a.deals} deals x {a.repeat}: same values and nodes; "
              f"{nodes // (a.deals * a.repeat):,} nodes a position")
        for pure in (True, False):
            t = times[pure]
            print(f"  {'python  ' if pure else 'compiled'}  min {min(t) * 1000:8.1f} ms  "
                  f"median {statistics.median(t) * 1000:8.1f} ms  "
                  f"{nodes / total[pure]:12,.0f} nodes/s")
        print(f"  median ratio python/compiled: "
              f"{statistics.median(times[True]) / statistics.median(times[False]):.1f}x")


if __name__ == "__main__":
    main()
