"""What compiling the core with mypyc would buy ``check``:
``python bench/bench_compiled.py [--turns N] [--repeat K]``.

Not a build the project ships: a measurement for deciding whether to ship
one. Copies ``src/muggins_cli`` to a temporary folder, compiles the modules
a ``check`` spends its time in (the parser, the record model, tiles, the
layout table and layout, the replay) with mypyc (``build_ext --inplace``;
mypy, which brings mypyc, and a C compiler are needed), and times, in
fresh processes taking turns, the plain and the compiled tree on the same
file of self-played matches (``bench_check.py``'s, all three presets, half
of them kept without deals): reading every match, then replaying every
match, in one process. Prints the minimum and median seconds of each and
the ratios, and checks that both trees give the same summaries and
diagnostics.

mypyc checks types at run time where mypy narrowed them: the parser's
``feed`` returns ``self._done`` right after setting it to None, which mypy
narrows to None although the methods it calls set it. The copy reads it
through a method; the benchmark says so and stops if that text changed.

Measured (session 9, 100,000 turns, five runs each, fresh processes):
reading min 0.434 s plain, 0.263 s compiled (1.65x); replaying min
0.672 s plain, 0.332 s compiled (2.03x); the same summaries and
diagnostics. With the start-up and the rest of the command as they are,
that would bring ``check`` to about half of python-chess's cost per move,
not the fifth that was asked for.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import DATA, make_mgn

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ("replay/tracker.py", "replay/state.py", "notation/parser.py", "notation/model.py",
            "tiles.py", "engine/table.py", "engine/layout.py")

#: One fresh process: read the file's matches, then replay them all; prints
#: the two times and a digest of every summary and diagnostic.
TIMED = """
import hashlib, sys, time
from muggins_cli.process import tune_collector
tune_collector()
from muggins_cli.check import record_resolver
from muggins_cli.notation.parser import iter_matches
from muggins_cli.replay.replay import replay_match
import muggins_cli.replay.tracker as module
path = sys.argv[1]
with open(path, encoding="utf-8") as fh:
    lines = fh.read().split("\\n")
start = time.perf_counter()
matches = list(iter_matches(lines))
read = time.perf_counter() - start
resolve = record_resolver(path)
start = time.perf_counter()
replays = [replay_match(m, resolve) for m in matches]
replayed = time.perf_counter() - start
digest = hashlib.sha256(repr([(r.summary, r.diagnostics) for r in replays]).encode())
print(read, replayed, digest.hexdigest()[:16], module.__file__)
"""


def compiled_copy(folder: Path) -> Path:
    """``src/muggins_cli`` under ``folder``, its core compiled in place."""
    shutil.copytree(ROOT / "src" / "muggins_cli", folder / "muggins_cli",
                    ignore=shutil.ignore_patterns("__pycache__"))
    parser = folder / "muggins_cli" / "notation" / "parser.py"
    text = parser.read_text(encoding="utf-8")
    old = "        return self._done\n"
    if old not in text:
        raise SystemExit("parser.py changed: update bench_compiled.py's patch")
    text = text.replace(old, "        return self._finished()\n").replace(
        "    def finish(self) -> Match | None:",
        "    def _finished(self) -> Match | None:\n        return self._done\n\n"
        "    def finish(self) -> Match | None:")
    parser.write_text(text, encoding="utf-8")
    modules = [f"muggins_cli/{name}" for name in COMPILED]
    build = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "sys.argv = ['setup.py', 'build_ext', '--inplace']\n"
        f"setup(name='muggins-compiled', ext_modules=mypycify({modules!r}, "
        "opt_level='3'))\n"
    )
    done = subprocess.run([sys.executable, "-c", build], cwd=folder,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit("mypyc could not compile the copy:\n" + done.stderr[-2000:])
    # build_ext --inplace puts each module beside its source, where the
    # package imports it first.
    return folder


def timed(tree: Path, path: Path) -> tuple[float, float, str, str]:
    done = subprocess.run([sys.executable, "-c", TIMED, str(path)], capture_output=True,
                          text=True, check=True, env={"PYTHONPATH": str(tree)})
    read, replayed, digest, module = done.stdout.split()
    return float(read), float(replayed), digest, module


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"compiled-{args.turns}.mgn"
    if not path.exists():
        text, _, _ = make_mgn(args.turns, seed=2026)
        path.write_text(text, encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        compiled = compiled_copy(Path(tmp) / "compiled")
        plain = ROOT / "src"
        got: dict[str, list[tuple[float, float]]] = {"plain": [], "compiled": []}
        digests: dict[str, set[str]] = {"plain": set(), "compiled": set()}
        for _ in range(args.repeat):
            for name, tree in (("plain", plain), ("compiled", compiled)):
                read, replayed, digest, module = timed(tree, path)
                if name == "compiled" and not module.endswith(".so"):
                    raise SystemExit(f"the compiled copy imported {module}, not an extension")
                got[name].append((read, replayed))
                digests[name].add(digest)
    if digests["plain"] != digests["compiled"] or len(digests["plain"]) != 1:
        print(f"summaries and diagnostics DIFFER: {digests}")
        return 1
    print(f"file: {path.name}, about {args.turns:,} turns; {args.repeat} runs of each, "
          "taking turns; same summaries and diagnostics")
    for i, what in enumerate(("read", "replay")):
        p = [run[i] for run in got["plain"]]
        c = [run[i] for run in got["compiled"]]
        print(f"{what:7}: plain min {min(p):.3f} s, median {statistics.median(p):.3f} s; "
              f"compiled min {min(c):.3f} s, median {statistics.median(c):.3f} s; "
              f"{min(p) / min(c):.2f}x (mins), "
              f"{statistics.median(p) / statistics.median(c):.2f}x (medians)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
