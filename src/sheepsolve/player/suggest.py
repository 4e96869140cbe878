"""Cards judged from the player's seat: every consistent world solved double dummy, and averaged.

:func:`player_view` answers the question a player asks at the table, "what should I play here?", for the seat of
a :class:`~sheepsolve.worlds.Knowledge`: each legal card's mean final value over the worlds (on ``solve``'s scale:
the declaring side's final card points, the bury and the tricks already won included; ramsch and leaster: the
seat's own points, every other player against it), its standard error, P(61+) and P(91+) for the declaring side,
and the seat's own expected payment. :func:`suggest_record` is ``sheepsolve suggest``.

Readings
--------
- *stderr*: the sample standard deviation of the card's values over the ``N`` worlds, divided by ``sqrt(N)``
  (weighted worlds: its importance-sampling form, :mod:`sheepsolve.weighting`). With every consistent world
  solved (``--worlds all``) it is the same formula: the spread of the values over the worlds, not a sampling
  error. None for one world, and for a card racing dropped after worlds that all gave it one value.
- *effective worlds*: what weighted worlds are worth in uniform ones, ``(sum w)^2 / sum(w^2)``.
- *best*: the card with the best mean (the highest for a player of the declaring side, the lowest for everyone
  else), and every card within noise of it: every card is solved in the same worlds, so the world-by-world
  difference to the best card has a standard error of its own, and a card is a *tie* when its mean difference is
  at most :data:`~sheepsolve.stats.TIE_Z` of those standard errors. With every world solved only equal means tie.
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

import dataclasses
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..engine import State
from ..files import clip
from ..objective import Objective
from ..pool import UnitRunner, quick_parallel_after
from ..record import Record, position_refusal
from ..solver import Solver
from ..stats import rounded
from ..worlds import ALL_WORLDS_CAP, Knowledge, World, WorldSampler, WorldsError
from .options import VIEW_TABLE_MIB
from .solve import (CardView, Race, race_guesses, race_keep, race_rounds, races, solve_world, summarize_cards,
                    worker_knowledge, worker_solver)
from ..constraints import parse_constraints
from ..weighting import (CAVEAT, PlayWeights, WeightedSampler, assumption, beliefs, effective_size, hand_beliefs,
                         hand_masks, pick_worlds, weighs, world_weights)

__all__ = ["View", "player_view", "parse_at", "suggest_record"]


@dataclass(frozen=True)
class View:
    """Every legal card of the seat judged over the worlds (see the module docstring)."""

    knowledge: Knowledge
    worlds: int  # worlds solved
    exact: bool  # every consistent world was solved
    cards: dict[Card, CardView]  # in legal order
    best: tuple[Card, ...]
    maximize: bool  # the seat wants the value high (a player of the declaring side; a defender of null, Bettel)
    values: tuple[tuple[int | None, ...], ...]  # per world, per legal card (None: not solved there, racing)
    payments: tuple[tuple[int | None, ...], ...] | None
    double_dummy: dict[Card, int] | None = None
    seconds: float = 0.0
    at: tuple[int, int] | None = None  # with --at: (trick, card of the trick), both from 1
    played: Card | None = None  # with --at: the card the record's player played there
    weights: tuple[float, ...] | None = None  # each world's weight (None: alike)
    beliefs: dict[int, dict[str, Any]] | None = None  # other seat -> expected trumps and card chances
    inference: str = "none"  # how the worlds were weighted ("auction" or "none")
    declaring: bool = False  # the seat plays on the declaring side (two-sided games)

    @property
    def effective(self) -> float:
        """What the worlds are worth in uniform worlds (the worlds when they weigh alike)."""
        return float(self.worlds) if self.weights is None else effective_size(self.weights)

    @property
    def assumes(self) -> str:
        """One line: what the worlds assume."""
        return assumption(self.knowledge)

    def assumes_in(self, style: str) -> str:
        """:attr:`assumes` for a reader of card style ``style``: the auction's contracts by name, its cards in
        ``style``."""
        return assumption(self.knowledge, style)

    @property
    def seat_name(self) -> str:
        k = self.knowledge
        return k.players[k.seat] if k.players else str(k.seat + 1)

    @property
    def top(self) -> Card:
        """The card with the best mean (the first of equal means)."""
        return next(c for c in self.cards if self.cards[c].vs_best == 0.0 and c in self.best)

    @property
    def scale(self) -> str:
        """What the means count."""
        g = self.knowledge.game
        if not g.two_sided:
            return "the seat's own final card points, every other player against it (lower is better)"
        if g.no_trick:
            return "1 when the declarer takes a trick, 0 when he takes none (he wins with none)"
        return "the declaring side's final card points"

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
            "scale": self.scale,
            "side": ("declaring" if self.declaring else "defending") if g.two_sided else "self",
            "double_dummy": ({str(c): v for c, v in self.double_dummy.items()} if self.double_dummy is not None
                             else None),
            "effective_worlds": rounded(self.effective, 1),
            "inference": self.inference,
            "constraints": [c.text for c in k.constraints],
            "assumes": self.assumes,
            "beliefs": ({} if self.beliefs is None else
                        {k.players[s]: {"trumps": rounded(b["trumps"]), "cards": {c: rounded(p)
                                                                                  for c, p in b["cards"].items()}}
                         for s, b in self.beliefs.items()}),
            "caveat": CAVEAT,
            **({} if self.at is None else {
                "at": {"trick": self.at[0], "card": self.at[1]},
                "played": None if self.played is None else str(self.played),
                "played_cost": None if self.played is None else rounded(self.cost(self.played))}),
            "seconds": round(self.seconds, 6),
        }


class _Draws:
    """A sampled question's worlds drawn where they are solved: world ``i`` of ``seed`` is ``sample(1, seed, start=i)``
    of the uniform sampler, or of the weighted one with its importance weight, the same world :func:`pick_worlds`
    draws, in whichever process. ``first``: world 0, once drawn (by this process, before any helper forks)."""

    def __init__(self, sampler: WorldSampler, weighted: WeightedSampler | None, seed: int | str, n: int) -> None:
        self.sampler = sampler
        self.weighted = weighted
        self.seed = seed
        self.n = n
        self.first: tuple[World, float | None] | None = None

    def world(self, i: int) -> tuple[World, float | None]:
        if i == 0 and self.first is not None:
            return self.first
        if self.weighted is not None:
            worlds, ws = self.weighted.sample(1, seed=self.seed, start=i)
            return worlds[0], ws[0]
        return self.sampler.sample(1, seed=self.seed, start=i)[0], None


def _draws(k: Knowledge, worlds: int | str, seed: int | str) -> _Draws | None:
    """The worlds to draw where they are solved, or None where :func:`pick_worlds` gives them (every consistent world,
    a ``--worlds`` it refuses, weights whose rejection control has no threshold)."""
    sampler = WorldSampler(k)
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1 or sampler.candidates <= worlds:
        return None
    weighted = None
    if weighs(k.weights):
        weighted = WeightedSampler(k, k.weights, sampler)
        if weighted.threshold <= 0:  # its worlds may all weigh 0, which pick_worlds turns into uniform ones
            return None
    return _Draws(sampler, weighted, seed, worlds)


def _solve_unit(k: Knowledge, source: Any, i: int, solver: Solver, tsolver: Solver, payments: bool,
                only: tuple | None, guesses: tuple | None) -> tuple:
    """World ``i`` of ``source`` solved (:func:`solve_world`): from a :class:`_Draws`, drawn first, and then with
    its hands as masks and its weight, ``(values, payments, hands, weight)``; from the worlds given (or their
    specs), ``(values, payments)``."""
    if isinstance(source, _Draws):
        world, weight = source.world(i)
        values, pays = solve_world(k, world, solver, tsolver, payments=payments, only=only, guesses=guesses)
        return values, pays, hand_masks(world), weight
    world = source[i] if isinstance(source[i], World) else World.from_spec(k, source[i])
    return solve_world(k, world, solver, tsolver, payments=payments, only=only, guesses=guesses)


def _view_init(*data: Any) -> None:
    """Worker set-up for :func:`player_view`'s units, once per run: ``("live", knowledge, source, solver, tricks
    solver)`` in a helper forked from the run's process (nothing pickled), or ``("spec", knowledge spec, world
    specs)`` in a pool's worker."""
    _SUGGEST_WORKER["view"] = data


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
        mode, *data = _SUGGEST_WORKER["view"]
        if mode == "live":
            k, source, solver, tsolver = data
        else:
            kspec, source = data
            k, solver, tsolver = worker_knowledge(kspec), worker_solver(), worker_solver(tricks=True)
        return _solve_unit(k, source, self.start + i, solver, tsolver, self.payments, self.only, self.guesses)


