"""Teaching the choices made before the first lead: the bury, the call, picking or passing, the contract.

The questions, the bury answered two ways where the record allows:

- :func:`rank_buries`: every legal bury (with the called-ace call, and the card *under*, where the partner rule
  has them) solved double dummy on the actual deal, best first;
- :func:`sample_buries`: the same choices from the picker's view: the cards he cannot see are dealt at random
  ``worlds`` times (uniformly, consistent with his hand and the blind) and every choice is solved in the *same*
  worlds (common random numbers), so the differences between choices are measured with little noise;
- :func:`pick_or_pass` and :func:`choose_contract`: the expected payment of picking (Sheepshead) or of every
  contract a Schafkopf hand may declare, against passing.

Readings
--------
- *value* is the declaring side's final card points, the bury counted, under perfect play by everyone
  (:meth:`Solver.value <sheepsolve.solver.Solver.value>` on ``Setup.create(...).start()``).
- *outcome* is the judge's (:mod:`sheepsolve.judge`): the points decide, and schwarz (every trick) and
  schwarzed (no trick) are decided by a trick search (``Solver.reach(state, n, tricks=True)``), run only when
  the value makes them possible (all the points, or no points beyond the bury: :func:`~sheepsolve.judge.trick_question`).
- *payment* is the **picker's (declarer's) own** net payment in units (Sheepshead) or in the tariff's money
  (Schafkopf), every multiplier applied (:func:`sheepsolve.scoring.seat_payment` of his seat): every defender's
  payment, two thirds of it when a Sheepshead picker has a partner, one defender's share in a sauspiel. This is
  what the choice is worth to the one who makes it: going alone pays four defenders double, a called ace only two
  thirds of three single payments.
- Ranking: by payment, then by points (``by="payment"``, the default), or by points, then payment
  (``by="points"``). Choices with the same numbers share a rank.
- Buries that cannot differ in play are solved once: two cards of the picker's of the same suit class and
  points with no other player's card between them in rank are interchangeable (the jack of diamonds, every jack
  under ``call_up``, and the black queens under ``blitz`` are always kept apart). Every legal choice is still
  listed.
- Picking (:func:`pick_or_pass`): in each world the picker takes that world's blind and makes the best
  double-dummy choice *of that world* (he is credited with seeing every card when he buries: an optimistic
  reading); passing is worth 0 (what follows a pass, a leaster or another player's pick, is out of scope).
- Schafkopf (:func:`choose_contract`): the contracts are the sauspiel on every ace the hand may call, a solo in
  each suit, wenz, geier, farbwenz and farbgeier in each suit, the tout form of each solo-type contract (won when
  the declarer takes every trick), and sie when the hand holds every Ober and Unter; the record's
  ``[rules]`` (a preset may forbid some) and deck apply. Passing is worth 0.
- Statistics over ``N`` worlds: means with standard errors (sample standard deviation / sqrt(N)); P(61+),
  P(91+): the share of worlds with that many points; P(schwarz): the share where the declaring side can take
  every trick; ``vs_best``: the world-by-world difference to the best choice, whose standard error (common random
  numbers) is far smaller than the choices' own.
- Worlds: the player's-view worlds of :mod:`sheepsolve.worlds`, dealt before any choice is made
  (:func:`~sheepsolve.worlds.before_choice`, :meth:`WorldSampler.deal <sheepsolve.worlds.WorldSampler.deal>`):
  every deal of the unseen cards equally likely. World ``i`` is dealt with ``worlds.world_rng(seed, i)`` and the
  results are reduced in world order, so a seed gives the same answer whatever the number of processes
  (``jobs``).
  ``worlds="all"`` solves every deal once, in a fixed order (:meth:`WorldSampler.all_deals
  <sheepsolve.worlds.WorldSampler.all_deals>`, refused above 20,000 deals): exact means, no standard error.
- Ties: a choice whose shortfall to the best, world by world, is at most two of its standard errors ties with it
  (:func:`~sheepsolve.worlds.within_noise`, the rule ``suggest`` applies to cards); ``best`` lists the ties. In
  ``choose`` and ``pick`` passing (0 in every world) takes part.
- Lessons (:meth:`BuryRanking.lesson_text`): from the picker's view, where no best choice on the actual deal is
  among the best in expectation, and where the record's own bury is not, what it costs in expectation against the
  best (:meth:`BuryRanking.record_cost`), which needs only the picker's hand, the blind and the bury.
- Caveat (said by every command): each world is solved double dummy, so the figures read the picker (declarer)
  optimistically.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> g = make_game("sheepshead-3")
>>> hands = [parse_cards("QC 7S"), parse_cards("AS TS"), parse_cards("AC KS")]
>>> r = rank_buries(g, hands, parse_cards("JD 8S"), picker=0)
>>> [(" ".join(map(str, row.decision.bury)), row.value, row.outcome, row.payment, row.rank) for row in r.rows][:3]
[('8S 7S', 41, 'schwarz', 6, 1), ('QC 8S', 26, 'schneidered', -4, 2), ('QC 7S', 26, 'schneidered', -4, 2)]
>>> len(r.rows), r.solved  # 8S and 7S are interchangeable: 6 buries, 4 solved
(6, 4)

Small deals (fewer cards than a full hand, as here) are scored on the full game's scale: 61 and 91 points.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import Card, format_card, format_cards
from .engine import Setup, frozen_instance, legal_calls
from .games import JACKS, QUEENS, REGISTRY, Game, GameError, make_game, resolve_name
from .objective import Objective
from .record import Record, RecordError, parse_data, read_record_file, record_from_dict
from .judge import no_trick_points, outcome_by_tricks, trick_readings, tricks_taken
from .scoring import Stakes, outcome_for, payment_terms, seat_payment
from .solver import Solver, SolverError
from .worlds import (MAX_JOBS, PARALLEL_AFTER_SECONDS, WorldSampler, before_choice, default_jobs, game_from_spec,
                     game_spec, map_units, mean_se, rounded, within_noise, worker_count, world_rng, ALL_WORLDS_CAP)

__all__ = [
    "BuryError",
    "BuryDecision",
    "Contract",
    "Sampled",
    "BuryRow",
    "SampledRow",
    "BuryRanking",
    "PickResult",
    "ContractRow",
    "ChoiceResult",
    "legal_decisions",
    "contracts_for",
    "rank_buries",
    "sample_buries",
    "pick_or_pass",
    "choose_contract",
    "default_jobs",
    "worker_count",
    "MAX_JOBS",
    "read_bury_record",
    "read_pick_record",
    "read_choose_record",
    "bury_from_record",
    "pick_from_record",
    "choose_from_record",
]

ProgressFn = Callable[[int, int], None]
"""Called after each unit of work with (units done, units in all)."""

BURY_CAVEAT = ("each world is solved double dummy (every player sees every card once the play starts), so the "
               "figures read the picker optimistically")
"""The caveat ``bury`` states from the picker's view (``pick`` states the same of picking)."""
BURY_CAVEAT_ACTUAL = ("every player is read as seeing every card, which no player does: the ranking says what "
                      "each choice is worth on this lie of the cards")
"""The caveat of the double-dummy ranking on the actual deal."""
CHOOSE_CAVEAT = ("each world is solved double dummy (every player sees every card once the play starts), so the "
                 "figures read the declarer optimistically")
"""The caveat ``choose`` states."""


class BuryError(SolverError):
    """A question these tools cannot answer for this record or these arguments."""


# --------------------------------------------------------------------------------------------------------------
# Choices


@dataclass(frozen=True)
class BuryDecision:
    """One choice of the picker: the cards buried, the call (``called`` card, or ``alone`` by choice in the
    called-ace game) and the card put *under* when the call needs one.

    >>> from sheepsolve.cards import parse_cards
    >>> BuryDecision(tuple(parse_cards("AS 7H")), called=Card.parse("AC")).to_dict()
    {'cards': ['AS', '7H'], 'call': 'AC', 'under': None}
    """

    bury: tuple[Card, ...]
    called: Card | None = None
    under: Card | None = None
    alone: bool = False  # the picker chose to go alone (called-ace); a forced alone is in the result rows

    @property
    def call(self) -> str | None:
        """``"AC"``, ``"alone"`` (chosen) or None (no call in this game)."""
        if self.called is not None:
            return str(self.called)
        return "alone" if self.alone else None

    def label(self, style: str = "ascii") -> str:
        """``KS 8C, call AH, TS under`` in one notation (a :func:`~sheepsolve.cards.format_card` style)."""
        out = format_cards(self.bury, style)
        if self.called is not None:
            out += f", call {format_card(self.called, style)}"
        elif self.alone:
            out += ", call alone"
        if self.under is not None:
            out += f", {format_card(self.under, style)} under"
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"cards": [str(c) for c in self.bury], "call": self.call,
                "under": str(self.under) if self.under is not None else None}

    def _key(self) -> tuple:
        return (tuple(int(c) for c in self.bury), -1 if self.called is None else int(self.called),
                -1 if self.under is None else int(self.under), self.alone)

    @staticmethod
    def _from_key(k: tuple) -> "BuryDecision":
        return BuryDecision(tuple(Card(c) for c in k[0]), None if k[1] < 0 else Card(k[1]),
                        None if k[2] < 0 else Card(k[2]), k[3])


@dataclass(frozen=True)
class Contract:
    """A Schafkopf contract the declarer may announce.

    >>> Contract("sauspiel", called=Card.parse("AS")).label(), Contract("wenz", tout=True).label()
    ('sauspiel AS', 'wenz tout')
    """

    game: str  # sauspiel, solo, wenz, geier, farbwenz, farbgeier, sie
    trump: str | None = None
    called: Card | None = None
    tout: bool = False

    def label(self) -> str:
        out = self.game
        if self.called is not None:
            out += f" {self.called}"
        if self.trump is not None:
            out += f" {self.trump}"
        return out + (" tout" if self.tout else "")

    def to_dict(self) -> dict[str, Any]:
        return {"contract": self.label(), "game": self.game, "trump": self.trump,
                "called": str(self.called) if self.called is not None else None, "tout": self.tout}

    def _key(self) -> tuple:
        return (self.game, self.trump, -1 if self.called is None else int(self.called), self.tout)

    @staticmethod
    def _from_key(k: tuple) -> "Contract":
        return Contract(k[0], k[1], None if k[2] < 0 else Card(k[2]), k[3])


