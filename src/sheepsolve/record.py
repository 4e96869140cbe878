"""Hand records: read, validate and write the format of ``docs/RECORD-FORMAT.md``.

A record is TOML (or a JSON object with the same keys). Reading checks everything and repairs nothing: every
problem raises :class:`RecordError`, whose message starts with the key (``hands.Bob``, ``bury``, ``called``,
``play: trick 3, card 1``) and names the player, trick and card. The rules themselves (following suit, the
called-card restrictions, which calls a hand allows) come from :mod:`sheepsolve.engine`.

>>> rec = parse_record('''
... game = "sheepshead-3"
... players = ["Ann", "Bob", "Cal"]
... picker = "Ann"
... blind = "8H 7H"
... bury = "8H 7H"
... play = ["QC KD AS", "QS"]
... [hands]
... Ann = "QC QS QH QD JC JS JH JD AD TD"
... Bob = "KD 9D 8D 7D AC TC KC 9C 8C 7C"
... Cal = "AS TS KS 9S 8S 7S AH TH KH 9H"
... ''')
>>> rec.game.name, rec.players[rec.declarer], rec.complete
('sheepshead-3', 'Ann', True)
>>> st = rec.state()
>>> rec.players[st.tricks[0].winner], rec.players[st.to_move]
('Ann', 'Bob')
>>> parse_record(dump_record(rec)) == rec == parse_record(dump_record(rec, "json"), "json")
True
>>> try:
...     parse_record('game = "sheepshead-3"\\npicker = "Zed"')
... except RecordError as e:
...     print(e)
picker: "Zed" is not a player (players: 1, 2, 3)

Keys (see docs/RECORD-FORMAT.md): ``game`` (required), ``players``, ``picker`` (Sheepshead) or ``declarer``
(Schafkopf), ``blind``, ``bury``, ``partner``, ``called`` (a card, or ``"alone"``), ``under``, ``alone``,
``trump``, ``tout``, ``deck``, ``crack``/``recrack`` (Schafkopf: ``kontra``/``re``), ``doublers``, ``play``,
``[rules]``, ``[hands]``. The informational keys of :data:`INFO_KEYS` are kept as they are for the round trip
(``seats`` must agree with ``players``, ``dealer`` must be the last player); TOML dates become ISO strings.
Any other key is an error. Player references are names; with the default names ``"1"`` .. ``"N"`` an integer
may stand for its name.

A record may leave hands (and the blind and bury) out. What is given is validated, and the play is checked
as far as the known hands allow: a player whose hand at the first lead is known is held to every rule; a
card from an unknown hand is accepted when it is not known to be elsewhere. :attr:`Record.complete` says
whether :meth:`Record.setup` and :meth:`Record.state` can work.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import itertools
import json
import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, CardError, format_cards, parse_cards
from .engine import RulesError, Setup, State, legal_calls
from .files import FileError, clip, control_character, read_input_text
from .games import REGISTRY, Game, GameError, make_game, resolve_name, resolve_rules
from .scoring import MAX_DOUBLERS

__all__ = [
    "Record",
    "RecordError",
    "parse_record",
    "load_record",
    "record_from_dict",
    "dump_record",
    "RECORD_KEYS",
    "INFO_KEYS",
]

#: The keys with a meaning (docs/RECORD-FORMAT.md).
RECORD_KEYS: tuple[str, ...] = (
    "game", "trump", "tout", "deck", "partner", "players", "picker", "declarer", "blind", "bury", "called",
    "under", "alone", "crack", "recrack", "kontra", "re", "doublers", "play", "rules", "hands",
)
#: Informational keys: kept for the round trip, any value (``seats`` and ``dealer`` are checked).
INFO_KEYS: tuple[str, ...] = (
    "event", "site", "date", "round", "source", "comment", "notes", "dealer", "puzzle", "annotations", "seats",
)
_ALL_KEYS = frozenset(RECORD_KEYS + INFO_KEYS)
_SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_INT64 = 2**63
MAX_RECORD_BYTES = 1024 * 1024
"""The largest record file read (1 MiB): a hand record is a few kilobytes, and a bigger file only costs time to
parse before it is refused."""
MAX_NAME_LENGTH = 100
"""The longest player name (in characters)."""
_MAX_DEPTH = 32


class RecordError(ValueError):
    """A record that cannot be read or breaks the format or the rules. The message starts with the key."""


# --------------------------------------------------------------------------------------------------------------
# The record.


@dataclass(frozen=True)
class Record:
    """A validated hand record. Build it with :func:`parse_record`, :func:`load_record` or
    :func:`record_from_dict`, which check everything; the constructor checks nothing.

    ``hands`` are the hands as dealt (before the blind was taken), ``None`` where not given; ``blind`` and
    ``bury`` are ``None`` when the game has them but the record does not give them, ``()`` when the game has
    none. ``alone`` is True when the record says the picker or declarer went alone (``called = "alone"`` or
    ``alone = true``); the engine makes a jack-of-diamonds picker holding that jack alone by itself.
    ``crack``/``recrack`` are Schafkopf's kontra/re too.
    """

    game: Game
    players: tuple[str, ...]
    declarer: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] = ()
    blind: tuple[Card, ...] | None = ()
    bury: tuple[Card, ...] | None = ()
    called: Card | None = None
    under: Card | None = None
    alone: bool = False
    crack: bool = False
    recrack: bool = False
    doublers: int = 0
    play: tuple[tuple[Card, ...], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    inferred: tuple[str, ...] = ()  # keys completed from the play: "hands.<player>", "blind", "bury"

    def seat_of(self, name: str | int) -> int:
        """The seat index of a player: a name, or with the default names an integer.

        >>> rec = record_from_dict({"game": "sheepshead", "picker": 1})
        >>> rec.seat_of("3"), rec.seat_of(3), rec.players[rec.declarer]
        (2, 2, '1')
        """
        return _seat_ref(self.players, name, "player")

    @property
    def complete(self) -> bool:
        """Whether every hand is known, and the blind and bury where the game has them."""
        return not self._missing()

    def _missing(self) -> list[str]:
        out = []
        absent = [p for p, h in zip(self.players, self.hands) if h is None]
        if absent:
            out.append("no hand for " + ", ".join(absent))
        if self.blind is None:
            out.append("no blind")
        if self.bury is None:
            out.append("no bury")
        return out

    def undetermined(self) -> dict[str, int]:
        """Where the record leaves cards undetermined, and how many: ``{"hands.Bob": 4, "blind": 2, ...}``
        (for a hand, the cards of it the play does not show; an empty dict for a complete record).

        >>> rec = record_from_dict({"game": "wenz", "declarer": "1", "play": ["JC 7C"],
        ...                         "hands": {"1": "JC JS JH JD AC TC KC QC", "3": "AS TS KS QS 9S 8S 7S AH"}})
        >>> rec.undetermined()
        {'hands.2': 7, 'hands.4': 8}
        """
        if self.complete:
            return {}
        played = _played_by_seat(self, _check_play(self))
        g, p = self.game, self.declarer
        out: dict[str, int] = {}
        for s, h in enumerate(self.hands):
            if h is not None:
                continue
            known = set(played[s])
            if g.kind == "picker" and s == p:
                known = (known | set(self.bury or ())) - set(self.blind or ()) if self.blind is not None else set()
            out[f"hands.{self.players[s]}"] = g.hand_size - len(known)
        if self.blind is None:
            out["blind"] = g.blind_size
        if self.bury is None:
            out["bury"] = g.bury_size
        return out

    def incomplete_message(self) -> str:
        """What the record leaves undetermined, in words: places and the count of cards (empty when complete)."""
        missing = self._missing()
        if not missing:
            return ""
        try:
            counts = self.undetermined()
            state = _check_play(self)
        except RecordError:  # pragma: no cover - a record that was read has a play that replays
            return "; ".join(missing)
        placed = {c for h in self.hands if h is not None for c in h} | set(self.blind or ()) | set(self.bury or ())
        placed |= {c for cards in _played_by_seat(self, state) for c in cards}
        total = len(set(self.game.deck) - placed)
        where = ", ".join(f"{k} {v}" for k, v in counts.items())
        return "; ".join(missing) + f" ({total} card{'s' if total != 1 else ''} not determined by the play: {where})"

    def setup(self) -> Setup:
        """The engine's :class:`~sheepsolve.engine.Setup`; raises :class:`RecordError` if the record is partial.

        >>> rec = record_from_dict({"game": "sheepshead", "picker": "1", "hands": {"1": "QC QS QH QD JC JS"}})
        >>> try:
        ...     rec.setup()
        ... except RecordError as e:
        ...     print(e)
        setup: the record is incomplete: no hand for 2, 3, 4, 5; no blind; no bury (26 cards not determined by the play: hands.2 6, hands.3 6, hands.4 6, hands.5 6, blind 2, bury 2)
        """
        if self._missing():
            raise RecordError("setup: the record is incomplete: " + self.incomplete_message())
        try:
            return Setup.create(self.game, [list(h or ()) for h in self.hands], declarer=self.declarer,
                                blind=self.blind or (), bury=self.bury or (), called=self.called, under=self.under,
                                alone=self.alone)
        except RulesError as e:
            raise RecordError(f"setup: {e}") from None

    def state(self) -> State:
        """The position after the record's last card, replayed through the engine."""
        return _replay(self, self.setup(), frozenset(range(self.game.seats)))

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data (the keys of the format, cards as canonical text), ready for JSON or TOML.

        >>> rec = record_from_dict({"game": "Rufspiel", "declarer": 2, "called": "as"})
        >>> d = rec.to_dict()
        >>> d["game"], d["declarer"], d["called"]
        ('sauspiel', '2', 'AS')
        """
        g = self.game
        out: dict[str, Any] = {"game": g.name}
        if g.trump_suit is not None:
            out["trump"] = g.trump_suit
        if g.tout:
            out["tout"] = True
        if len(g.deck) < 32:
            out["deck"] = "short"
        if g.name == "sheepshead":
            out["partner"] = g.partner
        out["players"] = list(self.players)
        if self.declarer is not None:
            out["picker" if g.kind == "picker" else "declarer"] = self.players[self.declarer]
        if self.blind and "blind" not in self.inferred:
            out["blind"] = format_cards(self.blind)
        if self.bury and "bury" not in self.inferred:
            out["bury"] = format_cards(self.bury)
        if g.partner == "called-ace":
            out["called"] = "alone" if self.alone or self.called is None else str(self.called)
        elif self.called is not None:
            out["called"] = str(self.called)
        elif self.alone:
            out["alone"] = True
        if self.under is not None:
            out["under"] = str(self.under)
        crack, recrack = ("kontra", "re") if g.family == "schafkopf" else ("crack", "recrack")
        if self.crack:
            out[crack] = True
        if self.recrack:
            out[recrack] = True
        if self.doublers:
            out["doublers"] = self.doublers
        out.update(self.extra)
        if self.play:
            out["play"] = [format_cards(t) for t in self.play]
        rules = _rules_written(g)
        if rules:
            out["rules"] = rules
        hands = {p: format_cards(h) for p, h in zip(self.players, self.hands)
                 if h is not None and f"hands.{p}" not in self.inferred}
        if hands:
            out["hands"] = hands
        return out


def _rules_written(game: Game) -> dict[str, Any]:
    """The rule switches that differ from the defaults (and the preset), which re-build the same game."""
    preset = game.rules.get("preset")
    base = resolve_rules(game.family, {"preset": preset} if preset is not None else None)
    out: dict[str, Any] = {"preset": preset} if preset is not None else {}
    out.update({k: v for k, v in game.rules.items() if k != "preset" and base.get(k) != v})
    return out


# --------------------------------------------------------------------------------------------------------------
# Reading.


def parse_record(text: str, fmt: str = "toml", *, german: bool = False) -> Record:
    """Read a record from TOML (``fmt="toml"``) or JSON (``fmt="json"``) text.

    ``german=True`` also accepts German card names (``EO``, ``Herz-Sau``) in every card field.

    >>> try:
    ...     parse_record('game = "wenz"\\nplayers = ["A", "B", "C", "D"]\\ndeclarer = "B"\\nhands.C = "JC JC"')
    ... except RecordError as e:
    ...     print(e)
    hands.C: duplicate card JC (twice in hands.C)
    >>> try:
    ...     parse_record('game = "leaster"\\nplayers = [Ann]')
    ... except RecordError as e:
    ...     print(e)
    TOML syntax error: Invalid value (at line 2, column 12)
    """
    return record_from_dict(parse_data(text, fmt), german=german)


def parse_data(text: str, fmt: str = "toml") -> Any:
    """The plain data of a record's TOML (``fmt="toml"``) or JSON text, which :func:`record_from_dict` reads;
    errors as :func:`parse_record` gives them.

    >>> parse_data('game = "wenz"')
    {'game': 'wenz'}
    """
    if not isinstance(text, str):
        raise RecordError(f"record: the text must be a string, not {_kind(text)}")
    if fmt == "toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RecordError(f"TOML syntax error: {e}") from None
        except (ValueError, RecursionError) as e:  # tomllib's int() on a huge number, deep nesting
            raise RecordError(f"TOML: cannot read the record: {_short(str(e) or type(e).__name__, 200)}") from None
    elif fmt == "json":
        try:
            data = json.loads(text, object_pairs_hook=_json_object)
        except json.JSONDecodeError as e:
            raise RecordError(f"JSON syntax error: {e.msg} (at line {e.lineno}, column {e.colno})") from None
        except RecordError:
            raise
        except (ValueError, RecursionError) as e:
            raise RecordError(f"JSON: cannot read the record: {_short(str(e) or type(e).__name__, 200)}") from None
    else:
        raise RecordError(f'fmt: must be "toml" or "json", not {_show(fmt)}')
    return data


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise RecordError(f"record: key {_show(k)} appears twice in one JSON object")
        out[k] = v
    return out


def load_record(path: str | os.PathLike[str], *, german: bool = False) -> Record:
    """Read a record file: JSON if the name ends in ``.json``, else TOML. Errors start with the path.

    Only a regular file of at most :data:`MAX_RECORD_BYTES` is read (see
    :func:`~sheepsolve.files.read_input_file`)."""
    label, fmt, text = read_record_file(path)
    try:
        return parse_record(text, fmt, german=german)
    except RecordError as e:
        raise RecordError(f"{label}: {e}") from None


def read_record_file(path: str | os.PathLike[str]) -> tuple[str, str, str]:
    """``(label, fmt, text)`` of a record file as :func:`load_record` reads it: the path as errors name it, the
    format by the file name, the text (a :class:`RecordError` when the file cannot be read)."""
    try:
        p = os.fspath(path)
    except TypeError:
        raise RecordError(f"record: a path must be a string, not {_kind(path)}") from None
    try:
        text = read_input_text(p, max_bytes=MAX_RECORD_BYTES)
    except FileError as e:
        raise RecordError(str(e)) from None
    return clip(p, 200), ("json" if str(p).lower().endswith(".json") else "toml"), text


def record_from_dict(d: Mapping[str, Any], *, german: bool = False) -> Record:
    """Validate plain data (parsed TOML or JSON, or built in Python) and build the :class:`Record`.

    >>> try:
    ...     record_from_dict({"game": "sheepshead", "picker": "1", "piker": "2"})
    ... except RecordError as e:
    ...     print(e)
    piker: unknown key (did you mean "picker"?)
    """
    try:
        return _Reader(d, german).read()
    except RecursionError:
        raise RecordError("record: nested too deeply") from None


class _Reader:
    """One pass over the data, in the order a reader would check it: keys, game, players, cards, calls, play."""

    def __init__(self, d: Any, german: bool, infer: bool = True) -> None:
        self.d = d
        self.german = german
        self.infer = infer

    # -- small helpers ------------------------------------------------------------------------------------------
    def _card(self, value: Any, where: str) -> Card:
        if not isinstance(value, str):
            raise RecordError(f'{where}: a card must be a string like "QC", not {_kind(value)}')
        try:
            return self._in_deck(Card.parse(value, german=self.german), where)
        except CardError as e:
            raise RecordError(f"{where}: {e}") from None

    def _in_deck(self, c: Card, where: str) -> Card:
        if c not in self.deck:
            raise RecordError(f"{where}: {c} is not in the short deck (no 7s or 8s)")
        return c

    def _cards(self, value: Any, where: str) -> tuple[Card, ...]:
        if not isinstance(value, (str, list)):
            raise RecordError(f'{where}: must be a string of cards like "QC 7D" or a list of card strings, '
                              f"not {_kind(value)}")
        items = [p for p in re.split(r"[\s,]+", value.strip()) if p] if isinstance(value, str) else value
        if len(items) > len(self.deck):  # refused before reading them one by one
            raise RecordError(f"{where}: {len(items)} cards, more than the deck holds ({len(self.deck)})")
        try:
            return tuple(self._in_deck(c, where) for c in parse_cards(items, german=self.german))
        except CardError as e:
            raise RecordError(f"{where}: {e}") from None

    def _bool(self, key: str) -> bool | None:
        v = self.d.get(key)
        if v is not None and not isinstance(v, bool):
            raise RecordError(f"{key}: must be true or false, not {_kind(v)}")
        return v

    def _seat(self, value: Any, where: str) -> int:
        return _seat_ref(self.players, value, where)

    # -- the pass -----------------------------------------------------------------------------------------------
    def read(self) -> Record:
        d = self.d
        if not isinstance(d, Mapping):
            raise RecordError(f"record: must be a table of keys, not {_kind(d)}")
        _scan(d, "record", 0)
        for k, v in d.items():
            if not isinstance(k, str):
                raise RecordError(f"record: keys must be strings, not {_show(k)}")
            if k not in _ALL_KEYS:
                raise RecordError(f"{_keyname(k)}: unknown key{_key_hint(k)}")
            if v is None:
                raise RecordError(f"{k}: null is not a value; leave the key out")
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
                raise RecordError(f"hands: must be a table of hands keyed by player name, not {_kind(hv)}")
            for key, value in hv.items():
                seat = self._seat(key, f"hands.{_keyname(key)}")
                if hands[seat] is not None:
                    raise RecordError(f"hands.{players[seat]}: given twice")
                hands[seat] = self._cards(value, f"hands.{players[seat]}")
        blind: tuple[Card, ...] | None = () if not game.blind_size else None
        if "blind" in d:
            if not game.blind_size:
                raise RecordError(f"blind: {game.name} has no blind")
            blind = self._cards(d["blind"], "blind")
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
            if h is not None and len(h) != game.hand_size:
                raise RecordError(f"hands.{players[s]}: {_count(len(h), 'card')}, {game.name} needs "
                                  f"{game.hand_size}")
        if blind is not None and len(blind) != game.blind_size:
            raise RecordError(f"blind: {_count(len(blind), 'card')}, {game.name} needs {game.blind_size}")

        # bury: from the picker's hand and the blind, the right number
        bury: tuple[Card, ...] | None = None if game.kind == "picker" else ()
        if "bury" in d:
            if game.kind != "picker":
                raise RecordError(f"bury: {game.name} has no bury (nobody picks)")
            bury = self._cards(d["bury"], "bury")
            if len(set(bury)) != len(bury):
                c = next(c for c in bury if bury.count(c) > 1)
                raise RecordError(f"bury: duplicate card {c} (twice in bury)")
            if len(bury) != game.bury_size:
                raise RecordError(f"bury: {_count(len(bury), 'card')}, the {game.name} picker buries "
                                  f"{game.bury_size}")
            mine = f"hands.{players[p]}"  # type: ignore[index]
            for c in bury:
                w = where_of.get(c)
                if w is not None and w not in (mine, "blind"):
                    raise RecordError(f"bury: {c} is in neither the picker's hand nor the blind (it is in {w})")
                if hands[p] is not None and blind is not None and w is None:  # type: ignore[index]
                    raise RecordError(f"bury: {c} is in neither the picker's hand nor the blind")

        called, under, alone = self._call(hands, blind, bury, where_of, p)
        crack, recrack, doublers = self._stakes()
        play = self._play()
        if game.sie:
            self._sie(hands, p, where_of, play)
        rec = Record(game=game, players=players, declarer=p, hands=tuple(hands), blind=blind, bury=bury,
                     called=called, under=under, alone=alone, crack=crack, recrack=recrack, doublers=doublers,
                     play=play, extra=extra)
        state = _check_play(rec)
        if not rec.complete and self.infer:
            found = _inferred_cards(rec, state)
            if found:
                return self._completed(found)
        return rec

    def _completed(self, found: dict[str, tuple[Card, ...]]) -> Record:
        """The record read again with the hands, blind and bury the play determines, all checked as if given."""
        d = dict(self.d)
        hands = dict(d.get("hands") or {})
        for key, cards in found.items():
            text = format_cards(cards)
            if key.startswith("hands."):
                hands[key[len("hands."):]] = text
            else:
                d[key] = text
        if hands:
            d["hands"] = hands
        again = _Reader(d, self.german, infer=False)
        try:
            rec = again.read()
        except RecordError as e:
            raise RecordError(f"{e} (with {', '.join(found)} inferred from the play)") from None
        return dataclasses.replace(rec, inferred=tuple(found))

    def _game(self) -> Game:
        d = self.d
        if "game" not in d:
            raise RecordError('game: missing: name the game, e.g. game = "sheepshead" (`sheepsolve games` '
                              "lists them)")
        name = d["game"]
        if not isinstance(name, str):
            raise RecordError(f"game: must be a game name (a string), not {_kind(name)}")
        try:
            canon = resolve_name(name)[0]
        except GameError as e:
            names = list(REGISTRY) + [a for s in REGISTRY.values() for a in s.aliases]
            close = difflib.get_close_matches(name.strip().lower(), names, n=1)
            raise RecordError(str(e) + (f' (did you mean "{close[0]}"?)' if close else "")) from None
        family = REGISTRY[canon].family
        seats = d.get("seats")
        if seats is not None and (isinstance(seats, bool) or not isinstance(seats, int) or seats < 1):
            raise RecordError(f"seats: must be a number of players, not {_show(seats)}")
        players = d.get("players")
        if players is not None and not isinstance(players, list):
            raise RecordError(f"players: must be a list of names, not {_kind(players)}")
        n = len(players) if players is not None else seats
        if players is not None and seats is not None and seats != n:
            raise RecordError(f"seats: {seats}, but players names {n}")
        if "tout" in d and family != "schafkopf":
            raise RecordError(f"tout: {canon} has no tout (only Schafkopf contracts are played tout)")
        rules = d.get("rules")
        if rules is not None:
            if not isinstance(rules, Mapping):
                raise RecordError(f"rules: must be a table of rule switches, not {_kind(rules)}")
            for k in rules:
                if not isinstance(k, str):
                    raise RecordError(f"rules: keys must be strings, not {_show(k)}")
        try:
            return make_game(name, trump=d.get("trump"), deck=d.get("deck"), tout=d.get("tout"),
                             partner=d.get("partner"), seats=n, rules=rules)
        except GameError as e:
            msg = str(e)
            m = re.match(r"rules\.(.*): unknown rule switch", msg, re.S)
            if m:
                from .games import RULE_SWITCHES
                close = difflib.get_close_matches(m.group(1), list(RULE_SWITCHES) + ["preset"], n=1)
                if close:
                    msg += f' (did you mean "{close[0]}"?)'
            raise RecordError(_short(msg, 300)) from None

    def _players(self, n: int) -> tuple[str, ...]:
        players = self.d.get("players")
        if players is None:
            return tuple(str(i + 1) for i in range(n))
        names: list[str] = []
        for i, name in enumerate(players):
            where = f"players: player {i + 1}"
            if not isinstance(name, str):
                raise RecordError(f"{where}: a name must be a string, not {_kind(name)}")
            _check_text(name, where)
            if not name.strip():
                raise RecordError(f"{where}: the name is empty")
            bad = control_character(name)
            if bad is not None:
                raise RecordError(f"{where}: {_show(name)} holds a control character ({clip(bad)}): a name is one "
                                  f"line of printable text")
            if len(name) > MAX_NAME_LENGTH:
                raise RecordError(f"{where}: the name has {len(name)} characters, at most {MAX_NAME_LENGTH}")
            if name in names:
                raise RecordError(f"players: {_show(name)} is listed twice")
            names.append(name)
        return tuple(names)

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
        extra = {k: _info_value(v, k, 0) for k, v in d.items() if k in INFO_KEYS}
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
        if called is not None:
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
        kept = _kept_hand(g, p, hands, blind, bury)
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
                raise RecordError(f"{key}: {_show(v)} disagrees with {other} = {_show(given[fieldname][1])} "
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
            raise RecordError(f"doublers: must be a whole number 0 or more, not {_show(doublers)}")
        if doublers > MAX_DOUBLERS:
            raise RecordError(f"doublers: at most {MAX_DOUBLERS} (stakes x{2 ** MAX_DOUBLERS}), not {_show(doublers)}")
        return crack, recrack, doublers

    def _play(self) -> tuple[tuple[Card, ...], ...]:
        g = self.game
        written = self.d.get("play")
        if written is None:
            return ()
        if not isinstance(written, list):
            raise RecordError(f'play: must be a list of tricks, one string of cards each ("7H AH 9H"), '
                              f"not {_kind(written)}")
        tricks = []
        for t, trick in enumerate(written, 1):
            where = f"play: trick {t}"
            if isinstance(trick, str):
                items: list[Any] = [x for x in re.split(r"[\s,]+", trick.strip()) if x]
            elif isinstance(trick, list):
                items = trick
            else:
                raise RecordError(f"{where}: must be a string of cards or a list of card strings, "
                                  f"not {_kind(trick)}")
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
                raise RecordError(f"play: trick {t}: {_count(len(cards), 'card')}, but only the last trick may "
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


def _kept_hand(g: Game, p: int | None, hands: list | tuple, blind: tuple[Card, ...] | None,
               bury: tuple[Card, ...] | None) -> list[Card] | None:
    """The declarer's hand at the first lead, when the record gives all of it."""
    if p is None or hands[p] is None:
        return None
    if g.kind != "picker":
        return list(hands[p])
    if blind is None or bury is None:
        return None
    return [c for c in tuple(hands[p]) + blind if c not in bury]


