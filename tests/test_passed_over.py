"""What a placement shows: the tiles it passed over.

The scores below are worked by hand from docs/rules.md (pagat: a line, no
spinner, a double at an end counts both halves, a total that is a multiple
of 5 scores itself).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from muggins_cli.engine.layout import EMPTY, End, Layout, lead, place
from muggins_cli.engine.state import (
    KnownDraw,
    PassTurn,
    Place,
    RoundState,
    apply,
    deal,
    legal_moves,
    new_round,
)
from muggins_cli.engine.table import table_for
from muggins_cli.engine.view import SeatView, moves_seen, view_of
from muggins_cli.engine.voids import Placed, VoidWatch
from muggins_cli.play.expectimax import (
    ExpectimaxStrategy,
    _Search,
    read_placements,
    settled_pip_weight,
)
from muggins_cli.play.strategies import PASSED_OVER, GreedyStrategy, SolverStrategy
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import Tile, full_set

t = Tile.parse
PAGAT = load_preset("pagat")


def test_the_watch_keeps_chosen_placements_since_the_last_draw() -> None:
    layout = lead(PAGAT, t("5-5"))
    s1 = RoundState((frozenset(), frozenset()), (t("0-0"), t("6-6")), layout, 1)
    s0 = RoundState((frozenset(), frozenset()), (t("0-0"), t("6-6")), layout, 0)
    watch = VoidWatch(PAGAT)
    watch.start_round()
    empty = RoundState((frozenset(), frozenset()), (), EMPTY, 0)
    watch.observe(empty, Place(t("5-5"), None))  # the lead: nothing to pass over
    assert watch.placements() == ()
    watch.observe(s1, Place(t("5-1"), End.L))
    watch.observe(s0, Place(t("5-0"), End.R))
    assert watch.placements() == ((1, layout, t("5-1"), End.L), (0, layout, t("5-0"), End.R))
    watch.observe(s1, KnownDraw(t("0-0")))  # seat 1 draws: its earlier choice no longer tells
    assert watch.placements() == ((0, layout, t("5-0"), End.R),)
    watch.observe(s1, Place(t("0-0"), End.L))  # the drawn tile, forced: not a choice
    assert watch.placements() == ((0, layout, t("5-0"), End.R),)
    watch.observe(s0, PassTurn())
    watch.start_round()
    assert watch.placements() == ()


def _view(placed: tuple[Placed, ...], hand: str = "1-2") -> SeatView:
    layout = lead(PAGAT, t("5-5"))
    mine = frozenset({t(hand)})
    unseen = frozenset(set(full_set(6)) - {t("5-5")} - mine)
    stock = len(unseen) - 7
    return SeatView(seat=0, hand=mine, layout=layout, hand_sizes=(1, 7), unseen=unseen,
                    stock_count=stock, scores=(0, 0), target=250,
                    moves=moves_seen(PAGAT, layout, mine, None, stock, None), placed=placed)


def test_passed_over_by_hand() -> None:
    """On a lone 5-5 (10 at its end) a 5-x leaves 10 + x: only 5-0 scores
    (10); 5-6 leaves 16. Laying 5-1 passed over 5-0, twice when two such
    placements are kept; laying 5-0 passed over nothing."""
    table = table_for(PAGAT)
    layout = lead(PAGAT, t("5-5"))
    i = Tile.index
    counts = read_placements(table, _view(((1, layout, t("5-1"), End.L),)))[0]
    assert counts == {1: {i(t("5-0")): 1}}
    counts = read_placements(table, _view(((1, layout, t("5-1"), End.L),
                                          (1, layout, t("5-2"), None))))[0]
    assert counts == {1: {i(t("5-0")): 2}}
    assert read_placements(table, _view(((1, layout, t("5-0"), End.R),)))[0] == {1: {}}
    # The mover's own placements say nothing it does not know.
    assert read_placements(table, _view(((0, layout, t("5-1"), End.L),)))[0] == {}


def test_a_later_layout_by_hand() -> None:
    """5-5 then 5-3 on R: the ends are 5-5 (10) and 3, 13. On the 3 a 3-x
    leaves 10 + x, on the double a 5-x leaves x + 3. Laying 3-4 (14, no
    score) passed over 3-0 (10) and 5-2 (5), and nothing else scores: 3-1
    11, 3-2 12, 3-6 16, 3-3 16, 5-0 3, 5-1 4, 5-4 7, 5-6 9 (5-3 and 5-5, on
    the table, are not counted)."""
    table = table_for(PAGAT)
    layout = place(PAGAT, lead(PAGAT, t("5-5")), t("5-3"), End.R)
    i = Tile.index
    counts = read_placements(table, _view(((1, layout, t("3-4"), End.R),)))[0]
    assert counts == {1: {i(t("3-0")): 1, i(t("5-2")): 1}}


def test_weights_are_the_factor_to_the_count() -> None:
    table = table_for(PAGAT)
    layout = lead(PAGAT, t("5-5"))
    later = place(PAGAT, layout, t("5-3"), End.R)
    # 5-0 passed over twice; 3-0 and 5-2 once (the two tests above).
    view = _view(((1, layout, t("5-1"), End.L), (1, layout, t("5-2"), End.L),
                  (1, later, t("3-4"), End.R)))
    weights = ExpectimaxStrategy(passed_over=0.25).weights(table, view)
    assert weights is not None and len(weights) == 1
    w = weights[0]
    assert w is not None
    assert w[t("5-0").index()] == 0.0625
    assert w[t("3-0").index()] == w[t("5-2").index()] == 0.25
    assert sum(x == 1.0 for x in w) == table.n_tiles - 3
    assert ExpectimaxStrategy().weights(table, view) is None  # off by default


def test_mass_by_hand() -> None:
    """Over 5-0, 5-6 and 1-1 with weights 0.25, 0.0625 and 1: total 1.3125,
    pips 0.25 * 5 + 0.0625 * 11 + 2 = 3.9375."""
    table = table_for(PAGAT)
    w = [1.0] * table.n_tiles
    w[t("5-0").index()] = 0.25
    w[t("5-6").index()] = 0.0625
    poss = sum(1 << t(x).index() for x in ("5-0", "5-6", "1-1"))
    weighted = _Search(PAGAT, table, 0.5, None, (w,))
    assert weighted.mass(0, poss) == (1.3125, 3.9375)
    assert _Search(PAGAT, table, 0.5, None, (None,)).mass(0, poss) == (3.0, 18.0)


@pytest.mark.parametrize("seed", range(4))
def test_unit_weights_play_as_no_weights(seed: int) -> None:
    """Weights of 1 everywhere go through the weighted sums, no weights
    through the counts: the two must value every move the same."""
    rng = random.Random(seed)
    hands, stock = deal(PAGAT, 2, rng)
    state = new_round(hands, stock, 0)
    table = table_for(PAGAT)
    compared = 0
    while not state.over:
        moves = legal_moves(PAGAT, state)
        if state.layout.started and len(moves) > 1:
            seen = view_of(PAGAT, state, moves, (0, 0), 250)
            root = ExpectimaxStrategy.root(PAGAT, table, seen)
            lid = seen.layout.key
            plain = _Search(PAGAT, table, 0.5, None)
            unit = _Search(PAGAT, table, 0.5, None, ([1.0] * table.n_tiles,))
            for m in seen.moves:
                a = ExpectimaxStrategy.move_value(plain, table, root, lid, m, 3)
                b = ExpectimaxStrategy.move_value(unit, table, root, lid, m, 3)
                assert a == b
                compared += 1
        move = GreedyStrategy().choose(PAGAT, state, moves, rng)
        state, _ = apply(PAGAT, state, move)
    assert compared > 0


def test_the_settled_pip_weight_follows_the_rules() -> None:
    assert settled_pip_weight(PAGAT) == 0.5
    assert settled_pip_weight(load_preset("spinner")) == 0.1  # lightest-bonus / 5


def _budi_passed_over() -> tuple[Layout, SeatView]:
    """Budi laid 5-1 on the lead 5-5 (passing over what would have scored);
    the mover holds 5-2 and 1-1, with a choice to make."""
    layout = lead(PAGAT, t("5-5"))
    view = _view(((1, layout, t("5-1"), End.L),), hand="5-2")
    view = dataclasses.replace(view, hand=view.hand | {t("1-1")}, hand_sizes=(2, 7),
                               unseen=view.unseen - {t("1-1")}, stock_count=view.stock_count - 1)
    view = dataclasses.replace(view, moves=moves_seen(PAGAT, layout, view.hand, None,
                                                      view.stock_count, None))
    return layout, view


def test_the_solver_infers_and_the_ladder_expectimax_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's expectimax search reads what the others passed over; the
    ``expectimax`` opponent, the published bot's method, does not."""
    made: list[ExpectimaxStrategy] = []
    real = ExpectimaxStrategy.__init__

    def spy(self: ExpectimaxStrategy, **kw: object) -> None:
        real(self, **kw)  # type: ignore[arg-type]
        made.append(self)

    monkeypatch.setattr(ExpectimaxStrategy, "__init__", spy)
    layout, view = _budi_passed_over()
    assert len(view.moves) > 1
    solver = SolverStrategy(hidden="expectimax")
    solver.choose_seen(PAGAT, view, random.Random(1))
    assert made and made[-1].passed_over == PASSED_OVER < 1
    assert made[-1].loose == frozenset()
    assert ExpectimaxStrategy().passed_over == 1.0
    # Budi lays the 5-0 he passed over: loose for the rest of the match,
    # even once a later view no longer shows it (he drew since).
    second = place(PAGAT, layout, t("5-1"), End.L)
    shown = dataclasses.replace(view, placed=((1, layout, t("5-1"), End.L),
                                              (1, second, t("5-0"), End.R)))
    solver.choose_seen(PAGAT, shown, random.Random(1))
    assert made[-1].loose == {1}
    solver.choose_seen(PAGAT, view, random.Random(1))
    assert made[-1].loose == {1}


