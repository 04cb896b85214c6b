"""The replay's round changes only through its transitions
(:class:`muggins_cli.replay.state.Round`), each keeping what belongs
together together: a draw makes the stock smaller and what may be drawn
of it with it, a tile laid leaves the hand and joins the table, a round
never ends without saying how.

The first test holds the tracker's modules to it, reading their source: no
module of the replay but ``state.py`` writes a field of a round or a hand.
The others work each transition by hand on a small round.
"""

from __future__ import annotations

import ast

from muggins_cli.engine.keys import EMPTY as EMPTY_KEY
from muggins_cli.engine.table import table_for
from muggins_cli.notation.model import Turn
from muggins_cli.notation.parser import parse_text
from muggins_cli.replay.state import HandView, Round
from muggins_cli.rules.loader import load_preset
from muggins_cli.tiles import End, Tile

from .conftest import REPO

REPLAY = REPO / "src" / "muggins_cli" / "replay"


def _fields(cls: str) -> set[str]:
    """The attributes ``cls`` of state.py sets on ``self`` in ``__init__``."""
    tree = ast.parse((REPLAY / "state.py").read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    init = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
    return {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign | ast.AnnAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Attribute)}


def _written(tree: ast.AST, fields: set[str]) -> list[tuple[int, str]]:
    """Where ``tree`` stores to, or changes in place, an attribute of
    ``fields`` of anything but ``self`` (the tracker's own, not a round's)."""
    out = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "add", "remove", "discard", "clear", "pop"):
            targets = [node.func.value]
        for t in targets:
            while isinstance(t, ast.Subscript):
                t = t.value
            if isinstance(t, ast.Attribute) and t.attr in fields \
                    and not (isinstance(t.value, ast.Name) and t.value.id == "self"):
                out.append((t.lineno, t.attr))
    return out


def test_only_the_round_changes_its_fields() -> None:
    fields = (_fields("Round") | _fields("HandView")) - {"round"}
    assert {"key", "laid", "stock_count", "can_draw", "ended", "bits", "unknown"} <= fields
    wrong = {}
    for path in sorted(REPLAY.glob("*.py")):
        if path.name == "state.py":
            continue
        found = _written(ast.parse(path.read_text(encoding="utf-8")), fields)
        if found:
            wrong[path.name] = found
    assert wrong == {}, f"round fields set outside its transitions: {wrong}"


def test_the_check_finds_a_field_written_outside() -> None:
    code = "def f(rnd, m):\n    rnd.key = 3\n    m.round.aside.append(4)\n    rnd.hands[0].bits |= 1\n"
    assert sorted(_written(ast.parse(code), {"key", "aside", "bits"})) == [
        (2, "key"), (3, "aside"), (4, "bits")]


def _b(tile: Tile) -> int:
    return 1 << tile.index()


def _round(stock: list[Tile] | None = None) -> Round:
    rules = load_preset("pagat")  # no reserve: every tile of the stock may be drawn
    rnd = Round(1, 5, 2, rules)
    hands = [HandView(_b(Tile(6, 6)) | _b(Tile(4, 6))), HandView(0, 2)]
    rnd.open(hands, _b(Tile(6, 6)) | _b(Tile(4, 6)), None, 3)
    if stock is not None:
        rnd.stock_known(stock, sum(_b(t) for t in stock), hidden_hands=False)
    return rnd


def _turn() -> Turn:
    (match,) = parse_text('[Players "Ana, Budi"]\n\nround 1\nAna: 6-6\n')
    t = match.body[1]
    assert isinstance(t, Turn)
    return t


def test_open_sets_the_hands_and_what_may_be_drawn() -> None:
    rnd = _round()
    assert rnd.started and rnd.stock_count == 3 and rnd.can_draw == 3
    assert [h.size for h in rnd.hands] == [2, 2] and not rnd.hands_known


def test_a_draw_takes_the_next_tile_of_a_known_stock() -> None:
    stock = [Tile(0, 1), Tile(2, 3), Tile(5, 5)]
    rnd = _round(stock)
    rnd.draw(0, stock[0])
    assert rnd.stock == [Tile(2, 3), Tile(5, 5)]
    assert rnd.stock_pool == _b(Tile(2, 3)) | _b(Tile(5, 5))
    assert rnd.stock_count == 2 and rnd.can_draw == 2
    assert rnd.hands[0].bits & _b(Tile(0, 1))
    # A tile of the stock drawn out of order leaves it too.
    rnd.draw(0, Tile(5, 5))
    assert rnd.stock == [Tile(2, 3)] and rnd.stock_count == 1 and rnd.can_draw == 1


