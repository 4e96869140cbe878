"""Tests of hand records: the bad-record corpus, the good records, round trips and the partial-record rules.

``tests/bad_records/*.toml`` start with ``# expect: <text>``; a ``*.json`` there has its text in the ``.expect``
file of the same name. Each must raise :class:`RecordError` containing that text. ``tests/records/`` holds valid
records (``german_*`` ones need the German card option).
"""

from __future__ import annotations

import dataclasses

import json
import time
import tomllib
from pathlib import Path

import pytest

from sheepsolve.cards import Card, parse_cards
from sheepsolve.engine import Setup
from sheepsolve.record import (
    INFO_KEYS,
    RECORD_KEYS,
    Record,
    RecordError,
    dump_record,
    load_record,
    parse_record,
    record_from_dict,
)

HERE = Path(__file__).parent
BAD = sorted(p for p in (HERE / "bad_records").iterdir() if p.suffix in (".toml", ".json"))
GOOD = sorted(p for p in (HERE / "records").iterdir() if p.suffix in (".toml", ".json"))


def expected(path: Path) -> str:
    if path.suffix == ".json":
        return path.with_suffix(".expect").read_text().strip()
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: <text>'"
    return first[len("# expect: "):]


def load(path: Path) -> Record:
    return load_record(path, german=path.name.startswith("german_"))


# -- the bad-record corpus -------------------------------------------------------------------------------------


def test_corpus_is_large_and_varied():
    assert len(BAD) >= 30
    names = " ".join(p.name for p in BAD)
    for kind in ("jd_", "ca_", "sh3_", "sh4_", "leaster", "sau_", "solo", "wenz", "wenz3_", "solo3_", "ramsch",
                 "short", "partial_", "sie_", ".json"):
        assert kind in names, kind


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_record(path: Path):
    want = expected(path)
    with pytest.raises(RecordError) as info:
        load_record(path)
    msg = str(info.value)
    assert want in msg
    assert msg.startswith(f"{path}: ")  # load_record names the file first


RULE_ERRORS = [p for p in BAD if p.suffix == ".toml" and any(w in expected(p) for w in ("is a revoke", "is not allowed"))]


@pytest.mark.parametrize("path", RULE_ERRORS, ids=lambda p: p.name)
def test_rule_error_found_with_only_the_offenders_hand(path: Path):
    """A partial record keeping only the hand of the player who broke the rule is refused the same way."""
    d = tomllib.loads(path.read_text())
    want = expected(path)
    with pytest.raises(RecordError) as info:
        record_from_dict(d)
    offender = str(info.value).split(" by ", 1)[1].split(" is ", 1)[0]  # "play: trick 1, card 2: AC by Bob is"
    d["hands"] = {offender: d["hands"][offender]}  # the blind and bury stay: a picker's hand stays known
    with pytest.raises(RecordError) as info:
        record_from_dict(d)
    assert want in str(info.value)


# -- good records ----------------------------------------------------------------------------------------------


def test_there_are_good_records_of_every_kind():
    games = {load(p).game.name for p in GOOD}
    assert {"sheepshead", "sheepshead-3", "sheepshead-4", "leaster", "sauspiel", "solo", "wenz", "farbwenz",
            "ramsch"} <= games


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_good_record_round_trips(path: Path):
    rec = load(path)
    toml_text = dump_record(rec)
    again = parse_record(toml_text)
    assert again == rec
    assert dump_record(again) == toml_text  # TOML -> Record -> TOML -> Record is a fixed point
    assert parse_record(dump_record(rec, "json"), "json") == rec
    assert record_from_dict(json.loads(json.dumps(rec.to_dict()))) == rec


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_good_record_replays(path: Path):
    rec = load(path)
    if not rec.complete:
        with pytest.raises(RecordError, match="setup: the record is incomplete"):
            rec.state()
        return
    st = rec.state()
    played = [c for t in rec.play for c in t]
    assert [c for t in st.tricks for c in t.cards] + list(st.trick) == played
    assert sum(len(h) for h in st.hands) + len(played) == rec.game.seats * rec.game.hand_size


# -- reading details -------------------------------------------------------------------------------------------

