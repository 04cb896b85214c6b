"""One hand-written record per diagnostic code of docs/notation.md 8.

Each case takes a small clean record, changes one line, and asserts the
exact code at the exact line (and column where the token is unambiguous).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from muggins_cli.check import check_file
from muggins_cli.notation.model import Severity
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.replay import replay_match
from muggins_cli.rules.resolve import resolver_for

PAGAT = """\
[Event "Test"]
[Players "Ana, Budi"]
[Rules "pagat"]
[Result "*"]

round 1
lead Ana
deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2
Ana: 5-5 +10
Budi: 5-0R +10
Ana: 0-0R +10
Budi: 0-3R
Ana: 3-4R
Budi: 4-6R
Ana: 6-1R
Budi: 1-3R
Ana: 2-3R
Budi: 2-2R
Ana: d0-4 d2-6 2-6R
Budi: 6-6R
Ana: d3-5 3-5L +15
score Ana 35, Budi 10
"""
# PAGAT's first turn is line 11; Budi's 0-3R is line 14.

SPINNER = """\
[Players "Ana, Budi"]
[Rules "spinner"]
[Result "*"]

round 1
lead Ana
deal Ana 5-5 3-5 6-6 1-1 2-3 4-4 0-6
deal Budi 5-0 0-2 1-2 3-3 4-6 1-3 2-4
stock 0-0 0-1 2-2 0-3 0-4 1-4 3-4 1-5 2-5 4-5 1-6 2-6 3-6 5-6
Ana: 5-5 +10
Budi: 5-0L +10
Ana: 3-5R
Budi: 0-2L +10
Ana: muggins +5
score Ana 15, Budi 20
"""


def findings(text: str) -> list[tuple[int, str]]:
    (match,) = parse_text(text)
    result = replay_match(match, resolver_for(None))
    return [(d.line, d.code) for d in result.diagnostics]


def errors(text: str) -> list[tuple[int, str]]:
    (match,) = parse_text(text)
    result = replay_match(match, resolver_for(None))
    return [(d.line, d.code) for d in result.diagnostics if d.severity is Severity.ERROR]


def first_error(text: str) -> tuple[int, str]:
    found = errors(text)
    assert found, "expected an error, found none"
    return found[0]


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_base_records_are_clean() -> None:
    assert findings(PAGAT) == []
    assert findings(SPINNER) == []


def test_base_totals() -> None:
    (match,) = parse_text(SPINNER)
    summary = replay_match(match, resolver_for(None)).summary
    assert summary.scores == {"Ana": 15, "Budi": 20}
    assert summary.winner is None
    assert summary.rounds == 1


CASES: list[tuple[str, str, str, str, tuple[int, str]]] = [
    # (id, base, old, new, (line, code))
    ("syntax-claim", "P", "Budi: 0-3R\n", "Budi: 0-3R +x\n", (14, "syntax")),
    ("syntax-line", "P", "Budi: 0-3R\n", "Budi 0-3R\n", (14, "syntax")),
    ("bad-header-rules", "P", '[Rules "pagat"]', '[Rules "pagot"]', (3, "bad-header")),
    ("bad-header-target", "P", '[Rules "pagat"]', '[Rules "pagat"]\n[Target "-5"]', (4, "bad-header")),
    ("bad-header-players-dup", "P", '[Players "Ana, Budi"]', '[Players "Ana, Ana"]', (2, "bad-header")),
    ("bad-header-one-player", "P", '[Players "Ana, Budi"]', '[Players "Ana"]', (2, "bad-header")),
    ("bad-header-rules-escape", "P", '[Rules "pagat"]', '[Rules "../../etc/passwd"]', (3, "bad-header")),
    ("unknown-player", "P", "Budi: 0-3R\n", "Cici: 0-3R\n", (14, "unknown-player")),
    ("bad-round-order", "P", "round 1\n", "round 2\n", (6, "bad-round")),
    ("bad-round-turn-first", "P", "round 1\n", "Ana: pass\nround 1\n", (6, "bad-round")),
    ("bad-deal-size", "P", "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1", "deal Ana 5-5 3-4 6-1 0-0 2-3 4-4", (8, "bad-deal")),
    ("bad-deal-twice", "P", "deal Budi 5-0 1-2", "deal Budi 5-5 1-2", (9, "bad-deal")),
    ("bad-deal-not-in-set", "P", "deal Budi 5-0 1-2", "deal Budi 7-0 1-2", (9, "bad-deal")),
    ("bad-deal-stock", "P", "stock 0-4 2-6", "stock 0-4 0-4", (10, "bad-deal")),
    ("bad-deal-some-players", "P", "deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3\n", "", (8, "bad-deal")),
    ("wrong-leader-line-round1-turn", "P", "Ana: 5-5 +10\n", "Budi: 5-0 +5\n", (11, "wrong-leader")),
    ("wrong-leader-no-lead", "P", "lead Ana\n", "", (10, "wrong-leader")),
    ("out-of-turn", "P", "Budi: 0-3R\n", "Ana: 3-4R\n", (14, "out-of-turn")),
    ("not-in-hand", "P", "Budi: 0-3R\n", "Budi: 0-4R\n", (14, "not-in-hand")),
    ("does-not-fit-end", "P", "Budi: 0-3R\n", "Budi: 0-3L\n", (14, "does-not-fit")),
    ("does-not-fit-nowhere", "P", "Budi: 1-3R\n", "Budi: 6-6\n", (18, "does-not-fit")),
    ("ambiguous-end", "P", "Budi: 5-0R +10\n", "Budi: 5-0 +10\n", (12, "ambiguous-end")),
    ("bad-end-u-without-spinner", "P", "Budi: 0-3R\n", "Budi: 0-3U\n", (14, "bad-end")),
    ("bad-end-on-lead", "P", "Ana: 5-5 +10\n", "Ana: 5-5L +10\n", (11, "bad-end")),
    ("illegal-draw-first-turn", "P", "Ana: 5-5 +10\n", "Ana: d0-4 5-5 +10\n", (11, "illegal-draw")),
    ("illegal-draw-holding", "P", "Budi: 0-3R\n", "Budi: d0-4 0-3R\n", (14, "illegal-draw")),
    ("illegal-draw-again", "P", "Ana: d0-4 d2-6 2-6R\n", "Ana: d0-4 d2-6 d3-5 2-6R\n", (21, "illegal-draw")),
    ("illegal-draw-not-next", "P", "Ana: d0-4 d2-6 2-6R\n", "Ana: d2-6 2-6R\n", (21, "illegal-draw")),
    ("drawn-tile-not-played", "P", "Ana: d0-4 d2-6 2-6R\n", "Ana: d0-4 d2-6 pass\n", (21, "drawn-tile-not-played")),
    ("illegal-pass-stock", "P", "Ana: d0-4 d2-6 2-6R\n", "Ana: pass\n", (21, "illegal-pass")),
    ("illegal-pass-holding", "P", "Budi: 0-3R\n", "Budi: pass\n", (14, "illegal-pass")),
    ("score-mismatch-pagat", "P", "Budi: 0-3R\n", "Budi: 0-3R +5\n", (14, "score-mismatch")),
    ("score-mismatch-overclaim", "S", "Budi: 0-2L +10\n", "Budi: 0-2L +20\n", (13, "score-mismatch")),
    ("total-mismatch", "P", "score Ana 35, Budi 10", "score Ana 35, Budi 15", (24, "total-mismatch")),
    ("muggins-invalid-pagat", "P", "Budi: 0-3R\n", "Budi: 0-3R\nAna: muggins +5\n", (15, "muggins-invalid")),
    ("muggins-invalid-too-much", "S", "Ana: muggins +5\n", "Ana: muggins +10\n", (14, "muggins-invalid")),
    ("muggins-invalid-nothing", "S", "Budi: 0-2L +10\nAna: muggins +5\n",
     "Budi: 0-2L +15\nAna: muggins +5\n", (14, "muggins-invalid")),
    ("muggins-invalid-own", "S", "Ana: muggins +5\n", "Budi: muggins +5\n", (14, "muggins-invalid")),
    ("muggins-invalid-not-after-turn", "S", "Ana: muggins +5\nscore", "score Ana 10, Budi 20\nAna: muggins +5\nscore", (15, "muggins-invalid")),
]


@pytest.mark.parametrize(("base", "old", "new", "expected"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_first_error(base: str, old: str, new: str, expected: tuple[int, str]) -> None:
    text = edit(PAGAT if base == "P" else SPINNER, old, new)
    assert first_error(text) == expected


def test_a_line_the_parser_dropped_excuses_only_the_turn_after_it() -> None:
    """A turn may be missing where the parser could not read a line, so the
    next turn is not out of turn; a later one in the same round still is.
    Line 13 is unreadable here; Ana then plays on line 17, Budi's turn (she
    played line 16), with no unreadable line between: out of turn. The
    replay must measure from the last turn played, not from the round's
    first (taking any earlier dropped line as an excuse hid this)."""
    text = edit(PAGAT, "Budi: 5-0R +10\n", "Budi: 5-0R +10\n???\n")
    text = edit(text, "Budi: 4-6R\n", "Ana: 4-6R\n")
    assert (13, "syntax") in errors(text)
    assert (17, "out-of-turn") in errors(text)


def test_a_dropped_line_just_before_excuses_the_turn() -> None:
    """Budi's turn on line 14 is unreadable (``Budi; 0-3R``), so Ana playing
    line 15 after her own line 13 follows a turn the parser lost: not out
    of turn, and read after the turn of Budi's it needs. His one tile that
    fits is 0-3 (R shows 0), and then Ana's 3-4R fits: the syntax error is
    the record's one finding."""
    text = edit(PAGAT, "Budi: 0-3R\n", "Budi; 0-3R\n")
    assert errors(text) == [(14, "syntax")]


