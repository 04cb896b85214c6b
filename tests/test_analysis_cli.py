"""``muggins analyze`` through Typer's test runner: what goes to stdout and
to stderr, exit statuses, and what it does to files on disk."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app

from .conftest import CLEAN_0019
from .test_analysis import PAGAT, SPINNER
from .test_analysis_annotate import PAGAT_ANNOTATED

STATS = """\
a.mgn: match at line 1 (Ana, Budi; pagat)
player      turns    analysed    forced    scored    missed    missed-score    illegal    unclaimed
--------  -------  ----------  --------  --------  --------  --------------  ---------  -----------
Ana             4           4         2         0        25               2          0            -
Budi            4           4         1        15        15               1          0            -
"""

FINDINGS = """\
a.mgn:11:1: warning missed-score Ana played 6-6 for 0; 4-1 scored 5 (5 missed)
a.mgn:13:1: warning missed-score Ana played 4-1L for 0; 4-4L scored 20 (20 missed)
a.mgn:18:1: warning missed-score Budi played 2-1L for 0; 2-3L scored 15 (15 missed)
"""

CONFORMANCE_STATS = """\
clean-0019.mgn: match at line 1 (Citra, Wayan, Dewi; spinner)
player      turns    analysed    forced    scored    missed    missed-score    illegal    unclaimed
--------  -------  ----------  --------  --------  --------  --------------  ---------  -----------
Citra          21          21         8        95         0               0          0            5
Wayan          23          23         6        95         0               0          0           30
Dewi           23          23         8        60        40               6          0            0
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.mgn").write_text(PAGAT, encoding="utf-8")
    return tmp_path


def test_help_teaches_with_examples(runner: CliRunner) -> None:
    result = runner.invoke(app, ["analyze", "--help"])
    assert result.exit_code == 0, result.output
    assert "muggins analyze records/" in result.stdout
    for option in ("--annotate", "--in-place", "--output", "--mistake", "--blunder", "--turns"):
        assert option in result.stdout


def test_text_report(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "a.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (FINDINGS + "\n" + STATS + "\n"
                             + "checked 1 file, 1 match: no errors, 3 warnings\n")
    assert result.stderr == ""  # the summary closes stdout; no count again


def test_quiet_and_fail_on_warning(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--fail-on", "warning", "a.mgn"])
    assert result.exit_code == 1
    assert result.stdout == FINDINGS + "\n" + STATS
    assert result.stderr == ""


def test_statistics_of_a_conformance_record(runner: CliRunner, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(CLEAN_0019, tmp_path / "clean-0019.mgn")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["analyze", "-q", "clean-0019.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\n" + CONFORMANCE_STATS)


def test_turns_lists_alternatives(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--turns", "a.mgn"])
    assert result.exit_code == 0, result.output
    assert "1.3        13  Ana       4-1L             0  4-4L 20        20  " \
           "4-1L 0, 4-3L 15, 4-4L 20\n" in result.stdout


def test_errors_give_status_1(runner: CliRunner, here: Path) -> None:
    (here / "s.mgn").write_text(SPINNER, encoding="utf-8")
    result = runner.invoke(app, ["analyze", "-q", "s.mgn"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        "s.mgn:10:1: info unclaimed Ana left 10 points unclaimed that nobody called "
        "(2 plays: lines 10, 13)",
        "s.mgn:14:15: error muggins-invalid Budi calls muggins for 10, but only 5 went "
        "unclaimed",
    ]


def test_json_adds_players_summary_and_plays(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--format", "json", "a.mgn"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    match = doc["files"][0]["matches"][0]
    assert {k: match[k] for k in ("line", "players", "rules", "target", "rounds", "winner")} \
        == {"line": 1, "players": ["Ana", "Budi"], "rules": "pagat", "target": 250,
            "rounds": 1, "winner": None}
    assert match["players_summary"][1] == {
        "player": "Budi", "turns": 4, "analysed": 4, "forced": 1, "points_scored": 15,
        "points_missed": 15, "missed_score": 1, "illegal": 0, "unclaimed": None}
    assert match["plays"][2] == {
        "round": 1, "turn": 3, "line": 13, "player": "Ana", "played": "4-1L", "points": 0,
        "options": [{"play": "4-1L", "points": 0}, {"play": "4-3L", "points": 15},
                    {"play": "4-4L", "points": 20}],
        "best": {"play": "4-4L", "points": 20}, "missed": 20}
    assert [d["code"] for d in doc["files"][0]["diagnostics"]] == ["missed-score"] * 3
    assert doc["summary"] == {"files": 1, "matches": 1, "errors": 0, "warnings": 3}


def test_table_format(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--format", "table", "a.mgn"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["file", "line", "players", "rules", "target", "rounds",
                                "scores", "winner", "errors"]
    assert lines[4].split()[:5] == ["file", "line", "player", "turns", "analysed"]
    assert lines[6].split() == ["a.mgn", "1", "Ana", "4", "4", "2", "0", "25", "2", "0", "-"]


def test_github_format_carries_the_warnings(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--format", "github", "a.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        "::warning file=a.mgn,line=11,col=1,title=missed-score::"
        "Ana played 6-6 for 0; 4-1 scored 5 (5 missed)")


def test_stdin(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "-"], input=PAGAT)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("-:11:1: warning missed-score")


# -- annotating ---------------------------------------------------------------


def test_annotate_to_stdout_puts_the_report_on_stderr(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "a.mgn"])
    assert result.exit_code == 0, result.output
    assert result.stdout == PAGAT_ANNOTATED
    assert result.stderr == FINDINGS + "\n" + STATS


def test_annotate_from_stdin(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "-"], input=PAGAT)
    assert result.exit_code == 0, result.output
    assert result.stdout == PAGAT_ANNOTATED


def test_annotate_to_a_new_file_which_check_accepts(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "-o", "out.mgn", "a.mgn"])
    assert result.exit_code == 0, result.output
    assert (here / "out.mgn").read_text(encoding="utf-8") == PAGAT_ANNOTATED
    assert (here / "a.mgn").read_text(encoding="utf-8") == PAGAT
    assert result.stdout == FINDINGS + "\n" + STATS
    assert result.stderr == "wrote out.mgn (3 turns annotated)\n"
    check = runner.invoke(app, ["check", "out.mgn"])
    assert check.exit_code == 0, check.output
    assert check.stdout == "checked 1 file, 1 match: no errors, 0 warnings\n"


def test_existing_output_is_refused_without_force(runner: CliRunner, here: Path) -> None:
    (here / "out.mgn").write_text("keep me\n", encoding="utf-8")
    result = runner.invoke(app, ["analyze", "--annotate", "-o", "out.mgn", "a.mgn"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "muggins analyze: out.mgn exists; add --force to replace it\n"
    assert (here / "out.mgn").read_text(encoding="utf-8") == "keep me\n"
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "-o", "out.mgn", "--force",
                                 "a.mgn"])
    assert result.exit_code == 0, result.output
    assert (here / "out.mgn").read_text(encoding="utf-8") == PAGAT_ANNOTATED


def test_in_place_rewrites_atomically(runner: CliRunner, here: Path) -> None:
    path = here / "a.mgn"
    path.chmod(0o640)
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "--in-place", "a.mgn"])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == PAGAT_ANNOTATED
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in here.iterdir()) == ["a.mgn"]  # no temporary file left
    assert result.stderr == "annotated a.mgn (3 turns)\n"
    # A second run finds nothing new and leaves the file alone.
    before = path.stat().st_mtime_ns
    again = runner.invoke(app, ["analyze", "-q", "--annotate", "--in-place", "a.mgn"])
    assert again.exit_code == 0 and again.stderr == ""
    assert path.stat().st_mtime_ns == before


