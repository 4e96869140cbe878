"""Weighted worlds against uniform ones: ``suggest`` at the first lead with ``--inference auction`` and ``none``.

    python benchmarks/bench_inference.py [--hands 20] [--jobs 2] [--worlds 200] [--clock wall|cpu]

For each deal of the corpora (``corpora.py``: ``sheepshead-jd`` and ``sauspiel``), from the leader's seat at the
first lead (the auction the rules imply: every seat before the declarer passed): the uniform run with ``worlds``
worlds (its time and the standard error of its best card), then the weighted run with as many worlds, its
effective worlds, and the weighted run with the worlds it needs to reach the uniform run's standard error (``worlds
* (se_weighted / se_uniform)^2``, at most 20,000), timed. The issue's goal: the last at most 1.5 times the uniform
run's time (medians over the hands). Also the time the weighted sampler alone takes (drawing and weighing).
``--clock cpu`` times this process's processor time instead of the wall clock (with ``--jobs 1``: the figures then
hardly move with the load of a shared machine).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from corpora import corpus  # noqa: E402

from sheepsolve.player import player_view  # noqa: E402
from sheepsolve.weighting import pick_worlds, world_weights  # noqa: E402
from sheepsolve.worlds import Knowledge  # noqa: E402


def best_se(v) -> float:
    top = next(c for c in v.cards if c in v.best and v.cards[c].vs_best == 0.0)
    return v.cards[top].stderr or 0.0


def run(name: str, hands: int, jobs: int, worlds: int, clock=time.perf_counter) -> dict:
    rows = []
    for i, st in enumerate(corpus(name, hands)):
        k = Knowledge.from_setup(st.setup, [], st.to_move)
        w = world_weights(st.setup, "auction")
        kw = dataclasses.replace(k, weights=w)
        t0 = clock()
        u = player_view(k, worlds, seed=i, jobs=jobs)
        tu = clock() - t0
        t0 = clock()
        pick_worlds(kw, worlds, i)
        ts = clock() - t0
        t0 = clock()
        v = player_view(kw, worlds, seed=i, jobs=jobs)
        tw = clock() - t0
        se_u, se_w = best_se(u), best_se(v)
        need = worlds if se_u <= 0 else min(20_000, max(worlds, round(worlds * (se_w / se_u) ** 2)))
        t0 = clock()
        m = player_view(kw, need, seed=i, jobs=jobs) if need != worlds else v
        tm = clock() - t0 if need != worlds else tw
        rows.append({"uniform_s": tu, "weighted_s": tw, "sampler_s": ts, "matched_s": tm, "need": need,
                     "ess": v.effective, "se_u": se_u, "se_w": se_w, "se_matched": best_se(m),
                     "declarer_leads": st.to_move == st.setup.declarer})
    med = statistics.median
    return {"corpus": name, "hands": len(rows), "uniform_s": med(r["uniform_s"] for r in rows),
            "weighted_s": med(r["weighted_s"] for r in rows), "sampler_s": med(r["sampler_s"] for r in rows),
            "matched_s": med(r["matched_s"] for r in rows), "ratio": med(r["matched_s"] / r["uniform_s"] for r in rows),
            "ess": med(r["ess"] for r in rows), "need": med(r["need"] for r in rows),
            "se_u": med(r["se_u"] for r in rows), "se_matched": med(r["se_matched"] for r in rows)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--corpora", nargs="+", default=["sheepshead-jd", "sauspiel"])
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    a = ap.parse_args()
    if a.clock == "cpu" and a.jobs != 1:
        ap.error("--clock cpu times this process only: use it with --jobs 1")
    clock = time.process_time if a.clock == "cpu" else time.perf_counter
    for name in a.corpora:
        r = run(name, a.hands, a.jobs, a.worlds, clock)
        print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()), flush=True)


if __name__ == "__main__":
    main()
