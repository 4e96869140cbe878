"""Cards, card sets and notation.

A card is a small integer ``suit * 8 + rank`` with suits ``C S H D`` (0-3) and ranks ``A T K Q J 9 8 7``
(0-7), so a set of cards is a 32-bit mask. :class:`Card` is an ``int`` that prints itself.

>>> c = Card.parse("10♣")
>>> c, c.points, c.suit, c.rank
(Card('TC'), 10, 'C', 'T')
>>> [str(x) for x in parse_cards("qc JH ad")]
['QC', 'JH', 'AD']
>>> str(Card.parse("EO")), str(Card.parse("Herz-Sau"))
('QC', 'AH')
>>> format_cards(parse_cards("QC 7D"), style="symbols")
'Q♣ 7♦'
>>> format_cards(parse_cards("QC 7D TS AH"), style="german")
'EO S7 G10 HA'
>>> card_name(Card.parse("QC"), "german"), card_name(Card.parse("QC"), "symbols")
('Eichel-Ober', 'queen of clubs')

Three notations for people (``--cards``): ``german`` (Eichel, Gras, Herz, Schellen; Ober, Unter, Sau: the
Schafkopf default), ``french`` (clubs, spades, hearts, diamonds with their symbols: the Sheepshead default) and
``ascii``. :func:`card_style` turns one of them, the game and whether to color into a style of
:func:`format_card`. JSON always uses the canonical ASCII names (``QC``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from .files import clip

__all__ = [
    "SUITS",
    "RANKS",
    "POINTS",
    "Card",
    "CardError",
    "SuitError",
    "parse_cards",
    "parse_suit",
    "written_notation",
    "notation_of_cards",
    "in_notation",
    "format_card",
    "format_cards",
    "mask_of",
    "cards_of",
    "ALL_CARDS",
    "use_color",
    "CARD_STYLES",
    "NOTATIONS",
    "card_style",
    "notation_of",
    "card_name",
    "suit_name",
    "suit_title",
    "rank_label",
]

SUITS = "CSHD"
RANKS = "ATKQJ987"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
# German-suited names: suit letter first (Eichel, Gras, Herz, Schellen), read wherever a card is read.
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
    def parse(cls, text: str, *, german: bool = False, notation: str | None = None) -> "Card":
        """Read one card in either notation: French rank then suit (``QC``, ``qc``, ``10♣``, ``T♣``) or German suit
        then rank (``EO``, ``H10``, ``Herz-Sau``). The two cannot be confused: a French card starts with a rank
        (``A T K Q J 9 8 7 1``), a German one with a suit (``E G B H S``). ``notation`` (``german`` or ``french``)
        only chooses the hint of an error; ``german`` is kept for callers and changes nothing."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string, not {type(text).__name__}")
        t = text.strip()
        card = _parse_french(t)
        if card is None:
            card = _parse_german(t)
        if card is not None:
            return card
        if notation == "german":
            raise CardError(f"unknown card {clip(repr(text))}: write suit then rank, suits E G H S (Eichel, Gras, "
                            "Herz, Schellen), ranks A 10 K O U 9 8 7")
        raise CardError(f"unknown card {clip(repr(text))}: write rank then suit, ranks A K Q J T 9 8 7, "
                        "suits C S H D")


Card._cache = [Card(i) for i in range(32)]
ALL_CARDS: tuple[Card, ...] = tuple(Card._cache)


def _parse_french(t: str) -> Card | None:
    u = t.upper()
    if len(u) < 2:
        return None
    rank_part, suit_part = u[:-1], _SYMBOL_TO_SUIT.get(u[-1], u[-1])
    if rank_part == "10":
        rank_part = "T"
    if len(rank_part) == 1 and rank_part in RANKS and suit_part in SUITS:
        return Card.make(rank_part, suit_part)
    return None


