"""Rebuild the data of the model of the calls (:mod:`sheepsolve.inference.model`) from a seed.

For every game form: ``hands`` random hands, each judged by the project's own analysis over ``worlds`` sampled
worlds (``pick_or_pass`` and ``sample_buries`` in Sheepshead, ``choose_contract`` in Schafkopf; the seat, the hand,
the blind and the worlds' seed all drawn from ``worlds.world_rng(seed, ...)``): :func:`collect_samples`. Then
:func:`fit_samples`: every pick and contract gets a :class:`~sheepsolve.inference.model.Table` of its expected
payment by hand class (:func:`~sheepsolve.inference.model.fit_table`); the bury a least squares fit (with a small
ridge, 1e-3 times the number of samples) of each choice's payment less the mean of the picker's choices on
:data:`~sheepsolve.inference.features.BURY_TERMS`. In the jack-of-diamonds game the hands holding that jack get a
pick table of their own (``pick-jd``: their holder plays alone or calls up). Everything is in a fixed order, so
the same seed, hands and worlds give the same data.

>>> data = build_model(seed=3, hands={"sheepshead/jack-of-diamonds": 4}, worlds=2)
>>> sorted(data["models"]), data["seed"], data["hands"]
(['sheepshead/jack-of-diamonds/bury', 'sheepshead/jack-of-diamonds/pick', 'sheepshead/jack-of-diamonds/pick-jd'], 3, {'sheepshead/jack-of-diamonds': 4})
>>> build_model(seed=3, hands={"sheepshead/jack-of-diamonds": 4}, worlds=2)["models"] == data["models"]
True
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..bury import choose_contract, pick_or_pass, sample_buries
from ..games import Game, make_game
from ..worlds import world_rng
from .auction import ContractCall
from .features import BURY_TERMS, HandFeatures, bury_terms, features, mask_of_hand
from .data import SHRINK, TEMPERATURE, contract_kind, fit_table, pick_key

__all__ = ["FORMS", "FEATURE_ROW", "build_model", "collect_samples", "fit", "fit_samples", "form_game",
           "join_samples", "merge", "row_features"]

FORMS: dict[str, tuple[str, dict[str, Any]]] = {
    "sheepshead/jack-of-diamonds": ("sheepshead", {}),
    "sheepshead/called-ace": ("sheepshead", {"partner": "called-ace"}),
    "schafkopf-4-long": ("sauspiel", {}),
    "sheepshead-3/alone": ("sheepshead-3", {}),
    "sheepshead-4/alone": ("sheepshead-4", {}),
    "schafkopf-4-short": ("sauspiel", {"deck": "short"}),
}
"""The game forms the build knows, by the model's name (:func:`~sheepsolve.inference.model.form_key`)."""

RIDGE = 1e-3


def form_game(form: str) -> Game:
    name, kw = FORMS[form]
    return make_game(name, **kw)


def fit(rows: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = RIDGE) -> list[float]:
    """Least squares weights of ``ys`` on ``rows`` with a ridge of ``ridge`` times the number of rows (Gaussian
    elimination with partial pivoting on the normal equations; pure Python, deterministic).

    >>> [round(w, 3) for w in fit([(1, 0), (1, 1), (1, 2)], [1, 3, 5], ridge=0)]
    [1.0, 2.0]
    """
    k = len(rows[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in zip(rows, ys):
        for i in range(k):
            xi = x[i]
            if xi:
                b[i] += xi * y
                row = a[i]
                for j in range(k):
                    row[j] += xi * x[j]
    lam = ridge * len(rows)
    for i in range(k):
        a[i][i] += lam if lam else 1e-12
    for col in range(k):
        piv = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        d = a[col][col]
        if abs(d) < 1e-12:
            continue
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / d
                for j in range(col, k):
                    a[r][j] -= f * a[col][j]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(k)]


def _rmse(rows: Sequence[Sequence[float]], ys: Sequence[float], w: Sequence[float]) -> float:
    if not rows:
        return 0.0
    return (sum((sum(a * b for a, b in zip(w, x)) - y) ** 2 for x, y in zip(rows, ys)) / len(rows)) ** 0.5


FEATURE_ROW = ("trumps", "high", "second", "run", "aces", "tens", "voids", "points", "jd", "suit", "suit_ten")
"""A sample of a hand's choice: these features of the hand (``suit``, ``suit_ten``: the called Sau's suit), then
the expected payment."""


def _row(f: HandFeatures, suit: int = 0, ten: int = 0) -> list[int]:
    return [f.trumps, f.high, f.second, f.run, f.aces, f.tens, f.voids, f.points, f.jd, suit, ten]


def row_features(row: Sequence[int]) -> tuple[HandFeatures, int, int]:
    """The features, called suit and ten of a sample row (:data:`FEATURE_ROW`)."""
    return HandFeatures(*row[:9]), row[9], row[10]


def _sheepshead_samples(game: Game, form: str, seed: int, hands: range, worlds: int,
                        pick: list, bury: list, tick: Callable[[], None]) -> None:
    for i in hands:
        rng = world_rng(f"{seed}:{form}", i)
        deck = list(game.deck)
        rng.shuffle(deck)
        hand = deck[:game.hand_size]
        blind = deck[game.hand_size:game.hand_size + game.blind_size]
        seat = rng.randrange(game.seats)
        r = pick_or_pass(game, hand, seat, worlds=worlds, seed=rng.randrange(2**31))
        f = features(game, hand)
        pick.append((pick_key(form, bool(f.jd)), _row(f), r.pick.payment))
        ranking = sample_buries(game, hand, blind, seat, worlds=worlds, seed=rng.randrange(2**31))
        picked = mask_of_hand(hand) | mask_of_hand(blind)
        best: dict[tuple, float] = {}
        for row in ranking.rows:
            d = row.decision
            key = (mask_of_hand(d.bury), d.called, d.alone or (game.partner == "called-ace" and d.called is None),
                   d.under is not None)
            best[key] = max(best.get(key, float("-inf")), row.stats.payment)
        if len(best) > 1:
            mean = sum(best.values()) / len(best)
            for (b, c, a, u), y in sorted(best.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None
                                                                          else int(kv[0][1]), kv[0][2], kv[0][3])):
                bury.append((list(bury_terms(game, picked, b, c, a, u)), y - mean))
        tick()


