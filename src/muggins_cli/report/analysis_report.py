"""Reports of ``muggins analyze``: the check's reports plus the analysis.

The findings themselves go through the check's reporters unchanged (text
lines, the JSON of docs/notation.md 9, the match table); this module adds the
per-player statistics (text and table), each turn's alternatives (``--turns``)
and the fields the analysis adds to each match of the JSON report:
``players_summary`` and ``plays``. Text and tables are escaped for the
terminal (names come from the records); the JSON keeps the raw text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.files import FileAnalysis
from muggins_cli.analysis.match import MatchAnalysis, PlayerStats
from muggins_cli.analysis.plays import Option, PlayAnalysis
from muggins_cli.analysis.solver_stats import SolverStats
from muggins_cli.analysis.verdicts import CLOSE, UNCERTAIN, VERDICT_WORDS, measured, verdict_reason
from muggins_cli.analysis.weigh import Weighed
from muggins_cli.report.escape import for_terminal, terminal_table
from muggins_cli.report.json_report import REPORT_START, Totals, dumps, file_json

PLAYER_HEADERS = ("player", "turns", "analysed", "forced", "scored", "missed",
                  "missed-score", "illegal", "unclaimed")
PLAY_HEADERS = ("R.T", "line", "player", "played", "points", "best", "missed", "alternatives")


# -- per-player statistics ---------------------------------------------------

SOLVER_HEADERS = ("unforced", "lost", "lost/turn", "luck")


def player_row(s: PlayerStats) -> tuple[object, ...]:
    return (s.player, s.turns, s.analysed, s.forced, s.scored, s.missed, s.missed_plays,
            s.illegal, "-" if s.unclaimed is None else s.unclaimed)


def solver_row(s: SolverStats | None) -> tuple[object, ...]:
    """The solver's columns: unforced turns weighed, points lost over them,
    points lost per unforced turn, and the luck of the player's draws, each
    sampled figure with its standard error (none when it is exact)."""
    if s is None:
        return ("-",) * len(SOLVER_HEADERS)
    rate = s.error_rate
    lost_exact = s.exact == s.unforced
    rate_text = lost = "-"  # no turn weighed: nothing is known of what was lost
    if rate is not None:
        rate_text = f"{rate:.2f}" + ("" if lost_exact else f" ± {s.lost_error / s.unforced:.2f}")
        lost = measured(s.lost, s.lost_error, lost_exact)
    luck = "-"
    if s.draws:
        luck = f"{s.luck:+.1f}" + (f" ± {s.luck_error:.1f}" if s.luck_error else "")
    return (s.unforced, lost, rate_text, luck)


def player_rows(m: MatchAnalysis) -> list[tuple[object, ...]]:
    """Each player's statistics as the tables show them (the text table and
    the study page), with the solver's columns when it weighed the turns."""
    solver = {s.player: s for s in m.solver}
    weighing = m.weigh is not None
    return [(*player_row(s), *(solver_row(solver.get(s.player)) if weighing else ()))
            for s in m.players]


def player_headers(weighing: bool) -> tuple[str, ...]:
    return PLAYER_HEADERS + (SOLVER_HEADERS if weighing else ())


def _align(weighing: bool) -> tuple[str, ...]:
    return ("left",) + ("right",) * (len(player_headers(weighing)) - 1)


def players_table(m: MatchAnalysis, tablefmt: str = "simple") -> str:
    """One match's statistics, one row per player in seating order (with
    the solver's columns when it weighed the turns)."""
    weighing = m.weigh is not None
    return terminal_table(player_rows(m), headers=player_headers(weighing), tablefmt=tablefmt,
                          disable_numparse=True, colalign=_align(weighing))


def match_title(path: str, m: MatchAnalysis) -> str:
    s = m.summary
    players = ", ".join(s.players) if s.players else "no players"
    return for_terminal(f"{path}: match at line {s.line} ({players}; {s.rules})")


def all_players_table(files: Iterable[FileAnalysis], tablefmt: str = "simple") -> str:
    """Every player of every match, for ``--format table``."""
    kept = list(files)
    weighing = any(m.weigh is not None for f in kept for m in f.matches)
    rows = []
    for f in kept:
        for m in f.matches:
            for row in player_rows(m):
                pad = ("-",) * len(SOLVER_HEADERS) if weighing and m.weigh is None else ()
                rows.append((f.report.path, m.summary.line, *row, *pad))
    return terminal_table(rows, headers=("file", "line", *player_headers(weighing)),
                          tablefmt=tablefmt, disable_numparse=True,
                          colalign=("left", "right", *_align(weighing)))


