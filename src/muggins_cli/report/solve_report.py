"""``muggins solve``'s answer as text or as a JSON document."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from muggins_cli.analysis.race import value_error
from muggins_cli.engine.state import (
    KnownDraw,
    Place,
    RoundState,
    UnseenDraw,
    apply,
    placement_score,
)
from muggins_cli.replay.position import Position
from muggins_cli.report.escape import for_terminal
from muggins_cli.rules.model import MatchEnd
from muggins_cli.solver.common import MATCH_WIN, Stopped

if TYPE_CHECKING:  # the solver (Numba) is there when there is an answer to write
    from muggins_cli.solver import MoveValue, SolveResult, SolverMove

_STOPPED = {Stopped.INTERRUPT: " (interrupted: best answer so far)",
            Stopped.TIME: " (time budget reached)", Stopped.NODES: " (node budget reached)"}


def pv_lines(pos: Position, state: RoundState | None, pv: Sequence[SolverMove]) -> list[str]:
    """A principal variation as MGN turn lines: draws as ``dT`` (``d??``
    when nobody knows the tile yet), ``+N`` after a scoring placement. In
    ``sample`` (no ``state``) only the mover's own first placement is shown
    with its points, which are public."""
    rules = pos.rules
    lines: list[str] = []
    steps: list[str] = []
    seat = pos.to_move
    s = state
    for m in pv:
        if isinstance(m, UnseenDraw):
            steps.append(str(m))
            break
        if s is not None:
            nxt, pts = apply(rules, s, m)
        else:
            nxt = None
            pts = placement_score(rules, pos.layout, m) if isinstance(m, Place) else 0
        steps.append(str(m) if isinstance(m, KnownDraw) else str(m) + (f" +{pts}" if pts else ""))
        if not isinstance(m, KnownDraw):
            lines.append(f"{pos.players[seat]}: {' '.join(steps)}")
            steps = []
        if nxt is None or nxt.over:
            break
        s = nxt
        seat = nxt.to_move
    if steps:
        lines.append(f"{pos.players[seat]}: {' '.join(steps)}")
    return lines


class _Outcomes:
    """What the match objective's values say: the ``MATCH_WIN`` bonus taken
    off each value (or each deal's), so that the points are written as
    points and the match as words, "wins the match (+5)"."""

    def __init__(self, res: SolveResult, players: int) -> None:
        self.on = res.objective.value == "match"
        maxn = "max-n" in res.method or any(m.results is not None for m in res.moves)
        # The mover's value when another player reaches the target: minus
        # the bonus for two players and under max-n, and for the paranoid
        # side (the others' average) minus the bonus over n - 1.
        self.loss = MATCH_WIN if players == 2 or maxn else MATCH_WIN / (players - 1)

    def split(self, v: float) -> tuple[int, float]:
        """1 when ``v`` is a won match, -1 a lost one, else 0; and its points."""
        if not self.on:
            return 0, v
        if v >= MATCH_WIN / 2:
            return 1, v - MATCH_WIN
        if v <= -self.loss / 2:
            return -1, v + self.loss
        return 0, v

    def of(self, mv: MoveValue) -> tuple[int, int, int]:
        """Of ``mv``'s deals (or its one value), how many win the match,
        how many lose it, and how many were looked at."""
        values = mv.deals or ((mv.value,) if mv.value is not None else ())
        found = [self.split(v)[0] for v in values]
        return found.count(1), found.count(-1), len(found)

    def points(self, mv: MoveValue) -> float | None:
        """``mv``'s value in points, the match's bonus taken off (from each
        deal, for an average)."""
        if mv.value is None or not self.on:
            return mv.value
        if not mv.deals:
            return self.split(mv.value)[1]
        return statistics.fmean(self.split(v)[1] for v in mv.deals)


class _Column:
    """The values of one answer written with one rounding: whole numbers
    when every one is whole, else each with one decimal, as the analysis
    writes points (solve wrote -21.50 beside -22)."""

    def __init__(self, values: Sequence[float | None]) -> None:
        self.whole = all(v is None or float(v).is_integer() for v in values)

    def __call__(self, v: float | None) -> str:
        if v is None:
            return "?"
        return f"{v:+.0f}" if self.whole else f"{v:+.1f}"


def _sampled(res: SolveResult, mv: MoveValue, match: _Outcomes) -> str:
    """A sampled value's standard error and how many deals it averages
    (for an exact average over every deal, no error); under the match
    objective the error of its points, the match's bonus taken off."""
    if not mv.deals:
        return ""
    n = len(mv.deals)
    if res.exact:
        return f" ({n} deal{'s' if n != 1 else ''}: every one)"
    se = value_error(res, mv.move)
    if match.on and n > 1:
        se = statistics.stdev(match.split(v)[1] for v in mv.deals) / math.sqrt(n)
    err = f" ± {se:.1f}" if se is not None else ""
    return f"{err} ({n} deal{'s' if n != 1 else ''})"


def _worth(res: SolveResult, mv: MoveValue, column: _Column,
           match: _Outcomes) -> tuple[str, str]:
    """A move's value as the text writes it: its points (with their error
    and deals when sampled), and under the match objective whether it wins
    or loses the match, in words ("" when neither)."""
    shown = column(match.points(mv)) + _sampled(res, mv, match)
    won, lost, n = match.of(mv)
    if not (won or lost):
        return shown, ""
    if n == 1 or won == n or lost == n:
        word = "wins the match" if won else "loses the match"
        return shown, word + ("" if n == 1 else " in every deal")
    if won and lost:
        return shown, f"wins the match in {won} of {n} deals, loses it in {lost}"
    return shown, f"{'wins' if won else 'loses'} the match in {won or lost} of {n} deals"


def turn_text(pos: Position, state: RoundState | None, mv: MoveValue) -> str:
    """A move as the mover's whole turn: a draw whose tile is known (all
    hands seen) goes on with what the mover does after it (``d0-3 0-3R``),
    as the principal variation writes that turn; anything else as it is."""
    if not isinstance(mv.move, KnownDraw):
        return str(mv.move)
    lines = pv_lines(pos, state, mv.pv)
    first = lines[0].split(": ", 1)[1] if lines else str(mv.move)
    return re.sub(r" \+[0-9]+$", "", first)  # the score is the value's business


def solve_text(pos: Position, where: str, res: SolveResult, state: RoundState | None
               ) -> list[str]:
    """The moves and their values, the best and its principal variation."""
    rules = pos.rules
    mover = pos.players[pos.to_move]
    others = [p for i, p in enumerate(pos.players) if i != pos.to_move]
    if len(pos.players) == 2:
        meaning = f"{mover}'s points minus {others[0]}'s to the end of the round"
    elif "max-n" in res.method or any(m.results is not None for m in res.moves):
        meaning = f"{mover}'s own points to the end of the round (max-n)"
    else:
        meaning = (f"{mover}'s points minus the opponents' average to the end of the round "
                   "(paranoid: the others play as one side)")
    match = _Outcomes(res, len(pos.players))
    decided = any(sum(match.of(m)[:2]) for m in res.moves)
    if decided and rules.match_end is MatchEnd.ROUND_END:
        meaning += ("; first, whether the play wins the match at this round's end (the "
                    "highest total, alone, at or above the target)")
    elif decided:
        meaning += "; first, whether the play wins the match (reaches the target first)"
    how = {"perfect": "exact search", "expect": res.method, "sample": res.method}[res.mode.value]
    out = [f"position {where}: {mover} to move; mode {res.mode.value} ({how}"
           + (f", {res.samples} sample{'s' if res.samples != 1 else ''}" if res.samples else "")
           + ")",
           f"value: {meaning}"]
    column = _Column([match.points(m) for m in res.moves])
    names = [turn_text(pos, state, m) for m in res.moves]
    width = max((len(n) for n in names), default=4)
    worths = [_worth(res, m, column, match) for m in res.moves]
    room = max((len(shown) for shown, _ in worths), default=8)
    for name, mv, (shown, words) in zip(names, res.moves, worths):
        mark = "  best" if res.best is not None and mv.move == res.best else ""
        out.append(f"  {name:<{width}}  {shown:>{max(room, 8)}}"
                   + (f"  {words}" if words else "") + mark)
    if any(value_error(res, m.move) is not None for m in res.moves):
        out.append("  (± one standard error over the deals)")
    if res.best is not None:
        k = next(i for i, m in enumerate(res.moves) if m.move == res.best)
        shown, words = worths[k]
        out.append(f"best: {names[k]} ({shown}" + (f", {words}" if words else "") + ")")
        lines = pv_lines(pos, state, res.moves[k].pv)
        if len(lines) > 1 or res.mode.value != "sample":
            where = (" (in one sampled deal: the others' tiles dealt at random)"
                     if res.mode.value == "sample" else "")
            out.append(f"principal variation{where}:")
            out.extend(f"  {line}" for line in lines)
    stop = _STOPPED.get(res.stopped, "") if res.stopped is not None else ""
    out.append(f"exact: {'yes' if res.exact else 'no'}{stop}; nodes {res.nodes:,}; "
               f"{res.seconds:.2f} s")
    out.extend(f"note: {n}" for n in res.notes)
    return [for_terminal(line) for line in out]  # the names are a stranger's text


def solve_json(pos: Position, where: str, res: SolveResult, state: RoundState | None
               ) -> dict[str, Any]:
    """One JSON document: position, to_move, mode, objective, exact, moves
    [{move, value, error, pv}] (``error`` the standard error of a sampled
    value, null when exact; under the match objective ``match``: the deals
    that win and lose the match, of how many, and the value in points
    without the match's bonus, what the text writes), ``sampled_line``
    (whether the lines are played in one sampled deal of the unseen tiles,
    as the text says above them), best, value, nodes, seconds."""
    match = _Outcomes(res, len(pos.players))

    def outcome(m: MoveValue) -> dict[str, Any]:
        if not match.on:
            return {}
        wins, losses, n = match.of(m)
        return {"match": {"wins": wins, "losses": losses, "of": n, "points": match.points(m)}}

    return {
        "position": where,
        "to_move": pos.players[pos.to_move],
        "mode": res.mode.value,
        "objective": res.objective.value,
        "exact": res.exact,
        "moves": [
            {"move": str(m.move), "value": m.value, "error": value_error(res, m.move),
             "pv": pv_lines(pos, state, m.pv), **({"deals": len(m.deals)} if m.deals else {}),
             **outcome(m)}
            for m in res.moves
        ],
        "sampled_line": res.mode.value == "sample" and any(len(m.pv) > 1 for m in res.moves),
        "best": str(res.best) if res.best is not None else None,
        "value": res.value,
        "nodes": res.nodes,
        "seconds": round(res.seconds, 4),
    }
