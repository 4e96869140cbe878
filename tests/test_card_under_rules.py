"""The card under (Sheepshead, called ace from a void suit) after the called ace was thrown off: with
``called_throw_off_last_only = false`` the partner may throw the called ace off on another suit before his last
card; the picker may then lead the card under as the called suit, and it wins its trick when nobody follows
suit or trumps (docs/RULES.md, partner rule: called ace). The engine, the reference and the compiled solver
agree."""

from __future__ import annotations

import pytest

from sheepsolve.cards import Card, parse_cards
from sheepsolve.engine import RulesError, Setup, State
from sheepsolve.games import make_game
from sheepsolve.reference import reference_value
from sheepsolve.solver import Solver

FREE = make_game("sheepshead", partner="called-ace", rules={"called_throw_off_last_only": False})
STRICT = make_game("sheepshead", partner="called-ace")

# A picks, holds AC and no spade or heart: he calls AS from a void suit and 9D goes under (it stands for the
# spades). B holds AS and no club; C, D and E hold no spade and no trump after the clubs.
HANDS = "AC 9D | AS KH | 7C AH | 8C 9H | 9C 7H"


def start(game) -> State:
    hands = [parse_cards(h) for h in HANDS.split("|")]
    return Setup.create(game, hands, declarer=0, called=Card.parse("AS"), under=Card.parse("9D")).start()


def play(state: State, cards: str) -> State:
    return state.play_cards(parse_cards(cards))


def test_the_partner_may_throw_the_called_ace_off_only_with_the_switch_off():
    assert {str(c) for c in play(start(FREE), "AC").legal()} == {"AS", "KH"}
    assert {str(c) for c in play(start(STRICT), "AC").legal()} == {"KH"}
    with pytest.raises(RulesError):
        play(start(STRICT), "AC AS")


def test_the_card_under_led_after_the_ace_was_thrown_off_wins_its_trick():
    s = play(start(FREE), "AC AS 7C 8C 9C")
    assert s.tricks[0].winner == 0 and s.called_open  # clubs were led: the called suit is still unled
    assert {str(c) for c in s.legal()} == {"9D"}  # the picker leads the card under, as a spade
    s = play(s, "9D")
    assert s.setup.suit_class(Card.parse("9D")) == "S"
    s = play(s, "KH AH 9H 7H")  # nobody holds a spade or a trump
    t = s.tricks[1]
    assert (t.winner, t.points) == (0, 0 + 4 + 11 + 0 + 0)  # the card under takes the trick and its points
    assert not s.called_open


@pytest.mark.parametrize("game", [FREE, STRICT], ids=["throw-off-free", "throw-off-last-only"])
def test_the_solver_agrees_with_the_reference(game):
    s = start(game)
    solver = Solver()
    assert solver.value(s) == reference_value(s)
    sol = solver.solve(s)
    assert sol.cards == {c: reference_value(s.play(c)) for c in s.legal()}


def test_the_solver_counts_the_trick_the_card_under_wins():
    # after the first trick the picker's side has AC and AS (22); the card under takes KH and AH (15): 37. Had
    # it not won, AH would have taken the trick for C and left the side 22
    s = play(start(FREE), "AC AS 7C 8C 9C")
    assert reference_value(s) == 22 + 15
    assert Solver().value(s) == 22 + 15
