"""The rules of a turn on bit masks: when a player may draw, pass or lay a
tile, what a claim credits and when a muggins call may take points, when a
round ends, what its settlement credits and when a credit ends the match.
(Where a tile fits and what it scores is :mod:`.keys`.)

A hand is a bit mask of tile indices. Where a record hides tiles, a hand is
what it shows plus a count of tiles not shown, and a question about it may
have no answer: :func:`holding` says ``YES``, ``NO`` or ``MAYBE``, and the
rules below take that answer, so the replay of a record kept without deals
asks the same functions as the solver, which knows every tile.

Like :mod:`.keys`, everything here is plain Python over ints and tuples
that Numba compiles as it stands (the solver's searches do), standard
library only. Where a rule yields several findings at once (a draw can be
both a draw while holding a fitting tile and a draw from an empty stock),
the answer is a set of flags.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

from muggins_cli.engine.keys import (
    DEDUCT_OWN,
    DOWN,
    EMPTY,
    LIGHTEST_BONUS,
    R_AT_TARGET,
    R_BONUS_DIV,
    R_MUGGINS,
    R_MUST_PLAY,
    R_N_TILES,
    R_RESERVE,
    R_ROUND_END,
    R_ROUND_TO,
    R_ROUNDING,
    UP,
    WINNER_TAKES,
    RuleInts,
)

#: Answers of :func:`holding`.
NO, YES, MAYBE = range(3)

#: Flags of :func:`draw_faults`.
DRAW_ON_EMPTY_TABLE = 1  # nothing is on the table: any tile opens
DRAW_AFTER_FIT = 2  # a drawn tile that fits must go down before anything else
DRAW_HOLDING_FIT = 4  # under must_play, a held tile fits
DRAW_MAYBE_FIT = 8  # under must_play, a tile not shown might fit (not checkable)
DRAW_EMPTY_STOCK = 16  # nothing left to draw above the reserve

#: Answers of :func:`pass_fault` (one at most).
PASS_OK = 0
PASS_DRAWN_FITS = 1  # the tile just drawn fits and must be placed
PASS_ON_EMPTY_TABLE = 2
PASS_STOCK_LEFT = 3  # the stock still has tiles to draw
PASS_HOLDING_FIT = 4
PASS_MAYBE_FIT = 5  # a tile not shown might fit (not checkable)

#: Flags of :func:`place_faults`.
PLACE_OFF_SET = 1  # the tile is not in the set (a record's typo)
PLACE_NOT_DRAWN = 2  # a tile drawn this turn fits: it, and no other, goes down
PLACE_NOT_HELD = 4  # the hand does not hold the tile
PLACE_MAYBE_HELD = 8  # only a tile not shown could be it (not checkable)
PLACE_END_ON_LEAD = 16  # the opening tile joins no end, so it names none

#: Answers of :func:`call_fault` (one at most).
CALL_OK = 0
CALL_NO_MUGGINS = 1  # the rules have no muggins call
CALL_AGAIN = 2  # a placement was called on already
CALL_NO_PLACEMENT = 3  # no placement just went down to call on
CALL_OWN_PLAY = 4
CALL_NOTHING_LEFT = 5  # the placer claimed all the play scored
CALL_TOO_MUCH = 6  # more than the placer left unclaimed

#: A seat index meaning "nobody".
NOBODY = -1

#: Answers of :func:`after_placement` and :func:`after_pass`.
GOES_ON = 0  # the next seat moves
REACHED = 1  # the credit took the placer to the target: the match is over
WENT_OUT = 2  # the placer's hand is empty: the round ends
BLOCKED = 3  # nothing to draw and no hand fits: the round ends


def holding(known: int, unknown: int, fit: int) -> int:
    """Whether a hand holds a tile of ``fit``: ``YES`` when a shown tile
    does, ``MAYBE`` when only tiles not shown could, else ``NO``."""
    if known & fit:
        return YES
    if unknown > 0:
        return MAYBE
    return NO


def drawable(r: RuleInts, stock: int) -> int:
    """Tiles that may still be drawn from a stock of ``stock`` tiles: the
    reserve at the bottom never is."""
    d = stock - r[R_RESERVE]
    return d if d > 0 else 0


def draw_faults(r: RuleInts, key: int, held: int, can_draw: int, drawn_fits: bool) -> int:
    """What is wrong with drawing now (0: nothing). A player draws only
    once the round is open, only after no fitting tile was drawn this turn,
    under ``must_play`` only when nothing in hand fits (``held``, from
    :func:`holding`), and only while the stock has a tile above its
    reserve (``can_draw``, from :func:`drawable`)."""
    faults = 0
    if key == EMPTY:
        faults = DRAW_ON_EMPTY_TABLE
    elif drawn_fits:
        faults = DRAW_AFTER_FIT
    elif r[R_MUST_PLAY]:
        if held == YES:
            faults = DRAW_HOLDING_FIT
        elif held == MAYBE:
            faults = DRAW_MAYBE_FIT
    if can_draw <= 0:
        faults |= DRAW_EMPTY_STOCK
    return faults


def pass_fault(key: int, held: int, can_draw: int, drawn_fits: bool) -> int:
    """Why a pass is not allowed now (``PASS_OK`` when it is): a player
    passes only with the round open, nothing drawn that fits, nothing left
    to draw and nothing in hand that fits, whatever ``must_play`` says."""
    if drawn_fits:
        return PASS_DRAWN_FITS
    if key == EMPTY:
        return PASS_ON_EMPTY_TABLE
    if can_draw > 0:
        return PASS_STOCK_LEFT
    if held == YES:
        return PASS_HOLDING_FIT
    if held == MAYBE:
        return PASS_MAYBE_FIT
    return PASS_OK


#: Flags of :func:`turn_options`.
MAY_PLACE = 1  # a tile of the hand that fits (or the tile just drawn) may go down
MAY_DRAW = 2  # a tile may be drawn
MUST_PASS = 4  # neither: the mover passes


def turn_options(r: RuleInts, key: int, hand: int, fit: int, can_draw: int,
                 drawn_fits: bool) -> int:
    """The order of a turn, with the mover's hand known: what the mover
    may do, as flags. A tile just drawn that fits goes down and nothing
    else; else any tile of ``hand`` in ``fit`` may go down, a draw is
    allowed where :func:`draw_faults` finds nothing wrong (under
    ``must_play`` only with nothing to lay), and with neither the mover
    passes. Every caller lists its moves in this order: the placements,
    then the draw, else the pass."""
    if drawn_fits:
        return MAY_PLACE
    held = YES if hand & fit else NO
    out = MAY_PLACE if held == YES else 0
    if draw_faults(r, key, held, can_draw, False) == 0:
        out |= MAY_DRAW
    elif pass_fault(key, held, can_draw, False) == PASS_OK:
        out |= MUST_PASS
    return out


def may_draw(r: RuleInts, key: int, hand: int, fit: int, can_draw: int) -> bool:
    """With every tile known: whether the mover may draw (no tile drawn
    this turn yet fits; the engine lays one that does at once)."""
    return turn_options(r, key, hand, fit, can_draw, False) & MAY_DRAW != 0


def must_pass(key: int, hand: int, fit: int, can_draw: int) -> bool:
    """With every tile known: whether the mover's only move is a pass."""
    return pass_fault(key, YES if hand & fit else NO, can_draw, False) == PASS_OK


