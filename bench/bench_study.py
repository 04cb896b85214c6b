"""``muggins study`` benchmark: the page of a 250-point two-player match,
without the solver and with it.

    python bench/bench_study.py              # 5 repeats without the solver, 3 with
    python bench/bench_study.py --repeats 9 --solver-repeats 5
    python bench/bench_study.py --solver-repeats 0    # the plain page only
    python bench/bench_study.py --page-only 5         # one analysis, its page 5 times

The match is the example record ``records/club-night-pagat-2p.mgn`` (224
turns, 235 boards). Without the solver the aim is a page under 2 MB written
in under 2 s; two figures, each as min and median of the repeats:

- the command as a user runs it (``muggins study FILE -o PAGE``, a fresh
  process each time: start-up and imports included), wall and CPU seconds;
- the page built in this process (read, replay, analysis, drawing, template),
  without the interpreter's start-up.

With ``--solver`` (the default sampled view, the turns shared over the
cores as the command does) the aim is a page under 2.5 MB written in the
time of the analysis plus under 2 s. In this process the analysis (read,
replay, the solver's weighing) and the page on top of it (positions,
drawing, template) are timed apart, in the same repeat; and the two
commands, ``muggins analyze FILE --solver`` and ``muggins study FILE
--solver -o PAGE``, are run one after the other in each repeat, so that
the difference is what writing the page adds to the analysis. The
all-seeing view (``--mode perfect``, the solver's lines after every play) is
timed the same way, in process.

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
from collections.abc import Sequence
from pathlib import Path

from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.cli.solver_options import solver_weigher
from muggins_cli.cli.study_cmd import study_analysis, study_html, study_page

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "records" / "club-night-pagat-2p.mgn"
MUGGINS = [sys.executable, "-m", "muggins_cli"]
AIM_BYTES = 2_000_000
AIM_SECONDS = 2.0
AIM_SOLVER_BYTES = 2_500_000
AIM_SOLVER_EXTRA = 2.0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _figures(xs: Sequence[float]) -> str:
    return f"min {min(xs):.2f} s, median {statistics.median(xs):.2f} s"


def _digest(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def plain(repeats: int) -> bool:
    walls: list[float] = []
    cpus: list[float] = []
    digests: set[str] = set()
    size = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(repeats):
            out = Path(tmp) / f"club-{k}.html"
            cpu0, t0 = _children_cpu(), time.perf_counter()
            subprocess.run([*MUGGINS, "study", str(CLUB), "-o", str(out), "-q"], check=True)
            walls.append(time.perf_counter() - t0)
            cpus.append(_children_cpu() - cpu0)
            data = out.read_bytes()
            size = len(data)
            digests.add(_digest(data))
    inner: list[float] = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        html = study_page(str(CLUB), 1)
        inner.append(time.perf_counter() - t0)
        digests.add(_digest(html))
    print("without the solver")
    print(f"  page size    {size:,} bytes ({size / 1e6:.2f} MB; aim under "
          f"{AIM_BYTES / 1e6:.0f} MB)")
    print(f"  command      wall {_figures(walls)}; CPU {_figures(cpus)} "
          f"(aim under {AIM_SECONDS:.0f} s)")
    print(f"  in process   {_figures(inner)}")
    print(f"  same bytes   {'yes' if len(digests) == 1 else 'NO'} over {2 * repeats} pages")
    ok = size < AIM_BYTES and min(cpus) < AIM_SECONDS and len(digests) == 1
    print(f"  aim          size {'met' if size < AIM_BYTES else 'NOT met'}; time "
          f"{'met' if min(walls) < AIM_SECONDS else 'NOT met'} by wall, "
          f"{'met' if min(cpus) < AIM_SECONDS else 'NOT met'} by CPU; same bytes "
          f"{'met' if len(digests) == 1 else 'NOT met'}")
    return ok


def in_process(options: WeighOptions, repeats: int) -> tuple[list[float], list[float], int,
                                                               set[str]]:
    """The analysis and the page on top of it, timed apart, ``repeats`` times."""
    analysis: list[float] = []
    page: list[float] = []
    digests: set[str] = set()
    size = 0
    with solver_weigher("bench", None, quiet=True) as (weigher, _):
        for _ in range(repeats):
            t0 = time.perf_counter()
            studied = study_analysis(str(CLUB), 1, options, weigher)
            t1 = time.perf_counter()
            html = study_html(studied)
            t2 = time.perf_counter()
            analysis.append(t1 - t0)
            page.append(t2 - t1)
            size = len(html.encode("utf-8"))
            digests.add(_digest(html))
    return analysis, page, size, digests


def solver(repeats: int) -> bool:
    analyze_walls: list[float] = []
    study_walls: list[float] = []
    digests: set[str] = set()
    size = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(repeats):
            # One after the other in each repeat, so that the load they
            # meet is alike.
            t0 = time.perf_counter()
            subprocess.run([*MUGGINS, "analyze", str(CLUB), "--solver", "-q"], check=True,
                           stdout=subprocess.DEVNULL)
            t1 = time.perf_counter()
            out = Path(tmp) / f"club-{k}.html"
            subprocess.run([*MUGGINS, "study", str(CLUB), "--solver", "-o", str(out), "-q"],
                           check=True)
            t2 = time.perf_counter()
            analyze_walls.append(t1 - t0)
            study_walls.append(t2 - t1)
            data = out.read_bytes()
            size = len(data)
            digests.add(_digest(data))
    extra = [s - a for a, s in zip(analyze_walls, study_walls)]
    analysis, page, inner_size, inner = in_process(WeighOptions(), repeats)
    digests |= inner
    p_analysis, p_page, p_size, p_digests = in_process(WeighOptions(perfect=True), repeats)
    print("with --solver (the mover's view, the turns over every core)")
    print(f"  page size    {size:,} bytes ({size / 1e6:.2f} MB; aim under "
          f"{AIM_SOLVER_BYTES / 1e6:.1f} MB)")
    print(f"  commands     analyze --solver wall {_figures(analyze_walls)}; "
          f"study --solver wall {_figures(study_walls)}")
    print(f"               study less analyze, repeat by repeat: {_figures(extra)}")
    print(f"  in process   analysis {_figures(analysis)}; the page on top of it "
          f"{_figures(page)} (aim under {AIM_SOLVER_EXTRA:.0f} s)")
    print(f"  same bytes   {'yes' if len(digests) == 1 else 'NO'} over {2 * repeats} pages")
    print("with --solver --mode perfect (every hand seen, the solver's line after every play)")
    print(f"  page size    {p_size:,} bytes ({p_size / 1e6:.2f} MB)")
    print(f"  in process   analysis {_figures(p_analysis)}; the page on top of it "
          f"{_figures(p_page)}")
    print(f"  same bytes   {'yes' if len(p_digests) == 1 else 'NO'} over {repeats} pages")
    met = (size < AIM_SOLVER_BYTES and inner_size == size and p_size < AIM_SOLVER_BYTES
           and min(page) < AIM_SOLVER_EXTRA and len(digests) == 1 and len(p_digests) == 1)
    print(f"  aim          size {'met' if size < AIM_SOLVER_BYTES else 'NOT met'}; page "
          f"over the analysis {'met' if min(page) < AIM_SOLVER_EXTRA else 'NOT met'} in "
          f"process, {'met' if min(extra) < AIM_SOLVER_EXTRA else 'NOT met'} between the "
          f"commands; same bytes {'met' if len(digests) == 1 else 'NOT met'}")
    return met


def page_only(repeats: int) -> bool:
    """One analysis with the solver (the mover's view, in process), then the
    page on top of it built ``repeats`` times: what writing the page adds,
    apart from the analysis's own time, which the load of a shared machine
    moves by minutes."""
    with solver_weigher("bench", None, quiet=True) as (weigher, _):
        t0 = time.perf_counter()
        studied = study_analysis(str(CLUB), 1, WeighOptions(), weigher)
        took = time.perf_counter() - t0
    page: list[float] = []
    cpu: list[float] = []
    digests: set[str] = set()
    size = 0
    for _ in range(repeats):
        t1, c1 = time.perf_counter(), time.process_time()
        html = study_html(studied)
        page.append(time.perf_counter() - t1)
        cpu.append(time.process_time() - c1)
        size = len(html.encode("utf-8"))
        digests.add(_digest(html))
    weighed = [w for w in studied.analysis.weighed if w.candidates]
    print("with --solver, the page alone (the mover's view, in process)")
    print(f"  analysis     {took:.1f} s once; {len(weighed)} turns with candidates")
    print(f"  page size    {size:,} bytes ({size / 1e6:.2f} MB; aim under "
          f"{AIM_SOLVER_BYTES / 1e6:.1f} MB)")
    print(f"  page         wall {_figures(page)}; CPU {_figures(cpu)} over {repeats} "
          f"builds (aim under {AIM_SOLVER_EXTRA:.0f} s)")
    print(f"  same bytes   {'yes' if len(digests) == 1 else 'NO'} over {repeats} pages")
    met = size < AIM_SOLVER_BYTES and min(cpu) < AIM_SOLVER_EXTRA and len(digests) == 1
    print(f"  aim          {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="without the solver")
    ap.add_argument("--solver-repeats", type=int, default=3,
                    help="with --solver (0: not measured); each takes about a minute")
    ap.add_argument("--page-only", type=int, default=0, metavar="N",
                    help="only: one analysis with --solver, then its page built N times")
    a = ap.parse_args()
    if a.page_only:
        page_only(a.page_only)
        return
    print(f"record       {CLUB.relative_to(ROOT)}")
    load = os.getloadavg()[0]
    print(f"machine      load {load:.1f} on {os.cpu_count()} cores (wall time waits for the rest)")
    plain(a.repeats)
    if a.solver_repeats:
        solver(a.solver_repeats)


if __name__ == "__main__":
    main()
