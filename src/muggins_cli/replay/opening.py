"""A round's opening lines (``round``, ``lead``, ``deal``, ``stock``), the
hands set up at its first turn, and who may lead it.

Who leads is the engine's to say (:func:`~muggins_cli.engine.state.next_leader`,
:func:`~muggins_cli.engine.state.highest_double`); here the record's lines
are held to it, and to the set they are dealt from.
"""

from __future__ import annotations

from muggins_cli.engine.state import highest_double, leads_by_deal, next_leader
from muggins_cli.notation.model import DealLine, LeadLine, Placement, RoundLine, StockLine, Turn
from muggins_cli.replay.closing import settle_round
from muggins_cli.replay.deduce import deduce_round
from muggins_cli.replay.state import HandView, MatchState, Round
from muggins_cli.tiles import Tile, bits_of, tiles_of


def round_line(m: MatchState, item: RoundLine) -> None:
    rnd = m.round
    if rnd is not None and item.number == rnd.number and not rnd.started and not rnd.deals \
            and rnd.lead_line is None and rnd.stock_line is None:
        # The round's line written twice: one round, read once.
        m.report.error(item.line, item.column, "bad-round",
                       f"expected round {rnd.number + 1}, got round {item.number}; the "
                       f"line repeats line {rnd.line} and is read once")
        return
    m.report.since = 0  # a turn set aside speaks for its own round only
    if rnd is not None and not rnd.ended and not rnd.skipping and not rnd.doubt:
        if m.hidden_block_possible(rnd):
            m.end_blocked(rnd, item.line, item.column, inferred=True)
            settle_round(m)
        else:
            m.report.error(item.line, item.column, "bad-round",
                           f"round {item.number} starts before round {rnd.number} ended")
            # Its end, and so the totals after it, are not known.
            rnd.doubt_from(item.line)
            m.loose = True
    expected = m.rounds + 1
    if item.number != expected:
        m.report.error(item.line, item.column, "bad-round",
                       f"expected round {expected}, got round {item.number}")
    m.rounds += 1
    m.prev_round = rnd
    m.lead_after_end = None
    m.round = Round(expected, item.line, len(m.players), m.rules)


def _expected_leader(m: MatchState) -> int | None:
    """Who must lead this round, or None when a lot (or the deal) decides,
    or the last round's end is not known (it was not followed to its end)."""
    prev = m.prev_round
    if prev is None or not _followed(prev):
        return None
    return next_leader(prev.went_out)


def _followed(rnd: Round) -> bool:
    """Whether the replay followed ``rnd`` to its end, knowing how it ended."""
    return rnd.ended and not rnd.skipping and not rnd.doubt


def leader_due(m: MatchState, rnd: Round) -> int | None:
    """Who must lead ``rnd`` as far as the record and the last round say (its
    `lead` line, or who went out last), or None when anyone may: a lot
    that no line states, a `lead` line against the rules (either player
    is then taken), the highest double of the deal, a last round whose end
    is not known."""
    prev = m.prev_round
    if leads_by_deal(m.rules) and (prev is None or (_followed(prev) and prev.went_out is None)):
        return None
    if rnd.lead_seat is not None:
        return None if rnd.lead_wrong else rnd.lead_seat
    return _expected_leader(m)


def double_holder(m: MatchState, rnd: Round) -> int | None:
    """Who leads ``rnd`` by its deal: under ``lead_tile: highest-double``, in
    a round that no going out decides, the seat dealt the highest double,
    when the deal lines give every hand; else None. Before the first turn
    as after it, so that a lead left out is seen on the turn after it."""
    if rnd.started:
        return rnd.lead_tile[0] if rnd.by_deal and rnd.lead_tile is not None else None
    prev = m.prev_round
    if not leads_by_deal(m.rules) or not (
            prev is None or (_followed(prev) and prev.went_out is None)):
        return None
    n = len(m.players)
    if len(rnd.deals) != n:
        return None
    every = m.table.all_mask
    found = highest_double([tiles_of(rnd.dealt[seat] & every) for seat in range(n)])
    return None if found is None else found[0]


def _unopened(m: MatchState, item: DealLine | StockLine) -> bool:
    """A `deal` or `stock` line after the round ended: the next round's,
    whose `round` line is missing. Said once, on the line, then read as
    that round's start (with a `lead` line read just before it), so that
    its deal is checked and its play followed. False when the round has
    not ended (the line is then out of place in it)."""
    rnd = m.round
    if rnd is None or not rnd.ended or _round_line_follows(m):
        return False
    what = "deal" if isinstance(item, DealLine) else "stock"
    m.report.error(item.line, item.column, "bad-deal",
                   f"a `{what}` line must come before the round's first turn; round "
                   f"{rnd.number} has ended and no `round {rnd.number + 1}` line starts the "
                   "next one: read as its start")
    m.report.since = 0
    m.rounds += 1
    m.prev_round = rnd
    m.round = Round(m.rounds, item.line, len(m.players), m.rules)
    lead = m.lead_after_end
    if lead is not None:
        m.lead_after_end = None
        lead_line(m, lead)
    return True


