"""Games as data: the registry, aliases, trump orders, deal sizes and rule switches of shared/RULES.md."""

import dataclasses

import pytest

from sheepsolve.cards import Card, parse_cards
from sheepsolve.games import (ALIASES, REGISTRY, RULE_SWITCHES, GameError, list_games, make_game, resolve_name,
                              resolve_rules)


def cards(text):
    return parse_cards(text)


def strs(cs):
    return " ".join(str(c) for c in cs)


# ---------------------------------------------------------------------------------------------------------------
# Registry and aliases

TRUMP_NEEDED = {"solo", "farbwenz", "farbgeier", "skat"}


def test_registry_holds_every_game_of_rules_md():
    assert set(REGISTRY) == {"sheepshead", "leaster", "sheepshead-3", "sheepshead-4", "sauspiel", "solo", "wenz",
                             "geier", "farbwenz", "farbgeier", "sie", "ramsch", "bettel", "grand", "skat", "null"}


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registry_game_builds(name):
    g = make_game(name, trump="H" if name in TRUMP_NEEDED else None)
    assert g.name == name
    assert g.family == ("sheepshead" if name in ("sheepshead", "leaster", "sheepshead-3", "sheepshead-4")
                        else "skat" if name in ("grand", "skat", "null") else "schafkopf")
    assert g.seats * g.hand_size + g.blind_size == len(g.deck)
    assert g.total_points == 120
    assert g.tricks == g.hand_size
    assert len(set(g.trumps)) == len(g.trumps) and set(g.trumps) <= set(g.deck)


@pytest.mark.parametrize("alias, canon, fields", [
    ("rufspiel", "sauspiel", {}), ("Rufspiel", "sauspiel", {}), ("ruf", "sauspiel", {}), ("sau", "sauspiel", {}),
    ("partnerspiel", "sauspiel", {}), ("schafkopf", "sauspiel", {}),
    ("farbsolo", "solo", {}), ("farbspiel", "solo", {}),
    ("wenz-3", "wenz", {"seats": 3}), ("solo-3", "solo", {"seats": 3}), ("farbsolo-3", "solo", {"seats": 3}),
    ("geier-3", "geier", {"seats": 3}), ("farbwenz-3", "farbwenz", {"seats": 3}),
    ("farbgeier-3", "farbgeier", {"seats": 3}),
    ("wenz-tout", "wenz", {"tout": True}), ("solo-tout", "solo", {"tout": True}),
    ("geier-tout", "geier", {"tout": True}), ("farbwenz-tout", "farbwenz", {"tout": True}),
    ("farbgeier-tout", "farbgeier", {"tout": True}),
    ("geir", "geier", {}), ("ramsh", "ramsch", {}), ("least", "leaster", {}),
    ("sheepshead-5", "sheepshead", {}), ("5-hand", "sheepshead", {}), ("schafkopf-wisconsin", "sheepshead", {}),
    ("3-hand", "sheepshead-3", {}), ("sheepshead3", "sheepshead-3", {}), ("Sheepshead 3", "sheepshead-3", {}),
    ("4-hand", "sheepshead-4", {}), ("sheepshead_4", "sheepshead-4", {}), (" WENZ ", "wenz", {}),
])
def test_aliases(alias, canon, fields):
    assert resolve_name(alias) == (canon, fields)
    g = make_game(alias, trump="S" if canon in TRUMP_NEEDED else None)
    assert g.name == canon
    assert g.seats == fields.get("seats", g.seats)
    assert g.tout == fields.get("tout", False)


def test_alias_and_canonical_name_build_the_same_game():
    assert make_game("rufspiel") == make_game("sauspiel")
    assert make_game("farbsolo", trump="D") == make_game("solo", trump="D")
    assert make_game("wenz-3") == make_game("wenz", seats=3)
    assert make_game("wenz-3") == make_game("wenz", seats=3, deck="short")
    assert make_game("solo-tout", trump="C") == make_game("solo", trump="C", tout=True)


