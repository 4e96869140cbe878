"""One choice solved on one deal, double dummy: its value, outcome and the declarer's own payment
(:func:`evaluate`), the choices of one deal solved one after another with the setups, objectives and guesses they
share (:class:`DealChoices`, :class:`Guesser`), and the best choice of a deal (:func:`best_decision`).

What the work keeps from one deal to the next lives in explicit objects: :class:`Solvers` (the value solver and
its trick solver) and :class:`Memo` (choice sets, guess plans, contract games).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..cards import Card
from ..engine import Setup, frozen_instance
from ..games import Game
from ..judge import no_trick_points, outcome_by_tricks, trick_readings, tricks_taken
from ..objective import Objective
from ..pool import game_spec
from ..scoring import Stakes, outcome_for, payment_terms, scored_outcome, seat_payment
from ..solver import Solver
from .choices import (BuryDecision, Contract, card_groups, choice_context, legal_decisions, make_contract_game,
                      merge_choices, solve_order)

__all__ = ["Evaluation", "Solvers", "Memo", "own_payment", "evaluate", "setup_for", "ChoiceSet", "DealChoices",
           "contract_setup", "contract_evaluation", "GuessPlan", "Guesser", "rank_key", "beat_target", "best_decision"]


class Evaluation(NamedTuple):
    """One choice on one deal: the declaring side's value (None for a tout or sie), the outcome, the declarer's
    own payment, whether the declarer plays alone, whether the side takes every trick, and the nodes searched."""

    value: int | None  # None for tout, sie and null (not a points question)
    outcome: str
    payment: int
    alone: bool
    tricks_all: bool  # the declaring side takes every trick (schwarz / tout won)
    nodes: int = 0


_CARD_POINTS = tuple(Card(i).points for i in range(32))  # by card number


def own_payment(setup: Setup, outcome: str, stakes: Stakes) -> int:
    """The declarer's own payment: :func:`~sheepsolve.scoring.seat_payment` of his seat."""
    return seat_payment(setup, setup.declarer, outcome, stakes)  # type: ignore[arg-type]


class Solvers:
    """The solver of the value searches and a second one for the trick questions (schwarz) asked next to them:
    they need other tables, and loading those into the value solver would clear the table the next choice's
    search reuses (docs/TUNING.md). The trick solver is made when first asked for."""

    def __init__(self, value: Solver | None = None, tricks: Solver | None = None) -> None:
        self.value = value if value is not None else Solver()
        self._tricks = tricks

    @property
    def tricks(self) -> Solver:
        if self._tricks is None:
            self._tricks = Solver()
        return self._tricks

    @staticmethod
    def of(solver: "Solver | Solvers") -> "Solvers":
        """``solver`` itself, or a new pair around a plain :class:`Solver`."""
        return solver if isinstance(solver, Solvers) else Solvers(solver)


def evaluate(solvers: Solvers | Solver, setup: Setup, stakes: Stakes, guess: int | None = None,
             total: int | None = None, obj: Objective | None = None,
             payment_of: Callable[[Setup, str, Stakes], int] | None = None) -> Evaluation:
    """Value, outcome and the declarer's payment of one setup, double dummy (``guess``: where the value search
    starts, see :meth:`Solver.value <sheepsolve.solver.Solver.value>`; it never changes the answer; ``total``:
    the points of every card in the hands and the bury, if known; ``obj``: ``Objective.for_setup(setup)``, if
    made already; ``payment_of``: :func:`own_payment` or one that gives the same, say remembered)."""
    pair = Solvers.of(solvers)
    solver = pair.value
    if payment_of is None:
        payment_of = own_payment
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
        return Evaluation(None, outcome, payment_of(setup, outcome, stakes), alone, outcome == "win",
                          solver.nodes if asked else 0)
    if g.no_trick:  # null: not a points question either; won when the defenders cannot make him take a trick
        forced = solver.reach(state, 1, obj if obj is not None else Objective.for_setup(setup))
        outcome = outcome_by_tricks(g, int(forced), lambda k: False, tricks=ntricks)
        return Evaluation(None, outcome, payment_of(setup, outcome, stakes), alone, False, solver.nodes)
    if obj is None:
        obj = Objective.for_setup(setup)
    v = solver.value(state, obj, guess=guess)
    nodes = solver.nodes
    if total is None:
        total = sum(c.points for h in setup.hands for c in h) + sum(c.points for c in setup.bury)
    ts = None

    def reach(k: int) -> bool:  # the trick question, where the judge has one
        nonlocal ts
        ts = pair.tricks
        return ts.reach(state, k, tricks=True)

    tricks = tricks_taken(g, v, reach, floor=no_trick_points(obj), total=total, tricks=ntricks)
    if ts is not None:
        nodes += ts.nodes
    outcome = scored_outcome(setup, outcome_for(g, v, tricks, ntricks))  # an overbid Skat game is lost
    return Evaluation(v, outcome, payment_of(setup, outcome, stakes), alone, tricks == ntricks, nodes)


