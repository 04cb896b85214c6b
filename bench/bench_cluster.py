"""Cluster benchmark: ``muggins check --scheduler`` with 1 and 2 workers.

    python bench/bench_cluster.py               # 8 MB corpus, 3 runs of each
    python bench/bench_cluster.py --size 32M --repeat 5

A real ``dask scheduler`` and ``dask worker`` processes (one thread each),
started on 127.0.0.1 as a user starts them on several machines
(``tests/dask_cluster.py``, without its test faults), check a corpus of
generated records (``make_corpus.py``) with ``--format json -q``, run as a
subprocess. Each configuration runs once to warm the workers (they import
muggins-cli at their first task), then ``--repeat`` times; files per second
are printed for each run, then for the fastest and the median run. Every
output must be identical to the others and to ``--jobs 1``'s.

The machine may be shared: the cores that other processes kept busy during
each run (from /proc/stat, less the benchmark's own processes) are printed
beside it, since two workers on two cores cannot be twice as fast as one
while something else holds a core.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the cluster of the tests

from tests.dask_cluster import real_cluster

from make_corpus import corpus_files, ensure_corpus, parse_size

MUGGINS = [sys.executable, "-m", "muggins_cli"]


def _busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _own_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by these processes (the cluster's)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _children_seconds() -> float:
    """CPU seconds of the ended child processes (each muggins run)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], cluster_pids: list[int]) -> tuple[float, float, str]:
    """Wall seconds, the other processes' load in cores meanwhile, and the
    digest of stdout, of one muggins run."""
    busy, own, runs = _busy_seconds(), _own_seconds(cluster_pids), _children_seconds()
    start = time.perf_counter()
    done = subprocess.run([*MUGGINS, *args], capture_output=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"muggins {' '.join(args[:3])}... ended with {done.returncode}: "
                 f"{done.stderr.decode()[-500:]}")
    mine = _own_seconds(cluster_pids) - own + _children_seconds() - runs
    others = max(0.0, _busy_seconds() - busy - mine) / wall
    return wall, others, hashlib.sha256(done.stdout).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="8M", help="corpus size (default 8M)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each (default 3)")
    args = ap.parse_args()

    folder = ensure_corpus(parse_size(args.size), quiet=True)
    files = [str(f) for f in corpus_files(folder)]
    nbytes = sum(os.path.getsize(f) for f in files)
    print(f"corpus: {len(files)} files, {nbytes / 1024**2:.1f} MB in {folder}")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    check = ["check", *files, "--format", "json", "-q"]
    _, _, reference = timed([*check, "--jobs", "1"], [])
    summary: dict[int, tuple[float, float]] = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp, \
                real_cluster(Path(tmp), workers, faults=False) as cluster:
            pids = [p.pid for p in cluster.workers.values()]
            timed(["check", files[0], "-q", "--scheduler", cluster.address], pids)  # warm-up
            walls = []
            for i in range(max(1, args.repeat)):
                wall, others, digest = timed([*check, "--scheduler", cluster.address], pids)
                if digest != reference:
                    sys.exit("the cluster's output differs from --jobs 1's")
                walls.append(wall)
                print(f"  {workers} worker{'s' if workers > 1 else ' '} run {i + 1}: "
                      f"{wall:6.2f} s  {len(files) / wall:6.1f} files/s  "
                      f"{nbytes / wall / 1024**2:5.2f} MB/s  [others' load {others:.2f} cores]")
        summary[workers] = (min(walls), statistics.median(walls))
    for workers, (best, median) in summary.items():
        print(f"{workers} worker{'s' if workers > 1 else ' '}: {len(files) / best:6.1f} files/s "
              f"fastest, {len(files) / median:6.1f} median "
              f"({nbytes / best / 1024**2:.2f} MB/s fastest); outputs identical to --jobs 1")
    one, two = summary[1][0], summary[2][0]
    print(f"speed-up, 2 workers / 1 (fastest runs): {one / two:.2f}x")


if __name__ == "__main__":
    main()
