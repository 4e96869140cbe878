"""The worlds of ``pick``, ``choose`` and ``bury --view picker`` weighed by the record's own ``auction``: the calls
made before the seat's decision (issue 36, build item 6), not the passes the rules imply.

- Exact: with every deal solved, a contract's payment is the average over the deals weighted by the likelihood of
  the given calls, computed here from the model of the calls, and not the passes' average.
- The commands: a record whose auction says an earlier seat wished to play (or knocked) changes the line that says
  what the worlds assume and the answers; without an ``auction`` key the answers are the implied passes'.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from sheepsolve import bury as B
from sheepsolve.bury import evaluation as BE
from sheepsolve.games import make_game
from sheepsolve.inference.auction import KLOPFEN, PASS, PICK, PLAY, Auction, Call, read_auction
from sheepsolve.inference.likelihood import AuctionLikelihood
from sheepsolve.weighting import calls_before

from test_bury import _every_deal, _reference


def _weighted_mean(xs, ws):
    return math.fsum(w * x for x, w in zip(xs, ws)) / math.fsum(ws)


PLAYERS = ("Sepp", "Vroni", "Hias", "Resi")


def test_calls_before_are_the_calls_up_to_the_seats_own_decision():
    g = make_game("solo", trump="C")
    a = read_auction(["Vroni: klopfen", "Sepp: play", "Vroni: weiter", "Hias: weiter", "Resi: play", "Sepp: wenz",
                      "Resi: solo C"], game=g, players=PLAYERS, declarer=3, doublers=1)
    said = lambda s: [c.text(PLAYERS, "schafkopf") for c in calls_before(a, s)]  # noqa: E731
    assert said(3) == ["Vroni: klopfen", "Sepp: play", "Vroni: weiter", "Hias: weiter"]
    assert said(0) == ["Vroni: klopfen"]  # the knock came before the bidding
    assert said(2) == ["Vroni: klopfen", "Sepp: play", "Vroni: weiter"]
    sh = make_game("sheepshead")
    names = ("Ann", "Bob", "Cal", "Dee", "Eve")
    a = read_auction(["Ann: pass", "Bob: pick", "Cal: crack"], game=sh, players=names, declarer=1, crack=True)
    assert [c.kind for c in calls_before(a, 1)] == [PASS]
    assert [c.kind for c in calls_before(a, 0)] == []
    assert [c.kind for c in calls_before(a, 3)] == [PASS]  # Dee never decided: the bidding before the pick


def test_exact_choose_is_the_average_weighted_by_the_given_calls():
    sk = make_game("sauspiel")
    rng = random.Random("sauspiel-32")
    cards = list(sk.deck)
    rng.shuffle(cards)
    hand, unseen = sorted(cards[:2]), cards[2:8]
    contracts = [B.Contract("solo", "H"), B.Contract("wenz"), B.Contract("geier", tout=True)]
    seat = 2
    calls = (Call(0, PLAY), Call(1, PASS))  # the first seat wished to play, the second said weiter
    c = B.choose_contract(sk, hand, seat, worlds="all", contracts=contracts, unseen=unseen, inference="auction",
                          calls=calls, players=PLAYERS)
    old = B.choose_contract(sk, hand, seat, worlds="all", contracts=contracts, unseen=unseen, inference="auction",
                            players=PLAYERS)
    like = AuctionLikelihood(Auction(sk, calls, True))
    passes = AuctionLikelihood(Auction(sk, (Call(0, PASS), Call(1, PASS)), False))
    hands_of = [[d[0], d[1], hand, d[2]] for d in _every_deal(unseen, [2, 2, 2])]
    ws = [like(hs) for hs in hands_of]
    ws_old = [passes(hs) for hs in hands_of]
    assert c.assumes == "deals weighted by the calls before Hias (Sepp: play, Vroni: weiter) through the model of the calls"
    assert old.assumes.startswith("deals weighted by the passes before Hias (Sepp: weiter, Vroni: weiter)")
    moved = 0.0
    for row in c.rows:
        refs = [_reference(BE.contract_setup(sk, hs, seat, row.contract))[2] for hs in hands_of]
        assert row.stats.payment == pytest.approx(_weighted_mean(refs, ws))
        moved = max(moved, abs(_weighted_mean(refs, ws) - _weighted_mean(refs, ws_old)))
    assert moved > 1.0  # the wish to play tells, and this test would not pass with the passes' weights


def test_no_calls_before_the_seat_is_uniform():
    sk = make_game("sauspiel")
    fn_label = B.choose_contract(sk, sorted(sk.deck[:2]), 2, worlds="all", unseen=list(sk.deck[2:8]),
                                 contracts=[B.Contract("wenz")], inference="auction", calls=())
    assert fn_label.inference == "none" and fn_label.assumes == "every deal is equally likely (nobody called before)"


def _record(tmp_path, name, auction=None, doublers=0):
    text = (
        'game = "solo"\ntrump = "C"\nplayers = ["Sepp", "Vroni", "Hias", "Resi"]\ndeclarer = "Resi"\n'
        + (f"doublers = {doublers}\n" if doublers else "")
        + (f"auction = {json.dumps(auction)}\n" if auction is not None else "")
        + '[hands]\nSepp = "KC 9S 7S KH 8H KD 8D 7D"\nVroni = "JC TS QS JS 8S 7H JD 9D"\n'
        'Hias = "TC 7C AS KS TH QH 9H TD"\nResi = "AC QC 9C 8C AH JH AD QD"\n')
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_choose_reads_the_records_auction(run, tmp_path):
    """The audit's fault: with an explicit auction ``choose`` still assumed every seat before said weiter."""
    def choose(path):
        res = run("choose", path, "--worlds", "30", "--jobs", "1", "--json")
        assert res.exit_code == 0, res.output
        d = json.loads(res.output)
        d.pop("seconds", None)
        return d

    plain = choose(_record(tmp_path, "plain.toml"))
    passes = choose(_record(tmp_path, "passes.toml", ["Sepp: weiter", "Vroni: weiter", "Hias: weiter",
                                                      "Resi: solo C"]))
    played = choose(_record(tmp_path, "played.toml", ["Sepp: play", "Vroni: weiter", "Hias: weiter", "Resi: play",
                                                      "Sepp: wenz", "Resi: solo C"]))
    knocked = choose(_record(tmp_path, "knocked.toml", ["Vroni: klopfen", "Sepp: play", "Vroni: weiter",
                                                        "Hias: weiter", "Resi: play", "Sepp: wenz", "Resi: solo C"],
                             doublers=1))
    assert "passes before Resi (Sepp: weiter, Vroni: weiter, Hias: weiter)" in plain["assumes"]
    assert "calls before Resi (Sepp: weiter, Vroni: weiter, Hias: weiter)" in passes["assumes"]
    assert "calls before Resi (Sepp: play, Vroni: weiter, Hias: weiter)" in played["assumes"]
    assert "calls before Resi (Vroni: klopfen, Sepp: play, Vroni: weiter, Hias: weiter)" in knocked["assumes"]
    assert played["inference"] == "auction"
    pay = lambda d: [(r["contract"], r["payment"]) for r in d["contracts"]]  # noqa: E731
    assert pay(passes) == pay(plain)  # the same calls weigh the same
    assert pay(played) != pay(plain)  # a wish to play before the seat weighs the worlds otherwise


