"""The worlds of ``pick``, ``choose`` and ``bury --view picker`` weighed by the passes before the seat.

- Exact: with every deal solved (``worlds="all"``) each figure is the average of the reference minimax's values
  over a brute-force list of the deals, each deal weighing the passes' likelihood computed here from the model of
  the calls; the effective size is Kish's of those weights.
- Sampled: the worlds are kept by rejection control (:class:`sheepsolve.weighting.WeightedSampler`, the threshold
  at the pilot's largest weight). On a small deal whose deals can all be listed, with a weight that concentrates,
  the weighted sample's mean agrees with the exact weighted mean within 4 standard errors over several seeds, the
  kept share estimates the weights' mean, and the worlds are worth nearly as many uniform ones; uniform deals
  (the weights forgotten) fail the first. On full Sauspiel deals the passes' worlds
  are worth nearly as many uniform ones, and far more than uniform deals weighed (what the commands solved
  before).
- The same seed gives the same answer whatever ``jobs``; ``--inference none`` is what no inference gives.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from sheepsolve import bury as B
from sheepsolve.bury import evaluation as BE, units as BU
from sheepsolve.bury.units import PassesWeights, Task, worker
from sheepsolve.cards import parse_cards
from sheepsolve.games import make_game
from sheepsolve.inference.auction import PASS, Auction, Call
from sheepsolve.inference.likelihood import AuctionLikelihood
from sheepsolve.pool import game_spec
from sheepsolve.weighting import WeightedSampler, WorldWeights, effective_size, passes_weights, weighted_mean_se
from sheepsolve.worlds import WorldSampler, before_choice, world_rng

from test_bury import _every_deal, _reference


def _passes(game, seat):
    """The passes' likelihood of a deal's hands, built here from the model of the calls."""
    like = AuctionLikelihood(Auction(game, tuple(Call(s, PASS) for s in range(seat)), False))
    return lambda hands: like(hands)


def _weighted_mean(xs, ws):
    return math.fsum(w * x for x, w in zip(xs, ws)) / math.fsum(ws)


# --------------------------------------------------------------------------------------------------------------
# Exact: every deal, weighted, against the reference


def test_exact_weighted_pick_is_the_weighted_average_over_every_deal():
    g = make_game("sheepshead-3")
    rng = random.Random("sheepshead-3-6")  # a deal whose passes' weights vary (by 6%: the hands are small)
    cards = list(g.deck)
    rng.shuffle(cards)
    hand, unseen = sorted(cards[:2]), cards[2:8]
    seat = 2  # both others passed
    p = B.pick_or_pass(g, hand, seat, worlds="all", unseen=unseen, inference="auction")
    like = _passes(g, seat)
    pays, ws = [], []
    for d in _every_deal(unseen, [2, 2, 2]):
        hs, bl = [d[0], d[1], hand], d[2]
        ws.append(like(hs))
        pays.append(max((_reference(BE.setup_for(g, hs, bl, seat, x))
                         for x in B.legal_decisions(g, hand + bl, unseen)), key=lambda t: (t[2], t[0]))[2])
    assert p.exact and p.worlds == len(pays) == 90 and p.inference == "auction"
    assert p.pick.payment == pytest.approx(_weighted_mean(pays, ws)) and p.pick.payment_stderr == 0
    assert abs(_weighted_mean(pays, ws) - statistics.fmean(pays)) > 1e-3  # the weights tell
    assert p.effective == pytest.approx(effective_size(ws)) and max(ws) > 1.05 * min(ws)
    assert p.weighed == 90
    assert p.to_dict()["deals_weighed"] == 90 and p.to_dict()["inference"] == "auction"


def test_exact_weighted_choose_and_picker_view_are_the_weighted_averages():
    sk = make_game("sauspiel")
    rng = random.Random("sauspiel-32")  # the passes' weights vary by a factor 2.6
    cards = list(sk.deck)
    rng.shuffle(cards)
    hand, unseen = sorted(cards[:2]), cards[2:8]
    contracts = [B.Contract("solo", "H"), B.Contract("wenz"), B.Contract("geier", tout=True)]
    seat = 2
    c = B.choose_contract(sk, hand, seat, worlds="all", contracts=contracts, unseen=unseen, inference="auction")
    like = _passes(sk, seat)
    deals = list(_every_deal(unseen, [2, 2, 2]))
    hands_of = [[d[0], d[1], hand, d[2]] for d in deals]
    ws = [like(hs) for hs in hands_of]
    assert c.exact and c.worlds == 90 and c.effective == pytest.approx(effective_size(ws)) and c.effective < 0.95 * 90
    for row in c.rows:
        refs = [_reference(BE.contract_setup(sk, hs, seat, row.contract)) for hs in hands_of]
        assert row.stats.payment == pytest.approx(_weighted_mean([p for _, _, p in refs], ws))
        assert row.stats.payment_stderr == 0
    g = make_game("sheepshead")  # the picker's view from the third seat: two passes weigh
    rng = random.Random("sheepshead-27")
    cards = list(g.deck)
    rng.shuffle(cards)
    hand, unseen, blind = sorted(cards[:1]), cards[1:5], sorted(cards[5:7])
    r = B.sample_buries(g, hand, blind, 2, worlds="all", unseen=unseen, inference="auction")
    deals = list(_every_deal(unseen, [1, 1, 1, 1]))
    hands_of = [[d[0], d[1], hand, d[2], d[3]] for d in deals]
    like = _passes(g, 2)
    ws = [like(hs) for hs in hands_of]
    assert r.exact and r.worlds == 24 and r.effective == pytest.approx(effective_size(ws)) and max(ws) > min(ws)
    for row in r.rows:
        refs = [_reference(BE.setup_for(g, hs, blind, 2, row.decision)) for hs in hands_of]
        assert row.stats.mean == pytest.approx(_weighted_mean([v for v, _, _ in refs], ws))
        assert row.stats.payment == pytest.approx(_weighted_mean([p for _, _, p in refs], ws))


# --------------------------------------------------------------------------------------------------------------
# Sampled: rejection control's statistics


class _Sharp(WorldWeights):
    """A weight that concentrates on a few deals (seat 0 strong in trumps), bounded by 1 like the passes'."""

    def __init__(self, game):
        self.game = game

    def value(self, hand_mask: int) -> float:
        trumps = sum(1 for c in self.game.trumps if hand_mask >> int(c) & 1)
        return math.exp(2.0 * (trumps - 3))

    def weight(self, k, world):  # pragma: no cover - every deal is weighed at the lead
        raise AssertionError("weighed at the lead")

    def weight_at_lead(self, k, hands, bury, under, *, floor=0.0):
        return self.value(hands[0])


