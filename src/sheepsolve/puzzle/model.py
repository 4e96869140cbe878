"""A puzzle (:class:`Puzzle`: the record leading to the position and the ``[puzzle]`` table), its rating, and
the record of a position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..engine import State
from ..games import Game
from ..record import Record, RecordError, dump_record, record_from_dict
from .goals import PuzzleError, puzzle_state

__all__ = ["Rating", "Puzzle", "SHEEPSHEAD_NAMES", "SCHAFKOPF_NAMES", "players_for", "record_of"]

SHEEPSHEAD_NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve")
SCHAFKOPF_NAMES = ("Sepp", "Vroni", "Hias", "Resi")


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
        return puzzle_state(self.record)

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


def players_for(game: Game) -> tuple[str, ...]:
    names = SHEEPSHEAD_NAMES if game.family == "sheepshead" else SCHAFKOPF_NAMES
    if game.seats <= len(names):
        return names[: game.seats]
    return tuple(str(i + 1) for i in range(game.seats))  # pragma: no cover


def record_of(state: State, players: Sequence[str] | None = None, **info: Any) -> Record:
    """A hand record (validated) whose play leads to ``state``; ``info`` adds informational keys
    (:meth:`Record.from_state <sheepsolve.record.Record.from_state>`, the players named for the game)."""
    try:
        return Record.from_state(state, tuple(players or players_for(state.game)), **info)
    except RecordError as e:
        raise PuzzleError(str(e).removeprefix("hands: ")) from None
