"""The picked cards' proposal of the weighted sampler (:mod:`sheepsolve.proposal`, :mod:`sheepsolve.worlds.strata`).

- The strata count every deal once: the cards dealt to the picker in strata, times the ways to deal the rest, are
  the deals of the picker's hand and the bury (each way the blind lay being one bury of the same cards).
- A stratum's deals are drawn uniformly: each card's frequency among the cards dealt to the picker is its exact
  expectation within noise.
- The bury is drawn with the model's probabilities (chi-square against :meth:`_BuryScorer._pair`'s).
- Unbiased: at the first lead of a Sheepshead deal, the weighted means (the declarer's trumps, the points he
  buried, P(he holds the queen of clubs), the beliefs) agree with the declarer's trumps' strata (the proposal
  tested against every consistent world in ``test_weighting``) within 4 standard errors; the same draws with the
  bury's probability counted a second time do not.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from sheepsolve.cards import Card, mask_of
from sheepsolve.deals import random_setup
from sheepsolve.games import make_game
from sheepsolve.record import load_record
from sheepsolve.weighting import WeightedSampler, beliefs, effective_size, weighted_mean_se, world_weights
from sheepsolve.worlds import Knowledge, WorldSampler, world_rng
from sheepsolve.worlds.strata import PickedStrata


def _defender_at_lead(seed: int) -> Knowledge:
    g = make_game("sheepshead")
    st = random_setup(g, random.Random(seed))
    seat = next(s for s in range(g.seats) if s != st.declarer)
    return Knowledge.from_setup(st, [], seat)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_strata_count_every_deal_once(seed):
    k = _defender_at_lead(seed)
    g = k.game
    base = WorldSampler(k)
    s = WorldSampler(k, picked=True)
    assert [sl.size for sl in s.slots if sl.seat == k.declarer] == [8]
    for held in (None, 6):
        strata = PickedStrata.of(s, (g.trump_mask, mask_of(c for c in g.deck if c.rank == "Q")), held)
        total = sum(strata.by_values().values()) * strata.rest
        # all 8 picked cards counted: each deal of them is 28 deals of hand and bury; 6 of them: each is one
        assert total * (math.comb(8, 2) if held is None else 1) == base.candidates


def test_a_stratum_is_drawn_uniformly():
    k = _defender_at_lead(3)
    g = k.game
    s = WorldSampler(k, picked=True)
    strata = PickedStrata.of(s, (g.trump_mask,), 6)
    values = (3,)
    n = strata.by_values()[values]
    trumps = [c for c in s.unseen if g.is_trump(c)]
    plain = [c for c in s.unseen if not g.is_trump(c)]
    # exactly 3 trumps and 3 plain cards among the 6 dealt: each trump dealt with odds 3/len(trumps)
    assert n == math.comb(len(trumps), 3) * math.comb(len(plain), 3)
    rng = random.Random(7)
    draws = 6000
    seen = {c: 0 for c in s.unseen}
    for _ in range(draws):
        cards, rest = strata.draw_picked(rng, values)
        assert sum(1 for c in cards if g.is_trump(c)) == 3 and len(cards) == 6 and len(rest) == len(s.unseen) - 6
        parts, _ = strata.deal_rest(rng, cards, rest)
        assert sorted(c for p in parts for c in p) == sorted(s.unseen)
        assert [len(p) for p in parts] == [sl.size for sl in s.slots]
        for c in cards:
            seen[c] += 1
    for group in (trumps, plain):
        p = 3 / len(group)
        sd = math.sqrt(draws * p * (1 - p))
        for c in group:
            assert abs(seen[c] - draws * p) < 5 * sd, (c, seen[c], draws * p)


def test_the_bury_is_drawn_with_the_models_probabilities():
    rec = load_record("examples/sheepshead-jd-finished.toml")
    w = world_weights(rec, "auction")
    scorer = w.likelihood.bury
    assert scorer.draws
    picked = mask_of(Card.parse(x) for x in "QC JD AH TH 9S 8S 7D AD".split())
    cards = [c for c in range(32) if picked >> c & 1]
    pairs = [(1 << a) | (1 << b) for i, a in enumerate(cards) for b in cards[i + 1:]]
    probs = {b: scorer(picked, b, None, False, False) for b in pairs}
    assert sum(probs.values()) == pytest.approx(1.0)
    rng = random.Random(3)
    draws = 20000
    got = {b: 0 for b in pairs}
    for _ in range(draws):
        got[scorer.draw(picked, rng.random())] += 1
    chi2 = sum((got[b] - draws * p) ** 2 / (draws * p) for b, p in probs.items() if draws * p >= 5)
    assert chi2 < 60, chi2  # 27 degrees of freedom: 99.99% point about 60


def _figures(k, worlds, ws):
    p = k.declarer
    g = k.game
    trumps = [sum(1 for c in w.setup.hands[p] if g.is_trump(c)) for w in worlds]
    buried = [sum(c.points for c in w.setup.bury) for w in worlds]
    qc = [1.0 if Card.parse("QC") in w.setup.hands[p] else 0.0 for w in worlds]
    return [weighted_mean_se(xs, ws) for xs in (trumps, buried, qc)]


@pytest.mark.parametrize("upto", [0, 1])
def test_the_picked_proposal_agrees_with_the_declarers_trumps_strata(upto):
    rec = load_record("examples/sheepshead-jd-finished.toml")
    w = world_weights(rec, "auction")
    k = dataclasses.replace(Knowledge.from_record(rec, None, upto=upto), weights=w)
    picked = WeightedSampler(k, w)
    plain = WeightedSampler(k, w, picked=False)
    assert picked.picked is not None and plain.picked is None and plain.stratified
    n = 1500
    got, ws = picked.sample(n, seed=11)
    ref, rws = plain.sample(n, seed=12)
    assert effective_size(ws) > 0.9 * n
    for (m, se), (m0, se0) in zip(_figures(k, got, ws), _figures(k, ref, rws)):
        assert abs(m - m0) < 4 * math.hypot(se, se0), (m, se, m0, se0)
    b, b0 = beliefs(k, got, ws), beliefs(k, ref, rws)
    for seat in b:
        assert b[seat]["trumps"] == pytest.approx(b0[seat]["trumps"], abs=0.25)
        for c, x in b[seat]["cards"].items():
            assert x == pytest.approx(b0[seat]["cards"][c], abs=0.08)
    if upto == 0:
        # the bury's probability counted again (as if the proposal had dealt the bury uniformly): how often the
        # bury is the picker's likeliest is off
        scorer = w.likelihood.bury

        def factor(wd):
            picked = mask_of(wd.setup.hands[k.declarer]) | mask_of(wd.setup.bury)
            return scorer(picked, mask_of(wd.setup.bury), None, False, False)

        def likeliest(wd):
            picked = mask_of(wd.setup.hands[k.declarer]) | mask_of(wd.setup.bury)
            cards = [c for c in range(32) if picked >> c & 1]
            top = max(scorer(picked, (1 << a) | (1 << b), None, False, False)
                      for i, a in enumerate(cards) for b in cards[i + 1:])
            return 1.0 if factor(wd) == top else 0.0

        twice = [x * factor(wd) for wd, x in zip(got, ws)]
        m, se = weighted_mean_se([likeliest(wd) for wd in got], twice)
        m1, se1 = weighted_mean_se([likeliest(wd) for wd in got], ws)
        m0, se0 = weighted_mean_se([likeliest(wd) for wd in ref], rws)
        assert abs(m1 - m0) < 4 * math.hypot(se1, se0), (m1, se1, m0, se0)
        assert abs(m - m0) > 4 * math.hypot(se, se0), (m, se, m0, se0)


def test_the_picked_proposal_is_deterministic_per_world():
    rec = load_record("examples/sheepshead-jd-finished.toml")
    w = world_weights(rec, "auction")
    k = dataclasses.replace(Knowledge.from_record(rec, None, upto=0), weights=w)
    a = WeightedSampler(k, w)
    b = WeightedSampler(k, w)
    got_a, ws_a = a.sample(30, seed=2)
    got_b, ws_b = b.sample(10, seed=2, start=20)  # world i depends on the seed and i alone
    assert [x.key() for x in got_a[20:]] == [x.key() for x in got_b] and ws_a[20:] == ws_b
    s, parts, under, v = a.draw_deal(world_rng(2, 0))
    assert s is a.base and v == ws_a[0] and s.world_of(parts, under).key() == got_a[0].key()
