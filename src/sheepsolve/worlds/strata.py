"""The picker's picked cards in strata: deals counted and drawn in closed form where every unseen card may go to
every hand (:class:`PickedStrata`), for the weighted sampler's picked-cards proposal
(:class:`sheepsolve.weighting.WeightedSampler`).

A :class:`~sheepsolve.worlds.WorldSampler` made with ``picked=True`` deals the picker's hand and the bury as one
slot, the cards he picked. Where no rule keeps any unseen card from any slot (before anyone showed a void: the
first lead, no called card), the deals whose picked cards hold ``x_g`` cards of each group ``g`` of the unseen cards
(grouped by which of the stratifying masks they are in) number ``prod_g C(n_g, x_g)`` times the ways to deal the
rest to the other hands, the same for every stratum: a stratum (the masks' counts among the picked cards) is a sum
of such products, and a deal of it is drawn by choosing the ``x_g`` with their products' odds, then the cards of
each group, then the rest's order, each uniformly. With ``held`` the strata count only that many of the picked
cards (the hand the picker was dealt), the others (the blind) dealt with the rest.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.deals import random_setup
>>> from sheepsolve.worlds import Knowledge, WorldSampler
>>> import random
>>> g = make_game("sheepshead")
>>> st = random_setup(g, random.Random(4))
>>> seat = next(s for s in range(5) if s != st.declarer)
>>> s = WorldSampler(Knowledge.from_setup(st, [], seat), picked=True)
>>> strata = PickedStrata.of(s, (g.trump_mask,))
>>> counts = strata.by_values()
>>> sum(counts.values()) * strata.rest == WorldSampler(Knowledge.from_setup(st, [], seat)).candidates // 28
True
>>> parts, under = strata.draw(random.Random(1), (5,))
>>> sum(1 for c in parts[strata.slot] if g.is_trump(c)), len(parts[strata.slot])
(5, 8)
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Sequence

from ..cards import Card
from .sampler import WorldSampler

__all__ = ["PickedStrata"]


class PickedStrata:
    """The strata of a picked sampler's deals by how many of the picked cards each of ``masks`` holds (see the
    module docstring). Build with :meth:`of`."""

    def __init__(self, sampler: WorldSampler, masks: Sequence[int], held: int | None = None) -> None:
        k = sampler.k
        self.sampler = sampler
        self.slot = next(i for i, sl in enumerate(sampler.slots) if sl.seat == k.declarer)
        self.size = sampler.slots[self.slot].size
        self.held = size = self.size if held is None else held
        """How many of the picked cards the strata count (the hand he was dealt; the others, the blind, are
        dealt with the rest)."""
        groups: dict[tuple[int, ...], list[Card]] = {}
        for c in sampler.unseen:
            groups.setdefault(tuple((m >> c) & 1 for m in masks), []).append(c)
        self.groups = tuple((pattern, tuple(cards)) for pattern, cards in sorted(groups.items()))
        base = tuple(sum(1 for c in k.played_by(k.declarer) if m >> c & 1) for m in masks)
        # every way to take x_g cards of each group, by the values they give: [(running total, xs)]
        self._options: dict[tuple[int, ...], tuple[list[int], list[tuple[int, ...]]]] = {}
        self._counts: dict[tuple[int, ...], int] = {}

        def ways(g: int, left: int, xs: tuple[int, ...]) -> None:
            if g == len(self.groups):
                if left:
                    return
                values = tuple(b + sum(x * pattern[j] for (pattern, _), x in zip(self.groups, xs))
                               for j, b in enumerate(base))
                n = math.prod(math.comb(len(cards), x) for (_, cards), x in zip(self.groups, xs))
                cumulative, options = self._options.setdefault(values, ([], []))
                self._counts[values] = self._counts.get(values, 0) + n
                cumulative.append(self._counts[values])
                options.append(xs)
                return
            for x in range(min(left, len(self.groups[g][1])) + 1):
                ways(g + 1, left - x, xs + (x,))

        ways(0, size, ())
        others = [sl.size for i, sl in enumerate(sampler.slots) if i != self.slot] + [self.size - size]
        self.rest = math.factorial(sum(others)) // math.prod(math.factorial(n) for n in others)
        # the places of the cards not held, slot by slot (the picker's: the picked cards not held), the largest
        # group first (deal_rest's shuffle leaves it the cards left)
        sizes = [(self.size - size if i == self.slot else sl.size, i) for i, sl in enumerate(sampler.slots)]
        first = max(range(len(sizes)), key=lambda j: sizes[j][0])
        self._fill = [sizes[first]] + sizes[:first] + sizes[first + 1:]
        self._first = sizes[first][0]
        """The ways to deal the cards not picked to the other slots: the same for every stratum."""

    @classmethod
    def of(cls, sampler: WorldSampler, masks: Sequence[int], held: int | None = None) -> "PickedStrata | None":
        """The strata of ``sampler`` (made with ``picked=True``, no conditions) by the counts of ``masks`` among
        ``held`` of the picked cards (default: all of them), or None where some unseen card may not go to some slot
        (then the closed form does not count them)."""
        full = (1 << len(sampler.slots)) - 1
        if not sampler.picked or sampler.k.world_constraints or any(mask != full for mask, _ in sampler.kinds):
            return None
        return cls(sampler, masks, held)

    def by_values(self) -> dict[tuple[int, ...], int]:
        """The deals of each stratum, up to the factor :attr:`rest` they share: {values: deals}."""
        return dict(self._counts)

    def draw(self, rng: random.Random, values: tuple[int, ...]) -> tuple[list[list[Card]], Card | None]:
        """A deal of the stratum ``values``, uniformly, as the sampler's :meth:`~WorldSampler.draw_deal` gives
        one: the cards of each slot, and no card under."""
        picked, rest = self.draw_picked(rng, values)
        return self.deal_rest(rng, picked, rest)

    def draw_picked(self, rng: random.Random, values: tuple[int, ...]) -> tuple[list[Card], list[Card]]:
        """The first half of :meth:`draw`: the :attr:`held` picked cards of a deal of the stratum ``values``
        (uniformly) and the unseen cards left."""
        cumulative, options = self._options[values]
        xs = options[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
        getrandbits = rng.getrandbits
        picked: list[Card] = []
        rest: list[Card] = []
        for (_, cards), x in zip(self.groups, xs):
            n = len(cards)
            if 0 < x < n:
                pool = list(cards)
                if x <= n - x:  # the last x of a shuffle's first x steps: x cards chosen uniformly
                    _shuffle_last(getrandbits, pool, x)
                    picked += pool[n - x:]
                    rest += pool[:n - x]
                else:
                    _shuffle_last(getrandbits, pool, n - x)
                    picked += pool[:x]
                    rest += pool[x:]
            elif x:
                picked += cards
            else:
                rest += cards
        return picked, rest

    def deal_rest(self, rng: random.Random, picked: list[Card], rest: list[Card]
                  ) -> tuple[list[list[Card]], Card | None]:
        """The second half of :meth:`draw`: ``rest`` (the cards not held, in any order: rearranged here) dealt
        uniformly to the rest of the picked cards and the other slots."""
        # the shuffle's steps from the end fill every group but the first (the largest slot), whose cards are
        # then the ones left, in some order
        _shuffle_last(rng.getrandbits, rest, len(rest) - self._first)
        out: list[list[Card]] = [[]] * len(self._fill)
        pos = 0
        for size, slot in self._fill:
            out[slot] = rest[pos:pos + size]
            pos += size
        out[self.slot] = picked + out[self.slot]
        return out, None


def _shuffle_last(getrandbits: Callable[[int], int], pool: list, steps: int) -> None:
    """The first ``steps`` steps of :func:`~sheepsolve.worlds.sampler.shuffle`: the last ``steps`` places of
    ``pool`` then hold cards chosen uniformly, in a uniform order, the others the cards left."""
    n = len(pool)
    for m in range(n, max(n - steps, 1), -1):
        bits = m.bit_length()
        r = getrandbits(bits)
        while r >= m:
            r = getrandbits(bits)
        pool[m - 1], pool[r] = pool[r], pool[m - 1]
