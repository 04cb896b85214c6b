"""Verdicts from sampled costs: the bands by hand, the race that decides how
many deals a turn takes, and the solver honouring it."""

from __future__ import annotations

import math
import random

import pytest

from muggins_cli.analysis.race import bounds, judge, looks, racer, settled, student
from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.engine.state import Place, legal_moves
from muggins_cli.engine.view import view_of
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import Plan, solve
from muggins_cli.tiles import Tile
from tests.test_solver_reference import endgame

OPTIONS = WeighOptions(costly=5, blunder=15, z=2.0, min_deals=8, samples=40, close=2.0,
                       close_z=2.0)


def test_verdict_bands_by_hand() -> None:
    v = OPTIONS.verdict
    assert v(10, 2) == "mistake"    # 10 - 2*2 = 6 >= 5, 10 + 4 = 14 < 15
    assert v(20, 2) == "blunder"    # 16 >= 15
    assert v(6, 1) == "uncertain"   # 4 < 5 <= 8
    assert v(2, 1) == "fine"        # 2 + 2 = 4 < 5
    assert v(5, None) == "mistake"  # exact: the threshold itself counts
    assert v(4.9, None) == "fine"
    assert v(14, 1) == "mistake"    # surely costly, maybe a blunder: at least a mistake
    # Within close (2) of 5 either way, the threshold inside: a verdict of its own.
    b = OPTIONS.band
    assert b(3.5, 6.5) == "close" and b(3, 7) == "close"
    assert b(2.9, 6.0) == "uncertain"  # could lie further below than the zone
    assert b(4.0, 7.1) == "uncertain"  # or above it
    assert b(5.0, 6.0) == "mistake" and b(3.0, 4.9) == "fine"  # the line is outside
    # The zone read from a range of close_z (1) standard errors: 6 ± 1 lies
    # in it, 6 ± 2 does not (and neither is on one side of 5).
    soft = WeighOptions(costly=5, blunder=15, z=2.0, close=2.0, close_z=1.0)
    assert soft.verdict(6, 1) == "close" and soft.verdict(6, 1.5) == "uncertain"
    assert soft.band(4.0, 8.0, (5.0, 7.0)) == "close"
    assert soft.band(4.0, 8.0, (4.5, 7.5)) == "uncertain"


@pytest.mark.parametrize(("close_z", "stops"), [(2.0, 40), (1.0, 18)])
def test_a_turn_known_to_lie_near_the_line_is_settled_as_close(close_z: float,
                                                              stops: int) -> None:
    """Costs 5 on average, give or take 1 a deal: never on one side of 5,
    but known to within the zone (2 either way) once a whole round's swing
    over the deals (30 / k, far above the spread) fits in it too, at
    ``close_z`` standard errors: Student's 2.04 * 30/40 = 1.5 and 2.09 *
    30/27 = 2.3 at z 2; 1.03 * 30/18 = 1.7 and 1.05 * 30/12 = 2.6 at z 1.
    The race stops at the first look past that, and the verdict is close."""
    options = WeighOptions(costly=5, blunder=15, z=2.0, min_deals=8, samples=100,
                           close=2.0, close_z=close_z)
    enough = racer(A, options)
    per: dict[object, list[float]] = {A: [], B: []}
    for k in range(1, 101):
        per[A].append(0.0)
        per[B].append(5.0 + (1.0 if k % 2 else -1.0))
        got = enough(per, k)  # type: ignore[arg-type]
        if got is None:
            break
    verdict, low, high, _ = judge(per, A, options)  # type: ignore[arg-type]
    assert k == stops and low < 5 <= high
    assert verdict == "close"
    assert settled(verdict, low, high, k, options)


A, B, C = Place(Tile.parse("1-2")), Place(Tile.parse("3-4")), Place(Tile.parse("5-6"))


