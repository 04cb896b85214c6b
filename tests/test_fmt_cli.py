"""``muggins fmt`` through Typer's test runner: stdout, exit status, stderr,
and what it does to files on disk."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app

MESSY = '[Players "Ana, Budi"]\r\n[Event "x"]  # club\r\nround   1\r\nAna:  1-1 {ok}\r\n'
CANONICAL = '[Event "x"] # club\n[Players "Ana, Budi"]\n\nround 1\nAna: 1-1 {ok}\n'
OTHER = '[Players "Eko, Joko"]\n\nround 1\nEko: 6-6\n'


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def test_help(runner: CliRunner) -> None:
    result = runner.invoke(app, ["fmt", "--help"])
    assert result.exit_code == 0, result.output
    assert "--in-place" in result.stdout and "--check" in result.stdout


def test_prints_canonical_form(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "a.mgn", MESSY)
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == CANONICAL
    assert result.stderr == ""
    assert path.read_bytes() == MESSY.encode()  # printing changes nothing


def test_several_files_print_as_one_canonical_text(runner: CliRunner, tmp_path: Path) -> None:
    a = write(tmp_path / "a.mgn", MESSY)
    b = write(tmp_path / "b.mgn", OTHER)
    result = runner.invoke(app, ["fmt", str(a), str(b)])
    assert result.exit_code == 0, result.output
    assert result.stdout == CANONICAL + "\n" + OTHER


def test_stdin(runner: CliRunner) -> None:
    result = runner.invoke(app, ["fmt", "-"], input=MESSY.encode())
    assert result.exit_code == 0, result.output
    assert result.stdout == CANONICAL


def test_folders_expand_to_every_mgn_below_sorted(runner: CliRunner, tmp_path: Path) -> None:
    write(tmp_path / "z.mgn", OTHER)
    write(tmp_path / "sub" / "a.mgn", MESSY)
    write(tmp_path / "notes.txt", "not a record")
    result = runner.invoke(app, ["fmt", "--check", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert result.stderr == f"would reformat {tmp_path / 'sub' / 'a.mgn'}\n"
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.stdout == CANONICAL + "\n" + OTHER


def test_check(runner: CliRunner, tmp_path: Path) -> None:
    messy = write(tmp_path / "messy.mgn", MESSY)
    clean = write(tmp_path / "clean.mgn", CANONICAL)
    result = runner.invoke(app, ["fmt", "--check", str(clean)])
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and result.stderr == ""
    result = runner.invoke(app, ["fmt", "--check", str(clean), str(messy)])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr == f"would reformat {messy}\n"
    assert messy.read_bytes() == MESSY.encode()


def test_check_sees_crlf_and_bom(runner: CliRunner, tmp_path: Path) -> None:
    crlf = write(tmp_path / "crlf.mgn", CANONICAL.replace("\n", "\r\n"))
    bom = write(tmp_path / "bom.mgn", "\ufeff" + CANONICAL)
    result = runner.invoke(app, ["fmt", "--check", str(crlf), str(bom)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"would reformat {crlf}", f"would reformat {bom}"]


def test_in_place_rewrites_atomically_and_keeps_permissions(
    runner: CliRunner, tmp_path: Path
) -> None:
    path = write(tmp_path / "a.mgn", MESSY)
    path.chmod(0o640)
    inode = path.stat().st_ino
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr == f"reformatted {path}\n"
    assert path.read_bytes() == CANONICAL.encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    # A new file moved over the old one (os.replace), no temporary left.
    assert path.stat().st_ino != inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.mgn"]


def test_in_place_does_not_touch_unchanged_files(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "a.mgn", CANONICAL)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = path.stat()
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_in_place_through_a_symlink_rewrites_the_target(runner: CliRunner, tmp_path: Path) -> None:
    target = write(tmp_path / "real.mgn", MESSY)
    link = tmp_path / "link.mgn"
    link.symlink_to(target)
    result = runner.invoke(app, ["fmt", "--in-place", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert target.read_bytes() == CANONICAL.encode()


def test_notation_errors_are_listed_and_the_file_is_kept(runner: CliRunner, tmp_path: Path) -> None:
    text = '[Players "Ana, Budi"]\nround 1\nAna: 1-1 x\nBob: 2-2\n'
    path = write(tmp_path / "bad.mgn", text)
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:3:10: error syntax expected a claim like +10 after '1-1', got 'x'",
        f"{path}:4:1: error unknown-player 'Bob' is not in Players (Ana, Budi)",
    ]
    assert path.read_bytes() == text.encode()
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""


def test_errors_in_one_file_do_not_stop_the_others(runner: CliRunner, tmp_path: Path) -> None:
    bad = write(tmp_path / "a.mgn", '[Players "Ana, Budi"]\nround x\n')
    good = write(tmp_path / "b.mgn", MESSY)
    result = runner.invoke(app, ["fmt", "--in-place", str(bad), str(good)])
    assert result.exit_code == 1
    assert good.read_bytes() == CANONICAL.encode()


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("binary.mgn", b"[Event \x00]\n", "binary data"),
        ("latin1.mgn", '[Event "Jos\xe9"]\n'.encode("latin-1"), "not UTF-8 text"),
    ],
)
def test_unreadable_file_is_one_line_and_exit_2(
    runner: CliRunner, tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}:0:0: error unreadable ") and reason in line
    assert path.read_bytes() == data


def test_missing_file_is_exit_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["fmt", str(tmp_path / "nope.mgn"), "--check"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{tmp_path / 'nope.mgn'}:0:0: error unreadable ")
    assert "Traceback" not in result.output


def test_check_and_in_place_together_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "a.mgn", MESSY)
    result = runner.invoke(app, ["fmt", "--check", "--in-place", str(path)])
    assert result.exit_code == 2
    assert result.stderr == "muggins fmt: --in-place and --check cannot be used together\n"
    assert path.read_bytes() == MESSY.encode()


def test_unknown_option_is_exit_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["fmt", "--frobnicate", str(tmp_path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_many_matches_stream_to_the_writers_text(runner: CliRunner, tmp_path: Path) -> None:
    # fmt writes a match at a time; what it prints must be what the writer
    # gives for the whole file at once.
    from muggins_cli.notation.parser import parse_text
    from muggins_cli.notation.writer import write_matches

    records = Path(__file__).resolve().parents[1] / "records"
    text = "\n".join(p.read_text("utf-8") for p in sorted(records.glob("*.mgn"))) * 3
    path = write(tmp_path / "many.mgn", text)
    expected = write_matches(parse_text(text))
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == expected
    in_place = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert in_place.exit_code == 0, in_place.output
    assert path.read_text("utf-8") == expected
    again = runner.invoke(app, ["fmt", "--check", str(path)])
    assert again.exit_code == 0 and again.stderr == ""


def test_an_error_late_in_a_file_prints_nothing_of_it(runner: CliRunner, tmp_path: Path) -> None:
    bad = write(tmp_path / "a.mgn", MESSY + "\n" + OTHER + "Eko: 1-1 x\n")
    good = write(tmp_path / "b.mgn", OTHER)
    result = runner.invoke(app, ["fmt", str(bad), str(good)])
    assert result.exit_code == 1
    assert result.stdout == OTHER
    assert result.stderr.startswith(f"{bad}:")


def test_a_carriage_return_inside_a_comment_is_kept(runner: CliRunner, tmp_path: Path) -> None:
    """A lone CR in a comment is a character of it, not a line end (LF or
    CRLF end lines): fmt printed a traceback instead of the record."""
    from muggins_cli.notation.parser import parse_text

    text = ('[Players "A, B"]\n\nround 1\n#\r lot drawn for the lead\nlead A\n'
            'deal A 5-5 3-1 1-1 2-5 3-0 6-6 0-0\ndeal B 3-4 0-4 3-3 3-2 0-6 1-2 1-4\n'
            'A: 5-5 +10\n')
    path = tmp_path / "cr.mgn"
    path.write_bytes(text.encode())
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert "#\r lot drawn for the lead\n" in result.stdout
    assert parse_text(result.stdout) == parse_text(text)
