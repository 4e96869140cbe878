"""The output file of ``sheepsolve batch``: held by one batch at a time, written in whole lines, resumed.

- :class:`Output` opens the file without cutting it, takes an exclusive lock on it (``flock``) for the whole run
  and only then empties it (``--force``) or drops a cut last line (``--resume``): a second batch on the same file
  is refused with one line naming it, and neither run's lines are lost or cut into the other's.
- Every chunk of lines is written whole or not at all: a write that fails (a full disk, ``ulimit -f``) cuts the
  file back to its last whole line and ends the batch with one line saying so; ``--resume`` then goes on.
- :func:`read_done` reads the ids already in an output (``--resume``).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "out.jsonl")
>>> with Output(path, resume=False, force=False) as out:
...     out.write_lines(['{"id": "a", "result": {}}'])
...     try:
...         Output(path, resume=False, force=True).__enter__()
...     except BatchError as e:
...         print(str(e).replace(path, "OUT"))
--out: OUT: another batch is writing it (the file is locked); wait for it to end, or give another --out
>>> read_done(path)
({'a'}, 26)
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from typing import Any

from .files import clip

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock
    fcntl = None  # type: ignore[assignment]

__all__ = ["BatchError", "Output", "read_done", "holds_lines", "MAX_OUTPUT_LINE_BYTES"]


class BatchError(ValueError):
    """A batch that cannot start or go on: a bad option, an output that cannot be written or resumed."""


MAX_OUTPUT_LINE_BYTES = 64 * 1024 * 1024
"""The longest line ``--resume`` reads from an output file (a batch line of an annotated hand is some hundred
kilobytes)."""


def holds_lines(path: str) -> bool:
    """Whether ``path`` is a file with something in it."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size > 0


def read_done(path: str) -> tuple[set[str], int]:
    """The ids already in an output file, and the length of its part that holds whole lines (a last line cut
    short by an interruption is dropped on resume). Raises :class:`BatchError` on a line that is not a batch
    line."""
    done: set[str] = set()
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return done, 0
    except OSError as e:
        raise BatchError(f"--out: {clip(path, 200)}: cannot read it to resume: {e.strerror or e}") from None
    good = 0
    with f:
        for n, raw in enumerate(iter(lambda: f.readline(MAX_OUTPUT_LINE_BYTES + 1), b""), 1):
            if len(raw) > MAX_OUTPUT_LINE_BYTES:
                raise BatchError(f"--out: {clip(path, 200)}: line {n} is longer than {MAX_OUTPUT_LINE_BYTES} bytes, "
                                 f"not a batch line; not resuming over it")
            if not raw.endswith(b"\n"):  # the last piece has no newline: cut short
                break
            try:
                obj = json.loads(raw)
            except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[... nested too deep
                if not f.peek(1):
                    break
                raise BatchError(f"--out: {clip(path, 200)}: line {n} is not a batch line; not resuming over it")
            if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
                raise BatchError(f"--out: {clip(path, 200)}: line {n} is not a batch line; not resuming over it")
            done.add(obj["id"])
            good += len(raw)
    return done, good


class Output:
    """The batch's output, open and locked for the ``with`` block (see the module docstring). ``done_ids``: the
    ids already in it when resuming; :meth:`write_lines` adds lines."""

    def __init__(self, path: str, *, resume: bool, force: bool) -> None:
        self.path = path
        self.shown = clip(path, 200)
        self.resume = resume
        self.force = force
        self.done_ids: set[str] = set()
        self.size = 0  # bytes of whole lines in the file
        self.written = 0  # lines this run wrote
        self.fd = -1

    def __enter__(self) -> Output:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            self.fd = os.open(self.path, flags, 0o666)  # not O_TRUNC: nothing is cut before the lock is held
        except OSError as e:
            raise BatchError(f"--out: {self.shown}: cannot write the file: {e.strerror or e}") from None
        try:
            self._take()
        except BaseException:
            os.close(self.fd)
            self.fd = -1
            raise
        return self

    def _take(self) -> None:
        if not stat.S_ISREG(os.fstat(self.fd).st_mode):
            raise BatchError(f"--out: {self.shown}: not a regular file to write")
        if fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BatchError(f"--out: {self.shown}: another batch is writing it (the file is locked); wait "
                                 f"for it to end, or give another --out") from None
            except OSError:  # a file system without locks: go on unlocked
                pass
        if self.resume:
            self.done_ids, self.size = read_done(self.path)
        elif os.fstat(self.fd).st_size > 0 and not self.force:
            raise BatchError(f"--out: {self.shown} already holds lines; --resume to continue it, --force to "
                             f"start it over")
        try:
            os.ftruncate(self.fd, self.size)
        except OSError as e:
            raise BatchError(f"--out: {self.shown}: cannot write the file: {e.strerror or e}") from None

    def write_lines(self, lines: Iterable[str]) -> None:
        """Append ``lines`` (each without its newline), all of them or, when the write fails, none: the file is
        cut back to its last whole line and :class:`BatchError` says why."""
        data = b"".join(line.encode("utf-8") + b"\n" for line in lines)
        count = data.count(b"\n")
        view = memoryview(data)
        at = 0
        try:
            while at < len(data):
                at += os.pwrite(self.fd, view[at:], self.size + at)
        except OSError as e:
            self._cut_back()
            kept = f"the {self.written} line{'s' if self.written != 1 else ''} this run wrote before are kept" \
                if self.written else "nothing was written"
            raise BatchError(f"--out: {self.shown}: cannot write the file: {e.strerror or e} ({kept}; --resume "
                             f"goes on from there)") from None
        self.size += len(data)
        self.written += count

    def _cut_back(self) -> None:
        try:
            os.ftruncate(self.fd, self.size)
        except OSError:  # pragma: no cover - a file that can be written but not cut
            pass

    def __exit__(self, *exc: Any) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # the lock goes with it
            self.fd = -1
