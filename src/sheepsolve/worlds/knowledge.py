"""What a seat knows at a point of a hand (:class:`Knowledge`), and before a choice is made (:func:`before_choice`).

The knowledge is what each seat is known to hold and lack as the seat sees it: its own hand, the blind and the bury
if it is the picker, the call, every card played and by whom. The worlds of the cards it cannot see are built in
:mod:`sheepsolve.worlds.build` and drawn in :mod:`sheepsolve.worlds.sampler`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

from ..cards import Card, format_cards
from ..constraints import Condition, Constraint
from ..engine import RulesError, Setup, Trick, legal_cards, trick_winner
from ..games import Game
from ..pool import game_from_spec, game_spec
from ..record import Record, RecordError
from ..scoring import Stakes
from ..solver import SolverError

__all__ = ["Knowledge", "Shown", "WorldsError", "auction_facts", "before_choice"]


class WorldsError(SolverError):
    """A question the player's view cannot answer: no consistent world, too many worlds for ``all``, a seat that
    cannot be judged."""

    __module__ = "sheepsolve.worlds"  # its public home, as tracebacks and reprs name it


@dataclass(frozen=True)
class Shown:
    """What the table showed of a hand before the first lead: ``seat`` held every card of ``cards`` in its hand
    at the first lead (a picker's after the bury), shown by the call ``call`` of the auction (a Sheepshead
    ``blitz``: the picker's QC QS). A hard fact: every world gives the seat those cards.

    >>> s = Shown(2, (Card.parse("QC"), Card.parse("QS")), "blitz")
    >>> s.text(("Ann", "Bob", "Cal")), s.text(("Ann", "Bob", "Cal"), "symbols")
    ('Cal showed QC QS (blitz)', 'Cal showed Q♣ Q♠ (blitz)')
    """

    seat: int
    cards: tuple[Card, ...]
    call: str

    def text(self, players: Sequence[str], style: str = "ascii") -> str:
        """One line for the worlds' assumptions, the cards in card style ``style``."""
        name = players[self.seat] if players else f"player {self.seat + 1}"
        return f"{name} showed {format_cards(self.cards, style)} ({self.call})"

    def constraint(self, players: Sequence[str]) -> Constraint:
        """The fact as a :class:`~sheepsolve.constraints.Constraint` on the seat's hand at the first lead."""
        return Constraint(seat=self.seat, conditions=(Condition(tuple((c, 1) for c in self.cards), "==",
                                                                len(self.cards)),),
                          text=self.text(players))


def auction_facts(source: Any) -> tuple[Shown, ...]:
    """What the ``auction`` of ``source`` (a :class:`~sheepsolve.record.Record`) showed of the hands (none
    without the key, or for a source without an auction): a Sheepshead ``blitz`` shows the picker's two black
    queens (``[rules] blitz``; docs/RULES.md, "Shown in the auction")."""
    from ..inference.auction import BLITZ

    auction = getattr(source, "auction", None)
    if auction is None or getattr(source, "declarer", None) is None:
        return ()
    if any(c.kind == BLITZ for c in auction.calls):
        return (Shown(source.declarer, (Card.make("Q", "C"), Card.make("Q", "S")), "blitz"),)
    return ()


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows after the first ``len(plays)`` cards of a hand.

    ``hand``: the seat's hand at the first lead (a picker's after the bury). ``bury`` and ``blind``: known to the
    picker only (None for everyone else; in a Skat hand game the declarer did not see the skat either).
    ``shown``: the hands open to every seat at the first lead, as (seat, cards): an ouvert declarer's, seen by his
    defenders. ``under``: the card under when the seat knows it (the picker, or
    anyone once it was played); ``has_under`` says whether a card went under at all. ``plays``: every card
    played so far, as (seat, card) in play order. ``universe``: every card in play at the first lead (hands,
    bury, a leaster's blind): the deck for a full deal. ``hand_size``: every hand's size at the first lead.
    ``facts``: what the auction showed of a hand (:class:`Shown`: a blitz), met by every world like a
    ``--constrain`` but no belief of the player's (``constraints`` holds those).
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
    shown: tuple[tuple[int, frozenset[Card]], ...] = ()  # hands open to every seat (ouvert), as (seat, cards)
    facts: tuple[Shown, ...] = ()  # what the auction showed (a blitz), each met by every world

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
        picker_view = g.kind == "picker" and seat == p and not g.hand  # a Skat hand game: nobody saw the skat
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
                   first_leader=setup.first_leader, shown=_open_hands(g, seat, p, setup.hands))

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
        picker_view = g.kind == "picker" and s == p and not g.hand  # a Skat hand game: nobody saw the skat
        bury = blind = None
        hand = frozenset(dealt)
        if picker_view:
            if rec.blind is None:
                raise WorldsError(f"blind: {name} is the picker and saw the blind; the record must give it")
            if rec.bury is None:
                raise WorldsError(f"bury: {name} is the picker and made the bury; the record must give it")
            bury, blind = tuple(rec.bury), tuple(rec.blind)
            hand = frozenset((set(dealt) | set(blind)) - set(bury))
        shown: tuple[tuple[int, frozenset[Card]], ...] = ()
        if g.ouvert and p is not None and s != p:
            shown = _open_hands(g, s, p, [None if i != p else _first_lead_hand(rec, p) for i in range(g.seats)])
        seen = {c for _, c in seq}
        under = rec.under if rec.under is not None and (picker_view or rec.under in seen) else None
        alone = rec.alone
        if g.kind == "picker" and g.partner == "called-ace" and rec.called is None:
            alone = True
        return cls(game=g, seat=s, hand=hand, plays=tuple(seq), universe=frozenset(g.deck), hand_size=g.hand_size,
                   declarer=p, called=rec.called, has_under=rec.under is not None, under=under, alone=alone,
                   bury=bury, blind=blind, stakes=Stakes(crack=rec.crack, recrack=rec.recrack,
                                                          doublers=rec.doublers),
                   players=rec.players, shown=shown, facts=auction_facts(rec))

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
    @property
    def world_constraints(self) -> tuple[Constraint, ...]:
        """Every constraint the worlds meet: what the auction showed (:attr:`facts`), then every ``--constrain``."""
        return tuple(f.constraint(self.players) for f in self.facts) + tuple(self.constraints)

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
        """Whether the seat is the picker of a Sheepshead game, or Skat's declarer who took up the skat (it knows
        the blind and the bury)."""
        return self.game.kind == "picker" and self.seat == self.declarer and not self.game.hand

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
        """The seat's legal cards now (the seat must be the one to move): the same in every consistent world, so
        worked out from what the seat sees: its cards, the trick on the table, whether the called suit is still
        unopened, and whether the called-card rules bind it (it holds the called card, or it is the declarer).
        """
        if self.to_move != self.seat:
            raise WorldsError("the seat is not the one to move")
        g = self.game
        _, trick, _, called_open = self.public
        partner = None  # the called card's holder, whom its rules bind: only whether it is the seat matters here
        if self.called is not None and self.declarer is not None:
            partner = self.seat if self.called in self.hand else next(
                s for s in range(g.seats) if s not in (self.seat, self.declarer))
        setup = Setup.with_side(g, [frozenset() for _ in range(g.seats)], declarer=self.declarer, partner=partner,
                                called=self.called, under=self.under)
        hand = self.hand - frozenset(self.played_by(self.seat))
        return sorted(legal_cards(setup, self.seat, hand, trick, called_open), key=setup.legal_order.__getitem__)

    def describe(self) -> str:
        """One line: who knows what."""
        name = self.players[self.seat] if self.players else str(self.seat + 1)
        return (f"{name}'s view after {len(self.plays)} card{'s' if len(self.plays) != 1 else ''}: "
                f"{len(self.unseen)} unseen cards ({format_cards(sorted(self.unseen, key=int))})")


