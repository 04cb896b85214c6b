"""One slip, one finding: how many findings ``check`` gives for a record that
holds a single slip of a person writing it, kind by kind.

    python bench/bench_slips.py                        # this tree
    python bench/bench_slips.py --src /work/main/src   # another tree's src folder
    python bench/bench_slips.py --show digits          # the misses of one kind, in full

Makes a corpus of slipped records from the clean records of ``records/``
and from self-played matches (every preset, two to four players, greedy and
random seats; complete records: deals, stock, claims, reveals, score
lines). Each slipped record holds one slip of one kind:

- ``name-typo``: a turn's name mistyped (a letter dropped, doubled,
  swapped with the next or changed), so that it names nobody;
- ``name-case``: a turn's name in the wrong case (``budi:``, ``BUDI:``);
- ``no-colon``: a turn's colon left out (``Budi 3-4L``);
- ``no-d-placed``: a tile drawn and placed written without its draw
  (``Budi: d3-6 3-6L`` as ``Budi: 3-6L``);
- ``no-d-list``: one draw of a turn written without its ``d``
  (``Budi: d0-5 4-5 d3-6 3-6L``);
- ``digits``: one digit of a placed tile written wrong, so that the tile
  written is one the player does not hold;
- ``drop-turn``: a turn line left out (not a closing pass);
- ``double-turn``: a turn line written twice;
- ``end-letter``: a placement's end letter written as an end the tile does
  not fit, or one that is not open;
- ``claim-5``: a claim five points off the score (above it under muggins
  rules, where less is allowed);
- ``score-line``: one total of a ``score`` line five points off;
- ``lead-line``: a ``lead`` line naming another player.

Each slipped record knows the line of its slip: where the slip is, or for a
dropped line the line where the record first goes wrong (the line that now
stands where the dropped one stood, the first that is not blank; at the end
of the record, the ``Result`` tag); for a ``lead`` line of a round whose
leader is chosen by lot, the round's first turn, which is where a wrong
``lead`` line shows. A record is checked as ``check`` checks it (every
diagnostic of the parser and the replay), and a finding is one of severity
error or warning. For each kind the bench prints how many records, the
share that give exactly one finding, the median, 90th percentile and most
findings, and the share whose first error is on the slip's line.

It also makes records with two slips in rounds at least one round apart,
and counts those whose findings hold an error or warning on each slip's
line ("both found").

The checking runs in a process of the tree given by ``--src`` (this one by
default), so a baseline is measured with the same corpus.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ana", "Budi", "Citra", "Dewi")
KINDS = ("name-typo", "name-case", "no-colon", "no-d-placed", "no-d-list", "digits",
         "drop-turn", "double-turn", "end-letter", "claim-5", "score-line", "lead-line")
_DRAW = re.compile(r"\bd([0-9]+)-([0-9]+)\b")
_PLACED = re.compile(r"(?<=[: ])([0-9]+)-([0-9]+)([LRUD]?)(?:[!?]{1,2})?(?= |$)")
_CLAIM = re.compile(r" \+([0-9]+)$")


# ---------------------------------------------------------------------------
# The clean sources, and what their replay says of each turn


@dataclass
class Turn:
    """A played turn of a clean source, as the bench needs it."""

    index: int  # 0-based line index in the text
    round: int
    seat: int
    hand: frozenset[tuple[int, int]] | None  # the mover's tiles (after draws)
    placed: tuple[int, int] | None  # the tile as a sorted pair
    end: str | None
    points: int
    open_ends: dict[str, int]  # the layout's open ends before the turn
    went_out: bool


@dataclass
class Source:
    name: str
    text: str
    players: tuple[str, ...]
    muggins: bool
    max_pip: int
    by_deal: bool  # the highest double dealt leads a round no going out decides
    turns: list[Turn]  # the turns a slip may go in
    every: list[Turn]  # every turn of the record

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def _sources(rng: random.Random, selfplay: int, folder: Path) -> list[Source]:
    sys.path.insert(0, str(ROOT / "bench"))
    from diff_outputs import self_played
    from muggins_cli.check import record_resolver
    from muggins_cli.engine.layout import open_ends
    from muggins_cli.notation.parser import parse_text
    from muggins_cli.replay.replay import replay_match

    texts = [(p.name, p.read_text(encoding="utf-8"))
             for p in sorted((ROOT / "records").glob("*.mgn"))]
    texts += [(f"selfplay-{k:03d}", t) for k, t in
              enumerate(self_played(rng, selfplay, names=NAMES, targets=(61, 121),
                                    max_rounds=12))]
    resolve = record_resolver(str(folder / "r.mgn"))
    out = []
    for name, text in texts:
        matches = parse_text(text)
        if len(matches) != 1:
            continue
        r = replay_match(matches[0], resolve, collect_events=True)
        if any(d.severity.value != "info" for d in r.diagnostics) or r.rules is None:
            continue  # only clean records are slipped
        turns = []
        for e in r.events:
            placed = (e.placed.tile.lo, e.placed.tile.hi) if e.placed is not None else None
            hand = (frozenset((t.lo, t.hi) for t in e.hand) if e.hand is not None else None)
            turns.append(Turn(
                e.line - 1, e.round, e.seat, hand, placed,
                e.placed.end.value if e.placed is not None and e.placed.end else None,
                e.points, {k.value: v for k, v in open_ends(r.rules, e.layout).items()},
                hand is not None and placed is not None and len(hand) == 1))
        out.append(Source(name, text, tuple(r.summary.players), r.rules.muggins,
                          r.rules.max_pip, r.rules.lead_tile.value == "highest-double",
                          turns, turns))
    return out


# ---------------------------------------------------------------------------
# The slips: each returns (new lines, the slip's line, 1-based) or None


Slip = Callable[[Source, list[str], random.Random], "tuple[list[str], int] | None"]


def _turn_sites(src: Source, lines: list[str], test: Callable[[Turn, str], bool]) -> list[Turn]:
    return [t for t in src.turns if test(t, lines[t.index])]


def _name_of(line: str) -> str:
    return line.split(":", 1)[0]


def _typo(name: str, rng: random.Random) -> str:
    k = rng.randrange(len(name))
    how = rng.randrange(4)
    if how == 0 and len(name) > 2:
        return name[:k] + name[k + 1:]  # a letter dropped
    if how == 1:
        return name[:k] + name[k] + name[k:]  # a letter doubled
    if how == 2 and k + 1 < len(name) and name[k] != name[k + 1]:
        return name[:k] + name[k + 1] + name[k] + name[k + 2:]  # two letters swapped
    letters = "aeiounrstlk"
    return name[:k] + rng.choice([c for c in letters if c != name[k].lower()]) + name[k + 1:]


def slip_name_typo(src: Source, lines: list[str], rng: random.Random
                   ) -> tuple[list[str], int] | None:
    sites = _turn_sites(src, lines, lambda t, s: ":" in s)
    if not sites:
        return None
    t = rng.choice(sites)
    line = lines[t.index]
    name = _name_of(line)
    for _ in range(20):
        new = _typo(name, rng)
        if new and new not in src.players and new.lower() not in {p.lower() for p in src.players}:
            break
    else:
        return None
    lines[t.index] = new + line[len(name):]
    return lines, t.index + 1


def slip_name_case(src: Source, lines: list[str], rng: random.Random
                   ) -> tuple[list[str], int] | None:
    sites = _turn_sites(src, lines, lambda t, s: ":" in s)
    t = rng.choice(sites)
    line = lines[t.index]
    name = _name_of(line)
    new = rng.choice((name.lower(), name.upper()))
    if new == name:
        new = name.swapcase()
    lines[t.index] = new + line[len(name):]
    return lines, t.index + 1


def slip_no_colon(src: Source, lines: list[str], rng: random.Random
                  ) -> tuple[list[str], int] | None:
    t = rng.choice(src.turns)
    lines[t.index] = lines[t.index].replace(":", "", 1)
    return lines, t.index + 1


def slip_no_d_placed(src: Source, lines: list[str], rng: random.Random
                     ) -> tuple[list[str], int] | None:
    def drawn_and_placed(t: Turn, s: str) -> bool:
        draws = list(_DRAW.finditer(s))
        return bool(draws) and t.placed is not None and \
            tuple(sorted(map(int, draws[-1].groups()))) == t.placed
    sites = _turn_sites(src, lines, drawn_and_placed)
    if not sites:
        return None
    t = rng.choice(sites)
    line = lines[t.index]
    last = list(_DRAW.finditer(line))[-1]
    lines[t.index] = line[:last.start()] + line[last.end() + 1:]
    return lines, t.index + 1


def slip_no_d_list(src: Source, lines: list[str], rng: random.Random
                   ) -> tuple[list[str], int] | None:
    sites = _turn_sites(src, lines, lambda t, s: bool(_DRAW.search(s)))
    if not sites:
        return None
    t = rng.choice(sites)
    line = lines[t.index]
    draw = rng.choice(list(_DRAW.finditer(line)))
    lines[t.index] = line[:draw.start()] + line[draw.start() + 1:]
    return lines, t.index + 1


def slip_digits(src: Source, lines: list[str], rng: random.Random
                ) -> tuple[list[str], int] | None:
    sites = _turn_sites(src, lines, lambda t, s: t.placed is not None and t.hand is not None)
    rng.shuffle(sites)
    for t in sites:
        line = lines[t.index]
        spots = [m for m in _PLACED.finditer(line)]
        if not spots:
            continue
        m = spots[-1]
        a, b = int(m.group(1)), int(m.group(2))
        assert t.hand is not None
        options = []
        for half in (0, 1):
            for v in range(src.max_pip + 1):
                new = (v, b) if half == 0 else (a, v)
                if tuple(sorted(new)) != t.placed and tuple(sorted(new)) not in t.hand:
                    options.append(new)
        if not options:
            continue
        na, nb = rng.choice(options)
        lines[t.index] = line[:m.start(1)] + f"{na}-{nb}" + line[m.end(2):]
        return lines, t.index + 1
    return None


def _first_after(lines: list[str], index: int) -> int:
    """The 1-based line of the first line at ``index`` or after that is not
    blank; at the end of the text, the Result tag's."""
    for k in range(index, len(lines)):
        if lines[k].strip():
            return k + 1
    for k, line in enumerate(lines):
        if line.startswith("[Result"):
            return k + 1
    return 1


