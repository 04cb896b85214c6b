"""Rules files from strangers: refused on one line, never a traceback, a hang
or the machine's memory."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import check_file
from muggins_cli.cli import app
from muggins_cli.errors import RulesError
from muggins_cli.rules import load_rules
from tests.hostile import (
    FIFO,
    HOSTILE,
    HOSTILE_YAML,
    hostile_record,
    measure,
    muggins_argv,
    write_hostile_folder,
)

runner = CliRunner()

# What may be loaded in this process: the hostile files but the bomb, and a
# bomb of two levels of two.
IN_PROCESS = {
    **{k: v for k, v in HOSTILE_YAML.items() if k != "laughs"},
    "small-laughs": 'a: &a ["lol", "lol"]\nb: &b [*a, *a]\n',
}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("self-alias", "rules file self-alias.yaml: line 1: an anchor (&r) is not allowed "
                       "in a rules file; write the value out"),
        # The bomb itself is only loaded in a child process with its memory
        # capped (below): a regression must not take the machine's memory.
        ("small-laughs", "rules file small-laughs.yaml: line 1: an anchor (&a) is not "
                         "allowed in a rules file; write the value out"),
        ("deep", "rules file deep.yaml: line 1: values nested more than 16 deep; "
                 "a rules file needs 3"),
    ],
)
def test_hostile_yaml_is_one_rules_error(name: str, message: str, tmp_path: Path) -> None:
    (tmp_path / f"{name}.yaml").write_text(IN_PROCESS[name], encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(f"{name}.yaml", base_dir=tmp_path)
    assert str(info.value) == message


def test_an_alias_without_its_anchor_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("modulus: 5\nplayers: *p\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules("a.yaml", base_dir=tmp_path)
    assert str(info.value) == ("rules file a.yaml: line 2: an alias (*p) is not allowed "
                               "in a rules file; write the value out")


def test_nesting_at_the_limit_is_read(tmp_path: Path) -> None:
    # 16 levels: the mapping, then 15 lists; the schema then refuses the value.
    (tmp_path / "n.yaml").write_text("players: " + "[" * 15 + "]" * 15 + "\n",
                                     encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules("n.yaml", base_dir=tmp_path)
    assert "nested" not in str(info.value)
    assert "field 'players[0]' must be an integer, got a list" in str(info.value)


def test_a_number_too_long_to_convert_is_one_rules_error(tmp_path: Path) -> None:
    # Python refuses to convert more than 4,300 digits (ValueError).
    (tmp_path / "big.yaml").write_text("modulus: " + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules("big.yaml", base_dir=tmp_path)
    assert str(info.value).startswith("rules file big.yaml: line 1: ")
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_a_file_over_1_mb_is_not_read(tmp_path: Path) -> None:
    # Valid YAML: a comment makes it large, so only the size refuses it.
    (tmp_path / "big.yaml").write_text("modulus: 5\n#" + "x" * 1_000_000 + "\n",
                                       encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules("big.yaml", base_dir=tmp_path)
    assert str(info.value) == ("rules file big.yaml: larger than 1 MB (1000013 bytes); "
                               "a rules file is a few lines")


def test_a_file_of_1_mb_is_read(tmp_path: Path) -> None:
    text = "modulus: 3\n#" + "x" * (1_000_000 - 13) + "\n"
    assert len(text) == 1_000_000
    (tmp_path / "ok.yaml").write_text(text, encoding="utf-8")
    assert load_rules("ok.yaml", base_dir=tmp_path).modulus == 3


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    # Should the loader wait for a writer, this one comes, so that a
    # regression fails on its message instead of hanging the suite.
    stop = threading.Event()

    def writer() -> None:
        while not stop.wait(0.05):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                continue  # no reader yet

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        with pytest.raises(RulesError) as info:
            load_rules("f.yaml", base_dir=tmp_path)
    finally:
        stop.set()
        thread.join()
    assert str(info.value) == "rules file f.yaml: a named pipe, not a regular file"


def test_a_device_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        load_rules("/dev/null")
    assert str(info.value) == "rules file /dev/null: a device, not a regular file"


@pytest.mark.parametrize("name", list(IN_PROCESS))
def test_rules_command_gives_one_line_and_exit_2(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / f"{name}.yaml").write_text(IN_PROCESS[name], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["rules", f"{name}.yaml"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: rules file {name}.yaml: line 1: ")
    assert result.stderr.count("\n") == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("name", list(IN_PROCESS))
def test_record_naming_a_hostile_file_gets_one_bad_header(name: str, tmp_path: Path) -> None:
    (tmp_path / f"{name}.yaml").write_text(IN_PROCESS[name], encoding="utf-8")
    record = tmp_path / "r.mgn"
    record.write_text(hostile_record(f"{name}.yaml"), encoding="utf-8")
    report = check_file(str(record))
    assert [(d.line, d.column, d.code) for d in report.diagnostics] == [(3, 1, "bad-header")]
    assert report.diagnostics[0].message.startswith(
        f"Rules '{name}.yaml': rules file {name}.yaml: line 1: ")


@pytest.mark.slow  # a real subprocess over a hostile folder
def test_check_of_a_hostile_folder_is_bounded(tmp_path: Path) -> None:
    """The issue's figure: every hostile file beside its record and one good
    record, checked as a user would; 400 MB and 20 s are limits, not speeds."""
    folder = tmp_path / "records"
    write_hostile_folder(folder)
    run = measure(muggins_argv("check", "records"), timeout=20, cwd=tmp_path,
                  memory_cap_mb=2000)
    assert run.returncode == 1, run.stderr  # the four bad headers are errors
    assert "Traceback" not in run.stderr
    lines = run.stdout.splitlines()
    for name in HOSTILE:
        mine = [line for line in lines if line.startswith(f"records/{name}.mgn:")]
        assert len(mine) == 1, lines
        assert mine[0].startswith(f"records/{name}.mgn:3:1: error bad-header "
                                  f"Rules '{name}.yaml': rules file {name}.yaml: ")
    assert not [line for line in lines if line.startswith("records/good.mgn:")]
    assert lines[-1] == "checked 5 files, 5 matches: 4 errors, 0 warnings; exit status 1: errors found"
    assert run.peak_mb < 400, run.peak_mb
    assert run.seconds < 20


@pytest.mark.slow  # a real subprocess over a hostile folder
def test_fifo_message_in_the_run(tmp_path: Path) -> None:
    """The named pipe is named as such, in the same run as the rest."""
    folder = tmp_path / "records"
    write_hostile_folder(folder)
    run = measure(muggins_argv("check", "-q", f"records/{FIFO}.mgn"), timeout=20,
                  cwd=tmp_path)
    assert run.stdout == (f"records/{FIFO}.mgn:3:1: error bad-header Rules '{FIFO}.yaml': "
                          f"rules file {FIFO}.yaml: a named pipe, not a regular file\n")
