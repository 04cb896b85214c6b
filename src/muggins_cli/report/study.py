"""``muggins study``: one match as a page to look at, offline.

The page is the replay's positions drawn (:mod:`.svg`), the record's lines
as written, and the analysis's numbers (:mod:`muggins_cli.analysis`)
arranged by a Jinja2 template that autoescapes: player names, tags and
annotations are a stranger's text. Nothing here judges a play; the numbers
are the ones ``muggins analyze`` reports, looked up by the turn's line.

Each board is the table once a turn has been played, with that tile
outlined: ``r3t12`` is round 3 after its 12th turn (``muggins replay --at
3.13``, the position before the 13th), ``r3t0`` the deal. Every board is a
``<section>`` of its own, shown by CSS ``:target``, so a link shows a
position and the page works with JavaScript off; the small script only
adds keys and keeps the current turn in view.

With the solver, a board's section also holds the weighing of the turn
that led to it, written out here so that it reads without script: every
legal play the solver valued, ranked, with its value and error, the one
played and the best marked; a radio button per play draws it on the board
as a ghost tile (CSS ``:has``, no script) and shows the line the solver
expects after it, when it gives one. Under the score chart a value curve
gives, turn by turn, what the mover could expect the round's margin to be
after their play (points already made in the round included), so that the
swings and the costly turns stand out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import TYPE_CHECKING

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.match import MatchAnalysis
from muggins_cli.analysis.plays import PlayAnalysis, play_text, written_halves
from muggins_cli.analysis.verdicts import (
    BLUNDER,
    CLOSE,
    FINE,
    MISTAKE,
    UNCERTAIN,
    VERDICT_WORDS,
    WeighOptions,
    points,
    verdict_reason,
)
from muggins_cli.analysis.weigh import Candidate, Weighed
from muggins_cli.engine.layout import Layout, layout_score, open_ends
from muggins_cli.engine.state import Draw, Pass, Place, UnseenDraw, placed_scored
from muggins_cli.notation.model import (
    NO_COMMENTS,
    Annotation,
    BodyLine,
    Comments,
    Match,
    MugginsCall,
    RoundLine,
    Turn,
)
from muggins_cli.notation.model import Pass as PassStep
from muggins_cli.notation.writer import format_line
from muggins_cli.replay.position import Position
from muggins_cli.report.analysis_report import (
    player_headers,
    player_rows,
    weigh_line,
)
from muggins_cli.report.board import after_settlement, ends_text, went_out
from muggins_cli.report.svg import (
    Ghost,
    Rect,
    board_svg,
    defs_svg,
    face_id,
    lay_table,
    new_tile,
    union,
)
from muggins_cli.rules.model import Rules

if TYPE_CHECKING:  # the solver (Numba) only when a page is weighed
    from muggins_cli.solver import SolverMove

COLOURS = ("#1f6fb4", "#2e8b57", "#8e44ad", "#7a5c2e")
"""One per seat, in the chart, the move list and the summary: none of them
red or orange, the colours of a mistake and a blunder."""
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:")
"""Nothing remote, ever: the page opens from disk and fetches nothing."""
LINE_TURNS = 6
"""How many turns of the solver's line a candidate shows: enough to see the
plan, few enough to read at a glance."""
MINUS = "\u2212"


@dataclass(frozen=True)
class Call:
    player: str
    seat: int
    points: int
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """A turn in the move list: as written, with its notes and calls, what
    it scored, and the analysis's verdict on it. ``verdict`` is the
    solver's (``mistake``, ``blunder``: coloured, with ``glyph``); ``lost``
    says what the play gave away, neutral unless it is a verdict."""

    board: str
    turn: int
    player: str
    seat: int
    text: str
    points: int | None
    claim: int | None
    notes: tuple[str, ...]
    calls: tuple[Call, ...]
    missed: int = 0
    best: str | None = None
    lost: str | None = None
    glyph: str | None = None
    comments: tuple[str, ...] = ()
    verdict: str | None = None
    luck: str | None = None


@dataclass(frozen=True)
class Step:
    """One turn of a solver's line: who, the tiles they drew, what they
    laid (``face``: the tile as a page draws it, the half that joins first)
    and what it scored."""

    player: str
    seat: int
    draws: tuple[str, ...]
    play: str
    face: str | None
    points: int


@dataclass(frozen=True)
class CandidateView:
    """One legal play of a weighed turn, as its row in the turn's table."""

    key: str
    rank: int
    play: str
    scores: int
    value: str
    spread: str
    """The value with its standard error and deals, or ``exact``."""
    cost: str
    deals: int
    """The deals it was valued in when fewer than the turn's (the race
    stopped valuing it, clearly worse), else 0."""
    played: bool
    best: bool
    ghost: bool
    line: tuple[Step, ...] = ()
    more: int = 0


