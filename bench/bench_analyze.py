"""``muggins analyze --solver`` benchmark: one command, prints its figures.

    python bench/bench_analyze.py               # 5 matches: the club record + 4 self-played
    python bench/bench_analyze.py --matches 2   # a quicker run

The aim (issue 7): a whole two-player ``pagat`` match to 250 analysed with
``--solver`` in under a minute on this machine. The matches are the example
record ``records/club-night-pagat-2p.mgn`` (played by people, 224 turns)
and self-played two-player ``pagat`` matches to 250 (``greedy`` against
``random``, seeds 2026, 2027, ...: long rounds with many draws and many
mistakes to weigh), each in its own file under ``bench/.data``.

Every match is analysed by the real command, as a subprocess, three ways:
the default (the mover's view, 16 deals a turn) with ``--jobs 1`` and
``--jobs 2``, and ``--perfect --jobs 2``. Printed per match: turns, turns
with a choice, wall and CPU seconds, the peak resident size of the largest
process; then the slowest wall time against the aim. The outputs of
``--jobs 1`` and ``--jobs 2`` must be identical (the check is part of the
benchmark). The machine may be shared: CPU seconds are printed beside wall
seconds.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / ".data" / "analyze"
MUGGINS = [sys.executable, "-m", "muggins_cli"]
CLUB = ROOT / "records" / "club-night-pagat-2p.mgn"
AIM = 60.0


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mb: float
    stdout: str


def run(args: list[str]) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*MUGGINS, *args], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"muggins {' '.join(args)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, after.ru_maxrss / 1024, done.stdout)


def matches(count: int) -> list[Path]:
    """The club record and ``count - 1`` self-played matches (made once)."""
    DATA.mkdir(parents=True, exist_ok=True)
    out = [CLUB]
    for k in range(count - 1):
        path = DATA / f"selfplay-pagat-2p-{2026 + k}.mgn"
        if not path.exists():
            subprocess.run([*MUGGINS, "selfplay", "--rules", "pagat", "--players", "2",
                            "--seed", str(2026 + k), "--matches", "1",
                            "--strategy", "greedy,random", "-o", str(path)], check=True,
                           capture_output=True)
        out.append(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=5, help="matches to analyse (default 5)")
    args = ap.parse_args()
    rows = []
    slowest = 0.0
    for path in matches(args.matches):
        base = ["analyze", str(path), "--solver", "--format", "json", "-q"]
        one = run([*base, "--jobs", "1"])
        two = run([*base, "--jobs", "2"])
        if one.stdout != two.stdout:
            raise SystemExit(f"{path.name}: --jobs 1 and --jobs 2 disagree")
        perfect = run([*base, "--perfect", "--jobs", "2"])
        doc = json.loads(one.stdout)["files"][0]["matches"][0]
        turns = len(doc["plays"])
        unforced = sum(1 for p in doc["plays"] if p["solver"]["choices"] > 1)
        weighed = sum(s["solver"]["unforced"] for s in doc["players_summary"])
        slowest = max(slowest, one.wall, two.wall)
        rows.append((path.name, turns, unforced, weighed, one, two, perfect))

    head = (f"{'match':34} {'turns':>5} {'choice':>6} {'weighed':>7}  "
            f"{'jobs 1 wall/cpu s':>17}  {'jobs 2 wall/cpu s':>17}  {'perfect j2 s':>12}  "
            f"{'peak MB':>7}")
    print(head)
    print("-" * len(head))
    for name, turns, unforced, weighed, one, two, perfect in rows:
        print(f"{name:34} {turns:5} {unforced:6} {weighed:7}  "
              f"{one.wall:8.1f}/{one.cpu:6.1f}  {two.wall:8.1f}/{two.cpu:6.1f}  "
              f"{perfect.wall:12.1f}  {max(one.rss_mb, two.rss_mb):7.0f}")
    total_turns = sum(r[1] for r in rows)
    total_one = sum(r[4].wall for r in rows)
    total_two = sum(r[5].wall for r in rows)
    print(f"\n{total_turns} turns: {total_turns / total_one:.1f} turns/s with --jobs 1, "
          f"{total_turns / total_two:.1f} with --jobs 2 ({total_one / total_two:.2f}x)")
    verdict = "met" if slowest < AIM else "NOT met"
    print(f"slowest match: {slowest:.1f} s wall; aim under {AIM:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
