"""The ``auction`` key of a record (sheepsolve.inference.auction): every call read, checked against the rest of the
record with one error naming the call, written back as read; and the auction the rules imply without it."""

from __future__ import annotations

import pytest

from sheepsolve.cards import Card
from sheepsolve.games import make_game
from sheepsolve.inference.auction import (
    AT_MOST,
    CONTRACT,
    PASS,
    PICK,
    AuctionError,
    ContractCall,
    implied_auction,
    read_auction,
)
from sheepsolve.record import RecordError, dump_record, parse_record

P5 = ("Ann", "Bob", "Cal", "Dee", "Eve")
P4 = ("Ann", "Bob", "Cal", "Dee")

JD = '''
game = "sheepshead"
players = ["Ann", "Bob", "Cal", "Dee", "Eve"]
picker = "Cal"
'''

SAU = '''
game = "sauspiel"
players = ["Ann", "Bob", "Cal", "Dee"]
declarer = "Cal"
called = "AS"
[hands]
Ann = "QC 7C 9D JH QH 9C AC KS"
Bob = "8S KD TH 9H QD 7H KC 8H"
Cal = "JC TD 8C KH QS 8D TS JS"
Dee = "7S AH AS TC 9S JD 7D AD"
'''


def rec(base: str, auction: list[str], extra: str = "") -> object:
    lines = base.strip().split("\n")
    cut = next((i for i, line in enumerate(lines) if line.startswith("[")), len(lines))
    body = lines[:cut] + [f"auction = {auction!r}".replace("'", '"')] + extra.strip().split("\n") + lines[cut:]
    return parse_record("\n".join(body))


# -- Sheepshead ------------------------------------------------------------------------------------------------


def test_sheepshead_auction_read_and_written_back():
    r = rec(JD, ["Ann: pass", "Bob: pass", "Cal: pick", "Dee: crack", "Cal: recrack"], "crack = true\nrecrack = true")
    assert [(c.seat, c.kind) for c in r.auction.calls] == [(0, PASS), (1, PASS), (2, PICK), (3, "crack"),
                                                          (2, "recrack")]
    assert r.auction.given
    again = parse_record(dump_record(r))
    assert again == r and again.auction.to_data(P5) == ["Ann: pass", "Bob: pass", "Cal: pick", "Dee: crack",
                                                        "Cal: recrack"]
    assert parse_record(dump_record(r, "json"), "json") == r


def test_synonyms_are_written_back_in_their_canonical_words():
    """docs/RECORD-FORMAT.md said 'written back as read'; a call given by a synonym or in another case comes back
    in its canonical word (the same calls in the same order), as the document now says."""
    r = rec(JD, ["Ann: Pass", "Bob: PASS", "Cal: pick", "Dee: crack", "Cal: Re-Crack"], "crack = true\nrecrack = true")
    assert r.auction.to_data(P5) == ["Ann: pass", "Bob: pass", "Cal: pick", "Dee: crack", "Cal: recrack"]
    s = rec(SAU, ["Ann: pass", "Bob: Weiter", "Cal: ich spiel", "Dee: weiter", "Cal: Sauspiel as", "Ann: Kontra"],
            "kontra = true")
    assert s.auction.to_data(P4) == ["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter", "Cal: sauspiel AS",
                                     "Ann: kontra"]
    assert parse_record(dump_record(s)) == s


def test_record_without_auction_has_none():
    r = parse_record(JD)
    assert r.auction is None and "auction" not in r.to_dict()


