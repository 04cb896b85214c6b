"""The table as SVG, read back as a drawing: the tiles it shows are found
by resolving each ``<use>`` to its face and counting the dots in each half,
then compared with the position the replay or the engine gives."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.engine.layout import EMPTY, Layout, lead, place
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.position import Position
from muggins_cli.replay.replay import position_at, positions
from muggins_cli.report.escape import for_xml
from muggins_cli.report.svg import board_svg, standalone
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End, Tile
from tests.records import CLUB_FIRST

NS = {"s": "http://www.w3.org/2000/svg"}
RECORDS = Path(__file__).resolve().parent.parent / "records"
CLUB = str(RECORDS / "club-night-pagat-2p.mgn")
RONDA = str(RECORDS / "pos-ronda-spinner-4p.mgn")


@dataclasses.dataclass(frozen=True)
class Drawn:
    halves: tuple[int, int]  # dots in the first (left or top) half, then the other
    x: float
    y: float
    w: float
    h: float


def _faces(root: ET.Element) -> dict[str, tuple[float, float, list[tuple[float, float]]]]:
    out = {}
    for g in root.iterfind(".//s:defs/s:g", NS):
        rect = g.find("s:rect", NS)
        assert rect is not None
        dots = [(float(c.get("cx", 0)), float(c.get("cy", 0)))
                for c in g.iterfind("s:circle", NS)]
        out[g.get("id", "")] = (float(rect.get("width", 0)), float(rect.get("height", 0)), dots)
    return out


def _translate(g: ET.Element) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def _drawn(root: ET.Element, group: str, cls: str = "tile") -> list[Drawn]:
    faces = _faces(root)
    out = []
    for g in root.iterfind(f".//s:g[@class='{group}']", NS):
        dx, dy = _translate(g)
        for use in g.iterfind("s:use", NS):
            if use.get("class") != cls:
                continue
            w, h, dots = faces[use.get("href", "")[1:]]
            upright = h > w
            first = sum(1 for cx, cy in dots if (cy if upright else cx) < min(w, h))
            out.append(Drawn((first, len(dots) - first), float(use.get("x", 0)) + dx,
                             float(use.get("y", 0)) + dy, w, h))
    return out


def _parse(pos: Position, last: Tile | None = None) -> ET.Element:
    return ET.fromstring(standalone(board_svg(pos, last)).split("\n", 1)[1])


def _tiles(drawn: list[Drawn]) -> Counter[Tile]:
    return Counter(Tile.of(*d.halves) for d in drawn)


def _check_table(root: ET.Element, layout: Layout) -> list[Drawn]:
    table = _drawn(root, "table")
    assert len(table) == layout.tile_count()
    assert _tiles(table) == Counter(layout.tiles())
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            apart = (a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y
                     or b.y + b.h <= a.y)
            assert apart, (a, b)
    _, _, vw, vh = (float(v) for v in root.get("viewBox", "").split())
    for d in table:
        assert d.x >= 0 and d.x + d.w <= vw and d.y >= 0 and d.y + d.h <= vh, d
    return table


def _every_position(path: str) -> list[Position]:
    return [p for p, _ in positions(read_match(path, 1), record_resolver(path))]


@pytest.mark.parametrize("path", [CLUB, RONDA])
def test_every_board_of_a_record_shows_the_table_hands_and_stock(path: str) -> None:
    for pos in _every_position(path)[::7]:
        root = _parse(pos)
        _check_table(root, pos.layout)
        for seat, hand in enumerate(pos.hands):
            group = root.find(f".//s:g[@class='hand'][@data-seat='{seat}']", NS)
            assert group is not None
            shown = _drawn(root, "hand")  # every hand's face-up tiles
            if hand is not None:
                assert len([u for u in group if u.get("class") == "tile"]) == len(hand)
            else:
                assert len([u for u in group if u.get("class") == "back"]) == \
                    pos.hand_sizes[seat]
        known = [t for h in pos.hands if h is not None for t in h]
        assert _tiles(shown) == Counter(known)
        stock = root.find(".//s:g[@class='stock']", NS)
        assert stock is not None and len(list(stock)) == pos.stock_count


def test_the_longest_line_of_the_club_record_turns_corners_and_stays_apart() -> None:
    biggest = max(_every_position(CLUB), key=lambda p: p.layout.tile_count())
    assert biggest.layout.tile_count() >= 25
    table = _check_table(_parse(biggest), biggest.layout)
    upright = [d for d in table if d.h > d.w]
    doubles = [d for d in table if d.halves[0] == d.halves[1]]
    # Along a horizontal line only the doubles stand upright; more upright
    # tiles means an arm went up or down a side.
    assert len(upright) > len([d for d in doubles if d.h > d.w])
    rows = {round(d.y + d.h / 2) for d in table if d.w > d.h}
    assert len(rows) >= 2  # the line came back along a second row


def test_the_spinner_takes_an_arm_on_each_of_its_four_sides() -> None:
    pos = max(_every_position(RONDA), key=lambda p: min(
        len(a.tiles) for a in p.layout.arms) if p.layout.spinner else -1)
    assert pos.layout.spinner and all(a.tiles for a in pos.layout.arms)
    table = _check_table(_parse(pos), pos.layout)
    root = pos.layout.root
    assert root is not None
    # The spinner: the double stood across the line, with a tile against each side.
    spinner = next(d for d in table if Tile.of(*d.halves) == root and d.h > d.w)
    cx, cy = spinner.x + spinner.w / 2, spinner.y + spinner.h / 2
    gap = 3

    def touching(side: str) -> list[Drawn]:
        s = spinner
        if side in "LR":
            near = [d for d in table if s.y < d.y + d.h / 2 + 1 and d.y + d.h / 2 - 1 < s.y + s.h]
            return [d for d in near if (abs(d.x + d.w - s.x) <= gap if side == "L"
                                        else abs(d.x - (s.x + s.w)) <= gap)]
        near = [d for d in table if abs(d.x + d.w / 2 - cx) < 1]
        return [d for d in near if (abs(d.y + d.h - s.y) <= gap if side == "U"
                                    else abs(d.y - (s.y + s.h)) <= gap)]

    for side in "LRUD":
        assert len(touching(side)) == 1, side
    assert cy == pytest.approx(table[0].y + table[0].h / 2)


def _bare(rules: Rules, layout: Layout) -> Position:
    """A position with nothing but a table (the hands empty, no stock)."""
    return Position(rules, ("A", "B"), 1, 1, (frozenset(), frozenset()), (0, 0), (), 0,
                    layout, 0, None, (0, 0), 100, frozenset(), (), False, None)


@pytest.mark.parametrize("max_pip", [9, 12])
def test_double_nine_and_double_twelve_faces_have_their_dots(max_pip: int) -> None:
    rules = dataclasses.replace(load_preset("spinner"), max_pip=max_pip)
    top = max_pip
    layout = lead(rules, Tile.of(top, top))
    plays = [(Tile.of(top, top - 1), End.L), (Tile.of(top - 1, top - 2), End.L),
             (Tile.of(top, top - 3), End.R), (Tile.of(top - 3, top - 4), End.R),
             (Tile.of(top, top - 2), End.U), (Tile.of(top, 0), End.D),
             (Tile.of(0, 0), End.D)]
    for tile, end in plays:
        layout = place(rules, layout, tile, end)
    root = _parse(_bare(rules, layout))
    _check_table(root, layout)
    faces = {f for d in _drawn(root, "table") for f in d.halves}
    assert {top, top - 1, top - 2, top - 3, top - 4, 0} <= faces


def test_the_tile_just_played_is_outlined_around_it() -> None:
    match = read_match(CLUB, 1)
    resolve = record_resolver(CLUB)
    before, after = position_at(match, resolve, "1.3"), position_at(match, resolve, "1.4")
    new = set(after.layout.tiles()) - set(before.layout.tiles())
    assert len(new) == 1
    (tile,) = new
    root = _parse(after, tile)
    outline = root.find(".//s:rect[@class='last']", NS)
    assert outline is not None
    ox, oy = _translate(root.find(".//s:g[@class='table']", NS))  # type: ignore[arg-type]
    x, y = float(outline.get("x", 0)) + ox, float(outline.get("y", 0)) + oy
    w, h = float(outline.get("width", 0)), float(outline.get("height", 0))
    inside = [d for d in _drawn(root, "table")
              if x <= d.x and d.x + d.w <= x + w and y <= d.y and d.y + d.h <= y + h]
    assert [Tile.of(*d.halves) for d in inside] == [tile]


def test_an_empty_table_and_open_end_labels() -> None:
    rules = load_preset("pagat")
    root = _parse(_bare(rules, EMPTY))
    assert _drawn(root, "table") == []
    layout = lead(rules, Tile.of(2, 4))
    root = _parse(_bare(rules, layout))
    labels = sorted(int(t.text or "") for t in root.iterfind(".//s:g[@class='end']/s:text", NS))
    assert labels == [2, 4]


def test_names_are_escaped_in_the_drawing() -> None:
    rules = load_preset("pagat")
    pos = dataclasses.replace(_bare(rules, lead(rules, Tile.of(2, 4))),
                              players=("<b>&", 'x"y'))
    root = _parse(pos)  # parses: nothing leaked into the markup
    texts = " ".join(t.text or "" for t in root.iterfind(".//s:text", NS))
    assert "<b>&" in texts and 'x"y' in texts


def test_replay_svg_writes_one_board_and_keeps_an_existing_file(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    runner = CliRunner()
    r = runner.invoke(app, ["replay", RONDA, "--at", "2.14", "--svg", str(out)])
    assert r.exit_code == 0, r.output
    pos = position_at(read_match(RONDA, 1), record_resolver(RONDA), "2.14")
    root = ET.fromstring(out.read_text(encoding="utf-8").split("\n", 1)[1])
    _check_table(root, pos.layout)
    before = out.read_bytes()
    r = runner.invoke(app, ["replay", RONDA, "--at", "2.15", "--svg", str(out)])
    assert r.exit_code == 2 and "--force" in r.output and out.read_bytes() == before
    r = runner.invoke(app, ["replay", RONDA, "--svg", str(out), "--force"])
    assert r.exit_code == 2 and "--at" in r.output
    r = runner.invoke(app, ["replay", RONDA, "--at", "9.1", "--svg", str(out), "--force"])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_a_long_hand_wraps_within_its_half_of_the_table() -> None:
    """Thirteen tiles in one hand (a player who drew a lot) on a small
    table: they wrap onto more rows inside their half, and no tile of one
    hand lies over the other's or outside the drawing."""
    rules = load_preset("pagat")
    tiles = sorted(Tile.of(a, b) for a in range(7) for b in range(a, 7))
    pos = dataclasses.replace(_bare(rules, lead(rules, Tile.of(2, 4))),
                              hands=(frozenset(tiles[:13]), frozenset(tiles[13:15])),
                              hand_sizes=(13, 2))
    root = _parse(pos)
    _, _, vw, vh = (float(v) for v in root.get("viewBox", "").split())
    drawn = {seat: [] for seat in (0, 1)}  # type: dict[int, list[Drawn]]
    for d in _drawn(root, "hand"):
        drawn[0 if d.x < vw / 2 else 1].append(d)
    assert len(drawn[0]) == 13 and len(drawn[1]) == 2
    assert len({d.y for d in drawn[0]}) >= 2  # more than one row
    for d in drawn[0]:
        assert d.x + d.w <= vw / 2 and d.y + d.h <= vh
        for o in drawn[1]:
            assert d.x + d.w <= o.x
    assert _tiles(drawn[0]) == Counter(tiles[:13])


