"""Running one piece of work per file over many files, in order.

Three runners give the same results in the same (input) order:

- in this process (``jobs=1``, or a single file);
- in worker processes (``jobs>1``): files are grouped into small chunks (many
  small files, or one large one) and a bounded number of chunks per worker
  is in flight (AHEAD_CHUNKS, AHEAD_BYTES), so memory holds a bounded number
  of per-file results whatever the size of the corpus, and each result is
  handed on as soon as those before it are;
- on a Dask cluster (``scheduler=ADDRESS``, the optional extra
  ``muggins-cli[dask]``), the same chunks submitted as Dask tasks. The
  workers must see the files at the same absolute paths (a shared file
  system) and have the same version of muggins-cli installed.

Standard input (``-``) is always read here, in this process, at its place in
the order. The work itself is a :class:`Work`: two module-level functions, so
that it can be pickled for processes and Dask alike.

The process pool (``concurrent.futures``, ``multiprocessing``) and Dask's
``asyncio`` and ``logging`` are imported by the runner that uses them, not
with this module: ``muggins check FILE`` runs in this process and should
not start slower for what it does not use.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

import muggins_cli
from muggins_cli.check import STDIN, FileReport, check_file, not_checked
from muggins_cli.errors import MugginsError
from muggins_cli.process import as_worker, stopped_by

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

CHUNK_BYTES = 256 * 1024
"""Files are grouped until a chunk holds this many bytes (or CHUNK_FILES
files): big enough to make the cost of sending work to a process small, small
enough to keep both cores busy to the end of a run."""
CHUNK_FILES = 32
AHEAD_CHUNKS = 16
AHEAD_BYTES = 32 * 1024 * 1024
"""Per worker, at most this many chunks and bytes of records are submitted
ahead of the one the output waits for (but always one more chunk than there
are workers). Enough that a large file at the head of the queue does not
leave the other workers idle; few enough that the results waiting for their
turn take little memory."""
RETRIES = 1
"""``--retries`` by default: a file whose task failed on the cluster is
submitted once more before it is reported as not checked. The scheduler
itself already gives a task whose worker died to another worker (three
times by default), so this is for what it gives up on."""
NO_WORKERS_TIMEOUT = 60.0
"""Seconds a run on a cluster waits while it has no worker at all (none
started yet, or all lost) before it gives up; long enough for a worker to
be started or restarted by hand."""
POLL = 1.0
"""Seconds between looks at the cluster while a run waits for a task."""
DRAIN_SECONDS = 3.0
"""Seconds worker processes get, when a run stops early (Ctrl-C, an error, a
closed pipe), to finish and send back the work they hold before they are
ended."""


class BatchError(MugginsError):
    """The batch could not run: a worker died, or the cluster is unreachable."""


class DaskMissingError(BatchError):
    """``--scheduler`` was given but dask.distributed is not installed."""


@dataclass(frozen=True)
class Work(Generic[T]):
    """What to do with one file. ``run(path)`` gives its result;
    ``relabel(result, real, shown)`` rewrites a result computed from the
    path ``real`` as if it had been computed from ``shown`` (runners that
    hand workers absolute paths use it so that output names files as the
    user did); ``failed(shown, why)`` is the result for a file whose work
    could not be done at all (its task kept failing on a cluster), so that
    the rest of the run goes on. Without it, that ends the run."""

    run: Callable[[str], T]
    relabel: Callable[[T, str, str], T]
    failed: Callable[[str, str], T] | None = None


def no_relabel(result: T, real: str, shown: str) -> T:
    """For results that do not name their file."""
    return result


def relabel_report(report: FileReport, real: str, shown: str) -> FileReport:
    """A :class:`FileReport` for ``real`` as if it had been read as ``shown``
    (the path, and the path quoted in an ``unreadable`` message)."""
    if real == shown:
        return report
    diagnostics = [
        replace(d, message=d.message.replace(real, shown)) if d.code == "unreadable" else d
        for d in report.diagnostics
    ]
    return replace(report, path=shown, diagnostics=diagnostics)


CHECK: Work[FileReport] = Work(check_file, relabel_report, not_checked)
"""``muggins check``: :func:`muggins_cli.check.check_file` on each file."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# ---------------------------------------------------------------------------
# Chunks


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


@dataclass(frozen=True)
class Chunk:
    paths: list[str]
    bytes: int


