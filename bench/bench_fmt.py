"""Peak memory and time of ``muggins fmt`` on one large record file.

    python bench/bench_fmt.py [--matches 100000] [--modes print,in-place,check]

Generates (once; reused after) a file of short self-play matches under
``bench/.data/`` (100,000 one-round matches with deals and stock, about
40 MB), then runs ``muggins fmt`` on it as a subprocess in each mode:
``print`` (stdout to /dev/null), ``in-place`` (on a copy, so every run
rewrites it) and ``check``. Prints, per mode, the wall time and the peak
resident memory of the process (from ``wait4``). ``fmt`` reads a match at
a time, so the peak should not grow with the size of the file; the first
version read the whole file and all its matches at once (1.35 GB for 50 MB).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_preset

DATA = Path(__file__).resolve().parent / ".data"
POOL = 300
VERSION = 3  # bump when the generated file changes


def make_file(matches: int, seed: int = 7) -> Path:
    """``matches`` matches (drawn from a pool of distinct short ones) in one
    file, its comments and spacing made untidy so that fmt has work to do."""
    path = DATA / f"fmt-{matches}-v{VERSION}.mgn"
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    rules = load_preset("pagat")
    pool: list[str] = []
    for _ in range(POOL):
        seats: list[Strategy] = [GreedyStrategy() if rng.random() < 0.5 else RandomStrategy()
                                 for _ in range(2)]
        record = play_match(rules, ["Ana", "Budi"], seats, rng, target=10).record
        text = write_match(record)
        # Untidy, as a hand-kept file is: tags out of order, a comment,
        # double spaces, CRLF.
        text = (f'[Site "Club house, table {rng.randrange(1, 20)}"]\n'
                f'[Date "2026-11-{rng.randrange(1, 31):02d}"]\n' + text)
        pool.append(text.replace("round 1\n", "round  1   # kept by hand\n")
                    .replace("\n", "\r\n"))
    temp = path.with_suffix(".tmp")
    with open(temp, "w", encoding="utf-8", newline="") as out:
        for k in range(matches):
            out.write(("\r\n" if k else "") + pool[rng.randrange(POOL)])
    temp.replace(path)
    return path


def run(args: list[str], stdout: int | None = None) -> tuple[float, int, int]:
    """Seconds, peak RSS in bytes and exit status of ``muggins ARGS``."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "muggins_cli", *args],
                            stdout=stdout if stdout is not None else subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    return seconds, usage.ru_maxrss * 1024, proc.returncode  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--modes", default="print,in-place,check")
    opts = parser.parse_args()
    path = make_file(opts.matches)
    size = path.stat().st_size
    print(f"{path.name}: {opts.matches:,} matches, {size / 2**20:.1f} MB")
    for mode in opts.modes.split(","):
        if mode == "print":
            seconds, peak, code = run(["fmt", str(path)])
        elif mode == "check":
            seconds, peak, code = run(["fmt", "--check", str(path)])
        elif mode == "in-place":
            copy = path.with_name("fmt-in-place.mgn")
            shutil.copyfile(path, copy)
            seconds, peak, code = run(["fmt", "--in-place", str(copy)])
            copy.unlink()
        else:
            raise SystemExit(f"unknown mode {mode!r}")
        print(f"fmt {mode:<9} exit {code}  {seconds:6.1f} s  peak RSS {peak / 2**20:7.1f} MB  "
              f"({size / seconds / 2**20:.2f} MB/s)")


if __name__ == "__main__":
    main()
