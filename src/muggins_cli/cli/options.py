"""The options that several commands share, and what they mean, in one place.

Like sqlite-utils' ``output_options``: every command that prints a report
takes the same ``-f/--format FORMAT`` (``--json`` short for ``--format
json``) and ``-q/--quiet``; the commands that read many records take the
same ``PATH...``, ``--jobs`` and ``--scheduler``. A new command (or a new
option such as ``--retries``) is added here once and imported by every
command that needs it; each alias is an ``Annotated`` type, so a command
writes ``jobs: JobsOption = None``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from enum import Enum
from pathlib import Path
from typing import IO, Annotated, Any, Literal, TextIO

import typer
from typer import BadParameter

from muggins_cli.batch import default_jobs
from muggins_cli.check import FileReport, Keep, expand_paths
from muggins_cli.cli.files import STDOUT
from muggins_cli.lexicon import NUMBER_MAX as RECORD_NUMBER_MAX
from muggins_cli.report import text
from muggins_cli.report.escape import for_terminal
from muggins_cli.report.json_report import Totals

# ---------------------------------------------------------------------------
# The bounds of the command line's numbers

# Every number an option takes has a bound, which Typer checks where it reads
# the value and names when it refuses one ("--nodes: ... is too large (the
# most is 1000000000000)"): a number past what a run can use is a typo, and
# one past 64 bits breaks the compiled searches (tests/test_cli_options.py
# holds every option to it; README.md lists them).

#: Counts, points, targets, seeds and match numbers: what a record may hold.
NUMBER_MAX = RECORD_NUMBER_MAX
#: Deals or stock orders the solver solves and averages per move or turn.
SAMPLES_MAX = 10_000
#: Search nodes per move, deal or turn.
NODES_MAX = 10**12
#: Worker processes.
JOBS_MAX = 1024
#: Submissions of a failed task to a cluster.
RETRIES_MAX = 100
#: Seconds a search may take.
SECONDS_MAX = 1_000_000.0


# ---------------------------------------------------------------------------
# Output: --format, --json, --quiet


class Format(str, Enum):
    """Every output format; each command takes the ones that fit its report
    (:func:`format_option`)."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    sarif = "sarif"
    table = "table"
    github = "github"
    junit = "junit"


#: The formats of a command's findings (``check``, ``analyze``).
FINDINGS_FORMATS = (Format.text, Format.json, Format.jsonl, Format.sarif, Format.table,
                    Format.github, Format.junit)


def format_option(*allowed: Format, help: str) -> Any:
    """``-f/--format FORMAT`` (``--output-format``, ruff's spelling, too)
    for a command that prints its report in the ``allowed`` formats; any
    other name is refused with the list of these. The value reaches the
    command as a :class:`Format`: use as ``fmt: Annotated[str,
    format_option(...)] = "text"`` and read it with :func:`output_format`.
    (Annotated as the ``Format`` enum, Typer would refuse a name with the
    list of every format, whichever the command takes.)"""
    names = ", ".join(f.value for f in allowed)

    def only_allowed(value: str) -> Format:
        found = next((f for f in allowed if f.value == value), None)
        if found is None:
            raise BadParameter(f"{value!r} is not one of {names}")
        return found

    return typer.Option("--format", "-f", "--output-format", metavar="FORMAT",
                        callback=only_allowed,
                        autocompletion=lambda: [f.value for f in allowed],
                        help=f"{help} --json is short for --format json; --output-format "
                             "is the same as --format.")


JsonOption = Annotated[
    bool, typer.Option("--json", help="The same as --format json (and wins over another "
                                      "--format).")
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q",
                       help="Only the report (or what is written) and errors: no progress, "
                            "no notes and no closing summary line on stderr.")
]


def output_format(fmt: str, as_json: bool) -> Format:
    """The format asked for by ``--format`` and ``--json`` together."""
    return Format.json if as_json else Format(fmt)


def use_colour(stream: object) -> bool:
    """Whether the report on ``stream`` is coloured (:mod:`.terminal`)."""
    from muggins_cli.cli.terminal import colour

    return colour(stream)


# ---------------------------------------------------------------------------
# Records in, and how many processes read them


