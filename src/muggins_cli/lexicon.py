"""The spelling of MGN's tokens: tiles, placements, glyphs, claims, draws.

One place owns the grammar of the words a turn line is made of
(docs/notation.md 4 and 5), so that the parser, the annotator that patches
glyphs into a keeper's text and ``Tile.parse`` cannot come to disagree on
what a tile or a placement looks like. The atoms are ASCII only: ``\\d``
would also take other scripts' digits, which MGN does not.
"""

from __future__ import annotations

import re

PIP = r"[0-9]{1,2}"
END = r"[LRUD]"
#: Longest first, so that ``!?`` is not read as ``!`` followed by ``?``.
GLYPH = r"!!|!\?|\?!|\?\?|!|\?"
POINTS = r"[0-9]{1,9}"
#: The largest number a record may hold (claims, score lines, round numbers,
#: the Target tag) or a position ``R.T`` may name: nine ASCII digits, so that
#: reading one never makes Python's int() refuse a long string and a total
#: of them fits the compiled searches' 64 bits.
NUMBER_MAX = 999_999_999

#: ``A-B``, the two pips as groups.
TILE_RE = re.compile(rf"({PIP})-({PIP})")
#: ``A-B``, an end letter, a glyph: pips, end and glyph as groups.
PLACEMENT_RE = re.compile(rf"({PIP})-({PIP})({END}?)({GLYPH})?")
#: The same placement, its tile-and-end text as one group and the glyph as
#: another: what the annotator replaces a glyph beside.
PLACEMENT_TEXT_RE = re.compile(rf"({PIP}-{PIP}{END}?)({GLYPH})?")
#: ``+N``, the points as a group.
CLAIM_RE = re.compile(rf"\+({POINTS})")
#: A count (``N``) and signed points (``-N``), as written on score lines.
COUNT_RE = re.compile(POINTS)
POINTS_RE = re.compile(rf"-?{POINTS}")

#: A placement's text at the start of a note this tool writes.
NOTE_PLACEMENT = rf"{PIP}-{PIP}{END}?"
