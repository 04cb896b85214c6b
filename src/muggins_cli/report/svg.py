"""The table drawn as SVG: tiles with pips, laid the way players lay them.

A tile is two squares of ``S`` user units side by side; a double stands
across its line; the spinner takes an arm on each of its four sides. An arm
runs straight until it would leave the table's frame, then turns a corner
(clockwise first, the way a table of players keeps a long line on the
table): the corner tile lies across the old direction, its inner half
against the last tile's outer half, and the arm goes on from its far half.
A tile that would overlap another tries the other way round instead.

Every face is drawn once, in ``<defs>``, and each tile on the table, in a
hand or in the stock is a ``<use>`` of it: a page holds hundreds of boards,
and this keeps a 250-point match to a few hundred kilobytes. A study page
puts the definitions in the page once (:func:`defs_svg`) and leaves them
out of each board; ``muggins replay --svg`` keeps them in its one drawing.

Names are a stranger's text and are escaped; nothing else here comes from
the record but numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from muggins_cli.engine.layout import Layout, layout_score, open_ends
from muggins_cli.replay.position import Position
from muggins_cli.report.board import ends_text
from muggins_cli.report.escape import for_xml
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End, Pip, Tile

S = 20
"""The short side of a tile (one half is an S by S square)."""
L = 2 * S
GAP = 2
"""Between two tiles that touch on the table, so that each stays visible."""
PAD = 18
"""Around the table: room for the open-end labels."""

Vec = tuple[int, int]
LEFT: Vec = (-1, 0)
RIGHT: Vec = (1, 0)
UP: Vec = (0, -1)
DOWN: Vec = (0, 1)
_CLOCKWISE = {RIGHT: DOWN, DOWN: LEFT, LEFT: UP, UP: RIGHT}
_ANTI = {v: k for k, v in _CLOCKWISE.items()}


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def overlaps(self, o: Rect) -> bool:
        return (self.x < o.x + o.w and o.x < self.x + self.w
                and self.y < o.y + o.h and o.y < self.y + self.h)


@dataclass(frozen=True, slots=True)
class Laid:
    """A tile on the table: ``a`` is the half on the left (or on top when
    ``upright``), drawn in ``rect``."""

    tile: Tile
    a: Pip
    b: Pip
    upright: bool
    rect: Rect


@dataclass(frozen=True, slots=True)
class OpenEnd:
    end: End
    pip: Pip
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Table:
    tiles: tuple[Laid, ...]
    ends: tuple[OpenEnd, ...]

    def extent(self) -> Rect:
        """The table with its labels, or an empty table's small frame."""
        if not self.tiles:
            return Rect(-L, -L, 2 * L, 2 * L)
        xs = [t.rect.x for t in self.tiles] + [e.x - PAD for e in self.ends]
        ys = [t.rect.y for t in self.tiles] + [e.y - PAD for e in self.ends]
        xe = [t.rect.x + t.rect.w for t in self.tiles] + [e.x + PAD for e in self.ends]
        ye = [t.rect.y + t.rect.h for t in self.tiles] + [e.y + PAD for e in self.ends]
        x, y = min(xs) - PAD, min(ys) - PAD
        return Rect(x, y, max(xe) + PAD - x, max(ye) + PAD - y)


