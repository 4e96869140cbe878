"""The reliability probe of the newest commands (suggest, annotate --view player, batch, report, import
openschafkopf, puzzle generate): every finding has a test here that failed before its fix. Bad input gets one
``error:`` line and status 2; nothing runs for minutes, grows without bound or overwrites a file by accident."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sheepsolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
MIDTRICK = EX / "sauspiel-midtrick.toml"
JD_FULL = EX / "bury-jd-full.toml"


def run(*args: object, input: str | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def assert_input_error(r: Result, *words: str) -> None:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.output.startswith("error: "), r.output
    assert r.output.count("\n") == 1, r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), repr(r.exception)
    for w in words:
        assert w in r.output, (w, r.output)


# --------------------------------------------------------------------------------------------------------------
# Numeric options: every one has a cap, and a number is written in the digits 0-9


@pytest.mark.parametrize("args", [
    ["suggest", MIDTRICK],
    ["annotate", EX / "annotate-blunder-sheepshead.toml", "--no-bury", "--view", "player"],
    ["bury", JD_FULL, "--view", "picker"],
    ["pick", JD_FULL],
    ["import", "openschafkopf", "--rules", "wenz von 0", "--hand", "eo go ho so eu gu hu sa", "--suggest"],
])
@pytest.mark.parametrize("worlds", ["20001", "1000000", "10" * 40])
def test_worlds_are_capped(args: list, worlds: str) -> None:
    """--worlds N ran for hours (and held every sampled world in memory: about 8 KB each) before it had a cap."""
    t0 = time.perf_counter()
    r = run(*args, "--worlds", worlds, "--jobs", "1")
    assert_input_error(r, "--worlds")
    assert "20000" in r.output or "a number of worlds" in r.output, r.output
    assert time.perf_counter() - t0 < 10


@pytest.mark.parametrize("worlds", ["٣", "³", "1_000", "0x10", "1e3", "١٠٠"])
def test_worlds_only_in_ascii_digits(worlds: str) -> None:
    """Python's int() reads '٣' as 3 and '1_000' as 1000: a silent reading of what is not a number here."""
    assert_input_error(run("suggest", MIDTRICK, "--worlds", worlds, "--jobs", "1"), "--worlds")


def test_largest_worlds_still_accepted() -> None:
    from sheepsolve.view import MAX_WORLDS, parse_worlds

    assert parse_worlds(str(MAX_WORLDS)) == MAX_WORLDS and parse_worlds(" 7 ") == 7


