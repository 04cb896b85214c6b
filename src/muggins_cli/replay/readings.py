"""How the replay reads a line it cannot take as written: as a reader would,
with the reading the rest of the record supports, and one finding for the
slip.

A person writing a record slips: a name misspelt, a colon or a ``d`` left
out, a digit wrong, a line dropped or written twice. Taking such a line as
written, or giving up the round after it, makes every later line of the
round wrong too, and the totals, the next leader and the match's end after
it; a reader instead sees what was meant. So where a line cannot be taken as
written, the replay lists the readings a slip could explain (:class:`Reading`,
nearest first), replays each on a copy of itself to the end of the round
(:meth:`~.trials.Trials.shadow`, :meth:`~.trials.Trials.ahead`), which
counts the errors and warnings the rest of the round would then give, and
goes on with the reading that leaves the fewest, if it leaves at most one
(:data:`STRAY`: a second slip); the finding the line gets
is the one it got as written (the same code at the same place), with the
reading said after it. A reading is a guess at the record, never a rule:
what a turn may do is still the engine's, asked as for any line.

Like rustc and clang, which suppress an error that follows from an earlier
one, the replay then reports nothing that only the slip caused, and goes on
checking the rest of the round, so that a second slip is still found. Where
no reading fits (a tile nobody could have placed there), the turn is set
aside: the round goes on, what the rest of it shows is said as ``info``
naming the line, and the totals are the record's own from its next ``score``
line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from muggins_cli.engine.keys import EMPTY as EMPTY_KEY
from muggins_cli.engine.layout import fit_bits
from muggins_cli.notation.model import (
    BodyLine,
    Claim,
    Diagnostic,
    Draw,
    Pass,
    Placement,
    RoundLine,
    ScoreLine,
    Severity,
    TileTok,
    Turn,
)
from muggins_cli.notation.quoting import quote
from muggins_cli.notation.writer import format_line
from muggins_cli.replay.opening import check_leader, double_holder, leader_due, open_play
from muggins_cli.replay.state import Report, Round
from muggins_cli.replay.trials import AHEAD, Trials
from muggins_cli.tiles import End, Tile, tiles_of

#: Turns weighed for one turn the record seems to have lost.
MOST_MADE_UP = 64
#: The most findings the rest of a round may give after a reading for it to
#: be taken (one: a second slip); past that it explains nothing, and the
#: line is read as written, or a turn that cannot be is set aside.
STRAY = 1


@dataclass
class Reading:
    """A reading of the line being read: what it does to a replay (the
    tracker itself once chosen, a shadow to weigh it), the words said after
    the line's finding, and how many findings its own playing reports that
    are the line's (the same for every reading, so not held against it)."""

    play: Callable[[Trials], object]
    hint: str | None
    own: int = 0
    #: The errors and warnings the rest of the round gave after it, once
    #: weighed.
    cost: int = 0


def weigh(m: Trials, options: list[Reading], fallback: Reading | None = None) -> Reading:
    """The option after which the rest of the round gives the fewest errors
    and warnings, the earliest listed of those that tie; the first without
    any is taken at once. Once the match's trials have read all the lines
    they may (a hostile record), ``fallback`` (the first option when None),
    unweighed: the line as written, or set aside."""
    best = options[0]
    if len(options) == 1:
        return best
    most = m.reach(len(options))
    if not most:
        return best if fallback is None else fallback
    least: int | None = None
    for option in options:
        s = m.shadow()
        option.play(s)
        s.ahead(m.index + 1, most)
        cost = option.cost = s.tally.n - option.own
        if least is None or cost < least:
            best, least = option, cost
            if cost <= 0:
                break
    return best


def spent(m: Trials) -> bool:
    """Whether the match's trials have read all the lines they may: a line is
    then read as written, or set aside, without readings listed."""
    return not m.reach(2)


