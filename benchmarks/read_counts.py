"""How often each command reads its record, replays its play and creates setups, on every bundled example.

    python benchmarks/read_counts.py                 # this checkout
    PYTHONPATH=OLD/src python benchmarks/read_counts.py --examples OLD/examples   # another checkout

Every command runs in this process through click's test runner, on every example it answers (a run that exits
with an error is left out), and four calls are counted:

- ``reads``: passes of the record reader over a record's data (the checker's ``read``);
- ``replays``: the play replayed through the engine into a kept replay (``record.model.replay_of``; "-" where the
  checkout has none);
- ``setups``: ``Setup.create`` (the deal and the call checked): the record's own, the trial deals of a call and
  every setup an analysis makes (the bury's alternatives, the worlds of the player's view);
- ``walks``: ``Setup.start`` (a walk of a play from its first lead).

Per command: the runs counted and, over them, the most and the fewest of each call (``min-max``). The figures
of issue 32 ("Done when") come from this script, before (fdaf44c) and after; see docs/TUNING.md.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from sheepsolve.cli import main as cli_main
from sheepsolve.engine import Setup

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SAMPLING = ["--worlds", "4", "--seed", "3", "--jobs", "1"]


def commands(f: str) -> dict[str, list[str]]:
    """The commands run on one example."""
    return {
        "show": ["show", f, "--json"],
        "solve": ["solve", f, "--json"],
        "annotate": ["annotate", f, "--json"],
        "annotate --view player": ["annotate", f, "--view", "player", *SAMPLING, "--json"],
        "suggest": ["suggest", f, *SAMPLING, "--json"],
        "suggest --at 2.2": ["suggest", f, *SAMPLING, "--at", "2.2", "--json"],
        "bury": ["bury", f, "--jobs", "1", "--json"],
        "bury --view picker": ["bury", f, "--view", "picker", *SAMPLING, "--json"],
        "pick": ["pick", f, *SAMPLING, "--json"],
        "choose": ["choose", f, *SAMPLING, "--json"],
    }


IMPORT_SUGGEST = ["import", "openschafkopf", "--rules", "rufspiel eichel von 1", "--hand",
                  "eo go hu su ha h9 ez e7", "--suggest", *SAMPLING]


def _reader_class() -> Any:
    for name, attr in (("sheepsolve.record.check", "_Reader"), ("sheepsolve.record", "_Reader")):
        try:
            return getattr(importlib.import_module(name), attr)
        except (ImportError, AttributeError):
            continue
    raise SystemExit("no record reader class found")


class Counter:
    """Counts the four calls while installed (wrapping the functions in place)."""

    KEYS = ("reads", "replays", "setups", "walks")

    def __init__(self) -> None:
        self.seen: collections.Counter[str] = collections.Counter()
        self.has_replay = False

    def _wrap(self, key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            self.seen[key] += 1
            return fn(*args, **kwargs)
        return wrapped

    def install(self) -> None:
        reader = _reader_class()
        reader.read = self._wrap("reads", reader.read)
        create = Setup.create.__func__  # type: ignore[attr-defined]
        Setup.create = classmethod(self._wrap("setups", create))  # type: ignore[method-assign, assignment]
        Setup.start = self._wrap("walks", Setup.start)  # type: ignore[method-assign]
        try:
            model = importlib.import_module("sheepsolve.record.model")
            model.replay_of = self._wrap("replays", model.replay_of)  # type: ignore[attr-defined]
            self.has_replay = True
        except (ImportError, AttributeError):
            pass

    def run(self, runner: CliRunner, args: list[str]) -> dict[str, int] | None:
        self.seen.clear()
        result = runner.invoke(cli_main, args, catch_exceptions=True)
        if result.exit_code != 0:
            return None
        return {k: self.seen[k] for k in self.KEYS}


def measure(examples: list[Path]) -> dict[str, list[dict[str, int]]]:
    counter = Counter()
    counter.install()
    runner = CliRunner()
    out: dict[str, list[dict[str, int]]] = collections.defaultdict(list)
    for ex in examples:
        for name, args in commands(str(ex)).items():
            got = counter.run(runner, args)
            if got is not None:
                out[name].append(got)
    got = counter.run(runner, IMPORT_SUGGEST)
    if got is not None:
        out["import --suggest"].append(got)
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "season.jsonl"
        finished = [str(p) for p in examples if p.stem.endswith("finished")][:6]
        runner.invoke(cli_main, ["batch", "annotate", *finished, "--out", str(jsonl), "--jobs", "1"])
        if jsonl.exists():
            got = counter.run(runner, ["report", str(jsonl), "--json"])
            if got is not None:
                out["report"].append(got)
    if not counter.has_replay:
        for runs in out.values():
            for r in runs:
                r["replays"] = -1
    return out


def span(values: list[int]) -> str:
    if min(values) < 0:
        return "-"
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def table(found: dict[str, list[dict[str, int]]]) -> str:
    lines = ["| command | runs | reads | replays | setups | walks |", "|---|---|---|---|---|---|"]
    for name, runs in found.items():
        cells = [span([r[k] for r in runs]) for k in Counter.KEYS]
        lines.append(f"| `{name}` | {len(runs)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=Path, default=EXAMPLES, metavar="DIR",
                        help="the folder of examples (default: this checkout's)")
    parser.add_argument("--only", nargs="*", default=None, metavar="STEM",
                        help="only these examples (file stems); default every bundled example")
    args = parser.parse_args(argv)
    examples = sorted(args.examples.glob("*.toml"))
    if args.only:
        examples = [p for p in examples if p.stem in args.only]
    print(table(measure(examples)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
