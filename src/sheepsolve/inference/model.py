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
:mod:`sheepsolve.inference.build` runs ``pick``, ``choose`` and ``bury`` over seeded random hands and keeps, for
every pick and contract, a :class:`Table` of the expected payment by hand class (trumps, then the highest trumps,
the second rank's, the called Sau's suit, plain aces, voids and Laufende, each level shrunk towards the one above
it: :func:`fit_table`), and for the bury a linear model of the choices' payments on the kept and buried cards'
features (:data:`~sheepsolve.inference.features.BURY_TERMS`). The data ships as ``call_model.json`` beside this
module, with the seed, the number of hands, the worlds per hand, the temperature and the commit that built it
(:func:`model_info`).

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

The likelihood of a world (:mod:`sheepsolve.inference.likelihood`) is the product, over every call of the record's
auction (or the one its rules imply: :func:`~sheepsolve.inference.auction.implied_auction`), of the probability of
that call for the hand that world gives the seat that made it, the bury and the call included. Where the world does
not split a picker's cards into his dealt hand and the blind (anyone but the picker), the pick's probability is
averaged over every way the blind could lie among the picker's cards, which is exact for uniformly dealt worlds.

Example
-------
>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> g = make_game("sheepshead")
>>> f = features(g, parse_cards("QC QS JD AD TD AH 7S 8C"))
>>> f.trumps, f.high, f.second, f.run, f.aces, f.voids
(5, 2, 1, 2, 1, 0)
>>> strong, weak = parse_cards("QC QS QH QD JC AD"), parse_cards("7C 8C 9C 7S 8S 7H")
>>> pick_probability(g, strong) > pick_probability(g, weak)
True
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..engine import legal_calls
from ..games import REGISTRY, Game, GameError, make_game
from .auction import AT_MOST, CONTRACT, PASS, PICK, PLAY, Call, ContractCall
from .data import (
    MEMO_CAP,
    SHRINK,
    TEMPERATURE,
    CallModel,
    Table,
    contract_kind,
    default_model,
    fit_table,
    form_key,
    has_model,
    model_info,
    pick_key,
)
from .features import (
    BURY_TERMS,
    HandFeatures,
    HandMasks,
    bury_terms,
    features,
    hand_masks,
    hand_key,
    mask_of_hand,
    per_game,
)

# re-exported: the features and the model's data are part of the model's API

__all__ = ["TEMPERATURE", "HandFeatures", "BuryChoice", "CallModel", "features", "pick_probability", "bury_probability",
           "bury_distribution", "contract_probabilities", "call_probability", "has_model", "model_info",
           "default_model", "form_key", "pick_key", "contract_kind", "BURY_TERMS", "bury_terms", "mask_of_hand",
           "Table", "fit_table", "SHRINK", "Picker", "called_ace_calls", "contract_groups", "compiled_contracts",
           "weighs_contract"]


@dataclass(frozen=True)
class BuryChoice:
    """A picker's choice after the pick: the cards buried, the card called (or ``alone``), the card under."""

    cards: tuple[Card, ...]
    called: Card | None = None
    alone: bool = False
    under: Card | None = None


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(map(operator.mul, w, x))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


# The model's data: sheepsolve.inference.data (re-exported here)


# --------------------------------------------------------------------------------------------------------------
# Sheepshead: picking and burying


