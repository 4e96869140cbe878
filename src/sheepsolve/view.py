"""Cards judged from the player's seat: every consistent world solved double dummy, and averaged.

:func:`player_view` answers the question a player asks at the table, "what should I play here?", for the seat of
a :class:`~sheepsolve.worlds.Knowledge`: each legal card's mean final value over the worlds (on ``solve``'s scale:
the declaring side's final card points, the bury and the tricks already won included; ramsch and leaster: the
seat's own points, every other player against it), its standard error, P(61+) and P(91+) for the declaring side,
and the seat's own expected payment. :func:`suggest_record` is ``sheepsolve suggest``.

Readings
--------
- *stderr*: the sample standard deviation of the card's values over the ``N`` worlds, divided by ``sqrt(N)``
  (None for one world; 0 when every consistent world was solved: no sampling, no noise).
- *best*: the card with the best mean (the highest for a player of the declaring side, the lowest for everyone
  else), and every card within noise of it: every card is solved in the same worlds, so the world-by-world
  difference to the best card has a standard error of its own, and a card is a *tie* when its mean difference is
  at most :data:`TIE_Z` of those standard errors. With every world solved only equal means tie.
- *payment*: the seat's own payment (Sheepshead units, Schafkopf money; every multiplier of the record), the
  outcome of each world read as ``solve`` reads it (a trick search decides schwarz where the points allow it).
  Ramsch and leaster have no payment from one seat's value: None.
- Each world is solved by a fresh search (the table's entries of one deal do not serve another).

>>> from sheepsolve.record import load_record
>>> rec = load_record("examples/sauspiel-midtrick.toml")
>>> v = suggest_record(rec, worlds=20, seed=3)
>>> v.seat_name, v.worlds, v.exact, sorted(v.cards) == sorted(v.knowledge.legal())
('Resi', 20, False, True)
>>> d = v.to_dict()
>>> sorted(d["cards"]["JS"])
['mean', 'p61', 'p91', 'payment', 'payment_stderr', 'stderr', 'vs_best', 'vs_best_stderr', 'worlds_solved']
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, format_card
from .engine import State
from .bury.choices import BuryDecision
from .files import clip
from .judge import Judge
from .objective import Objective
from .record import Record
from .solver import Solver
from .worlds import (ALL_WORLDS_CAP, TIE_Z, Knowledge, UnitRunner, World, WorldSampler, WorldsError, mean_se,
                     quick_parallel_after, rounded, within_noise)

__all__ = ["TIE_Z", "VIEW_TABLE_MIB", "CardView", "View", "player_view", "solve_world", "suggest_record",
           "render_suggest", "parse_worlds", "MAX_WORLDS", "MAX_ANNOTATE_WORLDS", "MAX_SEED", "DecisionView", "PlayerView", "ViewSettings", "annotate_view"]


VIEW_TABLE_MIB = 1
"""Table size of the solver that works through the worlds (each world starts from a cleared table)."""


MAX_WORLDS = ALL_WORLDS_CAP
"""The most worlds ``--worlds N`` samples (suggest, annotate --view player, bury, pick, choose): as many as
``--worlds all`` enumerates. Beyond it the standard error hardly moves (points lie in 0..120, so it is at most
60/sqrt(N): 0.42 points at 20,000, typically a third of that) while the memory keeps growing (suggest holds every
sampled world, about 8 KB each: some 160 MB at 20,000) and the time too."""

MAX_ANNOTATE_WORLDS = 2_000
"""The most worlds per decision of ``annotate --view player``: every decision of the hand is solved in that
many worlds and the worlds of all of them are held at once (about 0.11 MB a world on a 32-decision sauspiel
hand: 138 MB at 1,000 worlds, so some 250 MB at 2,000, where 20,000 would take 2 GB)."""

MAX_SEED = 2**63 - 1
"""The largest ``--seed``: seeds are 0 to 2**63 - 1, what a signed 64-bit integer holds (they go into the JSON
output and into puzzle file names)."""


def parse_worlds(text: str | int | None, default: int = 100, cap: int = MAX_WORLDS) -> int | str:
    """``--worlds``: a number of worlds, 1 to ``cap`` (:data:`MAX_WORLDS`), or ``"all"``. Raises
    :class:`WorldsError` otherwise (a number written in other than the digits 0-9 too).

    >>> parse_worlds("200"), parse_worlds("ALL"), parse_worlds(None)
    (200, 'all', 100)
    >>> parse_worlds("1000000")
    Traceback (most recent call last):
    ...
    sheepsolve.worlds.WorldsError: --worlds: at most 20000 worlds (or "all"), not 1000000
    """
    if text is None:
        return default
    if isinstance(text, int) and not isinstance(text, bool):
        n = text
    else:
        t = str(text).strip().lower()
        if t == "all":
            return "all"
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", t):
            raise WorldsError(f"--worlds: must be a number of worlds (1 or more) or \"all\", not {clip(repr(text))}")
        n = int(t)
    if n < 1:
        raise WorldsError(f"--worlds: must be 1 or more (or \"all\"), not {n}")
    if n > cap:
        raise WorldsError(f"--worlds: at most {cap} worlds (or \"all\"), not {n}")
    return n


# --------------------------------------------------------------------------------------------------------------
# One world


def solve_world(k: Knowledge, world: World, solver: Solver, tricks_solver: Solver | None = None, *,
                payments: bool = True, only: Sequence[int] | None = None,
                guesses: Sequence[int | None] | None = None) -> tuple[tuple, tuple | None]:
    """The value of each of the seat's legal cards (in :meth:`Knowledge.legal` order) in one world, and with
    ``payments`` the seat's own payment after each (two-sided games only; None otherwise). ``only``: the
    indices of the cards to solve (racing: the others get None), each by the value of the position after it,
    its search started from ``guesses[j]`` (work only, never the answer)."""
    state = world.state
    setup = world.setup
    g = setup.game
    obj = Objective.for_setup(setup, seat=None if g.two_sided else k.seat)
    solver.clear()
    legal = state.legal()
    if only is None or 3 * len(only) > 2 * len(legal):  # most cards left: one card_values is cheaper
        vals = solver.card_values(state, obj)
        keep = range(len(legal)) if only is None else set(only)
        values: tuple = tuple(vals[c] if j in keep else None for j, c in enumerate(legal))
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
"""Worlds every card is solved in before any card may be dropped (racing)."""

RACE_Z = 3.0
"""A card is dropped when its mean difference to the best card, world by world, plus this many standard errors of
that difference, is still worse for the seat (below 0)."""


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


def race_keep(values: Sequence[Sequence[int | None]], alive: Sequence[int], maximize: bool) -> list[int]:
    """The cards of ``alive`` (indices) still worth solving after the worlds ``values`` (every alive card solved
    in each): the best mean and every card whose mean difference to it, world by world, plus :data:`RACE_Z`
    standard errors is not below 0 for the seat. Nothing is dropped before :data:`RACE_FIRST` worlds.

    >>> race_keep([(10, 4, 11)] * 10 + [(12, 2, 11)] * 10, [0, 1, 2], True)  # card 1 always 6-10 worse
    [0, 2]
    """
    n = len(values)
    if n < RACE_FIRST or len(alive) < 2:
        return list(alive)
    sign = 1.0 if maximize else -1.0
    means = {j: math.fsum(w[j] for w in values) / n for j in alive}  # type: ignore[misc]
    top = max(alive, key=lambda j: (sign * means[j], -j))
    keep = []
    for j in alive:
        if j != top:
            dm, dse = mean_se([sign * (w[j] - w[top]) for w in values])  # type: ignore[operator]
            if dm + RACE_Z * (dse or 0.0) < 0:
                continue
        keep.append(j)
    return keep


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

    def to_dict(self) -> dict[str, Any]:
        stats = {"mean": self.mean, "stderr": self.stderr, "p61": self.p61, "p91": self.p91, "payment": self.payment,
                 "payment_stderr": self.payment_stderr, "vs_best": self.vs_best, "vs_best_stderr": self.vs_best_stderr}
        return {**{key: rounded(value) for key, value in stats.items()}, "worlds_solved": self.worlds_solved}


@dataclass(frozen=True)
class View:
    """Every legal card of the seat judged over the worlds (see the module docstring)."""

    knowledge: Knowledge
    worlds: int  # worlds solved
    exact: bool  # every consistent world was solved
    cards: dict[Card, CardView]  # in legal order
    best: tuple[Card, ...]
    maximize: bool  # the seat wants the value high (a player of the declaring side)
    values: tuple[tuple[int | None, ...], ...]  # per world, per legal card (None: not solved there, racing)
    payments: tuple[tuple[int | None, ...], ...] | None
    double_dummy: dict[Card, int] | None = None
    seconds: float = 0.0
    at: tuple[int, int] | None = None  # with --at: (trick, card of the trick), both from 1
    played: Card | None = None  # with --at: the card the record's player played there

    @property
    def seat_name(self) -> str:
        k = self.knowledge
        return k.players[k.seat] if k.players else str(k.seat + 1)

    @property
    def top(self) -> Card:
        """The card with the best mean (the first of equal means)."""
        return next(c for c in self.cards if self.cards[c].vs_best == 0.0 and c in self.best)

    def cost(self, card: Card) -> float:
        """How much worse ``card`` is for the seat than the best card, in expectation (never negative)."""
        return max(0.0, self.cards[card].vs_best)

    def to_dict(self) -> dict[str, Any]:
        """What ``sheepsolve suggest --json`` prints."""
        k = self.knowledge
        g = k.game
        return {
            "game": g.name,
            "seat": self.seat_name,
            "worlds": self.worlds,
            "exact": self.exact,
            "cards": {str(c): v.to_dict() for c, v in self.cards.items()},
            "best": [str(c) for c in self.best],
            "scale": ("the declaring side's final card points" if g.two_sided else
                      "the seat's own final card points, every other player against it (lower is better)"),
            "side": ("declaring" if self.maximize else "defending") if g.two_sided else "self",
            "double_dummy": ({str(c): v for c, v in self.double_dummy.items()} if self.double_dummy is not None
                             else None),
            **({} if self.at is None else {
                "at": {"trick": self.at[0], "card": self.at[1]},
                "played": None if self.played is None else str(self.played),
                "played_cost": None if self.played is None else rounded(self.cost(self.played))}),
            "seconds": round(self.seconds, 6),
        }


def _summarize(k: Knowledge, legal: Sequence[Card], values: Sequence[Sequence[int | None]],
               payments: Sequence[Sequence[int | None]] | None, maximize: bool, exact: bool) -> tuple[dict, tuple]:
    """Each card's figures over the worlds it was solved in (None: dropped by racing), the best card among those
    solved in every world, and each card's difference to it over the worlds both were solved in."""
    n = len(values)
    two_sided = k.game.two_sided
    sign = 1.0 if maximize else -1.0
    cols = [[float(x) for w in values if (x := w[j]) is not None] for j in range(len(legal))]
    full = [j for j in range(len(legal)) if len(cols[j]) == n]
    top = max(full, key=lambda j: (sign * math.fsum(cols[j]) / n, -j))
    cards: dict[Card, CardView] = {}
    best = []
    for j, c in enumerate(legal):
        col = cols[j]
        m, se = mean_se(col)
        if exact and se is not None:
            se = 0.0 if all(x == col[0] for x in col) else se
        diffs = [sign * (w[top] - w[j]) for w in values if w[j] is not None]  # type: ignore[operator]
        dm, dse = mean_se(diffs)
        if j == top:
            dm, dse = 0.0, 0.0
        pm = pse = None
        if payments is not None:
            pm, pse = mean_se([float(x) for w in payments if (x := w[j]) is not None])
        m_j = len(col)
        cards[c] = CardView(card=c, mean=m, stderr=se, p61=sum(x >= 61 for x in col) / m_j if two_sided else None,
                            p91=sum(x >= 91 for x in col) / m_j if two_sided else None, payment=pm,
                            payment_stderr=pse, vs_best=dm, vs_best_stderr=dse, worlds_solved=m_j)
        if j == top or within_noise(dm, dse, exact):
            best.append(c)
    return cards, tuple(best)


