"""The rules value: every parameter of docs/rules.md, frozen.

The engine branches on these fields and nothing else, so a new variant is a
new YAML file rather than new code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Spinner(str, Enum):
    NONE = "none"
    FIRST_DOUBLE = "first-double"


class SpinnerCount(str, Enum):
    EXPOSED_ENDS = "exposed-ends"
    UNTIL_SIDES_COVERED = "until-sides-covered"


class ScoreValue(str, Enum):
    RAW = "raw"
    MULTIPLES = "multiples"


class RoundEnd(str, Enum):
    DEDUCT_OWN = "deduct-own"
    LIGHTEST_BONUS = "lightest-bonus"
    WINNER_TAKES = "winner-takes"


class MatchEnd(str, Enum):
    AT_TARGET = "at-target"
    ROUND_END = "round-end"


class Rounding(str, Enum):
    NEAREST = "nearest"
    DOWN = "down"
    UP = "up"


class LeadTile(str, Enum):
    ANY = "any"
    HIGHEST_DOUBLE = "highest-double"


@dataclass(frozen=True)
class Rules:
    """A complete, validated rules preset (see docs/rules.md for each field)."""

    name: str = "pagat"
    max_pip: int = 6
    players: tuple[int, ...] = (2, 3, 4)
    hand_size: dict[int, int] = field(default_factory=lambda: {2: 7, 3: 5, 4: 5})
    stock_reserve: int = 0
    spinner: Spinner = Spinner.NONE
    spinner_sides_first: bool = False
    spinner_count: SpinnerCount = SpinnerCount.EXPOSED_ENDS
    modulus: int = 5
    score_value: ScoreValue = ScoreValue.RAW
    must_play: bool = True
    round_end: RoundEnd = RoundEnd.DEDUCT_OWN
    round_to: int = 5
    bonus_divisor: int = 1
    target: dict[int, int] = field(default_factory=lambda: {2: 250, 3: 200, 4: 200})
    muggins: bool = False
    match_end: MatchEnd = MatchEnd.AT_TARGET
    rounding: Rounding = Rounding.NEAREST
    lead_tile: LeadTile = LeadTile.ANY

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def has_spinner(self) -> bool:
        return self.spinner is not Spinner.NONE

    def target_for(self, players: int) -> int:
        return self.target[players]

    def hand_size_for(self, players: int) -> int:
        return self.hand_size[players]
