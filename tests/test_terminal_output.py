"""What a record holds reaches a terminal as visible text, and briefly:
control characters escaped in text, table and github output,
kept raw in JSON; a long token quoted by its start only."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import check_file
from muggins_cli.cli import app
from muggins_cli.errors import RulesError
from muggins_cli.report.escape import for_terminal
from muggins_cli.rules import load_rules

from .records import CLUB_FIRST, THREES

runner = CliRunner()

# ESC c resets a terminal, BEL rings it, U+202E turns the text around.
ANA = "Ana\x1bc\x07"
BUDI = "Bu\u202edi"
SHOWN_ANA = "Ana\\x1bc\\x07"
SHOWN_BUDI = "Bu\\u202edi"
# Cursor up and erase the line: a finding printed after it hid the one before.
TOKEN = "6-6\x1b[1A\x1b[2K"
SHOWN_TOKEN = "6-6\\x1b[1A\\x1b[2K"

# What a terminal acts on, but the newline that ends each line.
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "names.mgn").write_text(
        CLUB_FIRST.replace("Ana", ANA).replace("Budi", BUDI), encoding="utf-8")
    (tmp_path / "token.mgn").write_text(
        THREES.replace("Eko: 6-6 +12", f"Eko: {TOKEN} +12"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[1A\x1b[2K", "\\x1b[1A\\x1b[2K"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("a\tb\nc\rd", "a\\tb\\nc\\rd"),
        ("\x00\x7f\x9b2K", "\\x00\\x7f\\x9b2K"),  # NUL, DEL, the one-byte CSI
        ("\u202eevil\u2066\u2069\u2028", "\\u202eevil\\u2066\\u2069\\u2028"),
        ("Dewi é ✓ 6-6 \\x1b", "Dewi é ✓ 6-6 \\x1b"),  # printable text is left alone
    ],
)
def test_for_terminal(raw: str, shown: str) -> None:
    assert for_terminal(raw) == shown


def test_text_output_escapes_names_and_tokens(folder: Path) -> None:
    result = runner.invoke(app, ["check", "names.mgn", "token.mgn"])
    assert result.exit_code == 1, result.output
    assert not _CONTROL.search(result.stdout)
    lines = result.stdout.splitlines()
    assert (f"names.mgn:14:14: error score-mismatch {SHOWN_ANA} claims 15; 4-4 scores 20 "
            "(the open ends add up to 20)") in lines
    assert ("token.mgn:13:6: error syntax expected a placement like 3-5R, 'pass' or a draw "
            f"like d3-5, got '{SHOWN_TOKEN}'") in lines


def test_json_keeps_the_raw_text(folder: Path) -> None:
    result = runner.invoke(app, ["check", "-f", "json", "names.mgn", "token.mgn"])
    report = json.loads(result.stdout)
    messages = [d["message"] for f in report["files"] for d in f["diagnostics"]]
    assert f"{ANA} claims 15; 4-4 scores 20 (the open ends add up to 20)" in messages
    assert any(f"got '{TOKEN}'" in m for m in messages)
    assert report["files"][0]["matches"][0]["players"] == [ANA, BUDI]


def test_github_output_escapes_them(folder: Path) -> None:
    result = runner.invoke(app, ["check", "-f", "github", "names.mgn", "token.mgn"])
    assert not _CONTROL.search(result.stdout)
    assert (f"::error file=names.mgn,line=14,col=14,title=score-mismatch::{SHOWN_ANA} claims "
            "15; 4-4 scores 20 (the open ends add up to 20)") in result.stdout.splitlines()
    assert f"got '{SHOWN_TOKEN}'" in result.stdout


def test_table_cells_are_escaped_and_aligned(folder: Path) -> None:
    result = runner.invoke(app, ["check", "-f", "table", "names.mgn"])
    assert not _CONTROL.search(result.stdout)
    header, rule, row = result.stdout.splitlines()
    assert f"{SHOWN_ANA}, {SHOWN_BUDI}" in row
    assert f"{SHOWN_ANA} 20, {SHOWN_BUDI} 0" in row
    # Columns measured on what is shown: the row ends where the rule does.
    assert len(row) == len(rule) == len(header)


def test_analyze_text_escapes_titles_and_player_tables(folder: Path) -> None:
    result = runner.invoke(app, ["analyze", "names.mgn", "--turns"])
    assert not _CONTROL.search(result.stdout)
    assert f"names.mgn: match at line 1 ({SHOWN_ANA}, {SHOWN_BUDI}; pagat)" in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith(SHOWN_ANA)]
    assert len(rows) == 1
    assert rows[0].split() == [SHOWN_ANA, "2", "2", "0", "20", "0", "0", "1", "-"]


def test_stats_player_table_escapes_names(folder: Path) -> None:
    result = runner.invoke(app, ["stats", "names.mgn"])
    assert result.exit_code == 0, result.output
    assert not _CONTROL.search(result.stdout)
    players, pairs = result.stdout.split("\n\n")[1:3]
    rows = {line.split()[0]: line.split()[1:] for line in players.splitlines()
            if line.startswith(("Ana", "Bu"))}
    # Ana won the one match with 20 points in 2 turns; Budi scored nothing.
    assert rows[SHOWN_ANA][:4] == ["1", "1", "2", "20"]
    assert rows[SHOWN_BUDI][:4] == ["1", "0", "1", "0"]
    # Head to head: one match together, Ana's win.
    assert [line.split() for line in pairs.splitlines()[2:]] == [
        [SHOWN_ANA, SHOWN_BUDI, "1", "1", "0"]]


# -- long tokens ---------------------------------------------------------------

LONG = "x" * 1_000_000
SHORT = "'" + "x" * 47 + "…'"  # 48 characters in the quotes, the last an ellipsis


def test_a_long_token_is_quoted_by_its_start(tmp_path: Path) -> None:
    path = tmp_path / "long.mgn"
    path.write_text(THREES.replace("Eko: 6-6 +12", f"Eko: {LONG} +12"), encoding="utf-8")
    (syntax,) = [d for d in check_file(str(path)).diagnostics if d.code == "syntax"]
    assert syntax.message == ("expected a placement like 3-5R, 'pass' or a draw like d3-5, "
                              f"got {SHORT}")


def test_a_token_of_48_characters_is_quoted_whole(tmp_path: Path) -> None:
    word = "y" * 48
    path = tmp_path / "w.mgn"
    path.write_text(THREES.replace("Eko: 6-6 +12", f"Eko: {word} +12"), encoding="utf-8")
    (syntax,) = [d for d in check_file(str(path)).diagnostics if d.code == "syntax"]
    assert syntax.message.endswith(f"got '{word}'")


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # No line of these reads as MGN: the file holds no record (exit 2).
        pytest.param(LONG, 2, id="a line that is one word"),
        pytest.param("[" + LONG, 2, id="a tag name"),
        pytest.param('[Players "Ana, Budi"]\n\nround 1\n' + LONG + ": 6-6\n", 1,
                     id="a name"),
    ],
)
def test_a_one_line_megabyte_prints_a_few_lines(text: str, status: int, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.mgn").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["check", "-q", "big.mgn"])
    assert result.exit_code == status, result.output[:300]
    assert 0 < len(result.stdout) < 1000, result.stdout[:300]
    assert "x" * 47 + "…" in result.stdout


def test_rules_file_messages_quote_briefly(tmp_path: Path) -> None:
    long = LONG[:100_000]  # a rules file over 1 MB is not read at all
    (tmp_path / "r.yaml").write_text(f"name: {long} \nmodulus: 5\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules("r.yaml", base_dir=tmp_path)
    assert len(str(info.value)) < 300
    assert "x" * 47 + "…" in str(info.value)
    # An explicit key: a plain one may not be longer than 1,024 characters.
    (tmp_path / "k.yaml").write_text(f"? {long}\n: 5\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules("k.yaml", base_dir=tmp_path)
    assert str(info.value) == (f"rules file k.yaml: line 1: unknown field {SHORT} "
                               "(`muggins rules pagat` shows every field)")


def test_a_huge_rules_or_target_tag_is_quoted_briefly(tmp_path: Path) -> None:
    """The replay quotes header values too: a megabyte-long Rules or Target
    tag gives a message of readable length, not the whole value."""
    for tag in ("Rules", "Target"):
        path = tmp_path / f"{tag}.mgn"
        path.write_text(f'[Players "Ana, Budi"]\n[{tag} "{"x" * 1_000_000}"]\n\nround 1\n',
                        encoding="utf-8")
        res = CliRunner().invoke(app, ["check", str(path)])
        assert res.exit_code == 1
        assert "bad-header" in res.output
        assert len(res.output) < 2_000, len(res.output)


# -- every command, every channel --------------------------------------------

#: An OSC sequence retitles the terminal, CSI clears it (their one-byte
#: forms: a name may not hold '[' or ']'), BEL rings, ESC c resets it.
EVIL = "Ana\x9d0;owned\x07\x9b2J\u202e\x1bc"


@pytest.fixture
def evil(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A record whose first player is EVIL, in a file whose name holds an
    escape too."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "club\x1b[1A.mgn"
    # A double space: fmt has something to say about it.
    path.write_text(CLUB_FIRST.replace("Ana", EVIL).replace("Budi: 4-6R", "Budi:  4-6R"),
                    encoding="utf-8")
    return path


def _clean(text: str) -> bool:
    return _CONTROL.search(text) is None


@pytest.mark.parametrize("args", [
    ["check", "{path}"],
    ["check", "--format", "table", "{path}"],
    ["analyze", "{path}"],
    ["stats", "{path}"],
    ["replay", "{path}"],
    ["replay", "{path}", "--at", "1.2"],
    ["replay", "{path}", "--at", "9.9"],
    ["solve", "{path}", "--at", "1.2"],
    ["solve", "{path}", "--at", "1.2", "--mode", "sample", "--samples", "2"],
    ["solve", "{path}", "--at", "1.9"],
    ["solve", "{path}", "--at", "1.2", "--match", "2"],
    ["study", "{path}", "-o", "{path}"],
    ["fmt", "--check", "{path}"],
    ["fmt", "--in-place", "{path}"],
    ["rules", "{path}"],
    ["explain", EVIL],
    ["check", "{missing}"],
])
def test_no_command_lets_a_stranger_s_text_drive_the_terminal(evil: Path,
                                                              args: list[str]) -> None:
    """Names from the record, the record's own path, a missing path and a
    command-line word, on stdout and on stderr, in reports and in the one
    line of an error: every control character is shown as its escape."""
    line = [a.format(path=evil, missing=evil.with_name("gone\x07.mgn")) for a in args]
    result = runner.invoke(app, line)
    assert "Traceback" not in result.output
    assert _clean(result.stdout), result.stdout
    assert _clean(result.stderr), result.stderr
    assert result.stdout or result.stderr


def test_solve_text_escapes_the_names_it_prints(evil: Path) -> None:
    result = runner.invoke(app, ["solve", str(evil), "--at", "1.2"])
    assert result.exit_code == 0, result.output
    shown = for_terminal(EVIL)
    assert f"{shown}'s points minus Budi's" in result.stdout or \
           f"Budi's points minus {shown}'s" in result.stdout
