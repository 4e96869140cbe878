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
