"""``muggins solve`` through the Typer app (CliRunner), on a small record."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.analysis.solving import playable_position, position_problem
from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.reading import read_match, read_record_text
from muggins_cli.replay.position import Position
from muggins_cli.replay.replay import position_at
from muggins_cli.rules.resolve import resolver_for
from muggins_cli.solver import Plan, solve
from muggins_cli.solver import common as solver_common
from muggins_cli.solver.knowledge import Sampler
from muggins_cli.tiles import Tile
from tests.records import IMPOSSIBLE

runner = CliRunner()

HEAD = """[Players "Siti Rahma, Nyoman"]
[Rules "pagat"]
[Result "*"]

round 1
lead Nyoman
"""
DEALS = """deal Siti Rahma 4-6 1-2 0-0 3-0 3-3 5-5 6-1
deal Nyoman 3-2 3-4 6-6 0-2 5-6 1-1 0-6
"""
STOCK = "stock 0-5 0-4 3-5 2-2 4-5 1-4 3-6 2-6 1-3 4-4 1-0 1-5 2-4 5-2\n"
TURNS = """Nyoman: 3-2
Siti Rahma: 3-3
Nyoman: 3-4
Siti Rahma: 6-4
Nyoman: 0-2
Siti Rahma: 1-6
Nyoman: 6-0 +0
Siti Rahma: 2-1L
Nyoman: 5-6
Siti Rahma: 5-5
Nyoman: d0-5 5-0
Siti Rahma: 0-0
Nyoman: d0-4 4-0
Siti Rahma: d3-5 d2-2 2-2
Nyoman: d4-5 4-5
Siti Rahma: 5-3
"""


def _record(tmp_path: Path, *, deals: bool = True, stock: bool = True) -> str:
    text = HEAD + (DEALS if deals else "") + (STOCK if stock else "") + TURNS
    if not deals:
        for face in ("d0-5", "d0-4", "d3-5", "d2-2", "d4-5"):
            text = text.replace(face, "d??")
    path = tmp_path / "club.mgn"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _position(path: str, at: str) -> Position:
    """The replay's position, independently of the command."""
    match = parse_text(read_record_text(path))[0]
    return position_at(match, resolver_for(path), at)


