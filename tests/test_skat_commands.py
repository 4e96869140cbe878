"""Every command on Skat (grand, a suit game, null, null ouvert) and on Schafkopf's Bettel (+ ouvert), run as a
user runs them on the examples and on positions cut from them.

- Null and Bettel turn the objective round: the declarer wants no trick, his defenders want him to take one. Every
  reading of a value (solve's text, suggest's best cards, annotate's costs and the bury's judgement, the
  player's view) must follow the objective's direction, not the side.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers_cli import EXAMPLES, run

from sheepsolve.objective import Objective
from sheepsolve.player.suggest import suggest_record
from sheepsolve.record import load_record

SKAT_EXAMPLES = ["skat-grand-finished", "skat-hearts-finished", "skat-null-finished"]
ALL_EXAMPLES = SKAT_EXAMPLES + ["bettel-finished"]


def cut(tmp_path: Path, name: str, cards: int, *, game: str | None = None) -> Path:
    """The example ``name`` with its play cut to the first ``cards`` cards (``game``: another game name), written
    to ``tmp_path``."""
    text = (EXAMPLES / f"{name}.toml").read_text()
    m = re.search(r"^play = \[\n(.*?)^\]\n", text, re.S | re.M)
    assert m is not None
    played = " ".join(line.strip().strip('",') for line in m.group(1).splitlines()).split()
    seats = len(load_record(EXAMPLES / f"{name}.toml").players)
    keep = played[:cards]
    tricks = [" ".join(keep[i:i + seats]) for i in range(0, len(keep), seats)]
    body = ("play = [\n" + "".join(f'  "{t}",\n' for t in tricks) + "]\n") if tricks else ""
    text = text[:m.start()] + body + text[m.end():]
    if game is not None:
        text, n = re.subn(r'^game = "[^"]*"', f'game = "{game}"', text, flags=re.M)
        assert n == 1
    path = tmp_path / f"{name}-{cards}{'-' + game if game else ''}.toml"
    path.write_text(text)
    return path


# --------------------------------------------------------------------------------------------------------------
# solve


@pytest.mark.parametrize("name", ALL_EXAMPLES)
def test_solve_from_the_first_lead(tmp_path, name):
    path = cut(tmp_path, name, 0)
    r = run("solve", path, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    rec = load_record(path)
    final = load_record(EXAMPLES / f"{name}.toml")
    # the examples are played double-dummy best: the value from the first lead is the played result
    obj = Objective.for_setup(final.state().setup)
    assert d["value"] == obj.final_value(final.state())
    assert d["objective"] == ("tricks" if rec.game.no_trick else "points")
    assert len(d["line"]) == rec.game.seats * rec.game.hand_size


def test_solve_text_in_null_the_declarer_wants_no_trick(tmp_path):
    path = cut(tmp_path, "skat-null-finished", 0)  # Ann, the declarer, leads
    out = run("solve", path, "--no-line").output
    assert "takes 0 of the 10 tricks with best play from here (the game won)" in out
    assert "Ann wants them low" in out and "Ann wants them high" not in out
    d = json.loads(run("solve", path, "--json").output)
    assert d["best"] and all(d["cards"][c] == min(d["cards"].values()) == 0 for c in d["best"])
    # a defender to move wants the declarer's tricks high
    out = run("solve", cut(tmp_path, "bettel-finished", 0), "--no-line").output
    assert "Sepp (defender) to move" in out and "Sepp wants them high" in out


# --------------------------------------------------------------------------------------------------------------
# suggest


def test_suggest_null_declarer_avoids_tricks(tmp_path):
    rec = load_record(cut(tmp_path, "skat-null-finished", 0))
    v = suggest_record(rec, worlds=40, seed=1)
    assert v.declaring and not v.maximize  # the declarer, who wants the value low
    d = v.to_dict()
    assert d["side"] == "declaring" and "takes a trick" in d["scale"]
    for c, cv in d["cards"].items():
        assert 0 <= cv["mean"] <= 1 and cv["p61"] is None and cv["p91"] is None
        assert cv["p_no_trick"] == pytest.approx(1 - cv["mean"], abs=1e-3)
    best_mean = min(cv["mean"] for cv in d["cards"].values())
    assert d["cards"][d["best"][0]]["mean"] == best_mean
    # the aces take a trick in every world where a low card of their suit is led back to them... whatever the
    # world, a card the declarer surely wins with (the ace of clubs led) is never among the best
    assert "AC" not in d["best"]
    out = run("suggest", cut(tmp_path, "skat-null-finished", 0), "--worlds", 20, "--jobs", 1).output
    assert "P(no trick)" in out and "P(61+)" not in out and "(declaring side)" in out


def test_suggest_bettel_defender_wants_a_trick(tmp_path):
    path = cut(tmp_path, "bettel-finished", 9)
    v = suggest_record(load_record(path), worlds=30, seed=2)
    assert not v.declaring and v.maximize
    assert v.to_dict()["side"] == "defending"
    top = max(cv.mean for cv in v.cards.values())
    assert v.cards[v.top].mean == top


def test_suggest_at_on_skat(tmp_path):
    r = run("suggest", EXAMPLES / "skat-grand-finished.toml", "--at", "2", "--worlds", 20, "--jobs", 1, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["seat"] == "Bob" and d["played"] == "TH" and d["side"] == "declaring"
    assert set(d["cards"]) == {"9C", "8C", "AS", "8S", "TH", "KH", "QH", "AD", "7D"}


# --------------------------------------------------------------------------------------------------------------
# annotate


@pytest.mark.parametrize("name", ALL_EXAMPLES)
def test_annotate_examples(name):
    r = run("annotate", EXAMPLES / f"{name}.toml", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    # every card of the examples is double-dummy best
    assert all(x["cost"] == 0 for x in d["decisions"]), [x for x in d["decisions"] if x["cost"]]


def test_annotate_null_bury_judged_for_the_declarer_who_wants_no_trick():
    r = run("annotate", EXAMPLES / "skat-null-finished.toml", "--json")
    b = json.loads(r.output)["bury"]
    assert b["value"] == 0 and b["cost"] == 0 and b["swing"] is None
    assert b["best_value"] == min(o["value"] for o in b["options"]) == 0
    out = run("annotate", EXAMPLES / "skat-null-finished.toml").output
    assert "Values: the declarer's tricks" in out and "nothing better among 66 compared" in out


def test_annotate_view_player_null(tmp_path):
    r = run("annotate", EXAMPLES / "skat-null-finished.toml", "--view", "player", "--worlds", 12, "--jobs", 1,
            "--no-bury", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    for x in d["decisions"]:
        v = x.get("view")
        if not v:
            continue
        assert all(0 <= m <= 1 for m in v["values"].values())
        pick = min if x["player"] == "Ann" else max  # the declarer wants no trick
        top = pick(v["values"], key=lambda c: (v["values"][c], c))
        assert top in v["best"], (x["player"], v)
