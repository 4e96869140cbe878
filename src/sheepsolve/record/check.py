"""Checking a record's plain data key by key, in the order a reader would check it, into a
:class:`~sheepsolve.record.Record`: every problem a :class:`~sheepsolve.record.RecordError` naming the key."""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Mapping
from typing import Any

from ..cards import (Card, CardError, SuitError, format_cards, in_notation, notation_of_cards, parse_cards,
                     parse_suit)
from ..engine import legal_calls
from ..games import REGISTRY, Game, GameError, make_game, resolve_name
from ..inference.auction import Auction, AuctionError
from ..inference.skat_auction import read_record_auction
from ..scoring import MAX_DOUBLERS
from .errors import RecordError, counted, key_name, kind_of, shortened, shown
from .model import ALL_KEYS, INFO_KEYS, RECORD_KEYS, Record, seat_ref
from .position import position_given, read_position
from .values import info_value, player_names, scan_values
from .replay import check_shown_play, completed_once, kept_hand
from .skat_keys import SKAT_WORDS, is_skat, reader_data

__all__ = ["check_data", "notation_of_data"]

_SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_INT64 = 2**63
_CARD_KEYS = ("hands", "blind", "bury", "called", "under", "play", "skat", "discard")
_MAX_DEPTH = 32


def check_data(d: Any, german: bool = False) -> Record:
    """The :class:`~sheepsolve.record.Record` of plain data (parsed TOML or JSON, or built in Python), checked;
    ``german``: German card names accepted."""
    reader = _Reader(d, german)
    try:
        return reader.read()
    except RecordError as e:
        msg = str(e)
        if reader.skat:  # a Skat record's errors in its own words: skat, discard, declarer
            msg = _skat_words(msg)
        if reader.notation == "german":  # a German record's errors name German cards
            msg = in_notation(msg, "german")
        if msg != str(e):
            raise RecordError(msg) from None
        raise


def _skat_words(msg: str) -> str:
    """A reader's error about a Skat record, worded as the record is: ``skat``, ``discard``, ``declarer``."""
    key, sep, rest = msg.partition(":")
    if sep and key in SKAT_WORDS:
        key = SKAT_WORDS[key]
    for old, new in (("the picker's", "the declarer's"), ("the picker", "the declarer"), ("picker buries",
                     "declarer puts away"), ("the blind", "the skat"), ("nor the blind", "nor the skat"),
                     ("who picked", "who declared the game"),
                     ("was buried", "is in the skat (put away, or left as dealt in a hand game)")):
        rest = rest.replace(old, new)
    rest = re.sub(r"^ (\d+ cards?), \S+ needs 2$", r" \1: the skat is 2 cards", rest)
    rest = re.sub(r"the \S+ declarer puts away 2$", "the declarer puts away 2 cards after taking the skat", rest)
    return key + sep + rest


def notation_of_data(d: Any) -> str | None:
    """The notation a record's cards are written in (its hands, blind, bury, call, card under and play):
    ``german``, ``french``, or None when no card tells or both are used (plain data, as :func:`check_data` reads).

    >>> notation_of_data({"game": "wenz", "play": ["EO GU"]}), notation_of_data({"hands": {"Ann": "QC 7D"}})
    ('german', 'french')
    """
    return notation_of_cards(d.get(k) for k in _CARD_KEYS) if isinstance(d, Mapping) else None


