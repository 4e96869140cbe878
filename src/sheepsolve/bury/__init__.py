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
  (:func:`~sheepsolve.stats.within_noise`, the rule ``suggest`` applies to cards); ``best`` lists the ties. In
  ``choose`` and ``pick`` passing (0 in every world) takes part.
- Lessons (:attr:`BuryRanking.lesson <sheepsolve.bury.results.BuryRanking.lesson>`, a
  :class:`~sheepsolve.bury.results.BuryLesson` worded by :func:`sheepsolve.render.choices.lesson_text`): from the
  picker's view, where no best choice on the actual deal is among the best in expectation, and where the record's own bury is not, what it costs in expectation against the
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

The package, one concern a module: :mod:`~sheepsolve.bury.choices` (the choices listed),
:mod:`~sheepsolve.bury.evaluation` (one choice solved on one deal), :mod:`~sheepsolve.bury.units` (the work in
units, in this process or in worker processes), :mod:`~sheepsolve.bury.results` (the answers and their JSON),
:mod:`~sheepsolve.bury.questions` (the questions), :mod:`~sheepsolve.bury.records` (what the commands run) and
:mod:`~sheepsolve.bury.judgement` (annotate's judgement of the bury and call on the actual deal).
"""

from __future__ import annotations

from ..pool import MAX_JOBS, default_jobs, worker_count
from .choices import BuryDecision, BuryError, Contract, contracts_for, legal_decisions, sauspiel_blocks
from .questions import choose_contract, pick_or_pass, rank_buries, sample_buries
from .records import (bury_from_record, choose_from_record, pick_from_record, read_bury_record, read_choose_record,
                      read_pick_record)
from .results import (BURY_CAVEAT, BURY_CAVEAT_ACTUAL, CHOOSE_CAVEAT, BuryRanking, BuryRow, ChoiceResult,
                      ContractRow, PickResult, Sampled, SampledRow)

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
    "BURY_CAVEAT",
    "BURY_CAVEAT_ACTUAL",
    "CHOOSE_CAVEAT",
    "legal_decisions",
    "contracts_for",
    "sauspiel_blocks",
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
