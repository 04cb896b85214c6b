"""The cost of ``check`` per turn, in this process: parse + replay + diagnostics.

    python bench/bench_check_inprocess.py [--turns 20000] [--repeat 3] [--profile]

Self-plays records of about ``--turns`` turns (pagat, spinner and all-threes
in turn, two to four players, random and greedy seats, a fixed seed), writes
them to one file under ``bench/.data``, then times
``muggins_cli.check.check_file`` on it ``--repeat`` times and prints the
microseconds per turn (min and median). ``--profile`` prints the top of a
cProfile of one more run instead. No start-up, no printing: the figure is
the per-turn cost the issue is about.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from pathlib import Path

from muggins_cli.check import check_file
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_preset

DATA = Path(__file__).resolve().parent / ".data"
PRESETS = ("pagat", "spinner", "all-threes")
NAMES = ("Ana", "Budi", "Citra", "Dewi")


def make_records(turns: int, seed: int) -> tuple[str, int]:
    """MGN text of self-played matches with at least ``turns`` turn lines."""
    rng = random.Random(seed)
    texts: list[str] = []
    count = 0
    i = 0
    while count < turns:
        n = 2 + i % 3
        rules = load_preset(PRESETS[i % 3])
        seats: list[Strategy] = [GreedyStrategy() if k % 2 else RandomStrategy()
                                 for k in range(n)]
        text = write_match(play_match(rules, NAMES[:n], seats, rng).record)
        count += sum(1 for line in text.splitlines()
                     if ": " in line and not line.startswith("["))
        texts.append(text)
        i += 1
    return "\n".join(texts), count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    args = ap.parse_args()
    path = DATA / f"inprocess-{args.turns}-s{args.seed}.mgn"
    if path.exists():
        turns = sum(1 for line in path.read_text(encoding="utf-8").splitlines()
                    if ": " in line and not line.startswith("["))
    else:
        DATA.mkdir(parents=True, exist_ok=True)
        text, turns = make_records(args.turns, args.seed)
        path.write_text(text, encoding="utf-8")
    report = check_file(str(path))
    assert report.errors == 0, report.diagnostics[:3]
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        check_file(str(path))
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        check_file(str(path))
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    print(f"{turns} turns, {len(report.matches)} matches: "
          f"{_shown(wall, turns)} us/turn wall, {_shown(cpu, turns)} us/turn CPU")


def _shown(times: list[float], turns: int) -> str:
    """Min and median per turn (the CPU time, unlike the wall time, does not
    count the moments a busy machine gave the core to someone else)."""
    per_turn = [t / turns * 1e6 for t in times]
    return f"min {min(per_turn):.2f} median {statistics.median(per_turn):.2f}"


if __name__ == "__main__":
    main()
