"""Reading record files and standard input as MGN text.

Apart from the parser, which reads text and never a file: what can go
wrong here (a missing file, a folder, binary data, bytes that are not
UTF-8) is :class:`UnreadableError`, and the parser never sees it.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from muggins_cli.errors import InputError
from muggins_cli.notation.model import Diagnostic, Match
from muggins_cli.notation.parser import iter_matches


class UnreadableError(InputError):
    """A record that cannot be read as MGN text: missing, a folder, binary
    (a NUL byte), not UTF-8, or with CR line ends alone. docs/notation.md
    reports it as code ``unreadable`` on line 0, so :meth:`diagnostic` gives
    that form to callers that report per file instead of stopping."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot read {path}: {reason}")

    def diagnostic(self) -> Diagnostic:
        return Diagnostic.error(0, 0, "unreadable", f"cannot read this file: {self.reason}")


class NoRecordError(UnreadableError):
    """Text that holds no record: empty, only comments, or (``garbled``)
    lines none of which reads as MGN."""

    def __init__(self, path: str, reason: str, *, garbled: bool) -> None:
        super().__init__(path, reason)
        self.garbled = garbled


# ---------------------------------------------------------------------------
# Files


def open_record(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a record file, decoded as UTF-8 (line ends kept).

    Opening happens now, so a missing file or a folder raises
    :class:`UnreadableError` at the call. The lines are read lazily, and a NUL
    byte or bytes that are not UTF-8 raise :class:`UnreadableError` when the
    iteration reaches them: a caller that reports per file should then drop
    what it already took from that file. ``-`` reads standard input.
    """
    name = os.fspath(path)
    if name == "-":
        return _decoded_lines("<stdin>", _stdin_bytes(), close=False)
    return _decoded_lines(name, _open_bytes(name), close=True)


def _open_bytes(name: str) -> BinaryIO:
    """The file ``name`` opened for reading bytes, if it is one a record can
    be in: a regular file, or a pipe (``<(cmd)``, a named pipe). Opened
    without waiting, so that a named pipe nobody writes to reads as empty
    instead of blocking for ever; a device (``/dev/zero`` is an endless
    line) or a socket is refused before anything is read."""
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UnreadableError(name, _why_not(name, exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UnreadableError(name, os.strerror(errno.EISDIR))
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise UnreadableError(name, "a device, not a record file")
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
            raise UnreadableError(name, "a special file, not a record file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a pipe with a writer is read as it comes
        return os.fdopen(fd, "rb")
    except UnreadableError:
        os.close(fd)
        raise
    except OSError as exc:
        os.close(fd)
        raise UnreadableError(name, exc.strerror or str(exc)) from None


def _why_not(name: str, exc: OSError) -> str:
    """Why ``name`` could not be opened: the system's reason, and for a
    folder (which a folder walk gives when it cannot list it), that it is
    one."""
    reason = exc.strerror or str(exc)
    try:
        folder = stat.S_ISDIR(os.stat(name).st_mode)
    except OSError:
        folder = False
    return f"a folder that cannot be listed ({reason})" if folder else reason


def read_record_text(path: str | os.PathLike[str]) -> str:
    """The whole text of a record file, with the same checks as
    :func:`open_record`; for callers that need the text itself (``fmt``)."""
    return "".join(open_record(path))


def read_match(path: str | os.PathLike[str], number: int) -> Match:
    """Match ``number`` (the first is 1) of a record file; InputError when
    the file cannot be read, holds no record or fewer matches."""
    name = os.fspath(path)
    matches = list(iter_records(open_record(name), "<stdin>" if name == "-" else name))
    if number > len(matches):
        raise InputError(f"{path} holds {len(matches)} match{'es' if len(matches) != 1 else ''}"
                         f"; there is no match {number}")
    return matches[number - 1]


def read_matches(path: str | os.PathLike[str]) -> Iterator[Match]:
    """The matches of a record file, one at a time (see :func:`open_record`
    and :func:`iter_records` for when :class:`UnreadableError` is raised)."""
    name = os.fspath(path)
    return iter_records(open_record(name), "<stdin>" if name == "-" else name)


def iter_records(lines: Iterable[str], name: str) -> Iterator[Match]:
    """The matches of ``lines``, read from ``name``, as they are parsed;
    then :class:`NoRecordError` if none of them is a record: the text is
    empty, holds only comments (or annotations), or none of its lines reads
    as MGN (a README given by mistake is one finding, not one per line). A
    match with one tag or one body line read is a record, however damaged.
    The caller drops what it took, as for any file found unreadable."""
    content = False

    def watched() -> Iterator[str]:
        nonlocal content
        for line in lines:
            if not content and line.strip():
                content = True
            yield line

    records = False
    first: Diagnostic | None = None
    for match in iter_matches(watched()):
        if match.tags or match.body:
            records = True
        elif first is None and match.diagnostics:
            # What was wrong with its first line, rather than the missing
            # Players tag that follows from it.
            first = next((d for d in match.diagnostics if d.code != "bad-header"),
                         match.diagnostics[0])
        yield match
    if records:
        return
    if first is not None:
        raise NoRecordError(name, "not an MGN record (no line of it reads as MGN; "
                                  f"line {first.line}: {first.message})", garbled=True)
    if content:
        raise NoRecordError(name, "it holds no record (only comments and blank lines)",
                            garbled=False)
    raise NoRecordError(name, "it holds no record (it is empty)", garbled=False)


def _stdin_bytes() -> BinaryIO:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a replaced sys.stdin without bytes underneath
        raise UnreadableError("<stdin>", "standard input is not a byte stream")
    stream: BinaryIO = buffer
    return stream


#: Why a text with CR line ends and no LF is not read: it is one line to
#: every reader of lines, whose first error would say nothing of the cause.
CR_ALONE = "its line ends are CR alone (MGN takes LF or CRLF line ends)"


def _decoded_lines(name: str, stream: BinaryIO, *, close: bool) -> Iterator[str]:
    try:
        for number, raw in enumerate(stream, 1):
            if b"\0" in raw:
                raise UnreadableError(name, f"binary data (a NUL byte on line {number})")
            if number == 1 and not raw.endswith(b"\n") and b"\r" in raw.rstrip(b"\r"):
                raise UnreadableError(name, CR_ALONE)  # no LF in the whole text
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UnreadableError(
                    name, f"not UTF-8 text (line {number}, byte {exc.start + 1})"
                ) from None
            yield text
    except OSError as exc:
        raise UnreadableError(name, exc.strerror or str(exc)) from None
    finally:
        if close:
            stream.close()


__all__ = ["NoRecordError", "UnreadableError", "iter_records", "open_record", "read_match",
           "read_matches", "read_record_text"]
