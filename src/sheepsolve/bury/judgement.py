"""``annotate``'s judgement of the bury and the call: the choice made against every legal one on the actual
deal (every hand known), double dummy, by the declaring side's points at the first lead; the outcome and payment
of each are the judge's (:mod:`sheepsolve.judge`). The choices are those the bury tools list
(:func:`~sheepsolve.bury.choices.deal_choices`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Setup
from ..judge import Judge, Swing, outcome_of
from ..objective import Objective
from .choices import BuryDecision, PickerChoice, deal_choices

__all__ = ["BuryOption", "BuryJudgement", "judge_bury_and_call"]


@dataclass(frozen=True)
class BuryOption(PickerChoice):
    """One bury (and call) the picker could have made, with its value at the first lead.

    ``choice`` is the bury, call and card under; ``alone``: the picker has no partner with it. ``value`` is exact
    when ``exact``; otherwise the option was shown not to beat the best option known at the time it was tried
    and ``value`` is that bound (the option is worth at most ``value``; in null and Bettel, where the declarer
    keeps his tricks down, at least). ``payment`` is what each defender
    pays the declaring side for ``outcome`` (exact options only).
    """

    value: int
    exact: bool
    outcome: str | None = None
    payment: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"bury": [str(c) for c in self.bury], "call": str(self.call) if self.call is not None else None,
                "under": str(self.under) if self.under is not None else None, "alone": self.alone,
                "value": self.value, "exact": self.exact, "outcome": self.outcome, "payment": self.payment}


@dataclass(frozen=True)
class BuryJudgement:
    """The bury and/or call chosen against the best one on the actual deal (every hand known).

    ``options`` lists every option compared (``compared`` says which), best first; ``best`` those known to reach
    ``best_value``. ``others`` are legal options left out of the comparison (a lone picker is compared only with
    other lone plays and a picker with a partner only with partner calls: going alone is a choice of stakes,
    not of points).
    """

    kind: str  # "bury", "call", "bury and call"
    picker: str
    chosen: BuryOption
    best: tuple[BuryOption, ...]
    best_value: int
    cost: int
    swing: Swing | None
    compared: str
    options: tuple[BuryOption, ...]
    others: tuple[BuryOption, ...] = ()
    exact: bool = False
    view: Any = None  # annotate --view player: a sheepsolve.player.annotate.BuryView (the same choice from the picker's view)

    @property
    def mark(self) -> str:
        if self.swing is not None:
            return "??"
        return "?" if self.cost > 0 else ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "picker": self.picker, "chosen": self.chosen.to_dict(),
                "value": self.chosen.value, "best": [o.to_dict() for o in self.best], "best_value": self.best_value,
                "cost": self.cost, "swing": self.swing.to_dict() if self.swing is not None else None,
                "mark": self.mark, "compared": self.compared, "exact": self.exact,
                "options": [o.to_dict() for o in self.options], "others": [o.to_dict() for o in self.others]} | (
                    {"view": self.view.to_dict()} if self.view is not None else {})


def _same(setup: Setup, d: BuryDecision) -> bool:
    return set(d.bury) == set(setup.bury) and d.called == setup.called and d.under == setup.under


def judge_bury_and_call(judge: Judge, names: tuple[str, ...], chosen_value: int, *, exact: bool) -> BuryJudgement | None:
    """The bury and call of ``judge``'s setup against every legal one on the actual deal (:class:`BuryJudgement`),
    ``chosen_value`` being the chosen one's value at the first lead; None when there is nothing to compare."""
    setup, solver = judge.setup, judge.solver
    kind, opts = deal_choices(setup)
    if len(opts) < 2:
        return None
    chosen_alone = setup.partner is None
    g = setup.game
    chosen_out = judge.outcome(setup.start(), chosen_value)
    chosen = BuryOption(BuryDecision(tuple(sorted(setup.bury, key=int)), setup.called, setup.under,
                                     chosen_alone and g.partner == "called-ace"),
                        alone=chosen_alone, value=chosen_value, exact=True, outcome=chosen_out,
                        payment=judge.payment(chosen_out))
    compared: list[BuryOption] = [chosen]
    others: list[BuryOption] = []
    restrict = g.partner == "called-ace"
    exact = exact or len(opts) <= 4  # a few calls: solve them all
    # the declaring side's objective: its points up; a null or Bettel declarer's tricks down
    sign = 1 if Objective.for_setup(setup).maximize else -1
    best = chosen_value
    other_best: int | None = None
    for d, st in opts:
        if _same(setup, d):
            continue
        alone = st.partner is None
        start = st.start()
        comparable = not restrict or alone == chosen_alone
        # Exact values only where needed: an option that cannot beat the best one so far (one null-window
        # search) is recorded with that bound.
        bound = best if comparable else other_best
        if exact or bound is None or (solver.reach(start, bound + 1) if sign > 0 else not solver.reach(start, bound)):
            v = solver.value(start)
            # the option's own side and bury decide its trick results (another call, another partner)
            out = outcome_of(judge.tricks_solver, start, Objective.for_setup(st), v)
            opt = BuryOption(d, alone=alone, value=v, exact=True, outcome=out, payment=judge.payment(out, st))
        else:
            opt = BuryOption(d, alone=alone, value=bound, exact=False)
        if comparable:
            compared.append(opt)
            best = max(best, opt.value, key=lambda v: sign * v)
        else:
            others.append(opt)
            other_best = opt.value if other_best is None else max(other_best, opt.value, key=lambda v: sign * v)
    compared.sort(key=lambda o: (-sign * o.value, not o.exact))
    others.sort(key=lambda o: (-sign * o.value, not o.exact))
    bests = tuple(o for o in compared if o.exact and o.value == best)
    swing = None
    if sign * best > sign * chosen_value:
        b = bests[0]
        if b.outcome is not None and b.outcome != chosen_out:
            swing = Swing(b.outcome, chosen_out, b.payment, chosen.payment)
    if restrict:
        what = ("buries playing alone" if chosen_alone else "buries and partner calls")
    elif kind == "call":
        what = "the calls the declarer's hand allows"
    else:
        held = len(setup.hands[setup.declarer]) + g.bury_size
        what = (f"every discard of {g.bury_size} of the declarer's {held} cards" if g.family == "skat"
                else f"every bury of {g.bury_size} of the picker's {held} cards")
    return BuryJudgement(kind=kind, picker=names[setup.declarer], chosen=chosen, best=bests, best_value=best,
                         cost=sign * (best - chosen_value), swing=swing, compared=what, options=tuple(compared),
                         others=tuple(others), exact=exact)
