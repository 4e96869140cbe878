"""Helpers for the scoring tests: deals laid out trick by trick, and random legal play-outs of every game.

A *layout* is the list of tricks of a hand, each trick a string of one card per seat in seat order. The hands
at the first lead are read off the layout, the engine then plays every trick (it checks each card, so a layout
that breaks a rule raises), and each trick's leader is whoever won the one before. Layouts whose tricks each hold
cards of one suit class only are legal in any order, so the winner of every trick can be chosen freely: give
that seat the trick's top card (:func:`seat_order`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from sheepsolve.cards import Card, parse_cards
from sheepsolve.engine import Setup, State, legal_calls
from sheepsolve.games import Game

__all__ = ["seat_order", "hands_from_layout", "play_layout", "build", "deal_with", "random_setup",
           "random_playout"]


def seat_order(cards: str, winner: int, n: int) -> str:
    """A trick given top card first, as seat-ordered text: the top card to ``winner``, the rest in seat order.

    >>> seat_order("QC JD 7D", 2, 3)
    'JD 7D QC'
    """
    cs = cards.split()
    if len(cs) != n:
        raise ValueError(f"{cards!r}: need {n} cards")
    out = [""] * n
    out[winner] = cs[0]
    rest = iter(cs[1:])
    for s in range(n):
        if s != winner:
            out[s] = next(rest)
    return " ".join(out)


def hands_from_layout(n: int, layout: Sequence[str]) -> list[list[Card]]:
    hands: list[list[Card]] = [[] for _ in range(n)]
    for t in layout:
        cs = parse_cards(t)
        if len(cs) != n:
            raise ValueError(f"trick {t!r}: need {n} cards")
        for s, c in enumerate(cs):
            hands[s].append(c)
    return hands


def play_layout(setup: Setup, layout: Sequence[str]) -> State:
    """Play the layout's tricks in order; each trick is led by the previous trick's winner."""
    state = setup.start()
    n = setup.game.seats
    for t in layout:
        cs = parse_cards(t)
        for _ in range(n):
            state = state.play(cs[state.to_move])
    return state


def build(game: Game, layout: Sequence[str], *, declarer: int | None = None, bury: str = "",
          blind: str = "", called: str | None = None, alone: bool = False) -> State:
    """The finished state of a layout. Sheepshead: the picker's blind is the ``bury`` (he buries what he
    picked up), so the hands as dealt are the hands of the layout. Leaster: ``blind`` is the blind."""
    hands = hands_from_layout(game.seats, layout)
    if game.kind == "picker":
        b = parse_cards(bury)
        setup = Setup.create(game, hands, declarer=declarer, blind=b, bury=b, alone=alone,
                             called=Card.parse(called) if called else None)
    else:
        setup = Setup.create(game, hands, declarer=declarer, blind=parse_cards(blind),
                             called=Card.parse(called) if called else None, alone=alone)
    state = play_layout(setup, layout)
    assert state.finished, "the layout does not play every card"
    return state


def deal_with(game: Game, fixed: Mapping[int, str], seed: int = 0) -> list[list[Card]]:
    """Hands with the ``fixed`` cards per seat, the rest of the deck dealt at random (seeded)."""
    rng = random.Random(seed)
    hands = [parse_cards(fixed.get(s, "")) for s in range(game.seats)]
    used = {c for h in hands for c in h}
    rest = [c for c in game.deck if c not in used]
    rng.shuffle(rest)
    for h in hands:
        while len(h) < game.hand_size:
            h.append(rest.pop())
    return hands


def random_setup(game: Game, rng: random.Random) -> Setup:
    """A random deal of ``game`` with a random declarer, bury and partner call, as the rules allow."""
    n, size = game.seats, game.hand_size
    while True:
        deck = list(game.deck)
        rng.shuffle(deck)
        hands = [deck[i * size:(i + 1) * size] for i in range(n)]
        blind = deck[n * size:]
        if game.kind == "picker":
            d = rng.randrange(n)
            pool = hands[d] + blind
            bury = rng.sample(pool, game.bury_size)
            kept = [c for c in pool if c not in bury]
            called = under = None
            alone = False
            if game.partner == "called-ace":
                call = rng.choice(legal_calls(game, kept, bury))
                if call.card is None:
                    alone = True
                else:
                    called = call.card
                    under = rng.choice(kept) if call.under else None
            elif game.partner == "jack-of-diamonds":
                alone = rng.random() < 0.2
            return Setup.create(game, hands, declarer=d, blind=blind, bury=bury, called=called, under=under,
                                alone=alone)
        if game.kind == "leaster":
            return Setup.create(game, hands, blind=blind)
        if game.kind == "ramsch":
            return Setup.create(game, hands)
        if game.sie:
            top = [c for c in game.trumps if c.rank in "QJ"]
            others = [c for c in deck if c not in top]
            d = rng.randrange(n)
            hands = [others[i * size:(i + 1) * size] for i in range(n - 1)]
            hands.insert(d, top[:size])
            return Setup.create(game, hands, declarer=d)
        if game.partner == "sauspiel":
            seats = list(range(n))
            rng.shuffle(seats)
            for d in seats:
                calls = legal_calls(game, hands[d])
                if calls:
                    return Setup.create(game, hands, declarer=d, called=rng.choice(calls).card)
            continue  # nobody can call: deal again
        return Setup.create(game, hands, declarer=rng.randrange(n))


def random_playout(setup: Setup, rng: random.Random) -> State:
    """Random legal cards until the hand is over."""
    state = setup.start()
    while not state.finished:
        state = state.play(rng.choice(state.legal()))
    return state