def _trumps0(game, hands) -> int:
    return sum(1 for c in hands[0] if game.is_trump(c))


def test_rejection_control_is_unbiased_and_worth_nearly_as_many_uniform_worlds():
    g = make_game("sauspiel")
    # three other hands of 3 (1,680 deals) from 3 trumps and 6 plain cards: seat 0 holds all three trumps in 1 of 84
    hand, unseen = parse_cards("AC KC 9C"), parse_cards("QC JD AH AS TS KS 9D 8D AD")
    k = before_choice(g, 3, hand, unseen=unseen)
    sampler = WorldSampler(k)
    sharp = _Sharp(g)
    deals = sampler.all_deals()
    masks = [sum(1 << int(c) for c in hs[0]) for hs, _ in deals]
    exact_w = [sharp.value(m) for m in masks]
    exact = _weighted_mean([_trumps0(g, hs) for hs, _ in deals], exact_w)
    mean_w = statistics.fmean(exact_w)
    assert max(exact_w) / mean_w > 10  # the weight concentrates
    n = 600
    for seed in range(3):
        ws_sampler = WeightedSampler(k, sharp, sampler, top_threshold=True, pilot_deals=256)
        got = [ws_sampler.draw_deal(world_rng(f"rc{seed}", i)) for i in range(n)]
        xs = [_trumps0(g, s.as_deal(parts)[0]) for s, parts, _, _ in got]
        vs = [v for *_, v in got]
        m, se = weighted_mean_se(xs, vs)
        assert abs(m - exact) <= 4 * se, (seed, m, exact, se)
        assert effective_size(vs) >= 0.9 * n
        # the share of the deals kept estimates the weights' mean: mean(min(w, c)) / c
        c = ws_sampler.threshold
        kept_share = n / ws_sampler.drawn
        expect = statistics.fmean(min(w, c) for w in exact_w) / c
        sd = math.sqrt(expect * (1 - expect) / ws_sampler.drawn)
        assert abs(kept_share - expect) <= 4 * sd, (kept_share, expect)
        # the kept worlds read the weights: far closer to the exact weighted mean than the uniform deals' mean
        if seed == 0:
            uniform = statistics.fmean(_trumps0(g, hs) for hs, _ in deals)
            assert abs(m - exact) < abs(uniform - exact) / 4


def _full_hand(game, d):
    deck = list(game.deck)
    random.Random(f"deal:{game.name}:{d}").shuffle(deck)
    return deck[:game.hand_size]


@pytest.mark.parametrize("name,seat,kind", [("sauspiel", 3, "choose"), ("sheepshead", 4, "pick"),
                                            ("sheepshead", 3, "bury")])
