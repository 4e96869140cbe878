"""``sheepsolve batch``: one JSON line per record, exactly the command's --json output or its error; a bad
record never stops the batch; resume gives the uninterrupted output; the same output whatever --jobs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES

from sheepsolve.batch import BatchError, list_sources, read_done, run_batch
from sheepsolve.cli import main



def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def cli_json(*args: str) -> tuple[int, Any]:
    """What the single-record command prints: (exit code, the JSON or the error message)."""
    r = CliRunner().invoke(main, list(args))
    if r.exit_code == 0:
        return 0, json.loads(r.stdout)
    assert r.stderr.startswith("error: "), r.output
    return r.exit_code, r.stderr[len("error: "):].rstrip("\n")


def batch(*args: str) -> Any:
    return CliRunner().invoke(main, ["batch", *args])


@pytest.mark.parametrize("command,options", [("show", []), ("solve", ["--no-line"]), ("solve", ["--target", "61"]),
                                             ("annotate", ["--no-bury", "--min-cost", "3"])])
def test_every_line_is_the_commands_json_or_its_error(tmp_path: Path, command: str, options: list[str],
                                                      timeless) -> None:
    out = tmp_path / "out.jsonl"
    r = batch(command, *options, str(EXAMPLES), "--out", str(out), "--jobs", "1")
    assert r.exit_code in (0, 1), r.output
    got = lines(out)
    files = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".toml", ".json"))
    assert [g["id"] for g in got] == [str(p) for p in files]
    for g in got:
        code, want = cli_json(command, g["id"], *options, "--json")
        if code == 0:
            assert "result" in g and timeless(g["result"]) == timeless(want), g["id"]
        else:
            assert g == {"id": g["id"], "error": want}
    n_err = sum("error" in g for g in got)
    assert (r.exit_code == 1) == (n_err > 0)
    assert f"{len(files)} records; {len(files)} run, {len(files) - n_err} answered, {n_err} error" in r.stderr


def _mixed(tmp_path: Path) -> tuple[list[str], dict[str, str | None]]:
    """Inputs of good and bad records, and each id's expected error fragment (None: answered)."""
    good = (EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8")
    (tmp_path / "dir" / "sub").mkdir(parents=True)
    (tmp_path / "dir" / "sub" / "good.toml").write_text(good, encoding="utf-8")
    (tmp_path / "dir" / "bad-syntax.toml").write_text('game = "wenz\n', encoding="utf-8")
    (tmp_path / "dir" / "notes.txt").write_text("not a record", encoding="utf-8")
    (tmp_path / "dir" / ".hidden.toml").write_text("x", encoding="utf-8")
    solo = json.dumps(json.loads(json.dumps(__import__("tomllib").loads(
        (EXAMPLES / "solo-acorns-finished.toml").read_text(encoding="utf-8")))))
    revoke = json.loads(solo)
    play = [t.split() for t in revoke["play"]]
    play[0][1], play[1][1] = play[1][1], play[0][1]
    revoke["play"] = [" ".join(t) for t in play]
    jl = tmp_path / "season.jsonl"
    jl.write_text("\n".join([solo, '{"game": "wenz", "declarer": "1", "hands": {"1": "JC JC"}}', "", "[1, 2]",
                             '{"game": ', json.dumps(revoke), solo]) + "\n", encoding="utf-8")
    missing = tmp_path / "missing.toml"
    expect: dict[str, str | None] = {
        str(tmp_path / "dir" / "bad-syntax.toml"): "TOML syntax error",
        str(tmp_path / "dir" / "sub" / "good.toml"): None,
        f"{jl}:1": None,
        f"{jl}:2": "hands.1: duplicate card JC",
        f"{jl}:4": "record: must be a table of keys",
        f"{jl}:5": "JSON syntax error",
        f"{jl}:6": "play: trick 1",
        f"{jl}:7": None,
        str(missing): "cannot read the file: No such file or directory",
    }
    return [str(tmp_path / "dir"), str(jl), str(missing)], expect


def test_mixed_good_and_bad_records(tmp_path: Path) -> None:
    inputs, expect = _mixed(tmp_path)
    out = tmp_path / "out.jsonl"
    r = batch("solve", "--no-line", *inputs, "--out", str(out), "--jobs", "2")
    assert r.exit_code == 1, r.output
    got = lines(out)
    assert [g["id"] for g in got] == list(expect)
    for g in got:
        frag = expect[g["id"]]
        if frag is None:
            assert set(g) == {"id", "result"} and g["result"]["value"] >= 0
        else:
            assert set(g) == {"id", "error"} and frag in g["error"], g
            assert g["error"].startswith(g["id"] + ": "), g  # the message names the record, as the command's
    assert "9 records; 9 run, 3 answered, 6 errors" in r.stderr


def test_stdin_and_refusals(tmp_path: Path) -> None:
    rec = (EXAMPLES / "geier-finished.toml").read_text(encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["batch", "show", "-", "--out", str(out)], input=rec)
    assert r.exit_code == 0, r.output
    [line] = lines(out)
    assert line["id"] == "-" and line["result"]["game"] == "geier"
    # an output that holds lines is not overwritten by accident
    r = batch("show", str(EXAMPLES / "geier-finished.toml"), "--out", str(out))
    assert r.exit_code == 2 and "already holds lines; --resume to continue it, --force" in r.stderr
    assert r.stderr.startswith("error: ") and "Traceback" not in r.output
    # --html has no place in a batch; a bad option of the command is named
    r = batch("annotate", "--html", "x.html", str(EXAMPLES), "--out", str(tmp_path / "o2.jsonl"))
    assert r.exit_code == 2 and "--html" in r.stderr
    r = batch("solve", "--target", "many", str(EXAMPLES), "--out", str(tmp_path / "o3.jsonl"))
    assert r.exit_code == 2 and "solve options" in r.stderr and "--target" in r.stderr
    r = batch("show", str(out), "--out", str(out), "--force")
    assert r.exit_code == 2 and "--out" in r.stderr  # the output is one of the inputs
    with pytest.raises(BatchError, match="not a batch line"):
        (tmp_path / "junk.jsonl").write_text("hello\n{}\n", encoding="utf-8")
        read_done(str(tmp_path / "junk.jsonl"))


def test_same_output_whatever_jobs_for_a_seed(tmp_path: Path, timeless) -> None:
    """A sampled command (the picker's view of the bury) gives the same lines with 1 and 2 processes."""
    inputs = [str(EXAMPLES / "bury-jd-picker-only.toml"), str(EXAMPLES / "bury-jd-full.toml"),
              str(EXAMPLES / "bury-called-ace-full.toml"), str(EXAMPLES / "wenz-finished.toml")]
    outs = []
    for jobs, chunk in (("1", "4"), ("2", "1")):
        out = tmp_path / f"out{jobs}.jsonl"
        r = batch("bury", "--view", "picker", "--worlds", "12", "--seed", "5", *inputs, "--out", str(out),
                  "--jobs", jobs, "--chunk-size", chunk)
        assert r.exit_code == 1, r.output  # wenz has no bury
        outs.append(timeless(lines(out)))
    assert outs[0] == outs[1]
    assert sum("result" in g for g in outs[0]) == 3
    code, want = cli_json("bury", inputs[0], "--view", "picker", "--worlds", "12", "--seed", "5", "--json")
    assert code == 0 and timeless(want) == outs[0][0]["result"]


def _season(tmp_path: Path, n: int) -> Path:
    """A JSON Lines file of ``n`` seeded full deals of Sheepshead, 3 cards from the end (quick to solve)."""
    import random

    from sheepsolve.deals import random_position, random_setup
    from sheepsolve.games import make_game
    from sheepsolve.record import Record

    g = make_game("sheepshead")
    path = tmp_path / "season.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            rng = random.Random(i)
            setup = random_setup(g, rng)
            st = random_position(setup, rng, cards_left=3)
            d = Record.from_state(st).to_dict()
            f.write(json.dumps(d) + "\n")
    return path


def test_resume_after_an_interrupted_run_gives_the_same_output(tmp_path: Path, timeless) -> None:
    season = _season(tmp_path, 60)
    full = tmp_path / "full.jsonl"
    assert batch("solve", str(season), "--out", str(full), "--jobs", "1").exit_code == 0
    # a real interruption: the process is killed while it writes
    out = tmp_path / "cut.jsonl"
    cmd = [sys.executable, "-m", "sheepsolve", "batch", "solve", str(season), "--out", str(out), "--jobs", "1",
           "--chunk-size", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 5):
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    cut = out.read_bytes()
    assert 5 <= cut.count(b"\n") < 60
    with open(out, "ab") as f:  # and a last line cut short, as a kill in the middle of a write leaves it
        f.write(b'{"id": "' + str(season).encode() + b':58", "res')
    r = batch("solve", str(season), "--out", str(out), "--resume", "--jobs", "2")
    assert r.exit_code == 0, r.output
    kept = cut.count(b"\n")
    assert f"{kept} already in the output" in r.stderr
    assert timeless(lines(out)) == timeless(lines(full))
    # resuming a finished output runs nothing
    r = batch("solve", str(season), "--out", str(out), "--resume")
    assert r.exit_code == 0 and "60 already in the output; 0 run" in r.stderr


def test_list_sources_reads_folders_recursively_in_name_order(tmp_path: Path) -> None:
    inputs, expect = _mixed(tmp_path)
    assert [it.id for it in list_sources(inputs)] == list(expect)


def test_run_batch_api_matches_the_command_line(tmp_path: Path, timeless) -> None:
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    s = run_batch("show", {"german": False}, [str(EXAMPLES / "puzzles")], str(out1), jobs=1, progress=False)
    assert s.total == s.done > 0 and s.errors == 0
    assert batch("show", str(EXAMPLES / "puzzles"), "--out", str(out2)).exit_code == 0
    assert timeless(lines(out1)) == timeless(lines(out2))


# --------------------------------------------------------------------------------------------------------------
# Streaming: the inputs are read as the chunks go out, in bounded memory, with the ids and records of a whole read


def test_jsonl_read_line_by_line_as_a_whole_read_would(tmp_path: Path) -> None:
    from sheepsolve.batch import MAX_LINE_CHARS

    rec = '{"game": "wenz", "declarer": "1"}'
    long_line = '{"x": "' + "y" * MAX_LINE_CHARS + '"}'
    text = "\r\n".join(["", rec, "   ", rec + "  ", long_line, "\t", rec]) + "\n" + rec  # no newline at the end
    path = tmp_path / "s.jsonl"
    path.write_bytes(text.encode("utf-8"))
    got = [(it.id, it.source.text if it.source else None, it.error) for it in list_sources([str(path)])]
    want = []  # what reading the whole file and splitting it gave
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        rid = f"{path}:{n}"
        if len(line) > MAX_LINE_CHARS:
            want.append((rid, None, f"{rid}: the line is too long ({len(line)} characters; the limit is "
                                    f"{MAX_LINE_CHARS})"))
        else:
            want.append((rid, line, None))
    assert got == want


def test_a_jsonl_file_with_a_bad_byte_is_one_error_before_any_record(tmp_path: Path) -> None:
    rec = b'{"game": "wenz", "declarer": "1"}\n'
    data = rec * 3000 + b'{"game": "\xc3\x28"}\n' + rec + b"\xe2\x82"  # a bad pair, and a cut sequence at the end
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    offset = None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        offset = e.start
    assert [(it.id, it.error) for it in list_sources([str(path)])] == [
        (str(path), f"{path}: not UTF-8 text (bad byte at offset {offset})")]
    path.write_bytes(rec + b"\xe2\x82")  # only the end is cut short
    assert [it.error for it in list_sources([str(path)])] == [f"{path}: not UTF-8 text (bad byte at offset "
                                                              f"{len(rec)})"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_large_jsonl_runs_in_bounded_memory(tmp_path: Path, jobs: int) -> None:
    """A 30 MB season: the batch's own memory (this process: listing, reading, chunks in flight, writing) stays
    a small fraction of it. Reading the whole file first, as the batch once did, took more than the file."""
    import tracemalloc

    pad = "p" * 12000
    n = 2500
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):  # quick to answer: each record names no declarer
            f.write(json.dumps({"game": "wenz", "comment": f"{pad} {i}"}) + "\n")
    size = path.stat().st_size
    out = tmp_path / "out.jsonl"
    run_batch("show", {}, [str(EXAMPLES / "wenz-finished.toml")], str(out), jobs=1, progress=False)  # imports
    tracemalloc.start()
    try:
        s = run_batch("show", {}, [str(path)], str(out), jobs=jobs, progress=False, force=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert s.total == s.done == s.errors == n
    assert peak < size / 4, (peak, size)
    got = lines(out)
    assert [g["id"] for g in got] == [f"{path}:{i}" for i in range(1, n + 1)]
    assert all("declarer: missing" in g["error"] for g in got)


def test_the_output_is_never_read_as_an_input(tmp_path: Path) -> None:
    """An output inside a folder given as input is left out of the inputs (it would otherwise be read while
    it is written)."""
    folder = tmp_path / "season"
    folder.mkdir()
    (folder / "a.toml").write_text((EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8"), encoding="utf-8")
    out = folder / "out.jsonl"
    for extra in ([], ["--force"], ["--resume"]):
        r = batch("show", str(folder), "--out", str(out), *extra)
        assert r.exit_code == 0, r.output
        assert [g["id"] for g in lines(out)] == [str(folder / "a.toml")]


def test_jsonl_on_standard_input_with_the_progress_bar(tmp_path: Path) -> None:
    """JSON Lines on standard input, blank lines first: read as it comes, the bar without a known total."""
    rec = json.dumps(json.loads(json.dumps(__import__("tomllib").loads(
        (EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8")))))
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["batch", "show", "-", "--out", str(out), "--progress", "--jobs", "2"],
                           input="\n  \n" + rec + "\n\n" + rec + "\n")
    assert r.exit_code == 0, r.output
    assert [g["id"] for g in lines(out)] == ["-:3", "-:5"]
    assert "2 done" in r.stderr and "batch show: 2 records" in r.stderr


def test_an_oversized_record_on_stdin_is_an_error_line_read_no_further(tmp_path: Path, monkeypatch) -> None:
    """One TOML record on standard input is read up to a record file's limit: beyond it the record is an error
    line (the rest of the stream is not read), as a too-big record file is."""
    import io

    from sheepsolve import batch as B

    monkeypatch.setattr(B, "MAX_STDIN_RECORD_CHARS", 1000)
    text = 'game = "sauspiel"\n' + "# " + "x" * 5000 + "\n"
    stream = io.StringIO(text)
    items = list(B._stdin_items(stream))
    assert len(items) == 1 and items[0].error == "-: the record is too long (over 1000 characters)"
    assert stream.tell() <= 1100
    ok = (Path(__file__).parent.parent / "examples" / "sauspiel-finished.toml").read_text()
    monkeypatch.setattr(B, "MAX_STDIN_RECORD_CHARS", len(ok))
    items = list(B._stdin_items(io.StringIO(ok)))
    assert items[0].error is None and items[0].source is not None
    assert B.MAX_STDIN_RECORD_CHARS == len(ok) and B.MAX_RECORD_BYTES == 1024 * 1024


def test_resume_refuses_an_endless_line_without_reading_it_whole(tmp_path: Path, monkeypatch) -> None:
    from sheepsolve import batch_output as B

    monkeypatch.setattr(B, "MAX_OUTPUT_LINE_BYTES", 100)
    out = tmp_path / "o.jsonl"
    out.write_text('{"id": "a", "result": {}}\n' + '{"id": "' + "b" * 500 + '"}\n', encoding="utf-8")
    with pytest.raises(BatchError, match="line 2 is longer than 100 bytes"):
        read_done(str(out))
    out.write_text('{"id": "a", "result": {}}\n{"id": "b", "error": "x"}\n', encoding="utf-8")
    assert read_done(str(out))[0] == {"a", "b"}


# --------------------------------------------------------------------------------------------------------------
# Inputs, output, options, scheduler


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
def test_batch_refuses_bad_options_before_any_record(tmp_path: Path, args: list[str], words: list[str], run,
                                                     assert_input_error) -> None:
    """Options bad whatever the record were given to every record: each line had the same error, status 1."""
    out = tmp_path / "o.jsonl"
    r = run("batch", args[0], EXAMPLES / "sheepshead.toml", EXAMPLES / "wenz-finished.toml", *args[1:], "--out", out)
    assert_input_error(r, *words)
    assert not out.exists()

@pytest.mark.parametrize("address", ["", "nonsense", "tcp://", "127.0.0.1", "tcp://[::1", "inproc://x",
                                     "ucx://127.0.0.1:1", "tls://127.0.0.1:1", "tcp://127.0.0.1:99999",
                                     "tcp://127.0.0.1:1", "x" * 100_000, "tcp://a b:1"])
def test_batch_scheduler_bad_addresses_are_refused_at_once(tmp_path: Path, address: str, run,
                                                           assert_input_error) -> None:
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

    import sheepsolve.batch_dask as batch_dask

    pytest.importorskip("distributed")
    monkeypatch.setattr(batch_dask, "GREETING_SECONDS", 0.5)
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