def _view_init(kspec: tuple, wspecs: tuple) -> None:
    """Worker set-up for :func:`player_view`'s units: the knowledge and every world, sent once per run."""
    _WORKER["view"] = (kspec, wspecs)


class _WorldRunner:
    """Picklable: solve world ``start + i`` of the run's worlds (in a worker process, after :func:`_view_init`);
    ``only`` and ``guesses``: this round's cards (see :func:`solve_world`)."""

    def __init__(self, start: int, payments: bool, only: tuple | None = None,
                 guesses: tuple | None = None) -> None:
        self.start = start
        self.payments = payments
        self.only = only
        self.guesses = guesses

    def __call__(self, i: int) -> tuple:
        kspec, wspecs = _WORKER["view"]
        k = _worker_knowledge(kspec)
        w = World.from_spec(k, wspecs[self.start + i])
        return solve_world(k, w, _worker_solver(), _worker_solver(tricks=True), payments=self.payments,
                           only=self.only, guesses=self.guesses)


def _guesses(values: Sequence[Sequence[int | None]], alive: Sequence[int], size: int) -> tuple:
    """Each alive card's mean so far, rounded: where its next searches start (work only)."""
    out: list[int | None] = [None] * size
    for j in alive:
        col = [w[j] for w in values if w[j] is not None]
        out[j] = round(math.fsum(col) / len(col)) if col else None  # type: ignore[arg-type]
    return tuple(out)


