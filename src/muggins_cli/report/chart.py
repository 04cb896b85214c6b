"""The study page's chart: the running scores by board and, with the
solver's verdicts, the value curve under them.

The lines are one inline SVG whose every board is a link, so that the chart
is a way through the match as well as a picture of it. It is stretched to
its column's width and drawn at a fixed height in pixels
(``preserveAspectRatio="none"``, strokes that do not scale, each dot the
unscaled stroke of a tiny circle, so round at any width): its words
(ticks, rounds, the legend, whose mistake a mark is) are HTML laid over
it, so that they keep the body's size at any width, where text inside a
scaled SVG shrank to 3 px on a phone. The page gives the seats' colours
(it colours the move list and the summary alike).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import escape

from muggins_cli.analysis.annotate import verdict_glyph
from muggins_cli.analysis.match import MatchAnalysis
from muggins_cli.analysis.verdicts import measured
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


_W = 1000
"""The chart's width in user units: a thousandth of its column each."""
_CH, _TOP = 120, 10
_VALUE_H = 150
_GAP = 18
_FOOT = 22
"""Under the curves: the rounds' names."""
_EDGE = 8
"""Room at either end for a mark's dot."""


@dataclass(frozen=True)
class _Point:
    """A turn on the value curve: the board it led to, the mover's seat
    (whose curve it is on), their margin, its error, the turn's verdict."""

    board: int
    series: int
    value: float
    error: float
    verdict: str | None
    round: int


def _curve(seen: Sequence[tuple[Position, BodyLine | None]],
           analysis: MatchAnalysis) -> list[_Point]:
    """Each weighed turn's point, on its mover's curve: what the mover could
    expect their margin over the others (their average, with three or four)
    to be at the end of the round after their play: the points the round
    has given so far, plus the solver's value of the play made. Every count
    of players is drawn the same way, a curve a player."""
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
        out.append(_Point(i, m, value, w.value_error or 0.0, w.verdict, before.round))
    return out


def curve_text(names: Sequence[str], analysis: MatchAnalysis) -> str:
    """What the value curve shows, in words; the band only where it is drawn."""
    over = f"over {names[1]}'s" if len(names) == 2 else "over the others' average"
    band = (" The shaded band around a curve is one standard error." if _banded(analysis)
            else " Every value is exact (all hands seen): no band.")
    return (f"Under the scores, a line a player: after each of their plays the solver "
            f"weighed, the margin they could expect at the end of the round ({over} for "
            f"{names[0]}, and so on: the round's points so far and the solver's value of "
            f"the play). A mark on a curve is that player's mistake or blunder.{band}")


def _banded(analysis: MatchAnalysis) -> bool:
    """Whether any value on the curve has an error (a band to draw)."""
    return any(w.value_error for w in analysis.weighed_by_line().values()
               if w.weighed and w.unforced and w.value is not None)


def short_names(names: Sequence[str]) -> list[str]:
    """Each name's shortest beginning that no other name shares: the chart's
    marks say whose mistake they are in a letter or two."""
    out = []
    for name in names:
        k = 1
        while k < len(name) and any(o != name and o.startswith(name[:k]) for o in names):
            k += 1
        out.append(name[:k])
    return out


def _nice(x: float) -> float:
    """A round number at or below ``x`` for the value axis's ticks."""
    for step in (100, 50, 40, 30, 20, 10, 5, 2, 1):
        if x >= step:
            return float(step)
    return 1.0


