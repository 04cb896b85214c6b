"""The solver's search, timed position by position: one command.

    python bench/bench_kernels.py                          # this tree alone
    python bench/bench_kernels.py --against /old/src       # side by side with another tree
    python bench/bench_kernels.py --deals 12 --repeat 3
    python bench/bench_kernels.py --rows openings --against /old/src --repeat 1

Positions: rounds as dealt (seeds 0, 1, ...) under ``pagat`` and ``spinner``,
solved from the lead (three-player spinner: after three plies) with every
move valued (``solve``, perfect view, no
principal variation): two players, and three with the paranoid view. Each
tree runs in a process of its own (``PYTHONPATH``), compiles (or loads) its
search and warms up first, then solves every position; with ``--against``
the two trees take turns, ``--repeat`` times each, so that a busy machine
slows both alike. The values of every move must agree between the trees.

Printed per row: the fastest and the median CPU seconds a position (the
sum over the row's deals), the nodes a second (each tree counts its own
nodes: the two may count differently), and with ``--against`` the ratio of
the medians. The machine may be shared: compare the columns of one run.

The openings rows (``--rows openings``) are where ``analyze --solver``
spends its time: a round's first turn as its leader sees it, each deal of
the hidden tiles solved in full (``perfect``, every move valued, paranoid
for four players), as a sampled turn solves it. Two-player ``pagat``: every
round opening of ``records/club-night-pagat-2p.mgn`` and of two self-played
greedy matches, ``--open-deals`` deals each; four-player ``spinner``: every
round opening of ``records/pos-ronda-spinner-4p.mgn``, ``--open-deals-4p``
deals each. The deals are dealt once, here (the leader's view, seeded), and
handed to both trees, so they solve the same positions. Printed per tree:
nodes a deal (median, 90th percentile, most), the CPU milliseconds a deal
(median), and nodes a second over the row (fastest repeat).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "src"
sys.path.insert(0, str(HERE))
#: (rules, players, plies played before the position): a three-player
#: spinner round from its lead can take a minute for one deal, so that
#: row starts after the first round of turns.
ROWS = (("pagat", 2, 0), ("pagat", 3, 0), ("spinner", 2, 0), ("spinner", 3, 3))

#: Shared by both child scripts (each is run by another tree's Python).
_PARANOID = r"""# solve, the paranoid view without lines; a tree from before the solver's
# Plan took the plan's fields as keywords of solve.
def paranoid(rules, state, node_limit=None, **where):
    try:
        from muggins_cli.solver import Plan
    except ImportError:
        return solve(rules, state, pv=False, multi="paranoid", node_limit=node_limit, **where)
    return solve(rules, state, Plan(pv=False, multi="paranoid", node_limit=node_limit), **where)
"""

_CHILD = r"""
import json, random, sys, time
from muggins_cli.engine.state import apply, deal, legal_moves, new_round
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import solve

{paranoid}
deals = int(sys.argv[1])
rows = json.loads(sys.argv[2])

def positions(name, players, plies):
    rules = load_preset(name)
    out = []
    for seed in range(deals):
        hands, stock = deal(rules, players, random.Random(seed))
        state = new_round(hands, stock, 0)
        for _ in range(plies):  # the first legal move, a fixed line
            state, _ = apply(rules, state, legal_moves(rules, state)[0])
        out.append((rules, state))
    return out

work = [(name, players, positions(name, players, plies)) for name, players, plies in rows]
for _, _, row in work:  # compile (or load) and warm up
    paranoid(row[0][0], row[0][1])
out = []
for name, players, row in work:
    took = 0.0
    nodes = 0
    values = []
    for rules, state in row:
        start = time.process_time()
        res = paranoid(rules, state)
        took += time.process_time() - start
        nodes += res.nodes
        values.append([round(m.value, 6) for m in res.moves])
    out.append({"row": f"{name} {players}p", "seconds": took, "nodes": nodes,
                "values": values})
print(json.dumps(out))
""".replace("{paranoid}", _PARANOID)


_OPENINGS_CHILD = r"""
import json, sys, time
from muggins_cli.engine.state import new_round
from muggins_cli.rules.loader import load_preset
from muggins_cli.solver import solve