def _callable_cards(game: Game) -> frozenset[Card]:
    """Every card some hand may call in ``game``, as the engine's :func:`legal_calls` decides."""
    lows = [c for c in game.deck if c.rank not in "AT"]
    no_tens = [c for c in game.deck if c.rank != "T"]
    return frozenset(x.card for h in (lows, no_tens) for x in legal_calls(game, h) if x.card is not None)


# --------------------------------------------------------------------------------------------------------------
# The play, replayed through the engine.


def _first_lead_hands(rec: Record) -> list[frozenset[Card] | None]:
    out: list[frozenset[Card] | None] = [frozenset(h) if h is not None else None for h in rec.hands]
    if rec.game.kind == "picker":
        kept = _kept_hand(rec.game, rec.declarer, rec.hands, rec.blind, rec.bury)
        out[rec.declarer] = frozenset(kept) if kept is not None else None  # type: ignore[index]
    return out


def _check_play(rec: Record) -> State:
    """Replay the record through the engine; a partial record against a setup with the same call."""
    if rec.complete:
        return _replay(rec, rec.setup(), frozenset(range(rec.game.seats)))
    first = _first_lead_hands(rec)
    meta = _call_setup(rec)
    setup = dataclasses.replace(meta, hands=tuple(h if h is not None else frozenset() for h in first),
                                blind=rec.blind or (), bury=rec.bury or ())
    return _replay(rec, setup, frozenset(s for s, h in enumerate(first) if h is not None))


