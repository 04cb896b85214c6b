"""``muggins study --solver``: each weighed turn's section lists its legal
plays as the solver valued them, draws each as a ghost tile where it would
lie, shows the solver's line after it; the value curve under the scores;
losses within their error left neutral; the luck of the draws with its
error. Checked against the engine, ``muggins solve`` and ``muggins
analyze``, never against the page's own code."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.engine.state import Place, legal_moves
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.position import Decision
from muggins_cli.replay.replay import decisions, position_at
from muggins_cli.report.svg import GAP
from muggins_cli.tiles import End, Tile

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS
from .test_study_page import Page

runner = CliRunner()
SVG = "http://www.w3.org/2000/svg"


def _run(*args: str) -> str:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("short") / "short.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def perfect(record: str) -> str:
    return _run("study", record, "--solver", "--mode", "perfect", "--jobs", "1", "-q")


@pytest.fixture(scope="module")
def sample(record: str) -> str:
    return _run("study", record, "--solver", "--max-samples", "8", "--jobs", "1", "-q")


@pytest.fixture(scope="module")
def plays(record: str) -> Callable[[bool], list[dict[str, Any]]]:
    """``analyze``'s turns, all-seeing or sampled as the pages above."""
    @cache
    def get(perfect: bool) -> list[dict[str, Any]]:
        view = ["--mode", "perfect"] if perfect else ["--max-samples", "8"]
        out = _run("analyze", record, "--solver", *view, "-f", "json", "--jobs", "1", "-q")
        got: list[dict[str, Any]] = json.loads(out)["files"][0]["matches"][0]["plays"]
        return got
    return get


@pytest.fixture(scope="module")
def solved(record: str) -> Callable[[str], dict[str, Any]]:
    """``muggins solve --at R.T --mode perfect --json``, once a position."""
    @cache
    def get(at: str) -> dict[str, Any]:
        got: dict[str, Any] = json.loads(_run("solve", record, "--at", at, "--mode",
                                              "perfect", "--json"))
        return got
    return get


def _decisions(record: str) -> Iterator[Decision]:
    return decisions(read_match(record, 1), record_resolver(record))


def _section(html: str, bid: str) -> str:
    return html.split(f'<section class="board" id="{bid}"', 1)[1].split("</section>", 1)[0]


def _move(text: str) -> tuple[Tile, End | None]:
    """An MGN placement (either half first, end letter or none)."""
    m = re.fullmatch(r"(\d+)-(\d+)([LRUD]?)", text.split()[0])
    assert m is not None, text
    return Tile.of(int(m.group(1)), int(m.group(2))), End(m.group(3)) if m.group(3) else None


def _number(text: str) -> float:
    return float(text.replace("\u2212", "-").split("±")[0])


def _rows(section: str) -> list[dict[str, Any]]:
    out = []
    for cls, body in re.findall(r'<tr class="cand([^"]*)">(.*?)</tr>', section, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)
        out.append({
            "key": re.search(r'value="(\d+)"', body).group(1),  # type: ignore[union-attr]
            "play": re.search(r'<span class="mgn">([^<]*)', body).group(1),  # type: ignore[union-attr]
            "value": _number(re.sub(r"<[^>]*>.*", "", cells[3])),
            "cost": cells[4],
            "best": "best" in cls.split(), "played": "played" in cls.split(),
        })
    return out


def _as_move(m: Any) -> tuple[Tile, End | None]:
    assert isinstance(m, Place)
    return m.tile, m.end


