"""The work of the bury tools in units, run in this process or in worker processes (spawn-safe: a :class:`Task`
is plain data): a choice on a known deal, or one world of the cards a player cannot see, with every choice (or
the best one, or every contract) solved in it.

What a thread (in a worker process: the process) keeps from one unit to the next is its :class:`Worker`: the
solvers of sampled worlds, the evaluation's :class:`~sheepsolve.bury.evaluation.Memo`, the sampler of the last
task and its every deal, the last deal's choices (their guesses carry from one unit to the next) and the last
task's choices. :func:`worker` gives this thread's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..games import Game
from ..pool import PARALLEL_AFTER_SECONDS, game_from_spec, map_units
from ..scoring import Stakes
from ..solver import Solver
from ..weighting import WeightedSampler, WorldWeights, passes_weights
from ..worlds import ALL_WORLDS_CAP, Knowledge, World, WorldSampler, before_choice, world_rng
from .choices import BuryDecision, BuryError, Contract
from .evaluation import DealChoices, Evaluation, Memo, Solvers, best_decision, contract_evaluation

__all__ = ["ProgressFn", "PASSES_PILOT_DEALS", "WORLDS_TABLE_MIB", "Task", "PassesWeights", "Worker", "worker",
           "run_units", "TaskRunner"]

ProgressFn = Callable[[int, int], None]
"""Called after each unit of work with (units done, units in all)."""

PASSES_PILOT_DEALS = 256
"""Pilot deals whose largest weight is rejection control's threshold for the worlds weighed by the passes (the
``top_threshold`` of :class:`~sheepsolve.weighting.WeightedSampler`; docs/TUNING.md)."""

WORLDS_TABLE_MIB = 2
"""Table size of the solver that works through sampled worlds (and of worker processes). Twice the default: a
picker's view solves a deal's choices one after another in world after world, and the reuse of entries between
choices pays for the larger table (docs/TUNING.md). A single deal's ranking keeps the default."""


@dataclass(frozen=True)
class Task:
    """A question in units: ``kind`` ``"deal"`` (the choices on one known deal, a unit each), ``"bury"`` (every
    choice in each world), ``"pick"`` (the best choice in each world), ``"choose"`` (every contract in each world),
    ``"choose-known"`` (Skat, the skat known: every discard of every contract in each world; ``choices`` holds
    (contract key, discard keys) pairs)."""

    kind: str
    game: tuple
    seat: int
    hand: tuple[int, ...]  # the seat's hand as dealt
    blind: tuple[int, ...] | None  # the blind when known
    choices: tuple[tuple, ...]  # BuryDecision or Contract keys
    stakes: tuple[bool, bool, int]
    seed: int = 0
    hands: tuple[tuple[int, ...], ...] = ()  # "deal": every hand
    unseen: tuple[int, ...] | None = None
    by: str = "payment"
    exact: bool = False  # every deal of the unseen cards, in the sampler's order, instead of sampled worlds
    players: tuple[str, ...] | None = None  # the players' names, for messages
    inference: str = "none"  # "auction": sampled worlds weighed by the passes before the seat (rejection control)
    calls: tuple | None = None  # the record's auction's calls before the seat's decision (None: the implied passes)


class PassesWeights(WorldWeights):
    """A deal's weight before a choice: the passes of the seats before the one choosing
    (:func:`sheepsolve.weighting.passes_weights`), for :class:`~sheepsolve.weighting.WeightedSampler`."""

    def __init__(self, fn: Callable[..., float], label: str) -> None:
        self.fn = fn
        self.label = label

    def weight(self, k: Knowledge, world: World) -> float:
        return self.fn(world.setup.hands)

    def weight_at_lead(self, k: Knowledge, hands: Any, bury: int, under: Card | None, *,
                       floor: float = 0.0) -> float | None:
        return self.fn(hands, floor=floor)


def _eval_tuple(e: Evaluation) -> tuple:
    return (e.value, e.outcome, e.payment, e.alone, e.tricks_all, e.nodes)


