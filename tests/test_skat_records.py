"""Skat records (docs/RECORD-FORMAT.md, "Skat records"): the contract, skat, discard, hand game, announcements and
bid read, written back, and the Sheepshead keys still read. The bad records are in ``tests/bad_records/skat_*``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sheepsolve.cards import parse_cards
from sheepsolve.record import RecordError, dump_record, load_record, parse_record, record_from_dict

ROOT = Path(__file__).parent.parent
HANDS = {"Ann": "KC 9C 8C QS JS 9S AH KH QH 7D", "Bob": "TC JC 7C TS 8S TH AD TD 9D 8D",
         "Cal": "AC QC AS KS JH 9H 8H 7H KD JD"}


def skat(**keys):
    d = {"game": "skat", "players": ["Ann", "Bob", "Cal"], "declarer": "Cal", "contract": "hearts",
         "skat": "7S QD", "discard": "KD QD", "hands": dict(HANDS)}
    for k, v in keys.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def test_the_skat_and_the_discard_count_for_the_declarer():
    rec = record_from_dict(skat(bid=20, play=["7D 9D 7S"]))
    g = rec.game
    assert (g.name, g.trump_suit, g.hand, g.bid) == ("skat", "H", False, 20)
    assert rec.blind == tuple(parse_cards("7S QD")) and rec.bury == tuple(parse_cards("KD QD"))
    st = rec.setup()
    # he plays from his dealt hand plus the skat, less the discard
    assert set(st.hands[2]) == (set(parse_cards(HANDS["Cal"])) | set(parse_cards("7S QD"))) - set(parse_cards("KD QD"))
    assert set(st.bury) == set(parse_cards("KD QD"))


def test_a_hand_game_plays_the_dealt_hand_and_leaves_the_skat_as_dealt():
    rec = record_from_dict(skat(discard=None, hand=True, schneider_announced=True, play=["7D 9D KD"]))
    st = rec.setup()
    assert set(st.hands[2]) == set(parse_cards(HANDS["Cal"]))
    assert set(st.bury) == set(parse_cards("7S QD"))  # the skat as dealt counts for him
    assert rec.game.hand and rec.game.schneider_announced and not rec.game.schwarz_announced


@pytest.mark.parametrize("keys", [
    {"bid": 20},
    {"discard": None, "hand": True, "schwarz_announced": True},
    {"contract": "grand", "discard": None, "ouvert": True},
    {"contract": "null", "discard": None, "hand": True, "ouvert": True, "bid": 59},
    {"contract": "diamonds"},
])
def test_round_trip(keys):
    rec = record_from_dict(skat(**keys))
    d = rec.to_dict()
    assert d["game"] == "skat" and d["contract"] == keys.get("contract", "hearts")
    assert "picker" not in d and "blind" not in d and "bury" not in d and d["skat"] == "7S QD"
    assert ("discard" in d) == (not rec.game.hand)
    again = parse_record(dump_record(rec))
    assert again == rec and again.to_dict() == d


def test_schwarz_announced_is_schneider_announced_and_ouvert_is_a_hand_game_announced_schwarz():
    rec = record_from_dict(skat(discard=None, hand=True, schwarz_announced=True))
    assert rec.game.schneider_announced and rec.game.schwarz_announced
    g = record_from_dict(skat(contract="grand", discard=None, ouvert=True)).game
    assert (g.hand, g.schneider_announced, g.schwarz_announced, g.ouvert) == (True, True, True, True)
    g = record_from_dict(skat(contract="null", ouvert=True)).game  # null ouvert after taking the skat
    assert (g.name, g.ouvert, g.hand, g.schwarz_announced) == ("null", True, False, False)


def test_the_sheepshead_keys_still_read_as_before():
    old = {"game": "skat", "trump": "H", "players": ["Ann", "Bob", "Cal"], "picker": "Cal", "blind": "7S QD",
           "bury": "KD QD", "hands": dict(HANDS)}
    assert record_from_dict(old) == record_from_dict(skat())
    grand = dict(old, game="grand")
    del grand["trump"]
    assert record_from_dict(grand) == record_from_dict(skat(contract="grand"))
    assert record_from_dict(dict(grand, game="grand")).to_dict()["contract"] == "grand"


def test_the_examples_are_written_with_the_skat_keys():
    for name in ("skat-grand-finished", "skat-hearts-finished", "skat-null-finished"):
        text = (ROOT / "examples" / f"{name}.toml").read_text()
        assert 'game = "skat"' in text and "contract = " in text and "declarer = " in text
        assert "picker" not in text and "blind" not in text and "bury" not in text
        rec = load_record(ROOT / "examples" / f"{name}.toml")
        assert rec.state().finished


@pytest.mark.parametrize("keys,msg", [
    ({"skat": "7S QD 8D", "hands": None, "discard": None},
     "skat: 3 cards: the skat is 2 cards"),
    ({"discard": "KD 8D"}, "discard: 8D is in neither the declarer's hand nor the skat (it is in hands.Bob)"),
    ({"contract": "null", "bid": 60}, "bid: 60 is above the value of every null game"),
    ({"contract": "kreuz"}, 'contract: unknown contract "kreuz"'),
    ({"contract": "grand", "schwarz_announced": True}, "schwarz_announced: announced only in a hand game"),
    ({"contract": "clubs", "ouvert": True, "hand": False}, "hand: an ouvert clubs game is always a hand game"),
    ({"discard": None, "hand": True, "schneider_announced": False, "schwarz_announced": True},
     "schneider_announced: false, but schwarz announced is schneider announced too"),
    ({"bid": 265}, "bid: 265 is not a value any Skat game has"),
    ({"trump": "H"}, "trump: a Skat record names its contract"),
    ({"game": "wenz"}, 'game: "wenz", but contract = "hearts"'),
    # a Schafkopf record given a contract by mistake: the game it names is the fault, not its kontra
    ({"game": "sauspiel", "kontra": True}, 'game: "sauspiel", but contract = "hearts"'),
])
def test_bad_skat_records(keys, msg):
    with pytest.raises(RecordError, match="^" + msg.replace("(", r"\(").replace(")", r"\)")):
        record_from_dict(skat(**keys))


def test_skat_keys_are_refused_in_other_games():
    with pytest.raises(RecordError, match="^skat: a Skat record's key"):
        record_from_dict({"game": "sauspiel", "declarer": "1", "called": "AC", "skat": "7S QD"})
    with pytest.raises(RecordError, match="^hand: a Skat declaration, not for wenz"):
        record_from_dict({"game": "wenz", "declarer": "1", "hand": True})
    with pytest.raises(RecordError, match="^bid: a Skat declaration, not for solo"):
        record_from_dict({"game": "solo", "trump": "H", "declarer": "1", "bid": 18})


def test_bettel_ouvert_is_read_and_written_back():
    rec = record_from_dict({"game": "bettel", "declarer": "1", "ouvert": True})
    assert rec.game.ouvert and rec.to_dict()["ouvert"] is True
    assert parse_record(dump_record(rec)) == rec


def test_a_bad_skat_record_is_one_error_line_and_exit_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(dump_record(record_from_dict(skat())).replace('contract = "hearts"', 'contract = "null"\nbid = 70'))
    run = subprocess.run([sys.executable, "-m", "sheepsolve", "show", str(path)], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [f"error: {path}: bid: 70 is above the value of every null game "
                                               f"(59: null ouvert hand)"]


@pytest.mark.parametrize("key,value", [("crack", True), ("recrack", False), ("kontra", True), ("re", False),
                                       ("doublers", 1), ("doublers", 0)])
def test_skat_has_no_doubling_keys(key, value):
    # sheepsolve's Skat has no Kontra, Re or klopfen (docs/RULES.md, "Skat and Bettel"): the keys are refused,
    # whatever their value, naming the key
    with pytest.raises(RecordError, match=f"^{key}: sheepsolve's Skat has no doubling"):
        record_from_dict(skat(**{key: value}))
    with pytest.raises(RecordError, match=f"^{key}: sheepsolve's Skat has no doubling"):
        record_from_dict(dict(skat(contract=None, trump=None, game="grand"), **{key: value}))


@pytest.mark.parametrize("call", ["Ann: klopfen", "Bob: kontra", "Cal: re"])
def test_a_skat_auction_has_no_doubling_calls(call):
    word = call.split(": ")[1]
    with pytest.raises(RecordError, match=f'^auction: call 1 \\("{call}"\\): {word}: sheepsolve\'s Skat has no doubling'):
        record_from_dict(skat(auction=[call]))


def test_a_skat_record_with_kontra_is_one_error_line_and_exit_2(tmp_path):
    path = tmp_path / "kontra.toml"
    path.write_text(dump_record(record_from_dict(skat())) + "kontra = true\n")
    text = path.read_text()
    # the key goes before the first table
    head, sep, rest = text.partition("\n[")
    path.write_text(head + "\nkontra = true\n" + sep + rest.replace("kontra = true\n", ""))
    run = subprocess.run([sys.executable, "-m", "sheepsolve", "show", str(path)], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: kontra: sheepsolve's Skat has no doubling")


def test_a_skat_setup_takes_no_stakes():
    from sheepsolve.record import Record

    rec = record_from_dict(skat())
    with pytest.raises(RecordError, match="^crack: sheepsolve's Skat has no doubling"):
        Record.from_state(rec.setup().start(), players=rec.players, crack=True)
