"""Hypothesis fuzzing of the record reader: nothing but :class:`RecordError` may come out, whatever goes in.

Valid records of every game are dealt at random and played out with random legal cards; they must read back,
replay to the same position, round-trip through TOML and JSON, and stay valid with hands, blind or bury left
out. Random text, random data for every key and single mutations of valid records must either read (and then
round-trip) or raise RecordError.
"""

from __future__ import annotations

import copy
import json
import os
import random
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheepsolve.cards import ALL_CARDS, format_cards
from sheepsolve.engine import Setup, legal_calls
from sheepsolve.games import REGISTRY, make_game
from sheepsolve.record import INFO_KEYS, RECORD_KEYS, RecordError, dump_record, parse_record, record_from_dict

# A few seconds by default; RECORD_FUZZ_EXAMPLES=5000 for a deep run.
FUZZ = settings(max_examples=int(os.environ.get("RECORD_FUZZ_EXAMPLES", "40")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

NAMES = ["Ann", "Bob", "Cal", "Dee", "Eve"]
CONFIGS = [
    {"game": "sheepshead"}, {"game": "sheepshead", "partner": "called-ace"},
    {"game": "sheepshead", "partner": "called-ace", "rules": {"run": True}},
    {"game": "sheepshead", "partner": "alone"}, {"game": "sheepshead", "rules": {"call_up": True}},
    {"game": "sheepshead-3"}, {"game": "sheepshead-4"},
    {"game": "leaster"}, {"game": "leaster", "seats": 4}, {"game": "leaster", "seats": 3},
    {"game": "sauspiel"}, {"game": "sauspiel", "deck": "short"}, {"game": "solo", "trump": "H"},
    {"game": "solo", "trump": "C", "tout": True}, {"game": "wenz"}, {"game": "geier", "deck": "short"},
    {"game": "farbwenz", "trump": "S"}, {"game": "farbgeier", "trump": "D"}, {"game": "wenz", "seats": 3},
    {"game": "solo", "trump": "D", "seats": 3}, {"game": "ramsch"}, {"game": "sie"},
]


def random_record(rnd: random.Random, cfg: dict, names: bool = True):
    """A valid record (as data) of the game ``cfg`` and the engine's state after its play."""
    cfg = dict(cfg)
    seats = cfg.pop("seats", None)
    g = make_game(cfg["game"], trump=cfg.get("trump"), deck=cfg.get("deck"), tout=cfg.get("tout"),
                  partner=cfg.get("partner"), seats=seats, rules=cfg.get("rules"))
    n = g.seats
    players = NAMES[:n] if names else [str(i + 1) for i in range(n)]
    while True:
        deck = list(g.deck)
        rnd.shuffle(deck)
        if g.sie:  # the declarer (seat 0) holds every Ober and Unter
            tops = [c for c in deck if c.rank in "QJ"]
            deck = tops + [c for c in deck if c not in tops]
        hands = [deck[i * g.hand_size:(i + 1) * g.hand_size] for i in range(n)]
        blind = deck[n * g.hand_size:]
        d: dict = dict(cfg, players=players)
        kw: dict = {}
        if g.kind in ("picker", "contract"):
            p = 0 if g.sie else rnd.randrange(n)
            d["picker" if g.kind == "picker" else "declarer"] = players[p]
            kw["declarer"] = p
            kept = list(hands[p])
            if g.kind == "picker":
                bury = rnd.sample(hands[p] + blind, g.bury_size)
                d["bury"] = format_cards(bury)
                kw["bury"] = bury
                kept = [c for c in hands[p] + blind if c not in bury]
            if g.partner in ("called-ace", "sauspiel"):
                calls = legal_calls(g, kept, kw.get("bury", ()))
                if not calls:
                    continue
                call = rnd.choice(calls)
                if call.card is None:
                    if rnd.random() < 0.5:
                        d["called"] = "alone"
                    else:
                        d["alone"] = True
                    kw["alone"] = True
                else:
                    d["called"] = str(call.card)
                    kw["called"] = call.card
                    if call.under:
                        kw["under"] = rnd.choice(kept)
                        d["under"] = str(kw["under"])
            elif g.partner == "jack-of-diamonds" and rnd.random() < 0.2:
                d["alone"] = kw["alone"] = True
        if g.blind_size:
            d["blind"] = format_cards(blind)
            kw["blind"] = blind
        d["hands"] = {players[i]: format_cards(h) for i, h in enumerate(hands)}
        state = Setup.create(g, hands, **kw).start()
        for _ in range(0 if g.sie else rnd.randrange(n * g.hand_size + 1)):
            state = state.play(rnd.choice(state.legal()))
        tricks = [t.cards for t in state.tricks] + ([state.trick] if state.trick else [])
        if tricks:
            d["play"] = [format_cards(t) for t in tricks]
        return d, state


def round_trips(rec) -> None:
    assert parse_record(dump_record(rec)) == rec
    assert parse_record(dump_record(rec, "json"), "json") == rec


# -- valid records ---------------------------------------------------------------------------------------------


@FUZZ
@given(seed=st.integers(0, 2**32), cfg=st.sampled_from(CONFIGS), names=st.booleans())
def test_random_valid_records(seed, cfg, names):
    d, state = random_record(random.Random(seed), cfg, names)
    rec = record_from_dict(d)
    st_ = rec.state()
    assert st_.tricks == state.tricks and st_.trick == state.trick and st_.hands == state.hands
    round_trips(rec)


@FUZZ
@given(seed=st.integers(0, 2**32), cfg=st.sampled_from(CONFIGS), keep=st.lists(st.booleans(), min_size=5,
                                                                                 max_size=5),
       blind=st.booleans(), bury=st.booleans())
def test_partial_valid_records_are_accepted(seed, cfg, keep, blind, bury):
    """Leaving out hands, the blind or the bury of a valid record never makes it invalid, and what the reader
    infers from the play is what was left out."""
    d, _ = random_record(random.Random(seed), cfg)
    original = dict(d)
    d["hands"] = {k: v for k, v, kept in zip(d["hands"], d["hands"].values(), keep) if kept}
    if not blind:
        d.pop("blind", None)
    if not bury:
        d.pop("bury", None)
    rec = record_from_dict(d)
    given_all = len(d["hands"]) == rec.game.seats and "blind" in d and "bury" in d
    if given_all or rec.game.blind_size == 0 and rec.game.kind != "picker" and len(d["hands"]) == rec.game.seats:
        assert rec.complete and not rec.inferred
    full = record_from_dict(original)
    # whatever the reader completed from the play is the record's own deal
    assert rec.inferred or rec.hands == tuple(full.hands[s] if full.players[s] in d["hands"] else None
                                              for s in range(rec.game.seats))
    for key in rec.inferred:
        if key.startswith("hands."):
            s = rec.players.index(key[len("hands."):])
            assert set(rec.hands[s]) == set(full.hands[s]), key
        else:
            assert set(getattr(rec, key)) == set(getattr(full, key)), key
    round_trips(rec)


# -- anything else: RecordError or a record that round-trips -----------------------------------------------------

CARD_TEXT = [str(c) for c in ALL_CARDS] + ["10C", "q♣", "EO", "Herz-Sau", "XX", "", "QC QS", "alone", "Q", "7"]
GAME_NAMES = list(REGISTRY) + ["rufspiel", "wenz-3", "solo-tout", "5-hand", "chess", ""]
KEYS = list(RECORD_KEYS + INFO_KEYS)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(), st.floats(), st.text(max_size=8),
    st.sampled_from(CARD_TEXT), st.sampled_from(NAMES + ["1", "3", "Zed"]), st.sampled_from(GAME_NAMES),
    st.dates(),
)
values = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4),
                           st.dictionaries(st.one_of(st.sampled_from(NAMES + KEYS), st.text(max_size=4)), kids,
                                           max_size=4)),
    max_leaves=8,
)
card_list = st.lists(st.sampled_from(CARD_TEXT[:32]), max_size=11).map(" ".join)
player = st.sampled_from(NAMES + ["1", "2", "3", "Zed"]) | st.integers(0, 6)
# a value that fits the key more often than not, so examples get past the type checks into the rules
PLAUSIBLE = {
    "game": st.sampled_from(GAME_NAMES),
    "players": st.lists(st.sampled_from(NAMES + ["1", "2"]), min_size=2, max_size=6),
    "picker": player, "declarer": player, "dealer": player,
    "blind": card_list, "bury": card_list, "under": st.sampled_from(CARD_TEXT),
    "called": st.sampled_from(CARD_TEXT), "alone": st.booleans(), "trump": st.sampled_from("CSHDX"),
    "tout": st.booleans(), "deck": st.sampled_from(["long", "short"]),
    "partner": st.sampled_from(["jack-of-diamonds", "called-ace", "alone"]),
    "crack": st.booleans(), "recrack": st.booleans(), "kontra": st.booleans(), "re": st.booleans(),
    "doublers": st.integers(-1, 3), "seats": st.integers(2, 6),
    "play": st.lists(card_list, max_size=3),
    "rules": st.dictionaries(st.sampled_from(["run", "run_min", "call_up", "preset", "blitz", "x"]),
                             st.sampled_from([True, 3, "gametwist", "x", 0]), max_size=2),
    "hands": st.dictionaries(player.map(str), card_list, max_size=5),
}
records = st.lists(st.sampled_from(KEYS), max_size=8, unique=True).flatmap(
    lambda keys: st.fixed_dictionaries({k: (PLAUSIBLE[k] | values) if k in PLAUSIBLE else values for k in keys}))


