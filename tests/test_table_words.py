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
    res = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--html", out,
              *(["--cards", cards] if cards else []))
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
    res = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--view", "player", "--worlds", "10",
              "--seed", "1")
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


def _german(text: str) -> str:
    """A record's text with every card written as a Bavarian writes it (suit then rank), the trump by its German
    letter: the same record in German notation."""
    from sheepsolve.cards import Card, format_card

    out = []
    for line in text.splitlines():
        key = line.split("=")[0].strip()
        if key == "trump":
            line = re.sub(r'"([CSHD])"', lambda m: '"%s"' % {"C": "E", "S": "G", "H": "H", "D": "S"}[m.group(1)], line)
        elif key not in ("comment", "source", "game", "players", "declarer", "picker", "to_move", "difficulty"):
            line = re.sub(r"(?<![\w-])([ATKQJ987])([CSHD])(?!\w)",
                          lambda m: format_card(Card.parse(m.group(0)), "german"), line)
        out.append(line)
    return "\n".join(out) + "\n"


def test_a_german_puzzles_messages_name_the_file_and_german_cards(tmp_path: Path, run, assert_input_error) -> None:
    """``puzzle check``/``show`` on a German puzzle: an error in its [puzzle] table did not name the file (the
    command takes several) and named ASCII cards (``8S is given twice`` for Gras-8), a typo got the French hint,
    and the reasons a puzzle is unsound named ASCII cards (``wrong solution: 8S does not reach the goal``)."""
    text = _german((EXAMPLES / "puzzles" / "01-easy-geier.toml").read_text())
    assert 'solution = ["GK"]' in text and "\nG8 = [" in text
    good = tmp_path / "good.toml"
    good.write_text(text)
    assert run("puzzle", "check", good).exit_code == 0
    twice = tmp_path / "twice.toml"
    twice.write_text(text.replace("\nG8 = [", '\nG8 = ["E8"]\n"Gras-8" = ['))
    typo = tmp_path / "typo.toml"
    typo.write_text(text.replace('solution = ["GK"]', 'solution = ["GX"]'))
    for command in ("check", "show"):
        res = run("puzzle", command, *([good] if command == "show" else []), twice)
        assert_input_error(res, f"{twice}: puzzle.refutations.Gras-8: G8 is given twice")
        res = run("puzzle", command, typo)
        assert_input_error(res, f"{typo}: puzzle.solution: unknown card 'GX': write suit then rank")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace('solution = ["GK"]', 'solution = ["G8"]'))
    res = run("puzzle", "check", wrong)
    assert res.exit_code == 1
    assert "  - wrong solution: G8 does not reach the goal" in res.stdout
    assert "  - second solution: GK also reaches the goal" in res.stdout
    # a puzzle written in ASCII keeps ASCII in its reasons: the cards as its file writes them
    ascii_wrong = tmp_path / "ascii.toml"
    ascii_wrong.write_text((EXAMPLES / "puzzles" / "01-easy-geier.toml").read_text()
                           .replace('solution = ["KS"]', 'solution = ["8S"]'))
    assert "  - wrong solution: 8S does not reach the goal" in run("puzzle", "check", ascii_wrong).stdout


def test_explore_names_an_illegal_card_in_the_pages_cards() -> None:
    """explore's refusal of an illegal card on a German page read ``Vroni cannot play G10 (TS): revoke: TS does
    not follow suit C``: the reason is now in the page's cards, as the record reader's errors are."""
    from sheepsolve.explore.session import ExploreError, Explorer

    for style, said in ((None, "Vroni cannot play G10: revoke: G10 does not follow Eichel (E9 in hand)"),
                        ("french", "Vroni cannot play 10♠ (TS): revoke: TS does not follow suit C (9C in hand)")):
        ex = Explorer.open(EXAMPLES / "annotate-swing-sauspiel.toml", style=style)
        s = ex.state(ex.main[:1])
        revoke = next(c for c in s.hands[s.to_move] if c not in s.legal() and str(c) == "TS")
        with pytest.raises(ExploreError) as e:
            ex.state(ex.main[:1] + (revoke,))
        assert str(e.value) == f"trick 1, card 2: {said}"


def test_import_a_gras_solo_with_no_card_on_the_table(run) -> None:
    """``import openschafkopf --rules "gras-solo von 0"`` before the first card was refused (``trump: 'S' is
    Schellen in German cards and spades in French``): the importer wrote the trump as the letter S into a record
    with no card yet to decide it. Its messages named ASCII cards to a player who typed ``eo``."""
    from sheepsolve.record import parse_record

    res = run("import", "openschafkopf", "--rules", "gras-solo von 0", "--hand", "ea eo hu sz sa ga g9 g8")
    assert res.exit_code == 0, res.output
    rec = parse_record(res.stdout)
    assert rec.game.name == "solo" and rec.game.trump_suit == "S"  # Gras: spades in the canonical letters
    res = run("import", "openschafkopf", "--rules", "gras-solo von 0", "--hand", "ea eo hu sz sa ga g9 g8",
              "--suggest", "--worlds", "3")
    assert res.exit_code == 0 and res.stdout.startswith("Gras-Solo: 0 to move"), res.output
    res = run("import", "openschafkopf", "--rules", "rufspiel eichel von 1", "--hand", "eo hu sz sa ga g9 g8",
              "--cards-on-table", "ek e9 eo e8")
    assert res.exit_code == 2 and res.stderr == "error: --hand: EO also on the table (--cards-on-table)\n"
    res = run("import", "openschafkopf", "--rules", "rufspiel eichel von 0", "--hand", "ea eo hu sz sa ga g9 g8")
    assert res.exit_code == 2 and "called: EA: the declarer holds it himself" in res.stderr


