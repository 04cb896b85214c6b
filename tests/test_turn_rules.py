"""The rules of a turn on bit masks (engine/turn.py), case by case.

Each case is worked out by hand from docs/rules.md and docs/notation.md 5
(the muggins call): a placement needs a tile of the set, held, and after a
fitting draw the tile drawn, and an opening tile names no end; a claim
credits what it claims under muggins (less is allowed, more is wrong and
credits nothing) and the score otherwise; a muggins call takes from the
placement just laid, once, by another player, at most what was left
unclaimed. The functions are also compiled by Numba, as the solver's
searches compile them, and must answer the same there.
"""

from __future__ import annotations

import pytest

from muggins_cli.engine import keys, turn
from muggins_cli.engine.keys import EMPTY, R_N_TILES, lead_key, place_tile, rule_ints
from muggins_cli.engine.layout import fit_bits, lead
from muggins_cli.engine.state import next_leader
from muggins_cli.engine.table import table_for
from muggins_cli.engine.turn import (
    CALL_AGAIN,
    CALL_NO_MUGGINS,
    CALL_NO_PLACEMENT,
    CALL_NOTHING_LEFT,
    CALL_OK,
    CALL_OWN_PLAY,
    CALL_TOO_MUCH,
    MAYBE,
    NO,
    NOBODY,
    PLACE_END_ON_LEAD,
    PLACE_MAYBE_HELD,
    PLACE_NOT_DRAWN,
    PLACE_NOT_HELD,
    PLACE_OFF_SET,
    YES,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import Tile

PAGAT = load_preset("pagat")  # no muggins call
SPINNER = load_preset("spinner")  # muggins call
R = rule_ints(PAGAT)
RM = rule_ints(SPINNER)


def _i(text: str) -> int:
    a, b = (int(x) for x in text.split("-"))
    return Tile.of(a, b).index()


#: A line of 3-4 (3 facing L): ends show 3 and 4.
LINE_3_4 = lead_key(R, 3, 4)


@pytest.mark.parametrize(("key", "end", "tile", "held", "drawn", "faults"), [
    # The common placement: held, nothing drawn, an end named on an open layout.
    (LINE_3_4, 0, "3-5", YES, -1, 0),
    # 6-7 is no tile of a double-six set (index 28, the first past 6-6 at 27);
    # nothing else is said of it.
    (LINE_3_4, 0, "6-7", NO, 5, PLACE_OFF_SET),
    (LINE_3_4, 0, "0-7", YES, -1, PLACE_OFF_SET),
    (LINE_3_4, 0, "6-6", YES, -1, 0),
    # After a fitting draw only the drawn tile goes down.
    (LINE_3_4, 0, "3-5", YES, _i("3-5"), 0),
    (LINE_3_4, 0, "3-5", YES, _i("4-6"), PLACE_NOT_DRAWN),
    # Not held, or only perhaps (a hand the record hides).
    (LINE_3_4, 1, "4-4", NO, -1, PLACE_NOT_HELD),
    (LINE_3_4, 1, "4-4", MAYBE, -1, PLACE_MAYBE_HELD),
    (LINE_3_4, 1, "4-4", NO, _i("0-4"), PLACE_NOT_DRAWN | PLACE_NOT_HELD),
    # The opening tile joins no end: naming one is wrong, naming none is not.
    (EMPTY, 0, "3-4", YES, -1, PLACE_END_ON_LEAD),
    (EMPTY, 3, "3-4", YES, -1, PLACE_END_ON_LEAD),
    (EMPTY, -1, "3-4", YES, -1, 0),
    (EMPTY, 2, "5-5", MAYBE, -1, PLACE_MAYBE_HELD | PLACE_END_ON_LEAD),
    (LINE_3_4, -1, "3-5", YES, -1, 0),  # a missing end is the replay's to choose
])
def test_place_faults(key: int, end: int, tile: str, held: int, drawn: int,
                      faults: int) -> None:
    assert turn.place_faults(R, key, end, _i(tile), held, drawn) == faults


def test_the_set_bound_of_place_faults_follows_max_pip() -> None:
    """Double-nine: 7-9 (index 52) and 9-9 (54) are tiles, 0-10 (55) is not."""
    r9 = list(R)
    r9[R_N_TILES] = 55  # a double-nine set: 10 * 11 / 2 tiles
    assert turn.place_faults(tuple(r9), LINE_3_4, 0, 54, YES, -1) == 0
    assert turn.place_faults(tuple(r9), LINE_3_4, 0, 55, YES, -1) == PLACE_OFF_SET


@pytest.mark.parametrize(("rules", "claimed", "points", "credit", "wrong"), [
    # Without muggins the score counts whatever is claimed; only a written
    # claim that is not the score is wrong.
    (R, -1, 10, 10, False),
    (R, 10, 10, 10, False),
    (R, 5, 10, 10, True),
    (R, 15, 10, 10, True),
    (R, 0, 0, 0, False),
    (R, 5, 0, 0, True),
    (R, -1, 0, 0, False),
    # Under muggins a score counts only as claimed: none claimed credits 0,
    # less is allowed, more is wrong and credits nothing.
    (RM, -1, 10, 0, False),
    (RM, 0, 10, 0, False),
    (RM, 5, 10, 5, False),
    (RM, 10, 10, 10, False),
    (RM, 15, 10, 0, True),
    (RM, 5, 0, 0, True),
    (RM, 0, 0, 0, False),
])
def test_claims(rules: tuple[int, ...], claimed: int, points: int, credit: int,
                wrong: bool) -> None:
    assert turn.credited(rules, claimed, points) == credit
    assert turn.claim_fault(rules, claimed, points) is wrong


@pytest.mark.parametrize(("rules", "called", "placer", "caller", "unclaimed", "points",
                          "answer"), [
    (RM, False, 0, 1, 10, 10, CALL_OK),
    (RM, False, 0, 1, 10, 5, CALL_OK),
    (RM, False, 2, 0, 5, 5, CALL_OK),
    (R, False, 0, 1, 10, 10, CALL_NO_MUGGINS),
    (R, True, NOBODY, 0, 0, 99, CALL_NO_MUGGINS),  # the rules say it first
    (RM, True, 0, 1, 10, 5, CALL_AGAIN),
    (RM, True, NOBODY, 0, 0, 5, CALL_AGAIN),
    (RM, False, NOBODY, 1, 10, 5, CALL_NO_PLACEMENT),
    (RM, False, 1, 1, 10, 5, CALL_OWN_PLAY),
    (RM, False, 1, 1, 0, 50, CALL_OWN_PLAY),
    (RM, False, 0, 1, 0, 5, CALL_NOTHING_LEFT),
    (RM, False, 0, 1, -5, 5, CALL_NOTHING_LEFT),
    (RM, False, 0, 1, 5, 10, CALL_TOO_MUCH),
    (RM, False, 0, 1, 5, 6, CALL_TOO_MUCH),
])
def test_muggins_calls(rules: tuple[int, ...], called: bool, placer: int, caller: int,
                       unclaimed: int, points: int, answer: int) -> None:
    assert turn.call_fault(rules, called, placer, caller, unclaimed, points) == answer


def test_going_out_and_a_round_of_passes() -> None:
    assert turn.out_of_tiles(0, 0)
    assert not turn.out_of_tiles(1 << 5, 0)
    assert not turn.out_of_tiles(0, 1)  # a tile the record hides is still a tile
    # Three players passed in a row with nothing left to draw: blocked.
    assert turn.all_passed(3, 3, 0)
    assert turn.all_passed(4, 3, 0)
    assert not turn.all_passed(2, 3, 0)
    assert not turn.all_passed(3, 3, 1)  # one could still draw


def test_the_one_who_went_out_leads_next() -> None:
    assert next_leader(2) == 2
    assert next_leader(0) == 0
    assert next_leader(None) is None


def test_fit_bits_takes_a_tile_off_the_set_by_its_pips() -> None:
    """On 3-4 (ends 3 and 4): 3-5 and 4-6 fit, 1-2 does not; 4-7 (a typo,
    off a double-six set) fits by its 4, 1-8 by nothing."""
    table = table_for(PAGAT)
    key = lead(PAGAT, Tile.of(3, 4), 3).key
    hand = sum(1 << _i(t) for t in ("3-5", "4-6", "1-2", "4-7", "1-8"))
    assert fit_bits(table, key, hand) == sum(1 << _i(t) for t in ("3-5", "4-6", "4-7"))
    assert fit_bits(table, EMPTY, hand) == hand  # any tile opens


@pytest.mark.slow
def test_numba_compiles_the_new_rules_to_the_same_answers() -> None:
    """The solver compiles engine/turn.py as it stands; these must compile
    and answer as the Python does (every case of the grids above)."""
    import numba
    place = numba.njit(turn.place_faults)
    out = numba.njit(turn.out_of_tiles)
    passed = numba.njit(turn.all_passed)
    cred = numba.njit(turn.credited)
    wrong = numba.njit(turn.claim_fault)
    call = numba.njit(turn.call_fault)
    for key in (EMPTY, LINE_3_4, place_tile(R, LINE_3_4, 0, 3, 3)):
        for end in range(-1, 4):
            for ti in (0, 5, 27, 28, 60):
                for held in (NO, YES, MAYBE):
                    for drawn in (-1, 5, 6):
                        assert place(R, key, end, ti, held, drawn) == \
                            turn.place_faults(R, key, end, ti, held, drawn)
    for known, unknown in ((0, 0), (4, 0), (0, 2)):
        assert out(known, unknown) == turn.out_of_tiles(known, unknown)
    for n in range(6):
        assert passed(n, 3, n % 2) == turn.all_passed(n, 3, n % 2)
    for rules in (R, RM):
        for claimed in range(-1, 16, 5):
            for points in (0, 5, 10):
                assert cred(rules, claimed, points) == turn.credited(rules, claimed, points)
                assert wrong(rules, claimed, points) == turn.claim_fault(rules, claimed, points)
                for called in (False, True):
                    for placer in (NOBODY, 0, 1):
                        assert call(rules, called, placer, 1, points, claimed) == \
                            turn.call_fault(rules, called, placer, 1, points, claimed)


def test_a_keys_ends_read_back() -> None:
    """docs in engine/keys.py: an end's code is ``pip << 1 | double``; a line
    keeps its ends' codes from bit 3, a spinner its pip from bit 2 and its
    arms' codes from bit 9, 255 for an arm without a tile."""
    assert keys.end_code(3, 0) == 6 and keys.end_code(5, 1) == 11
    line = lead_key(R, 3, 4)
    assert keys.kind_of(EMPTY) == 0 and keys.kind_of(line) == keys.LINE
    assert (keys.arm_code(line, 0), keys.arm_code(line, 1)) == (6, 8)
    r_spin = rule_ints(SPINNER)
    spin = lead_key(r_spin, 5, 5)
    assert keys.kind_of(spin) == keys.SPINNER
    assert keys.spinner_pip(spin) == 5
    assert [keys.arm_code(spin, e) for e in range(4)] == [255, 255, 255, 255]
    spin = place_tile(r_spin, spin, 0, 5, 2)  # 5-2 on L: L shows 2
    assert [keys.arm_code(spin, e) for e in range(4)] == [4, 255, 255, 255]
    assert keys.spinner_pip(spin) == 5


def test_mirror_images_share_one_key() -> None:
    """A line read from the other side, a spinner with L and R (and U and
    D) swapped: the same future, one canonical key; different layouts keep
    different keys."""
    assert keys.canonical(EMPTY) == EMPTY
    assert keys.canonical(lead_key(R, 4, 3)) == keys.canonical(lead_key(R, 3, 4)) \
        == lead_key(R, 3, 4)
    assert keys.canonical(lead_key(R, 3, 5)) != keys.canonical(lead_key(R, 3, 4))
    r_spin = rule_ints(SPINNER)
    spin = lead_key(r_spin, 5, 5)
    left = place_tile(r_spin, place_tile(r_spin, spin, 0, 5, 2), 2, 5, 6)  # 5-2 L, 5-6 U
    right = place_tile(r_spin, place_tile(r_spin, spin, 1, 5, 2), 3, 5, 6)  # 5-2 R, 5-6 D
    assert left != right
    assert keys.canonical(left) == keys.canonical(right)
    # By the encoding: pip 5, then each pair of arms in order, the lower code
    # first: L, R = 4 (a 2 shows), 255 (no tile); U, D = 12 (a 6 shows), 255.
    assert keys.canonical(left) == (keys.SPINNER | 5 << 2 | 4 << 9 | 255 << 17
                                    | 12 << 25 | 255 << 33)
    other = place_tile(r_spin, place_tile(r_spin, spin, 0, 5, 2), 1, 5, 6)  # 5-6 on R
    assert keys.canonical(other) != keys.canonical(left)


def test_must_pass_only_with_nothing_to_play_or_draw() -> None:
    line = lead_key(R, 3, 4)
    fit = 1 << _i("3-5")
    assert turn.must_pass(line, 1 << _i("1-2"), fit, 0)
    assert not turn.must_pass(line, fit, fit, 0)  # holds a fitting tile
    assert not turn.must_pass(line, 1 << _i("1-2"), fit, 1)  # may draw
    assert not turn.must_pass(EMPTY, 0, fit, 0)  # any tile opens
