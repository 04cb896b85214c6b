"""``muggins replay`` once the match is over: the last position says so and
who won, nothing is drawn past it, and ``--at`` past it says why there is no
such position. The expected screens are written out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app

# Pagat, target 10: Ana's lead 5-5 scores 10 and ends the match at once.
AT_TARGET = """\
[Players "Ana, Budi"]
[Target "10"]
[Result "Ana"]

round 1
lead Ana
Ana: 5-5 +10
"""

AT_TARGET_SCREEN = """\
match 1: Ana, Budi (pagat rules, target 10)

== 1.1  Ana to move ==
  (the table is empty)
  hands     > Ana   7 hidden tiles
              Budi  7 hidden tiles
  stock       14
  scores      Ana 0, Budi 0 (target 10)
  played      Ana: 5-5 +10

== 1.2  match over: Ana reached the target of 10 and won ==
    .5.
  L |-| R
    '5'
  open ends   L 5, R 5; total 10
  hands       Ana   6 hidden tiles
              Budi  7 hidden tiles
  stock       14
  scores      Ana 10, Budi 0 (target 10)
"""

# Two tiles each, the lightest hand takes the bonus: Ana leads 1-2 (3),
# Budi 2-4R (1 + 4 = 5, his +5), Ana 3-4R goes out (1 + 3 = 4). Budi holds
# 6-6, 12 pips, rounded to 10: Ana's bonus of 10 reaches the target of 10.
BONUS_RULES = "base: pagat\nhand_size: {2: 2}\nround_end: lightest-bonus\nbonus_divisor: 1\n" \
    "target: {2: 10}\n"
AT_BONUS = """\
[Players "Ana, Budi"]
[Rules "bonus.yaml"]
[Result "Ana"]

round 1
lead Ana
deal Ana 1-2 3-4
deal Budi 2-4 6-6
Ana: 1-2
Budi: 2-4R +5
Ana: 3-4R
"""

AT_BONUS_END = """\
== 1.4  end of round 1: Ana went out; match over: Ana reached the target of 10 and won ==
  L [1|2] [2|4] [4|3] R
  open ends   L 1, R 3; total 4
  hands       Ana   (no tiles)
              Budi  6-6
  stock       24
  scores      Ana 0, Budi 5 (target 10)
  after the round  Ana 10, Budi 5
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "target.mgn").write_text(AT_TARGET, encoding="utf-8")
    (tmp_path / "bonus.yaml").write_text(BONUS_RULES, encoding="utf-8")
    (tmp_path / "bonus.mgn").write_text(AT_BONUS, encoding="utf-8")
    return tmp_path


def test_the_last_position_says_the_match_is_over(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["replay", "target.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout == AT_TARGET_SCREEN


def test_nothing_is_drawn_past_the_end(runner: CliRunner, here: Path) -> None:
    (here / "more.mgn").write_text(AT_TARGET + "Budi: 5-0R\nAna: 0-0R\nround 2\n",
                                   encoding="utf-8")
    result = runner.invoke(app, ["replay", "more.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout == AT_TARGET_SCREEN
    assert "after-match-end" in result.stderr


def test_at_the_end_shows_it(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["replay", "target.mgn", "--at", "1.2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[2] == (
        "== 1.2  match over: Ana reached the target of 10 and won ==")


@pytest.mark.parametrize("at", ["1.3", "2.1"])
def test_at_past_the_end_says_the_match_was_over(runner: CliRunner, here: Path,
                                                 at: str) -> None:
    result = runner.invoke(app, ["replay", "target.mgn", "--at", at])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"muggins replay: the match has no position {at}: it was over at 1.2, "
        "when Ana reached the target of 10\n")


def test_a_match_won_by_the_round_end_bonus(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["replay", "bonus.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\n\n" + AT_BONUS_END)
    assert "match over" not in result.stdout[: -len(AT_BONUS_END)]



# Pagat, two tiles each, target 5: Ana leads 0-1 (1), Budi 1-4R (0 + 4 = 4),
# Ana goes out with 4-5R (0 + 5 = 5) and reaches the target with it: the
# match ends there, so no settlement follows (Budi keeps his 6-6).
GOING_OUT = """\
[Players "Ana, Budi"]
[Rules "two.yaml"]
[Result "Ana"]

round 1
lead Ana
deal Ana 0-1 4-5
deal Budi 1-4 6-6
Ana: 0-1
Budi: 1-4R
Ana: 4-5R +5
Budi: pass
"""

GOING_OUT_END = """\
== 1.4  end of round 1: Ana went out; match over: Ana reached the target of 5 and won ==
  L [0|1] [1|4] [4|5] R
  open ends   L 0, R 5; total 5
  hands       Ana   (no tiles)
              Budi  6-6
  stock       24
  scores      Ana 5, Budi 0 (target 5)
"""


def test_going_out_onto_the_target_ends_the_match(runner: CliRunner, here: Path) -> None:
    (here / "two.yaml").write_text("base: pagat\nhand_size: {2: 2}\ntarget: {2: 5}\n",
                                   encoding="utf-8")
    (here / "out.mgn").write_text(GOING_OUT, encoding="utf-8")
    result = runner.invoke(app, ["replay", "out.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\n\n" + GOING_OUT_END)
    titles = [ln for ln in result.stdout.splitlines() if ln.startswith("==")]
    assert titles[:-1] == ["== 1.1  Ana to move ==", "== 1.2  Budi to move ==",
                           "== 1.3  Ana to move =="]
