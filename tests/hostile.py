"""Hostile rules files, and a way to run a command and learn what it cost.

A record from a stranger names its own rules file, so these are what a
stranger could put beside it. ``tests/test_rules_hostile.py`` asserts the
limits and ``bench/bench_hostile.py`` prints the figures; both build the
folder here so they measure the same thing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
# process started counts. Its options (a JSON argument): where the command's
# stdout goes ("pipe", a file name such as /dev/full, "closed": a pipe whose
# reader is gone, or "none": no descriptor at all, as ``>&-`` leaves it),
# its stderr ("pipe", or "none" for ``2>&-``), what its stdin holds (None:
# nothing, /dev/null), the environment changed ("env": names to values,
# None to remove one), a limit on the size of a file it may write ("fsize":
# past it a write fails, as on a full disk), and actions at given seconds
# after the start: send a signal to the command's process group (as a
# terminal's Ctrl-Z and Ctrl-C do) or to the command alone ("kill": as
# ``kill PID`` does), put a file in another's place (another program saving
# it), write a file ("write": another program making it), or wait ("await")
# until a file matching a pattern exists (a temporary file: the command is
# writing) or the command has so many processes (its workers run), the
# later actions' seconds counting from the start still. Once the
# command ended, the processes still in its session (a worker it left
# running) are counted, and killed.
_WRAPPER = """
import json, os, resource, signal, subprocess, sys, threading, time
timeout, cap_mb, options, argv = (float(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]),
                                  sys.argv[4:])
if cap_mb:
    resource.setrlimit(resource.RLIMIT_AS, (cap_mb * 2**20, cap_mb * 2**20))
where = options.get("stdout", "pipe")
closed = []
if where == "pipe":
    stdout = subprocess.PIPE
elif where == "closed":
    reader, stdout = os.pipe()
    os.close(reader)
elif where == "none":
    stdout, closed = subprocess.DEVNULL, [1]
else:
    stdout = open(where, "w")
stderr = subprocess.PIPE
if options.get("stderr") == "none":
    stderr, closed = subprocess.DEVNULL, [*closed, 2]
fsize = options.get("fsize")
env = dict(os.environ)
for name, value in (options.get("env") or {}).items():
    if value is None:
        env.pop(name, None)
    else:
        env[name] = value

def prepare():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C heard: see ctrl_c_reaches_it
    for fd in closed:
        os.close(fd)
    if fsize:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

stdin = options.get("stdin")
start = time.monotonic()
# A session of its own, so that a hung run is ended with every worker it forked.
child = subprocess.Popen(argv, stdout=stdout, stderr=stderr, text=True, env=env,
                         stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         start_new_session=True, preexec_fn=prepare)
if where not in ("pipe", "none"):
    os.close(stdout) if isinstance(stdout, int) else stdout.close()

def act():
    for at, kind, arg in options.get("actions", []):
        time.sleep(max(0.0, start + at - time.monotonic()))
        if kind == "await":
            import glob
            while child.poll() is None and not (
                    len(session(child.pid)) >= arg if isinstance(arg, int) else glob.glob(arg)):
                time.sleep(0.01)
            if child.poll() is not None:
                return
        elif kind in ("signal", "kill"):
            try:
                if kind == "signal":
                    os.killpg(child.pid, getattr(signal, arg))
                else:
                    os.kill(child.pid, getattr(signal, arg))
            except ProcessLookupError:
                return
        elif kind == "replace":
            os.replace(arg[0], arg[1])
        elif kind == "write":
            with open(arg[0], "w") as f:
                f.write(arg[1])

def session(sid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != sid:
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rindex(b")") + 2:].split()[3]) == sid:
                found.append(int(entry))
    return found

threading.Thread(target=act, daemon=True).start()
try:
    out, err = child.communicate(stdin, timeout=timeout)
    rc = child.returncode
except subprocess.TimeoutExpired:
    os.killpg(child.pid, signal.SIGKILL)
    out, err = child.communicate()
    rc = None
seconds = time.monotonic() - start
left = session(child.pid)
for pid in left:
    os.kill(pid, signal.SIGKILL)
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rc": rc, "stdout": out or "", "stderr": err or "", "seconds": seconds,
                  "peak_mb": peak_kb / 1024, "left": len(left)}))
"""


@dataclass(frozen=True)
class Measured:
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float  # the largest resident set of any process of the run
    left: int = 0  # processes of the run still there once it ended


def measure(argv: list[str], *, timeout: float, cwd: Path,
            memory_cap_mb: int | None = None, stdout: str = "pipe",
            stdin: str | None = None,
            actions: list[tuple[float, str, Any]] | None = None,
            stderr: str = "pipe", env: dict[str, str | None] | None = None,
            fsize: int | None = None, as_user: bool = False) -> Measured:
    """Run ``argv`` in ``cwd``, killed after ``timeout`` seconds.

    ``memory_cap_mb`` caps the address space of each process of the run (so
    a regression fails on a MemoryError instead of taking the machine's
    memory). ``stdout``, ``stdin``, ``stderr``, ``env``, ``fsize`` and
    ``actions`` are the wrapper's options (see ``_WRAPPER``):
    ``actions=[(2.0, "signal", "SIGINT")]`` is Ctrl-C after two seconds,
    ``(0.5, "replace", [new, path])`` another program saving ``path``.
    ``as_user``: the permission bits bind the run even under root
    (:func:`as_a_user`)."""
    options = {"stdout": stdout, "stdin": stdin, "actions": actions or [], "stderr": stderr,
               "env": env or {}, "fsize": fsize}
    done = subprocess.run([sys.executable, "-c", _WRAPPER, str(timeout),
                           str(memory_cap_mb or 0), json.dumps(options), *argv],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout + 30,
                          preexec_fn=as_a_user if as_user else None)
    got = json.loads(done.stdout)
    return Measured(got["rc"], got["stdout"], got["stderr"], got["seconds"], got["peak_mb"],
                    got["left"])


#: The capabilities through which root reads, lists and searches any
#: folder whatever its mode (linux/capability.h).
_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2
_PR_CAPBSET_DROP = 24


def as_a_user() -> None:
    """Make the permission bits bind this process's next program as they
    bind a user: for root (CI runs tests as root), the two capabilities
    that override them are dropped from the bounding set, so the program it
    executes has neither, whatever uid it runs as (the files stay root's
    own, and a mode of 000 keeps their owner out too). A ``preexec_fn``."""
    if os.geteuid() != 0:
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def ctrl_c_reaches_it() -> None:
    """Give the program to be run Ctrl-C as a terminal gives it to the
    command in the foreground: a ``preexec_fn`` that sets SIGINT back to
    its default. A process inherits an ignored signal across ``exec``, and
    a shell without job control (a CI script, ``pytest ... &``) starts its
    background jobs with SIGINT ignored; Python then keeps ignoring it, so a
    test that sends SIGINT would watch a command that, rightly, does not
    hear it run to its end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def muggins_argv(*args: str) -> list[str]:
    """The installed command, run as the user runs it (``python -m`` so the
    venv's interpreter is used whatever PATH holds)."""
    return [sys.executable, "-m", "muggins_cli", *args]
