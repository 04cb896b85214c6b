"""Replay a parsed record through the engine and collect every finding.

The replay never raises on a bad record: like python-chess's ``GameBuilder``
it appends typed diagnostics and goes on where the record still makes sense
(an illegal draw is taken as done, a wrong claim is replaced by the real
score) and skips to the next round where it cannot (a tile that is not there).

Rules are resolved through a caller-supplied function so that this module
stays free of file and YAML handling (and of the decision of which files a
record may name).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from muggins_cli.engine.layout import (
    EMPTY,
    Layout,
    blocked_at,
    fitting,
    lead,
    place,
)
from muggins_cli.engine.scoring import (
    EndReason,
    settle,
    winner_at_settlement,
    winner_on_credit,
)
from muggins_cli.engine.state import Place, highest_double, leads_by_deal
from muggins_cli.engine.table import LayoutTable, table_for
from muggins_cli.engine.voids import VoidWatch
from muggins_cli.errors import RulesError
from muggins_cli.notation.model import (
    NUMBER_MAX,
    BodyLine,
    DealLine,
    Diagnostic,
    LeadLine,
    Match,
    MugginsCall,
    Placement,
    RevealLine,
    RoundLine,
    ScoreLine,
    Severity,
    StockLine,
    Turn,
    whole_number,
)
from muggins_cli.notation.quoting import quote
from muggins_cli.rules.model import MatchEnd, Rules
from muggins_cli.tiles import End, Tile, bits_of, full_set, tiles_of

RulesResolver = Callable[[str], Rules]


@dataclass
class MatchSummary:
    """What docs/notation.md 9 reports per match, plus what tables want."""

    line: int
    players: list[str]
    rules: str
    target: int | None
    rounds: int
    scores: dict[str, int]
    winner: str | None
    turns: int = 0


@dataclass(frozen=True, slots=True)
class MatchEnding:
    """Where and why the match was decided, so that displays (``replay``,
    the study page) can say it without knowing the rules: ``line`` is the
    record line of the deciding placement or muggins call, or the line
    after which the round's settlement was applied (its last turn or
    reveal); ``scores`` are the final totals by seat."""

    winner: int
    reason: EndReason
    round: int
    line: int
    scores: tuple[int, ...]
    target: int


def won_text(players: list[str] | tuple[str, ...], target: int, winner: int | None,
             ending: MatchEnding | None) -> str:
    """How the winner won, as every end-of-match message says it (the
    checker's, ``replay``'s title, ``--at`` past the end), so that under
    ``match_end: round-end`` none of them says the target ended it."""
    name = players[winner] if winner is not None else "?"
    if ending is not None and ending.reason is EndReason.ROUND_END:
        return (f"{name} won at the end of round {ending.round} with the highest total "
                f"at or above the target of {target}")
    return f"{name} reached the target of {target}"


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """One placement or pass as the replay saw it, for analysis and display.

    ``hand`` is the mover's hand when they placed (after any draws), or None
    when the record hides part of it. ``choices`` are the tiles the mover was
    allowed to place: the drawn tile alone after a fitting draw.
    """

    round: int
    turn: int
    seat: int
    line: int
    column: int
    layout: Layout
    hand: frozenset[Tile] | None
    choices: frozenset[Tile] | None
    draws: int
    placed: Place | None
    points: int
    scores_before: tuple[int, ...]
    stock_left: int


@dataclass
class MatchReplay:
    summary: MatchSummary
    diagnostics: list[Diagnostic]
    rules: Rules | None
    events: list[TurnEvent] = field(default_factory=list)
    #: How the match was decided; None when nobody has won (or the winner
    #: was only taken from the Result tag of a record with hidden hands).
    ending: MatchEnding | None = None


class HandView:
    """A hand as far as the record shows it: known tiles plus a count.

    ``bits`` holds the known tiles as bits of ``Tile.index`` (a tile off the
    set, a record's typo, above the set's bits); ``unknown`` counts tiles
    whose faces the record never showed (no deal lines, ``d??`` draws).
    Checks that need them become ``unverified``.
    """

    __slots__ = ("bits", "unknown")

    def __init__(self, known: Iterable[Tile] = (), unknown: int = 0) -> None:
        self.bits = bits_of(known)
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


class RoundProgress:
    """The state of the round being replayed.

    The layout is its id in the rules' layout table (``lid``), which answers
    every question a turn asks of it; the ``Layout`` value, for positions,
    events and messages, is made from the tiles laid only when asked for.
    """

    def __init__(self, number: int, line: int, players: int, rules: Rules,
                 table: LayoutTable) -> None:
        self.number = number
        self.line = line
        self.rules = rules
        self.lead_line: LeadLine | None = None
        self.lead_seat: int | None = None
        self.lead_wrong = False
        # ``lead_tile: highest-double`` rounds: the double the deal makes the
        # lead, once the hands are known (None: any tile, or not known).
        self.lead_tile: tuple[int, Tile] | None = None
        self.by_deal = False
        self.deals: dict[int, DealLine] = {}
        self.dealt_bits = 0  # the tiles of ``deals`` as bits of Tile.index
        self.stock_line: StockLine | None = None
        self.started = False  # a turn has been played
        self.hands: list[HandView] = [HandView() for _ in range(players)]
        self.stock: list[Tile] | None = None  # known order, next first
        self.stock_pool: int | None = None  # known contents (bits), order unknown
        self.stock_count = 0
        self.seen = 0  # tiles whose place is certain, as bits
        self.lid = table.empty
        self.laid: list[tuple[Tile, End | None, int]] = []  # (tile, end, half facing L)
        self._layout: Layout = EMPTY
        self._layout_laid = 0
        self.to_move = 0
        self.turns = 0
        self.ended = False
        self.went_out: int | None = None
        self.blocked = False
        self.end_hands: list[HandView] | None = None
        self.closing_passes: set[int] = set()
        self.consecutive_passes = 0
        self.skipping = False  # the record stopped making sense in this round
        self.unverified: set[str] = set()
        self.settled = False
        self.settlement: tuple[int, ...] | None = None  # what the settlement credited each
        self.revealed: set[int] = set()
        self.last_turn_line = 0
        self.turn_lines = 0  # every turn line, closing passes included (docs/notation.md 7)
        self.voids = VoidWatch(rules)  # what draws and passes showed

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


class ReplayVisitor:
    """What watches a replay between its lines, in the spirit of
    python-chess's ``BaseVisitor``: position look-ups, the list of every
    position and the decision points are visitors (:mod:`.position`). The
    methods do nothing here; a visitor overrides those it needs (the
    events of the analysis come through :meth:`turn`). They get the
    :class:`Replayer`, whose public methods (``round``, ``rules``,
    ``scores``, ``winner``, :meth:`Replayer.open_round`,
    :meth:`Replayer.settle_round`) say where the replay is."""

    def line(self, rep: Replayer, item: BodyLine) -> bool:
        """Before each body line once the header is read; False stops the
        replay there (nothing after it is read or reported)."""
        return True

    def end(self, rep: Replayer) -> None:
        """After the last line, before the last round's settlement."""

    def decide(self, rep: Replayer, turn: Turn, drawn: Tile | None) -> None:
        """In each turn at the moment the mover chooses a placement or a
        pass: after the turn's draws, with the drawn tile that must be
        placed (None if none), before the action is replayed."""

    #: Whether :meth:`turn` is wanted: building the events costs a little on
    #: every turn, so a replay makes them only for a visitor that says so.
    wants_turns: bool = False

    def turn(self, rep: Replayer, event: TurnEvent) -> None:
        """After each placement or pass the replay accepted, with what it
        saw (only when :attr:`wants_turns`)."""


class TurnEvents(ReplayVisitor):
    """Keeps every :class:`TurnEvent`, for the analysis, the statistics and
    the study page (``replay_match(..., collect_events=True)``)."""

    wants_turns = True

    def __init__(self) -> None:
        self.events: list[TurnEvent] = []

    def turn(self, rep: Replayer, event: TurnEvent) -> None:
        self.events.append(event)


