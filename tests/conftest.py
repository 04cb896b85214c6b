"""Where the tests find their data, and how hypothesis runs.

The conformance corpus and the example records are part of the repository
(``tests/data/conformance`` is a copy of the shared corpus, ``records/`` the
examples the README checks), so a plain clone runs every test and none
skips for want of a file. Every test module takes its paths from here; a
glob that finds nothing fails at collection instead of passing over an
empty list.

The corpus is checked and analysed at most once per session: several tests
ask the same question of the same file (the conformance answers, analysis
against check, annotation), and the fixtures ``checked`` and ``analysed``
keep each answer for the next test instead of recomputing it.

Hypothesis is derandomized when the environment variable ``CI`` is set, so a
CI run is the same run every time; elsewhere it explores freely.

Tests marked ``slow`` (a real Dask cluster, a browser, a pseudo-terminal,
signals sent to a subprocess, and the thorough part of the playouts and the
solver's exhaustive oracles: :func:`quick_then_thorough`) are left out of a
plain ``pytest`` and run apart with ``pytest -m slow``; the README's test
command and ``.ci/run`` run both.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from muggins_cli.analysis import FileAnalysis, analyse_file
from muggins_cli.check import FileReport, check_file

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
CONFORMANCE = DATA / "conformance"
RECORDS = REPO / "records"
SCHEMAS = REPO / "schemas"
DOCS = REPO / "docs"


def quick_then_thorough(total: int, quick: int) -> list[Any]:
    """Parameters for a test that loops over ``total`` seeds (or rounds):
    the first ``quick`` in every run, the rest marked ``slow``. Together
    they are the same seeds as one loop over ``range(total)``."""
    return [
        pytest.param(range(quick), id="quick"),
        pytest.param(range(quick, total), id="thorough", marks=pytest.mark.slow),
    ]


def files(folder: Path, pattern: str = "*.mgn") -> list[Path]:
    """The files below ``folder`` matching ``pattern``, sorted; never empty."""
    found = sorted(folder.glob(pattern))
    if not found:
        raise AssertionError(f"no {pattern} below {folder}: the test data is missing")
    return found


CLEAN = files(CONFORMANCE / "clean")
FAULTS = files(CONFORMANCE / "faults")
CORPUS = sorted(CLEAN + FAULTS)
# A three-player spinner match with muggins calls, unclaimed points and
# missed scores: the one conformance record whose analysis tests pin down.
CLEAN_0019 = CONFORMANCE / "clean" / "clean-0019.mgn"

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def checked() -> Callable[[Path], FileReport]:
    """``check_file`` of a path, computed once a session (reports are read, never changed)."""
    return functools.cache(lambda path: check_file(str(path)))


@pytest.fixture(scope="session")
def analysed() -> Callable[[Path], FileAnalysis]:
    """``analyse_file`` of a path with the default options, computed once a session."""
    return functools.cache(lambda path: analyse_file(str(path)))


#: The package's caches by rules (module, name): a layout table and what the
#: compiled searches built from it are kept for as long as the process runs,
#: which is right for a command (one or two rules) and wrong for a test
#: session, which makes dozens of rules and solves thousands of positions.
_RULES_CACHES = (
    ("muggins_cli.engine.table", "_TABLES"),
    ("muggins_cli.solver.common", "_PIPS"),
    ("muggins_cli.solver.kernel", "_MEMO"),
    ("muggins_cli.solver.kernel", "_POOL"),
)


@pytest.fixture(autouse=True, scope="module")
def _each_module_leaves_a_small_heap() -> Iterator[None]:
    """Each test module's layout tables, and the cycles its searches left,
    go with it. Kept, they grew an xdist worker to 7 to 15 million objects
    by the end of the session (the solver tests' tables of double-nine and
    test-made rules, and the garbage cycles of their searches, which the
    collector's oldest generation leaves for long); pytest's last full
    collection (``unraisableexception``'s, at unconfigure) then took over 5
    seconds, which is all execnet gives a worker to end once the session is
    over: it sent the worker a SIGINT, and the KeyboardInterrupt, landing in
    hypothesis's collection callback, was printed as a
    PytestUnraisableExceptionWarning although every test had passed. A
    table is a cache: the next module builds what it asks for."""
    yield
    for module, name in _RULES_CACHES:
        found = sys.modules.get(module)
        if found is not None:
            # A cache renamed or gone must be named anew here, not skipped.
            getattr(found, name).clear()
    gc.collect()
