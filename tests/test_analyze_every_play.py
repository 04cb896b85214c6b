"""``analyze --solver --format json`` lists every legal play of a weighed
turn with what is known of it, as the study page does: the engine's legal
moves at the decision (worked out here from the recorded state), each with
its value and loss, the deals it was valued in, and for a play the race
stopped valuing the bound it was dropped at."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from muggins_cli.check import record_resolver
from muggins_cli.cli import app
from muggins_cli.engine.state import legal_moves
from muggins_cli.notation.reading import read_match
from muggins_cli.replay.replay import decisions

from .conftest import REPO
from .test_solver_cli import DEALS, HEAD, STOCK, TURNS
from .test_study_every_play import engine_key, play_key

runner = CliRunner()


def test_each_weighed_play_lists_the_engines_legal_plays(tmp_path: Path) -> None:
    path = tmp_path / "short.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    r = runner.invoke(app, ["analyze", str(path), "--solver", "--max-samples", "8",
                            "--jobs", "1", "-f", "json", "-q"])
    assert r.exit_code in (0, 1), r.output
    doc = json.loads(r.stdout)
    jsonschema.validate(doc, json.loads((REPO / "schemas" / "analysis.schema.json").read_text(
        encoding="utf-8")))
    plays = {p["line"]: p for p in doc["files"][0]["matches"][0]["plays"]}
    listed = 0
    for d in decisions(read_match(str(path), 1), record_resolver(str(path))):
        solver = plays[d.turn.line]["solver"]
        legal = legal_moves(d.at.rules, d.at.state())
        if len(legal) == 1:
            assert solver["plays"] == []
            continue
        rows = solver["plays"]
        assert sorted((play_key(p["play"]) for p in rows), key=repr) == sorted(
            (engine_key(m) for m in legal), key=repr)
        assert rows[0]["lost"] == 0 and rows[0]["value"] == solver["best_value"]
        assert [p["value"] for p in rows[1:]] == sorted((p["value"] for p in rows[1:]),
                                                        reverse=True)
        for p in rows:
            assert abs(p["lost"] - (solver["best_value"] - p["value"])) <= 0.002
            assert p["deals"] <= solver["samples"]
            assert (p["dropped_below"] is None) == (p["deals"] == solver["samples"])
        played = [p for p in rows if p["played"]]
        assert len(played) == 1 and played[0]["value"] == solver["value"]
        listed += 1
    assert listed >= 8
