"""Node counts and values over the seeded corpora: the check that a change to the core is a pure refactoring.

    python benchmarks/nodes.py [--size 100] [--corpus sauspiel ...] [--solve 5]

For each corpus and question (the exact value; ``reach61`` for the two-sided games, ``reach1`` for null and
Bettel: does the declarer take a trick) it prints the number of
deals, the sum of the values, the sum of the nodes and a CRC of the per-deal node counts; with ``--solve K``
also the first K deals solved in full (every card's value and a best line: the drivers ``child_values`` and
``child_at_least``). Each deal starts from a cleared solver, so every figure is deterministic: two builds that
search alike print identical tables (compare them with ``diff``).
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import CORPORA, SEATED, corpus, corpus_seat, corpus_threshold  # noqa: E402

from sheepsolve.solver import Solver  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--corpus", nargs="*", default=list(CORPORA))
    ap.add_argument("--solve", type=int, default=0, help="also solve the first K deals in full")
    args = ap.parse_args()
    solver = Solver()
    print(f"{'corpus':<22} {'question':<8} {'deals':>5} {'value sum':>10} {'nodes':>12} {'crc':>10}")
    for name in args.corpus:
        states = corpus(name, args.size)
        threshold = corpus_threshold(name)
        questions = ["value"] if name in SEATED else ["value", f"reach{threshold}"]
        if args.solve:
            questions.append("solve")
        for q in questions:
            total, nodes, per = 0, 0, []
            for i, state in enumerate(states[: args.solve] if q == "solve" else states):
                seat = corpus_seat(name, i)
                solver.clear()
                if q == "value":
                    v = solver.value(state, seat=seat)
                elif q == f"reach{threshold}":
                    v = int(solver.reach(state, threshold, seat=seat))
                else:
                    sol = solver.solve(state, seat=seat)
                    v = sol.value + sum(sol.cards.values()) + len(sol.line)
                total += v
                nodes += solver.nodes
                per.append(solver.nodes)
            crc = zlib.crc32(",".join(map(str, per)).encode())
            print(f"{name:<22} {q:<8} {len(per):>5} {total:>10} {nodes:>12} {crc:>10}", flush=True)


if __name__ == "__main__":
    main()
