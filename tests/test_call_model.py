"""The model of the calls (sheepsolve.inference.model): features by bitmask against a plain count, probabilities
that add up, the likelihood as the product of its calls, the data's rebuild from its seed, and calibration: deals
whose auctions the model itself plays must show the frequencies the model's beliefs predict."""

from __future__ import annotations

import itertools
import json
import math
import random
from importlib import resources

import pytest

from sheepsolve.cards import Card
from sheepsolve.engine import legal_calls
from sheepsolve.games import make_game
from sheepsolve.inference.auction import AT_MOST, CONTRACT, PASS, PICK, PLAY, Call, ContractCall, implied_auction
from sheepsolve.inference.build import build_model, fit
from sheepsolve.inference.calibration import calibrate
from sheepsolve.inference.likelihood import AuctionLikelihood, auction_likelihood
from sheepsolve.inference.model import (
    BuryChoice,
    CallModel,
    bury_distribution,
    bury_probability,
    call_probability,
    contract_probabilities,
    default_model,
    features,
    has_model,
    mask_of_hand,
    model_info,
    Picker,
    pick_probability,
)

GAMES = [make_game("sheepshead"), make_game("sheepshead", partner="called-ace"), make_game("sheepshead-3"),
         make_game("sauspiel"), make_game("solo", trump="S"), make_game("wenz"), make_game("geier"),
         make_game("farbwenz", trump="D"), make_game("sauspiel", deck="short")]


def plain_features(game, hand):
    trumps = [c for c in game.trumps if c in hand]
    run = 0
    for c in game.trumps:
        if c not in hand:
            break
        run += 1
    tops = {"sheepshead": "QJ"}.get(game.family, None) or {"wenz": "J", "geier": "Q", "farbwenz": "J",
                                                           "farbgeier": "Q"}.get(game.name, "QJ")
    high = sum(1 for c in trumps if c.rank == tops[0])
    second = sum(1 for c in trumps if len(tops) > 1 and c.rank == tops[1])
    plain = [c for c in hand if not game.is_trump(c)]
    return dict(trumps=len(trumps), high=high, second=second, run=run,
                aces=sum(1 for c in plain if c.rank == "A"), tens=sum(1 for c in plain if c.rank == "T"),
                voids=sum(1 for s in game.plain_suits if not any(game.suit_class(c) == s for c in hand)),
                points=sum(c.points for c in hand),
                jd=int(game.family == "sheepshead" and Card.parse("JD") in hand))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.title)
def test_features_by_mask_match_a_plain_count(game):
    rng = random.Random(7)
    for _ in range(200):
        hand = rng.sample(list(game.deck), game.hand_size)
        f = features(game, hand)
        assert f.__dict__ == plain_features(game, hand)
        assert features(game, mask_of_hand(hand)) == f


def test_pick_probability_is_a_logistic_of_the_payment_and_passing_is_its_complement():
    g = make_game("sheepshead")
    rng = random.Random(3)
    for _ in range(50):
        hand = rng.sample(list(g.deck), 6)
        p = pick_probability(g, hand)
        assert 0 < p < 1
        assert call_probability(g, Call(0, PICK), hand) == pytest.approx(p)
        assert call_probability(g, Call(0, PASS), hand) == pytest.approx(1 - p)
        assert call_probability(g, Call(0, "crack"), hand) == 1.0


@pytest.mark.parametrize("game", [make_game("sheepshead"), make_game("sheepshead", partner="called-ace"),
                                  make_game("sheepshead-3")], ids=lambda g: g.title)
def test_bury_distribution_covers_every_legal_choice_once(game):
    if not has_model(game):
        pytest.skip(f"the shipped data has no table for {game.title}")
    rng = random.Random(5)
    for _ in range(10):
        picked = rng.sample(list(game.deck), game.hand_size + game.blind_size)
        dist = bury_distribution(game, picked)
        assert sum(dist.values()) == pytest.approx(1.0)
        want = set()
        for bury in itertools.combinations(picked, game.bury_size):
            kept = [c for c in picked if c not in bury]
            if game.partner != "called-ace":
                want.add((mask_of_hand(bury), None, False, False))
            else:
                want |= {(mask_of_hand(bury), c.card, c.card is None, bool(c.under)) for c in legal_calls(game, kept, bury)}
        assert set(dist) == want
        # a choice with a card under: the card is any kept card, each equally likely
        total = 0.0
        for (b, called, alone, under) in dist:
            cards = tuple(Card(i) for i in range(32) if b >> i & 1)
            kept = [c for c in picked if c not in cards]
            for u in (kept if under else [None]):
                total += bury_probability(game, picked, BuryChoice(cards, called, alone, u))
        assert total == pytest.approx(1.0)


