"""The model of the doubling calls: crack and re-crack (Sheepshead), Kontra, Re and Klopfen (Schafkopf).

The rule (docs/RULES.md, "The model of the calls")
----------------------------------------------------
A doubling call doubles every payment of the hand, so it is worth to its caller his expected payment ``EP`` in the
game that follows, times the stakes it doubles (``m``: 2 per doubler or Klopfen before it, and 2 more for a
re-crack, which doubles a cracked game). The softmax of the model of the calls between calling (``2 m EP``) and not
(``m EP``), at its temperature ``T``, is a logistic::

    P(call | hand) = 1 / (1 + exp(-m EP(hand) / T))

``EP`` is the seat's expected payment **by its role** in the world: a defender's for a crack or Kontra (the
declaring side never cracks: probability 0), the picker's or declarer's, or his partner's, for a re-crack or Re (a
defender never answers a crack: 0), and any seat's before the bidding for a Klopfen (its hand as dealt, in
whatever game follows; ``m`` = 1). The expected payments are tables by hand class, fitted by
:mod:`sheepsolve.inference.double_build` on deals whose auctions the model of the calls played, each solved
double dummy, and shipped as ``double_model.json`` (:func:`default_double_model`, :func:`double_model_info`).

What weighs (:class:`DoubleFactor`)
-----------------------------------
- With an ``auction`` key: each crack, re-crack, Kontra, Re and Klopfen in it, for the hand the world gives the seat
  that made it. What the other seats would have said is not weighed: once a seat cracks nobody else may.
- Without one: ``crack`` (``kontra``) = true weighs "some seat of the other side cracked", ``1 - prod(1 - p)`` over
  the seats not on the declaring side in the world; ``recrack`` (``re``) "some seat of the declaring side answered";
  a Schafkopf record's ``doublers`` = k "at least k seats knocked".
- **Nobody doubling weighs nothing** (probability 1): ``crack = false`` is every record's default, written by
  sources that never say whether anyone could have doubled, so it cannot be read as "nobody wished to"; and a
  factor per seat per world would cost the sampler for every record.
- A contract or form without a table (a tout, a Bettel, a form the build left out) and blitz weigh nothing.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> g = make_game("solo", trump="H")
>>> strong, weak = parse_cards("QC QS JC AH TH KH AS TS"), parse_cards("7H 8H 9C 7S 8S 9S 7D 8D")
>>> double_probability(g, "crack", "defender", strong) > double_probability(g, "crack", "defender", weak)
True
>>> double_probability(g, "crack", "declarer", strong), double_probability(g, "recrack", "defender", strong)
(0.0, 0.0)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from ..cards import Card
from ..games import Game, make_game
from .auction import CRACK, KLOPFEN, RECRACK, Auction, ContractCall
from .data import TEMPERATURE, CallModel, contract_kind, double_key, form_key, klopfen_key
from .features import HandMasks, hand_key, hand_masks, mask_of_hand

__all__ = ["DATA_FILE", "ROLES", "default_double_model", "double_model_info", "double_probability", "DoubleFactor",
           "double_factor", "partner_at_lead", "at_least"]

DATA_FILE = "double_model.json"

ROLES = ("declarer", "partner", "defender")
"""A seat's role in a world: the picker or declarer, his partner, a seat of the other side."""


@lru_cache(maxsize=1)
def default_double_model() -> CallModel:
    """The tables shipped with sheepsolve (``double_model.json``)."""
    text = resources.files("sheepsolve.inference").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return CallModel(json.loads(text))


def double_model_info(model: CallModel | None = None) -> dict[str, Any]:
    """How the doubling tables were built: seed, deals per form, the model of the calls that played the auctions,
    processor seconds, commit."""
    return dict((model or default_double_model()).info)


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _kind(game: Game) -> str | None:
    return None if game.family == "sheepshead" else contract_kind(ContractCall(game.name, tout=game.tout))


def _base_game(game: Game) -> Game:
    """The Sauspiel of a Schafkopf game's deck and table: the trumps a hand is read under before the bidding."""
    return make_game("sauspiel", deck="short" if len(game.deck) < 32 else "long", seats=game.seats)


def at_least(ps: Sequence[float], k: int) -> float:
    """The probability that at least ``k`` of independent events of probabilities ``ps`` happen.

    >>> at_least([0.5, 0.5], 1), at_least([0.5, 0.5], 2), at_least([0.3], 0)
    (0.75, 0.25, 1.0)
    """
    dist = [1.0]  # dist[j]: P(exactly j so far)
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        for j, q in enumerate(dist):
            nxt[j] += q * (1.0 - p)
            nxt[j + 1] += q * p
        dist = nxt
    return math.fsum(dist[k:]) if k < len(dist) else 0.0


