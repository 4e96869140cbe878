"""A model of the calls, derived from the solver: how likely a sensible player is to make each call with a hand.

The rule (docs/RULES.md, "The model of the calls")
----------------------------------------------------
Every choice a seat makes before the first lead is worth, to that seat, the **expected payment** that ``pick``,
``choose`` and ``bury`` compute for it (:func:`sheepsolve.bury.pick_or_pass`, :func:`~sheepsolve.bury.choose_contract`,
:func:`~sheepsolve.bury.sample_buries`: the seat's own payment averaged over uniformly dealt worlds, each solved
double dummy); passing is worth 0. A seat makes each choice with the probability of a **softmax** over those
payments at the temperature :data:`TEMPERATURE` (1 unit in Sheepshead, 10 in Schafkopf: one Sauspiel tariff)::

    P(choice) = exp(EP(choice) / T) / sum over the seat's choices c of exp(EP(c) / T)

Solving worlds for every hand of every world is far too slow, so the expected payments are precomputed:
:mod:`sheepsolve.inference.build` runs ``pick``, ``choose`` and ``bury`` over seeded random hands and fits, for
every choice, a linear model of its expected payment on compact features of the hand (:class:`HandFeatures`: trumps
and their square and cube, the highest trumps, Laufende, plain aces and tens, voids, card points). The fitted
weights ship as ``call_model.json`` beside this module, with the seed, the number of hands, the worlds per hand, the
temperature and the commit that built them (:func:`model_info`).

The calls weighed
-----------------
- Sheepshead: ``pick`` against ``pass`` (:func:`pick_probability`); the picker's bury with his call (called-ace:
  an ace or ten, ``alone``; the card *under* is chosen uniformly among his kept cards), a softmax over every legal
  choice (:func:`bury_probability`).
- Schafkopf: ``weiter`` against every contract the hand may announce (each Sauspiel the hand may call, a solo,
  wenz, geier, farbwenz, farbgeier in every suit the rules allow, their tout forms); a hand holding every Ober and
  Unter announces sie. ``play`` (a wish, the contract not said) is one minus ``weiter``.
- Crack, kontra, re, klopfen and blitz carry no weight (probability 1 for every hand): the model has none for them.
- A game form without fitted data (see :func:`has_model`) weighs nothing either: every call has probability 1.

The likelihood of a world (:func:`auction_likelihood`) is the product, over every call of the record's auction (or
the one its rules imply: :func:`~sheepsolve.inference.auction.implied_auction`), of the probability of that call
for the hand that world gives the seat that made it, the bury and the call included. Where the world does not
split a picker's cards into his dealt hand and the blind (anyone but the picker), the pick's probability is averaged
over every way the blind could lie among the picker's cards, which is exact for uniformly dealt worlds.

Example
-------
>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.inference.auction import implied_auction
>>> g = make_game("sheepshead")
>>> f = features(g, parse_cards("QC QS JD AD TD AH 7S 8C"))
>>> f.trumps, f.high, f.second, f.run, f.aces, f.voids
(5, 2, 1, 2, 1, 0)
>>> strong = parse_cards("QC QS QH QD JC JS AD TD")
>>> weak = parse_cards("7C 8C 9C 7S 8S 7H 8H 9H")
>>> pick_probability(g, strong) > 0.9 > 0.5 > pick_probability(g, weak)
True
>>> deck = list(g.deck)
>>> rest = [c for c in deck if c not in strong + weak]
>>> hands = [weak, rest[:6], strong[:6], rest[6:12], rest[12:18]]  # at the first lead; seat 2 picked, buried AD TD
>>> like = auction_likelihood(implied_auction(g, 2), hands, bury=strong[6:])
>>> 0 < like < 1
True
>>> auction_likelihood(implied_auction(g, 2), [strong, rest[:6], weak[:6], rest[6:12], rest[12:18]],
...                    bury=weak[6:]) < like   # the strong hand passing and the weak one picking: far less likely
True
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..cards import Card
from ..engine import legal_calls
from ..games import REGISTRY, Game, GameError, make_game
from .auction import AT_MOST, CONTRACT, PASS, PICK, PLAY, Auction, Call, ContractCall, implied_auction

__all__ = [
    "TEMPERATURE",
    "HandFeatures",
    "BuryChoice",
    "CallModel",
    "features",
    "pick_probability",
    "bury_probability",
    "contract_probabilities",
    "call_probability",
    "auction_likelihood",
    "AuctionLikelihood",
    "auction_of",
    "has_model",
    "model_info",
    "default_model",
    "form_key",
    "HAND_TERMS",
    "BURY_TERMS",
    "hand_terms",
    "bury_terms",
]

TEMPERATURE: dict[str, float] = {"sheepshead": 1.0, "schafkopf": 10.0}
"""The softmax temperature by family, in the payments' own units (Sheepshead units; Schafkopf money at the default
tariffs, so 10 is one Sauspiel tariff)."""

DATA_FILE = "call_model.json"

HAND_TERMS = ("1", "trumps", "trumps^2/8", "trumps^3/64", "high", "second", "run", "aces", "tens", "voids",
              "points/10", "high*trumps/8", "suit", "suit_ten", "jd")
"""The terms of a hand's expected payment for a pick or a contract: ``suit`` and ``suit_ten`` are the cards of the
called Sau's suit held and whether its ten is among them (Sauspiel only), ``jd`` holding the jack of diamonds
(Sheepshead)."""

BURY_TERMS = ("kept_trumps", "kept_high", "kept_second", "kept_aces", "kept_voids", "bury_points/10",
              "bury_trumps", "call_suit", "call_ten", "alone", "under", "kept_jd")
"""The terms of a bury choice's expected payment, relative to the picker's other choices of the same cards (the
softmax needs only the differences): the kept hand's trumps, highest trumps, plain aces and voids, the points and
trumps buried, the called suit's cards kept, a called ten, going alone, a card under, keeping the jack of diamonds."""