def place_faults(r: RuleInts, key: int, end: int, ti: int, held: int, drawn: int) -> int:
    """What is wrong with laying the tile of index ``ti`` now (0:
    nothing), apart from where it joins (:func:`~.keys.place_tile` says
    whether it fits an end). ``end`` is the end named (-1: none), ``held``
    from :func:`holding` for that tile alone, ``drawn`` the index of a tile
    drawn this turn that fits (-1: none). A tile of the set, that the
    player holds, and after a fitting draw only the tile drawn; the opening
    tile joins no end."""
    if ti >= r[R_N_TILES]:
        return PLACE_OFF_SET
    faults = 0
    if drawn >= 0 and ti != drawn:
        faults = PLACE_NOT_DRAWN
    if held == NO:
        faults |= PLACE_NOT_HELD
    elif held == MAYBE:
        faults |= PLACE_MAYBE_HELD
    if key == EMPTY and end >= 0:
        faults |= PLACE_END_ON_LEAD
    return faults


def out_of_tiles(known: int, unknown: int) -> bool:
    """Whether a hand (tiles shown, count of tiles not shown) is empty:
    the player who lays their last tile goes out and ends the round."""
    return known == 0 and unknown == 0


def all_passed(passes: int, players: int, can_draw: int) -> bool:
    """Every seat passed in a row with nothing left to draw: each pass
    showed that hand could not play, so the round is blocked, also where
    the record hides the hands."""
    return can_draw <= 0 and passes >= players


