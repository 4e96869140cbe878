"""The reliability probe of the newest commands (suggest, annotate --view player, batch, report, import
openschafkopf, puzzle generate): every finding has a test here that failed before its fix. Bad input gets one
``error:`` line and status 2; nothing runs for minutes, grows without bound or overwrites a file by accident."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from helpers_cli import EXAMPLES

MIDTRICK = EXAMPLES / "sauspiel-midtrick.toml"
JD_FULL = EXAMPLES / "bury-jd-full.toml"


# --------------------------------------------------------------------------------------------------------------
# Numeric options: every one has a cap, and a number is written in the digits 0-9


@pytest.mark.parametrize("args", [
    ["suggest", MIDTRICK],
    ["annotate", EXAMPLES / "annotate-blunder-sheepshead.toml", "--no-bury", "--view", "player"],
    ["bury", JD_FULL, "--view", "picker"],
    ["pick", JD_FULL],
    ["import", "openschafkopf", "--rules", "wenz von 0", "--hand", "eo go ho so eu gu hu sa", "--suggest"],
])
@pytest.mark.parametrize("worlds", ["20001", "1000000", "10" * 40])
def test_worlds_are_capped(args: list, worlds: str, run, assert_input_error) -> None:
    """--worlds N ran for hours (and held every sampled world in memory: about 8 KB each) before it had a cap."""
    t0 = time.perf_counter()
    r = run(*args, "--worlds", worlds, "--jobs", "1")
    assert_input_error(r, "--worlds")
    assert "at most 20000" in r.output or "at most 2000 " in r.output or "a number of worlds" in r.output, r.output
    assert time.perf_counter() - t0 < 10


@pytest.mark.parametrize("worlds", ["٣", "³", "1_000", "0x10", "1e3", "١٠٠"])
def test_worlds_only_in_ascii_digits(worlds: str, run, assert_input_error) -> None:
    """Python's int() reads '٣' as 3 and '1_000' as 1000: a silent reading of what is not a number here."""
    assert_input_error(run("suggest", MIDTRICK, "--worlds", worlds, "--jobs", "1"), "--worlds")


def test_annotate_view_worlds_have_a_lower_cap(run, assert_input_error) -> None:
    """annotate --view player holds every decision's worlds at once: 20,000 a decision would take about 2 GB on
    a 32-decision hand (138 MB measured at 1,000)."""
    from sheepsolve.view import MAX_ANNOTATE_WORLDS

    t0 = time.perf_counter()
    r = run("annotate", EXAMPLES / "annotate-swing-sauspiel.toml", "--no-bury", "--view", "player", "--worlds",
            str(MAX_ANNOTATE_WORLDS + 1), "--jobs", "1")
    assert_input_error(r, "--worlds", f"at most {MAX_ANNOTATE_WORLDS}")
    assert time.perf_counter() - t0 < 10


@pytest.mark.parametrize("at", ["٣", "١.١", "３", "2.²"])
def test_suggest_at_only_in_ascii_digits(at: str, run, assert_input_error) -> None:
    """--at '٣' judged trick 3 (a regular expression's \\d matches every script's digits)."""
    assert_input_error(run("suggest", EXAMPLES / "sauspiel-play-only.toml", "--at", at, "--worlds", "1", "--jobs", "1"),
                       "--at")


def test_largest_worlds_still_accepted() -> None:
    from sheepsolve.view import MAX_WORLDS, parse_worlds

    assert parse_worlds(str(MAX_WORLDS)) == MAX_WORLDS and parse_worlds(" 7 ") == 7