def chunked(paths: Iterable[str], *, max_bytes: int = CHUNK_BYTES,
            max_files: int = CHUNK_FILES) -> Iterator[Chunk]:
    """Consecutive paths grouped into chunks of about ``max_bytes`` (a file
    larger than that is a chunk of its own); ``-`` is always alone."""
    chunk: list[str] = []
    size = 0
    for path in paths:
        if path == STDIN:
            if chunk:
                yield Chunk(chunk, size)
            yield Chunk([path], 0)
            chunk, size = [], 0
            continue
        chunk.append(path)
        size += _size(path)
        if size >= max_bytes or len(chunk) >= max_files:
            yield Chunk(chunk, size)
            chunk, size = [], 0
    if chunk:
        yield Chunk(chunk, size)


def run_chunk(work: Work[T], items: Sequence[tuple[str, str]]) -> list[T]:
    """The worker's side: ``work`` on each ``(real, shown)`` path, in order."""
    out: list[T] = []
    for real, shown in items:
        result = work.run(real)
        out.append(result if real == shown else work.relabel(result, real, shown))
    return out


# ---------------------------------------------------------------------------
# Ordered, bounded fan-out


class _Result(Protocol[T_co]):
    def result(self) -> T_co: ...


class _Here(Generic[T]):
    """Work done in this process when its turn in the output comes."""

    def __init__(self, fn: Callable[[], T]) -> None:
        self._fn = fn

    def result(self) -> T:
        return self._fn()


