"""The cost of ``muggins check`` per turn, beside python-chess per move, as
whole processes.

    python bench/bench_check.py [--turns N] [--repeat K] [--base OTHER/src]

Generates one MGN file of self-played matches with about N turns and a PGN
file of random legal games with as many moves. The matches cycle through
every preset (pagat, spinner, all-threes), two to four players, and are in
turn written in full and as kept without the deals, like
``records/kept-without-deals-2p.mgn`` (docs/notation.md 6: the ``deal`` and
``stock`` lines dropped, every draw written ``d??``, the ``reveal`` lines
kept), on which ``check`` reports ``unverified`` notes and no error. Then
runs, interleaved, K times each:

- ``muggins check --jobs 1 FILE``: the whole process, its output to
  /dev/null, exit status 0 required;
- ``python -c`` reading the PGN file with python-chess: a loop of
  ``chess.pgn.read_game`` (which replays every move on a board, to read its
  SAN) that walks each game's mainline once, without replaying the moves a
  second time; it prints how many moves it read, which must be the number
  written;
- the start-up of each: ``muggins --version`` and
  ``python -c "import chess.pgn"``;
- with ``--base SRC``, ``check`` as the tree whose ``src`` folder that is
  runs it (the same command, ``PYTHONPATH=SRC``), in the same rounds, so
  that a change is measured against the code before it on the same load.

Prints the minimum and median of each, microseconds per turn and per move
of the whole processes, and their ratio; the start-ups are printed apart,
and the one figure without them says so. python-chess is installed for the
benchmark only (``pip install chess``).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy
from muggins_cli.rules.loader import load_preset

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_startup import muggins_command

DATA = Path(__file__).resolve().parent / ".data"
PRESETS = ("pagat", "spinner", "all-threes")
NAMES = ("Ana", "Budi", "Citra", "Dewi")

#: What the python-chess process runs: read every game once, walk its mainline.
CHESS_READ = """
import sys
import chess.pgn
moves = 0
with open(sys.argv[1], encoding="utf-8") as fh:
    while (game := chess.pgn.read_game(fh)) is not None:
        for _move in game.mainline_moves():
            moves += 1
print(moves)
"""

_DRAW = re.compile(r"(?<=[ :])d[0-9]+-[0-9]+(?= |$)")


def turn_lines(text: str) -> int:
    """The turn lines of MGN text: ``NAME: ...``, not a muggins call."""
    count = 0
    for line in text.splitlines():
        if line.startswith("[") or ": " not in line:
            continue
        if not line.split(": ", 1)[1].startswith("muggins"):
            count += 1
    return count


def without_deals(text: str) -> str:
    """The match as a record kept at a table: no deals, no stock, draws
    unseen; the reveals at the end of each round stay."""
    kept = []
    for line in text.splitlines():
        if line.startswith(("deal ", "stock ")):
            continue
        if not line.startswith("[") and ": " in line:
            line = _DRAW.sub("d??", line)
        kept.append(line)
    return "\n".join(kept) + "\n"


def make_mgn(turns: int, seed: int) -> tuple[str, int, Counter[str]]:
    """About ``turns`` turns of self-play, every preset, 2-4 players, half of
    the matches without deals; with the turns and what kinds of match."""
    rng = random.Random(seed)
    texts: list[str] = []
    count = 0
    kinds: Counter[str] = Counter()
    i = 0
    while count < turns:
        hidden = i % 2 == 1  # every other match, so that a small corpus has both
        preset = PRESETS[(i // 2) % 3]
        n = 2 + (i // 6) % 3
        rules = load_preset(preset)
        strategies = [GreedyStrategy() if k % 2 else RandomStrategy() for k in range(n)]
        outcome = play_match(rules, list(NAMES[:n]), strategies, rng)
        text = write_match(outcome.record)
        if hidden:
            text = without_deals(text)
        count += turn_lines(text)
        texts.append(text)
        kinds[f"{preset} {'without deals' if hidden else 'with deals'}"] += 1
        i += 1
    return "\n".join(texts), count, kinds


def make_pgn(moves: int, seed: int) -> tuple[str, int, int]:
    """Random legal games, ``moves`` moves in all; with the moves and games."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    count = 0
    games = 0
    while count < moves:
        board = chess.Board()
        game = chess.pgn.Game()
        node: chess.pgn.GameNode = game
        while not board.is_game_over() and board.ply() < 120 and count < moves:
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
            count += 1
        print(game, file=out, end="\n\n")
        games += 1
    return out.getvalue(), count, games