@pytest.mark.parametrize("auction, extra, message", [
    (["Ann: pass", "Cal: pick"], "", 'call 2 ("Cal: pick"): it is Bob\'s turn to pass or pick'),
    (["Ann: pass", "Bob: pick"], "", 'call 2 ("Bob: pick"): the record\'s picker is Cal'),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Dee: pass"], "", 'call 4 ("Dee: pass"): Cal has already picked'),
    (["Ann: pass", "Bob: pass", "Cal: pick"], "crack = true", "the record says crack = true, but nobody says crack"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Dee: crack"], "", 'call 4 ("Dee: crack"): the record says crack = false'),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Cal: crack"], "crack = true", "Cal is on the declaring side"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Dee: recrack"], "crack = true\nrecrack = true",
     "recrack before any crack"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Dee: crack", "Dee: recrack"], "crack = true\nrecrack = true",
     "Dee said crack; the other side answers with recrack"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Cal: blitz"], "", "a blitz needs [rules] blitz = true"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Cal: call AC"], "", "only the called-ace game has a call"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Dee: alone"], "", "only the picker (Cal) says alone"),
    (["Ann: pass", "Bob: pass"], "", "Cal never passes or picks, and nobody picks"),
    (["Ann: pass", "Bob: pass", "Cal: pass", "Dee: pass", "Eve: pass"], "", "every seat passes, but the record's game"),
    (["Ann: pass", "Bob: pass", "Cal: pick", "Dee: kontra"], "", 'unknown call \'kontra\' (a Schafkopf word)'),
    (["Zed: pass"], "", "'Zed' is not a player"),
    (["Ann pass"], "", 'write "PLAYER: CALL"'),
    ([], "", "auction: empty"),
])
def test_sheepshead_errors(auction, extra, message):
    with pytest.raises(RecordError) as info:
        rec(JD, auction, extra)
    text = str(info.value)
    assert text.startswith("auction") and message in text, text
    assert "\n" not in text


def test_not_a_list_and_not_a_string():
    with pytest.raises(RecordError, match=r"auction: must be a list of calls"):
        parse_record(JD + 'auction = "Ann: pass"\n')
    with pytest.raises(RecordError, match=r"auction: call 1: must be a string"):
        parse_record(JD + "auction = [1]\n")


def test_called_ace_call_and_alone_agree_with_the_record():
    base = JD.replace('picker = "Cal"', 'picker = "Cal"\npartner = "called-ace"\ncalled = "AC"')
    r = rec(base, ["Ann: pass", "Bob: pass", "Cal: pick", "Cal: call AC"])
    assert r.auction.calls[-1].card == Card.parse("AC")
    with pytest.raises(RecordError, match=r'call 4 \("Cal: call AH"\): the record\'s call is AC'):
        rec(base, ["Ann: pass", "Bob: pass", "Cal: pick", "Cal: call AH"])
    with pytest.raises(RecordError, match=r"the record's call is AC"):
        rec(base, ["Ann: pass", "Bob: pass", "Cal: pick", "Cal: alone"])
    alone = base.replace('called = "AC"', 'called = "alone"')
    assert rec(alone, ["Ann: pass", "Bob: pass", "Cal: pick", "Cal: alone"]).auction.calls[-1].kind == "alone"


def test_leaster_is_every_seat_passing():
    base = 'game = "leaster"\nplayers = ["Ann", "Bob", "Cal", "Dee", "Eve"]\n'
    r = rec(base, [f"{p}: pass" for p in P5])
    assert [c.kind for c in r.auction.calls] == [PASS] * 5
    with pytest.raises(RecordError, match="a leaster is every seat passing; Eve never passes"):
        rec(base, [f"{p}: pass" for p in P5[:4]])
    with pytest.raises(RecordError, match="a leaster is every seat passing"):
        rec(base, ["Ann: pass", "Bob: pick"])


def test_blitz_needs_both_black_queens_when_the_hand_is_known():
    g = make_game("sheepshead", rules={"blitz": True})
    hands = [None, None, list(map(Card.parse, "QC QS QH 7C 8C 9C".split())), None, None]
    ok = read_auction(["Ann: pass", "Bob: pass", "Cal: pick", "Cal: blitz"], game=g, players=P5, declarer=2,
                      hands=hands, blind=[Card.parse("7D"), Card.parse("8D")],
                      bury=[Card.parse("7D"), Card.parse("8D")])
    assert ok.calls[-1].kind == "blitz"
    with pytest.raises(AuctionError, match="Cal does not hold both black queens"):
        read_auction(["Ann: pass", "Bob: pass", "Cal: pick", "Cal: blitz"], game=g, players=P5, declarer=2,
                     hands=hands, blind=[Card.parse("7D"), Card.parse("8D")],
                     bury=[Card.parse("QS"), Card.parse("8D")])