def frame_for(rules: Rules) -> Rect:
    """Where the arms try to stay: wider than high, like a table, and
    larger for a double-nine or double-twelve set. No wider than a page's
    column can show with tiles big enough to count their pips: a
    double-six table, its corners and labels, stays under 600 units."""
    tiles = (rules.max_pip + 1) * (rules.max_pip + 2) // 2
    half_w = L * (3 + tiles // 8)
    half_h = half_w * 5 // 9
    return Rect(-half_w, -half_h, 2 * half_w, 2 * half_h)


def _upright(frame: Rect) -> Rect:
    """The frame a spinner's up and down arms keep to: as tall as the
    line's frame is wide, so that they run as far straight as the line
    does before a corner (within the line's short frame they turned after
    two tiles, and a tile played at the top of one, or its ghost, lay
    sideways, off the arm's centre)."""
    half = max(frame.w, frame.h) / 2
    return Rect(frame.x, -half, frame.w, 2 * half)


def _size(double: bool, d: Vec) -> tuple[int, int]:
    """Length along the direction of play, and width across it."""
    return (S, L) if double else (L, S)


def _rect_at(cx: float, cy: float, d: Vec, along: int, across: int) -> Rect:
    w, h = (along, across) if d[1] == 0 else (across, along)
    return Rect(cx - w / 2, cy - h / 2, w, h)


def _oriented(tile: Tile, inner: Pip, outer: Pip, d: Vec, double: bool) -> Laid:
    """``upright`` and which half is first (left or top), for a tile whose
    ``inner`` half faces back along ``d``; the rectangle is filled in later."""
    upright = (d[1] != 0) != double
    first_inner = d in (RIGHT, DOWN)
    a, b = (inner, outer) if first_inner else (outer, inner)
    return Laid(tile, a, b, upright, Rect(0, 0, 0, 0))


class _Walker:
    """Lays the arms one tile at a time, remembering every rectangle."""

    def __init__(self, frame: Rect) -> None:
        self.frame = frame
        self.taken: list[Rect] = []

    def free(self, r: Rect, d: Vec | None) -> bool:
        """``r`` overlaps no tile laid, and (going ``d``) stays on the
        frame's side it is heading for: an arm that has rounded a corner
        outside the frame goes on along the edge."""
        f = self.frame
        if (d == LEFT and r.x < f.x) or (d == RIGHT and r.x + r.w > f.x + f.w):
            return False
        if (d == UP and r.y < f.y) or (d == DOWN and r.y + r.h > f.y + f.h):
            return False
        return not any(r.overlaps(o) for o in self.taken)

    def arm(self, tiles: Sequence[tuple[Pip, Pip]], head: tuple[float, float], d: Vec,
            out: list[Laid]) -> tuple[tuple[float, float], Vec]:
        """Lay ``tiles`` from ``head`` going ``d``; return the new head."""
        hx, hy = head
        for inner, outer in tiles:
            double = inner == outer
            tile = Tile.of(inner, outer)
            along, across = _size(double, d)
            cx, cy = hx + d[0] * (GAP + along / 2), hy + d[1] * (GAP + along / 2)
            straight = (_rect_at(cx, cy, d, along, across),
                        (hx + d[0] * (GAP + along), hy + d[1] * (GAP + along)), d)
            # Straight on while the frame allows; at its edge, round the
            # corner even if the corner tile itself pokes out a little.
            chosen = straight if self.free(straight[0], d) else None
            if chosen is None:
                tries = [straight]
                if not double:
                    for turn in (_CLOCKWISE[d], _ANTI[d]):
                        # The corner tile: across the old direction, its inner
                        # half in the old row, against the last tile's end.
                        mx, my = hx + d[0] * (GAP + S / 2), hy + d[1] * (GAP + S / 2)
                        tx, ty = mx + turn[0] * S / 2, my + turn[1] * S / 2
                        tries.append((_rect_at(tx, ty, turn, L, S),
                                      (tx + turn[0] * S, ty + turn[1] * S), turn))
                chosen = next((t for t in tries[1:] if self.free(t[0], t[2])), None)
                if chosen is None:
                    chosen = next((t for t in (*tries[1:], straight) if self.free(t[0], None)),
                                  straight)
            rect, (hx, hy), went = chosen
            laid = _oriented(tile, inner, outer, went, double)
            d = went
            self.taken.append(rect)
            out.append(Laid(laid.tile, laid.a, laid.b, laid.upright, rect))
        return (hx, hy), d


def lay_table(rules: Rules, layout: Layout, frame: Rect | None = None) -> Table:
    """Where every tile of ``layout`` lies, and where each open end is."""
    if layout.root is None:
        return Table((), ())
    walker = _Walker(frame if frame is not None else frame_for(rules))
    root = layout.root
    out: list[Laid] = []
    if root.is_double:
        rect = Rect(-S / 2, -L / 2, S, L)
        out.append(Laid(root, root.lo, root.hi, True, rect))
        half = S / 2
    else:
        rect = Rect(-L / 2, -S / 2, L, S)
        out.append(Laid(root, layout.left, layout.right, False, rect))
        half = L / 2
    walker.taken.append(rect)
    arms = layout.arms
    starts: list[tuple[End, tuple[float, float], Vec]] = [
        (End.L, (-half, 0.0), LEFT), (End.R, (half, 0.0), RIGHT)]
    if layout.spinner:
        starts += [(End.U, (0.0, -L / 2), UP), (End.D, (0.0, L / 2), DOWN)]
    heads: dict[End, tuple[tuple[float, float], Vec]] = {}
    index = {End.L: 0, End.R: 1, End.U: 2, End.D: 3}
    # The line first, then the spinner's up and down arms: the line is what
    # the players laid first and it keeps the straight run.
    line = walker.frame
    for end, head, d in starts:
        walker.frame = _upright(line) if d in (UP, DOWN) else line
        heads[end] = walker.arm(arms[index[end]].tiles, head, d, out)
    walker.frame = line
    ends = []
    for end, pip in open_ends(rules, layout).items():
        (hx, hy), d = heads[end]
        ends.append(OpenEnd(end, pip, hx + d[0] * (PAD - 4), hy + d[1] * (PAD - 4)))
    return Table(tuple(out), tuple(ends))


# -- faces ------------------------------------------------------------------

_G3 = (0.25, 0.5, 0.75)
_PIPS9: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: tuple((x, y) for x in (0.25, 0.75) for y in _G3),
    7: (*((x, y) for x in (0.25, 0.75) for y in _G3), (0.5, 0.5)),
    8: tuple((x, y) for x in _G3 for y in _G3 if (x, y) != (0.5, 0.5)),
    9: tuple((x, y) for x in _G3 for y in _G3),
}
_G4 = (0.2, 0.4, 0.6, 0.8)


