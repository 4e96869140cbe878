"""The one judge of outcomes and payments: every command asks it what a value means.

A value is a side's (or, in ramsch and leaster, a seat's) final card points under perfect play. The judge turns
it into the game's result and into money, by the rules of :mod:`sheepsolve.scoring`:

- **Points to outcome** (:func:`sheepsolve.scoring.outcome_for`): the points decide, except at the ends of the
  scale, where the tricks do.
- **The trick question** (:func:`trick_question`), asked only where it can change the outcome: with every point
  in play the other side may still have taken a trick of no points (schwarz or not), with no point beyond the
  bury the side may have taken none (schwarzed or not), and a tout is about tricks alone. Anywhere between, both
  sides have taken a trick. Never in ramsch, leaster and a sie, nor in Schafkopf under ``schwarz_by_points``.
  The caller's ``reach(k)`` (can the side take ``k`` tricks?) answers it: :func:`tricks_taken`,
  :func:`outcome_by_tricks`.
- **Payments** (:func:`sheepsolve.scoring.seat_payment`): what each defender pays, and what each seat receives
  (Laufende, blitz, the picker's 2 : 1 split with his partner).

:func:`outcome_of` gives the outcome of a value for any game (``sheepsolve solve``); :class:`Judge` keeps one
setup's objectives, outcomes and payments with the solvers that answer the trick questions (``annotate``, the
player's view); the bury tools ask :func:`tricks_taken` and :func:`~sheepsolve.scoring.seat_payment` directly.

Ramsch and leaster are solved for one seat against all the others: ``loser`` when the seat ends with more than
half the points (the most for certain), ``no-trick`` (leaster, value 121) when it cannot take a trick, else
``undecided`` (the result depends on how the others share theirs). With every card point the seat may have taken
every trick, and that wins: ``durchmarsch`` (ramsch) or ``winner`` (leaster: the only player with a trick) when
the seat can take every trick, as schwarz is decided.

A finished hand's outcome is its scored result (:func:`sheepsolve.scoring.score`, what ``sheepsolve show``
prints), seen from the side or seat solved for. Two-sided games: the scorer's outcome (the trick questions are
then answered by the tricks taken). Ramsch: ``durchmarsch`` (the seat took every trick), ``loser`` (the seat
pays: the most points, alone or tied under ``ramsch_ties = "all-lose"``, or another player's Durchmarsch), ``tie``
(tied for the most points where nobody pays), else ``not-loser``: the seat neither won outright nor lost, another
player lost (the seat is paid by him, a Jungfrau double) or nobody pays. Leaster: ``winner`` (the fewest points
among the players with a trick, alone), ``no-trick`` (the seat took no trick), ``tie`` (the seat shares the fewest
points: nobody pays), else ``loser`` (the seat took a trick and more points than the fewest; in a tied hand it
pays nothing). A hand dealt mid-hand has no scored result: its outcome is that of its value, as above.

"Every trick" and "every point" are those in play from the setup's first lead (:func:`in_play`): the game's for a
full deal, a hand dealt mid-hand's own (a three-card wenz tout that takes all three tricks is won).

>>> from sheepsolve.games import make_game
>>> g = make_game("sheepshead")
>>> [trick_question(g, v, floor=12, total=120, tricks=6) for v in (0, 12, 13, 119, 120)]
[1, 1, None, None, 6]
>>> outcome_by_tricks(g, 120, lambda k: k < 6, tricks=6), outcome_by_tricks(g, 120, lambda k: True, tricks=6)
('schneider', 'schwarz')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import Card
from .engine import Setup, State
from .games import Game
from .objective import NO_TRICK, Objective
from .scoring import (SCHAFKOPF_OUTCOMES, SHEEPSHEAD_OUTCOMES, SKAT_OUTCOMES, PaymentTerms, Stakes, outcome_for, payment_terms,
                      score, scored_outcome, seat_payment, side_payment)
from .solver import Solver

__all__ = ["Judge", "Swing", "in_play", "no_trick_points", "tricks_objective", "trick_question", "trick_readings",
           "tricks_taken", "outcome_by_tricks", "outcome_of"]


# --------------------------------------------------------------------------------------------------------------
# What is in play, and what a side has without a trick.


def in_play(setup: Setup) -> tuple[int, int]:
    """The tricks and the card points in play from ``setup``'s first lead, the bury counted (a leaster blind
    is not): the game's own (8 tricks and 120 points in Schafkopf, say) for a full deal, fewer for a hand dealt
    mid-hand; a position set by its cards counts the tricks and points taken before it (``Setup.past_tricks``,
    ``Setup.past_points``), so its thresholds are the whole hand's."""
    return (max((len(h) for h in setup.hands), default=0) + sum(setup.past_tricks),
            sum(c.points for h in setup.hands for c in h) + sum(c.points for c in setup.bury)
            + sum(setup.past_points))


