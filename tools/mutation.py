"""Mutation testing of the rules of a turn and of the replay that holds a
record to them: do the tests notice when one of these lines is wrong?

    nohup nice -n 10 python tools/mutation.py > mutation.log &   # every mutant
    python tools/mutation.py --report            # the figures of the last run
    python tools/mutation.py --again --survivors # after adding tests

Copies the project to ``--workdir`` (the tree is never touched), adds
mutmut's settings to the copy's ``pyproject.toml`` and runs ``mutmut run``
there: each mutant (an operator, a number, a comparison, a call's argument
changed in one function) of the engine's turn rules (``engine/turn.py``,
``engine/keys.py``) and of the round tracker (``replay/tracker.py`` and the
modules it calls: ``opening``, ``closing``, ``ends``, ``faults``,
``state``, ``deduce``) is run against the tests that reach it (mutmut
first runs them once to see which tests call which function), fastest
first, stopping at the first failure. Then prints, by module, how many
mutants were killed, survived, are listed as equivalent (``EQUIVALENT``,
each with its reason) or were not run, and names each survivor
(``mutmut show NAME`` in the work folder shows its diff); the exit status
is 1 when a mutant was not run or fewer than 95% of the mutants not
equivalent were killed.

``--again`` goes on in the work folder with the tree's sources and tests
copied over it: the mutants of a function that changed are made and run
anew, the others keep their result, so ``--again --survivors`` runs only
those and the survivors against the tests added since.

Not in CI: every mutant takes about four hours on two busy cores. Needs
mutmut 3 (``pip install mutmut``; not a dependency of the project).
Hypothesis runs derandomized (``CI=true``), so a run is repeatable.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MUTATED = [
    "src/muggins_cli/engine/turn.py",
    "src/muggins_cli/engine/keys.py",
    "src/muggins_cli/replay/tracker.py",
    "src/muggins_cli/replay/opening.py",
    "src/muggins_cli/replay/closing.py",
    "src/muggins_cli/replay/ends.py",
    "src/muggins_cli/replay/faults.py",
    "src/muggins_cli/replay/state.py",
    "src/muggins_cli/replay/deduce.py",
]

#: The tests that hold these rules: the rules case by case, the worked
#: numbers, a record per diagnostic, the conformance corpus and the replay's
#: hardening. The solver's tests and the engine's property tests are left
#: out: they take minutes per mutant, and a mutant they alone would catch
#: is a gap in these.
TESTS = [
    "tests/test_turn_rules.py",
    "tests/test_replay_rules.py",
    "tests/test_worked_numbers.py",
    "tests/test_check.py",
    "tests/test_muggins_calls.py",
    "tests/test_match_end_lead_rounding.py",
    "tests/test_conformance.py",
    "tests/test_replay_hardening.py",
    "tests/test_keyword_case.py",
    "tests/test_faults_cases.py",
    "tests/test_closing_cases.py",
    "tests/test_turn_cases.py",
    "tests/test_recovery.py",
    "tests/test_opening_cases.py",
    "tests/test_ends_cases.py",
    "tests/test_tracker_cases.py",
    "tests/test_keys_model.py",
    "tests/test_turn_mutants.py",
    "tests/test_keys_mutants.py",
    "tests/test_ends_mutants.py",
    "tests/test_opening_mutants.py",
    "tests/test_opening_deals.py",
    "tests/test_closing_mutants.py",
    "tests/test_turn_event_credits.py",
    "tests/test_tracker_mutants.py",
]

#: Tests of those files that need the solver.
SOLVER_TESTS = "not solver and not movers_view and not costly"

SETTINGS = """
[tool.mutmut]
source_paths = ["src"]
only_mutate = {mutated}
also_copy = ["docs", "records", "schemas", "src/muggins_cli/docs", "conftest.py"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-m", "not slow",
                       "-k", "{solver}"]
{{tests}}
# Each mutant forks from a server that has only collected the tests: forked
# from the process that ran them, it would inherit the layout tables they
# filled, and a mutant of engine/keys.py behind the table's memo would
# never run.
process_isolation = "forkserver"
forkserver_warmup = "collect"
"""


#: The copy's own ``conftest.py``, read before the tests' own. mutmut
#: wraps each function of a mutated module in a trampoline (a closure that
#: calls the original or the mutant under test), and Numba compiles no
#: closure; the solver's kernel compiles every function of engine/keys.py
#: and engine/turn.py when it is imported, as the tests' conftest does
#: (through the analysis). So the kernel is built here from the functions
#: as written (each trampoline's ``__wrapped__``), the mutants hidden while
#: it looks, and every module imported meanwhile is given the trampolines
#: back. The solver's tests are not in the run: a mutant is judged by the
#: tests that call the engine as Python, where its trampoline runs it.
KERNEL_CONFTEST = '''"""Written by tools/mutation.py: the solver's kernel compiled from the
engine's functions as written, since Numba cannot compile mutmut's
trampolines (see KERNEL_CONFTEST there)."""

import sys
import types

from muggins_cli.engine import keys, turn

_saved = {mod: dict(vars(mod)) for mod in (keys, turn)}
_trampoline_of = {}
try:
    for _mod in (keys, turn):
        for _name, _value in list(vars(_mod).items()):
            if _name.startswith(("x_", "mutants_x_")):
                delattr(_mod, _name)
            elif isinstance(_value, types.FunctionType) and hasattr(_value, "__wrapped__"):
                _trampoline_of[id(_value.__wrapped__)] = _value
                setattr(_mod, _name, _value.__wrapped__)
    import muggins_cli.solver.kernel  # noqa: F401
finally:
    for _mod, _vars in _saved.items():
        vars(_mod).update(_vars)
    for _name, _mod in list(sys.modules.items()):
        if _name.startswith("muggins_cli.") and _name != "muggins_cli.solver.kernel":
            for _attr, _value in list(vars(_mod).items()):
                if id(_value) in _trampoline_of and _value is not _trampoline_of[id(_value)]:
                    setattr(_mod, _attr, _trampoline_of[id(_value)])
'''


def _selection(work: Path) -> str:
    """mutmut's setting that names the test files: those of ``TESTS`` the
    copy has."""
    tests = [t for t in TESTS if (work / t).exists()]
    return ("pytest_add_cli_args_test_selection = ["
            + ", ".join(f'"{t}"' for t in tests) + "]")


def prepare(work: Path, mutated: list[str]) -> None:
    """A copy of the project in ``work`` with mutmut's settings."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(
        ".git", "mutants", "__pycache__", ".data", ".mypy_cache", ".ruff_cache", ".venv"))
    (work / "conftest.py").write_text(KERNEL_CONFTEST, encoding="utf-8")
    pyproject = work / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    text = re.sub(r'\naddopts = "[^"]*"', "", text)  # the suite's own -n auto and marks
    settings = SETTINGS.format(mutated="[" + ", ".join(f'"{m}"' for m in mutated) + "]",
                               solver=SOLVER_TESTS)
    pyproject.write_text(text + settings.replace("{tests}", _selection(work)),
                         encoding="utf-8")


