"""How far the solver's verdicts can be trusted: one command, prints figures.

    python bench/bench_verdicts.py stability            # club record, 5 seeds
    python bench/bench_verdicts.py stability --record records/family-pagat-3p.mgn --seeds 1,2,3
    python bench/bench_verdicts.py accuracy             # every record of the reference
    python bench/bench_verdicts.py reference --record R --record S ...   # (slow: hours)

``stability`` weighs every turn with a choice of a record once for each
seed, with the default settings otherwise (``--set name=value`` changes a
field of ``WeighOptions`` for every run, to compare variants), and prints
for each run how many turns were flagged (a mistake or a blunder), fine,
close, uncertain, not weighed and exact, the deals a turn took, the deals
dealt, dropped (never counted: must be 0) and counted with a bound, the
nodes and the most a turn searched against its work bound plus one deal's
cap, and the seconds; then the aims, counting ``close`` as neither flagged
nor fine (:data:`COUNTING`, printed with them):

- at most 5% of the turns with a choice without a verdict (``uncertain``
  or not weighed), in every run;
- at least 95% of the turns flagged in any run flagged in every run (a turn
  flagged in one run and ``close`` in another counts against it);
- no turn flagged in one run and ``fine`` in another;

and beside them the turns ``close`` in some run, and how many of those
were flagged or fine in another, the turns without a verdict in every run,
and every verdict that moved.

``accuracy`` compares each turn's verdict, at the default settings, with
the reference (``bench/verdicts-reference.json``: every move valued in each
of 4,096 deals a turn, made by ``reference``). A verdict agrees when what it
states holds of the reference: ``fine`` that the cost is below
``--mistake``, ``mistake`` that it is from ``--mistake`` to ``--blunder``
(or above, when the run left a blunder open: "at least a mistake"),
``blunder`` that it is at least ``--blunder``, ``close`` that it lies
within the zone (``close`` points of ``--mistake`` either way),
``uncertain`` that it lies in the range the run gave; the reference's own
cost is taken with two standard errors either side, so a reference turn on
a threshold agrees with either side of it. The point verdict (the run's
mean cost read against the thresholds, no error) is printed beside it, and
the count of each verdict with how many agreed. Aim: at least 97% on at
least 120 turns from a two-player, a three-player and a spinner record, at
least 20 of them the spinner's.

``reference`` values every move of every turn with a choice of each record
in 4,096 deals, each solved whole however long it takes (no node cap: a
deal put aside for its cost would leave the costly deals out of the truth),
seed 9,999, and writes each turn to ``--reference`` as it is done, so a
stopped run goes on where it was (``--every N`` takes every N-th turn only,
``--start K`` from the K-th of those, to share them out; ``--keep-deals
DIR`` also writes each turn's values deal by deal). Run it at low priority:
``nohup nice -n 10 python bench/bench_verdicts.py reference ... &``. The
reference kept in ``bench/`` (146 turns) was made in two steps. First, with
each deal capped at 1,000,000 nodes and a deal over it replaced by
another::

    python bench/bench_verdicts.py reference --record records/club-night-pagat-2p.mgn \
        --every 3 --jobs 1
    python bench/bench_verdicts.py reference --record records/family-pagat-3p.mgn \
        --every 6 --jobs 1
    python bench/bench_verdicts.py reference --record records/spinner-3p.mgn \
        --every 2 --jobs 1                          # 21 of its 24 turns

of which only the turns none of whose deals passed the cap are kept (those
are the same with no cap; a turn with a deal replaced had its truth made of
its easy deals): the family's lines 14, 42, 255, 275, 430, 486, 570 and 601
and the spinner's 14, 39, 61, 63 and 88 are out, and the club's 193 and
219. Then with every deal solved whole::

    python bench/bench_verdicts.py reference --record records/club-night-pagat-2p.mgn \
        --every 1 --jobs 1        # every club turn with a choice to line 184
    python bench/bench_verdicts.py reference --record records/spinner-3p.mgn --jobs 1 \
        --lines 17,20,22,25,46,48,64,68,71,73,89,91,99,102,106

so the club record has 87 turns (every one to line 184, every 3rd after),
the family record 29 and spinner-3p 30.

``variance`` measures what the usual ways to take noise out of a sampled
cost could buy on chosen turns (``--lines``, default the club record's
turns whose cost lies nearest a threshold), from ``--deals`` deals a turn
(256), every move valued in each, the cost being the best move's value less
the play made's, deal by deal:

- strata over how the hidden tiles split between the hands and the stock:
  the deals are drawn as 32 splits of 8 stock orders each, and the share of
  the cost's variance that lies between splits is the most any
  stratification over the split could remove (strata of single splits);
- regression on where each tile lies (each hand, the stock's first three
  places): the share of the variance a linear fit explains out of sample
  (two folds), what a control variate or strata built on those would remove;
- control variates with a cheaper value of the same deal: a greedy playout
  (each side takes its highest score) and a search of the deal with its
  stock cut to 4 tiles. For each, the correlation with the cost, its cost
  next to a deal's search, and the variance per second of search next to
  plain deals, at the best split between the two (their mean over many
  more cheap deals), ``(sqrt(1 - r^2) + sqrt(r^2 c))^2``: below 1 pays.

Work is spread over ``--jobs`` processes (default 2), turn by turn; the
CPU seconds are the searches' own, summed over the processes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from muggins_cli.analysis.plays import written
from muggins_cli.analysis.race import cost_error, move_of
from muggins_cli.analysis.verdicts import BLUNDER, CLOSE, FINE, MISTAKE, UNCERTAIN, WeighOptions
from muggins_cli.analysis.weigh import Weighed, _choices, weigh_decision
from muggins_cli.check import record_resolver
from muggins_cli.engine.scoring import settle
from muggins_cli.engine.state import (
    Place,
    RoundState,
    apply,
    as_seen,
    legal_moves,
    placement_score,
)
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.position import Decision
from muggins_cli.replay.replay import decisions
from muggins_cli.solver import Multi, Plan, Sampler, solve
from muggins_cli.tiles import full_set

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "records" / "club-night-pagat-2p.mgn"
REFERENCE = ROOT / "bench" / "verdicts-reference.json"
REF_DEALS = 4096
REF_SEED = 9_999
AIM_UNCERTAIN, AIM_STABLE, AIM_ACCURATE, AIM_TURNS = 0.05, 0.95, 0.97, 120
AIM_SPINNER = 20

_DECISIONS: dict[str, list[Decision]] = {}


def _decisions(path: Path) -> list[Decision]:
    match = parse_text(path.read_text(encoding="utf-8"))[0]
    return list(decisions(match, record_resolver(str(path))))


def _decision(path: str, index: int) -> Decision:
    return _DECISIONS.setdefault(path, _decisions(Path(path)))[index]


def unforced(path: Path) -> list[int]:
    """Indexes of the decisions with a choice (hand seen, several moves)."""
    out = []
    for i, d in enumerate(_decisions(path)):
        c = _choices(d.at)
        if d.move is not None and c is not None and c > 1:
            out.append(i)
    return out


def _weigh(args: tuple[str, int, WeighOptions]) -> tuple[Weighed, float]:
    path, index, options = args
    d = _decision(path, index)
    start = time.process_time()
    w = weigh_decision(d, options)
    return w, time.process_time() - start


def weigh_all(path: Path, indexes: Sequence[int], options: WeighOptions,
              jobs: int) -> list[tuple[Weighed, float]]:
    work = [(str(path), i, options) for i in indexes]
    if jobs == 1:
        return [_weigh(w) for w in work]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_weigh, work, chunksize=1))


def options_with(settings: Sequence[str], **more: Any) -> WeighOptions:
    """The default options with ``name=value`` settings applied."""
    fields = {f.name: f for f in dataclasses.fields(WeighOptions)}
    changes: dict[str, Any] = {}
    for item in settings:
        name, _, value = item.partition("=")
        if name not in fields:
            raise SystemExit(f"--set {item}: WeighOptions has no field {name!r}")
        changes[name] = None if value == "None" else type(getattr(WeighOptions(), name) or 0)(
            float(value) if "." in value else int(value))
    return dataclasses.replace(WeighOptions(), **changes, **more)


#: How each verdict counts in the stability figures (printed with them).
COUNTING = (
    "counting: flagged = mistake or blunder (a cost above --mistake beyond its "
    "uncertainty); close = known to lie within the close zone of --mistake, neither flagged "
    "nor fine; without a verdict = uncertain or not weighed. A turn flagged in one run and "
    "close in another counts against 'flagged in every run'; one flagged in a run and fine "
    "in another is a flip (close in between is no flip, and is counted apart)")


def stability(path: Path, seeds: Sequence[int], jobs: int, settings: Sequence[str]) -> None:
    idx = unforced(path)
    base = options_with(settings)
    players = players_of(path)
    print(f"{path.name}: {len(idx)} turns with a choice; options {base}", flush=True)
    print(COUNTING)
    runs: list[dict[int, Weighed]] = []
    for seed in seeds:
        start = time.perf_counter()
        got = weigh_all(path, idx, dataclasses.replace(base, seed=seed), jobs)
        wall = time.perf_counter() - start
        cpu = sum(t for _, t in got)
        by_line = {w.line: w for w, _ in got}
        runs.append(by_line)
        ws = [w for w, _ in got if w.weighed]
        count = {v: sum(w.verdict == v for w in ws)
                 for v in (FINE, CLOSE, MISTAKE, BLUNDER, UNCERTAIN)}
        without = count[UNCERTAIN] + len(idx) - len(ws)
        deals = [w.samples for w in ws if not w.exact]
        print(f"seed {seed}: {count[MISTAKE] + count[BLUNDER]} flagged ({count[BLUNDER]} "
              f"blunders), {count[FINE]} fine, {count[CLOSE]} close "
              f"({100 * count[CLOSE] / len(idx):.1f}%), {count[UNCERTAIN]} uncertain, "
              f"{len(idx) - len(ws)} not weighed: {without} without a verdict "
              f"({100 * without / len(idx):.1f}%); {sum(w.exact for w in ws)} exact; deals "
              f"median {statistics.median(deals) if deals else 0:.0f} max "
              f"{max(deals, default=0)}; {work_figures([w for w, _ in got], base, players)}; "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU in the weighing", flush=True)
    lines = sorted(runs[0])
    flagged = [{ln for ln in lines if r[ln].costly} for r in runs]
    anyf = set().union(*flagged)
    allf = set.intersection(*flagged)
    share = len(allf) / len(anyf) if anyf else 1.0
    unsure = max(sum(r[ln].verdict == UNCERTAIN or not r[ln].weighed for ln in lines)
                 for r in runs) / len(idx)
    contra = sorted(ln for ln in lines if any(r[ln].costly for r in runs)
                    and any(r[ln].verdict == FINE for r in runs))
    near = [ln for ln in lines if any(r[ln].verdict == CLOSE for r in runs)]
    near_flag = [ln for ln in near if any(r[ln].costly for r in runs)]
    near_fine = [ln for ln in near if any(r[ln].verdict == FINE for r in runs)]
    print(f"{path.name}, {len(runs)} runs:")
    print(f"  without a verdict: at most {100 * unsure:.1f}% of the turns with a choice in a "
          f"run (aim: at most {100 * AIM_UNCERTAIN:.0f}%): {_met(unsure <= AIM_UNCERTAIN)}")
    print(f"  flagged in any run {len(anyf)}, in all {len(runs)} runs {len(allf)}: "
          f"{100 * share:.1f}% (aim: at least {100 * AIM_STABLE:.0f}%): "
          f"{_met(share >= AIM_STABLE)}")
    print(f"  flagged in one run and fine in another: {len(contra)} "
          f"{contra if contra else ''} (aim: none): {_met(not contra)}")
    print(f"  close in some run: {len(near)} turns ({100 * len(near) / len(idx):.1f}%); of "
          f"them flagged in another run {len(near_flag)}, fine in another {len(near_fine)}")
    never = [ln for ln in lines if all(r[ln].verdict == UNCERTAIN or not r[ln].weighed
                                       for r in runs)]
    print(f"  without a verdict in every run: {len(never)} turns "
          + ", ".join(f"{ln} ({runs[0][ln].cost:.1f} ± {runs[0][ln].error or 0:.1f} over "
                      f"{runs[0][ln].samples} deals)" for ln in never))
    print("  verdicts that moved (line: the verdict by run):")
    for ln in lines:
        said = [r[ln].verdict or "-" for r in runs]
        if len(set(said)) > 1:
            w = runs[0][ln]
            print(f"    {ln}: {' '.join(s[:4] for s in said)}  (cost {w.cost:.1f} ± "
                  f"{w.error or 0:.1f} over {w.samples} deals in the first run)")


def work_figures(ws: Sequence[Weighed], options: WeighOptions, players: int) -> str:
    """The deals dealt and those not counted, and the most nodes a turn
    searched against its work bound plus one deal's cap."""
    work, cap = options.work_limit(players), options.node_limit(players)
    most = max((w.nodes for w in ws), default=0)
    past = ("" if work is None or cap is None else
            f", {(most - work - cap) / 1e6:+.2f}M past its work bound plus one deal's cap")
    return (f"{sum(w.solved for w in ws)} deals searched, {sum(w.dealt for w in ws)} dealt, "
            f"{sum(w.dropped for w in ws)} dropped, "
            f"{sum(w.unfinished for w in ws)} counted with a bound; "
            f"{sum(w.nodes for w in ws) / 1e6:.1f}M nodes, the most a turn {most / 1e6:.2f}M"
            f"{past}")


