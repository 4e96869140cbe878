"""A plain minimax over the reference engine: the yardstick for the compiled solver.

No transposition table, no move ordering, no equivalent-card pruning, no point bounds: only the rules
(:meth:`State.legal`, :meth:`State.play`) and :meth:`Objective.final_value` on finished states. Alpha-beta
cut-offs are the only refinement, and they cannot change a minimax value.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.engine import Setup
>>> g = make_game("solo", trump="H")
>>> hands = [parse_cards("QC AS"), parse_cards("7H TS"), parse_cards("AC KS"), parse_cards("7C 9S")]
>>> s = Setup.create(g, hands, declarer=0).start()
>>> reference_value(s)
39
"""

from __future__ import annotations

from .engine import State
from .objective import Objective

__all__ = ["reference_value", "reference_card_values"]

_INF = 10_000


def _search(state: State, obj: Objective, alpha: int, beta: int) -> int:
    if state.finished:
        return obj.final_value(state)
    maxing = (state.to_move in obj.team) == obj.maximize
    if maxing:
        best = -_INF
        for c in state.legal():
            v = _search(state.play(c), obj, alpha, beta)
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best
    best = _INF
    for c in state.legal():
        v = _search(state.play(c), obj, alpha, beta)
        if v < best:
            best = v
        if best < beta:
            beta = best
        if alpha >= beta:
            break
    return best


def reference_value(state: State, objective: Objective | None = None, *, seat: int | None = None) -> int:
    """Exact final value of ``state`` under perfect play by everyone (the game's default objective)."""
    obj = objective or Objective.for_setup(state.setup, seat=seat)
    return _search(state, obj, -_INF, _INF)


def reference_card_values(state: State, objective: Objective | None = None, *,
                          seat: int | None = None) -> dict:
    """The exact value after each legal card of the player to move."""
    obj = objective or Objective.for_setup(state.setup, seat=seat)
    return {c: _search(state.play(c), obj, -_INF, _INF) for c in state.legal()}