def test_each_weighed_turn_lists_its_legal_plays_in_its_own_section(
        record: str, perfect: str, solved: Callable[[str], dict[str, Any]]) -> None:
    """The rows are the engine's legal moves at the decision, valued as
    ``muggins solve`` values them, ranked, the best first and marked, the
    play the record made marked; a turn with one legal move has no table."""
    tables = 0
    for d in _decisions(record):
        at = d.at
        section = _section(perfect, f"r{at.round}t{at.turn}")
        legal = legal_moves(at.rules, at.state())
        if len(legal) == 1:
            assert 'class="cands"' not in section
            continue
        rows = _rows(section)
        assert sorted(_move(r["play"]) for r in rows) == sorted(_as_move(m) for m in legal)
        assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
        assert [r["best"] for r in rows] == [True] + [False] * (len(rows) - 1)
        played = [_move(r["play"]) for r in rows if r["played"]]
        assert played == [_as_move(d.move)]
        for r in rows[1:]:
            assert _number(r["cost"]) == r["value"] - rows[0]["value"]
        if not d.turn.draws:  # solve --at R.T is the position before the draws
            want = {_move(m["move"]): m["value"] for m in solved(f"{at.round}.{at.turn}")["moves"]}
            assert {_move(r["play"]): r["value"] for r in rows} == want
        tables += 1
    assert tables >= 8


def _faces(root: ET.Element) -> dict[str, tuple[float, float, int, int]]:
    """Each face's size and the dots in its first and second half."""
    out = {}
    for g in root.iterfind(".//g[@class='face']"):
        rect = g.find("rect")
        assert rect is not None
        w, h = float(rect.get("width", 0)), float(rect.get("height", 0))
        dots = [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in g.iterfind("circle")]
        first = sum(1 for cx, cy in dots if (cy if h > w else cx) < min(w, h))
        out[g.get("id", "")] = (w, h, first, len(dots) - first)
    return out


def _svg(html: str, start: str) -> ET.Element:
    """The first SVG drawing from ``start`` on, read without its namespace
    (the page's inline drawings do not all declare it)."""
    body = html.split(start, 1)[1].split("</svg>", 1)[0]
    return ET.fromstring("<svg" + body.replace(f' xmlns="{SVG}"', "") + "</svg>")


def test_every_other_play_is_a_ghost_tile_where_it_would_lie(perfect: str) -> None:
    """Each candidate placement other than the play made is drawn, hidden,
    with its own tile's dots, against a tile of the table and overlapping
    none but the one just played (which it would have replaced)."""
    faces = _faces(_svg(perfect, '<svg class="defs"'))
    ghosts = 0
    for bid in re.findall(r'<section class="board" id="([^"]+)"', perfect):
        section = _section(perfect, bid)
        if 'class="ghost"' not in section:
            continue
        table = _svg(section, "<svg").find(".//g[@class='table']")
        assert table is not None
        rects = []
        last = None
        for use in table.iterfind("use[@class='tile']"):
            w, h, _, _ = faces[use.get("href", "")[1:]]
            r = (float(use.get("x", 0)), float(use.get("y", 0)), w, h)
            rects.append(r)
            if use.get("data-last"):
                last = r
        rows = {r["key"]: r for r in _rows(section)}
        for g in table.iterfind("g[@class='ghost']"):
            row = rows[g.get("data-c", "")]
            assert not row["played"]
            use = g.find("use")
            assert use is not None
            w, h, a, b = faces[use.get("href", "")[1:]]
            assert Tile.of(a, b) == _move(row["play"])[0]
            x, y = float(use.get("x", 0)), float(use.get("y", 0))
            others = [r for r in rects if r != last]
            assert not any(x < ox + ow and ox < x + w and y < oy + oh and oy < y + h
                           for ox, oy, ow, oh in others)
            assert any(max(ox - (x + w), x - (ox + ow), oy - (y + h), y - (oy + oh))
                       <= GAP + 0.01 for ox, oy, ow, oh in others) or not others, bid
            ghosts += 1
    assert ghosts >= 8


def _line(section: str, key: str) -> list[tuple[str, list[Tile], tuple[Tile, End | None]]]:
    part = section.split(f'<div class="line" data-c="{key}">', 1)[1].split("</div>", 1)[0]
    out = []
    for li in re.findall(r'<li class="p\d">(.*?)</li>', part, re.S):
        who = re.search(r'<span class="who">([^<]*)', li).group(1)  # type: ignore[union-attr]
        draws = [Tile.parse(t) for t in re.findall(r'<span class="draw">d([^<]*)', li)]
        play = re.search(r'<span class="mgn">([^<]*)', li).group(1)  # type: ignore[union-attr]
        out.append((who, draws, _move(play)))
    return out


