"""Tests of the reference scorer: every scoring row of RULES.md, its boundaries and its multipliers.

Hands are laid out trick by trick (see ``helpers_scoring``) and played through the rules engine, so every
finished state comes from real, legal play; the points and payments expected are worked out by hand in the
comments. A Hypothesis property plays random legal hands of every game and checks that payments sum to zero.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers_scoring as hs
from helpers_cli import EXAMPLES, with_lines

from sheepsolve.cards import Card, parse_cards
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.record import RecordError, record_from_dict
from sheepsolve.scoring import (
    SCHAFKOPF_OUTCOMES,
    SHEEPSHEAD_OUTCOMES,
    Result,
    Stakes,
    laufende_of,
    outcome_for,
    payment_for,
    score,
    tally,
)

seat_order = hs.seat_order
JD_FULL = EXAMPLES / "bury-jd-full.toml"

# ==============================================================================================================
# Pure helpers: outcome_for


def _sheepshead_by_points(p: int) -> str:
    if p >= 91:
        return "schneider"
    if p >= 61:
        return "win"
    if p >= 31:
        return "loss"
    return "schneidered"


@pytest.mark.parametrize("name", ["sheepshead", "sheepshead-3", "sheepshead-4"])
def test_outcome_sheepshead_every_point_value(name):
    g = make_game(name)
    for p in range(121):
        assert outcome_for(g, p) == _sheepshead_by_points(p), p
        assert outcome_for(g, p, 1) == _sheepshead_by_points(p), p
        assert outcome_for(g, p, g.tricks - 1) == _sheepshead_by_points(p), p


def test_outcome_sheepshead_boundaries():
    g = make_game("sheepshead")
    assert [outcome_for(g, p) for p in (30, 31, 60, 61, 90, 91, 119, 120)] == [
        "schneidered", "loss", "loss", "win", "win", "schneider", "schneider", "schneider"]
    # schwarz is about tricks, never points
    assert outcome_for(g, 120, 5) == "schneider"
    assert outcome_for(g, 120, 6) == "schwarz"
    assert outcome_for(g, 120) == "schneider"  # tricks unknown: points only
    assert outcome_for(g, 0, 1) == "schneidered"
    assert outcome_for(g, 0, 0) == "schwarzed"
    assert outcome_for(g, 0) == "schneidered"
    assert outcome_for(g, 21, 0) == "schwarzed"  # the bury alone, no trick
    assert outcome_for(g, 41, 6, 6) == "schwarz"  # explicit total_tricks
    g3 = make_game("sheepshead-3")
    assert outcome_for(g3, 118, 10) == "schwarz"
    assert outcome_for(g3, 118, 9) == "schneider"


def _schafkopf_by_points(p: int) -> str:
    if p >= 91:
        return "win-schneider"
    if p >= 61:
        return "win"
    if p >= 31:
        return "loss"
    return "loss-schneider"


@pytest.mark.parametrize("name,trump", [("sauspiel", None), ("solo", "H"), ("wenz", None), ("geier", None),
                                        ("farbwenz", "C"), ("farbgeier", "D")])
def test_outcome_schafkopf_every_point_value(name, trump):
    g = make_game(name, trump=trump)
    for p in range(121):
        assert outcome_for(g, p) == _schafkopf_by_points(p), p
        assert outcome_for(g, p, 3) == _schafkopf_by_points(p), p


def test_outcome_schafkopf_boundaries_and_schwarz():
    g = make_game("sauspiel")
    assert [outcome_for(g, p) for p in (30, 31, 60, 61, 90, 91, 119, 120)] == [
        "loss-schneider", "loss", "loss", "win", "win", "win-schneider", "win-schneider", "win-schneider"]
    # trick-based schwarz (default)
    assert outcome_for(g, 120, 8) == "win-schwarz"
    assert outcome_for(g, 120, 7) == "win-schneider"
    assert outcome_for(g, 0, 0) == "loss-schwarz"
    assert outcome_for(g, 0, 1) == "loss-schneider"
    assert outcome_for(g, 0) == "loss-schneider"  # tricks unknown: no trick-based schwarz
    # schwarz by points
    gp = make_game("sauspiel", rules={"schwarz_by_points": True})
    assert outcome_for(gp, 120, 7) == "win-schwarz"
    assert outcome_for(gp, 120) == "win-schwarz"
    assert outcome_for(gp, 118, 8) == "win-schneider"  # every trick, 118 points: not schwarz by points
    assert outcome_for(gp, 0, 1) == "loss-schwarz"
    assert outcome_for(gp, 2, 0) == "loss-schneider"
    # the short deck keeps 120 points and 6 tricks
    gs = make_game("sauspiel", deck="short")
    assert outcome_for(gs, 120, 6) == "win-schwarz"
    assert outcome_for(gs, 120, 5) == "win-schneider"


def test_outcome_tout_and_sie():
    t = make_game("solo", trump="H", tout=True)
    assert outcome_for(t, 120, 8) == "win"
    assert outcome_for(t, 120, 7) == "loss"
    assert outcome_for(t, 0, 0) == "loss"
    assert outcome_for(t, 120) == "win"  # points only: every point is the best reading
    assert outcome_for(t, 118) == "loss"
    assert outcome_for(make_game("wenz", tout=True, seats=3), 120, 8) == "win"
    sie = make_game("sie")
    assert outcome_for(sie, 0) == "win"


def test_outcome_rejects_games_without_sides_and_bad_values():
    for g in (make_game("leaster"), make_game("ramsch")):
        with pytest.raises(ValueError, match="no declaring side"):
            outcome_for(g, 30)
    g = make_game("sheepshead")
    with pytest.raises(ValueError, match="out of range"):
        outcome_for(g, 121)
    with pytest.raises(ValueError, match="out of range"):
        outcome_for(g, 60, 7)


# ==============================================================================================================
# Pure helpers: payment_for and Stakes


def test_stakes():
    assert Stakes().factor == 1
    assert Stakes(crack=True).factor == 2
    assert Stakes(crack=True, recrack=True).factor == 4
    assert Stakes(doublers=3).factor == 8
    assert Stakes(crack=True, recrack=True, doublers=2).factor == 16
    with pytest.raises(ValueError, match="re-crack"):
        Stakes(recrack=True)
    with pytest.raises(ValueError, match="doublers"):
        Stakes(doublers=-1)


@pytest.mark.parametrize("outcome,units", [("schwarz", 3), ("schneider", 2), ("win", 1), ("loss", -1),
                                           ("schneidered", -2), ("schwarzed", -3)])
def test_payment_sheepshead_units(outcome, units):
    for name in ("sheepshead", "sheepshead-3", "sheepshead-4"):
        assert payment_for(make_game(name), outcome) == units


def test_payment_sheepshead_multipliers_stack():
    g = make_game("sheepshead")
    assert payment_for(g, "win", stakes=Stakes(crack=True)) == 2
    assert payment_for(g, "win", stakes=Stakes(crack=True, recrack=True)) == 4
    assert payment_for(g, "win", stakes=Stakes(doublers=1)) == 2
    assert payment_for(g, "win", stakes=Stakes(crack=True, recrack=True, doublers=2)) == 16
    assert payment_for(g, "win", alone=True) == 2
    assert payment_for(g, "schneider", alone=True, stakes=Stakes(crack=True, recrack=True)) == 16
    assert payment_for(make_game("sheepshead", rules={"alone_multiplier": 3}), "schneider", alone=True) == 6
    assert payment_for(make_game("sheepshead", rules={"alone_multiplier": 1}), "loss", alone=True) == -1
    # blitz only under its switch
    assert payment_for(g, "win", blitz=True) == 1
    gb = make_game("sheepshead", rules={"blitz": True})
    assert payment_for(gb, "win", blitz=True) == 2
    assert payment_for(gb, "win", blitz=False) == 1
    assert payment_for(gb, "loss", blitz=True) == -2
    # double on the bump: losses only
    gd = make_game("sheepshead", rules={"double_on_bump": True})
    assert payment_for(gd, "win") == 1
    assert payment_for(gd, "schwarz") == 3
    assert payment_for(gd, "loss") == -2
    assert payment_for(gd, "schneidered") == -4
    assert payment_for(gd, "schwarzed") == -6
    # everything at once: 3 units x alone 2 x blitz 2 x bump 2 x crack 2 x re-crack 2 x doubler 2
    ga = make_game("sheepshead", rules={"double_on_bump": True, "blitz": True})
    assert payment_for(ga, "schwarzed", alone=True, blitz=True,
                       stakes=Stakes(crack=True, recrack=True, doublers=1)) == -3 * 2 ** 6


def test_payment_three_and_four_hand_have_no_alone_multiplier():
    for name in ("sheepshead-3", "sheepshead-4"):
        g = make_game(name, rules={"alone_multiplier": 5})
        assert payment_for(g, "win", alone=True) == 1
        assert payment_for(g, "schwarzed", alone=True, stakes=Stakes(crack=True)) == -6


@pytest.mark.parametrize("outcome,amount", [("win", 10), ("win-schneider", 20), ("win-schwarz", 30),
                                            ("loss", -10), ("loss-schneider", -20), ("loss-schwarz", -30)])
def test_payment_sauspiel_tariff(outcome, amount):
    g = make_game("sauspiel")
    assert payment_for(g, outcome) == amount
    sign = 1 if amount > 0 else -1
    assert payment_for(g, outcome, laufende=3) == amount + sign * 30
    assert payment_for(g, outcome, stakes=Stakes(crack=True)) == 2 * amount
    assert payment_for(g, outcome, stakes=Stakes(crack=True, recrack=True)) == 4 * amount


@pytest.mark.parametrize("name,trump", [("solo", "S"), ("wenz", None), ("geier", None), ("farbwenz", "H"),
                                        ("farbgeier", "C")])
def test_payment_solo_types(name, trump):
    g = make_game(name, trump=trump)
    assert payment_for(g, "win") == 50
    assert payment_for(g, "win-schneider") == 60
    assert payment_for(g, "win-schwarz") == 70
    assert payment_for(g, "loss-schneider", laufende=2) == -80
    assert payment_for(g, "loss-schwarz", laufende=4, stakes=Stakes(crack=True, recrack=True)) == -440
    t = make_game(name, trump=trump, tout=True)
    assert payment_for(t, "win") == 100
    assert payment_for(t, "loss", laufende=3) == -160
    assert payment_for(t, "win", stakes=Stakes(crack=True)) == 200
    with pytest.raises(ValueError, match="tout"):
        payment_for(t, "win-schneider")


def test_payment_sie_and_custom_tariffs():
    sie = make_game("sie")
    assert payment_for(sie, "win", laufende=8) == (50 + 10 + 10 + 80) * 4
    assert payment_for(sie, "win", laufende=8, stakes=Stakes(crack=True)) == 1200
    with pytest.raises(ValueError, match="sie"):
        payment_for(sie, "loss")
    rules = {"tariff_sauspiel": 20, "tariff_solo": 100, "tariff_bonus": 5, "tout_multiplier": 3,
             "sie_multiplier": 8}
    assert payment_for(make_game("sauspiel", rules=rules), "win-schwarz", laufende=4) == 20 + 5 + 5 + 20
    assert payment_for(make_game("solo", trump="C", rules=rules), "loss-schneider") == -105
    assert payment_for(make_game("wenz", tout=True, rules=rules), "win", laufende=2) == (100 + 10) * 3
    assert payment_for(make_game("sie", rules=rules), "win", laufende=8) == (100 + 5 + 5 + 40) * 8


def test_payment_rejects_unknown_outcomes_and_sideless_games():
    with pytest.raises(ValueError, match="Sheepshead outcome"):
        payment_for(make_game("sheepshead"), "win-schneider")
    with pytest.raises(ValueError, match="Schafkopf outcome"):
        payment_for(make_game("sauspiel"), "schneider")
    with pytest.raises(ValueError, match="no declaring side"):
        payment_for(make_game("ramsch"), "win")


# ==============================================================================================================
# Sheepshead 3-hand: every boundary of the picker's result, by real play.
#
# Ten one-class tricks (3 cards each, top card first) and the bury JS JH (4 points). The picker, seat 0, wins a
# trick by holding its top card; the other tricks go to seat 1 (even index) or seat 2 (odd index).

SH3_TRICKS = [
    ("T1", "QC JD 7D", 5),
    ("T2", "QS AD 8D", 14),
    ("T3", "QH TD 9D", 13),
    ("T4", "QD JC KD", 9),
    ("C1", "AC TC KC", 25),
    ("C2", "9C 8C 7C", 0),
    ("S1", "AS 9S 8S", 11),
    ("S2", "TS KS 7S", 14),
    ("H1", "AH TH 9H", 21),
    ("H2", "KH 8H 7H", 4),
]
SH3_BURY = "JS JH"  # 4 points
ALL_SH3 = {name for name, _, _ in SH3_TRICKS}


def sh3(picker_wins: set[str], rules=None):
    g = make_game("sheepshead-3", rules=rules)
    layout = [seat_order(cards, 0 if name in picker_wins else 1 + i % 2, 3)
              for i, (name, cards, _) in enumerate(SH3_TRICKS)]
    return hs.build(g, layout, declarer=0, bury=SH3_BURY)


def test_sh3_layout_adds_up():
    assert sum(p for _, _, p in SH3_TRICKS) + 4 == 120


@pytest.mark.parametrize("wins,points,tricks,outcome,units", [
    ({"T3", "T4", "H2"}, 30, 3, "schneidered", -2),          # 4 + 13 + 9 + 4
    ({"T2", "T3"}, 31, 2, "loss", -1),                      # 4 + 14 + 13
    ({"C1", "S2", "T3", "H2"}, 60, 4, "loss", -1),          # 4 + 25 + 14 + 13 + 4: 60-60 to the defenders
    ({"C1", "T2", "T3", "T1"}, 61, 4, "win", 1),            # 4 + 25 + 14 + 13 + 5
    (ALL_SH3 - {"C1", "T1"}, 90, 8, "win", 1),              # defenders 25 + 5
    (ALL_SH3 - {"C1", "H2"}, 91, 8, "schneider", 2),        # defenders 25 + 4
    (ALL_SH3 - {"C2"}, 120, 9, "schneider", 2),             # every point, one (empty) trick lost: no schwarz
    (ALL_SH3, 120, 10, "schwarz", 3),
    ({"C2"}, 4, 1, "schneidered", -2),                      # an empty trick: not schwarzed
    (set(), 4, 0, "schwarzed", -3),                         # the bury but no trick
])
def test_sh3_results(wins, points, tricks, outcome, units):
    r = score(sh3(wins))
    assert r.side_points == {"declaring": points, "defending": 120 - points}
    assert r.side_tricks == {"declaring": tricks, "defending": 10 - tricks}
    assert r.points[0] == points
    assert r.outcome == outcome
    assert r.payments == (2 * units, -units, -units)  # 1/2/3 per defender, no alone multiplier
    assert r.base == abs(units) and r.multiplier == 1
    assert r.laufende == 0
    assert r.declaring == (0,)
    if units > 0:
        assert (r.winners, r.losers) == ((0,), (1, 2))
    else:
        assert (r.winners, r.losers) == ((1, 2), (0,))


def test_sh3_points_per_seat():
    r = score(sh3({"C1", "T2", "T3", "T1"}))
    # seat 1: S1 11 + H1 21; seat 2: T4 9 + C2 0 + S2 14 + H2 4
    assert r.points == (61, 32, 27)
    assert r.tricks == (4, 2, 4)


def test_sh3_bury_needs_trick():
    rules = {"bury_needs_trick": True}
    r = score(sh3(set(), rules))
    assert r.side_points == {"declaring": 0, "defending": 116}  # the bury counts for nobody
    assert r.points == (0, 75, 41)  # seat 1: T1 T3 C1 S1 H1; seat 2: T2 T4 C2 S2 H2
    assert r.outcome == "schwarzed"
    r = score(sh3({"C2"}, rules))  # an empty trick is a trick: the bury counts
    assert r.side_points["declaring"] == 4
    r = score(sh3({"T3", "T4", "H2"}, rules))
    assert r.side_points["declaring"] == 30 and r.outcome == "schneidered"


def test_sh3_stakes_and_bump():
    assert score(sh3({"C1", "T2", "T3", "T1"}), Stakes(crack=True, recrack=True)).payments == (8, -4, -4)
    r = score(sh3({"T2", "T3"}, {"double_on_bump": True}), Stakes(doublers=1))
    assert r.payments == (-8, 4, 4) and r.multiplier == 4


def test_tally_and_unfinished():
    g = make_game("sheepshead-3")
    layout = [seat_order(cards, 0, 3) for _, cards, _ in SH3_TRICKS]
    setup = Setup.create(g, hs.hands_from_layout(3, layout), declarer=0, blind=parse_cards(SH3_BURY),
                         bury=parse_cards(SH3_BURY))
    s = setup.start()
    with pytest.raises(ValueError, match="not finished"):
        score(s)
    t = tally(s)
    assert t.points == (4, 0, 0) and t.tricks == (0, 0, 0)
    s = hs.play_layout(setup, layout[:2])
    s = s.play(Card.parse("QH"))  # a card on the table is not counted yet
    t = tally(s)
    assert t.points == (4 + 5 + 14, 0, 0)
    assert t.side_points == {"declaring": 23, "defending": 0}
    assert t.side_tricks == {"declaring": 2, "defending": 0}
    with pytest.raises(ValueError, match="trick 3 of 10"):
        score(s)
    # bury_needs_trick: the bury counts once the side has a trick
    setup_b = Setup.create(make_game("sheepshead-3", rules={"bury_needs_trick": True}), setup.hands, declarer=0,
                           blind=parse_cards(SH3_BURY), bury=parse_cards(SH3_BURY))
    assert tally(setup_b.start()).points == (0, 0, 0)
    assert tally(hs.play_layout(setup_b, layout[:1])).points == (4 + 5, 0, 0)


# ==============================================================================================================
# Sheepshead 5-hand: partner split, alone, blitz, crack, bump.
#
# Tricks (points): T1 QC QH QD JC JS (13), T2 QS JH JD AD TD (28), C A T K 9 8 (25), S (25), H (25),
# last L KD 9D 8D 7C 7S (4, KD wins); bury 7D 7H (0). The picker is seat 0; with the jack of diamonds the partner
# is whoever plays JD in T2.

SH5_BURY = "7D 7H"


def sh5(layout, rules=None, partner=None, **kw):
    return hs.build(make_game("sheepshead", rules=rules, partner=partner), layout, declarer=0, bury=SH5_BURY, **kw)


SH5_WIN = [  # partner seat 2 (JD); side T1 13 + C 25 + S 25 = 63
    "QC QH QD JC JS",
    "JH QS JD AD TD",
    "AC TC KC 9C 8C",
    "TS KS AS 9S 8S",
    "TH KH 9H AH 8H",
    "9D 8D 7C 7S KD",
]


def test_sh5_win_splits_two_to_one():
    r = score(sh5(SH5_WIN))
    assert r.declaring == (0, 2)
    assert r.points == (38, 28, 25, 25, 4)
    assert r.side_points == {"declaring": 63, "defending": 57}
    assert r.side_tricks == {"declaring": 3, "defending": 3}
    assert r.outcome == "win"
    assert r.payments == (2, -1, 1, -1, -1)
    assert r.winners == (0, 2) and r.losers == (1, 3, 4)


@pytest.mark.parametrize("stakes,factor", [
    (Stakes(crack=True), 2),
    (Stakes(crack=True, recrack=True), 4),
    (Stakes(doublers=1), 2),
    (Stakes(crack=True, recrack=True, doublers=2), 16),
])
def test_sh5_crack_recrack_doublers(stakes, factor):
    r = score(sh5(SH5_WIN), stakes)
    assert r.multiplier == factor
    assert r.payments == tuple(factor * p for p in (2, -1, 1, -1, -1))


def test_sh5_loss_and_double_on_bump():
    layout = [  # side: T1 13 (seat 0) + S 25 (seat 2) = 38
        "QC QH QD JC JS",
        "JH QS JD AD TD",
        "TC AC KC 9C 8C",
        "TS KS AS 9S 8S",
        "TH KH 9H AH 8H",
        "9D 8D 7C 7S KD",
    ]
    r = score(sh5(layout))
    assert r.side_points["declaring"] == 38 and r.outcome == "loss"
    assert r.payments == (-2, 1, -1, 1, 1)
    assert r.winners == (1, 3, 4) and r.losers == (0, 2)
    r = score(sh5(layout, rules={"double_on_bump": True}), Stakes(crack=True))
    assert r.payments == (-8, 4, -4, 4, 4) and r.multiplier == 4
    # no bump doubling on a win
    assert score(sh5(SH5_WIN, rules={"double_on_bump": True})).payments == (2, -1, 1, -1, -1)


SH5_ALONE = [  # the picker holds JD: alone; he wins C, S, H = 75
    "QH QC QD JC JS",
    "JD JH AD QS TD",
    "AC TC KC 9C 8C",
    "AS TS KS 9S 8S",
    "AH TH KH 9H 8H",
    "9D 8D 7C 7S KD",
]


def test_sh5_alone_pays_double():
    r = score(sh5(SH5_ALONE))
    assert r.declaring == (0,)
    assert r.side_points["declaring"] == 75 and r.outcome == "win"
    assert r.payments == (8, -2, -2, -2, -2)
    assert r.multiplier == 2
    assert score(sh5(SH5_ALONE), Stakes(crack=True)).payments == (16, -4, -4, -4, -4)
    assert score(sh5(SH5_ALONE, rules={"alone_multiplier": 3})).payments == (12, -3, -3, -3, -3)


def test_sh5_alone_by_choice_and_by_partner_rule():
    # seat 2 holds JD but the picker goes alone; the same deal under the "alone" partner rule
    r = score(sh5(SH5_WIN, alone=True))
    assert r.declaring == (0,) and r.side_points["declaring"] == 38 and r.outcome == "loss"
    assert r.payments == (-8, 2, 2, 2, 2)
    assert score(sh5(SH5_WIN, partner="alone")).payments == (-8, 2, 2, 2, 2)


def test_sh5_called_ace():
    layout = [  # picker calls AC, held by seat 2; the picker's hold card is TC
        "QC QH QD JC JS",
        "JH QS JD AD TD",
        "TC KC AC 9C 8C",
        "TS KS AS 9S 8S",
        "TH KH 9H AH 8H",
        "9D 8D 7C 7S KD",
    ]
    r = score(sh5(layout, partner="called-ace", called="AC"))
    assert r.declaring == (0, 2)
    assert r.side_points["declaring"] == 13 + 25 + 25
    assert r.payments == (2, -1, 1, -1, -1)


SH5_BLITZ = [  # the picker holds QC and QS; side T1 13 + T2 28 + C 25 = 66
    "QC QH QD JC JS",
    "QS JH JD AD TD",
    "AC TC KC 9C 8C",
    "TS KS 9S AS 8S",
    "TH KH 9H 8H AH",
    "9D KD 8D 7C 7S",
]


def test_sh5_blitz():
    assert score(sh5(SH5_BLITZ)).payments == (2, -1, 1, -1, -1)  # off by default
    r = score(sh5(SH5_BLITZ, rules={"blitz": True}))
    assert r.outcome == "win" and r.payments == (4, -2, 2, -2, -2)
    r = score(sh5(SH5_BLITZ, rules={"blitz": True}), Stakes(crack=True, recrack=True, doublers=1))
    assert r.multiplier == 16 and r.payments == (32, -16, 16, -16, -16)
    # no blitz without both black queens
    assert score(sh5(SH5_WIN, rules={"blitz": True})).payments == (2, -1, 1, -1, -1)


def test_sh5_schwarz_and_schneider():
    schwarz = [
        "QC QH QD JC JS",
        "QS JH JD AD TD",
        "AC TC KC 9C 8C",
        "TS KS AS 9S 8S",
        "TH KH AH 9H 8H",
        "9D 8D KD 7C 7S",
    ]
    r = score(sh5(schwarz))
    assert r.side_tricks == {"declaring": 6, "defending": 0}
    assert r.outcome == "schwarz" and r.payments == (6, -3, 3, -3, -3)
    schneider = [  # side 13 + 28 + 25 + 25 = 91; defenders H 25 + L 4 = 29
        "QC QH QD JC JS",
        "QS JH JD AD TD",
        "AC TC KC 9C 8C",
        "TS KS AS 9S 8S",
        "TH KH 9H AH 8H",
        "9D 8D 7C 7S KD",
    ]
    r = score(sh5(schneider))
    assert r.side_points == {"declaring": 91, "defending": 29}
    assert r.outcome == "schneider" and r.payments == (4, -2, 2, -2, -2)


def test_sh5_schneidered_and_schwarzed():
    base = [
        "QH QC QD JC JS",
        "JH AD JD QS TD",
        "TC AC KC 9C 8C",
        "TS KS 9S AS 8S",
        "TH KH 9H 8H AH",
    ]
    r = score(sh5(base + ["9D 8D KD 7C 7S"]))  # the partner takes the last trick, 4 points
    assert r.side_points["declaring"] == 4 and r.side_tricks["declaring"] == 1
    assert r.outcome == "schneidered" and r.payments == (-4, 2, -2, 2, 2)
    r = score(sh5(base + ["9D KD 8D 7C 7S"]))  # no trick at all
    assert r.side_tricks["declaring"] == 0
    assert r.outcome == "schwarzed" and r.payments == (-6, 3, -3, 3, 3)


# ==============================================================================================================
# Sheepshead 4-hand: picker alone against 3, bury 4, no alone multiplier.
#
# T1 QC QS QH QD (12), T2 JC JS JH JD (8), T3 AD TD KD 9D (25), C A T K 9 (25), S A T K 9 (25), H AH 9H 8H 7H
# (11), last 8D 7D 8C 7C (0, 8D wins); bury TH KH 8S 7S (14).

SH4 = [("T1", "QC QS QH QD"), ("T2", "JC JS JH JD"), ("T3", "AD TD KD 9D"), ("C", "AC TC KC 9C"),
       ("S", "AS TS KS 9S"), ("H", "AH 9H 8H 7H"), ("L", "8D 7D 8C 7C")]


def sh4(picker_wins: set[str]):
    layout = [seat_order(cards, 0 if name in picker_wins else 1 + i % 3, 4) for i, (name, cards) in enumerate(SH4)]
    return hs.build(make_game("sheepshead-4"), layout, declarer=0, bury="TH KH 8S 7S")


def test_sh4_win_and_loss():
    r = score(sh4({"T1", "T3", "H"}))  # 12 + 25 + 11 + bury 14
    assert r.side_points == {"declaring": 62, "defending": 58}
    assert r.outcome == "win" and r.payments == (3, -1, -1, -1)
    r = score(sh4({"T1", "L"}))  # 12 + 0 + 14
    assert r.side_points["declaring"] == 26
    assert r.outcome == "schneidered" and r.payments == (-6, 2, 2, 2)
    assert score(sh4({"T1", "L"}), Stakes(crack=True)).payments == (-12, 4, 4, 4)
    r = score(sh4({"T1", "T2", "T3", "C", "S", "H", "L"}))
    assert r.outcome == "schwarz" and r.payments == (9, -3, -3, -3)


# ==============================================================================================================
# Leaster (5-hand).
#
# T1 QC QS JC JS 8D (10, seat 0), T2 QH QD JH JD AD (21, seat 2), C (25, seat 3), S (25, seat 3),
# H AH TH KH 9H 8H (25, seat 4 or 3), last TD 9D 7C 7S 7H (10, TD with seat 1); blind KD 7D (4).

LEASTER = [
    seat_order("QC QS JC JS 8D", 0, 5),
    seat_order("QH QD JH JD AD", 2, 5),
    seat_order("AC TC KC 9C 8C", 3, 5),
    seat_order("AS TS KS 9S 8S", 3, 5),
]
LEASTER_H4 = seat_order("AH TH KH 9H 8H", 4, 5)
LEASTER_H3 = seat_order("AH TH KH 9H 8H", 3, 5)
LEASTER_LAST = seat_order("TD 9D 7C 7S 7H", 1, 5)


def leaster(h_trick=LEASTER_H4, rules=None):
    return hs.build(make_game("leaster", rules=rules), LEASTER + [h_trick, LEASTER_LAST], blind="KD 7D")


def test_leaster_blind_to_last_trick():
    r = score(leaster())
    assert r.points == (10, 14, 21, 50, 25)
    assert r.tricks == (1, 1, 1, 2, 1)
    assert r.side_points is None and r.side_tricks is None
    assert r.outcome == "winner:0"
    assert r.payments == (4, -1, -1, -1, -1)
    assert r.winners == (0,) and r.losers == (1, 2, 3, 4)


def test_leaster_blind_to_first_trick():
    r = score(leaster(rules={"leaster_blind": "first"}))
    assert r.points == (14, 10, 21, 50, 25)
    assert r.outcome == "winner:1"
    assert r.payments == (-1, 4, -1, -1, -1)


def test_leaster_blind_to_nobody_tie_shares_nothing():
    r = score(leaster(rules={"leaster_blind": "nobody"}))
    assert r.points == (10, 10, 21, 50, 25)
    assert sum(r.points) == 116
    assert r.outcome == "tie:0,1"
    assert r.payments == (0, 0, 0, 0, 0)
    assert r.winners == () and r.losers == ()


def test_leaster_player_without_trick_cannot_win():
    r = score(leaster(LEASTER_H3), Stakes(doublers=1))
    assert r.points == (10, 14, 21, 75, 0)
    assert r.tricks[4] == 0
    assert r.outcome == "winner:0"
    assert r.payments == (8, -2, -2, -2, -2)  # the player without a trick pays too
    assert r.multiplier == 2


def test_leaster_takes_no_crack():
    with pytest.raises(ValueError, match="no sides"):
        score(leaster(), Stakes(crack=True))


# ==============================================================================================================
# Schafkopf. Trumps of sauspiel, ramsch and heart solo: QC QS QH QD JC JS JH JD AH TH KH 9H 8H 7H.
#
# Six one-class tricks (top card first) and two more: T7 gives QS/QD to seats 0/1 (QS wins) and KC 9C to seats
# 2/3 (10 points); T8 gives 8S/7S to seats 0/1 (8S wins) and 9D 7D to seats 2/3 (0 points).

SK_TRICKS = [
    ("T1", "QH JH TH 9H", 15),
    ("T2", "JC JD AH KH", 19),
    ("T3", "QC JS 8H 7H", 5),
    ("C", "AC TC 8C 7C", 21),
    ("S", "AS TS KS 9S", 25),
    ("D", "AD TD KD 8D", 25),
]
SK_DEF = {"T1": 1, "T2": 2, "T3": 3, "C": 1, "S": 2, "D": 3}  # who takes a trick the soloist does not
ALL_SK = {"T1", "T2", "T3", "C", "S", "D", "T7", "T8"}


def sk_layout(winners: dict[str, int]):
    layout = [seat_order(cards, winners[name], 4) for name, cards, _ in SK_TRICKS]
    layout.append("QS QD KC 9C" if winners["T7"] == 0 else "QD QS KC 9C")
    layout.append("8S 7S 9D 7D" if winners["T8"] == 0 else "7S 8S 9D 7D")
    return layout


def solo(wins: set[str], *, tout=False, rules=None):
    winners = {name: 0 if name in wins else SK_DEF.get(name, 1) for name in ALL_SK}
    return hs.build(make_game("solo", trump="H", tout=tout, rules=rules), sk_layout(winners), declarer=0)


def test_sk_layout_adds_up():
    assert sum(p for _, _, p in SK_TRICKS) + 10 + 0 == 120


@pytest.mark.parametrize("wins,points,tricks,outcome", [
    ({"T3", "S"}, 30, 2, "loss-schneider"),
    ({"C", "T7"}, 31, 2, "loss"),
    ({"T1", "T2", "T3", "C"}, 60, 4, "loss"),
    ({"T1", "C", "S"}, 61, 3, "win"),
    ({"T1", "T2", "C", "D", "T7", "T8"}, 90, 6, "win"),
    ({"T1", "T3", "C", "S", "D", "T8"}, 91, 6, "win-schneider"),
    (ALL_SK - {"T8"}, 120, 7, "win-schneider"),  # every point, an empty trick lost
    (ALL_SK, 120, 8, "win-schwarz"),
    ({"T8"}, 0, 1, "loss-schneider"),  # an empty trick: not schwarz
    (set(), 0, 0, "loss-schwarz"),
])
def test_solo_results(wins, points, tricks, outcome):
    r = score(solo(wins))
    assert r.side_points == {"declaring": points, "defending": 120 - points}
    assert r.side_tricks == {"declaring": tricks, "defending": 8 - tricks}
    assert r.outcome == outcome
    assert sum(r.payments) == 0
    assert r.payments[0] == -3 * r.payments[1]
    assert r.payments[1] == r.payments[2] == r.payments[3]


@pytest.mark.parametrize("wins,outcome", [
    (ALL_SK - {"T8"}, "win-schwarz"),
    ({"T8"}, "loss-schwarz"),
    ({"T1", "T3", "C", "S", "D", "T8"}, "win-schneider"),
])
def test_solo_schwarz_by_points(wins, outcome):
    assert score(solo(wins, rules={"schwarz_by_points": True})).outcome == outcome


@pytest.mark.parametrize("wins,outcome,laufende,payment", [
    # QC with seat 3, QS with seat 1, QH with the soloist: a run of 2, below 3
    ({"T1", "C", "S"}, "win", 0, 50),
    # QC with the soloist, QS with seat 1: a run of 1
    ({"T1", "T3", "C", "S", "D", "T8"}, "win-schneider", 0, 60),
    # QC QS QH with the soloist, QD with seat 1: 3 Laufende
    (ALL_SK, "win-schwarz", 3, 50 + 10 + 10 + 30),
    # QC (seat 3) QS QH (seat 1) with the defenders, QD with the soloist: 3 Laufende for the winning defenders
    (set(), "loss-schwarz", 3, -(50 + 10 + 10 + 30)),
    # the defenders' 3 Laufende are paid to the soloist who wins
    ({"T2", "C", "S", "D"}, "win", 3, 50 + 30),
    # the soloist's own 3 Laufende, but he loses: he pays them
    ({"T1", "T3", "T7", "T8"}, "loss-schneider", 3, -(50 + 10 + 30)),
])
def test_solo_payments_and_laufende(wins, outcome, laufende, payment):
    r = score(solo(wins))
    assert r.outcome == outcome
    assert r.laufende == laufende
    assert r.payments == (3 * payment, -payment, -payment, -payment)
    assert r.base == abs(payment) and r.multiplier == 1
    r = score(solo(wins), Stakes(crack=True, recrack=True))
    assert r.payments == (12 * payment, -4 * payment, -4 * payment, -4 * payment)
    assert r.multiplier == 4


def test_tout():
    r = score(solo(ALL_SK, tout=True))
    assert r.outcome == "win" and r.laufende == 3
    assert r.payments == (480, -160, -160, -160)  # (50 + 30) x 2
    assert r.multiplier == 2 and r.base == 80
    r = score(solo(ALL_SK - {"T8"}, tout=True))  # every point but not every trick
    assert r.outcome == "loss" and r.laufende == 3
    assert r.payments == (-480, 160, 160, 160)
    r = score(solo(ALL_SK, tout=True), Stakes(crack=True))
    assert r.payments == (960, -320, -320, -320) and r.multiplier == 4
    # no schneider or schwarz in a tout, whatever the points
    r = score(solo({"T1", "C", "S"}, tout=True))
    assert r.outcome == "loss" and r.payments == (-300, 100, 100, 100)


def sauspiel(winners: dict[str, int]):
    """Declarer seat 0 calls AC, held by seat 2 (who therefore takes the club trick)."""
    assert winners["C"] == 2
    return hs.build(make_game("sauspiel"), sk_layout(winners), declarer=0, called="AC")


SAU_WIN = {"T1": 0, "T2": 1, "T3": 3, "C": 2, "S": 2, "D": 3, "T7": 1, "T8": 1}  # side 15 + 21 + 25 = 61


def test_sauspiel_win_each_loser_pays_one_winner():
    r = score(sauspiel(SAU_WIN))
    assert r.declaring == (0, 2)
    assert r.side_points == {"declaring": 61, "defending": 59}
    assert r.outcome == "win" and r.laufende == 0  # QC seat 3, QS seat 1: a defenders' run of 2
    assert r.payments == (10, -10, 10, -10)
    assert r.winners == (0, 2) and r.losers == (1, 3)


@pytest.mark.parametrize("stakes,amount", [
    (Stakes(crack=True), 20),
    (Stakes(crack=True, recrack=True), 40),
    (Stakes(crack=True, recrack=True, doublers=1), 80),
])
def test_sauspiel_kontra_re(stakes, amount):
    assert score(sauspiel(SAU_WIN), stakes).payments == (amount, -amount, amount, -amount)


def test_sauspiel_schwarz_with_laufende():
    winners = {"T1": 0, "T2": 0, "T3": 2, "C": 2, "S": 0, "D": 2, "T7": 0, "T8": 0}
    r = score(sauspiel(winners))
    # QC seat 2, QS QH seat 0, QD seat 1: 3 Laufende
    assert r.outcome == "win-schwarz" and r.laufende == 3
    assert r.payments == (60, -60, 60, -60)  # 10 + 10 + 10 + 30


def test_sauspiel_loss_with_defenders_laufende():
    winners = {"T1": 1, "T2": 1, "T3": 3, "C": 2, "S": 1, "D": 3, "T7": 1, "T8": 1}
    r = score(sauspiel(winners))
    # side: the club trick only, 21; QC seat 3, QS QH seat 1, QD seat 0: 3 Laufende for the defenders
    assert r.side_points["declaring"] == 21
    assert r.outcome == "loss-schneider" and r.laufende == 3
    assert r.payments == (-50, 50, -50, 50)
    assert r.winners == (1, 3) and r.losers == (0, 2)


# -- Laufende for every game and threshold (hands only; the play is random) ----------------------------------

LAUFENDE_CASES = [
    # game, trump, fixed cards per seat, declarer, called, run, declaring side holds it, paid
    ("sauspiel", None, {0: "QC QH 7C", 2: "QS AC", 1: "QD"}, 0, "AC", 3, True, 3),
    ("sauspiel", None, {0: "QC 7C", 2: "QS AC", 1: "QH"}, 0, "AC", 2, True, 0),
    ("sauspiel", None, {1: "QC QH JC", 3: "QS QD", 0: "JS 7C", 2: "AC"}, 0, "AC", 5, False, 5),
    ("sauspiel", None, {0: "QC QS QH QD JC JS JH 7C", 2: "JD AC", 1: "AH"}, 0, "AC", 8, True, 8),
    ("sauspiel", None, {0: "QC QS QH QD JC JS AH 7C", 2: "JH JD AC TH", 3: "KH"}, 0, "AC", 10, True, 10),
    ("solo", "D", {0: "QC QS QH QD JC JS JH JD", 1: "AD"}, 0, None, 8, True, 8),
    ("solo", "D", {0: "QC QS QH QD JC JS JH AD", 1: "JD"}, 0, None, 7, True, 7),
    ("solo", "C", {1: "QC QS QH", 0: "QD"}, 0, None, 3, False, 3),
    ("solo", "C", {1: "QC QS", 0: "QH"}, 0, None, 2, False, 0),
    ("wenz", None, {0: "JC JS", 1: "JH"}, 0, None, 2, True, 2),
    ("wenz", None, {0: "JC", 1: "JS"}, 0, None, 1, True, 0),
    ("wenz", None, {2: "JC JS JH JD"}, 0, None, 4, False, 4),
    ("wenz", None, {0: "JC JS JH JD"}, 0, None, 4, True, 4),
    ("geier", None, {1: "QC QS QH", 0: "QD"}, 0, None, 3, False, 3),
    ("geier", None, {0: "QC QS", 3: "QH"}, 0, None, 2, True, 2),
    ("geier", None, {3: "QC", 0: "QS"}, 0, None, 1, False, 0),
    ("farbwenz", "C", {0: "JC JS JH JD AC", 2: "TC"}, 0, None, 5, True, 5),
    ("farbwenz", "C", {0: "JC JS", 1: "JH"}, 0, None, 2, True, 0),
    ("farbwenz", "C", {1: "JC JS JH", 0: "JD"}, 0, None, 3, False, 3),
    ("farbgeier", "S", {0: "QC QS QH", 1: "QD"}, 0, None, 3, True, 3),
    ("farbgeier", "S", {2: "QC QS", 0: "QH"}, 0, None, 2, False, 0),
]


@pytest.mark.parametrize("name,trump,fixed,declarer,called,run,mine,paid", LAUFENDE_CASES)
def test_laufende(name, trump, fixed, declarer, called, run, mine, paid):
    g = make_game(name, trump=trump)
    hands = hs.deal_with(g, fixed, seed=len(name) + run)
    setup = Setup.create(g, hands, declarer=declarer, called=Card.parse(called) if called else None)
    assert laufende_of(setup) == (run, mine)
    r = score(hs.random_playout(setup, random.Random(run)))
    assert r.laufende == paid
    tariff = 10 if name == "sauspiel" else 50
    extra = 20 if r.outcome.endswith("schwarz") else 10 if r.outcome.endswith("schneider") else 0
    assert r.base == tariff + extra + 10 * paid


def test_laufende_threshold_switch_and_short_deck():
    g = make_game("sauspiel", rules={"laufende_from": 4})
    for fixed, paid in (({0: "QC QH 7C", 2: "QS AC", 1: "QD"}, 0), ({0: "QC QH 7C", 2: "QS QD AC", 1: "JC"}, 4)):
        setup = Setup.create(g, hs.deal_with(g, fixed), declarer=0, called=Card.parse("AC"))
        assert score(hs.random_playout(setup, random.Random(1))).laufende == paid
    gw = make_game("wenz", rules={"laufende_from": 1})
    setup = Setup.create(gw, hs.deal_with(gw, {0: "JC", 1: "JS"}), declarer=0)
    assert score(hs.random_playout(setup, random.Random(1))).laufende == 1
    gs = make_game("solo", trump="H", deck="short")
    setup = Setup.create(gs, hs.deal_with(gs, {0: "QC QS QH QD JC JS", 1: "JH"}), declarer=0)
    assert laufende_of(setup) == (6, True)


def test_laufende_of_rejects_sideless_games():
    g = make_game("ramsch")
    with pytest.raises(ValueError, match="no sides"):
        laufende_of(Setup.create(g, hs.deal_with(g, {})))


# -- sie ------------------------------------------------------------------------------------------------------


def test_sie_is_scored_without_play():
    g = make_game("sie")
    hands = hs.deal_with(g, {1: "QC QS QH QD JC JS JH JD"})
    setup = Setup.create(g, hands, declarer=1)
    r = score(setup.start())
    assert r.outcome == "win" and r.laufende == 8
    assert r.base == 50 + 10 + 10 + 80 and r.multiplier == 4
    assert r.payments == (-600, 1800, -600, -600)
    assert r.winners == (1,) and r.losers == (0, 2, 3)
    assert r.side_points == {"declaring": 0, "defending": 0}  # nothing was played
    assert score(setup.start(), Stakes(crack=True)).payments == (-1200, 3600, -1200, -1200)


# -- ramsch ---------------------------------------------------------------------------------------------------


def ramsch(winners: dict[str, int], rules=None):
    return hs.build(make_game("ramsch", rules=rules), sk_layout(winners))


RAMSCH_JUNGFRAU = {"T1": 0, "T2": 0, "T7": 0, "S": 1, "T8": 1, "C": 2, "D": 2, "T3": 2}
RAMSCH_TIE = {"T1": 0, "T2": 0, "C": 0, "T8": 0, "T3": 2, "S": 2, "D": 2, "T7": 1}


def test_ramsch_loser_pays_each():
    winners = {"T1": 0, "T2": 0, "T7": 1, "T8": 1, "C": 2, "T3": 2, "S": 3, "D": 3}
    r = score(ramsch(winners))
    assert r.points == (34, 10, 26, 50)
    assert r.side_points is None
    assert r.outcome == "loser:3"
    assert r.payments == (10, 10, 10, -30)
    assert r.winners == (0, 1, 2) and r.losers == (3,)
    assert score(ramsch(winners), Stakes(doublers=1)).payments == (20, 20, 20, -60)
    assert score(ramsch(winners, {"ramsch_tariff": 20})).payments == (20, 20, 20, -60)


def test_ramsch_jungfrau_is_paid_double():
    r = score(ramsch(RAMSCH_JUNGFRAU))
    assert r.points == (44, 25, 51, 0) and r.tricks[3] == 0
    assert r.outcome == "loser:2"
    assert r.payments == (10, 10, -40, 20)


def test_ramsch_tie_all_lose():
    r = score(ramsch(RAMSCH_TIE))
    assert r.points == (55, 10, 55, 0)
    assert r.outcome == "losers:0,2"
    assert r.payments == (-30, 20, -30, 40)  # each tied player pays 10 to seat 1 and 20 to the Jungfrau
    assert r.winners == (1, 3) and r.losers == (0, 2)


def test_ramsch_tie_nobody():
    r = score(ramsch(RAMSCH_TIE, {"ramsch_ties": "nobody"}))
    assert r.outcome == "tie:0,2"
    assert r.payments == (0, 0, 0, 0)
    assert r.winners == () and r.losers == ()


def test_ramsch_durchmarsch():
    r = score(ramsch({name: 0 for name in ALL_SK}))
    assert r.points == (120, 0, 0, 0)
    assert r.outcome == "durchmarsch:0"
    assert r.laufende == 0
    assert r.payments == (210, -70, -70, -70)  # a won schwarz solo, no Laufende
    assert r.winners == (0,) and r.losers == (1, 2, 3)
    assert score(ramsch({name: 0 for name in ALL_SK}), Stakes(doublers=1)).payments == (420, -140, -140, -140)


def test_ramsch_takes_no_kontra():
    with pytest.raises(ValueError, match="no sides"):
        score(ramsch(RAMSCH_TIE), Stakes(crack=True))


# ==============================================================================================================
# to_dict


def test_to_dict_is_json_ready_and_keyed_by_name():
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    d = score(sh5(SH5_WIN)).to_dict(names)
    assert json.loads(json.dumps(d)) == d
    assert d["points"] == {"Ann": 38, "Bo": 28, "Cy": 25, "Di": 25, "Ed": 4}
    assert d["payments"] == {"Ann": 2, "Bo": -1, "Cy": 1, "Di": -1, "Ed": -1}
    assert d["side_points"] == {"declaring": 63, "defending": 57}
    assert d["declaring"] == ["Ann", "Cy"] and d["winners"] == ["Ann", "Cy"]
    assert d["outcome"] == "win" and d["game"] == "sheepshead"
    d = score(ramsch(RAMSCH_TIE)).to_dict(["N", "E", "S", "W"])
    assert d["outcome"] == "losers:N,S" and d["losers"] == ["N", "S"]
    assert score(leaster()).to_dict()["outcome"] == "winner:1"
    with pytest.raises(ValueError, match="distinct"):
        score(leaster()).to_dict(["a", "a", "b", "c", "d"])


# ==============================================================================================================
# Property: over random legal play-outs of random deals of every game, payments sum to zero.

GAMES = [
    ("sheepshead", {}),
    ("sheepshead", {"partner": "called-ace"}),
    ("sheepshead", {"partner": "alone"}),
    ("sheepshead", {"rules": {"bury_needs_trick": True, "double_on_bump": True, "blitz": True,
                              "call_up": True}}),
    ("sheepshead", {"partner": "called-ace", "rules": {"run": True, "alone_multiplier": 3}}),
    ("sheepshead-3", {}),
    ("sheepshead-4", {"rules": {"bury_needs_trick": True}}),
    ("leaster", {}),
    ("leaster", {"seats": 4, "rules": {"leaster_blind": "first"}}),
    ("leaster", {"seats": 3, "rules": {"leaster_blind": "nobody"}}),
    ("sauspiel", {}),
    ("sauspiel", {"deck": "short", "rules": {"schwarz_by_points": True}}),
    ("solo", {"trump": "C"}),
    ("solo", {"trump": "H", "tout": True}),
    ("solo", {"trump": "D", "seats": 3}),
    ("wenz", {}),
    ("wenz", {"tout": True, "deck": "short"}),
    ("geier", {"seats": 3}),
    ("farbwenz", {"trump": "S"}),
    ("farbgeier", {"trump": "H", "tout": True}),
    ("sie", {}),
    ("ramsch", {}),
    ("ramsch", {"deck": "short", "rules": {"ramsch_ties": "nobody"}}),
]


@pytest.mark.parametrize("name,fields", GAMES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GAMES)])
@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 32 - 1), crack=st.booleans(), recrack=st.booleans(),
       doublers=st.integers(0, 2))
def test_payments_sum_to_zero(name, fields, seed, crack, recrack, doublers):
    g = make_game(name, **fields)
    rng = random.Random(seed)
    setup = hs.random_setup(g, rng)
    state = setup.start() if g.sie else hs.random_playout(setup, rng)
    crack = crack and g.two_sided
    stakes = Stakes(crack=crack, recrack=crack and recrack, doublers=doublers)
    r = score(state, stakes)
    assert isinstance(r, Result)
    assert sum(r.payments) == 0
    assert len(r.payments) == len(r.points) == len(r.tricks) == g.seats
    assert set(r.winners).isdisjoint(r.losers)
    for s in r.winners:
        assert r.payments[s] > 0
    for s in r.losers:
        assert r.payments[s] < 0
    for s in set(range(g.seats)) - set(r.winners) - set(r.losers):
        assert r.payments[s] == 0
    json.dumps(r.to_dict())
    if g.sie:
        assert r.outcome == "win"
        return
    assert sum(r.tricks) == g.tricks
    expected_total = 120
    if g.kind == "picker" and g.rules["bury_needs_trick"] and r.side_tricks["declaring"] == 0:
        expected_total -= sum(c.points for c in setup.bury)
    if g.kind == "leaster" and g.rules["leaster_blind"] == "nobody":
        expected_total -= sum(c.points for c in setup.blind)
    assert sum(r.points) == expected_total
    if g.two_sided:
        assert r.side_points["declaring"] + r.side_points["defending"] == expected_total
        assert r.side_points["declaring"] == sum(r.points[s] for s in r.declaring)
        assert r.outcome == outcome_for(g, r.side_points["declaring"], r.side_tricks["declaring"])
        assert r.outcome in (SHEEPSHEAD_OUTCOMES if g.kind == "picker" else SCHAFKOPF_OUTCOMES)
        assert abs(r.payments[next(s for s in range(g.seats) if s not in r.declaring)]) == r.base * r.multiplier
        assert r.multiplier % stakes.factor == 0
    elif g.kind == "leaster":
        assert r.outcome.startswith(("winner:", "tie:"))
    else:
        assert r.outcome.startswith(("loser:", "losers:", "tie:", "durchmarsch:"))


def test_setup_dealt_mid_hand_is_not_scored():
    g = make_game("solo", trump="H")
    setup = Setup.create(g, [parse_cards("QC QS"), parse_cards("7C 8C"), parse_cards("7S 8S"),
                             parse_cards("7D 8D")], declarer=0)
    state = setup.start()
    while not state.finished:
        state = state.play(state.legal()[0])
    assert tally(state).side_points == {"declaring": 6, "defending": 0}
    with pytest.raises(ValueError, match="mid-hand"):
        score(state)


# --------------------------------------------------------------------------------------------------------------
# Stakes and rule values have bounds


@pytest.mark.parametrize("doublers", [17, 20000, 10**12])
@pytest.mark.parametrize("command", [["show"], ["annotate", "--no-bury"], ["bury", "--jobs", "1"]])
def test_doublers_are_capped(tmp_path: Path, command: list[str], doublers: int, run, assert_input_error) -> None:
    rec = with_lines(tmp_path, JD_FULL, f"doublers = {doublers}")
    assert_input_error(run(*command, rec), "doublers", "at most 16")

def test_sixteen_doublers_still_work(tmp_path: Path, run) -> None:
    import json

    rec = with_lines(tmp_path, EXAMPLES / "sheepshead-jd-finished.toml", "doublers = 16")
    r = run("show", "--json", rec)
    plain = run("show", "--json", EXAMPLES / "sheepshead-jd-finished.toml")
    assert r.exit_code == 0 and plain.exit_code == 0, r.output
    pay, pay0 = json.loads(r.output)["payments"], json.loads(plain.output)["payments"]
    assert pay == {k: v * 65536 for k, v in pay0.items()} and any(pay0.values())

def test_stakes_refuse_more_doublers() -> None:
    assert Stakes(doublers=16).factor == 2**16
    with pytest.raises(ValueError, match="at most 16"):
        Stakes(doublers=17)
    with pytest.raises(ValueError, match="at most 16"):
        Stakes(doublers=10**12)

@pytest.mark.parametrize("switch, value", [("tout_multiplier", 10**12), ("sie_multiplier", 65),
                                           ("tariff_solo", 10**9), ("ramsch_tariff", 100_001),
                                           ("run_min", 9), ("laufende_from", 15)])
def test_rule_values_are_capped(switch: str, value: int) -> None:
    with pytest.raises(RecordError, match=f"rules.{switch}: must be at most"):
        record_from_dict({"game": "sauspiel", "declarer": "1", "called": "AS", "rules": {switch: value}})

def test_alone_multiplier_is_capped(tmp_path: Path, run, assert_input_error) -> None:
    rec = tmp_path / "r.toml"
    rec.write_text('game = "sheepshead"\npicker = "1"\n[rules]\nalone_multiplier = 1000000000000\n')
    assert_input_error(run("show", rec), "rules.alone_multiplier", "at most 64")
