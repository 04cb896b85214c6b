"""The solver's options, shared by ``analyze`` and ``study``: one spelling,
one help text, one check of what goes with ``--solver``, and one way of
spreading the turns over processes with a count on stderr."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from enum import Enum
from typing import Annotated

import typer

from muggins_cli.analysis.weigh import (
    DEFAULT_SAMPLES,
    Weighed,
    Weigher,
    WeighOptions,
    not_weighed,
    weigh_decision,
    weigh_each,
)
from muggins_cli.batch import RETRIES, ClusterPool, TaskPool
from muggins_cli.cli.options import (
    NODES_MAX,
    NUMBER_MAX,
    SAMPLES_MAX,
    prepare_solver,
    worker_count,
)
from muggins_cli.cli.progress import ProgressCount
from muggins_cli.replay.position import Decision
from muggins_cli.report.analysis_report import TurnsWeighed
from muggins_cli.solver import missing

MistakeOption = Annotated[
    int, typer.Option("--mistake", min=1, max=NUMBER_MAX, metavar="POINTS",
                      help="A play that missed this many points or more is a mistake, "
                           "marked ? (in analyze's annotations, on the study page). With "
                           "--solver: one that lost this many points or "
                           "more beyond the uncertainty of a sampled cost (2.5 standard "
                           "errors), also reported as a costly-play warning; one known to "
                           "lie within 2.5 points of it either way is 'close'.")
]
BlunderOption = Annotated[
    int, typer.Option("--blunder", min=1, max=NUMBER_MAX, metavar="POINTS",
                      help="A play that missed (with --solver: lost) this many points or "
                           "more is a blunder, marked ??.")
]
SolverOption = Annotated[
    bool, typer.Option("--solver", help="Weigh every turn with the solver: what the play "
                                        "made gave away by the end of the round against "
                                        "the best play, and what the draws gave against "
                                        "the average draw. Adds lost, lost/turn and luck "
                                        "columns and costly-play warnings.",
                       rich_help_panel="Solver")
]
PerfectOption = Annotated[
    bool, typer.Option("--perfect", hidden=True,
                       help="The old spelling of --mode perfect.")
]
SolverSamplesOption = Annotated[
    int, typer.Option("--max-samples", "--samples", min=1, max=SAMPLES_MAX, metavar="K",
                      help="With --solver: the most deals of the unseen tiles one turn "
                           "may take (the search work a turn may take grows with K above "
                           "the default). A turn whose unseen tiles can be dealt in at most "
                           "512 ways has every deal valued: exact. Otherwise it takes at "
                           "least 16 deals, and more until its cost is known to lie on one "
                           "side of --mistake (and, within 64 deals, of --blunder), or "
                           "near it ('close'); a turn still undecided is 'uncertain'. "
                           "Neither is warned about. More deals: fewer of them, at more "
                           "time.",
                      rich_help_panel="Solver")
]
SolverNodesOption = Annotated[
    int | None, typer.Option("--deal-nodes", "--nodes", min=0, max=NODES_MAX, metavar="N",
                             help="With --solver: at most N search nodes per search (0: no "
                                  "cap; default 1,000,000). In the mover's view a deal may "
                                  "go on past N with what is left of its turn's work, and "
                                  "every deal dealt counts (one whose search still does not "
                                  "finish is counted with a bound on its values); a turn "
                                  "with fewer than 4 deals within its work is not weighed.",
                             show_default=False, rich_help_panel="Solver")
]
SolverSeedOption = Annotated[
    int, typer.Option("--seed", "-s", min=0, max=NUMBER_MAX, metavar="N",
                      help="With --solver: seed of the sampled deals (0 to 999,999,999; "
                           "the same seed gives the same values).",
                      rich_help_panel="Solver")
]


def weigh_options(*, solver: bool, perfect: bool, samples: int, nodes: int | None,
                  seed: int, mistake: int, blunder: int) -> WeighOptions | None:
    """What ``--solver`` and its options ask for, None without ``--solver``;
    ValueError naming the first option given without it, or what to
    install when the solver cannot run here."""
    if not solver:
        given = [name for name, on in (("--mode", perfect),
                                       ("--max-samples", samples != DEFAULT_SAMPLES),
                                       ("--deal-nodes", nodes is not None),
                                       ("--seed", seed != 0)) if on]
        if given:
            raise ValueError(f"{given[0]} goes with --solver")
        return None
    why = missing()
    if why is not None:
        raise ValueError(why)
    return WeighOptions(perfect=perfect, samples=samples, nodes=nodes, seed=seed,
                        costly=mistake, blunder=blunder)


@contextmanager
def solver_weigher(command: str, jobs: int | None, *, quiet: bool,
                   scheduler: str | None = None,
                   retries: int = RETRIES) -> Iterator[tuple[Weigher, ProgressCount]]:
    """A weigher that shares a match's turns over ``jobs`` processes (the
    cores by default), or over the Dask cluster at ``scheduler`` (a turn
    whose task keeps failing there is reported as not weighed), and counts
    them on stderr as they come back (the tally, which the caller also
    hands its results through): the turns, not the files, are the work,
    since one match can take a minute."""
    if scheduler is None:
        # The search compiled (or loaded) once, here, before the workers
        # fork: not once in each, and anything it has to say (that it is
        # preparing, where its code is kept) said once.
        prepare_solver(command, quiet=quiet)
    with ExitStack() as stack:
        pool: TaskPool | ClusterPool | None = None
        if scheduler is not None:
            pool = stack.enter_context(ClusterPool(scheduler, retries))
        else:
            # How many turns there are to weigh is known only as the
            # records are read: at most a process per core.
            n = worker_count(command, jobs, None, unit="turn")
            pool = stack.enter_context(TaskPool(n)) if n > 1 else None
        said = TurnsWeighed()  # what became of them, in the report's words
        tally = stack.enter_context(ProgressCount(quiet=quiet, verb="weighed", noun="turn",
                                          closing=said.words))

        def weigher(ds: Sequence[Decision], options: WeighOptions) -> Iterator[Weighed]:
            tally.add(len(ds))
            found = (pool.map(weigh_decision, ds, options, failed=not_weighed)
                     if pool is not None else weigh_each(ds, options))
            for w in found:
                tally.advance()
                said.add(w)
                yield w

        yield weigher, tally


class ViewOpt(str, Enum):
    """The views a turn is judged in, named as ``solve --mode`` names them."""

    perfect = "perfect"
    sample = "sample"


ModeOption = Annotated[
    ViewOpt, typer.Option("--mode", metavar="MODE",
                          help="With --solver: sample (the mover's view): judge each play "
                               "by what the mover could know, the unseen tiles dealt up to "
                               "--max-samples times; perfect: seeing every hand and the "
                               "stock as recorded (needs deal and stock lines). The modes of "
                               "`muggins solve`.",
                          rich_help_panel="Solver")
]


def perfect_view(mode: ViewOpt, perfect: bool) -> bool:
    """``--mode`` and its old spelling ``--perfect`` read together: True
    for the all-seeing view."""
    return perfect or mode is ViewOpt.perfect