def _round_line_follows(m: MatchState) -> bool:
    """Whether a `round` line comes after the line being read, before the
    next turn: the lines were written in another order, not without it."""
    for item in m.match.body[m.index + 1:]:
        if isinstance(item, RoundLine):
            return True
        if isinstance(item, Turn):
            return False
    return False


def lead_line(m: MatchState, item: LeadLine) -> None:
    rnd = m.round
    if rnd is not None and rnd.ended:
        m.lead_after_end = item  # the next round's, if a deal line shows it begun
        return
    if rnd is None or rnd.skipping:
        return
    if rnd.started:
        m.report.error(item.line, item.column, "bad-round",
                       "a `lead` line must come before the round's first turn")
        return
    seat = m.seat[item.player]
    expected = _expected_leader(m)
    # A round led by the deal is checked at its first turn, once the
    # deal lines (which follow the lead line) have been read.
    rnd.lead_by(item, seat, rnd.lead_wrong or (expected is not None and expected != seat))
    if expected is not None and expected != seat:
        m.report.error(item.line, item.player_column, "wrong-leader",
                       f"{m.players[expected]} went out last round and leads round "
                       f"{rnd.number}, not {item.player}")


def deal_line(m: MatchState, item: DealLine) -> None:
    rnd = m.round
    if rnd is None or rnd.skipping:
        return
    if rnd.started:
        if not _unopened(m, item):
            m.report.error(item.line, item.column, "bad-deal",
                           "a `deal` line must come before the round's first turn")
            return
        rnd = m.round
        assert rnd is not None
    seat = m.seat[item.player]
    if seat in rnd.deals:
        m.report.error(item.line, item.column, "bad-deal",
                       f"{item.player} already has a deal line in this round")
        return
    # The tiles of the round's deal lines so far and of this one, as bits
    # of Tile.index (a tile with too many pips too): no set per line.
    dealt = rnd.dealt_bits
    max_pip = m.rules.max_pip
    ok = True
    mine = 0
    for tok in item.tiles:
        t = tok.tile
        bit = 1 << t.index()
        if t.hi > max_pip:
            m.report.error(tok.line, tok.column, "bad-deal",
                           f"{tok} is not in a double-{max_pip} set")
            ok = False
        elif (dealt | mine) & bit:
            m.report.error(tok.line, tok.column, "bad-deal", f"{tok} is dealt twice")
            ok = False
        mine |= bit
    size = m.rules.hand_size_for(len(m.players))
    if len(item.tiles) != size and ok:
        m.report.error(item.line, item.column, "bad-deal",
                       f"{item.player} is dealt {len(item.tiles)} tiles; "
                       f"with {len(m.players)} players a hand is {size}")
    rnd.dealt_to(seat, item, mine)


def stock_line(m: MatchState, item: StockLine) -> None:
    rnd = m.round
    if rnd is None or rnd.skipping:
        return
    if rnd.started and _unopened(m, item):
        rnd = m.round
        assert rnd is not None
    if rnd.started or rnd.stock_line is not None:
        m.report.error(item.line, item.column, "bad-deal",
                       "a `stock` line must come once, before the round's first turn")
        return
    rnd.stock_written(item)


def open_play(m: MatchState, rnd: Round) -> None:
    """Set up hands and stock when the first turn arrives (a round whose
    deal lines are not enough to play from is played with those hands
    hidden: :func:`_hands_shown`)."""
    n = len(m.players)
    size = m.rules.hand_size_for(n)
    hands, seen, pool = _hands_shown(m, rnd, size)
    rnd.open(hands, seen, pool, m.table.n_tiles - n * size)
    if rnd.stock_line is not None:
        _check_stock(m, rnd, rnd.stock_line, pool)
    _lead_by_deal(m, rnd)


