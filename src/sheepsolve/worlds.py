"""The player's view: what a seat knows at a point of a hand, and the worlds of the cards it cannot see.

Every analysis "from the player's seat" (``suggest``, ``annotate --view player``, and the picker's view of
``bury``, ``pick`` and ``choose``) is built on this module (``shared/RULES.md``, "The player's view").

Knowledge
    :class:`Knowledge` is what one seat knows after the first ``k`` cards of the play: its own hand at the first
    lead; the blind and the bury if it is the picker; the contract and the call (the called card, whether a card
    went under, going alone); every card played and by whom.

Worlds
    A :class:`World` deals the cards the seat cannot see to the other players' remaining hands and, when the seat
    is not the picker, to the bury (and a leaster's blind, which nobody sees). Where a card went *under* and the
    seat has not seen it played, the world also says which of the picker's cards it is.

Consistency
    A world is *consistent* when every action of the record would have been legal in it (:func:`is_consistent`):
    the call and the bury (``Setup.create`` accepts them: the called card in another hand, a hold card kept) and
    every card played (``State.legal``: following suit, each called-card rule, the card under). This one
    definition gives void inference and called-ace inference with no special case.

Sampling (:class:`WorldSampler`)
    Consistent worlds are equally likely. The sampler first deals uniformly from a *superset* of the consistent
    worlds that it can count exactly: each unseen card may go to some places only (a player who did not follow
    a suit holds none of it, the called card is in neither the declarer's hand nor the bury, a player who did not
    play the called card when its suit was first led does not hold it). The places are filled by counting: the
    cards fall into a few kinds by where they may go, and the number of deals for every way of sharing the kinds
    out is worked out once by dynamic programming, so each world is drawn with the exact probability of its
    share-out. Then the world is checked with the rules engine (:func:`is_consistent`) and redrawn if it fails.
    Voids, the constraint that tightens late in a hand, are dealt with exactly, so what is left to the check
    (a declarer holding a card of the called suit, the hold card, running the called suit) rejects few worlds.
    A sample that is uniform over the superset and kept only where consistent is uniform over the consistent
    worlds.

    World ``i`` is drawn with its own random generator, ``random.Random(f"sheepsolve:view:{seed}:{i}")``, so a
    seed gives the same worlds whatever the number of processes that solve them.

Exact mode
    :meth:`WorldSampler.all_worlds` lists every consistent world, in a fixed order. It refuses above
    :data:`ALL_WORLDS_CAP` consistent worlds with a :class:`WorldsError` giving the count (or, when the superset
    is too large to check world by world, an estimate) and suggesting sampling.

Values (:func:`view_values`)
    A card's value from the player's view is the mean over the worlds of its double-dummy value (the declaring
    side's final card points, the bury and the tricks already won included; ramsch and leaster: the mover's own
    points, every other player against him). Every card is solved in the same worlds (common random numbers), so
    the differences between cards have standard errors of their own, smaller than the cards'.

>>> from sheepsolve.record import load_record
>>> rec = load_record("examples/sauspiel-midtrick.toml")
>>> k = Knowledge.from_record(rec)
>>> rec.players[k.seat], len(k.unseen), [rec.players[s] for s in k.others]
('Resi', 15, ['Sepp', 'Vroni', 'Hias'])
>>> sampler = WorldSampler(k)
>>> worlds = sampler.sample(5, seed=1)
>>> all(is_consistent(k, w) for w in worlds)
True
>>> [str(c) for c in sorted(worlds[0].state.legal(), key=int)] == [str(c) for c in sorted(k.legal(), key=int)]
True
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from typing import Any

from .cards import Card, format_cards
from .engine import (STATE_DEFAULTS, RulesError, Setup, State, Trick, frozen_instance, legal_cards, rule_bound_seats,
                     trick_winner)
from .games import Game, make_game
from .pool import game_from_spec, game_spec
from .record import Record, RecordError
from .scoring import Stakes
from .solver import SolverError

__all__ = [
    "ALL_WORLDS_CAP",
    "Knowledge",
    "World",
    "WorldSampler",
    "WorldsError",
    "is_consistent",
    "build_world",
    "world_rng",
    "before_choice",
]

ALL_WORLDS_CAP = 20_000
"""The most consistent worlds ``--worlds all`` solves; above it, sample (``--worlds N``)."""

CHECK_LIMIT = 250_000
"""The most worlds of the superset that :meth:`WorldSampler.all_worlds` checks one by one to count the consistent
ones; a larger superset that the rules engine may still thin out is refused with an estimate."""

MAX_TRIES = 200_000
"""Draws from the superset for one world before the sampler gives up (the record is then almost certainly
inconsistent; the error says so)."""


class WorldsError(SolverError):
    """A question the player's view cannot answer: no consistent world, too many worlds for ``all``, a seat that
    cannot be judged."""


def world_rng(seed: int | str, i: int) -> random.Random:
    """The random generator of world ``i`` of ``seed`` (a number, or a text such as ``"3:seat 2"``)."""
    return random.Random(f"sheepsolve:view:{seed}:{i}")


# --------------------------------------------------------------------------------------------------------------
# Knowledge


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows after the first ``len(plays)`` cards of a hand.

    ``hand``: the seat's hand at the first lead (a picker's after the bury). ``bury`` and ``blind``: known to the
    picker only (None for everyone else). ``under``: the card under when the seat knows it (the picker, or
    anyone once it was played); ``has_under`` says whether a card went under at all. ``plays``: every card
    played so far, as (seat, card) in play order. ``universe``: every card in play at the first lead (hands,
    bury, a leaster's blind): the deck for a full deal. ``hand_size``: every hand's size at the first lead.
    """

    game: Game
    seat: int
    hand: frozenset[Card]
    plays: tuple[tuple[int, Card], ...]
    universe: frozenset[Card]
    hand_size: int
    declarer: int | None = None
    called: Card | None = None
    has_under: bool = False
    under: Card | None = None
    alone: bool = False
    bury: tuple[Card, ...] | None = None
    blind: tuple[Card, ...] | None = None
    stakes: Stakes = field(default_factory=Stakes)
    players: tuple[str, ...] = ()
    first_leader: int = 0
    constraints: tuple = ()  # --constrain: sheepsolve.constraints.Constraint, each met by every world
    weights: Any = None  # how likely each world is (sheepsolve.weighting); None: every world alike

    # -- building ------------------------------------------------------------------------------------------
    @classmethod
    def from_setup(cls, setup: Setup, plays: Sequence[Card], seat: int | None = None, *,
                   stakes: Stakes | None = None, players: Sequence[str] | None = None) -> "Knowledge":
        """The knowledge of ``seat`` (default: the player to move) after ``plays`` from ``setup.start()``.

        The setup's deal is the truth the knowledge is taken from; the cards in play are those of the setup
        (its hands, bury and blind), so small positions work as well as full deals. Raises :class:`RulesError`
        on an illegal card.
        """
        g = setup.game
        state = setup.start()
        seq: list[tuple[int, Card]] = []
        for c in plays:
            if state.finished:
                raise RulesError(f"play: card {len(seq) + 1} ({c}): the hand is already over")
            seq.append((state.to_move, c))
            state = state.play(c)
        if seat is None:
            if state.finished:
                raise WorldsError("the hand is over: nobody is to move")
            seat = state.to_move
        universe = frozenset().union(*setup.hands, setup.bury, setup.blind if g.kind == "leaster" else ())
        p = setup.declarer
        picker_view = g.kind == "picker" and seat == p
        alone = False
        if g.kind == "picker" and setup.partner is None:
            jd = Card.make("J", "D")
            mine = set(setup.hands[p]) | set(setup.bury) if p is not None else set()
            alone = g.partner == "called-ace" or (g.partner == "jack-of-diamonds" and jd not in mine
                                                  and jd in universe)
        seen = {c for _, c in seq}
        return cls(game=g, seat=seat, hand=setup.hands[seat], plays=tuple(seq), universe=universe,
                   hand_size=max(len(h) for h in setup.hands), declarer=p, called=setup.called,
                   has_under=setup.under is not None,
                   under=setup.under if (setup.under is not None and (picker_view or setup.under in seen)) else None,
                   alone=alone, bury=tuple(setup.bury) if picker_view else None,
                   blind=tuple(setup.blind) if picker_view else None, stakes=stakes or Stakes(),
                   players=tuple(players) if players is not None else tuple(str(i + 1) for i in range(g.seats)),
                   first_leader=setup.first_leader)

    @classmethod
    def from_record(cls, rec: Record, seat: int | str | None = None, upto: int | None = None) -> "Knowledge":
        """The knowledge of ``seat`` (a seat index or a player's name; default: the player to move) after the first
        ``upto`` cards of the record's play (default: all of them).

        Needs the seat's own hand, and for the picker the blind and the bury; the other hands may be missing.
        Raises :class:`WorldsError` naming what is missing.
        """
        g = rec.game
        plays_flat = [c for t in rec.play for c in t]
        if upto is None:
            upto = len(plays_flat)
        if not 0 <= upto <= len(plays_flat):
            raise WorldsError(f"upto: the record has {len(plays_flat)} cards played, not {upto}")
        seq = list(rec.replay.plays[:upto])  # who played each card: the record's kept replay
        if g.sie:
            raise WorldsError("a sie is not played out: there is nothing to judge")
        if seat is None:
            to_move = _to_move(rec, seq)
            if to_move is None:
                raise WorldsError("the hand is over: nobody is to move (--at TRICK[.CARD] names a decision of the hand)")
            s = to_move
        elif isinstance(seat, int) and not isinstance(seat, bool):
            s = seat
            if s not in range(g.seats):
                raise WorldsError(f"seat {seat} is not one of 0..{g.seats - 1}")
        else:
            try:
                s = rec.seat_of(seat)
            except RecordError as e:
                raise WorldsError(f"--seat: {e}") from None
        name = rec.players[s]
        dealt = rec.hands[s]
        if dealt is None:
            raise WorldsError(f"hands.{name}: the hand of {name} is needed to judge from {name}'s seat")
        p = rec.declarer
        picker_view = g.kind == "picker" and s == p
        bury = blind = None
        hand = frozenset(dealt)
        if picker_view:
            if rec.blind is None:
                raise WorldsError(f"blind: {name} is the picker and saw the blind; the record must give it")
            if rec.bury is None:
                raise WorldsError(f"bury: {name} is the picker and made the bury; the record must give it")
            bury, blind = tuple(rec.bury), tuple(rec.blind)
            hand = frozenset((set(dealt) | set(blind)) - set(bury))
        seen = {c for _, c in seq}
        under = rec.under if rec.under is not None and (picker_view or rec.under in seen) else None
        alone = rec.alone
        if g.kind == "picker" and g.partner == "called-ace" and rec.called is None:
            alone = True
        return cls(game=g, seat=s, hand=hand, plays=tuple(seq), universe=frozenset(g.deck), hand_size=g.hand_size,
                   declarer=p, called=rec.called, has_under=rec.under is not None, under=under, alone=alone,
                   bury=bury, blind=blind, stakes=Stakes(crack=rec.crack, recrack=rec.recrack,
                                                          doublers=rec.doublers),
                   players=rec.players)

    def _next_seat(self, seq: Sequence[tuple[int, Card]]) -> int:
        n = self.game.seats
        leader = self.first_leader
        k = len(seq) % n
        full = len(seq) - k
        for t in range(0, full, n):
            cards = [c for _, c in seq[t:t + n]]
            leader = (seq[t][0] + trick_winner(self.game, cards, self.under, self.called_class)) % n
        return (leader + k) % n

    def to_spec(self) -> tuple:
        """Plain data that rebuilds the knowledge with :meth:`from_spec` (in another process)."""
        return (game_spec(self.game),) + tuple((f.name, getattr(self, f.name)) for f in fields(self)
                                               if f.name not in ("game", "weights"))

    @classmethod
    def from_spec(cls, spec: tuple) -> "Knowledge":
        return cls(game=game_from_spec(spec[0]), **dict(spec[1:]))

    # -- derived facts -------------------------------------------------------------------------------------
    @cached_property
    def public(self) -> tuple[tuple[Trick, ...], tuple[Card, ...], int, bool]:
        """What everyone saw of the play: the finished tricks, the cards of the trick on the table, its leader,
        and whether the called suit is still unled in a finished trick (as the engine's ``State`` has them)."""
        g = self.game
        n = g.seats
        plays = self.plays
        tricks: list[Trick] = []
        called_open = True
        for t in range(0, len(plays) - len(plays) % n, n):
            cards = tuple(c for _, c in plays[t:t + n])
            lead = plays[t][0]
            w = (lead + trick_winner(g, cards, self.under, self.called_class)) % n
            tricks.append(Trick(leader=lead, cards=cards, winner=w, points=sum(c.points for c in cards)))
            if self.called is not None and self.class_of(cards[0]) == self.called_class:
                called_open = False
        rest = plays[len(tricks) * n:]
        leader = rest[0][0] if rest else (tricks[-1].winner if tricks else self.first_leader)
        return tuple(tricks), tuple(c for _, c in rest), leader, called_open

    @property
    def called_class(self) -> str | None:
        return self.game.suit_class(self.called) if self.called is not None else None

    @property
    def picker_view(self) -> bool:
        """Whether the seat is the picker of a Sheepshead game (it knows the blind and the bury)."""
        return self.game.kind == "picker" and self.seat == self.declarer

    @property
    def others(self) -> tuple[int, ...]:
        """The other seats, in seat order."""
        return tuple(s for s in range(self.game.seats) if s != self.seat)

    @property
    def played(self) -> frozenset[Card]:
        return frozenset(c for _, c in self.plays)

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards the seat has not seen: in the other hands, the bury (not the picker) or a leaster's blind."""
        known = set(self.hand) | self.played
        if self.bury is not None:
            known |= set(self.bury)
        return self.universe - known

    def played_by(self, seat: int) -> list[Card]:
        return [c for s, c in self.plays if s == seat]

    def remaining(self, seat: int) -> int:
        """How many cards ``seat`` still holds."""
        return self.hand_size - sum(1 for s, _ in self.plays if s == seat)

    @property
    def to_move(self) -> int | None:
        """The seat to move after the plays (None when the hand is over)."""
        if len(self.plays) >= self.hand_size * self.game.seats:
            return None
        return self._next_seat(self.plays)

    def class_of(self, card: Card) -> str:
        """A card's class as everyone sees it (the card under, once known, is of the called suit)."""
        if self.under is not None and card == self.under and self.called is not None:
            return self.game.suit_class(self.called)
        return self.game.suit_class(card)

    def legal(self) -> list[Card]:
        """The seat's legal cards now (the seat must be the one to move): the same in every consistent world."""
        if self.to_move != self.seat:
            raise WorldsError("the seat is not the one to move")
        return list(_probe_state(self).legal())

    def describe(self) -> str:
        """One line: who knows what."""
        name = self.players[self.seat] if self.players else str(self.seat + 1)
        return (f"{name}'s view after {len(self.plays)} card{'s' if len(self.plays) != 1 else ''}: "
                f"{len(self.unseen)} unseen cards ({format_cards(sorted(self.unseen, key=int))})")


