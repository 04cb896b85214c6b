"""Analysing files: the check's report of each file, plus the analysis.

A file is read once, as text, because ``--annotate`` writes that text back
with the analysis added. The report is built exactly as
:func:`muggins_cli.check.check_file` builds it (same parser, same replay,
same rules resolver, same ``unreadable`` finding), then the analysis
findings are merged in, in line order; the tests hold the two to the same
diagnostics over the conformance corpus.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from functools import partial

from muggins_cli.analysis.match import MatchAnalysis, analyse_match
from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.analysis.weigh import Weigher, weigh_each
from muggins_cli.batch import Work, relabel_report
from muggins_cli.check import (
    STDIN,
    FileReport,
    not_checked,
    record_resolver,
    unaccepted,
    unreadable_diagnostic,
)
from muggins_cli.errors import InputError
from muggins_cli.notation.model import Match
from muggins_cli.notation.reading import iter_records, read_record_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.watch import Decisions


@dataclass
class FileAnalysis:
    """``report`` is what ``check`` reports for the file with the analysis
    findings merged in; ``matches`` and ``records`` run in step with
    ``report.matches``; ``text`` is None for a file that could not be read.
    ``read_as`` is the file's ``os.stat`` taken before its text was read, so
    that a rewrite can tell whether another program wrote it since."""

    report: FileReport
    matches: list[MatchAnalysis] = field(default_factory=list)
    records: list[Match] = field(default_factory=list)
    text: str | None = None
    read_as: os.stat_result | None = None


def split_lines(text: str) -> list[str]:
    """Physical lines as the parser numbers them: split on LF only (a CR
    before it stays on its line, as when a file is read line by line)."""
    return text.split("\n")


def analyse_text(path: str, text: str, weigh: WeighOptions | None = None,
                 weigher: Weigher = weigh_each) -> FileAnalysis:
    """Check and analyse the record ``text`` read from ``path`` (with
    ``weigh``, every turn weighed by the solver too, by ``weigher``)."""
    report = FileReport(path)
    out = FileAnalysis(report, text=text)
    resolve = record_resolver(path)
    try:
        for match in iter_records(split_lines(text), "<stdin>" if path == STDIN else path):
            # The solver's decisions come from the replay that checks the match.
            decided = Decisions() if weigh is not None else None
            replay = replay_match(match, resolve, *([decided] if decided is not None else []),
                                  collect_events=True)
            analysis = analyse_match(
                match, replay, resolve, weigh, weigher,
                decisions=decided.decisions() if decided is not None else None)
            report.matches.append(replay.summary)
            report.diagnostics.extend(unaccepted(match, sorted(
                [*replay.diagnostics, *analysis.findings], key=lambda d: (d.line, d.column))))
            out.matches.append(analysis)
            out.records.append(match)
    except InputError as e:  # no record in the text after all: as check reports it
        report = FileReport(path, unreadable=True)
        report.diagnostics.append(unreadable_diagnostic(e))
        return FileAnalysis(report)
    return out


def analyse_file(path: str, weigh: WeighOptions | None = None,
                 weigher: Weigher = weigh_each) -> FileAnalysis:
    """Check and analyse one file, keeping its text and parsed records (for
    ``--annotate``); never raises for what the file holds."""
    try:
        read_as: os.stat_result | None = os.stat(path) if path != STDIN else None
    except OSError:
        read_as = None  # reading says why
    try:
        text = read_record_text(path)
    except InputError as e:
        report = FileReport(path, unreadable=True)
        report.diagnostics.append(unreadable_diagnostic(e))
        return FileAnalysis(report)
    return replace(analyse_text(path, text, weigh, weigher), read_as=read_as)


def analyse_file_lean(path: str, weigh: WeighOptions | None = None,
                      weigher: Weigher = weigh_each) -> FileAnalysis:
    """:func:`analyse_file` without the text and records: what a report
    needs, and all that a worker process has to send back."""
    f = analyse_file(path, weigh, weigher)
    f.text = None
    f.records = []
    return f


def relabel_analysis(f: FileAnalysis, real: str, shown: str) -> FileAnalysis:
    """``f`` computed from the path ``real`` as if read as ``shown``."""
    if real == shown:
        return f
    return replace(f, report=relabel_report(f.report, real, shown))


def not_analysed(path: str, why: str) -> FileAnalysis:
    """A file whose analysis could not be done at all, reported as
    :func:`muggins_cli.check.not_checked` reports it."""
    return FileAnalysis(not_checked(path, why))


def analysis_work(*, annotate: bool = False, weigh: WeighOptions | None = None,
                  weigher: Weigher = weigh_each) -> Work[FileAnalysis]:
    """The analysis as batch work: for reports only, or keeping each file's
    text and records to write them back (``annotate``). ``weigh`` travels
    with it to worker processes and Dask; a ``weigher`` other than
    :func:`weigh_each` (one that spreads turns over processes itself) keeps
    the work in this process."""
    run = analyse_file if annotate else analyse_file_lean
    return Work(partial(run, weigh=weigh, weigher=weigher), relabel_analysis, not_analysed)