_WORKER: dict[str, Any] = {}


def _worker_knowledge(spec: tuple) -> Knowledge:
    if _WORKER.get("kspec") != spec:
        _WORKER["kspec"] = spec
        _WORKER["k"] = Knowledge.from_spec(spec)
    return _WORKER["k"]


def _worker_solver(tricks: bool = False) -> Solver:
    key = "tsolver" if tricks else "solver"
    if key not in _WORKER:
        _WORKER[key] = Solver(VIEW_TABLE_MIB)
    return _WORKER[key]


def player_view(k: Knowledge, worlds: int | str = 100, *, seed: int = 0, jobs: int | None = 1,
                solver: Solver | None = None, tricks_solver: Solver | None = None, payments: bool = True,
                given: Sequence[World] | None = None, exact: bool | None = None,
                actual: State | None = None, progress: Callable[[int, int], None] | None = None,
                race: bool = True) -> View:
    """Judge every legal card of ``k.seat`` (who must be the one to move) over ``worlds`` sampled worlds, or
    every consistent world with ``"all"``; ``given``: solve these worlds instead (``exact``: whether they are every
    consistent world). ``actual``: the real position, when every hand is known, for the double-dummy values.

    The worlds are solved in this process while that is quick, else also in ``jobs`` processes (None: every
    core); the answer for a seed is the same either way.

    ``race`` (sampled worlds only; never when ``exact``): the worlds are solved in fixed rounds
    (:func:`race_rounds`), and after each a card clearly worse than the best (:func:`race_keep`) is no longer
    solved; each card's figures are over the worlds it was solved in (``worlds_solved``). The rounds and the
    drops depend only on the values, so the answer for a seed does not depend on ``jobs``.
    """
    t0 = time.perf_counter()
    if k.to_move != k.seat:
        who = k.players[k.seat] if k.players else str(k.seat + 1)
        tm = k.to_move
        now = "the hand is over" if tm is None else f"{k.players[tm] if k.players else tm + 1} is to move"
        raise WorldsError(f"--seat: {who} is not the one to move ({now})")
    if given is None:
        sampler = WorldSampler(k)
        if worlds == "all":
            given = sampler.all_worlds(ALL_WORLDS_CAP)
            exact = True
        else:
            if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
                raise WorldsError(f"--worlds: must be 1 or more (or \"all\"), not {worlds!r}")
            given = sampler.sample(worlds, seed=seed)
            exact = False
    exact = bool(exact)
    if not given:
        raise WorldsError("no world to solve")
    solver = solver or Solver(VIEW_TABLE_MIB)
    tsolver = tricks_solver or Solver(VIEW_TABLE_MIB)
    legal = given[0].state.legal()
    maximize = (k.seat in given[0].setup.team) if k.game.two_sided else False
    n = len(given)
    results: list[tuple] = []
    alive = list(range(len(legal)))
    # one pool for every round, if the run is long enough for one: the worlds sent once, each round's cards with it
    with UnitRunner(jobs, init=_view_init, parallel_after=quick_parallel_after(),
                    initargs=lambda: (k.to_spec(), tuple(w.to_spec() for w in given))) as runner:
        for end in (race_rounds(n) if race and not exact else [n]):
            start = len(results)
            only = None if len(alive) == len(legal) else tuple(alive)
            guesses = None if only is None else _guesses([r[0] for r in results], alive, len(legal))

            def local(i: int, start=start, only=only, guesses=guesses) -> tuple:
                return solve_world(k, given[start + i], solver, tsolver, payments=payments, only=only,
                                   guesses=guesses)

            results += runner.map(_WorldRunner(start, payments, only, guesses), end - start, local=local,
                                  progress=(None if progress is None else
                                            lambda d, _t, start=start: progress(start + d, n)), later=n - end)
            alive = race_keep([r[0] for r in results], alive, maximize)
    values = tuple(r[0] for r in results)
    pays = tuple(r[1] for r in results) if k.game.two_sided and payments else None
    cards, best = _summarize(k, legal, values, pays, maximize, exact)
    dd = None
    if actual is not None:
        obj = Objective.for_setup(actual.setup, seat=None if k.game.two_sided else k.seat)
        solver.clear()
        dd = solver.card_values(actual, obj)
    return View(knowledge=k, worlds=len(given), exact=exact, cards=cards, best=best, maximize=maximize,
                values=values, payments=pays, double_dummy=dd, seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------------------------------------------------
# sheepsolve suggest


def parse_at(rec: Record, text: str) -> tuple[int, int, int]:
    """``--at TRICK[.CARD]``: a point of the record's play, as (trick, card of the trick, cards played before).
    ``3`` is the lead of trick 3, ``3.2`` its second card; both count from 1.

    >>> from sheepsolve.record import load_record
    >>> rec = load_record("examples/sauspiel-finished.toml")
    >>> parse_at(rec, "1"), parse_at(rec, "2.3")
    ((1, 1, 0), (2, 3, 6))
    """
    m = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:\.\s*([0-9]{1,2})\s*)?", str(text))  # \d took '٣' as 3
    if m is None:
        raise WorldsError(f"--at: {clip(str(text), 40)!r} is not TRICK or TRICK.CARD (3: the lead of trick 3, "
                          "3.2: its second card)")
    trick, card = int(m.group(1)), int(m.group(2) or 1)
    g = rec.game
    tricks = len(rec.play)
    if trick < 1 or card < 1:
        raise WorldsError(f"--at: tricks and cards count from 1, not {clip(str(text), 40)!r}")
    if not 1 <= card <= g.seats:
        raise WorldsError(f"--at: trick {trick} has cards 1 to {g.seats}, not {card}")
    if trick < 1 or trick > tricks + 1 or (trick == tricks + 1 and tricks and len(rec.play[-1]) < g.seats):
        last = f"trick {tricks}, card {len(rec.play[-1])}" if tricks else "the first lead"
        raise WorldsError(f"--at: trick {trick}: the record's play stops at {last}")
    before = sum(len(t) for t in rec.play[:trick - 1])
    in_trick = len(rec.play[trick - 1]) if trick <= tricks else 0
    if card - 1 > in_trick:
        raise WorldsError(f"--at: trick {trick}, card {card}: the record's play stops at trick {trick}, card "
                          f"{in_trick}")
    return trick, card, before + card - 1


