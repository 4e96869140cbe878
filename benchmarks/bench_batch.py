"""``sheepsolve batch`` benchmarks (issue 23): run as a script, it prints the figures.

    python benchmarks/bench_batch.py --size 1000 --corpus sauspiel              # jobs 2 vs 1, overhead
    python benchmarks/bench_batch.py --size 1000 --corpus sauspiel --dask       # and a Dask LocalCluster

1. ``batch solve`` over SIZE seeded full deals (corpora.py) with ``--jobs 1`` and ``--jobs 2``: the ratio of the
   wall-clock times, measured back to back in one run (the goal: at least 1.8).
   The processor time of each run (the batch's process and its workers) is printed too: the wall-clock ratio
   needs two idle cores, which a shared machine does not give; ``2 * cpu(jobs 1) / cpu(jobs 2)`` bounds what
   two idle cores would give.
2. The per-record overhead of the batch: ``batch show`` and ``batch solve --jobs 1`` against the same command
   run in a plain loop over the already-read records (``commands.show`` / ``commands.solve``); the difference
   per record is what the batch adds: listing and reading the inputs, chunking, the JSON line and writing it
   (the goal: at most 1 ms).
3. With ``--dask``: the same ``batch solve`` through a ``distributed.LocalCluster`` with two worker processes
   (one thread each) on loopback, against local processes (``--jobs 2``) (the goal: at most 10% slower).
4. With ``--methods fork,forkserver,spawn``: ``--jobs 2`` with each way of starting the workers
   (``sheepsolve.signals.START_METHOD``), its processor time against ``--jobs 1``'s. A process running threads
   (this one, once the LocalCluster of ``--dask`` runs) starts its workers from a fork server, not by fork.
   The fork server outlives a run; its own start (its imports) is counted in the first run that uses it.

5. The balance of the chunks: each record's solving time (its ``seconds``, from a ``--jobs 1`` run) replayed
   through the chunk sizes ``--jobs 2`` uses, each chunk to the worker free first: the sum of the times over the
   time the busier worker needs is what the chunking alone allows on two idle cores.

Each figure is the best of ``--repeat`` runs (the machine is shared; a burst of another process slows one run).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpora import CORPORA, corpus  # noqa: E402

from sheepsolve.batch import list_sources, run_batch  # noqa: E402
from sheepsolve.commands import COMMANDS  # noqa: E402
from sheepsolve.record import Record  # noqa: E402


def record_of(state) -> dict:
    """The record of a deal at its first lead (hands as dealt), as data."""
    return Record.from_state(state).to_dict()


def write_season(path: Path, name: str, size: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for state in corpus(name, size):
            f.write(json.dumps(record_of(state)) + "\n")


CPU: dict[str, list[float]] = {}


def _forkserver_cpu() -> float:
    """Processor seconds of the fork server and of the workers it forked and reaped (they are not this process's
    children, so RUSAGE_CHILDREN misses them)."""
    from multiprocessing import forkserver

    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime + _forkserver_cpu()


def timed_batch(command: str, options: dict, season: Path, out: Path, cpu_key: str | None = None, **kw) -> float:
    """Wall-clock seconds of one batch; with ``cpu_key``, its processor seconds (this process and the worker
    processes it waited for) are noted under that key."""
    if out.exists():
        out.unlink()
    time.sleep(0.05)  # the fork server reaps the last run's workers
    c0 = _cpu()
    t0 = time.perf_counter()
    s = run_batch(command, options, [str(season)], str(out), progress=False, **kw)
    dt = time.perf_counter() - t0
    if cpu_key:
        CPU.setdefault(cpu_key, []).append(_cpu() - c0)
    assert s.errors == 0, s
    return dt


def timed_loop(command: str, options: dict, season: Path) -> float:
    items = list_sources([str(season)])
    fn = COMMANDS[command]
    t0 = time.perf_counter()
    for it in items:
        fn(it.source, **options)
    return time.perf_counter() - t0


def lines_timeless(path: Path) -> list:
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("seconds", "bury_seconds")}
        return [strip(v) for v in x] if isinstance(x, list) else x
    return [strip(json.loads(line)) for line in path.read_text().splitlines()]


def balance(seconds: list[float], workers: int = 2) -> float:
    """Sum of the records' times over the makespan of the chunks ``--jobs workers`` would send, each chunk to
    the worker free first (the pool's queue), per-chunk costs aside."""
    from sheepsolve.batch import default_chunk_size

    free = [0.0] * workers
    i = 0
    while i < len(seconds):
        size = default_chunk_size(len(seconds) - i, workers)
        w = free.index(min(free))
        free[w] += sum(seconds[i:i + size])
        i += size
    return sum(seconds) / max(free)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--corpus", default="sauspiel", choices=sorted(CORPORA))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask", action="store_true")
    ap.add_argument("--methods", default="", help="also --jobs 2 with these start methods, e.g. fork,spawn")
    args = ap.parse_args()
    from sheepsolve import signals

    methods = [m for m in args.methods.split(",") if m]
    folder = Path(tempfile.mkdtemp())
    season = folder / "season.jsonl"
    write_season(season, args.corpus, args.size)
    out = folder / "out.jsonl"
    n = args.size
    solve_opts = {"no_line": True}
    print(f"corpus {args.corpus}, {n} full deals, best of {args.repeat}; cores: {len(os.sched_getaffinity(0))}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    # Runs interleaved (jobs 1, jobs 2, loop, batch, ...), each figure the best of its runs: a burst of another
    # process on this shared machine then slows one run of each kind rather than every run of one kind.
    runs: dict[str, list[float]] = {}

    def note(key: str, t: float) -> None:
        runs.setdefault(key, []).append(t)

    cluster = None
    if args.dask:
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=":0", silence_logs=40)
    print(f"workers start by {signals.start_method()}")
    try:
        one = None
        for _ in range(args.repeat):
            note("jobs1", timed_batch("solve", solve_opts, season, out, "jobs1", jobs=1))
            if one is None:
                one = lines_timeless(out)
                seconds = [json.loads(line)["result"]["seconds"] for line in out.read_text().splitlines()]
            note("jobs2", timed_batch("solve", solve_opts, season, out, "jobs2", jobs=2))
            assert lines_timeless(out) == one, "jobs 2 gave other answers than jobs 1"
            for method in methods:
                signals.START_METHOD = method
                try:
                    note(f"jobs2-{method}", timed_batch("solve", solve_opts, season, out, f"jobs2-{method}", jobs=2))
                finally:
                    signals.START_METHOD = None
                assert lines_timeless(out) == one, f"jobs 2 ({method}) gave other answers than jobs 1"
            if cluster is not None:
                note("dask", timed_batch("solve", solve_opts, season, out, scheduler=cluster.scheduler_address))
                assert lines_timeless(out) == one, "Dask gave other answers than the local run"
            for command, opts in (("show", {}), ("solve", solve_opts)):
                note(f"loop-{command}", timed_loop(command, opts, season))
                note(f"batch-{command}", timed_batch(command, opts, season, out, jobs=1))
    finally:
        if cluster is not None:
            cluster.close()
    b = {k: min(v) for k, v in runs.items()}
    print(f"batch solve --jobs 1: {b['jobs1']:.2f} s ({b['jobs1'] / n * 1000:.2f} ms/record)")
    print(f"batch solve --jobs 2: {b['jobs2']:.2f} s ({b['jobs2'] / n * 1000:.2f} ms/record); "
          f"speed-up {b['jobs1'] / b['jobs2']:.2f}x")
    c1, c2 = min(CPU["jobs1"]), min(CPU["jobs2"])
    print(f"processor time: --jobs 1 {c1:.2f} s, --jobs 2 {c2:.2f} s in all (workers included): the work grows "
          f"{c2 / c1:.3f}x in processes, so on two idle cores --jobs 2 would be at most {2 * c1 / c2:.2f}x as "
          f"fast (the wall-clock ratio above is what this shared machine gave)")
    print(f"balance of the chunks for --jobs 2 (records' own times replayed): at most {balance(seconds):.3f}x "
          f"on two idle cores, per-chunk costs aside")
    for method in methods:
        cm = min(CPU[f"jobs2-{method}"])
        print(f"--jobs 2 by {method}: {b[f'jobs2-{method}']:.2f} s; processor time {cm:.2f} s (x{cm / c1:.3f} of "
              f"--jobs 1: at most {2 * c1 / cm:.2f}x on two idle cores)")
    for command in ("show", "solve"):
        tb, loop = b[f"batch-{command}"], b[f"loop-{command}"]
        print(f"batch {command} --jobs 1: {tb / n * 1000:.3f} ms/record; the command alone in a loop "
              f"{loop / n * 1000:.3f} ms/record; overhead {(tb - loop) / n * 1000:.3f} ms/record")
    if cluster is not None:
        print(f"batch solve on a Dask LocalCluster (2 worker processes): {b['dask']:.2f} s; local --jobs 2: "
              f"{b['jobs2']:.2f} s; Dask/local {b['dask'] / b['jobs2']:.3f}")
    print("all runs (s):", {k: [round(x, 2) for x in v] for k, v in runs.items()})
    print("processor time of the runs (s):", {k: [round(x, 2) for x in v] for k, v in CPU.items()})
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
