"""What the round tracker keeps while it follows a record: the hands as the
record shows them, the round so far, the match's totals, and where its
findings go.

These are the tracker's own (:mod:`.tracker` and the modules it calls for
the rarer lines: :mod:`.opening`, :mod:`.ends`, :mod:`.closing`); a visitor
never reads them, it gets a :class:`~.position.Position` or a
:class:`~.values.TurnEvent`.
"""

from __future__ import annotations

import bisect
import copy
from collections.abc import Callable

from muggins_cli.engine import turn as rules_of
from muggins_cli.engine.layout import EMPTY, Layout, lead, place
from muggins_cli.engine.scoring import EndReason
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.engine.voids import VoidWatch
from muggins_cli.notation.model import (
    DealLine,
    Diagnostic,
    LeadLine,
    Match,
    MugginsCall,
    ScoreLine,
    Severity,
    StockLine,
    Turn,
)
from muggins_cli.replay.setup import MatchSetup
from muggins_cli.replay.values import MatchEnding, won_text
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End, Tile, tiles_of


class HandView:
    """A hand as far as the record shows it: known tiles plus a count.

    ``bits`` holds the known tiles as bits of ``Tile.index`` (a tile off the
    set, a record's typo, above the set's bits); ``unknown`` counts tiles
    whose faces the record never showed (no deal lines, ``d??`` draws).
    Checks that need them become ``unverified``.
    """

    __slots__ = ("bits", "unknown")

    def __init__(self, bits: int = 0, unknown: int = 0) -> None:
        self.bits = bits
        self.unknown = unknown

    @property
    def known(self) -> frozenset[Tile]:
        return frozenset(tiles_of(self.bits))

    @property
    def size(self) -> int:
        return self.bits.bit_count() + self.unknown

    @property
    def complete(self) -> bool:
        return self.unknown == 0


class Report:
    """Where the tracker's findings go (the visitors' ``finding``); an
    ``unverified`` note is given once per kind and round, as the first
    place a check could not be made.

    ``since``: the line of a turn the replay had to set aside, unread, in
    the round being replayed (0: none). What the rest of that round shows
    may follow from that turn alone, so it is said as ``info`` naming the
    line, not as an error or a warning."""

    __slots__ = ("emit", "since")

    def __init__(self, emit: Callable[[Diagnostic], None]) -> None:
        self.emit = emit
        self.since = 0

    def error(self, line: int, column: int, code: str, message: str) -> None:
        if self.since:
            self._follows(line, column, code, message)
            return
        self.emit(Diagnostic(line, column, Severity.ERROR, code, message))

    def warn(self, line: int, column: int, code: str, message: str) -> None:
        if self.since:
            self._follows(line, column, code, message)
            return
        self.emit(Diagnostic(line, column, Severity.WARNING, code, message))

    def _follows(self, line: int, column: int, code: str, message: str) -> None:
        self.emit(Diagnostic(line, column, Severity.INFO, code,
                             f"{message} (this may follow from the turn set aside on line "
                             f"{self.since})"))

    def unverified(self, rnd: Round | None, line: int, column: int, kind: str,
                   message: str) -> None:
        if rnd is not None and not rnd.first_note(kind):
            return
        self.emit(Diagnostic(line, column, Severity.INFO, "unverified", message))


