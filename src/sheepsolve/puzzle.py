"""Double-dummy puzzles: find them in played deals, rate them, prove them, and present them.

A puzzle is a hand record (``docs/RECORD-FORMAT.md``) whose ``play`` leads to the puzzle position, with a
``[puzzle]`` table:

- ``goal``: the declaring side's card points threshold the puzzle is about (``61``, ``91``, ``31``, ...), which
  the declaring side tries to reach and the defenders to prevent; ``"all-tricks"``: the declaring side tries to
  take every trick (trick objective), the defenders to take one; or ``"max"``: the side to move wants the most
  points it can get (the declaring side the most, the defenders the fewest for the declaring side);
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
>>> describe_goal(p.state, p.goal)
'reach 91 card points (schneider)'
>>> check_puzzle(p).ok
True
>>> doctored = replace(p, solution=p.solution + (p.state.legal()[0],))
>>> check_puzzle(doctored).reasons
('wrong solution: QC does not reach the goal (86 points with best play)',)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace  # replace: the docstring examples use it
from typing import Any

from .cards import Card, CardError, parse_cards
from .engine import RulesError, Setup, State, legal_calls, trick_winner
from .files import clip
from .games import Game
from .objective import Objective
from .record import Record, RecordError, dump_record, record_from_dict
from .solver import Solver
from .render.text import side_of

__all__ = [
    "Puzzle",
    "PuzzleError",
    "Rating",
    "CheckResult",
    "GOALS",
    "DIFFICULTIES",
    "equivalent_groups",
    "concrete_goal",
    "natural_order",
    "sensible_setup",
    "play_forward",
    "puzzle_at",
    "find_puzzle",
    "generate",
    "rate",
    "check_puzzle",
    "puzzle_from_record",
    "describe_goal",
    "render_text",
    "render_html",
]

#: The goal keywords besides a points threshold.
GOALS: tuple[str, ...] = ("max", "all-tricks")
#: Difficulty labels, easiest first.
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
#: Goals tried at a position, in order of preference, when the caller names none.
DEFAULT_GOALS: tuple[int | str, ...] = (61, 91, "all-tricks", 31, "max")
#: The theme names :func:`rate` detects.
THEMES: dict[str, str] = {
    "duck": "let the opponents' card win the trick when you could beat it",
    "overtake": "take your partner's trick",
    "schmear": "give 10 or more points to a trick your side wins without winning it yourself",
    "lead-into-void": "lead a suit someone is void in and can trump",
    "underlead": "lead a low card of a suit whose highest card you hold",
    "give-up-trick": "lose the current trick to take more tricks later",
}

SHEEPSHEAD_NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve")
SCHAFKOPF_NAMES = ("Sepp", "Vroni", "Hias", "Resi")


class PuzzleError(RecordError):
    """A puzzle that cannot be read (the ``[puzzle]`` table is missing or malformed) or a position that cannot
    hold one. A puzzle that reads but is wrong is not an error: :func:`check_puzzle` reports it."""


# --------------------------------------------------------------------------------------------------------------
# Goals as thresholds.


@dataclass(frozen=True)
class _Target:
    """The goal at a position as one yes/no question on the declaring side's final value."""

    tricks: bool  # trick objective (all-tricks) instead of card points
    threshold: int  # the declaring side "reaches" when its final value is at least this
    declaring: bool  # the side to move is the declaring side (it wants to reach; else to prevent)

    def succeeds(self, value: int) -> bool:
        return (value >= self.threshold) == self.declaring


