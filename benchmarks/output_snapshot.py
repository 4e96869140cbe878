"""Every command's output on every bundled example, in text, JSON and HTML, written to one folder: run it before
and after a refactoring and compare the folders (``diff -r``). Timings are the only thing masked.

    python benchmarks/output_snapshot.py OUT_DIR [--quick] [--inference none|auction]
    diff -r BEFORE_DIR AFTER_DIR

Each run is one file ``<example>__<command>.txt`` holding the exit code, standard output and standard error; an
HTML page written by ``--html`` is kept beside it as ``.html``. Sampling commands run with a fixed seed, few worlds
and ``--jobs 1`` so the answers are the same on every run. The commands run in this process through click's test
runner (no terminal: no colours, no progress bars).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from sheepsolve.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: Times, in text ("12.3 ms", "0.52 s", "1,234 nodes/s") and JSON ("seconds": 0.0123).
TIMING_PATTERNS = [
    (re.compile(r'"(\w*seconds|ms|elapsed|time|solves_per_second)": [0-9.eE+-]+'), r'"\1": <t>'),
    (re.compile(r"\b\d+(?:\.\d+)?(?:e-?\d+)? ?(?:ms|s|sec|seconds)\b"), "<t>"),
    (re.compile(r"[\d,]+(?:\.\d+)? (nodes|solves|worlds|records)/s\b"), r"<t> \1/s"),
]


def mask_timings(text: str) -> str:
    for pattern, repl in TIMING_PATTERNS:
        text = pattern.sub(repl, text)
    return text


SAMPLING = ["--worlds", "8", "--seed", "3", "--jobs", "1"]


#: Commands whose worlds the auction may weigh (``--inference``); ``annotate`` takes it with ``--view player`` only.
INFERRING = {"suggest", "pick", "choose", "annotate-player", "bury-picker", "import-sauspiel-suggest"}


def with_inference(name: str, args: list[str], inference: str | None) -> list[str]:
    """``args`` with ``--inference`` added where the command weighs worlds (none added when ``inference`` is None:
    each command's default)."""
    base = name.split("__")[-1].removesuffix("-json").removesuffix("-at")
    if inference is None or base not in INFERRING:
        return args
    return [*args, "--inference", inference]


def commands_for(path: Path) -> dict[str, list[str]]:
    """The runs of one example: name -> arguments (``{html}`` stands for a page written to a temporary file)."""
    f = str(path)
    runs = {
        "show": ["show", f],
        "show-json": ["show", f, "--json"],
        "show-ascii": ["show", f, "--cards", "ascii"],
        "solve": ["solve", f],
        "solve-json": ["solve", f, "--json"],
        "solve-target": ["solve", f, "--target", "61", "--json"],
        "annotate": ["annotate", f, "--html", "{html}"],
        "annotate-json": ["annotate", f, "--json"],
        "annotate-player": ["annotate", f, "--view", "player", "--worlds", "4", "--seed", "3", "--jobs", "1",
                            "--html", "{html}"],
        "annotate-player-json": ["annotate", f, "--view", "player", "--worlds", "4", "--seed", "3", "--jobs", "1",
                                 "--json"],
        "bury": ["bury", f, "--jobs", "1", "--html", "{html}"],
        "bury-json": ["bury", f, "--jobs", "1", "--json"],
        "bury-picker": ["bury", f, "--view", "picker", *SAMPLING, "--html", "{html}"],
        "bury-picker-json": ["bury", f, "--view", "picker", *SAMPLING, "--json"],
        "pick": ["pick", f, *SAMPLING, "--html", "{html}"],
        "pick-json": ["pick", f, *SAMPLING, "--json"],
        "choose": ["choose", f, *SAMPLING, "--html", "{html}"],
        "choose-json": ["choose", f, *SAMPLING, "--json"],
        "suggest": ["suggest", f, *SAMPLING, "--html", "{html}"],
        "suggest-json": ["suggest", f, *SAMPLING, "--json"],
        "suggest-at": ["suggest", f, *SAMPLING, "--at", "2.2"],
        "suggest-at-json": ["suggest", f, *SAMPLING, "--at", "2.2", "--json"],
    }
    return runs


def run_one(runner: CliRunner, args: list[str], tmp: Path) -> tuple[str, str | None]:
    html_path = tmp / "page.html"
    if html_path.exists():
        html_path.unlink()
    args = [str(html_path) if a == "{html}" else a for a in args]
    result = runner.invoke(cli_main, args, catch_exceptions=True)
    out = f"$ sheepsolve {' '.join(a if a != str(html_path) else 'OUT.html' for a in args)}\n"
    out += f"exit: {result.exit_code}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}\n"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        out += f"--- exception\n{type(result.exception).__name__}: {result.exception}\n"
    out = out.replace(str(tmp), "TMP").replace(str(ROOT), "ROOT")
    page = html_path.read_text(encoding="utf-8") if html_path.exists() else None
    return mask_timings(out), (mask_timings(page.replace(str(ROOT), "ROOT")) if page is not None else None)


def snapshot(out_dir: Path, quick: bool = False, inference: str | None = None) -> int:
    out_dir.mkdir(parents=True, exist_ok=True)
    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames else CliRunner()
    examples = sorted(EXAMPLES.glob("*.toml"))
    if quick:
        examples = examples[:6]
    n = 0
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        jobs: list[tuple[str, list[str]]] = [
            ("games", ["games"]), ("games-json", ["games", "--json"]), ("games-ascii", ["games", "--cards", "ascii"])]
        for ex in examples:
            for name, args in commands_for(ex).items():
                jobs.append((f"{ex.stem}__{name}", args))
        puzzles = sorted((EXAMPLES / "puzzles").glob("*.toml"))
        if quick:
            puzzles = puzzles[:4]
        for pz in puzzles:
            jobs.append((f"puzzle-{pz.stem}__show", ["puzzle", "show", str(pz)]))
            jobs.append((f"puzzle-{pz.stem}__reveal", ["puzzle", "show", "--reveal", str(pz)]))
            jobs.append((f"puzzle-{pz.stem}__check", ["puzzle", "check", str(pz)]))
        jobs.append(("puzzle-booklet", ["puzzle", "show", "--html", "{html}", *map(str, puzzles)]))
        jobs.append(("import-sauspiel", ["import", "openschafkopf", "--rules", "rufspiel eichel von 1",
                                         "--hand", "eo go hu su ha h9 ez e7"]))
        jobs.append(("import-sauspiel-suggest", ["import", "openschafkopf", "--rules", "rufspiel eichel von 1",
                                                 "--hand", "eo go hu su ha h9 ez e7", "--suggest", *SAMPLING]))
        for name, args in jobs:
            text, page = run_one(runner, with_inference(name, args, inference), tmp)
            (out_dir / f"{name}.txt").write_text(text, encoding="utf-8")
            if page is not None:
                (out_dir / f"{name}.html").write_text(page, encoding="utf-8")
            n += 1
        # batch annotate over the examples, then report (text, JSON, HTML) over its lines
        season = tmp / "season.jsonl"
        batch_args = ["batch", "annotate", *map(str, examples), "--out", str(season), "--jobs", "1",
                      "--no-progress"]
        text, _ = run_one(runner, batch_args, tmp)
        (out_dir / "batch-annotate.txt").write_text(text, encoding="utf-8")
        if season.exists():
            lines = [json.loads(line) for line in season.read_text(encoding="utf-8").splitlines() if line.strip()]
            (out_dir / "batch-annotate.jsonl").write_text(
                mask_timings("\n".join(json.dumps(x, sort_keys=True) for x in sorted(
                    lines, key=lambda x: json.dumps(x, sort_keys=True)))).replace(str(ROOT), "ROOT"),
                encoding="utf-8")
            for name, args in [("report", ["report", str(season), "--html", "{html}"]),
                               ("report-json", ["report", str(season), "--json"])]:
                text, page = run_one(runner, args, tmp)
                (out_dir / f"{name}.txt").write_text(text, encoding="utf-8")
                if page is not None:
                    (out_dir / f"{name}.html").write_text(page, encoding="utf-8")
        n += 3
    return n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--quick", action="store_true", help="the first six examples and four puzzles only")
    parser.add_argument("--inference", choices=["auction", "none"], default=None,
                        help="passed to every command that weighs its worlds [default: each command's default]")
    args = parser.parse_args(argv)
    n = snapshot(args.out_dir, quick=args.quick, inference=args.inference)
    print(f"{n} runs written to {args.out_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
