"""What the bury tools answer: the statistics of a choice over the worlds (:class:`Sampled`), a ranking of every
bury and call (:class:`BuryRanking`, with its rows and the lesson, :class:`BuryLesson`, where the double-dummy
best and the best in expectation disagree or the record's choice is not among the best; worded in
:mod:`sheepsolve.render.choices`), pick or pass (:class:`PickResult`) and every contract (:class:`ChoiceResult`). Each gives
its JSON from its own ``to_dict``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..games import Game
from ..stats import mean_se, rounded, within_noise
from .choices import BuryDecision, Contract

__all__ = ["BURY_CAVEAT", "BURY_CAVEAT_ACTUAL", "CHOOSE_CAVEAT", "role_of", "unit_of", "Sampled", "choice_stats",
           "with_diffs", "competition_ranks", "effective_worlds", "BuryRow", "SampledRow", "BuryRanking",
           "BuryLesson", "DealLesson", "RecordLesson", "PickResult", "ContractRow", "ChoiceResult", "alone_note"]

BURY_CAVEAT = ("each world is solved double dummy (every player sees every card once the play starts), so the "
               "figures read the picker optimistically")
"""The caveat ``bury`` states from the picker's view (``pick`` states the same of picking)."""
BURY_CAVEAT_ACTUAL = ("every player is read as seeing every card, which no player does: the ranking says what "
                      "each choice is worth on this lie of the cards")
"""The caveat of the double-dummy ranking on the actual deal."""
CHOOSE_CAVEAT = ("each world is solved double dummy (every player sees every card once the play starts), so the "
                 "figures read the declarer optimistically")
"""The caveat ``choose`` states."""


def role_of(game: Game) -> str:
    """Who makes the choice: ``picker``, or in Skat ``declarer`` (his discard is the bury of this package)."""
    return "declarer" if game.family == "skat" else "picker"


def unit_of(game: Game) -> str:
    """What a payment counts: Sheepshead ``units``, Schafkopf ``money``, Skat ``score`` (the declarer's score)."""
    return {"sheepshead": "units", "skat": "score"}.get(game.family, "money")


# --------------------------------------------------------------------------------------------------------------
# Statistics over worlds