def accept_or_record_error(fn, *args, **kw) -> None:
    try:
        rec = fn(*args, **kw)
    except RecordError:
        return
    round_trips(rec)
    if rec.complete:
        rec.state()
    else:
        try:
            rec.setup()
        except RecordError as e:
            assert str(e).startswith("setup: the record is incomplete")


@FUZZ
@given(d=records, german=st.booleans())
def test_random_data_for_every_key(d, german):
    accept_or_record_error(record_from_dict, d, german=german)


@FUZZ
@given(d=values)
def test_random_data_anywhere(d):
    accept_or_record_error(record_from_dict, d)


TOML_LINES = ['game = "sheepshead"', 'game = "sauspiel"', 'game = "leaster"', 'picker = "1"', 'declarer = 2',
              'called = "AC"', 'under = "7D"', 'blind = "7D 8D"', 'bury = ["7D", "8D"]', "[hands]", "[rules]",
              '1 = "QC QS QH QD JC JS"', '2 = "AC TC"', "run = true", "run_min = 3", 'play = ["QC QS", "7D"]',
              "date = 1979-05-27T07:32:00Z", "x = 1", "[[annotations]]", 'players = ["a", "b"]', "= 1", '"',
              "[", "doublers = 99999999999999999999", 'trump = "h"', "tout = true", "seats = 4", "alone = true"]


