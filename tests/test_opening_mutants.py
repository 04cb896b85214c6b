"""The edges of replay/opening.py that mutation testing found unguarded: a
round's opening lines out of their place. A `lead`, `deal` or `stock` line
after a round ended with no `round` line before it starts the next round
(the `lead` line kept for it); a `deal` line a `round` line follows was
written in another order and is out of place; a `stock` line twice; an
opening line before any `round` line.

Each case changes tests/test_recovery.py's OUT (Budi goes out on line 19)
and ROUND_2 (its second round, Budi leading as who went out, the same
deal); every finding is worked out by hand from docs/notation.md: one
slip, one finding, in the words that say how the line was read.
"""

from __future__ import annotations

import pytest

from tests.test_check import edit
from tests.test_recovery import OUT, ROUND_2, shown

#: The tiles ROUND_2's deal leaves undealt: its stock.
STOCK = "stock 0-0 0-1 0-3 0-5 1-1 1-2 1-5 2-2 2-4 3-3 3-4 3-6 4-5 4-6\n"
READ_AS_START = ("round 1 has ended and no `round 2` line starts the next one: read as "
                 "its start")


@pytest.mark.parametrize(("text", "expected"), [
    # `round 2` left out, its `lead` line kept: the lead line waits for the
    # round the deal line then starts; Budi went out, so Budi leading holds.
    (OUT + edit(ROUND_2, "round 2\n", "lead Budi\n"),
     [(23, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
       + READ_AS_START)]),
    # ... and a lead line naming Ana is read for that round and is wrong.
    (OUT + edit(ROUND_2, "round 2\n", "lead Ana\n"),
     [(22, 6, "wrong-leader", "Budi went out last round and leads round 2, not Ana"),
      (23, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
       + READ_AS_START)]),
    # `round 2` left out before a stock line (the undealt tiles, right).
    (OUT + edit(ROUND_2, "round 2\n", STOCK),
     [(22, 1, "bad-deal", "a `stock` line must come before the round's first turn; "
       + READ_AS_START)]),
    # A deal line that ends the record: nothing after it says it was
    # written out of order, so it starts round 2.
    (OUT + "deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\n",
     [(22, 1, "bad-deal", "a `deal` line must come before the round's first turn; "
       + READ_AS_START)]),
    # Ana's deal line before `round 2`: the lines were written in another
    # order, the deal line is out of place (not read), and round 2 has
    # Budi's deal line alone.
    (OUT + "deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\nround 2\n"
     "deal Budi 6-6 4-4 0-6 1-4 0-4 2-5 5-6\nBudi: 1-4\n",
     [(22, 1, "bad-deal", "a `deal` line must come before the round's first turn"),
      (24, 1, "bad-deal", "deal lines for only some players (none for Ana)")]),
    # The stock line written twice: the second is out of place.
    (edit(OUT, "Budi: 1-4\n", STOCK + STOCK + "Budi: 1-4\n"),
     [(8, 1, "bad-deal", "a `stock` line must come once, before the round's first turn")]),
    # A deal line before any round: not read, and round 1 has its own.
    (edit(OUT, "round 1\n", "deal Ana 5-5 1-3 3-5 2-3 0-2 2-6 1-6\nround 1\n"),
     [(3, 1, "bad-round", "this line comes before any `round` line")]),
    # The lead line before any round: not read, so round 1 has none.
    (edit(OUT, "round 1\nlead Budi\n", "lead Budi\nround 1\n"),
     [(3, 1, "bad-round", "this line comes before any `round` line"),
      (7, 1, "wrong-leader", "round 1 needs a `lead` line (the leader is chosen by lot)")]),
])
def test_an_opening_line_out_of_its_place(text: str,
                                          expected: list[tuple[int, int, str, str]]) -> None:
    assert shown(text) == expected