JD = {
    "game": "sheepshead",
    "players": ["Ann", "Bob", "Cal", "Dee", "Eve"],
    "picker": "Cal",
    "blind": "7D AD",
    "bury": "7D KC",
    "hands": {
        "Ann": "QC 7C 9D JH QH 9C",
        "Bob": "AC KS 8S KD TH 9H",
        "Cal": "QD 7H KC 8H JC TD",
        "Dee": "8C KH QS 8D TS JS",
        "Eve": "7S AH AS TC 9S JD",
    },
    "play": ["QH KD TD 8D JD", "QC 9H QD QS 7S"],
}


def with_(d: dict, **kw) -> dict:
    out = json.loads(json.dumps(d))
    out.update(kw)
    return out


def test_record_fields():
    rec = record_from_dict(JD)
    assert rec.players == ("Ann", "Bob", "Cal", "Dee", "Eve")
    assert rec.declarer == 2 and rec.seat_of("Eve") == 4
    assert rec.hands[0] == tuple(parse_cards("QC 7C 9D JH QH 9C"))
    assert rec.blind == tuple(parse_cards("7D AD")) and rec.bury == tuple(parse_cards("7D KC"))
    assert rec.play[1] == tuple(parse_cards("QC 9H QD QS 7S"))
    assert rec.complete and not rec.alone and rec.called is None
    setup = rec.setup()
    assert isinstance(setup, Setup) and setup.partner == 4  # Eve holds JD
    st = rec.state()
    assert len(st.tricks) == 2 and st.to_move == 0


def test_jack_of_diamonds_alone_is_automatic():
    # Cal picks up JD in the blind: he plays alone, the record need not say so
    d = with_(JD, blind="JD AD", bury="JD KC", play=[])
    d["hands"]["Eve"] = "7S AH AS TC 9S 7D"
    rec = record_from_dict(d)
    assert rec.alone is False and rec.setup().partner is None and rec.setup().team == frozenset({2})
    # an explicit alone = true is kept
    rec = record_from_dict(with_(JD, alone=True, play=[]))
    assert rec.alone and rec.setup().partner is None
    assert parse_record(dump_record(rec)) == rec


def test_called_alone_spellings_are_the_same_record():
    d = tomllib.loads((HERE / "records" / "sheepshead_alone.toml").read_text())
    a = record_from_dict(d)
    d2 = dict(d)
    del d2["called"]
    d2["alone"] = True
    b = record_from_dict(d2)
    d3 = dict(d, alone=True)
    assert a == b == record_from_dict(d3)
    assert a.alone and a.called is None


def test_kontra_re_are_crack_recrack_in_schafkopf():
    d = tomllib.loads((HERE / "records" / "sauspiel.toml").read_text())
    a = record_from_dict(dict(d, kontra=True, re=True))
    b = record_from_dict(dict(d, crack=True, recrack=True))
    c = record_from_dict(dict(d, crack=True, kontra=True, re=True, recrack=True))  # agreeing spellings
    assert a == b == c and a.crack and a.recrack
    assert "kontra = true" in dump_record(a) and "crack" not in dump_record(a)
    assert record_from_dict(dict(d, doublers=2)).doublers == 2


def test_player_references():
    rec = record_from_dict({"game": "sheepshead-3", "picker": 3, "dealer": 3})
    assert rec.players == ("1", "2", "3") and rec.declarer == 2 and rec.seat_of(3) == 2
    with pytest.raises(RecordError, match=r'picker: 3 is not a player \(players: Ann, Bob, Cal\)'):
        record_from_dict({"game": "sheepshead-3", "players": ["Ann", "Bob", "Cal"], "picker": 3})
    with pytest.raises(RecordError, match="picker: must be a player name"):
        record_from_dict({"game": "sheepshead-3", "picker": True})
    with pytest.raises(RecordError, match="players: player 2: the name is empty"):
        record_from_dict({"game": "sheepshead-3", "players": ["A", " ", "C"], "picker": "A"})
    with pytest.raises(RecordError):
        rec.seat_of("Zed")


def test_seats_and_aliases():
    rec = record_from_dict({"game": "leaster", "seats": 4})
    assert rec.game.seats == 4 and rec.players == ("1", "2", "3", "4") and rec.extra == {"seats": 4}
    rec = record_from_dict({"game": "wenz-3", "declarer": "1"})
    assert rec.game.seats == 3 and len(rec.game.deck) == 24
    rec = record_from_dict({"game": "solo-tout", "trump": "h", "declarer": "1"})
    assert rec.game.tout and rec.game.trump_suit == "H"
    assert record_from_dict({"game": "solo-tout", "trump": "H", "declarer": "1", "tout": True}) == rec
    assert parse_record(dump_record(rec)) == rec


