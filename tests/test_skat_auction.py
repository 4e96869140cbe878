"""A Skat record's ``auction`` in Skat's own words (docs/RECORD-FORMAT.md, "auction", Skat): the bidding (``18``,
``ja``, ``passe``) in the ISkO's order and the declaration, checked against the record and written back as read;
Schafkopf and Sheepshead words refused naming the call and their game, and Skat's words named in their auctions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sheepsolve.games import make_game
from sheepsolve.inference.auction import AuctionError
from sheepsolve.inference.auction import read_auction
from sheepsolve.inference.skat_auction import read_skat_auction
from sheepsolve.record import RecordError, dump_record, load_record, parse_record, record_from_dict

sys.path.insert(0, str(Path(__file__).parent))
from helpers_cli import EXAMPLES, assert_input_error, run  # noqa: E402

GRAND = (EXAMPLES / "skat-grand-finished.toml").read_text(encoding="utf-8")  # Bob plays a grand, not hand


def _grand(auction: list[str], head: str = "") -> str:
    return head + "auction = [" + ", ".join(f'"{c}"' for c in auction) + "]\n" + GRAND


@pytest.mark.parametrize("auction, written", [
    (["Bob: 18", "Ann: ja", "Bob: 20", "Ann: passe", "Cal: passe", "Bob: grand"], None),
    (["Bob: 18", "Ann: JA", "Bob: 20", "Ann: Passe", "Cal: pass", "Bob: Grand"],
     ["Bob: 18", "Ann: ja", "Bob: 20", "Ann: passe", "Cal: passe", "Bob: grand"]),
    (["Bob: 18", "Ann: passe", "Cal: passe"], None),  # the bidding alone
])
def test_a_skat_auction_reads_and_is_written_back_in_skat_words(auction, written):
    rec = parse_record(_grand(auction))
    assert rec.auction.to_data(rec.players) == (written or auction)
    assert "auction = [" + ", ".join(f'"{c}"' for c in written or auction) + "]" in dump_record(rec)
    again = parse_record(dump_record(rec))
    assert again.auction.to_data(again.players) == (written or auction)


def test_the_bidding_winner_must_be_the_declarer():
    with pytest.raises(RecordError, match="^auction: Cal wins the bidding, but the record's declarer is Bob$"):
        parse_record(_grand(["Bob: passe", "Cal: 18", "Ann: passe"]))


@pytest.mark.parametrize("auction, declarer, bid", [
    (["Bob: 18", "Ann: ja", "Bob: passe", "Cal: 20", "Ann: ja", "Cal: 22", "Ann: passe"], "Cal", 22),
    (["Bob: 18", "Ann: ja", "Bob: passe", "Cal: passe"], "Ann", 18),
    (["Bob: passe", "Cal: passe", "Ann: 18"], "Ann", 18),  # Vorhand bids alone
    (["Bob: passe", "Cal: 23", "Ann: passe", "Cal: hearts"], "Cal", 23),
])
def test_the_bidding_goes_as_the_isko_has_it(auction, declarer, bid):
    players = ("Ann", "Bob", "Cal")
    game = make_game("skat", trump="H", bid=bid) if auction[-1].endswith("hearts") else make_game("grand", bid=bid)
    a = read_skat_auction(auction, game=game, players=players, declarer=players.index(declarer))
    assert a.to_data(players) == auction
    for wrong in set(players) - {declarer}:
        with pytest.raises(AuctionError, match=f"^auction: {declarer} wins the bidding, but the record's declarer "
                                               f"is {wrong}$"):
            read_skat_auction(auction, game=game, players=players, declarer=players.index(wrong))
    # the other games' reader does not take a Skat auction for a Schafkopf one (it crashed on one)
    with pytest.raises(AuctionError, match="a Skat auction is read in Skat's words"):
        read_auction(auction, game=game, players=players, declarer=players.index(declarer))


@pytest.mark.parametrize("auction, message", [
    (["Ann: 18"], 'auction: call 1 ("Ann: 18"): it is Bob\'s turn to bid (18 or more) or passe'),
    (["Bob: 18", "Cal: ja"], 'auction: call 2 ("Cal: ja"): it is Ann\'s turn to answer 18: ja or passe'),
    (["Bob: 18", "Ann: ja", "Bob: 18"], 'auction: call 3 ("Bob: 18"): 18 is not above the bid said before, 18'),
    (["Bob: 19"], 'auction: call 1 ("Bob: 19"): 19 is not a value any Skat game has, so no bid (bids run 18, '
                  "20, 22, 23, 24, ...; the next above is 20)"),
    (["Bob: 18", "Ann: passe"], "auction: the bidding does not end: it is Cal's turn to bid (above 18) or passe"),
    (["Bob: passe", "Cal: passe", "Ann: passe"],
     "auction: every seat passes, but the record's game is grand declared by Bob (all passing: the cards are dealt "
     "again)"),
    (["Bob: 18", "Ann: passe", "Cal: passe", "Ann: grand"], 'auction: call 4 ("Ann: grand"): only the declarer '
                                                             "(Bob) declares"),
    (["Bob: 18", "Ann: passe", "Cal: passe", "Bob: hearts"], 'auction: call 4 ("Bob: hearts"): the record\'s '
                                                              "contract is grand, not hearts"),
    (["Bob: 18", "Ann: passe", "Cal: passe", "Bob: grand hand"],
     'auction: call 4 ("Bob: grand hand"): hand is declared, but the record says hand = false'),
    (["Bob: 18", "Ann: passe", "Cal: passe", "Bob: grand", "Bob: 20"],
     'auction: call 5 ("Bob: 20"): the bidding is over (Bob won it): only the declaration follows'),
    (["Bob: 18", "Ann: passe", "Cal: passe", "Bob: grand", "Bob: Grand"],
     'auction: call 5 ("Bob: Grand"): grand is declared twice (the declarer names one contract)'),
    (["Bob: 18", "Ann: passe", "Cal: passe", "Bob: grand schneider"],
     'auction: call 4 ("Bob: grand schneider"): schneider_announced: announced only in a hand game'),
])
def test_a_skat_auction_out_of_order_is_refused_naming_the_call(auction, message):
    with pytest.raises(RecordError) as e:
        parse_record(_grand(auction))
    assert str(e.value).startswith(message), str(e.value)


def test_the_last_bid_must_be_the_records_bid():
    with pytest.raises(RecordError, match="^auction: the bidding ends at 20, but the record says bid = 24$"):
        parse_record(_grand(["Bob: 18", "Ann: ja", "Bob: 20", "Ann: passe", "Cal: passe"], "bid = 24\n"))
    assert parse_record(_grand(["Bob: 18", "Ann: ja", "Bob: 24", "Ann: passe", "Cal: passe"], "bid = 24\n"))


def test_a_hand_game_is_declared_with_what_the_record_announces():
    head = "hand = true\nschneider_announced = true\n"
    text = _grand(["Bob: 18", "Ann: passe", "Cal: passe", "Bob: hand", "Bob: grand schneider"], head)
    text = text.replace('discard = "AH KD"\n', "").split("play = [")[0] + "\n[hands]" + text.split("[hands]")[1]
    rec = parse_record(text)
    assert rec.auction.to_data(rec.players)[-2:] == ["Bob: hand", "Bob: grand schneider"]
    short = text.replace('"Bob: grand schneider"', '"Bob: grand"')
    with pytest.raises(RecordError, match=r'call 5 \("Bob: grand"\): the record says schneider_announced = '
                                          "true, but the declaration does not say schneider"):
        parse_record(short)


@pytest.mark.parametrize("call, game", [("weiter", "Schafkopf"), ("play", "Schafkopf"), ("sauspiel AS", "Schafkopf"),
                                        ("wenz", "Schafkopf"), ("pick", "Sheepshead"), ("blitz", "Sheepshead"),
                                        ("call AC", "Sheepshead"), ("crack", "Sheepshead")])
def test_schafkopf_and_sheepshead_calls_in_a_skat_auction_are_named(tmp_path, call, game):
    path = tmp_path / "skat.toml"
    path.write_text(_grand([f"Bob: {call}"]), encoding="utf-8")
    assert_input_error(run("show", path), f'auction: call 1 ("Bob: {call}"): {call!r} is a {game} call: Skat calls '
                                          "are passe, ja, a bid (18, 20, 22, 23, ...)")


def test_a_skat_auction_is_no_crash_on_the_command_line(tmp_path):
    """Schafkopf's words in a Skat auction crashed with an AssertionError (the Schafkopf check found no contract)."""
    path = tmp_path / "skat.toml"
    path.write_text(_grand(["Ann: weiter", "Bob: play", "Cal: weiter"]), encoding="utf-8")
    for command in (["show", path], ["suggest", path, "--at", "2.1", "--worlds", 2]):
        assert_input_error(run(*command), "'weiter' is a Schafkopf call")


