"""The replay's one-step placement (``Replayer._replay_quickly``, issue 13) is
exactly the general turn replay for the turns it takes: every record of the
project and of the conformance corpus, and self-played matches under every
preset, as kept and damaged in many ways (deals hidden, draws hidden, a
line dropped or doubled, a digit or an end letter changed, a claim
changed), replayed with it and without it, give the same diagnostics,
summary and ending."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

import pytest

from muggins_cli.check import record_resolver
from muggins_cli.notation.model import BodyLine, Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.notation.writer import write_match
from muggins_cli.play.selfplay import play_match
from muggins_cli.play.strategies import GreedyStrategy, RandomStrategy
from muggins_cli.replay import replay as replay_module
from muggins_cli.replay.replay import MatchReplay, replay_match
from muggins_cli.rules.loader import load_preset
from tests.conftest import CORPUS, RECORDS, files


def _plainly(self: replay_module.Replayer, body: Iterable[BodyLine]) -> None:
    for item in body:
        self._line(item)


def _both(text: str, path: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Replay every match of ``text`` both ways; how many turns the quick
    way took (the general way's turns less the quick way's)."""
    taken = 0
    general = replay_module.Replayer._turn

    def counted(self: replay_module.Replayer, t: Turn) -> None:
        nonlocal taken
        taken -= 1
        general(self, t)

    resolve = record_resolver(path)
    for match in parse_text(text):
        with monkeypatch.context() as m:
            m.setattr(replay_module.Replayer, "_turn", counted)
            fast = replay_match(match, resolve)
            taken += fast.summary.turns
        with monkeypatch.context() as m:
            m.setattr(replay_module.Replayer, "_replay_quickly", _plainly)
            slow = replay_match(match, resolve)
        assert _seen(fast) == _seen(slow)
    return taken


def _seen(replay: MatchReplay) -> tuple[object, ...]:
    return replay.summary, replay.diagnostics, replay.ending


def test_every_record_replays_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = 0
    for path in files(RECORDS) + CORPUS:
        taken += _both(path.read_text(encoding="utf-8", errors="replace"), str(path),
                       monkeypatch)
    assert taken > 1000, "most placements go the quick way"


def _hidden(text: str) -> str:
    """The record as kept without deals: no deal or stock lines, every draw d??."""
    kept = [line for line in text.splitlines()
            if not line.startswith(("deal ", "stock "))]
    return "\n".join(re.sub(r"\bd[0-9]+-[0-9]+", "d??", line) for line in kept) + "\n"


def _damaged(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line and not line.startswith("[")]
    i = rng.choice(body)
    how = rng.randrange(6)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[i])
    elif how == 2:
        digits = [j for j, c in enumerate(lines[i]) if c.isdigit()]
        if digits:
            j = rng.choice(digits)
            lines[i] = lines[i][:j] + str(rng.randrange(10)) + lines[i][j + 1 :]
    elif how == 3:
        lines[i] = re.sub(r"(?<=[0-9])[LRUD]\b", rng.choice("LRUD"), lines[i], count=1)
    elif how == 4:
        lines[i] = re.sub(r" \+[0-9]+$", "", lines[i]) if " +" in lines[i] \
            else lines[i] + " +" + str(rng.choice((5, 10, 15)))
    else:
        lines[i], lines[i - 1] = lines[i - 1], lines[i]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("preset", ["pagat", "spinner", "all-threes"])
def test_self_played_records_replay_the_same_both_ways(
        preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_preset(preset)
    rng = random.Random(f"quick-{preset}")
    taken = 0
    for players in (2, 3, 4):
        if players not in rules.players:
            continue
        names = ["Ana", "Budi", "Citra", "Dewi"][:players]
        strategies = [GreedyStrategy(), RandomStrategy()] * 2
        outcome = play_match(rules, names, strategies[:players], rng, rules_tag=preset,
                             target=60)
        text = write_match(outcome.record)
        for variant in (text, _hidden(text)):
            taken += _both(variant, "-", monkeypatch)
            for _ in range(25):
                _both(_damaged(variant, rng), "-", monkeypatch)
    assert taken > 50