@pytest.mark.parametrize("bad", ["skat-4", "", "sauspiel-3x", "wenz-4", "doppelkopf"])
def test_unknown_game(bad):
    with pytest.raises(GameError, match=r"^game: unknown game"):
        make_game(bad)


def test_game_name_must_be_a_string():
    with pytest.raises(GameError, match=r"^game: must be a string"):
        make_game(None)  # type: ignore[arg-type]


def test_list_games_describes_every_game():
    rows = {r["name"]: r for r in list_games()}
    assert set(rows) == set(REGISTRY)
    assert "rufspiel" in rows["sauspiel"]["aliases"] and "farbsolo" in rows["solo"]["aliases"]
    assert "wenz-3" in rows["wenz"]["aliases"]
    assert rows["sheepshead"]["trumps"] == "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()
    assert rows["solo"]["trumps"][:8] == "QC QS QH QD JC JS JH JD".split()
    assert rows["farbwenz"]["trumps"][:4] == "JC JS JH JD".split()
    assert rows["sheepshead"]["partners"] == ["jack-of-diamonds", "called-ace", "alone"]
    assert all(set(a) <= set(ALIASES) for a in (r["aliases"] for r in rows.values()))


# ---------------------------------------------------------------------------------------------------------------
# Trump orders, exactly as RULES.md lists them (high to low)

OBER_UNTER = "QC QS QH QD JC JS JH JD"