def test_json_has_exactly_the_documented_fields(tmp_path: Path) -> None:
    path = _record(tmp_path)
    result = runner.invoke(app, ["solve", path, "--at", "1.5", "--mode", "perfect",
                                 "--objective", "points", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"position", "to_move", "mode", "objective", "exact", "moves",
                        "sampled_line", "best", "value", "nodes", "seconds"}
    assert doc["sampled_line"] is False  # every hand seen: the recorded deal
    assert doc["position"] == "1.5" and doc["to_move"] == "Nyoman" and doc["mode"] == "perfect"
    assert doc["exact"] is True
    assert all(set(m) == {"move", "value", "error", "pv"} for m in doc["moves"])
    assert all(m["error"] is None for m in doc["moves"])  # exact
    pos = _position(path, "1.5")
    api = solve(pos.rules, pos.state(), scores=pos.scores, target=pos.target)
    assert [m["move"] for m in doc["moves"]] == [str(m.move) for m in api.moves]
    assert [m["value"] for m in doc["moves"]] == [m.value for m in api.moves]
    assert doc["best"] == str(api.best) and doc["value"] == api.value
    best = next(m for m in doc["moves"] if m["move"] == doc["best"])
    assert best["pv"][0].startswith(f"Nyoman: {doc['best']}")
    assert all(line.split(": ")[0] in ("Nyoman", "Siti Rahma") for line in best["pv"])


def test_text_output_lists_every_play_and_the_variation(tmp_path: Path) -> None:
    path = _record(tmp_path)
    result = runner.invoke(app, ["solve", path, "--at", "1.5", "--mode", "perfect"])
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert out[0].startswith("position 1.5: Nyoman to move; mode perfect")
    assert any(line.startswith("best: ") for line in out)
    assert "principal variation:" in out
    assert out[-1].startswith("exact: yes; nodes ")
    assert result.stderr == ""


RECORDS = Path(__file__).resolve().parents[1] / "records"


def test_a_won_match_is_said_in_words_and_a_draw_with_the_play_after_it() -> None:
    """Club record, 11.12: Ana (245, target 250) must draw; she draws 0-3
    and plays it on the 3 (R) for 5 (the ends 5 and 0): 250, the match.
    The move is her turn, d0-3 0-3R, worth +5 and "wins the match", not
    d0-3 +100005."""
    result = runner.invoke(app, ["solve", str(RECORDS / "club-night-pagat-2p.mgn"),
                                 "--at", "11.12", "--mode", "perfect", "--objective", "match"])
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert "100005" not in result.stdout and "100000" not in result.stdout
    moves = [line.split() for line in out if line.startswith("  d")]
    assert moves == [["d0-3", "0-3R", "+5", "wins", "the", "match", "best"]]
    assert "best: d0-3 0-3R (+5, wins the match)" in out
    assert out[out.index("principal variation:") + 1] == "  Ana: d0-3 0-3R +5"
    doc = json.loads(runner.invoke(app, ["solve", str(RECORDS / "club-night-pagat-2p.mgn"),
                                         "--at", "11.12", "--mode", "perfect", "--objective",
                                         "match", "--json"]).stdout)
    assert doc["objective"] == "match"
    assert [(m["move"], m["match"]) for m in doc["moves"]] == [
        ("d0-3", {"wins": 1, "losses": 0, "of": 1, "points": 5})]
    points = runner.invoke(app, ["solve", str(RECORDS / "club-night-pagat-2p.mgn"),
                                 "--at", "11.12", "--mode", "perfect", "--objective", "points"])
    assert "  d0-3 0-3R        +5  best" in points.stdout.splitlines()


def test_one_rounding_for_every_value_of_an_answer() -> None:
    """Three players, paranoid: a value is the mover's points less the two
    others' average, so halves come up (spinner record, 1.2: -21, +1.5 and
    -12). Every value of the answer is then written with one decimal, as
    the analysis writes points; none with two, none bare beside them."""
    path = str(RECORDS / "spinner-3p.mgn")
    result = runner.invoke(app, ["solve", path, "--at", "1.2", "--mode", "perfect"])
    assert result.exit_code == 0, result.output
    pos = _position(path, "1.2")
    api = solve(pos.rules, pos.state(), scores=pos.scores, target=pos.target,
                plan=Plan(multi="paranoid"))
    values = [m.value for m in api.moves]
    assert any(v is not None and not float(v).is_integer() for v in values)
    assert any(v is not None and float(v).is_integer() for v in values)
    listed = [line.split()[-2] if line.endswith("best") else line.split()[-1]
              for line in result.stdout.splitlines()
              if line.startswith("  ") and line.split()[0] in {str(m.move) for m in api.moves}]
    assert listed == [f"{v:+.1f}" for v in values]


def test_by_default_the_movers_view_and_the_match_as_analyze_and_arena() -> None:
    """No --mode: the view analyze and study judge by (the mover's, which
    needs no stock line), 64 deals for two players as the solver strategy
    takes; no --objective: the match, as selfplay and arena play it."""
    text = HEAD + DEALS + TURNS
    result = runner.invoke(app, ["solve", "-", "--at", "1.5", "--json"], input=text)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["mode"], doc["objective"]) == ("sample", "match")
    assert {m["deals"] for m in doc["moves"]} == {64}