@dataclass(frozen=True)
class Sampled:
    """Statistics of one choice over the sampled worlds.

    ``mean``/``stderr``: the declaring side's points (None for tout and sie); ``p61``, ``p91``: share of worlds
    with 61 points or more, and with schneider's (91, in Skat 90: :func:`~sheepsolve.scoring.schneider_points`);
    ``pschwarz``: share where the side takes every trick; ``pwin``: share won; ``payment``/``payment_stderr``: the
    declarer's own payment; ``vs_best``/``vs_best_stderr``: the mean
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


def choice_stats(evals: Sequence[tuple], exact: bool = False, weights: Sequence[float] | None = None,
                 schneider: int = 91) -> Sampled:
    """The statistics of one choice over the worlds' results; ``exact`` (every world solved): no sampling error,
    every standard error 0. ``weights``: each world's weight (None: alike; :mod:`sheepsolve.weighting`).
    ``schneider``: the points counted by ``p91`` (:func:`~sheepsolve.scoring.schneider_points`: 90 in Skat)."""
    if weights is not None:
        return _weighted_stats(evals, exact, weights, schneider)
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
                   p91=sum(v >= schneider for v in vals) / n if points else None,
                   pschwarz=sum(bool(e[4]) for e in evals) / n,
                   pwin=sum(e[1] in _WON for e in evals) / n, payment=pm, payment_stderr=pse, values=tuple(vals))


def _weighted_stats(evals: Sequence[tuple], exact: bool, ws: Sequence[float], schneider: int = 91) -> Sampled:
    """:func:`choice_stats` over weighted worlds: weighted means and shares, the importance-sampling standard
    errors."""
    from ..weighting import weighted_mean_se

    total = math.fsum(ws)
    vals = [e[0] for e in evals]
    points = None not in vals
    mean, se = weighted_mean_se([float(v) for v in vals], ws) if points else (None, None)
    pm, pse = weighted_mean_se([float(e[2]) for e in evals], ws)
    if exact:
        se = 0.0 if points else None
        pse = 0.0

    def share(hit: Callable[[tuple], bool]) -> float:
        return math.fsum(w for e, w in zip(evals, ws) if hit(e)) / total

    return Sampled(worlds=len(evals), mean=mean, stderr=se,
                   p61=share(lambda e: e[0] >= 61) if points else None,
                   p91=share(lambda e: e[0] >= schneider) if points else None,
                   pschwarz=share(lambda e: bool(e[4])), pwin=share(lambda e: e[1] in _WON), payment=pm,
                   payment_stderr=pse, values=tuple(vals))


def effective_worlds(weights: Sequence[float] | None, count: int) -> float:
    """The effective number of worlds (``count`` when they are alike)."""
    from ..weighting import effective_size

    return float(count) if weights is None else effective_size(weights)


def _measure(e: tuple, by: str) -> float:
    if by == "points" and e[0] is not None:
        return float(e[0])
    return float(e[2])


def with_diffs(columns: Sequence[Sequence[tuple]], stats: Sequence[Sampled], best: int, by: str,
                exact: bool = False, weights: Sequence[float] | None = None) -> list[Sampled]:
    from ..weighting import weighted_mean_se

    out = []
    for j, st in enumerate(stats):
        diffs = [_measure(a, by) - _measure(b, by) for a, b in zip(columns[j], columns[best])]
        m, se = mean_se(diffs) if weights is None else weighted_mean_se(diffs, weights)
        out.append(Sampled(**{**st.__dict__, "vs_best": m,
                              "vs_best_stderr": se if j != best and not exact else 0.0}))
    return out


def competition_ranks(keys: Sequence[tuple]) -> list[int]:
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
    (:func:`~sheepsolve.stats.within_noise`, the rule ``suggest`` applies to cards)."""

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
    assumes: str = ""  # picker's view: what the worlds assume (one line)
    effective: float = 0.0  # picker's view: the effective number of worlds (the worlds when alike)
    inference: str = "none"  # picker's view: "auction" when the worlds are weighed (by the passes before him)
    weighed: int = 0  # picker's view: the deals drawn and weighed for the worlds (rejection control)

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
        return unit_of(self.game)

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
    def lesson(self) -> "BuryLesson | None":
        """From the picker's view, what there is to learn (:class:`BuryLesson`; worded by
        :func:`sheepsolve.render.choices.lesson_text`): where the best choice on the actual deal (when every hand
        is known) is not among the best in expectation, and where the record's own choice is not among the best
        in expectation, what it costs against the best (:meth:`record_cost`), also when only the picker's hand is
        known. None when there is neither."""
        if self.view != "picker":
            return None
        deal = self._deal_lesson()
        record = self._record_lesson()
        if deal is not None and self.actual is not None and self.record_choice is not None:
            row = self.row_of(self.record_choice)
            if row is not None and row.decision == self.actual.rows[0].decision:
                record = None  # the deal's lesson already gives that choice's cost
        if deal is None and record is None:
            return None
        return BuryLesson(seat=self.players[self.picker], role=role_of(self.game), unit=unit_of(self.game),
                          measure=self.unit, by=self.by, worlds=self.worlds, deal=deal, record=record)

    def _record_lesson(self) -> "RecordLesson | None":
        cost = self.record_cost()
        if cost is None or cost[2]:
            return None
        best = self.rows[0]
        assert isinstance(best, SampledRow) and self.record_choice is not None
        row = self.row_of(self.record_choice)
        assert isinstance(row, SampledRow)
        others = len({r.decision for r in self.rows if isinstance(r, SampledRow) and r.tie} - {best.decision})
        return RecordLesson(choice=self.record_choice, row=row, cost=cost[0], cost_stderr=cost[1], best=best,
                            others_tied=others)

    @property
    def actual_agrees(self) -> bool:
        """From the picker's view with the actual deal known: a best choice on the deal is among the best in
        expectation (no lesson from the deal)."""
        return self.view == "picker" and self.actual is not None and any(d in self.actual.best for d in self.best)

    def _deal_lesson(self) -> "DealLesson | None":
        if self.actual is None or self.actual_agrees:
            return None
        on_deal = self.actual.rows[0]
        expected = self.rows[0]
        assert isinstance(on_deal, BuryRow) and isinstance(expected, SampledRow)
        expected_on_deal = self.actual.row_of(expected.decision)
        deal_best_in_worlds = self.row_of(on_deal.decision)
        return DealLesson(
            deal_best=on_deal, expected_best=expected,
            expected_best_on_deal=expected_on_deal if isinstance(expected_on_deal, BuryRow) else None,
            deal_best_in_worlds=deal_best_in_worlds if isinstance(deal_best_in_worlds, SampledRow) else None)

    def to_dict(self, lesson: str | None = None) -> dict[str, Any]:
        """The JSON of ``bury --json``; ``lesson``: :attr:`lesson` in words
        (:func:`sheepsolve.render.choices.lesson_text`, as :func:`sheepsolve.commands.bury` gives it), its
        ``lesson`` key (null without it)."""
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
            out.update({"worlds": self.worlds, "exact": self.exact, "seed": self.seed,
                        "effective_worlds": rounded(self.effective, 1), "assumes": self.assumes,
                        "inference": self.inference, "deals_weighed": self.weighed})
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
        out["lesson"] = lesson
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
        worlds = (f"{self.worlds} worlds (every deal of the unseen cards)" if self.exact else
                  f"{self.worlds} sampled worlds")
        return (f"every choice solved double dummy in the same {worlds} (the unseen cards: "
                f"{self.assumes or 'every deal is equally likely'}); the best and every choice within two standard "
                f"errors of it, world by world, tie: " + self.caveat)

    @property
    def caveat(self) -> str:
        """:data:`BURY_CAVEAT` or :data:`BURY_CAVEAT_ACTUAL`, of the declarer in Skat."""
        text = BURY_CAVEAT if self.view == "picker" else BURY_CAVEAT_ACTUAL
        return text.replace("the picker", f"the {role_of(self.game)}")