def _hands_shown(m: MatchState, rnd: Round, size: int
                 ) -> tuple[list[HandView], int, int | None]:
    """The hands as the record shows them at the first turn, the tiles
    whose place that makes certain, and the stock's contents (None: not
    known): the rest of the set once every hand is known, dealt or given
    away by the record."""
    n = len(m.players)
    every = m.table.all_mask
    seen = 0
    if rnd.deals and len(rnd.deals) != n:
        missing = [i for i in range(n) if i not in rnd.deals]
        first = min(d.line for d in rnd.deals.values())
        m.report.error(first, 1, "bad-deal", "deal lines for only some players (none for "
                       + ", ".join(m.players[i] for i in missing) + ")")
        # The hands without a line are hidden, as in a record kept without
        # deals; with one of them and the stock line, it is what is left.
        hands = [HandView(rnd.dealt[seat] & every) if seat in rnd.dealt
                 else HandView(0, size) for seat in range(n)]
        seen = rnd.dealt_bits & every
        stock = rnd.stock_line
        if len(missing) == 1 and stock is not None:
            rest = _rest_of_set(every, rnd.dealt_bits | bits_of(t.tile for t in stock.tiles), size)
            if rest:
                hands[missing[0]] = HandView(rest)
                seen |= rest
                return hands, seen, every & ~seen
        return hands, seen, None
    if rnd.deals:
        # A tile off the set is reported on the deal line and not held.
        hands = [HandView(rnd.dealt[seat] & every) for seat in range(n)]
        return hands, seen, every & ~rnd.dealt_bits
    return _hands_given_away(m, rnd, size)


def _hands_given_away(m: MatchState, rnd: Round, size: int
                      ) -> tuple[list[HandView], int, int | None]:
    """:func:`_hands_shown` in a round without deal lines: the hands its
    play gives away (:func:`.deduce.deduce_round`), weighed against its
    stock line and its own turns."""
    n = len(m.players)
    every = m.table.all_mask
    seen = 0
    given = {i: bits_of(h) for i, h in deduce_round(m.match.body, rnd.line, m.seat, size).items()}
    stock_first = True
    if rnd.stock_line is not None:
        # A hand given away that holds a tile the stock line lists: the
        # stock line or a turn is wrong (a slip in a turn gives away a
        # wrong hand). Taking the stock as written, the hand is hidden, so
        # that the turns, held to the stock, show the slip once; taking the
        # hands, the stock line is the slip. Whichever the round bears out.
        listed = bits_of(tok.tile for tok in rnd.stock_line.tiles)
        kept = {i: bits for i, bits in given.items() if not bits & listed}
        stock_first = len(kept) == len(given) or m.stock_line_first()
        if stock_first:
            given = kept
        if stock_first and len(given) == n - 1:
            (hidden,) = set(range(n)) - set(given)
            taken = listed
            for bits in given.values():
                taken |= bits
            rest = _rest_of_set(every, taken, size)
            if rest:
                given[hidden] = rest
    hands = [HandView(given[i]) if i in given else HandView(0, size) for i in range(n)]
    # A tile a turn of the round cannot place is no evidence of its hand.
    doubt = m.doubted_tile(given, stock_first) if given else None
    if doubt is not None:
        seat, tile = doubt
        hands[seat] = HandView(hands[seat].bits & ~(1 << tile.index()), 1)
    for view in hands:
        seen |= view.bits
    return hands, seen, every & ~seen if all(view.complete for view in hands) else None


def _rest_of_set(every: int, taken: int, size: int) -> int:
    """The tiles of the set (``every``, bits) outside ``taken``, when they
    make one hand of ``size``: the one hand neither a line nor the play
    shows, beside all the others and the stock line. 0 when they do not."""
    rest = every & ~taken
    return rest if rest.bit_count() == size else 0


def _lead_by_deal(m: MatchState, rnd: Round) -> None:
    """Under ``lead_tile: highest-double``, a round that no going out
    decides is led by the highest double dealt; a deal without one
    would have been dealt again. Hands the record gives away without deal
    lines (:func:`.deduce.deduce_round`) are held to that as if dealt,
    the finding then on the ``round`` line."""
    prev = m.prev_round
    by_deal = leads_by_deal(m.rules) and (
        prev is None or (_followed(prev) and prev.went_out is None))
    if not by_deal or not rnd.hands_known:
        rnd.led_by_deal(by_deal, None)
        return
    rnd.led_by_deal(by_deal, highest_double([h.known for h in rnd.hands]))
    if rnd.lead_tile is None:
        line, column = rnd.line, 1
        if rnd.deals:
            last = max(rnd.deals.values(), key=lambda d: d.line)
            line, column = last.line, last.column
        m.report.error(line, column, "bad-deal",
                       f"nobody is dealt a double in round {rnd.number}; with the highest "
                       "double leading, such a deal is dealt again")


