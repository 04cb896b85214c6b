"""Stopping worker processes early (Ctrl-C, an error, a closed pipe) never
hangs: queued work is dropped, the workers finish and send back what they
hold, and only past a deadline are they ended, the result pipe then closed
behind them so that the pool's reader thread, waiting for a message a
worker was cut off in the middle of, sees its end instead of waiting for
ever (and the interpreter, which joins that thread at exit, with it)."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Generator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import EXTRA_QUEUED_CALLS
from pathlib import Path
from typing import Any, cast

import pytest

from muggins_cli.batch import TaskPool, _mp_context, _stop, _worker_init
from tests.hostile import ctrl_c_reaches_it
from tests.records import CLUB_FIRST


def _sleep_then(seconds: float, size: int) -> bytes:
    time.sleep(seconds)
    return b"x" * size


def _pool() -> tuple[ProcessPoolExecutor, list[Any], Any]:
    executor = ProcessPoolExecutor(max_workers=1, mp_context=_mp_context(),
                                   initializer=_worker_init)
    executor.submit(os.getpid).result()  # started
    procs = list(executor._processes.values())  # type: ignore[attr-defined]
    thread = executor._executor_manager_thread  # type: ignore[attr-defined]
    return executor, procs, thread


def _started(future: Future[Any]) -> None:
    deadline = time.monotonic() + 10
    while not future.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert future.running()


def test_a_worker_finishes_and_sends_what_it_holds_before_it_is_stopped() -> None:
    """Its 20 MB result is read whole: the worker ends by itself, not by a
    signal, and nothing is left to block the reader."""
    executor, (proc,), thread = _pool()
    running = executor.submit(_sleep_then, 0.5, 20_000_000)
    queued = [executor.submit(_sleep_then, 0.1, 10) for _ in range(5)]
    _started(running)
    _stop(executor, deadline=20)
    assert running.result(timeout=0) == b"x" * 20_000_000
    # Each queued task is dropped, or done whole if the pool had already
    # handed it over: never cut off. The pool's call queue holds one task a
    # worker and one more, and it refills as soon as the worker takes the
    # long task, so up to two of the queued ones may be in it (on a loaded
    # machine, often are).
    assert all(f.cancelled() or f.result(timeout=0) == b"x" * 10 for f in queued)
    assert sum(f.cancelled() for f in queued) >= len(queued) - (1 + EXTRA_QUEUED_CALLS)
    proc.join(5)
    assert proc.exitcode == 0
    thread.join(5)
    assert not thread.is_alive()


def test_a_worker_past_the_deadline_is_ended() -> None:
    executor, (proc,), thread = _pool()
    running = executor.submit(_sleep_then, 600, 10)
    _started(running)
    start = time.monotonic()
    _stop(executor, deadline=0.5)
    assert time.monotonic() - start < 5
    proc.join(5)
    assert proc.exitcode == -signal.SIGTERM
    thread.join(5)
    assert not thread.is_alive()


def test_half_a_result_in_the_pipe_does_not_hang_the_reader() -> None:
    """What a worker ended in the middle of sending leaves: a message's
    length and part of it. The reader waits for the rest; once the workers
    are gone, closing the pipe behind them lets it see the end."""
    executor, (proc,), thread = _pool()
    writer = executor._result_queue._writer  # type: ignore[attr-defined]
    os.write(writer.fileno(), struct.pack("!i", 1_000_000) + b"half a message")
    time.sleep(0.2)  # the reader is now waiting for the other 999,986 bytes
    start = time.monotonic()
    try:
        _stop(executor, deadline=0.5)
        assert time.monotonic() - start < 10
        thread.join(5)
        assert not thread.is_alive()
    finally:
        if thread.is_alive():  # let the test process exit all the same
            writer.close()
            proc.kill()


def _first_quick(item: int, marks: str) -> int:
    """Task ``item`` of a map: the first done at once, the others long, each
    leaving a mark that it ran."""
    Path(marks, str(item)).touch()
    if item:
        time.sleep(600 if marks.endswith("long") else 2.0)
    return item


def test_workers_dying_after_a_map_is_left_raise_nothing_in_the_pool_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGTERM to the process group: the command leaves its map and the
    workers die. The pool's thread then marks every task not yet handed to
    a worker as failed; one the map had cancelled from this thread made it
    raise (Python 3.11's pool does not expect it), and the command printed
    a traceback beside its one line."""
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda a: raised.append(a.exc_value))
    marks = tmp_path / "long"
    marks.mkdir()
    pool = TaskPool(2)
    procs = list(pool._executor._processes.values())
    thread = cast(threading.Thread, pool._executor._executor_manager_thread)
    try:
        results = cast("Generator[int, None, None]",
                       pool.map(_first_quick, range(12), str(marks)))
        assert next(results) == 0
        results.close()  # the command stops reading
        for proc in procs:
            proc.kill()
        thread.join(20)
        assert not thread.is_alive()
    finally:
        pool.__exit__(KeyboardInterrupt, None, None)
    assert raised == []


def test_a_map_left_early_drops_what_no_worker_started(tmp_path: Path) -> None:
    """Leaving the pool after a map was left (no error: the reader of the
    results had what it wanted) waits for the tasks at work, not for every
    task submitted."""
    marks = tmp_path / "short"
    marks.mkdir()
    with TaskPool(2) as pool:
        for item in pool.map(_first_quick, range(40), str(marks)):
            assert item == 0
            break
    # The first, one at work in each of the 2 workers, and up to 3 in the
    # pool's call queue, taken up as the workers free (each task takes 2 s,
    # so a busy machine has that long to leave the loop for the pool's
    # exit): never all 40.
    assert 1 <= len(list(marks.iterdir())) <= 1 + 2 + 3 + 2


@pytest.mark.slow  # real processes, signalled
def test_ctrl_c_while_stopped_ends_check_jobs_2(tmp_path: Path) -> None:
    """The terminal's Ctrl-C after Ctrl-Z: SIGSTOP, SIGINT and SIGCONT to
    the whole process group, while the workers send results of 5,000
    findings each. It hung nearly every time."""
    records = tmp_path / "records"
    records.mkdir()
    text = CLUB_FIRST + "Zed: pass\n" * 5000  # 5,000 unknown-player findings
    for i in range(60):
        (records / f"r{i:02d}.mgn").write_text(text, encoding="utf-8")
    for delay in (1.0, 1.5, 2.0):
        child = subprocess.Popen([sys.executable, "-m", "muggins_cli", "check", "--jobs", "2",
                                  str(records)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True,
                                 preexec_fn=ctrl_c_reaches_it)
        time.sleep(delay)
        os.killpg(child.pid, signal.SIGSTOP)
        time.sleep(0.3)
        os.killpg(child.pid, signal.SIGINT)
        time.sleep(0.1)
        os.killpg(child.pid, signal.SIGCONT)
        try:
            _, err = child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail(f"check --jobs 2 did not end within 20 s of Ctrl-C (delay {delay})")
        assert child.returncode == 130, err
        assert err == "muggins check: interrupted\n"
