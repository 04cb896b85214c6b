"""Batch checking benchmark: one command, prints its figures.

    python bench/bench_batch.py                 # 1 GB corpus (generated once)
    python bench/bench_batch.py --size 64M      # a quicker run

1. Throughput: ``muggins check --format json`` over a sample of the corpus
   (``--sample``, default 32 MB) with ``--jobs 1`` and ``--jobs 2``: matches
   (records) and turns per second, and the speed-up. The two outputs must
   be byte-identical.
2. Memory: ``muggins check --jobs 2`` over the whole corpus; the peak
   resident size of the largest process (``wait4`` rusage of the command,
   which takes in its worker processes, read by a small wrapper process)
   and the proportional set size (PSS) of the process tree as a whole
   (sampled from /proc every 0.2 s), and one large file (``--big-file``)
   checked in one process.
3. Dask: the sample on a LocalCluster (2 worker processes, 1 thread each)
   with ``--scheduler``, against ``--jobs 2``; the outputs must be identical.

Every command runs as a subprocess, as a user would run it. The machine may
be shared: CPU seconds are printed beside wall seconds, with the cores that
other processes kept busy meanwhile (from /proc/stat), since a speed-up on
two cores means little while something else holds one of them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import DATA, corpus_files, ensure_corpus, parse_size

MUGGINS = [sys.executable, "-m", "muggins_cli"]
_TURN = re.compile(rb"[^\[\s][^:\n]*: (?!muggins )")


@dataclass
class Run:
    wall: float
    cpu: float
    peak_process_mb: float
    peak_tree_mb: float
    others: float
    digest: str
    status: int


def _tree_pss_kb(root: int, *, own_only: bool = False) -> int:
    """Proportional resident KB of ``root`` and every process below it
    (pages shared after a fork are counted once, split between sharers);
    of ``root`` alone with ``own_only``."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry)] = int(fields[1])
    total = 0
    for pid in parents:
        p = pid
        while p and p != root:
            p = parents.get(p, 0)
        if p != root or (own_only and pid != root):
            continue
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                m = re.search(r"^Pss:\s+(\d+)", f.read(), re.MULTILINE)
        except OSError:
            continue
        total += int(m.group(1)) if m else 0
    return total


def _tree_cpu(root: int) -> float:
    """CPU seconds used so far by the live processes below ``root``."""
    parents: dict[int, int] = {}
    cpu: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = int(fields[11]) + int(fields[12])  # utime, stime
    total = 0
    for pid in parents:
        p = parents[pid]
        while p and p != root:
            p = parents.get(p, 0)
        if p == root:
            total += cpu[pid]
    return total / os.sysconf("SC_CLK_TCK")


def _busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


# Runs the command and reports its rusage. A separate small process, because
# a child's peak RSS as the kernel reports it starts from the peak of the
# process that started it (vfork and exec carry the high-water mark over),
# and this benchmark's own process is not small.
_WRAPPER = """
import json, os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(proc.pid, 0)
json.dump({"status": os.waitstatus_to_exitcode(status), "maxrss": ru.ru_maxrss,
           "cpu": ru.ru_utime + ru.ru_stime}, sys.stderr)
"""