def slip_drop_turn(src: Source, lines: list[str], rng: random.Random
                   ) -> tuple[list[str], int] | None:
    t = rng.choice(src.turns)
    del lines[t.index]
    return lines, _first_after(lines, t.index)


def slip_double_turn(src: Source, lines: list[str], rng: random.Random
                     ) -> tuple[list[str], int] | None:
    t = rng.choice(src.turns)
    lines.insert(t.index + 1, lines[t.index])
    return lines, t.index + 2


def slip_end_letter(src: Source, lines: list[str], rng: random.Random
                    ) -> tuple[list[str], int] | None:
    sites = _turn_sites(src, lines, lambda t, s: t.end is not None and t.placed is not None)
    rng.shuffle(sites)
    for t in sites:
        assert t.placed is not None
        a, b = t.placed
        wrong = [e for e in "LRUD" if e != t.end and
                 (e not in t.open_ends or t.open_ends[e] not in (a, b))]
        if not wrong:
            continue
        line = lines[t.index]
        m = list(_PLACED.finditer(line))[-1]
        lines[t.index] = line[:m.start(3)] + rng.choice(wrong) + line[m.end(3):]
        return lines, t.index + 1
    return None


def slip_claim(src: Source, lines: list[str], rng: random.Random
               ) -> tuple[list[str], int] | None:
    placed = [t for t in src.turns if t.placed is not None]
    if not placed:
        return None
    t = rng.choice(placed)
    line = lines[t.index]
    claim = t.points + 5
    if not src.muggins and t.points >= 5 and rng.random() < 0.5:
        claim = t.points - 5
    found = _CLAIM.search(line)
    head = line[:found.start()] if found else line
    lines[t.index] = f"{head} +{claim}"
    return lines, t.index + 1


