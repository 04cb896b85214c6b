"""What follows a round's play: muggins calls, the settlement, the hands
revealed, the score lines, and at the record's end its Result tag.

The settlement, who wins by it and whether a call may take points are the
engine's (:mod:`muggins_cli.engine.turn`); here the record's lines are held
to what it says.
"""

from __future__ import annotations

from muggins_cli.engine import turn as rules_of
from muggins_cli.engine.scoring import EndReason
from muggins_cli.notation.model import (
    BodyLine,
    MugginsCall,
    RevealLine,
    RoundLine,
    ScoreLine,
    Turn,
)
from muggins_cli.notation.quoting import quote
from muggins_cli.replay.state import HandView, MatchState, Round
from muggins_cli.tiles import bits_of, full_set, tiles_of


def settle_round(m: MatchState) -> None:
    """Apply the round-end settlement once the lines that may precede it
    (a muggins call on the last placement, reveals) have been read."""
    rnd = m.round
    if rnd is None or not rnd.ended or rnd.settled or m.winner is not None:
        return
    hands = rnd.hands
    _deduce_last_hand(m, rnd, hands)
    if not rnd.hands_known:
        rnd.settle(None)
        m.report.unverified(rnd, rnd.line, 1, "settlement",
                            f"round {rnd.number}: the hands left at the end are not all in "
                            "the record (no deal or reveal lines), so the round-end "
                            "settlement is not computed")
        m.scores_uncertain = True
        return
    pips = [_pips(h.bits) for h in hands]
    deltas = [0] * len(pips)
    went_out = rules_of.NOBODY if rnd.went_out is None else rnd.went_out
    rules_of.settle(m.r, pips, went_out, deltas)
    rnd.settle(tuple(deltas))
    won = rules_of.winner_at_settlement(m.r, m.scores, deltas, m.target)
    # With a turn set aside the totals are the record's once its next score
    # line says them; until then nobody is taken to have won.
    m.winner = None if won == rules_of.NOBODY or m.loose else won
    m.scores = [s + d for s, d in zip(m.scores, deltas)]
    m.ended(EndReason.SETTLEMENT if rules_of.credit_ends_match(m.r) else EndReason.ROUND_END,
            m.last_line)


def _pips(bits: int) -> int:
    """The pips of the tiles of ``bits`` (a hand's, left at a round's end)."""
    total = 0
    for t in tiles_of(bits):
        total += t.lo + t.hi
    return total


def _deduce_last_hand(m: MatchState, rnd: Round, hands: list[HandView]) -> None:
    """With every other hand known and no unknown tile left in the stock,
    the one hidden hand is whatever is not accounted for."""
    hidden = [h for h in hands if not h.complete]
    if len(hidden) != 1:
        return
    stock_known = rnd.stock is not None or rnd.stock_count == 0
    if not stock_known:
        return
    accounted = set(rnd.layout.tiles()) | set(rnd.stock or ())
    for h in hands:
        accounted |= h.known
    rest = set(full_set(m.rules.max_pip)) - accounted
    (hand,) = hidden
    if len(rest) == hand.unknown:
        rnd.reveal(hands.index(hand), hand.bits | bits_of(rest))


_CALL_WRONG = {
    rules_of.CALL_OWN_PLAY: "{name} cannot call muggins on their own play",
    rules_of.CALL_NOTHING_LEFT: "nothing to take: {placer} claimed all the play scored",
    rules_of.CALL_TOO_MUCH: "{name} calls muggins for {points}, but only {rest} went unclaimed",
}


