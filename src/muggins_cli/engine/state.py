"""A round with every tile known: legal moves and their effect.

Drawing is a move like placing or passing (OpenSpiel's explicit chance
player), so an illegal draw is an ordinary legality question. States are
immutable; ``apply`` returns a new one. Used by self-play, tests and any
caller that knows every hand and the stock order; the replay, which may not,
uses the same layout functions directly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from muggins_cli.engine import turn
from muggins_cli.engine.layout import (
    EMPTY,
    End,
    Layout,
    blocked_at,
    layout_score,
    lead,
    place_scored,
)
from muggins_cli.engine.table import table_for
from muggins_cli.errors import IllegalMoveError
from muggins_cli.rules.model import LeadTile, Rules
from muggins_cli.tiles import Pip, Tile, bits_of, full_set


@dataclass(frozen=True, slots=True)
class Place:
    """Place ``tile`` on ``end``; the opening tile has no end and may say
    which half faces L (``left``)."""

    tile: Tile
    end: End | None = None
    left: Pip | None = None

    def __str__(self) -> str:
        if self.end is None:
            a = self.tile.lo if self.left is None else self.left
            return f"{a}-{self.tile.other(a)}"
        return f"{self.tile}{self.end.value}"


@dataclass(frozen=True, slots=True)
class KnownDraw:
    tile: Tile

    def __str__(self) -> str:
        return f"d{self.tile}"


@dataclass(frozen=True, slots=True)
class UnseenDraw:
    """A draw as a player decides on it: its tile is not known until it is
    drawn (MGN ``d??``). The mover's view of the moves, the strategies and
    the solver's ``expect``/``sample`` modes name a draw this way; the
    engine's own :class:`KnownDraw` carries the stock's next tile."""

    def __str__(self) -> str:
        return "d??"


@dataclass(frozen=True, slots=True)
class PassTurn:
    def __str__(self) -> str:
        return "pass"


def as_seen(move: Place | KnownDraw | PassTurn | UnseenDraw) -> Place | PassTurn | UnseenDraw:
    """``move`` as the mover decides on it: a draw without its tile."""
    return UnseenDraw() if isinstance(move, KnownDraw) else move


Move = Place | KnownDraw | PassTurn


@dataclass(frozen=True, slots=True)
class RoundState:
    """One round in progress. ``drawn`` is a fitting tile just drawn, which
    must be placed at once; ``went_out`` and ``blocked`` say how it ended."""

    hands: tuple[frozenset[Tile], ...]
    stock: tuple[Tile, ...]
    layout: Layout
    to_move: int
    drawn: Tile | None = None
    over: bool = False
    went_out: int | None = None
    blocked: bool = False
    #: The tile the round must open with (``lead_tile: highest-double``), or
    #: None when the leader may lead any tile.
    lead_tile: Tile | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def hand_pips(self) -> list[int]:
        return [sum(t.pips for t in h) for h in self.hands]


def new_round(
    hands: Sequence[Sequence[Tile]], stock: Sequence[Tile], leader: int,
    lead_tile: Tile | None = None,
) -> RoundState:
    return RoundState(tuple(frozenset(h) for h in hands), tuple(stock), EMPTY, leader,
                      lead_tile=lead_tile)


def leads_by_deal(rules: Rules) -> bool:
    """Whether a round without a leader from the last one (round 1, after a
    block) is led by the deal rather than by lot (docs/rules.md ``lead_tile``)."""
    return rules.lead_tile is LeadTile.HIGHEST_DOUBLE


def next_leader(went_out: int | None) -> int | None:
    """Who leads the round after one that ``went_out`` ended: whoever went
    out; after a block (None) nobody by right, and a lot, or the deal under
    ``lead_tile: highest-double``, decides."""
    return went_out


def highest_double(hands: Sequence[Iterable[Tile]]) -> tuple[int, Tile] | None:
    """The seat dealt the highest double and that double; None when nobody
    holds one (under ``highest-double`` such a deal is dealt again)."""
    best: tuple[int, Tile] | None = None
    for seat, hand in enumerate(hands):
        for t in hand:
            if t.is_double and (best is None or t.hi > best[1].hi):
                best = (seat, t)
    return best


def deal(rules: Rules, players: int, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """Shuffle the set and deal; returns the hands and the stock in draw order."""
    tiles = list(full_set(rules.max_pip))
    rng.shuffle(tiles)
    size = rules.hand_size_for(players)
    hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
    return hands, tiles[players * size :]


def deal_with_double(rules: Rules, players: int,
                     rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """Deal until some hand holds a double: a round led by the highest
    double (``lead_tile: highest-double``) is dealt again when none is."""
    while True:
        hands, stock = deal(rules, players, rng)
        if highest_double(hands) is not None:
            return hands, stock


def drawable(rules: Rules, state: RoundState) -> int:
    """Tiles that may still be drawn (the reserve at the bottom never is)."""
    return turn.drawable(table_for(rules).r, len(state.stock))


def placements(rules: Rules, layout: Layout, tiles: Iterable[Tile]) -> list[Place]:
    """Every legal placement of the given tiles: one per tile and open end."""
    if not layout.started:
        return [Place(t) for t in sorted(tiles)]
    table = table_for(rules)
    return [Place(t, e) for t in sorted(tiles) for e in table.ends_for(layout.key, t)]


def own_moves(rules: Rules, layout: Layout, hand: Iterable[Tile], drawn: Tile | None,
              can_draw: int, lead_tile: Tile | None = None) -> tuple[list[Place], int]:
    """The mover's placements and what else the turn allows (the flags of
    :func:`~muggins_cli.engine.turn.turn_options`: a draw, or else a pass),
    from what the mover sees alone (their hand, the layout, a tile they
    just drew, the tiles the stock has to draw, the double they must
    lead), so the analysis can count a player's choices without the other
    hands."""
    if lead_tile is not None and not layout.started:
        return [Place(lead_tile)], turn.MAY_PLACE
    table = table_for(rules)
    tiles = list(hand)
    options = turn.turn_options(table.r, layout.key, bits_of(tiles), table.fit(layout.key),
                                can_draw, drawn is not None)
    if drawn is not None:
        return placements(rules, layout, (drawn,)), options
    return placements(rules, layout, tiles), options


def legal_moves(rules: Rules, state: RoundState) -> list[Move]:
    """The mover's moves in the turn's order: the placements, then the
    draw of the stock's next tile, or else a pass."""
    if state.over:
        return []
    places, options = own_moves(rules, state.layout, state.hands[state.to_move], state.drawn,
                                drawable(rules, state), state.lead_tile)
    moves: list[Move] = list(places)
    if options & turn.MAY_DRAW:
        moves.append(KnownDraw(state.stock[0]))
    elif options & turn.MUST_PASS:
        moves.append(PassTurn())
    return moves


