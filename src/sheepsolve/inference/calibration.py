"""Calibration of the model of the calls: deals whose auctions the model itself plays, and the beliefs its
likelihood gives from a defender's seat against what the deals hold.

:func:`model_deal` deals at random and plays the auction by the model (each Sheepshead seat in turn picks with its
probability, the picker buries as the model says; each Schafkopf seat chooses weiter or a contract with its
probabilities, the highest contract winning, the earlier seat on a tie). :func:`calibrate` then takes, for every
such deal, a random seat other than the declarer, deals the cards it cannot see uniformly ``worlds`` times, weights
each world by the auction's likelihood (the auction the rules imply: the record would say no more) and compares:

- P(the declarer holds the top trump, QC or the Eichel-Ober) predicted against held, binned by the prediction:
  the chi-square of the bins (each bin's held count against the sum of its predictions, over the sum of
  ``p (1 - p)``), with one degree of freedom a bin that holds data. The worlds are split in two halves: one half's
  estimate chooses the bin, the other's is the prediction, so the bins do not pick out the estimates' noise (with
  few effective worlds, binning by the estimate itself pulls the outer bins' predictions outwards);
- the declarer's trumps: held minus the weighted mean, summed over the deals, over the square root of the summed
  weighted variances (a z); and the same z for the uniform worlds, which a model that reads the auction must beat.

A model whose likelihood is the product of the very probabilities that played the auction is calibrated, so the
chi-square stays within its distribution and the z near 0; a likelihood that drops a call or weighs the wrong
seat's hand does not.

>>> r = calibrate("sheepshead", deals=30, worlds=40, seed=1)
>>> r.deals, r.df > 0, abs(r.z) < 4
(30, True, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..cards import Card
from ..games import Game, make_game
from .auction import ContractCall, implied_auction
from .likelihood import AuctionLikelihood
from .model import CallModel, bury_distribution, contract_probabilities, default_model, pick_probability

__all__ = ["Calibration", "model_deal", "calibrate", "chi_square", "CHI2_999", "FORM_GAMES", "uniform_worlds"]

FORM_GAMES = {"sheepshead": ("sheepshead", {}), "called-ace": ("sheepshead", {"partner": "called-ace"}),
              "sauspiel": ("sauspiel", {}), "short": ("sauspiel", {"deck": "short"})}
"""The tables calibrated, by name: the game whose auction is played (Schafkopf: every contract)."""

CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52}
"""The chi-square's 99.9% points by degrees of freedom."""


@dataclass(frozen=True)
class Deal:
    """A deal whose auction the model played: the declarer, every hand at the first lead, the bury, the game
    played (Schafkopf: the contract's game) and its call."""

    declarer: int
    hands: list[list[Card]]
    bury: list[Card]
    game: Game
    called: Card | None = None
    alone: bool = False
    under: Card | None = None


def uniform_worlds(deal: Deal, hidden: list[int], unseen: list[Card], worlds: int, rng: random.Random):
    """``worlds`` uniform deals of ``unseen`` (shuffled in place) to the ``hidden`` seats, the rest the bury (None
    without one): (every hand, bury) for each."""
    for _ in range(worlds):
        rng.shuffle(unseen)
        hands, at = list(deal.hands), 0
        for s in hidden:
            hands[s] = unseen[at:at + len(deal.hands[s])]
            at += len(deal.hands[s])
        yield hands, (unseen[at:] if deal.bury else None)


def model_deal(game: Game, rng: random.Random, model: CallModel | None = None) -> Deal | None:
    """A random deal whose auction the model plays (see the module); None when every seat passes."""
    m = model or default_model()
    deck = list(game.deck)
    rng.shuffle(deck)
    n, size = game.seats, game.hand_size
    dealt = [deck[i * size:(i + 1) * size] for i in range(n)]
    if game.family == "sheepshead":
        blind = deck[n * size:]
        for seat in range(n):
            if rng.random() < pick_probability(game, dealt[seat], m):
                picked = dealt[seat] + blind
                dist = bury_distribution(game, picked, m) or {}
                options = sorted(dist, key=lambda o: (o[0], -1 if o[1] is None else int(o[1]), o[2], o[3]))
                (bury, called, alone, under), = rng.choices(options, weights=[dist[o] for o in options])
                kept = [c for c in picked if not bury >> c & 1]
                hands = [h if s != seat else kept for s, h in enumerate(dealt)]
                card_under = rng.choice(kept) if under else None
                return Deal(seat, hands, [Card(i) for i in range(32) if bury >> i & 1], game, called, alone,
                            card_under)
        return None
    best: tuple[int, ContractCall] | None = None
    for seat in range(n):
        dist = contract_probabilities(game, dealt[seat], m) or {None: 1.0}
        options = sorted(dist, key=lambda c: (-1, "") if c is None else (c.rank, c.label()))
        choice, = rng.choices(options, weights=[dist[c] for c in options])
        if choice is not None and (best is None or choice.rank > best[1].rank):
            best = (seat, choice)
    if best is None:
        return None
    seat, c = best
    played = make_game(c.game, trump=c.trump, tout=c.tout or None, deck="short" if len(game.deck) < 32 else "long",
                       seats=n, rules=dict(game.rules))
    return Deal(seat, dealt, [], played, c.called)


