"""Progress on stderr, the same for every long command.

A bar when stderr is a terminal that may be drawn on (rich's answer,
:mod:`.terminal`: not with ``TERM=dumb``), one count line at the end
otherwise (CI logs), nothing with ``--quiet``; stdout stays the report
alone.

The bar shares the terminal with the report, which is written straight to
the streams (rich's redirection of ``sys.stdout`` is bypassed by the copy a
command takes before the bar starts, and it rewraps what it passes on). So
the bar is taken off the screen while the caller holds an item
(:meth:`ProgressCount.handing`, :func:`with_progress`), and drawn again below what
the caller wrote while the next is worked out. rich renders the bar; drawing
and erasing it is done here, at most ten times a second, so that handing
out an item costs a few bytes and not a redraw. When the report is on the
same terminal it ends with its own summary, and the count line is left out;
so it is where a command closes with a summary line of its own (``check``
and ``analyze``: on stdout after text, on stderr otherwise), see
:data:`Summary`.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal, TypeAlias, TypeVar

from muggins_cli.cli.terminal import console, interactive

T = TypeVar("T")

#: Where the command's own closing summary goes, if it has one: then the
#: count line would say again what it says. On "stderr" (a report whose
#: stdout is data) the count line is left out; on "stdout" it is left out
#: unless stderr is a terminal that does not show stdout (``> report.txt``:
#: the count is all the terminal would see of the run).
Summary: TypeAlias = Literal["stdout", "stderr"] | None

_TICK = 0.1  # seconds between redraws


def _plural(noun: str, n: int) -> str:
    if n == 1:
        return noun
    return noun + ("es" if noun.endswith("ch") else "s")


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` agreeing: 1 deal sequence, 2 deal sequences, 1 match."""
    return f"{n} {_plural(noun, n)}"


def _doing(verb: str) -> str:
    """checked → checking, played → playing, analysed → analysing, read → reading."""
    return verb[:-2] + "ing" if verb.endswith("ed") else verb + "ing"


class _Bar:
    """One rich progress task, drawn on stderr by a thread of its own while
    it is wanted, and erased (so the line it took is free) when it is not."""

    def __init__(self, description: str, noun: str, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._file = sys.stderr
        self._console = console(self._file)
        # Never started: it keeps the task and renders it; nothing else.
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TextColumn(noun),
                                  TimeElapsedColumn(), TimeRemainingColumn(),
                                  console=self._console, auto_refresh=False)
        self._task = self._progress.add_task(description, total=total)
        self._lock = threading.Lock()
        self._wanted = True
        self._height = 0  # lines the bar takes on the screen now; 0: not drawn
        self._drawn_at = 0.0
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()
        self.show()

    def update(self, *, total: int | None = None, advance: int = 0) -> None:
        self._progress.update(self._task, total=total, advance=advance)

    def show(self) -> None:
        with self._lock:
            self._wanted = True
            if time.monotonic() - self._drawn_at >= _TICK:
                self._draw()

    def hide(self) -> None:
        with self._lock:
            self._wanted = False
            self._erase()

    def close(self) -> None:
        self._closed.set()
        self._thread.join()
        self.hide()

    def _tick(self) -> None:
        while not self._closed.wait(_TICK):
            with self._lock:
                if self._wanted:
                    self._draw()

    def _draw(self) -> None:
        with self._console.capture() as captured:
            self._console.print(self._progress.get_renderable(), end="")
        text = captured.get().rstrip("\n")
        self._erase(flush=False)
        self._file.write("\r" + text)
        self._file.flush()
        self._height = text.count("\n") + 1
        self._drawn_at = time.monotonic()

    def _erase(self, *, flush: bool = True) -> None:
        # Up to the bar's first line, clearing each; the cursor ends where
        # the bar began, so what is written next takes its place.
        if self._height:
            self._file.write("\r\x1b[2K" + "\x1b[1A\x1b[2K" * (self._height - 1))
            self._height = 0
            if flush:
                self._file.flush()


class ProgressCount:
    """A count on stderr of things done, whose total may grow as more work
    is found (the turns of each match, as its record is read). A bar on a
    terminal, one line at the end otherwise (``closing``'s, when the count
    alone would not say what became of them), nothing when ``quiet``."""

    def __init__(self, total: int = 0, *, quiet: bool, verb: str = "checked",
                 noun: str = "file", summary: Summary = None,
                 closing: Callable[[], str] | None = None) -> None:
        self.total = total
        self.closing = closing
        self.done = 0
        self.quiet = quiet
        self.summary = summary
        self.verb = verb
        self.noun = noun
        self._bar: Any = None
        self._report_on_screen = False

    def __enter__(self) -> ProgressCount:
        if not self.quiet and interactive(sys.stderr):
            self._report_on_screen = interactive(sys.stdout)
            self._bar = _Bar(_doing(self.verb), _plural(self.noun, 2), self.total)
        return self

    def add(self, n: int) -> None:
        self.total += n
        if self._bar is not None:
            self._bar.update(total=self.total)

    def advance(self) -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.update(advance=1)

    def handing(self, items: Iterable[T]) -> Iterator[T]:
        """``items`` passed through, the bar off the screen while the caller
        holds each one (and writes what it found) and back while the next
        is worked out; off again once they run out, for the caller's summary."""
        for item in items:
            if self._bar is not None:
                self._bar.hide()
            yield item
            if self._bar is not None:
                self._bar.show()
        if self._bar is not None:
            self._bar.hide()

    def __exit__(self, kind: object, *rest: object) -> None:
        if self._bar is not None:
            self._bar.close()
        if self.quiet or kind is not None or self.summary == "stderr":
            return
        if self.summary == "stdout" and self._bar is None:
            return  # stderr is a log, where stdout's summary is read already
        if not (self._bar is not None and self._report_on_screen):
            line = (self.closing() if self.closing is not None
                    else f"{self.verb} {self.done} {_plural(self.noun, self.done)}")
            sys.stderr.write(line + "\n")
            sys.stderr.flush()


def with_progress(items: Iterable[T], total: int, *, quiet: bool, verb: str = "checked",
                  noun: str = "file", summary: Summary = None) -> Iterator[T]:
    """``items`` passed through, counting them on stderr as they go by (see
    :data:`Summary` for the count line at the end)."""
    with ProgressCount(total, quiet=quiet, verb=verb, noun=noun, summary=summary) as tally:
        for item in tally.handing(items):
            yield item
            tally.advance()
