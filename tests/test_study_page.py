"""``muggins study`` as a file: self-contained, escaped, the same bytes
each time, a board per position with its own address, and the numbers of
``muggins analyze`` in its table and chart."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.replay import positions

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS

RECORDS = Path(__file__).resolve().parent.parent / "records"
KEPT = str(RECORDS / "kept-without-deals-2p.mgn")
RONDA = str(RECORDS / "pos-ronda-spinner-4p.mgn")
runner = CliRunner()


class Page(HTMLParser):
    """Every element's tag and attributes, the text, and the ids."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def all(self, tag: str, **want: str) -> list[dict[str, str]]:
        return [a for t, a in self.elements if t == tag
                and all(a.get(k.replace("_", "-")) == v for k, v in want.items())]


def _study(*args: str) -> str:
    r = runner.invoke(app, ["study", *args])
    assert r.exit_code == 0, r.output
    return r.stdout


def test_a_board_per_position_each_with_its_address() -> None:
    html = _study(RONDA)
    page = Page(html)
    boards = page.all("section", **{"class": "board"})
    seen = list(positions(read_match(RONDA, 1), record_resolver(RONDA)))
    assert len(boards) == len(seen)
    ids = [b["id"] for b in boards]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"r\d+t\d+", i) for i in ids)
    # Every link goes to a board of the page, and the move list has an entry
    # for each turn the replay played (each links to the board after it).
    for a in page.all("a"):
        assert a["href"][1:] in ids, a
    moves = html.split('<aside class="moves"', 1)[1].split("</aside>", 1)[0]
    entries = re.findall(r'<li class="p\d"><a href="#(r\d+t\d+)"', moves)
    played = [p for p, item in seen if type(item).__name__ == "Turn"]
    assert len(entries) == len(played)
    assert entries == [f"r{p.round}t{p.turn}" for p in played]
    # The chart: a line per player, a link per board.
    assert len(page.all("polyline", **{"class": "score"})) == 4
    assert len(page.all("rect", **{"class": "hit"})) == len(seen)


def test_the_page_fetches_nothing() -> None:
    html = _study(KEPT)
    page = Page(html)
    csp = page.all("meta", http_equiv="Content-Security-Policy")
    assert len(csp) == 1
    policy = {d.split()[0]: d.split()[1:] for d in csp[0]["content"].split("; ")}
    assert policy["default-src"] == ["'none'"]
    assert set(policy) <= {"default-src", "style-src", "script-src", "img-src"}
    assert all("http" not in v and "*" not in v for vs in policy.values() for v in vs)
    for tag, attrs in page.elements:
        assert tag not in {"link", "img", "iframe", "object", "embed"}
        for name in ("src", "href"):
            if name in attrs:
                assert attrs[name].startswith("#"), (tag, attrs)
    assert "@import" not in html and "url(" not in html


def test_same_input_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    for out in (a, b):
        r = runner.invoke(app, ["study", RONDA, "-o", str(out)])
        assert r.exit_code == 0, r.output
    assert a.read_bytes() == b.read_bytes()


