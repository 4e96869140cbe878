"""Write the bundled example records (every file here but ``sheepshead.toml``).

Run from the project root: ``python examples/generate.py``. Deterministic: every deal comes from a seeded
:func:`sheepsolve.deals.deal`. The choices are made the way a strong player who could see every card would:

- the picker (declarer) is the player whose best bury and call (contract) gives the declaring side the highest
  double-dummy value; the bury keeps trumps where it can;
- every card is the solver's: two-sided games follow a perfect line (:meth:`Solver.solve`), ramsch and leaster
  give each player, in turn, his own best card against all the others (the paranoid value for his seat);
- unfinished records are the same hands cut off after some cards, some of them in the middle of a trick.

Each record is read back with :func:`sheepsolve.record.load_record` before it is kept.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sheepsolve.cards import Card
from sheepsolve.deals import deal
from sheepsolve.engine import RulesError, Setup, State, legal_calls
from sheepsolve.games import Game, make_game
from sheepsolve.objective import Objective
from sheepsolve.record import Record, dump_record, load_record, record_from_dict
from sheepsolve.solver import Solver

HERE = Path(__file__).resolve().parent
WISCONSIN = ["Ann", "Bob", "Cal", "Dee", "Eve"]
BAVARIA = ["Sepp", "Vroni", "Hias", "Resi"]
SOLVER = Solver(64)


# --------------------------------------------------------------------------------------------------------------
# Choosing what a strong player would choose.


def _value(setup: Setup) -> int:
    """The declaring side's double-dummy value, higher better for it (null and Bettel: minus its tricks)."""
    v = SOLVER.value(setup.start())
    return v if Objective.for_setup(setup).maximize else -v


def best_picker_setup(game: Game, hands: list[list[Card]], blind: list[Card], *,
                      want: Callable[[Setup], bool] = lambda s: True,
                      seats: Sequence[int] | None = None) -> Setup | None:
    """The picker, bury and call with the best double-dummy value among those ``want`` accepts."""
    best: tuple[int, Setup] | None = None
    for p in seats if seats is not None else range(game.seats):
        picked = hands[p] + blind
        fail = [c for c in picked if not game.is_trump(c)]
        pool = fail if len(fail) >= game.bury_size else picked
        for bury in itertools.combinations(pool, game.bury_size):
            kept = [c for c in picked if c not in bury]
            options: list[dict[str, Any]] = []
            if game.partner == "called-ace":
                for call in legal_calls(game, kept, bury):
                    if call.card is None:
                        continue  # only go alone when asked to
                    if call.under:  # the card under: a fail card if he has one, whichever plays best
                        unders = [c for c in kept if not game.is_trump(c)] or kept
                        options += [{"called": call.card, "under": u} for u in unders]
                    else:
                        options.append({"called": call.card})
            else:
                options.append({})
            for opt in options:
                try:
                    s = Setup.create(game, hands, declarer=p, blind=blind, bury=bury, **opt)
                except RulesError:
                    continue
                if not want(s):
                    continue
                v = _value(s)
                if best is None or v > best[0]:
                    best = (v, s)
    return best[1] if best else None


def best_contract_setup(game: Game, hands: list[list[Card]], *, want: Callable[[Setup], bool] = lambda s: True,
                        seats: Sequence[int] | None = None, min_value: int = 0,
                        max_value: int = 120) -> Setup | None:
    """The declarer (and called ace in a sauspiel) with the best double-dummy value, if it lies in
    ``min_value..max_value`` (nobody declares a solo he is sure to lose badly)."""
    best: tuple[int, Setup] | None = None
    for p in seats if seats is not None else range(game.seats):
        calls: list[Card | None] = [c.card for c in legal_calls(game, hands[p])] if game.partner == "sauspiel" \
            else [None]
        for called in calls:
            try:
                s = Setup.create(game, hands, declarer=p, called=called)
            except RulesError:
                continue
            if not want(s):
                continue
            v = _value(s)
            if best is None or v > best[0]:
                best = (v, s)
    return best[1] if best and min_value <= best[0] <= max_value else None


def perfect_play(state: State, cards: int | None = None) -> list[Card]:
    """Cards played from ``state`` by perfect players (``cards`` of them, or to the end)."""
    g = state.game
    out: list[Card] = []
    s = state
    if g.two_sided:
        line = SOLVER.solve(s).line
        return list(line[:cards] if cards is not None else line)
    while not s.finished and (cards is None or len(out) < cards):
        vals = SOLVER.card_values(s, Objective.for_setup(s.setup, seat=s.to_move))
        c = min(vals, key=lambda x: vals[x])  # each player keeps his own points (leaster value) low
        out.append(c)
        s = s.play(c)
    return out