class Picker:
    """P(pick) for hand masks of one game under one model (the weights looked up once)."""

    def __init__(self, game: Game, model: CallModel) -> None:
        form = form_key(game)
        pick_game = _leaster_form(game) if game.kind == "leaster" else game
        self.masks = hand_masks(pick_game)
        self.plain = model.table(pick_key(form, False))
        self.jd = model.table(pick_key(form, True)) or self.plain
        self.t = model.temperature["sheepshead"]
        self.jd_bit = self.masks.jd if form.endswith("/jack-of-diamonds") else 0
        self._memo: dict[tuple[int, ...], float] = {}
        self._jd_memo: dict[tuple[int, ...], float] = {}
        self._means: dict[tuple, float] = {}
        # what each card adds to a hand's key (hand_key: trumps, top ranks, aces, its plain suit, its place among
        # the four highest trumps) and whether it is the jack of diamonds: a key without the hand's masks
        m = self.masks
        self._card = [((m.trumps >> c) & 1, (m.high >> c) & 1, (m.second >> c) & 1, (m.aces >> c) & 1,
                       next((j for j, sm in enumerate(m.suits) if sm >> c & 1), -1),
                       next((j for j, bit in enumerate(m.order[:4]) if bit >> c & 1), -1), (self.jd_bit >> c) & 1)
                      for c in range(32)]

    def __call__(self, h: int) -> float:
        table = self.jd if h & self.jd_bit else self.plain
        if table is None:
            return 1.0
        key = hand_key(self.masks, h)
        memo = self._jd_memo if h & self.jd_bit else self._memo
        got = memo.get(key)
        if got is None:
            if len(memo) > MEMO_CAP:
                memo.clear()
            got = memo[key] = _sigmoid(table.value(key) / self.t)
        return got

    def averages_every_way(self, picked: int, blind_size: int) -> bool:
        """Whether :meth:`mean` of ``picked`` cards (a number) averages over every way the blind lay."""
        return math.comb(picked, blind_size) <= _SPLITS_CAP

    def mean(self, picked: int, blind_size: int) -> float:
        """P(pick) averaged over every way the blind lies among the picker's cards (at most 70 of them, evenly
        chosen, where there are more: sheepshead-4's 330). Where every way is taken the mean is remembered per
        class of picked hands (:meth:`hand_class`: hands whose ways give the same multiset of table keys) and
        summed exactly (``math.fsum``), so it is a function of the class alone."""
        bits = [1 << i for i in range(32) if picked >> i & 1]
        if math.comb(len(bits), blind_size) <= _SPLITS_CAP:
            key = (self.hand_class(picked), blind_size)
            got = self._means.get(key)
            if got is None:
                if len(self._means) > MEMO_CAP:
                    self._means.clear()
                if blind_size == 2 and len(self.masks.order) >= 4:
                    values = self.pair_values(picked)
                else:
                    values = [self(picked & ~sum(s)) for s in itertools.combinations(bits, blind_size)]
                got = self._means[key] = math.fsum(values) / len(values)
            return got
        splits = list(itertools.combinations(bits, blind_size))
        step = len(splits) / _SPLITS_CAP
        splits = [splits[int(i * step)] for i in range(_SPLITS_CAP)]
        return sum(self(picked & ~sum(s)) for s in splits) / len(splits)

    def pair_values(self, picked: int) -> list[float]:
        """P(pick) of every hand left when two cards of ``picked`` are taken out, as ``self(picked & ~pair)`` for
        every pair, each key worked out from the picked hand's and the two cards' terms (:attr:`_card`) instead of
        from the hand's masks."""
        m = self.masks
        cards = []
        x = picked
        while x:
            low = x & -x
            cards.append(self._card[low.bit_length() - 1])
            x ^= low
        trumps, high, second, aces = ((picked & m.trumps).bit_count(), (picked & m.high).bit_count(),
                                      (picked & m.second).bit_count(), (picked & m.aces).bit_count())
        counts = [(picked & sm).bit_count() for sm in m.suits]
        voids = counts.count(0)
        run = 0
        while run < 4 and picked & m.order[run]:
            run += 1
        jd = 1 if picked & self.jd_bit else 0
        tables = (self.plain, self.jd)
        memos = (self._memo, self._jd_memo)
        t = self.t
        out = []
        for i, (ti, hi, si, ai, ui, pi, ji) in enumerate(cards):
            for tj, hj, sj, aj, uj, pj, jj in cards[i + 1:]:
                v = voids
                if ui == uj:
                    if ui >= 0 and counts[ui] == 2:
                        v += 1
                else:
                    if ui >= 0 and counts[ui] == 1:
                        v += 1
                    if uj >= 0 and counts[uj] == 1:
                        v += 1
                r = run
                if 0 <= pi < r:
                    r = pi
                if 0 <= pj < r:
                    r = pj
                key = (trumps - ti - tj, high - hi - hj, second - si - sj, 0, aces - ai - aj, v, r)
                held_jd = jd and not (ji or jj)
                table = tables[held_jd]
                if table is None:
                    out.append(1.0)
                    continue
                memo = memos[held_jd]
                got = memo.get(key)
                if got is None:
                    if len(memo) > MEMO_CAP:
                        memo.clear()
                    got = memo[key] = _sigmoid(table.value(key) / t)
                out.append(got)
        return out

    def hand_class(self, h: int) -> tuple:
        """What P(pick) of ``h`` and of the hands left when cards are taken out depends on: the trumps of the
        first four ranks (the Laufende the key counts), how many of the other trumps are of the first and the
        second top rank and the jack of diamonds, and per plain suit (in sorted order: the key counts voids and
        aces, never a suit by name) whether the ace is held and how many other cards."""
        m = self.masks
        order = m.order
        top = h & (order[0] | order[1] | order[2] | order[3]) if len(order) >= 4 else h & m.trumps
        rest = h & m.trumps & ~top
        suits = tuple(sorted(((h & s & m.aces).bit_count(), (h & s & ~m.aces).bit_count()) for s in m.suits))
        return (top, (rest & m.high).bit_count(), (rest & m.second).bit_count(),
                (rest & ~m.high & ~m.second).bit_count(), bool(rest & self.jd_bit), suits)