def _poly(pts: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _label(cls: str, text: str, top: float, left: float | None = None,
           extra: str = "") -> str:
    """A word over the chart, in HTML: at ``top`` pixels (user units down
    the chart are pixels) and ``left`` a share of its width, or in the
    gutter at its left when None."""
    where = f"top:{top:.0f}px" + (f";left:{left / _W * 100:.2f}%" if left is not None else "")
    return f'<span class="{cls}" style="{where}"{extra}>{escape(text)}</span>'


def chart_svg(names: Sequence[str], seen: Sequence[tuple[Position, BodyLine | None]],
              ids: Sequence[str], analysis: MatchAnalysis, colours: Sequence[str]) -> str:
    """Running scores by board (a line per player, the target dashed,
    rounds marked), and with the solver's verdicts a value curve under
    them (:func:`_curve`), the mistakes and blunders marked on it. Each
    board is a link, over both. The legend, the ticks and the marks' words
    are HTML over the drawing."""
    n = max(1, len(seen))
    weighing = analysis.weigh is not None
    height = _CH + (_GAP + _VALUE_H if weighing else 0) + _FOOT
    step = (_W - 2 * _EDGE) / max(1, n - 1)

    def x(i: int) -> float:
        return _EDGE + i * step

    label = "running scores and the value of each turn" if weighing else "running scores"
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {_W} '
           f'{height}" preserveAspectRatio="none" style="height:{height}px" role="img" '
           f'aria-label="{label} by turn">']
    words: list[str] = []
    _scores(seen, analysis.summary.target or 0, colours, x, height, svg, words)
    marks: list[str] = []
    if weighing:
        _value_panel(names, seen, ids, analysis, colours, x, svg, words, marks)
    # Hit areas last, so that they take the clicks: a link per board.
    svg.append(f'<line class="now" x1="{_EDGE}" y1="{_TOP}" x2="{_EDGE}" '
               f'y2="{height - _FOOT}"/>')
    for i, bid in enumerate(ids):
        svg.append(f'<a href="#{bid}"><rect class="hit" data-board="{bid}" '
                   f'x="{x(i) - step / 2:.1f}" y="0" width="{max(step, 1):.1f}" '
                   f'height="{height - _FOOT}"/></a>')
    svg.append("</svg>")
    return (_legend(names, analysis, marks) + '<div class="chart-box"><div class="plot">'
            + "".join(svg) + "".join(words) + "".join(marks) + "</div></div>")


def _legend(names: Sequence[str], analysis: MatchAnalysis, marks: Sequence[str]) -> str:
    short = short_names(names)
    items = [f'<li class="p{s}"><span class="swatch"></span>{escape(name)}'
             + (f' <b class="short">{escape(short[s])}</b>' if marks else "") + "</li>"
             for s, name in enumerate(names)]
    if analysis.weigh is not None:
        items.append('<li class="mark mistake"><span class="dot"></span>mistake ?</li>')
        items.append('<li class="mark blunder"><span class="dot"></span>blunder ??</li>')
        if _banded(analysis):
            items.append('<li class="mark band"><span class="swatch"></span>'
                         "\u00b1 one standard error</li>")
    return '<ul class="legend">' + "".join(items) + "</ul>"


def _scores(seen: Sequence[tuple[Position, BodyLine | None]], target: int,
            colours: Sequence[str], x: Callable[[int], float], height: float,
            svg: list[str], words: list[str]) -> None:
    """The running scores: a line a player, the target dashed, the rounds."""
    top = max([target, *(max(p.scores) for p, _ in seen)], default=1) or 1
    low = min([0, *(min(p.scores) for p, _ in seen)])

    def y(v: float) -> float:
        return _TOP + (_CH - _TOP) * (top - v) / max(1, top - low)

    svg.append(f'<line class="axis" x1="0" y1="{y(0):.1f}" x2="{_W}" y2="{y(0):.1f}"/>')
    words.append(_label("tick", "0", y(0) - 8))
    if target:
        svg.append(f'<line class="target" x1="0" y1="{y(target):.1f}" x2="{_W}" '
                   f'y2="{y(target):.1f}"/>')
        words.append(_label("tick", str(target), y(target) - 8))
    for i, (pos, _) in enumerate(seen):
        if i == 0 or seen[i - 1][0].round != pos.round:
            svg.append(f'<line class="round" x1="{x(i):.1f}" y1="{_TOP}" x2="{x(i):.1f}" '
                       f'y2="{height - _FOOT}"/>')
            words.append(_label("rlabel", f"R{pos.round}", height - _FOOT + 3, x(i)))
    for s in range(len(seen[0][0].scores) if seen else 0):
        pts = " ".join(f"{x(i):.1f},{y(p.scores[s]):.1f}" for i, (p, _) in enumerate(seen))
        svg.append(f'<polyline class="score" stroke="{colours[s % len(colours)]}" '
                   f'points="{pts}"/>')


