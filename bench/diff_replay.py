"""The replay before and after a change, over damaged records: what each
says of every variant, compared.

    python bench/diff_replay.py --old /work/base/src                 # 12,000 variants
    python bench/diff_replay.py --old /work/base/src --variants 500 --show 10
    python bench/diff_replay.py --old /work/base/src --variants 0 \
        --records ../shared/conformance --records /tmp/muggins-slips.json

Makes ``--variants`` damaged copies of the records in ``records/`` and of
self-played matches (every preset, two to four players, greedy and random
seats, half of them kept without deals), each with one to three damages: a
line dropped, doubled or swapped with the next; a digit, a tile, an end
letter, a claim or a drawn tile changed; a draw added or removed; the
deals hidden (no deal or stock lines), the draws written ``d??``, the
reveal and score lines dropped, the record cut short. Then runs, in a
process for the tree at ``--old`` (its ``src`` folder) and one for this
tree, on every variant (and on the records ``--records`` names, as they
are: a folder's, or a corpus of ``bench_slips.py``):

- the replay as ``check`` runs it: every diagnostic (line, column,
  severity, code, message), the summary and how the match ended;
- the turn events of the analysis, every position (``muggins replay``, the
  study page) and every decision (what the solver weighs), as digests of
  their ``repr``;
- on every tenth variant, ``muggins replay`` and ``muggins replay --at``
  at three positions (one past the end), as the terminal shows them.

Prints how many variants differ, by what, and the first ``--show``
differences in full; exits 1 when any differs. The variants are written to
``--corpus`` (a JSON file), so that a difference can be replayed by hand,
and what each tree said beside it (reused while neither the corpus nor the
tree's sources change).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("pagat", "spinner", "all-threes")
NAMES = ("Ana", "Budi", "Citra", "Dewi")

# ---------------------------------------------------------------------------
# The variants


def _self_played(rng: random.Random, count: int) -> list[str]:
    """Self-played records, every other one kept without deals."""
    from diff_outputs import self_played

    texts = self_played(rng, count, names=NAMES, targets=(61, 121), max_rounds=20)
    return [_hidden(text) if i % 2 else text for i, text in enumerate(texts)]


def _hidden(text: str) -> str:
    """As a record kept without deals: no deal or stock lines, draws ``d??``."""
    kept = [line for line in text.split("\n") if not line.startswith(("deal ", "stock "))]
    return "\n".join(re.sub(r"\bd[0-9]+-[0-9]+", "d??", line) for line in kept)


_DRAW = re.compile(r"\bd([0-9]+-[0-9]+|\?\?)")


def _damage(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    body = [i for i, line in enumerate(lines) if line and not line.startswith(("[", "#"))]
    if not body:
        return text
    i = rng.choice(body)
    line = lines[i]
    kind = rng.randrange(14)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, line)
    elif kind == 2 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 3:
        digits = [k for k, c in enumerate(line) if c.isdigit()]
        if digits:
            k = rng.choice(digits)
            lines[i] = line[:k] + str(rng.randrange(10)) + line[k + 1:]
    elif kind == 4:
        tiles = [m.start() for m in re.finditer(r"[0-9]-[0-9]", line)]
        if tiles:
            k = rng.choice(tiles)
            lines[i] = line[:k] + f"{rng.randrange(8)}-{rng.randrange(8)}" + line[k + 3:]
    elif kind == 5:
        ends = [m.start() for m in re.finditer(r"(?<=[0-9])[LRUD]", line)]
        if ends:
            k = rng.choice(ends)
            lines[i] = line[:k] + rng.choice(["L", "R", "U", "D", ""]) + line[k + 1:]
        elif ": " in line and re.search(r"[0-9]-[0-9](?= |$)", line):
            lines[i] = re.sub(r"([0-9]-[0-9])(?= \+| *$)", r"\1" + rng.choice("LRUD"), line,
                              count=1)
    elif kind == 6:
        if " +" in line:
            lines[i] = line[:line.index(" +")] + rng.choice(("", " +5", " +10", " +0"))
        elif ": " in line and "pass" not in line:
            lines[i] = line + f" +{rng.choice((0, 5, 10, 15, 20))}"
    elif kind == 7:
        draws = list(_DRAW.finditer(line))
        if draws and rng.random() < 0.5:
            m = rng.choice(draws)
            new = rng.choice(("", "d??", f"d{rng.randrange(7)}-{rng.randrange(7)}"))
            lines[i] = (line[:m.start()] + new + line[m.end():]).replace("  ", " ")
        elif ": " in line and "muggins" not in line:
            head, rest = line.split(": ", 1)
            lines[i] = f"{head}: {rng.choice(('d??', 'd0-0', 'd3-4', 'd6-6'))} {rest}"
    elif kind == 8:
        lines = [x for x in lines if not x.startswith(("deal ", "stock "))]
    elif kind == 9:
        lines = _hidden("\n".join(lines)).split("\n")
    elif kind == 10:
        lines = [x for x in lines if not x.startswith(("reveal ", "score "))]
    elif kind == 11:
        del lines[i:]
    elif kind == 12:  # a pass for the turn, or a turn for the pass
        if ": " in line and "muggins" not in line:
            head, rest = line.split(": ", 1)
            lines[i] = f"{head}: pass" if "pass" not in rest else f"{head}: 3-4"
    else:  # a muggins call after the line
        name = rng.choice(NAMES)
        lines.insert(i + 1, f"{name}: muggins +{rng.choice((5, 10))}")
    return "\n".join(lines)


def make_variants(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` damaged records: (name, text)."""
    rng = random.Random(seed)
    sources: list[tuple[str, str]] = []
    for path in sorted((ROOT / "records").glob("*.mgn")):
        text = path.read_text(encoding="utf-8")
        sources.append((path.name, text))
        sources.append((path.name + "#hidden", _hidden(text)))
    for k, text in enumerate(_self_played(rng, 120)):
        sources.append((f"selfplay-{k:03d}", text))
    out = []
    for k in range(count):
        name, text = sources[k % len(sources)]
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = _damage(text, rng)
        out.append((f"{k:05d} {name}", text))
    return out