def one_half_off(a: Tile, b: Tile) -> bool:
    """Two tiles that differ in one half: one digit of the other written
    wrong (``3-5`` for ``3-4``)."""
    return a != b and (a.lo in (b.lo, b.hi) or a.hi in (b.lo, b.hi))


def said(m: Trials, d: Diagnostic, hint: str | None) -> None:
    """Report ``d`` (as the replay reports its own findings) with the
    reading said after it."""
    message = d.message if hint is None else f"{d.message}; {hint}"
    if d.severity is Severity.ERROR:
        m.report.error(d.line, d.column, d.code, message)
    elif d.severity is Severity.WARNING:
        m.report.warn(d.line, d.column, d.code, message)
    else:
        m.report.emit(Diagnostic(d.line, d.column, d.severity, d.code, message))


def found_as_written(m: Trials, act: Callable[[Trials], None]) -> list[Diagnostic]:
    """What ``act`` would report, played on a shadow: the findings a line
    gets as written, to say the first of them with the reading."""
    s = m.shadow()
    found: list[Diagnostic] = []
    s.report = Report(found.append)
    act(s)
    return found


def fits(m: Trials, key: int, tile: Tile, end: End | None) -> bool:
    """Whether ``tile`` fits the end named (some end when None)."""
    moves = m.table.moves(key, tile.index())
    return bool(moves) if end is None else any(e is end for e, _, _ in moves)


# -- turn lines: whose turn it was -------------------------------------------


def turn_line(m: Trials, rnd: Round | None, t: Turn) -> Turn | None:
    """The turn line ``t`` as read: a name not in Players taken for a
    player's, a turn not by the player due read as a turn missing before
    it, a line written twice, a name written wrong, or as written; None
    when the line is read as no turn at all."""
    if t.slip is not None:
        read = _slipped(m, rnd, t)
        if read is None or m.trial or rnd is None or not m.astray(rnd, read):
            return read
        t = read
    assert rnd is not None
    return _astray(m, rnd, t)


def _due(m: Trials, rnd: Round | None) -> tuple[bool, int | None]:
    """Whether the round is in play, and whose turn it is (None at a
    first turn anyone may take)."""
    if rnd is None or rnd.skipping or rnd.ended or m.winner is not None:
        return False, None
    if rnd.turns:
        return True, rnd.to_move
    return True, leader_due(m, rnd)


def _slipped(m: Trials, rnd: Round | None, t: Turn) -> Turn | None:
    """A turn whose name is not in Players: the due player's when the
    name is near theirs; else whichever of the due player's turn, a turn of
    the player the name is near, or no turn the rest of the round supports.
    The parser's finding, with what it was read as."""
    slip = t.slip
    assert slip is not None
    finding = slip.finding
    playing, due = _due(m, rnd)
    if playing and due is None and len(slip.names) == 1:
        name = slip.names[0]  # a first turn anyone may take: the one name it can be
        said(m, finding, f"did you mean {quote(name)}?")
        return t.read_as(name)
    if not playing or due is None:
        said(m, finding, None)
        if rnd is not None:
            rnd.set_aside(t.line)
        return None
    assert rnd is not None
    name = m.players[due]
    if name in slip.names:
        said(m, finding, f"did you mean {quote(name)}?")
        return t.read_as(name)

    def aside(s: Trials) -> None:
        assert s.round is not None
        s.round.set_aside(t.line)

    # Set aside unless the rest of the round says whose it was: the due
    # player's, or that of a player the name is near (then out of turn).
    options = [Reading(aside, None)]
    readers = {id(options[0]): ""}
    if not m.trial:
        for who, hint in [(name, f"read as {name}'s turn, whose it is"),
                          *((other, f"did you mean {quote(other)}?") for other in slip.names)]:
            option = Reading(lambda s, who=who: s.turn_line(t.read_as(who)),  # type: ignore[misc]
                            hint)
            readers[id(option)] = who
            options.append(option)
    chosen = weigh(m, options)
    if chosen.cost > STRAY:
        chosen = options[0]  # no reading makes sense of the rest: set aside
    said(m, finding, chosen.hint)
    who = readers[id(chosen)]
    if not who:
        rnd.set_aside(t.line)
        return None
    return t.read_as(who)


