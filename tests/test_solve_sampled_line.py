"""``muggins solve`` says when its lines are played in one sampled deal:
the text above the principal variation, and the JSON beside the lines
(a script reading ``pv`` should not take one deal's line for the future)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS

runner = CliRunner()


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("short") / "short.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    return str(path)


def _solve(record: str, *args: str) -> str:
    r = runner.invoke(app, ["solve", record, "--at", "1.3", *args])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize(("mode", "sampled"), [("sample", True), ("perfect", False)])
def test_a_line_from_one_sampled_deal_says_so(record: str, mode: str, sampled: bool) -> None:
    text = _solve(record, "--mode", mode, "--samples", "8")
    head = next(line for line in text.splitlines() if line.startswith("principal variation"))
    assert ("in one sampled deal" in head) is sampled
    got = json.loads(_solve(record, "--mode", mode, "--samples", "8", "--json"))
    assert any(len(m["pv"]) > 1 for m in got["moves"])
    assert got["sampled_line"] is sampled
