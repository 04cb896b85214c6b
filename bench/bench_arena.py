"""Strength of the strategies (issues 7 and 16): ``python bench/bench_arena.py``.

Each figure is an arena in duplicate format (every deal sequence played in
every seating, the same shuffles in the same round order), exactly as

    muggins arena A B --rules R --players N [--lone] --sequences PAIRS --seed SEED

and prints matches, wins, the win rate with its 95% Wilson interval, the
goal and whether it is reached, points per round, and the seconds of A's
decisions that had a choice (median and maximum: the goal is a median under
0.5 s and no move over 10 s, on one core). Figures, by ``--figure`` (one or
more; default all, in this order):

- ``greedy``: ``solver`` against ``greedy``, two-player ``pagat``; goal 90%.
- ``defensive``: ``solver`` against ``defensive``; goal 70%.
- ``expectimax``: ``solver`` against ``expectimax``; goal 60%.
- ``oracle``: the cheating ``oracle`` against ``greedy`` on the deals of
  ``greedy``: its rate less the solver's is what hidden tiles cost.
- ``three``, ``four``: ``solver`` in one seat against ``greedy`` in the
  others, each seat in turn (``--lone``); goal twice the fair share (67%,
  50%) with the interval's lower end above 1.5 times it (50%, 37.5%).
- ``spinner``: ``solver`` against ``greedy``, two-player ``spinner``; goal
  85%. Under ``spinner`` a placement credits only what its player claims,
  and an opponent may call muggins for the rest; both sides claim every
  score here, so no call is made (the counts below show it).
- ``spinner-calls``: ``solver`` against ``careless`` (greedy that forgets
  to claim one score in ten, ``--forget 0.1``), two-player ``spinner``;
  goal 85%, and the issue's "claims every score it makes, calls muggins on
  every unclaimed score it is shown": beside the win rate, a figure under
  muggins rules prints how many scores each side made and claimed, and how
  many unclaimed scores it was shown and called.
- ``defensive-greedy``: ``defensive`` against ``greedy`` (the Sheffield
  HFEBMS player beat greedy in 69.9% of a million games).
- ``expectimax-greedy``: ``expectimax`` against ``greedy`` (about 80% for
  alinden/dominoes_bot).

``--quick`` plays 10 deal sequences a figure; otherwise ``--pairs`` (150:
300 two-player matches). The solver searches the hidden tiles as
``--hidden`` says (sample, ``--samples`` deals, by default 64 for two
players and 32 for three or four; or expectimax, its own node budget by
the number of players), and its exact searches stop at ``--move-nodes`` search
nodes a move (4,000,000 for the compiled search, a quarter for the Python
one, as in ``muggins arena``), with no time cap, so every figure is
reproducible to the move on any machine; only the seconds change. Run
long figures one at a time with ``--jobs 1`` on a shared machine, in the
background:

    nohup python bench/bench_arena.py --figure defensive > bench/.data/def.txt 2>&1 &

Measured (seed 2026, one process, on a machine shared with other work, so
the seconds are upper bounds; the figures are in the README).

Session 11: ``solver`` plays sampled deals (``--hidden sample``, now the
default), each solved exactly by the compiled search for points, the deals
following what the others passed over (the prior of session 7's
expectimax, now given to the sampler). Screened first on the first 30
deal sequences against ``expectimax`` (exp.py-style runs over
``play_pair``): the old default 24 of 60 (10.40 points a round against
11.92); passed-over reading off 28; the lead searched 26; 64 deals for
points, no prior, 37 of 60 (10.78 against 8.83), median 0.028 s a move;
the same with the prior 38 of 60 (11.29 against 8.77). Three players, 32
deals, paranoid, against two ``greedy``: 60 of 90 (56 before). ``spinner``
against ``greedy``, 64 deals: 39 of the first 50 (78%; 160 of 200, 80%,
before). With the sampled deals solved for the match whenever a player was
within a quarter of the target (in Python), one pair against ``greedy``
took 92 s and a move up to 9.9 s, against 15 s and 1.2 s: they are solved
for points. The figures, ``--pairs`` as given, two figures at a time:

- ``greedy``, 50 pairs: solver 91 of 100, 91.0%, 95% [83.8%, 95.2%]
  (goal 90%: reached); 17.09 points a round against 6.69; decisions median
  0.033 s, max 4.13 s; 799 s.
- ``defensive``, 50 pairs: solver 80 of 100, 80.0%, 95% [71.1%, 86.7%]
  (goal 70%: reached); 11.93 points a round against 5.80; median 0.034 s,
  max 5.80 s; 1223 s.
- ``expectimax``, 40 pairs: solver 48 of 80, 60.0%, 95% [49.0%, 70.0%]
  (goal 60%: reached, at the goal; the first 30 pairs 38 of 60, the next 10
  only 10 of 20); 11.08 points a round against 8.72; median 0.034 s, max
  6.42 s; 1289 s.
- ``three``, 30 pairs: solver 60 of 90, 66.7%, 95% [56.4%, 75.5%] (goal
  66.7% with the lower end above 50%: reached, at the goal); 4.74 points a
  round against 1.94; median 0.020 s, max 3.96 s; 695 s.
- ``four``, 15 pairs: solver 31 of 60, 51.7%, 95% [39.3%, 63.8%] (goal 50%
  with the lower end above 37.5%: reached); 3.09 points a round against
  1.00; median 0.029 s, max 3.35 s; 995 s.
- ``spinner``, 25 pairs: solver 39 of 50, 78.0%, 95% [64.8%, 87.2%] (goal
  85%: not reached); 36.76 points a round against 27.28; median 0.065 s,
  max 43.22 s, 2 moves over 10 s; 870 s.
- ``spinner-calls``, 25 pairs: solver 45 of 50, 90.0%, 95% [78.6%, 95.7%]
  (goal 85%: reached); it claimed 750 of the 750 scores it made and called
  muggins on 66 of the 66 unclaimed scores it was shown; median 0.053 s,
  max 37.85 s, 2 over 10 s; 676 s.

The moves over 10 s are each ``spinner`` process's first sampled moves:
cProfile of one (41 s) puts 80 of its 87 s in building 98,858 layouts of
the spinner table in Python (``LayoutTable.search_moves``), not in the
compiled search; later moves find them built.

Session 8 tried, on the same deals, variants of the solver's expectimax
part that are not kept (the figures of session 7 below, for
``--hidden expectimax``, stand):

- opponents modelled as taking what they score (their replies ordered by
  the points they make, the mover's value breaking ties) instead of as
  playing against the mover: ``three`` 54 of 90 (56 before), ``spinner``
  163 of 200 (160);
- the opponents' points weighed by how near each is to the target (1/d² of
  its distance, instead of their mean): ``three`` 53 of 90; with 1/d, 17 of
  the first 33 (19 before);
- the round's lead searched too: ``three`` 29 of the first 48 (the
  scoring model above: 30);
- a tile that would have tied the score of the one laid and is heavier read
  as passed over (greedy's tie-break): ``spinner`` 162 of 200; with the
  scoring model and the lead searched as well, 148;
- 60,000 nodes a move for three players (three times the budget, 13 plies):
  ``three`` 57 of 90, 63.3%, in 2,069 s (1,708 s for the figure below);
- 50,000 nodes a move for two players (ten times the budget, 11 plies)
  against ``expectimax``'s 5,000: ``expectimax`` 30 of 60, 50.0% (24 of
  60 below), in 986 s.

None moves a figure by more than the spread between such variants (about 8
wins in 200), so the spinner and three-player goals stay out of reach.
Session 9 tried best-reply search for three players (Schadd and Winands
2011: between two of the mover's turns only the opponent whose reply is
worst for the mover moves, each opponent valued by the expectimax
opponent node; the other keeps its tiles), not kept either:

- at the budget of today's search (20,000 nodes, 9 plies): ``three`` 16
  of the first 30 (today's search: 17);
- at 60,000 nodes and 12 plies: 19 of the first 30, and 58 of 90, 64.4%,
  95% [54.2%, 73.6%], decisions median 0.252 s, max 1.15 s, 2,124 s:
  within the spread of the paranoid search at the same budget (57 of 90).
Session 7, ``solver`` also reading what the others passed over and
weighing the horizon's pips as the settlement does:

- ``greedy``, 150 pairs: solver 284 of 300, 94.7%, 95% [91.5%, 96.7%]
  (goal 90%: reached); 17.81 points a round against 7.21; decisions median
  0.044 s, max 4.81 s, none over 10 s; 998 s.
- ``defensive``, 150 pairs: solver 240 of 300, 80.0%, 95% [75.1%, 84.1%]
  (goal 70%: reached; 157 of 200, 78.5%, after 100 pairs, against 154
  before); decisions median 0.030 s, max 3.68 s; 1004 s.
- ``expectimax``, 30 pairs: solver 24 of 60, 40.0%, 95% [28.6%, 52.6%]
  (goal 60%: not reached; 28 before, within the noise: expectimax's
  placements follow its search, not the score, so what it passes over is
  not what it lacks, and the solver stops reading a player only once it
  sees it lay a tile it passed over); 10.40 points a round against 11.92;
  433 s.
- ``three``, 30 pairs: solver 56 of 90, 62.2%, 95% [51.9%, 71.5%] (goal
  66.7%: not reached; the lower end is above 50%); 4.84 points a round
  against greedy's 2.36; decisions median 0.212 s, max 0.81 s; 1708 s.
- ``four``, 20 pairs: solver 40 of 80, 50.0%, 95% [39.3%, 60.7%] (goal 50%
  with the lower end above 37.5%: reached, at the goal itself); 2.82
  points a round against 1.09; decisions median 0.230 s, max 1.01 s;
  2357 s.
- ``spinner``, 100 pairs: solver 160 of 200, 80.0%, 95% [73.9%, 85.0%]
  (goal 85%: not reached; 155 before); 35.43 points a round against
  27.40; decisions median 0.040 s, max 4.51 s; 279 s. With the pips not
  weighed at all, 162 of 200; with 0.25 and 1.0 for 0.1, 78 and 70 of the
  first 100 matches (80 at 0.5). With 20,000 nodes a move (4 plies deep
  instead of 3), 157 of 200, median 0.154 s a move.
- ``spinner-calls``, 100 pairs: solver 177 of 200, 88.5%, 95% [83.3%,
  92.2%] (goal 85%: reached); it claimed 3,079 of the 3,079 scores it made
  and called muggins on 261 of the 261 unclaimed scores it was shown;
  decisions median 0.042 s, max 8.41 s (with a test run on the other
  core); 280 s.

Session 6, ``solver`` playing expectimax while tiles are hidden and its
exact search once the deal is known (``--hidden expectimax``, the default):

- ``greedy``, 150 pairs: solver 287 of 300, 95.7%, 95% [92.7%, 97.5%]
  (goal 90%: reached); 17.71 points a round against 7.48; decisions median
  0.038 s, max 4.47 s, none over 10 s; 844 s.
- ``defensive``, 100 pairs: solver 154 of 200, 77.0%, 95% [70.7%, 82.3%]
  (goal 70%: reached); decisions median 0.029 s, max 4.95 s; 658 s.
- ``expectimax``, 30 pairs: solver 28 of 60, 46.7%, 95% [34.6%, 59.1%]
  (goal 60%: not reached; the two share a search); 556 s.
- ``three``, 30 pairs: solver 53 of 90, 58.9%, 95% [48.6%, 68.5%] (goal
  66.7% with the lower end above 50%: not reached); 4.70 points a round
  against greedy's 2.45; decisions median 0.142 s, max 0.79 s; 1261 s.
- ``four``, 20 pairs: solver 39 of 80, 48.8%, 95% [38.1%, 59.5%] (goal 50%
  with the lower end above 37.5%: not reached; one match unfinished at the
  round cap); decisions median 0.165 s, max 1.13 s; 1931 s.
- ``spinner``, 100 pairs: solver 155 of 200, 77.5%, 95% [71.2%, 82.7%]
  (goal 85%: not reached); 3,142 of 3,142 scores claimed; 235 s.
- ``spinner-calls``, 100 pairs: solver 178 of 200, 89.0%, 95% [83.9%,
  92.6%] (goal 85%: reached); it claimed 3,002 of the 3,002 scores it made
  and called muggins on 289 of the 289 unclaimed scores it was shown;
  decisions median 0.041 s, max 5.47 s; 247 s.
- ``oracle``, 100 pairs: oracle 200 of 200 against greedy, 95% [98.1%,
  100%]; 22.25 points a round against -5.81 (the solver: 17.71 against
  7.48), so the hidden tiles cost about 18 points a round; 314 s.

Earlier, with the sampled deals (now ``--hidden sample``):

- ``greedy`` (an earlier measurement): solver 259 of 300, 86.3%, 95%
  [82.0%, 89.8%]; decisions median 0.029 s, max 52.3 s, 47 of 26,272
  over 10 s.
- ``defensive``, 50 pairs: solver 67 of 100, 67.0%, 95% [57.3%, 75.4%].
- ``expectimax``, 8 pairs: solver 7 of 16, 43.8%, 95% [23.1%, 66.8%].
- ``three``, 4 pairs: solver 3 of 12, 25.0%, 95% [8.9%, 53.2%]; max 78.7 s
  a move, 124 of 1,067 over 10 s.
- ``spinner``, 10 pairs: solver 13 of 20, 65.0%.

And the other strategies against ``greedy``:

- ``defensive-greedy``, 500 pairs: defensive 830 of 1000, 83.0%, 95% [80.5%,
  85.2%]; 15.91 points a round against 9.25; 454 s.
- ``expectimax-greedy``, 25 pairs: expectimax 47 of 50, 94.0%, 95% [83.8%,
  97.9%]; 18.68 points a round against 6.04; decisions median 0.152 s, max
  0.78 s; 519 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from muggins_cli.play.arena import ArenaSpec, Game, as_json, claims_text, play_pairs, tally
from muggins_cli.play.strategies import DEFAULT_NODES, HIDDEN_SEARCHES
from muggins_cli.rules.loader import load_preset


@dataclass(frozen=True)
class Figure:
    a: str
    b: str
    rules: str = "pagat"
    players: int = 2
    lone: bool = False
    goal: float | None = None  # the win rate to reach
    floor: float | None = None  # the interval's lower end must pass this


FIGURES: dict[str, Figure] = {
    "greedy": Figure("solver", "greedy", goal=0.90),
    "defensive": Figure("solver", "defensive", goal=0.70),
    "expectimax": Figure("solver", "expectimax", goal=0.60),
    "oracle": Figure("oracle", "greedy"),
    "three": Figure("solver", "greedy", players=3, lone=True, goal=2 / 3, floor=0.5),
    "four": Figure("solver", "greedy", players=4, lone=True, goal=0.5, floor=0.375),
    "spinner": Figure("solver", "greedy", rules="spinner", goal=0.85),
    "spinner-calls": Figure("solver", "careless", rules="spinner", goal=0.85),
    "defensive-greedy": Figure("defensive", "greedy"),
    "expectimax-greedy": Figure("expectimax", "greedy"),
}


def run(name: str, fig: Figure, pairs: int, seed: int, jobs: int, samples: int | None,
        nodes: int, hidden: str = "sample") -> dict[str, object]:
    spec = ArenaSpec(fig.a, fig.b, load_preset(fig.rules), players=fig.players, seed=seed,
                     samples=samples, node_limit=nodes or None, lone=fig.lone, hidden=hidden)
    command = (f"muggins arena {fig.a} {fig.b} --rules {fig.rules} --players {fig.players}"
               + (" --lone" if fig.lone else "")
               + f" --sequences {pairs} --seed {seed} --jobs {jobs}"
               + (f" --samples {samples}" if samples is not None else "")
               + (f" --move-nodes {nodes}" if nodes != DEFAULT_NODES else "")
               + (f" --hidden {hidden}" if hidden != "sample" else "")
               + (f" --forget {spec.forget}" if "careless" in (fig.a, fig.b) else ""))
    print(f"# {name}: {command}", flush=True)
    games: list[Game] = []
    start = time.perf_counter()
    for k, done in enumerate(play_pairs(spec, pairs, jobs=jobs), start=1):
        games.extend(done)
        if k % 5 == 0 or k == pairs:
            part = tally(spec, games)
            a = part.sides[0]
            lo, hi = a.interval
            print(f"  {k:4d} pairs  {a.name} {a.wins}/{a.games} = {a.win_rate:.1%} "
                  f"[{lo:.1%}, {hi:.1%}]  {time.perf_counter() - start:7.0f} s",
                  file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    result = tally(spec, games)
    a = result.sides[0]
    lo, hi = a.interval
    print(f"matches: {result.matches} ({result.pairs} deal sequences x {spec.legs} seatings); "
          f"unfinished {result.draws}")
    for s in result.sides:
        slo, shi = s.interval
        print(f"{s.name:>10}: {s.wins:4d} wins  {s.win_rate:6.1%}  95% [{slo:.1%}, {shi:.1%}]  "
              f"{s.points_per_round:6.2f} points/round")
    verdict = ""
    if fig.goal is not None:
        reached = a.win_rate >= fig.goal and (fig.floor is None or lo > fig.floor)
        floor = f", lower end above {fig.floor:.1%}" if fig.floor is not None else ""
        verdict = (f"goal {fig.goal:.1%}{floor}: {'reached' if reached else 'NOT reached'} "
                   f"({a.win_rate:.1%}, lower end {lo:.1%})")
        print(verdict)
    if spec.rules.muggins:
        for s in result.sides:
            print(claims_text(s.name, s.claims))
        c = a.claims
        every = c.claimed == c.made and c.called == c.shown and c.called_points == c.shown_points
        print(f"{a.name} claims every score it makes and calls every unclaimed score it is "
              f"shown: {'yes' if every else 'NO'}")
    moves = [t for g in games for t in g.seconds[0]]
    timing: dict[str, object] = {"decisions": len(moves)}
    if moves:
        timing.update(median=round(statistics.median(moves), 4), max=round(max(moves), 3),
                      over_10s=sum(t > 10 for t in moves))
        print(f"{a.name} decisions with a choice: {len(moves)}, median "
              f"{statistics.median(moves):.3f} s, max {max(moves):.2f} s, over 10 s: "
              f"{sum(t > 10 for t in moves)}")
    print(f"time: {seconds:.0f} s on {jobs} process(es), "
          f"{seconds * jobs / max(1, result.matches):.1f} core-seconds a match\n", flush=True)
    doc = as_json(result)
    doc.update(figure=name, command=command, seconds=round(seconds, 1), verdict=verdict,
               decision_seconds=timing)
    return doc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--figure", action="append", choices=list(FIGURES),
                    help="a figure to measure (repeat for several; default all)")
    ap.add_argument("--pairs", type=int, default=150, help="deal sequences a figure")
    ap.add_argument("--quick", action="store_true", help="10 deal sequences a figure")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--samples", type=int, default=None,
                    help="deals a move for the solver (default: 64 for two players, 32 else)")
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES,
                    help="cap on search nodes per move, 0 for none")
    ap.add_argument("--hidden", choices=list(HIDDEN_SEARCHES), default="sample",
                    help="how the solver searches while tiles are hidden")
    ap.add_argument("--json", metavar="FILE", help="also write every figure's JSON here")
    args = ap.parse_args(argv)
    pairs = 10 if args.quick else args.pairs
    docs = [run(name, FIGURES[name], pairs, args.seed, args.jobs, args.samples, args.nodes,
                args.hidden)
            for name in (args.figure or list(FIGURES))]
    if args.json:
        Path(args.json).write_text(json.dumps(docs, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
