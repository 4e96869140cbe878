"""The reference rules engine: small, plain Python, written to be read.

It is the yardstick the compiled solver is tested against, so it favours the most literal reading of
``docs/RULES.md`` over speed. A :class:`Setup` is everything fixed once play starts (the game, the hands as
the first trick is led, the declaring side, the called card and its rules); a :class:`State` is a position in
the play. States are immutable: :meth:`State.play` returns a new one.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> g = make_game("sheepshead-3")
>>> hands = [parse_cards("QC QS QH QD JC JS JH JD AD TD"), parse_cards("KD 9D 8D 7D AC TC KC 9C 8C 7C"),
...          parse_cards("AS TS KS 9S 8S 7S AH TH KH 9H")]
>>> s = Setup.create(g, hands, declarer=0, blind=parse_cards("8H 7H"), bury=parse_cards("8H 7H")).start()
>>> [str(c) for c in s.legal()][:3]
['QC', 'QS', 'QH']
>>> s = s.play_cards(parse_cards("QC KD AS"))
>>> s.tricks[0].winner, s.tricks[0].points
(0, 18)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import MISSING, dataclass, fields
from functools import cached_property
from typing import TypeVar

from .cards import Card, format_cards
from .games import Game

__all__ = ["Setup", "State", "Trick", "RulesError", "trick_winner", "legal_calls", "Call"]


class RulesError(ValueError):
    """A play or a setup the rules forbid; the message names the player, trick and card."""


@dataclass(frozen=True)
class Call:
    """A legal partner call: ``card`` None means alone; ``under`` True means a card must go under."""

    card: Card | None
    under: bool = False

    def __str__(self) -> str:
        if self.card is None:
            return "alone"
        return str(self.card) + (" (under)" if self.under else "")


def legal_calls(game: Game, hand: Iterable[Card], bury: Iterable[Card] = ()) -> list[Call]:
    """Partner calls open to the picker (Sheepshead called-ace) or declarer (sauspiel).

    ``hand`` is the hand kept for play (after the bury); ``bury`` the buried cards. The called card's suit must
    keep a hold card in ``hand``; Sheepshead falls back to tens when the picker has all three fail aces, and to
    an ace of a void suit with a card under when every fail suit he holds contains its ace.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> [str(c) for c in legal_calls(make_game("sauspiel"), parse_cards("QC QS 7C AS 9S KD 8H 9H"))]
    ['AC', 'AD']
    """
    hand = list(hand)
    held = set(hand) | set(bury)
    if game.partner == "sauspiel":
        out = []
        for s in game.plain_suits:
            ace = Card.make("A", s)
            if ace in held or game.is_trump(ace):
                continue
            if any(game.suit_class(c) == s for c in hand):
                out.append(Call(ace))
        return out
    if game.partner != "called-ace":
        return []
    fail = [s for s in game.plain_suits]
    out = [Call(None)]
    aces = [Card.make("A", s) for s in fail]
    if all(a in held for a in aces):
        for s in fail:
            ten = Card.make("T", s)
            if ten not in held and any(game.suit_class(c) == s for c in hand):
                out.append(Call(ten))
        return out
    normal = [Call(Card.make("A", s)) for s in fail
              if Card.make("A", s) not in held and any(game.suit_class(c) == s for c in hand)]
    if normal:
        return out + normal
    for s in fail:
        if Card.make("A", s) not in held and not any(game.suit_class(c) == s for c in hand):
            out.append(Call(Card.make("A", s), under=True))
    return out


def trick_winner(game: Game, cards: Sequence[Card], under: Card | None = None,
                 under_class: str | None = None) -> int:
    """Index in ``cards`` (in play order) of the card that wins the trick.

    Highest trump wins, else the highest card of the led suit class. The card put *under* (Sheepshead called
    ace) belongs to ``under_class`` (the called suit) and ranks below every card of it, so it never wins.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> trick_winner(make_game("sheepshead"), parse_cards("AC 7D TC QC JD"))
    3
    >>> trick_winner(make_game("wenz"), parse_cards("AS QS JD KS"))
    2
    """

    def cls(c: Card) -> str:
        return under_class if (c == under and under_class is not None) else game.suit_class(c)

    lead = cls(cards[0])
    best, best_key = 0, (-1, 0)
    for i, c in enumerate(cards):
        if c == under:
            key = (1, 0) if cls(c) == lead else (0, 0)
        elif game.is_trump(c):
            key = (2, game.strength(c))
        elif cls(c) == lead:
            key = (1, game.strength(c))
        else:
            key = (0, 0)
        if key > best_key:
            best, best_key = i, key
    return best


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class Setup:
    """Everything fixed when play starts."""

    game: Game
    hands: tuple[frozenset[Card], ...]  # the hands at the first lead (blind taken, bury removed)
    declarer: int | None = None  # picker / declarer seat
    partner: int | None = None  # seat of the partner (None: alone or no partner)
    team: frozenset[int] = frozenset()  # the declaring side ('' for leaster and ramsch)
    bury: tuple[Card, ...] = ()
    blind: tuple[Card, ...] = ()
    called: Card | None = None
    under: Card | None = None
    hold_rule: bool = False  # Sheepshead called ace: the picker keeps his last hold card
    run_min: int | None = None  # the partner may lead the called suit with another card holding this many
    throw_off_last_only: bool = True  # R2
    first_leader: int = 0
    # a position set by its cards (a record with ``position = true``): what each seat took before it, card points
    # and tricks (empty: a hand played from its first lead). The objectives and the sides' tallies count them; in
    # a two-sided game only the sides' totals are known (the declarer's seat holds his side's, the first
    # defender's the defenders'), so State's per-seat tallies count them only in ramsch and leaster
    past_points: tuple[int, ...] = ()
    past_tricks: tuple[int, ...] = ()

    @classmethod
    def create(
        cls,
        game: Game,
        hands: Sequence[Iterable[Card]],
        *,
        declarer: int | None = None,
        blind: Iterable[Card] = (),
        bury: Iterable[Card] = (),
        called: Card | None = None,
        under: Card | None = None,
        alone: bool = False,
    ) -> "Setup":
        """Build the setup from the hands *as dealt*; the declarer (picker) takes the blind and buries.

        The declaring side follows the game: the jack-of-diamonds holder, the called card's holder, or nobody.
        Raises :class:`RulesError` naming the key for a card dealt twice or outside the deck, hands of unequal
        size, a wrong bury, a missing declarer, or a call (``called``, ``under``, ``alone``) that
        :func:`legal_calls` does not allow. Hands smaller than the game's (test positions) are accepted.

        It is :meth:`check_deal`, then :meth:`partner_in` and :meth:`with_side`.
        """
        blind = tuple(blind)
        bury = tuple(bury)
        at_lead = cls.check_deal(game, hands, declarer=declarer, blind=blind, bury=bury, called=called,
                                 under=under, alone=alone)
        partner = cls.partner_in(game, at_lead, declarer, bury=bury, called=called, alone=alone)
        if under is not None:
            if declarer is None or under not in at_lead[declarer]:
                raise RulesError(f"under: {under} is not in the picker's hand")
        return cls.with_side(game, at_lead, declarer=declarer, partner=partner, blind=blind, bury=bury,
                             called=called, under=under)

    @staticmethod
    def check_deal(game: Game, hands: Sequence[Iterable[Card]], *, declarer: int | None = None,
                   blind: Sequence[Card] = (), bury: Sequence[Card] = (), called: Card | None = None,
                   under: Card | None = None, alone: bool = False) -> tuple[frozenset[Card], ...]:
        """Check the deal (the hands *as dealt*, the blind, the bury) and the call as :meth:`create` does, and
        give the hands at the first lead (the picker's with the blind taken and the bury removed).

        >>> from sheepsolve.games import make_game
        >>> from sheepsolve.cards import parse_cards
        >>> g = make_game("sheepshead-3")
        >>> hands = [parse_cards("QC QS QH QD JC JS JH JD AD TD"), parse_cards("KD 9D 8D 7D AC TC KC 9C 8C 7C"),
        ...          parse_cards("AS TS KS 9S 8S 7S AH TH KH 9H")]
        >>> lead = Setup.check_deal(g, hands, declarer=0, blind=parse_cards("8H 7H"), bury=parse_cards("AD TD"))
        >>> sorted(map(str, lead[0]))[:3]
        ['7H', '8H', 'JC']
        """
        n = game.seats
        hs = [list(h) for h in hands]
        blind = tuple(blind)
        bury = tuple(bury)
        if len(hs) != n:
            raise RulesError(f"hands: {game.name} has {n} players, got {len(hs)} hands")
        dealt = [c for h in hs for c in h] + list(blind)
        dealt_set = set(dealt)
        if len(dealt_set) != len(dealt) or not dealt_set.issubset(game.deck):  # find the first fault, to name it
            seen: set[Card] = set()
            for where, cards in ([(f"hand of player {i + 1}", h) for i, h in enumerate(hs)]
                                 + [("blind", list(blind))]):
                for c in cards:
                    if c not in game.deck:
                        raise RulesError(f"{where}: {c} is not a card of the {game.name} deck")
                    if c in seen:
                        raise RulesError(f"{where}: {c} is dealt twice")
                    seen.add(c)
        if declarer is not None and declarer not in range(n):
            raise RulesError(f"declarer: seat {declarer!r} is not one of 0..{n - 1}")
        if game.kind in ("picker", "contract") and declarer is None:
            raise RulesError("picker: missing" if game.kind == "picker" else "declarer: missing")
        if blind and game.kind not in ("picker", "leaster"):
            raise RulesError(f"blind: {game.name} has no blind")
        if game.kind == "picker":
            picked = hs[declarer] + list(blind)  # type: ignore[index]
            for c in bury:
                if c not in picked:
                    raise RulesError(f"bury: {c} is not in the picker's hand or the blind")
            if len(set(bury)) != len(bury) or len(bury) != len(blind):
                raise RulesError(f"bury: the picker buries as many cards as he picked up ({len(blind)}), "
                                 f"got {format_cards(bury) or 'none'}")
            hs[declarer] = [c for c in picked if c not in bury]  # type: ignore[index]
        elif bury:
            raise RulesError(f"bury: {game.name} has no bury")
        sizes = [len(h) for h in hs]
        if len(set(sizes)) != 1 or sizes[0] > game.hand_size:
            raise RulesError(f"hands: every player must hold the same number of cards (at most {game.hand_size}) "
                             f"when play starts, got {', '.join(map(str, sizes))}")
        if game.kind == "picker" and sizes[0] == game.hand_size and len(blind) != game.blind_size:
            raise RulesError(f"blind: {game.name} has {game.blind_size} cards in the blind, got {len(blind)}")
        if game.partner in ("called-ace", "sauspiel"):
            if alone and called is not None:
                raise RulesError(f"called: {called} is called, but the picker plays alone")
            call = Call(None) if called is None else Call(called, under is not None)
            allowed = legal_calls(game, hs[declarer], bury)  # type: ignore[index]
            if call not in allowed:
                if called is None:
                    why = "a sauspiel needs a called ace"
                elif Call(called, not call.under) in allowed:
                    why = ("a card goes under only when calling the ace of a void suit" if call.under else
                           f"calling {called} from a void suit needs a card under")
                else:
                    why = f"{call} is not a call the rules allow with this hand"
                raise RulesError(f"called: {why} (allowed: {', '.join(map(str, allowed)) or 'none'})")
        elif called is not None or under is not None:
            raise RulesError(f"called: {game.name} has no called card (partner rule: {game.partner})")
        return tuple(frozenset(h) for h in hs)

    @staticmethod
    def partner_in(game: Game, hands: Sequence[Iterable[Card]], declarer: int | None, *, bury: Iterable[Card] = (),
                   called: Card | None = None, alone: bool = False) -> int | None:
        """The declarer's partner in ``hands`` (at the first lead): the holder of the jack of diamonds (with
        ``call_up``, of the highest jack the picker lacks), or of the called card; None when the declarer plays
        alone, the game has no partner, or (a position dealt without it) nobody holds the partner's jack. Raises
        :class:`RulesError` when the called card is not in another player's hand."""
        if game.kind not in ("picker", "contract"):
            return None
        hs = [set(h) for h in hands]
        if game.partner == "jack-of-diamonds" and not alone:
            jd = Card.make("J", "D")
            mine = hs[declarer] | set(bury)  # type: ignore[index]
            target = jd
            if jd in mine and game.rules.get("call_up"):
                target = next((Card.make("J", s) for s in "CSHD" if Card.make("J", s) not in mine), None)
            if target is not None and target not in mine:
                # None only in a position dealt without the partner's jack
                return next((i for i, h in enumerate(hs) if target in h), None)
        elif game.partner in ("called-ace", "sauspiel") and called is not None:
            holder = next((i for i, h in enumerate(hs) if called in h), None)
            if holder is None or holder == declarer:
                raise RulesError(f"called: {called} must be in another player's hand")
            return holder
        return None

    @classmethod
    def with_side(cls, game: Game, hands: Sequence[Iterable[Card]], *, declarer: int | None = None,
                  partner: int | None = None, blind: Iterable[Card] = (), bury: Iterable[Card] = (),
                  called: Card | None = None, under: Card | None = None) -> "Setup":
        """The setup of ``hands`` at the first lead with the declaring side ``declarer`` and ``partner`` given,
        checking nothing: the team, and with a called card (kept only when there is a partner) the called-card
        rules the game sets. :meth:`create` checks the deal and finds the partner first."""
        team: set[int] = set()
        hold_rule = False
        run_min = None
        if game.kind in ("picker", "contract"):
            team.add(declarer)  # type: ignore[arg-type]
            if partner is not None:
                team.add(partner)
                if game.partner in ("called-ace", "sauspiel") and called is not None:
                    hold_rule = game.partner == "called-ace"
                    if game.partner == "sauspiel":
                        run_min = game.rules.get("run_min", 4)
                    elif game.rules.get("run"):
                        run_min = 4
        return cls(game=game, hands=tuple(frozenset(h) for h in hands), declarer=declarer, partner=partner,
                   team=frozenset(team), bury=tuple(bury), blind=tuple(blind),
                   called=called if partner is not None else None, under=under, hold_rule=hold_rule,
                   run_min=run_min, throw_off_last_only=bool(game.rules.get("called_throw_off_last_only", True)))

    @property
    def called_class(self) -> str | None:
        return self.game.suit_class(self.called) if self.called is not None else None

    def suit_class(self, card: Card) -> str:
        """A card's class; the card under stands for the called suit."""
        if card == self.under and self.called is not None:
            return self.game.suit_class(self.called)
        return self.game.suit_class(card)

    @cached_property
    def card_classes(self) -> dict[Card, str]:
        """:meth:`suit_class` of every card of the deck, worked out once."""
        return {c: self.suit_class(c) for c in self.game.deck}

    @cached_property
    def legal_order(self) -> dict[Card, int]:
        """Every card's place in the order of :meth:`State.legal`: class order (trump first), then strongest
        first."""
        order = self.game.sort_cards(self.game.deck, self.card_classes.__getitem__)
        return {c: i for i, c in enumerate(order)}

    def start(self) -> "State":
        # State(setup=self, hands=self.hands, leader=self.first_leader), see frozen_instance
        return frozen_instance(State, STATE_DEFAULTS, setup=self, hands=self.hands, leader=self.first_leader)


