"""Every command teaches: ``--help`` works and says what the command is for."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

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
