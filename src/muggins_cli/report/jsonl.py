"""JSON Lines: one JSON object per finding, one finding per line.

For tools that read findings one at a time (``jq -c``, a log shipper, a
grep): each line is ``{"path", "line", "column", "severity", "code",
"message"}``, the fields of a diagnostic of the JSON report (docs/notation.md
9) with the file's path; a file without findings writes nothing, and the
summary goes to standard error like every format's but text. Lines are
written as each file is checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from muggins_cli.check import FileReport
from muggins_cli.report.json_report import Totals, diagnostic_json, dumps


def write_jsonl(reports: Iterable[FileReport], out: IO[str], totals: Totals) -> None:
    for f in reports:
        totals.add(f)
        for d in f.diagnostics:
            out.write(dumps({"path": f.path, **diagnostic_json(d)}) + "\n")