def slip_score_line(src: Source, lines: list[str], rng: random.Random
                    ) -> tuple[list[str], int] | None:
    sites = [k for k, line in enumerate(lines) if line.startswith("score ")]
    if not sites:
        return None
    k = rng.choice(sites)
    numbers = list(re.finditer(r"[0-9]+", lines[k]))
    m = rng.choice(numbers)
    value = int(m.group())
    value = value + 5 if value < 5 or rng.random() < 0.5 else value - 5
    lines[k] = lines[k][:m.start()] + str(value) + lines[k][m.end():]
    return lines, k + 1


def slip_lead_line(src: Source, lines: list[str], rng: random.Random
                   ) -> tuple[list[str], int] | None:
    rounds = {t.round for t in src.turns}
    sites = []
    for k, line in enumerate(lines):
        after = [t for t in src.every if t.index > k]
        if line.startswith("lead ") and after:
            first = min(after, key=lambda t: t.index)
            if first.round in rounds:
                sites.append((k, first))
    if not sites:
        return None
    k, first = rng.choice(sites)
    named = lines[k][5:].strip()
    others = [p for p in src.players if p != named]
    lines[k] = "lead " + rng.choice(others)
    # Where a wrong lead line shows: on the line when the last round's
    # going out or the deal (the highest double) decided the leader, else
    # (chosen by lot) at the first turn.
    earlier = [t for t in src.every if t.round == first.round - 1]
    decided = src.by_deal or (bool(earlier) and max(earlier, key=lambda t: t.index).went_out)
    return lines, (k + 1 if decided else first.index + 1)


