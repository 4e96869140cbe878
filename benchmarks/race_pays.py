"""Where racing pays: the player's view of seeded positions solved with racing always on and with it off, in
processor time, by game form and by the cards left in the mover's hand.

    python benchmarks/race_pays.py --deals 30 --worlds 100 --out /tmp/race.jsonl    # measure (one line a position)
    python benchmarks/race_pays.py --summary /tmp/race.jsonl                         # the tables of docs/TUNING.md
    python benchmarks/race_pays.py --hands --deals 6 --forms sauspiel --out /tmp/hands.jsonl  # whole hands

Positions: deal ``i`` of each form (``corpora.py``'s seeds), played at random (seed ``race/form/2026/i``) to
every trick from the first lead to the one where the hands hold two cards, then ``i % seats`` more cards into that
trick (so the mover sits at every place of a trick); the mover's view, uniform worlds (``--inference none``),
worlds seed ``i``, ``--jobs 1``, payments as ``suggest`` asks them (``--no-payments``: as ``annotate --view
player``). Each position is solved with ``race="always"`` and ``race=False``, twice each in the order A B B A (A
racing first at every other position; once each, A B, when both take over ``LONG`` seconds), the shorter time of
each kept, with one solver pair for the whole run (as ``annotate`` keeps one), and timed with
``time.process_time`` (this process's processor time: the machine's load moves the wall clock, not this). A
position with one legal card, or with no more consistent worlds than asked (solved exactly, never raced), is
recorded but left out of the ratios.

``--hands``: whole hands of ``annotate --view player`` instead (:func:`measure_hands`), racing where it pays (the
shipped rule), always and never.

The ratio of a group is its total time with racing over its total without (the cost of a run), beside the median
of the per-position ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import CORPORA, corpus_game  # noqa: E402

from sheepsolve.deals import random_setup  # noqa: E402
from sheepsolve.games import make_game  # noqa: E402
from sheepsolve.player import player_view, races  # noqa: E402
from sheepsolve.player.options import VIEW_TABLE_MIB  # noqa: E402
from sheepsolve.solver import Solver  # noqa: E402
from sheepsolve.worlds import Knowledge  # noqa: E402

FORMS = ["sheepshead-jd", "sheepshead-called-ace", "sheepshead-3", "sheepshead-4", "sauspiel", "solo", "wenz",
         "sauspiel-short", "ramsch", "leaster"]


def form_game(name: str):
    return make_game("sheepshead-4") if name == "sheepshead-4" else corpus_game(name)


def positions(name: str, deals: int, seed: int = 2026, first: int = 0):
    """(deal, setup, plays, state) for every position of deals ``first`` to ``first + deals - 1`` of form
    ``name``."""
    g = form_game(name)
    for i in range(first, first + deals):
        setup = random_setup(g, random.Random(f"{name}/{seed}/{i}"))
        rng = random.Random(f"race/{name}/{seed}/{i}")
        for tricks in range(g.hand_size - 1):
            s, plays = setup.start(), []
            while len(s.tricks) < tricks or len(plays) < tricks * g.seats + i % g.seats:
                if s.finished:
                    break
                c = rng.choice(s.legal())
                plays.append(c)
                s = s.play(c)
            if not s.finished:
                yield i, setup, tuple(plays), s


LONG = 1.0
"""Seconds: a position whose runs take longer is timed once each way (A B), not twice (A B B A)."""


def measure(name: str, deals: int, worlds: int, payments: bool, out, first: int = 0) -> None:
    solver, tsolver = Solver(VIEW_TABLE_MIB), Solver(VIEW_TABLE_MIB)
    for i, setup, plays, s in positions(name, deals, first=first):
        k = Knowledge.from_setup(setup, plays, s.to_move)
        row = {"form": name, "deal": i, "played": len(plays), "hand": len(s.hands[s.to_move]),
               "legal": len(s.legal()), "worlds": worlds, "payments": payments}
        times: dict[str, float] = {}
        order: tuple = ("always", False) if (i + len(plays)) % 2 == 0 else (False, "always")
        for n, mode in enumerate(order + order[::-1]):  # A B B A: each mode's shorter time kept
            if n == 2 and min(times.values()) > LONG:
                break  # a long position: its time is not a first call's, once is enough
            t0 = time.process_time()
            v = player_view(k, worlds, seed=i, jobs=1, solver=solver, tricks_solver=tsolver, payments=payments,
                            race=mode)
            took = time.process_time() - t0
            key = "race" if mode else "full"
            times[key] = min(times.get(key, took), took)
            if mode:
                row["exact"] = v.exact
                row["dropped"] = sum(cv.worlds_solved < v.worlds for cv in v.cards.values())
                row["solves_raced"] = sum(cv.worlds_solved for cv in v.cards.values())
                row["solves_full"] = v.worlds * len(v.cards)
        row.update(times)
        out.write(json.dumps(row) + "\n")
        out.flush()


def measure_hands(name: str, hands: int, worlds: int, out, first: int = 0) -> None:
    """Whole hands of ``annotate --view player``: deal ``i`` of the corpus played at random
    (``test_bench_annotate.played_hands``), every decision judged from the mover's view with ``worlds`` worlds
    (seed ``i``, ``--jobs 1``), racing where it pays (the default), always and never, the three in turn (the order
    rotated hand by hand), in processor time."""
    from test_bench_annotate import played_hands

    from sheepsolve.annotate import annotate_play
    from sheepsolve.player import annotate_view

    modes: list = [True, "always", False]
    for i, (setup, line) in enumerate(played_hands(name, first + hands, "random")[first:], start=first):
        ann = annotate_play(setup, line, judge_bury=False)
        row: dict = {"form": name, "deal": i, "worlds": worlds, "hand_run": True}
        for mode in modes[i % 3:] + modes[:i % 3]:
            t0 = time.process_time()
            annotate_view(ann, worlds=worlds, seed=i, jobs=1, race=mode)
            row[{True: "rule", "always": "always", False: "never"}[mode]] = time.process_time() - t0
        out.write(json.dumps(row) + "\n")
        out.flush()


def hands_summary(path: str) -> str:
    rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    runs: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        runs[(r["form"], r["worlds"])].append(r)
    lines = ["| form | worlds | hands | never s | always s | rule s | rule / never | rule / always |",
             "|---|---|---|---|---|---|---|---|"]
    for key in sorted(runs, key=lambda t: (FORMS.index(t[0]) if t[0] in FORMS else 99, t[1])):
        g = runs[key]
        never, always, rule = (sum(r[m] for r in g) for m in ("never", "always", "rule"))
        lines.append(f"| {key[0]} | {key[1]} | {len(g)} | {never:.2f} | {always:.2f} | {rule:.2f} | "
                     f"x{rule / never:.3f} | x{rule / always:.3f} |")
    return "\n".join(lines)


EACH_FOR_HIMSELF = {"ramsch", "leaster"}


def shape(form: str) -> str:
    return "each for himself" if form in EACH_FOR_HIMSELF else "with sides"


def matrix(path: str, pool: str | None = None) -> str:
    """One row per form (or shape, ``pool``) and worlds, one column per count of cards in the mover's hand: the
    total time ratio racing / not racing, and the positions measured."""
    rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    used = [r for r in rows if not r["exact"] and r["legal"] > 1]
    label = {None: lambda r: r["form"], "shape": lambda r: shape(r["form"]), "all": lambda r: "every form"}[pool]
    cells: dict[tuple, list[dict]] = defaultdict(list)
    for r in used:
        cells[(label(r), r["worlds"], r["payments"], r["hand"])].append(r)
    hands = sorted({k[3] for k in cells}, reverse=True)
    order = FORMS + ["with sides", "each for himself", "every form"]
    keys = sorted({k[:3] for k in cells}, key=lambda t: (order.index(t[0]) if t[0] in order else 99, t[1], t[2]))
    lines = ["| form | worlds | payments | " + " | ".join(f"{h} cards" for h in hands) + " |",
             "|---|---|---|" + "---|" * len(hands)]
    for key in keys:
        out = []
        for h in hands:
            g = cells.get((*key, h))
            out.append("" if not g else f"x{sum(r['race'] for r in g) / sum(r['full'] for r in g):.2f} ({len(g)})")
        lines.append(f"| {key[0]} | {key[1]} | {'yes' if key[2] else 'no'} | " + " | ".join(out) + " |")
    return "\n".join(lines)


def summary(path: str, by: str = "hand", pool: str | None = None) -> str:
    """The tables of a measurement: per form (``pool`` "shape": games with sides and those where every seat plays
    for itself; "all": every form together), worlds, payments and ``by``; then the whole run's time per form under
    the shipped rule (racing only where ``player.solve.races`` says so) against racing always and never."""
    rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    used = [r for r in rows if not r["exact"] and r["legal"] > 1]
    label = {None: lambda r: r["form"], "shape": lambda r: shape(r["form"]), "all": lambda r: "every form"}[pool]
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in used:
        groups[(label(r), r["worlds"], r["payments"], r[by])].append(r)
    order = FORMS + ["with sides", "each for himself", "every form"]
    lines = [f"| form | worlds | payments | {by} | positions | race s | full s | total ratio | median ratio | "
             "solves kept |", "|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(groups, key=lambda t: (order.index(t[0]) if t[0] in order else 99, t[1], t[2], -t[3])):
        g = groups[key]
        tr, tf = sum(r["race"] for r in g), sum(r["full"] for r in g)
        med = statistics.median(r["race"] / r["full"] for r in g if r["full"] > 0)
        kept = sum(r["solves_raced"] for r in g) / sum(r["solves_full"] for r in g)
        lines.append(f"| {key[0]} | {key[1]} | {'yes' if key[2] else 'no'} | {key[3]} | {len(g)} | {tr:.2f} | "
                     f"{tf:.2f} | x{tr / tf:.2f} | x{med:.2f} | {kept:.0%} |")
    lines.append(f"\n{len(rows)} positions, {len(rows) - len(used)} left out (one legal card, or solved exactly)\n")
    lines += ["| form | worlds | payments | never s | always s | rule s | rule / never | rule / always |",
              "|---|---|---|---|---|---|---|---|"]
    runs: dict[tuple, list[dict]] = defaultdict(list)
    for r in used:
        runs[(label(r), r["worlds"], r["payments"])].append(r)
    for key in sorted(runs, key=lambda t: (order.index(t[0]) if t[0] in order else 99, t[1], t[2])):
        g = runs[key]
        never, always = sum(r["full"] for r in g), sum(r["race"] for r in g)
        rule = sum(r["race"] if races(True, form_game(r["form"]), r["hand"]) else r["full"] for r in g)
        lines.append(f"| {key[0]} | {key[1]} | {'yes' if key[2] else 'no'} | {never:.2f} | {always:.2f} | "
                     f"{rule:.2f} | x{rule / never:.3f} | x{rule / always:.3f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--forms", nargs="*", default=FORMS, choices=sorted(set(CORPORA) | set(FORMS)))
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--first", type=int, default=0, help="the first deal (a run continued: --first 30)")
    ap.add_argument("--worlds", type=int, default=100)
    ap.add_argument("--no-payments", action="store_true")
    ap.add_argument("--out", default=None, help="append one JSON line a position to this file (default: stdout)")
    ap.add_argument("--summary", default=None, metavar="JSONL", help="print the tables of a measurement")
    ap.add_argument("--by", default="hand", choices=["hand", "legal", "played"])
    ap.add_argument("--hands", action="store_true",
                    help="whole hands of annotate --view player instead (corpus forms only; --summary: their table)")
    ap.add_argument("--matrix", action="store_true",
                    help="with --summary: one row per form, one column per count of cards in the mover's hand")
    ap.add_argument("--pool", choices=["shape", "all"], default=None,
                    help="with --summary: the forms pooled by shape (with sides, each for himself) or all together")
    a = ap.parse_args()
    if a.summary:
        if a.hands:
            print(hands_summary(a.summary))
        else:
            print(matrix(a.summary, a.pool) if a.matrix else summary(a.summary, a.by, a.pool))
        return
    out = open(a.out, "a") if a.out else sys.stdout
    try:
        for name in a.forms:
            if a.hands:
                measure_hands(name, a.deals, a.worlds, out, a.first)
            else:
                measure(name, a.deals, a.worlds, not a.no_payments, out, a.first)
    finally:
        if a.out:
            out.close()


if __name__ == "__main__":
    main()