#: Surviving mutants no test can kill, because the code behaves the same
#: with them (names as ``mutmut results`` gives them, for the sources of
#: this commit: a change to a function renumbers its mutants, and the report
#: says when a name here is no survivor any more). Each says why.
_HIDDEN = ("deduce_round reads hidden[s] only as true or false (some draw of that seat "
           "was face down), and this still makes it nonzero")
#: The layout key a placement makes.
_KEY_PLACED = ("a layout key's lowest field is its kind (keys.EMPTY 0, LINE 1, SPINNER 2), "
               "so a layout holding a tile has a positive key, and _other_end answers -1 "
               "when the tile fits no end: key <= 0 and key < 1 read as key < 0")
#: The stock line first, before there is a stock line.
_STOCK_FIRST = ("stock_first is read only by shadows weighing a round with a stock line "
                "(Trials.stock_line_first, in _hands_given_away's stock branch), which sets "
                "it first: its value before, in a round without one, is never read")
#: A bare pass once the round or the match is over.
_OVER_PASS = ("a pass once the round or the match is over is played as a line too many "
              "(after-round-end, after-match-end at its line and column), whatever it is "
              "read as: the readings bad_pass weighs change neither (checked with passes "
              "after a going out and after the deciding play); the guard spares the weighing")
#: A block the placement itself makes, with every hand known.
_BLOCK_KNOWN = ("credited ends a round as blocked only when _blocked says so, which needs "
                "every hand known, and end_blocked reads line, column and inferred only for "
                "the note of a block taken on trust, with some hand hidden")
EQUIVALENT: dict[str, str] = {
    "muggins_cli.replay.deduce.x_deduce_round__mutmut_22": _HIDDEN,  # get(s, 0) - 1
    "muggins_cli.replay.deduce.x_deduce_round__mutmut_23": _HIDDEN,  # get(None, 0) + 1
    "muggins_cli.replay.deduce.x_deduce_round__mutmut_27": _HIDDEN,  # get(s, 1) + 1
    "muggins_cli.replay.deduce.x_deduce_round__mutmut_28": _HIDDEN,  # get(s, 0) + 2
}
_ONCE_GUARD = ("the test before the note only spares building its words: report.unverified "
               "gives one note per kind and round by itself")