def test_rules_round_trip():
    rec = record_from_dict({"game": "sauspiel", "declarer": "1", "called": "AC",
                            "rules": {"preset": "gametwist", "run_min": 3, "tariff_sauspiel": 20}})
    assert rec.game.rules["run_min"] == 3 and rec.game.rules["all_pass_schafkopf"] == "redeal"
    assert rec.to_dict()["rules"] == {"preset": "gametwist", "run_min": 3, "tariff_sauspiel": 20}
    assert parse_record(dump_record(rec)) == rec
    # a switch set to its default is the same game
    assert record_from_dict({"game": "sauspiel", "declarer": "1", "called": "AC", "rules": {"run_min": 4}}) == \
        record_from_dict({"game": "sauspiel", "declarer": "1", "called": "AC"})


def test_informational_keys_are_kept():
    text = (HERE / "records" / "annotated.toml").read_text()
    rec = parse_record(text)
    assert rec.extra["event"] == "Club night"
    assert rec.extra["date"] == "2024-03-01"  # a TOML date, kept as ISO text
    assert rec.extra["annotations"]["trick 2"] == 'Ann leads the "big one"'
    assert set(rec.extra) <= set(INFO_KEYS)
    again = parse_record(dump_record(rec))
    assert again == rec and again.extra == rec.extra


def test_german_cards_need_no_option():
    """Issue 34: a German record needed --german on every command."""
    path = HERE / "records" / "german_sauspiel.toml"
    rec = load_record(path)
    assert rec == load_record(path, german=True)
    assert rec.called == Card.parse("AS") and rec.hands[0][0] == Card.parse("QC")
    assert "AS" in dump_record(rec) and "Sau" not in dump_record(rec)


@pytest.mark.parametrize("trump, cards, suit", [
    ("S", "german", "D"), ("S", "french", "S"), ("Schellen", "french", "D"), ("spades", "german", "S"),
    ("G", "german", "S"), ("Gras", "french", "S"), ("E", "german", "C"), ("Herz", "german", "H"),
])
def test_trump_in_either_notation_decided_by_the_records_cards(trump: str, cards: str, suit: str):
    """Issue 34: trump = "G" and "Gras" were refused, and a Bavarian's trump = "S" (Schellen) silently became
    spades: "S" alone is read in the notation of the record's other cards."""
    hands = {"german": {"1": "EO GO HO SO EU GU HU SU"}, "french": {"1": "QC QS QH QD JC JS JH JD"}}[cards]
    rec = record_from_dict({"game": "solo", "trump": trump, "declarer": "1", "hands": hands})
    assert rec.game.trump_suit == suit


def test_trump_s_without_cards_to_decide_is_refused():
    with pytest.raises(RecordError, match='trump: .S. is Schellen in German cards and spades in French: write '
                                          '"Schellen" or "spades"'):
        record_from_dict({"game": "solo", "trump": "S", "declarer": "1"})
    assert record_from_dict({"game": "solo", "trump": "spades", "declarer": "1"}).game.trump_suit == "S"


def test_partial_records():
    # the picker's view: his hand, the blind and the bury
    d = with_(JD)
    d["hands"] = {"Cal": JD["hands"]["Cal"]}
    rec = record_from_dict(d)
    assert not rec.complete and rec.hands[0] is None and rec.hands[2] is not None
    with pytest.raises(RecordError, match=r"setup: the record is incomplete: no hand for Ann, Bob, Dee, Eve \(16 cards not determined by the "
                                         r"play: hands.Ann 4, hands.Bob 4, hands.Dee 4, hands.Eve 4\)$"):
        rec.setup()
    assert parse_record(dump_record(rec)) == rec
    # a defender's view: no blind, no bury
    d = with_(JD)
    d["hands"] = {"Bob": JD["hands"]["Bob"]}
    del d["blind"], d["bury"]
    rec = record_from_dict(d)
    assert rec.blind is None and rec.bury is None
    with pytest.raises(RecordError, match="no hand for Ann, Cal, Dee, Eve; no blind; no bury"):
        rec.state()
    # a card from an unknown hand is fine unless it is known to be elsewhere
    d["play"] = ["QH KD TD 8D JD", "QC 9H QD QS 7D"]
    assert record_from_dict(d).play[1][-1] == Card.parse("7D")
    d["blind"] = "7D AD"
    with pytest.raises(RecordError, match=r"play: trick 2, card 5: 7D by Eve: 7D is in the blind"):
        record_from_dict(d)