@dataclass(frozen=True)
class TurnView:
    """The solver's weighing of the turn that led to a board."""

    player: str
    seat: int
    played: str
    choices: int
    verdict: str
    """``blunder``, ``mistake``, ``uncertain``, ``fine``, ``best``,
    ``forced`` or ``unweighed``: the class the page colours it by."""
    glyph: str | None
    summary: str
    luck: str | None
    how: str
    meaning: str
    candidates: tuple[CandidateView, ...] = ()
    exact: bool = False
    sampled: bool = False
    """Whether the solver's lines are played in one deal of the unseen
    tiles (the mover's view) rather than the recorded one."""


@dataclass(frozen=True)
class BoardView:
    id: str
    index: int
    round: int
    turn: int
    heading: str
    svg: Markup
    prev: str | None = None
    next: str | None = None
    caption: str = ""
    ends: str = ""
    weighed: TurnView | None = None
    seat: int | None = None


@dataclass
class RoundView:
    number: int
    board: str
    leader: str
    entries: list[Entry] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    end: str = ""
    settlement: list[tuple[str, int, str, int]] = field(default_factory=list)
    """Each player: name, seat, the change the settlement made (``+5``, ``-10``)
    and the total after it."""


@dataclass(frozen=True)
class Page:
    title: str
    subtitle: str
    ending: str
    notes: tuple[str, ...]
    boards: tuple[BoardView, ...]
    rounds: tuple[RoundView, ...]
    chart: Markup
    defs: Markup
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    weigh: tuple[str, ...]
    players: tuple[tuple[str, str], ...]
    most: int = 0
    """The most candidates of any turn: the page's CSS has a rule for each."""
    costly: tuple[str, ...] = ()
    """The boards after a mistake or a blunder, in order (the key that jumps
    to the next one)."""
    curve: str = ""
    """What the value curve under the scores shows (none without the solver)."""


def _notes(item: BodyLine) -> tuple[str, ...]:
    return tuple(" ".join(n.text.split()) for n in item.notes)


def _calls(match: Match, seat: dict[str, int]) -> dict[int, tuple[Call, ...]]:
    """The muggins calls that follow each turn line, by the turn's line."""
    out: dict[int, list[Call]] = {}
    last: int | None = None
    for item in match.body:
        if isinstance(item, Turn):
            last = item.line
        elif isinstance(item, MugginsCall) and last is not None:
            out.setdefault(last, []).append(
                Call(item.player, seat.get(item.player, 0), item.points, _notes(item)))
        else:
            last = None
    return {k: tuple(v) for k, v in out.items()}


def _texts(comments: Comments, notes: Sequence[Annotation] = ()) -> list[str]:
    """A line's comments in the order written: those above it, the one at
    its end, then those that went with its annotations."""
    out = [c.text.strip() for c in comments.before]
    if comments.end is not None:
        out.append(comments.end.text.strip())
    for n in notes:
        out.extend(_texts(n.comments))
    return out


def _comments(match: Match) -> tuple[dict[int, list[str]], dict[int, list[str]], list[str]]:
    """Each ``#`` comment with what the parser gave it to: a turn's (and
    the muggins calls after it) by the turn's line, the other lines of a
    round by its number, the tags' and the closing ones to the match."""
    by_turn: dict[int, list[str]] = {}
    by_round: dict[int, list[str]] = {}
    rest = [t for tag in match.tags for t in _texts(tag.comments)]
    rest += _texts(NO_COMMENTS, match.notes)
    number = 0
    last: int | None = None
    for item in match.body:
        texts = _texts(item.comments, item.notes)
        if isinstance(item, Turn):
            last = item.line
        if isinstance(item, RoundLine):
            number = item.number
        if not texts:
            continue
        if isinstance(item, Turn | MugginsCall) and last is not None:
            by_turn.setdefault(last, []).extend(texts)
        elif number:
            by_round.setdefault(number, []).extend(texts)
        else:
            rest.extend(texts)
    rest += [c.text.strip() for c in match.closing]
    return by_turn, by_round, rest


