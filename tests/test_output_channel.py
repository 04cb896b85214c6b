"""Every command's output goes one way out (``cli/output.py``): standard
output that cannot be written is one line on stderr and exit status 2,
whichever command wrote it and however (``sys.stdout.write``,
``typer.echo``, a reporter); a reader that went away is a quiet exit 141;
standard error that cannot be written is given up on quietly.

The quick tests run each command in this process with a standard output
that fails as a full disk or a closed pipe does; the slow ones run the real
command with ``> /dev/full`` and on a pipe whose reader is gone."""

from __future__ import annotations

import errno
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from muggins_cli.cli import app
from tests.records import CLUB_FIRST, THREES

#: A command line of every command that prints something on stdout.
COMMANDS: dict[str, list[str]] = {
    "check": ["check", "club.mgn"],
    "check-junit": ["check", "--format", "junit", "club.mgn"],
    "check-table": ["check", "--format", "table", "club.mgn"],
    "check-json": ["check", "--json", "club.mgn"],
    "analyze": ["analyze", "club.mgn"],
    "stats": ["stats", "club.mgn"],
    "study": ["study", "club.mgn"],
    "replay": ["replay", "club.mgn"],
    "solve": ["solve", "club.mgn", "--at", "1.2"],
    "selfplay": ["selfplay", "--matches", "1", "--seed", "1"],
    "arena": ["arena", "greedy", "random", "--matches", "2", "--seed", "1"],
    "rules": ["rules"],
    "rules-preset": ["rules", "spinner"],
    "explain": ["explain"],
    "explain-code": ["explain", "syntax"],
    "fmt": ["fmt", "club.mgn", "club.mgn"],
    "version": ["--version"],
    "help": ["check", "--help"],
}


class _Failing(io.RawIOBase):
    """A file that refuses every write with ``errno`` until ``healed``."""

    def __init__(self, code: int) -> None:
        self.code = code
        self.healed = False

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        if self.healed:
            return len(data)  # type: ignore[arg-type]
        raise OSError(self.code, os.strerror(self.code))


