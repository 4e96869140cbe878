"""Skat's choices before the first lead: the discard (``bury`` on a Skat record) and the contract (``choose``).

The compiled solver's answers are checked against a brute force over the pure-Python reference minimax on small
positions (three or four cards a hand and the 2-card skat): every discard of the declarer's cards solved by
``reference_value``, the ranking built from those, and from the declarer's view every deal of the unseen cards
(``worlds="all"``) averaged by hand.
"""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from helpers_cli import EXAMPLES

from sheepsolve import bury as B
from sheepsolve.bury import evaluation as BE, results as BR
from sheepsolve.cards import Card
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.reference import reference_value
from sheepsolve.scoring import Stakes, outcome_for

SKAT_FORMS = [("grand", {}), ("skat", {"trump": "C"}), ("skat", {"trump": "H"}), ("null", {}),
              ("null", {"ouvert": True})]


def _form_id(form) -> str:
    name, kw = form
    return name + "".join(f"-{v}" for v in kw.values())


def _reference(setup: Setup) -> tuple[int | None, str, int]:
    """(value, outcome, declarer's payment) of one discard by the reference minimax alone: in null whether the
    declarer can be made to take a trick (value None), else the declarer's card points, the skat counted, and
    the tricks where the outcome turns on them."""
    g = setup.game
    state = setup.start()
    n = len(setup.hands[0])
    if g.no_trick:
        tricks = reference_value(state, Objective(team=setup.team, maximize=False, tricks=True))
        outcome = "win" if tricks == 0 else "loss"
        return None, outcome, BE.own_payment(setup, outcome, Stakes())
    v = reference_value(state)
    total = sum(c.points for h in setup.hands for c in h) + sum(c.points for c in setup.bury)
    floor = sum(c.points for c in setup.bury)
    tricks = None
    if v >= total:
        tricks = reference_value(state, Objective(team=setup.team, tricks=True))
    elif v <= floor:
        others = frozenset(range(g.seats)) - setup.team
        tricks = n - reference_value(state, Objective(team=others, tricks=True))
    outcome = outcome_for(g, v, tricks, n)
    return v, outcome, BE.own_payment(setup, outcome, Stakes())


def _deal(g, rng: random.Random, k: int):
    """A small Skat deal: ``k`` cards a hand and a 2-card skat, the rest of the deck out of play. The jack of clubs
    is always dealt: the matadors (the ISkO's multiplier) run from it, and a deal without it has none."""
    while True:
        cards = list(g.deck)
        rng.shuffle(cards)
        if Card.parse("JC") in cards[:3 * k + 2]:
            break
    hands = [sorted(cards[i * k:(i + 1) * k]) for i in range(3)]
    return hands, sorted(cards[3 * k:3 * k + 2])


def _brute_ranking(g, hands, skat, declarer):
    """Every discard of the declarer's cards (hand and skat) by the reference: {discard: (value, outcome, pay)}."""
    picked = list(hands[declarer]) + list(skat)
    out = {}
    for discard in itertools.combinations(picked, 2):
        setup = Setup.create(g, hands, declarer=declarer, blind=skat, bury=discard)
        out[frozenset(discard)] = _reference(setup)
    return out


def _key(res):
    value, _, pay = res
    return BE.rank_key("payment", pay, value)


@pytest.mark.parametrize("form", SKAT_FORMS, ids=_form_id)
def test_discard_ranking_on_the_deal_equals_the_brute_force(form):
    name, kw = form
    g = make_game(name, **kw)
    rng = random.Random(f"skat-discard-{name}-{kw}")
    for _ in range(3):
        hands, skat = _deal(g, rng, 3)
        declarer = rng.randrange(3)
        r = B.rank_buries(g, hands, skat, declarer)
        brute = _brute_ranking(g, hands, skat, declarer)
        assert len(r.rows) == len(brute) == 10  # C(5, 2): every pair of the declarer's five cards
        for row in r.rows:
            assert (row.value, row.outcome, row.payment) == brute[frozenset(row.decision.bury)], row.decision
        best = max(map(_key, brute.values()))
        assert {frozenset(d.bury) for d in r.best} == {d for d, res in brute.items() if _key(res) == best}
        keys = [_key((row.value, row.outcome, row.payment)) for row in r.rows]
        assert keys == sorted(keys, reverse=True)
        assert [row.rank for row in r.rows] == BR.competition_ranks(keys)


def test_full_deal_discards_are_the_66_pairs():
    from sheepsolve.record import load_record

    rec = load_record(EXAMPLES / "skat-grand-finished.toml")
    hands = [list(h) for h in rec.hands]
    r = B.rank_buries(rec.game, hands, list(rec.blind), rec.declarer)
    picked = set(hands[rec.declarer]) | set(rec.blind)
    assert len(picked) == 12 and len(r.rows) == 66
    assert {frozenset(row.decision.bury) for row in r.rows} == {frozenset(p) for p in itertools.combinations(picked, 2)}
    # merged discards (cards next in rank of one suit and the same points) solved once, each still listed
    assert r.solved < 66


