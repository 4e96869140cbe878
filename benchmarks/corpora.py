"""Seeded deal corpora for the benchmarks, DDS-style (``list10``, ``list100``, ...): the same deals every run."""

from __future__ import annotations

import random

from sheepsolve.deals import random_setup
from sheepsolve.engine import State
from sheepsolve.games import Game, make_game

CORPORA: dict[str, tuple[str, dict]] = {
    "sheepshead-jd": ("sheepshead", {}),
    "sheepshead-called-ace": ("sheepshead", {"partner": "called-ace"}),
    "sheepshead-alone": ("sheepshead", {"partner": "alone"}),
    "sheepshead-3": ("sheepshead-3", {}),
    "sauspiel": ("sauspiel", {}),
    "solo": ("solo", {"trump": "H"}),
    "wenz": ("wenz", {}),
    "geier": ("geier", {}),
    "sauspiel-short": ("sauspiel", {"deck": "short"}),
    "ramsch": ("ramsch", {}),
    "leaster": ("leaster", {}),
    # Skat: full 10-card deals from the first lead, a random declarer and a random discard of his 12 cards
    "skat-grand": ("grand", {}),
    "skat-hearts": ("skat", {"trump": "H"}),
    "skat-null": ("null", {}),
    "bettel": ("bettel", {}),
}
# Ramsch and leaster have no sides: deal i is solved for seat i % seats (corpus_seat), against everyone else.
SEATED = {"ramsch", "leaster"}


def corpus_threshold(name: str) -> int:
    """The threshold of the corpus's yes/no question (``reach61``; ``reach1`` in null and Bettel, where the
    value is the declarer's tricks: does he take one)."""
    return 1 if corpus_game(name).no_trick else 61


def corpus_game(name: str) -> Game:
    game, kw = CORPORA[name]
    return make_game(game, **kw)


def corpus_seat(name: str, i: int) -> int | None:
    """The seat deal ``i`` of corpus ``name`` is solved for: ``i % seats`` in ramsch and leaster, else None (the
    declaring side)."""
    return i % corpus_game(name).seats if name in SEATED else None


def corpus(name: str, size: int, seed: int = 2026) -> list[State]:
    """``size`` full deals of corpus ``name`` at the first lead; deal ``i`` is the same for every size."""
    g = corpus_game(name)
    out = []
    for i in range(size):
        rng = random.Random(f"{name}/{seed}/{i}")
        out.append(random_setup(g, rng).start())
    return out
