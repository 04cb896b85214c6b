"""One way to ask: an option means the same thing, with the same default,
in every command that has it, read off every command's parameters (the
Typer commands as Click builds them); a short name is one option wherever
it is taken; a spelling of an older release still works, hidden from
--help; and the words a user reads for the same thing are the same."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.cli.app import COMMANDS, OLD_SPELLINGS

from .test_solver_cli import DEALS, HEAD, STOCK, TURNS

runner = CliRunner()


def _options() -> Iterator[tuple[str, Any]]:
    """(command, option) for every option of every command, --help aside."""
    group = typer.main.get_command(app)
    for name in COMMANDS:
        command = group.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        for p in command.params:
            if p.param_type_name == "option" and "--help" not in p.opts:
                yield name, p


def _shown(command: str, p: Any) -> list[str]:
    """The option's names as --help shows them: its old spellings left out."""
    return [o for o in p.opts if (command, o) not in OLD_SPELLINGS]


def _choices(p: Any) -> set[str] | None:
    kind = p.type_descriptor.annotation
    if isinstance(kind, type) and issubclass(kind, Enum):
        return {e.value for e in kind}
    return None


def _default(p: Any) -> object:
    return p.default.value if isinstance(p.default, Enum) else p.default


def _formats(p: Any) -> list[str]:
    """The formats a --format takes, as its help lists them ("text: ...;
    json: ...")."""
    return re.findall(r"(?:^|; )([a-z]+): ", p.help)


def test_every_option_means_one_thing_with_one_default() -> None:
    """For every long name taken by two commands or more: the same short
    names, the same default, the same type (a choice: one command's values
    among another's), the same metavar, a flag everywhere or nowhere. A
    report's --format defaults to text where the command has a text
    format, else to its table."""
    by_name: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for command, p in _options():
        if p.hidden:
            continue
        longs = [o for o in _shown(command, p) if o.startswith("--")]
        by_name[longs[0]].append((command, p))
    shared = {name: found for name, found in by_name.items() if len(found) > 1}
    assert len(shared) >= 20, sorted(shared)
    differ = []
    for name, found in sorted(shared.items()):
        first_command, first = found[0]
        for command, p in found[1:]:
            why = []
            if sorted(_shown(command, p)) != sorted(_shown(first_command, first)):
                why.append(f"names {_shown(command, p)} / {_shown(first_command, first)}")
            if name == "--format":
                wanted = "text" if "text" in _formats(p) else "table"
                if _default(p) != wanted:
                    why.append(f"default {_default(p)!r}, not {wanted!r}")
            elif _default(p) != _default(first):
                why.append(f"default {_default(p)!r} / {_default(first)!r}")
            mine, theirs = _choices(p), _choices(first)
            if mine is not None and theirs is not None:
                if not (mine <= theirs or theirs <= mine):
                    why.append(f"choices {sorted(mine)} / {sorted(theirs)}")
            elif p.type_descriptor.annotation != first.type_descriptor.annotation:
                why.append("type")
            if p.metavar != first.metavar:
                why.append(f"metavar {p.metavar} / {first.metavar}")
            if p.is_flag != first.is_flag:
                why.append("flag")
            if why:
                differ.append(f"{name}: {command} against {first_command}: {'; '.join(why)}")
    assert differ == []


def test_a_short_name_is_one_option_wherever_it_is_taken() -> None:
    """A short name stands for one long name wherever it is shown (-k is
    --matches, -n --players, ...); -s is --seed in every command with a
    seed."""
    longs_of: dict[str, set[str]] = defaultdict(set)
    has: dict[str, set[str]] = defaultdict(set)
    for command, p in _options():
        if p.hidden:
            continue
        names = _shown(command, p)
        first = next(o for o in names if o.startswith("--"))
        has[first].add(command)
        for short in (o for o in names if not o.startswith("--")):
            longs_of[short].add(first)
    assert {s: longs for s, longs in longs_of.items() if len(longs) > 1} == {}
    assert longs_of["-s"] == {"--seed"}
    assert has["--seed"] >= {"analyze", "study", "solve", "selfplay", "arena"}
    for command, p in _options():
        names = _shown(command, p)
        if "--seed" in names:
            assert "-s" in names, command


