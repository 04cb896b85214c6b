"""Reports of ``muggins analyze``: the check's reports plus the analysis.

The findings themselves go through the check's reporters unchanged (text
lines, the JSON of NOTATION.md 9, the match table); this module adds the
per-player statistics (text and table), each turn's alternatives (``--turns``)
and the fields the analysis adds to each match of the JSON report:
``players_summary`` and ``plays``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from tabulate import tabulate

from muggins_cli.analysis.files import FileAnalysis
from muggins_cli.analysis.match import MatchAnalysis, PlayerStats
from muggins_cli.analysis.plays import Option, PlayAnalysis
from muggins_cli.report.json_report import Totals, file_json

PLAYER_HEADERS = ("player", "turns", "analysed", "forced", "scored", "missed",
                  "missed-score", "illegal", "unclaimed")
PLAY_HEADERS = ("R.T", "line", "player", "played", "points", "best", "missed", "alternatives")


# -- per-player statistics ---------------------------------------------------


def player_row(s: PlayerStats) -> tuple[object, ...]:
    return (s.player, s.turns, s.analysed, s.forced, s.scored, s.missed, s.missed_plays,
            s.illegal, "-" if s.unclaimed is None else s.unclaimed)


def players_table(m: MatchAnalysis, tablefmt: str = "simple") -> str:
    """One match's statistics, one row per player in seating order."""
    return tabulate([player_row(s) for s in m.players], headers=PLAYER_HEADERS,
                    tablefmt=tablefmt, disable_numparse=True, colalign=_ALIGN)


_ALIGN = ("left",) + ("right",) * (len(PLAYER_HEADERS) - 1)


def match_title(path: str, m: MatchAnalysis) -> str:
    s = m.summary
    players = ", ".join(s.players) if s.players else "no players"
    return f"{path}: match at line {s.line} ({players}; {s.rules})"


def all_players_table(files: Iterable[FileAnalysis], tablefmt: str = "simple") -> str:
    """Every player of every match, for ``--format table``."""
    rows = [(f.report.path, m.summary.line, *player_row(s))
            for f in files for m in f.matches for s in m.players]
    return tabulate(rows, headers=("file", "line", *PLAYER_HEADERS), tablefmt=tablefmt,
                    disable_numparse=True, colalign=("left", "right", *_ALIGN))


# -- turns ---------------------------------------------------------------


def _option(o: Option) -> str:
    return f"{o.text} {o.points}"


def play_row(p: PlayAnalysis) -> tuple[object, ...]:
    best = p.best
    if p.options is None:
        alternatives = "hidden"
    elif not p.options:
        alternatives = "none"
    else:
        alternatives = ", ".join(_option(o) for o in p.options)
    return (f"{p.round}.{p.turn}", p.line, p.player, p.played, p.points,
            _option(best) if best is not None else "-", p.missed or "", alternatives)


def plays_table(m: MatchAnalysis, tablefmt: str = "simple") -> str:
    """Every turn of a match with its legal alternatives and their scores."""
    return tabulate([play_row(p) for p in m.plays], headers=PLAY_HEADERS, tablefmt=tablefmt,
                    disable_numparse=True,
                    colalign=("left", "right", "left", "left", "right", "left", "right",
                              "left"))


def file_text_blocks(f: FileAnalysis, turns: bool = False) -> list[str]:
    """The statistics of each match of a file (and its turns when asked),
    each block a title line and a table."""
    blocks: list[str] = []
    for m in f.matches:
        if not m.players:
            continue
        block = match_title(f.report.path, m) + "\n" + players_table(m)
        if turns and m.plays:
            block += "\n\n" + plays_table(m)
        blocks.append(block)
    return blocks


# -- JSON -----------------------------------------------------------------


def player_json(s: PlayerStats) -> dict[str, Any]:
    return {
        "player": s.player,
        "turns": s.turns,
        "analysed": s.analysed,
        "forced": s.forced,
        "points_scored": s.scored,
        "points_missed": s.missed,
        "missed_score": s.missed_plays,
        "illegal": s.illegal,
        "unclaimed": s.unclaimed,
    }


def play_json(p: PlayAnalysis) -> dict[str, Any]:
    best = p.best
    return {
        "round": p.round,
        "turn": p.turn,
        "line": p.line,
        "player": p.player,
        "played": p.played,
        "points": p.points,
        "options": (None if p.options is None else
                    [{"play": o.text, "points": o.points} for o in p.options]),
        "best": None if best is None else {"play": best.text, "points": best.points},
        "missed": p.missed,
    }


def analysis_file_json(f: FileAnalysis) -> dict[str, Any]:
    """The file's object of NOTATION.md 9, each match with two added fields."""
    out = file_json(f.report)
    for mj, m in zip(out["matches"], f.matches):
        mj["players_summary"] = [player_json(s) for s in m.players]
        mj["plays"] = [play_json(p) for p in m.plays]
    return out


def write_analysis_json(files: Iterable[FileAnalysis], out: IO[str], totals: Totals) -> None:
    """The JSON report, streamed one file at a time like the check's."""
    out.write('{\n  "files": [')
    first = True
    for f in files:
        totals.add(f.report)
        out.write(("\n    " if first else ",\n    ")
                  + json.dumps(analysis_file_json(f), ensure_ascii=False))
        first = False
    out.write("\n  ],\n  \"summary\": " + json.dumps(totals.as_json()) + "\n}\n")
