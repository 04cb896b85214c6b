"""What a match's weighed turns add up to: each player's statistics
(points lost per unforced turn, luck, the verdicts counted) and the
``costly-play`` warning for each play judged a mistake or a blunder."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from muggins_cli.analysis.verdicts import CLOSE, UNCERTAIN, WeighOptions, measured, points
from muggins_cli.analysis.weigh import Weighed
from muggins_cli.notation.model import Diagnostic, Severity

COSTLY_PLAY = "costly-play"


@dataclass(frozen=True, slots=True)
class SolverStats:
    """One player's line of the solver's statistics.

    ``unforced`` counts the player's turns with a choice that were weighed;
    ``lost`` the points their plays gave away over those turns, so
    ``error_rate`` is points lost per unforced turn (GNU Backgammon's error
    rate, in points). ``luck`` adds up what the player's own draws gave or
    took against the average draw, over ``draws`` turns with draws.
    ``unweighed`` counts turns with a choice that could not be weighed;
    ``costly`` the plays judged a mistake or a blunder, ``close`` those
    known to lie near the mistake line, ``uncertain`` those whose verdict
    the deals could not settle. ``lost_error`` and
    ``luck_error`` are the standard errors of ``lost`` and ``luck`` (each
    turn's deals are its own, so the turns' errors add in quadrature; 0 when
    every turn was exact), ``exact`` counts the unforced turns whose cost is
    exact.
    """

    player: str
    unforced: int = 0
    lost: float = 0.0
    costly: int = 0
    luck: float = 0.0
    draws: int = 0
    unweighed: int = 0
    uncertain: int = 0
    lost_error: float = 0.0
    luck_error: float = 0.0
    exact: int = 0
    close: int = 0

    @property
    def error_rate(self) -> float | None:
        return self.lost / self.unforced if self.unforced else None

    @property
    def error_rate_error(self) -> float | None:
        return self.lost_error / self.unforced if self.unforced else None


def solver_stats(players: Sequence[str], weighed: Iterable[Weighed],
                 options: WeighOptions) -> list[SolverStats]:
    """Each player's statistics, in seating order."""
    rows = {name: SolverStats(name) for name in players}
    lost_var = dict.fromkeys(players, 0.0)
    luck_var = dict.fromkeys(players, 0.0)
    for w in weighed:
        s = rows.get(w.player)
        if s is None:
            continue
        unforced, lost, costly, luck, draws, unweighed, uncertain, exact, close = (
            s.unforced, s.lost, s.costly, s.luck, s.draws, s.unweighed, s.uncertain, s.exact,
            s.close)
        if w.weighed and w.unforced:
            unforced += 1
            lost += w.cost
            costly += w.costly
            close += w.verdict == CLOSE
            uncertain += w.verdict == UNCERTAIN
            exact += w.exact
            lost_var[w.player] += (w.error or 0.0) ** 2
        elif w.choices != 1:
            unweighed += 1
        if w.luck is not None:
            luck += w.luck
            draws += 1
            luck_var[w.player] += (w.luck_error or 0.0) ** 2
        rows[w.player] = SolverStats(w.player, unforced, lost, costly, luck, draws, unweighed,
                                     uncertain, math.sqrt(lost_var[w.player]),
                                     math.sqrt(luck_var[w.player]), exact, close)
    return list(rows.values())


def view_text(w: Weighed, options: WeighOptions) -> str:
    if options.perfect:
        return "all hands seen"
    if w.exact:
        return f"the mover's view, every one of the {w.samples} deals"
    return f"the mover's view, {w.samples} deal{'s' if w.samples != 1 else ''}"


def costly_message(w: Weighed, options: WeighOptions, at_once: str | None = None) -> str:
    """The costly-play warning: what the play cost by the end of the round
    (exactly, or with its standard error), and ``at_once``, the immediate
    score it missed, as a note."""
    cost = f"exactly {points(w.cost)}" if w.exact else measured(w.cost, w.error, False)
    note = f"; at once, {at_once}" if at_once else ""
    return (f"{w.player} played {w.played}: {w.best} was {cost} points "
            f"better by the end of the round (solver, {view_text(w, options)}){note}")


def costly_findings(weighed: Iterable[Weighed], options: WeighOptions,
                    at_once: Mapping[int, str] | None = None) -> list[Diagnostic]:
    """A ``costly-play`` warning for each play judged a mistake or a blunder:
    its cost above ``options.costly`` by more than ``z`` standard errors.
    ``at_once`` holds, by line, the immediate score a turn missed, which its
    warning notes (the turn gets no second warning for it)."""
    notes = at_once or {}
    return [Diagnostic(w.line, w.column, Severity.WARNING, COSTLY_PLAY,
                       costly_message(w, options, notes.get(w.line)))
            for w in weighed if w.weighed and w.costly]
