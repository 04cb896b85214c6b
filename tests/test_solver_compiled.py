"""The compiled two-player search (solver/compiled.py) against the Python
one (solver/perfect.py), the second model: the same values, the same node
counts, the same stop under a node budget, on positions too large for the
exhaustive oracle of test_solver.py (which runs the compiled search on the
small ones)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins_cli.engine.state import deal, new_round
from muggins_cli.engine.table import table_for
from muggins_cli.solver import compiled as compiled_module
from muggins_cli.solver import solve
from muggins_cli.solver.common import Budget, Objective
from muggins_cli.solver.perfect import Perfect2
from tests.test_solver import VARIANTS
from tests.test_solver_reference import endgame

TWO_PLAYER = list(VARIANTS)
#: Tiles in play in the compared positions (the oracle of test_solver.py takes 10).
LEFT = 15


def _early(rules_name: str, seed: int, left: int):  # type: ignore[no-untyped-def]
    """A two-player round with ``left`` tiles in the hands and the stock:
    more than the exhaustive oracle can take, few enough for the Python
    search to finish in a second."""
    rules = VARIANTS[rules_name]
    return rules, endgame(rules, 2, seed, left)


def _dealt(rules_name: str, seed: int):  # type: ignore[no-untyped-def]
    """A two-player round as dealt: a whole round to search (pagat: a few
    thousand nodes to tens of thousands)."""
    rules = VARIANTS[rules_name]
    rng = random.Random(seed)
    hands, stock = deal(rules, 2, rng)
    return rules, new_round(hands, stock, 0)


def _both(monkeypatch: pytest.MonkeyPatch, rules, state, **kw):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "1")
    py = solve(rules, state, **kw)
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "0")
    compiled = solve(rules, state, **kw)
    return py, compiled


def _summary(res):  # type: ignore[no-untyped-def]
    return ([(m.move, m.value, m.pv) for m in res.moves], res.value, res.nodes, res.stopped,
            res.exact)


@pytest.mark.parametrize("name", TWO_PLAYER)
def test_same_values_and_nodes_as_the_python_search(name: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(3):
        rules, state = _early(name, 7000 + seed, LEFT + seed)
        py, compiled = _both(monkeypatch, rules, state, scores=[0, 0])
        assert py.exact and py.stopped is None
        assert _summary(compiled) == _summary(py), (name, seed)


@pytest.mark.parametrize("name", ["pagat", "spinner", "no-must-play"])
def test_near_the_target_the_distances_count_alike(name: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rules, state = _early(name, 7100, LEFT)
    target = rules.target_for(2)
    for scores in ([target - 10, target - 25], [target - 5, 0]):
        py, compiled = _both(monkeypatch, rules, state, scores=scores, target=target)
        assert _summary(compiled) == _summary(py), scores


def test_a_node_budget_stops_both_at_the_same_node(monkeypatch: pytest.MonkeyPatch) -> None:
    rules, state = _dealt("pagat", 7200)
    stopped = 0
    for limit in (500, 3_000, 20_000):
        py, compiled = _both(monkeypatch, rules, state, node_limit=limit, pv=False)
        assert _summary(compiled) == _summary(py), limit
        stopped += py.stopped is not None
    assert stopped >= 2  # the budgets really cut the searches short


def test_sampled_values_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rules, state = _early("pagat", 7300, LEFT + 4)
    py, compiled = _both(monkeypatch, rules, state, mode="sample", samples=6, seed=3, pv=False,
                         node_limit=200_000)
    assert [(m.move, m.value, m.deals) for m in compiled.moves] == [
        (m.move, m.value, m.deals) for m in py.moves]


def test_a_fresh_table_and_a_growing_table_give_the_same_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules value never seen before: the compiled search stops at every
    layout it lacks and starts again; and a transposition table that starts
    with room for 32 entries grows many times. Neither may change a value
    or a node count (each restart undoes what the stopped attempt stored)."""
    rules = dataclasses.replace(VARIANTS["pagat"], name="pagat-fresh-for-the-test")
    state = _dealt("pagat", 7400)[1]
    monkeypatch.setattr(compiled_module, "TT_START", 64)
    monkeypatch.setattr(compiled_module, "_FREE_TABLES", [])
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "0")
    compiled = solve(rules, state, pv=False)
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "1")
    py = solve(rules, state, pv=False)
    assert compiled.nodes > 1_000  # far more entries than 64 slots hold
    assert _summary(compiled) == _summary(py)