def test_every_hidden_option_is_an_old_spelling() -> None:
    hidden = {(command, o) for command, p in _options() for o in p.opts if p.hidden}
    hidden |= {(command, o) for command, p in _options() for o in p.opts
               if (command, o) in OLD_SPELLINGS}
    assert hidden == set(OLD_SPELLINGS)
    for command in {c for c, _ in OLD_SPELLINGS}:
        shown = runner.invoke(app, [command, "--help"]).stdout
        for (c, old), _new in OLD_SPELLINGS.items():
            if c == command:
                assert not re.search(rf"(?<![\w-]){re.escape(old)}(?![\w-])", shown), (c, old)


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "club.mgn"
    path.write_text(HEAD + DEALS + STOCK + TURNS, encoding="utf-8")
    return path


#: For each old spelling, a command line that uses it (OLD stands for it)
#: and whose output does not depend on the clock.
_RUNS: dict[str, list[str]] = {
    "analyze": ["analyze", "club.mgn", "--solver", "--json", "-q", "--jobs", "1",
                "--mode", "sample", "OLD"],
    "study": ["study", "club.mgn", "--solver", "-q", "--jobs", "1", "OLD"],
    "selfplay": ["selfplay", "--strategy", "solver,greedy", "--samples", "2", "OLD"],
    "arena": ["arena", "greedy", "random", "--json", "-q", "OLD"],
}
_VALUES = {"--samples": "2", "--nodes": "3000", "--matches": "2", "-k": "2"}


@pytest.mark.slow
@pytest.mark.parametrize(("command", "old"), sorted(OLD_SPELLINGS))
def test_an_old_spelling_does_what_the_new_one_does(command: str, old: str,
                                                    small: Path) -> None:
    new = list(OLD_SPELLINGS[command, old])
    value = [_VALUES[old]] if old in _VALUES else []
    args = _RUNS[command]
    if "--mode" in new:  # --perfect: the view, all hands seen
        args = [a for a in args if a not in ("--mode", "sample")]
    at = args.index("OLD")
    before = runner.invoke(app, [*args[:at], old, *value, *args[at + 1:]])
    now = runner.invoke(app, [*args[:at], *new, *value, *args[at + 1:]])
    assert before.exit_code == now.exit_code == 0, before.output + now.output
    assert before.stdout == now.stdout
    assert len(now.stdout) > 100


def test_the_same_words_for_the_same_thing() -> None:
    """--force says "replace" in every command, as the refusal does ("add
    --force to replace it"); --quiet and --rules read the same everywhere;
    check and stats do not describe what --retries does in analyze."""
    helps: dict[str, set[str]] = defaultdict(set)
    for command, p in _options():
        helps[p.opts[0]].add(" ".join((p.help or "").split()))
        if p.opts[0] == "--retries" and command in ("check", "stats"):
            assert "analyze" not in p.help and "turn" not in p.help, command
    assert not [h for h in helps["--force"] if "overwrite" in h]
    assert len(helps["--quiet"]) == 1
    assert len(helps["--rules"]) == 1


def test_selfplay_names_the_players_as_the_records_do() -> None:
    result = runner.invoke(app, ["selfplay", "--players", "4"])
    assert result.exit_code == 0, result.output
    assert '[Players "Ana, Budi, Citra, Dewi"]' in result.stdout
    shown = runner.invoke(app, ["selfplay", "--help"]).stdout
    assert "Dewi" in shown and "Dana" not in shown
    records = Path(__file__).resolve().parents[1] / "records"
    assert "Dewi" in (records / "league-pagat-4p.mgn").read_text(encoding="utf-8")


def test_one_deal_sequence_is_said_in_the_singular() -> None:
    result = runner.invoke(app, ["arena", "greedy", "random", "--sequences", "1", "-q"])
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert head.endswith(": 1 deal sequence, each played twice with the seats swapped "
                         "(2 matches)"), head
