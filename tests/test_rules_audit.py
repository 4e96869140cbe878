"""Hand-built positions whose answers are worked out by hand from ``shared/RULES.md`` (an audit of the rules, not
of the search): each test names the sentence of RULES.md it checks."""

from __future__ import annotations

import random

import pytest

from helpers_cli import EXAMPLES

from sheepsolve.analysis import solve_record
from sheepsolve.judge import in_play, outcome_of
from sheepsolve.annotate import annotate_play, annotate_record
from sheepsolve.cards import Card, parse_cards
from sheepsolve.deals import game_forms, random_position, random_setup
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.record import load_record, parse_record
from sheepsolve.scoring import score
from sheepsolve.solver import Solver

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


def test_annotate_flags_a_leaster_card_that_gives_up_the_only_trick() -> None:
    # RULES.md: "Leaster: ... the fewest points wins but the winner must have taken at least one trick". The same
    # hand in leaster: Ann, last to the first trick (0-point spades and 9H), void in spades, holds the five top
    # trumps and AC. A trump takes the trick; she draws the others' nine trumps (three at most each) in three
    # rounds and makes AC: every trick, so the only player with one, and she wins with 120 (the blind, 8H 7H, is
    # hers). Throwing AC gives Bob the trick and 11 points: Ann has 109 and Bob fewer with a trick, she loses.
    text = """
game = "leaster"
players = ["Bob", "Cal", "Dee", "Eve", "Ann"]
blind = "8H 7H"
play = ["9S 8S 7S 9H {card}"]
[hands]
Bob = "9S AS JS JH JD TC"
Cal = "8S TS AD TD KC AH"
Dee = "7S KS KD 9D 9C TH"
Eve = "9H KH 8D 7D 8C 7C"
Ann = "QC QS QH QD JC AC"
"""
    d = annotate_record(parse_record(text.format(card="AC")), judge_bury=False).decisions[4]
    assert (d.player, d.values[Card.parse("AC")], d.values[Card.parse("JC")], d.cost) == ("Ann", 109, 120, 0)
    assert d.swing is not None and (d.swing.before, d.swing.after) == ("winner", "loser")
    assert solve_record(parse_record(text.format(card="JC")), seat="Ann", line=False)["outcome"] == "winner"
    assert solve_record(parse_record(text.format(card="AC")), seat="Ann", line=False)["outcome"] == "loser"


def test_annotate_ramsch_outcome_words_are_solves() -> None:
    # Dealt with two cards each, A leads AS, B and C must follow with TS and KS (25 points); D, void in spades,
    # chooses. AH (a trump) takes the trick (36) and TC then wins the second (the others hold only diamonds):
    # every trick and all 71 points in play, a Durchmarsch of the hand as dealt (a hand dealt mid-hand counts
    # its own tricks and points, see test_hands_dealt_mid_hand_count_their_own_tricks_and_points). TC leaves the
    # trick to A; D ruffs the diamonds of the second trick with AH: 36, and whether D loses depends on how the
    # others share the rest (undecided). D throws TC: the fewest points, but no longer a sweep.
    setup = Setup.create(make_game("ramsch"), [parse_cards(h) for h in ("AS AD", "TS TD", "KS KD", "AH TC")])
    ann = annotate_play(setup, parse_cards("AS TS KS TC AD TD KD AH"), players=["A", "B", "C", "D"])
    d = ann.decisions[3]
    assert {str(c): v for c, v in d.values.items()} == {"AH": 71, "TC": 36}
    assert d.cost == 0 and d.swing is not None
    assert (d.swing.before, d.swing.after) == ("durchmarsch", "undecided")  # as `solve --seat` says, not "open"


# --------------------------------------------------------------------------------------------------------------
# A finished hand: the outcome is the scored result (what `show` prints), seen from the side or seat.



def test_finished_ramsch_outcome_is_the_scored_result() -> None:
    # RULES.md: "Ramsch: the loser pays 10 to each other player ... one player taking every trick (*Durchmarsch*)
    # wins, paid like a schwarz solo". A's Durchmarsch: each other player pays him, so each of them lost.
    fin = parse_record(RAMSCH_SWEEP.replace("[hands]", f"play = {SWEEP_PLAY}\n[hands]"))
    assert {p: solve_record(fin, seat=p, line=False)["outcome"] for p in fin.players} == \
        {"A": "durchmarsch", "B": "loser", "C": "loser", "D": "loser"}
    # Resi has the most points (50): she pays the three others, who did not lose.
    rec = load_record(EXAMPLES / "ramsch-finished.toml")
    assert score(rec.state()).to_dict(rec.players)["outcome"] == "loser:Resi"
    assert {p: solve_record(rec, seat=p, line=False)["outcome"] for p in rec.players} == \
        {"Sepp": "not-loser", "Vroni": "not-loser", "Hias": "not-loser", "Resi": "loser"}


def test_finished_leaster_outcome_is_the_scored_result() -> None:
    # RULES.md: "Leaster: ... the fewest points wins but the winner must have taken at least one trick". Eve wins
    # with 25 points; Ann and Cal (0 points) took no trick; Bob (28) and Dee (67) took tricks and lost.
    rec = load_record(EXAMPLES / "leaster-finished.toml")
    result = score(rec.state())
    assert (result.to_dict(rec.players)["outcome"], result.points, result.tricks) == \
        ("winner:Eve", (0, 28, 0, 67, 25), (0, 1, 0, 3, 2))
    assert {p: solve_record(rec, seat=p, line=False)["outcome"] for p in rec.players} == \
        {"Ann": "no-trick", "Bob": "loser", "Cal": "no-trick", "Dee": "loser", "Eve": "winner"}


