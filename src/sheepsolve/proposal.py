"""The weighted sampler's proposal (:class:`WeightedSampler`): worlds drawn where the weight is, each with its
importance weight, kept by rejection control (the method: :mod:`sheepsolve.weighting`'s docstring).

Three proposals, the first that applies:

- *the picked cards* (Sheepshead, where the picker has played no card and no rule keeps an unseen card from a
  hand): the cards dealt to the picker in strata by their trumps, top trumps and jack of diamonds
  (:class:`~sheepsolve.worlds.strata.PickedStrata`, counted and drawn in closed form), where the blind lay among
  his picked cards drawn with the rest, and his bury drawn by the model's own choice
  (:meth:`~sheepsolve.weighting.WorldWeights.picked`): the bury's probability and the average over the blind
  leave the importance weight, which is then the pick of the hand dealt and the other seats' calls;
- *the declarer's trumps*: strata by the number of trumps the declarer holds at the first lead, each counted by
  the sampler's dynamic programme;
- *uniform* deals (no declarer, or the declarer's own seat), rejection control's threshold at the pilot's largest
  weight where that is at most :data:`EVEN_WEIGHTS` means (weights that barely vary).
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from typing import Any

from .cards import Card, mask_of
from .constraints import Condition
from .worlds import ALL_WORLDS_CAP, Knowledge, World, WorldSampler, WorldsError, world_rng
from .worlds.strata import PickedStrata

__all__ = ["WeightedSampler", "first_lead", "PILOT_WORLDS", "PILOT_DEALS", "REJECTION_CONTROL", "EVEN_WEIGHTS",
           "MAX_CANDIDATES", "PICKED_PILOT_WORLDS", "PICKED_REJECTION_CONTROL", "UNIFORM_SHARE"]

PILOT_WORLDS = 16
"""Deals of each stratum whose mean weight estimates the stratum's (the proposal's design only: the importance
weights stay exact whatever the estimate)."""

PILOT_DEALS = 64
"""Deals of the uniform proposal (no strata) whose mean weight sets rejection control's threshold."""

REJECTION_CONTROL = 4.0
"""Rejection control's threshold, in means of the importance weights: a drawn world whose importance weight ``v``
is below ``c`` = this many means is kept with probability ``v / c`` and then weighs ``c``; one at or above it is kept
as it is. The weights stay exact, and the worlds solved are worth more uniform ones (docs/TUNING.md)."""

MAX_CANDIDATES = 100_000
"""The most deals drawn for one world (rejection control and the rules engine's refusals together)."""

EVEN_WEIGHTS = 2.0
"""Uniform deals whose pilot's largest weight is at most this many means (weights that barely vary: the passes
of the seats before the declarer's own) set rejection control's threshold there instead: fewer deals drawn a world
kept, hardly a world left with a weight of its own (where they vary more, Ramsch's passes, that lost effective
worlds: docs/TUNING.md)."""

PICKED_PILOT_WORLDS = 8
"""Deals of each stratum of the picked-cards proposal whose mean weight estimates the stratum's."""

PICKED_REJECTION_CONTROL = 2.5
"""Rejection control's threshold with the picked-cards proposal, in means of the importance weights: its weights
vary less than the declarer's trumps' strata's, so a lower threshold keeps as many effective worlds for fewer
deals drawn (docs/TUNING.md)."""

UNIFORM_SHARE = 0.1
"""The share of the proposal spread over the strata by their counts alone, so that a stratum whose pilot saw
little weight is still drawn now and then."""



def first_lead(sampler: WorldSampler, parts: Sequence[Sequence[Card]], under: Card | None
               ) -> tuple[list[int], int, Card | None]:
    """What a deal of ``sampler`` (:meth:`~sheepsolve.worlds.WorldSampler.draw_deal`) gives at the first lead, as
    its world would have it but without building it: every hand as a mask of card bits (a picker's after the
    bury), the bury's mask and the card under."""
    k = sampler.k
    hands = [0] * k.game.seats
    for c in k.hand:
        hands[k.seat] |= 1 << c
    for s, c in k.plays:
        if s != k.seat:
            hands[s] |= 1 << c
    bury = 0
    for c in k.bury or ():
        bury |= 1 << c
    for slot, cards in zip(sampler.slots, parts):
        m = 0
        for c in cards:
            m |= 1 << c
        if slot.seat is not None:
            hands[slot.seat] |= m
        elif slot.name == "bury":
            bury |= m
    return hands, bury, (k.under if k.under is not None else under)


