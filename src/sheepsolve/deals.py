"""Seeded random deals and positions for every game: tests, benchmarks and sampling build on them.

>>> import random
>>> from sheepsolve.games import make_game
>>> st = random_setup(make_game("sheepshead", partner="called-ace"), random.Random(3))
>>> sum(len(h) for h in st.hands)
30
>>> s = random_position(st, random.Random(4), cards_left=3)
>>> len(s.tricks)
3
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .engine import Setup, State, legal_calls
from .games import Game, make_game

__all__ = ["deal", "random_setup", "random_position", "game_forms"]


def deal(game: Game, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle the game's deck: hands as dealt, and the blind."""
    cards = list(game.deck)
    rng.shuffle(cards)
    k = game.hand_size
    hands = [sorted(cards[i * k:(i + 1) * k]) for i in range(game.seats)]
    return hands, sorted(cards[game.seats * k:])


def random_setup(game: Game, rng: random.Random, *, declarer: int | None = None,
                 hands: Sequence[Sequence[Card]] | None = None, blind: Sequence[Card] | None = None) -> Setup:
    """A random legal setup: deal, a picker or declarer, a random legal bury and call."""
    if hands is None:
        hs, bl = deal(game, rng)
    else:
        hs, bl = [list(h) for h in hands], list(blind or [])
    if game.kind in ("leaster", "ramsch"):
        return Setup.create(game, hs, blind=bl)
    if declarer is None:
        declarer = rng.randrange(game.seats)
    if game.kind == "contract":
        called = None
        if game.partner == "sauspiel":
            for _ in range(50):
                calls = legal_calls(game, hs[declarer])
                if calls:
                    called = rng.choice(calls).card
                    break
                hs, bl = deal(game, rng)  # no callable ace: deal again
            else:  # pragma: no cover - vanishingly rare
                raise RuntimeError("no sauspiel deal found")
        return Setup.create(game, hs, declarer=declarer, called=called)
    # picker games
    picked = hs[declarer] + bl
    for _ in range(200):
        bury = rng.sample(picked, game.bury_size)
        kept = [c for c in picked if c not in bury]
        if game.partner != "called-ace":
            return Setup.create(game, hs, declarer=declarer, blind=bl, bury=bury)
        calls = legal_calls(game, kept, bury)
        call = rng.choice(calls)
        if call.card is None:
            return Setup.create(game, hs, declarer=declarer, blind=bl, bury=bury, alone=True)
        under = rng.choice(kept) if call.under else None
        return Setup.create(game, hs, declarer=declarer, blind=bl, bury=bury, called=call.card, under=under)
    raise RuntimeError("no legal bury found")  # pragma: no cover


def random_position(setup: Setup, rng: random.Random, *, cards_left: int, extra: int = 0) -> State:
    """Play random legal cards from the start until each hand holds ``cards_left`` cards, then ``extra`` more
    (a mid-trick position when ``0 < extra < seats``)."""
    s = setup.start()
    target = setup.game.hand_size - cards_left
    while len(s.tricks) < target:
        s = s.play(rng.choice(s.legal()))
    for _ in range(extra):
        if s.finished:
            break
        s = s.play(rng.choice(s.legal()))
    return s


def game_forms() -> list[Game]:
    """One game of every form the solver must handle: each partner rule, each contract, both decks."""
    out = [
        make_game("sheepshead"),
        make_game("sheepshead", partner="called-ace"),
        make_game("sheepshead", partner="called-ace", rules={"run": True}),
        make_game("sheepshead", partner="alone"),
        make_game("sheepshead", rules={"call_up": True}),
        make_game("sheepshead", rules={"bury_needs_trick": True}),
        make_game("leaster"),
        make_game("leaster", rules={"leaster_blind": "first"}),
        make_game("sheepshead-3"),
        make_game("sheepshead-4"),
        make_game("sauspiel"),
        make_game("sauspiel", deck="short"),
        make_game("sauspiel", rules={"called_throw_off_last_only": False, "run_min": 3}),
        make_game("ramsch"),
    ]
    for t in "CSHD":
        out.append(make_game("solo", trump=t))
    out += [make_game("solo", trump="H", deck="short"), make_game("wenz"), make_game("geier"),
            make_game("farbwenz", trump="S"), make_game("farbgeier", trump="D"), make_game("solo", trump="C", seats=3),
            make_game("wenz", seats=3), make_game("wenz", deck="short")]
    return out


