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
- the command line ends on :class:`Terminated` with status 143 (128 + SIGTERM), without a traceback.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
import threading
from collections.abc import Iterator
from typing import Any, Callable

__all__ = ["Terminated", "terminate_raises", "worker_init", "process_pool", "TERMINATED_STATUS"]

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


def _leave(signum: int, frame: Any) -> None:
    raise SystemExit(TERMINATED_STATUS)


def worker_init() -> None:
    """Initializer of a pool's worker processes: SIGINT ignored (the parent handles it and ends the pool); SIGTERM
    raises ``SystemExit``, which releases the locks the worker holds and ends it silently (multiprocessing prints
    no traceback for it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)


@contextlib.contextmanager
def process_pool(workers: int, initializer: Callable[..., None] | None = worker_init,
                 initargs: tuple = ()) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` spawned processes, started with ``initializer(*initargs)`` (which must call
    :func:`worker_init`), under :func:`terminate_raises`, that always ends with its workers gone.

    When the block ends normally the pool is closed and joined: each worker takes its end-of-work sentinel and
    leaves, and no signal is sent, so none can stop a worker while it holds one of the pool's queue locks (a
    worker left waiting for that lock would make the join wait forever). When the block raises (SIGTERM as
    :class:`Terminated`, Ctrl-C, an error) the workers are terminated, then joined, and the exception goes on.
    """
    with terminate_raises():
        pool = multiprocessing.get_context("spawn").Pool(workers, initializer=initializer, initargs=initargs)
        try:
            yield pool
        except BaseException:
            pool.terminate()
            raise
        else:
            pool.close()
        finally:
            pool.join()
