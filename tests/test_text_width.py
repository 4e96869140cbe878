"""Text that fits a terminal (issue 34's leftovers): ``annotate`` without ``--view`` ran to 111 columns on the
German Sauspiel (the summary and the legend as one line each, a swing's note widening the table) and to 177 on
others; it keeps within the 100 columns of ``annotate --view player`` (``render.annotate.TEXT_WIDTH``) now. And a
contract name holding a comma (``Wenz, tout`` in French or ASCII cards) no longer blurs the worlds line of
``suggest``: its calls then go by semicolons."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sheepsolve.render.annotate import TEXT_WIDTH
from sheepsolve.render.text import width

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "sheepsolve", *map(str, args)], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.toml")))
def test_annotate_fits_the_width(name):
    for cards in ([], ["--cards", "french"], ["--cards", "german"]):
        res = subprocess.run([sys.executable, "-m", "sheepsolve", "annotate", str(EXAMPLES / f"{name}.toml"), *cards],
                             capture_output=True, text=True)
        if res.returncode == 2:  # a record annotate refuses (a hand left out, a position)
            assert res.stderr.startswith("error: ") and len(res.stderr.splitlines()) == 1
            return
        out = res.stdout
        widest = max(out.splitlines(), key=width)
        assert width(widest) <= TEXT_WIDTH, widest


def test_the_swing_note_and_the_summary_are_wrapped():
    out = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml").splitlines()
    at = next(i for i, line in enumerate(out) if "changes the result: win -> loss" in line)
    # under the legal cards, running on over the columns after them rather than wrapped to the column's width
    assert out[at].strip() == "changes the result: win -> loss (payment +10 -> -10)"
    header = next(line for line in out if line.startswith("trick"))
    assert out[at].index("changes") == header.index("every legal card")
    assert max(len(line) for line in out) <= 100
    view = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--view", "player", "--worlds", "8").splitlines()
    at = next(i for i, line in enumerate(view) if "changes the result:" in line)
    assert view[at].strip() == "changes the result: win -> loss (payment +10 -> -10)"
    assert max(len(line) for line in view) <= 100
    summary = next(i for i, line in enumerate(out) if line.startswith("The deal was worth 68"))
    assert out[summary + 1].startswith("  ") and "gave away 9." in out[summary + 1]
    # the JSON's summary is one sentence as before
    d = json.loads(run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--json"))
    assert d["summary"]["text"].startswith("The deal was worth 68") and "\n" not in d["summary"]["text"]


def test_a_tout_in_the_worlds_line_reads_unambiguously():
    args = (EXAMPLES / "wenz-tout-finished.toml", "--at", "2", "--worlds", "4", "--seed", "1")
    line = next(x for x in run("suggest", *args, "--cards", "ascii").splitlines() if x.startswith("worlds:"))
    assert "(Sepp: Wenz, tout; Vroni: at most Wenz, tout; Hias: at most Wenz, tout; Resi: at most Wenz, tout)" in line
    assumes = json.loads(run("suggest", *args, "--json"))["assumes"]
    assert "Sepp: Wenz, tout; Vroni: at most Wenz, tout;" in assumes
    # names without a comma keep the commas
    line = next(x for x in run("suggest", *args).splitlines() if x.startswith("worlds:"))
    assert "(Sepp: Wenz Tout, Vroni: at most Wenz Tout," in line


def test_every_legal_card_is_still_listed():
    out = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml")
    d = json.loads(run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--json", "--cards", "german"))
    first = d["decisions"][0]
    assert len(first["values"]) == 8
    table = out[out.index("trick  player"):]
    for card, value in first["values"].items():
        assert f" {value}" in table
    # the first decision's eight cards, over two lines
    lines = table.splitlines()
    listed = " ".join(lines[1].split()[4:] + lines[2].split())
    assert listed.count(" ") + 1 == 16, listed
