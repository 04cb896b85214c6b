"""A replay that can copy itself to read ahead: how the tracker weighs a
reading of a line it cannot take as written (:mod:`.readings`).

A reading is tried on a shadow, a copy of the replay as it stands that
shares nothing it may change with it, tells no visitor anything and counts
the errors and warnings it would have reported; the shadow plays the
reading, then reads the record on to the end of the round
(:meth:`Trials.ahead`). The round tracker (:class:`~.tracker.Tracker`) is
such a replay; this is the part of it the readings see.
"""

from __future__ import annotations

import copy

from muggins_cli.engine.keys import EMPTY as EMPTY_KEY
from muggins_cli.engine.layout import Layout
from muggins_cli.notation.model import (
    BodyLine,
    Diagnostic,
    Match,
    RoundLine,
    ScoreLine,
    Severity,
    Turn,
)
from muggins_cli.replay.setup import MatchSetup
from muggins_cli.replay.state import HandView, MatchState, Report, Round
from muggins_cli.replay.values import TurnEvent
from muggins_cli.replay.visitor import ReplayVisitor
from muggins_cli.tiles import Tile

#: Body lines one reading is followed for past the line it reads: the rest
#: of a round, as a rule (a round line ends it sooner).
AHEAD = 48
#: Body lines all the readings of one match may follow, in all; past it,
#: a line is read as written or set aside, unweighed (a hostile record of
#: thousands of slips is then read in time bounded per line).
TRIAL_LINES = 40_000

