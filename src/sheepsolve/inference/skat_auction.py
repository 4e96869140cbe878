"""A Skat record's auction in Skat's own words: the bidding (Reizen) and the declaration (docs/RECORD-FORMAT.md,
"The Skat auction"), read and checked against the record, written back in the same words.

The calls, each ``"PLAYER: CALL"``: a bid, a number some Skat game is worth (``18``, ``20``, ``22``, ``23``, ...);
``ja`` (``yes``: the bid is held); ``passe`` (``pass``); then the declarer's declaration, one call or several, of
the contract (``grand``, ``clubs``, ``spades``, ``hearts``, ``diamonds``, ``null``; German ``Kreuz``, ``Pik``,
``Herz``, ``Karo``) and ``hand``, ``schneider``, ``schwarz``, ``ouvert``. The bidding goes as the ISkO has it:
Mittelhand (the second seat) bids to Vorhand (the first), who holds (``ja``) or passes; then Hinterhand bids to the
one left; when both pass without a bid, Vorhand may bid 18 himself or pass too.

>>> from sheepsolve.games import make_game
>>> g = make_game("grand", hand=True)
>>> players = ("Ann", "Bob", "Cal")
>>> a = read_skat_auction(["Bob: 18", "Ann: ja", "Bob: 20", "Ann: passe", "Cal: passe", "Bob: grand hand"],
...                       game=g, players=players, declarer=1)
>>> a.to_data(players)
['Bob: 18', 'Ann: ja', 'Bob: 20', 'Ann: passe', 'Cal: passe', 'Bob: grand hand']
>>> try:
...     read_skat_auction(["Bob: weiter"], game=g, players=players, declarer=1)
... except AuctionError as e:
...     print(e)
auction: call 1 ("Bob: weiter"): 'weiter' is a Schafkopf call: Skat calls are passe, ja, a bid (18, 20, 22, 23, ...) and the declarer's contract (grand, clubs, spades, hearts, diamonds, null) with hand, schneider, schwarz, ouvert
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..files import clip
from ..games import Game
from ..skat_declaration import BID_VALUES, DeclarationError, check_declaration, contract_of
from .auction import PASS, Auction, AuctionError, Call, ContractCall, check_form, read_auction, split_call

__all__ = ["BID", "HOLD", "DECLARE", "SkatCall", "read_skat_auction", "read_record_auction", "SKAT_CALLS"]

BID, HOLD, DECLARE = "bid", "hold", "declare"

_CONTRACT_WORDS = {"grand": "grand", "clubs": "clubs", "kreuz": "clubs", "spades": "spades", "pik": "spades",
                   "hearts": "hearts", "herz": "hearts", "diamonds": "diamonds", "karo": "diamonds", "null": "null"}
_FLAGS = ("hand", "schneider", "schwarz", "ouvert")
_SIMPLE = {"passe": PASS, "pass": PASS, "ja": HOLD, "yes": HOLD}
SKAT_CALLS = ("passe, ja, a bid (18, 20, 22, 23, ...) and the declarer's contract (grand, clubs, spades, hearts, "
              "diamonds, null) with hand, schneider, schwarz, ouvert")
"""Skat's calls, as the errors list them."""
_DOUBLING = ("klopfen", "kontra", "re")
_OTHER_GAMES = {"weiter": "Schafkopf", "play": "Schafkopf", "ich spiel": "Schafkopf", "ich spiele": "Schafkopf",
                "pick": "Sheepshead", "alone": "Sheepshead", "blitz": "Sheepshead", "crack": "Sheepshead",
                "recrack": "Sheepshead", "re-crack": "Sheepshead"}


