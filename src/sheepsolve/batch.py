"""Many records at once: ``sheepsolve batch COMMAND [OPTIONS] INPUT... --out FILE.jsonl``.

Every record of the inputs is run through an analysis command (:data:`sheepsolve.commands.COMMANDS`) with the
command's own options; the output is JSON Lines, one line per record in input order:

- ``{"id": ID, "result": {...}}``, where ``result`` is exactly what ``sheepsolve COMMAND FILE --json`` prints;
- ``{"id": ID, "error": "..."}``, with the message the command would print after ``error:``.

An INPUT is a record file (``.toml``, or ``.json``), a folder (searched recursively for ``*.toml``, ``*.json``
and ``*.jsonl``, in name order, hidden entries skipped), a JSON Lines file (``.jsonl``: one JSON record per
line, blank lines skipped) or ``-`` for standard input (JSON Lines when it starts with ``{``, else one TOML
record). The ID is the path as found, plus ``:LINE`` for a JSON Lines record (``-:3`` for standard input).

A bad record never stops the batch. Records run in chunks, in worker processes (``jobs``) or on a Dask cluster
(``scheduler``); each record's answer depends only on the record and the options (a sampled command's worlds
come from ``seed``), so the output is the same, timings aside, whatever the number of processes or where they
run. ``resume`` keeps the lines already in the output and runs only the records whose ID is not among them.

>>> import json, tempfile, os
>>> folder = tempfile.mkdtemp()
>>> out = os.path.join(folder, "out.jsonl")
>>> src = os.path.join(folder, "a.jsonl")
>>> with open(src, "w") as f:
...     _ = f.write('{"game": "wenz", "declarer": "1"}\\n{"game": "wenz"}\\n')
>>> summary = run_batch("show", {}, [src], out, jobs=1, progress=False)
>>> summary.done, summary.errors
(2, 1)
>>> [sorted(json.loads(line)) for line in open(out)]
[['id', 'result'], ['error', 'id']]
>>> json.loads(open(out).readlines()[1])["error"].split(".jsonl:2: ")[1]
'declarer: missing: name the player who declared the game (declarer = "1")'
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .commands import ANALYSIS_ERRORS, COMMANDS, Source
from .files import FileError, MAX_INPUT_BYTES, check_output_path, clip

__all__ = ["BatchError", "Summary", "list_sources", "run_record", "run_chunk", "run_batch", "read_done",
           "default_chunk_size", "RECORD_SUFFIXES", "MAX_CHUNK_SIZE"]

RECORD_SUFFIXES = (".toml", ".json")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
MAX_LINE_CHARS = 1024 * 1024
"""The longest JSON Lines record read (a hand record is a few kilobytes)."""
MAX_CHUNK_SIZE = 1000
"""The most records per task (``--chunk-size``): a task's records and their answers travel as one message and are
held in memory at once (an annotate line is about 10 KB, so some 10 MB a task)."""


class BatchError(ValueError):
    """A batch that cannot start: a bad option, an output that cannot be written or resumed."""


# --------------------------------------------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True)
class Item:
    """One record to run: its source, or the error met while finding it (an unreadable file or line)."""

    id: str
    source: Source | None = None
    error: str | None = None


def _jsonl_items(label: str, lines: Iterable[str]) -> Iterator[Item]:
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        rid = f"{label}:{n}"
        if len(line) > MAX_LINE_CHARS:
            yield Item(rid, error=f"{clip(rid, 200)}: the line is too long ({len(line)} characters; the limit is "
                                  f"{MAX_LINE_CHARS})")
            continue
        yield Item(rid, Source.text_of(rid, line.rstrip("\r\n"), "json"))


def _file_items(path: str) -> Iterator[Item]:
    if path.lower().endswith(JSONL_SUFFIXES):
        from .files import read_input_text

        try:
            text = read_input_text(path, max_bytes=max(MAX_INPUT_BYTES, 1 << 30))
        except FileError as e:
            yield Item(path, error=str(e))
            return
        yield from _jsonl_items(path, text.splitlines())
        return
    src = Source.file(path)
    try:
        yield Item(path, src.loaded())
    except ValueError as e:
        yield Item(path, error=str(e))


def _walk(folder: str) -> list[str]:
    """The record files under ``folder``, sorted by path (folder by folder, name by name)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [os.path.join(root, name) for name in files
                  if not name.startswith(".") and name.lower().endswith(RECORD_SUFFIXES + JSONL_SUFFIXES)]
    return sorted(found, key=lambda p: os.path.relpath(p, folder).split(os.sep))


def list_sources(inputs: Sequence[str], stdin: TextIO | None = None) -> list[Item]:
    """Every record of ``inputs`` in order (see the module docstring), read into memory."""
    items: list[Item] = []
    for inp in inputs:
        if inp == "-":
            stream = stdin if stdin is not None else sys.stdin
            text = stream.read(1 << 30)
            if text.lstrip().startswith("{"):
                items.extend(_jsonl_items("-", text.splitlines()))
            else:
                items.append(Item("-", Source.text_of("-", text, "toml")))
        elif os.path.isdir(inp):
            for path in _walk(inp):
                items.extend(_file_items(path))
        else:
            items.extend(_file_items(inp))
    return items


