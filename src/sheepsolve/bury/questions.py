"""The questions the bury tools answer: every bury ranked double dummy on the actual deal (:func:`rank_buries`)
or from the picker's view over sampled worlds (:func:`sample_buries`), pick or pass (:func:`pick_or_pass`) and
every contract a Schafkopf hand may declare (:func:`choose_contract`). See :mod:`sheepsolve.bury` for the
readings.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..cards import Card
from ..games import Game
from ..pool import game_spec
from ..scoring import Stakes, schneider_points
from ..solver import Solver
from ..stats import within_noise
from .choices import (BuryDecision, BuryError, Contract, card_groups, contracts_for, legal_decisions,
                      make_contract_game, merge_choices, skat_contracts, solve_order)
from .evaluation import Evaluation, Solvers, best_decision, rank_key
from .results import (BuryRanking, BuryRow, ChoiceResult, ContractRow, PickResult, SampledRow, alone_note,
                      choice_stats, competition_ranks, effective_worlds, with_diffs)
from .units import ProgressFn, Task, run_units, worker

__all__ = ["rank_buries", "sample_buries", "pick_or_pass", "choose_contract"]


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
    processes once the first ones show the work is long enough to pay for them (:func:`run_units`); the
    answer is the same.
    """
    _check_by(by)
    _check_picker(game, hands[picker], blind, picker)
    stakes = stakes or Stakes()
    picked = list(hands[picker]) + list(blind)
    decisions = legal_decisions(game, picked, [c for s, h in enumerate(hands) if s != picker for c in h])
    reps, index = merge_choices(decisions, card_groups(game, picked) if merge else None)
    solver = solver or Solver()
    order = solve_order(reps)
    task = Task(kind="deal", game=game_spec(game), seat=picker, hand=tuple(map(int, hands[picker])),
                 blind=tuple(map(int, blind)), choices=tuple(reps[k].to_key() for k in order),
                 stakes=(stakes.crack, stakes.recrack, stakes.doublers),
                 hands=tuple(tuple(map(int, h)) for h in hands))
    worker().deal = None  # a new call starts without the guesses of an earlier one on the same deal
    t0 = time.perf_counter()
    evals = [Evaluation(*t) for t in run_units(task, len(reps), jobs, progress, Solvers(solver))]
    evals = [evals[i] for i in sorted(range(len(order)), key=order.__getitem__)]  # back to the order of reps
    nodes = sum(e.nodes for e in evals)
    dt = time.perf_counter() - t0
    rows = [(decisions[j], evals[index[j]]) for j in range(len(decisions))]
    rows.sort(key=lambda r: rank_key(by, r[1].payment, r[1].value), reverse=True)
    ranks = competition_ranks([rank_key(by, e.payment, e.value) for _, e in rows])
    out_rows = tuple(BuryRow(decision=d, value=e.value, outcome=e.outcome, payment=e.payment,  # type: ignore[arg-type]
                             alone=e.alone, rank=k) for (d, e), k in zip(rows, ranks))
    notes = tuple(x for x in [alone_note(game, picked)] if x)
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


def _deal_weights(task: Task, game: Game, count: int) -> tuple[list[float] | None, str, int]:
    """Each world's weight from the passes before the task's seat (:func:`sheepsolve.weighting.passes_weights`):
    with every deal solved the passes' likelihood of each, else the importance weights of the worlds that
    rejection control kept (:meth:`~sheepsolve.bury.units.Worker.world_weight`); the line that says what the
    worlds assume; and how many deals were drawn and weighed for the worlds (``count`` when alike or exact)."""
    from ..weighting import passes_weights

    fn, label = passes_weights(game, task.seat, task.inference, task.players, task.calls)
    if fn is None:
        return None, label, count
    if task.exact:
        return [fn(worker().world(task, game, i)[0]) for i in range(count)], label, count
    got = [worker().world_weight(task, game, i) for i in range(count)]
    return [v for v, _ in got], label, sum(n for _, n in got)