def _played_by_seat(rec: Record, state: State) -> list[list[Card]]:
    """The cards each seat played in ``state`` (the record replayed), in play order."""
    n = rec.game.seats
    out: list[list[Card]] = [[] for _ in range(n)]
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n].append(c)
    for i, c in enumerate(state.trick):
        out[(state.leader + i) % n].append(c)
    return out


def _inferred_cards(rec: Record, state: State) -> dict[str, tuple[Card, ...]]:
    """The hands, blind and bury the record leaves out that the rest of it determines, by key.

    - A seat that has played its whole hand: its hand at the first lead is the cards it played (every seat's
      in a finished hand).
    - Sheepshead: the picker's hand as dealt is his hand at the first lead plus the bury minus the blind (and
      each of the four is found from the other three).
    - The hands at the first lead and the bury (leaster: the blind) share out the deck, and so do the hands as
      dealt and the blind: when one of them alone is unknown, it is the rest of the deck.
    """
    g, p, n = rec.game, rec.declarer, rec.game.seats
    picker = g.kind == "picker"
    played = _played_by_seat(rec, state)
    dealt: list[frozenset[Card] | None] = [frozenset(h) if h is not None else None for h in rec.hands]
    blind = frozenset(rec.blind) if rec.blind is not None else None
    bury = frozenset(rec.bury) if rec.bury is not None else None
    lead = list(dealt)
    if picker:
        lead[p] = (dealt[p] | blind) - bury if None not in (dealt[p], blind, bury) else None  # type: ignore[index,operator]
    deck = frozenset(g.deck)
    aside_size = g.bury_size if picker else (g.blind_size if g.kind == "leaster" else 0)

    def rest(known: list[frozenset[Card] | None], size: int) -> frozenset[Card] | None:
        left = deck.difference(*(k for k in known if k is not None))
        return left if len(left) == size else None

    changed = True
    while changed:
        changed = False
        for s in range(n):
            if lead[s] is None and len(played[s]) == g.hand_size:
                lead[s] = frozenset(played[s])
                changed = True
            if not (picker and s == p) and (lead[s] is None) != (dealt[s] is None):
                lead[s] = dealt[s] = lead[s] or dealt[s]
                changed = True
        if picker:
            known = [x is not None for x in (lead[p], dealt[p], blind, bury)]
            if known.count(False) == 1:
                if dealt[p] is None:
                    dealt[p] = (lead[p] | bury) - blind  # type: ignore[operator]
                elif bury is None:
                    bury = (dealt[p] | blind) - lead[p]  # type: ignore[operator]
                elif blind is None:
                    blind = (lead[p] | bury) - dealt[p]  # type: ignore[operator]
                else:
                    lead[p] = (dealt[p] | blind) - bury  # type: ignore[operator]
                changed = True
        # the hands at the first lead and what is aside (the bury, or a leaster's blind) share out the deck
        aside = bury if picker else (blind if aside_size else frozenset())
        slots = lead + [aside]
        if [x is None for x in slots].count(True) == 1:
            i = next(i for i, x in enumerate(slots) if x is None)
            fill = rest(slots, g.hand_size if i < n else aside_size)
            if fill is not None:
                if i < n:
                    lead[i] = fill
                elif picker:
                    bury = fill
                else:
                    blind = fill
                changed = True
        # the hands as dealt and the blind share out the deck
        slots = dealt + [blind if g.blind_size else frozenset()]
        if [x is None for x in slots].count(True) == 1:
            i = next(i for i, x in enumerate(slots) if x is None)
            fill = rest(slots, g.hand_size if i < n else g.blind_size)
            if fill is not None:
                if i < n:
                    dealt[i] = fill
                else:
                    blind = fill
                changed = True
    out: dict[str, tuple[Card, ...]] = {}
    for s in range(n):
        if rec.hands[s] is None and dealt[s] is not None:
            out[f"hands.{rec.players[s]}"] = tuple(sorted(dealt[s], key=int))
    if rec.blind is None and blind is not None:
        out["blind"] = tuple(sorted(blind, key=int))
    if rec.bury is None and bury is not None:
        out["bury"] = tuple(sorted(bury, key=int))
    return out


