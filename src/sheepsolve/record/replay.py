"""The play of a record replayed through the engine, once: a complete record from its own setup, a partial one
from a stand-in setup carrying its call, the known hands held to every rule; and the cards the play determines.

:class:`Replay` keeps what the replay found: the setup, the position after every card, who played each card and
whose hands are known. :attr:`Record.replay <sheepsolve.record.Record.replay>` computes it once and keeps it,
and every command reads the record's positions from it.

>>> from sheepsolve.record import load_record
>>> r = load_record("examples/sauspiel-midtrick.toml").replay
>>> len(r.states), r.complete, r.final.trick_number, [str(c) for c in r.final.trick]
(12, True, 3, ['8H', 'QS', 'TC'])
>>> partial = load_record("examples/sheepshead-jd-partial.toml").replay
>>> partial.complete, sorted(partial.known), partial.plays[:2]
(False, [0], ((0, Card('KS')), (1, Card('JD'))))
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from collections.abc import Callable
from typing import Any, Protocol

from ..cards import Card, format_cards
from ..engine import Call, RulesError, Setup, State, legal_calls, trick_winner
from ..games import Game
from .errors import RecordError
from .position import position_setup, position_start

__all__ = ["Replay", "replay_of", "played_by_seat", "played_in_tricks", "completed_once", "inferred_cards",
           "stand_in_setup", "first_lead_hands", "kept_hand", "check_shown_play"]


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


@dataclass(frozen=True)
class Replay:
    """A record's play replayed once through the engine.

    ``setup``: the record's own setup when it is complete; for a partial record a stand-in (:func:`stand_in_setup`)
    carrying its call, with every hand full-size. ``states``: the position at the first lead and after every
    card (``states[k]`` after ``k`` cards); a partial record's hold the known hands and empty ones for the rest.
    ``known``: the seats whose hands at the first lead are known, held to every rule. ``complete``: whether the
    setup is the record's own.
    """

    setup: Setup
    states: tuple[State, ...]
    known: frozenset[int]
    complete: bool

    @property
    def start(self) -> State:
        """The position at the first lead."""
        return self.states[0]

    @property
    def final(self) -> State:
        """The position after the record's last card."""
        return self.states[-1]

    def after(self, cards: int) -> State:
        """The position after the first ``cards`` cards of the play."""
        if not 0 <= cards < len(self.states):
            raise ValueError(f"the play has {len(self.states) - 1} cards, not {cards}")
        return self.states[cards]

    def trick_ends(self) -> list[State]:
        """The position at the first lead and after each trick of the record (the last one may be unfinished)."""
        n = self.setup.game.seats
        cards = len(self.states) - 1
        return [self.states[0]] + [self.states[min(k, cards)] for k in range(n, cards + n, n)]

    @cached_property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) of every card played, in play order."""
        n = self.setup.game.seats
        out = []
        for t in self.final.tricks:
            out += [((t.leader + i) % n, c) for i, c in enumerate(t.cards)]
        st = self.final
        out += [((st.leader + i) % n, c) for i, c in enumerate(st.trick)]
        return tuple(out)

    def played_by_seat(self) -> list[list[Card]]:
        """The cards each seat played, in play order."""
        out: list[list[Card]] = [[] for _ in range(self.setup.game.seats)]
        for s, c in self.plays:
            out[s].append(c)
        return out


def replay_of(rec: RecordFields) -> Replay:
    """The record's play replayed through the engine (see :class:`Replay`); a :class:`RecordError` names the
    card that breaks the rules, or (``setup: ...``) the deal a complete record's setup refuses."""
    n = rec.game.seats
    position = getattr(rec, "position", None)
    if position is not None:
        setup = position_setup(rec.game, [h or () for h in rec.hands], rec.declarer, position, rec.called,
                               rec.under, rec.blind or ())
        return _replayed(rec, setup, position_start(setup, position), frozenset(range(n)), complete=True)
    if rec.complete:
        try:
            setup = Setup.create(rec.game, [list(h or ()) for h in rec.hands], declarer=rec.declarer,
                                 blind=rec.blind or (), bury=rec.bury or (), called=rec.called, under=rec.under,
                                 alone=rec.alone)
        except RulesError as e:
            raise RecordError(f"setup: {e}") from None
        return _replayed(rec, setup, setup.start(), frozenset(range(n)), complete=True)
    first = first_lead_hands(rec)
    setup = stand_in_setup(rec)
    start = dataclasses.replace(setup.start(), hands=tuple(h if h is not None else frozenset() for h in first))
    return _replayed(rec, setup, start, frozenset(s for s, h in enumerate(first) if h is not None), complete=False)


