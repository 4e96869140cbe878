"""The picker's and the declarer's choices before the first lead, listed: every legal bury with its call and card
under (:class:`BuryDecision`, :func:`legal_decisions`), every contract a Schafkopf hand may announce
(:class:`Contract`, :func:`contracts_for`), and the buries that cannot differ in play (:func:`card_groups`,
:func:`merge_choices`), solved once.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, format_card, format_cards
from ..contracts import contract_key
from ..engine import RulesError, Setup, legal_calls
from ..games import JACKS, QUEENS, Game, GameError, make_game
from ..solver import SolverError

__all__ = ["BuryError", "BuryDecision", "PickerChoice", "Contract", "legal_decisions", "deal_choices", "contracts_for", "sauspiel_blocks",
           "SKAT_TAKINGS", "skat_contracts", "make_contract_game", "card_groups", "merge_choices", "choice_context", "solve_order"]


class BuryError(SolverError):
    """A question these tools cannot answer for this record or these arguments."""




@dataclass(frozen=True)
class BuryDecision:
    """One choice of the picker: the cards buried, the call (``called`` card, or ``alone`` by choice in the
    called-ace game) and the card put *under* when the call needs one.

    >>> from sheepsolve.cards import parse_cards
    >>> BuryDecision(tuple(parse_cards("AS 7H")), called=Card.parse("AC")).to_dict()
    {'cards': ['AS', '7H'], 'call': 'AC', 'under': None}
    """

    bury: tuple[Card, ...]
    called: Card | None = None
    under: Card | None = None
    alone: bool = False  # the picker chose to go alone (called-ace); a forced alone is in the result rows

    @property
    def call(self) -> str | None:
        """``"AC"``, ``"alone"`` (chosen) or None (no call in this game)."""
        if self.called is not None:
            return str(self.called)
        return "alone" if self.alone else None

    def label(self, style: str = "ascii", *, alone: bool | None = None) -> str:
        """The choice in words, in one notation (a :func:`~sheepsolve.cards.format_card` style): ``KS 8C``,
        ``9C 9D, call AH``, ``TC TH, call AC (TS under)``, ``TC AS, alone``, ``call AS`` (a sauspiel's call).
        ``alone``: whether to say ``alone`` without a call (default: whether the picker chose to go alone).

        >>> from sheepsolve.cards import parse_cards
        >>> BuryDecision(tuple(parse_cards("TC TH")), called=Card.parse("AC"), under=Card.parse("TS")).label()
        'TC TH, call AC (TS under)'
        >>> BuryDecision(tuple(parse_cards("TC AS")), alone=True).label("german")
        'E10 GA, alone'
        """
        parts = []
        if self.bury:
            parts.append(format_cards(self.bury, style))
        if self.called is not None:
            parts.append(f"call {format_card(self.called, style)}"
                         + (f" ({format_card(self.under, style)} under)" if self.under is not None else ""))
        elif self.alone if alone is None else alone:
            parts.append("alone")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"cards": [str(c) for c in self.bury], "call": self.call,
                "under": str(self.under) if self.under is not None else None}

    def to_key(self) -> tuple:
        return (tuple(int(c) for c in self.bury), -1 if self.called is None else int(self.called),
                -1 if self.under is None else int(self.under), self.alone)

    @staticmethod
    def from_key(k: tuple) -> "BuryDecision":
        return BuryDecision(tuple(Card(c) for c in k[0]), None if k[1] < 0 else Card(k[1]),
                        None if k[2] < 0 else Card(k[2]), k[3])


SKAT_TAKINGS = ("hand", "taken", "known")
"""How a Skat contract is played with the skat: ``hand`` (a hand game: the skat unseen, left as dealt, counting
for the declarer), ``taken`` (the skat unseen when the contract is weighed, then taken up, the best discard of each
world put away) and ``known`` (the skat taken and seen: the discard best in expectation put away)."""


@dataclass(frozen=True)
class PickerChoice:
    """A picker's choice as a judgement lists it: the decision (bury, call, card under) and ``alone``, whether the
    picker has no partner with it. The rows of annotate's bury judgement, double dummy
    (:class:`~sheepsolve.bury.judgement.BuryOption`) and from the picker's view
    (:class:`~sheepsolve.player.annotate.BuryViewRow`), are such choices with their values."""

    choice: BuryDecision
    alone: bool

    @property
    def bury(self) -> tuple[Card, ...]:
        return self.choice.bury

    @property
    def call(self) -> Card | None:
        return self.choice.called

    @property
    def under(self) -> Card | None:
        return self.choice.under

    def label(self, style: str = "ascii", *, calls: bool = True) -> str:
        """The choice in words (:meth:`BuryDecision.label`), with ``alone`` said of a lone picker where there is
        a call (``calls``).

        >>> PickerChoice(BuryDecision((Card.parse("9C"), Card.parse("9D")), called=Card.parse("AH")),
        ...              alone=False).label()
        '9C 9D, call AH'
        """
        return self.choice.label(style, alone=calls and self.alone)


@dataclass(frozen=True)
class Contract:
    """A contract the declarer may announce: Schafkopf's, or Skat's (``skat``: one of :data:`SKAT_TAKINGS`, with
    ``ouvert`` and, for ``known``, the ``discard`` chosen).

    >>> Contract("sauspiel", called=Card.parse("AS")).label(), Contract("wenz", tout=True).label()
    ('sauspiel AS', 'wenz tout')
    >>> Contract("skat", "H", skat="hand").label(), Contract("null", ouvert=True, skat="taken").label()
    ('skat H hand', 'null ouvert')
    """

    game: str  # sauspiel, solo, wenz, geier, farbwenz, farbgeier, sie; Skat: grand, skat (a suit game), null
    trump: str | None = None
    called: Card | None = None
    tout: bool = False
    ouvert: bool = False
    skat: str | None = None  # Skat only: hand, taken or known (SKAT_TAKINGS)
    discard: tuple[Card, ...] = ()  # Skat, the skat known: the discard chosen

    def label(self) -> str:
        """The contract as the JSON names it (:func:`~sheepsolve.contracts.contract_key`): ``solo H tout``,
        ``null ouvert hand``."""
        return contract_key(self.game, trump=self.trump, called=self.called, ouvert=self.ouvert,
                            hand=self.skat == "hand", tout=self.tout)

    def to_dict(self) -> dict[str, Any]:
        out = {"contract": self.label(), "game": self.game, "trump": self.trump,
               "called": str(self.called) if self.called is not None else None, "tout": self.tout}
        if self.skat is not None:
            out.update({"ouvert": self.ouvert, "hand": self.skat == "hand", "skat": self.skat,
                        "discard": [str(c) for c in self.discard] if self.skat == "known" else None})
        return out

    def to_key(self) -> tuple:
        return (self.game, self.trump, -1 if self.called is None else int(self.called), self.tout, self.ouvert,
                self.skat, tuple(int(c) for c in self.discard))

    @staticmethod
    def from_key(k: tuple) -> "Contract":
        return Contract(k[0], k[1], None if k[2] < 0 else Card(k[2]), k[3], k[4], k[5], tuple(Card(c) for c in k[6]))


def legal_decisions(game: Game, picked: Iterable[Card], others: Iterable[Card] | None = None, *,
                    order: bool = True) -> list[BuryDecision]:
    """Every legal (bury, call, under) choice of a picker holding ``picked`` (his hand and the blind).

    The called-ace hold-card rule comes from :func:`sheepsolve.engine.legal_calls` on the kept hand: a bury
    that leaves no hold card for a suit removes that suit's call. Going alone is always allowed there. Under
    the other partner rules only the bury is chosen. ``others``: the cards in the other hands, when not the
    whole rest of the deck (small deals): a card not among them cannot be called. The buries come in the order
    of ``picked`` (``order``: the game's order of cards).

    >>> from sheepsolve.cards import parse_cards
    >>> picked = parse_cards("QC QS JD AD 9C TS 7H 8H")
    >>> len(legal_decisions(make_game("sheepshead"), picked))
    28
    >>> ds = legal_decisions(make_game("sheepshead", partner="called-ace"), picked)
    >>> sorted({d.call for d in ds})
    ['AC', 'AH', 'AS', 'alone']
    >>> any(d.call == "AC" and Card.parse("9C") in d.bury for d in ds)
    False
    """
    picked = game.sort_cards(picked) if order else list(picked)
    elsewhere = set(others) if others is not None else None
    out: list[BuryDecision] = []
    for bury in itertools.combinations(picked, game.bury_size):
        kept = [c for c in picked if c not in bury]
        if game.partner != "called-ace":
            out.append(BuryDecision(tuple(bury)))
            continue
        for call in legal_calls(game, kept, bury):
            if elsewhere is not None and call.card is not None and call.card not in elsewhere:
                continue
            if call.card is None:
                out.append(BuryDecision(tuple(bury), alone=True))
            elif call.under:
                out.extend(BuryDecision(tuple(bury), called=call.card, under=u) for u in kept)
            else:
                out.append(BuryDecision(tuple(bury), called=call.card))
    return out


def skat_contracts(game: Game, takings: Sequence[str] = ("hand", "taken")) -> list[Contract]:
    """Every Skat contract, played each way of ``takings`` (:data:`SKAT_TAKINGS`): grand, the four suit games,
    null and null ouvert; one whose value cannot cover ``game``'s bid (a null game) is left out.

    >>> [c.label() for c in skat_contracts(make_game("grand"), ["hand"])]
    ['grand hand', 'skat C hand', 'skat S hand', 'skat H hand', 'skat D hand', 'null hand', 'null ouvert hand']
    >>> len(skat_contracts(make_game("grand", bid=48), ["taken"]))
    5
    """
    out: list[Contract] = []
    for taking in takings:
        for name, trump, ouvert in [("grand", None, False)] + [("skat", t, False) for t in "CSHD"] + [
                ("null", None, False), ("null", None, True)]:
            c = Contract(name, trump, ouvert=ouvert, skat=taking)
            try:
                make_contract_game(game, c.game, c.trump, False, ouvert=ouvert, hand=taking == "hand")
            except GameError:
                continue
            out.append(c)
    return out


def contracts_for(game: Game, hand: Iterable[Card]) -> list[Contract]:
    """Every contract a Schafkopf declarer holding ``hand`` may announce, under ``game``'s deck, seats and rules.

    >>> from sheepsolve.cards import parse_cards
    >>> cs = contracts_for(make_game("sauspiel"), parse_cards("QC QS JH AH 7C 9S KS 8D"))
    >>> [c.label() for c in cs][:5], len(cs)
    (['sauspiel AC', 'sauspiel AS', 'sauspiel AD', 'solo C', 'solo S'], 31)
    >>> len(contracts_for(make_game("sauspiel", rules={"preset": "gametwist"}), parse_cards("QC QS JH AH 7C 9S KS 8D")))
    15
    """
    hand = list(hand)
    out: list[Contract] = []
    for spec in contract_games(game):
        name, trump, tout = spec
        try:
            g = make_contract_game(game, name, trump, tout)
        except GameError:
            continue
        if name == "sauspiel":
            out.extend(Contract("sauspiel", called=c.card) for c in legal_calls(g, hand))
        elif name == "sie":
            if all(c in hand for c in QUEENS + JACKS):
                out.append(Contract("sie"))
        else:
            out.append(Contract(name, trump, tout=tout))
    return out


def sauspiel_blocks(game: Game, hand: Iterable[Card]) -> list[tuple[Card, str]]:
    """Why ``hand`` can call no Sau (and so play no sauspiel): for each Sau that could be called, ``"held"``
    (the declarer holds it himself) or ``"void"`` (he keeps no card of its suit that is not a trump). Empty when
    some Sau can be called.

    >>> from sheepsolve.cards import parse_cards
    >>> [(str(a), why) for a, why in sauspiel_blocks(make_game("sauspiel"), parse_cards("QC QS AC 9C JD JH 7H 8H"))]
    [('AC', 'held'), ('AS', 'void'), ('AD', 'void')]
    >>> sauspiel_blocks(make_game("sauspiel"), parse_cards("QC QS AC 9C 8D JH 7H 8H"))
    []
    """
    hand = list(hand)
    base = make_contract_game(game, "sauspiel", None, False)
    if legal_calls(base, hand):
        return []
    aces = [Card.make("A", s) for s in base.plain_suits if not base.is_trump(Card.make("A", s))]
    return [(a, "held" if a in hand else "void") for a in aces]


def contract_games(game: Game) -> list[tuple[str, str | None, bool]]:
    out: list[tuple[str, str | None, bool]] = [("sauspiel", None, False)]
    for tout in (False, True):
        out += [("solo", t, tout) for t in "CSHD"]
        out += [("wenz", None, tout), ("geier", None, tout)]
        out += [("farbwenz", t, tout) for t in "CSHD"]
        out += [("farbgeier", t, tout) for t in "CSHD"]
    out.append(("sie", None, False))
    return out


def make_contract_game(base: Game, name: str, trump: str | None, tout: bool, *, ouvert: bool = False,
                       hand: bool = False) -> Game:
    """The game of a contract on ``base``'s deck, seats and rules; a Skat contract keeps ``base``'s bid and is
    played ``ouvert`` and as a ``hand`` game as asked."""
    if base.family == "skat":
        return make_game(name, trump=trump, ouvert=ouvert or None, hand=hand, bid=getattr(base, "bid", None),
                         rules=dict(base.rules))
    return make_game(name, trump=trump, deck="short" if len(base.deck) < 32 else "long", tout=tout or None,
                     seats=base.seats, rules=dict(base.rules))


def deal_choices(setup: Setup) -> tuple[str, list[tuple[BuryDecision, Setup]]]:
    """Every legal bury and call of the actual deal of ``setup`` (each with its setup, which
    :meth:`Setup.create <sheepsolve.engine.Setup.create>` checked): the picker's buries (:func:`legal_decisions`,
    in the order of the card numbers) or a sauspiel declarer's calls, and what is chosen (``"bury"``, ``"call"``,
    ``"bury and call"``; ``""`` when nothing is). A picker without a partner by the rules (``alone``, or the
    jack of diamonds in a hand that did not become his partner) stays alone with every bury."""
    g = setup.game
    p = setup.declarer
    assert p is not None
    out: list[tuple[BuryDecision, Setup]] = []
    if g.kind == "picker":
        picked = sorted(setup.hands[p] | set(setup.bury), key=int)
        hands = [sorted(h, key=int) for h in setup.hands]
        hands[p] = [c for c in picked if c not in setup.blind]
        jd_alone = (g.partner == "jack-of-diamonds" and setup.partner is None
                    and any(Card.make("J", "D") in h for s, h in enumerate(setup.hands) if s != p))
        alone = jd_alone or g.partner == "alone"
        for d in legal_decisions(g, picked, order=False):
            try:
                st = Setup.create(g, hands, declarer=p, blind=setup.blind, bury=d.bury, called=d.called,
                                  under=d.under, alone=d.alone or alone)
            except RulesError:
                continue
            out.append((d, st))
        return ("bury and call" if g.partner == "called-ace" else "bury"), out
    if g.partner == "sauspiel":
        hands = [sorted(h, key=int) for h in setup.hands]
        for call in legal_calls(g, hands[p]):
            try:
                st = Setup.create(g, hands, declarer=p, called=call.card)
            except RulesError:
                continue
            out.append((BuryDecision((), called=call.card), st))
        return "call", out
    return "", []


# --------------------------------------------------------------------------------------------------------------
# Interchangeable cards: buries that cannot differ in play.


def card_groups(game: Game, picked: Iterable[Card]) -> dict[Card, int]:
    """Group the picker's cards: same class, same points, no other card between them in rank."""
    picked = set(picked)
    special: set[Card] = set()
    if game.partner == "jack-of-diamonds":
        special |= set(JACKS) if game.rules.get("call_up") else {Card.make("J", "D")}
    if game.rules.get("blitz"):
        special |= {Card.make("Q", "C"), Card.make("Q", "S")}
    groups: dict[Card, int] = {}
    gid = 0
    for cls in game.classes:
        prev: Card | None = None
        for c in game.class_cards(cls):
            if c not in picked:
                prev = None
                continue
            if prev is not None and c not in special and prev.points == c.points:
                groups[c] = groups[prev]
            else:
                groups[c] = gid
                gid += 1
            prev = None if c in special else c
    return groups


