"""Screenshot a study page with the system's chromium (Playwright drives it).

    python tools/screenshot.py PAGE.html OUT.png [--at r1t17] [--width 1280 --height 900]

For example:

    muggins study records/pos-ronda-spinner-4p.mgn -o /tmp/ronda.html
    python tools/screenshot.py /tmp/ronda.html /tmp/ronda.png --at r2t14

The README's pictures (docs/study-1280.png, docs/study-800.png) are the
ones the browser test keeps (pytest -m slow tests/test_study_browser.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--at", default=None, help="the board to show, e.g. r1t17")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=900)
    ap.add_argument("--full", action="store_true", help="the whole page, not the window")
    a = ap.parse_args()
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