def played_by_seat(state: State) -> list[list[Card]]:
    """The cards each seat played up to ``state``, in play order."""
    n = state.game.seats
    out: list[list[Card]] = [[] for _ in range(n)]
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n].append(c)
    for i, c in enumerate(state.trick):
        out[(state.leader + i) % n].append(c)
    return out


def played_in_tricks(rec: RecordFields) -> list[list[Card]]:
    """The cards each seat played, in play order, found from the trick winners alone (the first trick led by the
    first seat, each later one by the winner of the one before): who played what, without walking the play
    through the engine. It checks nothing; :func:`replay_of` does (a record's play that it refuses may give any
    answer here)."""
    return seats_in_tricks(rec.game, rec.play, rec.called, rec.under)[0]


def seats_in_tricks(g: Game, play: tuple[tuple[Card, ...], ...] | list[list[Card]], called: Card | None = None,
                    under: Card | None = None) -> tuple[list[list[Card]], int]:
    """:func:`played_in_tricks` of a play in game ``g`` (``called``, ``under``: the record's call), and the seat
    to play next: the cards each seat played and who is to move, from the trick winners alone, checking
    nothing."""
    n = g.seats
    called_class = g.suit_class(called) if called is not None else None
    out: list[list[Card]] = [[] for _ in range(n)]
    leader = 0
    for trick in play:
        for i, c in enumerate(trick):
            out[(leader + i) % n].append(c)
        if len(trick) == n:
            leader = (leader + trick_winner(g, list(trick), under, called_class)) % n
    last = len(play[-1]) if play and len(play[-1]) < n else 0
    return out, (leader + last) % n


def completed_once(rec: Any, complete: Callable[[Any, dict[str, tuple[Card, ...]]], Any]) -> Any:
    """A partial record completed with the cards its play determines (``complete``: the record and them, checked
    as if given, replayed once with every hand held to every rule), or None when the play determines no card.
    Who played each card comes from the trick winners (:func:`played_in_tricks`), so the play is replayed once,
    completed; where the completed record is refused, the play as given is replayed first, and its error is the
    one raised (the completed record's only when the play as given passes)."""
    try:
        found = inferred_cards(rec, played_in_tricks(rec))
    except Exception:  # noqa: BLE001 - a play the engine refuses: replayed as given, which says why
        found = inferred_cards(rec, rec.replay.final)
    if not found:
        return None
    try:
        return complete(rec, found)
    except RecordError:
        rec.replay  # noqa: B018 - the play as given first
        raise


def inferred_cards(rec: RecordFields, state: State | list[list[Card]]) -> dict[str, tuple[Card, ...]]:
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
    played = played_by_seat(state) if isinstance(state, State) else state
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


