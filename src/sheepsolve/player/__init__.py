"""The player's view: cards and choices judged from what one seat knows, over the worlds of the cards it cannot
see (:mod:`sheepsolve.worlds`), each world solved double dummy and the worlds averaged.

- :mod:`~sheepsolve.player.options`: ``--worlds``, ``--seed`` and their limits;
- :mod:`~sheepsolve.player.solve`: one world solved, racing, each card's figures over the worlds;
- :mod:`~sheepsolve.player.suggest`: ``sheepsolve suggest`` (:func:`player_view`, :func:`suggest_record`);
- :mod:`~sheepsolve.player.annotate`: ``annotate --view player`` (:func:`annotate_view`, :func:`bury_view`).

The text of ``suggest`` is :func:`sheepsolve.render.suggest.render_suggest`.
"""

from __future__ import annotations

from .annotate import BuryView, BuryViewRow, DecisionView, PlayerView, ViewSettings, annotate_view, bury_view
from .options import MAX_ANNOTATE_WORLDS, MAX_SEED, MAX_WORLDS, VIEW_TABLE_MIB, parse_worlds
from .solve import (RACE_FIRST, RACE_MIN_HAND, RACE_MIN_HAND_EACH_FOR_HIMSELF, RACE_Z, CardView, Race, race_keep,
                    race_min_hand, race_rounds, races, solve_world)
from .suggest import View, parse_at, player_view, suggest_record

__all__ = ["VIEW_TABLE_MIB", "MAX_WORLDS", "MAX_ANNOTATE_WORLDS", "MAX_SEED", "parse_worlds", "CardView", "View",
           "solve_world", "RACE_FIRST", "RACE_Z", "RACE_MIN_HAND", "RACE_MIN_HAND_EACH_FOR_HIMSELF", "Race",
           "race_min_hand", "races", "race_rounds", "race_keep", "player_view", "parse_at", "suggest_record",
           "DecisionView", "PlayerView", "ViewSettings", "BuryViewRow", "BuryView", "bury_view", "annotate_view"]