class Trials(MatchState):
    """The tracker as its readings see it: the hooks that play a line, and
    the copies that weigh a reading."""

    def __init__(self, match: Match, setup: MatchSetup, visitor: ReplayVisitor) -> None:
        super().__init__(match, setup, Report(visitor.finding))
        self.visitor = visitor
        self.n = len(self.players)
        self.events = visitor.wants_turns
        self.deciding = visitor.wants_decisions
        # What draws, passes and placements show is for the positions a
        # visitor asks for; a plain check has none to ask.
        self.watch = visitor.wants_moments or visitor.wants_decisions
        # A shadow reports nothing, counts in ``tally`` the errors and
        # warnings it would have, and weighs no reading of its own.
        self.trial = False
        self.tally = FindingCount()
        # Body lines the trials of one match may still read, shared by its
        # shadows: a hostile record of ten thousand slips is read in
        # bounded time, its later readings weighed on their own line alone.
        self.budget = [TRIAL_LINES]
        # A turn's event, told once the lines after it show whether a
        # muggins call follows it.
        self.held: TurnEvent | None = None
        # How a shadow weighing a round's given-away hands opens it (the
        # stock line first, and the tile it plays as unknown), and the first
        # placement a shadow could not make as written: its seat, its tile,
        # and whether, were the tile doubted, the line could read as a tile
        # a digit away (not when the tile fits another end: only its end
        # letter may then be wrong).
        self.weighing: tuple[bool, tuple[int, Tile] | None] = (True, None)
        self.faulted: tuple[int, Tile, bool] | None = None

    # -- the tracker's, played by a reading on it or on a shadow -------------

    def turn_line(self, item: Turn) -> bool:
        """Read a turn line (False: the visitors want nothing more)."""
        raise NotImplementedError

    def play_line(self, rnd: Round | None, t: Turn) -> None:
        """Play a turn line already read as meant."""
        raise NotImplementedError

    def read_line(self, item: BodyLine) -> None:
        """Read any line but a turn."""
        raise NotImplementedError

    def astray(self, rnd: Round, t: Turn) -> bool:
        """Whether ``t`` is not by the player the round waits for."""
        raise NotImplementedError

    def draws(self, rnd: Round, t: Turn, seat: int, hand: HandView, start: int = 0,
              drawn: Tile | None = None) -> Tile | None:
        """Play a turn's draws from its ``start``-th; the fitting tile drawn."""
        raise NotImplementedError

    def place(self, rnd: Round, t: Turn, seat: int, hand: HandView, drawn: Tile | None,
              before: Layout, read: bool = False) -> None:
        """Play a turn's placement."""
        raise NotImplementedError

    def credited(self, rnd: Round, t: Turn, seat: int, points: int, credit: int) -> None:
        """End a placement that scored ``points``, ``credit`` of them credited."""
        raise NotImplementedError

    def carried(self, item: ScoreLine) -> bool:
        """Whether the record's next score line goes on from ``item``'s
        totals rather than the replay's (:func:`.readings.carried`)."""
        raise NotImplementedError

    # -- shadows -------------------------------------------------------------------

    def shadow(self) -> Trials:
        """A copy of the replay as it stands, to read ahead on: it reports
        to nobody, counts what it would have reported, and shares nothing
        it may change with this one."""
        other = copy.copy(self)
        other.trial = True
        # The count is its own object: a report holding the shadow's bound
        # method would make each shadow a cycle for the collector.
        other.tally = FindingCount()
        other.report = Report(other.tally)
        other.visitor = _QUIET
        other.events = other.deciding = other.watch = False
        other.held = None
        other.faulted = None
        other.scores = list(self.scores)
        if self.round is not None:
            other.round = self.round.fork()
        return other

    def stock_line_first(self) -> bool:
        """The round is read ahead both ways (the stock line as written, or
        the hands the play gives away); the stock line is taken unless the
        round then reads with more errors and warnings. A shadow plays the
        way it was given to weigh."""
        if self.trial:
            return self.weighing[0]
        most = self.reach(2)
        if not most:
            return True
        as_listed = self._read_with((True, None), most)[0]
        return not as_listed or as_listed <= self._read_with((False, None), most)[0]

    def doubted_tile(self, given: dict[int, int], stock_first: bool
                     ) -> tuple[int, Tile] | None:
        """A round's given-away hands are weighed when its first turn is
        read: the round is read ahead with them, and if its first placement
        that cannot be made as written (a tile not held, or not fitting
        where written) places a tile its holder's hand holds only because
        that turn places it, the turn is taken as the slip that gave the
        hand away wrong, unless the round reads with more errors and
        warnings with that tile unknown: what the tile would show before
        the turn (an illegal draw "while holding" it) is then no finding.
        Where the round reads with as many, the doubt must gain a reading:
        the tile fits no end as written, and a tile one digit away might be
        meant (a tile that fits another end may be right with its end
        letter wrong; one that nothing near can stand for may be right,
        an earlier line wrong). A shadow plays the doubt it was given to
        weigh."""
        if self.trial:
            return self.weighing[1]
        most = self.reach(2)
        if not given or not most or self._placed_as_written(most):
            return None
        trusted, faulted = self._read_with((stock_first, None), most)
        if faulted is None:
            return None
        seat, tile, rereads = faulted
        if not given.get(seat, 0) >> tile.index() & 1:
            return None
        doubted = self._read_with((stock_first, (seat, tile)), most)[0]
        if doubted < trusted or (doubted == trusted and rereads):
            return seat, tile
        return None

    def _placed_as_written(self, most: int) -> bool:
        """Whether each placement of the round, from the line being read
        (its first turn) on, goes down where it is written, followed on
        the table alone: the common round's answer, with no shadow to read
        (an end left out that several ends take, or a tile off the set, is
        no answer: the shadows then weigh the round)."""
        table = self.table
        key = EMPTY_KEY
        for item in self.match.body[self.index:self.index + most]:
            cls = item.__class__
            if cls is RoundLine:
                break
            if cls is not Turn:
                continue
            assert isinstance(item, Turn)
            spelling = item.spelling
            tile = spelling.tile
            if tile is None:
                continue
            if spelling.index >= table.n_tiles:
                return False
            if key == EMPTY_KEY:
                key = table.lead(tile, spelling.a)
                continue
            end = spelling.end
            fitting = [k for e, k, _ in table.moves(key, spelling.index) if end is None or e is end]
            if len(fitting) != 1:
                return False
            key = fitting[0]
        return True

    def _read_with(self, weighing: tuple[bool, tuple[int, Tile] | None], most: int
                   ) -> tuple[int, tuple[int, Tile, bool] | None]:
        """The errors and warnings the round gives from the line being read
        on, opened as ``weighing`` says, and the seat and tile of its first
        placement that could not be made as written."""
        s = self.shadow()
        s.weighing = weighing
        s.ahead(self.index, most)
        return s.tally.n, s.faulted

    def reach(self, trials: int, totals: bool = False) -> int:
        """How many lines each of ``trials`` readings may read ahead, the
        same for each so that they are weighed alike: :data:`AHEAD` (four
        times that to reach a score line), or what is left of the budget
        shared out; none once too little is left (the budget is then spent,
        and readings are no longer weighed)."""
        most = AHEAD * (4 if totals else 1)
        budget = self.budget
        share = min(most, budget[0] // trials)
        if share < 1:
            budget[0] = 0
        return max(share, 0)

    def ahead(self, start: int, most: int, totals: bool = False) -> None:
        """Read on from body line ``start`` as the replay would, to the end
        of the round (its next ``round`` line included) or ``most`` lines,
        whichever comes first; with ``totals``, to the next ``score`` line
        instead, rounds or not."""
        body = self.match.body
        budget = self.budget
        stop = min(len(body), start + most)
        for i in range(start, stop):
            item = body[i]
            budget[0] -= 1
            self.index = i
            cls = item.__class__
            if cls is Turn:
                assert isinstance(item, Turn)
                self.turn_line(item)
            else:
                self.read_line(item)
                if cls is (ScoreLine if totals else RoundLine):
                    break

    def invent(self, t: Turn) -> None:
        """Play ``t``, a turn the record seems to have lost, that no line
        holds: no finding is its own (a shadow counts them, to weigh it),
        no visitor sees it, and it is no turn line of the round's."""
        rnd = self.round
        assert rnd is not None
        report, events, watch, deciding = self.report, self.events, self.watch, self.deciding
        if not self.trial:
            self.report = Report(_nothing)
        self.events = self.watch = self.deciding = False
        lines = rnd.turn_lines
        try:
            self.play_line(rnd, t)
        finally:
            rnd.uncount_lines(lines)
            self.report, self.events, self.watch, self.deciding = report, events, watch, deciding


class FindingCount:
    """What a shadow reports: its errors and warnings counted (``n``),
    notes not."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, d: Diagnostic) -> None:
        if d.severity is not Severity.INFO:
            self.n += 1


def _nothing(d: Diagnostic) -> None:
    """Where the findings of a turn the replay made up go."""


#: The visitor of a shadow: wants nothing.
_QUIET = ReplayVisitor()