def test_partial_called_ace_keeps_the_partner_rules():
    """Only the partner's hand is known: the called-card rules still hold for him."""
    path = HERE / "bad_records" / "ca_partner_must_play_ace.toml"
    d = tomllib.loads(path.read_text())
    d["hands"] = {"Bob": d["hands"]["Bob"]}
    del d["bury"], d["blind"]
    with pytest.raises(RecordError, match="the called card AS must be played"):
        record_from_dict(d)
    d["play"][-1] = "TS AS"
    rec = record_from_dict(d)
    assert not rec.complete and rec.called == Card.parse("AS")


def test_partial_under_checks():
    d = tomllib.loads((HERE / "records" / "sheepshead_under.toml").read_text())
    d["hands"] = {"Ann": d["hands"]["Ann"]}
    del d["bury"]
    assert record_from_dict(d).under == Card.parse("TC")
    with pytest.raises(RecordError, match="under: TS is in hands.Ann, not in the picker's hand"):
        record_from_dict(dict(d, under="TS"))


def test_every_key_is_documented():
    doc = (HERE.parent.parent / "shared" / "RECORD-FORMAT.md")
    if doc.exists():
        text = doc.read_text()
        for k in ("game", "players", "picker", "blind", "bury", "partner", "called", "under", "trump", "tout",
                  "deck", "crack", "recrack", "doublers", "play", "rules", "hands"):
            assert k in RECORD_KEYS and k in text


def test_load_record_paths(tmp_path: Path):
    with pytest.raises(RecordError, match="cannot read the file"):
        load_record(tmp_path / "missing.toml")
    rec = record_from_dict(JD)
    (tmp_path / "hand.json").write_text(dump_record(rec, "json"))
    (tmp_path / "hand.txt").write_text(dump_record(rec))
    assert load_record(tmp_path / "hand.json") == rec == load_record(str(tmp_path / "hand.txt"))
    (tmp_path / "bad.toml").write_bytes(b"game = \"\xff\"")
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(tmp_path / "bad.toml")


def test_bad_arguments():
    with pytest.raises(RecordError, match='fmt: must be "toml" or "json"'):
        parse_record("game = 'leaster'", "yaml")
    with pytest.raises(RecordError, match="the text must be a string"):
        parse_record(b"game = 'leaster'")  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="record: must be a table"):
        parse_record("[1, 2]", "json")
    with pytest.raises(RecordError, match='fmt: must be "toml" or "json"'):
        dump_record(record_from_dict(JD), "xml")


def test_toml_writer_escapes():
    weird = {"quote\"key": 'a "b" \\ c\n\td\x01\x7f é ♣', "list": [1, 2.5, True, {"x": []}], "empty": {},
             "nested": {"deeper": {"k": -3}}}
    rec = record_from_dict({"game": "leaster", "players": ["A b", "C\"d", "é", "1"], "comment": "x\r\ny",
                            "annotations": weird, "notes": [1e300, -0.0, 5e-324]})
    text = dump_record(rec)
    assert tomllib.loads(text)["annotations"] == weird
    assert parse_record(text) == rec == parse_record(dump_record(rec, "json"), "json")


def partial(**kw) -> dict:
    """JD with only Cal's (the picker's) hand known, changed by ``kw``."""
    d = with_(JD, **kw)
    d["hands"] = {"Cal": JD["hands"]["Cal"]}
    return d


CA = {"game": "sheepshead", "partner": "called-ace", "players": JD["players"], "picker": "Cal", "called": "AH"}

