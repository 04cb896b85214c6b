"""Progress on stderr, the same for every long command.

A bar when stderr is a terminal, one count line at the end otherwise (CI
logs), nothing with ``--quiet``; stdout stays the report alone.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def _plural(noun: str, n: int) -> str:
    if n == 1:
        return noun
    return noun + ("es" if noun.endswith("ch") else "s")


def _doing(verb: str) -> str:
    """checked → checking, played → playing, analysed → analysing, read → reading."""
    return verb[:-2] + "ing" if verb.endswith("ed") else verb + "ing"


def with_progress(items: Iterable[T], total: int, *, quiet: bool, verb: str = "checked",
                  noun: str = "file") -> Iterator[T]:
    """``items`` passed through, counting them on stderr as they go by."""
    if quiet:
        yield from items
        return
    done = 0
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn(_plural(noun, 2)), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(_doing(verb), total=total)
            for item in items:
                yield item
                done += 1
                bar.advance(task)
    else:
        for item in items:
            yield item
            done += 1
    sys.stderr.write(f"{verb} {done} {_plural(noun, done)}\n")
    sys.stderr.flush()
