"""Which findings a report shows and which files a folder gives: --select,
--ignore, a record's ``# muggins: ignore[CODE]``, ``[tool.muggins]`` in
pyproject.toml, --exclude, hidden folders and .gitignore.

The findings expected are those of the example records, known from their
README (two mistakes on purpose: records/mistake-illegal-draw.mgn line 85,
illegal-draw; records/mistake-wrong-score-line.mgn line 67, total-mismatch;
and the `unverified` notes of the record kept without deals).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import ALWAYS_SHOWN, SEVERITIES, Selection, check_file
from muggins_cli.cli import app
from muggins_cli.notation.model import Diagnostic, Severity
from muggins_cli.report.explain import entries

from .conftest import RECORDS

ILLEGAL_DRAW = RECORDS / "mistake-illegal-draw.mgn"
WRONG_SCORE = RECORDS / "mistake-wrong-score-line.mgn"
KEPT = RECORDS / "kept-without-deals-2p.mgn"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def _codes(out: str) -> list[str]:
    return [line.split()[2] for line in out.splitlines() if line.split()[1:2] in
            (["error"], ["warning"], ["info"])]


# --- the selection, worked by hand --------------------------------------------

def _d(code: str, severity: Severity) -> Diagnostic:
    return Diagnostic(3, 4, severity, code, "m")


DRAW = _d("illegal-draw", Severity.ERROR)
TOTAL = _d("total-mismatch", Severity.ERROR)
MISSED = _d("missed-score", Severity.WARNING)
UNVERIFIED = _d("unverified", Severity.INFO)
ALL = (DRAW, TOTAL, MISSED, UNVERIFIED)


def _layer(select: str = "", ignore: str = "") -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(select.split()), frozenset(ignore.split())


@pytest.mark.parametrize(("layers", "shown"), [
    ((), ALL),
    ((_layer("error"),), (DRAW, TOTAL)),
    ((_layer(ignore="info"),), (DRAW, TOTAL, MISSED)),
    ((_layer("illegal-draw unverified"),), (DRAW, UNVERIFIED)),
    # The code decides before its severity, whichever is selected.
    ((_layer("error", "total-mismatch"),), (DRAW,)),
    ((_layer("total-mismatch", "error"),), (TOTAL,)),
    # In one layer a name both selected and ignored is ignored.
    ((_layer("warning", "warning"),), ()),
    # The command line (the last layer) decides when it names the code or
    # the severity; else the table does.
    ((_layer(ignore="unverified"), _layer("info")), (UNVERIFIED,)),
    ((_layer("error"), _layer(ignore="illegal-draw")), (TOTAL,)),
    ((_layer(ignore="error"), _layer(ignore="info")), (MISSED,)),
    ((_layer("warning"), _layer("total-mismatch")), (TOTAL, MISSED)),
])
def test_a_finding_is_shown_by_the_most_specific_last_word(
        layers: tuple[tuple[frozenset[str], frozenset[str]], ...],
        shown: tuple[Diagnostic, ...]) -> None:
    assert tuple(d for d in ALL if Selection(layers).shows(d)) == shown


def test_a_file_not_read_is_shown_whatever_is_ignored() -> None:
    ignore_all = Selection((_layer(ignore="error unreadable not-checked"),))
    for code in sorted(ALWAYS_SHOWN):
        assert ignore_all.shows(Diagnostic(0, 0, Severity.ERROR, code, "m"))


def test_no_code_is_named_as_a_severity() -> None:
    assert set(SEVERITIES) == {"error", "warning", "info"}
    assert not set(SEVERITIES) & set(entries())


# --- --select and --ignore on the command line -------------------------------

def test_ignore_by_severity_makes_a_run_clean() -> None:
    status, out, _ = _run("check", "--ignore", "error,info", str(RECORDS))
    assert (status, _codes(out)) == (0, [])
    assert out.endswith("checked 12 files, 12 matches: no errors, 0 warnings\n")


def test_select_by_code_keeps_only_that_code() -> None:
    status, out, _ = _run("check", "--select", "illegal-draw", str(RECORDS))
    assert status == 1
    assert out.splitlines()[0] == (f"{ILLEGAL_DRAW}:85:7: error illegal-draw Budi drew 0-0 "
                                   "while holding 3-3, which fits R (3)")
    assert _codes(out) == ["illegal-draw"]
    assert "1 error, 0 warnings" in out


def test_select_by_severity_with_a_code_ignored() -> None:
    status, out, _ = _run("check", "--select", "error", "--select", "info",
                          "--ignore", "total-mismatch", str(RECORDS))
    codes = _codes(out)
    assert status == 1
    assert "illegal-draw" in codes and "unverified" in codes and "total-mismatch" not in codes


def test_analyze_takes_them_too() -> None:
    family = str(RECORDS / "family-pagat-3p.mgn")
    status, out, _ = _run("analyze", "--fail-on", "warning", family)
    assert (status, set(_codes(out))) == (1, {"missed-score"})
    status, out, _ = _run("analyze", "--fail-on", "warning", "--ignore", "missed-score", family)
    assert (status, _codes(out)) == (0, [])


@pytest.mark.parametrize(("args", "line"), [
    (["--select", "totl-mismatch"],
     "--select: unknown code or severity 'totl-mismatch' (did you mean total-mismatch?)"),
    (["--ignore", "warnings"],
     "--ignore: unknown code or severity 'warnings' (did you mean warning?)"),
    (["--ignore", "zzz"],
     "--ignore: unknown code or severity 'zzz' (see muggins explain for the codes)"),
])
def test_an_unknown_name_is_refused(args: list[str], line: str) -> None:
    status, out, err = _run("check", *args, str(RECORDS))
    assert (status, out, err) == (2, "", f"muggins check: {line}\n")


# --- a record accepts a finding -------------------------------------------------

def _with_line_changed(tmp_path: Path, source: Path, number: int, change: str) -> Path:
    lines = source.read_text(encoding="utf-8").split("\n")
    lines[number - 1] = change.replace("LINE", lines[number - 1])
    target = tmp_path / source.name
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


@pytest.mark.parametrize(("change", "left"), [
    ("LINE # muggins: ignore[total-mismatch]", []),
    ("LINE # disputed at the table; muggins: ignore[bad-deal, total-mismatch]", []),
    ("# muggins: ignore[total-mismatch]\nLINE", []),
    ("# muggins:ignore[ total-mismatch ]\n# another comment\nLINE", []),
    # Another code, or no marker: the finding stays.
    ("LINE # muggins: ignore[score-mismatch]", ["total-mismatch"]),
    ("LINE # ignore[total-mismatch]", ["total-mismatch"]),
    ("LINE # muggins: ignore", ["total-mismatch"]),
    # On the line above the one before: not this line's.
    ("# muggins: ignore[total-mismatch]\nreveal Eko 0-0 0-1 2-2 3-3\nLINE", None),
])
def test_a_comment_accepts_a_finding_on_its_line_or_the_next(
        tmp_path: Path, change: str, left: list[str] | None) -> None:
    if left is None:  # the reveal line above is line 66; the marker goes above it
        path = _with_line_changed(tmp_path, WRONG_SCORE, 66, "# muggins: ignore[total-mismatch]"
                                                             "\nLINE")
        left = ["total-mismatch"]
    else:
        path = _with_line_changed(tmp_path, WRONG_SCORE, 67, change)
    report = check_file(str(path))
    assert [d.code for d in report.diagnostics] == left
    status, _, _ = _run("check", "-q", str(path))
    assert status == (1 if left else 0)


def test_an_analysis_finding_is_accepted_the_same_way(tmp_path: Path) -> None:
    family = RECORDS / "family-pagat-3p.mgn"
    _, out, _ = _run("analyze", "-q", str(family))
    lines = [line.removeprefix(f"{family}:") for line in out.splitlines()
             if line.startswith(f"{family}:") and " missed-score " in line]
    number = int(lines[0].split(":")[0])
    path = _with_line_changed(tmp_path, family, number, "LINE # muggins: ignore[missed-score]")
    _, after, _ = _run("analyze", "-q", str(path))
    kept = [line.removeprefix(f"{path}:") for line in after.splitlines()
            if line.startswith(f"{path}:") and " missed-score " in line]
    assert kept == [line for line in lines if not line.startswith(f"{number}:")]
    assert len(kept) == len(lines) - 1


def test_fmt_keeps_the_comment(tmp_path: Path) -> None:
    path = _with_line_changed(tmp_path, WRONG_SCORE, 67, "LINE # muggins: ignore[total-mismatch]")
    _, out, _ = _run("fmt", str(path))
    assert "score Citra 20, Eko 30, Ana 35 # muggins: ignore[total-mismatch]\n" in out


# --- the files a folder gives ---------------------------------------------------

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A repository: two good records, junk in a hidden folder, in a folder
    its .gitignore names and in a file a nested .gitignore names."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    recs = root / "recs"
    for folder in (recs, recs / ".hidden", recs / "build", recs / "sub"):
        folder.mkdir(parents=True)
    shutil.copy(RECORDS / "threes-2p.mgn", recs / "a.mgn")
    shutil.copy(RECORDS / "threes-2p.mgn", recs / "sub" / "b.mgn")
    for junk in (recs / ".hidden" / "x.mgn", recs / ".y.mgn", recs / "build" / "z.mgn",
                 recs / "sub" / "old.mgn", recs / "sub" / "drafts.mgn"):
        junk.write_text("not a record\n", encoding="utf-8")
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    (recs / "sub" / ".gitignore").write_text("*.mgn\n!b.mgn\n!drafts.mgn\n", encoding="utf-8")
    return root


def test_hidden_and_ignored_files_are_left_out(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree)
    status, out, _ = _run("check", "recs")
    # a.mgn and sub/b.mgn; sub/drafts.mgn (re-included by the nested
    # .gitignore) is the one junk file left: its finding, exit 2.
    assert out.splitlines()[0].startswith("recs/sub/drafts.mgn:0:0: error unreadable")
    assert out.endswith("checked 3 files, 2 matches: 1 error, 0 warnings; exit status 2: "
                        "a file could not be read\n")
    assert status == 2
    status, out, _ = _run("check", "recs", "--exclude", "drafts.mgn")
    assert (status, out) == (0, "checked 2 files, 2 matches: no errors, 0 warnings\n")


def test_without_a_repository_only_the_folder_s_own_gitignore_files_count(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.rmtree(tree / ".git")
    monkeypatch.chdir(tree)
    # The repository's build/ line no longer applies (it is above the folder).
    status, out, _ = _run("check", "-q", "recs")
    assert sorted(line.split(":")[0] for line in out.splitlines()) == \
        ["recs/build/z.mgn", "recs/sub/drafts.mgn"]
    assert status == 2


def test_a_file_named_is_read_and_a_hidden_folder_named_is_walked(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree)
    for args in (["recs/.hidden/x.mgn"], ["recs/.hidden"], ["recs/build/z.mgn"]):
        status, out, _ = _run("check", "-q", *args)
        assert status == 2, args
        assert " error unreadable " in out


def test_the_table_in_pyproject_toml(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tree / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.muggins]\nexclude = ["drafts.mgn"]\n'
        'ignore = ["info"]\nrespect-gitignore = true\n', encoding="utf-8")
    # A nearer pyproject.toml without the table is passed over.
    (tree / "recs" / "pyproject.toml").write_text('[project]\nname = "y"\n', encoding="utf-8")
    shutil.copy(KEPT, tree / "recs" / "kept.mgn")
    elsewhere = tree.parent / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # found from the path, not the current folder
    status, out, _ = _run("check", str(tree / "recs"))
    assert (status, out) == (0, "checked 3 files, 3 matches: no errors, 0 warnings\n")
    # The command line is read after it: info selected again.
    status, out, _ = _run("check", "-q", "--select", "info", str(tree / "recs"))
    assert set(_codes(out)) == {"unverified"} and status == 0
    # respect-gitignore = false: build/z.mgn is read (hidden ones still not).
    text = (tree / "pyproject.toml").read_text(encoding="utf-8")
    (tree / "pyproject.toml").write_text(text.replace("= true", "= false"), encoding="utf-8")
    status, out, _ = _run("check", "-q", str(tree / "recs"))
    assert sorted(Path(line.split(":")[0]).name for line in out.splitlines()) == \
        ["old.mgn", "z.mgn"]


@pytest.mark.parametrize(("table", "line"), [
    ("[tool.muggins]\nselct = []\n",
     "[tool.muggins]: unknown key 'selct' (the keys are exclude, ignore, respect-gitignore, "
     "select)"),
    ("[tool.muggins]\nselect = \"error\"\n",
     "[tool.muggins]: select must be a list of codes or severities (strings in [ ])"),
    ("[tool.muggins]\nignore = [\"erorr\"]\n",
     "[tool.muggins] ignore: unknown code or severity 'erorr' (did you mean error?)"),
    ("[tool.muggins]\nrespect-gitignore = \"no\"\n",
     "[tool.muggins]: respect-gitignore must be true or false"),
    ("[tool]\nmuggins = 3\n", "[tool.muggins] must be a table"),
])
def test_a_bad_table_is_one_line(tmp_path: Path, table: str, line: str) -> None:
    (tmp_path / "pyproject.toml").write_text(table, encoding="utf-8")
    shutil.copy(RECORDS / "threes-2p.mgn", tmp_path / "a.mgn")
    status, out, err = _run("check", str(tmp_path / "a.mgn"))
    assert (status, out, err) == (2, "", f"muggins check: {tmp_path / 'pyproject.toml'} {line}\n")


def test_bad_toml_that_names_muggins_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.muggins\n", encoding="utf-8")
    shutil.copy(RECORDS / "threes-2p.mgn", tmp_path / "a.mgn")
    status, out, err = _run("stats", str(tmp_path))
    assert (status, out) == (2, "")
    assert err.startswith(f"muggins stats: {tmp_path / 'pyproject.toml'}: not valid TOML: ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["stats", "fmt"])
def test_stats_and_fmt_leave_out_the_same_files(
        command: str, tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree)
    every = CliRunner().invoke(app, [command, "recs"])
    assert every.exit_code == 2  # recs/sub/drafts.mgn, junk
    result = CliRunner().invoke(app, [command, "recs", "--exclude", "drafts.mgn"])
    assert result.exit_code == 0, result.output
    if command == "stats":
        assert re.search(r"^files +2$", result.stdout, re.MULTILINE), result.stdout
        assert re.search(r"^unreadable +0$", result.stdout, re.MULTILINE), result.stdout
    else:
        # The two records printed, the same record twice.
        record = (RECORDS / "threes-2p.mgn").read_text(encoding="utf-8")
        assert result.stdout.count('[Players "Ana, Wayan"]') == 2
        assert record.count("\nround ") * 2 == result.stdout.count("\nround ")


def test_git_agrees_on_what_is_ignored(tree: Path) -> None:
    """The same tree asked of git itself, where git is installed (it is on
    CI's machine): the files it does not ignore are the ones read."""
    git = shutil.which("git")
    assert git is not None, "git is needed for this test"
    shutil.rmtree(tree / ".git")
    subprocess.run([git, "init", "-q", str(tree)], check=True)
    listed = subprocess.run([git, "-C", str(tree), "ls-files", "--others", "--exclude-standard",
                             "recs"], check=True, capture_output=True, text=True).stdout
    by_git = sorted(p for p in listed.split() if "/." not in "/" + p)
    from muggins_cli.cli.config import Walk

    keep = Walk()
    from muggins_cli.check import expand_paths

    ours = sorted(str(Path(p).relative_to(tree)) for p in expand_paths([str(tree / "recs")], keep))
    assert ours == by_git == ["recs/a.mgn", "recs/sub/b.mgn", "recs/sub/drafts.mgn"]


def test_a_pyproject_toml_that_is_a_pipe_or_too_large_is_never_read_whole(
        tmp_path: Path) -> None:
    import os

    shutil.copy(RECORDS / "threes-2p.mgn", tmp_path / "a.mgn")
    os.mkfifo(tmp_path / "pyproject.toml")  # nobody writes to it: reading would block
    status, out, _ = _run("check", str(tmp_path / "a.mgn"))
    assert (status, out) == (0, "checked 1 file, 1 match: no errors, 0 warnings\n")
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "pyproject.toml").write_text("[tool.muggins]\n" + "# x\n" * 300_000,
                                             encoding="utf-8")
    status, out, err = _run("check", str(tmp_path / "a.mgn"))
    assert (status, out, err) == (2, "", f"muggins check: {tmp_path / 'pyproject.toml'}: over "
                                         "1 MB, not read\n")


@pytest.mark.parametrize("text", [
    '[tool.muggins]\nselect = ["error"]\n',
    '[tool . "muggins"]\nselect = ["error"]\n',
    'tool.muggins.select = ["error"]\n',
    '[tool]\nmuggins = { select = ["error"] }\n',
    '[tool]\nother = 1\n\n[tool.muggins]\nselect = ["error"]\n',
])
def test_every_toml_spelling_of_the_table_is_found(tmp_path: Path, text: str) -> None:
    from muggins_cli.cli.config import find_config

    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    assert find_config(tmp_path).select == ("error",)


def test_a_pyproject_toml_that_only_names_the_script_is_passed_over(tmp_path: Path) -> None:
    from muggins_cli.cli.config import find_config

    (tmp_path / "pyproject.toml").write_text(
        '[project.scripts]\nmuggins = "muggins_cli.cli:main"\n', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    assert find_config(tmp_path / "sub").path is None
