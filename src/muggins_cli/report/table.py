"""Per-match summary tables (tabulate), for people reading a whole folder.

Cells hold names from the records, so they are escaped for the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable

from muggins_cli.check import FileReport
from muggins_cli.report.escape import terminal_table

HEADERS = ("file", "line", "players", "rules", "target", "rounds", "scores", "winner",
           "errors")


def match_rows(f: FileReport) -> list[tuple[object, ...]]:
    if not f.matches:
        return [(f.path, 0, "", "", "", 0, "", "", f.errors)]
    rows: list[tuple[object, ...]] = []
    for i, m in enumerate(f.matches):
        nxt = f.matches[i + 1].line if i + 1 < len(f.matches) else None
        errors = sum(
            1 for d in f.diagnostics
            if d.severity.value == "error" and d.line >= m.line and (nxt is None or d.line < nxt)
        )
        scores = ", ".join(f"{p} {s}" for p, s in m.scores.items())
        rows.append((f.path, m.line, ", ".join(m.players), m.rules, m.target, m.rounds,
                     scores, m.winner or "-", errors))
    return rows


def render(reports: Iterable[FileReport], tablefmt: str = "simple") -> str:
    rows = [r for f in reports for r in match_rows(f)]
    return terminal_table(rows, headers=HEADERS, tablefmt=tablefmt)