def _same(a: Turn, b: Turn) -> bool:
    """Two turn lines that say the same."""
    x, y = a.spelling, b.spelling
    return a.player == b.player and (x.draws, x.a, x.b, x.end, x.glyph, x.points) == (
        y.draws, y.a, y.b, y.end, y.glyph, y.points)


def _astray(m: Trials, rnd: Round, t: Turn) -> Turn | None:
    """A turn by someone other than the player due (at a round's first
    turn, its leader): the line written twice, a turn of the due player's
    lost before it, the due player's turn under another name, or a turn
    out of turn as written, whichever the rest of the round supports."""
    seat = m.seat[t.player]
    first = rnd.turns == 0
    if first:
        if not rnd.started:
            open_play(m, rnd)
        due = leader_due(m, rnd)
        if due is None:
            due = double_holder(m, rnd)
        if due is None or due == seat or rnd.skipping:
            return t
    else:
        due = rnd.to_move
    if spent(m):
        return t
    excused = not first and m.dropped_since(rnd.last_turn_line, t.line)
    name = m.players[due]
    doubled: Reading | None = None
    options: list[Reading] = []
    prev = rnd.last_turn
    if not first and prev is not None and prev.line < t.line and _same(prev, t):
        doubled = Reading(lambda s: None, f"the line repeats line {prev.line} and is read once")
        options.append(doubled)
    # As written unless the rest of the round says otherwise.
    written = Reading(lambda s: s.turn_line(t), None, own=0 if excused else 1)
    options.append(written)
    made_up: dict[int, Turn] = {}
    if (seat - due) % m.n == 1:
        for lost in made_up_turns(m, rnd, due, t):
            option = Reading(lambda s, lost=lost: _after_lost(s, lost, t),  # type: ignore[misc]
                            f"a turn of {name}'s seems missing before this line "
                            f"(read as {format_line(lost)})")
            made_up[id(option)] = lost
            options.append(option)
    renamed = Reading(lambda s: s.turn_line(t.read_as(name)), f"read as {name}'s turn")
    options.append(renamed)
    chosen = weigh(m, options, written)
    if chosen is written or chosen.cost > STRAY:
        return t  # as written; no other reading makes sense of the rest either
    if not excused:
        if first:
            found = [d for d in found_as_written(m, lambda s: _leader_of(s, t, seat))
                     if d.severity is Severity.ERROR]
            if found:
                said(m, found[0], chosen.hint)
        else:
            m.report.error(t.line, t.column, "out-of-turn",
                           f"it is {name}'s turn, not {t.player}'s; {chosen.hint}")
    if chosen is doubled:
        return None
    if chosen is renamed:
        return t.read_as(name)
    m.invent(made_up[id(chosen)])
    return t


def bad_pass(m: Trials, rnd: Round, t: Turn) -> Turn:
    """A pass the rules do not allow: as written (the rules broken), or, when
    the rest of the round is then right, the turn of the player's it stands
    for, written as a pass by a slip ("read as Budi: 0-6L"). The line to
    play."""
    if spent(m):
        return t
    seat = m.seat[t.player]
    found = [d for d in found_as_written(m, lambda s: s.play_line(s.round, t))
             if d.severity is not Severity.INFO]
    options = [Reading(lambda s: s.play_line(s.round, t), None, own=len(found))]
    turns: dict[int, Turn] = {}
    for other in made_up_turns(m, rnd, seat, t):
        option = Reading(lambda s, other=other: s.play_line(s.round, other),  # type: ignore[misc]
                        f"read as {format_line(other)}, which the rest of the round needs")
        turns[id(option)] = other
        options.append(option)
    chosen = weigh(m, options)
    if chosen.hint is None or chosen.cost > 0 or not found:
        return t
    said(m, found[0], chosen.hint)
    return turns[id(chosen)]