def test_the_race_stops_at_once_on_a_clear_cut_turn() -> None:
    enough = racer(A, OPTIONS)
    per = {A: [0.0] * 8, B: [30.0] * 8}
    assert enough(per, 8) is None  # 30 better in every deal: a blunder, known


def test_the_race_goes_on_for_a_close_call_and_stops_at_the_cap() -> None:
    enough = racer(A, OPTIONS)
    rng = random.Random(1)
    per: dict[object, list[float]] = {A: [], B: []}
    for k in range(1, 41):
        per[A].append(0.0)
        per[B].append(5.0 + rng.choice([-8.0, 8.0]))  # costs 5 on average, very noisy
        got = enough(per, k)  # type: ignore[arg-type]
        if k < 40:
            assert got is not None and set(got) == {A, B}, k
        else:
            assert got is None  # the cap: the verdict stays uncertain


def test_the_race_drops_a_move_clearly_below_the_leader() -> None:
    enough = racer(A, OPTIONS)
    rng = random.Random(2)
    per = {A: [rng.uniform(-3, 3) for _ in range(8)], B: [], C: []}
    per[B] = [a + 5 + rng.uniform(-6, 6) for a in per[A]]  # near the threshold
    per[C] = [a - 40 for a in per[A]]                       # far below everything
    got = enough(per, 8)
    assert got is not None and set(got) == {A, B}


def test_solve_deals_until_the_caller_has_enough() -> None:
    """``enough`` decides how many deals and which moves are valued."""
    rules = load_preset("pagat")
    state = endgame(rules, 2, 32, 14, min_stock=3)
    know = view_of(rules, state, legal_moves(rules, state), (0, 0), 250)
    moves = legal_moves(rules, state)
    assert len(moves) >= 3
    first = moves[0]
    calls: list[int] = []

    def enough(per: object, done: int) -> list[object] | None:
        calls.append(done)
        return None if done == 5 else [first]

    res = solve(rules, know, Plan(mode="sample", samples=50, enough=enough,  # type: ignore[arg-type]
                pv=False))
    assert res.samples == 5 and calls == [1, 2, 3, 4, 5]
    counts = {str(mv.move): len(mv.deals) for mv in res.moves}
    assert counts[str(first)] == 5
    assert all(n == 1 for m, n in counts.items() if m != str(first))
    assert res.stopped is None


def test_a_play_that_leads_by_a_hair_is_not_fine_until_the_runner_up_is_known() -> None:
    """The played move leads, but another is only 1 point behind with a
    large spread: it may truly be better by more than the threshold."""
    enough = racer(A, OPTIONS)
    rng = random.Random(3)
    per = {A: [0.0] * 8, B: [rng.choice([-12.0, 10.0]) for _ in range(8)]}
    assert sum(per[B]) / 8 < 0  # A leads
    got = enough(per, 8)
    assert got is not None and A in got and B in got
    per2 = {A: [0.0] * 8, B: [-20.0] * 8}
    assert enough(per2, 8) is None  # clearly best: fine at once


def test_sampling_stops_once_the_deals_have_searched_node_total() -> None:
    """``node_total`` ends the sampling after the deal whose nodes reach it,
    as ``enough`` would: the answer is what was averaged so far, not a
    stopped search."""
    rules = load_preset("pagat")
    state = endgame(rules, 2, 32, 14, min_stock=3)
    know = view_of(rules, state, legal_moves(rules, state), (0, 0), 250)
    free = solve(rules, know, Plan(mode="sample", samples=40, enough=lambda per, done: list(per),
                 pv=False, seed=3))
    assert free.samples == 40
    per_deal = free.nodes / 40
    cap = int(per_deal * 10)
    got = solve(rules, know, Plan(mode="sample", samples=40, enough=lambda per, done: list(per),
                pv=False, seed=3, node_total=cap))
    assert got.stopped is None and 1 <= got.samples < 40
    assert got.nodes >= cap
    # The deals it took are the first ones of the free run, and it stopped at
    # the first deal that brought the count to the cap.
    firsts = {str(mv.move): mv.deals for mv in free.moves}
    for mv in got.moves:
        assert mv.deals == firsts[str(mv.move)][:got.samples]
    shorter = solve(rules, know, Plan(mode="sample", samples=got.samples - 1,
                    enough=lambda per, done: list(per), pv=False, seed=3))
    assert shorter.nodes < cap


