"""Compact features of a hand, by bitmask arithmetic: the keys of the model's tables and the terms of a bury.

A hand is a mask of card bits (``1 << card``); every count is a ``bit_count`` of the hand and a mask of the game
(:func:`hand_masks`, computed once per game), so a hand's terms cost a few microseconds.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> g = make_game("wenz")
>>> f = features(g, parse_cards("JC JS JD AC TC 7C AS QH"))
>>> f.trumps, f.high, f.second, f.run, f.aces, f.tens, f.voids, f.points
(3, 3, 0, 2, 2, 1, 1, 41)
>>> table_key(f), hand_key(hand_masks(g), mask_of_hand(parse_cards("JC JS JD AC TC 7C AS QH")))
((3, 3, 0, 0, 2, 1, 2), (3, 3, 0, 0, 2, 1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..cards import Card
from ..games import REGISTRY, Game

__all__ = [
    "BURY_TERMS",
    "HandFeatures",
    "HandMasks",
    "features",
    "hand_masks",
    "hand_key",
    "table_key",
    "TABLE_LEVELS",
    "bury_terms",
    "mask_of_hand",
    "per_game",
    "key_masks",
    "atoms",
    "atom_counts",
]

BURY_TERMS = ("kept_trumps", "kept_high", "kept_second", "kept_aces", "kept_voids", "bury_points/10",
              "bury_trumps", "call_suit", "call_ten", "alone", "under", "kept_jd")
"""The terms of a bury choice's expected payment, relative to the picker's other choices of the same cards (the
softmax needs only the differences): the kept hand's trumps, highest trumps, plain aces and voids, the points and
trumps buried, the called suit's cards kept, a called ten, going alone, a card under, keeping the jack of diamonds."""

T = TypeVar("T")


def per_game(fn: Callable[[Game], T]) -> Callable[[Game], T]:
    """Cache ``fn(game)`` per game object (a :class:`Game` is not hashable: its rules are a mapping)."""
    cache: dict[int, tuple[Game, Any]] = {}

    def cached(game: Game) -> T:
        hit = cache.get(id(game))
        if hit is not None and hit[0] is game:
            return hit[1]
        if len(cache) > 256:
            cache.clear()
        value = fn(game)
        cache[id(game)] = (game, value)
        return value

    cached.__doc__ = fn.__doc__
    return cached


@dataclass(frozen=True)
class HandMasks:
    """A game's masks: trumps, the first and second top rank's trumps, the trumps high to low, the plain suits
    (trumps taken out) and their letters, plain aces and tens, the cards of each point value, the jack of
    diamonds (Sheepshead; 0 elsewhere)."""

    trumps: int
    high: int
    second: int
    order: tuple[int, ...]
    suits: tuple[int, ...]
    suit_of: tuple[str, ...]
    aces: int
    tens: int
    p11: int
    p10: int
    p4: int
    p3: int
    p2: int
    jd: int


@per_game
def hand_masks(game: Game) -> HandMasks:
    """The :class:`HandMasks` of ``game`` (cached per game)."""
    tops = REGISTRY[game.name].top_trumps

    def mask(pred: Callable[[Card], bool]) -> int:
        return sum(1 << c for c in game.deck if pred(c))

    return HandMasks(
        trumps=game.trump_mask,
        high=sum(1 << c for c in game.trumps if tops and c.rank == tops[0]),
        second=sum(1 << c for c in game.trumps if len(tops) > 1 and c.rank == tops[1]),
        order=tuple(1 << c for c in game.trumps),
        suits=tuple(mask(lambda c, s=s: game.suit_class(c) == s) for s in game.plain_suits),
        suit_of=tuple(game.plain_suits),
        aces=mask(lambda c: c.rank == "A" and not game.is_trump(c)),
        tens=mask(lambda c: c.rank == "T" and not game.is_trump(c)),
        p11=mask(lambda c: c.points == 11), p10=mask(lambda c: c.points == 10), p4=mask(lambda c: c.points == 4),
        p3=mask(lambda c: c.points == 3), p2=mask(lambda c: c.points == 2),
        jd=(1 << Card.make("J", "D")) if game.family == "sheepshead" else 0)


@dataclass(frozen=True)
class HandFeatures:
    """Compact features of a hand under a game's trumps: ``trumps``; ``high`` and ``second`` (the trumps of the
    first and second top rank: Ober and Unter, queens and jacks; wenz and geier have only ``high``); ``run`` (the
    trumps held from the highest down without a gap, Laufende with); plain ``aces`` and ``tens``; ``voids`` (plain
    suits without a card); card ``points``; ``jd`` (the jack of diamonds, Sheepshead)."""

    trumps: int
    high: int
    second: int
    run: int
    aces: int
    tens: int
    voids: int
    points: int
    jd: int