def setup_for(game: Game, hands: Sequence[Sequence[Card]], blind: Sequence[Card], picker: int,
              d: BuryDecision) -> Setup:
    """The setup of choice ``d`` on this deal (:meth:`Setup.create <sheepsolve.engine.Setup.create>`)."""
    return Setup.create(game, hands, declarer=picker, blind=blind, bury=d.bury, called=d.called, under=d.under,
                        alone=d.alone)


_SETUP_FIELDS = tuple(f.name for f in dataclasses.fields(Setup) if f.init)


class ChoiceSet:
    """What the choices of a picker holding ``picked`` (his hand and the blind) share in every deal of the other
    cards: the choices in the order they are solved, each one's bury, context (:func:`choice_context`) and kept hand,
    and the guess plan. A picker's view makes it once for all its worlds (:meth:`Memo.choice_set`)."""

    def __init__(self, game: Game, picked: Sequence[Card], decisions: Sequence[BuryDecision],
                 plan: GuessPlan) -> None:
        self.game = game
        self.picked = tuple(picked)
        self.decisions = tuple(decisions)
        self.contexts = [choice_context(d) for d in decisions]
        self.buries = [tuple(d.bury) for d in decisions]
        self.bury_points = [sum(c.points for c in d.bury) for d in decisions]
        self.kept = [frozenset(c for c in picked if c not in d.bury) for d in decisions]
        self.plan = plan


class Memo:
    """What the work of one thread keeps from one choice, world or call to the next, by what it is made from:
    the last :class:`ChoiceSet` (the worlds of a picker's view share it), the guess plans (by the choices'
    features, at most :attr:`PLANS` of them) and the contract games. Never an answer, only work saved."""

    PLANS = 256

    def __init__(self) -> None:
        self._choice_set: tuple[tuple, ChoiceSet] | None = None
        self._plans: dict[tuple, GuessPlan] = {}
        self._games: dict[tuple, Game] = {}

    def choice_set(self, game: Game, picked: Sequence[Card], decisions: Sequence[BuryDecision]) -> ChoiceSet:
        key = (game, tuple(picked), tuple(decisions))
        known = self._choice_set
        if known is None or known[0] != key:
            plan = self.guess_plan(decisions, card_groups(game, picked))
            known = self._choice_set = (key, ChoiceSet(game, picked, decisions, plan))
        return known[1]

    def guess_plan(self, decisions: Sequence[BuryDecision], groups: Mapping[Card, int]) -> GuessPlan:
        features = _features(decisions, groups)
        plan = self._plans.get(features)
        if plan is None:
            if len(self._plans) >= self.PLANS:
                self._plans.clear()
            plan = self._plans[features] = GuessPlan(features)
        return plan

    def contract_game(self, base: Game, c: Contract) -> Game:
        key = (game_spec(base), c.game, c.trump, c.tout, c.ouvert, c.skat == "hand")
        g = self._games.get(key)
        if g is None:
            g = self._games[key] = make_contract_game(base, c.game, c.trump, c.tout, ouvert=c.ouvert,
                                                      hand=c.skat == "hand")
        return g


