"""Faults at the edges (issue 35): an output that cannot be written (a full disk, a read-only folder,
``ulimit -f``), two batches on one output, and the exit status of an interrupted batch. Each ends with one
``error:`` line (status 2) or the status that names the signal, never a traceback or a cut line."""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import LOW_MEMORY
from sheepsolve import batch_output
from sheepsolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _whole_lines(path: Path) -> list[dict]:
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), data[-200:]
    return [json.loads(line) for line in data.splitlines()]


def _one_error_line(r) -> str:
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    return lines[0]


def test_a_write_that_fails_midway_leaves_whole_lines_and_one_error(tmp_path: Path, monkeypatch) -> None:
    """A disk that fills in the middle of a chunk: the part written is cut off again, the message says how many
    lines are kept, and --resume then completes the output as one uninterrupted run would."""
    out = tmp_path / "out.jsonl"
    real = os.pwrite
    calls = {"n": 0}

    def filling(fd: int, data, offset: int) -> int:
        calls["n"] += 1
        if calls["n"] == 4:  # half of the fourth chunk goes in, then the disk is full
            real(fd, bytes(data[: len(data) // 2]), offset)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data, offset)

    monkeypatch.setattr(batch_output.os, "pwrite", filling)
    r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(out), "--jobs", "1",
                                  "--chunk-size", "2"])
    line = _one_error_line(r)
    assert str(out) in line and "No space left on device" in line and "the 6 lines this run wrote" in line, line
    assert len(_whole_lines(out)) == 6
    monkeypatch.setattr(batch_output.os, "pwrite", real)
    r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(out), "--jobs", "1", "--resume"])
    assert r.exit_code in (0, 1), r.output
    whole = tmp_path / "whole.jsonl"
    CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(whole), "--jobs", "1"])
    assert [x["id"] for x in _whole_lines(out)] == [x["id"] for x in _whole_lines(whole)]


