"""Puzzle goals as yes/no questions on the declaring side's final value: a points threshold (``61``, ``91``,
...), ``"all-tricks"`` or ``"max"``; in null and Bettel ``"no-trick"`` (the declarer takes no trick, his
defenders try to give him one); the position a puzzle needs (every hand known, a declaring side, a player
to move)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..engine import State
from ..files import clip
from ..objective import Objective
from ..record import Record, RecordError
from ..scoring import schneider_points
from ..solver import Solver

__all__ = ["PuzzleError", "GOALS", "DIFFICULTIES", "DEFAULT_GOALS", "GoalTarget", "check_goal", "goal_objective",
           "mover_declaring", "goal_target", "evaluate_goal", "concrete_goal", "puzzle_state", "require_two_sided"]

#: The goal keywords besides a points threshold.
GOALS: tuple[str, ...] = ("max", "all-tricks", "no-trick")
#: Difficulty labels, easiest first.
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
#: Goals tried at a position, in order of preference, when the caller names none.
DEFAULT_GOALS: tuple[int | str, ...] = (61, 91, "all-tricks", 31, "max")
#: The goals of a game whose declarer must take no trick (null, Bettel): the only one.
NO_TRICK_GOALS: tuple[int | str, ...] = ("no-trick",)


class PuzzleError(RecordError):
    """A puzzle that cannot be read (the ``[puzzle]`` table is missing or malformed) or a position that cannot
    hold one. A puzzle that reads but is wrong is not an error: :func:`check_puzzle` reports it."""


@dataclass(frozen=True)
class GoalTarget:
    """The goal at a position as one yes/no question on the declaring side's final value."""

    tricks: bool  # trick objective (all-tricks, no-trick) instead of card points
    threshold: int  # the declaring side "reaches" when its final value is at least this
    declaring: bool  # the side to move wants the value to reach the threshold (the declaring side; in null and
    # Bettel his defenders, who want the declarer to take a trick), else to prevent it

    def succeeds(self, value: int) -> bool:
        return (value >= self.threshold) == self.declaring


def game_goals(game: Any) -> tuple[int | str, ...]:
    """The goals tried when none is named: :data:`NO_TRICK_GOALS` in null and Bettel, else
    :data:`DEFAULT_GOALS` with the game's schneider (91; in Skat 90: :func:`~sheepsolve.scoring.schneider_points`).

    >>> from sheepsolve.games import make_game
    >>> game_goals(make_game("grand"))
    (61, 90, 'all-tricks', 31, 'max')
    """
    if game.no_trick:
        return NO_TRICK_GOALS
    return tuple(schneider_points(game) if g == 91 else g for g in DEFAULT_GOALS)


def check_game_goal(game: Any, goal: int | str, where: str = "puzzle.goal") -> None:
    """A goal the game can have: ``"no-trick"`` exactly in the games whose declarer must take no trick."""
    if game.no_trick and goal != "no-trick":
        raise PuzzleError(f'{where}: {clip(repr(goal))} is no goal of {game.name}: the declarer must take no trick '
                          f'(goal "no-trick")')
    if not game.no_trick and goal == "no-trick":
        raise PuzzleError(f'{where}: "no-trick" is the goal of null and Bettel, not of {game.name}')


def check_goal(goal: Any, where: str = "puzzle.goal") -> int | str:
    if isinstance(goal, bool) or not isinstance(goal, (int, str)):
        raise PuzzleError(f'{where}: must be a points threshold like 61 or one of "max", "all-tricks", '
                          f'"no-trick", not {clip(repr(goal))}')
    if isinstance(goal, str):
        g = goal.strip().lower()
        if g.isascii() and g.isdigit():  # not "²" or "٦١", which str.isdigit() also accepts
            if len(g) > 3:
                raise PuzzleError(f"{where}: a points threshold must be between 1 and 120, not {clip(g)}")
            return check_goal(int(g), where)
        if g not in GOALS:
            raise PuzzleError(f'{where}: unknown goal {clip(repr(goal))} (a threshold like 61, or "max", '
                              f'"all-tricks", "no-trick")')
        return g
    if not 1 <= goal <= 120:
        raise PuzzleError(f"{where}: a points threshold must be between 1 and 120, not {clip(goal)}")
    return goal


def goal_objective(state: State, goal: int | str) -> Objective:
    """The objective the goal is a question on (null and Bettel: the declarer's tricks, which he keeps down)."""
    return Objective.for_setup(state.setup, tricks=goal == "all-tricks")


def mover_declaring(state: State) -> bool:
    return state.to_move in state.setup.team


def goal_target(state: State, goal: int | str, values: Mapping[Card, int]) -> GoalTarget:
    """``values``: the final value after each legal card under the goal's objective."""
    declaring = mover_declaring(state)
    if goal == "no-trick":  # his defenders want the declarer's tricks to reach 1
        return GoalTarget(True, 1, not declaring)
    if goal == "all-tricks":
        return GoalTarget(True, state.game.tricks, declaring)
    if goal == "max":
        best = max(values.values()) if declaring else min(values.values())
        return GoalTarget(False, best if declaring else best + 1, declaring)
    return GoalTarget(False, int(goal), declaring)


def evaluate_goal(state: State, goal: int | str, solver: Solver) -> tuple[dict[Card, int], GoalTarget]:
    """Every legal card's final value under the goal's objective, and the goal as a :class:`GoalTarget`."""
    obj = goal_objective(state, goal)
    values = solver.card_values(state, obj)
    return values, goal_target(state, goal, values)


def concrete_goal(state: State, goal: int | str, solver: Solver | None = None) -> int | str:
    """``goal`` with a vague ``"max"`` made concrete: the card points the best card makes for the declaring
    side (it is to move), or one more than the fewest the defenders hold it to (they are). Other goals as given.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.puzzle import generate
    >>> [p] = generate(make_game("sheepshead"), cards_left=3, count=1, seed=5)
    >>> concrete_goal(p.state, 91), concrete_goal(p.state, "max")
    (91, 108)
    """
    if goal != "max":
        return goal
    solver = solver or Solver()
    values = solver.card_values(state, goal_objective(state, goal))
    return goal_target(state, goal, values).threshold


def puzzle_state(rec: Record) -> State:
    """The record's position, refused unless it is a puzzle's: every hand known, a game with a declaring side,
    a player to move."""
    try:
        state = rec.state()
    except RecordError as e:
        raise PuzzleError(f"{e}; a puzzle needs every hand, the blind and the bury") from None
    require_two_sided(state)
    return state


def require_two_sided(state: State) -> None:
    g = state.game
    if not g.two_sided or not state.setup.team:
        raise PuzzleError(f"{g.name}: puzzles need a game with a declaring side (not ramsch or leaster)")
    if state.finished:
        raise PuzzleError("the hand is over: a puzzle needs a player to move")