def test_a_turn_without_its_colon_is_read_as_the_turn_it_spells() -> None:
    """``Budi 0-3R`` is reported, then read as Budi's 0-3R: the rest of
    PAGAT checks clean (before, the line was lost and Ana's 3-4R did not fit)."""
    text = edit(PAGAT, "Budi: 0-3R\n", "Budi 0-3R\n")
    assert findings(text) == [(14, "syntax")]


def test_every_error_code_has_a_case() -> None:
    codes = {c[4][1] for c in CASES} | {"after-round-end", "after-match-end",
                                         "reveal-mismatch", "result-mismatch", "unreadable"}
    documented = {
        "unreadable", "syntax", "bad-header", "unknown-player", "bad-round", "bad-deal",
        "wrong-leader", "out-of-turn", "not-in-hand", "does-not-fit", "ambiguous-end",
        "bad-end", "illegal-draw", "drawn-tile-not-played", "illegal-pass", "after-round-end",
        "after-match-end", "score-mismatch", "total-mismatch", "reveal-mismatch",
        "result-mismatch", "muggins-invalid",
    }
    assert documented <= codes


def test_illegal_draw_message_names_the_fitting_tile() -> None:
    text = edit(PAGAT, "Budi: 0-3R\n", "Budi: d0-4 0-3R\n")
    (match,) = parse_text(text)
    d = next(d for d in replay_match(match, resolver_for(None)).diagnostics
         if d.code == "illegal-draw")
    assert d.column == 7
    assert d.message == "Budi drew 0-4 while holding 0-3, which fits R (0)"


