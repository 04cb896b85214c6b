"""A tag given twice: one ``bad-header`` finding at the second tag, for
every tag as for ``Players``; the first value stays the one read, so a
second ``[Result "Chen"]`` after ``[Result "Eko"]`` in a match Eko wins is
that finding alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.notation.parser import parse_text
from tests.records import THREES

#: THREES's tags, in order, one to a line (its line numbers are these + 1).
TAGS = ["Event", "Players", "Rules", "Target", "Result"]
SECOND = {"Event": '"Club night"', "Players": '"Chen, Dara"', "Rules": '"pagat"',
          "Target": '"250"', "Result": '"Chen"', "Annotator": '"Budi"'}


def _with(tag: str, times: int) -> str:
    """THREES with ``tag`` given ``times`` more times after its tags (a
    tag THREES lacks the first time among them)."""
    head, body = THREES.split("\n\n", 1)
    extra = [f"[{tag} {SECOND[tag]}]"] * times
    if tag not in TAGS:
        extra = [f'[{tag} "Ana"]', *extra]
    return "\n".join([head, *extra]) + "\n\n" + body


@pytest.mark.parametrize("tag", [*TAGS, "Annotator"])
def test_a_second_tag_is_one_finding_and_the_first_is_read(tag: str) -> None:
    (match,) = parse_text(_with(tag, 1))
    second = len(TAGS) + (2 if tag not in TAGS else 1)
    assert [(d.line, d.column, d.code, d.message) for d in match.diagnostics] == [
        (second, 1, "bad-header", f"a second {tag} tag")]
    first = dict((t.name, t.value) for t in parse_text(THREES)[0].tags).get(tag, "Ana")
    assert match.tag(tag) == first


def test_each_tag_after_the_first_is_a_finding() -> None:
    (match,) = parse_text(_with("Result", 2))
    assert [(d.line, d.code) for d in match.diagnostics] == [(6, "bad-header"),
                                                            (7, "bad-header")]


@pytest.mark.parametrize("tag", TAGS)
def test_check_reports_the_second_tag_alone(tag: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay reads the first value: no finding of the second's (a
    result, a target, rules or players it does not match)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.mgn").write_text(_with(tag, 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "-q", "r.mgn"])
    assert result.stdout.splitlines() == [
        f"r.mgn:{len(TAGS) + 1}:1: error bad-header a second {tag} tag"]
    assert result.exit_code == 1
