"""The scoring and rounding numbers of docs/rules.md, against the Rules methods.

Only values that need no layout are here (totals already added up, hand pips
already counted); the layouts that produce them belong to the engine tests.
"""

from __future__ import annotations

import pytest

from muggins_cli.engine.scoring import round_hand, score_of
from muggins_cli.rules import Rules, ScoreValue, load_preset

PAGAT = load_preset("pagat")
SPINNER = load_preset("spinner")
ALL_THREES = load_preset("all-threes")


@pytest.mark.parametrize(
    ("pips", "rounded"),
    [
        pytest.param(2, 0, id="pagat hand 1-1 (2) -> deduct 0"),
        pytest.param(3, 5, id="pagat hand 1-2 (3) -> 5"),
        pytest.param(10, 10, id="pagat hand 10 -> 10"),
        pytest.param(27, 25, id="pagat hand 27 -> 25"),
        pytest.param(28, 30, id="pagat hand 28 -> 30"),
        pytest.param(13, 15, id="pagat hand 13 -> 15"),
        pytest.param(4, 5, id="pagat blocked hand 4 -> 5"),
        pytest.param(8, 10, id="pagat blocked hand 8 -> 10"),
        pytest.param(12, 10, id="pagat blocked hand 12 -> 10"),
        pytest.param(0, 0, id="pagat empty hand 0 -> 0"),
    ],
)
def test_pagat_round_hand(pips: int, rounded: int) -> None:
    assert round_hand(PAGAT, pips) == rounded


def test_pagat_deduction_from_zero_goes_negative() -> None:
    # "13 -> 15, so a player on 0 goes to -15": no floor (decided).
    assert 0 - round_hand(PAGAT, 13) == -15


@pytest.mark.parametrize(
    ("pips", "rounded", "bonus"),
    [
        pytest.param(26, 25, 5, id="spinner blocked, 5+11+13-3 = 26 -> 25 -> /5 -> 5"),
        pytest.param(17, 15, 3, id="spinner going out, 7+10-0 = 17 -> 15 -> /5 -> 3"),
    ],
)
def test_spinner_lightest_bonus(pips: int, rounded: int, bonus: int) -> None:
    assert round_hand(SPINNER, pips) == rounded
    assert round_hand(SPINNER, pips) // SPINNER.bonus_divisor == bonus


@pytest.mark.parametrize(
    ("pips", "rounded"),
    [
        pytest.param(4, 3, id="all-threes remainder 1 goes down: 4 -> 3"),
        pytest.param(5, 6, id="all-threes remainder 2 goes up: 5 -> 6"),
        pytest.param(9, 9, id="all-threes 9 -> 9"),
    ],
)
def test_all_threes_round_hand(pips: int, rounded: int) -> None:
    assert round_hand(ALL_THREES, pips) == rounded


@pytest.mark.parametrize(
    ("rules", "total", "score"),
    [
        pytest.param(PAGAT, 10, 10, id="pagat lead 6-4 -> 10"),
        pytest.param(PAGAT, 5, 5, id="pagat lead 5-0 -> 5"),
        pytest.param(PAGAT, 12, 0, id="pagat lead 6-6 (12) -> 0"),
        pytest.param(PAGAT, 0, 0, id="pagat lead 0-0 (0) never scores"),
        pytest.param(PAGAT, 6, 0, id="pagat 5-6 on 5-5 (6) -> 0"),
        pytest.param(PAGAT, 15, 15, id="pagat end 3 and terminal 6-6 -> 15"),
        pytest.param(PAGAT, 20, 20, id="pagat 6-6 and 4-4 terminal -> 20"),
        pytest.param(SPINNER, 13, 0, id="spinner 3-5 on R (13) -> 0"),
        pytest.param(SPINNER, 14, 0, id="spinner 5-4 on U (14) -> 0"),
        pytest.param(SPINNER, 16, 0, id="spinner 2-2 on the 2 (16) -> 0"),
        pytest.param(SPINNER, 17, 0, id="spinner 2-5 on 2-2 (17) -> 0"),
        pytest.param(SPINNER, 11, 0, id="spinner 3-3 spinner after 5-3 (11) -> 0"),
        pytest.param(SPINNER, 20, 20, id="spinner 3-3 on the 3 -> 20"),
        pytest.param(SPINNER, 0, 0, id="spinner 0 never scores"),
        pytest.param(ALL_THREES, 9, 9, id="all-threes ends 3 and 6 -> 9"),
        pytest.param(ALL_THREES, 10, 0, id="all-threes 10 -> 0"),
        pytest.param(ALL_THREES, 0, 0, id="all-threes 0 never scores"),
    ],
)
def test_score_of(rules: Rules, total: int, score: int) -> None:
    assert score_of(rules, total) == score


@pytest.mark.parametrize(
    ("total", "score"),
    [
        pytest.param(15, 3, id="multiples 15 -> 3"),
        pytest.param(20, 4, id="multiples 20 -> 4"),
        pytest.param(5, 1, id="multiples 5 -> 1"),
        pytest.param(12, 0, id="multiples 12 -> 0"),
        pytest.param(0, 0, id="multiples 0 -> 0"),
    ],
)
def test_score_of_multiples(total: int, score: int) -> None:
    rules = Rules(name="pagat-multiples", score_value=ScoreValue.MULTIPLES)
    assert score_of(rules, total) == score


@pytest.mark.parametrize(
    ("rules", "players", "hand", "target"),
    [
        pytest.param(PAGAT, 2, 7, 250, id="pagat 2 players"),
        pytest.param(PAGAT, 3, 5, 200, id="pagat 3 players"),
        pytest.param(PAGAT, 4, 5, 200, id="pagat 4 players"),
        pytest.param(SPINNER, 2, 7, 200, id="spinner 2 players"),
        pytest.param(SPINNER, 4, 5, 200, id="spinner 4 players"),
        pytest.param(ALL_THREES, 3, 5, 200, id="all-threes 3 players"),
    ],
)
def test_hand_size_and_target(rules: Rules, players: int, hand: int, target: int) -> None:
    assert rules.hand_size_for(players) == hand
    assert rules.target_for(players) == target


def test_match_ends_on_reaching_target() -> None:
    # Two players, A on 245 makes 10: 255 >= 250, the match ends at once.
    assert 245 + score_of(PAGAT, 10) >= PAGAT.target_for(2)


@pytest.mark.parametrize(
    ("rules", "has_spinner"),
    [
        pytest.param(PAGAT, False, id="pagat"),
        pytest.param(SPINNER, True, id="spinner"),
        pytest.param(ALL_THREES, True, id="all-threes"),
    ],
)
def test_has_spinner(rules: Rules, has_spinner: bool) -> None:
    assert rules.has_spinner is has_spinner
