"""The conformance corpus (tests/data/conformance): every clean and every
fault file, the check of its compare.py asserted file by file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from muggins_cli.check import FileReport
from muggins_cli.notation.model import Severity
from muggins_cli.report.json_report import match_json

from .conftest import CLEAN, FAULTS


def expected(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    return data


def test_corpus_is_not_empty() -> None:
    assert len(CLEAN) >= 100
    assert len(FAULTS) >= 95


@pytest.mark.parametrize("path", CLEAN, ids=[p.stem for p in CLEAN])
def test_clean(path: Path, checked: Callable[[Path], FileReport]) -> None:
    want = expected(path)
    report = checked(path)
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert errors == []
    got = [match_json(m) for m in report.matches]
    keys = ("scores", "winner", "rounds", "line", "players", "rules", "target")
    assert [{k: m[k] for k in keys} for m in got] == [
        {k: m[k] for k in keys} for m in want["matches"]  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize("path", FAULTS, ids=[p.stem for p in FAULTS])
def test_fault(path: Path, checked: Callable[[Path], FileReport]) -> None:
    first = expected(path)["first_error"]
    assert isinstance(first, dict)
    report = checked(path)
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert [d for d in errors if d.line < first["line"]] == []
    assert any(d.line == first["line"] and d.code == first["code"] for d in errors), errors
