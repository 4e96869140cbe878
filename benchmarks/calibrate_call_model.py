"""Calibration figures of the shipped model of the calls (sheepsolve.inference.calibration), for docs/TUNING.md.

    python benchmarks/calibrate_call_model.py --deals 400 --seed 36 --worlds sheepshead=200 called-ace=400 sauspiel=200

Per table: deals whose auctions the model plays, the weighted worlds' P(the declarer holds QC) binned against
how often he does (chi-square and its degrees of freedom), the z of the declarer's trumps (weighted, and with
uniform worlds), the mean effective sample size of the weighted worlds, the seconds taken.
"""

from __future__ import annotations

import argparse
import sys
import time

from sheepsolve.inference.calibration import CHI2_999, FORM_GAMES, calibrate


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--worlds", nargs="+", default=["sheepshead=200", "called-ace=400", "sauspiel=200", "short=200"],
                    metavar="FORM=N")
    args = ap.parse_args(argv)
    for item in args.worlds:
        form, _, n = item.partition("=")
        if form not in FORM_GAMES or not n.isdigit():
            ap.error(f"--worlds {item!r}: FORM=N with FORM one of {', '.join(FORM_GAMES)}")
        t0 = time.process_time()
        r = calibrate(form, deals=args.deals, worlds=int(n), seed=args.seed)
        dt = time.process_time() - t0
        print(f"{form}: {r.deals} deals x {r.worlds} worlds, mean ESS {r.mean_ess}; P(declarer holds QC) binned "
              f"(mean predicted, share held, deals): {r.bins}; chi2 {r.chi2} on {r.df} df (99.9%: "
              f"{CHI2_999.get(r.df)}); trumps z {r.z} (uniform worlds {r.uniform_z}); empty {r.empty}; "
              f"{'passes' if r.passes else 'FAILS'}; {dt:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
