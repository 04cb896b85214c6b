"""The ``solver`` strategy decides from the mover's view alone.

Two checks: a state whose other hands and stock raise on any access but
their size, and pairs of states that differ only in hidden tiles (other
hands, stock order) giving the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest

from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    Place,
    RoundState,
    UnseenDraw,
    apply,
    deal,
    legal_moves,
    new_round,
)
from muggins_cli.engine.view import view_of
from muggins_cli.errors import InputError
from muggins_cli.play.strategies import (
    GreedyStrategy,
    SolverStrategy,
    greedy_seen,
    make_strategy,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile

# A small budget: these tests are about what is read, not how well it plays.
BUDGET: dict[str, Any] = {"samples": 3, "node_limit": 20_000, "expectimax_nodes": 2_000}


class Hidden:
    """Stands for a hand or stock the mover cannot see: its size is public,
    anything else fails the test."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __len__(self) -> int:
        return self.size

    def _refuse(self, *args: object) -> NoReturn:
        raise AssertionError("a hidden tile was read")

    __iter__ = __contains__ = __getitem__ = __sub__ = __or__ = __and__ = _refuse
    __eq__ = __hash__ = __bool__ = _refuse


def positions(rules: Rules, players: int, seed: int,
              after: int = 0) -> Iterator[tuple[RoundState, list[Move]]]:
    """The states of a greedy playout with more than one legal move, or a
    draw, once ``after`` tiles are down (fewer tiles left: quicker solves)."""
    rng = random.Random(seed)
    hands, stock = deal(rules, players, rng)
    state = new_round(hands, stock, seed % players)
    greedy = GreedyStrategy()
    while not state.over:
        moves = legal_moves(rules, state)
        if (len(moves) > 1 or isinstance(moves[0], KnownDraw)) and \
                state.layout.tile_count() >= after:
            yield state, moves
        state, _ = apply(rules, state, greedy.choose(rules, state, moves, rng))


def blind(state: RoundState) -> RoundState:
    """``state`` with every hand but the mover's, and the stock, hidden."""
    seat = state.to_move
    hands = tuple(h if i == seat else Hidden(len(h)) for i, h in enumerate(state.hands))
    return RoundState(hands, Hidden(len(state.stock)), state.layout, seat,  # type: ignore[arg-type]
                      state.drawn)


def reshuffled(state: RoundState, rng: random.Random) -> RoundState:
    """Another state the mover cannot tell from ``state``: the other hands
    and the stock dealt afresh from the same tiles, sizes kept."""
    seat = state.to_move
    pool = [t for i, h in enumerate(state.hands) if i != seat for t in h] + list(state.stock)
    rng.shuffle(pool)
    hands: list[frozenset[Tile]] = []
    at = 0
    for i, h in enumerate(state.hands):
        if i == seat:
            hands.append(h)
        else:
            hands.append(frozenset(pool[at:at + len(h)]))
            at += len(h)
    return RoundState(tuple(hands), tuple(pool[at:]), state.layout, seat, state.drawn)


@pytest.mark.parametrize("hidden", ["expectimax", "sample"])
@pytest.mark.parametrize(("preset", "players", "after"),
                         [("pagat", 2, 0), ("pagat", 3, 3),
                          pytest.param("spinner", 2, 6, marks=pytest.mark.slow)])
def test_solver_reads_no_hidden_tile(preset: str, players: int, after: int, hidden: str) -> None:
    rules = load_preset(preset)
    checked = searched = 0
    for seed in range(2):
        for state, moves in positions(rules, players, seed, after):
            strategy = SolverStrategy(hidden=hidden, **BUDGET)
            move = strategy.choose(rules, blind(state), moves, random.Random(seed))
            assert move in moves
            checked += 1
            searched += strategy.searches - strategy.fallbacks
    assert checked >= 6
    assert searched >= 3  # the solver did run, within its budget


@pytest.mark.parametrize("hidden", ["expectimax", "sample"])
@pytest.mark.parametrize(("preset", "players", "after"),
                         [("pagat", 2, 0), pytest.param("all-threes", 3, 4, marks=pytest.mark.slow)])