def _schafkopf_samples(game: Game, form: str, seed: int, hands: range, worlds: int, by_kind: dict[str, list],
                       tick: Callable[[], None]) -> None:
    for i in hands:
        rng = world_rng(f"{seed}:{form}", i)
        deck = list(game.deck)
        rng.shuffle(deck)
        hand = deck[:game.hand_size]
        seat = rng.randrange(game.seats)
        r = choose_contract(game, hand, seat, worlds=worlds, seed=rng.randrange(2**31))
        for row in r.rows:
            c = row.contract
            if c.game == "sie":
                continue
            cg = make_game(c.game, trump=c.trump, deck="short" if len(game.deck) < 32 else "long",
                           tout=c.tout or None, seats=game.seats, rules=dict(game.rules))
            suit = ten = 0
            if c.called is not None:
                suit = sum(1 for x in hand if cg.suit_class(x) == c.called.suit)
                ten = 1 if any(x.rank == "T" and x.suit == c.called.suit for x in hand) else 0
            kind = contract_kind(ContractCall(c.game, c.trump, c.called, c.tout))
            by_kind.setdefault(kind, []).append((_row(features(cg, hand), suit, ten), row.stats.payment))
        tick()


def _commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def collect_samples(*, seed: int, hands: Mapping[str, int], worlds: int,
                    progress: Callable[[str, int, int], None] | None = None, first: int = 0) -> dict[str, Any]:
    """The samples the weights are fitted to: per model key, rows of :data:`FEATURE_ROW` (a bury: the values of
    :data:`~sheepsolve.inference.features.BURY_TERMS`) and the expected payment; with the processor seconds per
    form. ``first``: the hands numbered ``first`` to ``first + n - 1`` of each form (each hand is drawn from the seed
    and its number alone, so ranges collected apart and joined in order by :func:`join_samples` are the samples
    of one run)."""
    samples: dict[str, list] = {}
    seconds: dict[str, float] = {}
    for form, n in hands.items():
        if form not in FORMS:
            raise ValueError(f"unknown form {form!r} (known: {', '.join(FORMS)})")
        game = form_game(form)
        done = [0]
        t1 = time.process_time()

        def tick(form: str = form, n: int = n, done: list = done) -> None:
            done[0] += 1
            if progress is not None:
                progress(form, done[0], n)

        if game.family == "sheepshead":
            pick: list = []
            bury: list = []
            _sheepshead_samples(game, form, seed, range(first, first + n), worlds, pick, bury, tick)
            for key in sorted({pick_key(form, jd) for jd in (False, True)}):
                samples[key] = [[row, y] for k, row, y in pick if k == key]
            samples[f"{form}/bury"] = [[x, y] for x, y in bury]
        else:
            by_kind: dict[str, list] = {}
            _schafkopf_samples(game, form, seed, range(first, first + n), worlds, by_kind, tick)
            for kind, rows in sorted(by_kind.items()):
                samples[f"{form}/{kind}"] = [[x, y] for x, y in rows]
        seconds[form] = round(time.process_time() - t1, 2)
    return {"seed": seed, "hands": dict(hands), "first": first, "worlds": worlds, "seconds_by_form": seconds,
            "samples": {k: v for k, v in samples.items() if v}}