_ONCE_KEY = ("the kind is only the key of the note given once a round, and this one "
             "(None, XX..XX, upper case) is still a key no other note uses")
EQUIVALENT.update({
    "muggins_cli.replay.faults.x_claim_mismatch__mutmut_2":
        "and -> or in an assert its callers always meet (a claim on a placement)",
    "muggins_cli.replay.faults.x_draw_faults__mutmut_68": _ONCE_GUARD,  # "XXdrawXX" not in
    "muggins_cli.replay.faults.x_draw_faults__mutmut_69": _ONCE_GUARD,  # "DRAW" not in
    "muggins_cli.replay.faults.x_draw_faults__mutmut_75": _ONCE_KEY,  # kind None
    "muggins_cli.replay.faults.x_draw_faults__mutmut_82": _ONCE_KEY,  # kind "XXdrawXX"
    "muggins_cli.replay.faults.x_draw_faults__mutmut_83": _ONCE_KEY,  # kind "DRAW"
    "muggins_cli.replay.faults.x_pass_fault__mutmut_3": _ONCE_GUARD,  # "XXpassXX" not in
    "muggins_cli.replay.faults.x_pass_fault__mutmut_4": _ONCE_GUARD,  # "PASS" not in
    "muggins_cli.replay.faults.x_pass_fault__mutmut_10": _ONCE_KEY,  # kind None
    "muggins_cli.replay.faults.x_pass_fault__mutmut_17": _ONCE_KEY,  # kind "XXpassXX"
    "muggins_cli.replay.faults.x_pass_fault__mutmut_18": _ONCE_KEY,  # kind "PASS"
    "muggins_cli.replay.faults.x_place_faults__mutmut_79": _ONCE_GUARD,  # "XXin-handXX" not in
    "muggins_cli.replay.faults.x_place_faults__mutmut_80": _ONCE_GUARD,  # "IN-HAND" not in
    "muggins_cli.replay.faults.x_place_faults__mutmut_86": _ONCE_KEY,  # kind None
    "muggins_cli.replay.faults.x_place_faults__mutmut_93": _ONCE_KEY,  # kind "XXin-handXX"
    "muggins_cli.replay.faults.x_place_faults__mutmut_94": _ONCE_KEY,  # kind "IN-HAND"
    "muggins_cli.replay.faults.x_place_faults__mutmut_100":
        "and -> or in an assert its callers always meet (a placement naming an end)",
})
_ONCE_A_MATCH = ("check_result gives this note once, as the match's last step, so the "
                 "once-a-round key and round it is filed under are never asked again")
_ONE_TOTALS_NOTE = ("score_line's note is reached only while the totals are uncertain, which "
                    "it ends itself, and they become so only at a round's settlement, once "
                    "a round: the once-a-round key is never asked again")
EQUIVALENT.update({
    "muggins_cli.replay.closing.x_muggins_line__mutmut_9":  # nothing pending: rest 1, not 0
        "with no placement to call on, call_fault answers before it reads what was left "
        "unclaimed, and no message says it",
    "muggins_cli.replay.closing.x__take_totals__mutmut_4":  # loose = ... = None
        "None for False: loose and scores_uncertain are only ever read as true or false",
    "muggins_cli.replay.closing.x__unfinished__mutmut_2": _ONCE_A_MATCH,  # round None
    "muggins_cli.replay.closing.x__unfinished__mutmut_5": _ONCE_A_MATCH,  # kind None
    "muggins_cli.replay.closing.x__unfinished__mutmut_16": _ONCE_A_MATCH,  # "XXresultXX"
    "muggins_cli.replay.closing.x__unfinished__mutmut_17": _ONCE_A_MATCH,  # "RESULT"
    "muggins_cli.replay.closing.x__unfinished__mutmut_12":  # the tag's line never taken
        "the note of totals hidden hands leave unknown is reached only without a Result "
        "tag (a tag of * returns first, one naming a player gives the winner, any other "
        "is a result-mismatch), so the match's own line is the line either way",
    "muggins_cli.replay.closing.x_check_result__mutmut_18":
        "and -> or in an assert its callers always meet (a value that names a player comes "
        "from a tag)",
    "muggins_cli.replay.closing.x_check_result__mutmut_21": _ONCE_A_MATCH,  # round None
    "muggins_cli.replay.closing.x_check_result__mutmut_24": _ONCE_A_MATCH,  # kind None
    "muggins_cli.replay.closing.x_check_result__mutmut_31": _ONCE_A_MATCH,  # "XXresultXX"
    "muggins_cli.replay.closing.x_check_result__mutmut_32": _ONCE_A_MATCH,  # "RESULT"
    "muggins_cli.replay.closing.x_score_line__mutmut_11": _ONE_TOTALS_NOTE,  # round None
    "muggins_cli.replay.closing.x_score_line__mutmut_14": _ONCE_KEY,  # kind None
    "muggins_cli.replay.closing.x_score_line__mutmut_21": _ONCE_KEY,  # "XXtotalsXX"
    "muggins_cli.replay.closing.x_score_line__mutmut_22": _ONCE_KEY,  # "TOTALS"
    "muggins_cli.replay.closing.x_score_line__mutmut_28":  # scores_uncertain = None
        "None for False: scores_uncertain is only ever read as true or false",
    "muggins_cli.replay.closing.x_settle_round__mutmut_16":  # round None
        "settle_round gives its note once a round by itself: the round is settled in the "
        "same step, and a settled round is never settled again",
    "muggins_cli.replay.closing.x_settle_round__mutmut_19": _ONCE_KEY,  # kind None
    "muggins_cli.replay.closing.x_settle_round__mutmut_27": _ONCE_KEY,  # "XXsettlementXX"
    "muggins_cli.replay.closing.x_settle_round__mutmut_28": _ONCE_KEY,  # "SETTLEMENT"
    "muggins_cli.replay.closing.x_settle_round__mutmut_39":  # deltas = [1] * n
        "engine.turn.settle sets every entry of the list it fills to 0 first, so what it "
        "held before is never read",
    "muggins_cli.replay.closing.x_reveal_line__mutmut_86":  # known <= shown -> known < shown
        "a hand not complete has fewer known tiles than its size, and the reveal is "
        "already held to that size in different tiles, so the known ones can never be "
        "all it lists: subset and proper subset agree",
})

