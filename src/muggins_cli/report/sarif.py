"""SARIF 2.1.0: the findings as GitHub code scanning (and other tools that
read static analysis results) takes them.

One run of the tool ``muggins``; its rules are every code of
docs/diagnostics.md (``report.explain``: the code as ``id``, its first
sentence as ``shortDescription``, its whole entry as ``help``, its severity
as the default level), listed before the results so that the report can be
written as the files are checked. Each finding is a result: ``ruleId`` and
``ruleIndex`` the code's, ``level`` ``error``, ``warning`` or ``note``
(info), the message as it is (JSON holds any text), and one location: the
file as given (a relative path stays relative, which code scanning reads
from the repository's root; an absolute one is a ``file:`` URI), and the
region of the line and column. SARIF counts lines and columns from 1,
where a finding on a whole file is on line 0 and one on a whole line at
column 0: a finding on line 0 has ``startLine`` 1, and one at column 0 no
``startColumn`` (the whole line, in SARIF's terms), so every region is
valid and the whole-file ones still show on the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import PurePath, PurePosixPath
from typing import IO, Any
from urllib.parse import quote

from muggins_cli.check import STDIN, FileReport
from muggins_cli.notation.model import Diagnostic, Severity
from muggins_cli.report.explain import Entry, entries
from muggins_cli.report.json_report import Totals, dumps

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
VERSION = "2.1.0"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_LEVEL_OF = {"error": "error", "warning": "warning", "info": "note"}


def rule(entry: Entry) -> dict[str, Any]:
    """One code of docs/diagnostics.md as a SARIF reporting descriptor."""
    return {
        "id": entry.code,
        "shortDescription": {"text": entry.summary},
        "help": {"text": entry.text, "markdown": entry.text},
        "defaultConfiguration": {"level": _LEVEL_OF[entry.severity]},
    }


def artifact_uri(path: str) -> str:
    """A path as the URI of its artifact: relative ones stay relative (with
    ``/``), absolute ones become ``file:`` URIs; characters a URI may not
    hold are percent-encoded."""
    if path == STDIN:
        return STDIN
    pure = PurePath(path)
    if pure.is_absolute():
        return pure.as_uri()
    # The name's own bytes, as pathlib's as_uri() writes an absolute one: a
    # name that is not UTF-8 (held as lone surrogates) percent-encodes too.
    return quote(os.fsencode(PurePosixPath(*pure.parts).as_posix()), safe="/")


def region(d: Diagnostic) -> dict[str, int]:
    """The finding's place, 1-based (see the module's docstring)."""
    found = {"startLine": max(d.line, 1)}
    if d.line > 0 and d.column > 0:
        found["startColumn"] = d.column
    return found


def result(path: str, d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = {"ruleId": d.code}
    if d.code in index:
        out["ruleIndex"] = index[d.code]
    out["level"] = LEVELS[d.severity]
    out["message"] = {"text": d.message}
    out["locations"] = [{"physicalLocation": {
        "artifactLocation": {"uri": artifact_uri(path)},
        "region": region(d),
    }}]
    return out


def write_sarif(reports: Iterable[FileReport], out: IO[str], totals: Totals,
                version: str) -> None:
    """Every finding of every file as one SARIF log, written as the files
    come; ``version`` is the tool's."""
    rules = [rule(e) for e in entries().values()]
    index = {r["id"]: i for i, r in enumerate(rules)}
    driver = {"name": "muggins", "version": version, "semanticVersion": version,
              "rules": rules}
    head = json.dumps({"$schema": SCHEMA, "version": VERSION}, ensure_ascii=False)[:-1]
    out.write(head + ',\n  "runs": [{\n    "tool": {"driver": '
              + json.dumps(driver, ensure_ascii=False) + '},\n    "columnKind": '
              '"unicodeCodePoints",\n    "results": [')
    first = True
    for f in reports:
        totals.add(f)
        for d in f.diagnostics:
            out.write(("\n      " if first else ",\n      ")
                      + dumps(result(f.path, d, index)))
            first = False
    out.write("\n    ]\n  }]\n}\n")
