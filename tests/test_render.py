"""What people read: every text output in each card notation, every HTML report escaped and self-contained."""

from __future__ import annotations

import re

import pytest

from helpers_hostile import HOSTILE, assert_escaped, hostile_copy

from helpers_cli import EXAMPLES

PUZZLE = EXAMPLES / "puzzles" / "05-easy-sauspiel.toml"
FRENCH = set("♣♠♥♦")
GERMAN_WORDS = ("Eichel", "Schellen", "Gras-", "Herz-", "die Blaue", "die Alte")


def assert_one_notation(out: str, notation: str) -> None:
    """Text in one notation only: no suit symbols outside French, no German suit names outside German, no
    canonical two-letter card (QC, TS) in German or French text."""
    if notation != "french":
        assert not FRENCH & set(out), out
    if notation != "german":
        assert not any(w in out for w in GERMAN_WORDS), out


def assert_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for bad in ("http://", "https://", "<link", "@import"):
        assert bad not in page, bad
    assert not re.search(r"<[a-z]+[^<>]*\s(src|href)=(?![\"']?#)", page)  # only in-page references (#su-C)


# -- annotate ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("notation", ["german", "french", "ascii"])
def test_annotate_text_in_each_notation(notation, run):
    r = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--cards", notation)
    assert r.exit_code == 0, r.output
    assert_one_notation(r.output, notation)
    played = {"german": "HO", "french": "Q♥", "ascii": "QH"}[notation]
    assert played in r.output


def test_annotate_html_escapes_hostile_names_and_honours_min_cost(tmp_path, run):
    path = hostile_copy(EXAMPLES / "annotate-swing-sauspiel.toml", tmp_path)
    out = tmp_path / "a.html"
    r = run("annotate", path, "--html", out, "--min-cost", "50")
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert_escaped(page)
    assert "&lt;script&gt;" in page
    # --min-cost 50: the result-changing error stays flagged; no smaller one is
    flagged = re.findall(r'class="play( e[12])', page)
    assert flagged and all(f == " e2" for f in flagged)
    full = tmp_path / "b.html"
    assert run("annotate", path, "--html", full).exit_code == 0
    assert "cost 50 points or more" in page and "points or more" not in full.read_text(encoding="utf-8")


def test_annotate_chart_marks_61_and_91_with_labelled_axes(tmp_path, run):
    out = tmp_path / "a.html"
    assert run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--html", out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    svg = page[page.index('<svg class="chart"'):]
    svg = svg[:svg.index("</svg>")]
    assert 'class="rule61"' in svg and 'class="rule91"' in svg
    assert ">61</text>" in svg and ">91</text>" in svg and ">60</text>" not in svg
    assert "card points of the declaring side</text>" in svg and ">trick</text>" in svg


# -- puzzles -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("notation", ["german", "french", "ascii"])
def test_puzzle_text_in_each_notation(notation, run):
    r = run("puzzle", "show", PUZZLE, "--reveal", "--cards", notation)
    assert r.exit_code == 0, r.output
    assert_one_notation(r.output, notation)
    assert {"german": "Trumps: EO GO HO SO", "french": "Trumps: Q♣ Q♠ Q♥ Q♦",
            "ascii": "Trumps: QC QS QH QD"}[notation] in r.output


