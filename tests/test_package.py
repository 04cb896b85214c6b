"""What the wheel holds: every file the installed tool reads or points to.

``--help`` names the JSON Schemas of the reports (``schemas/NAME.json``);
a user who installed the wheel has no ``schemas/`` folder, so each must be
in the package too (``muggins_cli/schemas/``, of which ``schemas/`` holds
links), and a wheel built from this tree must hold it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app

from .conftest import REPO

PACKAGE = REPO / "src" / "muggins_cli"


def _cited_schemas() -> set[str]:
    """Every ``schemas/NAME.json`` that ``muggins [COMMAND] --help`` names."""
    names = ["", *(c.name or "" for c in app.registered_commands)]
    cited = set()
    for name in names:
        result = CliRunner().invoke(app, [name, "--help"] if name else ["--help"],
                                    env={"COLUMNS": "1000"})
        assert result.exit_code == 0, result.output
        cited |= set(re.findall(r"\bschemas/([a-z]+\.schema\.json)", result.stdout))
    return cited


def test_the_help_names_the_report_schemas() -> None:
    assert {"report.schema.json", "analysis.schema.json"} <= _cited_schemas()


def test_each_schema_of_the_repository_is_a_link_to_the_package_s() -> None:
    for path in sorted((REPO / "schemas").glob("*.json")):
        assert path.is_symlink(), path
        assert path.resolve() == (PACKAGE / "schemas" / path.name).resolve()
    assert {p.name for p in (REPO / "schemas").glob("*.json")} == \
        {p.name for p in (PACKAGE / "schemas").glob("*.json")}


@pytest.mark.slow  # builds a wheel: a few seconds
def test_the_wheel_holds_every_schema_the_help_names_and_the_data_the_tool_reads(
        tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, tree / name)
    shutil.copytree(PACKAGE, tree / "src" / "muggins_cli",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(tmp_path / "out"), str(tree)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "out").glob("muggins_cli-*.whl")
    held = set(zipfile.ZipFile(wheel).namelist())
    missing = [f"muggins_cli/schemas/{name}" for name in sorted(_cited_schemas())
               if f"muggins_cli/schemas/{name}" not in held]
    assert missing == []
    # What the tool reads from the package: the rules schema and presets,
    # the diagnostics page (explain, SARIF's rules), the study templates.
    for name in ("muggins_cli/schemas/rules.schema.json", "muggins_cli/docs/diagnostics.md",
                 "muggins_cli/rules/presets/pagat.yaml",
                 "muggins_cli/rules/presets/validated.json",
                 "muggins_cli/report/templates/study.html.j2", "muggins_cli/py.typed"):
        assert name in held, name
