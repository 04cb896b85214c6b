"""``muggins check`` as a user runs it: exit codes, stdout and stderr apart."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from tests.test_check import PAGAT, edit

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text("utf-8"))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "good.mgn").write_text(PAGAT)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.mgn").write_text(edit(PAGAT, "Budi: 0-3R\n", "Budi: 0-3L\n"))
    (tmp_path / "notes.txt").write_text("not a record")
    return tmp_path


def test_clean_file_exits_0(runner: CliRunner, folder: Path) -> None:
    result = runner.invoke(app, ["check", str(folder / "good.mgn")])
    assert result.exit_code == 0, result.output
    assert result.stdout == "checked 1 file, 1 match: no errors, 0 warnings\n"
    assert "error" not in result.stderr


def test_folder_sorted_and_error_exits_1(runner: CliRunner, folder: Path) -> None:
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 1
    bad = folder / "sub" / "bad.mgn"
    assert result.stdout.splitlines() == [
        f"{bad}:14:7: error does-not-fit 0-3 does not fit L, which shows 5; "
        "open ends: L=5, R=0",
        "checked 2 files, 2 matches: 1 error, 0 warnings; exit status 1: errors found",
    ]


def test_json_matches_schema_and_notation(runner: CliRunner, folder: Path) -> None:
    result = runner.invoke(app, ["check", "--format", "json", str(folder)])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert [Path(f["path"]).name for f in doc["files"]] == ["good.mgn", "bad.mgn"]
    good = doc["files"][0]["matches"][0]
    assert good == {"line": 1, "players": ["Ana", "Budi"], "rules": "pagat", "target": 250,
                    "rounds": 1, "scores": {"Ana": 35, "Budi": 10}, "winner": None}
    assert doc["summary"] == {"files": 2, "matches": 2, "errors": 1, "warnings": 0}
    (diag,) = doc["files"][1]["diagnostics"]
    assert (diag["line"], diag["column"], diag["severity"], diag["code"]) == (
        14, 7, "error", "does-not-fit")


def test_unreadable_exits_2_and_is_reported(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "bin.mgn").write_bytes(b"\x89PNG\x00\x00")
    result = runner.invoke(app, ["check", "--format", "json", str(tmp_path / "bin.mgn")])
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    (f,) = doc["files"]
    assert f["matches"] == []
    assert [(d["line"], d["code"], d["severity"]) for d in f["diagnostics"]] == [
        (0, "unreadable", "error")]


def test_missing_path_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nope.mgn")])
    assert result.exit_code == 2
    assert "unreadable" in result.stdout
    assert "Traceback" not in result.output


def test_bad_option_exits_2(runner: CliRunner, folder: Path) -> None:
    result = runner.invoke(app, ["check", "--format", "yaml", str(folder)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "yaml" in result.stderr


def test_stdin(runner: CliRunner) -> None:
    result = runner.invoke(app, ["check", "-"], input=PAGAT)
    assert result.exit_code == 0, result.output
    assert "1 match" in result.stdout


def test_table(runner: CliRunner, folder: Path) -> None:
    result = runner.invoke(app, ["check", "--format", "table", str(folder / "good.mgn")])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["file", "line", "players", "rules", "target", "rounds",
                                "scores", "winner", "errors"]
    assert "Ana 35, Budi 10" in lines[2]


def test_table_gives_the_target(runner: CliRunner, tmp_path: Path) -> None:
    """The score a match is played to, beside its rules: pagat's for two
    players (250, docs/rules.md) without a Target tag, else the tag's."""
    (tmp_path / "a.mgn").write_text(PAGAT)
    (tmp_path / "b.mgn").write_text(edit(PAGAT, '[Result "*"]', '[Target "150"]\n[Result "*"]'))
    result = runner.invoke(app, ["check", "--format", "table", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines()[2:4]]
    at = result.stdout.splitlines()[0].split().index("target")
    assert [row[at + 1] for row in rows] == ["250", "150"]  # "Ana, Budi" is two cells


def test_fail_on_warning(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "w.mgn").write_text(edit(PAGAT, '[Result "*"]', '[Result "Ana"]'))
    assert runner.invoke(app, ["check", str(tmp_path)]).exit_code == 0
    assert runner.invoke(app, ["check", "--fail-on", "warning", str(tmp_path)]).exit_code == 1
