"""``sheepsolve annotate``: every decision against the reference minimax, cost and swing semantics, the bury and
call judgement, the JSON shape and the command line.

The reference (:mod:`sheepsolve.reference`) is a plain minimax over the rules engine, so it is used on small
positions: whole annotations of positions dealt with 2 or 3 cards a hand, and the last tricks of full hands.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES

from sheepsolve.annotate import AnnotateError, annotate_play, annotate_record
from sheepsolve.render.annotate import render_html, render_text, summary_text
from sheepsolve.cards import Card, parse_cards
from sheepsolve.cli import main
from sheepsolve.deals import game_forms, random_position, random_setup
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.record import load_record, record_from_dict
from sheepsolve.reference import reference_card_values
from sheepsolve.scoring import outcome_for
from sheepsolve.solver import Solver

BLUNDER = EXAMPLES / "annotate-blunder-sheepshead.toml"
SWING = EXAMPLES / "annotate-swing-sauspiel.toml"
DECIDED = EXAMPLES / "annotate-decided-solo.toml"


def _states(ann):
    """The position before every decision of an annotation."""
    s = ann.setup.start()
    out = []
    for d in ann.decisions:
        out.append(s)
        s = s.play(d.card)
    return out


def _check_against_reference(ann, only_last: int | None = None) -> int:
    """Every analysed decision (of the last ``only_last`` tricks) against the reference; returns how many."""
    g = ann.game
    n = 0
    for d, s in zip(ann.decisions, _states(ann)):
        if only_last is not None and d.trick <= g.tricks - only_last:
            continue
        assert d.legal == tuple(s.legal())
        assert s.to_move == d.seat
        if d.forced:
            assert len(d.legal) == 1 and d.values == {} and d.cost == 0 and d.swing is None
            continue
        ref = reference_card_values(s, seat=None if g.two_sided else d.seat)
        assert d.values == ref, (g.name, d)
        maxing = g.two_sided and d.seat in ann.setup.team
        best = max(ref.values()) if maxing else min(ref.values())
        assert d.value == best
        assert d.after == ref[d.card]
        assert d.cost == (best - ref[d.card] if maxing else ref[d.card] - best) >= 0
        assert set(d.best) == {c for c, v in ref.items() if v == best}
        n += 1
    return n


# --------------------------------------------------------------------------------------------------------------
# Against the reference minimax.


def _small_setup(g, rng, cards_left):
    """A setup dealt mid-hand: a random full deal played at random until every hand holds ``cards_left``."""
    while True:
        st = random_setup(g, rng)
        s = random_position(st, rng, cards_left=cards_left)
        if st.called is not None and not any(st.called in h for h in s.hands):
            continue  # the called card is gone: not a position a setup can start from
        return dataclasses.replace(st, hands=s.hands, first_leader=s.leader)


def _random_play(setup, rng):
    s = setup.start()
    out = []
    while not s.finished:
        c = rng.choice(s.legal())
        out.append(c)
        s = s.play(c)
    return out


# Leaster is left to the full example below: its blind goes to the winner of a trick counted from a full hand,
# which a setup dealt mid-hand does not have (the objective and the core's tables read it differently there).
FORMS = [g for g in game_forms() if g.kind != "leaster"]


@pytest.mark.parametrize("game", FORMS, ids=lambda g: f"{g.name}-{g.partner}-{g.trump_suit or ''}-{len(g.deck)}")
def test_small_positions_match_reference(game):
    rng = random.Random(f"annotate/{game.name}/{game.partner}/{game.trump_suit}/{len(game.deck)}")
    solver = Solver(4)
    checked = 0
    for _ in range(2):
        setup = _small_setup(game, rng, 2 if game.seats == 5 else 3)
        ann = annotate_play(setup, _random_play(setup, rng), solver=solver)
        assert ann.finished and len(ann.decisions) == sum(len(h) for h in setup.hands)
        checked += _check_against_reference(ann)
    assert checked > 0


@pytest.mark.parametrize("name", ["annotate-blunder-sheepshead", "annotate-swing-sauspiel", "annotate-decided-solo",
                                  "sheepshead-called-ace-under-finished", "sheepshead-alone-finished",
                                  "wenz-finished", "leaster-finished"])
def test_full_hands_last_tricks_match_reference(name):
    rec = load_record(EXAMPLES / f"{name}.toml")
    ann = annotate_record(rec, judge_bury=False)
    assert ann.finished and len(ann.decisions) == rec.game.seats * rec.game.tricks
    assert _check_against_reference(ann, only_last=2 if rec.game.seats == 3 else 3) > 0


# --------------------------------------------------------------------------------------------------------------
# Semantics: the value chain, cost, swings, forced plays.


def _check_chain(ann):
    """Two-sided: the value after a card is the value before the next; the summary adds up."""
    prev = ann.summary.deal_value
    for d in ann.decisions:
        assert d.value == prev, d
        assert d.cost >= 0
        assert (d.card in d.best) == (d.cost == 0)
        assert d.mark == ("??" if d.swing else "?" if d.cost else "")
        prev = d.after
    sm = ann.summary
    assert sm.result_value == prev
    assert sm.given_away == sm.deal_value - sm.result_value == sm.declaring_cost - sm.defending_cost
    assert sum(p.given_away for p in sm.players) == sm.declaring_cost + sm.defending_cost


@pytest.mark.parametrize("path", [BLUNDER, SWING, DECIDED, EXAMPLES / "sheepshead-called-ace-finished.toml",
                                  EXAMPLES / "geier-finished.toml"])
def test_value_chain_and_summary(path):
    ann = annotate_record(load_record(path), judge_bury=False)
    _check_chain(ann)
    assert ann.summary.deal_value == Solver().value(ann.setup.start())


def test_blunder_example():
    ann = annotate_record(load_record(BLUNDER))
    errs = [(d.trick, d.player, str(d.card), d.cost, d.mark, d.side) for d in ann.decisions if d.error]
    # Dee (defender) throws the ten of hearts on Ann's winning ace instead of trumping: his cost is how much the
    # declaring side's value went *up*.
    assert errs == [(3, "Dee", "TH", 19, "?", "defending"), (4, "Ann", "TC", 3, "?", "declaring")]
    dee = next(d for d in ann.decisions if d.player == "Dee" and d.trick == 3)
    assert dee.values[dee.card] - dee.value == 19 and [str(c) for c in dee.best] == ["QS"]
    sm = ann.summary
    assert (sm.deal_value, sm.result_value, sm.given_away) == (68, 84, -16)
    assert (sm.declaring_cost, sm.defending_cost) == (3, 19)
    players = {p.player: p for p in sm.players}
    assert players["Dee"].given_away == 19 and players["Dee"].errors == 1 and players["Dee"].largest is dee
    assert ann.bury is not None and ann.bury.cost == 0 and ann.bury.swing is None
    # the record's result agrees with the scorer
    assert sm.outcome == "win" and sm.result_outcome == "win"


def test_swing_example():
    ann = annotate_record(load_record(SWING))
    errs = [d for d in ann.decisions if d.error]
    assert len(errs) == 1
    d = errs[0]
    assert (d.trick, d.player, str(d.card), d.cost, d.mark) == (3, "Sepp", "QD", 9, "??")
    assert (d.swing.before, d.swing.after) == ("win", "loss")
    assert (d.swing.payment_before, d.swing.payment_after) == (10, -10)
    sm = ann.summary
    assert (sm.deal_outcome, sm.result_outcome, sm.result_value) == ("win", "loss", 59)
    assert (sm.deal_payment, sm.result_payment) == (10, -10)
    assert ann.bury is not None and ann.bury.kind == "call" and ann.bury.exact  # two calls: both solved


def test_decided_example_flags_nothing():
    ann = annotate_record(load_record(DECIDED))
    assert not any(d.error or d.mark for d in ann.decisions)
    assert all(p.errors == 0 and p.given_away == 0 for p in ann.summary.players)
    assert ann.summary.deal_value == ann.summary.result_value == 120
    assert ann.bury is None  # a solo has no bury or call
    text = render_text(ann, "ascii")
    assert "?" not in text.split("trick  player")[1]


def test_defender_cost_and_swing():
    # Hearts solo dealt with three cards each. In trick 2 the defender Vroni, void in clubs, keeps his ten of
    # spades instead of throwing it on his partner's winning ace: the soloist's value goes from 52 to 62 and the
    # defenders' won game is lost.
    g = make_game("solo", trump="H")
    hands = [parse_cards(h) for h in ("9C AS AH", "TC TS 9S", "7S AD TD", "AC 8S TH")]
    setup = Setup.create(g, hands, declarer=0)
    ann = annotate_play(setup, parse_cards("AH TC 7S TH 9C 9S AD AC 8S AS TS TD"),
                        players=["Sepp", "Vroni", "Hias", "Resi"])
    d = ann.decisions[5]
    assert (d.player, str(d.card), d.side) == ("Vroni", "9S", "defending")
    assert d.values == {Card.parse("TS"): 52, Card.parse("9S"): 62}
    assert (d.value, d.after, d.cost, d.best, d.mark) == (52, 62, 10, (Card.parse("TS"),), "??")
    assert (d.swing.before, d.swing.after) == ("loss", "win")  # the declaring side's outcome, as the scorer says
    assert (d.swing.payment_before, d.swing.payment_after) == (-50, 50)
    assert outcome_for(g, 52) == "loss" and outcome_for(g, 62) == "win"
    _check_chain(ann)
    assert _check_against_reference(ann) == sum(1 for x in ann.decisions if not x.forced)
    vroni = next(p for p in ann.summary.players if p.player == "Vroni")
    assert (vroni.given_away, vroni.errors, vroni.swings, vroni.largest) == (10, 1, 1, d)


def test_ramsch_costs_are_the_movers_own_points():
    rec = load_record(EXAMPLES / "ramsch-finished.toml")
    setup = rec.setup()
    plays = [c for t in rec.play for c in t]
    # play a card that is not the seat's best somewhere in the last trick but one
    s = setup.start()
    for c in plays[:24]:
        s = s.play(c)
    small = dataclasses.replace(setup, hands=s.hands, first_leader=s.leader)
    rng = random.Random(5)
    ann = annotate_play(small, _random_play(small, rng), players=rec.players)
    assert ann.declaring == () and not ann.two_sided
    for d in ann.decisions:
        assert d.side == "self"
        if not d.forced:
            assert d.value == min(d.values.values()) and d.cost == d.after - d.value
    assert _check_against_reference(ann) > 0
    assert ann.summary.deal_value is None and ann.summary.points is not None


def test_forced_plays_are_listed():
    ann = annotate_record(load_record(SWING), judge_bury=False)
    forced = [d for d in ann.decisions if d.forced]
    assert forced and all(len(d.legal) == 1 and d.values == {} and d.cost == 0 for d in forced)
    assert [d.index for d in ann.decisions] == list(range(32))


def test_unfinished_record_annotated_as_far_as_it_goes():
    rec = load_record(EXAMPLES / "sheepshead-jd-midtrick.toml")
    ann = annotate_record(rec)
    played = sum(len(t) for t in rec.play)
    assert not ann.finished and len(ann.decisions) == played
    assert ann.summary.result_value == Solver().value(rec.state())
    assert "unfinished" in summary_text(ann)
    _check_chain(ann)


def test_partial_record_refused():
    rec = load_record(EXAMPLES / "sheepshead-jd-partial.toml")
    with pytest.raises(AnnotateError, match="needs every hand"):
        annotate_record(rec)


def test_sie_has_nothing_to_judge():
    ann = annotate_record(load_record(EXAMPLES / "sie.toml"))
    assert ann.decisions == () and "sie" in summary_text(ann)


# --------------------------------------------------------------------------------------------------------------
# The bury and the call.


def test_bury_best_is_real_and_cost_matches():
    rec = load_record(EXAMPLES / "sheepshead-called-ace-finished.toml")
    ann = annotate_record(rec)
    b = ann.bury
    assert b.kind == "bury and call" and b.compared == "buries and partner calls"
    assert b.chosen.value == ann.summary.deal_value == 73
    assert b.best_value == 85 and b.cost == 12 and b.mark == "?" and b.swing is None  # win either way
    best = b.best[0]
    assert best.exact and best.call is not None and not best.alone
    setup = Setup.create(rec.game, [list(h) for h in rec.hands], declarer=rec.declarer, blind=rec.blind,
                         bury=best.bury, called=best.call, under=best.under)
    assert Solver().value(setup.start()) == 85
    # a lone picker is not compared with partner calls, only listed
    assert all(not o.alone for o in b.options) and b.others and all(o.alone for o in b.others)


def test_bury_threshold_bounds_agree_with_exact():
    rec = load_record(BLUNDER)
    quick = annotate_record(rec).bury
    exact = annotate_record(rec, exact_bury=True).bury
    assert quick.best_value == exact.best_value and quick.cost == exact.cost == 0
    assert len(quick.options) == len(exact.options) == 28
    true = {(o.bury, o.call, o.under): o.value for o in exact.options}
    assert all(o.exact for o in exact.options)
    for o in quick.options:
        key = (o.bury, o.call, o.under)
        assert (true[key] == o.value) if o.exact else (true[key] <= o.value)


# --------------------------------------------------------------------------------------------------------------
# JSON and text.


def test_json_shape():
    ann = annotate_record(load_record(SWING))
    data = json.loads(json.dumps(ann.to_dict()))
    assert {"decisions", "bury", "summary", "game", "players", "declaring", "finished", "scale"} <= set(data)
    d0 = data["decisions"][0]
    assert {"trick", "player", "card", "legal", "values", "best", "cost", "swing", "forced"} <= set(d0)
    assert d0["trick"] == 1 and d0["player"] == "Sepp" and d0["card"] == "TC"
    assert set(d0["values"]) == set(d0["legal"]) and all(isinstance(v, int) for v in d0["values"].values())
    swing = next(d for d in data["decisions"] if d["swing"])
    assert swing == {**swing, "trick": 3, "card": "QD", "cost": 9, "mark": "??",
                     "swing": {"from": "win", "to": "loss", "payment_from": 10, "payment_to": -10}}
    assert data["decisions"][1]["forced"] is True and data["decisions"][1]["values"] == {}
    sm = data["summary"]
    assert sm["deal_value"] == 68 and sm["result_value"] == 59 and sm["given_away"] == 9
    assert sm["players"]["Sepp"]["largest"] == {"trick": 3, "card": "QD", "cost": 9, "best": ["8C", "9D", "7D"]}
    assert data["bury"]["chosen"]["call"] == "AC" and data["bury"]["cost"] == 0
    # the values are on the scale of `solve --json`
    rec = load_record(SWING)
    cut = record_from_dict({**rec.to_dict(), "play": [" ".join(map(str, t)) for t in rec.play[:2]]})
    from sheepsolve.analysis import solve_record
    solved = solve_record(cut, line=False)
    first_of_trick3 = next(d for d in data["decisions"] if d["trick"] == 3)
    assert solved["cards"] == first_of_trick3["values"]


def test_text_marks_and_min_cost():
    ann = annotate_record(load_record(BLUNDER))
    full = render_text(ann, "ascii")
    assert "TH" in full and "19  ?" in full and "forced" in full and "Cal 16" in full
    only = render_text(ann, "ascii", min_cost=10)
    rows = only.split("trick  player")[1].split("\n\n")[0].strip().splitlines()[1:]
    assert len(rows) == 1 and "Dee" in rows[0] and "19" in rows[0]
    assert "No decision cost 50 or more." in render_text(ann, "ascii", min_cost=50)
    colored = render_text(ann, "color", color=True, min_cost=10)
    assert "\x1b[" in colored and "\x1b[" not in full


def test_html_is_self_contained():
    page = render_html(annotate_record(load_record(SWING)))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<style>" in page and "<svg" in page
    for bad in ("http://", "https://", "<script", "<link", "src="):
        assert bad not in page
    assert "changed the result" in page and "e2" in page  # the ?? card is highlighted


# --------------------------------------------------------------------------------------------------------------
# The command line.


def test_cli_text_json_html_min_cost(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["annotate", str(SWING)])
    assert r.exit_code == 0, r.output
    assert "??" in r.output and "win -> loss" in r.output and "\x1b[" not in r.output
    r = runner.invoke(main, ["annotate", str(SWING), "--json", "--no-bury"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert len(data["decisions"]) == 32 and data["bury"] is None
    r = runner.invoke(main, ["annotate", str(BLUNDER), "--json", "--min-cost", "5"])
    assert [(d["player"], d["cost"]) for d in json.loads(r.output)["decisions"]] == [("Dee", 19)]
    r = runner.invoke(main, ["annotate", str(BLUNDER), "--min-cost", "3"])
    assert r.exit_code == 0 and "Dee" in r.output and "10♣" in r.output
    out = tmp_path / "hand.html"
    r = runner.invoke(main, ["annotate", str(DECIDED), "--html", str(out)])
    assert r.exit_code == 0 and out.exists() and "<html" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (["annotate", str(EXAMPLES / "sheepshead-jd-partial.toml")], "needs every hand"),
    (["annotate", "no-such-file.toml"], "no-such-file.toml"),
    (["annotate", str(EXAMPLES / "annotate-swing-sauspiel.toml"), "--html", "/no/such/dir/x.html"], "x.html"),
])
def test_cli_bad_input_exit_2(args, message):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert "error:" in r.output and message in r.output and "Traceback" not in r.output


def test_cli_bad_record_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "sauspiel"\ndeclarer = "9"\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["annotate", str(bad)])
    assert r.exit_code == 2 and r.output.startswith("error:")


@pytest.mark.parametrize("name", ["sheepshead-jd-finished", "annotate-decided-solo", "annotate-blunder-sheepshead",
                                  "sauspiel-short-deck-finished", "wenz-tout-finished"])
def test_outcomes_agree_with_solve(name):
    # annotate asks for a trick search only where tricks can matter; solve --json always decides by outcome_of
    from sheepsolve.judge import Judge, outcome_of
    from sheepsolve.scoring import Stakes

    rec = load_record(EXAMPLES / f"{name}.toml")
    setup = rec.setup()
    judge = Judge(setup, Stakes(), Solver(4))
    obj = Objective.for_setup(setup)
    s = setup.start()
    bury = obj.bury_points
    values = sorted({0, 1, 29, 30, 31, 60, 61, 90, 91, 119, 120, bury, bury + 1} - {-1})
    other = Solver(4)
    for i, t in enumerate(rec.play[:4]):
        for c in t:
            s = s.play(c)
        if i % 2:
            for v in values:
                assert judge.outcome(s, v) == outcome_of(other, s, obj, v), (name, v)


@pytest.mark.parametrize("partner,i", [("called-ace", 3), ("jack-of-diamonds", 5)])
def test_bury_options_are_judged_with_their_own_side_and_bury(partner, i):
    """Each option of the bury judgement gets the outcome of its own setup: its partner (another call, or
    alone) and its own buried points decide whether a low value is schwarzed and a full one schwarz. The
    bury tool's evaluation of the same setup is the reference (its payment is the picker's whole, not each
    defender's)."""
    from sheepsolve import bury as B
    from sheepsolve.bury import evaluation as BE
    from sheepsolve.deals import deal
    from sheepsolve.scoring import Stakes
    g = make_game("sheepshead", partner=partner)
    hands, blind = deal(g, random.Random(f"bb/{i}"))
    p = max(range(5), key=lambda s: sum(g.is_trump(c) for c in hands[s] + blind))
    d = B.legal_decisions(g, hands[p] + blind, [c for s, h in enumerate(hands) if s != p for c in h])[0]
    ann = annotate_play(BE.setup_for(g, hands, blind, p, d), [], exact_bury=True)
    solver = Solver()
    checked = 0
    for o in ann.bury.options + ann.bury.others:
        st = Setup.create(g, [sorted(h, key=int) for h in hands], declarer=p, blind=blind, bury=o.bury,
                          called=o.call, under=o.under, alone=o.alone)
        e = BE.evaluate(solver, st, Stakes())
        assert (o.value, o.outcome) == (e.value, e.outcome), o
        checked += o.outcome in ("schwarzed", "schwarz")
    assert checked  # the deal has trick results to get right


@pytest.mark.parametrize("path", [SWING, BLUNDER, EXAMPLES / "sheepshead-called-ace-finished.toml"], ids=lambda p: p.stem)
def test_annotate_view_player_text_fits_a_terminal(path: Path, run) -> None:
    """Issue 34: annotate --view player's text ran 156 to 161 columns wide (a 293-column legend): it is wrapped to
    100 columns, and every legal card's value is still listed."""
    r = run("annotate", path, "--view", "player", "--worlds", "4", "--jobs", "1", "--cards", "ascii")
    assert r.exit_code == 0, r.output
    assert max(len(line) for line in r.output.splitlines()) <= 100, max(r.output.splitlines(), key=len)
    data = json.loads(run("annotate", path, "--json").output)
    words = r.output.split()
    for d in data["decisions"]:
        for card, value in (d.get("values") or {}).items():
            assert card in words and str(value) in words