# --------------------------------------------------------------------------------------------------------------
# Features by bitmask arithmetic


@dataclass(frozen=True)
class _Masks:
    trumps: int
    high: int
    second: int
    order: tuple[int, ...]  # trump bits, highest first
    suits: tuple[int, ...]  # the plain suits' masks (trumps taken out)
    suit_of: tuple[str, ...]
    aces: int
    tens: int
    by_points: tuple[tuple[int, int], ...]
    jd: int


def _by_game(fn):
    """Cache ``fn(game)`` per game object (a :class:`Game` is not hashable: its rules are a mapping)."""
    cache: dict[int, tuple[Game, Any]] = {}

    def cached(game: Game) -> Any:
        hit = cache.get(id(game))
        if hit is not None and hit[0] is game:
            return hit[1]
        if len(cache) > 256:
            cache.clear()
        value = fn(game)
        cache[id(game)] = (game, value)
        return value

    cached.__doc__ = fn.__doc__
    return cached


@_by_game
def _masks(game: Game) -> _Masks:
    spec = REGISTRY[game.name]
    tops = spec.top_trumps
    trumps = game.trump_mask
    high = sum(1 << c for c in game.trumps if tops and c.rank == tops[0])
    second = sum(1 << c for c in game.trumps if len(tops) > 1 and c.rank == tops[1])
    suits = tuple(sum(1 << c for c in game.deck if game.suit_class(c) == s) for s in game.plain_suits)
    aces = sum(1 << c for c in game.deck if c.rank == "A" and not game.is_trump(c))
    tens = sum(1 << c for c in game.deck if c.rank == "T" and not game.is_trump(c))
    by_points = tuple((p, sum(1 << c for c in game.deck if c.points == p)) for p in (11, 10, 4, 3, 2))
    jd = (1 << Card.make("J", "D")) if game.family == "sheepshead" else 0
    return _Masks(trumps, high, second, tuple(1 << c for c in game.trumps), suits, tuple(game.plain_suits), aces,
                  tens, by_points, jd)


