"""The ladder's opponents (defensive, expectimax, the cheating oracle), the
one-against-the-rest arena, and the ladder's table and ratings."""

from __future__ import annotations

import json
import math
import random

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.engine.layout import Layout, lead, place
from muggins_cli.engine.state import Move, Place, RoundState, legal_moves
from muggins_cli.engine.view import SeatView, SeenMove, view_of
from muggins_cli.engine.voids import Void
from muggins_cli.errors import InputError
from muggins_cli.play.arena import ArenaSpec, Game, play_pair, run_arena, tally
from muggins_cli.play.defensive import DefensiveStrategy, expected_best
from muggins_cli.play.expectimax import ExpectimaxStrategy
from muggins_cli.play.ladder import Rung, ladder_json, pairings, ratings, run_ladder
from muggins_cli.play.strategies import (
    FullStrategy,
    GreedyStrategy,
    OracleStrategy,
    RandomStrategy,
    SeenStrategy,
    greedy_seen,
    make_strategy,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import End, Tile, full_set
from tests.test_selfplay_solver import blind, positions, reshuffled

runner = CliRunner()
PAGAT = load_preset("pagat")


def small_expectimax() -> ExpectimaxStrategy:
    return ExpectimaxStrategy(depth=3, node_limit=3_000)


# ----------------------------------------------------------------------
# What each strategy may read


@pytest.mark.parametrize("preset", ["pagat", "spinner"])
def test_fair_strategies_read_no_hidden_tile(preset: str) -> None:
    """Every hand but the mover's, and the stock, raise when read: the
    strategies decide all the same (a view is built from sizes alone)."""
    rules = load_preset(preset)
    checked = 0
    for seed in range(2):
        for state, moves in positions(rules, 2, seed, after=2):
            hidden = blind(state)
            for strategy in (RandomStrategy(), GreedyStrategy()):
                assert strategy.choose(rules, hidden, moves, random.Random(0)) in moves
            seen = view_of(PAGAT, hidden, moves, (0, 0), 250)
            for fair in (DefensiveStrategy(), small_expectimax()):
                assert isinstance(fair, SeenStrategy) and not isinstance(fair, FullStrategy)
                assert fair.choose_seen(rules, seen, random.Random(0)) in seen.moves
            checked += 1
    assert checked >= 6


def test_hidden_tiles_do_not_change_defensive_or_expectimax() -> None:
    shuffle = random.Random(3)
    differing = 0
    for state, moves in positions(PAGAT, 2, 11, after=1):
        other = reshuffled(state, shuffle)
        differing += other.hands != state.hands
        for make in (DefensiveStrategy, small_expectimax):
            a = make().choose_seen(PAGAT, view_of(PAGAT, state, moves, (0, 0), 250), random.Random(1))
            b = make().choose_seen(PAGAT, view_of(PAGAT, other, legal_moves(PAGAT, other), (0, 0), 250),
                                   random.Random(2))  # another stream: it uses none
            assert a == b
    assert differing >= 3


def test_the_oracle_cheats_and_says_so() -> None:
    """Two positions the mover cannot tell apart: ends 3 and 2 (lead 3-2),
    the mover holds 3-3 and 3-1, the stock is empty, the opponent one tile.

    Opponent 1-6: 3-3 on the 3 first (ends 3-3 and 2), the opponent cannot
    play, the mover goes out with 3-1 and the opponent loses 5 (7 pips):
    +5; 3-1 first lets 1-6 go out, the mover loses 5 (3-3): -5.
    Opponent 3-6: 3-3 first lets 3-6 go out (the mover loses 5 for 3-1):
    -5; 3-1 first blocks the round (1 and 2 open, 3-3 and 3-6 fit
    neither): the mover loses 5, the opponent 10: +5."""
    oracle = OracleStrategy()
    assert isinstance(oracle, FullStrategy) and not isinstance(oracle, SeenStrategy)
    layout = lead(PAGAT, Tile(2, 3), left=3)
    mine = frozenset({Tile(3, 3), Tile(1, 3)})
    for theirs, right in ((Tile(1, 6), Tile(3, 3)), (Tile(3, 6), Tile(1, 3))):
        state = RoundState((mine, frozenset({theirs})), (), layout, 0)
        moves: list[Move] = list(legal_moves(PAGAT, state))
        assert oracle.choose_full(PAGAT, state, moves, (0, 0), 250,
                                  random.Random(0)) == Place(right, End.L)
    result = runner.invoke(app, ["arena", "--help"])
    assert "CHEATS" in result.stdout


# ----------------------------------------------------------------------
# The defensive player's tactics


def _view(hand: frozenset[Tile], layout: Layout, sizes: tuple[int, ...], stock: int,
          scores: tuple[int, ...], moves: tuple[SeenMove, ...],
          voids: tuple[Void, ...] = ()) -> SeatView:
    """A hand-made view: unseen is the double-six set less the table and the hand."""
    unseen = frozenset(full_set(6)) - set(layout.tiles()) - hand
    return SeatView(seat=0, hand=hand, layout=layout, hand_sizes=sizes, unseen=unseen,
                    stock_count=stock, scores=scores, target=250, moves=moves, voids=voids)


def _defence_position(voids: tuple[Void, ...] = ()) -> SeatView:
    """Lead 1-2 (1 on L, 2 on R); the mover holds 0-0, 1-3 and 2-4; the
    opponent 7 tiles, 17 in the stock."""
    layout = lead(PAGAT, Tile(1, 2), left=1)
    moves = (Place(Tile(1, 3), End.L), Place(Tile(2, 4), End.R))
    return _view(frozenset({Tile(0, 0), Tile(1, 3), Tile(2, 4)}), layout, (3, 7), 17,
                 (0, 0), moves, voids)


def test_defensive_leaves_no_ten_point_reply_when_it_can() -> None:
    """1-3 on L (ends 3, 2) and 2-4 on R (ends 1, 4) both score 5; greedy
    takes the heavier 2-4. After it, 1-6 on the 1 makes 6 + 4 = 10; after
    1-3 no tile scores (3-3 makes 8, 2-2 makes 7, nothing else fits for a
    multiple of 5)."""
    seen = _defence_position()
    assert greedy_seen(PAGAT, seen) == Place(Tile(2, 4), End.R)
    assert DefensiveStrategy().choose_seen(PAGAT, seen, random.Random(0)) == \
        Place(Tile(1, 3), End.L)


def test_defensive_uses_the_voids_it_was_shown() -> None:
    """The opponent drew with a 6 showing, and has drawn nothing since: it
    holds no 6, so 1-6 cannot come and the heavier 2-4 is safe. A tile
    drawn since may be a 6, and then the danger is back."""
    safe = _defence_position((Void(1, frozenset({6}), 0),))
    assert DefensiveStrategy().choose_seen(PAGAT, safe, random.Random(0)) == \
        Place(Tile(2, 4), End.R)
    again = _defence_position((Void(1, frozenset({6}), 1),))
    assert DefensiveStrategy().choose_seen(PAGAT, again, random.Random(0)) == \
        Place(Tile(1, 3), End.L)


def test_defensive_goes_out_and_takes_the_match() -> None:
    layout = place(PAGAT, lead(PAGAT, Tile(1, 2), left=1), Tile(2, 2), End.R)  # ends 1, 2-2
    # 1-4 on L: 4 + 4 = 8; 1-6 on L: 6 + 4 = 10. At 245 of 250, 1-6 wins.
    moves = (Place(Tile(1, 4), End.L), Place(Tile(1, 6), End.L))
    seen = _view(frozenset({Tile(1, 4), Tile(1, 6)}), layout, (2, 5), 10, (245, 0), moves)
    assert DefensiveStrategy().choose_seen(PAGAT, seen, random.Random(0)) == moves[1]
    # With one tile left, the one that fits goes out: no reply follows.
    out = _view(frozenset({Tile(1, 4)}), layout, (1, 5), 10, (0, 0), (moves[0],))
    assert DefensiveStrategy().choose_seen(PAGAT, out, random.Random(0)) == moves[0]


@pytest.mark.parametrize(
    ("scores", "p", "expected"),
    [([10, 5], 0.5, 10 * 0.5 + 5 * 0.25), ([0, 0], 0.9, 0.0), ([15], 1.0, 15.0),
     ([5, 10, 20], 0.25, 20 * 0.25 + 10 * 0.75 * 0.25 + 5 * 0.75 ** 2 * 0.25)],
)
def test_expected_best_reply(scores: list[int], p: float, expected: float) -> None:
    assert expected_best(scores, p) == pytest.approx(expected)


# ----------------------------------------------------------------------
# Expectimax


def test_expectimax_takes_the_match_and_is_deterministic() -> None:
    seen = _view(frozenset({Tile(1, 4), Tile(1, 6)}),
                 place(PAGAT, lead(PAGAT, Tile(1, 2), left=1), Tile(2, 2), End.R),
                 (2, 5), 10, (245, 0),
                 (Place(Tile(1, 4), End.L), Place(Tile(1, 6), End.L)))
    assert small_expectimax().choose_seen(PAGAT, seen, random.Random(0)) == \
        Place(Tile(1, 6), End.L)  # 10 points: 255, the match
    for state, moves in positions(PAGAT, 2, 5, after=3):
        view = view_of(PAGAT, state, moves, (0, 0), 250)
        first = small_expectimax().choose_seen(PAGAT, view, random.Random(0))
        assert small_expectimax().choose_seen(PAGAT, view, random.Random(99)) == first


# ----------------------------------------------------------------------
# Same seed, same match; one against the rest


def test_same_seed_same_matches() -> None:
    spec = ArenaSpec("defensive", "greedy", load_preset("spinner"), seed=8)
    assert run_arena(spec, 3).games == run_arena(spec, 3).games
    other = run_arena(ArenaSpec("defensive", "greedy", load_preset("spinner"), seed=9), 3)
    assert other.games != run_arena(spec, 3).games


@pytest.mark.parametrize("players", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_lone_seat_goes_round_the_table(players: int) -> None:
    spec = ArenaSpec("defensive", "greedy", PAGAT, players=players, seed=2, lone=True)
    assert spec.legs == players and spec.fair_share == pytest.approx(1 / players)
    games = play_pair(spec, 0, keep_records=True)
    assert [g.sides for g in games] == [
        tuple(0 if i == leg else 1 for i in range(players)) for leg in range(players)]
    assert spec.names(1) == ["greedy1", "defensive", "greedy2", *(["greedy3"] * (players > 3))]
    assert all(g.record is not None for g in games)
    # Each decision with a choice was timed, for the side that made it.
    assert all(g.seconds[0] and g.seconds[1] for g in games)


def test_lone_tally_counts_every_seat() -> None:
    spec = ArenaSpec("solver", "greedy", PAGAT, players=3, lone=True)
    games = [Game(0, 0, (0, 1, 1), (200, 5, 0), 0, 4), Game(0, 1, (1, 0, 1), (0, 210, 5), 1, 5),
             Game(0, 2, (1, 1, 0), (200, 0, 5), 0, 6), Game(1, 0, (0, 1, 1), (0, 200, 0), 1, 3),
             Game(1, 1, (1, 0, 1), (10, 0, 200), 2, 3), Game(1, 2, (1, 1, 0), (0, 0, 0), None, 9)]
    result = tally(spec, games)
    a, b = result.sides
    assert (a.games, a.wins, b.wins) == (6, 2, 3)
    assert result.draws == 1
    assert result.swept == (0, 0) and result.split == 2
    assert a.points == 200 + 210 + 5 + 0 + 0 + 0 and a.seat_rounds == 30
    assert b.seat_rounds == 60


# ----------------------------------------------------------------------
# The ladder


def test_pairings() -> None:
    assert pairings(["random", "greedy", "solver"]) == [("random", "greedy"),
                                                         ("greedy", "solver")]
    assert pairings(["random", "greedy", "solver"], every=True) == [
        ("random", "greedy"), ("random", "solver"), ("greedy", "solver")]
    with pytest.raises(InputError, match="unknown strategy 'best'"):
        pairings(["random", "best"])
    with pytest.raises(InputError):
        pairings(["random"])


def test_ratings_on_a_chain_are_each_pairing_alone() -> None:
    """Neighbours only: each step is 400 log10 of that pairing's odds, with
    half a win added to each side."""
    rungs = [Rung("random", "greedy", 40, 2, 38, 0), Rung("greedy", "defensive", 40, 10, 29, 1)]
    got = ratings(["random", "greedy", "defensive"], rungs)
    step1 = 400 * math.log10(38.5 / 2.5)
    step2 = 400 * math.log10(30.0 / 11.0)  # 29 + half of 1 + 0.5 against 10 + 0.5 + 0.5
    assert got["random"] == 0
    assert got["greedy"] == pytest.approx(step1, abs=1e-6)
    assert got["defensive"] == pytest.approx(step1 + step2, abs=1e-6)


def test_ratings_round_robin_is_consistent() -> None:
    """Results that agree exactly with ratings 0, 200 and 400 (odds
    10^(d/400), the prior included) give those ratings back."""
    def rung(a: str, b: str, d: float) -> Rung:
        n = 1000
        wins = round((n + 1) / (1 + 10 ** (d / 400)) - 0.5)  # the prior adds 0.5 back
        return Rung(a, b, n, wins, n - wins, 0)

    rungs = [rung("x", "y", 200), rung("x", "z", 400), rung("y", "z", 200)]
    got = ratings(["x", "y", "z"], rungs)
    assert got["x"] == 0
    assert got["y"] == pytest.approx(200, abs=2)
    assert got["z"] == pytest.approx(400, abs=2)


def test_unlinked_strategy_has_no_rating() -> None:
    with pytest.raises(InputError, match="links defensive, solver to random"):
        ratings(["random", "greedy", "defensive", "solver"],
                [Rung("random", "greedy", 2, 1, 1, 0), Rung("defensive", "solver", 2, 1, 1, 0)])


def test_ladder_table_sums() -> None:
    base = ArenaSpec("random", "greedy", PAGAT, seed=3)
    ladder = run_ladder(["random", "greedy", "defensive"], base, 3, every=True)
    assert [(r.spec.a, r.spec.b) for r in ladder.results] == [
        ("random", "greedy"), ("random", "defensive"), ("greedy", "defensive")]
    doc = ladder_json(ladder)
    for row, result in zip(doc["pairings"], ladder.results):  # type: ignore[attr-defined]
        won = [g.winning_side for g in result.games]
        assert row["matches"] == len(result.games) == 6
        assert row["a_wins"] == won.count(0) and row["b_wins"] == won.count(1)
        assert row["a_wins"] + row["b_wins"] + row["unfinished"] == row["matches"]
    assert doc["ratings"]["random"] == 0  # type: ignore[index]


def test_arena_ladder_command() -> None:
    result = runner.invoke(app, ["arena", "--ladder", "random,greedy", "--matches", "2", "-q"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == ("pagat, 2 players, to 250: 1 pairing, 2 deal sequences each, every "
                        "one played in both seats")
    row = lines[4].split()
    assert row[:2] == ["random", "greedy"] and row[2] == "4"
    assert int(row[3]) + int(row[4]) + int(row[5]) == 4
    assert lines[-1].startswith("rating: Elo scale")
    doc = json.loads(runner.invoke(app, ["arena", "--ladder", "random,greedy", "--matches", "2",
                                         "-q", "--json"]).stdout)
    assert doc["ratings"]["random"] == 0 and set(doc["ratings"]) == {"random", "greedy"}


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--ladder", "random"], "at least two"),
     (["greedy", "--ladder", "random,greedy"], "takes the place of A and B"),
     (["greedy", "random", "--all"], "--all goes with --ladder"),
     (["greedy"], "name two strategies")],
)
def test_arena_ladder_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args, "--matches", "1"])
    assert result.exit_code == 2
    assert message in result.stderr


def test_make_strategy_knows_the_ladder() -> None:
    for name in ("defensive", "expectimax", "oracle"):
        assert make_strategy(name).name == name
