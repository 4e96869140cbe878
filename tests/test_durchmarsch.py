"""Ramsch, solved for one seat: a Durchmarsch (the seat takes every trick) wins, so when the seat can force one
it ranks above every point total of its own (docs/RULES.md, "What double dummy means here"): ``solve`` then
gives every point in play as the value, the cards that keep the Durchmarsch as the best, a line that keeps it,
and says so (outcome ``durchmarsch``, text "Durchmarsch")."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sheepsolve.analysis import solve_record
from sheepsolve.cards import Card
from sheepsolve.cli import main
from sheepsolve.record import parse_record
from sheepsolve.scoring import score

# A holds the six top trumps and KC 7C and has taken the first six tricks: KC then 7C takes every trick (a
# Durchmarsch, 120 points, a win); 7C first gives the last two tricks away and leaves A 95 points, the fewest he
# can have, but the most of the four: a loss.
HANDS = """
[hands]
A = "QC QS QH QD JC JS KC 7C"
B = "JH JD AH TH KH 9H 9S 7D"
C = "8H 7H AC TC 9C KS 8C TS"
D = "8S 7S AD TD KD 8D AS 9D"
"""
PLAY = '"QC JH 8H 8S", "QS JD 7H 7S", "QH AH AC AD", "QD TH TC TD", "JC KH 9C KD"'


def record(last: str):
    return parse_record(f'game = "ramsch"\nplayers = ["A", "B", "C", "D"]\nplay = [{PLAY}, {last}]\n{HANDS}')


A_TO_LEAD = record('"JS 9H KS 8D"')
B_TO_PLAY = record('"JS"')  # A led JS: every card B may play still leaves A every trick


def test_the_seat_to_move_keeps_the_durchmarsch():
    res = solve_record(A_TO_LEAD, seat="A")
    assert res["cards"] == {"KC": 120, "7C": 95}
    assert (res["value"], res["best"], res["outcome"]) == (120, ["KC"], "durchmarsch")
    state = A_TO_LEAD.state().play_cards([Card.parse(c) for c in res["line"]])
    assert state.finished and score(state).outcome == "durchmarsch:0"


def test_another_player_to_move_cannot_stop_it():
    res = solve_record(B_TO_PLAY, seat="A")
    assert (res["value"], res["outcome"]) == (120, "durchmarsch")
    assert sorted(res["best"]) == sorted(res["cards"]) and set(res["cards"].values()) == {120}


def test_without_a_durchmarsch_the_fewest_points_stay_best():
    # B's seat: B cannot take every trick; his value is the paranoid minimum of his own points, as before
    res = solve_record(A_TO_LEAD, seat="B")
    assert res["outcome"] != "durchmarsch" and res["value"] == min(res["cards"].values())


def test_the_text_and_json_say_durchmarsch(tmp_path):
    path = tmp_path / "hand.toml"
    path.write_text(f'game = "ramsch"\nplayers = ["A", "B", "C", "D"]\nplay = [{PLAY}, "JS 9H KS 8D"]\n{HANDS}')
    text = CliRunner().invoke(main, ["solve", str(path), "--seat", "A"])
    assert text.exit_code == 0, text.output
    assert "(Durchmarsch: every trick, a win)" in text.output
    marked = [ln.split()[:3] for ln in text.output.splitlines() if "best (keeps the Durchmarsch)" in ln]
    assert marked == [["EK", "120", "best"]]  # German cards for Schafkopf: EK is KC
    out = json.loads(CliRunner().invoke(main, ["solve", str(path), "--seat", "A", "--json"]).output)
    assert (out["outcome"], out["best"], out["line"][0]) == ("durchmarsch", ["KC"], "KC")
