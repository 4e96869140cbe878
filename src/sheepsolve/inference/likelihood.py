"""The likelihood of a world: the product, over the auction's calls, of each call's probability for the hand the
world gives the seat that made it (the model of the calls, :mod:`sheepsolve.inference.model`).

:class:`AuctionLikelihood` works out once per auction what does not change from world to world, and weighs a world
fast: the pick's average over where the blind lay is remembered per class of picked hands, the bury's softmax is
summed card by card, each Schafkopf call is scored without a dictionary of contracts, and with a ``floor`` the
product stops as soon as it is at most the floor (what rejection control needs, :mod:`sheepsolve.weighting`).

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.inference.auction import implied_auction
>>> g = make_game("sheepshead")
>>> strong, blind, weak = parse_cards("QC QS QH QD JC AD"), parse_cards("JS TD"), parse_cards("7C 8C 9C 7S 8S 7H")
>>> rest = [c for c in g.deck if c not in strong + blind + weak]
>>> kept = parse_cards("QC QS QH QD JC JS")   # seat 2 picked and buried AD TD
>>> like = AuctionLikelihood(implied_auction(g, 2))  # seats 0 and 1 passed, seat 2 picked
>>> p = like([weak, rest[:6], kept, rest[6:12], rest[12:18]], bury=parse_cards("AD TD"))
>>> 0 < p < 1
True
>>> # the strong hand passing and the weak one picking: far less likely
>>> like([kept, rest[:6], weak, rest[6:12], rest[12:18]], bury=parse_cards("8H 9H")) < p / 100
True
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import Card
from ..games import Game
from .auction import AT_MOST, CONTRACT, PASS, PICK, PLAY, Auction, Call, implied_auction
from .features import atoms, hand_key, hand_masks, key_masks, mask_of_hand
from .data import MEMO_CAP, CallModel, default_model, form_key, has_model
from .doubling import DoubleFactor, double_factor
from .model import Picker, called_ace_calls, compiled_contracts, contract_groups, weighs_contract

__all__ = ["AuctionLikelihood", "auction_likelihood", "auction_of"]


class _BuryScorer:
    """P(the picker's bury and call) for masks, as :func:`~sheepsolve.inference.model.bury_probability` gives it
    up to rounding, without the terms of every choice: a choice's utility is the sum of what each buried card
    takes from the kept hand (its trumps, top trumps, aces, the jack of diamonds) and adds to the bury (points,
    trumps), the kept hand's voids and the call's terms; what every choice of one picked hand shares cancels in
    the softmax."""

    def __init__(self, game: Game, m: CallModel) -> None:
        self.game = game
        self.w = m.weights(form_key(game) + "/bury")
        self.t = m.temperature["sheepshead"]
        self.masks = hm = hand_masks(game)
        self.called_ace = game.partner == "called-ace"
        self.card_u = [0.0] * 32
        if self.w is None:
            return
        w = self.w
        for c in game.deck:
            bit = 1 << c
            trump, high, second = bool(bit & hm.trumps), bool(bit & hm.high), bool(bit & hm.second)
            ace, jd = bool(bit & hm.aces), bool(bit & hm.jd)
            self.card_u[c] = (-w[0] * trump - w[1] * high - w[2] * second - w[3] * ace + w[5] * c.points / 10
                              + w[6] * trump - w[11] * jd)
        # without a call, a choice's utility is its two cards' and the kept hand's voids: the cards of one part
        # (one utility, one plain suit or none) are alike, so the softmax's sum over every choice is a function of
        # the parts of the picked cards in card order (its terms summed in that order): remembered per such order
        self.suit_of = [-1] * 32
        for j, sm in enumerate(hm.suits):
            for c in range(32):
                if sm >> c & 1:
                    self.suit_of[c] = j
        ids: dict[tuple[float, int], int] = {}
        self.part_of = [ids.setdefault((self.card_u[c], self.suit_of[c]), len(ids)) for c in range(32)]
        self._sums: dict[tuple[int, ...], tuple[float, float]] = {}
        self._cumulative: dict[tuple[int, ...], list[float]] = {}

    @property
    def draws(self) -> bool:
        """Whether :meth:`draw` can choose a bury: two cards, no call (the softmax of :meth:`_pair`)."""
        return self.w is not None and not self.called_ace and self.game.bury_size == 2

    def __call__(self, picked: int, bury: int, called: Card | None, alone: bool, under: bool) -> float:
        w = self.w
        if w is None:
            return 1.0
        if not self.called_ace and self.game.bury_size == 2:
            return self._pair(picked, bury)
        return self.every_choice(picked, bury, called, alone, under)

    def every_choice(self, picked: int, bury: int, called: Card | None, alone: bool, under: bool) -> float:
        """:meth:`__call__` worked out over every choice of the picked cards, nothing remembered."""
        w = self.w
        if w is None:
            return 1.0
        if not self.called_ace:
            called, alone, under = None, False, False
        elif called is None:
            alone = True
        g, hm, cu, t = self.game, self.masks, self.card_u, self.t
        cards = [Card(i) for i in range(32) if picked >> i & 1]
        us: list[float] = []
        target = None
        for chosen in itertools.combinations(cards, g.bury_size):
            b = 0
            u = 0.0
            for c in chosen:
                b |= 1 << c
                u += cu[c]
            kept = picked & ~b
            voids = 0
            for sm in hm.suits:
                if not kept & sm:
                    voids += 1
            u += w[4] * voids
            if not self.called_ace:
                us.append(u / t)
                if b == bury:
                    target = us[-1]
                continue
            for card, und in called_ace_calls(g, hm, picked, kept, [c for c in cards if not b >> c & 1], list(chosen)):
                x = u
                if card is not None:
                    sm = hm.suits[hm.suit_of.index(card.suit)] if card.suit in hm.suit_of else 0
                    x += w[7] * (kept & sm).bit_count() + w[8] * (card.rank == "T")
                else:
                    x += w[9]
                x += w[10] * und
                us.append(x / t)
                if b == bury and card == called and (card is None) == alone and und == under:
                    target = us[-1]
        if target is None:
            return 0.0
        top = max(us)
        p = math.exp(target - top) / sum(math.exp(x - top) for x in us)
        if under:
            p /= (picked & ~bury).bit_count()
        return p

    def draw(self, picked: int, u: float) -> int:
        """A bury of the picked cards ``picked`` drawn from the picker's softmax (:meth:`_pair`'s probabilities,
        the choices in the order of its sum) with ``u`` uniform in [0, 1): the mask of the two cards buried.
        Only where :attr:`draws`."""
        cards = []
        x = picked
        while x:
            low = x & -x
            cards.append(low)
            x ^= low
        part = self.part_of
        key = tuple([part[b.bit_length() - 1] for b in cards])
        cumulative = self._cumulative.get(key)
        if cumulative is None:
            us = self._utilities([b.bit_length() - 1 for b in cards])
            top = max(us)
            cumulative = list(itertools.accumulate(math.exp(x - top) for x in us))
            if len(self._cumulative) > MEMO_CAP:
                self._cumulative.clear()
            self._cumulative[key] = cumulative
        j = bisect.bisect_right(cumulative, u * cumulative[-1])
        pairs = _PAIRS.get(len(cards))
        if pairs is None:
            pairs = _PAIRS[len(cards)] = [(a, b) for a in range(len(cards)) for b in range(a + 1, len(cards))]
        i, j = pairs[min(j, len(cumulative) - 1)]
        return cards[i] | cards[j]

    def _utilities(self, cards: list[int]) -> list[float]:
        """The softmax's terms (utility over temperature) of every pair of ``cards`` (card indices in order) buried,
        pair by pair in :data:`_PAIRS` order."""
        suit = self.suit_of
        counts = [0] * len(self.masks.suits)
        for c in cards:
            if suit[c] >= 0:
                counts[suit[c]] += 1
        cu = [self.card_u[c] for c in cards]
        su = [suit[c] for c in cards]
        base = counts.count(0)
        t = self.t
        w4 = self.w[4]  # type: ignore[index]
        us = []
        for i in range(len(cards)):
            si, ui = su[i], cu[i]
            for j in range(i + 1, len(cards)):
                sj = su[j]
                voids = base
                if si == sj:
                    if si >= 0 and counts[si] == 2:
                        voids += 1
                else:
                    if si >= 0 and counts[si] == 1:
                        voids += 1
                    if sj >= 0 and counts[sj] == 1:
                        voids += 1
                us.append((0.0 + ui + cu[j] + w4 * voids) / t)
        return us

    def _pair(self, picked: int, bury: int) -> float:
        """:meth:`__call__` without a call, two cards buried: the same sums in the same order, the softmax's
        maximum and sum remembered per order of parts (see ``__init__``)."""
        if bury & ~picked or bury.bit_count() != 2:
            return 0.0  # not a choice of the picked cards
        cards = []
        x = picked
        while x:
            low = x & -x
            cards.append(low.bit_length() - 1)
            x ^= low
        part = self.part_of
        key = tuple([part[c] for c in cards])
        got = self._sums.get(key)
        t = self.t
        w4 = self.w[4]  # type: ignore[index]
        if got is None:
            us = self._utilities(cards)
            top = max(us)
            if len(self._sums) > MEMO_CAP:
                self._sums.clear()
            got = self._sums[key] = (top, sum(math.exp(x - top) for x in us))
        top, z = got
        u = 0.0
        kept = picked & ~bury
        x = bury
        while x:
            low = x & -x
            u += self.card_u[low.bit_length() - 1]
            x ^= low
        voids = 0
        for sm in self.masks.suits:
            if not kept & sm:
                voids += 1
        u += w4 * voids
        return math.exp(u / t - top) / z


_PAIRS: dict[int, list[tuple[int, int]]] = {}
"""The pairs of positions ``i < j`` among ``n`` cards (by ``n``, listed when first asked for), in the order
:meth:`_BuryScorer._utilities` lists them."""


class _CallScorer:
    """P(one Schafkopf call) for hand masks, as :func:`~sheepsolve.inference.model.call_probability`
    gives it, without the dictionary: the contracts that count for the call are worked out once (their
    positions among the game's compiled contracts), and a hand's softmax is summed in the same order, so the
    probability is the same to the last bit."""

    def __init__(self, game: Game, m: CallModel, call: Call) -> None:
        self.active = form_key(game) in m.forms
        _, self.tops, sie = contract_groups(game)
        self.compiled = compiled_contracts(game, m) if self.active else ()
        self.t = m.temperature["schafkopf"] if self.active else 1.0
        self.kind = call.kind
        counts = (lambda c: True) if call.kind == PLAY else (lambda c: False)
        if call.kind == CONTRACT:
            counts = (lambda c: c == call.contract)
        elif call.kind == AT_MOST:
            assert call.contract is not None
            bound, strict = call.contract.rank, call.strict
            counts = (lambda c: c.rank < bound if strict else c.rank <= bound)
        self.pass_counts = call.kind in (PASS, AT_MOST)
        self.wanted = tuple(tuple(counts(c) for c, _, _, _ in entries) for _, entries in self.compiled)
        self.sie = None if sie is None else (1.0 if call.kind == PLAY or counts(sie) else 0.0)
        # a contract the model has no table for (a Bettel) weighs 1, as call_probability gives it
        self.unweighed = self.active and call.kind == CONTRACT and not weighs_contract(game, call.contract, m)
        # the probability is a function of how many cards of each part of `parts` a hand holds (every mask it
        # reads is a union of parts): remembered per such class of hands
        masks = [self.tops] + [m for mk, entries in self.compiled for m in key_masks(mk)]
        masks += [m for _, entries in self.compiled for _, _, ace, suit_mask in entries for m in (ace, suit_mask)]
        self.parts = atoms(masks, mask_of_hand(game.deck))
        self._memo: dict[tuple[int, ...], float] = {}

    def __call__(self, h: int) -> float:
        if not self.active or self.unweighed or self.kind not in (PASS, PLAY, CONTRACT, AT_MOST):
            return 1.0
        key = tuple([(h & a).bit_count() for a in self.parts])
        got = self._memo.get(key)
        if got is None:
            if len(self._memo) > MEMO_CAP:
                self._memo.clear()
            got = self._memo[key] = self._probability(h)
        return got

    def _probability(self, h: int) -> float:
        if self.sie is not None and h & self.tops == self.tops:
            return 0.0 if self.kind == PASS else self.sie
        t = self.t
        us = [0.0]
        want = [self.pass_counts]
        for (mk, entries), wanted in zip(self.compiled, self.wanted):
            key = hand_key(mk, h)
            for (_, table, ace, suit_mask), w in zip(entries, wanted):
                if not ace:
                    us.append(table.value(key) / t)
                    want.append(w)
                elif not h & ace and h & suit_mask:
                    us.append(table.value(key[:3] + ((h & suit_mask).bit_count(),) + key[4:]) / t)
                    want.append(w)
        top = max(us)
        es = [math.exp(u - top) for u in us]
        z = sum(es)
        if self.kind == PLAY:
            return 1.0 - es[0] / z
        return float(sum(e / z for e, w in zip(es, want) if w))





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
    lead, seat by seat (a picker's after the bury; card lists or masks); ``bury`` the picker's bury in that world;
    ``blind`` the blind as dealt when the judging seat saw it (the picker), else None (the pick is then averaged
    over every place of the blind among the picker's cards); ``called``, ``under``, ``alone``: the call in that
    world (default: the constructor's, the record's).
    """

    def __init__(self, auction: Auction, *, called: Card | None = None, under: Card | None = None,
                 alone: bool = False, model: CallModel | None = None, doubles: DoubleFactor | None = None) -> None:
        self.auction = auction
        self.doubles = doubles  # the doubling calls (crack, Kontra, re, Klopfen), if any: inference.doubling
        self.game = auction.game
        self.model = model or default_model()
        self.called, self.under, self.alone = called, under, alone
        bidding = auction.bidding()
        self.picker = next((s for s, c in bidding.items() if c.kind == PICK), None)
        self.calls = tuple((s, c) for s, c in sorted(bidding.items()) if s != self.picker)
        self.active = has_model(self.game, self.model)
        self.sheepshead = self.game.family == "sheepshead"
        self.pick = Picker(self.game, self.model) if self.sheepshead else None
        self.bury = _BuryScorer(self.game, self.model) if self.sheepshead else None
        self.scorers = {} if self.sheepshead else {s: _CallScorer(self.game, self.model, c) for s, c in self.calls}
        self.unweighed = frozenset(c for s, c in self.calls if s in self.scorers and self.scorers[s].unweighed)
        """The calls the model has no table for (a Bettel): they weigh 1 in every world."""
        # the calls that say most first (a contract, a wish to play), the passes after: see __call__'s floor
        self.order = tuple(sorted(self.calls, key=lambda sc: sc[1].kind == PASS))

    @property
    def weighs_any(self) -> bool:
        """Whether any call tells worlds apart (not every one is a call the model has no table for)."""
        return self.active and (self.picker is not None or self.doubles is not None
                                or any(c not in self.unweighed for _, c in self.calls))

    @classmethod
    def of(cls, source: Any, model: CallModel | None = None) -> "AuctionLikelihood":
        """The likelihood of :func:`auction_of` ``source`` (a record, a knowledge, a setup), with its call
        (``called``, ``under``, ``alone``) as the default of every world and its doubling calls
        (:func:`~sheepsolve.inference.doubling.double_factor`)."""
        auction = auction_of(source)
        return cls(auction, called=getattr(source, "called", None), under=getattr(source, "under", None),
                   alone=bool(getattr(source, "alone", False)), model=model, doubles=double_factor(source, auction))

    def __call__(self, hands: Sequence[Iterable[Card] | int], *, bury: Iterable[Card] | int | None = None,
                 blind: Iterable[Card] | int | None = None, called: Card | None = None, under: Card | None = None,
                 alone: bool | None = None, floor: float = 0.0) -> float:
        """The likelihood of the world (see the class). ``floor``: stop as soon as the product is at most
        ``floor`` (every factor left is a probability, at most 1) and give that partial product, which is then at
        most ``floor`` too: what rejection control needs to refuse a world (:mod:`sheepsolve.weighting`). The
        picker's factors and the declarer's call come first, the passes after."""
        if not self.active:
            return 1.0
        g, m = self.game, self.model
        like = 1.0
        if self.picker is not None and self.pick is not None and g.kind == "picker":
            b = mask_of_hand(bury) if bury is not None else 0
            picked = mask_of_hand(hands[self.picker]) | b
            if blind is not None:
                like *= self.pick(picked & ~mask_of_hand(blind))
            else:
                like *= self.pick.mean(picked, g.blind_size)
            if like <= floor:
                return like
            if bury is not None:
                c = self.called if called is None else called
                u = self.under if under is None else under
                a = self.alone if alone is None else alone
                like *= self.bury(picked, b, c, a, u is not None)
        return self.others(hands, like, floor=floor, bury=bury)

    def others(self, hands: Sequence[Iterable[Card] | int], like: float = 1.0, *, floor: float = 0.0,
               bury: Iterable[Card] | int | None = None) -> float:
        """``like`` times the probability of every call but the picker's (his pick, bury and call), the doubles
        included, for the hands at the first lead (``bury``: the world's, where it is apart from the picker's
        hand); with ``floor`` as :meth:`__call__`. Doubles that read the picker's hand after his bury
        (:attr:`~sheepsolve.inference.doubling.DoubleFactor.reads_declarer`) need it apart."""
        for seat, call in self.order:
            if like <= floor:
                return like
            h = mask_of_hand(hands[seat])
            if self.pick is not None:
                p = self.pick(h)
                like *= p if call.kind == PICK else 1.0 - p
            else:
                like *= self.scorers[seat](h)
        if self.doubles is not None and like > floor:
            like *= self.doubles(hands, bury)
        return like


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
    return AuctionLikelihood.of(source, model)(hands, bury=bury, blind=blind, called=called, under=under,
                                               alone=alone)