class _Reader:
    """One pass over the data, in the order a reader would check it: keys, game, players, cards, calls, play."""

    def __init__(self, d: Any, german: bool) -> None:
        self.d = d
        self.german = german
        self.skat = isinstance(d, Mapping) and is_skat(d)
        self.in_position = False  # a position record's call is checked by record.position
        # the notation the record's cards are written in: it decides a trump written "S" and words the hints
        self.notation = notation_of_data(d)

    # -- small helpers ------------------------------------------------------------------------------------------
    def _card(self, value: Any, where: str) -> Card:
        if not isinstance(value, str):
            raise RecordError(f'{where}: a card must be a string like "QC", not {kind_of(value)}')
        try:
            return self._in_deck(Card.parse(value, notation=self.notation), where)
        except CardError as e:
            raise RecordError(f"{where}: {e}") from None

    def _in_deck(self, c: Card, where: str) -> Card:
        if c not in self.deck:
            raise RecordError(f"{where}: {c} is not in the short deck (no 7s or 8s)")
        return c

    def _cards(self, value: Any, where: str) -> tuple[Card, ...]:
        if not isinstance(value, (str, list)):
            raise RecordError(f'{where}: must be a string of cards like "QC 7D" or a list of card strings, '
                              f"not {kind_of(value)}")
        items = [p for p in re.split(r"[\s,]+", value.strip()) if p] if isinstance(value, str) else value
        if len(items) > len(self.deck):  # refused before reading them one by one
            raise RecordError(f"{where}: {len(items)} cards, more than the deck holds ({len(self.deck)})")
        try:
            return tuple(self._in_deck(c, where) for c in parse_cards(items, notation=self.notation))
        except CardError as e:
            raise RecordError(f"{where}: {e}") from None

    def _bool(self, key: str) -> bool | None:
        v = self.d.get(key)
        if v is not None and not isinstance(v, bool):
            raise RecordError(f"{key}: must be true or false, not {kind_of(v)}")
        return v

    def _seat(self, value: Any, where: str) -> int:
        return seat_ref(self.players, value, where)

    # -- the pass -----------------------------------------------------------------------------------------------
    def read(self) -> Record:
        d = self.d
        if not isinstance(d, Mapping):
            raise RecordError(f"record: must be a table of keys, not {kind_of(d)}")
        scan_values(d, "record", 0)
        for k, v in d.items():
            if not isinstance(k, str):
                raise RecordError(f"record: keys must be strings, not {shown(k)}")
            if k not in ALL_KEYS:
                raise RecordError(f"{key_name(k)}: unknown key{_key_hint(k)}")
            if v is None:
                raise RecordError(f"{k}: null is not a value; leave the key out")
        if self.skat:
            d = self.d = reader_data(d)
        else:
            for k in ("skat", "discard"):
                if k in d:
                    raise RecordError(f"{k}: a Skat record's key; {shown(d.get('game'))} is not Skat")
        game = self.game = self._game()
        self.deck = frozenset(game.deck)
        n = game.seats
        players = self.players = self._players(n)
        p = self._declarer()
        extra = self._extra()

        # hands, blind: parsed, every card once, right sizes
        hands: list[tuple[Card, ...] | None] = [None] * n
        hv = d.get("hands")
        if hv is not None:
            if not isinstance(hv, Mapping):
                raise RecordError(f"hands: must be a table of hands keyed by player name, not {kind_of(hv)}")
            for key, value in hv.items():
                seat = self._seat(key, f"hands.{key_name(key)}")
                if hands[seat] is not None:
                    raise RecordError(f"hands.{players[seat]}: given twice")
                hands[seat] = self._cards(value, f"hands.{players[seat]}")
        if position_given(d):
            return self._position(hands, p, extra)
        blind: tuple[Card, ...] | None = () if not game.blind_size else None
        if "blind" in d:
            if not game.blind_size:
                raise RecordError(f"blind: {game.name} has no blind")
            blind = self._cards(d["blind"], "blind")
        where_of = self._check_hands(hands, blind)

        # bury: from the picker's hand and the blind, the right number
        bury: tuple[Card, ...] | None = None if game.kind == "picker" else ()
        if "bury" in d:
            if game.kind != "picker":
                raise RecordError(f"bury: {game.name} has no bury (nobody picks)")
            bury = self._cards(d["bury"], "bury")
            self._check_bury(bury, hands, blind, where_of, p)  # type: ignore[arg-type]

        called, under, alone = self._call(hands, blind, bury, where_of, p)
        crack, recrack, doublers = self._stakes()
        play = self._play()
        if game.sie:
            self._sie(hands, p, where_of, play)  # type: ignore[arg-type]
        rec = Record(game=game, players=players, declarer=p, hands=tuple(hands), blind=blind, bury=bury,
                     called=called, under=under, alone=alone, crack=crack, recrack=recrack, doublers=doublers,
                     play=play, extra=extra, notation=self.notation)
        if "auction" in d:
            rec = dataclasses.replace(rec, auction=self._auction(hands, blind, bury, rec))
        if not rec.complete:
            done = completed_once(rec, self._completed)  # the cards the play determines, replayed once
            if done is not None:
                return done
        check_shown_play(rec)  # replays the play (kept) and checks it against what the auction showed
        return rec

    def _position(self, hands: list[tuple[Card, ...] | None], p: int | None, extra: dict[str, Any]) -> Record:
        """A position record (:mod:`sheepsolve.record.position`), its play replayed from the hands held now."""
        self.in_position = True
        blind = self._cards(self.d["blind"], "blind") if "blind" in self.d and self.game.kind == "leaster" else ()
        called, under, alone = self._call(hands, None, (), self._check_hands(hands, blind or None), p)
        position = read_position(self.d, self.game, self.players, p, hands, blind, called, under, alone, self._seat)
        crack, recrack, doublers = self._stakes()
        rec = Record(game=self.game, players=self.players, declarer=p, hands=tuple(hands), blind=blind, bury=(),
                     called=called, under=under, alone=alone, crack=crack, recrack=recrack, doublers=doublers,
                     play=self._play(), extra=extra, notation=self.notation, position=position)
        rec.replay  # noqa: B018 - checks the play, and is kept
        return rec

    def _auction(self, hands: list[tuple[Card, ...] | None], blind: tuple[Card, ...] | None,
                 bury: tuple[Card, ...] | None, rec: Record) -> Auction | None:
        """The record's ``auction`` key read and checked against the hands, blind and bury known (None without)."""
        if "auction" not in self.d:
            return None
        try:
            return read_record_auction(self.d["auction"], game=self.game, players=self.players,
                                       declarer=rec.declarer, hands=hands, blind=blind, bury=bury, called=rec.called,
                                       alone=rec.alone, crack=rec.crack, recrack=rec.recrack, doublers=rec.doublers)
        except AuctionError as e:
            raise RecordError(str(e)) from None

    def _check_hands(self, hands: list[tuple[Card, ...] | None], blind: tuple[Card, ...] | None) -> dict[Card, str]:
        """Every card of the hands and the blind once, and the right sizes; where each card is (by key)."""
        game, players = self.game, self.players
        where_of: dict[Card, str] = {}
        for label, cards in [(f"hands.{players[s]}", h) for s, h in enumerate(hands)] + [("blind", blind)]:
            seen: set[Card] = set()
            for c in cards or ():
                if c in seen:
                    raise RecordError(f"{label}: duplicate card {c} (twice in {label})")
                if c in where_of:
                    raise RecordError(f"{label}: duplicate card {c} (also in {where_of[c]})")
                seen.add(c)
            where_of.update((c, label) for c in cards or ())
        for s, h in enumerate(hands):
            if h is not None and len(h) != game.hand_size and not self.in_position:
                raise RecordError(f"hands.{players[s]}: {counted(len(h), 'card')}, {game.name} needs "
                                  f"{game.hand_size}")
        if blind is not None and len(blind) != game.blind_size:
            raise RecordError(f"blind: {counted(len(blind), 'card')}, {game.name} needs {game.blind_size}")
        return where_of

    def _check_bury(self, bury: tuple[Card, ...], hands: list[tuple[Card, ...] | None],
                    blind: tuple[Card, ...] | None, where_of: dict[Card, str], p: int) -> None:
        """The bury: every card once, the right number, from the picker's hand and the blind."""
        game = self.game
        if len(set(bury)) != len(bury):
            c = next(c for c in bury if bury.count(c) > 1)
            raise RecordError(f"bury: duplicate card {c} (twice in bury)")
        if len(bury) != game.bury_size:
            raise RecordError(f"bury: {counted(len(bury), 'card')}, the {game.name} picker buries "
                              f"{game.bury_size}")
        mine = f"hands.{self.players[p]}"
        for c in bury:
            w = where_of.get(c)
            if w is not None and w not in (mine, "blind"):
                raise RecordError(f"bury: {c} is in neither the picker's hand nor the blind (it is in {w})")
            if hands[p] is not None and blind is not None and w is None:
                raise RecordError(f"bury: {c} is in neither the picker's hand nor the blind")

    def _completed(self, rec: Record, found: dict[str, tuple[Card, ...]]) -> Record:
        """``rec`` with the hands, blind and bury the play determines, each checked as if the record gave it
        (every check of the cards, the auction, then the play replayed with every rule): the cards stay cards."""
        hands = list(rec.hands)
        for s, name in enumerate(rec.players):
            hands[s] = found.get(f"hands.{name}", hands[s])
        blind, bury = found.get("blind", rec.blind), found.get("bury", rec.bury)
        p = rec.declarer
        try:
            where_of = self._check_hands(hands, blind)
            if self.game.kind == "picker" and bury is not None:
                self._check_bury(bury, hands, blind, where_of, p)  # type: ignore[arg-type]
            if rec.called is not None:
                self._check_call(rec.called, rec.under, hands, blind, bury, where_of, p)  # type: ignore[arg-type]
            if self.game.sie:
                self._sie(hands, p, where_of, rec.play)  # type: ignore[arg-type]
            auction = self._auction(hands, blind, bury, rec)
            done = dataclasses.replace(rec, hands=tuple(hands), blind=blind, bury=bury, auction=auction,
                                       inferred=tuple(found))
            done.replay  # noqa: B018 - the play checked with every hand known, and kept
        except RecordError as e:
            msg = str(e)
            named = {c for c in (written_card(w) for w in re.findall(r"[\w♣♠♥♦-]+", msg)) if c is not None}
            trick = next((t for t, cards in enumerate(rec.play, 1) if named & set(cards)), None)
            if msg.startswith("play:") or trick is None:
                raise RecordError(f"{msg} (with {', '.join(found)} inferred from the play)") from None
            raise RecordError(f"play: trick {trick}: the hands inferred from the play do not fit: {msg}; is the "
                              f"trick written in the order played, from its leader?") from None
        return done

    def _game(self) -> Game:
        d = self.d
        if "game" not in d:
            raise RecordError('game: missing: name the game, e.g. game = "sheepshead" (`sheepsolve games` '
                              "lists them)")
        name = d["game"]
        if not isinstance(name, str):
            raise RecordError(f"game: must be a game name (a string), not {kind_of(name)}")
        try:
            canon = resolve_name(name)[0]
        except GameError as e:
            names = list(REGISTRY) + [a for s in REGISTRY.values() for a in s.aliases]
            close = difflib.get_close_matches(name.strip().lower(), names, n=1)
            raise RecordError(str(e) + (f' (did you mean "{close[0]}"?)' if close else "")) from None
        family = REGISTRY[canon].family
        seats = d.get("seats")
        if seats is not None and (isinstance(seats, bool) or not isinstance(seats, int) or seats < 1):
            raise RecordError(f"seats: must be a number of players, not {shown(seats)}")
        players = d.get("players")
        if players is not None and not isinstance(players, list):
            raise RecordError(f"players: must be a list of names, not {kind_of(players)}")
        n = len(players) if players is not None else seats
        if players is not None and seats is not None and seats != n:
            raise RecordError(f"seats: {seats}, but players names {n}")
        if "tout" in d and family != "schafkopf":
            raise RecordError(f"tout: {canon} has no tout (only Schafkopf contracts are played tout)")
        rules = d.get("rules")
        if rules is not None:
            if not isinstance(rules, Mapping):
                raise RecordError(f"rules: must be a table of rule switches, not {kind_of(rules)}")
            for k in rules:
                if not isinstance(k, str):
                    raise RecordError(f"rules: keys must be strings, not {shown(k)}")
        try:
            trump = d.get("trump")
            if isinstance(trump, str):
                trump = parse_suit(trump, self.notation)
            return make_game(d["game"], trump=trump, deck=d.get("deck"), tout=d.get("tout"),
                             partner=d.get("partner"), seats=n, rules=rules, ouvert=d.get("ouvert"),
                             hand=d.get("hand"), schneider_announced=d.get("schneider_announced"),
                             schwarz_announced=d.get("schwarz_announced"), bid=d.get("bid"))
        except SuitError as e:
            raise RecordError(f"trump: {e}") from None
        except GameError as e:
            msg = str(e)
            m = re.match(r"rules\.(.*): unknown rule switch", msg, re.S)
            if m:
                from ..games import RULE_SWITCHES
                close = difflib.get_close_matches(m.group(1), list(RULE_SWITCHES) + ["preset"], n=1)
                if close:
                    msg += f' (did you mean "{close[0]}"?)'
            raise RecordError(shortened(msg, 300)) from None

    def _players(self, n: int) -> tuple[str, ...]:
        players = self.d.get("players")
        if players is None:
            return tuple(str(i + 1) for i in range(n))
        return player_names(players)

    def _declarer(self) -> int | None:
        d, g = self.d, self.game
        role = {"picker": "picker", "contract": "declarer"}.get(g.kind)
        for k in ("picker", "declarer"):
            if k in d and k != role:
                if role is None:
                    raise RecordError(f"{k}: {g.name} has no {k}: everyone plays alone")
                raise RecordError(f'{k}: a {g.name} record names its {role} ({role} = "..."), not a {k}')
        if role is None:
            return None
        if role not in d:
            verb = "picked" if role == "picker" else "declared the game"
            raise RecordError(f'{role}: missing: name the player who {verb} ({role} = "{self.players[0]}")')
        return self._seat(d[role], role)

    def _extra(self) -> dict[str, Any]:
        d = self.d
        extra = {k: info_value(v, k, 0) for k, v in d.items() if k in INFO_KEYS}
        if "dealer" in d:
            seat = self._seat(d["dealer"], "dealer")
            if seat != len(self.players) - 1:
                raise RecordError(f"dealer: {self.players[seat]} is not the last player: players are listed "
                                  f"clockwise from the seat left of the dealer, so the dealer is "
                                  f"{self.players[-1]}")
        return extra

    def _call(self, hands: list, blind: tuple[Card, ...] | None, bury: tuple[Card, ...] | None,
              where_of: dict[Card, str], p: int | None) -> tuple[Card | None, Card | None, bool]:
        """``called``, ``under`` and ``alone``: present where the game has them, and a call the hand allows."""
        d, g = self.d, self.game
        alone_v = self._bool("alone")
        called: Card | None = None
        under: Card | None = None
        alone = False
        if g.partner == "called-ace":
            cv = d.get("called")
            if cv is None:
                if alone_v is not True:
                    raise RecordError('called: missing: name the called card (called = "AH"), or write '
                                      'called = "alone" (or alone = true) if the picker went alone')
                alone = True
            elif isinstance(cv, str) and cv.strip().lower() == "alone":
                if alone_v is False:
                    raise RecordError('alone: false contradicts called = "alone"')
                alone = True
            else:
                called = self._card(cv, "called")
                if alone_v is True:
                    raise RecordError(f'alone: true, but the picker called {called} (write called = "alone" '
                                      f"when he goes alone)")
            if "under" in d:
                if alone:
                    raise RecordError("under: the picker went alone, so no card goes under")
                under = self._card(d["under"], "under")
        elif g.partner == "sauspiel":
            cv = d.get("called")
            if cv is None:
                raise RecordError('called: missing: a sauspiel names the called ace (called = "AC")')
            if isinstance(cv, str) and cv.strip().lower() == "alone":
                raise RecordError('called: a sauspiel declarer cannot play alone; name the called ace '
                                  '(a game alone is a solo: game = "solo")')
            called = self._card(cv, "called")
            if alone_v is True:
                raise RecordError(f"alone: a sauspiel declarer always has a partner (the holder of {called})")
            if "under" in d:
                raise RecordError('under: a card goes under only in Sheepshead with partner = "called-ace"')
        else:
            if "called" in d:
                hint = (' (the partner rule is jack-of-diamonds; write partner = "called-ace" for a called ace)'
                        if g.partner == "jack-of-diamonds" else "")
                raise RecordError(f"called: {g.name} has no called card{hint}")
            if "under" in d:
                raise RecordError('under: a card goes under only in Sheepshead with partner = "called-ace"')
            if g.kind not in ("picker", "contract"):
                if alone_v is not None:
                    raise RecordError(f"alone: {g.name} has no picker or declarer: everyone plays alone")
            elif alone_v is False and g.partner != "jack-of-diamonds":
                who = "picker" if g.kind == "picker" else "declarer"
                raise RecordError(f"alone: false, but in {g.name} the {who} always plays alone")
            else:
                alone = bool(alone_v)
        if called is not None and not self.in_position:  # a position's call: record.position checks it
            self._check_call(called, under, hands, blind, bury, where_of, p)  # type: ignore[arg-type]
        return called, under, alone

    def _check_call(self, called: Card, under: Card | None, hands: list, blind: tuple[Card, ...] | None,
                    bury: tuple[Card, ...] | None, where_of: dict[Card, str], p: int) -> None:
        g, players = self.game, self.players
        role = "picker" if g.kind == "picker" else "declarer"
        callable_ = _callable_cards(g)
        if called not in callable_:
            raise RecordError(f"called: {called} cannot be called in {g.name} (callable: "
                              f"{format_cards(sorted(callable_))})")
        mine = f"hands.{players[p]}"
        w = where_of.get(called)
        if w == mine:
            raise RecordError(f"called: {called}: the {role} holds it himself ({mine})")
        if w == "blind":
            raise RecordError(f"called: {called} is in the blind, so the picker holds it himself")
        if bury and called in bury:
            raise RecordError(f"called: {called}: the picker buried it, so he holds it himself")
        others = [s for s in range(g.seats) if s != p]
        if all(hands[s] is not None for s in others) and w is None:
            raise RecordError(f"called: {called} is in none of the other players' hands, so the {role} "
                              f"holds it himself")
        kept = kept_hand(g, p, hands, blind, bury)
        if kept is None:  # the declarer's hand is not fully known: check what can be checked
            if under is not None:
                wu = where_of.get(under)
                if bury is not None and under in bury:
                    raise RecordError(f"under: {under} was buried; the card under comes from the picker's "
                                      f"kept hand")
                if wu is not None and wu not in (mine, "blind"):
                    raise RecordError(f"under: {under} is in {wu}, not in the picker's hand")
                if hands[p] is not None and blind is not None and wu is None:
                    raise RecordError(f"under: {under} is in neither the picker's hand nor the blind")
                if hands[p] is not None and blind is None:
                    from_blind = {c for c in (bury or ()) + (under,) if c not in hands[p]}
                    if len(from_blind) > g.blind_size:
                        raise RecordError(f"under: {under} is not in the picker's hand, and the blind cannot "
                                          f"hold it too: the bury {format_cards(bury or ())} came from it")
            return
        calls = legal_calls(g, kept, bury or ())
        match = next((x for x in calls if x.card == called), None)
        allowed = ", ".join(map(str, calls)) or "none"
        if match is None:
            suit = called.suit
            holds = [c for c in kept if g.suit_class(c) == suit]
            if not holds:
                buried = [c for c in bury or () if g.suit_class(c) == suit]
                if buried:
                    raise RecordError(f"bury: {format_cards(buried)}: the picker may not bury his last hold card "
                                      f"of the called suit ({_SUIT_NAMES[suit]}) when he calls {called} "
                                      f"(legal calls with this bury: {allowed})")
                raise RecordError(f"called: {called}: the {role} holds no {_SUIT_NAMES[suit]} to keep as a hold "
                                  f"card (legal calls: {allowed})")
            if called.rank == "T":
                raise RecordError(f"called: {called}: a ten is called only when the picker holds all three fail "
                                  f"aces (legal calls: {allowed})")
            raise RecordError(f"called: {called} is not a call the rules allow with the {role}'s hand "
                              f"{format_cards(kept)} (legal calls: {allowed})")
        if match.under and under is None:
            raise RecordError(f'under: missing: calling {called} from a void suit needs a card under '
                              f'(under = "...", a card of the picker\'s kept hand)')
        if not match.under and under is not None:
            raise RecordError(f"under: {under}: a card goes under only when the picker calls the ace of a suit "
                              f"he is void in, and he holds {_SUIT_NAMES[called.suit]} to call {called}")
        if under is not None and under not in kept:
            if under in (bury or ()):
                raise RecordError(f"under: {under} was buried; the card under comes from the picker's kept hand")
            raise RecordError(f"under: {under} is not in the picker's kept hand ({format_cards(kept)})")

    def _stakes(self) -> tuple[bool, bool, int]:
        d, g = self.d, self.game
        names = {"crack": "crack", "recrack": "recrack", "kontra": "crack", "re": "recrack"}
        given: dict[str, tuple[str, bool]] = {}
        for key, fieldname in names.items():
            if key not in d:
                continue
            if g.kind == "picker" and key in ("kontra", "re"):
                raise RecordError(f"{key}: a Schafkopf word; a {g.name} record writes "
                                  f"{'crack' if key == 'kontra' else 'recrack'}")
            if g.kind not in ("picker", "contract"):
                raise RecordError(f"{key}: {g.name} has no picker or declarer to double against")
            v = self._bool(key)
            if fieldname in given and given[fieldname][1] != v:
                other = given[fieldname][0]
                raise RecordError(f"{key}: {shown(v)} disagrees with {other} = {shown(given[fieldname][1])} "
                                  f"(two names for the same stake)")
            given[fieldname] = (key, v)  # type: ignore[assignment]
        crack = given.get("crack", ("", False))[1]
        recrack = given.get("recrack", ("", False))[1]
        if recrack and not crack:
            k = given["recrack"][0]
            raise RecordError(f"{k}: true, but nobody cracked first ({'kontra' if k == 're' else 'crack'} is "
                              f"false)")
        doublers = d.get("doublers", 0)
        if isinstance(doublers, bool) or not isinstance(doublers, int) or not 0 <= doublers < _INT64:
            raise RecordError(f"doublers: must be a whole number 0 or more, not {shown(doublers)}")
        if doublers > MAX_DOUBLERS:
            raise RecordError(f"doublers: at most {MAX_DOUBLERS} (stakes x{2 ** MAX_DOUBLERS}), not {shown(doublers)}")
        return crack, recrack, doublers

    def _play(self) -> tuple[tuple[Card, ...], ...]:
        g = self.game
        written = self.d.get("play")
        if written is None:
            return ()
        if not isinstance(written, list):
            raise RecordError(f'play: must be a list of tricks, one string of cards each ("7H AH 9H"), '
                              f"not {kind_of(written)}")
        tricks = []
        for t, trick in enumerate(written, 1):
            where = f"play: trick {t}"
            if isinstance(trick, str):
                items: list[Any] = [x for x in re.split(r"[\s,]+", trick.strip()) if x]
            elif isinstance(trick, list):
                items = trick
            else:
                raise RecordError(f"{where}: must be a string of cards or a list of card strings, "
                                  f"not {kind_of(trick)}")
            if not items:
                raise RecordError(f"{where}: no cards")
            if t > g.tricks:
                raise RecordError(f"{where}: the hand is over after {g.tricks} tricks")
            # the cards after the first one too many are not read: the error names that one
            cards = tuple(self._card(x, f"{where}, card {i}") for i, x in enumerate(items[:g.seats + 1], 1))
            if len(cards) > g.seats:
                raise RecordError(f"{where}, card {g.seats + 1}: one card too many: {g.name} has {g.seats} "
                                  f"players, so a trick has {g.seats} cards")
            tricks.append(cards)
        for t, cards in enumerate(tricks[:-1], 1):
            if len(cards) < g.seats:
                raise RecordError(f"play: trick {t}: {counted(len(cards), 'card')}, but only the last trick may "
                                  f"be unfinished ({g.name} has {g.seats} players)")
        return tuple(tricks)

    def _sie(self, hands: list, p: int, where_of: dict[Card, str], play: tuple) -> None:
        g = self.game
        tops = [c for c in g.deck if c.rank in "QJ"]
        if g.hand_size < len(tops):
            raise RecordError(f"deck: a sie cannot be played with {g.hand_size} cards: the declarer must hold "
                              f"all {len(tops)} Ober and Unter")
        for c in tops:
            w = where_of.get(c)
            if w is not None and w != f"hands.{self.players[p]}":
                raise RecordError(f"{w}: holds {c}, but in a sie the declarer holds every Ober and Unter")
            if hands[p] is not None and w is None:
                raise RecordError(f"hands.{self.players[p]}: a sie needs every Ober and Unter, and {c} is missing")
        if play:
            raise RecordError("play: a sie is not played out")


def written_card(word: str) -> Card | None:
    """The card ``word`` names, in either notation, or ``None``."""
    try:
        return Card.parse(word)
    except CardError:
        return None


def _callable_cards(game: Game) -> frozenset[Card]:
    """Every card some hand may call in ``game``, as the engine's :func:`legal_calls` decides."""
    lows = [c for c in game.deck if c.rank not in "AT"]
    no_tens = [c for c in game.deck if c.rank != "T"]
    return frozenset(x.card for h in (lows, no_tens) for x in legal_calls(game, h) if x.card is not None)


def _key_hint(k: str) -> str:
    close = difflib.get_close_matches(k.lower()[:40], sorted(ALL_KEYS), n=1, cutoff=0.6)
    if close:
        return f' (did you mean "{close[0]}"?)'
    return (f" (keys: {', '.join(RECORD_KEYS)}; informational keys: {', '.join(INFO_KEYS)}; "
            f"see docs/RECORD-FORMAT.md)")