def _call_setup(rec: Record) -> Setup:
    """A setup from a made-up deal with the record's game, declarer, call and under, the called card with its
    real holder when known, so the engine derives the partner and the called-card rules itself.

    Only the fields about the call are used: the hands are replaced by the known ones. The made-up declarer
    hand is searched over the aces, tens and lowest card of each plain suit, the rest trumps, until the
    engine accepts the call with it.
    """
    g, p, called, under = rec.game, rec.declarer, rec.called, rec.under
    n = g.seats
    holder = None
    if called is not None:
        holder = next((s for s, h in enumerate(rec.hands) if h is not None and called in h), None)
        if holder is None:
            holder = next(s for s, h in enumerate(rec.hands) if s != p and h is None)
    special = {c for c in (called, under) if c is not None}
    reps = [c for s in g.plain_suits for c in _representatives(g, s) if c not in special]
    fill = [c for c in g.trumps if c not in special] + [c for c in g.deck if not g.is_trump(c) and c not in special
                                                          and c not in reps]
    combos = (itertools.chain.from_iterable(itertools.combinations(reps, k) for k in range(len(reps) + 1))
              if called is not None else [()])
    for combo in combos:
        kept: list[Card] = []
        if p is not None:
            kept = ([under] if under is not None else []) + list(combo)
            if len(kept) > g.hand_size:
                continue
            kept += [c for c in fill if c not in kept][: g.hand_size - len(kept)]
        rest = [c for c in fill + reps if c not in kept]
        blind, rest = rest[: g.blind_size], rest[g.blind_size:]
        hands: list[list[Card]] = [[] for _ in range(n)]
        if p is not None:
            hands[p] = kept
        if holder is not None:
            hands[holder] = [called]  # type: ignore[list-item]
        for s in range(n):
            k = g.hand_size - len(hands[s])
            hands[s] += rest[:k]
            rest = rest[k:]
        try:
            return Setup.create(g, hands, declarer=p, blind=blind, bury=blind if g.kind == "picker" else (),
                                called=called, under=under, alone=rec.alone)
        except RulesError:
            continue
    what = f"calling {called}" + (f" with {under} under" if under is not None else "")
    raise RecordError(f"{'under' if under is not None else 'called'}: no hand allows {what}")