def join_samples(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The samples of consecutive ranges of hands (each from :func:`collect_samples` with ``first`` where the one
    before ended) as one run's: the hands added, the samples and seconds joined in order."""
    parts = sorted(parts, key=lambda p: p.get("first", 0))
    out: dict[str, Any] = {"seed": parts[0]["seed"], "worlds": parts[0]["worlds"], "first": parts[0].get("first", 0),
                           "hands": {}, "seconds_by_form": {}, "samples": {}}
    at: dict[str, int] = {}
    for p in parts:
        if (p["seed"], p["worlds"]) != (out["seed"], out["worlds"]):
            raise ValueError("samples of different seeds or worlds")
        for form, n in p["hands"].items():
            if at.get(form, out["first"]) != p.get("first", 0):
                raise ValueError(f"{form}: the ranges of hands do not follow each other")
            at[form] = p.get("first", 0) + n
            out["hands"][form] = out["hands"].get(form, 0) + n
            out["seconds_by_form"][form] = round(out["seconds_by_form"].get(form, 0.0) + p["seconds_by_form"][form],
                                                 2)
        for key, rows in p["samples"].items():
            out["samples"].setdefault(key, []).extend(rows)
    return out


def fit_samples(samples: Mapping[str, Sequence]) -> dict[str, Any]:
    """The models fitted to :func:`collect_samples`' samples: a bury's weights of its terms; every other choice's
    table of expected payments (:func:`~sheepsolve.inference.model.fit_table`)."""
    models: dict[str, Any] = {}
    for key in sorted(samples):
        rows = samples[key]
        if key.endswith("/bury"):
            xs = [r[0] for r in rows]
            ys = [r[1] for r in rows]
            w = fit(xs, ys)
            models[key] = {"terms": list(BURY_TERMS), "weights": [round(x, 6) for x in w], "samples": len(rows),
                           "rmse": round(_rmse(xs, ys, w), 4)}
        else:
            models[key] = fit_table([(row_features(r[0]), r[1]) for r in rows])
    return models


def build_model(*, seed: int, hands: Mapping[str, int], worlds: int,
                progress: Callable[[str, int, int], None] | None = None, commit: str | None = None,
                samples: dict[str, Any] | None = None) -> dict[str, Any]:
    """The model's data (the JSON object of ``call_model.json``): for every form of ``hands`` (form -> number of
    hands), the fitted model of every choice, with its samples and its fit's root mean square error.
    ``commit``: the code's git commit (default: asked of git where the package lives). ``samples``: those of
    :func:`collect_samples` for the same seed, hands and worlds (refit without solving again)."""
    got = samples if samples is not None else collect_samples(seed=seed, hands=hands, worlds=worlds,
                                                              progress=progress)
    if (got["seed"], got["hands"], got["worlds"], got.get("first", 0)) != (seed, dict(hands), worlds, 0):
        raise ValueError("the samples were collected with another seed, hands or worlds")
    per_form = got["seconds_by_form"]
    return {"version": 2, "seed": seed, "hands": dict(hands), "worlds": worlds, "temperature": dict(TEMPERATURE),
            "ridge": RIDGE, "shrink": SHRINK, "commit": commit or _commit(),
            "seconds": round(sum(per_form.values()), 2), "seconds_by_form": per_form,
            "models": fit_samples(got["samples"])}


def merge(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One model's data from builds of different forms with the same seed, worlds and temperature (each form is
    built from the seed alone, so building the forms one by one and merging gives the same weights as one build).

    >>> a = {"seed": 1, "worlds": 2, "temperature": TEMPERATURE, "ridge": RIDGE, "commit": "x", "hands": {"f": 1},
    ...      "seconds": 1.0, "seconds_by_form": {"f": 1.0}, "models": {"f/pick": {}}, "version": 1}
    >>> b = dict(a, hands={"g": 2}, seconds=2.0, seconds_by_form={"g": 2.0}, models={"g/pick": {}})
    >>> m = merge([a, b])
    >>> m["hands"], m["seconds"], sorted(m["models"])
    ({'f': 1, 'g': 2}, 3.0, ['f/pick', 'g/pick'])
    """
    out = dict(parts[0])
    out["hands"], out["seconds_by_form"], out["models"] = {}, {}, {}
    for p in parts:
        for k in ("seed", "worlds", "temperature", "ridge", "shrink", "version"):
            if p.get(k) != out.get(k):
                raise ValueError(f"cannot merge builds with different {k}: {p.get(k)!r} and {out.get(k)!r}")
        out["hands"].update(p["hands"])
        out["seconds_by_form"].update(p["seconds_by_form"])
        out["models"].update(p["models"])
    out["seconds"] = round(sum(out["seconds_by_form"].values()), 2)
    return out