def _check_goal(goal: Any, where: str = "puzzle.goal") -> int | str:
    if isinstance(goal, bool) or not isinstance(goal, (int, str)):
        raise PuzzleError(f'{where}: must be a points threshold like 61 or one of "max", "all-tricks", '
                          f"not {clip(repr(goal))}")
    if isinstance(goal, str):
        g = goal.strip().lower()
        if g.isascii() and g.isdigit():  # not "²" or "٦١", which str.isdigit() also accepts
            if len(g) > 3:
                raise PuzzleError(f"{where}: a points threshold must be between 1 and 120, not {clip(g)}")
            return _check_goal(int(g), where)
        if g not in GOALS:
            raise PuzzleError(f'{where}: unknown goal {clip(repr(goal))} (a threshold like 61, or "max", "all-tricks")')
        return g
    if not 1 <= goal <= 120:
        raise PuzzleError(f"{where}: a points threshold must be between 1 and 120, not {clip(goal)}")
    return goal


def _objective(state: State, goal: int | str) -> Objective:
    return Objective.for_setup(state.setup, tricks=goal == "all-tricks")


def _mover_declaring(state: State) -> bool:
    return state.to_move in state.setup.team


def _target(state: State, goal: int | str, values: Mapping[Card, int]) -> _Target:
    """``values``: the final value after each legal card under the goal's objective."""
    declaring = _mover_declaring(state)
    if goal == "all-tricks":
        return _Target(True, state.game.tricks, declaring)
    if goal == "max":
        best = max(values.values()) if declaring else min(values.values())
        return _Target(False, best if declaring else best + 1, declaring)
    return _Target(False, int(goal), declaring)


def concrete_goal(state: State, goal: int | str, solver: Solver | None = None) -> int | str:
    """``goal`` with a vague ``"max"`` made concrete: the card points the best card makes for the declaring
    side (it is to move), or one more than the fewest the defenders hold it to (they are). Other goals as given.

    >>> from sheepsolve.games import make_game
    >>> [p] = generate(make_game("sheepshead"), cards_left=3, count=1, seed=5)
    >>> concrete_goal(p.state, 91), concrete_goal(p.state, "max")
    (91, 108)
    """
    if goal != "max":
        return goal
    solver = solver or Solver()
    values = solver.card_values(state, _objective(state, goal))
    return _target(state, goal, values).threshold


def _puzzle_state(rec: Record) -> State:
    """The record's position, refused unless it is a puzzle's: every hand known, a game with a declaring side,
    a player to move."""
    try:
        state = rec.state()
    except RecordError as e:
        raise PuzzleError(f"{e}; a puzzle needs every hand, the blind and the bury") from None
    _two_sided(state)
    return state


def _two_sided(state: State) -> None:
    g = state.game
    if not g.two_sided or not state.setup.team:
        raise PuzzleError(f"{g.name}: puzzles need a game with a declaring side (not ramsch or leaster)")
    if state.finished:
        raise PuzzleError("the hand is over: a puzzle needs a player to move")


# --------------------------------------------------------------------------------------------------------------
# Equivalent cards and the natural card.


def _class_order(state: State, cls: str) -> list[Card]:
    """The cards of a suit class still out (hands and the trick on the table), strongest first; the card under
    ranks below its class."""
    st = state.setup
    live = set().union(*state.hands) | set(state.trick)
    g = state.game
    return sorted((c for c in live if st.suit_class(c) == cls),
                  key=lambda c: (-1 if c == st.under else g.strength(c)), reverse=True)


def equivalent_groups(state: State) -> list[tuple[Card, ...]]:
    """The legal cards of the player to move, grouped into equivalent cards, in the engine's legal order.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.engine import Setup
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"),
    ...          parse_cards("AS TS KS")]
    >>> s = Setup.create(g, hands, declarer=2).start()
    >>> [" ".join(map(str, grp)) for grp in equivalent_groups(s)]
    ['AC', 'KC', 'QC']
    >>> s = s.play(parse_cards("AC")[0])
    >>> [" ".join(map(str, grp)) for grp in equivalent_groups(s)]
    ['TC', '9C 8C']
    """
    st = state.setup
    legal = state.legal()
    legal_set = set(legal)
    special = {c for c in (st.called, st.under) if c is not None}
    group_of: dict[Card, int] = {}
    groups: list[list[Card]] = []
    for cls in dict.fromkeys(st.suit_class(c) for c in legal):
        prev: Card | None = None
        for c in _class_order(state, cls):
            if c in legal_set:
                if (prev is not None and prev in legal_set and prev not in special and c not in special
                        and prev.points == c.points):
                    group_of[c] = group_of[prev]
                    groups[group_of[c]].append(c)
                else:
                    group_of[c] = len(groups)
                    groups.append([c])
            prev = c
    order = sorted(range(len(groups)), key=lambda i: legal.index(groups[i][0]))
    return [tuple(sorted(groups[i], key=legal.index)) for i in order]


