"""What one :func:`~muggins_cli.solver.api.solve` call searches, as one value.

A search is asked for with a position (what is on the table, and the scores
and target that place it in its match) and a :class:`Plan`: how much of the
position the search may see, what it maximises, how long it may run and,
for the views that deal hidden tiles, how many deals, from which seed, and
when to stop dealing. The plan is frozen, so a caller can keep one and ask
for many positions with it, and a variant is ``dataclasses.replace(plan,
...)``: what a search was told is never changed under it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from muggins_cli.solver.common import Mode, Objective
from muggins_cli.solver.game import SolverMove
from muggins_cli.solver.knowledge import Prior, WeightedDeal


class Multi(str, Enum):
    """How three or four players are searched: ``max-n`` (each player for
    themselves; exact but slow from a round's start) or ``paranoid`` (the
    others as one side against the mover: see :mod:`.kernel`)."""

    MAXN = "max-n"
    PARANOID = "paranoid"


#: Called after each sampled deal with every move's values so far (in deal
#: order; a move left out of a deal has no value for it) and the number of
#: deals solved: the moves worth valuing in the next deal, or None when the
#: answer is known well enough and sampling may stop.
Enough = Callable[[Mapping[SolverMove, Sequence[float]], int], Collection[SolverMove] | None]


@dataclass(frozen=True)
class Plan:
    """How to search a position (the module docstring of
    :mod:`muggins_cli.solver.api` says what each mode and objective means).

    The words ``mode``, ``objective`` and ``multi`` may be given as their
    strings (``"sample"``): they are read into their enums here, and a word
    that is none of them fails here, before any search.
    """

    mode: Mode = Mode.PERFECT
    objective: Objective = Objective.POINTS
    #: Three or four players: max-n or the paranoid view.
    multi: Multi = Multi.MAXN
    #: Seconds for the whole answer (None: no limit).
    time_limit: float | None = None
    #: Nodes for the whole answer; with ``enough``, for each deal's search.
    node_limit: int | None = None
    #: The principal variations (the benchmark's sampled modes skip them).
    pv: bool = True
    #: ``sample`` and ``expect`` past its budget: how many deals (or stock
    #: orders) to average at most, and the seed they are dealt from.
    samples: int = 32
    seed: int = 0
    #: ``sample``: asked after each deal which moves to value in the next
    #: one, or whether to stop; each deal then counts whatever its search
    #: costs (see :func:`muggins_cli.solver.sampled.average`).
    enough: Enough | None = None
    #: ``sample`` with ``enough``: the deals stop once they have searched
    #: this many nodes together, a bound on an answer's work that does not
    #: depend on the machine's speed.
    node_total: int | None = None
    #: ``sample``: a belief about the other hands beyond the voids
    #: (:class:`~muggins_cli.solver.knowledge.Sampler`).
    prior: Prior | None = None
    #: ``sample``: these deals instead of sampled ones, each solved once and
    #: weighed by its weight; exact when every one was solved within the
    #: budget (``node_limit`` is then shared by all of them); ``samples``,
    #: ``enough`` and ``prior`` play no part.
    deals: Sequence[WeightedDeal] | None = None
    #: ``sample``: when the budget runs out before the first deal is solved,
    #: that deal is solved whole past it, so that every move still gets a
    #: value (from that one deal, with a note saying so).
    first_whole: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode(self.mode))
        object.__setattr__(self, "objective", Objective(self.objective))
        object.__setattr__(self, "multi", Multi(self.multi))
