"""``sheepsolve report`` over a batch of annotated hands: per player and per game form, text, JSON and HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES

from sheepsolve.cli import main
from sheepsolve.report import WON, season_report

FILES = ["annotate-blunder-sheepshead.toml", "annotate-swing-sauspiel.toml", "annotate-decided-solo.toml",
         "sauspiel-finished.toml", "sauspiel-play-only.toml", "ramsch-finished.toml", "sheepshead-jd-partial.toml"]


def _batch(tmp_path: Path) -> Path:
    out = tmp_path / "season.jsonl"
    r = CliRunner().invoke(main, ["batch", "annotate", "--no-bury", *[str(EXAMPLES / f) for f in FILES],
                                  "--out", str(out), "--jobs", "1"])
    assert r.exit_code == 1, r.output  # the partial record cannot be annotated
    return out


def test_report_sums_the_annotations(tmp_path: Path) -> None:
    out = _batch(tmp_path)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    r = CliRunner().invoke(main, ["report", str(out), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    good = [x["result"] for x in lines if "result" in x]
    assert rep["hands"] == len(good) == len(FILES) - 1 and rep["errors"] == 1
    assert rep["failed"][0]["id"].endswith("sheepshead-jd-partial.toml")
    # per player: the sums of each hand's summary, worked out here from the decisions themselves
    for p in rep["players"]:
        mine = [d for g in good for d in g["decisions"] if d["player"] == p["player"]]
        assert p["decisions"] == sum(not d["forced"] for d in mine)
        assert p["errors"] == sum(d["cost"] > 0 or d["swing"] is not None for d in mine)
        assert p["swings"] == sum(d["swing"] is not None for d in mine)
        assert p["points_lost"] == sum(d["cost"] for d in mine)
        assert p["hands"] == sum(p["player"] in g["players"] for g in good)
    lost = [p["points_lost"] for p in rep["players"]]
    assert lost == sorted(lost, reverse=True) and sum(p["swings"] for p in rep["players"]) >= 1
    # per game form: the played-only sauspiel is the same hand as the full one, so it counts twice alike
    forms = {f["form"]: f for f in rep["forms"]}
    sau = forms["Sauspiel (Rufspiel)"]
    hands = [g for g in good if g["title"] == "Sauspiel (Rufspiel)"]
    assert sau["hands"] == len(hands) == 3
    assert sau["declaring_won"] == sum(g["summary"]["result_outcome"] in WON for g in hands)
    assert sau["mean_points"] == round(sum(g["summary"]["result_value"] for g in hands) / 3, 2)
    assert forms["Ramsch"]["win_rate"] is None and forms["Ramsch"]["hands"] == 1


def test_report_text_and_html(tmp_path: Path) -> None:
    out = _batch(tmp_path)
    r = CliRunner().invoke(main, ["report", str(out)])
    assert r.exit_code == 0 and "Per player" in r.stdout and "Per game form" in r.stdout
    page = tmp_path / "season.html"
    r = CliRunner().invoke(main, ["report", str(out), "--html", str(page)])
    assert r.exit_code == 0, r.output
    html = page.read_text()
    assert html.count("<svg class=\"chart\"") == 2 and "Sauspiel (Rufspiel)" in html
    # names come out escaped
    hostile = [json.dumps({"id": "x", "result": {"title": "<b>T</b>", "declaring": None, "summary": {
        "finished": False, "players": {"<script>alert(1)</script>": {"decisions": 1, "errors": 1, "swings": 0,
                                                                      "given_away": 4}}}}})]
    from sheepsolve.render.report import render_html

    page_text = render_html(season_report(hostile))
    assert "<script>alert(1)</script>" not in page_text and "&lt;script&gt;" in page_text


def test_report_refuses_what_is_not_an_annotate_batch(tmp_path: Path) -> None:
    out = tmp_path / "solve.jsonl"
    assert CliRunner().invoke(main, ["batch", "solve", str(EXAMPLES / "wenz-finished.toml"), "--out",
                                     str(out)]).exit_code == 0
    r = CliRunner().invoke(main, ["report", str(out)])
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and "line 1: not an annotation" in r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\nnot json\n")
    r = CliRunner().invoke(main, ["report", str(bad)])
    assert r.exit_code == 2 and "line 1: not a batch line" in r.stderr


def test_report_adds_the_players_view_when_the_batch_used_it(tmp_path: Path) -> None:
    out = tmp_path / "view.jsonl"
    r = CliRunner().invoke(main, ["batch", "annotate", "--no-bury", "--view", "player", "--worlds", "6",
                                  str(EXAMPLES / "annotate-swing-sauspiel.toml"), "--out", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    [line] = [json.loads(x) for x in out.read_text().splitlines()]
    per = line["result"]["summary"]["players"]
    rep = json.loads(CliRunner().invoke(main, ["report", str(out), "--json"]).stdout)
    for p in rep["players"]:
        v = per[p["player"]]["view"]
        assert p["view"] == {"hands": 1, "errors": v["errors"], "points_lost": round(v["expected_loss"], 2)}
    text = CliRunner().invoke(main, ["report", str(out)]).stdout
    assert "view: hands" in text


# --------------------------------------------------------------------------------------------------------------
# A batch file edited by hand, or of another command


@pytest.fixture(scope="module")
def annotated_line(tmp_path_factory: pytest.TempPathFactory, run) -> dict:
    out = tmp_path_factory.mktemp("ann") / "ann.jsonl"
    r = run("batch", "annotate", "--no-bury", EXAMPLES / "sauspiel-finished.toml", "--out", out, "--jobs", "1")
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

def test_report_refuses_figures_that_are_not_counts(tmp_path: Path, annotated_line: dict, run,
                                                    assert_input_error) -> None:
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

def test_report_still_reads_a_real_batch(tmp_path: Path, annotated_line: dict, run) -> None:
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(annotated_line) + "\n" + json.dumps({"id": "x", "error": "x: bad\x1b[2J"}) + "\n")
    r = run("report", p)
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "1 hand annotated" in r.output

def test_report_reads_a_season_line_by_line(tmp_path: Path, annotated_line: dict, run, assert_input_error) -> None:
    """The batch file was read whole into memory (up to 1 GiB, then split into lines: some 3 times its size);
    now one line at a time, each at most 16 MiB."""
    import tracemalloc

    from sheepsolve.report import read_report

    p = tmp_path / "season.jsonl"
    line = json.dumps(annotated_line) + "\n"
    p.write_text(line * 2000)
    size = p.stat().st_size
    tracemalloc.start()
    try:
        rep = read_report(str(p))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rep.hands == 2000
    assert peak < size / 4, (peak, size)
    long = tmp_path / "long.jsonl"
    long.write_text(line + '{"id": "x", "error": "' + "a" * (17 * 2**20) + '"}\n')
    assert_input_error(run("report", long), "line 2", "16 MiB")


def test_report_chart_names_every_form_whole_and_counts_every_rate(tmp_path: Path) -> None:
    """Issue 34: the labels were cut to three identical "Solo (Farbsolo) (..." bars, and a win rate from one hand
    showed as a full bar with no count: each form is named whole and each rate has its count and interval."""
    from sheepsolve.render.report import _bars, wilson_interval

    names = ["Solo in clubs", "Solo in spades", "Sheepshead (5-hand)", "Farbwenz in hearts"]
    scene = _bars([(n, 100) for n in names], label="x", axis="y", notes=["(1 of 1; 95%: 21-100%)"] * 4)
    texts = [t["text"] if isinstance(t, dict) else str(t) for t in scene.texts]
    assert all(any(n == t for t in texts) for n in names), texts
    assert sum("(1 of 1; 95%: 21-100%)" in t for t in texts) == 4
    assert [round(100 * x) for x in wilson_interval(1, 1)] == [21, 100]
