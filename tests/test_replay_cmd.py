"""``muggins replay``: positions drawn exactly, the tally sheet, clean
failures, and the end of a match (the last position says so and who won,
nothing is drawn past it, ``--at`` past it says why there is no such
position). The expected screens are written out by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.engine.layout import lead, place
from muggins_cli.report.board import draw_layout, tally_marks, tally_sheet
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import End, Tile

from .conftest import CLEAN_0019, RECORDS
from .test_analysis import PAGAT, SPINNER

AT_1_4 = """\
match 1, Hand-built: Ana, Budi (pagat rules, target 250)

== 1.4  Budi to move ==
                .6.
  L [1|4] [4|6] |-| R
                '6'
  open ends   L 1, R 6; total 13
  hands       Ana   0-0 1-1 2-2 3-4 4-4
            > Budi  0-2 0-5 1-2 1-3 2-3 5-5
  stock       14
  scores      Ana 0, Budi 0 (target 250)
  played      Budi: 1-3L +15
"""

SPINNER_AT_1_3 = """\
match 1: Ana, Budi (spinner rules, target 200)

== 1.3  Ana to move ==
           U
          .5.
  L [0|5] |-| R
          '5'
           D
  open ends   L 0, R 5, U 5, D 5; total 10
  hands     > Ana   0-0 1-1 1-6 2-3 3-4 4-4
              Budi  0-3 1-2 1-3 2-2 4-6 6-6
  stock       14
  scores      Ana 0, Budi 15 (target 200)
  played      Ana: 0-0L +5
  then        Budi: muggins +10

score sheet (a stroke is 5 points, the X figure 50)
  Ana         0
  Budi  |||  15
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.mgn").write_text(PAGAT, encoding="utf-8")
    (tmp_path / "s.mgn").write_text(SPINNER, encoding="utf-8")
    return tmp_path


def test_help_teaches_with_examples(runner: CliRunner) -> None:
    result = runner.invoke(app, ["replay", "--help"])
    assert result.exit_code == 0, result.output
    assert "muggins replay club.mgn --at 2.5" in result.stdout
    assert "--tally" in result.stdout and "--match" in result.stdout


def test_at_shows_one_position_exactly(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["replay", "a.mgn", "--at", "1.4"])
    assert result.exit_code == 0, result.output
    assert result.stdout == AT_1_4
    assert result.stderr == ""


def test_spinner_position_with_tally(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["replay", "s.mgn", "--at", "1.3", "--tally"])
    assert result.exit_code == 0, result.output
    assert result.stdout == SPINNER_AT_1_3
    # The record has an error further on: named once, on stderr.
    assert result.stderr == (
        "muggins replay: note: the record has 1 error, the first at line 14: "
        "muggins-invalid Budi calls muggins for 10, but only 5 went unclaimed\n")


def test_whole_match_turn_by_turn(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["replay", "a.mgn"])
    assert result.exit_code == 0, result.output
    titles = [ln for ln in result.stdout.splitlines() if ln.startswith("== ")]
    assert titles == [
        "== 1.1  Ana to move ==", "== 1.2  Budi to move ==", "== 1.3  Ana to move ==",
        "== 1.4  Budi to move ==", "== 1.5  Ana to move ==", "== 1.6  Budi to move ==",
        "== 1.7  Ana to move ==", "== 1.8  Budi to move ==", "== 1.9  Ana to move =="]
    assert "  (the table is empty)" in result.stdout
    assert "  played      Budi: d0-1 d2-4 4-2L" in result.stdout


def test_hidden_hands_are_counted(runner: CliRunner, here: Path) -> None:
    hidden = "\n".join(ln for ln in PAGAT.splitlines()
                       if not ln.startswith(("deal ", "stock "))) + "\n"
    (here / "h.mgn").write_text(hidden, encoding="utf-8")
    result = runner.invoke(app, ["replay", "h.mgn", "--at", "1.2"])
    assert result.exit_code == 0, result.output
    assert "            > Budi  7 hidden tiles\n" in result.stdout
    assert "  hands       Ana   6 hidden tiles\n" in result.stdout