@FUZZ
@given(lines=st.lists(st.one_of(st.sampled_from(TOML_LINES), st.text(max_size=20)), max_size=12))
def test_random_toml_text(lines):
    accept_or_record_error(parse_record, "\n".join(lines))


@FUZZ
@given(text=st.text(max_size=200), fmt=st.sampled_from(["toml", "json"]))
def test_random_text(text, fmt):
    accept_or_record_error(parse_record, text, fmt)


@FUZZ
@given(d=st.one_of(values, records))
def test_random_json(d):
    accept_or_record_error(parse_record, json.dumps(d, default=str), "json")


# -- single mutations of valid records ------------------------------------------------------------------------


def mutate(rnd: random.Random, d: dict, draw) -> dict:
    """One random change; a change that does not fit what an earlier one left (a list replaced by a number,
    say) is skipped."""
    out = copy.deepcopy(d)
    try:
        return _mutate(rnd, out, draw)
    except (TypeError, AttributeError, IndexError, ValueError, KeyError):
        return out


def _mutate(rnd: random.Random, d: dict, draw) -> dict:
    kind = rnd.randrange(8)
    cards = [str(c) for c in ALL_CARDS]
    if kind == 0 and d:
        del d[rnd.choice(sorted(d))]
    elif kind == 1:
        d[rnd.choice(KEYS)] = draw(values)
    elif kind == 2 and d.get("hands"):
        who = rnd.choice(sorted(d["hands"]))
        hand = d["hands"][who].split()
        hand[rnd.randrange(len(hand))] = rnd.choice(cards)
        d["hands"][who] = " ".join(hand)
    elif kind == 3 and d.get("hands") and len(d["hands"]) > 1:  # swap a card between two hands
        a, b = rnd.sample(sorted(d["hands"]), 2)
        ha, hb = d["hands"][a].split(), d["hands"][b].split()
        i, j = rnd.randrange(len(ha)), rnd.randrange(len(hb))
        ha[i], hb[j] = hb[j], ha[i]
        d["hands"][a], d["hands"][b] = " ".join(ha), " ".join(hb)
    elif kind in (4, 5) and d.get("play"):
        t = rnd.randrange(len(d["play"]))
        trick = d["play"][t].split()
        op = rnd.randrange(4)
        if op == 0:
            trick[rnd.randrange(len(trick))] = rnd.choice(cards)
        elif op == 1:
            trick.append(rnd.choice(cards))
        elif op == 2 and len(trick) > 1:
            i, j = rnd.sample(range(len(trick)), 2)
            trick[i], trick[j] = trick[j], trick[i]
        elif trick:
            trick.pop()
        d["play"][t] = " ".join(trick)
        if rnd.random() < 0.2:
            d["play"].append(rnd.choice(cards))
    elif kind == 6:
        for key in ("blind", "bury", "called", "under"):
            if key in d and rnd.random() < 0.5:
                d[key] = rnd.choice(cards + ["alone", ""]) if key in ("called", "under") else \
                    " ".join(rnd.sample(cards, len(d[key].split()) or 1))
    else:
        key = rnd.choice(["players", "picker", "declarer", "dealer", "seats", "alone", "crack", "kontra", "re",
                          "doublers", "trump", "deck", "tout", "partner", "rules"])
        d[key] = rnd.choice([True, False, 0, 3, -1, "1", "Ann", "Zed", "short", "H", ["Ann"], {}, "called-ace",
                             {"run": True}, {"preset": "gametwist"}, NAMES[:4], "wenz"])
    return d


@FUZZ
@given(seed=st.integers(0, 2**32), cfg=st.sampled_from(CONFIGS), data=st.data())
def test_mutated_valid_records(seed, cfg, data):
    rnd = random.Random(seed)
    d, _ = random_record(rnd, cfg, names=rnd.random() < 0.7)
    for _ in range(1 + rnd.randrange(2)):
        d = mutate(rnd, d, data.draw)
    accept_or_record_error(record_from_dict, d)
    accept_or_record_error(parse_record, json.dumps(d, default=str), "json")


def test_control_characters_and_odd_names_round_trip():
    odd = "".join(chr(i) for i in range(1, 40)) + "\x7f\u0085\u2028é♣" + string.punctuation
    d, _ = random_record(random.Random(5), {"game": "leaster"})
    d["comment"] = odd
    d["annotations"] = {odd: [odd, {"": odd}]}
    rec = record_from_dict(d)
    assert rec.extra["comment"] == odd
    round_trips(rec)
