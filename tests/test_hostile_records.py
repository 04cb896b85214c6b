"""Records built to cost: memory in proportion to the text, and messages
of a bounded length whatever the record holds."""

from __future__ import annotations

import os
import random
import threading
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import FileReport, check_file
from muggins_cli.cli import app
from muggins_cli.notation import parser
from muggins_cli.notation.parser import parse_text
from tests.conftest import REPO
from tests.records import CLUB_FIRST, THREES

runner = CliRunner()

EVENT = '[Event "Club night"]'


def _peak_bytes(text: str) -> int:
    tracemalloc.start()
    try:
        parse_text(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_tag_value_costs_memory_in_proportion_to_its_line() -> None:
    """A 2 MB Event value: the text, its line, the value and a few copies,
    not the 170 bytes per character the tag's regex stacked up. Its
    escapes (\\" and \\\\) are read the same."""
    value = "x" * 2_000_000
    text = CLUB_FIRST.replace(EVENT, f'[Event "{value}"]')
    peak = _peak_bytes(text)
    assert peak < 12 * len(value), peak
    escaped = '\\"' * 500_000 + "\\\\" * 500_000
    (match,) = parse_text(CLUB_FIRST.replace(EVENT, f'[Event "{escaped}"]'))
    assert match.tag("Event") == '"' * 500_000 + "\\" * 500_000
    assert _peak_bytes(CLUB_FIRST.replace(EVENT, f'[Event "{escaped}"]')) < 12 * len(escaped)


def test_a_long_unclosed_tag_value_is_one_finding_in_proportion() -> None:
    """An unclosed value and one with a bad escape: the messages that say
    so find the spot with the same linear reading."""
    value = "x" * 1_000_000
    for bad, column, message in [
        (f'[Event "{value}]', 8, "the value of tag Event is not closed by '\"'"),
        (f'[Event "{value}\\x"]', 8 + len(value) + 1,
         'only \\" and \\\\ may follow a backslash in a tag value'),
    ]:
        text = CLUB_FIRST.replace(EVENT, bad)
        assert _peak_bytes(text) < 12 * len(value)
        (match,) = parse_text(text)
        found = [(d.line, d.column, d.code, d.message) for d in match.diagnostics]
        assert found[0] == (1, column, "syntax", message)


def test_an_unknown_player_message_quotes_a_few_names_of_a_long_list() -> None:
    """20,000 players: the message names the first few and how many more,
    not all 20,000 (a 165 KB record gave 298 MB of findings)."""
    names = [f"P{i}" for i in range(20_000)]
    text = CLUB_FIRST.replace('[Players "Ana, Budi"]', f'[Players "{", ".join(names)}"]')
    text += "".join("Zed: pass\n" for _ in range(100))
    (match,) = parse_text(text)
    unknown = [d for d in match.diagnostics if d.code == "unknown-player"]
    assert len(unknown) >= 100
    assert all(len(d.message) < 200 for d in unknown)
    assert unknown[-1].message == (
        "'Zed' is not in Players (P0, P1, P2, P3, P4, P5, P6, P7 and 19,992 more)")


def test_an_unknown_player_message_names_every_player_of_a_short_list() -> None:
    (match,) = parse_text(CLUB_FIRST + "Zed: pass\n")
    (found,) = [d for d in match.diagnostics if d.code == "unknown-player"]
    assert found.message == "'Zed' is not in Players (Ana, Budi)"


# ---------------------------------------------------------------------------
# Files that hold no record, or are no file: one line each, exit status 2


def _check(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_dangling_and_looping_links_in_a_folder_are_named_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "base.mgn").write_text(THREES, encoding="utf-8")
    (tmp_path / "dangling.mgn").symlink_to("/nonexistent")
    (tmp_path / "self.mgn").symlink_to("self.mgn")
    code, out, _ = _check(str(tmp_path))
    assert code == 2
    lines = out.splitlines()
    dangling, looping = tmp_path / "dangling.mgn", tmp_path / "self.mgn"
    assert f"{dangling}:0:0: error unreadable cannot read {dangling}: " \
           "No such file or directory" in lines
    assert f"{looping}:0:0: error unreadable cannot read {looping}: " \
           "Too many levels of symbolic links" in lines
    assert lines[-1].startswith("checked 3 files, 1 match: 2 errors")


def test_a_named_pipe_nobody_writes_to_is_read_as_empty_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.mgn"
    os.mkfifo(fifo)
    found: list[FileReport] = []
    reader = threading.Thread(target=lambda: found.append(check_file(str(fifo))), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # let the stuck open() go before failing
        with open(fifo, "w"):
            pass
        reader.join(10)
        pytest.fail("check_file waited for a writer")
    (report,) = found
    assert report.unreadable
    assert [d.message for d in report.diagnostics] == [
        f"cannot read {fifo}: it holds no record (it is empty)"]


def test_a_device_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """/dev/zero is an endless line of NUL bytes: never read."""
    (tmp_path / "zero.mgn").symlink_to("/dev/zero")
    code, out, _ = _check(str(tmp_path))
    assert code == 2
    zero = tmp_path / "zero.mgn"
    assert out.splitlines()[0] == (f"{zero}:0:0: error unreadable cannot read {zero}: "
                                   "a device, not a record file")


@pytest.mark.parametrize(("text", "why"), [
    ("", "it holds no record (it is empty)"),
    ("\n  \n", "it holds no record (it is empty)"),
    ("# a comment\n\n# another\n", "it holds no record (only comments and blank lines)"),
])
def test_a_file_without_a_record_is_exit_2_on_one_line(tmp_path: Path, text: str,
                                                       why: str) -> None:
    path = tmp_path / "empty.mgn"
    path.write_text(text, encoding="utf-8")
    code, out, _ = _check(str(path))
    assert code == 2
    assert out.splitlines() == [
        f"{path}:0:0: error unreadable cannot read {path}: {why}",
        "checked 1 file, 0 matches: 1 error, 0 warnings; exit status 2: a file could not "
        "be read"]
    code, out, _ = _check("-", stdin=text)
    assert code == 2
    assert out.splitlines()[0] == f"-:0:0: error unreadable cannot read <stdin>: {why}"


def test_a_file_that_is_not_mgn_is_one_line_saying_so() -> None:
    """README.md: prose, code and tables, none of it MGN; one finding
    instead of one per line."""
    code, out, _ = _check(str(REPO / "README.md"))
    assert code == 2
    lines = out.splitlines()
    assert len(lines) == 2, lines[:5]
    readme = REPO / "README.md"
    assert lines[0].startswith(f"{readme}:0:0: error unreadable cannot read {readme}: not an "
                               "MGN record (no line of it reads as MGN; line ")


def test_a_damaged_record_is_still_a_record() -> None:
    """One good tag is enough for the file to be a record with errors."""
    code, out, _ = _check("-", stdin='[Event "x"]\nthis is not MGN\n')
    assert code == 1
    assert "unreadable" not in out


def _reference_quoted_end(text: str, pos: int) -> int:
    """Character by character, as a reader reads: a backslash hides the next."""
    while pos < len(text):
        if text[pos] == '"':
            return pos
        pos += 2 if text[pos] == "\\" else 1
    return len(text)


def _reference_value_end(text: str, pos: int) -> tuple[int, bool]:
    while pos < len(text):
        if text[pos] == '"':
            return pos, False
        if text[pos] == "\\":
            if pos + 1 < len(text) and text[pos + 1] in '"\\':
                pos += 2
                continue
            return pos, True
        pos += 1
    return len(text), False


def test_the_value_scanner_reads_as_a_reader_does() -> None:
    """Random text of quotes, backslashes and letters, long enough to cross
    the scanner's first windows (64, 128, 256 characters) at every kind of
    place, against a reading one character at a time."""
    rng = random.Random(29)
    pieces = ["a", "b", "a", "b", "\\\\", '\\"']
    ends = ['"', "\\x", "\\", "", '\\"']
    for _ in range(4000):
        size = rng.choice([5, 60, 70, 130, 300, 700])
        if rng.random() < 0.5:  # anything: quotes and bad escapes come early
            text = "".join(rng.choice('ab\\\\\\"x') for _ in range(size))
        else:  # long runs of escapes, the end of the value far in
            text = "".join(rng.choice(pieces) for _ in range(size)) + rng.choice(ends)
        pos = rng.randrange(0, 3)
        text = '"' * pos + text  # what stands before is never a backslash
        assert parser._quoted_end(text, pos) == _reference_quoted_end(text, pos), text
        assert parser._value_end(text, pos) == _reference_value_end(text, pos), text


def test_any_value_comes_back_from_its_escaped_tag() -> None:
    rng = random.Random(30)
    for _ in range(500):
        value = "".join(rng.choice('ab\\\\"x{#]') for _ in range(rng.randrange(200)))
        written = value.replace("\\", "\\\\").replace('"', '\\"')
        (match,) = parse_text(CLUB_FIRST.replace(EVENT, f'[Event "{written}"]'))
        assert match.tag("Event") == value


def test_a_value_holding_nul_is_unescaped_all_the_same() -> None:
    """The fast way undoes escapes through a NUL placeholder; a value that
    holds a NUL itself (text given to the parser, not a file) is read the
    slow way, to the same value."""
    (match,) = parse_text(CLUB_FIRST.replace(EVENT, '[Event "a\x00b\\\\\\\\c\\"d"]'))
    assert match.tag("Event") == 'a\0b\\\\c"d'
