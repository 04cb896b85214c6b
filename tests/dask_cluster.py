"""A real Dask cluster on this machine, started as a user starts one.

``dask scheduler`` and ``dask worker`` run as processes of their own, bound
to 127.0.0.1 (their HTTP servers too) on ports the system picks (the scheduler writes its address to
a scheduler file; the workers read it there), without dashboards, one
thread each, and without a nanny, so that a worker process killed stays
dead, as a machine that is lost does. Every process is killed on the way
out of :func:`real_cluster`, whatever happened; each would also end by
itself were this process killed first (the scheduler's ``--idle-timeout``,
the workers' ``--death-timeout``).

Workers load ``tests/dask_faults.py`` (test-only faults, driven through the
folder ``faults``) unless asked not to (``bench/bench_cluster.py`` measures
them as they are), and, when asked, ``tests/dask_other_version.py`` (the
scheduler too).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FAULTS = HERE / "dask_faults.py"
OTHER_VERSION = HERE / "dask_other_version.py"
DASK = [sys.executable, "-m", "dask"]
LOOPBACK = "127.0.0.1:0"
"""Where the HTTP servers go: even with ``--no-dashboard``, a scheduler and a
worker serve HTTP (health, metrics), by default on every interface."""
START_TIMEOUT = 60.0
"""Seconds to wait for the scheduler and workers to come up on a loaded
machine before the test fails (it never waits longer)."""


class Cluster:
    def __init__(self, folder: Path, scheduler_env: Mapping[str, str], *,
                 other_version: bool = False) -> None:
        self.folder = folder
        self.faults = folder / "faults"
        self.faults.mkdir(parents=True)
        self._file = folder / "scheduler.json"
        self._procs: list[subprocess.Popen[bytes]] = []
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        # Workers a test ended on purpose and took off the cluster.
        self._dropped: list[subprocess.Popen[bytes]] = []
        self._start([*DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                     "--no-dashboard", "--dashboard-address", LOOPBACK,
                     "--scheduler-file", str(self._file),
                     "--idle-timeout", "120",
                     *(["--preload", str(OTHER_VERSION)] if other_version else [])],
                    "scheduler", scheduler_env)
        self.address = ""
        self.client: Any = None

    def _start(self, args: list[str], name: str, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
        with open(self.folder / f"{name}.log", "wb") as log:
            proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                    env={**os.environ, **env}, cwd=self.folder)
        self._procs.append(proc)
        return proc

    def add_worker(self, name: str, *, faults: bool = True, other_version: bool = False) -> None:
        """A worker named ``name``, with the faults loaded unless told not
        to (and another muggins-cli version, if asked)."""
        preload = ["--preload", str(FAULTS)] if faults else []
        if other_version:
            preload += ["--preload", str(OTHER_VERSION)]
        self.workers[name] = self._start(
            [*DASK, "worker", "--scheduler-file", str(self._file), "--name", name,
             "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--no-dashboard",
             "--dashboard-address", LOOPBACK, "--host", "127.0.0.1", "--death-timeout", "30",
             *preload],
            name, {"MUGGINS_TEST_FAULTS": str(self.faults)})

    def wait_for_workers(self, n: int) -> None:
        """Until exactly ``n`` workers are registered with the scheduler."""
        deadline = time.monotonic() + START_TIMEOUT
        # The scheduler creates its file before it writes it: wait for the
        # whole JSON, not only the file (read empty once, in CI).
        while not self._file.exists() or not self._file.read_text().rstrip().endswith("}"):
            self._check_alive()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        if self.client is None:
            from distributed import Client

            self.address = json.loads(self._file.read_text())["address"]
            self.client = Client(self.address, timeout="20s", set_as_default=False)  # type: ignore[no-untyped-call]
        while len(self.client.nthreads()) != n:
            self._check_alive()
            assert time.monotonic() < deadline, f"not {n} workers: {self.client.nthreads()}"
            time.sleep(0.1)

    def _check_alive(self) -> None:
        for proc in self._procs:
            code = proc.poll()
            assert code is None or proc in self.workers.values() or proc in self._dropped, \
                f"{proc.args[:4]} ended with {code}; see the logs in {self.folder}"

    def address_of(self, name: str) -> str:
        """The address the worker called ``name`` listens on, asked of the
        scheduler now. Not through ``Client.scheduler_info()``: it returns
        the client's cached copy after refreshing it, and the client's own
        periodic refresh, which asks for no worker at all, may write that
        copy in between (an empty list of workers, once under load)."""
        identity = self.client.sync(self.client.scheduler.identity, n_workers=-1)
        for address, info in identity["workers"].items():
            if info["name"] == name:
                return str(address)
        raise AssertionError(f"no worker {name}")

    def kill(self, pid: int) -> str:
        """Kill (SIGKILL) the worker whose process is ``pid``; its name."""
        for name, proc in self.workers.items():
            if proc.pid == pid:
                proc.kill()
                proc.wait()
                return name
        raise AssertionError(f"{pid} is not a worker of this cluster")

    def drop_worker(self, name: str) -> None:
        """Kill (SIGKILL) the worker ``name`` and take it off the cluster:
        its end is no failure, however long the scheduler takes to see it."""
        proc = self.workers.pop(name)
        self._dropped.append(proc)
        proc.kill()
        proc.wait()

    def kill_scheduler(self) -> None:
        """Kill (SIGKILL) the scheduler, as a lost machine ends it."""
        self.client.close()
        self.client = None
        self._procs[0].kill()
        self._procs[0].wait()

    def close(self) -> None:
        try:
            if self.client is not None:
                self.client.close()
        finally:
            for proc in self._procs:
                proc.kill()
            for proc in self._procs:
                proc.wait()


@contextmanager
def real_cluster(folder: Path, workers: int = 2, *,
                 scheduler_env: Mapping[str, str] | None = None,
                 faults: bool = True, other_version: bool = False) -> Iterator[Cluster]:
    """A scheduler and ``workers`` workers (``w0``, ``w1``, ...), registered;
    without the test faults for a benchmark (``faults=False``); a scheduler
    that says it runs another muggins-cli with ``other_version``."""
    cluster = Cluster(folder, scheduler_env or {}, other_version=other_version)
    try:
        for i in range(workers):
            cluster.add_worker(f"w{i}", faults=faults)
        cluster.wait_for_workers(workers)
        yield cluster
    finally:
        cluster.close()


def wait_for(path_glob: str, folder: Path, *, timeout: float = 30.0,
             besides: set[Path] | None = None) -> Path:
    """The first file matching ``path_glob`` in ``folder`` other than
    ``besides``, waiting for it to appear (``timeout`` seconds at most)."""
    deadline = time.monotonic() + timeout
    while True:
        found = sorted(set(folder.glob(path_glob)) - (besides or set()))
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no {path_glob} in {folder}"
        time.sleep(0.05)
