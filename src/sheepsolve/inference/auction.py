"""The auction of a hand: the calls in order as the table made them, read from a record's ``auction`` key and
checked against the rest of the record, or implied by the rules where the record has none.

A call is written ``"PLAYER: CALL"`` (the player's name, a colon, the call; the name may itself hold colons: the
call is what follows the last one). The calls of docs/RECORD-FORMAT.md ("The auction"):

- Sheepshead (``sheepshead``, ``sheepshead-3``, ``sheepshead-4``, ``leaster``): ``pass`` or ``pick`` for each seat
  in turn from the first seat (left of the dealer) until one picks; a leaster is every seat passing. After the
  pick: the picker's ``call AC`` or ``alone`` (called-ace; must agree with ``called``), ``blitz`` (the picker shows
  both black queens: ``[rules] blitz``), ``crack`` by another seat and ``recrack`` (``re-crack``) after it by a seat
  other than the cracker (must agree with ``crack`` and ``recrack``).
- Schafkopf: ``klopfen`` (before the bidding, each seat at most once; their number is ``doublers``), then each seat
  in turn ``weiter`` (``pass``) or ``play`` (``ich spiel``, a wish to play), or announces its contract at once;
  then the contracts announced (``sauspiel AS``, ``solo H``, ``wenz``, ``geier``, ``bettel``, ``farbwenz S``,
  ``farbgeier C``, ``... tout``, ``sie``; a seat may announce more than once, the last counts); the declarer is
  the highest contract, the earlier seat winning a tie; ``kontra`` by another seat and ``re`` after it (must agree
  with ``kontra`` and ``re``). Ramsch is every seat saying ``weiter``.
- Skat: its own words, the bidding (``18``, ``ja``, ``passe``) and the declaration (``grand hand``), read by
  :mod:`.skat_auction` (the record reader asks it for a Skat record).

>>> from sheepsolve.games import make_game
>>> g = make_game("sheepshead")
>>> players = ("Ann", "Bob", "Cal", "Dee", "Eve")
>>> a = read_auction(["Ann: pass", "Bob: pass", "Cal: pick", "Dee: crack"], game=g, players=players, declarer=2,
...                  crack=True)
>>> [c.text(players) for c in a.calls]
['Ann: pass', 'Bob: pass', 'Cal: pick', 'Dee: crack']
>>> [c.text(players) for c in implied_auction(g, 2).calls]
['Ann: pass', 'Bob: pass', 'Cal: pick']
>>> try:
...     read_auction(["Ann: pass", "Cal: pick"], game=g, players=players, declarer=2)
... except AuctionError as e:
...     print(e)
auction: call 2 ("Cal: pick"): it is Bob's turn to pass or pick
>>> s = make_game("solo", trump="H")
>>> a = read_auction(["1: weiter", "2: play", "3: play", "4: weiter", "2: wenz", "3: solo H"], game=s,
...                  players=("1", "2", "3", "4"), declarer=2)
>>> [(c.seat, c.kind, c.contract.label() if c.contract else None) for c in a.calls[4:]]
[(1, 'contract', 'wenz'), (2, 'contract', 'solo H')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, CardError
from ..contracts import contract_key
from ..engine import legal_calls
from ..files import clip
from ..games import REGISTRY, Game, GameError, make_game, resolve_name
from ..skat_declaration import SKAT_WORDS

__all__ = [
    "AuctionError",
    "ContractCall",
    "Call",
    "Auction",
    "read_auction",
    "implied_auction",
    "split_call",
    "check_form",
    "contract_of_game",
    "PASS",
    "PICK",
    "PLAY",
    "CONTRACT",
    "CALL",
    "ALONE",
    "BLITZ",
    "CRACK",
    "RECRACK",
    "KLOPFEN",
    "AT_MOST",
]

PASS, PICK, PLAY, CONTRACT = "pass", "pick", "play", "contract"
CALL, ALONE, BLITZ, CRACK, RECRACK, KLOPFEN = "call", "alone", "blitz", "crack", "recrack", "klopfen"
AT_MOST = "at-most"
"""An implied call: the seat passed or wished to play a contract ranked below ``contract`` (``strict``) or at most
as high; what it wished is not known."""

MAX_AUCTION_CALLS = 200
"""The most calls an auction may hold (a real one has a dozen)."""

_SHEEPSHEAD_WORDS = {"pass": PASS, "pick": PICK, "alone": ALONE, "blitz": BLITZ, "crack": CRACK,
                     "recrack": RECRACK, "re-crack": RECRACK}
_SCHAFKOPF_WORDS = {"weiter": PASS, "pass": PASS, "play": PLAY, "ich spiel": PLAY, "ich spiele": PLAY,
                    "klopfen": KLOPFEN, "kontra": CRACK, "re": RECRACK}
_CONTRACT_GAMES = ("sauspiel", "solo", "wenz", "geier", "farbwenz", "farbgeier", "bettel", "sie")


class AuctionError(ValueError):
    """An ``auction`` that cannot be read or disagrees with the record. The message starts with ``auction``."""


@dataclass(frozen=True)
class ContractCall:
    """A Schafkopf contract as announced: the game (canonical name), its trump suit, the called Sau, tout.

    >>> c = ContractCall.parse("Rufspiel as")
    >>> c.label(), c.rank
    ('sauspiel AS', 1)
    >>> ContractCall.parse("farbwenz g tout").label()
    'farbwenz S tout'
    """

    game: str
    trump: str | None = None
    called: Card | None = None
    tout: bool = False
    ouvert: bool = False

    @property
    def rank(self) -> float:
        """The auction rank: a higher contract outbids a lower (sauspiel 1, bettel 1.5, geier 2, wenz 3, bettel
        ouvert 3.5, solo 4, tout +10, sie 20: :attr:`GameSpec.auction_rank <sheepsolve.games.GameSpec.auction_rank>`
        and ``ouvert_rank``)."""
        spec = REGISTRY[self.game]
        return (spec.ouvert_rank if self.ouvert and spec.ouvert_rank is not None else spec.auction_rank) + \
            (10 if self.tout else 0)

    def label(self) -> str:
        """The call as a record's auction writes it (:func:`~sheepsolve.contracts.contract_key`): ``sauspiel AS``,
        ``solo H tout``, ``bettel ouvert``."""
        return contract_key(self.game, trump=self.trump, called=self.called, ouvert=self.ouvert, tout=self.tout)

    @classmethod
    def parse(cls, text: str) -> "ContractCall":
        """Read ``sauspiel AS``, ``solo H``, ``wenz tout``, ``farbgeier E`` (German suit letters E G H S too),
        ``bettel``, ``bettel ouvert``."""
        words = text.split()
        if not words:
            raise ValueError("an empty contract")
        ouvert = words[-1].lower() == "ouvert"
        if ouvert:
            words = words[:-1]
        tout = bool(words) and words[-1].lower() == "tout"
        if tout:
            words = words[:-1]
        name = words[0] if words else ""
        try:
            canon, implied = resolve_name(name)
        except GameError:
            raise ValueError(f"unknown call {clip(repr(text))}") from None
        tout = tout or bool(implied.get("tout"))
        ouvert = ouvert or bool(implied.get("ouvert"))
        if canon not in _CONTRACT_GAMES:
            raise ValueError(f"{canon} is not a contract one announces")
        rest = words[1:]
        spec = REGISTRY[canon]
        if ouvert and not spec.ouvert_allowed:
            raise ValueError(f"{clip(repr(text))}: a {canon} is not played ouvert")
        trump = called = None
        if canon == "sauspiel":
            if len(rest) != 1:
                raise ValueError(f"{clip(repr(text))}: a sauspiel names the Sau it calls (sauspiel AS)")
            try:
                called = Card.parse(rest[0], german=True)
            except CardError:
                raise ValueError(f"{clip(repr(text))}: {clip(repr(rest[0]))} is not a card") from None
            if called.rank != "A":
                raise ValueError(f"{clip(repr(text))}: a sauspiel calls a Sau (an ace), not {called}")
        elif spec.needs_trump:
            if len(rest) != 1:
                raise ValueError(f"{clip(repr(text))}: a {canon} names its trump suit ({canon} H)")
            trump = _suit(rest[0])
            if trump is None:
                raise ValueError(f"{clip(repr(text))}: {clip(repr(rest[0]))} is not a suit (C S H D, or E G H S)")
        elif rest:
            raise ValueError(f"{clip(repr(text))}: a {canon} takes no suit or card")
        if tout and not spec.tout_allowed:
            raise ValueError(f"{clip(repr(text))}: a {canon} is not played tout")
        return cls(canon, trump, called, tout, ouvert)


def _suit(word: str) -> str | None:
    w = word.strip().lower()
    named = {"c": "C", "s": "S", "h": "H", "d": "D", "eichel": "C", "gras": "S", "herz": "H", "schellen": "D",
             "e": "C", "g": "S", "clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
    return named.get(w)


def contract_of_game(game: Game, called: Card | None = None) -> ContractCall | None:
    """The contract a Schafkopf record's game (and its ``called`` Sau) stands for; None for other games.

    >>> contract_of_game(make_game("solo", trump="D", tout=True)).label()
    'solo D tout'
    """
    if game.kind != "contract":
        return None
    return ContractCall(game.name, game.trump_suit if REGISTRY[game.name].needs_trump else None,
                        called if game.name == "sauspiel" else None, game.tout, game.ouvert)


@dataclass(frozen=True)
class Call:
    """One call of the auction: ``seat`` (0 = the first seat) and ``kind`` (:data:`PASS`, :data:`PICK`,
    :data:`PLAY`, :data:`CONTRACT`, :data:`CALL`, :data:`ALONE`, :data:`BLITZ`, :data:`CRACK`, :data:`RECRACK`,
    :data:`KLOPFEN`; implied auctions also :data:`AT_MOST`), the ``contract`` of a :data:`CONTRACT` (or the bound of
    an :data:`AT_MOST`, ``strict`` when it must rank below it) and the ``card`` of a :data:`CALL`."""

    seat: int
    kind: str
    contract: ContractCall | None = None
    card: Card | None = None
    strict: bool = False

    def word(self, family: str) -> str:
        """The call as written (without the player)."""
        if self.kind == CONTRACT:
            assert self.contract is not None
            return self.contract.label()
        if self.kind == CALL:
            return f"call {self.card}"
        if self.kind == AT_MOST:
            assert self.contract is not None
            return f"{'below' if self.strict else 'at most'} {self.contract.label()}"
        if family == "schafkopf":
            return {PASS: "weiter", CRACK: "kontra", RECRACK: "re"}.get(self.kind, self.kind)
        return self.kind

    def text(self, players: Sequence[str], family: str | None = None) -> str:
        fam = family or ("schafkopf" if self.kind in (PLAY, KLOPFEN, CONTRACT) else "sheepshead")
        return f"{players[self.seat]}: {self.word(fam)}"

    def said(self, players: Sequence[str], family: str, style: str) -> str:
        """The call as the table says it, for a reader of card style ``style``: a contract by its name
        (:func:`~sheepsolve.contracts.contract_name`), a card in ``style``, a Schafkopf pass ``weiter``.

        >>> sepp = Call(0, CONTRACT, ContractCall("farbwenz", "S"))
        >>> sepp.said(["Sepp"], "schafkopf", "german"), sepp.said(["Sepp"], "schafkopf", "ascii")
        ('Sepp: Gras-Wenz', 'Sepp: Farbwenz in spades')
        >>> Call(0, PASS).said(["Sepp"], "schafkopf", "german")
        'Sepp: weiter'
        >>> Call(0, CALL, card=Card.parse("AS")).said(["Ann"], "sheepshead", "ascii")
        'Ann: call AS'
        """
        from ..cards import format_card
        from ..contracts import contract_name

        word = self.word(family)
        if self.contract is not None:
            c = self.contract
            name = contract_name(c.game, style, trump=c.trump, called=c.called, tout=c.tout) + \
                (" ouvert" if c.ouvert else "")
            word = {CONTRACT: name, AT_MOST: f"{'below' if self.strict else 'at most'} {name}"}.get(self.kind, word)
        elif self.kind == CALL and self.card is not None:
            word = f"call {format_card(self.card, style)}"
        return f"{players[self.seat]}: {word}"


@dataclass(frozen=True)
class Auction:
    """The calls of one hand in order. ``given``: read from the record's ``auction`` key (else implied by the rules:
    :func:`implied_auction`, whose :data:`AT_MOST` calls stand for what the rules leave open)."""

    game: Game
    calls: tuple[Call, ...]
    given: bool = True

    def to_data(self, players: Sequence[str]) -> list[str]:
        """The ``auction`` key as written back."""
        return [c.text(players, self.game.family) for c in self.calls]

    def bidding(self) -> dict[int, Call]:
        """Each seat's own choice in the bidding, the one the model of the calls weighs: Sheepshead ``pass`` or
        ``pick``; Schafkopf ``pass`` (weiter), the seat's last ``contract``, ``play`` (a wish to play, the contract
        never said) or an implied :data:`AT_MOST`. Seats that made no such call (after a Sheepshead pick) are left
        out."""
        out: dict[int, Call] = {}
        for c in self.calls:
            if c.kind in (PASS, PICK, AT_MOST):
                out[c.seat] = c
            elif c.kind == PLAY:
                out.setdefault(c.seat, c)
            elif c.kind == CONTRACT:
                out[c.seat] = c
        return out


# --------------------------------------------------------------------------------------------------------------
# Reading


def read_auction(value: Any, *, game: Game, players: Sequence[str], declarer: int | None,
                 hands: Sequence[Iterable[Card] | None] | None = None, blind: Iterable[Card] | None = None,
                 bury: Iterable[Card] | None = None, called: Card | None = None,
                 alone: bool = False, crack: bool = False, recrack: bool = False, doublers: int = 0) -> Auction:
    """Read and check a record's ``auction`` value against the rest of the record (the game, the picker or
    declarer and its contract, the call, the stakes, the hands where given). Raises :class:`AuctionError` naming the
    call."""
    check_form(value)
    if game.family == "skat":
        raise AuctionError("auction: a Skat auction is read in Skat's words (skat_auction.read_skat_auction)")
    calls = [_read_call(item, i, game, players) for i, item in enumerate(value, 1)]
    where = [f'auction: call {i} ("{clip(str(item), 60)}")' for i, item in enumerate(value, 1)]
    checker = _SheepsheadCheck if game.family == "sheepshead" else _SchafkopfCheck
    check = checker(game, players, declarer, hands, where)
    check.blind = frozenset(blind) if blind is not None else None
    check.bury = frozenset(bury) if bury is not None else None
    check.check(calls, called=called, alone=alone, crack=crack,
                                                         recrack=recrack, doublers=doublers)
    return Auction(game, tuple(calls), True)


def check_form(value: Any) -> None:
    """An ``auction`` value's form: a list of at most :data:`MAX_AUCTION_CALLS` calls, not empty."""
    if not isinstance(value, list):
        raise AuctionError('auction: must be a list of calls, each "PLAYER: CALL" (["Ann: pass", "Bob: pick"])')
    if len(value) > MAX_AUCTION_CALLS:
        raise AuctionError(f"auction: {len(value)} calls, at most {MAX_AUCTION_CALLS}")
    if not value:
        raise AuctionError("auction: empty; leave the key out when the auction is not known")