PathsArgument = Annotated[
    list[str],
    typer.Argument(metavar="PATH",
                   help="Record files, folders (every *.mgn below, sorted; hidden and "
                        "git-ignored ones left out) or - for stdin. "
                        "A file that cannot be read is reported on one line, PATH:0:0: error "
                        "unreadable REASON (on stderr when the format has no place for it), "
                        "and makes the exit status 2; so does finding no record at all.",
                   show_default=False),
]
SelectOption = Annotated[
    list[str] | None,
    typer.Option("--select", metavar="CODES",
                 help="Report only these codes or severities (error, warning, info), "
                      "comma-separated or repeated; with --ignore, the code named decides "
                      "before its severity (--select warning --ignore missed-score). Read "
                      "after [tool.muggins] select in pyproject.toml. A file that could not "
                      "be read is always reported.",
                 show_default=False),
]
IgnoreOption = Annotated[
    list[str] | None,
    typer.Option("--ignore", metavar="CODES",
                 help="Leave out these codes or severities (they no longer count for the "
                      "exit status). A record may accept a finding on its line with a "
                      "comment: # muggins: ignore[CODE] (docs/notation.md 1).",
                 show_default=False),
]
ExcludeOption = Annotated[
    list[str] | None,
    typer.Option("--exclude", metavar="PATTERN",
                 help="Leave out files found below a folder given that match PATTERN "
                      "(.gitignore's syntax, from that folder: drafts/, old-*.mgn), "
                      "besides [tool.muggins] exclude. Hidden files and folders, and what "
                      ".gitignore ignores, are left out anyway; a file named is always "
                      "read.",
                 show_default=False),
]
#: ``--match N``: which match of a record file a one-position command reads
#: (``replay``, ``solve``).
MatchOption = Annotated[
    int, typer.Option("--match", "-m", min=1, max=NUMBER_MAX, metavar="N",
                      help="Which match of the file (the first is 1).")
]
JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, max=JOBS_MAX, metavar="N",
                 show_default="the number of cores",
                 help="Worker processes to spread the work over (at least 1; never more than "
                      "there are tasks: files, turns or deal sequences; a note on stderr when "
                      "more than the cores). 1 works in this process. The output is the "
                      "same, in the same order."),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS",
                 help="Run on the Dask cluster at ADDRESS (e.g. tcp://10.0.0.5:8786) "
                      "instead of local processes; needs muggins-cli[dask], and workers "
                      "that see the files at the same absolute paths."),
]
_RETRIES = ("With --scheduler: submit a file whose task failed (its worker died while "
            "running it, or it raised) again up to N times; then report it as not checked "
            "(code not-checked) and go on with the rest.")
RetriesOption = Annotated[
    int | None,
    typer.Option("--retries", min=0, max=RETRIES_MAX, metavar="N", show_default="1",
                 help=_RETRIES),
]
#: ``analyze``'s, whose tasks are the turns with --solver.
TurnRetriesOption = Annotated[
    int | None,
    typer.Option("--retries", min=0, max=RETRIES_MAX, metavar="N", show_default="1",
                 help=_RETRIES + " With --solver the tasks are the turns: a turn whose task "
                                 "keeps failing is reported as not weighed."),
]


def note(line: str) -> None:
    """One line on stderr, every control character in it shown as its
    escape: a message names paths and quotes records, a stranger's text."""
    typer.echo(for_terminal(line), err=True)


def prepare_solver(command: str, *, quiet: bool = False, ahead: bool = False) -> float | None:
    """Compile the solver, or load it, before a command's work and clock
    start; on a machine that never ran it, say first, in one line, that it
    takes a while (once; ``ahead``: the command is ``muggins prepare``).
    The seconds a compile took, None when it was loaded. Raises
    :class:`NotInstalledError`, saying what to install, when this
    installation lacks the solver."""
    import time

    from muggins_cli.solver import require

    require()
    from muggins_cli.solver import kernel

    if kernel.prepared():
        kernel.ready()
        return None
    if not quiet and kernel.KEPT:  # else the kernel's note said it compiles for this run
        how = "" if ahead else "; `muggins prepare` does it ahead"
        note(f"{command}: preparing the solver for this machine, once "
             f"(about {kernel.PREPARE_SECONDS} s{how})")
    start = time.perf_counter()
    kernel.ready()
    return time.perf_counter() - start


