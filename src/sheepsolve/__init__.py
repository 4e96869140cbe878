"""sheepsolve: double-dummy solver and hand analyzer for Sheepshead and Schafkopf.

>>> from sheepsolve import load_record, Solver
>>> rec = load_record("examples/sheepshead.toml")  # doctest: +SKIP
>>> Solver().value(rec.state())                     # doctest: +SKIP
55
"""

from .cards import Card, CardError, format_cards, parse_cards
from .engine import RulesError, Setup, State, legal_calls, trick_winner
from .games import Game, GameError, make_game
from .objective import Objective
from .record import Record, RecordError, dump_record, load_record, parse_record
from .solver import Solution, Solver, SolverError, solve

__all__ = [
    "Card",
    "CardError",
    "Game",
    "GameError",
    "Objective",
    "Record",
    "RecordError",
    "RulesError",
    "Setup",
    "Solution",
    "Solver",
    "SolverError",
    "State",
    "dump_record",
    "format_cards",
    "legal_calls",
    "load_record",
    "make_game",
    "parse_cards",
    "parse_record",
    "solve",
    "trick_winner",
]
__version__ = "0.1.0"
