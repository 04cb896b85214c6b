"""Where a placement goes when its end letter is missing or wrong, and the
words for where a tile fits or lies.

Which ends a tile fits is the engine's (the layout table over
:mod:`muggins_cli.engine.keys`); what is decided here is which end the
record meant, and how the finding says so.
"""

from __future__ import annotations

import bisect

from muggins_cli.engine import keys
from muggins_cli.notation.model import BodyLine, Placement, RoundLine, Turn
from muggins_cli.replay.state import MatchState, Round
from muggins_cli.tiles import End, Tile

#: How many body lines after a placement without its end letter are read to
#: find the end the record needs (a round rarely holds more turns).
LOOK_AHEAD = 64


def where(m: MatchState, rnd: Round, tile: Tile) -> str:
    """The open ends ``tile`` fits, with the pip each shows: ``L (3), R (5)``."""
    ends = m.table.ends(rnd.key)
    return ", ".join(f"{e.value} ({ends[e]})" for e in m.table.ends_for(rnd.key, tile))


def whereabouts(m: MatchState, rnd: Round, tile: Tile) -> str:
    """Where a tile the mover does not hold is, as far as the record says."""
    if any(t == tile for t, _, _ in rnd.laid):
        return " (it is already on the table)"
    bit = 1 << tile.index()
    for i, h in enumerate(rnd.hands):
        if h.bits & bit:
            return f" ({m.players[i]} holds it)"
    if rnd.stock_pool is not None and rnd.stock_pool & bit:
        return " (it is in the stock)"
    return ""


def choose_end(m: MatchState, rnd: Round, p: Placement, tile: Tile) -> End | None:
    """The end of a placement whose end letter is missing or does not fit,
    with the finding that says so; None when it fits no end."""
    table = m.table
    ends = table.ends(rnd.key)
    fitting_ends = table.ends_for(rnd.key, tile)
    shown = ", ".join(f"{e.value}={v}" for e, v in ends.items())
    if p.end is not None:
        if p.end not in ends:
            why = ("there is no spinner" if keys.kind_of(rnd.key) != keys.SPINNER else
                   "the spinner's U and D open once L and R hold a tile")
            if p.end.value in "LR":
                why = "that end is not open"
            m.report.error(p.line, p.column, "bad-end",
                           f"end {p.end.value} is not open ({why}); open ends: {shown}")
        elif p.end in fitting_ends:
            return p.end
        else:
            m.report.error(p.line, p.column, "does-not-fit",
                           f"{p.tile} does not fit {p.end.value}, which shows {ends[p.end]}; "
                           f"open ends: {shown}")
        return fitting_ends[0] if fitting_ends else None
    if not fitting_ends:
        m.report.error(p.line, p.column, "does-not-fit", f"{p.tile} fits no open end ({shown})")
        return None
    if len(fitting_ends) == 1:
        return fitting_ends[0]
    end, needed_on = _end_needed(m, rnd, p.line, tile, fitting_ends)
    fits = f"{p.tile} fits " + " and ".join(e.value for e in fitting_ends)
    if needed_on is not None:
        m.report.error(p.line, p.column, "ambiguous-end",
                       f"{fits}; taken as {end.value}, which the play on line "
                       f"{needed_on} needs; write the end: {p.tile}{end.value}")
    else:
        m.report.error(p.line, p.column, "ambiguous-end",
                       f"{fits}; taken as {end.value}, as nothing later tells which; "
                       f"write the end, e.g. {p.tile}{end.value}")
    return end


def _line_of(item: BodyLine) -> int:
    return item.line


def _end_needed(m: MatchState, rnd: Round, line: int, tile: Tile, ends: list[End]
                ) -> tuple[End, int | None]:
    """Of the ``ends`` that ``tile``, laid on ``line`` without an end
    letter, fits: the one after which the round's next placements still
    fit, and the line of the placement that told; else the first end
    still possible, and None. Taking the first end blindly made every
    later play on the other one an error that the one missing letter
    caused. Follows the placements as written, on the layout table
    alone, until one choice is left, a play fits no choice (an error
    either way), one is itself ambiguous, or the round ends."""
    table = m.table
    live = {e: key for e, key, _ in table.moves(rnd.key, tile.index()) if e in ends}
    body = m.match.body
    start = bisect.bisect_right(body, line, key=_line_of)
    for item in body[start:start + LOOK_AHEAD]:
        if isinstance(item, RoundLine):
            break
        if item.__class__ is not Turn:
            continue
        assert isinstance(item, Turn)
        spelling = item.spelling
        later = spelling.tile
        if later is None:
            continue  # a pass tells nothing of the layout
        if later.hi > m.rules.max_pip:
            break
        follow: dict[End, int] = {}
        for e, key in live.items():
            moves = [mv for mv in table.moves(key, spelling.index)
                     if spelling.end is None or mv[0] is spelling.end]
            if len(moves) > 1:
                return next(iter(live)), None
            if moves:
                follow[e] = moves[0][1]
        if not follow:
            break
        live = follow
        if len(live) == 1:
            return next(iter(live)), item.line
    return next(iter(live)), None
