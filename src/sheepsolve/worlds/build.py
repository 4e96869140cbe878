"""A world: one deal of the cards a seat cannot see, built into the engine's setup and position, and checked
against the record by the rules engine (:func:`build_world`, :func:`is_consistent`).

A world is *consistent* when every action of the record would have been legal in it: the call and the bury
(``Setup.create`` accepts them) and every card played (``State.legal``). The deals come from
:class:`~sheepsolve.worlds.sampler.WorldSampler`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..engine import (STATE_DEFAULTS, Call, RulesError, Setup, State, frozen_instance, legal_calls, legal_cards,
                      rule_bound_seats)
from .knowledge import Knowledge, WorldsError

__all__ = ["World", "build_world", "is_consistent"]


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
                        None if under < 0 else Card(under), dealt=True)  # a world's deal: every card once
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
                under: Card | None, dealt: bool = False) -> Setup:
    """The engine's setup of a world (raises RulesError when the call or bury is not allowed in it). ``dealt``:
    the hands, bury and blind are a deal of the sampler (every card once, every hand and the bury their sizes), so
    only the call is left to check, and without a called card nothing is."""
    if dealt:
        setup = _make_setup_dealt(k, hands, bury, blind, under)
    else:
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



def _make_setup_dealt(k: Knowledge, hands: Sequence[Iterable[Card]], bury: Sequence[Card], blind: Sequence[Card],
                      under: Card | None) -> Setup:
    """The setup :func:`_make_setup_created` makes of a deal of the sampler, built without the rest of
    :meth:`Setup.check_deal` (which such a deal always passes): the hands at the first lead as they are, the
    call checked as :meth:`Setup.create` checks it (:func:`legal_calls` for the declarer's hand in this deal; the
    card under in his hand), the declaring side found (:meth:`Setup.partner_in`) and set (:meth:`Setup.with_side`).
    Raises RulesError where :meth:`Setup.create` would."""
    g = k.game
    at_lead = tuple(frozenset(h) for h in hands)
    if g.partner in ("called-ace", "sauspiel"):
        p = k.declarer
        assert p is not None
        call = Call(None) if k.called is None else Call(k.called, under is not None)
        if call not in legal_calls(g, at_lead[p], bury) or (under is not None and under not in at_lead[p]):
            raise RulesError("called: not a call the rules allow with this hand")
    if g.kind == "picker":
        bury = tuple(bury)
        partner = Setup.partner_in(g, at_lead, k.declarer, bury=bury, called=k.called, alone=k.alone)
        return Setup.with_side(g, at_lead, declarer=k.declarer, partner=partner,
                               blind=k.blind if k.blind is not None else bury, bury=bury, called=k.called, under=under)
    partner = Setup.partner_in(g, at_lead, k.declarer, called=k.called, alone=k.alone)
    return Setup.with_side(g, at_lead, declarer=k.declarer, partner=partner, blind=blind, called=k.called,
                           under=under)


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
                blind: Sequence[Card] = (), under: Card | None = None, *, check: bool | str = True,
                dealt: bool = False) -> World | None:
    """The world with these hands at the first lead (and bury, blind, card under), or None when it is not
    consistent with the knowledge: the call or bury not allowed, or a card of the play illegal in it.

    ``check=False`` trusts that every card of the play is legal in the world (the sampler's deals of a game
    without called card or card under, where following suit is all there is and the deal obeys it) and builds
    the position after the play directly from the tricks everyone saw, without replaying them.
    ``check="bound"`` trusts following suit likewise (the sampler's deals obey it) and checks only the cards of
    the seats the called-card rules bind; ``check=True`` replays every card through the engine. ``dealt``: the
    hands, bury and blind are a deal of the sampler (every card once, each hand and the bury their sizes), whose
    deal needs no check, only its call."""
    try:
        setup = _make_setup(k, hands, bury, blind, under, dealt)
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
    if any(st.hands[s] != held for s, held in k.shown):
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