def measure(args: list[str], out: Path) -> Run:
    """Run a muggins command, stdout to ``out``; time, CPU, peak memory, and
    the CPU that other processes of the machine took meanwhile."""
    peak_tree = 0
    done = threading.Event()
    busy = _busy_seconds()
    start = time.perf_counter()
    with open(out, "wb") as sink:
        wrapper = subprocess.Popen([sys.executable, "-c", _WRAPPER, *MUGGINS, *args],
                                   stdout=sink, stderr=subprocess.PIPE)

        def sample() -> None:
            nonlocal peak_tree
            while not done.wait(0.2):
                # The command and its workers, without the wrapper itself.
                tree = _tree_pss_kb(wrapper.pid) - _tree_pss_kb(wrapper.pid, own_only=True)
                peak_tree = max(peak_tree, tree)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, report = wrapper.communicate()
        done.set()
        sampler.join()
    wall = time.perf_counter() - start
    usage = json.loads(report)
    cpu = float(usage["cpu"])
    others = max(0.0, _busy_seconds() - busy - cpu) / wall
    digest = hashlib.sha256()
    with open(out, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return Run(wall, cpu, usage["maxrss"] / 1024, peak_tree / 1024, others, digest.hexdigest(),
               int(usage["status"]))


def sample_of(files: list[Path], size: int) -> list[Path]:
    """The first files of the corpus adding up to ``size`` bytes."""
    out: list[Path] = []
    total = 0
    for f in files:
        if total >= size:
            break
        out.append(f)
        total += f.stat().st_size
    return out


def count(files: list[Path]) -> tuple[int, int, int]:
    """Bytes, matches and turns (self-play records have no muggins calls;
    every turn line is ``NAME: ...``)."""
    nbytes = matches = turns = 0
    for f in files:
        with open(f, "rb") as stream:
            for line in stream:
                nbytes += len(line)
                matches += line.startswith(b"[Event ")
                turns += _TURN.match(line) is not None
    return nbytes, matches, turns


def show(label: str, run: Run, nbytes: int, matches: int, turns: int) -> None:
    print(f"  {label:<22} {run.wall:8.1f} s wall {run.cpu:8.1f} s cpu  "
          f"{matches / run.wall:8.1f} matches/s {turns / run.wall:10.0f} turns/s  "
          f"{nbytes / run.wall / 1024**2:5.2f} MB/s  peak {run.peak_process_mb:5.1f} MB "
          f"(tree {run.peak_tree_mb:5.1f} MB)  exit {run.status}  "
          f"[others' load {run.others:.2f} cores]")


def throughput(repeat: int, paths: list[str], scratch: Path, nbytes: int, matches: int,
               turns: int) -> None:
    print("\n1. throughput, muggins check --format json -q, on the sample")
    runs: dict[int, Run] = {}
    for _ in range(max(1, repeat)):
        for jobs in (1, 2):
            run = measure(["check", *paths, "--format", "json", "-q", "--jobs", str(jobs)],
                          scratch / f"jobs{jobs}.json")
            show(f"--jobs {jobs}", run, nbytes, matches, turns)
            best = runs.get(jobs)
            if best is None or run.wall < best.wall:
                runs[jobs] = run
    one, two = runs[1], runs[2]
    print(f"  speed-up --jobs 2 / --jobs 1 (fastest runs): {one.wall / two.wall:.2f}x wall "
          f"(CPU seconds, --jobs 2 / --jobs 1: {two.cpu / one.cpu:.2f})")
    print(f"  outputs identical: {one.digest == two.digest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1G", help="corpus size (default 1G)")
    ap.add_argument("--sample", default="32M", help="throughput and Dask sample (32M)")
    ap.add_argument("--big-file", default="64M",
                    help="one file this large checked with --jobs 1 (0 to skip)")
    ap.add_argument("--skip-memory", action="store_true", help="no whole-corpus run")
    ap.add_argument("--skip-throughput", action="store_true",
                    help="no --jobs 1 / --jobs 2 comparison")
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--repeat", type=int, default=1,
                    help="throughput runs of each kind; the fastest counts (a shared machine)")
    args = ap.parse_args()

    size = parse_size(args.size)
    print(f"corpus: {args.size} under {DATA} (generated once, then reused)")
    folder = ensure_corpus(size)
    files = corpus_files(folder)
    sample = sample_of(files, parse_size(args.sample))
    nbytes, matches, turns = count(sample)
    print(f"  {len(files)} files in {folder.name}; sample: {len(sample)} files, "
          f"{nbytes / 1024**2:.1f} MB, {matches} matches, {turns} turns")
    print(f"  machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    scratch = DATA / "out"
    scratch.mkdir(exist_ok=True)
    paths = [str(f) for f in sample]

    if not args.skip_throughput:
        throughput(args.repeat, paths, scratch, nbytes, matches, turns)

    if args.big_file != "0":
        big = DATA / "out" / "big.mgn"
        target = parse_size(args.big_file)
        with open(big, "wb") as f:
            written = 0
            for src in files:
                if written >= target:
                    break
                if written:
                    f.write(b"\n")
                with open(src, "rb") as part:
                    shutil.copyfileobj(part, f)
                written += src.stat().st_size
        print(f"\n2a. one file of {written / 1024**2:.0f} MB, --jobs 1")
        run = measure(["check", str(big), "--format", "json", "-q", "--jobs", "1"],
                      scratch / "big.json")
        b, m, t = count([big])
        show("one large file", run, b, m, t)
        big.unlink()

    if not args.skip_memory:
        b, m, t = count(files)
        print(f"\n2b. the whole corpus ({b / 1024**2:.0f} MB, {len(files)} files, {m} matches),"
              " --jobs 2")
        run = measure(["check", str(folder), "--format", "json", "-q", "--jobs", "2"],
                      scratch / "corpus.json")
        show("whole corpus", run, b, m, t)
        verdict = "under" if run.peak_process_mb < 150 else "OVER"
        print(f"  peak resident: {run.peak_process_mb:.1f} MB in the largest process "
              f"({verdict} 150 MB); {run.peak_tree_mb:.1f} MB proportional (PSS) for the "
              "command and its workers together")

    if not args.skip_dask:
        from distributed import LocalCluster

        print("\n3. Dask LocalCluster (2 worker processes x 1 thread) against --jobs 2, "
              "on the sample")
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                          host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster:
            address = str(cluster.scheduler_address)
            warm = measure(["check", paths[0], "-q", "--scheduler", address],
                           scratch / "warm.txt")  # workers import muggins_cli once
            # --jobs 2 again, just before, so that both see the same machine.
            two = measure(["check", *paths, "--format", "json", "-q", "--jobs", "2"],
                          scratch / "jobs2.json")
            show("--jobs 2", two, nbytes, matches, turns)
            before = _tree_cpu(os.getpid())
            run = measure(["check", *paths, "--format", "json", "-q", "--scheduler", address],
                          scratch / "dask.json")
            cluster_cpu = _tree_cpu(os.getpid()) - before
        # The work ran in the cluster's processes, not under the command.
        run.cpu += cluster_cpu
        run.others = max(0.0, run.others - cluster_cpu / run.wall)
        show("--scheduler (local)", run, nbytes, matches, turns)
        print(f"  Dask overhead against --jobs 2: {run.wall / two.wall - 1:+.1%} wall, "
              f"{run.cpu / two.cpu - 1:+.1%} CPU "
              f"(first task on fresh workers: {warm.wall:.1f} s)")
        print(f"  outputs identical: {run.digest == two.digest}")

    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
