"""Positions from other programs as hand records.

openschafkopf (https://github.com/phimuemue/openschafkopf) writes a Schafkopf position as a rules description,
the hand of the player to move and the cards on the table:

- rules: ``rufspiel eichel von 1``, ``herz-solo von 0``, ``wenz von 0``, ``gras-wenz von 2`` (a farbwenz),
  ``schellen-geier tout von 3``, ``ramsch``; also ``1 spielt herz-solo``. The game is named by one of ``rufspiel``
  / ``sauspiel`` / ``mit der``, ``solo`` / ``sticht``, ``wenz``, ``geier``, ``ramsch``, ``bettel`` (``ouvert`` or
  ``offen`` makes it a Bettel ouvert); the suit by ``eichel`` (also ``alt``), ``gras`` (``grün``, ``laub``, ``blatt``,
  ``blau``), ``herz`` (``rot``), ``schellen`` (``schell``, ``pump``); ``tout`` makes it a tout. The player is
  openschafkopf's index 0 to 3, where 0 leads the first trick.
- cards: two letters, suit ``e g h s`` (Eichel = C, Gras = S, Herz = H, Schellen = D) then rank ``a z k o u 9 8
  7`` (Sau = A, Zehn = T, König = K, Ober = Q, Unter = J): ``eo`` is QC, ``hu`` is JH, ``sz`` is TD.
- cards on the table: every card played so far, in order, from the first lead; the hand is what the player to
  move holds now.

The record (:func:`openschafkopf_record`) names the players ``"0"`` to ``"3"`` as openschafkopf numbers them and
holds the play and the hand of the player to move as dealt (his cards now and those he played); the other
hands are unknown, so the record suits the player's-view commands (``sheepsolve suggest``).

>>> d = openschafkopf_record("rufspiel eichel von 1", "eo hu sz ga g9 s7 h8 e7")
>>> d["game"], d["declarer"], d["called"], d["hands"]
('sauspiel', '1', 'AC', {'0': 'QC JH TD AS 9S 7D 8H 7C'})
>>> try:
...     parse_openschafkopf_cards("eo hx")
... except NotationError as e:
...     print(e)
openschafkopf card "hx": the rank must be one of a z k o u 9 8 7 (Sau, Zehn, König, Ober, Unter, 9, 8, 7)
"""

from __future__ import annotations

import re
from typing import Any

from .cards import Card, format_cards, in_notation, suit_name
from .record import Record, RecordError, record_from_dict

__all__ = ["NotationError", "parse_openschafkopf_cards", "parse_openschafkopf_rules", "openschafkopf_record",
           "openschafkopf_position",
           "OPENSCHAFKOPF_SUITS", "OPENSCHAFKOPF_RANKS"]

OPENSCHAFKOPF_SUITS = {"e": "C", "g": "S", "h": "H", "s": "D"}
OPENSCHAFKOPF_RANKS = {"a": "A", "z": "T", "k": "K", "o": "Q", "u": "J", "9": "9", "8": "8", "7": "7"}
_SUIT_WORDS = {"C": ("eichel", "alt"), "S": ("gras", "grün", "gruen", "laub", "blatt", "blau"),
               "H": ("herz", "rot"), "D": ("schellen", "schelln", "schell", "pump", "hundsgfickt")}
_GAME_WORDS = (("sauspiel", ("rufspiel", "sauspiel", "mit der", "auf die", "auf d'")), ("solo", ("solo", "sticht")),
               ("wenz", ("wenz",)), ("geier", ("geier",)), ("ramsch", ("ramsch",)), ("bettel", ("bettel",)))
PLAYERS = ("0", "1", "2", "3")


class NotationError(RecordError):
    """A position in a foreign notation that cannot be mapped (the message names the part and says why)."""