def _leader_of(s: Trials, t: Turn, seat: int) -> None:
    assert s.round is not None
    check_leader(s, s.round, t, seat)


def _after_lost(s: Trials, lost: Turn, t: Turn) -> None:
    s.invent(lost)
    s.turn_line(t)


def made_up_turns(m: Trials, rnd: Round, seat: int, at: BodyLine) -> list[Turn]:
    """The turns ``seat`` may have played now that the record does not
    show (on ``at``'s line, for messages): each tile in hand that fits, at
    each end it fits; with none, the draws from a stock of known order up to
    the first that fits, then that tile, or a pass. A hand the record hides
    may place any unseen tile that fits, after as many unseen draws as the
    stock allows. When ``at`` is a placement, only the turns after which its
    tile fits where it says (all of them if none does). Under muggins rules
    each claims its whole score. At most :data:`MOST_MADE_UP`."""
    table = m.table
    hand = rnd.hands[seat]
    key = rnd.key
    made = _Maker(m, seat, at)
    free = unseen(m, rnd) if hand.unknown else 0
    out: list[tuple[int, Turn]] = []  # (the key after it, the turn)
    if key == EMPTY_KEY:
        for tile in tiles_of((hand.bits | free) & table.all_mask):
            for left in sorted({tile.lo, tile.hi}):
                after = table.lead(tile, left)
                out.append((after, made.turn([], tile, None, left, table.score_of(after))))
        return _followed_by(m, out, at)
    fit = table.fit(key)
    held = fit_bits(table, key, hand.bits) & table.all_mask
    hidden = [] if not hand.unknown else [None] * min(rnd.can_draw, 6)
    for tile in tiles_of(held | (fit & free)):
        for end, after, points in table.moves(key, tile.index()):
            draws = 0 if held >> tile.index() & 1 else len(hidden)
            for k in range(draws + 1):
                out.append((after, made.turn(hidden[:k], tile, end, tile.lo, points)))
    if not held and not hand.unknown:
        if rnd.can_draw and rnd.stock is not None:
            drawn: list[Tile | None] = []
            for tile in rnd.stock[:rnd.can_draw]:
                drawn.append(tile)
                if fit >> tile.index() & 1:
                    for end, after, points in table.moves(key, tile.index()):
                        out.append((after, made.turn(drawn, tile, end, tile.lo, points)))
                    break
            else:
                out.append((key, made.turn(drawn, None, None, 0, 0)))
        elif not rnd.can_draw:
            out.append((key, made.turn([], None, None, 0, 0)))
    elif hand.unknown and not rnd.can_draw:
        out.append((key, made.turn([], None, None, 0, 0)))
    return _followed_by(m, out, at)


class _Maker:
    """Makes the turns of one player that the record does not show, on the
    line (and column) of the line they are read before."""

    def __init__(self, m: Trials, seat: int, at: BodyLine) -> None:
        self.name = m.players[seat]
        self.line, self.column = at.line, at.column
        self.muggins = m.rules.muggins

    def turn(self, draws: Sequence[Tile | None], tile: Tile | None, end: End | None, left: int,
             points: int) -> Turn:
        line, column = self.line, self.column
        steps = tuple(Draw(None if d is None else TileTok(d.lo, d.hi, line, column), line,
                           column) for d in draws)
        if tile is None:
            return Turn.of(self.name, steps, Pass(line, column), None, line, column)
        tok = TileTok(left, tile.other(left), line, column)
        claim = Claim(points, line, column) if self.muggins and points > 0 else None
        return Turn.of(self.name, steps, Placement(tok, end, None, line, column), claim, line,
                       column)


