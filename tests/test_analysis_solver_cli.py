"""``muggins analyze --solver`` as a user runs it: the statistics table,
JSON, annotations written back, options refused, and the same answer
however many processes share the work."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.analysis.weigh import weigh_match
from muggins_cli.check import check_file, record_resolver
from muggins_cli.cli import app
from muggins_cli.notation.parser import parse_text

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "schemas" / "analysis.schema.json").read_text("utf-8"))
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text("utf-8"))
runner = CliRunner()


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "club.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    return path


def _weighed(path: Path, options: WeighOptions) -> list:  # type: ignore[type-arg]
    match = parse_text(path.read_text(encoding="utf-8"))[0]
    return list(weigh_match(match, record_resolver(str(path)), options))


@pytest.mark.parametrize(("option", "named"), [
    (["--mode", "perfect"], "--mode"), (["--perfect"], "--mode"),
    (["--max-samples", "4"], "--max-samples"), (["--samples", "4"], "--max-samples"),
    (["--deal-nodes", "10"], "--deal-nodes"), (["--nodes", "10"], "--deal-nodes"),
    (["--seed", "3"], "--seed"), (["-s", "3"], "--seed")])
def test_solver_options_need_solver(club: Path, option: list[str], named: str) -> None:
    """Each is named as --help names it, the old spellings too."""
    result = runner.invoke(app, ["analyze", "club.mgn", *option])
    assert result.exit_code == 2
    assert result.stderr == f"muggins analyze: {named} goes with --solver\n"


def test_table_has_the_solver_columns(club: Path) -> None:
    result = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--perfect", "-q"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("player"))
    assert header.split()[-4:] == ["unforced", "lost", "lost/turn", "luck"]
    weighed = _weighed(club, WeighOptions(perfect=True))
    for name in ("Siti Rahma", "Nyoman"):
        row = next(line for line in lines if line.startswith(name))
        mine = [w for w in weighed if w.player == name and w.unforced and w.weighed]
        lost = sum(w.cost for w in mine)
        # The costs are exact (bare); the luck is the mover's view, sampled: ± its error.
        found = re.search(r"(\d+) +(\d+(?:\.\d)?) +(\d+\.\d\d) +([-+]\d+(?:\.\d)?) ± "
                          r"(\d+\.\d)$", row)
        assert found is not None, row
        assert int(found[1]) == len(mine)
        assert float(found[2]) == pytest.approx(lost, abs=0.05)
        assert float(found[3]) == pytest.approx(lost / len(mine), abs=0.005)
        draws = [w for w in weighed if w.player == name and w.luck is not None]
        assert float(found[4]) == pytest.approx(sum(w.luck or 0 for w in draws), abs=0.05)
        assert float(found[5]) == pytest.approx(
            math.sqrt(sum((w.luck_error or 0) ** 2 for w in draws)), abs=0.05)
    assert "solver (perfect: every hand and the stock as recorded; exact)" in result.stdout
    for w in weighed:
        if w.unforced and w.cost >= 5:
            assert (f"club.mgn:{w.line}:1: warning costly-play {w.player} played {w.played}: "
                    f"{w.best} was") in result.stdout


def test_json_carries_every_weighed_turn(club: Path) -> None:
    result = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--perfect", "-f", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    jsonschema.validate(doc, REPORT_SCHEMA)
    match = doc["files"][0]["matches"][0]
    weighed = {w.line: w for w in _weighed(club, WeighOptions(perfect=True))}
    forced = sum(w.choices == 1 for w in weighed.values())
    assert match["solver"] == {"view": "perfect", "samples": 1024, "min_samples": 16,
                               "z": 2.5, "nodes": 1_000_000, "seed": 0, "exact_deals": 512,
                               "work": 5_000_000, "blunder_samples": 64, "luck_samples": 32,
                               "close": 2.5, "close_z": 1.0,
                               "turns": {"total": 16, "weighed": 16 - forced,
                                         "forced": forced, "not_weighed": 0}}
    assert len(match["plays"]) == 16
    for play in match["plays"]:
        w = weighed[play["line"]]
        assert play["solver"]["choices"] == w.choices
        assert play["solver"]["value"] == w.value
        assert play["solver"]["best"] == w.best
        lost = w.cost if w.unforced and w.weighed else 0
        assert play["solver"]["glyph"] == ("??" if lost >= 15 else "?" if lost >= 5 else None)
        if w.weighed:  # all hands seen: exact, no error, the cost known to the point
            assert play["solver"]["exact"] and play["solver"]["value_error"] is None
            assert play["solver"]["lost_low"] == play["solver"]["lost_high"] == pytest.approx(
                play["solver"]["lost"])
    assert {p["solver"]["glyph"] for p in match["plays"]} >= {"?", "??"}
    for summary in match["players_summary"]:
        mine = [w for w in weighed.values() if w.player == summary["player"]]
        solver = summary["solver"]
        assert solver["unforced"] == sum(1 for w in mine if w.unforced and w.weighed)
        assert solver["points_lost"] == pytest.approx(sum(w.cost for w in mine), abs=1e-3)
        if solver["unforced"]:
            assert solver["error_rate"] == pytest.approx(
                solver["points_lost"] / solver["unforced"], abs=1e-3)


def test_every_sampled_number_carries_its_error_or_says_it_is_exact(club: Path) -> None:
    result = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--samples", "12",
                                 "-f", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    match = doc["files"][0]["matches"][0]
    weighed = [p["solver"] for p in match["plays"] if p["solver"]["value"] is not None]
    assert weighed and any(not s["exact"] for s in weighed)
    for s in weighed:
        for name in ("value", "best_value", "lost"):
            assert s["exact"] or s[f"{name}_error"] is not None, (name, s)
        assert s["lost_low"] <= s["lost"] <= s["lost_high"]
    lucky = [p["solver"] for p in match["plays"] if p["solver"]["luck"] is not None]
    assert lucky and all(s["luck_error"] is not None for s in lucky)
    for summary in match["players_summary"]:
        solver = summary["solver"]
        mine = [p["solver"] for p in match["plays"] if p["player"] == summary["player"]]
        assert solver["luck_error"] == pytest.approx(
            math.sqrt(sum((s["luck_error"] or 0) ** 2 for s in mine)), abs=2e-3)
        assert solver["points_lost_error"] == pytest.approx(
            math.sqrt(sum((s["lost_error"] or 0) ** 2 for s in mine
                          if s["value"] is not None and s["choices"] > 1)), abs=2e-3)
    text = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--samples", "12", "--turns",
                               "-q"])
    assert "; ± one standard error (a figure without one is exact)" in text.stdout
    rows = [line for line in text.stdout.splitlines() if re.match(r"\d+\.\d+ ", line)]
    assert rows and any(" ± " in line for line in rows)


def test_plain_json_validates_against_the_analysis_schema(club: Path) -> None:
    result = runner.invoke(app, ["analyze", "club.mgn", "-f", "json"])
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert "solver" not in doc["files"][0]["matches"][0]


def test_annotate_writes_the_solvers_verdict(club: Path) -> None:
    result = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--perfect", "--annotate",
                                 "-o", "study.mgn", "--mistake", "5", "--blunder", "15"])
    assert result.exit_code == 0, result.output
    text = (club.parent / "study.mgn").read_text(encoding="utf-8")
    assert check_file(str(club.parent / "study.mgn")).diagnostics == []
    weighed = _weighed(club, WeighOptions(perfect=True))
    marked = [w for w in weighed if w.unforced and w.weighed and w.cost >= 1]
    assert marked
    lines = text.split("\n")
    for w in marked:
        line = lines[w.line - 1]
        glyph = "??" if w.cost >= 15 else "?" if w.cost >= 5 else ""
        assert f"{{{w.best} was " in line and "points better by the end of the round}" in line
        tokens = line.split(": ", 1)[1].split("{")[0].split()
        placement = next(t for t in tokens if t[0].isdigit())
        assert placement.rstrip("?") + glyph == placement
    # Annotating the annotated record again changes nothing.
    again = runner.invoke(app, ["analyze", "study.mgn", "--solver", "--perfect", "--annotate",
                                "--in-place"])
    assert again.exit_code == 0, again.output
    assert (club.parent / "study.mgn").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("samples", ["1", "64"])
def test_same_answer_with_two_processes(club: Path, samples: str) -> None:
    """The turns are what the processes share. One sampled deal a turn is
    as seeded as many; 64 let the race decide how many deals each turn
    takes (16 at least, asked at 16, 24, 36, 54), and the verdicts and
    errors must not depend on which process weighed which turn."""
    (club.parent / "copy.mgn").write_text(club.read_text(encoding="utf-8"), encoding="utf-8")
    args = ["analyze", "club.mgn", "copy.mgn", "--solver", "--max-samples", samples, "--turns",
            "-q"]
    one = runner.invoke(app, [*args, "--jobs", "1"])
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout
    assert "value" in one.stdout and "solver best" in one.stdout


NO_HANDS = "the record does not show the mover's hand (deal lines)"


def _bare(club: Path) -> Path:
    """The club record without its deals and with its draws hidden."""
    text = HEAD + TURNS
    for face in ("d0-5", "d0-4", "d3-5", "d2-2", "d4-5"):
        text = text.replace(face, "d??")
    path = club.parent / "bare.mgn"
    path.write_text(text, encoding="utf-8")
    return path


def test_records_without_deals_say_why_and_stderr_says_the_same(club: Path) -> None:
    """No turn can be weighed: stderr and the report say so in one sentence
    (stderr once said "weighed 16 turns"), and lost is "-", as lost/turn
    and luck are, not 0. The record has 16 turn lines."""
    _bare(club)
    turns = len(TURNS.splitlines())
    assert turns == 16
    result = runner.invoke(app, ["analyze", "bare.mgn", "--solver", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    said = f"weighed 0 of {turns} turns; {turns} not weighed ({NO_HANDS})"
    assert said in result.stdout.splitlines()
    assert result.stderr == said + "\n"
    assert "not weighed: " not in result.stdout
    for name in ("Siti Rahma", "Nyoman"):
        row = next(line for line in result.stdout.splitlines() if line.startswith(name))
        assert row.split()[-4:] == ["0", "-", "-", "-"], row  # unforced lost lost/turn luck
    doc = json.loads(runner.invoke(app, ["analyze", "bare.mgn", "--solver", "--json", "-q"]
                                   ).stdout)
    match = doc["files"][0]["matches"][0]
    assert match["solver"]["turns"] == {"total": turns, "weighed": 0, "forced": 0,
                                        "not_weighed": turns}
    for p in match["players_summary"]:
        assert p["solver"]["points_lost"] is None and p["solver"]["luck"] is None
        assert p["solver"]["unweighed"] + p["solver"]["unforced"] > 0
    jsonschema.validate(doc, SCHEMA)
    # The view line says what the turns may take, and nothing of exact
    # turns when none was weighed ("8 to 4 deals a turn ...; 0 of 0 turns exact").
    few = runner.invoke(app, ["analyze", "bare.mgn", "--solver", "--samples", "4", "-q"])
    view = next(line for line in few.stdout.splitlines() if line.startswith("solver ("))
    assert "the mover's view, 4 deals a turn, every deal where there are at most 512)" in view
    assert "turns exact" not in view


def test_turns_are_counted_on_stderr_as_the_report_counts_them(club: Path) -> None:
    """All seeing, every turn is weighed but those with one legal move
    (counted here over the engine's legal moves at each decision)."""
    from muggins_cli.engine.state import legal_moves
    from muggins_cli.replay.replay import decisions

    match = parse_text(club.read_text(encoding="utf-8"))[0]
    found = list(decisions(match, record_resolver(str(club))))
    forced = sum(len(legal_moves(d.at.rules, d.at.state())) == 1 for d in found)
    assert len(found) == 16 and 0 < forced < 16
    result = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--perfect", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    said = f"weighed {16 - forced} of 16 turns; {forced} forced (one legal move)"
    assert result.stderr == said + "\n"
    assert said in result.stdout.splitlines()
    warnings = result.stdout.count(": warning ")
    assert result.stdout.count(": warning costly-play ") >= 1
    assert result.stdout.endswith(f"checked 1 file, 1 match: no errors, {warnings} warnings\n")


def test_ctrl_c_stops_the_whole_analysis(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver answers Ctrl-C with what it has; the analysis must not go
    on to the next turn but stop, with one line and status 130."""
    from muggins_cli.solver import common as solver_common

    def interrupt(self: solver_common.Budget) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solver_common.Budget, "check", interrupt)
    result = runner.invoke(app, ["analyze", "club.mgn", "--solver", "--jobs", "1"])
    assert result.exit_code == 130
    assert result.stderr == "muggins analyze: interrupted\n"