{paranoid}
from muggins_cli.tiles import Tile

rows = json.loads(open(sys.argv[1]).read())

def state(d):
    hands = [[Tile.parse(t) for t in h] for h in d["hands"]]
    return new_round(hands, [Tile.parse(t) for t in d["stock"]], d["leader"])

out = []
warm = True
for row in rows:
    rules = load_preset(row["rules"])
    if warm:  # compile (or load) and warm up
        paranoid(rules, state(row["deals"][0]), node_limit=1000)
        warm = False
    nodes, secs, values = [], [], []
    for d in row["deals"]:
        s = state(d)
        start = time.process_time()
        res = paranoid(rules, s, scores=d["scores"], target=d["target"])
        secs.append(time.process_time() - start)
        nodes.append(res.nodes)
        values.append([round(m.value, 6) for m in res.moves])
    out.append({"row": row["name"], "nodes": nodes, "seconds": secs, "values": values})
print(json.dumps(out))
""".replace("{paranoid}", _PARANOID)


def _run_child(src: Path, args: Sequence[str]) -> list[dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", *args], env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{src}: {done.stderr.strip().splitlines()[-1] if done.stderr else 'failed'}")
    result: list[dict[str, object]] = json.loads(done.stdout)
    return result


def run(src: Path, deals: int) -> list[dict[str, object]]:
    return _run_child(src, [_CHILD, str(deals), json.dumps(ROWS)])


def _openings(path: str, deals: int, seed: int) -> list[dict[str, object]]:
    """Each round opening of the record(s) at ``path``, ``deals`` deals of
    what its leader does not see (the solver's sampler, seeded)."""
    from muggins_cli.check import record_resolver
    from muggins_cli.notation.reading import read_matches

    out: list[dict[str, object]] = []
    for match in read_matches(path):
        out.extend(_dealt(match, record_resolver(path), deals, seed))
    return out


def _dealt(match: object, resolve: object, deals: int, seed: int) -> list[dict[str, object]]:
    from muggins_cli.replay.replay import run_replay
    from muggins_cli.replay.watch import Positions
    from muggins_cli.solver.knowledge import Sampler

    seen = Positions()
    run_replay(match, resolve, seen)  # type: ignore[arg-type]
    out: list[dict[str, object]] = []
    for pos, _ in seen.out:
        if pos.turn != 1 or pos.round_over or pos.match_over or pos.lead_tile is not None:
            continue
        sampler = Sampler(pos.view(), random.Random(seed * 1000 + pos.round))
        for _ in range(deals):
            s = sampler.deal()
            out.append({"hands": [sorted(str(t) for t in h) for h in s.hands],
                        "stock": [str(t) for t in s.stock], "leader": s.to_move,
                        "scores": list(pos.scores), "target": pos.target})
    return out


def _self_played(rules_name: str, players: int, matches: int, deals: int,
                 seed: int) -> list[dict[str, object]]:
    """The round openings of ``matches`` seeded greedy self-played matches."""
    from muggins_cli.check import record_resolver
    from muggins_cli.play.selfplay import play_match
    from muggins_cli.play.strategies import GreedyStrategy
    from muggins_cli.rules.loader import load_preset

    rules = load_preset(rules_name)
    out: list[dict[str, object]] = []
    for k in range(matches):
        rng = random.Random(seed + k)
        names = ["Ana", "Budi", "Chen", "Dara"][:players]
        outcome = play_match(rules, names, [GreedyStrategy() for _ in names], rng,
                             rules_tag=rules_name)
        out.extend(_dealt(outcome.record, record_resolver("-"), deals, seed + k))
    return out


def openings(deals2: int, deals4: int) -> list[dict[str, object]]:
    """The openings rows' deals, dealt here once for both trees."""
    two = _openings(str(ROOT / "records" / "club-night-pagat-2p.mgn"), deals2, 1)
    two += _self_played("pagat", 2, 2, deals2, 7)
    four = _openings(str(ROOT / "records" / "pos-ronda-spinner-4p.mgn"), deals4, 1)
    return [{"name": "openings pagat 2p", "rules": "pagat", "deals": two},
            {"name": "openings spinner 4p", "rules": "spinner", "deals": four}]


def _opening_rows(trees: dict[str, Path], rows: list[dict[str, object]], repeat: int) -> None:
    for row in rows:
        if not row["deals"]:
            print(f"{row['name']}: no deals asked for")
    rows = [row for row in rows if row["deals"]]
    if not rows:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rows, f)
    try:
        got: dict[str, list[list[dict[str, object]]]] = {t: [] for t in trees}
        for _ in range(repeat):
            for name, src in trees.items():
                got[name].append(_run_child(src, [_OPENINGS_CHILD, f.name]))
    finally:
        os.unlink(f.name)
    for i, row in enumerate(rows):
        deals = row["deals"]
        assert isinstance(deals, list)
        print(f"{row['name']}: {len(deals)} deals of round openings, x{repeat}:")
        spent: dict[str, list[float]] = {}
        for name in trees:
            reps = [rep[i] for rep in got[name]]
            nodes = [int(x) for x in reps[0]["nodes"]]  # type: ignore[attr-defined]
            totals = [sum(r["seconds"]) for r in reps]  # type: ignore[call-overload]
            spent[name] = totals
            ms = statistics.median(
                statistics.median(r["seconds"]) for r in reps) * 1000  # type: ignore[call-overload]
            p90 = statistics.quantiles(nodes, n=10, method="inclusive")[-1] if len(nodes) > 1 \
                else nodes[0]
            print(f"  {name:5}  nodes a deal: median {statistics.median(nodes):>12,.0f}  "
                  f"p90 {p90:>12,.0f}  max {max(nodes):>12,}   "
                  f"median {ms:9.1f} ms a deal  {sum(nodes) / min(totals):>11,.0f} nodes/s")
            print(f"         the row: fastest {min(totals):8.2f} s  "
                  f"median {statistics.median(totals):8.2f} s")
        if len(trees) == 2:
            this, other = spent["this"], spent["other"]
            print(f"  this/other: fastest {min(this) / min(other):.3f}  "
                  f"median {statistics.median(this) / statistics.median(other):.3f}")
            if got["this"][0][i]["values"] != got["other"][0][i]["values"]:
                sys.exit(f"the two trees disagree on a value ({row['name']})")
            print("  same values")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", type=Path, help="another tree's src/ folder")
    ap.add_argument("--rows", choices=("all", "kernels", "openings"), default="all",
                    help="the rows from the lead (kernels), the round openings, or both")
    ap.add_argument("--open-deals", type=int, default=4,
                    help="deals a two-player opening (openings rows)")
    ap.add_argument("--open-deals-4p", type=int, default=2,
                    help="deals a four-player opening (openings rows)")
    a = ap.parse_args(argv)
    trees = {"this": HERE} | ({"other": a.against} if a.against else {})
    if a.rows != "kernels":
        _opening_rows(trees, openings(a.open_deals, a.open_deals_4p), a.repeat)
    if a.rows == "openings":
        return
    got: dict[str, list[list[dict[str, object]]]] = {t: [] for t in trees}
    for _ in range(a.repeat):
        for name, src in trees.items():
            got[name].append(run(src, a.deals))
    for i, (rules, players, plies) in enumerate(ROWS):
        start = "the lead" if not plies else f"ply {plies + 1}"
        print(f"{rules}, {players} players, {a.deals} deals from {start}, x{a.repeat}:")
        medians = {}
        for name in trees:
            rows = [rep[i] for rep in got[name]]
            secs = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
            nodes = int(rows[0]["nodes"])  # type: ignore[call-overload]
            medians[name] = statistics.median(secs)
            print(f"  {name:5}  min {min(secs) / a.deals * 1000:8.1f} ms  median "
                  f"{medians[name] / a.deals * 1000:8.1f} ms a position  "
                  f"{nodes / min(secs):12,.0f} nodes/s  ({nodes // a.deals:,} nodes a position)")
        if len(trees) == 2:
            if got["this"][0][i]["values"] != got["other"][0][i]["values"]:
                sys.exit(f"the two trees disagree on a value ({rules}, {players} players)")
            print(f"  same values; median time other/this: "
                  f"{medians['other'] / medians['this']:.2f}x")


if __name__ == "__main__":
    main()