@pytest.mark.parametrize("form", SKAT_FORMS, ids=_form_id)
def test_declarers_view_every_deal_equals_the_brute_force(form):
    """``worlds="all"``: the defenders' hands dealt every way (6 unseen cards, 3 to each: 20 deals), each discard's
    mean, P(win) and payment equal to the reference's averaged by hand over those deals; the best, too."""
    name, kw = form
    g = make_game(name, **kw)
    rng = random.Random(f"skat-view-{name}-{kw}")
    hands, skat = _deal(g, rng, 3)
    declarer = 1
    unseen = [c for s, h in enumerate(hands) if s != declarer for c in h]
    r = B.sample_buries(g, hands[declarer], skat, declarer, worlds="all", unseen=unseen)
    assert r.exact and r.worlds == 20
    per: dict = {}
    for left in itertools.combinations(unseen, 3):
        right = [c for c in unseen if c not in left]
        dealt = [sorted(left), list(hands[declarer]), sorted(right)]
        for d, res in _brute_ranking(g, dealt, skat, declarer).items():
            per.setdefault(d, []).append(res)
    means = {}
    for row in r.rows:
        res = per[frozenset(row.decision.bury)]
        assert len(res) == 20
        pay = sum(p for _, _, p in res) / 20
        assert row.stats.payment == pytest.approx(pay)
        assert row.stats.pwin == pytest.approx(sum(o in ("win", "schneider", "schwarz") for _, o, _ in res) / 20)
        if g.no_trick:
            assert row.stats.mean is None
        else:
            assert row.stats.mean == pytest.approx(sum(v for v, _, _ in res) / 20)
        means[frozenset(row.decision.bury)] = BE.rank_key("payment", pay, row.stats.mean)
        assert row.stats.payment_stderr == 0
    top = max(means.values())
    assert frozenset(r.rows[0].decision.bury) in {d for d, k in means.items() if k == top}


# --------------------------------------------------------------------------------------------------------------
# The command


def test_bury_on_skat_records(run):
    for name in ("skat-grand-finished", "skat-hearts-finished", "skat-null-finished"):
        path = EXAMPLES / f"{name}.toml"
        r = run("bury", path)
        assert r.exit_code == 0, r.output
        assert "takes the skat" in r.output and "the record's choice" in r.output
        data = json.loads(run("bury", path, "--json").output)
        assert len(data["buries"]) == 66 and data["view"] == "actual"
        if name == "skat-null-finished":
            assert {b["value"] for b in data["buries"]} == {None}
            assert {b["outcome"] for b in data["buries"]} <= {"win", "loss"}
        else:
            assert all(isinstance(b["value"], int) for b in data["buries"])
        v = json.loads(run("bury", path, "--view", "picker", "--worlds", "6", "--seed", "2", "--jobs", "1",
                           "--json").output)
        assert v["view"] == "picker" and v["worlds"] == 6 and len(v["buries"]) == 66
        assert v["actual"] is not None and v["record_choice"]["of"] == 66


