"""The cost of ``check`` per turn in machine instructions, this tree beside another.

    python bench/bench_check_instructions.py --base OTHER/src [--turns 20000]

Times on a shared machine move by several per cent from run to run, more
than a small change costs; the number of instructions a run executes does
not. So this runs ``muggins_cli.check.check_file`` on the corpus of
``bench_check_inprocess.py`` (the same self-played file) under valgrind's
callgrind, once with one check and once with three, and prints the
difference halved: the instructions of one check, without the start-up,
the imports and the first check's building of the layout tables. With
``--base SRC`` it does the same for the tree whose ``src`` folder that is
(``PYTHONPATH=SRC``) and prints the ratio. Hash randomisation is off
(``PYTHONHASHSEED=0``): with it on, set and dict orders move the count by
about 1%. Repeated runs agree within 0.1% (this tree's twice to the
instruction; f41ae5e's 1,934.2 M and 1,935.3 M).

Needs valgrind (``apt-get install valgrind``); each tree takes about a
minute and a half (callgrind runs Python some fifty times slower).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check_inprocess import DATA, make_records

_RUN = ("import sys\n"
        "from muggins_cli.check import check_file\n"
        "for _ in range(int(sys.argv[2])):\n"
        "    check_file(sys.argv[1])\n")


def instructions(src: Path | None, path: Path, checks: int) -> int:
    """What a process that checks ``path`` ``checks`` times executes, all told."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", _RUN, str(path), str(checks)],
                          env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_check(src: Path | None, path: Path) -> int:
    return (instructions(src, path, 3) - instructions(src, path, 1)) // 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--base", type=Path, default=None,
                    help="another tree's src folder, counted the same way")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is needed for this benchmark: apt-get install valgrind", file=sys.stderr)
        return 2
    path = DATA / f"inprocess-{args.turns}-s{args.seed}.mgn"
    if path.exists():
        text = path.read_text(encoding="utf-8")
        turns = sum(1 for line in text.splitlines() if ": " in line and not line.startswith("["))
    else:
        DATA.mkdir(parents=True, exist_ok=True)
        text, turns = make_records(args.turns, args.seed)
        path.write_text(text, encoding="utf-8")
    this = per_check(None, path)
    print(f"this tree: {this:,} instructions a check of {turns} turns "
          f"({this / turns:,.0f} a turn)")
    if args.base is not None:
        base = per_check(args.base, path)
        print(f"base      : {base:,} instructions ({base / turns:,.0f} a turn), {args.base}")
        print(f"this / base: {this / base:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