class Visitors(ReplayVisitor):
    """Several visitors as one, asked in order: a replay stops where the
    first of them says stop."""

    def __init__(self, *visitors: ReplayVisitor) -> None:
        self.visitors = visitors
        self.wants_turns = any(v.wants_turns for v in visitors)

    def line(self, rep: Replayer, item: BodyLine) -> bool:
        return all(v.line(rep, item) for v in self.visitors)

    def end(self, rep: Replayer) -> None:
        for v in self.visitors:
            v.end(rep)

    def decide(self, rep: Replayer, turn: Turn, drawn: Tile | None) -> None:
        for v in self.visitors:
            v.decide(rep, turn, drawn)

    def turn(self, rep: Replayer, event: TurnEvent) -> None:
        for v in self.visitors:
            if v.wants_turns:
                v.turn(rep, event)


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """The header resolved once: who plays in which seat, under which rules,
    to which target. Everything after the header reads it from here, so the
    rules are never missing where a turn is replayed."""

    players: tuple[str, ...]
    seat: dict[str, int]
    rules: Rules
    target: int


@dataclass(slots=True)
class _Header:
    """What the header gave, also when it did not give a whole setup: the
    names and the rules still go into the summary and the replay result."""

    players: tuple[str, ...] = ()
    rules: Rules | None = None
    setup: MatchSetup | None = None


def read_setup(match: Match, resolve_rules: RulesResolver, diags: list[Diagnostic]) -> _Header:
    """Resolve the Players, Rules and Target tags, appending a ``bad-header``
    finding to ``diags`` for each that cannot be used."""
    def error(line: int, column: int, message: str) -> None:
        diags.append(Diagnostic(line, column, Severity.ERROR, "bad-header", message))

    players_tag = match.tag_line("Players")
    if players_tag is None:
        if not any(d.code == "bad-header" for d in diags):
            error(match.line, 1, "the match has no Players tag")
        return _Header()
    if any(d.code == "bad-header" and d.line == players_tag.line for d in diags):
        return _Header()
    names = tuple(match.players)
    rules_tag = match.tag_line("Rules")
    spec = rules_tag.value if rules_tag is not None else "pagat"
    try:
        rules = resolve_rules(spec)
    except RulesError as e:
        where = rules_tag if rules_tag is not None else players_tag
        error(where.line, where.column, f"Rules {quote(spec)}: {e}")
        return _Header(names)
    if len(names) not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        error(players_tag.line, players_tag.column,
              f"{len(names)} players, but rules {quote(rules.name)} allow {allowed}")
        return _Header(names, rules)
    target_tag = match.tag_line("Target")
    target = rules.target_for(len(names))
    if target_tag is not None:
        number = whole_number(target_tag.value.strip())
        if number is None or number <= 0:
            error(target_tag.line, target_tag.column,
                  f"Target must be a whole number from 1 to {NUMBER_MAX:,}, "
                  f"got {quote(target_tag.value)}")
        else:
            target = number
    seat = {n: i for i, n in enumerate(names)}
    return _Header(names, rules, MatchSetup(names, seat, rules, target))


