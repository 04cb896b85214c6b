"""Rewriting the user's files (``fmt --in-place``, ``analyze --annotate
--in-place``): never a file they could not write themselves, the same mode
and owner after, and no temporary file left behind when the process is
stopped. Also Ctrl-C in ``solve``: exit status 130, as everywhere."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.cli.files import write_atomic
from tests.hostile import as_a_user, ctrl_c_reaches_it

from .test_analysis import PAGAT
from .test_fmt_cli import CANONICAL, MESSY

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "records"
runner = CliRunner()


def write(path: Path, text: str, mode: int) -> Path:
    path.write_bytes(text.encode("utf-8"))
    path.chmod(mode)
    return path


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o044])
def test_fmt_refuses_a_file_without_write_permission(tmp_path: Path, mode: int) -> None:
    path = write(tmp_path / "a.mgn", MESSY, mode)
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"{path}:0:0: error unwritable the file is read-only "
                             "(no write permission for its owner)\n")
    assert path.read_bytes() == MESSY.encode("utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.mgn"]


def test_fmt_leaves_a_read_only_canonical_file_alone(tmp_path: Path) -> None:
    path = write(tmp_path / "a.mgn", CANONICAL, 0o444)
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


@pytest.mark.parametrize(("text", "status", "said"), [
    (CANONICAL, 0, ""),
    (MESSY, 2, "a.mgn:0:0: error unwritable Permission denied\n"),
])
def test_fmt_in_a_folder_that_cannot_be_written(tmp_path: Path, text: str, status: int,
                                               said: str) -> None:
    """A file that does not change needs no temporary file beside it; one
    that would is refused with the reason, and left as it was."""
    folder = tmp_path / "team"
    folder.mkdir()
    path = write(folder / "a.mgn", text, 0o644)
    before = path.read_bytes()
    folder.chmod(0o555)
    try:
        done = subprocess.run([sys.executable, "-m", "muggins_cli", "fmt", "--in-place",
                               "a.mgn"], cwd=folder, capture_output=True, text=True,
                              timeout=120, preexec_fn=as_a_user)
    finally:
        folder.chmod(0o755)
    assert (done.returncode, done.stderr) == (status, said)
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["a.mgn"]


def test_analyze_refuses_a_file_without_write_permission(tmp_path: Path) -> None:
    path = write(tmp_path / "a.mgn", PAGAT, 0o444)
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "--in-place", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"muggins analyze: cannot write {path}: the file is read-only "
                             "(no write permission for its owner)\n")
    assert path.read_text(encoding="utf-8") == PAGAT


def test_a_writable_file_keeps_its_mode_and_owner(tmp_path: Path) -> None:
    path = write(tmp_path / "a.mgn", MESSY, 0o620)
    # Root can hand the file to someone else, and must give it back to them.
    uid, gid = (4321, 4322) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(path, uid, gid)
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == CANONICAL.encode("utf-8")
    after = path.stat()
    assert (after.st_uid, after.st_gid) == (uid, gid)
    assert stat.S_IMODE(after.st_mode) == 0o620


def test_write_atomic_refuses_read_only(tmp_path: Path) -> None:
    path = write(tmp_path / "out.mgn", "old\n", 0o444)
    with pytest.raises(PermissionError) as caught:
        write_atomic(path, "new\n", replace=True)
    assert caught.value.strerror == "the file is read-only (no write permission for its owner)"
    assert path.read_text() == "old\n"


def big_record(path: Path, copies: int) -> bytes:
    text = "".join((RECORDS / name).read_text("utf-8") + "\n" for name in
                   ("club-night-pagat-2p.mgn", "family-pagat-3p.mgn", "league-pagat-4p.mgn"))
    data = (text * copies).encode("utf-8")
    path.write_bytes(data)
    return data


def muggins(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "muggins_cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            **kwargs)  # type: ignore[call-overload]


@pytest.mark.slow  # a real subprocess, signalled
def test_sigterm_mid_rewrite_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "big.mgn"
    data = big_record(path, 40)
    proc = muggins("fmt", "--in-place", str(path))
    try:
        deadline = time.monotonic() + 120
        while not [p for p in tmp_path.iterdir() if p.name != "big.mgn"]:
            assert proc.poll() is None, "fmt ended before it started writing"
            assert time.monotonic() < deadline, "no temporary file while rewriting"
            time.sleep(0.005)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode in (128 + signal.SIGTERM, -signal.SIGTERM), err
    assert b"Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.mgn"]
    assert path.read_bytes() == data


def _solve_interrupted(prepare: str, wait: float, *, running: bool) -> tuple[int, bytes, bytes]:
    """``muggins solve`` on a long search (four hands, the expected value
    over the stock orders, no time limit), sent SIGINT ``wait`` seconds
    after it is ready (``prepare`` run first); its status, stdout, stderr.
    ``running``: it must still be running when signalled."""
    code = (f"import sys; from muggins_cli.cli import main; {prepare}"
            "sys.stderr.write('ready\\n'); sys.stderr.flush(); main()")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "solve", str(RECORDS / "league-pagat-4p.mgn"),
         "--at", "1.2", "--mode", "expect", "--time", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_reaches_it)
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == b"ready\n"
        time.sleep(wait)
        if running:
            assert proc.poll() is None, "the search ended on its own"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    return proc.returncode, out, err


@pytest.mark.slow  # a real subprocess, signalled
def test_ctrl_c_in_solve_is_exit_130() -> None:
    """Interrupted in the search, it prints its best answer and exits 130.
    The search is compiled (or loaded) before "ready": on a machine that
    has not compiled it yet, a signal landing inside Numba's compiler
    waits for a long native step to end, on a busy machine over a minute."""
    status, out, err = _solve_interrupted(
        "from muggins_cli.solver.kernel import ready; ready(); ", 3, running=True)
    assert status == 130, err
    assert b"interrupted" in out + err
    assert b"Traceback" not in err


@pytest.mark.slow  # a real subprocess, signalled
def test_ctrl_c_while_the_command_is_still_loading_says_interrupted() -> None:
    """Ctrl-C before the command has started (its modules still being
    imported, the solver's among them: about a second) is one line and exit
    130 too, not a silent exit."""
    status, out, err = _solve_interrupted("", 0.2, running=False)
    assert status == 130, err
    assert err.decode().splitlines() == ["muggins solve: interrupted"]
    assert out == b""


OTHER = "# written by another program while fmt ran\n"


@pytest.mark.parametrize("how", ["replaced", "rewritten"])
def test_fmt_in_place_keeps_what_another_program_wrote_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """An editor saves the record (a new file renamed over it, or the same
    file written again) while fmt reads it: fmt's rewrite, made from the
    old text, would throw that away. It is refused, and the file keeps
    what the other program wrote."""
    path = write(tmp_path / "a.mgn", MESSY, 0o644)
    from muggins_cli.cli import fmt as fmt_module

    real = fmt_module.open_record

    def meanwhile(name: str) -> Iterator[str]:
        for k, line in enumerate(real(name)):
            if k == 1:
                if how == "replaced":
                    (tmp_path / "new").write_text(OTHER, encoding="utf-8")
                    os.replace(tmp_path / "new", path)
                else:
                    time.sleep(0.01)  # a later modification time, on any clock
                    path.write_text(OTHER, encoding="utf-8")
            yield line

    monkeypatch.setattr(fmt_module, "open_record", meanwhile)
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"{path}:0:0: error unwritable the file changed while it was "
                             "read (another program wrote it); it is left as that program "
                             "left it\n")
    assert path.read_text(encoding="utf-8") == OTHER
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.mgn"]


def test_analyze_annotate_in_place_keeps_what_another_program_wrote_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for analyze --annotate --in-place, whose analysis (with
    --solver, minutes) runs between the read and the write."""
    path = write(tmp_path / "a.mgn", PAGAT, 0o644)
    from muggins_cli.cli import analyze_cmd

    real = analyze_cmd.annotate_text

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        path.write_text(OTHER, encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(analyze_cmd, "annotate_text", meanwhile)
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "--in-place", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"muggins analyze: cannot write {path}: the file changed while "
                             "it was read (another program wrote it); it is left as that "
                             "program left it\n")
    assert path.read_text(encoding="utf-8") == OTHER
