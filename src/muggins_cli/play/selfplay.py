"""Complete matches played by strategies, kept as MGN records.

The records carry deals and the stock order, so every move in them can be
checked; ``muggins check`` must accept each one with no error, which makes
self-play the widest test of the engine, the writer and the replay together.

The driver is the one place that holds every hand and the stock: a
:class:`~muggins_cli.play.strategies.SeenStrategy` gets only the mover's view
(:mod:`muggins_cli.play.seen`), with the draws and passes the table saw. A
``dealer`` may stand in for the shuffle, so that two matches see the same
deals in the same round order (the arena's duplicate format).

Under rules with a muggins call (docs/notation.md 5) a placement credits
only what its player claims, up to what it scored. The placer decides its
claim (:func:`~muggins_cli.play.strategies.claim_of`: everything unless the
strategy says otherwise), and the record writes it as made (none for 0).
Then the opponents are shown the placement and the claim, one at a time
clockwise from the next player, and the first that calls muggins takes the
points it names (at most the unclaimed rest) on the line after the turn;
one call at most follows a placement, so the others are not asked. A claim
that takes the placer to the target ends the match before anyone may call.
What was made, claimed, shown and called is counted per seat
(:class:`Claims`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from muggins_cli.engine import turn as rules_of
from muggins_cli.engine.scoring import settle, winner_at_settlement, winner_on_credit
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    PassTurn,
    Place,
    RoundState,
    apply,
    deal,
    deal_with_double,
    highest_double,
    leads_by_deal,
    legal_moves,
    new_round,
)
from muggins_cli.engine.table import table_for
from muggins_cli.engine.view import view_of
from muggins_cli.engine.voids import VoidWatch
from muggins_cli.errors import IllegalMoveError
from muggins_cli.notation import model as m
from muggins_cli.play.seen import CallView, ClaimView, real_move
from muggins_cli.play.strategies import (
    FullStrategy,
    SeenStrategy,
    Strategy,
    call_of,
    claim_of,
)
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import Tile


def _tok(t: Tile, left: int | None = None) -> m.TileTok:
    a = t.lo if left is None else left
    return m.TileTok(a, t.other(a), 0, 0)


@dataclass(frozen=True)
class RoundDeal:
    """One round's shuffle: the hands by seat, the stock in draw order, and
    the lot (the seat that leads if this round needs a lot)."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    lot: int


#: Gives round N's deal (N from 1), in place of shuffling with the match's rng.
Dealer = Callable[[int], RoundDeal]


@dataclass(frozen=True)
class Claims:
    """One seat's claims and muggins calls, counted under rules with a
    muggins call (all 0 under rules without one, where every score counts
    by itself). ``made``: its placements that scored, and ``made_points``
    what they scored; ``claimed``: those it claimed in full, and
    ``claimed_points`` the points it claimed in all. ``shown``: opponents'
    placements it was shown with points left unclaimed (when no one before
    it had called), ``shown_points`` those points; ``called`` and
    ``called_points``: its muggins calls and what they took."""

    made: int = 0
    made_points: int = 0
    claimed: int = 0
    claimed_points: int = 0
    shown: int = 0
    shown_points: int = 0
    called: int = 0
    called_points: int = 0

    def __add__(self, other: Claims) -> Claims:
        return Claims(*(a + b for a, b in zip(self.counts(), other.counts())))

    def counts(self) -> tuple[int, ...]:
        return (self.made, self.made_points, self.claimed, self.claimed_points,
                self.shown, self.shown_points, self.called, self.called_points)

    @property
    def credited(self) -> int:
        """Points credited during play: claims and calls (not settlements)."""
        return self.claimed_points + self.called_points


@dataclass
class MatchOutcome:
    record: m.Match
    scores: list[int]
    winner: int | None
    rounds: int
    #: Per seat, under rules with a muggins call.
    claims: list[Claims] = field(default_factory=list)


