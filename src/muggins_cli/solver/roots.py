"""The root of a search: every legal move valued, and the principal
variations, on top of the one compiled search (:mod:`.kernel`).

The root's moves are real (oriented) moves, named as the engine names them,
so the root steps through them in Python (:class:`~.game.SolverGame`) and hands
each position after a move to the kernel. Alpha-beta values come by MTD(f),
null-window tests that the transposition table mostly answers; max-n
vectors in one call each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from muggins_cli.engine.state import UnseenDraw
from muggins_cli.engine.table import LayoutTable
from muggins_cli.engine.turn import credit_ends_match
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import MATCH_WIN, Budget, Objective
from muggins_cli.solver.game import (
    Ending,
    Node,
    SolverGame,
    SolverMove,
    pip_chunk_array,
    settle_bonus_max,
)
from muggins_cli.solver.kernel import BIG, CHANCE, DECIDE, Kernel, SearchError, preference

Vec = tuple[float, ...]

_CHUNKS: dict[int, object] = {}


def weights(players: int, root: int) -> tuple[float, ...]:
    """Each seat's weight in an alpha-beta value: ``n - 1`` for the root
    seat, -1 for each other (two seats: the mover's points minus the
    other's)."""
    return tuple(float(players - 1 if s == root else -1) for s in range(players))


def live(game: SolverGame, node: Node, bonus: int, match: bool) -> bool:
    """Whether some seat could reach the target before this round ends in a
    way that changes a value (a placement's credit ends the match under
    ``at-target``; the match objective also counts the settlement's); if
    not, neither the table keys nor its entries hold the scores (more
    positions share)."""
    if not (match or credit_ends_match(game.r)):
        return False
    room = game.table.max_place
    return any(d <= room * (h.bit_count() + game.can_draw(node.stock)) + bonus
               for d, h in zip(node.dists, node.hands))


class Root:
    """One position's search: the game, the kernel, and how a value reads."""

    def __init__(self, rules: Rules, table: LayoutTable, game: SolverGame, node: Node,
                 objective: Objective, budget: Budget, *, maxn: bool) -> None:
        self.game = game
        self.node = node
        self.maxn = maxn
        n = game.n
        self.w = weights(n, node.seat)
        # Reaching the target under the match objective: MATCH_WIN to the
        # winner and minus it to the others in a max-n vector; half of
        # that in alpha-beta's, so that two seats' margin moves by
        # MATCH_WIN (and the paranoid value, divided by n - 1, too).
        self.win = 0 if objective is not Objective.MATCH else MATCH_WIN if maxn else (
            MATCH_WIN // 2)
        bonus = settle_bonus_max(rules, table)
        far = table.max_place * table.n_tiles + bonus + 1
        low = min(node.dists)
        off = 0 if credit_ends_match(table.r) else far - min(low, 0)
        chunks = _CHUNKS.get(table.n_tiles)
        if chunks is None:
            chunks = _CHUNKS[table.n_tiles] = pip_chunk_array(table)
        match = objective is Objective.MATCH
        try:
            self.kernel = Kernel(
                table.r, n, node.seat, self.w, maxn=maxn, order=game.order, match=match,
                far=far, off=off, bonus=bonus, max_place=table.max_place, win=self.win,
                live=live(game, node, bonus, match), pip_chunks=chunks,  # type: ignore[arg-type]
                budget=budget)
        except SearchError as e:
            raise InputError(str(e)) from None

    def release(self) -> None:
        self.kernel.release()

    def nodes(self) -> int:
        return self.kernel.node_count()

    def weigh(self, vec: Sequence[float]) -> float:
        return sum(w * x for w, x in zip(self.w, vec))

    def results(self, end: Ending) -> Vec:
        """A round or match end as the search's result vector."""
        if end.winner is None or not self.win:
            return tuple(float(p) for p in end.points)
        return tuple(float(p + (self.win if i == end.winner else -self.win))
                     for i, p in enumerate(end.points))

    # -- values --------------------------------------------------------------

    def _search(self, node: Node, kind: int, alpha: float = -BIG, beta: float = BIG) -> Vec:
        hands = node.hands
        if node.drawn >= 0:  # the kernel holds a drawn tile apart from the hand
            seat = node.seat
            hands = (*hands[:seat], hands[seat] & ~(1 << node.drawn), *hands[seat + 1:])
        out = self.kernel.search(kind, node.seat, node.key, node.stock, node.drawn, hands,
                                 node.dists, alpha, beta)
        if self.maxn:
            return tuple(float(x) for x in out[:self.game.n])
        return (float(out[0]),)

    def move_value(self, node: Node, move: SolverMove, alpha: float = -BIG,
                   beta: float = BIG) -> float:
        """Alpha-beta: the value of ``move`` from ``node`` (fail-soft in the
        window)."""
        if isinstance(move, UnseenDraw):
            return self._search(node, CHANCE, alpha, beta)[0]
        pts, nxt = self.game.step(node, move)
        if isinstance(nxt, Ending):
            return self.weigh(self.results(nxt))
        add = self.w[node.seat] * pts
        return add + self._search(nxt, DECIDE, alpha - add, beta - add)[0]

    def move_vec(self, node: Node, move: SolverMove) -> Vec:
        """Max-n: the result vector of ``move`` from ``node``."""
        if isinstance(move, UnseenDraw):
            return self._search(node, CHANCE)
        pts, nxt = self.game.step(node, move)
        if isinstance(nxt, Ending):
            return self.results(nxt)
        vec = self._search(nxt, DECIDE)
        seat = node.seat
        return (*vec[:seat], vec[seat] + pts, *vec[seat + 1:])

    def exact_value(self, move: SolverMove, guess: float) -> float:
        """Alpha-beta, the exact value of a root move: by MTD(f) when
        values are whole numbers (a known stock order), else one full
        window (chance nodes average)."""
        if self.game.order is None:
            return self.move_value(self.node, move)
        def probe(alpha: float, beta: float) -> float:
            return self.move_value(self.node, move, alpha, beta)

        return mtd(probe, guess)

    # -- principal variations ------------------------------------------------

    def pv(self, move: SolverMove, value: float | Vec) -> list[SolverMove]:
        """``move``, then at each step the move that keeps the value (the
        first of equals; max-n: the mover's preferred), until the round ends
        or a draw whose tile nobody knows yet."""
        node = self.node
        line: list[SolverMove] = [move]
        goal = value
        while len(line) < 200 and not isinstance(move, UnseenDraw):
            pts, nxt = self.game.step(node, move)
            if isinstance(nxt, Ending):
                break
            moves = self.game.legal(nxt)
            if self.maxn:
                move = self._preferred(nxt, moves)
            else:
                assert isinstance(goal, float)
                goal = goal - self.w[node.seat] * pts
                move = moves[0]
                if len(moves) > 1:
                    for m in moves:
                        if self._keeps(nxt, m, goal):
                            move = m
                            break
            node = nxt
            line.append(move)
        return line

    def _preferred(self, node: Node, moves: list[SolverMove]) -> SolverMove:
        """Max-n: the mover's preferred move (the first of equals)."""
        return max(moves, key=lambda m: preference(self.move_vec(node, m), node.seat))

    def _keeps(self, node: Node, move: SolverMove, goal: float) -> bool:
        """Whether ``move`` keeps the value ``goal``: the root seat takes a
        move worth at least it, every other seat one worth at most it."""
        if self.game.order is None:
            return abs(self.move_value(node, move) - goal) < 1e-9
        if node.seat == self.node.seat:
            return self.move_value(node, move, goal - 1, goal) >= goal
        return self.move_value(node, move, goal, goal + 1) <= goal


def mtd(f: Callable[[float, float], float], guess: float) -> float:
    """MTD(f): the exact value by null-window tests, which with a table
    costs about half of one full-window search (measured on pagat rounds)."""
    lo, hi = -BIG, BIG
    g = guess
    while lo < hi:
        beta = g if g > lo else lo + 1
        v = f(beta - 1, beta)
        if v < beta:
            hi = v
        else:
            lo = v
        g = v
    return lo
