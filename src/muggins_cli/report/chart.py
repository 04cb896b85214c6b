"""The study page's chart: the running scores by board and, with the
solver's verdicts, the value curve under them.

Drawn as one inline SVG whose every board is a link, so that the chart is
a way through the match as well as a picture of it. The page gives the
seats' colours (it colours the move list and the summary the same way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import escape

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.match import MatchAnalysis
from muggins_cli.analysis.weigh import measured
from muggins_cli.notation.model import BodyLine, Turn
from muggins_cli.replay.position import Position

MINUS = "\u2212"


def _said(x: float, error: float | None = None) -> str:
    """A value on the chart, signed with a true minus, with its standard
    error when it has one."""
    if round(x, 1) == 0:
        x = 0.0
    text = measured(x, error or None, not error, signed=True).replace("-", MINUS)
    return text[1:] if text.startswith("+0 ") or text == "+0" else text


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
        error = w.value_error or 0.0
        if len(names) == 2:
            out.append(_Point(i, -1, value if m == 0 else -value, error, w.verdict,
                              before.round))
        else:
            out.append(_Point(i, m, value, error, w.verdict, before.round))
    return out


def curve_text(names: Sequence[str]) -> str:
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
              ids: Sequence[str], analysis: MatchAnalysis, colours: Sequence[str]) -> str:
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
        out.append(f'<polyline class="score" stroke="{colours[s % len(colours)]}" '
                   f'points="{pts}"/>')
    if weighing:
        out.extend(_value_panel(names, seen, ids, analysis, colours, x))
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
                 ids: Sequence[str], analysis: MatchAnalysis, colours: Sequence[str],
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
                   f'y="{y(v) + 4:.1f}">{_said(v)}</text>')
    segments: dict[tuple[int, int], list[_Point]] = {}
    for p in points_:
        segments.setdefault((p.round, p.series), []).append(p)
    for (_, series), seg in segments.items():
        line = [(x(p.board), y(p.value)) for p in seg]
        colour = colours[series % len(colours)] if series >= 0 else "#333"
        if len(names) == 2:
            crossed = _with_crossings(line, zero)
            first, last = crossed[0][0], crossed[-1][0]
            for side, keep in ((0, min), (1, max)):
                area = [(px, keep(py, zero)) for px, py in crossed]
                out.append(f'<polygon class="side" fill="{colours[side]}" points="'
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
        tip = f"{ids[p.board]}{who}: {_said(p.value, p.error)}"
        if glyph:
            out.append(f'<circle class="pt verdict {p.verdict}" data-board="{ids[p.board]}" '
                       f'data-v="{p.value:.2f}" cx="{px:.1f}" cy="{py:.1f}" r="4.5">'
                       f"<title>{escape(tip)}, {escape(glyph)} {p.verdict}</title></circle>")
        else:
            out.append(f'<circle class="pt" data-board="{ids[p.board]}" data-v="{p.value:.2f}" '
                       f'cx="{px:.1f}" cy="{py:.1f}" r="1.6"><title>{escape(tip)}</title>'
                       "</circle>")
    return out