def _parse_german(t: str) -> Card | None:
    u = t.upper()
    parts = [p for p in re.split(r"[-\s_]+", u) if p]
    if len(parts) == 2 and parts[0] in GERMAN_SUIT_NAMES and parts[1] in GERMAN_RANKS:
        return Card.make(GERMAN_RANKS[parts[1]], GERMAN_SUIT_NAMES[parts[0]])
    if len(parts) == 1 and len(u) >= 2 and u[0] in GERMAN_SUITS and u[1:] in GERMAN_RANKS:
        return Card.make(GERMAN_RANKS[u[1:]], GERMAN_SUITS[u[0]])
    return None


def written_notation(text: str) -> str | None:
    """The notation a card is written in: ``french`` (rank then suit), ``german`` (suit then rank), or ``None``
    when ``text`` is not a card.

    >>> written_notation("QC"), written_notation("10♠"), written_notation("EO"), written_notation("Herz-Sau")
    ('french', 'french', 'german', 'german')
    >>> written_notation("XX") is None
    True
    """
    if not isinstance(text, str):
        return None
    t = text.strip()
    if _parse_french(t) is not None:
        return "french"
    if _parse_german(t) is not None:
        return "german"
    return None


def notation_of_cards(texts: Iterable[Any]) -> str | None:
    """The notation cards are written in (``german`` or ``french``): the one of every card in ``texts`` that reads as
    a card (strings with several cards are split; other values are skipped); ``None`` when no card tells, or when
    both notations are used.

    >>> notation_of_cards(["EO HU", "SA"]), notation_of_cards(["QC", ["7D", "AS"]]), notation_of_cards(["EO QC"])
    ('german', 'french', None)
    """
    seen = set()
    stack = list(texts)
    while stack and len(seen) < 2:
        t = stack.pop()
        if isinstance(t, str):
            for word in re.split(r"[\s,]+", t.strip())[:64]:
                n = written_notation(word)
                if n:
                    seen.add(n)
        elif isinstance(t, (list, tuple)):
            stack.extend(t[:64])
        elif isinstance(t, Mapping):
            stack.extend(list(t.values())[:64])
    return seen.pop() if len(seen) == 1 else None


_CANONICAL_CARD = re.compile(r"(?<![\w.])([ATKQJ987])([CSHD])(?![\w])")
_CANONICAL_SUIT = re.compile(r"\bsuit ([CSHD])\b")


def in_notation(text: str, notation: str | None) -> str:
    """``text`` (a message naming cards canonically: ``8D``, ``suit C``) with its cards in ``notation``: a German
    record's errors name German cards.

    >>> in_notation("8D by Resi is a revoke: 8D does not follow suit C (KD in hand)", "german")
    'S8 by Resi is a revoke: S8 does not follow Eichel (SK in hand)'
    >>> in_notation("8D does not follow suit C", "french")
    '8D does not follow suit C'
    """
    if notation != "german":
        return text
    text = _CANONICAL_SUIT.sub(lambda m: GERMAN_NAME[m.group(1)], text)
    return _CANONICAL_CARD.sub(lambda m: format_card(Card.make(m.group(1), m.group(2)), "german"), text)


class SuitError(CardError):
    """A suit could not be read, or a suit letter means two suits (``S``) and nothing decides which."""


_SUIT_WORDS = {
    "C": "C", "♣": "C", "CLUBS": "C", "CLUB": "C", "E": "C", "EICHEL": "C", "ACORNS": "C",
    "♠": "S", "SPADES": "S", "SPADE": "S", "G": "S", "GRAS": "S", "GRÜN": "S", "GRUEN": "S", "B": "S",
    "BLATT": "S", "LAUB": "S", "LEAVES": "S",
    "H": "H", "♥": "H", "HEARTS": "H", "HEART": "H", "HERZ": "H", "ROT": "H",
    "D": "D", "♦": "D", "DIAMONDS": "D", "DIAMOND": "D", "SCHELLEN": "D", "SCHELLN": "D", "BELLS": "D",
}


