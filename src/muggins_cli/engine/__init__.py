"""The rules engine: layout, legal moves, scoring. Standard library only, no text."""

from muggins_cli.engine.layout import (
    EMPTY,
    ENDS,
    Arm,
    End,
    Layout,
    count,
    ends_for,
    fits,
    layout_score,
    lead,
    open_ends,
    place,
    playable,
)
from muggins_cli.engine.scoring import (
    EndReason,
    credit_ends_match,
    reached,
    settle,
    winner_at_settlement,
    winner_on_credit,
)
from muggins_cli.engine.state import (
    KnownDraw,
    Move,
    PassTurn,
    Place,
    RoundState,
    apply,
    deal,
    drawable,
    highest_double,
    is_blocked,
    leads_by_deal,
    legal_moves,
    new_round,
    placed,
    placement_score,
    placements,
)

__all__ = [
    "EMPTY", "ENDS", "Arm", "End", "EndReason", "KnownDraw", "Layout", "Move", "PassTurn", "Place",
    "RoundState", "apply", "count", "credit_ends_match", "deal", "drawable", "ends_for",
    "fits", "highest_double", "is_blocked", "layout_score", "lead", "leads_by_deal", "legal_moves",
    "new_round", "open_ends", "place", "placed", "placement_score", "placements", "playable",
    "reached", "settle",
    "winner_at_settlement", "winner_on_credit",
]
