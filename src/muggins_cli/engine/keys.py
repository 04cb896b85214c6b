"""Layouts as small ints: the one place that says what a layout's open ends
show, what they add up to, which tiles fit and where a placement leads.

Scoring and legality never look at a layout's inner tiles, only at its
summary: what each open end shows (its pip, and whether a double lies
crosswise there), which arms are still empty, and the spinner's pip. That
summary packs into one int, the layout's *key*, and every question a turn
asks of the table is arithmetic on it:

- ``EMPTY`` (0): nothing played yet.
- a line: ``1 | lone << 2 | left << 3 | right << 11``, ``left`` and
  ``right`` the codes of its two open ends. An end whose arm is still
  empty shows the root's half, a double root counting as a double at both
  ends; ``lone`` marks the lone opening double, which counts its pips once
  (docs/rules.md).
- a spinner: ``2 | pip << 2 | L << 9 | R << 17 | U << 25 | D << 33``,
  each arm the code of its open end or ``NONE`` while it holds no tile.

An end's code is ``pip << 1 | double`` in eight bits: pips up to 99, the
most MGN can write, so a record's typo tile (6-7 in a double-six game) is
still laid and counted.

The functions take the rules as the int tuple of :func:`rule_ints` and
are written in the subset of Python that Numba compiles (ints, tuples,
loops, no objects), standard library only: the solver's searches compile
this very source (:mod:`muggins_cli.solver.kernel`), and the replay, the
engine's states and the strategies call it as plain Python through the
memo of :mod:`muggins_cli.engine.table`. What a rule says is written here
once.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

from muggins_cli.rules.model import (
    LeadTile,
    MatchEnd,
    RoundEnd,
    Rounding,
    ScoreValue,
    SpinnerCount,
)
from muggins_cli.rules.model import Rules as _Rules

#: Fields of the rules as ints (see :func:`rule_ints`).
(R_MAX_PIP, R_SPINNER, R_SIDES_FIRST, R_UNTIL_COVERED, R_MODULUS, R_MULTIPLES, R_MUST_PLAY,
 R_RESERVE, R_ROUND_END, R_ROUND_TO, R_BONUS_DIV, R_ROUNDING, R_AT_TARGET, R_MUGGINS,
 R_N_TILES, R_LEAD_DOUBLE) = range(16)
R_SIZE = 16

#: ``R_ROUND_END`` values.
DEDUCT_OWN, LIGHTEST_BONUS, WINNER_TAKES = range(3)
#: ``R_ROUNDING`` values.
NEAREST, DOWN, UP = range(3)

#: The layout before the opening tile.
EMPTY = 0
LINE = 1
SPINNER = 2
#: The code of a spinner's arm that holds no tile yet.
NONE = 255
#: Where the ends' codes sit in a key.
LINE_AT = 3
SPIN_AT = 9
#: Ends, in the engine's order: L, R, U, D.
END_L, END_R, END_U, END_D = range(4)
#: The largest pip a key can hold.
KEY_MAX_PIP = 99

RuleInts = tuple[int, ...]


def rule_ints(rules: _Rules) -> RuleInts:
    """The rules as the tuple of ints every function here takes (Numba
    compiles a tuple of ints, not a dataclass of enums)."""
    if rules.max_pip > KEY_MAX_PIP:
        raise ValueError(f"max_pip {rules.max_pip} is above {KEY_MAX_PIP}")
    out = [0] * R_SIZE
    out[R_MAX_PIP] = rules.max_pip
    out[R_SPINNER] = int(rules.has_spinner)
    out[R_SIDES_FIRST] = int(rules.spinner_sides_first)
    out[R_UNTIL_COVERED] = int(rules.spinner_count is SpinnerCount.UNTIL_SIDES_COVERED)
    out[R_MODULUS] = rules.modulus
    out[R_MULTIPLES] = int(rules.score_value is ScoreValue.MULTIPLES)
    out[R_MUST_PLAY] = int(rules.must_play)
    out[R_RESERVE] = rules.stock_reserve
    out[R_ROUND_END] = {RoundEnd.DEDUCT_OWN: DEDUCT_OWN, RoundEnd.LIGHTEST_BONUS: LIGHTEST_BONUS,
                        RoundEnd.WINNER_TAKES: WINNER_TAKES}[rules.round_end]
    out[R_ROUND_TO] = rules.round_to
    out[R_BONUS_DIV] = rules.bonus_divisor
    out[R_ROUNDING] = {Rounding.NEAREST: NEAREST, Rounding.DOWN: DOWN,
                       Rounding.UP: UP}[rules.rounding]
    out[R_AT_TARGET] = int(rules.match_end is MatchEnd.AT_TARGET)
    out[R_MUGGINS] = int(rules.muggins)
    out[R_N_TILES] = (rules.max_pip + 1) * (rules.max_pip + 2) // 2
    out[R_LEAD_DOUBLE] = int(rules.lead_tile is LeadTile.HIGHEST_DOUBLE)
    return tuple(out)


def pip_masks(max_pip: int) -> tuple[int, ...]:
    """For each pip, the tiles of the set that carry it, as bits of the
    tile index (``hi * (hi + 1) // 2 + lo``)."""
    out = []
    for p in range(max_pip + 1):
        m = 0
        for hi in range(max_pip + 1):
            for lo in range(hi + 1):
                if lo == p or hi == p:
                    m |= 1 << (hi * (hi + 1) // 2 + lo)
        out.append(m)
    return tuple(out)


# ----------------------------------------------------------------------
# Reading a key


def end_code(pip: int, double: int) -> int:
    return pip << 1 | double


def kind_of(key: int) -> int:
    return key & 3


def arm_code(key: int, e: int) -> int:
    """The code of end ``e`` of a key (a spinner's arm may be ``NONE``)."""
    if key & 3 == LINE:
        return key >> (LINE_AT + 8 * e) & 255
    return key >> (SPIN_AT + 8 * e) & 255


def spinner_pip(key: int) -> int:
    return key >> 2 & 127


def ends_of(key: int) -> int:
    """How many ends the layout has (open or not yet): 0, 2 or 4."""
    kind = key & 3
    if kind == LINE:
        return 2
    if kind == SPINNER:
        return 4
    return 0


def open_pip(r: RuleInts, key: int, e: int) -> int:
    """The pip end ``e`` shows to the next tile, or -1 when a tile may not
    join there: U and D exist only on a spinner and, under
    ``spinner_sides_first``, only once L and R both hold a tile."""
    kind = key & 3
    if kind == LINE:
        if e < 2:
            return (key >> (LINE_AT + 8 * e) & 255) >> 1
        return -1
    if kind == SPINNER:
        if e >= 2 and r[R_SIDES_FIRST] and (
                key >> SPIN_AT & 255 == NONE or key >> (SPIN_AT + 8) & 255 == NONE):
            return -1
        c = key >> (SPIN_AT + 8 * e) & 255
        if c == NONE:
            return key >> 2 & 127
        return c >> 1
    return -1


def fit_mask(r: RuleInts, key: int, masks: Sequence[int]) -> int:
    """The tiles of the set that fit some open end (``masks`` from
    :func:`pip_masks`); every tile opens an empty table."""
    if key == EMPTY:
        return (1 << r[R_N_TILES]) - 1
    m = 0
    top = r[R_MAX_PIP]
    for e in range(ends_of(key)):
        p = open_pip(r, key, e)
        if 0 <= p <= top:  # an end off the set (a record's typo) fits no tile of it
            m |= masks[p]
    return m


def tile_fits(r: RuleInts, key: int, lo: int, hi: int) -> bool:
    """Whether the tile ``lo-hi`` fits some open end, by its pips (a tile
    off the set, a record's typo, too)."""
    if key == EMPTY:
        return True
    for e in range(ends_of(key)):
        p = open_pip(r, key, e)
        if p >= 0 and (lo == p or hi == p):
            return True
    return False


def count(r: RuleInts, key: int) -> int:
    """The open-end total a placement is scored on (docs/rules.md "Play"):
    a double at the end of an arm counts both halves, a lone opening double
    its pips once, and the spinner's own pips as ``spinner_count`` says."""
    kind = key & 3
    if kind == LINE:
        left = key >> LINE_AT & 255
        right = key >> (LINE_AT + 8) & 255
        if key >> 2 & 1:
            return 2 * (left >> 1)
        return (left >> 1) * (1 + (left & 1)) + (right >> 1) * (1 + (right & 1))
    if kind == SPINNER:
        d = key >> 2 & 127
        total = 0
        for e in range(4):
            c = key >> (SPIN_AT + 8 * e) & 255
            if c != NONE:
                total += (c >> 1) * (1 + (c & 1))
        if r[R_UNTIL_COVERED]:
            if key >> SPIN_AT & 255 == NONE or key >> (SPIN_AT + 8) & 255 == NONE:
                total += 2 * d
        else:
            total += d * ((key >> (SPIN_AT + 16) & 255 == NONE)
                          + (key >> (SPIN_AT + 24) & 255 == NONE))
        return total
    return 0


def score(r: RuleInts, total: int) -> int:
    """Points a placement earns when the open ends add up to ``total``: a
    positive multiple of the modulus scores, itself or divided by it."""
    if total <= 0 or total % r[R_MODULUS]:
        return 0
    if r[R_MULTIPLES]:
        return total // r[R_MODULUS]
    return total


def max_place(r: RuleInts) -> int:
    """The most one placement can score: bounds what a player can still
    make in a round."""
    best = 0
    top = 2 * r[R_MAX_PIP] * (4 if r[R_SPINNER] else 2)
    for total in range(top + 1):
        s = score(r, total)
        if s > best:
            best = s
    return best


# ----------------------------------------------------------------------
# Placing a tile


def _spinner(pip: int, a0: int, a1: int, a2: int, a3: int) -> int:
    return (SPINNER | pip << 2 | a0 << SPIN_AT | a1 << (SPIN_AT + 8) | a2 << (SPIN_AT + 16)
            | a3 << (SPIN_AT + 24))


def lead_key(r: RuleInts, left: int, right: int) -> int:
    """The layout once a tile opens the round, ``left`` its half facing L:
    under ``spinner: first-double`` a double lead is the spinner."""
    if left == right:
        if r[R_SPINNER]:
            return _spinner(left, NONE, NONE, NONE, NONE)
        c = left << 1 | 1
        return LINE | 1 << 2 | c << LINE_AT | c << (LINE_AT + 8)
    return LINE | (left << 1) << LINE_AT | (right << 1) << (LINE_AT + 8)


def place_key(r: RuleInts, key: int, e: int, pip: int, outer: int) -> int:
    """The layout after a tile joins end ``e`` (which shows ``pip``) with
    ``outer`` facing out. The first double laid on a line under a spinner
    rule becomes the spinner: the line hangs off the side opposite the end
    it joined, showing its far end."""
    double = 1 if outer == pip else 0
    new = outer << 1 | double
    if key & 3 == LINE:
        if double and r[R_SPINNER]:
            if e == END_L:
                return _spinner(pip, NONE, key >> (LINE_AT + 8) & 255, NONE, NONE)
            return _spinner(pip, key >> LINE_AT & 255, NONE, NONE, NONE)
        shift = LINE_AT + 8 * e
        return (key & ~(255 << shift | 1 << 2)) | new << shift
    shift = SPIN_AT + 8 * e
    return (key & ~(255 << shift)) | new << shift


def place_tile(r: RuleInts, key: int, e: int, lo: int, hi: int) -> int:
    """:func:`place_key` for the tile ``lo-hi`` on end ``e``, or -1 when it
    does not fit there."""
    pip = open_pip(r, key, e)
    if pip < 0:
        return -1
    if lo == pip:
        return place_key(r, key, e, pip, hi)
    if hi == pip:
        return place_key(r, key, e, pip, lo)
    return -1


def canonical(key: int) -> int:
    """Mirror images (L and R of a line; L and R, U and D of a spinner) have
    the same future, so a search stores them under one key."""
    kind = key & 3
    if kind == LINE:
        left = key >> LINE_AT & 255
        right = key >> (LINE_AT + 8) & 255
        if right < left:
            return (key & 7) | right << LINE_AT | left << (LINE_AT + 8)
        return key
    if kind == SPINNER:
        a0 = key >> SPIN_AT & 255
        a1 = key >> (SPIN_AT + 8) & 255
        a2 = key >> (SPIN_AT + 16) & 255
        a3 = key >> (SPIN_AT + 24) & 255
        if a1 < a0:
            a0, a1 = a1, a0
        if a3 < a2:
            a2, a3 = a3, a2
        return _spinner(key >> 2 & 127, a0, a1, a2, a3)
    return key


# ----------------------------------------------------------------------
# Every placement a search considers


def search_moves_into(r: RuleInts, masks: Sequence[int], tile_lo: Sequence[int],
                      tile_hi: Sequence[int], order: Sequence[int], key: int,
                      out: MutableSequence[int]) -> int:
    """Write every distinct placement from ``key`` of any tile of the set
    into ``out`` as triples (tile index, canonical successor, points), best
    immediate score first and otherwise in ``order`` (the engine's order of
    tiles); return how many. Two ends that lead to mirror images are one
    move, since a search stores them under one key. A search filters them
    by hand, so the order doubles as "scoring moves first"."""
    fit = fit_mask(r, key, masks)
    m = 0
    for k in range(len(order)):
        ti = order[k]
        if not fit >> ti & 1:
            continue
        lo = tile_lo[ti]
        hi = tile_hi[ti]
        for e in range(max(ends_of(key), 1)):
            if key == EMPTY:
                nkey = lead_key(r, lo, hi)
            else:
                nkey = place_tile(r, key, e, lo, hi)
                if nkey < 0:
                    continue
            c = canonical(nkey)
            seen = False
            for j in range(m):
                if out[3 * j] == ti and out[3 * j + 1] == c:
                    seen = True
            if seen:
                continue
            pts = score(r, count(r, nkey))
            # Insert after every move scoring as much or more (a stable sort).
            at = m
            while at > 0 and out[3 * (at - 1) + 2] < pts:
                out[3 * at] = out[3 * (at - 1)]
                out[3 * at + 1] = out[3 * (at - 1) + 1]
                out[3 * at + 2] = out[3 * (at - 1) + 2]
                at -= 1
            out[3 * at] = ti
            out[3 * at + 1] = c
            out[3 * at + 2] = pts
            m += 1
    return m
