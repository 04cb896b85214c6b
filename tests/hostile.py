"""Hostile rules files, and a way to run a command and learn what it cost.

A record from a stranger names its own rules file, so these are what a
stranger could put beside it. ``tests/test_rules_hostile.py`` asserts the
limits and ``bench/bench_hostile.py`` prints the figures; both build the
folder here so they measure the same thing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.records import THREES

#: Rules file name -> its text; ``fifo`` is made with mkfifo instead.
HOSTILE_YAML: dict[str, str] = {
    # An alias inside the value it names: construction recurses for ever.
    "self-alias": "players: &r [2, *r]\n",
    # 5,000 brackets: the composer recurses once per level.
    "deep": "players: " + "[" * 5000 + "]" * 5000 + "\n",
    # Nine levels of nine aliases: 9**9 strings once constructed.
    "laughs": "a: &a [" + ", ".join(['"lol"'] * 9) + "]\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n"
        for i in range(8)
    ),
}
FIFO = "fifo"
HOSTILE = (*HOSTILE_YAML, FIFO)


def hostile_record(rules_file: str) -> str:
    """A clean record (``THREES``) that names ``rules_file`` as its rules."""
    assert '[Rules "all-threes"]' in THREES
    return THREES.replace('[Rules "all-threes"]', f'[Rules "{rules_file}"]')


def write_hostile_folder(folder: Path) -> None:
    """``NAME.mgn`` naming ``NAME.yaml`` for each hostile file, and ``good.mgn``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in HOSTILE_YAML.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    os.mkfifo(folder / f"{FIFO}.yaml")
    for name in HOSTILE:
        (folder / f"{name}.mgn").write_text(hostile_record(f"{name}.yaml"), encoding="utf-8")
    (folder / "good.mgn").write_text(THREES, encoding="utf-8")


# The child runs the command and reports the largest resident set of the
# processes below it; run in its own process so that nothing else this
# process started counts.
_WRAPPER = """
import json, resource, subprocess, sys, time
start = time.monotonic()
try:
    done = subprocess.run(sys.argv[2:], capture_output=True, text=True,
                          timeout=float(sys.argv[1]))
    rc, out, err = done.returncode, done.stdout, done.stderr
except subprocess.TimeoutExpired as exc:
    rc, out, err = None, exc.stdout or "", exc.stderr or ""
    out = out if isinstance(out, str) else out.decode("utf-8", "replace")
    err = err if isinstance(err, str) else err.decode("utf-8", "replace")
seconds = time.monotonic() - start
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rc": rc, "stdout": out, "stderr": err, "seconds": seconds,
                  "peak_mb": peak_kb / 1024}))
"""


@dataclass(frozen=True)
class Measured:
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float  # the largest resident set of any process of the run


def measure(argv: list[str], *, timeout: float, cwd: Path,
            memory_cap_mb: int | None = None) -> Measured:
    """Run ``argv`` in ``cwd``, killed after ``timeout`` seconds.

    ``memory_cap_mb`` caps the address space of the run (so a regression
    fails on a MemoryError instead of taking the machine's memory)."""
    cap = None
    if memory_cap_mb is not None:
        def cap() -> None:
            import resource

            limit = memory_cap_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    done = subprocess.run([sys.executable, "-c", _WRAPPER, str(timeout), *argv],
                          capture_output=True, text=True, cwd=cwd, preexec_fn=cap,
                          timeout=timeout + 30)
    got = json.loads(done.stdout)
    return Measured(got["rc"], got["stdout"], got["stderr"], got["seconds"], got["peak_mb"])


def muggins_argv(*args: str) -> list[str]:
    """The installed command, run as the user runs it (``python -m`` so the
    venv's interpreter is used whatever PATH holds)."""
    return [sys.executable, "-m", "muggins_cli", *args]