def blocked(rules: Rules, layout: Layout, hands: Iterable[Iterable[Tile]], drawable: int) -> bool:
    """:func:`~muggins_cli.engine.layout.blocked_at` for a layout and hands of tiles."""
    return blocked_at(table_for(rules), layout.key, [bits_of(h) for h in hands], drawable)


def is_blocked(rules: Rules, state: RoundState) -> bool:
    """Stock exhausted (down to the reserve) and no hand holds a fitting tile."""
    return blocked(rules, state.layout, state.hands, drawable(rules, state))


def placed(rules: Rules, layout: Layout, move: Place) -> Layout:
    """The layout after ``move``: the lead on an empty table (its ``left``
    half facing L when given), else the tile on its end."""
    return placed_scored(rules, layout, move)[0]


def placed_scored(rules: Rules, layout: Layout, move: Place) -> tuple[Layout, int]:
    """:func:`placed`, and what ``move`` scores: a tile laid on an end
    takes both from one look-up of the layout table (``place_scored``)."""
    if move.end is None:
        out = lead(rules, move.tile, move.left)
        return out, layout_score(rules, out)
    return place_scored(rules, layout, move.tile, move.end)


def placement_score(rules: Rules, layout: Layout, move: Place) -> int:
    """Points ``move`` scores at once on ``layout`` (what the analysis, the
    strategies and ``solve`` ask before the move is made)."""
    return placed_scored(rules, layout, move)[1]


def apply(rules: Rules, state: RoundState, move: Move) -> tuple[RoundState, int]:
    """Play ``move``; returns the new state and the points the move scored.

    Raises IllegalMoveError for a move not in ``legal_moves``: the check is
    cheap next to the search that calls this, and silently accepting an
    illegal move would corrupt every result built on it.
    """
    if move not in legal_moves(rules, state) and not _is_reoriented_lead(state, move):
        raise IllegalMoveError(f"{move} is not legal here")
    seat = state.to_move
    if isinstance(move, KnownDraw):
        fits_now = bool(table_for(rules).ends_for(state.layout.key, move.tile))
        hands = _with_hand(state.hands, seat, state.hands[seat] | {move.tile})
        return replace(state, hands=hands, stock=state.stock[1:],
                       drawn=move.tile if fits_now else None), 0
    nxt = (seat + 1) % state.players
    if isinstance(move, PassTurn):
        after = replace(state, to_move=nxt)
        return (replace(after, over=True, blocked=True) if is_blocked(rules, after) else after), 0
    layout, points = placed_scored(rules, state.layout, move)
    hand = state.hands[seat] - {move.tile}
    after = RoundState(_with_hand(state.hands, seat, hand), state.stock, layout, nxt)
    if not hand:
        return replace(after, over=True, went_out=seat), points
    if is_blocked(rules, after):
        return replace(after, over=True, blocked=True), points
    return after, points


def _is_reoriented_lead(state: RoundState, move: Move) -> bool:
    return (isinstance(move, Place) and move.end is None and not state.layout.started
            and move.tile in state.hands[state.to_move]
            and state.lead_tile in (None, move.tile)
            and (move.left is None or move.tile.has(move.left)))


def _with_hand(
    hands: tuple[frozenset[Tile], ...], seat: int, hand: frozenset[Tile]
) -> tuple[frozenset[Tile], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])