def as_they_are(paths: list[Path]) -> list[tuple[str, str]]:
    """Records compared as they are, undamaged: every ``*.mgn`` below a
    folder (the conformance corpus), or each record of a corpus that
    ``bench_slips.py`` wrote (a JSON list of records, already slipped)."""
    out = []
    for path in paths:
        if path.is_dir():
            out += [(f"{p.relative_to(path)}", p.read_text(encoding="utf-8"))
                    for p in sorted(path.rglob("*.mgn"))]
        else:
            out += [(str(r["name"]), str(r["text"]))
                    for r in json.loads(path.read_text(encoding="utf-8"))]
    return out


# ---------------------------------------------------------------------------
# What a tree says of each variant (run with that tree on sys.path)


def _digest(values: object) -> str:
    return hashlib.sha256(repr(values).encode()).hexdigest()[:16]


#: The fields of a turn event that both trees have, compared as values (a
#: tree whose events carry more, such as what a turn credited, is compared
#: on these; what it adds is held to the analysis by diff_outputs.py).
EVENT_FIELDS = ("round", "turn", "seat", "line", "column", "layout", "hand", "choices",
                "draws", "placed", "points", "scores_before", "stock_left")


def _events(events: list[object]) -> list[tuple[object, ...]]:
    return [tuple(getattr(e, f) for f in EVENT_FIELDS) for e in events]


def _commands(name: str, text: str, folder: Path) -> dict[str, str]:
    """``muggins replay`` as a user sees it: the whole match and three
    positions."""
    from click.testing import CliRunner
    from typer.main import get_command

    from muggins_cli.cli import app

    command = get_command(app)
    path = folder / "r.mgn"
    path.write_text(text, encoding="utf-8")
    out = {}
    rng = random.Random(name)
    ats = [f"{rng.randrange(1, 4)}.{rng.randrange(1, 30)}" for _ in range(2)] + ["1.200"]
    for args in (["replay", str(path)], *(["replay", str(path), "--at", a] for a in ats)):
        result = CliRunner().invoke(command, args, catch_exceptions=True)
        stderr = result.stderr if result.stderr_bytes is not None else ""
        crash = "" if result.exception is None or isinstance(result.exception, SystemExit) \
            else f"{type(result.exception).__name__}: {result.exception}"
        out[" ".join(args[2:]) or "all"] = \
            f"exit {result.exit_code}\n{result.stdout}--- stderr\n{stderr}{crash}"
    return out


def emit(corpus: Path) -> None:
    """Print one JSON line per variant of ``corpus``."""
    from muggins_cli.check import record_resolver
    from muggins_cli.notation.parser import parse_text
    from muggins_cli.replay.replay import replay_match
    try:
        from muggins_cli.replay.replay import decisions, positions
    except ImportError:  # before the replay was one module of visitors
        from muggins_cli.replay.position import decisions, positions  # type: ignore[no-redef]

    # Records read as if beside the rules files of records/ (the paths of
    # messages then name the same folder for both trees).
    folder = corpus.with_suffix(".d")
    folder.mkdir(exist_ok=True)
    for rules_file in (ROOT / "records").glob("*.yaml"):
        (folder / rules_file.name).write_text(rules_file.read_text(encoding="utf-8"),
                                              encoding="utf-8")
    resolve = record_resolver(str(folder / "r.mgn"))
    variants = json.loads(corpus.read_text(encoding="utf-8"))
    for k, (name, text) in enumerate(variants):
        seen: dict[str, object] = {"name": name, "matches": []}
        for match in parse_text(text):
            r = replay_match(match, resolve, collect_events=True)
            seen["matches"].append({  # type: ignore[attr-defined]
                "diagnostics": [(d.line, d.column, d.severity.value, d.code, d.message)
                                for d in r.diagnostics],
                "summary": repr(r.summary), "ending": repr(r.ending),
                "events": _digest(_events(r.events)),
                "positions": _digest(list(positions(match, resolve))),
                "decisions": _digest(list(decisions(match, resolve))),
            })
        if k % 10 == 0:
            seen["commands"] = _commands(name, text, folder)
        print(json.dumps(seen), flush=True)


