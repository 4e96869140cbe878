"""The double-dummy solver: exact values, card values, threshold questions and best lines.

Values are *final* values on the same scale everywhere: for a two-sided game the declaring side's card points at
the end of the hand (the bury and the tricks already won included) under perfect play by everyone from the given
position; for ramsch and leaster the points of the seat solved for, every other player against it (see
:mod:`sheepsolve.objective`).

>>> from sheepsolve.games import make_game
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.engine import Setup
>>> g = make_game("solo", trump="H")
>>> hands = [parse_cards("QC AS"), parse_cards("7H TS"), parse_cards("AC KS"), parse_cards("7C 9S")]
>>> state = Setup.create(g, hands, declarer=0).start()
>>> sol = Solver().solve(state)
>>> sol.value, {str(c): v for c, v in sol.cards.items()}
(39, {'QC': 39, 'AS': 39})
>>> [str(c) for c in sol.line]
['QC', '7H', 'AC', '7C', 'AS', 'TS', 'KS', '9S']
>>> Solver().reach(state, 39), Solver().reach(state, 40)
(True, False)
"""

from __future__ import annotations

import functools
import operator
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from ._core import Core
from .cards import Card
from .engine import State
from .files import clip
from .memory import TableMemoryError
from .objective import Objective
from .tables import CoreTables, compile_tables, core_position, fixed_points

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["Solver", "Solution", "solve", "SolverError", "DEFAULT_TABLE_MIB", "MAX_TABLE_MIB"]

# Small tables that stay in the processor's cache are faster than big ones; bigger tables only pay for very long
# searches (docs/TUNING.md, "Tables: size and layout").
DEFAULT_TABLE_MIB = 1
MAX_TABLE_MIB = 256


class SolverError(ValueError):
    """A position the solver cannot take (unknown hands, a finished hand asked for a card, ...)."""


@dataclass(frozen=True)
class Solution:
    """The answer for one position."""

    value: int  # final value under perfect play
    to_move: int | None  # seat to move (None when the hand is over)
    cards: dict[Card, int]  # final value after each legal card
    best: tuple[Card, ...]  # the legal cards reaching ``value``
    line: tuple[Card, ...]  # one best line of play to the end of the hand
    nodes: int
    seconds: float
    objective: Objective = field(repr=False, default=None)  # type: ignore[assignment]


_CORE_LIMIT = 1 << 20
"""Every value the core sees lies in -_CORE_LIMIT..+_CORE_LIMIT (a C int): a target or guess beyond it answers
the same as the limit itself, since final values are card points (0..120) or tricks."""


def _core_int(x: object, what: str) -> int:
    """A whole number for the core, clamped into its range (see :data:`_CORE_LIMIT`)."""
    try:
        v = operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        raise SolverError(f"{what}: must be a whole number, not {clip(repr(x))}") from None
    return max(-_CORE_LIMIT, min(_CORE_LIMIT, v))


def _bits_for(mib: int) -> int:
    if not isinstance(mib, int) or mib < 1:
        raise SolverError(f"table size must be a positive number of MiB, not {mib!r}")
    if mib > MAX_TABLE_MIB:
        raise SolverError(f"table size {mib} MiB is over the limit of {MAX_TABLE_MIB} MiB")
    bits = 2
    while Core.bytes_for(bits + 1) <= mib * 1024 * 1024 and bits < 22:
        bits += 1
    return bits