@pytest.mark.parametrize("name, kw, trumps, plain", [
    ("sheepshead", {}, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D", "ATK987"),
    ("sheepshead-3", {}, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D", "ATK987"),
    ("sheepshead-4", {}, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D", "ATK987"),
    ("leaster", {}, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D", "ATK987"),
    ("sauspiel", {}, "QC QS QH QD JC JS JH JD AH TH KH 9H 8H 7H", "ATK987"),
    ("ramsch", {}, "QC QS QH QD JC JS JH JD AH TH KH 9H 8H 7H", "ATK987"),
    ("solo", {"trump": "C"}, OBER_UNTER + " AC TC KC 9C 8C 7C", "ATK987"),
    ("solo", {"trump": "S"}, OBER_UNTER + " AS TS KS 9S 8S 7S", "ATK987"),
    ("solo", {"trump": "H"}, OBER_UNTER + " AH TH KH 9H 8H 7H", "ATK987"),
    ("solo", {"trump": "D"}, OBER_UNTER + " AD TD KD 9D 8D 7D", "ATK987"),
    ("wenz", {}, "JC JS JH JD", "ATKQ987"),
    ("geier", {}, "QC QS QH QD", "ATKJ987"),
    ("farbwenz", {"trump": "C"}, "JC JS JH JD AC TC KC QC 9C 8C 7C", "ATKQ987"),
    ("farbwenz", {"trump": "H"}, "JC JS JH JD AH TH KH QH 9H 8H 7H", "ATKQ987"),
    ("farbgeier", {"trump": "S"}, "QC QS QH QD AS TS KS JS 9S 8S 7S", "ATKJ987"),
    ("farbgeier", {"trump": "D"}, "QC QS QH QD AD TD KD JD 9D 8D 7D", "ATKJ987"),
    # Kurze Karte: no 7s and 8s
    ("sauspiel", {"deck": "short"}, "QC QS QH QD JC JS JH JD AH TH KH 9H", "ATK9"),
    ("ramsch", {"deck": "short"}, "QC QS QH QD JC JS JH JD AH TH KH 9H", "ATK9"),
    ("solo", {"trump": "D", "deck": "short"}, OBER_UNTER + " AD TD KD 9D", "ATK9"),
    ("solo", {"trump": "S", "seats": 3}, OBER_UNTER + " AS TS KS 9S", "ATK9"),
    ("wenz", {"deck": "short"}, "JC JS JH JD", "ATKQ9"),
    ("geier-3", {}, "QC QS QH QD", "ATKJ9"),
    ("farbwenz", {"trump": "C", "deck": "short"}, "JC JS JH JD AC TC KC QC 9C", "ATKQ9"),
    ("farbgeier", {"trump": "H", "seats": 3}, "QC QS QH QD AH TH KH JH 9H", "ATKJ9"),
])
def test_trump_order_and_plain_order(name, kw, trumps, plain):
    g = make_game(name, **kw)
    assert strs(g.trumps) == trumps
    assert g.plain_ranks == plain
    assert g.trump_mask == sum(1 << c for c in cards(trumps))
    assert strs(g.class_cards("T")) == trumps
    for s in g.plain_suits:
        # every plain suit lists exactly the non-trump cards of its suit, in plain order
        assert strs(g.class_cards(s)) == " ".join(r + s for r in plain if Card.parse(r + s) not in g.trumps)
    n_plain = sum(len(g.class_cards(s)) for s in g.plain_suits)
    assert n_plain + len(g.trumps) == len(g.deck)
    # every trump beats every plain card; inside a class the listed order is the strength order
    weakest_trump = min(g.strength(c) for c in g.trumps)
    assert all(g.strength(c) < weakest_trump for c in g.deck if not g.is_trump(c))
    order = [g.strength(c) for c in g.trumps]
    assert order == sorted(order, reverse=True) and len(set(order)) == len(order)


def test_suit_class_traps():
    ss = make_game("sheepshead")
    # a Q or J is trump, never its printed suit; all diamonds are trump
    assert [ss.suit_class(c) for c in cards("QH JC AD 7D AH TC KS")] == ["T", "T", "T", "T", "H", "C", "S"]
    assert ss.plain_suits == ("C", "S", "H") and ss.classes == ("T", "C", "S", "H")
    sau = make_game("sauspiel")
    assert [sau.suit_class(c) for c in cards("AH 7H QD AD JS AS")] == ["T", "T", "T", "D", "T", "S"]
    assert sau.plain_suits == ("C", "S", "D")
    dsolo = make_game("solo", trump="D")
    assert [dsolo.suit_class(c) for c in cards("AH 7H QH AD")] == ["H", "H", "T", "T"]  # hearts plain here
    wenz = make_game("wenz")
    assert [wenz.suit_class(c) for c in cards("QC QH JC JD AD")] == ["C", "H", "T", "T", "D"]  # Ober in suit
    assert wenz.plain_suits == ("C", "S", "H", "D")
    geier = make_game("geier")
    assert [geier.suit_class(c) for c in cards("JC JH QC QD")] == ["C", "H", "T", "T"]  # Unter in suit
    fw = make_game("farbwenz", trump="S")
    assert [fw.suit_class(c) for c in cards("QS QC JH 7S")] == ["T", "C", "T", "T"]
    fg = make_game("farbgeier", trump="C")
    assert [fg.suit_class(c) for c in cards("JC JS QH 7C")] == ["T", "S", "T", "T"]


def test_short_deck_has_no_sevens_or_eights():
    for g in (make_game("sauspiel", deck="short"), make_game("wenz-3"), make_game("solo", trump="H", seats=3)):
        assert len(g.deck) == 24
        assert not any(c.rank in "78" for c in g.deck)
        assert not any(c.rank in "78" for c in g.trumps)
    assert len(make_game("sauspiel").deck) == 32


# ---------------------------------------------------------------------------------------------------------------
# Deal sizes


@pytest.mark.parametrize("name, kw, seats, hand, blind, bury", [
    ("sheepshead", {}, 5, 6, 2, 2),
    ("leaster", {}, 5, 6, 2, 0),
    ("sheepshead-3", {}, 3, 10, 2, 2),
    ("leaster", {"seats": 3}, 3, 10, 2, 0),
    ("sheepshead-4", {}, 4, 7, 4, 4),
    ("leaster", {"seats": 4}, 4, 7, 4, 0),
    ("sauspiel", {}, 4, 8, 0, 0),
    ("solo", {"trump": "C"}, 4, 8, 0, 0),
    ("wenz", {}, 4, 8, 0, 0),
    ("ramsch", {}, 4, 8, 0, 0),
    ("sauspiel", {"deck": "short"}, 4, 6, 0, 0),
    ("geier", {"deck": "short"}, 4, 6, 0, 0),
    ("solo", {"trump": "C", "seats": 3}, 3, 8, 0, 0),
    ("wenz-3", {}, 3, 8, 0, 0),
    ("farbgeier-3", {"trump": "D"}, 3, 8, 0, 0),
])
def test_deal_sizes(name, kw, seats, hand, blind, bury):
    g = make_game(name, **kw)
    assert (g.seats, g.hand_size, g.blind_size, g.bury_size) == (seats, hand, blind, bury)
    assert seats * hand + blind == len(g.deck)


def test_kinds_partners_and_flags():
    assert make_game("sheepshead").kind == "picker" and make_game("sheepshead").partner == "jack-of-diamonds"
    assert make_game("sheepshead", partner="called-ace").partner == "called-ace"
    assert make_game("sheepshead", partner="alone").partner == "alone"
    assert make_game("sheepshead-3").partner == "alone" and make_game("sheepshead-4").partner == "alone"
    assert make_game("sheepshead-3", partner="alone").partner == "alone"
    assert make_game("leaster").kind == "leaster" and make_game("leaster").partner == "none"
    assert make_game("sauspiel").kind == "contract" and make_game("sauspiel").partner == "sauspiel"
    assert make_game("ramsch").kind == "ramsch" and make_game("ramsch").partner == "none"
    assert not make_game("sauspiel").solo_type
    for n in ("solo", "wenz", "geier", "farbwenz", "farbgeier"):
        g = make_game(n, trump="C" if n in TRUMP_NEEDED else None)
        assert g.kind == "contract" and g.solo_type and g.partner == "none" and not g.tout
    assert make_game("wenz", tout=True).tout
    assert make_game("sie").sie and not make_game("sauspiel").sie
    assert [make_game(n).two_sided for n in ("sheepshead", "sauspiel", "leaster", "ramsch")] == [
        True, True, False, False]
    assert make_game("solo", trump="h").trump_suit == "H"


def test_game_is_frozen():
    g = make_game("sauspiel")
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.seats = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        g.rules["run_min"] = 3  # type: ignore[index]


def test_laufende_from():
    assert [make_game(n, trump="C" if n in TRUMP_NEEDED else None).laufende_from
            for n in ("sauspiel", "solo", "farbwenz", "farbgeier", "wenz", "geier")] == [3, 3, 3, 3, 2, 2]
    assert make_game("wenz", rules={"laufende_from": 3}).laufende_from == 3
    assert make_game("sauspiel", rules={"laufende_from": 2}).laufende_from == 2


def test_auction_ranking():
    rank = {label: make_game(n, **kw).rank for label, n, kw in [
        ("sauspiel", "sauspiel", {}), ("geier", "geier", {}), ("farbgeier", "farbgeier", {"trump": "C"}),
        ("wenz", "wenz", {}), ("farbwenz", "farbwenz", {"trump": "C"}), ("solo", "solo", {"trump": "C"}),
        ("geier-tout", "geier", {"tout": True}), ("solo-tout", "solo", {"trump": "C", "tout": True}),
        ("sie", "sie", {})]}
    # sauspiel < farbgeier/geier < farbwenz/wenz < solo < tout versions < sie
    assert rank["sauspiel"] < rank["geier"] == rank["farbgeier"] < rank["wenz"] == rank["farbwenz"] < rank["solo"]
    assert rank["solo"] < rank["geier-tout"] <= rank["solo-tout"] < rank["sie"]
    gt = {n: make_game(n, rules={"preset": "gametwist"}).rank for n in ("sauspiel", "geier", "wenz")}
    gt["solo"] = make_game("solo", trump="S", rules={"preset": "gametwist"}).rank
    assert gt["sauspiel"] < gt["geier"] < gt["wenz"] < gt["solo"]


def test_the_gametwist_auction_order_is_the_standard_order_on_its_games():
    """RULES.md: GameTwist's order is sauspiel < geier < wenz < solo; the standard order puts farbgeier beside
    geier and farbwenz beside wenz, the touts above solo and sie on top. On the games GameTwist plays the two are
    one order, so there is no ranking switch."""
    from sheepsolve.games import PRESET_GAMES
    forms = [(n, t) for n in sorted(PRESET_GAMES["gametwist"]) for t in (False, True) if n != "sauspiel" or not t]
    standard = {(n, t): make_game(n, trump="S" if n == "solo" else None, tout=t).rank for n, t in forms}
    gametwist = {(n, t): make_game(n, trump="S" if n == "solo" else None, tout=t,
                                   rules={"preset": "gametwist"}).rank for n, t in forms}
    assert gametwist == standard
    assert sorted(forms, key=standard.__getitem__) == [
        ("sauspiel", False), ("geier", False), ("wenz", False), ("solo", False),
        ("geier", True), ("wenz", True), ("solo", True)]


# ---------------------------------------------------------------------------------------------------------------
# Rule switches: defaults from RULES.md and their validation

SHEEPSHEAD_DEFAULTS = {
    "bury_needs_trick": False,  # the bury counts for the picker's side (option: only if that side took a trick)
    "call_up": False,  # JD held or buried: the picker plays alone (option: call up)
    "run": False,  # called ace: lead the suit only with the ace (option: run with 4 or more)
    "alone_multiplier": 2,  # picker alone: payments doubled
    "double_on_bump": False,
    "blitz": False,
    "all_pass": "leaster",  # leaster (default) or doubler
    "leaster_blind": "last",  # the blind goes to the winner of the last trick
    "called_throw_off_last_only": True,
}
SCHAFKOPF_DEFAULTS = {
    "run_min": 4,  # R3 davonlaufen: 4 or more cards of the suit
    "called_throw_off_last_only": True,  # R2, default on
    "schwarz_by_points": False,  # schwarz = the losing side took no trick
    "tariff_sauspiel": 10, "tariff_solo": 50, "tariff_bonus": 10,
    "laufende_from": 0,  # 0 = the game's default (3, or 2 in wenz and geier)
    "tout_multiplier": 2, "sie_multiplier": 4,
    "ramsch_tariff": 10,
    "ramsch_ties": "all-lose",  # RULES.md: "Ties: option" without a default; the code's choice
    "bettel_tariff": "sauspiel",  # Bettel pays the sauspiel's tariff unless the switch says the solo's
    "all_pass_schafkopf": "ramsch",  # ramsch when all pass
}


@pytest.mark.parametrize("name", ["sheepshead", "sheepshead-3", "sheepshead-4", "leaster"])
def test_sheepshead_rule_defaults(name):
    assert dict(make_game(name).rules) == SHEEPSHEAD_DEFAULTS


SKAT_DEFAULTS = {
    "called_throw_off_last_only": True,  # a switch of every family (Skat has no called card)
    "seeger_fabian": False,  # the list score alone (option: Seeger-Fabian's tournament scoring)
}


@pytest.mark.parametrize("name", ["grand", "skat", "null"])
def test_skat_rule_defaults(name):
    assert dict(make_game(name, trump="D" if name == "skat" else None).rules) == SKAT_DEFAULTS


@pytest.mark.parametrize("name", ["sauspiel", "ramsch", "wenz", "geier", "sie", "solo", "farbwenz", "farbgeier"])
def test_schafkopf_rule_defaults(name):
    assert dict(make_game(name, trump="D" if name in TRUMP_NEEDED else None).rules) == SCHAFKOPF_DEFAULTS


def test_every_switch_is_documented_and_in_one_family():
    assert set(RULE_SWITCHES) == set(SHEEPSHEAD_DEFAULTS) | set(SCHAFKOPF_DEFAULTS) | set(SKAT_DEFAULTS)
    for sw in RULE_SWITCHES.values():
        assert sw.doc and sw.family in ("sheepshead", "schafkopf", "skat", "all")
        assert isinstance(sw.default, sw.kind)
        if sw.choices:
            assert sw.default in sw.choices


def test_switch_values_are_kept():
    g = make_game("sheepshead", partner="called-ace", rules={"run": True, "all_pass": "doubler",
                                                             "alone_multiplier": 1, "leaster_blind": "nobody"})
    assert g.rules["run"] is True and g.rules["all_pass"] == "doubler" and g.rules["alone_multiplier"] == 1
    assert g.rules["leaster_blind"] == "nobody" and g.rules["call_up"] is False
    g = make_game("sauspiel", rules={"run_min": 3, "called_throw_off_last_only": False, "ramsch_ties": "nobody"})
    assert (g.rules["run_min"], g.rules["called_throw_off_last_only"], g.rules["ramsch_ties"]) == (3, False, "nobody")


@pytest.mark.parametrize("game, rules, key, what", [
    ("sheepshead", {"run": "yes"}, "run", "true or false"),
    ("sheepshead", {"call_up": 1}, "call_up", "true or false"),
    ("sheepshead", {"alone_multiplier": 0}, "alone_multiplier", "at least 1"),
    ("sheepshead", {"alone_multiplier": 2.0}, "alone_multiplier", "an integer"),
    ("sheepshead", {"alone_multiplier": True}, "alone_multiplier", "an integer"),
    ("sheepshead", {"all_pass": "redeal"}, "all_pass", "one of 'leaster', 'doubler'"),
    ("leaster", {"leaster_blind": "dealer"}, "leaster_blind", "one of"),
    ("sheepshead", {"no_such_rule": 1}, "no_such_rule", "unknown rule switch"),
    ("sheepshead", {"run_min": 3}, "run_min", "a schafkopf switch"),
    ("sauspiel", {"run": True}, "run", "a sheepshead switch"),
    ("sauspiel", {"call_up": True}, "call_up", "a sheepshead switch"),
    ("sauspiel", {"run_min": 0}, "run_min", "at least 1"),
    ("sauspiel", {"run_min": "4"}, "run_min", "an integer"),
    ("sauspiel", {"called_throw_off_last_only": "on"}, "called_throw_off_last_only", "true or false"),
    ("sauspiel", {"tariff_solo": -10}, "tariff_solo", "at least 0"),
    ("sauspiel", {"ranking": "gametwist"}, "ranking", "unknown rule switch"),  # no switch: see below
    ("ramsch", {"ramsch_ties": "split"}, "ramsch_ties", "one of"),
    ("sauspiel", {"preset": "kurz"}, "preset", "unknown preset"),
    ("sauspiel", {"preset": ["gametwist"]}, "preset", "unknown preset"),
])
def test_bad_switches_name_the_key(game, rules, key, what):
    with pytest.raises(GameError, match=rf"^rules\.{key}: .*{what}"):
        make_game(game, rules=rules)


def test_resolve_rules_fills_defaults_only_for_the_family():
    assert resolve_rules("sheepshead", None) == SHEEPSHEAD_DEFAULTS
    assert resolve_rules("schafkopf", {}) == SCHAFKOPF_DEFAULTS


def test_presets():
    g = make_game("sauspiel", rules={"preset": "gametwist"})
    assert g.rules["all_pass_schafkopf"] == "redeal"
    assert g.rules["run_min"] == 4 and g.rules["preset"] == "gametwist"
    # an explicit switch wins over the preset
    assert make_game("sauspiel", rules={"preset": "gametwist", "run_min": 3}).rules["run_min"] == 3
    for name, kw in [("farbwenz", {"trump": "S"}), ("farbgeier", {"trump": "S"}), ("ramsch", {}), ("sie", {})]:
        with pytest.raises(GameError, match=r"^game: .* not played under the gametwist preset"):
            make_game(name, rules={"preset": "gametwist"}, **kw)
    assert dict(make_game("sauspiel", rules={"preset": "standard"}).rules) == {**SCHAFKOPF_DEFAULTS,
                                                                               "preset": "standard"}


# ---------------------------------------------------------------------------------------------------------------
# Fields that do not fit the game


@pytest.mark.parametrize("name, kw, field, what", [
    ("sauspiel", {"trump": "H"}, "trump", "no trump suit to choose"),
    ("sheepshead", {"trump": "D"}, "trump", "no trump suit to choose"),
    ("wenz", {"trump": "C"}, "trump", "no trump suit to choose"),
    ("geier", {"trump": "C"}, "trump", "no trump suit to choose"),
    ("ramsch", {"trump": "H"}, "trump", "no trump suit to choose"),
    ("solo", {}, "trump", "needs a trump suit"),
    ("farbwenz", {}, "trump", "needs a trump suit"),
    ("farbgeier-3", {}, "trump", "needs a trump suit"),
    ("solo", {"trump": "X"}, "trump", "one of C S H D"),
    ("solo", {"trump": "HS"}, "trump", "one of C S H D"),
    ("solo", {"trump": 1}, "trump", "one of C S H D"),
    ("solo", {"trump": ""}, "trump", "one of C S H D"),  # not a substring test on "CSHD"
    ("solo", {"trump": "CS"}, "trump", "one of C S H D"),
    ("farbwenz", {"trump": "SH"}, "trump", "one of C S H D"),
    ("sauspiel", {"tout": True}, "tout", "cannot be played tout"),
    ("ramsch", {"tout": True}, "tout", "cannot be played tout"),
    ("sheepshead", {"tout": True}, "tout", "cannot be played tout"),
    ("sie", {"tout": True}, "tout", "cannot be played tout"),
    ("wenz", {"tout": "yes"}, "tout", "true or false"),
    ("sheepshead", {"deck": "short"}, "deck", "long deck only"),
    ("leaster", {"deck": "short"}, "deck", "long deck only"),
    ("sheepshead-3", {"deck": "short"}, "deck", "long deck only"),
    ("sie", {"deck": "short"}, "deck", "long deck only"),
    ("sauspiel", {"deck": "kurz"}, "deck", "must be"),
    ("wenz", {"seats": 3, "deck": "long"}, "deck", "3-player Schafkopf uses the short deck"),
    ("wenz-3", {"deck": "long"}, "deck", "3-player Schafkopf uses the short deck"),
    ("sauspiel", {"seats": 3}, "players", "for 4 players"),
    ("ramsch", {"seats": 3}, "players", "for 4 players"),
    ("sie", {"seats": 3, "deck": "long"}, "players", "for 4 players"),
    ("wenz", {"seats": 5}, "players", "for 4 or 3 players"),
    ("sheepshead", {"seats": 4}, "players", "for 5 players"),
    ("sheepshead-3", {"seats": 5}, "players", "for 3 players"),
    ("leaster", {"seats": 6}, "players", "for 5 or 4 or 3 players"),
    ("sauspiel", {"partner": "called-ace"}, "partner", "only 5-hand sheepshead"),
    ("leaster", {"partner": "alone"}, "partner", "only 5-hand sheepshead"),
    ("sheepshead-3", {"partner": "called-ace"}, "partner", "only 5-hand sheepshead"),
    ("sheepshead-4", {"partner": "jack-of-diamonds"}, "partner", "only 5-hand sheepshead"),
    ("sheepshead", {"partner": "jack-of-clubs"}, "partner", "must be one of"),
])
def test_fields_that_do_not_fit(name, kw, field, what):
    with pytest.raises(GameError, match=rf"^{field}: .*{what}"):
        make_game(name, **kw)


def test_alias_fields_cannot_be_contradicted():
    # `wenz-3` means 3 players and `wenz-tout` means tout: a record saying otherwise is refused, not repaired
    assert make_game("wenz-3", seats=3).seats == 3 and make_game("wenz-tout", tout=True).tout
    with pytest.raises(GameError, match=r"^players: wenz-3 is the 3-player game"):
        make_game("wenz-3", seats=4)
    with pytest.raises(GameError, match=r"^tout: solo-tout is played tout"):
        make_game("solo-tout", trump="H", tout=False)


def test_game_error_is_a_value_error():
    assert issubclass(GameError, ValueError)
