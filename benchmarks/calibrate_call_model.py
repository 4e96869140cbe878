"""Calibration figures of the shipped model of the calls (sheepsolve.inference.calibration), for docs/TUNING.md.

    python benchmarks/calibrate_call_model.py --deals 400 --seed 36 --worlds sheepshead=200 called-ace=400 sauspiel=200

Per table: deals whose auctions the model plays, the weighted worlds' P(the declarer holds QC) binned against
how often he does (chi-square and its degrees of freedom), the z of the declarer's trumps (weighted, and with
uniform worlds), the mean effective sample size of the weighted worlds, the seconds taken.

    python benchmarks/calibrate_call_model.py --doubles --deals 300 --worlds sheepshead=150 sauspiel=150

With ``--doubles``: the doubling calls instead (sheepsolve.inference.double_calibration), each call of each table:
deals whose auctions and doubles the model plays, P(the doubler holds QC) binned, the doubler's trumps as a z, the
same z with the bidding alone weighed, and the doublers' mean trumps held against what the bidding alone predicts.
"""

from __future__ import annotations

import argparse
import sys
import time

from sheepsolve.inference.calibration import CHI2_999, FORM_GAMES, calibrate
from sheepsolve.inference.double_calibration import DOUBLE_CALLS, calibrate_doubles


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--worlds", nargs="+", default=["sheepshead=200", "called-ace=400", "sauspiel=200", "short=200"],
                    metavar="FORM=N")
    ap.add_argument("--doubles", action="store_true", help="calibrate the doubling calls instead")
    args = ap.parse_args(argv)
    for item in args.worlds:
        form, _, n = item.partition("=")
        if form not in FORM_GAMES or not n.isdigit():
            ap.error(f"--worlds {item!r}: FORM=N with FORM one of {', '.join(FORM_GAMES)}")
        t0 = time.process_time()
        if args.doubles:
            for call in DOUBLE_CALLS:
                if call == "klopfen" and form not in ("sauspiel", "short"):
                    continue
                t0 = time.process_time()
                d = calibrate_doubles(form, call, deals=args.deals, worlds=int(n), seed=args.seed)
                print(f"{form} {call}: {d.deals} deals ({d.played} auctions played) x {d.worlds} worlds, mean ESS "
                      f"{d.mean_ess}; P(doubler holds QC) binned: {d.bins}; chi2 {d.chi2} on {d.df} df (99.9%: "
                      f"{CHI2_999.get(d.df)}); trumps z {d.z} (bidding alone {d.bidding_z}); trumps held "
                      f"{d.mean_trumps}, bidding alone {d.bidding_trumps}; empty {d.empty}; "
                      f"{'passes' if d.passes else 'FAILS'}; {time.process_time() - t0:.1f} s", flush=True)
            continue
        r = calibrate(form, deals=args.deals, worlds=int(n), seed=args.seed)
        dt = time.process_time() - t0
        print(f"{form}: {r.deals} deals x {r.worlds} worlds, mean ESS {r.mean_ess}; P(declarer holds QC) binned "
              f"(mean predicted, share held, deals): {r.bins}; chi2 {r.chi2} on {r.df} df (99.9%: "
              f"{CHI2_999.get(r.df)}); trumps z {r.z} (uniform worlds {r.uniform_z}); empty {r.empty}; "
              f"{'passes' if r.passes else 'FAILS'}; {dt:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