def sample_buries(game: Game, hand: Sequence[Card], blind: Sequence[Card], picker: int, *, worlds: int | str = 100,
                  seed: int = 0, stakes: Stakes | None = None, by: str = "payment", jobs: int | None = 1,
                  progress: ProgressFn | None = None, unseen: Iterable[Card] | None = None,
                  players: Sequence[str] | None = None, actual_hands: Sequence[Sequence[Card]] | None = None,
                  keep: Callable[[BuryDecision], bool] | None = None, inference: str = "none",
                  calls: Sequence[Any] | None = None) -> BuryRanking:
    """Every legal choice of the picker from his view: ``worlds`` deals of the cards he cannot see (``"all"``:
    every deal, exactly, refused above :data:`~sheepsolve.worlds.ALL_WORLDS_CAP`), every choice solved in each
    (common random numbers), ranked by expected payment (or points).

    ``actual_hands``: the real deal, when known; its double-dummy ranking is added (``.actual``) and
    :attr:`BuryRanking.lesson` says where the two disagree. ``keep``: compare only the choices it accepts (e.g.
    the partner calls, not going alone). ``unseen``: the cards dealt to the others (default:
    the rest of the deck; smaller deals are for tests and examples). ``inference="auction"``: the worlds weighted by
    the passes of the seats before the picker (:func:`sheepsolve.weighting.passes_weights`); ``calls``: the record's
    calls before the pick instead (:func:`sheepsolve.weighting.calls_before`).

    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.games import make_game
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
    reps, index = merge_choices(decisions, card_groups(game, picked))
    order = solve_order(reps)
    task = Task(kind="bury", game=game_spec(game), seat=picker, hand=tuple(map(int, hand)),
                 blind=tuple(map(int, blind)), choices=tuple(reps[k].to_key() for k in order),
                 stakes=(stakes.crack, stakes.recrack, stakes.doublers), seed=seed,
                 unseen=tuple(map(int, unseen)) if unseen is not None else None, by=by, exact=worlds == "all",
                 players=tuple(players) if players else None, inference=inference,
                 calls=tuple(calls) if calls is not None else None)
    t0 = time.perf_counter()
    count = worker().world_count(task, worlds)  # checks the cards (and the count of every deal) before any work
    results = run_units(task, count, jobs, progress)
    weights, assumes, drawn = _deal_weights(task, game, count)
    dt = time.perf_counter() - t0
    at = {k: i for i, k in enumerate(order)}  # rep -> its place in the solve order
    columns = [[w[at[k]] for w in results] for k in range(len(reps))]
    rep_stats = [choice_stats(col, task.exact, weights, schneider_points(game)) for col in columns]
    keys = [rank_key(by, s.payment, s.mean) for s in rep_stats]
    best_rep = max(range(len(reps)), key=lambda k: keys[k])
    rep_stats = with_diffs(columns, rep_stats, best_rep, by, task.exact, weights)
    alone = [bool(columns[k][0][3]) for k in range(len(reps))]
    order = sorted(range(len(decisions)), key=lambda j: keys[index[j]], reverse=True)
    ranks = competition_ranks([keys[index[j]] for j in order])
    ties = [within_noise(-st.vs_best, st.vs_best_stderr, task.exact) for st in rep_stats]
    rows = tuple(SampledRow(decision=decisions[j], stats=rep_stats[index[j]], alone=alone[index[j]], rank=k,
                            tie=ties[index[j]]) for j, k in zip(order, ranks))
    actual = None
    if actual_hands is not None:
        actual = rank_buries(game, actual_hands, blind, picker, stakes=stakes, by=by, players=players)
    notes = tuple(x for x in [alone_note(game, picked)] if x)
    return BuryRanking(game=game, players=tuple(players or [str(i + 1) for i in range(game.seats)]),
                       picker=picker, hand=tuple(hand), blind=tuple(blind), view="picker", by=by, rows=rows,
                       solved=len(reps), seconds=dt, worlds=count, seed=seed, actual=actual, notes=notes,
                       exact=task.exact, assumes=assumes, effective=effective_worlds(weights, count),
                       inference="none" if weights is None else "auction", weighed=drawn)


def pick_or_pass(game: Game, hand: Sequence[Card], seat: int, *, worlds: int | str = 100, seed: int = 0,
                 stakes: Stakes | None = None, by: str = "payment", jobs: int | None = 1,
                 progress: ProgressFn | None = None, players: Sequence[str] | None = None,
                 actual: tuple[Sequence[Sequence[Card]], Sequence[Card]] | None = None,
                 unseen: Iterable[Card] | None = None, inference: str = "none",
                 calls: Sequence[Any] | None = None) -> PickResult:
    """Expected payment of picking from ``seat`` holding ``hand``: the blind and the other hands are sampled,
    and in each world the best double-dummy choice of that world is made (see the module's readings).

    ``actual`` (hands, blind): the real deal, when known, answered double dummy too. ``unseen``: the cards to
    deal (default: the rest of the deck; smaller deals are for tests). ``calls``: the record's calls before the
    seat's decision, which weigh the worlds (:func:`sheepsolve.weighting.calls_before`; None: the implied passes).

    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.games import make_game
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
    task, count, results, weights, assumes, dt, drawn = _solve_deals(
        "pick", game, hand, seat, (), stakes, seed=seed, by=by, unseen=unseen, worlds=worlds, players=players,
        jobs=jobs, progress=progress, inference=inference, calls=calls)
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
        d, e = best_decision(Solver(), game, hs, list(bl), seat, stakes, by, worker().memo)
        act = (d, e.value, e.outcome, e.payment)
    return PickResult(game=game, players=tuple(players or [str(i + 1) for i in range(game.seats)]), seat=seat,
                      hand=tuple(hand), pick=choice_stats(evals, task.exact, weights, schneider_points(game)),
                      worlds=count, seed=seed, by=by,
                      outcomes=outcomes, buries=tuple((BuryDecision.from_key(k), n) for k, n in top), seconds=dt,
                      actual=act, exact=task.exact, assumes=assumes, effective=effective_worlds(weights, count),
                      inference="none" if weights is None else "auction", weighed=drawn)


def _solve_deals(kind: str, game: Game, hand: Sequence[Card], seat: int, choices: tuple, stakes: Stakes, *,
                 seed: int, by: str, unseen: Iterable[Card] | None, worlds: int | str,
                 players: Sequence[str] | None, jobs: int | None, progress: ProgressFn | None, inference: str,
                 blind: Sequence[Card] | None = None, calls: Sequence[Any] | None = None
                 ) -> tuple[Task, int, list, list[float] | None, str, float, int]:
    """The deals of a choice before anything is seen (``pick``'s, ``choose``'s) solved in units: the task, the
    number of worlds, each world's result, the worlds' weights and what they assume, the seconds taken and the
    deals drawn and weighed for the worlds;
    ``blind``: a Skat skat taken and known (``choose-known``)."""
    task = Task(kind=kind, game=game_spec(game), seat=seat, hand=tuple(map(int, hand)),
                blind=tuple(map(int, blind)) if blind is not None else None, choices=choices,
                stakes=(stakes.crack, stakes.recrack, stakes.doublers), seed=seed, by=by,
                unseen=tuple(map(int, unseen)) if unseen is not None else None, exact=worlds == "all",
                players=tuple(players) if players else None, inference=inference,
                calls=tuple(calls) if calls is not None else None)
    t0 = time.perf_counter()
    count = worker().world_count(task, worlds)  # checks the cards (and the count of every deal) before any work
    results = run_units(task, count, jobs, progress)
    weights, assumes, drawn = _deal_weights(task, game, count)
    return task, count, results, weights, assumes, time.perf_counter() - t0, drawn


def choose_contract(game: Game, hand: Sequence[Card], seat: int, *, worlds: int | str = 100, seed: int = 0,
                    stakes: Stakes | None = None, by: str = "payment", jobs: int | None = 1,
                    progress: ProgressFn | None = None, players: Sequence[str] | None = None,
                    contracts: Sequence[Contract] | None = None,
                    unseen: Iterable[Card] | None = None, inference: str = "none",
                    skat: Sequence[Card] | None = None, calls: Sequence[Any] | None = None) -> ChoiceResult:
    """Expected payment of every contract ``hand`` may declare from ``seat`` (any Schafkopf ``game`` gives the
    deck, seats and rules), in the same sampled worlds, best first.

    ``contracts``: only these (default :func:`contracts_for`); ``unseen``: the cards to deal (default: the rest
    of the deck; smaller deals are for tests). ``calls``: the record's calls before the seat's decision, which
    weigh the worlds (:func:`sheepsolve.weighting.calls_before`; None: the implied passes).

    A Skat ``game`` (its rules and bid): before the skat is taken (``skat`` None) every contract as a hand game
    and with the skat taken up (:func:`~sheepsolve.bury.choices.skat_contracts`), the skat dealt among the unseen
    cards: a hand game leaves it as dealt, counting for the declarer, and with the skat taken the declarer puts
    away the best discard of each world. With the ``skat`` known (taken) every contract with its discard best in
    expectation, as ``bury`` ranks them, over the same worlds of the defenders' hands.

    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.games import make_game
    >>> c = choose_contract(make_game("solo", trump="H"), parse_cards("QC JC"), 0, worlds=10, seed=2,
    ...                     unseen=parse_cards("AH TH AS TS KS 9S"),
    ...                     contracts=[Contract("solo", "H"), Contract("wenz"), Contract("geier", tout=True)])
    >>> [(row.contract.label(), row.stats.pwin, row.stats.payment) for row in c.rows]
    [('geier tout', 1.0, 300.0), ('solo H', 0.0, -150.0), ('wenz', 0.0, -150.0)]
    """
    _check_by(by)
    _check_worlds(worlds)
    if game.family not in ("schafkopf", "skat"):
        raise BuryError(f"{game.name} is not Schafkopf: choose is for Schafkopf hands (sheepshead: use pick)")
    if seat not in range(game.seats):
        raise BuryError(f"seat {seat} is not one of 0..{game.seats - 1}")
    if unseen is None and len(hand) != game.hand_size:
        raise BuryError(f"hand: {len(hand)} cards, this deal gives {game.hand_size}")
    if skat is not None and (game.family != "skat" or len(skat) != game.blind_size or set(skat) & set(hand)):
        raise BuryError(f"skat: {len(skat)} cards" + (" also in the hand" if set(skat) & set(hand) else "")
                        + f"; a Skat hand takes up the {game.blind_size} cards of the skat")
    stakes = stakes or Stakes()
    if contracts is not None:
        cs = list(contracts)
    elif game.family == "skat":
        cs = skat_contracts(game, ["known"] if skat is not None else ["hand", "taken"])
    else:
        cs = contracts_for(game, hand)
    if not cs:
        raise BuryError("no contract to choose from")
    known = _known_skat_choices(game, hand, skat, cs) if skat is not None else None
    choices = (tuple(c.to_key() for c in cs) if known is None else
               tuple((c.to_key(), tuple(d.to_key() for d in ds)) for c, ds in known))
    task, count, results, weights, assumes, dt, drawn = _solve_deals(
        "choose" if known is None else "choose-known", game, hand, seat, choices, stakes, seed=seed, by=by,
        unseen=unseen, worlds=worlds, players=players, jobs=jobs, progress=progress, inference=inference, blind=skat,
        calls=calls)
    if known is None:
        columns = [[w[k] for w in results] for k in range(len(cs))]
    else:  # each contract with its discard best in expectation
        columns = []
        for k, (c, ds) in enumerate(known):
            per = [[w[k][j] for w in results] for j in range(len(ds))]
            ranked = [rank_key(by, s.payment, s.mean) for s in (choice_stats(col, task.exact, weights) for col in per)]
            j = max(range(len(ds)), key=ranked.__getitem__)
            cs[k] = dataclasses.replace(c, discard=tuple(game.sort_cards(ds[j].bury)))
            columns.append(per[j])
    stats = [choice_stats(col, task.exact, weights, schneider_points(game)) for col in columns]
    keys = [rank_key(by, s.payment, s.mean) for s in stats]
    best = max(range(len(cs)), key=lambda k: keys[k])
    stats = with_diffs(columns, stats, best, by, task.exact, weights)
    order = sorted(range(len(cs)), key=lambda k: keys[k], reverse=True)
    ranks = competition_ranks([keys[k] for k in order])
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
                        exact=task.exact, assumes=assumes, effective=effective_worlds(weights, count),
                        inference="none" if weights is None else "auction", weighed=drawn,
                        skat=tuple(skat) if skat is not None else None)


def _known_skat_choices(game: Game, hand: Sequence[Card], skat: Sequence[Card],
                        cs: Sequence[Contract]) -> list[tuple[Contract, list[BuryDecision]]]:
    """Each Skat contract with the skat known and its discards to solve, in the order solved: the declarer's 12
    cards two by two, interchangeable ones solved once (as ``bury`` does)."""
    picked = list(hand) + list(skat)
    out = []
    for c in cs:
        if c.skat != "known":
            raise BuryError(f"{c.label()}: with the skat known a contract is played with it taken up")
        g = make_contract_game(game, c.game, c.trump, False, ouvert=c.ouvert)
        reps, _ = merge_choices(legal_decisions(g, picked), card_groups(g, picked))
        out.append((c, [reps[k] for k in solve_order(reps)]))
    return out