_FALSY = ("None for False as drawn_fits: draw_faults, pass_fault and turn_options only "
          "test it for truth (if/elif drawn_fits), and None is false as False is")
_SELF = ("the loop's first turn compares the value it starts from with itself, which is "
         "never strictly less (more), so it changes nothing")
_EQUAL = ("on equal values the running extreme is replaced by the same value, so it ends "
          "the same")
EQUIVALENT.update({
    "muggins_cli.engine.turn.x_credited__mutmut_4":  # claimed <= 0
        "a claim of 0 credits 0 either way: the real code returns claimed, which is 0",
    "muggins_cli.engine.turn.x_credited__mutmut_5":  # claimed < 1
        "a claim of 0 credits 0 either way: the real code returns claimed, which is 0",
    "muggins_cli.engine.turn.x_drawable__mutmut_5":  # d >= 0
        "at d == 0 both branches return 0",
    "muggins_cli.engine.turn.x_may_draw__mutmut_7": _FALSY,
    "muggins_cli.engine.turn.x_must_pass__mutmut_4": _FALSY,
    "muggins_cli.engine.turn.x_turn_options__mutmut_14": _FALSY,
    "muggins_cli.engine.turn.x_turn_options__mutmut_28": _FALSY,
    "muggins_cli.engine.turn.x_turn_options__mutmut_35":  # out = MUST_PASS
        "pass_fault is PASS_OK only when held is not YES, and held is YES or NO here, so "
        "out is still 0 when MUST_PASS is or-ed in",
    "muggins_cli.engine.turn.x_settle__mutmut_14":  # winner = None
        "the first value is never read: went_out is written over it under winner-takes, "
        "else every seat with the lightest hand (at least one) is, and a share returns",
    "muggins_cli.engine.turn.x_settle__mutmut_23": _SELF,  # range(n) for the lightest
    "muggins_cli.engine.turn.x_settle__mutmut_26": _EQUAL,  # pips[i] <= lightest
    "muggins_cli.engine.turn.x_winner_at_settlement__mutmut_14": _SELF,  # range(n) for top
    "muggins_cli.engine.turn.x_winner_at_settlement__mutmut_18": _EQUAL,  # >= top
    "muggins_cli.engine.turn.x_after_placement__mutmut_8":  # blocked(None, ...)
        "blocked reads key only as key == EMPTY, and the layout after a placement holds "
        "that tile, so its key is never EMPTY (0: its low bits say LINE or SPINNER)",
})

_SWAP_EQUAL = ("swapping two equal arm codes rebuilds the same key (every bit of a key is "
               "its kind, lone mark, spinner pip or an arm)")
_NOT_DOUBLE = ("place_key reads r and pip only to see a double (outer == pip) and build its "
               "spinner; in this branch hi is the pip and lo is not, so no double, either way")
_NEVER_ZERO = ("place_tile gives -1 or a key whose low bits say LINE or SPINNER, never 0, so "
               "< 0, <= 0 and < 1 agree")
