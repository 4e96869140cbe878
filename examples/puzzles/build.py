"""Rebuild the bundled puzzle set: ``python examples/puzzles/build.py`` (from the project root).

Every puzzle comes from ``sheepsolve.puzzle.generate`` with the game, cards left, seed and goals below (each file's
``source`` key gives the equivalent ``sheepsolve puzzle generate`` command and the deal); the set is sorted from
easy to hard, written as ``NN-difficulty-game.toml``, checked, and listed in ``README.md``.
"""

from __future__ import annotations

import os
import sys

from sheepsolve.games import make_game
from sheepsolve.puzzle import DIFFICULTIES, check_puzzle, generate
from sheepsolve.render.puzzle import describe_goal

HERE = os.path.dirname(os.path.abspath(__file__))

# (file label, make_game arguments, cards left, seed, how many, goals or None for the default order)
SPECS = [
    ("sheepshead-jd", {"name": "sheepshead"}, 3, 101, 2, [61, 91, 31]),
    ("sheepshead-jd", {"name": "sheepshead"}, 4, 102, 2, None),
    ("sheepshead-called-ace", {"name": "sheepshead", "partner": "called-ace"}, 3, 201, 2, [61, 91, 31]),
    ("sheepshead-called-ace", {"name": "sheepshead", "partner": "called-ace"}, 4, 202, 2, None),
    ("sheepshead-3", {"name": "sheepshead-3"}, 5, 301, 3, [61, 91, 31, "max"]),
    ("sheepshead-4", {"name": "sheepshead-4"}, 4, 401, 2, [61, 91, 31]),
    ("sauspiel", {"name": "sauspiel"}, 4, 501, 2, [61, 91, 31]),
    ("sauspiel", {"name": "sauspiel"}, 4, 502, 2, None),
    ("solo-hearts", {"name": "solo", "trump": "H"}, 4, 601, 2, [61, 91, 31]),
    ("solo-acorns", {"name": "solo", "trump": "C"}, 5, 602, 1, None),
    ("wenz", {"name": "wenz"}, 4, 701, 2, [61, 91, 31, "max"]),
    ("sauspiel-schwarz", {"name": "sauspiel"}, 3, 7, 1, ["all-tricks"]),
    ("farbwenz-bells", {"name": "farbwenz", "trump": "D"}, 4, 801, 1, None),
    ("geier", {"name": "geier"}, 4, 802, 1, None),
]


def main() -> int:
    found = []
    for label, kw, left, seed, count, goals in SPECS:
        kw = dict(kw)
        game = make_game(kw.pop("name"), **kw)
        ps = generate(game, cards_left=left, count=count, seed=seed, goals=goals)
        if len(ps) < count:
            print(f"{label} seed {seed}: only {len(ps)} of {count}", file=sys.stderr)
        found += [(label, p) for p in ps]
    found.sort(key=lambda lp: (DIFFICULTIES.index(lp[1].difficulty), lp[1].extra["score"], lp[0]))
    for name in os.listdir(HERE):
        if name.endswith(".toml"):
            os.remove(os.path.join(HERE, name))
    rows = []
    for i, (label, p) in enumerate(found, 1):
        res = check_puzzle(p)
        if not res.ok:
            print(f"{label}: {res.reasons}", file=sys.stderr)
            return 1
        fname = f"{i:02d}-{p.difficulty}-{label}.toml"
        with open(os.path.join(HERE, fname), "w", encoding="utf-8") as f:
            f.write(p.dumps())
        st = p.state
        role = "picker" if st.to_move == st.setup.declarer and st.game.kind == "picker" else (
            "declarer" if st.to_move == st.setup.declarer else
            "partner" if st.to_move in st.setup.team else "defender")
        where = f"trick {len(st.tricks) + 1}, " + ("lead" if not st.trick else f"card {len(st.trick) + 1}")
        themes = ", ".join(p.extra["themes"]) or "-"
        rows.append(f"| {i} | [{fname}]({fname}) | {st.game.title} | {p.to_move} ({role}), {where} | "
                    f"{describe_goal(st, p.goal)} | {p.difficulty} ({p.extra['score']}) | {themes} |")
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as f:
        f.write(README.format(n=len(found), rows="\n".join(rows)))
    print(f"{len(found)} puzzles written")
    return 0


README = """# Bundled double-dummy puzzles

{n} puzzles, easy to hard, each a hand record (`shared/RECORD-FORMAT.md`) whose `play` leads to the puzzle
position, with a `[puzzle]` table (`goal`, `to_move`, `solution`, `refutations`, `difficulty`; see
`src/sheepsolve/puzzle.py`). Every one has exactly one right card up to equivalent cards, proved by the solver.

```sh
sheepsolve puzzle show examples/puzzles/01-*.toml            # the position and the goal, answer hidden
sheepsolve puzzle show examples/puzzles/01-*.toml --reveal   # with the answer and the refutations
sheepsolve puzzle show examples/puzzles/01-*.toml --html p.html
sheepsolve puzzle check examples/puzzles/*.toml              # prove every solution right and unique
```

Difficulty comes from `sheepsolve.puzzle.rate` (score in brackets): how many cards fail, how many tricks until
the most natural mistake is lost by the count, counter-intuitive themes of the answer (duck, overtake, schmear,
lead into a void, underlead, give up a trick to take more), and whether a rule-of-thumb player's card fails.
Rebuild the set with `python examples/puzzles/build.py`; each file's `source` names the
`sheepsolve puzzle generate` command and deal it came from.

| # | file | game | to move | goal | difficulty | themes |
|---|---|---|---|---|---|---|
{rows}
"""

if __name__ == "__main__":
    sys.exit(main())