def players_of(path: Path) -> int:
    return len(_decisions(path)[0].at.players)


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def reference_turn(args: tuple[str, int, int, int]) -> dict[str, Any]:
    """One turn of the reference: every move valued in every one of
    ``deals`` deals, the cost of the play made and its standard error."""
    path, index, deals, seed = args
    d = _decision(path, index)
    pos = d.at
    assert d.move is not None
    start = time.process_time()
    # Every deal dealt is solved whole, however long it takes: a deal put
    # aside for its cost would leave the costly deals out of the truth.
    res = solve(pos.rules, pos.view(), Plan(mode="sample", objective="points",
                node_limit=None, samples=deals, pv=False,
                seed=seed * 1_000_003 + d.turn.line, multi=Multi.PARANOID,
                enough=lambda per, done: list(per)))
    played = move_of(res, d.move)
    best = move_of(res, res.best) if res.best is not None else None
    assert played is not None and best is not None and res.value is not None
    cost = max(0.0, res.value - (played.value or 0.0))
    return {"line": d.turn.line, "played": written(d.turn), "best": str(best.move),
            "cost": cost, "error": 0.0 if res.exact else cost_error(res, d.move) or 0.0,
            "deals": res.samples, "exact": res.exact, "replaced": res.dealt - res.samples,
            "seconds": round(time.process_time() - start, 2),
            "values": {str(mv.move): mv.value for mv in res.moves},
            "nodes": res.nodes,
            "per_deal": {str(mv.move): list(mv.deals) for mv in res.moves},
            "played_key": str(played.move)}


