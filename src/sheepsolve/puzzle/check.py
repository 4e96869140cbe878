"""Puzzles read from records (:func:`puzzle_from_record`) and proved (:func:`check_puzzle`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, CardError, parse_cards
from ..engine import RulesError, State
from ..files import clip
from ..objective import Objective
from ..record import Record
from ..solver import Solver
from .goals import (DIFFICULTIES, GoalTarget, PuzzleError, check_game_goal, check_goal, evaluate_goal, goal_objective,
                    puzzle_state)
from .heuristic import equivalent_groups
from .model import Puzzle

__all__ = ["puzzle_from_record", "CheckResult", "check_puzzle"]


def _cards_field(value: Any, where: str, notation: str | None = None) -> tuple[Card, ...]:
    if not isinstance(value, (str, list)):
        raise PuzzleError(f'{where}: must be cards like "QC 7D" or a list of card strings, not {clip(repr(value))}')
    if isinstance(value, list) and not all(isinstance(x, str) for x in value):
        raise PuzzleError(f"{where}: every card must be a string like \"QC\"")
    try:
        return tuple(parse_cards(value, notation=notation))  # a typo's hint in the record's notation
    except CardError as e:
        raise PuzzleError(f"{where}: {e}") from None


def puzzle_from_record(rec: Record) -> Puzzle:
    """Read the ``[puzzle]`` table of a record; raises :class:`PuzzleError` when it is missing or malformed.

    The table is read, not judged: :func:`check_puzzle` says whether it is right.
    """
    t = rec.extra.get("puzzle")
    if t is None:
        raise PuzzleError("puzzle: missing: a puzzle record has a [puzzle] table (goal, to_move, solution, "
                          "refutations, difficulty)")
    if not isinstance(t, Mapping):
        raise PuzzleError(f"puzzle: must be a table, not {clip(repr(t))}")
    for key in ("goal", "to_move", "solution", "difficulty"):
        if key not in t:
            raise PuzzleError(f"puzzle.{key}: missing")
    goal = check_goal(t["goal"])
    to_move = t["to_move"]
    if not isinstance(to_move, str):
        raise PuzzleError(f"puzzle.to_move: must be a player name, not {clip(repr(to_move))}")
    solution = _cards_field(t["solution"], "puzzle.solution", rec.notation)
    difficulty = t["difficulty"]
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise PuzzleError(f"puzzle.difficulty: must be one of {', '.join(DIFFICULTIES)}, not {clip(repr(difficulty))}")
    refs = t.get("refutations", {})
    if not isinstance(refs, Mapping):
        raise PuzzleError(f"puzzle.refutations: must be a table of card = reply line, not {clip(repr(refs))}")
    refutations: dict[Card, tuple[Card, ...]] = {}
    for k, v in refs.items():
        try:
            c = Card.parse(k, notation=rec.notation)
        except CardError as e:
            raise PuzzleError(f"puzzle.refutations.{clip(k)}: {e}") from None
        if c in refutations:
            raise PuzzleError(f"puzzle.refutations.{clip(k)}: {c} is given twice")
        refutations[c] = _cards_field(v, f"puzzle.refutations.{clip(k)}", rec.notation)
    extra = {k: v for k, v in t.items() if k not in ("goal", "to_move", "solution", "difficulty", "refutations")}
    return Puzzle(record=rec, goal=goal, to_move=to_move, solution=solution, refutations=refutations,
                  difficulty=difficulty, extra=extra)


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check_puzzle` found: ``ok`` when the solution is right and unique and every refutation
    refutes; ``reasons`` say what is wrong otherwise."""

    ok: bool
    reasons: tuple[str, ...]
    values: dict[Card, int]  # the final value after each legal card (points, or tricks for all-tricks)
    solution: tuple[Card, ...]  # the cards that really reach the goal

    def __bool__(self) -> bool:
        return self.ok


