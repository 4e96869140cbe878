"""Units of work run in this process or in worker processes, the answer the same either way.

:class:`UnitRunner` runs a run's units here while they are quick and moves the rest to a pool of worker
processes once what is left would take longer than :data:`PARALLEL_AFTER_SECONDS`; :func:`map_units` is one
batch of it. :func:`game_spec` and :func:`game_from_spec` carry a game to a worker as plain data.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

from .games import Game, make_game
from .signals import process_pool, worker_init
from .solver import SolverError

__all__ = [
    "MAX_JOBS",
    "JobsError",
    "default_jobs",
    "worker_count",
    "game_spec",
    "game_from_spec",
    "PARALLEL_AFTER_SECONDS",
    "FORKED_PARALLEL_AFTER_SECONDS",
    "quick_parallel_after",
    "UnitRunner",
    "map_units",
]


class JobsError(SolverError):
    """A number of worker processes that cannot be: fewer than one."""


MAX_JOBS = 64
"""The most worker processes started, whatever ``jobs`` asks (and never more than :func:`default_jobs`)."""


def default_jobs() -> int:
    """Every core this process may use (at most :data:`MAX_JOBS`)."""
    try:
        return max(1, min(MAX_JOBS, len(os.sched_getaffinity(0))))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, min(MAX_JOBS, os.cpu_count() or 1))


def worker_count(jobs: int | None, units: int) -> int:
    """Processes to start for ``units`` units of work when ``jobs`` are asked (None: every core): never more
    than the cores this process may use, nor than the units.

    >>> worker_count(10_000, 3) <= 3 and worker_count(10_000, 10_000) == default_jobs()
    True
    """
    return max(1, min(default_jobs() if jobs is None else jobs, default_jobs(), units))


_GAMES: dict[tuple, Game] = {}


def game_spec(g: Game) -> tuple:
    """Plain data that rebuilds ``g`` with :func:`game_from_spec` (in another process: games do not pickle): the
    last item holds what is declared beside the name (ouvert; Skat's hand game, announcements and bid), where set."""
    declared = tuple((k, getattr(g, k)) for k in _DECLARED if getattr(g, k, None) not in (None, False))
    return (g.name, g.trump_suit, "short" if len(g.deck) < 32 else "long", g.tout,
            g.partner if g.name == "sheepshead" else None, g.seats, tuple(sorted(g.rules.items())), declared)


_DECLARED = ("ouvert", "hand", "schneider_announced", "schwarz_announced", "bid")


def game_from_spec(spec: tuple) -> Game:
    """The game of a :func:`game_spec` (one object per spec and process)."""
    g = _GAMES.get(spec)
    if g is None:
        name, trump, deck, tout, partner, seats, rules, declared = spec
        g = _GAMES[spec] = make_game(name, trump=trump, deck=deck, tout=tout or None, partner=partner, seats=seats,
                                     rules=dict(rules), **dict(declared))
    return g


PARALLEL_AFTER_SECONDS = 3.0
"""Work moves to processes only when what is left of a run would take longer than this on one core (starting
them costs from milliseconds by fork to about a second spawned, each starts with empty tables, and on a busy
machine a second worker only adds work: docs/TUNING.md, "The player's view")."""

FORKED_PARALLEL_AFTER_SECONDS = 0.3
"""``suggest``'s threshold when workers start by fork (a pool starts quickly, with this process's tables loaded):
faster on idle cores, slower on busy ones (docs/TUNING.md, "Quiet cores"). ``annotate``'s hands of many short
decisions keep :data:`PARALLEL_AFTER_SECONDS`."""


def quick_parallel_after() -> float:
    """The threshold for one question's many worlds (``suggest``): :data:`FORKED_PARALLEL_AFTER_SECONDS` when the
    workers would start by fork, else :data:`PARALLEL_AFTER_SECONDS` (never above it)."""
    from .signals import start_method

    if start_method() == "fork":
        return min(PARALLEL_AFTER_SECONDS, FORKED_PARALLEL_AFTER_SECONDS)
    return PARALLEL_AFTER_SECONDS


def _worker_start(init: Callable[..., None] | None, initargs: tuple) -> None:
    """A worker process's start: the signal set-up every worker gets, then ``init(*initargs)``."""
    worker_init()
    if init is not None:
        init(*initargs)


class UnitRunner:
    """Runs a run's units of work, in one or several batches (:meth:`map`): in this process while that is quick,
    then in worker processes started once and kept until the run ends (the ``with`` block, or :meth:`close`).

    ``jobs``: the most processes (None: every core; never more than the cores, :func:`worker_count`); with 1
    every unit runs here. Units run here, timed, until the time they take says that what is left of the run (the
    rest of the batch and the ``later`` units the caller still expects) would last longer than ``parallel_after``
    seconds (default :data:`PARALLEL_AFTER_SECONDS`); then a pool starts, each worker first calling
    ``init(*initargs)`` (the data every unit needs, sent once; ``initargs`` may be a function returning them, called
    only if the pool starts), and every later unit of the run goes to it. Each unit's result must not depend on
    where it ran; then the answer does not depend on ``jobs``.

    SIGTERM or Ctrl-C while the pool lives ends it with its workers stopped and waited for, quietly
    (:func:`sheepsolve.signals.process_pool`).

    >>> with UnitRunner(1) as runner:
    ...     runner.map(lambda i: i * i, 4), runner.map(lambda i: -i, 2), runner.pool is None
    ([0, 1, 4, 9], [0, -1], True)
    """

    def __init__(self, jobs: int | None, *, parallel_after: float | None = None,
                 init: Callable[..., None] | None = None, initargs: tuple | Callable[[], tuple] = ()) -> None:
        jobs = default_jobs() if jobs is None else jobs
        if jobs < 1:
            raise JobsError(f"--jobs: must be 1 or more, not {jobs}")
        self.jobs = min(jobs, default_jobs())
        self.limit = PARALLEL_AFTER_SECONDS if parallel_after is None else parallel_after
        self.init = init
        self.initargs = initargs
        self.pool: Any = None  # multiprocessing.pool.Pool, once started
        self.workers = 1
        self._stack = contextlib.ExitStack()
        self._local_seconds = 0.0  # units run here and their time: the run's pace
        self._local_units = 0

    def __enter__(self) -> "UnitRunner":
        return self

    def __exit__(self, *exc: Any) -> bool:
        self.pool = None
        return bool(self._stack.__exit__(*exc))

    def close(self) -> None:
        """End the pool, if one started (its workers leave once their work is done)."""
        self.__exit__(None, None, None)

    def _worth_processes(self, left: int, sample: int) -> bool:
        """Whether ``left`` more units of the run, at the pace of those run here (at least ``sample`` of them),
        would last beyond the limit."""
        if self.jobs < 2 or left < 2:
            return False
        if self.limit <= 0:
            return True
        return (self._local_units >= max(1, sample)
                and self._local_seconds / self._local_units * left > self.limit)

    def _start(self, left: int) -> None:
        self.workers = worker_count(self.jobs, left)
        initargs = self.initargs() if callable(self.initargs) else self.initargs
        # SIGTERM or Ctrl-C from now until the run ends: the pool is ended, its workers stopped and waited for
        self.pool = self._stack.enter_context(
            process_pool(self.workers, initializer=_worker_start, initargs=(self.init, initargs)))

    def map(self, run: Callable[[int], Any], n: int, *, local: Callable[[int], Any] | None = None,
            progress: Callable[[int, int], None] | None = None, spread: bool = False, later: int = 0,
            sample: int = 1) -> list[Any]:
        """Run units ``0..n-1`` of one batch and return their results in unit order: ``local(i)`` (default
        ``run``) in this process, ``run`` (a picklable callable of plain data) in the workers: in small chunks,
        or with ``spread`` one run of units per worker (units that share table entries). ``later``: how many
        more units the run will bring after this batch (whether processes pay is judged on the whole rest).
        ``sample``: how many units of the run must have run here before their pace is trusted (units of unequal
        cost: order them so that the first ``sample`` are a fair sample of the run)."""
        local = local or run
        out: list[Any] = []
        if self.pool is None:
            while len(out) < n and not self._worth_processes(n - len(out) + later, sample):
                t0 = time.perf_counter()
                out.append(local(len(out)))
                self._local_seconds += time.perf_counter() - t0
                self._local_units += 1
                if progress:
                    progress(len(out), n)
            if len(out) == n:
                return out
            self._start(n - len(out) + later)
        rest = range(len(out), n)
        size = -(-len(rest) // self.workers) if spread else max(1, len(rest) // (self.workers * 16))
        for r in self.pool.imap(run, rest, chunksize=size):
            out.append(r)
            if progress:
                progress(len(out), n)
        return out


def map_units(run: Callable[[int], Any], n: int, jobs: int | None, *, progress: Callable[[int, int], None] | None
              = None, local: Callable[[int], Any] | None = None, parallel_after: float | None = None,
              spread: bool = False, init: Callable[..., None] | None = None, initargs: tuple = ()) -> list[Any]:
    """Run units ``0..n-1`` and return their results in unit order: one batch of a :class:`UnitRunner` (which
    see), its pool, if the work is long enough to start one, ended when they are done.

    >>> map_units(lambda i: 2 * i, 3, jobs=1)
    [0, 2, 4]
    """
    with UnitRunner(jobs, parallel_after=parallel_after, init=init, initargs=initargs) as runner:
        return runner.map(run, n, local=local, progress=progress, spread=spread)
