"""Hands inferred from the play: a record without the hands its play determines gives exactly the results of the
full record, in every game form; where cards stay undetermined the double-dummy commands refuse, naming them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import ROOT
from test_record_fuzz import CONFIGS, random_record

from sheepsolve.analysis import solve_record
from sheepsolve.annotate import annotate_record
from sheepsolve.cli import main
from sheepsolve.record import RecordError, dump_record, parse_record, record_from_dict
from sheepsolve.solver import SolverError

FORMS = [c for c in CONFIGS if c["game"] != "sie"]


def _strip(d: dict, *keys: str) -> dict:
    out = {k: v for k, v in d.items() if k not in keys}
    return out


def _played_out(cfg: dict, seed: int) -> dict:
    """A finished record played out by random legal cards until every seat plays its last card."""
    rnd = random.Random(seed)
    for _ in range(2000):
        d, state = random_record(rnd, cfg)
        if state.finished:
            return d
    raise AssertionError("no finished deal")


@pytest.mark.parametrize("cfg", FORMS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_finished_hand_without_hands_annotates_as_the_full_record(cfg: dict, timeless) -> None:
    rnd_seed = len(json.dumps(cfg))
    d = _played_out(cfg, rnd_seed)
    full = record_from_dict(d)
    assert full.complete and not full.inferred
    # every hand out; in Sheepshead the picker's comes from the play, the bury and the blind
    bare = record_from_dict(_strip(d, "hands"))
    assert bare.complete
    assert set(bare.inferred) == {f"hands.{p}" for p in full.players}
    assert [set(h) for h in bare.hands] == [set(h) for h in full.hands]
    judge = full.game.name == "sheepshead"  # the bury judgement of 3- and 4-hand is the slow part
    a = annotate_record(full, judge_bury=judge).to_dict()
    b = annotate_record(bare, judge_bury=judge).to_dict()
    assert timeless(a) == timeless(b)
    # and written back, the record is what was given
    assert parse_record(dump_record(bare)) == bare and "hands" not in bare.to_dict()
    if full.game.kind == "picker":
        # the bury too: it is the rest of the deck; and then the blind from the picker's dealt hand
        no_bury = record_from_dict(_strip(d, "hands", "bury"))
        assert no_bury.complete and set(no_bury.bury) == set(full.bury)
        hand = {full.players[full.declarer]: d["hands"][full.players[full.declarer]]}
        no_blind = record_from_dict({**_strip(d, "blind", "bury"), "hands": hand})
        assert no_blind.complete and set(no_blind.blind) == set(full.blind)
        assert set(no_blind.inferred) == {"blind", "bury"} | {f"hands.{p}" for p in full.players
                                                               if p != full.players[full.declarer]}


@pytest.mark.parametrize("cfg", FORMS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_one_hand_left_out_is_the_rest_of_the_deck(cfg: dict) -> None:
    rnd = random.Random(7 + len(json.dumps(cfg)))
    d, state = random_record(rnd, cfg)
    while state.finished or len(state.tricks) < 1:
        d, state = random_record(rnd, cfg)
    full = record_from_dict(d)
    for p in full.players:
        part = record_from_dict({**d, "hands": {k: v for k, v in d["hands"].items() if k != p}})
        assert part.complete and part.inferred == (f"hands.{p}",)
        assert solve_record(part, seat=None if full.game.two_sided else p, line=True) | {"seconds": 0} == \
            solve_record(full, seat=None if full.game.two_sided else p, line=True) | {"seconds": 0}


def test_unfinished_hand_is_refused_with_the_count_and_places() -> None:
    d = parse_record((ROOT / "examples" / "sauspiel-midtrick.toml").read_text()).to_dict()
    players = d["players"]
    d["hands"] = {players[0]: d["hands"][players[0]], players[1]: d["hands"][players[1]]}
    rec = record_from_dict(d)
    assert not rec.complete
    counts = rec.undetermined()
    assert set(counts) == {f"hands.{players[2]}", f"hands.{players[3]}"}
    assert all(0 < v < 8 for v in counts.values())  # the cards they played are known
    with pytest.raises(SolverError) as e:
        solve_record(rec)
    msg = str(e.value)
    assert f"no hand for {players[2]}, {players[3]}" in msg
    assert f"{sum(counts.values())} cards not determined by the play" in msg
    for k, v in counts.items():
        assert f"{k} {v}" in msg


def test_show_names_the_inferred_hands(tmp_path: Path, timeless) -> None:
    rec = parse_record((ROOT / "examples" / "sheepshead-jd-finished.toml").read_text())
    d = rec.to_dict()
    del d["hands"]
    path = tmp_path / "bare.toml"
    path.write_text(dump_record(record_from_dict(d)), encoding="utf-8")
    r = CliRunner().invoke(main, ["show", str(path)])
    assert r.exit_code == 0, r.output
    assert "Inferred from the play (not in the record): Ann's hand, Bob's hand, Cal's hand" in r.output
    j = json.loads(CliRunner().invoke(main, ["show", str(path), "--json"]).output)
    full = json.loads(CliRunner().invoke(main, ["show", str(ROOT / "examples" / "sheepshead-jd-finished.toml"),
                                                "--json"]).output)
    assert j["inferred"] == [f"hands.{p}" for p in j["players"]] and full["inferred"] == []
    assert {k: v for k, v in j.items() if k != "inferred"} == {k: v for k, v in full.items() if k != "inferred"}
    # annotate accepts it and gives the full record's answer
    a = json.loads(CliRunner().invoke(main, ["annotate", str(path), "--json"]).output)
    b = json.loads(CliRunner().invoke(main, ["annotate", str(ROOT / "examples" / "sheepshead-jd-finished.toml"),
                                             "--json"]).output)
    assert timeless(a) == timeless(b)


def test_inferred_hand_is_held_to_the_rules() -> None:
    """A completed hand is checked as if given: a revoke by a player whose hand was inferred is an error."""
    d = _played_out({"game": "wenz"}, 3)
    rec = record_from_dict(d)
    state = rec.state()
    n = rec.game.seats
    seat_cards = [(t, i, (tr.leader + i) % n) for t, tr in enumerate(state.tricks) for i in range(n)]
    revokes = []
    for a in range(len(seat_cards)):
        for b in range(a + 1, len(seat_cards)):
            (ta, ia, sa), (tb, ib, sb) = seat_cards[a], seat_cards[b]
            if sa != sb or ta == tb:
                continue
            play = [list(t.cards) for t in state.tricks]
            play[ta][ia], play[tb][ib] = play[tb][ib], play[ta][ia]
            bad = {k: v for k, v in d.items() if k != "hands"}
            bad["play"] = [" ".join(map(str, t)) for t in play]
            try:
                swapped = record_from_dict(bad)
            except RecordError as e:
                revokes.append(str(e))
                continue
            assert swapped.complete  # a legal order of the same cards: every hand still inferred
    assert revokes and all("revoke" in m or "not allowed" in m or "turn" in m for m in revokes), revokes[:3]
    assert any("revoke" in m and "inferred from the play" in m for m in revokes)


def test_a_trick_out_of_order_is_blamed_on_the_play() -> None:
    """Issue 34: in a record without hands, a trick written out of lead order was blamed on the call ("called: AC:
    the declarer holds it himself"); it is the play that is wrong, and the error names its trick."""
    import tomllib

    d = tomllib.loads((ROOT / "examples" / "sauspiel-play-only.toml").read_text(encoding="utf-8"))
    d["play"][0] = "TC KC AC 8C"  # AC is Vroni's, the second card: written third, it becomes the declarer's
    with pytest.raises(RecordError, match=r"^play: trick 1: the hands inferred from the play do not fit: called: "
                                          r"AC: the declarer holds it himself .*from its leader\?"):
        record_from_dict(d)


def test_a_german_record_keeps_its_notation_when_hands_are_inferred() -> None:
    """The inferred hands are written back in ASCII: a German record's trump "S" (Schellen) stays decided."""
    hands = {"Hias": "EU GU HU GA GZ GK G9 G8", "Resi": "SA EA EZ EK E9 E8 E7 H7", "Sepp": "EO GO HO SO SU S10 S9 HA"}
    rec = record_from_dict({"game": "solo", "trump": "S", "declarer": "Sepp", "players": ["Hias", "Resi", "Sepp",
                            "Vroni"], "play": ["EU SA SO SK"], "hands": hands})
    assert rec.inferred == ("hands.Vroni",) and rec.game.trump_suit == "D"
