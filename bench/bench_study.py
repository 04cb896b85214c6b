"""``muggins study`` benchmark: the page of a 250-point two-player match.

    python bench/bench_study.py              # 5 repeats of each
    python bench/bench_study.py --repeats 9

The aim (issue 15): a page for a two-player ``pagat`` match to 250 is under
2 MB and is written in under 2 s without ``--solver``. The match is the
example record ``records/club-night-pagat-2p.mgn`` (224 turns, 235
boards). Two figures, each as min and median of the repeats:

- the command as a user runs it (``muggins study FILE -o PAGE``, a fresh
  process each time: start-up and imports included), wall and CPU seconds;
- the page built in this process (read, replay, analysis, drawing, template),
  without the interpreter's start-up.

The pages of every repeat must be byte-identical (same input, same bytes).
The machine may be shared: CPU seconds are printed beside wall seconds.
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

from muggins_cli.cli.study_cmd import study_page

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "records" / "club-night-pagat-2p.mgn"
MUGGINS = [sys.executable, "-m", "muggins_cli"]
AIM_BYTES = 2_000_000
AIM_SECONDS = 2.0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    walls: list[float] = []
    cpus: list[float] = []
    digests: set[str] = set()
    size = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(a.repeats):
            out = Path(tmp) / f"club-{k}.html"
            cpu0, t0 = _children_cpu(), time.perf_counter()
            subprocess.run([*MUGGINS, "study", str(CLUB), "-o", str(out), "-q"], check=True)
            walls.append(time.perf_counter() - t0)
            cpus.append(_children_cpu() - cpu0)
            data = out.read_bytes()
            size = len(data)
            digests.add(hashlib.sha256(data).hexdigest())
    inner: list[float] = []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        html = study_page(str(CLUB), 1)
        inner.append(time.perf_counter() - t0)
        digests.add(hashlib.sha256(html.encode("utf-8")).hexdigest())
    print(f"record       {CLUB.relative_to(ROOT)}")
    print(f"page size    {size:,} bytes ({size / 1e6:.2f} MB; aim under {AIM_BYTES / 1e6:.0f} MB)")
    print(f"command      wall min {min(walls):.2f} s, median {statistics.median(walls):.2f} s; "
          f"CPU min {min(cpus):.2f} s, median {statistics.median(cpus):.2f} s "
          f"(aim under {AIM_SECONDS:.0f} s)")
    print(f"in process   min {min(inner):.2f} s, median {statistics.median(inner):.2f} s")
    print(f"same bytes   {'yes' if len(digests) == 1 else 'NO'} over {2 * a.repeats} pages")
    load = os.getloadavg()[0]
    print(f"machine      load {load:.1f} on {os.cpu_count()} cores (wall time waits for the rest)")
    size_ok, same = size < AIM_BYTES, len(digests) == 1
    print(f"aim          size {'met' if size_ok else 'NOT met'}; time "
          f"{'met' if min(walls) < AIM_SECONDS else 'NOT met'} by wall, "
          f"{'met' if min(cpus) < AIM_SECONDS else 'NOT met'} by CPU; same bytes "
          f"{'met' if same else 'NOT met'}")


if __name__ == "__main__":
    main()