# -- Schafkopf -------------------------------------------------------------------------------------------------


def test_schafkopf_auction_with_contracts_klopfen_kontra():
    r = rec(SAU, ["Bob: klopfen", "Ann: weiter", "Bob: weiter", "Cal: play", "Dee: play", "Cal: sauspiel AS",
                  "Dee: sauspiel AC", "Ann: kontra"], "doublers = 1\nkontra = true")
    kinds = [(c.seat, c.kind) for c in r.auction.calls]
    assert kinds[0] == (1, "klopfen") and kinds[-1] == (0, "crack")
    assert r.auction.bidding()[2].contract == ContractCall("sauspiel", called=Card.parse("AS"))
    assert r.auction.bidding()[3].contract.label() == "sauspiel AC"
    assert parse_record(dump_record(r)) == r
    assert "Ann: kontra" in dump_record(r) and "Ann: weiter" in dump_record(r)


@pytest.mark.parametrize("auction, extra, message", [
    (["Ann: weiter", "Bob: weiter", "Cal: play"], "", "Dee never says weiter or play"),
    (["Ann: weiter", "Bob: weiter", "Cal: weiter", "Dee: weiter"], "", "every seat says weiter, but the record's game"),
    (["Ann: weiter", "Bob: weiter", "Cal: solo H", "Dee: weiter"], "", "the record's game is sauspiel AS"),
    (["Ann: weiter", "Bob: play", "Cal: play", "Dee: weiter", "Bob: wenz", "Cal: sauspiel AS"], "",
     'call 5 ("Bob: wenz"): it outbids the record\'s game, sauspiel AS of Cal'),
    (["Ann: weiter", "Bob: weiter", "Cal: sauspiel AS", "Dee: sauspiel AD"], "",
     "Dee's hand cannot call AD"),
    (["Ann: play", "Bob: weiter", "Cal: play", "Dee: weiter", "Ann: sauspiel AD"], "",
     "it outbids the record's game"),
    (["Ann: weiter", "Bob: weiter", "Cal: weiter", "Dee: play"], "", "the record's declarer Cal said weiter"),
    (["Bob: klopfen", "Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter"], "",
     "1 klopfen, but the record says doublers = 0"),
    (["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter", "Cal: kontra"], "kontra = true",
     "Cal is on the declaring side"),
    (["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter", "Dee: weiter"], "", "after the contracts only kontra"),
    (["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter", "Bob: solo X"], "", "'X' is not a suit"),
    (["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter", "Bob: bettler"], "", "unknown call 'bettler'"),
    (["Ann: weiter", "Bob: weiter", "Cal: pick", "Dee: weiter"], "", "(a Sheepshead word)"),
    (["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: weiter", "Dee: sauspiel AD"], "", "Dee said weiter"),
    (["Ann: weiter", "Bob: weiter", "Cal: sauspiel KS", "Dee: weiter"], "", "a sauspiel calls a Sau"),
])
def test_schafkopf_errors(auction, extra, message):
    with pytest.raises(RecordError) as info:
        rec(SAU, auction, extra)
    text = str(info.value)
    assert text.startswith("auction") and message in text, text


def test_solo_outbids_and_ties_go_to_the_earlier_seat():
    base = 'game = "solo"\ntrump = "H"\nplayers = ["Ann", "Bob", "Cal", "Dee"]\ndeclarer = "Cal"\n'
    r = rec(base, ["Ann: weiter", "Bob: play", "Cal: play", "Dee: play", "Bob: wenz", "Cal: solo H", "Dee: solo E"])
    assert r.auction.bidding()[3].contract.label() == "solo C"
    with pytest.raises(RecordError, match="outbids"):
        rec(base, ["Ann: weiter", "Bob: play", "Cal: play", "Dee: weiter", "Bob: solo S", "Cal: solo H"])
    with pytest.raises(RecordError, match="outbids"):
        rec(base, ["Ann: weiter", "Bob: weiter", "Cal: play", "Dee: play", "Cal: solo H", "Dee: wenz tout"])


