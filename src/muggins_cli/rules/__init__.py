"""The rules layer: the frozen :class:`Rules` value and its presets.

The loader (YAML and JSON Schema) is imported lazily on first use of one of its
names, so the engine, which needs only :mod:`muggins_cli.rules.model`, pays for
neither library when it imports this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
    from muggins_cli.rules.loader import (
        DEFAULT_PRESET,
        load_preset,
        load_rules,
        preset_names,
        rules_from_mapping,
        rules_to_mapping,
        rules_to_yaml,
    )

_LOADER_NAMES = frozenset(
    {
        "DEFAULT_PRESET",
        "load_preset",
        "load_rules",
        "preset_names",
        "rules_from_mapping",
        "rules_to_mapping",
        "rules_to_yaml",
    }
)


def __getattr__(name: str) -> Any:
    if name in _LOADER_NAMES:
        return getattr(importlib.import_module("muggins_cli.rules.loader"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_PRESET",
    "LeadTile",
    "MatchEnd",
    "RoundEnd",
    "Rounding",
    "Rules",
    "ScoreValue",
    "Spinner",
    "SpinnerCount",
    "load_preset",
    "load_rules",
    "preset_names",
    "rules_from_mapping",
    "rules_to_mapping",
    "rules_to_yaml",
]