@dataclass(frozen=True)
class SkatCall(Call):
    """A call of a Skat auction: ``passe`` (kind ``pass``), ``ja`` (:data:`HOLD`), a bid (:data:`BID`, its
    number ``bid``) or the declarer's declaration (:data:`DECLARE`, its words ``declared``: the contract first,
    then ``hand``, ``schneider``, ``schwarz``, ``ouvert`` as said)."""

    bid: int | None = None
    declared: tuple[str, ...] = ()

    def word(self, family: str) -> str:
        if self.kind == BID:
            return str(self.bid)
        if self.kind == DECLARE:
            return " ".join(self.declared)
        return {PASS: "passe", HOLD: "ja"}.get(self.kind, self.kind)

    def said(self, players: Sequence[str], family: str, style: str) -> str:
        """As :meth:`word`: Skat's words are the same for every reader."""
        return f"{players[self.seat]}: {self.word(family)}"


def _read_call(item: Any, i: int, players: Sequence[str]) -> SkatCall:
    seat, word, where = split_call(item, i, players)
    low = word.lower()
    if low in _DOUBLING:
        raise AuctionError(f"{where}: {low}: sheepsolve's Skat has no doubling (no Kontra, Re or klopfen)")
    if low in _SIMPLE:
        return SkatCall(seat, _SIMPLE[low])
    if low.isdigit():
        bid = int(low) if len(low) <= 4 else 0
        if bid not in BID_VALUES:
            above = [v for v in sorted(BID_VALUES) if v > bid][:1]
            raise AuctionError(f"{where}: {clip(word)} is not a value any Skat game has, so no bid"
                               + (f" (bids run 18, 20, 22, 23, 24, ...; the next above is {above[0]})" if above
                                  else " (the highest is 264)"))
        return SkatCall(seat, BID, bid=bid)
    words = low.split()
    if words and all(w in _CONTRACT_WORDS or w in _FLAGS for w in words):
        contracts = [_CONTRACT_WORDS[w] for w in words if w in _CONTRACT_WORDS]
        if len(contracts) > 1:
            raise AuctionError(f"{where}: two contracts ({', '.join(contracts)}): the declarer names one")
        flags = [f for f in _FLAGS if f in words]
        return SkatCall(seat, DECLARE, declared=tuple(contracts) + tuple(flags))
    game = _OTHER_GAMES.get(low) or ("Sheepshead" if low.startswith("call ") else None)
    if game is None and words:
        try:
            ContractCall.parse(word)
            game = "Schafkopf"
        except ValueError:
            pass
    said = f"{clip(repr(word))} is a {game} call" if game else f"unknown call {clip(repr(word))}"
    raise AuctionError(f"{where}: {said}: Skat calls are {SKAT_CALLS}")


def read_record_auction(value: Any, *, game: Game, players: Sequence[str], declarer: int | None,
                        **context: Any) -> Auction:
    """A record's ``auction``, read in its game's words: a Skat record's by :func:`read_skat_auction`, every
    other game's by :func:`~sheepsolve.inference.auction.read_auction` (``context``: its hands, blind, bury, call
    and stakes, which a Skat auction does not need)."""
    if game.family == "skat":
        return read_skat_auction(value, game=game, players=players, declarer=declarer)
    return read_auction(value, game=game, players=players, declarer=declarer, **context)


def read_skat_auction(value: Any, *, game: Game, players: Sequence[str], declarer: int | None) -> Auction:
    """Read and check a Skat record's ``auction`` list: the bidding's order, its winner the record's declarer,
    its last bid the record's ``bid`` (when given), the declaration the record's. Raises :class:`AuctionError`
    naming the call."""
    check_form(value)
    calls = [_read_call(item, i, players) for i, item in enumerate(value, 1)]
    where = [f'auction: call {i} ("{clip(str(item), 60)}")' for i, item in enumerate(value, 1)]
    end, winner, held = _bidding(calls, where, players)
    if winner is None:
        raise AuctionError(f"auction: every seat passes, but the record's game is {game.name} declared by "
                           f"{players[declarer] if declarer is not None else 'nobody'} (all passing: the cards are "
                           "dealt again)")
    if winner != declarer:
        raise AuctionError(f"auction: {players[winner]} wins the bidding, but the record's declarer is "
                           f"{players[declarer] if declarer is not None else 'nobody'}")
    if game.bid is not None and held != game.bid:
        raise AuctionError(f"auction: the bidding ends at {held}, but the record says bid = {game.bid}")
    _declaration(calls, end, where, game, players, winner)
    return Auction(game, tuple(calls), True)


