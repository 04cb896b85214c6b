"""The solver: play positions out exactly, with the stock unknown, or from
the mover's view alone (issue 6). The two-player perfect search, where
nearly all of ``analyze --solver``'s time goes, runs compiled by Numba
(:mod:`.compiled`); everything else is plain Python.

The public surface is :func:`solve` and its result types; the searches
(:mod:`.perfect`, :mod:`.expect`, :mod:`.maxn`, :mod:`.paranoid`) work on bit masks and
the engine's interned layouts (:mod:`muggins_cli.engine.table`) and never
build an engine object.
"""

from muggins_cli.engine.voids import Void
from muggins_cli.solver.api import (
    Enough,
    MoveValue,
    Multi,
    SolveResult,
    SolverMove,
    runs_compiled,
    solve,
)
from muggins_cli.solver.common import MATCH_WIN, Mode, Objective
from muggins_cli.solver.knowledge import Sampler

__all__ = [
    "MATCH_WIN", "Enough", "Mode", "MoveValue", "Multi", "Objective", "Sampler",
    "SolveResult", "SolverMove", "Void", "runs_compiled", "solve",
]