def _beats(state: State, cards: Sequence[Card]) -> int:
    """Index of the winning card among ``cards`` played in order from the trick's leader."""
    st = state.setup
    return trick_winner(state.game, cards, st.under, st.called_class)


def _later_can_beat(state: State, cards: Sequence[Card]) -> bool:
    """Whether a player after the ones who played ``cards`` (the trick so far, in order) could beat its winner,
    each playing a card the follow rule allows (double dummy: the hands are known)."""
    st = state.setup
    n = state.n
    led = st.suit_class(cards[0])
    for k in range(len(cards), n):
        seat = (state.leader + k) % n
        hand = state.hands[seat]
        follow = [c for c in hand if st.suit_class(c) == led]
        for c in follow or hand:
            if _beats(state, list(cards) + [c]) == len(cards):
                return True
    return False


def _is_boss(state: State, card: Card) -> bool:
    """``card`` is the strongest card of its class still out."""
    order = _class_order(state, state.setup.suit_class(card))
    return bool(order) and order[0] == card


def _natural_score(state: State, card: Card) -> float:
    st = state.setup
    g = state.game
    me = state.to_move
    mine = me in st.team
    pts = card.points
    trump = g.is_trump(card)
    strength = g.strength(card)
    if not state.trick:
        if mine:
            if trump:
                return 300 + strength + (100 if _is_boss(state, card) else 0)
            return (250 + pts) if _is_boss(state, card) else (150 - pts - strength / 100)
        if not trump:
            return (350 + pts) if _is_boss(state, card) else (250 - 2 * pts - strength / 100)
        return 100 - pts - strength / 100
    trick = list(state.trick)
    winner = (state.leader + _beats(state, trick)) % state.n
    partner_wins = (winner in st.team) == mine
    after = trick + [card]
    wins = _beats(state, after) == len(trick)
    safe = wins and not _later_can_beat(state, after)
    if partner_wins:
        partner_safe = not _later_can_beat(state, trick + [card]) if not wins else safe
        if partner_safe:
            if not wins:
                return 300 + 3 * pts - (20 if trump else 0)
            return 100 + pts - strength / 100
        if safe:
            return 280 + pts
        if wins:
            return 150 - strength / 100
        return 200 - 3 * pts - (10 if trump else 0) - strength / 1000
    if safe:
        return 400 + 2 * pts - strength / 10
    if wins:
        return 250 + pts - strength / 100
    return 200 - 3 * pts - (10 if trump else 0) - strength / 1000


def natural_order(state: State) -> list[Card]:
    """The legal cards of the player to move, the most natural first, by a simple rule-of-thumb player (who
    sees every hand): take a trick cheaply when nobody behind can beat it, else throw low; schmear to a partner
    whose trick is safe; the declaring side leads trumps, the defenders their aces and then low plain cards.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.engine import Setup
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"),
    ...          parse_cards("AS TS KS")]
    >>> s = Setup.create(g, hands, declarer=2).start()
    >>> [str(c) for c in natural_order(s)]
    ['AC', 'QC', 'KC']
    """
    return sorted(state.legal(), key=lambda c: (-_natural_score(state, c), int(c)))


# --------------------------------------------------------------------------------------------------------------
# Sensible deals and play.


def _trump_score(game: Game, cards: Iterable[Card]) -> float:
    ntr = len(game.trumps)
    s = 0.0
    for c in cards:
        if game.is_trump(c):
            i = game.trumps.index(c)
            s += 3 + 4 * (ntr - i) / max(ntr, 1)
        elif c.rank == "A":
            s += 2
    return s


