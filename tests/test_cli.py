"""The command line through click's CliRunner: ``show`` on every bundled example (text and JSON, the JSON checked
against the cards themselves), ``games``, ``solve --json`` on small positions, and bad input of every kind (exit
status 2, one ``error:`` line, never a traceback): numeric options with their caps, click's own usage errors."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import helpers_cli
from helpers_cli import EXAMPLES, ROOT, with_lines

from sheepsolve.cards import POINTS, Card
from sheepsolve.games import REGISTRY
from sheepsolve.record import Record, dump_record, load_record, record_from_dict
from sheepsolve.render import hand_view, render

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.toml"))
IDS = [p.stem for p in EXAMPLE_FILES]


def show_json(path: Path | str) -> dict[str, Any]:
    r = helpers_cli.run("show", "--json", path)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def points(cards: Sequence[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


# --------------------------------------------------------------------------------------------------------------
# The examples themselves


def test_there_is_an_example_of_every_game() -> None:
    recs = [load_record(p) for p in EXAMPLE_FILES]
    names = {r.game.name for r in recs}
    assert set(REGISTRY) <= names
    assert any(r.game.partner == "called-ace" and r.under is not None for r in recs)
    assert any(r.game.partner == "called-ace" and r.under is None and r.called is not None for r in recs)
    assert any(r.game.partner == "jack-of-diamonds" for r in recs)
    assert any(r.game.partner == "alone" and r.game.name == "sheepshead" for r in recs)
    assert any(r.game.tout for r in recs)
    assert any(len(r.game.deck) == 24 and r.game.seats == 4 for r in recs)
    assert any(r.game.family == "schafkopf" and r.game.seats == 3 for r in recs)
    assert any(r.game.rules.get("preset") == "gametwist" for r in recs)
    assert any(not r.complete for r in recs)
    finished = [r for r in recs if r.play and len(r.play) == r.game.tricks and len(r.play[-1]) == r.game.seats]
    midtrick = [r for r in recs if r.play and len(r.play[-1]) < r.game.seats]
    assert len(finished) >= 15 and len(midtrick) >= 6


def test_examples_readme_lists_every_example() -> None:
    text = (ROOT / "examples" / "README.md").read_text(encoding="utf-8")
    for p in EXAMPLE_FILES:
        assert p.name in text, p.name


# --------------------------------------------------------------------------------------------------------------
# show


@pytest.mark.parametrize("notation", [None, "german", "french", "ascii"])
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_show_text(path: Path, notation: str | None, run) -> None:
    from sheepsolve.cards import card_style, format_card
    from sheepsolve.contracts import game_title

    rec = load_record(path)
    r = run("show", path, *(["--cards", notation] if notation else []))
    assert r.exit_code == 0, r.output
    out = r.output
    assert "\x1b[" not in out  # not a terminal: no color
    # the game family's notation by default: German-suited for Schafkopf, French for Sheepshead
    style = card_style(notation, rec.game.family)
    assert game_title(rec.game, style, called=rec.called) in out
    for name in rec.players:
        assert name in out
    d = show_json(path)
    if d["finished"]:
        assert "Result:" in out
    else:
        assert f"{d['to_move']} to " in out
        assert "Legal cards:" in out
        if d["legal"]:
            assert "Legal cards: " + " ".join(format_card(Card.parse(c), style) for c in d["legal"]) in out
    for t in d["tricks_played"]:  # every card played appears, in the notation asked for
        for c in t["cards"]:
            assert format_card(Card.parse(c), style) in out
    # one notation per output: no French suit symbol in German or ASCII text, no German suit name in French
    # (the record's own free text left aside)
    out = "\n".join(line for line in out.splitlines() if not any(str(v) in line for v in rec.extra.values()))
    if style != "symbols":
        assert not set("♣♠♥♦") & set(out)
    if style != "german":
        bavarian = ("Eichel", "Schellen", "Gras-") + (("Herz-",) if rec.game.family != "skat" else ())
        assert not any(w in out for w in bavarian)  # Skat's own German names (Herz-Spiel) are not Bavarian


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_show_json_consistent(path: Path) -> None:
    rec = load_record(path)
    g = rec.game
    d = show_json(path)
    names = list(rec.players)
    for key in ("game", "players", "points", "tricks", "outcome", "payments", "to_move", "legal", "tricks_played"):
        assert key in d, key
    assert d["game"] == g.name and d["players"] == names
    assert set(d["points"]) == set(names) and set(d["tricks"]) == set(names)

    # the tricks, recomputed from the record's cards: leader, seats, points
    leader = 0
    won = {n: 0 for n in names}
    got = {n: 0 for n in names}
    for i, t in enumerate(d["tricks_played"]):
        assert t["number"] == i + 1
        assert t["leader"] == names[leader]
        assert t["cards"] == [str(c) for c in rec.play[i]]
        assert t["players"] == [names[(leader + k) % g.seats] for k in range(g.seats)]
        assert t["points"] == points(t["cards"])
        assert t["winner"] in t["players"]
        won[t["winner"]] += 1
        got[t["winner"]] += t["points"]
        leader = names.index(t["winner"])
    assert d["tricks"] == won
    assert len(d["tricks_played"]) == sum(1 for t in rec.play if len(t) == g.seats)

    # points: the tricks, plus the bury for the picker (the leaster blind goes to the last trick's winner)
    bury = points([str(c) for c in rec.bury or ()]) if g.kind == "picker" else 0
    expect = dict(got)
    if g.kind == "picker":
        expect[names[rec.declarer]] += bury
    if g.kind == "leaster" and len(d["tricks_played"]) == g.tricks:
        expect[d["tricks_played"][-1]["winner"]] += points([str(c) for c in rec.blind])
    assert d["points"] == expect
    if g.two_sided and d["side_points"] is not None and rec.position is not None:
        # a position set by its cards: the sides' points count what they took before it (won), the players' do not
        side = set(d["declaring"])
        assert d["side_points"]["declaring"] == rec.setup().past_points[rec.declarer] + sum(
            p for n, p in d["points"].items() if n in side)
    elif g.two_sided and d["side_points"] is not None:
        assert sum(d["side_points"].values()) == sum(d["points"].values())
        side = set(d["declaring"])
        assert d["side_points"]["declaring"] == sum(p for n, p in d["points"].items() if n in side)
        assert names[rec.declarer] in side
    if not g.two_sided:
        assert d["side_points"] is None

    if d["finished"]:
        assert d["to_move"] is None and d["legal"] == []
        if not rec.complete:
            assert d["outcome"] is None and d["payments"] is None and d["no_result"]
            return
        assert d["outcome"] and d["no_result"] is None
        assert set(d["payments"]) == set(names)
        assert any(d["payments"].values())
        if g.family == "skat":  # each player's list score: the declarer's, the opponents' 0
            v = d["skat"]
            assert d["payments"] == {n: v["list_score"] if n == names[rec.declarer] else 0 for n in names}
            assert (v["list_score"] > 0) == v["won"] and v["won"] <= d["outcome"].startswith("win")  # or overbid
            return
        assert sum(d["payments"].values()) == 0
        if not g.sie:
            assert sum(d["points"].values()) == g.total_points == 120
            assert len(d["tricks_played"]) == g.tricks
        if g.two_sided:
            side = set(d["declaring"])
            won_game = d["outcome"] in ("win", "schneider", "schwarz") or d["outcome"].startswith("win")
            for n, pay in d["payments"].items():
                assert (pay > 0) == ((n in side) == won_game), (n, pay)
    else:
        assert d["outcome"] is None and d["payments"] is None
        assert d["to_move"] in names
        # whose turn: after the cards on the table, or the last winner, or the first player
        cur = d["current_trick"]
        if cur is not None:
            expect_move = names[(names.index(cur["players"][-1]) + 1) % g.seats]
            assert cur["cards"] == [str(c) for c in rec.play[-1]]
        elif d["tricks_played"]:
            expect_move = d["tricks_played"][-1]["winner"]
        else:
            expect_move = names[0]
        assert d["to_move"] == expect_move
        if rec.complete:
            # legal cards: non-empty, and in the hand the player still holds
            seat = names.index(d["to_move"])
            hand = set(str(c) for c in rec.hands[seat])
            if seat == rec.declarer and g.kind == "picker":
                hand = (hand | {str(c) for c in rec.blind}) - {str(c) for c in rec.bury}
            played = {c for t in rec.play for c in map(str, t)}
            assert d["legal"], "an unfinished hand has legal cards"
            assert set(d["legal"]) <= hand - played
        else:
            assert d["missing"]


def test_show_partial_record_says_what_is_missing(run) -> None:
    path = ROOT / "examples" / "sheepshead-jd-partial.toml"
    r = run("show", path)
    assert r.exit_code == 0, r.output
    assert "Not in the record: no hand for" in r.output
    assert "(unknown)" in r.output
    d = show_json(path)
    assert d["complete"] is False and d["missing"]
    assert d["legal"] is None  # the hand of the player to move is not known
    assert "Legal cards: unknown" in r.output


def test_show_partial_finished_record_has_no_result(tmp_path: Path, run) -> None:
    rec = load_record(ROOT / "examples" / "sheepshead-jd-finished.toml")
    d = rec.to_dict()
    # every hand is played out, the bury is the rest of the deck; the picker's hand and the blind stay unknown
    del d["hands"], d["blind"]
    path = tmp_path / "partial.toml"
    path.write_text(dump_record(record_from_dict(d)), encoding="utf-8")
    r = run("show", path)
    assert r.exit_code == 0, r.output
    assert "Result: none" in r.output and "incomplete" in r.output
    j = show_json(path)
    assert j["finished"] and j["outcome"] is None and j["payments"] is None and j["to_move"] is None
    assert len(j["tricks_played"]) == 6
    full = show_json(ROOT / "examples" / "sheepshead-jd-finished.toml")
    assert j["points"] == full["points"] and j["tricks_played"] == full["tricks_played"]
    assert j["side_points"] == full["side_points"]  # the partner is revealed by the play


@pytest.mark.parametrize("name", ["sheepshead-called-ace-under-finished", "sheepshead-jd-midtrick",
                                  "sauspiel-midtrick", "leaster-4-midtrick", "solo-hearts-midtrick"])
def test_show_partial_agrees_with_full(tmp_path: Path, name: str) -> None:
    """Leaving hands out changes nothing that the remaining cards still tell."""
    full_rec = load_record(ROOT / "examples" / f"{name}.toml")
    full = show_json(ROOT / "examples" / f"{name}.toml")
    players = list(full_rec.players)
    for k, keep in enumerate([players[:1], players[1:3], players[-1:], []]):
        d = full_rec.to_dict()
        d["hands"] = {p: d["hands"][p] for p in keep}
        if not d["hands"]:
            del d["hands"]
        path = tmp_path / f"{k}.toml"
        path.write_text(dump_record(record_from_dict(d)), encoding="utf-8")
        part = show_json(path)
        for key in ("tricks_played", "current_trick", "to_move", "tricks", "points"):
            assert part[key] == full[key], key
        if part["declaring"] is not None:
            assert part["declaring"] == full["declaring"]
            assert part["side_points"] == full["side_points"]
        seat = players.index(full["to_move"]) if full["to_move"] else None
        if seat is None:
            assert part["legal"] == []
        elif players[seat] in keep:  # (the blind and bury are kept: the picker's hand is known too)
            assert part["legal"] == full["legal"]
        else:
            assert part["legal"] is None


def test_show_json_record(tmp_path: Path) -> None:
    rec = load_record(ROOT / "examples" / "wenz-finished.toml")
    path = tmp_path / "wenz.json"
    path.write_text(dump_record(rec, "json"), encoding="utf-8")
    assert show_json(path) == show_json(ROOT / "examples" / "wenz-finished.toml")


def test_show_no_hands_at_all(tmp_path: Path, run) -> None:
    path = tmp_path / "bare.toml"
    path.write_text('game = "sauspiel"\ndeclarer = "2"\ncalled = "AS"\nplay = ["7C AC", ]\n', encoding="utf-8")
    r = run("show", path)
    assert r.exit_code == 0, r.output
    j = show_json(path)
    assert j["to_move"] == "3" and j["legal"] is None and j["current_trick"]["cards"] == ["7C", "AC"]
    assert j["declaring"] is None  # who holds the ace of spades is not known


def test_show_json_sauspiel_payments_follow_the_tariff() -> None:
    d = show_json(ROOT / "examples" / "sauspiel-finished.toml")
    assert d["stakes"]["crack"] is True  # Kontra doubles
    pts = d["side_points"]["declaring"]
    assert d["outcome"] == ("win-schneider" if pts > 90 else "win" if pts > 60 else "loss")
    tariff = 10 + 10 * d["laufende"] + (10 if d["outcome"].endswith("schneider") else 0)
    each = 2 * tariff * (1 if d["outcome"].startswith("win") else -1)
    for n, pay in d["payments"].items():
        assert pay == (each if n in d["declaring"] else -each)


def test_render_color_only_when_asked() -> None:
    rec = load_record(ROOT / "examples" / "sauspiel-finished.toml")
    v = hand_view(rec)
    assert "\x1b[31m" in render(v, "color")
    plain = render(v, "symbols")
    assert "\x1b" not in plain and "♥" in plain
    assert "♥" not in render(v, "ascii")
    # aligned: the rows of the hands table line up once the color codes are gone
    import re
    colored = re.sub(r"\x1b\[[0-9;]*m", "", render(v, "color"))
    assert colored == plain


def test_show_german(tmp_path: Path, run) -> None:
    path = tmp_path / "german.toml"
    path.write_text('game = "solo"\ntrump = "H"\ndeclarer = "1"\n'
                    '[hands]\n1 = "EO GO HO SO EU GU HU SU"\n2 = "HA HZ HK H9 H8 H7 EA EZ"\n'
                    '3 = "GA GZ GK G9 G8 G7 EK E9"\n4 = "SA SZ SK S9 S8 S7 E8 E7"\n', encoding="utf-8")
    r = run("show", path)  # issue 34: no option needed (it was refused without --german)
    assert r.exit_code == 0, r.output
    assert "EO GO HO SO" in r.output and "Herz-Solo" in r.output  # Schafkopf: German-suited by default
    assert run("show", "--german", path).output == r.output  # the option is still accepted
    r = run("show", "--german", "--cards", "french", path)
    assert "Q♣" in r.output and "Solo in hearts" in r.output


# --------------------------------------------------------------------------------------------------------------
# games and solve


def test_games(run) -> None:
    r = run("games")
    assert r.exit_code == 0
    for name in REGISTRY:
        assert name in r.output
    d = json.loads(run("games", "--json").output)
    assert [g["name"] for g in d["games"]] == list(REGISTRY)
    assert {s["name"] for s in d["switches"]} >= {"alone_multiplier", "run_min", "ramsch_ties"}


def test_version(run) -> None:
    # --version needs no installed distribution (a checkout run with python -m sheepsolve has none): it was a
    # RuntimeError traceback and status 1
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    r = run("--version")
    assert r.exit_code == 0, r.output
    assert r.output.strip().endswith(f"version {version}")


SMALL = ["sheepshead-jd-midtrick", "sauspiel-midtrick", "solo-hearts-midtrick", "wenz-3-player-midtrick",
         "sheepshead-called-ace-unfinished"]


@pytest.mark.parametrize("name", SMALL)
def test_solve_json(name: str, run) -> None:
    path = ROOT / "examples" / f"{name}.toml"
    r = run("solve", "--json", path)
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    for key in ("value", "to_move", "cards", "outcome", "nodes", "seconds"):
        assert key in d, key
    shown = show_json(path)
    assert d["to_move"] == shown["to_move"]
    assert sorted(d["cards"]) == sorted(shown["legal"])
    # the declaring side's value: its best card when a declarer moves, the defenders' best (lowest) otherwise
    mover_declares = d["to_move"] in shown["declaring"]
    assert d["value"] == (max if mover_declares else min)(d["cards"].values())
    assert d["value"] >= shown["side_points"]["declaring"]  # what is taken stays taken
    assert d["nodes"] > 0 and d["seconds"] >= 0
    assert d["outcome"]


def test_solve_json_leaster_with_seat(run) -> None:
    path = ROOT / "examples" / "leaster-4-midtrick.toml"
    r = run("solve", "--json", "--seat", "Dee", path)
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["seat"] == "Dee" and d["to_move"] == "Dee"
    assert d["value"] == min(d["cards"].values())


# --------------------------------------------------------------------------------------------------------------
# bad input: exit 2, "error: ...", no traceback

GOOD = """game = "sheepshead-3"
players = ["Ann", "Bob", "Cal"]
picker = "Ann"
blind = "8H 7H"
bury = "8H 7H"
play = [{play}]
[hands]
Ann = "QC QS QH QD JC JS JH JD AD TD"
Bob = "KD 9D 8D 7D AC TC KC 9C 8C 7C"
Cal = "AS TS KS 9S 8S 7S AH TH KH 9H"
"""

BAD = {
    "toml-syntax": ('game = "leaster"\nplayers = [Ann]\n', "TOML syntax error"),
    "unknown-game": ('game = "doppelkopf"\n', "unknown game"),
    "bad-card": (GOOD.format(play='"QC KD XS"'), "unknown card"),
    "revoke": (GOOD.format(play='"QC AC AS"'), "revoke"),
    "not-in-hand": (GOOD.format(play='"QC KD AS", "QS 7S"'), "play: trick 2"),
    "wrong-hand-size": ('game = "wenz"\ndeclarer = "1"\n[hands]\n1 = "JC JS"\n', "hands.1"),
    "unknown-key": ('game = "wenz"\ndeclarer = "1"\nfoo = 3\n', "foo: unknown key"),
}


@pytest.mark.parametrize("command", ["show", "solve"])
@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_record(tmp_path: Path, command: str, case: str, run, assert_input_error) -> None:
    text, words = BAD[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    assert_input_error(run(command, path), words)
    assert_input_error(run(command, "--json", path), words)


@pytest.mark.parametrize("command", ["show", "solve"])
def test_missing_file(tmp_path: Path, command: str, run, assert_input_error) -> None:
    assert_input_error(run(command, tmp_path / "nothing.toml"), "nothing.toml")


@pytest.mark.parametrize("command", ["show", "solve"])
def test_not_utf8_and_bad_json(tmp_path: Path, command: str, run, assert_input_error) -> None:
    p = tmp_path / "latin1.toml"
    p.write_bytes(b'game = "wenz"\ncomment = "K\xf6nig"\n')
    assert_input_error(run(command, p), "UTF-8")
    j = tmp_path / "rec.json"
    j.write_text('{"game": "wenz", ', encoding="utf-8")
    assert_input_error(run(command, j), "JSON")


def test_solve_incomplete_hands(run, assert_input_error) -> None:
    path = ROOT / "examples" / "sheepshead-jd-partial.toml"
    assert_input_error(run("solve", "--json", path), "every hand")


def test_solve_unknown_seat(run, assert_input_error) -> None:
    path = ROOT / "examples" / "leaster-4-midtrick.toml"
    assert_input_error(run("solve", "--seat", "Zed", path), "--seat", "Zed")
    assert_input_error(run("solve", path), "--seat")  # leaster needs a seat


def test_help_lists_every_command(run) -> None:
    r = run("--help")
    assert r.exit_code == 0
    for command in ("show", "solve", "games"):
        assert command in r.output


def test_solve_threshold_questions_match_the_exact_values(run):
    """--target, --all-tricks and --no-tricks agree with the exact value and the exact trick count."""
    path = str(ROOT / "examples" / "sauspiel-midtrick.toml")
    exact = json.loads(run("solve", path, "--json", "--no-line").output)
    tricks = json.loads(run("solve", path, "--json", "--no-line", "--tricks").output)["value"]
    for target in (exact["value"], exact["value"] + 1):
        res = run("solve", path, "--json", "--target", str(target))
        assert res.exit_code == 0
        assert json.loads(res.output)["reached"] == (exact["value"] >= target)
    n = load_record(path).game.tricks
    assert json.loads(run("solve", path, "--json", "--all-tricks").output)["reached"] == (tricks == n)
    assert json.loads(run("solve", path, "--json", "--no-tricks").output)["reached"] == (tricks == 0)
    text = run("solve", path, "--no-tricks")
    assert text.exit_code == 0 and "held to no trick" in text.output


@pytest.mark.parametrize("flags", [("--target", "61", "--all-tricks"), ("--all-tricks", "--no-tricks"),
                                   ("--no-tricks", "--target", "91")])
def test_solve_asks_one_question_at_a_time(flags, run):
    """Two threshold questions at once are refused (exit 2, both named), not answered one of them silently."""
    res = run("solve", str(ROOT / "examples" / "sauspiel-midtrick.toml"), "--json", *flags)
    assert res.exit_code == 2
    assert "ask one question at a time" in res.output and "Traceback" not in res.output
    named = [f for f in flags if f.startswith("--")]
    assert all(f in res.output for f in named)


# A ramsch hand where A, who took none of the first six tricks, can take one of the last two but can also duck
# both; and a leaster hand where A can take a trick (the solve's value, 33, has one). The trick questions ask
# what the seat can do when it tries: take every trick, or take a trick at all.
RAMSCH_CAN_TAKE_A_TRICK = """
game = "ramsch"
players = ["A", "B", "C", "D"]
play = ["KC 8C TC AC", "9S TS 8S AH", "7C QH 8D 7D", "KS 7S AD TD", "AS JD QD 9C", "QS QC TH 9H"]
[hands]
A = "KC TS JS 7S 9H 8H JD 8D"
B = "8C QS 8S KH JH AD QD 7D"
C = "TC QC 9C 7C AH 7H TD KD"
D = "AC JC AS KS 9S TH QH 9D"
"""
LEASTER_CAN_TAKE_A_TRICK = """
game = "leaster"
players = ["A", "B", "C", "D"]
blind = "QS 7S KH KD"
play = ["QD QH QC JS", "TH AH 9S 7H", "KS 8S TS JD", "JH 8D AD JC", "KC 9D 8C 7C"]
[hands]
A = "9C 7C 9S 8S AD QD 7D"
B = "AC TC KC JC TS QH 7H"
C = "QC TH JH 9H 8H JD 9D"
D = "8C AS KS JS AH TD 8D"
"""
# A holds the six top trumps and KC 7C and has taken the first six tricks: KC then 7C takes every trick (a
# Durchmarsch); 7C first gives the last two away.
RAMSCH_CAN_TAKE_EVERY_TRICK = """
game = "ramsch"
players = ["A", "B", "C", "D"]
play = ["QC JH 8H 8S", "QS JD 7H 7S", "QH AH AC AD", "QD TH TC TD", "JC KH 9C KD", "JS 9H KS 8D"]
[hands]
A = "QC QS QH QD JC JS KC 7C"
B = "JH JD AH TH KH 9H 9S 7D"
C = "8H 7H AC TC 9C KS 8C TS"
D = "8S 7S AD TD KD 8D AS 9D"
"""


@pytest.mark.parametrize("text,question,reached", [
    (RAMSCH_CAN_TAKE_A_TRICK, "--no-tricks", False),
    (LEASTER_CAN_TAKE_A_TRICK, "--no-tricks", False),
    (RAMSCH_CAN_TAKE_EVERY_TRICK, "--all-tricks", True),
    (RAMSCH_CAN_TAKE_EVERY_TRICK, "--no-tricks", False),
], ids=["ramsch-no-tricks", "leaster-no-tricks", "ramsch-all-tricks", "ramsch-all-tricks-no-tricks"])
def test_trick_questions_of_a_seat_ask_what_it_can_do_trying(tmp_path, text, question, reached, run):
    """Ramsch and leaster are solved from one seat, every other player against it; --all-tricks and --no-tricks
    ask whether the seat can take every trick, and whether it is held to none while trying to take one (the
    seat's paranoid trick count, which it minimises, answers other questions)."""
    path = tmp_path / "hand.toml"
    path.write_text(text)
    res = run("solve", path, "--json", "--seat", "A", question)
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["reached"] is reached


@pytest.mark.parametrize("name,kw", [("sheepshead", {}), ("sheepshead", {"partner": "called-ace"}),
                                     ("sheepshead-4", {}), ("sauspiel", {}), ("solo", {"trump": "D", "seats": 3}),
                                     ("ramsch", {}), ("leaster", {"seats": 4}),
                                     ("leaster", {"rules": {"leaster_blind": "first"}})])
def test_solve_json_against_the_reference(tmp_path, name, kw, run):
    """`solve --json` on records ending mid-hand and mid-trick (bury, blind and tricks already won counted): value,
    to_move and every card's value against the reference minimax; --all-tricks and --no-tricks against the most
    tricks the side (or seat) can take."""
    import random

    from sheepsolve.deals import random_position, random_setup
    from sheepsolve.games import make_game
    from sheepsolve.objective import Objective
    from sheepsolve.reference import reference_card_values, reference_value

    g = make_game(name, **kw)
    rng = random.Random(f"solve-json/{name}/{kw}")
    seat_names = ["Ann", "Bob", "Cal", "Dee", "Eve"][:g.seats]
    for i in range(5):
        st = random_setup(g, rng)
        state = random_position(st, rng, cards_left=2, extra=rng.randrange(g.seats))
        if state.finished:
            continue
        seat = None if g.two_sided else rng.randrange(g.seats)
        path = tmp_path / f"hand{i}.toml"
        path.write_text(dump_record(Record.from_state(state, seat_names)))
        args = ["solve", path, "--json"] + (["--seat", seat_names[seat]] if seat is not None else [])
        res = run(*args)
        assert res.exit_code == 0, res.output
        d = json.loads(res.output)
        obj = Objective.for_setup(st, seat=seat)
        ref = {str(c): v for c, v in reference_card_values(state, obj).items()}
        maxing = (state.to_move in obj.team) == obj.maximize
        assert d["to_move"] == seat_names[state.to_move]
        assert d["cards"] == ref
        assert d["value"] == (max if maxing else min)(ref.values())
        most = reference_value(state, Objective(team=obj.team, tricks=True))
        assert json.loads(run(*args, "--all-tricks").output)["reached"] == (most == g.tricks)
        assert json.loads(run(*args, "--no-tricks").output)["reached"] == (most == 0)


# --------------------------------------------------------------------------------------------------------------
# Numeric options: every one has a cap, and a number is written in the digits 0-9


MIDTRICK = EXAMPLES / "sauspiel-midtrick.toml"

JD_FULL = EXAMPLES / "bury-jd-full.toml"

@pytest.mark.parametrize("args", [
    ["suggest", MIDTRICK],
    ["annotate", EXAMPLES / "annotate-blunder-sheepshead.toml", "--no-bury", "--view", "player"],
    ["bury", JD_FULL, "--view", "picker"],
    ["pick", JD_FULL],
    ["import", "openschafkopf", "--rules", "wenz von 0", "--hand", "eo go ho so eu gu hu sa", "--suggest"],
])
@pytest.mark.parametrize("worlds", ["20001", "1000000", "10" * 40])
def test_worlds_are_capped(args: list, worlds: str, run, assert_input_error) -> None:
    """--worlds N ran for hours (and held every sampled world in memory: about 8 KB each) before it had a cap."""
    t0 = time.perf_counter()
    r = run(*args, "--worlds", worlds, "--jobs", "1")
    assert_input_error(r, "--worlds")
    assert "at most 20000" in r.output or "at most 2000 " in r.output or "a number of worlds" in r.output, r.output
    assert time.perf_counter() - t0 < 10

@pytest.mark.parametrize("worlds", ["٣", "³", "1_000", "0x10", "1e3", "١٠٠"])
def test_worlds_only_in_ascii_digits(worlds: str, run, assert_input_error) -> None:
    """Python's int() reads '٣' as 3 and '1_000' as 1000: a silent reading of what is not a number here."""
    assert_input_error(run("suggest", MIDTRICK, "--worlds", worlds, "--jobs", "1"), "--worlds")

@pytest.mark.parametrize("number", ["٣", "３", "1_0"])
@pytest.mark.parametrize("args,option", [
    (["suggest", MIDTRICK, "--worlds", "2", "--jobs", "1", "--seed"], "--seed"),
    (["suggest", MIDTRICK, "--worlds", "2", "--jobs"], "--jobs"),
    (["solve", MIDTRICK, "--target"], "--target"),
    (["solve", MIDTRICK, "--table-mib"], "--table-mib"),
    (["annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--no-bury", "--min-cost"], "--min-cost"),
    (["batch", "show", MIDTRICK, "--out", "{tmp}", "--chunk-size"], "--chunk-size"),
    (["puzzle", "generate", "--game", "wenz", "--count", "1", "--out", "{tmp}", "--cards-left"], "--cards-left"),
    (["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--out", "{tmp}", "--count"], "--count"),
    (["explore", "--no-browser", "--port", "{n}", "{tmp}"], "--port"),  # no such record: never serves
])
def test_numeric_options_only_in_ascii_digits(tmp_path: Path, args: list, option: str, number: str, run,
                                              assert_input_error) -> None:
    """click's int options read with int(): '--seed ٣' was seed 3, '--jobs ３' three workers, '1_0' ten, all
    taken silently (README, "Limits": numbers are written in the digits 0-9)."""
    args = [str(a).replace("{tmp}", str(tmp_path / "out")) for a in args]
    args = [number if a == "{n}" else a for a in args] + ([] if "{n}" in args else [number])
    assert_input_error(run(*args), option, "digits 0-9")
    assert not (tmp_path / "out").exists()

def test_annotate_view_worlds_have_a_lower_cap(run, assert_input_error) -> None:
    """annotate --view player holds every decision's worlds at once: 20,000 a decision would take about 2 GB on
    a 32-decision hand (138 MB measured at 1,000)."""
    from sheepsolve.player.options import MAX_ANNOTATE_WORLDS

    t0 = time.perf_counter()
    r = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--no-bury", "--view", "player", "--worlds",
            str(MAX_ANNOTATE_WORLDS + 1), "--jobs", "1")
    assert_input_error(r, "--worlds", f"at most {MAX_ANNOTATE_WORLDS}")
    assert time.perf_counter() - t0 < 10