@pytest.mark.parametrize("seed", ["-1", str(2**63), "9" * 300])
@pytest.mark.parametrize("args", [
    ["suggest", MIDTRICK, "--worlds", "2"],
    ["annotate", EXAMPLES / "annotate-blunder-sheepshead.toml", "--no-bury", "--view", "player", "--worlds", "2"],
    ["bury", JD_FULL, "--view", "picker", "--worlds", "2"],
    ["choose", EXAMPLES / "bury-choose-sauspiel-hand.toml", "--worlds", "2"],
    ["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "1", "--out", "{tmp}"],
])
def test_seed_is_capped(tmp_path: Path, args: list, seed: str, run, assert_input_error) -> None:
    """A huge seed was taken (a 300-digit one made puzzle generate work, then fail on the file name)."""
    args = [str(a).replace("{tmp}", str(tmp_path / "p")) for a in args]
    r = run(*args, "--seed", seed)
    assert_input_error(r, "--seed", "0<=x<=9223372036854775807")
    assert not (tmp_path / "p").exists()


def test_largest_seed_still_works(run) -> None:
    r = run("suggest", MIDTRICK, "--worlds", "2", "--jobs", "1", "--seed", str(2**63 - 1), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["worlds"] == 2


def test_min_cost_and_chunk_size_are_capped(tmp_path: Path, run, assert_input_error) -> None:
    assert_input_error(run("annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--min-cost", "121"), "--min-cost")
    assert_input_error(run("annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--min-cost", str(10**30)), "--min-cost")
    assert_input_error(run("batch", "show", EXAMPLES / "sheepshead.toml", "--out", tmp_path / "o.jsonl", "--chunk-size",
                           "1001"), "--chunk-size")
    from sheepsolve.batch import BatchError, run_batch

    with pytest.raises(BatchError, match="--chunk-size"):
        run_batch("show", {}, [str(EXAMPLES / "sheepshead.toml")], str(tmp_path / "o.jsonl"), chunk_size=10**9)
    r = run("annotate", EXAMPLES / "sheepshead-jd-finished.toml", "--min-cost", "120", "--no-bury", "--json")
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------------------------------------------
# report: a batch file edited by hand, or of another command


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


def test_report_refuses_figures_that_are_not_counts(tmp_path: Path, annotated_line: dict, run, assert_input_error) -> None:
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


# --------------------------------------------------------------------------------------------------------------
# import openschafkopf --out


def test_import_out_does_not_replace_a_file(tmp_path: Path, run, assert_input_error) -> None:
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


# --------------------------------------------------------------------------------------------------------------
# batch: inputs, output, options, scheduler


def _remove_tree(top: Path) -> None:
    """Remove ``top`` without recursion (shutil.rmtree, and so pytest's clean-up of old temporary folders, fails
    with RecursionError on a tree this deep)."""
    import os

    for root, dirs, files in _walk_bottom_up(top):
        for name in files:
            os.unlink(os.path.join(root, name))
        for name in dirs:
            os.rmdir(os.path.join(root, name))
    os.rmdir(top)


def _walk_bottom_up(top: Path) -> list[tuple[str, list[str], list[str]]]:
    import os

    out = []
    stack = [str(top)]
    while stack:
        root = stack.pop()
        dirs, files = [], []
        for e in os.scandir(root):
            (dirs if e.is_dir(follow_symlinks=False) else files).append(e.name)
        out.append((root, dirs, files))
        stack += [os.path.join(root, d) for d in dirs]
    return out[::-1]


def test_batch_walks_a_very_deep_folder(tmp_path: Path, run) -> None:
    """A folder 1,100 levels deep: os.walk recursed past Python's limit (RecursionError, a traceback)."""
    import os

    top = tmp_path / "deep"
    top.mkdir()
    here = os.getcwd()
    try:
        try:
            os.chdir(top)
            for _ in range(1100):
                os.mkdir("a")
                os.chdir("a")
            Path("x.toml").write_text((EXAMPLES / "sheepshead.toml").read_text())
        finally:
            os.chdir(here)
        out = tmp_path / "o.jsonl"
        r = run("batch", "show", top, "--out", out, "--jobs", "1")
        assert r.exit_code == 0, (r.output, r.exception)
        lines = out.read_text().splitlines()
        assert len(lines) == 1 and '"result"' in lines[0]
    finally:
        _remove_tree(top)


def test_batch_does_not_read_its_own_output(tmp_path: Path, run) -> None:
    """--out inside an input folder: --force read the old output as records, and every --resume read its own
    lines again and added as many error lines (the file grew without bound)."""
    import shutil

    folder = tmp_path / "season"
    folder.mkdir()
    for name in ("sheepshead.toml", "wenz-finished.toml"):
        shutil.copy(EXAMPLES / name, folder / name)
    out = folder / "out.jsonl"
    for extra in ([], ["--force"], ["--resume"], ["--resume"]):
        r = run("batch", "show", folder, "--out", out, "--jobs", "1", *extra)
        assert r.exit_code == 0, r.output
        assert len(out.read_text().splitlines()) == 2, (extra, out.read_text()[:500])


def test_batch_loops_and_links_in_folders(tmp_path: Path, run) -> None:
    folder = tmp_path / "f"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.toml").write_text((EXAMPLES / "sheepshead.toml").read_text())
    (folder / "sub" / "up").symlink_to("..")
    (folder / "sub" / "self.toml").symlink_to(folder / "sub")
    (folder / "loop.toml").symlink_to(folder / "loop.toml")
    out = tmp_path / "o.jsonl"
    r = run("batch", "show", folder, "--out", out, "--jobs", "1")
    assert r.exit_code == 1, r.output  # the link to itself is an error line
    ids = [json.loads(x)["id"] for x in out.read_text().splitlines()]
    assert sorted(Path(i).name for i in ids) == ["a.toml", "loop.toml"], ids


@pytest.mark.parametrize("args, words", [
    (["suggest", "--worlds", "abc"], ["--worlds", "abc"]),
    (["suggest", "--worlds", "20001"], ["--worlds", "20000"]),
    (["annotate", "--worlds", "2"], ["--worlds", "only with --view player"]),
    (["annotate", "--seed", "2"], ["--seed", "only with --view player"]),
    (["annotate", "--view", "player", "--worlds", "0"], ["--worlds"]),
])
def test_batch_refuses_bad_options_before_any_record(tmp_path: Path, args: list[str], words: list[str], run, assert_input_error) -> None:
    """Options bad whatever the record were given to every record: each line had the same error, status 1."""
    out = tmp_path / "o.jsonl"
    r = run("batch", args[0], EXAMPLES / "sheepshead.toml", EXAMPLES / "wenz-finished.toml", *args[1:], "--out", out)
    assert_input_error(r, *words)
    assert not out.exists()


@pytest.mark.parametrize("address", ["", "nonsense", "tcp://", "127.0.0.1", "tcp://[::1", "inproc://x",
                                     "ucx://127.0.0.1:1", "tls://127.0.0.1:1", "tcp://127.0.0.1:99999",
                                     "tcp://127.0.0.1:1", "x" * 100_000, "tcp://a b:1"])
def test_batch_scheduler_bad_addresses_are_refused_at_once(tmp_path: Path, address: str, run, assert_input_error) -> None:
    """A malformed address gave the error, then a 60 s wait and a traceback in Dask's clean-up; tls:// and ucx://
    a traceback; a port where nothing listens 30 s of retries."""
    pytest.importorskip("distributed")
    t0 = time.perf_counter()
    r = run("batch", "show", EXAMPLES / "sheepshead.toml", "--out", tmp_path / "o.jsonl", "--scheduler", address)
    assert_input_error(r, "--scheduler")
    assert time.perf_counter() - t0 < 10
    assert not (tmp_path / "o.jsonl").exists()


@pytest.mark.parametrize("greeting", [None, b"SSH-2.0-OpenSSH_9.2\r\n", b"", b"\x00" * 8])
def test_batch_scheduler_that_is_not_dask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          greeting: bytes | None, run, assert_input_error) -> None:
    """A server that says nothing (an HTTP server) made the batch wait forever; one that greets as SSH made
    Dask's client allocate the banner read as a length (MemoryError, a traceback)."""
    import socket
    import threading

    import sheepsolve.batch as batch

    pytest.importorskip("distributed")
    monkeypatch.setattr(batch, "GREETING_SECONDS", 0.5)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    held: list[socket.socket] = []

    def serve() -> None:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        if greeting is None:
            held.append(conn)  # silent, the connection kept open
        else:
            conn.sendall(greeting)
            conn.close()

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    try:
        t0 = time.perf_counter()
        r = run("batch", "show", EXAMPLES / "sheepshead.toml", "--out", tmp_path / "o.jsonl", "--scheduler",
                f"tcp://127.0.0.1:{port}")
        assert_input_error(r, "--scheduler", "not a Dask scheduler")
        assert time.perf_counter() - t0 < 10
    finally:
        server.close()
        for c in held:
            c.close()
        th.join(5)


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


def test_deeply_nested_json_lines(tmp_path: Path, run, assert_input_error) -> None:
    """A line of 200,000 nested brackets: report and batch --resume gave a traceback (RecursionError)."""
    deep = "[" * 200_000 + "]" * 200_000
    p = tmp_path / "deep.jsonl"
    p.write_text(deep + "\n")
    assert_input_error(run("report", p), "line 1", "nested too deeply")
    p.write_text('{"id": "x", "result": ' + deep + "}\n")
    assert_input_error(run("report", p), "line 1")
    out = tmp_path / "out.jsonl"
    out.write_text(deep + "\n" + '{"id": "y", "error": "e"}\n')
    assert_input_error(run("batch", "show", EXAMPLES / "sheepshead.toml", "--out", out, "--resume"), "line 1",
                       "not a batch line")
    out.write_text('{"id": "y", "error": "e"}\n' + deep + "\n")  # the last line, whole: dropped, as one cut short
    r = run("batch", "show", EXAMPLES / "sheepshead.toml", "--out", out, "--resume", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert len(out.read_text().splitlines()) == 2


# --------------------------------------------------------------------------------------------------------------
# puzzle show


@pytest.mark.parametrize("html", [False, True])
def test_puzzle_show_reveal_with_a_refutation_cut_short(tmp_path: Path, html: bool, run) -> None:
    """A stored refutation line that stops before the end of the hand (found by the fuzz harness: a puzzle
    record with its play cut) gave an AssertionError traceback in puzzle show --reveal."""
    import tomllib

    src = EXAMPLES / "puzzles" / "05-easy-sauspiel.toml"
    d = tomllib.loads(src.read_text())
    card, line = next(iter(d["puzzle"]["refutations"].items()))
    cards = line.split() if isinstance(line, str) else list(line)
    d["puzzle"]["refutations"][card] = cards[:-1]
    p = tmp_path / "cut.json"
    p.write_text(json.dumps(d))
    args = ["puzzle", "show", p, "--reveal"] + (["--html", tmp_path / "p.html"] if html else [])
    r = run(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    text = (tmp_path / "p.html").read_text() if html else r.output
    assert "stops before the end of the hand" in text
    r = run("puzzle", "check", p)
    assert r.exit_code == 1 and "stops before the end of the hand" in r.output, r.output
