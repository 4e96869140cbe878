"""What averaging double-dummy values over worlds cannot see: its bias, measured on small endings.

    python benchmarks/bias.py [--cards 3 4 5] [--positions 12] [--cap 600] [--seed 1]

The player's view (``suggest``) judges a card by the mean over the worlds of its double-dummy value: in each
world everyone plays on as if every card were face up, the player included, so a guess the player could not make
("which of the two kings does he hold?") is made right in every world. The true value of the position for the
player, given the same worlds as his belief, has him commit to one card for all the worlds he cannot tell apart,
at each of his decisions (backward induction over his information sets: the worlds grouped by what he has seen),
while the others play double dummy in their world (each picks its double-dummy best card there, the first in the
legal order among equals).

For each seeded position (a random deal of the game played at random down to ``cards`` cards a hand, the player to
move, with at most ``--cap`` consistent worlds: the voids shown keep them few) every consistent world is his
belief, all alike; a sample would not do, since a few sampled worlds are told apart by the first cards the others
play, and the player would then know the world. The script sums up per size the averaging's value of its best
card against the true value (positive: the average flatters the player): the mean and the largest difference
over the positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from sheepsolve.deals import random_position, random_setup  # noqa: E402
from sheepsolve.games import make_game  # noqa: E402
from sheepsolve.objective import Objective  # noqa: E402
from sheepsolve.solver import Solver  # noqa: E402
from sheepsolve.worlds import Knowledge, WorldSampler  # noqa: E402


class Ending:
    """One position's information-set game over a fixed list of worlds."""

    def __init__(self, k: Knowledge, worlds: list, solver: Solver) -> None:
        self.k = k
        self.worlds = worlds
        self.solver = solver
        self.objs = [Objective.for_setup(w.setup) for w in worlds]
        self.teams = [w.setup.team for w in worlds]
        self.maximize = k.seat in worlds[0].setup.team
        self.solves = 0

    def _dd_card(self, i: int, state):
        """The double-dummy best card of the mover in world ``i`` (declaring side maximises)."""
        self.solves += 1
        vals = self.solver.card_values(state, self.objs[i])
        declaring = state.to_move in self.teams[i]
        best = max(vals.values()) if declaring else min(vals.values())
        return next(c for c in state.legal() if vals[c] == best)

    def value(self, group: list[tuple[int, object]]) -> float:
        """The sum over the group's worlds of the final value when the player commits to one card per
        information set (the group: worlds he cannot tell apart)."""
        first = group[0][1]
        if first.finished:
            return float(sum(self.objs[i].final_value(s) for i, s in group))
        if first.to_move == self.k.seat:
            sums = []
            for c in first.legal():
                sums.append(self.value([(i, s.play(c, check=False)) for i, s in group]))
            return max(sums) if self.maximize else min(sums)
        by_card: dict = {}
        for i, s in group:
            c = self._dd_card(i, s)
            by_card.setdefault(int(c), []).append((i, s.play(c, check=False)))
        return sum(self.value(sub) for sub in by_card.values())

    def averaged(self) -> float:
        """The averaging's value of its best card: the best mean over the worlds of the double-dummy values."""
        legal = self.worlds[0].state.legal()
        sums = {c: 0.0 for c in legal}
        for i, w in enumerate(self.worlds):
            vals = self.solver.card_values(w.state, self.objs[i])
            for c in legal:
                sums[c] += vals[c]
        return (max(sums.values()) if self.maximize else min(sums.values())) / len(self.worlds)

    def true(self) -> float:
        return self.value([(i, w.state) for i, w in enumerate(self.worlds)]) / len(self.worlds)


def positions(game_name: str, cards: int, count: int, seed: int, cap: int):
    """Positions at a trick's start with ``cards`` cards a hand and at most ``cap`` consistent worlds from the
    leader's seat (and more than one)."""
    g = make_game(game_name, trump="H") if game_name == "solo" else make_game(game_name)
    rng = random.Random(f"bias:{game_name}:{cards}:{seed}")
    out = []
    for _ in range(200 * count):
        if len(out) == count:
            break
        st = random_setup(g, rng)
        s = random_position(st, rng, cards_left=cards)
        if s.finished or s.trick:
            continue
        plays = [c for t in s.tricks for c in t.cards]
        k = Knowledge.from_setup(st, plays)
        sampler = WorldSampler(k)
        if not 1 < sampler.candidates <= 4 * cap:
            continue
        worlds = sampler.all_worlds(4 * cap)
        if 1 < len(worlds) <= cap:
            out.append((k, worlds))
    return out


def measure(game_name: str, cards: int, count: int, cap: int, seed: int) -> dict:
    diffs, solves, sizes = [], 0, []
    t0 = time.perf_counter()
    solver = Solver(4)
    for k, ws in positions(game_name, cards, count, seed, cap):
        sizes.append(len(ws))
        e = Ending(k, ws, solver)
        avg, true = e.averaged(), e.true()
        sign = 1 if e.maximize else -1
        diffs.append(sign * (avg - true))
        solves += e.solves
    if not diffs:
        return {"game": game_name, "cards": cards, "positions": 0, "worlds": 0, "mean": 0.0, "max": 0.0,
                "min": 0.0, "seconds": time.perf_counter() - t0, "solves": 0}
    return {"game": game_name, "cards": cards, "positions": len(diffs), "worlds": round(statistics.fmean(sizes)),
            "mean": statistics.fmean(diffs), "max": max(diffs), "min": min(diffs),
            "seconds": time.perf_counter() - t0, "solves": solves}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--games", nargs="+", default=["sauspiel", "solo", "sheepshead"])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--cap", type=int, default=600, help="the most consistent worlds of a position")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print("game        cards  positions  worlds  mean bias  max bias  min  seconds  solves")
    for cards in a.cards:
        for game in a.games:
            r = measure(game, cards, a.positions, a.cap, a.seed)
            print(f"{r['game']:<11} {r['cards']:>5}  {r['positions']:>9}  {r['worlds']:>6}  {r['mean']:>9.2f}  "
                  f"{r['max']:>8.2f}  {r['min']:>4.1f}  {r['seconds']:>7.1f}  {r['solves']:>6}", flush=True)


if __name__ == "__main__":
    main()
