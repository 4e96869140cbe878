"""Post-mortem of a played hand: every decision judged double dummy, the bury and the call too.

:func:`annotate_record` replays a record and, for every card played by a player who had a choice, solves the
position before it: the value of every legal card (:meth:`Solver.card_values`), the best card(s), the card
played and what it cost the mover's side, and whether it changed the result (win to loss, schneider, schwarz;
ramsch and leaster: the mover's result as ``sheepsolve solve --seat`` names it, a Durchmarsch included)
and the payment. Forced plays are listed, not analysed. The bury (Sheepshead) and the call (Sheepshead called
ace, sauspiel) are judged on the actual deal against every legal alternative. A summary gives per player the
points given away, and the value of the deal at the first lead against the result.

Values are on the scale of ``sheepsolve solve --json``: the declaring side's final card points (bury and tricks
already won included). Ramsch and leaster have no sides: each decision is solved for the mover's own seat
against all the others (paranoid), where fewer points are better, so the values of a decision are the mover's
own final points. Costs are always in points and never negative:

- declaring side: cost = best value - value of the card played;
- defenders: cost = value of the card played - best value (they want the declaring side low);
- ramsch, leaster: cost = value of the card played - best value (the mover's own points).

One :class:`~sheepsolve.solver.Solver` (one transposition table) serves every decision of a hand, so each
search reuses the entries of the one before. :func:`annotate_play` is the same over an engine
:class:`~sheepsolve.engine.Setup` and a list of cards (positions dealt mid-hand too).

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.engine import Setup
>>> g = make_game("solo", trump="H")
>>> hands = [parse_cards(h) for h in ("9C AS AH", "TC TS 9S", "7S AD TD", "AC 8S TH")]
>>> setup = Setup.create(g, hands, declarer=0)
>>> a = annotate_play(setup, parse_cards("AH TC 7S TH 9C 9S AD AC 8S AS TS TD"),
...                   players=["Sepp", "Vroni", "Hias", "Resi"])
>>> d = a.decisions[5]
>>> d.player, str(d.card), {str(c): v for c, v in d.values.items()}, d.cost, d.mark
('Vroni', '9S', {'TS': 52, '9S': 62}, 10, '??')
>>> print(d.swing)
loss -> win (payment -50 -> +50)
>>> [(x.player, x.forced) for x in a.decisions[1:4]]
[('Vroni', False), ('Hias', False), ('Resi', True)]
>>> a.summary.deal_value, a.summary.result_value, a.summary.given_away
(52, 62, -10)
>>> a.to_dict()["decisions"][5]["values"]
{'TS': 52, '9S': 62}

Vroni, void in clubs, keeps his ten of spades instead of throwing it on his partner's ace: the soloist's value
goes from 52 to 62 and the defenders lose a won game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .bury.judgement import BuryJudgement, BuryOption, judge_bury_and_call
from .cards import Card
from .engine import RulesError, Setup, State
from .games import Game
from .record import Record, RecordError
from .judge import Judge, Swing
from .scoring import SkatValue, Stakes, score, tally
from .solver import Solver, SolverError

__all__ = [
    "Annotation",
    "AnnotateError",
    "BuryJudgement",
    "BuryOption",
    "Decision",
    "PlayerSummary",
    "Summary",
    "Swing",
    "annotate_play",
    "annotate_record",
]


class AnnotateError(SolverError):
    """A record that cannot be annotated (an unknown hand, blind or bury)."""


# --------------------------------------------------------------------------------------------------------------
# The answer.


@dataclass(frozen=True)
class Decision:
    """One card played. ``values`` maps every legal card to the final value if it is played (empty for a forced
    play); ``value`` is the value before the play (the best card's), ``after`` the value after the card played
    (``None`` where not analysed: forced plays in ramsch and leaster)."""

    index: int  # 0-based number of the card in the play
    trick: int  # 1-based
    seat: int
    player: str
    card: Card
    legal: tuple[Card, ...]
    values: dict[Card, int]
    value: int | None
    after: int | None
    best: tuple[Card, ...]
    cost: int
    swing: Swing | None
    forced: bool
    side: str  # "declaring", "defending", or "self" (ramsch, leaster: the mover's own points)
    view: Any = None  # annotate --view player: a sheepsolve.player.annotate.DecisionView (None for forced plays)

    @property
    def mark(self) -> str:
        """``??`` when the card changed the result, ``?`` when it cost points, else ``""``."""
        if self.swing is not None:
            return "??"
        return "?" if self.cost > 0 else ""

    @property
    def error(self) -> bool:
        return self.cost > 0 or self.swing is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "player": self.player,
            "card": str(self.card),
            "legal": [str(c) for c in self.legal],
            "values": {str(c): v for c, v in self.values.items()},
            "value": self.value,
            "after": self.after,
            "best": [str(c) for c in self.best],
            "cost": self.cost,
            "swing": self.swing.to_dict() if self.swing is not None else None,
            "forced": self.forced,
            "side": self.side,
            "mark": self.mark,
        } | ({"view": self.view.to_dict()} if self.view is not None else {})


@dataclass(frozen=True)
class PlayerSummary:
    """One player's play: decisions (with a choice), forced plays, errors (cost > 0 or a swing), the points given
    away (sum of costs), result swings and the largest error."""

    player: str
    seat: int
    side: str
    decisions: int
    forced: int
    errors: int
    given_away: int
    swings: int
    largest: Decision | None
    view: Any = None  # annotate --view player: a sheepsolve.player.annotate.PlayerView

    def to_dict(self) -> dict[str, Any]:
        big = self.largest
        return {"side": self.side, "decisions": self.decisions, "forced": self.forced, "errors": self.errors,
                "given_away": self.given_away, "swings": self.swings,
                "largest": None if big is None else {"trick": big.trick, "card": str(big.card), "cost": big.cost,
                                                    "best": [str(c) for c in big.best]}} | (
            {"view": self.view.to_dict()} if self.view is not None else {})


@dataclass(frozen=True)
class Summary:
    """The hand as a whole. Two-sided games: ``deal_value`` is the declaring side's value at the first lead,
    ``result_value`` its points at the end (an unfinished hand: the value of its last position under perfect
    play from there), ``given_away`` the difference (what play cost the declaring side, net)."""

    players: tuple[PlayerSummary, ...]
    finished: bool
    deal_value: int | None = None
    deal_outcome: str | None = None
    deal_payment: int | None = None
    result_value: int | None = None
    result_outcome: str | None = None
    result_payment: int | None = None
    given_away: int | None = None
    declaring_cost: int | None = None
    defending_cost: int | None = None
    points: dict[str, int] | None = None  # card points per player so far (bury counted), every game
    outcome: str | None = None  # the scorer's outcome of a finished hand
    skat: SkatValue | None = None  # a finished Skat hand's game value and list score (not in the JSON)

    def to_dict(self, text: str = "") -> dict[str, Any]:
        """The JSON's ``summary``; ``text``: the hand in words (:func:`sheepsolve.render.annotate.summary_text`,
        as :func:`sheepsolve.commands.annotate` gives it)."""
        return {
            "text": text, "finished": self.finished,
            "deal_value": self.deal_value, "deal_outcome": self.deal_outcome, "deal_payment": self.deal_payment,
            "result_value": self.result_value, "result_outcome": self.result_outcome,
            "result_payment": self.result_payment, "given_away": self.given_away,
            "given_away_by_side": (None if self.declaring_cost is None else
                                   {"declaring": self.declaring_cost, "defending": self.defending_cost}),
            "points": self.points, "outcome": self.outcome,
            "players": {p.player: p.to_dict() for p in self.players},
        }


@dataclass(frozen=True)
class Annotation:
    """Everything :func:`annotate_record` found. ``to_dict()`` is what ``sheepsolve annotate --json`` prints."""

    game: Game
    players: tuple[str, ...]
    setup: Setup
    declaring: tuple[int, ...]
    decisions: tuple[Decision, ...]
    bury: BuryJudgement | None
    summary: Summary
    finished: bool
    stakes: Stakes = field(default_factory=Stakes)
    seconds: float = 0.0
    bury_seconds: float = 0.0
    view: Any = None  # annotate --view player: a sheepsolve.player.annotate.ViewSettings (how the worlds were chosen)

    @property
    def two_sided(self) -> bool:
        return self.game.two_sided

    @property
    def scale(self) -> str:
        return "declaring side" if self.two_sided else "mover"

    def errors(self, min_cost: int = 1) -> list[Decision]:
        """Decisions that cost at least ``min_cost`` points, and every decision that changed the result."""
        return [d for d in self.decisions if not d.forced and (d.cost >= min_cost or d.swing is not None)]

    def to_dict(self, summary_text: str = "") -> dict[str, Any]:
        """JSON-ready data: ``decisions``, ``bury``, ``summary`` and a few facts about the hand; ``summary_text``:
        the summary in words (:func:`sheepsolve.render.annotate.summary_text`), its ``text``."""
        return {
            "game": self.game.name,
            "title": self.game.title,
            "players": list(self.players),
            "declaring": [self.players[s] for s in self.declaring] if self.two_sided else None,
            "scale": ("the declarer's tricks (he wins with none)" if self.game.no_trick else
                      "the declaring side's final card points" if self.two_sided else
                      "the mover's own final card points, every other player against him (lower is better)"),
            "finished": self.finished,
            "decisions": [d.to_dict() for d in self.decisions],
            "bury": self.bury.to_dict() if self.bury is not None else None,
            "summary": self.summary.to_dict(summary_text),
            "seconds": round(self.seconds, 6),
            "bury_seconds": round(self.bury_seconds, 6),
        } | ({"view": self.view.to_dict()} if self.view is not None else {})


# --------------------------------------------------------------------------------------------------------------
# The annotation.


def annotate_record(rec: Record, *, solver: Solver | None = None, judge_bury: bool = True,
                    exact_bury: bool = False) -> Annotation:
    """Annotate every decision of a record's play, the bury and the call (see the module docstring).

    Refuses a record whose hands, blind or bury are not all known (:class:`AnnotateError`). An unfinished record
    is annotated as far as it goes. ``judge_bury=False`` skips the bury and call; ``exact_bury=True`` solves every
    alternative exactly instead of only asking whether it beats the best one found so far.
    """
    if not rec.complete:
        try:
            rec.setup()
        except RecordError as e:
            raise AnnotateError(f"{e}; annotate solves double dummy and needs every hand (and the blind and "
                                f"bury)") from None
    setup = rec.setup()
    stakes = Stakes(crack=rec.crack, recrack=rec.recrack, doublers=rec.doublers)
    plays = [c for t in rec.play for c in t]
    return annotate_play(setup, plays, players=rec.players, stakes=stakes, solver=solver, judge_bury=judge_bury,
                         exact_bury=exact_bury, states=rec.replay.states)


def annotate_play(setup: Setup, plays: Sequence[Card], *, players: Sequence[str] | None = None,
                  stakes: Stakes | None = None, solver: Solver | None = None, judge_bury: bool = True,
                  exact_bury: bool = False, states: Sequence[State] | None = None) -> Annotation:
    """Annotate ``plays`` (cards in play order) from ``setup.start()``; raises :class:`RulesError` on an illegal
    card. ``states``: the positions at the first lead and after each card of ``plays`` when they are known (a
    record's kept replay, :attr:`Replay.states <sheepsolve.record.replay.Replay.states>`): taken as they are, the
    cards not played again. See :func:`annotate_record`."""
    g = setup.game
    names = tuple(players) if players is not None else tuple(str(i + 1) for i in range(g.seats))
    if len(names) != g.seats:
        raise ValueError(f"players: {g.name} has {g.seats} players, got {len(names)} names")
    stakes = stakes or Stakes()
    solver = solver or Solver()
    judge = Judge(setup, stakes, solver)
    t0 = time.perf_counter()
    if states is not None and len(states) != len(plays) + 1:
        raise ValueError(f"states: {len(plays) + 1} positions for {len(plays)} cards, got {len(states)}")
    state = states[0] if states is not None else setup.start()
    decisions: list[Decision] = []
    chain: int | None = None  # two-sided: the value of the current position, when known
    deal_value: int | None = None
    for i, card in enumerate(plays):
        if state.finished:
            raise RulesError(f"play: card {i + 1} ({card}): the hand is already over")
        legal = tuple(state.legal())
        seat = state.to_move
        trick = len(state.tricks) + 1
        side = ("declaring" if seat in setup.team else "defending") if g.two_sided else "self"
        if card not in legal:
            state.play(card)  # raises RulesError with the reason
        if len(legal) == 1:
            if g.two_sided and chain is None:
                chain = solver.value(state, judge.objective(None))
            nxt = states[i + 1] if states is not None else state.play(card, check=False)  # legal: checked above
            judge.pass_on(state, nxt)
            decisions.append(Decision(index=i, trick=trick, seat=seat, player=names[seat], card=card, legal=legal,
                                      values={}, value=chain, after=chain, best=legal, cost=0, swing=None,
                                      forced=True, side=side))
        else:
            obj = judge.objective(seat)
            values = judge.solver_for(seat).card_values(state, obj, guess=chain if g.two_sided else None)
            maxing = (seat in obj.team) == obj.maximize
            best_v = max(values.values()) if maxing else min(values.values())
            v = values[card]
            cost = best_v - v if maxing else v - best_v
            nxt = states[i + 1] if states is not None else state.play(card, check=False)  # legal: checked above
            swing = judge.swing(state, values, card, maxing, nxt)
            decisions.append(Decision(index=i, trick=trick, seat=seat, player=names[seat], card=card, legal=legal,
                                      values=values, value=best_v, after=v,
                                      best=tuple(c for c in legal if values[c] == best_v), cost=cost, swing=swing,
                                      forced=False, side=side))
            if g.two_sided:
                chain = v
        if deal_value is None and g.two_sided:
            deal_value = decisions[-1].value
        state = nxt
    if g.two_sided and deal_value is None:  # no play at all
        deal_value = solver.value(state, judge.objective(None)) if not g.sie else judge.objective(None).bury_points
        chain = deal_value
    play_seconds = time.perf_counter() - t0

    t1 = time.perf_counter()
    bury = None
    if judge_bury and g.two_sided and deal_value is not None and max(len(h) for h in setup.hands) == g.hand_size:
        bury = judge_bury_and_call(judge, names, deal_value, exact=exact_bury)
    bury_seconds = time.perf_counter() - t1

    summary = _summarize(judge, names, state, decisions, deal_value, chain)
    return Annotation(game=g, players=names, setup=setup, declaring=tuple(sorted(setup.team)),
                      decisions=tuple(decisions), bury=bury, summary=summary, finished=state.finished,
                      stakes=stakes, seconds=play_seconds, bury_seconds=bury_seconds)


def _summarize(judge: Judge, names: tuple[str, ...], state: State, decisions: list[Decision],
               deal_value: int | None, chain: int | None) -> Summary:
    setup, g = judge.setup, judge.game
    per = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d.seat == seat]
        chosen = [d for d in mine if not d.forced]
        errors = [d for d in chosen if d.error]
        largest = max(errors, key=lambda d: (d.cost, d.swing is not None, -d.index), default=None)
        side = ("declaring" if seat in setup.team else "defending") if g.two_sided else "self"
        per.append(PlayerSummary(player=name, seat=seat, side=side, decisions=len(chosen),
                                 forced=len(mine) - len(chosen), errors=len(errors),
                                 given_away=sum(d.cost for d in chosen), swings=sum(1 for d in chosen if d.swing),
                                 largest=largest))
    t = tally(state)
    points = {names[s]: p for s, p in enumerate(t.points)}
    outcome = None
    scored = None
    if state.finished and max(len(h) for h in setup.hands) == g.hand_size:
        try:
            scored = score(state, judge.stakes)
            outcome = scored.to_dict(list(names))["outcome"]
        except ValueError:
            outcome = None
    if not g.two_sided:
        return Summary(players=tuple(per), finished=state.finished, points=points, outcome=outcome)
    obj = judge.objective(None)
    if state.finished:
        result = obj.final_value(state)
    else:
        result = chain if chain is not None else judge.solver.value(state, obj)
    deal_outcome = judge.outcome(setup.start(), deal_value) if deal_value is not None else None
    result_outcome = judge.outcome(state, result)
    decl = sum(d.cost for d in decisions if d.side == "declaring")
    dfn = sum(d.cost for d in decisions if d.side == "defending")
    given = deal_value - result if deal_value is not None else None
    return Summary(players=tuple(per), finished=state.finished, deal_value=deal_value, deal_outcome=deal_outcome,
                   deal_payment=judge.payment(deal_outcome) if deal_outcome else None, result_value=result,
                   result_outcome=result_outcome, result_payment=judge.payment(result_outcome), given_away=given,
                   declaring_cost=decl, defending_cost=dfn, points=points, outcome=outcome,
                   skat=scored.skat if scored is not None else None)


