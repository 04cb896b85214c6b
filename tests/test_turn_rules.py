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


def _hand(*tiles: str) -> int:
    return sum(1 << _i(t) for t in tiles)


#: docs/rules.md: pagat ends the match at the target (``at-target``); the
#: same rules ending it only at a round's end.
R_ROUND_END_MATCH = tuple(0 if i == keys.R_AT_TARGET else v for i, v in enumerate(R))


@pytest.mark.parametrize(("rules", "hands", "seat", "points", "dist", "can_draw", "answer"), [
    # A placement of 10 by a player 5 short of the target wins at once, even
    # one that also empties their hand and blocks the round (docs/rules.md:
    # "at a placement (no deductions follow)").
    (R, ("1-2", ""), 1, 10, 5, 0, turn.REACHED),
    (R, ("1-2", "0-0"), 1, 10, 10, 0, turn.REACHED),  # exactly the target
    (R, ("1-2", "0-0"), 1, 1, 1, 0, turn.REACHED),  # any credit that gets there
    (R, ("3-5", "0-0"), 1, 5, 10, 0, turn.GOES_ON),  # 5 short: 0's 3-5 fits
    (R, ("1-2", "0-0"), 1, 0, 0, 0, turn.BLOCKED),  # no credit reaches nothing
    # Under round-end the same credit does not end the match; going out does
    # end the round, before the block it also makes.
    (R_ROUND_END_MATCH, ("1-2", ""), 1, 10, 5, 0, turn.WENT_OUT),
    (R_ROUND_END_MATCH, ("1-2", "0-0"), 1, 10, 5, 0, turn.BLOCKED),
    (R, ("", "1-2"), 0, 0, 50, 0, turn.WENT_OUT),
    (R, ("", "3-5"), 0, 0, 50, 3, turn.WENT_OUT),
    # Blocked: nothing to draw and neither hand fits 3 or 4; a tile to draw,
    # or any hand holding a fitting tile, and play goes on.
    (R, ("1-2", "0-0 1-1"), 0, 0, 50, 0, turn.BLOCKED),
    (R, ("1-2", "0-0 1-1"), 0, 0, 50, 1, turn.GOES_ON),
    (R, ("1-2 3-5", "0-0"), 1, 0, 50, 0, turn.GOES_ON),
    (R, ("1-2", "0-0 4-6"), 0, 0, 50, 0, turn.GOES_ON),
])
def test_what_follows_a_placement(rules: tuple[int, ...], hands: tuple[str, ...], seat: int,
                                  points: int, dist: int, can_draw: int, answer: int) -> None:
    """On the line 3-4 (ends 3 and 4; 3-5 and 4-6 fit, 1-2 and 0-0 do not)."""
    masks = [_hand(*h.split()) for h in hands]
    fit = table_for(PAGAT).fit(LINE_3_4)
    assert turn.after_placement(rules, LINE_3_4, fit, masks, seat, points, dist,
                                can_draw) == answer


@pytest.mark.parametrize(("key", "hands", "can_draw", "answer"), [
    (LINE_3_4, ("1-2", "0-0"), 0, turn.BLOCKED),
    (LINE_3_4, ("1-2", "0-0"), 2, turn.GOES_ON),  # the next may draw
    (LINE_3_4, ("1-2", "3-6"), 0, turn.GOES_ON),  # the next holds 3-6
    (LINE_3_4, ("4-4", "0-0"), 0, turn.GOES_ON),
    (EMPTY, ("1-2", "0-0"), 0, turn.GOES_ON),  # nothing laid: any tile opens
])
def test_what_follows_a_pass(key: int, hands: tuple[str, ...], can_draw: int,
                             answer: int) -> None:
    masks = [_hand(*h.split()) for h in hands]
    fit = table_for(PAGAT).fit(key)
    assert turn.after_pass(key, fit, masks, can_draw) == answer


def _line(a: int, b: int) -> int:
    """A line's canonical key from its ends' codes (``pip << 1 | double``),
    by the encoding in engine/keys.py: kind 1, the lower code at bit 3."""
    lo, hi = sorted((a, b))
    return 1 | lo << 3 | hi << 11


def _spin(pip: int, left: int, right: int, up: int, down: int) -> int:
    """A spinner's canonical key: kind 2, its pip at bit 2, then L, R and U,
    D each pair with the lower code first, from bit 9 (255: no tile)."""
    a0, a1 = sorted((left, right))
    a2, a3 = sorted((up, down))
    return 2 | pip << 2 | a0 << 9 | a1 << 17 | a2 << 25 | a3 << 33


def _search(rules: tuple[int, ...], key: int) -> list[tuple[str, int, int]]:
    """keys.search_moves_into of every tile of a double-six set, in the
    engine's order of tiles (by low half, then high half)."""
    tiles = [(lo, hi) for hi in range(7) for lo in range(hi + 1)]  # by index
    order = sorted(range(28), key=lambda i: tiles[i])
    out = [0] * (3 * 4 * 28)
    m = keys.search_moves_into(rules, keys.pip_masks(6), [t[0] for t in tiles],
                               [t[1] for t in tiles], order, key, out)
    assert 0 <= m <= 4 * 28
    return [("{}-{}".format(*tiles[out[3 * j]]), out[3 * j + 1], out[3 * j + 2])
            for j in range(m)]