def suggest_record(rec: Record, *, seat: str | int | None = None, worlds: int | str = 100, seed: int = 0,
                   jobs: int | None = 1, progress: Callable[[int, int], None] | None = None,
                   race: bool = True, at: str | None = None) -> View:
    """``sheepsolve suggest``: the player to move after the record's last card (``seat``: who must be that
    player), every legal card judged from that seat. The double-dummy values come beside when every hand is
    known. ``race=False`` (``--no-race``): every card solved in every world. ``at`` (``--at TRICK[.CARD]``, see
    :func:`parse_at`): judge the decision at that point of the play instead, from what its player knew then;
    the card played there is named, with what it cost in expectation.

    >>> from sheepsolve.record import load_record
    >>> v = suggest_record(load_record("examples/sauspiel-finished.toml"), at="2.3", worlds=20)
    >>> v.at, v.played is not None, v.played in v.cards
    ((2, 3), True, True)
    """
    plays = [c for t in rec.play for c in t]
    point = None if at is None else parse_at(rec, at)
    upto = None if point is None else point[2]
    if point is not None and upto == len(plays) == rec.game.seats * rec.game.hand_size:
        raise WorldsError(f"--at: trick {point[0]}, card {point[1]}: the hand is over there")
    k = Knowledge.from_record(rec, seat, upto=upto)
    if k.to_move is None:
        if point is not None:
            raise WorldsError(f"--at: trick {point[0]}, card {point[1]}: the hand is over there")
        raise WorldsError("the hand is over: there is no card to suggest (--at TRICK[.CARD] names a decision "
                          "of the hand)")
    if k.to_move != k.seat:
        raise WorldsError(f"--seat: {rec.players[k.seat]} is not the one to move ({rec.players[k.to_move]} is)")
    actual = None
    if rec.complete:
        actual = rec.state() if upto is None else rec.replay.after(upto)
    v = player_view(k, worlds, seed=seed, jobs=jobs, actual=actual, progress=progress, race=race)
    if point is None:
        return v
    import dataclasses

    played = plays[upto] if upto < len(plays) else None
    return dataclasses.replace(v, at=point[:2], played=played)


