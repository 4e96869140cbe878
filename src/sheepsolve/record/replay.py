"""The play of a record replayed through the engine: a complete record from its setup, a partial one from a
stand-in setup carrying its call, the known hands held to every rule; and the cards the play determines."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Protocol

from ..cards import Card, format_cards
from ..engine import RulesError, Setup, State
from ..games import Game
from .errors import RecordError

__all__ = ["check_play", "played_by_seat", "inferred_cards", "replay_record", "call_setup", "first_lead_hands",
           "kept_hand"]


class RecordFields(Protocol):
    """What the replay reads of a :class:`~sheepsolve.record.Record`."""

    game: Game
    players: tuple[str, ...]
    declarer: int | None
    hands: tuple[tuple[Card, ...] | None, ...]
    blind: tuple[Card, ...] | None
    bury: tuple[Card, ...] | None
    called: Card | None
    under: Card | None
    alone: bool
    play: tuple[tuple[Card, ...], ...]

    @property
    def complete(self) -> bool: ...

    def setup(self) -> Setup: ...


def kept_hand(g: Game, p: int | None, hands: list | tuple, blind: tuple[Card, ...] | None,
               bury: tuple[Card, ...] | None) -> list[Card] | None:
    """The declarer's hand at the first lead, when the record gives all of it."""
    if p is None or hands[p] is None:
        return None
    if g.kind != "picker":
        return list(hands[p])
    if blind is None or bury is None:
        return None
    return [c for c in tuple(hands[p]) + blind if c not in bury]



def first_lead_hands(rec: RecordFields) -> list[frozenset[Card] | None]:
    out: list[frozenset[Card] | None] = [frozenset(h) if h is not None else None for h in rec.hands]
    if rec.game.kind == "picker":
        kept = kept_hand(rec.game, rec.declarer, rec.hands, rec.blind, rec.bury)
        out[rec.declarer] = frozenset(kept) if kept is not None else None  # type: ignore[index]
    return out


def check_play(rec: RecordFields) -> State:
    """Replay the record through the engine; a partial record against a setup with the same call."""
    if rec.complete:
        return replay_record(rec, rec.setup(), frozenset(range(rec.game.seats)))
    first = first_lead_hands(rec)
    meta = call_setup(rec)
    setup = dataclasses.replace(meta, hands=tuple(h if h is not None else frozenset() for h in first),
                                blind=rec.blind or (), bury=rec.bury or ())
    return replay_record(rec, setup, frozenset(s for s, h in enumerate(first) if h is not None))


def played_by_seat(rec: RecordFields, state: State) -> list[list[Card]]:
    """The cards each seat played in ``state`` (the record replayed), in play order."""
    n = rec.game.seats
    out: list[list[Card]] = [[] for _ in range(n)]
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n].append(c)
    for i, c in enumerate(state.trick):
        out[(state.leader + i) % n].append(c)
    return out


