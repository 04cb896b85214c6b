"""--scheduler: the same work on a Dask cluster gives the same output.

A small in-process LocalCluster (one worker, two threads) stands in for a
real one; the records are given by relative paths, as a user would, and the
workers get them as absolute paths.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_rules

runner = CliRunner()


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    # On 127.0.0.1 only: the scheduler's HTTP server goes on every interface
    # unless told otherwise, even without a dashboard.
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",  # type: ignore[no-untyped-call]
                      host="127.0.0.1", dashboard_address="127.0.0.1:0") as c:
        yield c


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rng = random.Random(7)
    for i in range(6):
        n = 2 + i % 2
        seats: list[Strategy] = [GreedyStrategy(), RandomStrategy(), GreedyStrategy()]
        outcome = play_match(load_rules("pagat"), ["Ana", "Budi", "Chen"][:n], seats[:n], rng,
                             target=30)
        (tmp_path / "recs").mkdir(exist_ok=True)
        (tmp_path / "recs" / f"m{i}.mgn").write_text(write_match(outcome.record))
    (tmp_path / "recs" / "m3.mgn").write_text(
        (tmp_path / "recs" / "m3.mgn").read_text().replace("[Target", "[Targe"))
    (tmp_path / "recs" / "x.mgn").write_bytes(b"\xff\xfe")
    monkeypatch.chdir(tmp_path)
    return Path("recs")


@pytest.mark.parametrize(("command", "fmt"), [("check", "text"), ("check", "json"),
                                              ("check", "junit"), ("stats", "json")])
def test_dask_output_equals_local_run(cluster: LocalCluster, records: Path, command: str,
                                      fmt: str) -> None:
    local = runner.invoke(app, [command, str(records), "--format", fmt, "--jobs", "1"])
    dask = runner.invoke(app, [command, str(records), "--format", fmt,
                               "--scheduler", cluster.scheduler_address])
    assert dask.exception is None or isinstance(dask.exception, SystemExit), dask.exception
    assert dask.stdout_bytes == local.stdout_bytes
    assert dask.exit_code == local.exit_code == 2  # x.mgn is not UTF-8
    assert b"recs/x.mgn" in dask.stdout_bytes or command == "stats"
    assert dask.stderr == local.stderr