def _main(args: list[str], stdout: object, stderr: object,
          monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> int:
    """The exit status of ``muggins ARGS`` run here with these streams, in
    ``tmp_path`` beside ``club.mgn``."""
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    with pytest.raises(SystemExit) as ended:
        typer.main.get_command(app).main(args=args, prog_name="muggins")
    status = ended.value.code
    assert isinstance(status, int)
    return status


def _run(args: list[str], code: int, monkeypatch: pytest.MonkeyPatch,
         tmp_path: Path) -> tuple[int, str]:
    """Exit status and stderr of ``muggins ARGS`` with a stdout that fails."""
    raw = _Failing(code)
    out = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")
    err = io.StringIO()
    try:
        status = _main(args, out, err, monkeypatch, tmp_path)
    finally:
        raw.healed = True  # what is still buffered goes nowhere, quietly
        out.close()
    return status, err.getvalue()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_full_disk_is_one_line_and_exit_2(name: str, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    status, err = _run(COMMANDS[name], errno.ENOSPC, monkeypatch, tmp_path)
    command = "muggins" if name in ("version",) else f"muggins {COMMANDS[name][0]}"
    assert status == 2, err
    assert err.splitlines()[-1] == f"{command}: cannot write the output: " \
                                   "No space left on device"
    assert "Traceback" not in err
    assert "unwritable" not in err  # no record is blamed for it


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_closed_pipe_is_a_quiet_exit_141(name: str, monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    status, err = _run(COMMANDS[name], errno.EPIPE, monkeypatch, tmp_path)
    assert status == 141, err
    assert "cannot write" not in err
    assert "Broken pipe" not in err
    assert "Traceback" not in err


def test_stderr_that_cannot_be_written_is_given_up_quietly(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The report on stdout is whole; the notes that could not be written
    change nothing."""
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    raw = _Failing(errno.ENOSPC)
    err = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", write_through=True)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    try:
        with pytest.raises(SystemExit) as ended:
            typer.main.get_command(app).main(args=["check", "club.mgn", "missing.mgn"],
                                             prog_name="muggins")
    finally:
        raw.healed = True
        err.close()
    assert ended.value.code == 2  # missing.mgn cannot be read
    assert "club.mgn:14:11: error score-mismatch" in out.getvalue()


# -- the real thing -----------------------------------------------------------


def _muggins(*args: str) -> list[str]:
    return [sys.executable, "-m", "muggins_cli", *args]


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("name", ["check", "check-junit", "solve", "fmt", "rules", "explain"])
def test_dev_full_for_real(name: str, tmp_path: Path) -> None:
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    with open("/dev/full", "w") as full:
        done = subprocess.run(_muggins(*COMMANDS[name]), stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        ": cannot write the output: No space left on device")
    assert "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("name", ["check", "fmt", "replay", "rules"])
def test_closed_pipe_for_real(name: str, tmp_path: Path) -> None:
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(_muggins(*COMMANDS[name]), stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert "Broken pipe" not in done.stderr
    assert "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


# -- a channel that is not there at all (``>&-``, ``2>&-``) ---------------------


def _run_closed(args: list[str], closed: str, monkeypatch: pytest.MonkeyPatch,
                tmp_path: Path) -> tuple[int, str]:
    """Exit status and what the other stream got, the stream ``closed``
    (``stdout`` or ``stderr``) being None, as Python leaves it when the
    shell closed its descriptor."""
    other = io.StringIO()
    streams = (None, other) if closed == "stdout" else (other, None)
    return _main(args, *streams, monkeypatch, tmp_path), other.getvalue()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_closed_stdout_is_a_write_that_fails(name: str, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    status, err = _run_closed(COMMANDS[name], "stdout", monkeypatch, tmp_path)
    command = "muggins" if name in ("version",) else f"muggins {COMMANDS[name][0]}"
    assert status == 2, err
    assert err.splitlines()[-1] == f"{command}: cannot write the output: " \
                                   "standard output is closed"
    assert "Traceback" not in err


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_closed_stderr_changes_neither_the_status_nor_the_output(
        name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The same command with a stderr to write to is the reference."""
    args = COMMANDS[name]
    out, err = io.StringIO(), io.StringIO()
    expected = _main(args, out, err, monkeypatch, tmp_path), _untimed(out.getvalue())
    assert "Traceback" not in err.getvalue()
    status, got = _run_closed(args, "stderr", monkeypatch, tmp_path)
    assert (status, _untimed(got)) == expected


def _untimed(text: str) -> str:
    """``text`` without the seconds a run took (``solve`` prints them)."""
    return re.sub(r"\b\d+\.\d+ s\b", "N s", text)


#: The commands the closed channels were found with, and a run of each that
#: ends 0, 1 or 2 when both channels are open.
CLOSED_CASES: dict[str, tuple[list[str], int]] = {
    "check": (["check", "club.mgn"], 1),
    "check-clean": (["check", "clean.mgn"], 0),
    "check-json": (["check", "--format", "json", "club.mgn"], 1),
    "check-missing": (["check", "club.mgn", "missing.mgn"], 2),
    "study": (["study", "clean.mgn"], 0),
    "fmt": (["fmt", "club.mgn"], 0),
    "replay-at": (["replay", "club.mgn", "--at", "1.2"], 0),
}


def _closed_for_real(args: list[str], redirect: str, tmp_path: Path
                     ) -> subprocess.CompletedProcess[str]:
    """``muggins ARGS REDIRECT`` (``>&-`` or ``2>&-``) as a shell runs it."""
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    (tmp_path / "clean.mgn").write_text(THREES, encoding="utf-8")
    captured = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.run(["sh", "-c", f'"$@" {redirect}', "sh", *_muggins(*args)],
                          **captured, text=True, cwd=tmp_path, timeout=300)


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("name", list(CLOSED_CASES))
def test_a_closed_stdout_for_real(name: str, tmp_path: Path) -> None:
    args, _ = CLOSED_CASES[name]
    done = _closed_for_real(args, ">&-", tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert lines[-1] == f"muggins {args[0]}: cannot write the output: standard output is closed"
    assert "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("name", list(CLOSED_CASES))
def test_a_closed_stderr_for_real(name: str, tmp_path: Path) -> None:
    args, status = CLOSED_CASES[name]
    reference = _closed_for_real(args, "2>/dev/null", tmp_path)
    assert reference.returncode == status  # the case is what it says
    done = _closed_for_real(args, "2>&-", tmp_path)
    assert (done.returncode, done.stdout) == (status, reference.stdout)


def test_stopped_without_stderr_is_the_status_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (or SIGTERM) before the guarded run, with 2>&-: no line to
    say, and no traceback for want of one."""
    from muggins_cli.cli.app import interrupted

    monkeypatch.setattr(sys, "stderr", None)
    assert interrupted("muggins check") == 130
