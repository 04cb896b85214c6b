"""Positions in a record: ``R.T`` (docs/notation.md 7) as engine state.

The solver and the turn-by-turn display start from a position; this module
replays a match up to it and hands over only what the record shows: a hand
the record hides stays ``None``, never a guess.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from muggins_cli.engine.layout import Layout
from muggins_cli.engine.state import Pass as EnginePass
from muggins_cli.engine.state import Place, RoundState
from muggins_cli.engine.view import SeatView, moves_seen
from muggins_cli.engine.voids import Placed, Void
from muggins_cli.errors import InputError
from muggins_cli.notation.model import (
    NUMBER_MAX,
    BodyLine,
    Match,
    RoundLine,
    Turn,
    whole_number,
)
from muggins_cli.notation.quoting import quote
from muggins_cli.replay.replay import (
    MatchEnding,
    Replayer,
    ReplayVisitor,
    RulesResolver,
    TurnEvent,
    replay_match,
    won_text,
)
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile, full_set


@dataclass(frozen=True, slots=True)
class Position:
    """The moment before turn ``turn`` of round ``round`` (1-based)."""

    rules: Rules
    players: tuple[str, ...]
    round: int
    turn: int
    hands: tuple[frozenset[Tile] | None, ...]
    hand_sizes: tuple[int, ...]
    stock: tuple[Tile, ...] | None
    stock_count: int
    layout: Layout
    to_move: int
    drawn: Tile | None
    scores: tuple[int, ...]
    target: int
    unseen: frozenset[Tile]
    voids: tuple[Void, ...]
    round_over: bool
    winner: int | None
    """The seat that won, once the match is over (None before)."""
    #: The placements the others chose since they last drew (SeatView.placed).
    placed: tuple[Placed, ...] = ()
    #: The double the round must open with (``lead_tile: highest-double``),
    #: while nothing is on the table; None when any tile may open.
    lead_tile: Tile | None = None
    #: How the match was decided, once it is over (see ``MatchEnding``).
    ending: MatchEnding | None = None
    settlement: tuple[int, ...] | None = None
    """At a round's end: what its settlement credited each player, once the
    replay has applied it (``scores`` then include it); None before."""

    @property
    def match_over(self) -> bool:
        return self.winner is not None

    @property
    def perfect(self) -> bool:
        """Every hand and the stock order are known."""
        return all(h is not None for h in self.hands) and self.stock is not None

    def view(self) -> SeatView:
        """What the player to move sees here: their hand (the record must
        show it), the table, the sizes, the voids the replay counted. Never
        another seat's hand or ``stock``."""
        seat = self.to_move
        hand = self.hands[seat]
        if hand is None:
            raise InputError("the record does not show the mover's hand (no deal line)")
        return SeatView(
            seat=seat,
            hand=hand,
            layout=self.layout,
            hand_sizes=self.hand_sizes,
            unseen=self.unseen,
            stock_count=self.stock_count,
            scores=self.scores,
            target=self.target,
            moves=moves_seen(self.rules, self.layout, hand, self.drawn, self.stock_count,
                             self.lead_tile),
            voids=self.voids,
            drawn=self.drawn,
            lead_tile=self.lead_tile,
            placed=self.placed,
        )

    def state(self) -> RoundState:
        """The engine state; only when every hand and the stock order are known."""
        if not self.perfect:
            raise InputError(
                f"position {self.round}.{self.turn}: the record does not show every hand "
                "and the stock order (it needs deal lines and a stock line)")
        hands = tuple(h if h is not None else frozenset() for h in self.hands)
        assert self.stock is not None
        return RoundState(hands, self.stock, self.layout, self.to_move, self.drawn,
                          over=self.round_over, lead_tile=self.lead_tile)


def parse_at(at: str) -> tuple[int, int]:
    r, dot, t = at.strip().partition(".")
    round_number, turn = whole_number(r), whole_number(t)
    if not dot or not round_number or not turn:
        raise InputError(f"--at {quote(at)}: expected R.T, a round and a turn number such "
                         f"as 2.5 (each from 1 to {NUMBER_MAX:,})")
    return round_number, turn


