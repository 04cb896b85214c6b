"""GitHub Actions workflow commands: one annotation per finding.

``::error file=records/a.mgn,line=14,col=7,title=illegal-draw::Budi drew ...``
shows the finding on the file in the pull request. Severities map to the
commands ``error``, ``warning`` and ``notice``. Values are escaped as the
runner expects: ``%``, CR and LF everywhere, and ``:`` and ``,`` in the
properties too (they separate them). Other control characters are shown as
escapes (:mod:`muggins_cli.report.escape`): the log viewer acts on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from muggins_cli.check import FileReport
from muggins_cli.notation.model import Diagnostic, Severity
from muggins_cli.report.escape import for_terminal
from muggins_cli.report.json_report import Totals

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """A message (after ``::``)."""
    return for_terminal(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """A property value (``file=``, ``title=``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def diagnostic_command(path: str, d: Diagnostic) -> str:
    """One workflow command; line and column are left out where they are 0
    (an unreadable file is reported on the file as a whole)."""
    props = [f"file={escape_property(path)}"]
    if d.line > 0:
        props.append(f"line={d.line}")
        if d.column > 0:
            props.append(f"col={d.column}")
    props.append(f"title={escape_property(d.code)}")
    return f"::{COMMANDS[d.severity]} {','.join(props)}::{escape_data(d.message)}"


def file_lines(f: FileReport) -> list[str]:
    return [diagnostic_command(f.path, d) for d in f.diagnostics]


def write_github(reports: Iterable[FileReport], out: IO[str], totals: Totals) -> None:
    """Every finding of every file, as they are checked."""
    for f in reports:
        totals.add(f)
        for line in file_lines(f):
            out.write(line + "\n")
