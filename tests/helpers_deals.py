"""Small seeded deals for the tests that check the player's view against the pure-Python reference."""

from __future__ import annotations

import random

from sheepsolve.deals import random_setup
from sheepsolve.engine import Setup
from sheepsolve.games import make_game


def small_setup(name: str, kw: dict, k: int, seed: str) -> Setup:
    """A setup of game ``name`` (``make_game`` keywords ``kw``) with ``k`` cards a hand, dealt from ``seed``."""
    g = make_game(name, **kw)
    rng = random.Random(seed)
    while True:
        cards = list(g.deck)
        rng.shuffle(cards)
        hands = [cards[i * k:(i + 1) * k] for i in range(g.seats)]
        blind = cards[g.seats * k:g.seats * k + g.blind_size] if g.kind in ("picker", "leaster") else []
        try:
            st = random_setup(g, rng, hands=hands, blind=blind)
        except Exception:
            continue
        if len(st.hands[0]) == k:  # (random_setup deals afresh, full hands, when no ace can be called)
            return st
