"""``muggins prepare``: compile the solver for this machine ahead of its first use."""

from __future__ import annotations

import time

from muggins_cli.cli.app import app
from muggins_cli.cli.options import QuietOption, note, prepare_solver

_NAME = "muggins prepare"


@app.command("prepare")
def prepare(quiet: QuietOption = False) -> None:
    """Compile the solver for this machine now, so that its first use
    (solve, analyze --solver, study --solver, the solver strategy) starts
    at once.

    The solver is compiled code, made once per machine and version of
    muggins-cli and kept under ~/.cache/muggins-cli/ (XDG_CACHE_HOME if set):
    the first compile takes about half a minute, later runs load it in a
    fraction of a second. Without this command the first run that needs
    the solver compiles it, and says so on stderr.

    \b
    Examples:
        muggins prepare            # after pip install, or in a Docker image's build
        muggins prepare --quiet

    Exit status: 0 when the solver is ready; 2 when this installation
    lacks what it needs (the solver extra).
    """
    start = time.perf_counter()
    took = prepare_solver(_NAME, quiet=quiet, ahead=True)
    if quiet:
        return
    if took is None:
        note(f"{_NAME}: the solver was ready (loaded in {time.perf_counter() - start:.1f} s)")
    else:
        note(f"{_NAME}: the solver is ready (compiled in {took:.0f} s)")


__all__ = ["prepare"]