def test_hidden_tiles_do_not_change_the_decision(preset: str, players: int, after: int,
                                                 hidden: str) -> None:
    rules = load_preset(preset)
    shuffle = random.Random(0)
    differing = 0
    for state, moves in positions(rules, players, 7, after):
        other = reshuffled(state, shuffle)
        other_moves = legal_moves(rules, other)
        differing += other.hands != state.hands or other.stock != state.stock
        a = SolverStrategy(hidden=hidden, **BUDGET).choose(rules, state, moves, random.Random(1))
        b = SolverStrategy(hidden=hidden, **BUDGET).choose(rules, other, other_moves,
                                                           random.Random(1))
        if isinstance(a, KnownDraw):
            assert isinstance(b, KnownDraw)  # the tiles drawn may differ: nobody saw them
        else:
            assert a == b
    assert differing >= 3


def test_the_view_holds_only_public_facts() -> None:
    rules = load_preset("pagat")
    state, moves = next(p for p in positions(rules, 2, 3) if p[0].layout.started)
    seen = view_of(rules, state, moves, (10, 20), 250)
    assert seen == view_of(rules, reshuffled(state, random.Random(5)), moves, (10, 20), 250)
    seen.check()
    assert seen.hand == state.hands[state.to_move]
    other = state.hands[1 - state.to_move]
    assert seen.unseen == other | set(state.stock)
    assert seen.stock_count == len(state.stock)
    assert seen.scores == (10, 20) and seen.target == 250


def test_a_draw_is_seen_without_its_tile() -> None:
    rules = load_preset("pagat")
    state, moves = next(p for p in positions(rules, 2, 0) if isinstance(p[1][0], KnownDraw))
    seen = view_of(rules, state, moves, (0, 0), 250)
    assert seen.moves == (UnseenDraw(),)
    assert SolverStrategy(**BUDGET).choose_seen(rules, seen, random.Random(0)) == UnseenDraw()


def test_out_of_budget_falls_back_to_greedy() -> None:
    rules = load_preset("pagat")
    state, moves = next(p for p in positions(rules, 2, 1, after=1)
                        if sum(isinstance(m, Place) for m in p[1]) > 1)
    strategy = SolverStrategy(samples=4, node_limit=1, hidden="sample")
    seen = view_of(rules, state, moves, (0, 0), 250)
    assert strategy.choose_seen(rules, seen, random.Random(0)) == greedy_seen(rules, seen)
    assert strategy.fallbacks == 1


def test_the_lead_is_greedy_unless_searched() -> None:
    rules = load_preset("pagat")
    state, moves = next(positions(rules, 2, 2))
    seen = view_of(rules, state, moves, (0, 0), 250)
    quick = SolverStrategy(**BUDGET)
    assert quick.choose_seen(rules, seen, random.Random(0)) == greedy_seen(rules, seen)
    assert quick.searches == 0
    deep = SolverStrategy(search_lead=True, **BUDGET)
    assert deep.choose_seen(rules, seen, random.Random(0)) in seen.moves
    assert deep.searches == 1


def test_make_strategy() -> None:
    assert make_strategy("greedy").name == "greedy"
    solver = make_strategy("solver", samples=5, node_limit=9, objective="points")
    assert isinstance(solver, SolverStrategy)
    assert (solver.samples, solver.node_limit, solver.objective) == (5, 9, "points")
    with pytest.raises(InputError, match="unknown strategy 'best'"):
        make_strategy("best")
    with pytest.raises(InputError):
        SolverStrategy(samples=0)
    with pytest.raises(InputError, match="sample or expectimax"):
        SolverStrategy(hidden="guess")
    # The command line's --hidden choices are the strategy's, spelled twice
    # so that `muggins check` need not import the strategies at start-up.
    from muggins_cli.cli.options import HiddenOpt
    from muggins_cli.play.strategies import HIDDEN_SEARCHES

    assert [h.value for h in HiddenOpt] == list(HIDDEN_SEARCHES)