# --------------------------------------------------------------------------------------------------------------
# Writing.


def write(name: str, setup: Setup, dealt: list[list[Card]], players: Sequence[str], play: Sequence[Card],
          comment: str, **info: Any) -> None:
    """Write ``examples/<name>.toml`` (:meth:`Record.from_state`: the hands as dealt, the stakes, ``comment``) and
    check that it reads back as the same record."""
    stakes = {"crack": bool(info.pop("crack", False) or info.pop("kontra", False)), "doublers": info.pop("doublers", 0)}
    rec = Record.from_state(setup.start().play_cards(play), players, dealt=dealt, comment=comment, **stakes, **info)
    path = HERE / f"{name}.toml"
    path.write_text(dump_record(rec), encoding="utf-8")
    assert load_record(path) == rec, name
    print(f"{path.name:45} {len(play):3} cards played", file=sys.stderr)


# --------------------------------------------------------------------------------------------------------------
# The examples.


def picker_example(name: str, game: Game, seed: int, players: Sequence[str], *, cut: int | None = None,
                   want: Callable[[Setup], bool] = lambda s: True, comment: str = "", tries: int = 200,
                   **extra: Any) -> None:
    for k in range(tries):
        hands, blind = deal(game, random.Random(seed + k))
        setup = best_picker_setup(game, hands, blind, want=want)
        if setup is not None:
            break
    else:
        raise RuntimeError(f"{name}: no deal found")
    play = perfect_play(setup.start(), cut)
    write(name, setup, hands, players, play, comment or _default_comment(seed + k, cut), **extra)


def contract_example(name: str, game: Game, seed: int, players: Sequence[str], *, cut: int | None = None,
                     want: Callable[[Setup], bool] = lambda s: True, comment: str = "", tries: int = 400,
                     hands_fn: Callable[[random.Random], list[list[Card]]] | None = None,
                     min_value: int = 61, max_value: int = 120, **extra: Any) -> None:
    for k in range(tries):
        rng = random.Random(seed + k)
        hands = hands_fn(rng) if hands_fn else deal(game, rng)[0]
        setup = best_contract_setup(game, hands, want=want, min_value=min_value if not game.sie else 0,
                                    max_value=max_value)
        if setup is not None:
            break
    else:
        raise RuntimeError(f"{name}: no deal found")
    play = perfect_play(setup.start(), cut) if not game.sie else []
    write(name, setup, hands, players, play, comment or _default_comment(seed + k, cut, game.sie), **extra)


def everyone_alone_example(name: str, game: Game, seed: int, players: Sequence[str], *, cut: int | None = None,
                           comment: str = "", **extra: Any) -> None:
    hands, blind = deal(game, random.Random(seed))
    setup = Setup.create(game, hands, blind=blind)
    play = perfect_play(setup.start(), cut)
    write(name, setup, hands, players, play, comment or _default_comment(seed, cut), **extra)


def _default_comment(seed: int, cut: int | None, sie: bool = False) -> str:
    if sie:
        return f"Deal seed {seed}: a Sie, which is not played out (examples/generate.py)"
    where = "to the end" if cut is None else f"for {cut} cards"
    return f"Deal seed {seed}; every card double-dummy best, played {where} (examples/generate.py)"


def takes_every_trick(setup: Setup) -> bool:
    g = setup.game
    return SOLVER.reach(setup.start(), g.tricks, Objective.for_setup(setup, tricks=True))


def sie_hands(rng: random.Random) -> list[list[Card]]:
    g = make_game("sie")
    tops = [c for c in g.deck if c.rank in "QJ"]
    rest = [c for c in g.deck if c not in tops]
    rng.shuffle(rest)
    seat = rng.randrange(4)
    hands = [sorted(rest[i * 8:(i + 1) * 8]) for i in range(3)]
    hands.insert(seat, sorted(tops))
    return hands