def _bidding(calls: list[SkatCall], where: list[str], players: Sequence[str]) -> tuple[int, int | None, int]:
    """Check the bidding; (the index of the first call after it, the winner or None when all passed, the bid
    held: 18 when Vorhand bid alone)."""
    i = 0
    held = 0  # the highest bid said
    survivor = 0  # Mittelhand bids to Vorhand first

    def expect(who: int, what: str) -> SkatCall:
        nonlocal i
        if i >= len(calls):
            raise AuctionError(f"auction: the bidding does not end: it is {players[who]}'s turn {what}")
        c = calls[i]
        if c.seat != who or c.kind not in ((BID, PASS) if what.startswith("to bid") else (HOLD, PASS)):
            raise AuctionError(f"{where[i]}: it is {players[who]}'s turn {what}")
        i += 1
        return c

    for bidder in (1, 2):
        listener = survivor
        while True:
            c = expect(bidder, f"to bid (above {held}) or passe" if held else "to bid (18 or more) or passe")
            if c.kind == PASS:
                break
            assert c.bid is not None
            if c.bid <= held:
                raise AuctionError(f"{where[i - 1]}: {c.bid} is not above the bid said before, {held}")
            held = c.bid
            if expect(listener, f"to answer {held}: ja or passe").kind == PASS:
                survivor = bidder
                break
    if held:
        return i, survivor, held
    c = expect(0, "to bid (18 or more) or passe")  # both passed without a bid: Vorhand's turn
    if c.kind == PASS:
        return i, None, 0
    assert c.bid is not None
    return i, 0, c.bid


def _declaration(calls: list[SkatCall], start: int, where: list[str], game: Game, players: Sequence[str],
                 declarer: int) -> None:
    """The calls after the bidding: the declarer's declaration only, agreeing with the record's game."""
    said: list[str] = []
    for j in range(start, len(calls)):
        c = calls[j]
        if c.kind != DECLARE:
            raise AuctionError(f"{where[j]}: the bidding is over ({players[declarer]} won it): only the "
                               "declaration follows")
        if c.seat != declarer:
            raise AuctionError(f"{where[j]}: only the declarer ({players[declarer]}) declares")
        again = [w for w in c.declared if w in said]
        if c.declared[:1] and c.declared[0] in _CONTRACT_WORDS.values() and \
                any(w in _CONTRACT_WORDS.values() for w in said):
            again = again or [c.declared[0]]
        if again:
            raise AuctionError(f"{where[j]}: {again[0]} is declared twice (the declarer names one contract)")
        said.extend(c.declared)
    if start == len(calls):
        return
    own = contract_of(game.name, game.trump_suit)
    contract = next((w for w in said if w in _CONTRACT_WORDS.values()), None)
    last = where[len(calls) - 1]
    if contract is not None and contract != own:
        raise AuctionError(f"{last}: the record's contract is {own}, not {contract}")
    try:
        decl = check_declaration(contract or own, hand="hand" in said, schneider_announced="schneider" in said,
                                 schwarz_announced="schwarz" in said, ouvert="ouvert" in said)
    except DeclarationError as e:
        raise AuctionError(f"{last}: {e}") from None
    record = {"hand": game.hand, "schneider": game.schneider_announced, "schwarz": game.schwarz_announced,
              "ouvert": game.ouvert}
    declared = {"hand": decl.hand, "schneider": decl.schneider_announced, "schwarz": decl.schwarz_announced,
                "ouvert": decl.ouvert}
    keys = {"hand": "hand", "schneider": "schneider_announced", "schwarz": "schwarz_announced", "ouvert": "ouvert"}
    for flag in _FLAGS:
        if declared[flag] and not record[flag]:
            raise AuctionError(f"{last}: {flag} is declared, but the record says {keys[flag]} = false")
        if contract is not None and record[flag] and not declared[flag]:
            raise AuctionError(f"{last}: the record says {keys[flag]} = true, but the declaration does not say "
                               f"{flag}")