def _refutation_problem(state: State, card: Card, line: Sequence[Card], obj: Objective, target: GoalTarget,
                        names: Sequence[str], solver: Solver) -> str | None:
    s = state.play(card)
    for i, c in enumerate(line, 1):
        if s.finished:
            return f"the line goes on after the last trick ({c}, card {i})"
        who = names[s.to_move]
        if c not in s.hands[s.to_move]:
            return f"card {i}, {c}: {who} does not hold it"
        try:
            s = s.play(c)
        except RulesError as e:
            return f"card {i}, {c} by {who} is illegal: {e}"
        if not s.finished and solver.reach(s, target.threshold, obj) == target.declaring:
            return f"card {i}, {c} by {who} lets the goal be reached again: it does not refute"
    if not s.finished:
        return f"the line stops before the end of the hand ({sum(len(h) for h in s.hands)} cards still in hand)"
    if target.succeeds(obj.final_value(s)):
        return f"the line ends with the goal reached (final value {obj.final_value(s)})"
    return None


def check_puzzle(puzzle: Puzzle | Record, *, solver: Solver | None = None) -> CheckResult:
    """Prove a puzzle: the position has a player to move who is ``to_move``; the cards of ``solution`` are legal
    and each reaches the goal; no other card does; they are one group of equivalent cards; every other legal
    card has a refutation: legal cards to the end of the hand after which the goal is out of reach at every
    step (perfect play by everyone from each position), ending short of the goal.

    Raises :class:`PuzzleError` (or :class:`~sheepsolve.record.RecordError`) when the puzzle cannot be read.
    """
    if isinstance(puzzle, Record):
        puzzle = puzzle_from_record(puzzle)
    rec = puzzle.record
    state = puzzle_state(rec)
    solver = solver or Solver()
    names = rec.players
    reasons: list[str] = []
    mover = names[state.to_move]
    if puzzle.to_move != mover:
        reasons.append(f"to_move: {clip(puzzle.to_move)} is not to move; {mover} is")
    check_game_goal(state.game, puzzle.goal)
    values, target = evaluate_goal(state, puzzle.goal, solver)
    obj = goal_objective(state, puzzle.goal)
    legal = state.legal()
    good = [c for c in legal if target.succeeds(values[c])]
    groups = equivalent_groups(state)
    group_of = {c: i for i, grp in enumerate(groups) for c in grp}
    what = "tricks" if obj.tricks else "points"
    claimed = list(dict.fromkeys(puzzle.solution))
    for c in claimed:
        if c not in state.hands[state.to_move]:
            reasons.append(f"solution: {c} is not in {mover}'s hand")
        elif c not in legal:
            reasons.append(f"solution: {c} is not a legal card for {mover} ({state.why_illegal(c)})")
        elif c not in good:
            reasons.append(f"wrong solution: {c} does not reach the goal ({values[c]} {what} with best play)")
    if not good:
        reasons.append("no legal card reaches the goal")
    for c in good:
        if c in claimed:
            continue
        mates = [x for x in claimed if x in group_of and group_of[x] == group_of[c]]
        if mates:
            reasons.append(f"solution: {c} is missing (equivalent to {mates[0]}, it reaches the goal too)")
        else:
            reasons.append(f"second solution: {c} also reaches the goal ({values[c]} {what} with best play)")
    good_groups = sorted({group_of[c] for c in good})
    if len(good_groups) > 1:
        reasons.append("not unique: " + ", ".join(" ".join(map(str, groups[i])) for i in good_groups)
                       + " all reach the goal")
    if len(groups) < 2:
        reasons.append(f"no choice: every legal card of {mover} is equivalent")
    for c in legal:
        if c in good:
            if c in puzzle.refutations:
                reasons.append(f"refutations: {c} reaches the goal, it has no refutation")
            continue
        if c not in puzzle.refutations:
            reasons.append(f"refutations: none for {c}")
            continue
        why = _refutation_problem(state, c, puzzle.refutations[c], obj, target, names, solver)
        if why:
            reasons.append(f"refutation of {c}: {why}")
    for c in puzzle.refutations:
        if c not in legal:
            reasons.append(f"refutations: {c} is not a legal card for {mover}")
    return CheckResult(ok=not reasons, reasons=tuple(reasons), values=dict(values), solution=tuple(good))
