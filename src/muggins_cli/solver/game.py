"""Positions as the solver holds them between searches: the root, its moves
and the principal variations.

A position is a handful of ints (a hand mask per seat, the layout's key, the
stock, the seat to move, each seat's distance to the target, a drawn tile
that must go down), so a step costs microseconds. Which moves are legal and
what follows one are the engine's answers (:mod:`muggins_cli.engine.turn`,
through the layout table's memo of :mod:`muggins_cli.engine.keys`), the
very functions the compiled search (:mod:`.kernel`) runs; this module only
names the moves as the engine's move values, for the answer's rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from muggins_cli.engine import turn
from muggins_cli.engine.keys import EMPTY
from muggins_cli.engine.state import KnownDraw, PassTurn, Place, UnseenDraw
from muggins_cli.engine.table import LayoutTable
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import Objective
from muggins_cli.tiles import Tile, tiles_of

SolverMove = Place | KnownDraw | PassTurn | UnseenDraw


class Node(NamedTuple):
    """A position: hand masks by seat, the real (oriented) layout key, the
    stock (the next draw's place in ``order``, or a mask of tiles when the
    order is unknown), the seat to move, distances to the target by seat,
    and a drawn tile that must be placed at once (-1 for none; it is in
    its drawer's hand, as in the engine's states)."""

    hands: tuple[int, ...]
    key: int
    stock: int
    seat: int
    dists: tuple[int, ...]
    drawn: int


class Ending(NamedTuple):
    """A move that ends the round or the match: points by seat from here
    (the settlement and the move's own score included) and the seat that
    won the match, if any (what that is worth is the search's to say)."""

    points: tuple[int, ...]
    winner: int | None


class SolverGame:
    """The rules of a round on :class:`Node` values: the legal moves in the
    engine's order and where each leads. ``order`` is the stock's known
    order, or None when only its contents are known (``expect``)."""

    def __init__(self, rules: Rules, table: LayoutTable, players: int,
                 order: Sequence[int] | None, objective: Objective,
                 lead_tile: Tile | None = None) -> None:
        self.rules = rules
        self.table = table
        self.r = table.r
        self.n = players
        self.order = tuple(order) if order is not None else None
        self.lead_tile = lead_tile
        self.pips = [t.pips for t in table.by_index]

    def can_draw(self, stock: int) -> int:
        """Tiles left to draw above the reserve."""
        if self.order is None:
            return turn.drawable(self.r, stock.bit_count())
        return turn.drawable(self.r, len(self.order) - stock)

    def legal(self, node: Node) -> list[SolverMove]:
        """The mover's moves in ``legal_moves``'s order: placements, then a
        draw (a named tile when the order is known) or else a pass."""
        t = self.table
        if node.drawn >= 0:
            tile = t.by_index[node.drawn]
            return [Place(tile, end) for end, _, _ in t.moves(node.key, node.drawn)]
        if node.key == EMPTY and self.lead_tile is not None:
            return [Place(self.lead_tile)]
        hand = node.hands[node.seat]
        fit = t.fit(node.key)
        options = turn.turn_options(self.r, node.key, hand, fit, self.can_draw(node.stock), False)
        moves: list[SolverMove] = []
        for ti in t.legal_order:
            if (hand & fit) >> ti & 1:
                tile = t.by_index[ti]
                moves.extend(Place(tile, end) for end, _, _ in t.moves(node.key, ti))
        if options & turn.MAY_DRAW:
            if self.order is None:
                moves.append(UnseenDraw())
            else:
                moves.append(KnownDraw(t.by_index[self.order[node.stock]]))
        elif options & turn.MUST_PASS:
            moves.append(PassTurn())
        return moves

    def step(self, node: Node, move: SolverMove) -> tuple[int, Node | Ending]:
        """A known move's points and the next position, or how it ends."""
        t = self.table
        hands, seat, n = node.hands, node.seat, self.n
        if isinstance(move, Place):
            ti = move.tile.index()
            nkey, pts = next((k, p) for e, k, p in t.moves(node.key, ti) if e == move.end)
            after = (*hands[:seat], hands[seat] & ~(1 << ti), *hands[seat + 1:])
            dists = (*node.dists[:seat], node.dists[seat] - pts, *node.dists[seat + 1:])
            out = turn.after_placement(self.r, nkey, t.fit(nkey), after, seat, pts,
                                       node.dists[seat], self.can_draw(node.stock))
            if out == turn.REACHED:
                return pts, self._reached(seat, pts)
            if out == turn.GOES_ON:
                return pts, Node(after, nkey, node.stock, (seat + 1) % n, dists, -1)
            went_out = seat if out == turn.WENT_OUT else turn.NOBODY
            return pts, self._settled(after, went_out, dists, seat, pts)
        if isinstance(move, KnownDraw):
            assert self.order is not None
            ti = self.order[node.stock]
            more = (*hands[:seat], hands[seat] | 1 << ti, *hands[seat + 1:])
            drawn = ti if t.fit(node.key) >> ti & 1 else -1
            return 0, node._replace(hands=more, stock=node.stock + 1, drawn=drawn)
        if isinstance(move, PassTurn):
            out = turn.after_pass(node.key, t.fit(node.key), hands, self.can_draw(node.stock))
            if out == turn.BLOCKED:
                return 0, self._settled(hands, turn.NOBODY, node.dists, seat, 0)
            return 0, node._replace(seat=(seat + 1) % n)
        raise ValueError(f"{move} has no known outcome")

    def _reached(self, seat: int, pts: int) -> Ending:
        return Ending(tuple(pts if i == seat else 0 for i in range(self.n)), seat)

    def _settled(self, hands: Sequence[int], went_out: int, dists: Sequence[int], seat: int,
                 pts: int) -> Ending:
        pips = [sum(self.pips[t.index()] for t in tiles_of(h)) for h in hands]
        deltas = [0] * self.n
        turn.settle(self.r, pips, went_out, deltas)
        winner = turn.winner_at_settlement(self.r, [-d for d in dists], deltas, 0)
        deltas[seat] += pts
        return Ending(tuple(deltas), None if winner == turn.NOBODY else winner)


def pip_chunk_array(table: LayoutTable) -> np.ndarray:
    """The pips of every byte of a mask: row ``c`` holds the sums over the
    tiles ``8c`` to ``8c + 7`` (the search reads a hand's pips at every
    round end, where a loop over the bits would be the slowest step, and
    a table of bytes stays in the processor's nearest cache)."""
    pips = [t.pips for t in table.by_index]
    out = np.zeros((max((len(pips) + 7) // 8, 1), 256), dtype=np.int64)
    for c in range(out.shape[0]):
        for b in range(1, 256):
            low = b & -b
            t = 8 * c + low.bit_length() - 1
            out[c, b] = out[c, b ^ low] + (pips[t] if t < len(pips) else 0)
    return out


def settle_bonus_max(rules: Rules, table: LayoutTable) -> int:
    """The largest credit a round end can give anyone (0 under deduct-own):
    it bounds what a seat can still make in a round."""
    total = sum(t.pips for t in table.tiles)
    out = [0, 0]
    turn.settle(table.r, [0, total], 0, out)  # one seat out, every pip against it
    return max(0, out[0])