def _first_lead_hand(rec: Record, seat: int) -> frozenset[Card]:
    """``seat``'s hand at the first lead as the record gives it (a picker's after the bury); raises
    :class:`WorldsError` when the record does not give it."""
    g = rec.game
    dealt = rec.hands[seat]
    name = rec.players[seat]
    if dealt is None:
        raise WorldsError(f"hands.{name}: {name} plays ouvert: his hand is open to every seat, the record must "
                          "give it")
    if g.kind == "picker" and seat == rec.declarer and not g.hand:
        if rec.blind is None or rec.bury is None:
            raise WorldsError(f"{'blind' if rec.blind is None else 'bury'}: {name} plays ouvert: his hand after "
                              "the bury is open to every seat, the record must give it")
        return frozenset((set(dealt) | set(rec.blind)) - set(rec.bury))
    return frozenset(dealt)


def _open_hands(g: Game, seat: int, declarer: int | None,
                hands: Sequence[Iterable[Card] | None]) -> tuple[tuple[int, frozenset[Card]], ...]:
    """The hands ``seat`` sees besides its own (``hands``: each seat's at the first lead): an ouvert declarer's,
    open to his defenders."""
    if not g.ouvert or declarer is None or declarer == seat:
        return ()
    held = hands[declarer]
    assert held is not None
    return ((declarer, frozenset(held)),)


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
    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> k = before_choice(g, 2, parse_cards("QC QS JD AD 9C TS"), blind=parse_cards("7H 8H"))
    >>> len(k.hand), len(k.unseen), k.remaining(0)
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
