"""Analysis for study: each turn's legal alternatives and what they scored,
missed scores, unclaimed points, per-player statistics and annotated records.

Standard library and the project's core only; reports and the CLI build on it.
The names are imported when first asked for (PEP 562), so that a command
that needs one part (``stats``: :func:`analyse_match`) does not wait for
the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from muggins_cli.analysis.annotate import (
        AnnotateError,
        Mark,
        Thresholds,
        annotate_match,
        annotate_text,
        marks_for,
        patch_text,
    )
    from muggins_cli.analysis.files import FileAnalysis, analyse_file, analyse_text
    from muggins_cli.analysis.match import (
        MISSED_SCORE,
        UNCLAIMED,
        MatchAnalysis,
        PlayerStats,
        analyse_match,
    )
    from muggins_cli.analysis.plays import (
        Option,
        PlayAnalysis,
        analyse_event,
        options,
        play_text,
    )

_WHERE = {
    **dict.fromkeys(["AnnotateError", "Mark", "Thresholds", "annotate_match", "annotate_text",
                     "marks_for", "patch_text"], "annotate"),
    **dict.fromkeys(["FileAnalysis", "analyse_file", "analyse_text"], "files"),
    **dict.fromkeys(["MISSED_SCORE", "UNCLAIMED", "MatchAnalysis", "PlayerStats",
                     "analyse_match"], "match"),
    **dict.fromkeys(["Option", "PlayAnalysis", "analyse_event", "options", "play_text"],
                    "plays"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = found
    return found


__all__ = [
    "MISSED_SCORE",
    "UNCLAIMED",
    "AnnotateError",
    "FileAnalysis",
    "Mark",
    "MatchAnalysis",
    "Option",
    "PlayAnalysis",
    "PlayerStats",
    "Thresholds",
    "analyse_event",
    "analyse_file",
    "analyse_match",
    "analyse_text",
    "annotate_match",
    "annotate_text",
    "marks_for",
    "options",
    "patch_text",
    "play_text",
]
