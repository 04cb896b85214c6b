"""The edges of engine/keys.py that mutation testing found unguarded: what
the empty table answers (no ends, none open) and that a score under
``score_value: multiples`` is a whole number of points.

The expected answers come from the module's own contract and docs/rules.md:
before the opening tile the layout has no end (``ends_of`` answers 0, 2 or
4) and no tile may join one (``open_pip`` answers -1 where a tile may not
join); a total that is a positive multiple of the modulus scores, under
``multiples``, the total divided by the modulus: 12 under multiples of 3
scores 4 points, a whole number, as every score and every table of the
solver's kernel holds it.
"""

from __future__ import annotations

import dataclasses

import pytest

from muggins_cli.engine import keys
from muggins_cli.engine.keys import EMPTY, rule_ints
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import ScoreValue

PRESETS = ["pagat", "spinner", "all-threes"]


@pytest.mark.parametrize("preset", PRESETS)
def test_an_empty_table_has_no_end(preset: str) -> None:
    r = rule_ints(load_preset(preset))
    assert keys.ends_of(EMPTY) == 0
    for e in range(4):
        assert keys.open_pip(r, EMPTY, e) == -1


@pytest.mark.parametrize(("preset", "total", "points"), [
    ("all-threes", 12, 4),  # modulus 3
    ("all-threes", 3, 1),
    ("all-threes", 21, 7),
    ("pagat", 15, 3),  # modulus 5
    ("pagat", 20, 4),
    ("pagat", 5, 1),
])
def test_a_multiples_score_is_whole_points(preset: str, total: int, points: int) -> None:
    rules = dataclasses.replace(load_preset(preset), score_value=ScoreValue.MULTIPLES)
    got = keys.score(rule_ints(rules), total)
    assert type(got) is int
    assert got == points
