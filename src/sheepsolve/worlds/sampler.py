"""Uniform worlds consistent with a seat's knowledge (:class:`WorldSampler`): the superset of deals counted
exactly by dynamic programming, each world drawn with the probability of its share-out and checked by the rules
engine, every world listed in exact mode (see :mod:`sheepsolve.worlds`).
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..cards import Card
from .build import World, build_world
from .knowledge import Knowledge, WorldsError

__all__ = ["ALL_WORLDS_CAP", "CHECK_LIMIT", "MAX_TRIES", "WorldSampler", "world_rng", "shuffle"]


ALL_WORLDS_CAP = 20_000
"""The most consistent worlds ``--worlds all`` solves; above it, sample (``--worlds N``)."""

CHECK_LIMIT = 250_000
"""The most worlds of the superset that :meth:`WorldSampler.all_worlds` checks one by one to count the consistent
ones; a larger superset that the rules engine may still thin out is refused with an estimate."""

MAX_TRIES = 200_000
"""Draws from the superset for one world before the sampler gives up (the record is then almost certainly
inconsistent; the error says so)."""


def world_rng(seed: int | str, i: int) -> random.Random:
    """The random generator of world ``i`` of ``seed`` (a number, or a text such as ``"3:seat 2"``)."""
    return random.Random(f"sheepsolve:view:{seed}:{i}")



@dataclass(frozen=True)
class _Slot:
    name: str  # "seat 3", "bury", "blind"
    seat: int | None
    size: int


class WorldSampler:
    """Uniform worlds consistent with a :class:`Knowledge` (see the module docstring).

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.engine import Setup
    >>> g = make_game("solo", trump="H")
    >>> hands = [parse_cards(h) for h in ("9C AS AH", "TC TS 9S", "7S AD TD", "AC 8S TH")]
    >>> k = Knowledge.from_setup(Setup.create(g, hands, declarer=0), parse_cards("AH TC 7S"))
    >>> s = WorldSampler(k)      # player 4 to move: 6 unseen cards, two for each other hand
    >>> s.candidates, s.count(), len(s.all_worlds())
    (90, 90, 90)
    >>> k = Knowledge.from_setup(Setup.create(g, hands, declarer=0), parse_cards("AH TC 7S TH 9C 9S"))
    >>> s = WorldSampler(k)      # player 3 to move; player 2 showed no trump and no clubs
    >>> s.count(), any(Card.parse("AC") in w.hands[1] for w in s.all_worlds())
    (9, False)
    """

    def __init__(self, knowledge: Knowledge, extra: Sequence[tuple[int, Any]] = (),
                 share: "WorldSampler | None" = None, *, picked: bool = False) -> None:
        self.k = k = knowledge
        g = k.game
        rest = len(k.universe) - k.hand_size * g.seats  # the bury's or the blind's cards
        if picked and (g.kind != "picker" or k.picker_view or k.declarer in (None, k.seat) or k.has_under):
            raise WorldsError("picked: only for the picker's cards as another seat sees them")
        self.picked = picked  # his hand and bury one slot: a deal is a world once whoever draws it buries
        slots = [_Slot(f"{'picked cards' if picked and s == k.declarer else 'hand'} of {self._name(s)}", s,
                       k.remaining(s) + (rest if picked and s == k.declarer else 0)) for s in k.others]
        if g.kind == "picker" and not k.picker_view and not picked:
            slots.append(_Slot("bury", None, rest))
        if g.kind == "leaster":
            slots.append(_Slot("blind", None, rest))
        self.slots = tuple(sl for sl in slots)
        unseen = sorted(k.unseen, key=int)
        need = sum(sl.size for sl in slots)
        if need != len(unseen) or any(sl.size < 0 for sl in slots):
            raise WorldsError(f"{len(unseen)} unseen cards, but the other hands"
                              f"{' and the bury' if g.kind == 'picker' and not k.picker_view else ''} need {need}")
        self.unseen = tuple(unseen)
        self._under_pick = k.has_under and k.under is None  # the world also picks the card under
        allowed = self._allowed()
        self._conds = self._conditions(extra)
        # kinds: cards grouped by the places they may go (and, with constraints, by what they add to each count)
        kinds: dict[tuple, list[Card]] = {}
        for c in unseen:
            kinds.setdefault((allowed[c], self._adds(allowed[c], c)), []).append(c)
        self.kinds = tuple((key[0], tuple(cards)) for key, cards in sorted(kinds.items()))
        self._kind_adds = tuple(key[1] for key in sorted(kinds))
        # the dynamic programme's tables do not depend on the conditions' bounds and comparisons, and the counts
        # (each condition's count kept as its value less its bound) not on the bounds: samplers that differ only
        # by them (a weighted sampler's strata) share them
        if share is not None and share._shape(False) == self._shape(False):
            self._table, self._by_adds = share._table, share._by_adds
        else:
            self._table = lru_cache(maxsize=None)(self._table_from)
            self._by_adds = lru_cache(maxsize=None)(self._by_adds_from)
        self._exact_counts = bool(self._conds) and all(cond.op == "==" for _, cond, _ in self._conds)
        if share is not None and share._shape(True) == self._shape(True):
            self._count_memo, self._choice_memo = share._count_memo, share._choice_memo
        else:
            self._count_memo: dict[tuple, int] = {}
            self._choice_memo: dict[tuple, tuple] = {}
        self._zero = (0,) * len(self._conds)
        self._sizes = sizes = tuple(sl.size for sl in self.slots)
        # each condition's count is kept as its value less its bound, so that the counts of deals do not depend on
        # the bound (strata that differ only by it share the dynamic programme)
        self._start = tuple(base - cond.bound for _, cond, base in self._conds)
        self.candidates = self._count(0, sizes, self._start) * (self._picker_left() if self._under_pick else 1)
        """How many deals the superset holds (every consistent world is one of them)."""
        if self.candidates == 0:
            if k.constraints and not extra:
                from ..constraints import ConstraintError

                without = WorldSampler(dataclasses.replace(k, constraints=()))
                if without.candidates:
                    said = "; ".join(c.text for c in k.constraints)
                    raise ConstraintError(f"--constrain: no deal of the unseen cards meets {said!r} from "
                                          f"{self._name(k.seat)}'s seat")
            raise WorldsError(f"no deal of the unseen cards fits the play seen from {self._name(k.seat)}'s seat"
                              f"{''.join(f' and {f.text(k.players)}' for f in k.facts)}: the record is inconsistent")

    def _conditions(self, extra: Sequence[tuple[int, Any]]) -> tuple[tuple[int, Any, int], ...]:
        """The constraints' conditions on hands the worlds deal, as (slot, condition, what the seat's known cards
        already count); a condition on the judged seat's own hand is checked here (:class:`ConstraintError`)."""
        k = self.k
        out = []
        for seat, cond in [(c.seat, cond) for c in k.world_constraints for cond in c.conditions] + list(extra):
            if seat == k.seat:
                if not cond.holds_for(cond.value(k.hand)):
                    from ..constraints import ConstraintError

                    text = next(c.text for c in k.world_constraints if cond in c.conditions)
                    raise ConstraintError(f"--constrain {text!r}: {self._name(seat)}'s own hand, which "
                                          f"{self._name(seat)} sees, does not meet it")
                continue
            out.append((self._slot_index(seat), cond, cond.value(k.played_by(seat))))
        return tuple(out)

    def _adds(self, mask: int, card: Card) -> tuple[int, ...]:
        """What ``card`` adds to each condition's count when it goes to the condition's slot."""
        return tuple(cond.weight(card) if mask >> j & 1 else 0 for j, cond, _ in self._conds)

    def _advance(self, i: int, split: Sequence[int], counts: tuple[int, ...]) -> tuple[int, ...]:
        """The conditions' counts after kind ``i`` is shared out as ``split``."""
        if not self._conds:
            return counts
        adds = self._kind_adds[i]
        return tuple(n + adds[q] * split[j] for q, ((j, _, _), n) in enumerate(zip(self._conds, counts)))

    def _met(self, counts: tuple[int, ...]) -> bool:
        return all(cond.holds_for(cond.bound + n) for (_, cond, _), n in zip(self._conds, counts))

    def _shape(self, ops: bool) -> tuple:
        """What the dynamic programme's tables depend on: the slots, the kinds, each condition's slot and card
        weights (``ops``: and its comparison, which the counts depend on too)."""
        return (self.slots, self.kinds, self._kind_adds, self._under_pick,
                tuple((j, cond.weights) + ((cond.op,) if ops else ()) for j, cond, _ in self._conds))

    def _name(self, seat: int) -> str:
        return self.k.players[seat] if self.k.players else f"player {seat + 1}"

    def _picker_left(self) -> int:
        p = self.k.declarer
        assert p is not None
        return self.k.remaining(p)

    # -- where each unseen card may go ---------------------------------------------------------------------
    def _allowed(self) -> dict[Card, int]:
        """A mask of the slots each unseen card may go to: only constraints every consistent world obeys."""
        k, g = self.k, self.k.game
        n = g.seats
        slot_of = {sl.seat: i for i, sl in enumerate(self.slots) if sl.seat is not None}
        bury_slot = next((i for i, sl in enumerate(self.slots) if sl.name == "bury"), None)
        full = (1 << len(self.slots)) - 1
        allowed = {c: full for c in self.unseen}
        # the card under, while unknown, is one of the picker's cards whose class is the called suit's: the
        # picker's voids are then left to the rules check
        unsure_class = {k.declarer} if self._under_pick else set()
        cc = k.called_class
        called_open = True
        plays = k.plays
        voids: dict[int, dict[str, int]] = {}  # seat -> class -> trick where it showed the void
        for t in range(0, len(plays), n):
            trick = plays[t:t + n]
            led = k.class_of(trick[0][1])
            for s, c in trick[1:]:
                if k.class_of(c) != led:
                    if s != k.seat and s not in unsure_class:
                        voids.setdefault(s, {}).setdefault(led, t // n + 1)
                # the called card's holder must play it on the first lead of its suit (R1)
                if (k.called is not None and called_open and led == cc and c != k.called and s in slot_of
                        and k.called in allowed):
                    allowed[k.called] &= ~(1 << slot_of[s])
            if len(trick) == n and led == cc:
                called_open = False
        for s, by_class in voids.items():
            for cls, tn in by_class.items():
                later = [c for ss, c in plays[tn * n:] if ss == s and k.class_of(c) == cls]
                if later:
                    raise WorldsError(f"play: {self._name(s)} did not follow {_class_name(cls)} in trick {tn} but "
                                      f"played {later[0]} later: no deal fits the record")
                for c in self.unseen:
                    if g.suit_class(c) == cls:
                        allowed[c] &= ~(1 << slot_of[s])
        for s, held in k.shown:  # an open hand (ouvert): its cards go there, and no other card does
            if s in slot_of:
                for c in self.unseen:
                    allowed[c] = (allowed[c] & (1 << slot_of[s])) if c in held else (allowed[c] & ~(1 << slot_of[s]))
        if k.called is not None and k.called in allowed and k.declarer is not None:
            # the called card is in another player's hand: neither the declarer's nor the bury
            if k.declarer in slot_of:
                allowed[k.called] &= ~(1 << slot_of[k.declarer])
            if bury_slot is not None:
                allowed[k.called] &= ~(1 << bury_slot)
        return allowed

    # -- counting ------------------------------------------------------------------------------------------
    def _table_from(self, i: int, caps: tuple[int, ...]) -> dict[tuple[int, ...], int]:
        """The deals of kinds ``i..`` that fill ``caps`` exactly, by what they add to each condition's count:
        {adds: deals}. It does not depend on the conditions' bounds or comparisons."""
        if i == len(self.kinds):
            return {} if any(caps) else {self._zero: 1}
        mask, cards = self.kinds[i]
        if i == len(self.kinds) - 1:  # the last kind fills what is left, if it may go everywhere that is left
            if sum(caps) != len(cards) or any(x and not mask >> j & 1 for j, x in enumerate(caps)):
                return {}
            ways = math.factorial(len(cards))
            for x in caps:
                ways //= math.factorial(x)
            return {self._advance(i, caps, self._zero): ways}
        rest = sum(len(c) for _, c in self.kinds[i + 1:])
        if sum(caps) - len(cards) != rest:
            return {}
        out: dict[tuple[int, ...], int] = {}
        for split, ways in self._splits(mask, len(cards), caps):
            sub = self._table(i + 1, tuple(c - x for c, x in zip(caps, split)))
            if not sub:
                continue
            if not self._conds:
                out[self._zero] = out.get(self._zero, 0) + ways * sub[self._zero]
                continue
            add = self._advance(i, split, self._zero)
            for v, n in sub.items():
                key = tuple(a + b for a, b in zip(add, v))
                out[key] = out.get(key, 0) + ways * n
        return out

    def _count(self, i: int, caps: tuple[int, ...], counts: tuple[int, ...]) -> int:
        """Deals of kinds ``i..`` that fill ``caps`` exactly and meet the constraints, ``counts`` being their
        counts so far (each less its bound)."""
        key = (i, caps, counts)
        got = self._count_memo.get(key)
        if got is None:
            table = self._table(i, caps)
            if not self._conds:
                got = table.get(self._zero, 0)
            else:
                got = sum(n for v, n in table.items() if self._met(tuple(a + b for a, b in zip(counts, v))))
            self._count_memo[key] = got
        return got

    def _splits(self, mask: int, k: int, caps: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Every way to share ``k`` cards among the slots of ``mask`` within ``caps``, with its number of deals
        (a multinomial): :func:`_splits_of`, worked out once for every sampler (a weighted sampler's strata share
        them)."""
        return iter(_splits_of(mask, k, caps))

    def count(self) -> int:
        """The number of consistent worlds, exactly (every world of the superset is checked when the rules may
        thin it out; :class:`WorldsError` above :data:`CHECK_LIMIT`). The constraints are counted exactly."""
        if self.exact_superset:
            return self.candidates
        if self.candidates > CHECK_LIMIT:
            raise WorldsError(f"{self.candidates} deals to check: too many to count the consistent ones exactly")
        return sum(1 for _ in self._all_consistent())

    @property
    def exact_superset(self) -> bool:
        """Whether every deal of the superset is consistent: no rule is left to the engine's check but following
        suit, which the superset obeys exactly (no called card, no card under, no bury rule)."""
        return self.k.called is None and not self.k.has_under

    # -- drawing -------------------------------------------------------------------------------------------
    def _deal(self, rng: random.Random) -> tuple[list[list[Card]], Card | None]:
        """One deal of the superset, uniformly: each kind's share-out drawn with its number of deals."""
        caps = self._sizes
        counts = self._start
        out: list[list[Card]] = [[] for _ in self.slots]
        getrandbits = rng.getrandbits
        for i, (mask, cards) in enumerate(self.kinds):
            total, cumulative, options = self._choices(i, caps, counts)
            split, caps, counts = options[bisect.bisect_right(cumulative, rng.randrange(total))]
            pool = list(cards)
            shuffle(getrandbits, pool)
            pos = 0
            for j, x in enumerate(split):
                if x:
                    out[j] += pool[pos:pos + x]
                    pos += x
        under = None
        if self._under_pick:
            p = self.k.declarer
            left = sorted(out[self._slot_index(p)], key=int)
            under = left[rng.randrange(len(left))]
        return out, under

    def _choices(self, i: int, caps: tuple[int, ...], counts: tuple[int, ...]
                 ) -> tuple[int, list[int], list[tuple[tuple, tuple, tuple]]]:
        """The share-outs of kind ``i`` into ``caps`` that leave a deal of the rest: their total number of deals,
        the running totals and (share-out, caps left, the constraints' counts after) each; worked out once per
        kind, caps and counts."""
        key = (i, caps, counts)
        got = self._choice_memo.get(key)
        if got is None and i == len(self.kinds) - 1:  # the last kind fills what is left: one share-out at most
            total = self._count(i, caps, counts)
            got = self._choice_memo[key] = (total, [total], [(caps, tuple(0 for _ in caps),
                                                              self._advance(i, caps, counts))])
        if got is None and self._exact_counts:
            # every condition asks for an exact count: the share-outs that leave a deal of the rest are those
            # whose rest adds exactly what each count lacks, listed once for every counts (:meth:`_by_adds`)
            total = 0
            cumulative = []
            options = []
            for split, after, add, w in self._by_adds(i, caps).get(tuple(-n for n in counts), ()):
                total += w
                cumulative.append(total)
                options.append((split, after, tuple(a + b for a, b in zip(counts, add))))
            got = self._choice_memo[key] = (total, cumulative, options)
        if got is None:
            mask, cards = self.kinds[i]
            total = 0
            cumulative = []
            options = []
            for split, ways in self._splits(mask, len(cards), caps):
                after = tuple(c - x for c, x in zip(caps, split))
                now = self._advance(i, split, counts)
                w = ways * self._count(i + 1, after, now)
                if w:
                    total += w
                    cumulative.append(total)
                    options.append((split, after, now))
            got = self._choice_memo[key] = (total, cumulative, options)
        return got

    def _by_adds_from(self, i: int, caps: tuple[int, ...]
                      ) -> dict[tuple[int, ...], list[tuple[tuple, tuple, tuple, int]]]:
        """The share-outs of kind ``i`` into ``caps`` by what they and a deal of the rest add to the counts in
        all: {adds: [(share-out, caps left, what the share-out adds, its number of deals)]}, in the share-outs'
        order."""
        mask, cards = self.kinds[i]
        out: dict[tuple[int, ...], list[tuple[tuple, tuple, tuple, int]]] = {}
        for split, ways in self._splits(mask, len(cards), caps):
            after = tuple(c - x for c, x in zip(caps, split))
            add = self._advance(i, split, self._zero)
            for v, n in self._table(i + 1, after).items():
                out.setdefault(tuple(a + b for a, b in zip(add, v)), []).append((split, after, add, ways * n))
        return out

    def _slot_index(self, seat: int | None) -> int:
        return next(i for i, sl in enumerate(self.slots) if sl.seat == seat)

    def _world(self, parts: Sequence[Sequence[Card]], under: Card | None) -> World | None:
        k, g = self.k, self.k.game
        if self.picked:
            raise WorldsError("a deal of the picked cards is a world only once the bury is chosen")
        hands: list[set[Card]] = [set() for _ in range(g.seats)]
        hands[k.seat] = set(k.hand)
        for s, c in k.plays:
            if s != k.seat:
                hands[s].add(c)
        bury: list[Card] = list(k.bury) if k.bury is not None else []
        blind: list[Card] = []
        for sl, cards in zip(self.slots, parts):
            if sl.seat is not None:
                hands[sl.seat].update(cards)
            elif sl.name == "bury":
                bury.extend(cards)
            else:
                blind.extend(cards)
        if k.under is not None:
            under = k.under
        return build_world(k, [sorted(h, key=int) for h in hands], sorted(bury, key=int), sorted(blind, key=int),
                           under, check=False if self.exact_superset else "bound", dealt=True)

    def try_draw(self, rng: random.Random) -> World | None:
        """One deal of the superset, uniformly, as a world; None when the rules engine refuses it."""
        parts, under = self._deal(rng)
        return self._world(parts, under)

    def draw_deal(self, rng: random.Random) -> tuple[list[list[Card]], Card | None]:
        """One deal of the superset, uniformly, not yet a world (:meth:`world_of` makes it one): the cards of each
        slot (:attr:`slots`) and the card under it picks (None where it is known or there is none)."""
        return self._deal(rng)

    def world_of(self, parts: Sequence[Sequence[Card]], under: Card | None) -> World | None:
        """The world of a :meth:`draw_deal`; None when the rules engine refuses it."""
        return self._world(parts, under)

    def draw(self, rng: random.Random) -> World:
        """One consistent world, uniformly (a deal of the superset, redrawn until the rules engine accepts it)."""
        for _ in range(MAX_TRIES):
            w = self.try_draw(rng)
            if w is not None:
                return w
        raise WorldsError(f"no consistent world found in {MAX_TRIES} draws from {self._name(self.k.seat)}'s seat: "
                          "the record is almost certainly inconsistent")

    def sample(self, n: int, seed: int | str = 0, start: int = 0) -> list[World]:
        """Worlds ``start .. start + n - 1`` of ``seed``, each drawn with :func:`world_rng` (``seed``, its index)."""
        return [self.draw(world_rng(seed, i)) for i in range(start, start + n)]

    def deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """A deal of the cards unseen before any choice (knowledge from :func:`before_choice`), uniformly: every
        hand as dealt, in seat order (the picker's without the blind), and the blind (the picker's, or the one
        dealt here). Every deal is consistent there: no card played, no call."""
        self._check_before_choice()
        parts, _ = self._deal(rng)
        return self.as_deal(parts)

    def all_deals(self, cap: int = ALL_WORLDS_CAP) -> list[tuple[list[list[Card]], list[Card]]]:
        """Every deal :meth:`deal` draws from, each once, in a fixed order; :class:`WorldsError` when there are
        more than ``cap``.

        >>> from sheepsolve.cards import parse_cards
        >>> from sheepsolve.games import make_game
        >>> from sheepsolve.worlds import before_choice
        >>> k = before_choice(make_game("sheepshead-3"), 0, parse_cards("QC 7S"), blind=parse_cards("JD 8S"),
        ...                   unseen=parse_cards("AS TS AC KS"))
        >>> len(WorldSampler(k).all_deals())      # 4 cards, two to each of two hands
        6
        """
        self._check_before_choice()
        if self.candidates > cap:
            raise WorldsError(f"--worlds all: {self.candidates:,} consistent worlds from {self._name(self.k.seat)}'s "
                              f"seat, over the cap of {cap:,}; sample them instead (--worlds N, say --worlds 200)")
        return [self.as_deal(parts) for parts, _ in self._all_deals()]

    def _check_before_choice(self) -> None:
        if self.k.plays or not self.exact_superset:
            raise WorldsError("deal: only before the first lead and any call (draw gives a world of a record)")

    def as_deal(self, parts: Sequence[Sequence[Card]]) -> tuple[list[list[Card]], list[Card]]:
        """A deal of :meth:`draw_deal` (knowledge before any choice) as :meth:`deal` gives it: every hand as dealt,
        in seat order, and the blind."""
        k = self.k
        hands: list[list[Card]] = [[] for _ in range(k.game.seats)]
        hands[k.seat] = sorted(set(k.hand) - set(k.blind or ()), key=int)
        blind = list(k.blind) if k.blind is not None else []
        for sl, cards in zip(self.slots, parts):
            if sl.seat is not None:
                hands[sl.seat] = sorted(cards, key=int)
            else:
                blind = sorted(cards, key=int)
        return hands, blind

    # -- every world ---------------------------------------------------------------------------------------
    def _all_deals(self) -> Iterator[tuple[list[list[Card]], Card | None]]:
        caps0 = tuple(sl.size for sl in self.slots)

        def rec(i: int, caps: tuple[int, ...], counts: tuple[int, ...], parts: list[list[Card]]
                ) -> Iterator[list[list[Card]]]:
            if i == len(self.kinds):
                yield [list(p) for p in parts]
                return
            mask, cards = self.kinds[i]
            for split, _ in self._splits(mask, len(cards), caps):
                after = tuple(c - x for c, x in zip(caps, split))
                now = self._advance(i, split, counts)
                if not self._count(i + 1, after, now):
                    continue
                for dealt in _share(cards, split):
                    yield from rec(i + 1, after, now, [p + list(d) for p, d in zip(parts, dealt)])

        for parts in rec(0, caps0, self._start, [[] for _ in self.slots]):
            if self._under_pick:
                p = self.k.declarer
                for u in sorted(parts[self._slot_index(p)], key=int):
                    yield parts, u
            else:
                yield parts, None

    def _all_consistent(self) -> Iterator[World]:
        for parts, under in self._all_deals():
            w = self._world(parts, under)
            if w is not None:
                yield w

    def all_worlds(self, cap: int = ALL_WORLDS_CAP) -> list[World]:
        """Every consistent world, in a fixed order; :class:`WorldsError` when there are more than ``cap``."""
        name = self._name(self.k.seat)
        if self.exact_superset:
            if self.candidates > cap:
                raise WorldsError(f"--worlds all: {self.candidates:,} consistent worlds from {name}'s seat, over "
                                  f"the cap of {cap:,}; sample them instead (--worlds N, say --worlds 200)")
        elif self.candidates > cap:
            # Listing means replaying every deal of the superset: first ask a sample whether the consistent ones
            # are surely too many (or too many deals to check), and refuse at once then.
            est, low = self._estimate()
            if low > cap or self.candidates > CHECK_LIMIT:
                raise WorldsError(f"--worlds all: about {est:,} consistent worlds from {name}'s seat (estimated from "
                                  f"{self.candidates:,} deals before the rules check), over the cap of {cap:,}; "
                                  f"sample them instead (--worlds N, say --worlds 200)")
        out: list[World] = []
        count = 0
        for w in self._all_consistent():
            count += 1
            if count <= cap:
                out.append(w)
        if count > cap:
            raise WorldsError(f"--worlds all: {count:,} consistent worlds from {name}'s seat, over the cap of "
                              f"{cap:,}; sample them instead (--worlds N, say --worlds 200)")
        return out

    def _estimate(self, draws: int = 400) -> tuple[int, float]:
        """The number of consistent worlds estimated from ``draws`` deals of the superset, and a lower bound
        (Wilson's, 4 standard deviations: a refusal on it is all but certain to be right)."""
        rng = random.Random("sheepsolve:view:estimate")
        ok = 0
        for _ in range(draws):
            parts, under = self._deal(rng)
            if self._world(parts, under) is not None:
                ok += 1
        p, n, z = ok / draws, draws, 4.0
        low = (p + z * z / (2 * n) - z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)
        return max(1, round(self.candidates * p)), self.candidates * max(0.0, low)


def shuffle(getrandbits: Callable[[int], int], pool: list) -> None:
    """``random.Random.shuffle(pool)`` with the generator's ``getrandbits``: the same draws (each index as
    ``Random._randbelow`` draws it), so the same order, without a call per card.

    >>> a, b = list(range(10)), list(range(10))
    >>> random.Random(5).shuffle(a); shuffle(random.Random(5).getrandbits, b); a == b
    True
    """
    for n in range(len(pool), 1, -1):
        bits = n.bit_length()
        r = getrandbits(bits)
        while r >= n:
            r = getrandbits(bits)
        pool[n - 1], pool[r] = pool[r], pool[n - 1]


@lru_cache(maxsize=1 << 14)
def _splits_of(mask: int, k: int, caps: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way to share ``k`` cards among the slots of ``mask`` within ``caps``, with its number of deals (a
    multinomial), in a fixed order."""
    idx = [j for j in range(len(caps)) if mask >> j & 1]

    def rec(pos: int, left: int) -> Iterator[list[int]]:
        if pos == len(idx) - 1:
            if left <= caps[idx[pos]]:
                yield [left]
            return
        for x in range(min(left, caps[idx[pos]]) + 1):
            for tail in rec(pos + 1, left - x):
                yield [x] + tail

    if not idx:
        return ((tuple(0 for _ in caps), 1),) if k == 0 else ()
    out = []
    for parts in rec(0, k):
        split = [0] * len(caps)
        ways = math.factorial(k)
        for j, x in zip(idx, parts):
            split[j] = x
            ways //= math.factorial(x)
        out.append((tuple(split), ways))
    return tuple(out)


def _share(cards: Sequence[Card], split: Sequence[int]) -> Iterator[list[tuple[Card, ...]]]:
    """Every way to deal ``cards`` into groups of the sizes ``split`` (in order)."""
    if not split:
        yield []
        return
    first, rest = split[0], split[1:]
    for group in itertools.combinations(cards, first):
        left = [c for c in cards if c not in group]
        for tail in _share(left, rest):
            yield [group] + tail


def _class_name(cls: str) -> str:
    return {"T": "trump", "C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}.get(cls, cls)
