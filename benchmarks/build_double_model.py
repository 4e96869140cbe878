"""Rebuild ``src/sheepsolve/inference/double_model.json``, the data of the model of the doubling calls, from a seed.

    nice -n 15 python benchmarks/build_double_model.py --seed 36 \\
        --deals sheepshead/jack-of-diamonds=20000 --deals schafkopf-4-long=8000 ...

Deterministic: the same seed and deals (and the same model of the calls, which plays the auctions) give the same
tables (only ``commit`` and the ``seconds`` differ). The shipped build's figures (processor seconds per form) are
recorded in the file and in docs/TUNING.md. See ``sheepsolve.inference.double_build`` for what is run and fitted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from sheepsolve.inference.build import FORMS
from sheepsolve.inference.double_build import MIN_SAMPLES, build_double_model, collect_double_samples

OUT = Path(__file__).resolve().parent.parent / "src" / "sheepsolve" / "inference" / "double_model.json"


def _commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--deals", action="append", default=[], metavar="FORM=N",
                    help=f"deals of one form (repeatable); forms: {', '.join(FORMS)}")
    ap.add_argument("--min-samples", type=int, default=MIN_SAMPLES, help="tables of fewer samples are left out")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--commit", help="the git commit of the code run (default: asked of git)")
    ap.add_argument("--samples-out", type=Path, metavar="FILE", help="also write the samples (to refit them)")
    ap.add_argument("--from-samples", type=Path, metavar="FILE",
                    help="fit the samples of an earlier run (same seed and deals) instead of solving again")
    args = ap.parse_args(argv)
    deals = {}
    for item in args.deals or ["sheepshead/jack-of-diamonds=40", "schafkopf-4-long=40"]:
        form, _, n = item.partition("=")
        if form not in FORMS or not n.isdigit():
            ap.error(f"--deals {item!r}: FORM=N with FORM one of {', '.join(FORMS)}")
        deals[form] = int(n)

    def progress(form: str, done: int, n: int) -> None:
        if done == n or done % 1000 == 0:
            print(f"{form}: {done}/{n}", file=sys.stderr, flush=True)

    if args.from_samples:
        samples = json.loads(args.from_samples.read_text(encoding="utf-8"))
    else:
        samples = collect_double_samples(seed=args.seed, deals=deals, progress=progress)
        if args.samples_out:
            args.samples_out.write_text(json.dumps(samples) + "\n", encoding="utf-8")
    data = build_double_model(seed=args.seed, deals=deals, commit=args.commit or _commit(), samples=samples,
                              min_samples=args.min_samples)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(data['models'])} tables, {data['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
