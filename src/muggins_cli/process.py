"""How a muggins process is set up to run, whatever its command.

Kept apart, and importing nothing of the package, so that the command
line's entry point can apply it before it knows the command, and the
worker processes of :mod:`muggins_cli.batch` the same way, without
importing what the command does not need (``muggins --version``).
"""

from __future__ import annotations

import gc

#: The cycle collector's thresholds (Python's default is 700, 10, 10).
COLLECTOR_THRESHOLDS = (50_000, 20, 20)


def tune_collector() -> None:
    """Run the cycle collector less often than Python does by default.

    Reading and replaying a record makes millions of small objects that die
    by reference counting; a collection every 700 of them walks the live
    record and the layout tables each time, and that cost about a fifth of
    ``muggins check`` (issue 13). Cycles are still found, tens of thousands
    of allocations apart, so memory stays flat.
    """
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


__all__ = ["COLLECTOR_THRESHOLDS", "tune_collector"]
