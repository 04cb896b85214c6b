"""Plain reference searches over ``engine.state`` for the solver tests.

(A helper module named like a test file so that it sits with the solver's
tests; it holds no tests of its own beyond a sanity check.)

No pruning, no table, no move ordering, no bit masks: each function walks
``legal_moves``/``apply`` to the end of the round, so it is slow but shares
nothing with the solver except the engine it is checked against.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from muggins_cli.engine.scoring import settle
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    Place,
    RoundState,
    apply,
    deal,
    legal_moves,
    new_round,
)
from muggins_cli.rules.model import MatchEnd, Rules

WIN = 100_000


def _winner(rules: Rules, d: Sequence[int], after: Sequence[int]) -> int | None:
    """Who a settlement ``d`` makes the winner, ``after`` the distances to
    the target before it (docs/rules.md ``match_end``)."""
    if rules.match_end is MatchEnd.ROUND_END:
        past = [x - a for x, a in zip(d, after)]  # final total minus the target
        top = max(past)
        return past.index(top) if top >= 0 and past.count(top) == 1 else None
    return next((i for i, x in enumerate(d) if x > 0 and x >= after[i]), None)


def outcomes(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int]
) -> tuple[RoundState | None, list[int], int | None, list[int]]:
    """Apply ``move``: (next state or None at an end, points by seat from
    this move and any settlement, the seat that reached the target, the
    distances to the target after)."""
    seat = state.to_move
    n = state.players
    child, pts = apply(rules, state, move)
    if pts and pts >= dists[seat] and rules.match_end is MatchEnd.AT_TARGET:
        return None, [pts if i == seat else 0 for i in range(n)], seat, list(dists)
    new_d = [x - (pts if i == seat else 0) for i, x in enumerate(dists)]
    vec = [pts if i == seat else 0 for i in range(n)]
    if child.over:
        d = settle(rules, child.hand_pips(), child.went_out)
        return None, [a + b for a, b in zip(vec, d)], _winner(rules, d, new_d), new_d
    return child, vec, None, new_d


def _diff(vec: Sequence[int], winner: int | None, seat: int, match: bool) -> int:
    v = vec[seat] - vec[1 - seat]
    if match and winner is not None:
        v += WIN if winner == seat else -WIN
    return v


def _with_win(vec: Sequence[int], winner: int | None, match: bool,
              win: int = WIN) -> list[float]:
    if match and winner is not None:
        return [float(x + (win if i == winner else -win)) for i, x in enumerate(vec)]
    return [float(x) for x in vec]


def minimax2(rules: Rules, state: RoundState, dists: Sequence[int], match: bool) -> int:
    """Two players: mover's points minus the other's, to the round's end."""
    return max(move_value2(rules, state, m, dists, match) for m in legal_moves(rules, state))


def move_value2(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int], match: bool
) -> int:
    seat = state.to_move
    child, vec, winner, new_d = outcomes(rules, state, move, dists)
    here = _diff(vec, winner, seat, match)
    if child is None:
        return here
    sub = minimax2(rules, child, new_d, match)
    return here + (sub if child.to_move == seat else -sub)


def preference(vec: Sequence[float], seat: int) -> tuple[float, float, tuple[float, ...]]:
    n = len(vec)
    opps = tuple(vec[(seat + k) % n] for k in range(1, n))
    return (vec[seat], -max(opps), tuple(-x for x in opps))


def maxn(rules: Rules, state: RoundState, dists: Sequence[int], match: bool) -> list[float]:
    """Max-n with the solver's documented tie-break."""
    seat = state.to_move
    vecs = [move_vec(rules, state, m, dists, match) for m in legal_moves(rules, state)]
    return max(vecs, key=lambda v: preference(v, seat))


def move_vec(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int], match: bool
) -> list[float]:
    child, vec, winner, new_d = outcomes(rules, state, move, dists)
    if child is None:
        return _with_win(vec, winner, match)
    sub = maxn(rules, child, new_d, match)
    return [x + y for x, y in zip(vec, sub)]


def paranoid(rules: Rules, state: RoundState, dists: Sequence[int], match: bool,
             root: int) -> float:
    """The mover ``root`` against the others as one side: ``root``'s points
    minus the others' average, ``root`` maximising and every other seat
    minimising it."""
    vals = [paranoid_move(rules, state, m, dists, match, root)
            for m in legal_moves(rules, state)]
    return max(vals) if state.to_move == root else min(vals)