def _bury_choice(game: Game, picked: list[Card], rng: random.Random) -> tuple[list[Card], Card | None, bool]:
    """A sensible bury for the picker: keep the trumps, bury points, make voids; with a called ace keep a legal
    call. Returns (bury, called, alone)."""
    best: tuple[float, list[Card], Card | None, bool] | None = None
    for bury in itertools.combinations(sorted(picked), game.bury_size):
        kept = [c for c in picked if c not in bury]
        fail = {game.suit_class(c) for c in kept if not game.is_trump(c)}
        val = _trump_score(game, kept) + 0.5 * sum(c.points for c in bury) + 3 * (len(game.plain_suits) - len(fail))
        val -= 6 * sum(1 for c in bury if game.is_trump(c))
        called, alone = None, False
        if game.partner == "called-ace":
            calls = [c for c in legal_calls(game, kept, bury) if c.card is not None and not c.under]
            if not calls:
                val -= 8
                alone = True
            else:
                called = calls[0].card
        val += rng.random() * 0.01
        if best is None or val > best[0]:
            best = (val, list(bury), called, alone)
    assert best is not None
    _, bury, called, alone = best
    if game.partner == "called-ace" and not alone:
        kept = [c for c in picked if c not in bury]
        calls = [c.card for c in legal_calls(game, kept, bury) if c.card is not None and not c.under]
        called = rng.choice(calls)
    return bury, called, alone


def sensible_setup(game: Game, rng: random.Random) -> Setup:
    """A deal with a sensible contract: the seat with the best trumps picks or declares; a Sheepshead picker
    buries points and keeps his trumps; a sauspiel declarer calls an ace of a suit he is short in.

    >>> import random
    >>> from sheepsolve.games import make_game
    >>> st = sensible_setup(make_game("sauspiel"), random.Random(1))
    >>> st.called is not None and st.partner is not None
    True
    """
    from .deals import deal

    if not game.two_sided:
        raise PuzzleError(f"{game.name}: puzzles need a game with a declaring side (not ramsch or leaster)")
    for _ in range(200):
        hands, blind = deal(game, rng)
        scores = [_trump_score(game, h) + rng.random() for h in hands]
        if game.kind == "picker":
            p = max(range(game.seats), key=lambda i: scores[i])
            bury, called, alone = _bury_choice(game, hands[p] + blind, rng)
            return Setup.create(game, hands, declarer=p, blind=blind, bury=bury, called=called, alone=alone)
        if game.partner == "sauspiel":
            able = [i for i in range(game.seats) if legal_calls(game, hands[i])]
            if not able:
                continue
            p = max(able, key=lambda i: scores[i])
            calls = legal_calls(game, hands[p])
            short = min(sum(1 for c in hands[p] if game.suit_class(c) == game.suit_class(x.card)) for x in calls)
            calls = [x for x in calls
                     if sum(1 for c in hands[p] if game.suit_class(c) == game.suit_class(x.card)) == short]
            return Setup.create(game, hands, declarer=p, called=rng.choice(calls).card)
        p = max(range(game.seats), key=lambda i: scores[i])
        return Setup.create(game, hands, declarer=p)
    raise PuzzleError(f"{game.name}: no playable deal found")  # pragma: no cover