def split_call(item: Any, i: int, players: Sequence[str]) -> tuple[int, str, str]:
    """Call ``i`` (from 1) of an auction, ``"PLAYER: CALL"``, as (the player's seat, the call's words, where it is
    for messages: ``auction: call 2 ("Bob: pick")``); raises :class:`AuctionError` naming it."""
    if not isinstance(item, str):
        raise AuctionError(f'auction: call {i}: must be a string "PLAYER: CALL", not {type(item).__name__}')
    where = f'auction: call {i} ("{clip(item, 60)}")'
    if ":" not in item:
        raise AuctionError(f'{where}: write "PLAYER: CALL" (a player, a colon, the call)')
    name, word = item.rsplit(":", 1)
    name, word = name.strip(), " ".join(word.split())
    if name not in players:
        raise AuctionError(f"{where}: {clip(repr(name))} is not a player (players: {clip(', '.join(players), 200)})")
    return players.index(name), word, where


def _skat_hint(low: str) -> str:
    words = low.split()
    return " (a Skat word)" if low.isdigit() or (words and all(w in SKAT_WORDS for w in words)) else ""


def _read_call(item: Any, i: int, game: Game, players: Sequence[str]) -> Call:
    seat, word, where = split_call(item, i, players)
    low = word.lower()
    if game.family == "sheepshead":
        if low in _SHEEPSHEAD_WORDS:
            return Call(seat, _SHEEPSHEAD_WORDS[low])
        if low.startswith("call "):
            try:
                return Call(seat, CALL, card=Card.parse(word[5:].strip()))
            except CardError:
                raise AuctionError(f"{where}: {clip(repr(word[5:].strip()))} is not a card") from None
        hint = " (a Schafkopf word)" if low in _SCHAFKOPF_WORDS else _skat_hint(low)
        raise AuctionError(f"{where}: unknown call {clip(repr(word))}{hint}: Sheepshead calls are pass, pick, "
                           "call CARD, alone, blitz, crack, recrack")
    if low in _SCHAFKOPF_WORDS:
        return Call(seat, _SCHAFKOPF_WORDS[low])
    try:
        return Call(seat, CONTRACT, contract=ContractCall.parse(word))
    except ValueError as e:
        hint = " (a Sheepshead word)" if low in _SHEEPSHEAD_WORDS else _skat_hint(low)
        raise AuctionError(f"{where}: {e}{hint}: Schafkopf calls are weiter, play, klopfen, kontra, re and the "
                           "contracts (sauspiel AS, solo H, wenz, geier, bettel, farbwenz S, farbgeier S, ... tout, ... ouvert, sie)"
                           ) from None