def play_match(
    rules: Rules,
    names: Sequence[str],
    strategies: Sequence[Strategy | SeenStrategy | FullStrategy],
    rng: random.Random,
    *,
    rules_tag: str | None = None,
    target: int | None = None,
    event: str = "Self-play",
    max_rounds: int = 200,
    dealer: Dealer | None = None,
    timings: list[list[float]] | None = None,
) -> MatchOutcome:
    """Play one match to the target and return it as a record.

    ``rng`` draws the lots and shuffles (unless ``dealer`` gives them) and
    is passed to the strategies. A strategy with ``choose_seen`` is given
    the mover's view only; one with ``choose_full`` (the cheating
    ``oracle``) everything. ``timings``, when given, gets per seat the
    seconds of each decision that had more than one legal move.

    Under rules with a muggins call each placement that scored is claimed
    as its strategy decides, and the opponents may call muggins (see the
    module docstring). Raises IllegalMoveError for a claim or call the
    rules do not allow (a claim above the score, a call above the
    unclaimed rest), as for an illegal move.
    """
    n = len(names)
    goal = target if target is not None else rules.target_for(n)
    table = _Table(rules, names, strategies, rng, goal, timings)
    leader: int | None = None  # None: chosen by lot, or by the deal
    rounds = 0
    while table.winner is None and rounds < max_rounds:
        rounds += 1
        state = table.deal(rounds, leader, dealer)
        state = table.play_round(state)
        if table.winner is not None:
            table.body.append(_score_line(names, table.scores))
            break
        table.settle(state)
        leader = state.went_out
    tags = [
        m.Tag("Event", event, 0, 0),
        m.Tag("Players", ", ".join(names), 0, 0),
        m.Tag("Rules", rules_tag or rules.name, 0, 0),
        m.Tag("Target", str(goal), 0, 0),
        m.Tag("Result", names[table.winner] if table.winner is not None else "*", 0, 0),
    ]
    return MatchOutcome(m.Match(tuple(tags), tuple(table.body), 0), table.scores, table.winner,
                        rounds, table.claims)


