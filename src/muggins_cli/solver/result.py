"""What :func:`~muggins_cli.solver.api.solve` answers: every legal move
with its value, the best one, and how far the answer can be trusted; and
how the moves' values, found one search at a time, become that answer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

from muggins_cli.engine.state import RoundState
from muggins_cli.solver.common import Budget, BudgetExhausted, Mode, Objective, Stopped
from muggins_cli.solver.game import SolverMove
from muggins_cli.solver.kernel import preference
from muggins_cli.solver.roots import Vec


class Row(NamedTuple):
    """One root move while it is being valued: becomes a :class:`MoveValue`."""

    move: SolverMove
    value: float | None
    pv: list[SolverMove]
    results: Vec | None = None


def rows(moves: Sequence[SolverMove]) -> list[Row]:
    """Every move without a value yet (what a search that stops at once returns)."""
    return [Row(m, None, [m]) for m in moves]


class Stop:
    """Where :func:`stopping` writes why a search stopped (None: it finished)."""

    reason: Stopped | None = None


@contextmanager
def stopping(stop: Stop) -> Iterator[None]:
    """Run a search that may stop: a budget running out or Ctrl-C ends it
    and is noted in ``stop``; what the search wrote so far is kept."""
    try:
        yield
    except BudgetExhausted as exc:
        stop.reason = exc.reason
    except KeyboardInterrupt:
        stop.reason = Stopped.INTERRUPT


@dataclass(frozen=True)
class MoveValue:
    """One legal move, its value for the mover and what follows it.

    ``results`` is the whole result vector by seat under max-n (three or
    four players), None otherwise. ``pv`` starts with the move itself; in
    ``expect`` it stops at the first draw (its tile is unknown), in
    ``sample`` it is the move alone (every deal goes on differently).
    ``deals`` are the move's values in each sampled deal or stock order, in
    the order they were dealt (the same deals for every move, so two
    moves' differences can be paired); empty for an exact answer.
    For a deal whose search did not finish, ``deals`` holds the middle of
    the range the move's value in it is known to lie in, and ``spread`` how
    far either way the value may lie from it (0 for a deal solved; empty
    when every deal was solved).
    """

    move: SolverMove
    value: float | None
    pv: list[SolverMove]
    results: tuple[float, ...] | None = None
    deals: tuple[float, ...] = ()
    spread: tuple[float, ...] = ()


@dataclass
class SolveResult:
    """The answer of :func:`solve` (see the module docstring)."""

    mode: Mode
    objective: Objective
    to_move: int
    moves: list[MoveValue]
    best: SolverMove | None
    value: float | None
    exact: bool
    nodes: int
    seconds: float
    method: str
    samples: int = 0
    stopped: Stopped | None = None
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    #: Deals (or stock orders) dealt; each one dealt is counted in
    #: ``samples``, unless a budget shared by every deal (no ``enough``)
    #: or Ctrl-C stopped its search.
    dealt: int = 0
    #: Deals counted with a bound on their values (``MoveValue.spread``)
    #: because their search did not finish in what it might take.
    unfinished: int = 0
    #: The nodes each deal's search took, in the order they were dealt.
    deal_nodes: tuple[int, ...] = ()
    #: ``sample``: the sampled deal the principal variations were played
    #: in (the one whose value of the best move lies nearest its average);
    #: None when there are none.
    deal: RoundState | None = None


def finish(
    mode: Mode, objective: Objective, seat: int, values: list[Row], exact: bool, nodes: int,
    budget: Budget, method: str, *, samples: int = 0, stopped: Stopped | None = None,
) -> SolveResult:
    """The answer made of the moves' rows: the best is the one the mover
    prefers among those valued (the first of equals), and the answer is
    exact only when every move has its value."""
    moves = [MoveValue(m, v, p, r) for m, v, p, r in values]
    best: SolverMove | None = None
    best_value: float | None = None
    best_key: tuple[float, ...] | None = None
    for mv in moves:
        if mv.value is None:
            continue
        key: tuple[float, ...] = (mv.value,)
        if mv.results is not None:
            own, worst, rest = preference(mv.results, seat)
            key = (own, worst, *rest)
        if best_key is None or key > best_key:
            best, best_value, best_key = mv.move, mv.value, key
    complete = all(mv.value is not None for mv in moves)
    notes = []
    if stopped is not None and complete and exact:
        notes.append("every value is exact; the budget ran out while writing the principal "
                     "variations, which may stop short")
    return SolveResult(
        mode=mode, objective=objective, to_move=seat, moves=moves, best=best,
        value=best_value, exact=exact and complete, nodes=nodes,
        seconds=budget.elapsed(), method=method, samples=samples, stopped=stopped,
        interrupted=stopped is Stopped.INTERRUPT, notes=notes,
    )