def main() -> None:
    sh = make_game("sheepshead")
    ca = make_game("sheepshead", partner="called-ace")
    five = WISCONSIN
    picker_example("sheepshead-jd-finished", sh, 101, five,
                   want=lambda s: s.partner is not None, crack=True)
    picker_example("sheepshead-jd-midtrick", sh, 202, five, cut=13, want=lambda s: s.partner is not None)
    picker_example("sheepshead-jd-partial", sh, 303, five, cut=17, want=lambda s: s.partner is not None)
    # (rewritten by partial() with only the picker's hand)
    picker_example("sheepshead-called-ace-finished", ca, 404, five, want=lambda s: s.partner is not None,
                   doublers=1)
    picker_example("sheepshead-called-ace-under-finished", ca, 505, five,
                   want=lambda s: s.under is not None, tries=3000)
    picker_example("sheepshead-called-ace-unfinished", ca, 606, five, cut=10,
                   want=lambda s: s.partner is not None)
    picker_example("sheepshead-alone-finished", make_game("sheepshead", partner="alone"), 707, five)
    everyone_alone_example("leaster-finished", make_game("leaster"), 808, five)
    everyone_alone_example("leaster-4-midtrick", make_game("leaster", seats=4), 809, WISCONSIN[:4], cut=10)
    picker_example("sheepshead-3-finished", make_game("sheepshead-3"), 909, WISCONSIN[:3])
    picker_example("sheepshead-4-midtrick", make_game("sheepshead-4"), 1010, WISCONSIN[:4], cut=14)

    four = BAVARIA
    contract_example("sauspiel-finished", make_game("sauspiel"), 1111, four, kontra=True)
    contract_example("sauspiel-midtrick", make_game("sauspiel"), 1212, four, cut=11)
    contract_example("solo-hearts-midtrick", make_game("solo", trump="H"), 1313, four, cut=14)
    contract_example("solo-acorns-finished", make_game("solo", trump="C"), 1414, four)
    contract_example("wenz-finished", make_game("wenz"), 1515, four)
    contract_example("geier-finished", make_game("geier"), 1616, four)
    contract_example("farbwenz-leaves-finished", make_game("farbwenz", trump="S"), 1717, four, min_value=45, max_value=60,
                     comment="A Farbwenz that fails: the declarer's best line still leaves him short "
                             "(examples/generate.py, every card double-dummy best)")
    contract_example("farbgeier-bells-finished", make_game("farbgeier", trump="D"), 1818, four)
    contract_example("wenz-tout-finished", make_game("wenz", tout=True), 1919, four, want=takes_every_trick,
                     tries=5000)
    contract_example("sie", make_game("sie"), 2020, four, hands_fn=sie_hands)
    everyone_alone_example("ramsch-finished", make_game("ramsch"), 2121, four)
    contract_example("sauspiel-short-deck-finished", make_game("sauspiel", deck="short"), 2222, four)
    contract_example("solo-3-player-finished", make_game("solo", trump="S", seats=3), 2323, four[:3])
    contract_example("wenz-3-player-midtrick", make_game("wenz", seats=3), 2424, four[:3], cut=8)
    contract_example("sauspiel-gametwist-finished", make_game("sauspiel", rules={"preset": "gametwist"}), 2525,
                     four)
    contract_example("geier-gametwist-midtrick", make_game("geier", rules={"preset": "gametwist"}), 2626, four,
                     cut=6)
    partial()
    skat()


def skat() -> None:
    """Skat (grand, a suit game, null) and Schafkopf's Bettel."""
    three = ["Ann", "Bob", "Cal"]
    picker_example("skat-grand-finished", make_game("grand"), 2727, three)
    picker_example("skat-hearts-finished", make_game("skat", trump="H"), 2828, three)
    picker_example("skat-null-finished", make_game("null"), 2929, three, want=lambda s: _value(s) == 0)
    contract_example("bettel-finished", make_game("bettel"), 3030, BAVARIA, min_value=0, max_value=0)


def partial() -> None:
    """Keep only the picker's hand (and the blind and bury) of ``sheepshead-jd-partial``."""
    path = HERE / "sheepshead-jd-partial.toml"
    rec = load_record(path)
    d = rec.to_dict()
    picker = d["picker"]
    d["hands"] = {picker: d["hands"][picker]}
    d["comment"] = ("Only the picker's hand is known, as he would write it down after the hand; the other cards "
                    "are those the play shows (examples/generate.py)")
    rec = record_from_dict(d)
    path.write_text(dump_record(rec), encoding="utf-8")
    assert load_record(path) == rec


if __name__ == "__main__":
    main()