# ---------------------------------------------------------------------------
# The driver


def _run(src: Path, corpus: Path) -> list[dict[str, object]]:
    """What the tree at ``src`` says of every variant; kept beside the corpus
    under a digest of the tree's sources and the corpus, so that comparing
    one tree with two others runs it once."""
    digest = hashlib.sha256(corpus.read_bytes())
    for path in sorted(src.rglob("*.py")):
        digest.update(path.read_bytes())
    kept = corpus.with_suffix(f".{digest.hexdigest()[:16]}.jsonl")
    if not kept.exists():
        env = dict(os.environ, PYTHONPATH=str(src))
        done = subprocess.run([sys.executable, __file__, "--emit", str(corpus)], env=env,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"the emitter with {src} failed:\n{done.stderr[-3000:]}")
        kept.write_text(done.stdout, encoding="utf-8")
    return [json.loads(line) for line in kept.read_text(encoding="utf-8").splitlines()]


def _differences(old: dict[str, object], new: dict[str, object]) -> list[str]:
    what = []
    for key in sorted(set(old) | set(new)):
        if key == "matches":
            for a, b in zip(old[key], new[key]):  # type: ignore[call-overload]
                what += [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
            if len(old[key]) != len(new[key]):  # type: ignore[arg-type]
                what.append("matches")
        elif key == "commands":
            what += [f"replay {k}" for k in old[key]  # type: ignore[union-attr]
                     if old[key].get(k) != new.get(key, {}).get(k)]  # type: ignore[union-attr]
        elif old.get(key) != new.get(key):
            what.append(key)
    return what


Finding = tuple[int, int, str, str, str]  # line, column, severity, code, message


def _first_error(found: list[Finding]) -> Finding | None:
    errors = sorted((d for d in found if d[2] == "error"), key=lambda d: (d[0], d[1]))
    return errors[0] if errors else None


def _compared(old: list[Finding], new: list[Finding]
              ) -> tuple[bool, bool, list[Finding], list[Finding], list[Finding]]:
    """How two trees' findings of one match differ: whether the first error
    is the same (line, column, code) and whether its words are; the findings
    only the old tree made, those only the new one made, and those both
    made at one place with one code but in other words (the new ones)."""
    old_left = [tuple(d) for d in old]
    new_left = [tuple(d) for d in new]
    for d in list(new_left):
        if d in old_left:
            old_left.remove(d)
            new_left.remove(d)
    reworded = []
    for d in list(new_left):
        same = next((o for o in old_left if o[:4] == d[:4]), None)
        if same is not None:
            old_left.remove(same)
            new_left.remove(d)
            reworded.append(d)
    a, b = _first_error(old), _first_error(new)
    first_same = (a is None) == (b is None) and (a is None or list(a)[:4] == list(b)[:4])
    words_same = first_same and (a is None or list(a) == list(b))
    return first_same, words_same, old_left, new_left, reworded  # type: ignore[return-value]


def _first_in_body(found: list[Finding], body: int) -> Finding | None:
    """The first error on a line of the body (at or after ``body``): a
    Result tag's finding, on the header, is about the match's end."""
    return _first_error([d for d in found if d[0] >= body])


def _round_of(rounds: list[int], line: int) -> int:
    """The number of ``round`` lines at or before ``line``."""
    return sum(1 for r in rounds if r <= line)


def _diagnostics_report(differing: list[tuple[dict, dict, list[str]]],
                        texts: dict[str, str], show: int) -> None:
    """What the differences in findings are, counted: the first error kept or
    not, findings removed, added or reworded, by code; an error or warning
    added is counted apart when the old tree had reported an error earlier
    in its round, or took the match to have ended before it (the old replay
    gave up a round after a tile it could not place, read it on wrong, or
    ended the match on totals a slip had made wrong), and an info apart
    when it names the turn set aside it may follow from."""
    first_other: list[str] = []
    added_in: list[str] = []
    counts: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    added: Counter[str] = Counter()
    reworded: Counter[str] = Counter()
    for a, b, _ in differing:
        lines = texts[a["name"]].split("\n")
        rounds = [k + 1 for k, line in enumerate(lines) if line.startswith("round ")]
        body = rounds[0] if rounds else 1
        for m_old, m_new in zip(a["matches"], b["matches"]):
            if m_old["diagnostics"] == m_new["diagnostics"]:
                continue
            first, words, gone, came, changed = _compared(m_old["diagnostics"],
                                                          m_new["diagnostics"])
            counts["matches whose findings differ"] += 1
            if first:
                counts["first error the same"] += 1
            else:
                x = _first_in_body(m_old["diagnostics"], body)
                y = _first_in_body(m_new["diagnostics"], body)
                if (x is None) == (y is None) and (x is None or list(x)[:4] == list(y)[:4]):
                    counts["first error the same once the Result tag's finding (removed) "
                           "is left aside"] += 1
                else:
                    counts["FIRST ERROR DIFFERS"] += 1
                    first_other.append(a["name"])
            if first and not words:
                counts["first error the same, in other words"] += 1
            old_errors = [tuple(d) for d in m_old["diagnostics"] if d[2] == "error"]
            stray = []
            for d in came:
                if d[2] == "info":
                    kind = ("info: may follow from a turn set aside" if "(this may follow from "
                            "the turn set aside on line" in d[4] else "info")
                elif any(o[0] <= d[0] and (o[3] == "after-match-end" or _round_of(
                        rounds, o[0]) == _round_of(rounds, d[0])) for o in old_errors):
                    kind = "checked where the old tree had given up its round"
                else:
                    kind = "ELSEWHERE"
                    stray.append(d)
                added[f"{d[3]} ({d[2]}, {kind})"] += 1
            if stray:
                counts["MATCHES WITH AN ERROR OR WARNING ADDED ELSEWHERE"] += 1
                added_in.append(a["name"])
            elif came:
                counts["findings added, all infos or where the old tree gave up"] += 1
            elif gone:
                counts["findings removed (none added)"] += 1
            elif changed:
                counts["findings reworded only"] += 1
            removed.update(f"{d[3]} ({d[2]})" for d in gone)
            reworded.update(f"{d[3]} ({d[2]})" for d in changed)
    for what, n in counts.items():
        print(f"  {what}: {n}")
    for title, counter in (("removed", removed), ("added", added), ("reworded", reworded)):
        if counter:
            print(f"  findings {title}, by code:")
            for code, n in counter.most_common():
                print(f"    {code}: {n}")
    if first_other:
        print(f"  first error differs in: {', '.join(first_other[:show])}")
    if added_in:
        print(f"  errors or warnings added elsewhere in: {', '.join(added_in[:show])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, help="the src folder of the tree to compare with")
    ap.add_argument("--variants", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) /
                    "muggins-diff-replay.json")
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--records", type=Path, action="append", default=[],
                    help="also compare, as they are, the records of a folder (*.mgn below) "
                         "or of a bench_slips.py corpus (JSON); may be given again")
    ap.add_argument("--emit", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.emit is not None:
        emit(args.emit)
        return 0
    if args.old is None:
        ap.error("give --old SRC, the src folder of the tree to compare with")
    variants = make_variants(args.variants, args.seed) + as_they_are(args.records)
    args.corpus.write_text(json.dumps(variants), encoding="utf-8")
    print(f"{len(variants)} variants written to {args.corpus}", file=sys.stderr)
    old = _run(args.old.resolve(), args.corpus)
    new = _run(ROOT / "src", args.corpus)
    kinds: Counter[str] = Counter()
    differing = []
    for a, b in zip(old, new, strict=True):
        what = _differences(a, b)
        kinds.update(set(what))
        if what:
            differing.append((a, b, what))
    diagnostics = sum(len(m["diagnostics"]) for v in new for m in v["matches"])  # type: ignore
    print(f"{len(variants)} variants, {diagnostics} diagnostics after; "
          f"{len(differing)} differ" + (f": {dict(kinds)}" if kinds else ""))
    _diagnostics_report(differing, dict(variants), args.show)
    # The worst first: a first error that moved, then findings added.
    def worst(item: tuple[dict, dict, list[str]]) -> int:
        a, b, _ = item
        rank = 2
        for m_old, m_new in zip(a["matches"], b["matches"]):
            first, _w, _g, came, _c = _compared(m_old["diagnostics"], m_new["diagnostics"])
            rank = min(rank, 0 if not first else 1 if came else 2)
        return rank
    differing.sort(key=worst)
    for a, b, what in differing[:args.show]:
        print(f"=== {a['name']}: {', '.join(what)}")
        for m_old, m_new in zip(a["matches"], b["matches"]):  # type: ignore[call-overload]
            gone = [d for d in m_old["diagnostics"] if d not in m_new["diagnostics"]]
            came = [d for d in m_new["diagnostics"] if d not in m_old["diagnostics"]]
            for d in gone:
                print(f"  - {d}")
            for d in came:
                print(f"  + {d}")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