class Round:
    """One round as replayed so far.

    The layout is its key (``key``), which answers every question a turn
    asks of it through the rules' layout table; the ``Layout`` value, for
    positions, events and messages, is made from the tiles laid only when
    asked for.

    The tracker's modules read its fields but change them only through its
    transitions, each of which keeps what belongs together together: its
    opening lines (:meth:`lead_by`, :meth:`dealt_to`, :meth:`stock_written`),
    :meth:`open` (the hands and the stock set up at the first turn), then
    per turn :meth:`begin_turn` and :meth:`draw`, :meth:`lay` or
    :meth:`pass_turn`; the round's end (:meth:`go_out`, :meth:`block`,
    :meth:`closing_pass`, :meth:`settle`) and the hands shown after it
    (:meth:`reveal`); and where the record stops making sense,
    :meth:`give_up`, :meth:`doubt_from`, :meth:`set_aside`. So the stock's
    count never goes without what may be drawn of it, a tile laid never
    stays in a hand, and a round never ends without saying how.
    """

    def __init__(self, number: int, line: int, players: int, rules: Rules) -> None:
        self.number = number
        self.line = line
        self.rules = rules
        self.r = table_for(rules).r
        self.lead_line: LeadLine | None = None
        self.lead_seat: int | None = None
        self.lead_wrong = False  # the lead line names someone the rules do not
        # ``lead_tile: highest-double`` rounds: the double the deal makes the
        # lead, once the hands are known (None: any tile, or not known).
        self.lead_tile: tuple[int, Tile] | None = None
        self.by_deal = False
        self.deals: dict[int, DealLine] = {}
        self.dealt: dict[int, int] = {}  # each deal line's tiles, as bits of Tile.index
        self.dealt_bits = 0  # the tiles of ``deals`` as bits
        self.stock_line: StockLine | None = None
        self.started = False  # the hands are set up (at the first turn)
        self.hands: list[HandView] = [HandView() for _ in range(players)]
        self.stock: list[Tile] | None = None  # known order, next first
        self.stock_pool: int | None = None  # known contents (bits), order unknown
        self.stock_count = 0
        self.can_draw = 0  # the engine's drawable() of stock_count
        self.seen = 0  # tiles whose place is certain, as bits
        self.key = 0  # the layout's key (engine/keys.py): empty
        self.laid: list[tuple[Tile, End | None, int]] = []  # (tile, end, half facing L)
        self._layout: Layout = EMPTY
        self._layout_laid = 0
        self.to_move = 0
        self.turns = 0  # turns played (a closing pass is none)
        self.turn_lines = 0  # every turn line, closing passes included (docs/notation.md 7)
        self.last_turn_line = 0
        self.ended = False
        self.went_out: int | None = None
        self.blocked = False
        self.closing_passes = 0  # seats (bits) that passed after the block
        self.passes = 0  # passes in a row
        self.skipping = False  # the record stopped making sense in this round
        # Turn lines set aside unread (a name the replay could not take for
        # anybody's): a turn may be missing there, as at a line not read.
        self.aside: list[int] = []
        self.last_turn: Turn | None = None  # the last turn line played
        self.doubt = 0  # the line of a turn set aside: the round's end is not known for sure
        self.unverified: set[str] = set()
        self.settled = False
        self.settlement: tuple[int, ...] | None = None  # what the settlement credited each
        self.voids = VoidWatch(rules)  # what draws and passes showed

    def fork(self) -> Round:
        """A copy to replay ahead on, sharing nothing it may change (the
        voids, which only a watched replay records, and the deal lines,
        read before the first turn, are shared)."""
        other = copy.copy(self)
        other.hands = [HandView(h.bits, h.unknown) for h in self.hands]
        if self.stock is not None:
            other.stock = list(self.stock)
        other.laid = list(self.laid)
        other.aside = list(self.aside)
        other.unverified = set(self.unverified)
        return other

    @property
    def layout(self) -> Layout:
        """The table as a ``Layout``: the tiles laid since it was last asked
        for, joined by the engine."""
        layout = self._layout
        rules = self.rules
        for tile, end, left in self.laid[self._layout_laid:]:
            layout = lead(rules, tile, left) if end is None else place(rules, layout, tile, end)
        self._layout = layout
        self._layout_laid = len(self.laid)
        return layout

    @property
    def hands_known(self) -> bool:
        return all(h.unknown == 0 for h in self.hands)

    # -- the opening lines ---------------------------------------------------

    def lead_by(self, item: LeadLine, seat: int, wrong: bool) -> None:
        """The round's `lead` line names ``seat`` (``wrong``: not the
        leader the rules make it)."""
        self.lead_line = item
        self.lead_seat = seat
        self.lead_wrong = wrong

    def dealt_to(self, seat: int, item: DealLine, bits: int) -> None:
        """A `deal` line gives ``seat`` the tiles of ``bits``."""
        self.deals[seat] = item
        self.dealt[seat] = bits
        self.dealt_bits |= bits

    def stock_written(self, item: StockLine) -> None:
        self.stock_line = item

    # -- the first turn ---------------------------------------------------------

    def open(self, hands: list[HandView], seen: int, pool: int | None,
             stock_count: int) -> None:
        """The hands as the record shows them when play begins, the tiles
        whose place is certain, the stock's contents (None: not known) and
        its size, and what may be drawn of it."""
        self.started = True
        self.hands = hands
        self.seen = seen
        self.stock_pool = pool
        self.stock_count = stock_count
        self.can_draw = rules_of.drawable(self.r, stock_count)

    def stock_known(self, tiles: list[Tile], bits: int, hidden_hands: bool) -> None:
        """The `stock` line's order; with ``hidden_hands`` (no deal in the
        record) the hands are the rest of the set, so its tiles' places
        are certain."""
        self.stock = tiles
        self.stock_pool = bits
        if hidden_hands:
            self.seen |= bits

    def led_by_deal(self, by_deal: bool, lead_tile: tuple[int, Tile] | None) -> None:
        """Whether the deal decides who leads, and the double that leads."""
        self.by_deal = by_deal
        self.lead_tile = lead_tile

    def due(self, seat: int) -> None:
        """``seat`` is to move (the first turn's player, before it is played)."""
        self.to_move = seat

    # -- a turn ------------------------------------------------------------------

    def count_line(self) -> None:
        """A turn line read in this round (a closing pass too)."""
        self.turn_lines += 1

    def uncount_lines(self, lines: int) -> None:
        """Back to ``lines`` turn lines read: the turns played since were
        made up by the replay, and are no line of the record's."""
        self.turn_lines = lines

    def begin_turn(self, seat: int, t: Turn) -> None:
        """``seat`` plays the turn of line ``t``, a turn line read (counted
        here, the commonest case; a line that begins no turn is counted by
        :meth:`count_line`)."""
        self.turn_lines += 1
        self.to_move = seat
        self.last_turn_line = t.line
        self.last_turn = t
        self.turns += 1

    def draw(self, seat: int, tile: Tile | None) -> None:
        """``seat`` draws ``tile`` (None: a tile the record does not show)
        from the stock: out of its order and contents where they are
        known, else its place now certain; the stock one smaller."""
        hand = self.hands[seat]
        if tile is not None:
            bit = 1 << tile.index()
            stock = self.stock
            if stock:
                if tile is stock[0]:
                    del stock[0]
                elif tile in stock:
                    stock.remove(tile)
            else:
                self.seen |= bit
            if self.stock_pool is not None:
                self.stock_pool &= ~bit
            hand.bits |= bit
        else:
            hand.unknown += 1
        self.stock_count = max(0, self.stock_count - 1)
        self.can_draw = rules_of.drawable(self.r, self.stock_count)

    def lay(self, seat: int, tile: Tile, bit: int, held: bool, end: End | None, left: int,
            key: int) -> None:
        """``seat`` lays ``tile`` (its bit ``bit``) at ``end`` (None: the lead, its half
        ``left`` facing L), making the layout ``key``: out of their hand
        (``held``: known there, else one of its hidden tiles, which was
        not in the stock), its place certain, the passes in a row over, the
        next seat to move (a placement is the whole of a turn: what it
        credits and whether it ended the round do not change who is next)."""
        hand = self.hands[seat]
        if held:
            hand.bits ^= bit
        else:
            hand.unknown -= 1
            if self.stock_pool is not None:
                self.stock_pool &= ~bit
        self.seen |= bit
        self.laid.append((tile, end, left if end is None else 0))
        self.key = key
        self.passes = 0
        self.to_move = (seat + 1) % len(self.hands)

    def pass_turn(self, seat: int) -> None:
        """``seat`` passes: one more pass in a row, the next seat moves."""
        self.passes += 1
        self.move_on(seat)

    def move_on(self, seat: int) -> None:
        """The seat after ``seat`` moves."""
        self.to_move = (seat + 1) % len(self.hands)

    # -- the round's end -------------------------------------------------------

    def go_out(self, seat: int) -> None:
        self.ended = True
        self.went_out = seat

    def block(self) -> None:
        """Nobody can play: the round ends, and the seats may write their
        closing passes."""
        self.ended = True
        self.blocked = True
        self.closing_passes = 0

    def closing_pass(self, seat: int) -> None:
        """``seat``'s bare pass after the block (once each, in seat order)."""
        self.closing_passes |= 1 << seat
        self.move_on(seat)

    def settle(self, deltas: tuple[int, ...] | None) -> None:
        """The settlement applied: what it credited each seat (None: the
        hands left were not known, so it was not computed)."""
        self.settled = True
        self.settlement = deltas

    def reveal(self, seat: int, bits: int) -> None:
        """``seat``'s hand shown (or worked out) at the round's end: the
        tiles of ``bits``, every one known."""
        hand = self.hands[seat]
        hand.bits = bits
        hand.unknown = 0
        self.seen |= bits

    # -- where the record stops making sense --------------------------------------

    def give_up(self) -> None:
        """The record stopped making sense in this round: its lines are not
        followed further."""
        self.skipping = True

    def doubt_from(self, line: int) -> None:
        """The round's end is not known for sure from ``line`` on (a turn
        set aside, a round begun or a reveal before it ended)."""
        self.doubt = self.doubt or line

    def set_aside(self, line: int) -> None:
        """The turn line ``line`` is read as no turn at all."""
        self.aside.append(line)

    def first_note(self, kind: str) -> bool:
        """Whether the round has not yet had an ``unverified`` note of
        ``kind`` (it has one from now on)."""
        if kind in self.unverified:
            return False
        self.unverified.add(kind)
        return True