def test_a_spades_solo_without_cards_reads_back() -> None:
    """dump_record wrote ``trump = "S"`` for a Gras-Solo whose record holds no card: read back, nothing said
    whether S was spades or Schellen, and it was refused. With no card it writes the word."""
    from sheepsolve.record import dump_record, parse_record, record_from_dict

    for trump, written in (("spades", 'trump = "spades"'), ("Schellen", 'trump = "D"'), ("G", 'trump = "spades"')):
        rec = record_from_dict({"game": "solo", "trump": trump, "declarer": "1"})
        text = dump_record(rec)
        assert written in text and parse_record(text) == rec
    with_cards = record_from_dict({"game": "solo", "trump": "spades", "declarer": "1", "play": ["QC"]})
    assert 'trump = "S"' in dump_record(with_cards)  # the ASCII cards say S is spades


@pytest.mark.parametrize("name", ["annotate-swing-sauspiel", "solo-acorns-finished"])
def test_annotate_view_player_fits_a_terminal_in_every_notation(tmp_path: Path, run, name: str) -> None:
    """``annotate --view player`` fitted 100 columns in ASCII cards only: in German (``H10 56``) and French
    (``10♥ 87``) cards, four legal cards a line and a swing noted 30 wide ran to 106 columns. Fewer cards go on a
    line where wider cards would not fit, and the note is wrapped to their column."""
    german = tmp_path / f"{name}.toml"
    german.write_text(_german((EXAMPLES / f"{name}.toml").read_text()))
    for path, cards in ((german, []), (german, ["--cards", "french"]), (EXAMPLES / f"{name}.toml", [])):
        res = run("annotate", path, "--view", "player", "--worlds", "10", "--jobs", "1", *cards)
        assert res.exit_code == 0, res.output
        lines = res.stdout.splitlines()
        assert max(map(len, lines)) <= 100, max(lines, key=len)
        assert "changes the result:" in res.stdout or name != "annotate-swing-sauspiel"


def test_suggest_names_the_sauspiel_by_its_call(tmp_path: Path, run) -> None:
    """``suggest`` titled a sauspiel ``Sauspiel (Rufspiel)`` (text and page) where show, solve and annotate say
    ``Sauspiel auf die Blaue``; the page's charts were titled with the card in ASCII (``after AS``)."""
    german = tmp_path / "sauspiel.toml"
    german.write_text(_german((EXAMPLES / "sauspiel-midtrick.toml").read_text()))
    page = tmp_path / "s.html"
    for path in (german, EXAMPLES / "sauspiel-midtrick.toml"):
        res = run("suggest", path, "--worlds", "8", "--jobs", "1", "--html", page)
        assert res.exit_code == 0, res.output
        assert res.stdout.startswith("Sauspiel auf die Blaue: Resi to move"), res.stdout[:100]
        html = page.read_text(encoding="utf-8")
        assert "<title>Sauspiel auf die Blaue: what to play" in html
        charts = re.findall(r"points over the worlds after (\S+?)[<\"]", html)
        assert charts and all(re.fullmatch(r"[EGHS](A|10|K|O|U|9|8|7)", c) for c in charts), charts
    res = run("suggest", EXAMPLES / "sauspiel-midtrick.toml", "--worlds", "8", "--jobs", "1", "--cards", "french")
    assert res.stdout.startswith("Sauspiel on A♠: Resi to move"), res.stdout[:100]


def test_the_season_report_names_each_form_as_show_does(tmp_path: Path, run) -> None:
    """The season report named a Schafkopf form by its JSON title (``Solo in clubs``, ``Farbwenz in spades``)
    where show, annotate and the booklet say ``Eichel-Solo`` and ``Gras-Wenz``: its text and page name each form
    in its own game's words; the JSON keeps the title."""
    import json

    out = tmp_path / "season.jsonl"
    records = [EXAMPLES / f"{n}.toml" for n in ("solo-acorns-finished", "farbwenz-leaves-finished",
                                                  "sheepshead-jd-finished")]
    assert run("batch", "annotate", "--no-bury", *records, "--out", out, "--jobs", "1").exit_code == 0
    text = run("report", out).stdout
    forms = text[text.index("Per game form"):]
    assert "Eichel-Solo" in forms and "Gras-Wenz" in forms and "Sheepshead (5-hand)" in forms
    assert "Solo in clubs" not in forms and "Farbwenz in spades" not in forms
    page = tmp_path / "season.html"
    assert run("report", out, "--html", page).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert html.count("Eichel-Solo") >= 2 and "Solo in clubs" not in html  # the table and the chart
    data = json.loads(run("report", out, "--json").stdout)
    assert {f["form"] for f in data["forms"]} == {"Solo in clubs", "Farbwenz in spades", "Sheepshead (5-hand)"}