def muggins_line(m: MatchState, call: MugginsCall) -> int:
    """Only the line right after a placement may call (docs/notation.md 5),
    valid or not: whatever it was, the chance to call is used up. What the
    call took."""
    pending, m.pending = m.pending, None
    previous, m.last_call = m.last_call, call
    placer, rest = (pending[0], pending[1]) if pending is not None else (rules_of.NOBODY, 0)
    caller = m.seat[call.player]
    fault = rules_of.call_fault(m.r, previous is not None, placer, caller, rest, call.points)
    if fault == rules_of.CALL_OK:
        m.credit(caller, call.points, call.line, EndReason.MUGGINS)
        return call.points
    column = call.column
    if fault == rules_of.CALL_NO_MUGGINS:
        message = (f"rules {quote(m.rules.name)} have no muggins call; "
                   "every placement scores by itself")
    elif fault == rules_of.CALL_AGAIN:
        assert previous is not None
        message = ("one muggins call at most follows a placement, and "
                   f"{previous.player} called on line {previous.line}")
    elif fault == rules_of.CALL_NO_PLACEMENT:
        message = "a muggins call must follow the turn it takes points from"
    else:
        if fault == rules_of.CALL_TOO_MUCH:
            column = call.points_column or call.column
        message = _CALL_WRONG[fault].format(name=call.player, placer=m.players[placer],
                                            points=call.points, rest=rest)
    m.report.error(call.line, column, "muggins-invalid", message)
    return 0


def reveal_line(m: MatchState, item: RevealLine) -> None:
    rnd = m.round
    if rnd is None or rnd.skipping:
        return
    seat = m.seat[item.player]
    shown = [tok.tile for tok in item.tiles]
    if not rnd.ended and m.hidden_block_possible(rnd):
        # Hands shown while the stock is exhausted: the round was blocked,
        # which hidden hands did not let the replay see at the time.
        m.end_blocked(rnd, item.line, item.column, inferred=True)
    if not rnd.ended:
        if not rnd.doubt:
            m.report.error(item.line, item.column, "reveal-mismatch",
                           f"reveal before round {rnd.number} ended")
        # The record has the round over where the replay does not: its end
        # is not followed, and the totals are the next score line's.
        rnd.doubt_from(item.line)
        m.loose = True
        return
    hand = rnd.hands[seat]
    bits = bits_of(shown)
    if hand.complete:
        # The same tiles, each once (a tile shown twice is not what was held).
        if bits != hand.bits or len(shown) != bits.bit_count():
            held = " ".join(map(str, sorted(hand.known))) or "nothing"
            m.report.error(item.line, item.column, "reveal-mismatch",
                           f"{item.player} held {held} at the end of round {rnd.number}, "
                           f"not {' '.join(map(str, shown)) or 'nothing'}")
        return
    known = hand.known
    listed = " ".join(map(str, shown)) or "nothing"
    # A hidden hand: the reveal tells us what it was, if it can be true
    # (its size in different tiles: a tile listed twice is held once).
    if len(shown) != hand.size or len(shown) != bits.bit_count() \
            or not known <= set(shown) or any(
            rnd.seen >> t.index() & 1 and t not in known for t in shown):
        m.report.error(item.line, item.column, "reveal-mismatch",
                       f"{item.player} cannot hold {listed} "
                       f"(they hold {hand.size} tiles, known: "
                       f"{' '.join(map(str, sorted(known))) or 'none'})")
        return
    rnd.reveal(seat, bits)


def score_line(m: MatchState, item: ScoreLine) -> None:
    if m.round is not None and m.round.skipping:
        return
    if m.loose:
        # A turn was set aside: the replay's totals follow from that alone,
        # so the record's are taken, without a word.
        _take_totals(m, item)
        return
    wrong = []
    for e in item.entries:
        seat = m.seat[e.player]
        if m.scores[seat] != e.points:
            wrong.append((e, m.scores[seat]))
    if m.scores_uncertain:
        if wrong:
            m.report.unverified(m.round, item.line, item.column, "totals",
                                "the totals cannot be recomputed (a settlement needed hidden "
                                "hands); the score line is taken as written")
            for e in item.entries:
                m.scores[m.seat[e.player]] = e.points
        m.scores_uncertain = False
        return
    # Totals that the record's next score line carries on are the table's
    # own from here: one finding, not one per score line to the end.
    carried = bool(wrong) and m.carried(item)
    hint = "; the score lines after it carry these totals on, so they are taken" \
        if carried else ""
    for e, real in wrong:
        m.report.error(e.line, e.column, "total-mismatch",
                       f"{e.player} has {real}, not {e.points}{hint}")
    if carried:
        _take_totals(m, item)