def _file_size_limit(limit: int):
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def test_ulimit_f_is_one_error_line_and_no_cut_line(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    r = subprocess.run([sys.executable, "-m", "sheepsolve", "batch", "show", str(EXAMPLES), "--out", str(out),
                        "--jobs", "1", "--chunk-size", "1"], capture_output=True, text=True, timeout=300,
                       preexec_fn=_file_size_limit(20_000))
    assert r.returncode == 2, r
    assert r.stderr.startswith("error: --out: ") and r.stderr.count("\n") == 1, r.stderr
    assert "File too large" in r.stderr and "Traceback" not in r.stderr
    got = _whole_lines(out)
    assert got and out.stat().st_size <= 20_000


def _small_filesystem(folder: Path, options: str, command: list[str]) -> subprocess.CompletedProcess:
    """``command`` run with a 48 KiB tmpfs mounted on ``folder`` (``options``: say ``ro``), in a user and mount
    namespace of its own; skips the test where that cannot be had."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    folder.mkdir()
    probe = subprocess.run(["unshare", "-Urm", "sh", "-c", f"mount -t tmpfs -o size=48k tmpfs {folder}"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {probe.stderr!r}")
    script = f"mount -t tmpfs -o size=48k,{options} tmpfs {folder} && exec \"$@\""
    return subprocess.run(["unshare", "-Urm", "sh", "-c", script, "sh", *command], capture_output=True, text=True,
                          timeout=300)


def test_a_full_disk_is_one_error_line_and_no_cut_line(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    out = disk / "out.jsonl"
    check = "import json,sys; d=open(sys.argv[1],'rb').read(); print(len(d), d.endswith(b'\\n'), " \
            "all(json.loads(x) for x in d.splitlines()))"
    r = _small_filesystem(disk, "rw", ["sh", "-c", f"{sys.executable} -m sheepsolve batch annotate {EXAMPLES} "
                                       f"{EXAMPLES} --out {out} --jobs 1 --chunk-size 1; echo status $?; "
                                       f"{sys.executable} -c \"{check}\" {out}"])
    assert "status 2" in r.stdout, (r.stdout, r.stderr)
    assert r.stderr.startswith("error: --out: ") and r.stderr.count("\n") == 1, r.stderr
    assert "No space left on device" in r.stderr and "lines this run wrote before are kept" in r.stderr
    size, whole, parsed = r.stdout.split("\n")[1].split()
    assert int(size) > 0 and whole == "True" and parsed == "True", r.stdout


def test_a_read_only_folder_is_one_error_line(tmp_path: Path) -> None:
    disk = tmp_path / "ro"
    r = _small_filesystem(disk, "ro", [sys.executable, "-m", "sheepsolve", "batch", "show", str(EXAMPLES),
                                       "--out", str(disk / "out.jsonl"), "--jobs", "1"])
    assert r.returncode == 2, r
    assert r.stderr == f"error: --out: {disk / 'out.jsonl'}: cannot write the file: Read-only file system\n"


def test_a_second_batch_on_the_same_output_is_refused_naming_it(tmp_path: Path) -> None:
    """Two batches on one output: the second (even with --force) is refused while the first runs; the first's
    output is whole and complete (before, both reported success over lines cut into each other)."""
    out = tmp_path / "out.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "sheepsolve", "batch", "annotate", str(EXAMPLES), str(EXAMPLES),
                              "--out", str(out), "--jobs", "1", "--chunk-size", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 0):
            assert first.poll() is None, first.communicate()
            time.sleep(0.02)
        r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(out), "--jobs", "1", "--force"])
        line = _one_error_line(r)
        assert line == (f"error: --out: {out}: another batch is writing it (the file is locked); wait for it to "
                        f"end, or give another --out"), line
        r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(out), "--jobs", "1", "--resume"])
        assert "another batch is writing it" in _one_error_line(r)
        _, err = first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode in (0, 1), err
    ids = [x["id"] for x in _whole_lines(out)]
    files = sorted(str(p) for p in EXAMPLES.rglob("*") if p.suffix in (".toml", ".json"))
    assert ids == files + files


def test_a_refused_second_batch_leaves_the_output_alone(tmp_path: Path) -> None:
    """The lock is taken before the output is emptied: a refused --force run cuts nothing."""
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a", "result": {}}\n', encoding="utf-8")
    with batch_output.Output(str(out), resume=True, force=False) as held:
        assert held.done_ids == {"a"}
        r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(out), "--jobs", "1", "--force"])
        assert "another batch is writing it" in _one_error_line(r)
        assert out.read_text(encoding="utf-8") == '{"id": "a", "result": {}}\n'
    r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES), "--out", str(out), "--jobs", "1", "--force"])
    assert r.exit_code in (0, 1), r.output


def test_sigint_to_a_batch_in_one_process_is_status_130(tmp_path: Path) -> None:
    """Ctrl-C ends a batch with 130 (128 + SIGINT), which a script tells from 1 (some record failed)."""
    out = tmp_path / "out.jsonl"
    p = subprocess.Popen([sys.executable, "-m", "sheepsolve", "batch", "annotate", str(EXAMPLES), "--out", str(out),
                          "--jobs", "1", "--chunk-size", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 0):
            time.sleep(0.02)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 130 and err == b"", (p.returncode, err)
    _whole_lines(out)


def low_memory(room_mib: int, *args: str) -> subprocess.CompletedProcess:
    """``sheepsolve ARGS`` with ``room_mib`` MiB of address space beyond what it holds once imported."""
    return subprocess.run([sys.executable, "-c", LOW_MEMORY, str(room_mib), *args], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_solver_tables_beyond_the_memory_limit_are_one_line(tmp_path: Path) -> None:
    r = low_memory(64, "solve", str(EXAMPLES / "sauspiel-midtrick.toml"), "--table-mib", "256")
    assert r.returncode == 2, r
    assert r.stderr.startswith("error: out of memory (this process may use at most ") and r.stderr.count("\n") == 1
    assert "the solver's tables need 193 MiB (--table-mib 256); ask for less: a smaller --table-mib" in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_many_worlds_beyond_the_memory_limit_are_one_line(tmp_path: Path) -> None:
    # suggest keeps each sampled world's values and hands, not the world (about 15 MiB at 20,000 worlds): 12 MiB
    # of room is too little, and enough for the solver's tables
    r = low_memory(12, "suggest", str(EXAMPLES / "sauspiel-midtrick.toml"), "--worlds", "20000", "--jobs", "2")
    assert r.returncode == 2, r
    assert r.stderr.startswith("error: out of memory (this process may use at most ") and r.stderr.count("\n") == 1
    assert r.stderr.endswith("with --worlds 20000 and --jobs 2; ask for less: fewer --worlds, or --jobs 1\n"), r.stderr


def _fake_service(answer: bytes | None, then_close: bool):
    """A TCP service on loopback that sends ``answer`` at once to its first caller (None: nothing), then closes
    the connection or holds it open, silent; (address, stop)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []

    def serve() -> None:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        if answer:
            conn.sendall(answer)
        if then_close:
            conn.close()
        else:
            held.append(conn)

    th = threading.Thread(target=serve, daemon=True)
    th.start()

    def stop() -> None:
        server.close()
        for c in held:
            c.close()
        th.join(5)

    return f"tcp://127.0.0.1:{server.getsockname()[1]}", stop


GARBAGE = bytes(range(7, 47))


@pytest.mark.parametrize("answer, then_close, said", [
    (b"SSH-2.0-OpenSSH_9.2\r\n", True, "it answered 'SSH-2.0-', not a Dask message (read as one, it would be "),
    ((40).to_bytes(8, "little") + GARBAGE, True, "its greeting is not a Dask message ("),  # 62 s, a traceback
    ((40).to_bytes(8, "little"), False, "its greeting stopped after 8 of 48 bytes (nothing more within 0.5 s)"),
    ((40).to_bytes(8, "little") + GARBAGE[:10], True, "it closed the connection after 18 of the 48 bytes of its "
                                                      "greeting"),
    (b"", True, "it closed the connection without a greeting"),
    (None, False, "it sent nothing within 0.5 s (waiting for its greeting)"),
])
def test_a_false_scheduler_is_refused_saying_what_it_did(tmp_path: Path, monkeypatch, answer, then_close,
                                                         said: str) -> None:
    """The --scheduler check reads the greeting whole and decodes it, each step under a deadline: a plausible
    length and then garbage gave a traceback after about 62 s, 8 bytes and silence a wait of over 5 minutes."""
    pytest.importorskip("distributed")
    from sheepsolve import batch_dask

    monkeypatch.setattr(batch_dask, "GREETING_SECONDS", 0.5)
    address, stop = _fake_service(answer, then_close)
    try:
        t0 = time.monotonic()
        r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES / "wenz-finished.toml"), "--out",
                                      str(tmp_path / "o.jsonl"), "--scheduler", address])
        line = _one_error_line(r)
        assert time.monotonic() - t0 < 10
    finally:
        stop()
    assert line.startswith(f"error: --scheduler: {address} is not a Dask scheduler: "), line
    assert said in line, line
    assert not (tmp_path / "o.jsonl").exists()


