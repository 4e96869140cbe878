"""The player's view: ``annotate --view player`` and ``suggest`` over seeded hands (not part of the default run).

    python -m pytest benchmarks/test_bench_view.py --benchmark-only
    python benchmarks/test_bench_view.py [--hands 20] [--jobs 2]    # per-hand medians, solves/s, cost ratios

- ``annotate``: each hand of a corpus (``corpora.py``), played out by perfect players as in
  ``test_bench_annotate.py``, annotated double dummy and then from every mover's view with 100 worlds per decision
  and ``jobs`` processes (the issue's goals, ``--jobs 2``: medians of at most 1.5 s for 5-hand Sheepshead and
  3 s for Schafkopf);
- ``suggest``: the first lead of each deal from the leader's seat, 200 worlds (goals: 0.3 s Sheepshead, 1 s
  Schafkopf);
- ``ratio``: a world's unit of work is every legal card's value (``Solver.card_values``); its cost against the
  position's value alone (``Solver.value``) on the corpus's full deals, each from a cleared solver (the issue's
  aim: at most 1.6), in time and in nodes. ``--what ratio`` alone covers every corpus of ``corpora.py`` (ramsch
  and leaster solved for the seat ``corpora.corpus_seat`` names), as does the pytest benchmark.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import CORPORA as ALL_CORPORA  # noqa: E402
from corpora import corpus, corpus_seat  # noqa: E402
from test_bench_annotate import played_hands  # noqa: E402

from sheepsolve import pool  # noqa: E402
from sheepsolve.annotate import annotate_play  # noqa: E402
from sheepsolve.solver import Solver  # noqa: E402
from sheepsolve.player import annotate_view, player_view  # noqa: E402
from sheepsolve.worlds import Knowledge  # noqa: E402

CORPORA = ["sheepshead-jd", "sauspiel"]
HANDS = 20
JOBS = 2


def annotate_hand(i: int, setup, line, worlds: int = 100, jobs: int = JOBS, race: bool = True) -> tuple[float, int]:
    """Seconds of ``annotate --view player`` on hand ``i`` (double dummy, then the player's view; seed ``i``) and
    the worlds solved."""
    t0 = time.perf_counter()
    ann = annotate_play(setup, line, judge_bury=False)
    ann = annotate_view(ann, worlds=worlds, seed=i, jobs=jobs, race=race)
    return time.perf_counter() - t0, ann.view.solves


def annotate_hands(hands: list, worlds: int = 100, jobs: int = JOBS, race: bool = True) -> tuple[list[float], int]:
    """Per-hand seconds of ``annotate --view player`` (double dummy, then the player's view), and the worlds
    solved in all."""
    got = [annotate_hand(i, setup, line, worlds, jobs, race) for i, (setup, line) in enumerate(hands)]
    return [t for t, _ in got], sum(n for _, n in got)


def suggest_first_lead(i: int, st, worlds: int = 200, jobs: int = JOBS, race: bool = True) -> tuple[float, int]:
    """Seconds of ``suggest`` at the first lead of deal ``i`` from the leader's seat (seed ``i``), and the worlds."""
    t0 = time.perf_counter()
    k = Knowledge.from_setup(st.setup, [], st.to_move)
    player_view(k, worlds, seed=i, jobs=jobs, race=race)
    return time.perf_counter() - t0, worlds


def suggest_first_leads(states: list, worlds: int = 200, jobs: int = JOBS, race: bool = True
                        ) -> tuple[list[float], int]:
    got = [suggest_first_lead(i, st, worlds, jobs, race) for i, st in enumerate(states)]
    return [t for t, _ in got], sum(n for _, n in got)


def compare(run, items: list, modes: list[tuple[str, int, float | None]]) -> dict[tuple, tuple[list[float], int]]:
    """``run(i, *item, race=..., jobs=...)`` for every item in every mode (racing ``"on"``/``"off"``, jobs,
    ``pool.PARALLEL_AFTER_SECONDS`` and ``FORKED_PARALLEL_AFTER_SECONDS``, or None for the defaults), the modes taking turns item by item (in order,
    then backwards, ...), so that a load that changes during the run weighs on each alike. Per mode: the seconds
    of each item and the worlds solved."""
    out: dict[tuple, tuple[list[float], int]] = {m: ([], 0) for m in modes}
    default_after = pool.PARALLEL_AFTER_SECONDS
    default_forked = pool.FORKED_PARALLEL_AFTER_SECONDS
    try:
        for i, item in enumerate(items):
            for m in (modes if i % 2 == 0 else modes[::-1]):
                race, jobs, after = m
                # a threshold given is the one every question uses (suggest's forked one included)
                pool.PARALLEL_AFTER_SECONDS = default_after if after is None else after
                pool.FORKED_PARALLEL_AFTER_SECONDS = default_forked if after is None else after
                t, n = run(i, *item, race=race == "on", jobs=jobs)
                out[m][0].append(t)
                out[m] = (out[m][0], out[m][1] + n)
    finally:
        pool.PARALLEL_AFTER_SECONDS = default_after
        pool.FORKED_PARALLEL_AFTER_SECONDS = default_forked
    return out


def _mode_name(m: tuple) -> str:
    race, jobs, after = m
    return f"race {race:<3} jobs {jobs}" + ("" if after is None else f" processes after {after:g} s")


def cost_ratio(states: list, name: str | None = None) -> dict:
    """``card_values`` against ``value`` on the same deals, each from a cleared solver whose tables are already
    compiled for the deal (else the first question timed pays for them): milliseconds a deal and the ratios of
    time and of nodes. ``name``: the corpus, for the seat solved for in ramsch and leaster
    (``corpora.corpus_seat``)."""
    solver = Solver()
    tv = tc = 0.0
    nv = nc = 0
    for i, st in enumerate(states):
        seat = corpus_seat(name, i) if name is not None else None
        solver.value(st, seat=seat)  # untimed: the deal's tables compiled and loaded, for both questions alike
        solver.clear()
        t0 = time.perf_counter()
        solver.value(st, seat=seat)
        tv += time.perf_counter() - t0
        nv += solver.nodes
        solver.clear()
        solver._core.reset_nodes()
        t0 = time.perf_counter()
        solver.card_values(st, seat=seat)
        tc += time.perf_counter() - t0
        nc += solver._core.nodes
    return {"value_ms": round(1e3 * tv / len(states), 3), "card_values_ms": round(1e3 * tc / len(states), 3),
            "time_ratio": round(tc / tv, 2), "value_nodes": nv, "card_values_nodes": nc,
            "nodes_ratio": round(nc / max(1, nv), 2)}


def _stats(times: list[float], solves: int) -> dict:
    xs = sorted(times)
    return {"hands": len(xs), "median_s": round(statistics.median(xs), 3),
            "p90_s": round(xs[min(len(xs) - 1, int(0.9 * (len(xs) - 1) + 0.5))], 3), "max_s": round(xs[-1], 3),
            "solves_per_s": round(solves / sum(xs), 1)}


@pytest.mark.parametrize("name", CORPORA)
def test_annotate_view(benchmark, name):
    hands = played_hands(name, HANDS, "perfect")
    times, solves = benchmark.pedantic(annotate_hands, args=(hands,), rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update(_stats(times, solves))


@pytest.mark.parametrize("name", CORPORA)
def test_suggest_first_lead(benchmark, name):
    states = corpus(name, HANDS)
    times, solves = benchmark.pedantic(suggest_first_leads, args=(states,), rounds=1, iterations=1,
                                       warmup_rounds=0)
    benchmark.extra_info.update(_stats(times, solves))


@pytest.mark.parametrize("name", list(ALL_CORPORA))
def test_card_values_cost_ratio(benchmark, name):
    states = corpus(name, HANDS)
    info = benchmark.pedantic(cost_ratio, args=(states, name), rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update(info)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=HANDS)
    ap.add_argument("--jobs", type=int, nargs="*", default=[JOBS],
                    help="worker processes; several are compared in one run, taking turns hand by hand")
    ap.add_argument("--parallel-after", type=float, nargs="*", default=[None], metavar="SECONDS",
                    help="pool.PARALLEL_AFTER_SECONDS to try (default: the module's), compared in one run")
    ap.add_argument("--corpus", nargs="*", default=None,
                    help="corpora of corpora.py (default: the two of annotate and suggest; with --what ratio "
                         "alone, every corpus)")
    ap.add_argument("--what", nargs="*", default=["annotate", "suggest", "ratio"])
    ap.add_argument("--race", nargs="*", default=["on"], choices=["on", "off"],
                    help="racing on, off (every card in every world), or both")
    args = ap.parse_args()
    modes = [(race, jobs, after) for race in args.race for jobs in args.jobs for after in args.parallel_after]
    print(f"load average {os.getloadavg()[0]:.2f}; modes taking turns hand by hand, ratios hand by hand against "
          f"the first ({_mode_name(modes[0])})", flush=True)
    names = args.corpus
    if names is None:
        names = list(ALL_CORPORA) if args.what == ["ratio"] else CORPORA
    for name in names:
        if "ratio" in args.what:
            print(f"{name:<22} ratio     {cost_ratio(corpus(name, args.hands), name)}", flush=True)
        for what in ("suggest", "annotate"):
            if what not in args.what:
                continue
            if what == "suggest":
                got = compare(lambda i, st, race, jobs: suggest_first_lead(i, st, jobs=jobs, race=race),
                              [(st,) for st in corpus(name, args.hands)], modes)
            else:
                got = compare(lambda i, setup, line, race, jobs: annotate_hand(i, setup, line, jobs=jobs, race=race),
                              played_hands(name, args.hands, "perfect"), modes)
            for m in modes:
                line = f"{name:<22} {what:<9} {_mode_name(m)} {_stats(*got[m])}"
                if m != modes[0]:
                    ratios = [a / b for a, b in zip(got[m][0], got[modes[0]][0])]
                    line += (f" ratio median {statistics.median(ratios):.3f} ({min(ratios):.3f}-"
                             f"{max(ratios):.3f})")
                print(line, flush=True)
            print(f"{name:<22} {what:<9} load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
