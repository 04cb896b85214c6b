"""Plain-text findings, one per line: ``path:line:col: severity code message``.

The shape is the one compilers and linters use, so editors and CI logs can
jump to the place. The path and the message are escaped for the terminal
(:mod:`muggins_cli.report.escape`): both can hold a stranger's text.
"""

from __future__ import annotations

from muggins_cli.check import FileReport
from muggins_cli.notation.model import Diagnostic, Severity
from muggins_cli.report.escape import for_terminal

_COLOURS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.INFO: "\x1b[36m"}
_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def diagnostic_line(path: str, d: Diagnostic, colour: bool = False) -> str:
    sev = d.severity.value
    path, message = for_terminal(path), for_terminal(d.message)
    if colour:
        return (f"{_BOLD}{path}:{d.line}:{d.column}:{_RESET} {_COLOURS[d.severity]}{sev}{_RESET} "
                f"{_BOLD}{d.code}{_RESET} {message}")
    return f"{path}:{d.line}:{d.column}: {sev} {d.code} {message}"


def file_lines(f: FileReport, colour: bool = False) -> list[str]:
    return [diagnostic_line(f.path, d, colour) for d in f.diagnostics]


def summary_line(files: int, matches: int, errors: int, warnings: int) -> str:
    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    verdict = "no errors" if errors == 0 else n(errors, "error")
    return (f"checked {n(files, 'file')}, {n(matches, 'match').replace('matchs', 'matches')}: "
            f"{verdict}, {n(warnings, 'warning')}")
