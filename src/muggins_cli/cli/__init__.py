"""The ``muggins`` command: a thin Typer shell over the library.

Each command lives in its own module and registers itself on ``app`` when
imported; :data:`muggins_cli.cli.app.COMMANDS` names them all. The console
entry point (:func:`main`) imports only the module of the command the
command line names (see :class:`~muggins_cli.cli.app.MugginsGroup`), so that
``muggins check`` starts without the solver, Jinja2 or Dask. ``from
muggins_cli.cli import app`` gives the app with every command registered.
No game logic lives in this package.
"""

from __future__ import annotations

import sys
from typing import Any

from muggins_cli.cli import app as _shell
from muggins_cli.process import stop_like_ctrl_c, tune_collector

# Importing the module ``app`` bound that name here to the module; the name
# ``app`` of this package is the Typer app, given by ``__getattr__`` below.
del globals()["app"]


def __getattr__(name: str) -> Any:
    if name == "app":
        _shell.load_commands()
        globals()["app"] = _shell.app
        return _shell.app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    try:
        tune_collector()
        stop_like_ctrl_c()
        _shell.app()
    except KeyboardInterrupt:
        # Ctrl-C before the command line is read, or after its output.
        sys.exit(_shell.interrupted(_shell.command_path(None)))


__all__ = ["app", "main"]
