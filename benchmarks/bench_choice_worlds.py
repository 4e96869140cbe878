"""The worlds of ``pick``, ``choose`` and ``bury --view picker`` weighed by the passes before the seat: what they are
worth, uniform deals weighed (before) against rejection control (now), and what the sampling costs.

    python benchmarks/bench_choice_worlds.py [--deals 20] [--worlds 200] [--solve 0]

For seeded random deals (``random.Random(f"deal:{game}:{d}")``, Sheepshead 5-hand and Sauspiel, seats 2 to 5, so
that passes weigh), from the seat's view before its choice (the hand as dealt; for ``bury --view picker`` the
picker's hand with the blind): *before*, the passes' likelihood of ``worlds`` uniform deals (what the commands
solved and weighed until rejection control) and their effective size; *now*, the importance weights of the worlds
rejection control keeps (:class:`sheepsolve.weighting.WeightedSampler` with the passes' weights), their effective
size, the deals drawn and weighed per world kept, and the processor time of the drawing. ``--solve N``: also time
``pick`` (Sheepshead) and ``choose`` (Sauspiel) on the first N deals with ``--inference none`` and ``auction``
(``--jobs 1``, processor time). ``--examples``: instead, the same figures for the bundled examples, each command's
task as the command line makes it (the record's seat, seed 0), where the passes weigh.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from sheepsolve.bury import choose_contract, pick_or_pass  # noqa: E402
from sheepsolve.bury.units import Task, worker  # noqa: E402
from sheepsolve.games import make_game  # noqa: E402
from sheepsolve.pool import game_spec  # noqa: E402
from sheepsolve.weighting import effective_size, passes_weights  # noqa: E402


def deal(game, d: int) -> list:
    deck = list(game.deck)
    random.Random(f"deal:{game.name}:{d}").shuffle(deck)
    return deck


def figures(game, seat: int, hand, blind, worlds: int) -> dict:
    """Before and now for one seat's view (``blind``: the picker's, None before the choice)."""
    kind = "bury" if blind is not None else ("pick" if game.kind == "picker" else "choose")
    task = Task(kind=kind, game=game_spec(game), seat=seat, hand=tuple(map(int, hand)),
                blind=tuple(map(int, blind)) if blind is not None else None, choices=(), stakes=(False, False, 0),
                seed=0, inference="auction")
    w = worker()
    sampler = w.sampler(task, game)
    fn, _ = passes_weights(game, seat, "auction")
    before = [fn(sampler.deal(w_rng(i))[0]) for i in range(worlds)]
    t0 = time.process_time()
    got = [w.world_weight(task, game, i) for i in range(worlds)]
    dt = time.process_time() - t0
    now = [v for v, _ in got]
    return {"before": effective_size(before), "mean_weight": statistics.fmean(before),
            "now": effective_size(now), "draws": sum(n for _, n in got) / worlds, "ms": 1000 * dt / worlds}


def w_rng(i: int):
    from sheepsolve.worlds import world_rng
    return world_rng(0, i)


def examples(worlds: int) -> int:
    """The effective worlds of every bundled example's ``pick``, ``choose`` and ``bury --view picker``: the task
    each command makes is caught before anything is solved."""
    from click.testing import CliRunner

    import sheepsolve.bury.questions as questions
    from sheepsolve.cli import main as cli_main
    from sheepsolve.pool import game_from_spec
    from sheepsolve.worlds import world_rng

    class Caught(Exception):
        pass

    caught: dict = {}

    def catch(task, *args, **kwargs):
        caught["task"] = task
        raise Caught

    questions.run_units = catch
    print("| example | command | seat | effective before | effective now | deals drawn a world |")
    print("|---|---|---|---|---|---|")
    for path in sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.toml")):
        for cmd in (["pick"], ["choose"], ["bury", "--view", "picker"]):
            caught.clear()
            CliRunner().invoke(cli_main, [*cmd, str(path), "--worlds", str(worlds), "--seed", "0"])
            if "task" not in caught:
                continue
            t = caught["task"]
            g = game_from_spec(t.game)
            fn, _ = passes_weights(g, t.seat, t.inference, t.players)
            if fn is None:
                continue
            w = worker()
            before = [fn(w.sampler(t, g).deal(world_rng(t.seed, i))[0]) for i in range(worlds)]
            now = [w.world_weight(t, g, i) for i in range(worlds)]
            who = t.players[t.seat] if t.players else str(t.seat + 1)
            print(f"| {path.name} | {' '.join(cmd)} | {who} ({t.seat + 1}) | {effective_size(before):.1f} "
                  f"| {effective_size([v for v, _ in now]):.1f} | {sum(n for _, n in now) / worlds:.1f} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--solve", type=int, default=0)
    ap.add_argument("--examples", action="store_true")
    a = ap.parse_args(argv)
    if a.examples:
        return examples(a.worlds)
    print(f"{a.worlds} worlds, {a.deals} deals a row; medians (range) over the deals")
    print("| game | view | seat | effective before | mean weight | effective now | deals drawn a world | drawing ms a world |")
    print("|---|---|---|---|---|---|---|---|")
    for name in ("sheepshead", "sauspiel"):
        g = make_game(name)
        views = ["pick", "bury"] if g.kind == "picker" else ["choose"]
        for view in views:
            for seat in range(1, g.seats):
                rows = []
                for d in range(a.deals):
                    cards = deal(g, d)
                    hand = cards[:g.hand_size]
                    blind = cards[g.seats * g.hand_size:][:g.blind_size] if view == "bury" else None
                    rows.append(figures(g, seat, hand, blind, a.worlds))

                def med(key: str, nd: int = 1) -> str:
                    xs = [r[key] for r in rows]
                    return f"{statistics.median(xs):.{nd}f} ({min(xs):.{nd}f}-{max(xs):.{nd}f})"

                print(f"| {name} | {view} | {seat + 1} | {med('before')} | {med('mean_weight', 3)} | {med('now')} "
                      f"| {med('draws')} | {med('ms', 2)} |")
    if a.solve:
        print("\nprocessor seconds, --jobs 1 (none / auction), and the effective worlds with auction")
        for name, fn, seat in (("sheepshead", pick_or_pass, 3), ("sauspiel", choose_contract, 3)):
            g = make_game(name)
            for d in range(a.solve):
                hand = deal(g, d)[:g.hand_size]
                out = []
                for inf in ("none", "auction"):
                    t0 = time.process_time()
                    r = fn(g, hand, seat, worlds=a.worlds, seed=1, inference=inf, jobs=1)
                    out.append((time.process_time() - t0, r.effective))
                print(f"{name} deal {d} seat {seat + 1}: {out[0][0]:.2f} s / {out[1][0]:.2f} s, "
                      f"effective {out[1][1]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
