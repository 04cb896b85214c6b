"""``muggins fmt``: records in canonical MGN, printed, checked or rewritten.

Modelled on black: print by default, ``--check`` for CI, ``--in-place`` to
rewrite. A file with notation errors is never rewritten, because the parser
leaves out the lines it cannot read and writing back would lose them.

A file is read as a stream of matches, as ``check`` reads it, and each
match is written as soon as it is parsed: to the temporary file that will
replace the record (``--in-place``), to a spool that goes to standard output
once the whole file has proved free of errors (printing), or nowhere
(``--check``). Whether the record changes is known by comparing digests of
the text read and the text written, so memory holds one match at a time
whatever the size of the file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated

import typer

from muggins_cli.check import STDIN, unreadable_diagnostic
from muggins_cli.cli.app import app
from muggins_cli.cli.config import settings
from muggins_cli.cli.files import AtomicFile, replace_problem
from muggins_cli.cli.options import ExcludeOption, PathsArgument, fail, note, record_files
from muggins_cli.notation.model import Match, Severity
from muggins_cli.notation.reading import (
    NoRecordError,
    UnreadableError,
    iter_records,
    open_record,
)
from muggins_cli.notation.writer import write_match
from muggins_cli.report.text import diagnostic_line

_NAME = "muggins fmt"
_OK, _CHANGED, _UNREADABLE = 0, 1, 2
#: Printed output is held in memory up to this size, then in a temporary file.
_SPOOL_BYTES = 1 << 20


@app.command("fmt")
def fmt_command(
    paths: PathsArgument,
    *,
    in_place: Annotated[
        bool,
        typer.Option("--in-place",
                     help="Rewrite each file that changes, atomically, keeping its mode and "
                          "owner. A read-only file (no write permission for its owner) that "
                          "would change is refused, even for root."),
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Write nothing; list the files that would change and exit 1 if any.",
        ),
    ] = False,
    exclude: ExcludeOption = None,
) -> None:
    """Print records in canonical MGN: tags in a fixed order, single spaces,
    annotations and comments kept.

    Files of any size are read and written a match at a time. A file with
    notation errors is listed (path:line:col: error code message) and never
    rewritten or printed.

    Exit status: 0 nothing to say, 1 a file would change (--check) or holds
    notation errors, 2 a file could not be read or written, no record was
    found, or the command line is wrong.

    \b
    Examples:
        muggins fmt club.mgn > club-canonical.mgn
        muggins fmt --check records/
        muggins fmt --in-place records/
    """
    if in_place and check:
        raise fail(_NAME, "--in-place and --check cannot be used together")
    status = _OK
    printed = False
    for path in record_files(_NAME, paths, settings(paths, exclude=exclude or ()).keep):
        try:
            if in_place and path != STDIN:
                status = max(status, _rewrite(path))
            elif check:
                errors, changed = _canonical(open_record(path), _ignore, path)
                if changed and not errors:
                    note(f"would reformat {path}")
                status = max(status, _CHANGED if errors or changed else _OK)
            else:
                wrote, errors = _print(path, printed)
                printed = printed or wrote
                status = max(status, _CHANGED if errors else _OK)
        except UnreadableError as e:
            note(diagnostic_line(path, unreadable_diagnostic(e)))
            status = max(status, _UNREADABLE)
        except OSError as e:
            note(f"{path}:0:0: error unwritable {e.strerror or e}")
            status = max(status, _UNREADABLE)
    raise typer.Exit(code=status)


def _ignore(text: str) -> None:
    pass


def _canonical(lines: Iterable[str], write: Callable[[str], object], path: str
               ) -> tuple[int, bool]:
    """Each match of ``lines`` in canonical form, passed to ``write`` as it
    is parsed, and its notation errors on stderr; the number of errors and
    whether the canonical text differs from the text read."""
    read, written = hashlib.sha256(), hashlib.sha256()

    def seen(source: Iterable[str]) -> Iterator[str]:
        for line in source:
            read.update(line.encode("utf-8"))
            yield line

    errors = 0
    number = -1
    # The findings of a match without a tag or a body line wait until a
    # record shows the file is MGN: a README has none, and is one
    # unreadable line (iter_records raises), not a finding per line.
    waiting: list[str] = []
    for number, match in enumerate(_records(seen(lines), path)):
        found = [diagnostic_line(path, d) for d in match.diagnostics
                 if d.severity is Severity.ERROR]
        errors += len(found)
        if not match.tags and not match.body:
            waiting.extend(found)
            found = []
        elif waiting:
            found, waiting = [*waiting, *found], []
        for line in found:
            note(line)
        # As notation.writer.write_matches joins them: a blank line between two.
        text = ("\n" if number else "") + write_match(match)
        written.update(text.encode("utf-8"))
        write(text)
    for line in waiting:
        note(line)
    if number < 0:
        # A text without a match (only comments, or blank) has no canonical
        # form; writing "" would throw the comments away.
        return errors, False
    return errors, read.digest() != written.digest()


def _records(lines: Iterable[str], path: str) -> Iterator[Match]:
    """The matches of ``lines``; a text of comments or nothing is left as it
    is (no match, nothing to write), one that is not MGN is unreadable."""
    try:
        yield from iter_records(lines, path)
    except NoRecordError as e:
        if e.garbled:
            raise


def _rewrite(path: str) -> int:
    """``--in-place`` for one file."""
    try:
        read_as: os.stat_result | None = os.stat(path)  # before a line is read
    except OSError:
        read_as = None  # open_record says why
    lines = open_record(path)  # a missing file is unreadable before it is unwritable
    problem = replace_problem(path)
    if problem is not None:
        return _left_as_it_is(path, lines, problem)
    try:
        rewrite = AtomicFile(path, read_as, replace=True)
    except OSError as e:
        # No temporary file beside it (a folder the user may not write).
        return _left_as_it_is(path, lines, e.strerror or str(e))
    with rewrite as out:
        errors, changed = _canonical(lines, out.write, path)
        if errors:
            return _CHANGED
        if changed:
            out.commit()
            note(f"reformatted {path}")
    return _OK


def _left_as_it_is(path: str, lines: Iterable[str], problem: str) -> int:
    """``--in-place`` for a file that cannot be rewritten (``problem`` says
    why): refused only if it would change; a record already in canonical
    form needs no rewrite, nor a temporary file."""
    errors, changed = _canonical(lines, _ignore, path)
    if errors:
        return _CHANGED
    if changed:
        note(f"{path}:0:0: error unwritable {problem}")
        return _UNREADABLE
    return _OK


def _print(path: str, printed: bool) -> tuple[bool, int]:
    """One file's canonical text on stdout (after a blank line if something
    was printed before), only once all of it parsed without an error.
    Whether anything was printed, and the number of errors."""
    with tempfile.SpooledTemporaryFile(_SPOOL_BYTES, mode="w+", encoding="utf-8",
                                       newline="\n") as spool:
        errors, _ = _canonical(open_record(path), spool.write, path)
        if errors or not spool.tell():
            return False, errors
        if printed:
            sys.stdout.write("\n")
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout, 1 << 16)
        sys.stdout.flush()
    return True, 0
