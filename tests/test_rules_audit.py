"""Hand-built positions whose answers are worked out by hand from ``shared/RULES.md`` (an audit of the rules, not
of the search): each test names the sentence of RULES.md it checks."""

from __future__ import annotations

from sheepsolve.analysis import solve_record
from sheepsolve.record import parse_record
from sheepsolve.scoring import score

# 4-hand: the picker buries AC AS AH TC (43 points) and keeps seven low fail cards. Bob and Cal hold only trumps, so
# every trick holds a trump of theirs and the picker can never take one: by hand, 43 points and no trick.
SH4_BURY_NO_TRICK = """
game = "sheepshead-4"
players = ["Ann", "Bob", "Cal", "Dee"]
picker = "Ann"
blind = "AC AS AH TC"
bury = "AC AS AH TC"
[hands]
Ann = "7C 8C 9C 7S 8S 9S 7H"
Bob = "QC QS QH QD JC JS JH"
Cal = "JD AD TD KD 9D 8D 7D"
Dee = "KC TS KS TH KH 9H 8H"
"""


def test_no_trick_is_schwarzed_even_with_a_rich_bury() -> None:
    # RULES.md: "Result of the picker's side, counting the bury: ... 31-60 = loss; ... no trick at all = schwarzed.
    # Schwarz is about tricks, not points."  The 4-hand bury (4 cards) can hold more than 30 points.
    rec = parse_record(SH4_BURY_NO_TRICK)
    res = solve_record(rec, line=False)
    assert res["value"] == 43
    assert res["outcome"] == "schwarzed"


def test_no_trick_is_schwarzed_on_the_finished_hand_too() -> None:
    play = '["9C QC JD KC", "QS AD TS 8C", "QH TD KS 7C", "QD KD TH 9S", "JC 9D KH 8S", "JS 8D 9H 7S", "JH 7D 8H 7H"]'
    rec = parse_record(SH4_BURY_NO_TRICK.replace("[hands]", f"play = {play}\n[hands]"))
    state = rec.state()
    assert state.finished
    result = score(state)
    assert (result.side_points["declaring"], result.side_tricks["declaring"], result.outcome) == (43, 0, "schwarzed")
    res = solve_record(rec, line=False)
    assert (res["value"], res["outcome"]) == (43, "schwarzed")
