"""Rebuild the data of the model of the doubling calls (:mod:`sheepsolve.inference.doubling`) from a seed.

A doubling call is worth to its caller what he expects to be paid in the game that follows (doubling doubles every
payment), so the data is each seat's expected payment by its role and its hand: for every game form, ``deals``
random deals whose auction the model of the calls plays (:func:`~sheepsolve.inference.calibration.model_deal`:
the picks, the bury and the call, or the Schafkopf contracts), each deal solved once, double dummy, with every hand
known (:func:`~sheepsolve.bury.evaluation.evaluate`), and every seat's payment at plain stakes
(:func:`~sheepsolve.scoring.seat_payment`) kept with the features of its hand at the first lead, under the played
game's trumps, by role:

- ``FORM/double-defender[-KIND]``: a seat of the other side (who may crack, say Kontra);
- ``FORM/double-declarer[-KIND]``: the picker or declarer (who may re-crack, say Re), his hand after the bury;
- ``FORM/double-partner[-KIND]``: his partner (the called card's or the jack of diamonds' holder);
- ``FORM/klopfen`` (Schafkopf): every seat, its hand as dealt under the Sauspiel's trumps, paid in whatever game
  the auction gave (0 where every seat said weiter: a pass is worth 0 in the model of the calls).

``KIND`` is the Schafkopf contract (``sauspiel``, ``solo``, ``wenz``, ...); Sheepshead has one game per form. The
Schafkopf contracts other than the Sauspiel are rare in the model's auctions, so besides the ``deals`` natural
deals each of them gets up to ``deals // 4`` deals among ``25 * deals`` more auctions played, those that end in it
(the same conditional distribution: deals given the auction's contract). A deal where every Sheepshead seat passes (a
leaster: no crack) is drawn again. Each table is fitted as the model of the calls' are
(:func:`~sheepsolve.inference.data.fit_table`: hand classes shrunk towards coarser ones); its ``suit`` level is the
number of cards of the called card's suit the hand holds (0 without a called card). Every deal is drawn from
``world_rng(f"{seed}:double:{form}...", i)``, in a fixed order: the same seed and deals give the same data.

>>> data = build_double_model(seed=3, deals={"sheepshead/jack-of-diamonds": 6}, min_samples=1)
>>> sorted(data["models"]), data["seed"], data["deals"]
(['sheepshead/jack-of-diamonds/double-declarer', 'sheepshead/jack-of-diamonds/double-defender', 'sheepshead/jack-of-diamonds/double-partner'], 3, {'sheepshead/jack-of-diamonds': 6})
>>> build_double_model(seed=3, deals={"sheepshead/jack-of-diamonds": 6}, min_samples=1)["models"] == data["models"]
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..bury.evaluation import Solvers, evaluate
from ..engine import Setup
from ..games import Game
from ..scoring import Stakes, seat_payment
from ..worlds import world_rng
from .auction import ContractCall
from .build import FORMS, fit_samples, form_game
from .calibration import Deal, model_deal
from .data import SHRINK, TEMPERATURE, contract_kind, default_model, double_key, klopfen_key
from .features import features

__all__ = ["DOUBLE_KINDS", "MIN_SAMPLES", "collect_double_samples", "build_double_model", "deal_payments"]

DOUBLE_KINDS = ("solo", "wenz", "geier", "farbwenz", "farbgeier")
"""The Schafkopf contracts besides the Sauspiel that get deals of their own (up to ``deals // 4`` each)."""

MIN_SAMPLES = 50
"""A table of fewer samples is left out (the call then weighs nothing): a tout's, say."""

AUCTIONS_PER_DEAL = 25
"""The auctions played for a rare contract's deals: at most this many per natural deal of the form (``25 n``);
a contract the model hardly ever announces (a long deck's geier: 1 auction in 3,000) gets the deals they hold."""


def _row(game: Game, hand: list, called: Any) -> list[int]:
    """A sample's features (:data:`~sheepsolve.inference.build.FEATURE_ROW`): the hand under ``game``'s trumps,
    the called card's suit held."""
    f = features(game, hand)
    suit = ten = 0
    if called is not None:
        cls = game.suit_class(called)
        suit = sum(1 for c in hand if game.suit_class(c) == cls)
        ten = 1 if any(c.rank == "T" and game.suit_class(c) == cls for c in hand) else 0
    return [f.trumps, f.high, f.second, f.run, f.aces, f.tens, f.voids, f.points, f.jd, suit, ten]


def deal_payments(deal: Deal, solvers: Solvers | None = None) -> tuple[Setup, list[int]]:
    """The setup of a deal whose auction the model played and every seat's payment at plain stakes, the deal solved
    double dummy with every hand known."""
    g = deal.game
    if g.kind == "picker":
        # the picker's hand at the first lead "takes" the bury as its blind and buries it again: the same setup
        st = Setup.create(g, deal.hands, declarer=deal.declarer, blind=deal.bury, bury=deal.bury, called=deal.called,
                          under=deal.under, alone=deal.alone)
    else:
        st = Setup.create(g, deal.hands, declarer=deal.declarer, called=deal.called)
    e = evaluate(solvers or Solvers(), st, Stakes())
    return st, [seat_payment(st, s, e.outcome, Stakes()) for s in range(g.seats)]


def _kind(deal: Deal) -> str:
    return contract_kind(ContractCall(deal.game.name, tout=deal.game.tout))


def _add(samples: dict[str, list], form: str, kind: str | None, deal: Deal, st: Setup, pays: list[int]) -> None:
    g = deal.game
    for s, hand in enumerate(deal.hands):
        role = "declarer" if s == st.declarer else "partner" if s == st.partner else "defender"
        samples.setdefault(double_key(form, role, kind), []).append([_row(g, list(hand), deal.called), pays[s]])


def _natural(game: Game, rng: random.Random) -> Deal | None:
    return model_deal(game, rng, default_model())


def collect_double_samples(*, seed: int, deals: Mapping[str, int],
                           progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """The samples the tables are fitted to: per table key, rows of
    :data:`~sheepsolve.inference.build.FEATURE_ROW` and the payment; with the processor seconds per form."""
    samples: dict[str, list] = {}
    seconds: dict[str, float] = {}
    solvers = Solvers()
    for form, n in deals.items():
        if form not in FORMS:
            raise ValueError(f"unknown form {form!r} (known: {', '.join(FORMS)})")
        game = form_game(form)
        t1 = time.process_time()
        schafkopf = game.family == "schafkopf"
        total = n + (n // 4 * len(DOUBLE_KINDS) if schafkopf else 0)
        done = 0
        for i in range(n):
            rng = world_rng(f"{seed}:double:{form}", i)
            deal = _natural(game, rng)
            while deal is None and not schafkopf:  # a leaster: nobody to crack
                deal = _natural(game, rng)
            if deal is not None and deal.game.sie:
                deal = None
            if schafkopf:
                pays = [0] * game.seats
                if deal is not None:
                    st, pays = deal_payments(deal, solvers)
                    _add(samples, form, _kind(deal), deal, st, pays)
                dealt = deal.hands if deal is not None else _redeal(game, world_rng(f"{seed}:double:{form}", i))
                for s, hand in enumerate(dealt):
                    samples.setdefault(klopfen_key(form), []).append([_row(game, list(hand), None), pays[s]])
            else:
                assert deal is not None
                st, pays = deal_payments(deal, solvers)
                _add(samples, form, None, deal, st, pays)
            done += 1
            if progress is not None:
                progress(form, done, total)
        for kind in DOUBLE_KINDS if schafkopf else ():
            kept = 0
            for j in range(AUCTIONS_PER_DEAL * n):
                if kept == n // 4:
                    break
                deal = _natural(game, world_rng(f"{seed}:double:{form}:{kind}", j))
                if deal is None or deal.game.sie or _kind(deal) != kind:
                    continue
                st, pays = deal_payments(deal, solvers)
                _add(samples, form, kind, deal, st, pays)
                kept += 1
                done += 1
                if progress is not None:
                    progress(form, done, total)
        seconds[form] = round(time.process_time() - t1, 2)
    return {"seed": seed, "deals": dict(deals), "seconds_by_form": seconds, "samples": dict(sorted(samples.items()))}


def _redeal(game: Game, rng: random.Random) -> list[list]:
    """The hands of the deal :func:`model_deal` dealt with ``rng`` (its first shuffle), where every seat passed."""
    deck = list(game.deck)
    rng.shuffle(deck)
    return [deck[i * game.hand_size:(i + 1) * game.hand_size] for i in range(game.seats)]


def build_double_model(*, seed: int, deals: Mapping[str, int], commit: str | None = None,
                       progress: Callable[[str, int, int], None] | None = None,
                       samples: dict[str, Any] | None = None, min_samples: int = MIN_SAMPLES) -> dict[str, Any]:
    """The data of ``double_model.json``: every table of at least ``min_samples`` samples fitted, with the seed,
    the deals per form, the model of the calls that played the auctions (its seed and commit), the processor
    seconds and the commit that built it (``commit``). ``samples``: those of :func:`collect_double_samples` for
    the same seed and deals (refit without solving again)."""
    got = samples if samples is not None else collect_double_samples(seed=seed, deals=deals, progress=progress)
    if (got["seed"], got["deals"]) != (seed, dict(deals)):
        raise ValueError("the samples were collected with another seed or deals")
    calls = default_model().info
    per_form = got["seconds_by_form"]
    return {"version": 1, "seed": seed, "deals": dict(deals), "temperature": dict(TEMPERATURE), "shrink": SHRINK,
            "commit": commit, "call_model": {"seed": calls.get("seed"), "commit": calls.get("commit")},
            "seconds": round(sum(per_form.values()), 2), "seconds_by_form": per_form,
            "min_samples": min_samples,
            "models": fit_samples({k: v for k, v in got["samples"].items() if len(v) >= min_samples})}
