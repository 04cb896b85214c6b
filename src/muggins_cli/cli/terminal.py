"""Whether a stream is a terminal, and whether it gets colour: one decision,
rich's ``Console``'s, for the text report's colours and the progress bar.

rich reads what the conventions say: ``NO_COLOR`` (set and not empty: no
colour), ``FORCE_COLOR`` (set and not empty: a terminal, coloured, even
through a pipe; empty: as if unset), ``TERM=dumb`` (no colour and no
cursor movement, so no bar), ``TTY_COMPATIBLE`` and ``TTY_INTERACTIVE``.
``--color always`` and ``--color never`` (:data:`ColorOption`) override
the colour part of it (a command-line flag overrides ``NO_COLOR``, as
no-color.org asks); the bar stays the terminal's decision.

The choice ``--color`` makes holds for the command being run: the group
sets it back to ``auto`` before each command (:func:`reset`), so a command
without the option, or the next one run in the same process, does not
inherit it.
"""

from __future__ import annotations

import os
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console


class ColorWhen(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


_chosen = ColorWhen.auto


def choose(when: ColorWhen) -> ColorWhen:
    """``--color``'s callback: the choice for the command being run."""
    global _chosen
    _chosen = when
    return when


def reset() -> None:
    """Back to ``auto``, before a command's options are read."""
    choose(ColorWhen.auto)


ColorOption = Annotated[
    ColorWhen,
    typer.Option("--color", metavar="WHEN", callback=choose,
                 help="Colour the output: auto (on a terminal, unless NO_COLOR is set; "
                      "FORCE_COLOR forces it; none when TERM=dumb), always or never."),
]


def console(stream: Any) -> Console:
    """rich's console on ``stream``, colour as ``--color`` says; what it
    finds of the terminal is the one answer every part of the output uses."""
    from rich.console import Console

    if _chosen is ColorWhen.always:
        return Console(file=stream, force_terminal=True, color_system="standard",
                       no_color=False)
    return Console(file=stream, no_color=True if _chosen is ColorWhen.never else None)


#: What may make rich take a stream that is not a terminal for one.
_TERMINAL_ANYWAY = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def _surely_not_a_terminal(stream: Any) -> bool:
    """rich's answer, no, when it is sure to be no, without importing rich
    (a fifth of the start-up of a command that writes to a pipe): not a
    terminal and nothing in the environment that makes rich say it is."""
    isatty = getattr(stream, "isatty", None)
    try:
        is_tty = bool(isatty()) if isatty is not None else False
    except ValueError:  # closed
        is_tty = False
    return not is_tty and not any(name in os.environ for name in _TERMINAL_ANYWAY)


def colour(stream: Any) -> bool:
    """Whether what is written to ``stream`` may hold colours."""
    if _chosen is ColorWhen.never:
        return False
    if _chosen is ColorWhen.auto and _surely_not_a_terminal(stream):
        return False
    found = console(stream)
    return found.color_system is not None and not found.no_color


def interactive(stream: Any) -> bool:
    """Whether ``stream`` is a terminal that may be drawn on (a progress bar
    moves the cursor): rich's answer for the terminal, whatever --color."""
    if _surely_not_a_terminal(stream):
        return False
    from rich.console import Console

    return Console(file=stream).is_interactive
