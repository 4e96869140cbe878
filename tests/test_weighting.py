"""Weighted worlds: the statistics, the stratified proposal's importance weights, and the beliefs.

- Statistics: with equal weights the weighted mean and standard error are the uniform ones; the effective sample
  size is Kish's.
- Unbiased: on positions whose worlds can all be listed, the weighted sample's mean of the declarer's trumps and
  of each belief agrees with the exact weighted mean over every world within 4 standard errors, over several
  seeds; a proposal that forgot the importance weights (weights 1 on the stratified draws) fails that test.
- Where the weight is: with a weight that favours a strong declarer, the stratified proposal's effective sample
  size is well above uniform draws weighted the same way.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest

from helpers_cli import timeless
from sheepsolve import worlds as W
from sheepsolve.deals import random_position, random_setup
from sheepsolve.games import make_game
from sheepsolve.record import load_record
from sheepsolve.stats import mean_se
from sheepsolve.weighting import (FunctionWeights, WeightedSampler, beliefs, belief_cards, effective_size,
                                  weighted_mean_se)


def _strong_declarer(setup, hands) -> float:
    """A weight that favours worlds where the declarer holds many trumps (as an auction model would)."""
    g = setup.game
    p = setup.declarer
    return math.exp(0.9 * sum(1 for c in hands[p] if g.is_trump(c)))


STRONG = FunctionWeights(_strong_declarer, "test: strong declarer")


def test_equal_weights_give_the_uniform_figures():
    xs = [3.0, 7.0, 7.0, 12.0, 0.0]
    assert weighted_mean_se(xs, [2.5] * 5) == pytest.approx(mean_se(xs))
    assert weighted_mean_se([4.0], [1.0]) == (4.0, None)
    assert effective_size([1, 1, 1, 1]) == 4.0
    assert effective_size([2, 1, 1]) == pytest.approx(16 / 6)
    with pytest.raises(W.WorldsError):
        weighted_mean_se([1.0, 2.0], [0.0, 0.0])


def _small_position(game_name: str, seed: int, cards_left: int, max_worlds: int = 3000):
    g = make_game(game_name, trump="H") if game_name == "solo" else make_game(game_name)
    rng = random.Random(seed)
    for _ in range(400):
        st = random_setup(g, rng)
        s = random_position(st, rng, cards_left=cards_left)
        if s.finished:
            continue
        plays = [c for t in s.tricks for c in t.cards]
        seat = s.to_move
        if seat == st.declarer:
            continue
        k = W.Knowledge.from_setup(st, plays, seat)
        try:
            worlds = W.WorldSampler(k).all_worlds(max_worlds)
        except W.WorldsError:
            continue
        if len(worlds) >= 200:
            return k, worlds
    pytest.skip("no small position found")


def _declarer_trumps(k, w) -> int:
    return sum(1 for c in w.setup.hands[k.declarer] if k.game.is_trump(c))


@pytest.mark.parametrize("game_name, seed, left", [("solo", 1, 4), ("sauspiel", 2, 4), ("sheepshead", 3, 1),
                                                   ("wenz", 4, 4), ("sheepshead-4", 5, 2)])
def test_weighted_sample_agrees_with_the_exact_weighted_means(game_name, seed, left):
    k, worlds = _small_position(game_name, seed, left)
    exact_w = [STRONG.weight(k, w) for w in worlds]
    truth, _ = weighted_mean_se([_declarer_trumps(k, w) for w in worlds], exact_w)
    sampler = WeightedSampler(k, STRONG)
    assert sampler.stratified
    exact_b = beliefs(k, worlds, exact_w)
    zs = []
    for s in range(3):
        got, ws = sampler.sample(300, seed=s)
        m, se = weighted_mean_se([_declarer_trumps(k, w) for w in got], ws)
        zs.append(abs(m - truth) / se if se else 0.0)
        b = beliefs(k, got, ws)
        for seat in b:
            assert b[seat]["trumps"] == pytest.approx(exact_b[seat]["trumps"], abs=0.35)
    assert max(zs) < 4.0, zs


def test_forgetting_the_importance_weights_is_caught():
    k, worlds = _small_position("solo", 1, 4)
    exact_w = [STRONG.weight(k, w) for w in worlds]
    truth, _ = weighted_mean_se([_declarer_trumps(k, w) for w in worlds], exact_w)
    sampler = WeightedSampler(k, STRONG)
    got, ws = sampler.sample(400, seed=0)
    # the same draws averaged with the target's weight alone (no division by the proposal): biased high
    naive = [STRONG.weight(k, w) for w in got]
    m_ok, se_ok = weighted_mean_se([_declarer_trumps(k, w) for w in got], ws)
    m_bad, _ = weighted_mean_se([_declarer_trumps(k, w) for w in got], naive)
    assert abs(m_ok - truth) < 4 * se_ok
    assert abs(m_bad - truth) > 4 * se_ok


def test_the_proposal_puts_the_worlds_where_the_weight_is():
    rec = load_record("examples/solo-hearts-midtrick.toml")
    k = None
    for seat in range(rec.game.seats):
        if seat != rec.declarer and rec.hands[seat] is not None:
            k = W.Knowledge.from_record(rec, seat, upto=0)
            break
    assert k is not None
    sampler = WeightedSampler(k, STRONG)
    _, ws = sampler.sample(200, seed=1)
    uniform = W.WorldSampler(k).sample(200, seed=1)
    uw = [STRONG.weight(k, w) for w in uniform]
    assert effective_size(ws) > 2 * effective_size(uw)


def test_same_seed_same_weighted_worlds():
    k, _ = _small_position("sauspiel", 2, 4)
    a = WeightedSampler(k, STRONG).sample(20, seed=5)
    b = WeightedSampler(k, STRONG).sample(20, seed=5)
    assert [w.key() for w in a[0]] == [w.key() for w in b[0]] and a[1] == b[1]


def test_beliefs_sum_to_the_cards_and_name_only_unseen_cards():
    rec = load_record("examples/sauspiel-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    ws = W.WorldSampler(k).sample(100, seed=3)
    b = beliefs(k, ws)
    names = {str(c) for c in belief_cards(k.game) if c in k.unseen}
    for seat, got in b.items():
        assert set(got["cards"]) == names
        assert 0 <= got["trumps"] <= k.remaining(seat)
    for c in names:  # every unseen card is in some hand (a sauspiel has no bury)
        assert sum(b[s]["cards"][c] for s in b) == pytest.approx(1.0)
    held = sum(b[s]["trumps"] for s in b)
    unseen_trumps = sum(1 for c in k.unseen if k.game.is_trump(c))
    assert held == pytest.approx(unseen_trumps)


def test_a_constrained_knowledge_is_sampled_with_weights_too():
    from sheepsolve.constraints import parse_constraint

    k, _ = _small_position("solo", 1, 4)
    name = k.players[k.declarer]
    c = parse_constraint(f"{name}: trumps >= 1", k.game, k.players)
    kc = dataclasses.replace(k, constraints=(c,))
    got, _ = WeightedSampler(kc, STRONG).sample(50, seed=1)
    assert all(_declarer_trumps(k, w) >= 1 for w in got)


def test_inference_options_and_the_auction_weights():
    from sheepsolve.inference.likelihood import auction_likelihood
    from sheepsolve.weighting import AuctionWeights, assumption, world_weights

    rec = load_record("examples/solo-hearts-midtrick.toml")
    assert world_weights(rec, "none") is None
    with pytest.raises(W.WorldsError, match="--inference: must be one of auction, none"):
        world_weights(rec, "bidding")
    aw = world_weights(rec, "auction")
    assert isinstance(aw, AuctionWeights) and "weighted by the auction" in aw.label
    k = dataclasses.replace(W.Knowledge.from_record(rec), weights=aw)
    assert assumption(k) == aw.label
    for w in W.WorldSampler(k).sample(5, seed=2):
        direct = auction_likelihood(rec, w.setup.hands, called=w.setup.called, under=w.setup.under)
        assert aw.weight(k, w) == pytest.approx(direct)
    got, ws = WeightedSampler(k, aw).sample(100, seed=1)
    declarer = [_declarer_trumps(k, w) for w in got]
    uniform = [_declarer_trumps(k, w) for w in W.WorldSampler(k).sample(100, seed=1)]
    assert weighted_mean_se(declarer, ws)[0] > sum(uniform) / len(uniform) + 0.5  # a soloist holds trumps


def test_pick_worlds_enumerates_when_few_deals_are_possible():
    from sheepsolve.weighting import pick_worlds

    rec = load_record("examples/wenz-3-player-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    n = W.WorldSampler(k).count()
    got, ws, exact = pick_worlds(k, n + 1, seed=3)
    assert exact and ws is None and len(got) == n
    got, ws, exact = pick_worlds(k, n - 1, seed=3)
    assert not exact and len(got) == n - 1
    with pytest.raises(W.WorldsError, match="--worlds: must be 1 or more"):
        pick_worlds(k, 0)


def test_pick_and_choose_weigh_the_passes_before_the_seat(run):
    import json

    from sheepsolve.bury import pick_or_pass
    from sheepsolve.cards import parse_cards

    g = make_game("sheepshead")
    hand = parse_cards("QH TD TC 8C TS TH")
    none = pick_or_pass(g, hand, 3, worlds=30, seed=2)
    same = pick_or_pass(g, hand, 3, worlds=30, seed=2, inference="none")
    assert none.to_dict() | {"seconds": 0} == same.to_dict() | {"seconds": 0}
    weighted = pick_or_pass(g, hand, 3, worlds=30, seed=2, inference="auction", players=list("ABCDE"))
    assert "passes before D (A: pass, B: pass, C: pass)" in weighted.assumes
    # rejection control: the worlds solved are worth nearly as many uniform ones, more deals drawn and weighed
    assert 0.9 * 30 <= weighted.effective <= 30 and weighted.weighed > 30 and weighted.inference == "auction"
    assert weighted.pick.payment != none.pick.payment
    first = pick_or_pass(g, hand, 0, worlds=30, seed=2, inference="auction")
    assert first.effective == 30 and "nobody passed before" in first.assumes
    assert (first.inference, first.weighed, none.inference, none.weighed) == ("none", 30, "none", 30)
    out = run("pick", "examples/bury-jd-full.toml", "--seat", "Dee", "--worlds", "20", "--json")
    data = json.loads(out.output)
    assert data["assumes"].startswith("deals weighted by the passes before Dee") and data["inference"] == "auction"
    assert 18 <= data["effective_worlds"] <= 20 < data["deals_weighed"]
    assert f"worth {data['effective_worlds']:.1f} uniform worlds" in run("pick", "examples/bury-jd-full.toml", "--seat",
                                                                          "Dee", "--worlds", "20").output
    out = run("choose", "examples/bury-choose-sauspiel-hand.toml", "--worlds", "10", "--inference", "none")
    assert "every deal is equally likely" in out.output


# --------------------------------------------------------------------------------------------------------------
# Exact weighted means against the reference


def _hand_weight(setup, hands) -> float:
    """A weight of every game form: more for the seat after the first leader holding points (any deal)."""
    return 1.0 + sum(c.points for c in hands[1 % setup.game.seats]) / 10.0


def _exact_weighted_case(k, weigh):
    from sheepsolve.objective import Objective
    from sheepsolve.reference import reference_card_values
    from sheepsolve.player import player_view

    kw = dataclasses.replace(k, weights=weigh)
    v = player_view(kw, "all", payments=False)
    worlds = W.WorldSampler(k).all_worlds()
    assert v.exact and v.worlds == len(worlds) and v.weights is not None
    legal = list(v.cards)
    sums = {c: 0.0 for c in legal}
    total = 0.0
    for w in worlds:
        x = weigh.weight(kw, w)
        total += x
        obj = Objective.for_setup(w.setup, seat=None if k.game.two_sided else k.seat)
        ref = reference_card_values(w.state, obj)
        for c in legal:
            sums[c] += x * ref[c]
    for c in legal:
        assert v.cards[c].mean == pytest.approx(sums[c] / total, abs=1e-9), c



def _forms_positions():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_worlds import FORMS, _form_id, _positions

    return FORMS, _form_id, _positions


FORMS, _FORM_ID, _POSITIONS = _forms_positions()


@pytest.mark.parametrize("game", FORMS, ids=_FORM_ID)
def test_exact_weighted_view_matches_the_reference(game):
    weigh = FunctionWeights(_hand_weight, "test")
    for st, plays, _ in _POSITIONS(game, 8400 + FORMS.index(game), 2, limit=400):
        _exact_weighted_case(W.Knowledge.from_setup(st, plays), weigh)


def test_exact_view_with_the_play_model_matches_the_reference():
    from sheepsolve.weighting import PlayWeights

    for game in (make_game("sauspiel"), make_game("sheepshead"), make_game("solo", trump="H")):
        for st, plays, _ in _POSITIONS(game, 8500, 1, limit=200):
            _exact_weighted_case(W.Knowledge.from_setup(st, plays), PlayWeights(None))


# --------------------------------------------------------------------------------------------------------------
# The sampler's edges and the answer whatever --jobs


def test_a_card_racing_dropped_never_ties_and_has_no_false_zero_error():
    from sheepsolve.player.solve import summarize_cards

    rec = load_record("examples/sauspiel-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    legal = k.legal()[:3]
    values = []
    for i in range(40):
        top = 60 if i % 2 else 80
        # card 1: dropped after 20 worlds, each giving it the top card's value on average and no spread;
        # card 2: solved everywhere, always one point worse than the top
        values.append((top, 70 if i < 20 else None, top - 1))
    cards, best = summarize_cards(k, legal, values, None, True, False)
    assert legal[0] in best and legal[1] not in best and legal[2] not in best
    assert cards[legal[1]].worlds_solved == 20 and cards[legal[1]].stderr is None
    assert cards[legal[2]].stderr is not None and cards[legal[2]].stderr > 0
    # weighted: the same rules
    cards, best = summarize_cards(k, legal, values, None, True, False, [1.0 + i % 3 for i in range(40)])
    assert legal[1] not in best and cards[legal[1]].stderr is None


def test_weighted_suggest_same_answer_whatever_jobs(monkeypatch):
    from sheepsolve import pool
    from sheepsolve.player.suggest import suggest_record

    rec = load_record("examples/solo-hearts-midtrick.toml")
    one = suggest_record(rec, worlds=40, seed=5, jobs=1, inference="auction")
    monkeypatch.setattr(pool, "PARALLEL_AFTER_SECONDS", 0.0)  # processes even for this little work
    monkeypatch.setattr(pool, "FORKED_PARALLEL_AFTER_SECONDS", 0.0)
    two = suggest_record(rec, worlds=40, seed=5, jobs=2, inference="auction")
    assert one.weights is not None and one.weights == two.weights and one.values == two.values
    a, b = one.to_dict(), two.to_dict()
    for d in (a, b):
        d.pop("seconds")
    assert a == b


@pytest.mark.parametrize("example,at", [("sheepshead-jd-finished.toml", "1.2"), ("sauspiel-finished.toml", "1.2"),
                                        ("sheepshead-called-ace-under-finished.toml", "2.1")])
@pytest.mark.parametrize("inference", ["auction", "none"])
def test_suggest_same_answer_with_worlds_drawn_in_a_helper(monkeypatch, example, at, inference):
    """Where workers start by fork, a helper forked beside this process draws and solves the worlds it takes
    (each world from its own generator) and sends back their values, hands and weights: the answer is the one
    of ``--jobs 1``, every figure (beliefs and weights included). This process waits, before its first unit, until
    the helper has taken one, so the helper surely works."""
    import multiprocessing
    import os
    import sys
    import time

    from sheepsolve import pool, signals
    from sheepsolve.player.suggest import suggest_record

    if "fork" not in multiprocessing.get_all_start_methods() or not sys.platform.startswith("linux"):
        pytest.skip("helpers are forked on Linux only")
    rec = load_record(f"examples/{example}")
    one = suggest_record(rec, worlds=100, seed=4, jobs=1, inference=inference, at=at)
    monkeypatch.setattr(signals, "START_METHOD", "fork")
    monkeypatch.setattr(pool, "FORKED_PARALLEL_AFTER_SECONDS", 0.0)  # the helper forked before any unit
    here, real_take, helper_units = os.getpid(), pool._Shared.take, []

    def take(self, round_):
        if os.getpid() == here and round_ == 1 and self.state[1] == 0:  # this process's first unit
            deadline = time.monotonic() + 120
            while self.state[1] == 0 and time.monotonic() < deadline:
                time.sleep(0.001)
        return real_take(self, round_)

    monkeypatch.setattr(pool._Shared, "take", take)
    real_end = pool.UnitRunner._end_helpers

    def counting_end(self, *exc):
        helper_units.append(self.helper_units)
        return real_end(self, *exc)

    monkeypatch.setattr(pool.UnitRunner, "_end_helpers", counting_end)
    two = suggest_record(rec, worlds=100, seed=4, jobs=2, inference=inference, at=at)
    assert len(helper_units) == 1 and helper_units[0] >= 1
    assert (one.weights is None) == (inference == "none" or one.exact) and one.weights == two.weights
    assert not one.exact and one.values == two.values
    a, b = one.to_dict(), two.to_dict()
    for d in (a, b):
        d.pop("seconds")
    assert a == b


def test_suggest_command_line_constrain_and_inference(run):
    import json

    out = run("suggest", "examples/sauspiel-midtrick.toml", "--worlds", "30", "--constrain", "Sepp: trumps >= 4",
              "--json")
    assert out.exit_code == 0, out.output
    d = json.loads(out.output)
    assert d["inference"] == "auction" and d["constraints"] == ["Sepp: trumps >= 4"]
    assert d["effective_worlds"] <= d["worlds"] and "Sepp: trumps >= 4" in d["assumes"] and d["caveat"]
    assert set(d["beliefs"]) == {"Sepp", "Vroni", "Hias"}
    assert all(set(b) == {"trumps", "cards"} for b in d["beliefs"].values())
    bad = run("suggest", "examples/sauspiel-midtrick.toml", "--constrain", "Sep: trumps >= 4")
    assert bad.exit_code == 2 and bad.output.startswith("error: --constrain") and "did you mean 'Sepp'" in bad.output
    assert bad.output.count("\n") == 1
    none = run("suggest", "examples/sauspiel-midtrick.toml", "--worlds", "30", "--inference", "none", "--json")
    d = json.loads(none.output)
    assert d["inference"] == "none" and d["effective_worlds"] == d["worlds"]
    ann = run("annotate", "examples/annotate-decided-solo.toml", "--constrain", "Sepp: trumps >= 1")
    assert ann.exit_code == 2 and "--constrain: only with --view player" in ann.output


# --------------------------------------------------------------------------------------------------------------
# Rejection control and deals weighed at the first lead

@pytest.mark.parametrize("game_name, seed, left", [("sauspiel", 2, 4), ("sheepshead", 3, 1), ("solo", 1, 4),
                                                   ("sheepshead-4", 5, 2)])
def test_a_deal_weighed_at_the_first_lead_is_its_worlds_weight(game_name, seed, left):
    """AuctionWeights from the hands at the first lead (no world built) gives the weight of the world the deal
    becomes, for every deal the rules engine accepts."""
    from sheepsolve.weighting import AuctionWeights, first_lead
    k, _ = _small_position(game_name, seed, left)
    weights = AuctionWeights(k)
    assert weights.active
    sampler = W.WorldSampler(k)
    rng = random.Random(seed)
    seen = 0
    for _ in range(60):
        parts, under = sampler.draw_deal(rng)
        world = sampler.world_of(parts, under)
        if world is None:
            continue
        assert weights.weight_at_lead(k, *first_lead(sampler, parts, under)) == weights.weight(k, world)
        seen += 1
    assert seen > 30


@pytest.mark.parametrize("game_name, seed, left", [("sauspiel", 2, 4), ("sheepshead", 3, 1), ("wenz", 4, 4)])
def test_rejection_controlled_worlds_agree_with_the_exact_auction_weighted_means(game_name, seed, left):
    """The auction's weights through rejection control (deals weighed at the first lead, refused below the
    threshold): the weighted sample's mean of the declarer's trumps agrees with the exact weighted mean over every
    world within 4 standard errors, its effective worlds are most of the worlds, and without rejection control
    (threshold 0) the same draws are worth far fewer."""
    from sheepsolve.weighting import AuctionWeights
    k, worlds = _small_position(game_name, seed, left)
    weights = AuctionWeights(k)
    exact_w = [weights.weight(k, w) for w in worlds]
    truth, _ = weighted_mean_se([_declarer_trumps(k, w) for w in worlds], exact_w)
    sampler = WeightedSampler(k, weights)
    assert sampler.threshold > 0
    zs = []
    for s in range(3):
        got, ws = sampler.sample(300, seed=s)
        m, se = weighted_mean_se([_declarer_trumps(k, w) for w in got], ws)
        zs.append(abs(m - truth) / se if se else 0.0)
        assert effective_size(ws) > 0.8 * len(ws)
    assert max(zs) < 4.0, zs
    plain = WeightedSampler(k, weights)
    plain.threshold = 0.0
    _, ws0 = plain.sample(300, seed=0)
    assert effective_size(ws0) < effective_size(ws)


def test_weighted_annotate_same_answer_whatever_jobs(monkeypatch):
    from sheepsolve import pool
    from sheepsolve.annotate import annotate_record
    from sheepsolve.player.annotate import annotate_view
    from sheepsolve.solver import Solver

    rec = load_record("examples/sheepshead-jd-midtrick.toml")
    ann = annotate_record(rec, solver=Solver(), judge_bury=False)
    one = annotate_view(ann, worlds=6, seed=2, jobs=1, inference="auction", source=rec).to_dict()
    monkeypatch.setattr(pool, "PARALLEL_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(pool, "FORKED_PARALLEL_AFTER_SECONDS", 0.0)
    ann = annotate_record(rec, solver=Solver(), judge_bury=False)
    two = annotate_view(ann, worlds=6, seed=2, jobs=2, inference="auction", source=rec).to_dict()
    # every timing field at any depth (bury_seconds as well: it rounded to 1e-06 in one run and 0 in the other)
    one, two = timeless(json.loads(json.dumps(one, default=str))), timeless(json.loads(json.dumps(two, default=str)))
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


@pytest.mark.parametrize("example", ["wenz-3-player-midtrick", "skat-grand-finished"])
def test_a_game_without_a_model_of_the_calls_is_uniform_and_says_so(example):
    """--inference auction where the model has no data for the game: the same answer as --inference none, the
    worlds' line saying why they are alike."""
    from sheepsolve.player.suggest import suggest_record

    rec = load_record(f"examples/{example}.toml")
    at = None if example.endswith("midtrick") else "2.2"
    a = suggest_record(rec, worlds=12, seed=4, at=at, inference="auction").to_dict()
    n = suggest_record(rec, worlds=12, seed=4, at=at, inference="none").to_dict()
    assert a["assumes"].endswith("(no model of the calls for this game)")
    assert n["assumes"] == "every deal that fits the play is equally likely"
    for d in (a, n):
        d.pop("assumes")
        d.pop("seconds")
    assert a == n and a["inference"] == "none"


