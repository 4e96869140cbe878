"""Bury, call, pick and contract choices (sheepsolve.bury and the bury/pick/choose commands).

The double-dummy numbers are checked against the reference minimax on small deals (hands of two or three cards,
built with ``Setup.create``, which takes small hands), world by world for the sampled modes too. Sampling is
checked for consistency with the known cards, determinism whatever the number of processes, and standard errors
that shrink with more worlds.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import statistics
import random
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES, ROOT

from sheepsolve import bury as B
from sheepsolve.bury import choices as BC, evaluation as BE, questions as BQ, results as BR, units as BU
from sheepsolve.cards import Card, parse_cards
from sheepsolve.cli import main
from sheepsolve.engine import RulesError, Setup, legal_calls
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.pool import game_spec
from sheepsolve.reference import reference_value
from sheepsolve.render.choices import lesson_text, render_bury, render_choose
from sheepsolve.scoring import Stakes, outcome_for
from sheepsolve.worlds import WorldsError, WorldSampler, before_choice, world_rng



# --------------------------------------------------------------------------------------------------------------
# helpers: the reference answer for one choice


def _reference(setup: Setup, stakes: Stakes | None = None) -> tuple[int | None, str, int]:
    """(value, outcome, declarer's own payment) by the reference minimax."""
    stakes = stakes or Stakes()
    g = setup.game
    state = setup.start()
    n = len(setup.hands[0])
    tricks_obj = Objective(team=setup.team, tricks=True)
    if g.tout:
        outcome = "win" if reference_value(state, tricks_obj) == n else "loss"
        return None, outcome, BE.own_payment(setup, outcome, stakes)
    v = reference_value(state)
    total = sum(c.points for h in setup.hands for c in h) + sum(c.points for c in setup.bury)
    floor = 0 if (g.rules.get("bury_needs_trick") or g.kind != "picker") else sum(c.points for c in setup.bury)
    tricks = None
    if not (g.kind == "contract" and g.rules.get("schwarz_by_points")):
        if v >= total:  # the most tricks the side can take
            tricks = reference_value(state, tricks_obj)
        elif v <= floor:  # the fewest it can be held to: the other side maximises its own tricks
            others = frozenset(range(g.seats)) - setup.team
            tricks = n - reference_value(state, Objective(team=others, tricks=True))
    outcome = outcome_for(g, v, tricks, n)
    return v, outcome, BE.own_payment(setup, outcome, stakes)


def _small_deal(game, rng, k, picker=None):
    cards = list(game.deck)
    rng.shuffle(cards)
    hands = [sorted(cards[i * k:(i + 1) * k]) for i in range(game.seats)]
    blind = sorted(cards[game.seats * k: game.seats * k + game.blind_size])
    rest = cards[game.seats * k + game.blind_size:]
    return hands, blind, rest


SMALL_GAMES = [
    ("sheepshead", {}, 2),
    ("sheepshead", {"partner": "called-ace"}, 2),
    ("sheepshead", {"partner": "called-ace", "rules": {"run": True}}, 2),
    ("sheepshead", {"rules": {"call_up": True, "bury_needs_trick": True}}, 2),
    ("sheepshead", {"rules": {"blitz": True}}, 2),
    ("sheepshead-3", {}, 3),
    ("sheepshead-4", {}, 2),
]


@pytest.mark.parametrize("name,kw,k", SMALL_GAMES)
def test_double_dummy_ranking_matches_reference(name, kw, k):
    g = make_game(name, **kw)
    rng = random.Random(f"bury-ref-{name}-{kw}")
    checked = 0
    for _ in range(2):
        hands, blind, _ = _small_deal(g, rng, k)
        picker = rng.randrange(g.seats)
        stakes = Stakes(crack=rng.random() < 0.3)
        r = B.rank_buries(g, hands, blind, picker, stakes=stakes)
        all_decisions = B.legal_decisions(g, hands[picker] + blind,
                                          [c for s, h in enumerate(hands) if s != picker for c in h])
        assert sorted(d.to_key() for d in all_decisions) == sorted(row.decision.to_key() for row in r.rows)
        for row in r.rows:
            setup = BE.setup_for(g, hands, blind, picker, row.decision)
            assert (row.value, row.outcome, row.payment) == _reference(setup, stakes), row.decision
            assert row.alone == (setup.partner is None)
            checked += 1
        keys = [BE.rank_key("payment", row.payment, row.value) for row in r.rows]
        assert keys == sorted(keys, reverse=True)
        assert [row.rank for row in r.rows] == BR.competition_ranks(keys)
    assert checked > 0


def test_payments_and_ranking_by_points():
    g = make_game("sheepshead", partner="called-ace")
    rng = random.Random(5)
    hands, blind, _ = _small_deal(g, rng, 2)
    stakes = Stakes(crack=True)
    r = B.rank_buries(g, hands, blind, 2, stakes=stakes, by="points")
    for row in r.rows:
        _, _, pay = _reference(BE.setup_for(g, hands, blind, 2, row.decision), stakes)
        assert row.payment == pay
    values = [row.value for row in r.rows]
    assert values == sorted(values, reverse=True)


def test_interchangeable_buries_solved_once_full_deal():
    """Merging interchangeable cards changes nothing, on full deals (jack of diamonds and called ace)."""
    for kw, seed in [({}, 1), ({"partner": "called-ace"}, 3)]:
        g = make_game("sheepshead", **kw)
        rng = random.Random(seed)
        from sheepsolve.deals import deal
        hands, blind = deal(g, rng)
        merged = B.rank_buries(g, hands, blind, 0)
        if kw:  # keep the called-ace check small: a few buries only, every one against the merged answer
            plain = {row.decision: row for row in merged.rows}
            from sheepsolve.solver import Solver
            solver = Solver()
            for d in list(plain)[:: max(1, len(plain) // 12)]:
                e = BE.evaluate(solver, BE.setup_for(g, hands, blind, 0, d), Stakes())
                assert (e.value, e.outcome, e.payment) == (plain[d].value, plain[d].outcome, plain[d].payment)
        else:
            unmerged = B.rank_buries(g, hands, blind, 0, merge=False)
            a = sorted((r.decision.to_key(), r.value, r.outcome, r.payment) for r in merged.rows)
            b = sorted((r.decision.to_key(), r.value, r.outcome, r.payment) for r in unmerged.rows)
            assert a == b
            assert merged.solved <= unmerged.solved == 28


def test_solve_order_guesses_and_setups_change_nothing(monkeypatch):
    """The driver's shortcuts (choices grouped by call, guesses, setups made from one per call) only change the
    work: the setups are the ones Setup.create makes, and the ranking is the one of plain solves in listed
    order."""
    from sheepsolve.deals import deal
    cases = []
    for kw, seed in [({}, 11), ({"partner": "called-ace"}, 12), ({"partner": "called-ace"}, 13)]:
        g = make_game("sheepshead", **kw)
        rng = random.Random(seed)
        hands, blind = deal(g, rng) if seed == 11 else _small_deal(g, rng, 3)[:2]
        picker = seed % g.seats
        decisions = B.legal_decisions(g, hands[picker] + blind, [c for s, h in enumerate(hands) if s != picker
                                                                   for c in h])
        choices = BE.DealChoices(g, hands, blind, picker, [decisions[k] for k in BC.solve_order(decisions)])
        for i, k in enumerate(BC.solve_order(decisions)):
            assert choices.setup(i) == BE.setup_for(g, hands, blind, picker, decisions[k])
        cases.append((g, hands, blind, picker))
    fast = [B.rank_buries(*c).to_dict() for c in cases]
    monkeypatch.setattr(BQ, "solve_order", lambda ds: list(range(len(ds))))
    monkeypatch.setattr(BE.Guesser, "guess", lambda self, d: None)
    plain = [B.rank_buries(*c).to_dict() for c in cases]
    for a, b in zip(fast, plain):
        for x in (a, b):
            del x["seconds"], x["nodes"]
        assert a == b


def test_card_groups():
    g = make_game("sheepshead")
    picked = parse_cards("QC QS JD JH 9C 8C 7S KS")
    groups = BC.card_groups(g, picked)
    c = {str(x): groups[x] for x in picked}
    assert c["QC"] == c["QS"]  # adjacent queens
    assert c["JH"] != c["JD"]  # the jack of diamonds stays apart
    assert c["9C"] == c["8C"]
    assert c["7S"] != c["KS"]  # different points
    blitz = BC.card_groups(make_game("sheepshead", rules={"blitz": True}), picked)
    assert blitz[picked[0]] != blitz[picked[1]]
    # a card of another player between two of the picker's cards keeps them apart
    g2 = BC.card_groups(g, parse_cards("QC QH"))
    assert g2[Card.parse("QC")] != g2[Card.parse("QH")]


# --------------------------------------------------------------------------------------------------------------
# Called ace: the hold-card rule, tens, the card under


def test_called_ace_choices_are_exactly_the_legal_ones():
    g = make_game("sheepshead", partner="called-ace")
    callable_ = [Card.make(r, s) for r in "AT" for s in "CSH"]
    hands_to_try = [
        parse_cards("AC AS AH 9C 7S QC JD 8H"),  # all three aces: tens
        parse_cards("AC 9C QC QS JD JH AD 8D"),  # only clubs, with its ace: under
        parse_cards("9C 7S 8H QC QS JD AD KD"),
    ]
    rng = random.Random(9)
    for _ in range(2):
        cards = list(g.deck)
        rng.shuffle(cards)
        hands_to_try.append(cards[:8])
    for picked in hands_to_try:
        rest = [c for c in g.deck if c not in picked]
        hands = [picked[:6]] + [rest[i * 6:(i + 1) * 6] for i in range(4)]
        blind = picked[6:]
        got = {d.to_key() for d in B.legal_decisions(g, picked)}
        want = set()
        for bury in itertools.combinations(picked, 2):
            kept = [c for c in picked if c not in bury]
            options = [(None, None, True)] + [(c, None, False) for c in callable_] + [
                (c, u, False) for c in callable_ for u in kept]
            for called, under, alone in options:
                try:
                    Setup.create(g, hands, declarer=0, blind=blind, bury=bury, called=called, under=under,
                                 alone=alone)
                except RulesError:
                    continue
                want.add(B.BuryDecision(tuple(g.sort_cards(bury)), called, under, alone).to_key())
        assert got == want
        for key in got:  # the hold card is kept for every call without a card under
            d = B.BuryDecision.from_key(key)
            kept = [c for c in picked if c not in d.bury]
            if d.called is not None and d.under is None:
                assert any(g.suit_class(c) == d.called.suit for c in kept)
            assert d.under is not None or d in {B.BuryDecision(d.bury, x.card, d.under, x.card is None)
                                                for x in legal_calls(g, kept, d.bury)}


def test_jack_of_diamonds_alone_is_said():
    g = make_game("sheepshead")
    hands = [parse_cards(h) for h in ("QC 7S", "AS TS", "AC KS", "QS 9H", "TH 8D")]
    blind = parse_cards("JD 8S")  # the picker finds the jack of diamonds in the blind
    r = B.rank_buries(g, hands, blind, 0)
    assert all(row.alone for row in r.rows)
    assert any(row.alone for row in r.rows if Card.parse("JD") in row.decision.bury)
    assert any("jack of diamonds" in n and "blind" in n for n in r.notes)
    assert "note: the picker holds the jack of diamonds" in render_bury(r)
    hands[4], blind = parse_cards("JD 8D"), parse_cards("TH 8S")  # now Eve is the partner
    r2 = B.rank_buries(g, hands, blind, 0)
    assert not any(row.alone for row in r2.rows)
    assert r2.notes == ()


# --------------------------------------------------------------------------------------------------------------
# Worlds


def _world(g, seat, hand, seed, i, *, blind=None, unseen=None):
    """World ``i`` of ``seed`` as bury, pick and choose deal it: the shared sampler of sheepsolve.worlds."""
    k = before_choice(g, seat, hand, blind=blind, unseen=unseen)
    return WorldSampler(k).deal(world_rng(seed, i))


def test_sampled_worlds_are_consistent_with_the_known_cards():
    g = make_game("sheepshead")
    hand = parse_cards("QC QS JD AD 9C TS")
    blind = parse_cards("7H 8H")
    for i in range(100):
        hands, bl = _world(g, 3, hand, 7, i, blind=blind)
        assert set(hands[3]) == set(hand) and set(bl) == set(blind)
        assert all(len(h) == 6 for h in hands)
        every = [c for h in hands for c in h] + bl
        assert len(every) == 32 and set(every) == set(g.deck)
    # picking: the blind is unseen too
    for i in range(50):
        hands, bl = _world(g, 0, hand, 1, i)
        assert len(bl) == 2 and set(hands[0]) == set(hand) and len(set().union(*hands, bl)) == 32
    with pytest.raises(WorldsError):
        _world(g, 0, hand, 0, 0, unseen=g.deck[6:11])


def test_sampled_worlds_are_uniform_chi_square():
    """Bury's worlds (the picker's hand and the blind known) are uniform over every deal of the unseen cards: a
    chi-square test on a small deal whose deals can be counted (6 unseen cards, two to each of three seats: 90
    deals), and the same for pick (the blind unseen: 8 cards, 2520 deals, tested on the places of each card)."""
    import math

    def chi2(observed):
        expected = sum(observed) / len(observed)
        return sum((x - expected) ** 2 / expected for x in observed)

    def limit(df):  # the 99.9% point of chi-square (Wilson-Hilferty), as in test_worlds
        return df * (1 - 2 / (9 * df) + 3.090 * math.sqrt(2 / (9 * df))) ** 3

    g = make_game("sheepshead-4")
    hand, blind = parse_cards("QC 7S"), parse_cards("JD 8S")
    unseen = parse_cards("AS TS AC KS 9D KD")
    n = 4500
    counts: Counter = Counter()
    for i in range(n):
        hands, bl = _world(g, 1, hand, 11, i, blind=blind, unseen=unseen)
        assert set(hands[1]) == set(hand) and set(bl) == set(blind)
        counts[tuple(tuple(h) for h in hands)] += 1
    assert len(counts) == 90
    assert chi2(list(counts.values())) < limit(89)
    places: Counter = Counter()
    unseen = unseen + blind
    for i in range(2000):
        hands, bl = _world(g, 1, hand, 12, i, unseen=unseen)
        places.update((c, s) for s, h in enumerate(hands) for c in h if s != 1)
        places.update((c, "blind") for c in bl)
    for c in unseen:
        row = [places[(c, s)] for s in (0, 2, 3, "blind")]
        assert sum(row) == 2000
        assert chi2(row) < limit(3), (c, row)


def _sampled_small(worlds, jobs=1, seed=0):
    g = make_game("sheepshead")
    rng = random.Random(31)
    hands, blind, rest = _small_deal(g, rng, 2)
    unseen = [c for h in hands[1:] for c in h]
    return g, hands, blind, unseen, B.sample_buries(g, hands[0], blind, 0, worlds=worlds, seed=seed, jobs=jobs,
                                                    unseen=unseen)


def test_sampled_ranking_matches_reference_world_by_world():
    g, hands, blind, unseen, r = _sampled_small(6, seed=4)
    per_decision: dict = {}
    for i in range(6):
        hs, bl = _world(g, 0, hands[0], 4, i, blind=blind, unseen=unseen)
        for row in r.rows:
            per_decision.setdefault(row.decision, []).append(_reference(BE.setup_for(g, hs, bl, 0, row.decision)))
    for row in r.rows:
        refs = per_decision[row.decision]
        vals = [v for v, _, _ in refs]
        assert row.stats.mean == pytest.approx(sum(vals) / 6)
        assert row.stats.p61 == pytest.approx(sum(v >= 61 for v in vals) / 6)
        assert row.stats.payment == pytest.approx(sum(p for _, _, p in refs) / 6)
        assert row.stats.pschwarz == pytest.approx(sum(o == "schwarz" for _, o, _ in refs) / 6)
    best = r.rows[0]
    assert best.stats.vs_best == 0 and all(row.stats.vs_best <= 1e-9 for row in r.rows)


def test_sampled_standard_errors_are_sd_over_root_n():
    """Every standard error of the picker's view, computed directly from the reference's world-by-world values:
    the sample standard deviation (divisor N - 1) over sqrt(N), for the points, the payment and the difference
    to the best choice."""
    import math
    import statistics

    n = 12
    g, hands, blind, unseen, r = _sampled_small(n, seed=9)
    per_decision: dict = {}
    for i in range(n):
        hs, bl = _world(g, 0, hands[0], 9, i, blind=blind, unseen=unseen)
        for row in r.rows:
            per_decision.setdefault(row.decision, []).append(_reference(BE.setup_for(g, hs, bl, 0, row.decision)))
    best = per_decision[r.rows[0].decision]
    checked = 0
    for row in r.rows:
        refs = per_decision[row.decision]
        vals = [v for v, _, _ in refs]
        pays = [p for _, _, p in refs]
        assert row.stats.stderr == pytest.approx(statistics.stdev(vals) / math.sqrt(n))
        assert row.stats.payment_stderr == pytest.approx(statistics.stdev(pays) / math.sqrt(n))
        diffs = [p - b[2] for p, b in zip(pays, best)]
        if row.decision != r.rows[0].decision:
            assert row.stats.vs_best == pytest.approx(statistics.fmean(diffs))
            assert row.stats.vs_best_stderr == pytest.approx(statistics.stdev(diffs) / math.sqrt(n))
        checked += statistics.stdev(vals) > 0
    assert checked  # some choice varies over the worlds: the check is not 0 == 0


def test_same_seed_same_answer_whatever_jobs(monkeypatch):
    monkeypatch.setattr(BU, "PARALLEL_AFTER_SECONDS", 0.0)  # processes even for this little work
    *_, one = _sampled_small(8, jobs=1, seed=3)
    *_, two = _sampled_small(8, jobs=2, seed=3)
    a, b = one.to_dict(), two.to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    *_, other = _sampled_small(8, jobs=1, seed=4)
    assert other.to_dict()["buries"] != a["buries"]


def test_standard_errors_shrink_with_more_worlds():
    *_, few = _sampled_small(8, seed=1)
    *_, many = _sampled_small(96, seed=1)
    se_few = [row.stats.stderr for row in few.rows if row.stats.stderr]
    se_many = [row.stats.stderr for row in many.rows if row.stats.stderr]
    assert se_few and se_many
    assert sum(se_many) / len(se_many) < sum(se_few) / len(se_few) / 2


def test_lesson_when_actual_best_differs():
    g = make_game("sheepshead")
    for seed in range(40):
        rng = random.Random(seed)
        hands, blind, _ = _small_deal(g, rng, 2)
        unseen = [c for h in hands[1:] for c in h]
        r = B.sample_buries(g, hands[0], blind, 0, worlds=6, unseen=unseen, actual_hands=hands)
        assert r.actual is not None
        if not set(r.best) & set(r.actual.best):
            words = lesson_text(r.lesson)
            assert r.lesson.deal is not None and r.lesson.deal.deal_best.decision in r.actual.best
            assert words and words.startswith("On the actual deal")
            assert r.to_dict(lesson=words)["lesson"] == words
            return
        assert r.lesson is None
    pytest.fail("no deal with a lesson in 40 tries")


def _small_view(deal_seed, worlds, seed, jobs=1, game=None):
    """A small 5-hand deal seen by the picker (seat 0), with every choice's reference (value, outcome, payment) in
    each of the view's worlds, by choice."""
    g = game or make_game("sheepshead")
    hands, blind, _ = _small_deal(g, random.Random(deal_seed), 2)
    unseen = [c for h in hands[1:] for c in h]
    r = B.sample_buries(g, hands[0], blind, 0, worlds=worlds, seed=seed, jobs=jobs, unseen=unseen)
    refs: dict = {}
    for i in range(worlds):
        hs, bl = _world(g, 0, hands[0], seed, i, blind=blind, unseen=unseen)
        for row in r.rows:
            refs.setdefault(row.decision, []).append(_reference(BE.setup_for(g, hs, bl, 0, row.decision)))
    return g, hands, blind, r, refs


def _diff_stats(worse, best):
    """The mean of best - worse, world by world, and its standard error (sample sd / sqrt(n)), directly."""
    import math
    import statistics

    diffs = [b - w for w, b in zip(worse, best)]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def test_buries_within_noise_of_the_best_tie():
    """From the picker's view a choice ties with the best when its payment's shortfall, world by world, is at most
    two of its standard errors (suggest's rule, sheepsolve.stats.within_noise); checked against the reference's
    values in every world. Equal buries (the same payment in every world) tie; the cases found include a tie
    that is not an equality and a choice beyond the noise, so the rule is exercised both ways."""
    seen = {"equal": 0, "noisy tie": 0, "beyond": 0}
    for deal_seed in range(30):
        g, hands, blind, r, refs = _small_view(deal_seed, 10, seed=deal_seed)
        best_pay = [p for _, _, p in refs[r.rows[0].decision]]
        for row in r.rows:
            pays = [p for _, _, p in refs[row.decision]]
            m, se = _diff_stats(pays, best_pay)
            tie = m <= 1e-9 or m <= 2 * se
            assert row.tie == tie, (deal_seed, row)
            assert (row.decision in r.best) == tie
            assert row.to_dict()["tie"] == tie
            if pays == best_pay:
                seen["equal"] += 1
            elif tie:
                seen["noisy tie"] += 1
            else:
                seen["beyond"] += 1
        assert r.to_dict()["best"] == [d.to_dict() for d in r.best]
        if all(seen.values()) and seen["equal"] > 30:
            break
    assert all(seen.values()), seen


def test_equal_buries_are_one_tie_group():
    """Buries that are not interchangeable (solved apart: different groups of cards) but give the same payment in
    every world share the best, and the text marks them and calls it a tie where ranks differ."""
    for deal_seed in range(60):
        g, hands, blind, r, refs = _small_view(deal_seed, 6, seed=1)
        picked = hands[0] + blind
        groups = BC.card_groups(g, picked)
        best_pay = [p for _, _, p in refs[r.rows[0].decision]]
        equal = [row for row in r.rows if [p for _, _, p in refs[row.decision]] == best_pay]
        solved_apart = {tuple(sorted(groups[c] for c in row.decision.bury)) for row in equal}
        if len(solved_apart) > 1:
            break
    else:
        pytest.fail("no deal with two buries, solved apart, equal in every world")
    assert all(row.tie and row.stats.vs_best == 0 and row.decision in r.best for row in equal)
    text = render_bury(r)
    for row in equal:
        line = next(x for x in text.splitlines() if x.startswith(f"{row.rank:>4}  "))
        assert "  best  " in line
    assert "\nbest: " in text
    if any(row.rank > 1 for row in equal):
        assert "(a tie: within two standard errors of the first" in text


def test_record_bury_cost_with_the_pickers_hand_only():
    """The lesson where only the picker's hand is known: what the record's bury costs in expectation against the
    best, its standard error computed directly from the reference's payments world by world, in the JSON and the
    text."""
    for deal_seed in range(40):
        g, hands, blind, r, refs = _small_view(deal_seed, 12, seed=deal_seed)
        worse = [row for row in r.rows if not row.tie]
        if worse:
            break
    else:
        pytest.fail("no deal with a bury beyond the noise")
    assert r.actual is None and r.lesson is None  # no record choice yet: nothing to teach
    chosen = worse[-1].decision
    rr = dataclasses.replace(r, record_choice=chosen)
    m, se = _diff_stats([p for _, _, p in refs[chosen]], [p for _, _, p in refs[r.rows[0].decision]])
    cost, cost_se, tie = rr.record_cost()
    assert cost == pytest.approx(m) and cost_se == pytest.approx(se) and not tie
    assert m > 2 * se
    d = rr.to_dict()["record_choice"]
    assert d["cost"] == pytest.approx(m, abs=1e-4) and d["cost_stderr"] == pytest.approx(se, abs=1e-4)
    assert d["tie"] is False and d["cost_unit"] == "units"
    assert rr.lesson and rr.lesson.record is not None and rr.lesson.record.cost == pytest.approx(m)
    words = lesson_text(rr.lesson)
    assert words and f"costs {m:.2f} ± {se:.2f} units a hand in expectation" in words
    assert rr.to_dict(lesson=words)["lesson"] == words
    text = render_bury(rr)
    assert f"{m:.2f} ± {se:.2f} units a hand below the best in expectation: beyond the noise" in text
    assert "lesson: " in text
    # a record choice among the best: no lesson, and the text says so
    good = dataclasses.replace(r, record_choice=r.rows[0].decision)
    assert good.lesson is None and good.record_cost()[2]
    assert "the best in expectation" in render_bury(good)


def test_cli_bury_lesson_from_the_pickers_hand_and_bury():
    """The bundled record with only the picker's hand, the blind and his bury: the JSON's lesson and
    record_choice give the cost in expectation, and the text states the caveat."""
    path = str(EXAMPLES / "bury-jd-picker-only.toml")
    runner = CliRunner()
    res = runner.invoke(main, ["bury", path, "--worlds", "24", "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["view"] == "picker" and data["actual"] is None
    rc = data["record_choice"]
    assert rc["cards"] == ["KD", "AC"] and rc["cost"] > 0 and rc["cost_stderr"] > 0
    row = next(b for b in data["buries"] if sorted(b["cards"]) == sorted(rc["cards"]))
    assert rc["cost"] == pytest.approx(-row["vs_best"], abs=1e-4) and rc["tie"] == row["tie"]
    if not rc["tie"]:
        assert "costs" in data["lesson"] and "Cal's choice" in data["lesson"]
    assert "double dummy" in data["procedure"] and "optimistically" in data["procedure"]
    assert [b for b in data["buries"] if b["tie"]] and data["buries"][0]["tie"]
    res = runner.invoke(main, ["bury", path, "--worlds", "24", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "caveat: each world is solved double dummy" in res.output and "read the picker optimistically" in \
        res.output
    assert "the record's choice" in res.output and "below the best in expectation" in res.output


# --------------------------------------------------------------------------------------------------------------
# Pick and choose


def test_pick_matches_best_choice_per_world():
    g = make_game("sheepshead-3")
    rng = random.Random(12)
    hands, blind, _ = _small_deal(g, rng, 2)
    unseen = [c for h in hands[1:] for c in h] + blind
    r = B.pick_or_pass(g, hands[0], 0, worlds=4, seed=2, unseen=unseen)
    pays = []
    for i in range(4):
        hs, bl = _world(g, 0, hands[0], 2, i, unseen=unseen)
        best = max((_reference(BE.setup_for(g, hs, bl, 0, d))
                    for d in B.legal_decisions(g, hs[0] + bl, unseen)), key=lambda t: (t[2], t[0]))
        pays.append(best[2])
    assert r.pick.payment == pytest.approx(sum(pays) / 4)
    d = r.to_dict()
    assert d["decision"] == ("pick" if r.pick.payment > 0 else "pass")
    assert {c["choice"] for c in d["choices"]} == {"pick", "pass"}
    assert sum(b["worlds"] for b in d["buries"]) == 4


def test_pick_ties_with_pass_within_noise():
    """Picking ties with passing (worth 0 in every world) when its payment is within two of its standard errors of
    0; the payment's standard error computed directly from the reference's best choice in each world. The deals
    tried include a tie and a clear decision."""
    import math
    import statistics

    g = make_game("sheepshead-3")
    seen = {"tie": 0, "clear": 0}
    for deal_seed in range(12):
        hands, blind, _ = _small_deal(g, random.Random(f"pick-tie/{deal_seed}"), 2)
        unseen = [c for h in hands[1:] for c in h] + blind
        n = 6
        r = B.pick_or_pass(g, hands[0], 0, worlds=n, seed=deal_seed, unseen=unseen)
        pays = []
        for i in range(n):
            hs, bl = _world(g, 0, hands[0], deal_seed, i, unseen=unseen)
            pays.append(max((_reference(BE.setup_for(g, hs, bl, 0, d))
                             for d in B.legal_decisions(g, hs[0] + bl, unseen)), key=lambda t: (t[2], t[0]))[2])
        m, se = statistics.fmean(pays), statistics.stdev(pays) / math.sqrt(n)
        assert r.pick.payment == pytest.approx(m) and r.pick.payment_stderr == pytest.approx(se)
        tie = abs(m) <= 1e-9 or abs(m) <= 2 * se
        assert (len(r.best) == 2) == tie and r.best[0] == r.decision
        assert r.to_dict()["best"] == r.best
        seen["tie" if tie else "clear"] += 1
    assert all(seen.values()), seen


def test_best_choice_shortcut_changes_nothing(monkeypatch):
    """Pick's best choice per world solves a choice exactly only when a null-window search shows it can take the
    best's place: the same choices (the first listed of the best, ties included: solved grouped by call, a
    choice listed earlier wins a tie) and results as solving every choice exactly."""
    from sheepsolve.deals import deal
    cases = []
    for partner, seat, by in [("called-ace", 2, "points"), ("called-ace", 0, "payment"),
                              ("jack-of-diamonds", 1, "payment")]:
        g = make_game("sheepshead", partner=partner)
        hands, blind = deal(g, random.Random(f"pick/{partner}"))
        cases.append((g, hands[seat], seat, by))
    fast = [B.pick_or_pass(g, h, seat, worlds=8, seed=2, by=by).to_dict() for g, h, seat, by in cases]
    monkeypatch.setattr(BE, "beat_target", lambda *a: 0)  # every choice solved exactly
    plain = [B.pick_or_pass(g, h, seat, worlds=8, seed=2, by=by).to_dict() for g, h, seat, by in cases]
    for a, b in zip(fast, plain):
        del a["seconds"], b["seconds"]
        assert a == b


def test_contracts_for():
    sk = make_game("sauspiel")
    hand = parse_cards("QC QS JH AH 7C 9S KS 8D")
    labels = [c.label() for c in B.contracts_for(sk, hand)]
    assert labels[:3] == ["sauspiel AC", "sauspiel AS", "sauspiel AD"]
    assert "wenz tout" in labels and "farbgeier D tout" in labels and "sie" not in labels
    assert len(labels) == 3 + 2 * (4 + 2 + 4 + 4)
    gt = [c.label() for c in B.contracts_for(make_game("sauspiel", rules={"preset": "gametwist"}), hand)]
    assert not any(x.startswith(("farb", "sie")) for x in gt)
    three = [c.label() for c in B.contracts_for(make_game("wenz", seats=3), parse_cards("QC QS JH AH 9C 9S KS TD"))]
    assert not any(x.startswith("sauspiel") for x in three)
    sie = parse_cards("QC QS QH QD JC JS JH JD")
    assert "sie" in [c.label() for c in B.contracts_for(sk, sie)]


def test_choose_matches_reference_world_by_world():
    g = make_game("solo", trump="C")
    rng = random.Random(8)
    cards = list(g.deck)
    rng.shuffle(cards)
    hand = sorted(cards[:2])
    unseen = cards[2:8]
    contracts = [B.Contract("solo", "H"), B.Contract("wenz"), B.Contract("geier", tout=True),
                 B.Contract("farbwenz", "S")]
    r = B.choose_contract(g, hand, 1, worlds=3, seed=5, contracts=contracts, unseen=unseen)
    for row in r.rows:
        refs = []
        for i in range(3):
            hs, _ = _world(g, 1, hand, 5, i, unseen=unseen)
            refs.append(_reference(BE.contract_setup(g, hs, 1, row.contract)))
        assert row.stats.payment == pytest.approx(sum(p for _, _, p in refs) / 3)
        if row.contract.tout:
            assert row.stats.mean is None
            assert row.stats.pwin == pytest.approx(sum(o == "win" for _, o, _ in refs) / 3)
        else:
            assert row.stats.mean == pytest.approx(sum(v for v, _, _ in refs) / 3)
    d = r.to_dict()
    assert any(c["contract"] == "pass" for c in d["contracts"])
    pays = [c["payment"] for c in d["contracts"]]
    assert pays == sorted(pays, reverse=True)


def test_contract_ties_and_passing_by_direct_computation():
    """Contracts tie with the best choice within two standard errors of the difference, world by world; passing
    (0 in every world) takes part: it ties with the best contract whose payment is within noise of 0, and when it
    is the best, contracts within noise below 0 tie with it. Checked on full short-deck deals against payments
    solved world by world here (the solver is checked against the reference elsewhere), standard errors computed
    directly."""
    import math
    import statistics

    from sheepsolve.deals import deal
    from sheepsolve.solver import Solver

    g = make_game("sauspiel", deck="short")
    seen = {"pass best": 0, "contract best": 0, "pass tie": 0, "tie": 0, "no tie": 0}
    solver = Solver()
    for case in range(12):
        seat = case % 4
        hand = deal(g, random.Random(f"ties/{case}"))[0][seat]
        contracts = [c for c in B.contracts_for(g, hand) if not c.tout][:6]
        n = 10
        r = B.choose_contract(g, hand, seat, worlds=n, seed=case, contracts=contracts)
        pays = {}  # the payments of every world, solved here one by one
        for i in range(n):
            hs, _ = _world(g, seat, hand, case, i)
            for c in contracts:
                solver.clear()
                pays.setdefault(c, []).append(BE.evaluate(solver, BE.contract_setup(g, hs, seat, c), Stakes()).payment)
        top = r.rows[0]
        for row in r.rows:
            col = pays[row.contract]
            assert row.stats.payment == pytest.approx(statistics.fmean(col))
            assert row.stats.payment_stderr == pytest.approx(statistics.stdev(col) / math.sqrt(n))
            if statistics.fmean(pays[top.contract]) <= 0:  # passing is the best
                m, se = -statistics.fmean(col), statistics.stdev(col) / math.sqrt(n)
            else:
                m, se = _diff_stats(col, pays[top.contract])
            assert row.tie == (m <= 1e-9 or m <= 2 * se), (case, row)
            seen["tie" if row.tie else "no tie"] += 1
        if top.stats.payment <= 0:
            seen["pass best"] += 1
            assert r.pass_tie and r.best[0] == "pass"
        else:
            seen["contract best"] += 1
            top_col = pays[top.contract]
            assert r.pass_tie == (statistics.fmean(top_col) <= 2 * statistics.stdev(top_col) / math.sqrt(n))
            seen["pass tie"] += r.pass_tie
        d = r.to_dict()
        assert d["best"] == r.best
        assert [c["tie"] for c in d["contracts"] if c["contract"] != "pass"] == [row.tie for row in r.rows]
        assert next(c for c in d["contracts"] if c["contract"] == "pass")["tie"] == r.pass_tie
        assert "caveat: " in render_choose(r) and "optimistically" in d["procedure"]
    assert all(seen.values()), seen


def test_pick_and_choose_same_seed_same_answer_whatever_jobs(monkeypatch):
    monkeypatch.setattr(BU, "PARALLEL_AFTER_SECONDS", 0.0)  # processes even for this little work
    g = make_game("sheepshead-3")
    hand = parse_cards("QC 7S")
    unseen = parse_cards("AS TS AC KS JD 8S")
    picks = [B.pick_or_pass(g, hand, 0, worlds=6, seed=3, unseen=unseen, jobs=j).to_dict() for j in (1, 2)]
    sk = make_game("solo", trump="H")
    contracts = [B.Contract("solo", "H"), B.Contract("wenz"), B.Contract("geier", tout=True)]
    chooses = [B.choose_contract(sk, parse_cards("QC JC"), 0, worlds=6, seed=3, contracts=contracts,
                                 unseen=parse_cards("AH TH AS TS KS 9S"), jobs=j).to_dict() for j in (1, 2)]
    for a, b in (picks, chooses):
        a.pop("seconds"), b.pop("seconds")
        assert a == b


def _every_deal(unseen, sizes):
    """Every way to deal ``unseen`` into groups of ``sizes`` (brute force, independent of the sampler)."""
    if not sizes:
        yield []
        return
    for group in itertools.combinations(unseen, sizes[0]):
        rest = [c for c in unseen if c not in group]
        for tail in _every_deal(rest, sizes[1:]):
            yield [sorted(group)] + tail


@pytest.mark.parametrize("name,kw", [("sheepshead", {}), ("sheepshead", {"partner": "called-ace"}),
                                     ("sheepshead-3", {}), ("sheepshead-4", {})])
def test_exact_picker_view_is_the_average_over_every_deal(name, kw):
    """worlds="all": every deal of the unseen cards once; each choice's mean points and payment equal the exact
    average of the reference's values over a brute-force list of the deals, with no sampling error, and only
    equal choices tie."""
    g = make_game(name, **kw)
    k = 1 if g.seats == 5 else 2  # 5-hand: 4 unseen cards, 24 deals (2 cards a hand would be 2520)
    hands, blind, _ = _small_deal(g, random.Random(f"exact/{name}/{kw}"), k)
    unseen = [c for h in hands[1:] for c in h]
    r = B.sample_buries(g, hands[0], blind, 0, worlds="all", unseen=unseen)
    deals = list(_every_deal(unseen, [k] * (g.seats - 1)))
    assert r.exact and r.worlds == len(deals) == math.factorial(len(unseen)) // math.factorial(k) ** (g.seats - 1)
    for row in r.rows:
        refs = [_reference(BE.setup_for(g, [sorted(hands[0])] + d, blind, 0, row.decision)) for d in deals]
        assert row.stats.mean == pytest.approx(statistics.fmean(v for v, _, _ in refs))
        assert row.stats.payment == pytest.approx(statistics.fmean(p for _, _, p in refs))
        assert row.stats.stderr == 0 and row.stats.payment_stderr == 0 and row.stats.vs_best_stderr == 0
        assert row.tie == (abs(row.stats.vs_best) <= 1e-9)
    assert r.to_dict()["exact"] is True
    assert "every one of the" in render_bury(r)


def test_exact_pick_and_choose_are_the_average_over_every_deal():
    g = make_game("sheepshead-3")
    hands, blind, _ = _small_deal(g, random.Random("exact-pick"), 2)
    unseen = [c for h in hands[1:] for c in h] + blind
    p = B.pick_or_pass(g, hands[0], 0, worlds="all", unseen=unseen)
    pays = []
    for d in _every_deal(unseen, [2, 2, 2]):
        hs, bl = [sorted(hands[0]), d[0], d[1]], d[2]
        pays.append(max((_reference(BE.setup_for(g, hs, bl, 0, x)) for x in B.legal_decisions(g, hs[0] + bl, unseen)),
                        key=lambda t: (t[2], t[0]))[2])
    assert p.exact and p.worlds == len(pays) == 90
    assert p.pick.payment == pytest.approx(statistics.fmean(pays)) and p.pick.payment_stderr == 0
    assert p.best == ([p.decision] if abs(p.pick.payment) > 1e-9 else [p.decision, "pass" if p.decision == "pick"
                                                                         else "pick"])
    sk = make_game("solo", trump="C")
    rng = random.Random("exact-choose")
    cards = list(sk.deck)
    rng.shuffle(cards)
    hand, unseen = sorted(cards[:2]), cards[2:8]
    contracts = [B.Contract("solo", "H"), B.Contract("wenz"), B.Contract("geier", tout=True)]
    c = B.choose_contract(sk, hand, 1, worlds="all", contracts=contracts, unseen=unseen)
    deals = list(_every_deal(unseen, [2, 2, 2]))
    assert c.exact and c.worlds == len(deals) == 90
    for row in c.rows:
        refs = [_reference(BE.contract_setup(sk, [d[0], hand, d[1], d[2]], 1, row.contract)) for d in deals]
        assert row.stats.payment == pytest.approx(statistics.fmean(p for _, _, p in refs))
        assert row.stats.payment_stderr == 0
    assert c.to_dict()["exact"] is True and "every one of the 90 deals" in render_choose(c)


def test_all_worlds_above_the_cap_is_refused(tmp_path):
    res = CliRunner().invoke(main, ["bury", str(EXAMPLES / "bury-jd-picker-only.toml"), "--worlds", "all"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "--worlds all: 2,308,743,493,056 consistent worlds from Cal's seat, over the cap of 20,000" in res.output
    for cmd, path in (("pick", "bury-jd-picker-only.toml"), ("choose", "bury-choose-sauspiel-hand.toml")):
        res = CliRunner().invoke(main, [cmd, str(EXAMPLES / path), "--worlds", "all"])
        assert res.exit_code == 2 and "over the cap of 20,000" in res.output, res.output
    res = CliRunner().invoke(main, ["pick", str(EXAMPLES / "bury-jd-picker-only.toml"), "--worlds", "some"])
    assert res.exit_code == 2 and "--worlds" in res.output


# --------------------------------------------------------------------------------------------------------------
# CLI


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_cli_examples():
    runner = CliRunner()
    assert sorted(p.name for p in EXAMPLES.glob("bury-*.toml")) == [
        "bury-called-ace-full.toml", "bury-choose-sauspiel-hand.toml", "bury-jd-full.toml",
        "bury-jd-picker-only.toml"]
    jd = str(EXAMPLES / "bury-jd-full.toml")
    res = runner.invoke(main, ["bury", jd, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["view"] == "actual" and len(data["buries"]) == 28 and data["picker"] == "Bob"
    assert {"cards", "value", "outcome", "payment", "rank", "call", "under", "alone"} <= set(data["buries"][0])
    assert data["record_choice"]["cards"] == ["KS", "9H"] and data["record_choice"]["rank"] >= 1
    assert all(b["alone"] for b in data["buries"])  # Bob holds the jack of diamonds
    res = runner.invoke(main, ["bury", jd, "--view", "picker", "--worlds", "1", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "28 legal choices" in res.output and "the record's choice" in res.output
    assert "lesson: " in res.output or "also among the best in expectation" in res.output
    assert res.stderr == ""  # no progress bar when standard error is not a terminal
    partial = str(EXAMPLES / "bury-jd-picker-only.toml")
    res = runner.invoke(main, ["bury", partial, "--json", "--worlds", "1", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["view"] == "picker" and data["worlds"] == 1 and data["actual"] is None
    assert {"cards", "mean", "stderr", "p61", "p91", "pschwarz", "payment"} <= set(data["buries"][0])


@pytest.mark.parametrize("args,message", [
    (["bury", "missing.toml"], "missing.toml"),
    (["bury", "{partial}", "--view", "actual"], "double dummy needs every hand"),
    (["bury", "{noblind}"], "blind"),
    (["bury", "{schafkopf}"], "has no bury"),
    (["bury", "{partial}", "--worlds", "0"], "0"),
    (["pick", "{partial}", "--seat", "Zed"], "--seat"),
    (["pick", "{schafkopf}", "--seat", "A"], "has no picking"),
    (["pick", "{partial}", "--seat", "Bob"], "hands.Bob"),
    (["bury", "{leaster}"], "has no bury"),
    (["choose", "{partial}", "--seat", "Ann"], "not Schafkopf"),
    (["choose", "{schafkopf}", "--seat", "B"], "hands.B"),
    (["choose", "{badcard}", "--seat", "A"], "XX"),
])
def test_cli_bad_input(tmp_path, args, message):
    files = {
        "partial": _write(tmp_path, "partial.toml", 'game = "sheepshead"\nplayers = ["Ann", "Bob", "Cal", "Dee", '
                          '"Eve"]\npicker = "Ann"\nblind = "7H 8H"\n[hands]\nAnn = "QC QS JD AD 9C TS"\n'),
        "noblind": _write(tmp_path, "noblind.toml", 'game = "sheepshead"\npicker = "1"\n[hands]\n'
                          '1 = "QC QS JD AD 9C TS"\n'),
        "schafkopf": _write(tmp_path, "sk.toml", 'game = "sauspiel"\nplayers = ["A", "B", "C", "D"]\n'
                            'declarer = "A"\ncalled = "AS"\n[hands]\nA = "QC QS JH AH 7C 9S KS 8D"\n'),
        "leaster": _write(tmp_path, "leaster.toml", 'game = "leaster"\n'),
        "badcard": _write(tmp_path, "bad.toml", 'game = "solo"\ntrump = "H"\nplayers = ["A", "B", "C", "D"]\n'
                          'declarer = "A"\n[hands]\nA = "QC QS JH AH 7C 9S KS XX"\n'),
    }
    args = [a.format(**files) for a in args]
    res = CliRunner().invoke(main, args + ["--jobs", "1"] if args[0] != "bury" or "--worlds" in args else args)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert message in res.output


def test_cli_choose_and_pick(tmp_path):
    sk = _write(tmp_path, "sk.toml", 'game = "sauspiel"\ndeck = "short"\nplayers = ["A", "B", "C", "D"]\n'
                'declarer = "A"\ncalled = "AS"\n[hands]\nA = "QC QS QH JC AH 9S"\n')
    runner = CliRunner()
    res = runner.invoke(main, ["choose", sk, "--worlds", "1", "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    labels = [c["contract"] for c in data["contracts"]]
    assert "pass" in labels and "sauspiel AS" in labels and "solo H tout" in labels
    assert {"mean", "stderr", "p61", "p91", "pschwarz", "payment", "pwin"} <= set(data["contracts"][0])
    res = runner.invoke(main, ["choose", sk, "--worlds", "1", "--jobs", "1"])
    assert res.exit_code == 0 and "decision:" in res.output
    pk = _write(tmp_path, "pk.toml", 'game = "sheepshead"\nplayers = ["Ann", "Bob", "Cal", "Dee", "Eve"]\n'
                'picker = "Bob"\n[hands]\nAnn = "QC QS QH QD JC JS"\n')
    res = runner.invoke(main, ["pick", pk, "--seat", "Ann", "--worlds", "1", "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["seat"] == "Ann" and data["choices"][0]["choice"] == "pick"
    assert data["choices"][0]["payment"] > 0


def test_double_dummy_over_processes_is_the_same():
    g = make_game("sheepshead-4")
    rng = random.Random(4)
    hands, blind, _ = _small_deal(g, rng, 2)
    decisions = B.legal_decisions(g, hands[1] + blind)
    task = BU.Task(kind="deal", game=game_spec(g), seat=1, hand=tuple(map(int, hands[1])),
                   blind=tuple(map(int, blind)), choices=tuple(d.to_key() for d in decisions),
                   stakes=(False, False, 0), hands=tuple(tuple(map(int, h)) for h in hands))
    one = BU.run_units(task, len(decisions), 1, None)
    # the first choice here, the rest in two processes
    two = BU.run_units(task, len(decisions), 2, None, parallel_after=1e-9)
    assert [t[:5] for t in one] == [t[:5] for t in two]
    r = B.rank_buries(g, hands, blind, 1)
    by_decision = {row.decision: row for row in r.rows}
    assert [(by_decision[d].value, by_decision[d].payment) for d in decisions] == [(t[0], t[2]) for t in one]


def test_progress_bar_only_on_a_terminal(monkeypatch):
    import io
    import sys

    from sheepsolve import cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    with cli.Progress("worlds") as progress:
        for i in range(1, 4):
            progress(i, 3)
    assert "worlds" in term.getvalue()
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    with cli.Progress("worlds") as progress:
        progress(1, 1)
    assert pipe.getvalue() == ""


def test_bury_and_choose_json_fields_are_documented():
    """Every key of bury's JSON (the picker's view with the record's choice) and of choose's JSON is named in
    its section of docs/RECORD-FORMAT.md."""
    fmt = (EXAMPLES.parent / "docs" / "RECORD-FORMAT.md").read_text(encoding="utf-8")
    bury_doc = fmt.split("## `sheepsolve bury FILE --json`")[1].split("\n## ")[0]
    choose_doc = fmt.split("## `sheepsolve choose FILE --json`")[1].split("\n## ")[0]
    runner = CliRunner()
    res = runner.invoke(main, ["bury", str(EXAMPLES / "bury-jd-picker-only.toml"), "--worlds", "2", "--jobs", "1",
                               "--json"])
    data = json.loads(res.output)
    keys = set(data) | set(data["buries"][0]) | set(data["record_choice"])
    missing = [k for k in sorted(keys) if f"`{k}`" not in bury_doc]
    assert not missing, missing
    res = runner.invoke(main, ["choose", str(EXAMPLES / "bury-choose-sauspiel-hand.toml"), "--worlds", "2", "--jobs",
                               "1", "--json"])
    data = json.loads(res.output)
    keys = set(data) | {k for row in data["contracts"] for k in row}
    documented = bury_doc + choose_doc  # choose's rows carry "the statistics above" (bury's)
    missing = [k for k in sorted(keys) if f"`{k}`" not in documented]
    assert not missing, missing
    pick_doc = fmt.split("## `sheepsolve pick FILE --json`")[1].split("\n## ")[0]
    res = runner.invoke(main, ["pick", str(EXAMPLES / "bury-jd-picker-only.toml"), "--worlds", "2", "--jobs", "1",
                               "--json"])
    data = json.loads(res.output)
    missing = [k for k in sorted(data) if f"`{k}`" not in pick_doc]
    assert not missing, missing


# --------------------------------------------------------------------------------------------------------------
# pick, choose and bury validate what they read, as show does


BAD_RECORDS = sorted(p for p in (ROOT / "tests" / "bad_records").iterdir() if p.suffix in (".toml", ".json"))

def _expected(path: Path) -> str:
    if path.suffix == ".json":
        return path.with_suffix(".expect").read_text().strip()
    return path.read_text().splitlines()[0][len("# expect: "):]

def _seat_and_family(path: Path) -> tuple[str, str | None]:
    import json
    import tomllib

    from sheepsolve.games import REGISTRY, resolve_name

    try:
        d = json.loads(path.read_text()) if path.suffix == ".json" else tomllib.loads(path.read_text())
        seat = d.get("picker") or d.get("declarer") or (d.get("players") or ["1"])[0]
        canon = resolve_name(d["game"])[0]
        return str(seat), REGISTRY[canon].family if canon not in ("leaster",) else None
    except Exception:  # noqa: BLE001
        return "1", None

@pytest.mark.parametrize("path", BAD_RECORDS, ids=lambda p: p.name)
def test_pick_choose_and_bury_refuse_every_bad_record(path: Path, run, assert_input_error) -> None:
    seat, family = _seat_and_family(path)
    want = _expected(path)
    for command in ("pick", "choose", "bury"):
        args = [command, path, "--worlds", "1", "--jobs", "1"] + (["--seat", seat] if command != "bury" else [])
        r = run(*args)
        assert_input_error(r)
        # the command's own game is named first: pick and bury are Sheepshead's, choose Schafkopf's (not Skat's yet)
        fits = family not in (None, "skat") and (command == "choose") == (family == "schafkopf")
        if fits and "the hand of the player" not in r.output and "is needed" not in r.output:
            assert want in r.output, (command, want, r.output)


@pytest.mark.parametrize("command", [["bury"], ["bury", "--view", "actual"], ["pick", "--seat", "Dee", "--worlds", "4"]])
@pytest.mark.parametrize("given", ["no hands", "the picker's hand"])
def test_bury_and_pick_use_the_hands_the_play_determines(tmp_path: Path, command: list[str], given: str, run,
                                                         timeless) -> None:
    """Issue 34: bury and pick refused a finished hand's record without [hands] ("hands.Dee: the picker's hand is
    needed to rank buries"; with the picker's hand only, "--view actual: double dummy needs every hand"), though
    show and annotate infer the hands from the play: they now use the record reader's completed hands, and answer
    as for the record with every hand written out."""
    import tomllib

    from sheepsolve.record import load_record

    src = EXAMPLES / "sheepshead-called-ace-play-only.toml"
    rec = load_record(src)
    d = tomllib.loads(src.read_text(encoding="utf-8"))
    full = dict(d, hands={n: " ".join(map(str, h)) for n, h in zip(rec.players, rec.hands)})
    partial = dict(d, hands={"Dee": full["hands"]["Dee"]}) if given != "no hands" else d
    paths = []
    for name, data in (("full", full), ("partial", partial)):
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(data), encoding="utf-8")
        paths.append(p)
    answers = []
    for p in paths:
        r = run(command[0], p, *command[1:], "--jobs", "1", "--json")
        assert r.exit_code == 0, r.output
        answers.append(timeless(json.loads(r.output)))
    assert answers[0] == answers[1]


def test_a_record_whose_auction_shows_the_call_is_ranked_as_without_it(tmp_path: Path, run, timeless) -> None:
    """The choices are set aside from the record read once, the auction with them: bury and pick answer on a
    record whose auction names the call as on the same record without an auction (they refused it: 'auction:
    call 4 ("Cal: call AH"): the record's call is alone', the call set aside but not the auction)."""
    text = (EXAMPLES / "bury-called-ace-full.toml").read_text(encoding="utf-8")
    with_auction = tmp_path / "with-auction.toml"
    with_auction.write_text(text.replace("[hands]", 'auction = ["Ann: pass", "Bob: pass", "Cal: pick", '
                                                    '"Cal: call AH"]\n\n[hands]'), encoding="utf-8")
    for args in (["bury", "--jobs", "1", "--json"], ["pick", "--worlds", "3", "--seed", "2", "--jobs", "1", "--json",
                                                     "--inference", "none"]):
        plain = run(args[0], str(EXAMPLES / "bury-called-ace-full.toml"), *args[1:])
        auctioned = run(args[0], str(with_auction), *args[1:])
        assert plain.exit_code == auctioned.exit_code == 0, auctioned.output
        assert timeless(json.loads(auctioned.output)) == timeless(json.loads(plain.output))
