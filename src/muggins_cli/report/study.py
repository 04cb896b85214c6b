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
that led to it, written out so that it reads without script (every legal
play, ranked, the one played and the best marked; a radio button per play
draws it as a ghost tile, CSS ``:has``, and shows the solver's line after
it; beside the play made's, how the round went on at the table): the
weighing's data, put in words by :mod:`.study_turn`; the move list is
:mod:`.study_moves`. Under the score chart a value curve gives, turn by
turn, what the mover could expect the round's margin to be after their
play, so that the swings and the costly turns stand out.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from muggins_cli.analysis.match import MatchAnalysis
from muggins_cli.analysis.plays import PlayAnalysis
from muggins_cli.analysis.verdicts import BLUNDER, MISTAKE, WeighOptions
from muggins_cli.analysis.weigh import Weighed
from muggins_cli.engine.layout import Layout, layout_score
from muggins_cli.notation.model import BodyLine, Match, RoundLine, Turn
from muggins_cli.notation.writer import turn_steps
from muggins_cli.replay.position import Position
from muggins_cli.replay.values import Called, RecordComments
from muggins_cli.report.analysis_report import (
    player_headers,
    player_rows,
    weigh_line,
)
from muggins_cli.report.board import ends_text
from muggins_cli.report.chart import chart_svg, curve_text
from muggins_cli.report.study_moves import (
    Call,
    MoveEntry,
    RoundView,
    calls_of,
    match_notes,
    move_entry,
    round_end,
)
from muggins_cli.report.study_turn import (
    LINE_TURNS,
    Step,
    TurnView,
    ghosts,
    turn_view,
)
from muggins_cli.report.svg import (
    Ghost,
    Rect,
    Table,
    board_svg,
    defs_svg,
    lay_table,
    new_tile,
    union,
)
from muggins_cli.rules.model import Rules

COLOURS = ("#1f6fb4", "#2e8b57", "#8e44ad", "#7a5c2e")
"""One per seat, in the chart, the move list and the summary: none of them
red or orange, the colours of a mistake and a blunder."""
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:")
"""Nothing remote, ever: the page opens from disk and fetches nothing."""


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


@dataclass(frozen=True)
class _Sources:
    """What the page looks up by a turn's line or a round's number: the
    seats, the muggins calls and comments the replay gave each turn, the
    analysis of each play and the solver's weighing."""

    names: tuple[str, ...]
    seat: dict[str, int]
    calls: dict[int, tuple[Call, ...]]
    comments: RecordComments
    plays: dict[int, PlayAnalysis]
    weighed: dict[int, Weighed]
    options: WeighOptions | None

    @staticmethod
    def of(analysis: MatchAnalysis, calls: dict[int, tuple[Called, ...]],
           comments: RecordComments) -> _Sources:
        names = tuple(analysis.summary.players)
        seat = {n: i for i, n in enumerate(names)}
        weighed = analysis.weighed_by_line() if analysis.weigh is not None else {}
        return _Sources(names, seat, calls_of(calls), comments,
                        {p.line: p for p in analysis.plays}, weighed, analysis.weigh)


@dataclass(frozen=True)
class _Frames:
    """What each board shows of the table: the layout drawn, the turn that
    led to it (with the plays the solver weighed there as ghost tiles), and
    every board of a round in one frame, so that stepping through it (or
    showing a ghost) does not make the table jump."""

    tables: list[Table]
    led: list[Turn | None]
    ghosts: list[tuple[Ghost, ...]]
    extents: dict[int, Rect]


def _frames(seen: Sequence[tuple[Position, BodyLine | None]],
            weighed: dict[int, Weighed]) -> _Frames:
    tables = [lay_table(pos.rules, pos.layout) for pos, _ in seen]
    led: list[Turn | None] = [None] * len(seen)
    shown: list[tuple[Ghost, ...]] = [()] * len(seen)
    extents: dict[int, Rect] = {}
    for k, (pos, _) in enumerate(seen):
        e = tables[k].extent()
        before = seen[k - 1] if k else None
        if before is not None and before[0].round == pos.round and isinstance(before[1], Turn):
            led[k] = before[1]
            w = weighed.get(before[1].line)
            if w is not None:
                shown[k], e = ghosts(before[0].rules, w, e)
        extents[pos.round] = union(extents[pos.round], e) if pos.round in extents else e
    return _Frames(tables, led, shown, extents)


@dataclass
class _Walk:
    """What walking the positions gathers: the boards, the rounds' move
    lists, each board's id and moment (for the ending's words), the boards
    after a mistake or a blunder, the tile faces drawn and the most
    candidates of a turn."""

    boards: list[BoardView] = field(default_factory=list)
    rounds: list[RoundView] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)  # ids, to ask in one step
    moments: list[str] = field(default_factory=list)
    costly: list[str] = field(default_factory=list)
    faces: set[tuple[int, int, bool]] = field(default_factory=set)
    most: int = 0

    def new_id(self, bid: str, k: int) -> str:
        if bid in self.taken:  # a record whose rounds repeat a number: still one id each
            bid = f"{bid}-{k}"
        self.ids.append(bid)
        self.taken.add(bid)
        return bid

    def turn(self, bid: str, turn_no: int, played: Turn,
             src: _Sources) -> tuple[str, TurnView | None]:
        """The move list's entry for the turn that led to board ``bid``,
        and its weighing's panel; returns the board's caption and the panel."""
        entry = replace(move_entry(bid, turn_no, played, src.seat, src.calls, src.plays,
                                   src.weighed, src.options),
                        comments=src.comments.turns.get(played.line, ()))
        self.rounds[-1].entries.append(entry)
        scored = f"{played.player}: {entry.text}" + (
            f" (scored {entry.points})" if entry.points else "")
        for c in entry.calls:
            scored += f"; {c.player}: muggins +{c.points}"
        w = src.weighed.get(played.line)
        if w is None or src.options is None:
            return scored, None
        view = turn_view(w, src.names, src.options, self.faces)
        self.most = max(self.most, len(view.candidates))
        if entry.verdict in (MISTAKE, BLUNDER):
            self.costly.append(bid)
        return scored, view