def pip_spots(n: Pip) -> tuple[tuple[float, float], ...]:
    """Where the pips of a half showing ``n`` sit, in a unit square: the
    usual patterns up to 9, three columns of four rows for 10 to 12."""
    if n <= 9:
        return _PIPS9[n]
    sides = tuple((x, y) for x in (0.25, 0.75) for y in _G4)
    middle = {10: (0.35, 0.65), 11: (0.2, 0.5, 0.8), 12: _G4}[min(n, 12)]
    return (*sides, *((0.5, y) for y in middle))


def face_id(a: Pip, b: Pip, upright: bool) -> str:
    return f"{'v' if upright else 'h'}{a}-{b}"


def _face(a: Pip, b: Pip, upright: bool) -> str:
    w, h = (S, L) if upright else (L, S)
    r = 2.0 if max(a, b) <= 9 else 1.6
    parts = [f'<g id="{face_id(a, b, upright)}" class="face">',
             f'<rect class="body" width="{w}" height="{h}" rx="3"/>']
    if upright:
        parts.append(f'<line class="mid" x1="3" y1="{S}" x2="{S - 3}" y2="{S}"/>')
    else:
        parts.append(f'<line class="mid" x1="{S}" y1="3" x2="{S}" y2="{S - 3}"/>')
    for k, n in enumerate((a, b)):
        ox, oy = (0, k * S) if upright else (k * S, 0)
        for x, y in pip_spots(n):
            parts.append(f'<circle cx="{ox + x * S:g}" cy="{oy + y * S:g}" r="{r:g}"/>')
    parts.append("</g>")
    return "".join(parts)


_BACK = (f'<g id="back" class="face"><rect class="back" width="{S}" height="{L}" rx="3"/>'
         '</g>')

STYLE = (
    ".face .body{fill:#fffdf6;stroke:#3a3a3a;stroke-width:1}"
    ".face .mid{stroke:#3a3a3a;stroke-width:1}"
    ".face circle{fill:#1d1d1d}"
    ".face .back{fill:#2f5d50;stroke:#1d3b33;stroke-width:1}"
    ".last{fill:none;stroke:#e8a000;stroke-width:3}"
    ".end circle{fill:#fff;stroke:#8a6d3b}"
    ".end text{font:bold 11px sans-serif;fill:#5a4320;text-anchor:middle}"
    ".lbl{font:12px sans-serif;fill:#222}"
    ".lbl.mover{font-weight:bold}"
    ".felt{fill:#e9f1ea;stroke:#c9d9cc}"
)
"""The drawing's own look: a standalone SVG carries it; a page carries it once."""


def defs_svg(faces: Iterable[tuple[Pip, Pip, bool]]) -> str:
    """``<defs>`` with each face asked for, the back of a tile, and the style."""
    body = "".join(_face(a, b, u) for a, b, u in sorted(set(faces)))
    return f"<defs><style>{STYLE}</style>{body}{_BACK}</defs>"