def test_round_end_shows_the_settled_scores(runner: CliRunner, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    result = runner.invoke(app, ["replay", str(CLEAN_0019), "--at", "1.15"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2] == "== 1.15  end of round 1: Dewi went out =="
    assert lines[-2:] == ["  scores      Citra 25, Wayan 30, Dewi 10 (target 100)",
                          "  after the round  Citra 25, Wayan 30, Dewi 11"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.mgn"], "cannot read missing.mgn: No such file or directory"),
        (["a.mgn", "--at", "x"], "--at 'x': expected R.T, a round and a turn number such "
                                 "as 2.5 (each from 1 to 999,999,999)"),
        (["a.mgn", "--at", "3.1"], "the match has no position 3.1"),
        (["a.mgn", "--match", "2"], "a.mgn holds 1 match; there is no match 2"),
    ],
)
def test_bad_input_gives_one_line_and_status_2(runner: CliRunner, here: Path,
                                               args: list[str], message: str) -> None:
    result = runner.invoke(app, ["replay", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"muggins replay: {message}\n"


# -- the drawing and the tally ----------------------------------------------


def test_spinner_arms_are_drawn_upright_and_unlike_a_crosswise_double() -> None:
    """The up and down arms' tiles stand along their arm in square brackets,
    as the line's tiles lie along it ([5] over [3] is the 5-3 going up);
    only a double across the line (the spinner 5-5) is drawn .5. |-| '5',
    so the 5-3 is not read as a double laid crosswise. The double 3-3
    across the up arm lies as [3|3]."""
    rules = load_preset("spinner")
    layout = lead(rules, Tile(5, 5))
    for tile, end in ((Tile(5, 1), End.L), (Tile(5, 4), End.R), (Tile(5, 3), End.U),
                      (Tile(3, 3), End.U), (Tile(5, 6), End.D)):
        layout = place(rules, layout, tile, end)
    assert draw_layout(rules, layout) == [
        "         U",
        "       [3|3]",
        "        [3]",
        "        [-]",
        "        [5]",
        "        .5.",
        "L [1|5] |-| [5|4] R",
        "        '5'",
        "        [5]",
        "        [-]",
        "        [6]",
        "         D",
    ]


@pytest.mark.parametrize(
    ("points", "rows"),
    [
        (0, ("", "", "")),
        (-15, ("", "", "")),
        (5, ("", "|", "")),
        (13, ("", "|| +3", "")),
        (45, ("", "||||| ||||", "")),
        (50, (" x ", "xXx", " x ")),
        (130, (" x    x ", "xXx  xXx  ||||| |", " x    x ")),
    ],
)
def test_tally_marks(points: int, rows: tuple[str, str, str]) -> None:
    assert tally_marks(points) == rows


def test_tally_sheet_puts_raw_scores_beside_the_marks() -> None:
    assert tally_sheet(["Ana", "Budi"], [65, -5]) == [
        "score sheet (a stroke is 5 points, the X figure 50)",
        "         x",
        "  Ana   xXx  |||  65",
        "         x",
        "  Budi            -5",
    ]


@pytest.mark.parametrize("name", ["club-night-pagat-2p.mgn", "family-pagat-3p.mgn"])
def test_tally_gives_the_score_sheet_round_by_round(runner: CliRunner, name: str) -> None:
    """Under --tally a row per round: what each player's total became and
    what the round gave them, as the record's own score lines (written by
    the players after each round, and checked by `check`) say."""
    path = RECORDS / name
    written = [[int(n) for n in re.findall(r"-?\d+", line)]
               for line in path.read_text(encoding="utf-8").splitlines()
               if line.startswith("score ")]
    result = runner.invoke(app, ["replay", str(path), "--tally"])
    assert result.exit_code == 0, result.output
    sheet = result.stdout.split("round by round", 1)[1].split("score sheet (", 1)[0]
    rows = [line.split() for line in sheet.splitlines()[2:] if line.strip()]
    assert [int(row[0]) for row in rows] == list(range(1, len(written) + 1))
    before = [0] * len(written[0])
    for row, totals in zip(rows, written):
        cells = row[1:]
        assert [int(c) for c in cells[1::2]] == totals
        assert [int(c) for c in cells[0::2]] == [t - b for t, b in zip(totals, before)]
        before = totals


# -- after the match ends -------------------------------------------------

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


def _end_records(here: Path) -> None:
    (here / "target.mgn").write_text(AT_TARGET, encoding="utf-8")
    (here / "bonus.yaml").write_text(BONUS_RULES, encoding="utf-8")
    (here / "bonus.mgn").write_text(AT_BONUS, encoding="utf-8")


def test_the_last_position_says_the_match_is_over(runner: CliRunner, here: Path) -> None:
    _end_records(here)
    result = runner.invoke(app, ["replay", "target.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout == AT_TARGET_SCREEN


def test_nothing_is_drawn_past_the_end(runner: CliRunner, here: Path) -> None:
    _end_records(here)
    (here / "more.mgn").write_text(AT_TARGET + "Budi: 5-0R\nAna: 0-0R\nround 2\n",
                                   encoding="utf-8")
    result = runner.invoke(app, ["replay", "more.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout == AT_TARGET_SCREEN
    assert "after-match-end" in result.stderr


def test_at_the_end_shows_it(runner: CliRunner, here: Path) -> None:
    _end_records(here)
    result = runner.invoke(app, ["replay", "target.mgn", "--at", "1.2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[2] == (
        "== 1.2  match over: Ana reached the target of 10 and won ==")


@pytest.mark.parametrize("at", ["1.3", "2.1"])
def test_at_past_the_end_says_the_match_was_over(runner: CliRunner, here: Path,
                                                 at: str) -> None:
    _end_records(here)
    result = runner.invoke(app, ["replay", "target.mgn", "--at", at])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"muggins replay: the match has no position {at}: it was over at 1.2, "
        "when Ana reached the target of 10\n")


def test_a_match_won_by_the_round_end_bonus(runner: CliRunner, here: Path) -> None:
    _end_records(here)
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


# -- a stranger's text ------------------------------------------------------

HOSTILE = (
    '[Players "Ana\x1bc, Budi"]\n[Event "x\x1b]0;pwned\x07"]\n[Result "*"]\n'
    "round 1\nlead Ana\x1bc\nAna\x1bc: 5-5 {note \x1bM\u202e}\nBudi: 5-0R +5\n"
)


def test_record_text_is_escaped_for_the_terminal(runner: CliRunner, here: Path) -> None:
    # Budi's 5-0R scores 10, so his claim of 5 is an error, named on stderr.
    (here / "x.mgn").write_text(HOSTILE, encoding="utf-8")
    result = runner.invoke(app, ["replay", "x.mgn"])
    assert result.exit_code == 0, result.output
    for out in (result.stdout, result.stderr):
        assert not any(ch in out for ch in "\x1b\x07\u202e"), out
    assert result.stdout.splitlines()[0] == (
        "match 1, x\\x1b]0;pwned\\x07: Ana\\x1bc, Budi (pagat rules, target 250)")
    assert "  played      Ana\\x1bc: 5-5 {note \\x1bM\\u202e}" in result.stdout
    assert "Budi claims 5" in result.stderr
