"""``sheepsolve explore``: how long the page waits for every legal card's double-dummy value (not part of the
default test run).

    python -m pytest benchmarks/test_bench_explore.py --benchmark-only
    python benchmarks/test_bench_explore.py [--hands 20]      # per position: median / p90 / max, as a table

Each deal of a corpus (``corpora.py``: the same deals every run) becomes a record whose play is a line of
perfect play; the app's own answer (:meth:`Explorer.values`: the record cut at the position, ``solve --json``'s
values of every legal card and the outcome) is timed at the first lead and at every later position of the line
(mid-hand), each with this thread's solver table cleared first (the user may jump anywhere). The issue's goal:
every card's value within 0.2 s mid-hand and 1 s at the first lead for 5-hand Sheepshead and Sauspiel; the
3-hand game (10 cards a hand) is timed too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import corpus  # noqa: E402

from sheepsolve.explore import Explorer  # noqa: E402
from sheepsolve.explore.session import thread_solver  # noqa: E402
from sheepsolve.record import Record, record_from_dict  # noqa: E402
from sheepsolve.solver import Solver  # noqa: E402

CORPORA = ["sheepshead-jd", "sheepshead-called-ace", "sauspiel", "sheepshead-3"]
HANDS = 10


def _record(start, line) -> Record:
    """The deal of ``start`` as a record (hands as dealt) with ``line`` as its play."""
    st = start.setup
    g = st.game
    hands = []
    for seat, h in enumerate(st.hands):
        dealt = set(h)
        if g.kind == "picker" and seat == st.declarer:
            dealt = (dealt | set(st.bury)) - set(st.blind)
        hands.append(tuple(g.sort_cards(dealt)))
    n = g.seats
    rec = Record(game=g, players=tuple(str(i + 1) for i in range(n)), declarer=st.declarer, hands=tuple(hands),
                 blind=tuple(st.blind) if g.blind_size else (), bury=tuple(st.bury) if g.kind == "picker" else (),
                 called=st.called, under=st.under, alone=g.partner == "called-ace" and st.called is None,
                 play=tuple(tuple(line[i:i + n]) for i in range(0, len(line), n)))
    return record_from_dict(rec.to_dict())


def explorers(name: str, size: int) -> list[Explorer]:
    solver = Solver()
    out = []
    for start in corpus(name, size):
        solver.clear()
        line = list(solver.solve(start).line)
        out.append(Explorer(_record(start, line), f"{name}"))
    return out


def time_values(exs: list[Explorer], where: str) -> list[float]:
    """Seconds of each answer: at the first lead (``where="first"``) or at every later position (``"mid"``)."""
    times = []
    for ex in exs:
        points = [0] if where == "first" else range(1, len(ex.main))
        for n in points:
            thread_solver().clear()
            t0 = time.perf_counter()
            v = ex.values(ex.main[:n])
            times.append(time.perf_counter() - t0)
            assert v["cards"]
    return times


def _stats(times: list[float]) -> dict:
    xs = sorted(times)
    return {"positions": len(xs), "median_ms": round(1e3 * statistics.median(xs), 3),
            "p90_ms": round(1e3 * xs[min(len(xs) - 1, int(0.9 * (len(xs) - 1) + 0.5))], 3),
            "max_ms": round(1e3 * xs[-1], 3)}


@pytest.mark.parametrize("where", ["first", "mid"])
@pytest.mark.parametrize("name", CORPORA)
def test_explore_values(benchmark, name, where):
    exs = explorers(name, HANDS)
    times = benchmark.pedantic(time_values, args=(exs, where), rounds=3, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update(_stats(times))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--corpus", nargs="*", default=CORPORA)
    args = ap.parse_args()
    for name in args.corpus:
        exs = explorers(name, args.hands)
        for where in ("first", "mid"):
            st = _stats(time_values(exs, where))
            print(f"{name:<22} {where:<6} n={st['positions']:<5} median {st['median_ms']:>8.2f} ms"
                  f"  p90 {st['p90_ms']:>8.2f}  max {st['max_ms']:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