def parse_suit(text: str, notation: str | None = None) -> str:
    """A suit (``C S H D``) written in either notation: a letter, a symbol or a name (``E``, ``Gras``, ``hearts``,
    ``♦``). ``S`` alone is spades in French and Schellen (diamonds) in German: ``notation`` decides, and without
    one it is refused, asking for the word.

    >>> parse_suit("Gras"), parse_suit("g"), parse_suit("♥"), parse_suit("Schellen"), parse_suit("S", "german")
    ('S', 'S', 'H', 'D', 'D')
    >>> parse_suit("S", "french")
    'S'
    >>> parse_suit("S")
    Traceback (most recent call last):
    ...
    sheepsolve.cards.SuitError: 'S' is Schellen in German cards and spades in French: write "Schellen" or "spades"
    """
    if not isinstance(text, str):
        raise SuitError(f"must be one of C S H D or a suit's name, not {type(text).__name__}")
    u = text.strip().upper()
    if u == "S":
        if notation == "german":
            return "D"
        if notation in ("french", "ascii"):
            return "S"
        raise SuitError("'S' is Schellen in German cards and spades in French: write \"Schellen\" or \"spades\"")
    if u in _SUIT_WORDS:
        return _SUIT_WORDS[u]
    raise SuitError(f"unknown suit {clip(repr(text))}: write one of C S H D, or the suit's name: Eichel, Gras, Herz, "
                    "Schellen (clubs, spades, hearts, diamonds)")


def parse_cards(text: str | Iterable[str], *, german: bool = False, notation: str | None = None) -> list[Card]:
    """Read a list of cards separated by spaces or commas (or an iterable of card strings), each in either
    notation (:meth:`Card.parse`)."""
    if isinstance(text, str):
        items = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    else:
        items = list(text)
    return [Card.parse(p, notation=notation) for p in items]


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


# Styles of format_card: a notation and whether to color it (only on a terminal).
CARD_STYLES = ("ascii", "symbols", "color", "german", "german-color")
# Notations a reader chooses (``--cards``).
NOTATIONS = ("german", "french", "ascii")
# German-suited: the suit letter first (as players write ``EO``, ``HA``), then O, U, A (Sau), 10, K, 9, 8, 7.
GERMAN_LETTER = {"C": "E", "S": "G", "H": "H", "D": "S"}
GERMAN_NAME = {"C": "Eichel", "S": "Gras", "H": "Herz", "D": "Schellen"}
GERMAN_RANK = {"A": "A", "T": "10", "K": "K", "Q": "O", "J": "U", "9": "9", "8": "8", "7": "7"}
GERMAN_RANK_NAME = {"A": "Sau", "T": "Zehn", "K": "König", "Q": "Ober", "J": "Unter", "9": "Neun", "8": "Acht",
                    "7": "Sieben"}
FRENCH_NAME = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
FRENCH_RANK_NAME = {"A": "ace", "T": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine", "8": "eight",
                    "7": "seven"}
SKAT_NAME = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}
"""Skat's German names of the French suits."""
SKAT_RANK_NAME = {"A": "Ass", "T": "Zehn", "K": "König", "Q": "Dame", "J": "Bube", "9": "Neun", "8": "Acht",
                  "7": "Sieben"}
"""Skat's German names of the French ranks."""
_GREEN, _YELLOW = "\x1b[32m", "\x1b[33m"
_GERMAN_COLOR = {"C": "", "S": _GREEN, "H": _RED, "D": _YELLOW}


def notation_of(style: str) -> str:
    """The notation (``german``, ``french``, ``ascii``) of a :func:`format_card` style.

    >>> notation_of("color"), notation_of("german-color"), notation_of("ascii")
    ('french', 'german', 'ascii')
    """
    _check_style(style)
    return "ascii" if style == "ascii" else "german" if style.startswith("german") else "french"


def card_style(notation: str | None, family: str = "sheepshead", *, color: bool = False) -> str:
    """The :func:`format_card` style for a reader's ``notation`` (``None``: the game family's own: German-suited
    for Schafkopf, French for Sheepshead and Skat), colored or not.

    >>> card_style(None, "schafkopf"), card_style(None, "sheepshead", color=True), card_style("ascii", "schafkopf")
    ('german', 'color', 'ascii')
    >>> card_style("english")
    Traceback (most recent call last):
    ...
    ValueError: card notation 'english': use one of german, french, ascii
    """
    if notation is None:
        notation = "german" if family == "schafkopf" else "french"
    if notation not in NOTATIONS:
        raise ValueError(f"card notation {clip(repr(notation))}: use one of {', '.join(NOTATIONS)}")
    if notation == "ascii":
        return "ascii"
    if notation == "german":
        return "german-color" if color else "german"
    return "color" if color else "symbols"