def fail(command: str, message: str) -> typer.Exit:
    """Say what is wrong on one line and give the exit status 2 to raise."""
    note(f"{command}: {message}")
    return typer.Exit(2)


def record_files(command: str, paths: Sequence[str], keep: Keep | None = None) -> list[str]:
    """The files named by ``paths`` (folders expanded, keeping what ``keep``
    keeps), or exit status 2 when there is none: an empty folder is a
    mistake, not a clean run."""
    files = list(expand_paths(paths, keep))
    if not files:
        raise fail(command, "no .mgn files found in " + " ".join(paths))
    return files


def worker_count(command: str, jobs: int | None, tasks: int | None, *,
                 cores: int | None = None, unit: str = "file") -> int:
    """How many processes ``--jobs`` starts: never more than the ``tasks``
    there are to share out (files, deal sequences), nor, when that number is
    not known in advance (None), than the cores. A count above the cores
    works but shares them, so a note on stderr says so."""
    have = default_jobs() if cores is None else cores
    asked = have if jobs is None else jobs
    n = max(1, min(asked, tasks if tasks is not None else have))
    if jobs is not None and jobs > have:
        if n < jobs:
            why = f"one per {unit}" if tasks is not None and n == tasks else "one per core"
        else:
            why = "as asked"
        share = ", which share them" if n > have else ""
        note(f"{command}: note: --jobs {jobs} is more than the {have} cores: running "
             f"{n} process{'' if n == 1 else 'es'} ({why}){share}")
    return n


def node_cap(nodes: int | None) -> int | None:
    """``--nodes``: 0 (like no option at all) means no cap."""
    return nodes or None


# ---------------------------------------------------------------------------
# Findings and exit status


class FailOn(str, Enum):
    error = "error"
    warning = "warning"
    never = "never"


def exit_status(totals: Totals, fail_on: FailOn) -> int:
    """0 clean, 1 findings at or above ``fail_on``, 2 a file could not be read."""
    if totals.unreadable:
        return 2
    if fail_on is FailOn.error and totals.errors:
        return 1
    if fail_on is FailOn.warning and (totals.errors or totals.warnings):
        return 1
    return 0


def summary_line(totals: Totals, status: int, fail_on: FailOn) -> str:
    """The closing line of the text report, which says what the exit status
    means when it is not 0: a newcomer whose first check ends with 1 should
    read that findings were found, not that the tool failed."""
    line = text.summary_line(totals.files, totals.matches, totals.errors, totals.warnings)
    if status == 2:
        return line + "; exit status 2: a file could not be read"
    if status == 1:
        what = "errors or warnings" if fail_on is FailOn.warning else "errors"
        return line + f"; exit status 1: {what} found"
    return line


def summary_stream(fmt: Format) -> Literal["stdout", "stderr"]:
    """Where :func:`closing_line` puts the summary after a report in ``fmt``."""
    return "stdout" if fmt is Format.text else "stderr"


def closing_line(line: str, fmt: Format, out: IO[str] | None = None) -> None:
    """The summary a report closes with, which says what a non-zero exit
    status means: after a text report, on its stream (stdout unless
    ``out``); on stderr after any other format, whose stdout is the report
    alone (a table, a JSON document, XML)."""
    stream = (out or sys.stdout) if fmt is Format.text else sys.stderr
    stream.write(line + "\n")
    stream.flush()


def report_unreadable(reports: Iterable[FileReport], stream: TextIO | None = None) -> None:
    """The ``unreadable`` finding of each file that could not be read, on
    stderr, for the outputs that have no place for it (a table, the corpus
    summary, the records ``fmt`` prints)."""
    out = sys.stderr if stream is None else stream
    for f in reports:
        if f.unreadable:
            for line in text.file_lines(f):
                out.write(line + "\n")
    out.flush()


# ---------------------------------------------------------------------------
# Files written


ForceOption = Annotated[
    bool, typer.Option("--force", help="With -o: replace FILE if it exists (atomically).")
]


