"""Every legal move of one fully known deal valued exactly: the search
every mode is made of (``perfect`` is one of them; ``sample`` averages
many, ``expect`` runs the same valuation with chance nodes)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from muggins_cli.engine.scoring import credit_ends_match
from muggins_cli.engine.state import RoundState, as_seen, legal_moves
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import Budget, Mode, Objective
from muggins_cli.solver.game import Node, SolverGame, SolverMove
from muggins_cli.solver.kernel import MEMO_MOST_MOVES, MemoGrew
from muggins_cli.solver.plan import Multi
from muggins_cli.solver.result import Row, SolveResult, Stop, finish, rows, stopping
from muggins_cli.solver.roots import Root
from muggins_cli.tiles import Tile


def _mask(tiles: frozenset[Tile] | Sequence[Tile]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t.index()
    return m


def root_node(
    rules: Rules, table: LayoutTable, state: RoundState, scores: Sequence[int], target: int,
    chance: bool,
) -> tuple[Node, tuple[int, ...] | None]:
    """The search's root for ``state`` (and the stock order, unless the
    draws are ``chance``); refuses a position that has nothing to solve."""
    if state.over:
        raise InputError("the round is over: there is nothing to solve")
    n = state.players
    if len(scores) != n:
        raise InputError(f"{len(scores)} scores for {n} players")
    dists = tuple(target - s for s in scores)
    if min(dists) <= 0 and credit_ends_match(rules):
        # Under round-end a total past the target plays on to the round's end.
        raise InputError("the match is over: a score has reached the target")
    order = None if chance else tuple(t.index() for t in state.stock)
    stock = _mask(state.stock) if chance else 0
    drawn = state.drawn.index() if state.drawn is not None else -1
    node = Node(tuple(_mask(h) for h in state.hands), state.layout.key, stock,
                state.to_move, dists, drawn)
    return node, order


def solve_perfect(
    rules: Rules, state: RoundState, scores: Sequence[int], target: int, objective: Objective,
    budget: Budget, want_pv: bool, multi: Multi = Multi.MAXN,
    only: Collection[SolverMove] | None = None,
) -> SolveResult:
    """Every legal move valued exactly; with ``only`` (moves as the mover
    sees them: a draw as ``d??``), the others are left without a value.
    Two players: alpha-beta on the margin; three or four: max-n, or the
    paranoid alpha-beta (``multi``), whose values are reported divided by
    ``n - 1`` (the mover's points minus the opponents' average)."""
    table = table_for(rules)
    node, order = root_node(rules, table, state, scores, target, chance=False)
    assert order is not None
    game = SolverGame(rules, table, state.players, order, objective, state.lead_tile)
    maxn = state.players > 2 and multi is Multi.MAXN
    moves: list[SolverMove] = list(legal_moves(rules, state))
    method = "max-n" if maxn else "alpha-beta" if state.players == 2 else "paranoid alpha-beta"
    return value_moves(lambda: Root(rules, table, game, node, objective, budget, maxn=maxn), moves,
                       Mode.PERFECT, objective, budget, method, want_pv, only)


def value_moves(make: Callable[[], Root], moves: list[SolverMove], mode: Mode,
                objective: Objective, budget: Budget, method: str, want_pv: bool,
                only: Collection[SolverMove] | None = None) -> SolveResult:
    """Each root move's exact value (written as it is found, so what
    finished survives a budget running out), then the principal variations.
    When the search's layout memo had to grow, the whole valuation starts
    again with a new search: what it counts, and so where a node budget
    stops it, must not depend on what ran before in the process."""
    spent = budget.nodes
    emptied = 0
    while True:
        root = make()
        try:
            return _valued(root, moves, mode, objective, budget, method, want_pv, only)
        except MemoGrew as e:
            if not e.afresh:
                budget.nodes = spent
            else:  # the search needs more layouts than are kept: its budget bounds it
                emptied += 1
                if emptied > 2:
                    raise InputError("this search meets more layouts than the solver keeps "
                                     f"({MEMO_MOST_MOVES:,} placements); give it --nodes or "
                                     "--time, or a position later in the round") from None
        finally:
            root.release()


def in_order(moves: Sequence[SolverMove], only: Collection[SolverMove] | None) -> list[int]:
    """Which of ``moves`` to value, by index, in the order to value them:
    every one, in order, without ``only``; else those ``only`` names (as
    the mover sees them), in its order when it is a sequence (the moves
    that matter most first: what a search cut short leaves valued)."""
    if only is None:
        return list(range(len(moves)))
    picked = [i for i, m in enumerate(moves) if as_seen(m) in only]
    if isinstance(only, Sequence):
        rank = {m: k for k, m in enumerate(only)}
        picked.sort(key=lambda i: rank[as_seen(moves[i])])
    return picked


def _valued(root: Root, moves: list[SolverMove], mode: Mode, objective: Objective,
            budget: Budget, method: str, want_pv: bool,
            only: Collection[SolverMove] | None) -> SolveResult:
    scale = root.game.n - 1
    values = rows(moves)
    stop = Stop()
    with stopping(stop):
        guess = 0.0
        for i in in_order(moves, only):
            m = moves[i]
            if root.maxn:
                vec = root.move_vec(root.node, m)
                values[i] = Row(m, vec[root.node.seat], [m], vec)
            else:
                v = guess = root.exact_value(m, guess)
                values[i] = Row(m, v / scale, [m])
        if want_pv:
            for i, row in enumerate(values):
                if row.value is not None:
                    goal = row.results if row.results is not None else row.value * scale
                    values[i] = row._replace(pv=root.pv(row.move, goal))
    return finish(mode, objective, root.node.seat, values, True, root.nodes(), budget, method,
                  stopped=stop.reason)