@dataclass(frozen=True)
class ChunkSize:
    bytes: int = CHUNK_BYTES
    files: int = CHUNK_FILES

    @classmethod
    def for_run(cls, paths: Sequence[str], workers: int) -> ChunkSize:
        """Chunks small enough that a short run still gives every worker
        several (so that both cores stay busy to the end), large enough that
        a long one does not pay for sending many small tasks."""
        share = max(1, workers * 8)
        total = sum(_size(p) for p in paths if p != STDIN)
        return cls(bytes=max(1, min(CHUNK_BYTES, total // share)),
                   files=max(1, min(CHUNK_FILES, len(paths) // share)))


def _in_order(submit: Callable[[list[str]], _Result[list[T]]], work: Work[T],
              paths: Iterable[str], workers: int, size: ChunkSize) -> Iterator[T]:
    """Submit chunks ahead (see AHEAD_CHUNKS) and yield their results in
    input order as soon as the next one is done. Standard input is read
    here, in its turn."""
    most_chunks = workers * AHEAD_CHUNKS
    most_bytes = workers * AHEAD_BYTES
    pending: deque[tuple[_Result[list[T]], int]] = deque()
    ahead = 0  # bytes in pending

    def too_many() -> bool:
        return len(pending) > most_chunks or (len(pending) > workers + 1
                                              and ahead > most_bytes)

    for chunk in chunked(paths, max_bytes=size.bytes, max_files=size.files):
        if chunk.paths == [STDIN]:
            pending.append((_Here(lambda: [work.run(STDIN)]), 0))
        else:
            pending.append((submit(chunk.paths), chunk.bytes))
        ahead += chunk.bytes
        while too_many():
            head, nbytes = pending.popleft()
            ahead -= nbytes
            yield from head.result()
    while pending:
        yield from pending.popleft()[0].result()


def run_local(work: Work[T], paths: Iterable[str]) -> Iterator[T]:
    """Every file in this process, one after another."""
    for path in paths:
        yield work.run(path)


def _mp_context() -> BaseContext:
    # On Linux, fork: workers start at once with everything imported. The
    # pool is started before anything here runs a thread (see
    # run_processes). Elsewhere spawn, the only safe choice on macOS and the
    # only one on Windows.
    import multiprocessing

    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _worker_init() -> None:
    as_worker()


def _broken(e: BaseException) -> BaseException:
    """What a pool broken by a dead worker means: the stop of the whole
    command when a signal that stops it came (it may have reached the
    workers first: sent to the process group), else a worker's death."""
    if stopped_by() is not None:
        return KeyboardInterrupt()
    return BatchError(f"a worker process died ({e}); try --jobs 1")


def _stop(executor: ProcessPoolExecutor, deadline: float = DRAIN_SECONDS) -> None:
    """Drop queued work, let the workers finish and send back what they hold
    (for at most ``deadline`` seconds), then end the ones still at it.

    A worker ended while it sends a result leaves half a message in the
    result pipe, and the pool's reader thread waits for the rest for ever;
    the interpreter joins that thread at exit, so Ctrl-C hung the command.
    The workers are therefore let go only once their results are read, and
    after ending one, the pipe is closed behind it (the workers' ends went
    with them, this process's is the last): the reader sees its end,
    declares the pool broken, and its thread ends."""
    # Shutting down forgets them: kept here.
    procs = list((getattr(executor, "_processes", None) or {}).values())
    reader = getattr(executor, "_executor_manager_thread", None)
    results = getattr(executor, "_result_queue", None)
    executor.shutdown(wait=False, cancel_futures=True)
    end = time.monotonic() + deadline
    for proc in procs:
        proc.join(max(0.0, end - time.monotonic()))
    late = [proc for proc in procs if proc.is_alive()]
    for proc in late:
        proc.terminate()
    for proc in late:
        proc.join(1.0)
        if proc.is_alive():
            proc.kill()
            proc.join(1.0)
    if reader is None:
        return
    reader.join(0.0 if late else max(0.0, end - time.monotonic()))
    if reader.is_alive():
        writer = getattr(results, "_writer", None)
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()
        reader.join(1.0)


def run_processes(work: Work[T], paths: Sequence[str], jobs: int) -> Iterator[T]:
    """The files spread over ``jobs`` worker processes, results in order.
    The workers are started now, before the caller starts any thread (a
    progress bar), so that forking them is safe."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=_mp_context(),
                                   initializer=_worker_init)
    try:
        executor.submit(os.getpid).result()
    except BrokenProcessPool as e:
        _stop(executor)
        raise BatchError(f"cannot start worker processes ({e}); try --jobs 1") from None
    return _process_results(executor, work, paths, jobs)


def _process_results(executor: ProcessPoolExecutor, work: Work[T], paths: Sequence[str],
                     jobs: int) -> Iterator[T]:
    from concurrent.futures.process import BrokenProcessPool

    ok = False
    try:
        def submit(chunk: list[str]) -> Future[list[T]]:
            return executor.submit(run_chunk, work, [(p, p) for p in chunk])

        yield from _in_order(submit, work, paths, jobs, ChunkSize.for_run(paths, jobs))
        ok = True
    except BrokenProcessPool as e:
        raise _broken(e) from None
    finally:
        # On an early stop (an error, Ctrl-C, a closed pipe) drop the rest.
        if ok:
            executor.shutdown(wait=True)
        else:
            _stop(executor)


class TaskPool:
    """Worker processes for many small pieces of one file's work (the
    solver's turns, which cost far more than reading the file), results in
    order. Started at once, before the caller starts a thread (a progress
    bar), as :func:`run_processes` is; a context manager that stops the
    workers on the way out."""

    def __init__(self, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        self.jobs = jobs
        self._executor = ProcessPoolExecutor(max_workers=jobs, mp_context=_mp_context(),
                                             initializer=_worker_init)
        try:
            self._executor.submit(os.getpid).result()
        except BrokenProcessPool as e:
            _stop(self._executor)
            raise BatchError(f"cannot start worker processes ({e}); try --jobs 1") from None

    def map(self, fn: Callable[..., T], items: Iterable[Any], *args: Any,
            failed: Callable[[Any, str], T] | None = None) -> Iterator[T]:
        """``fn(item, *args)`` for every item, in order, each as soon as it
        and those before it are done (all are submitted at once: they are
        few, and a slow one must not keep the other workers idle).
        ``failed`` is :class:`ClusterPool`'s: here a worker process that
        dies breaks the whole pool, and the run ends."""
        from concurrent.futures.process import BrokenProcessPool

        # What is left when the reader stops early is dropped on the way out
        # of the pool, by the pool's own thread: a task cancelled from here
        # while the workers die (a signal to the process group) makes that
        # thread raise on Python 3.11, and the command print a traceback.
        futures = [self._executor.submit(fn, item, *args) for item in items]
        try:
            for f in futures:
                yield f.result()
        except BrokenProcessPool as e:
            raise _broken(e) from None

    def __enter__(self) -> TaskPool:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            self._executor.shutdown(wait=True, cancel_futures=True)
        else:
            _stop(self._executor)


def _absolute(path: str) -> str:
    return path if path == STDIN else os.path.abspath(path)


@dataclass(frozen=True)
class Failure:
    """Why a task gave no result on the cluster, after all its tries."""

    cause: str
    tries: int

    def __str__(self) -> str:
        return f"{self.cause} ({self.tries} tr{'y' if self.tries == 1 else 'ies'})"


@dataclass(frozen=True)
class _Raised:
    """An exception of the work, sent back as a value: distributed cannot
    send every exception (a RecursionError's traceback is too deep to
    pickle, and the client then waits for ever), and one file's exception
    must not take the other files of its chunk with it."""

    text: str

    def failure(self) -> Failure:
        return Failure(f"its task raised {self.text}", 1)


def installed_version() -> str:
    """The muggins-cli of the process this runs in (the client runs it on
    the scheduler and on every worker)."""
    return muggins_cli.__version__


def _call_here(fn: Callable[..., T], *args: Any) -> T | _Raised:
    """``fn(*args)`` on a worker, its exception kept as its result."""
    try:
        return fn(*args)
    except Exception as e:  # any bug on any record: the item's failure, not the run's
        return _Raised(f"{type(e).__name__}: {e}")


def _run_one(work: Work[T], item: tuple[str, str]) -> T:
    return run_chunk(work, [item])[0]


def _run_chunk_here(work: Work[T], items: Sequence[tuple[str, str]]) -> list[T | _Raised]:
    """The worker's side on a cluster: :func:`run_chunk`, each file's
    exception kept as its result."""
    return [_call_here(_run_one, work, item) for item in items]


def _hush_distributed() -> None:
    """Silence distributed's loggers for the rest of this process: its
    client logs to stderr, with tracebacks, what :class:`Cluster` reports
    in one line (a lost scheduler, an exception it could not send back),
    and the CLI's stderr is for its own messages. Not undone when the
    cluster is closed: the client's event loop may still log after that."""
    import logging

    for name in ["distributed", *(n for n in logging.root.manager.loggerDict
                                  if n.startswith("distributed."))]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


class Cluster:
    """A Dask cluster to run work on: connected, checked to run this
    client's muggins-cli, and waited on without waiting for ever.

    A task that fails (its worker died while running it, as often as the
    scheduler allows, ``distributed.scheduler.allowed-failures``; or the
    work raised) is submitted again, up to ``retries`` times; then its
    caller gets a :class:`Failure` saying why, and goes on. Anything else
    that goes wrong between here and the scheduler is a :class:`BatchError`.
    """

    def __init__(self, address: str, retries: int = RETRIES) -> None:
        self.address = address
        self.retries = retries
        self.client = connect(address)
        _hush_distributed()  # now that distributed, and each of its loggers, is imported
        try:
            with self._talking():
                check_versions(self.client, address)
        except BaseException:
            self.close()
            raise

    @contextmanager
    def _talking(self) -> Iterator[None]:
        """Whatever distributed raises while the client talks to the
        scheduler (a closed connection, a client it closed itself after
        failing to reconnect, a cancelled call), as one line."""
        import asyncio

        try:
            yield
        except BatchError:
            raise
        except (Exception, asyncio.CancelledError):
            raise BatchError(f"lost the Dask scheduler at {self.address}") from None

    def threads(self) -> int:
        return sum(self._nthreads().values())

    def _nthreads(self) -> dict[str, int]:
        with self._talking():
            found: dict[str, int] = self.client.nthreads()
        return found

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        with self._talking():
            return self.client.submit(fn, *args, pure=False)

    def _wait(self, future: Any) -> None:
        """Until ``future`` is done; a :class:`BatchError` if the cluster
        has had no worker at all for NO_WORKERS_TIMEOUT seconds."""
        alone_since: float | None = None
        while True:
            with self._talking():
                try:
                    future.exception(timeout=POLL)  # waits; whatever the status
                    return
                except TimeoutError:
                    pass
            if self._nthreads():
                alone_since = None
                continue
            now = time.monotonic()
            alone_since = now if alone_since is None else alone_since
            if now - alone_since >= NO_WORKERS_TIMEOUT:
                raise BatchError(
                    f"the Dask cluster at {self.address} has had no worker for "
                    f"{NO_WORKERS_TIMEOUT:.0f} s; start one with: dask worker {self.address}")

    def one_try(self, future: Any) -> tuple[Any, Failure | None]:
        """The result of ``future``, or why there is none."""
        from distributed.scheduler import KilledWorker

        self._wait(future)
        if future.status == "finished":
            with self._talking():
                got = future.result()
            if isinstance(got, _Raised):
                return None, got.failure()
            return got, None
        if future.status == "error":
            with self._talking():
                e = future.exception()
            if isinstance(e, KilledWorker):
                return None, Failure(f"the Dask worker {e.last_worker.address} died during "
                                     "its task", e.allowed_failures + 1)
            return None, Failure(f"its task failed: {type(e).__name__}: {e}", 1)
        raise BatchError(f"lost the Dask scheduler at {self.address}")

    def result(self, future: Any, fn: Callable[..., Any], *args: Any) -> Any:
        """The result of ``future``, the task ``fn(*args)``, or after it
        failed, as :meth:`again` gives it."""
        got, failure = self.one_try(future)
        return got if failure is None else self.again(failure, fn, *args)

    def again(self, failure: Failure, fn: Callable[..., Any], *args: Any) -> Any:
        """The task ``fn(*args)``, which failed as ``failure`` says,
        submitted again up to ``retries`` times: its result, or a
        :class:`Failure` that counts every try."""
        last, tries = failure, failure.tries
        for _ in range(self.retries):
            got, failed = self.one_try(self.submit(fn, *args))
            if failed is None:
                return got
            last, tries = failed, tries + failed.tries
        return Failure(last.cause, tries)

    def close(self) -> None:
        try:
            with self._talking():
                self.client.close()
        except BatchError:
            pass  # closed already, or nothing left to close


def check_versions(client: Any, address: str) -> None:
    """A :class:`BatchError` naming the scheduler and the workers that do
    not run this client's muggins-cli (a task pickled here names functions
    that they must have, and the same report needs the same code)."""
    mine = installed_version()
    found: dict[str, object] = {}
    try:
        found["the scheduler"] = client.run_on_scheduler(installed_version)
    except Exception as e:  # whatever the scheduler sent back for it
        found["the scheduler"] = e
    for worker, got in sorted(client.run(installed_version, on_error="return").items()):
        found[f"the worker {worker}"] = got
    odd = [f"{who} runs {got}" if isinstance(got, str) else
           f"{who} cannot run it ({type(got).__name__}: {got})"
           for who, got in found.items() if got != mine]
    if odd:
        raise BatchError(f"the Dask cluster at {address} does not run muggins-cli {mine} as "
                         f"this client does: {'; '.join(odd)}")


class _ChunkTask(Generic[T]):
    """A chunk's files as one task on the cluster. If the task fails, each
    of its files is submitted alone (so that a file that kills its worker
    takes no other file with it), and so is a file whose work raised; each
    is then tried as :meth:`Cluster.result` does, and a file that still
    fails gets ``work.failed``'s result."""

    def __init__(self, cluster: Cluster, work: Work[T], paths: list[str]) -> None:
        self._cluster = cluster
        self._work = work
        self._items = [(_absolute(p), p) for p in paths]
        self._future = cluster.submit(_run_chunk_here, work, self._items)

    def result(self) -> list[T]:
        got, failure = self._cluster.one_try(self._future)
        if failure is None:
            return [self._alone(item, None, r.failure()) if isinstance(r, _Raised) else r
                    for r, item in zip(got, self._items)]
        if len(self._items) == 1:  # it was the file's task alone
            return [self._alone(self._items[0], None, failure)]
        futures = [self._cluster.submit(_call_here, _run_one, self._work, item)
                   for item in self._items]
        return [self._alone(item, *self._cluster.one_try(f))
                for item, f in zip(self._items, futures)]

    def _alone(self, item: tuple[str, str], got: Any, failure: Failure | None) -> T:
        """The file's result: ``got`` from its first try alone, or, that
        try having failed as ``failure`` says, from the tries after it."""
        if failure is not None:
            got = self._cluster.again(failure, _call_here, _run_one, self._work, item)
            if isinstance(got, Failure):
                return _failed(self._work, item[1], got)
        return cast(T, got)


def _failed(work: Work[T], path: str, failure: Failure) -> T:
    if work.failed is None:
        raise BatchError(f"{path}: {failure}")
    return work.failed(path, str(failure))


def run_dask(work: Work[T], paths: Sequence[str], scheduler: str,
             retries: int = RETRIES) -> Iterator[T]:
    """The files as Dask tasks on the cluster at ``scheduler``, results in
    order. Workers get absolute paths; results name files as given. The
    connection is made now, so a bad address fails before any output."""
    return _dask_results(Cluster(scheduler, retries), work, paths)


def _dask_results(cluster: Cluster, work: Work[T], paths: Sequence[str]) -> Iterator[T]:
    try:
        threads = cluster.threads() or 1

        def submit(chunk: list[str]) -> _ChunkTask[T]:
            return _ChunkTask(cluster, work, chunk)

        yield from _in_order(submit, work, paths, threads,
                             ChunkSize.for_run(paths, threads))
    finally:
        cluster.close()


class ClusterPool:
    """:class:`TaskPool` on a Dask cluster: many small pieces of one file's
    work (the solver's turns) as tasks, results in order; an item whose
    task keeps failing gets ``failed(item, why)``'s result."""

    def __init__(self, scheduler: str, retries: int = RETRIES) -> None:
        self._cluster = Cluster(scheduler, retries)

    def map(self, fn: Callable[..., T], items: Iterable[Any], *args: Any,
            failed: Callable[[Any, str], T] | None = None) -> Iterator[T]:
        """``fn(item, *args)`` for every item, in order, as
        :meth:`TaskPool.map` gives them."""
        work = [(item, self._cluster.submit(_call_here, fn, item, *args)) for item in items]
        for item, future in work:
            got = self._cluster.result(future, _call_here, fn, item, *args)
            if not isinstance(got, Failure):
                yield cast(T, got)
            elif failed is None:
                raise BatchError(str(got))
            else:
                yield failed(item, str(got))

    def __enter__(self) -> ClusterPool:
        return self

    def __exit__(self, *rest: object) -> None:
        self._cluster.close()


def connect(scheduler: str) -> Any:
    """A ``distributed.Client`` for ``scheduler``, or a one-line error."""
    try:
        from distributed import Client
    except ImportError:
        raise DaskMissingError(
            "--scheduler needs dask.distributed, which is not installed: "
            "pip install 'muggins-cli[dask]'") from None
    try:
        client: Any = Client(scheduler, timeout="10s", set_as_default=False)  # type: ignore[no-untyped-call]
        return client
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None


def cluster_retries(scheduler: str | None, retries: int | None) -> int:
    """``--retries``, which only a cluster knows what to do with: a process
    of this machine that dies takes its whole pool with it."""
    if retries is not None and scheduler is None:
        raise BatchError("--retries goes with --scheduler")
    if retries is not None and retries < 0:
        raise BatchError(f"--retries must be 0 or more, not {retries}")
    return RETRIES if retries is None else retries


def run(work: Work[T], paths: Sequence[str], *, jobs: int | None = None,
        scheduler: str | None = None, retries: int | None = None) -> Iterator[T]:
    """``work`` on every path, results in the order of ``paths``, by the
    runner the options ask for: Dask when ``scheduler`` is given (with
    ``retries``), worker processes when ``jobs`` (default: the cores) is
    above 1 and there are several files, this process otherwise."""
    tries_again = cluster_retries(scheduler, retries)
    if scheduler is not None:
        return run_dask(work, paths, scheduler, tries_again)
    n = default_jobs() if jobs is None else jobs
    if n < 1:
        raise BatchError(f"--jobs must be at least 1, not {n}")
    n = min(n, len(paths))
    if n <= 1:
        return run_local(work, paths)
    return run_processes(work, paths, n)


def check_many(paths: Sequence[str], *, jobs: int | None = None,
               scheduler: str | None = None,
               retries: int | None = None) -> Iterator[FileReport]:
    """:func:`muggins_cli.check.check_file` on every path, in order."""
    return run(CHECK, paths, jobs=jobs, scheduler=scheduler, retries=retries)


__all__ = [
    "CHECK",
    "RETRIES",
    "BatchError",
    "Cluster",
    "ClusterPool",
    "DaskMissingError",
    "Failure",
    "Work",
    "check_many",
    "chunked",
    "cluster_retries",
    "default_jobs",
    "no_relabel",
    "relabel_report",
    "run",
    "run_chunk",
]
