"""``sheepsolve import openschafkopf``: positions in openschafkopf's notation against the same positions typed as
records (the game, the call, the play and the hand of the player to move; and suggest's answer on both)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES

from sheepsolve.cli import main
from sheepsolve.commands import Source, suggest
from sheepsolve.importers import NotationError, openschafkopf_record, parse_openschafkopf_cards
from sheepsolve.record import dump_record, load_record, record_from_dict


# written out here from openschafkopf's notation, independently of the importer's tables
SUIT = {"C": "e", "S": "g", "H": "h", "D": "s"}
RANK = {"A": "a", "T": "z", "K": "k", "Q": "o", "J": "u", "9": "9", "8": "8", "7": "7"}
SUIT_WORD = {"C": "eichel", "S": "gras", "H": "herz", "D": "schellen"}


def osk(cards) -> str:
    return " ".join(SUIT[str(c)[1]] + RANK[str(c)[0]] for c in cards)


def rules_of(rec) -> str:
    g = rec.game
    if g.name == "ramsch":
        return "ramsch"
    who = f" von {rec.declarer}"
    if g.name == "sauspiel":
        return f"rufspiel {SUIT_WORD[rec.called.suit]}{who}"
    base = {"solo": "solo", "wenz": "wenz", "geier": "geier", "farbwenz": "wenz", "farbgeier": "geier"}[g.name]
    name = f"{SUIT_WORD[g.trump_suit]}-{base}" if g.trump_suit else base
    return name + (" tout" if g.tout else "") + who


def typed(rec, cut: int) -> tuple[dict, str, str, str]:
    """The record cut after ``cut`` cards, players renamed 0..3, only the hand of the player to move kept; and
    the same position in openschafkopf's notation (rules, hand now, cards on the table)."""
    cards = [c for t in rec.play for c in t][:cut]
    d = rec.to_dict()
    d["players"] = ["0", "1", "2", "3"]
    if rec.declarer is not None:
        d["declarer"] = str(rec.declarer)
    for k in ("comment", "kontra", "re", "event", "date", "hands", "play"):
        d.pop(k, None)
    if cards:
        d["play"] = [" ".join(map(str, cards[i:i + 4])) for i in range(0, len(cards), 4)]
    partial = record_from_dict(d)
    seat = partial.replay.final.to_move
    dealt = rec.hands[seat]
    now = [c for c in dealt if c not in partial.replay.played_by_seat()[seat]]
    d["hands"] = {str(seat): " ".join(map(str, dealt))}
    return d, rules_of(rec), osk(now), osk(cards)


CASES = [("sauspiel-midtrick.toml", 11), ("sauspiel-finished.toml", 6), ("solo-hearts-midtrick.toml", 14),
         ("solo-acorns-finished.toml", 0), ("wenz-finished.toml", 9), ("geier-finished.toml", 13),
         ("farbwenz-leaves-finished.toml", 5), ("farbgeier-bells-finished.toml", 22), ("wenz-tout-finished.toml", 3),
         ("ramsch-finished.toml", 10)]


@pytest.mark.parametrize("name,cut", CASES)
def test_import_gives_the_typed_record(name: str, cut: int) -> None:
    rec = load_record(EXAMPLES / name)
    d, rules, hand, table = typed(rec, cut)
    got = record_from_dict(openschafkopf_record(rules, hand, table))
    want = record_from_dict(d)
    assert got.game == want.game and got.declarer == want.declarer and got.called == want.called
    assert got.play == want.play
    assert [None if h is None else set(h) for h in got.hands] == [None if h is None else set(h) for h in want.hands]
    # and the player's view answers the same
    if name != "ramsch-finished.toml":
        a = suggest(Source.text_of("osk", dump_record(got)), worlds_text="6", seed=4, jobs=1)[1]
        b = suggest(Source.text_of("typed", dump_record(want)), worlds_text="6", seed=4, jobs=1)[1]
        a.pop("seconds", None), b.pop("seconds", None)
        assert a == b


