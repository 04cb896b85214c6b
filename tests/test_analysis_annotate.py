"""Annotated records: glyphs and notes where points were missed, the rest of
the text untouched, and the result reads back as the same record plus the
annotations, which ``check`` accepts."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from muggins_cli.analysis import (
    AnnotateError,
    FileAnalysis,
    Thresholds,
    analyse_text,
    annotate_match,
    annotate_text,
    marks_for,
)
from muggins_cli.check import FileReport, check_file
from muggins_cli.notation.model import BodyLine, Match, Placement, Turn
from muggins_cli.notation.parser import parse_text

from .conftest import CLEAN
from .test_analysis import PAGAT

PAGAT_ANNOTATED = PAGAT.replace(
    "Ana: 6-6             #", "Ana: 6-6? {4-1 would have scored 5}             #").replace(
    "Ana: 4-1L            #", "Ana: 4-1L?? {4-4L would have scored 20}            #").replace(
    "Budi: 2-1L           #", "Budi: 2-1L?? {2-3L would have scored 15}           #")


def strip(m: Match) -> Match:
    """A match without glyphs or notes: what annotating must not change."""
    body: list[BodyLine] = []
    for item in m.body:
        if isinstance(item, Turn):
            action = item.action
            if isinstance(action, Placement):
                action = dataclasses.replace(action, glyph=None)
            body.append(item.changed(action=action, notes=()))
        else:
            body.append(dataclasses.replace(item, notes=()))
    return dataclasses.replace(m, body=tuple(body), notes=())


def annotated(text: str, thresholds: Thresholds | None = None) -> tuple[str, int]:
    f = analyse_text("hand.mgn", text)
    return annotate_text(text, f.records, f.matches, thresholds or Thresholds())


def test_glyphs_and_notes_by_default_thresholds() -> None:
    out, marked = annotated(PAGAT)
    assert out == PAGAT_ANNOTATED
    assert marked == 3


def test_thresholds_are_configurable() -> None:
    out, _ = annotated(PAGAT, Thresholds(mistake=10, blunder=20))
    assert "Ana: 6-6 {4-1 would have scored 5}" in out  # 5 missed: a note, no glyph
    assert "Ana: 4-1L?? {" in out                        # 20 missed
    assert "Budi: 2-1L? {" in out                        # 15 missed


@pytest.mark.parametrize(("mistake", "blunder"), [(0, 15), (10, 5)])
def test_bad_thresholds_are_refused(mistake: int, blunder: int) -> None:
    with pytest.raises(AnnotateError):
        Thresholds(mistake, blunder)


def test_annotating_twice_changes_nothing() -> None:
    once, _ = annotated(PAGAT)
    twice, marked = annotated(once)
    assert twice == once and marked == 0


def test_user_glyphs_and_notes_are_kept() -> None:
    text = PAGAT.replace("Ana: 4-1L            #", "Ana: 4-1L!? +0 {my idea} #")
    out, _ = annotated(text)
    assert "Ana: 4-1L!? +0 {4-4L would have scored 20} {my idea} #" in out


def test_crlf_and_claims_survive() -> None:
    text = PAGAT.replace("Budi: 2-1L           #", "Budi: 2-1L +0 #").replace("\n", "\r\n")
    out, _ = annotated(text)
    assert "Budi: 2-1L?? +0 {2-3L would have scored 15} #" in out
    assert out.count("\r\n") == text.count("\r\n")


def test_reads_back_as_the_same_record_plus_annotations() -> None:
    f = analyse_text("hand.mgn", PAGAT)
    out, _ = annotate_text(PAGAT, f.records, f.matches, Thresholds())
    back = parse_text(out)
    marks = [mk for m, a in zip(f.records, f.matches) for mk in marks_for(m, a, Thresholds())]
    assert back == [annotate_match(m, marks) for m in f.records]
    assert [strip(m) for m in back] == [strip(m) for m in f.records]


@pytest.mark.parametrize("paths", [
    # Every other file (the ones the quick analysis test reads too, whose
    # analyses the session keeps); the rest with -m slow.
    pytest.param(CLEAN[::2], id="quick"),
    pytest.param(CLEAN[1::2], id="thorough", marks=pytest.mark.slow),
])
def test_annotated_corpus_round_trips_and_checks_clean(
        tmp_path: Path, checked: Callable[[Path], FileReport],
        analysed: Callable[[Path], FileAnalysis], paths: list[Path]) -> None:
    marked_total = 0
    for path in paths:
        f = analysed(path)
        assert f.text is not None
        out, marked = annotate_text(f.text, f.records, f.matches, Thresholds())
        marked_total += marked
        back = parse_text(out)
        assert [strip(m) for m in back] == [strip(m) for m in f.records], path
        target = tmp_path / path.name
        target.write_bytes(out.encode("utf-8"))
        report = check_file(str(target))
        assert report.errors == 0, (path, report.diagnostics[:3])
        assert report.matches == checked(path).matches
        # The annotated file reads back as the same record (above), so its
        # analysis is this one: one mark for each missed score, no more.
        assert sum(d.code == "missed-score" for d in f.report.diagnostics) == marked, path
    assert marked_total > 0


def test_a_close_or_uncertain_turns_note_says_so_and_is_the_tools_own() -> None:
    """The note on a turn known to lie near the mistake line (or not
    settled) carries the verdict's words, no glyph; re-annotating knows it
    for the tool's own note, as it knows the older notes without words."""
    from muggins_cli.analysis.annotate import is_tool_note, solver_note, verdict_glyph
    from muggins_cli.analysis.weigh import Weighed

    def weighed(verdict: str) -> Weighed:
        return Weighed(1, 1, 9, 1, 0, "Ana", "1-2R", 3, -4.6, "3-6R", 0.0, None, False, 400,
                       error=0.8, verdict=verdict)

    close, unsure, fine = weighed("close"), weighed("uncertain"), weighed("fine")
    assert solver_note(close) == ("3-6R was 4.6 ± 0.8 points better by the end of the round: "
                                  "close to the mistake line")
    assert solver_note(unsure).endswith("the round: uncertain")
    assert solver_note(fine) == "3-6R was 4.6 ± 0.8 points better by the end of the round"
    assert all(is_tool_note(solver_note(w)) for w in (close, unsure, fine))
    assert not is_tool_note("3-6R was 4.6 ± 0.8 points better by the end of the round: "
                            "a slip")
    assert verdict_glyph("close") is None and verdict_glyph("uncertain") is None
