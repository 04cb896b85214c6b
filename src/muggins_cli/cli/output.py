"""The one way out of every command: its output, and what happens when it
cannot be written.

Every command writes its report to ``sys.stdout`` (directly, through
``typer.echo`` or through a reporter), its notes to ``sys.stderr``. For the
run of a command (:class:`~muggins_cli.cli.app.MugginsGroup`) both are
wrapped here, so that a failed write ends the command the same way whatever
wrote it:

- standard output that cannot be written (a full disk, ``> /dev/full``, a
  quota) raises :class:`OutputError`, and the command ends with one line on
  stderr, ``muggins CMD: cannot write the output: REASON``, and exit status
  2; a command's own ``except OSError`` (for the files it reads or writes)
  cannot mistake it for a problem of a record;
- a reader that went away (``muggins check | head``: a broken pipe) ends
  the command quietly, with exit status 141 (128 + SIGPIPE, what a shell
  shows for a tool that the pipe's end stopped);
- standard error that cannot be written is given up on quietly: there is
  nowhere left to say so, and the report on stdout is still worth having;
- a stream the process was started without (``muggins check FILE >&-``,
  ``2>&-``: Python then has ``None`` for it) is a stream whose every write
  fails, "standard output is closed": stdout is one line on stderr and exit
  status 2, stderr is given up on as above. The descriptors 0, 1 and 2 that
  are closed are opened on ``/dev/null`` for the run, so that no file the
  command opens (a record, the temporary file of an atomic write) takes
  their number, where a stray write to that number (a worker, a library's
  message) would land in the user's file.

Once a stream has failed, the file descriptor under it is pointed at
``/dev/null``, so that what is still buffered, flushed when the interpreter
exits, cannot fail a second time and print a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, cast

#: The exit status after a closed pipe: the shell's for a SIGPIPE death.
CLOSED_PIPE_STATUS = 141
#: The exit status after output that could not be written.
UNWRITABLE_STATUS = 2

_CLOSED = frozenset({errno.EPIPE, errno.ECONNRESET})


class OutputError(Exception):
    """Standard output could not be written (not an :class:`OSError`, so
    that a command's handling of its own files lets it through)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.errno = error.errno
        self.reason = error.strerror or str(error)

    @property
    def closed(self) -> bool:
        """The reader went away (a broken pipe): nothing to say to anyone."""
        return self.errno in _CLOSED


class ClosedStream(io.TextIOBase):
    """The standard stream ``name`` (output, error) of a process started
    without it: every write of something fails as writing to a closed
    descriptor does, with a reason that says which."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            raise OSError(errno.EBADF, f"standard {self._name} is closed")
        return 0

    def isatty(self) -> bool:
        return False


class GuardedStream:
    """A text stream whose write failures are :class:`OutputError` (``fatal``)
    or ignored; everything else is the wrapped stream's.

    It has no ``buffer``: Click's ``echo`` would otherwise write around it
    to the binary stream below."""

    def __init__(self, stream: TextIO, *, fatal: bool) -> None:
        self._stream = stream
        self._fatal = fatal
        self._failed = False

    @property
    def wrapped(self) -> TextIO:
        return self._stream

    def write(self, text: str) -> int:
        # Click probes a stream with write(b"") and write(""), inside an
        # ``except Exception`` that would swallow the failure: the probes
        # never reach the stream.
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._failed or not text:
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as e:
            self._fail(e)
            return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._failed:
            return
        try:
            self._stream.flush()
        except OSError as e:
            self._fail(e)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self._stream, name)

    def _fail(self, error: OSError) -> None:
        self._failed = True
        _to_null(self._stream)
        if self._fatal:
            raise OutputError(error) from None


def _to_null(stream: TextIO) -> None:
    """Point the descriptor under ``stream`` at /dev/null (when it has one),
    so that its buffer can be flushed later without failing again."""
    # io.UnsupportedOperation (no descriptor: a test's stream) is an OSError.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)


def _hold_closed_descriptors() -> None:
    """Open each of the descriptors 0, 1 and 2 that is closed on /dev/null."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` guarded for the block (once: a
    nested block leaves them as they are)."""
    out, err = sys.stdout, sys.stderr
    if isinstance(out, GuardedStream):
        yield
        return
    _hold_closed_descriptors()
    # A TextIOBase is a text stream; typeshed's TextIO is the protocol's name for it.
    sys.stdout = GuardedStream(out if out is not None else cast(TextIO, ClosedStream("output")),
                               fatal=True)
    sys.stderr = GuardedStream(err if err is not None else cast(TextIO, ClosedStream("error")),
                               fatal=False)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def say_unwritable(command: str, error: OutputError) -> int:
    """What a command ends with when its output failed: one line (unless
    the pipe was closed) and the exit status."""
    if error.closed:
        return CLOSED_PIPE_STATUS
    with contextlib.suppress(OSError):
        sys.stderr.write(f"{command}: cannot write the output: {error.reason}\n")
        sys.stderr.flush()
    return UNWRITABLE_STATUS
