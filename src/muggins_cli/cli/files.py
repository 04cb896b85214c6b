"""Writing the user's files: only when asked, and never half a file.

A file is replaced by writing a temporary file beside it and renaming it
over the old one (:func:`os.replace`), so that a reader never sees half a
file and a failure leaves the old one as it was. The rename goes through
the folder, not the file, so it would also replace a file its owner made
read-only, and a file written by root would become root's. Hence the rules
every command that rewrites or replaces a file follows (``fmt --in-place``,
``analyze --annotate --in-place``, ``-o FILE --force``):

- a file without write permission for its owner (``chmod a-w``) is
  refused, whoever runs the command, root included: that bit is how a user
  says "leave this file alone", and root's ``os.access`` says yes to
  everything, so it is read from the mode itself;
- anyone but root must also be allowed to write the file (``os.access``),
  and must own it: a rename cannot give the file back to another owner;
- the new file gets the old one's mode, owner and group;
- SIGTERM and SIGHUP while the temporary file exists remove it (the
  process then exits 128 + the signal, as the shell's default would);
- a rewrite made from the text read (``fmt --in-place``) is not put in
  place if the file changed since it was read: another program (an editor
  saving it) wrote it meanwhile, and the rename would throw its text away.
  The file's identity (device, inode, size, modification time) is compared
  just before the rename; what remains is the instant between the two;
- a new file (``-o FILE`` without ``--force``) is put in place only where
  there is still no file: the command refused an existing FILE at its
  start, and a file another program made while it ran is left as it is
  (:class:`AppearedError`). The temporary file is linked to the name, which
  fails if the name is taken, whatever the moment; on a file system without
  links, the name is looked up just before the rename instead.

:class:`Output` is what a command's ``-o FILE`` or ``--svg FILE`` writes
to: standard output for ``-``, any other name (``./-`` too) a file written
as above; a write or a rename that fails is one :class:`UnwritableError`,
and no file is left behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from muggins_cli.errors import MugginsError

READ_ONLY = "the file is read-only (no write permission for its owner)"
CHANGED = ("the file changed while it was read (another program wrote it); it is left as "
           "that program left it")
NOT_YOURS = "the file belongs to another user, whom a rewrite could not give it back to"
NO_ACCESS = "you have no write permission for the file"
APPEARED = ("it was made while the command ran (by another program) and is left as it is; "
            "add --force to replace it")
#: The name of an output that means standard output.
STDOUT = "-"

_STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                  if hasattr(signal, name))


def replace_problem(path: str | os.PathLike[str]) -> str | None:
    """Why an existing file must not be replaced (see the module's rules),
    or None when it may be (or does not exist)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return e.strerror or str(e)
    if not st.st_mode & stat.S_IWUSR:
        return READ_ONLY
    if os.geteuid() != 0:
        if not os.access(path, os.W_OK):
            return NO_ACCESS
        if st.st_uid != os.geteuid():
            return NOT_YOURS
    return None


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def identity(st: os.stat_result) -> tuple[int, int, int, int]:
    """What tells a file from the same file written again or replaced."""
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


class ChangedError(OSError):
    """The file changed after it was read (:data:`CHANGED`)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.ESTALE, CHANGED, os.fspath(path))


class AppearedError(FileExistsError):
    """A new file's name was taken while it was written (:data:`APPEARED`)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.EEXIST, APPEARED, os.fspath(path))


#: What link() says on a file system that has no hard links.
_NO_LINKS = frozenset({errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS,
                       errno.EMLINK, errno.EXDEV})


def put_new(temp: str, path: str | os.PathLike[str]) -> None:
    """Give the file ``temp`` the name ``path`` if no file has it;
    :class:`AppearedError` otherwise."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise AppearedError(path) from None
    except OSError as e:
        if e.errno not in _NO_LINKS:
            raise
        if os.path.lexists(path):
            raise AppearedError(path) from None
        os.rename(temp, path)  # the one moment left between the look and the rename
        return
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)


class AtomicFile:
    """Text written to a temporary file beside ``path`` that takes its
    place on :meth:`commit`: over the old ``path`` with ``replace``, else
    only where no file is (:class:`AppearedError`). Leaving the ``with``
    block without a commit (or with an exception, or on SIGTERM) removes it
    and leaves ``path`` as it was. Raises :class:`PermissionError` (its
    ``strerror`` says why) for a file that :func:`replace_problem` refuses;
    with ``read_as`` (the file's ``os.stat`` when its text was read),
    :meth:`commit` raises :class:`ChangedError` instead of replacing a file
    that changed since."""

    def __init__(self, path: str | os.PathLike[str],
                 read_as: os.stat_result | None = None, *, replace: bool) -> None:
        self._replace = replace
        self._read_as = identity(read_as) if read_as is not None else None
        self.path = Path(os.path.realpath(path))  # a symbolic link keeps pointing at it
        problem = replace_problem(self.path)
        if problem is not None:
            raise PermissionError(errno.EACCES, problem, str(path))
        if self.path.exists():
            st = self.path.stat()
            self._mode = stat.S_IMODE(st.st_mode)
            self._owner: tuple[int, int] | None = (st.st_uid, st.st_gid)
        else:
            umask = os.umask(0)
            os.umask(umask)
            self._mode = 0o666 & ~umask
            self._owner = None
        self._previous: dict[int, Any] = {}
        self._catch_signals()
        try:
            # A signal between the file's creation and the name's assignment
            # would leave a file nobody knows of: hold them off until then.
            held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
            try:
                fd, self._temp = tempfile.mkstemp(dir=self.path.parent,
                                                  prefix=f".{self.path.name}.", suffix=".tmp")
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            try:
                if self._owner is not None and self._owner != (os.geteuid(), os.getegid()):
                    os.fchown(fd, *self._owner)  # before the mode: chown clears set-id bits
                os.fchmod(fd, self._mode)
            except OSError:
                os.close(fd)
                raise
            self._stream = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        except BaseException:
            self._cleanup()
            raise
        self._done = False

    def _catch_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread may set handlers; it is the one that writes
        for signum in _STOPPING:
            if signal.getsignal(signum) in (signal.SIG_DFL, None):
                self._previous[signum] = signal.signal(signum, _exit_on_signal)

    def _cleanup(self) -> None:
        temp = getattr(self, "_temp", None)
        stream = getattr(self, "_stream", None)
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        self._release()

    def _release(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def write(self, text: str) -> None:
        self._stream.write(text)

    def commit(self) -> None:
        """Put the text written in place of ``path``, all at once."""
        try:
            self._stream.flush()
            os.fsync(self._stream.fileno())
            self._stream.close()
            if self._read_as is not None and self._identity() != self._read_as:
                raise ChangedError(self.path)
            if self._replace:
                os.replace(self._temp, self.path)
            else:
                put_new(self._temp, self.path)
        except BaseException:
            self._cleanup()
            raise
        self._done = True
        self._release()

    def _identity(self) -> tuple[int, int, int, int] | None:
        try:
            return identity(os.stat(self.path))
        except OSError:
            return None  # gone: changed too

    def discard(self) -> None:
        """Forget the text written; ``path`` stays as it was."""
        if not self._done:
            self._done = True
            self._cleanup()

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.discard()


def write_atomic(path: str | os.PathLike[str], content: str,
                 read_as: os.stat_result | None = None, *, replace: bool) -> None:
    """Write ``content`` to ``path`` all at once (see :class:`AtomicFile`)."""
    with AtomicFile(path, read_as, replace=replace) as out:
        out.write(content)
        out.commit()


class UnwritableError(MugginsError):
    """An output file could not be written; nothing was left in its place.
    A :class:`MugginsError` (one line, exit status 2), and no
    :class:`OSError`, so that a command's handling of the files it reads
    cannot take it for one of them."""

    def __init__(self, name: str, error: OSError) -> None:
        self.name = name
        self.reason = error.strerror or str(error)
        super().__init__(f"cannot write {name}: {self.reason}")


class Output:
    """Where a command's ``-o FILE`` or ``--svg FILE`` goes: standard
    output for ``-`` (through the command's guarded stdout), else the file
    ``name``, written atomically and never over a file unless ``force``
    (see the module's rules). Opened at once, so that a folder that cannot
    be written fails before the work; :meth:`commit` puts the file in
    place, leaving the ``with`` block without one leaves nothing behind.
    Every failure of the file is :class:`UnwritableError`."""

    def __init__(self, name: str, *, force: bool) -> None:
        self.name = name
        self._file: AtomicFile | None = None
        if name != STDOUT:
            try:
                self._file = AtomicFile(name, replace=force)
            except OSError as e:
                raise UnwritableError(name, e) from None

    @property
    def to_stdout(self) -> bool:
        return self._file is None

    def write(self, text: str) -> None:
        if self._file is None:
            sys.stdout.write(text)
            return
        try:
            self._file.write(text)
        except OSError as e:
            self._file.discard()
            raise UnwritableError(self.name, e) from None

    def flush(self) -> None:
        """Standard output's text on its way (a file's waits for the commit)."""
        if self._file is None:
            sys.stdout.flush()

    def commit(self) -> None:
        if self._file is None:
            sys.stdout.flush()
            return
        try:
            self._file.commit()
        except OSError as e:
            raise UnwritableError(self.name, e) from None

    def discard(self) -> None:
        if self._file is not None:
            self._file.discard()

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.discard()
