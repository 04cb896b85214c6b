"""docs/diagnostics.md, ``muggins explain`` and the codes the checker emits
stay in step.

Three lists must agree: the codes the source can emit (read from the source
itself, every call that builds a diagnostic), the entries of the page, and
what the checker really reports for each entry's example record, run with
the entry's own command. A code emitted but not documented, or documented but
never emitted, fails; so does an example whose output drifted from the page.
The page ships with the package for ``explain``; its copy there must be the
same bytes.
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.report.explain import Entry, entries, parse_page

from .conftest import DOCS, REPO

PAGE = DOCS / "diagnostics.md"
SHIPPED = REPO / "src" / "muggins_cli" / "docs" / "diagnostics.md"
DOCUMENTED = parse_page(PAGE.read_text(encoding="utf-8"))
FINDING = re.compile(r"^(?P<path>[^:\s]+):(?P<line>\d+):(?P<column>\d+): "
                     r"(?P<severity>error|warning|info) (?P<code>[a-z-]+) ")
runner = CliRunner()


# -- the codes the source can emit ----------------------------------------------

_CODE = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
# Callables that build a diagnostic, and the position of the code among
# their arguments: Diagnostic(line, column, severity, code, message),
# Diagnostic.error / Replay.error / Replay.warn / Parser._diag(line, column, code, ...).
_BUILDERS = {"Diagnostic": 3, "error": 2, "warn": 2, "_diag": 2}


def _strings(node: ast.expr, constants: dict[str, str]) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Name) and node.id in constants:
        yield constants[node.id]
    elif isinstance(node, ast.IfExp):
        yield from _strings(node.body, constants)
        yield from _strings(node.orelse, constants)


def codes_in_source() -> dict[str, set[str]]:
    """Every code literal (or module constant) passed as the code of a
    diagnostic anywhere in the package, with the modules that pass it."""
    found: dict[str, set[str]] = {}
    for path in sorted((REPO / "src" / "muggins_cli").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {target.id: node.value.value for node in ast.walk(tree)
                     if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                     and isinstance(node.value.value, str)
                     for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            if name not in _BUILDERS:
                continue
            args = [k.value for k in node.keywords if k.arg == "code"]
            if len(node.args) > _BUILDERS[name]:
                args.append(node.args[_BUILDERS[name]])
            for arg in args:
                for value in _strings(arg, constants):
                    if _CODE.match(value):
                        found.setdefault(value, set()).add(path.name)
    return found


def test_every_code_the_source_emits_is_documented_and_no_other() -> None:
    emitted = codes_in_source()
    assert len(emitted) >= 25, emitted  # the scan itself still finds the builders
    undocumented = sorted(set(emitted) - set(DOCUMENTED))
    never_emitted = sorted(set(DOCUMENTED) - set(emitted))
    assert undocumented == [], f"emitted but not in docs/diagnostics.md: {undocumented}"
    assert never_emitted == [], f"documented but emitted nowhere: {never_emitted}"


def test_the_codes_of_mgn_1_are_all_there() -> None:
    """The 25 stable codes of MGN 1 (docs/notation.md section 8), by hand."""
    mgn1 = {
        "unreadable", "syntax", "bad-header", "unknown-player", "bad-round", "bad-deal",
        "wrong-leader", "out-of-turn", "not-in-hand", "does-not-fit", "ambiguous-end",
        "bad-end", "illegal-draw", "drawn-tile-not-played", "illegal-pass", "after-round-end",
        "after-match-end", "score-mismatch", "total-mismatch", "reveal-mismatch",
        "result-mismatch", "muggins-invalid", "unfinished", "missed-score", "unverified",
    }
    assert set(DOCUMENTED) == mgn1 | {"unclaimed", "costly-play", "not-checked"}


def test_notation_section_8_lists_the_same_codes_and_severities() -> None:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    section = text.split("## 8. Diagnostics", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| (error|warning|info) \|", section, re.MULTILINE)
    assert rows == [(e.code, e.severity) for e in DOCUMENTED.values()]


def test_the_index_table_lists_every_entry_in_order() -> None:
    head = PAGE.read_text(encoding="utf-8").split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| (error|warning|info) \|", head, re.MULTILINE)
    assert rows == [(e.code, e.severity) for e in DOCUMENTED.values()]


# -- each example produces exactly its code ------------------------------------


#: Codes whose command needs a Dask cluster: their output is produced for
#: real, by a scheduler and workers, in tests/test_batch_cluster.py; here the
#: page's line is held to the report that code builds.
CLUSTER = {"not-checked"}


def test_the_cluster_entry_shows_the_line_its_report_prints() -> None:
    from muggins_cli.check import not_checked
    from muggins_cli.report.text import diagnostic_line

    entry = DOCUMENTED["not-checked"]
    assert "--scheduler" in entry.command
    path, _, rest = entry.output[0].partition(":0:0: error not-checked ")
    report = not_checked(path, rest)
    assert [diagnostic_line(path, d) for d in report.diagnostics] == list(entry.output)
    assert report.unreadable  # exit status 2, as the entry says


@pytest.mark.parametrize("entry", [e for e in DOCUMENTED.values() if e.code not in CLUSTER],
                         ids=[c for c in DOCUMENTED if c not in CLUSTER])
def test_example_produces_exactly_its_code(entry: Entry, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if entry.example is not None:
        (tmp_path / "example.mgn").write_text(entry.example, encoding="utf-8")
    argv = shlex.split(entry.command)
    assert argv[0] == "muggins", entry.command
    result = runner.invoke(app, argv[1:])
    assert "Traceback" not in result.output
    findings = [line for line in result.stdout.splitlines() if FINDING.match(line)]
    codes = {m["code"] for m in map(FINDING.match, findings) if m}
    assert codes == {entry.code}, result.stdout
    severities = {m["severity"] for m in map(FINDING.match, findings) if m}
    assert severities == {entry.severity}
    # The page shows what the command prints, finding for finding.
    assert findings == list(entry.output), result.stdout
    want_status = {"error": 1, "warning": 0, "info": 0}[entry.severity]
    if entry.code == "unreadable":
        want_status = 2  # the input could not be read at all
    assert result.exit_code == want_status, result.output


# -- the page as shipped, and explain ------------------------------------------


def test_the_package_ships_the_page_unchanged() -> None:
    assert SHIPPED.read_bytes() == PAGE.read_bytes(), (
        "docs/diagnostics.md changed: copy it to src/muggins_cli/docs/diagnostics.md")
    assert entries() == DOCUMENTED


def test_package_data_names_the_page() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"docs/*.md"' in pyproject.split("[tool.setuptools.package-data]", 1)[1]


def _section(code: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"## `{code}`\n")
    end = text.find("\n## ", start + 1)
    return (text[start:] if end < 0 else text[start:end]).rstrip("\n") + "\n"


def test_explain_prints_the_entry_of_the_page() -> None:
    result = runner.invoke(app, ["explain", "illegal-draw"])
    assert result.exit_code == 0, result.output
    assert result.stdout == _section("illegal-draw")
    assert result.stdout.startswith("## `illegal-draw`\n\nSeverity: error\n")
    assert "Ana: d0-2 5-5" in result.stdout


def test_explain_of_the_last_entry_ends_where_the_page_does() -> None:
    last = list(DOCUMENTED)[-1]
    result = runner.invoke(app, ["explain", last])
    assert result.stdout == _section(last)
    assert PAGE.read_text(encoding="utf-8").endswith(result.stdout)


def test_explain_lists_every_code_with_its_severity() -> None:
    result = runner.invoke(app, ["explain"])
    assert result.exit_code == 0, result.output
    rows = [line.split()[:2] for line in result.stdout.splitlines()[2:]]
    assert rows == [[e.code, e.severity] for e in DOCUMENTED.values()]
    assert "A draw the rules do not allow." in result.stdout


@pytest.mark.parametrize(("code", "message"), [
    ("ilegal-draw", "muggins explain: no diagnostic code 'ilegal-draw' "
                    "(did you mean illegal-draw? `muggins explain` lists them)\n"),
    ("E501", "muggins explain: no diagnostic code 'E501' (`muggins explain` lists them)\n"),
])
def test_unknown_code_is_one_line_and_exit_2(code: str, message: str) -> None:
    result = runner.invoke(app, ["explain", code])
    assert result.exit_code == 2
    assert result.stderr == message
    assert result.stdout == ""
