"""MGN takes LF or CRLF line ends; a file whose lines end in CR alone (as
old Mac OS wrote text) is ``unreadable`` and the reason says so, whatever
its first line holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from tests.records import CLUB_FIRST, THREES

REASON = "its line ends are CR alone (MGN takes LF or CRLF line ends)"


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str,
           *args: str) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.mgn").write_bytes(text.encode("utf-8"))
    result = CliRunner().invoke(app, [*args, "r.mgn"])
    return result.exit_code, result.stdout + result.stderr


@pytest.mark.parametrize("text", [THREES, "# kept on a Mac\n" + THREES])
def test_cr_only_line_ends_are_said(text: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = _check(tmp_path, monkeypatch, text.replace("\n", "\r"), "check", "-q")
    assert status == 2
    assert out == f"r.mgn:0:0: error unreadable cannot read r.mgn: {REASON}\n"


def test_fmt_says_it_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = _check(tmp_path, monkeypatch, THREES.replace("\n", "\r"), "fmt", "--check")
    assert status == 2
    assert out == f"r.mgn:0:0: error unreadable cannot read r.mgn: {REASON}\n"


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_lf_and_crlf_read_alike(end: str, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = _check(tmp_path, monkeypatch, CLUB_FIRST.replace("\n", end), "check", "-q")
    assert status == 1
    assert out.splitlines() == [
        "r.mgn:14:11: error score-mismatch Ana claims 15; 4-4 scores 20 (the open ends add "
        "up to 20)"]
