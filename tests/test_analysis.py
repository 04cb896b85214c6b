"""The analysis core: legal alternatives, missed scores, unclaimed points and
the per-player statistics, on small records built by hand whose best plays
are worked out in the comments, and on a conformance record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from muggins_cli.analysis import (
    MISSED_SCORE,
    UNCLAIMED,
    FileAnalysis,
    PlayerStats,
    analyse_file,
    analyse_text,
    options,
    play_text,
)
from muggins_cli.check import FileReport, check_file
from muggins_cli.engine.layout import EMPTY, lead, place
from muggins_cli.engine.state import Place
from muggins_cli.notation.model import Severity
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import End, Tile

from .conftest import CLEAN_0019, CORPUS, RECORDS
from .records import SAME_TILE

CLUB = RECORDS / "club-night-pagat-2p.mgn"

# Pagat, two players. The comments give the open ends before each turn and
# every legal placement with its score.
PAGAT = """\
[Event "Hand-built"]
[Players "Ana, Budi"]
[Rules "pagat"]
[Result "*"]

round 1
lead Ana
deal Ana 6-6 4-4 1-4 3-4 0-0 2-2 1-1
deal Budi 4-6 5-5 0-5 1-2 1-3 2-3 0-2
stock 0-1 2-4 0-3 0-4 0-6 1-5 1-6 2-5 2-6 3-3 3-5 3-6 4-5 5-6
Ana: 6-6             # any lead; only 4-1 scores (5)
Budi: 6-4L           # 6-4 on L or R: 4 + 12 = 16, nothing
Ana: 4-1L            # 4-4L: 8 + 12 = 20; 4-3L: 15; 4-1L: 13, nothing
Budi: 1-3L +15       # 1-3L: 3 + 12 = 15 (best); 1-2L: 14
Ana: 3-4L            # forced: the only tile that fits
Budi: d0-1 d2-4 4-2L # nothing fits 4 or 6: draws until 2-4, which must go L
Ana: 2-2L            # forced
Budi: 2-1L           # 2-3L: 3 + 12 = 15; 2-1L: 13; 2-0L: 12
"""

# Spinner rules (muggins): claims and calls.
SPINNER = """\
[Players "Ana, Budi"]
[Rules "spinner"]
[Result "*"]