def parse_openschafkopf_cards(text: str, what: str = "openschafkopf card") -> list[Card]:
    """Cards in openschafkopf's notation, separated by spaces or commas (``"eo hu sz"`` -> QC JH TD)."""
    if not isinstance(text, str):
        raise NotationError(f"{what}s: must be text like \"eo hu sz\"")
    out: list[Card] = []
    for tok in (t for t in re.split(r"[\s,]+", text.strip()) if t):
        t = tok.lower()
        if len(t) != 2:
            raise NotationError(f'{what} "{tok[:20]}": two letters, the suit (e g h s) then the rank '
                               f"(a z k o u 9 8 7), like eo or hu")
        if t[0] not in OPENSCHAFKOPF_SUITS:
            raise NotationError(f'{what} "{tok}": the suit must be one of e g h s (Eichel, Gras, Herz, Schellen)')
        if t[1] not in OPENSCHAFKOPF_RANKS:
            raise NotationError(f'{what} "{tok}": the rank must be one of a z k o u 9 8 7 (Sau, Zehn, König, Ober, '
                               f"Unter, 9, 8, 7)")
        card = Card.make(OPENSCHAFKOPF_RANKS[t[1]], OPENSCHAFKOPF_SUITS[t[0]])
        if card in out:
            raise NotationError(f'{what} "{tok}": given twice')
        out.append(card)
    return out


def parse_openschafkopf_rules(text: str) -> dict[str, Any]:
    """The record keys of a rules description: ``game``, ``trump``, ``tout``, ``declarer``, ``called``."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError('--rules: empty; describe the game like "rufspiel eichel von 1" or "wenz von 0"')
    raw = text.strip()
    player: str | None = None
    m = re.fullmatch(r"(.*?)\s+von\s+(\S+)", raw, flags=re.I | re.S) or None
    if m:
        rules, player = m.group(1), m.group(2)
    else:
        m = re.fullmatch(r"(\S+)\s+spielt\s+(.*)", raw, flags=re.I | re.S)
        rules, player = (m.group(2), m.group(1)) if m else (raw, None)
    words = rules.lower()
    suits = [s for s, names in _SUIT_WORDS.items() if any(n in words for n in names)]
    if len(suits) > 1:
        raise NotationError(f'--rules "{raw[:80]}": names more than one suit ({", ".join(suits)})')
    games = [g for g, names in _GAME_WORDS if any(n in words for n in names)]
    if not games:
        raise NotationError(f'--rules "{raw[:80]}": no game named (rufspiel, solo, wenz, geier, bettel or '
                            f"ramsch)")
    if len(games) > 1:
        raise NotationError(f'--rules "{raw[:80]}": names more than one game ({", ".join(games)})')
    game = games[0]
    suit = suits[0] if suits else None
    tout = "tout" in words
    ouvert = "ouvert" in words or "offen" in words
    if ouvert and game != "bettel":
        raise NotationError(f'--rules "{raw[:80]}": only a bettel is played ouvert here')
    if game == "bettel" and (tout or suit):
        raise NotationError(f'--rules "{raw[:80]}": a bettel has no suit and no tout')
    if game == "ramsch":
        if tout or suit:
            raise NotationError(f'--rules "{raw[:80]}": a ramsch has no suit and no tout')
        return {"game": "ramsch"}
    if player is None:
        raise NotationError(f'--rules "{raw[:80]}": name the player who plays it ("... von 1", players 0 to 3, '
                           f"0 leads the first trick)")
    if player not in PLAYERS:
        raise NotationError(f'--rules "{raw[:80]}": the player must be 0, 1, 2 or 3 (0 leads the first trick), '
                           f'not "{player[:20]}"')
    out: dict[str, Any] = {"declarer": player}
    if game == "sauspiel":
        if suit is None:
            raise NotationError(f'--rules "{raw[:80]}": a rufspiel names the suit of the called Sau (eichel, gras '
                               f"or schellen)")
        if suit == "H":
            raise NotationError(f'--rules "{raw[:80]}": the Herz-Sau cannot be called (hearts are trumps)')
        if tout:
            raise NotationError(f'--rules "{raw[:80]}": a rufspiel is not played tout')
        out.update(game="sauspiel", called=Card.make("A", suit).__str__())
        return out
    if game == "bettel":
        out["game"] = "bettel"
        if ouvert:
            out["ouvert"] = True
        return out
    if game == "solo" and suit is None:
        raise NotationError(f'--rules "{raw[:80]}": a solo names its trump suit (eichel, gras, herz or schellen)')
    name = {("solo", True): "solo", ("wenz", False): "wenz", ("wenz", True): "farbwenz",
            ("geier", False): "geier", ("geier", True): "farbgeier"}[(game, suit is not None)]
    out["game"] = name
    if suit is not None:  # by its name: a letter S alone is Schellen or spades as the record's cards decide
        out["trump"] = suit_name(suit, "german")
    if tout:
        out["tout"] = True
    return out


def openschafkopf_record(rules: str, hand: str, cards_on_table: str = "", *, deck: str | None = None) -> dict[str, Any]:
    """The hand record (as data, for :func:`~sheepsolve.record.record_from_dict`) of an openschafkopf position:
    the game, the play so far in tricks of four, and the hand of the player to move as dealt. Raises
    :class:`NotationError` (a :class:`~sheepsolve.record.RecordError`) naming what cannot be mapped, and the
    record reader's errors for a position that breaks the rules."""
    return _position(rules, hand, cards_on_table, deck)[0]