def _with_auction(tmp_path, example: str, auction: list[str]):
    text = open(f"examples/{example}.toml", encoding="utf-8").read()
    path = tmp_path / f"{example}.toml"
    path.write_text(f"auction = {json.dumps(auction)}\n" + text, encoding="utf-8")
    return path


def test_the_worlds_line_names_the_auction_in_the_tables_words(tmp_path, run):
    """The weighted worlds' line says each announced contract by its name (contracts.contract_name) and a
    Schafkopf pass "weiter": German names in German text, French words with French or ASCII cards (never a suit
    letter S that a Bavarian reads as Schellen), the JSON's cards in ASCII; a Sheepshead record keeps its words."""
    wenz = _with_auction(tmp_path, "farbwenz-leaves-finished",
                         ["Sepp: farbwenz S", "Vroni: weiter", "Hias: weiter", "Resi: weiter"])
    solo = _with_auction(tmp_path, "solo-acorns-finished",
                         ["Sepp: weiter", "Vroni: sauspiel AS", "Hias: weiter", "Resi: solo C"])
    args = ("--at", "3.2", "--worlds", "4", "--jobs", "1")
    german = {wenz: "(Sepp: Gras-Wenz, Vroni: weiter, Hias: weiter, Resi: weiter)",
              solo: "(Sepp: weiter, Vroni: Sauspiel auf die Blaue, Hias: weiter, Resi: Eichel-Solo)"}
    french = {wenz: "(Sepp: Farbwenz in spades, Vroni: weiter, Hias: weiter, Resi: weiter)",
              solo: "(Sepp: weiter, Vroni: Sauspiel on A♠, Hias: weiter, Resi: Solo in clubs)"}
    for path in (wenz, solo):
        text = run("suggest", path, *args)
        assert text.exit_code == 0, text.output
        line = next(x for x in text.output.splitlines() if x.startswith("worlds: "))
        assert f"weighted by the auction {german[path]}" in line, line
        in_french = run("suggest", path, *args, "--cards", "french").output
        assert f"worlds: weighted by the auction {french[path]}" in in_french
        data = json.loads(run("suggest", path, *args, "--json").output)
        assert french[path].replace("A♠", "AS") in data["assumes"]
        page = tmp_path / "s.html"
        assert run("suggest", path, *args, "--html", page).exit_code == 0
        assert f"Worlds: weighted by the auction {german[path]}" in page.read_text(encoding="utf-8")
    legend = run("annotate", wenz, "--view", "player", "--worlds", "3", "--jobs", "1", "--json").output
    assert json.loads(legend)["view"]["assumes"].startswith("weighted by the auction (Sepp: Farbwenz in spades,")
    page = tmp_path / "a.html"
    assert run("annotate", wenz, "--view", "player", "--worlds", "3", "--jobs", "1", "--html", page).exit_code == 0
    assert "Worlds: weighted by the auction (Sepp: Gras-Wenz, Vroni: weiter," in page.read_text(encoding="utf-8")
    chosen = run("choose", wenz, "--seat", "Hias", "--worlds", "3", "--jobs", "1").output
    # the record's own calls before Hias (issue 36: choose once said every seat before him passed)
    assert "deals weighted by the calls before Hias (Sepp: farbwenz S, Vroni: weiter)" in chosen
    page = tmp_path / "c.html"  # the page keeps the players' names as written (capitalize lowered them)
    assert run("choose", wenz, "--seat", "Hias", "--worlds", "3", "--jobs", "1", "--html", page).exit_code == 0
    assert "before Hias (Sepp: farbwenz S, Vroni: weiter)" in page.read_text(encoding="utf-8")
    sheepshead = run("suggest", "examples/sheepshead-called-ace-finished.toml", *args).output
    assert "worlds: weighted by the auction (Ann: pass, Bob: pass, Cal: pass, Dee: pick)" in sheepshead


