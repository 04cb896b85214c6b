"""Where a placement goes when its end letter is missing or wrong, and the
words for where a tile fits or lies.

Which ends a tile fits is the engine's (the layout table over
:mod:`muggins_cli.engine.keys`); what is decided here is which end the
record meant, and how the finding says so.
"""

from __future__ import annotations

import bisect

from muggins_cli.engine import keys
from muggins_cli.engine import turn as rules_of
from muggins_cli.notation.model import BodyLine, MugginsCall, Placement, RoundLine, Turn
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


def choose_end(m: MatchState, rnd: Round, p: Placement, tile: Tile, claimed: int = -1,
               seat: int = -1) -> End | None:
    """The end of a placement whose end letter is missing or does not fit,
    with the finding that says so; None when it fits no end. ``claimed``
    (-1: none) and ``seat`` are the turn's claim and player, which help
    tell which end a placement without its letter took."""
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
    end, told = _end_needed(m, rnd, p.line, tile, fitting_ends, claimed, seat)
    fits = f"{p.tile} fits " + " and ".join(e.value for e in fitting_ends)
    if told is not None:
        m.report.error(p.line, p.column, "ambiguous-end",
                       f"{fits}; taken as {end.value}, which {told} needs; write the end: "
                       f"{p.tile}{end.value}")
    else:
        m.report.error(p.line, p.column, "ambiguous-end",
                       f"{fits}; taken as {end.value}, as nothing later tells which; "
                       f"write the end, e.g. {p.tile}{end.value}")
    return end


def _line_of(item: BodyLine) -> int:
    return item.line


#: Layouts followed per end still possible, when later plays are themselves
#: ambiguous (each such play may double them).
MOST_LAYOUTS = 32


def _end_needed(m: MatchState, rnd: Round, line: int, tile: Tile, ends: list[End],
                claimed: int, seat: int) -> tuple[End, str | None]:
    """Of the ``ends`` that ``tile``, laid on ``line`` without an end
    letter, fits: the one the record supports, and what told (the words
    of the finding); else the first end still possible, and None. The
    line's own claim tells first (a claim only one end's score allows),
    then a muggins call on the next line (one only one end's unclaimed
    rest allows), then the round's next placements, as written: followed
    on the layout table alone, each end with every layout the plays may
    lead to (a later play without its end letter may go either way), until
    one end is left, a play fits under no end (an error either way), or the
    round ends. Taking the first end blindly made every later play on the
    other one an error that the one missing letter caused."""
    table, r = m.table, m.r
    scored = {e: (key, points) for e, key, points in table.moves(rnd.key, tile.index())
              if e in ends}
    live = list(scored)
    if claimed >= 0:
        fair = [e for e in live if not rules_of.claim_fault(r, claimed, scored[e][1])]
        if len(fair) == 1:
            return fair[0], f"the claim +{claimed}"
        live = fair or live
    body = m.match.body
    start = bisect.bisect_right(body, line, key=_line_of)
    call = body[start] if start < len(body) else None
    if isinstance(call, MugginsCall) and seat >= 0 and call.player in m.seat:
        fair = [e for e in live if rules_of.call_fault(
            r, False, seat, m.seat[call.player],
            scored[e][1] - rules_of.credited(r, claimed, scored[e][1]),
            call.points) == rules_of.CALL_OK]
        if len(fair) == 1:
            return fair[0], f"the muggins call on line {call.line}"
        live = fair or live
    layouts = {e: {scored[e][0]} for e in live}
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
        follow: dict[End, set[int]] = {}
        for e, keys_now in layouts.items():
            after = {key for now in keys_now for end, key, _ in table.moves(now, spelling.index)
                     if spelling.end is None or end is spelling.end}
            if after:
                follow[e] = set(sorted(after)[:MOST_LAYOUTS])
        if not follow:
            break
        layouts = follow
        if len(layouts) == 1:
            return next(iter(layouts)), f"the play on line {item.line}"
    return next(iter(layouts)), None