def openschafkopf_position(rules: str, hand: str, cards_on_table: str = "", *, deck: str | None = None) -> Record:
    """The record of :func:`openschafkopf_record`, read and checked (with its replay kept): what ``import
    openschafkopf`` writes and ``--suggest`` answers from, without writing it out and reading it back."""
    return _position(rules, hand, cards_on_table, deck)[1]


def _position(rules: str, hand: str, cards_on_table: str, deck: str | None) -> tuple[dict[str, Any], Record]:
    d: dict[str, Any] = parse_openschafkopf_rules(rules)
    d["players"] = list(PLAYERS)
    if deck is not None:
        d["deck"] = deck
    held = parse_openschafkopf_cards(hand)
    table = parse_openschafkopf_cards(cards_on_table or "", "openschafkopf card on the table")
    both = set(held) & set(table)
    if both:
        raise NotationError(f"--hand: {format_cards(sorted(both, key=int), 'german')} also on the table "
                            "(--cards-on-table)")
    if table:
        d["play"] = [format_cards(table[i:i + 4]) for i in range(0, len(table), 4)]
    done = _read_once(d, held, table)
    return done if done is not None else _read_twice(d, held, table)


def _read_once(d: dict[str, Any], held: list[Card], table: list[Card]) -> tuple[dict[str, Any], Record] | None:
    """The position read once, the hand given to the player to move as the trick winners tell (no replay to find
    him); None where that cannot be done or the record is refused: :func:`_read_twice` then says why, as it
    always has."""
    from .cards import parse_cards, parse_suit
    from .games import GameError, make_game
    from .record.replay import seats_in_tricks

    try:
        g = make_game(d["game"], trump=parse_suit(d["trump"], "german") if "trump" in d else None,
                      deck=d.get("deck"), tout=d.get("tout"), ouvert=d.get("ouvert"), seats=len(PLAYERS))
        called = parse_cards(d["called"])[0] if "called" in d else None
        tricks = [table[i:i + g.seats] for i in range(0, len(table), g.seats)]
        played, seat = seats_in_tricks(g, tricks, called)
    except (GameError, ValueError):
        return None
    mine = list(held) + played[seat]
    if len(table) >= g.seats * g.hand_size or len(mine) != g.hand_size:
        return None
    given = {**d, "hands": {PLAYERS[seat]: format_cards(mine)}}
    try:
        return given, record_from_dict(given)
    except RecordError:
        return None


def _read_twice(d: dict[str, Any], held: list[Card], table: list[Card]) -> tuple[dict[str, Any], Record]:
    """The position read without the hand (to find the player to move and what he played), then with it: what
    gives a refused position its error."""
    try:
        rec = record_from_dict(d)
    except RecordError as e:
        raise NotationError(f"the position does not read: {in_notation(str(e), 'german')}") from None
    state = rec.replay.final
    played = rec.replay.played_by_seat()
    if len(table) >= rec.game.seats * rec.game.hand_size:
        raise NotationError("--cards-on-table: every card is played: there is no player to move")
    seat = state.to_move
    mine = list(held) + played[seat]
    g = rec.game
    if len(mine) != g.hand_size:
        left = g.hand_size - len(played[seat])
        raise NotationError(f"--hand: {len(held)} card{'' if len(held) == 1 else 's'}, but player {PLAYERS[seat]} (to move after the cards on the "
                           f"table) holds {left}")
    d["hands"] = {PLAYERS[seat]: format_cards(mine)}
    try:
        return d, record_from_dict(d)
    except RecordError as e:
        raise NotationError(f"the position does not read: {in_notation(str(e), 'german')}") from None