def play_forward(setup: Setup, rng: random.Random, *, cards_left: int, extra: int = 0,
                 mode: str = "heuristic", solver: Solver | None = None) -> State:
    """Play from the first lead until every hand holds ``cards_left`` cards, then ``extra`` more cards.

    ``mode="heuristic"``: the rule-of-thumb player of :func:`natural_order`, which plays its first choice most
    of the time, its second now and then, and rarely any card. ``mode="solver"``: every card double-dummy best
    (the most natural of the best cards).
    """
    if mode not in ("heuristic", "solver"):
        raise PuzzleError(f'play: must be "heuristic" or "solver", not {clip(repr(mode))}')
    s = setup.start()
    target = setup.game.hand_size - cards_left
    solver = solver or (Solver() if mode == "solver" else None)
    obj = Objective.for_setup(setup) if mode == "solver" else None
    while len(s.tricks) < target or (len(s.tricks) == target and len(s.trick) < extra):
        if s.finished:
            break
        order = natural_order(s)
        if mode == "solver":
            assert solver is not None
            vals = solver.card_values(s, obj)
            maxing = s.to_move in setup.team
            best = max(vals.values()) if maxing else min(vals.values())
            card = next(c for c in order if vals[c] == best)
        else:
            r = rng.random()
            if r < 0.75 or len(order) == 1:
                card = order[0]
            elif r < 0.95:
                card = order[1]
            else:
                card = rng.choice(order)
        s = s.play(card)
    return s


# --------------------------------------------------------------------------------------------------------------
# Puzzles.


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is, and why."""

    difficulty: str  # one of DIFFICULTIES
    score: int
    failing: int  # groups of equivalent legal cards that fail
    depth: int  # tricks (the current one counted) until the most natural wrong card's failure shows in the count
    max_depth: int  # the same, for the wrong card whose failure shows last
    themes: tuple[str, ...]  # counter-intuitive features of the answer (see THEMES)
    natural: Card  # the rule-of-thumb player's card
    natural_fails: bool


@dataclass(frozen=True)
class Puzzle:
    """A puzzle: the record leading to the position, and the ``[puzzle]`` table's fields."""

    record: Record
    goal: int | str
    to_move: str
    solution: tuple[Card, ...]
    refutations: dict[Card, tuple[Card, ...]]
    difficulty: str
    extra: dict[str, Any] = field(default_factory=dict)  # score, failing, depth, themes, natural, ...

    @property
    def state(self) -> State:
        """The puzzle position; a :class:`PuzzleError` when the record has none (a hand not known, a game without
        a declaring side, a finished hand)."""
        return _puzzle_state(self.record)

    def table(self) -> dict[str, Any]:
        """The ``[puzzle]`` table as plain data."""
        out: dict[str, Any] = {"goal": self.goal, "to_move": self.to_move,
                               "solution": [str(c) for c in self.solution], "difficulty": self.difficulty}
        out.update(self.extra)
        out["refutations"] = {str(c): [str(x) for x in line] for c, line in self.refutations.items()}
        return out

    def to_record(self) -> Record:
        """The hand record with the ``[puzzle]`` table."""
        d = self.record.to_dict()
        d["puzzle"] = self.table()
        return record_from_dict(d)

    def dumps(self, fmt: str = "toml") -> str:
        """The puzzle as a record file (TOML or JSON)."""
        return dump_record(self.to_record(), fmt)


def _lines(state: State, obj: Objective, cards: Iterable[Card], solver: Solver,
           values: Mapping[Card, int]) -> dict[Card, tuple[Card, ...]]:
    """A line of perfect play after each of ``cards``, whose exact values (under ``obj``) are ``values``."""
    return {c: tuple(solver.best_line(state.play(c), obj, value=values[c])) for c in cards}


def _players_for(game: Game) -> tuple[str, ...]:
    names = SHEEPSHEAD_NAMES if game.family == "sheepshead" else SCHAFKOPF_NAMES
    if game.seats <= len(names):
        return names[: game.seats]
    return tuple(str(i + 1) for i in range(game.seats))  # pragma: no cover


def record_of(state: State, players: Sequence[str] | None = None, **info: Any) -> Record:
    """A hand record (validated) whose play leads to ``state``; ``info`` adds informational keys
    (:meth:`Record.from_state <sheepsolve.record.Record.from_state>`, the players named for the game)."""
    try:
        return Record.from_state(state, tuple(players or _players_for(state.game)), **info)
    except RecordError as e:
        raise PuzzleError(str(e).removeprefix("hands: ")) from None


