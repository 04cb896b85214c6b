"""The documentation that ships with the project says what the code does.

docs/rules.md's parameter table is compared with the presets as loaded, so
a preset that changes without its page (or the reverse) fails; and nothing a
user reads (help texts, messages, the README, the schemas) sends them to the
shared folder beside the repository, which a clone does not have.
"""

from __future__ import annotations

import functools
import re
from importlib import metadata
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

import muggins_cli
from muggins_cli.cli import app
from muggins_cli.cli.app import COMMANDS, OLD_SPELLINGS
from muggins_cli.rules.loader import load_preset, preset_names, rules_to_mapping

from .conftest import DOCS, REPO


def _rules_table() -> dict[str, dict[str, str]]:
    """parameter -> preset -> the cell as written, from docs/rules.md."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    header = re.search(r"^\| parameter \| meaning \|(.*)\|$", text, re.MULTILINE)
    assert header is not None
    presets = [c.strip().strip("`") for c in header[1].split("|")]
    table: dict[str, dict[str, str]] = {}
    for row in re.findall(r"^\| `([a-z_]+)` \|(.*)\|$", text, re.MULTILINE):
        cells = [c.strip() for c in row[1].split(" | ")]
        table[row[0]] = dict(zip(presets, cells[-len(presets):]))
    return table


def _as_written(value: object) -> str:
    """A preset's value spelt as the table spells it: 2–4, 2: 7, 3: 5, true."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return f"{value[0]}–{value[-1]}" if value == list(range(value[0], value[-1] + 1)) \
            else ", ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


TABLE = _rules_table()


def test_the_table_has_a_column_per_preset() -> None:
    assert {name for row in TABLE.values() for name in row} == set(preset_names())


@pytest.mark.parametrize("preset", preset_names())
def test_rules_page_gives_every_parameter_of_each_preset(preset: str) -> None:
    resolved = rules_to_mapping(load_preset(preset))
    del resolved["name"]
    missing = sorted(set(resolved) - set(TABLE))
    assert missing == [], f"parameters not in docs/rules.md: {missing}"
    for field, value in resolved.items():
        cell = TABLE[field][preset]
        written = cell.split(" (", 1)[0]  # a *decided* note may follow
        assert written == _as_written(value), (field, cell, value)


def test_the_new_parameters_are_documented_with_their_defaults() -> None:
    """match_end, rounding and lead_tile as RULES.md defines them: each
    preset plays the old way unless a file says otherwise."""
    for field, default in (("match_end", "at-target"), ("rounding", "nearest"),
                           ("lead_tile", "any")):
        assert set(TABLE[field].values()) == {default}, field


# -- nothing points at the shared folder ----------------------------------------

_SHARED = re.compile(r"NOTATION\.md|RULES\.md|shared folder|\.\./shared")


def _user_facing() -> list[Path]:
    files = [REPO / "README.md", REPO / "CONTRIBUTING.md"]
    files += sorted((REPO / "schemas").glob("*.json"))
    files += sorted((REPO / "src" / "muggins_cli").rglob("*.py"))
    files += sorted((REPO / "src" / "muggins_cli").rglob("*.yaml"))
    files += sorted((REPO / "src" / "muggins_cli").rglob("*.json"))
    files += sorted(DOCS.glob("*.md"))
    return files


def test_no_file_a_user_reads_cites_the_shared_folder() -> None:
    cited = [f"{path.relative_to(REPO)}:{n}" for path in _user_facing()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if _SHARED.search(line)]
    assert cited == []


def _commands() -> list[str]:
    return sorted(c.name or "" for c in app.registered_commands)


@functools.cache
def _help(name: str) -> str:
    """``muggins [NAME] --help``, asked once for the tests below."""
    result = CliRunner().invoke(app, [name, "--help"] if name else ["--help"])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("name", ["", *_commands()])
def test_help_cites_the_docs_folder_not_the_shared_one(name: str) -> None:
    assert not _SHARED.search(_help(name)), _help(name)


def test_every_doc_the_help_cites_exists() -> None:
    cited = {page for name in ["", *_commands()]
             for page in re.findall(r"docs/[a-z]+\.md", _help(name))}
    assert cited, "no help text names a page of docs/"
    assert [c for c in sorted(cited) if not (REPO / c).is_file()] == []


# -- the version, written once ---------------------------------------------------