def legal_cards(st: Setup, seat: int, hand: frozenset[Card], trick: tuple[Card, ...], called_open: bool) -> set[Card]:
    """The cards of ``hand`` that ``seat`` may play onto ``trick`` (empty: a lead) while the called suit is still
    unopened (``called_open``), unordered. Following suit binds every seat; the called-card rules bind only the
    seats of :func:`rule_bound_seats`.
    """
    cls = st.card_classes
    last_trick = len(hand) == 1
    restricted = st.called is not None and called_open
    cc = st.called_class
    if not trick:
        cands = set(hand)
        if restricted and seat == st.partner and st.called in hand:
            suit = {c for c in hand if cls[c] == cc}
            if st.run_min is None or len(suit) < st.run_min:
                cands -= suit - {st.called}
        return cands
    led = cls[trick[0]]
    follow = {c for c in hand if cls[c] == led}
    if follow:
        if restricted and seat == st.partner and led == cc and st.called in hand:
            return {st.called}
        return follow
    cands = set(hand)
    if restricted and not last_trick:
        if seat == st.partner and st.called in hand and st.throw_off_last_only:
            cands.discard(st.called)
        if st.hold_rule and seat == st.declarer:
            holds = [c for c in hand if cls[c] == cc]
            if len(holds) == 1:
                cands.discard(holds[0])
    return cands or set(hand)