def test_ramsch_is_every_seat_weiter():
    base = 'game = "ramsch"\nplayers = ["Ann", "Bob", "Cal", "Dee"]\n'
    assert [c.kind for c in rec(base, ["Ann: weiter", "Bob: pass", "Cal: weiter", "Dee: weiter"]).auction.calls] \
        == [PASS] * 4
    with pytest.raises(RecordError, match="Bob wishes to play, but the record's game is ramsch"):
        rec(base, ["Ann: weiter", "Bob: play", "Cal: weiter", "Dee: weiter"])


def test_a_name_with_a_colon():
    base = JD.replace('"Ann"', '"A: nn"')
    r = rec(base, ["A: nn: pass", "Bob: pass", "Cal: pick"])
    assert r.auction.calls[0].seat == 0
    assert parse_record(dump_record(r)) == r


# -- implied -----------------------------------------------------------------------------------------------------


def test_implied_sheepshead_and_leaster():
    g = make_game("sheepshead")
    assert [(c.seat, c.kind) for c in implied_auction(g, 3).calls] == [(0, PASS), (1, PASS), (2, PASS), (3, PICK)]
    assert [c.kind for c in implied_auction(g, 0).calls] == [PICK]
    assert [c.kind for c in implied_auction(make_game("leaster", seats=3), None).calls] == [PASS] * 3
    assert not implied_auction(g, 3).given


def test_implied_schafkopf():
    solo = implied_auction(make_game("solo", trump="S"), 2)
    kinds = [(c.seat, c.kind, c.strict) for c in solo.calls]
    assert kinds == [(0, AT_MOST, True), (1, AT_MOST, True), (2, CONTRACT, False), (3, AT_MOST, False)]
    assert solo.calls[2].contract == ContractCall("solo", "S")
    sau = implied_auction(make_game("sauspiel"), 2, called=Card.parse("AD"))
    assert [c.kind for c in sau.calls] == [PASS, PASS, CONTRACT, AT_MOST]
    assert [c.kind for c in implied_auction(make_game("ramsch"), None).calls] == [PASS] * 4


def test_contract_ranks_follow_the_registry():
    assert ContractCall("sauspiel", called=Card.parse("AS")).rank < ContractCall("geier").rank \
        < ContractCall("wenz").rank < ContractCall("solo", "H").rank < ContractCall("sauspiel", tout=False).rank + 10 \
        <= ContractCall("geier", tout=True).rank < ContractCall("sie").rank


def test_bettel_is_a_contract_of_the_auction():
    """Bettel ranks above the sauspiel and below geier, Bettel ouvert above wenz and below solo."""
    from sheepsolve.record import load_record, record_from_dict
    d = load_record("examples/bettel-finished.toml").to_dict()
    ok = record_from_dict(dict(d, auction=["Sepp: weiter", "Vroni: sauspiel AC", "Hias: bettel", "Resi: weiter"]))
    assert ok.auction.to_data(ok.players)[2] == "Hias: bettel"
    with pytest.raises(RecordError, match="it outbids the record's game, bettel of Hias"):
        record_from_dict(dict(d, auction=["Sepp: weiter", "Vroni: wenz", "Hias: bettel", "Resi: weiter"]))
    ouvert = record_from_dict(dict(d, game="bettel-ouvert",
                                   auction=["Sepp: weiter", "Vroni: wenz", "Hias: bettel ouvert", "Resi: weiter"]))
    assert ouvert.game.ouvert
    with pytest.raises(RecordError, match="a wenz is not played ouvert"):
        record_from_dict(dict(d, auction=["Sepp: weiter", "Vroni: weiter", "Hias: wenz ouvert", "Resi: weiter"]))