def check_output(command: str, output: str | None, force: bool,
                 option: str = "-o/--output") -> None:
    """Refuse, before any work, to replace a file the user did not ask to
    replace. ``-`` is standard output; every other name is a file's,
    ``./-`` included (an option typed as a path would have made it ``-``).
    The writer (:class:`~muggins_cli.cli.files.Output`) refuses a file made
    after this look as well."""
    if output is None:
        if force:
            raise fail(command, f"--force only goes with {option}")
        return
    if output == STDOUT:
        return
    path = Path(output)
    if path.is_dir():
        raise fail(command, f"{output} is a folder, not a file")
    if path.exists() and not force:
        raise fail(command, f"{output} exists; add --force to replace it")
    if path.exists() and not path.is_file():
        raise fail(command, f"{output} is not a file")


# ---------------------------------------------------------------------------
# The solver's budget (selfplay, arena)


class ObjectiveOpt(str, Enum):
    match = "match"
    points = "points"


class HiddenOpt(str, Enum):
    sample = "sample"
    expectimax = "expectimax"


SamplesOption = Annotated[
    int | None, typer.Option("--samples", min=1, max=SAMPLES_MAX, metavar="K",
                             help="Deals of the unseen tiles the solver strategy solves and "
                                  "averages per move (at least 1; default 64 with two "
                                  "players, 32 with three or four).", show_default=False)]
#: The strategies' node cap a move, beside their --move-time (``--nodes``
#: before: ``solve``'s --nodes caps one whole answer, ``analyze``'s
#: --deal-nodes one deal's search).
MoveNodesOption = Annotated[
    int, typer.Option("--move-nodes", "--nodes", min=0, max=NODES_MAX, metavar="N",
                      help="Cap on search nodes per move of the exact searches (solver, "
                           "oracle; default 4,000,000; 0: none); the deals solved within it "
                           "are averaged. A search the compiled code cannot run (the match "
                           "objective, which solver plays once the deal is known and oracle "
                           "always; a time cap) gets a quarter of it. Reproducible, unlike "
                           "--move-time. The expectimax search has its own budget.")]
MoveTimeOption = Annotated[
    float | None, typer.Option("--move-time", min=0.0, max=SECONDS_MAX, metavar="S",
                               help="Cap on seconds per move of the exact searches (solver, "
                                    "oracle); results then depend on the machine.",
                               show_default=False)]
ObjectiveOption = Annotated[
    ObjectiveOpt, typer.Option("--objective", metavar="OBJECTIVE",
                               help="match: reaching the target first counts above any points "
                                    "(the match won or lost, then the points); points: "
                                    "points to the round's end.")]
HiddenOption = Annotated[
    HiddenOpt, typer.Option("--hidden", metavar="SEARCH",
                            help="How the solver strategy searches while tiles are hidden: "
                                 "sample (--samples deals consistent with what the others "
                                 "drew, passed and passed over, each solved exactly; the "
                                 "strongest) or expectimax (the other hands and the stock "
                                 "as chance, a few plies deep; for comparison). Once two "
                                 "players' stock is drawn down it solves the known deal "
                                 "exactly either way.")]
SearchLeadOption = Annotated[
    bool, typer.Option("--search-lead",
                       help="The solver searches a round's opening tile too (about three "
                            "times slower; by default it leads greedily).")]
ForgetOption = Annotated[
    float, typer.Option("--forget", min=0.0, max=1.0, metavar="P",
                        help="How often careless forgets to claim a score it made, from 0 "
                             "(never: it plays as greedy) to 1 (always); only under rules with "
                             "a muggins call (spinner, all-threes).")]
SeedOption = Annotated[
    int, typer.Option("--seed", "-s", min=0, max=NUMBER_MAX, metavar="N",
                      help="Seed of the deals and of the strategies' choices (0 to "
                           "999,999,999): the same command writes the same bytes.")
]
RulesOption = Annotated[
    str, typer.Option("--rules", "-r", metavar="NAME|FILE",
                      help="A rules preset (pagat, spinner, all-threes; `muggins rules` lists "
                           "them) or a rules YAML file. The records written name the file from "
                           "their folder (the current one for standard output), so it must "
                           "lie there or below.")
]
TargetOption = Annotated[
    int | None, typer.Option("--target", min=1, max=NUMBER_MAX, metavar="N",
                             help="Score that ends a match (default: the rules' target).",
                             show_default=False)
]
