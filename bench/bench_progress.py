"""What the progress bar costs per item handed out, on a terminal.

    python bench/bench_progress.py [--items N]

Runs N items through ``with_progress`` with stderr standing in for a
terminal (a StringIO that says it is one), so the bar is drawn, hidden for
each item and drawn again, and prints microseconds per item and the bytes
the bar wrote. The bar is drawn at most ten times a second, so the cost per
item is a few bytes whatever N is.
"""

from __future__ import annotations

import argparse
import io
import sys
import time

from muggins_cli.cli.progress import with_progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=5000)
    args = parser.parse_args()
    real, fake = sys.stderr, _Terminal()
    sys.stderr = fake
    try:
        start = time.perf_counter()
        for _ in with_progress(range(args.items), args.items, quiet=False):
            pass
        seconds = time.perf_counter() - start
    finally:
        sys.stderr = real
    print(f"{args.items} items: {seconds:.2f} s, {seconds / args.items * 1e6:.0f} us/item, "
          f"{len(fake.getvalue())} bytes written by the bar")


if __name__ == "__main__":
    main()