def test_every_placement_on_a_line_best_score_first() -> None:
    """docs/rules.md, pagat, the line 3-4 (3 facing L, 4 facing R): each
    tile with a 3 joins L, each with a 4 joins R, 3-4 both; the open ends
    after it are added up, a multiple of 5 scores. Codes: a pip p shows as
    2p, a double at the end as 2p + 1."""
    assert _search(R, LINE_3_4) == [
        ("3-3", _line(7, 8), 10),  # 3-3 crosswise on L: 6 + 4
        ("3-6", _line(12, 8), 10),  # 6 + 4
        ("1-3", _line(2, 8), 5),  # 1 + 4
        ("2-4", _line(6, 4), 5),  # 3 + 2
        # Nothing scores; the engine's order of tiles, L before R.
        ("0-3", _line(0, 8), 0),  # 0 + 4
        ("0-4", _line(6, 0), 0),  # 3 + 0
        ("1-4", _line(6, 2), 0),  # 3 + 1
        ("2-3", _line(4, 8), 0),  # 2 + 4
        ("3-4", _line(8, 8), 0),  # on L: 4 + 4
        ("3-4", _line(6, 6), 0),  # on R: 3 + 3
        ("3-5", _line(10, 8), 0),  # 5 + 4
        ("4-4", _line(6, 9), 0),  # 3 + 8
        ("4-5", _line(6, 10), 0),  # 3 + 5
        ("4-6", _line(6, 12), 0),  # 3 + 6
    ]


def test_mirror_placements_are_one_move() -> None:
    """A lone 4-4 shows 4 at both ends: a tile with a 4 on L or on R makes
    mirror images, one move each; x-4 leaves x + 8 (4-4 at the far end),
    and only 2-4 (10) scores."""
    lone = 1 | 1 << 2 | 9 << 3 | 9 << 11
    assert lead_key(R, 4, 4) == lone
    assert _search(R, lone) == [
        ("2-4", _line(4, 9), 10),
        ("0-4", _line(0, 9), 0),
        ("1-4", _line(2, 9), 0),
        ("3-4", _line(6, 9), 0),
        ("4-4", _line(9, 9), 0),
        ("4-5", _line(10, 9), 0),
        ("4-6", _line(12, 9), 0),
    ]


def test_every_placement_on_a_fresh_spinner() -> None:
    """docs/rules.md, spinner: lead 5-5, 5-0 on L → 10 (0 and the free U
    and D ends, 5 + 5). On U instead: 0 + the free D end, 5. L and R are
    mirrors, U and D too, so each tile has two moves; 5-5 itself (a tile of
    the set, which a search filters by hand) crosswise on L: 10 + 10, on U:
    10 + 5."""
    rs = rule_ints(SPINNER)
    spinner = lead_key(rs, 5, 5)
    assert spinner == _spin(5, 255, 255, 255, 255)
    moves = _search(rs, spinner)
    assert moves[:4] == [
        ("5-5", _spin(5, 11, 255, 255, 255), 20),
        ("5-5", _spin(5, 255, 255, 11, 255), 15),
        ("0-5", _spin(5, 0, 255, 255, 255), 10),
        ("0-5", _spin(5, 255, 255, 0, 255), 5),
    ]
    rest = [(x, 5) for x in (1, 2, 3, 4, 6)]  # x + 10 on L, x + 5 on U: no score
    assert moves[4:] == [
        (f"{min(x, p)}-{max(x, p)}", key, 0)
        for x, p in rest
        for key in (_spin(5, 2 * x, 255, 255, 255), _spin(5, 255, 255, 2 * x, 255))]
    # Sides first: U and D open only once L and R hold a tile.
    first = tuple(1 if i == keys.R_SIDES_FIRST else v for i, v in enumerate(rs))
    assert _search(first, spinner) == [m for m in moves if m[1] >> 25 & 255 == 255]


def test_every_lead_on_an_empty_table() -> None:
    """docs/rules.md, pagat leads: 6-4 and 5-5 score 10; 5-0, 4-1 and 3-2
    score 5; every other tile leads for nothing (6-6 is 12, a lone double
    counting its pips once)."""
    moves = _search(R, EMPTY)
    assert [(t, p) for t, _, p in moves[:5]] == [
        ("4-6", 10), ("5-5", 10), ("0-5", 5), ("1-4", 5), ("2-3", 5)]
    assert len(moves) == 28 and all(p == 0 for _, _, p in moves[5:])
    assert [t for t, _, _ in moves[5:]] == [
        f"{lo}-{hi}" for lo in range(7) for hi in range(lo, 7)
        if f"{lo}-{hi}" not in ("4-6", "5-5", "0-5", "1-4", "2-3")]
    assert moves[0][1] == _line(8, 12)
    assert moves[1][1] == 1 | 1 << 2 | 11 << 3 | 11 << 11  # the lone 5-5


def test_the_tiles_that_carry_each_pip() -> None:
    """A tile lo-hi of a double-six set is bit hi * (hi + 1) / 2 + lo
    (engine/keys.py): the seven tiles with a 0 are 0-0 .. 0-6, bits 0, 1,
    3, 6, 10, 15 and 21; with a 6, 0-6 .. 6-6, bits 21 to 27. One mask a
    pip, nothing past the set."""
    masks = keys.pip_masks(6)
    assert len(masks) == 7
    assert masks[0] == sum(1 << b for b in (0, 1, 3, 6, 10, 15, 21))
    assert masks[6] == sum(1 << b for b in range(21, 28))
    for p in range(7):
        assert masks[p] == sum(1 << _i(f"{min(p, q)}-{max(p, q)}") for q in range(7))


def test_the_most_one_placement_scores() -> None:
    """docs/rules.md: 20 under pagat (6-6 at one end, 4-4 at the other; the
    exhaustive search of test_worked_numbers agrees); with a modulus of 50
    no total of a line (22 at most) scores at all."""
    import dataclasses

    assert keys.max_place(R) == 20
    assert keys.max_place(rule_ints(dataclasses.replace(PAGAT, modulus=50))) == 0