def test_the_compiled_search_is_the_one_used() -> None:
    """Else every test above would compare the Python search with itself."""
    rules = VARIANTS["pagat"]
    table = table_for(rules)
    search = Perfect2(rules, table, [1, 2, 3], Objective.POINTS, Budget(None, None), False)
    assert search.compiled is not None
    search.release()
    assert Perfect2(rules, table, [1, 2, 3], Objective.MATCH, Budget(None, None),
                    False).compiled is None
    assert Perfect2(rules, table, [1, 2, 3], Objective.POINTS, Budget(5.0, None),
                    False).compiled is None


def test_a_layout_interned_after_the_search_began(monkeypatch: pytest.MonkeyPatch) -> None:
    """The root asks for its canonical id after the search is built, which
    may intern ids the compiled search was not given: it read past the end
    of its arrays (wrong values after 8 spinner endgames, in the suite)."""
    rules = dataclasses.replace(VARIANTS["pagat"], name="pagat-9-interned-late", max_pip=9)
    table = table_for(rules)
    hands, stock = deal(rules, 2, random.Random(7500))
    state = new_round(hands, stock, 0)

    def value(pure: str) -> int:
        monkeypatch.setenv("MUGGINS_PURE_PYTHON", pure)
        search = Perfect2(rules, table, [], Objective.POINTS, Budget(None, None), False)
        # Hundreds of layouts interned after the search was built.
        todo, seen = [table.empty], {table.empty}
        while todo:
            for _, _, nl, _ in table.search_moves(todo.pop()):
                if nl not in seen:
                    seen.add(nl)
                    todo.append(nl)
        late = max(seen)
        assert late > 300  # past the 256 ids the search's arrays first hold
        me = sum(1 << t.index() for t in state.hands[0])
        op = sum(1 << t.index() for t in state.hands[1])
        return search.nega(me, op, late, 0, 250, 250, -1000, 1000)

    assert value("0") == value("1")


PARANOID_VARIANTS = ["pagat", "spinner", "no-must-play", "reserve-2", "winner-takes",
                     "sides-first-until-covered", "multiples-free-draw"]


