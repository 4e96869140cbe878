"""How well ``annotate --view player``'s standard errors hold: one hand judged again for many seeds, the spread of
each player's expected loss (and each decision's cost) over the seeds against the root mean square of its
reported standard error, with a 95% interval of that ratio bootstrapped over the seeds (1: right; below 1: the
error is over-reported, expected where a cost is often 0, since a cost is never below 0).

    python benchmarks/annotate_stats.py examples/annotate-blunder-sheepshead.toml --seeds 240 --worlds 30
    python benchmarks/annotate_stats.py examples/annotate-swing-sauspiel.toml --inference none --seeds 60

Seeded: the same arguments give the same figures. Figures in docs/TUNING.md ("worlds across decisions").
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

from sheepsolve.annotate import annotate_record
from sheepsolve.player.annotate import annotate_view
from sheepsolve.record import load_record


def ratio(pairs: list[tuple[float, float]]) -> float:
    """The spread of the figures over the seeds over the root mean square of their reported errors."""
    rms = math.sqrt(statistics.fmean([e * e for _, e in pairs]))
    return statistics.stdev([x for x, _ in pairs]) / rms if rms else math.inf


def interval(pairs: list[tuple[float, float]], rng: random.Random, draws: int = 1000) -> tuple[float, float]:
    got = sorted(ratio([pairs[rng.randrange(len(pairs))] for _ in pairs]) for _ in range(draws))
    return got[int(0.025 * draws)], got[int(0.975 * draws) - 1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("record")
    ap.add_argument("--seeds", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=30)
    ap.add_argument("--inference", default="auction", choices=["auction", "none"])
    ap.add_argument("--no-race", action="store_true")
    a = ap.parse_args(argv)
    rec = load_record(a.record)
    ann = annotate_record(rec, judge_bury=False)
    losses: dict[str, list[tuple[float, float]]] = {}
    costs: dict[str, list[tuple[float, float]]] = {}
    for seed in range(a.seeds):
        v = annotate_view(ann, worlds=a.worlds, seed=seed, jobs=1, inference=a.inference, source=rec,
                          race=not a.no_race)
        for p in v.summary.players:
            if p.view.decisions:
                losses.setdefault(p.player, []).append((p.view.expected_loss, p.view.expected_loss_stderr or 0.0))
        for d in v.decisions:
            if d.view is not None:
                costs.setdefault(f"{d.trick}.{d.player} {d.card}", []).append((d.view.cost, d.view.cost_stderr or 0.0))
        print(f"seed {seed}", end="\r", file=sys.stderr)
    rng = random.Random(0)
    print(f"{a.record}: {a.seeds} seeds, {a.worlds} worlds, inference {a.inference}")
    for title, groups in (("expected loss", losses), ("cost", costs)):
        for name, pairs in groups.items():
            if len(pairs) == a.seeds and any(e for _, e in pairs):
                lo, hi = interval(pairs, rng)
                print(f"  {title:13} {name:18} mean {statistics.fmean([x for x, _ in pairs]):6.2f}  spread "
                      f"{statistics.stdev([x for x, _ in pairs]):5.2f}  reported (rms) "
                      f"{math.sqrt(statistics.fmean([e * e for _, e in pairs])):5.2f}  ratio {ratio(pairs):.2f} "
                      f"[{lo:.2f}-{hi:.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
