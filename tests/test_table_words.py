"""Issue 34, what a new user still tripped over after the first round: records and options in the table's own words.

A suit letter that means two suits is refused where nothing decides it, a contract has one name everywhere, and a
German record's messages name German cards, wherever they are made.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers_cli import EXAMPLES


def test_puzzle_generate_refuses_a_trump_s_that_nothing_decides(tmp_path: Path, run, assert_input_error) -> None:
    """``--trump S`` was read as spades without a word, though a Bavarian means Schellen: no card decides it on
    the command line, so it is refused asking for the word; the word, or any other letter, is taken."""
    for letter in ("S", "s"):
        res = run("puzzle", "generate", "--game", "solo", "--trump", letter, "--cards-left", "4", "--count", "1",
                  "--out", tmp_path / "x")
        assert_input_error(res, "--trump", "Schellen", "spades")
        assert not (tmp_path / "x").exists()
    found = {}
    for word in ("Schellen", "spades", "Gras", "E"):
        res = run("puzzle", "generate", "--game", "solo", "--trump", word, "--cards-left", "4", "--count", "1",
                  "--seed", "1", "--out", tmp_path / word)
        assert res.exit_code == 0, res.output
        (path,) = (tmp_path / word).iterdir()
        found[word] = path.read_text()
    assert 'trump = "D"' in found["Schellen"] and 'trump = "C"' in found["E"]
    assert found["spades"] == found["Gras"] and 'trump = "S"' in found["spades"]
    # the command written into the puzzle runs again as it is: spades by its word
    source = re.search(r'source = "sheepsolve (.*); deal', found["spades"]).group(1)
    assert "--trump spades" in source
    assert run(*source.split(), "--count", "1", "--out", tmp_path / "again").exit_code == 0
    assert [p.read_text() for p in (tmp_path / "again").iterdir()] == [found["spades"]]


def _page_text(html: str) -> str:
    """A page's words as a reader sees them (no styles, scripts or tags)."""
    import html as html_module

    text = re.sub(r"<style.*?</style>|<script.*?</script>", "", html, flags=re.S)
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)))


@pytest.mark.parametrize("cards", [None, "french"])
def test_annotate_page_names_a_sauspiel_call_as_its_contract(tmp_path: Path, run, cards: str | None) -> None:
    """The annotate page's table of calls said ``call A`` (a card face) for a sauspiel's call, where the text and
    the title say ``Sauspiel auf die Alte``; the chart's tooltip named the card in ASCII (``SO`` is the Schellen-Ober
    on a German page, ``QD``)."""
    out = tmp_path / "a.html"
    res = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--html", out, *(["--cards", cards] if cards else []))
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    text = _page_text(page)
    chosen, other = (("Sauspiel auf die Alte", "Sauspiel auf die Hundsgfickte") if cards is None else
                     ("Sauspiel on A♣", "Sauspiel on A♦"))
    section = text[text.index("The call"):text.index("Every trick")]
    assert f"Sepp chose {chosen} worth 68" in section and other in section
    assert not re.search(r"\bcall\b(?! Sepp)", section.replace("The call", "").replace("the calls", ""))
    tooltips = re.findall(r"<title>trick (\d+): (\w+) (\S+), cost (\d+)</title>", page)
    assert tooltips == [("3", "Sepp", "SO" if cards is None else "Q♦", "9")]


def test_annotate_player_view_names_the_best_calls_as_contracts(run) -> None:
    """``annotate --view player`` on a sauspiel: the call judged from the declarer's view listed the best in
    expectation as ``call EA; call SA``; now as contracts, as the line above it does."""
    res = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--view", "player", "--worlds", "10", "--seed", "1")
    assert res.exit_code == 0, res.output
    line = res.stdout[res.stdout.index("player's view (10 worlds)"):].split("\n\n")[0]
    best = " ".join(line.split()).split("best in expectation: ")[1]
    assert best.startswith("Sauspiel auf die ") and "call" not in best


def test_explore_page_title_names_the_contract(tmp_path: Path) -> None:
    """The explore page's title was the game's JSON title (``Sauspiel (Rufspiel)``, ``Solo in spades``) on a page
    in German cards; now the contract as every other page names it."""
    from sheepsolve.explore.app import Settings, page_html
    from sheepsolve.explore.session import Explorer

    titles = {}
    for name in ("annotate-swing-sauspiel", "farbwenz-leaves-finished"):
        page = page_html(Explorer.open(EXAMPLES / f"{name}.toml"), Settings(), "tok")
        titles[name] = re.search(r"<title>(.*?)</title>", page).group(1)
    assert titles == {"annotate-swing-sauspiel": "Explore: Sauspiel auf die Alte",
                      "farbwenz-leaves-finished": "Explore: Gras-Wenz"}
