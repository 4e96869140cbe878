"""Units of work run in this process or in worker processes, the answer the same either way.

:class:`UnitRunner` runs a run's units here while they are quick and moves the rest to a pool of worker
processes once what is left would take longer than :data:`PARALLEL_AFTER_SECONDS`; :func:`map_units` is one
batch of it. :func:`game_spec` and :func:`game_from_spec` carry a game to a worker as plain data.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from .games import Game, make_game
from .signals import (HANGUP_STATUS, process_pool, set_parent_death_signal, start_method, terminate_raises,
                      worker_init)
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

FORKED_PARALLEL_AFTER_SECONDS = 0.02
"""``suggest``'s threshold when workers start by fork: this process forks its helpers (one fewer than the jobs)
and goes on with the units beside them, each taking the next unit left (:class:`UnitRunner`'s ``share``). A
fork costs about a millisecond and a helper that gets no core takes no unit, so this is low: a helper pays as
soon as the rest of the run is a few times its start (docs/TUNING.md, "Worlds drawn where they are solved").
``annotate``'s hands of many short decisions keep :data:`PARALLEL_AFTER_SECONDS` and a pool."""


def quick_parallel_after() -> float:
    """The threshold for one question's many worlds (``suggest``): :data:`FORKED_PARALLEL_AFTER_SECONDS` when the
    workers would start by fork, else :data:`PARALLEL_AFTER_SECONDS` (never above it)."""
    if start_method() == "fork":
        return min(PARALLEL_AFTER_SECONDS, FORKED_PARALLEL_AFTER_SECONDS)
    return PARALLEL_AFTER_SECONDS


def _worker_start(init: Callable[..., None] | None, initargs: tuple) -> None:
    """A worker process's start: the signal set-up every worker gets, then ``init(*initargs)``."""
    worker_init()
    if init is not None:
        init(*initargs)


class _Shared:
    """The units of one round, shared by this process and its forked helpers: the round's number, the next unit
    and the end in shared memory, each process taking the next unit under the lock (a helper still busy with an
    earlier round's message takes nothing of a later round)."""

    def __init__(self, ctx: Any) -> None:
        self.state = ctx.RawArray("q", 3)  # round, next unit, end
        self.lock = ctx.Lock()

    def open(self, round_: int, start: int, end: int) -> None:
        with self.lock:
            self.state[0], self.state[1], self.state[2] = round_, start, end

    def take(self, round_: int) -> int | None:
        """The next unit of round ``round_`` for the caller, or None (the round is over, or another began)."""
        with self.lock:
            st = self.state
            if st[0] != round_ or st[1] >= st[2]:
                return None
            i = st[1]
            st[1] = i + 1
            return i


def _helper_main(conn: Any, shared: _Shared, owner: int, init: Callable[..., None] | None, initargs: tuple
                 ) -> None:
    """A forked helper (:class:`UnitRunner`'s ``share``): ends with its parent ``owner``, sets up its signals as
    every worker does, calls ``init(*initargs)`` (inherited, not sent), then serves the rounds
    (:func:`_serve`). It ends without a word on any error of its own (out of memory, the parent gone): the parent
    runs the units it had taken."""
    set_parent_death_signal()
    if os.getppid() != owner:  # the parent died before the death signal was in place
        os._exit(HANGUP_STATUS)
    worker_init()
    try:
        if init is not None:
            init(*initargs)
        _serve(conn, shared)
    except Exception:
        os._exit(1)


def _serve(conn: Any, shared: _Shared) -> None:
    """For each round's message ``(round, run)``: take units of the round until none is left, sending back
    ``(round, [(unit, result), ...], failed)`` (``failed``: the unit whose ``run`` raised, which the parent then
    runs itself and gets its error there); None ends it."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        round_, run = message
        done: list[tuple[int, Any]] = []
        failed = None
        while (i := shared.take(round_)) is not None:
            try:
                done.append((i, run(i)))
            except Exception:
                failed = i
                break
        try:
            conn.send((round_, done, failed))
        except OSError:  # the parent closed its end: the run is over
            return


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())


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

    ``share`` (where workers start by fork, :attr:`forks`): instead of a pool, this process forks ``jobs - 1``
    helpers at that point and keeps working beside them: every process takes the next unit left of the batch
    (a shared counter), so a helper that gets no core takes nothing and this process never waits idle for work
    it could do; it waits only for the units a helper has taken. The helpers inherit ``init``'s arguments (live
    objects: nothing is pickled but each batch's ``run`` and the results).

    SIGTERM or Ctrl-C while the pool or the helpers live ends them, stopped and waited for, quietly
    (:func:`sheepsolve.signals.process_pool`).

    >>> with UnitRunner(1) as runner:
    ...     runner.map(lambda i: i * i, 4), runner.map(lambda i: -i, 2), runner.pool is None
    ([0, 1, 4, 9], [0, -1], True)
    """

    def __init__(self, jobs: int | None, *, parallel_after: float | None = None,
                 init: Callable[..., None] | None = None, initargs: tuple | Callable[[], tuple] = (),
                 share: bool = False) -> None:
        jobs = default_jobs() if jobs is None else jobs
        if jobs < 1:
            raise JobsError(f"--jobs: must be 1 or more, not {jobs}")
        self.jobs = min(jobs, default_jobs())
        self.limit = PARALLEL_AFTER_SECONDS if parallel_after is None else parallel_after
        self.init = init
        self.initargs = initargs
        self.pool: Any = None  # multiprocessing.pool.Pool, once started
        self.workers = 1
        self.forks = (share and self.jobs >= 2 and start_method() == "fork"
                      and not multiprocessing.current_process().daemon)
        """Whether later units run in helpers forked from this process, beside it (``share``), not in a pool."""
        self.helpers: list[tuple[Any, Any]] = []  # (process, connection) of each live helper
        self.helper_units = 0  # units the helpers ran
        self._shared: _Shared | None = None
        self._round = 0
        self._stack = contextlib.ExitStack()
        self._local_seconds = 0.0  # units run here and their time: the run's pace
        self._local_units = 0

    def __enter__(self) -> "UnitRunner":
        return self

    def __exit__(self, *exc: Any) -> bool:
        self.pool = None
        return bool(self._stack.__exit__(*exc))

    def close(self) -> None:
        """End the pool or the helpers, if any started (they leave once their work is done)."""
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

    def _start_helpers(self, left: int) -> None:
        """Fork the helpers (``share``): one fewer than the processes ``left`` units may use."""
        ctx = multiprocessing.get_context("fork")
        self._shared = _Shared(ctx)
        initargs = self.initargs() if callable(self.initargs) else self.initargs
        # SIGTERM or Ctrl-C from now until the run ends: the helpers are killed and waited for
        self._stack.enter_context(terminate_raises())
        self._stack.push(self._end_helpers)
        blocked = hasattr(signal, "pthread_sigmask")
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocked else None
        try:  # no stop signal reaches a helper before its handlers are in place (worker_init unblocks them)
            for _ in range(worker_count(self.jobs, left) - 1):
                mine, theirs = ctx.Pipe()
                helper = ctx.Process(target=_helper_main, daemon=True,
                                     args=(theirs, self._shared, os.getpid(), self.init, initargs))
                try:
                    helper.start()
                except OSError:  # no process to be had (a limit on processes, no memory): fewer helpers
                    mine.close()
                    break
                finally:
                    theirs.close()
                self.helpers.append((helper, mine))
        finally:
            if blocked:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
        self.workers = 1 + len(self.helpers)

    def _end_helpers(self, kind: Any, exc: Any, tb: Any) -> bool:
        """The end of the run: each helper told to leave and waited for; after an error or a signal, killed."""
        helpers, self.helpers = self.helpers, []
        self._end_helpers_now(helpers, kill=kind is not None)
        return False

    @staticmethod
    def _end_helpers_now(helpers: list[tuple[Any, Any]], kill: bool) -> None:
        for helper, conn in helpers:
            with contextlib.suppress(OSError):
                if kill:
                    helper.kill()
                else:
                    conn.send(None)
            conn.close()  # a helper still sending gets a broken pipe, never a wait
        for helper, _ in helpers:
            helper.join()

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
        if self.pool is None and not self.helpers:
            while len(out) < n and not self._worth_processes(n - len(out) + later, sample):
                t0 = time.perf_counter()
                out.append(local(len(out)))
                self._local_seconds += time.perf_counter() - t0
                self._local_units += 1
                if progress:
                    progress(len(out), n)
            if len(out) == n:
                return out
            if self.forks:
                self._start_helpers(n - len(out) + later)
            else:
                self._start(n - len(out) + later)
        if self._shared is not None:
            return self._map_shared(run, local, n, out, progress)
        rest = range(len(out), n)
        size = -(-len(rest) // self.workers) if spread else max(1, len(rest) // (self.workers * 16))
        for r in self.pool.imap(run, rest, chunksize=size):
            out.append(r)
            if progress:
                progress(len(out), n)
        return out

    def _map_shared(self, run: Callable[[int], Any], local: Callable[[int], Any], n: int, out: list[Any],
                    progress: Callable[[int, int], None] | None) -> list[Any]:
        """Units ``len(out)..n-1`` taken one by one by this process and its helpers (``share``)."""
        assert self._shared is not None
        start = len(out)
        self._round += 1
        round_ = self._round
        self._shared.open(round_, start, n)
        for _, conn in self.helpers:
            with contextlib.suppress(OSError):  # a helper gone: it answers nothing (below)
                conn.send((round_, run))
        results: dict[int, Any] = {}

        def done(i: int, result: Any) -> None:
            results[i] = result
            if progress:
                progress(start + len(results), n)

        while (i := self._shared.take(round_)) is not None:
            done(i, local(i))
        missing = set(range(start, n)) - set(results)
        answered: set[int] = set()  # helpers (by position) that answered this round or died
        dead: set[int] = set()
        while missing:
            waiting = [conn for j, (_, conn) in enumerate(self.helpers) if j not in answered]
            if not waiting:  # a helper died with units it had taken: run them here
                for i in sorted(missing):
                    done(i, local(i))
                break
            for conn in multiprocessing.connection.wait(waiting):
                j = next(j for j, (_, c) in enumerate(self.helpers) if c is conn)
                try:
                    got, items, failed = conn.recv()
                except (EOFError, OSError):
                    answered.add(j)
                    dead.add(j)
                    continue
                if got != round_:
                    continue  # a late answer to an earlier round (it took nothing)
                answered.add(j)
                for i, result in items:
                    done(i, result)
                    missing.discard(i)
                self.helper_units += len(items)
                if failed is not None:  # run it here: its error is raised here, as with one process
                    done(failed, local(failed))
                    missing.discard(failed)
        if dead:  # no later round waits for them
            gone = [h for j, h in enumerate(self.helpers) if j in dead]
            self.helpers = [h for j, h in enumerate(self.helpers) if j not in dead]
            self._end_helpers_now(gone, kill=True)
        out.extend(results[i] for i in range(start, n))
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
