"""A bare Typer app: one command, one argument, Typer's defaults.

What ``bench/bench_startup.py`` compares muggins' start-up with: the least
a command written with Typer costs to start, parse its command line and
print a line.
"""

from __future__ import annotations

import typer

app = typer.Typer()


@app.command()
def main(path: str) -> None:
    """Print the path given."""
    print(path)


if __name__ == "__main__":
    app()
