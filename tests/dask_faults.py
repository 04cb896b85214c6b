"""Test-only faults for Dask workers, never part of muggins-cli:
``dask worker --preload tests/dask_faults.py`` (see ``dask_cluster.py``).

The worker's environment names a folder (``MUGGINS_TEST_FAULTS``) through
which the test and the worker process speak. In that worker only, checking
a record whose file name starts with

- ``hold-`` writes ``busy-PID`` there, then waits for a file ``release``
  (30 s at most) before checking it as usual: the test then knows which
  worker holds that file, and can kill it while it does;
- ``raise-`` recurses until Python gives up (RecursionError), as a bug
  on a record nobody foresaw would;
- ``crash-`` writes ``crashed-PID``, waits for ``release`` likewise, then
  ends the process at once, as a worker that the kernel kills (out of
  memory) or that loses its machine ends: no exception, no goodbye to the
  scheduler;

every other file checked leaves ``checked-NAME``; weighing a turn
(``analyze --solver``) writes ``weighed-PID``, so that the test sees what
was done where, and raises RuntimeError if ``fail-turn-LINE`` names the
turn's line.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from muggins_cli import check
from muggins_cli.analysis import weigh

FOLDER = Path(os.environ["MUGGINS_TEST_FAULTS"])


def _original(fn: Any) -> Any:
    """``fn`` as muggins-cli defines it: dask loads a preload file twice
    (an import, then a reload), and the second must not wrap the first."""
    return getattr(fn, "before_faults", fn)


_check_file = _original(check.check_file)
_weigh_decision = _original(weigh.weigh_decision)


def _recurse(n: int) -> int:
    return _recurse(n + 1) + 1


def _wait_for_release() -> None:
    deadline = time.monotonic() + 30
    while not (FOLDER / "release").exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def check_file(path: str, **kwargs: Any) -> check.FileReport:
    name = Path(path).name
    if name.startswith("hold-"):
        (FOLDER / f"busy-{os.getpid()}").write_text(path)
        _wait_for_release()
    elif name.startswith("raise-"):
        _recurse(0)
    elif name.startswith("crash-"):
        (FOLDER / f"crashed-{os.getpid()}").write_text(path)
        _wait_for_release()
        os._exit(70)
    else:
        (FOLDER / f"checked-{name}").touch()
    return _check_file(path, **kwargs)


def weigh_decision(d: Any, *args: Any) -> weigh.Weighed:
    (FOLDER / f"weighed-{os.getpid()}").touch()
    if (FOLDER / f"fail-turn-{d.turn.line}").exists():
        raise RuntimeError("a test fault")
    return _weigh_decision(d, *args)


# Tasks name these functions by module and name; they find these.
check_file.before_faults = _check_file  # type: ignore[attr-defined]
weigh_decision.before_faults = _weigh_decision  # type: ignore[attr-defined]
check.check_file = check_file  # type: ignore[assignment]
weigh.weigh_decision = weigh_decision