@pytest.mark.parametrize("game", [make_game("sauspiel"), make_game("sauspiel", rules={"preset": "gametwist"}),
                                  make_game("sauspiel", deck="short")], ids=lambda g: g.title)
def test_contract_probabilities_add_up_and_respect_the_hand_and_rules(game):
    rng = random.Random(11)
    if not has_model(game):
        assert contract_probabilities(game, list(game.deck)[:game.hand_size]) is None
        pytest.skip(f"the shipped data has no table for {game.title}")
    for _ in range(40):
        hand = rng.sample(list(game.deck), game.hand_size)
        dist = contract_probabilities(game, hand)
        assert sum(dist.values()) == pytest.approx(1.0)
        for c in dist:
            if c is not None and c.called is not None:
                assert c.called not in hand and any(x.suit == c.called.suit and not game.is_trump(x) for x in hand)
            if c is not None and game.rules.get("preset") == "gametwist":
                assert c.game in ("sauspiel", "solo", "wenz", "geier")
        p_pass = call_probability(game, Call(0, PASS), hand)
        assert call_probability(game, Call(0, PLAY), hand) == pytest.approx(1 - p_pass)
        solo = ContractCall("solo", "H")
        below = call_probability(game, Call(0, AT_MOST, contract=solo, strict=True), hand)
        at_most = call_probability(game, Call(0, AT_MOST, contract=solo), hand)
        assert p_pass <= below <= at_most <= 1 + 1e-12
        assert at_most - below == pytest.approx(sum(p for c, p in dist.items() if c is not None and c.rank == 4))


def test_sie_is_announced_by_a_hand_of_every_ober_and_unter():
    g = make_game("sauspiel")
    hand = [c for c in g.deck if c.rank in "QJ"]
    assert contract_probabilities(g, hand) == {ContractCall("sie"): 1.0}


def test_the_likelihood_is_the_product_of_the_calls():
    g = make_game("sheepshead")
    rng = random.Random(2)
    deck = list(g.deck)
    for _ in range(20):
        rng.shuffle(deck)
        dealt = [deck[i * 6:(i + 1) * 6] for i in range(5)]
        blind = deck[30:]
        picked = dealt[3] + blind
        bury = rng.sample(picked, 2)
        hands = [h if s != 3 else [c for c in picked if c not in bury] for s, h in enumerate(dealt)]
        want = (1 - pick_probability(g, dealt[0])) * (1 - pick_probability(g, dealt[1])) * \
            (1 - pick_probability(g, dealt[2])) * pick_probability(g, dealt[3]) * \
            bury_probability(g, picked, BuryChoice(tuple(bury)))
        assert auction_likelihood(implied_auction(g, 3), hands, bury=bury, blind=blind) == pytest.approx(want)
        # without the blind (anyone but the picker) the pick is averaged over where the blind could lie
        splits = list(itertools.combinations(picked, 2))
        mean_pick = sum(pick_probability(g, [c for c in picked if c not in s]) for s in splits) / len(splits)
        assert auction_likelihood(implied_auction(g, 3), hands, bury=bury) == pytest.approx(want / pick_probability(
            g, dealt[3]) * mean_pick)


def test_schafkopf_likelihood_is_the_product_of_the_implied_calls():
    g = make_game("wenz")
    rng = random.Random(4)
    deck = list(g.deck)
    for _ in range(20):
        rng.shuffle(deck)
        hands = [deck[i * 8:(i + 1) * 8] for i in range(4)]
        dists = [contract_probabilities(g, h) for h in hands]
        wenz = ContractCall("wenz")
        want = sum(p for c, p in dists[0].items() if c is None or c.rank < 3) * dists[1][wenz] * \
            sum(p for c, p in dists[2].items() if c is None or c.rank <= 3) * \
            sum(p for c, p in dists[3].items() if c is None or c.rank <= 3)
        assert auction_likelihood(implied_auction(g, 1), hands) == pytest.approx(want)


