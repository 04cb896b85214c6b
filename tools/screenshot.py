"""Screenshot a study page with the system's chromium (Playwright drives it).

    python tools/screenshot.py PAGE.html OUT.png [--at r1t17] [--width 1280 --height 900]
    python tools/screenshot.py --docs            # the README's pictures, from today's page

For example:

    muggins study records/pos-ronda-spinner-4p.mgn -o /tmp/ronda.html
    python tools/screenshot.py /tmp/ronda.html /tmp/ronda.png --at r2t14

``--docs`` builds the page the README shows (:data:`COMMAND`), takes each
picture of :data:`SHOTS` from it and writes them to docs/, with
docs/study-shots.json: what each picture shows in words (the turn, its
verdict, its luck, its candidates, the per-player table). The browser test
takes the same pictures from the page built today and fails when they
drift from the committed ones (tests/test_study_browser.py).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--font-render-hinting=none", "--force-device-scale-factor=1"]
REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
COMMAND = ["study", "records/club-night-pagat-2p.mgn", "--solver", "--mode", "perfect"]
"""The README's page: all-seeing, so that the same bytes come every time."""


@dataclass(frozen=True)
class Shot:
    name: str
    width: int
    height: int
    at: str
    pick: str | None = None
    """The candidate picked (its key), drawn as a ghost tile."""


SHOTS = (Shot("study-1280.png", 1280, 900, "r1t9", "0"),
         Shot("study-800.png", 800, 900, "r1t9", "0"),
         Shot("study-390.png", 390, 844, "r1t9"))

WORDS = """at => {
  const text = e => e ? e.innerText.replace(/\\s+/g, ' ').trim() : null;
  const panel = document.querySelector('.turn-slot .turn') ||
                document.querySelector('#' + at + ' > .turn');
  return {
    heading: text(document.querySelector('#' + at + ' h2')),
    caption: text(document.querySelector('#' + at + ' .caption')),
    verdict: text(panel && panel.querySelector('.verdict')),
    luck: text(panel && panel.querySelector('.luck')),
    candidates: panel ? Array.from(panel.querySelectorAll('tr.cand')).map(text) : [],
    summary: Array.from(document.querySelectorAll('.summary tbody tr')).map(
      r => Array.from(r.cells).map(c => c.textContent.trim())),
  };
}"""
"""What a picture shows, in words: the numbers a reader takes from it."""


def build(out: Path) -> None:
    """The README's page, built by the command line as a reader would."""
    done = subprocess.run([sys.executable, "-m", "muggins_cli", *COMMAND, "-q", "-o",
                           str(out), "--force"], cwd=REPO, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"muggins {' '.join(COMMAND)} failed: {done.stderr.strip()}")


def take(browser: Browser, page: Path, shot: Shot, out: Path) -> dict[str, Any]:
    """One picture of ``page`` as a reader leaves it: the turn chosen in
    the move list, the candidate picked, the page settled (fonts loaded,
    two frames drawn, no animation, no caret), so that a slow machine
    gives the same pixels as a fast one. Returns the picture's words."""
    context = browser.new_context(viewport={"width": shot.width, "height": shot.height},
                                  device_scale_factor=1)
    tab = context.new_page()
    tab.goto(page.resolve().as_uri())
    tab.evaluate("document.fonts.ready")
    tab.click(f".moves a[data-board='{shot.at}']")
    tab.wait_for_function(f"document.querySelector('#{shot.at}.shown') !== null")
    if shot.pick is not None:
        tab.click(f"label[for='c-{shot.at}-{shot.pick}']")
    tab.evaluate("window.scrollTo(0, 0)")
    tab.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    tab.screenshot(path=str(out), animations="disabled", caret="hide")
    words: dict[str, Any] = tab.evaluate(WORDS, shot.at)
    context.close()
    return {"width": shot.width, "height": shot.height, "at": shot.at, "pick": shot.pick,
            **words}


def take_all(page: Path, folder: Path, browser: Browser | None = None) -> dict[str, Any]:
    """Every picture of :data:`SHOTS` into ``folder``, and their words, with
    ``browser`` (one launched with :data:`ARGS`) or a browser of its own."""
    if browser is not None:
        return {s.name: take(browser, page, s, folder / s.name) for s in SHOTS}
    with sync_playwright() as p:
        own = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        words = {s.name: take(own, page, s, folder / s.name) for s in SHOTS}
        own.close()
    return words


def docs() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "club.html"
        build(page)
        words = take_all(page, DOCS)
    (DOCS / "study-shots.json").write_text(json.dumps(words, indent=1, ensure_ascii=False)
                                           + "\n", encoding="utf-8")
    for s in SHOTS:
        print(f"wrote docs/{s.name}")
    print("wrote docs/study-shots.json")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("page", type=Path, nargs="?")
    ap.add_argument("out", type=Path, nargs="?")
    ap.add_argument("--docs", action="store_true",
                    help="the README's pictures (docs/study-*.png) from today's page")
    ap.add_argument("--at", default=None, help="the board to show, e.g. r1t17")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=900)
    ap.add_argument("--full", action="store_true", help="the whole page, not the window")
    a = ap.parse_args()
    if a.docs:
        docs()
        return
    if a.page is None or a.out is None:
        ap.error("PAGE and OUT, or --docs")
    url = a.page.resolve().as_uri() + (f"#{a.at}" if a.at else "")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": a.width, "height": a.height})
        page.goto(url)
        page.screenshot(path=str(a.out), full_page=a.full)
        browser.close()
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
