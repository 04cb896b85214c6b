"""``muggins stats`` on a fixed small corpus, exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app
from muggins_cli.report.stats import CorpusStats, file_stats

from .records import CLUB, THREES

runner = CliRunner()

TABLE = """\
corpus
---------------  ----
files               3
unreadable          1
matches             3
finished            2
rounds              3
turns               6
players             5
points per turn  5.33
missed points      15
errors              2
warnings            1

player      matches    wins    turns    points    points/turn    missed
--------  ---------  ------  -------  --------  -------------  --------
Ana               2       1        3        20           6.67         0
Budi              2       0        2         0           0.00        15
Chen              1       0        0         0           0.00         0
Dara              1       0        0         0           0.00         0
Eko               1       1        1        12          12.00         0

player    opponent      matches    player's wins    opponent's wins
--------  ----------  ---------  ---------------  -----------------
Ana       Budi                2                1                  0
Chen      Dara                1                0                  0
Chen      Eko                 1                0                  1
Dara      Eko                 1                0                  1

diagnostic        count
--------------  -------
score-mismatch        1
unfinished            1
unreadable            1
"""


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "club.mgn").write_text(CLUB, encoding="utf-8")
    (tmp_path / "threes.mgn").write_text(THREES, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "broken.mgn").write_bytes(b'[Event "x"]\n\xff\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stats_table_exactly(corpus: Path, jobs: str) -> None:
    result = runner.invoke(app, ["stats", ".", "--jobs", jobs])
    assert result.exit_code == 2  # sub/broken.mgn cannot be read
    assert result.stdout == TABLE
    # The table counts the unreadable file; stderr says which it is and why.
    assert result.stderr == ("read 3 files\n"
                             "sub/broken.mgn:0:0: error unreadable cannot read sub/broken.mgn: "
                             "not UTF-8 text (line 2, byte 1)\n")


def test_stats_json_exactly(corpus: Path) -> None:
    result = runner.invoke(app, ["stats", "club.mgn", "threes.mgn", "-f", "json", "-q",
                                 "--top", "2"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "files": 2, "unreadable": 0, "matches": 3, "finished": 2, "rounds": 3, "turns": 6,
        "players": 5, "points": 32, "points_per_turn": 5.33, "missed": 15, "errors": 1,
        "warnings": 1,
        "by_player": [
            {"name": "Ana", "matches": 2, "wins": 1, "turns": 3, "points": 20,
             "points_per_turn": 6.67, "missed": 0},
            {"name": "Budi", "matches": 2, "wins": 0, "turns": 2, "points": 0,
             "points_per_turn": 0.0, "missed": 15},
        ],
        "head_to_head": [
            {"players": ["Ana", "Budi"], "matches": 2, "wins": [1, 0]},
            {"players": ["Chen", "Dara"], "matches": 1, "wins": [0, 0]},
        ],
        "diagnostic_codes": [{"code": "score-mismatch", "count": 1},
                             {"code": "unfinished", "count": 1}],
    }


def test_merging_files_gives_the_whole(corpus: Path) -> None:
    whole = CorpusStats()
    for name in ("club.mgn", "threes.mgn", "club.mgn"):
        whole.merge(file_stats(name))
    assert (whole.files, whole.matches, whole.points, whole.missed) == (3, 5, 52, 30)
    assert whole.players["Ana"].matches == 4
    assert whole.codes["score-mismatch"] == 2
    assert whole.pairs[("Ana", "Budi")] == [4, 2, 0]
    assert whole.pairs[("Chen", "Eko")] == [1, 0, 1]


def test_no_files_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["stats", str(tmp_path)])
    assert result.exit_code == 2
    assert "no .mgn files found" in result.stderr
