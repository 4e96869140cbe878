"""Worlds solved for the player's view: one world's card values and payments, racing (cards clearly worse
than the best no longer solved), and each card's figures over the worlds (:class:`CardView`).

Both ``suggest`` (:mod:`sheepsolve.player.suggest`) and ``annotate --view player``
(:mod:`sheepsolve.player.annotate`) solve their worlds with these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..cards import Card
from ..games import Game
from ..judge import Judge
from ..objective import Objective
from ..scoring import schneider_points
from ..solver import Solver
from ..stats import mean_se, rounded, within_noise
from ..worlds import Knowledge, World
from .options import VIEW_TABLE_MIB
from ..weighting import effective_size, weighted_mean_se

__all__ = ["solve_world", "RACE_FIRST", "RACE_Z", "RACE_MIN_HAND", "RACE_MIN_HAND_EACH_FOR_HIMSELF", "Race",
           "race_min_hand", "races", "race_rounds", "race_keep", "race_guesses", "CardView", "summarize_cards",
           "worker_knowledge", "worker_solver"]


# --------------------------------------------------------------------------------------------------------------
# One world


def solve_world(k: Knowledge, world: World, solver: Solver, tricks_solver: Solver | None = None, *,
                payments: bool = True, only: Sequence[int] | None = None,
                guesses: Sequence[int | None] | None = None) -> tuple[tuple, tuple | None]:
    """The value of each of the seat's legal cards (in :meth:`Knowledge.legal` order) in one world (null and
    Bettel: 1 when the declarer takes a trick, 0 when he takes none), and with
    ``payments`` the seat's own payment after each (two-sided games only; None otherwise). ``only``: the
    indices of the cards to solve (racing: the others get None), each by the value of the position after it,
    its search started from ``guesses[j]`` (work only, never the answer)."""
    state = world.state
    setup = world.setup
    g = setup.game
    obj = Objective.for_setup(setup, seat=None if g.two_sided else k.seat)
    solver.clear()
    legal = state.legal()
    if g.no_trick:  # null, Bettel: one trick loses as surely as ten: does the declarer take one (1) or not (0)
        got = [None] * len(legal)
        for j in (range(len(legal)) if only is None else only):
            got[j] = int(solver.reach(state.play(legal[j], check=False), 1, obj))
        values: tuple = tuple(got)
    elif only is None or 3 * len(only) > 2 * len(legal):  # most cards left: one card_values is cheaper
        vals = solver.card_values(state, obj)
        keep = range(len(legal)) if only is None else set(only)
        values = tuple(vals[c] if j in keep else None for j, c in enumerate(legal))
    else:
        got: list[int | None] = [None] * len(legal)
        for j in only:
            got[j] = solver.value(state.play(legal[j], check=False), obj,
                                  guess=None if guesses is None else guesses[j])
        values = tuple(got)
    if not payments or not g.two_sided:
        return values, None
    judge = Judge(setup, k.stakes, solver, tricks_solver or solver)
    pays: list[int | None] = []
    for c, v in zip(legal, values):
        if v is None:
            pays.append(None)
            continue
        # the trick question, where the outcome turns on tricks, is asked of the position after the card
        outcome = judge.outcome(state.play(c, check=False) if judge.needs_tricks(v) else state, v)
        pays.append(judge.seat_payment(k.seat, outcome))
    return values, tuple(pays)


# --------------------------------------------------------------------------------------------------------------
# Racing: sampled worlds solved in rounds, cards clearly worse than the best no longer solved

RACE_FIRST = 20
"""Worlds every card is solved in before any card may be dropped (racing); with weighted worlds, *effective*
worlds (``(sum w)^2 / sum(w^2)``): a few heavy worlds among many light ones are worth only a few."""

RACE_Z = 3.0
"""A card is dropped when its mean difference to the best card, world by world, plus this many standard errors of
that difference, is still worse for the seat (below 0)."""


RACE_MIN_HAND = 6
"""Racing pays only while the mover holds at least this many cards, in a game with sides: with fewer, a world's
search is so short that the dropped cards' share of one ``card_values`` saves no more than the kept cards' own
``Solver.value`` searches and the rounds cost (docs/TUNING.md, "Racing: where it pays",
``benchmarks/race_pays.py``)."""

RACE_MIN_HAND_EACH_FOR_HIMSELF = 4
"""As :data:`RACE_MIN_HAND`, in a game where every seat plays for itself (Ramsch, leaster): there each card's
search is dearer and racing pays down to fewer cards."""

Race = bool | Literal["always"]
"""Racing asked for: True where it pays (:func:`races`), ``"always"`` at every decision (tests and measurements),
False never."""


def race_min_hand(game: Game) -> int:
    """The fewest cards in the mover's hand at which racing pays in ``game``.

    >>> from sheepsolve.games import make_game
    >>> race_min_hand(make_game("sauspiel")), race_min_hand(make_game("ramsch"))
    (6, 4)
    """
    return RACE_MIN_HAND if game.two_sided else RACE_MIN_HAND_EACH_FOR_HIMSELF


def races(race: Race, game: Game, hand: int) -> bool:
    """Whether a decision of sampled worlds in ``game`` whose mover holds ``hand`` cards is raced: ``race`` True
    where it pays (``hand`` at least :func:`race_min_hand`), ``"always"`` whatever the hand, False never. Worlds
    solved exactly (``--worlds all``, or no more deals than asked) are never raced; the callers see to that.

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sauspiel")
    >>> races(True, g, 8), races(True, g, 5), races("always", g, 5), races(False, g, 8)
    (True, False, True, False)
    """
    if race is True:
        return hand >= race_min_hand(game)
    if race is False:
        return False
    if race == "always":
        return True
    raise ValueError(f"race: {race!r} is not True, False or 'always'")


def race_rounds(n: int) -> list[int]:
    """The world counts after which racing looks at the cards: :data:`RACE_FIRST`, then doubling, the last round
    taken up to ``n`` when it would be less than half the one before (fixed: the rounds never depend on timing).

    >>> race_rounds(100), race_rounds(200), race_rounds(12), race_rounds(30)
    ([20, 40, 100], [20, 40, 80, 200], [12], [30])
    """
    ends = []
    e = RACE_FIRST
    while e < n:
        ends.append(e)
        e *= 2
    ends.append(n)
    while len(ends) >= 2 and ends[-1] - ends[-2] <= (ends[-2] - (ends[-3] if len(ends) >= 3 else 0)) / 2:
        del ends[-2]
    return ends


def race_keep(values: Sequence[Sequence[int | None]], alive: Sequence[int], maximize: bool,
              weights: Sequence[float] | None = None) -> list[int]:
    """The cards of ``alive`` (indices) still worth solving after the worlds ``values`` (every alive card solved
    in each): the best mean and every card whose mean difference to it, world by world, plus :data:`RACE_Z`
    standard errors is not below 0 for the seat. Nothing is dropped before :data:`RACE_FIRST` worlds, with
    ``weights`` before :data:`RACE_FIRST` effective worlds; the means and standard errors are the ones the final
    report gives (:func:`summarize_cards`).

    >>> race_keep([(10, 4, 11)] * 10 + [(12, 2, 11)] * 10, [0, 1, 2], True)  # card 1 always 6-10 worse
    [0, 2]
    >>> race_keep([(10, 4, 11)] * 10 + [(12, 2, 11)] * 10, [0, 1, 2], True, [1.0] * 2 + [1e-3] * 18)  # worth 2.2
    [0, 1, 2]
    """
    n = len(values)
    if n < RACE_FIRST or len(alive) < 2:
        return list(alive)
    sign = 1.0 if maximize else -1.0
    ws = [1.0] * n if weights is None else list(weights)
    if weights is not None and effective_size(ws) < RACE_FIRST:
        return list(alive)
    means = {j: math.fsum(x * w[j] for x, w in zip(ws, values)) for j in alive}  # type: ignore[misc]
    top = max(alive, key=lambda j: (sign * means[j], -j))
    keep = []
    for j in alive:
        if j != top:
            diffs = [sign * (w[j] - w[top]) for w in values]  # type: ignore[operator]
            dm, dse = mean_se(diffs) if weights is None else weighted_mean_se(diffs, ws)
            if dm + RACE_Z * (dse or 0.0) < 0:
                continue
        keep.append(j)
    return keep


def race_guesses(values: Sequence[Sequence[int | None]], alive: Sequence[int], size: int) -> tuple:
    """Each alive card's mean so far, rounded: where its next searches start (work only)."""
    out: list[int | None] = [None] * size
    for j in alive:
        col = [w[j] for w in values if w[j] is not None]
        out[j] = round(math.fsum(col) / len(col)) if col else None  # type: ignore[arg-type]
    return tuple(out)


