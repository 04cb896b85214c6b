"""``analyze --solver`` underneath: decision positions, the cost of each
play against an independent exhaustive search, the sample view's blindness
to hidden tiles, luck, and the per-player statistics."""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path

import pytest

from muggins_cli.analysis.solver_stats import (
    COSTLY_PLAY,
    SolverStats,
    costly_findings,
    solver_stats,
)
from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.analysis.weigh import Weighed, weigh_decision, weigh_match
from muggins_cli.check import record_resolver
from muggins_cli.engine.state import Place, UnseenDraw, legal_moves
from muggins_cli.engine.view import SeatView, SeenMove
from muggins_cli.notation.model import Match
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import greedy_seen
from muggins_cli.replay.replay import decisions, position_at
from muggins_cli.rules.loader import load_preset, preset_names
from muggins_cli.rules.model import Rules
from muggins_cli.solver import Plan, solve
from muggins_cli.tiles import Tile

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS
from .test_solver_reference import minimax2, move_value2


class Recorder:
    """Plays greedily and keeps the view of every placement or pass."""

    name = "recorder"

    def __init__(self) -> None:
        self.views: list[SeatView] = []

    def choose_seen(self, rules: Rules, seen: SeatView, rng: random.Random) -> SeenMove:
        move = greedy_seen(rules, seen)
        if not isinstance(move, UnseenDraw):
            self.views.append(seen)
        return move


def _selfplay(rules: Rules, players: int, seed: int, target: int = 120
              ) -> tuple[Match, list[Recorder]]:
    """A played match read back from its MGN text (so lines are numbered)."""
    recorders = [Recorder() for _ in range(players)]
    names = ["Ana", "Budi", "Citra", "Dewi"][:players]
    out = play_match(rules, names, recorders, random.Random(seed), target=target)
    return parse_text(write_match(out.record))[0], recorders


def _resolve(rules: Rules):  # type: ignore[no-untyped-def]
    return lambda name: rules


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", preset_names())
def test_decisions_are_what_the_mover_saw(preset: str, players: int) -> None:
    """At every turn the replayed decision position is the view the
    self-play driver gave the mover then: hand (with the turn's draws),
    layout, hand sizes, stock left, the drawn tile, voids and scores."""
    rules = load_preset(preset)
    match, recorders = _selfplay(rules, players, seed=players)
    by_seat = {i: iter(r.views) for i, r in enumerate(recorders)}
    count = 0
    for d in decisions(match, _resolve(rules)):
        seen = next(by_seat[d.at.to_move])
        at = d.at
        assert at.hands[at.to_move] == seen.hand
        assert at.layout == seen.layout
        assert at.hand_sizes == seen.hand_sizes
        assert at.stock_count == seen.stock_count
        assert at.drawn == seen.drawn
        assert at.voids == seen.voids
        assert at.scores == seen.scores
        if at.turn <= 2 or count % 4 == 0:
            # R.T names it. Each position_at replays the match from its
            # start: every turn's would make the test quadratic (3 s).
            before = position_at(match, _resolve(rules), f"{at.round}.{at.turn}")
            assert (before.layout, before.to_move) == (at.layout, at.to_move)
        if d.turn.draws:
            assert d.start is not None
            assert d.start.hand_sizes[at.to_move] == seen.hand_sizes[at.to_move] - len(
                d.turn.draws)
            assert d.start.stock_count == seen.stock_count + len(d.turn.draws)
        else:
            assert d.start is None
        count += 1
    assert count == sum(len(r.views) for r in recorders) > 20
    assert all(next(it, None) is None for it in by_seat.values())


def test_perfect_costs_equal_an_exhaustive_search() -> None:
    """Late in each round (few tiles left) the perfect view's values are
    checked against a plain minimax over the engine."""
    rules = load_preset("pagat")
    checked = 0
    for seed in range(6):
        match, _ = _selfplay(rules, 2, seed, target=250)
        for d in decisions(match, _resolve(rules)):
            at = d.at
            if sum(at.hand_sizes) + at.stock_count > 7 or not isinstance(d.move, Place):
                continue
            w = weigh_decision(d, WeighOptions(perfect=True, nodes=0))
            if not w.unforced:
                continue
            state = at.state()
            dists = [at.target - s for s in at.scores]
            assert w.value == move_value2(rules, state, d.move, dists, False)
            assert w.best_value == minimax2(rules, state, dists, False)
            assert w.cost == w.best_value - w.value >= 0
            assert w.exact
            checked += 1
    assert checked >= 20


