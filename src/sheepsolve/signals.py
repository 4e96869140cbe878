"""Ending quietly on SIGTERM and Ctrl-C when work is spread over processes.

A process pool left behind by a terminated parent prints its workers' ``BrokenPipeError`` tracebacks and a
leaked-semaphore warning. The rules used with every pool here:

- the parent turns SIGTERM into an exception (:class:`Terminated`) while its pool runs
  (:func:`terminate_raises`), so the pool's ``with`` block ends it: the workers are stopped and waited for;
- each worker ignores SIGINT and ends on SIGTERM by raising ``SystemExit`` (:func:`worker_init`): a Ctrl-C at
  the terminal, which reaches the whole process group, is the parent's to handle; a worker told to stop unwinds,
  so the pool's queue locks it holds (waiting for a task, sending a result) are released. Killed outright it
  would take them along, and the parent's ``terminate`` would wait for them forever (a SIGTERM to the whole
  group did that to ``batch``);
- the command line ends on :class:`Terminated` with status 143 (128 + SIGTERM), without a traceback;
- a worker told to stop a second time while it unwinds (the group's SIGTERM, then the pool's ``terminate``) ends
  at once (``os._exit``): by then the parent holds the pool's task-queue lock, and a second ``SystemExit`` raised
  in the interpreter's shutdown would only print an "Exception ignored" traceback. So a worker whose
  ``SystemExit`` was swallowed somewhere still ends on the next SIGTERM;
- SIGINT and SIGTERM are blocked while the pool's processes start, so that none arrives in a worker before its
  handlers are in place (a worker's own start then unblocks them), nor in the parent before the pool can be
  ended; one that arrived meanwhile is delivered right after.

Workers start by ``fork`` when this process runs a single thread (nothing can hold a lock that the child would
inherit locked; Linux, where ``/proc/self/task`` tells), else from a fork server (started once per process,
with the sheepsolve modules already imported), else (no fork server on the platform) as spawned interpreters.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import multiprocessing.pool
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Callable

__all__ = ["Terminated", "terminate_raises", "worker_init", "process_pool", "start_method", "TERMINATED_STATUS"]

TERMINATED_STATUS = 128 + signal.SIGTERM
"""The exit status after a SIGTERM, as the shell reports a process the signal ended."""


class Terminated(BaseException):
    """SIGTERM arrived while :func:`terminate_raises` was in force. A BaseException, like KeyboardInterrupt, so
    that no ``except Exception`` on the way swallows it."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


@contextlib.contextmanager
def terminate_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread (elsewhere, or where signals
    cannot be handled, the block runs unchanged). The previous handler comes back after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except (ValueError, OSError):  # pragma: no cover - not the main interpreter
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})
_leaving = False


def _leave(signum: int, frame: Any) -> None:
    global _leaving
    if _leaving:  # told again while unwinding (or after the first SystemExit was swallowed): end now
        os._exit(TERMINATED_STATUS)
    _leaving = True
    raise SystemExit(TERMINATED_STATUS)


def worker_init() -> None:
    """Initializer of a pool's worker processes: SIGINT ignored (the parent handles it and ends the pool); SIGTERM
    raises ``SystemExit``, which releases the locks the worker holds and ends it silently (multiprocessing prints
    no traceback for it), and a second SIGTERM ends it at once. Then both signals are unblocked (the pool starts
    its workers with them blocked, :func:`process_pool`)."""
    global _leaving
    _leaving = False
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


START_METHOD: str | None = None
"""The start method of every pool's workers; None: :func:`start_method` chooses."""


def _single_threaded() -> bool:
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc: threads started outside Python would not show; do not fork
        return False


def start_method() -> str:
    """How the next pool starts its workers: ``fork`` when this process runs one thread and the platform can fork
    (the cheapest: no interpreter to start, nothing to import), else ``forkserver`` where the platform has it,
    else ``spawn``; :data:`START_METHOD` overrides the choice."""
    if START_METHOD is not None:
        return START_METHOD
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux") and _single_threaded():
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _context(method: str, preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        # imported once in the fork server (when this call starts it), not in every worker
        loaded = {m for m in sys.modules if m.startswith("sheepsolve") and not m.endswith("__main__")}
        ctx.set_forkserver_preload(sorted(loaded | set(preload)))
    return ctx


END_GRACE_SECONDS = 10.0
"""How long the pool's own ``terminate`` may take before its workers are killed."""


def _end(pool: multiprocessing.pool.Pool) -> bool:
    """Terminate ``pool``; whether its ``terminate`` returned. If it has not after :data:`END_GRACE_SECONDS`
    (a queue lock left held by a worker that will not leave), its workers are killed, and waited for, so none
    is left behind either way (the stuck thread is a daemon: it does not keep this process alive)."""
    ender = threading.Thread(target=pool.terminate, name="sheepsolve-pool-end", daemon=True)
    ender.start()
    ender.join(END_GRACE_SECONDS)
    if not ender.is_alive():
        return True
    workers = list(getattr(pool, "_pool", ()))
    for p in workers:
        with contextlib.suppress(Exception):
            p.kill()
    for p in workers:
        with contextlib.suppress(Exception):
            p.join(END_GRACE_SECONDS)
    ender.join(END_GRACE_SECONDS)
    return not ender.is_alive()


@contextlib.contextmanager
def process_pool(workers: int, initializer: Callable[..., None] | None = worker_init,
                 initargs: tuple = (), *, preload: Sequence[str] = ()) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` processes (started as :func:`start_method` says), each started with
    ``initializer(*initargs)`` (which must call :func:`worker_init`), under :func:`terminate_raises`, that always
    ends with its workers gone. ``preload``: modules the workers need, imported once in the fork server when it
    starts (the sheepsolve modules this process has imported always are).

    When the block ends normally the pool is closed and joined: each worker takes its end-of-work sentinel and
    leaves, and no signal is sent, so none can stop a worker while it holds one of the pool's queue locks (a
    worker left waiting for that lock would make the join wait forever). When the block raises (SIGTERM as
    :class:`Terminated`, Ctrl-C, an error) the workers are terminated, then joined, and the exception goes on.
    """
    with terminate_raises():
        ctx = _context(start_method(), preload)
        blocked = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        pool = None
        try:
            if blocked:
                before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
            try:
                pool = ctx.Pool(workers, initializer=initializer, initargs=initargs)
            finally:
                if blocked:
                    signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a signal held meanwhile arrives now
            yield pool
        except BaseException:
            if pool is not None and not _end(pool):
                pool = None  # its threads are stuck on a queue lock: the workers are killed and waited for
            raise
        else:
            pool.close()
        finally:
            if pool is not None:
                pool.join()