def _followed_by(m: Trials, made: list[tuple[int, Turn]], at: BodyLine) -> list[Turn]:
    """The turns of ``made`` after which the placement of ``at`` (when it is
    one) fits where it says; all of them when none does."""
    turns = [t for _, t in made]
    if isinstance(at, Turn) and at.spelling.tile is not None:
        tile, end = at.spelling.tile, at.spelling.end
        # (Not a turn that places the line's own tile.)
        fitting = [t for key, t in made if t.spelling.tile != tile and fits(m, key, tile, end)]
        if fitting:
            turns = fitting
    return turns[:MOST_MADE_UP]


def unseen(m: Trials, rnd: Round) -> int:
    """Tiles (bits) a hand the record hides may hold: none placed and none
    another hand is known to hold (a tile drawn unseen may have been one
    the stock's contents held)."""
    known = 0
    for h in rnd.hands:
        known |= h.bits
    return m.table.all_mask & ~rnd.seen & ~known


# -- the end of a round's play ---------------------------------------------------


def before_end(m: Trials, rnd: Round, item: BodyLine) -> None:
    """A ``reveal`` or ``round`` line while the round has not ended, or a
    ``score`` line whose totals the replay's are not: a turn of the due
    player's lost before it, when one (ending the round, but before a
    ``score`` line) makes the rest of the record hold; then the line is
    read as usual, its finding (the first it had as written) said with that
    reading."""
    scores = isinstance(item, ScoreLine)
    if scores:
        assert isinstance(item, ScoreLine)
        if all(m.scores[m.seat[e.player]] == e.points for e in item.entries):
            return
    elif isinstance(item, RoundLine) and m.hidden_block_possible(rnd):
        return
    if spent(m):
        return
    found = found_as_written(m, lambda s: s.read_line(item))
    errors = [d for d in found if d.severity is not Severity.INFO]
    if not errors:
        return
    due = rnd.to_move
    if not rnd.started:
        # A score line after a round's deal and before its first turn: that
        # turn, the leader's, may be the one lost.
        leader = leader_due(m, rnd)
        if leader is None:
            return
        open_play(m, rnd)
        due = leader
    # As written unless a lost turn makes the line right and nothing after
    # it wrong (as written, the line's finding stands unexplained, and what
    # the round's end then leaves unknown is not reported: it weighs one).
    written = Reading(lambda s: s.read_line(item), None, own=len(errors) - 1)
    options = [written]
    made_up: dict[int, Turn] = {}
    for lost in made_up_turns(m, rnd, due, item):
        hint = (f"a turn of {m.players[due]}'s seems missing before this line" if scores else
                f"the turn that ended round {rnd.number} seems missing")
        option = Reading(lambda s, lost=lost: _lost_before(s, lost, item, scores),  # type: ignore[misc]
                        f"{hint} (read as {format_line(lost)})")
        made_up[id(option)] = lost
        options.append(option)
    chosen = weigh(m, options)
    if chosen.hint is None or chosen.cost > STRAY:
        return
    said(m, errors[0], chosen.hint)
    m.invent(made_up[id(chosen)])


def _lost_before(s: Trials, lost: Turn, item: BodyLine, scores: bool) -> None:
    s.invent(lost)
    rnd = s.round
    if not scores and (rnd is None or (not rnd.ended and s.winner is None)):
        s.tally.n += AHEAD  # a turn that does not end the round explains nothing here
    s.read_line(item)


def carried(m: Trials, item: ScoreLine) -> bool:
    """A score line whose totals are not the replay's: whether the record's
    next score line goes on from them (a slip before it that the table
    counted on) or from the replay's (a total written wrong), read on to it;
    as written, the replay's, when nothing tells."""
    def taken(s: Trials) -> None:
        for e in item.entries:
            s.scores[s.seat[e.player]] = e.points

    options = [Reading(lambda s: None, None), Reading(taken, "carried")]
    least: list[int] = []
    most = m.reach(len(options), totals=True)
    if not most:
        return False
    for option in options:
        s = m.shadow()
        option.play(s)
        s.ahead(m.index + 1, most, totals=True)
        least.append(s.tally.n)
    return least[1] < least[0]