_WORKER: dict[str, Any] = {}


# --------------------------------------------------------------------------------------------------------------
# The answer


@dataclass(frozen=True)
class CardView:
    """One card from the player's view. ``vs_best``: the mean, world by world, of how much worse the card is for
    the seat than the best card (0 for the best), with its standard error (``vs_best_stderr``), over the
    ``worlds_solved`` worlds the card was solved in (racing stops solving a card clearly worse than the best)."""

    card: Card
    mean: float
    stderr: float | None
    p61: float | None
    p91: float | None
    payment: float | None
    payment_stderr: float | None
    vs_best: float
    vs_best_stderr: float | None
    worlds_solved: int = 0  # the worlds this card was solved in (fewer than the view's when racing dropped it)
    p_no_trick: float | None = None  # null and Bettel: the share of worlds where the declarer takes no trick

    def to_dict(self) -> dict[str, Any]:
        stats = {"mean": self.mean, "stderr": self.stderr, "p61": self.p61, "p91": self.p91, "payment": self.payment,
                 "payment_stderr": self.payment_stderr, "vs_best": self.vs_best, "vs_best_stderr": self.vs_best_stderr}
        extra = {} if self.p_no_trick is None else {"p_no_trick": rounded(self.p_no_trick)}
        return {**{key: rounded(value) for key, value in stats.items()}, **extra, "worlds_solved": self.worlds_solved}


