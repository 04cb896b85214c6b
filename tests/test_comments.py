"""``#`` comments are the keeper's words and the writer keeps them
(docs/notation.md 1): a comment of its own line stays on its own line before the
line that followed it, one at the end of a line at the end of that line.

The expected texts are written out by hand; over the corpora a small second
scanner, written apart from the parser, finds the comments of a text, and
writing must give back exactly the comments it finds in the source."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.analysis import Thresholds, analyse_text, annotate_text
from muggins_cli.cli import app
from muggins_cli.notation.model import Annotation, Comment, Comments, Match, RoundLine, Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.writer import write_match, write_matches

from .conftest import CLEAN, RECORDS, files
from .test_analysis import PAGAT


def comments_in(text: str) -> list[str]:
    """The comments of an MGN text, by a scanner of its own: ``#`` outside a
    tag's quoted value and outside ``{...}`` (which may span lines) runs to
    the end of the line."""
    found: list[str] = []
    in_note = False
    for line in text.splitlines():
        tag_line = not in_note and line.lstrip(" \t").startswith("[")
        in_value = False
        i = 0
        while i < len(line):
            ch = line[i]
            if in_note:
                in_note = ch != "}"
            elif in_value:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_value = False
            elif ch == "{":
                in_note = True
            elif ch == '"' and tag_line:
                in_value = True
            elif ch == "#":
                found.append(line[i + 1 :].rstrip(" \t\r"))
                break
            i += 1
    return found


def fmt(text: str) -> str:
    matches = parse_text(text)
    assert [d for m in matches for d in m.diagnostics] == []
    return write_matches(matches)


# ---------------------------------------------------------------------------
# Where comments go


SHEET = """\
# Warung evening, kept by Pak Made
[Players   "Ana, Budi"]
[Event "Friday club"]   # second table

round 1
lead Ana
# disputed deal: Budi says he had 6-6
deal Ana  5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
Ana: 5-5 +10          # the opening double alone: 5 + 5
Budi: 5-0R +10        # 5-5 still a terminal double on the left: 5 + 5 + 0


#   two blank lines above, and this one
round 2   # a new round
Budi: 6-6
# the sheet ends here
"""

SHEET_WRITTEN = """\
[Event "Friday club"] # second table
# Warung evening, kept by Pak Made
[Players "Ana, Budi"]

round 1
lead Ana
# disputed deal: Budi says he had 6-6
deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
Ana: 5-5 +10 # the opening double alone: 5 + 5
Budi: 5-0R +10 # 5-5 still a terminal double on the left: 5 + 5 + 0

