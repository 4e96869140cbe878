"""``annotate --view player`` shows the beliefs as ``suggest`` does (issue 36, item 5): each other hand's expected
trumps and its chance of holding each Ober and Unter (queen and jack) and each plain ace, in the JSON of every
decision judged from the mover's view, and at each player's first decision in the text and on the page."""

from __future__ import annotations

import json

import pytest

from sheepsolve.games import make_game
from sheepsolve.record import load_record
from sheepsolve.render.annotate import TEXT_WIDTH
from sheepsolve.render.text import width
from sheepsolve.weighting import belief_cards

EXAMPLE = "annotate-swing-sauspiel.toml"
WORLDS = "30"


@pytest.fixture(scope="module")
def annotated(example, run):
    res = run("annotate", str(example(EXAMPLE)), "--view", "player", "--worlds", WORLDS, "--jobs", "1", "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_every_judged_decision_carries_the_beliefs_of_its_worlds(annotated, example):
    rec = load_record(example(EXAMPLE))
    names = {str(c) for c in belief_cards(rec.game)}
    judged = [d for d in annotated["decisions"] if d.get("view")]
    assert judged
    for d in judged:
        beliefs = d["view"]["beliefs"]
        assert sorted(beliefs) == sorted(p for p in annotated["players"] if p != d["player"])
        cards = {c for b in beliefs.values() for c in b["cards"]}
        assert cards <= names  # canonical ASCII names, only Ober, Unter and plain aces
        for c in cards:  # every card the mover has not seen lies in one of the other hands (no bury in Schafkopf)
            assert sum(b["cards"][c] for b in beliefs.values()) == pytest.approx(1.0, abs=1e-3), (d["trick"], c)
        held = sum(b["trumps"] for b in beliefs.values())
        assert 0 <= held <= len(rec.game.trumps)


def test_an_exact_decisions_beliefs_are_suggests_at_that_decision(annotated, example, run):
    """Where few deals are possible both commands judge over every consistent world, so their beliefs agree."""
    exact = [d for d in annotated["decisions"] if d.get("view") and d["view"]["exact"]]
    assert exact
    seats = make_game("sauspiel").seats
    for d in exact[:3]:
        at = f"{d['trick']}.{annotated['decisions'].index(d) % seats + 1}"
        res = run("suggest", str(example(EXAMPLE)), "--at", at, "--worlds", WORLDS, "--jobs", "1", "--json")
        assert res.exit_code == 0, res.output
        got = json.loads(res.output)
        assert got["exact"] and got["worlds"] == d["view"]["worlds"]
        assert got["beliefs"] == d["view"]["beliefs"], at


def test_the_text_and_the_page_show_the_beliefs_at_each_players_first_decision(example, run, tmp_path):
    page = tmp_path / "hand.html"
    res = run("annotate", str(example(EXAMPLE)), "--view", "player", "--worlds", "10", "--jobs", "1",
              "--html", str(page))
    assert res.exit_code == 0, res.output
    text = res.output.split("What each player could believe at his first decision")[1]
    lines = text.splitlines()
    for who in ("Sepp", "Vroni", "Hias", "Resi"):
        assert any(line.startswith(f"  {who}, trick ") for line in lines), who
    assert any(" trumps; " in line and "%" in line for line in lines)
    assert max(width(line) for line in lines) <= TEXT_WIDTH
    html = page.read_text(encoding="utf-8")
    assert "What each player could believe" in html and 'class="beliefs"' in html


def test_without_the_players_view_nothing_changes(example, run):
    res = run("annotate", str(example(EXAMPLE)))
    assert res.exit_code == 0 and "could believe" not in res.output