def inferred_cards(rec: RecordFields, state: State) -> dict[str, tuple[Card, ...]]:
    """The hands, blind and bury the record leaves out that the rest of it determines, by key.

    - A seat that has played its whole hand: its hand at the first lead is the cards it played (every seat's
      in a finished hand).
    - Sheepshead: the picker's hand as dealt is his hand at the first lead plus the bury minus the blind (and
      each of the four is found from the other three).
    - The hands at the first lead and the bury (leaster: the blind) share out the deck, and so do the hands as
      dealt and the blind: when one of them alone is unknown, it is the rest of the deck.
    """
    g, p, n = rec.game, rec.declarer, rec.game.seats
    picker = g.kind == "picker"
    played = played_by_seat(rec, state)
    dealt: list[frozenset[Card] | None] = [frozenset(h) if h is not None else None for h in rec.hands]
    blind = frozenset(rec.blind) if rec.blind is not None else None
    bury = frozenset(rec.bury) if rec.bury is not None else None
    lead = list(dealt)
    if picker:
        lead[p] = (dealt[p] | blind) - bury if None not in (dealt[p], blind, bury) else None  # type: ignore[index,operator]
    deck = frozenset(g.deck)
    aside_size = g.bury_size if picker else (g.blind_size if g.kind == "leaster" else 0)

    def rest(known: list[frozenset[Card] | None], size: int) -> frozenset[Card] | None:
        left = deck.difference(*(k for k in known if k is not None))
        return left if len(left) == size else None

    changed = True
    while changed:
        changed = False
        for s in range(n):
            if lead[s] is None and len(played[s]) == g.hand_size:
                lead[s] = frozenset(played[s])
                changed = True
            if not (picker and s == p) and (lead[s] is None) != (dealt[s] is None):
                lead[s] = dealt[s] = lead[s] or dealt[s]
                changed = True
        if picker:
            known = [x is not None for x in (lead[p], dealt[p], blind, bury)]
            if known.count(False) == 1:
                if dealt[p] is None:
                    dealt[p] = (lead[p] | bury) - blind  # type: ignore[operator]
                elif bury is None:
                    bury = (dealt[p] | blind) - lead[p]  # type: ignore[operator]
                elif blind is None:
                    blind = (lead[p] | bury) - dealt[p]  # type: ignore[operator]
                else:
                    lead[p] = (dealt[p] | blind) - bury  # type: ignore[operator]
                changed = True
        # the hands at the first lead and what is aside (the bury, or a leaster's blind) share out the deck
        aside = bury if picker else (blind if aside_size else frozenset())
        slots = lead + [aside]
        if [x is None for x in slots].count(True) == 1:
            i = next(i for i, x in enumerate(slots) if x is None)
            fill = rest(slots, g.hand_size if i < n else aside_size)
            if fill is not None:
                if i < n:
                    lead[i] = fill
                elif picker:
                    bury = fill
                else:
                    blind = fill
                changed = True
        # the hands as dealt and the blind share out the deck
        slots = dealt + [blind if g.blind_size else frozenset()]
        if [x is None for x in slots].count(True) == 1:
            i = next(i for i, x in enumerate(slots) if x is None)
            fill = rest(slots, g.hand_size if i < n else g.blind_size)
            if fill is not None:
                if i < n:
                    dealt[i] = fill
                else:
                    blind = fill
                changed = True
    out: dict[str, tuple[Card, ...]] = {}
    for s in range(n):
        if rec.hands[s] is None and dealt[s] is not None:
            out[f"hands.{rec.players[s]}"] = tuple(sorted(dealt[s], key=int))
    if rec.blind is None and blind is not None:
        out["blind"] = tuple(sorted(blind, key=int))
    if rec.bury is None and bury is not None:
        out["bury"] = tuple(sorted(bury, key=int))
    return out


def call_setup(rec: RecordFields) -> Setup:
    """A setup from a made-up deal with the record's game, declarer, call and under, the called card with its
    real holder when known, so the engine derives the partner and the called-card rules itself.

    Only the fields about the call are used: the hands are replaced by the known ones. The made-up declarer
    hand is searched over the aces, tens and lowest card of each plain suit, the rest trumps, until the
    engine accepts the call with it.
    """
    g, p, called, under = rec.game, rec.declarer, rec.called, rec.under
    n = g.seats
    holder = None
    if called is not None:
        holder = next((s for s, h in enumerate(rec.hands) if h is not None and called in h), None)
        if holder is None:
            holder = next(s for s, h in enumerate(rec.hands) if s != p and h is None)
    special = {c for c in (called, under) if c is not None}
    reps = [c for s in g.plain_suits for c in _representatives(g, s) if c not in special]
    fill = [c for c in g.trumps if c not in special] + [c for c in g.deck if not g.is_trump(c) and c not in special
                                                          and c not in reps]
    combos = (itertools.chain.from_iterable(itertools.combinations(reps, k) for k in range(len(reps) + 1))
              if called is not None else [()])
    for combo in combos:
        kept: list[Card] = []
        if p is not None:
            kept = ([under] if under is not None else []) + list(combo)
            if len(kept) > g.hand_size:
                continue
            kept += [c for c in fill if c not in kept][: g.hand_size - len(kept)]
        rest = [c for c in fill + reps if c not in kept]
        blind, rest = rest[: g.blind_size], rest[g.blind_size:]
        hands: list[list[Card]] = [[] for _ in range(n)]
        if p is not None:
            hands[p] = kept
        if holder is not None:
            hands[holder] = [called]  # type: ignore[list-item]
        for s in range(n):
            k = g.hand_size - len(hands[s])
            hands[s] += rest[:k]
            rest = rest[k:]
        try:
            return Setup.create(g, hands, declarer=p, blind=blind, bury=blind if g.kind == "picker" else (),
                                called=called, under=under, alone=rec.alone)
        except RulesError:
            continue
    what = f"calling {called}" + (f" with {under} under" if under is not None else "")
    raise RecordError(f"{'under' if under is not None else 'called'}: no hand allows {what}")


