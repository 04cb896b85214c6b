"""Three or four players reduced to two sides: the mover against the rest.

Max-n (:mod:`.maxn`) has no sound deep pruning, so from a round's first
turns it cannot finish in any budget an analysis can give a turn. The
paranoid reduction (Sturtevant and Korf 2000; compared with max-n and
best-reply search by Schadd and Winands 2011) assumes the other players play
together against the mover. The game becomes a two-sided zero-sum one and
alpha-beta prunes as it does for two players.

The value is an int, from the mover's side: ``(n - 1)`` times the mover's
points minus the sum of the other players' points, from here to the end of
the round, the settlement included. Divided by ``n - 1`` it reads "the
mover's points minus the opponents' average"; with two players it is the
two-player value exactly (the mover's points minus the opponent's).
Each credit adds its seat's weight times its points, so the value is a sum
along the path and the search can carry it as alpha-beta carries a score.
Under the match objective a seat reaching the target adds the weighted
``MATCH_WIN`` vector (``+MATCH_WIN`` for that seat, ``-MATCH_WIN`` for each
other), as max-n's result vectors do.

The position is a handful of ints (a hand mask per seat, the canonical
layout id, the stock position, the seat to move, the distances to the
target), the table key is structural like the two-player search's, and the
moves come from ``LayoutTable.search_moves`` (scoring moves first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from muggins_cli.engine.scoring import credit_ends_match
from muggins_cli.engine.table import LayoutTable, SearchMove
from muggins_cli.rules.model import Rules
from muggins_cli.solver.common import (
    MATCH_WIN,
    Budget,
    Objective,
    Settler,
    dist_offset,
    pip_counter,
    settle_bonus_max,
)
from muggins_cli.solver.compiled_paranoid import CompiledParanoid, usable

#: Bigger than any value: the table's "no bound yet".
BIG = 1 << 40

Search = Callable[[tuple[int, ...], int, int, int, tuple[int, ...], int, int], int]


def weights(players: int, root: int) -> tuple[int, ...]:
    """Each seat's weight in the value: ``n - 1`` for the mover, -1 for each
    other seat."""
    return tuple(players - 1 if s == root else -1 for s in range(players))


class Paranoid:
    """Exact paranoid search over one known stock order.

    ``search(hands, lay, sp, seat, dists, alpha, beta)`` is the fail-soft
    alpha-beta value (module docstring) for the root seat, with ``seat`` to
    move, canonical layout ``lay`` and the next draw at ``stock[sp]``. The
    root seat maximises, every other seat minimises. The table is kept
    between calls, so the root's moves reuse one another's work.
    """

    def __init__(
        self,
        rules: Rules,
        table: LayoutTable,
        players: int,
        root: int,
        stock: Sequence[int],
        objective: Objective,
        budget: Budget,
        live: bool,
        low: int = 0,
    ) -> None:
        self.rules = rules
        self.table = table
        self.n = players
        self.root = root
        self.w = weights(players, root)
        self.stock = tuple(stock)
        self.lim = max(0, len(self.stock) - rules.stock_reserve)
        self.objective = objective
        self.budget = budget
        self.live = live
        self.settler = Settler(rules, objective)
        self.pips = pip_counter(table)
        self.bonus = settle_bonus_max(rules, table)
        self.far = table.max_place * table.n_tiles + self.bonus + 1
        self.off = dist_offset(rules, self.far, low)
        #: Whether a placement reaching the target ends the match there.
        self.ends_on_credit = credit_ends_match(rules)
        self.tt: dict[int, tuple[int, int, SearchMove | None]] = {}
        self.compiled: CompiledParanoid | None = None
        if usable(table, budget, objective is Objective.MATCH, self.far, self.off):
            self.compiled = CompiledParanoid(rules, table, players, root, self.stock, budget,
                                             self.w, (
                self.lim, rules.must_play, live, table.empty, self.bonus, table.max_place,
                self.far, self.off, self.ends_on_credit))
            self.search: Search = self.compiled.search
        else:
            self.search = self._build()

    def weigh(self, vec: Sequence[float]) -> int:
        """A result vector (points by seat) as a value."""
        return int(sum(w * x for w, x in zip(self.w, vec)))

    def reach(self, seat: int) -> int:
        """What reaching the target adds beyond the points, by objective."""
        if self.objective is not Objective.MATCH:
            return 0
        return self.weigh([MATCH_WIN if i == seat else -MATCH_WIN for i in range(self.n)])

    def _build(self) -> Search:
        table = self.table
        fitmask = table.fitmask
        smoves = table.smoves
        search_moves = table.search_moves
        tile_moves = table.tile_moves
        stock = self.stock
        lim = self.lim
        tt = self.tt
        tget = tt.get
        must_play = self.rules.must_play
        budget = self.budget
        every, mask = budget.every, budget.mask
        live = self.live
        empty = table.empty
        n = self.n
        root = self.root
        w = self.w
        win = tuple(self.reach(s) for s in range(n))
        results = self.settler.results
        pips = self.pips
        match = self.objective is Objective.MATCH
        settled: dict[tuple[tuple[int, ...], int | None], int] = {}
        bits = table.n_tiles
        sp_bits = max(1, len(stock).bit_length())
        far = self.far
        off = self.off
        ends = self.ends_on_credit
        dist_bits = (far + off).bit_length()
        bonus = self.bonus
        max_place = table.max_place
        nodes = 0

        def settle(hands: tuple[int, ...], went_out: int | None, dists: tuple[int, ...]) -> int:
            p = tuple(pips(h) for h in hands)
            if match:
                vec = results(p, went_out, dists)
                return sum(a * b for a, b in zip(w, vec))
            key = (p, went_out)
            v = settled.get(key)
            if v is None:
                v = settled[key] = sum(a * b for a, b in zip(w, results(p, went_out, dists)))
            return v

        def after(hands: tuple[int, ...], seat: int, rest: int, nl: int, sp: int,
                  dists: tuple[int, ...], pts: int, alpha: int, beta: int) -> int:
            """``seat`` has laid a tile scoring ``pts`` and holds ``rest``."""
            here = w[seat] * pts
            if ends and pts >= dists[seat]:
                return here + win[seat]
            new_hands = (*hands[:seat], rest, *hands[seat + 1:])
            new_dists = (*dists[:seat], dists[seat] - pts, *dists[seat + 1:])
            if not rest:
                return here + settle(new_hands, seat, new_dists)
            if sp >= lim:
                fm = fitmask[nl]
                for h in new_hands:
                    if h & fm:
                        break
                else:
                    return here + settle(new_hands, None, new_dists)
            return here + search(new_hands, nl, sp, (seat + 1) % n, new_dists,
                                 alpha - here, beta - here)

        def place_drawn(hands: tuple[int, ...], lay: int, sp: int, seat: int,
                        dists: tuple[int, ...], ti: int, alpha: int, beta: int) -> int:
            """Lay the tile just drawn (``hands[seat]`` does not hold it)."""
            mine = seat == root
            best = -BIG if mine else BIG
            me = hands[seat]
            for nl, pts in tile_moves(lay, ti):
                v = after(hands, seat, me, nl, sp, dists, pts, alpha, beta)
                if mine:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            return best

        def pass_(hands: tuple[int, ...], lay: int, sp: int, seat: int,
                  dists: tuple[int, ...], alpha: int, beta: int) -> int:
            fm = fitmask[lay]
            for h in hands:
                if h & fm:
                    break
            else:
                return settle(hands, None, dists)  # blocked
            return search(hands, lay, sp, (seat + 1) % n, dists, alpha, beta)

        def draw(hands: tuple[int, ...], lay: int, sp: int, seat: int, dists: tuple[int, ...],
                 one: bool, alpha: int, beta: int) -> int:
            """Draw one tile (``one``), or under ``must_play`` until one fits."""
            fm = fitmask[lay]
            me = hands[seat]
            k = sp
            while k < lim:
                ti = stock[k]
                k += 1
                if fm >> ti & 1:
                    held = (*hands[:seat], me, *hands[seat + 1:])
                    return place_drawn(held, lay, k, seat, dists, ti, alpha, beta)
                me |= 1 << ti
                if one:
                    break
            more = (*hands[:seat], me, *hands[seat + 1:])
            if one:
                return search(more, lay, k, seat, dists, alpha, beta)
            return pass_(more, lay, k, seat, dists, alpha, beta)

        def search(hands: tuple[int, ...], lay: int, sp: int, seat: int,
                   dists: tuple[int, ...], alpha: int, beta: int) -> int:
            nonlocal nodes
            nodes += 1
            if not nodes & mask:
                budget.nodes += every
                budget.check()
            key = lay
            for h in hands:
                key = key << bits | h
            key = (key << sp_bits | sp) * n + seat
            if live:
                # Distances enter the key only while they can still be closed.
                room = bonus + max_place * (lim - sp if sp < lim else 0)
                for d, h in zip(dists, hands):
                    key = key << dist_bits | off + (d if d <= room + max_place * h.bit_count()
                                                    else far)
            e = tget(key)
            if e is not None:
                lo, hi, first = e
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi, first = -BIG, BIG, None
            a0, b0 = alpha, beta
            me = hands[seat]
            fm = fitmask[lay]
            mine = seat == root
            top = first
            can_draw = sp < lim and lay != empty
            if me & fm:
                best = -BIG if mine else BIG
                ml = smoves[lay]
                if ml is None:
                    ml = search_moves(lay)
                if first is not None:
                    # The move that was best or cut off here before goes first.
                    ml = [first, *ml]
                tried = False
                cut = False
                for mv in ml:
                    if not me & mv[0]:
                        continue
                    if mv is first:
                        if tried:
                            continue
                        tried = True
                    bit, _, nl, pts = mv
                    v = after(hands, seat, me ^ bit, nl, sp, dists, pts, alpha, beta)
                    if mine:
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                top = mv
                                if v >= beta:
                                    cut = True
                                    break
                    elif v < best:
                        best = v
                        if v < beta:
                            beta = v
                            top = mv
                            if v <= alpha:
                                cut = True
                                break
                if not cut and not must_play and can_draw:
                    v = draw(hands, lay, sp, seat, dists, True, alpha, beta)
                    if (mine and v > best) or (not mine and v < best):
                        best = v
            elif can_draw:
                best = draw(hands, lay, sp, seat, dists, False, alpha, beta)
            else:
                best = pass_(hands, lay, sp, seat, dists, alpha, beta)
            if best <= a0:
                tt[key] = (lo, best if best < hi else hi, top)
            elif best >= b0:
                tt[key] = (best if best > lo else lo, hi, top)
            else:
                tt[key] = (best, best, top)
            return best

        def counted() -> int:
            return nodes

        self._counted = counted
        return search

    def node_count(self) -> int:
        if self.compiled is not None:
            return self.compiled.node_count()
        return self._counted()

    def release(self) -> None:
        """Drop the table now (the closures refer to one another, so the
        table would otherwise wait for the cycle collector)."""
        if self.compiled is not None:
            self.compiled.release()
        self.tt.clear()
