"""The progress bar in a real terminal: the real command run on a pseudo-
terminal, its bytes played through a terminal emulator (pyte), and the
screen read as a person would read it."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

pytestmark = pytest.mark.slow  # real commands under a pseudo-terminal: run apart, with -m slow

REPO = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = 240, 300


def run_in_terminal(argv: list[str], *, timeout: float = 300,
                    env_set: dict[str, str] | None = None) -> tuple[int, bytes]:
    """Exit status and every byte written to the terminal, stdout and stderr
    both, as they are when a user runs the command by hand (in an
    xterm-256color unless ``env_set`` says otherwise)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
                        "COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    env.update(env_set or {})
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=REPO, env=env,
                             close_fds=True)
    os.close(slave)
    out = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if child.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(master)
        if child.poll() is None:
            child.kill()
    return child.wait(timeout=30), bytes(out)


def screen_lines(data: bytes) -> list[str]:
    """The lines left on the screen, trailing blanks and empty lines at the
    bottom dropped."""
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.ByteStream(screen)
    stream.feed(data)
    lines = [line.rstrip() for line in screen.display]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def muggins(*args: str) -> list[str]:
    return [sys.executable, "-m", "muggins_cli", *args]


@pytest.mark.parametrize(
    ("command", "first", "summary"),
    [
        # The first finding of the README's example.
        (("check",), "records/kept-without-deals-2p.mgn:11:8: info unverified ",
         "checked 12 files, 12 matches: 2 errors, 0 warnings; exit status 1: errors found"),
        # The first match's statistics (its file has no finding).
        (("analyze",), "records/club-night-pagat-2p.mgn: match at line 1 (Ana, Budi; pagat)",
         "checked 12 files, 12 matches: 2 errors, 46 warnings; exit status 1: errors found"),
    ],
)
def test_findings_start_on_their_own_line_and_the_summary_is_said_once(
        command: tuple[str, ...], first: str, summary: str) -> None:
    status, data = run_in_terminal(muggins(*command, "--jobs", "1", "records"))
    assert status == 1, data[-2000:]
    lines = screen_lines(data)
    assert lines[0].startswith(first), lines[:3]
    assert not [line for line in lines if "checking" in line or "analysing" in line
                or "━" in line]
    assert lines[-1] == summary
    # The count the bar stood for is not said again above the summary.
    assert not [line for line in lines if line in ("checked 12 files", "analysed 12 files")]
    findings = [line for line in lines if line.startswith("records/")
                and ": match at line " not in line]
    assert all(f.split(" ")[1] in ("info", "warning", "error") for f in findings), findings


def test_with_stdout_to_a_file_the_count_stays_on_the_terminal(tmp_path: Path) -> None:
    """``muggins check records > out.txt``: the report goes to the file, and
    the terminal, where the bar was, is told how many files were checked."""
    out = tmp_path / "out.txt"
    shell = f"{' '.join(muggins('check', '--jobs', '1', 'records'))} > {out}"
    status, data = run_in_terminal(["/bin/sh", "-c", shell])
    assert status == 1
    assert screen_lines(data) == ["checked 12 files"]
    text = out.read_text(encoding="utf-8")
    assert "\x1b" not in text
    assert text.splitlines()[-1] == ("checked 12 files, 12 matches: 2 errors, 0 warnings"
                                     "; exit status 1: errors found")


def test_solver_bar_leaves_the_findings_whole() -> None:
    """``analyze --solver`` counts turns, not files, with the same bar, and
    the findings on the terminal are those of the same run into a pipe
    (where no bar is drawn), each whole on a line of its own."""
    argv = muggins("analyze", "--solver", "--max-samples", "2", "--deal-nodes", "2000", "--jobs", "1",
                   "records/mistake-illegal-draw.mgn")
    piped = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)
    assert piped.returncode == 1, piped.stderr
    expected = [line for line in piped.stdout.splitlines() if line.startswith("records/")
                and ": match at line " not in line]
    assert [f.split(" ")[1:3] for f in expected][-1] == ["error", "illegal-draw"]
    assert ["warning", "costly-play"] in [f.split(" ")[1:3] for f in expected]
    status, data = run_in_terminal(argv)
    assert status == 1, data[-2000:]
    lines = screen_lines(data)
    assert lines[0].startswith("records/mistake-illegal-draw.mgn:"), lines[:3]
    assert not [line for line in lines if "weighing" in line or "━" in line]
    findings = [line for line in lines if line.startswith("records/")
                and ": match at line " not in line]
    assert findings == expected
    warnings = sum(" warning " in f for f in expected)
    assert lines[-1] == (f"checked 1 file, 1 match: 1 error, {warnings} warnings; "
                         "exit status 1: errors found")
    # The count of the turns is the report's own last solver line, said once:
    # stderr's closing line (a pipe's) is not repeated under the bar.
    said = [line for line in piped.stdout.splitlines() if line.startswith("weighed ")]
    assert len(said) == 1
    assert [line for line in lines if line.startswith("weighed ")] == said


@pytest.mark.parametrize(("env_set", "args", "coloured", "bar"), [
    ({}, (), True, True),
    ({"TERM": "dumb"}, (), False, False),  # no colour, and no cursor moved: no bar
    ({"NO_COLOR": "1"}, (), False, True),
    ({"NO_COLOR": ""}, (), True, True),  # empty: as if unset
    ({"NO_COLOR": "1"}, ("--color", "always"), True, True),  # the flag wins
    ({}, ("--color", "never"), False, True),
])
def test_colour_and_bar_follow_the_terminal_s_conventions(
        env_set: dict[str, str], args: tuple[str, ...], coloured: bool, bar: bool) -> None:
    status, data = run_in_terminal(muggins("check", "--jobs", "1", *args, "records"),
                                   env_set=env_set)
    assert status == 1
    assert (b"\x1b[31m" in data) is coloured  # red: the two errors
    assert (b"\r\x1b[2K" in data) is bar
    if not coloured and not bar:
        assert b"\x1b" not in data and b"\r" not in data.replace(b"\r\n", b"")
    lines = screen_lines(data)
    assert lines[-1] == ("checked 12 files, 12 matches: 2 errors, 0 warnings; "
                         "exit status 1: errors found")
