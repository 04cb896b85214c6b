"""``muggins solve``: every legal play of a recorded position with its value."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from enum import Enum
from typing import Annotated, Any

import typer

from muggins_cli.check import record_resolver
from muggins_cli.cli.app import app
from muggins_cli.cli.options import (
    Format,
    JsonOption,
    MatchOption,
    QuietOption,
    fail,
    format_option,
    node_cap,
    output_format,
)
from muggins_cli.engine.state import Draw, Place, RoundState, UnseenDraw, apply, placement_score
from muggins_cli.errors import InputError, MugginsError
from muggins_cli.notation.model import Pass as PassStep
from muggins_cli.notation.model import Turn
from muggins_cli.notation.parser import read_match
from muggins_cli.replay.position import Position, parse_at, position_at, positions
from muggins_cli.rules.model import MatchEnd, Rules
from muggins_cli.solver import Knowledge, SolveResult, SolverMove, solve
from muggins_cli.tiles import Tile, full_set

_NAME = "muggins solve"
#: Without --time or --nodes a search stops after this many seconds (a
#: three- or four-player round from its first turn, or an exact expectimax,
#: can run for hours); ``--time 0`` lifts the limit.
DEFAULT_TIME = 20.0


class ModeOpt(str, Enum):
    perfect = "perfect"
    expect = "expect"
    sample = "sample"


class ObjectiveOpt(str, Enum):
    points = "points"
    match = "match"


@app.command("solve")
def solve_cmd(
    path: Annotated[
        str,
        typer.Argument(metavar="FILE", help="A record file, or - for stdin.", show_default=False),
    ],
    *,
    at: Annotated[
        str,
        typer.Option("--at", metavar="R.T",
                     help="The position: before turn T of round R (docs/notation.md 7).",
                     show_default=False),
    ],
    mode: Annotated[
        ModeOpt,
        typer.Option("--mode", metavar="MODE",
                     help="perfect: every hand and the stock order known (exact); "
                          "expect: hands known, each draw uniform over the stock; "
                          "sample: only what the mover could know, deals averaged."),
    ] = ModeOpt.perfect,
    objective: Annotated[
        ObjectiveOpt,
        typer.Option("--objective", metavar="OBJECTIVE",
                     help="points: points to the round's end; match: reaching "
                          "the target first wins, whatever the points."),
    ] = ObjectiveOpt.points,
    time_limit: Annotated[
        float | None,
        typer.Option("--time", metavar="S", min=0.0,
                     help="Stop after S seconds with the best answer so far (default 20 "
                          "unless --nodes is given; 0: no limit). Expect spends half of it "
                          "on the exact search, then samples stock orders.",
                     show_default=False),
    ] = None,
    nodes: Annotated[
        int | None,
        typer.Option("--nodes", metavar="N", min=0,
                     help="Stop after N search nodes (0: no cap, as without --nodes; the "
                          "time limit then still applies).",
                     show_default=False),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the sampled deals and stock orders.")
    ] = 0,
    samples: Annotated[
        int, typer.Option("--samples", min=1, metavar="K",
                          help="Deals (sample) or stock orders (expect, past its budget) to "
                               "average (at least 1).")
    ] = 32,
    match_number: MatchOption = 1,
    fmt: Annotated[
        Format,
        format_option(Format.text, Format.json,
                      help="text: the moves and their values, the best and "
                           "its principal variation; json: one JSON document: position, "
                           "to_move, mode, exact, moves [{move, value, pv}], best, value, "
                           "nodes, seconds."),
    ] = Format.text,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Value every legal play of a position, as a double-dummy solver does.

    Two players: a value is the mover's points minus the opponent's from this
    position to the end of the round, the round-end settlement included and
    every score taken as claimed; a score that reaches the target ends the
    match there. Three or four players: max-n, each player maximising their
    own points to the round's end; among equal own results a player prefers
    the play whose best opponent does worst, then the opponents' results read
    clockwise, smallest first, then the first play in legal order.

    The principal variation is written as MGN turn lines. Ctrl-C prints the
    best answer found so far, and the exit status is then 130. A mode that
    the record cannot support (perfect without the stock order, expect
    without the deals) is refused with exit status 2.

    \b
    Examples:
        muggins solve club.mgn --at 1.5
        muggins solve club.mgn --at 2.1 --mode expect --time 5
        muggins solve club.mgn --at 3.7 --mode sample --samples 64 --json
    """
    fmt = output_format(fmt, as_json)
    try:
        parse_at(at)
        pos, history = _position(path, at, match_number)
        result, state = _run(pos, mode, objective, time_limit, nodes, seed, samples, history)
    except MugginsError as e:
        raise fail(_NAME, str(e)) from None
    except KeyboardInterrupt:
        typer.echo(f"{_NAME}: interrupted", err=True)
        raise typer.Exit(130) from None
    where = f"{pos.round}.{pos.turn}"
    if fmt is Format.json:
        sys.stdout.write(json.dumps(_json(pos, where, result, state), indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(_text(pos, where, result, state)) + "\n")
    sys.stdout.flush()
    if result.interrupted:
        # The search answered Ctrl-C with what it had: printed above, but
        # the run was still stopped, as a shell script must be able to tell.
        if not quiet:
            typer.echo(f"{_NAME}: interrupted", err=True)
        raise typer.Exit(130)


# ----------------------------------------------------------------------


def _position(path: str, at: str, number: int) -> tuple[Position, list[str]]:
    """The position and the turns of the round so far as the mover saw them
    (other players' draws hidden)."""
    match = read_match(path, number)
    resolve = record_resolver(path)
    pos = position_at(match, resolve, at)
    if pos.match_over:
        raise InputError(f"position {pos.round}.{pos.turn}: the match is over")
    if pos.round_over:
        raise InputError(f"position {pos.round}.{pos.turn} is the end of the round: "
                         "nothing is left to play")
    history = [_seen(item, pos.players.index(item.player) == pos.to_move)
               for p, item in positions(match, resolve)
               if p.round == pos.round and isinstance(item, Turn) and p.turn < pos.turn]
    return pos, history


def _seen(item: Turn, own: bool) -> str:
    steps = [f"d{d.tile.tile}" if own and d.tile is not None else "d??" for d in item.draws]
    if isinstance(item.action, PassStep):
        steps.append("pass")
    else:
        a = item.action
        steps.append(f"{a.tile.tile}{a.end.value if a.end is not None else ''}")
    return f"{item.player}: {' '.join(steps)}"


def _run(
    pos: Position, mode: ModeOpt, objective: ObjectiveOpt, time_limit: float | None,
    nodes: int | None, seed: int, samples: int, history: Sequence[str],
) -> tuple[SolveResult, RoundState | None]:
    rules = pos.rules
    nodes = node_cap(nodes)
    if time_limit is None and nodes is None:
        time_limit = DEFAULT_TIME
    elif time_limit == 0:
        time_limit = None
    common: dict[str, Any] = {"objective": objective.value, "node_limit": nodes, "seed": seed,
                              "samples": samples, "time_limit": time_limit}
    where = f"position {pos.round}.{pos.turn}"
    if mode is ModeOpt.perfect:
        if not pos.perfect:
            raise InputError(f"{where}: --mode perfect needs every hand and the stock order, "
                             "which the record does not show (try --mode expect or sample)")
        state = pos.state()
        return solve(rules, state, scores=pos.scores, target=pos.target, mode="perfect",
                     **common), state
    if mode is ModeOpt.expect:
        if any(h is None for h in pos.hands):
            raise InputError(f"{where}: --mode expect needs every hand (deal lines), which the "
                             "record does not show (try --mode sample)")
        state = _open_state(rules, pos)
        return solve(rules, state, scores=pos.scores, target=pos.target, mode="expect",
                     **common), state
    know = dataclasses.replace(Knowledge.from_position(pos), history=tuple(history))
    return solve(rules, know, mode="sample", **common), None


def _open_state(rules: Rules, pos: Position) -> RoundState:
    """Every hand known, the stock's order perhaps not: a state whose stock
    holds the right tiles (in the recorded order when known; ``expect``
    reads only which tiles they are)."""
    hands = tuple(h if h is not None else frozenset() for h in pos.hands)
    if pos.stock is not None:
        stock: tuple[Tile, ...] = pos.stock
    else:
        used = set(pos.layout.tiles()).union(*hands)
        stock = tuple(t for t in full_set(rules.max_pip) if t not in used)
    return RoundState(hands, stock, pos.layout, pos.to_move, pos.drawn,
                      lead_tile=pos.lead_tile)


# ----------------------------------------------------------------------
# Output


def _pv_lines(rules: Rules, pos: Position, state: RoundState | None,
              pv: Sequence[SolverMove]) -> list[str]:
    """A principal variation as MGN turn lines: draws as ``dT`` (``d??``
    when nobody knows the tile yet), ``+N`` after a scoring placement."""
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
        else:  # sample mode: no state, but the mover's own placement scores publicly
            nxt, pts = None, _points(rules, pos, m)
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


def _points(rules: Rules, pos: Position, move: SolverMove) -> int:
    return placement_score(rules, pos.layout, move) if isinstance(move, Place) else 0


def _value(v: float | None) -> str:
    if v is None:
        return "?"
    if float(v).is_integer():
        return f"{int(v):+d}"
    return f"{v:+.2f}"


def _text(pos: Position, where: str, res: SolveResult, state: RoundState | None) -> list[str]:
    rules = pos.rules
    mover = pos.players[pos.to_move]
    others = [p for i, p in enumerate(pos.players) if i != pos.to_move]
    if len(pos.players) == 2:
        meaning = f"{mover}'s points minus {others[0]}'s to the end of the round"
    else:
        meaning = f"{mover}'s own points to the end of the round (max-n)"
    if res.objective.value == "match" and rules.match_end is MatchEnd.ROUND_END:
        meaning += (", +/-100000 for winning the match at this round's end (the highest "
                    "total, alone, at or above the target)")
    elif res.objective.value == "match":
        meaning += ", +/-100000 for reaching the target first"
    how = {"perfect": "exact search", "expect": res.method, "sample": res.method}[res.mode.value]
    out = [f"position {where}: {mover} to move; mode {res.mode.value} ({how}"
           + (f", {res.samples} samples" if res.samples else "") + ")",
           f"value: {meaning}"]
    width = max((len(str(m.move)) for m in res.moves), default=4)
    for mv in res.moves:
        mark = "  best" if res.best is not None and mv.move == res.best else ""
        out.append(f"  {mv.move!s:<{width}}  {_value(mv.value):>8}{mark}")
    if res.best is not None:
        best = next(m for m in res.moves if m.move == res.best)
        out.append(f"best: {res.best} ({_value(best.value)})")
        lines = _pv_lines(rules, pos, state, best.pv)
        if len(lines) > 1 or res.mode.value != "sample":
            out.append("principal variation:")
            out.extend(f"  {line}" for line in lines)
    stop = ""
    if res.stopped is not None:
        stop = {"interrupt": " (interrupted: best answer so far)",
                "time": " (time budget reached)", "nodes": " (node budget reached)"}.get(
            res.stopped, "")
    out.append(f"exact: {'yes' if res.exact else 'no'}{stop}; nodes {res.nodes:,}; "
               f"{res.seconds:.2f} s")
    out.extend(f"note: {n}" for n in res.notes)
    return out


def _json(pos: Position, where: str, res: SolveResult,
          state: RoundState | None) -> dict[str, Any]:
    rules = pos.rules
    return {
        "position": where,
        "to_move": pos.players[pos.to_move],
        "mode": res.mode.value,
        "exact": res.exact,
        "moves": [
            {"move": str(m.move), "value": m.value,
             "pv": _pv_lines(rules, pos, state, m.pv)}
            for m in res.moves
        ],
        "best": str(res.best) if res.best is not None else None,
        "value": res.value,
        "nodes": res.nodes,
        "seconds": round(res.seconds, 4),
    }


__all__ = ["solve_cmd"]