def merge_choices(decisions: Sequence[BuryDecision],
           groups: Mapping[Card, int] | None) -> tuple[list[BuryDecision], list[int]]:
    """Representative decisions and, for every decision, the index of its representative."""
    reps: list[BuryDecision] = []
    where: dict[tuple, int] = {}
    index: list[int] = []
    for d in decisions:
        if groups is None:
            sig: tuple = d.to_key()
        else:
            sig = (tuple(sorted(groups[c] for c in d.bury)), d.called, d.alone,
                   None if d.under is None else groups[d.under])
        if sig not in where:
            where[sig] = len(reps)
            reps.append(d)
        index.append(where[sig])
    return reps, index




# --------------------------------------------------------------------------------------------------------------
# The order of solving


def choice_context(d: BuryDecision) -> tuple:
    """What decides the solver's tables besides the hands: the called card, the card under, going alone. The
    solver clears its table when they change, so choices sharing them are solved one after another."""
    return (d.called, d.under, d.alone)


def solve_order(decisions: Sequence[BuryDecision]) -> list[int]:
    """The order to solve ``decisions`` in: grouped by :func:`choice_context` (in order of first appearance), the
    given order within a group, so that the call does not change from one choice to the next (docs/TUNING.md)."""
    first: dict[tuple, int] = {}
    for i, d in enumerate(decisions):
        first.setdefault(choice_context(d), i)
    return sorted(range(len(decisions)), key=lambda i: (first[choice_context(decisions[i])], i))