#: Values positions hold, each kept once (see :func:`_shared`); cleared when
#: full, so it stays small whatever the record.
_SHARED: dict[object, object] = {}
_SHARED_MAX = 4096
_V = TypeVar("_V", bound=Hashable)


def _shared(value: _V) -> _V:
    """``value``, or the equal one an earlier position already holds.
    Consecutive positions mostly repeat their hands, stock, unseen tiles,
    scores and voids (a round of passes, all of them): sharing them keeps a
    long record's positions to a few hundred bytes each, where copies made
    them 3.8 KB (77 MB for the 20,000 positions of a study page)."""
    found = _SHARED.get(value)
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        _SHARED[value] = found = value
    return found  # type: ignore[return-value]


def snapshot(rep: Replayer, drawn: Tile | None = None, *, in_turn: bool = False) -> Position:
    """The current state of a replay as a Position: before its next line,
    or (``in_turn``) inside a turn after its draws, ``drawn`` the tile that
    must go down; either way ``turn`` is the number of the turn to play."""
    rnd = rep.round
    rules = rep.rules
    assert rnd is not None
    hands = _shared(tuple(_shared(frozenset(h.known)) if h.complete else None
                          for h in rnd.hands))
    mover = rnd.to_move
    on_table = set(rnd.layout.tiles())
    mine = hands[mover] or frozenset()
    unseen = _shared(frozenset(set(full_set(rules.max_pip)) - on_table - mine))
    return Position(
        rules=rules,
        players=tuple(rep.players),
        round=rnd.number,
        turn=rnd.turn_lines + (0 if in_turn else 1),  # a turn line counts once begun
        hands=hands,
        hand_sizes=_shared(tuple(h.size for h in rnd.hands)),
        stock=_shared(tuple(rnd.stock)) if rnd.stock is not None else None,
        stock_count=rnd.stock_count,
        layout=rnd.layout,
        to_move=mover,
        drawn=drawn,
        scores=_shared(tuple(rep.scores)),
        target=rep.target,
        unseen=unseen,
        voids=_shared(rnd.voids.voids()),
        placed=_shared(rnd.voids.placements()),
        round_over=rnd.ended,
        winner=rep.winner,
        ending=rep.ending,
        lead_tile=rnd.lead_tile[1] if rnd.lead_tile and not rnd.layout.started else None,
        settlement=rnd.settlement,
    )


def _round_end(rep: Replayer) -> Position:
    """The position at a round's end, as it was before the settlement (the
    display shows the totals after it beside), but knowing whether the
    settlement ended the match. The replay settles when it reads the next
    line or reaches the end; settling now, a line early, changes nothing."""
    pos = snapshot(rep)
    rep.settle_round()
    return dataclasses.replace(pos, winner=rep.winner, ending=rep.ending)


def _final(rep: Replayer) -> Position:
    """The position where the match ended (the replay reads no further)."""
    rnd = rep.round
    return _round_end(rep) if rnd is not None and rnd.ended else snapshot(rep)


def position_at(match: Match, resolve: RulesResolver, at: str) -> Position:
    """Replay ``match`` up to ``R.T``; raises InputError when it has no such
    position (naming the end when the match was over before it) or the
    record stops making sense before it."""
    want_round, want_turn = parse_at(at)
    visitor = _PositionAt(want_round, want_turn)
    result = replay_match(match, resolve, visitor=visitor)
    found, over = visitor.found, visitor.over
    if found:
        return found[0]
    where = f"the match has no position {want_round}.{want_turn}"
    if over and (want_round, want_turn) > (over[0].round, over[0].turn):
        end = over[0]
        assert end.winner is not None
        raise InputError(f"{where}: it was over at {end.round}.{end.turn}, when "
                         + won_text(end.players, end.target, end.winner, end.ending))
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    hint = f" (the record has errors first, e.g. line {errors[0].line}: {errors[0].message})" \
        if errors else ""
    raise InputError(f"{where}{hint}")


def positions(match: Match, resolve: RulesResolver) -> Iterator[tuple[Position, BodyLine | None]]:
    """Every position before a turn line, and each round's end, in order,
    with the line that follows it (None at the very end); once the match is
    over, its last position and nothing after it."""
    visitor = _Positions()
    replay_match(match, resolve, visitor=visitor)
    yield from visitor.out


