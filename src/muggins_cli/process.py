"""How a muggins process is set up to run, whatever its command.

Kept apart, and importing nothing of the package, so that the command
line's entry point can apply it before it knows the command, and the
worker processes of :mod:`muggins_cli.batch` the same way, without
importing what the command does not need (``muggins --version``).
"""

from __future__ import annotations

import gc
import os
import signal
from types import FrameType

#: The cycle collector's thresholds (Python's default is 700, 10, 10).
COLLECTOR_THRESHOLDS = (50_000, 20, 20)
#: The signals that stop a command the way Ctrl-C (SIGINT) does: ``kill``,
#: a service stopped, a CI job cancelled (SIGTERM), a terminal closed (SIGHUP).
STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                 if hasattr(signal, name))

_stopped_by: int | None = None
_owner: int | None = None


def tune_collector() -> None:
    """Run the cycle collector less often than Python does by default.

    Reading and replaying a record makes millions of small objects that die
    by reference counting; a collection every 700 of them walks the live
    record and the layout tables each time, and that cost about a fifth of
    ``muggins check``. Cycles are still found, tens of thousands
    of allocations apart, so memory stays flat.
    """
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def stop_like_ctrl_c() -> None:
    """Make SIGTERM and SIGHUP stop this process the way Ctrl-C does: as a
    ``KeyboardInterrupt``, so that what the command does on Ctrl-C (stop
    its worker processes, remove a temporary file, keep the matches
    finished, say so in one line) it does for them too, instead of dying
    on the spot and leaving its workers running. :func:`stopped_by` then
    says which signal it was, for the exit status (128 + the signal). A
    second one while the command stops is ignored: the first is being
    done, and would be cut short. Set by the entry point."""
    global _owner
    _owner = os.getpid()
    for signum in STOPPING:
        signal.signal(signum, _stop)


def _stop(signum: int, frame: FrameType | None) -> None:
    global _stopped_by
    if os.getpid() != _owner:
        # A worker process forked with this handler, before its own set-up
        # (as_worker) ran: it ends as the signal's default would end it.
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _stopped_by = signum
    for other in STOPPING:
        signal.signal(other, signal.SIG_IGN)
    raise KeyboardInterrupt


def stopped_by() -> int | None:
    """The signal among :data:`STOPPING` that stopped this process (None
    for none yet: a ``KeyboardInterrupt`` is then Ctrl-C's)."""
    return _stopped_by


def as_worker() -> None:
    """A worker process's set-up: the collector as the command's, Ctrl-C
    left to the parent (which stops its workers itself; each would only
    print a traceback), SIGTERM and SIGHUP ending it at once (the parent
    ends a worker that does not stop in time with SIGTERM)."""
    tune_collector()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_DFL)


__all__ = ["COLLECTOR_THRESHOLDS", "STOPPING", "as_worker", "stop_like_ctrl_c", "stopped_by",
           "tune_collector"]
