"""Seeded random playouts of whole rounds and matches, checking invariants.

In the manner of OpenSpiel's ``random_sim_test``: every preset is played for
every allowed player count with random legal moves, and after every move the
state is checked against docs/rules.md "Play". Randomness is always a seeded
``random.Random``, so a failure names a seed that reproduces it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from muggins_cli.engine.layout import count, fits, open_ends
from muggins_cli.engine.scoring import reached, round_hand, score_of, settle
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    PassTurn,
    Place,
    RoundState,
    apply,
    deal,
    drawable,
    is_blocked,
    legal_moves,
    new_round,
)
from muggins_cli.notation import model as m
from muggins_cli.play.selfplay import MatchOutcome, play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules, SpinnerCount
from muggins_cli.tiles import full_set
from tests.conftest import quick_then_thorough

PRESETS = ("pagat", "spinner", "all-threes")
PLAYERS = (2, 3, 4)
ROUNDS = 600  # per preset and player count: 5,400 checked rounds in all
QUICK_ROUNDS = 100  # of them in every run; the rest with -m slow
VARIANT_ROUNDS = 80
QUICK_VARIANT_ROUNDS = 30  # of them in every run; the rest with -m slow
MATCHES = 12  # per preset and player count, each of many rounds
QUICK_MATCHES = 4  # of them in every run; the rest with -m slow

_SPINNER = load_preset("spinner")
_PAGAT = load_preset("pagat")
VARIANTS: dict[str, Rules] = {
    "spinner-sides-first": dataclasses.replace(_SPINNER, spinner_sides_first=True),
    "spinner-until-sides-covered": dataclasses.replace(
        _SPINNER, spinner_count=SpinnerCount.UNTIL_SIDES_COVERED
    ),
    "pagat-reserve-3": dataclasses.replace(_PAGAT, stock_reserve=3),
    "pagat-double-nine": dataclasses.replace(
        _PAGAT, name="pagat-9", max_pip=9, hand_size={2: 10, 3: 8, 4: 7}
    ),
    "spinner-double-nine": dataclasses.replace(
        _SPINNER, name="spinner-9", max_pip=9, hand_size={2: 10, 3: 8, 4: 7}
    ),
}


def _seed(*parts: object) -> int:
    """A stable seed from readable parts (``hash`` of a str is salted per run)."""
    return int.from_bytes("/".join(map(str, parts)).encode(), "little") % (2**61 - 1)


class Checker:
    """Plays rounds with random legal moves and checks every step."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.full = frozenset(full_set(rules.max_pip))
        self.moves = 0
        self.placements = 0
        self.draws = 0
        self.passes = 0
        self.went_out = 0
        self.blocked = 0

    # ------------------------------------------------------------------

    def conserved(self, state: RoundState) -> None:
        """Every tile of the set in exactly one place."""
        on_table = state.layout.tiles()
        places = sum(map(len, state.hands)) + len(state.stock) + len(on_table)
        seen = set(state.stock).union(on_table, *state.hands)
        # As many places as tiles, and every tile somewhere: none is twice.
        assert places == len(self.full) and seen == self.full, "a tile is lost or doubled"

    def offered(self, state: RoundState, moves: Sequence[Move]) -> None:
        """The legal moves are what docs/rules.md "Play" allows, and nothing else."""
        rules = self.rules
        assert moves, "a round that is not over always has a move"
        assert len(set(moves)) == len(moves), "a move offered twice"
        places = [mv for mv in moves if isinstance(mv, Place)]
        others = [mv for mv in moves if not isinstance(mv, Place)]
        if state.drawn is not None:
            # A drawn tile that fits must be placed at once, and nothing else.
            assert not others
            assert {mv.tile for mv in places} == {state.drawn}
            assert state.drawn in state.hands[state.to_move]
        hand = state.hands[state.to_move]
        if not state.layout.started:
            assert {mv.tile for mv in places} == set(hand)
            assert all(mv.end is None for mv in places)
            assert not others
            return
        ends = open_ends(rules, state.layout)
        wanted = {
            (t, e)
            for t in ((state.drawn,) if state.drawn is not None else hand)
            for e, pip in ends.items()
            if t.has(pip)
        }
        assert {(mv.tile, mv.end) for mv in places} == wanted
        if state.drawn is not None:
            return
        assert len(others) <= 1
        if places:
            assert not others, "must_play: no draw or pass while a tile fits"
        elif drawable(rules, state):
            assert others == [KnownDraw(state.stock[0])], "draw the top of the stock"
        else:
            assert others == [PassTurn()], "pass only with no fit and no stock to draw"

    def step(self, state: RoundState, move: Move, after: RoundState, points: int) -> None:
        rules = self.rules
        seat = state.to_move
        self.moves += 1
        assert points >= 0
        assert points == 0 or points % rules.modulus == 0, "a score is a multiple"
        if isinstance(move, KnownDraw):
            self.draws += 1
            assert points == 0
            assert after.stock == state.stock[1:]
            assert after.hands[seat] == state.hands[seat] | {move.tile}
            assert after.to_move == seat, "the drawer keeps the turn"
            fit = fits(rules, state.layout, move.tile)
            assert after.drawn == (move.tile if fit else None)
            # A turn is draws and then a placement or a pass (docs/notation.md 4): a
            # last tile that fits nowhere leaves the drawer a closing pass.
            assert not after.over, "a turn that draws ends with a placement or a pass"
            if is_blocked(rules, after):
                assert legal_moves(rules, after) == [PassTurn()]
            return
        assert after.drawn is None
        assert after.to_move == (seat + 1) % self.players
        if isinstance(move, PassTurn):
            self.passes += 1
            assert points == 0
            assert after.layout == state.layout
            assert after.hands == state.hands
        else:
            assert isinstance(move, Place)
            self.placements += 1
            assert after.layout.tile_count() == state.layout.tile_count() + 1
            assert after.hands[seat] == state.hands[seat] - {move.tile}
            assert points == score_of(rules, count(rules, after.layout))
            if rules.name == "pagat":
                assert points <= 20, "20 is the largest pagat score"
        # The round ends exactly on a domino or a block.
        domino = not after.hands[seat]
        blocked = is_blocked(rules, after)
        assert after.over == (domino or blocked)
        if domino:
            assert isinstance(move, Place)
            assert after.went_out == seat and not after.blocked
            self.went_out += 1
        elif blocked:
            assert after.blocked and after.went_out is None
            self.blocked += 1
        else:
            assert after.went_out is None and not after.blocked

    # ------------------------------------------------------------------

    def play_round(self, rng: random.Random) -> RoundState:
        rules = self.rules
        hands, stock = deal(rules, self.players, rng)
        size = rules.hand_size_for(self.players)
        assert all(len(h) == size for h in hands)
        state = new_round(hands, stock, rng.randrange(self.players))
        self.conserved(state)
        limit = 4 * len(self.full) + 8
        for _ in range(limit):
            if state.over:
                break
            moves = legal_moves(rules, state)
            self.offered(state, moves)
            move = rng.choice(moves)
            after, points = apply(rules, state, move)
            self.step(state, move, after, points)
            self.conserved(after)
            state = after
        assert state.over, "a round must end"
        assert legal_moves(rules, state) == []
        return state


