"""Mutation testing of the rules of a turn and of the replay that holds a
record to them: do the tests notice when one of these lines is wrong?

    python tools/mutation.py                    # every mutant, two at a time
    python tools/mutation.py --max-children 1 --workdir /tmp/muggins-mutation

Copies the project to ``--workdir`` (the tree is never touched), adds
mutmut's settings to the copy's ``pyproject.toml`` and runs ``mutmut run``
there: each mutant (an operator, a number, a comparison, a call's argument
changed in one function) of the engine's turn rules (``engine/turn.py``,
``engine/keys.py``) and of the round tracker (``replay/tracker.py`` and the
modules it calls: ``opening``, ``closing``, ``ends``, ``faults``,
``state``, ``deduce``) is run against the tests that reach it, fastest
first. Then prints how many mutants were killed, by file, and lists the
survivors (``mutmut show NAME`` in the work folder shows one's diff).

Not in CI: a run takes tens of minutes. Needs mutmut (``pip install
mutmut``). Hypothesis runs derandomized (``CI=true``), so a run is
repeatable.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MUTATED = [
    "src/muggins_cli/engine/turn.py",
    "src/muggins_cli/engine/keys.py",
    "src/muggins_cli/replay/tracker.py",
    "src/muggins_cli/replay/opening.py",
    "src/muggins_cli/replay/closing.py",
    "src/muggins_cli/replay/ends.py",
    "src/muggins_cli/replay/faults.py",
    "src/muggins_cli/replay/state.py",
    "src/muggins_cli/replay/deduce.py",
]

#: The tests that hold these rules: the rules case by case, the worked
#: numbers, a record per diagnostic, the conformance corpus and the replay's
#: hardening. The solver's tests and the engine's property tests are left
#: out: they take minutes per mutant, and a mutant they alone would catch
#: is a gap in these.
TESTS = [
    "tests/test_turn_rules.py",
    "tests/test_replay_rules.py",
    "tests/test_worked_numbers.py",
    "tests/test_check.py",
    "tests/test_muggins_calls.py",
    "tests/test_match_end_lead_rounding.py",
    "tests/test_conformance.py",
    "tests/test_replay_hardening.py",
    "tests/test_keyword_case.py",
]

#: Tests of those files that need the solver.
SOLVER_TESTS = "not solver and not movers_view and not costly"

SETTINGS = """
[tool.mutmut]
source_paths = ["src"]
only_mutate = {mutated}
also_copy = ["docs", "records", "schemas", "src/muggins_cli/docs"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-m", "not slow",
                       "-k", "{solver}"]
pytest_add_cli_args_test_selection = {tests}
# Each mutant forks from a server that has only collected the tests: forked
# from the process that ran them, it would inherit the layout tables they
# filled, and a mutant of engine/keys.py behind the table's memo would
# never run.
process_isolation = "forkserver"
forkserver_warmup = "collect"
"""


def prepare(work: Path, mutated: list[str]) -> None:
    """A copy of the project in ``work`` with mutmut's settings."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(
        ".git", "mutants", "__pycache__", ".data", ".mypy_cache", ".ruff_cache", ".venv"))
    pyproject = work / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    text = re.sub(r'\naddopts = "[^"]*"', "", text)  # the suite's own -n auto and marks
    tests = [t for t in TESTS if (work / t).exists()]
    pyproject.write_text(text + SETTINGS.format(
        mutated="[" + ", ".join(f'"{m}"' for m in mutated) + "]",
        tests="[" + ", ".join(f'"{t}"' for t in tests) + "]",
        solver=SOLVER_TESTS), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", type=Path,
                    default=Path(tempfile.gettempdir()) / "muggins-mutation")
    ap.add_argument("--max-children", type=int, default=2)
    ap.add_argument("--again", action="store_true",
                    help="go on in the work folder as it is (after a test was added there)")
    ap.add_argument("--only", nargs="*", default=[],
                    help="mutate only these of the files (paths as in MUTATED)")
    args = ap.parse_args()
    if shutil.which("mutmut") is None:
        print("mutmut is needed: pip install mutmut", file=sys.stderr)
        return 2
    if not args.again:
        prepare(args.workdir, args.only or MUTATED)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["CI"] = "true"
    subprocess.run(["mutmut", "run", "--max-children", str(args.max_children)],
                   cwd=args.workdir, env=env, check=False)
    listed = subprocess.run(["mutmut", "results", "--all", "true"], cwd=args.workdir, env=env,
                            capture_output=True, text=True, check=False).stdout
    status: dict[str, str] = {}
    for line in listed.splitlines():
        name, _, state = line.strip().rpartition(": ")
        if name:
            status[name] = state
    by_file: Counter[tuple[str, str]] = Counter()
    for name, state in status.items():
        by_file[name.split(".x")[0].rsplit(".", 1)[0], state] += 1
    # A mutant that makes a test hang is caught too: timeouts count as killed.
    killed = sum(1 for s in status.values() if s in ("killed", "timeout"))
    counted = killed + sum(1 for s in status.values() if s == "survived")
    for module in sorted({m for m, _ in by_file}):
        k = by_file[module, "killed"] + by_file[module, "timeout"]
        print(f"{module:40} {k:5} killed {by_file[module, 'survived']:4} survived")
    if counted:
        print(f"{killed} of {counted} mutants killed: {100 * killed / counted:.1f}% "
              f"({sum(1 for s in status.values() if s not in ('killed', 'timeout', 'survived'))}"
              " not run: no test reaches them, or skipped)")
    for name, state in sorted(status.items()):
        if state == "survived":
            print(f"survived: {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
