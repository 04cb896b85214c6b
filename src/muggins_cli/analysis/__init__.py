"""Analysis for study: each turn's legal alternatives and what they scored,
missed scores, unclaimed points, per-player statistics and annotated records.

Standard library and the project's core only; reports and the CLI build on it.
"""

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
from muggins_cli.analysis.plays import Option, PlayAnalysis, analyse_event, options, play_text

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