def test_a_record_with_an_auction_weighs_its_calls():
    from sheepsolve.record import parse_record
    rec = parse_record('''
game = "sauspiel"
players = ["A", "B", "C", "D"]
declarer = "C"
called = "AS"
auction = ["A: weiter", "B: weiter", "C: play", "D: play", "C: sauspiel AS", "D: sauspiel AC"]
''')
    g = rec.game
    rng = random.Random(9)
    deck = list(g.deck)
    for _ in range(10):
        rng.shuffle(deck)
        hands = [deck[i * 8:(i + 1) * 8] for i in range(4)]
        ps = [call_probability(g, c, hands[s]) for s, c in rec.auction.bidding().items()]
        assert auction_likelihood(rec, hands) == pytest.approx(math.prod(ps))
    assert [c.kind for c in rec.auction.bidding().values()] == [PASS, PASS, CONTRACT, CONTRACT]


def test_forms_without_data_weigh_nothing():
    empty = CallModel({"models": {}, "temperature": {"sheepshead": 1.0, "schafkopf": 10.0}})
    g = make_game("sheepshead")
    assert not has_model(g, empty) and has_model(g)
    assert pick_probability(g, list(g.deck)[:6], empty) == 1.0
    assert auction_likelihood(implied_auction(g, 2), [list(g.deck)[i * 6:(i + 1) * 6] for i in range(5)],
                              bury=list(g.deck)[30:], model=empty) == 1.0


# -- the data --------------------------------------------------------------------------------------------------


def test_shipped_data_records_how_it_was_built():
    info = model_info()
    data = json.loads(resources.files("sheepsolve.inference").joinpath("call_model.json").read_text())
    for key in ("seed", "hands", "worlds", "temperature", "commit", "seconds", "ridge"):
        assert key in info and data[key] == info[key]
    for form, n in data["hands"].items():
        assert n > 0 and any(k.startswith(form + "/") for k in data["models"])


def test_a_small_rebuild_is_deterministic_and_fits_its_samples():
    hands = {"sheepshead/jack-of-diamonds": 6, "schafkopf-4-short": 3}
    a = build_model(seed=5, hands=hands, worlds=2)
    b = build_model(seed=5, hands=hands, worlds=2)
    assert a["models"] == b["models"] and a["seed"] == 5 and a["hands"] == hands and a["worlds"] == 2
    c = build_model(seed=6, hands=hands, worlds=2)
    assert c["models"] != a["models"]
    model = CallModel(a)
    assert has_model(make_game("sheepshead"), model) and has_model(make_game("wenz", deck="short"), model)
    assert not has_model(make_game("sheepshead", partner="called-ace"), model)


def test_fit_recovers_known_weights():
    rng = random.Random(1)
    rows = [(1.0, rng.random(), rng.random()) for _ in range(200)]
    ys = [2 - 3 * x1 + 0.5 * x2 for _, x1, x2 in rows]
    assert fit(rows, ys, ridge=0) == pytest.approx([2, -3, 0.5], abs=1e-9)


# -- calibration -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("form, worlds", [("sheepshead", 100), ("called-ace", 300), ("sauspiel", 100)])
def test_calibration_beliefs_match_frequencies(form, worlds):
    """Deals whose auctions the model plays (sheepsolve.inference.calibration): from a defender's seat, the weighted
    worlds' P(the declarer holds QC, the Eichel-Ober) matches how often he does, bin by bin (chi-square below its
    99.9% point), and their expected number of his trumps matches his trumps over the deals (|z| < 3.3); the
    same z of the uniform worlds (no weights) must fail: the test can tell a model that reads the auction. (Too few
    worlds bias the binned predictions towards the extremes: called-ace's weights need 300 to keep the effective
    sample near 25.)"""
    r = calibrate(form, deals=100, worlds=worlds, seed=36)
    assert r.passes, r
    assert r.uniform_z > 3.3, r


def test_calibration_catches_a_likelihood_that_weighs_the_wrong_hands():
    """The same statistics with every seat's hand shifted by one seat in the likelihood: the beliefs then answer
    for the wrong seat, and the calibration fails."""
    import sheepsolve.inference.calibration as cal

    class Shifted(cal.AuctionLikelihood):
        def __call__(self, hands, **kw):
            return super().__call__(list(hands[1:]) + list(hands[:1]), **kw)

    original = cal.AuctionLikelihood
    cal.AuctionLikelihood = Shifted
    try:
        r = calibrate("sheepshead", deals=100, worlds=100, seed=36)
    finally:
        cal.AuctionLikelihood = original
    assert not r.passes, r


def test_every_hand_is_one_sample_of_its_pick_table():
    from sheepsolve.inference.build import collect_samples

    got = collect_samples(seed=4, hands={"sheepshead-3/alone": 3, "sheepshead/jack-of-diamonds": 3}, worlds=1)
    assert len(got["samples"]["sheepshead-3/alone/pick"]) == 3
    jd = got["samples"]
    assert len(jd.get("sheepshead/jack-of-diamonds/pick", [])) + len(jd.get("sheepshead/jack-of-diamonds/pick-jd",
                                                                            [])) == 3


