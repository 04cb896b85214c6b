"""How long the solver takes to be ready: compiled on a machine that never
ran it, and loaded from this machine's cache after.

    python bench/bench_prepare.py [--cold N] [--runs N] [--against OTHER/src]

Cold: ``muggins prepare`` with an empty cache folder (``XDG_CACHE_HOME`` a
fresh temporary folder), ``--cold`` times: wall and CPU seconds of the whole
process (compiling is one thread: on an idle machine the wall time is about
the CPU time; on a busy one, more). Warm: in a fresh process each time,
importing Numba, importing the search and loading it (``kernel.ready``),
``--runs`` times, min and median of each step, wall and CPU seconds (on a
busy machine the CPU seconds are the figure to compare). With ``--against`` the other
tree is timed alike, interleaved. The first compile of the search's
sources also writes the cache the warm runs read.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "src"

_WARM = r"""
import json, time
w0, c0 = time.perf_counter(), time.process_time()
import numba
w1, c1 = time.perf_counter(), time.process_time()
from muggins_cli.solver import kernel
w2, c2 = time.perf_counter(), time.process_time()
kernel.ready()
w3, c3 = time.perf_counter(), time.process_time()
print(json.dumps({"numba": w1 - w0, "import": w2 - w1, "ready": w3 - w2, "total": w3 - w0,
                  "numba CPU": c1 - c0, "import CPU": c2 - c1, "ready CPU": c3 - c2,
                  "total CPU": c3 - c0}))
"""

_COLD = "from muggins_cli.solver import kernel; kernel.ready()"


def cold(src: Path) -> tuple[float, float]:
    """A compile into an empty cache: wall and CPU seconds."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(src), "XDG_CACHE_HOME": cache}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", _COLD], env=env, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def warm(src: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", _WARM], env=env, check=True,
                          capture_output=True, text=True)
    out: dict[str, float] = json.loads(done.stdout)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cold", type=int, default=1, help="compiles into an empty cache")
    ap.add_argument("--runs", type=int, default=10, help="warm loads")
    ap.add_argument("--against", type=Path, help="another tree's src/ folder")
    a = ap.parse_args()
    trees = {"this": HERE} | ({"other": a.against} if a.against else {})
    colds: dict[str, list[tuple[float, float]]] = {t: [] for t in trees}
    warms: dict[str, list[dict[str, float]]] = {t: [] for t in trees}
    for _ in range(a.cold):
        for name, src in trees.items():
            colds[name].append(cold(src))
    for src in trees.values():
        warm(src)  # the cache of this machine, written if need be
    for _ in range(a.runs):
        for name, src in trees.items():
            warms[name].append(warm(src))
    print(f"load average {os.getloadavg()[0]:.1f}")
    for name in trees:
        if colds[name]:
            walls = [w for w, _ in colds[name]]
            cpus = [c for _, c in colds[name]]
            print(f"{name:5}  cold compile: wall min {min(walls):.1f} s median "
                  f"{statistics.median(walls):.1f} s; CPU min {min(cpus):.1f} s median "
                  f"{statistics.median(cpus):.1f} s")
        for step in ("numba", "import", "ready", "total"):
            xs = [w[step] for w in warms[name]]
            cs = [w[f"{step} CPU"] for w in warms[name]]
            print(f"{name:5}  warm {step:6}: wall min {min(xs):.2f} s median "
                  f"{statistics.median(xs):.2f} s; CPU min {min(cs):.2f} s median "
                  f"{statistics.median(cs):.2f} s")


if __name__ == "__main__":
    main()
