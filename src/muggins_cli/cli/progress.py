"""Progress on stderr, the same for every long command.

A bar when stderr is a terminal, one count line at the end otherwise (CI
logs), nothing with ``--quiet``; stdout stays the report alone.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


def _plural(noun: str, n: int) -> str:
    if n == 1:
        return noun
    return noun + ("es" if noun.endswith("ch") else "s")


def _doing(verb: str) -> str:
    """checked → checking, played → playing, analysed → analysing, read → reading."""
    return verb[:-2] + "ing" if verb.endswith("ed") else verb + "ing"


class Tally:
    """A count on stderr of things done, whose total may grow as more work
    is found (the turns of each match, as its record is read). A bar on a
    terminal, one line at the end otherwise, nothing when ``quiet``."""

    def __init__(self, total: int = 0, *, quiet: bool, verb: str = "checked",
                 noun: str = "file") -> None:
        self.total = total
        self.done = 0
        self.quiet = quiet
        self.verb = verb
        self.noun = noun
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Tally:
        if not self.quiet and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TextColumn(_plural(self.noun, 2)),
                                 TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True,
                                 # Output printed to a terminal goes above the bar;
                                 # to a file or a pipe, it must stay where it goes.
                                 redirect_stdout=sys.stdout.isatty())
            self._bar.start()
            self._task = self._bar.add_task(_doing(self.verb), total=self.total)
        return self

    def add(self, n: int) -> None:
        self.total += n
        if self._bar is not None:
            self._bar.update(self._task, total=self.total)

    def advance(self) -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.advance(self._task)

    def __exit__(self, kind: object, *rest: object) -> None:
        if self._bar is not None:
            self._bar.stop()
        if not self.quiet and kind is None:
            sys.stderr.write(f"{self.verb} {self.done} {_plural(self.noun, self.done)}\n")
            sys.stderr.flush()


def with_progress(items: Iterable[T], total: int, *, quiet: bool, verb: str = "checked",
                  noun: str = "file") -> Iterator[T]:
    """``items`` passed through, counting them on stderr as they go by."""
    with Tally(total, quiet=quiet, verb=verb, noun=noun) as tally:
        for item in items:
            yield item
            tally.advance()