def test_perfect_without_a_stock_line_is_refused(tmp_path: Path) -> None:
    path = _record(tmp_path, stock=False)
    result = runner.invoke(app, ["solve", path, "--at", "1.5", "--mode", "perfect"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "stock order" in result.stderr
    ok = runner.invoke(app, ["solve", path, "--at", "1.9", "--mode", "expect", "--nodes",
                             "200000", "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["mode"] == "expect"


def test_modes_need_what_they_read(tmp_path: Path) -> None:
    path = _record(tmp_path, deals=False, stock=False)
    for mode in ("expect", "sample"):
        result = runner.invoke(app, ["solve", path, "--at", "1.5", "--mode", mode])
        assert result.exit_code == 2, result.output
        assert len(result.stderr.splitlines()) == 1


def test_sample_mode_is_seeded(tmp_path: Path) -> None:
    path = _record(tmp_path)
    args = ["solve", path, "--at", "1.6", "--mode", "sample", "--samples", "4", "--json"]
    a = runner.invoke(app, [*args, "--seed", "3"])
    b = runner.invoke(app, [*args, "--seed", "3"])
    assert a.exit_code == 0, a.output
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    assert da["moves"] == db["moves"] and da["exact"] is False


def test_sampled_values_carry_their_standard_error(tmp_path: Path) -> None:
    path = _record(tmp_path)
    result = runner.invoke(app, ["solve", path, "--at", "1.6", "--mode", "sample", "--samples",
                                 "6", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    pos = _position(path, "1.6")
    api = solve(pos.rules, pos.view(), Plan(mode="sample", samples=6, seed=2))
    for m, mv in zip(doc["moves"], api.moves):
        assert len(mv.deals) == 6
        assert m["error"] == pytest.approx(statistics.stdev(mv.deals) / math.sqrt(6))
    text = runner.invoke(app, ["solve", path, "--at", "1.6", "--mode", "sample", "--samples",
                               "6", "--seed", "2"])
    assert "(± one standard error over the deals)" in text.stdout
    assert text.stdout.count(" ± ") >= len(doc["moves"]) + 1


def test_help_states_the_tie_break() -> None:
    result = runner.invoke(app, ["solve", "--help"])
    assert result.exit_code == 0
    assert "best opponent does worst" in " ".join(result.stdout.split())


def test_ctrl_c_prints_the_best_answer_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _record(tmp_path)
    calls = {"n": 0}

    def interrupt(self: solver_common.Budget) -> None:
        calls["n"] += 1
        if calls["n"] >= 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(solver_common.Budget, "check", interrupt)
    result = runner.invoke(app, ["solve", path, "--at", "1.1"])
    # The best answer so far is printed, and the run says it was stopped.
    assert result.exit_code == 130, result.output
    assert "interrupted: best answer so far" in result.stdout


def test_voids_carry_the_draws_kept_since(tmp_path: Path) -> None:
    """Each void a draw showed allows as many tiles with its pips as the seat
    has drawn and kept since: Nyoman placed every tile he drew, so his voids
    still hold; Siti kept 3-5 from the turn that showed hers, which does not
    fit the ends she lacked. The history shows other seats' draws face down."""
    path = _record(tmp_path)
    pos, history = playable_position(read_match(path, 1), record_resolver(path), "1.16")
    assert [(v.seat, v.drawn_since) for v in pos.voids] == [(1, 0), (1, 0), (0, 0), (1, 0)]
    assert history[-3:] == ["Nyoman: d?? 0-4", "Siti Rahma: d3-5 d2-2 2-2", "Nyoman: d?? 4-5"]
    result = runner.invoke(app, ["solve", path, "--at", "1.16", "--mode", "sample",
                                 "--samples", "3"])
    assert result.exit_code == 0, result.output




@pytest.mark.parametrize("mode", ["perfect", "expect", "sample"])
def test_a_position_no_deal_can_reach_is_refused_in_every_mode(tmp_path: Path,
                                                                mode: str) -> None:
    """Ana is dealt 8 tiles, and 5-6 is both in her hand and in the stock
    (two bad-deal errors): 7 + 6 in the hands, 14 in the stock and 2 on the
    table make 29 tiles of a set of 28 (the replay keeps no stock order it
    found wrong, so only the count tells). No mode values such a position."""
    path = tmp_path / "impossible.mgn"
    path.write_text(IMPOSSIBLE, encoding="utf-8")
    result = runner.invoke(app, ["solve", str(path), "--at", "1.3", "--mode", mode])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == (
        "muggins solve: position 1.3 cannot be played: the hands, the stock and the table "
        "hold 29 tiles, and a double-6 set has 28 (the record has 2 errors, the first at "
        "line 7: bad-deal Ana "
        "is dealt 8 tiles; with 2 players a hand is 7)\n")


def test_a_tile_in_two_places_or_off_the_set_is_named(tmp_path: Path) -> None:
    """The clean record's position 1.3 is playable; the same position with
    a hand's tile also in the stock, or a tile of a larger set, is not."""
    path = _record(tmp_path)
    pos = position_at(read_match(path, 1), record_resolver(path), "1.3")
    assert position_problem(pos) is None
    assert pos.stock is not None
    hand = pos.hands[pos.to_move]
    assert hand is not None
    tile = min(hand)
    twice = dataclasses.replace(pos, stock=(*pos.stock[:-1], tile))
    name = pos.players[pos.to_move]
    assert position_problem(twice) == f"{tile} is both in {name}'s hand and in the stock"
    off = dataclasses.replace(pos, stock=(*pos.stock[:-1], Tile(6, 7)))
    assert position_problem(off) == "6-7 is not in a double-6 set"


def test_a_budget_too_small_for_one_deal_still_values_every_play(tmp_path: Path) -> None:
    """``--nodes 1`` runs out inside the first sampled deal: rather than a
    ``?`` for every play, that deal is solved whole past the budget, and the
    values are that deal's perfect-information values (the sampler's first
    deal for the seed, solved here in perfect mode), with a note."""
    path = _record(tmp_path)
    args = ["solve", path, "--at", "1.6", "--mode", "sample", "--nodes", "1", "--seed", "4"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    pos = _position(path, "1.6")
    first = Sampler(pos.view(), random.Random(4)).deal()
    exact = solve(pos.rules, first, scores=pos.scores, target=pos.target, plan=Plan(mode="perfect",
                  multi="paranoid", pv=False))
    assert [m["move"] for m in doc["moves"]] == [str(m.move) for m in exact.moves]
    assert [m["value"] for m in doc["moves"]] == [m.value for m in exact.moves]
    assert all(m["deals"] == 1 for m in doc["moves"])
    text = runner.invoke(app, args).stdout
    assert " ?" not in text
    assert "the first deal was solved whole past it" in text
    assert "principal variation" in text
