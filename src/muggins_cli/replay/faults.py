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