SLIPS: dict[str, Slip] = {
    "name-typo": slip_name_typo, "name-case": slip_name_case, "no-colon": slip_no_colon,
    "no-d-placed": slip_no_d_placed, "no-d-list": slip_no_d_list, "digits": slip_digits,
    "drop-turn": slip_drop_turn, "double-turn": slip_double_turn,
    "end-letter": slip_end_letter, "claim-5": slip_claim, "score-line": slip_score_line,
    "lead-line": slip_lead_line,
}
#: How each slip moves the lines after it.
SHIFT = {"drop-turn": -1, "double-turn": 1}


def _slip_round(src: Source, line: int) -> int:
    """The round of a 1-based line of the clean source."""
    r = 0
    for text in src.lines[:line]:
        if text.startswith("round "):
            r += 1
    return r


def make_corpus(sources: list[Source], per_kind: int, pairs: int, seed: int
                ) -> list[dict[str, object]]:
    rng = random.Random(seed)
    corpus: list[dict[str, object]] = []
    for kind in KINDS:
        made = 0
        tries = 0
        while made < per_kind and tries < per_kind * 20:
            tries += 1
            src = sources[rng.randrange(len(sources))]
            got = SLIPS[kind](src, src.lines, rng)
            if got is None:
                continue
            lines, at = got
            corpus.append({"name": f"{kind} {src.name}", "kind": kind,
                           "text": "\n".join(lines), "lines": [at]})
            made += 1
    # Two slips far apart: the later one made first, so the earlier one's
    # line stays; the later line moves with what the earlier slip did.
    made = 0
    tries = 0
    while made < pairs and tries < pairs * 50:
        tries += 1
        src = sources[rng.randrange(len(sources))]
        rounds = sorted({t.round for t in src.every})
        if len(rounds) < 3:
            continue
        k1, k2 = rng.choice(KINDS), rng.choice(KINDS)
        first_round = rng.choice(rounds[:-2])
        second_round = rng.choice([r for r in rounds if r >= first_round + 2])
        late = _restricted(src, second_round)
        got2 = SLIPS[k2](late, late.lines, rng)
        if got2 is None or _slip_round(src, _origin(got2[1], k2)) != second_round:
            continue
        lines2, at2 = got2
        early = _restricted(Source(src.name, "\n".join(lines2), src.players, src.muggins,
                                   src.max_pip, src.by_deal, src.every, src.every), first_round)
        got1 = SLIPS[k1](early, early.lines, rng)
        if got1 is None or _slip_round(src, got1[1]) != first_round:
            continue
        lines1, at1 = got1
        corpus.append({"name": f"pair {k1}+{k2} {src.name}", "kind": "two slips",
                       "text": "\n".join(lines1), "lines": [at1, at2 + SHIFT.get(k1, 0)]})
        made += 1
    return corpus


def _origin(line: int, kind: str) -> int:
    return line - 1 if kind == "double-turn" else line


def _restricted(src: Source, round_number: int) -> Source:
    """``src`` with only one round's turns to slip (its lines unchanged)."""
    return Source(src.name, src.text, src.players, src.muggins, src.max_pip, src.by_deal,
                  [t for t in src.every if t.round == round_number], src.every)


# ---------------------------------------------------------------------------
# Checking, in a process of the tree asked for


