"""``muggins arena``: duplicate format, Wilson intervals, the table and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.batch import TaskPool
from muggins_cli.check import check_file
from muggins_cli.cli import app
from muggins_cli.notation import model as m
from muggins_cli.notation.parser import parse_text
from muggins_cli.play.arena import (
    ArenaSpec,
    DealSequence,
    Game,
    play_pair,
    run_arena,
    tally,
    wilson,
)
from muggins_cli.rules.loader import load_preset

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


# ----------------------------------------------------------------------
# Wilson


@pytest.mark.parametrize(
    ("wins", "n", "lo", "hi"),
    [
        # R: prop.test(x, n, correct = FALSE)$conf.int
        (80, 100, 0.7111708, 0.8666331),
        (0, 10, 0.0, 0.2775328),
        (10, 10, 0.7224672, 1.0),
        (5, 10, 0.2365931, 0.7634069),
        (170, 200, 0.7939442, 0.8928641),
    ],
)
def test_wilson_known_numbers(wins: int, n: int, lo: float, hi: float) -> None:
    got = wilson(wins, n)
    assert got == pytest.approx((lo, hi), abs=1e-6)


def test_wilson_no_games() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


# ----------------------------------------------------------------------
# Duplicate format


def _rounds(match: m.Match) -> list[tuple[dict[int, tuple[str, ...]], tuple[str, ...], int | None]]:
    """Per round: deals by seat, stock, and the seat of a ``lead`` line."""
    players = [p.strip() for p in next(t.value for t in match.tags if t.name == "Players")
               .split(",")]
    out: list[tuple[dict[int, tuple[str, ...]], tuple[str, ...], int | None]] = []
    for line in match.body:
        if isinstance(line, m.RoundLine):
            out.append(({}, (), None))
        elif isinstance(line, m.DealLine):
            out[-1][0][players.index(line.player)] = tuple(str(t.tile) for t in line.tiles)
        elif isinstance(line, m.StockLine):
            out[-1] = (out[-1][0], tuple(str(t.tile) for t in line.tiles), out[-1][2])
        elif isinstance(line, m.LeadLine):
            out[-1] = (out[-1][0], out[-1][1], players.index(line.player))
    return out


@pytest.mark.parametrize("players", [2, pytest.param(3, marks=pytest.mark.slow),
                                     pytest.param(4, marks=pytest.mark.slow)])
def test_both_legs_see_the_same_deals_with_seats_swapped(players: int) -> None:
    spec = ArenaSpec("greedy", "random", load_preset("pagat"), players=players, seed=9)
    for pair in range(3):
        first, second = play_pair(spec, pair, keep_records=True)
        assert first.sides == tuple(i % 2 for i in range(players))
        assert second.sides == tuple(1 - s for s in first.sides)
        assert first.record is not None and second.record is not None
        names1 = next(t.value for t in first.record.tags if t.name == "Players").split(", ")
        names2 = next(t.value for t in second.record.tags if t.name == "Players").split(", ")
        strat1 = next(t.value for t in first.record.tags if t.name == "Strategies")
        strat2 = next(t.value for t in second.record.tags if t.name == "Strategies")
        if players == 2:
            assert names1 == ["greedy", "random"] and names2 == ["random", "greedy"]
        assert strat1.split(", ") == [("greedy", "random")[s] for s in first.sides]
        assert strat2.split(", ") == [("greedy", "random")[s] for s in second.sides]
        r1, r2 = _rounds(first.record), _rounds(second.record)
        common = min(len(r1), len(r2))
        assert common >= 1
        for (deals1, stock1, lead1), (deals2, stock2, lead2) in zip(r1[:common], r2[:common]):
            assert deals1 == deals2  # seat i gets the same tiles in both legs
            assert stock1 == stock2
            if lead1 is not None and lead2 is not None:
                assert lead1 == lead2  # the same lot
        assert r1[0][2] == r2[0][2] is not None
    # Different pairs see different deals.
    rec0, rec1 = play_pair(spec, 0, True)[0].record, play_pair(spec, 1, True)[0].record
    assert rec0 is not None and rec1 is not None
    assert _rounds(rec0)[0] != _rounds(rec1)[0]


def test_deal_sequence_is_drawn_once_in_round_order() -> None:
    rules = load_preset("pagat")
    a = DealSequence(rules, 2, "x")
    b = DealSequence(rules, 2, "x")
    third = a(3)  # asking for round 3 first draws rounds 1 and 2 before it
    assert b(1) == a(1) and b(2) == a(2) and b(3) == third
    assert a(1) != a(2)
    assert len(a(1).hands[0]) == 7 and len(a(1).stock) == 14


def test_jobs_do_not_change_the_result() -> None:
    spec = ArenaSpec("greedy", "random", load_preset("spinner"), seed=4)
    one = run_arena(spec, 4)
    with TaskPool(2) as pool:
        two = run_arena(spec, 4, pool=pool)
    assert one.games == two.games
    assert [vars(s) for s in one.sides] == [vars(s) for s in two.sides]


def test_tally() -> None:
    spec = ArenaSpec("solver", "greedy", load_preset("pagat"))
    games = [
        Game(0, 0, (0, 1), (250, 100), 0, 10),
        Game(0, 1, (1, 0), (120, 255), 1, 11),
        Game(1, 0, (0, 1), (40, 250), 1, 5),
        Game(1, 1, (1, 0), (250, 0), 0, 4),
    ]
    result = tally(spec, games)
    a, b = result.sides
    assert (a.name, a.games, a.wins) == ("solver", 4, 2)
    assert (b.name, b.games, b.wins) == ("greedy", 4, 2)
    assert a.points == 250 + 255 + 40 + 0 and a.seat_rounds == 30
    assert a.points_per_round == pytest.approx(545 / 30)
    assert result.swept == (1, 1) and result.split == 0
    assert result.pairs == 2 and result.matches == 4


# ----------------------------------------------------------------------
# The command


def test_arena_table() -> None:
    code, stdout, stderr = run("greedy", "random", "--matches", "3", "--seed", "1")
    assert code == 0, stderr
    lines = stdout.splitlines()
    assert lines[0] == ("pagat, 2 players, to 250: 3 deal sequences, each played twice with "
                        "the seats swapped (6 matches)")
    assert lines[2].split() == ["strategy", "matches", "wins", "win", "rate", "95%", "interval",
                                "points/round"]
    assert lines[4].split()[:2] == ["greedy", "6"]
    assert lines[5].split()[:2] == ["random", "6"]
    assert lines[-1].startswith("deal sequences won in both seats: greedy ")
    assert stderr.startswith("played 3 deal sequences\n6 matches in ")


def test_arena_json_and_records(tmp_path: Path) -> None:
    out = tmp_path / "arena.mgn"
    code, stdout, stderr = run("greedy", "greedy", "--rules", "all-threes", "--players", "3",
                               "--matches", "2", "--json", "-q", "-o", str(out))
    assert code == 0, stderr
    assert stderr == ""
    doc = json.loads(stdout)
    assert doc["pairs"] == 2 and doc["matches"] == 4 and doc["players"] == 3
    names = [s["name"] for s in doc["strategies"]]
    assert names == ["greedy-a", "greedy-b"]
    for s in doc["strategies"]:
        assert s["matches"] == 4
        lo, hi = s["interval95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
    assert sum(s["wins"] for s in doc["strategies"]) == 4
    report = check_file(str(out))
    assert report.diagnostics == []
    assert len(report.matches) == 4
    players = [mt.players for mt in report.matches]
    assert players[0] == ["greedy-a1", "greedy-b1", "greedy-a2"]
    assert players[1] == ["greedy-b1", "greedy-a1", "greedy-b2"]
    assert len(parse_text(out.read_text())) == 4


def test_arena_is_seeded() -> None:
    first = run("random", "greedy", "--matches", "2", "--seed", "5", "--json", "-q")
    again = run("random", "greedy", "--matches", "2", "--seed", "5", "--json", "-q")
    assert first[0] == 0 and first[1] == again[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "minimax"], "unknown strategy 'minimax'"),
        (["solvr", "greedy"], "unknown strategy 'solvr'"),
        (["greedy", "random", "--rules", "nosuch"], "nosuch"),
    ],
)
def test_arena_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    code, stdout, stderr = run(*args, "--matches", "1")
    assert code == 2
    assert stdout == ""
    assert stderr.startswith("muggins arena: ")
    assert stderr.count("\n") == 1
    assert message in stderr


def test_arena_help_teaches_with_an_example() -> None:
    result = runner.invoke(app, ["arena", "--help"])
    assert result.exit_code == 0
    assert "muggins arena greedy random --sequences 100" in result.stdout
