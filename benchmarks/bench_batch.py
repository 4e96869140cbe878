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
from sheepsolve.record import Record, record_from_dict  # noqa: E402


def record_of(state) -> dict:
    """The record of a deal at its first lead (hands as dealt)."""
    st = state.setup
    g = st.game
    hands = []
    for s in range(g.seats):
        h = set(st.hands[s])
        if g.kind == "picker" and s == st.declarer:
            h = (h | set(st.bury)) - set(st.blind)
        hands.append(tuple(sorted(h, key=int)))
    rec = Record(game=g, players=tuple(str(i + 1) for i in range(g.seats)), declarer=st.declarer,
                 hands=tuple(hands), blind=tuple(st.blind) if g.blind_size else (),
                 bury=tuple(st.bury) if g.kind == "picker" else (), called=st.called, under=st.under,
                 alone=st.partner is None and g.partner in ("called-ace",))
    d = rec.to_dict()
    record_from_dict(d)  # a valid record
    return d


def write_season(path: Path, name: str, size: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for state in corpus(name, size):
            f.write(json.dumps(record_of(state)) + "\n")


CPU: dict[str, list[float]] = {}


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_batch(command: str, options: dict, season: Path, out: Path, cpu_key: str | None = None, **kw) -> float:
    """Wall-clock seconds of one batch; with ``cpu_key``, its processor seconds (this process and the worker
    processes it waited for) are noted under that key."""
    if out.exists():
        out.unlink()
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--corpus", default="sauspiel", choices=sorted(CORPORA))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask", action="store_true")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    season = folder / "season.jsonl"
    write_season(season, args.corpus, args.size)
    out = folder / "out.jsonl"
    n = args.size
    solve_opts = {"no_line": True}
    print(f"corpus {args.corpus}, {n} full deals, best of {args.repeat}; cores: {len(os.sched_getaffinity(0))}")

    # Runs interleaved (jobs 1, jobs 2, loop, batch, ...), each figure the best of its runs: a burst of another
    # process on this shared machine then slows one run of each kind rather than every run of one kind.
    runs: dict[str, list[float]] = {}

    def note(key: str, t: float) -> None:
        runs.setdefault(key, []).append(t)

    cluster = None
    if args.dask:
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, silence_logs=40)
    try:
        one = None
        for _ in range(args.repeat):
            note("jobs1", timed_batch("solve", solve_opts, season, out, "jobs1", jobs=1))
            one = one or lines_timeless(out)
            note("jobs2", timed_batch("solve", solve_opts, season, out, "jobs2", jobs=2))
            assert lines_timeless(out) == one, "jobs 2 gave other answers than jobs 1"
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
    for command in ("show", "solve"):
        tb, loop = b[f"batch-{command}"], b[f"loop-{command}"]
        print(f"batch {command} --jobs 1: {tb / n * 1000:.3f} ms/record; the command alone in a loop "
              f"{loop / n * 1000:.3f} ms/record; overhead {(tb - loop) / n * 1000:.3f} ms/record")
    if cluster is not None:
        print(f"batch solve on a Dask LocalCluster (2 worker processes): {b['dask']:.2f} s; local --jobs 2: "
              f"{b['jobs2']:.2f} s; Dask/local {b['dask'] / b['jobs2']:.3f}")
    print("all runs (s):", {k: [round(x, 2) for x in v] for k, v in runs.items()})


if __name__ == "__main__":
    main()