class Worker:
    """What one thread keeps from one unit of work to the next (see the module docstring)."""

    def __init__(self) -> None:
        self.memo = Memo()
        self._solvers: Solvers | None = None
        self._sampler: tuple[tuple, WorldSampler] | None = None
        self._all_deals: tuple[WorldSampler, list] | None = None  # every deal of the last exact task's sampler
        self.deal: tuple[Task, DealChoices] | None = None  # the deal being worked on (its choices are units)
        self._decisions: tuple[tuple, list[BuryDecision]] | None = None  # the last task's choices
        # the weighted sampler of the last task's worlds (None: uniform) and the weights of its worlds drawn here
        self._weighted: tuple[WorldSampler, tuple, WeightedSampler | None, dict[int, tuple[float, int]]] | None = None

    @property
    def solvers(self) -> Solvers:
        """The solvers of sampled worlds."""
        if self._solvers is None:
            self._solvers = Solvers(Solver(WORLDS_TABLE_MIB))
        return self._solvers

    def sampler(self, task: Task, game: Game) -> WorldSampler:
        """The sampler of the worlds of ``task``: the seat's hand known, and the blind when the seat has picked
        (:func:`sheepsolve.worlds.before_choice`)."""
        seen = task.kind in ("bury", "choose-known")  # the blind in the seat's hand
        key = (task.game, task.seat, task.hand, task.blind if seen else None, task.unseen, task.players)
        known = self._sampler
        if known is None or known[0] != key:
            k = before_choice(game, task.seat, [Card(c) for c in task.hand],
                              blind=[Card(c) for c in task.blind] if seen and task.blind else None,
                              unseen=[Card(c) for c in task.unseen] if task.unseen is not None else None,
                              players=task.players)
            known = self._sampler = (key, WorldSampler(k))
        return known[1]

    def every_deal(self, task: Task, game: Game) -> list:
        """Every deal of the unseen cards of ``task``, in the sampler's order (refused above the cap)."""
        sampler = self.sampler(task, game)
        known = self._all_deals
        if known is None or known[0] is not sampler:
            known = self._all_deals = (sampler, sampler.all_deals(ALL_WORLDS_CAP))
        return known[1]

    def weighted(self, task: Task, game: Game) -> tuple[WeightedSampler | None, dict[int, tuple[float, int]]]:
        """The sampler of the weighted worlds of ``task`` (None: every deal alike: ``--inference none``, the first
        seat, no model of the calls, every deal solved) and the weights of the worlds drawn here so far (world ->
        its importance weight and the deals drawn for it)."""
        sampler = self.sampler(task, game)
        key = (task.inference, task.exact, task.seed, task.calls)
        known = self._weighted
        if known is None or known[0] is not sampler or known[1] != key:
            fn, label = passes_weights(game, task.seat, task.inference, task.players, task.calls)
            ws = None if fn is None or task.exact else WeightedSampler(
                sampler.k, PassesWeights(fn, label), sampler, top_threshold=True, pilot_deals=PASSES_PILOT_DEALS)
            known = self._weighted = (sampler, key, ws, {})
        return known[2], known[3]

    def world(self, task: Task, game: Game, i: int) -> tuple[list[list[Card]], list[Card]]:
        """World ``i`` of ``task``: drawn with ``world_rng(seed, i)`` (weighted: kept by rejection control, see
        :meth:`world_weight`), or with ``exact`` deal ``i`` of every deal."""
        if task.exact:
            return self.every_deal(task, game)[i]
        ws, drawn = self.weighted(task, game)
        if ws is None:
            return self.sampler(task, game).deal(world_rng(task.seed, i))
        before = ws.drawn
        s, parts, _, v = ws.draw_deal(world_rng(task.seed, i))
        drawn[i] = (v, ws.drawn - before)
        return s.as_deal(parts)

    def world_weight(self, task: Task, game: Game, i: int) -> tuple[float, int]:
        """The importance weight of sampled world ``i`` of a weighted ``task`` and how many deals were drawn and
        weighed to keep it (rejection control, :class:`~sheepsolve.weighting.WeightedSampler`): drawn again unless
        this thread drew it."""
        _, drawn = self.weighted(task, game)
        if i not in drawn:
            self.world(task, game, i)
        return drawn[i]

    def world_count(self, task: Task, worlds: int | str) -> int:
        """How many worlds ``task`` solves (``"all"``: every deal, refused above the cap); checks the cards."""
        game = game_from_spec(task.game)
        self.sampler(task, game)
        if worlds == "all":
            return len(self.every_deal(task, game))
        return int(worlds)

    def deal_choices(self, task: Task, game: Game) -> DealChoices:
        deal = self.deal
        if deal is None or (deal[0] is not task and deal[0] != task):
            hands = [[Card(c) for c in h] for h in task.hands]
            deal = self.deal = (task, DealChoices(game, hands, [Card(c) for c in task.blind or ()], task.seat,
                                                  [BuryDecision.from_key(k) for k in task.choices], self.memo))
        return deal[1]

    def decisions(self, task: Task) -> list[BuryDecision]:
        known = self._decisions
        if known is None or known[0] != task.choices:
            known = self._decisions = (task.choices, [BuryDecision.from_key(k) for k in task.choices])
        return known[1]

    def run(self, task: Task, i: int, solvers: Solvers | None = None) -> Any:
        """One unit of work: choice ``i`` on the known deal, or world ``i``. The choices are solved in the order
        given (callers give them in :func:`~sheepsolve.bury.choices.solve_order`), each search started from a
        :class:`~sheepsolve.bury.evaluation.Guesser`'s guess."""
        solvers = solvers or self.solvers
        game = game_from_spec(task.game)
        stakes = Stakes(*task.stakes)
        if task.kind == "deal":
            return _eval_tuple(self.deal_choices(task, game).evaluate(solvers, i, stakes))
        # A new world is a new deal: its positions never match the last world's entries, which would only crowd
        # the table, and the killer cards learnt there mislead more than they guide (docs/TUNING.md)
        solvers.value.clear()
        hands, blind = self.world(task, game, i)
        if task.kind == "bury":
            choices = DealChoices(game, hands, blind, task.seat, self.decisions(task), self.memo)
            return tuple(_eval_tuple(choices.evaluate(solvers, k, stakes)) for k in range(len(task.choices)))
        if task.kind == "pick":
            best = best_decision(solvers, game, hands, blind, task.seat, stakes, task.by, self.memo)
            return best[0].to_key(), _eval_tuple(best[1])
        if task.kind == "choose":
            return tuple(_eval_tuple(contract_evaluation(solvers, game, hands, blind, task.seat, Contract.from_key(k),
                                                         stakes, task.by, self.memo))
                         for k in task.choices)
        if task.kind == "choose-known":
            out = []
            for ck, dks in task.choices:
                g = self.memo.contract_game(game, Contract.from_key(ck))
                choices = DealChoices(g, hands, blind, task.seat, [BuryDecision.from_key(k) for k in dks], self.memo)
                out.append(tuple(_eval_tuple(choices.evaluate(solvers, k, stakes)) for k in range(len(dks))))
            return tuple(out)
        raise ValueError(f"unknown task {task.kind!r}")  # pragma: no cover


