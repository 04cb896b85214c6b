"""What ``muggins check`` costs on a folder of hostile rules files (issue 18).

    python bench/bench_hostile.py [--repeat K] [--jobs N]

Builds the folder of ``tests/hostile.py`` (records naming a self-referring
alias, 5,000 nested brackets, a billion-laughs bomb and a FIFO as their rules,
and one good record) and runs ``muggins check`` on it K times, printing the
exit status, the peak resident set of the largest process of the run (MB)
and the wall-clock seconds of each run. The limits the tests assert are
400 MB and 20 s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hostile import measure, muggins_argv, write_hostile_folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_hostile_folder(root / "records")
        extra = [] if args.jobs is None else ["--jobs", str(args.jobs)]
        argv = muggins_argv("check", "-q", *extra, "records")
        for i in range(args.repeat):
            run = measure(argv, timeout=120, cwd=root, memory_cap_mb=4000)
            status = "timed out" if run.returncode is None else f"exit {run.returncode}"
            bad = run.stdout.count(" bad-header ")
            print(f"run {i + 1}: {status}, {bad} bad-header, peak {run.peak_mb:.0f} MB, "
                  f"{run.seconds:.2f} s")


if __name__ == "__main__":
    main()