# -- a board ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """One position drawn: the SVG markup (without the faces' definitions)
    and the faces it uses."""

    svg: str
    faces: frozenset[tuple[Pip, Pip, bool]]


HAND_GAP = 3
_HAND_TOP = 18
"""From a hand's label down to its tiles."""


@dataclass(frozen=True, slots=True)
class Ghost:
    """A tile that could have been laid instead of the one that was: drawn
    faintly where it would lie, hidden until a page asks for it by ``key``."""

    key: str
    laid: Laid


def _num(x: float) -> str:
    return f"{x:g}"


def _use(face: str, x: float, y: float, cls: str = "tile", extra: str = "") -> str:
    return f'<use class="{cls}" href="#{face}" x="{_num(x)}" y="{_num(y)}"{extra}/>'


def _ring(cls: str, r: Rect) -> str:
    return (f'<rect class="{cls}" x="{_num(r.x - 2)}" y="{_num(r.y - 2)}" '
            f'width="{_num(r.w + 4)}" height="{_num(r.h + 4)}" rx="4"/>')


def board_svg(pos: Position, last: Tile | None = None, *, extent: Rect | None = None,
              caption: str | None = None, scored: str | None = None,
              table: Table | None = None, legend: bool = True,
              ghosts: Sequence[Ghost] = ()) -> Board:
    """The table at ``pos``: the layout (``last`` outlined: the tile just
    played), each open end's value, the total and what it scores, then each
    hand (face down where the record hides it) with the player's score, and
    the stock face down. ``extent`` is the part of the plane the table takes
    (one for every board of a round, so that its boards do not jump);
    ``caption`` and ``scored`` are lines of text above the table, with the
    open ends' (left out without ``legend``: a page that says them in its
    own text); ``table`` is the layout already laid out (:func:`lay_table`),
    when the caller has it; ``ghosts`` the plays a page may show instead of
    ``last`` (hidden: class ``ghost``, ``data-c`` their key)."""
    rules = pos.rules
    if table is None:
        table = lay_table(rules, pos.layout)
    extent = table.extent() if extent is None else union(extent, table.extent())
    faces: set[tuple[Pip, Pip, bool]] = set()
    parts: list[str] = []
    lines = _legend_lines(pos, caption, scored) if legend else []
    for k, text in enumerate(lines):
        parts.append(f'<text class="lbl" x="8" y="{16 + 16 * k}">{for_xml(text)}</text>')
    top: float = 8 + 16 * len(lines) if legend else 2
    width = max(extent.w, 400)
    felt = extent.h if table.tiles or ghosts else min(extent.h, _EMPTY_FELT)
    parts.append(f'<rect class="felt" x="0" y="{_num(top)}" width="{_num(width)}" '
                 f'height="{_num(felt)}" rx="8"/>')
    dx = -extent.x + (width - extent.w) / 2
    parts.extend(_laid(table, last, ghosts, dx, top - extent.y, faces))
    y = _hands(pos, top + felt + 10, width, parts, faces)
    height = _stock(pos.stock_count, y, width, parts)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="table-svg" '
            f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" '
            f'height="{_num(height)}">')
    return Board(head + "".join(parts) + "</svg>", frozenset(faces))


_EMPTY_FELT = 2 * L
"""The felt of a table nothing is laid on yet (a deal): a strip, not the
round's whole field left empty."""


def _legend_lines(pos: Position, caption: str | None, scored: str | None) -> list[str]:
    """The lines of text over a standalone board: what was played, what it
    scored, and the open ends with their total."""
    lines = [t for t in (caption, scored) if t]
    ends = ends_text(pos.rules, pos.layout)
    if ends:
        made = layout_score(pos.rules, pos.layout)
        lines.append(f"open ends {ends}" + (f", which scores {made}" if made else ""))
    return lines