def test_replay_svg_of_names_xml_cannot_hold_is_well_formed(tmp_path: Path) -> None:
    """Control characters and U+FFFE are no XML at all, not even as
    references: each is drawn as U+FFFD, the rest of the name kept."""
    path = tmp_path / "evil.mgn"
    path.write_text(CLUB_FIRST.replace("Ana", "A\x1bn\x07a\ufffe&<b>\x01"), encoding="utf-8")
    out = tmp_path / "b.svg"
    r = CliRunner().invoke(app, ["replay", str(path), "--at", "1.2", "--svg", str(out)])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(out.read_bytes())  # well-formed XML, its declaration included
    texts = " ".join(t.text or "" for t in root.iterfind(".//s:text", NS))
    assert "A\ufffdn\ufffda\ufffd&<b>\ufffd" in texts


@pytest.mark.parametrize(("raw", "xml"), [
    ("a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&#39;f"),
    ("tab\tnl\ncr\r", "tab\tnl\ncr\r"),  # the three controls XML allows
    ("\x00\x1b\x7f\x85\ud800\ufffe\uffff", "\ufffd\ufffd\x7f\x85\ufffd\ufffd\ufffd"),
    ("é ✓ \U0001f642", "é ✓ \U0001f642"),
])
def test_for_xml(raw: str, xml: str) -> None:
    assert for_xml(raw) == xml
