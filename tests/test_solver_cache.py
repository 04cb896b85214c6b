"""Where the solver's compiled code is kept: the usual cache folder, else a
folder of the user's own in the temporary folder, else nowhere (compiled in
memory for the run), said in one line. A user with no home (a system-wide
install run by a service account) runs every solver command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from muggins_cli.solver import jit
from muggins_cli.solver.jit import cache_folder
from tests.records import CLUB_FIRST

RECORDS = Path(__file__).resolve().parents[1] / "records"
MUGGINS = str(Path(sys.executable).with_name("muggins"))
#: A home no one can make a folder in (its parent is a device).
NO_HOME = "/dev/null/home"


def test_the_usual_folder_first(tmp_path: Path) -> None:
    home = tmp_path / "cache"
    got = cache_folder("numba-x", home, tmp_path / "tmp")
    assert got == (home / "muggins-cli" / "numba-x", False)
    assert got[0].is_dir()
    assert not (tmp_path / "tmp").exists()


def test_then_a_folder_of_ones_own_in_the_temporary_folder(tmp_path: Path) -> None:
    got = cache_folder("numba-x", Path(NO_HOME), tmp_path)
    mine = tmp_path / f"muggins-cli-{os.geteuid()}"
    assert got == (mine / "numba-x", True)
    assert (mine.stat().st_mode & 0o777) == 0o700


@pytest.mark.parametrize("how", ["another user's", "open to all", "a link"])
def test_never_a_temporary_folder_someone_else_could_have_made(
        tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The code Numba keeps is run when loaded: a folder another user made
    or may write is refused, and nothing is kept."""
    if how == "another user's":
        # The folder is this process's; the user it is looked for is another.
        monkeypatch.setattr(jit.os, "geteuid", lambda: os.getuid() + 1)
    mine = tmp_path / f"muggins-cli-{jit.os.geteuid()}"
    if how == "a link":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        mine.symlink_to(tmp_path / "elsewhere")
    else:
        mine.mkdir(mode=0o700)
        if how == "open to all":
            mine.chmod(0o777)
    assert cache_folder("numba-x", Path(NO_HOME), tmp_path) is None
    assert list(mine.iterdir()) == []


def _untimed(text: str) -> str:
    return re.sub(r"\b\d+\.\d+ s\b", "N s", text)


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "NUMBA_CACHE_DIR")}
    env.update(HOME=NO_HOME, TMPDIR=str(tmp))
    return env


@pytest.fixture(scope="module")
def shared_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One temporary folder for the module's runs: the first compiles, the
    others load what it kept."""
    tmp = tmp_path_factory.mktemp("tmp")
    (tmp / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    yield tmp


#: Every command that compiles the solver, run as it ends 0 or 1.
SOLVING: dict[str, tuple[list[str], int]] = {
    "solve": (["solve", "club.mgn", "--at", "1.2"], 0),
    "stats": (["stats", "-q", "club.mgn"], 0),
    "analyze": (["analyze", "-q", "--solver", "--samples", "2", "club.mgn"], 1),
    "study": (["study", "-q", "--solver", "--samples", "2", "club.mgn", "-o", "page.html",
               "--force"], 0),
    "selfplay": (["selfplay", "-q", "--strategy", "solver,greedy", "--samples", "2",
                  "--nodes", "2000"], 0),
    "arena": (["arena", "-q", "solver", "greedy", "--matches", "1", "--samples", "2",
               "--nodes", "2000"], 0),
}


@pytest.mark.slow  # compiles the solver (tens of seconds), then loads it
@pytest.mark.parametrize("name", list(SOLVING))
def test_no_home_keeps_the_code_in_a_temporary_folder(name: str, shared_tmp: Path) -> None:
    args, status = SOLVING[name]
    done = subprocess.run([MUGGINS, *args], cwd=shared_tmp, env=_env(shared_tmp),
                          capture_output=True, text=True, timeout=900)
    assert "Traceback" not in done.stderr
    assert done.returncode == status, done.stderr
    notes = [line for line in done.stderr.splitlines() if "compiled code" in line]
    mine = shared_tmp / f"muggins-cli-{os.geteuid()}"
    if name != "stats":  # which needs no solver, and may not load it
        assert notes == [f"muggins: note: the solver's compiled code cannot be kept in "
                         f"{NO_HOME}/.cache; it is kept in {mine}"]
        assert any(mine.iterdir())
    assert len(notes) <= 1


@pytest.mark.slow  # compiles the solver in memory (tens of seconds)
def test_no_folder_at_all_compiles_in_memory(tmp_path: Path) -> None:
    (tmp_path / "club.mgn").write_text(CLUB_FIRST, encoding="utf-8")
    theirs = tmp_path / f"muggins-cli-{os.geteuid()}"
    theirs.mkdir(mode=0o777)
    theirs.chmod(0o777)  # anyone's to write: not to be run from
    args = [MUGGINS, "solve", "club.mgn", "--at", "1.2"]
    done = subprocess.run(args, cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                          text=True, timeout=900)
    usual = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    # The same answer (but the seconds it took).
    assert _untimed(done.stdout) == _untimed(usual.stdout)
    assert done.stderr.splitlines() == [
        f"muggins: note: the solver's compiled code cannot be kept in {NO_HOME}/.cache "
        "nor in a folder of your own in the temporary folder; it is compiled in memory for "
        "this run"]
    assert list(theirs.iterdir()) == []
