"""How the replay reads a placement it cannot take as written, and a claim
above the score: the tile and end the rest of the record supports
(:mod:`.readings` says how a reading is chosen)."""

from __future__ import annotations

from muggins_cli.engine.keys import EMPTY as EMPTY_KEY
from muggins_cli.engine.layout import Layout
from muggins_cli.engine.turn import PLACE_NOT_DRAWN, PLACE_NOT_HELD, PLACE_OFF_SET
from muggins_cli.notation.model import Draw, Placement, Severity, TileTok, Turn
from muggins_cli.replay.ends import choose_end
from muggins_cli.replay.faults import claim_mismatch, place_faults
from muggins_cli.replay.readings import (
    STRAY,
    Reading,
    fits,
    found_as_written,
    one_half_off,
    said,
    spent,
    unseen,
    weigh,
)
from muggins_cli.replay.state import HandView, Round
from muggins_cli.replay.trials import Trials
from muggins_cli.tiles import End, Tile, tiles_of


def placement(m: Trials, rnd: Round, t: Turn, seat: int, hand: HandView,
              drawn: Tile | None, faults: int, before: Layout) -> None:
    """A tile the player cannot place as written (not theirs, not the tile
    they drew and must place, or not at the end named): read as one of
    :func:`_tile_readings`, as written where only the rules were broken
    (a tile of theirs placed instead of the fitting one drawn), or else
    the turn set aside."""
    spelling = t.spelling
    tile = spelling.tile
    assert tile is not None
    found = found_as_written(m, lambda s: _as_written(s, t, faults, drawn))
    errors = [d for d in found if d.severity is not Severity.INFO]
    start = len(spelling.drawn)
    readings = [] if spent(m) or rnd.doubt else _tile_readings(m, rnd, t, hand, drawn, faults)
    options = [Reading(lambda s, turn=turn: _play_read(s, seat, turn, start, drawn, before),  # type: ignore[misc]
                      hint) for turn, hint in readings]
    if faults & _NOT_THIS_TILE == PLACE_NOT_DRAWN and hand.bits & 1 << tile.index() \
            and (rnd.key == EMPTY_KEY or fits(m, rnd.key, tile, spelling.end)):
        options.append(Reading(lambda s: _play_read(s, seat, t, start, drawn, before), None,
                              own=len(errors)))
    aside = Reading(lambda s: _set_aside(s, seat), "the turn is set aside, as no reading of it "
                   "fits the hands and the table")
    options.append(aside)
    # After a turn set aside, what cannot go down may be its doing: set
    # aside in turn, without a reading of its own.
    chosen = aside if rnd.doubt else weigh(m, options, aside)
    if chosen.hint is not None and chosen.cost > STRAY:
        chosen = aside  # no reading makes sense of the rest of the round
    if chosen.hint is None:
        chosen.play(m)  # as written: the rules broken, reported as always
        return
    # The notes of the line as written, but a reading notes what it cannot
    # check of its own tile (one note of a kind a round).
    for d in found:
        if d.severity is Severity.INFO and (chosen is aside or d.code != "unverified"):
            m.report.emit(d)
    if errors:
        said(m, errors[0], chosen.hint)
    if chosen is aside and not rnd.doubt:
        rnd.doubt_from(t.line)
        m.report.since = t.line
        m.loose = True
    chosen.play(m)


def _tile_readings(m: Trials, rnd: Round, t: Turn, hand: HandView, drawn: Tile | None,
                   faults: int) -> list[tuple[Turn, str]]:
    """The readings of a placement that cannot go down as written, nearest
    first, each with its words: the tile drawn and placed, its draws
    written without their ``d``, when the stock shows it next; the same
    tile at another end; the tile just drawn, which must go down; a tile
    of the player's one digit away; any tile of theirs (the rest of the
    round then says which)."""
    spelling = t.spelling
    tile, end, key, table = spelling.tile, spelling.end, rnd.key, m.table
    assert tile is not None
    out: list[tuple[Turn, str]] = []
    seen: set[tuple[Tile, End | None]] = set()

    def read(other: Tile, hint: str, draws: list[Tile] | None = None) -> None:
        """``other`` at the end written, else at each end it fits."""
        if key == EMPTY_KEY or fits(m, key, other, end):
            ends: list[End | None] = [end]
        else:
            ends = list(table.ends_for(key, other))
        for e in ends:
            if (other, e) not in seen:
                seen.add((other, e))
                turn = _rewritten(t, draws or [], other, e)
                action = turn.action
                assert isinstance(action, Placement)
                shown = f"{action.tile}{e.value if e is not None and e is not end else ''}"
                out.append((turn, hint.format(shown)))

    bit = 1 << tile.index()
    held = hand.bits & bit
    # A hand the record hides may hold it, if its place is not certain
    # elsewhere: another hand, the table, or the stock a `stock` line
    # lists when the hands are hidden.
    mine = held or (hand.unknown and not rnd.seen & bit
                     and not any(h.bits & bit for h in rnd.hands))
    if not mine and drawn is None and key != EMPTY_KEY and fits(m, key, tile, end):
        draws = _drawn_first(rnd, tile)
        if draws:
            where = (f"{tile} is the next tile the draws show" if len(draws) == 1 else
                     f"{tile} comes out of the stock after {' '.join(map(str, draws[:-1]))}")
            read(tile, f"{where}: write {' '.join(f'd{d}' for d in draws)} before it", draws)
    if mine and key != EMPTY_KEY and not faults & _NOT_THIS_TILE:
        for e in table.ends_for(key, tile):
            if e is not end and (tile, e) not in seen:
                seen.add((tile, e))
                out.append((_rewritten(t, [], tile, e), f"read as {spelling_of(t)}{e.value}"))
    if drawn is not None and drawn != tile:
        read(drawn, "read as {}, the tile drawn, which must go down")
    for other in _digit_away(m, rnd, hand, tile):
        read(other, "did you mean {}?")
    for other in tiles_of(hand.bits & table.all_mask):
        read(other, "read as {}, the tile of theirs the rest of the round bears out")
    return out


