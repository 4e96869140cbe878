"""The model of the calls' data (:mod:`sheepsolve.inference.model`): the forms and models it is keyed on, the
:class:`Table` s of expected payments by hand class and their fit (:func:`fit_table`), and the fitted
:class:`CallModel` shipped as ``call_model.json`` (:func:`default_model`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from ..games import Game
from .auction import ContractCall
from .features import TABLE_LEVELS, HandFeatures

__all__ = [
    "TEMPERATURE",
    "SHRINK",
    "Table",
    "fit_table",
    "CallModel",
    "default_model",
    "model_info",
    "has_model",
    "form_key",
    "pick_key",
    "contract_kind",
    "double_key",
    "klopfen_key",
]

TEMPERATURE: dict[str, float] = {"sheepshead": 1.0, "schafkopf": 10.0}
"""The softmax temperature by family, in the payments' own units (Sheepshead units; Schafkopf money at the default
tariffs, so 10 is one Sauspiel tariff)."""

DATA_FILE = "call_model.json"



def form_key(game: Game) -> str:
    """The model's name for a game form: ``sheepshead/jack-of-diamonds``, ``sheepshead-3/alone``,
    ``schafkopf-4-long`` (every Schafkopf contract of that deck and table shares one form). A leaster is weighed
    with the picking game of its table.

    >>> from sheepsolve.games import make_game
    >>> form_key(make_game("sheepshead", partner="called-ace")), form_key(make_game("wenz", deck="short"))
    ('sheepshead/called-ace', 'schafkopf-4-short')
    """
    if game.family == "sheepshead":
        if game.kind == "leaster":
            name = {5: "sheepshead", 4: "sheepshead-4", 3: "sheepshead-3"}[game.seats]
            return f"{name}/{'jack-of-diamonds' if game.seats == 5 else 'alone'}"
        return f"{game.name}/{game.partner}"
    return f"schafkopf-{game.seats}-{'short' if len(game.deck) < 32 else 'long'}"


def pick_key(form: str, holds_jd: bool) -> str:
    """The pick model of a form: ``FORM/pick``, and in the jack-of-diamonds game ``FORM/pick-jd`` for a hand holding
    that jack (its holder plays alone or calls up: a game of its own)."""
    return f"{form}/pick-jd" if holds_jd and form.endswith("/jack-of-diamonds") else f"{form}/pick"


def contract_kind(c: ContractCall) -> str:
    """The model's name for a contract's payment model: ``sauspiel``, ``solo``, ``wenz-tout``, ..."""
    return c.game + ("-tout" if c.tout else "")


def double_key(form: str, role: str, kind: str | None = None) -> str:
    """The table of a role's expected payment: ``FORM/double-ROLE`` (Sheepshead), ``FORM/double-ROLE-KIND``.

    >>> double_key("schafkopf-4-long", "defender", "solo"), double_key("sheepshead/called-ace", "partner")
    ('schafkopf-4-long/double-defender-solo', 'sheepshead/called-ace/double-partner')
    """
    return f"{form}/double-{role}" + (f"-{kind}" if kind else "")


def klopfen_key(form: str) -> str:
    """The table of a Schafkopf seat's expected payment before the bidding: ``FORM/klopfen``."""
    return f"{form}/klopfen"


SHRINK = 5.0
"""The pseudo-count of a table's shrinkage: a cell of ``n`` samples moves its parent's estimate ``n / (n + 5)`` of
the way to its own mean."""


MEMO_CAP = 1 << 16
"""The most hand classes a table (or a pick model) remembers; then it starts afresh."""


