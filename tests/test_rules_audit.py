"""Hand-built positions whose answers are worked out by hand from ``shared/RULES.md`` (an audit of the rules, not
of the search): each test names the sentence of RULES.md it checks."""

from __future__ import annotations

from sheepsolve.analysis import solve_record
from sheepsolve.annotate import annotate_play, annotate_record
from sheepsolve.cards import Card, parse_cards
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
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
    summary = annotate_record(rec, judge_bury=False).summary
    assert (summary.deal_outcome, summary.result_outcome) == ("schwarzed", "schwarzed")


RAMSCH_SWEEP = """
game = "ramsch"
players = ["A", "B", "C", "D"]
[hands]
A = "QC QS QH QD JC JS JH JD"
B = "AH TH KH 9H 8H 7H AC TC"
C = "KC 9C 8C 7C AS TS KS 9S"
D = "8S 7S AD TD KD 9D 8D 7D"
"""
SWEEP_PLAY = ('["QC AH KC 8S", "QS TH 9C 7S", "QH KH 8C AD", "QD 9H 7C TD", "JC 8H AS KD", "JS 7H TS 9D", '
              '"JH AC KS 8D", "JD TC 9S 7D"]')


def test_ramsch_every_trick_is_a_durchmarsch_not_a_loss() -> None:
    # RULES.md: "Ramsch: ... one player taking every trick (*Durchmarsch*) wins". A holds the eight top trumps: he
    # takes every trick and all 120 points, so his result is a Durchmarsch, not the most points losing.
    rec = parse_record(RAMSCH_SWEEP)
    res = solve_record(rec, seat="A", line=False)
    assert (res["value"], res["outcome"]) == (120, "durchmarsch")
    fin = parse_record(RAMSCH_SWEEP.replace("[hands]", f"play = {SWEEP_PLAY}\n[hands]"))
    assert score(fin.state()).outcome == "durchmarsch:0"
    assert solve_record(fin, seat="A", line=False)["outcome"] == "durchmarsch"
    assert solve_record(rec, seat="B", line=False)["outcome"] == "undecided"  # B takes nothing


def test_ramsch_all_points_without_every_trick_loses() -> None:
    # A holds seven top trumps and 7S, which never wins (C and D follow with higher spades). The others, playing
    # against A, let him win every other trick and put no point on the 7S trick: A ends with all 120 points but
    # not every trick, so no Durchmarsch: the most points, he loses.
    rec = parse_record(RAMSCH_SWEEP.replace('A = "QC QS QH QD JC JS JH JD"', 'A = "QC QS QH QD JC JS JH 7S"')
                       .replace('D = "8S 7S AD TD KD 9D 8D 7D"', 'D = "8S JD AD TD KD 9D 8D 7D"'))
    res = solve_record(rec, seat="A", line=False)
    assert (res["value"], res["outcome"]) == (120, "loser")


def test_leaster_the_only_player_with_a_trick_wins() -> None:
    # RULES.md: "Leaster: ... the fewest points wins but the winner must have taken at least one trick; the blind
    # goes to the winner of the last trick". Ann holds the six top trumps and takes every trick (and the blind):
    # she is the only player with a trick, so she wins with 120.
    text = """
game = "leaster"
players = ["Ann", "Bob", "Cal", "Dee", "Eve"]
blind = "7D 8D"
[hands]
Ann = "QC QS QH QD JC JS"
Bob = "AC TC KC 9C 8C 7C"
Cal = "AS TS KS 9S 8S 7S"
Dee = "AH TH KH 9H 8H 7H"
Eve = "JH JD AD TD KD 9D"
"""
    res = solve_record(parse_record(text), seat="Ann", line=False)
    assert (res["value"], res["outcome"]) == (120, "winner")
    play = ('["QC AC AS AH JH", "QS TC TS TH JD", "QH KC KS KH AD", "QD 9C 9S 9H TD", "JC 8C 8S 8H KD", '
            '"JS 7C 7S 7H 9D"]')
    fin = parse_record(text.replace("[hands]", f"play = {play}\n[hands]"))
    assert score(fin.state()).outcome == "winner:0"
    assert solve_record(fin, seat="Ann", line=False)["outcome"] == "winner"


# Ramsch, A leads. D holds the seven top trumps and AC; A, B and C hold the other seven trumps (JD and the hearts,
# at most three each) and play 9S 8S 7S to the first trick, where D, void in spades, is last.
RAMSCH_THROWN_SWEEP = """
game = "ramsch"
players = ["A", "B", "C", "D"]
play = ["9S 8S 7S"]
[hands]
A = "9S AS TS JD AH TC KC 9C"
B = "8S KS TH KH AD TD KD 8C"
C = "7S 9H 8H 7H 9D 8D 7D 7C"
D = "QC QS QH QD JC JS JH AC"
"""


def test_annotate_flags_a_card_that_gives_up_a_durchmarsch() -> None:
    # RULES.md: "Ramsch: ... one player taking every trick (*Durchmarsch*) wins". By hand: D ruffs (any trump wins
    # the trick), draws the others' trumps in three rounds with his top trumps and makes AC last, the top club: every
    # trick and 120 points, a Durchmarsch. Throwing AC gives A the first trick (11 points); D's seven top trumps
    # take the other seven: 109 points, the most, so D loses. Fewer points, but the card turned a won Durchmarsch
    # into a loss: annotate must flag it, in the words of `solve --seat D` on the positions after each card.
    def after(card: str):
        return parse_record(RAMSCH_THROWN_SWEEP.replace('["9S 8S 7S"]', f'["9S 8S 7S {card}"]'))

    d = annotate_record(after("AC"), judge_bury=False).decisions[3]
    assert (d.player, str(d.card), d.values[Card.parse("AC")], d.values[Card.parse("QC")]) == ("D", "AC", 109, 120)
    assert d.cost == 0  # the fewest points
    assert d.swing is not None and (d.swing.before, d.swing.after) == ("durchmarsch", "loser") and d.mark == "??"
    assert solve_record(after("JH"), seat="D", line=False)["outcome"] == "durchmarsch"
    assert solve_record(after("AC"), seat="D", line=False)["outcome"] == "loser"
    # the Durchmarsch itself is no result lost (it costs 11 points on the points scale)
    d = annotate_record(after("JH"), judge_bury=False).decisions[3]
    assert (d.cost, d.swing) == (11, None)


def test_annotate_ramsch_outcome_words_are_solves() -> None:
    # Dealt with two cards each, A leads AS, B and C must follow with TS and KS (25 points); D, void in spades,
    # chooses. AH (a trump) takes the trick (36) and TC then wins the second (the others hold only diamonds): 71,
    # more than half of the 120 points, so D loses for certain. TC leaves the trick to A; D ruffs the diamonds of
    # the second trick with AH: 36, and whether D loses depends on how the others share the rest (undecided).
    setup = Setup.create(make_game("ramsch"), [parse_cards(h) for h in ("AS AD", "TS TD", "KS KD", "AH TC")])
    ann = annotate_play(setup, parse_cards("AS TS KS AH TC AD TD KD"), players=["A", "B", "C", "D"])
    d = ann.decisions[3]
    assert {str(c): v for c, v in d.values.items()} == {"AH": 71, "TC": 36}
    assert d.cost == 35 and d.swing is not None
    assert (d.swing.before, d.swing.after) == ("undecided", "loser")  # as `solve --seat` says, not "open"
