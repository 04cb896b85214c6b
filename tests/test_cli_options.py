"""The options every command shares, and behaviours every command agrees on:
the output options, empty folders, unreadable files, --jobs, --nodes 0,
-o FILE and --force, and the closing line of ``check``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, get_args

import pytest
import typer
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.cli.app import COMMANDS as COMMAND_NAMES

from .records import CLUB

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "records"
CLEAN = RECORDS / "club-night-pagat-2p.mgn"

runner = CliRunner()


def cores() -> int:
    return len(os.sched_getaffinity(0))


# --- one set of output options -----------------------------------------

#: A quick run of every command that prints a report, without its output options.
REPORTS = {
    "check": ["check", str(CLEAN)],
    "analyze": ["analyze", str(CLEAN)],
    "stats": ["stats", str(CLEAN)],
    "solve": ["solve", "-", "--at", "1.3", "--nodes", "3000"],
    "arena": ["arena", "greedy", "random", "--matches", "1"],
}


def invoke(args: list[str]) -> tuple[int, str, str]:
    stdin = CLUB if "-" in args else None
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def without_timing(doc: object) -> object:
    if isinstance(doc, dict):
        return {k: without_timing(v) for k, v in doc.items() if k != "seconds"}
    return doc


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_every_report_takes_format_json_and_its_alias(name: str) -> None:
    code, long_out, _ = invoke([*REPORTS[name], "--format", "json", "-q"])
    assert code == 0, long_out
    code, short_out, _ = invoke([*REPORTS[name], "-f", "json", "--quiet"])
    assert code == 0, short_out
    code, alias_out, _ = invoke([*REPORTS[name], "--json", "-q"])
    assert code == 0, alias_out
    docs = [without_timing(json.loads(out)) for out in (long_out, short_out, alias_out)]
    assert docs[0] == docs[1] == docs[2]
    assert isinstance(docs[0], dict)


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_every_report_refuses_a_format_it_has_not(name: str) -> None:
    code, out, err = invoke([*REPORTS[name], "--format", "xml"])
    assert code == 2
    assert out == ""
    assert re.fullmatch(rf"muggins {name}: --format: 'xml' is not one of [a-z, ]+ "
                        rf"\(see 'muggins {name} --help'\)\n", err), err


@pytest.mark.parametrize("name", ["check", "analyze", "stats", "arena"])
def test_quiet_leaves_stderr_empty(name: str) -> None:
    code, _, err = invoke([*REPORTS[name], "-q"])
    assert code == 0
    assert err == ""


# --- no records, unreadable records --------------------------------------


@pytest.mark.parametrize("name", ["check", "analyze", "stats", "fmt"])
def test_an_empty_folder_is_exit_2_on_one_line(name: str, tmp_path: Path) -> None:
    result = runner.invoke(app, [name, str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"muggins {name}: no .mgn files found in {tmp_path}\n"


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["check"], "stdout"),
        (["check", "--format", "table"], "stderr"),
        (["analyze"], "stdout"),
        (["analyze", "--format", "table"], "stderr"),
        (["stats"], "stderr"),
        (["stats", "--json"], "stderr"),
        (["fmt"], "stderr"),
        (["fmt", "--check"], "stderr"),
    ],
)
def test_an_unreadable_file_is_named_with_its_reason(args: list[str], where: str,
                                                    tmp_path: Path) -> None:
    missing = tmp_path / "gone.mgn"
    result = runner.invoke(app, [*args, str(CLEAN), str(missing)])
    assert result.exit_code == 2, result.output
    line = f"{missing}:0:0: error unreadable cannot read {missing}: No such file or directory"
    stream = result.stdout if where == "stdout" else result.stderr
    assert line in stream.splitlines(), stream


# --- --jobs and --nodes ----------------------------------------------------


def test_jobs_are_capped_at_the_tasks() -> None:
    from muggins_cli.cli.options import worker_count

    assert worker_count("muggins check", 1000, 300, cores=2) == 300
    assert worker_count("muggins check", 1000, 3, cores=2) == 3
    assert worker_count("muggins check", 4, 1, cores=2) == 1
    assert worker_count("muggins check", None, 300, cores=2) == 2
    assert worker_count("muggins check", None, 1, cores=2) == 1
    # Tasks not known in advance (the solver's turns): the cores.
    assert worker_count("muggins analyze", 1000, None, cores=2) == 2


def test_jobs_above_the_cores_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    from muggins_cli.cli.options import worker_count

    worker_count("muggins check", 1000, 300, cores=2)
    assert capsys.readouterr().err == (
        "muggins check: note: --jobs 1000 is more than the 2 cores: running 300 processes "
        "(one per file), which share them\n")
    worker_count("muggins check", 2, 300, cores=2)
    assert capsys.readouterr().err == ""


def test_check_with_many_jobs_runs_one_per_file(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.mgn").write_bytes(CLEAN.read_bytes())
    alone = runner.invoke(app, ["check", "--jobs", "1", str(tmp_path)])
    result = runner.invoke(app, ["check", "--jobs", "1000", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == alone.stdout
    notes = [line for line in result.stderr.splitlines() if "note:" in line]
    if cores() < 3:
        assert notes == [f"muggins check: note: --jobs 1000 is more than the {cores()} cores: "
                         "running 3 processes (one per file), which share them"]
    else:
        assert notes == [f"muggins check: note: --jobs 1000 is more than the {cores()} "
                         "cores: running 3 processes (one per file)"]


def test_solve_nodes_0_means_no_cap() -> None:
    capped = runner.invoke(app, ["solve", "-", "--at", "1.3", "--mode", "perfect", "--nodes",
                                 "100000000"], input=CLUB)
    uncapped = runner.invoke(app, ["solve", "-", "--at", "1.3", "--mode", "perfect", "--nodes",
                                   "0", "--time", "0"], input=CLUB)
    assert uncapped.exit_code == 0, uncapped.output
    assert capped.exit_code == 0, capped.output
    assert "exact: yes" in uncapped.stdout

    def moves(out: str) -> list[str]:
        return [line for line in out.splitlines() if not line.startswith("exact:")]

    assert moves(uncapped.stdout) == moves(capped.stdout)


# --- files written ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["selfplay", "--matches", "1"],
        ["arena", "greedy", "random", "--matches", "1", "-q"],
    ],
)
def test_output_file_is_not_replaced_without_force(args: list[str], tmp_path: Path) -> None:
    out = tmp_path / "games.mgn"
    out.write_text("mine\n")
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"muggins {args[0]}: {out} exists; add --force to replace it\n")
    assert out.read_text() == "mine\n"
    forced = runner.invoke(app, [*args, "-o", str(out), "--force"])
    assert forced.exit_code == 0, forced.output
    assert out.read_text().startswith("[")
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert [p.name for p in tmp_path.iterdir()] == ["games.mgn"]


@pytest.mark.parametrize("args", [["selfplay"], ["arena", "greedy", "random", "-q"]])
def test_force_without_output_is_refused(args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--force"])
    assert result.exit_code == 2
    assert result.stderr == f"muggins {args[0]}: --force only goes with -o/--output\n"


# --- what the exit status of check means -----------------------------------


def test_check_says_what_its_exit_status_means() -> None:
    result = runner.invoke(app, ["check", str(RECORDS)])
    assert result.exit_code == 1
    last = result.stdout.splitlines()[-1]
    errors = sum(" error " in line for line in result.stdout.splitlines()[:-1])
    files = len(list(RECORDS.glob("*.mgn")))
    assert last == (f"checked {files} files, {files} matches: {errors} errors, 0 warnings; "
                    "exit status 1: errors found")
    never = runner.invoke(app, ["check", "--fail-on", "never", str(RECORDS)])
    assert never.exit_code == 0
    assert never.stdout.splitlines()[-1] == last.split(";")[0]


def test_readme_first_command_is_explained_and_its_output_is_true() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    first_block, rest = readme.split("```sh\n", 1)[1].split("```\n", 1)
    assert first_block.rstrip().endswith("muggins check records/")
    right_after = rest.split("```", 1)[0]
    assert "exit status 1" in right_after and "on purpose" in right_after, right_after
    # The console block of "Checking records" ends with the line check prints.
    shown = readme.split("$ muggins check records/\n", 1)[1].split("```", 1)[0]
    result = runner.invoke(app, ["check", str(RECORDS)])
    assert shown.rstrip("\n").splitlines()[-1] == result.stdout.splitlines()[-1]


@pytest.mark.parametrize("error", ["InputError", "RulesError", "BatchError", "IllegalMoveError"])
def test_any_muggins_error_a_command_lets_through_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, error: str) -> None:
    """Whatever the library raises from the root of its errors, and the
    command does not catch itself, ends as ``muggins CMD: message`` on
    stderr with exit status 2: one entry handles it for every command."""
    from muggins_cli import batch, errors
    from muggins_cli.cli import stats_cmd

    kind = getattr(batch, error, None) or getattr(errors, error)

    def broken(*args: object, **kwargs: object) -> object:
        raise kind("the library could not go on")

    monkeypatch.setattr(stats_cmd, "record_files", broken)
    result = runner.invoke(app, ["stats", str(CLUB)])
    assert result.exit_code == 2, result.output
    assert result.stderr == "muggins stats: the library could not go on\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- every number of the command line is bounded where it is read -------


def _numeric_options() -> list[tuple[str, str, Any]]:
    """(command, option, its TyperOption) for every int and float option."""
    group = typer.main.get_command(app)
    out: list[tuple[str, str, Any]] = []
    for name in COMMAND_NAMES:
        command = group.get_command(None, name)  # type: ignore[attr-defined, arg-type]
        for param in command.params:
            desc = getattr(param, "type_descriptor", None)
            if desc is None or not param.opts or param.opts[0].startswith("--help"):
                continue
            kinds = {a for a in (desc.annotation, *get_args(desc.annotation))
                     if a in (int, float)}
            if kinds:
                out.append((name, max(param.opts, key=len), param))
    return out


def test_every_numeric_option_has_a_bound() -> None:
    found = _numeric_options()
    assert len(found) > 30
    unbounded = [(c, o) for c, o, p in found
                 if p.type_descriptor.parameter_info.max is None]
    assert unbounded == []


@pytest.mark.parametrize(("command", "option"),
                         [(c, o) for c, o, _ in _numeric_options()])
def test_a_number_past_its_bound_is_one_line_naming_the_bound(command: str,
                                                              option: str) -> None:
    (param,) = [p for c, o, p in _numeric_options() if (c, o) == (command, option)]
    bound = param.type_descriptor.parameter_info.max
    past = bound + 1 if isinstance(bound, int) else bound * 2
    for value in (str(past), "9" * 5000):
        result = runner.invoke(app, [command, option, value])
        assert result.exit_code == 2, (command, option, value, result.output)
        lines = result.stderr.splitlines()
        assert len(lines) == 1, lines
        assert f"muggins {command}: {option}: " in lines[0]
        assert f"(the most is {bound})" in lines[0], lines[0]
        assert len(lines[0]) < 200


@pytest.mark.parametrize("command", ["check", "analyze"])
def test_the_closing_line_is_said_once(command: str) -> None:
    """A text report ends with the summary on stdout, and stderr does not
    count the files again ("checked 12 files" read twice where both go to
    one log)."""
    result = runner.invoke(app, [command, str(RECORDS)])
    assert result.exit_code == 1
    summary = result.stdout.splitlines()[-1]
    assert summary.endswith("; exit status 1: errors found")
    assert f"{'checked' if command == 'check' else 'analysed'} 12 files" not in result.stderr
    assert summary not in result.stderr


@pytest.mark.parametrize("command", ["check", "analyze"])
@pytest.mark.parametrize("fmt", ["table", "json", "junit", "github"])
def test_every_format_says_what_its_exit_status_means(command: str, fmt: str) -> None:
    """Where stdout is the report alone, the closing line, which says what
    exit status 1 means, is on stderr (and not with --quiet)."""
    text = runner.invoke(app, [command, str(RECORDS)]).stdout.splitlines()[-1]
    result = runner.invoke(app, [command, "--format", fmt, str(RECORDS)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == text
    assert "exit status" not in result.stdout
    quiet = runner.invoke(app, [command, "--format", fmt, "-q", str(RECORDS)])
    assert quiet.stderr == ""
