"""``match_end``, ``rounding`` and ``lead_tile`` (docs/rules.md, "Variants found in
other engines"): each worked number as its own case, the diagnostics of
records that break the new rules, and seeded self-play under each one.

The record tests start from ``records/fives-round-end-2p.mgn`` (Fives to 150,
decided at a round's end, the highest double leading), whose numbers were
added up by hand: Wayan reaches 150 with 2-2R +15 in round 4 (105 + 15 + 15
+ 15), Ketut goes out in that round and ends on 195 against Wayan's 150.
The self-play tests judge each match from its written lines alone (deals,
claims, reveals and score lines), not from the driver's own result.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from muggins_cli.check import check_file
from muggins_cli.engine.scoring import (
    EndReason,
    round_hand,
    settle,
    winner_at_settlement,
    winner_on_credit,
)
from muggins_cli.engine.state import (
    Place,
    apply,
    highest_double,
    legal_moves,
    new_round,
)
from muggins_cli.errors import IllegalMoveError
from muggins_cli.notation import model as m
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy
from muggins_cli.replay.replay import replay_match
from muggins_cli.replay.values import MatchEnding
from muggins_cli.rules.loader import load_preset, load_rules
from muggins_cli.rules.model import LeadTile, MatchEnd, Rounding, Rules
from muggins_cli.tiles import Tile, full_set

from .conftest import CLEAN_0019

RECORDS = Path(__file__).resolve().parent.parent / "records"
FIVES_RECORD = RECORDS / "fives-round-end-2p.mgn"
PAGAT = load_preset("pagat")
SPINNER = load_preset("spinner")
ROUND_END = dataclasses.replace(SPINNER, match_end=MatchEnd.ROUND_END)
AT_TARGET = dataclasses.replace(SPINNER, match_end=MatchEnd.AT_TARGET)


def t(text: str) -> Tile:
    a, b = (int(x) for x in text.split("-"))
    return Tile.of(a, b)


# --------------------------------------------------------------------------
# Worked numbers


def test_round_end_a_placement_to_the_target_does_not_end_the_match() -> None:
    # "totals 140 and 130: a placement of 10 takes the first to 150; the round goes on"
    assert winner_on_credit(ROUND_END, [140, 130], [10, 0], 150) is None


def test_at_target_the_same_placement_ends_it() -> None:
    # "(with at-target, the first would have won at the placement of 10)"
    assert winner_on_credit(AT_TARGET, [140, 130], [10, 0], 150) == 0


def test_round_end_the_highest_total_wins_at_the_round_end() -> None:
    # The other gains 85 by the round's end: say 60 in placements (130 -> 190),
    # then 25 for going out: 215 against 150, the second player wins.
    scores = [150, 190]
    assert winner_on_credit(ROUND_END, [150, 130], [0, 60], 150) is None
    assert winner_at_settlement(ROUND_END, scores, [0, 25], 150) == 1


def test_round_end_a_tie_for_the_highest_plays_another_round() -> None:
    # "Totals 150 and 150 after a round's settlement: nobody wins; another round."
    assert winner_at_settlement(ROUND_END, [150, 150], [0, 0], 150) is None
    assert winner_at_settlement(ROUND_END, [150, 140], [0, 10], 150) is None


def test_round_end_nobody_at_the_target_plays_on() -> None:
    assert winner_at_settlement(ROUND_END, [100, 145], [0, 0], 150) is None


def test_round_end_a_lower_total_at_the_target_does_not_win() -> None:
    # Three players: 150 is at the target but 160 is higher; 160 wins.
    assert winner_at_settlement(ROUND_END, [150, 160, 20], [0, 0, 0], 150) == 1


@pytest.mark.parametrize(("rounding", "pips", "counted"), [
    pytest.param(Rounding.UP, 2, 5, id="up: a hand of 2 pips counts 5"),
    pytest.param(Rounding.DOWN, 4, 0, id="down: 4 counts 0"),
    pytest.param(Rounding.UP, 10, 10, id="up: a multiple stays"),
    pytest.param(Rounding.DOWN, 9, 5, id="down: 9 counts 5"),
    pytest.param(Rounding.NEAREST, 2, 0, id="nearest: 2 counts 0"),
    pytest.param(Rounding.NEAREST, 3, 5, id="nearest: 3 counts 5"),
])
def test_rounding(rounding: Rounding, pips: int, counted: int) -> None:
    rules = dataclasses.replace(PAGAT, rounding=rounding)
    assert round_hand(rules, pips) == counted
    # deduct-own loses the rounded hand
    assert settle(rules, [pips, 0], 1) == [-counted, 0]


def test_rounding_up_rounds_the_bonus_too() -> None:
    # spinner's blocked example, rounded up: 5 + 11 + 13 - 3 = 26 -> 30 -> +6
    rules = dataclasses.replace(SPINNER, rounding=Rounding.UP)
    assert settle(rules, [3, 5, 11, 13], None) == [6, 0, 0, 0]


HD = dataclasses.replace(PAGAT, lead_tile=LeadTile.HIGHEST_DOUBLE)


def test_highest_double_leads_and_must_be_led() -> None:
    # "hands holding 6-6 and 4-4 -> the holder of 6-6 leads 6-6 in round 1"
    hands = [[t("4-4"), t("1-2"), t("3-5")], [t("6-6"), t("0-1"), t("2-3")]]
    assert highest_double(hands) == (1, t("6-6"))
    state = new_round(hands, [], 1, t("6-6"))
    assert legal_moves(HD, state) == [Place(t("6-6"))]
    with pytest.raises(IllegalMoveError):
        apply(HD, state, Place(t("2-3")))


def test_no_double_dealt_means_no_leader_by_the_deal() -> None:
    assert highest_double([[t("1-2")], [t("3-4")]]) is None


def test_after_going_out_the_winner_leads_any_tile() -> None:
    hands = [[t("4-4"), t("1-2")], [t("6-6"), t("0-1")]]
    state = new_round(hands, [], 0)  # no lead tile: the winner of the last round leads
    assert legal_moves(HD, state) == [Place(t("1-2")), Place(t("4-4"))]


# --------------------------------------------------------------------------
# Records


def _check(tmp_path: Path, text: str, rules_text: str | None = None) -> tuple[
        list[tuple[int, str, str]], str | None]:
    """Check ``text`` beside a copy of records/fives.yaml (or ``rules_text``)."""
    if rules_text is None:
        shutil.copy(RECORDS / "fives.yaml", tmp_path / "fives.yaml")
    else:
        (tmp_path / "fives.yaml").write_text(rules_text, encoding="utf-8")
    path = tmp_path / "game.mgn"
    path.write_text(text, encoding="utf-8")
    report = check_file(str(path))
    diags = [(d.line, d.code, d.message) for d in report.diagnostics
             if d.severity.value == "error"]
    return diags, report.matches[0].winner


def _line_of(text: str, line: str, start: int = 0) -> int:
    return text.splitlines().index(line, start) + 1


FIVES = FIVES_RECORD.read_text(encoding="utf-8")


def test_the_done_when_rules_file() -> None:
    rules = load_rules(str(RECORDS / "fives.yaml"))
    assert (rules.spinner_sides_first, rules.spinner_count.value, rules.bonus_divisor,
            rules.lead_tile, rules.match_end, rules.target[2]) == (
        True, "until-sides-covered", 1, LeadTile.HIGHEST_DOUBLE, MatchEnd.ROUND_END, 150)


def test_fives_record_checks_clean_with_the_round_end_winner(tmp_path: Path) -> None:
    diags, winner = _check(tmp_path, FIVES)
    assert diags == []
    assert winner == "Ketut"  # 195 against 150, though Wayan reached 150 first


def test_fives_record_says_why_the_match_ended() -> None:
    (match,) = parse_text(FIVES)
    from muggins_cli.rules.resolve import resolver_for

    rep = replay_match(match, resolver_for(str(FIVES_RECORD)))
    assert rep.ending is not None
    assert (rep.ending.winner, rep.ending.reason, rep.ending.round) == (
        1, EndReason.ROUND_END, 4)
    assert rep.ending.scores == (150, 195)
    assert rep.ending.line == _line_of(FIVES, "reveal Wayan 4-4")


def test_fives_record_under_at_target_ends_at_wayans_placement(tmp_path: Path) -> None:
    at_target = (RECORDS / "fives.yaml").read_text(encoding="utf-8").replace(
        "match_end: round-end", "match_end: at-target")
    diags, winner = _check(tmp_path, FIVES, at_target)
    reach = _line_of(FIVES, "Wayan: 2-2R +15")
    assert winner == "Wayan"
    assert [(line, code) for line, code, _ in diags] == [
        (5, "result-mismatch"), (reach + 1, "after-match-end"),
        (_line_of(FIVES, "score Wayan 150, Ketut 195"), "total-mismatch")]  # Ketut stopped short


def test_result_naming_the_first_to_reach_the_target_is_wrong(tmp_path: Path) -> None:
    text = FIVES.replace('[Result "Ketut"]', '[Result "Wayan"]')
    diags, _ = _check(tmp_path, text)
    assert [(line, code) for line, code, _ in diags] == [(5, "result-mismatch")]


def test_a_round_after_the_deciding_round_is_after_match_end(tmp_path: Path) -> None:
    text = FIVES + "\nround 5\nlead Wayan\n"
    diags, winner = _check(tmp_path, text)
    assert winner == "Ketut"
    round5 = _line_of(FIVES + "\nround 5\n", "round 5")
    assert [(line, code) for line, code, _ in diags] == [(round5, "after-match-end")]
    assert "end of round 4" in diags[0][2]


def test_a_turn_after_the_deciding_round_is_after_match_end(tmp_path: Path) -> None:
    lines = FIVES.splitlines()
    at = _line_of(FIVES, "reveal Wayan 4-4")
    text = "\n".join([*lines[:at], "score Wayan 150, Ketut 195", "Wayan: 4-4L", *lines[at:]])
    diags, _ = _check(tmp_path, text + "\n")
    assert [(line, code) for line, code, _ in diags] == [(at + 2, "after-match-end")]


def test_a_tie_at_the_round_end_plays_on(tmp_path: Path) -> None:
    # After round 2 the totals are 55 and 55: with Target 55 both are at it,
    # tied, so nobody has won when the record stops there.
    cut = _line_of(FIVES, "round 3") - 1
    text = "\n".join(FIVES.splitlines()[:cut]) + "\n"
    diags, winner = _check(tmp_path, text.replace('[Target "150"]', '[Target "55"]')
                           .replace('[Result "Ketut"]', '[Result "*"]'))
    assert (diags, winner) == ([], None)


def test_the_highest_total_at_the_target_wins_at_that_round_end(tmp_path: Path) -> None:
    # After round 3: 105 and 100; with Target 100 both are at it and Wayan,
    # alone the highest, wins there.
    cut = _line_of(FIVES, "round 4") - 1
    text = "\n".join(FIVES.splitlines()[:cut]) + "\n"
    diags, winner = _check(tmp_path, text.replace('[Target "150"]', '[Target "100"]')
                           .replace('[Result "Ketut"]', '[Result "Wayan"]'))
    assert (diags, winner) == ([], "Wayan")


def test_lead_line_naming_the_wrong_player(tmp_path: Path) -> None:
    text = FIVES.replace("lead Wayan", "lead Ketut", 1)
    diags, _ = _check(tmp_path, text)
    line, code, message = diags[0]
    assert (line, code) == (_line_of(FIVES, "lead Wayan"), "wrong-leader")
    assert "Wayan holds 6-6, the highest double dealt" in message


def test_the_holder_leading_another_tile(tmp_path: Path) -> None:
    text = FIVES.replace("Wayan: 6-6\n", "Wayan: 3-3\n", 1)
    diags, _ = _check(tmp_path, text)
    line, code, message = diags[0]
    assert (line, code) == (_line_of(FIVES, "Wayan: 6-6"), "wrong-leader")
    assert "must lead 6-6" in message and "not 3-3" in message


def test_another_player_leading_a_lower_double(tmp_path: Path) -> None:
    # Ketut holds 5-5; leading it without a lead line is still wrong.
    first = _line_of(FIVES, "Wayan: 6-6")
    lines = FIVES.splitlines()
    lines.remove("lead Wayan")
    lines[first - 2] = "Ketut: 5-5"
    diags, _ = _check(tmp_path, "\n".join(lines) + "\n")
    line, code, message = diags[0]
    assert (line, code) == (first - 1, "wrong-leader")
    assert "Wayan holds 6-6" in message and "not Ketut" in message


def test_a_deal_without_a_double_is_bad_deal(tmp_path: Path) -> None:
    singles = [x for x in full_set(6) if not x.is_double]
    doubles = [x for x in full_set(6) if x.is_double]
    ana, budi, rest = singles[:7], singles[7:14], singles[14:] + doubles
    text = "\n".join([
        '[Players "Ana, Budi"]', '[Rules "fives.yaml"]', '[Result "*"]', "",
        "round 1", "lead Ana",
        "deal Ana " + " ".join(map(str, ana)),
        "deal Budi " + " ".join(map(str, budi)),
        "stock " + " ".join(map(str, rest)),
        f"Ana: {ana[0]}", ""])
    diags, _ = _check(tmp_path, text)
    assert [(line, code) for line, code, _ in diags] == [(8, "bad-deal")]
    assert "dealt again" in diags[0][2]


def test_a_deal_without_a_double_is_fine_in_other_rules(tmp_path: Path) -> None:
    singles = [x for x in full_set(6) if not x.is_double]
    doubles = [x for x in full_set(6) if x.is_double]
    ana, budi, rest = singles[:7], singles[7:14], singles[14:] + doubles
    text = "\n".join([
        '[Players "Ana, Budi"]', '[Rules "fives.yaml"]', '[Result "*"]', "",
        "round 1", "lead Ana",
        "deal Ana " + " ".join(map(str, ana)),
        "deal Budi " + " ".join(map(str, budi)),
        "stock " + " ".join(map(str, rest)),
        f"Ana: {ana[0]}", ""])
    diags, _ = _check(tmp_path, text, "base: spinner\n")
    assert diags == []


# --------------------------------------------------------------------------
# Self-play under each parameter, judged from the written record


def _rounds(match: m.Match) -> list[list[m.BodyLine]]:
    out: list[list[m.BodyLine]] = []
    for item in match.body:
        if isinstance(item, m.RoundLine):
            out.append([])
        out[-1].append(item)
    return out


def _round_totals(rnd: Sequence[m.BodyLine], names: Sequence[str]) -> list[int]:
    last = [x for x in rnd if isinstance(x, m.ScoreLine)][-1]
    by = {e.player: e.points for e in last.entries}
    return [by[n] for n in names]


def _play(rules: Rules, seed: int, players: int, tmp_path: Path) -> tuple[m.Match, str]:
    names = ["Ana", "Budi", "Citra", "Dana"][:players]
    rng = random.Random(seed)
    strategies = [GreedyStrategy() if i % 2 else RandomStrategy() for i in range(players)]
    out = play_match(rules, names, strategies, rng, rules_tag="house.yaml")
    (tmp_path / "house.yaml").write_text(_yaml(rules), encoding="utf-8")
    path = tmp_path / f"m{seed}.mgn"
    path.write_text(write_match(out.record), encoding="utf-8")
    report = check_file(str(path))
    assert [d for d in report.diagnostics if d.severity.value != "info"] == []
    (match,) = parse_text(path.read_text(encoding="utf-8"))
    return match, path.read_text(encoding="utf-8")


def _yaml(rules: Rules) -> str:
    from muggins_cli.rules.loader import rules_to_yaml

    return rules_to_yaml(rules).replace(f"name: {rules.name}", "name: house")


def _tiles_conserved(rnd: Sequence[m.BodyLine], max_pip: int) -> None:
    dealt = [tok.tile for x in rnd if isinstance(x, m.DealLine | m.StockLine) for tok in x.tiles]
    assert sorted(dealt) == sorted(full_set(max_pip))


FIVES_RULES = load_rules(str(RECORDS / "fives.yaml"))


@pytest.mark.parametrize("seed", range(4))
def test_selfplay_round_end_ends_at_the_first_decided_round(seed: int, tmp_path: Path) -> None:
    rules = dataclasses.replace(FIVES_RULES, name="house")
    match, _ = _play(rules, seed, 2, tmp_path)
    names = ["Ana", "Budi"]
    rounds = _rounds(match)
    decided = None
    for number, rnd in enumerate(rounds, 1):
        _tiles_conserved(rnd, rules.max_pip)
        totals = _round_totals(rnd, names)
        top = max(totals)
        if top >= 150 and totals.count(top) == 1:
            decided = (number, names[totals.index(top)])
            break
    assert decided is not None and decided[0] == len(rounds)
    assert match.tag("Result") == decided[1]


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 3), (2, 4), (3, 3)])
def test_selfplay_highest_double_leads(seed: int, players: int, tmp_path: Path) -> None:
    rules = dataclasses.replace(HD, name="house")
    match, _ = _play(rules, seed, players, tmp_path)
    led_by_deal = 0
    previous_went_out = False
    for rnd in _rounds(match):
        _tiles_conserved(rnd, rules.max_pip)
        deals = {x.player: {tok.tile for tok in x.tiles} for x in rnd if isinstance(x, m.DealLine)}
        turns = [x for x in rnd if isinstance(x, m.Turn)]
        if not previous_went_out:
            doubles = [(x.hi, p) for p, h in deals.items() for x in h if x.is_double]
            pip, holder = max(doubles)
            first = turns[0]
            assert first.player == holder
            assert isinstance(first.action, m.Placement)
            assert first.action.tile.tile == Tile.of(pip, pip)
            led_by_deal += 1
        placed = {p: sum(isinstance(x.action, m.Placement) and x.player == p for x in turns)
                  for p in deals}
        drawn = {p: sum(len(x.draws) for x in turns if x.player == p) for p in deals}
        previous_went_out = any(placed[p] == len(deals[p]) + drawn[p] for p in deals)
    assert led_by_deal >= 1


@pytest.mark.parametrize("seed", range(3))
def test_selfplay_rounding_up(seed: int, tmp_path: Path) -> None:
    rules = dataclasses.replace(PAGAT, name="house", rounding=Rounding.UP)
    match, _ = _play(rules, seed, 2, tmp_path)
    names = ["Ana", "Budi"]
    before = [0, 0]
    rounds = _rounds(match)
    for rnd in rounds[:-1]:  # the last round may end at a placement, unsettled
        _tiles_conserved(rnd, rules.max_pip)
        claims = [sum(x.claim.points for x in rnd if isinstance(x, m.Turn)
                      and x.player == n and x.claim is not None) for n in names]
        held = {x.player: sum(tok.tile.pips for tok in x.tiles)
                for x in rnd if isinstance(x, m.RevealLine)}
        up = [-(-held.get(n, 0) // 5) * 5 for n in names]  # rounded up by hand
        after = _round_totals(rnd, names)
        assert after == [b + c - u for b, c, u in zip(before, claims, up)]
        before = after


# --------------------------------------------------------------------------
# The solver's match objective under round-end, against plain searches


ROUND_END_FIVES = dataclasses.replace(FIVES_RULES, name="fives-solver")
ROUND_END_PAGAT = dataclasses.replace(PAGAT, name="pagat-round-end", match_end=MatchEnd.ROUND_END)


def _round_end_scores(target: int, players: int, seed: int) -> list[int]:
    """Totals past the target, tied at it, just short of it, or far away."""
    rng = random.Random(seed)
    return [rng.choice([target + 10, target, target - 5, target - 15, 0])
            for _ in range(players)]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rules", [ROUND_END_FIVES, ROUND_END_PAGAT], ids=lambda r: r.name)
def test_solver_perfect_round_end_equals_exhaustive_search(rules: Rules, players: int) -> None:
    from muggins_cli.solver import Plan, solve
    from tests.test_solver_reference import endgame, move_value2, move_vec

    for seed in range(8):
        state = endgame(rules, players, 500 * players + seed, {2: 9, 3: 8}[players])
        target = rules.target_for(players)
        scores = _round_end_scores(target, players, seed)
        dists = [target - s for s in scores]
        res = solve(rules, state, scores=scores, target=target, plan=Plan(objective="match"))
        assert res.exact
        for mv, em in zip(res.moves, legal_moves(rules, state), strict=True):
            assert mv.move == em
            if players == 2:
                assert mv.value == move_value2(rules, state, em, dists, True), (seed, mv)
            else:
                assert mv.results is not None
                assert list(mv.results) == move_vec(rules, state, em, dists, True)


@pytest.mark.parametrize("players", [2, 3])
def test_solver_expect_round_end_equals_exhaustive_average(players: int) -> None:
    from muggins_cli.engine.state import KnownDraw
    from muggins_cli.solver import Plan, solve
    from tests.test_solver_reference import endgame, expect_move2, expect_move_n

    rules = ROUND_END_FIVES
    for seed in range(5):
        state = endgame(rules, players, 700 * players + seed, 7, min_stock=2)
        target = rules.target_for(players)
        scores = _round_end_scores(target, players, seed + 1)
        dists = [target - s for s in scores]
        res = solve(rules, state, scores=scores, target=target, plan=Plan(mode="expect",
                    objective="match"))
        assert res.exact
        for mv, em in zip(res.moves, legal_moves(rules, state)):
            assert isinstance(em, KnownDraw) or mv.move == em
            if players == 2:
                assert mv.value == pytest.approx(expect_move2(rules, state, em, dists, True))
            else:
                assert mv.results is not None
                assert list(mv.results) == pytest.approx(
                    expect_move_n(rules, state, em, dists, True))


def test_solver_round_end_a_placement_to_the_target_wins_nothing_yet() -> None:
    """A position where the mover's placement takes them past the target:
    under at-target it is worth MATCH_WIN; under round-end it is not (the
    round goes on and the opponent may still finish higher)."""
    from muggins_cli.solver import MATCH_WIN, Plan, solve
    from tests.test_solver_reference import endgame

    for seed in range(40):
        state = endgame(PAGAT, 2, 900 + seed, 10)
        at = solve(PAGAT, state, scores=[245, 0], target=250, plan=Plan(objective="match"))
        if state.to_move == 0 and at.value is not None and at.value > MATCH_WIN // 2:
            break
    else:
        raise AssertionError("no position where a placement reaches the target")
    later = solve(ROUND_END_PAGAT, state, scores=[245, 0], target=250, plan=Plan(objective="match"))
    assert later.value is not None and later.value < at.value


# --------------------------------------------------------------------------
# Why the match ended, as data and in `muggins replay`


def _ending(text: str, resolve_from: Path) -> MatchEnding | None:
    from muggins_cli.rules.resolve import resolver_for

    (match,) = parse_text(text)
    return replay_match(match, resolver_for(str(resolve_from))).ending


def test_ending_at_a_placement() -> None:
    from tests.records import THREES

    ending = _ending(THREES, RECORDS / "x.mgn")
    # "Eko leads 6-6 for 12 and reaches the target of 10" on the record's line 13
    assert ending is not None
    assert (ending.winner, ending.reason, ending.round, ending.line) == (
        2, EndReason.PLACEMENT, 1, THREES.splitlines().index("Eko: 6-6 +12") + 1)


def test_ending_at_an_at_target_settlement() -> None:
    ending = _ending(CLEAN_0019.read_text(encoding="utf-8"), CLEAN_0019)
    # the corpus marks it match-ends-at-bonus: Wayan's round-end bonus takes him to 100
    assert ending is not None
    assert (ending.reason, ending.round) == (EndReason.SETTLEMENT, 4)


def test_replay_says_why_the_match_ended() -> None:
    from typer.testing import CliRunner

    from muggins_cli.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["replay", str(FIVES_RECORD)])
    assert result.exit_code == 0, result.output
    titles = [ln for ln in result.stdout.splitlines() if ln.startswith("== ")]
    # Wayan reaches 150 at 4.16 and play goes on; only the round's end decides.
    assert [t for t in titles if "match over" in t] == [titles[-1]]
    assert titles[-1] == (
        "== 4.24  end of round 4: Ketut went out; match over: Ketut won at the end of round 4 "
        "with the highest total at or above the target of 150 ==")
    past = runner.invoke(app, ["replay", str(FIVES_RECORD), "--at", "5.1"])
    assert past.exit_code == 2
    assert past.stderr == (
        "muggins replay: the match has no position 5.1: it was over at 4.24, when Ketut won "
        "at the end of round 4 with the highest total at or above the target of 150\n")


def test_stats_count_the_round_end_winner() -> None:
    import json

    from typer.testing import CliRunner

    from muggins_cli.cli import app

    result = CliRunner().invoke(app, ["stats", str(FIVES_RECORD), "--format", "json"])
    assert result.exit_code == 0, result.output
    wins = {p["name"]: p["wins"] for p in json.loads(result.stdout)["by_player"]}
    assert wins == {"Ketut": 1, "Wayan": 0}  # Wayan reached 150 first; Ketut won


def test_rules_command_shows_the_new_fields() -> None:
    from typer.testing import CliRunner

    from muggins_cli.cli import app

    result = CliRunner().invoke(app, ["rules", str(RECORDS / "fives.yaml")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-3:] == ["match_end: round-end", "rounding: nearest",
                          "lead_tile: highest-double"]


@pytest.mark.parametrize(("text", "message"), [
    ("match_end: round_end\n", "line 1: field 'match_end' must be one of at-target, "
     "round-end, got 'round_end' (did you mean 'round-end'?)"),
    ("base: pagat\nrounding: upward\n", "line 2: field 'rounding' must be one of nearest, "
     "down, up, got 'upward'"),
    ("lead_tile: true\n", "line 1: field 'lead_tile' must be one of any, highest-double, "
     "got true"),
])
def test_a_wrong_value_is_one_line_exit_2(tmp_path: Path, text: str, message: str) -> None:
    from typer.testing import CliRunner

    from muggins_cli.cli import app

    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", str(tmp_path / "bad.yaml")])
    assert result.exit_code == 2
    assert result.stdout == ""
    # one line naming the file (its path perhaps shortened), the field and the line
    assert result.stderr.startswith("error: rules file ")
    assert result.stderr.endswith(f"bad.yaml: {message}\n") or result.stderr.endswith(
        f"…: {message}\n")
    assert result.stderr.count("\n") == 1


def test_selfplay_command_under_the_fives_file_checks_clean(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from muggins_cli.cli import app

    shutil.copy(RECORDS / "fives.yaml", tmp_path / "fives.yaml")
    out = tmp_path / "games.mgn"
    runner = CliRunner()
    played = runner.invoke(app, ["selfplay", "--rules", str(tmp_path / "fives.yaml"),
                                 "--matches", "3", "--seed", "5", "-o", str(out)])
    assert played.exit_code == 0, played.output
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "3 matches: no errors, 0 warnings" in checked.stdout


def _without_deals(text: str) -> str:
    """A sheet kept at the table: no deals, no stock, no reveals (with the
    reveals, hands that went out or were shown are deduced and checked)."""
    return "\n".join(ln for ln in text.splitlines()
                     if not ln.startswith(("deal ", "stock ", "reveal "))) + "\n"


def test_hidden_hands_a_double_lead_is_unverified(tmp_path: Path) -> None:
    path = tmp_path / "kept.mgn"
    shutil.copy(RECORDS / "fives.yaml", tmp_path / "fives.yaml")
    path.write_text(_without_deals(FIVES), encoding="utf-8")
    report = check_file(str(path))
    first = _line_of(_without_deals(FIVES), "Wayan: 6-6")
    found = [(d.line, d.severity.value, d.message) for d in report.diagnostics
             if "highest double" in d.message]
    assert found == [(first, "info", "round 1: hands are not in the record, so whether "
                      "6-6 was the highest double dealt is not checked")]
    assert [d for d in report.diagnostics if d.severity.value == "error"] == []


def test_hidden_hands_a_lead_that_is_no_double_is_wrong_leader(tmp_path: Path) -> None:
    text = _without_deals(FIVES).replace("Wayan: 6-6\n", "Wayan: 3-4\n", 1)
    diags, _ = _check(tmp_path, text)
    first = _line_of(text, "Wayan: 3-4")
    assert diags[0][:2] == (first, "wrong-leader")
    assert diags[0][2] == "round 1 opens with the highest double dealt, not 3-4"


@pytest.mark.slow  # sampled or perfect searches: seconds
def test_selfplay_solver_strategy_under_round_end(tmp_path: Path) -> None:
    """The solver strategy plays for the round's end (its ``match``
    objective reads ``match_end``) and its match checks clean, decided at
    the first round whose settlement leaves one total alone the highest at
    or above the target."""
    from muggins_cli.play.strategies import SolverStrategy

    rules = dataclasses.replace(FIVES_RULES, name="house", target={2: 60, 3: 200, 4: 200})
    (tmp_path / "house.yaml").write_text(_yaml(rules), encoding="utf-8")
    out = play_match(rules, ["Ana", "Budi"],
                     [SolverStrategy(samples=2, node_limit=20_000), GreedyStrategy()],
                     random.Random(3), rules_tag="house.yaml")
    path = tmp_path / "solver.mgn"
    path.write_text(write_match(out.record), encoding="utf-8")
    report = check_file(str(path))
    assert [d for d in report.diagnostics if d.severity.value != "info"] == []
    (match,) = parse_text(path.read_text(encoding="utf-8"))
    finals = [_round_totals(rnd, ["Ana", "Budi"]) for rnd in _rounds(match)]
    decided = [i for i, f in enumerate(finals) if max(f) >= 60 and f.count(max(f)) == 1]
    assert decided and decided[0] == len(finals) - 1
    assert match.tag("Result") == ["Ana", "Budi"][finals[-1].index(max(finals[-1]))]


def test_arena_under_the_fives_file_deals_doubles_and_checks_clean(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from muggins_cli.cli import app

    shutil.copy(RECORDS / "fives.yaml", tmp_path / "fives.yaml")
    out = tmp_path / "arena.mgn"
    runner = CliRunner()
    played = runner.invoke(app, ["arena", "greedy", "random", "--rules",
                                 str(tmp_path / "fives.yaml"), "-k", "2", "-j", "1", "-q",
                                 "-o", str(out)])
    assert played.exit_code == 0, played.output
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "4 matches: no errors, 0 warnings" in checked.stdout


def test_highest_double_record_after_a_block(tmp_path: Path) -> None:
    """records/highest-double-3p.mgn: round 4 is blocked (every hand is
    revealed), so round 5 is led by the deal: Eko holds 6-6 and 5-5, Citra
    1-1, Dewi no double; Eko leads 6-6."""
    path = RECORDS / "highest-double-3p.mgn"
    report = check_file(str(path))
    assert [d for d in report.diagnostics if d.severity.value != "info"] == []
    text = path.read_text(encoding="utf-8")
    (match,) = parse_text(text)
    rounds = _rounds(match)
    assert sum(isinstance(x, m.RevealLine) for x in rounds[3]) == 3  # blocked
    round5 = rounds[4]
    assert [x.player for x in round5 if isinstance(x, m.LeadLine)] == ["Eko"]
    first = next(x for x in round5 if isinstance(x, m.Turn))
    assert first.player == "Eko" and "Eko: 6-6" in text.splitlines()
    # The same round led by Citra's 1-1 instead is wrong-leader on the lead line.
    bad = text.replace("round 5\nlead Eko\n", "round 5\nlead Citra\n")
    (tmp_path / "highest-double.yaml").write_text(
        (RECORDS / "highest-double.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.mgn").write_text(bad, encoding="utf-8")
    errors = [d for d in check_file(str(tmp_path / "bad.mgn")).diagnostics
              if d.severity.value == "error"]
    lead5 = bad.splitlines().index("lead Citra") + 1
    assert (errors[0].line, errors[0].code) == (lead5, "wrong-leader")
    assert "Eko holds 6-6" in errors[0].message


def test_rounding_up_record_round_2() -> None:
    """records/rounding-up-2p.mgn, round 2: Wayan is left with 0-0 1-1 2-2,
    6 pips, which cost 10 rounded up (5 to the nearest)."""
    path = RECORDS / "rounding-up-2p.mgn"
    report = check_file(str(path))
    assert [d for d in report.diagnostics if d.severity.value != "info"] == []
    (match,) = parse_text(path.read_text(encoding="utf-8"))
    r1, r2 = _rounds(match)[:2]
    before = _round_totals(r1, ["Ana", "Wayan"])[1]
    claims = sum(x.claim.points for x in r2 if isinstance(x, m.Turn)
                 and x.player == "Wayan" and x.claim is not None)
    reveal = [x for x in r2 if isinstance(x, m.RevealLine)]
    assert [(x.player, sum(t.tile.pips for t in x.tiles)) for x in reveal] == [("Wayan", 6)]
    assert _round_totals(r2, ["Ana", "Wayan"])[1] == before + claims - 10


def test_a_tie_with_a_result_named_is_unfinished(tmp_path: Path) -> None:
    cut = _line_of(FIVES, "round 3") - 1
    text = "\n".join(FIVES.splitlines()[:cut]) + "\n"
    path = tmp_path / "tie.mgn"
    shutil.copy(RECORDS / "fives.yaml", tmp_path / "fives.yaml")
    path.write_text(text.replace('[Target "150"]', '[Target "55"]'), encoding="utf-8")
    report = check_file(str(path))
    assert [(d.line, d.severity.value, d.code, d.message) for d in report.diagnostics
            if d.severity.value != "info"] == [
        (5, "warning", "unfinished", "the record ends before a round ended with one total "
         "alone the highest at or above 55; write [Result \"*\"] for an unfinished match")]
    assert report.matches[0].winner is None


def test_the_movers_view_of_a_highest_double_opening_has_only_that_lead() -> None:
    """Round 1 of records/highest-double-3p.mgn: the deal lines give Eko
    both 3-3 and 6-6, so 6-6 (the highest double dealt) must open. The
    mover's view the replay makes (and the sampled solver deals from) says
    so: one legal move, that tile. The view used to leave the lead out, and
    the solver then weighed every tile of the hand as an opening."""
    from muggins_cli.check import record_resolver
    from muggins_cli.engine.state import Place
    from muggins_cli.replay.replay import position_at
    from muggins_cli.solver import Plan, solve

    path = RECORDS / "highest-double-3p.mgn"
    match = parse_text(path.read_text())[0]
    resolve = record_resolver(path)
    view = position_at(match, resolve, "1.1").view()
    assert view.hand == {Tile(3, 3), Tile(0, 0), Tile(1, 2), Tile(6, 6), Tile(2, 4)}
    assert view.lead_tile == Tile(6, 6)
    assert view.moves == (Place(Tile(6, 6)),)
    res = solve(resolve("highest-double.yaml"), view, Plan(mode="sample", samples=2, seed=1,
                node_limit=20_000))
    assert [mv.move for mv in res.moves] == [Place(Tile(6, 6))]
