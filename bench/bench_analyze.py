"""``muggins analyze --solver`` benchmark: one command, prints its figures.

    python bench/bench_analyze.py                # 5 matches: the club record + 4 self-played
    python bench/bench_analyze.py --matches 2    # a quicker run
    python bench/bench_analyze.py --multi        # also the 3- and 4-player records

The aims (issue 14, on this machine's two cores, so with the default
``--jobs``): a two-player ``pagat`` match to 250 analysed with ``--solver``
in a median under 10 s and each under 20 s; the three- and four-player
records (``records/family-pagat-3p.mgn``, ``records/league-pagat-4p.mgn``)
with every turn that has a choice weighed, each under 90 s. The
two-player matches are the example record
``records/club-night-pagat-2p.mgn`` (played by people, 224 turns) and
self-played two-player ``pagat`` matches to 250 (``greedy`` against
``random``, seeds 2026, 2027, ...: long rounds with many draws and many
mistakes to weigh), each in its own file under ``bench/.data``.

Every two-player match is analysed by the real command, as a subprocess,
three ways: the default (the mover's view: every deal where there are
few, else from 8 deals to a turn's bound as the verdict needs) with
``--jobs 1`` and ``--jobs 2``, and ``--mode perfect --jobs 2``. Printed per
match: turns, turns with a choice, turns weighed,
wall and CPU seconds, and the peak resident size of that run's largest
process (its own, from ``os.wait4``: not the largest of every run so far);
then the median and slowest ``--jobs 2`` wall times against the aims. The
outputs of ``--jobs 1`` and ``--jobs 2`` must be identical (the check is
part of the benchmark). The machine may be shared: CPU seconds are printed
beside wall seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / ".data" / "analyze"
MUGGINS = [sys.executable, "-m", "muggins_cli"]
CLUB = ROOT / "records" / "club-night-pagat-2p.mgn"
MULTI = (ROOT / "records" / "family-pagat-3p.mgn", ROOT / "records" / "league-pagat-4p.mgn")
AIM_MEDIAN, AIM_EACH, AIM_MULTI = 10.0, 20.0, 90.0


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mb: float
    stdout: str


def run(args: list[str]) -> Run:
    """One run of the command, with its own CPU time and peak resident size:
    ``wait4`` reports the child and the workers it waited for, and nothing
    of earlier runs (``RUSAGE_CHILDREN`` would give the largest process of
    every run so far)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([*MUGGINS, *args], stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if code not in (0, 1):
        raise SystemExit(f"muggins {' '.join(args)} failed:\n{stderr}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout)


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
    ap.add_argument("--multi", action="store_true",
                    help="also the 3- and 4-player records, with --jobs 2")
    args = ap.parse_args()
    rows = []
    for path in matches(args.matches):
        base = ["analyze", str(path), "--solver", "--format", "json", "-q"]
        one = run([*base, "--jobs", "1"])
        two = run([*base, "--jobs", "2"])
        if one.stdout != two.stdout:
            raise SystemExit(f"{path.name}: --jobs 1 and --jobs 2 disagree")
        perfect = run([*base, "--mode", "perfect", "--jobs", "2"])
        rows.append((path.name, *_counts(one.stdout), one, two, perfect))

    head = (f"{'match':34} {'turns':>5} {'choice':>6} {'weighed':>7}  "
            f"{'jobs 1 wall/cpu s':>17}  {'jobs 2 wall/cpu s':>17}  {'perfect j2 s':>12}  "
            f"{'peak MB j1/j2':>13}")
    print(head)
    print("-" * len(head))
    for name, turns, unforced, weighed, one, two, perfect in rows:
        print(f"{name:34} {turns:5} {unforced:6} {weighed:7}  "
              f"{one.wall:8.1f}/{one.cpu:6.1f}  {two.wall:8.1f}/{two.cpu:6.1f}  "
              f"{perfect.wall:12.1f}  {one.rss_mb:6.0f}/{two.rss_mb:<6.0f}")
    total_turns = sum(r[1] for r in rows)
    total_one = sum(r[4].wall for r in rows)
    total_two = sum(r[5].wall for r in rows)
    print(f"\n{total_turns} turns: {total_turns / total_one:.1f} turns/s with --jobs 1, "
          f"{total_turns / total_two:.1f} with --jobs 2 ({total_one / total_two:.2f}x)")
    walls = [r[5].wall for r in rows]
    median, slowest = statistics.median(walls), max(walls)
    verdict = "met" if median < AIM_MEDIAN and slowest < AIM_EACH else "NOT met"
    print(f"--jobs 2: median {median:.1f} s, slowest {slowest:.1f} s wall; aim a median "
          f"under {AIM_MEDIAN:.0f} s and each under {AIM_EACH:.0f} s: {verdict}")
    if args.multi:
        for path in MULTI:
            got = run(["analyze", str(path), "--solver", "--format", "json", "-q",
                       "--jobs", "2"])
            turns, unforced, weighed = _counts(got.stdout)
            ok = weighed == unforced and got.wall < AIM_MULTI
            print(f"{path.name}: {turns} turns, {unforced} with a choice, {weighed} weighed; "
                  f"{got.wall:.1f} s wall, {got.cpu:.1f} s CPU, peak {got.rss_mb:.0f} MB; aim "
                  f"every one weighed, under {AIM_MULTI:.0f} s: {'met' if ok else 'NOT met'}")


def _counts(stdout: str) -> tuple[int, int, int]:
    """Turns, turns with a choice, and turns weighed, from the JSON report."""
    doc = json.loads(stdout)["files"][0]["matches"][0]
    turns = len(doc["plays"])
    unforced = sum(1 for p in doc["plays"] if p["solver"]["choices"] > 1)
    weighed = sum(s["solver"]["unforced"] for s in doc["players_summary"])
    return turns, unforced, weighed


if __name__ == "__main__":
    main()
