"""The model of the doubling calls (sheepsolve.inference.doubling): the side that may make each call, the
probability as the logistic of the role's table, the factor of a record's doubles (given in its auction or implied by
its keys) in the likelihood of a world, exact weighted enumeration against the pure-Python reference with the doubles
weighed, the data's rebuild from its seed, and calibration: deals whose auctions and doubles the model plays show the
frequencies the beliefs about the doubler predict."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from sheepsolve import weighting as W
from sheepsolve.cards import Card, parse_cards
from sheepsolve.deals import random_setup
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.inference.auction import CRACK, KLOPFEN, RECRACK
from sheepsolve.inference.build import FORMS
from sheepsolve.inference.data import double_key, form_key, klopfen_key
from sheepsolve.inference.double_build import DOUBLE_KINDS, build_double_model
from sheepsolve.inference.double_calibration import calibrate_doubles
from sheepsolve.inference.doubling import (
    DoubleFactor,
    at_least,
    default_double_model,
    double_factor,
    double_model_info,
    double_probability,
    partner_at_lead,
)
from sheepsolve.inference.features import hand_key, hand_masks, mask_of_hand
from sheepsolve.inference.likelihood import AuctionLikelihood
from sheepsolve.record import load_record
from sheepsolve.scoring import Stakes

from helpers_cli import ROOT


# --------------------------------------------------------------------------------------------------------------
# The data


def test_the_shipped_data_records_its_build_and_covers_every_form():
    info = double_model_info()
    assert info["seed"] == 36 and set(info["deals"]) == set(FORMS)
    assert info["seconds"] > 0 and set(info["seconds_by_form"]) == set(FORMS) and info["commit"]
    assert info["call_model"]["seed"] == 36
    m = default_double_model()
    for form in FORMS:
        if form.startswith("schafkopf"):
            assert m.table(klopfen_key(form)) is not None
            for kind in ("sauspiel",) + DOUBLE_KINDS:
                assert m.table(double_key(form, "defender", kind)) is not None, (form, kind)
                assert m.table(double_key(form, "declarer", kind)) is not None, (form, kind)
            assert m.table(double_key(form, "partner", "sauspiel")) is not None
        else:
            assert m.table(double_key(form, "defender")) is not None
            assert m.table(double_key(form, "declarer")) is not None


def test_a_small_rebuild_is_deterministic():
    deals = {"schafkopf-4-short": 6, "sheepshead/called-ace": 5}
    a = build_double_model(seed=5, deals=deals, min_samples=1)
    b = build_double_model(seed=5, deals=deals, min_samples=1)
    assert a["models"] == b["models"] and a["seed"] == 5 and a["deals"] == deals
    assert any(k.endswith("/klopfen") for k in a["models"]) and any("double-defender-" in k for k in a["models"])
    assert build_double_model(seed=6, deals=deals, min_samples=1)["models"] != a["models"]


# --------------------------------------------------------------------------------------------------------------
# One call's probability


SOLO = make_game("solo", trump="H")
JD = make_game("sheepshead")


def test_each_side_makes_its_own_calls_only():
    hand = parse_cards("QC QS JC AH TH KH AS TS")
    for role in ("declarer", "partner"):
        assert double_probability(SOLO, CRACK, role, hand) == 0.0
    assert double_probability(SOLO, RECRACK, "defender", hand) == 0.0
    for call, role in ((CRACK, "defender"), (RECRACK, "declarer"), (KLOPFEN, "defender")):
        assert 0.0 < double_probability(SOLO, call, role, hand) < 1.0
    with pytest.raises(ValueError):
        double_probability(SOLO, "blitz", "defender", hand)


def test_the_probability_is_the_logistic_of_the_roles_expected_payment():
    m = default_double_model()
    g = make_game("sauspiel")
    called = Card.parse("AS")
    hand = parse_cards("QC JH AH TH 9S 7S KD 8C")
    table = m.table(double_key(form_key(g), "defender", "sauspiel"))
    suit = sum(1 for c in hand if c.suit == "S" and not g.is_trump(c))
    ep = table.value(hand_key(hand_masks(g), mask_of_hand(hand), suit))
    for doublers in (0, 1, 3):
        want = 1 / (1 + math.exp(-(2 ** doublers) * ep / 10.0))
        assert double_probability(g, CRACK, "defender", hand, called=called, doublers=doublers) == pytest.approx(want)
    re = m.table(double_key(form_key(g), "declarer", "sauspiel")).value(hand_key(hand_masks(g), mask_of_hand(hand),
                                                                                  suit))
    assert double_probability(g, RECRACK, "declarer", hand, called=called) == pytest.approx(1 / (1 + math.exp(-re / 5)))


@pytest.mark.parametrize("game, strong, weak", [
    (SOLO, "QC QS JC AH TH KH AS TS", "7H 8H 9C 7S 8S 9S 7D 8D"),
    (make_game("sauspiel"), "QC QS QH JC AH TH AC TC", "7H 8C 9C 7S 8S 9S 7D 8D"),
    (make_game("wenz"), "JC JS AC TC KC AS TS AD", "JD 8C 9C 7S 8S 9S 7D 8D"),
    (JD, "QC QS QH JC AD TD", "7C 8C 9C 7S 8S 7H"),
    (make_game("sheepshead-3"), "QC QS QH JC AD TD KD 9D 8D 7D", "7C 8C 9C KC 7S 8S 9S KS 7H 8H"),
])
def test_a_strong_defence_cracks_more_and_a_strong_declarer_answers_more(game, strong, weak):
    s, w = parse_cards(strong), parse_cards(weak)
    assert double_probability(game, CRACK, "defender", s) > double_probability(game, CRACK, "defender", w) + 0.1
    assert double_probability(game, RECRACK, "declarer", s) > double_probability(game, RECRACK, "declarer", w)
    if game.family == "schafkopf":
        assert double_probability(game, KLOPFEN, "defender", s) > double_probability(game, KLOPFEN, "defender", w)


def test_at_least_against_every_subset():
    rng = random.Random(3)
    for _ in range(20):
        ps = [rng.random() for _ in range(rng.randrange(1, 6))]
        for k in range(len(ps) + 2):
            brute = 0.0
            for bits in range(1 << len(ps)):
                if bin(bits).count("1") >= k:
                    brute += math.prod(p if bits >> i & 1 else 1 - p for i, p in enumerate(ps))
            assert at_least(ps, k) == pytest.approx(brute, abs=1e-12)


@pytest.mark.parametrize("game", [JD, make_game("sheepshead", rules={"call_up": True}),
                                  make_game("sheepshead", partner="called-ace"), make_game("sauspiel"), SOLO],
                         ids=["jd", "call-up", "called-ace", "sauspiel", "solo"])
def test_the_partner_at_the_first_lead_is_the_engines(game):
    rng = random.Random(7)
    for _ in range(60):
        st = random_setup(game, rng)
        hands = [mask_of_hand(h) for h in st.hands]
        got = partner_at_lead(game, hands, st.declarer, mask_of_hand(st.bury), st.called,
                              st.declarer is not None and st.partner is None and game.kind == "picker"
                              and game.partner == "called-ace")
        assert got == st.partner


# --------------------------------------------------------------------------------------------------------------
# The factor of a record's doubles in a world's likelihood


def _role(st: Setup, seat: int) -> str:
    return "declarer" if seat == st.declarer else "partner" if seat == st.partner else "defender"


def _expected_doubles(k, st: Setup, *, calls=(), crack=False, recrack=False, klopfen=0) -> float:
    """What the doubles weigh in the world of ``st``, worked out seat by seat from the engine's sides."""
    g, hands = st.game, st.hands
    d = k.stakes.doublers

    def p(call, seat):
        return double_probability(g, call, _role(st, seat), hands[seat], called=st.called, doublers=d)

    like = math.prod(p(c, s) for c, s in calls)
    others = [s for s in range(g.seats) if s != st.declarer]
    if crack:
        like *= 1 - math.prod(1 - p(CRACK, s) for s in others)
    if recrack:
        like *= 1 - math.prod(1 - p(RECRACK, s) for s in range(g.seats) if s in (st.declarer, st.partner))
    if klopfen:
        like *= at_least([p(KLOPFEN, s) for s in range(g.seats)], klopfen)
    return like


