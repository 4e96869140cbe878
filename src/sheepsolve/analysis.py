"""Questions put to the solver about a hand record, answered as JSON-ready data.

:func:`solve_record` is what ``sheepsolve solve`` prints (``docs/RECORD-FORMAT.md``): ``value``, ``to_move``,
``cards``, ``outcome``, ``nodes``, ``seconds``, plus ``best``, ``line``, ``side`` and ``seat``.

The outcome of the value is the judge's (:func:`sheepsolve.judge.outcome_of`: the game's result for the declaring
side, or in ramsch and leaster for the seat solved for, a trick search deciding where the tricks can matter). A
Durchmarsch ranks above every point total of the seat's own (:func:`durchmarsch`): when the seat can force one,
:func:`solve_record` gives every point in play as the value, the cards that keep it as the best and a line that
keeps it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .engine import State
from .files import clip
from .games import Game
from .judge import in_play, outcome_of, tricks_objective
from .objective import Objective
from .record import Record, RecordError
from .solver import DEFAULT_TABLE_MIB, Solver, SolverError

__all__ = ["solve_record", "answer_record", "SolveAnswer", "durchmarsch", "position_of"]


def position_of(rec: Record) -> State:
    """The state after the record's last card; refuses records whose hands are not all known."""
    if not rec.complete:
        try:
            rec.setup()
        except RecordError as e:
            raise SolverError(f"{e}; double-dummy solving needs every hand (and the blind and bury)") from None
    return rec.state()


def durchmarsch(solver: Solver, state: State, team: frozenset[int],
                line: bool = True) -> tuple[int, list[Card], list[Card]] | None:
    """Ramsch solved for the seat ``team``: if it can take every trick in play from ``state`` whatever the others
    do (a *Durchmarsch*, which wins and so ranks above every point total of its own), its final points (every
    point in play), the legal cards that keep the Durchmarsch (every legal card when another player is to move:
    none of them can stop it) and a line of play that keeps it (the seat's first card that does, another
    player's first legal card; empty when ``line`` is False). Else None.

    Only the seat's own Durchmarsch is modelled: the paranoid search for its points does not know that another
    player's would win, nor that the others would rather not hand the seat every trick (docs/RULES.md)."""
    n, _ = in_play(state.setup)
    sweep = tricks_objective(team)
    if state.finished or not solver.reach(state, n, sweep):
        return None

    def keeps(st: State) -> list[Card]:
        legal = list(st.legal())
        return [c for c in legal if solver.reach(st.play(c), n, sweep)] if st.to_move in team else legal

    keep = keeps(state)
    path: list[Card] = []
    st = state
    while line and not st.finished:
        c = keeps(st)[0]
        path.append(c)
        st = st.play(c)
    return in_play(state.setup)[1], keep, path


def _seat(rec: Record, seat: str | int | None) -> int | None:
    g = rec.game
    if seat is None:
        if not g.two_sided:
            raise SolverError(f"--seat: {g.name} has no sides; name the player to solve for "
                              f"(one of {', '.join(rec.players)})")
        return None
    try:
        return rec.seat_of(seat)
    except RecordError as e:
        raise SolverError(f"--seat: {e}") from None


def _check_target(rec: Record, target: object, tricks: bool) -> None:
    """A target the side's final value can be compared with: 0..121 card points (121: a leaster player who takes
    no trick), or 0..the number of tricks with ``tricks``."""
    top = rec.game.tricks if tricks else 121
    if isinstance(target, bool) or not isinstance(target, int):
        raise SolverError(f"--target: must be a whole number, not {clip(repr(target))}")
    if not 0 <= target <= top:
        what = "tricks" if tricks else "card points"
        raise SolverError(f"--target: must be between 0 and {top} ({what}), not {clip(target)}")


@dataclass(frozen=True)
class SolveAnswer:
    """``sheepsolve solve``'s answer, typed (cards are :class:`~sheepsolve.cards.Card`); :meth:`to_dict` is its
    JSON (the module docstring and docs/RECORD-FORMAT.md name the fields).

    ``state`` is the position solved (the record's kept replay's last), ``players`` the record's names. ``seat``
    is the seat solved for (ramsch, leaster) or asked about (``--seat``), ``seat_side`` a two-sided game's side of
    it. A question (``question``: ``"target"``, ``"all-tricks"``, ``"no-tricks"``) has ``target`` and
    ``reached``; else ``value`` (in ``objective``: ``"points"`` or ``"tricks"``), every legal card's value, the
    best cards and a best line, and ``outcome``.
    """

    state: State
    players: tuple[str, ...]
    seat: int | None
    seat_side: str | None
    nodes: int
    seconds: float
    question: str | None = None
    target: int | None = None
    reached: bool | None = None
    value: int | None = None
    objective: str | None = None
    cards: dict[Card, int] = field(default_factory=dict)
    best: tuple[Card, ...] = ()
    line: tuple[Card, ...] = ()
    outcome: str | None = None
    seat_value: int | None = None

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def side(self) -> str:
        """Whose values they are: ``"declaring side"``, or the name of the seat solved for."""
        return "declaring side" if self.game.two_sided else self.players[self.seat]  # type: ignore[index]

    @property
    def to_move(self) -> int | None:
        return None if self.state.finished else self.state.to_move

    def to_dict(self) -> dict[str, Any]:
        names = self.players
        out: dict[str, Any] = {"game": self.game.name, "side": self.side,
                               "seat": names[self.seat] if self.seat is not None else None,
                               "to_move": names[self.to_move] if self.to_move is not None else None}
        if self.seat_side is not None:
            out["seat_side"] = self.seat_side
        if self.question == "no-tricks":
            out.update({"question": self.question, "reached": self.reached})
        elif self.question is not None:
            out.update({"question": self.question, "target": self.target, "reached": self.reached})
        else:
            out.update({"value": self.value, "objective": self.objective,
                        "cards": {str(c): v for c, v in self.cards.items()}, "best": [str(c) for c in self.best],
                        "line": [str(c) for c in self.line], "outcome": self.outcome})
        out.update({"nodes": self.nodes, "seconds": round(self.seconds, 6)})
        if self.seat_value is not None:
            out["seat_value"] = self.seat_value
        return out