class Replayer:
    """Tracks one match's rounds from its resolved header; :func:`replay_match`
    runs it and returns the summary and diagnostics."""

    def __init__(
        self,
        match: Match,
        setup: MatchSetup,
        diags: list[Diagnostic],
        visitor: ReplayVisitor | None = None,
    ) -> None:
        self.visitor = visitor
        self.match = match
        self.setup = setup
        self.collect = visitor is not None and visitor.wants_turns
        self.diags = diags
        self.players: tuple[str, ...] = setup.players
        self.seat: dict[str, int] = setup.seat
        self.rules: Rules = setup.rules
        self.table = table_for(setup.rules)
        self.target = setup.target
        self.scores: list[int] = [0] * len(setup.players)
        self.winner: int | None = None
        self.ending: MatchEnding | None = None
        self.last_line = 0  # the last body line read, where a settlement follows
        self.rounds = 0
        self.turns = 0
        self.round: RoundProgress | None = None
        self.prev_round: RoundProgress | None = None
        self.pending: tuple[int, int, Turn] | None = None  # (placer, unclaimed rest, turn)
        # The muggins line just read: the only line that may follow a
        # placement as a call, so a muggins line after it is one too many.
        self.last_call: MugginsCall | None = None
        self.scores_uncertain = False
        self.after_end_reported = False
        self.deduced: dict[int, dict[int, set[Tile]]] = {}
        # Lines the parser could not read: a turn may be missing there, so the
        # next one is not blamed for being out of turn.
        self.dropped = sorted({d.line for d in match.diagnostics
                               if d.severity is Severity.ERROR})

    # -- diagnostics --------------------------------------------------------

    def error(self, line: int, column: int, code: str, message: str) -> None:
        self.diags.append(Diagnostic(line, column, Severity.ERROR, code, message))

    def warn(self, line: int, column: int, code: str, message: str) -> None:
        self.diags.append(Diagnostic(line, column, Severity.WARNING, code, message))

    def unverified(self, line: int, column: int, kind: str, message: str) -> None:
        rnd = self.round
        if rnd is not None:
            if kind in rnd.unverified:
                return
            rnd.unverified.add(kind)
        self.diags.append(Diagnostic(line, column, Severity.INFO, "unverified", message))

    # -- driver -------------------------------------------------------------

    def run(self) -> None:
        """Replay the body; the findings go to ``diags``."""
        self.deduced = deduce_hands(self.match.body, self.seat,
                                    self.rules.hand_size_for(len(self.players)))
        visitor = self.visitor
        if visitor is None:
            self._replay_quickly(self.match.body)
        else:
            for item in self.match.body:
                if not visitor.line(self, item):
                    return
                self._line(item)
            visitor.end(self)
        self._finish_round_end()
        self._check_result()

    # -- body ---------------------------------------------------------------

    def _line(self, item: BodyLine) -> None:
        if item.__class__ is Turn:
            # The commonest line, asked first: what the chain below does
            # with a turn (issue 13).
            self.pending = None
            self.last_call = None
            rnd = self.round
            if rnd is not None and rnd.ended and not rnd.settled:
                self._finish_round_end()
            self.last_line = item.line
            if self.winner is not None:
                self._after_match_end(item)
            elif self.round is None:
                self.error(item.line, item.column, "bad-round",
                           "this line comes before any `round` line")
            else:
                self._turn(item)
            return
        if not isinstance(item, MugginsCall):
            self.pending = None
            self.last_call = None
            if not isinstance(item, RevealLine):
                self._finish_round_end()
        self.last_line = item.line
        if self.winner is not None:
            self._after_match_end(item)
            return
        if isinstance(item, RoundLine):
            self._round(item)
        elif self.round is None:
            self.error(item.line, item.column, "bad-round",
                       "this line comes before any `round` line")
        elif isinstance(item, LeadLine):
            self._lead(item)
        elif isinstance(item, DealLine):
            self._deal(item)
        elif isinstance(item, StockLine):
            self._stock(item)
        elif isinstance(item, Turn):
            self._turn(item)
        elif isinstance(item, MugginsCall):
            self._muggins(item)
        elif isinstance(item, RevealLine):
            self._reveal(item)
        elif isinstance(item, ScoreLine):
            self._score(item)

    def _after_match_end(self, item: BodyLine) -> None:
        if isinstance(item, ScoreLine):
            self._score(item)
        elif isinstance(item, RevealLine):
            if self.round is not None and self.round.ended:
                self._reveal(item)
        elif isinstance(item, RoundLine | Turn | MugginsCall):
            if isinstance(item, RoundLine):
                self.round = None
            # One finding for the first line past the end: the rest of the
            # record follows from it and would only repeat it.
            if self.after_end_reported:
                return
            self.after_end_reported = True
            what = "a new round" if isinstance(item, RoundLine) else "a play"
            self.error(item.line, item.column, "after-match-end",
                       f"{what} after {self._won_text()}; "
                       "the match was over (later lines are not checked)")

    def _won_text(self) -> str:
        return won_text(self.players, self.target, self.winner, self.ending)

    # -- round structure ----------------------------------------------------

    def _round(self, item: RoundLine) -> None:
        rnd = self.round
        if rnd is not None and not rnd.ended and not rnd.skipping:
            if self._hidden_block_possible(rnd):
                self._end_blocked(rnd, item.line, item.column, inferred=True)
                self._finish_round_end()
            else:
                self.error(item.line, item.column, "bad-round",
                           f"round {item.number} starts before round {rnd.number} ended")
        expected = self.rounds + 1
        if item.number != expected:
            self.error(item.line, item.column, "bad-round",
                       f"expected round {expected}, got round {item.number}")
        self.rounds += 1
        self.prev_round = rnd
        self.round = RoundProgress(expected, item.line, len(self.players), self.rules,
                                   self.table)

    def _hidden_block_possible(self, rnd: RoundProgress) -> bool:
        """A round kept without hands may have been blocked without the
        closing passes being written; we cannot tell, so we say so. The
        stock is exhausted once only its reserve is left (docs/rules.md)."""
        return rnd.started and rnd.stock_count <= self.rules.stock_reserve and not all(
            h.complete for h in rnd.hands)

    def _expected_leader(self) -> int | None:
        """Who must lead this round, or None when a lot decides it."""
        prev = self.prev_round
        if prev is None or prev.skipping or not prev.ended:
            return None
        return prev.went_out

    def _lead(self, item: LeadLine) -> None:
        rnd = self._round_or_none(item)
        if rnd is None:
            return
        if rnd.started:
            self.error(item.line, item.column, "bad-round",
                       "a `lead` line must come before the round's first turn")
            return
        seat = self.seat[item.player]
        expected = self._expected_leader()
        rnd.lead_line = item
        rnd.lead_seat = seat
        # A round led by the deal is checked at its first turn, once the
        # deal lines (which follow the lead line) have been read.
        if expected is not None and expected != seat:
            rnd.lead_wrong = True
            self.error(item.line, item.player_column, "wrong-leader",
                       f"{self.players[expected]} went out last round and leads round "
                       f"{rnd.number}, not {item.player}")

    def _round_or_none(self, item: BodyLine) -> RoundProgress | None:
        rnd = self.round
        if rnd is None or rnd.skipping:
            return None
        if rnd.ended:
            return None
        return rnd

    def _deal(self, item: DealLine) -> None:
        rnd = self.round
        if rnd is None or rnd.skipping:
            return
        if rnd.started:
            self.error(item.line, item.column, "bad-deal",
                       "a `deal` line must come before the round's first turn")
            return
        seat = self.seat[item.player]
        if seat in rnd.deals:
            self.error(item.line, item.column, "bad-deal",
                       f"{item.player} already has a deal line in this round")
            return
        # The tiles of the round's deal lines so far and of this one, as bits
        # of Tile.index (a tile with too many pips too): no set per line.
        dealt = rnd.dealt_bits
        max_pip = self.rules.max_pip
        ok = True
        mine = 0
        for tok in item.tiles:
            t = tok.tile
            bit = 1 << t.index()
            if t.hi > max_pip:
                self.error(tok.line, tok.column, "bad-deal",
                           f"{tok} is not in a double-{max_pip} set")
                ok = False
            elif (dealt | mine) & bit:
                self.error(tok.line, tok.column, "bad-deal", f"{tok} is dealt twice")
                ok = False
            mine |= bit
        size = self.rules.hand_size_for(len(self.players))
        if len(item.tiles) != size and ok:
            self.error(item.line, item.column, "bad-deal",
                       f"{item.player} is dealt {len(item.tiles)} tiles; "
                       f"with {len(self.players)} players a hand is {size}")
        rnd.deals[seat] = item
        rnd.dealt_bits |= mine

    def _stock(self, item: StockLine) -> None:
        rnd = self.round
        if rnd is None or rnd.skipping:
            return
        if rnd.started or rnd.stock_line is not None:
            self.error(item.line, item.column, "bad-deal",
                       "a `stock` line must come once, before the round's first turn")
            return
        rnd.stock_line = item

    # -- for visitors -------------------------------------------------------

    def open_round(self, turn: Turn) -> None:
        """Before a round's first turn the hands are not set up yet (that
        happens when the turn is read); set them up now, with ``turn``'s
        player to move, so that the opening position shows them."""
        rnd = self.round
        if rnd is not None and not rnd.started and not rnd.skipping \
                and self._start_play(rnd, turn):
            rnd.to_move = self.seat[turn.player]

    def settle_round(self) -> None:
        """Apply an ended round's settlement now rather than at the next
        line (which changes nothing: no line between changes it)."""
        self._finish_round_end()

    # -- rounds -------------------------------------------------------------

    def _start_play(self, rnd: RoundProgress, turn: Turn) -> bool:
        """Set up hands and stock when the first turn arrives; False to skip."""
        rules = self.rules
        n = len(self.players)
        rnd.started = True
        size = rules.hand_size_for(n)
        every = _every(rules.max_pip)
        if rnd.deals and len(rnd.deals) != n:
            missing = [self.players[i] for i in range(n) if i not in rnd.deals]
            first = min(d.line for d in rnd.deals.values())
            self.error(first, 1, "bad-deal",
                       "deal lines for only some players (none for " + ", ".join(missing) + ")")
            rnd.skipping = True
            return False
        if rnd.deals:
            dealt = 0
            for seat, d in rnd.deals.items():
                hand = rnd.hands[seat] = HandView(tok.tile for tok in d.tiles if tok.tile in every)
                dealt |= hand.bits
            pool: int | None = self.table.all_mask & ~dealt
            rnd.stock_pool = pool
        else:
            deduced = self.deduced.get(rnd.number, {})
            rnd.hands = [HandView(deduced[i]) if i in deduced else HandView((), size)
                         for i in range(n)]
            for i in deduced:
                rnd.seen |= rnd.hands[i].bits
            pool = None
            if len(deduced) == n:
                rnd.stock_pool = self.table.all_mask & ~rnd.seen
        rnd.stock_count = len(every) - n * size
        if rnd.stock_line is not None:
            self._check_stock(rnd, rnd.stock_line, pool, every)
        self._lead_by_deal(rnd)
        return True

    def _lead_by_deal(self, rnd: RoundProgress) -> None:
        """Under ``lead_tile: highest-double``, a round that no going out
        decides is led by the highest double dealt; a deal without one
        would have been dealt again."""
        prev = self.prev_round
        rnd.by_deal = leads_by_deal(self.rules) and (
            prev is None or (not prev.skipping and prev.ended and prev.went_out is None))
        if not rnd.by_deal or not all(h.complete for h in rnd.hands):
            return
        rnd.lead_tile = highest_double([h.known for h in rnd.hands])
        if rnd.lead_tile is None and rnd.deals:
            last = max(rnd.deals.values(), key=lambda d: d.line)
            self.error(last.line, last.column, "bad-deal",
                       f"nobody is dealt a double in round {rnd.number}; with the highest "
                       "double leading, such a deal is dealt again")

    def _check_stock(self, rnd: RoundProgress, item: StockLine, pool: int | None,
                     every: frozenset[Tile]) -> None:
        """``pool``: the undealt tiles (bits) when the deal is in the record."""
        tiles = [tok.tile for tok in item.tiles]
        seen = 0
        for tok in item.tiles:
            t = tok.tile
            if t not in every:
                self.error(tok.line, tok.column, "bad-deal", f"{tok} is not in the set")
                return
            bit = 1 << t.index()
            if seen & bit:
                self.error(tok.line, tok.column, "bad-deal", f"{tok} is twice in the stock")
                return
            seen |= bit
        if pool is not None and seen != pool:
            missing = sorted(tiles_of(pool & ~seen))
            extra = sorted(tiles_of(seen & ~pool))
            parts = []
            if missing:
                parts.append("lacks " + " ".join(map(str, missing)))
            if extra:
                parts.append("holds dealt tiles " + " ".join(map(str, extra)))
            self.error(item.line, item.column, "bad-deal",
                       "the stock is not the undealt tiles: it " + " and ".join(parts))
            return
        if pool is None and len(tiles) != rnd.stock_count:
            self.error(item.line, item.column, "bad-deal",
                       f"the stock holds {len(tiles)} tiles; {rnd.stock_count} were left undealt")
            return
        rnd.stock = tiles
        rnd.stock_pool = seen
        if pool is None:
            # The hands are the complement of the stock, in unknown shares.
            rnd.seen |= seen

    # -- turns --------------------------------------------------------------

    def _turn(self, t: Turn) -> None:
        rnd = self.round
        assert rnd is not None
        if rnd.skipping:
            return
        seat = self.seat[t.player]
        rnd.turn_lines += 1
        if rnd.ended:
            if self._closing_pass(rnd, t, seat):
                return
            how = (f"{self.players[rnd.went_out]} went out" if rnd.went_out is not None
                   else "the round was blocked")
            self.error(t.line, t.column, "after-round-end",
                       f"{t.player} plays after round {rnd.number} ended ({how})")
            return
        if rnd.turns == 0:
            if not rnd.started and not self._start_play(rnd, t):
                return
            if rnd.skipping:
                return
            self._check_leader(rnd, t, seat)
        elif seat != rnd.to_move and not self._dropped_since(rnd.last_turn_line, t.line):
            self.error(t.line, t.column, "out-of-turn",
                       f"it is {self.players[rnd.to_move]}'s turn, not {t.player}'s")
        rnd.to_move = seat
        rnd.last_turn_line = t.line
        rnd.turns += 1
        self.turns += 1
        self._play(rnd, t, seat)

    def _replay_quickly(self, body: Iterable[BodyLine]) -> None:
        """Replay ``body`` with no visitor watching, the commonest turn of all
        in one step (issue 13): the player to move lays a tile of their hand
        (or of its hidden part, once the round has said that such tiles are
        not checked) on an end it fits, and claims what the rules let them.
        Exactly what :meth:`_line` does with such a turn, without its
        questions; every other line (a draw, a pass, a lead, a missing end
        letter, anything to report) goes to :meth:`_line`, before anything
        is changed."""
        table = self.table
        pips, rmoves, n_tiles = table.pips, table.rmoves, table.n_tiles
        seat_of = self.seat
        rules = self.rules
        muggins, reserve = rules.muggins, rules.stock_reserve
        players = len(self.players)
        general = self._line
        for item in body:
            rnd = self.round
            if item.__class__ is not Turn or rnd is None or not rnd.turns or rnd.ended \
                    or rnd.skipping or self.winner is not None:
                general(item)
                continue
            assert isinstance(item, Turn)
            spelling = item.spelling
            seat = seat_of[item.player]
            end = spelling.end
            index = spelling.index
            if seat != rnd.to_move or spelling.drawn or end is None or not 0 <= index < n_tiles:
                general(item)
                continue
            hand = rnd.hands[seat]
            bit = 1 << index
            held = hand.bits & bit
            if not held and (not hand.unknown or rnd.seen & bit or "in-hand" not in rnd.unverified
                             or any(h.bits & bit for h in rnd.hands)):
                general(item)
                continue
            lid = rnd.lid
            pip = pips[lid].get(end)
            tile = spelling.tile
            assert tile is not None
            if pip is None or (tile.lo != pip and tile.hi != pip):
                general(item)
                continue
            found = rmoves[lid]
            moves = found.get(index) if found is not None else None
            for e, next_lid, score in moves or table.real_moves(lid, index):
                if e is end:
                    nid, points = next_lid, score
                    break
            claimed = spelling.points
            if muggins:
                if claimed is None:
                    claimed = 0
                elif claimed > points:
                    general(item)
                    continue
            elif claimed is not None and claimed != points:
                general(item)
                continue
            # Nothing to report: the turn, as _line would replay it.
            self.last_call = None
            self.last_line = item.line
            rnd.turn_lines += 1
            rnd.last_turn_line = item.line
            rnd.turns += 1
            self.turns += 1
            if held:
                hand.bits ^= bit
            else:
                hand.unknown -= 1
                if rnd.stock_pool is not None:
                    rnd.stock_pool &= ~bit
            rnd.seen |= bit
            rnd.lid = nid
            rnd.laid.append((tile, end, 0))
            rnd.consecutive_passes = 0
            if muggins:
                assert claimed is not None
                self.pending = (seat, points - claimed, item)
                if claimed > 0:
                    self._credit(seat, claimed, item.line, EndReason.PLACEMENT)
            else:
                self.pending = None
                if points > 0:
                    self._credit(seat, points, item.line, EndReason.PLACEMENT)
            rnd.to_move = (seat + 1) % players
            if not hand.bits and not hand.unknown:
                rnd.ended = True
                rnd.went_out = seat
                rnd.end_hands = rnd.hands
            elif rnd.stock_count <= reserve and self._blocked(rnd):
                self._end_blocked(rnd, item.line, item.column, inferred=False)

    def _dropped_since(self, after: int, before: int) -> bool:
        i = bisect.bisect_right(self.dropped, after)
        return i < len(self.dropped) and self.dropped[i] < before

    def _check_leader(self, rnd: RoundProgress, t: Turn, seat: int) -> None:
        if rnd.by_deal:
            self._check_double_lead(rnd, t, seat)
            return
        expected = self._expected_leader()
        if rnd.lead_seat is not None:
            if seat != rnd.lead_seat and not (rnd.lead_wrong and seat == expected):
                self.error(t.line, t.column, "wrong-leader",
                           f"{self.players[rnd.lead_seat]} leads round {rnd.number}, "
                           f"not {t.player}")
        elif expected is None:
            why = ("round 1" if self.prev_round is None else
                   f"round {rnd.number} after a blocked round")
            self.error(t.line, t.column, "wrong-leader",
                       f"{why} needs a `lead` line (the leader is chosen by lot)")
        elif seat != expected:
            self.error(t.line, t.column, "wrong-leader",
                       f"{self.players[expected]} went out last round and leads round "
                       f"{rnd.number}, not {t.player}")

    def _check_double_lead(self, rnd: RoundProgress, t: Turn, seat: int) -> None:
        """The holder of the highest double dealt leads it: one finding per
        round, on the `lead` line that names someone else, else on the turn."""
        action = t.action
        led = action.tile.tile if isinstance(action, Placement) else None
        shown = str(action.tile) if isinstance(action, Placement) else "a pass"
        if rnd.lead_tile is None:
            if rnd.deals or all(h.complete for h in rnd.hands):
                return  # no double dealt: reported on the deal
            if led is not None and not led.is_double:
                self.error(action.line, action.column, "wrong-leader",
                           f"round {rnd.number} opens with the highest double dealt, "
                           f"not {shown}")
            elif led is not None:
                self.unverified(action.line, action.column, "lead-double",
                                f"round {rnd.number}: hands are not in the record, so "
                                f"whether {led} was the highest double dealt is not checked")
            if rnd.lead_seat is not None and seat != rnd.lead_seat:
                self.error(t.line, t.column, "wrong-leader",
                           f"{self.players[rnd.lead_seat]} leads round {rnd.number}, "
                           f"not {t.player}")
            return
        holder, double = rnd.lead_tile
        name = self.players[holder]
        if rnd.lead_seat is not None and rnd.lead_seat != holder:
            lead_line = rnd.lead_line
            assert lead_line is not None
            self.error(lead_line.line, lead_line.player_column, "wrong-leader",
                       f"{name} holds {double}, the highest double dealt, and leads round "
                       f"{rnd.number} with it, not {lead_line.player}")
            if seat in (holder, rnd.lead_seat):
                return
        if seat != holder:
            self.error(t.line, t.column, "wrong-leader",
                       f"{name} holds {double}, the highest double dealt, and leads round "
                       f"{rnd.number} with it, not {t.player}")
        elif led != double:
            self.error(action.line, action.column, "wrong-leader",
                       f"{name} must lead {double}, the highest double dealt, not {shown}")

    def _closing_pass(self, rnd: RoundProgress, t: Turn, seat: int) -> bool:
        """Bare passes after a block, in seat order, at most one each."""
        if not (rnd.blocked and not t.spelling.drawn and t.spelling.tile is None):
            return False
        if seat in rnd.closing_passes or seat != rnd.to_move:
            return False
        rnd.closing_passes.add(seat)
        rnd.to_move = (seat + 1) % len(self.players)
        return True

    def _play(self, rnd: RoundProgress, t: Turn, seat: int) -> None:
        hand = rnd.hands[seat]
        spelling = t.spelling
        drawn_fit: Tile | None = None
        # Events show the layout the mover faced; a plain check makes none.
        layout_before = rnd.layout if self.collect else EMPTY
        # What draws, passes and placements show is for the positions a
        # visitor asks for; a plain check has none to ask.
        watch = self.visitor is not None
        # 1. Draws, one tile at a time.
        if spelling.drawn:
            drawn_fit = self._draws(rnd, t, seat, hand, watch)
        # 2. Pass or placement.
        if watch:
            assert self.visitor is not None
            self.visitor.decide(self, t, drawn_fit)
        tile = spelling.tile
        if tile is None:
            if watch:
                rnd.voids.passed(seat, rnd.layout)
            self._pass(rnd, t, seat, hand, drawn_fit, layout_before)
            return
        if watch:
            rnd.voids.placed(seat, rnd.layout, tile, spelling.end)
        self._place(rnd, t, seat, hand, drawn_fit, layout_before)

    def _draws(self, rnd: RoundProgress, t: Turn, seat: int, hand: HandView,
               watch: bool) -> Tile | None:
        """Replay a turn's draws; the drawn tile that fits, which must be
        placed, or None."""
        rules = self.rules
        table = self.table
        name = t.player
        drawn_fit: Tile | None = None
        lid = rnd.lid  # no draw changes the layout
        for i, tile in enumerate(t.spelling.drawn):
            if lid == table.empty:
                d = t.draws[i]
                self.error(d.line, d.column, "illegal-draw",
                           f"{name} drew on the round's first turn; any tile may open")
            elif drawn_fit is not None:
                d = t.draws[i]
                self.error(d.line, d.column, "illegal-draw",
                           f"{name} drew again after drawing {drawn_fit}, which fits "
                           + self._where(rnd, drawn_fit))
            elif rules.must_play:
                fit = fitting(table, lid, hand.bits)
                if fit:
                    d = t.draws[i]
                    self.error(d.line, d.column, "illegal-draw",
                               f"{name} drew{' ' + str(tile) if tile else ''} while holding "
                               f"{fit[0]}, which fits {self._where(rnd, fit[0])}")
                elif not hand.complete and "draw" not in rnd.unverified:
                    d = t.draws[i]
                    self.unverified(d.line, d.column, "draw",
                                    f"round {rnd.number}: hands are not in the record, so "
                                    "whether a player could play instead of drawing is not "
                                    f"checked (first: {name} here)")
            if rnd.stock_count - rules.stock_reserve <= 0:
                d = t.draws[i]
                self.error(d.line, d.column, "illegal-draw", f"{name} drew from an empty stock")
            if watch:
                rnd.voids.drew(seat, rnd.layout)
            tile = self._take_from_stock(rnd, t, i, tile)
            rnd.stock_count = max(0, rnd.stock_count - 1)
            if tile is None:
                hand.unknown += 1
            else:
                hand.bits |= 1 << tile.index()
                if drawn_fit is None and lid != table.empty:
                    pips = table.pips[lid].values()
                    if tile.lo in pips or tile.hi in pips:
                        drawn_fit = tile
        return drawn_fit

    def _where(self, rnd: RoundProgress, tile: Tile) -> str:
        ends = self.table.pips[rnd.lid]
        return ", ".join(f"{e.value} ({ends[e]})" for e in self.table.ends_for(rnd.lid, tile))

    def _take_from_stock(self, rnd: RoundProgress, t: Turn, i: int,
                         tile: Tile | None) -> Tile | None:
        """Remove the ``i``-th drawn tile of ``t`` from what is known of the
        stock; an illegal draw is reported and taken as done."""
        stock = rnd.stock
        if stock:
            nxt = stock[0]
            if tile is None or tile is nxt:
                tile = nxt
                del stock[0]
            else:
                if tile != nxt:
                    where = ("is not in the stock" if tile not in stock
                             else f"is not the next tile of the stock ({nxt} is)")
                    d = t.draws[i]
                    self.error(d.line, d.column, "illegal-draw",
                               f"{t.player} drew {tile}, which {where}")
                if tile in stock:
                    stock.remove(tile)
            if rnd.stock_pool is not None:
                rnd.stock_pool &= ~(1 << tile.index())
            return tile
        if tile is None:
            return None
        bit = 1 << tile.index()
        if rnd.stock_pool is not None:
            if not rnd.stock_pool & bit:
                d = t.draws[i]
                self.error(d.line, d.column, "illegal-draw",
                           f"{t.player} drew {tile}, which is not in the stock")
            rnd.stock_pool &= ~bit
        elif rnd.seen & bit:
            d = t.draws[i]
            self.error(d.line, d.column, "illegal-draw",
                       f"{t.player} drew {tile}, which is already placed or held")
        rnd.seen |= bit
        return tile

    def _pass(self, rnd: RoundProgress, t: Turn, seat: int, hand: HandView,
              drawn_fit: Tile | None, layout_before: Layout) -> None:
        rules = self.rules
        name = t.player
        if drawn_fit is not None:
            action = t.action
            self.error(action.line, action.column, "drawn-tile-not-played",
                       f"{name} drew {drawn_fit}, which fits {self._where(rnd, drawn_fit)}, "
                       "and must place it")
        elif rnd.lid == self.table.empty:
            action = t.action
            self.error(action.line, action.column, "illegal-pass",
                       f"{name} passed on the round's first turn; any tile may open")
        elif rnd.stock_count - rules.stock_reserve > 0:
            action = t.action
            self.error(action.line, action.column, "illegal-pass",
                       f"{name} passed while the stock has {rnd.stock_count} tiles to draw")
        else:
            fit = fitting(self.table, rnd.lid, hand.bits)
            if fit:
                action = t.action
                self.error(action.line, action.column, "illegal-pass",
                           f"{name} passed while holding {fit[0]}, which fits "
                           + self._where(rnd, fit[0]))
            elif not hand.complete and "pass" not in rnd.unverified:
                action = t.action
                self.unverified(action.line, action.column, "pass",
                                f"round {rnd.number}: hands are not in the record, so "
                                "whether a player could play instead of passing is not "
                                f"checked (first: {name} here)")
        if self.collect:
            self._event(rnd, t, seat, hand, None, layout_before, None, 0)
        rnd.to_move = (seat + 1) % len(self.players)
        rnd.consecutive_passes += 1
        if self._blocked(rnd) or (
            rnd.consecutive_passes >= len(self.players) and rnd.stock_count <= rules.stock_reserve
        ):
            self._end_blocked(rnd, t.line, t.column,
                              inferred=not all(h.complete for h in rnd.hands))

    def _blocked(self, rnd: RoundProgress) -> bool:
        """Blocked as the engine says, once every hand is known."""
        drawable = rnd.stock_count - self.rules.stock_reserve
        if drawable > 0 or not all(h.complete for h in rnd.hands):
            return False
        return blocked_at(self.table, rnd.lid, [h.bits for h in rnd.hands], drawable)

    def _place(self, rnd: RoundProgress, t: Turn, seat: int, hand: HandView,
               drawn_fit: Tile | None, layout_before: Layout) -> None:
        """Replay a placement: the commonest line of a record, so the tokens
        of the turn (:attr:`Turn.action`, :attr:`Turn.claim`) are asked for
        only to say what is wrong with them."""
        rules = self.rules
        table = self.table
        name = t.player
        spelling = t.spelling
        tile = spelling.tile
        assert tile is not None
        if tile.hi > rules.max_pip:
            p = t.action
            assert isinstance(p, Placement)
            self.error(p.line, p.column, "not-in-hand",
                       f"{p.tile} is not in a double-{rules.max_pip} set")
            rnd.skipping = True
            return
        if drawn_fit is not None and tile is not drawn_fit and tile != drawn_fit:
            p = t.action
            assert isinstance(p, Placement)
            self.error(p.line, p.column, "drawn-tile-not-played",
                       f"{name} drew {drawn_fit}, which fits {self._where(rnd, drawn_fit)}, "
                       f"and must place it, not {p.tile}")
        # 1. Is the tile in the hand?
        bit = 1 << spelling.index
        if hand.bits & bit:
            hand.bits ^= bit
        elif hand.unknown == 0 or rnd.seen & bit:
            p = t.action
            assert isinstance(p, Placement)
            where = self._whereabouts(rnd, tile)
            self.error(p.line, p.column, "not-in-hand",
                       f"{name} places {p.tile}, which they do not hold{where}")
            rnd.skipping = True
            return
        else:
            if any(h.bits & bit for h in rnd.hands):
                p = t.action
                assert isinstance(p, Placement)
                self.error(p.line, p.column, "not-in-hand",
                           f"{name} places {p.tile}, which another player holds")
                rnd.skipping = True
                return
            if "in-hand" not in rnd.unverified:
                p = t.action
                assert isinstance(p, Placement)
                self.unverified(p.line, p.column, "in-hand",
                                f"round {rnd.number}: hands are not in the record, so "
                                "whether players held the tiles they placed is not checked "
                                f"(first: {name}'s {p.tile} here)")
            hand.unknown -= 1
            if rnd.stock_pool is not None:
                rnd.stock_pool &= ~bit
        rnd.seen |= bit
        # 2. Where does it go? The layout table knows where the placement
        # leads and what it scores.
        lid = rnd.lid
        end = spelling.end
        if lid == table.empty:
            if end is not None:
                p = t.action
                assert isinstance(p, Placement)
                self.error(p.line, p.column, "bad-end",
                           f"the opening tile takes no end letter ({p.tile}{end.value})")
                end = None
            lid = table.lead_id(tile, spelling.a)
            points = rules.score_of(table.total[lid])
            rnd.laid.append((tile, None, spelling.a))
        else:
            pip = table.pips[lid].get(end) if end is not None else None
            if pip is None or not (tile.lo == pip or tile.hi == pip):
                p = t.action
                assert isinstance(p, Placement)
                chosen = self._choose_end(rnd, p, tile)
                if chosen is None:
                    rnd.skipping = True
                    return
                end = chosen
            for e, nid, score in table.real_moves(lid, spelling.index):
                if e is end:
                    lid, points = nid, score
                    break
            rnd.laid.append((tile, end, 0))
        rnd.lid = lid
        rnd.consecutive_passes = 0
        if self.collect:
            move = Place(tile, end, spelling.a if end is None else None)
            self._event(rnd, t, seat, hand, move, layout_before, drawn_fit, points,
                        placed_tile=tile)
        # 3. Claim and credit.
        claimed = spelling.points
        credit = points
        rest = 0
        if rules.muggins:
            if claimed is None:
                claimed = 0
            if claimed > points:
                self._claim_mismatch(rnd, t, claimed, points)
                credit, rest = 0, points
            else:
                credit, rest = claimed, points - claimed
            self.pending = (seat, rest, t)
        elif claimed is not None and claimed != points:
            self._claim_mismatch(rnd, t, claimed, points)
        if credit > 0:
            self._credit(seat, credit, t.line, EndReason.PLACEMENT)
        rnd.to_move = (seat + 1) % len(self.players)
        # 4. Round end.
        if not hand.bits and not hand.unknown:
            rnd.ended = True
            rnd.went_out = seat
            rnd.end_hands = rnd.hands
        elif rnd.stock_count <= rules.stock_reserve and self._blocked(rnd):
            self._end_blocked(rnd, t.line, t.column, inferred=False)

    def _claim_mismatch(self, rnd: RoundProgress, t: Turn, claimed: int, points: int) -> None:
        claim, p = t.claim, t.action
        assert claim is not None and isinstance(p, Placement)
        self.error(claim.line, claim.column, "score-mismatch",
                   f"{t.player} claims {claimed}; {p.tile} scores {points}"
                   f" (the open ends add up to {self.table.total[rnd.lid]})")

    def _whereabouts(self, rnd: RoundProgress, tile: Tile) -> str:
        if tile in rnd.layout.tiles():
            return " (it is already on the table)"
        bit = 1 << tile.index()
        for i, h in enumerate(rnd.hands):
            if h.bits & bit:
                return f" ({self.players[i]} holds it)"
        if rnd.stock_pool is not None and rnd.stock_pool & bit:
            return " (it is in the stock)"
        return ""

    def _choose_end(self, rnd: RoundProgress, p: Placement, tile: Tile) -> End | None:
        """The end of a placement whose end letter is missing or wrong,
        with the finding that says so."""
        ends = self.table.pips[rnd.lid]
        if p.end is not None:
            pip = ends.get(p.end)
            if pip is not None and (tile.lo == pip or tile.hi == pip):
                return p.end  # the common case: nothing to explain
        fitting_ends = self.table.ends_for(rnd.lid, tile)
        shown = ", ".join(f"{e.value}={v}" for e, v in ends.items())
        if p.end is not None:
            if p.end not in ends:
                why = ("there is no spinner" if not rnd.layout.spinner else
                       "the spinner's U and D open once L and R hold a tile")
                if p.end.value in "LR":
                    why = "that end is not open"
                self.error(p.line, p.column, "bad-end",
                           f"end {p.end.value} is not open ({why}); open ends: {shown}")
            elif p.end in fitting_ends:
                return p.end
            else:
                self.error(p.line, p.column, "does-not-fit",
                           f"{p.tile} does not fit {p.end.value}, which shows {ends[p.end]}; "
                           f"open ends: {shown}")
            return fitting_ends[0] if fitting_ends else None
        if not fitting_ends:
            self.error(p.line, p.column, "does-not-fit",
                       f"{p.tile} fits no open end ({shown})")
            return None
        if len(fitting_ends) > 1:
            end, needed_on = self._end_needed(rnd, p.line, tile, fitting_ends)
            fits = f"{p.tile} fits " + " and ".join(e.value for e in fitting_ends)
            if needed_on is not None:
                self.error(p.line, p.column, "ambiguous-end",
                           f"{fits}; taken as {end.value}, which the play on line "
                           f"{needed_on} needs; write the end: {p.tile}{end.value}")
            else:
                self.error(p.line, p.column, "ambiguous-end",
                           f"{fits}; taken as {end.value}, as nothing later tells which; "
                           f"write the end, e.g. {p.tile}{end.value}")
            return end
        return fitting_ends[0]

    def _end_needed(self, rnd: RoundProgress, line: int, tile: Tile, ends: list[End]
                    ) -> tuple[End, int | None]:
        """Of the ``ends`` that ``tile``, laid on ``line`` without an end
        letter, fits: the one after which the round's next placements still
        fit, and the line of the placement that told; else the first end
        still possible, and None. Taking the first end blindly made every
        later play on the other one an error that the one missing letter
        caused. Follows the placements as written, on the layout table
        alone, until one choice is left, a play fits no choice (an error
        either way), one is itself ambiguous, or the round ends."""
        table = self.table
        live = {e: nid for e, nid, _ in table.real_moves(rnd.lid, tile.index()) if e in ends}
        body = self.match.body
        start = bisect.bisect_right(body, line, key=_line_of)
        for item in body[start:start + _LOOK_AHEAD]:
            if isinstance(item, RoundLine):
                break
            if item.__class__ is not Turn:
                continue
            assert isinstance(item, Turn)
            spelling = item.spelling
            later = spelling.tile
            if later is None:
                continue  # a pass tells nothing of the layout
            if later.hi > self.rules.max_pip:
                break
            follow: dict[End, int] = {}
            for e, lid in live.items():
                moves = [m for m in table.real_moves(lid, spelling.index)
                         if spelling.end is None or m[0] is spelling.end]
                if len(moves) > 1:
                    return next(iter(live)), None
                if moves:
                    follow[e] = moves[0][1]
            if not follow:
                break
            live = follow
            if len(live) == 1:
                return next(iter(live)), item.line
        return next(iter(live)), None

    def _end_blocked(self, rnd: RoundProgress, line: int, column: int, inferred: bool) -> None:
        rnd.ended = True
        rnd.blocked = True
        rnd.end_hands = rnd.hands
        rnd.closing_passes = set()
        if inferred and not all(h.complete for h in rnd.hands):
            self.unverified(line, column, "blocked",
                            f"round {rnd.number} is taken as blocked; with hidden hands "
                            "that nobody could play is not checked")

    def _event(self, rnd: RoundProgress, t: Turn, seat: int, hand: HandView, move: Place | None,
               layout_before: Layout, drawn_fit: Tile | None, points: int,
               placed_tile: Tile | None = None) -> None:
        if self.visitor is None or not self.collect:
            return
        held: frozenset[Tile] | None = None
        if hand.complete:
            held = frozenset(hand.known | ({placed_tile} if placed_tile else set()))
        choices = frozenset({drawn_fit}) if drawn_fit is not None else held
        self.visitor.turn(self, TurnEvent(
            round=rnd.number, turn=rnd.turns, seat=seat, line=t.line, column=t.column,
            layout=layout_before,
            hand=held, choices=choices, draws=len(t.spelling.drawn), placed=move,
            points=points, scores_before=tuple(self.scores), stock_left=rnd.stock_count))

    # -- scores -------------------------------------------------------------

    def _credit(self, seat: int, points: int, line: int, reason: EndReason) -> None:
        if points <= 0 or self.winner is not None:
            return
        deltas = [0] * len(self.scores)
        deltas[seat] = points
        if not self.scores_uncertain:
            # With totals unknown (a settlement needed hidden hands) whether
            # this reached the target is unknown too; the record goes on.
            self.winner = winner_on_credit(self.rules, self.scores, deltas, self.target)
        self.scores[seat] += points
        self._ended(reason, line)

    def _ended(self, reason: EndReason, line: int) -> None:
        if self.winner is not None and self.ending is None and self.round is not None:
            self.ending = MatchEnding(self.winner, reason, self.round.number, line,
                                      tuple(self.scores), self.target)

    def _muggins(self, call: MugginsCall) -> None:
        """Only the line right after a placement may call (docs/notation.md 5),
        valid or not: whatever it was, the chance to call is used up."""
        pending, self.pending = self.pending, None
        previous, self.last_call = self.last_call, call
        name = call.player
        if not self.rules.muggins:
            self.error(call.line, call.column, "muggins-invalid",
                       f"rules {quote(self.rules.name)} have no muggins call; "
                       "every placement scores by itself")
            return
        if previous is not None:
            self.error(call.line, call.column, "muggins-invalid",
                       "one muggins call at most follows a placement, and "
                       f"{previous.player} called on line {previous.line}")
            return
        if pending is None:
            self.error(call.line, call.column, "muggins-invalid",
                       "a muggins call must follow the turn it takes points from")
            return
        placer, rest, _turn = pending
        caller = self.seat[name]
        if caller == placer:
            self.error(call.line, call.column, "muggins-invalid",
                       f"{name} cannot call muggins on their own play")
            return
        if rest <= 0:
            self.error(call.line, call.column, "muggins-invalid",
                       f"nothing to take: {self.players[placer]} claimed all the play scored")
            return
        if call.points > rest:
            self.error(call.line, call.points_column or call.column, "muggins-invalid",
                       f"{name} calls muggins for {call.points}, but only {rest} "
                       f"went unclaimed")
            return
        self._credit(caller, call.points, call.line, EndReason.MUGGINS)

    def _finish_round_end(self) -> None:
        """Apply the round-end settlement once the lines that may precede it
        (a muggins call on the last placement, reveals) have been read."""
        rnd = self.round
        if rnd is None or not rnd.ended or rnd.settled or self.winner is not None:
            return
        rnd.settled = True
        hands = rnd.end_hands or rnd.hands
        self._deduce_last_hand(rnd, hands)
        if not all(h.complete for h in hands):
            self.unverified(rnd.line, 1, "settlement",
                            f"round {rnd.number}: the hands left at the end are not all in "
                            "the record (no deal or reveal lines), so the round-end "
                            "settlement is not computed")
            self.scores_uncertain = True
            return
        pips = [sum(t.pips for t in tiles_of(h.bits)) for h in hands]
        deltas = settle(self.rules, pips, rnd.went_out)
        rnd.settlement = tuple(deltas)
        self.winner = winner_at_settlement(self.rules, self.scores, deltas, self.target)
        self.scores = [s + d for s, d in zip(self.scores, deltas)]
        round_end = self.rules.match_end is MatchEnd.ROUND_END
        self._ended(EndReason.ROUND_END if round_end else EndReason.SETTLEMENT, self.last_line)

    def _deduce_last_hand(self, rnd: RoundProgress, hands: list[HandView]) -> None:
        """With every other hand known and no unknown tile left in the stock,
        the one hidden hand is whatever is not accounted for."""
        hidden = [h for h in hands if not h.complete]
        if len(hidden) != 1:
            return
        stock_known = rnd.stock is not None or rnd.stock_count == 0
        if not stock_known:
            return
        accounted = set(rnd.layout.tiles()) | set(rnd.stock or ())
        for h in hands:
            accounted |= h.known
        rest = set(full_set(self.rules.max_pip)) - accounted
        (hand,) = hidden
        if len(rest) == hand.unknown:
            hand.bits |= bits_of(rest)
            hand.unknown = 0

    def _reveal(self, item: RevealLine) -> None:
        rnd = self.round
        if rnd is None or rnd.skipping:
            return
        seat = self.seat[item.player]
        shown = [tok.tile for tok in item.tiles]
        if not rnd.ended and self._hidden_block_possible(rnd):
            # Hands shown while the stock is exhausted: the round was blocked,
            # which hidden hands did not let the replay see at the time.
            self._end_blocked(rnd, item.line, item.column, inferred=True)
        if not rnd.ended:
            self.error(item.line, item.column, "reveal-mismatch",
                       f"reveal before round {rnd.number} ended")
            return
        hand = (rnd.end_hands or rnd.hands)[seat]
        known = hand.known
        if hand.complete:
            if sorted(shown) != sorted(known):
                held = " ".join(map(str, sorted(known))) or "nothing"
                self.error(item.line, item.column, "reveal-mismatch",
                           f"{item.player} held {held} at the end of round {rnd.number}, "
                           f"not {' '.join(map(str, shown)) or 'nothing'}")
            return
        # A hidden hand: the reveal tells us what it was, if it can be true.
        if len(shown) != hand.size or not known <= set(shown) or any(
                rnd.seen >> t.index() & 1 and t not in known for t in shown):
            self.error(item.line, item.column, "reveal-mismatch",
                       f"{item.player} cannot hold {' '.join(map(str, shown)) or 'nothing'} "
                       f"(they hold {hand.size} tiles, known: "
                       f"{' '.join(map(str, sorted(known))) or 'none'})")
            return
        hand.bits = bits_of(shown)
        hand.unknown = 0
        rnd.seen |= hand.bits

    def _score(self, item: ScoreLine) -> None:
        if self.round is not None and self.round.skipping:
            return
        wrong = []
        for e in item.entries:
            seat = self.seat[e.player]
            if self.scores[seat] != e.points:
                wrong.append((e, self.scores[seat]))
        if self.scores_uncertain:
            if wrong:
                self.unverified(item.line, item.column, "totals",
                                "the totals cannot be recomputed (a settlement needed hidden "
                                "hands); the score line is taken as written")
                for e in item.entries:
                    self.scores[self.seat[e.player]] = e.points
            self.scores_uncertain = False
            return
        for e, real in wrong:
            self.error(e.line, e.column, "total-mismatch",
                       f"{e.player} has {real}, not {e.points}")

    # -- the end ------------------------------------------------------------

    def _check_result(self) -> None:
        tag = self.match.tag_line("Result")
        if self.scores_uncertain and self.winner is None and tag is not None \
                and tag.value.strip() in self.seat:
            self.unverified(tag.line, tag.column, "result",
                            f"the totals depend on hidden hands, so that {tag.value.strip()} "
                            "won is taken from the Result tag, not recomputed")
            self.winner = self.seat[tag.value.strip()]
            return
        winner = self.players[self.winner] if self.winner is not None else None
        rnd = self.round
        if tag is not None:
            value = tag.value.strip()
            if value == "*":
                if winner is not None:
                    self.error(tag.line, tag.column, "result-mismatch",
                               f"Result is *, but {self._won_text()}")
                return
            if winner is not None:
                if value != winner:
                    self.error(tag.line, tag.column, "result-mismatch",
                               f"Result names {value}, but {winner} won")
                return
            if value not in self.seat:
                self.error(tag.line, tag.column, "result-mismatch",
                           f"Result names {value}, who is not a player")
                return
        if winner is None and self.scores_uncertain:
            line = tag.line if tag is not None else self.match.line
            self.unverified(line, 1, "result",
                            "the totals depend on hidden hands, so whether anyone reached "
                            f"{self.target} is not known")
            return
        if winner is None:
            inside = rnd is not None and not rnd.ended and not rnd.skipping
            where = tag if tag is not None else None
            line = where.line if where is not None else self.match.line
            self.warn(line, where.column if where is not None else 1, "unfinished",
                      ("the record ends inside round " + str(rnd.number)
                       if inside and rnd is not None else "the record ends")
                      + f" {self._undecided_text()}; write [Result \"*\"] "
                      "for an unfinished match")

    def _undecided_text(self) -> str:
        if self.rules.match_end is MatchEnd.ROUND_END:
            return ("before a round ended with one total alone the highest at or above "
                    f"{self.target}")
        return f"before anyone reached {self.target}"