def _evaluate(state: State, goal: int | str, solver: Solver) -> tuple[dict[Card, int], _Target]:
    obj = _objective(state, goal)
    values = solver.card_values(state, obj)
    return values, _target(state, goal, values)


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
    _two_sided(state)
    goal = _check_goal(goal, "goal")
    g = state.game
    if goal == "all-tricks" and len([t for t in state.tricks if t.winner not in state.setup.team]):
        return None
    if g.tout and goal != "all-tricks":
        return None
    solver = solver or Solver()
    groups = equivalent_groups(state)
    if len(groups) < 2:
        return None
    values, target = _evaluate(state, goal, solver)
    good = [grp for grp in groups if target.succeeds(values[grp[0]])]
    if len(good) != 1:
        return None
    if goal == "max":  # a concrete target: what the best card makes (declaring side) or holds them to
        goal = target.threshold
        if not 1 <= goal <= 120:
            return None
    solution = good[0]
    obj = _objective(state, goal)
    wrong = [c for c in state.legal() if c not in solution]
    refutations = _lines(state, obj, wrong, solver, values)
    sol_line = solver.best_line(state.play(solution[0]), obj, value=values[solution[0]])
    rating = rate(state, goal, solution, refutations, sol_line, groups=groups)
    names = tuple(players or _players_for(g))
    rec = record_of(state, names, **dict(info or {}))
    extra = {"score": rating.score, "failing": rating.failing, "depth": rating.depth,
             "max_depth": rating.max_depth, "themes": list(rating.themes), "natural": str(rating.natural)}
    return Puzzle(record=rec, goal=goal, to_move=names[state.to_move], solution=solution, refutations=refutations,
                  difficulty=rating.difficulty, extra=extra)


# --------------------------------------------------------------------------------------------------------------
# Rating.


def _side_bounds(state: State, obj: Objective) -> tuple[int, int]:
    """The lowest and highest final value still possible by the count alone."""
    past = obj.past_value(state)
    if obj.tricks:
        return past, past + state.game.tricks - len(state.tricks)
    took = obj.took_trick(state)
    bury = obj.bury_points
    lo = past + (bury if (not obj.bury_needs_trick or took) else 0)
    hi = past + state.points_remaining() + bury
    return lo, hi


def _failure_depth(state: State, card: Card, line: Sequence[Card], obj: Objective, target: _Target) -> int:
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
        winner = (state.leader + _beats(state, trick)) % state.n
        partner_wins = (winner in st.team) == mine
        wins = _beats(state, trick + [card]) == len(trick)
        could = [c for c in legal if _beats(state, trick + [c]) == len(trick)]
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
            for seat in range(state.n):
                if seat == me:
                    continue
                hand = state.hands[seat]
                if hand and not any(st.suit_class(c) == cls for c in hand) and any(g.is_trump(c) for c in hand):
                    out.append("lead-into-void")
                    break
        mine_cls = [c for c in state.hands[me] if st.suit_class(c) == cls]
        top = max(mine_cls, key=g.strength)
        if card != top and _is_boss(state, top) and g.strength(card) < g.strength(top):
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
    obj = _objective(state, goal)
    # the solution line's final value is the best value, which is all "max" needs to know
    best = obj.final_value(state.play_cards((solution[0],) + tuple(solution_line)))
    target = _target(state, goal, {solution[0]: best})
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


# --------------------------------------------------------------------------------------------------------------
# Generation.


def _game_args(game: Game) -> str:
    out = f"--game {game.name}"
    if game.trump_suit:
        out += f" --trump {game.trump_suit}"
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
    first goal of ``goals`` (default :data:`DEFAULT_GOALS`) with a unique answer gives the puzzle.

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
    goals = [_check_goal(x, "goal") for x in (goals or DEFAULT_GOALS)]
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


# --------------------------------------------------------------------------------------------------------------
# Reading and checking.


