"""Hypothesis properties of the engine: tiles, layouts, moves and scoring.

Hypothesis runs derandomized (a fixed seed per test) so that the suite is
repeatable; every run tries the same examples.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muggins_cli.engine.layout import (
    Layout,
    count,
    ends_for,
    fits,
    lead,
    open_ends,
    place,
    playable,
)
from muggins_cli.engine.scoring import reached, round_hand, score_of, settle
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    PassTurn,
    Place,
    RoundState,
    apply,
    drawable,
    is_blocked,
    legal_moves,
    new_round,
)
from muggins_cli.errors import IllegalMoveError
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import RoundEnd, Rules, ScoreValue, SpinnerCount
from muggins_cli.tiles import End, Tile, full_set, tile_from_index

PAGAT = load_preset("pagat")
SPINNER = load_preset("spinner")
ALL_THREES = load_preset("all-threes")
NINE_HANDS = {2: 10, 3: 8, 4: 7}
RULES: dict[str, Rules] = {
    "pagat": PAGAT,
    "spinner": SPINNER,
    "all-threes": ALL_THREES,
    "spinner-sides-first": dataclasses.replace(SPINNER, spinner_sides_first=True),
    "spinner-until-sides-covered": dataclasses.replace(
        SPINNER, spinner_count=SpinnerCount.UNTIL_SIDES_COVERED
    ),
    "pagat-multiples": dataclasses.replace(PAGAT, score_value=ScoreValue.MULTIPLES),
    "pagat-reserve-2": dataclasses.replace(PAGAT, stock_reserve=2),
    "pagat-double-nine": dataclasses.replace(PAGAT, max_pip=9, hand_size=NINE_HANDS),
    "spinner-double-nine": dataclasses.replace(SPINNER, max_pip=9, hand_size=NINE_HANDS),
    "spinner-double-twelve": dataclasses.replace(
        SPINNER, max_pip=12, hand_size={2: 12, 3: 11, 4: 10}
    ),
}

# 80 examples a property: the engine's are cheap to check but slow to generate.
PROPS = settings(max_examples=80, deadline=None, derandomize=True)
MIRROR = {End.L: End.R, End.R: End.L, End.U: End.D, End.D: End.U}

pips = st.integers(min_value=0, max_value=12)
rules_names = st.sampled_from(sorted(RULES))
choices = st.lists(st.integers(min_value=0, max_value=10_000), max_size=70)


# --------------------------------------------------------------------------
# Tiles


@PROPS
@given(pips, pips)
def test_tile_is_normalised(a: int, b: int) -> None:
    t = Tile(a, b)
    assert t == Tile(b, a) == Tile.of(a, b) == Tile.of(b, a)
    assert t.lo == min(a, b) and t.hi == max(a, b)
    assert hash(t) == hash(Tile(b, a))
    assert t.pips == a + b
    assert t.is_double == (a == b)
    assert t.has(a) and t.has(b)
    assert t.other(a) == b and t.other(b) == a
    assert Tile.parse(f"{a}-{b}") == t == Tile.parse(str(t))
    assert str(t) == f"{t.lo}-{t.hi}"


@pytest.mark.parametrize("max_pip", [6, 9, 12])
def test_tile_index_is_a_bijection(max_pip: int) -> None:
    tiles = full_set(max_pip)
    size = (max_pip + 1) * (max_pip + 2) // 2
    assert len(tiles) == len(set(tiles)) == size
    assert [t.index() for t in tiles] == list(range(size))
    assert [tile_from_index(i) for i in range(size)] == list(tiles)
    assert all(t.hi <= max_pip for t in tiles)
    # The set of a smaller max_pip is a prefix: masks of one set fit the next.
    assert tiles[: (max_pip + 1) * max_pip // 2] == full_set(max_pip - 1)


@PROPS
@given(st.sampled_from([6, 9, 12]), st.data())
def test_tile_index_round_trips(max_pip: int, data: st.DataObject) -> None:
    size = (max_pip + 1) * (max_pip + 2) // 2
    i = data.draw(st.integers(min_value=0, max_value=size - 1))
    t = tile_from_index(i)
    assert t.index() == i and t.hi <= max_pip
    a = data.draw(st.integers(min_value=0, max_value=max_pip))
    b = data.draw(st.integers(min_value=0, max_value=max_pip))
    assert tile_from_index(Tile(a, b).index()) == Tile(a, b)
    assert Tile(a, b).index() < size


# --------------------------------------------------------------------------
# Random legal play, driven by hypothesis


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Rules, RoundState, list[int]]:
    """A rules value, a shuffled deal and a list of move choices."""
    rules = RULES[draw(rules_names)]
    players = draw(st.sampled_from(rules.players))
    tiles = draw(st.permutations(full_set(rules.max_pip)))
    size = rules.hand_size_for(players)
    hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
    leader = draw(st.integers(min_value=0, max_value=players - 1))
    state = new_round(hands, tiles[players * size :], leader)
    return rules, state, draw(choices)


def _play(
    rules: Rules, state: RoundState, picks: Sequence[int]
) -> list[tuple[RoundState, Move, RoundState, int]]:
    steps: list[tuple[RoundState, Move, RoundState, int]] = []
    for pick in picks:
        if state.over:
            break
        moves = legal_moves(rules, state)
        move = moves[pick % len(moves)]
        after, points = apply(rules, state, move)
        steps.append((state, move, after, points))
        state = after
    return steps


def _all_tiles(state: RoundState) -> list[Tile]:
    return [t for h in state.hands for t in h] + list(state.stock) + state.layout.tiles()


@PROPS
@given(rounds())
def test_legal_play_conserves_tiles(case: tuple[Rules, RoundState, list[int]]) -> None:
    rules, state, picks = case
    full = sorted(full_set(rules.max_pip))
    assert sorted(_all_tiles(state)) == full
    for _, _, after, _ in _play(rules, state, picks):
        assert sorted(_all_tiles(after)) == full


@PROPS
@given(rounds())
def test_scores_are_multiples_and_follow_the_count(
    case: tuple[Rules, RoundState, list[int]],
) -> None:
    rules, state, picks = case
    for _, move, after, points in _play(rules, state, picks):
        if not isinstance(move, Place):
            assert points == 0
            continue
        total = count(rules, after.layout)
        assert points == score_of(rules, total)
        if rules.score_value is ScoreValue.RAW:
            assert points == 0 or (points > 0 and points % rules.modulus == 0)
            assert points in (0, total)
        else:
            assert points * rules.modulus == (total if total % rules.modulus == 0 else 0)


@PROPS
@given(rounds())
def test_count_is_bounded_by_the_open_ends(case: tuple[Rules, RoundState, list[int]]) -> None:
    # Every counted end shows at most a terminal double, and a line has two
    # ends, a spinner four. In double-six pagat the maximum is 6-6 + 5-5.
    rules, state, picks = case
    for _, _, after, _ in _play(rules, state, picks):
        total = count(rules, after.layout)
        ends = 4 if after.layout.spinner else 2
        assert 0 <= total <= ends * 2 * rules.max_pip
        if rules is PAGAT:
            assert total <= 22


@PROPS
@given(rounds())
def test_apply_is_pure_and_deterministic(case: tuple[Rules, RoundState, list[int]]) -> None:
    rules, state, picks = case
    for before, move, after, points in _play(rules, state, picks):
        copy = dataclasses.replace(before)
        assert apply(rules, before, move) == (after, points)
        assert before == copy and after is not before


@PROPS
@given(rounds())
def test_moves_are_offered_exactly_when_allowed(
    case: tuple[Rules, RoundState, list[int]],
) -> None:
    rules, state, picks = case
    for before, _, after, _ in _play(rules, state, picks):
        for s in (before, after):
            moves = legal_moves(rules, s)
            assert bool(moves) == (not s.over)
            if s.over:
                continue
            hand = s.hands[s.to_move]
            fitting = playable(rules, s.layout, hand) if s.drawn is None else [s.drawn]
            places = [m for m in moves if isinstance(m, Place)]
            assert sorted({m.tile for m in places}) == fitting
            rest = [m for m in moves if not isinstance(m, Place)]
            if fitting:
                assert rest == []
            elif drawable(rules, s):
                assert rest == [KnownDraw(s.stock[0])]
            else:
                assert rest == [PassTurn()]
                assert len(s.stock) == rules.stock_reserve


@PROPS
@given(rounds(), st.data())
def test_apply_accepts_exactly_the_legal_moves(
    case: tuple[Rules, RoundState, list[int]], data: st.DataObject
) -> None:
    # Any move built from the set's tiles is accepted iff legal_moves offers
    # it, or it is the opening tile laid the other way round.
    rules, state, picks = case
    seen = [state] + [after for _, _, after, _ in _play(rules, state, picks)]
    # The opening position half the time: the lead has moves of its own.
    at = data.draw(st.one_of(st.just(0), st.integers(min_value=0, max_value=len(seen) - 1)))
    s = seen[at]
    tiles = st.sampled_from(full_set(rules.max_pip))
    own = st.sampled_from(sorted(s.hands[s.to_move])) if s.hands[s.to_move] else tiles
    candidate = data.draw(
        st.one_of(
            st.builds(
                Place,
                st.one_of(own, tiles),
                st.one_of(st.none(), st.sampled_from(list(End))),
                st.one_of(st.none(), st.integers(min_value=0, max_value=rules.max_pip)),
            ),
            st.builds(KnownDraw, tiles),
            st.just(PassTurn()),
        )
    )
    legal = legal_moves(rules, s)
    reoriented = (
        isinstance(candidate, Place)
        and candidate.end is None
        and not s.layout.started
        and not s.over
        and candidate.tile in s.hands[s.to_move]
        and (candidate.left is None or candidate.tile.has(candidate.left))
    )
    if candidate in legal or reoriented:
        apply(rules, s, candidate)
    else:
        with pytest.raises(IllegalMoveError):
            apply(rules, s, candidate)


def test_a_lead_must_face_one_of_its_own_halves_left() -> None:
    # Regression: ``left`` must be a half of the opening tile; leading 3-5
    # "with the 4 to the left" would put a 4 on the table and lose the 5.
    hands = [[Tile(3, 5), Tile(0, 0)], [Tile(1, 1), Tile(2, 2)]]
    state = new_round(hands, [], 0)
    apply(PAGAT, state, Place(Tile(3, 5), None, left=5))  # the other way round: fine
    with pytest.raises(IllegalMoveError):
        apply(PAGAT, state, Place(Tile(3, 5), None, left=4))


@PROPS
@given(rounds())
def test_rounds_end_exactly_on_domino_or_block(
    case: tuple[Rules, RoundState, list[int]],
) -> None:
    rules, state, picks = case
    for before, move, after, _ in _play(rules, state, picks):
        if isinstance(move, KnownDraw):
            assert not after.over and after.to_move == before.to_move
            continue
        seat = before.to_move
        domino = not after.hands[seat]
        assert after.over == (domino or is_blocked(rules, after))
        assert after.went_out == (seat if domino else None)
        assert after.blocked == (after.over and not domino)


# --------------------------------------------------------------------------
# Layout geometry


@st.composite
def layouts(draw: st.DrawFn) -> tuple[Rules, list[tuple[Tile, End | None, int | None]]]:
    """A rules value and a legal sequence of placements (tile, end, left)."""
    rules = RULES[draw(rules_names)]
    tiles = list(draw(st.permutations(full_set(rules.max_pip))))
    first = tiles.pop()
    left = draw(st.sampled_from([first.lo, first.hi]))
    steps: list[tuple[Tile, End | None, int | None]] = [(first, None, left)]
    layout = lead(rules, first, left)
    for _ in range(draw(st.integers(min_value=0, max_value=20))):
        options = [(t, e) for t in tiles for e in ends_for(rules, layout, t)]
        if not options:
            break
        tile, end = draw(st.sampled_from(options))
        tiles.remove(tile)
        layout = place(rules, layout, tile, end)
        steps.append((tile, end, None))
    return rules, steps


def _lay(rules: Rules, steps: Sequence[tuple[Tile, End | None, int | None]],
         mirrored: bool = False) -> list[Layout]:
    out: list[Layout] = []
    for tile, end, left in steps:
        if end is None:
            assert left is not None
            out.append(lead(rules, tile, tile.other(left) if mirrored else left))
        else:
            out.append(place(rules, out[-1], tile, MIRROR[end] if mirrored else end))
    return out


@PROPS
@given(layouts())
def test_count_is_invariant_under_mirroring(
    case: tuple[Rules, list[tuple[Tile, End | None, int | None]]],
) -> None:
    # Laying the same tiles with L and R (and U and D) swapped, the lead
    # turned round, gives the mirror image: the same count, mirrored ends.
    rules, steps = case
    for plain, mirror in zip(_lay(rules, steps), _lay(rules, steps, mirrored=True)):
        assert count(rules, plain) == count(rules, mirror)
        assert {MIRROR[e]: p for e, p in open_ends(rules, plain).items()} == open_ends(
            rules, mirror
        )
        assert sorted(plain.tiles()) == sorted(mirror.tiles())
        assert plain.spinner == mirror.spinner


@PROPS
@given(layouts(), st.data())
def test_placements_on_different_arms_commute(
    case: tuple[Rules, list[tuple[Tile, End | None, int | None]]], data: st.DataObject
) -> None:
    rules, steps = case
    layout = _lay(rules, steps)[-1]
    # Before a spinner exists, a double may become it, and which double comes
    # first matters; after (or without spinners) the order of two tiles on
    # two different arms does not.
    if rules.has_spinner and not layout.spinner:
        return
    used = set(layout.tiles())
    free = [t for t in full_set(rules.max_pip) if t not in used]
    options = [(t, e) for t in free for e in ends_for(rules, layout, t)]
    if len(options) < 2:
        return
    pair = data.draw(st.lists(st.sampled_from(options), min_size=2, max_size=2, unique=True))
    (x, ex), (y, ey) = pair
    if x == y or ex == ey:
        return
    x_first = place(rules, layout, x, ex)
    y_first = place(rules, layout, y, ey)
    if ey not in ends_for(rules, x_first, y) or ex not in ends_for(rules, y_first, x):
        return
    xy = place(rules, x_first, y, ey)
    yx = place(rules, y_first, x, ex)
    assert xy == yx
    assert count(rules, xy) == count(rules, yx)


@PROPS
@given(layouts())
def test_open_ends_show_halves_on_the_table(
    case: tuple[Rules, list[tuple[Tile, End | None, int | None]]],
) -> None:
    rules, steps = case
    for n, layout in enumerate(_lay(rules, steps), start=1):
        assert layout.tile_count() == n == len(set(layout.tiles()))
        ends = open_ends(rules, layout)
        halves = {p for t in layout.tiles() for p in (t.lo, t.hi)}
        assert set(ends.values()) <= halves
        assert list(ends)[:2] == [End.L, End.R]
        if not layout.spinner:
            assert set(ends) == {End.L, End.R}
        elif rules.spinner_sides_first:
            covered = not layout.arm(End.L).empty and not layout.arm(End.R).empty
            assert (End.U in ends) == covered == (End.D in ends)
        else:
            assert set(ends) == set(End)
        for t in full_set(rules.max_pip):
            assert fits(rules, layout, t) == bool(ends_for(rules, layout, t))


@PROPS
@given(layouts())
def test_the_first_double_is_the_spinner(
    case: tuple[Rules, list[tuple[Tile, End | None, int | None]]],
) -> None:
    rules, steps = case
    doubles = [t for t, _, _ in steps if t.is_double]
    layout = _lay(rules, steps)[-1]
    if rules.has_spinner and doubles:
        assert layout.spinner and layout.root == doubles[0]
    else:
        assert not layout.spinner and layout.root == steps[0][0]


# --------------------------------------------------------------------------
# Round end and match end


@PROPS
@given(st.sampled_from(sorted(RULES)), st.integers(min_value=0, max_value=400))
def test_round_hand_is_the_nearest_multiple(name: str, pips_held: int) -> None:
    rules = RULES[name]
    r = round_hand(rules, pips_held)
    step = rules.round_to
    assert r % step == 0
    assert 2 * abs(r - pips_held) <= step
    if 2 * (pips_held % step) == step:
        assert r > pips_held  # a half goes up
    assert round_hand(rules, pips_held + 1) >= r


hands_pips = st.lists(st.integers(min_value=0, max_value=120), min_size=2, max_size=4)


@PROPS
@given(st.sampled_from(sorted(RULES)), hands_pips, st.data())
def test_settle(name: str, held: list[int], data: st.DataObject) -> None:
    rules = RULES[name]
    went_out = data.draw(st.one_of(st.none(), st.integers(0, len(held) - 1)))
    if went_out is not None:
        held[went_out] = 0
    deltas = settle(rules, held, went_out)
    assert len(deltas) == len(held)
    if rules.round_end is RoundEnd.DEDUCT_OWN:
        assert deltas == [-round_hand(rules, p) for p in held]
        return
    gainers = [i for i, d in enumerate(deltas) if d]
    assert len(gainers) <= 1 and all(d >= 0 for d in deltas)
    lightest = min(held)
    if held.count(lightest) > 1:
        assert deltas == [0] * len(held)
    else:
        w = held.index(lightest)
        bonus = round_hand(rules, sum(held) - 2 * lightest) // rules.bonus_divisor
        assert deltas[w] == bonus


@PROPS
@given(
    st.lists(st.integers(-200, 300), min_size=2, max_size=4).flatmap(
        lambda s: st.tuples(
            st.just(s), st.lists(st.integers(-60, 60), min_size=len(s), max_size=len(s))
        )
    ),
    st.integers(1, 300),
)
def test_reached(case: tuple[list[int], list[int]], target: int) -> None:
    scores, deltas = case
    seat = reached(scores, deltas, target)
    hits = [i for i, (s, d) in enumerate(zip(scores, deltas)) if d > 0 and s + d >= target]
    assert seat == (hits[0] if hits else None)