def _check_stock(m: MatchState, rnd: Round, item: StockLine, pool: int | None) -> None:
    """``pool``: the undealt tiles (bits) when every hand is known (dealt,
    or given away by the play and taken over the stock line)."""
    every = m.table.all_mask
    seen = 0
    for tok in item.tiles:
        bit = 1 << tok.tile.index()
        if not every & bit:
            m.report.error(tok.line, tok.column, "bad-deal", f"{tok} is not in the set")
            return
        if seen & bit:
            m.report.error(tok.line, tok.column, "bad-deal", f"{tok} is twice in the stock")
            return
        seen |= bit
    if pool is not None and seen != pool:
        parts = []
        if pool & ~seen:
            parts.append("lacks " + " ".join(map(str, sorted(tiles_of(pool & ~seen)))))
        if seen & ~pool:
            parts.append("holds dealt tiles " + " ".join(map(str, sorted(tiles_of(seen & ~pool)))))
        m.report.error(item.line, item.column, "bad-deal",
                       "the stock is not the undealt tiles: it " + " and ".join(parts))
        return
    if pool is None and len(item.tiles) != rnd.stock_count:
        m.report.error(item.line, item.column, "bad-deal",
                       f"the stock holds {len(item.tiles)} tiles; {rnd.stock_count} were "
                       "left undealt")
        return
    # Without a deal in the record, the hands are the complement of the
    # stock, in unknown shares.
    rnd.stock_known([tok.tile for tok in item.tiles], seen, hidden_hands=pool is None)


def check_leader(m: MatchState, rnd: Round, t: Turn, seat: int) -> bool:
    """The round's first turn: is it the leader's? True when it said, on
    this turn, that it is not: what else the turn does wrong on an empty
    table (a pass) is that same slip."""
    if rnd.by_deal:
        return _check_double_lead(m, rnd, t, seat)
    expected = _expected_leader(m)
    if rnd.lead_seat is not None:
        if seat != rnd.lead_seat and not (rnd.lead_wrong and seat == expected):
            m.report.error(t.line, t.column, "wrong-leader",
                           f"{m.players[rnd.lead_seat]} leads round {rnd.number}, "
                           f"not {t.player}")
            return True
    elif expected is None:
        prev = m.prev_round
        if (prev is not None and not _followed(prev)) or m.dropped_since(rnd.line, t.line):
            # The last round's end was not followed (its finding said why),
            # or a line of this round's opening went unread, the `lead`
            # line perhaps: who leads is not known.
            return False
        why = ("round 1" if prev is None else
               f"round {rnd.number} after a blocked round")
        m.report.error(t.line, t.column, "wrong-leader",
                       f"{why} needs a `lead` line (the leader is chosen by lot)")
    elif seat != expected:
        m.report.error(t.line, t.column, "wrong-leader",
                       f"{m.players[expected]} went out last round and leads round "
                       f"{rnd.number}, not {t.player}")
        return True
    return False


def _check_double_lead(m: MatchState, rnd: Round, t: Turn, seat: int) -> bool:
    """The holder of the highest double dealt leads it: one finding per
    round, on the `lead` line that names someone else, else on the turn
    (then True)."""
    action = t.action
    led = action.tile.tile if isinstance(action, Placement) else None
    shown = str(action.tile) if isinstance(action, Placement) else "a pass"
    if rnd.lead_tile is None:
        return _check_hidden_double_lead(m, rnd, t, seat, led, shown)
    holder, double = rnd.lead_tile
    name = m.players[holder]
    if rnd.lead_seat is not None and rnd.lead_seat != holder:
        lead = rnd.lead_line
        assert lead is not None
        m.report.error(lead.line, lead.player_column, "wrong-leader",
                       f"{name} holds {double}, the highest double dealt, and leads round "
                       f"{rnd.number} with it, not {lead.player}")
        if seat in (holder, rnd.lead_seat):
            return False
    if seat != holder:
        m.report.error(t.line, t.column, "wrong-leader",
                       f"{name} holds {double}, the highest double dealt, and leads round "
                       f"{rnd.number} with it, not {t.player}")
        return True
    if led != double:
        m.report.error(action.line, action.column, "wrong-leader",
                       f"{name} must lead {double}, the highest double dealt, not {shown}")
        return True
    return False


def _check_hidden_double_lead(m: MatchState, rnd: Round, t: Turn, seat: int,
                              led: Tile | None, shown: str) -> bool:
    """A round led by the highest double whose hands are hidden: only a
    lead that is no double is certainly wrong."""
    if rnd.deals or rnd.hands_known:
        return False  # no double dealt: reported by _lead_by_deal
    action = t.action
    said = False
    if led is not None and not led.is_double:
        m.report.error(action.line, action.column, "wrong-leader",
                       f"round {rnd.number} opens with the highest double dealt, "
                       f"not {shown}")
        said = True
    elif led is not None:
        m.report.unverified(rnd, action.line, action.column, "lead-double",
                            f"round {rnd.number}: hands are not in the record, so "
                            f"whether {led} was the highest double dealt is not checked")
    if rnd.lead_seat is not None and seat != rnd.lead_seat:
        m.report.error(t.line, t.column, "wrong-leader",
                       f"{m.players[rnd.lead_seat]} leads round {rnd.number}, "
                       f"not {t.player}")
        said = True
    return said
