"""Is the player's view calibrated? ``suggest`` at the first lead against the truth of deals whose auctions the
model of the calls itself plays (issue 36: the uniform view gave a soloist a 4% chance of 61 where he made it
double dummy in more than half of the deals).

    nice -n 15 python benchmarks/view_calibration.py --deals 150 --worlds 200 --seed 36 [--rows solo ...] [--json F]

For each row (``sheepshead``: jack of diamonds, ``called-ace``, the long-deck Schafkopf contracts ``sauspiel``,
``solo``, ``wenz`` (with Farbwenz), ``geier`` (with Farbgeier), ``short``: the short deck, every contract, and
``plain-wenz``, ``plain-geier``: the long deck's Wenz and Geier without the Farb- ones),
deals are drawn by :func:`sheepsolve.inference.calibration.model_deal` (every seat's call played by the model) until
the row holds ``--deals`` deals whose first leader is a defender (the deals led by the declaring side are skipped,
and so are Tout, Sie and the deals of other rows). Each deal becomes a record (the hands as dealt, the blind, bury
and call as the model chose; no ``auction`` key: the auction the rules imply, as in a real record), and the
leader's decision is judged as ``sheepsolve suggest`` judges it (:func:`sheepsolve.player.suggest_record`), with
``--inference auction`` and with ``--inference none``, ``--worlds`` worlds, seeded. For the card each view
recommends (its best mean), the view's P(61+) for the declaring side and its mean points are compared with that
card's double-dummy value in the real deal (the declaring side reaching 61 or not).

Per row and mode: the deals; the mean predicted P(61+) and the share of deals where the declaring side makes 61
double dummy after the recommended card; the Brier score (the mean of (P - outcome)^2; lower is better); the
binned calibration (each bin's mean prediction against its frequency; the bins chosen by the P(61+) of the first
half of the worlds, the prediction that of the second half, so the bins do not pick out the estimate's noise) and
its chi-square (:func:`sheepsolve.inference.calibration.chi_square`) with its degrees of freedom; the mean
predicted points against the double-dummy points; the declarer's expected trumps (the view's beliefs) against those
he held; the mean effective worlds. A view that reads the table should be calibrated: its mean P(61+) near the
frequency, its chi-square within its distribution.

Seeded (the same arguments give the same figures, whatever the load); the processor seconds are printed too.
Figures in docs/TUNING.md ("The player's view against the truth: calibration at the first lead").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

from sheepsolve.cards import Card
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.inference.calibration import CHI2_999, FORM_GAMES, Deal, chi_square, model_deal
from sheepsolve.inference.model import CallModel, default_model
from sheepsolve.player import View, suggest_record
from sheepsolve.record import Record

ROWS: dict[str, tuple[str, frozenset[str] | None]] = {
    "sheepshead": ("sheepshead", None), "called-ace": ("called-ace", None),
    "sauspiel": ("sauspiel", frozenset({"sauspiel"})), "solo": ("sauspiel", frozenset({"solo"})),
    "wenz": ("sauspiel", frozenset({"wenz", "farbwenz"})), "geier": ("sauspiel", frozenset({"geier", "farbgeier"})),
    "short": ("short", None),
    "plain-wenz": ("sauspiel", frozenset({"wenz"})), "plain-geier": ("sauspiel", frozenset({"geier"}))}
"""Each row: the table whose deals feed it (a key of :data:`~sheepsolve.inference.calibration.FORM_GAMES`) and the
games it takes (None: every one but Tout and Sie). The model announces a plain Wenz or Geier on the long deck
rarely (its Farbwenz and Farbgeier pay more for the same hands), so their rows draw many deals."""

MODES = ("auction", "none")


def model_deals(form: str, seed: int, model: CallModel | None = None) -> Iterator[tuple[Deal, tuple[Card, ...]]]:
    """Deals of ``form`` whose auctions the model plays (none where every seat passed), each with its blind
    (Sheepshead; ``model_deal`` shuffles the deck first, so the same draw from the generator's state gives it)."""
    name, kw = FORM_GAMES[form]
    base = make_game(name, **kw)
    rng = random.Random(seed)
    m = model or default_model()
    n, size = base.seats, base.hand_size
    while True:
        state = rng.getstate()
        deal = model_deal(base, rng, m)
        if deal is None:
            continue
        blind: tuple[Card, ...] = ()
        if base.family == "sheepshead":
            again = random.Random()
            again.setstate(state)
            deck = list(base.deck)
            again.shuffle(deck)
            blind = tuple(deck[n * size:])
            dealt = deck[deal.declarer * size:(deal.declarer + 1) * size]
            if set(deal.hands[deal.declarer]) | set(deal.bury) != set(dealt) | set(blind):
                raise RuntimeError("model_deal no longer shuffles the deck first: the blind cannot be found")
        yield deal, blind


def record_of(deal: Deal, blind: Sequence[Card]) -> Record:
    """The record of a model's deal before the first lead: the hands as dealt, the blind, bury and call."""
    g, p = deal.game, deal.declarer
    hands = [list(h) for h in deal.hands]
    if g.family == "sheepshead":
        hands[p] = [c for c in hands[p] + list(deal.bury) if c not in blind]
    setup = Setup.create(g, hands, declarer=p, blind=blind, bury=deal.bury, called=deal.called, under=deal.under,
                         alone=deal.alone)
    return Record.from_state(setup.start())


@dataclass(frozen=True)
class Judged:
    """One view of one deal: the card recommended, its P(61+) (all worlds, and each half's), mean points, the
    double-dummy points after it in the real deal, the declarer's expected trumps and the effective worlds."""

    card: str
    p61: float
    p61_first: float | None
    p61_second: float | None
    mean: float
    dd: int
    trumps: float
    effective: float


def _half_p61(v: View, j: int, worlds: range) -> float | None:
    ws = v.weights or [1.0] * len(v.values)
    total = math.fsum(ws[i] for i in worlds if v.values[i][j] is not None)
    if total <= 0:
        return None
    return math.fsum(ws[i] for i in worlds if (x := v.values[i][j]) is not None and x >= 61) / total


def judge(rec: Record, seat: int, worlds: int, seed: int, inference: str) -> Judged:
    """``suggest`` from ``seat`` at the first lead (see the module)."""
    v = suggest_record(rec, seat=seat, worlds=worlds, seed=seed, jobs=1, inference=inference)
    card = v.top
    j = list(v.cards).index(card)
    n = len(v.values)
    assert v.double_dummy is not None and v.beliefs is not None
    return Judged(card=str(card), p61=v.cards[card].p61 or 0.0, p61_first=_half_p61(v, j, range(n // 2)),
                  p61_second=_half_p61(v, j, range(n // 2, n)), mean=v.cards[card].mean,
                  dd=v.double_dummy[card], trumps=v.beliefs[rec.declarer]["trumps"], effective=v.effective)


@dataclass(frozen=True)
class DealResult:
    row: str
    game: str
    held_trumps: int
    views: dict[str, Judged]


def measure(row: str, deals: int, worlds: int, seed: int, modes: Sequence[str] = MODES, progress: bool = False,
            games: tuple[str, frozenset[str] | None] | None = None) -> list[DealResult]:
    """``deals`` deals of ``row`` (``games``: of that table and those games instead of the row's, see
    :data:`ROWS`) judged from the first leader's seat in every mode (see the module). The deals of a table are
    drawn from ``seed``; each deal's views from ``seed`` and its place in the row."""
    out: list[DealResult] = []
    form, names = games or ROWS[row]
    for deal, blind in model_deals(form, seed):
        if len(out) >= deals:
            break
        if deal.game.tout or deal.game.sie or (names is not None and deal.game.name not in names):
            continue
        rec = record_of(deal, blind)
        setup = rec.setup()
        leader = setup.first_leader
        if leader in setup.team:
            continue
        g = deal.game
        held = sum(1 for c in setup.hands[deal.declarer] if g.is_trump(c))
        views = {mode: judge(rec, leader, worlds, seed * 100_003 + len(out), mode) for mode in modes}
        out.append(DealResult(row=row, game=g.name, held_trumps=held, views=views))
        if progress:
            print(f"{row} {len(out)}/{deals}", end="\r", file=sys.stderr, flush=True)
    return out


@dataclass(frozen=True)
class Summary:
    """A row's figures in one mode (see the module)."""

    row: str
    mode: str
    deals: int
    mean_p61: float
    dd61: float
    brier: float
    chi2: float
    df: int
    bins: list[tuple[float, float, int]]
    mean_points: float
    dd_points: float
    trumps: float
    held_trumps: float
    effective: float

    @property
    def calibrated(self) -> bool:
        """The chi-square below its 99.9% point (no bin with data: not judged)."""
        return self.df == 0 or self.chi2 < CHI2_999.get(self.df, math.inf)


def summarize(results: Sequence[DealResult], mode: str, bins: int = 5) -> Summary:
    """One mode's figures over a row's deals."""
    views = [r.views[mode] for r in results]
    hit = [1 if j.dd >= 61 else 0 for j in views]
    n = len(views)
    sorting = [j.p61 if j.p61_first is None or j.p61_second is None else j.p61_first for j in views]
    predicted = [j.p61 if j.p61_first is None or j.p61_second is None else j.p61_second for j in views]
    chi2, df = chi_square(predicted, hit, bins=bins, binned_by=sorting)
    table = []
    for b in range(bins):
        inside = [(p, o) for k, p, o in zip(sorting, predicted, hit)
                  if b / bins <= k < (b + 1) / bins or (b == bins - 1 and k == 1)]
        if inside:
            table.append((round(sum(p for p, _ in inside) / len(inside), 3),
                          round(sum(o for _, o in inside) / len(inside), 3), len(inside)))

    def mean(xs: Sequence[float]) -> float:
        return round(math.fsum(xs) / n, 3) if n else math.nan

    return Summary(row=results[0].row if results else "", mode=mode, deals=n, mean_p61=mean([j.p61 for j in views]),
                   dd61=mean(hit), brier=mean([(j.p61 - o) ** 2 for j, o in zip(views, hit)]), chi2=round(chi2, 2),
                   df=df, bins=table, mean_points=mean([j.mean for j in views]),
                   dd_points=mean([j.dd for j in views]), trumps=mean([j.trumps for j in views]),
                   held_trumps=mean([r.held_trumps for r in results]), effective=mean([j.effective for j in views]))


def line(s: Summary) -> str:
    return (f"{s.row:<10} {s.mode:<7} deals {s.deals:>3}  P61 {s.mean_p61:.3f}  DD61 {s.dd61:.3f}  "
            f"Brier {s.brier:.3f}  chi2 {s.chi2:>6.2f}/{s.df}df{'' if s.calibrated else ' (beyond 99.9%)'}  "
            f"points {s.mean_points:5.1f} vs DD {s.dd_points:5.1f}  trumps {s.trumps:.2f} vs held "
            f"{s.held_trumps:.2f}  ESS {s.effective:.1f}  bins {s.bins}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=150, help="deals per row (default 150)")
    ap.add_argument("--worlds", type=int, default=200, help="worlds per view (default 200)")
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--rows", nargs="+", default=list(ROWS), choices=list(ROWS))
    ap.add_argument("--json", metavar="FILE", help="also write every deal's figures to FILE (JSON)")
    a = ap.parse_args(argv)
    if a.deals < 1 or a.worlds < 1:
        ap.error("--deals and --worlds: 1 or more")
    if a.json and os.path.lexists(a.json):
        ap.error(f"--json: {a.json} exists; it is not replaced")
    every: dict[str, list] = {}
    for row in a.rows:
        t0 = time.process_time()
        results = measure(row, a.deals, a.worlds, a.seed, progress=True)
        dt = time.process_time() - t0
        for mode in MODES:
            print(line(summarize(results, mode)), flush=True)
        games = sorted({r.game for r in results})
        print(f"{row:<10} {len(results)} deals ({', '.join(f'{g} {sum(r.game == g for r in results)}' for g in games)})"
              f", {a.worlds} worlds, seed {a.seed}: {dt:.0f} processor seconds", flush=True)
        every[row] = [asdict(r) for r in results]
    if a.json:
        with open(a.json, "x", encoding="utf-8") as f:
            json.dump({"deals": a.deals, "worlds": a.worlds, "seed": a.seed, "rows": every}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
