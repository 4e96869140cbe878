"""Mutated records through every command, in-process, each run under a time limit: whatever the record holds, a
command ends in time with status 0, a puzzle check's 1, or 2 with one ``error:`` line, never a traceback.

The records are the bundled examples, the puzzles and the test records, changed at random one to three times: a
key deleted or given a hostile value (a huge or negative number, a long text, control characters, a table, a
list), a card replaced, moved between hands or duplicated, the play cut, reordered or extended, the text itself
cut or its bytes changed. Each mutated record goes through show, solve, annotate, bury, pick, choose, suggest,
puzzle show, puzzle check, batch (one process) and report (on the batch's output, or on the record itself);
import openschafkopf gets random rules, hands and cards on the table (sampling commands with a couple of
worlds, one process). The newest commands get their options at random too, hostile values among them:
suggest (--seat, --at, --worlds N|all, --seed, --no-race, --json, --html), annotate --view player (--worlds, --race/--no-race,
--min-cost, --html), --cards german|french|ascii on every command that shows cards, batch over JSON Lines with
bad lines (binary, cut, too long, not objects) from a file or standard input and --resume over a damaged
output, report over an annotate batch line with a value changed at random. The edges (issue 35), drawn apart:
names with invisible and bidirectional characters, 5,000-digit numbers, byte-order marks (in files and on standard
input), nesting thousands deep in JSON and TOML, and batches whose output is unwritable (a read-only folder, no
folder, ``ulimit -f``) or held by another batch; a few commands hung up (SIGHUP) at random moments with workers
running, and a few run with little memory to spare.

1200 runs by default; ``python -m pytest -m slow tests/test_fuzz_commands.py`` sweeps
``FUZZ_RECORDS`` records (default 400) through every command. ``-s`` prints the counts of outcomes.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import signal
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers_cli import LOW_MEMORY, ROOT
from sheepsolve.cli import main

BASES = sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "examples" / "puzzles").glob("*.toml")) + \
    sorted(p for p in (ROOT / "tests" / "records").iterdir() if p.suffix in (".toml", ".json"))
CARDS = [r + s for r in "AKQJT987" for s in "CSHD"]
TIME_LIMIT = 60.0  # seconds per command run; the runs here take well under one
KEYS = ["game", "trump", "tout", "deck", "partner", "players", "picker", "declarer", "blind", "bury", "called",
        "under", "alone", "crack", "recrack", "kontra", "re", "doublers", "play", "rules", "hands", "seats",
        "dealer", "puzzle", "comment"]
HOSTILE: list[Any] = [
    True, False, 0, -1, 3, 17, 20000, 10**12, 2**31, 2**63 - 1, -2**63, 1.5, float("inf"), "", " ", "1", "Ann",
    "x" * 100_000, "Ann\nerror: forged", "\x1b[31mred", "\u202eevil", "²", "٦١", "AS", "alone", "short", "H",
    "called-ace", "wenz", "sheepshead", "ramsch", [], ["Ann"], ["AS", "KS"], {}, {"run": True},
    {"preset": "gametwist"}, {"tout_multiplier": 10**12}, {"doublers": 1}, [[["deep"]]],
    {"goal": "²", "to_move": "1", "solution": "AS", "difficulty": "easy"},
]


class CaseTimeout(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout()


def _benign(rnd: random.Random, d: dict[str, Any]) -> None:
    """A change that often leaves the record valid: the play cut to a prefix, a hand left out, hostile text in an
    informational key, a doubler."""
    kind = rnd.randrange(4)
    play = d.get("play")
    if kind == 0 and isinstance(play, list) and play and all(isinstance(t, str) for t in play):
        cards = [c for t in play for c in t.split()]
        per = max(len(t.split()) for t in play)
        keep = rnd.randrange(len(cards) + 1)
        cut = cards[:keep]
        d["play"] = [" ".join(cut[i:i + per]) for i in range(0, len(cut), per)]
    elif kind == 1 and isinstance(d.get("hands"), dict) and len(d["hands"]) > 1:
        del d["hands"][rnd.choice(sorted(d["hands"]))]
    elif kind == 2:
        d[rnd.choice(["comment", "event", "notes"])] = rnd.choice(["Ann\nerror: forged", "\x1b[2J", "x" * 5000,
                                                                  "\u202e", "Stammtisch"])
    else:
        d["doublers"] = rnd.choice([0, 1, 2, 16])


def _mutate(rnd: random.Random, d: dict[str, Any]) -> None:
    if rnd.random() < 0.4:
        _benign(rnd, d)
        return
    kind = rnd.randrange(9)
    if kind == 0 and d:
        del d[rnd.choice(sorted(d))]
    elif kind == 1:
        d[rnd.choice(KEYS)] = copy.deepcopy(rnd.choice(HOSTILE))
    elif kind in (2, 3) and isinstance(d.get("hands"), dict) and d["hands"]:
        hands = d["hands"]
        who = rnd.choice(sorted(hands))
        if not isinstance(hands[who], str):
            return
        hand = hands[who].split()
        if not hand:
            return
        op = rnd.randrange(4)
        if op == 0:
            hand[rnd.randrange(len(hand))] = rnd.choice(CARDS)
        elif op == 1:
            hand.append(rnd.choice(CARDS))
        elif op == 2:
            hand.pop()
        elif len(hands) > 1:  # a card in two hands, or moved to another
            other = rnd.choice([k for k in sorted(hands) if k != who])
            if isinstance(hands[other], str):
                hands[other] = hands[other] + " " + rnd.choice(hand)
        hands[who] = " ".join(hand)
    elif kind in (4, 5) and isinstance(d.get("play"), list) and d["play"]:
        play = d["play"]
        t = rnd.randrange(len(play))
        if not isinstance(play[t], str):
            return
        trick = play[t].split()
        op = rnd.randrange(5)
        if op == 0 and trick:
            trick[rnd.randrange(len(trick))] = rnd.choice(CARDS)
        elif op == 1:
            trick.append(rnd.choice(CARDS))
        elif op == 2 and len(trick) > 1:
            i, j = rnd.sample(range(len(trick)), 2)
            trick[i], trick[j] = trick[j], trick[i]
        elif op == 3:
            del play[t:]
            return
        else:
            play.append(" ".join(rnd.sample(CARDS, rnd.randrange(1, 6))))
            return
        play[t] = " ".join(trick)
    elif kind == 6:
        for key in ("blind", "bury", "called", "under"):
            if key in d and rnd.random() < 0.5:
                d[key] = rnd.choice(CARDS + ["alone", ""]) if key in ("called", "under") else \
                    " ".join(rnd.sample(CARDS, 2))
    elif kind == 7 and isinstance(d.get("puzzle"), dict):
        d["puzzle"][rnd.choice(["goal", "to_move", "solution", "refutations", "difficulty"])] = \
            copy.deepcopy(rnd.choice(HOSTILE))
    else:
        d["rules"] = {rnd.choice(["run", "tout_multiplier", "alone_multiplier", "tariff_solo", "run_min",
                                  "laufende_from", "bogus", "preset"]): copy.deepcopy(rnd.choice(HOSTILE))}


def mutated_record(rnd: random.Random, tmp: Path, i: int) -> Path:
    base = rnd.choice(BASES)
    text = base.read_text(encoding="utf-8")
    if rnd.random() < 0.15:  # the text itself
        raw = bytearray(text.encode("utf-8"))
        op = rnd.randrange(3)
        if op == 0:
            raw = raw[: rnd.randrange(len(raw))]
        elif op == 1:
            for _ in range(rnd.randrange(1, 4)):
                raw[rnd.randrange(len(raw))] = rnd.randrange(256)
        else:
            lines = bytes(raw).split(b"\n")
            k = rnd.randrange(len(lines))
            lines.insert(k, lines[rnd.randrange(len(lines))])
            raw = bytearray(b"\n".join(lines))
        p = tmp / f"case{i}{base.suffix}"
        p.write_bytes(bytes(raw))
        return p
    d = json.loads(text) if base.suffix == ".json" else tomllib.loads(text)
    for _ in range(rnd.randrange(1, 4)):
        try:
            _mutate(rnd, d)
        except (TypeError, AttributeError, IndexError, ValueError, KeyError):
            pass
    p = tmp / f"case{i}.json"
    p.write_text(json.dumps(d, default=str), encoding="utf-8")
    return p


def _seat(path: Path, rnd: random.Random) -> str:
    try:
        text = path.read_text(encoding="utf-8")
        d = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
        names = d.get("players")
        if isinstance(names, list) and names and rnd.random() < 0.9:
            return str(rnd.choice(names))
    except Exception:  # noqa: BLE001
        pass
    return rnd.choice(["1", "2", "Zed", "", "x" * 1000])


HOSTILE_WORLDS = ["0", "-1", "abc", "20001", "٣", "1_0", "", "9" * 40]
HOSTILE_SEEDS = ["-1", str(2**63), "1.5", "x", "9" * 30]
HOSTILE_MIN_COST = ["-1", "121", "9" * 30, "x"]


def _pick(rnd: random.Random, good: list[str], bad: list[str], p_bad: float = 0.1) -> str:
    return rnd.choice(bad) if rnd.random() < p_bad else rnd.choice(good)


def _cards(rnd: random.Random) -> list[str]:
    return rnd.choice([[], [], ["--cards", "german"], ["--cards", "french"], ["--cards", "ascii"],
                       ["--cards", "klingon"]])


def _html(rnd: random.Random, path: Path, tag: str) -> list[str]:
    r = rnd.random()
    if r < 0.15:
        return ["--html", str(path.with_suffix(f".{tag}.html"))]
    if r < 0.18:
        return ["--html", rnd.choice([str(path), "", str(path.parent)])]  # the input, no name, a folder
    return []


def new_command_lines(path: Path, rnd: random.Random, seat: str) -> list[list[str]]:
    """The newest commands with their options at random (hostile values now and then)."""
    f = str(path)
    lines = [
        ["suggest", f, "--worlds", _pick(rnd, ["1", "2", "3", "all"], HOSTILE_WORLDS), "--jobs", "1",
         "--seed", _pick(rnd, ["0", "7", str(2**63 - 1)], HOSTILE_SEEDS)]
        + rnd.choice([[], ["--seat", seat]]) + rnd.choice([[], ["--no-race"]])
        + rnd.choice([[], [], ["--at", _pick(rnd, ["1", "2.3", "3", "5.2", "9.1"], ["0", "x", "٣", "1.9", ""])]])
        + rnd.choice([[], ["--json"]]) + _html(rnd, path, "s") + _cards(rnd),
    ]
    if rnd.random() < 0.3:  # a decision at a time in every world: the slow one
        lines.append(["annotate", f, "--no-bury", "--view", "player", "--worlds", _pick(rnd, ["1"], HOSTILE_WORLDS),
                      "--jobs", "1"] + rnd.choice([[], ["--race"], ["--no-race"]])
                     + rnd.choice([[], [], ["--min-cost", _pick(rnd, ["0", "5", "120"], HOSTILE_MIN_COST, 0.3)]])
                     + rnd.choice([[], ["--json"]]) + _html(rnd, path, "a") + _cards(rnd))
    return lines


def _mutate_json(rnd: random.Random, obj: Any) -> None:
    """One value somewhere in ``obj`` (nested objects and lists) replaced by a hostile one, or a key deleted."""
    for _ in range(8):  # down a random path
        keys = list(obj) if isinstance(obj, dict) else list(range(len(obj))) if isinstance(obj, list) else []
        if not keys:
            return
        k = rnd.choice(keys)
        if isinstance(obj[k], (dict, list)) and obj[k] and rnd.random() < 0.75:
            obj = obj[k]
            continue
        if isinstance(obj, dict) and rnd.random() < 0.2:
            del obj[k]
        else:
            obj[k] = copy.deepcopy(rnd.choice(HOSTILE + [None, -5, 1e300, "nan", [1, 2], {"x": 1}]))
        return


def report_input(rnd: random.Random, path: Path, annotated: list[dict[str, Any]]) -> Path:
    """A batch file of annotate lines, one of them changed at random (or a line that is not a batch line)."""
    lines = [copy.deepcopy(rnd.choice(annotated)) for _ in range(rnd.randrange(1, 4))]
    _mutate_json(rnd, rnd.choice(lines))
    text = "\n".join(json.dumps(x, default=str) for x in lines) + "\n"
    if rnd.random() < 0.15:
        text += rnd.choice(["{", "[]", "null", '{"id": 5}', "\x00\x01", '{"id": "x", "error": null}',
                            "[" * 100_000 + "]" * 100_000])
    p = path.with_suffix(".report.jsonl")
    p.write_text(text, encoding="utf-8")
    return p


def batch_lines(path: Path, rnd: random.Random) -> list[tuple[list[str], str | None]]:
    """batch over a JSON Lines file (from a file or standard input) holding the record and bad lines, and now
    and then --resume over a damaged output."""
    record = path.read_bytes()
    try:
        as_line = json.dumps(json.loads(record)) if path.suffix == ".json" else None
    except ValueError:
        as_line = None
    bad = [b"{", b"[1, 2]", b"null", b'"x"', bytes([0xff, 0xfe, 0x00]), b"{" * 50, b'{"game": "wenz"}',
           b"[" * 100_000 + b"]" * 100_000,
           b"x" * (1024 * 1024 + 10) if rnd.random() < 0.05 else b"{}"]
    lines = [as_line.encode() if as_line else record.replace(b"\n", b" ")] + rnd.sample(bad, rnd.randrange(0, 3))
    rnd.shuffle(lines)
    data = b"\n".join(lines) + rnd.choice([b"\n", b""])
    src = path.with_suffix(".in.jsonl")
    src.write_bytes(data)
    out = path.with_suffix(".b.jsonl")
    command = rnd.choice(["show", "solve", "annotate", "suggest"])
    opts = {"annotate": ["--no-bury"], "suggest": ["--worlds", _pick(rnd, ["1", "2"], HOSTILE_WORLDS)]}.get(command, [])
    args = ["batch", command, *opts, "--out", str(out), "--jobs", "1"]
    if rnd.random() < 0.2 and out.exists():  # resume over a damaged output
        old = out.read_bytes()
        cut = old[: rnd.randrange(len(old) + 1)] + rnd.choice([b"", b"\xff\xfe", b"garbage\n", b'{"id"',
                                                              b"[" * 100_000 + b"]" * 100_000 + b"\n"])
        out.write_bytes(cut)
        args.append("--resume")
    else:
        args.append("--force")
    if rnd.random() < 0.3:  # standard input
        return [(args + ["-"], data.decode("utf-8", "replace"))]
    return [(args + [str(src)], None)]


def command_lines(path: Path, rnd: random.Random) -> list[list[str]]:
    f = str(path)
    seat = _seat(path, rnd)
    return new_command_lines(path, rnd, seat) + [
        ["show", f] + (["--json"] if rnd.random() < 0.5 else []) + _cards(rnd),
        ["solve", f] + rnd.choice([[], ["--json"], ["--target", "61"], ["--seat", seat], ["--all-tricks"],
                                   ["--target", str(rnd.choice([0, 91, 121, 122, 2**40]))]]),
        ["annotate", f, "--no-bury"] + (["--json"] if rnd.random() < 0.5 else []),
        ["bury", f, "--worlds", "2", "--jobs", "1"] if rnd.random() < 0.5 else ["bury", f, "--jobs", "1"],
        ["pick", f, "--seat", seat, "--worlds", "2", "--jobs", "1"],
        ["choose", f, "--seat", seat, "--worlds", "2", "--jobs", "1"],
        ["suggest", f, "--worlds", "2", "--jobs", "1"],
        ["puzzle", "show", f] + _cards(rnd) + rnd.choice([[], ["--reveal"]]) + _html(rnd, path, "p"),
        ["puzzle", "check", f] + _cards(rnd),
        ["batch", rnd.choice(["show", "solve", "annotate"]), f, "--out", str(path.with_suffix(".out.jsonl")),
         "--jobs", "1", "--force"] + (["--no-bury"] if rnd.random() < 0.5 else []),
        ["report", str(path.with_suffix(".out.jsonl")) if rnd.random() < 0.7 else f],
        _import_line(rnd),
    ]


_OS_WORDS = ["rufspiel", "solo", "wenz", "geier", "ramsch", "tout", "von", "spielt", "eichel", "gras", "herz",
             "schellen", "blau", "rot", "pump", "0", "1", "3", "4", "-1", "99999999999999999999", "x" * 5000,
             "\n", "\x1b", "²"]
_OS_CARDS = [s + r for s in "eghs" for r in "azkou987"] + ["xx", "e", "", "ez ez", "\x00"]


def _import_line(rnd: random.Random) -> list[str]:
    rules = " ".join(rnd.choice(_OS_WORDS) for _ in range(rnd.randrange(1, 5)))
    hand = " ".join(rnd.choice(_OS_CARDS) for _ in range(rnd.randrange(0, 10)))
    table = " ".join(rnd.choice(_OS_CARDS) for _ in range(rnd.randrange(0, 12)))
    args = ["import", "openschafkopf", "--rules", rules, "--hand", hand]
    if table and rnd.random() < 0.7:
        args += ["--cards-on-table", table]
    if rnd.random() < 0.3:
        args += ["--suggest", "--worlds", "2", "--jobs", "1"]
    return args


def run_case(args: list[str], limit: float = TIME_LIMIT, input: str | None = None) -> tuple[str, float, str]:
    """(outcome, seconds, output): outcome ok, refused (status 2, one error line), unsound (puzzle check's 1),
    or a failure: traceback, timeout, bad-status, bad-error. ``input``: standard input."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = time.perf_counter()
    try:
        r = CliRunner().invoke(main, args, input=input)
    except CaseTimeout:
        return "timeout", time.perf_counter() - t0, ""
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    dt = time.perf_counter() - t0
    out = r.output
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        import traceback

        return "traceback", dt, "".join(traceback.format_exception(r.exception))[-3000:]
    if r.exit_code == 0:
        return "ok", dt, ""
    if r.exit_code == 2:
        lines = out.splitlines()
        good = len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) <= 2100
        return ("refused" if good else "bad-error"), dt, out[:3000]
    if r.exit_code == 1 and args[:2] == ["puzzle", "check"] and "not a sound puzzle" in out:
        return "unsound", dt, ""
    if r.exit_code == 1 and args[0] == "batch" and re.search(r" [1-9][0-9]* errors?; ", out):  # a record failed
        return "batch-errors", dt, ""
    return "bad-status", dt, f"status {r.exit_code}: {out[:3000]}"


