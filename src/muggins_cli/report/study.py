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
adds the arrow keys and marks the current turn in the list and the chart.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.match import MatchAnalysis
from muggins_cli.analysis.plays import PlayAnalysis
from muggins_cli.analysis.weigh import Weighed, points
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
from muggins_cli.notation.writer import format_line
from muggins_cli.replay.position import Position
from muggins_cli.report.analysis_report import (
    player_headers,
    player_rows,
    weigh_line,
)
from muggins_cli.report.board import after_settlement, went_out
from muggins_cli.report.svg import Rect, board_svg, defs_svg, lay_table, new_tile, union

COLOURS = ("#1f6fb4", "#c0392b", "#2e8b57", "#8e44ad")
"""One per seat, in the chart, the move list and the summary."""
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:")
"""Nothing remote, ever: the page opens from disk and fetches nothing."""


@dataclass(frozen=True)
class Call:
    player: str
    seat: int
    points: int
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """A turn in the move list: as written, with its notes and calls, what
    it scored, and the analysis's verdict on it."""

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
    weighed: dict[int, Weighed] = analysis.weighed_by_line()
    final = tuple(s.scores[p] for p in names)

    # Every board of a round in one frame, so that stepping through it does
    # not make the table jump.
    tables = [lay_table(pos.rules, pos.layout) for pos, _ in seen]
    extents: dict[int, Rect] = {}
    for (pos, _), t in zip(seen, tables):
        e = t.extent()
        extents[pos.round] = union(extents[pos.round], e) if pos.round in extents else e

    boards: list[BoardView] = []
    rounds: list[RoundView] = []
    faces: set[tuple[int, int, bool]] = set()
    ids: list[str] = []
    taken: set[str] = set()  # ids, to ask in one step (a list took the square of the turns)
    moments: list[str] = []
    prev: tuple[Position, BodyLine | None] | None = None
    for k, (pos, item) in enumerate(seen):
        first = prev is None or prev[0].round != pos.round
        played: BodyLine | None = None
        turn_no = 0
        if prev is not None and not first and isinstance(prev[1], Turn):
            played, turn_no = prev[1], prev[0].turn
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
        last = new_tile(prev[0], pos) if prev is not None and not first else None
        scored = None
        if isinstance(played, Turn):
            entry = replace(_entry(bid, turn_no, played, seat, calls, plays, weighed, analysis),
                            comments=tuple(turn_comments.get(played.line, ())))
            rnd.entries.append(entry)
            scored = f"{played.player}: {entry.text}" + (
                f" (scored {entry.points})" if entry.points else "")
            for c in entry.calls:
                scored += f"; {c.player}: muggins +{c.points}"
        at_end = item is None or isinstance(item, RoundLine)
        if at_end:
            rnd.end, rnd.settlement = _round_end(seen, k, final)
        heading = (f"Round {pos.round}, the deal" if turn_no == 0 else
                   f"Round {pos.round}, after turn {turn_no}")
        if at_end and rnd.end:
            heading += f": {rnd.end}"
        board = board_svg(pos, last, extent=extents[pos.round], scored=scored, table=tables[k])
        faces |= board.faces
        boards.append(BoardView(bid, k, pos.round, turn_no, heading, Markup(board.svg)))
        moments.append(f"turn {turn_no} of round {pos.round}" + (
            f" ({played.player}: {_steps(played)})" if isinstance(played, Turn) else ""))
        prev = (pos, item)

    linked = tuple(
        BoardView(b.id, b.index, b.round, b.turn, b.heading, b.svg,
                  boards[i - 1].id if i else None,
                  boards[i + 1].id if i + 1 < len(boards) else None)
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
    )


def _notes_of(match: Match) -> tuple[str, ...]:
    return tuple(" ".join(n.text.split()) for n in match.notes)


