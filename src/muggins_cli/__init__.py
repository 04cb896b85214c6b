"""muggins-cli: check, analyse and solve recorded Muggins matches.

The package is layered so that each layer knows only the ones below it:
``tiles`` → ``notation`` (text ⇄ record, no rules) → ``rules`` (presets) →
``engine`` (state, legal moves, scoring; no text) → ``replay`` (record +
engine → diagnostics) → ``analysis``, ``solver`` → ``report`` → ``cli``.

The names of :data:`__all__` are the stable Python API (docs/api.md):
reading records, checking a file, replaying a match with visitors, the
positions of a match and their legal moves, and the solver. Each is
imported from its module when first asked for (PEP 562), so that ``import
muggins_cli`` imports nothing else, and the command line, which never asks,
starts no slower for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    __version__: str
    from muggins_cli.check import FileReport, check_file, record_resolver
    from muggins_cli.engine.state import KnownDraw, PassTurn, Place, RoundState, legal_moves
    from muggins_cli.errors import MugginsError
    from muggins_cli.notation.model import Diagnostic, Match, Severity
    from muggins_cli.notation.reading import read_match, read_matches
    from muggins_cli.replay.position import Position
    from muggins_cli.replay.replay import position_at, positions, replay_match
    from muggins_cli.replay.values import MatchReplay, TurnEvent
    from muggins_cli.replay.visitor import Moment, ReplayVisitor
    from muggins_cli.rules.model import Rules
    from muggins_cli.solver import Plan, SolveResult, solve

#: Each public name and the module it is imported from.
_WHERE = {
    "read_matches": "notation.reading", "read_match": "notation.reading",
    "Match": "notation.model", "Diagnostic": "notation.model", "Severity": "notation.model",
    "check_file": "check", "FileReport": "check", "record_resolver": "check",
    "replay_match": "replay.replay", "position_at": "replay.replay",
    "positions": "replay.replay", "MatchReplay": "replay.values", "TurnEvent": "replay.values",
    "ReplayVisitor": "replay.visitor", "Moment": "replay.visitor",
    "Position": "replay.position", "Rules": "rules.model",
    "legal_moves": "engine.state", "RoundState": "engine.state", "Place": "engine.state",
    "KnownDraw": "engine.state", "PassTurn": "engine.state",
    "solve": "solver", "Plan": "solver", "SolveResult": "solver", "MugginsError": "errors",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # Read from the installed metadata when first asked for:
        # importlib.metadata costs more to import than ``muggins check
        # FILE`` spends on checking, and only --version, SARIF and Dask's
        # version check need it.
        from importlib.metadata import PackageNotFoundError, version

        try:
            # pyproject.toml is the one place the version is written.
            found: Any = version("muggins-cli")
        except PackageNotFoundError:  # a source tree that was never installed
            found = "unknown"
    elif name in _WHERE:
        found = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "Diagnostic",
    "FileReport",
    "KnownDraw",
    "Match",
    "MatchReplay",
    "Moment",
    "MugginsError",
    "PassTurn",
    "Place",
    "Plan",
    "Position",
    "ReplayVisitor",
    "RoundState",
    "Rules",
    "Severity",
    "SolveResult",
    "TurnEvent",
    "__version__",
    "check_file",
    "legal_moves",
    "position_at",
    "positions",
    "read_match",
    "read_matches",
    "record_resolver",
    "replay_match",
    "solve",
]
