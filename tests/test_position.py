"""Positions set by their cards (``position = true``, docs/RECORD-FORMAT.md "Positions set by their cards").

- Differential: seeded random positions of every game form, reached by random play from a deal and then written
  as position records (the cards still held, ``won``, ``tricks_won``, the partner where his card is gone): the
  compiled solver against the pure-Python reference on the record's position, and both against the same
  position reached from the deal (every legal card's value, and the outcome).
- The record's errors, one line each, and the commands that need the history refusing it.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from sheepsolve.cards import Card
from sheepsolve.deals import game_forms, random_position, random_setup
from sheepsolve.games import make_game
from sheepsolve.judge import outcome_of
from sheepsolve.objective import Objective
from sheepsolve.record import Record, RecordError, record_from_dict
from sheepsolve.reference import reference_card_values
from sheepsolve.scoring import tally
from sheepsolve.solver import Solver

NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve")

FORMS = game_forms() + [
    make_game("solo", trump="H", tout=True), make_game("wenz", tout=True), make_game("geier", tout=True),
    make_game("farbwenz", trump="C", tout=True), make_game("solo", trump="S", seats=3, tout=True),
    make_game("grand"), make_game("skat", trump="C"), make_game("skat", trump="S"), make_game("skat", trump="H"),
    make_game("skat", trump="D"), make_game("null"), make_game("null-ouvert"), make_game("bettel"),
    make_game("bettel", seats=3), make_game("bettel-ouvert"),
]


def _id(g) -> str:
    rules = ",".join(f"{k}={v}" for k, v in sorted(g.rules.items())
                     if k in ("run", "call_up", "bury_needs_trick", "leaster_blind", "run_min"))
    return (f"{g.name}-{g.partner}-{g.trump_suit or ''}-{g.seats}p-{len(g.deck)}{'-tout' if g.tout else ''}"
            f"{'-ouvert' if g.ouvert else ''}-{rules}")


def position_data(state, rng: random.Random) -> dict | None:
    """The position record of ``state`` (a position of a full deal: its trick's leader listed first, the trick on
    the table as the record's play), or None where a position record cannot say it (see the skips)."""
    trick = state.trick
    if trick:  # the position at the trick's start, and the trick as the play
        hands = list(state.hands)
        for i, c in enumerate(trick):
            hands[(state.leader + i) % state.seats] |= {c}
        state = dataclasses.replace(state, hands=tuple(hands), trick=())
    st = state.setup
    g = st.game
    n = g.seats
    names = list(NAMES[:n])
    d = Record.from_state(state, names).to_dict()
    for key in ("play", "blind", "bury", "skat", "discard", "under", "alone"):
        d.pop(key, None)
    d["players"] = names[state.leader:] + names[:state.leader]
    d["position"] = True
    if trick:
        d["play"] = [" ".join(map(str, trick))]
    d["hands"] = {names[s]: " ".join(map(str, h)) for s, h in enumerate(state.hands)}
    t = tally(state)
    held = {c for h in state.hands for c in h}
    if st.called is not None:
        still = st.called in held
        if still and not state.called_open:
            return None  # the called suit was led and the partner kept his ace: a position cannot say it
        if st.under is not None and st.under in held:
            if not still:
                return None  # the card under still stands for a called suit whose card is gone
            d["under"] = str(st.under)
        if not still or rng.random() < 0.5:
            d["partner_player"] = names[st.partner]
    if g.partner == "jack-of-diamonds" and g.two_sided:
        if st.partner is None:
            d["alone"] = True
        elif rng.random() < 0.5 or g.rules.get("call_up") or not any(str(c) == "JD" for c in held):
            d["partner_player"] = names[st.partner]
    if g.two_sided:
        if g.no_trick:
            if t.side_tricks["declaring"]:
                return None  # the declarer has lost already
        else:
            if g.rules.get("bury_needs_trick") and not t.side_tricks["declaring"] and st.bury:
                return None  # the bury's points wait for the side's first trick
            d["won"] = t.side_points["declaring"]
            d["tricks_won"] = t.side_tricks["declaring"]
    else:
        if g.kind == "leaster":
            if g.rules.get("leaster_blind") != "first":  # "first": it went with the first trick, counted in won
                d["blind"] = " ".join(map(str, st.blind))
        d["won"] = {names[s]: p for s, p in enumerate(t.points)}
        d["tricks_won"] = {names[s]: k for s, k in enumerate(t.tricks)}
    return d


def _cases(game, seed: int, count: int):
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count and tries < 400 * count:
        tries += 1
        setup = random_setup(game, rng)
        s = random_position(setup, rng, cards_left=rng.randint(1, 3), extra=rng.randrange(game.seats))
        if s.finished:
            continue
        d = position_data(s, rng)
        if d is not None:
            out.append((s, d))
    assert len(out) == count, f"only {len(out)} positions in {tries} tries"
    return out


def _objectives(setup, seat):
    g = setup.game
    if g.two_sided:
        return [Objective.for_setup(setup), Objective.for_setup(setup, tricks=True)]
    return [Objective.for_setup(setup, seat=seat), Objective.for_setup(setup, seat=seat, tricks=True)]


@pytest.mark.parametrize("game", FORMS, ids=_id)
def test_position_records_solve_as_the_deal_does(game):
    solver = Solver()
    for k, (dealt, d) in enumerate(_cases(game, 4000 + FORMS.index(game), 12)):
        rec = record_from_dict(d)
        pos = rec.state()
        seat = k % game.seats
        moved = rec.players.index(NAMES[dealt.leader])  # the players are listed from the leader
        assert pos.leader == 0 and not pos.tricks and [sorted(h) for h in pos.hands] == [
            sorted(dealt.hands[(s + dealt.leader) % game.seats]) for s in range(game.seats)]
        assert moved == 0
        pos_seat = rec.players.index(NAMES[seat])
        for obj_pos, obj_dealt in zip(_objectives(pos.setup, pos_seat), _objectives(dealt.setup, seat)):
            ref = reference_card_values(pos, obj_pos)
            assert solver.card_values(pos, obj_pos) == ref, (d, obj_pos)
            assert solver.card_values(dealt, obj_dealt) == ref, (d, obj_dealt)
            if not obj_pos.tricks:
                maxing = (pos.to_move in obj_pos.team) == obj_pos.maximize
                best = max(ref.values()) if maxing else min(ref.values())
                assert outcome_of(solver, pos, obj_pos, best) == outcome_of(solver, dealt, obj_dealt, best), d


def test_every_form_is_covered():
    names = {g.name for g in FORMS}
    assert {"sheepshead", "sheepshead-3", "sheepshead-4", "leaster", "sauspiel", "solo", "wenz", "geier",
            "farbwenz", "farbgeier", "ramsch", "bettel", "grand", "skat", "null"} <= names
    assert any(g.tout for g in FORMS)


# --------------------------------------------------------------------------------------------------------------
# The record's faults, one line each; the commands that need the history.

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from helpers_cli import EXAMPLES, assert_input_error, run  # noqa: E402

SAUS = """game = "sauspiel"
players = ["Dee", "Ann", "Bob", "Cal"]
declarer = "Ann"
called = "AD"
position = true
{extra}
[hands]
Dee = "TH 7H 8C"
Ann = "QD JS AC"
Bob = "9H TS 9S"
Cal = "TD KD AS"
"""


def _saus(tmp_path, extra: str, **swap: str) -> Path:
    text = SAUS.format(extra=extra)
    for old, new in swap.items():
        text = text.replace(old.replace("_", " "), new)
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("extra,swap,words", [
    ("won = 43", {}, ["partner_player: missing", "AD", "in no hand"]),
    ('won = 43\npartner_player = "Ann"', {}, ["partner_player: Ann is the declarer"]),
    ('partner_player = "Cal"\nwon = 70', {}, ["won: 70 is more than the 59 card points out of play",
                                             "120 less the 61 still held"]),
    ('partner_player = "Cal"\nwon = -1', {}, ["won: must be from 0 to 120"]),
    ('partner_player = "Cal"\nwon = "43"', {}, ["won: must be a whole number"]),
    ('partner_player = "Cal"\nwon = 43\ntricks_won = 6', {}, ["tricks_won: must be from 0 to 5, not 6"]),
    ('partner_player = "Cal"\nwon = 43\ntricks_won = 0', {}, ["tricks_won: 0, but won = 43",
                                                             "points come with a trick"]),
    ('partner_player = "Cal"\nwon = 43\ntricks_won = 5', {}, ["tricks_won: 5, every trick before the position",
                                                             "the defenders took 16 card points"]),
    ('partner_player = "Cal"', {'Bob_=_"9H_TS_9S"': 'Bob = "9H TS 9S 7S"'},
     ["hands.Bob: 4 cards, but hands.Dee holds 3", "trick in progress is written in play"]),
    ('partner_player = "Cal"', {'Bob_=_"9H_TS_9S"': ''}, ["hands: a position gives every hand (no hand for Bob)"]),
    ('partner_player = "Cal"', {'Bob_=_"9H_TS_9S"': 'Bob = "9H TS QD"'}, ["hands.Bob: duplicate card QD",
                                                                         "also in hands.Ann"]),
    ('partner_player = "Cal"', {'Bob_=_"9H_TS_9S"': 'Bob = "9H TS 1X"'}, ["hands.Bob:", "1X"]),
    ('partner_player = "Cal"', {'"AD"': '"AC"'}, ["called: AC is in the declarer's hand (hands.Ann)"]),
    ('partner_player = "Bob"', {'"AD"': '"AS"'}, ["partner_player: Bob, but the called card AS is in hands.Cal",
                                                  "its holder is the partner"]),
    ('partner_player = "Cal"\nbury = "7D 8D"', {}, ["bury: a position record has none: count its points in won"]),
    ('partner_player = "Cal"\nauction = ["Dee: weiter"]', {}, ["auction: a position record has none"]),
    ('partner_player = "Cal"', {"position_=_true": "position = false"},
     ["partner_player: only in a position record (position = true"]),
    ('partner_player = "Cal"', {"position_=_true": 'position = "yes"'}, ["position: must be true or false"]),
    ('partner_player = "Cal"\nplay = ["8C AC 9H KD", "AS"]', {},
     ["play: trick 2, card 1: AS belongs to Cal but it was Bob's turn to play (Bob won trick 1)"]),
])
def test_position_faults_are_one_line(tmp_path, extra, swap, words):
    assert_input_error(run("solve", _saus(tmp_path, extra, **swap)), *words)


@pytest.mark.parametrize("data,words", [
    ({"game": "ramsch", "won": {"1": 40}, "tricks_won": {"1": 6},
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["won: the players' card points add up to 40, but 81 are out of play"]),
    ({"game": "ramsch", "won": {"1": 81}, "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["tricks_won: missing: in ramsch with won given"]),
    ({"game": "ramsch", "won": 71, "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["won: in a game without sides, a table of players"]),
    ({"game": "ramsch", "won": {"1": 81}, "tricks_won": {"1": 5, "2": 2},
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["tricks_won: the players' tricks add up to 7, but 6 were played"]),
    ({"game": "ramsch", "won": {"1": 70, "3": 11}, "tricks_won": {"1": 6},
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["tricks_won.3: 0, but won.3 = 11"]),
    ({"game": "bettel", "declarer": "2", "tricks_won": 1,
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["tricks_won: 1: the bettel declarer who took a trick has lost already"]),
    ({"game": "bettel", "declarer": "2", "won": 10,
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["won: bettel counts tricks, not card points"]),
    ({"game": "solo", "trump": "H", "declarer": "2", "partner_player": "3",
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["partner_player: solo has no partner"]),
    ({"game": "sheepshead", "picker": "1", "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD",
                                                     "5": "7C 8C"}},
     ["partner_player: missing: the jack of diamonds is in no hand", "or write alone = true"]),
    ({"game": "sheepshead", "picker": "1", "blind": "JD 7D",
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD", "5": "7C 8C"}},
     ["blind: a sheepshead position has none: count its points in won"]),
    ({"game": "skat", "contract": "hearts", "declarer": "1", "skat": "7S QD",
      "hands": {"1": "JC 7H", "2": "AS 8D", "3": "TH KS"}},
     ["skat: a skat position has none: count its points in won"]),
    ({"game": "skat", "contract": "grand", "declarer": "1", "discard": "7S QD",
      "hands": {"1": "JC 7H", "2": "AS 8D", "3": "TH KS"}}, ["discard: a position record has none: count its points"]),
    ({"game": "leaster", "blind": "JD 7D", "rules": {"leaster_blind": "first"},
      "hands": {"1": "QC 7S", "2": "AS 8D", "3": "TH KS", "4": "9S AD", "5": "7C 8C"}},
     ['blind: with leaster_blind = "first" the blind went to the winner of the first trick']),
    ({"game": "sie", "declarer": "1", "hands": {"1": "QC QS", "2": "AS 8D", "3": "TH KS", "4": "9S AD"}},
     ["position: a sie is not played out"]),
    ({"game": "wenz", "declarer": "1", "hands": {"1": "", "2": "", "3": "", "4": ""}},
     ["hands.1: 0 cards; a wenz position holds 1 to 8 cards a hand"]),
])
def test_position_faults_of_every_kind(tmp_path, data, words):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**data, "position": True}), encoding="utf-8")
    assert_input_error(run("solve", path), *words)


@pytest.mark.parametrize("command,why", [
    (["annotate"], "annotate judges every decision from the deal"),
    (["annotate", "--view", "player", "--worlds", "4"], "annotate judges every decision from the deal"),
    (["suggest", "--worlds", "4"], "the player's view needs what the player saw"),
    (["bury"], "the bury is chosen from the hand as dealt"),
    (["pick", "--seat", "Ann", "--worlds", "4"], "picking is decided on the hand as dealt"),
    (["choose", "--seat", "Ann", "--worlds", "4"], "the contract is chosen on the hand as dealt"),
])
def test_commands_that_need_the_history_refuse_a_position(command, why):
    path = EXAMPLES / "sauspiel-position.toml"
    assert_input_error(run(command[0], path, *command[1:]), "sauspiel-position.toml: position: a position record",
                       why, "solve, puzzle and explore take it")


def test_batch_annotate_gives_the_refusal_as_the_lines_error(tmp_path):
    out = tmp_path / "b.jsonl"
    run("batch", "annotate", EXAMPLES / "skat-position.toml", "--out", out)
    [line] = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert "position: a position record" in line["error"] and "annotate judges" in line["error"]


def test_the_examples_solve_from_won():
    d = json.loads(run("solve", EXAMPLES / "sauspiel-position.toml", "--json").output)
    assert d["to_move"] == "Dee" and d["best"] == ["8C"] and d["value"] == 89 and d["outcome"] == "win"
    assert d["cards"] == {"TH": 104, "7H": 104, "8C": 89}
    skat = json.loads(run("solve", EXAMPLES / "skat-position.toml", "--json").output)
    # won = 0: the value is the points of the two tricks still to play, every one of them the declarer's here
    assert skat["value"] == 27 == sum(c.points for h in record_from_dict(
        {"game": "skat", "contract": "hearts", "declarer": "1", "position": True,
         "hands": {"1": "JC 7H", "2": "AS 8D", "3": "TH KS"}}).setup().hands for c in h)


def test_a_position_round_trips_and_explores(tmp_path):
    from sheepsolve.explore import Explorer
    from sheepsolve.record import dump_record, load_record, parse_record

    rec = load_record(EXAMPLES / "sauspiel-position.toml")
    again = parse_record(dump_record(rec))
    assert again == rec and again.setup() == rec.setup()
    ex = Explorer.open(EXAMPLES / "sauspiel-position.toml")
    v = ex.values(())
    assert v["cards"] == {"TH": 104, "7H": 104, "8C": 89}
    line = tuple(parse_record(ex.variation_toml(())).play)
    assert line == ()
    best = ex.best_line(())
    varied = parse_record(ex.variation_toml(tuple(Card.parse(c) for c in best)))
    assert varied.position == rec.position and varied.state().finished
    assert ex.table(())["side_points"] == {"declaring": 43, "defending": 16}


@pytest.mark.parametrize("game", [make_game("sauspiel"), make_game("sheepshead", partner="called-ace"),
                                  make_game("wenz"), make_game("sheepshead-3"), make_game("skat", trump="C")],
                         ids=_id)
def test_puzzles_set_as_positions_check(game, tmp_path):
    """A generated puzzle written as a position record (the cards held, won, tricks_won, the partner) checks as
    the puzzle of the deal does, and `puzzle check` says ok."""
    from sheepsolve.puzzle import check_puzzle, generate, puzzle_from_record
    from sheepsolve.record import dump_record

    rng = random.Random(5)
    checked = 0
    for k, p in enumerate(generate(game, cards_left=3, count=2, seed=11)):
        d = position_data(p.state, rng)
        if d is None:
            continue
        checked += 1
        names = list(p.record.players)
        rename = dict(zip(NAMES, names))
        d["players"] = [rename[n] for n in d["players"]]
        d["hands"] = {rename[n]: h for n, h in d["hands"].items()}
        if "partner_player" in d:
            d["partner_player"] = rename[d["partner_player"]]
        d["declarer" if "declarer" in d else "picker"] = names[p.state.setup.declarer]
        d["puzzle"] = p.table()
        rec = record_from_dict(d)
        assert rec.state().legal() == p.state.legal()
        res = check_puzzle(puzzle_from_record(rec))
        assert res.ok, res.reasons
        assert res.solution == check_puzzle(p).solution
        path = tmp_path / f"p{k}.toml"
        path.write_text(dump_record(rec), encoding="utf-8")
        r = run("puzzle", "check", path)
        assert r.exit_code == 0 and ": ok (" in r.output, r.output
        assert run("puzzle", "show", path).exit_code == 0
    assert checked


def test_a_called_card_played_before_the_position_binds_nothing():
    """Sheepshead called ace, AC gone with the tricks before: the picker's last club is no longer a hold card he
    must keep, and the partner named is on his side; while AC is held its rules bind."""
    hands = {"1": "AS 9S", "2": "QC 7C", "3": "TS 8S", "4": "KS 7S", "5": "AH 9H"}
    gone = record_from_dict({"game": "sheepshead", "partner": "called-ace", "picker": "2", "called": "AC",
                             "partner_player": "4", "position": True, "won": 40, "play": ["AS"], "hands": hands})
    st = gone.state()
    assert st.setup.team == frozenset({1, 3}) and not st.called_open
    assert sorted(map(str, st.legal())) == ["7C", "QC"]
    held = dict(hands, **{"4": "KS AC"})
    bound = record_from_dict({"game": "sheepshead", "partner": "called-ace", "picker": "2", "called": "AC",
                              "position": True, "won": 40, "play": ["AS"], "hands": held}).state()
    assert bound.setup.partner == 3 and bound.called_open
    assert [str(c) for c in bound.legal()] == ["QC"]  # the hold rule keeps his last club