def _num(x: float | None, nd: int = 1) -> str:
    return "" if x is None else f"{x:.{nd}f}"


def render_suggest(v: View, style: str = "ascii") -> str:
    """The answer as text: one line per legal card, best first.

    >>> from sheepsolve.record import load_record
    >>> v = suggest_record(load_record("examples/sauspiel-midtrick.toml"), worlds=30)
    >>> print(render_suggest(v).splitlines()[0])
    Sauspiel (Rufspiel): Resi to move (declaring side), 30 sampled worlds
    """
    k = v.knowledge
    g = k.game
    side = ("declaring side" if v.maximize else "defending") if g.two_sided else "own points, lower is better"
    what = (f"every consistent world solved ({v.worlds})" if v.exact else f"{v.worlds} sampled worlds")
    from .render.text import game_title

    where = "" if v.at is None else f" at trick {v.at[0]}, card {v.at[1]}"
    lines = [f"{game_title(g, style)}: {v.seat_name} to move{where} ({side}), {what}"]
    scale = ("mean: the declaring side's final card points" if g.two_sided else
             "mean: the seat's own final card points, every other player against it")
    lines.append(f"  {scale}; ± one standard error")
    sign = 1 if v.maximize else -1
    order = sorted(v.cards, key=lambda c: (-sign * v.cards[c].mean, list(v.cards).index(c)))
    head = ["card", "mean", "±", "P(61+)", "P(91+)", "payment", "vs best", ""]
    if v.double_dummy is not None:
        head.insert(7, "double dummy")
    rows = [head]
    for c in order:
        cv = v.cards[c]
        row = [format_card(c, style), _num(cv.mean), _num(cv.stderr), _pct(cv.p61), _pct(cv.p91),
               _num(cv.payment, 2), "" if c in v.best and cv.vs_best == 0 else f"-{cv.vs_best:.1f}",
               "best" if c in v.best else ""]
        if v.double_dummy is not None:
            row.insert(7, str(v.double_dummy[c]))
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        lines.append("  " + "  ".join(x.rjust(w) if i not in (0, len(r) - 1) else x.ljust(w)
                                      for i, (x, w) in enumerate(zip(r, widths))).rstrip())
    best = " ".join(format_card(c, style) for c in v.best)
    if len(v.best) > 1:
        lines.append(f"best: {best} (a tie: within noise of each other)" if not v.exact else
                     f"best: {best} (equal in every world on average)")
    else:
        lines.append(f"best: {best}")
    if v.played is not None:
        cost = v.cost(v.played)
        verdict = ("one of the best" if v.played in v.best else
                   f"{cost:.1f} points worse than the best in expectation")
        lines.append(f"played: {format_card(v.played, style)} ({verdict})")
    if not g.two_sided:
        lines.append("(ramsch and leaster: no payment or P(61+) from one seat's points)")
    lines.append("Each world is solved double dummy: the figures read the players as seeing every card from then "
                 "on.")
    return "\n".join(lines) + "\n"


def _pct(p: float | None) -> str:
    return "" if p is None else f"{100 * p:.0f}%"


# --------------------------------------------------------------------------------------------------------------
# annotate --view player


@dataclass(frozen=True)
class DecisionView:
    """One decision judged from the mover's own view at that moment: each legal card's mean over the worlds
    (``values``) and standard error, the best cards (ties within noise), and the expected ``cost`` of the card
    played against the best mean (never negative) with its standard error (world by world: common worlds).
    ``error``: the cost is beyond the noise (the card is not among the best) and at least the ``--min-cost``
    asked for (1 point when none)."""

    worlds: int
    exact: bool
    values: dict[Card, float]
    stderr: dict[Card, float | None]
    best: tuple[Card, ...]
    cost: float
    cost_stderr: float | None
    error: bool
    top: float  # the best mean
    worlds_solved: dict[Card, int] | None = None  # per card: the worlds it was solved in (racing: fewer)

    def to_dict(self) -> dict[str, Any]:
        return {"worlds": self.worlds, "exact": self.exact,
                "values": {str(c): rounded(v) for c, v in self.values.items()},
                "stderr": {str(c): rounded(v) for c, v in self.stderr.items()}, "best": [str(c) for c in self.best],
                "cost": rounded(self.cost), "cost_stderr": rounded(self.cost_stderr), "error": self.error,
                "worlds_solved": ({str(c): n for c, n in self.worlds_solved.items()}
                                  if self.worlds_solved is not None else None)}


@dataclass(frozen=True)
class PlayerView:
    """One player's play judged from his own view: ``expected_loss`` (the sum of his decisions' expected costs,
    with its standard error), ``dd_loss`` (the points given away double dummy), ``errors`` (player's-view errors),
    ``expected`` (the best mean at his first decision: what he could expect then, on the values' scale),
    ``result`` (the final value on the same scale) and ``luck``: the result minus what he could expect less his
    own expected losses, counted for his side (positive: luckier than his play deserved; the hidden cards and the
    other players' play)."""

    decisions: int
    errors: int
    expected_loss: float
    expected_loss_stderr: float | None
    dd_loss: int
    expected: float | None
    result: int | None
    luck: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "errors": self.errors, "expected_loss": rounded(self.expected_loss),
                "expected_loss_stderr": rounded(self.expected_loss_stderr), "dd_loss": self.dd_loss,
                "expected": rounded(self.expected), "result": self.result, "luck": rounded(self.luck)}


