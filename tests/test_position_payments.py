"""Payments in a position set by its cards: the tricks before it are unknown, so the Laufende (Skat: the
matadors) are counted only where the cards still held decide them; where the run of the top trumps reaches a
trump no hand holds they cannot be known, and the library says so instead of counting the held cards only. A
Skat position with a bid is refused then (its overbid cannot be judged). A Skat deal dealt mid-hand without the
club jack has no matadors either: one clear error, not the scorer's "with or without 1 matador"."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sheepsolve.cards import parse_cards
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.judge import Judge
from sheepsolve.record import RecordError, load_record, record_from_dict
from sheepsolve.scoring import Stakes, laufende_of, payment_terms, seat_payment
from sheepsolve.solver import Solver


def skat_position(hands: dict[str, str], **keys) -> dict:
    return {"game": "skat", "contract": "hearts", "players": ["1", "2", "3"], "declarer": "1", "position": True,
            "hands": hands, **keys}


def test_laufende_reaching_a_card_played_before_are_unknown():
    st = load_record("examples/sauspiel-position.toml").setup()  # QC, the top trump, was played before it
    with pytest.raises(ValueError, match="^the Laufende of a position set by its cards are not known: the run of "
                                         "the top trumps reaches QC, which no hand holds"):
        laufende_of(st)
    judge = Judge(st, Stakes(), Solver())
    assert judge.payment("win") is None  # no payment rather than one from the held cards only
    with pytest.raises(ValueError, match="Laufende .* not known"):
        seat_payment(st, 1, "win")


def test_laufende_decided_by_the_held_cards_are_counted():
    # the declaring side (Ann) holds QC and QS, a defender QH: the run is 2 whatever was played before
    rec = record_from_dict({"game": "sauspiel", "players": ["Dee", "Ann", "Bob", "Cal"], "declarer": "Ann",
                            "called": "AD", "position": True, "won": 20, "tricks_won": 2, "partner_player": "Cal",
                            "hands": {"Dee": "QH 7H 8C", "Ann": "QC QS AC", "Bob": "9H TS 9S",
                                      "Cal": "TD KD AS"}})
    assert laufende_of(rec.setup()) == (2, True)
    assert payment_terms(rec.setup()).laufende == 0  # below the threshold of 3


def test_skat_matadors_of_a_position():
    # the declarer holds JC, JS is gone: with 1, or with 2 or more: unknown (it was 'with 1' before)
    st = record_from_dict(skat_position({"1": "JC 7H", "2": "AS 8D", "3": "TH KS"})).setup()
    with pytest.raises(ValueError, match="^the matadors of a position .* reaches JS, which no hand holds .* or "
                                         "lies in the skat"):
        payment_terms(st)
    # a defender holds JS: with 1 for certain
    st = record_from_dict(skat_position({"1": "JC 7H", "2": "JS 8D", "3": "TH KS"})).setup()
    assert laufende_of(st) == (1, True)


def test_a_skat_position_with_a_bid_needs_known_matadors(tmp_path):
    with pytest.raises(RecordError, match="^bid: the matadors of a position .*: whether the game is overbid "
                                          "cannot be judged"):
        record_from_dict(skat_position({"1": "JC 7H", "2": "AS 8D", "3": "TH KS"}, bid=30))
    rec = record_from_dict(skat_position({"1": "JC 7H", "2": "JS 8D", "3": "TH KS"}, bid=30))
    assert rec.game.bid == 30
    path = tmp_path / "pos.toml"
    path.write_text('game = "skat"\ncontract = "hearts"\nplayers = ["1", "2", "3"]\ndeclarer = "1"\n'
                    'position = true\nbid = 30\n[hands]\n"1" = "AH 7H"\n"2" = "AS 8D"\n"3" = "TH KS"\n')
    run = subprocess.run([sys.executable, "-m", "sheepsolve", "solve", str(path)], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: bid: the matadors of a position")
    # without a bid nothing needs them: solve counts the points as before
    path.write_text(path.read_text().replace("bid = 30\n", ""))
    run = subprocess.run([sys.executable, "-m", "sheepsolve", "solve", str(path)], capture_output=True, text=True)
    assert run.returncode == 0 and "ends with" in run.stdout


def test_a_skat_deal_without_the_club_jack_has_no_matadors():
    hands = [parse_cards(h) for h in ("AC TC", "AS TS", "AH TH")]
    st = Setup.create(make_game("grand"), hands, declarer=0, blind=parse_cards("7D 8D"), bury=parse_cards("7D 8D"))
    with pytest.raises(ValueError, match=r"^grand: the matadors are not known: JC, the top trump, is not in play "
                                         r"\(a deal of 2 cards each\)$"):
        seat_payment(st, 0, "win")
    assert Judge(st, Stakes(), Solver()).payment("win") is None
    # with the club jack in play the small deal is scored as before: with 1, game 2 x 24
    hands = [parse_cards(h) for h in ("JC TC", "AS TS", "AH TH")]
    st = Setup.create(make_game("grand"), hands, declarer=0, blind=parse_cards("7D 8D"), bury=parse_cards("7D 8D"))
    assert seat_payment(st, 0, "win") == 48


def test_show_of_a_finished_position_has_no_laufende(tmp_path):
    import json

    text = open("examples/sauspiel-position.toml").read().replace(
        "[hands]", 'play = ["8C AC 9H KD", "TS AS TH QD", "JS 9S TD 7H"]\n\n[hands]')
    path = tmp_path / "finished.toml"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "sheepsolve", "show", str(path), "--json"], capture_output=True,
                         text=True, check=True).stdout
    d = json.loads(out)
    # finished, but QC went before the position: the Laufende are unknown, and show does not fail on them
    assert d["finished"] and d["laufende"] is None and d["payments"] is None
