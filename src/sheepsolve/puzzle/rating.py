"""How hard a puzzle is, and why (:func:`rate`): failing groups of cards, how deep the failures show,
counter-intuitive themes (:data:`THEMES`), and whether the rule-of-thumb card fails."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import Card
from ..engine import State
from ..objective import Objective
from .goals import GoalTarget, goal_objective, goal_target
from .heuristic import equivalent_groups, is_boss, natural_order, winner_index
from .model import Rating

__all__ = ["THEMES", "rate"]

#: The theme names :func:`rate` detects.
THEMES: dict[str, str] = {
    "duck": "let the opponents' card win the trick when you could beat it",
    "overtake": "take your partner's trick",
    "schmear": "give 10 or more points to a trick your side wins without winning it yourself",
    "lead-into-void": "lead a suit someone is void in and can trump",
    "underlead": "lead a low card of a suit whose highest card you hold",
    "give-up-trick": "lose the current trick to take more tricks later",
}


def _side_bounds(state: State, obj: Objective) -> tuple[int, int]:
    """The lowest and highest final value still possible by the count alone."""
    past = obj.past_value(state)
    if obj.tricks:
        return past, past + max(len(h) for h in state.hands)  # the tricks still to play
    took = obj.took_trick(state)
    bury = obj.bury_points
    lo = past + (bury if (not obj.bury_needs_trick or took) else 0)
    hi = past + state.points_remaining() + bury
    return lo, hi


def _failure_depth(state: State, card: Card, line: Sequence[Card], obj: Objective, target: GoalTarget) -> int:
    """Tricks, the current one counted as 1, until the failure after ``card`` is certain by the count."""
    s = state.play(card)
    start = len(state.tricks)
    for c in line:
        before = len(s.tricks)
        s = s.play(c)
        if len(s.tricks) > before:
            lo, hi = _side_bounds(s, obj)
            if (target.declaring and hi < target.threshold) or (not target.declaring and lo >= target.threshold):
                return len(s.tricks) - start
    return max(len(s.tricks) - start, 1)


def _side_tricks(state: State, line: Sequence[Card], mine: bool) -> tuple[int, bool]:
    """After playing ``line`` from ``state``: tricks the mover's side took from here, and whether it took the
    current trick."""
    s = state.play_cards(line)
    team = state.setup.team
    new = s.tricks[len(state.tricks):]
    took = [(t.winner in team) == mine for t in new]
    return sum(took), bool(took and took[0])


def _themes(state: State, solution: Sequence[Card], sol_line: Sequence[Card],
            refutations: Mapping[Card, Sequence[Card]]) -> tuple[str, ...]:
    st = state.setup
    g = state.game
    me = state.to_move
    mine = me in st.team
    card = solution[0]
    out: list[str] = []
    legal = state.legal()
    if state.trick:
        trick = list(state.trick)
        winner = (state.leader + winner_index(state, trick)) % state.seats
        partner_wins = (winner in st.team) == mine
        wins = winner_index(state, trick + [card]) == len(trick)
        could = [c for c in legal if winner_index(state, trick + [c]) == len(trick)]
        if not partner_wins and not wins and could:
            out.append("duck")
        if partner_wins and wins:
            out.append("overtake")
        _, took = _side_tricks(state, (card,) + tuple(sol_line), mine)
        if card.points >= 10 and not wins and took:
            out.append("schmear")
    else:
        cls = st.suit_class(card)
        if cls != "T":
            for seat in range(state.seats):
                if seat == me:
                    continue
                hand = state.hands[seat]
                if hand and not any(st.suit_class(c) == cls for c in hand) and any(g.is_trump(c) for c in hand):
                    out.append("lead-into-void")
                    break
        mine_cls = [c for c in state.hands[me] if st.suit_class(c) == cls]
        top = max(mine_cls, key=g.strength)
        if card != top and is_boss(state, top) and g.strength(card) < g.strength(top):
            out.append("underlead")
    n_sol, took_now = _side_tricks(state, (card,) + tuple(sol_line), mine)
    if not took_now:
        for w, line in refutations.items():
            n_w, took_w = _side_tricks(state, (w,) + tuple(line), mine)
            if took_w and n_sol > n_w:
                out.append("give-up-trick")
                break
    return tuple(out)


def rate(state: State, goal: int | str, solution: Sequence[Card], refutations: Mapping[Card, Sequence[Card]],
         solution_line: Sequence[Card], *, groups: Sequence[Sequence[Card]] | None = None) -> Rating:
    """Rate a puzzle: the number of failing groups of cards, how many tricks until the most natural wrong card's
    failure shows in the count (``depth``) and the latest any does, counter-intuitive themes (:data:`THEMES`), and
    whether the rule-of-thumb card (:func:`natural_order`) fails.

    ``score = (failing - 1) + (depth - 1) + (max_depth - 1) // 2 + 2 * themes + (5 if the natural card
    fails)``; easy up to 3, medium up to 7, hard above, but never hard when the natural card is the answer.
    """
    groups = groups if groups is not None else equivalent_groups(state)
    obj = goal_objective(state, goal)
    # the solution line's final value is the best value, which is all "max" needs to know
    best = obj.final_value(state.play_cards((solution[0],) + tuple(solution_line)))
    target = goal_target(state, goal, {solution[0]: best})
    order = natural_order(state)
    natural = order[0]
    natural_fails = natural not in solution
    wrong_groups = [grp for grp in groups if grp[0] not in solution]
    depths = {c: _failure_depth(state, c, refutations[c], obj, target) for c in refutations}
    most_natural_wrong = next(c for c in order if c not in solution)
    depth = depths[most_natural_wrong]
    max_depth = max(depths.values())
    themes = _themes(state, solution, solution_line, refutations)
    failing = len(wrong_groups)
    score = (failing - 1) + (depth - 1) + (max_depth - 1) // 2 + 2 * len(themes) + (5 if natural_fails else 0)
    label = "easy" if score <= 3 else "medium" if score <= 7 or not natural_fails else "hard"
    return Rating(difficulty=label, score=score, failing=failing, depth=depth, max_depth=max_depth, themes=themes,
                  natural=natural, natural_fails=natural_fails)
