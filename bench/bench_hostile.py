"""Hostile input, every command: exit status, seconds and peak memory of each case.

    python bench/bench_hostile.py [--only SUBSTRING ...] [--timeout S]

Builds the hostile inputs in a temporary folder (a 10 MB tag value, 20,000
passes, 20,000 players, a Target of 5,000 digits, dangling links, a record
that is no position any deal reaches, README.md, names full of escape
sequences, 100 files of 5,000 findings, the folder of hostile rules files of
``tests/hostile.py``, ...) and runs each case as a user would, one process
at a time, each in a wrapper that measures it (``tests/hostile.py``,
``measure``): stdout to /dev/full or to a pipe whose reader is gone where the
case says so, Ctrl-Z then Ctrl-C (SIGSTOP, SIGINT, SIGCONT to the process
group) for the stopped runs, a file saved by "another program" during
``fmt --in-place``.

For each case it prints the exit status (and the one the docs promise),
the wall-clock seconds, the peak resident set of the largest process of the
run (workers included), whether stderr holds a traceback, and whether the
case's own check held (one line, the diagnostic, a well-formed SVG...). The
limits the issue sets are 20 s and 400 MB; a case past either, with a
traceback or a failed check is marked FAIL, and the run exits 1.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hostile import Measured, measure, muggins_argv, write_hostile_folder
from tests.records import AMBIGUOUS, CLUB_FIRST, IMPOSSIBLE, SAME_TILE, THREES

LIMIT_SECONDS = 20.0
LIMIT_MB = 400.0
REPO = Path(__file__).resolve().parent.parent
# What a terminal acts on, but the newline that ends each line.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
EVIL = "Ana\x9d0;owned\x07\x9b2J\u202e\x1bc"


@dataclass
class Case:
    name: str
    args: list[str]
    status: int | tuple[int, ...]
    check: Callable[[Measured, Path], str | None] = lambda run, root: None
    stdout: str = "pipe"
    stdin: str | None = None
    actions: list[tuple[float, str, Any]] = field(default_factory=list)
    timeout: float = 60.0


def one_line(run: Measured, root: Path) -> str | None:
    lines = run.stderr.splitlines()
    return None if len(lines) == 1 else f"{len(lines)} lines on stderr"


def says(text: str, where: str = "stderr") -> Callable[[Measured, Path], str | None]:
    def check(run: Measured, root: Path) -> str | None:
        got = run.stderr if where == "stderr" else run.stdout
        return None if text in got else f"{where} lacks {text!r}"
    return check


def last_line(text: str) -> Callable[[Measured, Path], str | None]:
    """stderr ends with one line holding ``text`` (after a count line, say)."""
    def check(run: Measured, root: Path) -> str | None:
        lines = run.stderr.splitlines()
        return None if lines and text in lines[-1] else f"stderr does not end with {text!r}"
    return check


def both(*checks: Callable[[Measured, Path], str | None]
         ) -> Callable[[Measured, Path], str | None]:
    def check(run: Measured, root: Path) -> str | None:
        for c in checks:
            why = c(run, root)
            if why:
                return why
        return None
    return check


def no_control(run: Measured, root: Path) -> str | None:
    for where, text in (("stdout", run.stdout), ("stderr", run.stderr)):
        if CONTROL.search(text):
            return f"a control character reached {where}"
    return None


def small_output(most: int) -> Callable[[Measured, Path], str | None]:
    def check(run: Measured, root: Path) -> str | None:
        size = len(run.stdout) + len(run.stderr)
        return None if size <= most else f"{size:,} characters of output"
    return check


def well_formed_svg(run: Measured, root: Path) -> str | None:
    try:
        ET.fromstring((root / "evil.svg").read_bytes())
    except (OSError, ET.ParseError) as e:
        return f"SVG: {e}"
    return None


def kept_other(run: Measured, root: Path) -> str | None:
    text = (root / "race.mgn").read_text(encoding="utf-8")
    return None if text == OTHER else "the other program's text was lost"


def findings(count: int) -> Callable[[Measured, Path], str | None]:
    def check(run: Measured, root: Path) -> str | None:
        got = sum(" error " in line for line in run.stdout.splitlines())
        return None if got == count else f"{got} errors, not {count}"
    return check


OTHER = "# saved by another program while fmt ran\n"


def build(root: Path) -> None:
    """Every hostile input, in ``root``."""
    def put(name: str, text: str) -> None:
        (root / name).write_text(text, encoding="utf-8")

    event = '[Event "Club night"]'
    put("base.mgn", CLUB_FIRST)
    put("tag10mb.mgn", CLUB_FIRST.replace(event, '[Event "' + "x" * 10_000_000 + '"]'))
    put("escapes10mb.mgn", CLUB_FIRST.replace(event, '[Event "' + '\\"' * 5_000_000 + '"]'))
    head = CLUB_FIRST[: CLUB_FIRST.index("Budi: 4-6R")].replace('[Target "20"]',
                                                               '[Target "250"]')
    put("passes20k.mgn", head + "".join("Budi: pass\n" if i % 2 == 0 else "Ana: pass\n"
                                        for i in range(20_000)))
    names = ", ".join(f"P{i}" for i in range(20_000))
    put("players20k.mgn", CLUB_FIRST.replace('"Ana, Budi"', f'"{names}"')
        + "Zed: pass\n" * 4000)
    put("b01.mgn", CLUB_FIRST.replace('[Target "20"]', '[Target "' + "9" * 5000 + '"]'))
    put("target2e64.mgn", CLUB_FIRST.replace('[Target "20"]', f'[Target "{2**64}"]'))
    put("evil.mgn", CLUB_FIRST.replace("Ana", EVIL))
    put("evil-svg.mgn", CLUB_FIRST.replace("Ana", "A\x1bn\x07a\ufffe&<b>\x01"))
    put("impossible.mgn", IMPOSSIBLE)
    put("ambiguous.mgn", AMBIGUOUS)
    put("twoways.mgn", SAME_TILE)
    put("empty.mgn", "")
    put("comments.mgn", "# to be typed in tomorrow\n")
    links = root / "links"
    links.mkdir()
    (links / "base.mgn").write_text(THREES, encoding="utf-8")
    (links / "dangling.mgn").symlink_to("/nonexistent")
    (links / "self.mgn").symlink_to("self.mgn")
    (links / "zero.mgn").symlink_to("/dev/zero")
    os.mkfifo(links / "fifo.mgn")
    many = root / "many"
    many.mkdir()
    text = CLUB_FIRST + "Zed: pass\n" * 5000  # 5,000 unknown-player findings each
    for i in range(100):
        (many / f"r{i:03d}.mgn").write_text(text, encoding="utf-8")
    # fmt --in-place reads this for a few seconds; "another program" saves
    # the file meanwhile.
    messy = CLUB_FIRST.replace("Budi: 4-6R", "Budi:  4-6R")
    put("race.mgn", "\n".join([messy] * 20_000))
    put("race-other.mgn", OTHER)
    write_hostile_folder(root / "rules")


STOP_THEN_CTRL_C = [(2.0, "signal", "SIGSTOP"), (2.3, "signal", "SIGINT"),
                    (2.4, "signal", "SIGCONT")]


def cases() -> list[Case]:
    full: list[Case] = [
        Case(f"> /dev/full: {' '.join(a)}", a, 2,
             last_line("cannot write the output: No space left on device"),
             stdout="/dev/full")
        for a in (["check", "base.mgn"], ["check", "--format", "junit", "base.mgn"],
                  ["analyze", "base.mgn"], ["stats", "base.mgn"], ["study", "base.mgn"],
                  ["solve", "base.mgn", "--at", "1.2"],
                  ["selfplay", "--matches", "1"], ["arena", "greedy", "random", "--matches", "1"],
                  ["rules"], ["explain"], ["fmt", "base.mgn"])]
    full.append(Case("> /dev/full: replay base.mgn", ["replay", "base.mgn"], 2,
                     says("cannot write the output: No space left on device"),
                     stdout="/dev/full"))
    return [
        # Memory in proportion to the input.
        Case("check: a 10 MB Event", ["check", "-q", "tag10mb.mgn"], 1),
        Case("fmt: a 10 MB Event", ["fmt", "tag10mb.mgn"], 0),
        Case("stats: a 10 MB Event", ["stats", "-q", "tag10mb.mgn"], 0),
        Case("study: a 10 MB Event", ["study", "-q", "tag10mb.mgn", "-o", "tag.html"], 0),
        Case("check: 5 M escapes in an Event", ["check", "-q", "escapes10mb.mgn"], 1),
        Case("replay --at 1.2: 20,000 passes", ["replay", "passes20k.mgn", "--at", "1.2"], 0),
        Case("replay: 20,000 passes", ["replay", "passes20k.mgn"], 0),
        Case("study: 20,000 passes", ["study", "-q", "passes20k.mgn", "-o", "p.html"], 0),
        Case("solve --at 1.2: 20,000 passes", ["solve", "passes20k.mgn", "--at", "1.2"], 0),
        Case("check: 20,000 passes", ["check", "-q", "passes20k.mgn"], 1),
        Case("check: 20,000 players, 4,000 unknown", ["check", "-q", "players20k.mgn"], 1,
             small_output(2_000_000)),
        # Numbers with a bound.
        Case("check --jobs 2 base b01(Target 5,000 digits) miss",
             ["check", "-q", "--jobs", "2", "base.mgn", "b01.mgn", "miss.mgn"], 2,
             both(says("b01.mgn:4:1: error bad-header Target must be a whole number from 1 "
                       "to 999,999,999", "stdout"), says("base.mgn:14:11: error", "stdout"))),
        Case("stats: Target 5,000 digits", ["stats", "-q", "b01.mgn"], 0),
        Case("analyze: Target 5,000 digits", ["analyze", "-q", "b01.mgn"], 1),
        Case("study: Target 5,000 digits", ["study", "-q", "b01.mgn", "-o", "b.html"], 0),
        Case("replay: Target 5,000 digits", ["replay", "b01.mgn"], 0,
             both(one_line, says("bad-header Target must be a whole number"))),
        Case("solve: Target 5,000 digits", ["solve", "b01.mgn", "--at", "1.2"], 0),
        Case("analyze --solver: Target 2**64", ["analyze", "-q", "--solver", "target2e64.mgn"],
             1, says("bad-header", "stdout")),
        Case("replay --at 5,000 digits", ["replay", "base.mgn", "--at", "9" * 5000 + ".1"],
             2, both(one_line, says("each from 1 to 999,999,999"))),
        Case("solve --at 5,000 digits", ["solve", "base.mgn", "--at", "1." + "9" * 5000],
             2, both(one_line, says("each from 1 to 999,999,999"))),
        *[Case(f"{c} --nodes 2**64", [c, *extra, "--nodes", str(2**64)], 2,
               both(one_line, says("(the most is 1000000000000)")))
          for c, extra in (("analyze", ["base.mgn", "--solver"]), ("selfplay", []),
                           ("arena", ["greedy", "solver"]), ("study", ["base.mgn", "--solver"]))],
        Case("analyze --samples 10**20", ["analyze", "base.mgn", "--solver", "--samples",
                                          str(10**20)], 2,
             both(one_line, says("(the most is 10000)"))),
        Case("selfplay --samples 10**20", ["selfplay", "--strategy", "solver", "--samples",
                                           str(10**20)], 2, one_line),
        # Output that cannot be written.
        *full,
        Case("fmt on a closed pipe", ["fmt", "base.mgn", "base.mgn", "base.mgn"], 141,
             lambda run, root: None if run.stderr == "" else "stderr not empty",
             stdout="closed"),
        Case("check on a closed pipe", ["check", "many"], 141,
             lambda run, root: None if run.stderr == "" else "stderr not empty",
             stdout="closed"),
        # Ctrl-C that ends.
        Case("check --jobs 2, Ctrl-Z then Ctrl-C", ["check", "--jobs", "2", "many"], 130,
             says("muggins check: interrupted"), stdout="/dev/null",
             actions=STOP_THEN_CTRL_C),
        Case("analyze --jobs 2, Ctrl-Z then Ctrl-C", ["analyze", "--jobs", "2", "many"], 130,
             says("muggins analyze: interrupted"), stdout="/dev/null",
             actions=STOP_THEN_CTRL_C),
        Case("check --jobs 2, Ctrl-C", ["check", "--jobs", "2", "many"], 130,
             says("interrupted"), stdout="/dev/null",
             actions=[(2.0, "signal", "SIGINT")]),
        # Escaping.
        Case("solve: names with escapes", ["solve", "evil.mgn", "--at", "1.2"], 0, no_control),
        Case("solve: names with escapes, an error", ["solve", "evil.mgn", "--at", "1.9"], 2,
             both(no_control, one_line)),
        Case("check: names with escapes", ["check", "evil.mgn"], 1, no_control),
        Case("replay --svg: names XML cannot hold",
             ["replay", "evil-svg.mgn", "--at", "1.2", "--svg", "evil.svg"], 0,
             well_formed_svg),
        # Silent or wrong answers.
        Case("check: dangling and looping links, a device, a pipe", ["check", "links"], 2,
             both(says("dangling.mgn:0:0: error unreadable", "stdout"),
                  says("self.mgn:0:0: error unreadable", "stdout"),
                  says("zero.mgn:0:0: error unreadable", "stdout"),
                  says("fifo.mgn:0:0: error unreadable", "stdout"))),
        Case("solve --mode expect: an impossible position",
             ["solve", "impossible.mgn", "--at", "1.3", "--mode", "expect"], 2, one_line),
        Case("check: an empty file", ["check", "empty.mgn"], 2,
             says("it holds no record (it is empty)", "stdout")),
        Case("check: empty stdin", ["check", "-"], 2,
             says("it holds no record (it is empty)", "stdout"), stdin=""),
        Case("check: comments only", ["check", "comments.mgn"], 2,
             says("only comments", "stdout")),
        Case("check README.md", ["check", str(REPO / "README.md")], 2,
             both(says("not an MGN record", "stdout"),
                  lambda run, root: None if len(run.stdout.splitlines()) == 2
                  else "more than one finding")),
        Case("fmt --in-place, saved meanwhile", ["fmt", "--in-place", "race.mgn"], 2,
             both(says("the file changed while it was read"), kept_other),
             actions=[(0.7, "replace", ["race-other.mgn", "race.mgn"])]),
        # New users.
        Case("check: a missing end letter", ["check", "-q", "ambiguous.mgn"], 1,
             both(findings(1), says("taken as R", "stdout"))),
        Case("check --format table: what exit 1 means",
             ["check", "--format", "table", str(REPO / "records")], 1,
             says("exit status 1: errors found")),
        Case("check: the summary said once", ["check", str(REPO / "records")], 1,
             lambda run, root: None if run.stderr == "" else "a count line on stderr too"),
        Case("study --help", ["study", "--help"], 0,
             lambda run, root: None if "--annotate" not in run.stdout
             else "speaks of --annotate"),
        Case("analyze: one tile one way", ["analyze", "-q", "twoways.mgn"], 0,
             says("Ana played 5-1L for 0; 5-1R scored 10", "stdout")),
        # The first round's folder of hostile rules files.
        Case("check: hostile rules files", ["check", "-q", "rules"], 1,
             lambda run, root: None if run.stdout.count(" bad-header ") == 4
             else "not 4 bad-header"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[],
                        help="run the cases whose name holds one of these")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds before a case is killed (default 60)")
    args = parser.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build(root)
        chosen = [c for c in cases() if not args.only or any(o in c.name for o in args.only)]
        print(f"{'case':<58} {'exit':>9} {'s':>6} {'MB':>6}  traceback  check")
        for case in chosen:
            run = measure(muggins_argv(*case.args), timeout=args.timeout, cwd=root,
                          memory_cap_mb=4000, stdout=case.stdout, stdin=case.stdin,
                          actions=case.actions)
            wanted = case.status if isinstance(case.status, tuple) else (case.status,)
            traceback = "Traceback" in run.stderr
            why = case.check(run, root) if run.returncode is not None else "killed"
            ok = (run.returncode in wanted and not traceback and why is None
                  and run.seconds < LIMIT_SECONDS and run.peak_mb < LIMIT_MB)
            failed += not ok
            status = "hung" if run.returncode is None else str(run.returncode)
            print(f"{case.name[:58]:<58} {status:>4} ({'/'.join(map(str, wanted))}) "
                  f"{run.seconds:6.2f} {run.peak_mb:6.0f}  {'YES' if traceback else 'no':<9}  "
                  f"{'ok' if ok else 'FAIL'}{'' if why is None else ': ' + why}", flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} cases within {LIMIT_SECONDS:.0f} s and "
          f"{LIMIT_MB:.0f} MB, with the documented exit status and no traceback")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
