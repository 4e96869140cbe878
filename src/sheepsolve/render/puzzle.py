"""Puzzles as text and as pages a reader plays: click a card; a wrong one shows its refutation, the right one
the solution line, all from data in the page (no network). Several puzzles make one booklet with a score.

>>> from sheepsolve.games import make_game
>>> from sheepsolve.puzzle import generate
>>> [p] = generate(make_game("sheepshead"), cards_left=3, count=1, seed=5)
>>> print(render_text(p, style="ascii").splitlines()[-1])
Eve (picker) to play: reach 91 card points (schneider).
>>> page = render_html([p, p])
>>> page.count('class="puzzle"'), 'data-solution="8D 7D"' in page
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..cards import Card, format_card
from ..engine import RulesError, State
from ..objective import Objective
from ..puzzle.goals import concrete_goal, goal_objective, mover_declaring, require_two_sided
from ..puzzle.model import Puzzle
from ..scoring import schneider_points
from ..solver import Solver
from ..contracts import game_title
from .html import html_style, render_fragment, render_page
from .text import cards as cards_text, line_tricks as _line_tricks, seat_roles, side_of, trick_text

__all__ = ["PuzzleFacts", "facts", "describe_goal", "render_text", "render_html", "line_tricks", "solution_line"]


@dataclass(frozen=True)
class PuzzleFacts:
    """What a reader needs to see of a puzzle, in cards (each output formats them in its own notation)."""

    title: str
    players: tuple[str, ...]
    roles: tuple[str, ...]
    declarer: int
    role: str  # picker / declarer
    called: Card | None
    partner: int | None
    called_note: str
    under: Card | None
    bury: tuple[Card, ...]
    bury_points: int
    trumps: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    earlier: tuple[tuple[int, tuple[Card, ...], int, int], ...]  # (leader, cards, winner, points)
    trick: tuple[Card, ...]
    leader: int
    to_move: int
    legal: tuple[Card, ...]
    goal: str
    standing: str
    trump_of: Any  # card -> bool
    skat: bool = False  # a Skat game: the bury is the skat
    no_trick: bool = False  # null, Bettel: points do not count


def facts(p: Puzzle) -> PuzzleFacts:
    state = p.state
    st = state.setup
    g = state.game
    roles = seat_roles(st)  # a puzzle's game always has two sides
    note = ""
    if st.called is not None and state.called_open:
        now = bool(state.trick) and st.suit_class(state.trick[0]) == st.called_class
        note = "the called suit is led in this trick" if now else "the called suit has not been led yet"
    obj = Objective.for_setup(st)
    past = obj.past_value(state)
    other = sum(t.points for t in state.tricks) - past
    side = side_of(st)
    standing = (f"Tricks so far: {len(state.tricks)}; {side} {past} card points"
                + (f" (+{obj.bury_points} {'in the skat' if g.family == 'skat' else 'buried'})" if obj.bury_points
                   else "")
                + f", the defenders {other}; {state.points_remaining()} points still in play")
    if g.no_trick:  # null and Bettel: only the declarer's tricks count
        standing = f"Tricks so far: {len(state.tricks)}; the declarer took {past} of them"
    mover = state.to_move
    assert st.declarer is not None
    return PuzzleFacts(
        title=g.title, players=p.record.players, roles=tuple(roles), declarer=st.declarer, role=roles[st.declarer],
        called=st.called, partner=st.partner, called_note=note, under=st.under, bury=tuple(st.bury),
        bury_points=sum(c.points for c in st.bury), trumps=tuple(g.trumps),
        hands=tuple(tuple(g.sort_cards(h)) for h in state.hands),
        earlier=tuple((t.leader, t.cards, t.winner, t.points) for t in state.tricks), trick=state.trick,
        leader=state.leader, to_move=mover, legal=tuple(state.legal()),
        goal=f"{p.record.players[mover]} ({roles[mover]}) to play: {_goal_text(state, p.goal)}.",
        standing=standing, trump_of=g.is_trump, skat=g.family == "skat", no_trick=g.no_trick)


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
    declaring = mover_declaring(state)
    if goal == "no-trick":
        return "take no trick (win the game)" if declaring else "give the declarer a trick (defeat the game)"
    if goal == "all-tricks":
        return "take every trick (schwarz)" if declaring else "take a trick (avoid schwarz)"
    if goal == "max":
        return (f"get the most card points for {side}" if declaring else
                f"hold {side} to the fewest card points")
    t = int(goal)
    schneider = schneider_points(state.game)  # 91, in Skat 90
    if declaring:
        why = {61: " (win the game)", schneider: " (schneider)", 31: " (avoid being schneidered)"}.get(t, "")
        return f"reach {t} card point{'' if t == 1 else 's'}{why}"
    if t == 1:
        return f"keep {side} without a card point"
    why = {61: " (defeat the game)", schneider: " (avoid schneider)", 31: " (schneider them)"}.get(t, "")
    return f"keep {side} below {t} card points{why}"


def _goal_text(state: State, goal: int | str) -> str:
    """The goal in words; a vague "max" with its concrete target (what best play makes)."""
    if goal != "max":
        return describe_goal(state, goal)
    target = int(concrete_goal(state, goal))
    if state.to_move in state.setup.team:
        return describe_goal(state, target) + " (the most best play can make)"
    return describe_goal(state, target) + f" (hold them to {target - 1}: the fewest best play allows)"


def contract_text(f: PuzzleFacts, style: str) -> str:
    names = f.players
    out = f"{f.role.capitalize()}: {names[f.declarer]}"
    if f.called is not None:
        out += f", called {format_card(f.called, style)}"
        if f.partner is not None:
            out += f" (partner {names[f.partner]})"
        if f.called_note:
            out += f"; {f.called_note}"
    elif f.partner is not None:
        out += f", partner {names[f.partner]}"
    else:
        out += ", alone"
    if f.under is not None:
        out += f"; {format_card(f.under, style)} is under"
    if f.bury and f.skat:  # the skat as it counts for the declarer: his discard, or the skat of a hand game
        out += f"; skat {cards_text(f.bury, style)}" + ("" if f.no_trick else f" ({f.bury_points} points)")
    elif f.bury:
        out += f"; buried {cards_text(f.bury, style)} ({f.bury_points} points)"
    return out + ". Trumps: " + (cards_text(f.trumps, style) if f.trumps else "none")


def line_tricks(state: State, first: Card, line: Sequence[Card]) -> tuple[list[dict[str, Any]], State]:
    """``first`` and then ``line`` cut into tricks (:func:`sheepsolve.render.text.line_tricks`)."""
    return _line_tricks(state, (first,) + tuple(line))  # type: ignore[return-value]


def solution_line(p: Puzzle, solver: Solver | None = None) -> tuple[Card, ...]:
    """A line of perfect play after the (first) solution card, to the end of the hand."""
    state = p.state
    obj = goal_objective(state, p.goal)
    after = state.play(p.solution[0])
    solver = solver or Solver()
    return tuple(solver.best_line(after, obj, value=solver.value(after, obj)))


def _end_text(p: Puzzle, end: State) -> str:
    if not end.finished:  # a stored line cut short (an AssertionError in final_value before)
        return (f"the stored line stops before the end of the hand ({sum(len(h) for h in end.hands)} cards still "
                "in hand)")
    obj = goal_objective(p.state, p.goal)
    side = side_of(p.state.setup)
    if p.goal == "no-trick":
        took = sum(1 for t in end.tricks if t.winner in p.state.setup.team)
        return "the declarer took no trick" if not took else f"the declarer took {took} trick{'s' if took > 1 else ''}"
    if p.goal == "all-tricks":
        lost = sum(1 for t in end.tricks if t.winner not in p.state.setup.team)
        return f"{side} took every trick" if not lost else f"the defenders took {lost} trick{'s' if lost > 1 else ''}"
    return f"{side} ends with {obj.final_value(end)} card points"


def _text_tricks(tricks: list[dict[str, Any]], names: Sequence[str], style: str) -> list[str]:
    return [f"{t['number']}. " + trick_text(t, names, style) for t in tricks]


def render_text(p: Puzzle, *, reveal: bool = False, style: str = "ascii") -> str:
    """The puzzle as terminal text, the answer hidden unless ``reveal``."""
    require_two_sided(p.state)  # a puzzle of a game without sides, or of a finished hand, is refused by name
    f = facts(p)
    names = f.players
    out = [f"{puzzle_title(p, style)} puzzle ({p.difficulty})", contract_text(f, style), f.standing, ""]
    if f.earlier:
        out.append("Tricks played:")
        for i, (leader, cards, winner, pts) in enumerate(f.earlier, 1):
            seq = ", ".join(f"{names[(leader + k) % len(names)]} {format_card(c, style)}" for k, c in enumerate(cards))
            out.append(f"  {i}. {seq} -> {names[winner]} ({pts})")
        out.append("")
    w = max(len(n) for n in names)
    out.append("Hands:")
    for s, h in enumerate(f.hands):
        mark = "  <- to move" if s == f.to_move else ""
        out.append(f"  {names[s]:<{w}}  {f.roles[s]:<8}  {cards_text(h, style)}{mark}")
    out.append("")
    if f.trick:
        seq = ", ".join(f"{names[(f.leader + k) % len(names)]} {format_card(c, style)}" for k, c in enumerate(f.trick))
        out.append(f"Trick {len(f.earlier) + 1} so far: {seq}")
    else:
        out.append(f"Trick {len(f.earlier) + 1}: {names[f.to_move]} leads")
    out.append(f.goal)
    if reveal:
        out += [""] + _reveal_lines(p, style)
    return "\n".join(out) + "\n"


def _rating(p: Puzzle, style: str) -> str:
    extra = p.extra
    bits = [f"difficulty {p.difficulty}"]
    if "score" in extra:
        bits.append(f"score {extra['score']}")
    if "failing" in extra:
        bits.append(f"{extra['failing']} wrong choice{'s' if extra['failing'] != 1 else ''}")
    if "depth" in extra:
        bits.append(f"the natural mistake shows after {extra['depth']} trick{'s' if extra['depth'] != 1 else ''}")
    if extra.get("natural"):
        try:
            bits.append(f"rule-of-thumb card {format_card(Card.parse(str(extra['natural'])), style)}")
        except ValueError:
            bits.append(f"rule-of-thumb card {extra['natural']}")
    if extra.get("themes"):
        bits.append("themes: " + ", ".join(map(str, extra["themes"])))
    return "Rating: " + "; ".join(bits)


def _reveal_lines(p: Puzzle, style: str) -> list[str]:
    state = p.state
    names = p.record.players
    out = ["Solution: " + cards_text(p.solution, style) + (" (equivalent cards)" if len(p.solution) > 1 else ""),
           _rating(p, style)]
    if p.refutations:
        out.append("Refutations:")
        for c, line in p.refutations.items():
            out.append(f"  {format_card(c, style)}?")
            try:
                tricks, end = line_tricks(state, c, line)
                out += ["    " + x for x in _text_tricks(tricks, names, style)]
                out.append(f"    ({_end_text(p, end)})")
            except RulesError as e:
                out.append(f"    (the stored line is illegal: {e})")
    return out


def puzzle_title(p: Puzzle, style: str) -> str:
    """The puzzle's contract as players say it (:func:`~sheepsolve.contracts.game_title`)."""
    return game_title(p.state.game, style, called=p.state.setup.called)