@pytest.mark.parametrize("seed", ["-1", str(2**63), "9" * 300])
@pytest.mark.parametrize("args", [
    ["suggest", MIDTRICK, "--worlds", "2"],
    ["annotate", EX / "annotate-blunder-sheepshead.toml", "--no-bury", "--view", "player", "--worlds", "2"],
    ["bury", JD_FULL, "--view", "picker", "--worlds", "2"],
    ["choose", EX / "bury-choose-sauspiel-hand.toml", "--worlds", "2"],
    ["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "1", "--out", "{tmp}"],
])
def test_seed_is_capped(tmp_path: Path, args: list, seed: str) -> None:
    """A huge seed was taken (a 300-digit one made puzzle generate work, then fail on the file name)."""
    args = [str(a).replace("{tmp}", str(tmp_path / "p")) for a in args]
    r = run(*args, "--seed", seed)
    assert_input_error(r, "--seed", "0<=x<=9223372036854775807")
    assert not (tmp_path / "p").exists()


def test_largest_seed_still_works() -> None:
    r = run("suggest", MIDTRICK, "--worlds", "2", "--jobs", "1", "--seed", str(2**63 - 1), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["worlds"] == 2


def test_min_cost_and_chunk_size_are_capped(tmp_path: Path) -> None:
    assert_input_error(run("annotate", EX / "sheepshead-jd-finished.toml", "--min-cost", "121"), "--min-cost")
    assert_input_error(run("annotate", EX / "sheepshead-jd-finished.toml", "--min-cost", str(10**30)), "--min-cost")
    assert_input_error(run("batch", "show", EX / "sheepshead.toml", "--out", tmp_path / "o.jsonl", "--chunk-size",
                           "1001"), "--chunk-size")
    from sheepsolve.batch import BatchError, run_batch

    with pytest.raises(BatchError, match="--chunk-size"):
        run_batch("show", {}, [str(EX / "sheepshead.toml")], str(tmp_path / "o.jsonl"), chunk_size=10**9)
    r = run("annotate", EX / "sheepshead-jd-finished.toml", "--min-cost", "120", "--no-bury", "--json")
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------------------------------------------
# report: a batch file edited by hand, or of another command


@pytest.fixture(scope="module")
def annotated_line(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("ann") / "ann.jsonl"
    r = run("batch", "annotate", "--no-bury", EX / "sauspiel-finished.toml", "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output
    return json.loads(out.read_text().splitlines()[0])


def _bad_lines(line: dict) -> list[tuple[str, dict]]:
    import copy

    name = sorted(line["result"]["summary"]["players"])[0]
    out = []
    for key in ("decisions", "errors", "swings", "given_away"):
        for value in ([1], "abc", 1e300, None, {"a": 1}, "1" * 5000, True, 1.5, -5, 10**30):
            bad = copy.deepcopy(line)
            bad["result"]["summary"]["players"][name][key] = value
            out.append((key, bad))
    for value in ([1], "abc", 1e300, "nan", {"a": 1}, -3):
        bad = copy.deepcopy(line)
        bad["result"]["summary"].update(finished=True, result_value=value)
        out.append(("result_value", bad))
    for value in ({"errors": "x"}, {"expected_loss": "x"}, {"expected_loss": [1]}, {"errors": 1e300},
                  {"expected_loss": float("inf")}):
        bad = copy.deepcopy(line)
        bad["result"]["summary"]["players"][name]["view"] = value
        out.append(("view", bad))
    for key, value in (("title", {"x": 1}), ("title", "Sauspiel\nerror: forged"), ("title", "")):
        bad = copy.deepcopy(line)
        bad["result"][key] = value
        out.append((key, bad))
    bad = copy.deepcopy(line)
    bad["result"]["summary"]["players"] = {"\x1b[31mAnn\nerror: forged": line["result"]["summary"]["players"][name]}
    out.append(("name", bad))
    bad = copy.deepcopy(line)
    bad["result"]["summary"]["players"][name] = [1, 2]
    out.append(("player", bad))
    bad = copy.deepcopy(line)
    bad["result"]["summary"]["result_outcome"] = ["win"]
    bad["result"]["summary"]["finished"] = True
    out.append(("result_outcome", bad))
    return out


def test_report_refuses_figures_that_are_not_counts(tmp_path: Path, annotated_line: dict) -> None:
    """A batch line with a figure that is not a whole number (a list, a text, infinity, a 5000-digit text)
    gave a traceback (TypeError, ValueError, OverflowError); a player's name with control characters went to the
    terminal as it was."""
    p = tmp_path / "r.jsonl"
    for key, bad in _bad_lines(annotated_line):
        p.write_text(json.dumps(bad) + "\n")
        for extra in ([], ["--json"], ["--html", str(tmp_path / "r.html")]):
            r = run("report", p, *extra)
            if key == "result_value" and bad["result"]["summary"]["result_value"] == 0:
                continue
            assert_input_error(r, "line 1", key if key not in ("player", "name") else "summary.players")
    assert not (tmp_path / "r.html").exists()


def test_report_still_reads_a_real_batch(tmp_path: Path, annotated_line: dict) -> None:
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(annotated_line) + "\n" + json.dumps({"id": "x", "error": "x: bad\x1b[2J"}) + "\n")
    r = run("report", p)
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "1 hand annotated" in r.output


# --------------------------------------------------------------------------------------------------------------
# import openschafkopf --out


def test_import_out_does_not_replace_a_file(tmp_path: Path) -> None:
    """--out FILE replaced any file without a word (README.md in a probe run)."""
    target = tmp_path / "README.md"
    target.write_text("keep me\n")
    args = ["import", "openschafkopf", "--rules", "wenz von 0", "--hand", "eo go ho so eu gu hu sa", "--out", target]
    assert_input_error(run(*args), "--out", "already exists", "--force")
    assert target.read_text() == "keep me\n"
    r = run(*args, "--force")
    assert r.exit_code == 0, r.output
    assert 'game = "wenz"' in target.read_text()
    link = tmp_path / "link.toml"
    link.symlink_to(tmp_path / "elsewhere.toml")
    assert_input_error(run(*args[:-1], link, "--force"), "symbolic link")
    assert not (tmp_path / "elsewhere.toml").exists()