class _Table:
    """One match being played: the seats, the totals, the record so far,
    and what the table saw of draws and passes (for the seats that decide
    from their view)."""

    def __init__(self, rules: Rules, names: Sequence[str],
                 strategies: Sequence[Strategy | SeenStrategy | FullStrategy],
                 rng: random.Random, goal: int, timings: list[list[float]] | None) -> None:
        self.rules, self.names, self.strategies, self.rng = rules, names, strategies, rng
        self.r = table_for(rules).r
        self.goal, self.timings = goal, timings
        # What each seat decides from, asked once (a protocol check is slow).
        self.full_seats = [isinstance(s, FullStrategy) for s in strategies]
        self.seen_seats = [isinstance(s, SeenStrategy) for s in strategies]
        self.watch = VoidWatch(rules)
        n = len(names)
        self.scores = [0] * n
        self.claims = [Claims()] * n
        self.body: list[m.BodyLine] = []
        self.winner: int | None = None

    def deal(self, number: int, leader: int | None, dealer: Dealer | None) -> RoundState:
        """Round ``number`` dealt (and dealt again where the highest double
        leads and none was dealt), its opening lines written; its first
        state, ``leader`` (None: by lot or by the deal) to lead."""
        rules, names, rng, body = self.rules, self.names, self.rng, self.body
        n = len(names)
        body.append(m.RoundLine(number, 0, 0))
        dealt = dealer(number) if dealer is not None else None
        by_deal = leader is None and leads_by_deal(rules)
        if dealt is not None:
            hands, stock = [list(h) for h in dealt.hands], list(dealt.stock)
        else:
            hands, stock = deal(rules, n, rng)
        if by_deal and highest_double(hands) is None:
            hands, stock = deal_with_double(rules, n, rng)  # dealt again
        first = highest_double(hands) if by_deal else None
        lead_tile = first[1] if first is not None else None
        if leader is None:
            if first is not None:
                leader = first[0]
            else:
                leader = dealt.lot if dealt is not None else rng.randrange(n)
            body.append(m.LeadLine(names[leader], 0, 0, 0))
        for i in range(n):
            body.append(m.DealLine(names[i], tuple(_tok(t) for t in hands[i]), 0, 0, 0))
        body.append(m.StockLine(tuple(_tok(t) for t in stock), 0, 0))
        self.watch.start_round()
        return new_round(hands, stock, leader, lead_tile)

    def play_round(self, state: RoundState) -> RoundState:
        """Play the round to its end, or until a credit wins the match."""
        draws: list[m.Draw] = []
        while not state.over:
            seat = state.to_move
            move = self._decide(state)
            self.watch.observe(state, move)
            state, points = apply(self.rules, state, move)
            if isinstance(move, KnownDraw):
                draws.append(m.Draw(_tok(move.tile), 0, 0))
                continue
            self._turn_line(state, seat, move, points, tuple(draws))
            draws = []
            if self.winner is not None:
                break
        return state

    def _decide(self, state: RoundState) -> Move:
        """The move of the seat to move, as its strategy decides it from
        what it may see."""
        rules, rng, seat = self.rules, self.rng, state.to_move
        moves = legal_moves(rules, state)
        strategy = self.strategies[seat]
        start = time.perf_counter()
        if self.full_seats[seat]:
            assert isinstance(strategy, FullStrategy)
            move = strategy.choose_full(rules, state, moves, self.scores, self.goal, rng)
        elif self.seen_seats[seat]:
            assert isinstance(strategy, SeenStrategy)
            seen = view_of(rules, state, moves, self.scores, self.goal, self.watch.voids(),
                           placed=self.watch.placements())
            move = real_move(moves, strategy.choose_seen(rules, seen, rng))
        else:
            assert not isinstance(strategy, SeenStrategy | FullStrategy)
            move = strategy.choose(rules, state, moves, rng)
        if self.timings is not None and len(moves) > 1:
            self.timings[seat].append(time.perf_counter() - start)
        return move

    def _turn_line(self, state: RoundState, seat: int, move: Place | PassTurn, points: int,
                   draws: tuple[m.Draw, ...]) -> None:
        """The turn written, its claim credited as the engine's rules
        credit it, and the opponents shown the placement."""
        action: m.Placement | m.Pass
        if isinstance(move, PassTurn):
            action = m.Pass(0, 0)
        else:
            action = m.Placement(_tok(move.tile, move.left), move.end, None, 0, 0)
        claimed = points
        if self.rules.muggins and points:
            assert isinstance(move, Place)
            claimed = self._claim(state, seat, move, points)
        claim = m.Claim(claimed, 0, 0) if claimed else None
        self.body.append(m.Turn.of(self.names[seat], draws, action, claim, 0, 0))
        self.winner = self._credit(seat, rules_of.credited(self.r, claimed, points))
        if self.winner is None and self.rules.muggins and isinstance(move, Place):
            self.winner = self._calls(state, move, seat, claimed, points)

    def _claim(self, state: RoundState, seat: int, move: Place, points: int) -> int:
        """What the placer claims of a placement that scored ``points``
        (counted); IllegalMoveError for a claim the rules do not allow."""
        strategy = self.strategies[seat]
        view = ClaimView(seat, move, state.layout, points, tuple(self.scores), self.goal)
        claimed = claim_of(strategy, self.rules, view, self.rng)
        if claimed < 0 or rules_of.claim_fault(self.r, claimed, points):
            raise IllegalMoveError(f"{strategy.name} claims {claimed} for {move}, "
                                   f"which scores {points}")
        self.claims[seat] += Claims(made=1, made_points=points,
                                    claimed=int(claimed == points), claimed_points=claimed)
        return claimed

    def _credit(self, seat: int, points: int) -> int | None:
        """Credit ``points`` to ``seat``; the winner when that ends the match."""
        if not points:
            return None
        scores = self.scores
        credit = [points if i == seat else 0 for i in range(len(scores))]
        winner = winner_on_credit(self.rules, scores, credit, self.goal)
        scores[seat] += points
        return winner

    def _calls(self, state: RoundState, move: Place, placer: int, claimed: int,
               points: int) -> int | None:
        """Show ``placer``'s placement and its claim to each opponent,
        clockwise from the next player, until one calls muggins; write the
        call, credit it, and return the winner when it ends the match.
        What went unclaimed is checked and counted but not shown."""
        n = len(self.names)
        rest = points - rules_of.credited(self.r, claimed, points)
        for k in range(1, n):
            seat = (placer + k) % n
            strategy = self.strategies[seat]
            view = CallView(seat, placer, move, state.layout, claimed, tuple(self.scores),
                            self.goal)
            taken = call_of(strategy, self.rules, view, self.rng)
            if taken < 0 or (taken and rules_of.call_fault(
                    self.r, False, placer, seat, rest, taken) != rules_of.CALL_OK):
                raise IllegalMoveError(f"{strategy.name} calls muggins for {taken} on {move}, "
                                       f"which left {rest} unclaimed")
            if rest:
                self.claims[seat] += Claims(shown=1, shown_points=rest, called=int(taken > 0),
                                            called_points=taken)
            if taken:
                self.body.append(m.MugginsCall(self.names[seat], taken, 0, 0, 0))
                return self._credit(seat, taken)
        return None

    def settle(self, state: RoundState) -> None:
        """The hands left revealed and the round settled; the winner, when
        the settlement ends the match."""
        names, body = self.names, self.body
        for i, h in enumerate(state.hands):
            if h:
                body.append(m.RevealLine(names[i], tuple(_tok(t) for t in sorted(h)), 0, 0, 0))
        deltas = settle(self.rules, state.hand_pips(), state.went_out)
        self.winner = winner_at_settlement(self.rules, self.scores, deltas, self.goal)
        self.scores = [s + d for s, d in zip(self.scores, deltas)]
        body.append(_score_line(names, self.scores))


def _score_line(names: Sequence[str], scores: Sequence[int]) -> m.ScoreLine:
    return m.ScoreLine(tuple(m.ScoreEntry(nm, s, 0, 0) for nm, s in zip(names, scores)), 0, 0)