def run(argv: list[str], env: dict[str, str], *, capture: bool = False) -> tuple[float, str]:
    """Wall time of the process ``argv``; exit status 0 or the benchmark stops."""
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=env, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{shlex.join(argv)}: exit status {done.returncode}")
    return elapsed, done.stdout or ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", type=Path, default=None,
                    help="the src folder of another tree: its check is timed beside this one's")
    args = ap.parse_args()
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is needed for this benchmark: pip install chess", file=sys.stderr)
        return 2
    DATA.mkdir(exist_ok=True)
    mgn_text, turns, kinds = make_mgn(args.turns, 1)
    pgn_text, moves, games = make_pgn(turns, 1)
    mgn = DATA / "bench_check.mgn"
    pgn = DATA / "bench_check.pgn"
    mgn.write_text(mgn_text, encoding="utf-8")
    pgn.write_text(pgn_text, encoding="utf-8")

    muggins = muggins_command()
    python = sys.executable
    # Bytecode caches as an installed package has them (written by the
    # first, untimed, run of each command).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src")
    envs = {}
    commands = {
        "check": [*muggins, "check", "--jobs", "1", str(mgn)],
        "chess": [python, "-c", CHESS_READ, str(pgn)],
        "muggins start-up": [*muggins, "--version"],
        "chess start-up": [python, "-c", "import chess.pgn"],
    }
    if args.base is not None:
        commands["check (base)"] = commands["check"]
        envs["check (base)"] = dict(env, PYTHONPATH=str(args.base.resolve()))
    for name, argv in commands.items():
        run(argv, envs.get(name, env))
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.repeat):
        for name, argv in commands.items():
            elapsed, out = run(argv, envs.get(name, env), capture=name == "chess")
            if name == "chess" and int(out) != moves:
                sys.exit(f"python-chess read {out.strip()} moves, not the {moves} written")
            times[name].append(elapsed)

    def low(name: str) -> float:
        return min(times[name])

    def mid(name: str) -> float:
        return statistics.median(times[name])

    shown = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    print(f"corpus        : {sum(kinds.values())} matches in one file ({shown}), "
          f"{turns} turns, {len(mgn_text.encode()) / 1024:,.0f} KB")
    print(f"               {games} PGN games, {moves} moves, "
          f"{len(pgn_text.encode()) / 1024:,.0f} KB; {args.repeat} runs of each, interleaved")
    print(f"muggins       : check --jobs 1 FILE, "
          f"min {low('check'):.3f} s, median {mid('check'):.3f} s = "
          f"min {low('check') / turns * 1e6:6.2f}, median {mid('check') / turns * 1e6:6.2f} "
          f"µs/turn")
    print(f"python-chess  : read_game + mainline (python -c), "
          f"min {low('chess'):.3f} s, median {mid('chess'):.3f} s = "
          f"min {low('chess') / moves * 1e6:6.2f}, median {mid('chess') / moves * 1e6:6.2f} "
          f"µs/move")
    print(f"start-up      : muggins --version min {low('muggins start-up') * 1000:.0f} ms, "
          f"median {mid('muggins start-up') * 1000:.0f} ms; "
          f"python -c \"import chess.pgn\" min {low('chess start-up') * 1000:.0f} ms, "
          f"median {mid('chess start-up') * 1000:.0f} ms (both included above)")
    ratio = (mid("check") / turns) / (mid("chess") / moves)
    ratio_min = (low("check") / turns) / (low("chess") / moves)
    print(f"ratio         : a turn costs {ratio:.3f} of a python-chess move, whole processes, "
          f"medians (mins: {ratio_min:.3f}; aim: at most 0.200)")
    net = ((mid("check") - mid("muggins start-up")) / turns) / \
        ((mid("chess") - mid("chess start-up")) / moves)
    print(f"                without each process's median start-up: {net:.3f}")
    if args.base is not None:
        base = "check (base)"
        print(f"base          : check --jobs 1 FILE with {args.base}, "
              f"min {low(base):.3f} s, median {mid(base):.3f} s = "
              f"min {low(base) / turns * 1e6:6.2f}, median {mid(base) / turns * 1e6:6.2f} "
              f"µs/turn; a turn costs {(mid(base) / turns) / (mid('chess') / moves):.3f} of a "
              "python-chess move")
        print(f"this / base   : medians {mid('check') / mid(base):.3f}, "
              f"mins {low('check') / low(base):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
