"""Generate a corpus of valid MGN records for the batch benchmark.

A pool of distinct matches is played by the self-play generator (every
preset, two to four players, random and greedy seats, a fixed seed), written
as canonical MGN, then files of varied sizes (16 KB to 2 MB, log-uniform) are
filled with matches drawn from the pool until the corpus reaches the size
asked for. Files go in folders of 100 under ``bench/.data`` (git-ignored);
a corpus that was completed once is reused.

    python bench/make_corpus.py --size 1G        # prints the corpus folder
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import sys
import time
from pathlib import Path

from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_rules, preset_names

DATA = Path(__file__).resolve().parent / ".data"
NAMES = ("Ana", "Budi", "Chen", "Dara", "Eko", "Fitri", "Gita", "Hadi", "Indah", "Joko",
         "Kartika", "Lestari")
POOL = 400
FILES_PER_FOLDER = 100
MIN_FILE = 16 * 1024
MAX_FILE = 2 * 1024 * 1024
VERSION = 1  # bump when the corpus changes, so that caches are rebuilt


def parse_size(text: str) -> int:
    """``1G``, ``64M``, ``500K`` or a number of bytes."""
    units = {"K": 1024, "M": 1024**2, "G": 1024**3}
    t = text.strip().upper().removesuffix("B")
    if t and t[-1] in units:
        return int(float(t[:-1]) * units[t[-1]])
    return int(t)


def show_size(n: int) -> str:
    for unit, k in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if n >= k and n % k == 0:
            return f"{n // k}{unit}"
    return str(n)


def match_pool(seed: int, count: int = POOL) -> list[str]:
    """``count`` distinct matches as MGN text, each ending with a newline."""
    rng = random.Random(seed)
    presets = preset_names()
    rules = {p: load_rules(p) for p in presets}
    pool: list[str] = []
    for _ in range(count):
        preset = rng.choice(presets)
        n = rng.choice((2, 2, 3, 4))
        names = rng.sample(NAMES, n)
        seats: list[Strategy] = [GreedyStrategy() if rng.random() < 0.5 else RandomStrategy()
                                 for _ in range(n)]
        outcome = play_match(rules[preset], names, seats, rng, event="Benchmark corpus")
        pool.append(write_match(outcome.record))
    return pool


def corpus_dir(size: int, seed: int, root: Path = DATA) -> Path:
    return root / f"corpus-{show_size(size)}-s{seed}-v{VERSION}"


def ensure_corpus(size: int, seed: int = 1, root: Path = DATA, *, quiet: bool = False) -> Path:
    """The folder of a corpus of ``size`` bytes, generated unless cached."""
    folder = corpus_dir(size, seed, root)
    done = folder / "COMPLETE"
    if done.exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)  # an interrupted run
    folder.mkdir(parents=True)
    start = time.perf_counter()
    pool = [text.encode() for text in match_pool(seed)]
    rng = random.Random(seed + 1)
    written = 0
    index = 0
    while written < size:
        target = min(size - written, int(math.exp(rng.uniform(math.log(MIN_FILE),
                                                              math.log(MAX_FILE)))))
        sub = folder / f"part-{index // FILES_PER_FOLDER:03d}"
        sub.mkdir(exist_ok=True)
        n = 0
        with open(sub / f"records-{index:05d}.mgn", "wb") as f:
            while True:
                text = rng.choice(pool)
                f.write(b"\n" + text if n else text)
                n += len(text) + (1 if n else 0)
                if n >= target:
                    break
        written += n
        index += 1
        if not quiet and index % 100 == 0:
            print(f"  {written / 1024**2:,.0f} MB in {index} files", file=sys.stderr)
    done.write_text(f"{index} files, {written} bytes, "
                    f"{time.perf_counter() - start:.1f} s to generate\n")
    return folder


def corpus_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.mgn"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1G", help="corpus size: 1G, 64M, ... (default 1G)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=DATA, help="parent folder (bench/.data)")
    args = ap.parse_args()
    print(ensure_corpus(parse_size(args.size), args.seed, args.out))


if __name__ == "__main__":
    main()
