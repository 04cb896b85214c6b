"""Round-end settlement and the match target (docs/rules.md "Play").

Who wins, and when, is decided here for every caller (replay, self-play, the
solver), so ``match_end`` is read in one place: a credit ends the match only
under ``at-target``; a settlement ends it under either rule, each in its way.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from muggins_cli.engine import keys, turn
from muggins_cli.engine.table import table_for
from muggins_cli.rules.model import Rules


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
    """Score changes at the end of a round, one per seat (the rule is
    :func:`muggins_cli.engine.turn.settle`).

    ``hand_pips`` are the pips each player still holds; ``went_out`` is the
    seat that placed its last tile, or None after a block.
    """
    out = [0] * len(hand_pips)
    turn.settle(table_for(rules).r, hand_pips, turn.NOBODY if went_out is None else went_out,
                out)
    return out


def score_of(rules: Rules, total: int) -> int:
    """Points a placement earns when the open ends add up to ``total``
    (:func:`muggins_cli.engine.keys.score`)."""
    return keys.score(table_for(rules).r, total)


def round_hand(rules: Rules, pips: int) -> int:
    """A hand rounded as every settlement rounds it
    (:func:`muggins_cli.engine.turn.round_hand`)."""
    return turn.round_hand(table_for(rules).r, pips)


def credit_ends_match(rules: Rules) -> bool:
    """Whether a credit during play (not only a settlement) can end the
    match: under ``at-target`` it does the moment it reaches the target."""
    return turn.credit_ends_match(table_for(rules).r)


def _seat(seat: int) -> int | None:
    return None if seat == turn.NOBODY else seat


def winner_on_credit(rules: Rules, scores: Sequence[int], deltas: Sequence[int],
                     target: int) -> int | None:
    """The seat a credit during play (a placement, a muggins call) makes the
    winner (:func:`muggins_cli.engine.turn.winner_on_credit`)."""
    return _seat(turn.winner_on_credit(table_for(rules).r, scores, deltas, target))


def winner_at_settlement(rules: Rules, scores: Sequence[int], deltas: Sequence[int],
                         target: int) -> int | None:
    """The seat that wins when the settlement ``deltas`` is applied to
    ``scores``, or None when another round is played
    (:func:`muggins_cli.engine.turn.winner_at_settlement`)."""
    return _seat(turn.winner_at_settlement(table_for(rules).r, scores, deltas, target))


def reached(scores: Sequence[int], deltas: Sequence[int], target: int) -> int | None:
    """The seat that a credit of ``deltas`` takes to the target, if any."""
    return _seat(turn.reached(scores, deltas, target))
