"""Batch checking: --jobs gives the same output, in the same order, as one
process; progress goes to stderr; exit codes are those of docs/notation.md 8."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli import batch
from muggins_cli.batch import ChunkSize, Work, chunked, no_relabel, relabel_report
from muggins_cli.check import STDIN, check_file
from muggins_cli.cli import app
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy
from muggins_cli.rules.loader import load_rules

from .records import CLUB_FIRST

runner = CliRunner()



def _matches(rng: random.Random, count: int) -> str:
    names = ["Ana", "Budi", "Chen"]
    texts = []
    for _ in range(count):
        preset = rng.choice(["pagat", "all-threes", "spinner"])
        n = rng.choice([2, 3])
        seats = [GreedyStrategy() if rng.random() < 0.5 else RandomStrategy() for _ in range(n)]
        outcome = play_match(load_rules(preset), names[:n], seats, rng, target=40)
        texts.append(write_match(outcome.record))
    return "\n".join(texts)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fourteen files in two folders: clean self-play records of varied
    sizes, one with an error, one that cannot be read."""
    root = tmp_path_factory.mktemp("corpus")
    rng = random.Random(20240601)
    for i in range(12):
        sub = root / ("b" if i % 3 == 0 else "a")
        sub.mkdir(exist_ok=True)
        (sub / f"r{i:02d}.mgn").write_text(_matches(rng, 1 + i % 4), encoding="utf-8")
    (root / "a" / "r05.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    (root / "b" / "zz-binary.mgn").write_bytes(b"[Event \"x\"]\n\x00\x01")
    (root / "b" / "notes.txt").write_text("not a record", encoding="utf-8")
    return root


def _run(*args: str, input: str | None = None) -> tuple[int, bytes, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout_bytes, result.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "github", "junit", "table"])
def test_jobs_2_output_is_byte_identical_to_jobs_1(corpus: Path, fmt: str) -> None:
    one = _run("check", str(corpus), "--format", fmt, "--jobs", "1")
    two = _run("check", str(corpus), "--format", fmt, "--jobs", "2")
    assert one == two
    code, out, _ = one
    assert code == 2  # the unreadable file
    assert out.count(b"zz-binary.mgn") >= 1


def test_jobs_2_reports_every_file_in_input_order(corpus: Path) -> None:
    paths = [str(corpus / "b"), str(corpus / "a" / "r01.mgn"), str(corpus / "a")]
    code, out, _ = _run("check", *paths, "--format", "json", "--jobs", "2")
    listed = [f["path"] for f in json.loads(out)["files"]]
    expected = [*sorted(str(p) for p in (corpus / "b").glob("*.mgn")),
                str(corpus / "a" / "r01.mgn"),
                *sorted(str(p) for p in (corpus / "a").glob("*.mgn"))]
    assert listed == expected
    assert code == 2


def test_stdin_between_files_keeps_its_place(corpus: Path) -> None:
    files = sorted(str(p) for p in (corpus / "a").glob("*.mgn"))
    args = ["check", files[0], "-", *files[1:], "--format", "json"]
    one = _run(*args, "--jobs", "1", input=CLUB_FIRST)
    two = _run(*args, "--jobs", "2", input=CLUB_FIRST)
    assert one == two
    assert b'"path": "-"' in two[1]


def _tag(path: str) -> tuple[str, int]:
    # A result that tells where and in which process it was made.
    return path, os.getpid()


TAG: Work[tuple[str, int]] = Work(_tag, no_relabel)


def test_processes_spread_work_and_keep_order() -> None:
    paths = [f"f{i:03d}" for i in range(300)]
    got = list(batch.run(TAG, paths, jobs=2))
    assert [p for p, _ in got] == paths
    assert len({pid for _, pid in got} - {os.getpid()}) >= 1


def test_jobs_1_and_a_single_file_stay_in_this_process() -> None:
    assert {pid for _, pid in batch.run(TAG, ["a", "b"], jobs=1)} == {os.getpid()}
    assert {pid for _, pid in batch.run(TAG, ["a"], jobs=2)} == {os.getpid()}


class _Done:
    def __init__(self, value: list[str]) -> None:
        self.value = value

    def result(self) -> list[str]:
        return self.value