_EVERY: dict[int, frozenset[Tile]] = {}


#: How many body lines after a placement without its end letter are read to
#: find the end the record needs (a round rarely holds more turns).
_LOOK_AHEAD = 64


def _line_of(item: BodyLine) -> int:
    return item.line


def _every(max_pip: int) -> frozenset[Tile]:
    """The tiles of a double-``max_pip`` set as a set, built once."""
    every = _EVERY.get(max_pip)
    if every is None:
        every = frozenset(full_set(max_pip))
        if len(_EVERY) < 64:
            _EVERY[max_pip] = every
    return every


def deduce_hands(body: Iterable[BodyLine], seat: dict[str, int],
                 hand_size: int) -> dict[int, dict[int, set[Tile]]]:
    """Opening hands that a record without deals still gives away.

    A hand's end is known when its holder revealed it or went out (as many
    placements as tiles dealt and drawn); with every draw's face written,
    the opening hand is then the end hand plus what was placed minus what was
    drawn. Found per round and seat, so the replay can check those hands as
    if they had been dealt (docs/notation.md 6: deduced and checked).
    """
    out: dict[int, dict[int, set[Tile]]] = {}
    rounds: list[tuple[bool, dict[int, list[Tile]], dict[int, list[Tile]],
                       dict[int, int], dict[int, list[Tile]]]] = []
    dealt = True  # before any round, and in a round with a deal line: nothing to find
    for item in body:
        cls = item.__class__
        if cls is RoundLine:
            rounds.append((False, {}, {}, {}, {}))
            dealt = False
        elif dealt:
            continue
        elif cls is DealLine:
            rounds[-1] = (True, *rounds[-1][1:])
            dealt = True
        elif isinstance(item, Turn):
            _, placed, drawn, hidden, _ = rounds[-1]
            s = seat.get(item.player)
            if s is None:
                continue
            spelling = item.spelling
            for tile in spelling.drawn:
                if tile is None:
                    hidden[s] = hidden.get(s, 0) + 1
                else:
                    drawn.setdefault(s, []).append(tile)
            if spelling.tile is not None:
                placed.setdefault(s, []).append(spelling.tile)
        elif isinstance(item, RevealLine) and item.player in seat:
            rounds[-1][4][seat[item.player]] = [t.tile for t in item.tiles]
    for number, (dealt, placed, drawn, hidden, revealed) in enumerate(rounds, 1):
        if dealt:
            continue
        found: dict[int, set[Tile]] = {}
        for s in set(seat.values()):
            if hidden.get(s):
                continue
            mine, got = placed.get(s, []), drawn.get(s, [])
            end = revealed.get(s)
            if end is None and hand_size + len(got) != len(mine):
                continue
            start = list(end or []) + mine
            for t in got:
                if t in start:
                    start.remove(t)
                else:
                    break
            else:
                if len(start) == hand_size and len(set(start)) == hand_size:
                    found[s] = set(start)
        tiles = [t for h in found.values() for t in h]
        if len(tiles) == len(set(tiles)) and found:
            out[number] = found
    return out


