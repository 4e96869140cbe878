"""Work that may take a while, done in the background: a :class:`Job` per question, its progress, its cancel.

Jobs run on a small pool of threads (the solver searches without the interpreter lock). A job reports progress
through the function it is handed, and that same function raises :class:`Cancelled` once the job is cancelled,
so a long run (world after world of the player's view) stops at its next step. Each job belongs to a *lane*
(``values``, ``view``, ...): starting a job cancels the job running in the same lane, which is how moving to
another card stops the work on the last one. At most :data:`MAX_JOBS` jobs are kept; the oldest finished ones
are forgotten first, and a new job is refused while that many are still running.

>>> jobs = Jobs(workers=1)
>>> j = jobs.start("demo", lambda progress: sum(range(10)))
>>> jobs.wait(j.id, 5)["result"]
45
>>> jobs.close()
"""

from __future__ import annotations

import secrets
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["Jobs", "Job", "Cancelled", "Busy", "MAX_JOBS"]

MAX_JOBS = 64
"""The most jobs kept at once (their results included)."""


class Cancelled(Exception):
    """Raised inside a job's work by its progress function once the job is cancelled."""


class Busy(RuntimeError):
    """Refused: :data:`MAX_JOBS` jobs are running already."""


class Job:
    """One piece of background work: ``status`` is ``queued``, ``running``, ``done``, ``error`` or
    ``cancelled``; ``done``/``total`` its progress; ``result`` or ``error`` once it ends."""

    def __init__(self, lane: str) -> None:
        self.id = secrets.token_hex(8)
        self.lane = lane
        self.status = "queued"
        self.done = 0
        self.total = 0
        self.result: Any = None
        self.error: str | None = None
        self.started = time.monotonic()
        self.seconds: float | None = None
        self.cancel_event = threading.Event()
        self.finished = threading.Event()

    def progress(self, done: int, total: int) -> None:
        """What the work calls as it goes; raises :class:`Cancelled` once the job is cancelled."""
        if self.cancel_event.is_set():
            raise Cancelled()
        self.done, self.total = done, total

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "lane": self.lane, "status": self.status, "done": self.done, "total": self.total,
                "result": self.result, "error": self.error, "seconds": self.seconds}


class Jobs:
    """The jobs of one app: start, look at, wait for, cancel."""

    def __init__(self, workers: int = 2, errors: tuple[type[Exception], ...] = (ValueError,)) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="explore-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._errors = errors

    def start(self, lane: str, work: Callable[[Callable[[int, int], None]], Any]) -> Job:
        """Run ``work(progress)`` in the background as a new job of ``lane``, cancelling the one running there."""
        job = Job(lane)
        with self._lock:
            for other in self._jobs.values():
                if other.lane == lane and not other.finished.is_set():
                    other.cancel_event.set()
            while len(self._jobs) >= MAX_JOBS:
                old = next((k for k, j in self._jobs.items() if j.finished.is_set()), None)
                if old is None:
                    raise Busy(f"too many jobs running (at most {MAX_JOBS}); cancel one or wait")
                del self._jobs[old]
            self._jobs[job.id] = job
        self._pool.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[Callable[[int, int], None]], Any]) -> None:
        try:
            if job.cancel_event.is_set():
                raise Cancelled()
            job.status = "running"
            job.result = work(job.progress)
            job.status = "done"
        except Cancelled:
            job.status = "cancelled"
        except self._errors as e:
            job.error, job.status = str(e), "error"
        except Exception as e:  # a bug: the job fails, the server goes on
            traceback.print_exc()
            job.error, job.status = f"internal error: {type(e).__name__}: {e}", "error"
        finally:
            job.seconds = round(time.monotonic() - job.started, 6)
            job.finished.set()

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def wait(self, job_id: str, seconds: float) -> dict[str, Any] | None:
        """The job's state once it ends, or after ``seconds`` (blocking: call it off the event loop)."""
        job = self.get(job_id)
        if job is None:
            return None
        job.finished.wait(max(0.0, seconds))
        return job.to_dict()

    def cancel(self, job_id: str) -> bool:
        job = self.get(job_id)
        if job is None:
            return False
        job.cancel_event.set()
        return True

    def cancel_all(self) -> None:
        with self._lock:
            for job in self._jobs.values():
                job.cancel_event.set()

    def close(self) -> None:
        self.cancel_all()
        self._pool.shutdown(wait=False, cancel_futures=True)