def _run(rules: Rules, players: int, rounds: int, seed: int) -> Checker:
    rng = random.Random(seed)
    checker = Checker(rules, players)
    for _ in range(rounds):
        state = checker.play_round(rng)
        pips = state.hand_pips()
        deltas = settle(rules, pips, state.went_out)
        assert len(deltas) == players
        if rules.round_end.value == "deduct-own":
            assert deltas == [-round_hand(rules, p) for p in pips]
        else:
            assert sum(1 for d in deltas if d) <= 1, "one player gains at most"
            assert all(d >= 0 for d in deltas)
    assert checker.went_out + checker.blocked == rounds
    assert checker.went_out and checker.draws, "the playouts went out and drew"
    return checker


@pytest.mark.parametrize("rounds", quick_then_thorough(ROUNDS, QUICK_ROUNDS))
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", PRESETS)
def test_random_rounds_keep_the_invariants(preset: str, players: int, rounds: range) -> None:
    checker = _run(load_preset(preset), players, len(rounds),
                   _seed("rounds", preset, players, rounds.start))
    # Both ways a round ends were reached, and a pass (only when stuck).
    assert checker.blocked and checker.passes


@pytest.mark.parametrize("rounds", quick_then_thorough(VARIANT_ROUNDS, QUICK_VARIANT_ROUNDS))
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_rounds_of_variants_keep_the_invariants(variant: str, players: int,
                                                       rounds: range) -> None:
    rules = VARIANTS[variant]
    _run(rules, players, len(rounds), _seed("variant", variant, players, rounds.start))