def _replace(k: Knowledge, **changes: Any) -> Knowledge:
    import dataclasses

    return dataclasses.replace(k, **changes)


def _to_move(rec: Record, seq: list[tuple[int, Card]]) -> int | None:
    g = rec.game
    if len(seq) >= g.hand_size * g.seats:
        return None
    n = g.seats
    if len(seq) % n:
        return (seq[-1][0] + 1) % n
    if not seq:
        return 0
    trick = [c for _, c in seq[-n:]]
    cc = g.suit_class(rec.called) if rec.called is not None else None
    return (seq[-n][0] + trick_winner(g, trick, rec.under, cc)) % n


# --------------------------------------------------------------------------------------------------------------
# Worlds


@dataclass(frozen=True)
class World:
    """One deal of the unseen cards: the engine's setup (every hand at the first lead, the bury, the call, the
    card under) and the position after the knowledge's plays."""

    setup: Setup
    state: State

    @property
    def hands(self) -> tuple[frozenset[Card], ...]:
        return self.setup.hands

    def to_spec(self) -> tuple:
        """Plain data (card numbers) that :func:`build_world` turns back into this world."""
        st = self.setup
        return (tuple(tuple(int(c) for c in sorted(h, key=int)) for h in st.hands),
                tuple(int(c) for c in st.bury), tuple(int(c) for c in st.blind),
                -1 if st.under is None else int(st.under))

    @staticmethod
    def from_spec(k: "Knowledge", spec: tuple) -> "World":
        hands, bury, blind, under = spec
        w = build_world(k, [[Card(c) for c in h] for h in hands], [Card(c) for c in bury], [Card(c) for c in blind],
                        None if under < 0 else Card(under))
        if w is None:
            raise WorldsError("a world handed to another process is not consistent there")  # pragma: no cover
        return w

    def key(self) -> tuple:
        """A canonical, hashable description (hands, bury, blind, under) for counting and comparing worlds."""
        st = self.setup
        return (tuple(tuple(sorted(int(c) for c in h)) for h in st.hands), tuple(sorted(int(c) for c in st.bury)),
                tuple(sorted(int(c) for c in st.blind)) if st.game.kind == "leaster" else (),
                -1 if st.under is None else int(st.under))

    def advance(self, card: Card) -> "World | None":
        """The world after one more card, or None if that card is illegal in it (the world is then
        inconsistent with the play)."""
        s = self.state
        if s.finished or card not in s.hands[s.to_move] or card not in s.legal():
            return None
        return World(self.setup, s.play(card, check=False))