def test_a_hidden_draw_adds_a_hidden_tile_and_a_shown_one_is_placed_for_sure() -> None:
    rnd = _round()
    rnd.draw(1, None)
    assert rnd.hands[1].unknown == 3 and rnd.stock_count == 2
    rnd.draw(1, Tile(1, 2))
    assert rnd.seen & _b(Tile(1, 2)) and rnd.hands[1].size == 4
    rnd.draw(1, None)
    rnd.draw(1, None)  # past the stock: it stays empty
    assert rnd.stock_count == 0 and rnd.can_draw == 0


def test_lay_moves_the_tile_from_the_hand_to_the_table() -> None:
    rnd = _round()
    table = table_for(rnd.rules)
    rnd.pass_turn(1)
    key = table.lead(Tile(6, 6), 6)
    rnd.lay(0, Tile(6, 6), _b(Tile(6, 6)), True, None, 6, key)
    assert rnd.hands[0].bits == _b(Tile(4, 6))
    assert rnd.to_move == 1  # the next seat, whatever the placement credits
    assert rnd.laid == [(Tile(6, 6), None, 6)] and rnd.key == key and rnd.key != EMPTY_KEY
    assert rnd.passes == 0  # a placement ends a run of passes
    assert [str(t) for t in rnd.layout.tiles()] == ["6-6"]
    # A hidden tile of Budi's: one fewer hidden, its place certain, no end's half kept.
    (_, after, _), *_ = table.moves(key, Tile(1, 6).index())
    rnd.lay(1, Tile(1, 6), _b(Tile(1, 6)), False, End.L, 1, after)
    assert rnd.hands[1].unknown == 1 and rnd.seen & _b(Tile(1, 6))
    assert rnd.to_move == 0
    assert rnd.laid[-1] == (Tile(1, 6), End.L, 0)


def test_passes_go_round_the_table() -> None:
    rnd = _round()
    rnd.pass_turn(1)
    assert (rnd.to_move, rnd.passes) == (0, 1)
    rnd.pass_turn(0)
    assert (rnd.to_move, rnd.passes) == (1, 2)


def test_the_ends_of_a_round() -> None:
    rnd = _round()
    rnd.block()
    assert rnd.ended and rnd.blocked and rnd.closing_passes == 0 and rnd.went_out is None
    rnd.closing_pass(1)
    assert rnd.closing_passes == 0b10 and rnd.to_move == 0
    rnd.settle((0, 12))
    assert rnd.settled and rnd.settlement == (0, 12)
    other = _round()
    other.go_out(0)
    assert other.ended and other.went_out == 0 and not other.blocked
    other.settle(None)
    assert other.settled and other.settlement is None


def test_a_reveal_makes_a_hand_known() -> None:
    rnd = _round()
    rnd.reveal(1, _b(Tile(0, 0)) | _b(Tile(3, 3)))
    assert rnd.hands_known and rnd.hands[1].known == {Tile(0, 0), Tile(3, 3)}
    assert rnd.seen & _b(Tile(3, 3))


def test_the_first_doubt_stands_and_notes_are_once() -> None:
    rnd = _round()
    rnd.doubt_from(9)
    rnd.doubt_from(12)
    assert rnd.doubt == 9
    assert rnd.first_note("pass") and not rnd.first_note("pass") and rnd.first_note("draw")


def test_a_turn_begun_and_lines_counted() -> None:
    rnd = _round()
    t = _turn()
    rnd.begin_turn(1, t)  # a turn begun is a line counted
    assert (rnd.to_move, rnd.turns, rnd.turn_lines, rnd.last_turn_line) == (1, 1, 1, t.line)
    assert rnd.last_turn is t
    rnd.count_line()  # a line that begins no turn (a closing pass)
    assert (rnd.turns, rnd.turn_lines) == (1, 2)
    rnd.uncount_lines(0)
    assert rnd.turn_lines == 0 and rnd.turns == 1


def test_a_fork_shares_nothing_a_transition_changes() -> None:
    stock = [Tile(0, 1), Tile(2, 3)]
    rnd = _round(stock)
    other = rnd.fork()
    other.draw(0, Tile(0, 1))
    other.set_aside(7)
    other.first_note("pass")
    assert rnd.stock == stock and rnd.stock_count == 3 and rnd.aside == []
    assert not rnd.hands[0].bits & _b(Tile(0, 1)) and rnd.unverified == set()
