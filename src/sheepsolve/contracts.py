"""How a contract is named: one wording for every text, page and JSON title, in the reader's card notation.
Skat's contracts always by their German names (``Kreuz-Spiel``, ``Grand``, ``Null ouvert``).

German notation says what Schafkopf players say (``Gras-Solo``, ``Sauspiel auf die Blaue``, ``Eichel-Wenz``,
``Wenz Tout``); French and ASCII say ``Solo in spades``, ``Sauspiel on A♠``, ``Farbwenz in clubs``. A suit is
never a bare letter: ``S`` reads as spades to one player and Schellen to another.

>>> from sheepsolve.games import make_game
>>> game_title(make_game("solo", trump="S"), "german"), game_title(make_game("solo", trump="S"), "ascii")
('Gras-Solo', 'Solo in spades')
>>> from sheepsolve.cards import Card
>>> game_title(make_game("sauspiel"), "german", called=Card.parse("AC"))
'Sauspiel auf die Alte'
"""

from __future__ import annotations

from typing import Protocol

from .cards import Card, format_card, notation_of, suit_name

__all__ = ["contract_name", "contract_key", "game_title", "TitledGame"]


class TitledGame(Protocol):
    """What :func:`game_title` reads of a game: a :class:`~sheepsolve.games.Game`, whose own title
    :func:`~sheepsolve.games.make_game` words with :func:`contract_name` (so this module needs no import of it)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def trump_suit(self) -> str | None: ...

    @property
    def tout(self) -> bool: ...

    # Skat's declaration, which its German name says (``family`` ``"skat"``)
    @property
    def family(self) -> str: ...

    @property
    def ouvert(self) -> bool: ...

    @property
    def hand(self) -> bool: ...

    @property
    def schneider_announced(self) -> bool: ...

    @property
    def schwarz_announced(self) -> bool: ...


# The called ace's nickname in a sauspiel: "auf die Alte" (Eichel), "die Blaue" (Gras), "die Hundsgfickte"
# (Schellen); the Herz-Sau is never called (hearts are trump).
_SAU_NAMES = {"C": "die Alte", "S": "die Blaue", "D": "die Hundsgfickte", "H": "die Herz-Sau"}
_CONTRACT_WORDS = {"solo": "Solo", "wenz": "Wenz", "geier": "Geier", "farbwenz": "Farbwenz",
                   "farbgeier": "Farbgeier", "sie": "Sie", "sauspiel": "Sauspiel", "ramsch": "Ramsch"}


def contract_name(game: str, style: str, *, trump: str | None = None, called: Card | None = None,
                  tout: bool = False, ouvert: bool = False, hand: bool = False, schneider_announced: bool = False,
                  schwarz_announced: bool = False) -> str:
    """A Schafkopf contract as players say it: German notation ``Gras-Solo``, ``Sauspiel auf die Blaue``,
    ``Eichel-Wenz``, ``Wenz Tout``; French and ASCII ``Solo in spades``, ``Sauspiel on A♠``, ``Farbwenz in clubs``.

    >>> contract_name("solo", "german", trump="S"), contract_name("solo", "ascii", trump="S", tout=True)
    ('Gras-Solo', 'Solo in spades, tout')
    >>> contract_name("sauspiel", "german", called=Card.parse("AS")), contract_name("farbwenz", "german", trump="C")
    ('Sauspiel auf die Blaue', 'Eichel-Wenz')
    >>> contract_name("sauspiel", "symbols", called=Card.parse("AD"))
    'Sauspiel on A♦'

    Skat's contracts by their German names (``grand``, ``skat`` with its trump suit, ``null``) with the
    declaration: ``Kreuz-Spiel``, ``Grand Hand, Schneider angesagt``, ``Null ouvert Hand``, ``Grand ouvert`` (an
    ouvert grand or suit game is a hand game announced schwarz: the name says ouvert alone); with Bavarian faces
    the suit is named as on them (``Gras-Spiel``).

    >>> contract_name("skat", "symbols", trump="C"), contract_name("null", "ascii", ouvert=True, hand=True)
    ('Kreuz-Spiel', 'Null ouvert Hand')
    >>> contract_name("grand", "ascii", hand=True, schneider_announced=True)
    'Grand Hand, Schneider angesagt'
    """
    if game in _SKAT_WORDS:
        return _skat_name(game, style, trump, ouvert, hand, schneider_announced, schwarz_announced)
    german = notation_of(style) == "german"
    word = _CONTRACT_WORDS.get(game, game.capitalize())
    if game == "sauspiel" and called is not None:
        out = f"Sauspiel auf {_SAU_NAMES[called.suit]}" if german else f"Sauspiel on {format_card(called, style)}"
    elif trump is not None:
        short = {"farbwenz": "Wenz", "farbgeier": "Geier"}.get(game, word)  # Eichel-Wenz: the suit says "Farb"
        out = f"{suit_name(trump, style)}-{short}" if german else f"{word} in {suit_name(trump, style)}"
    else:
        out = word
    if tout:
        out += " Tout" if german else ", tout"
    return out


_SKAT_WORDS = {"grand": "Grand", "null": "Null", "skat": "Spiel"}


def _skat_name(game: str, style: str, trump: str | None, ouvert: bool, hand: bool, schneider_announced: bool,
               schwarz_announced: bool) -> str:
    """A Skat contract's German name (see :func:`contract_name`)."""
    out = f"{suit_name(trump, style, 'skat')}-Spiel" if game == "skat" and trump else _SKAT_WORDS[game]
    trump_ouvert = ouvert and game != "null"  # a hand game announced schwarz: "ouvert" says it all
    if ouvert:
        out += " ouvert"
    if hand and not trump_ouvert:
        out += " Hand"
    if schwarz_announced and not trump_ouvert:
        out += ", Schwarz angesagt"
    elif schneider_announced and not trump_ouvert:
        out += ", Schneider angesagt"
    return out