EQUIVALENT.update({
    "muggins_cli.engine.keys.x_canonical__mutmut_15": _SWAP_EQUAL,  # right <= left
    "muggins_cli.engine.keys.x_canonical__mutmut_47": _SWAP_EQUAL,  # a1 <= a0
    "muggins_cli.engine.keys.x_canonical__mutmut_49": _SWAP_EQUAL,  # a3 <= a2
    "muggins_cli.engine.keys.x_count__mutmut_47":  # range(5)
        "a fifth arm reads bits 41-48 of a spinner's key, always 0 (D ends at bit 40): "
        "code 0 is not NONE and adds 0 pips",
    "muggins_cli.engine.keys.x_max_place__mutmut_19": _EQUAL,  # s >= best
    "muggins_cli.engine.keys.x_open_pip__mutmut_30":  # R read at SPIN_AT + 9
        "reads R's pip (at most 99, so not 255) with U's low bit on top: it differs from "
        "R == NONE only with R empty and U holding a tile, which sides_first forbids "
        "(with U empty too it reads 255, so it forbids it as well)",
    "muggins_cli.engine.keys.x_place_tile__mutmut_24": _NOT_DOUBLE,  # place_key(None, ...)
    "muggins_cli.engine.keys.x_place_tile__mutmut_27": _NOT_DOUBLE,  # pip None
    "muggins_cli.engine.keys.x_rule_ints__mutmut_5":  # [1] * R_SIZE
        "every one of the R_SIZE fields is written after, so the first value is never read",
    "muggins_cli.engine.keys.x_score__mutmut_2":  # total < 0
        "a total of 0 scores 0 either way: 0 % modulus is 0, and 0 or 0 // modulus is 0",
    "muggins_cli.engine.keys.x_score__mutmut_3":  # total <= 1
        "the rules schema makes the modulus at least 2, so a total of 1 is no multiple of "
        "it and scores 0 either way",
    "muggins_cli.engine.keys.x_search_moves_into__mutmut_13":  # fit >> ti | 1: no skip
        "the fit mask only skips early: a tile of the set outside it fits no end "
        "(fit_mask and place_tile read the same open_pip), so place_tile refuses it anyway",
    "muggins_cli.engine.keys.x_search_moves_into__mutmut_25":  # max(ends_of, 2)
        "only an empty table has fewer than 2 ends, and its second pass leads the same "
        "tile to the same key, which the seen check drops",
    "muggins_cli.engine.keys.x_search_moves_into__mutmut_45": _NEVER_ZERO,  # nkey <= 0
    "muggins_cli.engine.keys.x_search_moves_into__mutmut_46": _NEVER_ZERO,  # nkey < 1
    "muggins_cli.engine.keys.x_search_moves_into__mutmut_50":  # seen = None
        "seen is only read for truth, and None is false as False is",
})

_LR_OPEN = ("dead branch: choose_end is only asked once the round is open (key not EMPTY), "
            "and L and R are open on every layout (a line's two ends; a spinner's L and R, "
            "shown the spinner's pip while empty), so an end not open is U or D")
EQUIVALENT.update({
    "muggins_cli.replay.ends.x__end_needed__mutmut_46":  # call_fault(r, None, ...)
        "None for False as called: call_fault only tests it for truth (if called)",
    "muggins_cli.replay.ends.x_choose_end__mutmut_25":  # in "XXLRXX"
        "an end's value is one letter of L, R, U, D: in \"XXLRXX\" just as in \"LR\"",
    "muggins_cli.replay.ends.x_choose_end__mutmut_26": _LR_OPEN,  # in "lr"
    "muggins_cli.replay.ends.x_choose_end__mutmut_27": _LR_OPEN,  # why = None
    "muggins_cli.replay.ends.x_choose_end__mutmut_28": _LR_OPEN,  # "XXthat ... openXX"
    "muggins_cli.replay.ends.x_choose_end__mutmut_29": _LR_OPEN,  # upper case
})

_ONE_LEAD_NOTE = ("the note is asked for once a round at most (check_leader runs at a "
                  "round's first turn, which then counts as played), so its once-a-round "
                  "key and round are never asked again")
_PLACED = ("the answer of check_leader only spares a bare pass its empty-table finding; "
           "this one is given only for a placement (a tile led), which nothing reads it for")
_ASKED_AGAIN = ("double_holder's answer before the round opens only sends the first turn to "
                "readings._astray, which opens the round and asks again, and the started "
                "branch reads rnd.by_deal as _lead_by_deal set it (false wherever these name a "
                "holder the code does not): the turn is then read as written, and the "
                "opening position is the same")