def reference(paths: Sequence[Path], deals: int, jobs: int, out: Path, every: int,
              first: int = 0, keep: Path | None = None,
              lines: Sequence[int] | None = None) -> None:
    """Make (or go on with) the reference: each ``every``-th turn with a
    choice of each record (from the ``first``-th of those), written to
    ``out`` after every turn."""
    doc: dict[str, Any] = {"deals": deals, "seed": REF_SEED, "records": {}}
    if out.exists():
        doc = json.loads(out.read_text(encoding="utf-8"))
        if doc.get("deals") != deals:
            raise SystemExit(f"{out} holds {doc.get('deals')} deals a turn, not {deals}")
    start = time.perf_counter()
    for path in paths:
        rows = doc["records"].setdefault(path.name, [])
        done = {r["line"] for r in rows}
        ds = _decisions(path)
        todo = [(str(path), i, deals, REF_SEED) for i in unforced(path)[::every][first:]
                if ds[i].turn.line not in done
                and (lines is None or ds[i].turn.line in lines)]
        with ProcessPoolExecutor(jobs) as pool:
            for row in pool.map(reference_turn, todo, chunksize=1):
                per_deal, key = row.pop("per_deal"), row.pop("played_key")
                if keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / f"{path.stem}-{row['line']}.json").write_text(
                        json.dumps({"played": key, "nodes": row["nodes"],
                                    "per_deal": per_deal}) + "\n",
                        encoding="utf-8")
                rows.append(row)
                rows.sort(key=lambda r: r["line"])
                tmp = out.with_suffix(".tmp")
                tmp.write_text(json.dumps(doc, indent=0) + "\n", encoding="utf-8")
                tmp.replace(out)
                print(f"{path.name} line {row['line']}: cost {row['cost']:.2f} "
                      f"± {row['error']:.2f} ({row['seconds']} s); "
                      f"{time.perf_counter() - start:.0f} s so far", flush=True)


