"""Every option that names a file to write (``-o``, ``--svg``) goes through
the one atomic writer: ``-`` is standard output, any other name is a path
(``./-`` too) that is never replaced without ``--force`` (neither when it
existed at the start nor when another program made it while the command
ran), and a write that fails is one line, exit status 2, and no file left
behind, the old one as it was."""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.cli import files as files_module
from muggins_cli.cli.files import AtomicFile, write_atomic
from tests.records import CLUB_FIRST

OUT = "OUT"

#: Each command line that writes a file OUT, a piece of what it writes,
#: and its exit status when it writes it (the record has an error).
WRITERS: dict[str, tuple[list[str], str, int]] = {
    "selfplay": (["selfplay", "--matches", "30", "-q", "-o", OUT], "[Players ", 0),
    "arena": (["arena", "greedy", "random", "--matches", "8", "-q", "-o", OUT], "[Players ",
              0),
    "study": (["study", "club.mgn", "-q", "-o", OUT], "<!DOCTYPE html>", 0),
    "replay-svg": (["replay", "club.mgn", "--at", "1.2", "--svg", OUT], "<svg", 0),
    "annotate": (["analyze", "club.mgn", "-q", "--annotate", "-o", OUT], "[Players ", 1),
}
#: The command as a user runs it, so that its messages name it so.
MUGGINS = str(Path(sys.executable).with_name("muggins"))
KEEP = "keep me\n"


def _args(name: str, out: str, *extra: str) -> list[str]:
    args = WRITERS[name][0]
    return [out if a == OUT else a for a in args] + list(extra)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _invoke(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.stdout, result.stderr


def _left(folder: Path) -> list[str]:
    """What a run left in ``folder`` beside the record it read."""
    return sorted(p.name for p in folder.iterdir() if p.name != "club.mgn")


@pytest.mark.parametrize("name", list(WRITERS))
def test_dash_is_standard_output(name: str, here: Path) -> None:
    status, out, err = _invoke(_args(name, "-"))
    assert status == WRITERS[name][2], err
    assert WRITERS[name][1] in out
    assert _left(here) == []  # no file named -


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_file_named_dash_is_kept(name: str, here: Path) -> None:
    (here / "-").write_text(KEEP)
    for out in ("./-", "-"):  # a path, then standard output
        status, _, err = _invoke(_args(name, out))
        assert (here / "-").read_text() == KEEP
        assert _left(here) == ["-"]
        if out == "./-":
            assert status == 2
            assert err.splitlines() == [f"muggins {WRITERS[name][0][0]}: ./- exists; add "
                                        "--force to replace it"]


@pytest.mark.parametrize("name", list(WRITERS))
def test_force_replaces_a_file_named_dash(name: str, here: Path) -> None:
    (here / "-").write_text(KEEP)
    status, _, err = _invoke(_args(name, "./-", "--force"))
    assert status == WRITERS[name][2], err
    assert WRITERS[name][1] in (here / "-").read_text()
    assert _left(here) == ["-"]


def _made_meanwhile(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Another program makes ``target`` while the command writes."""
    real: Callable[[AtomicFile, str], None] = AtomicFile.write

    def write(self: AtomicFile, text: str) -> None:
        if not target.exists():
            target.write_text("another program's\n")
        real(self, text)

    monkeypatch.setattr(AtomicFile, "write", write)


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_file_made_while_the_command_ran_is_kept(name: str, here: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _made_meanwhile(monkeypatch, here / "made.out")
    status, _, err = _invoke(_args(name, "made.out"))
    assert status == 2
    assert (here / "made.out").read_text() == "another program's\n"
    assert _left(here) == ["made.out"]
    assert err.splitlines()[-1] == (
        f"muggins {WRITERS[name][0][0]}: cannot write made.out: it was made while the "
        "command ran (by another program) and is left as it is; add --force to replace it")


@pytest.mark.parametrize("name", list(WRITERS))
def test_force_replaces_a_file_made_while_the_command_ran(
        name: str, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _made_meanwhile(monkeypatch, here / "made.out")
    status, _, err = _invoke(_args(name, "made.out", "--force"))
    assert status == WRITERS[name][2], err
    assert WRITERS[name][1] in (here / "made.out").read_text()
    assert _left(here) == ["made.out"]


@pytest.mark.parametrize("how", [errno.EPERM, errno.EOPNOTSUPP])
def test_without_hard_links_the_new_file_is_still_not_put_over_another(
        how: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system that cannot link (FAT, some network ones): the check
    and the rename, which leave a moment between them, still refuse a file
    that is there, and write one that is not."""
    def no_link(src: object, dst: object, **kwargs: object) -> None:
        raise OSError(how, os.strerror(how))

    monkeypatch.setattr(files_module.os, "link", no_link)
    target = tmp_path / "t.txt"
    with AtomicFile(target, replace=False) as out:
        target.write_text(KEEP)
        out.write("new\n")
        with pytest.raises(FileExistsError):
            out.commit()
    assert target.read_text() == KEEP
    target.unlink()
    write_atomic(target, "new\n", replace=False)
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


# -- a full disk ---------------------------------------------------------------

#: A limit on the size of a file this process may write, below what each
#: command writes: past it a write fails (EFBIG, SIGXFSZ ignored) as on a
#: full file system (ENOSPC), and the command cannot tell them apart.
LIMIT = 2048


def _small_disk() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


@pytest.mark.parametrize("name", list(WRITERS))
@pytest.mark.parametrize("existing", [False, True])
def test_a_write_that_fails_is_one_line_and_leaves_no_file(name: str, existing: bool,
                                                           tmp_path: Path) -> None:
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    if existing:
        (tmp_path / "out.file").write_text(KEEP)
    args = _args(name, "out.file", *(["--force"] if existing else []))
    if name == "annotate":
        # The annotated record is about as long as the record: past the limit.
        (tmp_path / "club.mgn").write_text(CLUB_FIRST * 12, encoding="utf-8")
    done = subprocess.run([MUGGINS, *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, preexec_fn=_small_disk)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (f"muggins {WRITERS[name][0][0]}: cannot write "
                                            "out.file: File too large")
    assert "Traceback" not in done.stderr
    assert _left(tmp_path) == (["out.file"] if existing else [])
    if existing:
        assert (tmp_path / "out.file").read_text() == KEEP