class MatchState:
    """The match as replayed so far: its setup, totals and rounds, and the
    credit every score goes through (placements, muggins calls and
    settlements alike)."""

    def __init__(self, match: Match, setup: MatchSetup, report: Report) -> None:
        self.match = match
        self.report = report
        # Lines the parser could not read: a turn may be missing there, so the
        # next one is not blamed for being out of turn (lines it read as
        # meant, despite their finding, are in the body and count as read).
        kept = set(match.kept)
        self.dropped = sorted({d.line for d in match.diagnostics
                               if d.severity is Severity.ERROR and d.line not in kept})
        self.players: tuple[str, ...] = setup.players
        self.seat: dict[str, int] = setup.seat
        self.rules: Rules = setup.rules
        self.table: LayoutTable = table_for(setup.rules)
        self.r = self.table.r
        self.target = setup.target
        self.scores: list[int] = [0] * len(setup.players)
        self.winner: int | None = None
        self.ending: MatchEnding | None = None
        self.last_line = 0  # the last body line read, where a settlement follows
        self.index = 0  # the body line being read (its index in the body)
        self.rounds = 0
        self.turns = 0
        self.round: Round | None = None
        self.prev_round: Round | None = None
        # A `lead` line after a round ended: the next round's, if the lines
        # after it show that round begun without its `round` line.
        self.lead_after_end: LeadLine | None = None
        # The placement a muggins call may take from: (placer, unclaimed rest).
        self.pending: tuple[int, int] | None = None
        # The muggins line just read: the only line that may follow a
        # placement as a call, so a muggins line after it is one too many.
        self.last_call: MugginsCall | None = None
        self.scores_uncertain = False  # a settlement needed hidden hands
        # A turn was set aside: the totals are the record's own from its next
        # score line on, and nobody is taken to have won until then.
        self.loose = False
        self.after_end_reported = False

    def dropped_since(self, after: int, before: int) -> bool:
        """Whether a line between ``after`` and ``before`` went unread (the
        parser could not read it, or the replay set it aside)."""
        i = bisect.bisect_right(self.dropped, after)
        if i < len(self.dropped) and self.dropped[i] < before:
            return True
        rnd = self.round
        return rnd is not None and any(after < line < before for line in rnd.aside)

    def carried(self, item: ScoreLine) -> bool:
        """Whether the totals of ``item``, which are not the replay's, are
        those the record goes on with (the tracker weighs it)."""
        return False

    def won_text(self) -> str:
        return won_text(self.players, self.target, self.winner, self.ending)

    def credit(self, seat: int, points: int, line: int, reason: EndReason) -> None:
        """Add ``points`` to ``seat``'s total; the engine says whether that
        decides the match."""
        if points <= 0 or self.winner is not None:
            return
        deltas = [0] * len(self.scores)
        deltas[seat] = points
        if not self.scores_uncertain and not self.loose:
            # With totals unknown (a settlement needed hidden hands, or a
            # turn set aside) whether this reached the target is unknown
            # too; the record goes on.
            won = rules_of.winner_on_credit(self.r, self.scores, deltas, self.target)
            self.winner = None if won == rules_of.NOBODY else won
        self.scores[seat] += points
        self.ended(reason, line)

    def ended(self, reason: EndReason, line: int) -> None:
        if self.winner is not None and self.ending is None and self.round is not None:
            self.ending = MatchEnding(self.winner, reason, self.round.number, line,
                                      tuple(self.scores), self.target)

    def stock_line_first(self) -> bool:
        """In a round without deal lines, whether its ``stock`` line is
        taken as written when a hand the play gives away holds a tile it
        lists (the hand then hidden), rather than the hands (the stock line
        then the finding). Either the stock line or a turn is wrong; only
        a replay that can read ahead can tell which
        (:class:`~.trials.Trials`); this one takes the stock line."""
        return True

    def doubted_tile(self, given: dict[int, int], stock_first: bool
                     ) -> tuple[int, Tile] | None:
        """Of the opening hands the play gives away in a round without deal
        lines (``given``, by seat, as bits of ``Tile.index``), a tile not
        to take as held after all, with its seat: a hand given away rests
        on every tile its holder is written to place, and a slip in one of
        those turns gives the hand away wrong. Only a replay that can read
        ahead can tell (:class:`~.trials.Trials`); this one trusts them
        all."""
        return None

    def hidden_block_possible(self, rnd: Round) -> bool:
        """A round kept without hands may have been blocked without the
        closing passes being written; we cannot tell, so we say so. The
        stock is exhausted once only its reserve is left (docs/rules.md)."""
        return rnd.started and rnd.can_draw == 0 and not rnd.hands_known

    def end_blocked(self, rnd: Round, line: int, column: int, inferred: bool) -> None:
        rnd.block()
        if inferred and not rnd.hands_known:
            self.report.unverified(rnd, line, column, "blocked",
                                   f"round {rnd.number} is taken as blocked; with hidden "
                                   "hands that nobody could play is not checked")