LESS_COMMON = [
    ({1: 2}, "record: keys must be strings, not 1"),
    ({"game": 1.5}, "game: must be a game name (a string), not a number"),
    ({"game": "leaster", "seats": 0}, "seats: must be a number of players, not 0"),
    ({"game": "leaster", "rules": ["run"]}, "rules: must be a table of rule switches, not a list"),
    ({"game": "leaster", "rules": {1: True}}, "rules: keys must be strings, not 1"),
    ({"game": "leaster", "rules": {"preset": ["x"]}}, "rules.preset: unknown preset ['x']"),
    ({"game": "solo", "trump": "", "declarer": "1"}, "trump: unknown suit '': write one of C S H D"),
    ({"game": "leaster", "players": ["A", 2, "C"]}, "players: player 2: a name must be a string, not an integer"),
    ({"game": "leaster", "hands": {"1": "QC", 1: "QS"}}, "hands.1: given twice"),
    ({"game": "leaster", "play": [""]}, "play: trick 1: no cards"),
    ({"game": "leaster", "play": [{"a": 1}]}, "play: trick 1: must be a string of cards or a list of card strings"),
    ({"game": "leaster", "comment": float("nan")}, "comment: nan is not a finite number"),
    ({"game": "leaster", "notes": {"a": {3: 1}}}, "notes.a: keys must be strings, not 3"),
    ({"game": "leaster", "notes": {1, 2}}, "notes: a set is not a value a record can hold"),
    ({"game": "leaster", "event": "x\ud800"}, "event: the text is not valid Unicode"),
    ({"game": "leaster", "players": ["\ud800", "b", "c"]}, "players: player 1: the text is not valid Unicode"),
    ({"game": "leaster", "puzzle": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]},
     "nested too deeply"),
    ({"game": "leaster", "comment": 2**70}, "comment: integer out of range"),
    ({"game": "sheepshead", "picker": "1", "doublers": 1.5}, "doublers: must be a whole number 0 or more, not 1.5"),
    (with_(JD, bury="7D 7D"), "bury: duplicate card 7D (twice in bury)"),
    (partial(bury="AS KC"), "bury: AS is in neither the picker's hand nor the blind"),
    ({k: v for k, v in partial(play=["QH KD TD 8D JD", "QC 9H AS"]).items() if k != "bury"},
     "play: trick 2, card 3: AS by Cal is in neither Cal's hand nor the blind"),
    (partial(play=["QH KD TD 8D JD", "QC 9H AS"]), "play: trick 2, card 3: AS is not in Cal's hand (Cal holds"),
    ({**CA, "hands": {"Ann": JD["hands"]["Ann"]}, "bury": "AH 7S"}, "called: AH: the picker buried it"),
    ({**CA, "hands": {"Ann": JD["hands"]["Ann"]}, "bury": "7H 8H", "under": "8H"}, "under: 8H was buried"),
    ({**CA, "hands": {"Cal": JD["hands"]["Cal"]}, "blind": "7D AD", "under": "AS"},
     "under: AS is in neither the picker's hand nor the blind"),
    ({**CA, "hands": {"Cal": JD["hands"]["Cal"]}, "bury": "7D AD", "under": "AS"},
     "under: AS is not in the picker's hand, and the blind cannot hold it too"),
    ({**CA, "called": "AS", "under": "7S"}, "under: no hand allows calling AS with 7S under"),
    ({**CA, "called": "XX"}, "called: unknown card 'XX'"),
    ({"game": "leaster", "hands": {"1": "QC 7D QC"}}, "hands.1: duplicate card QC (twice in hands.1)"),
    ({"game": "sie", "declarer": "1", "hands": {"2": "QC 7C 9D 7H 8H 9C 8C 9H"}},
     "hands.2: holds QC, but in a sie the declarer holds every Ober and Unter"),
    ({"game": "sie", "declarer": "1", "play": ["QC"]}, "play: a sie is not played out"),
]


@pytest.mark.parametrize("d, want", LESS_COMMON, ids=[w[:40] for _, w in LESS_COMMON])
def test_less_common_errors(d, want):
    with pytest.raises(RecordError) as info:
        record_from_dict(d)
    assert want in str(info.value)


def test_unreadable_text():
    with pytest.raises(RecordError, match=r"^TOML: line 1, column 11 \(comment\): a number of 5,000 digits"):
        parse_record("comment = " + "1" * 5000)
    with pytest.raises(RecordError, match="^JSON: line 1, column 34: nested too deeply"):
        parse_record("[" * 100000 + "]" * 100000, "json")
    with pytest.raises(RecordError, match="record: a path must be a string"):
        load_record(3)  # type: ignore[arg-type]


