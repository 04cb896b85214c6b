"""``muggins solve``'s answer as text or as a JSON document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from muggins_cli.analysis.weigh import value_error
from muggins_cli.engine.state import Draw, Place, RoundState, UnseenDraw, apply, placement_score
from muggins_cli.replay.position import Position
from muggins_cli.report.escape import for_terminal
from muggins_cli.rules.model import MatchEnd
from muggins_cli.solver.common import Stopped

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
        steps.append(str(m) if isinstance(m, Draw) else str(m) + (f" +{pts}" if pts else ""))
        if not isinstance(m, Draw):
            lines.append(f"{pos.players[seat]}: {' '.join(steps)}")
            steps = []
        if nxt is None or nxt.over:
            break
        s = nxt
        seat = nxt.to_move
    if steps:
        lines.append(f"{pos.players[seat]}: {' '.join(steps)}")
    return lines


def _value(v: float | None) -> str:
    if v is None:
        return "?"
    if float(v).is_integer():
        return f"{int(v):+d}"
    return f"{v:+.2f}"


def _sampled(res: SolveResult, mv: MoveValue) -> str:
    """A sampled value's standard error and how many deals it averages
    (for an exact average over every deal, no error)."""
    if not mv.deals:
        return ""
    n = len(mv.deals)
    if res.exact:
        return f" ({n} deal{'s' if n != 1 else ''}: every one)"
    se = value_error(res, mv.move)
    err = f" ± {se:.2f}" if se is not None else ""
    return f"{err} ({n} deal{'s' if n != 1 else ''})"


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
    if res.objective.value == "match" and rules.match_end is MatchEnd.ROUND_END:
        meaning += (", +/-100000 for winning the match at this round's end (the highest "
                    "total, alone, at or above the target)")
    elif res.objective.value == "match":
        meaning += ", +/-100000 for reaching the target first"
    how = {"perfect": "exact search", "expect": res.method, "sample": res.method}[res.mode.value]
    out = [f"position {where}: {mover} to move; mode {res.mode.value} ({how}"
           + (f", {res.samples} sample{'s' if res.samples != 1 else ''}" if res.samples else "")
           + ")",
           f"value: {meaning}"]
    width = max((len(str(m.move)) for m in res.moves), default=4)
    for mv in res.moves:
        mark = "  best" if res.best is not None and mv.move == res.best else ""
        out.append(f"  {mv.move!s:<{width}}  {_value(mv.value):>8}{_sampled(res, mv)}{mark}")
    if any(value_error(res, m.move) is not None for m in res.moves):
        out.append("  (± one standard error over the deals)")
    if res.best is not None:
        best = next(m for m in res.moves if m.move == res.best)
        out.append(f"best: {res.best} ({_value(best.value)}{_sampled(res, best)})")
        lines = pv_lines(pos, state, best.pv)
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
    """One JSON document: position, to_move, mode, exact, moves [{move,
    value, error, pv}] (``error`` the standard error of a sampled value,
    null when exact), best, value, nodes, seconds."""
    return {
        "position": where,
        "to_move": pos.players[pos.to_move],
        "mode": res.mode.value,
        "exact": res.exact,
        "moves": [
            {"move": str(m.move), "value": m.value, "error": value_error(res, m.move),
             "pv": pv_lines(pos, state, m.pv), **({"deals": len(m.deals)} if m.deals else {})}
            for m in res.moves
        ],
        "best": str(res.best) if res.best is not None else None,
        "value": res.value,
        "nodes": res.nodes,
        "seconds": round(res.seconds, 4),
    }
