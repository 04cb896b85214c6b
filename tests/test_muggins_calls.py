"""Claims and muggins calls in self-play: a placement credits what
its player claims, the next opponents may call muggins on the rest
(docs/notation.md 5), ``careless`` forgets to claim so that calls happen,
and ``muggins check`` accepts every record with the same final scores.

The scores a placement made are computed here from the record's own tiles
with the engine's layout (a walk independent of the match driver), and the
hand-made positions use the worked numbers of docs/rules.md (``spinner``:
lead 5-5 → 10; 5-0 on L → 10; 3-5 on R → 13, no score; 0-2 on the 0 → 15).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.check import check_file
from muggins_cli.cli import app
from muggins_cli.engine.layout import EMPTY, Layout, count, lead, place
from muggins_cli.engine.scoring import EndReason, score_of
from muggins_cli.engine.state import Place
from muggins_cli.engine.view import SeatView, SeenMove
from muggins_cli.errors import IllegalMoveError, InputError
from muggins_cli.notation import model as m
from muggins_cli.notation.writer import write_match
from muggins_cli.play.arena import ArenaSpec, play_pair, tally
from muggins_cli.play.seen import CallView, ClaimView
from muggins_cli.play.selfplay import Claims, MatchOutcome, RoundDeal, play_match
from muggins_cli.play.strategies import (
    CarelessStrategy,
    GreedyStrategy,
    RandomStrategy,
    SolverStrategy,
    greedy_seen,
    make_strategy,
)
from muggins_cli.rules.loader import load_preset
from muggins_cli.rules.model import Rules
from muggins_cli.tiles import End, Tile, full_set

SPINNER = load_preset("spinner")
runner = CliRunner()


# ----------------------------------------------------------------------
# An independent walk of a record: what each placement scored, what was
# claimed and what was called after it


@dataclass(frozen=True)
class Scored:
    placer: int
    points: int  # what the placement scored, counted here
    claimed: int  # the claim written (0 for none)
    call: tuple[int, int] | None  # (caller, points) of the muggins line after it


def walk(match: m.Match, rules: Rules) -> list[Scored]:
    seat = {name: i for i, name in enumerate(match.players)}
    out: list[Scored] = []
    layout: Layout = EMPTY
    body = match.body
    for k, line in enumerate(body):
        if isinstance(line, m.RoundLine):
            layout = EMPTY
        if not isinstance(line, m.Turn) or not isinstance(line.action, m.Placement):
            continue
        p = line.action
        tile = p.tile.tile
        layout = (lead(rules, tile, p.tile.a) if p.end is None
                  else place(rules, layout, tile, p.end))
        points = score_of(rules, count(rules, layout))
        after = body[k + 1] if k + 1 < len(body) else None
        call = ((seat[after.player], after.points) if isinstance(after, m.MugginsCall)
                else None)
        claimed = line.claim.points if line.claim is not None else 0
        out.append(Scored(seat[line.player], points, claimed, call))
    return out


def counted(match: m.Match, rules: Rules) -> list[Claims]:
    """The per-seat :class:`Claims` a two-player record shows (each
    under-claim is shown to the one opponent)."""
    n = len(match.players)
    tally = [Claims()] * n
    for s in walk(match, rules):
        if not s.points:
            continue
        tally[s.placer] += Claims(made=1, made_points=s.points,
                                  claimed=int(s.claimed == s.points), claimed_points=s.claimed)
        rest = s.points - s.claimed
        if rest:
            caller = (s.placer + 1) % n
            taken = s.call[1] if s.call is not None else 0
            tally[caller] += Claims(shown=1, shown_points=rest, called=int(taken > 0),
                                    called_points=taken)
    return tally


def checked(tmp_path: Path, outcome: MatchOutcome, name: str = "m.mgn") -> None:
    """``muggins check`` accepts the record: no diagnostic, the same final
    scores and winner as the match driver, the same as its last score line."""
    path = tmp_path / name
    path.write_text(write_match(outcome.record))
    report = check_file(str(path))
    assert report.diagnostics == []
    [summary] = report.matches
    names = list(outcome.record.players)
    assert summary.scores == dict(zip(names, outcome.scores))
    assert summary.winner == (names[outcome.winner] if outcome.winner is not None else None)
    last = outcome.record.body[-1]
    assert isinstance(last, m.ScoreLine)
    assert [e.points for e in last.entries] == outcome.scores


def careless_match(seed: int, forget: float = 0.5, target: int | None = None) -> MatchOutcome:
    return play_match(SPINNER, ["Ana", "Budi"], [CarelessStrategy(forget), GreedyStrategy()],
                      random.Random(f"calls:{seed}"), target=target)


# ----------------------------------------------------------------------
# Seeded self-play with a careless seat


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_careless_seat_makes_calls_and_check_accepts_the_record(tmp_path: Path,
                                                                  seed: int) -> None:
    out = careless_match(seed)
    calls = [line for line in out.record.body if isinstance(line, m.MugginsCall)]
    assert calls, "a careless seat at forget 0.5 leaves some score unclaimed"
    assert {c.player for c in calls} == {"Budi"}  # only the greedy seat calls
    checked(tmp_path, out)


@pytest.mark.parametrize("seed", [1, 2])
def test_default_claims_all_and_calls_every_under_claim(seed: int) -> None:
    out = careless_match(seed)
    scored = [s for s in walk(out.record, SPINNER) if s.points]
    greedy = [s for s in scored if s.placer == 1]
    careless = [s for s in scored if s.placer == 0]
    assert greedy and all(s.claimed == s.points and s.call is None for s in greedy)
    # careless claims all or nothing; each miss is called for all of it by Budi
    assert all(s.claimed in (0, s.points) for s in careless)
    missed = [s for s in careless if s.claimed < s.points]
    assert missed
    assert all(s.call == (1, s.points) for s in missed)
    assert all(s.call is None for s in careless if s.claimed == s.points)


def test_the_driver_counts_what_the_record_shows() -> None:
    for seed in (1, 2, 3):
        out = careless_match(seed)
        assert out.claims == counted(out.record, SPINNER)
        a, b = out.claims
        assert a.claimed < a.made and a.shown == 0 and a.called == 0
        assert b.claimed == b.made and b.called == b.shown > 0
        assert b.called_points == a.made_points - a.claimed_points


# Solver self-play under spinner: seconds, so with the slow tests.
@pytest.mark.slow
def test_the_solver_claims_every_score_and_calls_every_under_claim(tmp_path: Path) -> None:
    # a small budget (under a second): what is tested is the claims, not the play
    solver = SolverStrategy(samples=2, node_limit=1_000)
    out = play_match(SPINNER, ["Ana", "Budi"], [solver, CarelessStrategy(0.5)],
                     random.Random("a"), target=120)
    scored = [s for s in walk(out.record, SPINNER) if s.points]
    mine = [s for s in scored if s.placer == 0]
    assert mine and all(s.claimed == s.points for s in mine)
    missed = [s for s in scored if s.placer == 1 and s.claimed < s.points]
    assert missed and all(s.call == (0, s.points - s.claimed) for s in missed)
    assert out.claims == counted(out.record, SPINNER)
    checked(tmp_path, out)


def test_same_seed_same_match_other_seed_other_match() -> None:
    first = write_match(careless_match(4).record)
    assert write_match(careless_match(4).record) == first
    assert write_match(careless_match(5).record) != first


@pytest.mark.parametrize("seed", [0, 1])
def test_nobody_under_claims_nobody_calls(seed: int) -> None:
    # forget 0: careless never draws from the match's stream, so the record
    # is greedy's to the byte (the names apart), and nothing is called
    kinds = [CarelessStrategy(0.0), GreedyStrategy()]
    out = play_match(SPINNER, ["Ana", "Budi"], kinds, random.Random(seed))
    ref = play_match(SPINNER, ["Ana", "Budi"], [GreedyStrategy(), GreedyStrategy()],
                     random.Random(seed))
    assert write_match(out.record) == write_match(ref.record)
    assert not any(isinstance(line, m.MugginsCall) for line in out.record.body)
    assert all(c.claimed == c.made and c.shown == 0 for c in out.claims)


def test_rules_without_muggins_ask_nobody() -> None:
    # pagat: every score counts by itself; careless is greedy, every claim written
    pagat = load_preset("pagat")
    out = play_match(pagat, ["Ana", "Budi"], [CarelessStrategy(1.0), GreedyStrategy()],
                     random.Random(3), target=60)
    ref = play_match(pagat, ["Ana", "Budi"], [GreedyStrategy(), GreedyStrategy()],
                     random.Random(3), target=60)
    assert write_match(out.record) == write_match(ref.record)
    assert out.claims == [Claims(), Claims()]


# ----------------------------------------------------------------------
# Hand-made positions: docs/rules.md's spinner numbers


def t(text: str) -> Tile:
    return Tile.parse(text)


ANA = [t(x) for x in ("5-5", "3-5", "6-6", "1-1", "0-1", "2-6", "1-2")]
BUDI = [t(x) for x in ("0-5", "0-2", "4-4", "3-3", "1-4", "1-6", "2-2")]


def dealer(round_number: int) -> RoundDeal:
    """Ana leads (the lot) in every round: of her tiles only 5-5 scores as a
    lead (10; 3-5 counts 8, 2-6 8, 6-6 12, the others less)."""
    rest = [x for x in full_set(6) if x not in ANA and x not in BUDI]
    return RoundDeal((tuple(ANA), tuple(BUDI)), tuple(rest), 0)


class Script:
    """Plays the moves given, then greedy; claims as given (then in full)."""

    name = "script"

    def __init__(self, moves: Sequence[SeenMove], claims: Sequence[int] = ()) -> None:
        self.moves = list(moves)
        self.claims = list(claims)
        self.views: list[ClaimView] = []

    def choose_seen(self, rules: Rules, seen: SeatView, rng: random.Random) -> SeenMove:
        if self.moves:
            move = self.moves.pop(0)
            assert move in seen.moves
            return move
        return greedy_seen(rules, seen)

    def claim(self, rules: Rules, view: ClaimView, rng: random.Random) -> int:
        self.views.append(view)
        return self.claims.pop(0) if self.claims else view.points


def turns(out: MatchOutcome, k: int) -> list[str]:
    """The first ``k`` lines after the stock line, as written."""
    text = write_match(out.record).splitlines()
    start = next(i for i, line in enumerate(text) if line.startswith("stock ")) + 1
    return text[start:start + k]


def test_a_careless_lead_of_10_is_called_for_10_and_ends_the_match(tmp_path: Path) -> None:
    out = play_match(SPINNER, ["Ana", "Budi"], [CarelessStrategy(1.0), GreedyStrategy()],
                     random.Random(0), target=10, dealer=dealer)
    assert turns(out, 3) == ["Ana: 5-5", "Budi: muggins +10", "score Ana 0, Budi 10"]
    assert out.scores == [0, 10] and out.winner == 1
    assert out.claims == [Claims(made=1, made_points=10),
                          Claims(shown=1, shown_points=10, called=1, called_points=10)]
    checked(tmp_path, out)
    replay = check_file(str(tmp_path / "m.mgn"), keep_replays=True).replays[0]
    assert replay.ending is not None and replay.ending.reason is EndReason.MUGGINS


def test_partial_claims_are_called_for_exactly_the_rest(tmp_path: Path) -> None:
    # 5-5 (10) claimed 0 -> Budi takes 10; 5-0 on L (10) claimed in full;
    # 3-5 on R (13) scores nothing; 0-2 on the 0 (15) claimed 5 -> Ana takes 10.
    ana = Script([m_place("5-5"), m_place("3-5", End.R)], claims=[0])
    budi = Script([m_place("0-5", End.L), m_place("0-2", End.L)], claims=[10, 5])
    out = play_match(SPINNER, ["Ana", "Budi"], [ana, budi], random.Random(0), dealer=dealer)
    assert turns(out, 6) == ["Ana: 5-5", "Budi: muggins +10", "Budi: 0-5L +10", "Ana: 3-5R",
                             "Budi: 0-2L +5", "Ana: muggins +10"]
    assert [v.points for v in budi.views[:2]] == [10, 15]
    assert ana.views[0].points == 10
    first = walk(out.record, SPINNER)[:4]
    assert [(s.points, s.claimed, s.call) for s in first] == [
        (10, 0, (1, 10)), (10, 10, None), (0, 0, None), (15, 5, (0, 10))]
    checked(tmp_path, out)


def test_a_claim_that_reaches_the_target_leaves_nothing_to_call(tmp_path: Path) -> None:
    ana = Script([m_place("5-5")], claims=[5])  # 5 of 10: enough for a target of 5
    out = play_match(SPINNER, ["Ana", "Budi"], [ana, GreedyStrategy()], random.Random(0),
                     target=5, dealer=dealer)
    assert turns(out, 2) == ["Ana: 5-5 +5", "score Ana 5, Budi 0"]
    assert out.winner == 0
    checked(tmp_path, out)


def m_place(tile: str, end: End | None = None) -> SeenMove:
    return Place(t(tile), end)


# ----------------------------------------------------------------------
# Who may call, what the caller sees, what the driver refuses


class Watcher(GreedyStrategy):
    """Greedy that keeps every view it is shown and calls muggins for all
    that went unclaimed (``call``) or never."""

    def __init__(self, call: bool = False) -> None:
        self.calls = call
        self.views: list[CallView] = []

    def call(self, rules: Rules, view: CallView, rng: random.Random) -> int:
        self.views.append(view)
        return score_of(rules, count(rules, view.layout)) - view.claimed if self.calls else 0


def test_the_call_view_holds_only_what_the_table_shows() -> None:
    assert [f.name for f in fields(CallView)] == [
        "seat", "placer", "move", "layout", "claimed", "scores", "target"]
    watcher = Watcher()
    out = play_match(SPINNER, ["Ana", "Budi"], [CarelessStrategy(0.5), watcher],
                     random.Random(1), target=80)
    shown = [v for v in watcher.views if v.placer == 0]
    mine = [s for s in walk(out.record, SPINNER) if s.placer == 0]
    # shown after each of Ana's placements (but a last claim that won the
    # match), with the claim as written
    assert len(mine) - len(shown) in (0, 1) and len(shown) > 10
    assert [v.claimed for v in shown] == [s.claimed for s in mine][:len(shown)]
    assert any(s.claimed < s.points for s in mine)
    assert all(v.seat == 1 for v in shown)
    assert not any(isinstance(line, m.MugginsCall) for line in out.record.body)


def test_opponents_are_asked_clockwise_and_one_call_at_most(tmp_path: Path) -> None:
    # Ana forgets everything; Budi (next) never calls; Citra takes it all.
    budi, citra = Watcher(call=False), Watcher(call=True)
    out = play_match(SPINNER, ["Ana", "Budi", "Citra"], [CarelessStrategy(1.0), budi, citra],
                     random.Random(2), target=60)
    calls = [line for line in out.record.body if isinstance(line, m.MugginsCall)]
    assert calls and {c.player for c in calls} == {"Citra"}
    assert out.claims[1].shown == out.claims[2].shown == out.claims[2].called
    assert out.claims[1].called == 0
    checked(tmp_path, out)
    # Budi calls: Citra is never shown Ana's misses
    budi, citra = Watcher(call=True), Watcher(call=True)
    out = play_match(SPINNER, ["Ana", "Budi", "Citra"], [CarelessStrategy(1.0), budi, citra],
                     random.Random(2), target=60)
    assert {c.player for c in out.record.body if isinstance(c, m.MugginsCall)} == {"Budi"}
    assert out.claims[1].shown == out.claims[1].called > 0
    assert out.claims[2].shown == 0
    assert not any(v.placer == 0 and v.claimed < rules_points(v) for v in citra.views)
    checked(tmp_path, out, "b.mgn")


def rules_points(view: CallView) -> int:
    return score_of(SPINNER, count(SPINNER, view.layout))


class OverClaim(GreedyStrategy):
    def claim(self, rules: Rules, view: ClaimView, rng: random.Random) -> int:
        return view.points + 5


class OverCall(GreedyStrategy):
    def call(self, rules: Rules, view: CallView, rng: random.Random) -> int:
        return 5


def test_a_claim_or_call_the_rules_forbid_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="claims 15 for 5-5, which scores 10"):
        play_match(SPINNER, ["Ana", "Budi"], [OverClaim(), GreedyStrategy()],
                   random.Random(0), dealer=dealer)
    with pytest.raises(IllegalMoveError, match="calls muggins for 5 on 5-5, which left 0"):
        play_match(SPINNER, ["Ana", "Budi"], [GreedyStrategy(), OverCall()],
                   random.Random(0), dealer=dealer)


def test_careless_takes_a_probability() -> None:
    assert isinstance(make_strategy("careless", forget=0.25), CarelessStrategy)
    with pytest.raises(InputError, match="forget must be a probability"):
        make_strategy("careless", forget=1.5)
    assert isinstance(make_strategy("random"), RandomStrategy)


# ----------------------------------------------------------------------
# The arena and the commands


def test_the_arena_counts_what_was_credited() -> None:
    spec = ArenaSpec("greedy", "careless", SPINNER, seed=3, forget=0.3)
    games = play_pair(spec, 0, keep_records=True)
    result = tally(spec, games)
    want = [Claims(), Claims()]
    for g in games:
        assert g.record is not None
        per_seat = counted(g.record, SPINNER)
        for seat, side in enumerate(g.sides):
            want[side] += per_seat[seat]
    assert [s.claims for s in result.sides] == want
    greedy, careless = want
    assert greedy.claimed == greedy.made and greedy.called == greedy.shown > 0
    assert careless.claimed < careless.made and careless.shown == 0


def test_selfplay_and_arena_commands_offer_careless(tmp_path: Path) -> None:
    out = tmp_path / "c.mgn"
    result = runner.invoke(app, ["selfplay", "--rules", "spinner", "--strategy",
                                 "greedy,careless", "--forget", "0.5", "--seed", "2", "-q",
                                 "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "muggins +" in out.read_text()
    assert check_file(str(out)).diagnostics == []
    result = runner.invoke(app, ["arena", "greedy", "careless", "--rules", "spinner",
                                 "--matches", "1", "-q"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("greedy claimed ") for line in lines)
    assert any(line.startswith("careless claimed ") for line in lines)
    bad = runner.invoke(app, ["arena", "greedy", "careless", "--forget", "2"])
    assert bad.exit_code == 2
