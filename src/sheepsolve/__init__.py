"""sheepsolve: double-dummy solver and hand analyzer for Sheepshead and Schafkopf."""

from .cards import Card, CardError, format_cards, parse_cards
from .engine import RulesError, Setup, State, legal_calls, trick_winner
from .games import Game, GameError, make_game

__all__ = [
    "Card",
    "CardError",
    "Game",
    "GameError",
    "RulesError",
    "Setup",
    "State",
    "format_cards",
    "legal_calls",
    "make_game",
    "parse_cards",
    "trick_winner",
]
__version__ = "0.1.0"
