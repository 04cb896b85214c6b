"""Rules presets and rules files: YAML in, a validated :class:`Rules` out.

This module and :mod:`muggins_cli.rules.yaml_file` (the YAML itself) are the
only ones of the rules layer that touch YAML and JSON Schema; the engine
imports :mod:`muggins_cli.rules.model` and never this, so a match can be
replayed without either library once its ``Rules`` value exists. Both
libraries are imported only when a rules file is read: a shipped preset is
built from its validated copy (``presets/validated.json``, written by
:func:`write_validated_presets` from the YAML through every step below),
used only while it was made from the very text of the preset's YAML file.

A rules file is checked in four steps, each failing with one line that names
the file, the field and (when the YAML has it) the line:

0. a regular file of at most 1 MB (a FIFO would hang the run, a device never
   end), since a record from a stranger names its own rules file;
1. YAML syntax, a single document that is a mapping, no field given twice,
   no anchors or aliases and no nesting past 16 levels (an alias bomb takes
   gigabytes and a self-referring alias or 5,000 brackets recurse past
   Python's limit; a rules file needs none of them);
2. the JSON Schema ``schemas/rules.schema.json`` (field names, types, enums,
   ranges), so a typo'd field is reported instead of silently ignored;
3. merging onto the preset named by ``base`` (default ``pagat``);
4. checks a schema cannot express: every allowed player count has a hand
   size and a target, and every deal fits in the set.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat as stat_mode
import zlib
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from muggins_cli.errors import RulesError
from muggins_cli.notation.quoting import shorten
from muggins_cli.rules.model import (
    LeadTile,
    MatchEnd,
    RoundEnd,
    Rounding,
    Rules,
    ScoreValue,
    Spinner,
    SpinnerCount,
)

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    import jsonschema

    from muggins_cli.rules.yaml_file import Marks as _Marks
    from muggins_cli.rules.yaml_file import Path as _Path

DEFAULT_PRESET = "pagat"

# Fields whose YAML value is a mapping from a player count to a number. They
# are merged with the base entry by entry, and their keys are checked as
# strings because YAML gives ints while JSON Schema only names string keys.
_BY_PLAYERS = ("hand_size", "target")

_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))

# A rules file is a few lines; anything bigger is not one.
_MAX_BYTES = 1_000_000

# The presets as :func:`_resolve` made them from their YAML, beside it.
_VALIDATED = "validated.json"


# --------------------------------------------------------------------------
# Public API


@lru_cache(maxsize=1)
def _presets_folder() -> Traversable:
    here = Path(__file__).with_name("presets")
    if here.is_dir():
        # An installed package is plain files: no importlib.resources (and
        # the zipfile module it imports) to find them.
        return here
    from importlib import resources

    return resources.files("muggins_cli.rules").joinpath("presets")


@lru_cache(maxsize=1)
def _preset_names() -> tuple[str, ...]:
    folder = _presets_folder()
    return tuple(
        sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))
    )


def preset_names() -> list[str]:
    """The presets that ship with the package, sorted (a fresh list each call)."""
    return list(_preset_names())


@cache
def load_preset(name: str) -> Rules:
    """A shipped preset; cached because every match of a corpus asks for one.

    The returned value is shared between callers: do not mutate its
    ``hand_size`` or ``target`` dicts.
    """
    if name not in _preset_names():
        raise RulesError(f"unknown rules preset {name!r}{_preset_hint(name)}")
    text = _preset_text(name)
    where = f"rules preset {name}"
    copy = _validated_presets().get(name)
    if copy is not None and copy.get("yaml") == _fingerprint(text):
        return _build(dict(copy["rules"]), {}, where)
    data, marks = _parse_yaml(text, where)
    return _resolve(data, marks, where, default_name=name, preset=True)


def _preset_text(name: str) -> str:
    return _presets_folder().joinpath(f"{name}.yaml").read_text(encoding="utf-8")


def _fingerprint(text: str) -> str:
    """Which text a validated copy was made from: its length and CRC-32
    (enough to tell an edited preset; nobody forges their own presets)."""
    data = text.encode("utf-8")
    return f"{len(data)}:{zlib.crc32(data):08x}"


@lru_cache(maxsize=1)
def _validated_presets() -> dict[str, dict[str, Any]]:
    try:
        text = _presets_folder().joinpath(_VALIDATED).read_text(encoding="utf-8")
    except OSError:
        return {}
    found = json.loads(text)
    return found if isinstance(found, dict) else {}


def validated_presets() -> dict[str, dict[str, Any]]:
    """What ``presets/validated.json`` should hold: each preset read from
    its YAML through every check (never from the copy), with the
    fingerprint of that YAML."""
    out: dict[str, dict[str, Any]] = {}
    for name in _preset_names():
        text = _preset_text(name)
        where = f"rules preset {name}"
        data, marks = _parse_yaml(text, where)
        rules = _resolve(data, marks, where, default_name=name, preset=True)
        out[name] = {"yaml": _fingerprint(text), "rules": rules_to_mapping(rules)}
    return out


def write_validated_presets() -> Path:
    """Write ``presets/validated.json`` afresh (after editing a preset)."""
    path = Path(__file__).with_name("presets") / _VALIDATED
    path.write_text(json.dumps(validated_presets(), indent=2) + "\n", encoding="utf-8")
    _cache_clear()
    return path


def load_rules(spec: str, base_dir: Path | None = None) -> Rules:
    """A preset by name, or else a YAML rules file.

    A relative path is resolved against ``base_dir`` (a record's folder, so a
    ``[Rules "my.yaml"]`` tag means the file beside the record), or the
    current directory. A preset name wins over a file of the same name; write
    ``./spinner`` to mean the file. Files are cached on (path, mtime, size),
    so an edited file is read again and an unchanged one is parsed once.
    """
    if spec in _preset_names():
        return load_preset(spec)
    if not spec.strip():
        raise RulesError(f"rules: no preset or file named; presets are {_preset_list()}")
    path = Path(spec)
    if not path.is_absolute():
        path = (base_dir if base_dir is not None else Path.cwd()) / path
    try:
        stat = path.stat()
    except FileNotFoundError:
        if _looks_like_path(spec):
            raise RulesError(f"rules file {shorten(spec)}: no such file") from None
        raise RulesError(
            f"unknown rules {shorten(spec)!r}: no such preset{_preset_hint(spec)} or file"
        ) from None
    except OSError as exc:
        raise RulesError(f"rules file {shorten(spec)}: cannot read: {exc.strerror}") from None
    return _load_file(str(path.resolve()), spec, stat.st_mtime_ns, stat.st_size)


def rules_from_mapping(data: object, source: str) -> Rules:
    """Rules from an already-parsed mapping (a user's file without line info).

    ``source`` is the file name shown in error messages ("rules file
    SOURCE: ..."); its stem names the rules when the mapping has no ``name``.
    Omitted fields come from the preset named by ``base`` (default pagat).
    """
    return _resolve(data, {}, f"rules file {source}", default_name=Path(source).stem)


def rules_to_mapping(rules: Rules) -> dict[str, Any]:
    """Every field as plain YAML/JSON values, in the order of docs/rules.md."""
    out: dict[str, Any] = {}
    for name in _FIELDS:
        value = getattr(rules, name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, dict):
            value = {int(k): int(v) for k, v in sorted(value.items())}
        out[name] = value
    return out


def rules_to_yaml(rules: Rules) -> str:
    """The rules in full, so a user can save, edit and load them again."""
    header = (
        f"# Muggins rules {rules.name!r}, every field resolved (docs/rules.md explains each).\n"
        '# Save it, edit it and use it as [Rules "FILE.yaml"] or `muggins rules FILE.yaml`.\n'
    )
    from muggins_cli.rules import yaml_file

    return header + yaml_file.dump(rules_to_mapping(rules))


# --------------------------------------------------------------------------
# Files and YAML


@lru_cache(maxsize=256)
def _load_file(path: str, display: str, mtime_ns: int, size: int) -> Rules:
    # mtime_ns and size are only part of the cache key.
    where = f"rules file {shorten(display)}"
    text = _read_bounded(path, where)
    try:
        data, marks = _parse_yaml(text, where)
        return _resolve(data, marks, where, default_name=Path(display).stem)
    except RulesError:
        raise
    except Exception as exc:
        # Whatever the checks above missed ends this file, not the run.
        raise RulesError(f"{where}: cannot be used ({type(exc).__name__})") from None


def _read_bounded(path: str, where: str) -> str:
    """The file's text, if it is a regular file of at most ``_MAX_BYTES``.

    Opened without blocking and checked on the open file, so a FIFO put in
    place after ``stat`` is refused too instead of waiting for a writer.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise RulesError(f"{where}: cannot read: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat_mode.S_ISDIR(mode):
            raise RulesError(f"{where}: is a directory, not a YAML file")
        if not stat_mode.S_ISREG(mode):
            raise RulesError(f"{where}: {_kind(mode)}, not a regular file")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(_MAX_BYTES + 1)
        if len(data) > _MAX_BYTES:
            total = max(os.fstat(fd).st_size, len(data))
            raise RulesError(f"{where}: larger than 1 MB ({total} bytes); "
                             "a rules file is a few lines")
    except OSError as exc:
        raise RulesError(f"{where}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{where}: not UTF-8 text") from None


def _kind(mode: int) -> str:
    if stat_mode.S_ISFIFO(mode):
        return "a named pipe"
    if stat_mode.S_ISCHR(mode) or stat_mode.S_ISBLK(mode):
        return "a device"
    if stat_mode.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _parse_yaml(text: str, where: str) -> tuple[object, _Marks]:
    """The document plus the line of every key (:func:`yaml_file.parse`)."""
    from muggins_cli.rules import yaml_file

    try:
        return yaml_file.parse(text)
    except yaml_file.YamlProblem as exc:
        _fail(where, exc.line, exc.problem)


# --------------------------------------------------------------------------
# Validation and resolution


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    from importlib import resources

    import jsonschema

    text = (
        resources.files("muggins_cli")
        .joinpath("schemas", "rules.schema.json")
        .read_text(encoding="utf-8")
    )
    schema = json.loads(text)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _resolve(
    data: object, marks: _Marks, where: str, *, default_name: str, preset: bool = False
) -> Rules:
    # 1. A mapping, with string keys as JSON Schema expects.
    if not isinstance(data, Mapping):
        _fail(where, None, f"expected a mapping of rules fields, got {_describe(data)}")
    doc: dict[str, Any] = {str(k): v for k, v in data.items()}
    for name in _BY_PLAYERS:
        if isinstance(doc.get(name), Mapping):
            doc[name] = {str(k): v for k, v in doc[name].items()}

    # 2. The schema; the problem nearest the top of the file is reported.
    problems = [p for e in _validator().iter_errors(doc) for p in _explain(e, marks)]
    if problems:
        line, message = min(problems, key=lambda p: (p[0] is None, p[0] or 0))
        _fail(where, line, message)

    # 3. Merge onto the base preset; presets themselves must be complete.
    if preset:
        missing = [f for f in _FIELDS if f not in doc]
        if missing or "base" in doc:
            _fail(where, None, f"a preset gives every field and no base (missing: {missing})")
        merged: dict[str, Any] = dict(doc)
    else:
        merged = rules_to_mapping(load_preset(doc.pop("base", DEFAULT_PRESET)))
        merged["name"] = default_name
        for name, value in doc.items():
            merged[name] = {**merged[name], **value} if name in _BY_PLAYERS else value
    return _build(merged, marks, where)


def _build(merged: dict[str, Any], marks: _Marks, where: str) -> Rules:
    """The value of a complete mapping of every field (checked by the
    schema, or a preset's validated copy), after the checks a schema cannot
    express."""
    for name in _BY_PLAYERS:
        merged[name] = {int(k): int(v) for k, v in merged[name].items()}

    # 4. What the schema cannot say.
    players = tuple(sorted(int(p) for p in merged["players"]))
    max_pip = int(merged["max_pip"])
    reserve = int(merged["stock_reserve"])
    tiles = (max_pip + 1) * (max_pip + 2) // 2
    for name in _BY_PLAYERS:
        for count in players:
            if count not in merged[name]:
                line = _line(marks, (name,), key=True) or _line(marks, ("players",), key=True)
                shown = ", ".join(map(str, players))
                _fail(
                    where,
                    line,
                    f"field {name!r} has no entry for {count} players (players: {shown})",
                )
    for count in players:
        size = merged["hand_size"][count]
        needed = count * size + reserve
        if needed > tiles:
            line = (
                _line(marks, ("hand_size", str(count)))
                or _line(marks, ("hand_size",), key=True)
                or _line(marks, ("players",), key=True)
                or _line(marks, ("stock_reserve",), key=True)
                or _line(marks, ("max_pip",), key=True)
            )
            spent = f"{count} players x {size} tiles" + (
                f" + {reserve} in reserve" if reserve else ""
            )
            _fail(
                where,
                line,
                f"field 'hand_size.{count}': {spent} = {needed}, more than the "
                f"{tiles} tiles of the double-{max_pip} set",
            )

    return Rules(
        name=str(merged["name"]),
        max_pip=max_pip,
        players=players,
        hand_size={c: merged["hand_size"][c] for c in players},
        stock_reserve=reserve,
        spinner=Spinner(merged["spinner"]),
        spinner_sides_first=bool(merged["spinner_sides_first"]),
        spinner_count=SpinnerCount(merged["spinner_count"]),
        modulus=int(merged["modulus"]),
        score_value=ScoreValue(merged["score_value"]),
        must_play=bool(merged["must_play"]),
        round_end=RoundEnd(merged["round_end"]),
        round_to=int(merged["round_to"]),
        bonus_divisor=int(merged["bonus_divisor"]),
        target={c: merged["target"][c] for c in players},
        muggins=bool(merged["muggins"]),
        match_end=MatchEnd(merged["match_end"]),
        rounding=Rounding(merged["rounding"]),
        lead_tile=LeadTile(merged["lead_tile"]),
    )


_TYPE_WORDS = {
    "integer": "an integer",
    "boolean": "true or false",
    "string": "a string",
    "array": "a list",
    "object": "a mapping",
}


def _explain(error: jsonschema.ValidationError, marks: _Marks) -> list[tuple[int | None, str]]:
    """jsonschema's error as a sentence a rules author can act on, with its line."""
    path: _Path = tuple(str(p) for p in error.absolute_path)
    field = _show(tuple(error.absolute_path))
    value = error.instance
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if error.validator == "additionalProperties" and isinstance(value, Mapping):
        return _unknown_fields(value, schema, marks, path)
    if "propertyNames" in error.relative_schema_path:
        return [
            (
                _line(marks, (*path, str(value)), key=True),
                f"field {field!r} has key {_describe(value)}, which is not a number of "
                "players from 2 to 8",
            )
        ]
    return [(_line(marks, path), _sentence(error, field, schema))]


def _unknown_fields(value: Mapping[Any, Any], schema: Mapping[str, Any], marks: _Marks,
                    path: _Path) -> list[tuple[int | None, str]]:
    """Each key of ``value`` the schema does not know, on its own line,
    with the known field nearest its spelling."""
    import difflib

    known = list(schema.get("properties", {}))
    out: list[tuple[int | None, str]] = []
    for key in value:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = (
                f"did you mean {close[0]!r}?"
                if close
                else "`muggins rules pagat` shows every field"
            )
            out.append(
                (
                    _line(marks, (*path, str(key)), key=True),
                    f"unknown field {shorten(str(key))!r} ({hint})",
                )
            )
    return out


def _sentence(error: jsonschema.ValidationError, field: str, schema: Mapping[str, Any]) -> str:
    """What is wrong with one field's value, by the schema's rule it breaks."""
    kind = error.validator
    value = error.instance
    if kind == "type":
        wanted = _TYPE_WORDS.get(str(error.validator_value), str(error.validator_value))
        return f"field {field!r} must be {wanted}, got {_describe(value)}"
    if kind == "enum":
        import difflib

        options = [str(o) for o in schema.get("enum", [])]
        close = difflib.get_close_matches(value, options, n=1) if isinstance(value, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return (f"field {field!r} must be one of {', '.join(options)}, "
                f"got {_describe(value)}{hint}")
    if kind in ("minimum", "maximum"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            bound = f"from {low:,} to {high:,}"
        else:
            bound = f"at least {low}" if low is not None else f"at most {high}"
        return f"field {field!r} must be {bound}, got {_describe(value)}"
    if kind == "minItems":
        return f"field {field!r} must list at least one number of players"
    if kind == "uniqueItems":
        return f"field {field!r} lists the same number twice"
    if kind in ("pattern", "minLength", "maxLength"):
        return (f"field {field!r} must be 1 to 64 characters with no space at either "
                f"end, got {_describe(value)}")
    return f"field {field!r}: {error.message}"


# --------------------------------------------------------------------------
# Small helpers


def _fail(where: str, line: int | None, message: str) -> NoReturn:
    raise RulesError(f"{where}: line {line}: {message}" if line else f"{where}: {message}")


def _line(marks: _Marks, path: _Path, *, key: bool = False) -> int | None:
    """The line of ``path``, or of its nearest ancestor the YAML has."""
    while path:
        if path in marks:
            key_line, value_line = marks[path]
            return key_line if key else value_line
        path = path[:-1]
        key = True
    return None


def _show(path: tuple[object, ...]) -> str:
    """A field path as a user would write it: ``target.2``, ``players[1]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return shorten(out)


def _describe(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(shorten(value))
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def _looks_like_path(spec: str) -> bool:
    return os.sep in spec or "/" in spec or spec.endswith((".yaml", ".yml"))


def _preset_list() -> str:
    return ", ".join(_preset_names())


def _preset_hint(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, _preset_names(), n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (presets are {_preset_list()})"


def _cache_clear() -> None:
    """Forget every loaded preset and file (tests that rewrite files use it)."""
    for cached in (_presets_folder, _preset_names, load_preset, _load_file, _validator,
                   _validated_presets):
        clear: Callable[[], None] = cached.cache_clear
        clear()