def rule_bound_seats(st: Setup) -> frozenset[int]:
    """The seats whose legal cards may be fewer than following suit allows (:func:`legal_cards`): with a called
    card, its holder (the partner) and the declarer (the hold rule); nobody without one."""
    if st.called is None:
        return frozenset()
    return frozenset(s for s in (st.partner, st.declarer) if s is not None)


@dataclass(frozen=True)
class State:
    """A position in the play. ``trick`` holds the cards of the unfinished trick in play order."""

    setup: Setup
    hands: tuple[frozenset[Card], ...]
    leader: int
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    called_open: bool = True  # the called suit has not been led in a finished trick

    @property
    def game(self) -> Game:
        return self.setup.game

    @property
    def seats(self) -> int:
        """The number of players."""
        return self.setup.game.seats

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)  # one hand per seat

    @property
    def finished(self) -> bool:
        return not self.trick and not any(self.hands)

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played."""
        return len(self.tricks) + 1

    def legal(self) -> list[Card]:
        """Legal cards of the player to move, strongest first within class order."""
        cached = self.__dict__.get("_legal")  # worked out once per state (a state never changes)
        if cached is None:
            cached = tuple(self._legal_now())
            object.__setattr__(self, "_legal", cached)
        return list(cached)

    def _legal_now(self) -> list[Card]:
        if self.finished:
            return []
        st = self.setup
        cands = legal_cards(st, self.to_move, self.hands[self.to_move], self.trick, self.called_open)
        return sorted(cands, key=st.legal_order.__getitem__)

    def why_illegal(self, card: Card) -> str | None:
        """None if ``card`` may be played now, else the reason in words."""
        seat = self.to_move
        if card not in self.hands[seat]:
            return f"{card} is not in the hand of player {seat + 1}"
        if card in self.legal():
            return None
        st = self.setup
        if self.trick:
            led = st.suit_class(self.trick[0])
            follow = [c for c in self.hands[seat] if st.suit_class(c) == led]
            if follow and st.suit_class(card) != led:
                what = "trump" if led == "T" else f"suit {led}"
                return f"revoke: {card} does not follow {what} ({format_cards(follow)} in hand)"
            if follow:
                return f"the called card {st.called} must be played when its suit is first led"
            if card == st.called:
                return f"the called card {st.called} may not be thrown off before its suit is led"
            return f"the picker may not throw off his last hold card {card} before the called suit is led"
        return f"the called suit may be led only with the called card {st.called}"

    def play(self, card: Card, *, check: bool = True) -> "State":
        """Play ``card`` for the player to move; raises :class:`RulesError` if it is illegal.

        ``check=False`` skips the legality check, for callers that took the card from :meth:`legal`.
        """
        if check:
            why = self.why_illegal(card)
            if why is not None:
                raise RulesError(why)
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] = hands[seat] - {card}
        trick = self.trick + (card,)
        if len(trick) < self.seats:
            return State(setup=self.setup, hands=tuple(hands), leader=self.leader, trick=trick, tricks=self.tricks,
                         called_open=self.called_open)
        w = (self.leader + trick_winner(self.game, trick, self.setup.under, self.setup.called_class)) % self.seats
        pts = sum(c.points for c in trick)
        opened = self.called_open
        if self.setup.called is not None and self.setup.suit_class(trick[0]) == self.setup.called_class:
            opened = False
        done = Trick(leader=self.leader, cards=trick, winner=w, points=pts)
        return State(setup=self.setup, hands=tuple(hands), leader=w, trick=(), tricks=self.tricks + (done,),
                     called_open=opened)

    def play_cards(self, cards: Iterable[Card]) -> "State":
        s = self
        for c in cards:
            s = s.play(c)
        return s

    # -- tallies ------------------------------------------------------------------------------------------------
    def trick_points(self) -> list[int]:
        """Card points each seat has taken in finished tricks (no bury, no blind); in ramsch and leaster a
        position's earlier tricks (:attr:`Setup.past_points`) included."""
        pts = list(self.setup.past_points) if self.setup.past_points and not self.game.two_sided else [0] * self.seats
        for t in self.tricks:
            pts[t.winner] += t.points
        return pts

    def tricks_taken(self) -> list[int]:
        """Tricks each seat has taken; in ramsch and leaster a position's earlier ones (:attr:`Setup.past_tricks`)
        included."""
        out = list(self.setup.past_tricks) if self.setup.past_tricks and not self.game.two_sided else [0] * self.seats
        for t in self.tricks:
            out[t.winner] += 1
        return out

    def points_remaining(self) -> int:
        return sum(c.points for h in self.hands for c in h) + sum(c.points for c in self.trick)


_T = TypeVar("_T")


def frozen_instance(cls: type[_T], values: dict, **more: object) -> _T:
    """An instance of the frozen dataclass ``cls`` whose fields are ``values`` and ``more`` (every field: its
    defaults are not filled in), as ``cls(**values, **more)`` makes it but without its ``__init__``, which sets
    each field through ``object.__setattr__``: a tenth of the Python around each of a picker view's solves. For
    classes without ``__post_init__`` only."""
    obj = object.__new__(cls)
    obj.__dict__.update(values, **more)
    return obj


# The defaults of State's fields, for Setup.start
STATE_DEFAULTS = {f.name: f.default for f in fields(State) if f.default is not MISSING}