def paranoid_move(rules: Rules, state: RoundState, move: Move, dists: Sequence[int],
                  match: bool, root: int) -> float:
    n = state.players
    child, vec, winner, new_d = outcomes(rules, state, move, dists)
    # Half the bonus to each side, so that a win moves "the mover's points
    # less the others' average" by WIN, as it moves two players' margin.
    full = _with_win(vec, winner, match, WIN // 2) if child is None else [
        float(x) for x in vec]
    here = full[root] - sum(x for i, x in enumerate(full) if i != root) / (n - 1)
    if child is None:
        return here
    return here + paranoid(rules, child, new_d, match, root)


# --- expectimax: a draw averages over every tile that could come next -------


def _draw_outcomes(state: RoundState) -> list[RoundState]:
    """The state with each stock tile in turn put first (every order of the
    stock is equally likely, so the next tile is uniform over the stock)."""
    out = []
    for i, t in enumerate(state.stock):
        rest = state.stock[:i] + state.stock[i + 1:]
        out.append(RoundState(state.hands, (t, *rest), state.layout, state.to_move, state.drawn))
    return out


def expect2(rules: Rules, state: RoundState, dists: Sequence[int], match: bool) -> float:
    return max(expect_move2(rules, state, m, dists, match) for m in legal_moves(rules, state))


def expect_move2(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int], match: bool
) -> float:
    if isinstance(move, KnownDraw):
        vals = []
        for s in _draw_outcomes(state):
            vals.append(move_value_e(rules, s, KnownDraw(s.stock[0]), dists, match))
        return sum(vals) / len(vals)
    return move_value_e(rules, state, move, dists, match)


def move_value_e(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int], match: bool
) -> float:
    seat = state.to_move
    child, vec, winner, new_d = outcomes(rules, state, move, dists)
    here = _diff(vec, winner, seat, match)
    if child is None:
        return here
    sub = expect2(rules, child, new_d, match)
    return here + (sub if child.to_move == seat else -sub)


def expect_n(rules: Rules, state: RoundState, dists: Sequence[int], match: bool) -> list[float]:
    seat = state.to_move
    vecs = [expect_move_n(rules, state, m, dists, match) for m in legal_moves(rules, state)]
    return max(vecs, key=lambda v: preference(v, seat))


def expect_move_n(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int], match: bool
) -> list[float]:
    if isinstance(move, KnownDraw):
        total = [0.0] * state.players
        outs = _draw_outcomes(state)
        for s in outs:
            v = _vec_e(rules, s, KnownDraw(s.stock[0]), dists, match)
            total = [a + b for a, b in zip(total, v)]
        return [x / len(outs) for x in total]
    return _vec_e(rules, state, move, dists, match)


def _vec_e(
    rules: Rules, state: RoundState, move: Move, dists: Sequence[int], match: bool
) -> list[float]:
    child, vec, winner, new_d = outcomes(rules, state, move, dists)
    if child is None:
        return _with_win(vec, winner, match)
    sub = expect_n(rules, child, new_d, match)
    return [x + y for x, y in zip(vec, sub)]


# --- positions ---------------------------------------------------------------


def endgame(
    rules: Rules, players: int, seed: int, left: int, *, min_stock: int = 0,
    max_tries: int = 200,
) -> RoundState:
    """A seeded random round played with random legal moves until at most
    ``left`` tiles remain in the hands and stock together (and at least
    ``min_stock`` of them in the stock)."""
    rng = random.Random(seed)
    for _ in range(max_tries):
        hands, stock = deal(rules, players, rng)
        state = new_round(hands, stock, rng.randrange(players))
        while not state.over:
            if (sum(len(h) for h in state.hands) + len(state.stock) <= left
                    and len(state.stock) >= min_stock and state.drawn is None):
                return state
            if len(state.stock) < min_stock:
                break
            state, _ = apply(rules, state, rng.choice(legal_moves(rules, state)))
    raise AssertionError("no endgame found")


def play_random(rules: Rules, state: RoundState, rng: random.Random, steps: int) -> RoundState:
    for _ in range(steps):
        if state.over:
            break
        moves = legal_moves(rules, state)
        nxt, _ = apply(rules, state, rng.choice(moves))
        if nxt.over:
            break
        state = nxt
    return state


__all__ = [
    "WIN", "Place", "endgame", "expect2", "expect_move2", "expect_move_n", "maxn",
    "minimax2", "move_value2", "move_vec", "play_random",
]


def test_reference_sanity() -> None:
    """The reference itself: a lone tile left that goes out scores the settlement."""
    from muggins_cli.rules.loader import load_preset

    rules = load_preset("pagat")
    state = endgame(rules, 2, 1, 6)
    dists = [250, 250]
    best = minimax2(rules, state, dists, False)
    assert best == max(move_value2(rules, state, m, dists, False)
                       for m in legal_moves(rules, state))
