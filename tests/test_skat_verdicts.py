"""Skat's verdicts follow its score: an overbid game (its value, with the declarer's matadors and the levels
reached, below the bid; ISkO 5.4.2) is lost whatever the play, in every command, not only in ``show``'s score.
The figures are computed here from the rule: a grand with 4 matadors is worth 5 x 24 = 120 won, 6 x 24 = 144 won
schneider, 7 x 24 = 168 won schwarz."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sheepsolve.bury.evaluation import evaluate
from sheepsolve.cards import parse_cards
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.judge import Judge
from sheepsolve.record import dump_record, record_from_dict
from sheepsolve.scoring import Stakes, outcome_for, overbid, scored_outcome, seat_payment
from sheepsolve.solver import Solver

HANDS = {"Ann": "JC JS JH JD AC TC AS TS AH TH", "Bob": "KC QC 9C 8C KS QS 9S 8S 7S KH",
         "Cal": "7C QH 9H 8H 7H AD TD KD QD 9D"}


def grand(bid: int) -> Setup:
    hands = [parse_cards(HANDS[p]) for p in ("Ann", "Bob", "Cal")]
    return Setup.create(make_game("grand", bid=bid), hands, declarer=0, blind=parse_cards("7D 8D"),
                        bury=parse_cards("7D 8D"))


def record(tmp_path, bid: int, **keys) -> str:
    d = {"game": "skat", "contract": "grand", "players": ["Ann", "Bob", "Cal"], "declarer": "Ann",
         "skat": "7D 8D", "discard": "7D 8D", "bid": bid, "hands": dict(HANDS), **keys}
    path = tmp_path / f"grand-{bid}.toml"
    path.write_text(dump_record(record_from_dict(d)))
    return str(path)


def run(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "sheepsolve", *args], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("bid,points,outcome", [
    (144, 75, "loss"),            # won in play at 120: overbid
    (144, 95, "win-schneider"),   # 144 covers the bid
    (120, 75, "win"),
    (144, 40, "loss"),
    (144, 20, "loss-schneider"),  # lost schneider: worth 144, not overbid
])
def test_the_judge_scores_an_overbid_game_lost(bid, points, outcome):
    st = grand(bid)
    judge = Judge(st, Stakes(), Solver())
    assert judge.outcome(st.start(), points) == outcome
    played = outcome_for(st.game, points)
    assert scored_outcome(st, played) == outcome
    # charged as the play's outcome is: the lowest multiple of the base value covering the bid, lost
    assert seat_payment(st, 0, outcome) == seat_payment(st, 0, played)


def test_an_overbid_loses_whatever_the_level():
    st = grand(192)  # even schwarz (168) does not cover it
    assert [overbid(st, o) for o in ("win", "win-schneider", "win-schwarz")] == [True, True, True]
    assert scored_outcome(st, "win-schwarz") == "loss"
    assert scored_outcome(grand(168), "win-schwarz") == "win-schwarz"
    assert not overbid(Setup.create(make_game("wenz"), [parse_cards(h) for h in (
        "QC QS QH QD JC JS JH JD", "AC TC KC 9C AS TS KS 9S", "AH TH KH 9H 8H 7H 8C 7C",
        "AD TD KD 9D 8D 7D 8S 7S")], declarer=0), "win")


def test_no_swing_between_two_ways_of_losing_an_overbid_game():
    st = grand(144)
    judge = Judge(st, Stakes(), Solver())
    state = st.start()
    [first, second] = state.legal()[:2]
    # a card that drops the declarer from 75 to 55 points changes nothing: overbid at 75, lost at 55 alike
    assert judge.swing(state, {first: 75, second: 55}, second, True, state.play(second)) is None
    swing = judge.swing(state, {first: 95, second: 75}, second, True, state.play(second))
    assert (swing.before, swing.after) == ("win-schneider", "loss")


def test_the_discard_and_contract_evaluation_score_the_overbid():
    e = evaluate(Solver(), grand(192), Stakes())
    assert (e.value, e.outcome, e.payment) == (120, "loss", -384)
    e = evaluate(Solver(), grand(168), Stakes())
    assert (e.value, e.outcome, e.payment) == (120, "win-schwarz", 168)


def test_solve_calls_an_overbid_game_lost(tmp_path):
    path = record(tmp_path, 192)
    d = json.loads(run("solve", path, "--json"))
    assert (d["value"], d["outcome"]) == (120, "loss")
    text = run("solve", path)
    assert ("Value: The declaring side ends with 120 card points with best play from here (the game lost: overbid, "
            "the game is worth less than the bid of 192).") in text.splitlines()
    d = json.loads(run("solve", record(tmp_path, 168), "--json"))
    assert (d["value"], d["outcome"]) == (120, "win-schwarz")


def test_choose_counts_an_overbid_game_lost(tmp_path):
    d = {"game": "skat", "contract": "grand", "players": ["Ann", "Bob", "Cal"], "declarer": "Ann", "bid": 192,
         "hands": {"Ann": HANDS["Ann"]}}
    path = tmp_path / "choose.toml"
    path.write_text(dump_record(record_from_dict(d)))
    out = json.loads(run("choose", str(path), "--seat", "Ann", "--worlds", "8", "--seed", "1", "--json"))
    rows = {r["contract"]: r for r in out["contracts"]}
    # a grand hand with 4 is worth 8 x 24 = 192 schwarz (with 4, game, hand, schneider, schwarz): it covers the
    # bid; the grand with the skat taken (7 x 24 = 168) does not, and loses in every world
    hand = next(r for r in rows.values() if r.get("game") == "grand" and r.get("hand"))
    taken = next(r for r in rows.values() if r.get("game") == "grand" and r.get("skat") == "taken")
    assert hand["pwin"] == 1.0 and hand["payment"] == 192
    assert taken["pwin"] == 0.0 and taken["payment"] == -384 and taken["mean"] == 120
