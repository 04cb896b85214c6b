"""What the engine's answers about a turn mean, in words: the findings of
a draw, a pass, a placement or a claim that the rules of
:mod:`muggins_cli.engine.turn` do not allow.

The tracker asks the engine and calls these only when it answered with a
fault, so a turn's tokens (:attr:`Turn.draws`, :attr:`Turn.action`,
:attr:`Turn.claim`) are made only for a message.
"""

from __future__ import annotations

from muggins_cli.engine import turn as rules_of
from muggins_cli.engine.layout import fitting
from muggins_cli.notation.model import Placement, Turn
from muggins_cli.replay.ends import where, whereabouts
from muggins_cli.replay.readings import one_half_off
from muggins_cli.replay.state import HandView, MatchState, Round
from muggins_cli.tiles import Tile


def draw_faults(m: MatchState, rnd: Round, t: Turn, i: int, hand: HandView, faults: int,
                drawn: Tile | None) -> None:
    """Report what :func:`~muggins_cli.engine.turn.draw_faults` found
    for the ``i``-th draw of ``t`` (its token made only for a message)."""
    name = t.player
    if faults & rules_of.DRAW_ON_EMPTY_TABLE:
        d = t.draws[i]
        m.report.error(d.line, d.column, "illegal-draw",
                       f"{name} drew on the round's first turn; any tile may open")
    elif faults & rules_of.DRAW_AFTER_FIT:
        assert drawn is not None
        d = t.draws[i]
        m.report.error(d.line, d.column, "illegal-draw",
                       f"{name} drew again after drawing {drawn}, which fits "
                       + where(m, rnd, drawn))
    elif faults & rules_of.DRAW_HOLDING_FIT:
        fit = fitting(m.table, rnd.key, hand.bits)[0]
        tile, d = t.spelling.drawn[i], t.draws[i]
        m.report.error(d.line, d.column, "illegal-draw",
                       f"{name} drew{' ' + str(tile) if tile else ''} while holding "
                       f"{fit}, which fits {where(m, rnd, fit)}")
    elif faults & rules_of.DRAW_MAYBE_FIT and "draw" not in rnd.unverified:
        d = t.draws[i]
        m.report.unverified(rnd, d.line, d.column, "draw",
                            f"round {rnd.number}: hands are not in the record, so "
                            "whether a player could play instead of drawing is not "
                            f"checked (first: {name} here)")
    if faults & rules_of.DRAW_EMPTY_STOCK:
        d = t.draws[i]
        m.report.error(d.line, d.column, "illegal-draw",
                       f"{name} drew from an empty stock")


def drawn_from_stock(m: MatchState, rnd: Round, t: Turn, i: int, tile: Tile | None
                     ) -> Tile | None:
    """The ``i``-th drawn tile of ``t`` as what is known of the stock has
    it (the next of a stock of known order where the record hides it, or
    has a digit of it wrong); an illegal draw is reported and taken as
    done."""
    stock = rnd.stock
    if stock:
        nxt = stock[0]
        if tile is None or tile is nxt:
            return nxt
        if tile != nxt:
            what = ("is not in the stock" if tile not in stock
                    else f"is not the next tile of the stock ({nxt} is)")
            d = t.draws[i]
            if one_half_off(tile, nxt) and _in_step(t, i, stock) \
                    and (not _known_elsewhere(rnd, tile) or _borne_out(t, i, nxt)):
                # A digit written wrong, as a reader takes it: the next
                # tile, so the draws after it stay in step. A tile on the
                # table or in a hand cannot be drawn, but nor can a draw
                # written where none was made: the rest of the turn tells
                # the two apart.
                m.report.error(d.line, d.column, "illegal-draw",
                               f"{t.player} drew {tile}, which {what}; read as {nxt}")
                return nxt
            m.report.error(d.line, d.column, "illegal-draw",
                           f"{t.player} drew {tile}, which {what}")
        return tile
    if tile is None:
        return None
    bit = 1 << tile.index()
    if rnd.stock_pool is not None:
        if not rnd.stock_pool & bit:
            d = t.draws[i]
            m.report.error(d.line, d.column, "illegal-draw",
                           f"{t.player} drew {tile}, which is not in the stock")
    elif tile.hi > m.rules.max_pip:
        # No stock of the set holds it, hidden or not.
        d = t.draws[i]
        m.report.error(d.line, d.column, "illegal-draw",
                       f"{t.player} drew {tile}, which is not in a double-{m.rules.max_pip} set")
    elif rnd.seen & bit:
        d = t.draws[i]
        m.report.error(d.line, d.column, "illegal-draw",
                       f"{t.player} drew {tile}, which is already placed or held")
    return tile


def _known_elsewhere(rnd: Round, tile: Tile) -> bool:
    """Whether ``tile`` is known to be in a hand or on the table."""
    bit = 1 << tile.index()
    return bool(rnd.seen & bit) or any(h.bits & bit for h in rnd.hands)


