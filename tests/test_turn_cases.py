"""The rules of a turn's draw, pass, round end and match end
(engine/turn.py), case by case at their edges.

Each expected answer is worked out by hand from docs/rules.md: a player
draws only with the round open, nothing drawn this turn that fits, under
``must_play`` nothing held that fits, and a tile above the reserve; a pass
only when none of that is left; hands round to ``round_to`` the way
``rounding`` says (``nearest``: half or more goes up); the round-end
settlement of each ``round_end``; and who the credit makes the winner
under ``at-target`` and ``round-end``.
"""

from __future__ import annotations

import dataclasses

import pytest

from muggins_cli.engine import turn
from muggins_cli.engine.keys import EMPTY, RuleInts, lead_key, rule_ints
from muggins_cli.engine.turn import (
    DRAW_AFTER_FIT,
    DRAW_EMPTY_STOCK,
    DRAW_HOLDING_FIT,
    DRAW_MAYBE_FIT,
    DRAW_ON_EMPTY_TABLE,
    MAYBE,
    NO,
    NOBODY,
    PASS_DRAWN_FITS,
    PASS_HOLDING_FIT,
    PASS_MAYBE_FIT,
    PASS_OK,
    PASS_ON_EMPTY_TABLE,
    PASS_STOCK_LEFT,
    YES,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import MatchEnd, RoundEnd, Rounding, Rules

PAGAT = load_preset("pagat")


def ints(**changes: object) -> RuleInts:
    """The pagat preset with ``changes``, as the engine reads rules."""
    rules: Rules = dataclasses.replace(PAGAT, **changes)  # type: ignore[arg-type]
    return rule_ints(rules)


R = ints()  # must_play, reserve 0, deduct-own, round_to 5 nearest, at-target
FREE = ints(must_play=False)
#: A line of 3-4: the round is open.
LINE = lead_key(R, 3, 4)


@pytest.mark.parametrize(("known", "unknown", "fit", "answer"), [
    (0b110, 0, 0b010, YES),
    (0b110, 2, 0b100, YES),  # a shown tile fits: tiles not shown change nothing
    (0b110, 3, 0b001, MAYBE),
    (0b110, 1, 0b001, MAYBE),
    (0b110, 0, 0b001, NO),
    (0, 0, 0b111, NO),
])
def test_holding(known: int, unknown: int, fit: int, answer: int) -> None:
    assert turn.holding(known, unknown, fit) == answer


@pytest.mark.parametrize(("reserve", "stock", "answer"), [
    (0, 5, 5), (0, 1, 1), (0, 0, 0), (2, 5, 3), (2, 3, 1), (2, 2, 0), (2, 1, 0), (2, 0, 0),
])
def test_drawable_leaves_the_reserve(reserve: int, stock: int, answer: int) -> None:
    assert turn.drawable(ints(stock_reserve=reserve), stock) == answer


@pytest.mark.parametrize(("rules", "key", "held", "can_draw", "drawn_fits", "faults"), [
    (R, LINE, NO, 1, False, 0),
    (R, LINE, NO, 9, False, 0),
    (R, EMPTY, NO, 1, False, DRAW_ON_EMPTY_TABLE),
    (R, EMPTY, YES, 1, True, DRAW_ON_EMPTY_TABLE),  # the first finding alone
    (R, EMPTY, NO, 0, False, DRAW_ON_EMPTY_TABLE | DRAW_EMPTY_STOCK),
    (R, LINE, NO, 1, True, DRAW_AFTER_FIT),
    (R, LINE, YES, 1, True, DRAW_AFTER_FIT),
    (R, LINE, YES, 0, True, DRAW_AFTER_FIT | DRAW_EMPTY_STOCK),
    (R, LINE, YES, 1, False, DRAW_HOLDING_FIT),
    (R, LINE, MAYBE, 1, False, DRAW_MAYBE_FIT),
    (R, LINE, YES, 0, False, DRAW_HOLDING_FIT | DRAW_EMPTY_STOCK),
    (R, LINE, MAYBE, 0, False, DRAW_MAYBE_FIT | DRAW_EMPTY_STOCK),
    (R, LINE, NO, 0, False, DRAW_EMPTY_STOCK),
    # Without must_play a player may draw holding a tile that fits.
    (FREE, LINE, YES, 1, False, 0),
    (FREE, LINE, MAYBE, 1, False, 0),
    (FREE, LINE, YES, 0, False, DRAW_EMPTY_STOCK),
    (FREE, LINE, NO, 1, True, DRAW_AFTER_FIT),
])
def test_draw_faults(rules: RuleInts, key: int, held: int, can_draw: int, drawn_fits: bool,
                     faults: int) -> None:
    assert turn.draw_faults(rules, key, held, can_draw, drawn_fits) == faults


@pytest.mark.parametrize(("key", "held", "can_draw", "drawn_fits", "fault"), [
    (LINE, NO, 0, False, PASS_OK),
    (LINE, NO, 0, True, PASS_DRAWN_FITS),
    (EMPTY, NO, 0, True, PASS_DRAWN_FITS),  # the first reason alone
    (EMPTY, NO, 0, False, PASS_ON_EMPTY_TABLE),
    (EMPTY, YES, 3, False, PASS_ON_EMPTY_TABLE),
    (LINE, NO, 1, False, PASS_STOCK_LEFT),
    (LINE, YES, 2, False, PASS_STOCK_LEFT),
    (LINE, YES, 0, False, PASS_HOLDING_FIT),
    (LINE, MAYBE, 0, False, PASS_MAYBE_FIT),
])
def test_pass_fault(key: int, held: int, can_draw: int, drawn_fits: bool, fault: int) -> None:
    assert turn.pass_fault(key, held, can_draw, drawn_fits) == fault


def test_may_draw_with_every_tile_known() -> None:
    fit = 0b1010
    assert turn.may_draw(R, LINE, 0b0101, fit, 1)
    assert not turn.may_draw(R, LINE, 0b0011, fit, 1)  # holds a tile that fits
    assert not turn.may_draw(R, LINE, 0b0101, fit, 0)  # nothing to draw
    assert not turn.may_draw(R, EMPTY, 0b0101, fit, 1)  # the round is not open
    assert turn.may_draw(FREE, LINE, 0b0011, fit, 1)


@pytest.mark.parametrize(("key", "fit", "hands", "can_draw", "answer"), [
    (LINE, 0b1000, (0b0001, 0b0110), 0, True),
    (LINE, 0b1000, (0b0001, 0b1110), 0, False),
    (LINE, 0b1000, (0b1001, 0b0110), 0, False),
    (LINE, 0b1000, (0b0001, 0b0110), 1, False),
    (EMPTY, 0b1000, (0b0001, 0b0110), 0, False),
])
def test_blocked(key: int, fit: int, hands: tuple[int, ...], can_draw: int,
                 answer: bool) -> None:
    assert turn.blocked(key, fit, hands, can_draw) is answer


@pytest.mark.parametrize(("rounding", "step", "pips", "counted"), [
    # nearest: a remainder below half goes down, half or more up.
    ("nearest", 5, 0, 0), ("nearest", 5, 2, 0), ("nearest", 5, 3, 5), ("nearest", 5, 5, 5),
    ("nearest", 5, 7, 5), ("nearest", 5, 8, 10), ("nearest", 5, 26, 25), ("nearest", 5, 28, 30),
    ("nearest", 10, 14, 10), ("nearest", 10, 15, 20), ("nearest", 4, 6, 8), ("nearest", 4, 5, 4),
    ("nearest", 3, 4, 3), ("nearest", 3, 5, 6), ("nearest", 1, 7, 7),
    ("down", 5, 4, 0), ("down", 5, 9, 5), ("down", 5, 10, 10), ("down", 3, 8, 6),
    ("up", 5, 0, 0), ("up", 5, 1, 5), ("up", 5, 2, 5), ("up", 5, 6, 10), ("up", 5, 10, 10),
    ("up", 3, 7, 9),
])
def test_round_hand(rounding: str, step: int, pips: int, counted: int) -> None:
    assert turn.round_hand(ints(rounding=Rounding(rounding), round_to=step), pips) == counted


def _settle(rules: RuleInts, pips: list[int], went_out: int) -> list[int]:
    out = [99] * len(pips)  # whatever was there before is written over
    turn.settle(rules, pips, went_out, out)
    return out


DEDUCT = R
TAKES = ints(round_end=RoundEnd.WINNER_TAKES)
BONUS = ints(round_end=RoundEnd.LIGHTEST_BONUS, bonus_divisor=5)


@pytest.mark.parametrize(("rules", "pips", "went_out", "credits"), [
    # deduct-own: each loses their own hand, rounded to 5.
    (DEDUCT, [0, 13], 0, [0, -15]),
    (DEDUCT, [12, 3], NOBODY, [-10, -5]),
    (DEDUCT, [7, 2, 18], 1, [-5, 0, -20]),
    # winner-takes: who went out gains the others' pips, rounded.
    (TAKES, [0, 13, 9], 0, [20, 0, 0]),
    (TAKES, [5, 0, 12], 1, [0, 15, 0]),
    # ... also when another hand is as light (a hand of 0-0 alone).
    (TAKES, [0, 0, 12], 1, [0, 10, 0]),
    # after a block, the lightest hand alone; a shared lightest gains nothing.
    (TAKES, [4, 13, 9], NOBODY, [20, 0, 0]),
    (TAKES, [9, 4, 13], NOBODY, [0, 20, 0]),
    (TAKES, [9, 13, 4], NOBODY, [0, 0, 20]),
    (TAKES, [4, 4, 9], NOBODY, [0, 0, 0]),
    (TAKES, [9, 4, 4], NOBODY, [0, 0, 0]),
    # lightest-bonus (divided by 5): the others' pips less its own, rounded.
    (BONUS, [3, 14], NOBODY, [2, 0]),  # 14 - 3 = 11 -> 10, / 5
    (BONUS, [0, 14], 0, [3, 0]),  # 14 -> 15, / 5
    (BONUS, [9, 4, 12], NOBODY, [0, 3, 0]),  # 21 - 4 = 17 -> 15, / 5
    (BONUS, [12, 9, 2], 2, [0, 0, 4]),  # 21 - 2 = 19 -> 20, / 5
    (BONUS, [0, 0, 12], 1, [0, 0, 0]),  # shared: who went out is no winner here
    (BONUS, [6, 6], NOBODY, [0, 0]),
])
def test_settle(rules: RuleInts, pips: list[int], went_out: int, credits: list[int]) -> None:
    assert _settle(rules, pips, went_out) == credits


def test_credit_ends_the_match_only_at_target() -> None:
    assert turn.credit_ends_match(R)
    assert not turn.credit_ends_match(ints(match_end=MatchEnd.ROUND_END))


@pytest.mark.parametrize(("scores", "deltas", "seat"), [
    ([240, 100], [15, 0], 0),
    ([240, 100], [10, 0], 0),  # exactly the target
    ([240, 100], [9, 0], NOBODY),
    ([0, 245], [0, 5], 1),
    ([260, 0], [-5, 0], NOBODY),  # a loss reaches nothing
    ([250, 0], [0, 0], NOBODY),  # no credit
    ([100, 249, 200], [-10, 1, 0], 1),
])
def test_reached(scores: list[int], deltas: list[int], seat: int) -> None:
    assert turn.reached(scores, deltas, 250) == seat
    assert turn.winner_on_credit(R, scores, deltas, 250) == seat
    assert turn.winner_at_settlement(R, scores, deltas, 250) == seat
    # Under round-end a credit during play never ends the match.
    assert turn.winner_on_credit(ints(match_end=MatchEnd.ROUND_END), scores, deltas,
                                 250) == NOBODY


@pytest.mark.parametrize(("scores", "deltas", "seat"), [
    ([190, 205], [20, -5], 0),  # 210 and 200: the highest, at or above 200
    ([190, 205], [10, -5], NOBODY),  # 200 and 200: a tie plays on
    ([150, 180], [10, 15], NOBODY),  # 160 and 195: nobody at 200
    ([150, 180], [10, 20], 1),  # 200 exactly
    ([210, 220], [0, 0], 1),
    ([150, 230, 230], [0, 0, 0], NOBODY),
    ([230, 150, 229], [0, 0, 0], 0),
    ([229, 150, 230], [0, 0, 0], 2),
    ([205, 150, 195], [-10, 0, 0], NOBODY),  # 195, 150, 195: a tie under the target
    ([205, 210, 190], [0, -10, 0], 0),  # 205, 200, 190
])
def test_winner_at_settlement_under_round_end(scores: list[int], deltas: list[int],
                                              seat: int) -> None:
    rules = ints(match_end=MatchEnd.ROUND_END)
    assert turn.winner_at_settlement(rules, scores, deltas, 200) == seat
