"""Colour and the progress bar from one decision, rich's, held to the
conventions: NO_COLOR (non-empty), FORCE_COLOR, TERM=dumb, --color."""

from __future__ import annotations

import io
import sys

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app, terminal
from muggins_cli.cli.progress import ProgressCount

from .conftest import RECORDS

CONVENTIONS = ("NO_COLOR", "FORCE_COLOR", "TERM", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CONVENTIONS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    terminal.reset()


@pytest.mark.parametrize(("tty", "env", "when", "coloured"), [
    (True, {}, "auto", True),
    (False, {}, "auto", False),
    (True, {"NO_COLOR": "1"}, "auto", False),
    (True, {"NO_COLOR": ""}, "auto", True),  # set but empty: as if unset
    (False, {"FORCE_COLOR": "1"}, "auto", True),
    (False, {"FORCE_COLOR": ""}, "auto", False),
    (True, {"TERM": "dumb"}, "auto", False),
    (True, {}, "never", False),
    (False, {}, "always", True),
    (True, {"NO_COLOR": "1"}, "always", True),  # a flag overrides NO_COLOR
    (False, {"FORCE_COLOR": "1"}, "never", False),
])
def test_colour(tty: bool, env: dict[str, str], when: str, coloured: bool,
                monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    terminal.choose(terminal.ColorWhen(when))
    assert terminal.colour(Terminal() if tty else io.StringIO()) is coloured


@pytest.mark.parametrize(("env", "bar"), [
    ({}, True),
    ({"TERM": "dumb"}, False),
    ({"TERM": "unknown"}, False),
    ({"NO_COLOR": "1"}, True),  # colour is not the bar
    ({"TTY_INTERACTIVE": "0"}, False),
])
def test_the_bar_is_drawn_only_where_the_cursor_may_move(
        env: dict[str, str], bar: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with ProgressCount(2, quiet=False) as tally:
        assert (tally._bar is not None) is bar
        tally.advance()
        tally.advance()
    if not bar:
        assert err.getvalue() == "checked 2 files\n"  # no \r, no escape sequence
    else:
        assert "\r\x1b[2K" in err.getvalue()


def test_color_on_the_command_line() -> None:
    runner = CliRunner()
    args = ["check", str(RECORDS / "mistake-illegal-draw.mgn")]
    plain = runner.invoke(app, args)
    assert "\x1b[" not in plain.stdout
    always = runner.invoke(app, [*args, "--color", "always"])
    assert "\x1b[31merror\x1b[0m \x1b[1millegal-draw\x1b[0m Budi drew 0-0" in always.stdout
    # The next command in the same process starts from auto again.
    again = runner.invoke(app, args)
    assert again.stdout == plain.stdout
    forced = runner.invoke(app, args, env={"FORCE_COLOR": "1"})
    assert "\x1b[31merror" in forced.stdout
    never = runner.invoke(app, [*args, "--color", "never"], env={"FORCE_COLOR": "1"})
    assert never.stdout == plain.stdout
    bad = runner.invoke(app, [*args, "--color", "sometimes"])
    assert bad.exit_code == 2
    assert bad.stderr == ("muggins check: --color: 'sometimes' is not one of auto, always, "
                          "never (see 'muggins check --help')\n")
