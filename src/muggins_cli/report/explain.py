"""The entries of docs/diagnostics.md, read from the copy the package ships.

``muggins explain`` must work from an installed package, where no ``docs/``
folder exists, so the page travels as package data
(``muggins_cli/docs/diagnostics.md``, kept identical to ``docs/diagnostics.md``
by a test). The page is the one source of the explanations: this module only
cuts it into entries, one per ``## `code``` heading, so that what ``explain``
prints is what the documentation says, word for word.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from importlib import resources

_HEADING = re.compile(r"^## `(?P<code>[a-z]+(?:-[a-z]+)*)`$", re.MULTILINE)
_SEVERITY = re.compile(r"^Severity: (?P<severity>error|warning|info)$", re.MULTILINE)
_FENCE = re.compile(r"^```(?P<lang>[a-z]+)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class Entry:
    """One code's section of the page; ``text`` is the section as written,
    heading included, and ``summary`` its first paragraph (one sentence).
    ``example`` is its MGN record (None when the code is shown without one,
    as ``unreadable`` is); ``command`` and ``output`` the console block that
    shows the code: the command line, then what it prints."""

    code: str
    severity: str
    summary: str
    text: str
    example: str | None
    command: str
    output: tuple[str, ...]


def page() -> str:
    """The page as shipped with the package."""
    return (resources.files("muggins_cli") / "docs" / "diagnostics.md").read_text("utf-8")


def parse_page(text: str) -> dict[str, Entry]:
    """Every entry of a diagnostics page, in the page's order.

    Raises ``ValueError`` on an entry that lacks its severity line or its
    console block, so a badly edited page fails its test rather than
    ``explain`` printing half an entry."""
    starts = [m.start() for m in _HEADING.finditer(text)] + [len(text)]
    entries: dict[str, Entry] = {}
    for start, end in itertools.pairwise(starts):
        section = text[start:end].rstrip("\n") + "\n"
        heading = _HEADING.match(section)
        assert heading is not None  # each start is a heading's
        code = heading["code"]
        severity = _SEVERITY.search(section)
        if severity is None:
            raise ValueError(f"diagnostics page: `{code}` has no 'Severity:' line")
        after = section[severity.end():].lstrip("\n")
        summary = after.split("\n\n", 1)[0].replace("\n", " ")
        blocks = {m["lang"]: m["body"] for m in reversed(list(_FENCE.finditer(section)))}
        console = blocks.get("console")
        if console is None or not console.startswith("$ "):
            raise ValueError(f"diagnostics page: `{code}` has no console block starting with $")
        command, *output = console.rstrip("\n").split("\n")
        entries[code] = Entry(code, severity["severity"], summary, section, blocks.get("mgn"),
                              command.removeprefix("$ "), tuple(output))
    return entries


@functools.cache
def entries() -> dict[str, Entry]:
    """The shipped page's entries, read once."""
    return parse_page(page())
