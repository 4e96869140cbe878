"""Skat's declaration as data: the contracts, their base values, the values a bid may take, and the check of a
declaration (hand game, schneider and schwarz announced, ouvert, the bid) by the International Skat Order (ISkO).

A Skat game is built by :func:`sheepsolve.games.make_game` from a registry name (``grand``, ``skat`` with a trump
suit, ``null``) and the declaration; :func:`check_declaration` is the one place its rules are checked, each
problem a :class:`DeclarationError` whose message starts with the record key it is about.

>>> contract_of("skat", "C"), base_value("clubs"), null_value(ouvert=True, hand=False)
('clubs', 12, 46)
>>> 18 in BID_VALUES, 19 in BID_VALUES, max(BID_VALUES)
(True, False, 264)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SKAT_WORDS", "CONTRACTS", "SUIT_CONTRACTS", "BASE_VALUES", "NULL_VALUES", "BID_VALUES", "MAX_MULTIPLIER",
           "DeclarationError", "Declaration", "contract_of", "game_of_contract", "base_value", "null_value",
           "check_declaration", "declared_fields"]

SUIT_CONTRACTS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
"""A suit game's contract name and its trump suit."""
CONTRACTS = ("grand", "clubs", "spades", "hearts", "diamonds", "null")
"""The contracts a Skat record names (its ``contract`` key)."""
BASE_VALUES = {"grand": 24, "clubs": 12, "spades": 11, "hearts": 10, "diamonds": 9}
"""ISkO 5.1: the base value (Grundwert) of grand and of each suit game."""
NULL_VALUES = {(False, False): 23, (False, True): 35, (True, False): 46, (True, True): 59}
"""ISkO 5.1: the fixed value of null by (ouvert, hand): null 23, null hand 35, null ouvert 46, null ouvert hand 59."""
MAX_MULTIPLIER = {"grand": 11, "suit": 18}
"""The largest multiplier: 4 matadors (11 in a suit game) + game, hand, schneider, schneider announced, schwarz,
schwarz announced, ouvert."""
BID_VALUES = frozenset(
    {BASE_VALUES["grand"] * m for m in range(2, MAX_MULTIPLIER["grand"] + 1)}
    | {b * m for c, b in BASE_VALUES.items() if c != "grand" for m in range(2, MAX_MULTIPLIER["suit"] + 1)}
    | set(NULL_VALUES.values()))
"""Every value a Skat game can have, so every bid: 18, 20, 22, 23, 24, 27, ... 264."""


SKAT_WORDS = frozenset({"passe", "ja", "yes", "hand", "schneider", "schwarz", "ouvert", "grand", "null", "clubs",
                        "kreuz", "spades", "pik", "hearts", "herz", "diamonds", "karo"})
"""The words of Skat's auction besides its bids (:mod:`sheepsolve.inference.skat_auction`): the bidding's
``passe`` and ``ja``, the declaration's contracts and announcements. Another game's auction names them as Skat's."""


class DeclarationError(ValueError):
    """A declaration the rules do not allow; the message starts with the record key."""


def contract_of(name: str, trump: str | None) -> str:
    """The contract of a Skat registry game: ``grand``, ``null``, or the suit game's ``clubs`` ... ``diamonds``."""
    if name == "skat":
        return next(c for c, s in SUIT_CONTRACTS.items() if s == trump)
    return name


def game_of_contract(contract: str) -> tuple[str, str | None]:
    """The registry name and trump suit of a contract: ``("skat", "H")`` for ``hearts``.

    >>> game_of_contract("hearts"), game_of_contract("grand")
    (('skat', 'H'), ('grand', None))
    """
    if contract in SUIT_CONTRACTS:
        return "skat", SUIT_CONTRACTS[contract]
    if contract in ("grand", "null"):
        return contract, None
    raise DeclarationError(f"contract: unknown contract {contract!r} (one of {', '.join(CONTRACTS)})")


def base_value(contract: str) -> int:
    """The base value of grand or a suit game (null has fixed values: :func:`null_value`)."""
    return BASE_VALUES[contract]


def null_value(*, ouvert: bool, hand: bool) -> int:
    """The fixed value of a null game."""
    return NULL_VALUES[(ouvert, hand)]


@dataclass(frozen=True)
class Declaration:
    """What the declarer announced, checked: the game's ``hand``, ``schneider_announced``, ``schwarz_announced``,
    ``ouvert`` and the ``bid``."""

    hand: bool
    schneider_announced: bool
    schwarz_announced: bool
    ouvert: bool
    bid: int | None