def credited(r: RuleInts, claimed: int, points: int) -> int:
    """What a placement scoring ``points`` credits its player when they
    claim ``claimed`` (-1: no claim written). Under ``muggins`` a score
    counts only as claimed, and a claim above the score is wrong and
    credits nothing; otherwise the score counts whatever is claimed."""
    if not r[R_MUGGINS]:
        return points
    if claimed > points or claimed < 0:
        return 0
    return claimed


def claim_fault(r: RuleInts, claimed: int, points: int) -> bool:
    """Whether the claim ``claimed`` (-1: none written) of a placement
    scoring ``points`` is wrong: above the score under ``muggins`` (less is
    allowed, the rest is there to be called), not the score otherwise."""
    if r[R_MUGGINS]:
        return claimed > points
    return claimed >= 0 and claimed != points


def call_fault(r: RuleInts, called: bool, placer: int, caller: int, unclaimed: int,
               points: int) -> int:
    """Why a muggins call of ``points`` by ``caller`` is not allowed
    (``CALL_OK`` when it is). Only the rules with the call have it; it
    takes from the placement just laid (``placer``, ``NOBODY`` when none),
    once, by another player, and at most what the placer left unclaimed."""
    if not r[R_MUGGINS]:
        return CALL_NO_MUGGINS
    if called:
        return CALL_AGAIN
    if placer == NOBODY:
        return CALL_NO_PLACEMENT
    if caller == placer:
        return CALL_OWN_PLAY
    if unclaimed <= 0:
        return CALL_NOTHING_LEFT
    if points > unclaimed:
        return CALL_TOO_MUCH
    return CALL_OK


def blocked(key: int, fit: int, hands: Sequence[int], can_draw: int) -> bool:
    """The round is blocked: begun, nothing left to draw, and no hand holds
    a tile that fits (``hands`` as masks, every tile known)."""
    if can_draw > 0 or key == EMPTY:
        return False
    for h in hands:
        if h & fit:
            return False
    return True


def after_placement(r: RuleInts, key: int, fit: int, hands: Sequence[int], seat: int,
                    points: int, dist: int, can_draw: int) -> int:
    """What follows a placement by ``seat`` that scored ``points`` and made
    the layout ``key`` (``fit`` its fit mask; ``hands`` as they are after
    it; ``dist`` what the placer lacked of the target before it): under
    ``at-target`` a credit that reaches the target ends the match at once,
    before anything else; then the placer going out, or a block, ends the
    round; else play goes on."""
    if r[R_AT_TARGET] and points > 0 and points >= dist:
        return REACHED
    if hands[seat] == 0:
        return WENT_OUT
    if blocked(key, fit, hands, can_draw):
        return BLOCKED
    return GOES_ON


def after_pass(key: int, fit: int, hands: Sequence[int], can_draw: int) -> int:
    """What follows a pass: a block ends the round, else play goes on."""
    if blocked(key, fit, hands, can_draw):
        return BLOCKED
    return GOES_ON


# ----------------------------------------------------------------------
# Round end and match end