def replay_match(match: Match, resolve_rules: RulesResolver, collect_events: bool = False,
                 visitor: ReplayVisitor | None = None) -> MatchReplay:
    """Replay one match; never raises for anything in the record.
    ``collect_events`` keeps every turn's event in the result (a
    :class:`TurnEvents` visitor beside ``visitor``)."""
    diags = list(match.diagnostics)
    header = read_setup(match, resolve_rules, diags)
    setup = header.setup
    rules_tag = match.tag("Rules")
    rules_name = rules_tag if rules_tag is not None else "pagat"
    if setup is None:
        players = list(header.players)
        summary = MatchSummary(
            line=match.line, players=players, rules=rules_name, target=None,
            rounds=sum(isinstance(b, RoundLine) for b in match.body),
            scores=dict.fromkeys(players, 0), winner=None)
        diags.sort(key=lambda d: (d.line, d.column))
        return MatchReplay(summary, diags, header.rules)
    events = TurnEvents() if collect_events else None
    if events is not None:
        visitor = events if visitor is None else Visitors(visitor, events)
    rep = Replayer(match, setup, diags, visitor)
    rep.run()
    summary = MatchSummary(
        line=match.line,
        players=list(rep.players),
        rules=rules_name,
        target=rep.target or None,
        rounds=rep.rounds,
        scores=dict(zip(rep.players, rep.scores)),
        winner=rep.players[rep.winner] if rep.winner is not None else None,
        turns=rep.turns,
    )
    diags.sort(key=lambda d: (d.line, d.column))
    return MatchReplay(summary, diags, setup.rules, events.events if events else [], rep.ending)