_SPLITS_CAP = 70


@per_game
def _leaster_form(game: Game) -> Game:
    """The picking game of a leaster's table, whose pick model weighs a leaster's passes."""
    name = {5: "sheepshead", 4: "sheepshead-4", 3: "sheepshead-3"}[game.seats]
    return make_game(name)


def pick_probability(game: Game, hand: Iterable[Card] | int, model: CallModel | None = None) -> float:
    """P(pick) for a Sheepshead seat holding ``hand`` as dealt: the softmax of picking's expected payment against
    passing's 0, that is a logistic of EP/T (1.0 where the form has no data: the call then weighs nothing)."""
    return Picker(game, model or default_model())(mask_of_hand(hand))


_CALLS: dict[tuple, tuple[tuple[Card | None, bool], ...]] = {}


def called_ace_calls(game: Game, m: HandMasks, picked: int, kept: int, kept_cards: list[Card], bury: list[Card]
           ) -> tuple[tuple[Card | None, bool], ...]:
    """The called-ace calls of a kept hand, :func:`sheepsolve.engine.legal_calls` asked once per pattern: they
    depend only on which plain aces and tens the picker holds and which plain suits he keeps a card of."""
    key = (id(game), picked & (m.aces | m.tens), tuple(bool(kept & s) for s in m.suits))
    hit = _CALLS.get(key)
    if hit is None:
        if len(_CALLS) > 4096:
            _CALLS.clear()
        hit = _CALLS[key] = tuple((c.card, bool(c.under)) for c in legal_calls(game, kept_cards, bury))
    return hit


def _bury_options(game: Game, picked: int) -> list[tuple[int, Card | None, bool, bool]]:
    """(bury mask, called card, alone, under) of every choice, one per call with a card under."""
    cards = [Card(i) for i in range(32) if picked >> i & 1]
    m = hand_masks(game)
    out: list[tuple[int, Card | None, bool, bool]] = []
    for bury in itertools.combinations(cards, game.bury_size):
        b = mask_of_hand(bury)
        if game.partner != "called-ace":
            out.append((b, None, False, False))
            continue
        kept = picked & ~b
        for card, under in called_ace_calls(game, m, picked, kept, [c for c in cards if not b >> c & 1], list(bury)):
            out.append((b, card, card is None, under))
    return out


def bury_distribution(game: Game, picked: Iterable[Card] | int, model: CallModel | None = None
                      ) -> dict[tuple[int, Card | None, bool, bool], float] | None:
    """The picker's choices holding ``picked`` and their probabilities: (bury mask, called card, alone, under) ->
    P, one entry per call with a card under (whose card is then any kept card); None where the form has no data."""
    return _bury_distribution(game, mask_of_hand(picked), model or default_model())