class _Role:
    """P(a double) for hand masks of one role: the table, the masks it reads a hand through, the called suit."""

    def __init__(self, table: Any, masks: HandMasks, suit_mask: int, scale: float) -> None:
        self.table, self.masks, self.suit_mask, self.scale = table, masks, suit_mask, scale

    def __call__(self, h: int) -> float:
        if self.table is None:
            return 1.0
        suit = (h & self.suit_mask).bit_count() if self.suit_mask else 0
        return _sigmoid(self.table.value(hand_key(self.masks, h, suit)) * self.scale)


class DoubleFactor:
    """The doubling calls of one record, weighed per world: ``factor(hands, bury)`` with the hands at the first lead
    as masks (the picker's after the bury) and the bury's mask (see the module). Build it with
    :func:`double_factor`, which gives None where the record has no doubling call to weigh."""

    def __init__(self, game: Game, *, declarer: int | None, called: Card | None = None, alone: bool = False,
                 calls: Sequence[tuple[str, int]] = (), crack: bool = False, recrack: bool = False,
                 klopfen: int = 0, doublers: int = 0, model: CallModel | None = None) -> None:
        m = model or default_double_model()
        self.game, self.declarer, self.called, self.alone = game, declarer, called, alone
        self.calls = tuple(calls)
        self.crack, self.recrack, self.klopfen = crack, recrack, klopfen
        form, kind = form_key(game), _kind(game)
        masks = hand_masks(game)
        suit_mask = 0
        if called is not None and called.suit in masks.suit_of and not game.is_trump(called):
            suit_mask = masks.suits[masks.suit_of.index(called.suit)]
        t = m.temperature.get(game.family, TEMPERATURE.get(game.family, 1.0))
        before = 2.0 ** doublers  # the stakes a crack doubles
        self.roles = {role: _Role(m.table(double_key(form, role, kind)), masks, suit_mask,
                                  (before if role == "defender" else 2.0 * before) / t) for role in ROLES}
        self.knock = None
        if game.family == "schafkopf":
            self.knock = _Role(m.table(klopfen_key(form)), hand_masks(_base_game(game)), 0, 1.0 / t)
        self.jd = 1 << Card.make("J", "D")
        self.jacks = tuple(1 << Card.make("J", s) for s in "CSHD")

    @property
    def reads_declarer(self) -> bool:
        """Whether a factor reads the declarer's hand at the first lead (a re-crack, named or implied), so a world
        must give it apart from his bury (else the picker's hand and bury may come as one, the partner found the
        same)."""
        return self.recrack or any(kind == RECRACK for kind, _ in self.calls)

    def implied_words(self) -> list[str]:
        """The doubles weighed without an auction, as the line that says what the worlds assume names them.

        >>> DoubleFactor(make_game("sauspiel"), declarer=2, crack=True, klopfen=2).implied_words()
        ['kontra by the other side', '2 klopfen']
        """
        schafkopf = self.game.family == "schafkopf"
        out = []
        if self.crack:
            out.append(f"{'kontra' if schafkopf else 'crack'} by the other side")
        if self.recrack:
            out.append(f"{'re' if schafkopf else 're-crack'} by the declaring side")
        if self.klopfen:
            out.append(f"{self.klopfen} klopfen")
        return out

    def partner(self, hands: Sequence[int], bury: int) -> int | None:
        """The declarer's partner in a world (masks at the first lead), as the engine finds him."""
        return partner_at_lead(self.game, hands, self.declarer, bury, self.called, self.alone)

    def probability(self, kind: str, seat: int, hands: Sequence[int], partner: int | None) -> float:
        """P(``seat`` makes the doubling call ``kind``) with its hand in the world (0 for the wrong side)."""
        h = hands[seat]
        if kind == KLOPFEN:
            return self.knock(h) if self.knock is not None else 1.0
        role = "declarer" if seat == self.declarer else "partner" if seat == partner else "defender"
        if (kind == CRACK) != (role == "defender"):
            return 0.0  # a crack is the other side's; a re-crack the declaring side's answer
        return self.roles[role](h)

    def __call__(self, hands: Sequence[Iterable[Card] | int], bury: Iterable[Card] | int | None = None) -> float:
        hs = [mask_of_hand(h) for h in hands]
        b = mask_of_hand(bury) if bury is not None else 0
        partner = self.partner(hs, b) if self.declarer is not None else None
        like = 1.0
        for kind, seat in self.calls:
            like *= self.probability(kind, seat, hs, partner)
            if like == 0.0:
                return 0.0
        seats = range(len(hs))
        if self.crack:
            like *= 1.0 - math.prod(1.0 - self.probability(CRACK, s, hs, partner) for s in seats
                                    if s != self.declarer)
        if self.recrack:
            like *= 1.0 - math.prod(1.0 - self.probability(RECRACK, s, hs, partner) for s in seats
                                    if s == self.declarer or s == partner)
        if self.klopfen:
            like *= at_least([self.probability(KLOPFEN, s, hs, partner) for s in seats], self.klopfen)
        return like