def _cards_field(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, (str, list)):
        raise PuzzleError(f'{where}: must be cards like "QC 7D" or a list of card strings, not {clip(repr(value))}')
    if isinstance(value, list) and not all(isinstance(x, str) for x in value):
        raise PuzzleError(f"{where}: every card must be a string like \"QC\"")
    try:
        return tuple(parse_cards(value))
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
    goal = _check_goal(t["goal"])
    to_move = t["to_move"]
    if not isinstance(to_move, str):
        raise PuzzleError(f"puzzle.to_move: must be a player name, not {clip(repr(to_move))}")
    solution = _cards_field(t["solution"], "puzzle.solution")
    difficulty = t["difficulty"]
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise PuzzleError(f"puzzle.difficulty: must be one of {', '.join(DIFFICULTIES)}, not {clip(repr(difficulty))}")
    refs = t.get("refutations", {})
    if not isinstance(refs, Mapping):
        raise PuzzleError(f"puzzle.refutations: must be a table of card = reply line, not {clip(repr(refs))}")
    refutations: dict[Card, tuple[Card, ...]] = {}
    for k, v in refs.items():
        try:
            c = Card.parse(k)
        except CardError as e:
            raise PuzzleError(f"puzzle.refutations.{clip(k)}: {e}") from None
        if c in refutations:
            raise PuzzleError(f"puzzle.refutations.{clip(k)}: {c} is given twice")
        refutations[c] = _cards_field(v, f"puzzle.refutations.{clip(k)}")
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


def _refutation_problem(state: State, card: Card, line: Sequence[Card], obj: Objective, target: _Target,
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
    state = _puzzle_state(rec)
    solver = solver or Solver()
    names = rec.players
    reasons: list[str] = []
    mover = names[state.to_move]
    if puzzle.to_move != mover:
        reasons.append(f"to_move: {clip(puzzle.to_move)} is not to move; {mover} is")
    values, target = _evaluate(state, puzzle.goal, solver)
    obj = _objective(state, puzzle.goal)
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


# --------------------------------------------------------------------------------------------------------------
# Presentation.


def describe_goal(state: State, goal: int | str) -> str:
    """The goal in words, for the side to move.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.engine import Setup
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"),
    ...          parse_cards("AS TS KS")]
    >>> s = Setup.create(g, hands, declarer=2).start()
    >>> describe_goal(s, 61)
    'keep the declarer below 61 card points (defeat the game)'
    >>> describe_goal(s.play_cards(parse_cards("AC TC")), "all-tricks")
    'take every trick (schwarz)'
    """
    side = side_of(state.setup)
    declaring = _mover_declaring(state)
    if goal == "all-tricks":
        return "take every trick (schwarz)" if declaring else "take a trick (avoid schwarz)"
    if goal == "max":
        return (f"get the most card points for {side}" if declaring else
                f"hold {side} to the fewest card points")
    t = int(goal)
    if declaring:
        why = {61: " (win the game)", 91: " (schneider)", 31: " (avoid being schneidered)"}.get(t, "")
        return f"reach {t} card points{why}"
    why = {61: " (defeat the game)", 91: " (avoid schneider)", 31: " (schneider them)"}.get(t, "")
    return f"keep {side} below {t} card points{why}"


def render_text(p: Puzzle, *, reveal: bool = False, style: str = "ascii") -> str:
    """The puzzle as terminal text, the answer hidden unless ``reveal`` (see :mod:`sheepsolve.render.puzzle`)."""
    from .render.puzzle import render_text as text

    _two_sided(p.state)  # a puzzle of a game without sides, or of a finished hand, is refused by name
    return text(p, reveal=reveal, style=style)


def render_html(p: Puzzle | Sequence[Puzzle], *, reveal: bool = False, style: str | None = None) -> str:
    """One self-contained page to play the puzzle(s) in (see :mod:`sheepsolve.render.puzzle`)."""
    from .render.puzzle import render_html as page

    for one in ([p] if isinstance(p, Puzzle) else p):
        _two_sided(one.state)
    return page(p, style, reveal=reveal)
