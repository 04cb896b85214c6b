"""Reading record files and standard input as MGN text.

Apart from the parser, which reads text and never a file: what can go
wrong here (a missing file, a folder, binary data, bytes that are not
UTF-8) is :class:`UnreadableError`, and the parser never sees it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import BinaryIO

from muggins_cli.errors import InputError
from muggins_cli.notation.model import Diagnostic, Match
from muggins_cli.notation.parser import iter_matches, parse_text


class UnreadableError(InputError):
    """A record that cannot be read as MGN text: missing, a folder, binary
    (a NUL byte) or not UTF-8. docs/notation.md reports it as code ``unreadable``
    on line 0, so :meth:`diagnostic` gives that form to callers that report
    per file instead of stopping."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot read {path}: {reason}")

    def diagnostic(self) -> Diagnostic:
        return Diagnostic.error(0, 0, "unreadable", f"cannot read this file: {self.reason}")


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
    try:
        stream = open(name, "rb")  # noqa: SIM115 - closed by _decoded_lines
    except OSError as exc:
        raise UnreadableError(name, exc.strerror or str(exc)) from None
    return _decoded_lines(name, stream, close=True)


def read_record_text(path: str | os.PathLike[str]) -> str:
    """The whole text of a record file, with the same checks as
    :func:`open_record`; for callers that need the text itself (``fmt``)."""
    return "".join(open_record(path))


def read_match(path: str | os.PathLike[str], number: int) -> Match:
    """Match ``number`` (the first is 1) of a record file; InputError when
    the file cannot be read or holds fewer matches."""
    matches = parse_text(read_record_text(path))
    if not matches:
        raise InputError(f"{path} holds no match")
    if number > len(matches):
        raise InputError(f"{path} holds {len(matches)} match{'es' if len(matches) != 1 else ''}"
                         f"; there is no match {number}")
    return matches[number - 1]


def read_matches(path: str | os.PathLike[str]) -> Iterator[Match]:
    """The matches of a record file, one at a time (see :func:`open_record`
    for when :class:`UnreadableError` is raised)."""
    return iter_matches(open_record(path))


def _stdin_bytes() -> BinaryIO:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a replaced sys.stdin without bytes underneath
        raise UnreadableError("<stdin>", "standard input is not a byte stream")
    stream: BinaryIO = buffer
    return stream


def _decoded_lines(name: str, stream: BinaryIO, *, close: bool) -> Iterator[str]:
    try:
        for number, raw in enumerate(stream, 1):
            if b"\0" in raw:
                raise UnreadableError(name, f"binary data (a NUL byte on line {number})")
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


__all__ = ["UnreadableError", "open_record", "read_match", "read_matches", "read_record_text"]