def no_trick_points(obj: Objective, setup: Setup | None = None) -> int:
    """The final points of a side that takes no trick: its bury, unless ``bury_needs_trick``; in a position set
    by its cards (``setup``) where the side has no trick yet, the points it has before it too (a Sheepshead bury
    counted in ``won``)."""
    floor = 0 if obj.bury_needs_trick else obj.bury_points
    if setup is not None and setup.past_tricks and not obj.tricks:
        if not any(setup.past_tricks[s] for s in obj.team):
            floor += sum(setup.past_points[s] for s in obj.team)
    return floor


@lru_cache(maxsize=64)
def tricks_objective(team: frozenset[int]) -> Objective:
    """The tricks ``team`` takes (the same object for the same team, so a solver finds its tables for it at once)."""
    return Objective(team=team, tricks=True)


# --------------------------------------------------------------------------------------------------------------
# The trick question.


def trick_question(game: Game, value: int | None, *, floor: int, total: int, tricks: int) -> int | None:
    """The number of tricks ``k`` whose reach decides the outcome of the declaring side's ``value``, or None where
    the points alone decide it (see the module docstring). ``floor``: what the side has without a trick
    (:func:`no_trick_points`); ``total`` and ``tricks``: every point and every trick in play (:func:`in_play`).
    ``value`` None: a tout or sie, not a points question."""
    if not game.two_sided or game.sie:
        return None
    if game.tout:
        return tricks
    if game.kind == "contract" and game.rules.get("schwarz_by_points"):
        return None
    assert value is not None
    if value >= total:
        return tricks  # every trick, or one fewer: schwarz or not
    if value <= floor:
        return 1  # one trick, or none: schwarzed or not
    return None


def trick_readings(game: Game, value: int, *, floor: int, total: int, tricks: int) -> tuple[int | None, ...]:
    """The tricks the declaring side may have taken with ``value``: ``(None,)`` where the points alone decide,
    else the two answers of the :func:`trick_question` (``k`` or ``k - 1``)."""
    k = trick_question(game, value, floor=floor, total=total, tricks=tricks)
    return (None,) if k is None else (k, k - 1)


def tricks_taken(game: Game, value: int | None, reach: Callable[[int], bool], *, floor: int, total: int,
                 tricks: int) -> int | None:
    """The declaring side's tricks as far as the outcome of ``value`` needs them: None where the points decide,
    else ``k`` or ``k - 1`` by the one question ``reach(k)`` (can the side take ``k`` tricks?)."""
    k = trick_question(game, value, floor=floor, total=total, tricks=tricks)
    if k is None:
        return None
    return k if reach(k) else k - 1


def outcome_by_tricks(game: Game, value: int | None, reach: Callable[[int], bool], floor: int = 0, *,
                      tricks: int | None = None, total: int | None = None) -> str:
    """The outcome of a two-sided game's ``value`` (the declaring side's final points; None for a tout or sie)
    where ``reach(k)`` tells whether the side can take ``k`` tricks. It is asked once at most, only where the
    outcome turns on tricks (:func:`trick_question`). ``floor`` is what the side has without a trick (the bury,
    see :func:`no_trick_points`): a 4-hand bury can hold more than 30 points. A point beyond it came with a
    trick, so 30 or fewer is then schneidered but never schwarzed, whatever ``reach`` would say. ``tricks`` and
    ``total``: every trick and every point in play (:func:`in_play`), by default the game's.

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> outcome_by_tricks(g, 20, lambda k: 1 / 0, floor=12), outcome_by_tricks(g, 12, lambda k: False, floor=12)
    ('schneidered', 'schwarzed')
    """
    n = game.tricks if tricks is None else tricks
    full = game.total_points if total is None else total
    if game.no_trick:  # the value is the declarer's tricks (his objective)
        return outcome_for(game, 0, value, n)
    took = tricks_taken(game, value, reach, floor=floor, total=full, tricks=n)
    return outcome_for(game, full if value is None else value, took, n)