def test_passes_worlds_are_worth_nearly_as_many_uniform_ones(name, seat, kind):
    """Full deals from the last seats: the weighted worlds (rejection control) against uniform deals weighed by the
    passes, as the commands solved them before; and the weighted mean of the first seat's trumps over the kept
    worlds against the same over many weighed uniform deals."""
    g = make_game(name)
    n = 200
    for d in range(3):
        deck = list(g.deck)
        random.Random(f"deal:{name}:{d}").shuffle(deck)
        hand = deck[:g.hand_size]
        blind = tuple(map(int, deck[g.seats * g.hand_size:][:g.blind_size])) if kind == "bury" else None
        task = Task(kind=kind, game=game_spec(g), seat=seat, hand=tuple(map(int, hand)), blind=blind, choices=(),
                    stakes=(False, False, 0), seed=d, inference="auction")
        w = worker()
        fn, _ = passes_weights(g, seat, "auction")
        before = [fn(w.sampler(task, g).deal(world_rng(d, i))[0]) for i in range(n)]
        now = [w.world_weight(task, g, i) for i in range(n)]
        vs = [v for v, _ in now]
        assert effective_size(vs) >= 0.95 * n > effective_size(before) + 0.1 * n
        assert sum(x for _, x in now) > n
        xs = [_trumps0(g, w.world(task, g, i)[0]) for i in range(n)]
        m, se = weighted_mean_se(xs, vs)
        big = [w.sampler(task, g).deal(world_rng(f"big{d}", i))[0] for i in range(4000)]
        bw = [fn(h) for h in big]
        bm, bse = weighted_mean_se([_trumps0(g, h) for h in big], bw)
        assert abs(m - bm) <= 4 * math.hypot(se, bse), (d, m, bm)


def test_a_weighted_world_is_the_same_drawn_again_or_elsewhere():
    g = make_game("sheepshead")
    task = Task(kind="pick", game=game_spec(g), seat=3, hand=tuple(map(int, _full_hand(g, 5))), blind=None,
                choices=(), stakes=(False, False, 0), seed=4, inference="auction")
    one, two = BU.Worker(), BU.Worker()
    assert [one.world(task, g, i) for i in range(5)] == [two.world(task, g, i) for i in reversed(range(5))][::-1]
    assert [one.world_weight(task, g, i) for i in range(5)] == [two.world_weight(task, g, i) for i in range(5)]
    none = Task(**{**task.__dict__, "inference": "none"})
    assert one.world(none, g, 2) == one.sampler(none, g).deal(world_rng(4, 2))


# --------------------------------------------------------------------------------------------------------------
# jobs, and the commands


def test_weighted_choices_same_seed_same_answer_whatever_jobs(monkeypatch):
    monkeypatch.setattr(BU, "PARALLEL_AFTER_SECONDS", 0.0)  # processes even for this little work
    g = make_game("sheepshead-3")
    picks = [B.pick_or_pass(g, parse_cards("QC 7S"), 2, worlds=6, seed=3, unseen=parse_cards("AS TS AC KS JD 8S"),
                            jobs=j, inference="auction").to_dict() for j in (1, 2)]
    sk = make_game("sauspiel")
    contracts = [B.Contract("solo", "H"), B.Contract("wenz"), B.Contract("geier", tout=True)]
    chooses = [B.choose_contract(sk, parse_cards("QC JC"), 3, worlds=6, seed=3, contracts=contracts,
                                 unseen=parse_cards("AH TH AS TS KS 9S"), jobs=j, inference="auction").to_dict()
               for j in (1, 2)]
    g5 = make_game("sheepshead")
    buries = [B.sample_buries(g5, parse_cards("QC 7S"), parse_cards("JD 8S"), 3, worlds=6, seed=3,
                              unseen=parse_cards("AS TS AC KS 9C 9S 8C 7C"), jobs=j,
                              inference="auction").to_dict() for j in (1, 2)]
    for a, b in (picks, chooses, buries):
        a.pop("seconds"), b.pop("seconds")
        assert a == b and a["inference"] == "auction" and a["deals_weighed"] >= 6


def test_the_bury_procedure_says_how_the_worlds_were_dealt(run, example):
    """Issue 36, item 6: bury --view picker's JSON procedure said '(the unseen cards dealt uniformly)' while its
    worlds were weighted by the passes before the picker (the default), and 'sampled worlds' with every deal solved."""
    import json

    from sheepsolve.bury.questions import sample_buries
    from sheepsolve.cards import parse_cards
    from sheepsolve.games import make_game

    for inference, says in (("auction", "(the unseen cards: deals weighted by the passes before Bob (Ann: pass)"),
                            ("none", "(the unseen cards: every deal is equally likely)")):
        res = run("bury", str(example("bury-jd-full.toml")), "--view", "picker", "--worlds", "10", "--jobs", "1",
                  "--json", "--inference", inference)
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        assert says in data["procedure"] and data["assumes"] in data["procedure"], data["procedure"]
        assert "uniformly" not in data["procedure"]
    r = sample_buries(make_game("sheepshead-3"), parse_cards("QC 7S"), parse_cards("JD 8S"), 0, worlds="all",
                      unseen=parse_cards("AS TS AC KS"))
    assert r.exact and f"in the same {r.worlds} worlds (every deal of the unseen cards)" in r.procedure