class _Check:
    def __init__(self, game: Game, players: Sequence[str], declarer: int | None,
                 hands: Sequence[Iterable[Card] | None] | None, where: list[str]) -> None:
        self.game, self.players, self.declarer, self.where = game, players, declarer, where
        self.hands = [frozenset(h) if h is not None else None for h in (hands or [None] * game.seats)]
        self.blind: frozenset[Card] | None = None
        self.bury: frozenset[Card] | None = None

    def fail(self, i: int, message: str) -> None:
        raise AuctionError(f"{self.where[i]}: {message}")

    def stakes(self, calls: list[Call], start: int, crack: bool, recrack: bool, words: tuple[str, str],
               side: set[int]) -> None:
        """Crack (kontra) and recrack (re) from ``start`` on: once each, by whom they may be, as the record says."""
        cracker = None
        recracked = False
        for i in range(start, len(calls)):
            c = calls[i]
            if c.kind == CRACK:
                if cracker is not None:
                    self.fail(i, f"a second {words[0]}")
                if c.seat in side:
                    self.fail(i, f"{self.players[c.seat]} is on the declaring side: the other side says {words[0]}")
                if not crack:
                    self.fail(i, f"the record says {words[0]} = false")
                cracker = c.seat
            elif c.kind == RECRACK:
                if cracker is None:
                    self.fail(i, f"{words[1]} before any {words[0]}")
                if recracked:
                    self.fail(i, f"a second {words[1]}")
                if c.seat == cracker:
                    self.fail(i, f"{self.players[c.seat]} said {words[0]}; the other side answers with {words[1]}")
                if not recrack:
                    self.fail(i, f"the record says {words[1]} = false")
                recracked = True
        said = {c.kind for c in calls[start:]}
        if crack and CRACK not in said:
            raise AuctionError(f"auction: the record says {words[0]} = true, but nobody says {words[0]} in it")
        if recrack and RECRACK not in said:
            raise AuctionError(f"auction: the record says {words[1]} = true, but nobody says {words[1]} in it")