@pytest.mark.parametrize("at", ["٣", "١.١", "３", "2.²"])
def test_suggest_at_only_in_ascii_digits(at: str, run, assert_input_error) -> None:
    """--at '٣' judged trick 3 (a regular expression's \\d matches every script's digits)."""
    assert_input_error(run("suggest", EXAMPLES / "sauspiel-play-only.toml", "--at", at, "--worlds", "1", "--jobs", "1"),
                       "--at")

def test_largest_worlds_still_accepted() -> None:
    from sheepsolve.player.options import MAX_WORLDS, parse_worlds

    assert parse_worlds(str(MAX_WORLDS)) == MAX_WORLDS and parse_worlds(" 7 ") == 7

@pytest.mark.parametrize("seed", ["-1", str(2**63), "9" * 300])
@pytest.mark.parametrize("args", [
    ["suggest", MIDTRICK, "--worlds", "2"],
    ["annotate", EXAMPLES / "annotate-blunder-sheepshead.toml", "--no-bury", "--view", "player", "--worlds", "2"],
    ["bury", JD_FULL, "--view", "picker", "--worlds", "2"],
    ["choose", EXAMPLES / "bury-choose-sauspiel-hand.toml", "--worlds", "2"],
    ["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "1", "--out", "{tmp}"],
])
def test_seed_is_capped(tmp_path: Path, args: list, seed: str, run, assert_input_error) -> None:
    """A huge seed was taken (a 300-digit one made puzzle generate work, then fail on the file name)."""
    args = [str(a).replace("{tmp}", str(tmp_path / "p")) for a in args]
    r = run(*args, "--seed", seed)
    assert_input_error(r, "--seed", "0<=x<=9223372036854775807")
    assert not (tmp_path / "p").exists()

def test_largest_seed_still_works(run) -> None:
    r = run("suggest", MIDTRICK, "--worlds", "2", "--jobs", "1", "--seed", str(2**63 - 1), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["worlds"] == 2

def test_min_cost_and_chunk_size_are_capped(tmp_path: Path, run, assert_input_error) -> None:
    assert_input_error(run("annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--min-cost", "121"), "--min-cost")
    assert_input_error(run("annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--min-cost", str(10**30)),
                       "--min-cost")
    assert_input_error(run("batch", "show", EXAMPLES / "sheepshead.toml", "--out", tmp_path / "o.jsonl", "--chunk-size",
                           "1001"), "--chunk-size")
    from sheepsolve.batch import BatchError, run_batch

    with pytest.raises(BatchError, match="--chunk-size"):
        run_batch("show", {}, [str(EXAMPLES / "sheepshead.toml")], str(tmp_path / "o.jsonl"), chunk_size=10**9)
    r = run("annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--min-cost", "120", "--no-bury", "--json")
    assert r.exit_code == 0, r.output

# --------------------------------------------------------------------------------------------------------------
# Click's own complaints and the error line: one line, exit status 2


@pytest.mark.parametrize("args, words", [
    (["show", str(EXAMPLES)], ["FILE", "directory"]),
    (["solve", str(EXAMPLES / "sheepshead.toml"), "--table-mib", "0"], ["--table-mib"]),
    (["bury", str(JD_FULL), "--jobs", "0"], ["--jobs"]),
    (["bury", str(JD_FULL), "--worlds", "x"], ["--worlds"]),
    (["annotate", str(EXAMPLES / "sheepshead.toml"), "--min-cost", "-1"], ["--min-cost"]),
    (["solve", str(EXAMPLES / "sheepshead.toml"), "--bogus"], ["--bogus"]),
    (["solve"], ["FILE"]),
    (["nosuchcommand"], ["nosuchcommand"]),
    (["puzzle", "nosuch"], ["nosuch"]),
    (["puzzle", "generate", "--game", "wenz"], ["--cards-left"]),
    (["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--out", "x", "--count", "0"], ["--count"]),
    (["solve", str(EXAMPLES / "sheepshead.toml"), "--target", "99999999999999999999999999999999999" * 200],
     ["--target"]),
])
def test_usage_errors_are_one_line(args: list[str], words: list[str], run, assert_input_error) -> None:
    r = run(*args)
    assert_input_error(r, *words)
    assert "Usage:" not in r.output

def test_help_still_works(run) -> None:
    r = run("bury", "--help")
    assert r.exit_code == 0 and "Usage:" in r.output and "--jobs" in r.output

def test_error_line_is_one_line_whatever_the_message() -> None:
    from sheepsolve.cli import InputError

    class Capture:
        text = ""

    import click

    out: list[str] = []
    orig = click.echo
    try:
        click.echo = lambda msg=None, **kw: out.append(str(msg))  # type: ignore[assignment]
        InputError("a\nb" + "c" * 100_000).show()
    finally:
        click.echo = orig  # type: ignore[assignment]
    assert len(out) == 1 and "\n" not in out[0] and len(out[0]) < 2100

def test_show_keeps_informational_text_on_one_line(tmp_path: Path, run) -> None:
    rec = with_lines(tmp_path, EXAMPLES / "sheepshead-jd-finished.toml", 'event = "Club night\\nerror: forged"')
    r = run("show", rec)
    assert r.exit_code == 0, r.output
    assert "\nerror: forged" not in r.output and "Club night\\nerror: forged" in r.output


@pytest.mark.parametrize("args", [["annotate"], ["solve"],
                                  ["annotate", "--view", "player", "--worlds", "2", "--jobs", "1"],
                                  ["suggest", "--seat", "Ann", "--worlds", "2", "--jobs", "1"]])
def test_every_error_names_the_file_first(args: list[str], run, assert_input_error) -> None:
    """Issue 34: an error found after the record was read (an incomplete record for annotate) did not name the
    file: ``error: setup: the record is incomplete...``."""
    path = str(EXAMPLES / "bury-jd-picker-only.toml")
    r = run(args[0], path, *args[1:])
    assert_input_error(r)
    assert r.output.startswith(f"error: {path}: "), r.output