def _most_in_flight(workers: int) -> int:
    submitted = 0
    taken = 0
    most = 0

    def submit(chunk: list[str]) -> _Done:
        nonlocal submitted, most
        submitted += 1
        most = max(most, submitted - taken)
        return _Done(chunk)

    paths = [f"f{i}" for i in range(100)]
    out: list[str] = []
    stream: Iterator[str] = batch._in_order(submit, TAG, paths, workers,  # type: ignore[arg-type]
                                            ChunkSize(1, 1))
    for p in stream:
        out.append(p)
        taken += 1
    assert out == paths
    return most


def test_no_more_than_the_window_is_in_flight() -> None:
    assert _most_in_flight(2) == 2 * batch.AHEAD_CHUNKS + 1


def test_large_files_bound_the_window_by_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "_size", lambda path: batch.AHEAD_BYTES)
    # Two workers: never fewer than three chunks ahead, never more bytes.
    assert _most_in_flight(2) == 4


def test_chunks_group_small_files_and_keep_stdin_alone(tmp_path: Path) -> None:
    sizes = [10, 10, 100, 10, 10, 10]
    paths = []
    for i, n in enumerate(sizes):
        p = tmp_path / f"{i}.mgn"
        p.write_text("x" * n)
        paths.append(str(p))
    chunks = list(chunked([*paths[:4], STDIN, *paths[4:]], max_bytes=50, max_files=3))
    assert [c.paths for c in chunks] == [paths[:3], [paths[3]], [STDIN], paths[4:]]
    assert [c.bytes for c in chunks] == [120, 10, 0, 20]
    assert list(chunked([], max_bytes=1)) == []


def test_chunk_size_shrinks_for_short_runs(tmp_path: Path) -> None:
    p = tmp_path / "a.mgn"
    p.write_text("x" * 1000)
    small = ChunkSize.for_run([str(p)] * 4, workers=2)
    assert small.files == 1 and small.bytes == 250
    assert ChunkSize.for_run([], workers=2) == ChunkSize(1, 1)


def test_relabel_report_names_the_file_as_given(tmp_path: Path) -> None:
    real = str(tmp_path / "missing.mgn")
    report = relabel_report(check_file(real), real, "missing.mgn")
    assert report.path == "missing.mgn"
    assert report.diagnostics[0].code == "unreadable"
    assert real not in report.diagnostics[0].message
    assert "missing.mgn" in report.diagnostics[0].message


# -- the command line ---------------------------------------------------------


def test_the_summary_on_stdout_is_not_counted_again_on_stderr(corpus: Path) -> None:
    code, out, err = _run("check", str(corpus / "a"), "--jobs", "2")
    assert code == 1, err
    assert err == ""
    assert out.decode().splitlines()[-1].startswith("checked 8 files, ")


def test_quiet_prints_no_count_and_no_summary(corpus: Path) -> None:
    code, out, err = _run("check", str(corpus / "a" / "r01.mgn"), "--quiet")
    assert (code, out, err) == (0, b"", "")


@pytest.mark.parametrize(("fail_on", "expected"), [("error", 1), ("warning", 1), ("never", 0)])
def test_fail_on_sets_the_exit_status(tmp_path: Path, fail_on: str, expected: int) -> None:
    (tmp_path / "bad.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    code, _, _ = _run("check", str(tmp_path), "-q", "--fail-on", fail_on, "-j", "2")
    assert code == expected


def test_unreadable_file_exits_2(corpus: Path) -> None:
    code, out, _ = _run("check", str(corpus / "b"), "-q", "--format", "github", "-j", "2")
    assert code == 2
    assert out.decode().splitlines()[-1].startswith(
        f"::error file={str(corpus / 'b' / 'zz-binary.mgn').replace(':', '%3A')},"
        "title=unreadable::")


def test_no_files_exits_2(tmp_path: Path) -> None:
    code, _, err = _run("check", str(tmp_path), "-j", "2")
    assert code == 2
    assert "no .mgn files found" in err


def test_jobs_must_be_positive(corpus: Path) -> None:
    result = runner.invoke(app, ["check", str(corpus), "--jobs", "0"])
    assert result.exit_code == 2
    assert "--jobs" in result.stderr


def test_scheduler_without_dask_is_one_line_and_exit_2(
        corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, out, err = _run("check", str(corpus), "--scheduler", "tcp://127.0.0.1:8786")
    assert (code, out) == (2, b"")
    assert err == ("muggins check: --scheduler needs dask.distributed, which is not "
                   "installed: pip install 'muggins-cli[dask]'\n")


def test_every_batch_command_has_help() -> None:
    for command in ("check", "stats"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, result.output
        assert "--jobs" in result.stdout and "--scheduler" in result.stdout