def test_a_dask_worker_is_not_taken_for_the_scheduler(tmp_path: Path) -> None:
    """A real handshake and Dask's identity: the address of a worker is refused as one."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=":0", silence_logs=40) as cluster:
        worker = next(iter(cluster.scheduler_info["workers"]))
        r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES / "wenz-finished.toml"), "--out",
                                      str(tmp_path / "o.jsonl"), "--scheduler", worker])
        line = _one_error_line(r)
        assert line == f"error: --scheduler: {worker} is not a Dask scheduler: it is a Dask Worker", line
        r = CliRunner().invoke(main, ["batch", "show", str(EXAMPLES / "wenz-finished.toml"), "--out",
                                      str(tmp_path / "o.jsonl"), "--scheduler", cluster.scheduler_address])
        assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------------------------------------------
# Records: invisible characters in names, huge numbers, deep nesting, a byte-order mark


def _record_with(tmp_path: Path, replace: str, by: str, suffix: str = ".json") -> Path:
    import tomllib

    d = tomllib.loads((EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8"))
    p = tmp_path / f"r{suffix}"
    p.write_text(json.dumps(d).replace(replace, by), encoding="utf-8")
    return p


@pytest.mark.parametrize("ch", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u061c", "\u00ad", "\u180e",
                                "\U000e0041", "\u00a0", "\u3000", "\ue000"])
def test_invisible_characters_in_player_names_are_refused(tmp_path: Path, ch: str) -> None:
    """Two seats named Hias and Hi<U+200B>as printed alike: a name holds only characters that show as themselves,
    its spaces plain ones."""
    p = _record_with(tmp_path, "Hias", "Hi" + ch + "as")
    line = _one_error_line(CliRunner().invoke(main, ["show", str(p)]))
    assert line.startswith(f"error: {p}: players: player 3: ") and f"U+{ord(ch):04X}" in line, line
    assert "holds an invisible character" in line


def test_plain_names_in_any_script_are_kept(tmp_path: Path) -> None:
    p = _record_with(tmp_path, "Hias", "Mathias Müller-Øster 渡辺")
    assert CliRunner().invoke(main, ["show", str(p)]).exit_code == 0


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_5000_digit_number_is_named_by_line_and_key(tmp_path: Path, suffix: str) -> None:
    p = tmp_path / f"big{suffix}"
    if suffix == ".toml":
        p.write_text('game = "wenz"\nplayers = ["A", "B", "C", "D"]\ndoublers = ' + "9" * 5000 + "\n")
        where = "TOML: line 3, column 12 (doublers)"
    else:
        p.write_text('{"game": "wenz",\n "doublers": ' + "9" * 5000 + "}")
        where = "JSON: line 2, column 14 (doublers)"
    line = _one_error_line(CliRunner().invoke(main, ["show", str(p)]))
    assert line == f"error: {p}: {where}: a number of 5,000 digits; a record holds 64-bit integers", line


@pytest.mark.parametrize("suffix, text, where", [
    (".json", '{"game": "wenz",\n "notes": ' + "[" * 100_000 + "]" * 100_000 + "}", "JSON: line 2, column 43 (notes)"),
    (".toml", 'game = "wenz"\nnotes = ' + "[" * 100_000 + "]" * 100_000 + "\n", "TOML: line 2, column 42 (notes)"),
    (".toml", 'game = "wenz"\nnotes = ' + "{a=" * 3000 + "1" + "}" * 3000 + "\n", "TOML: line 2, column 108 (notes)"),
])
def test_deep_nesting_is_named_by_line_and_key(tmp_path: Path, suffix: str, text: str, where: str) -> None:
    """'maximum recursion depth exceeded' named nothing."""
    p = tmp_path / f"deep{suffix}"
    p.write_text(text)
    line = _one_error_line(CliRunner().invoke(main, ["show", str(p)]))
    assert line == f"error: {p}: {where}: nested too deeply (a record nests lists and tables at most 32 deep)", line


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_byte_order_mark_at_the_start_is_read(tmp_path: Path, suffix: str) -> None:
    """Windows editors write one: 'Invalid statement (at line 1, column 1)' before."""
    text = (EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8")
    plain = CliRunner().invoke(main, ["show", str(EXAMPLES / "wenz-finished.toml"), "--json"])
    if suffix == ".json":
        text = plain.stdout  # show --json is not a record; the record as JSON:
        import tomllib

        text = json.dumps(tomllib.loads((EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8")))
    p = tmp_path / f"bom{suffix}"
    p.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    r = CliRunner().invoke(main, ["show", str(p), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == json.loads(plain.stdout)


def test_a_byte_order_mark_on_batch_input_and_report(tmp_path: Path) -> None:
    import tomllib

    line = json.dumps(tomllib.loads((EXAMPLES / "wenz-finished.toml").read_text(encoding="utf-8")))
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["batch", "annotate", "--no-bury", "-", "--out", str(out), "--jobs", "1"],
                           input="\ufeff" + line + "\n")
    assert r.exit_code == 0, r.output
    out.write_bytes(b"\xef\xbb\xbf" + out.read_bytes())
    r = CliRunner().invoke(main, ["report", str(out), "--json"])
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------------------------------------------
# The long sampling commands: an estimate of the time left once the first worlds are done


def test_the_estimate_of_time_left_once_the_first_worlds_are_done(monkeypatch, capsys) -> None:
    from sheepsolve import cli

    now = [100.0]
    progress = cli.Progress("worlds", clock=lambda: now[0], estimate=True)
    progress.on = False
    progress(0, 20000)
    now[0] += 1.0
    progress(10, 20000)  # a second and 10 worlds: too early to tell
    assert capsys.readouterr().err == ""
    now[0] += 3.0
    progress(50, 20000)
    now[0] += 60.0
    progress(900, 20000)  # told once only
    assert capsys.readouterr().err == "worlds: about 27 min left (50 of 20,000 done in 4 s)\n"
    quick = cli.Progress("worlds", clock=lambda: now[0], estimate=True)
    quick.on = False
    quick(0, 100)
    now[0] += 2.5
    quick(99, 100)  # a second left: not worth a line
    assert capsys.readouterr().err == ""


def test_a_long_pick_prints_its_estimate(tmp_path: Path) -> None:
    """pick --worlds 20000 (about 34 minutes on one core) says how long it will take once it has begun."""
    import re

    p = subprocess.Popen([sys.executable, "-m", "sheepsolve", "pick", str(EXAMPLES / "bury-jd-picker-only.toml"),
                          "--seat", "Cal", "--worlds", "20000", "--jobs", "1"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        import select

        ready, _, _ = select.select([p.stderr], [], [], 60)  # the estimate comes after FIRST_WORLDS_SECONDS
        line = p.stderr.readline() if ready else "(nothing within 60 s)"
    finally:
        p.kill()
        p.communicate()
    assert re.fullmatch(r"worlds: about (\d+ s|\d+ min|\d+ h \d+ min) left \([\d,]+ of 20,000 done in \d+ s\)\n",
                        line), line


FILLS_THE_MEMORY = """
import resource, sys
import click
from sheepsolve.cli.base import input_errors

