"""A Sheepshead ``blitz`` in a record's auction is a fact the table saw: the picker holds QC and QS at the first
lead. Every command that deals the hidden cards keeps only the worlds that give him both (docs/RULES.md, "Shown in
the auction"), whatever ``--inference`` says and with ``--worlds all`` exactly; a record whose blitz cannot be
so is refused naming the call.

The deal: Ann picks the blind QC QS, buries KC KH and calls AH; the records give every hand (``FULL``), or only
Bob's (``PARTIAL``), or play four tricks with Ann keeping both queens (``LATE``).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from sheepsolve.cards import Card
from sheepsolve.record import RecordError, load_record, parse_record
from sheepsolve.worlds import Knowledge, WorldSampler, WorldsError

sys.path.insert(0, str(Path(__file__).parent))
from helpers_cli import assert_input_error, run  # noqa: E402

QC, QS = Card.parse("QC"), Card.parse("QS")
HEAD = '''game = "sheepshead"
partner = "called-ace"
players = ["Ann", "Bob", "Cal", "Dee", "Eve"]
picker = "Ann"
called = "AH"
'''
BLITZ = 'auction = ["Ann: pick", "Ann: call AH", "Ann: blitz"]\n'
NO_BLITZ = 'auction = ["Ann: pick", "Ann: call AH"]\n'
RULES = "\n[rules]\nblitz = true\n"
HANDS = {"Ann": "KC KH JH 7H TD 7D", "Bob": "7C AS JS AH QH 8H", "Cal": "TC 8C KS TH KD JD",
         "Dee": "AC 9C TS 7S AD QD", "Eve": "JC 9S 8S 9H 9D 8D"}
LATE_PLAY = ["7D QH KD QD 8D", "AH TH TS 9H 7H", "AS KS 7S 9S JH", "TD JS JD AD JC", "9D QC"]


def _record(auction: str = BLITZ, *, play: list[str] = ("TD",), hands: dict[str, str] | None = None,
            picker_cards: bool = False, rules: bool = True) -> str:
    text = HEAD + auction + ('blind = "QC QS"\nbury = "KC KH"\n' if picker_cards else "")
    text += "play = [" + ", ".join(f'"{t}"' for t in play) + "]\n" + (RULES if rules else "")
    hands = {"Bob": HANDS["Bob"]} if hands is None else hands
    return text + "\n[hands]\n" + "".join(f'{p} = "{h}"\n' for p, h in hands.items())


def _write(tmp_path: Path, text: str, name: str = "rec.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _keys(worlds) -> set:
    return {w.key() for w in worlds}


# -- the worlds ------------------------------------------------------------------------------------------------

def test_the_worlds_of_a_blitz_are_the_worlds_giving_the_picker_both_black_queens_exactly():
    """--worlds all's worlds: exactly those of the same record without the fact that give Ann the queen she kept
    (she played QC on the fifth trick); the fact removed, some worlds give QS to another seat."""
    rec = parse_record(_record(play=LATE_PLAY, hands=HANDS, picker_cards=True))
    k = Knowledge.from_record(rec, "Bob")
    assert [(f.seat, f.cards, f.call) for f in k.facts] == [(0, (QC, QS), "blitz")]
    shown = WorldSampler(k).all_worlds()
    free = WorldSampler(dataclasses.replace(k, facts=())).all_worlds()
    assert any(QS not in w.setup.hands[0] for w in free)
    assert _keys(shown) == {w.key() for w in free if QS in w.setup.hands[0]}
    assert len(shown) == WorldSampler(k).count() < len(free)


@pytest.mark.parametrize("inference", ["auction", "none"])
def test_suggest_gives_the_picker_both_black_queens_in_every_world(tmp_path, inference):
    path = _write(tmp_path, _record())
    r = run("suggest", path, "--worlds", 30, "--seed", 3, "--inference", inference, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["beliefs"]["Ann"]["cards"]["QC"] == 1.0 and d["beliefs"]["Ann"]["cards"]["QS"] == 1.0
    assert all(d["beliefs"][p]["cards"]["QC"] == 0.0 for p in ("Cal", "Dee", "Eve"))
    assert d["assumes"].endswith("; Ann showed QC QS (blitz)"), d["assumes"]
    assert d["constraints"] == []  # no belief of the player's: the --constrain texts only
    text = run("suggest", path, "--worlds", 8, "--inference", inference)
    assert "Ann showed Q♣ Q♠ (blitz)" in text.output, text.output


def test_suggest_worlds_all_and_constrain_keep_the_blitz(tmp_path):
    path = _write(tmp_path, _record(play=LATE_PLAY[:4], hands=HANDS, picker_cards=True))
    r = run("suggest", path, "--seat", "Eve", "--worlds", "all", "--inference", "none",
            "--constrain", "Cal: trumps >= 0", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["exact"] and d["beliefs"]["Ann"]["cards"] == {"QC": 1.0, "QS": 1.0, "AC": 0.0}
    assert d["assumes"] == "every deal that fits the play is equally likely; Ann showed QC QS (blitz); " \
                           "Cal: trumps >= 0"
    assert d["constraints"] == ["Cal: trumps >= 0"]


def test_without_a_blitz_call_the_black_queens_go_anywhere(tmp_path):
    """No blitz in the auction (or no auction): nothing was shown, the worlds deal the black queens freely."""
    for auction in (NO_BLITZ, ""):
        rec = parse_record(_record(auction))
        k = Knowledge.from_record(rec, "Bob")
        assert k.facts == ()
        worlds = WorldSampler(k).sample(40, seed=1)
        assert any(QC not in w.setup.hands[0] for w in worlds)


def test_annotate_view_player_deals_every_decision_the_blitz(tmp_path, monkeypatch):
    from sheepsolve.player import annotate as player_annotate

    seen = []
    real = player_annotate._Pools.worlds_for

    def spy(self, k, label):
        got = real(self, k, label)
        seen.extend(w for w in got[0] if k.seat != 0)
        return got

    monkeypatch.setattr(player_annotate._Pools, "worlds_for", spy)
    path = _write(tmp_path, _record(play=LATE_PLAY[:2], hands=HANDS, picker_cards=True))
    r = run("annotate", path, "--view", "player", "--worlds", 6, "--inference", "none", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["view"]["assumes"].endswith("; Ann showed QC QS (blitz)")
    assert seen and all({QC, QS} <= w.setup.hands[0] for w in seen)


def test_explore_view_gives_the_picker_both_black_queens(tmp_path):
    from sheepsolve.explore.seat_view import view_at
    from sheepsolve.explore.session import Explorer

    ex = Explorer(parse_record(_record(play=[], hands=HANDS, picker_cards=True)), "rec")
    line = ex.main + tuple(Card.parse(c) for c in ("7D",))
    v = view_at(ex, line, worlds=12, seed=2, inference="none")
    assert v["beliefs"]["QC"] == {"Ann": 1.0} and v["beliefs"]["QS"] == {"Ann": 1.0}
    assert v["assumes"].endswith("; Ann showed QC QS (blitz)")


# -- records whose blitz cannot be -----------------------------------------------------------------------------

@pytest.mark.parametrize("hands, extra, words", [
    ({"Bob": HANDS["Bob"], "Cal": "TC 8C KS TH KD QC"}, "", ["Cal holds QC", 'call 3 ("Ann: blitz")']),
    ({"Bob": HANDS["Bob"]}, 'bury = "QS KH"\n', ["QS is buried", 'call 3 ("Ann: blitz")']),
])
def test_a_black_queen_elsewhere_refuses_the_blitz(tmp_path, hands, extra, words):
    path = _write(tmp_path, extra + _record(hands=hands))
    assert_input_error(run("show", path), "auction:", *words)


def test_a_black_queen_played_by_another_seat_refuses_the_blitz(tmp_path):
    path = _write(tmp_path, _record(play=["TD QH QC"]))
    assert_input_error(run("suggest", path), 'auction: call 3 ("Ann: blitz"): Cal plays QC in trick 1: Ann cannot '
                                             "show both black queens (QC QS)")
    with pytest.raises(RecordError, match="Cal plays QC in trick 1"):
        parse_record(_record(play=["TD QH QC"]))


def test_a_blitz_with_no_deal_left_is_named(tmp_path):
    """A fact no deal meets (here made so by hand: the record reader refuses such records) is named with the
    record's inconsistency, not taken for a --constrain."""
    from sheepsolve.worlds import Shown

    rec = parse_record(_record(play=["TD QH"]))
    k = Knowledge.from_record(rec, "Bob", upto=1)
    k = dataclasses.replace(k, facts=(Shown(0, (Card.parse("QH"),), "blitz"),))  # Bob holds QH himself
    with pytest.raises(WorldsError, match=r"^no deal of the unseen cards fits the play seen from Bob's seat and "
                                          r"Ann showed QH \(blitz\): the record is inconsistent$"):
        WorldSampler(k)


@pytest.mark.parametrize("inference", ["auction", "none"])
def test_the_blitz_holds_before_the_picker_plays_a_card(tmp_path, inference):
    """Bob to move before the picker Cal has played: the weighted worlds' picked-cards proposal (the picker's cards
    dealt by their trumps in closed form, sheepsolve.proposal) is not used when a fact keeps cards in his hand,
    so every world gives Cal both black queens there too."""
    text = ('game = "sheepshead"\nplayers = ["Ann", "Bob", "Cal", "Dee", "Eve"]\npicker = "Cal"\n'
            'auction = ["Ann: pass", "Bob: pass", "Cal: pick", "Cal: blitz"]\nplay = ["7C"]\n' + RULES +
            '\n[hands]\nBob = "7H AS JS AH QH 8H"\n')
    r = run("suggest", _write(tmp_path, text), "--worlds", 30, "--inference", inference, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["beliefs"]["Cal"]["cards"]["QC"] == 1.0 and d["beliefs"]["Cal"]["cards"]["QS"] == 1.0