def test_bury_on_skat_page(run, tmp_path):
    out = tmp_path / "null.html"
    r = run("bury", EXAMPLES / "skat-null-finished.toml", "--worlds", "4", "--jobs", "1", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert "the discard" in page and "None" not in page and "skat" in page


def _with_key(text: str, keys: tuple[str, ...], value: str) -> str:
    """``text`` (a record) with the first of ``keys`` it writes set to ``value`` (Skat records write ``discard`` and
    ``skat``, the older ones ``bury`` and ``blind``)."""
    for key in keys:
        new, n = re.subn(rf'(?m)^{key} = "[^"]*"$', f'{key} = "{value}"', text)
        if n:
            return new
    raise AssertionError(f"none of {keys} in the record")


def test_bad_discard_is_one_line(run, assert_input_error, tmp_path):
    src = (EXAMPLES / "skat-grand-finished.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(_with_key(src, ("discard", "bury"), "AH JS"))  # JS is Cal's, not among Bob's 12 cards
    r = run("bury", bad)
    assert_input_error(r, "JS")
    assert "discard" in r.output or "bury" in r.output
    three = tmp_path / "three.toml"
    three.write_text(_with_key(src, ("skat", "blind"), "8S KH 7S"))
    r = run("bury", three)
    assert_input_error(r)
    assert "skat" in r.output or "blind" in r.output


def test_annotate_judges_a_null_discard_by_the_fewest_tricks(run, tmp_path):
    """annotate's judgement of the discard in null: the best discards are those with which the declarer takes no
    trick (the fewest tricks, not the most), exactly the winning rows of the ranking on the deal."""
    from sheepsolve.record import load_record

    src = (EXAMPLES / "skat-null-finished.toml").read_text()
    start = src.index("play = [")
    rec_text = src[:start] + src[src.index("]\n", start) + 2:]
    path = tmp_path / "null.toml"
    path.write_text(_with_key(rec_text, ("discard", "bury"), "8C 7C"))
    data = json.loads(run("annotate", path, "--json").output)["bury"]
    assert data["chosen"]["outcome"] == "loss" and data["best_value"] == 0 and data["cost"] > 0
    assert data["swing"]["from"] == "win" and data["swing"]["to"] == "loss"
    rec = load_record(path)
    r = B.rank_buries(rec.game, [list(h) for h in rec.hands], list(rec.blind), rec.declarer)
    winning = {frozenset(row.decision.bury) for row in r.rows if row.outcome == "win"}
    assert winning and {frozenset(map(str, o["bury"])) for o in data["best"]} == {
        frozenset(map(str, d)) for d in winning}
    view = run("annotate", path, "--view", "player", "--worlds", "4", "--seed", "1", "--jobs", "1")
    assert view.exit_code == 0, view.output
    assert "won in" in view.output


def test_discard_payments_keep_the_bid_and_declaration(run, tmp_path):
    """The discards are scored with the record's own game: its bid (an overbid grand loses at the bid's level) and
    declaration travel with the game to the solving units (``pool.game_spec``)."""
    from sheepsolve.pool import game_from_spec, game_spec
    from sheepsolve.record import load_record

    path = tmp_path / "bid.toml"
    path.write_text(_with_key((EXAMPLES / "skat-grand-finished.toml").read_text(), ("discard",), "AH KD")
                    .replace('discard = "AH KD"', 'bid = 72\ndiscard = "AH KD"'))
    rec = load_record(path)
    assert rec.game.bid == 72 and game_from_spec(game_spec(rec.game)) == rec.game
    hands = [list(h) for h in rec.hands]
    data = json.loads(run("bury", path, "--json").output)
    for row in data["buries"]:
        setup = Setup.create(rec.game, hands, declarer=rec.declarer, blind=list(rec.blind),
                             bury=[Card.parse(c) for c in row["cards"]])
        assert row["payment"] == BE.own_payment(setup, row["outcome"], Stakes())
    assert {row["payment"] for row in data["buries"] if row["outcome"] == "loss"} == {-144}  # bid 72, lost twice
    for g in (make_game("null", ouvert=True, hand=True, bid=46), make_game("bettel-ouvert"),
              make_game("skat", trump="H", hand=True, schneider_announced=True)):
        assert game_from_spec(game_spec(g)) == g


# --------------------------------------------------------------------------------------------------------------
# The contract: choose on a Skat hand


def _every_split(cards, sizes):
    """Every way to deal ``cards`` into piles of ``sizes``, in order."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for more in _every_split(rest, sizes[1:]):
            yield (list(first),) + more


def _contract_game(c, bid=None):
    from sheepsolve.bury.choices import make_contract_game

    return make_contract_game(make_game("grand", bid=bid), c.game, c.trump, False, ouvert=c.ouvert,
                              hand=c.skat == "hand")


def test_skat_contracts_cover_the_bid():
    from sheepsolve.bury.choices import skat_contracts

    every = skat_contracts(make_game("grand"))
    assert len(every) == 14 and {c.skat for c in every} == {"hand", "taken"}
    high = [c.label() for c in skat_contracts(make_game("grand", bid=48))]
    assert [x for x in high if x.startswith("null")] == ["null ouvert hand"]  # 59 covers 48; 23, 35, 46 do not
    assert "grand" in high and "skat D hand" in high


def test_choose_before_the_skat_equals_the_brute_force():
    """Before the skat is taken, every deal of the unseen cards (``worlds="all"``: the two defenders' hands and the
    skat): each contract as a hand game (the skat left, counting for the declarer) and with the skat taken (the best
    discard of each deal), its mean points, P(win) and payment the reference's, by hand, deal by deal."""
    g = make_game("grand")
    rng = random.Random("skat-choose-before")
    hands, skat = _deal(g, rng, 2)
    declarer = 0
    unseen = [c for h in hands[1:] for c in h] + list(skat)
    r = B.choose_contract(g, hands[declarer], declarer, worlds="all", unseen=unseen)
    assert r.exact and r.worlds == 90  # 6 cards: 2, 2 and the skat's 2
    assert len(r.rows) == 14
    for row in r.rows:
        c = row.contract
        cg = _contract_game(c)
        refs = []
        for left, right, sk in _every_split(unseen, [2, 2, 2]):
            dealt = [list(hands[declarer]), left, right]
            if c.skat == "hand":
                refs.append(_reference(Setup.create(cg, dealt, declarer=declarer, blind=sk, bury=sk)))
            else:  # taken: the best discard of this deal
                refs.append(max(_brute_ranking(cg, dealt, sk, declarer).values(), key=_key))
        assert len(refs) == 90
        assert row.stats.payment == pytest.approx(sum(p for _, _, p in refs) / 90), c.label()
        if cg.no_trick:
            assert row.stats.mean is None
            assert row.stats.pwin == pytest.approx(sum(o == "win" for _, o, _ in refs) / 90)
        else:
            assert row.stats.mean == pytest.approx(sum(v for v, _, _ in refs) / 90), c.label()
    pays = [row.stats.payment for row in r.rows]
    assert pays == sorted(pays, reverse=True)


def test_choose_after_the_skat_equals_the_brute_force():
    """With the skat known, every deal of the defenders' cards: each contract's discard is the one best in
    expectation by the reference over those deals, and its figures are that discard's. The bid (30) is covered:
    null (23) is left out, and a suit game worth less is lost as overbid."""
    g = make_game("grand", bid=30)
    rng = random.Random("skat-choose-after")
    hands, skat = _deal(g, rng, 3)
    declarer = 2
    unseen = [c for h in hands[:2] for c in h]
    r = B.choose_contract(g, hands[declarer], declarer, worlds="all", unseen=unseen, skat=skat)
    assert r.exact and r.worlds == 20 and r.skat == tuple(skat)
    assert len(r.rows) == 6 and all(row.contract.skat == "known" and len(row.contract.discard) == 2 for row in r.rows)
    assert "null" not in {row.contract.label() for row in r.rows}
    for row in r.rows:
        c = row.contract
        cg = _contract_game(c, bid=30)
        per: dict = {}
        for left, right in _every_split(unseen, [3, 3]):
            for d, res in _brute_ranking(cg, [left, right, list(hands[declarer])], skat, declarer).items():
                per.setdefault(d, []).append(res)
        means = {d: BE.rank_key("payment", sum(p for _, _, p in res) / 20,
                                None if cg.no_trick else sum(v for v, _, _ in res) / 20) for d, res in per.items()}
        top = max(means.values())
        assert frozenset(c.discard) in {d for d, k in means.items() if k == top}, c.label()
        res = per[frozenset(c.discard)]
        assert row.stats.payment == pytest.approx(sum(p for _, _, p in res) / 20)


def test_choose_on_skat_records(run, assert_input_error, tmp_path):
    path = EXAMPLES / "skat-hearts-finished.toml"
    r = run("choose", path, "--worlds", "3", "--seed", "1", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Skat: ") and "the skat unseen" in r.output and "Grand Hand" in r.output and "Herz-Spiel, skat taken" in r.output
    data = json.loads(run("choose", path, "--worlds", "3", "--jobs", "1", "--json").output)
    assert data["game"] == "skat" and data["skat"] is None
    rows = [x for x in data["contracts"] if x["contract"] != "pass"]
    assert len(rows) == 14 and {x["skat"] for x in rows} == {"hand", "taken"}
    after = json.loads(run("choose", path, "--worlds", "3", "--jobs", "1", "--skat-taken", "--json").output)
    rows = [x for x in after["contracts"] if x["contract"] != "pass"]
    assert after["skat"] is not None and len(rows) == 7 and all(len(x["discard"]) == 2 for x in rows)
    bid = tmp_path / "bid.toml"
    bid.write_text(_with_key(path.read_text(), ("discard",), "KD QD").replace('discard = "KD QD"',
                                                                            'bid = 48\ndiscard = "KD QD"'))
    data = json.loads(run("choose", bid, "--worlds", "2", "--jobs", "1", "--json").output)
    assert data["bid"] == 48
    assert [x["contract"] for x in data["contracts"] if x["game"] == "null"] == ["null ouvert hand"]  # 59 >= 48
    page = tmp_path / "choose.html"
    assert run("choose", path, "--worlds", "2", "--jobs", "1", "--skat-taken", "--html", page).exit_code == 0
    assert "Skat: which game?" in page.read_text()
    assert_input_error(run("choose", EXAMPLES / "sauspiel-finished.toml", "--skat-taken", "--worlds", "1"),
                       "--skat-taken")
    src = path.read_text()
    start = src.index("play = [")
    noskat = tmp_path / "noskat.toml"
    text = src[:start] + src[src.index("]\n", start) + 2:]
    text = re.sub(r'(?m)^(skat|blind|discard|bury) = "[^"]*"\n', "", text)
    text = re.sub(r'(?m)^(Ann|Bob) = "[^"]*"\n', "", text)  # only the declarer's hand: the skat is not known
    noskat.write_text(text)
    assert_input_error(run("choose", noskat, "--skat-taken", "--worlds", "1"), "skat")