class _SheepsheadCheck(_Check):
    def check(self, calls: list[Call], *, called: Card | None, alone: bool, crack: bool, recrack: bool,
              doublers: int) -> None:
        g, n, p = self.game, self.game.seats, self.declarer
        i = 0
        picker = None
        while i < len(calls) and i < n:
            c = calls[i]
            if c.kind not in (PASS, PICK):
                self.fail(i, f"it is {self.players[i]}'s turn to pass or pick")
            if c.seat != i:
                self.fail(i, f"it is {self.players[i]}'s turn to pass or pick")
            i += 1
            if c.kind == PICK:
                picker = c.seat
                break
        if g.kind == "leaster":
            if i < n:
                raise AuctionError(f"auction: a leaster is every seat passing; {self.players[i]} never passes")
            if picker is not None:
                self.fail(picker, "a leaster is every seat passing")
            if i < len(calls):
                self.fail(i, "nothing is called after every seat passed (a leaster)")
            return
        if picker is None:
            if i < n:
                raise AuctionError(f"auction: {self.players[i]} never passes or picks, and nobody picks")
            raise AuctionError(f"auction: every seat passes, but the record's game is {g.name} with "
                               f"{self.players[p]} as picker (all passing gives a leaster)")  # type: ignore[index]
        if picker != p:
            self.fail(i - 1, f"the record's picker is {self.players[p]}")  # type: ignore[index]
        start = i
        side = {picker}
        seen_call = False
        for j in range(start, len(calls)):
            c = calls[j]
            if c.kind in (PASS, PICK):
                self.fail(j, f"{self.players[picker]} has already picked")
            if c.kind in (CALL, ALONE, BLITZ) and c.seat != picker:
                self.fail(j, f"only the picker ({self.players[picker]}) says {c.word('sheepshead')}")
            if c.kind in (CALL, ALONE):
                if g.partner != "called-ace":
                    self.fail(j, f"only the called-ace game has a call (partner is {g.partner})")
                if seen_call:
                    self.fail(j, "the picker calls once")
                seen_call = True
                if c.kind == CALL and c.card != called:
                    self.fail(j, f"the record's call is {called if called is not None else 'alone'}")
                if c.kind == ALONE and not (alone or called is None):
                    self.fail(j, f"the record's call is {called}")
                if any(calls[k].kind in (CRACK, RECRACK) for k in range(start, j)):
                    self.fail(j, "the picker calls before anyone cracks")
            if c.kind == BLITZ:
                if not g.rules.get("blitz"):
                    self.fail(j, "a blitz needs [rules] blitz = true")
                dealt = self.hands[picker]
                black = {Card.make("Q", "C"), Card.make("Q", "S")}
                if dealt is not None and self.blind is not None and self.bury is not None and \
                        not black <= (dealt | self.blind) - self.bury:
                    self.fail(j, f"{self.players[picker]} does not hold both black queens (QC QS)")
                for s, held in enumerate(self.hands):
                    if s != picker and held is not None and black & held:
                        queen = min(black & held, key=int)
                        self.fail(j, f"{self.players[s]} holds {queen}: {self.players[picker]} cannot show both black "
                                     "queens (QC QS)")
                if self.bury is not None and black & self.bury:
                    self.fail(j, f"{min(black & self.bury, key=int)} is buried: {self.players[picker]} does not hold "
                                 "both black queens (QC QS) at the first lead")
        self.stakes(calls, start, crack, recrack, ("crack", "recrack"), side)


