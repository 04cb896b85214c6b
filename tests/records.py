"""Small records that several test modules read: one text, one place.

``CLUB`` is two matches: a wrong claim in the first (an error on line 14:
Ana's 4-4R scores 20, she claims 15; Budi's 4-6R missed 15 that 3-6R would
have made) and a second that ends inside its round with a Result (a warning
on line 21). ``CLUB_FIRST`` is its first match alone. ``THREES``: all
threes, Eko leads 6-6 for 12 and reaches the target of 10 (clean).
``AMBIGUOUS``, ``IMPOSSIBLE`` and ``SAME_TILE`` are hostile or awkward
records the tests and ``bench/bench_hostile.py`` share (see each).
"""

CLUB = """\
[Event "Club night"]
[Players "Ana, Budi"]
[Rules "pagat"]
[Target "20"]
[Result "Ana"]

round 1
lead Ana
deal Ana 2-5 4-4 1-6 6-6 1-5 5-6 0-0
deal Budi 0-1 4-5 2-2 3-5 3-6 1-2 4-6
stock 1-3 1-1 0-2 0-5 5-5 2-4 1-4 0-6 2-6 0-4 3-3 2-3 3-4 0-3
Ana: 6-6
Budi: 4-6R
Ana: 4-4R +15
score Ana 20, Budi 0

[Event "Self-play"]
[Players "Ana, Budi"]
[Rules "pagat"]
[Target "20"]
[Result "Budi"]

round 1
lead Budi
deal Ana 4-6 0-0 0-3 2-6 5-5 2-3 1-2
deal Budi 0-4 0-1 4-4 3-3 1-1 6-6 3-5
stock 2-5 3-4 0-2 2-2 1-6 4-5 3-6 1-4 5-6 1-5 2-4 1-3 0-5 0-6
Budi: 6-6
Ana: 4-6L
"""

CLUB_FIRST = CLUB[: CLUB.index("\n\n[Event \"Self-play\"]") + 1]

THREES = """\
[Event "Self-play"]
[Players "Chen, Dara, Eko"]
[Rules "all-threes"]
[Target "10"]
[Result "Eko"]

round 1
lead Eko
deal Chen 1-2 4-6 3-4 1-1 0-4
deal Dara 3-3 4-5 3-6 2-4 2-5
deal Eko 6-6 0-3 0-5 3-5 0-6
stock 0-2 2-2 0-1 1-3 4-4 0-0 1-5 5-5 5-6 1-6 1-4 2-6 2-3
Eko: 6-6 +12
score Chen 0, Dara 0, Eko 12
"""

# A placement without its end letter where two ends fit (line 11): the next
# plays (lines 12, 13) fit only if 3-6 went R.
AMBIGUOUS = """\
[Players "Ana, Budi"]
[Rules "pagat"]
[Result "*"]

round 1
lead Ana
deal Ana 3-3 2-6 0-4 1-4 0-5 4-5 5-6
deal Budi 0-0 1-1 2-2 4-4 5-5 0-2 1-2
stock 1-5 0-1 2-4 3-6 0-3 1-3 2-3 3-4 3-5 0-6 1-6 4-6 6-6 2-5
Ana: 3-3
Budi: d1-5 d0-1 d2-4 d3-6 3-6
Ana: 6-2R
Budi: 2-2R
"""

# Ana dealt 8 tiles, 5-6 both in her hand and in the stock: position 1.3
# is no position of a real deal.
IMPOSSIBLE = """[Players "Ana, Budi"]
[Rules "pagat"]
[Result "*"]

round 1
lead Ana
deal Ana 2-5 4-4 1-6 6-6 1-5 5-6 0-0 3-3
deal Budi 0-1 4-5 2-2 3-5 3-6 1-2 4-6
stock 1-3 1-1 0-2 0-5 5-5 2-4 1-4 0-6 2-6 0-4 5-6 2-3 3-4 0-3
Ana: 6-6
Budi: 4-6R
"""

# The same tile, the better end: 5-3 leads (L 5, R 3), 3-1R (L 5, R 1).
# Ana's 1-5 is the only tile that fits: on L it shows 1, 1 + 1 = 2,
# nothing; on R it shows 5, 5 + 5 = 10. She writes it 5-1, and the message
# must write it so too, not 1-5 (the engine's spelling, the pip that joins
# first).
SAME_TILE = """\
[Players "Ana, Budi"]
[Rules "pagat"]
[Result "*"]

round 1
lead Ana
deal Ana 3-5 1-5 0-0 2-2 4-4 6-6 2-4
deal Budi 1-3 0-1 0-2 0-4 0-6 1-2 1-6
stock 0-3 0-5 1-1 1-4 2-3 2-5 2-6 3-3 3-4 3-6 4-5 4-6 5-5 5-6
Ana: 5-3
Budi: 3-1R
Ana: 5-1L
"""