def solve_record(rec: Record, *, seat: str | int | None = None, target: int | None = None,
                 all_tricks: bool = False, no_tricks: bool = False, tricks: bool = False, line: bool = True,
                 table_mib: int = DEFAULT_TABLE_MIB, solver: Solver | None = None) -> dict[str, Any]:
    """Solve the position after the record's last card: :func:`answer_record`'s answer as JSON-ready data. See
    the module docstring for the fields."""
    return answer_record(rec, seat=seat, target=target, all_tricks=all_tricks, no_tricks=no_tricks, tricks=tricks,
                         line=line, table_mib=table_mib, solver=solver).to_dict()


def answer_record(rec: Record, *, seat: str | int | None = None, target: int | None = None,
                  all_tricks: bool = False, no_tricks: bool = False, tricks: bool = False, line: bool = True,
                  table_mib: int = DEFAULT_TABLE_MIB, solver: Solver | None = None) -> SolveAnswer:
    """Solve the position after the record's last card (its kept replay's), as a :class:`SolveAnswer`.

    ``target``: does the value reach it; ``all_tricks``: can the side take every trick; ``no_tricks``: is the
    side held to no trick at all (its opponents take every trick, the side trying to take one). These answer
    with one null-window search each, faster than the exact value.
    """
    asked = [name for name, on in (("--target", target is not None), ("--all-tricks", all_tricks),
                                   ("--no-tricks", no_tricks)) if on]
    if len(asked) > 1:
        raise SolverError(f"{' and '.join(asked)}: ask one question at a time")
    if target is not None:
        _check_target(rec, target, tricks)
    state = position_of(rec)
    s = _seat(rec, seat)
    solver = solver or Solver(table_mib)
    obj = Objective.for_setup(state.setup, seat=s, tricks=tricks or all_tricks or no_tricks)
    if all_tricks or no_tricks:
        # what the side (the seat, in ramsch and leaster) can do when it tries to take tricks; the seat's own
        # trick objective minimises (paranoid), which would ask whether it is forced to take them
        obj = tricks_objective(obj.team)
    # a two-sided game solved with --seat: the values stay the declaring side's; which side the seat is on is
    # added, and (below) that side's own final value
    seat_side = None
    if rec.game.two_sided and s is not None:
        seat_side = "declaring" if s in state.setup.team else "defending"
    base: dict[str, Any] = {"state": state, "players": rec.players, "seat": s, "seat_side": seat_side}
    if no_tricks:
        # The side takes as many tricks as it can; it is held to none exactly when it cannot reach one.
        t0 = time.perf_counter()
        took_one = solver.reach(state, 1, obj)
        return SolveAnswer(**base, question="no-tricks", reached=not took_one, nodes=solver.nodes,
                           seconds=time.perf_counter() - t0)
    if all_tricks or target is not None:
        goal = in_play(state.setup)[0] if all_tricks else target
        t0 = time.perf_counter()
        ok = solver.reach(state, goal, obj)  # type: ignore[arg-type]
        return SolveAnswer(**base, question="all-tricks" if all_tricks else "target", target=goal, reached=ok,
                           nodes=solver.nodes, seconds=time.perf_counter() - t0)
    sol = solver.solve(state, obj, line=line)
    value, cards = sol.value, dict(sol.cards)
    best, best_line = tuple(sol.best), tuple(sol.line)
    sweep = durchmarsch(solver, state, obj.team, line) if rec.game.kind == "ramsch" and not obj.tricks else None
    if sweep is not None:  # it ranks above every point total of the seat's own
        value, keep, sweep_line = sweep
        cards.update({c: value for c in keep})
        best = tuple(c for c in cards if c in keep)
        best_line = tuple(sweep_line)
    seat_value = None
    if seat_side is not None:
        tricks_in, points_in = in_play(state.setup)
        total = tricks_in if obj.tricks else points_in
        seat_value = sol.value if seat_side == "declaring" else total - sol.value
    return SolveAnswer(**base, value=value, objective="tricks" if obj.tricks else "points", cards=cards, best=best,
                       line=best_line,
                       outcome=outcome_of(solver, state, Objective.for_setup(state.setup, seat=s), value)
                       if not obj.tricks or rec.game.no_trick else None, nodes=sol.nodes, seconds=sol.seconds, seat_value=seat_value)
