"""Issue 36's three user stories, re-created on seeded deals (tests/records/story_*.toml: the deal seeded, every
card played double-dummy best). Uniform worlds read them as if nobody had bid; the worlds weighted by the auction
must read the table: the figures below were measured over seeds 0-4 (docs/TUNING.md, "The issue's stories") and
each assertion keeps a wide margin from them, so the tests hold whatever the worlds drawn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

RECORDS = Path(__file__).resolve().parent / "records"


def _suggest(run, name: str, inference: str) -> dict:
    res = run("suggest", str(RECORDS / name), "--at", "1", "--worlds", "200", "--seed", "0", "--jobs", "1",
              "--inference", inference, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def _best_p61(view: dict) -> float:
    return view["cards"][view["best"][0]]["p61"]


def test_a_wenz_won_schwarz_seen_from_a_defender_at_the_first_lead(run):
    """Uniform worlds gave the Wenz player P(61+) 0-2.5% (seeds 0-4); weighted 49-85%, his Unter 2.4-3.0 against
    1.3-1.4."""
    uniform, weighted = (_suggest(run, "story_wenz_schwarz.toml", i) for i in ("none", "auction"))
    assert uniform["seat"] == weighted["seat"] == "Sepp" and weighted["inference"] == "auction"
    assert _best_p61(uniform) <= 0.1
    assert _best_p61(weighted) >= 0.3
    assert weighted["beliefs"]["Hias"]["trumps"] >= uniform["beliefs"]["Hias"]["trumps"] + 0.8


def test_a_sauspiel_declarer_with_eo_go_hu_su_ha_h9_seen_from_his_partner(run):
    """Uniform: P(61+) of the best card 50-60%, the declarer 3.1-3.4 trumps; weighted 75-80%, 3.7-3.8."""
    uniform, weighted = (_suggest(run, "story_sauspiel_strong.toml", i) for i in ("none", "auction"))
    assert weighted["side"] == "declaring" and weighted["effective_worlds"] >= 150
    assert _best_p61(weighted) >= _best_p61(uniform) + 0.1
    assert weighted["beliefs"]["Hias"]["trumps"] >= uniform["beliefs"]["Hias"]["trumps"] + 0.3


def test_the_defenders_of_a_schwarz_solo_are_not_told_they_were_most_unlucky(run):
    """Uniform worlds: the defenders' luck -59 to -91 points (seeds 0-3); weighted -2 to -23."""
    luck = {}
    for inference in ("none", "auction"):
        res = run("annotate", str(RECORDS / "story_solo_schwarz.toml"), "--view", "player", "--worlds", "50",
                  "--seed", "0", "--jobs", "1", "--inference", inference, "--json")
        assert res.exit_code == 0, res.output
        players = json.loads(res.output)["summary"]["players"]
        luck[inference] = {p: v["view"]["luck"] for p, v in players.items() if v["side"] == "defending"}
    assert len(luck["auction"]) == 3
    for player, weighted in luck["auction"].items():
        assert luck["none"][player] <= -40
        assert weighted >= luck["none"][player] + 30, player


def test_racing_does_not_crown_the_worst_card_on_few_effective_worlds(run):
    """The Wenz won schwarz, 1000 worlds worth about 30: racing once dropped every card but 7H after 40 worlds
    worth about one, and 7H, the defender's worst card over all the worlds (mean 84.0, the others 80.4-82.2 with
    --no-race), was printed as the only best. Racing drops a card only on RACE_FIRST effective worlds."""
    args = [str(RECORDS / "story_wenz_schwarz.toml"), "--at", "1", "--worlds", "1000", "--seed", "0", "--jobs", "1",
            "--inference", "auction", "--json"]
    res = run("suggest", *args)
    assert res.exit_code == 0, res.output
    view = json.loads(res.output)
    assert view["effective_worlds"] < 60  # the few effective worlds this test is about
    assert "7H" not in view["best"] and view["best"]
    assert all(view["cards"][c]["mean"] <= view["cards"]["7H"]["mean"] for c in view["best"])  # the defender's view