def test_pick_and_bury_read_the_records_auction(run, example, tmp_path):
    src = example("bury-jd-full.toml").read_text()
    assert "auction" not in src and 'players = ["Ann", "Bob", "Cal", "Dee", "Eve"]' in src and 'picker = "Bob"' in src
    path = tmp_path / "jd.toml"
    path.write_text(src.replace('picker = "Bob"\n', 'picker = "Bob"\nauction = ["Ann: pass", "Bob: pick"]\n'))
    weighed = "deals weighted by the {} before {} ({}) through the model of the calls"
    for cmd, seat, old, new in ((["pick", "--seat", "Bob"], "Bob", "Ann: pass", "Ann: pass"),
                                (["bury", "--view", "picker"], "Bob", "Ann: pass", "Ann: pass"),
                                # Cal never decided: Bob picked before him, and the implied auction had him pass
                                (["pick", "--seat", "Cal"], "Cal", "Ann: pass, Bob: pass", "Ann: pass")):
        got = [run(cmd[0], str(f), *cmd[1:], "--worlds", "10", "--jobs", "1", "--json") for f in
               (example("bury-jd-full.toml"), path)]
        assert all(r.exit_code == 0 for r in got), [r.output for r in got]
        a, b = (json.loads(r.output) for r in got)
        assert a["assumes"] == weighed.format("passes", seat, old)
        assert b["assumes"] == weighed.format("calls", seat, new)


