"""The solver: play positions out exactly, with the stock unknown, or from
the mover's view alone.

The public surface is :func:`solve` and its result types. Every search is
the one compiled kernel of :mod:`.kernel` (alpha-beta for two players and
the paranoid view, max-n, each with a known stock order or chance nodes),
which compiles the engine's rules as they stand; :mod:`.roots` values the
root's moves and writes the principal variations, :mod:`.game` steps
through them, :mod:`.knowledge` deals the hidden tiles.
"""

from muggins_cli.engine.voids import Void
from muggins_cli.solver.api import (
    Enough,
    MoveValue,
    Multi,
    SolveResult,
    SolverMove,
    solve,
)
from muggins_cli.solver.common import MATCH_WIN, Mode, Objective
from muggins_cli.solver.knowledge import Sampler

__all__ = [
    "MATCH_WIN", "Enough", "Mode", "MoveValue", "Multi", "Objective", "Sampler",
    "SolveResult", "SolverMove", "Void", "solve",
]