def _steps(turn: Turn) -> str:
    """The turn's draws and play as written: no name (names hold no colon)
    and no claim (the entry shows it beside the points really made)."""
    return format_line(turn.changed(drop_claim=True)).split(": ", 1)[1]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _ending(analysis: MatchAnalysis, seen: Sequence[tuple[Position, BodyLine | None]],
            moments: Sequence[str]) -> str:
    """Why the match ended, from what the replay says: the first position
    at which it was over, and whether that was mid-round or at a round's end."""
    s = analysis.summary
    target = s.target
    if s.winner is None:
        return (f"The record stops before anyone wins (target {target}): "
                "the match is unfinished.")
    for k, (pos, _) in enumerate(seen):
        if not pos.match_over:
            continue
        seat = pos.players.index(s.winner)
        total = s.scores[s.winner]
        if not pos.round_over:
            return (f"{s.winner} reached {pos.scores[seat]} (target {target}) with "
                    f"{moments[k]}; the match ends there, with no settlement.")
        settled = pos.settlement is not None and any(pos.settlement)
        before = pos.scores[seat] - (pos.settlement[seat] if pos.settlement else 0)
        if settled and (target is None or before < target):
            return (f"{s.winner} won at the end of round {pos.round}: its settlement took "
                    f"them to {total} (target {target}).")
        if settled:
            return (f"{s.winner} reached the target in round {pos.round}; the round was "
                    f"played out, and after its settlement {s.winner} had the highest "
                    f"total, {total} (target {target}).")
        return (f"{s.winner} reached {total} (target {target}) with the round's last "
                f"play, {moments[k]}; no settlement follows.")
    return f"{s.winner} won (target {target})."


def build_page(match: Match, number: int, analysis: MatchAnalysis,
               seen: Sequence[tuple[Position, BodyLine | None]], *,
               notes: Sequence[str] = ()) -> Page:
    """The page of one replayed and analysed match. ``seen`` are the
    replay's positions (:func:`muggins_cli.replay.position.positions`)."""
    s = analysis.summary
    names = tuple(s.players)
    seat = {n: i for i, n in enumerate(names)}
    calls = _calls(match, seat)
    turn_comments, round_comments, match_comments = _comments(match)
    plays = {p.line: p for p in analysis.plays}
    weighed: dict[int, Weighed] = (analysis.weighed_by_line() if analysis.weigh is not None
                                   else {})
    final = tuple(s.scores[p] for p in names)

    # What each board shows: the table laid out, the turn that led to it
    # (with the plays the solver weighed there as ghost tiles), and every
    # board of a round in one frame, so that stepping through it (or
    # showing a ghost) does not make the table jump.
    tables = [lay_table(pos.rules, pos.layout) for pos, _ in seen]
    led: list[Turn | None] = [None] * len(seen)
    ghosts: list[tuple[Ghost, ...]] = [()] * len(seen)
    extents: dict[int, Rect] = {}
    for k, (pos, _) in enumerate(seen):
        e = tables[k].extent()
        before = seen[k - 1] if k else None
        if before is not None and before[0].round == pos.round and isinstance(before[1], Turn):
            led[k] = before[1]
            w = weighed.get(before[1].line)
            if w is not None:
                ghosts[k], e = _ghosts(before[0], _played(before[0], pos, before[1], w), w, e)
        extents[pos.round] = union(extents[pos.round], e) if pos.round in extents else e

    boards: list[BoardView] = []
    rounds: list[RoundView] = []
    faces: set[tuple[int, int, bool]] = set()
    ids: list[str] = []
    taken: set[str] = set()  # ids, to ask in one step (a list took the square of the turns)
    moments: list[str] = []
    costly: list[str] = []
    most = 0
    prev: tuple[Position, BodyLine | None] | None = None
    for k, (pos, item) in enumerate(seen):
        first = prev is None or prev[0].round != pos.round
        played = led[k]
        turn_no = prev[0].turn if played is not None and prev is not None else 0
        bid = f"r{pos.round}t{turn_no}"
        if bid in taken:  # a record whose rounds repeat a number: still one id each
            bid = f"{bid}-{k}"
        ids.append(bid)
        taken.add(bid)
        if first:
            leader = names[pos.to_move] if isinstance(item, Turn) else ""
            rounds.append(RoundView(pos.round, bid, leader,
                                    comments=round_comments.get(pos.round, [])))
        rnd = rounds[-1]
        last = new_tile(prev[0], pos) if prev is not None and played is not None else None
        scored = ""
        view: TurnView | None = None
        if played is not None and prev is not None:
            entry = replace(_entry(bid, turn_no, played, seat, calls, plays, weighed,
                                   analysis.weigh),
                            comments=tuple(turn_comments.get(played.line, ())))
            rnd.entries.append(entry)
            scored = f"{played.player}: {entry.text}" + (
                f" (scored {entry.points})" if entry.points else "")
            for c in entry.calls:
                scored += f"; {c.player}: muggins +{c.points}"
            w = weighed.get(played.line)
            if w is not None and analysis.weigh is not None:
                view = _turn_view(prev[0], pos, played, w, analysis.weigh, faces)
                most = max(most, len(view.candidates))
                if entry.verdict in (MISTAKE, BLUNDER):
                    costly.append(bid)
        at_end = item is None or isinstance(item, RoundLine)
        if at_end:
            rnd.end, rnd.settlement = _round_end(seen, k, final)
        heading = (f"Round {pos.round}, the deal" if turn_no == 0 else
                   f"Round {pos.round}, after turn {turn_no}")
        if at_end and rnd.end:
            heading += f": {rnd.end}"
        board = board_svg(pos, last, extent=extents[pos.round], table=tables[k],
                          legend=False, ghosts=ghosts[k])
        faces |= board.faces
        boards.append(BoardView(bid, k, pos.round, turn_no, heading, Markup(board.svg),
                                caption=scored, ends=_ends(pos.rules, pos.layout),
                                weighed=view,
                                seat=seat.get(played.player) if played is not None else None))
        moments.append(f"turn {turn_no} of round {pos.round}" + (
            f" ({played.player}: {_steps(played)})" if played is not None else ""))
        prev = (pos, item)

    linked = tuple(
        replace(b, prev=boards[i - 1].id if i else None,
                next=boards[i + 1].id if i + 1 < len(boards) else None)
        for i, b in enumerate(boards))
    event = match.tag("Event")
    title = event or f"Match {number}"
    date = match.tag("Date")
    site = match.tag("Site")
    sub = [", ".join(names), f"{s.rules} rules", f"target {s.target}"]
    sub += [x for x in (site, date) if x]
    return Page(
        title=title,
        subtitle=" · ".join(sub),
        ending=_ending(analysis, seen, moments),
        notes=(*_notes_of(match), *match_comments, *notes),
        boards=linked,
        rounds=tuple(rounds),
        chart=Markup(chart_svg(names, seen, ids, analysis)),
        defs=Markup(defs_svg(faces)),
        headers=player_headers(analysis.weigh is not None),
        rows=tuple(tuple(str(c) for c in row) for row in player_rows(analysis)),
        weigh=tuple((weigh_line(analysis) or "").splitlines()),
        players=tuple((n, COLOURS[i % len(COLOURS)]) for i, n in enumerate(names)),
        most=most,
        costly=tuple(costly),
        curve=_curve_text(names) if analysis.weigh is not None else "",
    )


