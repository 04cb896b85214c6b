"""The header of a match resolved once: players, seats, rules and target.

Everything after the header reads the :class:`MatchSetup`, so the rules are
never missing where a turn is replayed. Rules are resolved through a
caller-supplied function so that the replay stays free of file and YAML
handling (and of the decision of which files a record may name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from muggins_cli.errors import RulesError
from muggins_cli.notation.model import NUMBER_MAX, Diagnostic, Match, Severity, whole_number
from muggins_cli.notation.quoting import quote
from muggins_cli.rules.model import Rules

RulesResolver = Callable[[str], Rules]


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """The header resolved once: who plays in which seat, under which rules,
    to which target. Everything after the header reads it from here, so the
    rules are never missing where a turn is replayed."""

    players: tuple[str, ...]
    seat: dict[str, int]
    rules: Rules
    target: int


@dataclass(slots=True)
class Header:
    """What the header gave, also when it did not give a whole setup: the
    names and the rules still go into the summary and the replay result."""

    players: tuple[str, ...] = ()
    rules: Rules | None = None
    setup: MatchSetup | None = None


def read_setup(match: Match, resolve_rules: RulesResolver, diags: list[Diagnostic]) -> Header:
    """Resolve the Players, Rules and Target tags, appending a ``bad-header``
    finding to ``diags`` for each that cannot be used."""
    def error(line: int, column: int, message: str) -> None:
        diags.append(Diagnostic(line, column, Severity.ERROR, "bad-header", message))

    players_tag = match.tag_line("Players")
    if players_tag is None:
        if not any(d.code == "bad-header" for d in diags):
            error(match.line, 1, "the match has no Players tag")
        return Header()
    if any(d.code == "bad-header" and d.line == players_tag.line for d in diags):
        return Header()
    names = tuple(match.players)
    rules_tag = match.tag_line("Rules")
    spec = rules_tag.value if rules_tag is not None else "pagat"
    try:
        rules = resolve_rules(spec)
    except RulesError as e:
        where = rules_tag if rules_tag is not None else players_tag
        error(where.line, where.column, f"Rules {quote(spec)}: {e}")
        return Header(names)
    if len(names) not in rules.players:
        allowed = ", ".join(map(str, rules.players))
        error(players_tag.line, players_tag.column,
              f"{len(names)} players, but rules {quote(rules.name)} allow {allowed}")
        return Header(names, rules)
    target_tag = match.tag_line("Target")
    target = rules.target_for(len(names))
    if target_tag is not None:
        number = whole_number(target_tag.value.strip())
        if number is None or number <= 0:
            error(target_tag.line, target_tag.column,
                  f"Target must be a whole number from 1 to {NUMBER_MAX:,}, "
                  f"got {quote(target_tag.value)}")
        else:
            target = number
    seat = {n: i for i, n in enumerate(names)}
    return Header(names, rules, MatchSetup(names, seat, rules, target))