def chi_square(predicted: list[float], observed: list[int], bins: int = 5,
               binned_by: list[float] | None = None) -> tuple[float, int]:
    """The chi-square of predictions against outcomes binned by prediction (or by ``binned_by``: an independent
    estimate of the same probabilities, so the bins do not select the predictions' noise), and its degrees of
    freedom (the bins whose summed ``p (1 - p)`` is at least 1).

    >>> chi_square([0.5] * 100, [1] * 50 + [0] * 50)
    (0.0, 1)
    """
    stat, df = 0.0, 0
    keys = binned_by if binned_by is not None else predicted
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(p, o) for k, p, o in zip(keys, predicted, observed) if lo <= k < hi or (b == bins - 1 and k == 1)]
        var = sum(p * (1 - p) for p, _ in inside)
        if var < 1:
            continue
        stat += (sum(o for _, o in inside) - sum(p for p, _ in inside)) ** 2 / var
        df += 1
    return stat, df


@dataclass(frozen=True)
class Calibration:
    """What :func:`calibrate` measured (see the module)."""

    form: str
    deals: int
    worlds: int
    chi2: float
    df: int
    z: float
    uniform_z: float
    bins: list[tuple[float, float, int]] = field(default_factory=list)  # (mean predicted, share held, deals)
    mean_ess: float = 0.0  # the weighted worlds' effective sample size, on average
    empty: int = 0  # deals none of whose worlds had any weight (a likelihood that rules out the truth)

    @property
    def passes(self) -> bool:
        """Within noise at 99.9%: the chi-square below its 99.9% point and |z| < 3.3."""
        return self.empty == 0 and self.df > 0 and self.chi2 < CHI2_999[self.df] and abs(self.z) < 3.3


def calibrate(form: str, *, deals: int, worlds: int, seed: int, model: CallModel | None = None) -> Calibration:
    """Play ``deals`` auctions by the model (``form``: a key of :data:`FORM_GAMES`) and compare the weighted
    worlds' beliefs about the declarer with his hands (see the module)."""
    m = model or default_model()
    name, kw = FORM_GAMES[form]
    base = make_game(name, **kw)
    rng = random.Random(seed)
    top = Card.parse("QC")
    predicted: list[float] = []
    sorting: list[float] = []
    halves: list[float] = []
    held: list[int] = []
    err = var = u_err = u_var = ess_sum = 0.0
    done = empty = 0
    while done < deals:
        deal = model_deal(base, rng, m)
        if deal is None or deal.game.sie:
            continue
        done += 1
        g, decl = deal.game, deal.declarer
        like = AuctionLikelihood(implied_auction(g, decl, called=deal.called), called=deal.called,
                                 under=deal.under, alone=deal.alone, model=m)
        viewer = (decl + 1 + rng.randrange(g.seats - 1)) % g.seats
        hidden = [s for s in range(g.seats) if s != viewer]
        unseen = [c for s in hidden for c in deal.hands[s]] + deal.bury
        total = sq = 0.0
        samples = []
        for hands, bury in uniform_worlds(deal, hidden, unseen, worlds, rng):
            w = like(hands, bury=bury)
            total += w
            sq += w * w
            samples.append((w, hands[decl]))
        if total == 0.0:
            empty += 1
            continue
        ess_sum += total * total / sq
        trumps = [sum(1 for c in h if g.is_trump(c)) for _, h in samples]
        p = sum(w for w, h in samples if top in h) / total
        half = len(samples) // 2
        first = sum(w for w, _ in samples[:half])
        second = total - first
        if first > 0 and second > 0:  # bin by one half's estimate, predict with the other's
            sorting.append(sum(w for w, h in samples[:half] if top in h) / first)
            halves.append(sum(w for w, h in samples[half:] if top in h) / second)
        else:
            sorting.append(p)
            halves.append(p)
        mean_t = sum(w * t for (w, _), t in zip(samples, trumps)) / total
        predicted.append(p)
        held.append(1 if top in deal.hands[decl] else 0)
        own = sum(1 for c in deal.hands[decl] if g.is_trump(c))
        err += own - mean_t
        var += sum(w * t * t for (w, _), t in zip(samples, trumps)) / total - mean_t ** 2
        u_mean = sum(trumps) / len(trumps)
        u_err += own - u_mean
        u_var += sum(t * t for t in trumps) / len(trumps) - u_mean ** 2
    chi2, df = chi_square(halves, held, binned_by=sorting)
    bins = []
    for b in range(5):
        inside = [(p, o) for k, p, o in zip(sorting, halves, held) if b / 5 <= k < (b + 1) / 5 or (b == 4 and k == 1)]
        if inside:
            bins.append((round(sum(p for p, _ in inside) / len(inside), 3),
                         round(sum(o for _, o in inside) / len(inside), 3), len(inside)))
    return Calibration(form=form, deals=deals, worlds=worlds, chi2=round(chi2, 3), df=df,
                       z=round(err / math.sqrt(var), 3) if var > 0 else 0.0,
                       uniform_z=round(u_err / math.sqrt(u_var), 3) if u_var > 0 else 0.0, bins=bins,
                       mean_ess=round(ess_sum / max(deals - empty, 1), 1), empty=empty)