#   two blank lines above, and this one
round 2 # a new round
Budi: 6-6
# the sheet ends here
"""


def test_comments_stay_before_or_at_the_end_of_their_lines() -> None:
    assert fmt(SHEET) == SHEET_WRITTEN
    assert fmt(SHEET_WRITTEN) == SHEET_WRITTEN


def test_the_model_holds_each_comment_where_it_was_written() -> None:
    (match,) = parse_text(SHEET)
    players, event = match.tags
    assert players.comments == Comments((Comment(" Warung evening, kept by Pak Made", 1, 1),))
    assert event.comments.end is not None and event.comments.end.text == " second table"
    assert (event.comments.end.line, event.comments.end.column) == (3, 25)
    deal = match.body[2]
    assert [c.text for c in deal.comments.before] == [" disputed deal: Budi says he had 6-6"]
    assert deal.comments.end is None
    assert [c.text for c in match.closing] == [" the sheet ends here"]
    assert match.body[-1].comments == Comments()


def test_comments_with_annotations() -> None:
    text = (
        '[Players "Ana, Budi"]\n'
        "round 1\n"
        "Ana: 1-1 {short} # after the note\n"   # the line's comment, after its notes
        "# above a note\n"
        "{a note of its own line} # beside it\n"
        "Budi: 1-2R {long\n"
        "  note} # closing the long note\n"
        "# above a long note\n"
        "{another\n"
        "long one}\n"
        "Ana: 2-2R # then a note below\n"
        "{below}\n"
    )
    written = (
        '[Players "Ana, Budi"]\n'
        "\n"
        "round 1\n"
        "Ana: 1-1 {short} # after the note\n"
        "# above a note\n"
        "{a note of its own line} # beside it\n"
        "Budi: 1-2R\n"
        "{long\n"
        "  note} # closing the long note\n"
        "# above a long note\n"
        "{another\n"
        "long one}\n"
        "Ana: 2-2R {below} # then a note below\n"
    )
    assert fmt(text) == written
    assert fmt(written) == written
    (match,) = parse_text(text)
    ana, budi = match.body[1], match.body[2]
    assert isinstance(ana, Turn) and isinstance(budi, Turn)
    assert ana.comments == Comments(end=Comment(" after the note", 0, 0))
    assert ana.notes == (
        Annotation("short", 0, 0),
        Annotation("a note of its own line", 0, 0,
                   Comments((Comment(" above a note", 0, 0),), Comment(" beside it", 0, 0))),
    )
    assert [n.comments for n in budi.notes] == [
        Comments(end=Comment(" closing the long note", 0, 0)),
        Comments((Comment(" above a long note", 0, 0),)),
    ]


def test_hash_inside_values_notes_and_comments() -> None:
    text = (
        '[Event "Club # 3 {x}"] # a [comment] with {braces} and # again\n'
        '[Players "Ana, Budi"]\n'
        "round 1 {# not a comment}\n"
        "Ana: 1-1 #no space\n"
        "#\n"
        "Budi: 1-2R\n"
    )
    written = (
        '[Event "Club # 3 {x}"] # a [comment] with {braces} and # again\n'
        '[Players "Ana, Budi"]\n'
        "\n"
        "round 1 {# not a comment}\n"
        "Ana: 1-1 #no space\n"
        "#\n"
        "Budi: 1-2R\n"
    )
    assert fmt(text) == written
    assert comments_in(written) == [" a [comment] with {braces} and # again", "no space", ""]


def test_a_comment_before_a_match_belongs_to_that_match() -> None:
    text = (
        '[Players "Ana, Budi"]\nround 1\nAna: 1-1\n'
        "# the second match\n\n"
        '[Players "Eko, Joko"]\nround 1\nEko: 6-6\n'
        "# after everything\n"
    )
    first, second = parse_text(text)
    assert first.closing == ()
    assert [c.text for c in second.tags[0].comments.before] == [" the second match"]
    assert [c.text for c in second.closing] == [" after everything"]
    assert fmt(text) == (
        '[Players "Ana, Budi"]\n\nround 1\nAna: 1-1\n'
        "\n"
        '# the second match\n[Players "Eko, Joko"]\n\nround 1\nEko: 6-6\n'
        "# after everything\n"
    )


def test_a_comment_holding_a_line_break_is_refused() -> None:
    bad = Match((), (RoundLine(1, 0, 0, comments=Comments((Comment("a\nb", 0, 0),))),), 0)
    with pytest.raises(ValueError, match="comment"):
        write_match(bad)


def test_crlf_comments_lose_only_the_line_end() -> None:
    assert fmt(SHEET.replace("\n", "\r\n")) == SHEET_WRITTEN


# ---------------------------------------------------------------------------
# Every record shipped and every corpus file


def test_clean_records_write_back_every_comment() -> None:
    """Every comment of every shipped record and clean corpus file is in
    what the writer writes. (That the written text reads back as the same
    record, comments included, and is written again unchanged, is
    tests/test_writer.py's corpus test, over these files and the faults.)"""
    total = 0
    for path in [*files(RECORDS), *CLEAN]:
        text = path.read_bytes().decode("utf-8")
        written = write_matches(parse_text(text))
        assert Counter(comments_in(written)) == Counter(comments_in(text)), path.name
        total += len(comments_in(text))
    assert total > 100


# ---------------------------------------------------------------------------
# The commands that write records


def test_fmt_keeps_the_disputed_deal(tmp_path: Path) -> None:
    path = tmp_path / "sheet.mgn"
    path.write_text(SHEET, encoding="utf-8")
    result = CliRunner().invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == SHEET_WRITTEN
    result = CliRunner().invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == SHEET_WRITTEN


def test_annotate_keeps_comments_when_it_rewrites_the_record() -> None:
    # A note between the placement and the claim: the annotation cannot be
    # patched into the text as it stands, so the record is written anew.
    # Ana's 6-6 missed 5 (test_analysis: 4-1 would have scored 5).
    text = PAGAT.replace("Ana: 6-6             #", "# first turn\nAna: 6-6 {lead} +0    #")
    f = analyse_text("hand.mgn", text)
    out, marked = annotate_text(text, f.records, f.matches, Thresholds())
    assert marked == 3
    assert "Ana: 6-6? +0 {4-1 would have scored 5} {lead} #" in out  # written anew
    assert Counter(comments_in(out)) == Counter(comments_in(text))
    assert " first turn" in comments_in(out)


def test_fmt_leaves_a_file_without_a_match_as_it_is(tmp_path: Path) -> None:
    # Nothing in it is a record, so there is nothing to put in canonical
    # form, and writing "" would throw the keeper's words away.
    path = tmp_path / "notes.mgn"
    path.write_text("# to be typed in tomorrow\n\n# Ana 120, Budi 95\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fmt", "--check", str(path)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == "# to be typed in tomorrow\n\n# Ana 120, Budi 95\n"