def _walk(seen: Sequence[tuple[Position, BodyLine | None]], frames: _Frames, src: _Sources,
          final: Sequence[int]) -> _Walk:
    """Every position as a board, and the move list beside them."""
    out = _Walk()
    prev: tuple[Position, BodyLine | None] | None = None
    for k, (pos, item) in enumerate(seen):
        played = frames.led[k] if prev is not None else None
        turn_no = prev[0].turn if played is not None and prev is not None else 0
        bid = out.new_id(f"r{pos.round}t{turn_no}", k)
        if prev is None or prev[0].round != pos.round:
            leader = src.names[pos.to_move] if isinstance(item, Turn) else ""
            out.rounds.append(RoundView(pos.round, bid, leader,
                                        comments=list(src.comments.rounds.get(pos.round, ()))))
        rnd = out.rounds[-1]
        scored, view = out.turn(bid, turn_no, played, src) if played is not None else ("", None)
        at_end = item is None or isinstance(item, RoundLine)
        if at_end:
            rnd.end, rnd.settlement = round_end(seen, k, final)
        heading = (f"Round {pos.round}, the deal" if turn_no == 0 else
                   f"Round {pos.round}, after turn {turn_no}")
        if at_end and rnd.end:
            heading += f": {rnd.end}"
        last = new_tile(prev[0], pos) if prev is not None and played is not None else None
        board = board_svg(pos, last, extent=frames.extents[pos.round], table=frames.tables[k],
                          legend=False, ghosts=frames.ghosts[k])
        out.faces |= board.faces
        out.boards.append(BoardView(bid, k, pos.round, turn_no, heading, Markup(board.svg),
                                    caption=scored, ends=_ends(pos.rules, pos.layout),
                                    weighed=view,
                                    seat=src.seat.get(played.player) if played else None))
        out.moments.append(f"turn {turn_no} of round {pos.round}" + (
            f" ({played.player}: {turn_steps(played, claim=False)})" if played else ""))
        prev = (pos, item)
    return out


def _real(entries: Sequence[MoveEntry]) -> tuple[tuple[Step, ...], int]:
    """The turns that followed at the table, as the move list writes them."""
    steps = tuple(Step(e.player, e.seat, (), e.text, None, e.points or 0)
                  for e in entries[:LINE_TURNS])
    return steps, max(0, len(entries) - LINE_TURNS)


def _linked(walk: _Walk) -> tuple[BoardView, ...]:
    """The boards linked to their neighbours, and each weighed turn's panel
    given how the round really went on after it."""
    after: dict[str, Sequence[MoveEntry]] = {}
    for r in walk.rounds:
        for i, e in enumerate(r.entries):
            after[e.board] = r.entries[i + 1:]
    boards = walk.boards
    out = []
    for i, b in enumerate(boards):
        view = b.weighed
        if view is not None and view.candidates and after.get(b.id):
            real, more = _real(after[b.id])
            view = replace(view, real=real, real_more=more)
        out.append(replace(b, weighed=view, prev=boards[i - 1].id if i else None,
                           next=boards[i + 1].id if i + 1 < len(boards) else None))
    return tuple(out)


def build_page(match: Match, number: int, analysis: MatchAnalysis,
               seen: Sequence[tuple[Position, BodyLine | None]], *,
               calls: dict[int, tuple[Called, ...]], comments: RecordComments,
               notes: Sequence[str] = ()) -> Page:
    """The page of one replayed and analysed match. ``seen`` are the
    replay's positions (:func:`muggins_cli.replay.position.positions`),
    ``calls`` and ``comments`` what the same replay gave each turn
    (:meth:`~muggins_cli.replay.values.MatchReplay.calls_by_line`, its
    ``comments``)."""
    s = analysis.summary
    src = _Sources.of(analysis, calls, comments)
    names = src.names
    final = tuple(s.scores[p] for p in names)
    walk = _walk(seen, _frames(seen, src.weighed), src, final)
    event = match.tag("Event")
    sub = [", ".join(names), f"{s.rules} rules", f"target {s.target}"]
    sub += [x for x in (match.tag("Site"), match.tag("Date")) if x]
    return Page(
        title=event or f"Match {number}",
        subtitle=" · ".join(sub),
        ending=_ending(analysis, seen, walk.moments),
        notes=(*match_notes(match), *comments.match, *notes),
        boards=_linked(walk),
        rounds=tuple(walk.rounds),
        chart=Markup(chart_svg(names, seen, walk.ids, analysis, COLOURS)),
        defs=Markup(defs_svg(walk.faces)),
        headers=player_headers(analysis.weigh is not None),
        rows=tuple(tuple(str(c) for c in row) for row in player_rows(analysis)),
        weigh=tuple((weigh_line(analysis) or "").splitlines()),
        players=tuple((n, COLOURS[i % len(COLOURS)]) for i, n in enumerate(names)),
        most=walk.most,
        costly=tuple(walk.costly),
        curve=curve_text(names, analysis) if analysis.weigh is not None else "",
    )


def _ends(rules: Rules, layout: Layout) -> str:
    """The open ends as the board's caption says them."""
    ends = ends_text(rules, layout)
    if not ends:
        return ""
    made = layout_score(rules, layout)
    return f"open ends {ends}" + (f", which scores {made}" if made else "")


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