@dataclass(frozen=True)
class ViewSettings:
    """How ``annotate --view player`` chose its worlds."""

    worlds: int | str
    seed: int
    min_cost: int | None
    solves: int  # worlds solved over the whole hand
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "player", "worlds": self.worlds, "seed": self.seed, "min_cost": self.min_cost,
                "solves": self.solves, "seconds": round(self.seconds, 6)}


@dataclass(frozen=True)
class BuryViewRow:
    """One bury (and call) or, in sauspiel, one call, over the worlds of the cards the picker could not see:
    the picking side's mean final points, and how much worse than the best choice world by world."""

    choice: BuryDecision
    alone: bool  # the picker has no partner with it
    mean: float
    stderr: float | None
    vs_best: float
    vs_best_stderr: float | None
    best: bool  # the best mean, or within noise of it

    @property
    def bury(self) -> tuple[Card, ...]:
        return self.choice.bury

    @property
    def call(self) -> Card | None:
        return self.choice.called

    @property
    def under(self) -> Card | None:
        return self.choice.under

    def label(self, style: str = "ascii", *, calls: bool = True) -> str:
        """As :meth:`sheepsolve.bury.judgement.BuryOption.label`: ``KS 8C``, ``9C 9D, call AH``, ``call EA``."""
        return self.choice.label(style, alone=calls and self.alone)


@dataclass(frozen=True)
class BuryView:
    """``annotate --view player``: the bury and call (Sheepshead) or the call (sauspiel) judged from what the
    picker knew when he chose: his own hand (and the blind), every choice solved in the same worlds of the other
    cards. Points of the picking side, compared as the double-dummy judgement compares (a lone picker with other
    lone plays, a caller with other calls). ``cost``: the choice's expected points against the best mean (never
    negative); ``error``: beyond the noise and at least ``--min-cost``."""

    kind: str
    worlds: int
    exact: bool
    rows: tuple[BuryViewRow, ...]  # best first
    chosen: BuryViewRow
    cost: float
    cost_stderr: float | None
    error: bool

    @property
    def best(self) -> tuple[BuryViewRow, ...]:
        return tuple(r for r in self.rows if r.best)

    def to_dict(self) -> dict[str, Any]:
        calls = self.kind != "bury"
        return {"worlds": self.worlds, "exact": self.exact,
                "values": {r.label(calls=calls): rounded(r.mean) for r in self.rows},
                "stderr": {r.label(calls=calls): rounded(r.stderr) for r in self.rows},
                "best": [r.label(calls=calls) for r in self.best], "chosen": self.chosen.label(calls=calls),
                "cost": rounded(self.cost), "cost_stderr": rounded(self.cost_stderr), "error": self.error}


def bury_view(ann, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = 1,
              min_cost: int | None = None, progress: Callable[[int, int], None] | None = None) -> BuryView | None:
    """The record's bury and call (or sauspiel call) judged from the picker's own view (see :class:`BuryView`);
    None when the annotation has no such choice to judge (see ``Annotation.bury``).

    The worlds are those of ``sheepsolve bury --view picker`` (and ``choose`` for a sauspiel call) with the same
    ``worlds`` and ``seed``."""
    from .bury import choose_contract, contracts_for, sample_buries

    b = ann.bury
    if b is None:
        return None
    setup = ann.setup
    g = ann.game
    p = setup.declarer
    if p is None:
        return None
    stakes = ann.stakes
    rows: list[tuple[BuryDecision, bool, Any, bool]] = []  # (choice, alone, stats, best or tied with it)
    if g.kind == "picker":
        blind = list(setup.blind)
        dealt = [c for c in g.sort_cards(set(setup.hands[p]) | set(setup.bury)) if c not in set(blind)]
        calling = setup.called is not None

        def keep(d: BuryDecision) -> bool:  # as the double-dummy judgement: callers against callers
            return g.partner != "called-ace" or (d.called is not None) == calling

        r = sample_buries(g, dealt, blind, p, worlds=worlds, seed=seed, stakes=stakes, by="points", jobs=jobs,
                          players=ann.players, keep=keep, progress=progress)
        for row in r.rows:
            d = row.decision
            rows.append((BuryDecision(tuple(g.sort_cards(d.bury)), d.called, d.under, d.alone),
                         d.alone or setup.partner is None, row.stats, row.rank == 1 or row.tie))
        if g.partner != "called-ace":  # only the bury is chosen
            match = [k for k in rows if set(k[0].bury) == set(setup.bury)]
        else:
            match = [k for k in rows if (k[0].bury, k[0].called, k[0].under)
                     == (tuple(g.sort_cards(setup.bury)), setup.called, setup.under)]
    elif g.partner == "sauspiel" and setup.called is not None:
        hand = list(setup.hands[p])
        cs = [c for c in contracts_for(g, hand) if c.game == "sauspiel"]
        if len(cs) < 2:
            return None
        r = choose_contract(g, hand, p, worlds=worlds, seed=seed, stakes=stakes, by="points", jobs=jobs,
                            players=ann.players, contracts=cs, progress=progress)
        for row in r.rows:
            rows.append((BuryDecision((), called=row.contract.called), False, row.stats, row.rank == 1 or row.tie))
        match = [k for k in rows if k[0].called == setup.called]
    else:
        return None
    if not match:
        return None
    exact = worlds == "all"
    out = tuple(BuryViewRow(choice=d, alone=alone, mean=float(st.mean), stderr=st.stderr, vs_best=float(-st.vs_best),
                            vs_best_stderr=st.vs_best_stderr, best=bool(tie)) for d, alone, st, tie in rows)
    chosen = out[rows.index(match[0])]
    threshold = min_cost if min_cost is not None else 1
    cost = max(0.0, chosen.vs_best)
    return BuryView(kind=b.kind, worlds=r.worlds, exact=exact, rows=out, chosen=chosen, cost=cost,
                    cost_stderr=chosen.vs_best_stderr, error=not chosen.best and cost > 0 and cost >= threshold)


