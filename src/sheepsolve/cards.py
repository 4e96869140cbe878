"""Cards, card sets and notation.

A card is a small integer ``suit * 8 + rank`` with suits ``C S H D`` (0-3) and ranks ``A T K Q J 9 8 7``
(0-7), so a set of cards is a 32-bit mask. :class:`Card` is an ``int`` that prints itself.

>>> c = Card.parse("10♣")
>>> c, c.points, c.suit, c.rank
(Card('TC'), 10, 'C', 'T')
>>> [str(x) for x in parse_cards("qc JH ad")]
['QC', 'JH', 'AD']
>>> str(Card.parse("EO", german=True))
'QC'
>>> format_cards(parse_cards("QC 7D"), style="symbols")
'Q♣ 7♦'
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable

from .files import clip

__all__ = [
    "SUITS",
    "RANKS",
    "POINTS",
    "Card",
    "CardError",
    "parse_cards",
    "format_card",
    "format_cards",
    "mask_of",
    "cards_of",
    "ALL_CARDS",
    "use_color",
]

SUITS = "CSHD"
RANKS = "ATKQJ987"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
# German-suited names, accepted only on request: suit letter first (Eichel, Gras, Herz, Schellen).
GERMAN_SUITS = {"E": "C", "G": "S", "B": "S", "H": "H", "S": "D"}
GERMAN_SUIT_NAMES = {"EICHEL": "C", "GRAS": "S", "BLATT": "S", "LAUB": "S", "HERZ": "H", "SCHELLEN": "D",
                     "SCHELLN": "D"}
GERMAN_RANKS = {"A": "A", "S": "A", "SAU": "A", "DAUS": "A", "Z": "T", "10": "T", "ZEHN": "T", "ZEHNER": "T",
                "K": "K", "KOENIG": "K", "KÖNIG": "K", "KINI": "K", "O": "Q", "OBER": "Q", "U": "J",
                "UNTER": "J", "9": "9", "8": "8", "7": "7", "NEUN": "9", "ACHT": "8", "SIEBEN": "7"}


class CardError(ValueError):
    """A card or a list of cards could not be read."""


class Card(int):
    """One card: an ``int`` in 0..31 that prints as ``QC``, ``TS``, ``7D``."""

    __slots__ = ()
    _cache: list["Card"] = []

    def __new__(cls, index: int) -> "Card":
        if cls._cache:
            if not 0 <= index < 32:
                raise CardError(f"card index {index} out of range 0..31")
            return cls._cache[index]
        return super().__new__(cls, index)

    @classmethod
    def make(cls, rank: str, suit: str) -> "Card":
        """The card of ``rank`` (one of ``ATKQJ987``) and ``suit`` (one of ``CSHD``)."""
        if not (isinstance(rank, str) and len(rank) == 1 and rank in RANKS
                and isinstance(suit, str) and len(suit) == 1 and suit in SUITS):
            raise CardError(f"no card of rank {clip(repr(rank))} and suit {clip(repr(suit))}: ranks A T K Q J 9 8 7, "
                            "suits C S H D")
        return cls._cache[SUITS.index(suit) * 8 + RANKS.index(rank)]

    @property
    def suit(self) -> str:
        return SUITS[self >> 3]

    @property
    def rank(self) -> str:
        return RANKS[self & 7]

    @property
    def points(self) -> int:
        return POINTS[RANKS[self & 7]]

    @property
    def bit(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        return RANKS[self & 7] + SUITS[self >> 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @classmethod
    def parse(cls, text: str, *, german: bool = False) -> "Card":
        """Read one card: ``QC``, ``qc``, ``10♣``, ``T♣``; with ``german=True`` also ``EO``, ``Herz-Sau``."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string, not {type(text).__name__}")
        t = text.strip()
        if german:
            card = _parse_german(t)
            if card is not None:
                return card
        u = t.upper()
        if len(u) >= 2:
            rank_part, suit_part = u[:-1], u[-1]
            suit_part = _SYMBOL_TO_SUIT.get(suit_part, suit_part)
            if rank_part == "10":
                rank_part = "T"
            if len(rank_part) == 1 and rank_part in RANKS and suit_part in SUITS:
                return cls.make(rank_part, suit_part)
        hint = " (German names need the German option)" if not german and _parse_german(t) is not None else ""
        raise CardError(f"unknown card {clip(repr(text))}{hint}: write rank then suit, ranks A K Q J T 9 8 7, "
                    "suits C S H D")


Card._cache = [Card(i) for i in range(32)]
ALL_CARDS: tuple[Card, ...] = tuple(Card._cache)


def _parse_german(t: str) -> Card | None:
    u = t.upper()
    parts = [p for p in re.split(r"[-\s_]+", u) if p]
    if len(parts) == 2 and parts[0] in GERMAN_SUIT_NAMES and parts[1] in GERMAN_RANKS:
        return Card.make(GERMAN_RANKS[parts[1]], GERMAN_SUIT_NAMES[parts[0]])
    if len(parts) == 1 and len(u) >= 2 and u[0] in GERMAN_SUITS and u[1:] in GERMAN_RANKS:
        return Card.make(GERMAN_RANKS[u[1:]], GERMAN_SUITS[u[0]])
    return None


def parse_cards(text: str | Iterable[str], *, german: bool = False) -> list[Card]:
    """Read a list of cards separated by spaces or commas (or an iterable of card strings)."""
    if isinstance(text, str):
        items = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    else:
        items = list(text)
    return [Card.parse(p, german=german) for p in items]


def use_color(stream=None) -> bool:
    """Whether to color output: only on a terminal, and never when NO_COLOR is set."""
    stream = stream if stream is not None else sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except Exception:  # pragma: no cover - exotic streams
        return False


_RED = "\x1b[31m"
_RESET = "\x1b[0m"


def format_card(card: Card, style: str = "ascii") -> str:
    """``ascii`` gives ``QC``; ``symbols`` gives ``Q♣``; ``color`` gives symbols with red hearts and diamonds.

    >>> format_card(Card.parse("QC"), "fancy")
    Traceback (most recent call last):
    ...
    ValueError: card style 'fancy': use one of ascii, symbols, color
    """
    if style == "ascii":
        return str(card)
    if style not in ("symbols", "color"):
        raise ValueError(f"card style {clip(repr(style))}: use one of ascii, symbols, color")
    s = card.rank + SUIT_SYMBOLS[card.suit]
    if style == "color" and card.suit in "HD":
        return _RED + s + _RESET
    return s


def format_cards(cards: Iterable[Card], style: str = "ascii", sep: str = " ") -> str:
    return sep.join(format_card(c, style) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(Card._cache[low.bit_length() - 1])
        mask ^= low
    return out
