"""A weighed turn as its board's panel on the study page shows it: every
legal play the solver valued, ranked, with its value and error (and, for a
play the race stopped valuing, how far below the leader it was then), the
one played and the best marked, the solver's line after each (saying when
it is played in one sampled deal) and, beside the line of the play made,
how the round really went on. Everything here is the weighing's
(:mod:`muggins_cli.analysis.weigh`) put into words: nothing is placed,
replayed or parsed again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.lines import LineTurn
from muggins_cli.analysis.verdicts import (
    BLUNDER,
    CLOSE,
    MISTAKE,
    UNCERTAIN,
    VERDICT_WORDS,
    WeighOptions,
    points,
    verdict_reason,
)
from muggins_cli.analysis.weigh import Weighed
from muggins_cli.engine.state import Place
from muggins_cli.report.svg import Ghost, Rect, face_id, lay_table, union
from muggins_cli.rules.model import Rules

LINE_TURNS = 6
"""How many turns of the solver's line a candidate shows: enough to see the
plan, few enough to read at a glance."""
MINUS = "\u2212"


def signed_points(x: float) -> str:
    """A value for the mover, signed, with a true minus sign."""
    text = points(abs(x))
    if text in ("0", "0.0"):
        return "0"
    return ("+" if x > 0 else MINUS) + text


def plus_minus(e: float | None) -> str:
    """A standard error as it follows a value (nothing for none or 0)."""
    return f" ± {e:.1f}" if e else ""


@dataclass(frozen=True)
class Step:
    """One turn of a line: who, the tiles they drew, what they laid
    (``face``: the tile as a page draws it, the half that joins first)
    and what it scored."""

    player: str
    seat: int
    draws: tuple[str, ...]
    play: str
    face: str | None
    points: int


@dataclass(frozen=True)
class CandidateView:
    """One legal play of a weighed turn, as its row in the turn's table."""

    key: str
    rank: int
    play: str
    scores: int
    value: str
    spread: str
    """The value with its standard error and deals, or ``exact``."""
    cost: str
    deals: int
    """The deals it was valued in when fewer than the turn's (the race
    stopped valuing it, clearly worse), else 0."""
    played: bool
    best: bool
    ghost: bool
    line: tuple[Step, ...] = ()
    more: int = 0
    dropped: str = ""
    """For a play the race stopped valuing: what was known of it then."""
    below: str = ""
    """The same, short: the least it lay below the leader then."""


@dataclass(frozen=True)
class TurnView:
    """The solver's weighing of the turn that led to a board."""

    player: str
    seat: int
    played: str
    choices: int
    verdict: str
    """``blunder``, ``mistake``, ``uncertain``, ``fine``, ``best``,
    ``forced`` or ``unweighed``: the class the page colours it by."""
    glyph: str | None
    summary: str
    luck: str | None
    how: str
    meaning: str
    candidates: tuple[CandidateView, ...] = ()
    exact: bool = False
    sampled: bool = False
    """Whether the solver's lines are played in one deal of the unseen
    tiles (the mover's view) rather than the recorded one."""
    real: tuple[Step, ...] = ()
    """How the round went on at the table after the turn, as recorded
    (shown beside the solver's line of the play made)."""
    real_more: int = 0


def ghosts(rules: Rules, w: Weighed, extent: Rect) -> tuple[tuple[Ghost, ...], Rect]:
    """Each candidate placement where it would lie instead of the play
    made, keyed by its rank (a draw or a pass lays nothing, and the play
    made is on the table already), and ``extent`` grown to hold them."""
    out = []
    for rank, c in enumerate(w.candidates):
        if c.layout is None or rank == w.rank:
            continue
        table = lay_table(rules, c.layout)
        tile = c.move.tile if isinstance(c.move, Place) else None
        laid = next((t for t in table.tiles if t.tile == tile), None)
        if laid is not None:
            out.append(Ghost(str(rank), laid))
            extent = union(extent, table.extent())
    return tuple(out), extent