def _value_panel(names: Sequence[str], seen: Sequence[tuple[Position, BodyLine | None]],
                 ids: Sequence[str], analysis: MatchAnalysis, colours: Sequence[str],
                 x: Callable[[int], float], svg: list[str], words: list[str],
                 marks: list[str]) -> None:
    """The value curve under the scores: a line a player and round in their
    colour, its band, every point, the verdicts marked with whose they are."""
    points_ = _curve(seen, analysis)
    short = short_names(names)
    top = _CH + _GAP
    bottom = top + _VALUE_H
    reach = max((abs(p.value) + p.error for p in points_), default=0.0)
    reach = max(reach, 5.0) * 1.08
    zero = (top + bottom) / 2

    def y(v: float) -> float:
        return zero - (bottom - top) / 2 * v / reach

    svg.append(f'<line class="axis" x1="0" y1="{zero:.1f}" x2="{_W}" y2="{zero:.1f}"/>')
    words.append(_label("tick", "0", zero - 8))
    tick = _nice(reach * 0.8)
    for v in (tick, -tick):
        svg.append(f'<line class="grid" x1="0" y1="{y(v):.1f}" x2="{_W}" y2="{y(v):.1f}"/>')
        words.append(_label("tick", _said(v), y(v) - 8))
    segments: dict[tuple[int, int], list[_Point]] = {}
    for p in points_:
        segments.setdefault((p.round, p.series), []).append(p)
    for (_, series), seg in segments.items():
        colour = colours[series % len(colours)]
        if any(p.error for p in seg):
            band = ([(x(p.board), y(p.value + p.error)) for p in seg]
                    + [(x(p.board), y(p.value - p.error)) for p in reversed(seg)])
            svg.append(f'<polygon class="band" fill="{colour}" points="{_poly(band)}"/>')
        line = [(x(p.board), y(p.value)) for p in seg]
        svg.append(f'<polyline class="value" stroke="{colour}" points="{_poly(line)}"/>')
    for p in points_:
        # Every point, for a reader's tooltip and a test's eyes; the
        # verdicts larger, in their colours, with whose they are.
        glyph = verdict_glyph(p.verdict)
        px, py = x(p.board), y(p.value)
        colour = colours[p.series % len(colours)]
        tip = f"{ids[p.board]} {names[p.series]}: {_said(p.value, p.error)}"
        if glyph:
            svg.append(f'<circle class="pt verdict {p.verdict} p{p.series}" '
                       f'data-board="{ids[p.board]}" data-v="{p.value:.2f}" cx="{px:.1f}" '
                       f'cy="{py:.1f}" r="0.5" stroke="{colour}">'
                       f"<title>{escape(tip)}, {escape(glyph)} {p.verdict}</title></circle>")
            marks.append(_label(f"mk {p.verdict} p{p.series}", f"{short[p.series]}{glyph}",
                                py - 20 if p.value >= 0 else py + 5, px,
                                f' data-board="{ids[p.board]}" data-seat="{p.series}"'))
        else:
            svg.append(f'<circle class="pt" data-board="{ids[p.board]}" '
                       f'data-v="{p.value:.2f}" cx="{px:.1f}" cy="{py:.1f}" r="0.5" '
                       f'stroke="{colour}"><title>{escape(tip)}</title></circle>')