@dataclass
class TurnsWeighed:
    """What became of the turns the solver was handed: weighed (a choice,
    valued), forced (one legal move: nothing to weigh, only the draws'
    luck) or not weighed (and the first reason why). One count and one
    sentence (:meth:`words`) for stderr, the text and table reports, the
    JSON (:meth:`as_json`) and the study page."""

    total: int = 0
    weighed: int = 0
    forced: int = 0
    not_weighed: int = 0
    why: str | None = None

    def add(self, w: Weighed) -> None:
        self.total += 1
        if w.weighed and w.unforced:
            self.weighed += 1
        elif w.choices == 1:
            self.forced += 1
        else:
            self.not_weighed += 1
            if self.why is None:
                self.why = w.why

    def words(self) -> str:
        out = f"weighed {self.weighed} of {self.total} turn{'s' if self.total != 1 else ''}"
        if self.forced:
            out += f"; {self.forced} forced (one legal move)"
        if self.not_weighed:
            out += f"; {self.not_weighed} not weighed" + (f" ({self.why})" if self.why else "")
        return out

    def as_json(self) -> dict[str, int]:
        return {"total": self.total, "weighed": self.weighed, "forced": self.forced,
                "not_weighed": self.not_weighed}


def turns_weighed(weighed: Iterable[Weighed]) -> TurnsWeighed:
    counts = TurnsWeighed()
    for w in weighed:
        counts.add(w)
    return counts


def weigh_line(m: MatchAnalysis) -> str | None:
    """How the solver weighed the match, and what it could not weigh."""
    if m.weigh is None:
        return None
    w = m.weigh
    exact = sum(s.exact for s in m.solver)
    unforced = sum(s.unforced for s in m.solver)
    if w.perfect:
        view = "perfect: every hand and the stock as recorded; exact"
    else:
        fewest = min(w.min_deals, w.samples)
        deals = f"{fewest} to {w.samples}" if fewest < w.samples else f"{w.samples}"
        view = (f"sample: the mover's view, {deals} deals a turn, every deal where there "
                f"are at most {w.exact}"
                + (f"; {exact} of {unforced} turns exact" if unforced else ""))
    line = (f"solver ({view}): lost = points given away by the end of the round against "
            "the best play; luck = what the player's draws gave against the average draw"
            + ("" if w.perfect else "; ± one standard error (a figure without one is "
                                    "exact)"))
    close = sum(s.close for s in m.solver)
    if close:
        line += (f"\n{VERDICT_WORDS[CLOSE]}: {close} turn{'s' if close != 1 else ''} "
                 f"({verdict_reason(CLOSE, w)}; neither warned about nor marked)")
    unsure = sum(s.uncertain for s in m.solver)
    if unsure:
        line += (f"\n{VERDICT_WORDS[UNCERTAIN]}: {unsure} turn{'s' if unsure != 1 else ''} "
                 f"({verdict_reason(UNCERTAIN, w)}; neither warned about nor marked)")
    return line + "\n" + turns_weighed(m.weighed).words()


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


PLAY_SOLVER_HEADERS = ("value", "solver best", "lost", "luck")


def _value(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:+.0f}" if float(x).is_integer() else f"{x:+.1f}"


def _measured_value(x: float | None, error: float | None, exact: bool) -> str:
    if x is None:
        return "-"
    return measured(x, error, exact, signed=True)


def play_solver_row(w: Weighed | None) -> tuple[object, ...]:
    """A turn's solver columns, each sampled figure with its standard
    error (exact ones bare; the view line says which)."""
    if w is None:
        return ("",) * len(PLAY_SOLVER_HEADERS)
    luck = "" if w.luck is None else _measured_value(w.luck, w.luck_error,
                                                     w.luck_error is None)
    if not w.weighed:
        return ("forced" if w.choices == 1 else "-", "", "", luck)
    lost = "" if not w.cost else measured(w.cost, w.error, w.exact)
    glyph = verdict_glyph(w.verdict)
    mark = f" {glyph}" if glyph else f" ({w.verdict})" if w.verdict in (CLOSE, UNCERTAIN) else ""
    return (_measured_value(w.value, w.value_error, w.exact),
            f"{w.best} {_measured_value(w.best_value, w.best_value_error, w.exact)}",
            lost + mark, luck)


