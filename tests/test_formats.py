"""--format github and --format junit on a small record, exactly."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import FileReport
from muggins_cli.cli import app
from muggins_cli.notation.model import Diagnostic, Severity
from muggins_cli.replay.values import MatchSummary
from muggins_cli.report import github, junit
from muggins_cli.report.json_report import Totals

from .records import CLUB, THREES

runner = CliRunner()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "club.mgn").write_text(CLUB, encoding="utf-8")
    (tmp_path / "clean.mgn").write_text(THREES, encoding="utf-8")
    (tmp_path / "broken.mgn").write_bytes(b"[Event \"x\"]\n\xff\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- github -------------------------------------------------------------------


def test_github_annotations_exactly(folder: Path) -> None:
    result = runner.invoke(app, ["check", "club.mgn", "clean.mgn", "--format", "github"])
    assert result.exit_code == 1, result.output
    assert result.stdout == (
        "::error file=club.mgn,line=14,col=11,title=score-mismatch::"
        "Ana claims 15; 4-4 scores 20 (the open ends add up to 20)\n"
        "::warning file=club.mgn,line=21,col=1,title=unfinished::"
        "the record ends inside round 1 before anyone reached 20; "
        "write [Result \"*\"] for an unfinished match\n"
    )
    # The closing line, on stderr: stdout holds the annotations alone.
    assert result.stderr == ("checked 2 files, 3 matches: 1 error, 1 warning; exit status 1: "
                             "errors found\n")


def test_github_unreadable_file_has_no_line(folder: Path) -> None:
    result = runner.invoke(app, ["check", "broken.mgn", "--format", "github", "-q"])
    assert result.exit_code == 2
    assert result.stdout == ("::error file=broken.mgn,title=unreadable::"
                             "cannot read broken.mgn: not UTF-8 text (line 2, byte 1)\n")


def test_github_escaping() -> None:
    assert github.escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    d = Diagnostic(3, 0, Severity.INFO, "unverified", "hidden\nhand")
    assert github.diagnostic_command("dir,x/a:b.mgn", d) == (
        "::notice file=dir%2Cx/a%3Ab.mgn,line=3,title=unverified::hidden%0Ahand")


# -- junit --------------------------------------------------------------------


def test_junit_structure(folder: Path) -> None:
    result = runner.invoke(app, ["check", ".", "--format", "junit", "-q"])
    assert result.exit_code == 2  # broken.mgn
    root = ET.fromstring(result.stdout_bytes)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["broken.mgn", "clean.mgn", "club.mgn"]
    counts = [(s.get("tests"), s.get("failures"), s.get("errors")) for s in suites]
    assert counts == [("1", "1", "0"), ("1", "0", "0"), ("2", "1", "0")]

    broken, clean, club = suites
    (case,) = broken.findall("testcase")
    assert (case.get("classname"), case.get("name")) == ("broken.mgn", "read")
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "unreadable"

    (case,) = clean.findall("testcase")
    assert case.get("name") == "line 1: Chen, Dara, Eko"
    assert list(case) == []

    first, second = club.findall("testcase")
    assert [c.get("classname") for c in (first, second)] == ["club.mgn", "club.mgn"]
    assert [c.get("name") for c in (first, second)] == ["line 1: Ana, Budi",
                                                         "line 17: Ana, Budi"]
    failure = first.find("failure")
    assert failure is not None
    assert failure.get("type") == "score-mismatch"
    assert failure.get("message") == "Ana claims 15; 4-4 scores 20 (the open ends add up to 20)"
    assert failure.text == ("14:11: error score-mismatch Ana claims 15; 4-4 scores 20 "
                            "(the open ends add up to 20)")
    assert second.find("failure") is None
    out = second.find("system-out")
    assert out is not None and out.text is not None
    assert out.text.startswith("21:1: warning unfinished the record ends inside round 1")


def test_junit_exactly_on_a_clean_record(folder: Path) -> None:
    result = runner.invoke(app, ["check", "clean.mgn", "--format", "junit"])
    assert result.exit_code == 0
    assert result.stdout == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="muggins check">\n'
        '  <testsuite name="clean.mgn" tests="1" failures="0" errors="0" skipped="0">\n'
        '    <testcase classname="clean.mgn" name="line 1: Chen, Dara, Eko"/>\n'
        "  </testsuite>\n"
        "</testsuites>\n"
    )


def test_junit_stays_valid_xml_whatever_the_text() -> None:
    nasty = 'a <b> & "c" ]]> \x01\x1b é 名 \U0001f600 \ud800 \n next'
    report = FileReport(
        path='odd "name" & <x>.mgn',
        matches=[MatchSummary(1, ["Zoë", "名"], "pagat", 250, 1, {}, None)],
        diagnostics=[Diagnostic(2, 3, Severity.ERROR, "syntax", nasty),
                     Diagnostic(4, 1, Severity.INFO, "unverified", nasty)],
    )
    text = junit.file_suite(report)
    assert text.isascii()
    suite = ET.fromstring(text)
    case = suite.find("testcase")
    assert case is not None
    assert case.get("classname") == 'odd "name" & <x>.mgn'
    assert case.get("name") == "line 1: Zoë, 名"
    failure = case.find("failure")
    assert failure is not None
    assert failure.get("message") == ('a <b> & "c" ]]> \ufffd\ufffd é 名 \U0001f600 \ufffd \n'
                                      " next")


def test_junit_file_without_matches() -> None:
    empty = junit.file_suite(FileReport("empty.mgn"))
    assert empty == ('  <testsuite name="empty.mgn" tests="0" failures="0" errors="0" '
                     'skipped="0"/>\n')
    only = FileReport("junk.mgn", diagnostics=[Diagnostic(1, 1, Severity.ERROR, "syntax", "x")])
    case = ET.fromstring(junit.file_suite(only)).find("testcase")
    assert case is not None and case.get("name") == "file"
    assert case.find("failure") is not None


def test_totals_are_counted_for_the_exit_status() -> None:
    totals = Totals()
    junit.write_junit([FileReport("a.mgn", unreadable=True)], io.StringIO(), totals)
    github.write_github([FileReport("b.mgn")], io.StringIO(), totals)
    assert (totals.files, totals.unreadable) == (2, 1)