def _make_setup(k: Knowledge, hands: Sequence[Iterable[Card]], bury: Sequence[Card], blind: Sequence[Card],
                under: Card | None) -> Setup:
    """The engine's setup of a world (raises RulesError when the call or bury is not allowed in it)."""
    setup = _make_setup_created(k, hands, bury, blind, under)
    key = (id(k.game), setup.called, setup.under)
    hit = _ORDERS.get(key)
    if hit is not None and hit[0] is k.game:
        setup.__dict__.update(hit[1])  # the cached properties every world of a call shares
    else:
        if len(_ORDERS) > 256:
            _ORDERS.clear()
        _ORDERS[key] = (k.game, {"card_classes": setup.card_classes, "legal_order": setup.legal_order})
    return setup


_ORDERS: dict[tuple, tuple] = {}


def _make_setup_created(k: Knowledge, hands: Sequence[Iterable[Card]], bury: Sequence[Card], blind: Sequence[Card],
                        under: Card | None) -> Setup:
    g = k.game
    if g.kind == "picker":
        # the hands at the first lead, the bury as what the picker "picked up and put down": Setup.create takes
        # the blind into the picker's hand and removes the bury, which gives the hand at the first lead back
        shown_blind = k.blind if k.blind is not None else tuple(bury)
        dealt = list(hands)
        p = k.declarer
        assert p is not None
        if k.blind is not None:
            dealt[p] = (set(dealt[p]) | set(bury)) - set(k.blind)
        return Setup.create(g, [list(h) for h in dealt], declarer=p, blind=shown_blind, bury=bury, called=k.called,
                            under=under, alone=k.alone)
    return Setup.create(g, [list(h) for h in hands], declarer=k.declarer, blind=blind, called=k.called,
                        under=under, alone=k.alone)