# --------------------------------------------------------------------------------------------------------------
# --play-model's bound (docs/TUNING.md, "--play-model in Ramsch")


def test_the_play_model_refuses_past_its_node_bound(monkeypatch, run, assert_input_error):
    """Past its bound of search nodes the play model stops with one line saying so, wherever it is; the nodes it
    counts are its searches' own, so the refusal comes at the same deal every run."""
    from sheepsolve import weighting
    from sheepsolve.player.suggest import suggest_record

    rec = load_record("examples/sheepshead-jd-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    free = weighting.PlayWeights(None)
    worlds = W.WorldSampler(k).sample(3, seed=1)
    for w in worlds:
        free.weight(k, w)
    assert free.searches > 0 and free.nodes > 0 and free.deals == 3
    bounded = weighting.PlayWeights(None, budget=free.nodes // 3)
    with pytest.raises(W.WorldsError, match=r"^--play-model: its searches passed [\d,]+ nodes \(\d+ searches in "
                                            r"\d deals weighed\) before the worlds were drawn, over its bound of "):
        for w in worlds:
            bounded.weight(k, w)
    assert bounded.budget <= bounded.nodes < free.nodes
    monkeypatch.setattr(weighting, "PLAY_MODEL_NODES", free.nodes // 3)
    with pytest.raises(W.WorldsError, match="over its bound of"):
        suggest_record(rec, worlds=5, play_model=True)
    assert_input_error(run("suggest", "examples/sheepshead-jd-midtrick.toml", "--play-model", "--worlds", 5,
                           "--jobs", 1), "--play-model: its searches passed", "leave --play-model out")


def test_the_play_model_refuses_early_a_run_that_would_pass_its_bound(monkeypatch):
    """After its first deals the play model projects the run (the deals to weigh at least, at that pace) and
    refuses at once a run that would pass its bound, before it spends it; a run that fits is not refused."""
    from sheepsolve import weighting
    from sheepsolve.player.suggest import suggest_record

    rec = load_record("examples/sheepshead-jd-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    probe = weighting.PLAY_MODEL_PROBE
    worlds = W.WorldSampler(k).sample(probe + 1, seed=2)
    free = weighting.PlayWeights(None)
    for w in worlds[:probe]:
        free.weight(k, w)
    pace = free.nodes / probe
    bounded = weighting.PlayWeights(None, budget=int(pace * 100), least_deals=150)
    for w in worlds[:probe]:
        bounded.weight(k, w)
    with pytest.raises(W.WorldsError, match=rf"^--play-model: about [\d,]+ nodes \([\d,]+ a deal over the first "
                                            rf"{probe}, and about 150 deals to weigh\), over its bound"):
        bounded.weight(k, worlds[probe])
    assert bounded.deals == probe  # refused before the next deal's searches
    fits = weighting.PlayWeights(None, budget=int(pace * 100), least_deals=50)
    for w in worlds:
        fits.weight(k, w)
    # suggest tells the play model the deals its worlds take to weigh: the pilot's and 4 a world
    from sheepsolve import proposal

    expected = weighting.WeightedSampler.deals_expected
    assert expected(k, 0) in (proposal.PILOT_DEALS, proposal.PILOT_WORLDS) and expected(k, 1000) - expected(k, 0) == 4000
    monkeypatch.setattr(weighting, "PLAY_MODEL_NODES", int(pace * 1000))
    with pytest.raises(W.WorldsError, match=f"about {expected(k, 1000):,} deals to weigh"):
        suggest_record(rec, worlds=1000, play_model=True)


def test_the_play_models_weights_are_unchanged_by_its_bound():
    """The bounded play model weighs a world as before (its searches' values, now with their node counts)."""
    from sheepsolve.objective import Objective
    from sheepsolve.solver import Solver
    from sheepsolve.weighting import PlayWeights

    rec = load_record("examples/sauspiel-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    solver = Solver(1)
    for w in W.WorldSampler(k).sample(3, seed=4):
        want = 1.0
        state = w.setup.start()
        for seat, card in k.plays:
            if seat != k.seat and len(state.legal()) > 1:
                solver.clear()
                vals = solver.card_values(state, Objective.for_setup(w.setup))
                sign = 1.0 if Objective.for_setup(w.setup).wants_high(seat) else -1.0
                best = max(sign * v for v in vals.values())
                z = math.fsum(math.exp((sign * v - best) / 5.0) for v in vals.values())
                want *= math.exp((sign * vals[card] - best) / 5.0) / z
            state = state.play(card, check=False)
        assert PlayWeights(None).weight(k, w) == pytest.approx(want, rel=1e-12)
