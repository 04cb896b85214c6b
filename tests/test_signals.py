"""SIGTERM and SIGHUP (``kill``, a service stopped, a CI job cancelled, a
terminal closed) stop a command as Ctrl-C does: its worker processes are
stopped, it says so in one line, and it ends with the status a shell gives
a command that signal ended (128 + the signal); nothing of it is left
running. Real processes, signalled; the processes of a run are found in
/proc by the session each run is started in."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.records import CLUB_FIRST

RECORDS = Path(__file__).resolve().parents[1] / "records"
MUGGINS = str(Path(sys.executable).with_name("muggins"))


def _session(sid: int) -> list[int]:
    """Every process of the session ``sid`` but its leader, zombies too."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == sid:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # pid (comm) state ppid pgrp session ...: comm may hold anything
        fields = stat[stat.rindex(b")") + 2:].split()
        if int(fields[3]) == sid:
            found.append(int(entry))
    return found


def _wait_for_workers(child: subprocess.Popen[str], count: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert child.poll() is None, "the command ended before its workers started"
        workers = _session(child.pid)
        if len(workers) >= count:
            return workers
        time.sleep(0.05)
    raise AssertionError(f"no {count} worker processes within {seconds} s")


def _stop(args: list[str], signum: int, to_group: bool, cwd: Path, after: float
          ) -> tuple[int | None, str, list[int]]:
    """``muggins ARGS`` sent ``signum`` once its two workers run (to the
    command alone, as ``kill PID`` does, or to its process group, as a
    terminal or a service manager does); its status, stderr, and what is
    left of its session once it ended."""
    child = subprocess.Popen([MUGGINS, *args], cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _wait_for_workers(child, 2, 300)
        time.sleep(after)  # at work
        assert child.poll() is None, "the command ended before it was signalled"
        if to_group:
            os.killpg(child.pid, signum)
        else:
            os.kill(child.pid, signum)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    left = _session(child.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return child.returncode, err, left


SIGNALS = [pytest.param(signal.SIGTERM, "terminated", id="SIGTERM"),
           pytest.param(signal.SIGHUP, "hung up", id="SIGHUP")]
TO = [pytest.param(False, id="to-the-command"), pytest.param(True, id="to-the-group")]


@pytest.mark.slow  # real processes, signalled
@pytest.mark.parametrize("to_group", TO)
@pytest.mark.parametrize(("signum", "said"), SIGNALS)
def test_check_jobs_2_leaves_no_worker(signum: int, said: str, to_group: bool,
                                       tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    text = CLUB_FIRST + "Zed: pass\n" * 5000  # 5,000 unknown-player findings each
    for i in range(200):
        (records / f"r{i:03d}.mgn").write_text(text, encoding="utf-8")
    status, err, left = _stop(["check", "--jobs", "2", "records"], signum, to_group,
                              tmp_path, 1.0)
    assert left == []
    assert status == 128 + signum, err
    assert err == f"muggins check: {said}\n"


@pytest.mark.slow  # real processes, signalled; the solver (compiled once per machine)
@pytest.mark.parametrize("to_group", TO)
@pytest.mark.parametrize(("signum", "said"), SIGNALS)
def test_study_solver_jobs_2_leaves_no_worker(signum: int, said: str, to_group: bool,
                                              tmp_path: Path) -> None:
    status, err, left = _stop(["study", str(RECORDS / "league-pagat-4p.mgn"), "--solver",
                               "--jobs", "2", "-q", "-o", "page.html"], signum, to_group,
                              tmp_path, 2.0)
    assert left == []
    assert status == 128 + signum, err
    assert err == f"muggins study: {said}\n"
    assert list(tmp_path.iterdir()) == []  # no page, no temporary file


@pytest.mark.slow  # real processes, signalled
@pytest.mark.parametrize("to_group", TO)
@pytest.mark.parametrize(("signum", "said"), SIGNALS)
def test_arena_jobs_2_leaves_no_worker(signum: int, said: str, to_group: bool,
                                       tmp_path: Path) -> None:
    status, err, left = _stop(["arena", "expectimax", "greedy", "--sequences", "200",
                               "--jobs", "2"], signum, to_group, tmp_path, 2.0)
    assert left == []
    assert status == 128 + signum, err
    assert err == f"muggins arena: {said}\n"
