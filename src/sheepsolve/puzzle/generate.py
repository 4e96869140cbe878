"""Puzzles found in played deals: :func:`puzzle_at` (one position), :func:`find_puzzle` (one deal),
:func:`generate` (the deals of a seed)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..engine import State
from ..files import clip
from ..games import Game
from ..objective import Objective
from ..solver import Solver
from .goals import (DIFFICULTIES, PuzzleError, check_game_goal, check_goal, evaluate_goal, game_goals, goal_objective,
                    require_two_sided)
from .heuristic import equivalent_groups, play_forward, sensible_setup
from .model import Puzzle, players_for, record_of
from .rating import rate

__all__ = ["puzzle_at", "find_puzzle", "generate"]


def _lines(state: State, obj: Objective, cards: Iterable[Card], solver: Solver,
           values: Mapping[Card, int]) -> dict[Card, tuple[Card, ...]]:
    """A line of perfect play after each of ``cards``, whose exact values (under ``obj``) are ``values``."""
    return {c: tuple(solver.best_line(state.play(c), obj, value=values[c])) for c in cards}


def puzzle_at(state: State, goal: int | str, *, solver: Solver | None = None, players: Sequence[str] | None = None,
              info: Mapping[str, Any] | None = None) -> Puzzle | None:
    """The puzzle of ``goal`` at ``state``, or None when not exactly one group of equivalent cards reaches it.

    ``state`` must come from a full deal (its record needs the hands as dealt).

    >>> from sheepsolve.games import make_game
    >>> [p] = generate(make_game("sheepshead"), cards_left=3, count=1, seed=5)
    >>> [str(c) for c in puzzle_at(p.state, 91).solution]
    ['8D', '7D']
    >>> puzzle_at(p.state, 61) is None  # the picker's side has 67 already: every card makes 61
    True
    """
    require_two_sided(state)
    goal = check_goal(goal, "goal")
    g = state.game
    check_game_goal(g, goal, "goal")
    if goal == "all-tricks" and len([t for t in state.tricks if t.winner not in state.setup.team]):
        return None
    if goal == "no-trick" and any(t.winner in state.setup.team for t in state.tricks):
        return None  # the declarer has taken a trick already: the game is lost
    if g.tout and goal != "all-tricks":
        return None
    solver = solver or Solver()
    groups = equivalent_groups(state)
    if len(groups) < 2:
        return None
    values, target = evaluate_goal(state, goal, solver)
    good = [grp for grp in groups if target.succeeds(values[grp[0]])]
    if len(good) != 1:
        return None
    if goal == "max":  # a concrete target: what the best card makes (declaring side) or holds them to
        goal = target.threshold
        if not 1 <= goal <= 120:
            return None
    solution = good[0]
    obj = goal_objective(state, goal)
    wrong = [c for c in state.legal() if c not in solution]
    refutations = _lines(state, obj, wrong, solver, values)
    sol_line = solver.best_line(state.play(solution[0]), obj, value=values[solution[0]])
    rating = rate(state, goal, solution, refutations, sol_line, groups=groups)
    names = tuple(players or players_for(g))
    rec = record_of(state, names, **dict(info or {}))
    extra = {"score": rating.score, "failing": rating.failing, "depth": rating.depth,
             "max_depth": rating.max_depth, "themes": list(rating.themes), "natural": str(rating.natural)}
    return Puzzle(record=rec, goal=goal, to_move=names[state.to_move], solution=solution, refutations=refutations,
                  difficulty=rating.difficulty, extra=extra)


def _game_args(game: Game) -> str:
    out = f"--game {game.name}{'-ouvert' if game.ouvert else ''}"
    if game.trump_suit:
        out += f" --trump {'spades' if game.trump_suit == 'S' else game.trump_suit}"  # S alone is refused
    if game.name == "sheepshead" and game.partner != "jack-of-diamonds":
        out += f" --partner {game.partner}"
    if game.tout:
        out += " --tout"
    return out


def find_puzzle(game: Game, deal_seed: int, *, cards_left: int, goals: Sequence[int | str] | None = None,
                mode: str = "heuristic", position: str = "any", min_difficulty: str = "easy",
                solver: Solver | None = None, source: str | None = None) -> Puzzle | None:
    """The puzzle of one deal, or None: the deal of ``deal_seed`` with a sensible contract
    (:func:`sensible_setup`), played forward (:func:`play_forward`) until every hand holds ``cards_left`` cards
    and then a random number of cards into the trick (``position``: ``"any"``, ``"lead"``, ``"follow"``); the
    first goal of ``goals`` (default :func:`game_goals`: the point goals, or "no-trick" in null and Bettel) with a
    unique answer gives the puzzle.

    Rejected: puzzles below ``min_difficulty``, and the obvious ones, where the natural card is the answer and
    every wrong card fails within the current trick.
    """
    if not 2 <= cards_left < game.hand_size:
        raise PuzzleError(f"cards left: must be between 2 and {game.hand_size - 1} for {game.name} (with one card "
                          f"left there is no choice), not {cards_left}")
    if position not in ("any", "lead", "follow"):
        raise PuzzleError(f'position: must be "any", "lead" or "follow", not {clip(repr(position))}')
    if min_difficulty not in DIFFICULTIES:
        raise PuzzleError(f"min difficulty: must be one of {', '.join(DIFFICULTIES)}, not {clip(repr(min_difficulty))}")
    goals = [check_goal(x, "goal") for x in (goals or game_goals(game))]
    for x in goals:
        check_game_goal(game, x, "goal")
    rng = random.Random(deal_seed)
    solver = solver or Solver()
    setup = sensible_setup(game, rng)
    if position == "lead":
        extra = 0
    elif position == "follow":
        extra = rng.randrange(1, game.seats)
    else:
        extra = rng.randrange(game.seats)
    state = play_forward(setup, rng, cards_left=cards_left, extra=extra, mode=mode, solver=solver)
    if state.finished:
        return None
    info = {"source": source} if source else None
    for goal in goals:
        p = puzzle_at(state, goal, solver=solver, info=info)
        if p is None:
            continue
        if DIFFICULTIES.index(p.difficulty) < DIFFICULTIES.index(min_difficulty):
            continue
        if p.extra["natural"] in {str(c) for c in p.solution} and p.extra["max_depth"] == 1:
            continue  # obvious: the natural card, and every mistake loses at once
        return p
    return None


def generate(game: Game, *, cards_left: int, count: int, seed: int, goals: Sequence[int | str] | None = None,
             mode: str = "heuristic", position: str = "any", min_difficulty: str = "easy",
             max_deals: int | None = None, solver: Solver | None = None) -> list[Puzzle]:
    """Up to ``count`` puzzles from the deals of ``seed`` (the same seed gives the same puzzles), trying at most
    ``max_deals`` deals (default ``300 * count``). See :func:`find_puzzle`.

    >>> from sheepsolve.games import make_game
    >>> ps = generate(make_game("sheepshead"), cards_left=3, count=1, seed=5)
    >>> len(ps), ps[0].difficulty in DIFFICULTIES
    (1, True)
    """
    if count < 1:
        raise PuzzleError(f"count: must be at least 1, not {count}")
    rng = random.Random(seed)
    solver = solver or Solver()
    out: list[Puzzle] = []
    limit = max_deals if max_deals is not None else 300 * count
    goal_args = "" if goals is None else "".join(f" --goal {x}" for x in goals)
    for _ in range(limit):
        if len(out) >= count:
            break
        deal_seed = rng.randrange(2**32)
        src = (f"sheepsolve puzzle generate {_game_args(game)} --cards-left {cards_left} --seed {seed}{goal_args}"
               f"{'' if mode == 'heuristic' else ' --play ' + mode}"
               f"{'' if position == 'any' else ' --position ' + position}"
               f"{'' if min_difficulty == 'easy' else ' --min-difficulty ' + min_difficulty}; deal {deal_seed}")
        p = find_puzzle(game, deal_seed, cards_left=cards_left, goals=goals, mode=mode, position=position,
                        min_difficulty=min_difficulty, solver=solver, source=src)
        if p is not None:
            out.append(p)
    return out