def _representatives(g: Game, suit: str) -> list[Card]:
    cards = g.class_cards(suit)
    return cards[:2] + cards[-1:] if len(cards) > 2 else cards


def _replay(rec: Record, setup: Setup, known: frozenset[int]) -> State:
    """Play the record's cards from ``setup.start()``. Seats in ``known`` are held to every rule; a card of
    another seat is checked only against where it is known to be, then played from a hand of that one card."""
    g, names, p = rec.game, rec.players, rec.declarer
    n = g.seats
    home: dict[Card, Any] = {}
    for s, h in enumerate(rec.hands):
        home.update((c, s) for c in h or ())
    home.update((c, "blind") for c in rec.blind or ())
    home.update((c, "bury") for c in rec.bury or ())
    played: dict[Card, tuple[int, int]] = {}
    state = setup.start()
    for t, trick in enumerate(rec.play, 1):
        for i, c in enumerate(trick, 1):
            s = state.to_move
            at = f"play: trick {t}, card {i}: "
            if c in played:
                tt, ss = played[c]
                raise RecordError(f"{at}{c} by {names[s]} was already played in trick {tt} by {names[ss]}")
            h = home.get(c)
            if isinstance(h, int) and h != s:
                if i > 1:
                    why = f"{names[s]} plays after {names[(s - 1) % n]}"
                elif t == 1:
                    why = f"{names[s]} leads the first trick"
                else:
                    why = f"{names[s]} won trick {t - 1}"
                raise RecordError(f"{at}{c} belongs to {names[h]} but it was {names[s]}'s turn to play ({why})")
            if h == "bury":
                raise RecordError(f"{at}{c} by {names[s]}: {c} was buried")
            if h == "blind" and not (g.kind == "picker" and s == p):
                raise RecordError(f"{at}{c} by {names[s]}: {c} is in the blind" +
                                  (", which nobody plays" if g.kind == "leaster" else ""))
            if s in known:
                if c not in state.hands[s]:
                    raise RecordError(f"{at}{c} is not in {names[s]}'s hand ({names[s]} holds "
                                      f"{format_cards(sorted(state.hands[s], key=int)) or 'nothing'})")
                try:
                    state = state.play(c)
                except RulesError as e:  # the text of State.why_illegal
                    why = str(e)
                    if why.startswith("revoke: "):
                        raise RecordError(f"{at}{c} by {names[s]} is a revoke: {why[len('revoke: '):]}") from None
                    raise RecordError(f"{at}{c} by {names[s]} is not allowed: {why}") from None
            else:
                if s == p and g.kind == "picker" and rec.hands[s] is not None and rec.blind is not None and h is None:
                    raise RecordError(f"{at}{c} by {names[s]} is in neither {names[s]}'s hand nor the blind")
                hands = list(state.hands)
                rest = hands[s] - {c}
                hands[s] = frozenset({c})
                state = dataclasses.replace(state, hands=tuple(hands)).play(c)
                hands = list(state.hands)
                hands[s] = rest
                state = dataclasses.replace(state, hands=tuple(hands))
            played[c] = (t, s)
    return state


