"""SIGINT, SIGTERM, SIGHUP and SIGKILL to ``sheepsolve bury --jobs 2``, ``sheepsolve batch --jobs 2``, ``sheepsolve annotate
--view player --race --jobs 2`` (one pool kept across its rounds) and ``sheepsolve suggest --jobs 2`` (a helper forked
beside the main process) while their worker processes run, sent to the main
process
and to the whole process group: the command ends promptly, prints no traceback and no leaked-resource warning,
and leaves no process behind (every child and grandchild, found by PID, is gone)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers_cli import ROOT
from sheepsolve.bury import default_jobs

RECORD = ROOT / "examples" / "bury-jd-full.toml"

pytestmark = pytest.mark.skipif(default_jobs() < 2 or not sys.platform.startswith("linux"),
                                reason="needs two cores and /proc")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, ...), None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _live(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] != "Z"


def _descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = _stat(int(d))
            if st is not None:
                parents[int(d)] = int(st[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


def _default_signals() -> None:
    """In the child before it starts: SIGINT and SIGTERM as a terminal would deliver them. A shell without job
    control starts background commands with SIGINT ignored, and the test run may inherit that (CI started in the
    background): the command would then rightly keep running on SIGINT, which is not the case under test."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


COMMANDS = {
    "bury": ["bury", str(RECORD), "--view", "picker", "--worlds", "5000", "--jobs", "2"],
    # the examples six times over: about 20 s of work on two cores, well past the signal
    "batch": ["batch", "annotate"] + [str(ROOT / "examples")] * 6 + ["--out", "out.jsonl", "--jobs", "2",
                                                                     "--chunk-size", "1"],
    # racing rounds of 26 decisions x 300 worlds: the pool lives from the first round to the last
    "annotate-view": ["annotate", str(ROOT / "examples" / "sauspiel-finished.toml"), "--view", "player", "--worlds",
                      "300", "--race", "--jobs", "2"],
    # 20,000 worlds at the first lead, each drawn and solved where it is taken: a minute of work on two cores
    "suggest": ["suggest", str(ROOT / "examples" / "sauspiel-finished.toml"), "--at", "1", "--worlds", "20000",
                "--jobs", "2"],
}
WORKERS = {"suggest": 1}
"""The worker processes each command starts, where not 2 (suggest: one helper beside the main process)."""


CASES = [(command, signame, target) for command in sorted(COMMANDS) for signame in ("SIGTERM", "SIGINT")
         for target in ("main", "group")]
# a terminal or an ssh session that dies (SIGHUP), and a parent killed outright (SIGKILL): workers end with it
CASES += [("bury", "SIGHUP", "main"), ("batch", "SIGHUP", "main"), ("batch", "SIGHUP", "group"),
          ("bury", "SIGKILL", "main"), ("batch", "SIGKILL", "main"), ("suggest", "SIGHUP", "main"),
          ("suggest", "SIGKILL", "main")]


@pytest.mark.parametrize("command,signame,target", CASES)
def test_interrupt_with_workers_running(tmp_path: Path, command: str, signame: str, target: str) -> None:
    sig = getattr(signal, signame)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "sheepsolve"] + COMMANDS[command], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, cwd=tmp_path, env=env,
                         preexec_fn=_default_signals)
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + 90
        workers = WORKERS.get(command, 2)
        while time.monotonic() < deadline and len(seen) < workers:  # the workers (and a resource tracker, a
            seen |= _descendants(p.pid)                              # fork server, by the start method)
            assert p.poll() is None, p.communicate()
            time.sleep(0.05)
        assert len(seen) >= workers, f"the workers did not start: {seen}"
        time.sleep(1.0)  # the workers are busy solving
        seen |= _descendants(p.pid)
        if target == "main":
            os.kill(p.pid, sig)
        else:
            os.killpg(p.pid, sig)
        out, err = p.communicate(timeout=60)  # a hang never ends; a loaded machine took 22 s
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    _check_ended(p, err, signame, seen)


def _check_ended(p: subprocess.Popen, err: bytes, signame: str, seen: set[int]) -> None:
    """The command ended as the signal asks, silently, and left no process behind."""
    text = err.decode("utf-8", "replace")
    # the estimate of the time left, printed once the first worlds are done (bury, pick, choose)
    text = re.sub(r"(?m)^\w+: about [\w ]+ left \([\d,]+ of [\d,]+ done in [\w ]+\)\n", "", text)
    assert "Traceback" not in text and "Error" not in text and "Exception" not in text, text
    assert "leaked" not in text, text
    if signame == "SIGTERM":
        assert p.returncode in (128 + signal.SIGTERM, -signal.SIGTERM), (p.returncode, text)
    elif signame == "SIGHUP":  # ended like SIGTERM, its status telling which signal it was
        assert p.returncode == 128 + signal.SIGHUP, (p.returncode, text)
    elif signame == "SIGKILL":  # nothing runs in the parent; the workers end with it (PR_SET_PDEATHSIG)
        assert p.returncode == -signal.SIGKILL, (p.returncode, text)
    else:  # Ctrl-C: 130, as a shell reports a process SIGINT ended, not 1 (a batch with bad records)
        assert p.returncode == 128 + signal.SIGINT and text.strip() == "", (p.returncode, text)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_live(pid) for pid in seen):
        time.sleep(0.05)
    assert not [pid for pid in seen if _live(pid)], "processes left behind"
    group = [int(d) for d in os.listdir("/proc") if d.isdigit() and (_stat(int(d)) or ["Z", 0, 0])[2] == str(p.pid)
             and _live(int(d))]
    assert not group, f"processes left in the group: {group}"


