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
from sheepsolve.inference.model import (
    AuctionLikelihood,
    BuryChoice,
    CallModel,
    auction_likelihood,
    bury_distribution,
    bury_probability,
    call_probability,
    contract_probabilities,
    default_model,
    features,
    has_model,
    mask_of_hand,
    model_info,
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


def sheepshead_deal(g, rng, model):
    """A deal whose auction the model plays: each seat in turn picks with the model's probability, the picker
    buries as the model says. None when every seat passes."""
    deck = list(g.deck)
    rng.shuffle(deck)
    dealt = [deck[i * g.hand_size:(i + 1) * g.hand_size] for i in range(g.seats)]
    blind = deck[g.seats * g.hand_size:]
    for seat in range(g.seats):
        if rng.random() < pick_probability(g, dealt[seat], model):
            picked = dealt[seat] + blind
            dist = bury_distribution(g, picked, model)
            options = sorted(dist, key=lambda o: o[0])
            (bury, _, _, _), = rng.choices(options, weights=[dist[o] for o in options])
            first_lead = [c for c in picked if not bury >> c & 1]
            hands = [h if s != seat else first_lead for s, h in enumerate(dealt)]
            return seat, hands, [Card(i) for i in range(32) if bury >> i & 1]
    return None


def schafkopf_deal(g, rng, model):
    """A deal whose auction the model plays: every seat chooses weiter or a contract with the model's
    probabilities; the highest contract wins, the earlier seat on a tie. None when all say weiter."""
    deck = list(g.deck)
    rng.shuffle(deck)
    hands = [deck[i * g.hand_size:(i + 1) * g.hand_size] for i in range(g.seats)]
    best = None
    for seat in range(g.seats):
        dist = contract_probabilities(g, hands[seat], model)
        options = sorted(dist, key=lambda c: (-1, "") if c is None else (c.rank, c.label()))
        choice, = rng.choices(options, weights=[dist[c] for c in options])
        if choice is not None and (best is None or choice.rank > best[1].rank):
            best = (seat, choice)
    return None if best is None else (best[0], hands, best[1])


def contract_game(base, c):
    return make_game(c.game, trump=c.trump, tout=c.tout or None)


def chi_square(predicted, observed, bins=5):
    """Predicted probabilities against what happened, binned by prediction: the chi-square of the bins' counts
    (each bin: (observed - sum p)^2 / sum p(1 - p)), with as many degrees of freedom as bins that hold data."""
    edges = [i / bins for i in range(bins + 1)]
    stat, df = 0.0, 0
    for lo, hi in zip(edges, edges[1:]):
        inside = [(p, o) for p, o in zip(predicted, observed) if lo <= p < hi or (hi == 1 and p == 1)]
        var = sum(p * (1 - p) for p, _ in inside)
        if var < 1:
            continue
        stat += (sum(o for _, o in inside) - sum(p for p, _ in inside)) ** 2 / var
        df += 1
    return stat, df


CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52}
"""The chi-square's 99.9% points: a right model fails one run in a thousand."""


def beliefs(viewer_hand, unseen, seats_hidden, sizes, like, target, rng, worlds):
    """P(target holds each card) and its expected trumps under the weighted worlds: uniform deals of the unseen
    cards weighted by the auction's likelihood (self-normalised importance sampling)."""
    total = 0.0
    held: dict[Card, float] = {}
    samples = []
    for _ in range(worlds):
        cards = unseen[:]
        rng.shuffle(cards)
        out, at = {}, 0
        for s, n in zip(seats_hidden, sizes):
            out[s] = cards[at:at + n]
            at += n
        w = like(out)
        total += w
        samples.append((w, out[target]))
    return total, samples


@pytest.mark.parametrize("form", ["sheepshead", "sauspiel"])
def test_calibration_beliefs_match_frequencies(form):
    """Deals whose auctions the model plays: from a defender's seat, the weighted worlds' P(the declarer holds
    the top trump) (QC, the Eichel-Ober) must match how often he does, bin by bin (chi-square at 99.9%), and their
    expected number of the declarer's trumps must match his trumps summed over the deals (|z| < 3.3); the same
    z with the worlds unweighted (today's uniform worlds) must fail: the test can tell."""
    model = default_model()
    rng = random.Random(36)
    g = make_game("sheepshead") if form == "sheepshead" else make_game("sauspiel")
    top = Card.parse("QC")
    weighted, uniform, observed = [], [], []
    trump_err, trump_var, uniform_err, uniform_var = 0.0, 0.0, 0.0, 0.0
    deals = 0
    while deals < 160:
        if form == "sheepshead":
            got = sheepshead_deal(g, rng, model)
            if got is None:
                continue
            decl, hands, bury = got
            game = g
            like_of = AuctionLikelihood(implied_auction(g, decl), model=model)
        else:
            got = schafkopf_deal(g, rng, model)
            if got is None:
                continue
            decl, hands, contract = got
            game = make_game(contract.game, trump=contract.trump, tout=contract.tout or None)
            if contract.game == "sie":
                continue
            like_of = AuctionLikelihood(implied_auction(game, decl, called=contract.called), model=model)
            bury = []
        deals += 1
        viewer = (decl + 1 + rng.randrange(g.seats - 1)) % g.seats
        hidden = [s for s in range(g.seats) if s != viewer]
        sizes = [len(hands[s]) for s in hidden]
        unseen = [c for s in hidden for c in hands[s]] + list(bury)
        if bury:
            hidden.append("bury")
            sizes.append(len(bury))

        def like(out):
            hs = [out.get(s, hands[viewer]) for s in range(g.seats)]
            return like_of(hs, bury=out.get("bury"))

        total, samples = beliefs(hands[viewer], unseen, hidden, sizes, like, decl, rng, 150)
        p = sum(w for w, h in samples if top in h) / total
        weighted.append(p)
        uniform.append(sum(1 for _, h in samples if top in h) / len(samples))
        observed.append(1 if top in hands[decl] else 0)
        mean_t = sum(w * sum(1 for c in h if game.is_trump(c)) for w, h in samples) / total
        var_t = sum(w * sum(1 for c in h if game.is_trump(c)) ** 2 for w, h in samples) / total - mean_t ** 2
        held_t = sum(1 for c in hands[decl] if game.is_trump(c))
        trump_err += held_t - mean_t
        trump_var += var_t
        ts = [sum(1 for c in h if game.is_trump(c)) for _, h in samples]
        uniform_err += held_t - sum(ts) / len(ts)
        uniform_var += sum(t * t for t in ts) / len(ts) - (sum(ts) / len(ts)) ** 2
    stat, df = chi_square(weighted, observed)
    assert df >= 2 and stat < CHI2_999[df], (stat, df)
    z = trump_err / math.sqrt(trump_var)
    assert abs(z) < 3.3, z
    # the uniform worlds (no weights) must fail the same tests: the declarer's trumps are far from them
    assert uniform_err / math.sqrt(uniform_var) > 3.3
