"""``--constrain``: what the player believes about another seat's hand, as hard constraints on the worlds.

A constraint names a seat, then one or more conditions joined by ``and``::

    Sepp: trumps >= 5
    Resi: has EO
    Hias: hearts == 0
    Vroni: ober + unter <= 1
    Sepp: trumps >= 4 and has no HA

Each condition counts cards of the seat's hand *at the first lead* (the cards it has played since included; a
picker's after the bury): ``SUM OP N`` where ``SUM`` is words joined by ``+`` or ``-``, ``OP`` one of
``>= <= == = != > <`` and ``N`` a whole number (a minus between spaces: ``trumps - ober``). The words:

- ``trumps`` (``trump``, ``trumpf``): the game's trumps;
- a suit (``clubs``, ``spades``, ``hearts``, ``diamonds``; German ``eichel``, ``gras``/``blatt``/``laub``,
  ``herz``, ``schellen``): its cards but the Ober and Unter that are trumps in every suit (:func:`suit_cards`:
  in a Sauspiel ``hearts`` are the six heart trumps below the Unter);
- a rank, whatever the suit (``ober``/``queens``, ``unter``/``jacks``, ``aces``/``sau``, ``tens``/``zehner``,
  ``kings``/``koenig``, ``nines``, ``eights``, ``sevens``);
- ``points`` (``augen``): the card points held;
- one card, in any notation (``EO``, ``QC``, ``Q♣``, ``Herz-Sau``).

``has CARD [CARD ...]`` says the seat holds every one of those cards, ``has no CARD [CARD ...]`` (or ``lacks``)
none of them.

The worlds keep only the deals that meet every constraint; the sampler counts and draws among them exactly
(:class:`~sheepsolve.worlds.WorldSampler`), so ``--worlds all`` stays exact. A constraint no world meets is
refused; so is a word or a seat that does not exist, with a hint when it looks like a typo.

>>> from sheepsolve.games import make_game
>>> g = make_game("sauspiel")
>>> c = parse_constraint("Vroni: ober + unter <= 1", g, ("Sepp", "Resi", "Vroni", "Hias"))
>>> c.seat, c.conditions[0].op, c.conditions[0].bound, len(c.conditions[0].weights)
(2, '<=', 1, 8)
>>> c.holds(g, [Card.parse("EO", german=True), Card.parse("HA", german=True)])
True
>>> parse_constraint("Sepp: trump >= 9 and has no EO", g, ("Sepp", "Resi", "Vroni", "Hias")).text
'Sepp: trump >= 9 and has no EO'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, CardError, format_card
from .files import clip
from .games import Game
from .solver import SolverError

__all__ = ["ConstraintError", "Condition", "Constraint", "parse_constraint", "parse_constraints", "WORDS",
           "OPERATORS", "compare", "suit_cards"]


class ConstraintError(SolverError):
    """A ``--constrain`` that cannot be read, names no seat of the record, or that no world meets."""


OPERATORS = (">=", "<=", "==", "!=", "=", ">", "<")
"""The comparisons, longest first (``=`` is ``==``; ``≥`` and ``≤`` are read as ``>=`` and ``<=``)."""

_SUIT_WORDS = {
    "clubs": "C", "club": "C", "eichel": "C", "acorns": "C", "kreuz": "C",
    "spades": "S", "spade": "S", "gras": "S", "grün": "S", "gruen": "S", "blatt": "S", "laub": "S", "leaves": "S",
    "pik": "S",
    "hearts": "H", "heart": "H", "herz": "H", "rot": "H",
    "diamonds": "D", "diamond": "D", "schellen": "D", "schelln": "D", "bells": "D", "karo": "D",
}
_RANK_WORDS = {
    "ober": "Q", "obers": "Q", "queen": "Q", "queens": "Q",
    "unter": "J", "unters": "J", "jack": "J", "jacks": "J",
    "ace": "A", "aces": "A", "sau": "A", "säue": "A", "saeue": "A", "sows": "A", "daus": "A",
    "ten": "T", "tens": "T", "zehn": "T", "zehner": "T",
    "king": "K", "kings": "K", "könig": "K", "koenig": "K", "könige": "K", "koenige": "K", "kini": "K",
    "nine": "9", "nines": "9", "neun": "9", "neuner": "9",
    "eight": "8", "eights": "8", "acht": "8", "achter": "8",
    "seven": "7", "sevens": "7", "sieben": "7", "siebener": "7",
}
_TRUMP_WORDS = ("trumps", "trump", "trumpf", "trümpfe", "truempfe")
_POINT_WORDS = ("points", "point", "augen")

_HINTS = ("trumps", "clubs", "spades", "hearts", "diamonds", "eichel", "gras", "herz", "schellen", "ober", "unter",
          "queens", "jacks", "aces", "sau", "tens", "kings", "nines", "eights", "sevens", "points", "augen")
WORDS: tuple[str, ...] = tuple(sorted(set(_SUIT_WORDS) | set(_RANK_WORDS) | set(_TRUMP_WORDS) | set(_POINT_WORDS)))
"""Every word a condition may count (besides card names and ``has``, ``has no``, ``lacks``)."""


@dataclass(frozen=True)
class Condition:
    """``sum(weights[c] for c in hand) OP bound``: one condition on a seat's hand at the first lead."""

    weights: tuple[tuple[Card, int], ...]  # cards that count, each with its weight (0 left out)
    op: str
    bound: int

    def weight(self, card: Card) -> int:
        """What ``card`` adds to the count."""
        for c, x in self.weights:
            if c == card:
                return x
        return 0

    def value(self, hand: Iterable[Card]) -> int:
        w = dict(self.weights)
        return sum(w.get(c, 0) for c in hand)

    def holds_for(self, value: int) -> bool:
        return compare(value, self.op, self.bound)