def alone_note(game: Game, picked: Sequence[Card]) -> str | None:
    """Why every choice leaves the picker alone, when it does (never said of Skat, where the declarer always is)."""
    if game.family == "skat":
        return None
    if game.partner == "jack-of-diamonds":
        jd = Card.make("J", "D")
        if jd in picked and not game.rules.get("call_up"):
            where = "from the blind" if jd not in picked[: len(picked) - game.blind_size] else "in his hand"
            return (f"the picker holds the jack of diamonds ({where}): every bury leaves him alone "
                    f"(burying it does too)")
    if game.partner == "alone" or (game.kind == "picker" and game.seats != 5):
        return "the picker always plays alone in this game"
    return None


@dataclass(frozen=True)
class DealLesson:
    """The best choice on the actual deal (``deal_best``) is not among the best in expectation
    (``expected_best``, the first of them): with what the latter gives on this deal and what the former averages
    over the worlds, where they are among the rows."""

    deal_best: BuryRow
    expected_best: SampledRow
    expected_best_on_deal: BuryRow | None
    deal_best_in_worlds: SampledRow | None


@dataclass(frozen=True)
class RecordLesson:
    """The record's own choice (``choice``, its ``row``) is not among the best in expectation: what it costs
    against the best (``best``) world by world, its standard error, and how many more choices tie with the
    best."""

    choice: BuryDecision
    row: SampledRow
    cost: float
    cost_stderr: float | None
    best: SampledRow
    others_tied: int


@dataclass(frozen=True)
class BuryLesson:
    """What a ranking from the picker's view teaches (:attr:`BuryRanking.lesson`), as data: who chose
    (``seat``, his ``role``), what a payment counts (``unit``) and what the ranking measures (``measure``, ranked
    ``by``), over how many ``worlds``; the lesson of the deal and of the record's choice (either may be None)."""

    seat: str
    role: str
    unit: str
    measure: str
    by: str
    worlds: int
    deal: DealLesson | None
    record: RecordLesson | None


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
    assumes: str = ""  # what the worlds assume (one line)
    effective: float = 0.0  # the effective number of worlds (the worlds when alike)
    inference: str = "none"  # "auction" when the worlds are weighed (by the passes before the seat)
    weighed: int = 0  # the deals drawn and weighed for the worlds (rejection control)

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
            "effective_worlds": rounded(self.effective, 1), "assumes": self.assumes,
            "inference": self.inference, "deals_weighed": self.weighed,
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
    """Every contract a Schafkopf or Skat hand may declare, best first, against passing (worth 0); ``skat``: the
    skat taken and known (Skat), None before it is taken."""

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
    assumes: str = ""  # what the worlds assume (one line)
    effective: float = 0.0  # the effective number of worlds (the worlds when alike)
    inference: str = "none"  # "auction" when the worlds are weighed (by the passes before the seat)
    weighed: int = 0  # the deals drawn and weighed for the worlds (rejection control)
    skat: tuple[Card, ...] | None = None

    @property
    def decision(self) -> str:
        return self.rows[0].contract.label() if self.rows and self.rows[0].stats.payment > 0 else "pass"

    @property
    def procedure(self) -> str:
        """How the figures were made, in words, with the caveat."""
        if self.game.family != "skat":
            return ("each contract solved double dummy in the same sampled worlds; passing is worth 0 (ramsch or "
                    "another player's game after a pass is out of scope); the best and every choice within two "
                    "standard errors of it, world by world, tie: " + CHOOSE_CAVEAT)
        how = ("the skat known and taken up, each contract with the discard best in expectation over these worlds "
               "of the defenders' hands (every discard solved in each)" if self.skat is not None else
               "the skat unseen, dealt with the defenders' hands: a hand game leaves it as dealt, counting for the "
               "declarer; with the skat taken the declarer puts away the best discard of each world (he is "
               "credited with seeing every card when he discards: an optimistic reading)")
        return (f"each contract solved double dummy in the same sampled worlds, {how}; the payment is the "
                f"declarer's score, a game that cannot cover the bid lost; passing is worth 0; the best and every "
                f"choice within two standard errors of it, world by world, tie: " + CHOOSE_CAVEAT)

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
        skat = self.game.family == "skat"
        out = {"game": "skat" if skat else "schafkopf", "seat": self.players[self.seat],
               "hand": [str(c) for c in self.hand]}
        if skat:
            out.update({"skat": None if self.skat is None else [str(c) for c in self.skat],
                        "bid": getattr(self.game, "bid", None)})
        return {**out,
                "worlds": self.worlds, "exact": self.exact, "seed": self.seed, "ranked_by": self.by,
                "effective_worlds": rounded(self.effective, 1), "assumes": self.assumes,
                "inference": self.inference, "deals_weighed": self.weighed, "payment_of": "declarer",
                "contracts": rows, "decision": self.decision, "best": self.best,
                "procedure": self.procedure,
                "seconds": round(self.seconds, 6)}
