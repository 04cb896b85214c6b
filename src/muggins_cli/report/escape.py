"""Record text made safe for a terminal or a CI log: control characters shown.

A record is a stranger's text, and the text and github reporters copy its
names and tokens into findings; a terminal (and GitHub's log viewer) acts
on control characters, so ``\\x1b[1A\\x1b[2K`` in a token erased the line
above and an OSC sequence set the window title. Every control character
(C0, DEL and C1, tab included: a finding is one line whose fields are
separated by single spaces), the line and paragraph separators, and the
bidirectional overrides and isolates (which reorder what is shown) are
written as the Python escape for them (``\\x1b``, ``\\t``, ``\\u202e``), and
so is a byte of a file name that is not UTF-8 (``\\xff``; Python reads it
as a lone surrogate, which a UTF-8 terminal cannot be sent).
A backslash is left as it is, so a message keeps its look; the JSON report
keeps the raw text. XML (the SVG board, JUnit) has its own rule,
:func:`for_xml`: what XML cannot hold is replaced, markup is referenced.

Escaping happens here, when a finding is printed, so that what the replay
found stays the text of the record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        # A byte of a file name that is not UTF-8, as os.fsdecode gives it:
        # shown as the byte.
        return f"\\x{code - 0xDC00:02x}"
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def for_terminal(text: str) -> str:
    """``text`` with every character a terminal would act on shown as an escape."""
    return _UNSAFE.sub(_visible, text)


# Characters XML 1.0 does not allow at all, not even as references: the C0
# controls but tab, LF and CR, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_XML_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                               "'": "&#39;"})


def _xml_visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "\ufffd"


def for_xml(text: str) -> str:
    """``text`` as XML character data or a quoted attribute value: the
    markup characters as references, a byte of a file name that is not
    UTF-8 as ``\\xff`` (as :func:`for_terminal` shows it), and each other
    character XML cannot hold as U+FFFD (one such character made a whole SVG
    or JUnit file unreadable). The one function for every XML this project
    writes."""
    return _NOT_XML.sub(_xml_visible, text).translate(_XML_ENTITIES)


def terminal_table(rows: Iterable[Sequence[object]], **options: Any) -> str:
    """``tabulate(rows, **options)`` with every text cell escaped first, so
    the columns are measured on what is shown."""
    from tabulate import tabulate  # here: the text report, which only escapes, needs none

    safe = [[for_terminal(cell) if isinstance(cell, str) else cell for cell in row]
            for row in rows]
    return tabulate(safe, **options)