round 1
lead Ana
deal Ana 5-5 3-4 6-1 0-0 2-3 4-4 1-1
deal Budi 5-0 1-2 6-6 0-3 2-2 4-6 1-3
stock 0-4 2-6 3-5 1-5 0-1 2-4 3-6 0-6 1-4 3-3 2-5 4-5 5-6 0-2
Ana: 5-5             # scores 10, claims nothing
Budi: muggins +5     # takes 5 of them: 5 left that nobody called
Budi: 5-0L +10       # claims all 10
Ana: 0-0L +5         # scores 10, claims 5
Budi: muggins +10    # only 5 were left: invalid, takes nothing
"""


def analyse(text: str, name: str = "hand.mgn") -> FileAnalysis:
    return analyse_text(name, text)


def found(f: FileAnalysis, code: str) -> list[tuple[int, int, str]]:
    return [(d.line, d.column, d.message) for d in f.report.diagnostics if d.code == code]


# -- alternatives ----------------------------------------------------------


def test_options_score_each_legal_placement() -> None:
    rules = load_preset("pagat")
    layout = place(rules, lead(rules, Tile(6, 6)), Tile(4, 6), End.L)  # L 4, R 6-6
    got = [(o.text, o.points) for o in options(rules, layout, [Tile(4, 4), Tile(1, 4),
                                                                Tile(3, 4), Tile(0, 0)])]
    assert got == [("4-1L", 0), ("4-3L", 15), ("4-4L", 20)]


def test_lead_options_name_each_tile_once() -> None:
    rules = load_preset("pagat")
    got = [(o.text, o.points) for o in options(rules, EMPTY, [Tile(4, 6), Tile(5, 5),
                                                               Tile(0, 0)])]
    assert got == [("0-0", 0), ("6-4", 10), ("5-5", 10)]


def test_spinner_options_include_up_and_down() -> None:
    rules = load_preset("spinner")
    got = [(o.text, o.points) for o in options(rules, lead(rules, Tile(5, 5)), [Tile(0, 5)])]
    assert got == [("5-0L", 10), ("5-0R", 10), ("5-0U", 5), ("5-0D", 5)]


# -- missed scores -------------------------------------------------------------


def test_missed_scores_name_the_better_play() -> None:
    f = analyse(PAGAT)
    assert found(f, MISSED_SCORE) == [
        (11, 1, "Ana played 6-6 for 0; 4-1 scored 5 (5 missed)"),
        (13, 1, "Ana played 4-1L for 0; 4-4L scored 20 (20 missed)"),
        (18, 1, "Budi played 2-1L for 0; 2-3L scored 15 (15 missed)"),
    ]
    assert all(d.severity is Severity.WARNING
               for d in f.report.diagnostics if d.code == MISSED_SCORE)
    assert f.report.errors == 0


def test_a_message_writes_the_tile_played_as_the_record_does() -> None:
    f = analyse(SAME_TILE)
    assert found(f, MISSED_SCORE) == [
        (12, 1, "Ana played 5-1L for 0; 5-1R scored 10 (10 missed)"),
    ]


def test_play_text_keeps_the_halves_of_the_tile_as_written() -> None:
    rules = load_preset("pagat")
    t = Tile.parse
    layout = place(rules, lead(rules, t("5-3"), left=5), t("1-3"), End.R)
    assert play_text(rules, layout, Place(t("1-5"), End.R)) == "1-5R"
    assert play_text(rules, layout, Place(t("1-5"), End.R), written=(5, 1)) == "5-1R"
    # Another tile keeps the engine's spelling.
    assert play_text(rules, layout, Place(t("1-5"), End.R), written=(2, 1)) == "1-5R"


def test_each_turn_lists_its_alternatives() -> None:
    plays = analyse(PAGAT).matches[0].plays
    assert [(p.round, p.turn, p.player, p.played, p.points) for p in plays][:4] == [
        (1, 1, "Ana", "6-6", 0), (1, 2, "Budi", "6-4L", 0),
        (1, 3, "Ana", "4-1L", 0), (1, 4, "Budi", "1-3L", 15)]
    third = plays[2]
    assert third.options is not None
    assert [(o.text, o.points) for o in third.options] == [
        ("4-1L", 0), ("4-3L", 15), ("4-4L", 20)]
    assert third.best is not None and third.best.text == "4-4L"
    assert third.missed == 20 and not third.forced
    drew = plays[5]  # after a fitting draw only the drawn tile may be placed
    assert drew.options is not None and [o.text for o in drew.options] == ["4-2L"]
    assert drew.forced and drew.missed == 0


def test_a_lead_is_written_as_it_was_played() -> None:
    """Budi leads 4-6 (club record, round 1): the alternatives list it as
    written, 4-6 for 10 (4 + 6), and name it best as written, not 6-4;
    the other tiles of his hand keep their one spelling, heavier half
    first (3-2 for 5, the rest for nothing)."""
    plays = analyse_file(str(CLUB)).matches[0].plays
    lead = plays[0]
    assert (lead.round, lead.turn, lead.played, lead.points) == (1, 1, "4-6", 10)
    assert lead.options is not None
    assert sorted((o.text, o.points) for o in lead.options) == [
        ("3-2", 5), ("4-3", 0), ("4-4", 0), ("4-6", 10), ("6-0", 0), ("6-1", 0), ("6-5", 0)]
    assert lead.best is not None and lead.best.text == "4-6" and lead.missed == 0


def test_ties_name_the_play_made() -> None:
    """Club record. 1.2: after the lead 4-6, Ana's 6-6R counts 4 + 12 = 16,
    her 4-0L 0 + 6 = 6 and her 6-2R 4 + 2 = 6: three plays for nothing,
    and the one she made is named best. 11.4: the ends are the double 3-3
    (6) and 6; her 4-6R makes them 6 + 4 = 10, and 3-4L would have made
    them 4 + 6 = 10: a tie, named by the play she made."""
    plays = {(p.round, p.turn): p for p in analyse_file(str(CLUB)).matches[0].plays}
    second = plays[1, 2]
    assert second.played == "6-6R" and second.options is not None
    assert sorted((o.text, o.points) for o in second.options) == [
        ("4-0L", 0), ("6-2R", 0), ("6-6R", 0)]
    assert second.best is not None and second.best.text == "6-6R"
    late = plays[11, 4]
    assert late.played == "4-6R" and late.points == 10 and late.options is not None
    assert sorted(o.text for o in late.options if o.points == 10) == ["3-4L", "4-6R"]
    assert late.best is not None and late.best.text == "4-6R" and late.missed == 0

def test_best_play_taken_is_not_a_miss() -> None:
    text = PAGAT.replace("Ana: 4-1L ", "Ana: 4-4L ").split("Budi: 1-3L")[0]
    assert [m[0] for m in found(analyse(text), MISSED_SCORE)] == [11]


def test_hidden_hands_say_nothing() -> None:
    hidden = "\n".join(line for line in PAGAT.splitlines()
                       if not line.startswith(("deal ", "stock ")))
    f = analyse(hidden)
    assert found(f, MISSED_SCORE) == []
    stats = f.matches[0].players
    # Only Budi's fitting draw shows what he could place (the drawn tile).
    assert [(s.player, s.turns, s.analysed) for s in stats] == [("Ana", 4, 0), ("Budi", 4, 1)]
    assert any(d.code == "unverified" for d in f.report.diagnostics)


def test_illegal_draw_names_the_tile_and_end_and_counts_as_illegal() -> None:
    text = (PAGAT.split("Budi: 1-3L")[0]
            .replace("stock 0-1 2-4 0-3", "stock 0-3 0-1 2-4")
            + "Budi: d0-3 1-3L +15\n")
    f = analyse(text)
    errors = [(d.line, d.column, d.code, d.message) for d in f.report.diagnostics
              if d.severity is Severity.ERROR]
    assert errors == [(14, 7, "illegal-draw",
                       "Budi drew 0-3 while holding 1-2, which fits L (1)")]
    stats = {s.player: s for s in f.matches[0].players}
    assert stats["Budi"].illegal == 1 and stats["Ana"].illegal == 0


# -- muggins ---------------------------------------------------------------


def test_unclaimed_points_per_player() -> None:
    f = analyse(SPINNER)
    assert found(f, UNCLAIMED) == [
        (10, 1, "Ana left 10 points unclaimed that nobody called (2 plays: lines 10, 13)")]
    assert [d.severity for d in f.report.diagnostics if d.code == UNCLAIMED] == [Severity.INFO]
    stats = {s.player: s for s in f.matches[0].players}
    assert stats["Ana"].unclaimed == 10 and stats["Budi"].unclaimed == 0
    assert stats["Budi"].illegal == 1  # the invalid call


def test_no_unclaimed_under_rules_without_muggins() -> None:
    f = analyse(PAGAT)
    assert found(f, UNCLAIMED) == []
    assert [s.unclaimed for s in f.matches[0].players] == [None, None]


# -- statistics --------------------------------------------------------------


def test_player_statistics_of_the_hand_built_record() -> None:
    assert analyse(PAGAT).matches[0].players == [
        PlayerStats("Ana", turns=4, analysed=4, forced=2, scored=0, missed=25,
                    missed_plays=2, illegal=0, unclaimed=None),
        PlayerStats("Budi", turns=4, analysed=4, forced=1, scored=15, missed=15,
                    missed_plays=1, illegal=0, unclaimed=None),
    ]


def test_player_statistics_of_a_conformance_record() -> None:
    # scored: what each was credited, the record's claims and muggins calls
    # added up by hand (Citra's 100 on the table less 5 unclaimed, ...).
    f = analyse_file(str(CLEAN_0019))
    assert f.matches[0].players == [
        PlayerStats("Citra", 21, 21, 8, 95, 0, 0, 0, 5),
        PlayerStats("Wayan", 23, 23, 6, 95, 0, 0, 0, 30),
        PlayerStats("Dewi", 23, 23, 8, 60, 40, 6, 0, 0),
    ]
    assert f.report.errors == 0


# -- the same findings as check ------------------------------------------------


@pytest.mark.parametrize("paths", [
    pytest.param(CORPUS[::2], id="quick"),  # every other file; the rest with -m slow
    pytest.param(CORPUS[1::2], id="thorough", marks=pytest.mark.slow),
])
def test_analysis_reports_everything_check_reports(
        checked: Callable[[Path], FileReport], analysed: Callable[[Path], FileAnalysis],
        paths: list[Path]) -> None:
    for path in paths:
        mine = analysed(path).report
        theirs = checked(path)
        added = {MISSED_SCORE, UNCLAIMED}
        assert [d for d in mine.diagnostics if d.code not in added] == theirs.diagnostics, path
        assert mine.matches == theirs.matches, path


@pytest.mark.parametrize("text", ["", "not a record\n", "[Players \"A\"]\nround 1\n"])
def test_odd_input_never_raises(text: str) -> None:
    f = analyse(text)
    assert f.report.path == "hand.mgn"


def test_unreadable_file_is_reported_like_check(tmp_path: Path) -> None:
    path = tmp_path / "bin.mgn"
    path.write_bytes(b"\x00\x01")
    mine = analyse_file(str(path)).report
    theirs = check_file(str(path))
    assert mine.unreadable and mine.diagnostics == theirs.diagnostics
