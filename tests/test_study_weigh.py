"""What the study page reads from the weighing: every candidate play of a
turn with its value, its cost and their errors, the solver's line after
it, and the error of the turn's luck; checked against an exhaustive
search over the engine and against the solver's own deals."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from muggins_cli.analysis.verdicts import WeighOptions
from muggins_cli.analysis.weigh import weigh_decision, weigh_match
from muggins_cli.check import record_resolver
from muggins_cli.engine.state import UnseenDraw, apply, legal_moves
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import decisions
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import Plan, solve

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS
from .test_solver_reference import move_value2
from .test_weigh import _resolve, _selfplay


def test_every_legal_play_is_a_candidate_valued_as_an_exhaustive_search() -> None:
    """Late in each round (few tiles left), all-seeing: the candidates are
    exactly the engine's legal moves, each valued as a plain minimax values
    it, ranked best first, each cost the best's value less its own; the
    line after each is a legal way on to the round's end."""
    rules = load_preset("pagat")
    checked = lines = 0
    for seed in range(2):
        match, _ = _selfplay(rules, 2, seed, target=250)
        found = decisions(match, _resolve(rules))
        weighed = weigh_match(match, _resolve(rules),
                              WeighOptions(perfect=True, nodes=0, lines=True))
        for d, w in zip(found, weighed, strict=True):
            at = d.at
            if not w.unforced:
                assert w.candidates == ()
            if not w.unforced or sum(at.hand_sizes) + at.stock_count > 7:
                continue  # a plain minimax is slow with many tiles out
            state = at.state()
            dists = [at.target - s for s in at.scores]
            legal = legal_moves(rules, state)
            assert sorted(map(str, (c.move for c in w.candidates))) == sorted(map(str, legal))
            values = [move_value2(rules, state, c.move, dists, False) for c in w.candidates]
            assert [c.value for c in w.candidates] == values
            assert values == sorted(values, reverse=True)
            assert w.candidates[0].value == w.best_value
            for c in w.candidates:
                assert c.cost == values[0] - c.value
                assert c.error is None and c.value_error is None and c.deals == 0
                s, _ = apply(rules, state, c.move)
                for m in c.line:
                    assert not s.over and m in legal_moves(rules, s), (c, m)
                    s, _ = apply(rules, s, m)
                assert s.over  # the line goes on to the round's end
                lines += bool(c.line)
            checked += 1
    assert checked >= 12 and lines >= 20, (checked, lines)


def test_a_sampled_candidate_carries_its_errors_from_the_deals(tmp_path: Path) -> None:
    """In the mover's view each value is an average over deals: its error
    is their standard error, and a cost's error is that of the differences
    deal by deal, against the best play's values in the same deals."""
    path = tmp_path / "club.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    match = parse_text(path.read_text(encoding="utf-8"))[0]
    options = WeighOptions(samples=8, seed=5)
    # Siti Rahma's 1-6 on line 15: three plays to choose from.
    d = next(d for d in decisions(match, record_resolver(str(path))) if d.turn.line == 15)
    w = weigh_decision(d, options)
    assert w.unforced and len(w.candidates) == w.choices == 3
    res = solve(d.at.rules, d.at.view(), Plan(mode="sample", objective="points", samples=8,
                seed=5 * 1_000_003 + 15, node_limit=options.node_limit(2)))
    deals = {str(m.move): m.deals for m in res.moves}
    best = deals[str(w.candidates[0].move)]
    for c in w.candidates:
        mine = deals[str(c.move)]
        assert c.deals == len(mine) == 8
        assert c.value == sum(mine) / 8
        assert c.value_error == statistics.stdev(mine) / math.sqrt(8)
        diffs = [b - m for b, m in zip(best, mine)]
        assert c.cost == max(0.0, sum(best) / 8 - c.value)
        if c is w.candidates[0]:
            assert c.error is None
        else:
            assert c.error == statistics.stdev(diffs) / math.sqrt(8)


def test_the_error_of_luck_adds_the_two_searches_errors(tmp_path: Path) -> None:
    """Siti (line 23) drew 3-5 and 2-2: luck is the value she drew into
    less the value of drawing, from two searches dealt apart, so its error
    is the root of the sum of their squared standard errors."""
    path = tmp_path / "club.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    match = parse_text(path.read_text(encoding="utf-8"))[0]
    options = WeighOptions(samples=8, seed=3)
    d = next(d for d in decisions(match, record_resolver(str(path))) if d.turn.line == 23)
    assert d.start is not None
    w = weigh_decision(d, options)
    rules = d.at.rules
    before = solve(rules, d.start.view(), Plan(mode="sample", objective="points",
                   samples=8, seed=3 * 1_000_003 - 23, node_limit=options.node_limit(2)))
    after = solve(rules, d.at.view(), Plan(mode="sample", objective="points",
                  samples=8, seed=3 * 1_000_003 + 23, node_limit=options.node_limit(2)))
    drew = next(m.deals for m in before.moves if isinstance(m.move, UnseenDraw))
    kept = next(m.deals for m in after.moves if m.move == after.best)
    se = [statistics.stdev(x) / math.sqrt(len(x)) for x in (drew, kept)]
    assert w.luck is not None and w.luck_error is not None
    assert w.luck_error == math.sqrt(se[0] ** 2 + se[1] ** 2) > 0
