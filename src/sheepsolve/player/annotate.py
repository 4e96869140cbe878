"""``annotate --view player``: every decision of a played hand judged again from the mover's own view at that
moment (:func:`annotate_view`), and the bury and call from the picker's (:func:`bury_view`)."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bury.choices import BuryDecision, PickerChoice
from ..cards import Card
from ..objective import Objective
from ..pool import UnitRunner
from ..solver import Solver
from ..stats import rounded
from ..worlds import ALL_WORLDS_CAP, Knowledge, World, WorldSampler, WorldsError, auction_facts
from .options import VIEW_TABLE_MIB
from .solve import (Race, race_guesses, race_keep, race_rounds, races, solve_world, summarize_cards, worker_knowledge,
                    worker_solver)
from ..constraints import parse_constraints
from ..weighting import CAVEAT, assumption, beliefs, effective_size, pick_worlds, weighs, world_weights

__all__ = ["DecisionView", "PlayerView", "ViewSettings", "BuryViewRow", "BuryView", "bury_view", "annotate_view"]


@dataclass(frozen=True)
class DecisionView:
    """One decision judged from the mover's own view at that moment: each legal card's mean over the worlds
    (``values``) and standard error, the best cards (ties within noise), and the expected ``cost`` of the card
    played against the best mean (never negative) with its standard error (world by world: common worlds).
    ``error``: the cost is beyond the noise (the card is not among the best) and at least the ``--min-cost``
    asked for (1 point when none)."""

    worlds: int
    exact: bool
    values: dict[Card, float]
    stderr: dict[Card, float | None]
    best: tuple[Card, ...]
    cost: float
    cost_stderr: float | None
    error: bool
    top: float  # the best mean
    worlds_solved: dict[Card, int] | None = None  # per card: the worlds it was solved in (racing: fewer)
    effective: float | None = None  # what the (weighted) worlds are worth in uniform worlds
    # other player's name -> {"trumps": expected trumps held now, "cards": {card: chance}} over the worlds
    beliefs: dict[str, dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"worlds": self.worlds, "exact": self.exact,
                "effective_worlds": rounded(self.effective if self.effective is not None else self.worlds, 1),
                "values": {str(c): rounded(v) for c, v in self.values.items()},
                "stderr": {str(c): rounded(v) for c, v in self.stderr.items()}, "best": [str(c) for c in self.best],
                "cost": rounded(self.cost), "cost_stderr": rounded(self.cost_stderr), "error": self.error,
                "worlds_solved": ({str(c): n for c, n in self.worlds_solved.items()}
                                  if self.worlds_solved is not None else None),
                "beliefs": ({} if self.beliefs is None else
                            {who: {"trumps": rounded(b["trumps"]),
                                   "cards": {c: rounded(p) for c, p in b["cards"].items()}}
                             for who, b in self.beliefs.items()})}


@dataclass(frozen=True)
class PlayerView:
    """One player's play judged from his own view: ``expected_loss`` (the sum of his decisions' expected costs,
    with its standard error), ``dd_loss`` (the points given away double dummy), ``errors`` (player's-view errors),
    ``expected`` (the best mean at his first decision: what he could expect then, on the values' scale),
    ``result`` (the final value on the same scale) and ``luck``: the result minus what he could expect less his
    own expected losses, counted for his side (positive: luckier than his play deserved; the hidden cards and the
    other players' play)."""

    decisions: int
    errors: int
    expected_loss: float
    expected_loss_stderr: float | None
    dd_loss: int
    expected: float | None
    result: int | None
    luck: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "errors": self.errors, "expected_loss": rounded(self.expected_loss),
                "expected_loss_stderr": rounded(self.expected_loss_stderr), "dd_loss": self.dd_loss,
                "expected": rounded(self.expected), "result": self.result, "luck": rounded(self.luck)}


@dataclass(frozen=True)
class ViewSettings:
    """How ``annotate --view player`` chose its worlds."""

    worlds: int | str
    seed: int
    min_cost: int | None
    solves: int  # worlds solved over the whole hand
    seconds: float
    inference: str = "none"  # how the worlds were weighted
    assumes: str = ""  # one line: what the worlds assume
    constraints: tuple[str, ...] = ()  # the --constrain texts
    knowledge: Any = dataclasses.field(default=None, compare=False, repr=False)  # words ``assumes`` for a reader

    def assumes_in(self, style: str) -> str:
        """:attr:`assumes` for a reader of card style ``style``: the auction's contracts by name, its cards in
        ``style``."""
        return self.assumes if self.knowledge is None else assumption(self.knowledge, style)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "player", "worlds": self.worlds, "seed": self.seed, "min_cost": self.min_cost,
                "solves": self.solves, "inference": self.inference, "constraints": list(self.constraints),
                "assumes": self.assumes, "caveat": CAVEAT, "seconds": round(self.seconds, 6)}


@dataclass(frozen=True)
class BuryViewRow(PickerChoice):
    """One bury (and call) or, in sauspiel, one call, over the worlds of the cards the picker could not see:
    the picking side's mean final points, and how much worse than the best choice world by world."""

    mean: float | None  # None in null: not a points question (``pwin`` says how often it is won)
    stderr: float | None
    vs_best: float
    vs_best_stderr: float | None
    best: bool  # the best mean, or within noise of it
    pwin: float = 0.0  # the share of the worlds won


@dataclass(frozen=True)
class BuryView:
    """``annotate --view player``: the bury and call (Sheepshead) or the call (sauspiel) judged from what the
    picker knew when he chose: his own hand (and the blind), every choice solved in the same worlds of the other
    cards. Points of the picking side, compared as the double-dummy judgement compares (a lone picker with other
    lone plays, a caller with other calls). ``cost``: the choice's expected points against the best mean (never
    negative); ``error``: beyond the noise and at least ``--min-cost``."""

    kind: str
    worlds: int
    exact: bool
    rows: tuple[BuryViewRow, ...]  # best first
    chosen: BuryViewRow
    cost: float
    cost_stderr: float | None
    error: bool
    effective: float | None = None  # what the (weighted) worlds are worth in uniform worlds
    weighted: bool = False  # the worlds weighed by the passes before the picker

    @property
    def best(self) -> tuple[BuryViewRow, ...]:
        return tuple(r for r in self.rows if r.best)

    def to_dict(self) -> dict[str, Any]:
        calls = self.kind != "bury"
        return {"worlds": self.worlds, "exact": self.exact,
                "effective_worlds": rounded(self.effective if self.effective is not None else self.worlds, 1),
                "values": {r.label(calls=calls): rounded(r.mean) for r in self.rows},
                "stderr": {r.label(calls=calls): rounded(r.stderr) for r in self.rows},
                "best": [r.label(calls=calls) for r in self.best], "chosen": self.chosen.label(calls=calls),
                "cost": rounded(self.cost), "cost_stderr": rounded(self.cost_stderr), "error": self.error}


def bury_view(ann, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = 1,
              min_cost: int | None = None, progress: Callable[[int, int], None] | None = None,
              inference: str = "none", auction: Any = None) -> BuryView | None:
    """The record's bury and call (or sauspiel call) judged from the picker's own view (see :class:`BuryView`);
    None when the annotation has no such choice to judge (see ``Annotation.bury``).

    The worlds are those of ``sheepsolve bury --view picker`` (and ``choose`` for a sauspiel call) with the same
    ``worlds`` and ``seed``; ``auction``: the record's own, whose calls before the picker's or declarer's
    decision weigh the worlds (:func:`~sheepsolve.weighting.calls_before`; None: the passes the rules imply)."""
    from ..bury import choose_contract, contracts_for, sample_buries
    from ..inference.auction import Auction
    from ..weighting import calls_before

    b = ann.bury
    if b is None:
        return None
    setup = ann.setup
    g = ann.game
    p = setup.declarer
    if p is None:
        return None
    calls = calls_before(auction, p) if isinstance(auction, Auction) else None
    stakes = ann.stakes
    rows: list[tuple[BuryDecision, bool, Any, bool]] = []  # (choice, alone, stats, best or tied with it)
    if g.kind == "picker":
        blind = list(setup.blind)
        dealt = [c for c in g.sort_cards(set(setup.hands[p]) | set(setup.bury)) if c not in set(blind)]
        calling = setup.called is not None

        def keep(d: BuryDecision) -> bool:  # as the double-dummy judgement: callers against callers
            return g.partner != "called-ace" or (d.called is not None) == calling

        r = sample_buries(g, dealt, blind, p, worlds=worlds, seed=seed, stakes=stakes, by="points", jobs=jobs,
                          players=ann.players, keep=keep, progress=progress, inference=inference,
                          calls=calls)
        for row in r.rows:
            d = row.decision
            rows.append((BuryDecision(tuple(g.sort_cards(d.bury)), d.called, d.under, d.alone),
                         d.alone or setup.partner is None, row.stats, row.rank == 1 or row.tie))
        if g.partner != "called-ace":  # only the bury is chosen
            match = [k for k in rows if set(k[0].bury) == set(setup.bury)]
        else:
            match = [k for k in rows if (k[0].bury, k[0].called, k[0].under)
                     == (tuple(g.sort_cards(setup.bury)), setup.called, setup.under)]
    elif g.partner == "sauspiel" and setup.called is not None:
        hand = list(setup.hands[p])
        cs = [c for c in contracts_for(g, hand) if c.game == "sauspiel"]
        if len(cs) < 2:
            return None
        r = choose_contract(g, hand, p, worlds=worlds, seed=seed, stakes=stakes, by="points", jobs=jobs,
                            players=ann.players, contracts=cs, progress=progress, inference=inference,
                            calls=calls)
        for row in r.rows:
            rows.append((BuryDecision((), called=row.contract.called), False, row.stats, row.rank == 1 or row.tie))
        match = [k for k in rows if k[0].called == setup.called]
    else:
        return None
    if not match:
        return None
    exact = worlds == "all"
    out = tuple(BuryViewRow(choice=d, alone=alone, mean=None if st.mean is None else float(st.mean),
                            stderr=st.stderr, vs_best=float(-st.vs_best), vs_best_stderr=st.vs_best_stderr,
                            best=bool(tie), pwin=st.pwin) for d, alone, st, tie in rows)
    chosen = out[rows.index(match[0])]
    threshold = min_cost if min_cost is not None else 1
    cost = max(0.0, chosen.vs_best)
    return BuryView(kind=b.kind, worlds=r.worlds, exact=exact, rows=out, chosen=chosen, cost=cost,
                    cost_stderr=chosen.vs_best_stderr, error=not chosen.best and cost > 0 and cost >= threshold,
                    effective=r.effective, weighted=r.inference == "auction")


_ANNOTATE_WORKER: dict[str, Any] = {}


def _ann_init(units: list[tuple[tuple, tuple]]) -> None:
    """Worker set-up for annotate's units: (knowledge spec, world spec) per unit."""
    _ANNOTATE_WORKER["units"] = units


class _AnnRound:
    """Picklable: unit ``i`` of one racing round of annotate (``ids``: the global unit and its decision; ``only``
    and ``guesses`` per decision, see :func:`solve_world`)."""

    def __init__(self, ids: tuple, only: dict, guesses: dict) -> None:
        self.ids = ids
        self.only = only
        self.guesses = guesses

    def __call__(self, i: int) -> tuple:
        uid, j = self.ids[i]
        kspec, wspec = _ANNOTATE_WORKER["units"][uid]
        k = worker_knowledge(kspec)
        return solve_world(k, World.from_spec(k, wspec), worker_solver(), payments=False, only=self.only.get(j),
                           guesses=self.guesses.get(j))


class _Pools:
    """The worlds of each seat, kept from one of its decisions to the next when they are uniform: filtered as play
    reveals cards (the survivors of a uniform sample of the earlier worlds are a uniform sample of the later ones)
    and topped up with fresh worlds drawn for the new knowledge, so a seat's decisions are judged largely over the
    same deals and little is drawn again. Weighted worlds are drawn afresh for every decision: an importance
    weight is the target over one proposal's probability, so survivors of the last decision's proposal and fresh
    draws of the next one's carry weights on scales no exact factor joins. Where no more deals are possible than
    ``worlds`` asks, every consistent world is solved instead, exactly (uniform or weighted, as in ``suggest``):
    cheaper than a sample with repeats, and exact."""

    def __init__(self, worlds: int | str, seed: int) -> None:
        self.worlds = worlds
        self.seed = seed
        self.pools: dict[int, tuple[int, list[World]]] = {}  # seat -> (cards seen, worlds)
        self.drawn: dict[int, int] = {}

    def worlds_for(self, k: Knowledge, where: str) -> tuple[list[World], bool, list[float] | None]:
        """The decision's worlds, whether they are every consistent world, and their weights (None: alike).
        Weighted worlds are drawn afresh for every decision (their importance weights belong to one proposal)."""
        seat = k.seat
        if weighs(k.weights):
            try:
                pool, ws, exact = pick_worlds(k, self.worlds, f"{self.seed}:seat {seat}:{len(k.plays)}")
            except WorldsError as e:
                raise WorldsError(f"{where}: {e}") from None
            return pool, exact, ws
        seen, pool = self.pools.get(seat, (0, None))  # type: ignore[arg-type]
        if pool is not None:
            new = [c for _, c in k.plays[seen:]]
            kept = []
            for w in pool:
                for c in new:
                    w = w.advance(c)  # type: ignore[assignment]
                    if w is None:
                        break
                if w is not None and (k.under is None or w.setup.under == k.under):
                    kept.append(w)
            pool = kept
        exact = self.worlds == "all"
        if exact:
            if pool is None:
                try:
                    pool = WorldSampler(k).all_worlds(ALL_WORLDS_CAP)
                except WorldsError as e:
                    raise WorldsError(f"{where}: {e}") from None
        else:
            sampler = WorldSampler(k)
            if sampler.candidates <= int(self.worlds):  # no more deals than asked: every one, exactly
                pool, exact = sampler.all_worlds(ALL_WORLDS_CAP), True
            else:
                pool = pool or []
                need = int(self.worlds) - len(pool)
                if need > 0:
                    start = self.drawn.get(seat, 0)
                    pool = pool + sampler.sample(need, seed=f"{self.seed}:seat {seat}", start=start)
                    self.drawn[seat] = start + need
        self.pools[seat] = (len(k.plays), pool)
        return pool, exact, None


def annotate_view(ann, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = 1,
                  min_cost: int | None = None, progress: Callable[[int, int], None] | None = None,
                  race: Race = True, inference: str = "none", constrain: Sequence[str] = (),
                  source: Any = None):
    """``annotate --view player``: every decision of an :class:`~sheepsolve.annotate.Annotation` judged again from
    the mover's own view at that moment (see :class:`DecisionView`), and a :class:`PlayerView` per player. Returns
    the annotation with ``view`` filled in on every decision that had a choice, on every player and on the whole.

    Worlds: ``worlds`` per decision, sampled (uniform worlds: world ``i`` of seat ``s`` from ``(seed, s, i)``, a
    seat's worlds kept from one of its decisions to the next while they fit the play; weighted worlds, drawn afresh
    for every decision from its own proposal, :class:`_Pools`; a decision with no more possible deals than
    ``worlds``: every consistent world, exactly), or ``"all"``: every consistent world of every
    decision (refused, naming the decision, where a decision has more than the cap). Every world of every decision
    is solved in this process, or with ``jobs`` in processes too (one pool for the whole hand, started once the
    work left is long enough); the answer for a seed is the same. ``race`` (sampled worlds only): as in
    :func:`player_view`, every decision's worlds solved in rounds, a card clearly worse than the best no longer
    solved for that decision (True: the decisions whose mover holds at least
    :func:`~sheepsolve.player.solve.race_min_hand` cards; ``"always"``: every decision). ``inference`` and
    ``constrain``: as in :func:`suggest_record` (``source``: the record whose auction weighs the worlds; default
    the annotation's setup, the auction the rules imply).
    """
    import dataclasses

    t0 = time.perf_counter()
    setup = ann.setup
    g = ann.game
    plays = [d.card for d in ann.decisions]
    pools = _Pools(worlds, seed)
    asked: list[tuple[int, Knowledge, list[World], bool]] = []
    weights_of: list[list[float] | None] = []
    constraints = parse_constraints(constrain, g, ann.players)
    weigh = world_weights(source if source is not None else setup, inference)
    facts = auction_facts(source)  # a blitz shown: a fact of every world, whatever the inference
    for d in ann.decisions:
        if d.forced:
            continue
        k = Knowledge.from_setup(setup, plays[:d.index], d.seat, stakes=ann.stakes, players=ann.players)
        k = dataclasses.replace(k, constraints=constraints, weights=weigh, facts=facts)
        pool, exact, ws = pools.worlds_for(k, f"trick {d.trick}, {d.player}")
        asked.append((d.index, k, pool, exact))
        weights_of.append(ws)
    units = [(j, w) for j, (_, _, pool, _) in enumerate(asked) for w in pool]
    first = [0] * len(asked)  # each decision's first unit
    for j in range(1, len(asked)):
        first[j] = first[j - 1] + len(asked[j - 1][2])
    solver = Solver(VIEW_TABLE_MIB)

    def unit_specs() -> tuple:  # the worker processes' data, made only if they start
        kspecs = [k.to_spec() for _, k, _, _ in asked]
        return ([(kspecs[j], w.to_spec()) for j, w in units],)

    # racing (sampled worlds): every decision's worlds in the rounds of race_rounds, solved together round by round
    rounds = [race_rounds(len(pool)) if not exact and races(race, k.game, len(pool[0].state.hands[k.seat]))
              else [len(pool)] for _, k, pool, exact in asked]
    legal_of = [list(ann.decisions[index].legal) for index, _, _, _ in asked]
    maxi = [_wants_high(k, pool[0]) for _, k, pool, _ in asked]
    alive = [list(range(len(legal_of[j]))) for j in range(len(asked))]
    vals_of: list[list[tuple]] = [[] for _ in asked]
    done = 0
    # one pool for every round, if the run is long enough for one: the units sent once, each round's cards with it
    with UnitRunner(jobs, init=_ann_init, initargs=unit_specs) as runner:
        for r in range(max((len(x) for x in rounds), default=0)):
            per: list[list[tuple[int, int]]] = []
            only: dict[int, tuple] = {}
            guesses: dict[int, tuple] = {}
            for j, ends in enumerate(rounds):
                if r >= len(ends):
                    continue
                start = ends[r - 1] if r else 0
                per.append([(first[j] + i, j) for i in range(start, ends[r])])
                if len(alive[j]) < len(legal_of[j]):
                    only[j] = tuple(alive[j])
                    guesses[j] = race_guesses(vals_of[j], alive[j], len(legal_of[j]))
            # world by world across the decisions (early decisions cost far more than late ones): the first
            # units are a fair sample of the run's pace, and the workers' chunks mix cheap and dear
            round_ids = tuple(ids[t] for t in range(max(map(len, per), default=0)) for ids in per if t < len(ids))

            def local(u: int, round_ids=round_ids, only=only, guesses=guesses) -> tuple:
                uid, j = round_ids[u]
                return solve_world(asked[j][1], units[uid][1], solver, payments=False, only=only.get(j),
                                   guesses=guesses.get(j))

            got = runner.map(_AnnRound(round_ids, only, guesses), len(round_ids), local=local,
                             later=len(units) - done - len(round_ids), sample=len(per),
                             progress=(None if progress is None else
                                       lambda d, _t, done=done: progress(done + d, len(units))))
            done += len(round_ids)
            for (uid, j), res in zip(round_ids, got):
                vals_of[j].append(res[0])
            for j, ends in enumerate(rounds):
                if r < len(ends) and len(ends) > 1:  # a decision not raced is solved in one round, nothing dropped
                    ws = weights_of[j]
                    alive[j] = race_keep(vals_of[j], alive[j], maxi[j], None if ws is None else ws[:len(vals_of[j])])
    per: dict[int, DecisionView] = {}
    threshold = min_cost if min_cost is not None else 1
    for j, (index, k, pool, exact) in enumerate(asked):
        vals = vals_of[j]
        d = ann.decisions[index]
        legal = legal_of[j]
        maximize = maxi[j]
        cards, best = summarize_cards(k, legal, vals, None, maximize, exact, weights_of[j])
        cv = cards[d.card]
        cost = max(0.0, cv.vs_best)
        top = next(c for c in legal if cards[c].vs_best == 0.0 and c in best)
        per[index] = DecisionView(
            worlds=len(pool), exact=exact, values={c: x.mean for c, x in cards.items()},
            stderr={c: x.stderr for c, x in cards.items()}, best=best, cost=cost, cost_stderr=cv.vs_best_stderr,
            error=d.card not in best and cost > 0 and cost >= threshold, top=cards[top].mean,
            worlds_solved={c: x.worlds_solved for c, x in cards.items()},
            effective=float(len(pool)) if weights_of[j] is None else effective_size(weights_of[j]),
            beliefs={_name(k, s): b for s, b in beliefs(k, pool, weights_of[j]).items()})
    decisions = tuple(dataclasses.replace(d, view=per.get(d.index)) for d in ann.decisions)
    players = []
    result_of = _results(ann, solver)
    for p in ann.summary.players:
        mine = [per[d.index] for d in decisions if d.seat == p.seat and d.index in per]
        loss = math.fsum(v.cost for v in mine)
        loss_se = _loss_stderr(mine)
        expected = mine[0].top if mine else None
        result = result_of.get(p.seat)
        luck = None
        if expected is not None and result is not None:
            maximize = g.two_sided and (p.side == "declaring") != g.no_trick  # a null declarer wants no trick
            sign = 1.0 if maximize else -1.0
            luck = sign * (result - expected) + loss
        players.append(dataclasses.replace(p, view=PlayerView(
            decisions=len(mine), errors=sum(v.error for v in mine), expected_loss=loss,
            expected_loss_stderr=loss_se, dd_loss=p.given_away, expected=expected, result=result, luck=luck)))
    summary = dataclasses.replace(ann.summary, players=tuple(players))
    if ann.bury is not None:
        ann = dataclasses.replace(ann, bury=dataclasses.replace(
            ann.bury, view=bury_view(ann, worlds=worlds, seed=seed, jobs=jobs, min_cost=min_cost, progress=progress,
                                     inference=inference, auction=getattr(source, "auction", None))))
    probe = dataclasses.replace(Knowledge.from_setup(setup, [], 0, players=ann.players), constraints=constraints,
                                weights=weigh, facts=facts)
    settings = ViewSettings(worlds=worlds, seed=seed, min_cost=min_cost, solves=len(units),
                            seconds=time.perf_counter() - t0, inference="auction" if weighs(weigh) else "none",
                            assumes=assumption(probe), constraints=tuple(c.text for c in constraints),
                            knowledge=probe)
    return dataclasses.replace(ann, decisions=decisions, summary=summary, view=settings)


def _name(k: Knowledge, seat: int) -> str:
    return k.players[seat] if k.players else str(seat + 1)


def _loss_stderr(views: Sequence[DecisionView]) -> float | None:
    """The standard error of the sum of the decisions' expected costs: the sampled decisions' cost errors added as
    independent (weighted worlds are drawn afresh for each decision; uniform ones share the worlds a seat kept,
    so there it is an approximation); a decision solved over every consistent world adds none (its cost is
    exact). None when a sampled decision's error is unknown (one world, or a card racing dropped after worlds that
    all gave the same difference); None for no decision.

    >>> v = DecisionView(worlds=30, exact=False, values={}, stderr={}, best=(), cost=1.0, cost_stderr=3.0,
    ...                  error=False, top=0.0)
    >>> _loss_stderr([v, dataclasses.replace(v, cost_stderr=4.0), dataclasses.replace(v, exact=True)])
    5.0
    >>> _loss_stderr([v, dataclasses.replace(v, cost_stderr=None)]), _loss_stderr([])
    (None, None)
    """
    if not views:
        return None
    sampled = [v.cost_stderr for v in views if not v.exact]
    if any(x is None for x in sampled):
        return None
    return math.sqrt(math.fsum(x * x for x in sampled))  # type: ignore[operator]


def _wants_high(k: Knowledge, world: World) -> bool:
    """Whether the seat of ``k`` wants the values of its worlds high (the declaring side's points; a null or Bettel
    declarer wants his tricks low, his defenders high; ramsch and leaster: the seat's own points, low)."""
    return Objective.for_setup(world.setup, seat=None if k.game.two_sided else k.seat).wants_high(k.seat)


def _results(ann, solver: Solver) -> dict[int, int]:
    """Each seat's final value on the values' scale: the declaring side's points (two-sided games), the seat's
    own points (ramsch, leaster); an unfinished hand's from its last position under perfect play."""
    g = ann.game
    state = ann.setup.start().play_cards(d.card for d in ann.decisions)
    out: dict[int, int] = {}
    if g.two_sided:
        r = ann.summary.result_value
        if r is not None:
            if g.no_trick:  # the worlds' scale (player.solve.solve_world): whether the declarer took a trick
                r = min(r, 1)
            out = {s: r for s in range(g.seats)}
        return out
    for s in range(g.seats):
        obj = Objective.for_setup(ann.setup, seat=s)
        out[s] = obj.final_value(state) if state.finished else solver.value(state, obj)
    return out