class Table:
    """Expected payments by hand class: cells keyed on the first ``i`` of
    :data:`~sheepsolve.inference.features.TABLE_LEVELS`, each the mean payment of the samples in it and their count.
    A hand's estimate starts from its trump count's: the cell of ``t`` trumps shrunk towards the estimate for
    ``t - 1`` (for the fewest trumps seen, towards the mean of every sample; a count beyond those seen reads as the
    nearest one seen); then, level by level while its cell has samples, it moves to
    ``(n * cell mean + SHRINK * estimate) / (n + SHRINK)``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.mean = float(data["mean"])
        self.shrink = float(data.get("shrink", SHRINK))
        self.cells: dict[tuple[int, ...], tuple[float, int]] = {
            tuple(int(x) for x in k.split(",")): (float(v[0]), int(v[1])) for k, v in data["cells"].items()}
        seen = sorted(k[0] for k in self.cells if len(k) == 1)
        self.base: dict[int, float] = {}
        est = self.mean
        for t in range(seen[0], seen[-1] + 1) if seen else ():
            cell = self.cells.get((t,))
            if cell is not None:
                est = (cell[1] * cell[0] + self.shrink * est) / (cell[1] + self.shrink)
            self.base[t] = est
        self.low, self.high = (seen[0], seen[-1]) if seen else (0, -1)
        self._memo: dict[tuple[int, ...], float] = {}

    def value(self, key: tuple[int, ...]) -> float:
        """The estimate for a hand of class ``key`` (remembered: a table is asked the same classes again and
        again)."""
        got = self._memo.get(key)
        if got is None:
            if len(self._memo) > MEMO_CAP:
                self._memo.clear()
            got = self._memo[key] = self._value(key)
        return got

    def _value(self, key: tuple[int, ...]) -> float:
        t = key[0]
        if not self.base:
            return self.mean
        if t < self.low or t > self.high:  # a trump count never seen reads as the nearest one seen
            t = self.low if t < self.low else self.high
            key = (t,) + key[1:]
        est = self.base[t]
        k = self.shrink
        cells = self.cells
        for i in range(2, len(key) + 1):
            cell = cells.get(key[:i])
            if cell is None:
                break
            m, n = cell
            est = (n * m + k * est) / (n + k)
        return est


def fit_table(samples: Sequence[tuple[HandFeatures, int, int] | tuple[tuple[HandFeatures, int, int], float]]
              ) -> dict[str, Any]:
    """The data of a :class:`Table` from ``((features, suit, suit_ten), payment)`` samples: every cell's mean and
    count (cells of one sample below the third level are left out), the samples and the in-sample root mean square
    error.

    >>> from sheepsolve.inference.features import HandFeatures
    >>> f = lambda t: HandFeatures(t, 0, 0, 0, 0, 0, 0, 0, 0)
    >>> data = fit_table([((f(1), 0, 0), -10.0), ((f(1), 0, 0), -20.0), ((f(5), 0, 0), 30.0)])
    >>> data["mean"], data["cells"]["1"], data["cells"]["5"]
    (0.0, [-15.0, 2], [30.0, 1])
    >>> t = Table(data)
    >>> round(t.value((1, 0, 0, 0, 0, 0, 0)), 3), round(t.value((5, 0, 0, 0, 0, 0, 0)), 3), round(t.value((7, 0, 0, 0, 0, 0, 0)), 3)
    (-13.577, 6.19, 6.19)
    """
    keys = []
    ys = []
    for (f, suit, _ten), y in samples:  # type: ignore[misc]
        keys.append((f.trumps, f.high, f.second, suit, f.aces, f.voids, min(f.run, 4)))
        ys.append(float(y))
    mean = sum(ys) / len(ys) if ys else 0.0
    sums: dict[tuple[int, ...], list[float]] = {}
    for key, y in zip(keys, ys):
        for i in range(1, len(TABLE_LEVELS) + 1):
            cell = sums.setdefault(key[:i], [0.0, 0])
            cell[0] += y
            cell[1] += 1
    cells = {",".join(map(str, k)): [round(v[0] / v[1], 2), int(v[1])] for k, v in sorted(sums.items())
             if v[1] > 1 or len(k) <= 2}
    data: dict[str, Any] = {"kind": "table", "levels": list(TABLE_LEVELS), "mean": round(mean, 4), "shrink": SHRINK,
                            "cells": cells, "samples": len(ys)}
    table = Table(data)
    data["rmse"] = round((sum((table.value(k) - y) ** 2 for k, y in zip(keys, ys)) / max(len(ys), 1)) ** 0.5, 4)
    return data


class CallModel:
    """The fitted models: ``FORM/pick`` (``FORM/pick-jd``) and ``FORM/CONTRACT-KIND`` are :class:`Table` s of
    expected payments; ``FORM/bury`` the weights of :data:`BURY_TERMS`; ``info`` is what built them."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.info = {k: v for k, v in data.items() if k != "models"}
        self.models: dict[str, tuple[float, ...]] = {}
        self.tables: dict[str, Table] = {}
        for k, v in data["models"].items():
            if v.get("kind") == "table":
                self.tables[k] = Table(v)
            else:
                self.models[k] = tuple(v["weights"])
        self.temperature: dict[str, float] = dict(data.get("temperature", TEMPERATURE))
        self.forms = frozenset(k.rsplit("/", 1)[0] for k in list(self.models) + list(self.tables))

    def weights(self, key: str) -> tuple[float, ...] | None:
        return self.models.get(key)

    def table(self, key: str) -> Table | None:
        return self.tables.get(key)


@lru_cache(maxsize=1)
def default_model() -> CallModel:
    """The model shipped with sheepsolve (``call_model.json``)."""
    text = resources.files("sheepsolve.inference").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return CallModel(json.loads(text))


def model_info(model: CallModel | None = None) -> dict[str, Any]:
    """How the model's data was built: seed, hands per form, worlds per hand, temperature, commit, seconds."""
    return dict((model or default_model()).info)


def has_model(game: Game, model: CallModel | None = None) -> bool:
    """Whether the model has fitted data for ``game``'s form (else every call weighs 1)."""
    return form_key(game) in (model or default_model()).forms