def test_cli_writes_the_record_and_suggests(tmp_path: Path) -> None:
    out = tmp_path / "pos.toml"
    args = ["import", "openschafkopf", "--rules", "rufspiel eichel von 1", "--hand", "eo go ho su gu ha h7",
            "--cards-on-table", "e7 ez ea e9"]
    r = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert r.exit_code == 0, r.output
    rec = load_record(out)
    assert rec.game.name == "sauspiel" and str(rec.called) == "AC" and rec.players[rec.declarer] == "1"
    assert set(map(str, rec.hands[2])) == {"QC", "QS", "QH", "JD", "JS", "AH", "7H", "AC"}
    r = CliRunner().invoke(main, [*args, "--suggest", "--worlds", "5", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["seat"] == "2" and data["worlds"] == 5


@pytest.mark.parametrize("rules,hand,table,message", [
    ("rufspiel eichel von 1", "eo hx", "", 'card "hx": the rank must be one of a z k o u 9 8 7'),
    ("rufspiel eichel von 1", "eo qo", "", 'card "qo": the suit must be one of e g h s'),
    ("rufspiel eichel von 1", "eo eo", "", 'card "eo": given twice'),
    ("rufspiel eichel von 1", "eo", "eo", "also on the table"),
    ("rufspiel herz von 1", "eo", "", "the Herz-Sau cannot be called"),
    ("herz bettel von 1", "eo", "", "a bettel has no suit and no tout"),
    ("wenz ouvert von 1", "eo", "", "only a bettel is played ouvert here"),
    ("solo von 1", "eo", "", "a solo names its trump suit"),
    ("wenz", "eo", "", "name the player who plays it"),
    ("wenz von 4", "eo", "", "the player must be 0, 1, 2 or 3"),
    ("herz gras solo von 0", "eo", "", "names more than one suit"),
    ("herz-solo von 0", "eo go", "", "--hand: 2 cards, but player 0 (to move after the cards on the table) holds 8"),
    ("rufspiel eichel von 0", "eo go ho so eu gu ha ea", "", "called: EA: the declarer holds it himself"),
])
def test_what_cannot_be_mapped_is_refused(rules: str, hand: str, table: str, message: str) -> None:
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        openschafkopf_record(rules, hand, table)
    r = CliRunner().invoke(main, ["import", "openschafkopf", "--rules", rules, "--hand", hand,
                                  "--cards-on-table", table])
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.output


def test_notation_table() -> None:
    assert [str(c) for c in parse_openschafkopf_cards("eo hu sz ga s7 E9")] == ["QC", "JH", "TD", "AS", "7D", "9C"]


# --------------------------------------------------------------------------------------------------------------
# --out


def test_import_out_does_not_replace_a_file(tmp_path: Path, run, assert_input_error) -> None:
    """--out FILE replaced any file without a word (README.md in a probe run)."""
    target = tmp_path / "README.md"
    target.write_text("keep me\n")
    args = ["import", "openschafkopf", "--rules", "wenz von 0", "--hand", "eo go ho so eu gu hu sa", "--out", target]
    assert_input_error(run(*args), "--out", "already exists", "--force")
    assert target.read_text() == "keep me\n"
    r = run(*args, "--force")
    assert r.exit_code == 0, r.output
    assert 'game = "wenz"' in target.read_text()
    link = tmp_path / "link.toml"
    link.symlink_to(tmp_path / "elsewhere.toml")
    assert_input_error(run(*args[:-1], link, "--force"), "symbolic link")
    assert not (tmp_path / "elsewhere.toml").exists()


@pytest.mark.parametrize("words, called", [("0 spielt auf die Blaue", "AS"), ("0 spielt mit der Blauen", "AS"),
                                           ("rufspiel auf die Alte von 2", "AC"),
                                           ("0 spielt auf die Hundsgfickte", "AD")])
def test_sauspiel_said_as_players_say_it(words: str, called: str) -> None:
    """Issue 34: "0 spielt auf die Blaue" was refused, though "mit der" was read."""
    from sheepsolve.importers import parse_openschafkopf_rules

    d = parse_openschafkopf_rules(words)
    assert d["game"] == "sauspiel" and d["called"] == called


def test_bettel_is_imported():
    from sheepsolve.importers import parse_openschafkopf_rules
    assert parse_openschafkopf_rules("bettel von 2") == {"declarer": "2", "game": "bettel"}
    assert parse_openschafkopf_rules("2 spielt Bettel ouvert") == {"declarer": "2", "game": "bettel", "ouvert": True}
    from sheepsolve.importers import openschafkopf_record
    from sheepsolve.record import record_from_dict
    rec = record_from_dict(openschafkopf_record("bettel offen von 1", "eo go ho so eu gu hu su", ""))
    assert rec.game.name == "bettel" and rec.game.ouvert and rec.players[rec.declarer] == "1"
