"""The edges of engine/turn.py that mutation testing found unguarded: the
flags of :func:`~muggins_cli.engine.turn.turn_options` one by one, a
fitting draw of the tile of index 0, a placement both after a fitting draw
and perhaps not held, and a pass on a table not yet opened.

Each expected answer is worked out by hand from docs/rules.md: a tile that
fits may go down; a draw needs the round open, nothing drawn this turn that
fits, a tile above the reserve and, under ``must_play``, nothing in hand
that fits; a pass needs the round open and neither of the others; after a
fitting draw only the tile drawn goes down; a round not begun is never
blocked.
"""

from __future__ import annotations

import dataclasses

import pytest

from muggins_cli.engine import turn
from muggins_cli.engine.keys import EMPTY, RuleInts, lead_key, rule_ints
from muggins_cli.engine.table import table_for
from muggins_cli.engine.turn import (
    MAY_DRAW,
    MAY_PLACE,
    MAYBE,
    MUST_PASS,
    NO,
    PLACE_MAYBE_HELD,
    PLACE_NOT_DRAWN,
    PLACE_NOT_HELD,
    YES,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import Tile

PAGAT = load_preset("pagat")  # must_play, no stock reserve
R = rule_ints(PAGAT)
FREE = rule_ints(dataclasses.replace(PAGAT, must_play=False))
TABLE = table_for(PAGAT)


def _bit(text: str) -> int:
    a, b = (int(x) for x in text.split("-"))
    return 1 << Tile.of(a, b).index()


def _hand(*tiles: str) -> int:
    return sum(_bit(t) for t in tiles)


#: A line of 3-4: the ends show 3 and 4, so 3-5 and 4-6 fit, 1-2 and 0-0 do not.
LINE = lead_key(R, 3, 4)
LINE_FIT = TABLE.fit(LINE)
EVERY_TILE = TABLE.fit(EMPTY)


@pytest.mark.parametrize(("rules", "hand", "can_draw", "drawn_fits", "options"), [
    # A fitting tile in hand: under must_play it goes down, no draw; without
    # must_play the mover may lay it or draw all the same.
    (R, ("3-5", "1-2"), 1, False, MAY_PLACE),
    (FREE, ("3-5", "1-2"), 1, False, MAY_PLACE | MAY_DRAW),
    (FREE, ("3-5",), 0, False, MAY_PLACE),  # nothing to draw: lay it
    (R, ("3-5",), 0, False, MAY_PLACE),
    # Nothing in hand fits: draw while the stock has a tile, else pass.
    (R, ("1-2", "0-0"), 1, False, MAY_DRAW),
    (FREE, ("1-2", "0-0"), 3, False, MAY_DRAW),
    (R, ("1-2", "0-0"), 0, False, MUST_PASS),
    (FREE, ("1-2",), 0, False, MUST_PASS),
    # A tile just drawn that fits goes down and nothing else, whatever is left.
    (R, ("1-2", "4-6"), 2, True, MAY_PLACE),
    (FREE, ("1-2", "4-6"), 0, True, MAY_PLACE),
])
def test_turn_options_on_an_open_line(rules: RuleInts, hand: tuple[str, ...], can_draw: int,
                                      drawn_fits: bool, options: int) -> None:
    assert turn.turn_options(rules, LINE, _hand(*hand), LINE_FIT, can_draw,
                             drawn_fits) == options


@pytest.mark.parametrize("rules", [R, FREE])
@pytest.mark.parametrize("can_draw", [0, 4])
@pytest.mark.parametrize("hand", [("1-2",), ("0-0", "6-6"), ()])
def test_nobody_draws_or_passes_on_an_empty_table(rules: RuleInts, can_draw: int,
                                                  hand: tuple[str, ...]) -> None:
    """Before the round is open the only move is a lead: every tile opens,
    and neither a draw nor a pass is allowed, whatever the stock holds or
    the hand (even one holding nothing, which no deal gives)."""
    options = turn.turn_options(rules, EMPTY, _hand(*hand), EVERY_TILE, can_draw, False)
    assert options == (MAY_PLACE if hand else 0)


#: A line of 0-3: the ends show 0 and 3, so 0-0 (the tile of index 0) fits.
LINE_0_3 = lead_key(R, 0, 3)
ZERO_ZERO = Tile.of(0, 0).index()


@pytest.mark.parametrize(("tile", "held", "drawn", "faults"), [
    # 0-0 was drawn and fits: it alone may go down, not 3-5 from the hand.
    ("3-5", YES, ZERO_ZERO, PLACE_NOT_DRAWN),
    ("0-0", YES, ZERO_ZERO, 0),
    ("3-5", NO, ZERO_ZERO, PLACE_NOT_DRAWN | PLACE_NOT_HELD),
    # Both findings of a tile not the one drawn that only a hidden tile
    # could be.
    ("3-5", MAYBE, ZERO_ZERO, PLACE_NOT_DRAWN | PLACE_MAYBE_HELD),
    ("0-4", MAYBE, Tile.of(3, 6).index(), PLACE_NOT_DRAWN | PLACE_MAYBE_HELD),
])
def test_after_a_fitting_draw_only_that_tile_goes_down(tile: str, held: int, drawn: int,
                                                       faults: int) -> None:
    ti = Tile.of(*(int(x) for x in tile.split("-"))).index()
    assert turn.place_faults(R, LINE_0_3, 0, ti, held, drawn) == faults


def test_a_table_not_yet_opened_is_never_blocked() -> None:
    """A block needs the round begun: with nothing laid, hands that hold no
    tile of the fit mask given, and nothing to draw, play still goes on."""
    nothing_fits = _bit("6-6")
    hands = [_hand("1-2"), _hand("0-0", "3-4")]
    assert turn.after_pass(EMPTY, nothing_fits, hands, 0) == turn.GOES_ON
    assert turn.after_pass(EMPTY, EVERY_TILE, [0, 0], 0) == turn.GOES_ON
    # The same hands on the open line 3-4 with nothing to draw: blocked.
    assert turn.after_pass(LINE, LINE_FIT, [_hand("1-2"), _hand("0-0", "6-6")],
                           0) == turn.BLOCKED
