"""``muggins replay``: a recorded match, position by position, on the terminal."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from muggins_cli.check import record_resolver
from muggins_cli.cli.app import app
from muggins_cli.cli.files import Output
from muggins_cli.cli.options import MatchOption, check_output, note
from muggins_cli.errors import InputError
from muggins_cli.notation.model import BodyLine, Match, MugginsCall, Severity, Turn
from muggins_cli.notation.reading import read_match
from muggins_cli.notation.writer import format_line
from muggins_cli.replay.position import Position, parse_at
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.values import MatchReplay
from muggins_cli.replay.watch import PositionAt, Positions
from muggins_cli.report.board import (
    after_settlement,
    position_lines,
    position_title,
    round_sheet,
    round_totals,
    tally_sheet,
)
from muggins_cli.report.escape import for_terminal
from muggins_cli.report.svg import board_svg, new_tile, standalone

_NAME = "muggins replay"


@app.command("replay")
def replay(
    path: Annotated[
        str,
        typer.Argument(metavar="FILE", help="A record file, or - for stdin.",
                       show_default=False),
    ],
    *,
    at: Annotated[
        str | None,
        typer.Option("--at", metavar="R.T",
                     help="Show only the position before turn T of round R (2.5: round 2, "
                          "before its 5th turn line; one past the last turn is the round's "
                          "end).", show_default=False),
    ] = None,
    match_number: MatchOption = 1,
    tally: Annotated[
        bool,
        typer.Option("--tally", help="End with the score sheet: a row per round (what it "
                                     "gave each player, and their total after it; not "
                                     "with --at), then the totals in the traditional tally "
                                     "marks (a stroke per 5 points, the X figure for 50) "
                                     "beside the raw scores."),
    ] = False,
    svg: Annotated[
        str | None,
        typer.Option("--svg", metavar="OUT.svg",
                     help="With --at: draw that position as an SVG file instead (the board "
                          "of `muggins study`: tiles with pips, the tile just played "
                          "outlined); - for standard output. An existing file needs --force.",
                     show_default=False),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="With --svg: replace OUT.svg if it exists "
                                           "(atomically).")
    ] = False,
) -> None:
    """Replay a recorded match turn by turn on the terminal.

    Before every turn: the layout (each arm and its open end, doubles drawn
    crosswise, a spinner's four sides), each hand (or how many tiles are
    hidden), the stock, the open-end total and the scores; then the turn as
    written. Each round ends with the hands left and the scores after the
    round-end settlement.

    \b
    Examples:
        muggins replay club.mgn
        muggins replay club.mgn --at 2.5          # one position: round 2, turn 5
        muggins replay club.mgn --match 2 --tally | less
        muggins replay club.mgn --at 2.5 --svg club-2.5.svg

    A record with errors is replayed as far as `muggins check` can follow
    it; the first error is named on standard error.
    """
    check_output(_NAME, svg, force, "--svg")
    try:
        if svg is not None:
            _write_svg(path, at, match_number, svg, force)
            return
        if at is not None:
            parse_at(at)
        lines = _replay_lines(path, at, match_number, tally)
    except InputError as e:
        note(f"{_NAME}: {e}")
        raise typer.Exit(2) from None
    # The record's names, tags and notes are a stranger's text.
    sys.stdout.write("\n".join(for_terminal(line) for line in lines) + "\n")


def _replayed(path: str, number: int, at: str | None
              ) -> tuple[Match, MatchReplay, list[tuple[Position, BodyLine | None]],
                         PositionAt | None]:
    """The match replayed once: its diagnostics (the first error named on
    stderr), every position, and the position ``at`` asked for (which says
    why there is none)."""
    match = read_match(path, number)
    resolve = record_resolver(path)
    seen = Positions()
    wanted = PositionAt(*parse_at(at)) if at is not None else None
    result = replay_match(match, resolve, seen, *([wanted] if wanted is not None else []))
    if result.rules is None:
        first = result.diagnostics[0] if result.diagnostics else None
        why = f": line {first.line}: {first.message}" if first is not None else ""
        raise InputError(f"match {number} of {path} cannot be replayed{why}")
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if errors:
        e = errors[0]
        note(f"{_NAME}: note: the record has {len(errors)} error"
             f"{'' if len(errors) == 1 else 's'}, the first at line "
             f"{e.line}: {e.code} {e.message}")
    return match, result, seen.out, wanted


def _write_svg(path: str, at: str | None, number: int, out: str, force: bool) -> None:
    if at is None:
        raise InputError("--svg draws one position: add --at R.T")
    want = _normal(at)
    _, _, seen, wanted = _replayed(path, number, at)
    for i, (pos, _item) in enumerate(seen):
        if f"{pos.round}.{pos.turn}" != want:
            continue
        before = seen[i - 1] if i and seen[i - 1][0].round == pos.round else None
        last = new_tile(before[0], pos) if before is not None else None
        played = before[1] if before is not None else None
        board = board_svg(pos, last, caption=position_title(pos).strip("= "),
                          scored=format_line(played) if isinstance(played, Turn) else None)
        with Output(out, force=force) as svg:
            svg.write(standalone(board))
            svg.commit()
        return
    assert wanted is not None
    wanted.position()  # raises InputError naming why
    raise InputError(f"the match has no position {at}")


def _replay_lines(path: str, at: str | None, number: int, tally: bool) -> list[str]:
    match, result, seen, wanted = _replayed(path, number, at)
    final = tuple(result.summary.scores[p] for p in result.summary.players)
    rules = result.rules
    assert rules is not None  # _replayed refuses a match without rules
    out = [_header(match, number, result.summary.players, rules.name, result.summary.target)]
    # Where each line is in the body, found once: looking each turn up from
    # the start made a long record's replay take the square of its turns.
    where = {id(item): k for k, item in enumerate(match.body)}
    shown = False
    for i, (pos, item) in enumerate(seen):
        if at is not None and f"{pos.round}.{pos.turn}" != _normal(at):
            continue
        after = after_settlement(seen, i, final) if pos.round_over else None
        out.append("")
        out.extend(position_lines(pos, after))
        out.extend(_next_lines(match, item, where))
        shown = True
        if at is not None:
            if tally:
                out.append("")
                out.extend(tally_sheet(pos.players, after if after is not None else pos.scores))
            return out
    if wanted is not None and not shown:
        wanted.position()  # raises InputError naming why
        raise InputError(f"the match has no position {at}")
    if tally:
        out.append("")
        out.extend(round_sheet(result.summary.players,
                               round_totals(seen, final)))
        out.append("")
        out.extend(tally_sheet(result.summary.players, final))
    return out


def _normal(at: str) -> str:
    r, t = parse_at(at)
    return f"{r}.{t}"


def _header(match: Match, number: int, players: Sequence[str], rules: str,
            target: int | None) -> str:
    event = match.tag("Event")
    title = f"match {number}" + (f", {event}" if event else "")
    return f"{title}: {', '.join(players)} ({rules} rules, target {target})"


def _next_lines(match: Match, item: BodyLine | None, where: dict[int, int]) -> list[str]:
    """The turn that follows a position, as written, with any muggins calls
    on it (``where``: each body line's index, by ``id``)."""
    if not isinstance(item, Turn):
        return []
    out = [f"  played      {_with_notes(item)}"]
    body = match.body
    k = where[id(item)] + 1
    while k < len(body) and isinstance(body[k], MugginsCall):
        out.append(f"  then        {_with_notes(body[k])}")
        k += 1
    return out


def _with_notes(item: BodyLine) -> str:
    line = format_line(item)
    for annotation in item.notes:
        line += " {" + " ".join(annotation.text.split()) + "}"
    return line