def test_the_line_after_each_play_is_the_solvers(
        record: str, perfect: str, solved: Callable[[str], dict[str, Any]]) -> None:
    """All-seeing, each candidate's section shows the first turns of the
    principal variation ``muggins solve`` prints after that play."""
    lines = 0
    for d in _decisions(record):
        at = d.at
        if d.turn.draws:
            continue
        section = _section(perfect, f"r{at.round}t{at.turn}")
        for row in _rows(section):
            pv = next(m["pv"] for m in solved(f"{at.round}.{at.turn}")["moves"]
                      if _move(m["move"]) == _move(row["play"]))
            want = []
            for text in pv[1:7]:
                who, steps = text.split(": ", 1)
                tokens = steps.split()
                draws = [Tile.parse(t[1:]) for t in tokens if t.startswith("d")]
                plays = [t for t in tokens if not t.startswith(("d", "+"))]
                want.append((who, draws, _move(plays[0])))
            if len(pv) == 1:
                assert f'<div class="line" data-c="{row["key"]}">' not in section
                continue
            assert _line(section, row["key"]) == want
            lines += 1
    assert lines >= 10


def _line_heads(page: str) -> list[str]:
    return re.findall(r'<div class="line" data-c="[^"]+">\s*<span class="lhead">([^<]*)</span>',
                      page)


def test_a_line_from_one_sampled_deal_says_so(perfect: str, sample: str) -> None:
    """In the mover's view the solver's line is played in one deal of the
    unseen tiles (as ``muggins solve`` says of its variation), not what
    happened; all-seeing, it is played in the recorded deal and says
    nothing of the kind."""
    sampled, seen = _line_heads(sample), _line_heads(perfect)
    assert len(sampled) >= 10 and len(seen) >= 10
    assert all("in one sampled deal" in h for h in sampled), sampled[:3]
    assert not any("sampled" in h for h in seen), seen[:3]


def test_the_value_curve_is_the_rounds_margin_after_each_play(
        record: str, perfect: str, solved: Callable[[str], dict[str, Any]],
        plays: Callable[[bool], list[dict[str, Any]]]) -> None:
    """A point per weighed turn, on its mover's curve: the mover's points
    less the other's in the round so far, plus the value ``muggins solve``
    gives the play made; the mistakes and blunders in their colours, on
    the curve of the player who made them, as ``analyze`` judges them."""
    match = read_match(record, 1)
    resolve = record_resolver(record)
    start = position_at(match, resolve, "1.1").scores
    points = {b: float(v) for b, v in re.findall(
        r'<circle class="pt[^"]*" data-board="([^"]+)" data-v="([^"]+)"', perfect)}
    checked = 0
    for d in _decisions(record):
        at = d.at
        bid = f"r{at.round}t{at.turn}"
        if d.turn.draws:
            continue
        moves = solved(f"{at.round}.{at.turn}")["moves"]
        if len(moves) == 1:
            assert bid not in points
            continue
        value = next(m["value"] for m in moves if _move(m["move"]) == _as_move(d.move))
        before = position_at(match, resolve, f"{at.round}.{at.turn}").scores
        m, o = at.to_move, 1 - at.to_move
        made = (before[m] - start[m]) - (before[o] - start[o])
        assert points[bid] == pytest.approx(made + value)
        checked += 1
    assert checked >= 6
    marked = re.findall(r'<circle class="pt verdict (\w+) p(\d)" data-board="r1t(\d+)"', perfect)
    seats = {"Siti Rahma": "0"}
    judged = [(p["solver"]["verdict"], seats.get(p["player"], "1"), str(p["turn"]))
              for p in plays(True)]
    assert sorted(marked) == sorted(v for v in judged if v[0] in ("mistake", "blunder"))


def _entries(html: str) -> dict[int, str]:
    moves = html.split('<aside class="moves"', 1)[1].split("</aside>", 1)[0]
    out = {}
    for item in moves.split("<li ")[1:]:
        m = re.search(r'href="#r1t(\d+)"', item)
        assert m is not None
        out[int(m.group(1))] = item
    return out


