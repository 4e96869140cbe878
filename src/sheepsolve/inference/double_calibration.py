"""Calibration of the model of the doubling calls: deals whose auctions and doubles the model plays, and the beliefs
about the doubler's hand its likelihood gives from another seat, against what the deals hold.

:func:`calibrate_doubles` plays random auctions by the model of the calls
(:func:`~sheepsolve.inference.calibration.model_deal`), takes a random viewer other than the declarer and a random
seat ``s`` other than both, and lets the doubling call be made by the model (:mod:`sheepsolve.inference.doubling`):

- ``crack`` (Kontra): ``s`` cracks with its probability (0 when it is the declarer's partner);
- ``recrack`` (Re): ``s`` cracks, and then the declarer re-cracks, each with its probability; the doubler judged is
  the declarer;
- ``klopfen`` (Schafkopf): ``s`` knocks with its probability, its hand as dealt.

Only the deals where the call was made are kept, and their records say who made it (an ``auction``), as the
likelihood reads it: what the other seats would have said is not weighed, and here it is never asked. The viewer's
worlds are dealt uniformly and weighted by the auction the rules imply times the doubling calls; then, as in
:func:`~sheepsolve.inference.calibration.calibrate`: P(the doubler holds the top trump) binned against how often he
does (a chi-square of split halves), the doubler's trumps as a z, and the same z with the bidding alone weighed (the
doubles left out), which a model that reads the doubles must beat: a doubler holds more trumps than the bidding says.

>>> r = calibrate_doubles("sheepshead", "crack", deals=20, worlds=30, seed=1)
>>> r.deals, r.df >= 0, abs(r.z) < 4
(20, True, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..cards import Card
from ..games import make_game
from .auction import CRACK, KLOPFEN, RECRACK, implied_auction
from .calibration import CHI2_999, FORM_GAMES, chi_square, model_deal, uniform_worlds
from .data import CallModel, default_model
from .doubling import DoubleFactor, default_double_model, partner_at_lead
from .features import mask_of_hand
from .likelihood import AuctionLikelihood

__all__ = ["DoubleCalibration", "calibrate_doubles", "DOUBLE_CALLS"]

DOUBLE_CALLS = (CRACK, RECRACK, KLOPFEN)


@dataclass(frozen=True)
class DoubleCalibration:
    """What :func:`calibrate_doubles` measured (see the module)."""

    form: str
    call: str
    deals: int
    worlds: int
    chi2: float
    df: int
    z: float
    bidding_z: float  # the same z with the doubles left out of the weights
    mean_trumps: float  # the doublers' trumps held, on average
    bidding_trumps: float  # what the bidding alone predicts, on average
    bins: list[tuple[float, float, int]] = field(default_factory=list)
    mean_ess: float = 0.0
    empty: int = 0
    played: int = 0  # the auctions played to find the deals

    @property
    def passes(self) -> bool:
        """Within noise at 99.9%: the chi-square below its 99.9% point (where it has bins) and |z| < 3.3."""
        return self.empty == 0 and (self.df == 0 or self.chi2 < CHI2_999[self.df]) and abs(self.z) < 3.3


def calibrate_doubles(form: str, call: str, *, deals: int, worlds: int, seed: int, model: CallModel | None = None,
                      double_model: CallModel | None = None) -> DoubleCalibration:
    """Play ``deals`` auctions with the doubling call ``call`` by the model (``form``: a key of
    :data:`~sheepsolve.inference.calibration.FORM_GAMES`) and compare the weighted worlds' beliefs about the
    doubler with his hands (see the module)."""
    if call not in DOUBLE_CALLS:
        raise ValueError(f"call: one of {', '.join(DOUBLE_CALLS)}, not {call!r}")
    m = model or default_model()
    dm = double_model or default_double_model()
    name, kw = FORM_GAMES[form]
    base = make_game(name, **kw)
    if call == KLOPFEN and base.family != "schafkopf":
        raise ValueError("klopfen is a Schafkopf call")
    rng = random.Random(seed)
    top = Card.parse("QC")
    sorting: list[float] = []
    halves: list[float] = []
    held: list[int] = []
    err = var = b_err = b_var = ess_sum = own_sum = b_sum = 0.0
    done = empty = played = 0
    while done < deals:
        played += 1
        deal = model_deal(base, rng, m)
        if deal is None or deal.game.sie:
            continue
        g, decl, n = deal.game, deal.declarer, deal.game.seats
        viewer = (decl + 1 + rng.randrange(n - 1)) % n
        s = rng.choice([x for x in range(n) if x not in (decl, viewer)])
        masks = [mask_of_hand(h) for h in deal.hands]
        probe = DoubleFactor(g, declarer=decl, called=deal.called, alone=deal.alone, model=dm)
        partner = partner_at_lead(g, masks, decl, mask_of_hand(deal.bury), deal.called, deal.alone)
        calls = [(CRACK if call != KLOPFEN else KLOPFEN, s)] + ([(RECRACK, decl)] if call == RECRACK else [])
        if not all(rng.random() < probe.probability(k, seat, masks, partner) for k, seat in calls):
            continue
        doubler = decl if call == RECRACK else s
        done += 1
        auction = implied_auction(g, decl, called=deal.called)
        factor = DoubleFactor(g, declarer=decl, called=deal.called, alone=deal.alone, calls=calls, model=dm)
        like = AuctionLikelihood(auction, called=deal.called, under=deal.under, alone=deal.alone, model=m,
                                 doubles=factor)
        bidding = AuctionLikelihood(auction, called=deal.called, under=deal.under, alone=deal.alone, model=m)
        hidden = [x for x in range(n) if x != viewer]
        unseen = [c for x in hidden for c in deal.hands[x]] + deal.bury
        samples = []
        for hands, bury in uniform_worlds(deal, hidden, unseen, worlds, rng):
            samples.append((like(hands, bury=bury), bidding(hands, bury=bury), hands[doubler]))
        total = math.fsum(w for w, _, _ in samples)
        b_total = math.fsum(b for _, b, _ in samples)
        if total == 0.0 or b_total == 0.0:
            empty += 1
            continue
        ess_sum += total * total / math.fsum(w * w for w, _, _ in samples)
        trumps = [sum(1 for c in h if g.is_trump(c)) for _, _, h in samples]
        half = len(samples) // 2
        first = math.fsum(w for w, _, _ in samples[:half])
        p = sum(w for w, _, h in samples if top in h) / total
        if 0 < first < total:  # bin by one half's estimate, predict with the other's
            sorting.append(sum(w for w, _, h in samples[:half] if top in h) / first)
            halves.append(sum(w for w, _, h in samples[half:] if top in h) / (total - first))
        else:
            sorting.append(p)
            halves.append(p)
        held.append(1 if top in deal.hands[doubler] else 0)
        own = sum(1 for c in deal.hands[doubler] if g.is_trump(c))
        own_sum += own
        mean_t = math.fsum(w * t for (w, _, _), t in zip(samples, trumps)) / total
        err += own - mean_t
        var += math.fsum(w * t * t for (w, _, _), t in zip(samples, trumps)) / total - mean_t ** 2
        b_mean = math.fsum(b * t for (_, b, _), t in zip(samples, trumps)) / b_total
        b_sum += b_mean
        b_err += own - b_mean
        b_var += math.fsum(b * t * t for (_, b, _), t in zip(samples, trumps)) / b_total - b_mean ** 2
    chi2, df = chi_square(halves, held, binned_by=sorting)
    bins = []
    for b in range(5):
        inside = [(p, o) for k, p, o in zip(sorting, halves, held) if b / 5 <= k < (b + 1) / 5 or (b == 4 and k == 1)]
        if inside:
            bins.append((round(sum(p for p, _ in inside) / len(inside), 3),
                         round(sum(o for _, o in inside) / len(inside), 3), len(inside)))
    kept = max(deals - empty, 1)
    return DoubleCalibration(form=form, call=call, deals=deals, worlds=worlds, chi2=round(chi2, 3), df=df,
                             z=round(err / math.sqrt(var), 3) if var > 0 else 0.0,
                             bidding_z=round(b_err / math.sqrt(b_var), 3) if b_var > 0 else 0.0,
                             mean_trumps=round(own_sum / kept, 3), bidding_trumps=round(b_sum / kept, 3),
                             bins=bins, mean_ess=round(ess_sum / kept, 1), empty=empty, played=played)
