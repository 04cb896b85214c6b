"""Round-end settlement and the match target (docs/rules.md "Play").

Who wins, and when, is decided here for every caller (replay, self-play, the
solver), so ``match_end`` is read in one place: a credit ends the match only
under ``at-target``; a settlement ends it under either rule, each in its way.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from muggins_cli.rules.model import MatchEnd, RoundEnd, Rules


class EndReason(str, Enum):
    """Why a match ended, for displays that must say it (no text here)."""

    #: ``at-target``: a placement's score took the winner to the target.
    PLACEMENT = "placement"
    #: ``at-target``: a muggins call took the caller to the target.
    MUGGINS = "muggins"
    #: ``at-target``: the round-end settlement took the winner to the target.
    SETTLEMENT = "settlement"
    #: ``round-end``: after a settlement the winner's total was the highest,
    #: alone, and at or above the target.
    ROUND_END = "round-end"


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


def credit_ends_match(rules: Rules) -> bool:
    """Whether a credit during play (not only a settlement) can end the
    match: under ``at-target`` it does the moment it reaches the target."""
    return rules.match_end is MatchEnd.AT_TARGET


def winner_on_credit(rules: Rules, scores: Sequence[int], deltas: Sequence[int],
                     target: int) -> int | None:
    """The seat a credit during play (a placement, a muggins call) makes the
    winner: the one it takes to the target under ``at-target``; nobody under
    ``round-end``, where play always finishes the round."""
    if not credit_ends_match(rules):
        return None
    return reached(scores, deltas, target)


def winner_at_settlement(rules: Rules, scores: Sequence[int], deltas: Sequence[int],
                         target: int) -> int | None:
    """The seat that wins when the settlement ``deltas`` is applied to
    ``scores``, or None when another round is played.

    ``at-target``: the seat the settlement's credit takes to the target.
    ``round-end``: the highest total after it, when it is at or above the
    target and nobody shares it (a tie for the highest plays on).
    """
    if rules.match_end is MatchEnd.AT_TARGET:
        return reached(scores, deltas, target)
    after = [s + d for s, d in zip(scores, deltas)]
    top = max(after)
    if top < target or after.count(top) > 1:
        return None
    return after.index(top)


def reached(scores: Sequence[int], deltas: Sequence[int], target: int) -> int | None:
    """The seat that a credit of ``deltas`` takes to the target, if any.

    A credit ends the match the moment it reaches the target, and a round end
    gives a gain to one player at most, so there is at most one such seat.
    """
    for i, (s, d) in enumerate(zip(scores, deltas)):
        if d > 0 and s + d >= target:
            return i
    return None
