"""Record text quoted in a message, cut to a readable length.

A message quotes the token it is about so the reader can find it; a record
is a stranger's text, and one 50 MB token must not make a 50 MB message.
The text is cut, never escaped: the reporters escape what they print.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection

#: The longest text quoted whole; longer text keeps its start and an ellipsis.
QUOTE_MAX = 48
#: The most items of a list a message names; the rest are counted.
LIST_MAX = 8


def shorten(text: str) -> str:
    """``text``, or its first ``QUOTE_MAX - 1`` characters and ``…``."""
    return text if len(text) <= QUOTE_MAX else text[: QUOTE_MAX - 1] + "…"


def quote(text: str) -> str:
    """``'text'`` as messages quote a token, shortened."""
    return f"'{shorten(text)}'"


def listing(items: Collection[str]) -> str:
    """``items`` joined by commas, each shortened, at most ``LIST_MAX`` of
    them and then how many more: a list from a record (20,000 players) must
    not make every message that names it as long as the record."""
    shown = [shorten(item) for item in itertools.islice(items, LIST_MAX)]
    more = len(items) - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more > 0 else "")
