"""Every worked number of docs/rules.md "Worked numbers", against the engine.

Layouts are built with ``engine.layout`` (``lead``/``place``/``count``/
``open_ends``) and scored with ``engine.scoring.score_of``; hand numbers go through
``engine.scoring.settle`` and the match end through ``engine.scoring.reached``.
Each bullet of docs/rules.md is one or more parametrized cases whose id quotes it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import NamedTuple

import pytest

from muggins_cli.engine.layout import (
    Layout,
    count,
    ends_for,
    lead,
    open_ends,
    place,
    place_scored,
)
from muggins_cli.engine.scoring import reached, score_of, settle
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules, SpinnerCount
from muggins_cli.tiles import End, Tile, full_set

PAGAT = load_preset("pagat")
SPINNER = load_preset("spinner")
ALL_THREES = load_preset("all-threes")
SPINNER_UNTIL_COVERED = dataclasses.replace(
    SPINNER, spinner_count=SpinnerCount.UNTIL_SIDES_COVERED
)


class Step(NamedTuple):
    """One placement and the open-end total and score docs/rules.md gives for it."""

    tile: str  # as written: for the lead, the first half faces L
    end: End | None  # None for the lead
    total: int
    score: int


def _play(rules: Rules, steps: Sequence[Step]) -> list[tuple[int, int]]:
    """Lay ``steps`` in order; the (total, score) after each one."""
    layout: Layout | None = None
    out: list[tuple[int, int]] = []
    for step in steps:
        a, b = (int(x) for x in step.tile.split("-"))
        tile = Tile.of(a, b)
        if step.end is None:
            assert layout is None, "only the first step is a lead"
            layout = lead(rules, tile, left=a)
            assert open_ends(rules, layout)[End.L] == a
        else:
            assert layout is not None, "the first step must be the lead"
            pip = open_ends(rules, layout).get(step.end)
            assert pip is not None, f"{step.end.value} is not an open end"
            assert step.end in ends_for(rules, layout, tile), f"{tile} does not fit {step.end}"
            # "on the N": the written half is the one joining the end.
            assert a == pip, f"{step.tile} is written with {a} joining an end showing {pip}"
            laid = place(rules, layout, tile, step.end)
            layout, score = place_scored(rules, layout, tile, step.end)
            assert layout == laid  # the two ways to lay a tile agree
            total = count(rules, layout)
            out.append((total, score))  # the score the replay credits
            continue
        total = count(rules, layout)
        out.append((total, score_of(rules, total)))
    return out


def _expected(steps: Sequence[Step]) -> list[tuple[int, int]]:
    return [(s.total, s.score) for s in steps]


# --------------------------------------------------------------------------
# pagat: leads


@pytest.mark.parametrize(
    ("tile", "total", "score"),
    [
        pytest.param("6-4", 10, 10, id="pagat lead 6-4 -> 10"),
        pytest.param("5-5", 10, 10, id="pagat lead 5-5 -> 10 (a lone double counts once)"),
        pytest.param("5-0", 5, 5, id="pagat lead 5-0 -> 5"),
        pytest.param("4-1", 5, 5, id="pagat lead 4-1 -> 5"),
        pytest.param("3-2", 5, 5, id="pagat lead 3-2 -> 5"),
        pytest.param("6-6", 12, 0, id="pagat lead 6-6 -> 0 (12)"),
        pytest.param("0-0", 0, 0, id="pagat lead 0-0 -> 0 (0 never scores)"),
    ],
)
def test_pagat_leads(tile: str, total: int, score: int) -> None:
    assert _play(PAGAT, [Step(tile, None, total, score)]) == [(total, score)]


@pytest.mark.parametrize("left", ["hi", "lo"], ids=["written hi-lo", "written lo-hi"])
@pytest.mark.parametrize("tile", ["6-4", "5-0", "4-1", "3-2"])
def test_pagat_lead_orientation_does_not_change_the_total(tile: str, left: str) -> None:
    t = Tile.parse(tile)
    layout = lead(PAGAT, t, left=t.hi if left == "hi" else t.lo)
    assert count(PAGAT, layout) == t.pips


# --------------------------------------------------------------------------
# pagat: sequences


PAGAT_SEQUENCES: list[tuple[str, list[Step]]] = [
    (
        "pagat 2-4 led, 4-3 on the 4 -> 5",
        [Step("2-4", None, 6, 0), Step("4-3", End.R, 5, 5)],
    ),
    (
        "pagat 2-4 led, 4-4 on the 4 instead -> 2 + 8 = 10",
        [Step("2-4", None, 6, 0), Step("4-4", End.R, 10, 10)],
    ),
    (
        "pagat one end 3, the other a terminal 6-6 -> 15",
        [Step("3-6", None, 9, 0), Step("6-6", End.R, 15, 15)],
    ),
    (
        "pagat 6-6 at one end, 4-4 at the other -> 20",
        [Step("6-4", None, 10, 10), Step("6-6", End.L, 16, 0), Step("4-4", End.R, 20, 20)],
    ),
]


@pytest.mark.parametrize(
    "steps", [pytest.param(steps, id=name) for name, steps in PAGAT_SEQUENCES]
)
def test_pagat_sequences(steps: list[Step]) -> None:
    assert _play(PAGAT, steps) == _expected(steps)


# "5-5; 5-0 on it -> 10; 0-0 on the 0 -> 10; 5-6 on the 5-5 -> 0 (6); 0-4 on
# the 0-0 -> 10": one line of play, a case for each placement.
PAGAT_FIVES: list[tuple[str, Step]] = [
    ("lead 5-5 -> 10", Step("5-5", None, 10, 10)),
    ("5-0 on it (L) -> 10", Step("5-0", End.L, 10, 10)),
    ("0-0 on the 0 (L) -> 10", Step("0-0", End.L, 10, 10)),
    ("5-6 on the 5-5 (R) -> 0 (6)", Step("5-6", End.R, 6, 0)),
    ("0-4 on the 0-0 (L) -> 10", Step("0-4", End.L, 10, 10)),
]


@pytest.mark.parametrize(
    "upto",
    [pytest.param(i, id=f"pagat 5-5 line #{i} {said}") for i, (said, _) in
     enumerate(PAGAT_FIVES, start=1)],
)
def test_pagat_five_five_line(upto: int) -> None:
    steps = [step for _, step in PAGAT_FIVES[:upto]]
    assert _play(PAGAT, steps) == _expected(steps)


def test_pagat_twenty_is_the_largest_score() -> None:
    # "6-6 at one end, 4-4 at the other -> 20, the largest possible". An end
    # of a line is a plain half or a terminal double, and every pair of such
    # ends is reached with at most three tiles, so searching every layout of
    # one to three tiles covers every total a line can show.
    best_total, best_score = 0, 0
    tiles = full_set(PAGAT.max_pip)
    frontier = [(lead(PAGAT, t), frozenset([t])) for t in tiles]
    for size in (1, 2, 3):
        grown: list[tuple[Layout, frozenset[Tile]]] = []
        for layout, used in frontier:
            total = count(PAGAT, layout)
            best_total = max(best_total, total)
            best_score = max(best_score, score_of(PAGAT, total))
            if size == 3:
                continue
            grown.extend(
                (place(PAGAT, layout, t, e), used | {t})
                for t in tiles
                if t not in used
                for e in ends_for(PAGAT, layout, t)
            )
        frontier = grown
    assert (best_total, best_score) == (22, 20)  # 6-6 and 5-5 make 22, no score


# --------------------------------------------------------------------------
# pagat: hands, blocks and the match end


@pytest.mark.parametrize(
    ("pips", "delta"),
    [
        pytest.param(2, 0, id="pagat hand 1-1 (2) -> deduct 0"),
        pytest.param(3, -5, id="pagat hand 1-2 (3) -> deduct 5"),
        pytest.param(10, -10, id="pagat hand 10 -> deduct 10"),
        pytest.param(27, -25, id="pagat hand 27 -> deduct 25"),
        pytest.param(28, -30, id="pagat hand 28 -> deduct 30"),
        pytest.param(13, -15, id="pagat hand 13 -> deduct 15"),
    ],
)
def test_pagat_hand_deductions(pips: int, delta: int) -> None:
    # The player holding ``pips`` is seat 1; seat 0 went out with nothing.
    assert settle(PAGAT, [0, pips], went_out=0) == [0, delta]


def test_pagat_deduction_takes_a_score_of_zero_below_zero() -> None:
    # "13 -> 15, so a player on 0 goes to -15" (no floor, decided).
    scores = [0, 0]
    deltas = settle(PAGAT, [0, 13], went_out=0)
    assert [s + d for s, d in zip(scores, deltas)] == [0, -15]


def test_pagat_blocked_round_everyone_loses_own_hand() -> None:
    # "Blocked round with hands of 4, 8 and 12 pips: -5, -10, -10; nobody gains."
    deltas = settle(PAGAT, [4, 8, 12], went_out=None)
    assert deltas == [-5, -10, -10]
    assert reached([195, 195, 195], deltas, PAGAT.target_for(3)) is None


def test_pagat_reaching_the_target_wins_at_once() -> None:
    # "Two players, A on 245 makes 10: A has 255 and wins at once."
    layout = lead(PAGAT, Tile(4, 6), left=6)
    points = score_of(PAGAT, count(PAGAT, layout))
    assert points == 10
    scores = [245, 120]
    assert reached(scores, [points, 0], PAGAT.target_for(2)) == 0
    assert scores[0] + points == 255
    # One short is not a win.
    assert reached([239, 120], [points, 0], PAGAT.target_for(2)) is None


# --------------------------------------------------------------------------
# spinner


SPINNER_SEQUENCE: list[tuple[str, str, End | None, int, int]] = [
    # how docs/rules.md says it, tile as laid, end, exposed-ends / until-sides-covered total
    ("lead 5-5", "5-5", None, 10, 10),
    ("5-0 on L", "5-0", End.L, 10, 10),
    ("3-5 on R", "5-3", End.R, 13, 3),
    ("0-2 on the 0 (L)", "0-2", End.L, 15, 5),
    ("5-4 on U", "5-4", End.U, 14, 9),
    ("2-2 on the 2 (L)", "2-2", End.L, 16, 11),
    ("2-5 on the 2-2 (L)", "2-5", End.L, 17, 12),
    ("3-3 on the 3 (R)", "3-3", End.R, 20, 15),
]


def _spinner_case(upto: int, covered: bool) -> object:
    said, _, _, exposed_total, covered_total = SPINNER_SEQUENCE[upto - 1]
    total = covered_total if covered else exposed_total
    score = score_of(SPINNER, total)
    shown = f"{total} scores {score}" if score else f"{total} no score"
    kind = "until-sides-covered" if covered else "exposed-ends"
    return pytest.param(upto, id=f"spinner {kind} #{upto} {said} -> {shown}")


@pytest.mark.parametrize(
    "upto", [_spinner_case(i, covered=False) for i in range(1, len(SPINNER_SEQUENCE) + 1)]
)
def test_spinner_sequence_exposed_ends(upto: int) -> None:
    steps = [
        Step(t, e, total, score_of(SPINNER, total))
        for _, t, e, total, _ in SPINNER_SEQUENCE[:upto]
    ]
    assert _play(SPINNER, steps) == _expected(steps)


@pytest.mark.parametrize(
    "upto", [_spinner_case(i, covered=True) for i in range(1, len(SPINNER_SEQUENCE) + 1)]
)
def test_spinner_sequence_until_sides_covered(upto: int) -> None:
    steps = [
        Step(t, e, total, score_of(SPINNER, total))
        for _, t, e, _, total in SPINNER_SEQUENCE[:upto]
    ]
    assert _play(SPINNER_UNTIL_COVERED, steps) == _expected(steps)


def test_spinner_sequence_whole() -> None:
    exposed = [Step(t, e, x, score_of(SPINNER, x)) for _, t, e, x, _ in SPINNER_SEQUENCE]
    covered = [Step(t, e, c, score_of(SPINNER, c)) for _, t, e, _, c in SPINNER_SEQUENCE]
    assert _play(SPINNER, exposed) == [
        (10, 10), (10, 10), (13, 0), (15, 15), (14, 0), (16, 0), (17, 0), (20, 20),
    ]
    assert _play(SPINNER_UNTIL_COVERED, covered) == [
        (10, 10), (10, 10), (3, 0), (5, 5), (9, 0), (11, 0), (12, 0), (15, 15),
    ]


@pytest.mark.parametrize(
    ("rules", "steps"),
    [
        pytest.param(
            SPINNER,
            [Step("5-3", None, 8, 0), Step("3-3", End.R, 11, 0)],
            id="spinner lead 5-3, 3-3 on the 3 becomes the spinner -> 5 + 3 + 3 = 11",
        ),
        pytest.param(
            SPINNER_UNTIL_COVERED,
            [Step("5-3", None, 8, 0), Step("3-3", End.R, 11, 0)],
            id="until-sides-covered lead 5-3, 3-3 on the 3 -> 5 + 3 + 3 = 11",
        ),
        pytest.param(
            SPINNER,
            [Step("6-6", None, 12, 0), Step("6-3", End.L, 15, 15)],
            id="spinner lead 6-6, 6-3 on L -> 15",
        ),
        pytest.param(
            SPINNER,
            [Step("6-6", None, 12, 0), Step("6-3", End.R, 15, 15)],
            id="spinner lead 6-6, 6-3 on R -> 15",
        ),
    ],
)
def test_spinner_short_sequences(rules: Rules, steps: list[Step]) -> None:
    assert _play(rules, steps) == _expected(steps)


def test_spinner_not_the_lead_opens_four_ends() -> None:
    layout = lead(SPINNER, Tile(3, 5), left=5)
    layout = place(SPINNER, layout, Tile(3, 3), End.R)
    assert layout.spinner
    assert open_ends(SPINNER, layout) == {End.L: 5, End.R: 3, End.U: 3, End.D: 3}


@pytest.mark.parametrize(
    ("hands", "went_out", "deltas"),
    [
        pytest.param(
            [3, 5, 11, 13],
            None,
            [5, 0, 0, 0],
            id="spinner blocked: lightest 3 vs 5, 11, 13 -> 26 -> 25 -> +5, others unchanged",
        ),
        pytest.param(
            [0, 7, 10],
            0,
            [3, 0, 0],
            id="spinner going out vs 7 and 10 -> 17 -> 15 -> +3",
        ),
    ],
)
def test_spinner_lightest_bonus(hands: list[int], went_out: int | None, deltas: list[int]) -> None:
    assert settle(SPINNER, hands, went_out) == deltas


# --------------------------------------------------------------------------
# all-threes


def test_all_threes_ends_3_and_6_score_9() -> None:
    steps = [Step("3-6", None, 9, 9)]
    assert _play(ALL_THREES, steps) == _expected(steps)


def test_a_tile_outside_the_set_is_still_laid_and_counted() -> None:
    """A record may hold a typo such as 6-7 in a double-six game. The
    replay reports it, but the analysis still lists where such a tile would
    go and what it would score, so the engine must count it: 6-6 leads (12),
    6-7 on L shows 7 against the double's 12 on R, 19 in all."""
    layout = place(PAGAT, lead(PAGAT, Tile(6, 6)), Tile(6, 7), End.L)
    assert open_ends(PAGAT, layout) == {End.L: 7, End.R: 6}
    assert count(PAGAT, layout) == 19
    assert ends_for(PAGAT, layout, Tile(7, 7)) == [End.L]


def test_tiles_off_the_set_do_not_grow_the_shared_layout_table_without_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile record may hold thousands of different typo tiles, each
    making a layout of its own; the table every replay shares remembers a
    bounded number of them (here the bound is lowered to 50), and still
    counts each one right: 6-6 leads, 6-p on L, then p-q on the p shows q
    (twice for a double) against the 6-6's 12."""
    from muggins_cli.engine import table as table_module

    monkeypatch.setattr(table_module, "_MOST", 50)
    shared = table_module.LayoutTable(PAGAT)
    monkeypatch.setitem(table_module._TABLES, PAGAT, shared)
    lead66 = lead(PAGAT, Tile(6, 6))
    for pip in range(7, 100, 3):
        layout = place(PAGAT, lead66, Tile(6, pip), End.L)
        assert count(PAGAT, layout) == pip + 12
        for other in range(7, 100, 5):
            placed = place(PAGAT, layout, Tile(pip, other), End.L)
            assert count(PAGAT, placed) == (2 if other == pip else 1) * other + 12
            assert all(len(cache) <= 50 for cache in (
                shared._ends, shared._fit, shared._moves, shared._search))