@dataclass(frozen=True)
class Decision:
    """A turn at the moment its mover chose a placement or a pass.

    ``at`` is the position then: after the turn's draws, ``drawn`` the drawn
    tile that must go down; its ``turn`` is the turn's number. ``start`` is
    the position before the turn's first draw, None for a turn without
    draws. ``move`` is the placement as the replay resolved it (its
    end filled in) or ``Pass``; None when the replay refused the turn.
    """

    turn: Turn
    start: Position | None
    at: Position
    move: Place | EnginePass | None


def decisions(match: Match, resolve: RulesResolver) -> Iterator[Decision]:
    """Every turn of ``match`` that the replay played, at its decision."""
    visitor = _Decisions()
    replay_match(match, resolve, visitor=visitor)
    for turn, start, at in visitor.found:
        yield Decision(turn, start, at, visitor.played.get(turn.line))


# ----------------------------------------------------------------------
# The visitors


class _BetweenLines(ReplayVisitor):
    """A visitor that asks one question before each line and at the end
    (``item`` None there): :meth:`at`, whose False stops the replay."""

    def line(self, rep: Replayer, item: BodyLine) -> bool:
        return self.at(rep, item)

    def end(self, rep: Replayer) -> None:
        self.at(rep, None)

    def at(self, rep: Replayer, item: BodyLine | None) -> bool:
        raise NotImplementedError


class _PositionAt(_BetweenLines):
    """Stops at the position ``R.T`` (before turn T of round R, or round
    R's end when T is one past its last turn); keeps where the match ended
    if it ended first."""

    def __init__(self, round_number: int, turn: int) -> None:
        self.want = (round_number, turn)
        self.found: list[Position] = []
        self.over: list[Position] = []

    def at(self, rep: Replayer, item: BodyLine | None) -> bool:
        rnd = rep.round
        if rnd is None or rnd.skipping:
            return True
        at_end = item is None or isinstance(item, RoundLine)
        here = (rnd.number, rnd.turn_lines + 1) == self.want
        if rep.winner is not None:
            (self.found if here else self.over).append(_final(rep))
            return False
        if here and (isinstance(item, Turn) or at_end):
            if isinstance(item, Turn):
                rep.open_round(item)
            self.found.append(_round_end(rep) if at_end else snapshot(rep))
            return False
        return True


class _Positions(_BetweenLines):
    """Every position before a turn line and each round's end, with the
    line that follows it (None at the very end)."""

    def __init__(self) -> None:
        self.out: list[tuple[Position, BodyLine | None]] = []

    def at(self, rep: Replayer, item: BodyLine | None) -> bool:
        rnd = rep.round
        if rep.winner is not None:
            if rnd is not None and not rnd.skipping:
                self.out.append((_final(rep), None))
            return False
        if rnd is None or rnd.skipping:
            return True
        if isinstance(item, Turn) and not rnd.ended:
            rep.open_round(item)
            self.out.append((snapshot(rep), item))
        elif (item is None or isinstance(item, RoundLine)) and rnd.started:
            pos = _round_end(rep)
            self.out.append((pos, item))
            return not pos.match_over
        return True


class _Decisions(ReplayVisitor):
    """Each turn at its decision, and before its first draw if it drew, and
    the move the replay then played (by line)."""

    wants_turns = True

    def __init__(self) -> None:
        self.found: list[tuple[Turn, Position | None, Position]] = []
        self.starts: dict[int, Position] = {}
        self.played: dict[int, Place | EnginePass] = {}

    def turn(self, rep: Replayer, event: TurnEvent) -> None:
        self.played[event.line] = event.placed if event.placed is not None else EnginePass()

    def line(self, rep: Replayer, item: BodyLine) -> bool:
        rnd = rep.round
        if isinstance(item, Turn) and item.draws and rnd is not None and rnd.started \
                and not rnd.ended and not rnd.skipping:
            self.starts[item.line] = snapshot(rep)
        return True

    def decide(self, rep: Replayer, turn: Turn, drawn: Tile | None) -> None:
        self.found.append((turn, self.starts.get(turn.line),
                           snapshot(rep, drawn, in_turn=True)))