@pytest.mark.parametrize("target", ["main", "group"])
def test_sigterm_while_the_workers_start(tmp_path: Path, target: str) -> None:
    """SIGTERM as soon as the first worker process exists (the pool is still starting its workers, a worker may
    not have its handlers yet): the same quiet end, nothing left behind. Signals are held back while the pool
    starts; before, a worker could die reading its start-up data ("EOFError: Ran out of input")."""
    p = subprocess.Popen([sys.executable, "-m", "sheepsolve"] + COMMANDS["batch"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, cwd=tmp_path,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"), preexec_fn=_default_signals)
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not seen:
            seen |= _descendants(p.pid)
            assert p.poll() is None, p.communicate()
            time.sleep(0.002)
        assert seen, "no worker started"
        (os.kill if target == "main" else os.killpg)(p.pid, signal.SIGTERM)
        seen |= _descendants(p.pid)
        out, err = p.communicate(timeout=60)  # a hang never ends; a loaded machine took 22 s
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    _check_ended(p, err, "SIGTERM", seen)


SECOND_SIGTERM = """
import os, signal, threading, time
from sheepsolve.signals import worker_init
worker_init()
def linger():  # a thread the interpreter waits for as it ends (threading._shutdown)
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)  # the second SIGTERM, while the first one's SystemExit ends the process
    time.sleep(60)
threading.Thread(target=linger).start()
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(60)
"""


def test_a_second_sigterm_ends_a_worker_at_once_and_silently() -> None:
    """A worker told twice (the group's SIGTERM, then the pool's terminate) while it ends: it ends at once with
    status 143 and prints nothing (before: "Exception ignored in ... _shutdown ... SystemExit: 143")."""
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", SECOND_SIGTERM], capture_output=True, timeout=60,
                       preexec_fn=_default_signals)
    assert r.returncode == 128 + signal.SIGTERM, r
    assert r.stderr == b"", r.stderr.decode()
    assert time.monotonic() - t0 < 30


def _swallow(seconds: float) -> int:
    """A task that swallows the SystemExit of SIGTERM and goes on (as careless code in a worker might)."""
    try:
        time.sleep(seconds)
    except SystemExit:
        time.sleep(seconds)
    return os.getpid()


def test_a_worker_that_swallows_sigterm_is_still_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool ends on an error even when a worker ignores the SystemExit that SIGTERM raises: after the grace
    time its workers are killed and waited for; nothing is left behind and the error goes on."""
    from sheepsolve import signals

    monkeypatch.setattr(signals, "END_GRACE_SECONDS", 1.0)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"):
        with signals.process_pool(2) as pool:
            pool.apply_async(_swallow, (60,))
            pool.apply_async(_swallow, (60,))
            time.sleep(1.0)
            workers = [w.pid for w in pool._pool]  # type: ignore[attr-defined]
            raise RuntimeError("stop")
    assert time.monotonic() - t0 < 30
    assert workers and not [pid for pid in workers if _live(pid)], workers


MID_MESSAGE = """
import os, signal, time
from sheepsolve import signals

def rchar(pid):
    with open(f"/proc/{pid}/io") as f:
        return int(next(line for line in f if line.startswith("rchar")).split()[1])

if __name__ == "__main__":
    try:
        with signals.process_pool(1) as pool:
            [worker] = pool._pool
            time.sleep(0.5)
            base = rchar(worker.pid)
            pool.apply_async(len, (b"x" * (64 << 20),))  # a task the worker reads piece by piece
            deadline = time.monotonic() + 30
            while rchar(worker.pid) < base + (4 << 20) and time.monotonic() < deadline:
                time.sleep(0.0005)
            os.kill(worker.pid, signal.SIGTERM)  # stopped in the middle of the message
            time.sleep(0.2)
            raise RuntimeError("stop")
    except RuntimeError:
        print("ended", flush=True)
"""


def test_a_worker_stopped_in_the_middle_of_a_task_message_does_not_hang_the_pool_end(tmp_path: Path) -> None:
    """A worker stopped by its own SIGTERM while it reads a large task (as a SIGTERM to the process group
    stops it) leaves the task queue mid-message. The pool must still end at once when its block raises:
    Pool.terminate, used before, read that queue from the middle and waited forever (the hang of the group
    SIGTERM tests under load)."""
    script = tmp_path / "mid_message.py"
    script.write_text(MID_MESSAGE, encoding="utf-8")
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True, preexec_fn=_default_signals)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail("the pool's end hung after a worker was stopped in the middle of a task message")
    assert p.returncode == 0 and out.decode().strip() == "ended", (p.returncode, out, err)
    assert b"Traceback" not in err, err.decode()