def summarize_cards(k: Knowledge, legal: Sequence[Card], values: Sequence[Sequence[int | None]],
               payments: Sequence[Sequence[int | None]] | None, maximize: bool, exact: bool,
               weights: Sequence[float] | None = None) -> tuple[dict, tuple]:
    """Each card's figures over the worlds it was solved in (None: dropped by racing), weighted by ``weights``
    (None: every world alike), the best card among those solved in every world, and each card's difference to it
    over the worlds both were solved in.

    Ties are judged on a common basis: only cards solved in every world may tie with the best; a card racing
    dropped was already found clearly worse over the same worlds. A dropped card whose worlds all gave the same
    value (or the same difference to the best) has no spread to measure: its standard error is unknown (None),
    not 0."""
    n = len(values)
    points = k.game.two_sided and not k.game.no_trick  # P(61+), P(91+): a game of the declaring side's points
    schneider = schneider_points(k.game)  # P(91+) counts from 91, in Skat from 90
    no_trick = k.game.no_trick  # null, Bettel: the values are the declarer's tricks
    sign = 1.0 if maximize else -1.0
    ws = [1.0] * n if weights is None else [float(x) for x in weights]

    def stat(xs: Sequence[float], wx: Sequence[float]) -> tuple[float, float | None]:
        return mean_se(xs) if weights is None else weighted_mean_se(xs, wx)

    cols = [[float(x) for w in values if (x := w[j]) is not None] for j in range(len(legal))]
    wcols = [[wt for w, wt in zip(values, ws) if w[j] is not None] for j in range(len(legal))]
    full = [j for j in range(len(legal)) if len(cols[j]) == n]
    if weights is None:
        top = max(full, key=lambda j: (sign * math.fsum(cols[j]) / n, -j))
    else:
        top = max(full, key=lambda j: (sign * math.fsum(x * wt for x, wt in zip(cols[j], ws)), -j))
    cards: dict[Card, CardView] = {}
    best = []
    for j, c in enumerate(legal):
        col, wcol = cols[j], wcols[j]
        dropped = len(col) < n
        m, se = stat(col, wcol)
        if dropped and se == 0.0:
            se = None
        diffs = [sign * (w[top] - w[j]) for w in values if w[j] is not None]  # type: ignore[operator]
        dm, dse = stat(diffs, wcol)
        if dropped and dse == 0.0:
            dse = None
        if j == top:
            dm, dse = 0.0, 0.0
        pm = pse = None
        if payments is not None:
            pays = [(float(x), wt) for w, wt in zip(payments, ws) if (x := w[j]) is not None]
            pm, pse = stat([x for x, _ in pays], [wt for _, wt in pays])
            if dropped and pse == 0.0:
                pse = None
        m_j = len(col)
        total = math.fsum(wcol)
        cards[c] = CardView(card=c, mean=m, stderr=se,
                            p61=math.fsum(wt for x, wt in zip(col, wcol) if x >= 61) / total if points else None,
                            p91=math.fsum(wt for x, wt in zip(col, wcol) if x >= schneider) / total if points
                            else None,
                            payment=pm, payment_stderr=pse, vs_best=dm, vs_best_stderr=dse, worlds_solved=m_j,
                            p_no_trick=math.fsum(wt for x, wt in zip(col, wcol) if x == 0) / total if no_trick
                            else None)
        if j == top or (not dropped and within_noise(dm, dse, exact)):
            best.append(c)
    return cards, tuple(best)


def worker_knowledge(spec: tuple) -> Knowledge:
    if _WORKER.get("kspec") != spec:
        _WORKER["kspec"] = spec
        _WORKER["k"] = Knowledge.from_spec(spec)
    return _WORKER["k"]


def worker_solver(tricks: bool = False) -> Solver:
    key = "tsolver" if tricks else "solver"
    if key not in _WORKER:
        _WORKER[key] = Solver(VIEW_TABLE_MIB)
    return _WORKER[key]
