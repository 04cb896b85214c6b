"""--scheduler on a real cluster: ``dask scheduler`` and ``dask worker``
processes on this machine (``dask_cluster.py``), as a user runs them on
several.

A worker killed while it holds a file is survived (the report is the one
process's, byte for byte); a file whose task keeps killing its workers is
that file's error and the rest of the report is kept; a worker with another
muggins-cli is named; ``analyze --solver`` spreads its turns over the
workers. Workers are killed only when they are known to hold a task (the
test-only faults of ``dask_faults.py`` say so), never after a delay.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import LocalCluster
from typer.testing import CliRunner

import muggins_cli
from muggins_cli import batch
from muggins_cli.cli import app
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_rules

from .dask_cluster import Cluster, real_cluster, wait_for
from .test_solver_cli import DEALS, HEAD, STOCK, TURNS

# A real scheduler and workers, started and killed: run apart, with -m slow.
pytestmark = pytest.mark.slow

runner = CliRunner()


def _write_records(folder: Path, names: list[str]) -> None:
    rng = random.Random(12)
    folder.mkdir()
    for i, name in enumerate(names):
        n = 2 + i % 2
        seats: list[Strategy] = [GreedyStrategy(), RandomStrategy(), GreedyStrategy()]
        outcome = play_match(load_rules("pagat"), ["Ana", "Budi", "Chen"][:n], seats[:n], rng,
                             target=40)
        (folder / name).write_text(write_match(outcome.record), encoding="utf-8")


def _invoke(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result


def _run_cli(cwd: Path, *args: str) -> subprocess.Popen[bytes]:
    """muggins as a user runs it, while the test watches the cluster."""
    return subprocess.Popen([sys.executable, "-m", "muggins_cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two workers, shared by the tests that leave them as they found them."""
    with real_cluster(tmp_path_factory.mktemp("cluster")) as c:
        yield c


GIVE_UP_AT_FIRST_DEATH = {
    # A user's scheduler gives a task whose worker died to another worker
    # (three times) before it tells the client; this one tells it at once,
    # so that what the client does then is what is tested.
    "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0",
}


