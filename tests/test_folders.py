"""Every folder a user can give: what the folder walk cannot list, search
or name is ``unreadable`` (exit status 2), in its place in the sorted
order, and the rest of the folder is checked; a file name that is not
UTF-8 stays recoverable in the JSON report and is escaped everywhere else.

The permission cases run the real command in a process for which the
permission bits bind even when the tests run as root (``as_a_user``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from muggins_cli.check import expand_paths
from tests.hostile import as_a_user
from tests.records import CLUB_FIRST, THREES

#: A name that is not UTF-8 (what a file copied from an old system may have).
BAD_NAME = b"bad\xff\xfe.mgn"
#: Linux's limit on a path the system calls take.
PATH_MAX = os.pathconf("/", "PC_PATH_MAX")


def _muggins(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "muggins_cli", *args], cwd=cwd,
                          capture_output=True, timeout=120, preexec_fn=as_a_user)


def _deep(root: Path, name: str) -> list[str]:
    """A file ``name`` below ``root/long`` whose path is past PATH_MAX (made
    a folder at a time through descriptors, which no path limit binds); the
    names of the folders from ``root`` down to it."""
    part = "d" * 200
    steps = ["long", *[part] * (PATH_MAX // len(part) + 1)]
    fd = os.open(root, os.O_RDONLY)
    try:
        for step in steps:
            os.mkdir(step, dir_fd=fd)
            inner = os.open(step, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        made = os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(made, THREES.encode("utf-8"))
        os.close(made)
    finally:
        os.close(fd)
    return steps


def _too_long(start: str, steps: list[str]) -> str:
    """The first folder of ``start/steps...`` whose path the system refuses."""
    path = start
    for step in steps:
        path += "/" + step
        if len(path) >= PATH_MAX:  # the limit counts the closing NUL
            return path
    raise AssertionError("not deep enough")


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """A folder with every entry a walk can fail on between two good files;
    the folders down to the one past PATH_MAX."""
    root = tmp_path / "records"
    root.mkdir()
    (root / "a-good.mgn").write_text(THREES, encoding="utf-8")
    (root / "z-good.mgn").write_text(THREES, encoding="utf-8")
    locked = root / "locked"  # may not be listed
    locked.mkdir()
    (locked / "hidden.mgn").write_text(THREES, encoding="utf-8")
    blind = root / "blind"  # may be listed, not searched (chmod 444)
    blind.mkdir()
    (blind / "seen.mgn").write_text(THREES, encoding="utf-8")
    (blind / "deeper").mkdir()
    (blind / "deeper" / "more.mgn").write_text(THREES, encoding="utf-8")
    too_long = _deep(root, "deep.mgn")
    locked.chmod(0o000)
    blind.chmod(0o444)
    try:
        yield root, too_long
    finally:
        locked.chmod(0o755)
        blind.chmod(0o755)


def test_every_entry_the_walk_cannot_list_search_or_name_is_unreadable(
        hostile: tuple[Path, list[str]]) -> None:
    root, steps = hostile
    done = _muggins("check", "records", cwd=root.parent)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in err
    assert err == ""
    long_shown = _too_long("records", steps)
    assert out.splitlines() == [
        # sorted as paths, each in its place
        "records/blind/deeper:0:0: error unreadable cannot read records/blind/deeper: "
        "Permission denied",
        "records/blind/seen.mgn:0:0: error unreadable cannot read records/blind/seen.mgn: "
        "Permission denied",
        "records/locked:0:0: error unreadable cannot read records/locked: a folder that "
        "cannot be listed (Permission denied)",
        f"{long_shown}:0:0: error unreadable cannot read {long_shown}: File name too long",
        "checked 6 files, 2 matches: 4 errors, 0 warnings; exit status 2: a file could "
        "not be read",
    ]
    assert done.returncode == 2


def test_a_folder_given_that_cannot_be_listed_is_unreadable(
        hostile: tuple[Path, list[str]]) -> None:
    root, _ = hostile
    done = _muggins("check", "locked", "a-good.mgn", cwd=root)
    assert done.stdout.decode().splitlines()[0] == (
        "locked:0:0: error unreadable cannot read locked: a folder that cannot be "
        "listed (Permission denied)")
    assert done.returncode == 2


def test_a_hidden_folder_that_cannot_be_listed_is_no_finding(tmp_path: Path) -> None:
    root = tmp_path / "records"
    root.mkdir()
    (root / "a-good.mgn").write_text(THREES, encoding="utf-8")
    git = root / ".git"  # left out as hidden, locks and all
    (git / "objects").mkdir(parents=True)
    (git / "objects" / "junk.mgn").write_text("not a record", encoding="utf-8")
    (git / "objects").chmod(0o000)
    try:
        done = _muggins("check", "records", cwd=tmp_path)
    finally:
        (git / "objects").chmod(0o755)
    assert done.stdout.decode("utf-8").splitlines()[-1].startswith(
        "checked 1 file, 1 match: no errors")
    assert done.returncode == 0


def test_the_walk_keeps_what_the_glob_found(tmp_path: Path) -> None:
    """Sorted paths as given (``./`` and ``.`` too), every *.mgn that is not
    a folder (a dangling link, a folder named *.mgn entered, a link to a
    folder not followed), other names left out."""
    (tmp_path / "b.mgn").write_text(THREES)
    (tmp_path / "a.txt").write_text("x")
    (tmp_path / "sub.mgn").mkdir()
    (tmp_path / "sub.mgn" / "c.mgn").write_text(THREES)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.mgn").write_text(THREES)
    (tmp_path / "dangling.mgn").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path)
    os.chdir(tmp_path)
    try:
        assert list(expand_paths(["."])) == [".hidden/d.mgn", "b.mgn", "dangling.mgn",
                                             "sub.mgn/c.mgn"]
        assert list(expand_paths(["./", "-"])) == [".hidden/d.mgn", "b.mgn", "dangling.mgn",
                                                   "sub.mgn/c.mgn", "-"]
        assert list(expand_paths([str(tmp_path)]))[1] == f"{tmp_path}/b.mgn"
    finally:
        os.chdir(Path(__file__).parent)


@pytest.fixture
def bad_name(tmp_path: Path) -> Path:
    """A folder holding a record with findings under a name that is not UTF-8."""
    folder = tmp_path / "records"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), BAD_NAME), "wb") as f:
        f.write(CLUB_FIRST.encode("utf-8"))
    return folder


def test_a_name_that_is_not_utf8_round_trips_in_the_json_report(bad_name: Path) -> None:
    done = _muggins("check", "--format", "json", "records", cwd=bad_name.parent)
    assert done.returncode == 1
    doc = json.loads(done.stdout.decode("utf-8"))  # strict UTF-8, then JSON
    path = doc["files"][0]["path"]
    assert os.fsencode(path) == b"records/" + BAD_NAME
    assert doc["files"][0]["diagnostics"][0]["code"] == "score-mismatch"


def test_a_name_that_is_not_utf8_round_trips_in_the_analysis_json(bad_name: Path) -> None:
    done = _muggins("analyze", "--format", "json", "records", cwd=bad_name.parent)
    doc = json.loads(done.stdout.decode("utf-8"))
    assert os.fsencode(doc["files"][0]["path"]) == b"records/" + BAD_NAME


def test_a_name_that_is_not_utf8_round_trips_in_json_lines(bad_name: Path) -> None:
    done = _muggins("check", "--format", "jsonl", "records", cwd=bad_name.parent)
    assert done.returncode == 1
    rows = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert rows and all(os.fsencode(r["path"]) == b"records/" + BAD_NAME for r in rows)
    assert rows[0]["code"] == "score-mismatch"


def test_a_name_that_is_not_utf8_is_percent_encoded_in_sarif(bad_name: Path) -> None:
    done = _muggins("check", "--format", "sarif", "records", cwd=bad_name.parent)
    assert done.returncode == 1
    doc = json.loads(done.stdout.decode("utf-8"))
    result = doc["runs"][0]["results"][0]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "records/bad%FF%FE.mgn"  # the name's own bytes, as RFC 3986 writes them
    assert result["ruleId"] == "score-mismatch"


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_name_that_is_not_utf8_is_escaped_in_a_line(bad_name: Path, fmt: str) -> None:
    done = _muggins("check", "--format", fmt, "records", cwd=bad_name.parent)
    out = done.stdout.decode("utf-8")  # strict: no raw byte reached it
    finding = next(line for line in out.splitlines() if "score-mismatch" in line)
    assert "records/bad\\xff\\xfe.mgn" in finding
    assert done.returncode == 1


def test_a_name_that_is_not_utf8_is_escaped_in_junit(bad_name: Path) -> None:
    done = _muggins("check", "--format", "junit", "records", cwd=bad_name.parent)
    suite = ET.fromstring(done.stdout).find("testsuite")
    assert suite is not None
    assert suite.get("name") == "records/bad\\xff\\xfe.mgn"


def test_a_name_that_is_not_utf8_is_escaped_in_a_note(bad_name: Path) -> None:
    messy = CLUB_FIRST.replace("Budi: 4-6R", "Budi:  4-6R")
    assert messy != CLUB_FIRST
    with open(os.path.join(os.fsencode(bad_name), BAD_NAME), "wb") as f:
        f.write(messy.encode("utf-8"))
    done = _muggins("fmt", "--check", "records", cwd=bad_name.parent)
    err = done.stderr.decode("utf-8")
    assert "records/bad\\xff\\xfe.mgn" in err