@pytest.mark.parametrize("name, call", [("auction_sheepshead", "passe"), ("auction_sheepshead", "18"),
                                        ("auction_sauspiel", "passe"), ("auction_sauspiel", "grand"),
                                        ("auction_sauspiel", "18"), ("auction_sauspiel", "karo hand")])
def test_skat_words_in_other_auctions_are_named(name, call):
    src = Path(__file__).parent / "records" / f"{name}.toml"
    rec = load_record(src)
    first = rec.auction.to_data(rec.players)[0]
    player = first.rsplit(":", 1)[0]
    text = src.read_text(encoding="utf-8").replace(f'"{first}"', f'"{player}: {call}"', 1)
    with pytest.raises(RecordError, match=r"^auction: call 1 .* \(a Skat word\): (Sheepshead|Schafkopf) calls are"):
        parse_record(text)


def test_the_skat_no_doubling_calls_keep_their_message():
    d = {"game": "skat", "players": ["Ann", "Bob", "Cal"], "declarer": "Cal", "contract": "hearts",
         "auction": ["Bob: kontra"]}
    with pytest.raises(RecordError, match='^auction: call 1 \\("Bob: kontra"\\): kontra: sheepsolve\'s Skat has no '
                                          "doubling"):
        record_from_dict(d)


def test_the_skat_words_other_auctions_name_are_the_skat_auctions_own():
    from sheepsolve.inference import skat_auction
    from sheepsolve.skat_declaration import SKAT_WORDS

    own = set(skat_auction._CONTRACT_WORDS) | set(skat_auction._FLAGS) | set(skat_auction._SIMPLE)
    assert SKAT_WORDS == own - {"pass"}  # "pass" is Sheepshead's and Schafkopf's too
