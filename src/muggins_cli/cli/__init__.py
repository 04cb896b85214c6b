"""The ``muggins`` command: a thin Typer shell over the library.

Each command lives in its own module and registers itself on ``app`` when
imported here; no game logic lives in this package.
"""

from __future__ import annotations

from muggins_cli.cli.app import app

# isort: split
# Command modules, imported for their registration on ``app``.
# (one line per module; keep the order of ``muggins --help``)
from muggins_cli.cli import analyze_cmd as _analyze_cmd  # noqa: F401
from muggins_cli.cli import arena_cmd as _arena_cmd  # noqa: F401
from muggins_cli.cli import check_cmd as _check_cmd  # noqa: F401
from muggins_cli.cli import explain_cmd as _explain_cmd  # noqa: F401
from muggins_cli.cli import fmt as _fmt  # noqa: F401
from muggins_cli.cli import replay_cmd as _replay_cmd  # noqa: F401
from muggins_cli.cli import rules_cmd as _rules_cmd  # noqa: F401
from muggins_cli.cli import selfplay_cmd as _selfplay_cmd  # noqa: F401
from muggins_cli.cli import solve_cmd as _solve_cmd  # noqa: F401
from muggins_cli.cli import stats_cmd as _stats_cmd  # noqa: F401
from muggins_cli.cli import study_cmd as _study_cmd  # noqa: F401


def main() -> None:
    app()


__all__ = ["app", "main"]