def legal_decisions(game: Game, picked: Iterable[Card], others: Iterable[Card] | None = None) -> list[BuryDecision]:
    """Every legal (bury, call, under) choice of a picker holding ``picked`` (his hand and the blind).

    The called-ace hold-card rule comes from :func:`sheepsolve.engine.legal_calls` on the kept hand: a bury
    that leaves no hold card for a suit removes that suit's call. Going alone is always allowed there. Under
    the other partner rules only the bury is chosen. ``others``: the cards in the other hands, when not the
    whole rest of the deck (small deals): a card not among them cannot be called.

    >>> from sheepsolve.cards import parse_cards
    >>> picked = parse_cards("QC QS JD AD 9C TS 7H 8H")
    >>> len(legal_decisions(make_game("sheepshead"), picked))
    28
    >>> ds = legal_decisions(make_game("sheepshead", partner="called-ace"), picked)
    >>> sorted({d.call for d in ds})
    ['AC', 'AH', 'AS', 'alone']
    >>> any(d.call == "AC" and Card.parse("9C") in d.bury for d in ds)
    False
    """
    picked = game.sort_cards(picked)
    elsewhere = set(others) if others is not None else None
    out: list[BuryDecision] = []
    for bury in itertools.combinations(picked, game.bury_size):
        kept = [c for c in picked if c not in bury]
        if game.partner != "called-ace":
            out.append(BuryDecision(tuple(bury)))
            continue
        for call in legal_calls(game, kept, bury):
            if elsewhere is not None and call.card is not None and call.card not in elsewhere:
                continue
            if call.card is None:
                out.append(BuryDecision(tuple(bury), alone=True))
            elif call.under:
                out.extend(BuryDecision(tuple(bury), called=call.card, under=u) for u in kept)
            else:
                out.append(BuryDecision(tuple(bury), called=call.card))
    return out


def contracts_for(game: Game, hand: Iterable[Card]) -> list[Contract]:
    """Every contract a Schafkopf declarer holding ``hand`` may announce, under ``game``'s deck, seats and rules.

    >>> from sheepsolve.cards import parse_cards
    >>> cs = contracts_for(make_game("sauspiel"), parse_cards("QC QS JH AH 7C 9S KS 8D"))
    >>> [c.label() for c in cs][:5], len(cs)
    (['sauspiel AC', 'sauspiel AS', 'sauspiel AD', 'solo C', 'solo S'], 31)
    >>> len(contracts_for(make_game("sauspiel", rules={"preset": "gametwist"}), parse_cards("QC QS JH AH 7C 9S KS 8D")))
    15
    """
    hand = list(hand)
    out: list[Contract] = []
    for spec in _contract_games(game):
        name, trump, tout = spec
        try:
            g = _make_contract_game(game, name, trump, tout)
        except GameError:
            continue
        if name == "sauspiel":
            out.extend(Contract("sauspiel", called=c.card) for c in legal_calls(g, hand))
        elif name == "sie":
            if all(c in hand for c in QUEENS + JACKS):
                out.append(Contract("sie"))
        else:
            out.append(Contract(name, trump, tout=tout))
    return out


def sauspiel_blocks(game: Game, hand: Iterable[Card]) -> list[tuple[Card, str]]:
    """Why ``hand`` can call no Sau (and so play no sauspiel): for each Sau that could be called, ``"held"``
    (the declarer holds it himself) or ``"void"`` (he keeps no card of its suit that is not a trump). Empty when
    some Sau can be called.

    >>> from sheepsolve.cards import parse_cards
    >>> [(str(a), why) for a, why in sauspiel_blocks(make_game("sauspiel"), parse_cards("QC QS AC 9C JD JH 7H 8H"))]
    [('AC', 'held'), ('AS', 'void'), ('AD', 'void')]
    >>> sauspiel_blocks(make_game("sauspiel"), parse_cards("QC QS AC 9C 8D JH 7H 8H"))
    []
    """
    hand = list(hand)
    base = _make_contract_game(game, "sauspiel", None, False)
    if legal_calls(base, hand):
        return []
    aces = [Card.make("A", s) for s in base.plain_suits if not base.is_trump(Card.make("A", s))]
    return [(a, "held" if a in hand else "void") for a in aces]


def _contract_games(game: Game) -> list[tuple[str, str | None, bool]]:
    out: list[tuple[str, str | None, bool]] = [("sauspiel", None, False)]
    for tout in (False, True):
        out += [("solo", t, tout) for t in "CSHD"]
        out += [("wenz", None, tout), ("geier", None, tout)]
        out += [("farbwenz", t, tout) for t in "CSHD"]
        out += [("farbgeier", t, tout) for t in "CSHD"]
    out.append(("sie", None, False))
    return out


def _make_contract_game(base: Game, name: str, trump: str | None, tout: bool) -> Game:
    return make_game(name, trump=trump, deck="short" if len(base.deck) < 32 else "long", tout=tout or None,
                     seats=base.seats, rules=dict(base.rules))


# --------------------------------------------------------------------------------------------------------------
# Interchangeable cards: buries that cannot differ in play.


def _card_groups(game: Game, picked: Iterable[Card]) -> dict[Card, int]:
    """Group the picker's cards: same class, same points, no other card between them in rank."""
    picked = set(picked)
    special: set[Card] = set()
    if game.partner == "jack-of-diamonds":
        special |= set(JACKS) if game.rules.get("call_up") else {Card.make("J", "D")}
    if game.rules.get("blitz"):
        special |= {Card.make("Q", "C"), Card.make("Q", "S")}
    groups: dict[Card, int] = {}
    gid = 0
    for cls in game.classes:
        prev: Card | None = None
        for c in game.class_cards(cls):
            if c not in picked:
                prev = None
                continue
            if prev is not None and c not in special and prev.points == c.points:
                groups[c] = groups[prev]
            else:
                groups[c] = gid
                gid += 1
            prev = None if c in special else c
    return groups


def _merge(decisions: Sequence[BuryDecision],
           groups: Mapping[Card, int] | None) -> tuple[list[BuryDecision], list[int]]:
    """Representative decisions and, for every decision, the index of its representative."""
    reps: list[BuryDecision] = []
    where: dict[tuple, int] = {}
    index: list[int] = []
    for d in decisions:
        if groups is None:
            sig: tuple = d._key()
        else:
            sig = (tuple(sorted(groups[c] for c in d.bury)), d.called, d.alone,
                   None if d.under is None else groups[d.under])
        if sig not in where:
            where[sig] = len(reps)
            reps.append(d)
        index.append(where[sig])
    return reps, index


# --------------------------------------------------------------------------------------------------------------
# Solving one choice in one deal.


class _Eval(NamedTuple):
    value: int | None  # None for tout and sie (not a points question)
    outcome: str
    payment: int
    alone: bool
    tricks_all: bool  # the declaring side takes every trick (schwarz / tout won)
    nodes: int = 0


_CARD_POINTS = tuple(Card(i).points for i in range(32))  # by card number


def _own_payment(setup: Setup, outcome: str, stakes: Stakes) -> int:
    """The declarer's own payment: :func:`~sheepsolve.scoring.seat_payment` of his seat."""
    return seat_payment(setup, setup.declarer, outcome, stakes)  # type: ignore[arg-type]


_TRICK_SOLVERS: "weakref.WeakKeyDictionary[Solver, Solver]" = weakref.WeakKeyDictionary()


def _trick_solver(solver: Solver) -> Solver:
    """A second solver for the trick questions (schwarz) asked next to ``solver``'s value searches: they need
    other tables, and loading those into ``solver`` would clear the table the next choice's search reuses
    (20 5-hand jack-of-diamonds deals: 12% fewer nodes)."""
    t = _TRICK_SOLVERS.get(solver)
    if t is None:
        t = _TRICK_SOLVERS[solver] = Solver()
    return t


def _evaluate(solver: Solver, setup: Setup, stakes: Stakes, guess: int | None = None,
              total: int | None = None, obj: Objective | None = None,
              own_payment: Callable[[Setup, str, Stakes], int] | None = None) -> _Eval:
    """Value, outcome and the declarer's payment of one setup, double dummy (``guess``: where the value search
    starts, see :meth:`Solver.value <sheepsolve.solver.Solver.value>`; it never changes the answer; ``total``:
    the points of every card in the hands and the bury, if known; ``obj``: ``Objective.for_setup(setup)``, if
    made already; ``own_payment``: :func:`_own_payment` or one that gives the same, say remembered)."""
    if own_payment is None:
        own_payment = _own_payment
    g = setup.game
    state = setup.start()
    ntricks = len(setup.hands[0])
    alone = setup.partner is None
    if g.sie or g.tout:  # not a points question: a tout is won with every trick, a sie unplayed
        asked = []

        def reach_all(k: int) -> bool:
            asked.append(k)
            return solver.reach(state, k, tricks=True)

        outcome = outcome_by_tricks(g, None, reach_all, tricks=ntricks)
        return _Eval(None, outcome, own_payment(setup, outcome, stakes), alone, outcome == "win",
                     solver.nodes if asked else 0)
    if obj is None:
        obj = Objective.for_setup(setup)
    v = solver.value(state, obj, guess=guess)
    nodes = solver.nodes
    if total is None:
        total = sum(c.points for h in setup.hands for c in h) + sum(c.points for c in setup.bury)
    ts = None

    def reach(k: int) -> bool:  # the trick question, where the judge has one
        nonlocal ts
        ts = _trick_solver(solver)
        return ts.reach(state, k, tricks=True)

    tricks = tricks_taken(g, v, reach, floor=no_trick_points(obj), total=total, tricks=ntricks)
    if ts is not None:
        nodes += ts.nodes
    outcome = outcome_for(g, v, tricks, ntricks)
    return _Eval(v, outcome, own_payment(setup, outcome, stakes), alone, tricks == ntricks, nodes)


def _setup_for(game: Game, hands: Sequence[Sequence[Card]], blind: Sequence[Card], picker: int,
               d: BuryDecision) -> Setup:
    return Setup.create(game, hands, declarer=picker, blind=blind, bury=d.bury, called=d.called, under=d.under,
                        alone=d.alone)


_SETUP_FIELDS = tuple(f.name for f in dataclasses.fields(Setup) if f.init)


class _ChoiceSet:
    """What the choices of a picker holding ``picked`` (his hand and the blind) share in every deal of the other
    cards: the choices in the order they are solved, each one's bury, context (:func:`_context`) and kept hand,
    and the guess plan. A picker's view makes it once for all its worlds (:func:`_choice_set`)."""

    def __init__(self, game: Game, picked: Sequence[Card], decisions: Sequence[BuryDecision]) -> None:
        self.game = game
        self.picked = tuple(picked)
        self.decisions = tuple(decisions)
        self.contexts = [_context(d) for d in decisions]
        self.buries = [tuple(d.bury) for d in decisions]
        self.bury_points = [sum(c.points for c in d.bury) for d in decisions]
        self.kept = [frozenset(c for c in picked if c not in d.bury) for d in decisions]
        self.plan = _guess_plan(decisions, _card_groups(game, picked))


