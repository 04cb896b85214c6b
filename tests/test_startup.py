"""``muggins check`` imports only what checking needs.

The console entry point imports the module of the command its command line
names, and ``check`` with a built-in preset reads neither the solver nor
JSON Schema, YAML, Jinja2 or Dask. What a process imported is an outcome
that does not depend on the machine; how long it took is the benchmark's
(``bench/bench_startup.py``), never a test's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import muggins_cli
from muggins_cli.rules import loader

from .conftest import RECORDS

#: Run the entry point as the ``muggins`` script does, then print which of
#: ``WATCHED`` the process imported (on stderr, after the command's output).
_PROBE = """
import json, sys
for name in {blocked!r}:
    sys.modules[name] = None  # as if not installed: importing it fails
sys.argv = ["muggins", *sys.argv[1:]]
from muggins_cli.cli import main
try:
    main()
except SystemExit as e:
    status = e.code
watched = {watched!r}
found = sorted(n for n, m in sys.modules.items() if m is not None and (
    n in watched or n.split(".")[0] in watched or any(n.startswith(w + ".") for w in watched)))
sys.stderr.write("\\n" + json.dumps({{"status": status, "imported": found}}) + "\\n")
"""

#: What ``check`` with a preset has no use for.
NOT_FOR_CHECK = ("muggins_cli.solver", "muggins_cli.analysis", "muggins_cli.play",
                 "jsonschema", "yaml", "jinja2", "markupsafe", "dask", "distributed",
                 "tabulate", "pydantic", "muggins_cli.cli.analyze_cmd",
                 "muggins_cli.cli.study_cmd")


def _probe(*args: str, watched: tuple[str, ...] = NOT_FOR_CHECK,
           blocked: tuple[str, ...] = ()) -> tuple[str, int, list[str]]:
    out, _, status, imported = _probe_all(*args, watched=watched, blocked=blocked)
    return out, status, imported


def _probe_all(*args: str, watched: tuple[str, ...] = NOT_FOR_CHECK,
               blocked: tuple[str, ...] = ()) -> tuple[str, str, int, list[str]]:
    """stdout, stderr (less the probe's line), exit status and what was
    imported of ``watched``, with the modules ``blocked`` not importable."""
    code = _PROBE.format(watched=list(watched), blocked=list(blocked))
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=120, check=False, cwd=RECORDS.parent)
    *said, last = done.stderr.rstrip("\n").split("\n")
    found = json.loads(last)
    return done.stdout, "\n".join(said).rstrip("\n"), found["status"], found["imported"]


@pytest.mark.parametrize("record", ["threes-2p.mgn", "spinner-3p.mgn", "club-night-pagat-2p.mgn",
                                    "kept-without-deals-2p.mgn"])
def test_check_with_a_preset_imports_no_solver_schema_yaml_jinja_or_dask(record: str) -> None:
    # threes-2p is all-threes, spinner-3p spinner, club-night pagat; the
    # kept record writes no deals (every tile unseen).
    out, status, imported = _probe("check", str(RECORDS / record))
    assert status == 0, out
    assert out.endswith("1 match: no errors, 0 warnings\n"), out
    assert imported == [], imported


@pytest.mark.slow  # real subprocesses, one per command line
@pytest.mark.parametrize("fmt", ["json", "github", "junit", "table"])
def test_check_in_other_formats_imports_no_solver_or_dask(fmt: str) -> None:
    out, status, imported = _probe("check", "--format", fmt, str(RECORDS / "threes-2p.mgn"),
                                   watched=("muggins_cli.solver", "jsonschema", "yaml",
                                            "jinja2", "dask"))
    assert status == 0, out
    assert imported == []


def test_a_rules_file_still_loads_yaml_and_the_schema() -> None:
    # The probe sees a lazy import when there is one: fives.yaml is a file.
    out, status, imported = _probe("check", str(RECORDS / "fives-round-end-2p.mgn"),
                                   watched=("jsonschema", "yaml", "muggins_cli.solver"))
    assert status == 0, out
    assert "jsonschema" in imported and "yaml" in imported
    assert "muggins_cli.solver" not in imported


def test_version_imports_no_command() -> None:
    out, status, imported = _probe("--version", watched=("muggins_cli.cli.check_cmd",
                                                         "muggins_cli.check", "pydantic"))
    assert (out, status, imported) == (f"muggins {muggins_cli.__version__}\n", 0, [])


#: The ``muggins`` script: the entry point, its program name ``muggins``.
_AS_MUGGINS = "import sys; sys.argv[0] = 'muggins'; from muggins_cli.cli import main; main()"
#: The app with every command loaded first, as before the entry point was lazy.
_ALL_LOADED = "import sys; sys.argv[0] = 'muggins'; from muggins_cli.cli import app; app()"


@pytest.mark.slow  # real subprocesses, one per command line
def test_help_and_unknown_commands_through_the_entry_point_are_the_apps() -> None:
    # The entry point loads commands as they are named; the app of
    # ``from muggins_cli.cli import app`` has all of them. Same help, same
    # "did you mean", same exit statuses.
    env = {**os.environ, "COLUMNS": "80"}
    for args in (["--help"], ["-h"], ["chek", "records"], ["check", "--help"], [],
                 ["check", "--jobs", "0", "records"], ["--bogus"], ["--version"]):
        lazy, full = (subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                                     text=True, timeout=120, check=False, env=env)
                      for code in (_AS_MUGGINS, _ALL_LOADED))
        assert (lazy.returncode, lazy.stdout, lazy.stderr) == \
            (full.returncode, full.stdout, full.stderr), args
        assert "Commands:" in lazy.stdout + lazy.stderr or args[:1] != ["--help"]
    done = subprocess.run([sys.executable, "-c", _AS_MUGGINS, "chek"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.stderr == ("muggins: no such command 'chek' (did you mean 'check'?) "
                           "(see 'muggins --help')\n")


def test_every_command_is_in_the_table_in_the_order_of_the_help() -> None:
    from muggins_cli.cli import app
    from muggins_cli.cli.app import COMMANDS

    assert [c.name for c in app.registered_commands] == list(COMMANDS)
    help_text = CliRunner().invoke(app, ["--help"]).stdout
    listed = [line.split()[0] for line in help_text.split("Commands:\n")[1].splitlines()
              if line.strip()]
    assert listed == list(COMMANDS)


# --- parameters coerced without pydantic -----------------------------------

_VALUES: list[Any] = ["0", "1", "2", "4", "9", "-3", "007", "+4", " 4", "1_0", "4.0", "1e3",
                      "", "x", "text", "json", "TEXT", "table", "error", "never", "pagat",
                      "99999999999999999999", 0, 1, 5, True, None, ("a", "b"), ["c"], ()]


def _params() -> list[tuple[str, Any, Any]]:
    """(command and parameter, the command, the parameter) of every command."""
    import typer.main

    from muggins_cli.cli import app

    group = typer.main.get_command(app)
    found = []
    for name in group.list_commands(None):  # type: ignore[arg-type]
        command = group.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        found += [(f"{name} {p.name}", command, p) for p in command.params
                  if hasattr(p, "type_descriptor")]
    return found


def test_plain_coercion_gives_what_typers_own_gives() -> None:
    # Typer's pydantic coercion is the oracle: wherever the plain one
    # answers, it answers the same; where it is unsure, Typer's runs.
    from typer._click import Context
    from typer._click.exceptions import BadParameter
    from typer._coercion import build_runtime_param

    from muggins_cli.cli.app import _UNSURE, _plain_value

    answered = 0
    for label, command, param in _params():
        ctx = Context(command)  # only its token_normalize_func is read
        desc = param.type_descriptor
        typers = build_runtime_param(desc)
        for value in _VALUES:
            if value is None:
                continue  # Typer handles None before either is asked
            mine = _plain_value(desc, value, ctx)
            if mine is _UNSURE:
                continue
            answered += 1
            try:
                theirs = typers._coerce_value(value, param=param, ctx=ctx)
            except BadParameter as e:
                raise AssertionError(f"{label} {value!r}: plain {mine!r}, Typer refuses: "
                                     f"{e.message}") from None
            assert (type(mine), mine) == (type(theirs), theirs), (label, value)
            if isinstance(mine, Enum):
                assert mine is theirs
    assert answered > 50


# --- presets from their validated copy -------------------------------------


def test_the_validated_copy_of_the_presets_is_up_to_date() -> None:
    path = Path(loader.__file__).with_name("presets") / "validated.json"
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(loader.validated_presets())), (
        "a preset changed: run python -c 'from muggins_cli.rules.loader import "
        "write_validated_presets as w; w()' and commit presets/validated.json")


def test_a_preset_from_its_copy_is_the_preset_from_its_yaml(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    names = loader.preset_names()
    assert names == ["all-threes", "pagat", "spinner"]
    loader._cache_clear()
    from_copy = {n: loader.load_preset(n) for n in names}
    # No copy at all: every preset read from its YAML through the schema.
    monkeypatch.setattr(loader, "_VALIDATED", "no-such-file.json")
    loader._cache_clear()
    try:
        from_yaml = {n: loader.load_preset(n) for n in names}
    finally:
        monkeypatch.undo()
        loader._cache_clear()
    assert from_copy == from_yaml
    # Worked out from pagat.yaml: line of play, multiples of 5, 250 for two.
    assert (from_copy["pagat"].modulus, from_copy["pagat"].target[2]) == (5, 250)


def test_a_copy_made_from_other_yaml_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # An edited preset whose copy was not written again: the YAML wins.
    loader._cache_clear()
    stale = json.loads(json.dumps(loader._validated_presets()))
    stale["pagat"]["rules"]["modulus"] = 7
    stale["spinner"]["rules"]["modulus"] = 7
    stale["spinner"]["yaml"] = "1:00000000"
    monkeypatch.setattr(loader, "_validated_presets", lambda: stale)
    loader.load_preset.cache_clear()
    try:
        assert loader.load_preset("spinner").modulus == 5  # from spinner.yaml
        assert loader.load_preset("pagat").modulus == 7  # the copy, still its YAML's
    finally:
        monkeypatch.undo()
        loader._cache_clear()


# --- the solver's libraries only for solving --------------------------------

#: What the solver's compiled search needs (the ``solver`` extra).
SOLVER_LIBRARIES = ("numba", "numpy", "llvmlite", "muggins_cli.solver.kernel",
                    "muggins_cli.solver.api")
#: Every command module, and the libraries that only commands use.
COMMAND_MACHINERY = ("muggins_cli.cli.analyze_cmd", "muggins_cli.cli.arena_cmd",
                     "muggins_cli.cli.check_cmd", "muggins_cli.cli.explain_cmd",
                     "muggins_cli.cli.fmt", "muggins_cli.cli.prepare_cmd",
                     "muggins_cli.cli.replay_cmd",
                     "muggins_cli.cli.rules_cmd", "muggins_cli.cli.selfplay_cmd",
                     "muggins_cli.cli.solve_cmd", "muggins_cli.cli.stats_cmd",
                     "muggins_cli.cli.study_cmd", "muggins_cli.check", "muggins_cli.analysis",
                     "muggins_cli.solver", "muggins_cli.play", "muggins_cli.replay",
                     "muggins_cli.engine", "jinja2", "tabulate", "yaml", "jsonschema",
                     "pydantic", *SOLVER_LIBRARIES)


@pytest.mark.parametrize("args", [["--help"], ["-h"], []])
def test_the_help_imports_no_command(args: list[str]) -> None:
    from muggins_cli.cli.app import COMMANDS

    assert {f"muggins_cli.cli.{m}" for m in COMMANDS.values()} <= set(COMMAND_MACHINERY)
    out, err, status, imported = _probe_all(*args, watched=COMMAND_MACHINERY)
    assert (status, imported) == (0 if args else 2, []), out
    shown = out + err  # ``muggins`` alone: on stderr, as a mistake
    assert [line.split()[0] for line in shown.split("Commands:\n")[1].splitlines()
            if line.strip()] == list(COMMANDS)


@pytest.mark.parametrize("args", [
    ["stats", "records/threes-2p.mgn"],
    ["analyze", "records/family-pagat-3p.mgn"],
    ["study", "records/threes-2p.mgn"],
    ["check", "records/"],
    ["selfplay", "--strategy", "expectimax,defensive", "--matches", "1"],
    ["replay", "records/threes-2p.mgn", "--at", "1.3"],
])
def test_commands_that_do_not_solve_import_no_numba_or_numpy(args: list[str]) -> None:
    out, status, imported = _probe(*args, watched=SOLVER_LIBRARIES)
    assert status in (0, 1), out  # analyze finds missed scores: 1 is its findings
    assert imported == []


@pytest.mark.slow  # real subprocesses, one per command line
@pytest.mark.parametrize("args", [
    ["solve", "records/club-night-pagat-2p.mgn", "--at", "1.2"],
    ["analyze", "records/threes-2p.mgn", "--solver"],
    ["study", "records/threes-2p.mgn", "--solver"],
    ["selfplay", "--strategy", "solver"],
    ["selfplay", "--strategy", "greedy,oracle"],
    ["arena", "solver", "greedy"],
    ["arena", "--ladder", "random,greedy,oracle"],
    ["prepare"],
])
def test_a_solver_command_without_the_extra_says_what_to_install(args: list[str]) -> None:
    out, err, status, imported = _probe_all(*args, watched=SOLVER_LIBRARIES,
                                            blocked=("numba", "numpy"))
    assert (out, status, imported) == ("", 2, [])
    assert err == (f"muggins {args[0]}: the solver needs numba and numpy, which this "
                   "installation lacks: pip install 'muggins-cli[solver]'")


@pytest.mark.slow  # real subprocesses, one per command line
@pytest.mark.parametrize(("args", "status"), [
    (["check", "records/"], 1),
    (["analyze", "records/threes-2p.mgn"], 0),
    (["stats", "records/"], 0),
    (["study", "records/threes-2p.mgn"], 0),
    (["arena", "greedy", "expectimax", "--matches", "2"], 0),
    (["solve", "--help"], 0),
])
def test_the_rest_works_without_the_extra(args: list[str], status: int) -> None:
    out, err, found, imported = _probe_all(*args, watched=SOLVER_LIBRARIES,
                                           blocked=("numba", "numpy"))
    assert (found, imported) == (status, []), err
    assert "Traceback" not in err and out


def test_the_library_says_what_to_install_too() -> None:
    # A caller of the Python API gets an ImportError that names the extra.
    code = ("import sys; sys.modules['numba'] = None\n"
            "try:\n    from muggins_cli.solver import solve\n"
            "except ImportError as e:\n    print(type(e).__name__, e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout == ("NotInstalledError the solver needs numba, which this installation "
                           "lacks: pip install 'muggins-cli[solver]'\n")