def test_reveal_and_result_and_after_ends() -> None:
    text = """\
[Players "Ana, Budi"]
[Rules "pagat"]
[Target "15"]
[Result "Budi"]
round 1
lead Ana
deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2
Ana: 5-5 +10
Budi: 5-0R +10
Ana: 0-0R +10
Budi: 0-3R
score Ana 20, Budi 10
"""
    got = errors(text)
    # Ana reached 15 with 0-0R (line 12): Budi's turn after it is
    # after-match-end, and the Result tag names the wrong player.
    assert (4, "result-mismatch") in got
    assert (13, "after-match-end") in got
    assert len([c for c in got if c[1] == "after-match-end"]) == 1


def test_unfinished_warning() -> None:
    text = edit(PAGAT, '[Result "*"]', '[Result "Ana"]')
    assert findings(text) == [(4, "unfinished")]


def test_hidden_tiles_are_unverified_not_errors() -> None:
    lines = [ln for ln in PAGAT.splitlines() if not ln.startswith(("deal", "stock"))]
    text = "\n".join(lines).replace("d0-4 d2-6", "d?? d??").replace("d3-5", "d??") + "\n"
    got = findings(text)
    assert got, "hidden hands must be reported as unverified"
    assert {code for _, code in got} == {"unverified"}
    kinds = [line for line, code in got]
    assert len(kinds) == len(set(kinds))