def _locked(method: _F) -> _F:
    """Run the method holding the solver's own lock (re-entrant: ``solve`` calls ``card_values``)."""

    @functools.wraps(method)
    def wrapper(self: "Solver", *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class Solver:
    """A solver with its own transposition table, reused across calls (same deal: entries carry over).

    ``table_mib`` bounds the memory of its two tables, transpositions and shapes (default 1 MiB, at most
    256 MiB); ``table_bits`` sets the number of entries of each directly (``2`` gives four-entry tables that
    evict constantly, for tests).

    Threads: a solver may be shared, but it answers one call at a time (each method holds the solver's own
    lock, so a second thread waits; the answers are the same as one thread's). For work in parallel, give
    each thread its own solver: solvers share nothing, and the search runs without the interpreter lock, so
    one solver per thread uses every core. The module-level :func:`solve` keeps one solver per thread.
    """

    def __init__(self, table_mib: int = DEFAULT_TABLE_MIB, *, table_bits: int | None = None) -> None:
        bits = table_bits if table_bits is not None else _bits_for(table_mib)
        self._lock = threading.RLock()
        try:
            self._core = Core(bits)
        except MemoryError:  # the tables could not be had: say how much they need
            raise TableMemoryError(Core.bytes_for(bits)) from None
        self._tables: CoreTables | None = None
        self._compiled: tuple | None = None  # (setup, objective, tables) of the last compile
        self._masks: tuple | None = None  # (tables, hands, their core masks) of the last position loaded
        self.nodes = 0

    @property
    def table_bytes(self) -> int:
        return self._core.table_bytes

    @_locked
    def clear(self) -> None:
        """Forget the transposition table."""
        self._core.clear()

    # -- plumbing ----------------------------------------------------------------------------------------------
    def _load(self, state: State, obj: Objective) -> tuple[CoreTables, int]:
        """Put ``state`` in the core (tables compiled once per setup and objective); the tables and the offset
        of the core's future values: what the side already has, and the fixed points added outside the core."""
        if None in state.hands:
            raise SolverError("every hand must be known to solve double dummy")
        cached = self._compiled
        if cached is not None and cached[0] is state.setup and (cached[1] is obj or cached[1] == obj):
            tables = cached[2]
        else:
            tables = compile_tables(state, obj)
            self._compiled = (state.setup, obj, tables)
        if tables is not self._tables:  # compile_tables gives one object per context: a new bury keeps it
            self._core.load_tables(tables)
        pos = core_position(state, tables, obj, masks=self._hand_masks(state.hands, tables))
        self._core.set_position(pos["hands"], pos["trick"], pos["leader"], pos["open"], pos["took"])
        self._tables = tables
        return tables, obj.past_value(state) + fixed_points(obj)

    def _hand_masks(self, hands: tuple, tables: CoreTables) -> list[int]:
        """The core masks of ``hands``; a hand that is the very frozenset of the last position loaded with the same
        tables keeps its mask (a frozenset never changes: the buries of a deal share the other players' hands,
        and the positions along a line of play every hand but the last player's)."""
        last = self._masks
        if last is not None and last[0] is tables and len(last[1]) == len(hands):
            mask = tables.mask
            masks = [m if h is b and type(h) is frozenset else mask(h) for h, b, m in zip(hands, last[1], last[2])]
        else:
            masks = [tables.mask(h) for h in hands]
        self._masks = (tables, hands, masks)
        return masks

    @staticmethod
    def _objective(state: State, objective: Objective | None, seat: int | None, tricks: bool) -> Objective:
        if objective is not None:
            return objective
        try:
            return Objective.for_setup(state.setup, seat=seat, tricks=tricks)
        except ValueError as e:
            raise SolverError(str(e)) from None

    # -- questions ---------------------------------------------------------------------------------------------
    @_locked
    def value(self, state: State, objective: Objective | None = None, *, seat: int | None = None,
              tricks: bool = False, guess: int | None = None) -> int:
        """The exact final value of ``state``.

        ``guess``, a value the answer is probably near (a similar position's value, say the previous bury's),
        only changes where the search starts: with a close guess the answer takes two or three null-window
        searches instead of about seven; a poor one costs a few more. Without one, a position where the player to
        move holds six or more cards gets one from a quick search in which every player only tries its two most
        promising cards (smaller positions bisect). The answer is the same either way.
        """
        obj = self._objective(state, objective, seat, tricks)
        if state.finished:
            return obj.final_value(state)
        off = self._load(state, obj)[1]
        self._core.reset_nodes()
        v = self._core.value(-1 if guess is None else max(0, _core_int(guess, "guess") - off))
        self.nodes = self._core.nodes
        return off + v

    @_locked
    def reach(self, state: State, target: int, objective: Objective | None = None, *, seat: int | None = None,
              tricks: bool = False) -> bool:
        """Whether the final value is at least ``target`` under perfect play (one null-window search).

        ``reach(state, 61)``: can the declaring side make 61? ``reach(state, n, tricks=True)`` with ``n`` the
        number of tricks: can it take every trick?
        """
        obj = self._objective(state, objective, seat, tricks)
        if state.finished:
            return obj.final_value(state) >= _core_int(target, "target")
        off = self._load(state, obj)[1]
        self._core.reset_nodes()
        ok = self._core.at_least(_core_int(target, "target") - off)
        self.nodes = self._core.nodes
        return bool(ok)

    @_locked
    def card_values(self, state: State, objective: Objective | None = None, *, seat: int | None = None,
                    tricks: bool = False, guess: int | None = None) -> dict[Card, int]:
        """The exact final value after each legal card of the player to move.

        ``guess``: the position's value if known (say, from the card played before it), where each card's
        search starts; as in :meth:`value` it only changes the work, never the answer. Without one, the cards
        are solved one after the other, each from the best value found so far, and the position itself is not
        searched (fewer nodes than solving it first: docs/TUNING.md, "Tables: size and layout").
        """
        obj = self._objective(state, objective, seat, tricks)
        if state.finished:
            return {}
        tables, off = self._load(state, obj)
        values = self._core.child_values(-1 if guess is None else max(0, _core_int(guess, "guess") - off))
        index = tables.index
        return {c: off + values[index[c]] for c in state.legal()}

    @_locked
    def best_line(self, state: State, objective: Objective | None = None, *, seat: int | None = None,
                  tricks: bool = False, value: int | None = None) -> list[Card]:
        """One line of perfect play from ``state`` to the end of the hand. ``value``: the position's exact value,
        if known (it saves searching for it; a wrong one gives a wrong line or a :class:`RuntimeError`)."""
        obj = self._objective(state, objective, seat, tricks)
        line: list[Card] = []
        s = state
        total = None if value is None else _core_int(value, "value")  # the same all along a line of perfect play
        while not s.finished:
            tables, off = self._load(s, obj)
            if total is None:
                total = off + self._core.value()
            v = total - off
            maxing = (s.to_move in obj.team) == obj.maximize
            reps = self._core.representatives()
            chosen = None
            for c in s.legal():
                # no card does better than the position's value: one null-window search per card tells
                # whether it keeps it
                r = reps[tables.index[c]]
                keeps = self._core.child_at_least(r, v) if maxing else not self._core.child_at_least(r, v + 1)
                if keeps:
                    chosen = c
                    break
            if chosen is None:  # cannot happen if the search is right; fail loudly rather than guess
                raise RuntimeError(f"no card keeps the position's value {total}")
            line.append(chosen)
            s = s.play(chosen)
        return line

    @_locked
    def solve(self, state: State, objective: Objective | None = None, *, seat: int | None = None,
              tricks: bool = False, line: bool = True) -> Solution:
        """Value, value of every legal card, best cards and a best line, with node count and time."""
        obj = self._objective(state, objective, seat, tricks)
        self._core.reset_nodes()
        t0 = time.perf_counter()
        if state.finished:
            v = obj.final_value(state)
            return Solution(value=v, to_move=None, cards={}, best=(), line=(), nodes=0, seconds=0.0, objective=obj)
        cards = self.card_values(state, obj)
        maxing = (state.to_move in obj.team) == obj.maximize
        v = max(cards.values()) if maxing else min(cards.values())
        nodes = self._core.nodes
        pv = self.best_line(state, obj, value=v) if line else []
        nodes = self._core.nodes if line else nodes
        dt = time.perf_counter() - t0
        self.nodes = nodes
        return Solution(value=v, to_move=state.to_move, cards=cards,
                        best=tuple(c for c, x in cards.items() if x == v), line=tuple(pv), nodes=nodes,
                        seconds=dt, objective=obj)


_default = threading.local()  # one default solver per thread


def solve(state: State, objective: Objective | None = None, *, seat: int | None = None, tricks: bool = False,
          line: bool = True) -> Solution:
    """Solve with a default :class:`Solver`, one per thread (threads calling this run in parallel)."""
    solver = getattr(_default, "solver", None)
    if solver is None:
        solver = _default.solver = Solver()
    return solver.solve(state, objective, seat=seat, tricks=tricks, line=line)
