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

__all__ = ["reference_value", "reference_card_values", "reference_value_memo"]

_INF = 10_000


def _search(state: State, obj: Objective, alpha: int, beta: int) -> int:
    if state.finished:
        return obj.final_value(state)
    maxing = (state.to_move in obj.team) == obj.maximize
    if maxing:
        best = -_INF
        for c in state.legal():
            v = _search(state.play(c, check=False), obj, alpha, beta)
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best
    best = _INF
    for c in state.legal():
        v = _search(state.play(c, check=False), obj, alpha, beta)
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


def reference_value_memo(state: State, objective: Objective | None = None, *, seat: int | None = None) -> int:
    """The same value by a memoised minimax, fast enough for full deals.

    Between tricks the value splits into what is already won plus what the rest of the hand brings, and the rest
    depends only on the cards still out, the leader, whether the called suit is still unled and whether the side
    has taken a trick. Those future values are memoised exactly (every card is searched, no cut-offs); inside a
    trick it is a plain minimax. Tested against :func:`reference_value` on small positions.
    """
    obj = objective or Objective.for_setup(state.setup, seat=seat)
    memo: dict = {}

    def gain(trick_index: int, winner: int, points: int) -> int:
        if winner not in obj.team:
            return 0
        if obj.tricks:
            return 1
        return points + (obj.blind_points if obj.blind_trick == trick_index else 0)

    def terminal(took: bool) -> int:
        if obj.tricks:
            return 0
        if not took and obj.no_trick_value is not None:
            return obj.no_trick_value
        if obj.bury_points and (took or not obj.bury_needs_trick):
            return obj.bury_points
        return 0

    def future(s: State, took: bool) -> int:
        """Value still to come from ``s`` (which may be mid-trick): gains of the remaining tricks + terminal."""
        if s.finished:
            return terminal(took)
        key = None
        if not s.trick:
            key = (s.hands, s.leader, s.called_open, took, len(s.tricks))
            if key in memo:
                return memo[key]
        maxing = (s.to_move in obj.team) == obj.maximize
        vals = []
        for c in s.legal():
            t = s.play(c, check=False)
            if len(t.tricks) > len(s.tricks):
                done = t.tricks[-1]
                g = gain(len(t.tricks) - 1, done.winner, done.points)
                vals.append(g + future(t, took or done.winner in obj.team))
            else:
                vals.append(future(t, took))
        v = max(vals) if maxing else min(vals)
        if key is not None:
            memo[key] = v
        return v

    took = obj.took_trick(state)
    if obj.no_trick_value is not None and not took:
        return future(state, False)  # nothing won yet: the value is all in the future
    past = obj.past_value(state)
    return past + future(state, took)

