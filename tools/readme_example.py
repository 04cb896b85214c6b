"""The README's example of ``muggins analyze --solver``, made by running it.

    python tools/readme_example.py            # rewrite the example in README.md
    python tools/readme_example.py --check    # say whether README.md shows it (status 1 if not)

The example is the command's real output at the default settings: its
first ``costly-play`` warning, then the statistics table with the columns
between ``turns`` and ``unforced`` left out, and the lines that say how
the solver weighed the turns. It sits in the console block after the
marker comment ``<!-- tools/readme_example.py -->`` in README.md;
tests/test_docs.py fails when the two differ, so the README's numbers are
always what the default settings print.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
COMMAND = ["analyze", "records/club-night-pagat-2p.mgn", "--solver", "-q"]
MARK = "<!-- tools/readme_example.py -->"
BLOCK = re.compile(re.escape(MARK) + r"\n(?P<indent>[ \t]*)```console\n(?P<body>.*?)\n[ \t]*```",
                   re.DOTALL)


def output(jobs: int = 2) -> str:
    """What the command prints, run from the repository's root."""
    done = subprocess.run([sys.executable, "-m", "muggins_cli", *COMMAND, "--jobs", str(jobs)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"muggins {' '.join(COMMAND)} failed:\n{done.stderr}")
    return done.stdout


def example(out: str) -> str:
    """The README's abridged form of ``out``."""
    lines = out.rstrip("\n").split("\n")
    warning = next(line for line in lines if " warning costly-play " in line)
    rule = next(i for i, line in enumerate(lines) if re.fullmatch(r"-+( +-+)+", line))
    spans = [m.span() for m in re.finditer(r"-+", lines[rule])]
    keep_to, keep_from = spans[1][1], spans[-4][0]
    how = next(i for i, line in enumerate(lines) if line.startswith("solver ("))
    table = [f"{line[:keep_to]}  ...  {line[keep_from:]}".rstrip()
             for line in lines[rule - 1:how]]
    return "\n".join([f"$ muggins {' '.join(COMMAND)}", warning, "...", *table, *lines[how:]])


def readme_with(text: str, block: str) -> str:
    """``text`` (the README) with ``block`` as its example."""
    found = BLOCK.search(text)
    if found is None:
        raise SystemExit(f"README.md has no console block after {MARK}")
    indent = found["indent"]
    body = "\n".join(indent + line if line else line for line in block.split("\n"))
    return text[:found.start("body")] + body + text[found.end("body"):]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args()
    text = README.read_text(encoding="utf-8")
    new = readme_with(text, example(output()))
    if args.check:
        print("README.md shows what the command prints" if new == text else
              "README.md differs from what the command prints: run tools/readme_example.py")
        return 0 if new == text else 1
    README.write_text(new, encoding="utf-8")
    print("README.md " + ("unchanged" if new == text else "rewritten"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