def _ends(rules: Rules, layout: Layout) -> str:
    """The open ends as the board's caption says them."""
    ends = ends_text(rules, layout)
    if not ends:
        return ""
    made = layout_score(rules, layout)
    return f"open ends {ends}" + (f", which scores {made}" if made else "")


# -- a weighed turn ----------------------------------------------------------


def _signed_points(x: float) -> str:
    """A value for the mover, signed, with a true minus sign."""
    text = points(abs(x))
    if text in ("0", "0.0"):
        return "0"
    return ("+" if x > 0 else MINUS) + text


def _error(e: float | None) -> str:
    return f" ± {e:.1f}" if e else ""


def _placed(rules: Rules, layout: Layout, move: SolverMove) -> tuple[Layout, int] | None:
    """The layout after a placement and what it scores; None for a draw or
    a pass, or a placement that does not fit (a line the page cannot
    follow is cut there rather than drawn wrong)."""
    if not isinstance(move, Place):
        return None
    if move.end is not None:
        pip = open_ends(rules, layout).get(move.end)
        if pip is None or not move.tile.has(pip):
            return None
    return placed_scored(rules, layout, move)


def _face(text: str) -> tuple[int, int]:
    """A placement's halves in the order its MGN text names them (the half
    that joins first), for drawing the tile the way it is read."""
    a, b = text.rstrip("LRUD").split("-")
    return int(a), int(b)


def _ghosts(before: Position, played: int | None, w: Weighed,
            extent: Rect) -> tuple[tuple[Ghost, ...], Rect]:
    """Each candidate placement where it would lie instead of the play
    made, keyed by its rank (a draw or a pass lays nothing, and the play
    made is on the table already), and ``extent`` grown to hold them."""
    out = []
    for rank, c in enumerate(w.candidates):
        after = _placed(before.rules, before.layout, c.move)
        if after is None or rank == played:
            continue
        assert isinstance(c.move, Place)
        table = lay_table(before.rules, after[0])
        laid = next((t for t in table.tiles if t.tile == c.move.tile), None)
        if laid is not None:
            out.append(Ghost(str(rank), laid))
            extent = union(extent, table.extent())
    return tuple(out), extent


