"""What the mover could know, and deals consistent with it (``sample`` mode).

:class:`Knowledge` holds only what a player at the table sees: their own
hand, the layout, every hand's size, the tiles they have not seen, how many
tiles are left to draw, and what draws and passes showed (a player who drew
or passed held no tile fitting the open ends at that moment). It has no
field for another player's tiles or the stock order, so a search built from
it cannot read a hidden tile: the sampler deals the unseen tiles afresh each
time, consistently with the voids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import RoundState
from muggins_cli.engine.voids import Void
from muggins_cli.errors import InputError
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile, full_set


class SeatView(Protocol):
    """What :meth:`Knowledge.from_position` reads of a position: the
    replay's ``Position`` has these fields (the solver stands below the
    replay and does not import it; this says what it relies on, and mypy
    checks that the replay provides it). ``hands`` is by seat, None where
    the record hides a hand; only the mover's is read."""

    @property
    def to_move(self) -> int: ...
    @property
    def hands(self) -> Sequence[frozenset[Tile] | None]: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...
    @property
    def unseen(self) -> frozenset[Tile]: ...
    @property
    def stock_count(self) -> int: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def target(self) -> int: ...
    @property
    def voids(self) -> Sequence[Void]: ...
    @property
    def drawn(self) -> Tile | None: ...


@dataclass(frozen=True)
class Knowledge:
    """The mover's view of a position: nothing here is hidden from them.

    ``unseen`` is every tile not on the table and not in the mover's hand:
    the other hands and the stock between them. ``history`` is free text
    (the draws and passes seen, e.g. ``"Budi: d?? d?? 3-4R"``) kept for
    display; the constraints the sampler uses are in ``voids``.
    """

    seat: int
    hand: frozenset[Tile]
    layout: Layout
    hand_sizes: tuple[int, ...]
    unseen: frozenset[Tile]
    stock_count: int
    scores: tuple[int, ...]
    target: int
    voids: tuple[Void, ...] = ()
    drawn: Tile | None = None
    history: tuple[str, ...] = field(default=())
    #: The double the round must open with (``lead_tile: highest-double``).
    lead_tile: Tile | None = None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def check(self) -> None:
        """Refuse a view whose counts do not add up (no deal could match)."""
        others = sum(s for i, s in enumerate(self.hand_sizes) if i != self.seat)
        if len(self.hand) != self.hand_sizes[self.seat]:
            raise InputError("the mover's hand does not have the stated size")
        if others + self.stock_count != len(self.unseen):
            raise InputError(
                f"{len(self.unseen)} unseen tiles cannot make up the other hands "
                f"({others}) and the stock ({self.stock_count})")
        if self.hand & self.unseen:
            raise InputError("a tile is both in the mover's hand and unseen")

    @classmethod
    def from_state(
        cls,
        rules: Rules,
        state: RoundState,
        scores: Sequence[int],
        target: int,
        voids: Sequence[Void] = (),
        history: Sequence[str] = (),
    ) -> Knowledge:
        """The mover's view of a full state: only the mover's hand is read;
        the other hands and the stock give their sizes and nothing else."""
        seat = state.to_move
        hand = state.hands[seat]
        on_table = set(state.layout.tiles())
        unseen = frozenset(set(full_set(rules.max_pip)) - on_table - set(hand))
        return cls(
            seat=seat,
            hand=frozenset(hand),
            layout=state.layout,
            hand_sizes=tuple(len(h) for h in state.hands),
            unseen=unseen,
            stock_count=len(state.stock),
            scores=tuple(scores),
            target=target,
            voids=tuple(voids),
            lead_tile=state.lead_tile,
            drawn=state.drawn,
            history=tuple(history),
        )

    @classmethod
    def from_position(cls, pos: SeatView) -> Knowledge:
        """The mover's view of a replayed ``Position``
        (:mod:`muggins_cli.replay.position`, not imported: see :class:`SeatView`).

        Reads ``pos.hands[pos.to_move]`` and public fields only (never
        another seat's hand or ``pos.stock``); the voids are the replay's,
        counted as the table saw them.
        """
        seat = pos.to_move
        hand = pos.hands[seat]
        if hand is None:
            raise InputError("the record does not show the mover's hand (no deal line)")
        voids: tuple[Void, ...] = tuple(pos.voids)
        return cls(
            seat=seat,
            hand=frozenset(hand),
            layout=pos.layout,
            hand_sizes=tuple(pos.hand_sizes),
            unseen=frozenset(pos.unseen),
            stock_count=pos.stock_count,
            scores=tuple(pos.scores),
            target=pos.target,
            voids=voids,
            drawn=pos.drawn,
        )


def _fits_voids(tiles: Sequence[Tile], voids: Sequence[Void]) -> bool:
    return all(
        sum(1 for t in tiles if t.lo in v.pips or t.hi in v.pips) <= v.drawn_since
        for v in voids
    )


class Sampler:
    """Deals the unseen tiles consistently with a :class:`Knowledge`.

    Each deal is uniform among the consistent ones while rejection sampling
    finds one within ``tries`` shuffles; past that (tight voids) a greedy
    deal with restarts is used, which is consistent but not exactly uniform.
    Seeded, so the same knowledge and seed give the same deals.
    """

    def __init__(self, know: Knowledge, rng: random.Random, tries: int = 200) -> None:
        know.check()
        self.know = know
        self.rng = rng
        self.tries = tries
        self.pool = sorted(know.unseen)
        self.others = [s for s in range(know.players) if s != know.seat]
        self.by_seat: dict[int, list[Void]] = {s: [] for s in self.others}
        for v in know.voids:
            if v.seat in self.by_seat:
                self.by_seat[v.seat].append(v)

    def deal(self) -> RoundState:
        """A full state the mover cannot tell from the real one."""
        know = self.know
        hands: list[frozenset[Tile]] = [frozenset()] * know.players
        hands[know.seat] = know.hand
        for _ in range(self.tries):
            pool = list(self.pool)
            self.rng.shuffle(pool)
            at = 0
            ok = True
            for s in self.others:
                size = know.hand_sizes[s]
                mine = pool[at:at + size]
                at += size
                if not _fits_voids(mine, self.by_seat[s]):
                    ok = False
                    break
                hands[s] = frozenset(mine)
            if ok:
                return self._state(hands, pool[at:])
        return self._greedy(hands)

    def _greedy(self, hands: list[frozenset[Tile]]) -> RoundState:
        know = self.know
        for _ in range(1000):
            pool = list(self.pool)
            self.rng.shuffle(pool)
            held: dict[int, list[Tile]] = {s: [] for s in self.others}
            stock: list[Tile] = []
            for t in pool:
                places = [
                    s for s in self.others
                    if len(held[s]) < know.hand_sizes[s]
                    and _fits_voids([*held[s], t], self.by_seat[s])
                ]
                room = know.stock_count - len(stock)
                weights = [know.hand_sizes[s] - len(held[s]) for s in places] + [room]
                if sum(weights) == 0:
                    break
                pick = self.rng.choices([*places, -1], weights=weights)[0]
                (stock if pick == -1 else held[pick]).append(t)
            else:
                for s in self.others:
                    hands[s] = frozenset(held[s])
                return self._state(hands, stock)
        raise InputError("no deal of the unseen tiles agrees with the draws and passes seen")

    def _state(self, hands: Sequence[frozenset[Tile]], stock: Sequence[Tile]) -> RoundState:
        know = self.know
        return RoundState(tuple(hands), tuple(stock), know.layout, know.seat, know.drawn,
                          lead_tile=know.lead_tile)
