"""The public Python API: docs/api.md runs as written, its figures are held
to sources apart from the code that printed them, every public name is on
the page, and ``import muggins_cli`` stays light."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys

import pytest

import muggins_cli

from .conftest import DOCS, RECORDS, REPO
from .test_solver_reference import move_value2

PAGE = DOCS / "api.md"


def test_the_page_s_examples_run_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the examples name records/ from the root
    result = doctest.testfile(str(PAGE), module_relative=False, verbose=False,
                              report=True, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15
    assert result.failed == 0


def test_the_visitor_s_points_are_the_claims_written() -> None:
    # The club record has no mistake, so each claim (+N on a turn) is what
    # the placement scored: summed by a regular expression, not the replay.
    claims: dict[str, int] = {}
    for line in (RECORDS / "club-night-pagat-2p.mgn").read_text(encoding="utf-8").splitlines():
        found = re.match(r"(Ana|Budi): .*\+(\d+)\s*$", line.split("#")[0])
        if found:
            claims[found[1]] = claims.get(found[1], 0) + int(found[2])
    assert claims == {"Ana": 290, "Budi": 285}
    assert "{'Ana': 290, 'Budi': 285}" in PAGE.read_text(encoding="utf-8")


def test_the_solver_s_values_are_the_plain_minimax_s() -> None:
    path = str(RECORDS / "club-night-pagat-2p.mgn")
    match = muggins_cli.read_match(path, 1)
    position = muggins_cli.position_at(match, muggins_cli.record_resolver(path), "1.19")
    state = position.state()
    dists = [position.target - s for s in position.scores]
    values = [(str(m), move_value2(position.rules, state, m, dists, False))
              for m in muggins_cli.legal_moves(position.rules, state)]
    assert values == [("0-6R", 15), ("1-6R", -15), ("3-6R", 30)]
    assert "[('0-6R', 15.0), ('1-6R', -15.0), ('3-6R', 30.0)]" in PAGE.read_text(encoding="utf-8")


def test_every_public_name_is_importable_and_on_the_page() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for name in muggins_cli.__all__:
        assert getattr(muggins_cli, name) is not None, name
        if name != "__version__":
            assert f"`{name}" in text, f"{name} is not on docs/api.md"
    with pytest.raises(AttributeError):
        muggins_cli.no_such_name  # noqa: B018


def test_import_muggins_cli_imports_nothing_of_the_package_until_asked() -> None:
    code = ("import sys, muggins_cli\n"
            "print(sorted(m for m in sys.modules if m.startswith('muggins_cli')))\n"
            "muggins_cli.check_file\n"
            "print('muggins_cli.solver.kernel' in sys.modules, 'numba' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout == "['muggins_cli']\nFalse False\n"