def _line(before: Position, c: Candidate, seat: int,
          faces: set[tuple[int, int, bool]]) -> tuple[tuple[Step, ...], int]:
    """The solver's line after candidate ``c``: its first turns as steps,
    and how many turns more it goes on for. A draw of a tile nobody knows
    yet is ``??``."""
    rules, players = before.rules, before.players
    n = len(players)
    first = _placed(rules, before.layout, c.move)
    layout = first[0] if first is not None else before.layout
    seat = (seat + 1) % n if not isinstance(c.move, Draw | UnseenDraw) else seat
    steps: list[Step] = []
    draws: list[str] = []
    turns = 0
    for m in c.line:
        if isinstance(m, Draw | UnseenDraw):
            draws.append("??" if isinstance(m, UnseenDraw) else str(m.tile))
            continue
        turns += 1
        if turns > LINE_TURNS:
            draws = []
            continue
        if isinstance(m, Pass):
            steps.append(Step(players[seat], seat, tuple(draws), "pass", None, 0))
        else:
            got = _placed(rules, layout, m)
            if got is None:
                break
            text = play_text(rules, layout, m)
            a, b = _face(text)
            faces.add((a, b, False))
            steps.append(Step(players[seat], seat, tuple(draws), text, face_id(a, b, False),
                              got[1]))
            layout = got[0]
        draws = []
        seat = (seat + 1) % n
    if draws and turns < LINE_TURNS:
        steps.append(Step(players[seat], seat, tuple(draws), "", None, 0))
    return tuple(steps), max(0, turns - LINE_TURNS)


def _move_text(rules: Rules, layout: Layout, move: SolverMove,
               written: tuple[int, int] | None = None) -> str:
    """A candidate as the analysis writes it: the tile the record placed in
    the record's order (``written``), any other with its joining half first."""
    if isinstance(move, Place):
        return play_text(rules, layout, move, written)
    return str(move)


def _turn_view(before: Position, after: Position, turn: Turn, w: Weighed,
               options: WeighOptions, faces: set[tuple[int, int, bool]]) -> TurnView:
    """The weighing of the turn played from ``before`` (its draws aside),
    as the board's section shows it."""
    rules, layout = before.rules, before.layout
    seat = w.seat
    others = [p for i, p in enumerate(before.players) if i != seat]
    if len(others) == 1:
        meaning = f"{w.player}'s points minus {others[0]}'s from here to the end of the round"
    else:
        meaning = (f"{w.player}'s points minus the others' average from here to the end "
                   "of the round")
    if options.perfect:
        how = "every hand and the stock seen, exact"
    else:
        how = f"{w.player}'s view, the unseen tiles dealt {w.samples} times"
    luck = None
    if w.luck is not None:
        luck = (f"{_signed_points(w.luck)}{_error(w.luck_error)}: what the draws gave "
                f"{w.player} against the average draw")
    glyph = verdict_glyph(w.verdict)
    mine = _played(before, after, turn, w)
    cands: list[CandidateView] = []
    for rank, c in enumerate(w.candidates):
        text = _move_text(rules, layout, c.move, written_halves(turn))
        got = _placed(rules, layout, c.move)
        played = rank == mine
        line, more = _line(before, c, seat, faces)
        value = _signed_points(c.value)
        spread = (f"{_signed_points(c.value)}{_error(c.value_error)} over {c.deals} deals"
                  if c.deals else "exact")
        deals = c.deals if c.deals < w.samples else 0
        cost = "" if rank == 0 else (MINUS + points(c.cost) + _error(c.error)
                                     if c.cost else "0")
        cands.append(CandidateView(
            str(rank), rank + 1, text, got[1] if got is not None else 0, value, spread, cost,
            deals, played, rank == 0, got is not None and not played, line, more))
    if w.choices == 1:
        verdict, summary = "forced", f"{w.player} had one legal move."
    elif not w.weighed:
        verdict, summary = "unweighed", f"The solver did not weigh this turn: {w.why}."
    elif w.verdict == MISTAKE or w.verdict == BLUNDER:
        verdict = w.verdict
        summary = (f"{verdict.capitalize()}: {w.played} lost "
                   f"{points(w.cost)}{_error(w.error)} points by the end of the round; "
                   f"{w.best} was best.")
    elif not w.cost and w.verdict not in (CLOSE, UNCERTAIN):
        verdict, summary = "best", f"{w.played} was the solver's best play."
    elif not w.cost:
        verdict = w.verdict or UNCERTAIN
        summary = (f"{w.played} led the solver's plays, but another may be better by up to "
                   f"{points(w.cost_high or 0.0)} points: {VERDICT_WORDS[verdict]} "
                   f"({verdict_reason(verdict, options, w.exact)}).")
    else:
        verdict = w.verdict if w.verdict in (CLOSE, UNCERTAIN) else FINE
        summary = (f"{w.played} lost {points(w.cost)}{_error(w.error)} points against "
                   f"{w.best}: {VERDICT_WORDS[verdict]} "
                   f"({verdict_reason(verdict, options, w.exact)}).")
    return TurnView(w.player, seat, w.played, w.choices, verdict, glyph, summary, luck, how,
                    meaning, tuple(cands), w.exact, not options.perfect)