def test_in_place_failure_leaves_the_file_whole(runner: CliRunner, here: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    result = runner.invoke(app, ["analyze", "-q", "--annotate", "--in-place", "a.mgn"])
    assert result.exit_code == 2
    assert result.stderr == "muggins analyze: cannot write a.mgn: No space left on device\n"
    assert (here / "a.mgn").read_text(encoding="utf-8") == PAGAT
    assert sorted(p.name for p in here.iterdir()) == ["a.mgn"]


def test_in_place_over_a_folder(runner: CliRunner, here: Path) -> None:
    (here / "club").mkdir()
    (here / "a.mgn").rename(here / "club" / "a.mgn")
    (here / "club" / "s.mgn").write_text(SPINNER, encoding="utf-8")
    result = runner.invoke(app, ["analyze", "-q", "-j", "1", "--annotate", "--in-place",
                                 "club"])
    assert result.exit_code == 1  # the spinner record has an error
    assert (here / "club" / "a.mgn").read_text(encoding="utf-8") == PAGAT_ANNOTATED
    assert (here / "club" / "s.mgn").read_text(encoding="utf-8") == SPINNER
    assert result.stderr == "annotated club/a.mgn (3 turns)\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "x.mgn", "a.mgn"],
         "-o/--output and --in-place write an annotated record; add --annotate"),
        (["--annotate", "--force", "a.mgn"], "--force only goes with -o/--output"),
        (["--annotate", "-o", "x.mgn", "--in-place", "a.mgn"],
         "use either -o/--output or --in-place, not both"),
        (["--annotate", "-o", "x.mgn", "a.mgn", "a.mgn"],
         "-o/--output takes one record; 2 files were given"),
        (["--annotate", "--in-place", "-"],
         "--in-place cannot rewrite standard input; use -o FILE"),
        (["--annotate", "--mistake", "20", "--blunder", "10", "a.mgn"],
         "the blunder threshold (10) is below the mistake threshold (20)"),
        (["empty"], "no .mgn files found in empty"),
    ],
)
def test_bad_command_lines_give_one_line_and_status_2(runner: CliRunner, here: Path,
                                                      args: list[str], message: str) -> None:
    (here / "empty").mkdir()
    result = runner.invoke(app, ["analyze", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"muggins analyze: {message}\n"
    assert sorted(p.name for p in here.iterdir()) == ["a.mgn", "empty"]


def test_unreadable_file_gives_status_2(runner: CliRunner, here: Path) -> None:
    result = runner.invoke(app, ["analyze", "-q", "missing.mgn"])
    assert result.exit_code == 2
    assert result.stdout.startswith("missing.mgn:0:0: error unreadable cannot read missing.mgn")


def test_processes_give_the_same_report(runner: CliRunner, here: Path) -> None:
    (here / "s.mgn").write_text(SPINNER, encoding="utf-8")
    one = runner.invoke(app, ["analyze", "-q", "-f", "json", "-j", "1", "a.mgn", "s.mgn"])
    two = runner.invoke(app, ["analyze", "-q", "-f", "json", "-j", "2", "a.mgn", "s.mgn"])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout
