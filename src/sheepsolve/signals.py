"""Ending quietly on SIGTERM, SIGHUP and Ctrl-C when work is spread over processes.

A process pool left behind by a terminated parent prints its workers' ``BrokenPipeError`` tracebacks and a
leaked-semaphore warning. The rules used with every pool here:

- the parent turns SIGTERM and SIGHUP (a terminal or an ssh session that dies) into an exception
  (:class:`Terminated`) while its pool runs (:func:`terminate_raises`), so the pool's ``with`` block ends it; a
  SIGHUP that is ignored (``nohup``) stays ignored;
- every worker ends with the process that started it, whatever ends that one (SIGKILL included): on Linux the
  kernel sends it SIGKILL when its parent dies (``PR_SET_PDEATHSIG``, set as it starts, :func:`_start_worker`),
  and a worker whose parent is already gone by then leaves at once; a worker left by a dead parent kept
  computing, and a batch worker printed a ``BrokenPipeError`` traceback;
- a pool whose block ends normally is closed and joined: each worker takes its end-of-work sentinel and leaves;
- a pool whose block raises (SIGTERM as :class:`Terminated`, Ctrl-C, an error) is ended at once: no new
  worker, every worker killed and waited for, its queues left alone (:func:`_end`). ``Pool.terminate`` is not
  used: it reads the task queue and takes the queues' locks, and a worker that a SIGTERM to the whole process
  group stopped in the middle of a message left them unreadable: ``terminate`` then raised ``EOFError`` or
  waited forever (the interrupt tests' hang under load);
- each worker ignores SIGINT (a Ctrl-C at the terminal, which reaches the whole process group, is the parent's
  to handle) and ends on SIGTERM by raising ``SystemExit``, quietly; told a second time while it ends, it ends
  at once (``os._exit``), so a second ``SystemExit`` in the interpreter's shutdown prints no "Exception
  ignored" traceback, and a worker whose ``SystemExit`` was swallowed still ends;
- SIGINT and SIGTERM are blocked while the pool starts its processes, so that none arrives in a worker before
  its handlers are in place (a worker's start unblocks them), nor in the parent before the pool can be ended
  (a spawned worker died reading its start-up data: "EOFError: Ran out of input"); one held meanwhile arrives
  right after;
- the command line ends on :class:`Terminated` with status 143 (128 + SIGTERM) or 129 (128 + SIGHUP), and on
  Ctrl-C with 130 (128 + SIGINT), without a traceback.

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

__all__ = ["Terminated", "terminate_raises", "worker_init", "process_pool", "start_method", "TERMINATED_STATUS",
           "INTERRUPTED_STATUS", "HANGUP_STATUS", "set_parent_death_signal"]

TERMINATED_STATUS = 128 + signal.SIGTERM
"""The exit status after a SIGTERM, as the shell reports a process the signal ended."""
INTERRUPTED_STATUS = 128 + signal.SIGINT
"""The exit status after Ctrl-C (SIGINT)."""
_SIGHUP = getattr(signal, "SIGHUP", None)
HANGUP_STATUS = 128 + (_SIGHUP or 1)
"""The exit status after a SIGHUP (the terminal or the ssh session went away)."""


class Terminated(BaseException):
    """SIGTERM (or SIGHUP) arrived while :func:`terminate_raises` was in force. A BaseException, like
    KeyboardInterrupt, so that no ``except Exception`` on the way swallows it. ``status``: the exit status that
    reports the signal (128 + its number)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum
        self.status = 128 + signum


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


def _ending_signals() -> list[int]:
    """SIGTERM, and SIGHUP unless it is ignored (``nohup``: the command is meant to outlive its terminal)."""
    found = [signal.SIGTERM]
    if _SIGHUP is not None and signal.getsignal(_SIGHUP) is not signal.SIG_IGN:
        found.append(_SIGHUP)
    return found