# --------------------------------------------------------------------------------------------------------------
# Writing.


def dump_record(rec: Record, fmt: str = "toml") -> str:
    """The record as TOML (written here, no dependency) or JSON text; reading it back gives an equal record.

    >>> rec = record_from_dict({"game": "solo", "trump": "s", "deck": "short", "declarer": "4",
    ...                         "event": "Stammtisch", "play": [["QC", "9S"]]})
    >>> print(dump_record(rec), end="")
    game = "solo"
    trump = "S"
    deck = "short"
    players = ["1", "2", "3", "4"]
    declarer = "4"
    event = "Stammtisch"
    play = [
      "QC 9S",
    ]
    """
    d = rec.to_dict()
    if fmt == "json":
        return json.dumps(d, indent=2, ensure_ascii=False) + "\n"
    if fmt != "toml":
        raise RecordError(f'fmt: must be "toml" or "json", not {_show(fmt)}')
    lines: list[str] = []
    _toml_table(d, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[ch])
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else _toml_str(k)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)  # finite: checked when read
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise RecordError(f"record: cannot write {_kind(v)} as TOML")


def _toml_table(d: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    plain = [(k, v) for k, v in d.items() if not isinstance(v, Mapping)]
    tables = [(k, v) for k, v in d.items() if isinstance(v, Mapping)]
    if path and (plain or not tables):
        lines += ["", "[" + ".".join(_toml_key(k) for k in path) + "]"]
    for k, v in plain:
        if not path and k == "play" and isinstance(v, list):
            lines += ["play = ["] + [f"  {_toml_value(x)}," for x in v] + ["]"]
        else:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in tables:
        _toml_table(v, path + [k], lines)


# --------------------------------------------------------------------------------------------------------------
# Small helpers.


def _seat_ref(players: tuple[str, ...], value: Any, where: str) -> int:
    """A player reference: a name, or with the default names "1".."N" the integer for it."""
    default = players == tuple(str(i + 1) for i in range(len(players)))
    if isinstance(value, int) and not isinstance(value, bool) and default:
        text: Any = str(value)
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        text = value
    else:
        raise RecordError(f"{where}: must be a player name (a string), not {_kind(value)}")
    if text in players:
        return players.index(text)
    raise RecordError(f"{where}: {_show(value)} is not a player (players: {_short(', '.join(players), 200)})")


def _scan(v: Any, where: str, depth: int) -> None:
    """Refuse, anywhere in the data, nesting deeper than any record needs and integers beyond 64 bits."""
    if depth > _MAX_DEPTH:
        raise RecordError(f"{where}: nested too deeply")
    if isinstance(v, int) and not isinstance(v, bool) and not -_INT64 <= v < _INT64:
        raise RecordError(f"{where}: integer out of range (a record holds 64-bit integers)")
    if isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            _scan(x, f"{where}[{i}]", depth + 1)
    elif isinstance(v, Mapping):
        for k, x in v.items():
            _scan(x, _keyname(k) if where == "record" else f"{where}.{_keyname(k)}", depth + 1)


def _info_value(v: Any, where: str, depth: int) -> Any:
    """An informational value as plain JSON-compatible data; dates become ISO text."""
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise RecordError(f"{where}: {v} is not a finite number")
        return v
    if isinstance(v, str):
        _check_text(v, where)
        return v
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return [_info_value(x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v)]
    if isinstance(v, Mapping):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise RecordError(f"{where}: keys must be strings, not {_show(k)}")
            _check_text(k, where)
            out[k] = _info_value(x, f"{where}.{_keyname(k)}", depth + 1)
        return out
    raise RecordError(f"{where}: {_kind(v)} is not a value a record can hold")


def _check_text(s: str, where: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{where}: the text is not valid Unicode (it holds a lone surrogate)") from None


def _key_hint(k: str) -> str:
    close = difflib.get_close_matches(k.lower()[:40], sorted(_ALL_KEYS), n=1, cutoff=0.6)
    if close:
        return f' (did you mean "{close[0]}"?)'
    return (f" (keys: {', '.join(RECORD_KEYS)}; informational keys: {', '.join(INFO_KEYS)}; "
            f"see docs/RECORD-FORMAT.md)")


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"a boolean ({'true' if v else 'false'})"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return f"the text {_show(v)}"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, Mapping):
        return "a table"
    return f"a {type(v).__name__}"


def _show(v: Any) -> str:
    if isinstance(v, str):
        return _short(json.dumps(v, ensure_ascii=not v.isprintable()), 60)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return _short(repr(v), 60)
    return _kind(v)


def _keyname(k: Any) -> str:
    if isinstance(k, str) and k.isprintable() and k.strip() == k and k and len(k) <= 60:
        return k
    return _show(k)


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def _count(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"