def game_title(game: TitledGame, style: str, *, called: Card | None = None) -> str:
    """The game's title in the reader's notation: ``Gras-Solo``, ``Solo in spades, tout``, ``Sauspiel auf die
    Blaue`` (with the ``called`` ace), ``Sauspiel (Rufspiel)`` (without), ``Sheepshead (5-hand)``: never a suit
    letter that reads differently in another notation.

    >>> from sheepsolve.games import make_game
    >>> game_title(make_game("solo", trump="S"), "german"), game_title(make_game("farbwenz", trump="C"), "symbols")
    ('Gras-Solo', 'Farbwenz in clubs')
    """
    if game.family == "skat":
        return contract_name(game.name, style, trump=game.trump_suit, ouvert=game.ouvert, hand=game.hand,
                             schneider_announced=game.schneider_announced, schwarz_announced=game.schwarz_announced)
    if game.kind == "contract" and game.trump_suit and game.name in ("solo", "farbwenz", "farbgeier"):
        return contract_name(game.name, style, trump=game.trump_suit, tout=bool(game.tout))
    if game.name == "sauspiel" and called is not None:
        return contract_name("sauspiel", style, called=called, tout=bool(game.tout))
    return game.title


def contract_key(game: str, *, trump: str | None = None, called: Card | None = None, ouvert: bool = False,
                 hand: bool = False, tout: bool = False) -> str:
    """A contract in the words a record's auction and the JSON's ``contract`` use (not for people: see
    :func:`contract_name`): the game's registry name, the called card or the trump suit's letter, then
    ``ouvert``, ``hand`` and ``tout`` (no game is played both ouvert and tout).

    >>> contract_key("sauspiel", called=Card.parse("AS")), contract_key("solo", trump="H", tout=True)
    ('sauspiel AS', 'solo H tout')
    >>> contract_key("bettel", ouvert=True), contract_key("null", ouvert=True, hand=True)
    ('bettel ouvert', 'null ouvert hand')
    """
    words = [game]
    if called is not None:
        words.append(str(called))
    if trump is not None:
        words.append(trump)
    return " ".join(words + [word for word, on in (("ouvert", ouvert), ("hand", hand), ("tout", tout)) if on])