def round_hand(r: RuleInts, pips: int) -> int:
    """A hand's pips rounded to a multiple of ``round_to`` the way
    ``rounding`` says (``nearest``: a half goes up), as every settlement
    rounds them."""
    step = r[R_ROUND_TO]
    q = pips // step
    rest = pips - q * step
    mode = r[R_ROUNDING]
    if mode == DOWN:
        up = 0
    elif mode == UP:
        up = 1 if rest > 0 else 0
    else:
        up = 1 if 2 * rest >= step else 0
    return (q + up) * step


def settle(r: RuleInts, pips: Sequence[int], went_out: int, out: MutableSequence[int]) -> None:
    """Write into ``out`` what the round end credits each seat, from the
    pips each still holds; ``went_out`` is the seat that placed its last
    tile, or ``NOBODY`` after a block (docs/rules.md ``round_end``).
    ``deduct-own``: each loses their own hand, rounded; otherwise the
    winner (who went out under ``winner-takes``, else the lightest hand,
    alone; a shared lightest hand gains nothing) gains the others' pips
    rounded, less their own and divided under ``lightest-bonus``."""
    n = len(pips)
    mode = r[R_ROUND_END]
    for i in range(n):
        out[i] = 0
    if mode == DEDUCT_OWN:
        for i in range(n):
            out[i] = -round_hand(r, pips[i])
        return
    winner = NOBODY
    if mode == WINNER_TAKES and went_out != NOBODY:
        winner = went_out
    else:
        lightest = pips[0]
        for i in range(1, n):
            if pips[i] < lightest:
                lightest = pips[i]
        shared = 0
        for i in range(n):
            if pips[i] == lightest:
                shared += 1
                winner = i
        if shared != 1:
            return
    others = 0
    for i in range(n):
        if i != winner:
            others += pips[i]
    if mode == LIGHTEST_BONUS:
        out[winner] = round_hand(r, others - pips[winner]) // r[R_BONUS_DIV]
    else:
        out[winner] = round_hand(r, others)


def credit_ends_match(r: RuleInts) -> bool:
    """Whether a credit during play (not only a settlement) can end the
    match: under ``at-target`` it does the moment it reaches the target."""
    return r[R_AT_TARGET] != 0


def reached(scores: Sequence[int], deltas: Sequence[int], target: int) -> int:
    """The seat that a credit of ``deltas`` takes to the target, or
    ``NOBODY``. A credit ends the match the moment it reaches the target,
    and a round end gives a gain to one player at most, so there is at most
    one such seat."""
    for i in range(len(scores)):
        if deltas[i] > 0 and scores[i] + deltas[i] >= target:
            return i
    return NOBODY


def winner_on_credit(r: RuleInts, scores: Sequence[int], deltas: Sequence[int],
                     target: int) -> int:
    """The seat a credit during play (a placement, a muggins call) makes the
    winner: the one it takes to the target under ``at-target``; nobody under
    ``round-end``, where play always finishes the round."""
    if not r[R_AT_TARGET]:
        return NOBODY
    return reached(scores, deltas, target)


def winner_at_settlement(r: RuleInts, scores: Sequence[int], deltas: Sequence[int],
                         target: int) -> int:
    """The seat that wins when the settlement ``deltas`` is applied to
    ``scores``, or ``NOBODY`` when another round is played. ``at-target``:
    the seat the settlement's credit takes to the target. ``round-end``:
    the highest total after it, when it is at or above the target and
    nobody shares it (a tie for the highest plays on)."""
    if r[R_AT_TARGET]:
        return reached(scores, deltas, target)
    n = len(scores)
    top = scores[0] + deltas[0]
    for i in range(1, n):
        if scores[i] + deltas[i] > top:
            top = scores[i] + deltas[i]
    if top < target:
        return NOBODY
    best = NOBODY
    for i in range(n):
        if scores[i] + deltas[i] == top:
            if best != NOBODY:
                return NOBODY
            best = i
    return best