def line_steps(turns: Sequence[LineTurn], players: Sequence[str],
               faces: set[tuple[int, int, bool]]) -> tuple[tuple[Step, ...], int]:
    """A line's first :data:`LINE_TURNS` turns as steps, and how many turns
    more it goes on for. A draw of a tile nobody knows yet is ``??``."""
    steps = []
    for t in turns[:LINE_TURNS]:
        face = None
        if t.halves is not None:
            faces.add((*t.halves, False))
            face = face_id(*t.halves, False)
        steps.append(Step(players[t.seat], t.seat,
                          tuple("??" if d is None else str(d) for d in t.draws),
                          t.text, face, t.points))
    more = sum(1 for t in turns[LINE_TURNS:] if t.play is not None)
    return tuple(steps), more


def _candidate(rank: int, w: Weighed, players: Sequence[str],
               faces: set[tuple[int, int, bool]]) -> CandidateView:
    c = w.candidates[rank]
    played = rank == w.rank
    line, more = line_steps(c.turns, players, faces)
    spread = (f"{signed_points(c.value)}{plus_minus(c.value_error)} over {c.deals} deals"
              if c.deals else "exact")
    cost = "" if rank == 0 else (MINUS + points(c.cost) + plus_minus(c.error)
                                 if c.cost else "0")
    deals = c.deals if c.deals < w.samples else 0
    dropped = below = ""
    if c.below is not None and deals:
        below = points(round(c.below, 1))
        dropped = (f"the solver stopped valuing it after {deals} deals, when it lay at least "
                   f"{below} points below the leader")
    return CandidateView(str(rank), rank + 1, c.text, c.points, signed_points(c.value), spread,
                         cost, deals, played, rank == 0, c.layout is not None and not played,
                         line, more, dropped, below)


def _summary(w: Weighed, options: WeighOptions) -> tuple[str, str]:
    """The panel's class and its sentence on the play."""
    if w.choices == 1:
        return "forced", f"{w.player} had one legal move."
    if not w.weighed:
        return "unweighed", f"The solver did not weigh this turn: {w.why}."
    if w.verdict == MISTAKE or w.verdict == BLUNDER:
        return w.verdict, (f"{w.verdict.capitalize()}: {w.played} lost "
                           f"{points(w.cost)}{plus_minus(w.error)} points by the end of the "
                           f"round; {w.best} was best.")
    if not w.cost and w.verdict not in (CLOSE, UNCERTAIN):
        return "best", f"{w.played} was the solver's best play."
    if not w.cost:
        verdict = w.verdict or UNCERTAIN
        return verdict, (f"{w.played} led the solver's plays, but another may be better by up "
                         f"to {points(w.cost_high or 0.0)} points: {VERDICT_WORDS[verdict]} "
                         f"({verdict_reason(verdict, options, w.exact)}).")
    verdict = w.verdict if w.verdict in (CLOSE, UNCERTAIN) else "fine"
    return verdict, (f"{w.played} lost {points(w.cost)}{plus_minus(w.error)} points against "
                     f"{w.best}: {VERDICT_WORDS[verdict]} "
                     f"({verdict_reason(verdict, options, w.exact)}).")


def turn_view(w: Weighed, players: Sequence[str], options: WeighOptions,
              faces: set[tuple[int, int, bool]]) -> TurnView:
    """The weighing of a turn (its draws aside), as the board's section
    shows it; ``faces`` gains the tiles its lines draw."""
    others = [p for i, p in enumerate(players) if i != w.seat]
    if len(others) == 1:
        meaning = f"{w.player}'s points minus {others[0]}'s from here to the end of the round"
    else:
        meaning = (f"{w.player}'s points minus the others' average from here to the end "
                   "of the round")
    if options.perfect:
        how = "every hand and the stock seen, exact"
    else:
        how = f"{w.player}'s view, the unseen tiles dealt {w.samples} times"
    luck = None
    if w.luck is not None:
        luck = (f"{signed_points(w.luck)}{plus_minus(w.luck_error)}: what the draws gave "
                f"{w.player} against the average draw")
    cands = tuple(_candidate(rank, w, players, faces) for rank in range(len(w.candidates)))
    verdict, summary = _summary(w, options)
    return TurnView(w.player, w.seat, w.played, w.choices, verdict, verdict_glyph(w.verdict),
                    summary, luck, how, meaning, cands, w.exact, w.sampled)
