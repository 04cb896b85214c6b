"""One set of words and numbers for one fact: analyze's stderr, its text
report, its JSON, the record it annotates and the study page say the same
of every weighed turn of every record in ``records/``.

Each output is read as a user reads it (the sentences, the warnings, the
glyphs in the record, the page's sections), never through the code that
writes it, and the disagreements are listed; there must be none.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins_cli.cli import app

from .conftest import RECORDS

runner = CliRunner()

#: A small budget, the same for every command: what is compared is what the
#: outputs say, not how well the solver judged.
BUDGET = ["--solver", "--max-samples", "8", "--deal-nodes", "20000", "--seed", "0",
          "--jobs", "1"]
COUNTS = re.compile(r"weighed (\d+) of (\d+) turns(?:; (\d+) forced \(one legal move\))?"
                    r"(?:; (\d+) not weighed)?")
#: The report's line for each verdict it counts without a mark: its words
#: as the reader sees them, then the count.
SAID = {"close": re.compile(r"^close to the mistake line: (\d+) turns? ", re.M),
        "uncertain": re.compile(r"^uncertain: (\d+) turns? ", re.M)}
#: A solver's note that carries a verdict's words (no glyph says them).
NOTE_SAYS = re.compile(r"points better by the end of the round: "
                       r"(close to the mistake line|uncertain)\}")
NOTE_WORDS = {"close to the mistake line": "close", "uncertain": "uncertain"}
GLYPH = re.compile(r"^[^:#{]+: .*?(?:\d+-\d+[A-Z]?|pass)(\?\?|\?!|!\?|\?|!!|!)(?=\s|$)")


def _counts(text: str, where: str) -> tuple[int, int, int, int]:
    found = {m.groups() for m in COUNTS.finditer(text)}
    assert len(found) == 1, (where, found)
    weighed, total, forced, unweighed = found.pop()
    return int(weighed), int(total), int(forced or 0), int(unweighed or 0)


def _glyph_lines(text: str) -> dict[int, str]:
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = GLYPH.match(line.split("{", 1)[0])
        if m:
            out[n] = m[1]
    return out


def _page_turns(page: str) -> dict[tuple[int, int], tuple[str, str | None, str | None]]:
    """(round, turn) -> the verdict its section is shown with, the play
    tagged best and the play tagged played among its candidates."""
    out = {}
    for m in re.finditer(r'<section class="board" id="r(\d+)t(\d+)"[^>]*'
                         r'data-verdict="([a-z]+)"(.*?)</section>', page, re.S):
        body = m[4]
        best = played = None
        for row in re.findall(r'<tr class="cand([^"]*)">(.*?)</tr>', body, re.S):
            play = html.unescape(re.search(r'<span class="mgn">([^<]*)', row[1])[1])  # type: ignore[index]
            if " best" in row[0]:
                best = play
            if " played" in row[0]:
                played = play
        out[int(m[1]), int(m[2])] = (m[3], best, played)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("record", sorted(p.name for p in RECORDS.glob("*.mgn")))
def test_every_output_tells_the_same_story(record: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = RECORDS / record
    for extra in RECORDS.glob("*.yaml"):
        (tmp_path / extra.name).write_bytes(extra.read_bytes())
    (tmp_path / record).write_bytes(source.read_bytes())
    told = runner.invoke(app, ["analyze", record, *BUDGET, "--annotate", "-o", "ann.mgn"])
    assert told.exit_code in (0, 1), told.output
    as_json = runner.invoke(app, ["analyze", record, *BUDGET, "-f", "json", "-q"])
    assert as_json.exit_code in (0, 1), as_json.output
    shown = runner.invoke(app, ["study", record, *BUDGET, "-o", "page.html", "-q"])
    assert shown.exit_code == 0, shown.output
    doc = json.loads(as_json.stdout)["files"][0]["matches"][0]
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    notes = " ".join(html.unescape(n) for n in re.findall(r'<p class="note">([^<]*)</p>', page))
    differ: list[str] = []

    # How many turns were weighed, forced, not weighed: one count.
    turns = doc["solver"]["turns"]
    counts = {"json": (turns["weighed"], turns["total"], turns["forced"],
                       turns["not_weighed"]),
              "stderr": _counts(told.stderr, "stderr"),
              "text": _counts(told.stdout, "text"),
              "page": _counts(notes, "page")}
    if len(set(counts.values())) != 1:
        differ.append(f"turn counts {counts}")

    # Which turns are costly: the warnings, the JSON's verdicts, the glyphs
    # written into the record (a missed score keeps its glyph where the
    # solver could not weigh the turn), the page's sections.
    warned = {int(m[1]): m[2] for m in re.finditer(
        rf"^{re.escape(record)}:(\d+):\d+: warning ([a-z-]+) ", told.stdout, re.M)}
    costly = {line for line, code in warned.items() if code == "costly-play"}
    plays = {p["line"]: p for p in doc["plays"]}
    judged = {line for line, p in plays.items()
              if p["solver"] and p["solver"]["verdict"] in ("mistake", "blunder")}
    if costly != judged:
        differ.append(f"costly-play warnings at {sorted(costly)}, JSON verdicts at "
                      f"{sorted(judged)}")
    before = _glyph_lines(source.read_text(encoding="utf-8"))
    after = _glyph_lines((tmp_path / "ann.mgn").read_text(encoding="utf-8"))
    marked = {line for line, g in after.items() if before.get(line) != g}
    if marked != set(warned):
        differ.append(f"glyphs written at {sorted(marked)}, warnings at {sorted(warned)}")

    # The verdicts without a mark (close, uncertain): the text report's count,
    # the players' counts and the plays' verdicts in the JSON, and the words
    # a solver's note in the annotated record ends with.
    for verdict, said in SAID.items():
        lines = sorted(line for line, p in plays.items()
                       if p["solver"] and p["solver"]["verdict"] == verdict)
        in_text = sum(int(m[1]) for m in said.finditer(told.stdout))
        by_player = sum(pl["solver"][verdict] for pl in doc["players_summary"])
        if not len(lines) == in_text == by_player:
            differ.append(f"{verdict}: {len(lines)} plays in JSON ({lines}), {by_player} by "
                          f"the JSON's players, {in_text} in the text report")
    noted = {n: NOTE_WORDS[m[1]] for n, text in enumerate(
        (tmp_path / "ann.mgn").read_text(encoding="utf-8").splitlines(), 1)
        for m in [NOTE_SAYS.search(text)] if m}
    for line, said_verdict in sorted(noted.items()):
        s = plays[line]["solver"] if line in plays else None
        if s is None or s["verdict"] != said_verdict:
            differ.append(f"line {line}: the note says {said_verdict}, JSON "
                          f"{s['verdict'] if s else 'has no solver verdict'}")

    # Each turn's section on the page: its verdict, the best play, the play made.
    sections = _page_turns(page)
    weighed = 0
    for line, p in sorted(plays.items()):
        s = p["solver"]
        if s is None:
            continue
        got = sections.get((p["round"], p["turn"]))
        if got is None:
            differ.append(f"line {line}: no section r{p['round']}t{p['turn']}")
            continue
        verdict, best, played = got
        if s["choices"] == 1:
            want = "forced"
        elif s["not_weighed"] is not None:
            want = "unweighed"
        else:
            weighed += 1
            want = (s["verdict"] if s["verdict"] in ("mistake", "blunder", "close", "uncertain")
                    else None)
            if best != s["best"]:
                differ.append(f"line {line}: best {s['best']} in JSON, {best} on the page")
            if played != p["played"]:
                differ.append(f"line {line}: played {p['played']} in JSON, {played} on the page")
        if want is not None and verdict != want:
            differ.append(f"line {line}: {want} in JSON, {verdict} on the page")
        if want is None and verdict not in ("fine", "best"):
            differ.append(f"line {line}: weighed without a verdict in JSON, {verdict} on the page")
    if weighed != counts["json"][0]:
        differ.append(f"{weighed} plays weighed in the JSON's plays, {counts['json'][0]} counted")
    assert differ == [], "\n".join(differ)
