"""What a weighed turn's panel on the study page lists: every legal play
(the engine's, worked out here from the recorded state, not from the
page's code), a play the race stopped valuing with the deals it had and
the bound it was dropped at, and beside the line of the play made how the
round went on at the table (the record's own lines, read from the file)."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.analysis.race import racer
from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.engine.state import KnownDraw, PassTurn, Place, legal_moves
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.replay import decisions
from muggins_cli.tiles import Tile

from .conftest import RECORDS
from .test_solver_cli import DEALS, HEAD, STOCK, TURNS

runner = CliRunner()
CLUB = RECORDS / "club-night-pagat-2p.mgn"


def _page(*args: str) -> str:
    r = runner.invoke(app, ["study", *args, "-q"])
    assert r.exit_code == 0, r.output
    return r.stdout


def _section(page: str, bid: str) -> str:
    return page.split(f'<section class="board" id="{bid}"', 1)[1].split("</section>", 1)[0]


def play_key(text: str) -> tuple[str, Tile | None, str]:
    """A row's play as (kind, tile, end): either half first, a draw, a pass."""
    if text in ("d??", "pass"):
        return text, None, ""
    m = re.fullmatch(r"(\d+)-(\d+)([LRUD]?)", text)
    assert m is not None, text
    return "place", Tile.of(int(m.group(1)), int(m.group(2))), m.group(3)


def engine_key(move: object) -> tuple[str, Tile | None, str]:
    """The engine's legal move as :func:`play_key` reads a listed play."""
    if isinstance(move, KnownDraw):
        return "d??", None, ""
    if isinstance(move, PassTurn):
        return "pass", None, ""
    assert isinstance(move, Place)
    return "place", move.tile, move.end.value if move.end is not None else ""


@pytest.mark.slow
def test_every_weighed_turn_of_the_club_record_lists_every_legal_play() -> None:
    """The club record in the mover's view (the defaults, as a user runs
    it): each turn with a table lists exactly the engine's legal moves at
    its decision, and each play valued in fewer deals than the turn's says
    how many and the bound the race dropped it at."""
    page = _page(str(CLUB), "--solver")
    tables = full = dropped = 0
    for d in decisions(read_match(str(CLUB), 1), record_resolver(str(CLUB))):
        at = d.at
        section = _section(page, f"r{at.round}t{at.turn}")
        if 'class="cands"' not in section:
            continue
        tables += 1
        rows = re.findall(r'<tr class="cand[^"]*">(.*?)</tr>', section, re.S)
        listed = sorted((play_key(re.search(r'<span class="mgn">([^<]*)', r).group(1))  # type: ignore[union-attr]
                         for r in rows), key=repr)
        legal = sorted((engine_key(m) for m in legal_moves(at.rules, at.state())), key=repr)
        full += listed == legal
        for r in rows:
            few = re.search(r'<span class="deals"[^>]*>\((\d+)\)</span>', r)
            mark = re.search(r'<span class="dropped" title="([^"]*)">dropped &ge;([0-9.]+) below',
                             r)
            assert (few is None) == (mark is None), r
            if few is not None and mark is not None:
                title = htmllib.unescape(mark.group(1))
                assert f"after {few.group(1)} deals" in title
                assert float(mark.group(2)) > 0
                dropped += 1
    assert tables == 123
    assert full == tables
    assert dropped >= 10


def test_the_race_keeps_the_bound_it_dropped_a_move_at() -> None:
    """A (played) costs 5 against B, give or take 1 a deal, unsettled; C
    lies 45 below B in 8 deals (46 and 44 in turn). Its bound is that lead
    less 3.5 standard errors made honest for 8 deals: Student's quantile
    with 7 degrees of freedom at the normal 3.5's tail, about 6.1, times
    the root of the square of its standard error (0.38) and of 30 / 8:
    45 - 6.1 * 3.77 = 22.0, within a few tenths."""
    options = WeighOptions(costly=5, blunder=15, z=2.0, min_deals=8, samples=40, close=2.0,
                           close_z=2.0)
    a, b, c = (Place(Tile.parse(t)) for t in ("1-2", "3-4", "5-6"))
    race = racer(a, options)
    per = {a: [0.0] * 8, b: [5.0 + (1.0 if k % 2 else -1.0) for k in range(8)],
           c: [-40.0] * 8}
    got = race(per, 8)  # type: ignore[arg-type]
    assert got is not None and set(got) == {a, b}
    deals, below = race.dropped[c]
    assert deals == 8 and 21.5 < below < 22.5
    assert a not in race.dropped and b not in race.dropped


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("short") / "short.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    return path


def test_the_play_made_shows_how_the_round_went_on_at_the_table(short: Path) -> None:
    """Beside the solver's line of the play made (one sampled deal), the
    turns that followed in the record, as its lines write them (the file
    read here line by line), up to six."""
    page = _page(str(short), "--solver", "--max-samples", "8", "--jobs", "1")
    lines = short.read_text(encoding="utf-8").splitlines()
    turn_lines = {d.turn.line: d for d in decisions(read_match(str(short), 1),
                                                     record_resolver(str(short)))}
    shown = 0
    for line, d in turn_lines.items():
        at = d.at
        section = _section(page, f"r{at.round}t{at.turn}")
        if 'class="cands"' not in section:
            continue
        after = [n for n in sorted(turn_lines) if n > line
                 and turn_lines[n].at.round == at.round]
        want = []
        for n in after[:6]:
            who, steps = lines[n - 1].split(":", 1)
            steps = re.sub(r"\s*\+\d+$", "", steps.split("#")[0].strip())  # no claim
            want.append((who.strip(), steps))
        real = re.search(r'<div class="line real" data-c="(\d+)">(.*?)</div>', section, re.S)
        if not want:
            assert real is None
            continue
        assert real is not None
        played = re.search(r'<input type="radio" class="pick played"[^>]*value="(\d+)"', section)
        assert played is not None and real.group(1) == played.group(1)
        got = [(htmllib.unescape(w), htmllib.unescape(p)) for w, p in re.findall(
            r'<span class="who">([^<]*)</span> <span class="mgn">([^<]*)</span>', real.group(2))]
        assert got == want
        more = re.search(r"and (\d+) turns? more", real.group(2))
        assert (int(more.group(1)) if more else 0) == max(0, len(after) - 6)
        shown += 1
    assert shown >= 8