EQUIVALENT.update({
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_22": _ONE_LEAD_NOTE,
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_25": _ONE_LEAD_NOTE,
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_32": _ONE_LEAD_NOTE,
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_33": _ONE_LEAD_NOTE,
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_4":  # said = None
        "None for False: the answer is only read for truth (astray and ...)",
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_19": _PLACED,
    "muggins_cli.replay.opening.x__check_hidden_double_lead__mutmut_20": _PLACED,
    "muggins_cli.replay.opening.x_deal_line__mutmut_57":  # ok = None
        "None for False: ok is only read for truth (and ok)",
    "muggins_cli.replay.opening.x_deal_line__mutmut_71":  # ok = None
        "None for False: ok is only read for truth (and ok)",
    "muggins_cli.replay.opening.x__check_double_lead__mutmut_67": _PLACED,
    "muggins_cli.replay.opening.x_round_line__mutmut_25":  # since = None
        "None for 0: Report.since is only read for truth (if self.since)",
    "muggins_cli.replay.opening.x_round_line__mutmut_55":  # doubt_from(None)
        "the round left unended is only asked of again as m.prev_round, through _followed, "
        "which its not having ended already answers",
    "muggins_cli.replay.opening.x__unopened__mutmut_29":  # since = None
        "None for 0: Report.since is only read for truth (if self.since)",
    "muggins_cli.replay.opening.x_double_holder__mutmut_2":  # started: lead_tile[0] always
        "the started branch is reached only from readings._astray right after open_play, "
        "when the answer before it named a holder: every hand dealt, a double among them, "
        "so by_deal is true and lead_tile set",
    "muggins_cli.replay.opening.x_double_holder__mutmut_4":  # by_deal or lead_tile
        "the started branch is reached only from readings._astray right after open_play, "
        "when the answer before it named a holder: every hand dealt, a double among them, "
        "so by_deal is true and lead_tile set",
    "muggins_cli.replay.opening.x_double_holder__mutmut_6": _ASKED_AGAIN,  # prev = None
    "muggins_cli.replay.opening.x_double_holder__mutmut_7": _ASKED_AGAIN,  # not ... and not
    "muggins_cli.replay.opening.x_double_holder__mutmut_13": _ASKED_AGAIN,  # followed or
    "muggins_cli.replay.opening.x_double_holder__mutmut_27":  # found[1]: the double
        "the double for its holder never equals a seat, so tracker.astray sends every first "
        "turn of a deal-led round to readings._astray, which opens the round and asks "
        "again (started branch: the holder) and reads the holder's own turn as written",
    "muggins_cli.replay.tracker.xǁTrackerǁ_claimed__mutmut_6":  # no claim: -2
        "-2 for -1 as 'no claim': credited and claim_fault read it only as claimed < 0, "
        "claimed >= 0 and claimed > points (points are never negative)",
    "muggins_cli.replay.tracker.xǁTrackerǁcredited__mutmut_3":  # credit >= 0
        "MatchState.credit returns at once for points <= 0: crediting 0 changes nothing",
    "muggins_cli.replay.tracker.xǁTrackerǁcredited__mutmut_28": _BLOCK_KNOWN,  # line None
    "muggins_cli.replay.tracker.xǁTrackerǁcredited__mutmut_29": _BLOCK_KNOWN,  # column None
    "muggins_cli.replay.tracker.xǁTrackerǁcredited__mutmut_30": _BLOCK_KNOWN,  # inferred None
    "muggins_cli.replay.tracker.xǁTrackerǁcredited__mutmut_35": _BLOCK_KNOWN,  # inferred True
    "muggins_cli.replay.tracker.xǁTrackerǁastray__mutmut_17":  # leader ... or seat != leader
        "at a first turn with no leader due, or the due leader's own, readings._astray "
        "opens the round (as _turn would) and reads the line as written: only where the "
        "round is opened differs",
    "muggins_cli.replay.tracker.xǁTrackerǁ_bad_pass__mutmut_1": _OVER_PASS,  # skipping and won
    "muggins_cli.replay.tracker.xǁTrackerǁ_bad_pass__mutmut_2": _OVER_PASS,  # ended and skipping
    "muggins_cli.replay.tracker.xǁTrackerǁ_bad_pass__mutmut_3":  # not turns and ended
        _OVER_PASS + "; and at a round's first turn pass_fault answers PASS_ON_EMPTY_TABLE, "
        "which _bad_pass does not count",
    "muggins_cli.replay.tracker.xǁTrackerǁ_bad_pass__mutmut_14":  # drawn_fits None
        "None for False: pass_fault reads drawn_fits only for truth",
    "muggins_cli.replay.tracker.xǁTrackerǁ_turn__mutmut_11":  # astray = None
        "None for False: _pass reads astray only for truth",
    "muggins_cli.replay.tracker.xǁTrackerǁ_turn__mutmut_57":  # before: the layout always
        "before is read only to build turn events (self.events): the layout made without "
        "them is only work",
    "muggins_cli.replay.tracker.xǁTrackerǁ_turn__mutmut_60":  # draws asked always
        "draws loops over the turn's written draws from the first: with none it does "
        "nothing and answers None",
    "muggins_cli.replay.tracker.xǁTrackerǁplace__mutmut_35":  # no tile drawn: -2
        "-2 for -1 as 'no tile drawn': place_faults reads it only as drawn >= 0",
    "muggins_cli.replay.tracker.xǁTrackerǁplace__mutmut_40":  # moves on the empty table too
        "moves is read only with the table open (the lead takes table.lead, and "
        "_fits_as_written is asked only for key != EMPTY_KEY), or, for a shadow's first "
        "fault, beside faults & _CANNOT: on the empty table a placement is a fault only "
        "by a _CANNOT bit or a tile held elsewhere with the hand hidden, and only a "
        "hand given away (so known: no PLACE_MAYBE_HELD) is ever doubted; table.moves "
        "answers the empty key without harm: only work",
    "muggins_cli.replay.tracker.xǁTrackerǁplace__mutmut_146": _KEY_PLACED,  # key <= 0
    "muggins_cli.replay.tracker.xǁTrackerǁplace__mutmut_147": _KEY_PLACED,  # key < 1
    "muggins_cli.replay.opening.x__hands_given_away__mutmut_15": _STOCK_FIRST,  # None
    "muggins_cli.replay.opening.x__hands_given_away__mutmut_16": _STOCK_FIRST,  # False
    "muggins_cli.replay.opening.x__hands_given_away__mutmut_60":  # doubted_tile asked always
        "doubted_tile answers None at once for no given-away hand: asking it is only work",
    "muggins_cli.replay.tracker.xǁTrackerǁ_other_end__mutmut_19":  # claimed None: -2
        "-2 for -1 as 'no claim': choose_end hands claimed to _end_needed, which reads it "
        "only as claimed >= 0",
    "muggins_cli.replay.tracker.xǁTrackerǁ_other_end__mutmut_23":  # no end: key -2
        "-2 for -1 as the key of a tile that fits no end: place reads it only as key < 0 "
        "(and gives the round up)",
    "muggins_cli.replay.tracker.xǁTrackerǁ_other_end__mutmut_24":  # no end: 1 point
        "the points of a tile that fits no end: place gives the round up on key < 0 and "
        "never reads them",
})

