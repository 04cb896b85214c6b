"""Where a placement goes and the words for it, as `muggins check` says
them: the ends a tile fits and the pips they show, and where a tile the
mover does not hold is.

Each case changes one placement of a clean record (tests/test_check.py's
PAGAT, a line: after Ana's 5-5 and Budi's 5-0R the ends show L 5 and R 0;
its SPINNER record: after 5-5, 5-0L and 3-5R the ends show L 0, R 3 and
the spinner's U and D 5) and the record is cut after it. The expected
words are worked out by hand; what follows them (how the replay then
reads the turn) is another module's and is not asserted here.
"""

from __future__ import annotations

import pytest

from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.rules.resolve import resolver_for
from tests.test_check import PAGAT, SPINNER, edit


def cut(text: str, last: str) -> str:
    """The record up to the line starting ``last`` (a round left open)."""
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith(last))
    return "\n".join(lines[: n + 1]) + "\n"


@pytest.mark.parametrize(("base", "old", "new", "line", "column", "code", "words"), [
    # Budi laid 5-0 on line 12: it is on the table, not in Ana's hand.
    (PAGAT, "Ana: 0-0R +10", "Ana: 5-0L +10", 13, 6, "not-in-hand",
     "Ana places 5-0, which they do not hold (it is already on the table)"),
    (PAGAT, "Ana: 0-0R +10", "Ana: 0-3R", 13, 6, "not-in-hand",
     "Ana places 0-3, which they do not hold (Budi holds it)"),
    (PAGAT, "Ana: 0-0R +10", "Ana: 0-4R", 13, 6, "not-in-hand",
     "Ana places 0-4, which they do not hold (it is in the stock)"),
    # After Ana's 0-0R (line 13) the ends show L 5 and R 0.
    (PAGAT, "Budi: 0-3R", "Budi: 0-3U", 14, 7, "bad-end",
     "end U is not open (there is no spinner); open ends: L=5, R=0"),
    (PAGAT, "Budi: 0-3R", "Budi: 0-3L", 14, 7, "does-not-fit",
     "0-3 does not fit L, which shows 5; open ends: L=5, R=0"),
    (PAGAT, "Budi: 0-3R", "Budi: 1-2R", 14, 7, "does-not-fit",
     "1-2 does not fit R, which shows 0; open ends: L=5, R=0"),
    (PAGAT, "Budi: 0-3R", "Budi: 1-2", 14, 7, "does-not-fit",
     "1-2 fits no open end (L=5, R=0)"),
    (SPINNER, "Budi: 0-2L +10", "Budi: 0-2D +10", 13, 7, "does-not-fit",
     "0-2 does not fit D, which shows 5; open ends: L=0, R=3, U=5, D=5"),
])
def test_where_a_placement_goes(base: str, old: str, new: str, line: int, column: int,
                                code: str, words: str) -> None:
    (match,) = parse_text(cut(edit(base, old, new), new))
    found = [(d.line, d.column, d.code, d.message.split("; read as")[0]
              .split("; did you mean")[0])
             for d in replay_match(match, resolver_for(None)).diagnostics]
    assert found == [(line, column, code, words)]