def test_hidden_tiles_still_check_what_is_visible() -> None:
    lines = [ln for ln in PAGAT.splitlines() if not ln.startswith(("deal", "stock"))]
    text = "\n".join(lines).replace("Budi: 0-3R", "Budi: 0-3L") + "\n"
    assert first_error(text)[1] == "does-not-fit"
    text = "\n".join(lines).replace("Budi: 0-3R", "Budi: 5-5R") + "\n"
    assert first_error(text)[1] == "not-in-hand"


TINY_RULES = "base: pagat\nhand_size: {2: 2}\ntarget: {2: 500}\n"
TINY = """\
[Players "Ana, Budi"]
[Rules "tiny.yaml"]
[Result "*"]

round 1
lead Ana
deal Ana 5-5 5-0
deal Budi 0-0 3-4
stock 1-2 5-6 0-1 1-1 0-2 2-2 0-3 1-3 2-3 3-3 0-4 1-4 2-4 4-4 1-5 2-5 3-5 4-5 0-6 1-6 2-6 3-6 4-6 6-6
Ana: 5-5 +10
Budi: d1-2 d5-6 5-6R
Ana: 5-0L
reveal Budi 0-0 3-4 1-2
score Ana 10, Budi -10
round 2
lead Ana
"""


def tiny(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "tiny.yaml").write_text(TINY_RULES)
    rec = tmp_path / "tiny.mgn"
    rec.write_text(text)
    return [(d.line, d.code) for d in check_file(str(rec)).diagnostics]


def test_tiny_round_is_clean(tmp_path: Path) -> None:
    assert tiny(tmp_path, TINY) == []


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("reveal Budi 0-0 3-4 1-2", "reveal Budi 0-0 3-4", (13, "reveal-mismatch")),
    ("reveal Budi", "Budi: pass\nreveal Budi", (13, "after-round-end")),
], ids=["reveal-mismatch", "after-round-end"])
def test_round_end_codes(tmp_path: Path, old: str, new: str,
                         expected: tuple[int, str]) -> None:
    got = [f for f in tiny(tmp_path, edit(TINY, old, new)) if f[1] != "unfinished"]
    assert got[0] == expected


def test_wrong_leader_after_going_out(tmp_path: Path) -> None:
    got = tiny(tmp_path, edit(TINY, "round 2\nlead Ana", "round 2\nlead Budi"))
    assert got[0] == (16, "wrong-leader")


def test_settlement_after_going_out(tmp_path: Path) -> None:
    (tmp_path / "tiny.yaml").write_text(TINY_RULES)
    rec = tmp_path / "tiny.mgn"
    rec.write_text(TINY)
    (m,) = check_file(str(rec)).matches
    assert m.scores == {"Ana": 10, "Budi": -10}
    assert m.rounds == 2


def test_unreadable_file(tmp_path: Path) -> None:
    binary = tmp_path / "x.mgn"
    binary.write_bytes(b"\x00\x01\x02\xff")
    report = check_file(str(binary))
    assert report.unreadable
    assert [(d.line, d.code) for d in report.diagnostics] == [(0, "unreadable")]
    missing = check_file(str(tmp_path / "nope.mgn"))
    assert [(d.line, d.code) for d in missing.diagnostics] == [(0, "unreadable")]
    assert missing.matches == []


def test_rules_file_beside_the_record(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("base: pagat\nmodulus: 5\ntarget: {2: 40}\n")
    rec = tmp_path / "m.mgn"
    rec.write_text(edit(PAGAT, '[Rules "pagat"]', '[Rules "house.yaml"]'))
    report = check_file(str(rec))
    assert [d.code for d in report.diagnostics if d.severity is Severity.ERROR] == []
    assert report.matches[0].target == 40
    assert report.matches[0].rules == "house.yaml"
