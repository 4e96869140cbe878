"""One record explored: its positions, the table at each, and the double-dummy judgement of every card.

A position is a *line*: the cards played from the first lead, in order. The record's own play is the main line;
any other legal line is a variation (only where every hand is known: elsewhere the cards of the hidden hands, and
so their legal cards, are not known). Every position is the record with its play replaced by the line, so the
table, the points, the result and the payments are exactly what ``sheepsolve show`` says of that record, and the
values exactly what ``sheepsolve solve --json`` says.

>>> ex = Explorer.open("examples/annotate-swing-sauspiel.toml")
>>> t = ex.table(ex.main[:3])
>>> t["at"], t["to_move"], t["on_main"]
('t1.3', 'Resi', True)
>>> v = ex.values(ex.main[:3])
>>> sorted(v["cards"]) == sorted(t["legal"]), v["best"] == [c for c, x in v["cards"].items() if x == v["value"]]
(True, True)
>>> try:
...     ex.table(ex.main[:3] + (ex.main[5],))
... except ExploreError as e:
...     print(e)
trick 1, card 4: Resi cannot play G7: revoke: G7 does not follow Eichel (E7 in hand)
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Sequence
from typing import Any

from ..analysis import position_of, solve_record
from ..cards import Card, CardError, format_card, in_notation, notation_of
from ..commands import Source
from ..engine import State
from ..files import clip
from ..judge import outcome_of
from ..objective import Objective
from ..record import Record, dump_record, parse_record
from ..scoring import is_won, schneider_points
from ..render.charts import value_line
from ..render.html import html_style
from ..render.show import hand_view, header_lines, result_text, view_data
from ..solver import Solver

__all__ = ["Explorer", "ExploreError", "line_label", "thread_solver", "MAX_LINE_TEXT"]

MAX_LINE_TEXT = 400
"""The longest line a request may name, in characters: a full deal's 32 cards take at most 3 characters each."""


class ExploreError(ValueError):
    """A request the explored record cannot answer (an illegal card, a line that is not a position of the hand):
    its message is shown on the page, which stays as it was."""


_local = threading.local()


def thread_solver() -> Solver:
    """One solver per thread (a solver answers one call at a time; the search runs without the interpreter
    lock, so threads with their own solvers run in parallel)."""
    s = getattr(_local, "solver", None)
    if s is None:
        s = _local.solver = Solver()
    return s


def line_label(line: Sequence[Card], seats: int) -> str:
    """Where a line stands, as the page's address names it: ``start`` before the first card, ``t3.2`` after the
    second card of trick 3.

    >>> line_label([], 4), line_label(list(range(6)), 4), line_label(list(range(8)), 4)
    ('start', 't2.2', 't2.4')
    """
    n = len(line)
    if n == 0:
        return "start"
    return f"t{(n - 1) // seats + 1}.{(n - 1) % seats + 1}"


