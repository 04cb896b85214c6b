"""A differential harness: the outputs of check, analyze and fmt, saved and compared.

    python bench/diff_outputs.py --save /tmp/baseline       # before a change
    python bench/diff_outputs.py --against /tmp/baseline    # after it: 0 differences

Runs, in this process (Typer's test runner, so thousands of files take
minutes, not hours), for every file of the corpus:

- ``muggins check --jobs 1 --format json`` and ``--format text``,
- ``muggins analyze --jobs 1 --format json`` (no solver),
- ``muggins fmt`` (the canonical text on standard output),
- with ``--study``, ``muggins study`` (the page of each file's first match;
  kept compressed, as a page is large),

and keeps each one's exit status, standard output and standard error; and
the ``repr`` of the parsed matches (``notation.reading.read_matches``), which
shows the line and column of every token, also of those no output names. The
corpus is ``records/``, the conformance corpus (``clean`` and ``faults``,
from ``tests/data/conformance``) and ``--mutants`` records made from
self-played matches (200 of them; every preset, two to four players, a fixed seed) with
one to three mutations each: a line deleted, duplicated or swapped with the
next, a digit changed, a tile changed, an end letter changed, a claim
dropped or added, a score line dropped, the deal and stock lines dropped
(hidden hands), draws written ``d??``; and the records of ``--extra``
folders (hand-made ones, such as records with comments). The corpus is written to
``--corpus`` (the same folder for both runs, as paths appear in outputs)
and the commands run from inside it with relative paths.

Prints the number of outputs that differ and the first few differences
(unified diffs); exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import hashlib
import json
import os
import random
import shutil
import sys
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy, Strategy
from muggins_cli.rules.loader import load_preset

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
NAMES = ("Ana", "Budi", "Chen", "Dara")
PRESETS = ("pagat", "spinner", "all-threes")

COMMANDS: dict[str, list[str]] = {
    "check-json": ["check", "--jobs", "1", "--format", "json"],
    "check-text": ["check", "--jobs", "1", "--format", "text"],
    "analyze-json": ["analyze", "--jobs", "1", "--format", "json"],
    "fmt": ["fmt"],
}
#: The page of ``muggins study`` (``--study``): its output is kept compressed.
STUDY: dict[str, list[str]] = {"study": ["study"]}
PACKED = "zlib "


def _pack(text: str) -> str:
    return PACKED + base64.b64encode(zlib.compress(text.encode(), 9)).decode()


def _unpack(text: str) -> str:
    if text.startswith(PACKED):
        return zlib.decompress(base64.b64decode(text[len(PACKED):])).decode()
    return text


# ---------------------------------------------------------------------------
# The corpus


def self_played(rng: random.Random, count: int, *, names: Sequence[str] = NAMES,
                targets: Sequence[int] = (), max_rounds: int = 40) -> list[str]:
    """``count`` self-played matches as canonical MGN, the presets in turn,
    two to four seats of ``greedy`` or ``random``; each to a target drawn
    from ``targets`` (the preset's own when empty)."""
    out: list[str] = []
    for i in range(count):
        preset = PRESETS[i % 3]
        n = 2 + (i // 3) % 3
        rules = load_preset(preset)
        seats: list[Strategy] = [GreedyStrategy() if rng.random() < 0.5 else RandomStrategy()
                                 for _ in range(n)]
        target = rng.choice(targets) if targets else None
        outcome = play_match(rules, list(names[:n]), seats, rng, rules_tag=preset,
                             target=target, max_rounds=max_rounds)
        out.append(write_match(outcome.record))
    return out


def _body_indexes(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line and not line.startswith("[")]


def mutate(text: str, rng: random.Random) -> str:
    """One mutation of a record's text, chosen by ``rng``."""
    lines = text.split("\n")
    body = _body_indexes(lines)
    if not body:
        return text
    kind = rng.randrange(12)
    i = rng.choice(body)
    line = lines[i]
    if kind == 0:  # delete a line
        del lines[i]
    elif kind == 1:  # duplicate a line
        lines.insert(i, line)
    elif kind == 2 and i + 1 < len(lines):  # swap with the next line
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 3:  # change a digit
        digits = [k for k, c in enumerate(line) if c.isdigit()]
        if digits:
            k = rng.choice(digits)
            lines[i] = line[:k] + str(rng.randrange(10)) + line[k + 1:]
    elif kind == 4:  # change a tile
        tiles = [k for k in range(len(line) - 2)
                 if line[k].isdigit() and line[k + 1] == "-" and line[k + 2].isdigit()]
        if tiles:
            k = rng.choice(tiles)
            a, b = rng.randrange(8), rng.randrange(8)
            lines[i] = line[:k] + f"{a}-{b}" + line[k + 3:]
    elif kind == 5:  # change, add or drop an end letter
        ends = [k for k, c in enumerate(line) if c in "LRUD" and k and line[k - 1].isdigit()]
        if ends:
            k = rng.choice(ends)
            lines[i] = line[:k] + rng.choice(["L", "R", "U", "D", ""]) + line[k + 1:]
    elif kind == 6:  # drop or add a claim
        if " +" in line:
            lines[i] = line[:line.index(" +")]
        elif ":" in line and "pass" not in line:
            lines[i] = line + f" +{rng.choice((5, 10, 15))}"
    elif kind == 7:  # drop a score line
        scores = [k for k in body if lines[k].startswith("score")]
        if scores:
            del lines[rng.choice(scores)]
    elif kind == 8:  # hidden hands: no deal or stock lines
        lines = [x for x in lines if not x.startswith(("deal ", "stock "))]
    elif kind == 9:  # draws without faces
        lines = [" ".join("d??" if w.startswith("d") and "-" in w else w
                          for w in x.split(" ")) if ":" in x else x for x in lines]
    elif kind == 10:  # the reveal and score lines of a round dropped
        lines = [x for x in lines if not x.startswith(("reveal ", "score "))]
    else:  # truncate the record
        del lines[i:]
    return "\n".join(lines)


def build_corpus(folder: Path, mutants: int, seed: int,
                 extra: Sequence[Path] = ()) -> list[str]:
    """Write the corpus to ``folder`` (with the ``extra`` folders' records);
    its files, relative to it, sorted."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "records", folder / "records")
    shutil.copytree(CONFORMANCE / "clean", folder / "clean")
    shutil.copytree(CONFORMANCE / "faults", folder / "faults")
    rng = random.Random(seed)
    pool = self_played(rng, max(30, mutants // 10))
    (folder / "selfplay").mkdir()
    for k, text in enumerate(pool):
        (folder / "selfplay" / f"sp-{k:04d}.mgn").write_text(text, encoding="utf-8")
    (folder / "mutants").mkdir()
    for k in range(mutants):
        text = pool[rng.randrange(len(pool))]
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = mutate(text, rng)
        (folder / "mutants" / f"mut-{k:05d}.mgn").write_text(text, encoding="utf-8")
    for k, more in enumerate(extra):
        shutil.copytree(more, folder / f"extra-{k}")
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.mgn"))


# ---------------------------------------------------------------------------
# Running the commands


def run_all(folder: Path, files: list[str],
            commands: Mapping[str, list[str]] = COMMANDS) -> dict[str, str]:
    """Every command on every file: ``{"NAME FILE": output}`` (that of a
    ``STUDY`` command compressed)."""
    import typer.main
    from click.testing import CliRunner

    from muggins_cli.cli import app

    # The Click command built once (Typer's own runner builds it again for
    # every call, which costs more than checking a small file).
    command_ = typer.main.get_command(app)
    runner = CliRunner()
    out: dict[str, str] = {}
    here = os.getcwd()
    os.chdir(folder)
    try:
        for n, name in enumerate(files, 1):
            for command, args in commands.items():
                result = runner.invoke(command_, [*args, name], prog_name="muggins",
                                       catch_exceptions=True)
                stderr = result.stderr if result.stderr_bytes is not None else ""
                text = (f"exit {result.exit_code}\n--- stdout\n{result.stdout}"
                        f"--- stderr\n{stderr}")
                if result.exception is not None and not isinstance(result.exception,
                                                                   SystemExit):
                    text += f"--- exception\n{type(result.exception).__name__}: " \
                            f"{result.exception}\n"
                out[f"{command} {name}"] = _pack(text) if command in STUDY else text
            out[f"parse {name}"] = _parsed(name)
            if n % 500 == 0:
                print(f"  {n}/{len(files)} files", file=sys.stderr)
    finally:
        os.chdir(here)
    return out


def _parsed(name: str) -> str:
    from muggins_cli.errors import InputError
    from muggins_cli.notation.reading import read_matches

    try:
        return "\n".join(repr(match) for match in read_matches(name))
    except InputError as e:
        return f"InputError: {e}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", type=Path, help="save the outputs in this folder")
    ap.add_argument("--against", type=Path, help="compare with the outputs saved here")
    ap.add_argument("--corpus", type=Path, default=Path("/tmp/muggins-diff-corpus"),
                    help="where the corpus is written (default /tmp/muggins-diff-corpus)")
    ap.add_argument("--mutants", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--show", type=int, default=5, help="differences to print")
    ap.add_argument("--study", action="store_true",
                    help="also the study page of each file's first match")
    ap.add_argument("--extra", type=Path, action="append", default=[],
                    help="a folder of more records for the corpus (may be repeated)")
    args = ap.parse_args()
    if args.save is None and args.against is None:
        ap.error("give --save DIR or --against DIR (or both)")
    files = build_corpus(args.corpus, args.mutants, args.seed, args.extra)
    commands = {**COMMANDS, **(STUDY if args.study else {})}
    print(f"{len(files)} files, {len(commands)} commands each", file=sys.stderr)
    outputs = run_all(args.corpus, files, commands)
    digest = hashlib.sha256(json.dumps(outputs, sort_keys=True).encode()).hexdigest()
    print(f"outputs digest {digest[:16]}")
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
        (args.save / "outputs.json").write_text(json.dumps(outputs, indent=0, sort_keys=True))
        print(f"saved {len(outputs)} outputs to {args.save}")
    if args.against is not None:
        saved: dict[str, str] = json.loads((args.against / "outputs.json").read_text())
        keys = sorted(set(saved) | set(outputs))
        differing = [k for k in keys if saved.get(k) != outputs.get(k)]
        print(f"{len(differing)} of {len(keys)} outputs differ")
        for k in differing[: args.show]:
            print(f"=== {k}")
            diff = difflib.unified_diff(_unpack(saved.get(k, "")).splitlines(),
                                        _unpack(outputs.get(k, "")).splitlines(),
                                        "saved", "now", lineterm="", n=2)
            print("\n".join(list(diff)[:40]))
        if differing:
            sys.exit(1)


if __name__ == "__main__":
    main()