def test_every_entry_point_plays_the_same_default_solver() -> None:
    """The arena's spec, the strategy and both commands default to one
    search of the hidden tiles (the spec once kept the old default and
    played a different solver from `muggins arena`)."""
    import inspect

    from muggins_cli.cli import arena_cmd, selfplay_cmd
    from muggins_cli.play.arena import ArenaSpec

    default = SolverStrategy().hidden
    assert default == "sample"
    assert ArenaSpec("solver", "greedy", load_preset("pagat")).hidden == default
    made = make_strategy("solver")
    assert isinstance(made, SolverStrategy) and made.hidden == default
    for command in (arena_cmd.arena, selfplay_cmd.selfplay):
        assert inspect.signature(command).parameters["hidden"].default.value == default


@pytest.mark.parametrize("hidden", ["expectimax", "sample"])
def test_ctrl_c_reaches_the_match_driver(monkeypatch: pytest.MonkeyPatch, hidden: str) -> None:
    """The solver answers Ctrl-C with what it has, and the expectimax search
    does not catch it; the strategy must pass the interrupt on, or
    self-play and the arena would play on regardless."""
    from typer.testing import CliRunner

    from muggins_cli.cli import app
    from muggins_cli.play import expectimax
    from muggins_cli.solver import common as solver_common

    def interrupt(self: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solver_common.Budget, "check", interrupt)
    monkeypatch.setattr(expectimax._Search, "tick", interrupt)
    result = CliRunner().invoke(app, ["selfplay", "--strategy", "solver,greedy", "--seed", "1",
                                      "--matches", "1", "-q", "--hidden", hidden])
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.stderr


def _stock_drawn_down(rules: Rules, players: int, seed: int) -> Iterator[tuple[RoundState, list[Move]]]:
    """Positions of random rounds, to each round's end, once the stock is
    empty and the mover has a choice of placements."""
    for state, moves in positions(rules, players, seed, 0):
        if not state.stock and state.layout.started and len(moves) > 1:
            yield state, moves


def test_the_deal_is_known_once_two_players_drew_the_stock_down() -> None:
    """Counted by hand: with two players and an empty stock the unseen
    tiles are the other hand; with a stock left, or a third hand to split
    them with, they are not."""
    from muggins_cli.play.strategies import deal_known

    rules = load_preset("pagat")
    for players in (2, 3):
        for state, moves in positions(rules, players, 4, 0):
            seen = view_of(rules, state, moves, (0,) * players, 200)
            assert deal_known(seen) == (players == 2 and not state.stock)


def test_a_known_deal_is_played_as_the_exact_search_values_it() -> None:
    """Once the deal is known the solver plays a move the perfect-information
    search of the real state values best: an exhaustive second model of the
    same position, not the strategy's own search read back."""
    from muggins_cli.solver import Plan, solve

    rules = load_preset("pagat")
    checked = 0
    for seed in range(12):
        for state, moves in _stock_drawn_down(rules, 2, seed):
            seen = view_of(rules, state, moves, (0, 0), 250)
            strategy = SolverStrategy(node_limit=None)
            choice = strategy.choose_seen(rules, seen, random.Random(seed))
            exact = solve(rules, state, scores=(0, 0), target=250, plan=Plan(mode="perfect",
                          objective="match", pv=False))
            best = max(v.value for v in exact.moves if v.value is not None)
            valued = {v.move: v.value for v in exact.moves}
            assert valued[choice] == best
            checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_same_seed_same_match_for_both_searches() -> None:
    """The expectimax part draws nothing at random and the exact part is
    seeded from the match's stream: a seeded arena pair replays to the
    move, and the two searches of the hidden tiles play differently."""
    from muggins_cli.play.arena import ArenaSpec, play_pair

    rules = load_preset("pagat")
    games = {}
    for hidden in ("expectimax", "sample"):
        spec = ArenaSpec("solver", "greedy", rules, seed=3, target=60, hidden=hidden,
                         samples=2, node_limit=50_000, players=2)
        first = play_pair(spec, 0, keep_records=True)
        assert first == play_pair(spec, 0, keep_records=True)
        games[hidden] = [g.record for g in first]
    assert games["expectimax"] != games["sample"]