def verdicts_between(low: float, high: float, options: WeighOptions) -> set[str]:
    """The verdicts of every cost from ``low`` to ``high``."""
    out = set()
    if low < options.costly:
        out.add(FINE)
    if high >= options.costly and low < options.blunder:
        out.add(MISTAKE)
    if high >= options.blunder:
        out.add(BLUNDER)
    return out


def claimed(w: Weighed, options: WeighOptions) -> tuple[float, float]:
    """The costs a run's verdict states the turn's cost lies among (module
    docstring): ``fine`` below ``--mistake``, ``close`` within the zone,
    ``mistake`` from ``--mistake`` to ``--blunder`` (or above, when the run
    left a blunder open), ``blunder`` from ``--blunder``, ``uncertain`` the
    range the run found. A top of ``--mistake`` for ``fine`` is open."""
    low = w.cost_low if w.cost_low is not None else w.cost
    high = w.cost_high if w.cost_high is not None else w.cost
    return {
        FINE: (0.0, options.costly - 1e-9),
        CLOSE: (options.costly - options.close, options.costly + options.close),
        MISTAKE: (options.costly, math.inf if high >= options.blunder else options.blunder),
        BLUNDER: (options.blunder, math.inf),
    }.get(w.verdict or "", (low, high))


def accuracy(reference_path: Path, seed: int, jobs: int, settings: Sequence[str]) -> None:
    ref = json.loads(reference_path.read_text(encoding="utf-8"))
    options = options_with(settings, seed=seed)
    total = agree_all = point_all = 0
    by_verdict: dict[str, list[int]] = {}
    spinner = 0
    for name, rows in ref["records"].items():
        path = ROOT / "records" / name
        by_line = {r["line"]: r for r in rows}
        idx = [i for i in unforced(path) if _decision(str(path), i).turn.line in by_line]
        got = weigh_all(path, idx, options, jobs)
        agree = point = open_ref = 0
        wrong = []
        for w, _ in got:
            r = by_line[w.line]
            margin = 0.0 if r["exact"] else 2 * r["error"]
            allowed = verdicts_between(max(0.0, r["cost"] - margin), r["cost"] + margin, options)
            open_ref += len(allowed) > 1
            lo, hi = claimed(w, options)
            ok = lo <= r["cost"] + margin and max(0.0, r["cost"] - margin) <= hi
            agree += ok
            tally = by_verdict.setdefault(w.verdict or "not weighed", [0, 0])
            tally[0] += ok
            tally[1] += 1
            point += options.verdict(w.cost, None) in allowed
            if not ok:
                wrong.append(f"    line {w.line}: reference {r['cost']:.1f} ± {r['error']:.1f}, "
                             f"run {w.verdict} ({w.cost:.1f} ± {w.error or 0:.1f}, from "
                             f"{w.cost_low or 0:.1f} to {w.cost_high or 0:.1f}, "
                             f"{w.samples} deals)")
        n = len(got)
        total += n
        spinner += n if "spinner" in name else 0
        agree_all += agree
        point_all += point
        print(f"{name} (seed {seed}): {n} turns; the stated verdict agrees on {agree} = "
              f"{100 * agree / n:.1f}%, the point verdict on {point} = {100 * point / n:.1f}%; "
              f"{open_ref} reference turns within two errors of a threshold", flush=True)
        print("\n".join(wrong))
    share = agree_all / total if total else 0.0
    ok = share >= AIM_ACCURATE and total >= AIM_TURNS and spinner >= AIM_SPINNER
    print("by verdict (agree/turns): " + ", ".join(
        f"{v} {a}/{n}" for v, (a, n) in sorted(by_verdict.items())))
    print(f"all: {agree_all}/{total} = {100 * share:.1f}% stated, "
          f"{100 * point_all / max(1, total):.1f}% point (aim: at least "
          f"{100 * AIM_ACCURATE:.0f}% on at least {AIM_TURNS} turns, {AIM_SPINNER} of them a "
          f"spinner record's: {spinner}): {_met(ok)}")