def test_the_sampling_solver_deals_by_what_was_passed_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The default (sampling) solver hands the solver a prior: Budi laid
    5-1 on the lead 5-5 and scored nothing, where 5-0 would have scored, so
    5-0 weighs PASSED_OVER for him and a tile that fits nothing weighs 1.
    Once he lays the 5-0 he had passed over he is loose: no prior for him,
    for the rest of the match."""
    import muggins_cli.solver as solver_pkg

    priors: list[object] = []
    real = solver_pkg.solve

    def spy(*args: object, **kw: object) -> object:
        plan = args[2]
        assert isinstance(plan, solver_pkg.Plan)
        priors.append(plan.prior)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(solver_pkg, "solve", spy)
    layout, view = _budi_passed_over()
    solver = SolverStrategy(samples=2)
    solver.choose_seen(PAGAT, view, random.Random(1))
    prior = priors[-1]
    assert isinstance(prior, dict) and set(prior) == {1}
    # On 5-5, the 5-0 would have made 5 + 5 = 10 and 5-5 itself is down:
    # 5-0 is passed over once; the 6-6 fits nothing and is not.
    assert prior[1][t("5-0").index()] == PASSED_OVER
    assert prior[1][t("6-6").index()] == 1.0
    second = place(PAGAT, layout, t("5-1"), End.L)
    shown = dataclasses.replace(view, placed=((1, layout, t("5-1"), End.L),
                                              (1, second, t("5-0"), End.R)))
    solver.choose_seen(PAGAT, shown, random.Random(1))
    assert priors[-1] == {}
    solver.choose_seen(PAGAT, view, random.Random(1))
    assert priors[-1] == {}


def test_the_replay_view_keeps_what_the_table_saw() -> None:
    """records/club-night-pagat-2p.mgn, round 1: Budi leads 4-6 (not a
    choice that passes anything over), Ana lays 6-6R, Budi 4-4L, Ana 2-6R,
    3-3L, 2-2L, Budi 3-4L and 2-3L, then Budi draws eight tiles and lays
    the last drawn (forced). Before turn 4 both players' choices are kept;
    before turn 10 Budi's are gone with his draws, and the forced one was
    never a choice."""
    from muggins_cli.check import record_resolver
    from muggins_cli.notation.parser import parse_text
    from muggins_cli.replay.replay import position_at

    path = Path(__file__).resolve().parents[1] / "records" / "club-night-pagat-2p.mgn"
    match = parse_text(path.read_text())[0]
    resolve = record_resolver(path)
    view = position_at(match, resolve, "1.4").view()
    assert [(s, str(x), e) for s, _, x, e in view.placed] == [(0, "6-6", End.R), (1, "4-4", End.L)]
    view = position_at(match, resolve, "1.10").view()
    assert [(s, str(x)) for s, _, x, _ in view.placed] == [
        (0, "6-6"), (0, "2-6"), (0, "3-3"), (0, "2-2")]
    assert [len(lay.tiles()) for _, lay, _, _ in view.placed] == [1, 3, 5, 7]


def test_a_seat_that_lays_what_it_passed_over_is_loose() -> None:
    """Budi (seat 1) lays 5-1 on a lone 5-5, passing over 5-0 (10), then,
    without drawing, lays 5-0: he held it and took fewer points, so his
    choices say little from then on. A seat that passed over 5-0 and then
    lays another tile is not loose."""
    table = table_for(PAGAT)
    first = lead(PAGAT, t("5-5"))
    second = place(PAGAT, first, t("5-1"), End.L)
    held = _view(((1, first, t("5-1"), End.L), (1, second, t("5-0"), End.R)))
    assert read_placements(table, held)[1] == {1}
    other = _view(((1, first, t("5-1"), End.L), (1, second, t("1-4"), End.L)))
    assert read_placements(table, other)[1] == set()
    assert read_placements(table, _view(((0, first, t("5-1"), End.L),
                                         (0, second, t("5-0"), End.R))))[1] == set()  # the mover