# --------------------------------------------------------------------------------------------------------------
# Running one record, one chunk


def _error(item_id: str, message: str) -> tuple[str, bool]:
    return json.dumps({"id": item_id, "error": message}, ensure_ascii=False), True


def run_record(command: str, options: dict[str, Any], item: Item) -> tuple[str, bool]:
    """The output line (without the newline) for one record, and whether it is an error: its result, or the
    error the command would print."""
    if item.error is not None:
        return _error(item.id, item.error)
    assert item.source is not None
    try:
        _, data = COMMANDS[command](item.source, **options)
    except ANALYSIS_ERRORS as e:
        return _error(item.id, str(e))
    except RecursionError:
        return _error(item.id, "record: nested too deeply")
    except Exception as e:  # a bug must not stop the batch either; say it is one
        return _error(item.id, f"internal error: {type(e).__name__}: {e}")
    return json.dumps({"id": item.id, "result": data}, ensure_ascii=False), False


def run_chunk(command: str, options: dict[str, Any], items: Sequence[Item]) -> list[tuple[str, bool]]:
    """The output lines of a chunk of records, in order, each with whether it is an error (what a worker
    process or a Dask task runs)."""
    return [run_record(command, options, it) for it in items]


class _ChunkRunner:
    """Picklable callable for the process pool."""

    def __init__(self, command: str, options: dict[str, Any]) -> None:
        self.command = command
        self.options = options

    def __call__(self, items: Sequence[Item]) -> list[tuple[str, bool]]:
        return run_chunk(self.command, self.options, items)