_ANN: dict[str, Any] = {}


def _ann_init(units: list[tuple[tuple, tuple]]) -> None:
    """Worker set-up for annotate's units: (knowledge spec, world spec) per unit."""
    _ANN["units"] = units


class _AnnRound:
    """Picklable: unit ``i`` of one racing round of annotate (``ids``: the global unit and its decision; ``only``
    and ``guesses`` per decision, see :func:`solve_world`)."""

    def __init__(self, ids: tuple, only: dict, guesses: dict) -> None:
        self.ids = ids
        self.only = only
        self.guesses = guesses

    def __call__(self, i: int) -> tuple:
        uid, j = self.ids[i]
        kspec, wspec = _ANN["units"][uid]
        k = _worker_knowledge(kspec)
        return solve_world(k, World.from_spec(k, wspec), _worker_solver(), payments=False, only=self.only.get(j),
                           guesses=self.guesses.get(j))


class _Pools:
    """The worlds of each seat, kept from one of its decisions to the next: filtered as play reveals cards (the
    survivors of a uniform sample of the earlier worlds are a uniform sample of the later ones) and topped up
    with fresh worlds drawn for the new knowledge."""

    def __init__(self, worlds: int | str, seed: int) -> None:
        self.worlds = worlds
        self.seed = seed
        self.pools: dict[int, tuple[int, list[World]]] = {}  # seat -> (cards seen, worlds)
        self.drawn: dict[int, int] = {}

    def worlds_for(self, k: Knowledge, where: str) -> tuple[list[World], bool]:
        seat = k.seat
        seen, pool = self.pools.get(seat, (0, None))  # type: ignore[arg-type]
        if pool is not None:
            new = [c for _, c in k.plays[seen:]]
            kept = []
            for w in pool:
                for c in new:
                    w = w.advance(c)  # type: ignore[assignment]
                    if w is None:
                        break
                if w is not None and (k.under is None or w.setup.under == k.under):
                    kept.append(w)
            pool = kept
        if self.worlds == "all":
            if pool is None:
                try:
                    pool = WorldSampler(k).all_worlds(ALL_WORLDS_CAP)
                except WorldsError as e:
                    raise WorldsError(f"{where}: {e}") from None
        else:
            pool = pool or []
            need = int(self.worlds) - len(pool)
            if need > 0:
                start = self.drawn.get(seat, 0)
                pool = pool + WorldSampler(k).sample(need, seed=f"{self.seed}:seat {seat}", start=start)
                self.drawn[seat] = start + need
        self.pools[seat] = (len(k.plays), pool)
        return pool, self.worlds == "all"