def _laid(table: Table, last: Tile | None, ghosts: Sequence[Ghost], dx: float, dy: float,
          faces: set[tuple[Pip, Pip, bool]]) -> list[str]:
    """The tiles on the table, the last one outlined, the open ends' pips
    and the ghosts, moved by ``dx``, ``dy`` onto the felt."""
    parts = [f'<g class="table" transform="translate({_num(dx)} {_num(dy)})">']
    for t in table.tiles:
        faces.add((t.a, t.b, t.upright))
        mark = ' data-last="1"' if t.tile == last else ""
        parts.append(_use(face_id(t.a, t.b, t.upright), t.rect.x, t.rect.y, extra=mark))
    parts.extend(_ring("last", t.rect) for t in table.tiles if last is not None and t.tile == last)
    for e in table.ends:
        parts.append(f'<g class="end" data-end="{e.end.value}"><circle cx="{_num(e.x)}" '
                     f'cy="{_num(e.y)}" r="9"/><text x="{_num(e.x)}" '
                     f'y="{_num(e.y + 4)}">{e.pip}</text></g>')
    for g in ghosts:
        t = g.laid
        faces.add((t.a, t.b, t.upright))
        parts.append(f'<g class="ghost" data-c="{for_xml(g.key)}">'
                     + _use(face_id(t.a, t.b, t.upright), t.rect.x, t.rect.y, "ghost-tile")
                     + _ring("ghost-ring", t.rect) + "</g>")
    parts.append("</g>")
    return parts


def _hands(pos: Position, y: float, width: float, parts: list[str],
           faces: set[tuple[Pip, Pip, bool]]) -> float:
    """Each hand from ``y`` down, two to a row (a long hand wraps within its
    half), with its player's name and score; returns where they end."""
    col_w = width / 2
    per_row = max(1, int((col_w - 16) // (S + HAND_GAP)))
    held: list[list[Tile | None]] = [
        [*sorted(hand)] if hand is not None else [None] * pos.hand_sizes[i]
        for i, hand in enumerate(pos.hands)]
    seats = len(pos.players)
    for pair in range(0, seats, 2):
        rows = max(max(1, -(-len(held[i]) // per_row)) for i in range(pair, min(pair + 2, seats)))
        for i in range(pair, min(pair + 2, seats)):
            x = (i % 2) * col_w + 8
            mover = i == pos.to_move and not pos.round_over
            label = f"{'▶ ' if mover else ''}{pos.players[i]}  {pos.scores[i]}"
            cls = "lbl mover" if mover else "lbl"
            parts.append(f'<text class="{cls}" x="{_num(x)}" y="{_num(y + 12)}">'
                         f"{for_xml(label)}</text>")
            parts.append(f'<g class="hand" data-seat="{i}">')
            for k, tile in enumerate(held[i]):
                tx = x + (k % per_row) * (S + HAND_GAP)
                ty = y + _HAND_TOP + (k // per_row) * (L + HAND_GAP)
                if tile is None:
                    parts.append(_use("back", tx, ty, "back"))
                else:
                    faces.add((tile.hi, tile.lo, True))
                    parts.append(_use(face_id(tile.hi, tile.lo, True), tx, ty))
            parts.append("</g>")
        y += _HAND_TOP + rows * (L + HAND_GAP) + 8
    return y


def _stock(count: int, y: float, width: float, parts: list[str]) -> float:
    """The stock face down from ``y``; returns the drawing's height."""
    parts.append(f'<text class="lbl" x="8" y="{_num(y + 12)}">stock {count}</text>')
    parts.append('<g class="stock">')
    per_row = max(1, int((width - 80) // (S + HAND_GAP)))
    for k in range(count):
        tx = 72 + (k % per_row) * (S + HAND_GAP)
        parts.append(_use("back", tx, y + (k // per_row) * (L + HAND_GAP), "back"))
    parts.append("</g>")
    rows = max(1, -(-count // per_row))
    return y + rows * (L + HAND_GAP) + 6


def union(a: Rect, b: Rect) -> Rect:
    x, y = min(a.x, b.x), min(a.y, b.y)
    return Rect(x, y, max(a.x + a.w, b.x + b.w) - x, max(a.y + a.h, b.y + b.h) - y)


def standalone(board: Board) -> str:
    """One board as a file of its own: the faces' definitions put inside."""
    head, rest = board.svg.split(">", 1)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{head}>{defs_svg(board.faces)}{rest}\n'


def new_tile(before: Position, after: Position) -> Tile | None:
    """The tile laid between two positions of a round (the one to outline)."""
    new = set(after.layout.tiles()) - set(before.layout.tiles())
    return next(iter(new)) if len(new) == 1 else None
