"""Whole-hand ``annotate`` times over seeded played hands (not part of the default test run).

    python -m pytest benchmarks/test_bench_annotate.py --benchmark-only
    python benchmarks/test_bench_annotate.py [--hands 30]      # per-hand median / p90 / max, as a table

Each hand of a corpus (``corpora.py``: the same deals every run) is played out once, before timing, either by
perfect players (``Solver().solve(state).line``) or by random legal play (seeded), then annotated with one
:class:`~sheepsolve.solver.Solver` whose table is cleared between hands (one table shared by the decisions of a
hand, none across hands). ``play`` times every decision and every legal card (the issue's goal: a median of at
most 20 ms for Schafkopf 8-card hands and 5 ms for 5-hand Sheepshead hands); ``bury`` times the bury and call
judgement alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import corpus  # noqa: E402

from sheepsolve.annotate import annotate_play  # noqa: E402
from sheepsolve.solver import Solver  # noqa: E402

CORPORA = ["sauspiel", "solo", "wenz", "sheepshead-jd", "sheepshead-called-ace"]
HANDS = 20


def played_hands(name: str, size: int, how: str) -> list:
    """``size`` hands of corpus ``name`` with their play: ``how`` is ``"perfect"`` or ``"random"``."""
    out = []
    solver = Solver()
    for i, start in enumerate(corpus(name, size)):
        if how == "perfect":
            solver.clear()
            line = list(solver.solve(start).line)
        else:
            rng = random.Random(f"annotate/{name}/{i}")
            s, line = start, []
            while not s.finished:
                c = rng.choice(s.legal())
                line.append(c)
                s = s.play(c)
        out.append((start.setup, line))
    return out


def annotate_all(hands: list, solver: Solver, *, bury: bool) -> list[float]:
    """Annotate every hand; the per-hand seconds of the part measured (the play, or the bury and call)."""
    times = []
    for setup, line in hands:
        solver.clear()
        t0 = time.perf_counter()
        ann = annotate_play(setup, line if not bury else [], solver=solver, judge_bury=bury)
        dt = time.perf_counter() - t0
        times.append(ann.bury_seconds if bury else dt)
    return times


def _stats(times: list[float]) -> dict:
    xs = sorted(times)
    return {"hands": len(xs), "median_ms": round(1e3 * statistics.median(xs), 3),
            "p90_ms": round(1e3 * xs[min(len(xs) - 1, int(0.9 * (len(xs) - 1) + 0.5))], 3),
            "max_ms": round(1e3 * xs[-1], 3)}


@pytest.mark.parametrize("how", ["perfect", "random"])
@pytest.mark.parametrize("name", CORPORA)
def test_annotate_play(benchmark, name, how):
    hands = played_hands(name, HANDS, how)
    solver = Solver()
    times = benchmark.pedantic(annotate_all, args=(hands, solver), kwargs={"bury": False}, rounds=3, iterations=1,
                               warmup_rounds=0)
    benchmark.extra_info.update(_stats(times))


@pytest.mark.parametrize("name", ["sauspiel", "sheepshead-jd", "sheepshead-called-ace"])
def test_annotate_bury_and_call(benchmark, name):
    hands = played_hands(name, 10, "random")
    solver = Solver()
    times = benchmark.pedantic(annotate_all, args=(hands, solver), kwargs={"bury": True}, rounds=1, iterations=1,
                               warmup_rounds=0)
    benchmark.extra_info.update(_stats(times))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--corpus", nargs="*", default=CORPORA)
    ap.add_argument("--bury", action="store_true", help="time the bury and call judgement instead of the play")
    args = ap.parse_args()
    solver = Solver()
    for name in args.corpus:
        for how in (["random"] if args.bury else ["perfect", "random"]):
            hands = played_hands(name, args.hands, how)
            st = _stats(annotate_all(hands, solver, bury=args.bury))
            print(f"{name:<22} {'bury' if args.bury else how:<8} n={st['hands']:<4} median {st['median_ms']:>9.2f} ms"
                  f"  p90 {st['p90_ms']:>9.2f}  max {st['max_ms']:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
