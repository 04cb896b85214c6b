"""Checking files: paths → parsed matches → replays → one report per file.

This is the service that ``check``, ``analyze``, ``stats`` and the batch
runners share: it expands the paths a user gave, reads each file as a stream
of matches, replays each match with its own rules and gathers the findings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from muggins_cli.errors import InputError
from muggins_cli.notation.model import Diagnostic, Match, Severity
from muggins_cli.notation.reading import iter_records, open_record
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.setup import RulesResolver
from muggins_cli.replay.values import MatchReplay, MatchSummary
from muggins_cli.rules.resolve import resolver_for

STDIN = "-"
NOT_CHECKED = "not-checked"
"""The code (this project's, beside docs/notation.md 8) of a file that could
not be checked at all: its task kept failing on a Dask cluster."""


@dataclass
class FileReport:
    """Everything found in one file; ``replays`` only when asked for."""

    path: str
    matches: list[MatchSummary] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    replays: list[MatchReplay] = field(default_factory=list)
    unreadable: bool = False

    def count(self, severity: Severity) -> int:
        return sum(d.severity is severity for d in self.diagnostics)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self.count(Severity.WARNING)


#: Whether to keep a file found below a folder given: ``keep(folder, file)``.
Keep = Callable[[str, str], bool]


def expand_paths(paths: Iterable[str], keep: Keep | None = None) -> Iterator[str]:
    """Files as given, folders as every ``*.mgn`` below them (sorted, see
    :func:`records_below`) that ``keep`` keeps (all without it), ``-`` as
    stdin. A path that does not exist is passed on: reading it reports it
    as unreadable, in order, like any other file that cannot be read. A
    file named is always read."""
    for p in paths:
        if p != STDIN and os.path.isdir(p):
            if keep is None:
                yield from sorted(records_below(p))
            else:
                # A folder the filter leaves out (.git, a hidden or ignored
                # one) is not entered: all it holds would be left out too.
                found = sorted(records_below(p, partial(keep, p)))
                yield from (f for f in found if keep(p, f))
        else:
            yield p


def records_below(folder: str, enter: Callable[[str], bool] | None = None) -> Iterator[str]:
    """Every path below ``folder`` named ``*.mgn`` that is not a folder, and
    every folder below it (``folder`` included) that cannot be listed, in
    no order. Folders are entered, links to folders are not (a link back
    up would never end).

    Nothing is passed over in silence and nothing stops the walk: a
    folder that cannot be listed (no read permission, a path past the
    system's limit) is given as it is, and an entry whose kind cannot be
    learnt (a folder that may be listed but not searched, ``chmod 444``)
    is given when its name is a record's; reading either reports it as
    ``unreadable`` with the system's reason, in its place among the rest.
    Everything named ``*.mgn`` but a folder (a link that leads nowhere or
    to itself, a pipe, a device) is given too, for the same reason. A
    folder below for which ``enter`` says no is not walked."""
    waiting = [str(Path(folder))]  # as Path.rglob named them: "./a" is "a"
    while waiting:
        here = waiting.pop()
        try:
            with os.scandir(here) as listing:
                entries = [(e.name, e) for e in listing]
        except OSError:
            yield here
            continue
        for name, entry in entries:
            path = str(Path(here, name))
            try:
                inside = entry.is_dir(follow_symlinks=False)
            except OSError:
                inside = False
            if inside and (enter is None or enter(path)):
                waiting.append(path)
            if not name.endswith(".mgn"):
                continue
            try:
                folder_too = entry.is_dir()
            except OSError:
                folder_too = False  # reading it says what it is
            if not folder_too:
                yield path


def check_file(path: str, *, keep_replays: bool = False, events: bool = False) -> FileReport:
    """Replay every match of one file; never raises for what the file holds."""
    report = FileReport(path)
    try:
        for match, replay in iter_replays(path, events=events):
            report.matches.append(replay.summary)
            report.diagnostics.extend(unaccepted(match, replay.diagnostics))
            if keep_replays:
                report.replays.append(replay)
    except InputError as e:
        # A file that turns out not to be text is reported as unreadable as a
        # whole, even if its start parsed, so that half a file is never
        # mistaken for a record.
        report.matches.clear()
        report.replays.clear()
        report.diagnostics[:] = [unreadable_diagnostic(e)]
        report.unreadable = True
    return report


def iter_replays(path: str, *, events: bool = False) -> Iterator[tuple[Match, MatchReplay]]:
    """Each match of one file with its replay, as the file is read, for
    callers that fold a file into something small (``stats``) instead of
    keeping a :class:`FileReport`. Raises :class:`InputError` when the file
    cannot be read, also part-way: the caller should then drop what it took."""
    return replay_lines(open_record(path), path, events=events)


def record_resolver(path: str) -> RulesResolver:
    """How a record read from ``path`` finds the rules its ``Rules`` tag
    names: presets, or files beside the record (none for standard input)."""
    return resolver_for(None if path == STDIN else path)


def replay_lines(lines: Iterable[str], path: str, *,
                 events: bool = False) -> Iterator[tuple[Match, MatchReplay]]:
    """Replay the matches in ``lines``, read from ``path`` (which decides
    where the record's own rules files may be)."""
    resolve = record_resolver(path)
    for match in iter_records(lines, "<stdin>" if path == STDIN else path):
        yield match, replay_match(match, resolve, collect_events=events)


def unreadable_diagnostic(error: InputError) -> Diagnostic:
    """The one finding for a file that cannot be read (as :func:`check_file`
    reports it)."""
    return Diagnostic(0, 0, Severity.ERROR, "unreadable", str(error))


def not_checked(path: str, why: str) -> FileReport:
    """The report of a file whose checking could not be done (``why``):
    no matches and one error on line 0, counted and exiting (2) as an
    unreadable file is, since nothing in it was checked."""
    return FileReport(path, diagnostics=[Diagnostic(0, 0, Severity.ERROR, NOT_CHECKED, why)],
                      unreadable=True)


# ---------------------------------------------------------------------------
# Which findings a report shows

#: ``muggins: ignore[CODE, ...]`` in a comment (docs/notation.md 1, an
#: addition to MGN): whoever keeps the record accepts those findings on the
#: line the comment is on, or on the line below a comment on a line of its own.
ACCEPT = re.compile(r"\bmuggins:\s*ignore\[\s*([a-z]+(?:-[a-z]+)*(?:\s*,\s*[a-z]+(?:-[a-z]+)*)*)"
                    r"\s*\]")


def accepted(match: Match) -> dict[int, frozenset[str]]:
    """The codes the comments of ``match`` accept, by line: a tag's or body
    line's own comment and those on lines of their own just above it."""
    found: dict[int, set[str]] = {}
    for item in (*match.tags, *match.body):
        comments = item.comments
        for comment in (*comments.before, *((comments.end,) if comments.end else ())):
            for m in ACCEPT.finditer(comment.text):
                found.setdefault(item.line, set()).update(c.strip() for c in m[1].split(","))
    return {line: frozenset(codes) for line, codes in found.items()}


def unaccepted(match: Match, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` less those the record's comments accept (the
    comments are read only when there is a finding to accept)."""
    if not diagnostics:
        return diagnostics
    ok = accepted(match)
    if not ok:
        return diagnostics
    return [d for d in diagnostics if d.code not in ok.get(d.line, ())]


#: Severities by name, as ``--select`` and ``--ignore`` take them.
SEVERITIES = tuple(s.value for s in Severity)
#: Codes that say a file was not checked at all: always shown, whatever is
#: selected (the exit status is 2 for them; a file is left out with an
#: exclusion, not by hiding why it was not read).
ALWAYS_SHOWN = frozenset({"unreadable", NOT_CHECKED})


@dataclass(frozen=True)
class Selection:
    """Which findings a report shows, by code or by severity, ruff's way:
    ``layers`` are (selected, ignored) names, ``pyproject.toml``'s first,
    then the command line's. For a finding, the last layer that names its
    code or its severity decides: by its code if named there, else by its
    severity (in a layer, an ignored name before a selected one). When no
    layer names either, it is shown unless some layer selects. So
    ``--select info`` on the command line shows an ``info`` code that the
    table ignores, as ruff's ``--select`` shows a rule its table ignores."""

    layers: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()

    def shows(self, d: Diagnostic) -> bool:
        if d.code in ALWAYS_SHOWN:
            return True
        for selected, ignored in reversed(self.layers):
            for name in (d.code, d.severity.value):
                if name in ignored:
                    return False
                if name in selected:
                    return True
        return not any(selected for selected, _ in self.layers)

    def apply(self, report: FileReport) -> FileReport:
        """``report`` with only the findings shown (so counted, and so in
        the exit status)."""
        if not self.layers:
            return report
        return replace(report, diagnostics=[d for d in report.diagnostics if self.shows(d)])
