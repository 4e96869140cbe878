"""Golden positions: solved values that always assert.

``tests/golden/positions.json`` holds positions of every game form (mid-hand, mid-trick and a few full deals)
with their values and the value of every legal card. The file is rewritten only with ``pytest --regen-golden``,
which checks every value against the memoised reference minimax before writing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sheepsolve.cards import Card, parse_cards
from sheepsolve.deals import game_forms, random_position, random_setup
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.reference import reference_value_memo
from sheepsolve.solver import Solver

GOLDEN = Path(__file__).parent / "golden" / "positions.json"


def _game_kwargs(g) -> dict:
    kw = {"trump": g.trump_suit, "deck": "short" if len(g.deck) == 24 else "long", "seats": g.seats}
    if g.tout:
        kw["tout"] = True
    if g.name == "sheepshead":
        kw["partner"] = g.partner
    default = make_game(g.name, **kw).rules
    rules = {k: v for k, v in g.rules.items() if default.get(k) != v}
    if rules:
        kw["rules"] = rules
    return {k: v for k, v in kw.items() if v is not None}


def _entry(st: Setup, state, seat, tricks) -> dict:
    g = st.game
    dealt = [sorted(h) for h in st.hands]
    if g.kind == "picker":
        dealt[st.declarer] = sorted((set(st.hands[st.declarer]) | set(st.bury)) - set(st.blind))
    return {
        "game": g.name, "make": _game_kwargs(g), "dealt": [" ".join(map(str, h)) for h in dealt],
        "blind": " ".join(map(str, st.blind)), "bury": " ".join(map(str, st.bury)), "declarer": st.declarer,
        "called": str(st.called) if st.called is not None else None,
        "under": str(st.under) if st.under is not None else None,
        "alone": bool(g.kind == "picker" and g.partner == "called-ace" and st.called is None),
        "play": [str(c) for t in state.tricks for c in t.cards] + [str(c) for c in state.trick],
        "seat": seat, "tricks": tricks,
    }


def _rebuild(e: dict):
    g = make_game(e["game"], **e["make"])
    st = Setup.create(g, [parse_cards(h) for h in e["dealt"]], declarer=e["declarer"],
                      blind=parse_cards(e["blind"]), bury=parse_cards(e["bury"]),
                      called=Card.parse(e["called"]) if e["called"] else None,
                      under=Card.parse(e["under"]) if e["under"] else None, alone=e["alone"])
    state = st.start().play_cards(parse_cards(" ".join(e["play"])))
    obj = Objective.for_setup(st, seat=e["seat"], tricks=e["tricks"])
    return state, obj


def _generate() -> list[dict]:
    out = []
    rng = random.Random(20261129)
    for g in game_forms():
        for left, tricks in [(3, False), (4 if (g.seats < 5 and g.kind != "ramsch") else 3, False), (2, True)]:
            st = random_setup(g, rng)
            seat = None if g.two_sided else rng.randrange(g.seats)
            state = random_position(st, rng, cards_left=left, extra=rng.randrange(g.seats))
            out.append(_entry(st, state, seat, tricks))
    for name, kw in [("sheepshead", {}), ("sheepshead", {"partner": "called-ace"}), ("sauspiel", {"deck": "short"}),
                     ("sheepshead-3", {})]:
        g = make_game(name, **kw)
        st = random_setup(g, rng)
        out.append(_entry(st, st.start(), None, False))
    solver = Solver()
    for e in out:
        state, obj = _rebuild(e)
        e["value"] = solver.value(state, obj)
        e["cards"] = {str(c): v for c, v in solver.card_values(state, obj).items()}
        if len(state.hands[0]) <= 5 and len(state.hands[0]) * state.game.seats <= 24:
            assert e["value"] == reference_value_memo(state, obj), e
        else:  # full 5-hand and 3-hand deals: minutes for the reference; check against fresh child solves
            maxing = (state.to_move in obj.team) == obj.maximize
            kids = [Solver().value(state.play(c), obj) for c in state.legal()]
            assert e["value"] == (max(kids) if maxing else min(kids)), e
    return out


def test_golden_positions(request):
    if request.config.getoption("--regen-golden"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(_generate(), indent=1) + "\n")
    entries = json.loads(GOLDEN.read_text())
    assert len(entries) >= 60
    solver = Solver()
    for e in entries:
        state, obj = _rebuild(e)
        assert solver.value(state, obj) == e["value"], e
        assert {str(c): v for c, v in solver.card_values(state, obj).items()} == e["cards"], e


@pytest.mark.parametrize("bits", [2, 6])
def test_golden_with_tiny_tables(bits):
    """A table that evicts all the time gives the same answers."""
    solver = Solver(table_bits=bits)
    for e in json.loads(GOLDEN.read_text())[::4]:
        state, obj = _rebuild(e)
        assert solver.value(state, obj) == e["value"], e