def double_probability(game: Game, call: str, role: str, hand: Iterable[Card] | int, *, called: Card | None = None,
                       doublers: int = 0, model: CallModel | None = None) -> float:
    """P(a seat of ``role`` (:data:`ROLES`) holding ``hand`` at the first lead in ``game`` makes the doubling call
    ``call`` (``crack``, ``recrack``, ``klopfen``: a Kontra is a crack, a Re a re-crack)); ``called``: the called
    card (the suit it reads), ``doublers``: the doublers or Klopfen before it. 1.0 where no table covers it."""
    if call not in (CRACK, RECRACK, KLOPFEN) or role not in ROLES:
        raise ValueError(f"no doubling call {call!r} by a {role!r}")
    factor = DoubleFactor(game, declarer=None, called=called, doublers=doublers, model=model)
    if call == KLOPFEN:
        return factor.knock(mask_of_hand(hand)) if factor.knock is not None else 1.0
    if (call == CRACK) != (role == "defender"):
        return 0.0
    return factor.roles[role](mask_of_hand(hand))


def partner_at_lead(game: Game, hands: Sequence[int], declarer: int | None, bury: int, called: Card | None,
                    alone: bool) -> int | None:
    """The declarer's partner in hand masks at the first lead, as :meth:`~sheepsolve.engine.Setup.partner_in` finds
    him: the jack of diamonds' holder (with ``call_up`` the highest jack the picker lacks), the called card's; None
    alone or without a partner.

    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead")
    >>> hands = [mask_of_hand(parse_cards(h)) for h in ("QC", "JD", "QS", "QH", "QD")]
    >>> partner_at_lead(g, hands, 0, 0, None, False), partner_at_lead(g, hands, 0, 0, None, True)
    (1, None)
    """
    if declarer is None or alone or game.kind not in ("picker", "contract"):
        return None
    target = 0
    if game.partner == "jack-of-diamonds":
        mine = hands[declarer] | bury
        target = 1 << Card.make("J", "D")
        if mine & target:
            target = 0
            if game.rules.get("call_up"):
                target = next((1 << Card.make("J", s) for s in "CSHD" if not mine >> Card.make("J", s) & 1), 0)
    elif game.partner in ("called-ace", "sauspiel") and called is not None:
        target = 1 << called
    if not target:
        return None
    return next((s for s, h in enumerate(hands) if h & target and s != declarer), None)


def double_factor(source: Any, auction: Auction, model: CallModel | None = None) -> DoubleFactor | None:
    """The :class:`DoubleFactor` of a record (or a knowledge: its ``stakes``) and its auction; None where nothing is
    doubled that the model weighs (no crack, re-crack, Kontra, Re or Klopfen; a leaster or ramsch's sides)."""
    game = auction.game
    if game.family not in ("sheepshead", "schafkopf"):
        return None
    stakes = getattr(source, "stakes", None)
    crack = bool(getattr(source, "crack", getattr(stakes, "crack", False)))
    recrack = bool(getattr(source, "recrack", getattr(stakes, "recrack", False)))
    doublers = int(getattr(source, "doublers", getattr(stakes, "doublers", 0)) or 0)
    declarer = getattr(source, "declarer", None)
    sides = game.kind in ("picker", "contract") and declarer is not None
    if auction.given:
        calls = [(c.kind, c.seat) for c in auction.calls if c.kind in (KLOPFEN,) + ((CRACK, RECRACK) if sides else ())]
        implied: dict[str, Any] = {}
    else:
        calls = []
        implied = {"crack": crack and sides, "recrack": recrack and crack and sides,
                   "klopfen": doublers if game.family == "schafkopf" else 0}
    if not calls and not any(implied.values()):
        return None
    return DoubleFactor(game, declarer=declarer if sides else None, called=getattr(source, "called", None),
                        alone=bool(getattr(source, "alone", False)), calls=calls, model=model, doublers=doublers,
                        **implied)
