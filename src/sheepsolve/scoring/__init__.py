"""The reference scorer: card points, tricks, outcome and payments of a hand, for every game in RULES.md.

:func:`score` takes a finished :class:`~sheepsolve.engine.State` (and the :class:`Stakes`) and gives a
:class:`Result`; :func:`tally` gives the points and tricks so far of any state. The pure helpers
:func:`outcome_for`, :func:`payment_for`, :func:`laufende_of` and the payments of one setup
(:func:`payment_terms`, :func:`side_payment`, :func:`seat_payment`) are the rules that :mod:`sheepsolve.judge`
applies for every command; :func:`score` uses the same ones.

Seats are 0-based, as in :class:`~sheepsolve.engine.Setup` (seat 0 leads the first trick).

Outcome strings
---------------
Sheepshead (``sheepshead``, ``sheepshead-3``, ``sheepshead-4``), seen from the picker's side, the bury counted:

- ``schwarz``: the side took every trick (paid 3 units);
- ``schneider``: 91-120 points (2 units);
- ``win``: 61-90 points (1 unit);
- ``loss``: 31-60 points (60-60 goes to the defenders; -1 unit);
- ``schneidered``: 0-30 points (-2 units);
- ``schwarzed``: the side took no trick (-3 units).

Schwarz in Sheepshead is about tricks, never points: 120 points with a trick lost is ``schneider``.

Schafkopf contracts, seen from the declaring side (declarer and partner, or the soloist):

- ``win``, ``win-schneider`` (91+ points), ``win-schwarz`` (the defenders took no trick; with the switch
  ``schwarz_by_points``: the side has 120 points);
- ``loss``, ``loss-schneider`` (the side has 30 or less), ``loss-schwarz`` (the side took no trick; with
  ``schwarz_by_points``: 0 points);
- tout (any solo-type contract with ``tout``): ``win`` when the declarer took every trick, else ``loss``;
- sie: always ``win`` (not played out).

Skat (``grand``, ``skat``, ``null``), seen from the declarer by the ISkO (:mod:`sheepsolve.scoring.skat`): the
Schafkopf words, ``win-schwarz`` ... ``loss-schwarz``, a game announced schneider or schwarz being lost when the
announcement is not reached; the payments are each player's list score (the game value won, twice it lost).

Leaster: ``winner:<seat>`` (the fewest points among the players who took a trick), or ``tie:<seat>,<seat>`` when
several share the fewest (nobody pays).

Ramsch: ``loser:<seat>`` (the most points), ``durchmarsch:<seat>`` (one player took every trick),
``losers:<seat>,<seat>`` (a tie for the most points, switch ``ramsch_ties = "all-lose"``) or
``tie:<seat>,<seat>`` (a tie, ``ramsch_ties = "nobody"``: nobody pays).

Payments
--------
``Result.payments`` is per seat and sums to zero. ``Result.base`` is the amount before the multipliers (units in
Sheepshead and leaster, the tariff with its bonuses in Schafkopf, the ramsch tariff) and ``Result.multiplier``
the product of every multiplier that applied. In two-sided games each defender pays or receives
``base * multiplier``; in leaster each other player pays the winner that much; in ramsch each loser pays that
much to each other player, double to a Jungfrau.

Readings where RULES.md is silent
---------------------------------
- 60-60 goes to the defenders in every two-sided game.
- ``bury_needs_trick``: when the picker's side takes no trick the bury counts for nobody (the points then sum
  to less than 120); the outcome is ``schwarzed`` either way.
- The picker is *alone* when the setup has no partner (he holds or buried the jack of diamonds, partner rule
  ``alone``, or he went alone on a called ace); ``alone_multiplier`` applies in 5-hand only. With a partner
  the side's total splits picker 2 : partner 1, which is exact since three defenders pay.
- Blitz: the picker held QC and QS in his hand at the first lead (after the bury); it doubles wins and losses.
  ``double_on_bump`` doubles every payment of a hand the picker's side loses.
- ``Stakes.doublers`` apply in every game (x2 each); crack and re-crack (Kontra/Re) only where there are
  sides: leaster and ramsch raise ValueError.
- Schafkopf schwarz is schneider too: a won schwarz sauspiel is 10 + 10 + 10. Laufende are paid in full once
  the run reaches the threshold (3 Laufende = 3 x ``tariff_bonus``), to whichever side won; the run starts at
  the highest trump, so it is the side holding it that has them.
- Tout: (tariff + Laufende) x ``tout_multiplier``, then Kontra/Re. Sie: not played out, valued as a won
  schwarz solo with its Laufende (from the declarer's hand: 8 with the long deck),
  (tariff_solo + 10 + 10 + 10 per Laufender) x ``sie_multiplier``; its points and tricks are what was played
  (normally nothing).
- Ramsch: each loser pays each other player; a Jungfrau (no trick) receives double from each loser; with
  ``all-lose`` tied players pay only players not tied (if all four tie, nobody pays). Durchmarsch: each
  other player pays ``tariff_solo`` + 2 x ``tariff_bonus`` (a won schwarz solo without Laufende), no
  Jungfrau doubling.
- Leaster: with ``leaster_blind = "nobody"`` the blind counts for no one; ties for the fewest points pay
  nothing; a player who took no trick pays the winner like everyone else.
- A setup dealt mid-hand (fewer cards than a full hand) has no result: :func:`score` refuses it and
  :func:`tally` gives its points.

>>> from sheepsolve.games import make_game
>>> g = make_game("sheepshead")
>>> outcome_for(g, 61), outcome_for(g, 60), outcome_for(g, 120, 5), outcome_for(g, 120, 6)
('win', 'loss', 'schneider', 'schwarz')
>>> payment_for(g, "schneider", stakes=Stakes(crack=True))
4
>>> payment_for(make_game("sauspiel"), "loss-schneider", laufende=3)
-50
"""

from __future__ import annotations

from .result import Result, Tally, score, tally
from .skat import SKAT_OUTCOMES, SkatValue, game_value, seeger_fabian, skat_outcome
from .rules import (MAX_DOUBLERS, SCHAFKOPF_OUTCOMES, SHEEPSHEAD_OUTCOMES, PaymentTerms, Stakes, is_won,
                    laufende_of, outcome_for, overbid, payment_for, payment_terms, schneider_points, scored_outcome, seat_payment,
                    side_payment)

__all__ = [
    "MAX_DOUBLERS",
    "Stakes",
    "Tally",
    "Result",
    "score",
    "tally",
    "outcome_for",
    "is_won",
    "payment_for",
    "laufende_of",
    "PaymentTerms",
    "payment_terms",
    "side_payment",
    "seat_payment",
    "SHEEPSHEAD_OUTCOMES",
    "SCHAFKOPF_OUTCOMES",
    "SKAT_OUTCOMES",
    "SkatValue",
    "game_value",
    "skat_outcome",
    "seeger_fabian",
    "overbid",
    "scored_outcome",
    "schneider_points",
]