def _bury_distribution(game: Game, picked: int, model: CallModel
                       ) -> dict[tuple[int, Card | None, bool, bool], float] | None:
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
    return _bury_prob(game, mask_of_hand(picked), mask_of_hand(choice.cards), choice.called, choice.alone,
                      choice.under is not None, model or default_model())


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


# --------------------------------------------------------------------------------------------------------------
# Schafkopf: weiter or a contract


@dataclass(frozen=True)
class _Group:
    """The contracts that share one game's trumps (and so one hand's terms): (contract, weights key) each."""

    masks: HandMasks
    contracts: tuple[tuple[ContractCall, str], ...]


@per_game
def contract_groups(game: Game) -> tuple[tuple[_Group, ...], int, ContractCall | None]:
    """Every contract the game's deck, table and rules allow, grouped by trumps (the Sauspiele once per Sau);
    the mask of every Ober and Unter and the sie contract, when the rules allow it."""
    groups: dict[int, tuple[HandMasks, list[tuple[ContractCall, str]]]] = {}
    deck = "short" if len(game.deck) < 32 else "long"
    sie = None
    tops = sum(1 << c for c in game.deck if c.rank in "QJ")
    for name in ("sauspiel", "solo", "wenz", "geier", "farbwenz", "farbgeier", "sie"):
        spec = REGISTRY[name]
        for tout in ((False, True) if spec.tout_allowed else (False,)):
            for trump in ("CSHD" if spec.needs_trump else (None,)):
                try:
                    g = make_game(name, trump=trump, deck=deck, tout=tout or None, seats=game.seats,
                                  rules=dict(game.rules))
                except GameError:
                    continue
                if name == "sie":
                    sie = ContractCall("sie")
                    continue
                m = hand_masks(g)
                entry = groups.setdefault(m.trumps, (m, []))[1]
                if name == "sauspiel":
                    entry.extend((ContractCall(name, None, Card.make("A", s), False), "sauspiel")
                                 for s in g.plain_suits if not g.is_trump(Card.make("A", s)))
                else:
                    entry.append((ContractCall(name, trump, None, tout), name + ("-tout" if tout else "")))
    return tuple(_Group(m, tuple(cs)) for m, cs in groups.values()), tops, sie


def contract_probabilities(game: Game, hand: Iterable[Card] | int, model: CallModel | None = None
                           ) -> dict[ContractCall | None, float] | None:
    """P(weiter) (key None) and P(each contract) for a Schafkopf seat holding ``hand``: the softmax of the
    contracts' expected payments against weiter's 0, over the contracts the hand may announce (a Sauspiel needs a
    card of the Sau's suit and not the Sau; contracts the model has no data for are left out). A hand holding every
    Ober and Unter announces sie. None where the form has no data."""
    return _contract_probabilities(game, mask_of_hand(hand), model or default_model())


_COMPILED: dict[tuple[int, int], tuple[Game, CallModel, tuple]] = {}


def compiled_contracts(game: Game, m: CallModel) -> tuple:
    """Per group of trumps: its masks and (contract, table, Sau bit, suit mask) of each contract the model has a
    table for; cached per game and model."""
    key = (id(game), id(m))
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] is game and hit[1] is m:
        return hit[2]
    form = form_key(game)
    groups, _, _ = contract_groups(game)
    out = []
    for group in groups:
        masks = group.masks
        entries = []
        for c, kind in group.contracts:
            table = m.table(f"{form}/{kind}")
            if table is None:
                continue
            if c.called is None:
                entries.append((c, table, 0, 0))
            else:
                entries.append((c, table, 1 << c.called, masks.suits[masks.suit_of.index(c.called.suit)]))
        if entries:
            out.append((masks, tuple(entries)))
    if len(_COMPILED) > 64:
        _COMPILED.clear()
    _COMPILED[key] = (game, m, tuple(out))
    return tuple(out)


