"""A corpus summary: how much was played, by whom, and what went wrong.

Each file is folded into a small :class:`CorpusStats` as it is replayed (one
match at a time, the match's turn events dropped once counted); the batch
runner merges the per-file values in input order. ``points`` are the points
scored by placements (the turn score), not the end-of-round settlements;
``points per turn`` divides them by the turns replayed (placements and
passes). ``missed`` are the points that the best legal placement would have
added over the one played, summed over a player's turns, as the analysis
(:mod:`muggins_cli.analysis`, ``missed-score``) counts them; the diagnostic
codes are the check's own findings, not the analysis's. Player names are
escaped for the terminal in the tables (not in the JSON).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tabulate import tabulate

from muggins_cli.analysis import analyse_match
from muggins_cli.batch import Work, no_relabel
from muggins_cli.check import NOT_CHECKED, iter_replays
from muggins_cli.errors import InputError
from muggins_cli.notation.model import Match, Severity
from muggins_cli.replay.values import MatchReplay
from muggins_cli.report.escape import terminal_table


@dataclass
class PlayerTotals:
    """One player's totals over a corpus (one match's line of the analysis
    is :class:`muggins_cli.analysis.match.PlayerStats`)."""

    matches: int = 0
    wins: int = 0
    turns: int = 0
    points: int = 0
    missed: int = 0

    def merge(self, other: PlayerTotals) -> None:
        self.matches += other.matches
        self.wins += other.wins
        self.turns += other.turns
        self.points += other.points
        self.missed += other.missed

    @property
    def points_per_turn(self) -> float:
        return self.points / self.turns if self.turns else 0.0


@dataclass
class CorpusStats:
    files: int = 0
    unreadable: int = 0
    matches: int = 0
    finished: int = 0
    rounds: int = 0
    turns: int = 0
    scoring_turns: int = 0
    points: int = 0
    missed: int = 0
    errors: int = 0
    warnings: int = 0
    players: dict[str, PlayerTotals] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """Head to head: two players (by name, in order) -> the matches they sat
    at together, the first one's wins among them, the second one's."""
    codes: Counter[str] = field(default_factory=Counter)

    def merge(self, other: CorpusStats) -> None:
        self.files += other.files
        self.unreadable += other.unreadable
        self.matches += other.matches
        self.finished += other.finished
        self.rounds += other.rounds
        self.turns += other.turns
        self.scoring_turns += other.scoring_turns
        self.points += other.points
        self.missed += other.missed
        self.errors += other.errors
        self.warnings += other.warnings
        for name, p in other.players.items():
            self.players.setdefault(name, PlayerTotals()).merge(p)
        for pair, (n, a, b) in other.pairs.items():
            mine = self.pairs.setdefault(pair, [0, 0, 0])
            mine[0] += n
            mine[1] += a
            mine[2] += b
        self.codes.update(other.codes)

    def add_match(self, match: Match, replay: MatchReplay) -> None:
        """One replayed match (run with ``collect_events=True``)."""
        s = replay.summary
        self.matches += 1
        self.finished += s.winner is not None
        self.rounds += s.rounds
        self.turns += s.turns
        seats = [self.players.setdefault(name, PlayerTotals()) for name in s.players]
        for p in seats:
            p.matches += 1
        if s.winner is not None and s.winner in self.players:
            self.players[s.winner].wins += 1
        names = sorted(set(s.players))
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                pair = self.pairs.setdefault((first, second), [0, 0, 0])
                pair[0] += 1
                pair[1] += s.winner == first
                pair[2] += s.winner == second
        for e in replay.events:
            if 0 <= e.seat < len(seats):
                seats[e.seat].turns += 1
                seats[e.seat].points += e.points
            self.scoring_turns += 1
            self.points += e.points
        for a in analyse_match(match, replay).players:
            if a.player in self.players:
                self.players[a.player].missed += a.missed
            self.missed += a.missed
        for d in replay.diagnostics:
            self.codes[d.code] += 1
            self.errors += d.severity is Severity.ERROR
            self.warnings += d.severity is Severity.WARNING

    @property
    def points_per_turn(self) -> float:
        return self.points / self.scoring_turns if self.scoring_turns else 0.0

    def top_players(self, top: int) -> list[tuple[str, PlayerTotals]]:
        """Most matches first, then by name; ``top`` 0 for all."""
        ranked = sorted(self.players.items(), key=lambda kv: (-kv[1].matches, kv[0]))
        return ranked[:top] if top else ranked

    def top_pairs(self, top: int) -> list[tuple[tuple[str, str], list[int]]]:
        """Most matches together first, then by names; ``top`` 0 for all."""
        ranked = sorted(self.pairs.items(), key=lambda kv: (-kv[1][0], kv[0]))
        return ranked[:top] if top else ranked

    def top_codes(self, top: int) -> list[tuple[str, int]]:
        """Most frequent first, then by code; ``top`` 0 for all."""
        ranked = sorted(self.codes.items(), key=lambda kv: (-kv[1], kv[0]))
        return ranked[:top] if top else ranked


def file_stats(path: str) -> CorpusStats:
    """One file folded into a :class:`CorpusStats`; never raises for what the
    file holds (an unreadable file counts as such, with nothing from it)."""
    stats = CorpusStats(files=1)
    try:
        for match, replay in iter_replays(path, events=True):
            stats.add_match(match, replay)
    except InputError:
        stats = CorpusStats(files=1, unreadable=1, errors=1, codes=Counter({"unreadable": 1}))
    return stats


def not_read(path: str, why: str) -> CorpusStats:
    """A file that could not be read at all (its task kept failing on a
    cluster): counted as unreadable, under the code that says why."""
    return CorpusStats(files=1, unreadable=1, errors=1, codes=Counter({NOT_CHECKED: 1}))


STATS: Work[CorpusStats] = Work(file_stats, no_relabel, not_read)
"""``muggins stats``: :func:`file_stats` on each file."""


def _ratio(x: float) -> float:
    return round(x, 2)


def as_json(stats: CorpusStats, top: int = 10) -> dict[str, Any]:
    return {
        "files": stats.files,
        "unreadable": stats.unreadable,
        "matches": stats.matches,
        "finished": stats.finished,
        "rounds": stats.rounds,
        "turns": stats.turns,
        "players": len(stats.players),
        "points": stats.points,
        "points_per_turn": _ratio(stats.points_per_turn),
        "missed": stats.missed,
        "errors": stats.errors,
        "warnings": stats.warnings,
        "by_player": [
            {"name": name, "matches": p.matches, "wins": p.wins, "turns": p.turns,
             "points": p.points, "points_per_turn": _ratio(p.points_per_turn),
             "missed": p.missed}
            for name, p in stats.top_players(top)
        ],
        "head_to_head": [
            {"players": list(pair), "matches": n, "wins": [a, b]}
            for pair, (n, a, b) in stats.top_pairs(top)
        ],
        "diagnostic_codes": [{"code": code, "count": n} for code, n in stats.top_codes(top)],
    }


def render(stats: CorpusStats, top: int = 10, tablefmt: str = "simple") -> str:
    """Four tables: the corpus, its players, who played whom (head to head),
    its most frequent findings."""
    summary = [
        ("files", stats.files),
        ("unreadable", stats.unreadable),
        ("matches", stats.matches),
        ("finished", stats.finished),
        ("rounds", stats.rounds),
        ("turns", stats.turns),
        ("players", len(stats.players)),
        ("points per turn", f"{stats.points_per_turn:.2f}"),
        ("missed points", stats.missed),
        ("errors", stats.errors),
        ("warnings", stats.warnings),
    ]
    parts = [tabulate(summary, headers=("corpus", ""), tablefmt=tablefmt,
                      disable_numparse=True, colalign=("left", "right"))]
    if stats.players:
        rows = [(name, p.matches, p.wins, p.turns, p.points, f"{p.points_per_turn:.2f}",
                 p.missed)
                for name, p in stats.top_players(top)]
        parts.append(terminal_table(rows, headers=("player", "matches", "wins", "turns", "points",
                                                   "points/turn", "missed"),
                                    tablefmt=tablefmt, disable_numparse=True,
                                    colalign=("left", *["right"] * 6)))
    if stats.pairs:
        pairs = [(a, b, n, wa, wb) for (a, b), (n, wa, wb) in stats.top_pairs(top)]
        parts.append(terminal_table(pairs, headers=("player", "opponent", "matches",
                                                   "player's wins", "opponent's wins"),
                                    tablefmt=tablefmt, disable_numparse=True,
                                    colalign=("left", "left", *["right"] * 3)))
    if stats.codes:
        parts.append(tabulate(stats.top_codes(top), headers=("diagnostic", "count"),
                              tablefmt=tablefmt, disable_numparse=True,
                              colalign=("left", "right")))
    return "\n\n".join(parts)
