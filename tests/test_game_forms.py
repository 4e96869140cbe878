"""Every game form make_game builds, pinned: trump order, plain ranks, Laufende, sizes and the errors.

``tests/golden/game_forms.json`` holds, for every registry game and every combination of the record's game fields
(players, deck, trump, tout, partner; with and without the ``laufende_from`` switch), what :func:`make_game`
returns, the errors it raises (counted by message, with a digest of which combination raised which), the
resolution of every alias and the list `sheepsolve games` prints. It was written from make_game before the
games became registry data, so any change to how a game is built shows here. Rewrite it only with
``pytest --regen-golden`` after a deliberate rules change.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import json
from pathlib import Path

import pytest

from sheepsolve.games import ALIASES, REGISTRY, GameError, list_games, make_game, resolve_name

GOLDEN = Path(__file__).parent / "golden" / "game_forms.json"


def _cards(cards) -> str:
    return " ".join(map(str, cards))


def _describe(g) -> dict:
    return {
        "name": g.name, "title": g.title, "family": g.family, "kind": g.kind, "seats": g.seats,
        "hand_size": g.hand_size, "blind_size": g.blind_size, "bury_size": g.bury_size, "deck": len(g.deck),
        "trumps": _cards(g.trumps), "plain_ranks": g.plain_ranks, "trump_suit": g.trump_suit,
        "partner": g.partner, "tout": g.tout, "sie": g.sie, "solo_type": g.solo_type,
        "laufende_from": g.laufende_from, "rank": g.rank, "classes": "".join(g.classes),
    }


def _forms():
    """(key, make_game keyword arguments) for every combination of the game fields."""
    for name, spec in REGISTRY.items():
        partners = (None, "jack-of-diamonds", "called-ace", "alone", "banker") if spec.family == "sheepshead" \
            else (None, "alone")
        rule_sets = ({}, {"laufende_from": 4}) if spec.family == "schafkopf" else ({},)
        for seats, deck, trump, tout, partner, rules in itertools.product(
                (None, 3, 4, 5), (None, "long", "short"), (None, "C", "S", "H", "D"), (None, True),
                partners, rule_sets):
            kw = {"seats": seats, "deck": deck, "trump": trump, "tout": tout, "partner": partner, "rules": rules}
            kw = {k: v for k, v in kw.items() if v not in (None, {})}
            key = " ".join([name] + [f"{k}={v}" for k, v in sorted(kw.items())])
            yield key, name, kw


def current_table() -> dict:
    """The games built, the errors (counted by message, and a digest of which combination raised which), the
    aliases and `sheepsolve games`' list."""
    forms, errors = {}, {}
    for key, name, kw in _forms():
        try:
            forms[key] = _describe(make_game(name, **kw))
        except GameError as e:
            errors[key] = str(e)
    by_message = collections.Counter(errors.values())
    digest = hashlib.sha256(json.dumps(sorted(errors.items())).encode()).hexdigest()
    aliases = {alias: list(resolve_name(alias)) for alias in sorted(ALIASES)}
    return {"forms": forms, "errors": dict(sorted(by_message.items())), "errors_sha256": digest,
            "aliases": aliases, "list_games": list_games()}


def _dump(table: dict) -> str:
    """One line per form and alias, so a change reads as a short diff."""
    parts = []
    for section, entries in table.items():
        if isinstance(entries, str):
            parts.append(f"{json.dumps(section)}: {json.dumps(entries)}")
        elif isinstance(entries, dict):
            rows = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in entries.items()]
            parts.append(f"{json.dumps(section)}: {{\n" + ",\n".join(rows) + "\n}")
        else:
            rows = [f"  {json.dumps(v, sort_keys=True)}" for v in entries]
            parts.append(f"{json.dumps(section)}: [\n" + ",\n".join(rows) + "\n]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _load_or_regen(request) -> dict:
    table = current_table()
    if request.config.getoption("--regen-golden"):
        GOLDEN.write_text(_dump(table))
    return json.loads(GOLDEN.read_text())


def test_every_game_form_builds_as_pinned(request):
    pinned = _load_or_regen(request)
    table = current_table()
    assert table["forms"].keys() == pinned["forms"].keys()
    changed = [key for key in table["forms"] if table["forms"][key] != pinned["forms"][key]]
    assert not changed, f"{len(changed)} game forms changed, first: {changed[0]}: " \
                        f"{table['forms'][changed[0]]} != {pinned['forms'][changed[0]]}"
    assert table["errors"] == pinned["errors"]
    assert table["errors_sha256"] == pinned["errors_sha256"]  # the same combinations raise the same errors
    assert table["aliases"] == pinned["aliases"]
    assert table["list_games"] == pinned["list_games"]


def test_the_pinned_table_covers_every_game_trump_and_deck():
    pinned = json.loads(GOLDEN.read_text())["forms"]
    built = list(pinned.values())
    for name in REGISTRY:
        assert any(f["name"] == name for f in built), name
    for name in ("solo", "farbwenz", "farbgeier"):
        for deck in ("long", "short"):
            suits = {f["trump_suit"] for f in built if f["name"] == name and f["deck"] == (32 if deck == "long" else 24)}
            assert suits == {"C", "S", "H", "D"}, (name, deck)
    assert json.loads(GOLDEN.read_text())["errors"]


@pytest.mark.parametrize("name,trump,expected", [
    ("solo", "D", "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"),
    ("farbwenz", "S", "JC JS JH JD AS TS KS QS 9S 8S 7S"),
    ("farbgeier", "H", "QC QS QH QD AH TH KH JH 9H 8H 7H"),
    ("wenz", None, "JC JS JH JD"),
    ("geier", None, "QC QS QH QD"),
    ("sheepshead", None, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"),
])
def test_trump_orders_of_rules_md(name, trump, expected):
    """The orders RULES.md states, independent of the pinned file."""
    assert _cards(make_game(name, trump=trump).trumps) == expected


def test_a_new_game_form_is_a_registry_entry(monkeypatch):
    """A game form of the family needs only its entry: here a 'Farbgeier' whose Ober and Unter both rank above a
    fixed suit, played by three with the short deck, Laufende from 2."""
    from sheepsolve.games import ALIASES, GameSpec

    spec = GameSpec(name="eichel-solo", title="Eichel-Solo", family="schafkopf", kind="contract", seats=(3,),
                    decks=("short",), top_trumps="QJ", trump_suit="C", plain_ranks="ATK987", laufende_from=2,
                    solo_type=True, auction_rank=4)
    monkeypatch.setitem(REGISTRY, spec.name, spec)
    monkeypatch.setitem(ALIASES, spec.name, spec.name)
    g = make_game("eichel-solo")
    assert (g.seats, g.hand_size, len(g.deck), g.plain_ranks, g.laufende_from) == (3, 8, 24, "ATK9", 2)
    assert _cards(g.trumps) == "QC QS QH QD JC JS JH JD AC TC KC 9C"
    assert _cards(g.class_cards("H")) == "AH TH KH 9H"
    with pytest.raises(GameError, match="trump: eichel-solo has no trump suit to choose"):
        make_game("eichel-solo", trump="H")
