"""JUnit XML, which CI servers (Jenkins, GitLab, Azure, GitHub test
reporters) read as test results.

One ``<testsuite>`` per file (``name`` the path), one ``<testcase>`` per
match (``classname`` the path, ``name`` where the match starts and who
played). Errors in a match make it fail: one ``<failure>`` whose ``type`` and
``message`` are the first error's, listing every error in its text; warnings
and notes go to the test case's ``<system-out>``. A file that cannot be read
is one failed test case. A file with findings but no match is one test case
named ``file``.

The document is written as a stream, a file at a time, so the root
``<testsuites>`` carries no totals (each suite carries its own; readers add
them up). The output is ASCII, other characters as character references, so
it stays valid whatever the encoding of the stream it is written to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from muggins_cli.check import FileReport
from muggins_cli.notation.model import Diagnostic, Severity
from muggins_cli.replay.values import MatchSummary
from muggins_cli.report.escape import for_xml
from muggins_cli.report.json_report import Totals


def _ascii(text: str) -> str:
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def xml_text(text: str) -> str:
    return _ascii(for_xml(text))


def xml_attr(text: str) -> str:
    """A double-quoted attribute value, line breaks and tabs kept."""
    escaped = (for_xml(text).replace("\t", "&#9;").replace("\n", "&#10;")
               .replace("\r", "&#13;"))
    return '"' + _ascii(escaped) + '"'


def _finding(d: Diagnostic) -> str:
    return f"{d.line}:{d.column}: {d.severity.value} {d.code} {d.message}"


def match_name(m: MatchSummary) -> str:
    who = ", ".join(m.players) if m.players else "no players"
    return f"line {m.line}: {who}"


def _by_match(f: FileReport) -> list[list[Diagnostic]]:
    """Each finding under the match it falls in (by line; findings before
    the first match go with the first)."""
    groups: list[list[Diagnostic]] = [[] for _ in f.matches]
    starts = [m.line for m in f.matches]
    for d in f.diagnostics:
        i = 0
        while i + 1 < len(starts) and d.line >= starts[i + 1]:
            i += 1
        groups[i].append(d)
    return groups


def _testcase(classname: str, name: str, findings: list[Diagnostic]) -> tuple[str, bool]:
    errors = [d for d in findings if d.severity is Severity.ERROR]
    others = [d for d in findings if d.severity is not Severity.ERROR]
    head = f"    <testcase classname={xml_attr(classname)} name={xml_attr(name)}"
    if not findings:
        return head + "/>\n", False
    parts = [head + ">\n"]
    if errors:
        first = errors[0]
        body = "\n".join(_finding(d) for d in errors)
        parts.append(f"      <failure type={xml_attr(first.code)} "
                     f"message={xml_attr(first.message)}>{xml_text(body)}</failure>\n")
    if others:
        body = "\n".join(_finding(d) for d in others)
        parts.append(f"      <system-out>{xml_text(body)}</system-out>\n")
    parts.append("    </testcase>\n")
    return "".join(parts), bool(errors)


def file_suite(f: FileReport) -> str:
    """The ``<testsuite>`` element of one file."""
    cases: list[tuple[str, bool]]
    if f.unreadable:
        cases = [_testcase(f.path, "read", f.diagnostics)]
    elif f.matches:
        cases = [_testcase(f.path, match_name(m), group)
                 for m, group in zip(f.matches, _by_match(f))]
    elif f.diagnostics:
        cases = [_testcase(f.path, "file", f.diagnostics)]
    else:
        cases = []
    failures = sum(failed for _, failed in cases)
    head = (f"  <testsuite name={xml_attr(f.path)} tests=\"{len(cases)}\" "
            f"failures=\"{failures}\" errors=\"0\" skipped=\"0\"")
    if not cases:
        return head + "/>\n"
    return head + ">\n" + "".join(text for text, _ in cases) + "  </testsuite>\n"


def write_junit(reports: Iterable[FileReport], out: IO[str], totals: Totals) -> None:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="muggins check">\n')
    for f in reports:
        totals.add(f)
        out.write(file_suite(f))
    out.write("</testsuites>\n")
