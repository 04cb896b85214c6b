"""``muggins study`` in a real browser: Debian's chromium, driven by
Playwright, opens the page from ``file://`` with every request but the page
itself refused, and a reader clicks and steps through the turns.

Never skipped: without /usr/bin/chromium the test fails and says how to
install it (``.ci/run`` does).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

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
RECORD = str(Path(__file__).resolve().parent.parent / "records" / "kept-without-deals-2p.mgn")


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
        """The boards on screen (one round trip to the browser, not one a board)."""
        ids: list[str] = self.page.eval_on_selector_all(
            "section.board", "bs => bs.filter(b => b.offsetParent !== null).map(b => b.id)")
        return ids

    def tiles_on_table(self) -> int:
        return int(self.page.eval_on_selector_all(
            "section.board", "bs => bs.filter(b => b.offsetParent !== null)"
            ".map(b => b.querySelectorAll('g.table use.tile').length)[0]"))


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