class _SchafkopfCheck(_Check):
    def check(self, calls: list[Call], *, called: Card | None, alone: bool, crack: bool, recrack: bool,
              doublers: int) -> None:
        g, n, p = self.game, self.game.seats, self.declarer
        i = 0
        knocked: set[int] = set()
        while i < len(calls) and calls[i].kind == KLOPFEN:
            if calls[i].seat in knocked:
                self.fail(i, f"{self.players[calls[i].seat]} knocks once")
            knocked.add(calls[i].seat)
            i += 1
        if len(knocked) != doublers:
            raise AuctionError(f"auction: {len(knocked)} klopfen, but the record says doublers = {doublers} "
                               "(each klopfen doubles)")
        wish: dict[int, bool] = {}
        announced: dict[int, tuple[int, ContractCall]] = {}
        for seat in range(n):
            if i >= len(calls):
                raise AuctionError(f"auction: {self.players[seat]} never says weiter or play")
            c = calls[i]
            if c.kind == KLOPFEN:
                self.fail(i, "klopfen comes before the bidding")
            if c.kind not in (PASS, PLAY, CONTRACT) or c.seat != seat:
                self.fail(i, f"it is {self.players[seat]}'s turn to say weiter or play")
            wish[seat] = c.kind != PASS
            if c.kind == CONTRACT:
                announced[seat] = (i, c.contract)  # type: ignore[assignment]
            i += 1
        while i < len(calls) and calls[i].kind == CONTRACT:
            c = calls[i]
            if not wish[c.seat]:
                self.fail(i, f"{self.players[c.seat]} said weiter")
            announced[c.seat] = (i, c.contract)  # type: ignore[assignment]
            i += 1
        for seat, (j, contract) in announced.items():
            self._possible(j, seat, contract)
        if g.kind == "ramsch":
            if any(wish.values()):
                seat = min(s for s, w in wish.items() if w)
                raise AuctionError(f"auction: {self.players[seat]} wishes to play, but the record's game is ramsch "
                                   "(every seat says weiter)")
            if i < len(calls):
                self.fail(i, "nothing is said after every seat said weiter (a ramsch)")
            return
        if not any(wish.values()):
            raise AuctionError(f"auction: every seat says weiter, but the record's game is {g.name} (all weiter "
                               "gives a ramsch or a new deal)")
        assert p is not None
        if not wish[p]:
            raise AuctionError(f"auction: the record's declarer {self.players[p]} said weiter")
        own = contract_of_game(g, called)
        assert own is not None
        if p in announced and announced[p][1] != own:
            self.fail(announced[p][0], f"the record's game is {own.label()}")
        for seat, (j, contract) in announced.items():
            if seat != p and (contract.rank > own.rank or (contract.rank == own.rank and seat < p)):
                self.fail(j, f"it outbids the record's game, {own.label()} of {self.players[p]}")
        for j in range(i, len(calls)):
            if calls[j].kind not in (CRACK, RECRACK):
                self.fail(j, "after the contracts only kontra and re")
        side = {p}
        if g.partner == "sauspiel" and called is not None:
            side |= {s for s, h in enumerate(self.hands) if h is not None and called in h}
        self.stakes(calls, i, crack, recrack, ("kontra", "re"), side)

    def _possible(self, j: int, seat: int, contract: ContractCall) -> None:
        """A contract the game's deck and rules allow, and the seat's hand where it is known."""
        g = self.game
        try:
            cg = make_game(contract.game, trump=contract.trump, deck="short" if len(g.deck) < 32 else "long",
                           tout=contract.tout or None, seats=g.seats, rules=dict(g.rules),
                           ouvert=contract.ouvert or None)
        except GameError as e:
            self.fail(j, str(e))
            return
        hand = self.hands[seat]
        if hand is None:
            return
        if contract.game == "sauspiel" and all(call.card != contract.called for call in legal_calls(cg, hand)):
            self.fail(j, f"{self.players[seat]}'s hand cannot call {contract.called}")
        if contract.game == "sie" and not all(c.rank in "QJ" for c in hand):
            self.fail(j, f"{self.players[seat]} does not hold every Ober and Unter")