def mask_of_hand(hand: Iterable[Card] | int) -> int:
    """A hand as a mask of card bits (a mask is returned as it is)."""
    if isinstance(hand, int):
        return hand
    m = 0
    for c in hand:
        m |= 1 << c
    return m


def _run(m: HandMasks, h: int) -> int:
    run = 0
    for bit in m.order:
        if not h & bit:
            break
        run += 1
    return run


def _points(m: HandMasks, h: int) -> int:
    return (11 * (h & m.p11).bit_count() + 10 * (h & m.p10).bit_count() + 4 * (h & m.p4).bit_count()
            + 3 * (h & m.p3).bit_count() + 2 * (h & m.p2).bit_count())


def features(game: Game, hand: Iterable[Card] | int) -> HandFeatures:
    """The :class:`HandFeatures` of ``hand`` (cards, or a mask of card bits) under ``game``'s trumps."""
    m, h = hand_masks(game), mask_of_hand(hand)
    return HandFeatures(trumps=(h & m.trumps).bit_count(), high=(h & m.high).bit_count(),
                        second=(h & m.second).bit_count(), run=_run(m, h), aces=(h & m.aces).bit_count(),
                        tens=(h & m.tens).bit_count(), voids=sum(1 for s in m.suits if not h & s),
                        points=_points(m, h), jd=1 if h & m.jd else 0)


TABLE_LEVELS = ("trumps", "high", "second", "suit", "aces", "voids", "run")
"""The table of expected payments is keyed on these, level by level: the first ``i`` of them at level ``i``
(``run`` counted up to 4; ``suit``: the called Sau's suit held, 0 outside a Sauspiel)."""


def table_key(f: HandFeatures, suit: int = 0) -> tuple[int, ...]:
    """The full key of :data:`TABLE_LEVELS` of a hand's features."""
    return (f.trumps, f.high, f.second, suit, f.aces, f.voids, min(f.run, 4))


def hand_key(m: HandMasks, h: int, suit: int = 0) -> tuple[int, ...]:
    """:func:`table_key` of the hand mask ``h`` straight from the masks (the fast path)."""
    voids = 0
    for s in m.suits:
        if not h & s:
            voids += 1
    run = _run(m, h)
    return ((h & m.trumps).bit_count(), (h & m.high).bit_count(), (h & m.second).bit_count(), suit,
            (h & m.aces).bit_count(), voids, run if run < 4 else 4)


def key_masks(m: HandMasks) -> tuple[int, ...]:
    """The masks :func:`hand_key` reads a hand through: trumps, each top rank, plain aces, each plain suit, and
    each of the four highest trumps (the Laufende it counts stop at 4)."""
    return (m.trumps, m.high, m.second, m.aces) + m.suits + m.order[:4]


def atoms(masks: Iterable[int], deck: int) -> tuple[int, ...]:
    """The finest split of the cards of ``deck`` (a mask) into parts of which every mask of ``masks`` is a union:
    two cards share a part when every mask holds both or neither. Whatever counts cards of a hand through these
    masks is a function of how many cards of each part the hand holds (:func:`atom_counts`).

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> parts = atoms(key_masks(hand_masks(g)) + (hand_masks(g).jd,), mask_of_hand(g.deck))
    >>> len(parts), sum(p.bit_count() for p in parts)       # four queens, JD, the other jacks, diamonds, 3 x 2
    (13, 32)
    """
    masks = tuple(masks)
    parts: dict[tuple[int, ...], int] = {}
    for i in range(32):
        if deck >> i & 1:
            sig = tuple(m >> i & 1 for m in masks)
            parts[sig] = parts.get(sig, 0) | 1 << i
    return tuple(sorted(parts.values()))


def atom_counts(parts: tuple[int, ...], h: int) -> tuple[int, ...]:
    """How many cards of each part of :func:`atoms` the hand mask ``h`` holds."""
    return tuple([(h & a).bit_count() for a in parts])


def bury_terms(game: Game, picked: int, bury: int, called: Card | None, alone: bool, under: bool
               ) -> tuple[float, ...]:
    """The values of :data:`BURY_TERMS` for one choice of a picker holding ``picked`` (a mask: hand and blind)."""
    m = hand_masks(game)
    kept = picked & ~bury
    suit = ten = 0
    if called is not None:
        s = m.suit_of.index(called.suit) if called.suit in m.suit_of else -1
        suit = (kept & m.suits[s]).bit_count() if s >= 0 else 0
        ten = 1 if called.rank == "T" else 0
    voids = 0
    for s in m.suits:
        if not kept & s:
            voids += 1
    return ((kept & m.trumps).bit_count(), (kept & m.high).bit_count(), (kept & m.second).bit_count(),
            (kept & m.aces).bit_count(), voids, _points(m, bury) / 10, (bury & m.trumps).bit_count(), suit, ten,
            1 if alone else 0, 1 if under else 0, 1 if kept & m.jd else 0)
