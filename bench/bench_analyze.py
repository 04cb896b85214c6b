"""``muggins analyze --solver`` benchmark: one command, prints its figures.

    python bench/bench_analyze.py                # 5 matches: the club record + 4 self-played
    python bench/bench_analyze.py --matches 2    # a quicker run
    python bench/bench_analyze.py --multi        # also the 3- and 4-player records
    python bench/bench_analyze.py --base /work/main/src --repeat 3   # this tree against another

The aims (on this machine's two cores, so with the default
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
few, else from 16 deals to a turn's bound as the verdict needs) with
``--jobs 1`` and ``--jobs 2``, and ``--mode perfect --jobs 2``. Printed per
match: turns, turns with a choice, turns weighed,
wall and CPU seconds, and the peak resident size of that run's largest
process (its own, from ``os.wait4``: not the largest of every run so far);
then the median and slowest ``--jobs 2`` wall times against the aims. The
outputs of ``--jobs 1`` and ``--jobs 2`` must be identical (the check is
part of the benchmark). The machine may be shared: CPU seconds are printed
beside wall seconds.

With ``--base SRC`` the benchmark is a comparison instead: each match is
analysed with ``--jobs 1`` by this tree and by the tree whose ``src``
folder ``SRC`` is (``PYTHONPATH``), ``--repeat`` times each, interleaved
(which tree goes first alternates), after one untimed run of each to
compile the solver; printed per match and in all, the min and median wall
and CPU seconds of each tree and this tree's medians over the base's (the
machine may be shared: CPU seconds, interleaved, are the figure to read).
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


def run(args: list[str], env: dict[str, str] | None = None) -> Run:
    """One run of the command, with its own CPU time and peak resident size:
    ``wait4`` reports the child and the workers it waited for, and nothing
    of earlier runs (``RUSAGE_CHILDREN`` would give the largest process of
    every run so far)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([*MUGGINS, *args], stdout=out, stderr=err, text=True, env=env)
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
    ap.add_argument("--base", type=Path, default=None, metavar="SRC",
                    help="compare with the tree whose src folder SRC is, --jobs 1, interleaved")
    ap.add_argument("--repeat", type=int, default=3, help="with --base: runs of each (3)")
    args = ap.parse_args()
    if args.base is not None:
        compare(matches(args.matches), args.base, args.repeat)
        return
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


def compare(paths: list[Path], base: Path, repeat: int) -> None:
    """This tree against ``base`` (module docstring)."""
    here = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    there = dict(os.environ, PYTHONPATH=str(base.resolve()))
    trees = {"this": here, "base": there}
    warm = ["solve", str(CLUB), "--at", "1.1", "--nodes", "1000"]
    for env in trees.values():
        run(warm, env)
    totals: dict[str, list[list[Run]]] = {name: [] for name in trees}
    print(f"{'match':34} {'tree':5} {'wall min/median s':>18} {'cpu min/median s':>17}")
    for path in paths:
        args = ["analyze", str(path), "--solver", "--format", "json", "-q", "--jobs", "1"]
        got: dict[str, list[Run]] = {name: [] for name in trees}
        for k in range(repeat):
            order = list(trees) if k % 2 == 0 else list(trees)[::-1]
            for name in order:
                got[name].append(run(args, trees[name]))
        for name, runs in got.items():
            totals[name].append(runs)
            walls, cpus = [r.wall for r in runs], [r.cpu for r in runs]
            print(f"{path.name:34} {name:5} {min(walls):8.1f}/{statistics.median(walls):<8.1f} "
                  f"{min(cpus):8.1f}/{statistics.median(cpus):<8.1f}")
        print(f"{'':34} this/base medians: wall {_ratio(got, 'wall'):.2f}, "
              f"cpu {_ratio(got, 'cpu'):.2f}")
    sums = {name: [sum(runs[k].cpu for runs in per) for k in range(repeat)]
            for name, per in totals.items()}
    walls = {name: [sum(runs[k].wall for runs in per) for k in range(repeat)]
             for name, per in totals.items()}
    for name in trees:
        print(f"all {len(paths)} matches, {name}: wall min {min(walls[name]):.1f} median "
              f"{statistics.median(walls[name]):.1f} s, cpu min {min(sums[name]):.1f} median "
              f"{statistics.median(sums[name]):.1f} s")
    mid = statistics.median
    print(f"this/base: wall medians {mid(walls['this']) / mid(walls['base']):.2f}, "
          f"cpu medians {mid(sums['this']) / mid(sums['base']):.2f}, "
          f"cpu mins {min(sums['this']) / min(sums['base']):.2f}")


def _ratio(got: dict[str, list[Run]], what: str) -> float:
    """This tree's median of ``what`` (wall or cpu) over the base's."""
    def mid(name: str) -> float:
        return statistics.median(getattr(r, what) for r in got[name])

    return mid("this") / mid("base")


def _counts(stdout: str) -> tuple[int, int, int]:
    """Turns, turns with a choice, and turns weighed, from the JSON report."""
    doc = json.loads(stdout)["files"][0]["matches"][0]
    turns = len(doc["plays"])
    unforced = sum(1 for p in doc["plays"] if p["solver"]["choices"] > 1)
    weighed = sum(s["solver"]["unforced"] for s in doc["players_summary"])
    return turns, unforced, weighed


if __name__ == "__main__":
    main()
