"""Writing the user's files: only when asked, and never half a file."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: Path, content: str) -> None:
    """Write ``content`` to ``path`` all at once: a temporary file in the same
    folder, then :func:`os.replace`, so a reader never sees half a file and a
    failure leaves the old file as it was. An existing file keeps its
    permissions; a symbolic link keeps pointing at it."""
    target = Path(os.path.realpath(path))
    if target.exists():
        mode = stat.S_IMODE(target.stat().st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(content.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