def _played(before: Position, after: Position, turn: Turn, w: Weighed) -> int | None:
    """Which of ``w``'s candidates the record played (its rank), if any: a
    pass for a pass; the tile laid, on the end that gives the table as it
    stands after the turn (a record may leave the end out where only one
    fits), or for the opening tile the tile whichever way round."""
    action = turn.action
    for rank, c in enumerate(w.candidates):
        move = c.move
        if isinstance(action, PassStep):
            if isinstance(move, Pass):
                return rank
            continue
        if not isinstance(move, Place) or move.tile != action.tile.tile:
            continue
        if move.end is None:
            return rank
        got = _placed(before.rules, before.layout, move)
        if got is not None and got[0] == after.layout:
            return rank
    return None


def _notes_of(match: Match) -> tuple[str, ...]:
    return tuple(" ".join(n.text.split()) for n in match.notes)


def _entry(bid: str, turn_no: int, turn: Turn, seat: dict[str, int],
           calls: dict[int, tuple[Call, ...]], plays: dict[int, PlayAnalysis],
           weighed: dict[int, Weighed], options: WeighOptions | None) -> Entry:
    p = plays.get(turn.line)
    w = weighed.get(turn.line)
    missed, best_now, pts = 0, None, None
    if p is not None:
        pts = None if p.played == "pass" else p.points
        missed = p.missed
        b = p.best
        best_now = f"{b.text} scored {b.points}" if missed and b is not None else None
    lost = glyph = verdict = luck = None
    if w is not None and options is not None:
        if w.weighed and w.unforced:
            glyph = verdict_glyph(w.verdict)
            verdict = w.verdict
            if w.cost:
                lost = f"lost {points(w.cost)}{_error(w.error)}"
                if w.verdict in (MISTAKE, BLUNDER):
                    lost += f": {w.best} was better"
                else:
                    lost += f", {VERDICT_WORDS.get(w.verdict or '', '')} ({w.best})"
        if w.luck is not None and abs(w.luck) > 2 * (w.luck_error or 0.0) and w.luck:
            # Only draws that surely gave or took: the panel has the rest.
            luck = f"luck {_signed_points(w.luck)}{_error(w.luck_error)}"
    claim = turn.claim.points if turn.claim is not None else None
    return Entry(bid, turn_no, turn.player, seat.get(turn.player, 0), _steps(turn), pts,
                 claim if claim != pts else None, _notes(turn), calls.get(turn.line, ()),
                 missed, best_now, lost, glyph, verdict=verdict, luck=luck)


def _round_end(seen: Sequence[tuple[Position, BodyLine | None]], k: int,
               final: Sequence[int]) -> tuple[str, list[tuple[str, int, str, int]]]:
    pos = seen[k][0]
    after = after_settlement(seen, k, final)
    if pos.round_over:
        who = went_out(pos)
        how = f"{who} went out" if who is not None else "blocked"
    elif pos.match_over:
        how = "the match ended"
    else:
        how = "the record stops"
    rows: list[tuple[str, int, str, int]] = []
    if after is not None:
        # Applied already (a score line followed the round), or about to be:
        # then it is what the next position adds (nothing, for a match won
        # at a placement).
        deltas = pos.settlement or tuple(a - s for a, s in zip(after, pos.scores))
        for i, name in enumerate(pos.players):
            rows.append((name, i, _signed(deltas[i]), after[i]))
    return how, rows


# -- the chart ---------------------------------------------------------------

_CW, _CH = 1200, 120
_LEFT, _TOP = 44, 14
_VALUE_H = 150


@dataclass(frozen=True)
class _Point:
    """A turn on the value curve: the board it led to, the series it
    belongs to (a seat, or -1 for the two-player curve), its value, the
    error of that value and the turn's verdict."""

    board: int
    series: int
    value: float
    error: float
    verdict: str | None
    round: int


def _curve(names: Sequence[str], seen: Sequence[tuple[Position, BodyLine | None]],
           analysis: MatchAnalysis) -> list[_Point]:
    """Each weighed turn's point: what the mover could expect the round's
    margin to be after their play (the points the round has given so far,
    plus the solver's value of the play made). Two players share one curve,
    the first player's view; three or four get a curve each."""
    by_line = analysis.weighed_by_line()
    out: list[_Point] = []
    start = seen[0][0].scores if seen else ()
    for i in range(1, len(seen)):
        before, item = seen[i - 1]
        if before.round != seen[i][0].round:
            start = seen[i][0].scores
            continue
        w = by_line.get(item.line) if isinstance(item, Turn) else None
        if w is None or not w.weighed or not w.unforced or w.value is None:
            continue
        made = [a - b for a, b in zip(before.scores, start)]
        m = w.seat
        others = [x for s, x in enumerate(made) if s != m]
        value = made[m] - (sum(others) / len(others) if others else 0) + w.value
        rank = _played(before, seen[i][0], item, w) if isinstance(item, Turn) else None
        error = (w.candidates[rank].value_error or 0.0) if rank is not None else 0.0
        if len(names) == 2:
            out.append(_Point(i, -1, value if m == 0 else -value, error, w.verdict,
                              before.round))
        else:
            out.append(_Point(i, m, value, error, w.verdict, before.round))
    return out


