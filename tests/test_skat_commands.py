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

from sheepsolve.deals import deal
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.player.suggest import suggest_record
from sheepsolve.record import Record, dump_record, load_record
from sheepsolve.worlds import Knowledge, WorldSampler

SKAT_EXAMPLES = ["skat-grand-finished", "skat-hearts-finished", "skat-null-finished"]
ALL_EXAMPLES = SKAT_EXAMPLES + ["bettel-finished"]


def cut(tmp_path: Path, name: str, cards: int, *, game: str | None = None, extra: str = "") -> Path:
    """The example ``name`` with its play cut to the first ``cards`` cards (``game``: another game name; ``extra``:
    lines added after the game's), written to ``tmp_path``."""
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
    if extra:
        text, n = re.subn(r'^(game = "[^"]*"\n)', lambda m: m.group(1) + extra, text, flags=re.M)
        assert n == 1
    path = tmp_path / f"{name}-{cards}{'-' + game if game else ''}{'-x' if extra else ''}.toml"
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


# --------------------------------------------------------------------------------------------------------------
# What each seat knows: the skat, and an ouvert declarer's open hand


def _defender_decisions(rec):
    """(cards played before, seat) of every defender's decision of a finished record."""
    out = []
    for i, (seat, _) in enumerate(rec.replay.plays):
        if seat != rec.declarer:
            out.append((i, seat))
    return out


@pytest.mark.parametrize("name", ["skat-null-finished", "bettel-finished"])
def test_ouvert_declarers_hand_is_open_to_every_defender(tmp_path, name):
    rec = load_record(cut(tmp_path, name, 99, extra="ouvert = true\n"))
    assert rec.game.ouvert
    p = rec.declarer
    real = rec.state().setup.hands[p]  # his hand at the first lead (after the discard)
    for upto, seat in _defender_decisions(rec):
        k = Knowledge.from_record(rec, seat, upto=upto)
        assert k.shown == ((p, real),)
        sampler = WorldSampler(k)
        worlds = sampler.sample(25, seed=upto) if sampler.candidates > 2000 else sampler.all_worlds()
        assert worlds and all(w.setup.hands[p] == real for w in worlds), (upto, seat)
    # from the played hand's setup too (annotate --view player), and the declarer himself is told nothing new
    setup = rec.state().setup
    k = Knowledge.from_setup(setup, [], (p + 1) % rec.game.seats)
    assert all(w.setup.hands[p] == real for w in WorldSampler(k).sample(25, seed=3))
    assert Knowledge.from_record(rec, p, upto=next(i for i, (s, _) in enumerate(rec.replay.plays) if s == p)).shown == ()


@pytest.mark.parametrize("name", ["skat-null-finished", "bettel-finished"])
def test_without_ouvert_the_declarers_hand_is_hidden(name):
    rec = load_record(EXAMPLES / f"{name}.toml")
    p = rec.declarer
    real = rec.state().setup.hands[p]
    upto, seat = _defender_decisions(rec)[0]
    k = Knowledge.from_record(rec, seat, upto=upto)
    assert k.shown == ()
    assert any(w.setup.hands[p] != real for w in WorldSampler(k).sample(25, seed=1))


