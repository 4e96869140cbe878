"""Skat's schneider is 90 card points (the defenders hold 30 or less; scoring.skat), so every "91+" figure counts
from 90 in Skat and says so ("90+"): choose's and bury's column and JSON ``p91``, suggest's P(90+), the charts'
schneider line and ranges, the puzzle goals. Sheepshead and Schafkopf keep 91."""

from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from sheepsolve.bury import choose_contract
from sheepsolve.bury.results import choice_stats
from sheepsolve.cards import parse_cards
from sheepsolve.games import make_game
from sheepsolve.player.solve import summarize_cards
from sheepsolve.puzzle.goals import game_goals
from sheepsolve.render.charts import histogram, value_line
from sheepsolve.scoring import schneider_points

GRAND_HAND = "JC JS AC TC KC AS TS KS AH TH"


def run(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "sheepsolve", *args], capture_output=True, text=True,
                          check=True).stdout


def test_schneider_points():
    assert [schneider_points(make_game(g)) for g in ("grand", "null", "sauspiel", "sheepshead", "wenz")] == \
        [90, 90, 91, 91, 91]
    assert schneider_points(make_game("skat", trump="H")) == 90


def test_the_share_counts_from_the_games_schneider():
    evals = [(89, "win", 20, False, False), (90, "win-schneider", 30, False, False),
             (91, "win-schneider", 30, False, False), (60, "loss", -40, False, False)]
    assert choice_stats(evals).p91 == 0.25  # Schafkopf, Sheepshead: 91 or more
    assert choice_stats(evals, schneider=90).p91 == 0.5
    assert choice_stats(evals, weights=[1, 1, 2, 4], schneider=90).p91 == 3 / 8


def test_the_players_view_counts_from_the_games_schneider():
    legal = parse_cards("AC TC")
    values = [(90, 80), (89, 95), (91, 60)]
    for game, want in ((make_game("grand"), 2 / 3), (make_game("wenz"), 1 / 3)):
        cards, _ = summarize_cards(SimpleNamespace(game=game), legal, values, None, True, False)
        assert cards[legal[0]].p91 == pytest.approx(want)


def test_choose_counts_schneider_at_90_in_skat():
    g = make_game("grand", bid=18)
    res = choose_contract(g, parse_cards(GRAND_HAND), 0, worlds=12, seed=4)
    for row in res.rows:
        vals = [v for v in row.stats.values if v is not None]
        if vals:
            assert row.stats.p91 == pytest.approx(sum(v >= 90 for v in vals) / len(vals))
    assert res.rows and all(r.stats.p91 is None or 0 <= r.stats.p91 <= 1 for r in res.rows)


def test_choose_and_suggest_name_the_column_90_in_skat(tmp_path):
    rec = tmp_path / "grand.toml"
    rec.write_text('game = "skat"\ncontract = "grand"\nplayers = ["Ann", "Bob", "Cal"]\ndeclarer = "Ann"\n'
                   f'[hands]\nAnn = "{GRAND_HAND}"\n')
    text = run("choose", str(rec), "--seat", "Ann", "--worlds", "4", "--seed", "1")
    head = text.splitlines()[1].split()
    assert "90+" in head and "91+" not in head
    page = tmp_path / "choose.html"
    run("choose", str(rec), "--seat", "Ann", "--worlds", "4", "--seed", "1", "--html", str(page))
    html = page.read_text()
    assert '<th class="n">90+</th>' in html and "dashed line 90 (schneider)" in html
    assert not any(x in html for x in ("91+", "91 schneider", "91 or more", "line 91"))
    text = run("suggest", "examples/skat-grand-finished.toml", "--at", "4", "--worlds", "4", "--seed", "1")
    assert "P(90+)" in text and "P(91+)" not in text
    text = run("suggest", "examples/sauspiel-finished.toml", "--at", "4", "--worlds", "4", "--seed", "1")
    assert "P(91+)" in text and "P(90+)" not in text


def test_the_charts_mark_schneider_at_90():
    s = histogram([89, 90, 120], label="x", schneider=90)
    titles = [r["title"] for r in s.rects]
    assert "86-89: 1 world" in titles and "90-94: 1 world" in titles and titles[-1] == "120: 1 world"
    assert [t["text"] for t in s.texts if "schneider" in t["text"]] == ["90 schneider"]
    old = histogram([89, 90, 120], label="x")  # Schafkopf's ranges as before
    assert "86-90: 2 worlds" in [r["title"] for r in old.rects]
    assert [t["text"] for t in old.texts if "schneider" in t["text"]] == ["91 schneider"]
    line = value_line([(0, 60, "", ""), (1, 95, "", "")], cards=3, seats=3, schneider=90)
    assert "90" in [t["text"] for t in line.texts] and "91" not in [t["text"] for t in line.texts]


def test_puzzle_goals_use_90_in_skat():
    from sheepsolve.puzzle import generate
    from sheepsolve.render.puzzle import describe_goal

    assert game_goals(make_game("grand")) == (61, 90, "all-tricks", 31, "max")
    assert game_goals(make_game("sauspiel")) == (61, 91, "all-tricks", 31, "max")
    [p] = generate(make_game("grand"), cards_left=3, count=1, seed=5, goals=[90])
    text = describe_goal(p.state, 90)
    assert text.endswith("(schneider)") or text.endswith("(avoid schneider)")
    assert not describe_goal(p.state, 91).endswith("schneider)")


def test_choose_json_keeps_p91_in_skat(tmp_path):
    rec = tmp_path / "grand.toml"
    rec.write_text('game = "skat"\ncontract = "grand"\nplayers = ["Ann", "Bob", "Cal"]\ndeclarer = "Ann"\n'
                   f'[hands]\nAnn = "{GRAND_HAND}"\n')
    d = json.loads(run("choose", str(rec), "--seat", "Ann", "--worlds", "4", "--seed", "1", "--json"))
    assert all("p91" in r for r in d["contracts"] if r["contract"] != "pass")