_T = "muggins_cli.replay.tracker.xǁTrackerǁ"
_ONE_LINE = ("an event is made only by the tracker itself (shadows and invented turns make "
             "none), playing the body's line at self.index or a reading of it, and every "
             "reading (read_as, bad_pass's and placing's turns, made-up turns) keeps that "
             "line's number: body[self.index] is always a Turn on t's line, so written is it "
             "either way")
EQUIVALENT.update({
    _T + "draws__mutmut_12":  # held asked after a fitting draw too
        "draw_faults reads held only when no fitting tile was drawn this turn (its elif "
        "after drawn_fits), where the code asks _held too; _held changes nothing, so "
        "asking it after a fitting draw as well is only work",
    _T + "_blocked__mutmut_3":  # can_draw > 1
        "with one tile to draw, blocked_at hands can_draw on to engine.turn.blocked, which "
        "answers False itself for can_draw > 0: the early return only spares the work",
    _T + "_event__mutmut_15": _ONE_LINE,  # ... or True: always the body's line
    _T + "_event__mutmut_16": _ONE_LINE,  # isinstance(...) or line ==
})

#: What mutmut's exit codes mean here; anything else (no tests, not
#: checked, skipped, suspicious, a crash) is a mutant that was not run.
KILLED = ("killed", "timeout")