def _probe_state(k: Knowledge) -> State:
    """A state with the seat's real hand where the seat is to move, for its legal cards: built from any world
    (the seat's legal cards do not depend on the others' cards)."""
    sampler = WorldSampler(k)
    w = sampler.draw(random.Random(0))
    return w.state


def _play_contexts(k: Knowledge, setup: Setup) -> tuple[tuple[int, Card, tuple[Card, ...], bool], ...]:
    """Each card of the play as (seat, card, the cards of its trick before it, whether the called suit was still
    unopened): what its legality depends on besides the seat's hand. The same in every world of ``k`` (the call
    is known to all)."""
    n = k.game.seats
    out = []
    trick: tuple[Card, ...] = ()
    called_open = True
    for s, c in k.plays:
        out.append((s, c, trick, called_open))
        trick += (c,)
        if len(trick) == n:
            if setup.called is not None and setup.suit_class(trick[0]) == setup.called_class:
                called_open = False
            trick = ()
    return tuple(out)


_CONTEXTS: dict[int, tuple[Knowledge, tuple]] = {}


def _bound_plays_legal(k: Knowledge, setup: Setup) -> bool:
    """Whether the cards played by the seats that the called-card rules bind (:func:`engine.rule_bound_seats`) were
    legal in this world; the other seats' cards obey following suit in every deal the sampler makes."""
    bound = rule_bound_seats(setup)
    if not bound:
        return True
    hit = _CONTEXTS.get(id(k))
    if hit is not None and hit[0] is k:
        contexts = hit[1]
    else:  # once per knowledge: a card under that was played is known to all, so every world gives the same
        if len(_CONTEXTS) > 256:
            _CONTEXTS.clear()
        contexts = _play_contexts(k, setup)
        _CONTEXTS[id(k)] = (k, contexts)
    hands = {s: set(setup.hands[s]) for s in bound}
    for s, c, trick, called_open in contexts:
        if s in hands:
            hand = hands[s]
            if c not in legal_cards(setup, s, frozenset(hand), trick, called_open):
                return False
            hand.discard(c)
    return True


