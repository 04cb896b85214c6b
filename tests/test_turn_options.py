"""The order of a turn (engine/turn.py ``turn_options``), case by case, worked
by hand from docs/rules.md: a tile just drawn that fits goes down and
nothing else; else any held tile that fits may go down; a draw is allowed
only while the stock has a tile above its reserve, on an open table, and
under ``must_play`` only with nothing to lay; with neither the mover passes.
"""

from __future__ import annotations

import dataclasses

import pytest

from muggins_cli.engine import turn
from muggins_cli.engine.keys import EMPTY, R_N_TILES, lead_key, rule_ints
from muggins_cli.engine.turn import MAY_DRAW, MAY_PLACE, MUST_PASS, turn_options
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import Tile

PAGAT = load_preset("pagat")  # must_play, no reserve
MUST = rule_ints(PAGAT)
FREE = rule_ints(dataclasses.replace(PAGAT, must_play=False))
RESERVE = rule_ints(dataclasses.replace(PAGAT, stock_reserve=2))


def _bit(text: str) -> int:
    a, b = (int(x) for x in text.split("-"))
    return 1 << Tile.of(a, b).index()


LINE = lead_key(MUST, 3, 4)  # ends 3 and 4
FIT = _bit("3-5") | _bit("4-6")  # the tiles the test's hands may fit with
FITS = _bit("3-5")
MISS = _bit("1-2")


@pytest.mark.parametrize(("r", "hand", "can_draw", "drawn", "want"), [
    (MUST, FITS, 3, False, MAY_PLACE),  # must_play: a fitting tile, no draw
    (FREE, FITS, 3, False, MAY_PLACE | MAY_DRAW),  # without it a draw is a choice too
    (FREE, FITS, 0, False, MAY_PLACE),  # nothing left to draw
    (MUST, MISS, 3, False, MAY_DRAW),  # nothing fits: draw
    (FREE, MISS, 3, False, MAY_DRAW),
    (MUST, MISS, 0, False, MUST_PASS),  # nothing fits, nothing to draw: pass
    (FREE, MISS | FITS, 3, True, MAY_PLACE),  # a tile just drawn fits: only it goes down
    (MUST, 0, 0, False, MUST_PASS),
], ids=["must-play", "free", "free-dry", "draw", "free-draw", "pass", "drawn", "empty-hand"])
def test_turn_options(r: tuple[int, ...], hand: int, can_draw: int, drawn: bool,
                      want: int) -> None:
    assert turn_options(r, LINE, hand, FIT, can_draw, drawn) == want


def test_the_opening_tile_is_the_only_move_on_an_empty_table() -> None:
    every = (1 << MUST[R_N_TILES]) - 1  # every tile opens
    assert turn_options(MUST, EMPTY, MISS, every, 5, False) == MAY_PLACE
    assert turn_options(FREE, EMPTY, MISS, every, 5, False) == MAY_PLACE


def test_the_reserve_is_never_drawn() -> None:
    assert turn_options(RESERVE, LINE, MISS, FIT, turn.drawable(RESERVE, 3), False) == MAY_DRAW
    assert turn_options(RESERVE, LINE, MISS, FIT, turn.drawable(RESERVE, 2), False) == MUST_PASS


def test_may_draw_and_must_pass_read_it() -> None:
    assert turn.may_draw(FREE, LINE, FITS, FIT, 1)
    assert not turn.may_draw(MUST, LINE, FITS, FIT, 1)
    assert turn.must_pass(LINE, MISS, FIT, 0)
    assert not turn.must_pass(LINE, MISS, FIT, 1)
