"""``muggins rules``: the presets table, resolved YAML, and clean failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.rules import load_preset, preset_names, rules_from_mapping

runner = CliRunner()

TABLE = """\
name        spinner       modulus    round_end       muggins    targets
----------  ------------  ---------  --------------  ---------  ----------------------
all-threes  first-double  3          lightest-bonus  yes        2: 200, 3: 200, 4: 200
pagat       none          5          deduct-own      no         2: 250, 3: 200, 4: 200
spinner     first-double  5          lightest-bonus  yes        2: 200, 3: 200, 4: 200

default: pagat (a record without a Rules tag, a rules file without base, selfplay and arena without --rules)
"""


def test_lists_presets() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    assert result.stdout == TABLE
    assert result.stderr == ""


def test_the_default_named_is_the_one_used() -> None:
    """The preset the table names as the default is the one a record
    without a Rules tag is checked under, and the one selfplay plays."""
    named = runner.invoke(app, ["rules"]).stdout.splitlines()[-1].split()[1]
    record = '[Players "A, B"]\n[Result "*"]\nround 1\nlead A\n'
    checked = runner.invoke(app, ["check", "-", "--json"], input=record)
    assert json.loads(checked.stdout)["files"][0]["matches"][0]["rules"] == named
    played = runner.invoke(app, ["selfplay", "-q"])
    assert f'[Rules "{named}"]' in played.stdout


@pytest.mark.parametrize("name", ["pagat", "spinner", "all-threes"])
def test_preset_prints_yaml_that_loads_back(name: str) -> None:
    result = runner.invoke(app, ["rules", name])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert rules_from_mapping(yaml.safe_load(result.stdout), f"{name}.yaml") == load_preset(name)


def test_every_preset_is_listed() -> None:
    result = runner.invoke(app, ["rules"])
    table = result.stdout.split("\n\n", 1)[0]
    names = [line.split()[0] for line in table.splitlines()[2:]]
    assert names == preset_names()


def test_file_prints_resolved_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "club.yaml").write_text("base: spinner\ntarget: {2: 150}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["rules", "club.yaml"])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.stdout)
    assert data["name"] == "club"
    assert data["spinner"] == "first-double"
    assert data["target"] == {2: 150, 3: 200, 4: 200}
    assert "base" not in data


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "base: spinner\n\nmodulos: 3\n",
            "error: rules file bad.yaml: line 3: unknown field 'modulos' "
            "(did you mean 'modulus'?)\n",
            id="typo'd field",
        ),
        pytest.param(
            "target:\n  2: 100\n  3: abc\n",
            "error: rules file bad.yaml: line 3: field 'target.3' must be an integer, got 'abc'\n",
            id="wrong type",
        ),
        pytest.param(
            "modulus: [3\n",
            "error: rules file bad.yaml: line 2: invalid YAML: expected ',' or ']', "
            "but got '<stream end>'\n",
            id="YAML syntax",
        ),
        pytest.param(
            "hand_size: {3: 10}\n",
            "error: rules file bad.yaml: line 1: field 'hand_size.3': 3 players x 10 tiles "
            "= 30, more than the 28 tiles of the double-6 set\n",
            id="hands do not fit",
        ),
    ],
)
def test_bad_file_exits_2_with_one_line(
    text: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["rules", "bad.yaml"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == message
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param(
            "spinnr",
            "error: unknown rules 'spinnr': no such preset (did you mean 'spinner'?) or file\n",
            id="unknown preset",
        ),
        pytest.param(
            "missing.yaml", "error: rules file missing.yaml: no such file\n", id="missing file"
        ),
    ],
)
def test_bad_name_exits_2(
    spec: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["rules", spec])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == message


def test_help_teaches() -> None:
    result = runner.invoke(app, ["rules", "--help"])
    assert result.exit_code == 0, result.output
    for phrase in ("NAME|FILE", "base: spinner", "muggins rules spinner > my.yaml", "[Rules"):
        assert phrase in result.stdout


def test_listed_in_main_help() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0, result.output
    assert "rules" in result.stdout