def _representatives(g: Game, suit: str) -> list[Card]:
    cards = g.class_cards(suit)
    return cards[:2] + cards[-1:] if len(cards) > 2 else cards


def replay_record(rec: RecordFields, setup: Setup, known: frozenset[int]) -> State:
    """Play the record's cards from ``setup.start()``. Seats in ``known`` are held to every rule; a card of
    another seat is checked only against where it is known to be, then played from a hand of that one card."""
    g, names, p = rec.game, rec.players, rec.declarer
    n = g.seats
    home: dict[Card, Any] = {}
    for s, h in enumerate(rec.hands):
        home.update((c, s) for c in h or ())
    home.update((c, "blind") for c in rec.blind or ())
    home.update((c, "bury") for c in rec.bury or ())
    played: dict[Card, tuple[int, int]] = {}
    state = setup.start()
    for t, trick in enumerate(rec.play, 1):
        for i, c in enumerate(trick, 1):
            s = state.to_move
            at = f"play: trick {t}, card {i}: "
            if c in played:
                tt, ss = played[c]
                raise RecordError(f"{at}{c} by {names[s]} was already played in trick {tt} by {names[ss]}")
            h = home.get(c)
            if isinstance(h, int) and h != s:
                if i > 1:
                    why = f"{names[s]} plays after {names[(s - 1) % n]}"
                elif t == 1:
                    why = f"{names[s]} leads the first trick"
                else:
                    why = f"{names[s]} won trick {t - 1}"
                raise RecordError(f"{at}{c} belongs to {names[h]} but it was {names[s]}'s turn to play ({why})")
            if h == "bury":
                raise RecordError(f"{at}{c} by {names[s]}: {c} was buried")
            if h == "blind" and not (g.kind == "picker" and s == p):
                raise RecordError(f"{at}{c} by {names[s]}: {c} is in the blind" +
                                  (", which nobody plays" if g.kind == "leaster" else ""))
            if s in known:
                if c not in state.hands[s]:
                    raise RecordError(f"{at}{c} is not in {names[s]}'s hand ({names[s]} holds "
                                      f"{format_cards(sorted(state.hands[s], key=int)) or 'nothing'})")
                try:
                    state = state.play(c)
                except RulesError as e:  # the text of State.why_illegal
                    why = str(e)
                    if why.startswith("revoke: "):
                        raise RecordError(f"{at}{c} by {names[s]} is a revoke: {why[len('revoke: '):]}") from None
                    raise RecordError(f"{at}{c} by {names[s]} is not allowed: {why}") from None
            else:
                if s == p and g.kind == "picker" and rec.hands[s] is not None and rec.blind is not None and h is None:
                    raise RecordError(f"{at}{c} by {names[s]} is in neither {names[s]}'s hand nor the blind")
                hands = list(state.hands)
                rest = hands[s] - {c}
                hands[s] = frozenset({c})
                state = dataclasses.replace(state, hands=tuple(hands)).play(c)
                hands = list(state.hands)
                hands[s] = rest
                state = dataclasses.replace(state, hands=tuple(hands))
            played[c] = (t, s)
    return state

