"""The solver is compiled once per machine: the first run that needs it says
so in one line on stderr, and ``muggins prepare`` does it ahead.

Whether this machine's cache holds the compiled search is read from Numba's
own index (``kernel.prepared``); the cold compile itself is a slow test (a
fresh cache folder: tens of seconds)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from muggins_cli.cli.options import prepare_solver
from muggins_cli.solver import kernel

from .conftest import RECORDS


def test_a_loaded_solver_is_prepared_and_says_nothing(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    kernel.ready()  # compiled or loaded: now in this machine's cache
    assert kernel.prepared()
    assert prepare_solver("muggins solve") is None
    assert capsys.readouterr().err == ""


def test_a_solver_not_yet_compiled_says_so_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An index that holds no code for this machine (another CPU wrote it,
    or none yet): not prepared; the command says what is coming, once,
    before the compile, and nothing with --quiet."""
    compiled = kernel.run._cache._cache_file  # type: ignore[attr-defined]
    monkeypatch.setattr(compiled, "_load_index", lambda: {})
    assert not kernel.prepared()
    monkeypatch.setattr(kernel, "ready", lambda: None)
    took = prepare_solver("muggins solve")
    assert took is not None
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("muggins solve: preparing the solver for this machine, once (about ")
    assert "`muggins prepare` does it ahead" in err
    prepare_solver("muggins solve", quiet=True)
    assert capsys.readouterr().err == ""


def test_a_solver_that_cannot_be_kept_adds_no_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No folder to keep the compiled code in: every run compiles it, and
    the kernel's one note already says so ("compiled in memory for this
    run"); a line sending the user to ``muggins prepare`` would be wrong."""
    compiled = kernel.run._cache._cache_file  # type: ignore[attr-defined]
    monkeypatch.setattr(compiled, "_load_index", lambda: {})
    monkeypatch.setattr(kernel, "KEPT", False)
    monkeypatch.setattr(kernel, "ready", lambda: None)
    assert prepare_solver("muggins solve") is not None
    assert capsys.readouterr().err == ""


def _muggins(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "muggins_cli", *args], capture_output=True,
                          text=True, timeout=900, check=False,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)})


@pytest.mark.slow
def test_the_first_solver_run_of_an_install_says_it_is_preparing(tmp_path: Path) -> None:
    """A machine whose cache is empty: the first solve compiles and says so
    first, on one line; then ``muggins prepare`` finds it ready, and the
    next solve says nothing of it."""
    record = str(RECORDS / "club-night-pagat-2p.mgn")
    first = _muggins(tmp_path, "solve", record, "--at", "11.12")
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "muggins solve: preparing the solver for this machine, once"), first.stderr
    assert "nodes" in first.stdout
    again = _muggins(tmp_path, "prepare")
    assert again.returncode == 0
    assert again.stderr.startswith("muggins prepare: the solver was ready (loaded in ")
    warm = _muggins(tmp_path, "solve", record, "--at", "11.12")
    assert warm.returncode == 0 and warm.stderr == ""
    assert warm.stdout.splitlines()[:-1] == first.stdout.splitlines()[:-1]  # all but the time
