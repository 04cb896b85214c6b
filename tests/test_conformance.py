"""The shared conformance corpus: every clean and every fault file.

Runs wherever ../shared/conformance exists (CI always has it); the same
check as ../shared/conformance/compare.py, asserted file by file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from muggins_cli.check import check_file
from muggins_cli.notation.model import Severity
from muggins_cli.report.json_report import match_json

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "conformance"
CLEAN = sorted((CORPUS / "clean").glob("*.mgn"))
FAULTS = sorted((CORPUS / "faults").glob("*.mgn"))

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")


def expected(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    return data


def test_corpus_is_not_empty() -> None:
    assert len(CLEAN) >= 100
    assert len(FAULTS) >= 95


@pytest.mark.parametrize("path", CLEAN, ids=[p.stem for p in CLEAN])
def test_clean(path: Path) -> None:
    want = expected(path)
    report = check_file(str(path))
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert errors == []
    got = [match_json(m) for m in report.matches]
    keys = ("scores", "winner", "rounds", "line", "players", "rules", "target")
    assert [{k: m[k] for k in keys} for m in got] == [
        {k: m[k] for k in keys} for m in want["matches"]  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize("path", FAULTS, ids=[p.stem for p in FAULTS])
def test_fault(path: Path) -> None:
    first = expected(path)["first_error"]
    assert isinstance(first, dict)
    report = check_file(str(path))
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert [d for d in errors if d.line < first["line"]] == []
    assert any(d.line == first["line"] and d.code == first["code"] for d in errors), errors