def _pyproject_version() -> str:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^\[project\]$.*?^version = "([^"]+)"$', text, re.MULTILINE | re.DOTALL)
    assert found is not None
    return found[1]


def test_the_version_is_read_from_the_package_metadata() -> None:
    assert muggins_cli.__version__ == metadata.version("muggins-cli") == _pyproject_version()


def test_no_other_file_writes_the_version() -> None:
    version = re.escape(_pyproject_version())
    files = [*sorted((REPO / "src").rglob("*.py")), REPO / "README.md", *DOCS.glob("*.md")]
    hits = [str(p.relative_to(REPO)) for p in files
            if re.search(rf"(?<![\d.]){version}(?![\d.])", p.read_text(encoding="utf-8"))]
    assert hits == []


def test_the_newest_release_in_the_changelog_is_this_version() -> None:
    headings = re.findall(r"^## (.+)$", (REPO / "CHANGELOG.md").read_text(encoding="utf-8"),
                          re.MULTILINE)
    released = [h for h in headings if h != "Unreleased"]
    assert headings[0] in ("Unreleased", _pyproject_version())
    assert released and released[0].split()[0] == _pyproject_version()


# -- CI runs what the README promises ---------------------------------------------


def test_ci_runs_ruff_mypy_and_the_readme_test_command() -> None:
    steps = [line for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^python3 -m venv \.venv && \. \.venv/bin/activate && "
                        r"(pip install -e '\.\[test\]') && (pytest && pytest -m slow)$", readme,
                        re.MULTILINE)
    assert command is not None
    assert steps[-3:] == ["ruff check src tests bench", "mypy", command[2]]
    assert "pip install --quiet -e '.[test]'" in steps
    assert steps[0] == "set -euo pipefail"  # a failing step fails the run


def test_pre_commit_runs_ruff_and_mypy() -> None:
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    entries = {hook["entry"] for repo in config["repos"] for hook in repo["hooks"]}
    assert {"ruff check", "mypy"} <= entries


def test_tests_take_their_data_paths_from_conftest() -> None:
    """A test that looks for the corpus beside the repository skips or fails
    in a plain clone; tests/conftest.py owns the paths."""
    strays = [f"{path.name}:{n}" for path in sorted((REPO / "tests").glob("*.py"))
              if path.name not in ("conftest.py", "test_docs.py")
              for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"""["']shared["']|\.\./shared|["']conformance["']|["']data["'] /""", line)]
    assert strays == []


@pytest.mark.slow  # the whole club record analysed with the solver
def test_the_readme_example_is_what_the_default_settings_print() -> None:
    """The README's example of analyze --solver (its numbers included) is
    the command's output at the default settings, as tools/readme_example.py
    abridges it: a change to the defaults or the solver that moves them
    fails here until the tool is run again."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("readme_example",
                                                  REPO / "tools" / "readme_example.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = tool.example(tool.output())
    assert "costly-play" in block and "± " in block
    assert tool.readme_with(text, block) == text, block


# -- the options a page writes are the options the commands take -------------------------


def _shown_options() -> dict[str, set[str]]:
    """command -> every name of its options as --help shows them (an old
    spelling, still read, left out)."""
    group = typer.main.get_command(app)
    out: dict[str, set[str]] = {}
    for name in COMMANDS:
        command = group.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        out[name] = {o for p in command.params if not getattr(p, "hidden", False)
                     for o in [*p.opts, *p.secondary_opts] if (name, o) not in OLD_SPELLINGS}
        out[name] |= {"--help", "-h"}
    return out


def test_every_command_line_in_the_docs_takes_the_options_it_shows() -> None:
    """Each `muggins CMD ...` in the README and docs/ (a console line or a
    code span) uses the options CMD's --help lists, never a spelling kept
    only for old scripts (--perfect, analyze's --samples, ...)."""
    shown = _shown_options()
    pages = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
    wrong, seen = [], 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"muggins ([a-z]+)((?:[ \t]+[^\s`|;&]+)*)", text):
            command, rest = m[1], m[2]
            if command not in shown:
                continue
            for token in rest.split():
                name = re.match(r"[\[(]*(--?[A-Za-z][\w-]*)", token)
                if name is None:
                    continue
                seen += 1
                if name[1] not in shown[command]:
                    wrong.append(f"{page.name}: muggins {command} ... {name[1]}")
    assert seen >= 60
    assert wrong == []
