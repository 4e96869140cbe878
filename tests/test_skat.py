"""Skat (grand, suit games, null) and Schafkopf's Bettel as registry data.

- The rules: following suit with the jacks as trumps, null's and Bettel's rank order without trumps, the skat's
  points counting for the declarer, the declarer's no-trick objective.
- Differential: seeded random positions of every Skat contract and of Bettel solved by the pure-Python reference
  and the compiled core, every legal card's value equal (as ``tests/test_solver.py`` does for the other games).
"""

from __future__ import annotations

import random

import pytest

from sheepsolve.cards import parse_cards
from sheepsolve.deals import random_position, random_setup
from sheepsolve.engine import Setup, trick_winner
from sheepsolve.games import GameError, make_game
from sheepsolve.objective import Objective
from sheepsolve.reference import reference_card_values, reference_value
from sheepsolve.solver import Solver

SKAT_FORMS = [make_game("grand"), make_game("skat", trump="C"), make_game("skat", trump="S"),
              make_game("skat", trump="H"), make_game("skat", trump="D"), make_game("null"),
              make_game("null-ouvert"), make_game("bettel"), make_game("bettel", seats=3),
              make_game("bettel-ouvert")]


def _id(g) -> str:
    return f"{g.name}-{g.trump_suit or ''}-{g.seats}p-{len(g.deck)}{'-ouvert' if g.ouvert else ''}"


def test_skat_games_are_built_from_the_registry():
    grand = make_game("grand")
    assert (grand.family, grand.seats, grand.hand_size, grand.blind_size, grand.bury_size) == ("skat", 3, 10, 2, 2)
    assert [str(c) for c in grand.trumps] == ["JC", "JS", "JH", "JD"]
    assert grand.plain_ranks == "ATKQ987"
    clubs = make_game("skat", trump="C")
    assert [str(c) for c in clubs.trumps] == "JC JS JH JD AC TC KC QC 9C 8C 7C".split()
    null = make_game("null")
    assert null.trumps == () and null.plain_ranks == "AKQJT987" and null.no_trick and not null.ouvert
    assert make_game("null-ouvert").ouvert and make_game("null", ouvert=True).rank == 46
    assert make_game("skat-grand").name == "grand" and make_game("skat-null").name == "null"
    bettel = make_game("bettel", seats=3)
    assert (bettel.family, bettel.kind, bettel.hand_size, bettel.plain_ranks) == ("schafkopf", "contract", 8,
                                                                                   "AKQJT9")
    # its place among the contracts: above the sauspiel, below geier, wenz and solo; ouvert above wenz
    assert make_game("sauspiel").rank < make_game("bettel").rank < make_game("geier").rank
    assert make_game("wenz").rank < make_game("bettel-ouvert").rank < make_game("solo", trump="H").rank


@pytest.mark.parametrize("name,kw,msg", [
    ("skat", {}, "trump: skat needs a trump suit"),
    ("grand", {"trump": "H"}, "trump: grand has no trump suit"),
    ("wenz", {"ouvert": True}, "ouvert: wenz has no ouvert form"),
    ("null-ouvert", {"ouvert": False}, "ouvert: null-ouvert is played ouvert"),
    ("null", {"seats": 4}, "players: null is for 3 players"),
    ("bettel", {"tout": True}, "tout: bettel cannot be played tout"),
])
def test_bad_skat_game_fields(name, kw, msg):
    with pytest.raises(GameError, match=msg):
        make_game(name, **kw)


def test_trick_winners():
    grand = make_game("grand")
    assert trick_winner(grand, parse_cards("AS JD TS")) == 1  # a jack trumps in grand
    assert trick_winner(grand, parse_cards("JD JC JS")) == 1  # clubs jack highest
    assert trick_winner(grand, parse_cards("KS QS AS")) == 2  # A 10 K Q 9 8 7
    assert trick_winner(grand, parse_cards("QS TS AH")) == 1
    hearts = make_game("skat", trump="H")
    assert trick_winner(hearts, parse_cards("AS 7H JC")) == 2
    assert trick_winner(hearts, parse_cards("AS 7H TS")) == 1
    null = make_game("null")
    assert trick_winner(null, parse_cards("TS JS 9S")) == 1  # null: J above 10
    assert trick_winner(null, parse_cards("JC AS 7C")) == 0  # no trumps: the jack is a plain club
    assert trick_winner(null, parse_cards("KD AD QD")) == 1


def test_following_suit_with_the_jacks_as_trumps():
    g = make_game("skat", trump="S")
    hands = [parse_cards("JH AC"), parse_cards("AS KC"), parse_cards("TC 7S")]
    st = Setup.create(g, hands, declarer=0)
    s = st.start().play(parse_cards("JH")[0])  # a jack leads trumps: spades must follow
    assert [str(c) for c in s.legal()] == ["AS"]
    s = s.play(parse_cards("AS")[0])
    assert [str(c) for c in s.legal()] == ["7S"]
    # in null the jack of clubs is a club, and a club lead must be followed by it
    n = make_game("null")
    st = Setup.create(n, [parse_cards("AC 7H"), parse_cards("JC 8H"), parse_cards("9S TD")], declarer=0)
    assert [str(c) for c in st.start().play(parse_cards("AC")[0]).legal()] == ["JC"]


def test_the_skat_counts_for_the_declarer():
    g = make_game("grand")
    rng = random.Random(11)
    st = random_setup(g, rng)
    skat_points = sum(c.points for c in st.bury)
    obj = Objective.for_setup(st)
    assert obj.bury_points == skat_points
    s = random_position(st, rng, cards_left=2)
    assert Solver().value(s, obj) == reference_value(s, obj)
    assert Solver().value(s, obj) >= skat_points


def test_null_declarer_minimises_his_tricks():
    g = make_game("null")
    # declarer 0 holds 7C 7S; he cannot be forced to take a trick: value 0
    hands = [parse_cards("7C 7S"), parse_cards("AC AS"), parse_cards("KC KS")]
    st = Setup.create(g, hands, declarer=0)
    obj = Objective.for_setup(st)
    assert (obj.tricks, obj.maximize, obj.team) == (True, False, frozenset({0}))
    assert Solver().value(st.start(), obj) == 0
    # holding the ace of clubs, a club lead to him takes a trick
    hands = [parse_cards("AC 7S"), parse_cards("8C AS"), parse_cards("KC KS")]
    st = Setup.create(g, hands, declarer=0)
    s = st.start()
    assert Solver().value(s, obj) == reference_value(s, obj) == 1


@pytest.mark.parametrize("game", SKAT_FORMS, ids=_id)
def test_differential_skat_and_bettel(game):
    solver = Solver()
    tiny = Solver(table_bits=2)
    rng = random.Random(3700 + SKAT_FORMS.index(game))
    done = 0
    while done < 40:
        st = random_setup(game, rng)
        s = random_position(st, rng, cards_left=rng.randint(1, 3), extra=rng.randrange(game.seats))
        if s.finished:
            continue
        done += 1
        for obj in (Objective.for_setup(st), Objective.for_setup(st, tricks=True)):
            ref = reference_card_values(s, obj)
            assert solver.card_values(s, obj) == ref, (s, obj)
            assert tiny.card_values(s, obj) == ref, (s, obj)
            v = max(ref.values()) if (s.to_move in obj.team) == obj.maximize else min(ref.values())
            assert solver.value(s, obj) == v