class WeightedSampler:
    """Worlds drawn from the proposal of the module docstring, each with its importance weight; ``weights`` a
    :class:`~sheepsolve.weighting.WorldWeights`.

    ``top_threshold`` (the uniform proposal only): rejection control's threshold is the largest weight of the
    ``pilot_deals`` pilot deals instead of :data:`REJECTION_CONTROL` means, so that hardly a world keeps a weight
    of its own: for weights that concentrate on a few deals (the passes before a choice, where the largest weight
    is up to 24 means) and for those that barely vary (fewer deals drawn a world kept). docs/TUNING.md.
    ``picked=False``: never the picked cards' proposal (the declarer's trumps' strata where it would apply).

    >>> from sheepsolve.record import load_record
    >>> from sheepsolve.weighting import FunctionWeights
    >>> k = Knowledge.from_record(load_record("examples/sauspiel-midtrick.toml"))
    >>> flat = FunctionWeights(lambda setup, hands: 1.0)
    >>> worlds, ws = WeightedSampler(k, flat).sample(5, seed=1)
    >>> len(worlds), len(ws), all(w > 0 for w in ws)
    (5, 5, True)
    """

    def __init__(self, knowledge: Knowledge, weights: Any, sampler: WorldSampler | None = None, *,
                 top_threshold: bool = False, pilot_deals: int = PILOT_DEALS, picked: bool = True) -> None:
        self.k = k = knowledge
        self.weights = weights
        self.base = sampler or WorldSampler(k)
        # (stratum's sampler, its probability pi_t, the values its deals count (None: the sampler's own), its deals)
        self.strata: list[tuple[WorldSampler, float, tuple[int, ...] | None, int]] = []
        self._cumulative: list[float] = []
        self.picked: Any = None
        """The picked-cards proposal's bury (None: the declarer's trumps' strata or the uniform proposal)."""
        self.threshold = 0.0
        """Rejection control's threshold ``c`` on the importance weights (0: none)."""
        self.drawn = 0
        """Deals of the proposal drawn so far by :meth:`draw` and :meth:`draw_deal` (kept or not)."""
        p = k.declarer
        if p is None or p == k.seat or not k.game.trumps:
            pilot = [self._deal_weight(self.base, world_rng("pilot", i)) for i in range(pilot_deals)]
            mean = math.fsum(pilot) / len(pilot)
            self.threshold = REJECTION_CONTROL * mean
            if max(pilot) > 0 and (top_threshold or max(pilot) <= EVEN_WEIGHTS * mean):
                self.threshold = max(pilot)
            return
        if picked and self._stratify_picked(weights):
            return
        g = k.game
        trumps = tuple((c, 1) for c in g.trumps)
        lo = sum(1 for c in k.played_by(p) if g.is_trump(c))
        found: list[tuple[WorldSampler, int, float]] = []
        shared: WorldSampler | None = None  # the strata share one dynamic programme (their counts differ by t)
        for t in range(lo, lo + k.remaining(p) + 1):
            try:
                s = WorldSampler(k, extra=((p, Condition(weights=trumps, op="==", bound=t)),), share=shared)
            except WorldsError:
                continue  # no deal of that many trumps
            shared = s
            # the stratum's mean weight per deal (the rules engine is not asked: the proposal's design only)
            pilot = [self._deal_weight(s, world_rng(f"pilot:{t}", i)) for i in range(PILOT_WORLDS)]
            found.append((s, s.candidates, math.fsum(pilot) / len(pilot)))
        self._set_strata([(s, None, n, e) for s, n, e in found], REJECTION_CONTROL)

    def _set_strata(self, found: Sequence[tuple[WorldSampler, tuple[int, ...] | None, int, float]],
                    control: float) -> None:
        """The strata's probabilities from their deals and mean weights, and rejection control's threshold,
        ``control`` means of the importance weights."""
        total_n = sum(n for _, _, n, _ in found)
        total_w = math.fsum(n * e for _, _, n, e in found)
        share = UNIFORM_SHARE if total_w > 0 else 1.0
        acc = 0.0
        for s, values, n, e in found:
            pi = (1 - share) * (n * e / total_w if total_w > 0 else 0.0) + share * n / total_n
            self.strata.append((s, pi, values, n))
            acc += pi
            self._cumulative.append(acc)
        # the importance weights' mean under the proposal is the total weight: sum over strata of N_t e_t
        self.threshold = control * total_w

    def _stratify_picked(self, weights: Any) -> bool:
        """The picked-cards proposal, where it applies (the picker has played no card, no rule, ``--constrain``
        or fact of the auction (a blitz) keeps an unseen card from a hand, the weights part the bury from the rest: :meth:`~sheepsolve.weighting.WorldWeights.picked`):
        the picker's cards before the bury are dealt as one hand, in strata by how many trumps and top trumps they
        hold (:class:`~sheepsolve.worlds.strata.PickedStrata`: each stratum's deals counted exactly and drawn
        uniformly), and the bury drawn from them by the model's own choice, whose probability then cancels from
        the importance weight. Whether it applied."""
        k = self.k
        p = k.declarer
        if p is None or k.played_by(p) or k.world_constraints or k.has_under or k.bury is not None:
            return False
        picked = weights.picked(k)
        if picked is None:
            return False
        try:
            strata = PickedStrata.of(WorldSampler(k, picked=True), picked.masks, picked.held)
        except WorldsError:
            return False
        if strata is None:
            return False
        self.picked = picked
        found = []
        for values, n in sorted(strata.by_values().items()):
            label = ",".join(map(str, values))
            pilot = []
            for i in range(PICKED_PILOT_WORLDS):
                rng = world_rng(f"pilot:{label}", i)
                cards, rest = strata.draw_picked(rng, values)
                parts, under = strata.deal_rest(rng, cards, rest)
                hands, _, under = first_lead(strata.sampler, parts, under)
                pilot.append(picked.others(hands, picked.picker(mask_of(cards))))
            found.append((strata, values, n, math.fsum(pilot) / len(pilot)))
        self._set_strata(found, PICKED_REJECTION_CONTROL)
        return True

    @staticmethod
    def deals_expected(k: Knowledge, n: int) -> int:
        """About how many deals drawing ``n`` worlds weighs, the fewest in expectation, for weights without the
        picked-cards proposal (:class:`~sheepsolve.weighting.PlayWeights`): the pilot's (one stratum's at the least)
        and :data:`REJECTION_CONTROL` a world kept (rejection control keeps a deal with probability at most
        ``1 / REJECTION_CONTROL``: its threshold is that many times the weights' mean)."""
        uniform = k.declarer is None or k.declarer == k.seat or not k.game.trumps
        return (PILOT_DEALS if uniform else PILOT_WORLDS) + int(REJECTION_CONTROL * n)

    def _deal_weight(self, sampler: WorldSampler, rng: random.Random) -> float:
        """The weight of one deal of ``sampler`` (a pilot's: deals the rules refuse are not told apart)."""
        parts, under = sampler.draw_deal(rng)
        w = self.weights.weight_at_lead(self.k, *first_lead(sampler, parts, under))
        if w is None:
            world = sampler.world_of(parts, under)
            return 0.0 if world is None else self.weights.weight(self.k, world)
        return w

    @property
    def stratified(self) -> bool:
        """Whether the proposal is stratified (else uniform)."""
        return bool(self.strata)

    def draw(self, rng: random.Random) -> tuple[World, float]:
        """One world and its importance weight: deals of the proposal until rejection control keeps one that
        the rules engine accepts."""
        got = self._kept(rng, build=True)
        return got[3], got[4]  # type: ignore[return-value]

    def draw_deal(self, rng: random.Random) -> tuple[WorldSampler, list[list[Card]], Card | None, float]:
        """One deal kept by rejection control and its importance weight, its world not built: the sampler it
        came from (a stratum's, or the uniform one), the cards of each of that sampler's slots, the card under.
        For knowledge before any card is played or called (:func:`~sheepsolve.worlds.before_choice`), where every
        deal is a world and the weights give each deal's weight at the lead (:meth:`~sheepsolve.weighting.WorldWeights.weight_at_lead`)."""
        s, parts, under, _, v = self._kept(rng, build=False)
        return s, parts, under, v

    def _kept(self, rng: random.Random, build: bool
              ) -> tuple[WorldSampler, list[list[Card]], Card | None, World | None, float]:
        c = self.threshold
        k = self.k
        picked = self.picked
        for _ in range(MAX_CANDIDATES):
            if self.strata:
                j = min(bisect.bisect_right(self._cumulative, rng.random() * self._cumulative[-1]),
                        len(self.strata) - 1)
                s, pi, values, n = self.strata[j]
                scale = n / pi
            else:
                s, scale, values = self.base, 1.0, None
            self.drawn += 1
            if picked is not None:  # a stratum of the picked cards (PickedStrata): the bury drawn once kept
                cards, rest = s.draw_picked(rng, values)
                uc = rng.random() * c
                like = picked.picker(mask_of(cards))
                if like * scale <= uc:  # refused from the picked cards alone: the other hands are not dealt
                    continue
                parts, under = s.deal_rest(rng, cards, rest)
                hands, _, at_lead = first_lead(s.sampler, parts, under)
                v = picked.others(hands, like, floor=uc / scale) * scale
                if v < c:
                    if v <= uc:
                        continue
                    v = c
                s, parts = self.base, self._bury_drawn(s.sampler, parts, picked.draw(hands[k.declarer], rng.random()))
                world = s.world_of(parts, under) if build else None
                if build and world is None:
                    continue  # the rules engine refuses it: a world of weight 0
                return s, parts, under, world, v
            parts, under = s.draw_deal(rng)
            # rejection control: a world of importance weight v below c is kept with probability v / c (when
            # v > u c), and then weighs c; the weight is worked out only as far as that decision needs
            uc = rng.random() * c
            w = self.weights.weight_at_lead(k, *first_lead(s, parts, under), floor=uc / scale)
            world = None
            if w is None:
                if not build:
                    raise WorldsError("draw_deal: these weights need a world to weigh a deal")
                world = s.world_of(parts, under)
                if world is None:
                    continue
                w = self.weights.weight(k, world)
            v = w * scale
            if v < c:
                if v <= uc:
                    continue
                v = c
            if world is None and build:
                world = s.world_of(parts, under)
                if world is None:
                    continue  # the rules engine refuses it: a world of weight 0
            return s, parts, under, world, v
        raise WorldsError("no consistent world found in the weighted draws: the record is almost certainly "
                          "inconsistent")

    def _bury_drawn(self, sampler: WorldSampler, parts: Sequence[Sequence[Card]], bury: int) -> list[list[Card]]:
        """A deal of the picked cards (``sampler``'s slots) as a deal of :attr:`base`'s slots, ``bury`` (a mask)
        taken from the picker's cards to the bury."""
        out = []
        buried: list[Card] = []
        for slot, cards in zip(sampler.slots, parts):
            if slot.seat == self.k.declarer:
                buried = [c for c in cards if bury >> c & 1]
                cards = [c for c in cards if not bury >> c & 1]
            out.append(list(cards))
        return out + [buried]  # the base's slots: the same hands, then the bury

    def sample(self, n: int, seed: int | str = 0, start: int = 0) -> tuple[list[World], list[float]]:
        """Worlds ``start .. start + n - 1`` of ``seed`` and their importance weights."""
        got = [self.draw(world_rng(seed, i)) for i in range(start, start + n)]
        return [w for w, _ in got], [x for _, x in got]

    def all_worlds(self, cap: int = ALL_WORLDS_CAP) -> tuple[list[World], list[float]]:
        """Every consistent world and its weight (the exact weighted figures)."""
        worlds = self.base.all_worlds(cap)
        return worlds, [self.weights.weight(self.k, w) for w in worlds]
