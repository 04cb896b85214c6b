"""A spinner's up and down arms on the study page's table: a tile laid at
the top (or the bottom) of a short arm, or the ghost of one a reader picks
among the candidates, stands on the arm's line above (or below) the
spinner, the way players lay it, rather than turning a corner sideways."""

from __future__ import annotations

from pathlib import Path

import pytest

from muggins_cli.check import record_resolver
from muggins_cli.engine.layout import open_ends
from muggins_cli.engine.state import Place, placed_scored
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.replay import positions
from muggins_cli.report.svg import lay_table
from muggins_cli.tiles import End

RECORDS = Path(__file__).resolve().parent.parent / "records"
STRAIGHT = 4
"""An arm of up to this many tiles runs straight: a double-six table's
line does as much before its first corner."""


@pytest.mark.parametrize("name", ["spinner-3p.mgn", "pos-ronda-spinner-4p.mgn"])
def test_a_tile_on_a_short_vertical_arm_stands_on_its_line(name: str) -> None:
    record = str(RECORDS / name)
    checked = 0
    for pos, _ in positions(read_match(record, 1), record_resolver(record)):
        layout, hand = pos.layout, pos.hands[pos.to_move]
        if not layout.spinner or hand is None or layout.root is None:
            continue
        for end, pip in open_ends(pos.rules, layout).items():
            if end not in (End.U, End.D):
                continue
            for tile in hand:
                if not tile.has(pip):
                    continue
                after, _ = placed_scored(pos.rules, layout, Place(tile, end))
                arm = after.arms[2 if end is End.U else 3].tiles
                if len(arm) > STRAIGHT:
                    continue
                table = lay_table(pos.rules, after)
                root = table.tiles[0].rect
                laid = next(t for t in table.tiles if t.tile == tile)
                r = laid.rect
                # Upright (a double across its arm), centred on the
                # spinner's middle, above it for U and below it for D.
                assert laid.upright == (not tile.is_double), (name, tile, end)
                assert r.x + r.w / 2 == root.x + root.w / 2, (name, tile, end, r)
                if end is End.U:
                    assert r.y + r.h <= root.y
                else:
                    assert r.y >= root.y + root.h
                checked += 1
    assert checked >= 20