@contextlib.contextmanager
def terminate_raises() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP (unless ignored) raise :class:`Terminated` in the main thread
    (elsewhere, or where signals cannot be handled, the block runs unchanged). The previous handlers come back
    after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    try:
        for signum in _ending_signals():
            previous[signum] = signal.signal(signum, _raise_terminated)
    except (ValueError, OSError):  # pragma: no cover - not the main interpreter
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


_STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM} | ({_SIGHUP} if _SIGHUP is not None else set()))
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
    if _SIGHUP is not None and signal.getsignal(_SIGHUP) is not signal.SIG_IGN:
        signal.signal(_SIGHUP, _leave)  # the parent ends the pool too; nothing here outlives it
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal this process gets when its parent dies (Linux)."""


def set_parent_death_signal(signum: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``signum`` to this process when its parent dies (Linux ``prctl``); whether it
    could. Elsewhere nothing happens (False)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, owned by another user
        return True
    return True


def _start_worker(owner: int, method: str, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """Every pool worker's first step: end with the parent (:func:`set_parent_death_signal`), and leave at once
    if the pool's owner ``owner`` died before that was in place; then the pool's own ``initializer``."""
    set_parent_death_signal()
    # started by fork or spawn, the owner is the parent; by a fork server, the server is (it ends with the owner)
    gone = os.getppid() != owner if method in ("fork", "spawn") else not _alive(owner)
    if gone:
        os._exit(HANGUP_STATUS)
    if initializer is not None:
        initializer(*initargs)


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
        loaded = {m for m in sys.modules if m.startswith("sheepsolve.") and not m.endswith("__main__")}
        ctx.set_forkserver_preload(sorted(loaded | set(preload)))
    return ctx


END_GRACE_SECONDS = 10.0
"""How long an ended pool's worker handler may take to stop starting workers."""


def _end(pool: multiprocessing.pool.Pool) -> bool:
    """Stop ``pool`` at once: no new worker started, every worker killed (SIGKILL) and waited for. Whether it
    was ended so (else, a pool of unknown make, its own ``terminate`` ran); then the pool must not be joined.

    The pool's queues are not touched. A worker stopped by a signal of its own (the process group's SIGTERM)
    in the middle of reading a task or writing a result leaves its queue mid-message, and ``Pool.terminate``,
    which reads that queue and takes its locks, then raised or waited forever (the interrupt test's hang). The
    pool's threads are daemons, left to end (or wait) on their own; its finalizer, which would do what
    ``terminate`` does when this process exits, is cancelled."""
    handler = getattr(pool, "_worker_handler", None)
    workers = getattr(pool, "_pool", None)
    if handler is None or workers is None:  # pragma: no cover - not the Pool of CPython 3.11 to 3.13
        pool.terminate()
        return False
    pool._state = multiprocessing.pool.TERMINATE  # type: ignore[attr-defined]
    handler._state = multiprocessing.pool.TERMINATE
    notifier = getattr(pool, "_change_notifier", None)
    if notifier is not None:
        notifier.put(None)  # wakes the handler, which then leaves its loop
    if handler is not threading.current_thread():
        handler.join(END_GRACE_SECONDS)
    for p in list(workers):
        with contextlib.suppress(Exception):
            p.kill()
    for p in list(workers):
        with contextlib.suppress(Exception):
            p.join()
    finalizer = getattr(pool, "_terminate", None)
    if finalizer is not None:
        finalizer.cancel()
    return True


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
    :class:`Terminated`, Ctrl-C, an error) the pool is ended at once (its workers killed and waited for, its
    queues left alone: :func:`_end`), and the exception goes on.
    """
    with terminate_raises():
        method = start_method()
        ctx = _context(method, preload)
        blocked = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        pool = None
        try:
            if blocked:
                before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
            try:
                pool = ctx.Pool(workers, initializer=_start_worker,
                                initargs=(os.getpid(), method, initializer, initargs))
            finally:
                if blocked:
                    signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a signal held meanwhile arrives now
            yield pool
        except BaseException:
            if pool is not None and _end(pool):
                pool = None  # its workers are gone; its threads are not joined (_end)
            raise
        else:
            pool.close()
        finally:
            if pool is not None:
                pool.join()