def test_puzzle_booklet_and_hostile_names(tmp_path, run):
    path = hostile_copy(PUZZLE, tmp_path)
    out = tmp_path / "book.html"
    r = run("puzzle", "show", path, EXAMPLES / "puzzles" / "03-easy-wenz.toml", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert_escaped(page)
    assert page.count('<section class="puzzle"') == 2 and 'id="score">0 of 2<' in page
    text = run("puzzle", "show", PUZZLE, EXAMPLES / "puzzles" / "03-easy-wenz.toml")
    assert "Puzzle 1 of 2" in text.output and "Puzzle 2 of 2" in text.output


# -- show --------------------------------------------------------------------------------------------------------


def test_show_names_contracts_as_players_say_them(run):
    r = run("show", EXAMPLES / "solo-acorns-finished.toml")
    assert "Eichel-Solo" in r.output and "(C)" not in r.output
    r = run("show", EXAMPLES / "sauspiel-finished.toml")
    assert "Sauspiel auf die Alte" in r.output
    r = run("show", EXAMPLES / "sauspiel-finished.toml", "--cards", "ascii")
    assert "Sauspiel on AC" in r.output


# -- bury, pick, choose --------------------------------------------------------------------------------------------

CHOICES = [
    ("bury", EXAMPLES / "bury-called-ace-full.toml", []),
    ("bury", EXAMPLES / "bury-jd-full.toml", ["--view", "picker", "--worlds", "4"]),
    ("pick", EXAMPLES / "bury-jd-picker-only.toml", ["--worlds", "4"]),
    ("choose", EXAMPLES / "bury-choose-sauspiel-hand.toml", ["--worlds", "4"]),
]


@pytest.mark.parametrize("notation", ["german", "french", "ascii"])
@pytest.mark.parametrize("command, path, extra", CHOICES, ids=[c[0] + "-" + c[1].stem for c in CHOICES])
def test_choices_text_in_each_notation(command, path, extra, notation, run):
    r = run(command, path, *extra, "--jobs", "1", "--cards", notation)
    assert r.exit_code == 0, r.output
    assert_one_notation(r.output, notation)
    if notation != "ascii":  # no canonical card names left in German or French text ("call AH", "/ AS")
        assert not re.search(r"\b[ATKQJ2-9][CSHD]\b", r.output), r.output


@pytest.mark.parametrize("command, path, extra", CHOICES, ids=[c[0] + "-" + c[1].stem for c in CHOICES])
def test_choices_html_escaped_self_contained_with_charts(command, path, extra, tmp_path, run):
    hostile = hostile_copy(path, tmp_path)
    out = tmp_path / "report.html"
    args = list(extra)  # the records name the picker or declarer: renamed with the rest
    r = run(command, hostile, *args, "--jobs", "1", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert_escaped(page)
    if "--worlds" in extra or command != "bury":
        assert '<svg class="chart"' in page and "card points of the declaring side</text>" in page
        assert 'class="rule61"' in page and 'class="rule91"' in page
    # the JSON is unchanged by the report (canonical ASCII, same keys)
    js = run(command, path, *extra, "--jobs", "1", "--json")
    assert js.exit_code == 0 and "♣" not in js.output and "Eichel" not in js.output


def test_choose_folds_hopeless_touts_and_explains_a_missing_sauspiel(tmp_path, run):
    r = run("choose", EXAMPLES / "bury-choose-sauspiel-hand.toml", "--worlds", "4", "--jobs", "1")
    lines = r.output.splitlines()
    assert sum("Tout" in line for line in lines) == 1  # every tout never won: one line
    assert re.search(r"\d+ tout contracts won in none of the 4 worlds", r.output)
    assert "Gras-Solo" in r.output and "Sauspiel auf die" in r.output and "no sauspiel" not in r.output
    # a hand holding every Sau it could call can play no sauspiel, and the text says why
    rec = (EXAMPLES / "bury-choose-sauspiel-hand.toml").read_text(encoding="utf-8")
    import tomllib

    d = tomllib.loads(rec)
    seat = d.get("declarer") or d["players"][0]
    d.pop("called", None)  # the record's own call would be refused: this hand can call none
    d["hands"][seat] = "EO GO HO EU EA GA SA HK"
    d.pop("called", None)  # the example's call (AS) is the declarer's own Sau now: the record would be refused
    others = [p for p in d["hands"] if p != seat]
    rest = [c for c in ("EZ EK E9 E8 E7 GZ GK G9 G8 G7 HA HZ H9 H8 H7 SZ SK S9 S8 S7 SO GU HU SU").split()]
    for i, p in enumerate(others):
        d["hands"][p] = " ".join(rest[8 * i: 8 * i + 8])
    lines_toml = [f"{k} = {json_value(v)}" for k, v in d.items() if not isinstance(v, dict)]
    lines_toml += ["[hands]"] + [f"{k} = {json_value(v)}" for k, v in d["hands"].items()]
    path = tmp_path / "no-sau.toml"
    path.write_text("\n".join(lines_toml) + "\n", encoding="utf-8")
    r = run("choose", path, "--german", "--worlds", "2", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "no sauspiel: " in r.output and "holds the Eichel-Sau and the Gras-Sau and the Schellen-Sau himself" \
        in r.output
    assert "Sauspiel auf" not in r.output


def json_value(v):
    import json

    return json.dumps(v, ensure_ascii=False)


# -- suggest -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("notation", ["german", "french", "ascii"])
def test_suggest_text_in_each_notation(notation, run):
    r = run("suggest", EXAMPLES / "sauspiel-midtrick.toml", "--worlds", "4", "--jobs", "1", "--cards", notation)
    assert r.exit_code == 0, r.output
    assert_one_notation(r.output, notation)
    assert {"german": "best: ", "french": "best: ", "ascii": "best: "}[notation] in r.output


def test_suggest_html_escaped_with_charts(tmp_path, run):
    path = hostile_copy(EXAMPLES / "sauspiel-midtrick.toml", tmp_path)
    out = tmp_path / "s.html"
    r = run("suggest", path, "--worlds", "4", "--jobs", "1", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert_escaped(page)
    assert '<svg class="chart"' in page and 'class="rule61"' in page


# -- solve -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("notation", ["german", "french", "ascii"])
@pytest.mark.parametrize("name, extra", [("solo-hearts-midtrick", []), ("sheepshead-jd-midtrick", []),
                                         ("leaster-4-midtrick", ["--seat", "Ann"])])
def test_solve_text_in_each_notation(name, extra, notation, run):
    import json

    path = EXAMPLES / f"{name}.toml"
    r = run("solve", path, *extra, "--cards", notation)
    assert r.exit_code == 0, r.output
    assert_one_notation(r.output, notation)
    res = json.loads(run("solve", path, *extra, "--json").output)
    from sheepsolve.cards import Card, card_style, format_card
    from sheepsolve.record import load_record

    style = card_style(notation, load_record(path).game.family)
    # every legal card with its value, and the best line trick by trick with the players' names
    for c, v in res["cards"].items():
        assert re.search(rf"^\s+{re.escape(format_card(Card.parse(c), style))}\s+{v}\b", r.output, re.M)
    assert "Best line:" in r.output
    first = format_card(Card.parse(res["line"][0]), style)
    assert re.search(rf"trick \d+: .*{res['to_move']} {re.escape(first)}", r.output)


def test_solve_names_the_declaring_side_and_whose_values(run):
    r = run("solve", EXAMPLES / "solo-hearts-midtrick.toml")
    assert "Declaring side: Sepp (declarer) alone; defenders: Vroni, Hias, Resi" in r.output
    assert "Hias (defender) to move" in r.output and "Hias wants them low" in r.output
    assert "in the declaring side's final card points" in r.output


def test_solve_tricks_and_questions_read_as_sentences(run):
    path = EXAMPLES / "sauspiel-midtrick.toml"
    r = run("solve", path, "--tricks")
    assert "None" not in r.output and re.search(r"takes \d of the 8 tricks", r.output)
    assert "reach every trick" not in run("solve", path, "--all-tricks").output
    assert "Can the declaring side take every trick? " in run("solve", path, "--all-tricks").output
    assert "Does the declaring side reach 61 card points? yes" in run("solve", path, "--target", "61").output
    assert "reach 6 tricks?" in run("solve", path, "--target", "6", "--tricks").output


def test_solve_seat_on_a_two_sided_game_shows_that_side(run):
    import json

    path = EXAMPLES / "sheepshead-jd-midtrick.toml"
    plain = json.loads(run("solve", path, "--json").output)
    for seat, side in (("Ann", "declaring"), ("Bob", "defending")):
        res = json.loads(run("solve", path, "--json", "--seat", seat).output)
        # the existing keys keep their meaning; which side and that side's points are added
        assert {k: res[k] for k in plain if k not in ("seat", "nodes", "seconds")} == \
            {k: plain[k] for k in plain if k not in ("seat", "nodes", "seconds")}
        assert res["seat_side"] == side
        assert res["seat_value"] == (plain["value"] if side == "declaring" else 120 - plain["value"])
        text = run("solve", path, "--seat", seat).output
        assert f"{seat} plays for the {'declaring side' if side == 'declaring' else 'defenders'}" in text
        assert f"with {res['seat_value']} card points" in text
    bob = run("solve", path, "--seat", "Bob").output
    assert "in the defenders' final card points" in bob
    assert "(Bob plays on the defending side.)" in run("solve", path, "--seat", "Bob", "--all-tricks").output


# -- games, puzzle check -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("notation", [None, "german", "french", "ascii"])
def test_games_and_puzzle_check_in_each_notation(notation, run):
    flag = ["--cards", notation] if notation else []
    out = run("games", *flag).output
    lines = out.splitlines()
    sauspiel = lines[next(i for i, line in enumerate(lines) if line.startswith("sauspiel")) + 2]
    sheepshead = lines[next(i for i, line in enumerate(lines) if line.startswith("sheepshead ")) + 2]
    # each game in its family's notation by default, or in the one asked for
    want = {None: ("EO GO", "Q♣ Q♠"), "german": ("EO GO", "EO GO"), "french": ("Q♣ Q♠", "Q♣ Q♠"),
            "ascii": ("QC QS", "QC QS")}[notation]
    assert want[0] in sauspiel and want[1] in sheepshead
    r = run("puzzle", "check", PUZZLE, *flag)
    assert r.exit_code == 0
    assert {None: "plays HU", "german": "plays HU", "french": "plays J♥", "ascii": "plays JH"}[notation] in r.output


def test_a_vague_max_goal_is_shown_with_its_concrete_target(run):
    from sheepsolve.puzzle import concrete_goal, puzzle_from_record
    from sheepsolve.puzzle.goals import goal_target
    from sheepsolve.record import load_record
    from sheepsolve.solver import Solver

    path = EXAMPLES / "puzzles" / "01-easy-geier.toml"
    p = puzzle_from_record(load_record(path))
    assert p.goal == "max"
    t = concrete_goal(p.state, p.goal)
    values = Solver().card_values(p.state)
    assert t == goal_target(p.state, "max", values).threshold
    out = run("puzzle", "show", path).output
    assert f"below {t} card points" in out or f"reach {t} card points" in out
    assert "the most card points" not in out and "the fewest card points" not in out


def test_lines_start_with_the_cards_already_on_the_table(run):
    from sheepsolve.puzzle import puzzle_from_record
    from sheepsolve.record import load_record

    p = puzzle_from_record(load_record(PUZZLE))
    state = p.state
    assert state.trick  # the puzzle's trick has begun
    leader = p.record.players[state.leader]
    from sheepsolve.cards import format_card

    first = f"{len(state.tricks) + 1}. {leader} {format_card(state.trick[0], 'ascii')}"
    out = run("puzzle", "show", PUZZLE, "--reveal", "--cards", "ascii").output
    assert f"    {first}" in out
    r = run("solve", EXAMPLES / "solo-hearts-midtrick.toml", "--cards", "ascii").output
    rec = load_record(EXAMPLES / "solo-hearts-midtrick.toml")
    st = rec.state()
    assert f"trick {len(st.tricks) + 1}: {rec.players[st.leader]} {st.trick[0]}" in r


# -- the other reports on the same templates: annotate --view player, the season report -----------------------


def test_annotate_player_view_and_season_report_escape_hostile_names(tmp_path, run):
    path = hostile_copy(EXAMPLES / "annotate-swing-sauspiel.toml", tmp_path)
    out = tmp_path / "view.html"
    r = run("annotate", path, "--no-bury", "--view", "player", "--worlds", "4", "--jobs", "1", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert_escaped(page)
    jsonl = tmp_path / "season.jsonl"
    r = run("batch", "annotate", "--no-bury", path, "--out", jsonl, "--jobs", "1", "--no-progress")
    assert r.exit_code == 0, r.output
    report = tmp_path / "season.html"
    r = run("report", jsonl, "--html", report)
    assert r.exit_code == 0, r.output
    page = report.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert_escaped(page)


@pytest.mark.parametrize("name, german, french", [
    ("annotate-decided-solo", "Eichel-Solo", "Solo in clubs"),
    ("farbwenz-leaves-finished", "Gras-Wenz", "Farbwenz in spades"),
    ("farbgeier-bells-finished", "Schellen-Geier", "Farbgeier in diamonds"),
    ("annotate-swing-sauspiel", "Sauspiel auf die Alte", "Sauspiel on A♣"),
])
def test_one_name_for_each_contract_in_every_text_and_page(tmp_path, name: str, german: str, french: str,
                                                          run) -> None:
    """Issue 34: show said "Gras-Solo" while annotate's text and page said "Solo (Farbsolo) (S)" (S read as
    Schellen), "called GA" and "best: call EA", and the report and booklet "Solo (Farbsolo) (C)": every text and
    page now names the contract with one function (sheepsolve.contracts.game_title)."""
    path = EXAMPLES / f"{name}.toml"
    for notation, title in (("german", german), ("french", french)):
        for args in (["show"], ["annotate", "--no-bury"], ["annotate"], ["solve"]):
            r = run(*args, path, "--cards", notation)
            assert r.exit_code == 0, r.output
            assert r.output.startswith(title), (args, r.output[:200])
            assert not re.search(r"\((?:C|S|H|D)\)|Farbsolo\)|called [EGHS][AKOU]|call [EGHS][AKOU]", r.output), \
                r.output[:300]
        page = tmp_path / "a.html"
        assert run("annotate", path, "--cards", notation, "--html", page).exit_code == 0
        assert f"<title>{title}" in page.read_text(encoding="utf-8").replace("&#39;", "'")
    out = tmp_path / "season.jsonl"
    assert run("batch", "annotate", "--no-bury", path, "--out", out, "--jobs", "1").exit_code == 0
    r = run("report", out)
    assert french.replace("A♣", "AC") in r.output or german in r.output or "Sauspiel (Rufspiel)" in r.output, r.output
    assert "Farbsolo) (" not in r.output


def test_suggest_page_shows_the_position_and_the_verdict(tmp_path, run) -> None:
    """Issue 34: the suggest page showed the hand as dealt (cards already played included), no cards on the
    table, no tricks so far; with --at it left out the decision judged and the verdict on the card played."""
    out = tmp_path / "s.html"
    r = run("suggest", EXAMPLES / "sauspiel-play-only.toml", "--at", "2.2", "--worlds", "4", "--jobs", "1",
            "--cards", "ascii", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "Hias to play: trick 2, card 2" in page
    assert "Tricks so far (1)" in page and "On the table:" in page
    played = re.search(r"played: (\S+) \(([^)]*)\)", r.output)  # the text's verdict, the same on the page
    assert played and f", {played.group(2)}." in page and "Played:" in page
    hand = page.split("s hand</h3>", 1)[1].split("</div>", 1)[0]
    assert 'data-card="KC"' not in hand and 'data-card="QC"' in hand  # KC played in trick 1; QC is the choice