def _flag(value: object, key: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise DeclarationError(f"{key}: must be true or false, not {type(value).__name__} {value!r:.40}")
    return value


def check_declaration(contract: str, *, hand: object = None, schneider_announced: object = None,
                      schwarz_announced: object = None, ouvert: bool = False, bid: object = None) -> Declaration:
    """The declaration of ``contract`` (one of :data:`CONTRACTS`), checked by the ISkO's rules, with what the
    announcements imply filled in:

    - schneider and schwarz are announced only in a hand game (ISkO 5.2.5), and schwarz announced is schneider
      announced too; null has neither;
    - an ouvert grand or suit game is a hand game announced schwarz (ISkO 5.2.6); null ouvert may be a hand game
      or not;
    - the bid is a value some game has (18, 20, 22, 23, ...); a null game's value is fixed, so its bid may not be
      above it (a null game is declared only when it covers the bid: at most 59, null ouvert hand).

    >>> check_declaration("grand", ouvert=True)
    Declaration(hand=True, schneider_announced=True, schwarz_announced=True, ouvert=True, bid=None)
    >>> check_declaration("null", bid=60)
    Traceback (most recent call last):
    ...
    sheepsolve.skat_declaration.DeclarationError: bid: 60 is above the value of every null game (59: null ouvert hand)
    """
    hand_v = _flag(hand, "hand")
    sch_v = _flag(schneider_announced, "schneider_announced")
    schw_v = _flag(schwarz_announced, "schwarz_announced")
    null = contract == "null"
    if null:
        for key, v in (("schneider_announced", sch_v), ("schwarz_announced", schw_v)):
            if v:
                raise DeclarationError(f"{key}: a null game has no schneider or schwarz to announce")
        decl = Declaration(bool(hand_v), False, False, ouvert, None)
    elif ouvert:  # ISkO 5.2.6: played open, announced schwarz, from the hand
        if hand_v is False:
            raise DeclarationError(f"hand: an ouvert {contract} game is always a hand game (hand = true)")
        for key, v in (("schneider_announced", sch_v), ("schwarz_announced", schw_v)):
            if v is False:
                raise DeclarationError(f"{key}: an ouvert {contract} game is announced schwarz (and so schneider)")
        decl = Declaration(True, True, True, True, None)
    else:
        for key, v in (("schneider_announced", sch_v), ("schwarz_announced", schw_v)):
            if v and not hand_v:
                raise DeclarationError(f"{key}: announced only in a hand game (hand = true): a declarer who took "
                                       f"up the skat announces nothing")
        if schw_v and sch_v is False:
            raise DeclarationError("schneider_announced: false, but schwarz announced is schneider announced too")
        decl = Declaration(bool(hand_v), bool(sch_v or schw_v), bool(schw_v), False, None)
    if bid is None:
        return decl
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise DeclarationError(f"bid: must be a whole number (18, 20, 22, 23, ...), not {type(bid).__name__} "
                               f"{bid!r:.40}")
    if bid not in BID_VALUES:
        low = sorted(BID_VALUES)
        near = [v for v in low if v > bid][:1] or low[-1:]
        raise DeclarationError(f"bid: {bid} is not a value any Skat game has, so no bid"
                               + (f" (bids run 18, 20, 22, 23, 24, ...; the next above is {near[0]})"
                                  if bid < low[-1] else f" (the highest is {low[-1]}: grand ouvert with 4)"))
    if null:
        top = null_value(ouvert=True, hand=True)
        if bid > top:
            raise DeclarationError(f"bid: {bid} is above the value of every null game ({top}: null ouvert hand)")
        worth = null_value(ouvert=ouvert, hand=decl.hand)
        if bid > worth:
            name = "null" + (" ouvert" if ouvert else "") + (" hand" if decl.hand else "")
            raise DeclarationError(f"bid: {bid} is above the value of a {name} ({worth}): a null game is declared "
                                   f"only when its value covers the bid")
    return Declaration(decl.hand, decl.schneider_announced, decl.schwarz_announced, decl.ouvert, bid)


def declared_fields(family: str, name: str, trump: str | None, ouvert: bool, **fields: object) -> dict[str, object]:
    """The :class:`~sheepsolve.games.Game` fields of a declaration (``hand``, ``schneider_announced``,
    ``schwarz_announced``, ``bid``): checked for a Skat game, none for any other game (where giving one is an
    error naming it).

    >>> declared_fields("skat", "grand", None, True)["schwarz_announced"]
    True
    """
    if family != "skat":
        given = next((k for k, v in fields.items() if v is not None), None)
        if given is not None:
            raise DeclarationError(f"{given}: a Skat declaration, not for {name}")
        return {}
    decl = check_declaration(contract_of(name, trump), ouvert=ouvert, **fields)
    return {"hand": decl.hand, "schneider_announced": decl.schneider_announced,
            "schwarz_announced": decl.schwarz_announced, "bid": decl.bid}
