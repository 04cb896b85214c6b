"""Presets, rules files and their error messages."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import muggins_cli
from muggins_cli.errors import RulesError
from muggins_cli.rules import (
    RoundEnd,
    Rules,
    Spinner,
    SpinnerCount,
    load_preset,
    load_rules,
    preset_names,
    rules_from_mapping,
    rules_to_mapping,
    rules_to_yaml,
)
from muggins_cli.rules.model import ScoreValue

PACKAGE = Path(muggins_cli.__file__).parent
PRESET_DIR = PACKAGE / "rules" / "presets"
SCHEMA = PACKAGE / "schemas" / "rules.schema.json"
REPO = PACKAGE.parent.parent

# docs/rules.md, the parameters table, column by column.
EXPECTED = {
    "pagat": Rules(
        name="pagat",
        max_pip=6,
        players=(2, 3, 4),
        hand_size={2: 7, 3: 5, 4: 5},
        stock_reserve=0,
        spinner=Spinner.NONE,
        spinner_sides_first=False,
        spinner_count=SpinnerCount.EXPOSED_ENDS,
        modulus=5,
        score_value=ScoreValue.RAW,
        must_play=True,
        round_end=RoundEnd.DEDUCT_OWN,
        round_to=5,
        bonus_divisor=1,
        target={2: 250, 3: 200, 4: 200},
        muggins=False,
    ),
    "spinner": Rules(
        name="spinner",
        max_pip=6,
        players=(2, 3, 4),
        hand_size={2: 7, 3: 5, 4: 5},
        stock_reserve=0,
        spinner=Spinner.FIRST_DOUBLE,
        spinner_sides_first=False,
        spinner_count=SpinnerCount.EXPOSED_ENDS,
        modulus=5,
        score_value=ScoreValue.RAW,
        must_play=True,
        round_end=RoundEnd.LIGHTEST_BONUS,
        round_to=5,
        bonus_divisor=5,
        target={2: 200, 3: 200, 4: 200},
        muggins=True,
    ),
    "all-threes": Rules(
        name="all-threes",
        max_pip=6,
        players=(2, 3, 4),
        hand_size={2: 7, 3: 5, 4: 5},
        stock_reserve=0,
        spinner=Spinner.FIRST_DOUBLE,
        spinner_sides_first=False,
        spinner_count=SpinnerCount.EXPOSED_ENDS,
        modulus=3,
        score_value=ScoreValue.RAW,
        must_play=True,
        round_end=RoundEnd.LIGHTEST_BONUS,
        round_to=3,
        bonus_divisor=3,
        target={2: 200, 3: 200, 4: 200},
        muggins=True,
    ),
}

FIELDS = list(rules_to_mapping(EXPECTED["pagat"]))


def write(tmp_path: Path, text: str, name: str = "my.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# Presets


def test_preset_names() -> None:
    assert preset_names() == ["all-threes", "pagat", "spinner"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_preset_matches_rules_md(name: str) -> None:
    assert load_preset(name) == EXPECTED[name]
    assert load_rules(name) == EXPECTED[name]


def test_default_rules_value_is_pagat() -> None:
    assert Rules() == load_preset("pagat")


def test_presets_are_cached() -> None:
    assert load_preset("spinner") is load_preset("spinner")
    assert load_rules("spinner") is load_preset("spinner")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_preset_file_gives_every_field_with_a_comment(name: str) -> None:
    lines = (PRESET_DIR / f"{name}.yaml").read_text(encoding="utf-8").splitlines()
    keys = [line.split(":")[0] for line in lines if line and not line.startswith(("#", " "))]
    assert keys == FIELDS
    for i, line in enumerate(lines):
        if line and not line.startswith(("#", " ")):
            assert lines[i - 1].startswith("#"), f"{name}.yaml: no comment above {line!r}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_preset_round_trips_through_yaml(name: str, tmp_path: Path) -> None:
    rules = load_preset(name)
    text = rules_to_yaml(rules)
    assert rules_from_mapping(yaml.safe_load(text), "x.yaml") == rules
    assert load_rules(str(write(tmp_path, text, "copy.yaml"))) == rules


def test_rules_to_yaml_shape() -> None:
    body = [line for line in rules_to_yaml(load_preset("pagat")).splitlines() if line[:1] != "#"]
    assert body == [
        "name: pagat",
        "max_pip: 6",
        "players: [2, 3, 4]",
        "hand_size: {2: 7, 3: 5, 4: 5}",
        "stock_reserve: 0",
        "spinner: none",
        "spinner_sides_first: false",
        "spinner_count: exposed-ends",
        "modulus: 5",
        "score_value: raw",
        "must_play: true",
        "round_end: deduct-own",
        "round_to: 5",
        "bonus_divisor: 1",
        "target: {2: 250, 3: 200, 4: 200}",
        "muggins: false",
        "match_end: at-target",
        "rounding: nearest",
        "lead_tile: any",
    ]


# --------------------------------------------------------------------------
# The schema


def test_schema_is_valid_and_names_every_field() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    assert list(schema["properties"]) == ["base", *FIELDS]
    assert schema["properties"]["base"]["enum"] == preset_names()


def test_schema_symlink_at_repo_root() -> None:
    link = REPO / "schemas" / "rules.schema.json"
    assert link.is_symlink()
    assert os.readlink(link) == "../src/muggins_cli/schemas/rules.schema.json"
    assert link.resolve() == SCHEMA.resolve()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_presets_validate_against_schema(name: str) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    data = rules_to_mapping(load_preset(name))
    for key in ("hand_size", "target"):
        data[key] = {str(k): v for k, v in data[key].items()}
    jsonschema.Draft202012Validator(schema).validate(data)


# --------------------------------------------------------------------------
# User files: resolution


def test_partial_file_starts_from_pagat(tmp_path: Path) -> None:
    rules = load_rules(str(write(tmp_path, "modulus: 3\nround_to: 3\n")))
    assert rules == Rules(name="my", modulus=3, round_to=3)


def test_base_and_entry_by_entry_merge(tmp_path: Path) -> None:
    text = "base: spinner\ntarget: {2: 150}\nspinner_count: until-sides-covered\n"
    rules = load_rules(str(write(tmp_path, text)))
    spinner = load_preset("spinner")
    assert rules.name == "my"
    assert rules.target == {2: 150, 3: 200, 4: 200}
    assert rules.spinner_count is SpinnerCount.UNTIL_SIDES_COVERED
    assert rules.muggins is spinner.muggins is True
    assert rules.bonus_divisor == spinner.bonus_divisor


def test_explicit_name_wins(tmp_path: Path) -> None:
    assert load_rules(str(write(tmp_path, "name: club rules\n"))).name == "club rules"


def test_fewer_players_drops_other_entries(tmp_path: Path) -> None:
    rules = load_rules(str(write(tmp_path, "players: [2]\n")))
    assert rules.players == (2,)
    assert rules.hand_size == {2: 7}
    assert rules.target == {2: 250}


def test_more_players_with_their_entries(tmp_path: Path) -> None:
    text = "players: [5, 2]\nhand_size: {5: 5}\ntarget: {'5': 150}\n"
    rules = load_rules(str(write(tmp_path, text)))
    assert rules.players == (2, 5)
    assert rules.hand_size == {2: 7, 5: 5}
    assert rules.target == {2: 250, 5: 150}


def test_larger_set(tmp_path: Path) -> None:
    text = "max_pip: 9\nplayers: [2, 3, 4, 5, 6]\nhand_size: {5: 9, 6: 9}\n"
    text += "target: {5: 200, 6: 200}\n"
    rules = load_rules(str(write(tmp_path, text)))
    assert rules.hand_size == {2: 7, 3: 5, 4: 5, 5: 9, 6: 9}


def test_whole_deck_dealt_fits(tmp_path: Path) -> None:
    assert load_rules(str(write(tmp_path, "hand_size: {4: 7}\n"))).hand_size[4] == 7


def test_float_that_is_an_integer_is_coerced(tmp_path: Path) -> None:
    rules = load_rules(str(write(tmp_path, "modulus: 5.0\n")))
    assert rules.modulus == 5
    assert type(rules.modulus) is int


def test_relative_path_resolves_against_base_dir(tmp_path: Path) -> None:
    write(tmp_path, "modulus: 3\n", "beside.yaml")
    assert load_rules("beside.yaml", base_dir=tmp_path).modulus == 3


def test_relative_path_resolves_against_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "modulus: 7\n", "here.yaml")
    monkeypatch.chdir(tmp_path)
    assert load_rules("here.yaml").modulus == 7


def test_preset_name_wins_over_file(tmp_path: Path) -> None:
    write(tmp_path, "modulus: 7\n", "spinner")
    assert load_rules("spinner", base_dir=tmp_path) is load_preset("spinner")
    assert load_rules("./spinner", base_dir=tmp_path).modulus == 7


def test_file_cache_follows_edits(tmp_path: Path) -> None:
    path = write(tmp_path, "modulus: 3\n")
    first = load_rules(str(path))
    assert load_rules(str(path)) is first
    path.write_text("modulus: 4\nround_to: 4\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert load_rules(str(path)).modulus == 4


def test_round_trip_of_a_user_file(tmp_path: Path) -> None:
    rules = load_rules(
        str(write(tmp_path, "base: all-threes\nplayers: [2, 3]\nstock_reserve: 2\n"))
    )
    again = load_rules(str(write(tmp_path, rules_to_yaml(rules), "again.yaml")))
    assert again == rules
    assert again.name == "my"


def test_rules_from_mapping_accepts_string_and_int_keys() -> None:
    rules = rules_from_mapping({"target": {"2": 100, 3: 150}}, "header")
    assert rules.target == {2: 100, 3: 150, 4: 200}
    assert rules.name == "header"


# --------------------------------------------------------------------------
# User files: errors, one line each, naming file, field and line


ERRORS = [
    pytest.param(
        "base: spinner\nname: x\n\n# typo below\nmodulos: 3\n",
        "rules file my.yaml: line 5: unknown field 'modulos' (did you mean 'modulus'?)",
        id="typo'd field",
    ),
    pytest.param(
        "\n\nzzzz: 1\n",
        "rules file my.yaml: line 3: unknown field 'zzzz' "
        "(`muggins rules pagat` shows every field)",
        id="unknown field, nothing close",
    ),
    pytest.param(
        "modulus: 3\ntarget:\n  2: 100\n  3: abc\n",
        "rules file my.yaml: line 4: field 'target.3' must be an integer, got 'abc'",
        id="wrong type in target",
    ),
    pytest.param(
        "target: {2: 100,\n  3: abc}\n",
        "rules file my.yaml: line 2: field 'target.3' must be an integer, got 'abc'",
        id="wrong type in a flow mapping",
    ),
    pytest.param(
        "modulus:\n",
        "rules file my.yaml: line 1: field 'modulus' must be an integer, got nothing",
        id="empty value",
    ),
    pytest.param(
        "muggins: 1\n",
        "rules file my.yaml: line 1: field 'muggins' must be true or false, got 1",
        id="integer for a boolean",
    ),
    pytest.param(
        "modulus: true\n",
        "rules file my.yaml: line 1: field 'modulus' must be an integer, got true",
        id="boolean for an integer",
    ),
    pytest.param(
        "players: 4\n",
        "rules file my.yaml: line 1: field 'players' must be a list, got 4",
        id="players not a list",
    ),
    pytest.param(
        "spinner: first_double\n",
        "rules file my.yaml: line 1: field 'spinner' must be one of none, first-double, "
        "got 'first_double' (did you mean 'first-double'?)",
        id="enum typo",
    ),
    pytest.param(
        "base: spiner\n",
        "rules file my.yaml: line 1: field 'base' must be one of all-threes, pagat, spinner, "
        "got 'spiner' (did you mean 'spinner'?)",
        id="unknown base",
    ),
    pytest.param(
        "max_pip: 20\n",
        "rules file my.yaml: line 1: field 'max_pip' must be from 1 to 18, got 20",
        id="max_pip too large",
    ),
    pytest.param(
        "modulus: 1\n",
        "rules file my.yaml: line 1: field 'modulus' must be from 2 to 999,999,999, got 1",
        id="modulus below 2",
    ),
    pytest.param(
        "stock_reserve: -1\n",
        "rules file my.yaml: line 1: field 'stock_reserve' must be from 0 to 999,999,999, got -1",
        id="negative reserve",
    ),
    pytest.param(
        "players:\n  - 2\n  - 9\n",
        "rules file my.yaml: line 3: field 'players[1]' must be from 2 to 8, got 9",
        id="player count out of range",
    ),
    pytest.param(
        "players: [2, 2]\n",
        "rules file my.yaml: line 1: field 'players' lists the same number twice",
        id="player count twice",
    ),
    pytest.param(
        "players: []\n",
        "rules file my.yaml: line 1: field 'players' must list at least one number of players",
        id="no player counts",
    ),
    pytest.param(
        "hand_size:\n  two: 7\n",
        "rules file my.yaml: line 2: field 'hand_size' has key 'two', which is not a number "
        "of players from 2 to 8",
        id="hand_size key not a count",
    ),
    pytest.param(
        "target: {2: 0}\n",
        "rules file my.yaml: line 1: field 'target.2' must be from 1 to 999,999,999, got 0",
        id="target zero",
    ),
    pytest.param(
        "name: ' padded'\n",
        "rules file my.yaml: line 1: field 'name' must be 1 to 64 characters with no space at "
        "either end, got ' padded'",
        id="name with a leading space",
    ),
    pytest.param(
        "modulus: 3\nround_to: 3\nmodulus: 5\n",
        "rules file my.yaml: line 3: field 'modulus' given twice (first on line 1)",
        id="duplicate field",
    ),
    pytest.param(
        "target:\n  2: 100\n  2: 150\n",
        "rules file my.yaml: line 3: field 'target.2' given twice (first on line 2)",
        id="duplicate entry",
    ),
    pytest.param(
        "modulus: 3\n  round_to: [3\n",
        "rules file my.yaml: line 2: invalid YAML: mapping values are not allowed here",
        id="YAML syntax error",
    ),
    pytest.param(
        "modulus: !!python/object:os.system x\n",
        "rules file my.yaml: line 1: invalid YAML: could not determine a constructor for the "
        "tag 'tag:yaml.org,2002:python/object:os.system'",
        id="unsafe tag",
    ),
    pytest.param(
        "modulus: 3\n---\nmodulus: 4\n",
        "rules file my.yaml: line 2: invalid YAML: but found another document",
        id="two documents",
    ),
    pytest.param(
        "- modulus\n- 3\n",
        "rules file my.yaml: expected a mapping of rules fields, got a list",
        id="not a mapping",
    ),
    pytest.param(
        "just text\n",
        "rules file my.yaml: expected a mapping of rules fields, got 'just text'",
        id="a scalar document",
    ),
    pytest.param(
        "# only a comment\n",
        "rules file my.yaml: the file is empty; expected a mapping of rules fields",
        id="empty document",
    ),
    pytest.param(
        "hand_size: {4: 8}\n",
        "rules file my.yaml: line 1: field 'hand_size.4': 4 players x 8 tiles = 32, more than "
        "the 28 tiles of the double-6 set",
        id="hands do not fit in the set",
    ),
    pytest.param(
        "players: [2, 3, 4]\nstock_reserve: 1\nhand_size:\n  4: 7\n",
        "rules file my.yaml: line 4: field 'hand_size.4': 4 players x 7 tiles + 1 in reserve "
        "= 29, more than the 28 tiles of the double-6 set",
        id="hands and reserve do not fit",
    ),
    pytest.param(
        "max_pip: 3\n",
        "rules file my.yaml: line 1: field 'hand_size.2': 2 players x 7 tiles = 14, more than "
        "the 10 tiles of the double-3 set",
        id="smaller set, base hands do not fit",
    ),
    pytest.param(
        "\nplayers: [2, 3, 4, 5]\n",
        "rules file my.yaml: line 2: field 'hand_size' has no entry for 5 players "
        "(players: 2, 3, 4, 5)",
        id="player count without a hand size",
    ),
    pytest.param(
        "players: [2, 5]\nhand_size: {5: 5}\n",
        "rules file my.yaml: line 1: field 'target' has no entry for 5 players (players: 2, 5)",
        id="player count without a target",
    ),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_rules_file_errors(text: str, message: str, tmp_path: Path) -> None:
    write(tmp_path, text)
    with pytest.raises(RulesError) as info:
        load_rules("my.yaml", base_dir=tmp_path)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param(
            "spinnr",
            "unknown rules 'spinnr': no such preset (did you mean 'spinner'?) or file",
            id="preset typo",
        ),
        pytest.param(
            "club",
            "unknown rules 'club': no such preset (presets are all-threes, pagat, spinner) or file",
            id="unknown name",
        ),
        pytest.param("nope.yaml", "rules file nope.yaml: no such file", id="missing file"),
        pytest.param("sub/x.yml", "rules file sub/x.yml: no such file", id="missing path"),
        pytest.param(
            "",
            "rules: no preset or file named; presets are all-threes, pagat, spinner",
            id="empty spec",
        ),
    ],
)
def test_unknown_specs(spec: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(RulesError) as info:
        load_rules(spec, base_dir=tmp_path)
    assert str(info.value) == message


def test_directory_is_not_a_rules_file(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(RulesError, match=r"^rules file d: is a directory"):
        load_rules("d", base_dir=tmp_path)


def test_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "bin.yaml").write_bytes(b"modulus: \xff\xfe\n")
    with pytest.raises(RulesError, match=r"^rules file bin.yaml: not UTF-8 text$"):
        load_rules("bin.yaml", base_dir=tmp_path)


def test_load_preset_rejects_unknown_name() -> None:
    with pytest.raises(RulesError, match=r"did you mean 'pagat'\?"):
        load_preset("pagot")


def test_rules_from_mapping_errors_have_no_line() -> None:
    with pytest.raises(RulesError) as info:
        rules_from_mapping({"modulos": 3}, "header")
    assert str(info.value) == "rules file header: unknown field 'modulos' (did you mean 'modulus'?)"


# --------------------------------------------------------------------------
# Never a traceback


_scalars = st.none() | st.booleans() | st.integers(-5, 300) | st.floats() | st.text(max_size=8)
_keys = st.sampled_from([*FIELDS, "base", "2", "4", "x"]) | st.integers(0, 9) | st.booleans()
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)  # generating the mappings is the cost
@given(st.dictionaries(_keys, _values, max_size=6))
def test_any_mapping_gives_rules_or_rules_error(data: dict[object, object]) -> None:
    try:
        rules = rules_from_mapping(data, "fuzz.yaml")
    except RulesError as exc:
        assert "\n" not in str(exc)
    else:
        assert rules_from_mapping(yaml.safe_load(rules_to_yaml(rules)), "x") == rules


_counter = iter(range(10**9))
_yamlish = st.text(alphabet=st.sampled_from(list("abmo dulsp:-[]{},'\"!&*#\n\t0123456789")))


@settings(max_examples=100, deadline=None)  # generating the mappings is the cost
@given(text=_yamlish)
def test_any_text_gives_rules_or_rules_error(
    text: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A fresh name per example: the file cache keys on path, mtime and size.
    path = tmp_path_factory.getbasetemp() / f"fuzz-{next(_counter)}.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_rules(str(path))
    except RulesError as exc:
        assert "\n" not in str(exc)
    finally:
        path.unlink()