def _take_totals(m: MatchState, item: ScoreLine) -> None:
    """The score line's totals taken as the match's; once they are every
    player's, whether they end the match is the engine's to say."""
    for e in item.entries:
        m.scores[m.seat[e.player]] = e.points
    if {e.player for e in item.entries} == set(m.players):
        m.loose = m.scores_uncertain = False
        zero = [0] * len(m.scores)
        won = rules_of.winner_at_settlement(m.r, zero, m.scores, m.target)
        if won != rules_of.NOBODY and m.winner is None:
            m.winner = won
            m.ended(EndReason.PLACEMENT if rules_of.credit_ends_match(m.r)
                    else EndReason.ROUND_END, item.line)


def after_match_end(m: MatchState, item: BodyLine) -> None:
    """A line after the match was decided: score lines and reveals are
    still read; a play or a new round is reported once."""
    if isinstance(item, ScoreLine):
        score_line(m, item)
    elif isinstance(item, RevealLine):
        if m.round is not None and m.round.ended:
            reveal_line(m, item)
    elif isinstance(item, RoundLine | Turn | MugginsCall):
        if isinstance(item, RoundLine):
            m.round = None
        # One finding for the first line past the end: the rest of the
        # record follows from it and would only repeat it.
        if m.after_end_reported:
            return
        m.after_end_reported = True
        what = "a new round" if isinstance(item, RoundLine) else "a play"
        m.report.error(item.line, item.column, "after-match-end",
                       f"{what} after {m.won_text()}; "
                       "the match was over (later lines are not checked)")


def check_result(m: MatchState) -> None:
    """The Result tag against the match as replayed; with totals that
    hidden hands leave unknown, the tag names the winner."""
    tag = m.match.tag_line("Result")
    value = tag.value.strip() if tag is not None else None
    if m.loose and m.winner is None:
        # The totals since a turn set aside are not known: whether the
        # match ended, and who won, is the Result tag's to say.
        if value in m.seat:
            m.winner = m.seat[value]
        return
    if m.scores_uncertain and m.winner is None and value in m.seat:
        assert tag is not None and value is not None
        m.report.unverified(m.round, tag.line, tag.column, "result",
                            f"the totals depend on hidden hands, so that {value} "
                            "won is taken from the Result tag, not recomputed")
        m.winner = m.seat[value]
        return
    winner = m.players[m.winner] if m.winner is not None else None
    if tag is not None:
        if value == "*":
            if winner is not None:
                m.report.error(tag.line, tag.column, "result-mismatch",
                               f"Result is *, but {m.won_text()}")
            return
        if winner is not None:
            if value != winner:
                m.report.error(tag.line, tag.column, "result-mismatch",
                               f"Result names {value}, but {winner} won")
            return
        if value not in m.seat:
            m.report.error(tag.line, tag.column, "result-mismatch",
                           f"Result names {value}, who is not a player")
            return
    if winner is None:
        _unfinished(m, tag.line if tag is not None else None,
                    tag.column if tag is not None else 1)


def _unfinished(m: MatchState, line: int | None, column: int) -> None:
    rnd = m.round
    if m.scores_uncertain:
        m.report.unverified(rnd, line if line is not None else m.match.line, 1, "result",
                            "the totals depend on hidden hands, so whether anyone reached "
                            f"{m.target} is not known")
        return
    inside = rnd is not None and not rnd.ended and not rnd.skipping
    if rules_of.credit_ends_match(m.r):
        undecided = f"before anyone reached {m.target}"
    else:
        undecided = ("before a round ended with one total alone the highest at or above "
                     f"{m.target}")
    m.report.warn(line if line is not None else m.match.line, column, "unfinished",
                  (f"the record ends inside round {rnd.number}"
                   if inside and rnd is not None else "the record ends")
                  + f" {undecided}; write [Result \"*\"] for an unfinished match")