@pytest.mark.parametrize("name", PARANOID_VARIANTS)
@pytest.mark.parametrize("players", [3, 4])
def test_paranoid_same_values_and_nodes_as_the_python_search(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three and four players (solver/compiled_paranoid.py): the same
    values and node counts as the Python paranoid search, some seats near
    the target (the distances enter the key) and some not."""
    rules = VARIANTS[name]
    target = rules.target_for(players)
    for seed in range(3):
        state = endgame(rules, players, 9000 + seed, 14 + seed)
        scores = [target - 10, target - 25, 0, target - 5][:players] if seed % 2 else None
        py, compiled = _both(monkeypatch, rules, state, multi="paranoid", pv=False,
                             scores=scores, target=target)
        assert py.exact and py.stopped is None
        assert _summary(compiled) == _summary(py), (name, players, seed)


def test_paranoid_under_a_node_budget_stops_at_the_same_node(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = VARIANTS["pagat"]
    hands, stock = deal(rules, 3, random.Random(7600))
    state = new_round(hands, stock, 0)
    stopped = 0
    for limit in (300, 2_000, 10_000):
        py, compiled = _both(monkeypatch, rules, state, multi="paranoid", node_limit=limit,
                             pv=False)
        assert _summary(compiled) == _summary(py), limit
        stopped += py.stopped is not None
    assert stopped >= 2


@pytest.mark.parametrize("name", ["pagat", "spinner", "winner-takes", "rounding-down",
                                  "rounding-up"])
def test_the_compiled_settlement_is_the_engines(name: str) -> None:
    """The one piece of the engine the paranoid kernel writes again: held to
    engine.scoring.settle on random hands, every seat count, with and
    without a player out, weighted as the search weighs it."""
    import numpy as np

    from muggins_cli.engine.scoring import settle
    from muggins_cli.rules.model import Rounding
    from muggins_cli.solver import compiled_paranoid as cp
    from muggins_cli.solver.compiled import _pip_chunks
    from muggins_cli.solver.paranoid import weights

    base = {"rounding-down": "pagat", "rounding-up": "spinner"}.get(name, name)
    rules = VARIANTS[base]
    if name == "rounding-down":
        rules = dataclasses.replace(rules, name=name, rounding=Rounding.DOWN)
    if name == "rounding-up":
        rules = dataclasses.replace(rules, name=name, rounding=Rounding.UP)
    table = table_for(rules)
    rng = random.Random(7700)
    checked = 0
    for _ in range(400):
        players = rng.choice([3, 4])
        tiles = list(range(table.n_tiles))
        rng.shuffle(tiles)
        hands = [sum(1 << t for t in tiles[5 * i: 5 * i + rng.randrange(0, 6)])
                 for i in range(players)]
        went_out = rng.choice([None, *[i for i in range(players) if not hands[i]]])
        root = rng.randrange(players)
        s = np.zeros(cp.S_SIZE, dtype=np.int64)
        s[cp.N] = players
        s[cp.ROUND_END] = cp._ROUND_END[rules.round_end]
        s[cp.DIVISOR] = rules.bonus_divisor
        w = weights(players, root)
        s[cp.W0:cp.W0 + players] = w
        h = np.zeros(4, dtype=np.int64)
        h[:players] = hands
        got = cp._settle(s, cp._rounding(rules, table), _pip_chunks(table), h,
                         -1 if went_out is None else went_out)
        pips = [sum(table.by_index[t].pips for t in range(table.n_tiles) if hand >> t & 1)
                for hand in hands]
        want = sum(a * b for a, b in zip(w, settle(rules, pips, went_out)))
        assert got == want, (hands, went_out, root)
        checked += 1
    assert checked == 400


@pytest.mark.parametrize("name", ["pagat", "spinner", "double-nine", "double-twelve"])
def test_runs_compiled_says_which_search_solve_builds(name: str) -> None:
    """``runs_compiled`` (what the solver strategy budgets by) agrees with
    the search the solver really builds, for two players and for the
    paranoid three-player search, on every objective, timed or not."""
    import dataclasses as dc

    from muggins_cli.solver import Multi, runs_compiled
    from muggins_cli.solver.paranoid import Paranoid

    rules = VARIANTS.get(name) or dc.replace(
        VARIANTS["pagat"], name=name, max_pip={"double-nine": 9, "double-twelve": 12}[name])
    table = table_for(rules)
    seen = set()
    for objective in (Objective.POINTS, Objective.MATCH):
        for timed in (False, True):
            budget = Budget(5.0 if timed else None, None)
            two = Perfect2(rules, table, [1, 2, 3], objective, budget, False)
            three = Paranoid(rules, table, 3, 0, [1, 2, 3], objective, budget, False)
            assert runs_compiled(rules, 2, objective, timed=timed) == (
                two.compiled is not None), (objective, timed)
            assert runs_compiled(rules, 3, objective, timed=timed, multi="paranoid") == (
                three.compiled is not None), (objective, timed)
            assert not runs_compiled(rules, 3, objective, timed=timed, multi=Multi.MAXN)
            seen.add((two.compiled is not None, three.compiled is not None))
            two.release()
    # Untimed points: compiled where the hands fit its words (28 tiles in
    # the paranoid search's 31 bits, 55 in the two-player search's 56).
    assert (name != "double-twelve", name in ("pagat", "spinner")) in seen