def test_ties_name_the_play_made() -> None:
    """Late in each round, all-seeing: where a plain minimax over the engine
    gives the play made the best value, the turn names the play made as
    best, as the record writes it, and lists it first; where it does not,
    the best is one of the plays of the best value. Some of the ties are
    with a play the engine lists first (the old rule named that one)."""
    rules = load_preset("pagat")
    ties = named_first_before = 0
    for seed in range(6):
        match, _ = _selfplay(rules, 2, seed, target=250)
        for d in decisions(match, _resolve(rules)):
            at = d.at
            if sum(at.hand_sizes) + at.stock_count > 7 or d.move is None:
                continue
            w = weigh_decision(d, WeighOptions(perfect=True, nodes=0))
            if not w.unforced:
                continue
            state = at.state()
            dists = [at.target - s for s in at.scores]
            legal = legal_moves(rules, state)
            values = [move_value2(rules, state, m, dists, False) for m in legal]
            top = max(values)
            made = move_value2(rules, state, d.move, dists, False)
            if made == top:
                assert w.best == w.played, (w.round, w.turn, w.played, w.best)
                assert w.cost == 0
                assert w.candidates[0].value == top
                assert str(w.candidates[0].move) == str(d.move)
                ties += 1
                first = legal[values.index(top)]
                named_first_before += str(first) != str(d.move)
            else:
                assert w.best != w.played and w.cost == top - made
    assert ties >= 10 and named_first_before >= 1, (ties, named_first_before)