@dataclass(frozen=True)
class HandFeatures:
    """Compact features of a hand under a game's trumps: ``trumps``; ``high`` and ``second`` (the trumps of the
    first and second top rank: Ober and Unter, queens and jacks; wenz and geier have only ``high``); ``run`` (the
    trumps held from the highest down without a gap, Laufende with); plain ``aces`` and ``tens``; ``voids`` (plain
    suits without a card); card ``points``; ``jd`` (the jack of diamonds, Sheepshead)."""

    trumps: int
    high: int
    second: int
    run: int
    aces: int
    tens: int
    voids: int
    points: int
    jd: int


def _mask(hand: Iterable[Card] | int) -> int:
    if isinstance(hand, int):
        return hand
    m = 0
    for c in hand:
        m |= 1 << c
    return m


def _features(m: _Masks, h: int) -> HandFeatures:
    run = 0
    for bit in m.order:
        if not h & bit:
            break
        run += 1
    return HandFeatures(trumps=(h & m.trumps).bit_count(), high=(h & m.high).bit_count(),
                        second=(h & m.second).bit_count(), run=run, aces=(h & m.aces).bit_count(),
                        tens=(h & m.tens).bit_count(), voids=sum(1 for s in m.suits if not h & s),
                        points=sum(p * (h & mk).bit_count() for p, mk in m.by_points), jd=1 if h & m.jd else 0)


def features(game: Game, hand: Iterable[Card] | int) -> HandFeatures:
    """The :class:`HandFeatures` of ``hand`` (cards, or a mask of card bits) under ``game``'s trumps."""
    return _features(_masks(game), _mask(hand))


def hand_terms(f: HandFeatures, suit: int = 0, suit_ten: int = 0) -> tuple[float, ...]:
    """The values of :data:`HAND_TERMS` for a hand's features (``suit``, ``suit_ten``: the called Sau's suit)."""
    t = f.trumps
    return (1.0, t, t * t / 8, t * t * t / 64, f.high, f.second, f.run, f.aces, f.tens, f.voids, f.points / 10,
            f.high * t / 8, suit, suit_ten, f.jd)


@dataclass(frozen=True)
class BuryChoice:
    """A picker's choice after the pick: the cards buried, the card called (or ``alone``), the card under."""

    cards: tuple[Card, ...]
    called: Card | None = None
    alone: bool = False
    under: Card | None = None


def bury_terms(game: Game, picked: int, bury: int, called: Card | None, alone: bool, under: bool
               ) -> tuple[float, ...]:
    """The values of :data:`BURY_TERMS` for one choice of a picker holding ``picked`` (a mask: hand and blind)."""
    m = _masks(game)
    kept = picked & ~bury
    f = _features(m, kept)
    suit = ten = 0
    if called is not None:
        s = m.suit_of.index(called.suit) if called.suit in m.suit_of else -1
        suit = (kept & m.suits[s]).bit_count() if s >= 0 else 0
        ten = 1 if called.rank == "T" else 0
    bury_points = sum(p * (bury & mk).bit_count() for p, mk in m.by_points)
    return (f.trumps, f.high, f.second, f.aces, f.voids, bury_points / 10, (bury & m.trumps).bit_count(), suit, ten,
            1 if alone else 0, 1 if under else 0, f.jd)


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, x))


# --------------------------------------------------------------------------------------------------------------
# The model's data


