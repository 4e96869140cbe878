"""Rebuild ``src/sheepsolve/inference/call_model.json``, the data of the model of the calls, from a seed.

    nice python benchmarks/build_call_model.py --seed 36 --worlds 12 \\
        --hands sheepshead/jack-of-diamonds=1200 --hands sheepshead/called-ace=600 --hands schafkopf-4-long=700

Deterministic: the same seed, hands and worlds give the same weights (only ``commit`` and the ``seconds`` differ).
The figures of the shipped build (processor seconds per form) are recorded in the file and in docs/TUNING.md.
See ``sheepsolve.inference.build`` for what is run and fitted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sheepsolve.inference.build import FORMS, build_model, collect_samples, join_samples, merge

OUT = Path(__file__).resolve().parent.parent / "src" / "sheepsolve" / "inference" / "call_model.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--worlds", type=int, default=12, help="worlds solved per hand")
    ap.add_argument("--hands", action="append", default=[], metavar="FORM=N",
                    help=f"hands of one form (repeatable); forms: {', '.join(FORMS)}")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--commit", help="the git commit of the code run (default: asked of git)")
    ap.add_argument("--samples-out", type=Path, metavar="FILE", help="also write the samples (to refit them)")
    ap.add_argument("--first", type=int, default=0,
                    help="collect only the samples of the hands numbered from FIRST (with --samples-out, no data)")
    ap.add_argument("--join-samples", type=Path, nargs="+", metavar="FILE",
                    help="fit the samples of consecutive ranges of hands (--first) as one run's")
    ap.add_argument("--from-samples", type=Path, metavar="FILE",
                    help="fit the samples of an earlier run (same seed, hands and worlds) instead of solving again")
    ap.add_argument("--merge", type=Path, nargs="+", metavar="FILE",
                    help="instead of building, merge the outputs of builds of other forms (one seed and worlds)")
    args = ap.parse_args(argv)
    if args.merge:
        data = merge([json.loads(p.read_text(encoding="utf-8")) for p in args.merge])
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.out}: {len(data['models'])} models, {data['seconds']} s", file=sys.stderr)
        return 0
    hands = {}
    for item in args.hands or ["sheepshead/jack-of-diamonds=20", "schafkopf-4-long=10"]:
        form, _, n = item.partition("=")
        if form not in FORMS or not n.isdigit():
            ap.error(f"--hands {item!r}: FORM=N with FORM one of {', '.join(FORMS)}")
        hands[form] = int(n)

    def progress(form: str, done: int, n: int) -> None:
        if done == n or done % 50 == 0:
            print(f"{form}: {done}/{n}", file=sys.stderr, flush=True)

    if args.first:
        if not args.samples_out:
            ap.error("--first needs --samples-out: a range of hands is joined with --join-samples")
        samples = collect_samples(seed=args.seed, hands=hands, worlds=args.worlds, progress=progress,
                                  first=args.first)
        args.samples_out.write_text(json.dumps(samples) + "\n", encoding="utf-8")
        return 0
    if args.join_samples:
        samples = join_samples([json.loads(p.read_text(encoding="utf-8")) for p in args.join_samples])
        hands = samples["hands"]
    elif args.from_samples:
        samples = json.loads(args.from_samples.read_text(encoding="utf-8"))
    else:
        samples = collect_samples(seed=args.seed, hands=hands, worlds=args.worlds, progress=progress)
        if args.samples_out:
            args.samples_out.write_text(json.dumps(samples) + "\n", encoding="utf-8")
    data = build_model(seed=args.seed, hands=hands, worlds=args.worlds, commit=args.commit, samples=samples)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(data['models'])} models, {data['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
