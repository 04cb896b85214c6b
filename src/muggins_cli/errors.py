"""One exception root for everything the tool refuses.

The CLI catches :class:`MugginsError` once and turns it into a single line and
exit status 2, so no user input can end in a traceback.
"""

from __future__ import annotations


class MugginsError(Exception):
    """Root of every error the project raises on purpose."""


class RulesError(MugginsError):
    """A rules preset name or rules file that cannot be used."""


class IllegalMoveError(MugginsError):
    """A move the engine refuses in the current state."""


class InputError(MugginsError):
    """A file or option the user gave that cannot be used (exit status 2)."""


class NotInstalledError(MugginsError, ImportError):
    """A part of the tool whose optional dependencies (an extra) are not
    installed: an ImportError to a library's caller, one line and exit
    status 2 on the command line."""