def test_the_auction_records_doubles_weigh_each_call_for_its_callers_hand():
    rec = load_record(ROOT / "tests" / "records" / "auction_sauspiel.toml")
    assert rec.auction is not None
    k = W.Knowledge.from_record(rec, seat="Bob", upto=0)
    full = AuctionLikelihood.of(rec)
    assert full.doubles is not None and full.doubles.calls == ((KLOPFEN, 3), (CRACK, 0))
    plain = AuctionLikelihood(full.auction, called=rec.called)
    worlds = W.WorldSampler(k).sample(40, seed=1)
    zero = 0
    for w in worlds:
        st = w.setup
        want = plain(st.hands) * _expected_doubles(k, st, calls=((KLOPFEN, 3), (CRACK, 0)))
        assert full(st.hands) == pytest.approx(want, rel=1e-12, abs=1e-300)
        zero += st.partner == 0
    assert zero == 0 or any(full(w.setup.hands) == 0 for w in worlds)


@pytest.mark.parametrize("example", ["sheepshead-jd-finished", "sauspiel-finished"])
def test_the_keys_alone_weigh_that_some_seat_of_the_other_side_doubled(example):
    rec = load_record(ROOT / "examples" / f"{example}.toml")
    assert rec.auction is None and rec.crack
    k = W.Knowledge.from_record(rec, seat=(rec.declarer + 1) % rec.game.seats, upto=0)
    full = AuctionLikelihood.of(rec)
    assert full.doubles is not None and full.doubles.crack and not full.doubles.calls
    plain = AuctionLikelihood(full.auction, called=rec.called)
    picker = rec.game.kind == "picker"
    for w in W.WorldSampler(k).sample(40, seed=2):
        st = w.setup
        bury = st.bury if picker else None
        assert full(st.hands, bury=bury) == pytest.approx(plain(st.hands, bury=bury) * _expected_doubles(
            k, st, crack=True), rel=1e-12, abs=1e-300)