def _digit_away(m: Trials, rnd: Round, hand: HandView, tile: Tile) -> list[Tile]:
    """The tiles ``tile`` may be with one digit written wrong that ``hand``
    may hold: its own, and, while it is not all known, those no other hand
    holds and the table does not show."""
    near = (hand.bits & m.table.all_mask) | (unseen(m, rnd) if hand.unknown else 0)
    return [other for other in tiles_of(near) if one_half_off(other, tile)]


def reads_a_digit_away(m: Trials, rnd: Round, hand: HandView, tile: Tile) -> bool:
    """Whether, were ``tile`` not known to be in ``hand``, a placement of it
    could be read as a tile one digit away that goes down on the table:
    what doubting a tile the play gives a hand may gain, where the round
    reads no better for the doubt."""
    doubted = HandView(hand.bits & ~(1 << tile.index()), hand.unknown + 1)
    key = rnd.key
    return any(key == EMPTY_KEY or m.table.ends_for(key, other)
               for other in _digit_away(m, rnd, doubted, tile))


def spelling_of(t: Turn) -> str:
    """The tile a turn placed, as written (``5-0``, not ``0-5``)."""
    action = t.action
    assert isinstance(action, Placement)
    return str(action.tile)


def _drawn_first(rnd: Round, tile: Tile) -> list[Tile]:
    """The draws that bring ``tile`` out of a stock of known order (it
    last), within what may still be drawn; empty when they cannot."""
    if rnd.stock is None:
        return []
    stock = rnd.stock[:rnd.can_draw]
    return stock[:stock.index(tile) + 1] if tile in stock else []


def _rewritten(t: Turn, extra: list[Tile], tile: Tile, end: End | None) -> Turn:
    """``t`` with draws of ``extra`` after its own and ``tile`` placed at
    ``end``; the tile keeps the half written first where it has it."""
    draws, action, claim = t.draws, t.action, t.claim
    assert isinstance(action, Placement)
    line, column = t.line, action.column
    steps = draws + tuple(Draw(TileTok(d.lo, d.hi, line, column), line, column)
                          for d in extra)
    written = action.tile
    first = written.a if written.a in (tile.lo, tile.hi) else tile.other(written.b) \
        if written.b in (tile.lo, tile.hi) else tile.lo
    tok = TileTok(first, tile.other(first), line, column)
    return Turn.of(t.player, steps, Placement(tok, end, action.glyph, line, column), claim,
                   line, t.column, t.notes, t.comments)


def _play_read(s: Trials, seat: int, turn: Turn, start: int, drawn: Tile | None,
               before: Layout) -> None:
    rnd = s.round
    assert rnd is not None
    hand = rnd.hands[seat]
    if len(turn.spelling.drawn) > start:
        drawn = s.draws(rnd, turn, seat, hand, start, drawn)
    s.place(rnd, turn, seat, hand, drawn, before, read=True)


def _set_aside(s: Trials, seat: int) -> None:
    """The turn read as nothing the table shows: the next player moves."""
    rnd = s.round
    assert rnd is not None
    rnd.move_on(seat)


def _as_written(s: Trials, t: Turn, faults: int, drawn: Tile | None) -> None:
    """The findings a placement gets as written (on a shadow)."""
    rnd = s.round
    assert rnd is not None
    spelling = t.spelling
    tile = spelling.tile
    assert tile is not None
    if faults and not place_faults(s, rnd, t, faults, drawn):
        return
    if rnd.key != EMPTY_KEY and not fits(s, rnd.key, tile, spelling.end):
        p = t.action
        assert isinstance(p, Placement)
        choose_end(s, rnd, p, tile)


#: Faults that say the tile itself cannot go down (besides its end).
_NOT_THIS_TILE = PLACE_OFF_SET | PLACE_NOT_HELD | PLACE_NOT_DRAWN


# -- claims ----------------------------------------------------------------------


def claim(m: Trials, rnd: Round, t: Turn, seat: int, points: int, credit: int) -> int:
    """A claim above the score, under rules with a muggins call: as the rules
    have it, it credits nothing; where the totals after it show the score
    (or a claim a digit away) credited, it was that claim written wrong.
    Reported either way; what the placement credits."""
    written = t.spelling.points
    assert written is not None
    options = [Reading(lambda s: s.credited(_round(s), t, seat, points, credit), None)]
    meant = {points} | {c for c in _one_digit_off(written) if c <= points}
    for c in sorted(meant, reverse=True):
        options.append(Reading(lambda s, c=c: s.credited(_round(s), t, seat, points, c),  # type: ignore[misc]
                              f"read as +{c}, which the totals after it bear out"))
    chosen = weigh(m, options)
    claim_mismatch(m, rnd, t, points, chosen.hint)
    return credit if chosen is options[0] else sorted(meant, reverse=True)[
        options.index(chosen) - 1]


def _round(s: Trials) -> Round:
    assert s.round is not None
    return s.round


def _one_digit_off(n: int) -> set[int]:
    """The numbers ``n`` is with one digit written wrong."""
    text = str(n)
    return {int(text[:i] + d + text[i + 1:]) for i in range(len(text))
            for d in "0123456789" if d != text[i]}