@pytest.mark.parametrize("view", ["perfect", "sample"])
def test_only_a_verdict_is_coloured(view: str, request: pytest.FixtureRequest,
                                    plays: Callable[[bool], list[dict[str, Any]]]) -> None:
    """A mistake or a blunder is marked (its class, its glyph); any other
    loss is said in neutral words, the verdict's: 'not a mistake', 'close
    to the mistake line' or 'uncertain'."""
    html: str = request.getfixturevalue(view)
    entries = _entries(html)
    seen = set()
    for p in plays(view == "perfect"):
        item = entries[p["turn"]]
        verdict = p["solver"]["verdict"]
        lost = re.search(r'<div class="lost([^"]*)">([^<]*)</div>', item)
        if verdict in ("mistake", "blunder"):
            assert item.startswith(f'class="p{0 if p["player"] == "Siti Rahma" else 1} '
                                   f'{verdict}"')
            assert f'<span class="glyph">{p["solver"]["glyph"]}</span>' in item
            assert lost is not None and lost.group(1) == f" {verdict}"
        else:
            assert 'class="glyph"' not in item and re.match(r'class="p\d"', item)
            if p["solver"]["lost"]:
                assert lost is not None and lost.group(1) == ""
                want = {"fine": "not a mistake", "close": "close to the mistake line",
                        "uncertain": "uncertain"}[verdict]
                assert want in lost.group(2)
        seen.add(verdict)
    assert seen >= ({"blunder", "mistake"} if view == "perfect" else {"uncertain"})


def test_luck_is_shown_with_its_error(sample: str,
                                      plays: Callable[[bool], list[dict[str, Any]]]) -> None:
    """Every turn whose draws were weighed says its luck in its section, as
    ``analyze`` gives it, with a standard error; the move list repeats it
    only where it lies beyond two errors."""
    entries = _entries(sample)
    shown = 0
    for p in plays(False):
        luck = p["solver"]["luck"]
        section = _section(sample, f"r1t{p['turn']}")
        said = re.search(r'<p class="luck">Luck ([^ ]+) ± ([0-9.]+):', section)
        if luck is None:
            assert said is None
            continue
        assert said is not None
        assert _number(said.group(1)) == pytest.approx(luck, abs=0.051)
        error = float(said.group(2))
        assert error > 0
        chip = re.search(r'<span class="luck">luck ([^ ]+) ± ([0-9.]+)</span>', entries[p["turn"]])
        assert (chip is not None) == (abs(luck) > 2 * error + 0.1 or chip is not None)
        if chip is not None:
            assert abs(_number(chip.group(1))) > 2 * float(chip.group(2))
        shown += 1
    assert shown >= 3


def test_the_same_record_gives_the_same_bytes_with_the_solver(record: str, sample: str) -> None:
    again = _run("study", record, "--solver", "--max-samples", "8", "--jobs", "2", "-q")
    assert again == sample


def test_the_summary_gains_the_solvers_columns(perfect: str) -> None:
    headers = re.findall(r"<th>([^<]*)</th>", perfect.split('<section class="summary"', 1)[1])
    assert {"lost", "lost/turn", "luck"} <= set(headers)


def test_a_strangers_name_is_escaped_in_the_weighing(tmp_path: Path) -> None:
    """The name goes into the candidates' caption, the verdicts, the lines,
    the curve's words and tooltips: escaped in every one."""
    evil = "<i>Ny&o'"
    path = tmp_path / "evil.mgn"
    path.write_text((HEAD + DEALS + STOCK + TURNS).replace("Nyoman", evil), encoding="utf-8")
    html = _run("study", str(path), "--solver", "--mode", "perfect", "--jobs", "1", "-q")
    assert "<i>" not in html
    page = Page(html)
    shown = "".join(page.text)
    assert shown.count(evil) > 50
    assert f"Siti Rahma's points minus {evil}'s from here" in shown
    assert f"{evil} had one legal move." in shown