def _page_puzzle(p: Puzzle, number: int, solver: Solver) -> dict[str, Any]:
    f = facts(p)
    state = p.state
    answers = []
    for c in f.legal:
        if c in p.solution:
            line = solution_line(p, solver)
            right = True
        else:
            line = p.refutations.get(c)
            right = False
            if line is None:
                continue
        try:
            tricks, end = line_tricks(state, c, line)
        except RulesError as e:
            answers.append({"card": c, "right": right, "tricks": [], "end": f"the stored line is illegal: {e}"})
            continue
        answers.append({"card": c, "right": right, "tricks": tricks, "end": _end_text(p, end)})
    return {"p": p, "f": f, "number": number, "answers": answers,
            "solution": " ".join(str(c) for c in p.solution), "legal": set(f.legal),
            "rating": _rating(p, "ascii")}


def render_html(puzzles: Puzzle | Sequence[Puzzle], style: str | None = None, *, reveal: bool = False) -> str:
    """One self-contained page: every puzzle playable (click a card of the player to move), the score of first
    tries kept at the top when there are several; ``reveal`` opens every answer from the start."""
    ps = [puzzles] if isinstance(puzzles, Puzzle) else list(puzzles)
    for one in ps:
        require_two_sided(one.state)
    if not ps:
        raise ValueError("no puzzle to show")
    game = ps[0].state.game
    solver = Solver()
    items = []
    for i, p in enumerate(ps, 1):  # each puzzle in the reader's notation, else its own game's
        item = _page_puzzle(p, i, solver)
        item_style = style or html_style(None, p.state.game)
        item["title"] = puzzle_title(p, item_style)
        item["html"] = Markup(render_fragment("puzzle_section.html", notation=item_style, it=item,
                                              booklet=len(ps) > 1, reveal=reveal))
        items.append(item)
    style = style or html_style(None, game)
    title = f"{items[0]['title']} puzzle" if len(ps) == 1 else f"{len(ps)} puzzles"
    games = sorted({puzzle_title(p, html_style(None, p.state.game)) for p in ps})
    return render_page("puzzle.html", notation=style, is_trump=None, title=title,
                       subtitle=", ".join(games) if len(ps) > 1 else f"difficulty {ps[0].difficulty}",
                       command="puzzle show", items=items, reveal=reveal, booklet=len(ps) > 1)