class DealChoices:
    """The choices of the picker on one deal, solved one after another: the setups (:meth:`Setup.create`, which
    checks everything, once per :func:`choice_context`; the other buries of that context are the same setup with
    another bury, as ``create`` would make it: the side and the call do not depend on which cards are buried),
    the guesses (:class:`Guesser`) and the points in play. The choices are named by their place in the solve
    order."""

    def __init__(self, game: Game, hands: Sequence[Sequence[Card]], blind: Sequence[Card], picker: int,
                 decisions: Sequence[BuryDecision], memo: Memo | None = None) -> None:
        """``decisions``: the choices in the order they will be solved; ``memo``: the work of earlier deals."""
        self.game = game
        self.hands = hands
        self.blind = blind
        self.picker = picker
        self.set = (memo or Memo()).choice_set(game, list(hands[picker]) + list(blind), decisions)
        self.total = sum(map(_CARD_POINTS.__getitem__, itertools.chain(*hands, blind)))
        self.guesser = Guesser(self.set.plan)
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
            st = setup_for(self.game, self.hands, self.blind, self.picker, cs.decisions[i])
            self._base[ctx] = (st, {k: getattr(st, k) for k in _SETUP_FIELDS})
        else:
            p = self.picker
            hands = base[0].hands
            # Setup(**fields), without its __init__ (docs/TUNING.md)
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
        """:func:`own_payment`, remembered: in a picker game it reads the game, the outcome, the stakes and the
        setup's :class:`~sheepsolve.scoring.PaymentTerms` (whether the picker has a partner, which gives the side's
        size, and blitz); the game is this deal's."""
        if self.game.kind != "picker":
            return own_payment(st, outcome, stakes)
        if stakes is not self._stakes:
            self._payments.clear()
            self._stakes = stakes
        key = (outcome, payment_terms(st))
        pay = self._payments.get(key)
        if pay is None:
            pay = self._payments[key] = own_payment(st, outcome, stakes)
        return pay

    def evaluate(self, solvers: Solvers | Solver, i: int, stakes: Stakes) -> Evaluation:
        """Solve choice ``i``."""
        st = self.setup(i)
        e = evaluate(solvers, st, stakes, self.guesser.guess(i), self.total, self.objective(i), self._payment)
        self.guesser.add(i, e.value)
        return e


def contract_setup(game: Game, hands: Sequence[Sequence[Card]], declarer: int, c: Contract,
                   memo: Memo | None = None, blind: Sequence[Card] = ()) -> Setup:
    """The setup of contract ``c`` declared by ``declarer`` on this deal (``memo``: where its game is kept); a Skat
    contract with the skat ``blind``: a hand game leaves it as dealt, counting for the declarer, and ``known``
    puts ``c.discard`` away (``taken`` has no one setup: :func:`contract_evaluation`)."""
    g = (memo or Memo()).contract_game(game, c)
    if c.skat is None:
        return Setup.create(g, hands, declarer=declarer, called=c.called)
    bury = blind if c.skat == "hand" else c.discard
    return Setup.create(g, hands, declarer=declarer, blind=blind, bury=bury)


def contract_evaluation(solvers: Solvers | Solver, game: Game, hands: list[list[Card]], blind: list[Card],
                        declarer: int, c: Contract, stakes: Stakes, by: str, memo: Memo | None = None) -> Evaluation:
    """Contract ``c`` declared by ``declarer`` on this deal, double dummy; a Skat contract ``taken`` takes up the
    skat ``blind`` and puts away the best discard of this deal (:func:`best_decision`)."""
    if c.skat == "taken":
        memo = memo or Memo()
        return best_decision(solvers, memo.contract_game(game, c), hands, blind, declarer, stakes, by, memo)[1]
    return evaluate(solvers, contract_setup(game, hands, declarer, c, memo, blind), stakes)