def test_reserve_is_never_drawn() -> None:
    rules = VARIANTS["pagat-reserve-3"]
    rng = random.Random(_seed("reserve"))
    for _ in range(100):
        checker = Checker(rules, 2)
        state = checker.play_round(rng)
        assert len(state.stock) >= rules.stock_reserve


# --------------------------------------------------------------------------
# Whole matches through play_match


def _check_match(rules: Rules, outcome: MatchOutcome, goal: int) -> int:
    """Totals are the sum of the claims and round ends, and the match stops
    exactly at the event that reaches ``goal``. Returns the rounds played."""
    record = outcome.record
    names = list(record.players)
    seat = {name: i for i, name in enumerate(names)}
    scores = [0] * len(names)
    reveals: dict[int, int] = {}
    winner: int | None = None
    rounds = 0
    body = list(record.body)
    for index, line in enumerate(body):
        assert winner is None or (
            isinstance(line, m.ScoreLine) and index == len(body) - 1
        ), f"line {index} comes after the match was won"
        if isinstance(line, m.RoundLine):
            rounds += 1
            reveals = {}
        elif isinstance(line, m.Turn) and line.claim is not None:
            i = seat[line.player]
            assert line.claim.points > 0
            assert line.claim.points % rules.modulus == 0
            winner = reached(scores, [line.claim.points if j == i else 0 for j in seat.values()],
                             goal)
            scores[i] += line.claim.points
            assert (winner is not None) == (scores[i] >= goal)
        elif isinstance(line, m.RevealLine):
            reveals[seat[line.player]] = sum(tok.tile.pips for tok in line.tiles)
        elif isinstance(line, m.ScoreLine):
            if winner is None:  # a round end: settle the revealed hands
                pips = [reveals.get(i, 0) for i in range(len(names))]
                out = [i for i in range(len(names)) if i not in reveals]
                assert len(out) <= 1
                deltas = settle(rules, pips, out[0] if out else None)
                winner = reached(scores, deltas, goal)
                scores = [s + d for s, d in zip(scores, deltas)]
            else:  # won at a placement: no deductions follow
                assert not reveals
            assert [e.points for e in line.entries] == scores
            assert [e.player for e in line.entries] == names
    assert winner is not None, "the match was not finished"
    assert outcome.winner == winner
    assert outcome.scores == scores
    assert scores[winner] >= goal
    assert all(s < goal for i, s in enumerate(scores) if i != winner)
    assert record.tag("Result") == names[winner]
    assert outcome.rounds == rounds
    return rounds


@pytest.mark.parametrize("matches", quick_then_thorough(MATCHES, QUICK_MATCHES))
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", PRESETS)
def test_matches_end_exactly_at_the_target(preset: str, players: int, matches: range) -> None:
    rules = load_preset(preset)
    rng = random.Random(_seed("match", preset, players, matches.start))
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    goal = rules.target_for(players)
    total_rounds = 0
    for k in matches:
        strategies: list[Strategy] = [
            GreedyStrategy() if (k + i) % 2 else RandomStrategy() for i in range(players)
        ]
        outcome = play_match(rules, names, strategies, rng)
        total_rounds += _check_match(rules, outcome, goal)
    assert total_rounds >= len(matches)


@pytest.mark.parametrize("target", [1, 5, 30])
def test_matches_with_small_targets_end_at_once(target: int) -> None:
    # A tiny target is reached at the first score or round-end gain.
    for preset in PRESETS:
        rules = load_preset(preset)
        rng = random.Random(_seed("small", preset, target))
        for _ in range(20):
            strategies: list[Strategy] = [RandomStrategy(), GreedyStrategy()]
            outcome = play_match(rules, ["Ann", "Bo"], strategies, rng, target=target)
            _check_match(rules, outcome, target)
