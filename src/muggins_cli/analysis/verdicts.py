"""What a weighed play's cost says, and how a turn is weighed: the verdicts
(``fine``, ``close``, ``mistake``, ``blunder``, ``uncertain``), their
thresholds and the other settings of a weighing (:class:`WeighOptions`),
and the words every report uses for them (the study page, ``--annotate``'s
notes, the text and the docs), so that one fact reads the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The solver's budget per search by default: enough for every position of a
#: two-player round (about three seconds at worst here), and a cap on the
#: rare position with many hidden tiles that would otherwise take a minute.
DEFAULT_NODES = 1_000_000
FINE, CLOSE, MISTAKE, BLUNDER, UNCERTAIN = "fine", "close", "mistake", "blunder", "uncertain"
#: The most deals one decision may take in the ``sample`` view by default.
DEFAULT_SAMPLES = 1024
#: The fewest deals a decision is judged on: a few deals of a cost with
#: long tails can show a spread far below its own (README, "The solver's
#: verdicts").
MIN_DEALS_JUDGED = 16
#: Standard errors between a cost and a threshold before the verdict is
#: taken as known, at each of :func:`.race.looks`.
DEFAULT_Z = 2.5
#: Each count of deals at which a turn's verdict is looked at is this many
#: times the last.
LOOK_RATIO = 1.5
#: Standard errors a move must lie below the leader before it stops being
#: valued: more than ``z``, for a move dropped is never valued again, and
#: dropping the best one by chance turns a costly play into a fine one.
DROP_Z = 3.5
#: Points by which one more deal may change a difference between two moves
#: that the deals so far have not shown (:func:`.race.margin`).
RARE_SWING = 30.0
#: Points either side of ``costly`` within which a cost known to lie there
#: is a verdict of its own, ``close`` (the indifference zone): a cost near
#: the line varies by up to 35 points from deal to deal, so 1,024 deals
#: pin it to about ±2 at ``z`` standard errors (README, "The solver's
#: verdicts", has the figures).
DEFAULT_CLOSE = 2.5
#: Standard errors the range a ``close`` cost is read from lies either side
#: of it: fewer than ``z``, for a cost near the line is neither warned
#: about nor called fine, whichever side of it the truth is.
DEFAULT_CLOSE_Z = 1.0
#: Value every deal when there are at most this many (``exact``).
DEFAULT_EXACT = 512
#: The nodes all of one turn's searches may take, by players (``work``):
#: the choice's deals about a second and a half of search for two players
#: (4 million nodes), four for three or four (12 million: their searches
#: cost more and their records have fewer turns), and what the luck's deals
#: took before there was a bound on a whole turn, one deal's node cap.
DEFAULT_WORK = {2: 5_000_000, 3: 13_000_000, 4: 13_000_000}
#: Deals past which a turn known to be costly is not dealt further to tell
#: a mistake from a blunder.
DEFAULT_BLUNDER_DEALS = 64
#: Deals of the position before a turn's draws, for its luck.
DEFAULT_LUCK_DEALS = 32
#: The share of a turn's work one of its luck's searches may take (one
#: part in this many) when there is no node cap (``nodes`` 0); else a cap.
LUCK_SHARE = 5
#: A sampled value averaged over fewer deals than this is too rough to judge
#: a play by; the turn is reported as not weighed instead.
MIN_DEALS = 4


@dataclass(frozen=True, slots=True)
class WeighOptions:
    """How to weigh: ``perfect`` for the all-seeing view, the deals to
    average (``samples``), a node cap per search (``nodes``: see
    :meth:`node_limit`)
    and the seed of the deals (each turn's deals are seeded from it and the
    turn's line, so a turn's value does not depend on the turns around it).
    A play that gives away ``costly`` points or more is reported
    (``costly-play``) and marked ``?``, ``blunder`` or more ``??``; one
    known to give away within ``close`` points of ``costly`` either way is
    ``close``. ``lines``: also the solver's line after each candidate
    (what the study page shows; ``analyze`` does not, and saves the search).
    """

    perfect: bool = False
    samples: int = DEFAULT_SAMPLES
    nodes: int | None = None
    seed: int = 0
    costly: float = 5.0
    blunder: float = 15.0
    min_deals: int = MIN_DEALS_JUDGED
    z: float = DEFAULT_Z
    exact: int = DEFAULT_EXACT
    work: int | None = None
    blunder_deals: int = DEFAULT_BLUNDER_DEALS
    luck_deals: int = DEFAULT_LUCK_DEALS
    close: float = DEFAULT_CLOSE
    close_z: float = DEFAULT_CLOSE_Z
    lines: bool = False

    def node_limit(self, players: int) -> int | None:
        """The cap per search (in the sample view, per deal): ``nodes``, 0
        for none, or by default :data:`DEFAULT_NODES`."""
        if self.nodes is None:
            return DEFAULT_NODES
        return self.nodes or None

    def work_limit(self, players: int) -> int | None:
        """The nodes all of one turn's deals may search: ``work``, 0 for
        no bound, or by default :data:`DEFAULT_WORK` for the players, grown
        in proportion to ``samples`` above :data:`DEFAULT_SAMPLES` (so that
        one option, ``--max-samples``, buys more certainty at more time)."""
        if self.work is None:
            base = DEFAULT_WORK.get(players, DEFAULT_WORK[4])
            return base * max(self.samples, DEFAULT_SAMPLES) // DEFAULT_SAMPLES
        return self.work or None

    def verdict(self, cost: float, error: float | None) -> str:
        """The verdict of a cost give or take ``z`` standard errors, and
        ``close_z`` for the zone (an exact cost has no error):
        :meth:`band`."""
        e = error or 0.0
        return self.band(cost - self.z * e, cost + self.z * e,
                         (cost - self.close_z * e, cost + self.close_z * e))

    def band(self, low: float, high: float,
             near: tuple[float, float] | None = None) -> str:
        """The verdict of a cost known to lie between ``low`` and ``high``
        (``z`` standard errors either side): ``blunder`` from ``blunder``
        up, ``mistake`` from ``costly`` up (at least a mistake: it may reach
        ``blunder``), ``fine`` below ``costly``; else ``close`` when ``near``
        (the range at ``close_z`` standard errors, by default the same) lies
        within ``close`` points of ``costly`` either way, and ``uncertain``
        when none of these holds (the deals or the work ran out first)."""
        if low >= self.blunder:
            return BLUNDER
        if low >= self.costly:
            return MISTAKE
        if high < self.costly:
            return FINE
        lo, hi = near if near is not None else (low, high)
        if lo >= self.costly - self.close and hi <= self.costly + self.close:
            return CLOSE
        return UNCERTAIN

    @property
    def mode(self) -> str:
        return "perfect" if self.perfect else "sample"


#: What each verdict says of a play, in the words every report uses (the
#: study page, ``--annotate``'s notes, the text and the docs).
VERDICT_WORDS = {
    FINE: "not a mistake",
    CLOSE: "close to the mistake line",
    MISTAKE: "a mistake",
    BLUNDER: "a blunder",
    UNCERTAIN: "uncertain",
}


def verdict_reason(verdict: str | None, options: WeighOptions, exact: bool = False) -> str:
    """Why a turn has the verdict it has, for a reader: what the verdict
    means in points (empty for none)."""
    t, c = points(options.costly), points(options.close)
    beyond = "" if exact else ", beyond the deals' uncertainty"
    return {
        FINE: f"below {t} points{beyond}",
        CLOSE: f"within {c} points of {t} either way, beyond the deals' uncertainty: one "
               "deal more or less could carry it across",
        MISTAKE: f"{t} points or more{beyond}",
        BLUNDER: f"{points(options.blunder)} points or more{beyond}",
        UNCERTAIN: "the turn's deals or work ran out before they placed its cost",
    }.get(verdict or "", "")


def points(x: float) -> str:
    """A value in points as the reports write it: whole when it is, else one
    decimal (sampled values are averages)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def measured(x: float, error: float | None, exact: bool, *, signed: bool = False) -> str:
    """A value as the reports write it with how sure it is: ``11.6 ± 2.1``
    (one standard error), or the bare value when it is exact; a sampled
    value whose error is unknown (too few deals) says so with ``± ?``."""
    text = (f"{x:+.0f}" if float(x).is_integer() else f"{x:+.1f}") if signed else points(x)
    if exact:
        return text
    return f"{text} ± {error:.1f}" if error is not None else f"{text} ± ?"
