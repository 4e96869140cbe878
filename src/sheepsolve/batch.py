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

The inputs are streamed: folders are listed folder by folder, JSON Lines files read line by line, and only a
bounded number of chunks is in flight at a time, so a season of any size runs in bounded memory. A first pass
over the names and lines (nothing parsed) counts the records, for the progress bar and the chunk sizes; standard
input is read once, so its count stays unknown. The output file itself is never read as an input.

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

import codecs
import itertools
import json
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from .commands import ANALYSIS_ERRORS, COMMANDS, Source, in_record_words
from .files import FileError, about_file, check_output_path, clip, open_input_file
from .memory import memory_message
from .batch_dask import check_scheduler, connect, run_on_cluster, threads
from .record import MAX_RECORD_BYTES
from .batch_output import MAX_OUTPUT_LINE_BYTES, BatchError, Output, holds_lines, read_done

__all__ = ["BatchError", "Summary", "iter_sources", "list_sources", "run_record", "run_chunk", "run_batch",
           "read_done", "default_chunk_size", "RECORD_SUFFIXES", "MAX_CHUNK_SIZE",
           "check_scheduler", "Output"]

RECORD_SUFFIXES = (".toml", ".json")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
MAX_LINE_CHARS = 1024 * 1024
"""The longest JSON Lines record read (a hand record is a few kilobytes)."""
MAX_CHUNK_SIZE = 1000
"""The most records per task (``--chunk-size``): a task's records and their answers travel as one message and are
held in memory at once (an annotate line is about 10 KB, so some 10 MB a task)."""
MAX_STDIN_RECORD_CHARS = MAX_RECORD_BYTES
"""The most characters of one TOML record read from standard input (as many as a record file may hold: a hand
record is a few kilobytes)."""
UNKNOWN_TOTAL_CHUNK = 16
"""Records per chunk when their number is not known in advance (standard input)."""


# --------------------------------------------------------------------------------------------------------------
# Inputs, listed and read lazily


@dataclass(frozen=True)
class Item:
    """One record to run: its source, or the error met while finding it (an unreadable file or line)."""

    id: str
    source: Source | None = None
    error: str | None = None


_Skip = Callable[[str], bool]


def _never(path: str) -> bool:
    return False