HARD_LINES = "14,19,55,78,112,163,218,222,298,301,308"


def _greedy_playout(rules: Any, state: RoundState, seat: int) -> float:
    """The round played out by both sides taking their highest score
    (the heaviest tile on a tie): ``seat``'s points less the others'
    average, the settlement included."""
    points = [0] * state.players
    while not state.over:
        moves = legal_moves(rules, state)
        places = [m for m in moves if isinstance(m, Place)]
        move = max(places, key=lambda m: (placement_score(rules, state.layout, m),
                                          m.tile.pips)) if places else moves[0]
        who = state.to_move
        state, got = apply(rules, state, move)
        points[who] += got
    total = [a + b for a, b in zip(points, settle(rules, state.hand_pips(), state.went_out))]
    others = [x for i, x in enumerate(total) if i != seat]
    return total[seat] - sum(others) / len(others)


def _searched(rules: Any, state: RoundState, know: Any) -> tuple[dict[str, float], float]:
    """Every move's value in one deal, and the CPU seconds it took."""
    start = time.process_time()
    res = solve(rules, state, scores=know.scores, target=know.target, plan=Plan(mode="perfect",
                pv=False, multi=Multi.PARANOID,
                node_limit=WeighOptions().node_limit(state.players)))
    values = {} if res.stopped is not None else {
        str(as_seen(mv.move)): mv.value for mv in res.moves if mv.value is not None}
    return values, time.process_time() - start


