"""Questions put to the solver about a hand record, answered as JSON-ready data.

:func:`solve_record` is what ``sheepsolve solve`` prints (``docs/RECORD-FORMAT.md``): ``value``, ``to_move``,
``cards``, ``outcome``, ``nodes``, ``seconds``, plus ``best``, ``line``, ``side`` and ``seat``.

Outcome of a value (:func:`outcome_of`): for two-sided games, the game's result for the declaring side
(:func:`sheepsolve.scoring.outcome_for`). The trick-based results are decided by a trick search: a value of all
the card points is ``schwarz`` (Sheepshead) or ``win-schwarz`` (Schafkopf) only when the side can take every
trick; a low value is ``schwarzed`` / ``loss-schwarz`` only when the other side can keep it from taking any. A
tout is won when the declarer can take every trick. Ramsch and leaster are solved for one seat against all the
others: ``loser`` when the seat ends with more than half the points (the most for certain), ``no-trick`` (leaster,
value 121) when it cannot take a trick, else ``undecided`` (the result depends on how the others share theirs).
With every card point the seat may have taken every trick, and that wins: ``durchmarsch`` (ramsch) or ``winner``
(leaster: the only player with a trick) when the seat can take every trick, as schwarz is decided. A Durchmarsch
ranks above every point total of the seat's own (:func:`durchmarsch`): when the seat can force one,
:func:`solve_record` gives every point in play as the value, the cards that keep it as the best and a line
that keeps it.

A finished hand's outcome is its scored result (:func:`sheepsolve.scoring.score`, what ``sheepsolve show``
prints), seen from the side or seat solved for. Two-sided games: the scorer's outcome (the trick questions above
are then answered by the tricks taken). Ramsch: ``durchmarsch`` (the seat took every trick), ``loser`` (the seat
pays: the most points, alone or tied under ``ramsch_ties = "all-lose"``, or another player's Durchmarsch), ``tie``
(tied for the most points where nobody pays), else ``not-loser``: the seat neither won outright nor lost, another
player lost (the seat is paid by him, a Jungfrau double) or nobody pays. Leaster: ``winner`` (the fewest points
among the players with a trick, alone), ``no-trick`` (the seat took no trick), ``tie`` (the seat shares the fewest
points: nobody pays), else ``loser`` (the seat took a trick and more points than the fewest; in a tied hand it
pays nothing). A hand dealt mid-hand has no scored result: its outcome is that of its value, as above.

"Every trick" and "every point" are those in play from the setup's first lead (:func:`in_play`): the game's for a
full deal, a hand dealt mid-hand's own (a three-card wenz tout that takes all three tricks is won).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .cards import Card
from .engine import Setup, State
from .files import clip
from .games import Game
from .objective import NO_TRICK, Objective
from .record import Record, RecordError
from .scoring import outcome_for, score
from .solver import DEFAULT_TABLE_MIB, Solver, SolverError

__all__ = ["solve_record", "durchmarsch", "outcome_of", "outcome_by_tricks", "in_play", "no_trick_points",
           "tricks_objective", "position_of"]


def position_of(rec: Record) -> State:
    """The state after the record's last card; refuses records whose hands are not all known."""
    if not rec.complete:
        try:
            rec.setup()
        except RecordError as e:
            raise SolverError(f"{e}; double-dummy solving needs every hand (and the blind and bury)") from None
    return rec.state()


@lru_cache(maxsize=64)
def tricks_objective(team: frozenset[int]) -> Objective:
    """The tricks ``team`` takes (the same object for the same team, so a solver finds its tables for it at once)."""
    return Objective(team=team, tricks=True)


def outcome_of(solver: Solver, state: State, obj: Objective, value: int) -> str:
    """The outcome of ``value`` (``obj``'s final value under perfect play from ``state``): see the module
    docstring. ``solver`` answers the trick questions, for ``obj.team``. Every trick and every point are those
    in play from the setup's first lead (:func:`in_play`: fewer for a hand dealt mid-hand)."""
    g = state.game
    n, total = in_play(state.setup)
    if not g.two_sided:
        if state.finished:
            scored = _scored_outcome(state, next(iter(obj.team)))
            if scored is not None:
                return scored
        if g.kind == "leaster" and value == NO_TRICK:
            return "no-trick"
        # every point the seat can end with (a leaster blind that goes to nobody is nobody's)
        top = total + (obj.blind_points if obj.blind_trick is not None else 0)
        if value >= top and solver.reach(state, n, tricks_objective(obj.team)):
            return "durchmarsch" if g.kind == "ramsch" else "winner"
        return "undecided" if value * 2 <= g.total_points else "loser"
    tricks_obj = tricks_objective(obj.team)
    return outcome_by_tricks(g, value, lambda k: solver.reach(state, k, tricks_obj), floor=no_trick_points(obj),
                             tricks=n, total=total)


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


def in_play(setup: Setup) -> tuple[int, int]:
    """The tricks and the card points in play from ``setup``'s first lead, the bury counted (a leaster blind
    is not): the game's own (8 tricks and 120 points in Schafkopf, say) for a full deal, fewer for a hand dealt
    mid-hand."""
    return (max((len(h) for h in setup.hands), default=0),
            sum(c.points for h in setup.hands for c in h) + sum(c.points for c in setup.bury))


