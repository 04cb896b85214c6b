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
``fmt --in-place``. The third round's cases: folders that cannot be
listed, searched or named and a file name that is not UTF-8, no stdout or
no stderr at all (``>&-``, ``2>&-``), a full disk for ``-o`` (a limit on
the size of a file the run may write: the write fails as on a full disk),
a file made by another program while ``-o`` ran, ``-`` and ``./-``, SIGTERM
and SIGHUP to ``--jobs 2``, no writable cache folder, a tag given twice,
CR line ends, ``fmt --in-place`` in a read-only folder. The permission
cases run with the permission bits binding under root too.

For each case it prints the exit status (and the one the docs promise),
the wall-clock seconds, the peak resident set of the largest process of the
run (workers included), whether stderr holds a traceback, how many of the
run's processes were left once it ended, and whether the case's own check
held (one line, the diagnostic, a well-formed SVG...). The limits the issue
sets are 20 s and 400 MB (a case that compiles the solver, as a run without
a cache folder must, has 120 s); a case past either, with a traceback, a
process left or a failed check is marked FAIL, and the run exits 1.
"""

from __future__ import annotations

import argparse
import json
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
    stderr: str = "pipe"
    env: dict[str, str | None] = field(default_factory=dict)
    fsize: int | None = None
    as_user: bool = False
    limit: float = LIMIT_SECONDS


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


def file_is(name: str, text: str | None) -> Callable[[Measured, Path], str | None]:
    """The file ``name`` holds ``text`` after the run (None: there is none)."""
    def check(run: Measured, root: Path) -> str | None:
        path = root / name
        got = path.read_text(encoding="utf-8") if path.exists() else None
        if got == text:
            return None
        return f"{name} is {'gone' if got is None else 'not as it was'}"
    return check


def nothing_left(folder: str, keep: tuple[str, ...] = ()
                 ) -> Callable[[Measured, Path], str | None]:
    """No file in ``folder`` but ``keep`` (no temporary or partial file)."""
    def check(run: Measured, root: Path) -> str | None:
        extra = sorted(p.name for p in (root / folder).iterdir() if p.name not in keep)
        return None if not extra else f"left {', '.join(extra)}"
    return check


def json_path_round_trips(run: Measured, root: Path) -> str | None:
    try:
        doc = json.loads(run.stdout)
    except ValueError as e:
        return f"not JSON: {e}"
    paths = [os.fsencode(f["path"]) for f in doc["files"]]
    return None if b"names/" + BAD_NAME in paths else "the name did not round-trip"


def valid_json(run: Measured, root: Path) -> str | None:
    try:
        json.loads(run.stdout)
    except ValueError as e:
        return f"not JSON: {e}"
    return None


OTHER = "# saved by another program while fmt ran\n"
KEEP = "keep me\n"
BAD_NAME = b"bad\xff\xfe.mgn"


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
    build_third_round(root)


def build_third_round(root: Path) -> None:
    """The inputs of the third round's cases."""
    def put(name: str, text: str) -> None:
        (root / name).write_text(text, encoding="utf-8")

    walls = root / "walls"  # every entry a folder walk can fail on, between two records
    walls.mkdir()
    (walls / "a.mgn").write_text(THREES, encoding="utf-8")
    (walls / "z.mgn").write_text(THREES, encoding="utf-8")
    for name in ("locked", "blind"):
        (walls / name).mkdir()
        (walls / name / "inside.mgn").write_text(THREES, encoding="utf-8")
    fd = os.open(walls, os.O_RDONLY)
    try:
        for step in ["long", *["d" * 200] * 22]:  # past PATH_MAX (4,096)
            os.mkdir(step, dir_fd=fd)
            inner = os.open(step, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.close(os.open("deep.mgn", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    (walls / "locked").chmod(0o000)
    (walls / "blind").chmod(0o444)
    names = root / "names"
    names.mkdir()
    with open(os.path.join(os.fsencode(names), BAD_NAME), "wb") as f:
        f.write(CLUB_FIRST.encode("utf-8"))
    put("cr.mgn", THREES.replace("\n", "\r"))
    head, body = THREES.split("\n\n", 1)
    put("twotags.mgn", head + '\n[Result "Chen"]\n\n' + body)
    put("-", KEEP)
    put("clean.mgn", THREES)
    put("messy.mgn", "\n".join([CLUB_FIRST.replace("Budi: 4-6R", "Budi:  4-6R")] * 50))
    (root / "out").mkdir()  # where the full-disk cases write
    team = root / "team"  # a folder the user may not write, a canonical record in it
    team.mkdir()
    (team / "t.mgn").write_text(THREES, encoding="utf-8")
    team.chmod(0o555)
    (root / "tmp-mine").mkdir()
    theirs = root / "tmp-theirs" / f"muggins-cli-{os.geteuid()}"
    theirs.mkdir(parents=True)
    theirs.chmod(0o777)  # anyone may write it: never run from


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
    return [*first_rounds(full), *third_round()]


def first_rounds(full: list[Case]) -> list[Case]:
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
             # Once fmt writes (its temporary file), not at a moment a busy
             # machine may reach before fmt has read a line.
             actions=[(0.0, "await", ".race.mgn.*.tmp"),
                      (0.7, "replace", ["race-other.mgn", "race.mgn"])]),
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


#: A full disk for the run: a file it writes may not pass this many bytes.
FULL = 4096
NO_HOME: dict[str, str | None] = {"HOME": "/dev/null/home", "XDG_CACHE_HOME": None,
                                  "NUMBA_CACHE_DIR": None}
#: A run that compiles the solver, as one without a cache folder must.
COMPILES = 120.0


def third_round() -> list[Case]:
    league = str(REPO / "records" / "league-pagat-4p.mgn")
    club = str(REPO / "records" / "club-night-pagat-2p.mgn")  # no finding: replay says none
    disk = [
        ("selfplay -o", ["selfplay", "-q", "--matches", "30", "-o", "out/sp.mgn"], "out/sp.mgn"),
        ("arena -o", ["arena", "-q", "greedy", "random", "--matches", "8", "-o", "out/ar.mgn"],
         "out/ar.mgn"),
        ("study -o", ["study", "-q", "base.mgn", "-o", "out/s.html"], "out/s.html"),
        ("replay --svg", ["replay", club, "--at", "1.2", "--svg", "out/r.svg"], "out/r.svg"),
        ("analyze --annotate -o", ["analyze", "-q", "--annotate", "-o", "out/a.mgn", league],
         "out/a.mgn"),
    ]
    no_stdout = [["check", "base.mgn"], ["check", "--format", "json", "base.mgn"],
                 ["study", "base.mgn"], ["fmt", "base.mgn"], ["replay", club, "--at", "1.2"]]
    cache = [("solve", ["solve", "base.mgn", "--at", "1.2"], 0),
             ("analyze --solver", ["analyze", "-q", "--solver", "--samples", "2", "base.mgn"], 1),
             ("study --solver", ["study", "-q", "--solver", "--samples", "2", "base.mgn", "-o",
                                 "out/cache.html"], 0),
             ("selfplay solver", ["selfplay", "-q", "--strategy", "solver,greedy", "--samples",
                                  "2", "--nodes", "2000"], 0),
             ("arena solver", ["arena", "-q", "solver", "greedy", "--matches", "1", "--samples",
                               "2", "--nodes", "2000"], 0),
             ("stats", ["stats", "-q", "base.mgn"], 0)]
    return [
        # Folders.
        Case("check: folders it may not list or search, past PATH_MAX", ["check", "walls"], 2,
             both(says("walls/locked:0:0: error unreadable", "stdout"),
                  says("walls/blind/inside.mgn:0:0: error unreadable", "stdout"),
                  says("File name too long", "stdout"),
                  says("checked 5 files, 2 matches", "stdout")), as_user=True),
        Case("check --format json: a name that is not UTF-8",
             ["check", "--format", "json", "names"], 1, json_path_round_trips),
        Case("check: a name that is not UTF-8", ["check", "names"], 1,
             both(no_control, says("names/bad\\xff\\xfe.mgn:14:11", "stdout"))),
        Case("check --format github: a name that is not UTF-8",
             ["check", "--format", "github", "names"], 1,
             says("file=names/bad\\xff\\xfe.mgn", "stdout")),
        # No stdout, no stderr.
        *[Case(f">&-: {' '.join(Path(x).name for x in a)}", a, 2,
               both(one_line, says("cannot write the output: standard output is closed")),
               stdout="none") for a in no_stdout],
        Case("2>&-: check base.mgn", ["check", "base.mgn"], 1,
             says("base.mgn:14:11: error score-mismatch", "stdout"), stderr="none"),
        Case("2>&-: check --format json base.mgn", ["check", "--format", "json", "base.mgn"], 1,
             valid_json, stderr="none"),
        Case("2>&-: check clean.mgn", ["check", "clean.mgn"], 0,
             says("no errors", "stdout"), stderr="none"),
        Case("2>&-: check --jobs 2 many", ["check", "--jobs", "2", "many"], 1,
             says("checked 100 files, 100 matches", "stdout"), stderr="none"),
        # A full disk for -o, nothing left.
        *[Case(f"full disk: {name}", args, 2,
               both(one_line, says(f"cannot write {path}: File too large"),
                    nothing_left("out", ("cache.html",))),
               fsize=FULL) for name, args, path in disk],
        Case("full disk: fmt --in-place", ["fmt", "--in-place", "messy.mgn"], 2,
             both(one_line, says("messy.mgn:0:0: error unwritable File too large")),
             fsize=FULL),
        # A file made while -o ran; - and ./-.
        Case("selfplay -o: a file made meanwhile is kept",
             ["selfplay", "-q", "--matches", "1000000", "-o", "made.mgn"], 2,
             both(one_line, says("it was made while the command ran"),
                  file_is("made.mgn", KEEP)),
             actions=[(0.0, "await", ".made.mgn.*.tmp"), (0.0, "write", ["made.mgn", KEEP]),
                      (0.0, "signal", "SIGINT")]),
        Case("selfplay -o ./-: a file named - is kept", ["selfplay", "-o", "./-"], 2,
             both(one_line, file_is("-", KEEP))),
        Case("selfplay -o -: standard output", ["selfplay", "-q", "-o", "-"], 0,
             both(says("[Players ", "stdout"), file_is("-", KEEP))),
        Case("analyze --annotate -o -: standard output",
             ["analyze", "-q", "--annotate", "-o", "-", "base.mgn"], 1,
             both(says("[Players ", "stdout"), file_is("-", KEEP))),
        Case("replay --svg -: standard output",
             ["replay", "base.mgn", "--at", "1.2", "--svg", "-"], 0,
             both(says("<svg", "stdout"), file_is("-", KEEP))),
        # SIGTERM and SIGHUP.
        Case("check --jobs 2, SIGTERM to it alone", ["check", "--jobs", "2", "many"], 143,
             both(one_line, says("muggins check: terminated")), stdout="/dev/null",
             actions=[(0.0, "await", 2), (2.0, "kill", "SIGTERM")]),
        Case("check --jobs 2, SIGHUP to its group", ["check", "--jobs", "2", "many"], 129,
             both(one_line, says("muggins check: hung up")), stdout="/dev/null",
             actions=[(0.0, "await", 2), (2.0, "signal", "SIGHUP")]),
        Case("study --solver --jobs 2, SIGTERM to it alone",
             ["study", "-q", "--solver", "--jobs", "2", league, "-o", "out/league.html"], 143,
             both(one_line, says("muggins study: terminated")),
             actions=[(0.0, "await", 2), (6.0, "kill", "SIGTERM")], limit=COMPILES,
             timeout=300),
        # No cache folder.
        *[Case(f"no home: {name}", args, status,
               lambda run, root: None if len(
                   [x for x in run.stderr.splitlines() if "compiled code" in x]) <= 1
               else "said more than once",
               env={**NO_HOME, "TMPDIR": "tmp-mine"}, limit=COMPILES, timeout=300)
          for name, args, status in cache],
        Case("no home, no folder of one's own: solve", ["solve", "base.mgn", "--at", "1.2"], 0,
             both(one_line, says("it is compiled in memory for this run")),
             env={**NO_HOME, "TMPDIR": "tmp-theirs"}, limit=COMPILES, timeout=300),
        # Records.
        Case("check: a tag given twice", ["check", "-q", "twotags.mgn"], 1,
             both(findings(1), says("twotags.mgn:6:1: error bad-header a second Result tag",
                                    "stdout"))),
        Case("check: CR line ends alone", ["check", "-q", "cr.mgn"], 2,
             says("its line ends are CR alone", "stdout")),
        Case("fmt --in-place: canonical, in a read-only folder", ["fmt", "--in-place", "team"],
             0, lambda run, root: None if run.stderr == "" else "said something",
             as_user=True),
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
        print(f"{'case':<58} {'exit':>9} {'s':>6} {'MB':>6}  traceback  left  check")
        for case in chosen:
            env = {k: (str(root / v) if k == "TMPDIR" and v else v)
                   for k, v in case.env.items()}
            run = measure(muggins_argv(*case.args), timeout=max(args.timeout, case.timeout),
                          cwd=root, memory_cap_mb=4000, stdout=case.stdout, stdin=case.stdin,
                          actions=case.actions, stderr=case.stderr, env=env,
                          fsize=case.fsize, as_user=case.as_user)
            wanted = case.status if isinstance(case.status, tuple) else (case.status,)
            traceback = "Traceback" in run.stderr
            why = case.check(run, root) if run.returncode is not None else "killed"
            if why is None and run.left:
                why = f"{run.left} process{'es' if run.left > 1 else ''} left"
            ok = (run.returncode in wanted and not traceback and why is None
                  and run.seconds < case.limit and run.peak_mb < LIMIT_MB)
            failed += not ok
            status = "hung" if run.returncode is None else str(run.returncode)
            print(f"{case.name[:58]:<58} {status:>4} ({'/'.join(map(str, wanted))}) "
                  f"{run.seconds:6.2f} {run.peak_mb:6.0f}  {'YES' if traceback else 'no':<9}  "
                  f"{run.left:4}  "
                  f"{'ok' if ok else 'FAIL'}{'' if why is None else ': ' + why}", flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} cases within {LIMIT_SECONDS:.0f} s "
          f"({COMPILES:.0f} s compiling the solver) and {LIMIT_MB:.0f} MB, with the documented "
          "exit status, no traceback and no process left")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