@click.command()
@click.option("--worlds", type=int, default=20000)
@input_errors
def fill(worlds):
    held = []  # every byte the limit leaves, down to the smallest objects, held by this frame
    size = 1 << 20
    while size:
        try:
            while True:
                held.append(bytearray(size))
        except MemoryError:
            size //= 2
    raise MemoryError

with open("/proc/self/status") as f:
    size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (size + 32 * 2**20, size + 32 * 2**20))
fill(["--worlds", "20000"], prog_name="sheepsolve")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_the_out_of_memory_message_is_built_after_the_memory_is_let_go() -> None:
    # a command that used every byte it may: its frame is let go before the one line is built (inside the handler,
    # building the line ran out of memory too and printed a traceback)
    r = subprocess.run([sys.executable, "-c", FILLS_THE_MEMORY], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r
    assert r.stderr.startswith("error: out of memory (this process may use at most ") and r.stderr.count("\n") == 1
    assert r.stderr.endswith("with --worlds 20000; ask for less: fewer --worlds\n"), r.stderr


def test_commands_run_in_process_leave_the_estimate_out(run, monkeypatch) -> None:
    # on a slow machine a test's short pick could print "worlds: about N s left" into the JSON it reads
    from sheepsolve.cli import base as cli_base

    monkeypatch.setattr(cli_base, "ESTIMATE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(cli_base, "FIRST_WORLDS_SECONDS", 0.0)
    out = run("pick", EXAMPLES / "bury-jd-full.toml", "--seat", "Dee", "--worlds", "8", "--json", "--jobs", "1")
    assert out.exit_code == 0 and json.loads(out.output)["inference"] == "auction", out.output