def _entry(bid: str, turn_no: int, turn: Turn, seat: dict[str, int],
           calls: dict[int, tuple[Call, ...]], plays: dict[int, PlayAnalysis],
           weighed: dict[int, Weighed], analysis: MatchAnalysis) -> Entry:
    p = plays.get(turn.line)
    w = weighed.get(turn.line)
    missed, best_now, pts = 0, None, None
    if p is not None:
        pts = None if p.played == "pass" else p.points
        missed = p.missed
        b = p.best
        best_now = f"{b.text} scored {b.points}" if missed and b is not None else None
    lost = glyph = None
    if w is not None and analysis.weigh is not None and w.weighed and w.unforced:
        glyph = verdict_glyph(w.verdict)
        if w.cost:
            err = f" ± {w.error:.1f}" if w.error else ""
            lost = f"lost {points(w.cost)}{err}: {w.best} was better"
    claim = turn.claim.points if turn.claim is not None else None
    return Entry(bid, turn_no, turn.player, seat.get(turn.player, 0), _steps(turn), pts,
                 claim if claim != pts else None, _notes(turn), calls.get(turn.line, ()),
                 missed, best_now, lost, glyph)


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

_CW, _CH, _BARS = 1200, 160, 60
_LEFT, _TOP = 40, 14


def chart_svg(names: Sequence[str], seen: Sequence[tuple[Position, BodyLine | None]],
              ids: Sequence[str], analysis: MatchAnalysis) -> str:
    """Running scores by board (a line per player, the target dashed,
    rounds marked), and with the solver's verdicts the points each play
    lost as bars under it, with their glyphs. Each board is a link."""
    n = max(1, len(seen))
    target = analysis.summary.target or 0
    top = max([target, *(max(p.scores) for p, _ in seen)], default=1) or 1
    low = min([0, *(min(p.scores) for p, _ in seen)])
    weighing = analysis.weigh is not None
    height = _CH + (_BARS + 16 if weighing else 0) + 30
    step = (_CW - _LEFT - 10) / max(1, n - 1)

    def x(i: int) -> float:
        return _LEFT + i * step

    def y(v: float) -> float:
        return _TOP + (_CH - _TOP) * (top - v) / max(1, top - low)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {_CW} '
           f'{height}" role="img" aria-label="running scores by turn">']
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
    if weighing and analysis.weigh is not None:
        base = _CH + 16 + _BARS
        worst = max((w.cost for w in analysis.weighed), default=0.0) or 1.0
        out.append(f'<text class="tick" x="{_LEFT - 4}" y="{_CH + 26}">lost</text>')
        by_line = analysis.weighed_by_line()
        for i in range(1, len(seen)):
            item = seen[i - 1][1]  # the turn that led to board i
            if not isinstance(item, Turn) or seen[i - 1][0].round != seen[i][0].round:
                continue
            w = by_line.get(item.line)
            if w is None or not w.cost:
                continue
            h = _BARS * w.cost / worst
            seat = names.index(w.player) if w.player in names else 0
            bar = min(12.0, max(2.0, 2 * step / 3))
            out.append(f'<rect class="lost" fill="{COLOURS[seat % len(COLOURS)]}" '
                       f'x="{x(i) - bar / 2:.1f}" y="{base - h:.1f}" '
                       f'width="{bar:.1f}" height="{h:.1f}"/>')
            glyph = verdict_glyph(w.verdict)
            if glyph:
                out.append(f'<text class="glyph" x="{x(i):.1f}" y="{base - h - 3:.1f}">'
                           f"{escape(glyph)}</text>")
    # Hit areas last, so that they take the clicks: a link per board.
    out.append(f'<line class="now" x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" '
               f'y2="{height - 24}"/>')
    for i, bid in enumerate(ids):
        out.append(f'<a href="#{bid}"><rect class="hit" data-board="{bid}" '
                   f'x="{x(i) - step / 2:.1f}" y="0" width="{max(step, 1):.1f}" '
                   f'height="{height - 20}"/></a>')
    out.append("</svg>")
    return "".join(out)


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