def default_chunk_size(n: int, workers: int) -> int:
    """Records per chunk: about eight chunks per worker, so the load evens out, at most 64 records."""
    return max(1, min(64, -(-n // (8 * max(1, workers)))))


# --------------------------------------------------------------------------------------------------------------
# Output and resume


def read_done(path: str) -> tuple[set[str], int]:
    """The ids already in an output file, and the length of its part that holds whole lines (a last line cut
    short by an interruption is dropped on resume). Raises :class:`BatchError` on a line that is not a batch
    line."""
    done: set[str] = set()
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return done, 0
    except OSError as e:
        raise BatchError(f"--out: {clip(path, 200)}: cannot read it to resume: {e.strerror or e}") from None
    good = 0
    for n, raw in enumerate(data.split(b"\n"), 1):
        end = good + len(raw) + 1
        if end > len(data):  # the last piece has no newline: cut short (or empty)
            break
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            if end == len(data):
                break
            raise BatchError(f"--out: {clip(path, 200)}: line {n} is not a batch line; not resuming over it")
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
            raise BatchError(f"--out: {clip(path, 200)}: line {n} is not a batch line; not resuming over it")
        done.add(obj["id"])
        good = end
    return done, good


@dataclass
class Summary:
    """What a batch did."""

    total: int = 0  # records found
    skipped: int = 0  # already in the output (resume)
    done: int = 0  # run now, answered or not
    errors: int = 0  # of those, errors
    seconds: float = 0.0

    def text(self, command: str, out: str) -> str:
        rate = f", {self.done / self.seconds:.1f} records/s" if self.seconds > 0 and self.done else ""
        skipped = f", {self.skipped} already in the output" if self.skipped else ""
        return (f"batch {command}: {self.total} record{'s' if self.total != 1 else ''}{skipped}; "
                f"{self.done} run, {self.done - self.errors} answered, {self.errors} error"
                f"{'s' if self.errors != 1 else ''}; {self.seconds:.1f} s{rate} -> {clip(out, 200)}")


class Progress:
    """A one-line progress bar on standard error: records done, rate, time left."""

    def __init__(self, total: int, on: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.on = on
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, force: bool = False) -> None:
        if not self.on:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2 and done < self.total:
            return
        self.last = now
        dt = now - self.t0
        rate = done / dt if dt > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else None
        width = 30
        fill = int(width * done / self.total) if self.total else width
        eta = "--:--" if left is None else time.strftime("%H:%M:%S", time.gmtime(left))
        self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total}  {rate:.1f} rec/s  "
                          f"left {eta} ")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


# --------------------------------------------------------------------------------------------------------------
# The batch


def _chunks(items: Sequence[Item], size: int) -> list[list[Item]]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def _local(runner: _ChunkRunner, chunks: list[list[Item]], jobs: int) -> Iterator[list[tuple[str, bool]]]:
    if jobs <= 1 or len(chunks) <= 1:
        for c in chunks:
            yield runner(c)
        return
    from .signals import process_pool
    from .worlds import worker_count

    # at most one process per core; SIGTERM or Ctrl-C ends the pool quietly (signals.py)
    with process_pool(worker_count(jobs, len(chunks))) as pool:
        yield from pool.imap(runner, chunks)


def _dask(runner: _ChunkRunner, chunks: list[list[Item]], scheduler: str | Any,
          connect_timeout: float = 30.0) -> Iterator[list[tuple[str, bool]]]:
    """Chunks on a Dask distributed cluster (``scheduler``: its address, or a ``distributed.Client``), their
    lines given back in chunk order as they complete."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BatchError("--scheduler: running on a Dask cluster needs the cluster extra: "
                         "pip install 'sheepsolve[cluster]'") from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, timeout=connect_timeout, set_as_default=False) if own else scheduler
    except (OSError, TimeoutError, ValueError) as e:
        raise BatchError(f"--scheduler: cannot connect to {clip(scheduler, 200)}: {e}") from None
    try:
        futures = [client.submit(run_chunk, runner.command, runner.options, c, pure=False) for c in chunks]
        index = {f.key: i for i, f in enumerate(futures)}
        ready: dict[int, list[tuple[str, bool]]] = {}
        nxt = 0
        for fut in as_completed(futures, loop=client.loop):
            ready[index[fut.key]] = fut.result()
            fut.release()
            while nxt in ready:
                yield ready.pop(nxt)
                nxt += 1
    finally:
        if own:
            client.close()


def run_batch(command: str, options: dict[str, Any], inputs: Sequence[str], out: str, *, jobs: int | None = None,
              scheduler: str | Any = None, chunk_size: int | None = None, resume: bool = False,
              force: bool = False, progress: bool | None = None, stdin: TextIO | None = None,
              items: Sequence[Item] | None = None, connect_timeout: float = 30.0) -> Summary:
    """Run ``command`` with ``options`` (the command's keyword options, as :mod:`sheepsolve.commands` takes
    them) over every record of ``inputs`` and write the JSON Lines to ``out``. See the module docstring.

    ``jobs``: worker processes (None: every core); ``scheduler``: a Dask scheduler address (or a
    ``distributed.Client``) to run on instead (``connect_timeout``: seconds to reach it); ``chunk_size``: records per task (default
    :func:`default_chunk_size`); ``resume``: keep ``out``'s lines and run only the other records; ``force``:
    start ``out`` over. Without either, an ``out`` that holds anything is refused. ``progress``: draw the
    progress bar (None: when standard error is a terminal).
    """
    from .bury import default_jobs

    if command not in COMMANDS:
        raise BatchError(f"COMMAND: {clip(command)} is not an analysis command (one of {', '.join(COMMANDS)})")
    if chunk_size is not None and not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise BatchError(f"--chunk-size: must be 1 to {MAX_CHUNK_SIZE}, not {chunk_size}")
    if resume and force:
        raise BatchError("--resume and --force: choose one (continue the output, or start it over)")
    file_inputs = [i for i in inputs if i != "-" and not os.path.isdir(i)]
    try:
        check_output_path(out, inputs=file_inputs, label="--out")
    except FileError as e:
        raise BatchError(str(e)) from None
    done_ids: set[str] = set()
    keep = 0
    exists = os.path.exists(out) and os.path.getsize(out) > 0
    if resume:
        done_ids, keep = read_done(out)
    elif exists and not force:
        raise BatchError(f"--out: {clip(out, 200)} already holds lines; --resume to continue it, --force to "
                         f"start it over")
    opts = dict(options)
    if command in ("bury", "pick", "choose", "suggest") or (command == "annotate" and opts.get("view_kind")):
        opts["jobs"] = 1  # the batch runs records side by side; inside a record one process (same answers)
    t0 = time.perf_counter()
    found = list(items) if items is not None else list_sources(inputs, stdin)
    todo = [it for it in found if it.id not in done_ids]
    summary = Summary(total=len(found), skipped=len(found) - len(todo))
    workers = default_jobs() if jobs is None else jobs
    if workers < 1:
        raise BatchError(f"--jobs: must be 1 or more, not {workers}")
    size = chunk_size or default_chunk_size(len(todo), workers)
    chunks = _chunks(todo, size)
    runner = _ChunkRunner(command, opts)
    bar = Progress(len(todo), sys.stderr.isatty() if progress is None else progress)
    mode = "r+b" if resume and os.path.exists(out) else "wb"
    with open(out, mode) as f:
        if mode == "r+b":
            f.truncate(keep)
            f.seek(keep)
        stream = _dask(runner, chunks, scheduler, connect_timeout) if scheduler is not None else _local(runner, chunks, workers)
        try:
            for lines in stream:
                for line, bad in lines:
                    f.write(line.encode("utf-8") + b"\n")
                    summary.done += 1
                    summary.errors += bad
                f.flush()
                bar(summary.done)
        finally:
            bar(summary.done, force=True)
            bar.close()
    summary.seconds = time.perf_counter() - t0
    return summary
