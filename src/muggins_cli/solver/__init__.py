"""The solver: play positions out exactly, with the stock unknown, or from
the mover's view alone.

The public surface is :func:`solve`, the :class:`Plan` it is given and its
result types. Every search is the one compiled kernel of :mod:`.kernel`
(alpha-beta for two players and the paranoid view, max-n, each with a
known stock order or chance nodes), which compiles the engine's rules as
they stand; :mod:`.roots` values the root's moves and writes the principal
variations, :mod:`.game` steps through them, :mod:`.knowledge` deals the
hidden tiles, :mod:`.perfect` values every move of one known deal and
:mod:`.sampled` averages over deals.

The names are imported when first asked for (PEP 562): the kernel needs
Numba and NumPy, the ``solver`` extra, and a command that only reads a
constant or a submodule without them (``muggins stats``, ``analyze``
without ``--solver``) should neither wait for them nor need them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from muggins_cli.errors import NotInstalledError

if TYPE_CHECKING:
    from muggins_cli.engine.voids import Void
    from muggins_cli.solver.api import SolverMove, solve
    from muggins_cli.solver.common import MATCH_WIN, Mode, Objective
    from muggins_cli.solver.knowledge import Sampler
    from muggins_cli.solver.plan import Enough, Multi, Plan
    from muggins_cli.solver.result import MoveValue, SolveResult

#: Where each public name lives.
_WHERE = {
    "Void": "muggins_cli.engine.voids",
    "Enough": "muggins_cli.solver.plan", "MoveValue": "muggins_cli.solver.result",
    "Multi": "muggins_cli.solver.plan", "Plan": "muggins_cli.solver.plan",
    "SolveResult": "muggins_cli.solver.result",
    "SolverMove": "muggins_cli.solver.api", "solve": "muggins_cli.solver.api",
    "MATCH_WIN": "muggins_cli.solver.common", "Mode": "muggins_cli.solver.common",
    "Objective": "muggins_cli.solver.common", "Sampler": "muggins_cli.solver.knowledge",
}

#: The extra that installs what the compiled search needs.
EXTRA = "muggins-cli[solver]"
#: The libraries the compiled search imports.
NEEDS = ("numba", "numpy")


def missing() -> str | None:
    """What to install for the solver, in one sentence, or None when it
    can run; found without importing Numba (which takes a second)."""
    absent = [name for name in NEEDS if _absent(name)]
    if not absent:
        return None
    return (f"the solver needs {' and '.join(absent)}, which this installation lacks: "
            f"pip install '{EXTRA}'")


def _absent(name: str) -> bool:
    from importlib.util import find_spec

    try:
        return find_spec(name) is None
    except ValueError:  # None in sys.modules: its import is blocked
        return True


def require() -> None:
    """Raise :class:`NotInstalledError`, saying what to install, when the
    solver cannot run: before a command starts work that needs it."""
    why = missing()
    if why is not None:
        raise NotInstalledError(why)


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = importlib.import_module(where)
    except ModuleNotFoundError as e:
        if e.name not in NEEDS:
            raise
        raise NotInstalledError(missing() or str(e)) from e
    found = getattr(module, name)
    globals()[name] = found
    return found


__all__ = [
    "MATCH_WIN", "Enough", "Mode", "MoveValue", "Multi", "Objective", "Plan", "Sampler",
    "SolveResult", "SolverMove", "Void", "solve",
]