def _annotated(tmp: Path) -> list[dict[str, Any]]:
    """A few real annotate batch lines (one with --view player), the bases of the report's inputs."""
    out = tmp / "annotated.jsonl"
    names = ["sauspiel-finished", "sheepshead-jd-finished", "ramsch-finished", "leaster-4-midtrick"]
    r = CliRunner().invoke(main, ["batch", "annotate", "--no-bury", *[str(ROOT / "examples" / f"{n}.toml")
                                                                     for n in names], "--out", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    r = CliRunner().invoke(main, ["batch", "annotate", "--no-bury", "--view", "player", "--worlds", "1",
                                  str(ROOT / "examples" / "wenz-finished.toml"), "--out", str(out), "--jobs", "1",
                                  "--force"])
    assert r.exit_code == 0, r.output
    return lines + [json.loads(x) for x in out.read_text().splitlines()]


def sweep(records: int, seed: int, tmp: Path) -> tuple[Counter, list[tuple[list[str], str, str]], float]:
    rnd = random.Random(seed)
    counts: Counter = Counter()
    failures: list[tuple[list[str], str, str]] = []
    slowest = 0.0
    annotated = _annotated(tmp)
    edges = random.Random(seed * 35 + 1)  # the edge cases' own draws: the other cases stay as they were
    for i in range(records):
        path = mutated_record(rnd, tmp, i)
        for args, stdin, spoil in edge_cases(edges, path) if edges.random() < 0.35 else []:
            outcome, dt, out = run_spoiled(args, stdin, spoil)
            counts[outcome] += 1
            if outcome not in ("ok", "refused", "unsound", "batch-errors"):
                failures.append((args, outcome, out))
        if edges.random() < 0.1:
            differs = bom_twins(edges, path)
            counts["bom-twins"] += 1
            if differs:
                failures.append((["show", str(path), "(with a byte-order mark)"], "bom-differs", differs))
        cases: list[tuple[list[str], str | None]] = [(args, None) for args in command_lines(path, rnd)]
        cases += batch_lines(path, rnd)
        cases.append((["report", str(report_input(rnd, path, annotated))] + rnd.choice([[], ["--json"]])
                      + _html(rnd, path, "r"), None))
        for args, stdin in cases:
            outcome, dt, out = run_case(args, input=stdin)
            counts[outcome] += 1
            slowest = max(slowest, dt)
            if outcome not in ("ok", "refused", "unsound", "batch-errors"):
                failures.append((args, outcome, out))
    return counts, failures, slowest


def _report(counts: Counter, failures: list, slowest: float) -> None:
    print(f"\nfuzz: {sum(counts.values())} runs: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + f"; slowest {slowest:.2f} s")
    for args, outcome, out in failures[:5]:
        print(outcome, args, out)


def test_mutated_records_through_every_command(tmp_path: Path) -> None:
    counts, failures, slowest = sweep(int(os.environ.get("FUZZ_RECORDS_DEFAULT", "100")), 2601, tmp_path)
    _report(counts, failures, slowest)
    assert not failures, failures[:3]
    assert sum(counts.values()) >= 1200
    assert counts["ok"] and counts["refused"]  # both kinds of record were made


@pytest.mark.slow
def test_mutated_records_long_sweep(tmp_path: Path) -> None:
    counts, failures, slowest = sweep(int(os.environ.get("FUZZ_RECORDS", "400")),
                                      int(os.environ.get("FUZZ_SEED", "1")), tmp_path)
    _report(counts, failures, slowest)
    assert not failures, failures[:3]


def test_the_time_limit_works() -> None:
    """A run over its limit is reported, not waited for (the alarm reaches a command between solver calls)."""
    outcome, dt, _ = run_case(["bury", str(ROOT / "examples" / "bury-jd-full.toml"), "--view", "picker",
                               "--worlds", "20000", "--jobs", "1"], limit=0.5)
    assert outcome == "timeout" and dt < 10


# --------------------------------------------------------------------------------------------------------------
# Faults at the edges (issue 35): invisible and bidirectional characters in names, huge numbers, byte-order marks,
# deep nesting in JSON and TOML, unwritable and shared outputs. Drawn from a generator of their own, so the
# sweep's other cases stay as they were.

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u061c", "\u00ad", "\u180e", "\U000e0041", "\u00a0",
             "\u202e", "\u2066", "\u200f", "\u3000"]


def edge_record(rnd: random.Random, path: Path) -> Path:
    """``path``'s record text with one edge: a byte-order mark, a name with an invisible or bidirectional
    character, a 5,000-digit number, or nesting thousands deep (JSON or TOML)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    kind = rnd.randrange(5)
    suffix = path.suffix if path.suffix in (".toml", ".json") else ".json"
    if kind == 0:
        text = "\ufeff" + text
    elif kind == 1:
        names = re.findall(r'"([^"\\\n]{1,20})"', text)
        if names:
            name = rnd.choice(names)
            cut = rnd.randrange(len(name) + 1)
            text = text.replace(f'"{name}"', f'"{name[:cut]}{rnd.choice(INVISIBLE)}{name[cut:]}"')
    elif kind == 2:
        number = rnd.choice(["9" * 5000, "-" + "1" * 4301, "1" * 5000 + ".5", "1_" * 2500 + "1"])
        text = re.sub(r"(?<![\w.])\d+(?![\w.])", number, text, count=1) if rnd.random() < 0.7 else \
            _add_key(text, suffix, "doublers", number)
    else:
        depth = rnd.choice([40, 1000, 100_000])
        nested = rnd.choice(["[" * depth + "]" * depth, "{a=" * depth + "1" + "}" * depth]) if suffix == ".toml" \
            else rnd.choice(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth])
        text = _add_key(text, suffix, rnd.choice(["notes", "doublers", "players", "rules"]), nested)
    p = path.with_suffix(f".edge{suffix}")
    p.write_text(text, encoding="utf-8", errors="surrogatepass")
    return p


def _add_key(text: str, suffix: str, key: str, value: str) -> str:
    if suffix == ".json":
        brace = text.find("{")
        return text if brace < 0 else text[: brace + 1] + f'"{key}": {value}, ' + text[brace + 1:]
    return f"{key} = {value}\n" + text


def edge_cases(rnd: random.Random, path: Path) -> list[tuple[list[str], str | None, str | None]]:
    """(args, standard input, how the output is spoiled) of the edge cases for one record: commands over the
    record with an edge, and now and then a batch whose output cannot be written or is held by another batch."""
    edge = edge_record(rnd, path)
    cases: list[tuple[list[str], str | None, str | None]] = [
        (["show", str(edge)] + rnd.choice([[], ["--json"]]), None, None),
        (rnd.choice([["solve", str(edge)], ["suggest", str(edge), "--worlds", "1", "--jobs", "1"],
                     ["annotate", str(edge), "--no-bury"]]), None, None),
    ]
    if rnd.random() < 0.3:  # the record on standard input, a byte-order mark first
        cases.append((["batch", "show", "-", "--out", str(path.with_suffix(".edge-in.jsonl")), "--jobs", "1",
                       "--force"], "\ufeff" + edge.read_text(encoding="utf-8", errors="replace"), None))
    if rnd.random() < 0.15:
        spoil = rnd.choice(["read-only", "no-folder", "file-size", "locked"])
        out = {"read-only": "/sys/out.jsonl", "no-folder": str(path.parent / "gone" / "o.jsonl")}.get(
            spoil, str(path.with_suffix(".edge.jsonl")))
        cases.append((["batch", rnd.choice(["show", "solve"]), str(path), str(path), "--out", out, "--jobs", "1",
                       "--force", "--chunk-size", "1"], None, spoil))
    return cases


def run_spoiled(args: list[str], stdin: str | None, spoil: str | None) -> tuple[str, float, str]:
    """:func:`run_case` with the output spoiled as ``spoil`` says: a file size limit (``ulimit -f``) of 100 bytes, or the output held by another batch (its lock); a refusal must then be the outcome."""
    if spoil == "file-size":
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, hard))
        try:
            outcome = run_case(args, input=stdin)
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    elif spoil == "locked":
        from sheepsolve.batch_output import Output

        out = args[args.index("--out") + 1]
        with Output(out, resume=False, force=True):
            outcome = run_case(args, input=stdin)
    else:
        outcome = run_case(args, input=stdin)
    if spoil is not None and outcome[0] != "refused":
        return "not-refused", outcome[1], outcome[2]
    if outcome[0] == "refused" and any(words in outcome[2] for words in UNNAMED):
        return "names-nothing", outcome[1], outcome[2]
    return outcome


UNNAMED = ["set_int_max_str_digits", "maximum recursion depth", "Unexpected UTF-8 BOM",
           "Invalid statement (at line 1, column 1)"]
"""Parse messages that name nothing (a huge number, deep nesting, a byte-order mark)."""


def bom_twins(rnd: random.Random, path: Path) -> str | None:
    """``show --json`` of ``path`` and of the same text after a byte-order mark must be alike; what differs."""
    twin = path.with_suffix(f".bom{path.suffix if path.suffix in ('.toml', '.json') else '.json'}")
    twin.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    a = CliRunner().invoke(main, ["show", str(path), "--json"])
    b = CliRunner().invoke(main, ["show", str(twin), "--json"])
    if (a.exit_code, a.stdout) != (b.exit_code, b.stdout.replace(str(twin), str(path))) and a.exit_code != 2:
        return f"{a.exit_code} {a.output[:300]} / {b.exit_code} {b.output[:300]}"
    return None


def _group_alive(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (Linux /proc)."""
    alive = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[2] == str(pgid) and fields[0] != "Z":
                alive.append(int(d))
    return alive




def _signal_defaults() -> None:
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_sighup_and_low_memory_at_random(tmp_path: Path) -> None:
    """A hangup at a random moment of a command with worker processes, and commands with little memory to spare:
    the command ends with its status (129 after the hangup), one error line at most, no traceback, and no process
    of its group left behind."""
    import subprocess
    import sys

    rnd = random.Random(35)
    sampled = [str(ROOT / "examples" / n) for n in ("bury-jd-full.toml", "sauspiel-midtrick.toml")]
    failures = []
    for i in range(3):
        args = rnd.choice([["bury", sampled[0], "--view", "picker", "--worlds", "400"],
                           ["suggest", sampled[1], "--worlds", "3000"],
                           ["batch", "annotate", *sampled, *sampled, "--out", str(tmp_path / f"h{i}.jsonl"),
                            "--chunk-size", "1"]]) + ["--jobs", "2"]
        p = subprocess.Popen([sys.executable, "-m", "sheepsolve", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_signal_defaults)
        time.sleep(rnd.uniform(0.2, 1.5))
        os.kill(p.pid, signal.SIGHUP)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            failures.append((args, "hung after SIGHUP"))
            continue
        deadline = time.monotonic() + 10
        while _group_alive(p.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        text = err.decode("utf-8", "replace")
        # -SIGHUP: the hangup came before the command set its handler (a slow start under load): the default action
        # ends it, before any worker started
        ended = (0, 1, 129, -signal.SIGHUP)
        if p.returncode not in ended or "Traceback" in text or "Error" in text or _group_alive(p.pid):
            failures.append((args, p.returncode, text[-2000:], _group_alive(p.pid)))
    for _ in range(4):
        path = Path(rnd.choice(BASES[:20]))
        args = rnd.choice([["solve", str(path), "--table-mib", rnd.choice(["64", "256"])],
                           ["suggest", str(path), "--worlds", rnd.choice(["2000", "20000"]), "--jobs", "2"],
                           ["annotate", str(path), "--no-bury"],
                           ["bury", str(path), "--worlds", "3000", "--jobs", "1"]])
        room = rnd.choice([4, 16, 48])
        r = subprocess.run([sys.executable, "-c", LOW_MEMORY, str(room), *args], capture_output=True, text=True,
                           timeout=300)
        lines = r.stderr.splitlines()
        if not (r.returncode == 0 or (r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "))):
            failures.append((room, args, r.returncode, r.stderr[-2000:]))
    assert not failures, failures
