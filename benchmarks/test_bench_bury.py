"""pytest-benchmark suite for the bury tools (not part of the default test run).

    python -m pytest benchmarks/test_bench_bury.py --benchmark-only

Goals (issue 5): the double-dummy ranking of the 28 buries of one 5-hand deal, median at most 10 ms; the picker's
view with 28 buries x 200 worlds at most 2 s on one core. Deals are seeded (the same every run); the picker is the
seat holding the most trumps once the blind is added. Each of three rounds starts from a fresh :class:`Solver`
(an empty transposition table) built outside the timed call; ``extra_info`` records node counts and how many
distinct buries were solved. The picker's view runs one round a deal, on 8 deals at 200 worlds (and deal 0 at 20):
its time varies from deal to deal by a factor of four or more.

Running this file as a script prints a per-deal table instead (``python benchmarks/test_bench_bury.py [DEALS]``;
``--picker N``: the picker's view of N deals at 200 worlds).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import pytest

from sheepsolve.bury import rank_buries, sample_buries
from sheepsolve.deals import deal
from sheepsolve.games import Game, make_game
from sheepsolve.solver import Solver

DEALS = 5
PICKER_DEALS = 8  # the picker's view takes 1-5 s a deal at 200 worlds: one deal alone says little


def bury_deal(partner: str, i: int) -> tuple[Game, list, list, int]:
    g = make_game("sheepshead", partner=partner)
    hands, blind = deal(g, random.Random(f"bench-bury/{partner}/{i}"))
    picker = max(range(g.seats), key=lambda s: (sum(g.is_trump(c) for c in hands[s] + blind), -s))
    return g, hands, blind, picker


@pytest.mark.parametrize("i", range(DEALS))
@pytest.mark.parametrize("partner", ["jack-of-diamonds", "called-ace"])
def test_double_dummy_ranking(benchmark, partner, i):
    g, hands, blind, picker = bury_deal(partner, i)
    result = benchmark.pedantic(lambda solver: rank_buries(g, hands, blind, picker, solver=solver),
                                setup=lambda: ((Solver(),), {}), rounds=3, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({"choices": len(result.rows), "solved": result.solved, "nodes": result.nodes})


@pytest.mark.parametrize("worlds,i", [(20, 0)] + [(200, i) for i in range(PICKER_DEALS)])
def test_picker_view_one_core(benchmark, worlds, i):
    g, hands, blind, picker = bury_deal("jack-of-diamonds", i)
    result = benchmark.pedantic(lambda: sample_buries(g, hands[picker], blind, picker, worlds=worlds, seed=1,
                                                      jobs=1), rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({"choices": len(result.rows), "solved_per_world": result.solved,
                                 "worlds": worlds})


def picker_view_table(deals: int, worlds: int = 200) -> None:
    """Per-deal times of the picker's view (one round each, one core) and their median."""
    times = []
    for i in range(deals):
        g, hands, blind, picker = bury_deal("jack-of-diamonds", i)
        t0 = time.perf_counter()
        r = sample_buries(g, hands[picker], blind, picker, worlds=worlds, seed=1, jobs=1)
        times.append(time.perf_counter() - t0)
        print(f"picker's view deal {i:>3}: {len(r.rows):>3} buries, {r.solved:>3} solved a world, {worlds} worlds, "
              f"{times[-1]:6.2f} s", flush=True)
    times.sort()
    print(f"picker's view: median over deals {statistics.median(times):.2f} s, max {times[-1]:.2f} s")


def main() -> None:
    """Per-deal medians (5 rounds, fresh solver each) of the double-dummy ranking; with ``--picker N``, the
    picker's view of N deals at 200 worlds instead."""
    if len(sys.argv) > 2 and sys.argv[1] == "--picker":
        picker_view_table(int(sys.argv[2]))
        return
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for partner in ("jack-of-diamonds", "called-ace"):
        meds = []
        for i in range(deals):
            g, hands, blind, picker = bury_deal(partner, i)
            times = []
            for _ in range(5):
                solver = Solver()
                t0 = time.perf_counter()
                r = rank_buries(g, hands, blind, picker, solver=solver)
                times.append(time.perf_counter() - t0)
            meds.append(statistics.median(times))
            print(f"{partner:<17} deal {i:>3}: {len(r.rows):>3} choices, {r.solved:>3} solved, "
                  f"median {1000 * meds[-1]:8.1f} ms, {r.nodes} nodes", flush=True)
        meds.sort()
        print(f"{partner}: median over deals {1000 * statistics.median(meds):.1f} ms, "
              f"p90 {1000 * meds[int(0.9 * (len(meds) - 1))]:.1f} ms, max {1000 * meds[-1]:.1f} ms")


if __name__ == "__main__":
    main()
