"""The explored hand from a player's own seat: the player's view of the mover (``sheepsolve suggest``'s engine),
the card the engine plays for a seat, and a played hand's decisions judged as ``annotate --view player``
judges them.

Every answer is about the record with the line as its play (:meth:`Explorer.record_at`), so the player's view
at a position is exactly ``sheepsolve suggest`` of that record with the same ``--worlds``, ``--seed`` and
``--inference`` (the worlds weighted by the auction, by default, as suggest's), and the judgement of a hand
exactly ``annotate --view player`` of it. The work reports its progress world by world
(and stops there when its job is cancelled).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import Card
from ..player.suggest import player_view
from ..record import position_refusal
from ..weighting import assumption, pick_worlds, world_weights
from ..worlds import Knowledge, WorldsError
from .session import Explorer, line_label

__all__ = ["view_at", "engine_card", "judge_hand", "Progress"]

Progress = Callable[[int, int], None]


def _knowledge(ex: Explorer, line: Sequence[Card], inference: str) -> Knowledge:
    rec = ex.record_at(line)
    if rec.position is not None:
        raise WorldsError(position_refusal("view"))
    k = Knowledge.from_record(rec)
    if k.to_move is None:
        raise WorldsError("the hand is over: there is no card to judge")
    return dataclasses.replace(k, weights=world_weights(rec, inference))


def view_at(ex: Explorer, line: Sequence[Card], *, worlds: int, seed: int, progress: Progress | None = None,
            race: bool = True, inference: str = "auction") -> dict[str, Any]:
    """The mover's view of the position after ``line``: ``suggest --json``'s fields (every legal card's mean,
    standard error, ``vs_best``, P(61+), payment; ``best``; the worlds' weights as ``--inference`` asks) and
    ``beliefs``: for every card the mover cannot see, the (weighted) share of the worlds in which each other player
    holds it now (``"bury"`` / ``"blind"`` where it may lie there); ``assumes_text``: ``assumes`` in the page's card
    style."""
    k = _knowledge(ex, line, inference)
    given, weights, exact = pick_worlds(k, worlds, seed)
    actual = ex.state(line) if ex.setup is not None else None
    v = player_view(k, worlds, seed=seed, jobs=1, given=given, exact=exact, weights=weights, actual=actual,
                    progress=progress, race=race)
    data = v.to_dict()
    names = ex.record.players
    ws = [1.0] * len(given) if weights is None else list(weights)
    counts: dict[Card, dict[str, list[float]]] = {}
    mine = set(given[0].state.hands[k.seat]) if given else set()
    for w, x in zip(given, ws):
        for s, h in enumerate(w.state.hands):
            if s == k.seat:
                continue
            for c in h:
                counts.setdefault(c, {}).setdefault(names[s], []).append(x)
        hidden_bury = [] if k.bury is not None else list(w.setup.bury)
        for where, cards in (("bury", hidden_bury), ("blind", list(w.setup.blind) if ex.game.kind == "leaster" else [])):
            for c in cards:
                if c not in mine:
                    counts.setdefault(c, {}).setdefault(where, []).append(x)
    total = math.fsum(ws)
    beliefs: dict[str, dict[str, float]] = {}
    for c in ex.game.sort_cards(counts):
        shares = {who: math.fsum(xs) / total for who, xs in counts[c].items()}
        beliefs[str(c)] = {who: round(p, 4) for who, p in sorted(shares.items(), key=lambda kv: -kv[1])}
    data["beliefs"] = beliefs
    data["assumes_text"] = assumption(k, ex.style)  # the page's words for what the worlds assume
    data["top"] = str(v.top)
    data["line"] = [str(c) for c in line]
    return data


def engine_card(ex: Explorer, line: Sequence[Card], *, worlds: int, seed: int,
                progress: Progress | None = None, inference: str = "auction") -> dict[str, Any]:
    """The card the engine plays for the player to move after ``line``: the best card of the player's view, as
    ``suggest`` picks it (its best mean, over worlds weighted as ``inference`` asks), with the figures behind
    it."""
    k = _knowledge(ex, line, inference)
    v = player_view(k, worlds, seed=seed, jobs=1, progress=progress)
    top = v.top
    return {"card": str(top), "seat": ex.record.players[k.seat], "mean": v.cards[top].mean,
            "best": [str(c) for c in v.best], "worlds": v.worlds, "line": [str(c) for c in line]}


def judge_hand(ex: Explorer, line: Sequence[Card], seat: int, *, since: int, worlds: int, seed: int,
               progress: Progress | None = None, inference: str = "auction") -> dict[str, Any]:
    """The finished hand ``line`` judged as ``annotate --view player`` judges it (double dummy and from each
    mover's own view), and the decisions of ``seat`` from card ``since`` on (the cards the user played)."""
    from ..annotate import annotate_record
    from ..solver import Solver
    from ..player.annotate import annotate_view

    rec = ex.record_at(line)
    if rec.position is not None:
        raise WorldsError(position_refusal("annotate"))
    if not ex.state(line).finished:
        raise WorldsError("the hand is not over yet")
    ann = annotate_record(rec, solver=Solver(), judge_bury=False)
    ann = annotate_view(ann, worlds=worlds, seed=seed, jobs=1, progress=progress, inference=inference, source=rec)
    mine = []
    for d in ann.decisions:
        if d.seat != seat or d.index < since:
            continue
        v = d.view
        mine.append({"at": line_label(line[:d.index + 1], ex.game.seats), "card": str(d.card), "forced": d.forced,
                     "dd_cost": d.cost, "dd_best": [str(c) for c in d.best],
                     "cost": None if v is None else v.cost, "cost_stderr": None if v is None else v.cost_stderr,
                     "best": [] if v is None else [str(c) for c in v.best], "error": bool(v is not None and v.error),
                     "values": {} if v is None else {str(c): x for c, x in v.values.items()}})
    player = next(p for p in ann.summary.players if p.seat == seat)
    pv = player.view
    return {"seat": ex.record.players[seat], "decisions": mine, "worlds": worlds, "seed": seed,
            "expected_loss": sum(m["cost"] or 0.0 for m in mine),
            "errors": sum(m["error"] for m in mine),
            "dd_loss": sum(m["dd_cost"] for m in mine),
            "hand_expected_loss": None if pv is None else pv.expected_loss,
            "luck": None if pv is None else pv.luck}
