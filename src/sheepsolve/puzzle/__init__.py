"""Double-dummy puzzles: find them in played deals, rate them and prove them (presented by
:mod:`sheepsolve.render.puzzle`).

A puzzle is a hand record (``docs/RECORD-FORMAT.md``) whose ``play`` leads to the puzzle position, with a
``[puzzle]`` table:

- ``goal``: the declaring side's card points threshold the puzzle is about (``61``, ``91``, ``31``, ...), which
  the declaring side tries to reach and the defenders to prevent; ``"all-tricks"``: the declaring side tries to
  take every trick (trick objective), the defenders to take one; or ``"max"``: the side to move wants the most
  points it can get (the declaring side the most, the defenders the fewest for the declaring side); in null and
  Bettel ``"no-trick"``, their only goal: the declarer tries to take no trick, his defenders to give him one;
- ``to_move``: the player to move, by name;
- ``solution``: every legal card that reaches the goal (equivalent cards included); they form a single group of
  equivalent cards, so the answer is unique;
- ``refutations``: for every other legal card, the best reply line after it, to the end of the hand, as card
  strings (the wrong card itself not repeated);
- ``difficulty``: ``"easy"``, ``"medium"`` or ``"hard"``; informational ``score``, ``failing``, ``depth``,
  ``max_depth``, ``themes`` and ``natural`` say why (see :func:`rate`).

Two legal cards are *equivalent* when the same player holds them, they belong to the same suit class, no card
still out (in a hand or on the table) lies between them, and they carry the same points; the called card and the
card under never are. Equivalent cards always have the same value.

Only two-sided games have puzzles (ramsch and leaster have no declaring side to set a goal for).

>>> from sheepsolve.games import make_game
>>> [p] = generate(make_game("sheepshead"), cards_left=3, count=1, seed=5)
>>> p.goal, p.to_move, [str(c) for c in p.solution], p.difficulty, p.extra["themes"]
(91, 'Eve', ['8D', '7D'], 'hard', ['underlead'])
>>> check_puzzle(p).ok
True
>>> from dataclasses import replace
>>> doctored = replace(p, solution=p.solution + (p.state.legal()[0],))
>>> check_puzzle(doctored).reasons
('wrong solution: QC does not reach the goal (86 points with best play)',)
"""

from __future__ import annotations

from .check import CheckResult, check_puzzle, puzzle_from_record
from .generate import find_puzzle, generate, puzzle_at
from .goals import DEFAULT_GOALS, DIFFICULTIES, GOALS, PuzzleError, concrete_goal
from .heuristic import equivalent_groups, natural_order, play_forward, sensible_setup
from .model import Puzzle, Rating, record_of
from .rating import THEMES, rate

__all__ = [
    "Puzzle",
    "PuzzleError",
    "Rating",
    "CheckResult",
    "GOALS",
    "DIFFICULTIES",
    "DEFAULT_GOALS",
    "THEMES",
    "equivalent_groups",
    "concrete_goal",
    "natural_order",
    "sensible_setup",
    "play_forward",
    "puzzle_at",
    "record_of",
    "find_puzzle",
    "generate",
    "rate",
    "check_puzzle",
    "puzzle_from_record",
]
