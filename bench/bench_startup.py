"""How long muggins takes to start, as a whole process, beside a bare Typer app.

    python bench/bench_startup.py [--runs N] [--record FILE] [--muggins CMD]

Runs ``muggins check FILE``, ``muggins stats FILE``, ``muggins analyze
FILE`` (no solver), ``muggins --help`` and ``muggins --version`` (output to
/dev/null, exit status checked) N times each, interleaved so that a change
in the machine's load touches all alike, and prints the minimum and the
median wall time of each, and each against the bare Typer app: a Typer
app of one command taking one argument (``bench/bare_typer.py``), run on
the same file, the least a Typer command costs. ``python -c pass`` is timed
alongside, the floor that no Python command goes below. What a small file
costs to check is almost all start-up: importing Python, Typer and the
modules the command needs.

A warm-up run of each command comes first, with PYTHONDONTWRITEBYTECODE
removed from the environment so that the bytecode caches an installed
package has exist; the timed runs use the same environment.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "records" / "threes-2p.mgn"
BARE = Path(__file__).with_name("bare_typer.py")


def muggins_command() -> list[str]:
    """The ``muggins`` beside this Python (the one the venv installed), or
    ``python -m muggins_cli``."""
    script = Path(sys.executable).with_name("muggins")
    if script.exists():
        return [str(script)]
    found = shutil.which("muggins")
    return [found] if found else [sys.executable, "-m", "muggins_cli"]


def run_once(argv: list[str], env: dict[str, str], expect: int) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=env, cwd=ROOT, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != expect:
        sys.exit(f"{shlex.join(argv)}: exit status {done.returncode}, not {expect}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="timed runs of each command")
    parser.add_argument("--record", type=Path, default=RECORD, help="the record to check")
    parser.add_argument("--muggins", default=None,
                        help="the command to run (default: the installed muggins)")
    args = parser.parse_args()

    muggins = shlex.split(args.muggins) if args.muggins else muggins_command()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    record = str(args.record)
    commands = {
        "bare Typer app": ([sys.executable, str(BARE), record], 0),
        f"muggins check {args.record.name}": ([*muggins, "check", record], 0),
        f"muggins stats {args.record.name}": ([*muggins, "stats", record], 0),
        f"muggins analyze {args.record.name}": ([*muggins, "analyze", record], 0),
        "muggins --help": ([*muggins, "--help"], 0),
        "muggins --version": ([*muggins, "--version"], 0),
        "python -c pass": ([sys.executable, "-c", "pass"], 0),
    }
    for argv, expect in commands.values():
        run_once(argv, env, expect)  # warm-up: bytecode caches, the file in the page cache
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, (argv, expect) in commands.items():
            times[name].append(run_once(argv, env, expect))

    print(f"{args.runs} runs of each, interleaved ({shlex.join(muggins)}; "
          f"load average {os.getloadavg()[0]:.2f} at the end, {os.cpu_count()} cores)")
    width = max(map(len, commands))
    bare = times["bare Typer app"]
    for name, seen in times.items():
        print(f"  {name:<{width}}  min {min(seen) * 1000:6.1f} ms   "
              f"median {statistics.median(seen) * 1000:6.1f} ms   "
              f"x bare: min {min(seen) / min(bare):4.2f}  "
              f"median {statistics.median(seen) / statistics.median(bare):4.2f}")


if __name__ == "__main__":
    main()