def build_world(k: Knowledge, hands: Sequence[Iterable[Card]], bury: Sequence[Card] = (),
                blind: Sequence[Card] = (), under: Card | None = None, *, check: bool | str = True
                ) -> World | None:
    """The world with these hands at the first lead (and bury, blind, card under), or None when it is not
    consistent with the knowledge: the call or bury not allowed, or a card of the play illegal in it.

    ``check=False`` trusts that every card of the play is legal in the world (the sampler's deals of a game
    without called card or card under, where following suit is all there is and the deal obeys it) and builds
    the position after the play directly from the tricks everyone saw, without replaying them.
    ``check="bound"`` trusts following suit likewise (the sampler's deals obey it) and checks only the cards of
    the seats the called-card rules bind; ``check=True`` replays every card through the engine."""
    try:
        setup = _make_setup(k, hands, bury, blind, under)
    except RulesError:
        return None
    if check == "bound":
        if not _bound_plays_legal(k, setup):
            return None
        check = False
    if not check:
        tricks, trick, leader, called_open = k.public
        hs = [set(h) for h in setup.hands]
        for s, c in k.plays:
            hs[s].discard(c)
        state = frozen_instance(State, STATE_DEFAULTS, setup=setup, hands=tuple(frozenset(h) for h in hs),
                                leader=leader, trick=trick, tricks=tricks, called_open=called_open)
        return World(setup, state)
    state = setup.start()
    for s, c in k.plays:
        if state.to_move != s or c not in state.legal():
            return None
        state = state.play(c, check=False)
    return World(setup, state)


