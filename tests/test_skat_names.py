"""Skat's German names where words are shown (issue 37): Kreuz, Pik, Herz, Karo; Bube, Dame, König, Ass; the
contracts ("Kreuz-Spiel", "Grand", "Null ouvert") named by the one function, contracts.contract_name."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sheepsolve.cards import Card, card_name, suit_name
from sheepsolve.contracts import contract_name, game_title
from sheepsolve.games import make_game


@pytest.mark.parametrize("kw,want", [
    ({"name": "grand"}, "Grand"),
    ({"name": "skat", "trump": "C"}, "Kreuz-Spiel"),
    ({"name": "skat", "trump": "S"}, "Pik-Spiel"),
    ({"name": "skat", "trump": "H"}, "Herz-Spiel"),
    ({"name": "skat", "trump": "D"}, "Karo-Spiel"),
    ({"name": "null"}, "Null"),
    ({"name": "null", "hand": True}, "Null Hand"),
    ({"name": "null", "ouvert": True}, "Null ouvert"),
    ({"name": "null", "ouvert": True, "hand": True}, "Null ouvert Hand"),
    ({"name": "grand", "ouvert": True}, "Grand ouvert"),
    ({"name": "skat", "trump": "C", "ouvert": True}, "Kreuz-Spiel ouvert"),
    ({"name": "grand", "hand": True}, "Grand Hand"),
    ({"name": "skat", "trump": "D", "hand": True, "schneider_announced": True}, "Karo-Spiel Hand, Schneider angesagt"),
    ({"name": "grand", "hand": True, "schwarz_announced": True}, "Grand Hand, Schwarz angesagt"),
])
def test_every_skat_contract_has_its_german_name(kw, want):
    g = make_game(**kw)
    assert g.title == want
    for style in ("ascii", "symbols", "color"):
        assert game_title(g, style) == want
    assert contract_name(g.name, "ascii", trump=g.trump_suit, ouvert=g.ouvert, hand=g.hand,
                         schneider_announced=g.schneider_announced, schwarz_announced=g.schwarz_announced) == want


def test_bavarian_faces_name_the_suit_as_on_them():
    assert game_title(make_game("skat", trump="S"), "german") == "Gras-Spiel"
    assert game_title(make_game("grand"), "german") == "Grand"


def test_skat_cards_in_words():
    names = [card_name(Card.parse(c), "symbols", "skat") for c in ("JC", "QS", "KH", "AD", "TC", "9S", "8H", "7D")]
    assert names == ["Kreuz-Bube", "Pik-Dame", "Herz-König", "Karo-Ass", "Kreuz-Zehn", "Pik-Neun", "Herz-Acht",
                     "Karo-Sieben"]
    assert [suit_name(s, "ascii", "skat") for s in "CSHD"] == ["Kreuz", "Pik", "Herz", "Karo"]
    # other games keep their words
    assert card_name(Card.parse("JC"), "symbols") == "jack of clubs"
    assert card_name(Card.parse("JC"), "german", "skat") == "Eichel-Unter"


def test_show_and_annotate_use_them(tmp_path):
    run = subprocess.run([sys.executable, "-m", "sheepsolve", "show", "examples/skat-hearts-finished.toml"],
                         capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[0] == "Herz-Spiel"
    page = tmp_path / "a.html"
    subprocess.run([sys.executable, "-m", "sheepsolve", "annotate", "examples/skat-grand-finished.toml", "--html",
                    str(page)], capture_output=True, text=True, check=True)
    html = page.read_text()
    assert "<title>Grand — annotated" in html and "Kreuz-Bube" in html and "jack of clubs" not in html


def test_show_names_the_skat_the_discard_and_the_game():
    from sheepsolve.record import load_record, record_from_dict
    from sheepsolve.render import render
    rec = load_record("examples/skat-grand-finished.toml")
    text = render(rec, "ascii").splitlines()
    assert "Skat:    8S KH  (4 points)" in text and "Discard: AH KD  (15 points for Bob)" in text
    assert "Game:    Bob plays Grand" in text and not any(line.startswith(("Blind", "Bury")) for line in text)
    assert "picker" not in "\n".join(text)
    d = rec.to_dict()
    del d["discard"]
    d.update(hand=True, schneider_announced=True, bid=72, play=d["play"][:1])
    d["hands"] = {p: h for p, h in d["hands"].items()}
    hand = record_from_dict(d)
    text = render(hand, "ascii").splitlines()
    assert "Skat:    8S KH  (4 points) — a hand game: it counts for Bob" in text
    assert "Game:    Bob plays Grand Hand, Schneider angesagt, bid 72" in text
    assert not any(line.startswith("Discard") for line in text)
