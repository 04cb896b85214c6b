"""``muggins solve``: every legal play of a recorded position with its value."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Annotated

import typer

from muggins_cli.analysis.solving import playable_position, solve_position
from muggins_cli.check import record_resolver
from muggins_cli.cli.app import app, interrupted
from muggins_cli.cli.options import (
    NODES_MAX,
    NUMBER_MAX,
    SAMPLES_MAX,
    SECONDS_MAX,
    Format,
    JsonOption,
    MatchOption,
    ObjectiveOpt,
    ObjectiveOption,
    QuietOption,
    fail,
    format_option,
    node_cap,
    output_format,
    prepare_solver,
)
from muggins_cli.errors import MugginsError
from muggins_cli.notation.reading import read_match
from muggins_cli.play.strategies import samples_for
from muggins_cli.replay.position import parse_at
from muggins_cli.report.solve_report import solve_json, solve_text
from muggins_cli.solver import require as require_solver

_NAME = "muggins solve"
#: Without --time or --nodes a search stops after this many seconds (a
#: three- or four-player round from its first turn, or an exact expectimax,
#: can run for hours); ``--time 0`` lifts the limit.
DEFAULT_TIME = 20.0


class ModeOpt(str, Enum):
    """The views of ``analyze`` and ``study`` (perfect, sample), and
    solve's own between them: every hand known, the stock's order not."""

    perfect = "perfect"
    expect = "expect"
    sample = "sample"


class MultiOpt(str, Enum):
    paranoid = "paranoid"
    max_n = "max-n"


@app.command("solve")
def solve_cmd(
    path: Annotated[
        str,
        typer.Argument(metavar="FILE", help="A record file, or - for stdin.", show_default=False),
    ],
    *,
    at: Annotated[
        str,
        typer.Option("--at", metavar="R.T",
                     help="The position: before turn T of round R (docs/notation.md 7).",
                     show_default=False),
    ],
    mode: Annotated[
        ModeOpt,
        typer.Option("--mode", metavar="MODE",
                     help="sample (the mover's view, as analyze and study judge by "
                          "default): only what the mover could know, --samples deals of "
                          "the unseen tiles averaged; perfect: every hand and the stock "
                          "order known (exact, as a double-dummy solver); expect: hands "
                          "known, each draw uniform over the stock."),
    ] = ModeOpt.sample,
    objective: ObjectiveOption = ObjectiveOpt.match,
    time_limit: Annotated[
        float | None,
        typer.Option("--time", metavar="S", min=0.0, max=SECONDS_MAX,
                     help="Stop after S seconds with the best answer so far (default 20 "
                          "unless --nodes is given; 0: no limit). Expect spends half of it "
                          "on the exact search, then samples stock orders. Sample mode "
                          "always finishes its first deal, past the limit if need be.",
                     show_default=False),
    ] = None,
    nodes: Annotated[
        int | None,
        typer.Option("--nodes", metavar="N", min=0, max=NODES_MAX,
                     help="Stop after N search nodes (0: no cap, as without --nodes; the "
                          "time limit then still applies).",
                     show_default=False),
    ] = None,
    multi: Annotated[
        MultiOpt,
        typer.Option("--multi", metavar="VIEW",
                     help="Three or four players: paranoid (the others play as one side "
                          "against the mover; exact alpha-beta, seconds from a round's start) "
                          "or max-n (each for themselves; exact, but from a round's start it "
                          "can run for hours, and --time then stops it)."),
    ] = MultiOpt.paranoid,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, max=NUMBER_MAX, metavar="N",
                          help="Seed of the sampled deals and stock orders (0 to "
                               "999,999,999): the same command gives the same values.")
    ] = 0,
    samples: Annotated[
        int | None, typer.Option("--samples", min=1, max=SAMPLES_MAX, metavar="K",
                                 help="Deals of the unseen tiles (sample) or stock orders "
                                      "(expect, past its budget) to average (at least 1; "
                                      "default 64 with two players, 32 with three or four, "
                                      "as the solver strategy's per move).",
                                 show_default=False)
    ] = None,
    match_number: MatchOption = 1,
    fmt: Annotated[
        str,
        format_option(Format.text, Format.json,
                      help="text: the moves and their values (a draw of a known tile "
                           "with the play after it; with --objective match, whether it "
                           "wins or loses the match, in words), the best and its principal "
                           "variation; json: one JSON document: position, to_move, mode, "
                           "objective, exact, moves [{move, value, error, pv; with "
                           "--objective match, match: {wins, losses, of, points}}], "
                           "sampled_line (whether the lines are played in one sampled "
                           "deal), best, value, nodes, seconds."),
    ] = Format.text.value,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Value every legal play of a position with the solver.

    By default from what the mover could know, the view `muggins analyze`
    and `muggins study` judge by (--mode sample): the unseen tiles are
    dealt --samples times, consistently with the draws and passes seen,
    each deal is solved exactly, and each value is the average over the
    deals solved, shown with its standard error and the number of deals;
    the principal variation is played in one of those deals (its hidden
    tiles dealt at random). --mode perfect sees every hand and the stock
    order, as a double-dummy solver does (exact); --mode expect every hand,
    each draw uniform over the stock.

    Two players: a value is the mover's points minus the opponent's from this
    position to the end of the round, the round-end settlement included and
    every score taken as claimed. Three or four players, by default (--multi
    paranoid): the mover's points minus the opponents' average, the others
    playing as one side against the mover. With --multi max-n: each player
    maximising their own points to the round's end; among equal own results
    a player prefers the play whose best opponent does worst, then the
    opponents' results read clockwise, smallest first, then the first play
    in legal order. By default (--objective match) reaching the target first
    comes before any points: a play that wins or loses the match says so,
    beside its points; with --objective points a score that reaches the
    target ends the match there, worth its points alone.

    The principal variation is written as MGN turn lines. Ctrl-C prints the
    best answer found so far, and the exit status is then 130. A mode that
    the record cannot support (sample or expect without the mover's hand or
    the deals, perfect without the stock order) is refused with exit status 2.

    \b
    Examples:
        muggins solve club.mgn --at 1.5
        muggins solve club.mgn --at 1.5 --mode perfect --objective points
        muggins solve club.mgn --at 2.1 --mode expect --time 5
        muggins solve club.mgn --at 3.7 --samples 128 --json
    """
    fmt = output_format(fmt, as_json)
    try:
        require_solver()
        parse_at(at)
        pos, history = playable_position(read_match(path, match_number), record_resolver(path),
                                         at)
        time_limit, node_limit = _limits(time_limit, nodes)
        prepare_solver(_NAME, quiet=quiet)
        result, state = solve_position(pos, mode.value, objective=objective.value,
                                       time_limit=time_limit, node_limit=node_limit, seed=seed,
                                       samples=samples or samples_for(len(pos.players)),
                                       history=history, multi=multi.value)
    except MugginsError as e:
        raise fail(_NAME, str(e)) from None
    except KeyboardInterrupt:
        raise typer.Exit(interrupted(_NAME)) from None
    where = f"{pos.round}.{pos.turn}"
    if fmt is Format.json:
        sys.stdout.write(json.dumps(solve_json(pos, where, result, state), indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(solve_text(pos, where, result, state)) + "\n")
    sys.stdout.flush()
    if result.interrupted:
        # The search answered Ctrl-C with what it had: printed above, but
        # the run was still stopped, as a shell script must be able to tell.
        raise typer.Exit(interrupted(_NAME, quiet=quiet))


def _limits(time_limit: float | None, nodes: int | None) -> tuple[float | None, int | None]:
    """--time and --nodes as the solver takes them: neither given means
    DEFAULT_TIME; --time 0 and --nodes 0 mean no limit."""
    node_limit = node_cap(nodes)
    if time_limit is None and node_limit is None:
        return DEFAULT_TIME, None
    return (None if time_limit == 0 else time_limit), node_limit


__all__ = ["solve_cmd"]