def is_consistent(k: Knowledge, world: World) -> bool:
    """Whether every action of the record (the call, the bury, every card played) is legal in ``world``, and the
    world agrees with what the seat saw (its own hand, the blind and bury it knows, the cards played)."""
    st = world.setup
    if st.hands[k.seat] != k.hand:
        return False
    if k.bury is not None and set(st.bury) != set(k.bury):
        return False
    if k.under is not None and st.under != k.under:
        return False
    if (st.under is not None) != k.has_under:
        return False
    cards = set().union(*st.hands, st.bury, st.blind if k.game.kind == "leaster" else ())
    if cards != set(k.universe):
        return False
    again = build_world(k, st.hands, st.bury, st.blind, st.under)
    return again is not None and again.state.hands == world.state.hands


# --------------------------------------------------------------------------------------------------------------
# The sampler


@dataclass(frozen=True)
class _Slot:
    name: str  # "seat 3", "bury", "blind"
    seat: int | None
    size: int


class WorldSampler:
    """Uniform worlds consistent with a :class:`Knowledge` (see the module docstring).

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
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

    def __init__(self, knowledge: Knowledge, extra: Sequence[tuple[int, Any]] = ()) -> None:
        self.k = k = knowledge
        g = k.game
        slots: list[_Slot] = []
        for s in k.others:
            slots.append(_Slot(f"hand of {self._name(s)}", s, k.remaining(s)))
        if g.kind == "picker" and not k.picker_view:
            slots.append(_Slot("bury", None, len(k.universe) - k.hand_size * g.seats))
        if g.kind == "leaster":
            slots.append(_Slot("blind", None, len(k.universe) - k.hand_size * g.seats))
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
        self._count = lru_cache(maxsize=None)(self._count_from)
        self._choice_memo: dict[tuple, tuple] = {}
        sizes = tuple(sl.size for sl in self.slots)
        self._start = (0,) * len(self._conds)
        self.candidates = self._count(0, sizes, self._start) * (self._picker_left() if self._under_pick else 1)
        """How many deals the superset holds (every consistent world is one of them)."""
        if self.candidates == 0:
            if k.constraints and not extra:
                from .constraints import ConstraintError

                without = WorldSampler(_replace(k, constraints=()))
                if without.candidates:
                    said = "; ".join(c.text for c in k.constraints)
                    raise ConstraintError(f"--constrain: no deal of the unseen cards meets {said!r} from "
                                          f"{self._name(k.seat)}'s seat")
            raise WorldsError(f"no deal of the unseen cards fits the play seen from {self._name(k.seat)}'s seat: "
                              "the record is inconsistent")

    def _conditions(self, extra: Sequence[tuple[int, Any]]) -> tuple[tuple[int, Any, int], ...]:
        """The constraints' conditions on hands the worlds deal, as (slot, condition, what the seat's known cards
        already count); a condition on the judged seat's own hand is checked here (:class:`ConstraintError`)."""
        k = self.k
        out = []
        for seat, cond in [(c.seat, cond) for c in k.constraints for cond in c.conditions] + list(extra):
            if seat == k.seat:
                if not cond.holds_for(cond.value(k.hand)):
                    from .constraints import ConstraintError

                    text = next(c.text for c in k.constraints if cond in c.conditions)
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
        return all(cond.holds_for(base + n) for (_, cond, base), n in zip(self._conds, counts))

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
        if k.called is not None and k.called in allowed and k.declarer is not None:
            # the called card is in another player's hand: neither the declarer's nor the bury
            if k.declarer in slot_of:
                allowed[k.called] &= ~(1 << slot_of[k.declarer])
            if bury_slot is not None:
                allowed[k.called] &= ~(1 << bury_slot)
        return allowed

    # -- counting ------------------------------------------------------------------------------------------
    def _count_from(self, i: int, caps: tuple[int, ...], counts: tuple[int, ...]) -> int:
        """Deals of kinds ``i..`` that fill ``caps`` exactly (and meet the constraints, ``counts`` their counts so
        far)."""
        if i == len(self.kinds):
            return 1 if not any(caps) and self._met(counts) else 0
        total = 0
        mask, cards = self.kinds[i]
        if i == len(self.kinds) - 1:  # the last kind fills what is left, if it may go everywhere that is left
            if sum(caps) != len(cards) or any(x and not mask >> j & 1 for j, x in enumerate(caps)):
                return 0
            if not self._met(self._advance(i, caps, counts)):
                return 0
            ways = math.factorial(len(cards))
            for x in caps:
                ways //= math.factorial(x)
            return ways
        rest = sum(len(c) for _, c in self.kinds[i + 1:])
        if sum(caps) - len(cards) != rest:
            return 0
        for split, ways in self._splits(mask, len(cards), caps):
            after = tuple(c - x for c, x in zip(caps, split))
            sub = self._count(i + 1, after, self._advance(i, split, counts))
            if sub:
                total += ways * sub
        return total

    def _splits(self, mask: int, k: int, caps: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Every way to share ``k`` cards among the slots of ``mask`` within ``caps``, with its number of deals
        (a multinomial)."""
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
            if k == 0:
                yield tuple(0 for _ in caps), 1
            return
        for parts in rec(0, k):
            split = [0] * len(caps)
            ways = math.factorial(k)
            for j, x in zip(idx, parts):
                split[j] = x
                ways //= math.factorial(x)
            yield tuple(split), ways

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
        caps = tuple(sl.size for sl in self.slots)
        counts = self._start
        out: list[list[Card]] = [[] for _ in self.slots]
        for i, (mask, cards) in enumerate(self.kinds):
            total, cumulative, options = self._choices(i, caps, counts)
            split, caps, counts = options[bisect.bisect_right(cumulative, rng.randrange(total))]
            pool = list(cards)
            rng.shuffle(pool)
            pos = 0
            for j, x in enumerate(split):
                out[j].extend(pool[pos:pos + x])
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
        if got is None:
            mask, cards = self.kinds[i]
            total = 0
            cumulative: list[int] = []
            options: list[tuple[tuple, tuple, tuple]] = []
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

    def _slot_index(self, seat: int | None) -> int:
        return next(i for i, sl in enumerate(self.slots) if sl.seat == seat)

    def _world(self, parts: Sequence[Sequence[Card]], under: Card | None) -> World | None:
        k, g = self.k, self.k.game
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
                           under, check=False if self.exact_superset else "bound")

    def try_draw(self, rng: random.Random) -> World | None:
        """One deal of the superset, uniformly, as a world; None when the rules engine refuses it."""
        parts, under = self._deal(rng)
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
        return self._as_deal(parts)

    def all_deals(self, cap: int = ALL_WORLDS_CAP) -> list[tuple[list[list[Card]], list[Card]]]:
        """Every deal :meth:`deal` draws from, each once, in a fixed order; :class:`WorldsError` when there are
        more than ``cap``.

        >>> from sheepsolve.cards import parse_cards
        >>> k = before_choice(make_game("sheepshead-3"), 0, parse_cards("QC 7S"), blind=parse_cards("JD 8S"),
        ...                   unseen=parse_cards("AS TS AC KS"))
        >>> len(WorldSampler(k).all_deals())      # 4 cards, two to each of two hands
        6
        """
        self._check_before_choice()
        if self.candidates > cap:
            raise WorldsError(f"--worlds all: {self.candidates:,} consistent worlds from {self._name(self.k.seat)}'s "
                              f"seat, over the cap of {cap:,}; sample them instead (--worlds N, say --worlds 200)")
        return [self._as_deal(parts) for parts, _ in self._all_deals()]

    def _check_before_choice(self) -> None:
        if self.k.plays or not self.exact_superset:
            raise WorldsError("deal: only before the first lead and any call (draw gives a world of a record)")

    def _as_deal(self, parts: Sequence[Sequence[Card]]) -> tuple[list[list[Card]], list[Card]]:
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


# --------------------------------------------------------------------------------------------------------------
# Before the choice: the deals behind bury, pick and choose


def before_choice(game: Game, seat: int, hand: Iterable[Card], *, blind: Iterable[Card] | None = None,
                  unseen: Iterable[Card] | None = None, players: Sequence[str] | None = None,
                  stakes: Stakes | None = None) -> Knowledge:
    """What ``seat`` knows before the choice of a contract or a bury is made: its hand as dealt and, when it has
    picked (``blind`` given), the blind; of the others nothing (no card played, no call: every deal of the unseen
    cards is consistent). This is the knowledge behind ``bury`` (the picker, the blind in hand), ``pick`` (the
    blind unseen) and ``choose``; :meth:`WorldSampler.deal` deals its worlds.

    ``unseen``: the cards the seat cannot see (default: the rest of the deck; smaller deals are for tests and
    examples). The picker's ``hand`` holds the blind until he buries: his bury is still to choose (``()``).

    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead")
    >>> k = before_choice(g, 2, parse_cards("QC QS JD AD 9C TS"), blind=parse_cards("7H 8H"))
    >>> len(k.hand), len(k.unseen), WorldSampler(k).slots[0].size
    (8, 24, 6)
    >>> len(before_choice(g, 2, parse_cards("QC QS JD AD 9C TS")).unseen)   # picking: the blind unseen too
    26
    """
    hand = frozenset(hand)
    blind_t = tuple(blind) if blind is not None else None
    known = set(hand) | set(blind_t or ())
    if len(known) != len(hand) + len(blind_t or ()):
        raise WorldsError("blind: a card of the blind is also in the hand")
    rest = frozenset(unseen) if unseen is not None else frozenset(game.deck) - known
    if rest & known:
        raise WorldsError(f"unseen: {format_cards(sorted(rest & known, key=int))} also known to the seat")
    picker = blind_t is not None
    if picker and game.kind != "picker":
        raise WorldsError(f"{game.name} has no blind to pick up")
    return Knowledge(game=game, seat=seat, hand=frozenset(known) if picker else hand, plays=(),
                     universe=frozenset(known) | rest, hand_size=len(hand), declarer=seat if picker else None,
                     bury=() if picker else None, blind=blind_t, stakes=stakes or Stakes(),
                     players=tuple(players) if players is not None else tuple(str(i + 1) for i in range(game.seats)))