def outcome_of(solver: Solver, state: State, obj: Objective, value: int) -> str:
    """The outcome of ``value`` (``obj``'s final value under perfect play from ``state``): see the module
    docstring. ``solver`` answers the trick questions, for ``obj.team``. Every trick and every point are those
    in play from the setup's first lead (:func:`in_play`: fewer for a hand dealt mid-hand)."""
    g = state.game
    n, total = in_play(state.setup)
    if not g.two_sided:
        if state.finished:
            scored = _scored_outcome(state, next(iter(obj.team)))
            if scored is not None:
                return scored
        if g.kind == "leaster" and value == NO_TRICK:
            return "no-trick"
        # every point the seat can end with (a leaster blind that goes to nobody is nobody's)
        top = total + (obj.blind_points if obj.blind_trick is not None else 0)
        if value >= top and solver.reach(state, n, tricks_objective(obj.team)):
            return "durchmarsch" if g.kind == "ramsch" else "winner"
        return "undecided" if value * 2 <= g.total_points else "loser"
    if g.no_trick and not (obj.tricks and not obj.maximize):  # the declarer keeping his tricks down
        value = solver.value(state, Objective(team=obj.team, maximize=False, tricks=True))
        return outcome_by_tricks(g, value, lambda k: False, tricks=n, total=total)
    tricks_obj = tricks_objective(obj.team)
    return scored_outcome(state.setup, outcome_by_tricks(g, value, lambda k: solver.reach(state, k, tricks_obj),
                                                         floor=no_trick_points(obj, state.setup),
                                                         tricks=n, total=total))


def _scored_outcome(state: State, seat: int) -> str | None:
    """The scored result of a finished ramsch or leaster hand for ``seat`` (see the module docstring), or None
    when the hand has none (it was dealt mid-hand)."""
    try:
        result = score(state)
    except ValueError:
        return None
    kind, _, named_s = result.outcome.partition(":")
    named = {int(s) for s in named_s.split(",")}
    if state.game.kind == "ramsch":
        if kind == "durchmarsch" and seat in named:
            return "durchmarsch"
        if seat in result.losers:
            return "loser"
        return "tie" if kind in ("tie", "losers") and seat in named else "not-loser"
    if result.tricks[seat] == 0:
        return "no-trick"
    if kind == "winner" and seat in named:
        return "winner"
    return "tie" if kind == "tie" and seat in named else "loser"


# --------------------------------------------------------------------------------------------------------------
# One setup judged.


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else str(x)


@dataclass(frozen=True)
class Swing:
    """A decision (or a bury) that changed the result: the outcome the best card kept and the one the card played
    gave, with what each defender pays the declaring side for each (``None`` in ramsch and leaster).

    Outcomes are those of :mod:`sheepsolve.scoring` for two-sided games. In ramsch and leaster they are the
    mover's, in the words of ``sheepsolve solve --seat`` (:func:`outcome_of`): ``durchmarsch`` (ramsch) or
    ``winner`` (leaster) when the mover ends with every point and can take every trick, ``loser`` (more than half
    of the points otherwise: the mover loses for certain), ``no-trick`` (leaster: the mover can no longer take a
    trick), else ``undecided``. ``before`` is the best of them any legal card kept (a Durchmarsch beats fewer
    points), so a card that gives up a sweep is a swing even when it saves points.
    """

    before: str
    after: str
    payment_before: int | None = None
    payment_after: int | None = None

    def __str__(self) -> str:
        s = f"{self.before} -> {self.after}"
        if self.payment_before is not None and self.payment_after is not None:
            s += f" (payment {_signed(self.payment_before)} -> {_signed(self.payment_after)})"
        return s

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.before, "to": self.after, "payment_from": self.payment_before,
                "payment_to": self.payment_after}


# ramsch and leaster: the mover's results, lower is better (every other outcome of outcome_of ranks 2)
_SELF_RANKS = {"durchmarsch": 0, "winner": 0, "undecided": 1}