_THREAD = threading.local()  # this thread's Worker (in a worker process: the process's)


def worker() -> Worker:
    """This thread's :class:`Worker`."""
    w = getattr(_THREAD, "worker", None)
    if w is None:
        w = _THREAD.worker = Worker()
    return w


def run_units(task: Task, n: int, jobs: int | None, progress: ProgressFn | None,
              solvers: Solvers | None = None, parallel_after: float | None = None) -> list[Any]:
    """Run units 0..n-1 and return their results in unit order (:func:`sheepsolve.pool.map_units`): in this
    process with ``solvers`` while the rest would take less than ``parallel_after`` seconds, then in ``jobs``
    spawned processes. Every unit's result is exact and independent of where it ran, so the answer does not
    depend on ``jobs``. The choices of one deal share table entries: each process gets one run of them."""
    if jobs is not None and jobs < 1:
        raise BuryError(f"--jobs: must be 1 or more, not {jobs}")
    here = worker()
    solvers = solvers or here.solvers
    return map_units(TaskRunner(task), n, jobs, progress=progress, local=lambda i: here.run(task, i, solvers),
                     parallel_after=PARALLEL_AFTER_SECONDS if parallel_after is None else parallel_after,
                     spread=task.kind == "deal")


class TaskRunner:
    """Picklable callable for the pool (a module-level class, so spawned workers can import it)."""

    def __init__(self, task: Task) -> None:
        self.task = task

    def __call__(self, i: int) -> Any:
        return worker().run(self.task, i)