@pytest.mark.parametrize("game", [make_game("sheepshead"), make_game("sheepshead", partner="called-ace"),
                                  make_game("sheepshead", partner="alone"), make_game("sheepshead-3"),
                                  make_game("sheepshead-4")], ids=lambda g: f"{g.name}-{g.seats}-{g.partner}")
def test_the_likelihoods_bury_scorer_is_the_softmax_over_every_choice(game):
    """The likelihood's bury factor (a choice's utility summed card by card) against bury_probability, which
    works out every choice's terms: every legal choice of random picked hands, and a choice that is not legal."""
    like = AuctionLikelihood(implied_auction(game, 0))
    rng = random.Random(7)
    deck = list(game.deck)
    size = game.hand_size + game.blind_size
    checked = 0
    for _ in range(6):
        rng.shuffle(deck)
        picked = deck[:size]
        dist = bury_distribution(game, picked)
        if dist is None:  # a form without data: the bury weighs nothing
            assert not has_model(game) and like.bury(mask_of_hand(picked), mask_of_hand(picked[:2]), None, True,
                                                     False) == 1.0
            return
        for (b, called, alone, under), p in dist.items():
            got = like.bury(mask_of_hand(picked), b, called, alone, under)
            assert got == pytest.approx(p / ((mask_of_hand(picked) & ~b).bit_count() if under else 1), rel=1e-9)
            checked += 1
        outside = next(c for c in game.deck if c not in picked)
        assert like.bury(mask_of_hand(picked), mask_of_hand(picked[:1]) | 1 << outside, None, True, False) == 0.0
    assert checked > 6 * 15


@pytest.mark.parametrize("game", [make_game("sheepshead"), make_game("sheepshead", partner="alone"),
                                  make_game("sheepshead-3"), make_game("sheepshead", partner="called-ace")],
                         ids=lambda g: f"{g.name}-{g.seats}-{g.partner}")
def test_the_bury_factor_remembered_per_order_of_parts_is_the_one_over_every_choice(game):
    """The bury factor whose softmax sum is remembered per order of the picked cards' parts is, to the last bit,
    the one worked out over every choice, for every choice of random picked hands and of hands met again with a
    card swapped for one alike (the sum then remembered)."""
    like = AuctionLikelihood(implied_auction(game, 0))
    rng = random.Random(17)
    deck = list(game.deck)
    size = game.hand_size + game.blind_size
    hands = []
    for _ in range(30):
        rng.shuffle(deck)
        hands.append(mask_of_hand(deck[:size]))
    if like.bury.w is None:  # a form without data: the bury weighs nothing
        assert not has_model(game)
        return
    parts = like.bury.part_of
    for h in list(hands):  # a twin: one card swapped for another of its part, not held
        for c in range(32):
            twin = next((d for d in range(32) if d != c and parts[d] == parts[c] and not h >> d & 1
                         and d in deck), None) if h >> c & 1 else None
            if twin is not None:
                hands.append(h & ~(1 << c) | 1 << twin)
                break
    for h in hands:
        cards = [c for c in range(32) if h >> c & 1]
        for pair in itertools.combinations(cards, game.bury_size):
            b = sum(1 << c for c in pair)
            for called, alone, under in ((None, True, False),) + (((Card.make("A", "H"), False, False),)
                                                                  if game.partner == "called-ace" else ()):
                assert like.bury(h, b, called, alone, under) == like.bury.every_choice(h, b, called, alone, under)
    if game.partner != "called-ace":
        assert 0 < len(like.bury._sums) < len(hands)  # some orders of parts met twice