@pytest.mark.parametrize("game", [make_game("ramsch"), make_game("ramsch", rules={"ramsch_ties": "nobody"}),
                                  make_game("ramsch", deck="short"), make_game("leaster")],
                         ids=["ramsch", "ramsch-ties-nobody", "ramsch-short", "leaster"])
def test_finished_seat_outcomes_agree_with_the_payments(game) -> None:
    # Random finished hands, every seat: the outcome never stays undecided and says what the scorer pays.
    rng = random.Random(f"finished/{game.name}/{len(game.deck)}/{game.rules.get('ramsch_ties')}")
    solver = Solver()
    seen = set()
    for _ in range(300):
        state = random_position(random_setup(game, rng), rng, cards_left=0)
        result = score(state)
        for seat in range(game.seats):
            obj = Objective.for_setup(state.setup, seat=seat)
            out = outcome_of(solver, state, obj, obj.final_value(state))
            seen.add(out)
            pay, tricks = result.payments[seat], result.tricks[seat]
            if game.kind == "ramsch":
                assert out in ("durchmarsch", "loser", "tie", "not-loser")
                assert (out == "loser") == (pay < 0)
                assert (out == "durchmarsch") == (tricks == game.tricks)
                if out == "tie":
                    assert not any(result.payments)
            else:
                assert out in ("winner", "loser", "tie", "no-trick")
                assert (out == "winner") == (pay > 0)
                assert (out == "no-trick") == (tricks == 0)
                fewest = min(p for p, t in zip(result.points, result.tricks) if t)
                if out == "tie":
                    assert pay == 0 and result.points[seat] == fewest
                if out == "loser":
                    assert result.points[seat] > fewest
    assert seen >= ({"loser", "not-loser"} if game.kind == "ramsch" else {"winner", "loser", "no-trick", "tie"})
    if game.rules.get("ramsch_ties") == "nobody":
        assert "tie" in seen


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*-finished.toml")
                                        if p.stem.split("-")[0] not in ("ramsch", "leaster")))
def test_finished_two_sided_examples_give_the_scored_outcome(name) -> None:
    rec = load_record(EXAMPLES / f"{name}.toml")
    assert rec.state().finished and rec.game.two_sided
    assert solve_record(rec, line=False)["outcome"] == score(rec.state()).outcome


def test_finished_two_sided_random_hands_give_the_scored_outcome() -> None:
    rng = random.Random("finished/two-sided")
    solver = Solver()
    for game in game_forms():
        if not game.two_sided:
            continue
        for _ in range(4):
            state = random_position(random_setup(game, rng), rng, cards_left=0)
            obj = Objective.for_setup(state.setup)
            assert outcome_of(solver, state, obj, obj.final_value(state)) == score(state).outcome, game.name


def test_bury_and_solve_agree_on_what_a_side_has_without_a_trick() -> None:
    # RULES.md: "The bury counts for the picker's side (*option*: only if that side took a trick)". Without a trick
    # the 4-hand picker has his 43-point bury, so at 43 points (and below) the outcome turns on the tricks
    # (schwarzed or not), above it not; with bury_needs_trick he has nothing without a trick.
    from sheepsolve.judge import no_trick_points, trick_readings

    for text, floor in ((SH4_BURY_NO_TRICK, 43),
                        (SH4_BURY_NO_TRICK.replace("[hands]", "[rules]\nbury_needs_trick = true\n[hands]"), 0)):
        setup = parse_record(text).setup()
        assert no_trick_points(Objective.for_setup(setup)) == floor
        g = setup.game
        assert trick_readings(g, floor, floor=floor, total=120, tricks=7) == (1, 0)
        assert trick_readings(g, floor + 1, floor=floor, total=120, tricks=7) == (None,)
        assert trick_readings(g, 120, floor=floor, total=120, tricks=7) == (7, 6)


def test_hands_dealt_mid_hand_count_their_own_tricks_and_points():
    """A setup dealt mid-hand (the last tricks of a hand, say, as a puzzle) has fewer tricks and points in play
    than the game: taking every one of them is a won tout and a schwarz, as ``bury`` already counts them."""
    solver = Solver()
    for game, hands, want in [
        # the soloist's three jacks take all three tricks: a won wenz tout
        (make_game("wenz", tout=True), ("JC JS JH", "AS KS 9S", "AH KH 9H", "AC KC 9C"), "win"),
        # the picker's two top queens take both tricks: schwarz, with 33 of the points in play
        (make_game("sheepshead"), ("QC QS", "JD 7C", "AS 8S", "TH 9H", "KC 8C"), "schwarz"),
    ]:
        setup = Setup.create(game, [parse_cards(h) for h in hands], declarer=0)
        state = setup.start()
        assert in_play(setup)[0] == len(hands[0].split())
        value = solver.value(state)
        assert outcome_of(solver, state, Objective.for_setup(setup), value) == want
        assert annotate_play(setup, solver.best_line(state)).summary.deal_outcome == want