def form_key(game: Game) -> str:
    """The model's name for a game form: ``sheepshead/jack-of-diamonds``, ``sheepshead-3/alone``,
    ``schafkopf-4-long`` (every Schafkopf contract of that deck and table shares one form).

    >>> form_key(make_game("sheepshead", partner="called-ace")), form_key(make_game("wenz", deck="short"))
    ('sheepshead/called-ace', 'schafkopf-4-short')
    """
    if game.family == "sheepshead":
        if game.kind == "leaster":
            name = {5: "sheepshead", 4: "sheepshead-4", 3: "sheepshead-3"}[game.seats]
            return f"{name}/{'jack-of-diamonds' if game.seats == 5 else 'alone'}"
        return f"{game.name}/{game.partner}"
    return f"schafkopf-{game.seats}-{'short' if len(game.deck) < 32 else 'long'}"


def contract_kind(c: ContractCall) -> str:
    """The model's name for a contract's payment model: ``sauspiel``, ``solo``, ``wenz-tout``, ..."""
    return c.game + ("-tout" if c.tout else "")


class CallModel:
    """Fitted weights: ``models`` maps ``FORM/pick``, ``FORM/bury`` and ``FORM/CONTRACT-KIND`` to the weights of
    :data:`HAND_TERMS` (or :data:`BURY_TERMS`); ``info`` is what built them."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.info = {k: v for k, v in data.items() if k != "models"}
        self.models: dict[str, tuple[float, ...]] = {k: tuple(v["weights"]) for k, v in data["models"].items()}
        self.temperature: dict[str, float] = dict(data.get("temperature", TEMPERATURE))

    def weights(self, key: str) -> tuple[float, ...] | None:
        return self.models.get(key)


@lru_cache(maxsize=1)
def default_model() -> CallModel:
    """The model shipped with sheepsolve (``call_model.json``)."""
    text = resources.files("sheepsolve.inference").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return CallModel(json.loads(text))


def model_info(model: CallModel | None = None) -> dict[str, Any]:
    """How the model's data was built: seed, hands per form, worlds per hand, temperature, commit, seconds."""
    return dict((model or default_model()).info)


def has_model(game: Game, model: CallModel | None = None) -> bool:
    """Whether the model has fitted data for ``game``'s form (else every call weighs 1)."""
    m = model or default_model()
    key = form_key(game)
    return any(k.startswith(key + "/") for k in m.models)


# --------------------------------------------------------------------------------------------------------------
# Probabilities of single calls


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _pick_ep(game: Game, w: Sequence[float], h: int) -> float:
    return _dot(w, hand_terms(_features(_masks(game), h)))


def pick_probability(game: Game, hand: Iterable[Card] | int, model: CallModel | None = None) -> float:
    """P(pick) for a Sheepshead seat holding ``hand`` as dealt: the softmax of picking's expected payment against
    passing's 0 (1.0 where the form has no data... the call then weighs nothing)."""
    m = model or default_model()
    w = m.weights(form_key(game) + "/pick")
    if w is None:
        return 1.0
    return _sigmoid(_pick_ep(game, w, _mask(hand)) / m.temperature["sheepshead"])


def _bury_options(game: Game, picked: int) -> list[tuple[int, Card | None, bool, bool]]:
    """(bury mask, called card, alone, under) of every choice, one per call with a card under."""
    cards = [Card(i) for i in range(32) if picked >> i & 1]
    out: list[tuple[int, Card | None, bool, bool]] = []
    for bury in itertools.combinations(cards, game.bury_size):
        b = _mask(bury)
        if game.partner != "called-ace":
            out.append((b, None, False, False))
            continue
        kept = [c for c in cards if not b >> c & 1]
        for call in legal_calls(game, kept, bury):
            out.append((b, call.card, call.card is None, bool(call.under)))
    return out


def _bury_distribution(game: Game, picked: int, model: CallModel) -> dict[tuple[int, Card | None, bool, bool], float] | None:
    w = model.weights(form_key(game) + "/bury")
    if w is None:
        return None
    t = model.temperature["sheepshead"]
    opts = _bury_options(game, picked)
    us = [_dot(w, bury_terms(game, picked, b, c, a, u)) / t for b, c, a, u in opts]
    top = max(us)
    es = [math.exp(u - top) for u in us]
    z = sum(es)
    return {o: e / z for o, e in zip(opts, es)}


