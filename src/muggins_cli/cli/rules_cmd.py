"""``muggins rules``: show the presets, or one set of rules in full.

A user writing a rules file needs two things the engine cannot give them: what
each preset says, and whether their own file means what they think. Printing
the resolved YAML answers both, and the output is itself a valid rules file.
"""

from __future__ import annotations

from typing import Annotated

import typer
from tabulate import tabulate

from muggins_cli.cli.app import app
from muggins_cli.cli.options import note
from muggins_cli.errors import RulesError
from muggins_cli.rules import (
    DEFAULT_PRESET,
    Rules,
    load_preset,
    load_rules,
    preset_names,
    rules_to_yaml,
)

HEADERS = ("name", "spinner", "modulus", "round_end", "muggins", "targets")


def presets_table() -> str:
    """One line per preset: the fields that tell the presets apart at a glance;
    then which of them applies where none is named."""
    rows = [_row(load_preset(name)) for name in preset_names()]
    return (tabulate(rows, headers=HEADERS, tablefmt="simple", disable_numparse=True)
            + f"\n\ndefault: {DEFAULT_PRESET} (a record without a Rules tag, a rules file "
              "without base, selfplay and arena without --rules)")


def _row(rules: Rules) -> list[str]:
    targets = ", ".join(f"{n}: {t}" for n, t in sorted(rules.target.items()))
    return [
        rules.name,
        rules.spinner.value,
        str(rules.modulus),
        rules.round_end.value,
        "yes" if rules.muggins else "no",
        targets,
    ]


@app.command("rules")
def rules_command(
    spec: Annotated[
        str | None,
        typer.Argument(
            metavar="NAME|FILE",
            help=(
                "A preset name (pagat, spinner, all-threes) or a path to a rules YAML file. "
                "Leave it out to list the presets."
            ),
            show_default=False,
        ),
    ] = None,
) -> None:
    """List the rules presets, or print one preset or rules file in full.

    A record picks its rules with a tag: [Rules "spinner"], or [Rules "my.yaml"]
    for a file beside the record (default pagat). A rules file needs only the
    fields that differ from its base preset, for example:

    \b
        base: spinner          # start from a preset (default pagat)
        target: {2: 150}       # entries merge with the base's
        spinner_count: until-sides-covered

    \b
    Examples:
        muggins rules                 # the presets, one line each, and the default
        muggins rules spinner         # every field of a preset, as YAML
        muggins rules spinner > my.yaml   # a starting point to edit
        muggins rules my.yaml         # check a file: shows what it resolves to

    A file with a mistake (an unknown field, a wrong type, a hand that does not
    fit in the set) is reported on one line with its line number; exit status 2.
    """
    if spec is None:
        typer.echo(presets_table())
        return
    try:
        rules = load_rules(spec)
    except RulesError as exc:
        note(f"error: {exc}")
        raise typer.Exit(code=2) from None
    typer.echo(rules_to_yaml(rules), nl=False)
