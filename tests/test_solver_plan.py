"""The solver's Plan: what one solve searches, as one frozen value."""

from __future__ import annotations

import dataclasses

import pytest

from muggins_cli.solver import Mode, Multi, Objective, Plan


def test_the_words_of_a_plan_are_read_into_their_enums() -> None:
    plan = Plan(mode="sample", objective="match", multi="paranoid")
    assert plan.mode is Mode.SAMPLE
    assert plan.objective is Objective.MATCH
    assert plan.multi is Multi.PARANOID


@pytest.mark.parametrize("field", ["mode", "objective", "multi"])
def test_a_word_that_names_nothing_fails_before_any_search(field: str) -> None:
    with pytest.raises(ValueError, match="bogus"):
        Plan(**{field: "bogus"})


def test_a_plan_is_never_changed_under_a_search() -> None:
    plan = Plan(mode="expect", samples=4, seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.samples = 5  # type: ignore[misc]
    other = dataclasses.replace(plan, seed=4)
    assert (plan.seed, other.seed, other.samples, other.mode) == (3, 4, 4, Mode.EXPECT)