def sync(work: Path) -> None:
    """The tree's sources and tests over the work folder's, for a run that
    goes on where the last one stopped: mutmut makes the mutants of a
    changed function anew (the others keep their results), copies the tests
    on into its ``mutants`` folder and reruns its statistics for new tests."""
    for part in ("src", "tests", "docs", "records", "schemas"):
        shutil.copytree(ROOT / part, work / part, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    # The test files named since the copy was made are run too.
    pyproject = work / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(re.sub(r"(?m)^pytest_add_cli_args_test_selection = .*$",
                                lambda _: _selection(work), text), encoding="utf-8")


def results(work: Path, env: dict[str, str]) -> dict[str, str]:
    """Each mutant's state as mutmut left it."""
    listed = subprocess.run(["mutmut", "results", "--all", "true"], cwd=work, env=env,
                            capture_output=True, text=True, check=False).stdout
    status: dict[str, str] = {}
    for line in listed.splitlines():
        name, _, state = line.strip().rpartition(": ")
        if name:
            status[name] = state
    return status


def _kind(name: str, state: str) -> str:
    """killed, equivalent, survived or not run. A mutant listed as
    equivalent that timed out is equivalent still: on a busy machine the
    whole of its tests can outlast mutmut's timeout, which a mutant no
    test tells apart always runs; one that a test failed on is killed (and
    the report says its reason is wrong)."""
    if state == "killed":
        return "killed"
    if name in EQUIVALENT and state in ("timeout", "survived"):
        return "equivalent"
    if state in KILLED:
        return "killed"
    return "survived" if state == "survived" else "not run"


def module_of(name: str) -> str:
    """``muggins_cli.replay.tracker`` of ``muggins_cli.replay.tracker.xǁTrackerǁrun__mutmut_3``."""
    return name.rsplit("__mutmut_", 1)[0].rsplit(".x", 1)[0]


def report(status: dict[str, str]) -> int:
    """Print the figures; 1 when a mutant was not run or the kill rate over
    the mutants not listed as equivalent is under 95%."""
    rows: Counter[tuple[str, str]] = Counter()
    for name, state in status.items():
        kind = _kind(name, state)
        rows[module_of(name), kind] += 1
    print(f"{'module':32} {'mutants':>7} {'killed':>7} {'survived':>8} {'equivalent':>10} "
          f"{'not run':>7}")
    for module in sorted({m for m, _ in rows}):
        total = sum(rows[module, k] for k in ("killed", "survived", "equivalent", "not run"))
        print(f"{module:32} {total:7} {rows[module, 'killed']:7} {rows[module, 'survived']:8} "
              f"{rows[module, 'equivalent']:10} {rows[module, 'not run']:7}")
    total = len(status)
    kinds = Counter(_kind(n, s) for n, s in status.items())
    killed, equivalent, survived = kinds["killed"], kinds["equivalent"], kinds["survived"]
    not_run = total - killed - equivalent - survived
    print(f"{total} mutants: {killed} killed, {survived} survived, {equivalent} equivalent, "
          f"{not_run} not run")
    if total:
        print(f"killed: {100 * killed / total:.1f}% of all; "
              f"{100 * killed / max(1, total - equivalent):.1f}% of those not equivalent")
    for name, state in sorted(status.items()):
        if _kind(name, state) in ("survived", "not run"):
            print(f"{state}: {name}")
    for name, why in sorted(EQUIVALENT.items()):
        found = status.get(name)
        if found is None or _kind(name, found) == "killed":
            print(f"listed as equivalent but {found or 'no such mutant'}: {name}")
        else:
            print(f"equivalent: {name}: {why}")
    return 0 if not_run == 0 and killed >= 0.95 * max(1, total - equivalent) else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", type=Path,
                    default=Path(tempfile.gettempdir()) / "muggins-mutation")
    ap.add_argument("--max-children", type=int, default=2)
    ap.add_argument("--again", action="store_true",
                    help="go on in the work folder where the last run stopped, with the "
                         "tree's sources and tests as they are now (the mutants of an "
                         "unchanged function keep their result)")
    ap.add_argument("--survivors", action="store_true",
                    help="with --again: run the survivors again (after tests were added)")
    ap.add_argument("--report", action="store_true",
                    help="only print the figures of the work folder's last run")
    ap.add_argument("--only", nargs="*", default=[],
                    help="mutate only these of the files (paths as in MUTATED)")
    args = ap.parse_args()
    if shutil.which("mutmut") is None:
        print("mutmut is needed: pip install mutmut", file=sys.stderr)
        return 2
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["CI"] = "true"
    if args.report:
        return report(results(args.workdir, env))
    if not args.again:
        prepare(args.workdir, args.only or MUTATED)
    else:
        sync(args.workdir)
    run = ["mutmut", "run", "--max-children", str(args.max_children)]
    # Every mutant without a result: all of them in a new work folder, those
    # of the functions that changed in an old one.
    subprocess.run(run, cwd=args.workdir, env=env, check=False)
    if args.survivors:
        names = sorted(n for n, s in results(args.workdir, env).items()
                       if s not in KILLED and n not in EQUIVALENT)
        if names:
            subprocess.run([*run, *names], cwd=args.workdir, env=env, check=False)
    return report(results(args.workdir, env))


if __name__ == "__main__":
    raise SystemExit(main())