def stand_in_setup(rec: RecordFields) -> Setup:
    """The setup a partial record is replayed from: the record's game, declarer, call, card under, blind and bury,
    the known hands at the first lead, and for the others cards of the rest of the deck (every hand full-size:
    what reads the hand size from the setup, such as the trick a leaster blind goes to, sees a whole hand). The
    partner is the called card's holder when the record shows it, else the first other seat whose hand is
    unknown, so a known hand is held to the called-card rules exactly when it is the partner; without a called
    card there is none (the side is not the stand-in's to tell).

    Raises :class:`RecordError` when no hand allows the record's call (with its card under).
    """
    g, p, called, under = rec.game, rec.declarer, rec.called, rec.under
    if called is not None and not _call_possible(g, called, under):
        what = f"calling {called}" + (f" with {under} under" if under is not None else "")
        raise RecordError(f"{'under' if under is not None else 'called'}: no hand allows {what}")
    first = first_lead_hands(rec)
    placed = set().union(*(h for h in first if h is not None), rec.bury or (), rec.blind or ())
    rest = [c for c in g.deck if c not in placed]
    hands = []
    for h in first:
        if h is None:
            h, rest = frozenset(rest[:g.hand_size]), rest[g.hand_size:]
        hands.append(h)
    partner = None
    if called is not None:
        partner = next((s for s, h in enumerate(rec.hands) if h is not None and called in h), None)
        if partner is None:
            partner = next(s for s, h in enumerate(rec.hands) if s != p and h is None)
    return Setup.with_side(g, hands, declarer=p, partner=partner, blind=rec.blind or (), bury=rec.bury or (),
                           called=called, under=under)


def _call_possible(g: Game, called: Card, under: Card | None) -> bool:
    """Whether some hand at the first lead allows calling ``called`` (with ``under`` under), as
    :func:`~sheepsolve.engine.legal_calls` decides: a hand of trumps with the called suit's lowest card kept as
    the hold card (a ten called: with all the fail aces too), or, with a card under, ``under`` and the ace of its
    suit (void in the called suit)."""
    suit = g.suit_class(called)
    trumps = [c for c in g.trumps if c not in (called, under)]
    if under is None:
        kept = [c for c in g.class_cards(suit) if c != called][-1:]
        if called.rank == "T":
            kept += [Card.make("A", s) for s in g.plain_suits]
    else:
        kept = [under]
        us = g.suit_class(under)
        if us != "T" and under.rank != "A":
            kept.append(Card.make("A", us))
    if called in kept:
        return False
    kept += trumps[:max(0, g.hand_size - len(kept))]
    return Call(called, under is not None) in legal_calls(g, kept)


def _replayed(rec: RecordFields, setup: Setup, state: State, known: frozenset[int], complete: bool) -> Replay:
    """Play the record's cards from ``state``. Seats in ``known`` are held to every rule; a card of another seat
    is checked only against where it is known to be, then played from a hand of that one card."""
    g, names, p = rec.game, rec.players, rec.declarer
    n = g.seats
    home: dict[Card, Any] = {}
    for s, h in enumerate(rec.hands):
        home.update((c, s) for c in h or ())
    home.update((c, "blind") for c in rec.blind or ())
    home.update((c, "bury") for c in rec.bury or ())
    played: dict[Card, tuple[int, int]] = {}
    states = [state]
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
            states.append(state)
    return Replay(setup=setup, states=tuple(states), known=known, complete=complete)


def check_shown_play(rec: Any) -> None:
    """A blitz in the record's auction (the picker shows QC QS): no other seat plays a black queen. The auction's
    own check sees the hands the record gives; this one the play, where those hands are unknown. Raises
    :class:`RecordError` naming the call, the player, the card and the trick. Replays the play first (kept)."""
    from ..inference.auction import BLITZ

    plays = rec.replay.plays
    auction, p = getattr(rec, "auction", None), rec.declarer
    if auction is None or p is None:
        return
    j = next((i for i, c in enumerate(auction.calls) if c.kind == BLITZ), None)
    if j is None:
        return
    n = rec.game.seats
    for i, (s, c) in enumerate(plays):
        if s != p and c.rank == "Q" and c.suit in "CS":
            raise RecordError(f'auction: call {j + 1} ("{auction.calls[j].text(rec.players)}"): {rec.players[s]} '
                              f"plays {c} in trick {i // n + 1}: {rec.players[p]} cannot show both black queens "
                              "(QC QS)")