def bury_probability(game: Game, picked: Iterable[Card] | int, choice: BuryChoice,
                     model: CallModel | None = None) -> float:
    """P(the picker holding ``picked`` (his hand and the blind) buries ``choice.cards`` and makes its call): the
    softmax over every legal choice; a card under is any of the kept cards, equally likely."""
    m = model or default_model()
    pk = _mask(picked)
    return _bury_prob(game, pk, _mask(choice.cards), choice.called, choice.alone, choice.under is not None, m)


def _bury_prob(game: Game, picked: int, bury: int, called: Card | None, alone: bool, under: bool,
               m: CallModel) -> float:
    dist = _bury_distribution(game, picked, m)
    if dist is None:
        return 1.0
    if game.partner != "called-ace":
        called, alone, under = None, False, False
    elif called is None:
        alone = True
    p = dist.get((bury, called, alone, under), 0.0)
    if under:
        p /= (picked & ~bury).bit_count()
    return p


@_by_game
def _contract_table(game: Game) -> tuple[tuple[ContractCall, Game, str], ...]:
    """Every contract the game's deck, table and rules allow (the Sauspiele once per Sau), with its game."""
    out: list[tuple[ContractCall, Game, str]] = []
    deck = "short" if len(game.deck) < 32 else "long"
    for name in ("sauspiel", "solo", "wenz", "geier", "farbwenz", "farbgeier", "sie"):
        spec = REGISTRY[name]
        for tout in ((False, True) if spec.tout_allowed else (False,)):
            for trump in ("CSHD" if spec.needs_trump else (None,)):
                try:
                    g = make_game(name, trump=trump, deck=deck, tout=tout or None, seats=game.seats,
                                  rules=dict(game.rules))
                except GameError:
                    continue
                if name == "sauspiel":
                    for s in g.plain_suits:
                        ace = Card.make("A", s)
                        if not g.is_trump(ace):
                            out.append((ContractCall(name, None, ace, False), g, "sauspiel"))
                else:
                    out.append((ContractCall(name, trump, None, tout), g, name + ("-tout" if tout else "")))
    return tuple(out)


def contract_probabilities(game: Game, hand: Iterable[Card] | int, model: CallModel | None = None
                           ) -> dict[ContractCall | None, float] | None:
    """P(weiter) (key None) and P(each contract) for a Schafkopf seat holding ``hand``: the softmax of the
    contracts' expected payments against weiter's 0, over the contracts the hand may announce (a Sauspiel needs a
    card of the Sau's suit and not the Sau; contracts the model has no data for are left out). A hand holding every
    Ober and Unter announces sie. None where the form has no data."""
    m = model or default_model()
    return _contract_probabilities(game, _mask(hand), m)


def _contract_probabilities(game: Game, h: int, m: CallModel) -> dict[ContractCall | None, float] | None:
    form = form_key(game)
    if not any(k.startswith(form + "/") for k in m.models):
        return None
    t = m.temperature["schafkopf"]
    options: list[tuple[ContractCall | None, float]] = [(None, 0.0)]
    for c, g, kind in _contract_table(game):
        if kind == "sie":
            tops = sum(1 << x for x in g.deck if x.rank in "QJ")
            if h & tops == tops:
                return {c: 1.0}
            continue
        w = m.weights(f"{form}/{kind}")
        if w is None:
            continue
        mk = _masks(g)
        suit = ten = 0
        if c.called is not None:
            if h >> c.called & 1:
                continue
            s = mk.suits[mk.suit_of.index(c.called.suit)]
            suit = (h & s).bit_count()
            if not suit:
                continue
            ten = 1 if h >> Card.make("T", c.called.suit) & 1 else 0
        options.append((c, _dot(w, hand_terms(_features(mk, h), suit, ten)) / t))
    top = max(u for _, u in options)
    es = [(c, math.exp(u - top)) for c, u in options]
    z = sum(e for _, e in es)
    return {c: e / z for c, e in es}


