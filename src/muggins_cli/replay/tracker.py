"""The round tracker: a record followed line by line through the engine.

Every rule a line is held to is the engine's: when a player may draw or
pass (:func:`~muggins_cli.engine.turn.draw_faults`,
:func:`~muggins_cli.engine.turn.pass_fault`), what a placement needs
(:func:`~muggins_cli.engine.turn.place_faults`), where it leads and what it
scores (the layout table over :mod:`muggins_cli.engine.keys`), what a claim
credits, going out, the block, the settlement and who wins
(:mod:`muggins_cli.engine.turn`). The tracker keeps what the record has
shown so far (hands as known tiles plus a count, the stock, the layout's
key, the totals), asks the engine, and turns its answers into findings.
Where the record stops making sense it goes on with the reading the rest of
the record supports, as a reader would (:mod:`.readings`: a name near the
due player's, a draw written without its ``d``, a tile with a digit
wrong, a turn missing or written twice), so that one slip gives one
finding; it weighs each reading by replaying ahead on a copy of itself
(:meth:`Tracker.shadow`), which reports nothing and counts what it would
have reported.

What it saw goes to its visitors as public values (:mod:`.visitor`): each
finding, a :class:`~.visitor.Moment` between lines with its
:class:`~.position.Position`, each turn's decision, each
:class:`~.values.TurnEvent`. It feeds only the hooks some visitor wants, so
a plain check pays for no position and no event.
"""

from __future__ import annotations

import dataclasses

from muggins_cli.engine import turn as rules_of
from muggins_cli.engine.keys import EMPTY as EMPTY_KEY
from muggins_cli.engine.keys import tile_fits
from muggins_cli.engine.layout import EMPTY, Layout, blocked_at
from muggins_cli.engine.scoring import EndReason
from muggins_cli.engine.state import Place
from muggins_cli.engine.table import RealMove
from muggins_cli.engine.turn import (
    PLACE_MAYBE_HELD,
    PLACE_NOT_DRAWN,
    PLACE_NOT_HELD,
    PLACE_OFF_SET,
    YES,
    claim_fault,
    credited,
    holding,
    out_of_tiles,
    place_faults,
)
from muggins_cli.notation.model import (
    BodyLine,
    DealLine,
    LeadLine,
    Match,
    MugginsCall,
    Placement,
    RevealLine,
    RoundLine,
    ScoreLine,
    StockLine,
    Turn,
)
from muggins_cli.replay import faults as say
from muggins_cli.replay import placing, readings
from muggins_cli.replay.closing import (
    after_match_end,
    check_result,
    muggins_line,
    reveal_line,
    score_line,
    settle_round,
)
from muggins_cli.replay.ends import choose_end
from muggins_cli.replay.opening import (
    check_leader,
    deal_line,
    double_holder,
    lead_line,
    leader_due,
    open_play,
    round_line,
    stock_line,
)
from muggins_cli.replay.position import Position, shared
from muggins_cli.replay.setup import MatchSetup
from muggins_cli.replay.state import HandView, Round
from muggins_cli.replay.trials import Trials
from muggins_cli.replay.values import Called, TurnEvent
from muggins_cli.replay.visitor import At, Moment, ReplayVisitor
from muggins_cli.tiles import End, Tile, full_set

_LINES = {LeadLine: lead_line, DealLine: deal_line, StockLine: stock_line,
          RevealLine: reveal_line, ScoreLine: score_line}
#: An end as the engine numbers it (-1: none named).
_END_AT: dict[End | None, int] = {None: -1, End.L: 0, End.R: 1, End.U: 2, End.D: 3}


