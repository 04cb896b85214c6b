"""The words, lines and columns of a turn's findings: a pass, a draw, a
placement or a claim the rules do not allow, each on a small record that
`muggins check` reads.

Every expected finding is worked out by hand from the record and
docs/rules.md (which ends are open and what they show, which tiles a hand
holds, how many tiles the stock has above its reserve), as a reader would
say it. The column is the turn's token as written: ``Budi: pass`` has its
action at column 7.
"""

from __future__ import annotations

from pathlib import Path

from muggins_cli.check import check_file
from tests.test_check import PAGAT, edit

Finding = tuple[int, int, str, str, str]


def check(tmp_path: Path, text: str, rules: str | None = None) -> list[Finding]:
    """Every finding of the record, as (line, column, severity, code,
    message); ``rules``: a rules file beside it, named by its Rules tag."""
    if rules is not None:
        (tmp_path / "house.yaml").write_text(rules, encoding="utf-8")
        text = edit(text, '[Rules "pagat"]', '[Rules "house.yaml"]')
    path = tmp_path / "m.mgn"
    path.write_text(text, encoding="utf-8")
    return [(d.line, d.column, d.severity.name, d.code, d.message)
            for d in check_file(str(path)).diagnostics]


def cut(text: str, last: str) -> str:
    """The record up to the line starting ``last`` (a round left open)."""
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith(last))
    return "\n".join(lines[: n + 1]) + "\n"


#: The pagat preset for two with every tile of the stock held back: 2 x 7 dealt
#: and 14 in the reserve, so nobody may ever draw and a player who cannot
#: lay a tile passes at once (docs/rules.md, ``stock_reserve``).
NO_DRAW = "base: pagat\nplayers: [2]\nstock_reserve: 14\n"

#: PAGAT without its deal and stock lines: every hand hidden.
HIDDEN = "\n".join(line for line in PAGAT.splitlines()
                   if not line.startswith(("deal ", "stock ")))


def test_a_pass_while_holding_a_tile_that_fits(tmp_path: Path) -> None:
    """Ana leads 5-5 (both ends show 5); Budi holds 5-0, which fits either,
    and passes with nothing to draw: line 12, the ``pass`` at column 7."""
    text = cut(edit(PAGAT, "Budi: 5-0R +10", "Budi: pass"), "Budi: pass")
    assert check(tmp_path, text, NO_DRAW) == [
        (12, 7, "ERROR", "illegal-pass", "Budi passed while holding 0-5, which fits L (5), R (5)"),
    ]


def test_the_first_fitting_tile_is_named(tmp_path: Path) -> None:
    """Budi is dealt 1-5 in place of 1-2 (which goes to the stock). After
    Ana's 0-0R the ends show 5 (5-5, left) and 0 (0-0, right): he holds
    1-5 (fits L) and 0-3 (fits R), and the finding names one tile, the
    first in the set's order (0-3 before 1-5)."""
    text = edit(PAGAT, "deal Budi 5-0 1-2", "deal Budi 5-0 1-5")
    text = edit(text, "stock 0-4 2-6 3-5 1-5", "stock 0-4 2-6 3-5 1-2")
    text = cut(edit(text, "Budi: 0-3R\n", "Budi: pass\n"), "Budi: pass")
    assert check(tmp_path, text, NO_DRAW) == [
        (14, 7, "ERROR", "illegal-pass", "Budi passed while holding 0-3, which fits R (0)"),
    ]


def test_a_pass_with_a_hidden_hand_is_noted_once_a_round(tmp_path: Path) -> None:
    """No deals and nothing to draw: whether Budi could have played is not
    known, said once for the round (his first pass, line 9), not at his
    second (line 11)."""
    text = cut(HIDDEN, "Ana: 0-0R")
    text = edit(text, "Budi: 5-0R +10\n", "Budi: pass\n")
    text = edit(text, "Ana: 0-0R +10\n", "Ana: 5-0R +10\nBudi: pass\n")
    in_hand = ("round 1: hands are not in the record, so whether players held the tiles they "
               "placed is not checked (first: Ana's 5-5 here)")
    passing = ("round 1: hands are not in the record, so whether a player could play instead "
               "of passing is not checked (first: Budi here)")
    assert check(tmp_path, text, NO_DRAW) == [
        (8, 6, "INFO", "unverified", in_hand),
        (9, 7, "INFO", "unverified", passing),
    ]


def test_draws_with_a_hidden_hand_are_noted_once_a_round(tmp_path: Path) -> None:
    """No deals: whether Budi could have played instead of drawing is not
    known, said at his first draw (line 9, column 7) and at none of the
    three after it."""
    text = cut(HIDDEN, "Budi: 5-0R")
    text = edit(text, "Budi: 5-0R +10\n", "Budi: d?? d?? 5-0R +10\nAna: 0-0R +10\n"
                "Budi: d?? d?? 0-3R\n")
    in_hand = ("round 1: hands are not in the record, so whether players held the tiles they "
               "placed is not checked (first: Ana's 5-5 here)")
    drawing = ("round 1: hands are not in the record, so whether a player could play instead "
               "of drawing is not checked (first: Budi here)")
    assert check(tmp_path, text) == [
        (8, 6, "INFO", "unverified", in_hand),
        (9, 7, "INFO", "unverified", drawing),
    ]


def test_a_pass_after_drawing_a_tile_that_fits(tmp_path: Path) -> None:
    """Line 21: the right end shows 2 (Budi's 2-2R), the left 5 (5-5);
    Ana draws 0-4 (fits neither) and 2-6 (fits R), then passes (column
    16): she must lay 2-6."""
    text = cut(edit(PAGAT, "Ana: d0-4 d2-6 2-6R", "Ana: d0-4 d2-6 pass"), "Ana: d0-4")
    assert check(tmp_path, text) == [
        (21, 16, "ERROR", "drawn-tile-not-played",
         "Ana drew 2-6, which fits R (2), and must place it"),
    ]


def test_a_pass_on_the_first_turn(tmp_path: Path) -> None:
    text = cut(edit(PAGAT, "Ana: 5-5 +10", "Ana: pass"), "Ana: pass")
    assert check(tmp_path, text) == [
        (11, 6, "ERROR", "illegal-pass",
         "Ana passed on the round's first turn; any tile may open"),
    ]


def test_a_pass_with_the_stock_to_draw(tmp_path: Path) -> None:
    """Nothing drawn yet: all 14 tiles of the stock are there to draw."""
    text = cut(edit(PAGAT, "Budi: 0-3R", "Budi: pass"), "Budi: pass")
    assert check(tmp_path, text) == [
        (14, 7, "ERROR", "illegal-pass", "Budi passed while the stock has 14 tiles to draw"),
    ]