def _seat_probability(game: Game, call: Call, h: int, m: CallModel) -> float:
    """The probability of one seat's bidding call (see :meth:`Auction.bidding`) for the hand ``h`` as dealt."""
    if game.family == "sheepshead":
        p = pick_probability(game if game.kind == "picker" else _leaster_form(game), h, m)
        return p if call.kind == PICK else 1.0 - p
    dist = _contract_probabilities(game, h, m)
    if dist is None:
        return 1.0
    if call.kind == PASS:
        return dist.get(None, 0.0)
    if call.kind == PLAY:
        return 1.0 - dist.get(None, 0.0)
    if call.kind == CONTRACT:
        assert call.contract is not None
        return dist.get(call.contract, 0.0)
    if call.kind == AT_MOST:
        assert call.contract is not None
        bound = call.contract.rank
        return sum(p for c, p in dist.items()
                   if c is None or (c.rank < bound if call.strict else c.rank <= bound))
    return 1.0


@_by_game
def _leaster_form(game: Game) -> Game:
    """The picker game whose pick model a leaster's passes are weighed with."""
    name = {5: "sheepshead", 4: "sheepshead-4", 3: "sheepshead-3"}[game.seats]
    return make_game(name, rules={k: v for k, v in game.rules.items() if k in ("all_pass",)})


def call_probability(game: Game, call: Call | BuryChoice, hand: Iterable[Card] | int,
                     model: CallModel | None = None) -> float:
    """The probability that a sensible player makes ``call`` holding ``hand``.

    ``call``: a bidding :class:`~sheepsolve.inference.auction.Call` (``pass``, ``pick``, ``play``, a contract, an
    implied ``at-most``) for the hand as dealt, or a :class:`BuryChoice` for the picker's cards (hand and blind).
    Calls the model does not weigh (crack, kontra, re, klopfen, blitz, a form without data) have probability 1.

    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.inference.auction import Call, ContractCall
    >>> g = make_game("sauspiel")
    >>> hand = parse_cards("QC QS QH QD JC JS AH TH")
    >>> p_solo = call_probability(g, Call(0, "contract", ContractCall("solo", "H")), hand)
    >>> p_pass = call_probability(g, Call(0, "pass"), hand)
    >>> p_solo > 0.5 > p_pass
    True
    """
    m = model or default_model()
    if isinstance(call, BuryChoice):
        return bury_probability(game, hand, call, m)
    if call.kind in (PASS, PICK, PLAY, CONTRACT, AT_MOST):
        return _seat_probability(game, call, _mask(hand), m)
    return 1.0


# --------------------------------------------------------------------------------------------------------------
# The likelihood of a world


def auction_of(source: Any) -> Auction:
    """The auction of a :class:`~sheepsolve.record.Record` (its ``auction``, or the one the rules imply), of an
    :class:`Auction` (itself), or implied from anything with ``game``, ``declarer`` and ``called`` (a
    :class:`~sheepsolve.worlds.Knowledge`, a :class:`~sheepsolve.engine.Setup`); an ``auction`` attribute that is
    not None wins."""
    if isinstance(source, Auction):
        return source
    given = getattr(source, "auction", None)
    if isinstance(given, Auction):
        return given
    return implied_auction(source.game, source.declarer, called=getattr(source, "called", None))


