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
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from muggins_cli.check import STDIN, FileReport, check_file
from muggins_cli.errors import MugginsError

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
    user did)."""

    run: Callable[[str], T]
    relabel: Callable[[T, str, str], T]


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


CHECK: Work[FileReport] = Work(check_file, relabel_report)
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


def _mp_context() -> multiprocessing.context.BaseContext:
    # On Linux, fork: workers start at once with everything imported. The
    # pool is started before anything here runs a thread (see
    # run_processes). Elsewhere spawn, the only safe choice on macOS and the
    # only one on Windows.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _worker_init() -> None:
    # Ctrl-C is the parent's to handle: it stops the workers itself, and
    # workers would only print a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(executor: ProcessPoolExecutor) -> None:
    """Drop queued work and end the workers now, mid-file if need be."""
    procs = dict(getattr(executor, "_processes", None) or {})  # shutdown forgets them
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in procs.values():
        proc.terminate()


def run_processes(work: Work[T], paths: Sequence[str], jobs: int) -> Iterator[T]:
    """The files spread over ``jobs`` worker processes, results in order.
    The workers are started now, before the caller starts any thread (a
    progress bar), so that forking them is safe."""
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
    ok = False
    try:
        def submit(chunk: list[str]) -> Future[list[T]]:
            return executor.submit(run_chunk, work, [(p, p) for p in chunk])

        yield from _in_order(submit, work, paths, jobs, ChunkSize.for_run(paths, jobs))
        ok = True
    except BrokenProcessPool as e:
        raise BatchError(f"a worker process died ({e}); try --jobs 1") from None
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
        self.jobs = jobs
        self._executor = ProcessPoolExecutor(max_workers=jobs, mp_context=_mp_context(),
                                             initializer=_worker_init)
        try:
            self._executor.submit(os.getpid).result()
        except BrokenProcessPool as e:
            _stop(self._executor)
            raise BatchError(f"cannot start worker processes ({e}); try --jobs 1") from None

    def map(self, fn: Callable[..., T], items: Iterable[Any], *args: Any) -> Iterator[T]:
        """``fn(item, *args)`` for every item, in order, each as soon as it
        and those before it are done (all are submitted at once: they are
        few, and a slow one must not keep the other workers idle)."""
        futures = [self._executor.submit(fn, item, *args) for item in items]
        try:
            for f in futures:
                yield f.result()
        except BrokenProcessPool as e:
            raise BatchError(f"a worker process died ({e}); try --jobs 1") from None
        finally:
            for f in futures:
                f.cancel()

    def __enter__(self) -> TaskPool:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            self._executor.shutdown(wait=True)
        else:
            _stop(self._executor)


def _absolute(path: str) -> str:
    return path if path == STDIN else os.path.abspath(path)


def run_dask(work: Work[T], paths: Sequence[str], scheduler: str) -> Iterator[T]:
    """The files as Dask tasks on the cluster at ``scheduler``, results in
    order. Workers get absolute paths; results name files as given. The
    connection is made now, so a bad address fails before any output."""
    return _dask_results(connect(scheduler), work, paths)


def _dask_results(client: Any, work: Work[T], paths: Sequence[str]) -> Iterator[T]:
    try:
        threads = sum(client.nthreads().values()) or 1

        def submit(chunk: list[str]) -> Any:
            items = [(_absolute(p), p) for p in chunk]
            return client.submit(run_chunk, work, items, pure=False)

        yield from _in_order(submit, work, paths, threads,
                             ChunkSize.for_run(paths, threads))
    finally:
        client.close()


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


def run(work: Work[T], paths: Sequence[str], *, jobs: int | None = None,
        scheduler: str | None = None) -> Iterator[T]:
    """``work`` on every path, results in the order of ``paths``, by the
    runner the options ask for: Dask when ``scheduler`` is given, worker
    processes when ``jobs`` (default: the cores) is above 1 and there are
    several files, this process otherwise."""
    if scheduler is not None:
        return run_dask(work, paths, scheduler)
    n = default_jobs() if jobs is None else jobs
    if n < 1:
        raise BatchError(f"--jobs must be at least 1, not {n}")
    n = min(n, len(paths))
    if n <= 1:
        return run_local(work, paths)
    return run_processes(work, paths, n)


def check_many(paths: Sequence[str], *, jobs: int | None = None,
               scheduler: str | None = None) -> Iterator[FileReport]:
    """:func:`muggins_cli.check.check_file` on every path, in order."""
    return run(CHECK, paths, jobs=jobs, scheduler=scheduler)


__all__ = [
    "CHECK",
    "BatchError",
    "DaskMissingError",
    "Work",
    "check_many",
    "chunked",
    "default_jobs",
    "no_relabel",
    "relabel_report",
    "run",
    "run_chunk",
]
