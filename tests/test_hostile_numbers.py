"""Numbers from a record, a rules file or the command line are bounded where
they are read, and a number past its bound is a finding or one line naming
the bound, never a traceback: Python refuses to turn a string of more than
4,300 digits into an int, and the compiled searches hold a score in 64 bits.
Every record number is at most 999,999,999 (nine digits, as
docs/notation.md says)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import check_file
from muggins_cli.cli import app
from tests.records import CLUB_FIRST

runner = CliRunner()

HUGE = "9" * 5000


def _record(tmp_path: Path, name: str, target: str) -> Path:
    path = tmp_path / name
    path.write_text(CLUB_FIRST.replace('[Target "20"]', f'[Target "{target}"]'),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("target", [HUGE, str(2**64), "1000000000", "²", "٣"])
def test_a_target_past_the_bound_is_a_bad_header_naming_it(tmp_path: Path,
                                                            target: str) -> None:
    report = check_file(str(_record(tmp_path, "t.mgn", target)))
    found = [(d.line, d.code) for d in report.diagnostics if d.code == "bad-header"]
    assert found == [(4, "bad-header")]
    (diag,) = [d for d in report.diagnostics if d.code == "bad-header"]
    assert "from 1 to 999,999,999" in diag.message
    assert len(diag.message) < 200


def test_the_largest_target_is_read(tmp_path: Path) -> None:
    report = check_file(str(_record(tmp_path, "t.mgn", "999999999")))
    assert not [d for d in report.diagnostics if d.code == "bad-header"]


def test_a_huge_target_loses_no_other_file(tmp_path: Path) -> None:
    good = tmp_path / "base.mgn"
    good.write_text(CLUB_FIRST, encoding="utf-8")
    bad = _record(tmp_path, "b01.mgn", HUGE)
    result = runner.invoke(app, ["check", "-q", str(good), str(bad), str(tmp_path / "miss.mgn")])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{bad}:4:1: error bad-header" in result.stdout
    assert f"{good}:14:" in result.stdout  # base.mgn's own finding is kept
    assert "miss.mgn:0:0: error unreadable" in result.output


@pytest.mark.parametrize("command", ["replay", "solve"])
@pytest.mark.parametrize("at", [f"{HUGE}.1", f"1.{HUGE}", "1000000000.1"])
def test_at_past_the_bound_is_one_line(tmp_path: Path, command: str, at: str) -> None:
    path = tmp_path / "a.mgn"
    path.write_text(CLUB_FIRST, encoding="utf-8")
    result = runner.invoke(app, [command, str(path), "--at", at])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert "from 1 to 999,999,999" in lines[0]
    assert len(lines[0]) < 200


# -- rules files ----------------------------------------------------------------


@pytest.mark.parametrize("field", ["target: {2: %s}", "modulus: %s", "round_to: %s",
                                   "bonus_divisor: %s", "hand_size: {2: %s}",
                                   "stock_reserve: %s"])
@pytest.mark.parametrize("value", [10**9, 10**30])
def test_a_rules_number_past_the_bound_is_one_line_naming_it(tmp_path: Path, field: str,
                                                             value: int) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("base: pagat\n" + field % value + "\n", encoding="utf-8")
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert "999,999,999" in line, line
    assert "line 2" in line


def test_a_record_naming_rules_with_a_huge_target_is_a_bad_header(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text(f"base: pagat\ntarget: {{2: {10**30}}}\n",
                                       encoding="utf-8")
    path = tmp_path / "r.mgn"
    path.write_text(CLUB_FIRST.replace('[Rules "pagat"]', '[Rules "big.yaml"]')
                    .replace('[Target "20"]\n', ""), encoding="utf-8")
    report = check_file(str(path))
    (diag,) = [d for d in report.diagnostics if d.code == "bad-header"]
    assert "999,999,999" in diag.message