_SUGGEST_WORKER: dict[str, Any] = {}


def player_view(k: Knowledge, worlds: int | str = 100, *, seed: int = 0, jobs: int | None = 1,
                solver: Solver | None = None, tricks_solver: Solver | None = None, payments: bool = True,
                given: Sequence[World] | None = None, exact: bool | None = None,
                actual: State | None = None, progress: Callable[[int, int], None] | None = None,
                race: Race = True, weights: Sequence[float] | None = None) -> View:
    """Judge every legal card of ``k.seat`` (who must be the one to move) over ``worlds`` sampled worlds, or
    every consistent world with ``"all"``; ``given``: solve these worlds instead (``exact``: whether they are every
    consistent world). ``actual``: the real position, when every hand is known, for the double-dummy values.

    The worlds are solved in this process while that is quick, else also in ``jobs`` processes (None: every
    core): where they start by fork, helpers forked from this process that work beside it, each sampled world
    drawn where it is solved; else a pool, the worlds drawn here first. The answer for a seed is the same either
    way.

    Weighted worlds (``k.weights``, :mod:`sheepsolve.weighting`): sampled where the weight is, each with its
    importance weight, every figure weighted; ``weights`` go with ``given`` worlds. When no more deals are
    possible than ``worlds`` asks, every consistent world is solved instead (exactly).

    ``race`` (sampled worlds only; never when ``exact``; True: only where it pays, while the seat holds at least
    :func:`~sheepsolve.player.solve.race_min_hand` cards; ``"always"``: whatever the hand, see :func:`races`): the
    worlds are solved in fixed rounds (:func:`race_rounds`), and after each a card clearly worse than the best
    (:func:`race_keep`) is no longer solved; each card's figures are over the worlds it was solved in
    (``worlds_solved``). The rounds and the drops depend only on the values, so the answer for a seed does not
    depend on ``jobs``.
    """
    t0 = time.perf_counter()
    if k.to_move != k.seat:
        who = k.players[k.seat] if k.players else str(k.seat + 1)
        tm = k.to_move
        now = "the hand is over" if tm is None else f"{k.players[tm] if k.players else tm + 1} is to move"
        raise WorldsError(f"--seat: {who} is not the one to move ({now})")
    solver = solver or Solver(VIEW_TABLE_MIB)
    tsolver = tricks_solver or Solver(VIEW_TABLE_MIB)
    source: Any = None

    def init_data() -> tuple:
        if runner.forks:
            return "live", k, source, solver, tsolver
        return "spec", k.to_spec(), tuple(w.to_spec() for w in source)

    # one pool (or one set of helpers) for every round, if the run is long enough: each round's cards sent with it
    with UnitRunner(jobs, init=_view_init, parallel_after=quick_parallel_after(), initargs=init_data,
                    share=True) as runner:
        draws = None
        if given is None and (runner.forks or runner.jobs == 1):
            draws = _draws(k, worlds, seed)
        if given is None and draws is None:
            given, weights, exact = pick_worlds(k, worlds, seed, ALL_WORLDS_CAP)
        exact = bool(exact)
        if draws is not None:
            draws.first = draws.world(0)
            first, n, source = draws.first[0], draws.n, draws
        else:
            if not given:
                raise WorldsError("no world to solve")
            first, n, source = given[0], len(given), given
        legal = first.state.legal()
        # the declaring side wants its points high; a null or Bettel declarer wants his tricks low
        maximize = Objective.for_setup(first.setup, seat=None if k.game.two_sided else k.seat).wants_high(k.seat)
        declaring = k.game.two_sided and k.seat in first.setup.team
        weighted = draws.weighted is not None if draws is not None else weights is not None
        results: list[tuple] = []
        alive = list(range(len(legal)))
        raced = not exact and races(race, k.game, len(first.state.hands[k.seat]))
        for end in (race_rounds(n) if raced else [n]):
            start = len(results)
            only = None if len(alive) == len(legal) else tuple(alive)
            guesses = None if only is None else race_guesses([r[0] for r in results], alive, len(legal))

            def local(i: int, start=start, only=only, guesses=guesses) -> tuple:
                return _solve_unit(k, source, start + i, solver, tsolver, payments, only, guesses)

            results += runner.map(_WorldRunner(start, payments, only, guesses), end - start, local=local,
                                  progress=(None if progress is None else
                                            lambda d, _t, start=start: progress(start + d, n)), later=n - end)
            if raced:
                so_far = None
                if weighted:
                    so_far = [r[3] for r in results] if draws is not None else weights[:len(results)]
                alive = race_keep([r[0] for r in results], alive, maximize, so_far)
    values = tuple(r[0] for r in results)
    pays = tuple(r[1] for r in results) if k.game.two_sided and payments else None
    if draws is not None:
        weights = [r[3] for r in results] if weighted else None
        believed = hand_beliefs(k, [r[2] for r in results], weights)
    else:
        believed = beliefs(k, given, weights)
    cards, best = summarize_cards(k, legal, values, pays, maximize, exact, weights)
    dd = None
    if actual is not None:
        obj = Objective.for_setup(actual.setup, seat=None if k.game.two_sided else k.seat)
        solver.clear()
        dd = solver.card_values(actual, obj)
    return View(knowledge=k, worlds=n, exact=exact, cards=cards, best=best, maximize=maximize,
                values=values, payments=pays, double_dummy=dd, seconds=time.perf_counter() - t0,
                weights=None if weights is None else tuple(weights), beliefs=believed,
                inference="auction" if weighs(k.weights) else "none", declaring=declaring)


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
                   race: bool = True, at: str | None = None, inference: str = "none",
                   constrain: Sequence[str] = (), play_model: bool = False) -> View:
    """``sheepsolve suggest``: the player to move after the record's last card (``seat``: who must be that
    player), every legal card judged from that seat. The double-dummy values come beside when every hand is
    known. ``race=False`` (``--no-race``): every card solved in every world. ``at`` (``--at TRICK[.CARD]``, see
    :func:`parse_at`): judge the decision at that point of the play instead, from what its player knew then;
    the card played there is named, with what it cost in expectation. ``inference`` (``--inference``):
    ``"auction"`` weighs the worlds by the record's auction (:func:`sheepsolve.weighting.world_weights`),
    ``"none"`` treats them alike; ``constrain`` (``--constrain``): what the player believes of the other hands
    (:mod:`sheepsolve.constraints`); ``play_model`` (``--play-model``): the others' cards weighed by their
    double-dummy cost in each world too (:class:`sheepsolve.weighting.PlayWeights`: slow).

    >>> from sheepsolve.record import load_record
    >>> v = suggest_record(load_record("examples/sauspiel-finished.toml"), at="2.3", worlds=20)
    >>> v.at, v.played is not None, v.played in v.cards
    ((2, 3), True, True)
    """
    if rec.position is not None:
        raise WorldsError(position_refusal("suggest"))
    plays = [c for t in rec.play for c in t]
    point = None if at is None else parse_at(rec, at)
    upto = None if point is None else point[2]
    if point is not None and upto == len(plays) == rec.game.seats * rec.game.hand_size:
        raise WorldsError(f"--at: trick {point[0]}, card {point[1]}: the hand is over there")
    k = Knowledge.from_record(rec, seat, upto=upto)
    k = dataclasses.replace(k, constraints=parse_constraints(constrain, rec.game, rec.players),
                            weights=world_weights(rec, inference))
    if k.to_move is None:
        if point is not None:
            raise WorldsError(f"--at: trick {point[0]}, card {point[1]}: the hand is over there")
        raise WorldsError("the hand is over: there is no card to suggest (--at TRICK[.CARD] names a decision "
                          "of the hand)")
    if k.to_move != k.seat:
        raise WorldsError(f"--seat: {rec.players[k.seat]} is not the one to move ({rec.players[k.to_move]} is)")
    if play_model:  # the deals it weighs, about: sampled worlds' (every consistent world: bounded by its nodes)
        sampled = isinstance(worlds, int) and WorldSampler(k).candidates > worlds
        least = WeightedSampler.deals_expected(k, worlds) if sampled else 0  # type: ignore[arg-type]
        k = dataclasses.replace(k, weights=PlayWeights(k.weights, least_deals=least))
    actual = None
    if rec.complete:
        actual = rec.state() if upto is None else rec.replay.after(upto)
    v = player_view(k, worlds, seed=seed, jobs=jobs, actual=actual, progress=progress, race=race)
    if point is None:
        return v
    played = plays[upto] if upto < len(plays) else None
    return dataclasses.replace(v, at=point[:2], played=played)
