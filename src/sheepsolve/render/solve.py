"""``sheepsolve solve`` as text: who the declaring side is, whose values they are, every legal card's value with
the best marked and why, and the best line trick by trick with the players' names.

>>> from sheepsolve.analysis import answer_record
>>> from sheepsolve.record import load_record
>>> text = render_solve(answer_record(load_record("examples/solo-hearts-midtrick.toml")), "german")
>>> print(text.splitlines()[1])
Declaring side: Sepp (declarer) alone; defenders: Vroni, Hias, Resi
"""

from __future__ import annotations

from ..analysis import SolveAnswer
from ..cards import format_card
from ..engine import State
from ..judge import in_play
from ..objective import Objective
from ..scoring import outcome_for, overbid
from ..contracts import game_title
from .text import line_tricks, seat_roles, trick_text

__all__ = ["render_solve"]

_OUTCOMES = {
    "win": "the game won", "loss": "the game lost", "schneider": "won schneider", "schwarz": "won schwarz",
    "schneidered": "lost schneider", "schwarzed": "lost schwarz", "win-schneider": "won schneider",
    "win-schwarz": "won schwarz", "loss-schneider": "lost schneider", "loss-schwarz": "lost schwarz",
    "durchmarsch": "Durchmarsch: every trick, a win",
}


def render_solve(res: SolveAnswer, style: str, *, tricks: bool = False) -> str:
    """:func:`sheepsolve.analysis.answer_record`'s answer as text, cards in ``style`` (``tricks``: the question
    was asked in tricks, ``--tricks``)."""
    g = res.game
    names = res.players
    state = res.state
    st = state.setup
    roles = seat_roles(state.setup)
    lines = [game_title(g, style, called=st.called)]
    if g.two_sided:
        decl = sorted((s for s in range(g.seats) if s in st.team), key=lambda s: (s != st.declarer, s))
        who = " and ".join(f"{names[s]} ({roles[s]})" for s in decl) + (" alone" if len(decl) == 1 else "")
        lines.append(f"Declaring side: {who}; defenders: "
                     + ", ".join(names[s] for s in range(g.seats) if s not in st.team))
        side_words = "the declaring side"
    else:
        lines.append(f"Solved for {res.side}: that player's own final card points, every other player playing "
                     f"against {res.side} (lower is better for {res.side})")
        side_words = res.side
    seat_side = res.seat_side
    q = res.question
    if q == "no-tricks":
        lines.append(f"Is {side_words} held to no trick? {'yes' if res.reached else 'no'}")
    elif q == "all-tricks":
        lines.append(f"Can {side_words} take every trick? {'yes' if res.reached else 'no'}")
    elif q == "target":
        unit = "tricks" if tricks else "card points"
        lines.append(f"Does {side_words} reach {res.target} {unit}? {'yes' if res.reached else 'no'}")
    else:
        lines += _value_lines(res, state, roles, side_words, style)
    if seat_side is not None and q is not None:
        lines.append(f"({names[res.seat]} plays on the {seat_side} side.)")  # type: ignore[index]
    lines.append(f"{res.nodes} nodes, {round(res.seconds, 6) * 1000:.2f} ms")
    return "\n".join(lines) + "\n"


def _position_line(state: State, res: SolveAnswer) -> list[str]:
    """A position set by its cards: what the value counts from (the side's, or the seat's, earlier take)."""
    st = state.setup
    if not st.past_tricks:
        return []
    team = st.team if res.game.two_sided else frozenset({res.seat} if res.seat is not None else ())
    pts, tricks = sum(st.past_points[s] for s in team), sum(st.past_tricks[s] for s in team)
    who = "the declaring side" if res.game.two_sided else "the seat"
    return [f"Counted from the position: {who} took {pts} card points in {tricks} trick{'s' if tricks != 1 else ''} "
            f"before it; {in_play(st)[1]} points in the whole hand."]


def _value_lines(res: SolveAnswer, state: State, roles: list[str], side_words: str, style: str) -> list[str]:
    g = res.game
    names = res.players
    tricks = res.objective == "tricks"
    tricks_in, points_in = in_play(state.setup)
    unit = "tricks" if tricks else "card points"
    value = res.value
    out = []
    outcome = res.outcome
    word = _OUTCOMES.get(outcome, outcome) if outcome else ""
    played = outcome_for(g, value) if outcome == "loss" and not tricks else outcome
    if played != outcome and overbid(state.setup, played):  # won in play, lost as scored
        word += f": overbid, the game is worth less than the bid of {g.bid}"
    if tricks:
        what = (f"{side_words} takes {value} of the {tricks_in} tricks with best play from here"
                + (f" ({word})" if word else ""))
    else:
        what = f"{side_words} ends with {value} card points with best play from here" + (f" ({word})" if word else "")
    out.append("Value: " + what[0].upper() + what[1:] + ".")
    out += _position_line(state, res)
    seat_side = res.seat_side
    own = seat_side == "defending"
    if seat_side is not None:
        other = res.seat_value
        out.append(f"{names[res.seat]} plays for the {'defenders' if own else 'declaring side'}: "
                   f"{'they end' if own else 'it ends'} with {other} {unit}.")
    m = res.to_move
    if m is not None and res.cards:
        mover = names[m]
        if g.two_sided:
            maxing = Objective.for_setup(state.setup).wants_high(m)  # null, Bettel: the declarer wants them low
            aim = "wants them high" if maxing else "wants them low"
            whose = f"the defenders' final {unit}" if own else f"the declaring side's final {unit}"
            if own:
                aim = "wants them high" if not maxing else "wants them low"
            out.append(f"{mover} ({roles[m]}) to move. Each legal card's value, in {whose}; {mover} {aim}:")
        else:
            seat = res.side
            aim = f"{mover} wants them low" if mover == seat else f"{mover} plays against {seat}: wants them high"
            out.append(f"{mover} to move. Each legal card's value, in {seat}'s final card points; {aim}:")
        best = set(res.best)
        total = tricks_in if tricks else points_in
        for c, v in res.cards.items():
            shown = total - v if own else v
            mark = "  best" if c in best else ""
            if mark and res.outcome == "durchmarsch" and mover == res.side:
                mark += " (keeps the Durchmarsch)"
            out.append(f"  {format_card(c, style):>4} {shown:>4}{mark}")
    if res.line:
        tr, _ = line_tricks(state, list(res.line))
        out.append("Best line:")
        for t in tr:
            out.append(f"  trick {t['number']}: " + trick_text(t, names, style))
    return out