def _check_style(style: str) -> None:
    if style not in CARD_STYLES:
        raise ValueError(f"card style {clip(repr(style))}: use one of {', '.join(CARD_STYLES)}")


def format_card(card: Card, style: str = "ascii") -> str:
    """``ascii`` gives ``QC``; ``symbols`` gives ``Q♣`` (and ``10♠`` for the ten); ``color`` gives symbols with red hearts and diamonds;
    ``german`` gives ``EO`` (Eichel-Ober), ``german-color`` the same with green Gras, red Herz, yellow Schellen.

    >>> format_card(Card.parse("TD"), "german"), format_card(Card.parse("JS"), "german")
    ('S10', 'GU')
    >>> format_card(Card.parse("TS"), "symbols")
    '10♠'
    >>> format_card(Card.parse("QC"), "fancy")
    Traceback (most recent call last):
    ...
    ValueError: card style 'fancy': use one of ascii, symbols, color, german, german-color
    """
    if style == "ascii":
        return str(card)
    _check_style(style)
    if style.startswith("german"):
        s = GERMAN_LETTER[card.suit] + GERMAN_RANK[card.rank]
        color = _GERMAN_COLOR[card.suit] if style == "german-color" else ""
        return color + s + _RESET if color else s
    s = ("10" if card.rank == "T" else card.rank) + SUIT_SYMBOLS[card.suit]  # as the card shows it: 10♠
    if style == "color" and card.suit in "HD":
        return _RED + s + _RESET
    return s


def card_name(card: Card, style: str = "ascii", family: str | None = None) -> str:
    """The card in words: ``Eichel-Ober`` (German notation), ``queen of clubs`` (French and ASCII); a Skat card
    (``family = "skat"``) in French notation by Skat's German names, ``Kreuz-Bube``.

    >>> card_name(Card.parse("JC"), "symbols", "skat"), card_name(Card.parse("AD"), "ascii", "skat")
    ('Kreuz-Bube', 'Karo-Ass')
    """
    if notation_of(style) == "german":
        return f"{GERMAN_NAME[card.suit]}-{GERMAN_RANK_NAME[card.rank]}"
    if family == "skat":
        return f"{SKAT_NAME[card.suit]}-{SKAT_RANK_NAME[card.rank]}"
    return f"{FRENCH_RANK_NAME[card.rank]} of {FRENCH_NAME[card.suit]}"


def suit_name(suit: str, style: str = "ascii", family: str | None = None) -> str:
    """A suit (``C S H D``) in words: ``Gras`` (German notation), ``spades`` (French and ASCII); a Skat suit in
    French notation ``Pik`` (Kreuz, Pik, Herz, Karo).

    >>> suit_name("S", "german"), suit_name("S", "symbols"), suit_name("D", "ascii"), suit_name("S", "ascii", "skat")
    ('Gras', 'spades', 'diamonds', 'Pik')
    """
    if notation_of(style) == "german":
        return GERMAN_NAME[suit]
    return SKAT_NAME[suit] if family == "skat" else FRENCH_NAME[suit]


def suit_title(suit: str, style: str = "ascii") -> str:
    """A suit as a column title: ``Gras``, ``♠``, ``S``."""
    n = notation_of(style)
    return GERMAN_NAME[suit] if n == "german" else SUIT_SYMBOLS[suit] if n == "french" else suit


def rank_label(card: Card, style: str = "ascii") -> str:
    """The rank on a card face: ``O`` (Ober), ``U``, ``10`` in German notation; ``Q``, ``J``, ``10`` in French."""
    n = notation_of(style)
    if n == "german":
        return GERMAN_RANK[card.rank]
    return "10" if card.rank == "T" and n == "french" else card.rank


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