@dataclasses.dataclass
class _Dealt:
    split: int
    state: RoundState
    exact: dict[str, float]
    greedy: dict[str, float]
    cut: dict[str, float]


def variance_turn(args: tuple[str, int, int, int]) -> dict[str, Any]:
    """The figures of ``variance`` for one turn (module docstring)."""
    path, index, deals, seed = args
    d = _decision(path, index)
    know = d.at.view()
    rules = d.at.rules
    assert d.move is not None
    rng = random.Random(seed)
    sampler = Sampler(know, rng)
    dealt: list[_Dealt] = []
    secs = {"exact": 0.0, "greedy": 0.0, "cut": 0.0}
    for split in range(max(2, deals // 8)):
        base = sampler.deal()
        for _ in range(8):
            stock = list(base.stock)
            rng.shuffle(stock)
            state = dataclasses.replace(base, stock=tuple(stock))
            exact, took = _searched(rules, state, know)
            secs["exact"] += took
            start = time.process_time()
            greedy = {}
            for m in legal_moves(rules, state):
                after, got = apply(rules, state, m)
                greedy[str(as_seen(m))] = got + (0.0 if after.over else
                                                 _greedy_playout(rules, after, know.seat))
            secs["greedy"] += time.process_time() - start
            cut, took = _searched(rules, dataclasses.replace(state, stock=state.stock[:4]), know)
            secs["cut"] += took
            if exact and cut:
                dealt.append(_Dealt(split, state, exact, greedy, cut))
    means = {m: statistics.fmean(x.exact[m] for x in dealt) for m in dealt[0].exact}
    best = max(means, key=lambda m: means[m])
    played = next(m for m in means if m == str(as_seen(d.move)) or (
        isinstance(d.move, Place) and m.startswith(f"{d.move.tile.lo}-{d.move.tile.hi}")))
    cost = [x.exact[best] - x.exact[played] for x in dealt]
    out: dict[str, Any] = {"line": d.turn.line, "cost": statistics.fmean(cost),
                           "sd": statistics.pstdev(cost), "deals": len(cost),
                           "ms_a_deal": 1000 * secs["exact"] / len(dealt)}
    total = statistics.pvariance(cost)
    groups: dict[int, list[float]] = {}
    for x, c in zip(dealt, cost):
        groups.setdefault(x.split, []).append(c)
    within = statistics.fmean(statistics.pvariance(g) for g in groups.values() if len(g) > 1)
    out["between_splits"] = max(0.0, 1 - within / total) if total else 0.0
    out["linear_r2"] = _linear_r2(dealt, cost, know.seat) if total else 0.0
    for name in ("greedy", "cut"):
        cheap = [getattr(x, name).get(best, 0.0) - getattr(x, name).get(played, 0.0)
                 for x in dealt]
        r = statistics.correlation(cost, cheap) if len(set(cheap)) > 1 and total else 0.0
        c = secs[name] / secs["exact"]
        out[name] = {"corr": r, "cost": c,
                     "variance_per_second": (math.sqrt(1 - r * r) + math.sqrt(r * r * c)) ** 2}
    return out


def _linear_r2(dealt: Sequence[_Dealt], cost: Sequence[float], seat: int) -> float:
    """Share of the cost's variance a ridge fit on where each tile lies
    (each other hand, the stock's first three places) explains out of
    sample, over two folds (0 or below: nothing)."""
    import numpy as np

    rows = []
    for x in dealt:
        feats: list[float] = []
        for s, hand in enumerate(x.state.hands):
            if s != seat:
                feats.extend(1.0 if t in hand else 0.0 for t in full_set(6))
        for place in range(3):
            at = x.state.stock[place] if place < len(x.state.stock) else None
            feats.extend(1.0 if t == at else 0.0 for t in full_set(6))
        rows.append(feats)
    xs, ys = np.array(rows), np.array(cost)
    xs = xs[:, xs.std(axis=0) > 0]
    errors = []
    for fold in (0, 1):
        test = np.arange(len(ys)) % 2 == fold
        a, b = xs[~test] - xs[~test].mean(axis=0), ys[~test] - ys[~test].mean()
        beta = np.linalg.solve(a.T @ a + 3.0 * np.eye(a.shape[1]), a.T @ b)
        guess = (xs[test] - xs[~test].mean(axis=0)) @ beta + ys[~test].mean()
        errors.append(float(((ys[test] - guess) ** 2).mean()))
    return 1 - statistics.fmean(errors) / float(ys.var())


def variance(path: Path, lines: Sequence[int], deals: int, jobs: int) -> None:
    ds = _decisions(path)
    todo = [(str(path), i, deals, 7_777 + ds[i].turn.line) for i in unforced(path)
            if ds[i].turn.line in lines]
    with ProcessPoolExecutor(jobs) as pool:
        got = list(pool.map(variance_turn, todo, chunksize=1))
    print(f"{path.name}: the cost of the play made, deal by deal ({deals} deals a turn)")
    print(f"{'line':>5} {'cost':>6} {'sd':>5} {'ms':>6}  {'between':>7} {'lin R2':>6}  "
          f"{'greedy r':>8} {'cost':>5} {'var/s':>5}  {'cut r':>5} {'cost':>5} {'var/s':>5}")
    for r in got:
        g, c = r["greedy"], r["cut"]
        print(f"{r['line']:5} {r['cost']:6.2f} {r['sd']:5.1f} {r['ms_a_deal']:6.1f}  "
              f"{r['between_splits']:7.2f} {r['linear_r2']:6.2f}  {g['corr']:8.2f} "
              f"{g['cost']:5.2f} {g['variance_per_second']:5.2f}  {c['corr']:5.2f} "
              f"{c['cost']:5.2f} {c['variance_per_second']:5.2f}")
    for key, label in (("between_splits", "between splits"), ("linear_r2", "linear R2")):
        print(f"median {label}: {statistics.median(r[key] for r in got):.2f}")
    for name in ("greedy", "cut"):
        print(f"median {name} variance per second of search (below 1 pays): "
              f"{statistics.median(r[name]['variance_per_second'] for r in got):.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["stability", "accuracy", "reference", "variance"])
    ap.add_argument("--record", type=Path, action="append",
                    help="a record (stability: the first one given; reference: each)")
    ap.add_argument("--seeds", default="1,2,3,4,5", help="stability: the seeds, one run each")
    ap.add_argument("--seed", type=int, default=1, help="accuracy: the seed of the run")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a WeighOptions field for every run (stability, accuracy)")
    ap.add_argument("--deals", type=int, default=None,
                    help=f"reference: deals a turn ({REF_DEALS}); variance: (256)")
    ap.add_argument("--every", type=int, default=1,
                    help="reference: every N-th turn with a choice of each record")
    ap.add_argument("--start", type=int, default=0,
                    help="reference: from the K-th of those turns (to share them out)")
    ap.add_argument("--reference", type=Path, default=REFERENCE,
                    help="the reference file (reference: written; accuracy: read)")
    ap.add_argument("--keep-deals", type=Path, default=None, metavar="DIR",
                    help="reference: also write each turn's values deal by deal to DIR")
    ap.add_argument("--lines", default=None,
                    help=f"variance: the turns, by line (default {HARD_LINES}); reference: "
                         "only these turns")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    if a.what == "stability":
        stability((a.record or [CLUB])[0], [int(s) for s in a.seeds.split(",")], a.jobs,
                  a.set)
    elif a.what == "variance":
        variance((a.record or [CLUB])[0], [int(x) for x in (a.lines or HARD_LINES).split(",")],
                 a.deals or 256, a.jobs)
    elif a.what == "reference":
        reference(a.record or [CLUB], a.deals or REF_DEALS, a.jobs, a.reference, a.every,
                  a.start, a.keep_deals,
                  None if a.lines is None else [int(x) for x in a.lines.split(",")])
    else:
        accuracy(a.reference, a.seed, a.jobs, a.set)


if __name__ == "__main__":
    sys.exit(main())