# --------------------------------------------------------------------------------------------------------------
# What the rules imply


def implied_auction(game: Game, declarer: int | None, *, called: Card | None = None) -> Auction:
    """The auction the rules imply when a record gives none (docs/RECORD-FORMAT.md, "The auction"):

    - Sheepshead: every seat before the picker passed and the picker picked (a leaster: every seat passed);
    - Schafkopf: the declarer wished to play and announced the record's contract; a seat before him passed or
      wished to play a contract ranked below it (:data:`AT_MOST`, ``strict``), a seat after him passed or wished
      one ranked at most as high (a Sauspiel: every seat before passed); ramsch: every seat said weiter.

    Crack, kontra, re, klopfen and blitz are not implied (``crack``, ``doublers`` say they happened, not who).

    >>> g = make_game("wenz")
    >>> [c.text(("A", "B", "C", "D"), "schafkopf") for c in implied_auction(g, 1).calls]
    ['A: below wenz', 'B: wenz', 'C: at most wenz', 'D: at most wenz']
    >>> [c.text(("A", "B", "C", "D"), "schafkopf") for c in implied_auction(make_game("sauspiel"), 2,
    ...                                                                      called=Card.parse("AS")).calls]
    ['A: weiter', 'B: weiter', 'C: sauspiel AS', 'D: at most sauspiel AS']
    """
    n = game.seats
    if game.kind == "leaster" or game.kind == "ramsch":
        return Auction(game, tuple(Call(s, PASS) for s in range(n)), False)
    assert declarer is not None
    if game.kind == "picker":
        return Auction(game, tuple(Call(s, PASS) for s in range(declarer)) + (Call(declarer, PICK),), False)
    own = contract_of_game(game, called)
    assert own is not None
    calls = []
    for s in range(n):
        if s == declarer:
            calls.append(Call(s, CONTRACT, contract=own))
        elif s < declarer and own.rank == 1:
            calls.append(Call(s, PASS))
        else:
            calls.append(Call(s, AT_MOST, contract=own, strict=s < declarer))
    return Auction(game, tuple(calls), False)
