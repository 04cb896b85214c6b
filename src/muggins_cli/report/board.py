"""The table drawn in the terminal: the layout, a position, a tally sheet.

Plain ASCII, no colour, so that the output reads the same in a terminal, a
pipe, a log or a test. A tile along the line is ``[3|5]``; a double laid
across the line stands upright, its halves one above the other, ``.5.``
``|-|`` ``'5'``; a tile of the spinner's up and down arms stands along its
arm, in square brackets as the line's tiles are, so that it is not read as
a crosswise double (and a double across an up or down arm lies, ``[3|3]``)::

           U
          [3]
          [-]
          [5]
          .5.
    L [1|5] |-| [5|4] R
          '5'
           D

A score sheet uses the traditional tally (the pagat text): a stroke for
every 5 points, and for every 50 the X figure, a big X with a small x in
each of the four spaces around it, drawn on three rows::

           x
    Ana   xXx  ||||   70
           x
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muggins_cli.engine.layout import Layout, count, open_ends
from muggins_cli.engine.scoring import EndReason
from muggins_cli.notation.model import BodyLine
from muggins_cli.replay.position import Position
from muggins_cli.replay.values import won_text
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End, Pip, Tile

# -- drawing on a grid of characters --------------------------------------


class _Canvas:
    """Characters at (row, column); rows and columns may be negative."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}

    def put(self, row: int, col: int, s: str) -> None:
        for i, ch in enumerate(s):
            self.cells[(row, col + i)] = ch

    def lines(self) -> list[str]:
        if not self.cells:
            return []
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        left = min(cols)
        out = []
        for r in range(min(rows), max(rows) + 1):
            width = max(cols) - left + 1
            chars = [self.cells.get((r, left + i), " ") for i in range(width)]
            out.append("".join(chars).rstrip())
        return out


@dataclass(frozen=True, slots=True)
class _Block:
    """A tile of the line: lying (one row) or upright (three rows)."""

    top: str
    mid: str
    bottom: str

    @property
    def width(self) -> int:
        return len(self.mid)


def lying(a: Pip, b: Pip) -> str:
    """A tile along the line, ``a`` on the left: ``[a|b]``."""
    return f"[{a}|{b}]"


def upright(top: Pip, bottom: Pip) -> tuple[str, str, str]:
    """A double standing across the line, ``top`` half above: three rows."""
    w = max(len(str(top)), len(str(bottom)))
    return f".{top:^{w}}.", "|" + "-" * w + "|", f"'{bottom:^{w}}'"


def standing(top: Pip, bottom: Pip) -> tuple[str, str, str]:
    """A tile standing along an up or down arm, ``top`` half above: three
    rows in square brackets, as a tile along the line is drawn."""
    w = max(len(str(top)), len(str(bottom)))
    return f"[{top:^{w}}]", "[" + "-" * w + "]", f"[{bottom:^{w}}]"


def _line_block(a: Pip, b: Pip) -> _Block:
    if a == b:
        return _Block(*upright(a, b))
    s = lying(a, b)
    return _Block(" " * len(s), s, " " * len(s))


def draw_layout(rules: Rules, layout: Layout) -> list[str]:
    """The layout as lines of text: the line through the root from left to
    right with an ``L`` and an ``R`` at its ends, and on a spinner its up and
    down arms drawn upright above and below it, marked ``U`` and ``D``."""
    if layout.root is None:
        return ["(the table is empty)"]
    arms = layout.arms
    blocks: list[_Block] = [_line_block(outer, inner)
                            for inner, outer in reversed(arms[0].tiles)]
    root_at = len(blocks)
    blocks.append(_line_block(layout.left, layout.right))
    blocks.extend(_line_block(inner, outer) for inner, outer in arms[1].tiles)

    canvas = _Canvas()
    canvas.put(0, -2, "L")
    col = 0
    root_col = 0
    for i, block in enumerate(blocks):
        if i == root_at:
            root_col = col
        if block.top.strip():
            canvas.put(-1, col, block.top)
            canvas.put(1, col, block.bottom)
        canvas.put(0, col, block.mid)
        col += block.width + 1
    canvas.put(0, col, "R")

    if layout.spinner:
        ends = open_ends(rules, layout)
        centre = root_col + blocks[root_at].width // 2
        _draw_upright_arm(canvas, arms[2].tiles, centre, -2, -1, "U" if End.U in ends else "")
        _draw_upright_arm(canvas, arms[3].tiles, centre, 2, 1, "D" if End.D in ends else "")
    return canvas.lines()