def compare(value: int, op: str, bound: int) -> bool:
    """``value OP bound``.

    >>> compare(5, ">=", 5), compare(5, "!=", 5), compare(0, "==", 0)
    (True, False, True)
    """
    return {">=": value >= bound, "<=": value <= bound, "==": value == bound, "!=": value != bound,
            ">": value > bound, "<": value < bound}[op]


@dataclass(frozen=True)
class Constraint:
    """What one ``--constrain`` says: every condition of ``conditions`` holds for ``seat``'s hand at the first
    lead. ``text``: as given (for messages)."""

    seat: int
    conditions: tuple[Condition, ...]
    text: str

    def holds(self, game: Game, hand: Iterable[Card]) -> bool:
        """Whether ``hand`` (the seat's hand at the first lead) meets every condition."""
        cards = list(hand)
        return all(cond.holds_for(cond.value(cards)) for cond in self.conditions)


def _hint(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _card(word: str) -> Card | None:
    try:
        return Card.parse(word, german=True)
    except CardError:
        return None


def _word_weights(game: Game, word: str, where: str) -> dict[Card, int]:
    """The cards one word counts, with their weights."""
    w = word.lower()
    deck = game.deck
    if w in _TRUMP_WORDS:
        if not game.trumps:
            raise ConstraintError(f"{where}: {game.title} has no trumps")
        return {c: 1 for c in game.trumps}
    if w in _SUIT_WORDS:
        return {c: 1 for c in suit_cards(game, _SUIT_WORDS[w])}
    if w in _RANK_WORDS:
        cards = [c for c in deck if c.rank == _RANK_WORDS[w]]
        if not cards:
            raise ConstraintError(f"{where}: {clip(word)}: no such card in this deck")
        return {c: 1 for c in cards}
    if w in _POINT_WORDS:
        return {c: c.points for c in deck if c.points}
    card = _card(word)
    if card is not None:
        if card not in deck:
            raise ConstraintError(f"{where}: {clip(word)} is not in the deck of {game.title}")
        return {card: 1}
    raise ConstraintError(f"{where}: unknown word {clip(repr(word))}{_hint(word, _HINTS)}: count trumps, a suit, "
                          "a rank (ober, unter, aces, ...), points or a card (EO, QC)")


def suit_cards(game: Game, suit: str) -> list[Card]:
    """The cards a suit's name counts: the cards of that suit but its Ober and Unter where those are trumps in
    every suit (Sheepshead's queens and jacks; a Wenz's Unter), so in a Sauspiel ``hearts`` are the heart trumps
    HA H10 HK H9 H8 H7, and in Sheepshead ``diamonds`` the six diamond trumps below the jacks.

    >>> from sheepsolve.games import make_game
    >>> [str(c) for c in suit_cards(make_game("wenz"), "H")]
    ['AH', 'TH', 'KH', 'QH', '9H', '8H', '7H']
    """
    top = {r for r in {c.rank for c in game.trumps}
           if all(c in game.trumps for c in game.deck if c.rank == r)}  # trumps in every suit
    return [c for c in game.deck if c.suit == suit and not (game.is_trump(c) and c.rank in top)]


_NUMBER = re.compile(r"[0-9]{1,3}")
_OP_RE = re.compile(r"(>=|<=|==|!=|=|>|<)")


def _condition(game: Game, text: str, where: str) -> Condition:
    t = text.strip().replace("≥", ">=").replace("≤", "<=").replace("≠", "!=")
    words = t.split()
    if words and words[0].lower() in ("has", "hat", "holds", "lacks"):
        negate = words[0].lower() == "lacks"
        rest = words[1:]
        if rest and rest[0].lower() in ("no", "not", "kein", "keine") and not negate:
            negate, rest = True, rest[1:]
        if not rest:
            said = " ".join(words)  # 'has', or 'has no' with nothing after it
            raise ConstraintError(f"{where}: {clip(repr(text))}: name the cards after '{clip(said, 20)}' (has EO)")
        cards: dict[Card, int] = {}
        for word in re.split(r"[\s,]+", " ".join(rest)):
            if not word:
                continue
            card = _card(word)
            if card is None:
                raise ConstraintError(f"{where}: {clip(repr(word))} is not a card{_card_hint(game, word)} "
                                      "(has EO, has no HA)")
            if card not in game.deck:
                raise ConstraintError(f"{where}: {clip(word)} is not in the deck of {game.title}")
            cards[card] = 1
        return Condition(weights=tuple(cards.items()), op="==", bound=0 if negate else len(cards))
    parts = _OP_RE.split(t)
    if len(parts) != 3:
        first = _hint(words[0], ("has", "lacks", "holds")) if len(parts) < 3 and words else ""  # 'hsa EO'
        raise ConstraintError(f"{where}: {clip(repr(text))}: write COUNT OP N, OP one of >= <= == != > < "
                              f"(trumps >= 5), or has CARD (has EO){first}" if len(parts) < 3 else
                              f"{where}: {clip(repr(text))}: one comparison per condition (join them with 'and')")
    left, op, right = (p.strip() for p in parts)
    if op == "=":
        op = "=="
    if not _NUMBER.fullmatch(right):
        raise ConstraintError(f"{where}: {clip(repr(right))} after {op}: must be a whole number 0 to 999")
    bound = int(right)
    # a minus between spaces (``trumps - ober``), so that card names such as ``Herz-Sau`` stay whole
    tokens = [w for t in re.split(r"\s*(\+)\s*|\s+(-)\s+|^\s*(-)\s*", left) if t for w in t.split()]
    if not tokens:
        raise ConstraintError(f"{where}: nothing to count before {op} (trumps, hearts, ober + unter, EO, ...)")
    weights: dict[Card, int] = {}
    sign, expect_word = 1, True
    for tok in tokens:
        if tok in "+-":
            if expect_word:
                raise ConstraintError(f"{where}: {clip(repr(left))}: '{tok}' where a word belongs")
            sign, expect_word = (1 if tok == "+" else -1), True
            continue
        if not expect_word:
            raise ConstraintError(f"{where}: {clip(repr(left))}: join the words with + or - ({clip(tok)})")
        for c, x in _word_weights(game, tok, where).items():
            weights[c] = weights.get(c, 0) + sign * x
        expect_word = False
    if expect_word:
        raise ConstraintError(f"{where}: {clip(repr(left))} ends with '{tokens[-1]}'")
    return Condition(weights=tuple((c, x) for c, x in sorted(weights.items()) if x), op=op, bound=bound)


def _card_hint(game: Game, word: str) -> str:
    """' (did you mean ...?)' for a word close to a card's short name (ASCII ``QC``, German ``EO``) or to ``no``."""
    if len(word) < 2:  # 'Q': every queen is as close
        return ""
    names = {str(c): str(c) for c in game.deck}
    names.update({format_card(c, "german"): format_card(c, "german") for c in game.deck})
    close = difflib.get_close_matches(word.upper(), [n.upper() for n in names] + ["NO"], n=1, cutoff=0.6)
    if not close:
        return ""
    found = next((n for n in names if n.upper() == close[0]), close[0].lower())
    return f" (did you mean {found!r}?)"


def _seat(name: str, players: Sequence[str], where: str) -> int:
    for i, p in enumerate(players):
        if p == name:
            return i
    folded = [i for i, p in enumerate(players) if p.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    close = difflib.get_close_matches(name, list(players), n=1, cutoff=0.5)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ConstraintError(f"{where}: no player {clip(repr(name))}{hint}; the players are {', '.join(players)}")


def parse_constraint(text: str, game: Game, players: Sequence[str]) -> Constraint:
    """Read one ``--constrain`` (see the module docstring); :class:`ConstraintError` names what is wrong.

    >>> from sheepsolve.games import make_game
    >>> parse_constraint("Sepp: trumps >= 5", make_game("sauspiel"), ("Sepp", "Resi", "Vroni", "Hias")).seat
    0
    >>> parse_constraint("Sep: trumps >= 5", make_game("sauspiel"), ("Sepp", "Resi", "Vroni", "Hias"))
    Traceback (most recent call last):
    ...
    sheepsolve.constraints.ConstraintError: --constrain 'Sep: trumps >= 5': no player 'Sep' (did you mean 'Sepp'?); the players are Sepp, Resi, Vroni, Hias
    """
    if not isinstance(text, str):
        raise ConstraintError("--constrain: must be text such as \"Sepp: trumps >= 5\"")
    where = f"--constrain {clip(repr(text))}"
    if len(text) > 500:
        raise ConstraintError(f"{where}: longer than 500 characters")
    if ":" not in text:
        raise ConstraintError(f"{where}: name the seat first, then a colon (\"Sepp: trumps >= 5\")")
    name, _, body = text.partition(":")
    name = name.strip()
    if not name:
        raise ConstraintError(f"{where}: name the seat before the colon (\"Sepp: trumps >= 5\")")
    seat = _seat(name, players, where)
    pieces = re.split(r"\s+(?:and|und|&&?)(?:\s+|$)|\s*;\s*", body.strip(), flags=re.IGNORECASE)
    if not body.strip():
        raise ConstraintError(f"{where}: a condition is missing after the seat (trumps >= 5, has EO, hearts == 0)")
    if any(not p.strip() for p in pieces):
        raise ConstraintError(f"{where}: a condition is missing before or after 'and' (trumps >= 5 and has EO)")
    conds = tuple(_condition(game, p, where) for p in pieces)
    return Constraint(seat=seat, conditions=conds, text=text.strip())


def parse_constraints(texts: Iterable[str] | None, game: Game, players: Sequence[str]) -> tuple[Constraint, ...]:
    """Every ``--constrain`` of a command, read (an empty tuple for none)."""
    return tuple(parse_constraint(t, game, players) for t in (texts or ()))