_CHOICE_SET: tuple[tuple, _ChoiceSet] | None = None  # the last made (the worlds of a picker view share it)


def _choice_set(game: Game, picked: Sequence[Card], decisions: Sequence[BuryDecision]) -> _ChoiceSet:
    global _CHOICE_SET
    key = (game, tuple(picked), tuple(decisions))
    if _CHOICE_SET is None or _CHOICE_SET[0] != key:
        _CHOICE_SET = (key, _ChoiceSet(game, picked, decisions))
    return _CHOICE_SET[1]


class _Choices:
    """The choices of the picker on one deal, solved one after another: the setups (:meth:`Setup.create`, which
    checks everything, once per :func:`_context`; the other buries of that context are the same setup with
    another bury, as ``create`` would make it: the side and the call do not depend on which cards are buried),
    the guesses (:class:`_Guesser`) and the points in play. The choices are named by their place in the solve
    order."""

    def __init__(self, game: Game, hands: Sequence[Sequence[Card]], blind: Sequence[Card], picker: int,
                 decisions: Sequence[BuryDecision]) -> None:
        """``decisions``: the choices in the order they will be solved."""
        self.game = game
        self.hands = hands
        self.blind = blind
        self.picker = picker
        self.set = _choice_set(game, list(hands[picker]) + list(blind), decisions)
        self.total = sum(map(_CARD_POINTS.__getitem__, itertools.chain(*hands, blind)))
        self.guesser = _Guesser(self.set.plan)
        self._base: dict[tuple, tuple[Setup, dict[str, Any]]] = {}  # context -> its first setup and its fields
        self._last: tuple[int, Setup] | None = None
        self._objectives: dict[tuple, Objective] = {}  # (context, bury points) -> the objective of those setups
        self._payments: dict[tuple, int] = {}  # see _payment
        self._stakes: Stakes | None = None  # the stakes of those payments

    def setup(self, i: int) -> Setup:
        """The setup of choice ``i``."""
        last = self._last
        if last is not None and last[0] == i:
            return last[1]
        cs = self.set
        ctx = cs.contexts[i]
        base = self._base.get(ctx)
        if base is None:
            st = _setup_for(self.game, self.hands, self.blind, self.picker, cs.decisions[i])
            self._base[ctx] = (st, {k: getattr(st, k) for k in _SETUP_FIELDS})
        else:
            p = self.picker
            hands = base[0].hands
            # Setup(**fields), without its __init__ (3 us of the ~11 us of Python around each solve here)
            st = frozen_instance(Setup, base[1], hands=hands[:p] + (cs.kept[i],) + hands[p + 1:], bury=cs.buries[i])
        self._last = (i, st)
        return st

    def objective(self, i: int) -> Objective:
        """``Objective.for_setup(self.setup(i))``, one object for the choices of a context that bury as many
        points (it reads the setup's side, the game's rules and the points buried only), so a solver sees the
        objective it compiled its tables for again."""
        key = (self.set.contexts[i], self.set.bury_points[i])
        obj = self._objectives.get(key)
        if obj is None:
            obj = self._objectives[key] = Objective.for_setup(self.setup(i))
        return obj

    def _payment(self, st: Setup, outcome: str, stakes: Stakes) -> int:
        """:func:`_own_payment`, remembered: in a picker game it reads the game, the outcome, the stakes and the
        setup's :class:`~sheepsolve.scoring.PaymentTerms` (whether the picker has a partner, which gives the side's
        size, and blitz); the game is this deal's."""
        if self.game.kind != "picker":
            return _own_payment(st, outcome, stakes)
        if stakes is not self._stakes:
            self._payments.clear()
            self._stakes = stakes
        key = (outcome, payment_terms(st))
        pay = self._payments.get(key)
        if pay is None:
            pay = self._payments[key] = _own_payment(st, outcome, stakes)
        return pay

    def evaluate(self, solver: Solver, i: int, stakes: Stakes) -> _Eval:
        """Solve choice ``i``."""
        st = self.setup(i)
        e = _evaluate(solver, st, stakes, self.guesser.guess(i), self.total, self.objective(i), self._payment)
        self.guesser.add(i, e.value)
        return e


def _contract_setup(game: Game, hands: Sequence[Sequence[Card]], declarer: int, c: Contract) -> Setup:
    g = _cached_contract_game(game, c)
    return Setup.create(g, hands, declarer=declarer, called=c.called)


_GAME_CACHE: dict[tuple, Game] = {}


def _cached_contract_game(base: Game, c: Contract) -> Game:
    key = (_game_spec(base), c.game, c.trump, c.tout)
    g = _GAME_CACHE.get(key)
    if g is None:
        g = _GAME_CACHE[key] = _make_contract_game(base, c.game, c.trump, c.tout)
    return g


def _context(d: BuryDecision) -> tuple:
    """What decides the solver's tables besides the hands: the called card, the card under, going alone. The
    solver clears its table when they change, so choices sharing them are solved one after another."""
    return (d.called, d.under, d.alone)


def _solve_order(decisions: Sequence[BuryDecision]) -> list[int]:
    """The order to solve ``decisions`` in: grouped by :func:`_context` (in order of first appearance), the
    given order within a group. On 12 called-ace deals 43% fewer nodes than the listed order, which changes
    the call from one choice to the next."""
    first: dict[tuple, int] = {}
    for i, d in enumerate(decisions):
        first.setdefault(_context(d), i)
    return sorted(range(len(decisions)), key=lambda i: (first[_context(decisions[i])], i))


def _features(decisions: Sequence[BuryDecision], groups: Mapping[Card, int]) -> tuple[tuple[int, ...], ...]:
    """Each choice as a sorted multiset of features: the groups (:func:`_card_groups`) of the buried cards and
    the context (negative: -1 for the first context met, -2 for the next, ...)."""
    ctx_ids: dict[tuple, int] = {}
    return tuple(tuple(sorted([groups[c] for c in d.bury] + [ctx_ids.setdefault(_context(d), -1 - len(ctx_ids))]))
                 for d in decisions)


class _GuessPlan:
    """Where the guesses for choices solved in a fixed order come from, worked out from the choices' features
    (:func:`_features`) alone, once for all the worlds of a picker's view and for the deals whose choices have
    the same features (:func:`_guess_plan`).

    For each choice: the choices before it that differ in one feature (``near``), and the parallelograms among
    them: ``a b`` from ``a c``, ``d b`` and ``d c`` (``para``: three positions)."""

    def __init__(self, features: Sequence[tuple[int, ...]]) -> None:
        self.near: list[list[int]] = []
        self.para: list[list[tuple[int, int, int]]] = []
        where: dict[tuple[int, ...], int] = {}  # features -> position
        known: list[int] = []  # the features of the choices so far
        for f in features:
            near: list[tuple[int, int, int]] = []  # (feature of d, feature instead, position)
            for a, x in enumerate(f):
                if a and f[a - 1] == x:
                    continue
                rest = f[:a] + f[a + 1:]
                for y in known:
                    if y != x:
                        j = where.get(tuple(sorted(rest + (y,))))
                        if j is not None:
                            near.append((x, y, j))
            para = []
            for b, (x1, y1, j1) in enumerate(near):
                for x2, y2, j2 in near[b + 1:]:
                    if x1 != x2:
                        u = list(f)
                        u.remove(x1)
                        u.remove(x2)
                        ju = where.get(tuple(sorted(u + [y1, y2])))
                        if ju is not None:
                            para.append((j1, j2, ju))
            self.near.append([j for _, _, j in near])
            self.para.append(para)
            where[f] = len(self.near) - 1
            known.extend(x for x in f if x not in known)


_PLANS: dict[tuple, _GuessPlan] = {}  # by the choices' features, which are all a plan is made from


def _guess_plan(decisions: Sequence[BuryDecision], groups: Mapping[Card, int]) -> _GuessPlan:
    features = _features(decisions, groups)
    plan = _PLANS.get(features)
    if plan is None:
        if len(_PLANS) >= 256:
            _PLANS.clear()
        plan = _PLANS[features] = _GuessPlan(features)
    return plan