def _borne_out(t: Turn, i: int, nxt: Tile) -> bool:
    """Whether the rest of ``t`` shows that its ``i``-th draw was made and
    brought out ``nxt``: a later draw's face (which :func:`_in_step` holds
    to the stock), or ``nxt`` placed."""
    spelling = t.spelling
    return spelling.tile == nxt or any(d is not None for d in spelling.drawn[i + 1:])


def _in_step(t: Turn, i: int, stock: list[Tile]) -> bool:
    """Whether the draws written after ``t``'s ``i``-th follow the stock
    from its second tile on (or there are none): the ``i``-th, one digit
    off the stock's next, is then that tile written wrong."""
    later = t.spelling.drawn[i + 1:]
    return all(d is None or (k + 1 < len(stock) and d is stock[k + 1])
               for k, d in enumerate(later))


def pass_fault(m: MatchState, rnd: Round, t: Turn, hand: HandView, fault: int,
               drawn: Tile | None) -> None:
    """Report what :func:`~muggins_cli.engine.turn.pass_fault` found."""
    name = t.player
    if fault == rules_of.PASS_MAYBE_FIT:
        if "pass" not in rnd.unverified:
            action = t.action
            m.report.unverified(rnd, action.line, action.column, "pass",
                                f"round {rnd.number}: hands are not in the record, so "
                                "whether a player could play instead of passing is not "
                                f"checked (first: {name} here)")
        return
    action = t.action
    if fault == rules_of.PASS_DRAWN_FITS:
        assert drawn is not None
        m.report.error(action.line, action.column, "drawn-tile-not-played",
                       f"{name} drew {drawn}, which fits {where(m, rnd, drawn)}, "
                       "and must place it")
    elif fault == rules_of.PASS_ON_EMPTY_TABLE:
        m.report.error(action.line, action.column, "illegal-pass",
                       f"{name} passed on the round's first turn; any tile may open")
    elif fault == rules_of.PASS_STOCK_LEFT:
        m.report.error(action.line, action.column, "illegal-pass",
                       f"{name} passed while the stock has {rnd.stock_count} tiles "
                       "to draw")
    else:
        fit = fitting(m.table, rnd.key, hand.bits)[0]
        m.report.error(action.line, action.column, "illegal-pass",
                       f"{name} passed while holding {fit}, which fits "
                       + where(m, rnd, fit))


def place_faults(m: MatchState, rnd: Round, t: Turn, faults: int, drawn: Tile | None) -> bool:
    """Report what :func:`~muggins_cli.engine.turn.place_faults` found;
    False when the round cannot go on (the tile is not there). The
    turn's tokens are made only for a message."""
    name = t.player
    if faults & rules_of.PLACE_OFF_SET:
        p = t.action
        m.report.error(p.line, p.column, "not-in-hand",
                       f"{_written(t)} is not in a double-{m.rules.max_pip} set")
        return False
    if faults & rules_of.PLACE_NOT_DRAWN:
        assert drawn is not None
        p = t.action
        m.report.error(p.line, p.column, "drawn-tile-not-played",
                       f"{name} drew {drawn}, which fits {where(m, rnd, drawn)}, "
                       f"and must place it, not {_written(t)}")
    if faults & rules_of.PLACE_NOT_HELD:
        p = t.action
        tile = t.spelling.tile
        assert tile is not None
        m.report.error(p.line, p.column, "not-in-hand",
                       f"{name} places {_written(t)}, which they do not hold"
                       + whereabouts(m, rnd, tile))
        return False
    if faults & rules_of.PLACE_MAYBE_HELD:
        bit = 1 << t.spelling.index
        for h in rnd.hands:
            if h.bits & bit:
                p = t.action
                m.report.error(p.line, p.column, "not-in-hand",
                               f"{name} places {_written(t)}, which another player "
                               "holds")
                return False
        if "in-hand" not in rnd.unverified:  # the round's one note, made once
            p = t.action
            m.report.unverified(rnd, p.line, p.column, "in-hand",
                                f"round {rnd.number}: hands are not in the record, so "
                                "whether players held the tiles they placed is not "
                                f"checked (first: {name}'s {_written(t)} here)")
    if faults & rules_of.PLACE_END_ON_LEAD:
        p = t.action
        assert isinstance(p, Placement) and p.end is not None
        m.report.error(p.line, p.column, "bad-end",
                       f"the opening tile takes no end letter ({p.tile}{p.end.value})")
    return True


def claim_mismatch(m: MatchState, rnd: Round, t: Turn, points: int,
                   hint: str | None = None) -> None:
    """A claim that is not the score (``hint``: how the replay read it)."""
    claim, p = t.claim, t.action
    assert claim is not None and isinstance(p, Placement)
    m.report.error(claim.line, claim.column, "score-mismatch",
                   f"{t.player} claims {claim.points}; {p.tile} scores {points}"
                   f" (the open ends add up to {m.table.total(rnd.key)})"
                   + (f"; {hint}" if hint else ""))


def _written(t: Turn) -> str:
    """The tile a turn placed, as the record wrote it (``5-1``, not ``1-5``)."""
    p = t.action
    assert isinstance(p, Placement)
    return str(p.tile)
