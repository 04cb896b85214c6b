"""A whole match analysed: every turn's alternatives, the findings they give
(``missed-score``, ``unclaimed``) and the per-player statistics.

The replay has already decided what is legal, what each placement scored
and what its claim and any muggins call credited; this module only
compares, so it needs the replay's events (``TurnEvent``), which carry the
turn lines as written (to name plays as the record does), and its findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from muggins_cli.analysis.plays import PlayAnalysis, analyse_event, written, written_halves
from muggins_cli.analysis.solver_stats import SolverStats, costly_findings, solver_stats
from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.analysis.weigh import Weighed, Weigher, weigh_each, weigh_match
from muggins_cli.notation.model import (
    Diagnostic,
    Match,
    MugginsCall,
    Severity,
    Turn,
)
from muggins_cli.replay.position import Decision
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.replay.values import MatchReplay, MatchSummary, TurnEvent
from muggins_cli.rules.model import Rules

MISSED_SCORE = "missed-score"
UNCLAIMED = "unclaimed"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's line of the match statistics (after GNU Backgammon's).

    ``turns`` counts turn lines that the replay played (closing passes after a
    block change nothing and are not counted); ``analysed`` those whose legal
    choices the record shows; ``forced`` those with one legal placement or
    none. ``scored`` is what the player was credited in play: what their
    placements scored, or under muggins rules what they claimed of it and
    what their muggins calls took (settlements aside); ``missed`` the points that better
    legal placements would have added, over ``missed_plays`` turns.
    ``illegal`` counts errors on the player's own turn and muggins lines.
    ``unclaimed`` is None under rules without a muggins call.
    """

    player: str
    turns: int = 0
    analysed: int = 0
    forced: int = 0
    scored: int = 0
    missed: int = 0
    missed_plays: int = 0
    illegal: int = 0
    unclaimed: int | None = None


@dataclass
class MatchAnalysis:
    """``weighed`` and ``solver`` are the solver's view of every turn and
    each player's statistics from it, when the analysis was asked to weigh
    (``weigh``: how)."""

    summary: MatchSummary
    rules: Rules | None
    plays: list[PlayAnalysis] = field(default_factory=list)
    players: list[PlayerStats] = field(default_factory=list)
    findings: list[Diagnostic] = field(default_factory=list)
    weigh: WeighOptions | None = None
    weighed: list[Weighed] = field(default_factory=list)
    solver: list[SolverStats] = field(default_factory=list)

    def weighed_by_line(self) -> dict[int, Weighed]:
        return {w.line: w for w in self.weighed}


def missed_note(p: PlayAnalysis) -> str:
    """What a placement missed at once: ``6-1L scored 15 (5 missed)``."""
    best = p.best
    assert best is not None
    return f"{best.text} scored {best.points} ({p.missed} missed)"


def missed_message(p: PlayAnalysis) -> str:
    return f"{p.player} played {p.played} for {p.points}; {missed_note(p)}"


def analyse_match(match: Match, replay: MatchReplay, resolve: RulesResolver | None = None,
                  weigh: WeighOptions | None = None, weigher: Weigher = weigh_each, *,
                  decisions: Sequence[Decision] | None = None) -> MatchAnalysis:
    """Analyse one replayed match (``replay`` must have been run with
    ``collect_events=True``); with ``weigh``, every turn is also weighed by
    the solver (``weigher`` does the weighing, here or spread over
    processes): the ``decisions`` a :class:`~muggins_cli.replay.watch.Decisions`
    visitor took on the same replay, or, without them, those of another
    replay (``resolve`` finds the record's rules again for it)."""
    out = MatchAnalysis(replay.summary, replay.rules, weigh=weigh)
    rules = replay.rules
    names = replay.summary.players
    if rules is None or not names:
        return out
    judged: set[int] = set()  # turns the solver weighed: its verdict is the only one
    if weigh is not None:
        if decisions is None:
            assert resolve is not None
            out.weighed = weigh_match(match, resolve, weigh, weigher)
        else:
            out.weighed = list(weigher(decisions, weigh))
        out.solver = solver_stats(names, out.weighed, weigh)
        judged = {w.line for w in out.weighed if w.weighed}
    stats = {name: _Counts() for name in names}
    at_once: dict[int, str] = {}

    # 1. Every replayed turn against its alternatives.
    for event in replay.events:
        p = analyse_event(rules, event, names[event.seat], written(event.written),
                          written_halves(event.written))
        out.plays.append(p)
        _count(rules, names, stats, event, p)
        if p.missed > 0:
            if p.line in judged:
                at_once[p.line] = missed_note(p)
            else:
                out.findings.append(Diagnostic(p.line, p.column, Severity.WARNING,
                                               MISSED_SCORE, missed_message(p)))
    if weigh is not None:
        out.findings.extend(costly_findings(out.weighed, weigh, at_once))

    # 2. Errors on each player's own lines.
    owner = {item.line: item.player for item in match.body
             if isinstance(item, Turn | MugginsCall) and item.player in stats}
    for d in replay.diagnostics:
        if d.severity is Severity.ERROR and d.line in owner:
            stats[owner[d.line]].illegal += 1

    # 3. Under muggins rules: the points left on the table that nobody called.
    if rules.muggins:
        _unclaimed(out, stats)

    out.players = [stats[n].freeze(n, rules.muggins) for n in names]
    out.findings.sort(key=lambda d: (d.line, d.column))
    return out


def _count(rules: Rules, names: Sequence[str], stats: dict[str, _Counts], event: TurnEvent,
           p: PlayAnalysis) -> None:
    """One turn in its player's counts: what it was credited, as the
    replay credited it (and the muggins calls after it, in the callers'),
    what it left unclaimed and what it missed."""
    c = stats[names[event.seat]]
    c.turns += 1
    c.analysed += p.analysed
    c.forced += p.forced
    c.scored += event.credited
    for call in event.calls:
        stats[names[call.seat]].scored += call.taken
    if rules.muggins and event.unclaimed > 0:
        c.unclaimed += event.unclaimed
        c.unclaimed_at.append((event.written.line, event.written.column, event.unclaimed))
    if p.missed > 0:
        c.missed += p.missed
        c.missed_plays += 1


@dataclass
class _Counts:
    turns: int = 0
    analysed: int = 0
    forced: int = 0
    scored: int = 0
    missed: int = 0
    missed_plays: int = 0
    illegal: int = 0
    unclaimed: int = 0
    unclaimed_at: list[tuple[int, int, int]] = field(default_factory=list)  # line, col, pts

    def freeze(self, name: str, muggins: bool) -> PlayerStats:
        return PlayerStats(name, self.turns, self.analysed, self.forced, self.scored,
                           self.missed, self.missed_plays, self.illegal,
                           self.unclaimed if muggins else None)


def _unclaimed(out: MatchAnalysis, stats: dict[str, _Counts]) -> None:
    """One note per player who left points unclaimed that nobody called."""
    for name, c in stats.items():
        if not c.unclaimed:
            continue
        line, column, _ = c.unclaimed_at[0]
        n = len(c.unclaimed_at)
        where = ", ".join(str(ln) for ln, _, _ in c.unclaimed_at[:5])
        more = ", ..." if n > 5 else ""
        out.findings.append(Diagnostic(
            line, column, Severity.INFO, UNCLAIMED,
            f"{name} left {c.unclaimed} points unclaimed that nobody called "
            f"({n} play{'s' if n != 1 else ''}: line{'s' if n != 1 else ''} {where}{more})"))
