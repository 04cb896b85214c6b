"""``muggins study`` in a real browser: Debian's chromium, driven by
Playwright, opens the page from ``file://`` with every request but the page
itself refused, and a reader clicks and steps through the turns, picks a
candidate play and jumps with the keys, at 1280 and at 800 pixels wide;
the layout is measured at 1280, 800 and 390 (a phone) on three records;
the README's pictures are taken again from the page built today and
compared with the committed ones (``python tools/screenshot.py --docs``
makes them).

Never skipped: without /usr/bin/chromium the test fails and says how to
install it (``.ci/run`` does).
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, Request, Route, sync_playwright
from typer.testing import CliRunner

from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.replay import position_at

pytestmark = pytest.mark.slow  # a real browser: run apart, with -m slow

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RECORDS = Path(__file__).resolve().parent.parent / "records"
RECORD = str(RECORDS / "kept-without-deals-2p.mgn")
CLUB = str(RECORDS / "club-night-pagat-2p.mgn")
SMALLEST_TILE = 56
"""Pixels along a tile's long side, at 1280 x 900, from which its pips
read without zoom."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (CI="
                    f"{os.environ.get('CI', '')!r}; .ci/run installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("study") / "kept.html"
    r = CliRunner().invoke(app, ["study", RECORD, "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


class Watched:
    """A page whose every request and console message is kept; any request
    other than the page's own file is refused."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.requests: list[str] = []
        self.refused: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.route("**/*", self._route)

    def _route(self, route: Route, request: Request) -> None:
        if request.url.split("#")[0] == self.url:
            route.continue_()
        else:
            self.refused.append(request.url)
            route.abort()

    def shown(self) -> list[str]:
        """The boards on screen (one round trip to the browser, not one a
        board): a board's section lays its parts into the page's grid, so
        it is its table that has a box."""
        ids: list[str] = self.page.eval_on_selector_all(
            "section.board", "bs => bs.filter(b => b.querySelector('.table-wrap')"
                             ".offsetParent !== null).map(b => b.id)")
        return ids

    def tiles_on_table(self) -> int:
        return int(self.page.eval_on_selector_all(
            "section.board", "bs => bs.filter(b => b.querySelector('.table-wrap')"
            ".offsetParent !== null).map(b => b.querySelectorAll('g.table use.tile').length)[0]"))


def _tiles_at(at: str) -> int:
    return position_at(read_match(RECORD, 1), record_resolver(RECORD), at).layout.tile_count()


def test_the_page_opens_offline_and_steps_turn_by_turn(browser: Browser,
                                                       page_file: Path) -> None:
    url = page_file.resolve().as_uri()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    w = Watched(context.new_page(), url)
    w.page.goto(url)
    assert w.shown() == ["r1t0"]  # the deal, before anything is clicked

    w.page.click(".moves a[data-board='r1t17']")
    assert w.shown() == ["r1t17"]
    index = w.page.get_attribute("#r1t17", "data-index")
    assert index == "17"  # the 17th board after the deal's
    assert w.tiles_on_table() == _tiles_at("1.18")  # once the 17th turn is down
    assert w.page.evaluate("location.hash") == "#r1t17"
    assert w.page.is_visible(".moves li.current a[data-board='r1t17']")

    w.page.keyboard.press("ArrowRight")
    assert w.shown() == ["r1t18"]
    assert w.tiles_on_table() == _tiles_at("1.19")
    w.page.keyboard.press("ArrowLeft")
    w.page.keyboard.press("ArrowLeft")
    assert w.shown() == ["r1t16"]

    w.page.click("svg.chart rect.hit[data-board='r2t3']")
    assert w.shown() == ["r2t3"]

    png = w.page.screenshot(full_page=False)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert image.size == (1280, 900) and len(colours) > 50  # not a blank page
    assert w.requests == [url] and w.refused == []
    assert w.errors == []
    context.close()


def test_every_board_is_reachable_without_javascript(browser: Browser,
                                                     page_file: Path) -> None:
    url = page_file.resolve().as_uri()
    context = browser.new_context(java_script_enabled=False)
    w = Watched(context.new_page(), url)
    w.page.goto(url + "#r1t17")
    assert w.shown() == ["r1t17"]
    w.page.click("#r1t17 a.next")
    assert w.shown() == ["r1t18"]
    w.page.goto(url)
    assert w.shown() == ["r1t0"]
    assert w.refused == [] and w.errors == []
    context.close()


@pytest.fixture(scope="module")
def club_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The club match weighed all-seeing: every turn's candidates and the
    solver's line after each (a few seconds; the sampled view takes a
    minute and draws the same page)."""
    out = tmp_path_factory.mktemp("study") / "club.html"
    r = CliRunner().invoke(app, ["study", CLUB, "--solver", "--perfect", "-q", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("study-shots")
    return folder


def _said(capsys: pytest.CaptureFixture[str], text: str) -> None:
    with capsys.disabled():
        print(f"\n{text}")


def _open(browser: Browser, url: str, width: int, *, script: bool = True) -> Watched:
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  java_script_enabled=script)
    w = Watched(context.new_page(), url)
    w.page.goto(url)
    return w


def _shown(w: Watched) -> str:
    ids = w.shown()
    assert len(ids) == 1, ids
    return ids[0]


def _costly(w: Watched) -> list[str]:
    got: list[str] = w.page.eval_on_selector_all(
        "section.board[data-verdict='mistake'], section.board[data-verdict='blunder']",
        "bs => bs.map(b => b.id)")
    return got


def _rect(w: Watched, selector: str) -> dict[str, float]:
    box: dict[str, float] = w.page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return {top: r.top, "
                  "bottom: r.bottom, left: r.left, right: r.right, width: r.width, "
                  "height: r.height}; }")
    return box


def _mid_costly(w: Watched) -> str:
    """A mistake or a blunder well into a round, with another play to draw."""
    return next(b for b in _costly(w) if int(b.split("t")[1]) >= 8
                and w.page.locator(f"#{b} .ghost").count())


def _mid_rounds(w: Watched) -> list[str]:
    """The board halfway through each round."""
    rounds: dict[str, list[str]] = {}
    for bid in w.page.eval_on_selector_all("section.board", "bs => bs.map(b => b.id)"):
        rounds.setdefault(bid.split("t")[0], []).append(bid)
    return [ids[len(ids) // 2] for ids in rounds.values() if len(ids) > 4]


def test_at_1280_the_table_reads_and_a_candidate_is_drawn(
        browser: Browser, club_file: Path, shots: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = club_file.resolve().as_uri()
    w = _open(browser, url, 1280)
    # Every tile of every mid-round board, hands included, long enough to
    # count its pips.
    smallest: dict[str, float] = {}
    for bid in _mid_rounds(w):
        w.page.evaluate(f"location.hash = '#{bid}'")
        assert _shown(w) == bid
        sizes: list[float] = w.page.eval_on_selector_all(
            f"#{bid} use.tile", "us => us.map(u => { const r = u.getBoundingClientRect(); "
                                "return Math.max(r.width, r.height); })")
        assert sizes
        smallest[bid] = min(sizes)
    assert len(smallest) >= 10 and min(smallest.values()) >= SMALLEST_TILE, smallest
    # The board and the move list side by side, the board filling its column.
    table = _rect(w, "section.board.shown .table-wrap")
    moves = _rect(w, ".moves")
    assert table["right"] <= moves["left"] and table["width"] > 1280 * 0.6

    # A blunder: its candidates beside the table; picking the best draws
    # it as a ghost tile on its end, the tile played fades, the solver's
    # line after it shows.
    bid = _mid_costly(w)
    w.page.click(f".moves a[data-board='{bid}']")
    assert _shown(w) == bid
    ghost = f"#{bid} g.ghost"
    assert not w.page.is_visible(ghost)
    key = w.page.get_attribute(ghost, "data-c")
    w.page.click(f"label[for='c-{bid}-{key}']")
    assert w.page.is_visible(f"{ghost}[data-c='{key}']")
    drawn = _rect(w, f"{ghost}[data-c='{key}'] use")
    felt = _rect(w, f"#{bid} rect.felt")
    assert drawn["width"] >= SMALLEST_TILE / 2 and drawn["height"] >= SMALLEST_TILE / 2
    assert felt["left"] <= drawn["left"] and drawn["right"] <= felt["right"]
    assert felt["top"] <= drawn["top"] and drawn["bottom"] <= felt["bottom"]
    last = w.page.eval_on_selector(f"#{bid} use[data-last]", "u => getComputedStyle(u).opacity")
    assert float(last) < 0.5
    line = w.page.locator(f".turn-slot .line[data-c='{key}']")
    assert line.count() == 0 or line.is_visible()
    # The panel sits beside the table, over the move list, both in view.
    panel = _rect(w, ".turn-slot .turn")
    moves = _rect(w, ".moves")
    assert panel["left"] >= table["right"] and panel["bottom"] <= moves["top"]
    assert panel["top"] >= 0 and moves["top"] < 900
    w.page.screenshot(path=str(shots / "study-1280.png"))

    # Up and down pick among the candidates; the keys jump.
    w.page.keyboard.press("ArrowUp")
    checked: Any = w.page.eval_on_selector(".turn-slot", "s => s.querySelector('input.pick:checked').value")
    assert int(checked) == max(0, int(key or 0) - 1)
    w.page.keyboard.press("Home")
    assert _shown(w) == "r1t0"
    w.page.keyboard.press("n")
    assert _shown(w) == _costly(w)[0]
    w.page.keyboard.press("n")
    assert _shown(w) == _costly(w)[1]
    w.page.keyboard.press("p")
    assert _shown(w) == _costly(w)[0]
    w.page.keyboard.press("End")
    last_id: str = w.page.eval_on_selector_all("section.board", "bs => bs[bs.length - 1].id")
    assert _shown(w) == last_id
    # The value curve: a click on it goes to that turn.
    target = _costly(w)[3]
    w.page.click(f"svg.chart rect.hit[data-board='{target}']")
    assert _shown(w) == target
    assert w.requests == [url] and w.refused == [] and w.errors == []
    _said(capsys, f"study screenshots: {shots}")
    w.page.context.close()


def test_at_800_a_jump_keeps_the_table_and_the_turn_in_view(
        browser: Browser, club_file: Path, shots: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = club_file.resolve().as_uri()
    w = _open(browser, url, 800)

    def in_view() -> None:
        bid = _shown(w)
        table = _rect(w, "section.board.shown .table-wrap")
        assert table["top"] >= 0 and table["bottom"] <= 900, (bid, table)
        row = _rect(w, ".moves li.current")
        moves = _rect(w, ".moves")
        top, bottom = max(moves["top"], 0), min(moves["bottom"], 900)
        assert top <= row["top"] and row["bottom"] <= bottom, (bid, row, moves)

    # Jumps from the chart under the move list, from the keys, and by a
    # turn far down the list.
    costly = _costly(w)
    w.page.click(f"svg.chart rect.hit[data-board='{costly[5]}']")
    assert _shown(w) == costly[5]
    in_view()
    w.page.keyboard.press("n")
    assert _shown(w) == costly[6]
    in_view()
    w.page.keyboard.press("End")
    in_view()
    w.page.keyboard.press("Home")
    w.page.keyboard.press("n")
    assert _shown(w) == costly[0]
    in_view()
    mid = _mid_costly(w)
    w.page.click(f".moves a[data-board='{mid}']")
    assert _shown(w) == mid
    in_view()
    w.page.screenshot(path=str(shots / "study-800.png"))
    assert w.requests == [url] and w.refused == [] and w.errors == []
    _said(capsys, f"study screenshots: {shots}")
    w.page.context.close()


def test_without_javascript_a_picked_candidate_is_still_drawn(browser: Browser,
                                                             club_file: Path) -> None:
    url = club_file.resolve().as_uri()
    w = _open(browser, url, 1280, script=False)
    bid = next(b for b in _costly(w) if w.page.locator(f"#{b} .ghost").count())
    w.page.goto(f"{url}#{bid}")
    assert _shown(w) == bid
    assert w.page.is_visible(f"#{bid} table.cands")  # in the turn's own section
    key = w.page.get_attribute(f"#{bid} g.ghost", "data-c")
    w.page.click(f"label[for='c-{bid}-{key}']")
    assert w.page.is_visible(f"#{bid} g.ghost[data-c='{key}']")
    assert w.refused == [] and w.errors == []
    w.page.context.close()


# -- the layout at three widths -------------------------------------------------

WIDTHS = {1280: 900, 800: 900, 390: 844}
"""Each window measured, wide to a phone's (an iPhone 12 to 15, in CSS px)."""
LAID = {"club": CLUB, "spinner": str(RECORDS / "spinner-3p.mgn"),
        "ronda": str(RECORDS / "pos-ronda-spinner-4p.mgn")}
BUDGET = ["--solver", "--mode", "perfect", "--deal-nodes", "20000", "-q"]
"""Every turn weighed all-seeing, each search cut at 20,000 nodes: the same
candidates, curve and verdict panels as a full weighing draws, in seconds."""
AXIS_TEXT = 11.0
"""The least size, in CSS px, of the chart's words and numbers: a body's."""

MEASURE = """(whole = true) => {
  const W = window.innerWidth, out = {scroll: document.documentElement.scrollWidth,
    outside: [], wrapped: [], axis: [], views: {}};
  const name = e => (e.id ? '#' + e.id : e.tagName.toLowerCase()) +
    (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '');
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 || r.height > 0; };
  const inside = (r, p, vertical) => r.left >= p.left - 0.5 && r.right <= p.right + 0.5 &&
    (!vertical || (r.top >= p.top - 0.5 && r.bottom <= p.bottom + 0.5));
  // The turn's own panels; with ``whole``, those every turn shares too.
  const panels = Array.from(document.querySelectorAll(
    '.board.shown .table-wrap, .board.shown .turn, .turn-slot .turn, .board.shown .bar' +
    (whole ? ', .moves, .story, .summary table, header.top' : ''))).filter(shown);
  for (const p of panels) {
    const pr = p.getBoundingClientRect();
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(p).overflowY);
    if (p.scrollWidth > p.clientWidth + 1) { out.outside.push(name(p) + ' scrolls sideways'); }
    for (const e of p.querySelectorAll('*')) {
      if (!shown(e) || e.closest('defs, title')) { continue; }
      const r = e.getBoundingClientRect();
      const svg = e.ownerSVGElement;
      if (!inside(r, pr, !scrolls) ||
          (svg && !inside(r, svg.getBoundingClientRect(), true))) {
        out.outside.push(name(p) + ' > ' + name(e));
      }
    }
    const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (!t.textContent.trim() || t.parentElement.closest('title, style')) { continue; }
      const range = document.createRange();
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        if (r.width && !inside(r, pr, !scrolls)) {
          out.outside.push(name(p) + ' > "' + t.textContent.trim().slice(0, 20) + '"');
          break;
        }
      }
    }
  }
  // A number of a table on one line: a cell whose text takes more lines
  // than one (195.8 ± 29.1 broken in three) reads as three numbers.
  for (const td of document.querySelectorAll((whole ? '.summary td, ' : '') +
      '.board.shown table.cands td.num, .turn-slot table.cands td.num')) {
    const range = document.createRange();
    range.selectNodeContents(td);
    // Lines, not boxes: a smaller word beside a number (its deals) is a
    // box of its own on the same line.
    let lines = 0, bottom = -Infinity;
    for (const r of Array.from(range.getClientRects()).filter(r => r.width)
                         .sort((a, b) => a.top - b.top)) {
      if (r.top >= bottom - 1) { lines += 1; bottom = r.bottom; }
      else { bottom = Math.max(bottom, r.bottom); }
    }
    if (lines > 1) { out.wrapped.push(td.textContent.trim()); }
  }
  for (const t of document.querySelectorAll(whole ? '.story text, .story .tick, ' +
      '.story .rlabel, .story .mk, .story .legend li' : 'none')) {
    if (!shown(t)) { continue; }
    const size = parseFloat(getComputedStyle(t).fontSize);
    const scale = t.getScreenCTM ? t.getScreenCTM().d : 1;
    out.axis.push(size * scale);
  }
  const box = s => { const e = Array.from(document.querySelectorAll(s)).find(shown);
    if (!e) { return null; } const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const felt = document.querySelector('.board.shown rect.felt');
  const tile = document.querySelector('.board.shown use.tile, .board.shown use.back');
  out.felt = felt ? felt.getBoundingClientRect().height : 0;
  out.tile = tile ? Math.max(tile.getBoundingClientRect().width,
                             tile.getBoundingClientRect().height) : 0;
  out.views = {table: box('.board.shown .table-wrap'),
               verdict: box('.board.shown .turn .verdict, .turn-slot .turn .verdict'),
               cands: box('.board.shown table.cands, .turn-slot table.cands'),
               moves: box('.moves')};
  return out;
}"""


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The three records' pages, each built once (about a minute in all)."""
    folder = tmp_path_factory.mktemp("laid")
    out = {}
    for key, record in LAID.items():
        page = folder / f"{key}.html"
        r = CliRunner().invoke(app, ["study", record, *BUDGET, "-o", str(page)])
        assert r.exit_code == 0, r.output
        out[key] = page
    return out


def _widest(w: Watched) -> list[str]:
    """The weighed turns whose panels are hardest to fit: the one with the
    most candidates, and the one with the longest candidate row."""
    got: list[str] = w.page.eval_on_selector_all(
        "section.board[data-verdict]",
        """bs => {
          const rows = b => Array.from(b.querySelectorAll('tr.cand'));
          const longest = b => Math.max(0, ...rows(b).map(r => r.textContent.trim().length));
          const most = bs.reduce((a, b) => rows(b).length > rows(a).length ? b : a);
          const wide = bs.reduce((a, b) => longest(b) > longest(a) ? b : a);
          return [most.id, wide.id];
        }""")
    return got


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("key", list(LAID))
def test_the_page_fits_the_window(browser: Browser, laid: dict[str, Path], key: str,
                                  width: int, capsys: pytest.CaptureFixture[str]) -> None:
    """At each width, on the deal and on every weighed turn: no sideways
    scroll, no box or text outside its panel, no number of a table broken
    over lines, the chart's words at a body's size; the deal's empty table
    a strip; and, on a jump to the two turns hardest to fit (the most
    candidates, the longest row), the table, the verdict and the first
    candidates in the first screen together."""
    url = laid[key].resolve().as_uri()
    high = WIDTHS[width]
    context = browser.new_context(viewport={"width": width, "height": high})
    w = Watched(context.new_page(), url)
    w.page.goto(url)
    deal = w.page.evaluate(MEASURE, True)
    # The deal: nothing on the table yet, so a strip of felt, not the
    # round's whole field empty (it was 8 tiles high).
    assert deal["felt"] <= 3 * deal["tile"], (deal["felt"], deal["tile"])
    weighed: list[str] = w.page.eval_on_selector_all("section.board[data-verdict]",
                                                     "bs => bs.map(b => b.id)")
    scroll, outside, wrapped, axis = deal["scroll"], list(deal["outside"]), 0, deal["axis"]
    for bid in weighed:  # the panels every turn shares were measured with the deal
        w.page.evaluate(f"location.hash = '#{bid}'")
        got = w.page.evaluate(MEASURE, False)
        scroll = max(scroll, got["scroll"])
        outside += [f"{bid}: {o}" for o in got["outside"]]
        wrapped += bool(got["wrapped"])
    for bid in _widest(w):
        w.page.click(f".moves a[data-board='{bid}']")
        assert _shown(w) == bid
        views = w.page.evaluate(MEASURE, True)["views"]
        _said(capsys, f"{key} at {width}, {bid}: table {views['table']}, verdict "
                      f"{views['verdict']}, candidates {views['cands']}")
        # The board, the verdict and the head of the candidates in view.
        assert views["table"]["top"] >= 0 and views["table"]["bottom"] <= high, views
        assert views["verdict"]["top"] >= 0 and views["verdict"]["bottom"] <= high, views
        assert views["cands"]["top"] + 60 <= high, views
    _said(capsys, f"{key} at {width}: {len(weighed)} weighed turns, scroll width {scroll}, "
                  f"{len(outside)} boxes outside {outside[:3]}, {wrapped} turns with a number "
                  f"broken, smallest chart word {min(axis, default=0):.1f} px")
    assert len(weighed) >= 40
    assert scroll <= width
    assert outside == []
    assert wrapped == 0
    assert axis and min(axis) >= AXIS_TEXT
    assert w.errors == [] and w.refused == []
    context.close()


# -- the README's pictures ------------------------------------------------------

REPO = RECORDS.parent
BLOCK = 16
"""Pictures are compared a square of 16 x 16 pixels at a time: a changed
number is a few such squares changed a lot, which an average over the
whole picture would drown; a font smoothed a shade differently is every
square changed a little."""
DRIFT = 12.0
"""The most a square may differ on average (grey levels, of 255): a digit
changed in a square of text differs by 30 or more."""


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("screenshot", REPO / "tools" / "screenshot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("screenshot", module)  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def drift(a: Path, b: Path) -> float:
    """How far apart two pictures are: the largest mean difference of any
    16-pixel square, in grey levels (inf when their sizes differ)."""
    x = np.asarray(Image.open(a).convert("L"), dtype=np.float64)
    y = np.asarray(Image.open(b).convert("L"), dtype=np.float64)
    if x.shape != y.shape:
        return float("inf")
    h, w = (x.shape[0] // BLOCK) * BLOCK, (x.shape[1] // BLOCK) * BLOCK
    d = np.abs(x[:h, :w] - y[:h, :w]).reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK)
    return float(d.mean(axis=(1, 3)).max())


@pytest.fixture(scope="module")
def today(tmp_path_factory: pytest.TempPathFactory,
          docs_browser: Browser) -> tuple[Path, dict[str, Any]]:
    """The README's pictures taken again from the page built today, by the
    command that made the committed ones."""
    folder = tmp_path_factory.mktemp("today")
    tool = _tool()
    tool.build(folder / "club.html")
    words: dict[str, Any] = tool.take_all(folder / "club.html", folder, docs_browser)
    return folder, words


@pytest.fixture(scope="module")
def docs_browser(browser: Browser) -> Iterator[Browser]:
    """A browser launched as the tool launches its own (its flags fix the
    fonts' rendering), from the test's Playwright."""
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=_tool().ARGS)
    yield b
    b.close()


def test_the_readme_pictures_show_todays_page(today: tuple[Path, dict[str, Any]],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """What the README's pictures show is what the page built today shows:
    its words and numbers exactly (docs/study-shots.json, written with the
    pictures: the turn, the verdict, the luck, the candidates, the
    per-player table), and its pixels within a shade. Not flaky under
    load: the page is the same bytes every time (all hands seen), each
    picture is taken once the page has settled (fonts loaded, two frames
    drawn, no animation, no caret), and nothing in it depends on time.
    Run `python tools/screenshot.py --docs` when the page changes on
    purpose."""
    folder, words = today
    committed = json.loads((REPO / "docs" / "study-shots.json").read_text(encoding="utf-8"))
    assert words == committed
    for name in committed:
        far = drift(REPO / "docs" / name, folder / name)
        _said(capsys, f"{name}: drift {far:.1f} grey levels (at most {DRIFT})")
        assert far <= DRIFT, name


def test_the_drift_measure_sees_a_changed_number(today: tuple[Path, dict[str, Any]],
                                                 docs_browser: Browser,
                                                 tmp_path: Path) -> None:
    """The pixel comparison catches what the README's old picture got
    wrong (Luck +44.4 for +26.4): the same picture with one number of the
    luck line changed drifts past the bound; itself, it does not drift."""
    folder, _ = today
    shot = folder / "study-1280.png"
    assert drift(shot, shot) == 0.0
    page = folder / "club.html"
    context = docs_browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.goto(page.resolve().as_uri())
    tab.click(".moves a[data-board='r1t9']")
    tab.click("label[for='c-r1t9-0']")
    tab.evaluate("""() => { const l = document.querySelector('.turn-slot .luck');
                            l.textContent = l.textContent.replace('+26.4', '+44.4'); }""")
    tab.evaluate("window.scrollTo(0, 0)")
    tab.screenshot(path=str(tmp_path / "changed.png"), animations="disabled", caret="hide")
    context.close()
    assert drift(shot, tmp_path / "changed.png") > DRIFT


@pytest.mark.parametrize("key", list(LAID))
def test_the_value_curve_says_whose_each_point_is(browser: Browser, laid: dict[str, Path],
                                                  key: str) -> None:
    """With 2, 3 and 4 players alike: every point of the value curve is in
    the colour of the player who moved (as the move list colours the turn),
    every mistake and blunder the page judges is marked once, on its
    player's curve, by a word naming the player (their initial in the
    legend) and the verdict's glyph, over its dot, at a body's size."""
    url = laid[key].resolve().as_uri()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    w = Watched(context.new_page(), url)
    w.page.goto(url)
    got: dict[str, Any] = w.page.evaluate("""() => {
      const seatOf = b => { const li = document.querySelector(
        '.moves li > a[data-board="' + b + '"]').parentNode;
        return Array.from(li.classList).find(c => /^p\\d$/.test(c)).slice(1); };
      const colour = k => getComputedStyle(document.querySelector('.legend .p' + k + ' .swatch'))
        .backgroundColor;
      const points = Array.from(document.querySelectorAll('svg.chart circle.pt')).map(c => ({
        board: c.dataset.board, seat: seatOf(c.dataset.board),
        stroke: getComputedStyle(c).stroke, verdict: c.classList.contains('verdict')}));
      const marks = Array.from(document.querySelectorAll('.plot .mk')).map(m => {
        const dot = document.querySelector('svg.chart circle.verdict[data-board="' +
                                           m.dataset.board + '"]').getBoundingClientRect();
        const r = m.getBoundingClientRect();
        return {board: m.dataset.board, seat: seatOf(m.dataset.board), text: m.textContent,
                glyph: document.querySelector('.moves li > a[data-board="' + m.dataset.board +
                                              '"] .glyph').textContent,
                short: document.querySelector('.legend .p' + seatOf(m.dataset.board) +
                                              ' .short').textContent,
                off: Math.abs((r.left + r.right) / 2 - (dot.left + dot.right) / 2),
                size: parseFloat(getComputedStyle(m).fontSize)};
      });
      const costly = Array.from(document.querySelectorAll(
        "section.board[data-verdict='mistake'], section.board[data-verdict='blunder']"))
        .map(b => b.id);
      const colours = {};
      for (const p of points) { colours[p.seat] = colour(p.seat); }
      return {points, marks, costly, colours};
    }""")
    context.close()
    points, marks = got["points"], got["marks"]
    assert len(points) >= 20
    seats = {p["seat"] for p in points}
    assert len(seats) == {"club": 2, "spinner": 3, "ronda": 4}[key]
    for p in points:
        if not p["verdict"]:
            assert p["stroke"] == got["colours"][p["seat"]], p
    assert sorted(m["board"] for m in marks) == sorted(got["costly"])
    assert len(marks) >= 3
    for m in marks:
        assert m["text"] == m["short"] + m["glyph"], m
        assert m["off"] <= 3 and m["size"] >= AXIS_TEXT, m