def test_setup_wraps_rules_errors():
    """The constructor checks nothing; setup() turns the engine's RulesError into a RecordError."""
    rec = record_from_dict(JD)
    broken = dataclasses.replace(rec, bury=tuple(parse_cards("AS KC")))
    with pytest.raises(RecordError, match=r"^setup: bury: AS is not in the picker's hand or the blind"):
        broken.setup()


def test_stakes_round_trip():
    rec = record_from_dict(with_(JD, crack=True, recrack=True, doublers=3))
    assert (rec.crack, rec.recrack, rec.doublers) == (True, True, 3)
    assert parse_record(dump_record(rec)) == rec


# --------------------------------------------------------------------------------------------------------------
# Echoed values are bounded, names without control characters, long lists refused early


def test_huge_values_are_clipped_in_errors(tmp_path: Path, run, assert_input_error) -> None:
    for key in ("game", "trump", "deck", "partner", "picker", "dealer"):
        with pytest.raises(RecordError) as info:
            record_from_dict({"game": "sheepshead", "picker": "1", key: "x" * 10_000_000})
        assert len(str(info.value)) < 1000, key
    huge = "x" * 900_000  # a file under the size limit
    for key, value in [("game", huge), ("trump", huge), ("deck", huge), ("partner", huge),
                       ("picker", huge), ("dealer", huge)]:
        p = tmp_path / "r.json"
        d = {"game": "sheepshead", "picker": "1"}
        d[key] = value
        import json

        p.write_text(json.dumps(d))
        r = run("show", p)
        assert_input_error(r, key)
        assert len(r.output) < 2000, (key, len(r.output))
    p = tmp_path / "cards.toml"
    p.write_text(f'game = "sheepshead"\npicker = "1"\nblind = "{huge}"\n')
    r = run("show", p)
    assert_input_error(r, "blind")
    assert len(r.output) < 2000

@pytest.mark.parametrize("name", ["Ann\nerror: forged", "Ann\rBob", "A\x1b[31mnn", "Ann\u2028Bob", "Ann\x00",
                                  "Ann\u202eboB"])
def test_control_characters_in_names_are_refused(tmp_path: Path, name: str, run, assert_input_error) -> None:
    import json

    p = tmp_path / "r.json"
    p.write_text(json.dumps({"game": "sheepshead-3", "players": [name, "Bob", "Cal"], "picker": "Bob"}))
    assert_input_error(run("show", p), "players: player 1", "control character")

def test_long_names_are_refused() -> None:
    with pytest.raises(RecordError, match="at most 100"):
        record_from_dict({"game": "sheepshead-3", "players": ["A" * 101, "B", "C"], "picker": "B"})
    assert record_from_dict({"game": "sheepshead-3", "players": ["A" * 100, "B", "C"], "picker": "B"})

def test_long_card_lists_and_plays_are_refused_without_reading_them_all() -> None:
    t0 = time.perf_counter()
    with pytest.raises(RecordError, match="hands.1: 100000 cards, more than the deck holds"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "hands": {"1": "AS " * 100_000}})
    with pytest.raises(RecordError, match="blind: 100000 cards"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "blind": ["AS"] * 100_000})
    with pytest.raises(RecordError, match="play: trick 1, card 4: one card too many"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "play": ["AS KS QS JS " + "XX " * 100_000]})
    with pytest.raises(RecordError, match="play: trick 11: the hand is over after 10 tricks"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "play": ["AS KS QS"] * 100_000})
    assert time.perf_counter() - t0 < 5


def test_a_german_records_errors_name_german_cards(tmp_path: Path) -> None:
    """Issue 34: a German record's revoke read "8D by Resi is a revoke: 8D does not follow suit C"."""
    text = (HERE / "records" / "german_sauspiel.toml").read_text(encoding="utf-8")
    text = text.replace('"EA EK E8 EZ"', '"EA EK E8 S7"')  # Dee has Eichel (EZ) but plays S7
    p = tmp_path / "revoke.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(p)
    msg = str(info.value)
    assert "S7 by Dee is a revoke: S7 does not follow Eichel" in msg, msg
    assert "7D" not in msg and "suit C" not in msg
