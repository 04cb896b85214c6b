"""How a muggins process runs: the cycle collector.

Each test runs a fresh interpreter, since the collector's settings belong
to the whole process.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.conftest import RECORDS, files


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def test_the_command_line_runs_the_collector_less_often() -> None:
    """Python collects every 700 allocations; ``muggins`` every 50,000."""
    out = _run("""
        import gc, sys
        print(gc.get_threshold())
        from muggins_cli.cli import main
        sys.argv = ["muggins", "--version"]
        try:
            main()
        except SystemExit:
            pass
        print(gc.get_threshold())
    """)
    lines = out.splitlines()
    assert lines[0] == "(700, 10, 10)"
    assert lines[-1] == "(50000, 20, 20)"


def test_worker_processes_run_it_as_the_command_does() -> None:
    out = _run("""
        import gc
        from muggins_cli.batch import _worker_init
        _worker_init()
        print(gc.get_threshold())
    """)
    assert out == "(50000, 20, 20)"


def test_cycles_are_still_collected() -> None:
    """A million objects in cycles, each pair dropped at once: with the
    collector tuned, the live objects stay far below that (a collection
    follows every 50,000 allocations); with it off, they pile up."""
    out = _run("""
        import gc
        from muggins_cli.process import tune_collector
        tune_collector()
        peak = 0
        for i in range(500_000):
            a = []; b = [a]; a.append(b)
            if i % 10_000 == 0:
                peak = max(peak, len(gc.get_objects()))
        gc.disable()
        for i in range(500_000):
            a = []; b = [a]; a.append(b)
        print(peak, len(gc.get_objects()))
    """)
    tuned, off = (int(x) for x in out.split())
    assert tuned < 250_000
    assert off > 1_000_000


def test_checking_a_file_leaves_nothing_for_the_collector() -> None:
    """With the collector run seldom, garbage in cycles would pile up between
    its runs; reading and replaying a record makes none, so everything goes
    by reference counting as soon as it is done with."""
    records = [str(p) for p in files(RECORDS)]
    out = _run(f"""
        import gc
        from muggins_cli.check import check_file
        for path in {records!r}:  # once to import and build what stays
            check_file(path)
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        for path in {records!r}:
            check_file(path)
        gc.collect()
        print(len(gc.garbage), sorted({{type(o).__name__ for o in gc.garbage}}))
    """)
    assert out == "0 []"
