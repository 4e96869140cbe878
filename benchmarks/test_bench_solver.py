"""pytest-benchmark suite over the seeded corpora (not part of the default test run).

    python -m pytest benchmarks --benchmark-only

Each benchmark solves a whole corpus once per round with a cleared table per deal; ``extra_info`` records the
node counts (total, median, max) beside the times, so a change in search efficiency shows without a stopwatch.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import CORPORA, SEATED, corpus, corpus_seat  # noqa: E402

from sheepsolve.solver import Solver  # noqa: E402

SIZES = {"sheepshead-3": 20, "sauspiel": 50, "solo": 50, "wenz": 50, "geier": 50, "ramsch": 20}


def _run(name, states, question):
    solver = Solver()
    nodes = []
    for i, s in enumerate(states):
        solver.clear()
        if question == "value":
            solver.value(s, seat=corpus_seat(name, i))
        else:
            solver.reach(s, 61, seat=corpus_seat(name, i))
        nodes.append(solver.nodes)
    return nodes


@pytest.mark.parametrize("question", ["value", "reach61"])
@pytest.mark.parametrize("name", list(CORPORA))
def test_corpus(benchmark, name, question):
    if name in SEATED and question != "value":
        pytest.skip("61 is a two-sided game's question")
    states = corpus(name, SIZES.get(name, 100))
    nodes = benchmark.pedantic(_run, args=(name, states, question), rounds=3, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({"deals": len(states), "nodes_total": sum(nodes),
                                 "nodes_median": statistics.median(nodes), "nodes_max": max(nodes)})
    assert all(n > 0 for n in nodes)