def test_a_strangers_text_is_escaped(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    record = tmp_path / "evil.mgn"
    text = (RECORDS / "kept-without-deals-2p.mgn").read_text(encoding="utf-8")
    text = re.sub(r'\[Event "[^"]*"\]', f'[Event "{evil}"]', text, count=1)
    if "[Event" not in text:
        text = f'[Event "{evil}"]\n' + text
    first_turn = re.search(r"^(\S+): .*$", text, re.M)
    assert first_turn is not None
    text = text.replace(first_turn.group(0),
                        first_turn.group(0) + " {<img src=x onerror=alert(2)> & so on}", 1)
    record.write_text(text, encoding="utf-8")
    html = _study(str(record))
    assert evil not in html and "<img" not in html
    page = Page(html)
    shown = "".join(page.text)
    assert evil in shown and "<img src=x onerror=alert(2)> & so on" in shown
    assert len(page.all("script")) == 1  # the page's own, nothing else


def test_the_summary_is_the_analysis_table() -> None:
    html = _study(RONDA)
    page = Page(html)
    r = runner.invoke(app, ["analyze", RONDA, "-f", "json"])
    summary = json.loads(r.stdout)["files"][0]["matches"][0]["players_summary"]
    body = html.split('<section class="summary"', 1)[1].split("</table>", 1)[0]
    rows = [re.findall(r"<td>([^<]*)</td>", row) for row in body.split("<tr")[2:]]
    assert [row[0] for row in rows] == [p["player"] for p in summary]
    for row, p in zip(rows, summary):
        assert row[1:9] == [str(p[k]) for k in ("turns", "analysed", "forced", "points_scored",
                                                "points_missed", "missed_score", "illegal",
                                                "unclaimed")]
    assert page.all("p", **{"class": "ending"})


def test_an_existing_page_is_kept_without_force(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    out.write_text("mine", encoding="utf-8")
    r = runner.invoke(app, ["study", KEPT, "-o", str(out)])
    assert r.exit_code == 2 and "--force" in r.output
    assert out.read_text(encoding="utf-8") == "mine"
    r = runner.invoke(app, ["study", KEPT, "-o", str(out), "--force"])
    assert r.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("args", [["nowhere.mgn"], [KEPT, "--match", "5"],
                                  [KEPT, "--samples", "3"], [KEPT, "--force"]])
def test_bad_input_is_one_line_not_a_traceback(args: list[str]) -> None:
    r = runner.invoke(app, ["study", *args])
    assert r.exit_code == 2
    assert "Traceback" not in r.output and r.output.startswith("muggins study: ")


def test_a_record_with_errors_gives_a_page_that_says_so(tmp_path: Path) -> None:
    html = _study(str(RECORDS / "mistake-illegal-draw.mgn"))
    assert "illegal-draw" in html
    assert html.count('class="board"') >= 2


def test_each_round_ends_with_the_keepers_totals_after_its_settlement() -> None:
    text = Path(RONDA).read_text(encoding="utf-8")
    # The score line the keeper wrote at each round's end (after its reveals).
    written = [[int(n) for n in re.findall(r"(-?\d+)(?:,|$)", m)]
               for m in re.findall(r"^reveal .*\n(?:reveal .*\n)*score (.*)$", text, re.M)]
    html = _study(RONDA)
    tables = html.split('<table class="settle">')[1:]
    totals = [[int(n) for n in re.findall(r"<td>(-?\d+)</td>", t.split("<td>total</td>")[1]
                                          .split("</tr>")[0])] for t in tables]
    assert totals[:len(written)] == written and len(written) >= 7
    # Round 1: Ketut went out; the others held 2 + 5 + 4 = 11 pips, 10
    # rounded, a fifth of it his bonus (docs/rules.md, lightest-bonus).
    change = re.findall(r"<td>([-+]?\d+)</td>", tables[0].split("<td>change</td>")[1]
                        .split("</tr>")[0])
    assert change == ["0", "+2", "0", "0"]


def test_annotations_and_comments_stand_beside_their_turns(tmp_path: Path) -> None:
    record = tmp_path / "c.mgn"
    text = HEAD + "# dealt by Made\n" + DEALS + STOCK + TURNS
    text = text.replace("Nyoman: 3-4\n", "# a quiet start\nNyoman: 3-4  # he had a choice\n")
    text = text.replace("Siti Rahma: 6-4\n", "Siti Rahma: 6-4 {she counts 10}\n")
    record.write_text(text, encoding="utf-8")
    html = _study(str(record))
    moves = html.split('<aside class="moves"', 1)[1].split("</aside>", 1)[0]
    items = moves.split("<li ")[1:]
    third = next(i for i in items if 'href="#r1t3"' in i)
    assert "# a quiet start" in third and "# he had a choice" in third
    fourth = next(i for i in items if 'href="#r1t4"' in i)
    assert "she counts 10" in fourth
    head = moves.split("<li ")[0]
    assert "# dealt by Made" in head