def _record(tmp_path: Path, budi: str, stock: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(HEAD + f"deal Siti Rahma 4-6 1-2 0-0 3-0 3-3 5-5 6-1\ndeal Nyoman {budi}\n"
                    + f"stock {stock}\n" + "Nyoman: 3-2\nSiti Rahma: 3-3\nNyoman: 3-4\n",
                    encoding="utf-8")
    return str(path)


@pytest.mark.slow  # sampled or perfect searches: seconds
def test_sample_view_is_blind_to_the_hidden_tiles(tmp_path: Path) -> None:
    """Siti sees the same table in both records; only Nyoman's hidden tiles
    and the stock differ. Her sampled values must not move; the all-seeing
    view's may."""
    a = _record(tmp_path, "3-2 3-4 6-6 0-2 5-6 1-1 0-6",
                "0-5 0-4 3-5 2-2 4-5 1-4 3-6 2-6 1-3 4-4 1-0 1-5 2-4 5-2", "a.mgn")
    b = _record(tmp_path, "3-2 3-4 1-3 4-4 1-0 1-5 2-4",
                "0-5 0-4 3-5 2-2 4-5 1-4 3-6 2-6 6-6 0-2 5-6 1-1 0-6 5-2", "b.mgn")
    options = WeighOptions(samples=6, seed=7)
    views = []
    for path in (a, b):
        match = parse_text(Path(path).read_text(encoding="utf-8"))[0]
        siti = [w for w in weigh_match(match, record_resolver(path), options)
                if w.player == "Siti Rahma"]
        assert siti and all(w.unforced and w.weighed for w in siti)
        views.append([(w.value, w.best, w.best_value) for w in siti])
    assert views[0] == views[1]


def _club(tmp_path: Path) -> tuple[Match, str]:
    path = tmp_path / "club.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    return parse_text(path.read_text(encoding="utf-8"))[0], str(path)


def test_luck_is_the_draws_against_the_average_draw(tmp_path: Path) -> None:
    """Siti (1.14) drew 3-5 and 2-2 and placed 2-2: her luck is the value of
    the position she drew into minus the value of drawing, both as she saw
    them."""
    match, path = _club(tmp_path)
    options = WeighOptions(samples=8, seed=3, exact=0)
    d = next(d for d in decisions(match, record_resolver(path)) if d.turn.line == 23)
    assert d.turn.player == "Siti Rahma" and len(d.turn.draws) == 2
    t = Tile.parse
    assert d.start is not None
    assert d.at.hands[0] == d.start.hands[0] | {t("3-5"), t("2-2")}  # type: ignore[operator]
    assert d.at.drawn == t("2-2")
    w = weigh_decision(d, options)
    assert w.luck is not None
    rules = d.at.rules
    before = solve(rules, d.start.view(), Plan(mode="sample", objective="points",
                   samples=8, seed=3 * 1_000_003 - 23, node_limit=options.node_limit(2)))
    drew = next(m.value for m in before.moves if isinstance(m.move, UnseenDraw))
    after = solve(rules, d.at.view(), Plan(mode="sample", objective="points",
                  samples=8, seed=3 * 1_000_003 + 23, node_limit=options.node_limit(2)))
    assert drew is not None and after.value is not None
    assert w.luck == pytest.approx(after.value - drew)
    # Each value has deals of its own: their standard errors add in quadrature.
    before_deals = next(m.deals for m in before.moves if isinstance(m.move, UnseenDraw))
    after_deals = next(m.deals for m in after.moves if m.move == after.best)
    assert w.luck_error == pytest.approx(math.sqrt(
        statistics.variance(before_deals) / 8 + statistics.variance(after_deals) / 8))
    assert w.choices == 1  # 2-2 fits one end only: forced, but its luck is measured


def test_turns_without_deals_are_not_weighed(tmp_path: Path) -> None:
    path = tmp_path / "bare.mgn"
    text = HEAD + TURNS
    for face in ("d0-5", "d0-4", "d3-5", "d2-2", "d4-5"):
        text = text.replace(face, "d??")
    path.write_text(text, encoding="utf-8")
    match = parse_text(text)[0]
    weighed = list(weigh_match(match, record_resolver(str(path)), WeighOptions()))
    assert len(weighed) == 16
    assert all(not w.weighed and w.why is not None and "deal lines" in w.why for w in weighed)
    perfect = list(weigh_match(match, record_resolver(str(path)), WeighOptions(perfect=True)))
    assert all(not w.weighed for w in perfect)


def _w(player: str, choices: int, value: float | None, best: float | None,
       luck: float | None = None, line: int = 1, verdict: str | None = None,
       error: float | None = None, luck_error: float | None = None,
       exact: bool = False) -> Weighed:
    return Weighed(1, 1, line, 1, 0, player, "1-2R", choices, value, "3-4L", best, luck,
                   exact, 8, None if value is not None or choices == 1 else "no",
                   error=error, verdict=verdict, luck_error=luck_error)


def test_stats_add_up_the_turns() -> None:
    weighed = [
        _w("Ana", 3, 10.0, 12.5, error=1.5),  # lost 2.5
        _w("Ana", 2, -4.0, 6.0, luck=3.0, verdict="mistake", error=2.0,
           luck_error=4.0),  # lost 10: costly
        _w("Ana", 1, None, None, luck=-5.5, luck_error=3.0),  # forced: luck only
        _w("Ana", 4, None, None),  # could not be weighed
        _w("Budi", 2, 7.0, 7.0, exact=True),  # the best play, exactly
        _w("Budi", 3, 1.0, 5.5, verdict="close", error=0.6),  # near the line: not costly
        _w("Budi", 2, 0.0, 3.0, verdict="uncertain", error=2.0),
    ]
    ana, budi = solver_stats(["Ana", "Budi"], weighed, WeighOptions(costly=5))
    # The turns' deals are their own: errors add in quadrature (1.5, 2: 2.5; 4, 3: 5).
    assert ana == SolverStats("Ana", unforced=2, lost=12.5, costly=1, luck=-2.5, draws=2,
                              unweighed=1, lost_error=2.5, luck_error=5.0)
    assert ana.error_rate == 6.25 and ana.error_rate_error == 1.25
    # 4.5 and 3 lost; errors 0.6 and 2 in quadrature.
    assert budi == SolverStats("Budi", unforced=3, lost=7.5, exact=1, close=1, uncertain=1,
                               lost_error=pytest.approx(math.sqrt(0.36 + 4.0)))
    assert budi.error_rate == 2.5
    found = costly_findings(weighed, WeighOptions(costly=5))
    assert [(f.code, f.severity.value) for f in found] == [(COSTLY_PLAY, "warning")]
    assert found[0].message == ("Ana played 1-2R: 3-4L was 10 ± 2.0 points better by the "
                                "end of the round (solver, the mover's view, 8 deals)")
    noted = costly_findings(weighed, WeighOptions(costly=5), {1: "6-6R scored 10 (10 missed)"})
    assert noted[0].message.endswith("8 deals); at once, 6-6R scored 10 (10 missed)")
    exact = _w("Ana", 2, -4.0, 6.0, verdict="mistake", exact=True)
    assert costly_findings([exact], WeighOptions())[0].message == (
        "Ana played 1-2R: 3-4L was exactly 10 points better by the end of the round (solver, "
        "the mover's view, every one of the 8 deals)")


@pytest.mark.slow  # sampled or perfect searches: seconds
def test_sampled_costs_carry_their_standard_error(tmp_path: Path) -> None:
    """Every move is valued in the same deals; a play's cost is the mean of
    its paired shortfalls against the best, and its error their standard
    error. The best play itself has no error (its cost is 0 by definition)."""
    match, path = _club(tmp_path)
    options = WeighOptions(samples=6, seed=11, exact=0)
    checked = 0
    for d in decisions(match, record_resolver(path)):
        w = weigh_decision(d, options)
        if not (w.unforced and w.weighed):
            continue
        res = solve(d.at.rules, d.at.view(), Plan(mode="sample",
                    objective="points", samples=6, seed=11 * 1_000_003 + d.turn.line,
                    node_limit=options.node_limit(2)))
        assert all(len(mv.deals) == res.samples == 6 for mv in res.moves)
        for mv in res.moves:
            assert mv.value == pytest.approx(statistics.fmean(mv.deals))
        best = next(mv for mv in res.moves if mv.move == res.best)
        played = next(mv for mv in res.moves if isinstance(mv.move, Place)
                      and isinstance(d.move, Place) and mv.move.tile == d.move.tile
                      and mv.move.end == d.move.end)
        gaps = [b - p for b, p in zip(best.deals, played.deals)]
        assert w.cost == pytest.approx(statistics.fmean(gaps))
        if played is best:
            # Its cost is 0 as measured; its error is that of its lead over
            # the runner-up, which might yet prove the better play.
            runner = max((mv for mv in res.moves if mv is not played),
                         key=lambda mv: statistics.fmean(mv.deals))
            lead = [p - r for p, r in zip(played.deals, runner.deals)]
            assert w.cost == 0
            assert w.error == pytest.approx(statistics.stdev(lead) / math.sqrt(6))
        else:
            assert w.error == pytest.approx(statistics.stdev(gaps) / math.sqrt(6))
        assert w.value_error == pytest.approx(statistics.stdev(played.deals) / math.sqrt(6))
        assert w.best_value_error == pytest.approx(statistics.stdev(best.deals) / math.sqrt(6))
        checked += 1
    assert checked >= 5


def test_a_turns_weighing_does_not_depend_on_the_turns_weighed_before_it(
        tmp_path: Path) -> None:
    """Each turn's deals are seeded from the seed and its line, and what a
    search counts depends on its position alone (the node budgets stop the
    same searches at the same places): weighing the turns backwards, after
    every other turn, gives each the very same answer as forwards. The
    work bound is small, so that it ends most turns' deals, one of them
    mid-search."""
    match, path = _club(tmp_path)
    options = WeighOptions(samples=24, seed=9, exact=0, work=20_000, nodes=1_000)
    found = list(decisions(match, record_resolver(path)))
    forwards = [weigh_decision(d, options) for d in found]
    backwards = [weigh_decision(d, options) for d in reversed(found)][::-1]
    assert sum(w.weighed and w.unforced for w in forwards) >= 3
    assert sum(w.unfinished for w in forwards) >= 1
    assert forwards == backwards
    # Whatever happens, a turn searches at most its work bound and one
    # deal's cap, and counts every deal it dealt.
    assert all(w.nodes <= 20_000 + 1_000 and w.dropped == 0 for w in forwards)
    assert sum(w.dealt for w in forwards) > 0