def test_a_worker_killed_while_it_holds_a_file_is_survived(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """32 files go two to a task: the held file's task fails with its worker,
    and its two files are tried again alone on the other worker."""
    names = [f"m{i:02d}.mgn" for i in range(32)]
    names[9] = "hold-m09.mgn"
    _write_records(tmp_path / "recs", names)
    monkeypatch.chdir(tmp_path)
    local = _invoke("check", "recs", "--format", "json", "--jobs", "1")
    assert local.exit_code == 0, local.output
    with real_cluster(tmp_path / "cluster", scheduler_env=GIVE_UP_AT_FIRST_DEATH) as cluster:
        run = _run_cli(tmp_path, "check", "recs", "--format", "json",
                       "--scheduler", cluster.address)
        try:
            first = wait_for("busy-*", cluster.faults)
            cluster.kill(int(first.name.removeprefix("busy-")))
            # The other worker holds the file in turn.
            wait_for("busy-*", cluster.faults, besides={first})
            (cluster.faults / "release").touch()
            out, err = run.communicate(timeout=60)
        finally:
            run.kill()
            run.wait()
    assert out == local.stdout_bytes
    # The closing summary (on stderr after JSON), the one process's.
    assert err.decode() == local.stderr
    assert local.stderr.startswith("checked 32 files, ")
    assert run.returncode == 0


def test_a_worker_is_found_by_name_while_the_client_refreshes_its_cache(
        tmp_path: Path) -> None:
    """The client's periodic refresh of its cached scheduler information
    asks for no worker at all, and writes the attribute that
    ``Client.scheduler_info()`` returns after its own fetch: a lookup by name
    that crossed a refresh found no worker ("no worker w2", once under
    load). With the refresh every 5 ms instead of 2 s, 200 lookups."""
    import dask

    with dask.config.set({"distributed.client.scheduler-info-interval": "5ms"}), \
            real_cluster(tmp_path / "cluster", 2) as cluster:
        found = {cluster.address_of(name) for _ in range(100) for name in ("w0", "w1")}
    assert len(found) == 2


def test_a_file_that_keeps_killing_its_workers_is_its_error_and_the_rest_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --retries 1 the file takes two of the three workers down; the
    last one checks the rest. The first worker dies once every other file
    has been checked, so that it takes only that file with it; a file whose
    task the second one held when it died (the scheduler may give it more
    than the task it runs) is tried again, within the same --retries."""
    names = [f"m{i:02d}.mgn" for i in range(8)]
    names[3] = "crash-m03.mgn"
    _write_records(tmp_path / "recs", names)
    monkeypatch.chdir(tmp_path)
    local = json.loads(_invoke("check", "recs", "--format", "json", "--jobs", "1").stdout)
    with real_cluster(tmp_path / "cluster", 3, scheduler_env=GIVE_UP_AT_FIRST_DEATH) as cluster:
        addresses = {cluster.workers[name].pid: cluster.address_of(name)
                     for name in cluster.workers}
        run = _run_cli(tmp_path, "check", "recs", "--format", "json", "--retries", "1",
                       "--scheduler", cluster.address)
        try:
            first = wait_for("crashed-*", cluster.faults)
            for name in names:
                if name != "crash-m03.mgn":
                    wait_for(f"checked-{name}", cluster.faults)
            (cluster.faults / "release").touch()
            out, err = run.communicate(timeout=60)
        finally:
            run.kill()
            run.wait()
        crashed = set(cluster.faults.glob("crashed-*"))
    assert len(crashed) == 2  # tried, and tried once more on another worker
    (second,) = crashed - {first}
    last = addresses[int(second.name.removeprefix("crashed-"))]
    expected = dict(local)
    expected["files"] = [
        f if not f["path"].endswith("crash-m03.mgn") else
        {"path": "recs/crash-m03.mgn", "matches": [],
         "diagnostics": [{"line": 0, "column": 0, "severity": "error", "code": "not-checked",
                          "message": f"the Dask worker {last} died during its task "
                                     "(2 tries)"}]}
        for f in local["files"]]
    diagnostics = [d for f in expected["files"] for d in f["diagnostics"]]
    expected["summary"] = {
        "files": 8, "matches": sum(len(f["matches"]) for f in expected["files"]),
        "errors": sum(d["severity"] == "error" for d in diagnostics),
        "warnings": sum(d["severity"] == "warning" for d in diagnostics)}
    assert json.loads(out) == expected
    assert run.returncode == 2  # a file was not checked
    summary = expected["summary"]
    assert err.decode() == (
        f"checked 8 files, {summary['matches']} matches: {summary['errors']} error"
        f"{'' if summary['errors'] == 1 else 's'}, {summary['warnings']} warning"
        f"{'' if summary['warnings'] == 1 else 's'}; exit status 2: a file could not be read\n")


def test_losing_the_scheduler_is_one_line(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["a.mgn", "hold-b.mgn", "c.mgn"]
    _write_records(tmp_path / "recs", names)
    monkeypatch.chdir(tmp_path)
    with real_cluster(tmp_path / "cluster", 1) as cluster:
        run = _run_cli(tmp_path, "check", "recs", "--scheduler", cluster.address)
        try:
            wait_for("busy-*", cluster.faults)
            cluster.kill_scheduler()
            out, err = run.communicate(timeout=60)
        finally:
            run.kill()
            run.wait()
    assert (run.returncode, err.decode()) == (
        2, f"muggins check: lost the Dask scheduler at {cluster.address}\n")
    # What came before the loss stays; no summary line after it.
    assert out == _invoke("check", "recs/a.mgn", "-q").stdout_bytes


def test_a_file_whose_task_raises_is_its_error_and_the_rest_is_kept(
        cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A RecursionError, whose traceback distributed cannot send back (the
    client once waited for it for ever)."""
    names = ["a.mgn", "raise-b.mgn", "c.mgn"]
    _write_records(tmp_path / "recs", names)
    monkeypatch.chdir(tmp_path)
    local = _invoke("check", "recs", "--jobs", "1", "-q")
    result = _invoke("check", "recs", "--retries", "0", "--scheduler", cluster.address, "-q")
    expected = [line for line in local.stdout.splitlines() if "/raise-b.mgn:" not in line]
    expected.insert(
        sum(line.startswith("recs/a.mgn:") for line in expected),
        "recs/raise-b.mgn:0:0: error not-checked its task raised RecursionError: maximum "
        "recursion depth exceeded (1 try)")
    assert result.stdout.splitlines() == expected
    assert result.exit_code == 2
    assert result.stderr == ""


def test_a_worker_with_another_version_is_named(cluster: Cluster, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _write_records(tmp_path / "recs", ["a.mgn", "b.mgn"])
    monkeypatch.chdir(tmp_path)
    cluster.add_worker("other", other_version=True)
    try:
        cluster.wait_for_workers(3)
        other = cluster.address_of("other")
        result = _invoke("check", "recs", "--scheduler", cluster.address)
    finally:
        cluster.drop_worker("other")
        cluster.wait_for_workers(2)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"muggins check: the Dask cluster at {cluster.address} does not run muggins-cli "
        f"{muggins_cli.__version__} as this client does: the worker {other} runs "
        "0.0.0+other\n")


def test_a_scheduler_with_another_version_is_named(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _write_records(tmp_path / "recs", ["a.mgn"])
    monkeypatch.chdir(tmp_path)
    with real_cluster(tmp_path / "cluster", 0, other_version=True) as cluster:
        result = _invoke("check", "recs", "--scheduler", cluster.address)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"muggins check: the Dask cluster at {cluster.address} does not run muggins-cli "
        f"{muggins_cli.__version__} as this client does: the scheduler runs 0.0.0+other\n")


@pytest.mark.parametrize("view", [["--mode", "perfect"], ["--max-samples", "24"]])
def test_analyze_solver_spreads_the_turns_over_the_workers(
        cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        view: list[str]) -> None:
    """The same turns, verdicts and errors from the cluster as from one
    process: with every hand seen, and in the mover's view, where the race
    decides how many deals each turn takes (16 or 24 here)."""
    (tmp_path / "club.mgn").write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for old in cluster.faults.glob("weighed-*"):
        old.unlink()
    args = ["analyze", "club.mgn", "--solver", *view, "--turns"]
    local = _invoke(*args, "--jobs", "1")
    dask = _invoke(*args, "--scheduler", cluster.address)
    assert dask.stdout == local.stdout
    assert dask.exit_code == local.exit_code == 0, local.output
    assert dask.stderr == local.stderr
    said = local.stderr.removesuffix("\n")
    assert said.startswith("weighed ") and " of 16 turns" in said
    assert said in local.stdout.splitlines()
    weighed_in = {int(p.name.removeprefix("weighed-")) for p in cluster.faults.glob("weighed-*")}
    assert weighed_in == {proc.pid for proc in cluster.workers.values()}


def test_a_turn_whose_task_keeps_failing_is_not_weighed(
        cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = HEAD + DEALS + STOCK + TURNS
    (tmp_path / "club.mgn").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    first_turn = text.split("\n").index(TURNS.split("\n")[0]) + 1
    fault = cluster.faults / f"fail-turn-{first_turn}"
    fault.touch()
    try:
        result = _invoke("analyze", "club.mgn", "--solver", "--perfect", "--retries", "1", "-q",
                         "--scheduler", cluster.address)
    finally:
        fault.unlink()
    assert result.exit_code == 0, result.output
    assert ("; 1 not weighed (its task raised RuntimeError: a test fault (2 tries))\n"
            in result.stdout)


def test_a_cluster_without_workers_is_one_line_not_a_wait_for_ever(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_records(tmp_path / "recs", ["a.mgn"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(batch, "NO_WORKERS_TIMEOUT", 1.0)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",  # type: ignore[no-untyped-call]
                      dashboard_address="127.0.0.1:0") as c:
        address = c.scheduler_address
        result = _invoke("check", "recs", "--scheduler", address)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (f"muggins check: the Dask cluster at {address} has had no worker "
                             f"for 1 s; start one with: dask worker {address}\n")


@pytest.mark.parametrize("command", ["check", "stats", "analyze"])
def test_retries_go_with_a_scheduler(command: str, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _write_records(tmp_path / "recs", ["a.mgn"])
    monkeypatch.chdir(tmp_path)
    result = _invoke(command, "recs", "--retries", "2")
    assert result.exit_code == 2
    assert result.stderr == f"muggins {command}: --retries goes with --scheduler\n"