@pytest.mark.parametrize("game", [g for g in GAMES if g.family == "schafkopf"], ids=lambda g: g.name)
def test_the_likelihoods_call_scorers_give_the_contract_probabilities_exactly(game):
    """Each seat's factor of a Schafkopf likelihood (no dictionary of contracts) is, to the last bit, what the
    contract probabilities give for its call: weiter, a wish to play, a contract, and an implied 'at most'."""
    rng = random.Random(11)
    deck = list(game.deck)
    calls = [Call(0, PASS), Call(0, PLAY), Call(0, CONTRACT, ContractCall("solo", "H")),
             Call(0, CONTRACT, ContractCall("wenz")), Call(0, AT_MOST, ContractCall("wenz"), strict=True),
             Call(0, AT_MOST, ContractCall("geier"))]
    from sheepsolve.inference.auction import Auction
    for call in calls:
        like = AuctionLikelihood(Auction(game, (call,), False))
        for _ in range(40):
            rng.shuffle(deck)
            hand = deck[:game.hand_size]
            want = _call_want(contract_probabilities(game, hand), call)
            assert like.scorers[0](mask_of_hand(hand)) == want
            # a hand of the same class (a card swapped for one of its part: remembered) gives its own figure too
            h = mask_of_hand(hand)
            part = next((a for a in like.scorers[0].parts if h & a and a & ~h), None)
            if part is not None:
                out, into = (h & part) & -(h & part), (part & ~h) & -(part & ~h)
                twin = [c for c in deck if (h & ~out | into) >> c & 1]
                memo = len(like.scorers[0]._memo)
                got = like.scorers[0](mask_of_hand(twin))
                assert len(like.scorers[0]._memo) == memo  # remembered, not worked out again
                assert got == _call_want(contract_probabilities(game, twin), call)


def _call_want(dist, call) -> float:
    if call.kind == PASS:
        return dist.get(None, 0.0)
    if call.kind == PLAY:
        return 1.0 - dist.get(None, 0.0)
    if call.kind == CONTRACT:
        return dist.get(call.contract, 0.0)
    bound = call.contract.rank
    return sum(p for c, p in dist.items() if c is None or (c.rank < bound if call.strict else c.rank <= bound))


def test_a_floor_stops_the_likelihood_only_below_it():
    """With a floor the likelihood is worked out only while it stays above it: the full value where it ends
    above the floor, a value at most the floor where the full one is at most the floor."""
    for game, declarer in [(make_game("sheepshead"), 3), (make_game("sauspiel"), 2)]:
        like = AuctionLikelihood(implied_auction(game, declarer))
        rng = random.Random(5)
        deck = list(game.deck)
        for _ in range(30):
            rng.shuffle(deck)
            n = game.hand_size
            hands = [deck[i * n:(i + 1) * n] for i in range(game.seats)]
            bury = deck[game.seats * n:game.seats * n + game.blind_size] if game.blind_size else None
            full = like(hands, bury=bury)
            for floor in (full / 2, full, full * 2, 0.5):
                got = like(hands, bury=bury, floor=floor)
                assert got == full if full > floor else got <= floor


@pytest.mark.parametrize("game", [make_game("sheepshead"), make_game("sheepshead", partner="called-ace"),
                                  make_game("sheepshead-3")], ids=lambda g: f"{g.name}-{g.partner}")
def test_the_pick_average_remembered_per_class_is_the_plain_average(game):
    """The pick's average over where the blind lay, remembered per class of picked hands, against the plain
    average of pick_probability over every split, for hands met in any order (a class met first by another
    hand gives the same figure)."""
    like = AuctionLikelihood(implied_auction(game, 0))
    rng = random.Random(3)
    deck = list(game.deck)
    size = game.hand_size + game.blind_size
    hands = []
    for _ in range(60):
        rng.shuffle(deck)
        hands.append(deck[:size])
    for picked in hands + hands[::-1]:
        splits = list(itertools.combinations(picked, game.blind_size))
        want = sum(pick_probability(game, [c for c in picked if c not in s]) for s in splits) / len(splits)
        assert like.pick.mean(mask_of_hand(picked), game.blind_size) == pytest.approx(want, rel=1e-12)
    assert len(like.pick._means) < len(hands)  # some classes were met twice


@pytest.mark.parametrize("game", [make_game("sheepshead"), make_game("sheepshead", partner="called-ace"),
                                  make_game("sheepshead-3"), make_game("leaster")],
                         ids=lambda g: f"{g.name}-{g.partner}")
def test_the_pick_of_every_pair_taken_out_is_the_pick_of_each_hand_left(game):
    """The pick average's values, each hand's key worked out from the picked hand's terms and the two cards taken
    out, are to the last bit and in the same order P(pick) of each hand left (its key from its own masks)."""
    like = AuctionLikelihood(implied_auction(game, 0)) if game.kind != "leaster" else None
    pick = like.pick if like is not None else Picker(game, default_model())
    rng = random.Random(23)
    deck = list(game.deck)
    size = game.hand_size + 2
    for _ in range(80):
        rng.shuffle(deck)
        picked = mask_of_hand(deck[:size])
        bits = [1 << c for c in range(32) if picked >> c & 1]
        want = [pick(picked & ~(a | b)) for a, b in itertools.combinations(bits, 2)]
        assert pick.pair_values(picked) == want