def _contract_probabilities(game: Game, h: int, m: CallModel) -> dict[ContractCall | None, float] | None:
    if form_key(game) not in m.forms:
        return None
    _, tops, sie = contract_groups(game)
    if sie is not None and h & tops == tops:
        return {sie: 1.0}
    t = m.temperature["schafkopf"]
    options: list[tuple[ContractCall | None, float]] = [(None, 0.0)]
    for masks, entries in compiled_contracts(game, m):
        key = hand_key(masks, h)
        for c, table, ace, suit_mask in entries:
            if not ace:
                options.append((c, table.value(key) / t))
            elif not h & ace and h & suit_mask:
                options.append((c, table.value(key[:3] + ((h & suit_mask).bit_count(),) + key[4:]) / t))
    top = max(u for _, u in options)
    es = [(c, math.exp(u - top)) for c, u in options]
    z = sum(e for _, e in es)
    return {c: e / z for c, e in es}


def _choice_probability(dist: Mapping[ContractCall | None, float], call: Call) -> float:
    if call.kind == PASS:
        return dist.get(None, 0.0)
    if call.kind == PLAY:
        return 1.0 - dist.get(None, 0.0)
    if call.kind == CONTRACT:
        return dist.get(call.contract, 0.0)
    if call.kind == AT_MOST:
        assert call.contract is not None
        bound, strict = call.contract.rank, call.strict
        return sum(p for c, p in dist.items() if c is None or (c.rank < bound if strict else c.rank <= bound))
    return 1.0


# --------------------------------------------------------------------------------------------------------------
# Any call


def call_probability(game: Game, call: Call | BuryChoice, hand: Iterable[Card] | int,
                     model: CallModel | None = None) -> float:
    """The probability that a sensible player makes ``call`` holding ``hand``.

    ``call``: a bidding :class:`~sheepsolve.inference.auction.Call` (``pass``, ``pick``, ``play``, a contract, an
    implied ``at-most``) for the hand as dealt, or a :class:`BuryChoice` for the picker's cards (hand and blind).
    Calls the model does not weigh (crack, kontra, re, klopfen, blitz, a form without data, a contract without a
    table: :func:`weighs_contract`) have probability 1.

    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.inference.auction import Call, ContractCall
    >>> g = make_game("sauspiel")
    >>> solo = Call(0, "contract", ContractCall("solo", "H"))
    >>> strong, weak = parse_cards("QC QS QH QD JC JS AH TH"), parse_cards("7C 8C 9C 7S 8S AS 7D 8D")
    >>> call_probability(g, solo, strong) > call_probability(g, solo, weak)
    True
    >>> round(call_probability(g, Call(0, "play"), strong) + call_probability(g, Call(0, "pass"), strong), 9)
    1.0
    """
    m = model or default_model()
    if isinstance(call, BuryChoice):
        return bury_probability(game, hand, call, m)
    if call.kind not in (PASS, PICK, PLAY, CONTRACT, AT_MOST):
        return 1.0
    h = mask_of_hand(hand)
    if game.family == "sheepshead":
        p = Picker(game, m)(h)
        return p if call.kind == PICK else 1.0 - p
    if call.kind == CONTRACT and not weighs_contract(game, call.contract, m):
        return 1.0
    dist = _contract_probabilities(game, h, m)
    return 1.0 if dist is None else _choice_probability(dist, call)


def weighs_contract(game: Game, contract: ContractCall | None, model: CallModel | None = None) -> bool:
    """Whether the model of the calls has a table for ``contract`` in ``game``'s form (a Bettel has none: its call
    then weighs 1, as a form without fitted data does).

    >>> from sheepsolve.inference.auction import ContractCall
    >>> g = make_game("sauspiel")
    >>> weighs_contract(g, ContractCall("solo", "H")), weighs_contract(g, ContractCall("bettel"))
    (True, False)
    """
    m = model or default_model()
    if contract is None or form_key(game) not in m.forms:
        return False
    _, _, sie = contract_groups(game)
    return contract == sie or any(c == contract for _, entries in compiled_contracts(game, m) for c, _, _, _ in entries)
