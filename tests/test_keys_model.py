"""The layout keys of engine/keys.py against a second model of the table,
written from docs/rules.md alone, over many seeded games of placements.

The model keeps a layout as the reader of docs/rules.md pictures it: a
line with its two ends (the pip each shows and whether a double sits
there, and whether a lone double opened it), or a spinner with its pips
and four arms (empty, or the pip the arm's last tile shows and whether it
is a double). From it: which pip each end shows (an empty arm shows the
spinner's; U and D wait for L and R under ``spinner_sides_first``), where a
tile may join, the open-end total (a double at an arm's end counts both
halves, a lone lead double its pips once, the spinner per
``spinner_count``), the score of that total, and when two layouts are
mirror images. The keys must agree at every step.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins_cli.engine import keys
from muggins_cli.engine.keys import EMPTY, rule_ints
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import ScoreValue, SpinnerCount

End = tuple[int, bool] | None  # the pip an arm's last tile shows, and whether it is a double


@dataclasses.dataclass
class Table:
    """A layout as docs/rules.md describes it."""

    spinner: int | None = None  # the spinner's pip, once there is one
    ends: list[End] = dataclasses.field(default_factory=list)  # L, R (and U, D)
    lone: bool = False  # a lone lead double, on a line


@dataclasses.dataclass(frozen=True)
class Rules:
    spinner: bool
    sides_first: bool
    until_covered: bool
    modulus: int
    multiples: bool


def rules_of(preset: str, **changes: object) -> Rules:
    got = dataclasses.replace(load_preset(preset), **changes)  # type: ignore[arg-type]
    return Rules(got.has_spinner, got.spinner_sides_first,
                 got.spinner_count is SpinnerCount.UNTIL_SIDES_COVERED, got.modulus,
                 got.score_value is ScoreValue.MULTIPLES)


def lead(rules: Rules, left: int, right: int) -> Table:
    if left == right:
        if rules.spinner:
            return Table(left, [None, None, None, None])
        return Table(None, [(left, True), (left, True)], lone=True)
    return Table(None, [(left, False), (right, False)])


def shows(rules: Rules, t: Table, e: int) -> int | None:
    """The pip end ``e`` (L, R, U, D) shows, or None where no tile may join."""
    if t.spinner is None:
        end = t.ends[e] if e < 2 else None
        return end[0] if end is not None else None
    if e >= 2 and rules.sides_first and (t.ends[0] is None or t.ends[1] is None):
        return None
    arm = t.ends[e]
    return t.spinner if arm is None else arm[0]


def place(rules: Rules, t: Table, e: int, a: int, b: int) -> Table | None:
    pip = shows(rules, t, e)
    if pip is None or pip not in (a, b):
        return None
    outer = b if a == pip else a
    double = outer == pip
    if t.spinner is None and double and rules.spinner:
        # The first double becomes the spinner; the line hangs off the side
        # opposite the end it joined.
        arms: list[End] = [None, None, None, None]
        arms[1 - e] = t.ends[1 - e]
        return Table(pip, arms)
    ends = list(t.ends)
    ends[e] = (outer, double)
    return Table(t.spinner, ends)


def total(rules: Rules, t: Table) -> int:
    if t.spinner is None:
        if t.lone:
            return 2 * t.ends[0][0]  # type: ignore[index]
        return sum(p * (2 if d else 1) for p, d in t.ends)  # type: ignore[misc]
    s = sum(arm[0] * (2 if arm[1] else 1) for arm in t.ends if arm is not None)
    if rules.until_covered:
        if t.ends[0] is None or t.ends[1] is None:
            s += 2 * t.spinner
    else:
        s += t.spinner * sum(1 for arm in t.ends[2:] if arm is None)
    return s


def points(rules: Rules, n: int) -> int:
    if n <= 0 or n % rules.modulus:
        return 0
    return n // rules.modulus if rules.multiples else n


def mirror_free(t: Table) -> tuple[object, ...]:
    """The same for a layout and its mirror image (L with R, U with D)."""
    def k(arm: End) -> tuple[int, int]:
        return (99, 0) if arm is None else (arm[0], int(arm[1]))
    pairs = [tuple(sorted((k(t.ends[0]), k(t.ends[1]))))]
    if t.spinner is not None:
        pairs.append(tuple(sorted((k(t.ends[2]), k(t.ends[3])))))
    return (t.spinner, t.lone, *pairs)


SET = [(a, b) for b in range(7) for a in range(b + 1)]

CASES = [
    ("pagat", {}),
    ("spinner", {}),
    ("spinner", {"spinner_sides_first": True}),
    ("spinner", {"spinner_count": SpinnerCount.UNTIL_SIDES_COVERED}),
    ("all-threes", {"score_value": ScoreValue.MULTIPLES}),
]


@pytest.mark.parametrize(("preset", "changes"), CASES)
def test_keys_follow_the_model(preset: str, changes: dict[str, object]) -> None:
    r = rule_ints(dataclasses.replace(load_preset(preset), **changes))  # type: ignore[arg-type]
    rules = rules_of(preset, **changes)
    masks = keys.pip_masks(6)
    rng = random.Random(f"{preset}{sorted(changes.items())}")
    seen: dict[object, set[int]] = {}
    for _game in range(60):
        tiles = SET[:]
        rng.shuffle(tiles)
        a, b = tiles.pop()
        if rng.random() < 0.5:
            a, b = b, a
        key = keys.lead_key(r, a, b)
        model = lead(rules, a, b)
        while True:
            ends = keys.ends_of(key)
            assert ends == (4 if model.spinner is not None else 2)
            for e in range(4):
                want = shows(rules, model, e)
                assert keys.open_pip(r, key, e) == (-1 if want is None else want)
            n = total(rules, model)
            assert keys.count(r, key) == n
            assert keys.score(r, n) == points(rules, n)
            fit = 0
            for i, (lo, hi) in enumerate(SET):
                fits = any(shows(rules, model, e) in (lo, hi) for e in range(4))
                assert keys.tile_fits(r, key, lo, hi) is fits
                fit |= fits << i
            assert keys.fit_mask(r, key, masks) == fit
            seen.setdefault(mirror_free(model), set()).add(keys.canonical(key))
            moves = [(e, lo, hi) for lo, hi in tiles for e in range(4)
                     if place(rules, model, e, lo, hi) is not None]
            for e in range(4):  # a tile that fits no end there is refused
                for lo, hi in tiles[:3]:
                    if place(rules, model, e, lo, hi) is None:
                        assert keys.place_tile(r, key, e, lo, hi) == -1
            if not moves:
                break
            e, lo, hi = rng.choice(moves)
            if rng.random() < 0.5:
                lo, hi = hi, lo
            after = place(rules, model, e, lo, hi)
            assert after is not None
            key, model = keys.place_tile(r, key, e, lo, hi), after
            tiles.remove((min(lo, hi), max(lo, hi)))
    # Mirror images share one canonical key, and different layouts do not.
    assert all(len(found) == 1 for found in seen.values())
    canon = [next(iter(found)) for found in seen.values()]
    assert len(set(canon)) == len(canon)
    assert keys.fit_mask(r, EMPTY, masks) == (1 << 28) - 1
    assert keys.tile_fits(r, EMPTY, 3, 4)
    assert keys.count(r, EMPTY) == 0