class AuctionLikelihood:
    """The likelihood of worlds for one auction, with what does not change from world to world worked out once.

    ``like(hands, bury=..., blind=..., called=..., under=..., alone=...)``: ``hands`` are the hands at the first
    lead, seat by seat (a picker's after the bury); ``bury`` the picker's bury in that world; ``blind`` the blind
    as dealt when the judging seat saw it (the picker), else None (the pick is then averaged over every place of
    the blind among the picker's cards); ``called``, ``under``, ``alone``: the call (default: the auction's
    game's record values given to the constructor).
    """

    def __init__(self, auction: Auction, *, called: Card | None = None, under: Card | None = None,
                 alone: bool = False, model: CallModel | None = None) -> None:
        self.auction = auction
        self.game = auction.game
        self.model = model or default_model()
        self.bidding = auction.bidding()
        self.called, self.under, self.alone = called, under, alone
        self.picker = next((s for s, c in self.bidding.items() if c.kind == PICK), None)
        self.active = has_model(self.game if self.game.kind != "leaster" else _leaster_form(self.game), self.model)

    def __call__(self, hands: Sequence[Iterable[Card] | int], *, bury: Iterable[Card] | int | None = None,
                 blind: Iterable[Card] | int | None = None, called: Card | None = None, under: Card | None = None,
                 alone: bool | None = None) -> float:
        if not self.active:
            return 1.0
        g, m = self.game, self.model
        masks = [_mask(h) for h in hands]
        like = 1.0
        for seat, call in self.bidding.items():
            if seat == self.picker:
                continue
            like *= _seat_probability(g, call, masks[seat], m)
            if like == 0.0:
                return 0.0
        if self.picker is not None and g.kind == "picker":
            p = self.picker
            b = _mask(bury) if bury is not None else 0
            picked = masks[p] | b
            w = m.weights(form_key(g) + "/pick")
            if w is not None:
                t = m.temperature["sheepshead"]
                if blind is not None:
                    like *= _sigmoid(_pick_ep(g, w, picked & ~_mask(blind)) / t)
                else:
                    like *= _mean_pick(g, w, picked, t)
            if bury is not None:
                c = self.called if called is None else called
                u = self.under if under is None else under
                a = self.alone if alone is None else alone
                like *= _bury_prob(g, picked, b, c, a, u is not None, m)
        return like


_SPLITS_CAP = 70


def _mean_pick(game: Game, w: Sequence[float], picked: int, t: float) -> float:
    """P(pick) averaged over every way the blind lies among the picker's cards (at most 70 of them, evenly
    chosen, where there are more: sheepshead-4's 330)."""
    cards = [1 << i for i in range(32) if picked >> i & 1]
    splits = list(itertools.combinations(cards, game.blind_size))
    if len(splits) > _SPLITS_CAP:
        step = len(splits) / _SPLITS_CAP
        splits = [splits[int(i * step)] for i in range(_SPLITS_CAP)]
    total = 0.0
    for s in splits:
        total += _sigmoid(_pick_ep(game, w, picked & ~sum(s)) / t)
    return total / len(splits)


def auction_likelihood(source: Any, hands: Sequence[Iterable[Card] | int], *, bury: Iterable[Card] | int | None = None,
                       blind: Iterable[Card] | int | None = None, called: Card | None = None,
                       under: Card | None = None, alone: bool | None = None,
                       model: CallModel | None = None) -> float:
    """The product, over every call of ``source``'s auction (:func:`auction_of`: a record, a knowledge, a setup
    or an :class:`Auction`), of the probability of that call for the hand the world gives the seat that made it
    (the bury and the call included). For many worlds of one auction build an :class:`AuctionLikelihood` once.

    ``hands``: the hands at the first lead; ``bury``: the world's bury (a picker game); ``blind``: the blind as dealt
    when it is known (the picker's own view); ``called``, ``under``, ``alone``: the call (default: ``source``'s).
    """
    auction = auction_of(source)
    c = getattr(source, "called", None) if called is None else called
    u = getattr(source, "under", None) if under is None else under
    a = bool(getattr(source, "alone", False)) if alone is None else alone
    return AuctionLikelihood(auction, called=c, under=u, alone=a, model=model)(hands, bury=bury, blind=blind)