def _lines(readline: Callable[[int], str]) -> Iterator[tuple[str | None, int]]:
    """Each line of a text stream (its ``readline``; split at ``\n`` only, as JSON Lines are), without its ``\n`` or ``\r\n``, and
    its length in characters; a line longer than :data:`MAX_LINE_CHARS` comes as None (it is read piece by piece
    to measure it, never held whole)."""
    limit = MAX_LINE_CHARS + 2  # the line, "\r", "\n"
    while True:
        piece = readline(limit)
        if not piece:
            return
        if len(piece) == limit and not piece.endswith("\n"):  # too long: count the rest of it
            length = len(piece)
            tail = piece[-2:]
            while not piece.endswith("\n"):
                piece = readline(1 << 20)
                if not piece:
                    break
                length += len(piece)
                tail = (tail + piece)[-2:]
            length -= 2 if tail == "\r\n" else tail.endswith("\n")
            yield None, length
            continue
        line = piece[:-1] if piece.endswith("\n") else piece
        if line.endswith("\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_CHARS:
            yield None, len(line)
        else:
            yield line, len(line)


def _jsonl_items(label: str, readline: Callable[[int], str], ids_only: bool = False) -> Iterator[Item]:
    for n, (line, length) in enumerate(_lines(readline), 1):
        if line is not None and not line.strip():
            continue
        rid = f"{label}:{n}"
        if ids_only:
            yield Item(rid)
        elif line is None:
            yield Item(rid, error=f"{clip(rid, 200)}: the line is too long ({length} characters; the limit is "
                                  f"{MAX_LINE_CHARS})")
        else:
            yield Item(rid, Source.text_of(rid, line, "json"))


def _utf8_error(f: BinaryIO) -> int | None:
    """The offset of the first byte of ``f`` that is not UTF-8 (None: all of it is), read piece by piece."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    fed = 0
    while True:
        block = f.read(1 << 20)
        held = len(decoder.getstate()[0])
        try:
            decoder.decode(block, final=not block)
        except UnicodeDecodeError as e:
            return fed - held + e.start
        if not block:
            return None
        fed += len(block)


def _jsonl_file_items(path: str, ids_only: bool) -> Iterator[Item]:
    """The records of a JSON Lines file; a file that cannot be read, or is not UTF-8 text throughout, is one
    error (checked before its first record is given, so a bad byte near the end gives no half-read file)."""
    try:
        f = open_input_file(path)
    except FileError as e:
        yield Item(path, error=str(e))
        return
    with f:
        try:
            if not ids_only:
                bad = _utf8_error(f)
                if bad is not None:
                    yield Item(path, error=f"{clip(path, 200)}: not UTF-8 text (bad byte at offset {bad})")
                    return
                f.seek(0)
            text = open(f.fileno(), "r", encoding="utf-8", newline="\n", closefd=False)
            yield from _jsonl_items(path, text.readline, ids_only)
        except UnicodeDecodeError:  # the count's pass, or a file changed since it was checked
            yield Item(path, error=f"{clip(path, 200)}: not UTF-8 text")
        except OSError as e:
            yield Item(path, error=f"{clip(path, 200)}: cannot read the file: {e.strerror or e}")


def _file_items(path: str, ids_only: bool = False) -> Iterator[Item]:
    if path.lower().endswith(JSONL_SUFFIXES):
        yield from _jsonl_file_items(path, ids_only)
        return
    if ids_only:
        yield Item(path)
        return
    src = Source.file(path)
    try:
        yield Item(path, src.loaded())
    except ValueError as e:
        yield Item(path, error=str(e))


def _entries(folder: str) -> list[tuple[str, str, bool, bool]]:
    """(name, path, is a folder, is a link) of ``folder``'s entries that are not hidden, in name order; none when
    it cannot be listed. A link that cannot be followed (to itself, to nothing) counts as a file: reading it
    gives its error line."""
    try:
        with os.scandir(folder) as it:
            found = [e for e in it if not e.name.startswith(".")]
    except OSError:
        return []
    out = []
    for e in found:
        try:
            is_dir = e.is_dir()
        except OSError:
            is_dir = False
        out.append((e.name, e.path, is_dir, e.is_symlink()))
    return sorted(out)


def _walk(folder: str, skip: _Skip = _never) -> Iterator[str]:
    """The record files under ``folder`` in name order, folder by folder (a sub-folder's files where its name
    sorts), listed one folder at a time; hidden entries, and linked folders, are left out (as ``os.walk``
    does); ``skip(path)`` leaves out a file. Walked with a stack of folders, not by recursion: a tree 1,100
    folders deep went past Python's recursion limit (a traceback)."""
    stack = [iter(_entries(folder))]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        name, path, is_dir, is_link = entry
        if is_dir:
            if not is_link:
                stack.append(iter(_entries(path)))
        elif name.lower().endswith(RECORD_SUFFIXES + JSONL_SUFFIXES) and not skip(path):
            yield path


def _stdin_items(stream: TextIO, ids_only: bool = False) -> Iterator[Item]:
    """Standard input: JSON Lines when it starts with ``{``, else one TOML record."""
    head: deque[str] = deque()
    while True:  # the blank lines before the first text, and the line that holds it
        line = stream.readline(MAX_LINE_CHARS + 2)
        head.append(line)
        if not line or line.strip():
            break
    if "".join(head).lstrip().lstrip("\ufeff").lstrip().startswith("{"):  # a byte-order mark left out
        def readline(limit: int) -> str:
            return head.popleft() if head else stream.readline(limit)

        yield from _jsonl_items("-", readline, ids_only)
    else:
        text = "".join(head)
        if len(text) <= MAX_STDIN_RECORD_CHARS:
            text += stream.read(MAX_STDIN_RECORD_CHARS + 1 - len(text))
        if len(text) > MAX_STDIN_RECORD_CHARS:
            yield Item("-", error=f"-: the record is too long (over {MAX_STDIN_RECORD_CHARS} characters)")
            return
        yield Item("-") if ids_only else Item("-", Source.text_of("-", text, "toml"))


def iter_sources(inputs: Sequence[str], stdin: TextIO | None = None, *, skip: _Skip = _never,
                 ids_only: bool = False) -> Iterator[Item]:
    """Every record of ``inputs`` in order (see the module docstring), read as it is reached. ``skip(path)``
    leaves out a file found in a folder; ``ids_only``: the ids alone, nothing parsed (a file is not read, a
    JSON Lines file only split into lines)."""
    for inp in inputs:
        if inp == "-":
            yield from _stdin_items(stdin if stdin is not None else sys.stdin, ids_only)
        elif os.path.isdir(inp):
            for path in _walk(inp, skip):
                yield from _file_items(path, ids_only)
        else:
            yield from _file_items(inp, ids_only)


def list_sources(inputs: Sequence[str], stdin: TextIO | None = None) -> list[Item]:
    """Every record of ``inputs`` in order (see the module docstring), read into memory (:func:`iter_sources`
    gives them one by one)."""
    return list(iter_sources(inputs, stdin))


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
        return _error(item.id, about_file(in_record_words(str(e), item.source), item.id))
    except RecursionError:
        return _error(item.id, "record: nested too deeply")
    except MemoryError as e:  # this record asked for more than there is; the next may not
        return _error(item.id, memory_message(e, options))
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


DEFAULT_MAX_CHUNK = 64


def default_chunk_size(n: int, workers: int) -> int:
    """Records in the next chunk when ``n`` records are left: an eighth of each worker's share, at most
    :data:`DEFAULT_MAX_CHUNK`. Chunks shrink towards the end, so the workers finish together."""
    return max(1, min(DEFAULT_MAX_CHUNK, -(-n // (8 * max(1, workers)))))


def _chunk_count(n: int, workers: int) -> int:
    count = 0
    while n > 0:
        n -= default_chunk_size(n, workers)
        count += 1
    return count


def _chunks(items: Iterator[Item], todo: int | None, workers: int, fixed: int | None) -> Iterator[list[Item]]:
    """``items`` in chunks, read as each chunk is wanted: ``fixed`` records each, or sized by what is left of
    ``todo`` (:func:`default_chunk_size`), or :data:`UNKNOWN_TOTAL_CHUNK` when ``todo`` is not known."""
    left = todo
    while True:
        size = fixed or (UNKNOWN_TOTAL_CHUNK if left is None else default_chunk_size(left, workers))
        chunk = list(itertools.islice(items, size))
        if not chunk:
            return
        if left is not None:
            left = max(0, left - len(chunk))
        yield chunk


# --------------------------------------------------------------------------------------------------------------
# Output and resume


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
    """A one-line progress bar on standard error: records done, rate, time left (``total`` None: not known,
    the count and the rate only)."""

    def __init__(self, total: int | None, on: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.on = on
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, force: bool = False) -> None:
        if not self.on:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2 and (self.total is None or done < self.total):
            return
        self.last = now
        dt = now - self.t0
        rate = done / dt if dt > 0 else 0.0
        if self.total is None:
            self.stream.write(f"\r{done} done  {rate:.1f} rec/s ")
        else:
            left = (self.total - done) / rate if rate > 0 else None
            width = 30
            fill = min(width, int(width * done / self.total)) if self.total else width
            eta = "--:--" if left is None else time.strftime("%H:%M:%S", time.gmtime(max(0.0, left)))
            self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total}  {rate:.1f} rec/s  "
                              f"left {eta} ")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


# --------------------------------------------------------------------------------------------------------------
# The batch

WORKER_MODULES = {"show": "sheepsolve.render", "solve": "sheepsolve.analysis", "annotate": "sheepsolve.annotate",
                  "bury": "sheepsolve.bury", "pick": "sheepsolve.bury", "choose": "sheepsolve.bury",
                  "suggest": "sheepsolve.player.suggest"}
"""The module each command's records need in a worker (imported once, in the fork server, when there is one)."""


def _local(runner: _ChunkRunner, chunks: Iterator[list[Item]], workers: int,
           window: int) -> Iterator[list[tuple[str, bool]]]:
    """Chunks run in this process (``workers`` 1) or in a pool of worker processes, their lines given back in
    chunk order; at most ``window`` chunks are read ahead of the one written."""
    if workers <= 1:
        for c in chunks:
            yield runner(c)
        return
    from .signals import process_pool

    # SIGTERM or Ctrl-C ends the pool quietly, its workers stopped and waited for (signals.py)
    with process_pool(workers, preload=("sheepsolve.batch", WORKER_MODULES[runner.command])) as pool:
        pending: deque[Any] = deque()
        for c in chunks:
            pending.append(pool.apply_async(runner, (c,)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _same_file_as(path: str) -> _Skip:
    """``skip`` for :func:`iter_sources`: whether a path names the file at ``path`` (the output)."""
    try:
        st = os.stat(path)
    except OSError:
        return _never
    key = (st.st_dev, st.st_ino)

    def same(p: str) -> bool:
        try:
            s = os.stat(p)
        except OSError:
            return False
        return (s.st_dev, s.st_ino) == key

    return same


def run_batch(command: str, options: dict[str, Any], inputs: Sequence[str], out: str, *, jobs: int | None = None,
              scheduler: str | Any = None, chunk_size: int | None = None, resume: bool = False,
              force: bool = False, progress: bool | None = None, stdin: TextIO | None = None,
              items: Iterable[Item] | None = None, connect_timeout: float = 30.0) -> Summary:
    """Run ``command`` with ``options`` (the command's keyword options, as :mod:`sheepsolve.commands` takes
    them) over every record of ``inputs`` and write the JSON Lines to ``out``. See the module docstring.

    ``jobs``: worker processes (None: every core); ``scheduler``: a Dask scheduler address (or a
    ``distributed.Client``) to run on instead (``connect_timeout``: seconds to reach it); ``chunk_size``: records
    per task (default :func:`default_chunk_size`); ``resume``: keep ``out``'s lines and run only the other
    records; ``force``: start ``out`` over. Without either, an ``out`` that holds anything is refused.
    ``progress``: draw the progress bar (None: when standard error is a terminal). ``items``: the records
    themselves instead of reading ``inputs``.
    """
    from .pool import default_jobs, worker_count

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
    if not resume and not force and holds_lines(out):  # at once, before the options are checked
        raise BatchError(f"--out: {clip(out, 200)} already holds lines; --resume to continue it, --force to "
                         f"start it over")
    workers = default_jobs() if jobs is None else jobs
    if workers < 1:
        raise BatchError(f"--jobs: must be 1 or more, not {workers}")
    if isinstance(scheduler, str):
        check_scheduler(scheduler, connect_timeout)
    from .commands import check_options

    try:
        check_options(command, options)  # before any record: one error, not the same error on every line
    except ANALYSIS_ERRORS as e:
        raise BatchError(str(e)) from None
    opts = dict(options)
    if command in ("bury", "pick", "choose", "suggest") or (command == "annotate" and opts.get("view_kind")):
        opts["jobs"] = 1  # the batch runs records side by side; inside a record one process (same answers)
    t0 = time.perf_counter()
    summary = Summary()
    runner = _ChunkRunner(command, opts)
    with Output(out, resume=resume, force=force) as f:
        done_ids = f.done_ids
        skip = _same_file_as(out)
        given = list(items) if items is not None else None
        # the first pass: ids only, to size the chunks and the bar (standard input cannot be read twice)
        todo: int | None = None
        if given is not None:
            todo = sum(it.id not in done_ids for it in given)
        elif "-" not in inputs:
            todo = sum(it.id not in done_ids for it in iter_sources(inputs, skip=skip, ids_only=True))
        found: Iterable[Item] = given if given is not None else iter_sources(inputs, stdin, skip=skip)

        def todo_items() -> Iterator[Item]:
            for it in found:
                summary.total += 1
                if it.id in done_ids:
                    summary.skipped += 1
                else:
                    yield it

        client = own = None
        try:
            if scheduler is not None:
                client, own = connect(scheduler, connect_timeout)
                workers = threads(client)
                chunks = _chunks(todo_items(), todo, workers, chunk_size)
                stream = run_on_cluster(client, run_chunk, runner.command, runner.options, chunks,
                                        window=2 * workers + 2, shown=clip(str(scheduler), 200))
            else:
                if todo is None:
                    n_chunks = workers
                else:
                    n_chunks = -(-todo // chunk_size) if chunk_size else _chunk_count(todo, workers)
                workers = worker_count(workers, n_chunks)
                chunks = _chunks(todo_items(), todo, workers, chunk_size)
                stream = _local(runner, chunks, workers, window=2 * workers + 2)
            bar = Progress(todo, sys.stderr.isatty() if progress is None else progress)
            try:
                for lines in stream:
                    f.write_lines(line for line, _ in lines)  # whole lines, or none of them (Output)
                    summary.done += len(lines)
                    summary.errors += sum(bad for _, bad in lines)
                    bar(summary.done)
            finally:
                stream.close()  # ends the pool (or the Dask futures) now, whatever happened
                bar(summary.done, force=True)
                bar.close()
        finally:
            if own:
                client.close()
    summary.seconds = time.perf_counter() - t0
    return summary
