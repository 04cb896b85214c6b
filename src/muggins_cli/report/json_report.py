"""The JSON report of docs/notation.md 9, written as a stream.

Files are written as they are checked, so a report over a corpus of any size
needs memory for one file at a time.

A file name need not be text: its bytes that are not UTF-8 are, as Python
reads them (``os.fsdecode``), lone surrogates ``U+DC80`` to ``U+DCFF``,
which no UTF-8 output can hold. :func:`dumps` writes every lone surrogate as
its escape, ``\\udcff``: the report stays UTF-8 and JSON, and
``os.fsencode(path)`` of the string a JSON reader gives back is the name's
bytes (a reader that allows no lone surrogate shows U+FFFD in its place).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import IO, Any

from muggins_cli.check import FileReport
from muggins_cli.notation.model import Diagnostic
from muggins_cli.replay.values import MatchSummary

#: The version of the report's format (docs/notation.md 9), its ``version``
#: field: it changes when a fixed field changes its meaning or goes, never
#: for a field added.
REPORT_VERSION = 1
#: How every JSON report starts, ``check``'s and ``analyze``'s alike.
REPORT_START = f'{{\n  "version": {REPORT_VERSION},\n  "files": ['


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(value: Any, **options: Any) -> str:
    """``value`` as JSON text, characters as they are but lone surrogates,
    which are escaped (see the module's docstring). The one way this
    project writes a report's JSON."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def match_json(m: MatchSummary) -> dict[str, Any]:
    return {
        "line": m.line,
        "players": m.players,
        "rules": m.rules,
        "target": m.target,
        "rounds": m.rounds,
        "scores": m.scores,
        "winner": m.winner,
    }


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    return {
        "line": d.line,
        "column": d.column,
        "severity": d.severity.value,
        "code": d.code,
        "message": d.message,
    }


def file_json(f: FileReport, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "path": f.path,
        "matches": [match_json(m) for m in f.matches],
        "diagnostics": [diagnostic_json(d) for d in f.diagnostics],
    }
    if extra:
        out.update(extra)
    return out


class Totals:
    """Running counts for the summary and the exit status."""

    def __init__(self) -> None:
        self.files = 0
        self.matches = 0
        self.errors = 0
        self.warnings = 0
        self.unreadable = 0

    def add(self, f: FileReport) -> None:
        self.files += 1
        self.matches += len(f.matches)
        self.errors += f.errors
        self.warnings += f.warnings
        self.unreadable += f.unreadable

    def as_json(self) -> dict[str, int]:
        return {"files": self.files, "matches": self.matches, "errors": self.errors,
                "warnings": self.warnings}


def write_json(reports: Iterable[FileReport], out: IO[str], totals: Totals) -> None:
    out.write(REPORT_START)
    first = True
    for f in reports:
        totals.add(f)
        out.write(("\n    " if first else ",\n    ") + dumps(file_json(f)))
        first = False
    out.write("\n  ],\n  \"summary\": " + json.dumps(totals.as_json()) + "\n}\n")
