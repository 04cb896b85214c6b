"""The progress display never takes what a command writes to a file."""

from __future__ import annotations

import io
import sys

import pytest

from muggins_cli.cli.progress import ProgressCount, with_progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bar_on_a_terminal_leaves_redirected_stdout_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``muggins analyze x.mgn --annotate > out.mgn`` in a terminal: the bar
    is drawn on stderr, and the record written meanwhile reaches the file."""
    err, out = Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    with ProgressCount(2, quiet=False, verb="weighed", noun="turn") as tally:
        assert tally._bar is not None  # a bar: stderr is a terminal
        sys.stdout.write("Ana: 6-6\n")
        tally.advance()
        tally.advance()
    assert out.getvalue() == "Ana: 6-6\n"
    assert err.getvalue().endswith("weighed 2 turns\n")


def test_count_line_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert list(with_progress(iter("abc"), 3, quiet=False, verb="analysed")) == ["a", "b", "c"]
    assert err.getvalue() == "analysed 3 files\n"
    err.truncate(0)
    err.seek(0)
    with ProgressCount(quiet=True) as tally:
        tally.add(5)
        tally.advance()
    assert err.getvalue() == ""