class _Guesser:
    """Guesses for the value search of the choices of one deal from the values already solved.

    Values are close to additive in the features of :class:`_GuessPlan`: ``v(a b) ~ v(a c) + v(d b) - v(d c)``.
    The guess is the median of every such parallelogram among the choices solved, else the value of the last
    solved choice differing in one feature, plus :attr:`BIAS`: a search started below the value costs far more
    than one started above it. The parallelogram median is closer than one neighbour's value, so it gets the
    smaller :attr:`BIAS_PARA` (picker's view of jack-of-diamonds deals: 1 instead of 3 cost 5.6% fewer
    instructions on deal 0 with 60 worlds, 1.5% on deals 1-3 with 30 worlds each). A guess only changes the
    work, never the value.
    """

    BIAS = 3
    BIAS_PARA = 1

    def __init__(self, plan: _GuessPlan) -> None:
        self.plan = plan
        self.values: list[int | None] = [None] * len(plan.near)

    def guess(self, i: int) -> int | None:
        """The guess for the choice in place ``i`` of the plan."""
        vals = self.values
        est = []
        for j1, j2, ju in self.plan.para[i]:
            a, b, c = vals[j1], vals[j2], vals[ju]
            if a is not None and b is not None and c is not None:
                est.append(a + b - c)
        if est:
            est.sort()
            m = len(est)
            mid = est[m // 2] if m % 2 else (est[m // 2 - 1] + est[m // 2]) / 2
            return max(0, round(mid) + self.BIAS_PARA)
        last = max((j for j in self.plan.near[i] if vals[j] is not None), default=None)
        return None if last is None else vals[last] + self.BIAS  # type: ignore[operator]

    def add(self, i: int, value: int | None) -> None:
        self.values[i] = value


# --------------------------------------------------------------------------------------------------------------
# Worlds


def _task_sampler(task: "_Task", game: Game) -> WorldSampler:
    """The sampler of the worlds of ``task`` (made once per task and process): the seat's hand known, and the
    blind when the seat has picked (:func:`sheepsolve.worlds.before_choice`)."""
    global _SAMPLER
    key = (task.game, task.seat, task.hand, task.blind if task.kind == "bury" else None, task.unseen, task.players)
    known = _SAMPLER  # read once: another thread may replace it
    if known is None or known[0] != key:
        k = before_choice(game, task.seat, [Card(c) for c in task.hand],
                          blind=[Card(c) for c in task.blind] if task.kind == "bury" and task.blind else None,
                          unseen=[Card(c) for c in task.unseen] if task.unseen is not None else None,
                          players=task.players)
        known = _SAMPLER = (key, WorldSampler(k))
    return known[1]


_SAMPLER: tuple[tuple, WorldSampler] | None = None
_ALL_DEALS: tuple[WorldSampler, list] | None = None  # every deal of the last exact task's sampler


def _task_deal(task: "_Task", game: Game, i: int) -> tuple[list[list[Card]], list[Card]]:
    """World ``i`` of ``task``: drawn with ``world_rng(seed, i)``, or with ``exact`` deal ``i`` of every deal."""
    global _ALL_DEALS
    sampler = _task_sampler(task, game)
    if not task.exact:
        return sampler.deal(world_rng(task.seed, i))
    known = _ALL_DEALS  # read once: another thread may replace it
    if known is None or known[0] is not sampler:
        known = _ALL_DEALS = (sampler, sampler.all_deals(ALL_WORLDS_CAP))
    return known[1][i]


def _world_count(task: "_Task", worlds: int | str) -> int:
    """How many worlds ``task`` solves (``"all"``: every deal, refused above the cap); checks the cards."""
    game = _game_from_spec(task.game)
    _task_sampler(task, game)
    if worlds == "all":
        _task_deal(task, game, 0)
        assert _ALL_DEALS is not None
        return len(_ALL_DEALS[1])
    return int(worlds)


# --------------------------------------------------------------------------------------------------------------
# Work units, run in this process or in worker processes (spawn-safe: everything is plain data).


_game_spec = game_spec
_game_from_spec = game_from_spec


@dataclass(frozen=True)
class _Task:
    kind: str  # "deal" (choices on one known deal), "bury", "pick", "choose"
    game: tuple
    seat: int
    hand: tuple[int, ...]  # the seat's hand as dealt
    blind: tuple[int, ...] | None  # the blind when known
    choices: tuple[tuple, ...]  # BuryDecision or Contract keys
    stakes: tuple[bool, bool, int]
    seed: int = 0
    hands: tuple[tuple[int, ...], ...] = ()  # "deal": every hand
    unseen: tuple[int, ...] | None = None
    by: str = "payment"
    exact: bool = False  # every deal of the unseen cards, in the sampler's order, instead of sampled worlds
    players: tuple[str, ...] | None = None  # the players' names, for messages


_WORKER = threading.local()  # this thread's solver for sampled worlds (in a worker process: the process's)

WORLDS_TABLE_MIB = 2
"""Table size of the solver that works through sampled worlds (and of worker processes). Twice the default: a
picker's view solves a deal's choices one after another in world after world, and the reuse of entries between
choices pays for the larger table (28 buries x 60 worlds: 2.6% fewer instructions and about 3% less time than
1 MiB; 4 MiB: fewer instructions but no faster). A single deal's ranking keeps the default."""


def _solver() -> Solver:
    solver = getattr(_WORKER, "solver", None)
    if solver is None:
        solver = _WORKER.solver = Solver(WORLDS_TABLE_MIB)
    return solver


def _eval_tuple(e: _Eval) -> tuple:
    return (e.value, e.outcome, e.payment, e.alone, e.tricks_all, e.nodes)


_DEAL: tuple[_Task, _Choices] | None = None  # the deal this process is working on (its choices are units)


def _deal_choices(task: _Task, game: Game) -> _Choices:
    global _DEAL
    deal = _DEAL  # read once: another thread may replace it
    if deal is None or (deal[0] is not task and deal[0] != task):
        hands = [[Card(c) for c in h] for h in task.hands]
        deal = _DEAL = (task, _Choices(game, hands, [Card(c) for c in task.blind or ()], task.seat,
                                       [BuryDecision._from_key(k) for k in task.choices]))
    return deal[1]


_DECISIONS: tuple[tuple, list[BuryDecision]] | None = None  # the choices of the last task (its worlds share them)


def _task_decisions(task: _Task) -> list[BuryDecision]:
    global _DECISIONS
    known = _DECISIONS  # read once: another thread may replace it
    if known is None or known[0] != task.choices:
        known = _DECISIONS = (task.choices, [BuryDecision._from_key(k) for k in task.choices])
    return known[1]


def _run_unit(task: _Task, i: int, solver: Solver | None = None) -> Any:
    """One unit of work: choice ``i`` on the known deal, or world ``i``. The choices are solved in the order
    given (callers give them in :func:`_solve_order`), each search started from a :class:`_Guesser`'s guess."""
    solver = solver or _solver()
    game = _game_from_spec(task.game)
    stakes = Stakes(*task.stakes)
    if task.kind == "deal":
        return _eval_tuple(_deal_choices(task, game).evaluate(solver, i, stakes))
    # A new world is a new deal: its positions never match the last world's entries, which would only crowd the
    # table, and the killer cards learnt there mislead more than they guide (8 deals x 50 worlds of a picker's
    # view: 2.0% fewer nodes than keeping both, 0.6% fewer forgetting the entries only, 1.5% the killers only)
    solver.clear()
    hands, blind = _task_deal(task, game, i)
    if task.kind == "bury":
        choices = _Choices(game, hands, blind, task.seat, _task_decisions(task))
        return tuple(_eval_tuple(choices.evaluate(solver, k, stakes)) for k in range(len(task.choices)))
    if task.kind == "pick":
        best = _best_decision(solver, game, hands, blind, task.seat, stakes, task.by)
        return best[0]._key(), _eval_tuple(best[1])
    if task.kind == "choose":
        return tuple(_eval_tuple(_evaluate(solver, _contract_setup(game, hands, task.seat,
                                                                   Contract._from_key(k)), stakes))
                     for k in task.choices)
    raise ValueError(f"unknown task {task.kind!r}")  # pragma: no cover


def _rank_key(by: str, payment: float, points: float | None) -> tuple:
    p = -1e9 if points is None else points
    return (payment, p) if by == "payment" else (p, payment)


def _beat_target(setup: Setup, best: tuple, by: str, stakes: Stakes, total: int, tie: bool) -> int | None:
    """The fewest points (the bury counted) with which ``setup`` could rank above ``best`` (a
    :func:`_rank_key`; ``tie``: or equal to it), or None if no result can: a value below it cannot, whatever
    the tricks.

    At each value the key is taken at its best reading: with every point, also schwarz; with no point beyond
    the bury, also a trick taken. That best key never falls as the value rises (more points, never a worse
    result), so the answer is found by bisection."""
    g = setup.game
    ntricks = len(setup.hands[0])
    floor = no_trick_points(Objective.for_setup(setup))

    def best_key(v: int) -> tuple:
        return max(_rank_key(by, _own_payment(setup, outcome_for(g, v, t, ntricks), stakes), v)
                   for t in trick_readings(g, v, floor=floor, total=total, tricks=ntricks))

    def beats(v: int) -> bool:
        k = best_key(v)
        return k > best or (tie and k == best)

    if not beats(total):
        return None
    lo, hi = 0, total  # beats(hi)
    while lo < hi:
        mid = (lo + hi) // 2
        if beats(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _best_decision(solver: Solver, game: Game, hands: list[list[Card]], blind: list[Card], picker: int,
                   stakes: Stakes, by: str) -> tuple[BuryDecision, _Eval]:
    """The best choice of the picker on this deal, double dummy: the first listed of the best. After the first
    one solved, a choice is solved exactly only if one null-window search shows it can take the best's place."""
    picked = hands[picker] + blind
    decisions = legal_decisions(game, picked, [c for s, h in enumerate(hands) if s != picker for c in h])
    reps, _ = _merge(decisions, _card_groups(game, picked))
    order = _solve_order(reps)
    choices = _Choices(game, hands, blind, picker, [reps[j] for j in order])
    best: tuple[tuple, BuryDecision, _Eval] | None = None
    for k, j in enumerate(order):
        d = reps[j]
        if best is not None and not game.tout and not game.sie:
            st = choices.setup(k)
            target = _beat_target(st, best[0][0], by, stakes, choices.total, -j > best[0][1])
            if target is None or not solver.reach(st.start(), target):
                continue
        e = choices.evaluate(solver, k, stakes)
        key = (_rank_key(by, e.payment, e.value), -j)  # equal choices: the first listed
        if best is None or key > best[0]:
            best = (key, d, e)
    assert best is not None
    return best[1], best[2]





def _map_units(task: _Task, n: int, jobs: int | None, progress: ProgressFn | None,
               solver: Solver | None = None, parallel_after: float | None = None) -> list[Any]:
    """Run units 0..n-1 and return their results in unit order (:func:`sheepsolve.worlds.map_units`): in this
    process with ``solver`` while the rest would take less than ``parallel_after`` seconds, then in ``jobs``
    spawned processes. Every unit's result is exact and independent of where it ran, so the answer does not
    depend on ``jobs``. The choices of one deal share table entries: each process gets one run of them."""
    if jobs is not None and jobs < 1:
        raise BuryError(f"--jobs: must be 1 or more, not {jobs}")
    solver = solver or _solver()
    return map_units(_UnitRunner(task), n, jobs, progress=progress, local=lambda i: _run_unit(task, i, solver),
                     parallel_after=PARALLEL_AFTER_SECONDS if parallel_after is None else parallel_after,
                     spread=task.kind == "deal")


class _UnitRunner:
    """Picklable callable for the pool (a module-level class, so spawned workers can import it)."""

    def __init__(self, task: _Task) -> None:
        self.task = task

    def __call__(self, i: int) -> Any:
        return _run_unit(self.task, i)


# --------------------------------------------------------------------------------------------------------------
# Statistics over worlds


@dataclass(frozen=True)
class Sampled:
    """Statistics of one choice over the sampled worlds.

    ``mean``/``stderr``: the declaring side's points (None for tout and sie); ``p61``, ``p91``: share of worlds
    with 61 or 91 points or more; ``pschwarz``: share where the side takes every trick; ``pwin``: share won;
    ``payment``/``payment_stderr``: the declarer's own payment; ``vs_best``/``vs_best_stderr``: the mean
    difference in the ranking measure (payment, or points with ``by="points"``) to the best choice, world by
    world (common random numbers: its standard error is the one that says whether two choices really differ).
    """

    worlds: int
    mean: float | None
    stderr: float | None
    p61: float | None
    p91: float | None
    pschwarz: float
    pwin: float
    payment: float
    payment_stderr: float | None
    vs_best: float = 0.0
    vs_best_stderr: float | None = None
    # the declaring side's points in each world (None: a tout or sie, not a points question); for charts,
    # not in the JSON
    values: tuple[int | None, ...] = field(default=(), repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        stats = {"mean": self.mean, "stderr": self.stderr, "p61": self.p61, "p91": self.p91, "pschwarz": self.pschwarz,
                 "pwin": self.pwin, "payment": self.payment, "payment_stderr": self.payment_stderr,
                 "vs_best": self.vs_best, "vs_best_stderr": self.vs_best_stderr}
        return {**{key: rounded(value) for key, value in stats.items()}, "worlds": self.worlds}


_WON = ("schwarz", "schneider", "win", "win-schneider", "win-schwarz")


def _stats(evals: Sequence[tuple], exact: bool = False) -> Sampled:
    """The statistics of one choice over the worlds' results; ``exact`` (every world solved): no sampling error,
    every standard error 0."""
    n = len(evals)
    vals = [e[0] for e in evals]
    pays = [float(e[2]) for e in evals]
    points = None not in vals
    mean, se = mean_se([float(v) for v in vals]) if points else (None, None)
    pm, pse = mean_se(pays)
    if exact:
        se = 0.0 if points else None
        pse = 0.0
    return Sampled(worlds=n, mean=mean, stderr=se,
                   p61=sum(v >= 61 for v in vals) / n if points else None,
                   p91=sum(v >= 91 for v in vals) / n if points else None,
                   pschwarz=sum(bool(e[4]) for e in evals) / n,
                   pwin=sum(e[1] in _WON for e in evals) / n, payment=pm, payment_stderr=pse, values=tuple(vals))


def _measure(e: tuple, by: str) -> float:
    if by == "points" and e[0] is not None:
        return float(e[0])
    return float(e[2])


def _with_diffs(columns: Sequence[Sequence[tuple]], stats: Sequence[Sampled], best: int, by: str,
                exact: bool = False) -> list[Sampled]:
    out = []
    for j, st in enumerate(stats):
        diffs = [_measure(a, by) - _measure(b, by) for a, b in zip(columns[j], columns[best])]
        m, se = mean_se(diffs)
        out.append(Sampled(**{**st.__dict__, "vs_best": m,
                              "vs_best_stderr": se if j != best and not exact else 0.0}))
    return out


def _ranks(keys: Sequence[tuple]) -> list[int]:
    """1-based competition ranks of keys already sorted best first."""
    out: list[int] = []
    for i, k in enumerate(keys):
        out.append(out[-1] if i and k == keys[i - 1] else i + 1)
    return out


# --------------------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class BuryRow:
    """One choice solved double dummy on the actual deal."""

    decision: BuryDecision
    value: int
    outcome: str
    payment: int
    alone: bool
    rank: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.decision.to_dict(), "value": self.value, "outcome": self.outcome, "payment": self.payment,
                "alone": self.alone, "rank": self.rank}


@dataclass(frozen=True)
class SampledRow:
    """One choice over the sampled worlds; ``tie``: within noise of the best
    (:func:`~sheepsolve.worlds.within_noise`, the rule ``suggest`` applies to cards)."""

    decision: BuryDecision
    stats: Sampled
    alone: bool
    rank: int
    tie: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {**self.decision.to_dict(), **self.stats.to_dict(), "alone": self.alone, "rank": self.rank,
                "tie": self.tie}


@dataclass(frozen=True)
class BuryRanking:
    """Every legal choice of a pick, best first (``rows``), double dummy (``view="actual"``) or from the
    picker's view (``view="picker"``, with ``actual`` the double-dummy ranking when the deal is known)."""

    game: Game
    players: tuple[str, ...]
    picker: int
    hand: tuple[Card, ...]
    blind: tuple[Card, ...]
    view: str
    by: str
    rows: tuple[BuryRow, ...] | tuple[SampledRow, ...]
    solved: int  # distinct choices solved (per world)
    seconds: float
    nodes: int = 0
    worlds: int = 0
    seed: int | None = None
    actual: "BuryRanking | None" = None
    record_choice: BuryDecision | None = None
    notes: tuple[str, ...] = ()
    exact: bool = False  # picker's view: every deal of the unseen cards solved (no sampling)

    @property
    def best(self) -> list[BuryDecision]:
        """The best choices: on the actual deal those sharing the first rank; from the picker's view the first and
        every choice within noise of it (a tie, :attr:`SampledRow.tie`)."""
        if self.view == "picker":
            return [r.decision for r in self.rows if r.rank == 1 or getattr(r, "tie", False)]
        return [r.decision for r in self.rows if r.rank == 1]

    @property
    def unit(self) -> str:
        """What the ranking measure counts: ``units`` (Sheepshead payments), ``money`` or ``points``."""
        if self.by == "points":
            return "points"
        return "units" if self.game.family == "sheepshead" else "money"

    def record_cost(self) -> tuple[float, float | None, bool] | None:
        """From the picker's view, what the record's own choice costs against the best in expectation, world by
        world, in the ranking measure: (cost, its standard error, whether it ties with the best); None without a
        record choice among the rows or on the actual view."""
        if self.view != "picker" or self.record_choice is None:
            return None
        row = self.row_of(self.record_choice)
        if not isinstance(row, SampledRow):
            return None
        return max(0.0, -row.stats.vs_best), row.stats.vs_best_stderr, row.tie or row.rank == 1

    def row_of(self, d: BuryDecision) -> BuryRow | SampledRow | None:
        for r in self.rows:
            if r.decision == d:
                return r
        if self.game.partner != "called-ace":  # the record's choice matched on the bury alone
            for r in self.rows:
                if set(r.decision.bury) == set(d.bury):
                    return r
        return None

    @property
    def lesson(self) -> str | None:
        """Where the best choice on the actual deal is not the best in expectation, that in words."""
        return self.lesson_text("ascii")

    def lesson_text(self, style: str = "ascii") -> str | None:
        """:attr:`lesson` with the cards in one notation (a :func:`~sheepsolve.cards.format_card` style).

        From the picker's view: where the best choice on the actual deal (when every hand is known) is not among
        the best in expectation, that, and where the record's own choice is not among the best in expectation,
        what it costs against the best (:meth:`record_cost`), also when only the picker's hand is known."""
        if self.view != "picker":
            return None
        actual = self._actual_lesson(style)
        record = self._record_lesson(style)
        if actual and self.actual is not None and self.record_choice is not None:
            row = self.row_of(self.record_choice)
            if row is not None and row.decision == self.actual.rows[0].decision:
                record = None  # the actual lesson already gives that choice's cost
        parts = [x for x in (actual, record) if x]
        return " ".join(parts) if parts else None

    def _record_lesson(self, style: str) -> str | None:
        cost = self.record_cost()
        if cost is None or cost[2]:
            return None
        c, se, _ = cost
        e = self.rows[0]
        assert isinstance(e, SampledRow) and self.record_choice is not None
        row = self.row_of(self.record_choice)
        assert isinstance(row, SampledRow)
        unit = "units" if self.game.family == "sheepshead" else "money"
        who = self.players[self.picker]
        others = len({r.decision for r in self.rows if isinstance(r, SampledRow) and r.tie} - {e.decision})
        tied = f"; {others} more within noise of it" if others else ""
        return (f"{who}'s choice {self.record_choice.label(style)} (mean {_fmt(row.stats.mean)} points, "
                f"{row.stats.payment:+.2f} {unit} a hand) costs {c:.2f} ± {_fmt(se, 2)} {self.unit} a hand in "
                f"expectation against the best from what {who} could see, {e.decision.label(style)} (mean "
                f"{_fmt(e.stats.mean)} points, {e.stats.payment:+.2f} {unit}{tied}), world by world over "
                f"{self.worlds} worlds: beyond the noise (more than two standard errors).")

    @property
    def actual_agrees(self) -> bool:
        """From the picker's view with the actual deal known: a best choice on the deal is among the best in
        expectation (no lesson from the deal)."""
        return self.view == "picker" and self.actual is not None and any(d in self.actual.best for d in self.best)

    def _actual_lesson(self, style: str) -> str | None:
        if self.actual is None or self.actual_agrees:
            return None
        unit = "units" if self.game.family == "sheepshead" else "money"
        a = self.actual.rows[0]
        e = self.rows[0]
        a_in_world = self.row_of(a.decision)
        e_on_deal = self.actual.row_of(e.decision)
        assert isinstance(a, BuryRow) and isinstance(e, SampledRow)
        text = (f"On the actual deal the best choice is {a.decision.label(style)} ({a.value} points, {a.outcome}, "
                f"{a.payment:+d} {unit}), but from what {self.players[self.picker]} could see the best is "
                f"{e.decision.label(style)} (mean {_fmt(e.stats.mean)} points, {e.stats.payment:+.2f} {unit} a hand).")
        if e_on_deal is not None and isinstance(e_on_deal, BuryRow):
            text += (f" On this deal {e.decision.label(style)} gives {e_on_deal.value} points ({e_on_deal.outcome}, "
                     f"{e_on_deal.payment:+d});")
        if a_in_world is not None and isinstance(a_in_world, SampledRow):
            st = a_in_world.stats
            text += (f" over the worlds {a.decision.label(style)} averages {_fmt(st.mean)} points, "
                     f"{st.payment:+.2f} {unit} ({st.vs_best:+.2f} ± {_fmt(st.vs_best_stderr, 2)} "
                     f"{unit if self.by == 'payment' else 'points'} against the best, world by world).")
            if st.vs_best_stderr is None:
                text += " With one world there is no noise to measure: more worlds would tell whether it is real."
            else:  # not a tie with the best (the lesson is not given then): beyond two standard errors
                text += (" From the picker's seat the better choice is the one in expectation: the double-dummy best "
                         "only suits this lie of the cards.")
        return text

    def to_dict(self) -> dict[str, Any]:
        names = self.players
        out: dict[str, Any] = {
            "game": self.game.name,
            "partner": self.game.partner,
            "picker": names[self.picker],
            "hand": [str(c) for c in self.hand],
            "blind": [str(c) for c in self.blind],
            "view": self.view,
            "ranked_by": self.by,
            "payment_of": "picker",
        }
        if self.view == "picker":
            out.update({"worlds": self.worlds, "exact": self.exact, "seed": self.seed})
        out["buries"] = [r.to_dict() for r in self.rows]
        out["best"] = [d.to_dict() for d in self.best]
        out["solved"] = self.solved
        if self.view == "actual":
            out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        out["actual"] = None
        if self.actual is not None:
            out["actual"] = {"buries": [r.to_dict() for r in self.actual.rows],
                             "best": [d.to_dict() for d in self.actual.best]}
        out["lesson"] = self.lesson
        if self.record_choice is not None:
            row = self.row_of(self.record_choice)
            out["record_choice"] = {**self.record_choice.to_dict(), "rank": row.rank if row else None,
                                    "of": len(self.rows)}
            cost = self.record_cost()
            if cost is not None:
                out["record_choice"].update({"cost": rounded(cost[0]), "cost_stderr": rounded(cost[1]),
                                             "tie": cost[2], "cost_unit": self.unit})
        else:
            out["record_choice"] = None
        out["procedure"] = self.procedure
        out["notes"] = list(self.notes)
        return out

    @property
    def procedure(self) -> str:
        """How the figures were made, in words, with the caveat of the double-dummy reading."""
        if self.view == "actual":
            return ("every choice solved double dummy on the actual deal: " + BURY_CAVEAT_ACTUAL)
        return (f"every choice solved double dummy in the same {self.worlds} sampled worlds (the unseen cards dealt "
                f"uniformly); the best and every choice within two standard errors of it, world by world, tie: "
                + BURY_CAVEAT)


def _fmt(x: float | None, nd: int = 1) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def _alone_note(game: Game, picked: Sequence[Card]) -> str | None:
    if game.partner == "jack-of-diamonds":
        jd = Card.make("J", "D")
        if jd in picked and not game.rules.get("call_up"):
            where = "from the blind" if jd not in picked[: len(picked) - game.blind_size] else "in his hand"
            return (f"the picker holds the jack of diamonds ({where}): every bury leaves him alone "
                    f"(burying it does too)")
    if game.partner == "alone" or (game.kind == "picker" and game.seats != 5):
        return "the picker always plays alone in this game"
    return None


# --------------------------------------------------------------------------------------------------------------
# The questions


def _check_picker(game: Game, hand: Sequence[Card], blind: Sequence[Card], picker: int) -> None:
    if game.kind != "picker":
        raise BuryError(f"{game.name} has no picker and no bury (bury is for sheepshead, sheepshead-3 and "
                        f"sheepshead-4)")
    if picker not in range(game.seats):
        raise BuryError(f"picker: seat {picker} is not one of 0..{game.seats - 1}")
    if len(blind) != game.blind_size and len(hand) == game.hand_size:
        raise BuryError(f"blind: {game.name} has {game.blind_size} cards in the blind, got {len(blind)}")


def rank_buries(game: Game, hands: Sequence[Sequence[Card]], blind: Sequence[Card], picker: int, *,
                stakes: Stakes | None = None, by: str = "payment", solver: Solver | None = None,
                merge: bool = True, jobs: int | None = 1, progress: ProgressFn | None = None,
                players: Sequence[str] | None = None) -> BuryRanking:
    """Every legal choice of the picker solved double dummy on this deal (``hands`` as dealt), best first.

    One :class:`Solver` serves every choice (its table carries over). ``merge=False`` solves interchangeable
    buries separately (for tests). With ``jobs`` > 1 (None: every core) the choices left are spread over
    processes once the first ones show the work is long enough to pay for them (:func:`_map_units`); the
    answer is the same.
    """
    _check_by(by)
    _check_picker(game, hands[picker], blind, picker)
    stakes = stakes or Stakes()
    picked = list(hands[picker]) + list(blind)
    decisions = legal_decisions(game, picked, [c for s, h in enumerate(hands) if s != picker for c in h])
    reps, index = _merge(decisions, _card_groups(game, picked) if merge else None)
    solver = solver or Solver()
    order = _solve_order(reps)
    task = _Task(kind="deal", game=_game_spec(game), seat=picker, hand=tuple(map(int, hands[picker])),
                 blind=tuple(map(int, blind)), choices=tuple(reps[k]._key() for k in order),
                 stakes=(stakes.crack, stakes.recrack, stakes.doublers),
                 hands=tuple(tuple(map(int, h)) for h in hands))
    global _DEAL
    _DEAL = None  # a new call starts without the guesses of an earlier one on the same deal
    t0 = time.perf_counter()
    evals = [_Eval(*t) for t in _map_units(task, len(reps), jobs, progress, solver)]
    evals = [evals[i] for i in sorted(range(len(order)), key=order.__getitem__)]  # back to the order of reps
    nodes = sum(e.nodes for e in evals)
    dt = time.perf_counter() - t0
    rows = [(decisions[j], evals[index[j]]) for j in range(len(decisions))]
    rows.sort(key=lambda r: _rank_key(by, r[1].payment, r[1].value), reverse=True)
    ranks = _ranks([_rank_key(by, e.payment, e.value) for _, e in rows])
    out_rows = tuple(BuryRow(decision=d, value=e.value, outcome=e.outcome, payment=e.payment,  # type: ignore[arg-type]
                             alone=e.alone, rank=k) for (d, e), k in zip(rows, ranks))
    notes = tuple(x for x in [_alone_note(game, picked)] if x)
    return BuryRanking(game=game, players=tuple(players or [str(i + 1) for i in range(game.seats)]),
                       picker=picker, hand=tuple(hands[picker]), blind=tuple(blind), view="actual", by=by,
                       rows=out_rows, solved=len(reps), seconds=dt, nodes=nodes, notes=notes)


def _check_by(by: str) -> None:
    if by not in ("payment", "points"):
        raise BuryError(f'--by: must be "payment" or "points", not {by!r}')


def _check_worlds(worlds: int | str) -> None:
    if worlds == "all":
        return
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise BuryError(f"--worlds: must be 1 or more (or \"all\"), not {worlds!r}")


def sample_buries(game: Game, hand: Sequence[Card], blind: Sequence[Card], picker: int, *, worlds: int | str = 100,
                  seed: int = 0, stakes: Stakes | None = None, by: str = "payment", jobs: int | None = 1,
                  progress: ProgressFn | None = None, unseen: Iterable[Card] | None = None,
                  players: Sequence[str] | None = None, actual_hands: Sequence[Sequence[Card]] | None = None,
                  keep: Callable[[BuryDecision], bool] | None = None) -> BuryRanking:
    """Every legal choice of the picker from his view: ``worlds`` deals of the cards he cannot see (``"all"``:
    every deal, exactly, refused above :data:`~sheepsolve.worlds.ALL_WORLDS_CAP`), every choice solved in each
    (common random numbers), ranked by expected payment (or points).

    ``actual_hands``: the real deal, when known; its double-dummy ranking is added (``.actual``) and
    :attr:`BuryRanking.lesson` says where the two disagree. ``keep``: compare only the choices it accepts (e.g.
    the partner calls, not going alone). ``unseen``: the cards dealt to the others (default:
    the rest of the deck; smaller deals are for tests and examples).

    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead-3")
    >>> r = sample_buries(g, parse_cards("QC 7S"), parse_cards("JD 8S"), 0, worlds=20, seed=1,
    ...                   unseen=parse_cards("AS TS AC KS"))
    >>> best = r.rows[0]
    >>> best.decision.label(), best.stats.mean, best.stats.payment, best.stats.p61
    ('8S 7S', 41.0, 6.0, 0.0)
    """
    _check_by(by)
    _check_worlds(worlds)
    _check_picker(game, hand, blind, picker)
    stakes = stakes or Stakes()
    picked = list(hand) + list(blind)
    unseen = list(unseen) if unseen is not None else None
    decisions = legal_decisions(game, picked, unseen)
    if keep is not None:
        decisions = [d for d in decisions if keep(d)]
        if not decisions:
            raise BuryError("no bury to compare")
    reps, index = _merge(decisions, _card_groups(game, picked))
    order = _solve_order(reps)
    task = _Task(kind="bury", game=_game_spec(game), seat=picker, hand=tuple(map(int, hand)),
                 blind=tuple(map(int, blind)), choices=tuple(reps[k]._key() for k in order),
                 stakes=(stakes.crack, stakes.recrack, stakes.doublers), seed=seed,
                 unseen=tuple(map(int, unseen)) if unseen is not None else None, by=by, exact=worlds == "all",
                 players=tuple(players) if players else None)
    t0 = time.perf_counter()
    count = _world_count(task, worlds)  # checks the cards (and the count of every deal) before any work
    results = _map_units(task, count, jobs, progress)
    dt = time.perf_counter() - t0
    at = {k: i for i, k in enumerate(order)}  # rep -> its place in the solve order
    columns = [[w[at[k]] for w in results] for k in range(len(reps))]
    rep_stats = [_stats(col, task.exact) for col in columns]
    keys = [_rank_key(by, s.payment, s.mean) for s in rep_stats]
    best_rep = max(range(len(reps)), key=lambda k: keys[k])
    rep_stats = _with_diffs(columns, rep_stats, best_rep, by, task.exact)
    alone = [bool(columns[k][0][3]) for k in range(len(reps))]
    order = sorted(range(len(decisions)), key=lambda j: keys[index[j]], reverse=True)
    ranks = _ranks([keys[index[j]] for j in order])
    ties = [within_noise(-st.vs_best, st.vs_best_stderr, task.exact) for st in rep_stats]
    rows = tuple(SampledRow(decision=decisions[j], stats=rep_stats[index[j]], alone=alone[index[j]], rank=k,
                            tie=ties[index[j]]) for j, k in zip(order, ranks))
    actual = None
    if actual_hands is not None:
        actual = rank_buries(game, actual_hands, blind, picker, stakes=stakes, by=by, players=players)
    notes = tuple(x for x in [_alone_note(game, picked)] if x)
    return BuryRanking(game=game, players=tuple(players or [str(i + 1) for i in range(game.seats)]),
                       picker=picker, hand=tuple(hand), blind=tuple(blind), view="picker", by=by, rows=rows,
                       solved=len(reps), seconds=dt, worlds=count, seed=seed, actual=actual, notes=notes,
                       exact=task.exact)


@dataclass(frozen=True)
class PickResult:
    """Picking against passing for one seat, over sampled worlds (the blind unseen too)."""

    game: Game
    players: tuple[str, ...]
    seat: int
    hand: tuple[Card, ...]
    pick: Sampled
    worlds: int
    seed: int
    by: str
    outcomes: dict[str, int]
    buries: tuple[tuple[BuryDecision, int], ...]  # the choice made in each world, with its count, most often first
    seconds: float
    actual: tuple[BuryDecision, int | None, str, int] | None = None  # best choice on the actual deal, if known
    exact: bool = False  # every deal of the unseen cards solved (no sampling)

    @property
    def decision(self) -> str:
        return "pick" if self.pick.payment > 0 else "pass"

    @property
    def best(self) -> list[str]:
        """``["pick"]`` or ``["pass"]``, or both, the better first, when picking's expected payment is within two
        of its standard errors of passing's 0 (a tie: the difference world by world is picking's payment)."""
        other = "pass" if self.decision == "pick" else "pick"
        return [self.decision, other] if within_noise(abs(self.pick.payment), self.pick.payment_stderr,
                                                      self.exact) else \
            [self.decision]

    def to_dict(self) -> dict[str, Any]:
        pick = {"choice": "pick", **self.pick.to_dict()}
        del pick["vs_best"], pick["vs_best_stderr"]
        pas = {"choice": "pass", "payment": 0.0, "payment_stderr": 0.0}
        choices = [pick, pas] if self.pick.payment > 0 else [pas, pick]
        out: dict[str, Any] = {
            "game": self.game.name, "partner": self.game.partner, "seat": self.players[self.seat],
            "hand": [str(c) for c in self.hand], "worlds": self.worlds, "exact": self.exact, "seed": self.seed,
            "choices": choices, "decision": self.decision, "best": self.best, "payment_of": "picker",
            "procedure": ("in each world the picker takes that world's blind and makes the best double-dummy "
                          "bury and call of that world; passing is worth 0 (a leaster or another player's pick "
                          "after a pass is out of scope)"),
            "outcomes": dict(self.outcomes),
            "buries": [{**d.to_dict(), "worlds": k} for d, k in self.buries],
            "seconds": round(self.seconds, 6),
        }
        if self.actual is not None:
            d, v, o, p = self.actual
            out["actual"] = {**d.to_dict(), "value": v, "outcome": o, "payment": p}
        else:
            out["actual"] = None
        return out


def pick_or_pass(game: Game, hand: Sequence[Card], seat: int, *, worlds: int | str = 100, seed: int = 0,
                 stakes: Stakes | None = None, by: str = "payment", jobs: int | None = 1,
                 progress: ProgressFn | None = None, players: Sequence[str] | None = None,
                 actual: tuple[Sequence[Sequence[Card]], Sequence[Card]] | None = None,
                 unseen: Iterable[Card] | None = None) -> PickResult:
    """Expected payment of picking from ``seat`` holding ``hand``: the blind and the other hands are sampled,
    and in each world the best double-dummy choice of that world is made (see the module's readings).

    ``actual`` (hands, blind): the real deal, when known, answered double dummy too. ``unseen``: the cards to
    deal (default: the rest of the deck; smaller deals are for tests).

    >>> from sheepsolve.cards import parse_cards
    >>> p = pick_or_pass(make_game("sheepshead-3"), parse_cards("QC 7S"), 0, worlds=20, seed=1,
    ...                  unseen=parse_cards("AS TS AC KS JD 8S"))
    >>> p.decision, p.pick.payment
    ('pick', 4.5)
    """
    _check_by(by)
    _check_worlds(worlds)
    if game.kind != "picker":
        raise BuryError(f"{game.name} has no picking: pick is for sheepshead, sheepshead-3 and sheepshead-4")
    if seat not in range(game.seats):
        raise BuryError(f"seat {seat} is not one of 0..{game.seats - 1}")
    if unseen is None and len(hand) != game.hand_size:
        raise BuryError(f"hand: {len(hand)} cards, {game.name} deals {game.hand_size}")
    stakes = stakes or Stakes()
    task = _Task(kind="pick", game=_game_spec(game), seat=seat, hand=tuple(map(int, hand)), blind=None,
                 choices=(), stakes=(stakes.crack, stakes.recrack, stakes.doublers), seed=seed, by=by,
                 unseen=tuple(map(int, unseen)) if unseen is not None else None, exact=worlds == "all",
                 players=tuple(players) if players else None)
    t0 = time.perf_counter()
    count = _world_count(task, worlds)  # checks the cards (and the count of every deal) before any work
    results = _map_units(task, count, jobs, progress)
    dt = time.perf_counter() - t0
    evals = [r[1] for r in results]
    counts: dict[tuple, int] = {}
    for r in results:
        counts[r[0]] = counts.get(r[0], 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    outcomes: dict[str, int] = {}
    for e in evals:
        outcomes[e[1]] = outcomes.get(e[1], 0) + 1
    act = None
    if actual is not None:
        hs, bl = actual
        d, e = _best_decision(Solver(), game, hs, list(bl), seat, stakes, by)
        act = (d, e.value, e.outcome, e.payment)
    return PickResult(game=game, players=tuple(players or [str(i + 1) for i in range(game.seats)]), seat=seat,
                      hand=tuple(hand), pick=_stats(evals, task.exact), worlds=count, seed=seed, by=by,
                      outcomes=outcomes, buries=tuple((BuryDecision._from_key(k), n) for k, n in top), seconds=dt,
                      actual=act, exact=task.exact)


@dataclass(frozen=True)
class ContractRow:
    """One contract over the sampled worlds; ``tie``: within noise of the best choice (passing included, see
    :attr:`ChoiceResult.best`)."""

    contract: Contract
    stats: Sampled
    rank: int
    tie: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {**self.contract.to_dict(), **self.stats.to_dict(), "rank": self.rank, "tie": self.tie}


@dataclass(frozen=True)
class ChoiceResult:
    """Every contract a Schafkopf hand may declare, best first, against passing (worth 0)."""

    game: Game
    players: tuple[str, ...]
    seat: int
    hand: tuple[Card, ...]
    rows: tuple[ContractRow, ...]
    worlds: int
    seed: int
    by: str
    seconds: float
    pass_tie: bool = False  # passing is within noise of the best choice (or is the best)
    exact: bool = False  # every deal of the unseen cards solved (no sampling)

    @property
    def decision(self) -> str:
        return self.rows[0].contract.label() if self.rows and self.rows[0].stats.payment > 0 else "pass"

    @property
    def best(self) -> list[str]:
        """The best choice and every choice within noise of it, best first: contract labels and ``"pass"``.
        Ranked by payment, passing (worth 0 in every world) takes part: it ties with the best contract when that
        contract's payment is within two of its standard errors of 0, and when passing is the best a contract ties
        with it when its payment is within two standard errors below 0. Ranked by points, passing does not."""
        out = [r.contract.label() for r in self.rows if r.tie]
        if self.pass_tie:
            at = next((i for i, r in enumerate(self.rows) if r.tie and r.stats.payment <= 0), len(out))
            out.insert(at, "pass")
        return out

    def to_dict(self) -> dict[str, Any]:
        rows = [r.to_dict() for r in self.rows]
        pas = {"contract": "pass", "game": None, "trump": None, "called": None, "tout": False, "payment": 0.0,
               "payment_stderr": 0.0}
        at = next((i for i, r in enumerate(self.rows) if r.stats.payment <= 0), len(rows))
        pas["tie"] = self.pass_tie
        rows.insert(at, pas)
        return {"game": "schafkopf", "seat": self.players[self.seat], "hand": [str(c) for c in self.hand],
                "worlds": self.worlds, "exact": self.exact, "seed": self.seed, "ranked_by": self.by,
                "payment_of": "declarer",
                "contracts": rows, "decision": self.decision, "best": self.best,
                "procedure": ("each contract solved double dummy in the same sampled worlds; passing is worth 0 "
                              "(ramsch or another player's game after a pass is out of scope); the best and every "
                              "choice within two standard errors of it, world by world, tie: " + CHOOSE_CAVEAT),
                "seconds": round(self.seconds, 6)}


def choose_contract(game: Game, hand: Sequence[Card], seat: int, *, worlds: int | str = 100, seed: int = 0,
                    stakes: Stakes | None = None, by: str = "payment", jobs: int | None = 1,
                    progress: ProgressFn | None = None, players: Sequence[str] | None = None,
                    contracts: Sequence[Contract] | None = None,
                    unseen: Iterable[Card] | None = None) -> ChoiceResult:
    """Expected payment of every contract ``hand`` may declare from ``seat`` (any Schafkopf ``game`` gives the
    deck, seats and rules), in the same sampled worlds, best first.

    ``contracts``: only these (default :func:`contracts_for`); ``unseen``: the cards to deal (default: the rest
    of the deck; smaller deals are for tests).

    >>> from sheepsolve.cards import parse_cards
    >>> c = choose_contract(make_game("solo", trump="H"), parse_cards("QC JC"), 0, worlds=10, seed=2,
    ...                     unseen=parse_cards("AH TH AS TS KS 9S"),
    ...                     contracts=[Contract("solo", "H"), Contract("wenz"), Contract("geier", tout=True)])
    >>> [(row.contract.label(), row.stats.pwin, row.stats.payment) for row in c.rows]
    [('geier tout', 1.0, 300.0), ('solo H', 0.0, -150.0), ('wenz', 0.0, -150.0)]
    """
    _check_by(by)
    _check_worlds(worlds)
    if game.family != "schafkopf":
        raise BuryError(f"{game.name} is not Schafkopf: choose is for Schafkopf hands (sheepshead: use pick)")
    if seat not in range(game.seats):
        raise BuryError(f"seat {seat} is not one of 0..{game.seats - 1}")
    if unseen is None and len(hand) != game.hand_size:
        raise BuryError(f"hand: {len(hand)} cards, this deal gives {game.hand_size}")
    stakes = stakes or Stakes()
    cs = list(contracts) if contracts is not None else contracts_for(game, hand)
    if not cs:
        raise BuryError("no contract to choose from")
    task = _Task(kind="choose", game=_game_spec(game), seat=seat, hand=tuple(map(int, hand)), blind=None,
                 choices=tuple(c._key() for c in cs), stakes=(stakes.crack, stakes.recrack, stakes.doublers),
                 seed=seed, by=by, unseen=tuple(map(int, unseen)) if unseen is not None else None,
                 exact=worlds == "all", players=tuple(players) if players else None)
    t0 = time.perf_counter()
    count = _world_count(task, worlds)  # checks the cards (and the count of every deal) before any work
    results = _map_units(task, count, jobs, progress)
    dt = time.perf_counter() - t0
    columns = [[w[k] for w in results] for k in range(len(cs))]
    stats = [_stats(col, task.exact) for col in columns]
    keys = [_rank_key(by, s.payment, s.mean) for s in stats]
    best = max(range(len(cs)), key=lambda k: keys[k])
    stats = _with_diffs(columns, stats, best, by, task.exact)
    order = sorted(range(len(cs)), key=lambda k: keys[k], reverse=True)
    ranks = _ranks([keys[k] for k in order])
    top = stats[order[0]]
    if by == "payment" and top.payment <= 0:  # passing is the best: a contract ties with it within noise
        ties = [within_noise(-st.payment, st.payment_stderr, task.exact) for st in stats]
        pass_tie = True
    else:
        ties = [within_noise(-st.vs_best, st.vs_best_stderr, task.exact) for st in stats]
        pass_tie = by == "payment" and within_noise(top.payment, top.payment_stderr, task.exact)
    rows = tuple(ContractRow(contract=cs[k], stats=stats[k], rank=r, tie=ties[k]) for k, r in zip(order, ranks))
    return ChoiceResult(game=game, players=tuple(players or [str(i + 1) for i in range(game.seats)]), seat=seat,
                        hand=tuple(hand), rows=rows, worlds=count, seed=seed, by=by, seconds=dt, pass_tie=pass_tie,
                        exact=task.exact)


# --------------------------------------------------------------------------------------------------------------
# Records: the choices a record shows are set aside, the rest is read and checked by sheepsolve.record.


_DECISION_KEYS = ("bury", "called", "under", "alone", "play")


class _Parsed(NamedTuple):
    """A record file read and parsed once: how errors name it, and its data as written."""

    label: str
    data: Any


def _parse(path: Any) -> _Parsed:
    """Read and parse the record; ``path`` is a file name or a :class:`sheepsolve.commands.Source`. Errors are
    :func:`~sheepsolve.record.load_record`'s: a file that cannot be read, or text that does not parse."""
    if hasattr(path, "read_text"):
        label, fmt, text = str(path), path.fmt, path.read_text()
    else:
        label, fmt, text = read_record_file(path)
    try:
        return _Parsed(label, parse_data(text, fmt))
    except RecordError as e:
        raise RecordError(f"{label}: {e}") from None


def _read(parsed: _Parsed, german: bool, change: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple[
        Record, Record | None, list[str]]:
    """The record with its choices set aside (``change``), and the record as written.

    The record as written is checked as ``show`` checks it: every error is reported (a revoke in the play, a call
    the hand does not allow, ...). Only a record that shows no choice at all (no bury, call, card under or play)
    may leave out the picker, declarer or called card the command is about.
    """
    original: Record | None = None
    err: RecordError | None = None
    try:
        original = record_from_dict(parsed.data, german=german)
    except RecordError as e:
        err = RecordError(f"{parsed.label}: {e}")
    raw = parsed.data
    if err is not None and (not isinstance(raw, dict) or any(k in raw for k in _DECISION_KEYS)
                            or not _MISSING_CHOICE.search(str(err))):
        raise err
    try:
        base = record_from_dict(change(dict(raw)), german=german)
    except RecordError as e:
        raise RecordError(f"{parsed.label}: {e}") from None
    return base, original, []


_MISSING_CHOICE = re.compile(r"(?:^|: )(?:picker|declarer|called): missing")


def _game_kind(parsed: _Parsed) -> tuple[str, str] | None:
    """(canonical game, family) named by the record, or None when it cannot tell (the reader will say why)."""
    try:
        name = parsed.data.get("game")
        canon, _ = resolve_name(name)  # type: ignore[arg-type]
    except Exception:
        return None
    return canon, REGISTRY[canon].family


def _need_picker_game(parsed: _Parsed, what: str) -> None:
    kind = _game_kind(parsed)
    if kind is not None and kind[0] not in ("sheepshead", "sheepshead-3", "sheepshead-4"):
        raise BuryError(f"{parsed.label}: game: {kind[0]} has no {what} ({what} is for sheepshead, sheepshead-3 and "
                        f"sheepshead-4)")


def _stakes_of(rec: Record) -> Stakes:
    return Stakes(crack=rec.crack, recrack=rec.recrack, doublers=rec.doublers)


@dataclass(frozen=True)
class _Loaded:
    record: Record
    seat: int
    hand: tuple[Card, ...]
    blind: tuple[Card, ...] | None
    full: list[list[Card]] | None  # every hand, when known
    choice: BuryDecision | None
    notes: tuple[str, ...] = field(default=())


def read_bury_record(path: str, *, german: bool = False) -> _Loaded:
    """Read a record for ``sheepsolve bury``: the picker's hand and the blind are needed; the other hands, if
    given, allow the double-dummy ranking; the record's bury and call, if given, are marked in the ranking."""

    def change(d: dict[str, Any]) -> dict[str, Any]:
        for k in _DECISION_KEYS:
            d.pop(k, None)
        if d.get("partner") == "called-ace":
            d["called"] = "alone"
        return d

    parsed = _parse(path)
    _need_picker_game(parsed, "bury")
    base, original, notes = _read(parsed, german, change)
    g = base.game
    p = base.declarer
    assert p is not None
    hand = base.hands[p]
    if hand is None:
        raise BuryError(f"{path}: hands.{base.players[p]}: the picker's hand is needed to rank buries")
    if base.blind is None:
        raise BuryError(f"{path}: blind: the blind is needed to rank buries")
    full = [list(h) for h in base.hands] if all(h is not None for h in base.hands) else None  # type: ignore[arg-type]
    choice = None
    if original is not None and original.bury:
        alone = original.alone and g.partner == "called-ace"
        choice = BuryDecision(tuple(g.sort_cards(original.bury)), called=original.called, under=original.under,
                          alone=alone)
    return _Loaded(record=base, seat=p, hand=tuple(hand), blind=tuple(base.blind), full=full, choice=choice,
                   notes=tuple(notes))


def _seat_arg(rec: Record, seat: str | None, role: str) -> int:
    if seat is None:
        raise BuryError(f"--seat: name the player who would {role} (one of {', '.join(rec.players)})")
    try:
        return rec.seat_of(seat)
    except RecordError as e:
        raise BuryError(f"--seat: {e}") from None


def read_pick_record(path: str, seat: str | None, *, german: bool = False) -> _Loaded:
    """Read a record for ``sheepsolve pick``: the hand of ``seat`` (default: the record's picker) is needed."""
    chosen: dict[str, Any] = {}

    def change(d: dict[str, Any]) -> dict[str, Any]:
        for k in _DECISION_KEYS:
            d.pop(k, None)
        chosen["picker"] = d.get("picker")
        if d.get("partner") == "called-ace":
            d["called"] = "alone"
        if "picker" not in d:
            players = d.get("players")
            d["picker"] = players[0] if isinstance(players, list) and players else "1"
        return d

    parsed = _parse(path)
    _need_picker_game(parsed, "picking")
    base, _, notes = _read(parsed, german, change)
    if seat is None and chosen.get("picker") is not None:
        s = base.declarer
    else:
        s = _seat_arg(base, seat, "pick")
    assert s is not None
    hand = base.hands[s]
    if hand is None:
        raise BuryError(f"{path}: hands.{base.players[s]}: the hand of the player who would pick is needed")
    full = None
    if all(h is not None for h in base.hands) and base.blind is not None:
        full = [list(h) for h in base.hands]  # type: ignore[arg-type]
    return _Loaded(record=base, seat=s, hand=tuple(hand), blind=base.blind, full=full, choice=None,
                   notes=tuple(notes))


def read_choose_record(path: str, seat: str | None, *, german: bool = False) -> _Loaded:
    """Read a record for ``sheepsolve choose``: any Schafkopf record (its game gives the deck, the number of
    players and the rules; the contract it names is set aside); the hand of ``seat`` (default: the record's
    declarer) is needed."""
    chosen: dict[str, Any] = {}

    def change(d: dict[str, Any]) -> dict[str, Any]:
        chosen["declarer"] = d.get("declarer")
        for k in _DECISION_KEYS + ("trump", "tout", "declarer"):
            d.pop(k, None)
        game = d.get("game")
        try:
            canon, implied = resolve_name(game)  # type: ignore[arg-type]
        except GameError:
            return d  # the record reader names the bad game
        chosen["game"] = canon
        chosen["family"] = REGISTRY[canon].family
        if chosen["family"] != "schafkopf":
            return d
        if "seats" in implied and "players" not in d and "seats" not in d:
            d["seats"] = implied["seats"]
        d["game"] = "wenz"  # any contract of every deck and size: only the deck, seats and rules are kept
        players = d.get("players")
        d["declarer"] = chosen["declarer"] or (players[0] if isinstance(players, list) and players else "1")
        return d

    parsed = _parse(path)
    kind = _game_kind(parsed)
    if kind is not None and kind[1] != "schafkopf":
        raise BuryError(f"{parsed.label}: game: {kind[0]} is not Schafkopf: choose is for Schafkopf hands "
                        f"(Sheepshead: use pick)")
    base, _, notes = _read(parsed, german, change)
    if chosen.get("family") != "schafkopf":
        raise BuryError(f"{path}: game: {base.game.name} is not Schafkopf: choose is for Schafkopf hands "
                        f"(Sheepshead: use pick)")
    if seat is None and chosen.get("declarer") is not None:
        s = base.declarer
    else:
        s = _seat_arg(base, seat, "declare")
    assert s is not None
    hand = base.hands[s]
    if hand is None:
        raise BuryError(f"{path}: hands.{base.players[s]}: the hand of the player who would declare is needed")
    return _Loaded(record=base, seat=s, hand=tuple(hand), blind=None, full=None, choice=None, notes=tuple(notes))


# --------------------------------------------------------------------------------------------------------------
# From a record (what the commands run)


def bury_from_record(loaded: _Loaded, *, view: str | None = None, worlds: int | str | None = None, seed: int = 0,
                     jobs: int | None = None, by: str = "payment", progress: ProgressFn | None = None
                     ) -> BuryRanking:
    """``sheepsolve bury``: the double-dummy ranking when every hand is known (``view="actual"``), else (or with
    ``view="picker"``, or when ``worlds`` is given) the picker's view, with the double-dummy comparison when the
    deal is known."""
    rec = loaded.record
    if view is None:
        view = "actual" if loaded.full is not None and worlds is None else "picker"
    if view not in ("actual", "picker"):
        raise BuryError(f'--view: must be "actual" or "picker", not {view!r}')
    stakes = _stakes_of(rec)
    blind = list(loaded.blind or ())
    if view == "actual":
        if loaded.full is None:
            missing = ", ".join(p for p, h in zip(rec.players, rec.hands) if h is None)
            raise BuryError(f"--view actual: double dummy needs every hand (no hand for {missing}); "
                            f"use --view picker to sample the unseen cards")
        r = rank_buries(rec.game, loaded.full, blind, loaded.seat, stakes=stakes, by=by, jobs=jobs,
                        progress=progress, players=rec.players)
    else:
        r = sample_buries(rec.game, loaded.hand, blind, loaded.seat, worlds=worlds or 100, seed=seed,
                          stakes=stakes, by=by, jobs=jobs, progress=progress, players=rec.players,
                          actual_hands=loaded.full)
    return BuryRanking(**{**r.__dict__, "record_choice": loaded.choice, "notes": r.notes + loaded.notes})


def pick_from_record(loaded: _Loaded, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = None,
                     by: str = "payment", progress: ProgressFn | None = None) -> PickResult:
    """``sheepsolve pick``: picking against passing for the record's seat."""
    rec = loaded.record
    actual = (loaded.full, list(loaded.blind or ())) if loaded.full is not None else None
    return pick_or_pass(rec.game, loaded.hand, loaded.seat, worlds=worlds, seed=seed, stakes=_stakes_of(rec),
                        by=by, jobs=jobs, progress=progress, players=rec.players, actual=actual)


def choose_from_record(loaded: _Loaded, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = None,
                       by: str = "payment", progress: ProgressFn | None = None) -> ChoiceResult:
    """``sheepsolve choose``: every contract the record's seat may declare, against passing."""
    rec = loaded.record
    return choose_contract(rec.game, loaded.hand, loaded.seat, worlds=worlds, seed=seed, stakes=_stakes_of(rec),
                           by=by, jobs=jobs, progress=progress, players=rec.players)