def _draw_upright_arm(canvas: _Canvas, tiles: Sequence[tuple[Pip, Pip]], centre: int,
                      row: int, step: int, label: str) -> None:
    """An arm going up (``step`` -1) or down (+1) from the spinner's column:
    its tiles standing along it, a double lying across it."""
    for inner, outer in tiles:
        if inner == outer:
            s = lying(inner, outer)
            canvas.put(row, centre - len(s) // 2, s)
            row += step
            continue
        top, mid, bottom = standing(outer, inner) if step < 0 else standing(inner, outer)
        first = row if step > 0 else row - 2
        for k, s in enumerate((top, mid, bottom)):
            canvas.put(first + k, centre - len(s) // 2, s)
        row += 3 * step
    if label:
        canvas.put(row, centre, label)


# -- a position ----------------------------------------------------------


def tiles_text(tiles: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


def scores_text(players: Sequence[str], scores: Sequence[int]) -> str:
    return ", ".join(f"{p} {s}" for p, s in zip(players, scores))


def went_out(pos: Position) -> str | None:
    for name, size in zip(pos.players, pos.hand_sizes):
        if size == 0:
            return name
    return None


def position_title(pos: Position) -> str:
    parts: list[str] = []
    if pos.round_over:
        who = went_out(pos)
        how = f"{who} went out" if who is not None else "blocked"
        parts.append(f"end of round {pos.round}: {how}")
    if pos.winner is not None:
        won = won_text(pos.players, pos.target, pos.winner, pos.ending)
        by_target = pos.ending is None or pos.ending.reason is not EndReason.ROUND_END
        parts.append(f"match over: {won}" + (" and won" if by_target else ""))
    if not parts:
        parts.append(f"{pos.players[pos.to_move]} to move")
    return f"== {pos.round}.{pos.turn}  {'; '.join(parts)} =="


def after_settlement(seen: Sequence[tuple[Position, BodyLine | None]], i: int,
                     final: Sequence[int]) -> Sequence[int] | None:
    """The totals after a round's settlement: the next round's first
    position shows them (nothing else scores between), or at the very end
    the replayed final totals. None when neither is known."""
    pos = seen[i][0]
    if i + 1 == len(seen):
        return final
    nxt = seen[i + 1][0]
    if nxt.round == pos.round + 1 and nxt.turn == 1:
        return nxt.scores
    return None


def ends_text(rules: Rules, layout: Layout) -> str:
    """Each open end and its pip, then the total a placement is scored on
    (which is not always their sum: a spinner's sides, a double at an end);
    empty before the opening tile."""
    ends = open_ends(rules, layout)
    if not ends:
        return ""
    shown = ", ".join(f"{e.value} {pip}" for e, pip in ends.items())
    return f"{shown}; total {count(rules, layout)}"


def position_lines(pos: Position, after_round: Sequence[int] | None = None) -> list[str]:
    """A position: the layout, its open ends and their total, each hand (or
    how many hidden tiles), the stock and the scores. ``after_round`` are
    the totals once the round-end settlement is applied, when they differ."""
    rules = pos.rules
    out = [position_title(pos)]
    out.extend("  " + line for line in draw_layout(rules, pos.layout))
    ends = ends_text(rules, pos.layout)
    if ends:
        out.append(f"  open ends   {ends}")
    width = max(len(p) for p in pos.players)
    for i, (name, hand) in enumerate(zip(pos.players, pos.hands)):
        label = "hands" if i == 0 else ""
        mover = ">" if i == pos.to_move and not (pos.round_over or pos.match_over) else " "
        if hand is None:
            n = pos.hand_sizes[i]
            held = f"{n} hidden tile{'' if n == 1 else 's'}"
        else:
            held = tiles_text(sorted(hand)) or "(no tiles)"
        out.append(f"  {label:<10}{mover} {name:<{width}}  {held}".rstrip())
    out.append(f"  stock       {pos.stock_count}")
    out.append(f"  scores      {scores_text(pos.players, pos.scores)} (target {pos.target})")
    if after_round is not None and tuple(after_round) != tuple(pos.scores):
        out.append(f"  after the round  {scores_text(pos.players, after_round)}")
    return out


# -- the tally -------------------------------------------------------------

FIGURE = (" x ", "xXx", " x ")
"""Fifty points: a big X with a small x in each of the four spaces around it."""


def tally_marks(points: int) -> tuple[str, str, str]:
    """Three rows of marks for a score: an X figure per 50, a stroke per 5
    (grouped by five), and what is left below 5 as ``+N``. A score below
    zero has no marks."""
    if points <= 0:
        return "", "", ""
    fifties, rest = divmod(points, 50)
    strokes, left = divmod(rest, 5)
    rows = ["  ".join(FIGURE[r] for _ in range(fifties)) for r in range(3)]
    tail = "|" * min(strokes, 5) + (" " + "|" * (strokes - 5) if strokes > 5 else "")
    if left:
        tail = (tail + " " if tail else "") + f"+{left}"
    if tail:
        gap = "  " if fifties else ""
        rows = [rows[0], rows[1] + gap + tail, rows[2]]
    return rows[0], rows[1], rows[2]


def round_totals(seen: Sequence[tuple[Position, BodyLine | None]],
                 final: Sequence[int]) -> list[tuple[int, Sequence[int]]]:
    """Each round and the totals at its end, its settlement included (the
    last round's: the match's final totals), from a replay's positions."""
    out: dict[int, Sequence[int]] = {}
    for i, (pos, _) in enumerate(seen):
        after = after_settlement(seen, i, final) if pos.round_over else None
        out[pos.round] = after if after is not None else pos.scores
    if out:
        out[max(out)] = final
    return sorted(out.items())


def round_sheet(players: Sequence[str], rounds: Sequence[tuple[int, Sequence[int]]]
                ) -> list[str]:
    """The score sheet a club keeps: a row per round, each player's points
    from that round (signed) and their total after it."""
    before = [0] * len(players)
    cells: list[list[tuple[str, str]]] = []
    for _, totals in rounds:
        cells.append([(f"{t - b:+d}", str(t)) for t, b in zip(totals, before)])
        before = list(totals)
    gain_w = max((len(g) for row in cells for g, _ in row), default=1)
    total_w = max((len(t) for row in cells for _, t in row), default=1)
    cell_w = [max(len(p), gain_w + 2 + total_w) for p in players]
    round_w = max(len("round"), *(len(str(r)) for r, _ in rounds)) if rounds else len("round")
    out = ["round by round (the points each round gave, then the total after it)",
           "  " + "round".ljust(round_w) + "".join(f"  {p:>{w}}" for p, w in
                                                   zip(players, cell_w))]
    for (r, _), row in zip(rounds, cells):
        out.append("  " + str(r).rjust(round_w) + "".join(
            f"  {f'{g:>{gain_w}}  {t:>{total_w}}':>{w}}" for (g, t), w in zip(row, cell_w)))
    return out


def tally_sheet(players: Sequence[str], scores: Sequence[int]) -> list[str]:
    """The score sheet: each player's marks, and the raw score beside them."""
    name_w = max(len(p) for p in players)
    marks = [tally_marks(s) for s in scores]
    mark_w = max((len(m[1]) for m in marks), default=0)
    score_w = max(len(str(s)) for s in scores)
    out = ["score sheet (a stroke is 5 points, the X figure 50)"]
    for name, (top, mid, bottom), score in zip(players, marks, scores):
        pad = " " * (name_w + 2)
        if top.strip():
            out.append(f"  {pad}{top}".rstrip())
        out.append(f"  {name:<{name_w}}  {mid:<{mark_w}}  {score:>{score_w}}")
        if bottom.strip():
            out.append(f"  {pad}{bottom}".rstrip())
    return out