def test_nobody_doubling_weighs_nothing():
    rec = load_record(ROOT / "examples" / "sauspiel-finished.toml")
    quiet = dataclasses.replace(rec, crack=False)
    assert AuctionLikelihood.of(quiet).doubles is None
    assert double_factor(quiet, AuctionLikelihood.of(quiet).auction) is None


# --------------------------------------------------------------------------------------------------------------
# Exact weighted enumeration against the reference


def _small_doubled(game, seed, k_cards, stakes):
    from sheepsolve.deals import random_position

    rng = random.Random(seed)
    for i in range(300):
        st = random_setup(game, rng)
        s = random_position(st, rng, cards_left=max(1, k_cards - i // 100))
        if s.finished or s.to_move == st.declarer:
            continue
        plays = [c for t in s.tricks for c in t.cards]
        k = W.Knowledge.from_setup(st, plays, s.to_move, stakes=stakes)
        try:
            worlds = W.WorldSampler(k).all_worlds(400)
        except W.WorldsError:
            continue
        if 20 <= len(worlds):
            return k, worlds
    pytest.skip("no small position found")


@pytest.mark.parametrize("name, kw, stakes", [
    ("sheepshead", {}, Stakes(crack=True)),
    ("sheepshead", {"partner": "called-ace"}, Stakes(crack=True, recrack=True)),
    ("sauspiel", {}, Stakes(crack=True, doublers=1)),
    ("solo", {"trump": "H"}, Stakes(crack=True, recrack=True)),
])
def test_exact_weighted_view_with_doubles_matches_the_reference(name, kw, stakes):
    from sheepsolve.objective import Objective
    from sheepsolve.player import player_view
    from sheepsolve.reference import reference_card_values

    g = make_game(name, **kw)
    k, worlds = _small_doubled(g, 11, 2, stakes)
    weights = W.AuctionWeights(k)
    assert weights.likelihood.doubles is not None
    kw_ = dataclasses.replace(k, weights=weights)
    v = player_view(kw_, "all", payments=False)
    assert v.exact and v.worlds == len(worlds)
    plain = AuctionLikelihood(weights.likelihood.auction, called=k.called, under=k.under, alone=k.alone)
    sums = {c: 0.0 for c in v.cards}
    total = 0.0
    picker = g.kind == "picker"
    for w in worlds:
        st = w.setup
        x = plain(st.hands, bury=st.bury if picker else None, blind=k.blind if k.picker_view else None,
                  called=st.called, under=st.under)
        x *= _expected_doubles(k, st, crack=stakes.crack, recrack=stakes.recrack,
                               klopfen=stakes.doublers if g.family == "schafkopf" else 0)
        assert weights.weight(kw_, w) == pytest.approx(x, rel=1e-12, abs=1e-300)
        total += x
        obj = Objective.for_setup(st, seat=None if g.two_sided else k.seat)
        ref = reference_card_values(w.state, obj)
        for c in sums:
            sums[c] += x * ref[c]
    assert total > 0
    for c in sums:
        assert v.cards[c].mean == pytest.approx(sums[c] / total, abs=1e-9), c


@pytest.mark.parametrize("name, kw", [("sheepshead", {}), ("sheepshead", {"partner": "called-ace"}),
                                      ("sauspiel", {})])
def test_a_doubled_deal_weighed_at_the_first_lead_is_its_worlds_weight(name, kw):
    from sheepsolve.weighting import first_lead

    g = make_game(name, **kw)
    k, _ = _small_doubled(g, 5, 3, Stakes(crack=True, recrack=True))
    weights = W.AuctionWeights(k)
    sampler = W.WorldSampler(k)
    rng = random.Random(2)
    seen = 0
    for _ in range(150):
        parts, under = sampler.draw_deal(rng)
        world = sampler.world_of(parts, under)
        if world is None:
            continue
        assert weights.weight_at_lead(k, *first_lead(sampler, parts, under)) == weights.weight(k, world)
        seen += 1
    assert seen > 30


def test_the_picked_cards_proposal_weighs_a_crack_and_leaves_a_re_crack_to_the_trumps_proposal():
    """The picked-cards proposal deals the picker's hand and bury as one and draws the bury last: a crack (the
    defenders' hands, the partner found the same) is weighed there, each deal as its world weighs; a re-crack reads
    the picker's hand after the bury, so such a record is sampled by the declarer's trumps instead."""
    from sheepsolve.weighting import first_lead

    rec = load_record(ROOT / "examples" / "sheepshead-jd-finished.toml")
    k = W.Knowledge.from_record(rec, seat="Ann", upto=0)
    assert W.AuctionWeights(dataclasses.replace(rec, recrack=True)).picked(k) is None
    weights = W.AuctionWeights(rec)
    picked = weights.picked(k)
    assert picked is not None and weights.likelihood.doubles is not None
    sampler = W.WorldSampler(k)
    rng = random.Random(4)
    for _ in range(40):
        parts, under = sampler.draw_deal(rng)
        hands, bury, _ = first_lead(sampler, parts, under)
        p = k.declarer
        together = list(hands)
        together[p] |= bury  # the picked-cards proposal's hands: his hand and bury as one
        whole = weights.likelihood(hands, bury=bury)
        split = weights.likelihood.others(together, weights.likelihood.pick.mean(hands[p] | bury, 2)
                                          * weights.likelihood.bury(hands[p] | bury, bury, None, False, False))
        assert split == pytest.approx(whole, rel=1e-12, abs=1e-300)
    kw = dataclasses.replace(k, weights=weights)
    worlds, ws = W.WeightedSampler(kw, weights).sample(20, seed=1)
    assert len(worlds) == 20 and all(w > 0 for w in ws)


# --------------------------------------------------------------------------------------------------------------
# Beliefs: the direction and the calibration


def test_a_kontra_gives_its_caller_more_trumps():
    """sauspiel-finished from Sepp's seat at the first lead: Resi's Kontra (named in the auction) raises her
    expected trumps over the same worlds weighed by the bidding alone."""
    rec = load_record(ROOT / "examples" / "sauspiel-finished.toml")
    base = ["Sepp: weiter", "Vroni: weiter", "Hias: sauspiel AC", "Resi: weiter"]
    doubled = dataclasses.replace(rec, auction=_auction(rec, base + ["Resi: kontra"]))
    quiet = dataclasses.replace(rec, auction=_auction(rec, base), crack=False)
    k = W.Knowledge.from_record(rec, seat="Sepp", upto=0)
    worlds = W.WorldSampler(k).sample(3000, seed=4)
    g = rec.game
    trumps = [sum(1 for c in w.setup.hands[3] if g.is_trump(c)) for w in worlds]

    def mean(source):
        like = AuctionLikelihood.of(source)
        ws = [like(w.setup.hands) for w in worlds]
        return math.fsum(w * t for w, t in zip(ws, trumps)) / math.fsum(ws)

    assert mean(doubled) > mean(quiet) + 0.3


def _auction(rec, calls):
    from sheepsolve.inference.auction import read_auction

    return read_auction(calls, game=rec.game, players=rec.players, declarer=rec.declarer, called=rec.called,
                        crack=any(c.endswith("kontra") for c in calls))


@pytest.mark.parametrize("form, call", [("sheepshead", RECRACK), ("sauspiel", CRACK), ("sauspiel", KLOPFEN),
                                        ("short", CRACK)])
def test_doubles_the_model_plays_are_calibrated(form, call):
    """Deals whose auctions and doubles the model plays (sheepsolve.inference.double_calibration): the weighted
    beliefs about the doubler match what he holds (P(holds QC) bin by bin, chi-square below its 99.9% point; his
    trumps, |z| < 3.3), and the bidding alone is off the other way: it gives the doubler fewer trumps than he holds
    (a z above 2), so the test can tell a likelihood that leaves the doubles out."""
    r = calibrate_doubles(form, call, deals=150, worlds=300 if form == "sheepshead" else 100, seed=36)
    assert r.passes, r
    assert r.bidding_z > 2 and r.bidding_trumps < r.mean_trumps, r


@pytest.mark.slow
@pytest.mark.parametrize("form, call, worlds", [
    ("sheepshead", CRACK, 100), ("sheepshead", RECRACK, 300), ("called-ace", CRACK, 300), ("called-ace", RECRACK, 1000),
    ("sauspiel", CRACK, 100), ("sauspiel", RECRACK, 200), ("sauspiel", KLOPFEN, 100), ("short", CRACK, 300),
    ("short", RECRACK, 600), ("short", KLOPFEN, 600)])
def test_every_double_the_model_plays_is_calibrated(form, call, worlds):
    """Every doubling call of every table, on more deals, with worlds enough to keep the mean effective sample near
    20 or more: with 8 (called-ace's and the short deck's Re, the short deck's Klopfen at 100 or 300 worlds) the
    self-normalised weights lean towards the uniform worlds, and the bins or the z failed (docs/TUNING.md)."""
    r = calibrate_doubles(form, call, deals=300, worlds=worlds, seed=36)
    assert r.passes, r