class Explorer:
    """The record being explored (read once), and the questions the page asks about its positions."""

    def __init__(self, rec: Record, label: str, *, style: str | None = None) -> None:
        self.record = rec
        self.label = label
        self.game = rec.game
        self.style = html_style(style, rec.game)
        self.main: tuple[Card, ...] = tuple(c for t in rec.play for c in t)
        self.complete = rec.complete
        self.setup = rec.setup() if self.complete else None
        # the most cards a line may hold: the deal's, or the record's own play where hands are missing
        self.max_cards = sum(len(h) for h in self.setup.hands) if self.setup is not None else len(self.main)
        if self.game.sie:
            self.max_cards = 0

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, style: str | None = None, german: bool = False) -> "Explorer":
        """Read the record file at ``path`` (with the limits of every record file)."""
        src = Source.file(path)
        return cls(src.record(german), src.label, style=style)

    # -- lines --------------------------------------------------------------------------------------------------
    def parse_line(self, cards: Any) -> tuple[Card, ...]:
        """A line as the page sends it (a list of canonical card names, or one string of them), checked for form
        and length only."""
        if isinstance(cards, str):
            if len(cards) > MAX_LINE_TEXT:
                raise ExploreError(f"line: at most {MAX_LINE_TEXT} characters")
            cards = cards.replace(".", " ").split()
        if not isinstance(cards, (list, tuple)):
            raise ExploreError("line: must be a list of cards")
        if len(cards) > self.max_cards:
            raise ExploreError(f"line: this hand has {self.max_cards} cards to play, not {len(cards)}")
        out = []
        for i, text in enumerate(cards):
            if isinstance(text, Card):
                out.append(text)
                continue
            if not isinstance(text, str) or len(text) > 4:
                raise ExploreError(f"line: card {i + 1} is not a card")
            try:
                out.append(Card.parse(text))
            except CardError as e:
                raise ExploreError(f"line: card {i + 1}: {e}") from None
        return tuple(out)

    def on_main(self, line: Sequence[Card]) -> bool:
        return tuple(line) == self.main[:len(line)]

    def state(self, line: Sequence[Card]) -> State:
        """The engine's position after ``line`` (every hand known); an illegal card is named with its reason."""
        if self.setup is None:
            raise ExploreError("double dummy needs every hand: " + self.record.incomplete_message())
        s = self.setup.start()
        for c in line:
            if s.finished:
                raise ExploreError(f"the hand is over after {len(s.tricks) * self.game.seats} cards")
            why = s.why_illegal(c)
            if why is not None:
                who = self.record.players[s.to_move]
                if notation_of(self.style) == "german":  # the reason in the page's cards, as the record's errors are
                    raise ExploreError(f"trick {len(s.tricks) + 1}, card {len(s.trick) + 1}: {who} cannot play "
                                       f"{format_card(c, self.style)}: {in_notation(why, 'german')}")
                raise ExploreError(f"trick {len(s.tricks) + 1}, card {len(s.trick) + 1}: {who} cannot play "
                                   f"{format_card(c, self.style)} ({c}): {why}")
            s = s.play(c, check=False)
        return s

    def check(self, line: Sequence[Card]) -> None:
        """Refuse a line that is not a position of this hand."""
        if self.setup is not None:
            self.state(line)
        elif not self.on_main(line):
            raise ExploreError("only the record's own play can be followed: trying other cards needs every hand ("
                               + self.record.incomplete_message() + ")")

    def record_at(self, line: Sequence[Card]) -> Record:
        """The record with ``line`` as its play (checked)."""
        self.check(line)
        n = self.game.seats
        play = tuple(tuple(line[i:i + n]) for i in range(0, len(line), n))
        return dataclasses.replace(self.record, play=play)

    # -- the table ----------------------------------------------------------------------------------------------
    def table(self, line: Sequence[Card]) -> dict[str, Any]:
        """Everything the page shows of the position after ``line``: ``show --json``'s fields of that record
        (tricks, points, result, payments, who is to move, the legal cards) and ``hands_now`` (each seat's cards
        at this point, null where unknown, with ``left``: how many), ``header`` (show's lines on the game and
        the contract), ``result_text``, ``at`` (the address), ``on_main``, ``open`` (the players whose hands
        every seat sees: an ouvert declarer)."""
        line = tuple(line)
        rec = self.record_at(line)
        v = hand_view(rec)
        data = view_data(v)
        g = self.game
        played: list[list[Card]] = [[] for _ in range(g.seats)]
        for t in list(v.tricks) + ([v.current] if v.current is not None else []):
            for s, c in zip(t.seats, t.cards):
                played[s].append(c)
        now: list[dict[str, Any]] = []
        start_hands = self._first_lead_hands()
        size = max((len(h) for h in start_hands if h is not None), default=g.hand_size)
        for s in range(g.seats):
            h = start_hands[s]
            if h is None:
                now.append({"cards": None, "left": size - len(played[s])})
            else:
                left = g.sort_cards(set(h) - set(played[s]))
                now.append({"cards": [str(c) for c in left], "left": len(left)})
        data.update({
            "hands_now": now,
            "header": header_lines(v, self.style),
            "result_text": result_text(v),
            "at": line_label(line, g.seats),
            "line": [str(c) for c in line],
            "on_main": self.on_main(line),
            "can_vary": self.setup is not None and not g.sie,
            "trumps": [str(c) for c in g.deck if g.is_trump(c)],
            # an ouvert declarer's hand is open to every seat: a seat's view shows it too
            "open": [rec.players[rec.declarer]] if g.ouvert and rec.declarer is not None else [],
        })
        return data

    def _first_lead_hands(self) -> list[tuple[Card, ...] | None]:
        """Each seat's hand at the first lead (the picker's after the bury), None where unknown."""
        if self.setup is not None:
            return [tuple(h) for h in self.setup.hands]
        rec, g = self.record, self.game
        out: list[tuple[Card, ...] | None] = []
        for s, h in enumerate(rec.hands):
            if h is not None and g.kind == "picker" and s == rec.declarer and g.bury_size:
                if rec.blind is None or rec.bury is None:
                    h = None
                else:
                    h = tuple((set(h) | set(rec.blind)) - set(rec.bury))
            out.append(h)
        return out

    # -- judgement ----------------------------------------------------------------------------------------------
    def solve_seat(self, state: State) -> int | None:
        """Whom the values are for: the declaring side (None) in a two-sided game, else the player to move."""
        return None if self.game.two_sided else state.to_move

    def values(self, line: Sequence[Card]) -> dict[str, Any]:
        """``sheepsolve solve --json`` of the position after ``line`` (without the best line): ``value``,
        ``cards`` (every legal card's value), ``best``, ``outcome``, plus ``costs`` (what each card gives away
        against the best, for the mover's side), ``maximize`` (whether the mover wants the value high) and ``won``
        (two-sided games: whether the declaring side wins the game with each card, by the game's own scoring,
        :meth:`won_after`; else null)."""
        line = tuple(line)
        self.state(line)  # checked, the illegal card named
        if self.state(line).finished:
            return {"finished": True, "cards": {}, "costs": {}, "best": [], "value": None, "won": None}
        rec = self.record_at(line)
        state = position_of(rec)  # solve's own position (a position record's counts its ``won``)
        seat = self.solve_seat(state)
        solver = thread_solver()
        res = solve_record(rec, seat=None if seat is None else self.record.players[seat], line=False, solver=solver)
        # the declaring side wants the value high, in null and Bettel (its tricks) low
        maximize = ((state.to_move in state.setup.team) != self.game.no_trick) if self.game.two_sided else False
        best = res["value"]
        res["costs"] = {c: (best - v if maximize else v - best) for c, v in res["cards"].items()}
        res["won"] = {c: self.won_after(state.play(Card.parse(c), check=False), v, solver)
                      for c, v in res["cards"].items()} if self.game.two_sided else None
        res["maximize"] = maximize
        res["finished"] = False
        res["line"] = [str(c) for c in line]
        return res

    def won_after(self, state: State, value: int, solver: Solver) -> bool:
        """Whether the declaring side wins the game from ``state`` with ``value`` (its final value under perfect
        play, as solved for it), by the game's own scoring (:func:`~sheepsolve.judge.outcome_of`: 61 points, a
        Skat game's announcements and bid, a null or Bettel declarer's first trick, a tout's)."""
        return is_won(outcome_of(solver, state, Objective.for_setup(state.setup), value))

    def best_line(self, line: Sequence[Card]) -> list[str]:
        """One line of perfect play from the position after ``line`` to the end (double dummy; the mover's own
        points in ramsch and leaster, each player in turn)."""
        s = self.state(line)
        out: list[str] = []
        solver = thread_solver()
        if self.game.two_sided:
            return [str(c) for c in solver.best_line(s, Objective.for_setup(s.setup))]
        while not s.finished:  # every player plays his own best card against all the others
            vals = self.values(tuple(line) + tuple(Card.parse(c) for c in out))
            c = Card.parse(vals["best"][0])
            out.append(str(c))
            s = s.play(c)
        return out

    def value_chart(self, line: Sequence[Card]) -> dict[str, Any] | None:
        """The declaring side's double-dummy value before the first card and after every card of ``line``, and
        the chart of it, each card that cost its side points a dot (orange under 10 points, red 10 or more or
        turning the game from won to lost or back by the game's own scoring, :meth:`won_after`, as the values are
        coloured), for a two-sided game with every hand known; else None."""
        if self.setup is None or not self.game.two_sided or not line:
            return None
        line = tuple(line)
        self.state(line)  # checked
        solver = thread_solver()
        obj = Objective.for_setup(self.setup)
        s = self.setup.start()
        values = [solver.value(s, obj)]
        won = [self.won_after(s, values[0], solver)]
        marks = [""]
        names = self.record.players
        titles = ["start: " + str(values[0])]
        for i, c in enumerate(line):
            mover = s.to_move
            s = s.play(c, check=False)
            values.append(obj.final_value(s) if s.finished else solver.value(s, obj))
            wants_high = (mover in obj.team) != self.game.no_trick  # a null or Bettel declarer wants no trick
            cost = (values[-2] - values[-1]) if wants_high else (values[-1] - values[-2])
            won.append(self.won_after(s, values[-1], solver))
            swing = won[-2] != won[-1]
            marks.append("" if cost <= 0 else "??" if cost >= 10 or swing else "?")
            titles.append(f"after {line_label(line[:i + 1], self.game.seats)}: {values[-1]}"
                          + (f" ({names[mover]} {format_card(c, self.style)} cost {cost})" if cost > 0 else ""))
        pts = [(float(i), v, marks[i], titles[i]) for i, v in enumerate(values)]
        scene = value_line(pts, cards=len(line), seats=self.game.seats, schneider=schneider_points(self.game))
        return {"values": values, "scene": scene}

    # -- a variation as a record file ---------------------------------------------------------------------------
    def variation_toml(self, line: Sequence[Card]) -> str:
        """The record with ``line`` as its play, in the record format (TOML): every hand written out, the
        record's notes kept, its ``comment`` telling where the variation leaves the record's play. Read back
        before it is given out."""
        line = tuple(line)
        rec = self.record_at(line)
        keep = len(os.path.commonprefix([list(line), list(self.main)]))
        where = ("the record's own play" if self.on_main(line) and len(line) == len(self.main) else
                 f"the record's play up to {line_label(self.main[:keep], self.game.seats)}, then other cards"
                 if keep < len(line) else f"the record's play up to {line_label(line, self.game.seats)}")
        extra = {k: v for k, v in rec.extra.items() if k not in ("puzzle", "annotations", "comment")}
        extra["comment"] = f"A variation explored with sheepsolve explore from {clip(os.path.basename(self.label), 80)}: {where}."
        out = dataclasses.replace(rec, extra=extra, inferred=())
        text = dump_record(out)
        parse_record(text)  # never hand out a record that does not read back
        return text