def plays_table(m: MatchAnalysis, tablefmt: str = "simple") -> str:
    """Every turn of a match with its legal alternatives and their scores,
    and the solver's verdict when it weighed the turns."""
    weighing = m.weigh is not None
    by_line = m.weighed_by_line()
    rows = [(*play_row(p), *(play_solver_row(by_line.get(p.line)) if weighing else ()))
            for p in m.plays]
    headers = PLAY_HEADERS + (PLAY_SOLVER_HEADERS if weighing else ())
    align = ("left", "right", "left", "left", "right", "left", "right", "left") + (
        ("right", "left", "right", "right") if weighing else ())
    return terminal_table(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True,
                    colalign=align)


def file_text_blocks(f: FileAnalysis, turns: bool = False) -> list[str]:
    """The statistics of each match of a file (and its turns when asked),
    each block a title line and a table."""
    blocks: list[str] = []
    for m in f.matches:
        if not m.players:
            continue
        block = match_title(f.report.path, m) + "\n" + players_table(m)
        how = weigh_line(m)
        if how is not None:
            block += "\n" + how
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


def solver_player_json(s: SolverStats) -> dict[str, Any]:
    return {
        "unforced": s.unforced,
        "points_lost": round(s.lost, 3) if s.unforced else None,
        "error_rate": None if s.error_rate is None else round(s.error_rate, 3),
        "costly_plays": s.costly,
        "uncertain": s.uncertain,
        "close": s.close,
        "luck": round(s.luck, 3) if s.draws else None,
        "draw_turns": s.draws,
        "unweighed": s.unweighed,
        "points_lost_error": round(s.lost_error, 3) if s.unforced else None,
        "error_rate_error": (None if s.error_rate_error is None
                             else round(s.error_rate_error, 3)),
        "luck_error": round(s.luck_error, 3) if s.draws else None,
        "exact_turns": s.exact,
    }


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def weighed_json(w: Weighed) -> dict[str, Any]:
    return {
        "choices": w.choices,
        "value": _r(w.value),
        "best": w.best,
        "best_value": _r(w.best_value),
        "lost": round(w.cost, 3) if w.weighed else None,
        "lost_error": _r(w.error),
        "glyph": verdict_glyph(w.verdict),
        "verdict": w.verdict,
        "luck": _r(w.luck),
        "exact": w.exact,
        "samples": w.samples,
        "not_weighed": w.why,
        "value_error": _r(w.value_error),
        "best_value_error": _r(w.best_value_error),
        "luck_error": _r(w.luck_error),
        "lost_low": _r(w.cost_low),
        "lost_high": _r(w.cost_high),
        "plays": [{"play": c.text, "value": _r(c.value), "lost": round(c.cost, 3),
                   "lost_error": _r(c.error), "value_error": _r(c.value_error),
                   "deals": c.deals, "played": k == w.rank, "dropped_below": _r(c.below)}
                  for k, c in enumerate(w.candidates)],
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
    """The file's object of docs/notation.md 9, each match with two added fields."""
    out = file_json(f.report)
    for mj, m in zip(out["matches"], f.matches):
        solver = {s.player: s for s in m.solver}
        mj["players_summary"] = [
            {**player_json(s), **({"solver": solver_player_json(solver[s.player])}
                                  if s.player in solver else {})}
            for s in m.players]
        mj["plays"] = []
        by_line = m.weighed_by_line()
        for p in m.plays:
            pj = play_json(p)
            w = by_line.get(p.line)
            if w is not None and m.weigh is not None:
                pj["solver"] = weighed_json(w)
            mj["plays"].append(pj)
        if m.weigh is not None:
            players = len(m.summary.players)
            mj["solver"] = {"view": m.weigh.mode, "samples": m.weigh.samples,
                            "min_samples": m.weigh.min_deals, "z": m.weigh.z,
                            "nodes": m.weigh.node_limit(players),
                            "seed": m.weigh.seed, "exact_deals": m.weigh.exact,
                            "work": m.weigh.work_limit(players),
                            "blunder_samples": m.weigh.blunder_deals,
                            "luck_samples": m.weigh.luck_deals, "close": m.weigh.close,
                            "close_z": m.weigh.close_z,
                            "turns": turns_weighed(m.weighed).as_json()}
    return out


def write_analysis_json(files: Iterable[FileAnalysis], out: IO[str], totals: Totals) -> None:
    """The JSON report, streamed one file at a time like the check's."""
    out.write(REPORT_START)
    first = True
    for f in files:
        totals.add(f.report)
        out.write(("\n    " if first else ",\n    ")
                  + dumps(analysis_file_json(f)))
        first = False
    out.write("\n  ],\n  \"summary\": " + json.dumps(totals.as_json()) + "\n}\n")
