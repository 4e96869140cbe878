"""Issue 34, what a new user still tripped over after the first round: records and options in the table's own words.

A suit letter that means two suits is refused where nothing decides it, a contract has one name everywhere, and a
German record's messages name German cards, wherever they are made.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers_cli import EXAMPLES


def test_puzzle_generate_refuses_a_trump_s_that_nothing_decides(tmp_path: Path, run, assert_input_error) -> None:
    """``--trump S`` was read as spades without a word, though a Bavarian means Schellen: no card decides it on
    the command line, so it is refused asking for the word; the word, or any other letter, is taken."""
    for letter in ("S", "s"):
        res = run("puzzle", "generate", "--game", "solo", "--trump", letter, "--cards-left", "4", "--count", "1",
                  "--out", tmp_path / "x")
        assert_input_error(res, "--trump", "Schellen", "spades")
        assert not (tmp_path / "x").exists()
    found = {}
    for word in ("Schellen", "spades", "Gras", "E"):
        res = run("puzzle", "generate", "--game", "solo", "--trump", word, "--cards-left", "4", "--count", "1",
                  "--seed", "1", "--out", tmp_path / word)
        assert res.exit_code == 0, res.output
        (path,) = (tmp_path / word).iterdir()
        found[word] = path.read_text()
    assert 'trump = "D"' in found["Schellen"] and 'trump = "C"' in found["E"]
    assert found["spades"] == found["Gras"] and 'trump = "S"' in found["spades"]
    # the command written into the puzzle runs again as it is: spades by its word
    source = re.search(r'source = "sheepsolve (.*); deal', found["spades"]).group(1)
    assert "--trump spades" in source
    assert run(*source.split(), "--count", "1", "--out", tmp_path / "again").exit_code == 0
    assert [p.read_text() for p in (tmp_path / "again").iterdir()] == [found["spades"]]