def _curve_text(names: Sequence[str]) -> str:
    if len(names) == 2:
        return (f"Under the scores: {names[0]}'s expected margin over {names[1]} at the end "
                "of the round, after each play the solver weighed (points made in the "
                "round and the solver's value of the play); the grey band is one "
                "standard error.")
    return ("Under the scores: each mover's expected margin over the others' average at "
            "the end of the round, after each play the solver weighed (points made in the "
            "round and the solver's value of the play); the grey band is one standard "
            "error.")


def _nice(x: float) -> float:
    """A round number at or below ``x`` for the value axis's ticks."""
    for step in (100, 50, 40, 30, 20, 10, 5, 2, 1):
        if x >= step:
            return float(step)
    return 1.0


def _with_crossings(pts: list[tuple[float, float]], zero: float) -> list[tuple[float, float]]:
    """A polyline with a vertex added wherever it crosses ``zero``, so that
    its parts above and below can be filled apart (no clip paths: the page
    references nothing, not even itself, through ``url()``)."""
    out: list[tuple[float, float]] = []
    for k, (x, y) in enumerate(pts):
        if k:
            px, py = pts[k - 1]
            if (py - zero) * (y - zero) < 0:
                t = (zero - py) / (y - py)
                out.append((px + t * (x - px), zero))
        out.append((x, y))
    return out


def _poly(pts: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def chart_svg(names: Sequence[str], seen: Sequence[tuple[Position, BodyLine | None]],
              ids: Sequence[str], analysis: MatchAnalysis) -> str:
    """Running scores by board (a line per player, the target dashed,
    rounds marked), and with the solver's verdicts a value curve under
    them (:func:`_curve`, with its band of one standard error), the
    mistakes and blunders marked on it in their colours. Each board is a
    link, over both."""
    n = max(1, len(seen))
    target = analysis.summary.target or 0
    top = max([target, *(max(p.scores) for p, _ in seen)], default=1) or 1
    low = min([0, *(min(p.scores) for p, _ in seen)])
    weighing = analysis.weigh is not None
    height = _CH + (_VALUE_H + 16 if weighing else 0) + 30
    step = (_CW - _LEFT - 10) / max(1, n - 1)

    def x(i: int) -> float:
        return _LEFT + i * step

    def y(v: float) -> float:
        return _TOP + (_CH - _TOP) * (top - v) / max(1, top - low)

    label = "running scores and the value of each turn" if weighing else "running scores"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {_CW} '
           f'{height}" role="img" aria-label="{label} by turn">']
    out.append(f'<line class="axis" x1="{_LEFT}" y1="{y(0):.1f}" x2="{_CW - 10}" '
               f'y2="{y(0):.1f}"/>')
    if target:
        out.append(f'<line class="target" x1="{_LEFT}" y1="{y(target):.1f}" x2="{_CW - 10}" '
                   f'y2="{y(target):.1f}"/><text class="tick" x="{_LEFT - 4}" '
                   f'y="{y(target) + 4:.1f}">{target}</text>')
    out.append(f'<text class="tick" x="{_LEFT - 4}" y="{y(0) + 4:.1f}">0</text>')
    for i, (pos, _) in enumerate(seen):
        if i == 0 or seen[i - 1][0].round != pos.round:
            out.append(f'<line class="round" x1="{x(i):.1f}" y1="{_TOP}" x2="{x(i):.1f}" '
                       f'y2="{height - 24}"/><text class="rlabel" x="{x(i) + 3:.1f}" '
                       f'y="{height - 12}">R{pos.round}</text>')
    for s, _name in enumerate(names):
        pts = " ".join(f"{x(i):.1f},{y(p.scores[s]):.1f}" for i, (p, _) in enumerate(seen))
        out.append(f'<polyline class="score" stroke="{COLOURS[s % len(COLOURS)]}" '
                   f'points="{pts}"/>')
    if weighing:
        out.extend(_value_panel(names, seen, ids, analysis, x))
    # Hit areas last, so that they take the clicks: a link per board.
    out.append(f'<line class="now" x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" '
               f'y2="{height - 24}"/>')
    for i, bid in enumerate(ids):
        out.append(f'<a href="#{bid}"><rect class="hit" data-board="{bid}" '
                   f'x="{x(i) - step / 2:.1f}" y="0" width="{max(step, 1):.1f}" '
                   f'height="{height - 20}"/></a>')
    out.append("</svg>")
    return "".join(out)