def emit(corpus: Path) -> None:
    """One JSON line per record: its findings (line, column, severity, code,
    message), the parser's and the replay's, as ``check`` reports them."""
    from muggins_cli.check import record_resolver
    from muggins_cli.notation.parser import parse_text
    from muggins_cli.replay.replay import replay_match

    folder = corpus.with_suffix(".d")
    resolve = record_resolver(str(folder / "r.mgn"))
    for record in json.loads(corpus.read_text(encoding="utf-8")):
        found = []
        for match in parse_text(record["text"]):
            r = replay_match(match, resolve)
            found += [(d.line, d.column, d.severity.value, d.code, d.message)
                      for d in r.diagnostics]
        print(json.dumps(found), flush=True)


def _check(src: Path, corpus: Path) -> list[list[tuple[int, int, str, str, str]]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, __file__, "--emit", str(corpus)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the check with {src} failed:\n{done.stderr[-3000:]}")
    return [[tuple(d) for d in json.loads(line)]  # type: ignore[misc]
            for line in done.stdout.splitlines()]


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def _p90(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", type=Path, default=ROOT / "src",
                    help="the src folder of the tree that checks (default: this one)")
    ap.add_argument("--per-kind", type=int, default=30, help="slipped records per kind")
    ap.add_argument("--pairs", type=int, default=60, help="records with two slips")
    ap.add_argument("--selfplay", type=int, default=36, help="self-played sources")
    ap.add_argument("--seed", type=int, default=43)
    ap.add_argument("--corpus", type=Path,
                    default=Path(tempfile.gettempdir()) / "muggins-slips.json")
    ap.add_argument("--show", metavar="KIND", help="print every record of KIND that misses")
    ap.add_argument("--emit", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.emit is not None:
        emit(args.emit)
        return 0
    folder = args.corpus.with_suffix(".d")
    folder.mkdir(parents=True, exist_ok=True)
    for rules_file in (ROOT / "records").glob("*.yaml"):
        (folder / rules_file.name).write_text(rules_file.read_text(encoding="utf-8"),
                                              encoding="utf-8")
    sources = _sources(random.Random(args.seed), args.selfplay, folder)
    corpus = make_corpus(sources, args.per_kind, args.pairs, args.seed)
    args.corpus.write_text(json.dumps(corpus), encoding="utf-8")
    results = _check(args.src.resolve(), args.corpus)
    print(f"{len(corpus)} slipped records from {len(sources)} clean sources; "
          f"checked by {args.src}")
    print(f"{'kind':<12} {'records':>7} {'one':>7} {'median':>6} {'p90':>4} {'max':>4} "
          f"{'first at slip':>13}")
    single_all = at_all = total = 0
    counts_all: list[int] = []
    for kind in (*KINDS, "two slips"):
        rows = [(rec, found) for rec, found in zip(corpus, results) if rec["kind"] == kind]
        if not rows:
            continue
        counts, single, at_line = [], 0, 0
        for rec, found in rows:
            shown = [d for d in found if d[2] in ("error", "warning")]
            errors = sorted(d for d in shown if d[2] == "error")
            want = rec["lines"]
            assert isinstance(want, list)
            counts.append(len(shown))
            if kind == "two slips":
                ok = all(any(d[0] == w for d in shown) for w in want)
                single += len(shown) == 2
                at_line += ok
            else:
                single += len(shown) == 1
                first = errors[0] if errors else (shown[0] if shown else None)
                ok = first is not None and first[0] == want[0]
                at_line += ok
            if args.show == kind and (not ok or len(shown) != len(want)):
                print(f"=== {rec['name']} (slip on line {want})")
                for d in found:
                    print(f"  {d[0]}:{d[1]}: {d[2]} {d[3]} {d[4]}")
        print(f"{kind:<12} {len(rows):>7} {_pct(single, len(rows)):>7} "
              f"{statistics.median(counts):>6g} {_p90(counts):>4} {max(counts):>4} "
              f"{_pct(at_line, len(rows)):>13}" + ("  (two found: both lines)"
                                                  if kind == "two slips" else ""))
        if kind != "two slips":
            single_all += single
            at_all += at_line
            total += len(rows)
            counts_all += counts
    print(f"{'all single':<12} {total:>7} {_pct(single_all, total):>7} "
          f"{statistics.median(counts_all):>6g} {_p90(counts_all):>4} {max(counts_all):>4} "
          f"{_pct(at_all, total):>13}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
