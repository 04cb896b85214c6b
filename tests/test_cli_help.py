"""Every command teaches: ``--help`` works and says what the command is for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import muggins_cli
from muggins_cli.cli import app

COMMANDS = sorted(c.name or "" for c in app.registered_commands)


def test_commands_are_registered() -> None:
    assert {"check", "fmt", "rules"} <= set(COMMANDS)


def test_top_level_help() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_command_help(name: str) -> None:
    result = CliRunner().invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: ")
    # A help text of more than the usage line and the options.
    body = result.stdout.split("Options")[0]
    assert len(body.splitlines()) >= 4, body


def test_no_arguments_shows_help_not_a_traceback() -> None:
    result = CliRunner().invoke(app, [])
    assert "Usage" in result.output
    assert "Traceback" not in result.output


# --- plain help, -h, --version, one-line usage errors -------------------

ROOT = Path(__file__).resolve().parents[1]

#: The usage line of every command: plain metavars, no Python types.
USAGE = {
    "analyze": "Usage: muggins analyze [OPTIONS] PATH...",
    "arena": "Usage: muggins arena [OPTIONS] [A] [B]",  # A and B, or --ladder
    "check": "Usage: muggins check [OPTIONS] PATH...",
    "fmt": "Usage: muggins fmt [OPTIONS] PATH...",
    "replay": "Usage: muggins replay [OPTIONS] FILE",
    "rules": "Usage: muggins rules [OPTIONS] [NAME|FILE]",
    "selfplay": "Usage: muggins selfplay [OPTIONS]",
    "solve": "Usage: muggins solve [OPTIONS] FILE",
    "stats": "Usage: muggins stats [OPTIONS] PATH...",
}
#: What Typer shows of Python when left alone: ``<list[str]>``, ``<int range>``,
#: ``<text|json>``, ``[x>=1]`` (and ``{paths}`` in the usage line).
PYTHON_IN_HELP = re.compile(r"<[a-z_|\[\] ]+>|\bx[<>]=?\d|list\[|\brange\b")


def test_version_is_the_one_in_pyproject() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    written = re.search(r'^version = "([^"]+)"$', pyproject, re.M)
    assert written is not None
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"muggins {written[1]}\n"
    assert muggins_cli.__version__ == written[1]


def test_short_help_at_the_top() -> None:
    short = CliRunner().invoke(app, ["-h"])
    assert short.exit_code == 0, short.output
    assert short.stdout == CliRunner().invoke(app, ["--help"]).stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_short_help_is_help(name: str) -> None:
    short = CliRunner().invoke(app, [name, "-h"])
    assert short.exit_code == 0, short.output
    assert short.stdout == CliRunner().invoke(app, [name, "--help"]).stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_help_speaks_plainly(name: str) -> None:
    result = CliRunner().invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    usage = result.stdout.splitlines()[0]
    assert "{" not in usage, usage
    if name in USAGE:
        assert usage == USAGE[name]
    found = PYTHON_IN_HELP.findall(result.stdout)
    assert not found, found


def test_known_usage_lines_are_all_commands() -> None:
    assert set(USAGE) <= set(COMMANDS)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["check", "--format", "xml", "records"],
         "muggins check: --format: 'xml' is not one of text, json, jsonl, sarif, table, "
         "github, junit (see 'muggins check --help')"),
        (["stats", "--format", "github", "records"],
         "muggins stats: --format: 'github' is not one of table, json "
         "(see 'muggins stats --help')"),
        (["check", "--fail-on", "sometimes", "records"],
         "muggins check: --fail-on: 'sometimes' is not one of error, warning, never "
         "(see 'muggins check --help')"),
        (["check", "--jobs", "0", "records"],
         "muggins check: --jobs: 0 is too small (the least is 1) (see 'muggins check --help')"),
        (["check", "--jobs", "many", "records"],
         "muggins check: --jobs: 'many' is not a whole number (see 'muggins check --help')"),
        (["check"], "muggins check: missing PATH (see 'muggins check --help')"),
        (["check", "--zzz", "records"],
         "muggins check: no such option --zzz (see 'muggins check --help')"),
        (["check", "--formt", "json", "records"],
         "muggins check: no such option --formt (did you mean --format or --output-format?) "
         "(see 'muggins check --help')"),
        (["frobnicate"], "muggins: no such command 'frobnicate' (see 'muggins --help')"),
        (["solve", "records/club-night-pagat-2p.mgn"],
         "muggins solve: missing --at (see 'muggins solve --help')"),
    ],
)
def test_usage_errors_are_one_plain_line(args: list[str], line: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == line + "\n"


def test_a_value_echoed_in_an_error_cannot_drive_the_terminal() -> None:
    result = CliRunner().invoke(app, ["check", "--format", "\x1b[2J\x07", "records"])
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert result.stderr == ("muggins check: --format: '\\x1b[2J\\x07' is not one of text, "
                             "json, jsonl, sarif, table, github, junit (see 'muggins check "
                             "--help')\n")


def _options_of(name: str) -> set[str]:
    result = CliRunner().invoke(app, [name, "--help"])
    names = re.findall(r"^\s+((?:-\w, )?--[a-z][a-z-]*(?:, --[a-z][a-z-]*)*)", result.stdout,
                       re.MULTILINE)
    return {o for found in names for o in found.split(", ") if o.startswith("--")}


@pytest.mark.parametrize("name", COMMANDS)
def test_help_names_only_options_the_command_has(name: str) -> None:
    """An option named in a command's help is one of its own, unless the
    text says whose it is (``analyze --annotate``, ``muggins study ...``)."""
    text = " ".join(CliRunner().invoke(app, [name, "--help"]).stdout.split())
    text = re.sub(r"(--[a-z-]*-) ", r"\1", text)  # an option the help wrapped at a hyphen
    own = _options_of(name)
    others = {c: _options_of(c) for c in COMMANDS if c != name}
    wrong = []
    for found in re.finditer(r"(?:(\w+) )?(--[a-z][a-z-]*)", text):
        command, option = found.groups()
        if option in own or (command in others and option in others[command]):
            continue
        if re.search(rf"muggins \w+ [^.;]*{re.escape(option)}", text[:found.end()][-80:]):
            continue  # an example of another command
        wrong.append(option)
    assert wrong == []


def test_shell_completion_names_commands_options_and_choices() -> None:
    """Typer's completion is on: bash asks the program itself, through
    _MUGGINS_COMPLETE, for the words that fit where the cursor is."""
    import os
    import subprocess
    import sys

    def complete(words: str) -> list[str]:
        env = {**os.environ, "_MUGGINS_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
        done = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'muggins'; "
                               "from muggins_cli.cli import main; main()"],
                              env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert complete("muggins ch") == ["check"]
    assert complete("muggins stats --format ") == ["table", "json"]
    help_text = CliRunner().invoke(app, ["--help"]).stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