def test_the_verdict_is_asked_at_a_few_counts_of_deals_only() -> None:
    """Each count half as many again as the last (rounded), then the cap:
    between them a turn goes on even once its verdict would hold."""
    assert looks(8, 100) == [8, 12, 18, 27, 40, 60, 90, 100]
    assert looks(8, 8) == [8]
    options = WeighOptions(costly=5, blunder=15, z=2.0, min_deals=8, samples=100)
    enough = racer(A, options)
    per = {A: [0.0] * 9, B: [30.0] * 9}  # 30 better in every deal: a blunder, known
    assert enough(per, 9) is not None  # 9 is no count the verdict is asked at
    per = {A: [0.0] * 12, B: [30.0] * 12}
    assert enough(per, 12) is None


def test_a_costly_turn_is_not_dealt_on_past_blunder_deals_to_tell_the_glyph() -> None:
    """Surely costly (about 12, give or take 4), maybe a blunder: dealt on
    while it has had fewer than ``blunder_deals`` deals, then left as at
    least a mistake."""
    options = WeighOptions(costly=5, blunder=15, z=2.0, min_deals=8, samples=1000,
                           blunder_deals=27)
    def done(low: float, high: float, deals: int) -> bool:
        return settled(options.band(low, high), low, high, deals, options)

    assert done(8.0, 16.0, 18) is False   # 15 inside: not yet
    assert done(8.0, 16.0, 27) is True    # at blunder_deals: enough
    assert done(3.0, 16.0, 500) is False  # fine or not is never left open
    assert done(0.0, 4.0, 8) is True      # fine: 15 plays no part
    enough = racer(A, options)
    per: dict[object, list[float]] = {A: [], B: []}
    for k in range(1, 28):
        per[A].append(0.0)
        per[B].append(12.0 + (8.0 if k % 2 else -8.0))  # 12, 8 either way
        got = enough(per, k)  # type: ignore[arg-type]
        assert (got is None) == (k == 27), k


def _t_tail(t: float, df: int) -> float:
    """The upper tail of Student's t beyond ``t``, by the trapezoid rule
    on its density (independent of the code under test)."""
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    steps, top = 40_000, t + 200.0
    h = (top - t) / steps
    total = sum((0.5 if i in (0, steps) else 1.0)
                * c * (1 + (t + i * h) ** 2 / df) ** (-(df + 1) / 2) for i in range(steps + 1))
    return total * h


@pytest.mark.parametrize(("z", "df", "within"), [(2.25, 7, 0.01), (2.25, 26, 0.01),
                                                  (2.5, 11, 0.01), (3.5, 7, 0.07)])
def test_student_has_the_normal_tail(z: float, df: int, within: float) -> None:
    """Student's quantile for the normal ``z``'s tail: the t tail beyond it
    is the normal tail beyond ``z``, within the stated accuracy."""
    t = student(z, df)
    normal_tail = 0.5 * math.erfc(z / math.sqrt(2))
    assert _t_tail(t - within, df) >= normal_tail >= _t_tail(t + within, df)


def test_moves_alike_in_a_few_deals_are_not_known_alike() -> None:
    """The played move and another agree in each of 12 deals: no spread, but
    a thirteenth may part them by a round's points. Not fine at 12; fine
    by 27, when one deal's swing of 30 moves the mean by little."""
    options = WeighOptions(costly=5, blunder=15, z=2.25, min_deals=8, samples=100)
    rng = random.Random(7)
    same = [rng.uniform(-40, 10) for _ in range(27)]
    low, high, _ = bounds({A: same[:12], B: same[:12]}, A, options.z)
    assert low == 0 and high >= options.costly
    assert options.band(low, high) == "uncertain"
    low, high, _ = bounds({A: same, B: same}, A, options.z)
    assert high == pytest.approx(student(2.25, 26) * 30 / 27)
    assert options.band(low, high) == "fine"