def _scored_outcome(state: State, seat: int) -> str | None:
    """The scored result of a finished ramsch or leaster hand for ``seat`` (see the module docstring), or None
    when the hand has none (it was dealt mid-hand)."""
    try:
        result = score(state)
    except ValueError:
        return None
    kind, _, named_s = result.outcome.partition(":")
    named = {int(s) for s in named_s.split(",")}
    if state.game.kind == "ramsch":
        if kind == "durchmarsch" and seat in named:
            return "durchmarsch"
        if seat in result.losers:
            return "loser"
        return "tie" if kind in ("tie", "losers") and seat in named else "not-loser"
    if result.tricks[seat] == 0:
        return "no-trick"
    if kind == "winner" and seat in named:
        return "winner"
    return "tie" if kind == "tie" and seat in named else "loser"


def no_trick_points(obj: Objective) -> int:
    """The final points of a side that takes no trick: its bury, unless ``bury_needs_trick``."""
    return 0 if obj.bury_needs_trick else obj.bury_points


def outcome_by_tricks(game: Game, value: int, reach: Callable[[int], bool], floor: int = 0, *,
                      tricks: int | None = None, total: int | None = None) -> str:
    """The outcome of a two-sided game's ``value`` (the declaring side's final points) where ``reach(k)`` tells
    whether the side can take ``k`` tricks. It is asked once at most, only where the outcome turns on tricks:
    a tout (every trick), every card point (every trick: schwarz or not), no point beyond ``floor`` (one trick:
    schwarzed or not). ``floor`` is what the side has without a trick (the bury, see :func:`no_trick_points`):
    a 4-hand bury can hold more than 30 points. A point beyond it came with a trick, so 30 or fewer is then
    schneidered but never schwarzed, whatever ``reach`` would say. ``tricks`` and ``total``: every trick and
    every point in play (:func:`in_play`), by default the game's.

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> outcome_by_tricks(g, 20, lambda k: 1 / 0, floor=12), outcome_by_tricks(g, 12, lambda k: False, floor=12)
    ('schneidered', 'schwarzed')
    """
    n = game.tricks if tricks is None else tricks
    full = game.total_points if total is None else total
    if game.tout:
        return "win" if reach(n) else "loss"
    took = None
    if value >= full:
        took = n if reach(n) else n - 1
    elif value <= floor:
        took = 1 if reach(1) else 0
    return outcome_for(game, value, took, n)


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


def solve_record(rec: Record, *, seat: str | int | None = None, target: int | None = None,
                 all_tricks: bool = False, no_tricks: bool = False, tricks: bool = False, line: bool = True,
                 table_mib: int = DEFAULT_TABLE_MIB, solver: Solver | None = None) -> dict[str, Any]:
    """Solve the position after the record's last card. See the module docstring for the fields.

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
    names = rec.players
    side = "declaring side" if rec.game.two_sided else names[s]  # type: ignore[index]
    base: dict[str, Any] = {"game": rec.game.name, "side": side,
                            "seat": names[s] if s is not None else None,
                            "to_move": names[state.to_move] if not state.finished else None}
    # a two-sided game solved with --seat: the values stay the declaring side's; which side the seat is on is
    # added, and (below) that side's own final value
    seat_side = None
    if rec.game.two_sided and s is not None:
        seat_side = "declaring" if s in state.setup.team else "defending"
        base["seat_side"] = seat_side
    if no_tricks:
        # The side takes as many tricks as it can; it is held to none exactly when it cannot reach one.
        t0 = time.perf_counter()
        took_one = solver.reach(state, 1, obj)
        base.update({"question": "no-tricks", "reached": not took_one, "nodes": solver.nodes,
                     "seconds": round(time.perf_counter() - t0, 6)})
        return base
    if all_tricks or target is not None:
        goal = in_play(state.setup)[0] if all_tricks else target
        t0 = time.perf_counter()
        ok = solver.reach(state, goal, obj)  # type: ignore[arg-type]
        base.update({"question": "all-tricks" if all_tricks else "target", "target": goal, "reached": ok,
                     "nodes": solver.nodes, "seconds": round(time.perf_counter() - t0, 6)})
        return base
    sol = solver.solve(state, obj, line=line)
    value, cards = sol.value, {str(c): v for c, v in sol.cards.items()}
    best, best_line = [str(c) for c in sol.best], [str(c) for c in sol.line]
    sweep = durchmarsch(solver, state, obj.team, line) if rec.game.kind == "ramsch" and not obj.tricks else None
    if sweep is not None:  # it ranks above every point total of the seat's own
        value, keep, sweep_line = sweep
        cards.update({str(c): value for c in keep})
        best = [c for c in cards if Card.parse(c) in keep]
        best_line = [str(c) for c in sweep_line]
    out = dict(base)
    out.update({
        "value": value,
        "objective": "tricks" if obj.tricks else "points",
        "cards": cards,
        "best": best,
        "line": best_line,
        "outcome": outcome_of(solver, state, Objective.for_setup(state.setup, seat=s), value)
        if not obj.tricks else None,
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 6),
    })
    if seat_side is not None:
        tricks_in, points_in = in_play(state.setup)
        total = tricks_in if obj.tricks else points_in
        out["seat_value"] = sol.value if seat_side == "declaring" else total - sol.value
    return out