def test_ouvert_player_view_commands(tmp_path):
    path = cut(tmp_path, "skat-null-finished", 99, extra="ouvert = true\n")
    r = run("suggest", path, "--at", "1.2", "--worlds", "all", "--jobs", 1, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    # Bob sees Ann's open hand: the worlds deal only Cal's ten cards and the two of the discard
    assert d["seat"] == "Bob" and d["exact"] and d["worlds"] == 66
    assert d["beliefs"]["Ann"]["cards"] == {"AC": 1, "AS": 1, "AH": 0, "AD": 0}  # AC from the skat
    r = run("annotate", path, "--view", "player", "--worlds", 10, "--jobs", 1, "--no-bury")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Null ouvert — declarer Ann")  # the German name (contracts.contract_name)


def _hand_game_record(tmp_path: Path, cards: int) -> Path:
    g = make_game("grand", hand=True)
    rng = __import__("random").Random(5)
    hands, skat = deal(g, rng)
    state = Setup.create(g, hands, declarer=1, blind=skat, bury=skat).start()
    for _ in range(cards):
        state = state.play(rng.choice(state.legal()))
    path = tmp_path / "grand-hand.toml"
    path.write_text(dump_record(Record.from_state(state, players=("Ann", "Bob", "Cal"))))
    return path


def test_hand_game_nobody_saw_the_skat(tmp_path):
    rec = load_record(_hand_game_record(tmp_path, 7))
    assert rec.game.hand and rec.declarer == 1
    skat = set(rec.state().setup.bury)
    for seat in range(3):
        k = Knowledge.from_record(rec, seat)
        assert k.bury is None and not k.picker_view  # the declarer of a hand game did not see the skat either
        worlds = WorldSampler(k).sample(30, seed=seat)
        assert all(w.setup.hands[seat] == k.hand for w in worlds)
        assert any(set(w.setup.bury) != skat for w in worlds)
    r = run("suggest", rec_path := _hand_game_record(tmp_path, 7), "--worlds", 20, "--jobs", 1, "--json")
    assert r.exit_code == 0, (rec_path, r.output)


def test_after_the_pickup_the_declarer_knows_the_discard_the_defenders_do_not():
    rec = load_record(EXAMPLES / "skat-grand-finished.toml")
    p = rec.declarer
    discard = set(rec.state().setup.bury)
    first = [(i, s) for i, (s, _) in enumerate(rec.replay.plays)]
    up_p = next(i for i, s in first if s == p)
    k = Knowledge.from_record(rec, p, upto=up_p)
    assert set(k.bury) == discard
    assert all(set(w.setup.bury) == discard for w in WorldSampler(k).sample(20, seed=1))
    up_d, d = next((i, s) for i, s in first if s != p)
    k = Knowledge.from_record(rec, d, upto=up_d)
    assert k.bury is None
    assert any(set(w.setup.bury) != discard for w in WorldSampler(k).sample(20, seed=1))


def test_explore_shows_the_ouvert_declarers_hand_to_every_seat(tmp_path):
    from sheepsolve.explore import Explorer
    from sheepsolve.explore.seat_view import view_at

    ex = Explorer.open(cut(tmp_path, "skat-null-finished", 99, extra="ouvert = true\n"))
    t = ex.table(ex.main[:1])
    assert t["open"] == ["Ann"] and t["to_move"] == "Bob"
    v = view_at(ex, ex.main[:1], worlds=6, seed=1)
    ann_now = t["hands_now"][0]["cards"]
    assert all(v["beliefs"][c] == {"Ann": 1.0} for c in ann_now)  # every world keeps Ann's hand
    assert Explorer.open(EXAMPLES / "skat-null-finished.toml").table([])["open"] == []
    js = (Path(__file__).resolve().parent.parent / "src/sheepsolve/render/static/explore.js").read_text()
    assert "open.indexOf(seatName) < 0" in js  # the page's seat view hides no open hand


# --------------------------------------------------------------------------------------------------------------
# show and the card faces


@pytest.mark.parametrize("name", SKAT_EXAMPLES)
def test_skat_cards_are_french_by_default_and_bavarian_with_cards_german(tmp_path, name):
    path = EXAMPLES / f"{name}.toml"
    default = run("show", path).output
    assert "♣" in default and "Eichel" not in default
    german = run("show", path, "--cards", "german").output
    assert "Eichel" in german and "♣" not in german
    for style, word in ((None, "Kreuz-Bube"), ("german", "Eichel-Unter")):  # Skat's German names (Kreuz-Bube)
        out = tmp_path / f"{style}.html"
        args = ["annotate", path, "--html", out] + (["--cards", style] if style else [])
        assert run(*args).exit_code == 0
        assert word in out.read_text(encoding="utf-8")
    bettel = run("show", EXAMPLES / "bettel-finished.toml").output
    assert "Eichel" in bettel  # Schafkopf keeps its German faces


# --------------------------------------------------------------------------------------------------------------
# batch and report


def test_batch_and_report_on_skat_and_bettel(tmp_path):
    out = tmp_path / "season.jsonl"
    inputs = [EXAMPLES / f"{n}.toml" for n in ALL_EXAMPLES]
    r = run("batch", "annotate", "--no-bury", *inputs, "--out", out, "--jobs", 2, "--no-progress")
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 4 and all("result" in x for x in rows)
    assert {x["result"]["game"] for x in rows} == {"grand", "skat", "null", "bettel"}
    r = run("report", out, "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["hands"] == 4 and not rep["failed"]
    assert len(rep["forms"]) == 4
    solved = tmp_path / "solve.jsonl"
    r = run("batch", "solve", *[cut(tmp_path, n, 0) for n in ALL_EXAMPLES], "--out", solved, "--jobs", 1,
            "--no-progress")
    assert r.exit_code == 0, r.output
    values = [json.loads(x)["result"]["value"] for x in solved.read_text().splitlines()]
    finals = []
    for n in ALL_EXAMPLES:
        st = load_record(EXAMPLES / f"{n}.toml").state()
        finals.append(Objective.for_setup(st.setup).final_value(st))
    assert values == finals


# --------------------------------------------------------------------------------------------------------------
# puzzles


@pytest.mark.parametrize("game,extra,goal", [("grand", [], None), ("skat", ["--trump", "H"], None),
                                             ("null", [], "no-trick"), ("bettel", [], "no-trick"),
                                             ("null-ouvert", [], "no-trick")])
def test_puzzles_generate_check_show_booklet(tmp_path, game, extra, goal):
    out = tmp_path / "p"
    r = run("puzzle", "generate", "--game", game, *extra, "--cards-left", 4, "--count", 2, "--seed", 1,
            "--out", out)
    assert r.exit_code == 0, r.output
    files = sorted(out.glob("*.toml"))
    assert files, r.output
    for f in files:
        rec = load_record(f)
        assert rec.game.ouvert == game.endswith("ouvert")
        p = rec.extra["puzzle"]
        if goal is not None:
            assert p["goal"] == goal
            # the declarer has taken no trick yet: the game is still open
            st = rec.state()
            assert not any(t.winner in st.setup.team for t in st.tricks)
        else:
            assert isinstance(p["goal"], int)
    r = run("puzzle", "check", *files)
    assert r.exit_code == 0, r.output
    text = run("puzzle", "show", files[0]).output
    if goal:
        assert "card points" not in text.split("Tricks so far")[1].splitlines()[0]
        assert ("take no trick" in text) or ("give the declarer a trick" in text)
        assert "Trumps: none" in text
    booklet = tmp_path / "b.html"
    r = run("puzzle", "show", *files, "--html", booklet, "--reveal")
    assert r.exit_code == 0, r.output
    assert booklet.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_no_trick_goals_are_checked(tmp_path):
    r = run("puzzle", "generate", "--game", "null", "--goal", "61", "--cards-left", 4, "--count", 1,
            "--out", tmp_path / "x")
    assert r.exit_code == 2 and "the declarer must take no trick" in r.output
    r = run("puzzle", "generate", "--game", "grand", "--goal", "no-trick", "--cards-left", 4, "--count", 1,
            "--out", tmp_path / "y")
    assert r.exit_code == 2 and "no-trick" in r.output and "not of grand" in r.output


def test_null_puzzle_solution_is_the_declarers_escape(tmp_path):
    from sheepsolve.puzzle import puzzle_from_record
    from sheepsolve.reference import reference_card_values

    out = tmp_path / "p"
    assert run("puzzle", "generate", "--game", "null", "--cards-left", 3, "--count", 3, "--seed", 4,
               "--out", out).exit_code == 0
    for f in sorted(out.glob("*.toml")):
        p = puzzle_from_record(load_record(f))
        st = p.state
        vals = reference_card_values(st, Objective.for_setup(st.setup))
        declarer = st.to_move in st.setup.team
        good = {c for c, v in vals.items() if (v == 0) == declarer}
        assert set(p.solution) == good


def test_null_worlds_are_solved_by_one_question_a_card(tmp_path):
    """A null or Bettel world's value for each card is whether the declarer takes a trick: one null-window search
    (reach 1) a card, equal to the exact trick count clipped to 0 or 1."""
    from sheepsolve.player.solve import solve_world
    from sheepsolve.solver import Solver

    for name, cards in (("skat-null-finished", 0), ("skat-null-finished", 4), ("bettel-finished", 5)):
        rec = load_record(cut(tmp_path, name, cards))
        k = Knowledge.from_record(rec)
        for w in WorldSampler(k).sample(15, seed=cards):
            values, _ = solve_world(k, w, Solver(), payments=False)
            exact = Solver().card_values(w.state, Objective.for_setup(w.setup))
            assert values == tuple(min(exact[c], 1) for c in w.state.legal())
            some, _ = solve_world(k, w, Solver(), payments=False, only=[0])
            assert some[0] == values[0] and all(x is None for x in some[1:])


def test_annotate_names_the_skat_discard_as_a_discard():
    """annotate judges the declarer's discard in Skat words: 'every discard of 2 of the declarer's 12 cards' (it
    said 'every bury of 2 of the picker's 12 cards')."""
    r = run("annotate", EXAMPLES / "skat-grand-finished.toml")
    assert r.exit_code == 0, r.output
    assert "every discard of 2 of the declarer's 12 cards" in r.output
    assert "bury" not in r.output and "picker" not in r.output