def _value_panel(names: Sequence[str], seen: Sequence[tuple[Position, BodyLine | None]],
                 ids: Sequence[str], analysis: MatchAnalysis,
                 x: Callable[[int], float]) -> list[str]:
    """The value curve under the scores: a segment per round and series,
    its band, the two sides' areas (two players), the verdicts marked."""
    points_ = _curve(names, seen, analysis)
    top = _CH + 16
    bottom = top + _VALUE_H
    reach = max((abs(p.value) + p.error for p in points_), default=0.0)
    reach = max(reach, 5.0) * 1.08
    zero = (top + bottom) / 2

    def y(v: float) -> float:
        return zero - (bottom - top) / 2 * v / reach

    out = []
    out.append(f'<line class="axis" x1="{_LEFT}" y1="{zero:.1f}" x2="{_CW - 10}" '
               f'y2="{zero:.1f}"/><text class="tick" x="{_LEFT - 4}" y="{zero + 4:.1f}">0</text>')
    tick = _nice(reach * 0.8)
    for v in (tick, -tick):
        out.append(f'<line class="grid" x1="{_LEFT}" y1="{y(v):.1f}" x2="{_CW - 10}" '
                   f'y2="{y(v):.1f}"/><text class="tick" x="{_LEFT - 4}" '
                   f'y="{y(v) + 4:.1f}">{_signed_points(v)}</text>')
    segments: dict[tuple[int, int], list[_Point]] = {}
    for p in points_:
        segments.setdefault((p.round, p.series), []).append(p)
    for (_, series), seg in segments.items():
        line = [(x(p.board), y(p.value)) for p in seg]
        colour = COLOURS[series % len(COLOURS)] if series >= 0 else "#333"
        if len(names) == 2:
            crossed = _with_crossings(line, zero)
            first, last = crossed[0][0], crossed[-1][0]
            for side, keep in ((0, min), (1, max)):
                area = [(px, keep(py, zero)) for px, py in crossed]
                out.append(f'<polygon class="side" fill="{COLOURS[side]}" points="'
                           f'{_poly([(first, zero), *area, (last, zero)])}"/>')
        if any(p.error for p in seg):
            band = ([(x(p.board), y(p.value + p.error)) for p in seg]
                    + [(x(p.board), y(p.value - p.error)) for p in reversed(seg)])
            out.append(f'<polygon class="band" points="{_poly(band)}"/>')
        out.append(f'<polyline class="value" stroke="{colour}" points="{_poly(line)}"/>')
    for p in points_:
        # Every point, for a reader's tooltip and a test's eyes; the
        # verdicts larger and in their colours.
        glyph = verdict_glyph(p.verdict)
        px, py = x(p.board), y(p.value)
        who = f" {names[p.series]}" if p.series >= 0 else ""
        tip = f"{ids[p.board]}{who}: {_signed_points(p.value)}{_error(p.error)}"
        if glyph:
            out.append(f'<circle class="pt verdict {p.verdict}" data-board="{ids[p.board]}" '
                       f'data-v="{p.value:.2f}" cx="{px:.1f}" cy="{py:.1f}" r="4.5">'
                       f"<title>{escape(tip)}, {escape(glyph)} {p.verdict}</title></circle>")
        else:
            out.append(f'<circle class="pt" data-board="{ids[p.board]}" data-v="{p.value:.2f}" '
                       f'cx="{px:.1f}" cy="{py:.1f}" r="1.6"><title>{escape(tip)}</title>'
                       "</circle>")
    return out


# -- the page ------------------------------------------------------------------

_ENV = Environment(loader=PackageLoader("muggins_cli.report", "templates"),
                   autoescape=select_autoescape(default=True, default_for_string=True),
                   trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _asset(name: str) -> Markup:
    """A file of the page (its CSS, its script) as it is: ours, not a
    stranger's, and inlined because the page fetches nothing."""
    text = resources.files("muggins_cli.report").joinpath("templates", name).read_text(
        encoding="utf-8")
    return Markup(text)


def render_page(page: Page) -> str:
    return "".join(page_parts(page))


def page_parts(page: Page) -> Iterator[str]:
    """The page's HTML in the pieces the template makes, for a caller that
    writes them as they come: a long match's page (50 MB for 20,000 turns)
    is then never held whole beside its pieces."""
    return _ENV.get_template("study.html.j2").generate(
        page=page, csp=CSP, css=_asset("study.css"), js=_asset("study.js"))