def test_the_race_names_the_play_made_and_the_leader_first() -> None:
    """A deal whose search is cut short has valued the moves named first:
    the play made, the leader, then the others by their mean."""
    options = WeighOptions(costly=5, blunder=15, z=2.0, min_deals=8, samples=100)
    enough = racer(A, options)
    rng = random.Random(2)
    per = {C: [10 + rng.uniform(-60, 60) for _ in range(8)],
           B: [15 + rng.uniform(-60, 60) for _ in range(8)],
           A: [-10 + rng.uniform(-60, 60) for _ in range(8)]}
    assert sorted(per, key=lambda m: -sum(per[m])) == [B, C, A]  # B leads, A last
    got = enough(per, 8)  # type: ignore[arg-type]
    assert got is not None and list(got) == [A, B, C]


def test_the_default_rule_is_the_one_the_readme_states() -> None:
    """The defaults by hand (README, "The solver's verdicts"): 2.5 standard
    errors for fine, mistake and blunder, the zone 2.5 points either side
    of 5 read at one standard error, first asked at 16 deals, then 24, 36,
    54, ... The quantiles are Hill's expansion worked by hand: Student's
    2.5 with 15 degrees of freedom is 2.5 + 4.531/15 + 7.769/225 +
    10.194/3375 = 2.8396, with 23 it is 2.7125; 1 with 15 is 1.0345. With
    k deals the error is at least 30 / k (1.875 at 16, 1.25 at 24)."""
    options = WeighOptions()
    v = options.verdict
    assert v(6.0, 1.0) == "close"       # 3.5 < 5 < 8.5; 5 to 7 lies within 2.5 to 7.5
    assert v(7.6, 1.0) == "mistake"     # 7.6 - 2.5 = 5.1
    assert v(7.0, 0.9) == "uncertain"   # 4.75 < 5; 7.9 > 7.5: beyond the zone
    assert v(2.6, 1.0) == "uncertain"   # 5.1 > 5; 1.6 < 2.5: below the zone
    assert v(2.4, 0.95) == "fine"       # 2.4 + 2.375 = 4.775
    assert v(20.0, 2.0) == "blunder"    # 20 - 5 = 15
    assert looks(options.min_deals, options.samples) == [
        16, 24, 36, 54, 81, 122, 183, 274, 411, 616, 924, 1024]

    def race(diffs: list[float]) -> tuple[int, str]:
        enough = racer(A, options)
        per: dict[object, list[float]] = {A: [], B: []}
        for k, d in enumerate(diffs, 1):
            per[A].append(0.0)
            per[B].append(d)
            if enough(per, k) is None:  # type: ignore[arg-type]
                break
        return k, judge(per, A, options)[0]  # type: ignore[arg-type]

    # 30 better in every deal: 30 - 2.8396 * 1.875 = 24.68 >= 15, but not
    # asked before 16 deals.
    assert race([30.0] * 40) == (16, "blunder")
    # 10 in every deal: at 16, 10 - 5.32 = 4.68 < 5, and 10 +- 1.94 is
    # beyond the zone; at 24, 10 - 2.7125 * 1.25 = 6.61 >= 5 and
    # 10 + 3.39 < 15: a mistake, known not to be a blunder.
    assert race([10.0] * 40) == (24, "mistake")
    # 5 give or take 1 (sd 1.033, error 0.258 at 16): 5 +- 2.84 * 1.893
    # straddles 5, 5 +- 1.0345 * 1.893 = 3.04 to 6.96 lies in the zone.
    assert race([6.0 if k % 2 else 4.0 for k in range(40)]) == (16, "close")
