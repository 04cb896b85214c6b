"""The cost of ``check`` per turn, side by side with python-chess per move.

    python bench/bench_check.py [--turns N] [--repeat K]

Generates self-play MGN records with about N turns and a PGN file with the
same number of chess moves (random legal games), then times, in one run:

- muggins: parse + replay + diagnostics of every record (the work of
  ``muggins check``, without printing);
- python-chess: ``chess.pgn.read_game`` + pushing every mainline move on a
  board (reading and replaying a PGN file).

Prints microseconds per turn / per move and their ratio. python-chess is
installed for the benchmark only (``pip install chess``).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

from muggins_cli.check import check_file
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy
from muggins_cli.rules.loader import load_preset

DATA = Path(__file__).resolve().parent / ".data"


def make_mgn(turns: int, seed: int) -> tuple[str, int]:
    rng = random.Random(seed)
    texts: list[str] = []
    count = 0
    presets = ["pagat", "spinner", "all-threes"]
    names = ["Ana", "Budi", "Citra", "Dewi"]
    i = 0
    while count < turns:
        preset = presets[i % 3]
        n = 2 + i % 3
        rules = load_preset(preset)
        strategies = [GreedyStrategy() if k % 2 else RandomStrategy() for k in range(n)]
        outcome = play_match(rules, names[:n], strategies, rng)
        text = write_match(outcome.record)
        count += sum(1 for line in text.splitlines() if ": " in line and not line.startswith("["))
        texts.append(text)
        i += 1
    return "\n".join(texts), count


def make_pgn(moves: int, seed: int) -> tuple[str, int]:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    count = 0
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
    return out.getvalue(), count


def time_muggins(path: Path) -> float:
    start = time.perf_counter()
    report = check_file(str(path))
    elapsed = time.perf_counter() - start
    assert report.errors == 0, report.diagnostics[:3]
    return elapsed


def time_chess(path: Path) -> float:
    import chess.pgn

    start = time.perf_counter()
    with path.open(encoding="utf-8") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is needed for this benchmark: pip install chess", file=sys.stderr)
        return 2
    DATA.mkdir(exist_ok=True)
    mgn_text, turns = make_mgn(args.turns, 1)
    pgn_text, moves = make_pgn(turns, 1)
    mgn = DATA / "bench_check.mgn"
    pgn = DATA / "bench_check.pgn"
    mgn.write_text(mgn_text, encoding="utf-8")
    pgn.write_text(pgn_text, encoding="utf-8")
    m_times = [time_muggins(mgn) for _ in range(args.repeat)]
    c_times = [time_chess(pgn) for _ in range(args.repeat)]
    m = statistics.median(m_times) / turns * 1e6
    c = statistics.median(c_times) / moves * 1e6
    print(f"muggins check : {turns:7d} turns, {m:7.2f} µs/turn "
          f"({turns / statistics.median(m_times):,.0f} turns/s)")
    print(f"python-chess  : {moves:7d} moves, {c:7.2f} µs/move "
          f"({moves / statistics.median(c_times):,.0f} moves/s)")
    print(f"ratio         : a turn costs {m / c:.3f} of a python-chess move "
          f"(aim: at most 0.200)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