class Tracker(Trials):
    """Follows one match's body from its resolved header, telling
    ``visitor`` what it finds; :func:`~.replay.replay_match` runs it."""

    def __init__(self, match: Match, setup: MatchSetup, visitor: ReplayVisitor) -> None:
        super().__init__(match, setup, visitor)
        self.muggins = self.rules.muggins

    def run(self) -> None:
        """Replay the body; stops early only when every visitor is done."""
        visitor = self.visitor
        other = self.read_line
        lines = visitor.wants_lines
        for index, item in enumerate(self.match.body):
            self.index = index
            if self.held is not None and item.__class__ is not MugginsCall:
                self._told()
            if item.__class__ is Turn:
                assert isinstance(item, Turn)
                if not self.turn_line(item):
                    return
            else:
                if visitor.wants_moments and not self._moment(item):
                    return
                other(item)
            if lines:
                rnd = self.round
                visitor.line(item, rnd.number if rnd is not None else 0)
        if self.held is not None:
            self._told()
        if visitor.wants_moments:
            self._moment(None)
        settle_round(self)
        check_result(self)

    def turn_line(self, item: Turn) -> bool:
        """A turn line, the commonest: read as the record means it (a name
        not in Players, a turn not by the player due: :mod:`.readings`),
        then the visitors are told the moment before it and it is played.
        False when the visitors want nothing more."""
        rnd = self.round
        t = item
        if item.slip is not None or (not self.trial and rnd is not None
                                     and self.astray(rnd, item)):
            read = readings.turn_line(self, rnd, item)
            if read is None:
                return True
            t = read
        elif not self.trial and rnd is not None and self._bad_pass(rnd, item):
            t = readings.bad_pass(self, rnd, item)
        if self.visitor.wants_moments and not self._moment(t):
            return False
        self.play_line(rnd, t)
        return True

    def _bad_pass(self, rnd: Round, t: Turn) -> bool:
        """A bare pass the rules do not allow the player due (a line that
        may be another turn written wrong); passes are few, so asking
        before the line is played costs little."""
        if t.spelling.tile is not None or t.spelling.drawn or not rnd.turns \
                or rnd.ended or rnd.skipping or self.winner is not None:
            return False
        fault = rules_of.pass_fault(rnd.key, self._held(rnd, rnd.hands[rnd.to_move]),
                                    rnd.can_draw, False)
        return fault in (rules_of.PASS_STOCK_LEFT, rules_of.PASS_HOLDING_FIT)

    def astray(self, rnd: Round, t: Turn) -> bool:
        """Whether ``t`` is not by the player the round waits for: after its
        first turn the player to move, at its first the leader when the
        record or the last round says who."""
        if rnd.skipping or rnd.ended or self.winner is not None:
            return False
        if rnd.turns:
            return self.seat[t.player] != rnd.to_move
        leader = leader_due(self, rnd)
        if leader is None:
            leader = double_holder(self, rnd)
        return leader is not None and self.seat[t.player] != leader

    def play_line(self, rnd: Round | None, t: Turn) -> None:
        # A muggins call may follow a turn, and an ended round is settled
        # before it.
        self.pending = None
        self.last_call = None
        if rnd is not None and rnd.ended and not rnd.settled:
            settle_round(self)
        self.last_line = t.line
        if rnd is not None and self.winner is None:
            self._turn(rnd, t)
        elif self.winner is not None:
            after_match_end(self, t)
        else:
            self._no_round(t)

    def read_line(self, item: BodyLine) -> None:
        """Any line but a turn."""
        cls = item.__class__
        rnd = self.round
        if not self.trial and rnd is not None and cls in _AFTER_PLAY \
                and (rnd.started or (cls is ScoreLine and rnd.deals)) \
                and not rnd.ended and not rnd.skipping and not rnd.doubt \
                and self.winner is None:
            readings.before_end(self, rnd, item)
        if cls is not MugginsCall:
            self.pending = None
            self.last_call = None
            if cls is not RevealLine:
                settle_round(self)
        self.last_line = item.line
        if cls is MugginsCall:
            assert isinstance(item, MugginsCall)
            self._call(item)
        elif self.winner is not None:
            after_match_end(self, item)
        elif cls is RoundLine:
            assert isinstance(item, RoundLine)
            round_line(self, item)
        elif self.round is None:
            self._no_round(item)
        else:
            _LINES[cls](self, item)  # type: ignore[operator]

    def _call(self, call: MugginsCall) -> None:
        """A muggins line: held to the rules, and what it took told with the
        turn it follows (whose event waits for it)."""
        taken = 0
        if self.winner is not None:
            after_match_end(self, call)
        elif self.round is None:
            self._no_round(call)
        else:
            taken = muggins_line(self, call)
        held = self.held
        if held is not None:
            self.held = dataclasses.replace(held, calls=(
                *held.calls, Called(self.seat[call.player], call.points, taken, call)))

    def _told(self) -> None:
        """Tell the visitors the turn held back for the muggins lines that
        may follow it, now that none does."""
        held, self.held = self.held, None
        assert held is not None
        self.visitor.turn(held)

    def _no_round(self, item: BodyLine) -> None:
        self.report.error(item.line, item.column, "bad-round",
                          "this line comes before any `round` line")

    # -- moments and positions ----------------------------------------------

    def _moment(self, item: BodyLine | None) -> bool:
        """Tell the visitors where the replay is, before ``item`` (None: the
        end); False when they want nothing more."""
        rnd = self.round
        if rnd is None or rnd.skipping:
            return True
        turn = rnd.turn_lines + 1
        if self.winner is not None:
            # The settlement, if the round ended, was applied before the
            # match was decided: the position as it stands is the last one.
            m = Moment(At.OVER, rnd.number, turn, item, rnd.started, self.position)
        elif item.__class__ is Turn:
            assert isinstance(item, Turn)
            if rnd.ended:
                m = Moment(At.ENDED_TURN, rnd.number, turn, item, True, self.position)
            else:
                # Before the round's first turn its hands are set up now, so
                # that the opening position shows them, with the line's player
                # to move; a first turn not by the player due may have set them
                # up already, while the replay weighed how to read it.
                first = rnd.turns == 0
                started = rnd.started and not first
                if first:
                    if not rnd.started:
                        open_play(self, rnd)
                    rnd.due(self.seat[item.player])
                m = Moment(At.TURN, rnd.number, turn, item, started, self.position)
        elif item is None or item.__class__ is RoundLine:
            m = Moment(At.ROUND_END, rnd.number, turn, item, rnd.started, self._round_end)
        else:
            return True
        return self.visitor.moment(m)

    def position(self, drawn: Tile | None = None, in_turn: bool = False) -> Position:
        """The round as a Position: before the next line, or (``in_turn``)
        inside a turn after its draws, ``drawn`` the tile that must go
        down; either way ``turn`` is the number of the turn to play."""
        rnd = self.round
        assert rnd is not None
        rules = self.rules
        # Equal values are shared with earlier positions: a long record's
        # positions would otherwise each copy the same hands, stock and voids.
        hands = shared(tuple(shared(frozenset(h.known)) if h.complete else None
                             for h in rnd.hands))
        mover = rnd.to_move
        layout = rnd.layout
        mine = hands[mover] or frozenset()
        unseen = shared(frozenset(set(full_set(rules.max_pip)) - set(layout.tiles()) - mine))
        return Position(
            rules=rules, players=self.players, round=rnd.number,
            turn=rnd.turn_lines + (0 if in_turn else 1),  # a turn line counts once begun
            hands=hands, hand_sizes=shared(tuple(h.size for h in rnd.hands)),
            stock=shared(tuple(rnd.stock)) if rnd.stock is not None else None,
            stock_count=rnd.stock_count, layout=layout, to_move=mover, drawn=drawn,
            scores=shared(tuple(self.scores)), target=self.target, unseen=unseen,
            voids=shared(rnd.voids.voids()), placed=shared(rnd.voids.placements()),
            round_over=rnd.ended,
            winner=self.winner, ending=self.ending,
            lead_tile=rnd.lead_tile[1] if rnd.lead_tile and not layout.started else None,
            settlement=rnd.settlement)

    def _round_end(self) -> Position:
        """The position at a round's end, as it was before the settlement (a
        display shows the totals after it beside), but knowing whether the
        settlement ended the match. The replay settles when it reads the
        next line or reaches the end; settling now, a line early, changes
        nothing."""
        pos = self.position()
        settle_round(self)
        return dataclasses.replace(pos, winner=self.winner, ending=self.ending)

    # -- turns --------------------------------------------------------------

    def _turn(self, rnd: Round, t: Turn) -> None:
        if rnd.skipping:
            if self.trial:
                self.tally.n += 1  # a line a reading leaves unread weighs as a finding
            return
        seat = self.seat[t.player]
        if rnd.ended:
            rnd.count_line()
            self._after_round_end(rnd, t, seat)
            return
        astray = False
        if rnd.turns == 0:
            if not rnd.started:
                open_play(self, rnd)
            astray = check_leader(self, rnd, t, seat)
        elif seat != rnd.to_move and not self.dropped_since(rnd.last_turn_line, t.line):
            self.report.error(t.line, t.column, "out-of-turn",
                              f"it is {self.players[rnd.to_move]}'s turn, not {t.player}'s")
        rnd.begin_turn(seat, t)
        self.turns += 1
        spelling = t.spelling
        hand = rnd.hands[seat]
        # Events show the layout the mover faced; a plain check makes none.
        before = rnd.layout if self.events else EMPTY
        drawn = self.draws(rnd, t, seat, hand) if spelling.drawn else None
        if spelling.tile is None:
            if self.deciding:
                self.visitor.decide(t, self.position(drawn, in_turn=True))
            if self.watch:
                rnd.voids.passed(seat, rnd.layout)
            self._pass(rnd, t, seat, hand, drawn, before, astray)
        else:
            self.place(rnd, t, seat, hand, drawn, before)

    def _after_round_end(self, rnd: Round, t: Turn, seat: int) -> None:
        """A turn line once the round is over: after a block, each seat's
        bare pass in seat order, at most once (the record may write them);
        anything else is one too many."""
        spelling = t.spelling
        bit = 1 << seat
        if rnd.blocked and not spelling.drawn and spelling.tile is None \
                and not rnd.closing_passes & bit and seat == rnd.to_move:
            rnd.closing_pass(seat)
            return
        how = (f"{self.players[rnd.went_out]} went out" if rnd.went_out is not None
               else "the round was blocked")
        self.report.error(t.line, t.column, "after-round-end",
                          f"{t.player} plays after round {rnd.number} ended ({how})")

    def _held(self, rnd: Round, hand: HandView) -> int:
        """Whether ``hand`` holds a tile that fits (engine's holding). A
        tile off the set a hand keeps (a draw written wrong, found where it
        was drawn) fits nothing: what was really drawn is not known."""
        return rules_of.holding(hand.bits, hand.unknown, self.table.fit(rnd.key))

    def draws(self, rnd: Round, t: Turn, seat: int, hand: HandView, start: int = 0,
              drawn: Tile | None = None) -> Tile | None:
        """Replay a turn's draws from its ``start``-th (a reading may add
        draws after those written, ``drawn`` the fitting tile drawn before
        them); the drawn tile that fits, which must be placed, or None."""
        r = self.r
        key = rnd.key  # no draw changes the layout
        written = t.spelling.drawn
        for i in range(start, len(written)):
            tile = written[i]
            held = self._held(rnd, hand) if drawn is None else rules_of.NO
            faults = rules_of.draw_faults(r, key, held, rnd.can_draw, drawn is not None)
            if faults:
                say.draw_faults(self, rnd, t, i, hand, faults, drawn)
            if self.watch:
                rnd.voids.drew(seat, rnd.layout)
            tile = say.drawn_from_stock(self, rnd, t, i, tile)
            rnd.draw(seat, tile)
            if tile is not None and drawn is None and key != EMPTY_KEY \
                    and tile_fits(r, key, tile.lo, tile.hi):
                drawn = tile
        return drawn

    def _pass(self, rnd: Round, t: Turn, seat: int, hand: HandView, drawn: Tile | None,
              before: Layout, astray: bool) -> None:
        """``astray``: the turn was said to be the wrong player's first turn,
        which is all a pass on the empty table does wrong."""
        can_draw = rnd.can_draw
        fault = rules_of.pass_fault(rnd.key, self._held(rnd, hand), can_draw, drawn is not None)
        if fault and not (astray and fault == rules_of.PASS_ON_EMPTY_TABLE):
            say.pass_fault(self, rnd, t, hand, fault, drawn)
        if self.events:
            self._event(rnd, t, seat, hand, None, before, None, 0, tuple(self.scores), 0)
        rnd.pass_turn(seat)
        if self._blocked(rnd, can_draw) or rules_of.all_passed(rnd.passes, self.n, can_draw):
            self.end_blocked(rnd, t.line, t.column, inferred=not rnd.hands_known)

    def _blocked(self, rnd: Round, can_draw: int) -> bool:
        """Blocked as the engine says, once every hand is known."""
        if can_draw > 0 or not rnd.hands_known:
            return False
        return blocked_at(self.table, rnd.key, [h.bits for h in rnd.hands], can_draw)

    def place(self, rnd: Round, t: Turn, seat: int, hand: HandView, drawn: Tile | None,
              before: Layout, read: bool = False) -> None:
        """Replay a placement: the commonest line of a record, so the tokens
        of the turn are made only to say what is wrong with them. A tile
        the player cannot place as written is read as the rest of the
        record has it (:func:`.placing.placement`); ``read``: ``t`` is
        such a reading already."""
        r, spelling = self.r, t.spelling
        tile, ti, end, key = spelling.tile, spelling.index, spelling.end, rnd.key
        assert tile is not None
        bit = 1 << ti
        held = holding(hand.bits, 0 if rnd.seen & bit else hand.unknown, bit)
        faults = place_faults(r, key, _END_AT[end], ti, held,
                              -1 if drawn is None else drawn.index())
        # Where the tile goes from here, asked of the table once: whether it
        # fits as written, and then where it leads and what it scores.
        moves = self.table.moves(key, ti) if key != EMPTY_KEY else _NO_MOVES
        if not read and (
                faults & _CANNOT or (faults & PLACE_MAYBE_HELD and self._held_elsewhere(rnd, bit))
                or (key != EMPTY_KEY and not _fits_as_written(moves, end))):
            if not self.trial:
                placing.placement(self, rnd, t, seat, hand, drawn, faults, before)
                return
            if self.faulted is None:
                self.faulted = (seat, tile, not (moves and not faults & _CANNOT)
                                and placing.reads_a_digit_away(self, rnd, hand, tile))
        if faults and not say.place_faults(self, rnd, t, faults, drawn):
            rnd.give_up()
            return
        if self.deciding:
            self.visitor.decide(t, self.position(drawn, in_turn=True))
        if self.watch:
            rnd.voids.placed(seat, rnd.layout, tile, end)
        if key == EMPTY_KEY:
            end = None
            key = self.table.lead(tile, spelling.a)
            points = self.table.score_of(key)
        else:
            for e, next_key, scored in moves:
                if e is end:
                    key, points = next_key, scored
                    break
            else:
                key, points, end = self._other_end(rnd, t, tile, moves)
                if key < 0:
                    rnd.give_up()
                    return
        rnd.lay(seat, tile, bit, held == YES, end, spelling.a, key)
        if not self.events:
            self._claimed(rnd, t, seat, points)
            return
        scores = tuple(self.scores)
        credit = self._claimed(rnd, t, seat, points)
        self._event(rnd, t, seat, hand, Place(tile, end, spelling.a if end is None else None),
                    before, drawn, points, scores, credit, placed=tile)

    def _claimed(self, rnd: Round, t: Turn, seat: int, points: int) -> int:
        """A placement's claim held to what it scored, and credited; a
        claim above the score under muggins rules is read as the totals
        after it have it (:func:`.placing.claim`). What it credited."""
        r, written = self.r, t.spelling.points
        claimed = -1 if written is None else written
        credit = credited(r, claimed, points)
        if claim_fault(r, claimed, points):
            if self.trial or not self.muggins:
                say.claim_mismatch(self, rnd, t, points)
            else:
                credit = placing.claim(self, rnd, t, seat, points, credit)
        self.credited(rnd, t, seat, points, credit)
        return credit

    def credited(self, rnd: Round, t: Turn, seat: int, points: int, credit: int) -> None:
        """The end of a placement that scored ``points``: ``credit`` of them
        credited (what the claim earned); the round ends if the placer went
        out or nobody can play (the next seat already moves: :meth:`Round.lay`)."""
        if self.muggins:
            self.pending = (seat, points - credit)
        if credit > 0:
            self.credit(seat, credit, t.line, EndReason.PLACEMENT)
        hand = rnd.hands[seat]
        if out_of_tiles(hand.bits, hand.unknown):
            rnd.go_out(seat)
        elif rnd.can_draw <= 0 and self._blocked(rnd, 0):  # a stock to draw from blocks nobody
            self.end_blocked(rnd, t.line, t.column, inferred=False)

    def carried(self, item: ScoreLine) -> bool:
        return not self.trial and readings.carried(self, item)

    def _held_elsewhere(self, rnd: Round, bit: int) -> bool:
        """Whether another hand is known to hold the tile of ``bit``."""
        return any(h.bits & bit for h in rnd.hands)

    def _other_end(self, rnd: Round, t: Turn, tile: Tile, moves: list[RealMove]
                   ) -> tuple[int, int, End | None]:
        """A placement whose end letter is missing or does not fit: the end
        the record meant (:func:`~.ends.choose_end`), where the placement
        then leads and what it scores; -1 for the key when it fits no end."""
        p = t.action
        assert isinstance(p, Placement)
        claimed = t.spelling.points
        end = choose_end(self, rnd, p, tile, -1 if claimed is None else claimed,
                         self.seat[t.player])
        for e, key, points in moves:
            if e is end:
                return key, points, end
        return -1, 0, end

    def _event(self, rnd: Round, t: Turn, seat: int, hand: HandView, move: Place | None,
               before: Layout, drawn: Tile | None, points: int, scores: tuple[int, ...],
               credit: int, placed: Tile | None = None) -> None:
        """The turn's event, held until the lines after it show whether a
        muggins call follows (:meth:`_call`, :meth:`_told`)."""
        held: frozenset[Tile] | None = None
        if hand.complete:
            held = frozenset(hand.known | ({placed} if placed else set()))
        choices = frozenset({drawn}) if drawn is not None else held
        # The record's line as written (``t`` may be a reading of it).
        item = self.match.body[self.index]
        written = item if isinstance(item, Turn) and item.line == t.line else t
        self.held = TurnEvent(
            round=rnd.number, turn=rnd.turns, seat=seat, line=t.line, column=t.column,
            layout=before, hand=held, choices=choices, draws=len(t.spelling.drawn),
            placed=move, points=points, scores_before=scores,
            stock_left=rnd.stock_count, written=written, claimed=t.spelling.points,
            credited=credit, calls=())


def _fits_as_written(moves: list[RealMove], end: End | None) -> bool:
    """Whether a tile whose placements are ``moves`` goes where the line
    says: at the end named, or at some end when none is (several: the
    ambiguous end, which :func:`~.ends.choose_end` reads)."""
    if end is None:
        return bool(moves)
    for e, _, _ in moves:  # noqa: SIM110 (a loop: any() over a generator costs more)
        if e is end:
            return True
    return False


#: A tile's placements on an empty table are not looked up: it leads.
_NO_MOVES: list[RealMove] = []
#: What a tile that cannot go down as written is (besides the end).
_CANNOT = PLACE_OFF_SET | PLACE_NOT_HELD | PLACE_NOT_DRAWN
#: Lines after a round's play that show a turn is missing when the round
#: has not ended: the hands revealed, the totals, the next round.
_AFTER_PLAY = (RevealLine, ScoreLine, RoundLine)