def annotate_view(ann, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = 1,
                  min_cost: int | None = None, progress: Callable[[int, int], None] | None = None,
                  race: bool = True):
    """``annotate --view player``: every decision of an :class:`~sheepsolve.annotate.Annotation` judged again from
    the mover's own view at that moment (see :class:`DecisionView`), and a :class:`PlayerView` per player. Returns
    the annotation with ``view`` filled in on every decision that had a choice, on every player and on the whole.

    Worlds: ``worlds`` per decision, sampled (world ``i`` of seat ``s`` from ``(seed, s, i)``, a seat's worlds kept
    from one of its decisions to the next while they fit the play), or ``"all"``: every consistent world of every
    decision (refused, naming the decision, where a decision has more than the cap). Every world of every decision
    is solved in this process, or with ``jobs`` in processes too (one pool for the whole hand, started once the
    work left is long enough); the answer for a seed is the same. ``race`` (sampled worlds only): as in
    :func:`player_view`, every decision's worlds solved in rounds, a card clearly worse than the best no longer
    solved for that decision.
    """
    import dataclasses

    t0 = time.perf_counter()
    setup = ann.setup
    g = ann.game
    plays = [d.card for d in ann.decisions]
    pools = _Pools(worlds, seed)
    asked: list[tuple[int, Knowledge, list[World], bool]] = []
    for d in ann.decisions:
        if d.forced:
            continue
        k = Knowledge.from_setup(setup, plays[:d.index], d.seat, stakes=ann.stakes, players=ann.players)
        pool, exact = pools.worlds_for(k, f"trick {d.trick}, {d.player}")
        asked.append((d.index, k, pool, exact))
    units = [(j, w) for j, (_, _, pool, _) in enumerate(asked) for w in pool]
    first = [0] * len(asked)  # each decision's first unit
    for j in range(1, len(asked)):
        first[j] = first[j - 1] + len(asked[j - 1][2])
    solver = Solver(VIEW_TABLE_MIB)

    def unit_specs() -> tuple:  # the worker processes' data, made only if they start
        kspecs = [k.to_spec() for _, k, _, _ in asked]
        return ([(kspecs[j], w.to_spec()) for j, w in units],)

    # racing (sampled worlds): every decision's worlds in the rounds of race_rounds, solved together round by round
    rounds = [race_rounds(len(pool)) if race and not exact else [len(pool)] for _, _, pool, exact in asked]
    legal_of = [list(ann.decisions[index].legal) for index, _, _, _ in asked]
    maxi = [(k.seat in pool[0].setup.team) if g.two_sided else False for _, k, pool, _ in asked]
    alive = [list(range(len(legal_of[j]))) for j in range(len(asked))]
    vals_of: list[list[tuple]] = [[] for _ in asked]
    done = 0
    # one pool for every round, if the run is long enough for one: the units sent once, each round's cards with it
    with UnitRunner(jobs, init=_ann_init, initargs=unit_specs) as runner:
        for r in range(max((len(x) for x in rounds), default=0)):
            per: list[list[tuple[int, int]]] = []
            only: dict[int, tuple] = {}
            guesses: dict[int, tuple] = {}
            for j, ends in enumerate(rounds):
                if r >= len(ends):
                    continue
                start = ends[r - 1] if r else 0
                per.append([(first[j] + i, j) for i in range(start, ends[r])])
                if len(alive[j]) < len(legal_of[j]):
                    only[j] = tuple(alive[j])
                    guesses[j] = _guesses(vals_of[j], alive[j], len(legal_of[j]))
            # world by world across the decisions (early decisions cost far more than late ones): the first
            # units are a fair sample of the run's pace, and the workers' chunks mix cheap and dear
            round_ids = tuple(ids[t] for t in range(max(map(len, per), default=0)) for ids in per if t < len(ids))

            def local(u: int, round_ids=round_ids, only=only, guesses=guesses) -> tuple:
                uid, j = round_ids[u]
                return solve_world(asked[j][1], units[uid][1], solver, payments=False, only=only.get(j),
                                   guesses=guesses.get(j))

            got = runner.map(_AnnRound(round_ids, only, guesses), len(round_ids), local=local,
                             later=len(units) - done - len(round_ids), sample=len(per),
                             progress=(None if progress is None else
                                       lambda d, _t, done=done: progress(done + d, len(units))))
            done += len(round_ids)
            for (uid, j), res in zip(round_ids, got):
                vals_of[j].append(res[0])
            for j, ends in enumerate(rounds):
                if r < len(ends):
                    alive[j] = race_keep(vals_of[j], alive[j], maxi[j])
    per: dict[int, DecisionView] = {}
    threshold = min_cost if min_cost is not None else 1
    for j, (index, k, pool, exact) in enumerate(asked):
        vals = vals_of[j]
        d = ann.decisions[index]
        legal = legal_of[j]
        maximize = maxi[j]
        cards, best = _summarize(k, legal, vals, None, maximize, exact)
        cv = cards[d.card]
        cost = max(0.0, cv.vs_best)
        top = next(c for c in legal if cards[c].vs_best == 0.0 and c in best)
        per[index] = DecisionView(
            worlds=len(pool), exact=exact, values={c: x.mean for c, x in cards.items()},
            stderr={c: x.stderr for c, x in cards.items()}, best=best, cost=cost, cost_stderr=cv.vs_best_stderr,
            error=d.card not in best and cost > 0 and cost >= threshold, top=cards[top].mean,
            worlds_solved={c: x.worlds_solved for c, x in cards.items()})
    decisions = tuple(dataclasses.replace(d, view=per.get(d.index)) for d in ann.decisions)
    players = []
    result_of = _results(ann, solver)
    for p in ann.summary.players:
        mine = [per[d.index] for d in decisions if d.seat == p.seat and d.index in per]
        loss = math.fsum(v.cost for v in mine)
        ses = [v.cost_stderr for v in mine if v.cost_stderr is not None]
        # the decisions' worlds differ from one to the next: their errors add as independent
        loss_se = math.sqrt(math.fsum(x * x for x in ses)) if ses else (0.0 if mine else None)
        expected = mine[0].top if mine else None
        result = result_of.get(p.seat)
        luck = None
        if expected is not None and result is not None:
            maximize = g.two_sided and p.side == "declaring"
            sign = 1.0 if maximize else -1.0
            luck = sign * (result - expected) + loss
        players.append(dataclasses.replace(p, view=PlayerView(
            decisions=len(mine), errors=sum(v.error for v in mine), expected_loss=loss,
            expected_loss_stderr=loss_se, dd_loss=p.given_away, expected=expected, result=result, luck=luck)))
    summary = dataclasses.replace(ann.summary, players=tuple(players))
    if ann.bury is not None:
        ann = dataclasses.replace(ann, bury=dataclasses.replace(
            ann.bury, view=bury_view(ann, worlds=worlds, seed=seed, jobs=jobs, min_cost=min_cost, progress=progress)))
    settings = ViewSettings(worlds=worlds, seed=seed, min_cost=min_cost, solves=len(units),
                            seconds=time.perf_counter() - t0)
    return dataclasses.replace(ann, decisions=decisions, summary=summary, view=settings)


def _results(ann, solver: Solver) -> dict[int, int]:
    """Each seat's final value on the values' scale: the declaring side's points (two-sided games), the seat's
    own points (ramsch, leaster); an unfinished hand's from its last position under perfect play."""
    g = ann.game
    state = ann.setup.start().play_cards(d.card for d in ann.decisions)
    out: dict[int, int] = {}
    if g.two_sided:
        r = ann.summary.result_value
        if r is not None:
            out = {s: r for s in range(g.seats)}
        return out
    for s in range(g.seats):
        obj = Objective.for_setup(ann.setup, seat=s)
        out[s] = obj.final_value(state) if state.finished else solver.value(state, obj)
    return out