# --------------------------------------------------------------------------------------------------------------
# A contract the model has no table for (a Bettel) weighs 1, and the worlds' line says so


def test_a_bettel_call_weighs_one_and_the_other_calls_still_weigh():
    from sheepsolve.inference.auction import CONTRACT, ContractCall
    from sheepsolve.inference.model import call_probability, weighs_contract

    g = make_game("bettel")
    bettel = Call(2, CONTRACT, ContractCall("bettel"))
    solo = Call(0, CONTRACT, ContractCall("solo", "H"))
    assert not weighs_contract(g, bettel.contract) and weighs_contract(g, solo.contract)
    rng = random.Random("bettel-1")
    like = AuctionLikelihood(Auction(g, (Call(0, PASS), Call(1, PLAY), bettel), True))
    alone = AuctionLikelihood(Auction(g, (bettel,), True))
    assert like.unweighed == {bettel} and like.weighs_any and not alone.weighs_any
    passes = AuctionLikelihood(Auction(g, (Call(0, PASS), Call(1, PLAY)), True))
    for _ in range(20):
        cards = list(g.deck)
        rng.shuffle(cards)
        hands = [cards[8 * s:8 * s + 8] for s in range(4)]
        assert call_probability(g, bettel, hands[2]) == 1.0 == alone(hands)  # was 0 in every world
        assert like(hands) == passes(hands) > 0  # the others' calls still weigh


def test_the_bettel_record_says_what_was_weighed(run, example):
    """The audit's fault: every world weighed 0 for the Bettel call, the sampler fell back to uniform worlds, and the
    output still said the worlds were weighted by the auction, Hias's Bettel included."""
    from sheepsolve.record import load_record
    from sheepsolve.weighting import AuctionWeights, world_weights
    from sheepsolve.worlds import Knowledge, WorldSampler

    res = run("suggest", str(example("bettel-finished.toml")), "--at", "2", "--worlds", "20", "--jobs", "1", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert "Hias: Bettel (not weighed: no model)" in d["assumes"] and d["inference"] == "auction"
    rec = load_record(str(example("bettel-finished.toml")))
    w = AuctionWeights(rec)
    k = Knowledge.from_record(rec, upto=4)
    ws = [w.weight(k, world) for world in WorldSampler(k).sample(30, seed=1)]
    assert min(ws) > 0 and max(ws) > 1.01 * min(ws)  # weighed by the other calls, not 0 everywhere


def test_nothing_weighed_is_said_uniform():
    from sheepsolve.inference.auction import CONTRACT, ContractCall
    from sheepsolve.weighting import weighs, world_weights

    g = make_game("bettel")
    w = world_weights(Auction(g, (Call(0, CONTRACT, ContractCall("bettel")),), True), "auction")
    assert not weighs(w) and w.label == ("every deal that fits the play is equally likely (no call weighed: "
                                         "1: Bettel (not weighed: no model))")
