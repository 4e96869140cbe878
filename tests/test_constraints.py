"""``--constrain``: the language (grammar, words, every error with its hint) and the worlds it leaves.

- Exact: on small positions of every game form, the sampler's count and list of worlds under a constraint equal
  the brute force's worlds (tests/test_worlds.py) filtered by the constraint, checked with the constraint's own
  reading of the hand (so the sampler's counting by kinds is checked against a plain count of the cards).
- Sampled: every sampled world meets the constraint; a constraint no world meets is refused with one line.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

import pytest

from sheepsolve import worlds as W
from sheepsolve.cards import Card, parse_cards
from sheepsolve.constraints import Condition, ConstraintError, compare, parse_constraint, parse_constraints
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.record import load_record

sys.path.insert(0, str(Path(__file__).parent))
from test_worlds import FORMS, _brute_force, _form_id, _positions  # noqa: E402

PLAYERS = ("Sepp", "Resi", "Vroni", "Hias")
SAUSPIEL = make_game("sauspiel")
SHEEPSHEAD = make_game("sheepshead")


def _c(text: str, game=SAUSPIEL, players=PLAYERS):
    return parse_constraint(text, game, players)


def _count(c, hand):
    (cond,) = c.conditions
    return cond.value(hand)


# --------------------------------------------------------------------------------------------------------------
# The grammar


def test_the_issues_examples():
    g = SAUSPIEL
    hand = parse_cards("EO GO HU SU HA H9", german=True)
    assert _count(_c("Sepp: trumps >= 5"), hand) == 6
    assert _c("Resi: has EO").conditions[0].value(hand) == 1 and _c("Resi: has EO").seat == 1
    assert _c("Resi: has EO").holds(g, hand) and not _c("Resi: has EO").holds(g, parse_cards("AH"))
    assert _count(_c("Hias: hearts == 0"), hand) == 2  # HA H9: the heart trumps below the Unter
    assert _count(_c("Vroni: ober + unter <= 1"), hand) == 4
    assert _c("Vroni: ober + unter <= 1").seat == 2


@pytest.mark.parametrize("word, cards", [
    ("trumps", 14), ("trump", 14), ("Trumpf", 14), ("ober", 4), ("queens", 4), ("unter", 4), ("jacks", 4),
    ("aces", 4), ("sau", 4), ("tens", 4), ("kings", 4), ("sevens", 4), ("eichel", 6), ("clubs", 6), ("gras", 6),
    ("blatt", 6), ("schellen", 6), ("diamonds", 6), ("EO", 1), ("QC", 1), ("Q♣", 1), ("Herz-Sau", 1), ("HA", 1),
])
def test_words_count_the_cards_of_the_game(word, cards):
    (cond,) = _c(f"Sepp: {word} >= 0").conditions
    assert len(cond.weights) == cards


def test_suits_are_the_suit_but_the_top_trumps():
    # Sheepshead: queens and jacks are trumps in every suit; the diamonds below them are trumps too
    (clubs,) = _c("Sepp: clubs >= 0", SHEEPSHEAD).conditions
    assert {str(c) for c, _ in clubs.weights} == {"AC", "TC", "KC", "9C", "8C", "7C"}
    (diamonds,) = _c("Sepp: diamonds == 0", SHEEPSHEAD).conditions
    assert {str(c) for c, _ in diamonds.weights} == {"AD", "TD", "KD", "9D", "8D", "7D"}
    (hearts,) = parse_constraint("Sepp: herz >= 0", make_game("wenz"), PLAYERS).conditions
    assert {str(c) for c, _ in hearts.weights} == {"AH", "TH", "KH", "QH", "9H", "8H", "7H"}


def test_points_and_signs():
    (pts,) = _c("Sepp: points >= 30").conditions
    assert pts.value(parse_cards("AC TC KC 7C")) == 25
    (diff,) = _c("Sepp: trumps - ober >= 3").conditions
    assert diff.value(parse_cards("QC JC AH 7C")) == 2  # QC counts +1 -1
    assert compare(3, ">", 2) and not compare(3, "<", 3) and compare(3, "<=", 3) and compare(2, "!=", 3)


@pytest.mark.parametrize("text, op, bound", [
    ("Sepp: trumps=5", "==", 5), ("Sepp: trumps ≥ 5", ">=", 5), ("Sepp: trumps ≤ 5", "<=", 5),
    ("Sepp: trumps > 5", ">", 5), ("Sepp: trumps != 0", "!=", 0), ("  sepp :trumps<2 ", "<", 2),
])
def test_operators_and_spacing(text, op, bound):
    c = _c(text)
    assert c.seat == 0 and c.conditions[0].op == op and c.conditions[0].bound == bound


def test_has_and_has_no_and_joined_conditions():
    c = _c("Hias: has EO GO and has no HA and trumps >= 4")
    assert c.seat == 3 and len(c.conditions) == 3
    has, has_no, _ = c.conditions
    assert (has.op, has.bound, len(has.weights)) == ("==", 2, 2)
    assert (has_no.op, has_no.bound) == ("==", 0)
    assert _c("Hias: lacks EO").conditions[0].bound == 0
    assert len(_c("Hias: trumps >= 1; has SA").conditions) == 2
    hand = parse_cards("EO GO HU SU SO 7C", german=True)
    assert c.holds(SAUSPIEL, hand) and not c.holds(SAUSPIEL, parse_cards("EO GO HA HU SU SO", german=True))


@pytest.mark.parametrize("text, message", [
    ("trumps >= 5", "name the seat first"),
    (": trumps >= 5", "name the seat before the colon"),
    ("Sep: trumps >= 5", "no player 'Sep' (did you mean 'Sepp'?); the players are Sepp, Resi, Vroni, Hias"),
    ("Xaver: trumps >= 5", "no player 'Xaver'; the players are"),
    ("Sepp:", "a condition is missing"),
    ("Sepp: trumps >= 5 and", "a condition is missing before or after 'and'"),
    ("Sepp: has no", "name the cards after 'has no'"),
    ("Sepp: trumsp >= 5", "unknown word 'trumsp' (did you mean 'trumps'?)"),
    ("Sepp: Herz-Sow >= 1", "unknown word 'Herz-Sow'"),
    ("Sepp: obers + untr <= 1", "unknown word 'untr' (did you mean 'unter'?)"),
    ("Sepp: trumps", "write COUNT OP N"),
    ("Sepp: trumps >= five", "must be a whole number"),
    ("Sepp: trumps >= -1", "must be a whole number"),
    ("Sepp: 2 <= trumps <= 5", "one comparison per condition"),
    ("Sepp: >= 5", "nothing to count"),
    ("Sepp: + trumps >= 5", "where a word belongs"),
    ("Sepp: trumps ober >= 5", "join the words with + or -"),
    ("Sepp: trumps-ober >= 5", "unknown word 'trumps-ober'"),
    ("Sepp: trumps + >= 5", "ends with '+'"),
    ("Sepp: has", "name the cards after 'has'"),
    ("Sepp: has EX", "'EX' is not a card"),
    ("Sepp: hsa EO", "or has CARD (has EO) (did you mean 'has'?)"),
    ("Sepp: lakcs HA", "(did you mean 'lacks'?)"),
    ("Sepp: has EOO", "'EOO' is not a card (did you mean 'EO'?)"),
    ("Sepp: has QCC", "'QCC' is not a card (did you mean 'QC'?)"),
    ("Sepp: has noo EO", "'noo' is not a card (did you mean 'no'?)"),
    ("Sepp: has 7S", "not in the deck"),
    ("Sepp: 8S >= 1", "not in the deck"),
])
def test_every_error_is_one_clear_line(text, message):
    short = make_game("sauspiel", deck="short")
    with pytest.raises(ConstraintError) as e:
        parse_constraint(text, short, PLAYERS)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).startswith("--constrain ")


def test_no_trumps_and_other_inputs():
    with pytest.raises(ConstraintError, match="must be text"):
        parse_constraint(5, SAUSPIEL, PLAYERS)  # type: ignore[arg-type]
    with pytest.raises(ConstraintError, match="longer than 500"):
        _c("Sepp: " + "trumps + " * 80 + "trumps >= 1")
    assert parse_constraints(None, SAUSPIEL, PLAYERS) == ()


# --------------------------------------------------------------------------------------------------------------
# The worlds a constraint leaves


def _constraint_for(k: W.Knowledge, rng: random.Random):
    """A constraint on another seat that some but not every world meets, or None."""
    g = k.game
    for _ in range(20):
        seat = rng.choice(k.others)
        unseen = [str(c) for c in sorted(k.unseen, key=int)]
        words = rng.choice([["trumps"], ["points"], [rng.choice(unseen)] if unseen else ["aces"],
                            ["ober", "unter"] if g.trumps else ["aces"]])
        op = rng.choice([">=", "<=", "==", "!="])
        bound = rng.randint(0, 3) if words != ["points"] else rng.randint(0, 30)
        try:
            return parse_constraint(f"{k.players[seat]}: {' + '.join(words)} {op} {bound}", g, k.players)
        except ConstraintError:
            continue
    return None


@pytest.mark.parametrize("game", FORMS + ["under"], ids=lambda g: "under" if g == "under" else _form_id(g))
def test_constrained_worlds_match_the_filtered_brute_force(game):
    seed = 9100 + (FORMS.index(game) if game != "under" else 99)
    rng = random.Random(seed)
    checked = 0
    for st, plays, seat in _positions(game, seed, 4):
        k = W.Knowledge.from_setup(st, plays, seat)
        brute = _brute_force(k)
        c = _constraint_for(k, rng)
        if c is None:
            continue
        kc = dataclasses.replace(k, constraints=(c,))
        keep = {key for key in brute if c.holds(k.game, [Card(x) for x in key[0][c.seat]])}
        if not keep:
            with pytest.raises(ConstraintError, match="no deal of the unseen cards meets"):
                W.WorldSampler(kc)
            continue
        try:
            sampler = W.WorldSampler(kc)
        except ConstraintError:  # the superset is empty under the constraint only if brute is too
            assert not keep
            continue
        listed = sampler.all_worlds()
        assert {w.key() for w in listed} == keep
        assert sampler.count() == len(keep)
        for w in sampler.sample(30, seed=seed):
            assert w.key() in keep
        checked += 1
    assert checked >= 1


def test_constraint_on_a_record_and_its_refusals():
    rec = load_record("examples/sauspiel-midtrick.toml")
    k = W.Knowledge.from_record(rec)
    c = parse_constraint("Sepp: trumps >= 4", rec.game, rec.players)
    kc = dataclasses.replace(k, constraints=(c,))
    for w in W.WorldSampler(kc).sample(50, seed=2):
        assert sum(rec.game.is_trump(x) for x in w.hands[0]) >= 4
    base = W.WorldSampler(k)
    assert W.WorldSampler(kc).candidates < base.candidates
    # impossible: more trumps than the deck leaves him, or a card the seat judging holds itself
    for text in ("Sepp: trumps >= 9", f"Sepp: has {next(iter(k.hand))}"):
        bad = dataclasses.replace(k, constraints=(parse_constraint(text, rec.game, rec.players),))
        with pytest.raises(ConstraintError) as e:
            W.WorldSampler(bad)
        assert "no deal of the unseen cards meets" in str(e.value) and "\n" not in str(e.value)
    own = dataclasses.replace(k, constraints=(parse_constraint("Resi: trumps >= 8", rec.game, rec.players),))
    with pytest.raises(ConstraintError, match="Resi's own hand, which Resi sees, does not meet it"):
        W.WorldSampler(own)


def test_a_constraint_the_seats_own_hand_meets_changes_nothing():
    g = make_game("solo", trump="H")
    hands = [parse_cards(h) for h in ("9C AS AH", "TC TS 9S", "7S AD TD", "AC 8S TH")]
    k = W.Knowledge.from_setup(Setup.create(g, hands, declarer=0), parse_cards("AH TC 7S"))
    c = parse_constraint("4: trumps >= 0", g, k.players)
    kc = dataclasses.replace(k, constraints=(c,))
    assert [w.key() for w in W.WorldSampler(kc).sample(10, seed=1)] == [
        w.key() for w in W.WorldSampler(k).sample(10, seed=1)]


@pytest.mark.parametrize("game", [g for g in FORMS if g.kind in ("picker", "contract")][:8] + ["under"],
                         ids=lambda g: "under" if g == "under" else _form_id(g))
def test_strata_sharing_one_dynamic_programme_count_and_draw_as_samplers_of_their_own(game):
    """A weighted sampler's strata (the declarer holds exactly t trumps) share one dynamic programme: each
    stratum's count and its draws are those of a sampler built alone, the strata's counts add up to the whole
    superset's, and a user's constraint of another comparison beside the strata is kept apart."""
    seed = 9300 + (FORMS.index(game) if game != "under" else 99)
    rng = random.Random(seed)
    checked = 0
    for st, plays, seat in _positions(game, seed, 3):
        k = W.Knowledge.from_setup(st, plays, seat)
        p = k.declarer
        if p is None or p == seat:
            continue
        trumps = tuple((c, 1) for c in k.game.trumps)
        extra_conds = [()]
        c = _constraint_for(k, rng)
        if c is not None:
            extra_conds.append(tuple((c.seat, cond) for cond in c.conditions))
        for user in extra_conds:
            shared, total = None, 0
            for t in range(0, k.game.hand_size + 1):
                extra = user + ((p, Condition(weights=trumps, op="==", bound=t)),)
                try:
                    alone = W.WorldSampler(k, extra=extra)
                except W.WorldsError:
                    with pytest.raises(W.WorldsError):
                        W.WorldSampler(k, extra=extra, share=shared)
                    continue
                s = W.WorldSampler(k, extra=extra, share=shared)
                assert s.candidates == alone.candidates > 0
                a, b = random.Random(t), random.Random(t)
                assert [s.draw_deal(a) for _ in range(5)] == [alone.draw_deal(b) for _ in range(5)]
                total += s.candidates
                shared = s
            try:
                whole = W.WorldSampler(k, extra=user).candidates
            except W.WorldsError:  # no deal meets the user's constraint
                whole = 0
            assert total == whole
            checked += 1
    assert checked >= 2