def _features(decisions: Sequence[BuryDecision], groups: Mapping[Card, int]) -> tuple[tuple[int, ...], ...]:
    """Each choice as a sorted multiset of features: the groups (:func:`card_groups`) of the buried cards and
    the context (negative: -1 for the first context met, -2 for the next, ...)."""
    ctx_ids: dict[tuple, int] = {}
    return tuple(tuple(sorted([groups[c] for c in d.bury] + [ctx_ids.setdefault(choice_context(d), -1 - len(ctx_ids))]))
                 for d in decisions)


class GuessPlan:
    """Where the guesses for choices solved in a fixed order come from, worked out from the choices' features
    (:func:`_features`) alone, once for all the worlds of a picker's view and for the deals whose choices have
    the same features (:meth:`Memo.guess_plan`).

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


class Guesser:
    """Guesses for the value search of the choices of one deal from the values already solved.

    Values are close to additive in the features of :class:`GuessPlan`: ``v(a b) ~ v(a c) + v(d b) - v(d c)``.
    The guess is the median of every such parallelogram among the choices solved, else the value of the last
    solved choice differing in one feature, plus :attr:`BIAS`: a search started below the value costs far more
    than one started above it. The parallelogram median is closer than one neighbour's value, so it gets the
    smaller :attr:`BIAS_PARA` (docs/TUNING.md). A guess only changes the work, never the value.
    """

    BIAS = 3
    BIAS_PARA = 1

    def __init__(self, plan: GuessPlan) -> None:
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




def rank_key(by: str, payment: float, points: float | None) -> tuple:
    """How choices rank: by payment, then points (``by="payment"``), or by points, then payment."""
    p = -1e9 if points is None else points
    return (payment, p) if by == "payment" else (p, payment)


def beat_target(setup: Setup, best: tuple, by: str, stakes: Stakes, total: int, tie: bool) -> int | None:
    """The fewest points (the bury counted) with which ``setup`` could rank above ``best`` (a
    :func:`rank_key`; ``tie``: or equal to it), or None if no result can: a value below it cannot, whatever
    the tricks.

    At each value the key is taken at its best reading: with every point, also schwarz; with no point beyond
    the bury, also a trick taken. That best key never falls as the value rises (more points, never a worse
    result), so the answer is found by bisection."""
    g = setup.game
    ntricks = len(setup.hands[0])
    floor = no_trick_points(Objective.for_setup(setup))

    def best_key(v: int) -> tuple:
        return max(rank_key(by, own_payment(setup, outcome_for(g, v, t, ntricks), stakes), v)
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


def best_decision(solvers: Solvers | Solver, game: Game, hands: list[list[Card]], blind: list[Card], picker: int,
                  stakes: Stakes, by: str, memo: Memo | None = None) -> tuple[BuryDecision, Evaluation]:
    """The best choice of the picker on this deal, double dummy: the first listed of the best. After the first
    one solved, a choice is solved exactly only if one null-window search shows it can take the best's place."""
    solvers = Solvers.of(solvers)
    picked = hands[picker] + blind
    decisions = legal_decisions(game, picked, [c for s, h in enumerate(hands) if s != picker for c in h])
    reps, _ = merge_choices(decisions, card_groups(game, picked))
    order = solve_order(reps)
    choices = DealChoices(game, hands, blind, picker, [reps[j] for j in order], memo)
    best: tuple[tuple, BuryDecision, Evaluation] | None = None
    for k, j in enumerate(order):
        d = reps[j]
        if best is not None and not game.tout and not game.sie and not game.no_trick:
            st = choices.setup(k)
            target = beat_target(st, best[0][0], by, stakes, choices.total, -j > best[0][1])
            if target is None or not solvers.value.reach(st.start(), target):
                continue
        e = choices.evaluate(solvers, k, stakes)
        key = (rank_key(by, e.payment, e.value), -j)  # equal choices: the first listed
        if best is None or key > best[0]:
            best = (key, d, e)
    assert best is not None
    return best[1], best[2]
