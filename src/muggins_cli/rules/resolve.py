"""Which rules a record may ask for.

A record names its rules with the ``Rules`` tag: a preset, or a YAML file
relative to the record. A path that leaves the record's folder is refused, so
that checking a record from someone else can never make the tool read an
arbitrary file of the machine it runs on.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from muggins_cli.errors import RulesError
from muggins_cli.rules.loader import load_rules, preset_names
from muggins_cli.rules.model import Rules


def resolver_for(record: str | None) -> Callable[[str], Rules]:
    """A resolver for the record at ``record`` (None or ``-``: stdin, so the
    current folder is the record's folder)."""
    base = Path.cwd() if record in (None, "-") else Path(record).resolve().parent

    def resolve(spec: str) -> Rules:
        if spec in preset_names():
            return load_rules(spec)
        target = Path(os.path.realpath(base / spec))
        if Path(spec).is_absolute() or not target.is_relative_to(os.path.realpath(base)):
            raise RulesError(
                f"the rules file {spec!r} is outside the record's folder; "
                "a record may only name rules files beside it or below it")
        return load_rules(spec, base_dir=base)

    return resolve
