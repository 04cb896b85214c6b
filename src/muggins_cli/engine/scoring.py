"""Round-end settlement and the match target (RULES.md "Play")."""

from __future__ import annotations

from collections.abc import Sequence

from muggins_cli.rules.model import RoundEnd, Rules


def settle(rules: Rules, hand_pips: Sequence[int], went_out: int | None) -> list[int]:
    """Score changes at the end of a round, one per seat.

    ``hand_pips`` are the pips each player still holds; ``went_out`` is the
    seat that placed its last tile, or None after a block.
    """
    n = len(hand_pips)
    deltas = [0] * n
    if rules.round_end is RoundEnd.DEDUCT_OWN:
        return [-rules.round_hand(p) for p in hand_pips]
    if rules.round_end is RoundEnd.WINNER_TAKES and went_out is not None:
        winner = went_out
    else:
        lightest = min(hand_pips)
        seats = [i for i, p in enumerate(hand_pips) if p == lightest]
        if len(seats) != 1:
            return deltas  # a shared lightest hand gains nothing (decided)
        winner = seats[0]
    others = sum(hand_pips) - hand_pips[winner]
    if rules.round_end is RoundEnd.LIGHTEST_BONUS:
        deltas[winner] = rules.round_hand(others - hand_pips[winner]) // rules.bonus_divisor
    else:
        deltas[winner] = rules.round_hand(others)
    return deltas


def reached(scores: Sequence[int], deltas: Sequence[int], target: int) -> int | None:
    """The seat that a credit of ``deltas`` takes to the target, if any.

    A credit ends the match the moment it reaches the target, and a round end
    gives a gain to one player at most, so there is at most one such seat.
    """
    for i, (s, d) in enumerate(zip(scores, deltas)):
        if d > 0 and s + d >= target:
            return i
    return None