class Judge:
    """Objectives, outcomes and payments of one setup, with the solvers that answer the questions.

    ``solver`` answers the value questions (and those of the first seat solved for in ramsch and leaster);
    ``tricks_solver`` the trick questions (made when first needed), so that they do not clear ``solver``'s table.
    """

    def __init__(self, setup: Setup, stakes: Stakes, solver: Solver, tricks_solver: Solver | None = None) -> None:
        self.setup = setup
        self.game = g = setup.game
        self.stakes = stakes
        self.solver = solver
        self._tricks_solver = tricks_solver
        self._seat_solvers: dict[int, Solver] = {}
        self.tricks, self.total = in_play(setup)  # every trick and point in play (fewer if dealt mid-hand)
        if g.two_sided:
            self.order = (("win", "loss") if (g.tout or g.sie) else SKAT_OUTCOMES if g.family == "skat" else
                          SHEEPSHEAD_OUTCOMES if g.kind == "picker" else SCHAFKOPF_OUTCOMES)
        self.objectives: dict[int | None, Objective] = {}
        self._by_points: dict[int, str] = {}
        self._payments: dict[str, int | None] = {}
        self._seat_payments: dict[tuple[int, str], int] = {}
        self._terms: PaymentTerms | None = None
        # the trick questions answered for the position after the card played last: (position, {k: whether the
        # declaring side can take k tricks})
        self._reached: tuple[State | None, dict[int, bool]] = (None, {})
        self._trick_ranks: dict[int, tuple[int, ...]] = {}  # see _ranks
        # what the declaring side has without a trick (its bury): at or below it the side may have none
        self._floor = no_trick_points(self.objective(None), setup) if g.two_sided else 0
        # needs_tricks(value) is value <= low or value >= high (trick_question, without a call per value)
        if trick_question(g, self.total, floor=self._floor, total=self.total, tricks=self.tricks) is None:
            self._trick_edges: tuple[float, float] = (-math.inf, math.inf)
        elif g.tout:
            self._trick_edges = (math.inf, -math.inf)
        else:
            self._trick_edges = (self._floor, self.total)

    # -- solvers -----------------------------------------------------------------------------------------------
    def solver_for(self, seat: int | None) -> Solver:
        """The main solver for two-sided games. Ramsch and leaster keep one solver per seat solved for, since a
        table's entries hold for one objective only (the main solver serves the first seat asked)."""
        if self.game.two_sided or seat is None:
            return self.solver
        s = self._seat_solvers.get(seat)
        if s is None:
            s = self.solver if not self._seat_solvers else Solver()
            self._seat_solvers[seat] = s
        return s

    @property
    def tricks_solver(self) -> Solver:
        if self._tricks_solver is None:
            self._tricks_solver = Solver()
        return self._tricks_solver

    def objective(self, seat: int | None) -> Objective:
        key = None if self.game.two_sided else seat
        if key not in self.objectives:
            self.objectives[key] = Objective.for_setup(self.setup, seat=key)
        return self.objectives[key]

    # -- outcomes ----------------------------------------------------------------------------------------------
    def needs_tricks(self, value: int) -> bool:
        """Whether the outcome of ``value`` depends on tricks (a trick search), not on points alone: where
        :func:`trick_question` has a question."""
        low, high = self._trick_edges
        return value <= low or value >= high

    def outcome(self, state: State, value: int, seat: int | None = None) -> str:
        """The result ``value`` gives from ``state``, as :func:`outcome_of` judges it (ramsch, leaster: for
        ``seat``, by default the player to move)."""
        g = self.game
        if not g.two_sided:
            s = state.to_move if seat is None else seat
            return outcome_of(self.tricks_solver, state, self.objective(s), value)
        if not self.needs_tricks(value):
            out = self._by_points.get(value)
            if out is None:
                out = self._by_points[value] = scored_outcome(self.setup, outcome_for(g, value), self._terms)
            return out
        obj = tricks_objective(self.setup.team)
        return self._by_tricks(value, lambda k: self.tricks_solver.reach(state, k, obj))

    def _by_tricks(self, value: int, reach: Callable[[int], bool]) -> str:
        """:func:`outcome_by_tricks` of this setup (its bury, tricks and points), as the game scores it (an overbid Skat
        game is lost: :func:`~sheepsolve.scoring.scored_outcome`)."""
        return scored_outcome(self.setup, outcome_by_tricks(self.game, value, reach, self._floor, tricks=self.tricks,
                                                            total=self.total), self._terms)

    def rank(self, outcome: str) -> int:
        """Lower is better for the declaring side (ramsch, leaster: for the mover)."""
        if not self.game.two_sided:
            return _SELF_RANKS.get(outcome, 2)  # loser, no-trick: 2
        return self.order.index(outcome)

    # -- payments ----------------------------------------------------------------------------------------------
    def payment(self, outcome: str, setup: Setup | None = None) -> int | None:
        """What each defender pays the declaring side for ``outcome`` (None in ramsch and leaster), in this
        setup or in ``setup`` (another bury or call of the same deal)."""
        if setup is None:
            if outcome not in self._payments:
                self._payments[outcome] = self._payment(outcome, self.setup)
            return self._payments[outcome]
        return self._payment(outcome, setup)

    def _payment(self, outcome: str, st: Setup) -> int | None:
        if not st.game.two_sided:
            return None
        try:
            return side_payment(st.game, outcome, payment_terms(st), self.stakes)
        except ValueError:
            return None

    @property
    def terms(self) -> PaymentTerms:
        """This setup's :class:`~sheepsolve.scoring.PaymentTerms` (made once)."""
        if self._terms is None:
            self._terms = payment_terms(self.setup)
        return self._terms

    def seat_payment(self, seat: int, outcome: str) -> int:
        """What ``seat`` is paid for the declaring side's ``outcome`` (:func:`~sheepsolve.scoring.seat_payment`)."""
        key = (seat, outcome)
        got = self._seat_payments.get(key)
        if got is None:
            got = self._seat_payments[key] = seat_payment(self.setup, seat, outcome, self.stakes, self.terms)
        return got

    # -- swings ------------------------------------------------------------------------------------------------
    def swing(self, state: State, values: dict[Card, int], played: Card, maxing: bool,
              after: State) -> Swing | None:
        """Whether ``played``, which leads to ``after``, gave a worse result than the best card would have, for
        the mover."""
        g = self.game
        if not g.two_sided:
            return self._swing_self(state, values, played, after)
        best_v = max(values.values()) if maxing else min(values.values())
        needs = self.needs_tricks
        if not any(needs(v) for v in values.values()):
            before, now = self.outcome(state, best_v), self.outcome(state, values[played])
            return None if before == now else Swing(before, now, self.payment(before), self.payment(now))
        # Only the cards of the best value can reach a trick result (schwarz needs every point); a tout is about
        # tricks alone, so every card is asked there.
        cands = [c for c, v in values.items() if g.tout or v == best_v or c == played]
        obj = tricks_objective(self.setup.team)
        known = self._reached[1] if self._reached[0] is state else {}
        side_moves = state.to_move in self.setup.team
        reached_after: dict[int, bool] = {}

        def outcome_after(c: Card) -> str:
            v = values[c]
            if not needs(v):
                return self.outcome(state, v)
            child = after if c == played else state.play(c, check=False)

            def reach(k: int) -> bool:
                # What the position before answers for every card: the side to move cannot take k tricks (then
                # no card can), or the defender to move cannot stop it (then every card leaves it to the side).
                r = known.get(k)
                if r is None or r == side_moves:
                    r = self.tricks_solver.reach(child, k, obj)
                if c == played:
                    reached_after[k] = r
                return r

            return self._by_tricks(v, reach)

        better = min if maxing else max  # ranks: lower is better for the declaring side
        now = outcome_after(played)
        self._reached = (after, reached_after)
        best = self.rank(now)
        others = [c for c in cands if c != played]
        if others:
            # The best outcome any candidate could have, so that asking stops once a card gets it.
            ideal = better(better(self._ranks(state, values[c])) for c in cands)
            for c in others:
                if best == ideal:
                    break
                best = better(best, self.rank(outcome_after(c)))
        before = self.order[best]
        if before == now:
            return None
        return Swing(before, now, self.payment(before), self.payment(now))

    def _swing_self(self, state: State, values: dict[Card, int], played: Card, after: State) -> Swing | None:
        """Ramsch and leaster: the mover's result after the card played against the best result any legal card
        keeps (best rank, then fewest points). Not monotonic in the points: all of them may be a Durchmarsch."""
        seat = state.to_move

        def outcome_after(c: Card) -> str:
            return self.outcome(after if c == played else state.play(c, check=False), values[c], seat)

        outs = {c: outcome_after(c) for c in values}
        best = min(values, key=lambda c: (self.rank(outs[c]), values[c]))
        before, now = outs[best], outs[played]
        return None if before == now else Swing(before, now)

    def _ranks(self, state: State, value: int) -> tuple[int, ...]:
        """The ranks of the outcomes ``value`` can have from ``state``: two where a trick question decides."""
        if not self.needs_tricks(value):
            return (self.rank(self.outcome(state, value)),)
        ranks = self._trick_ranks.get(value)
        if ranks is None:
            ranks = self._trick_ranks[value] = (
                self.rank(self._by_tricks(value, lambda k: True)),
                self.rank(self._by_tricks(value, lambda k: False)))
        return ranks

    def pass_on(self, state: State, after: State) -> None:
        """``after`` follows ``state`` by its only legal card: the trick questions answered for one hold for the
        other."""
        if self._reached[0] is state:
            self._reached = (after, self._reached[1])
