"""A real ``sheepsolve explore`` server for the tests: the command line started in a process of its own, its
address read from what it prints, requests sent with the standard library."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent


class Server:
    """``sheepsolve explore FILE --no-browser ...`` running; ``url`` is the address it printed (with the token)."""

    def __init__(self, path: Path | str, *args: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "sheepsolve", "explore", str(path), "--no-browser", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        deadline = time.monotonic() + 60
        self.url = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                break
            m = re.search(r"Open (http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            if m:
                self.url = m.group(1)
                break
        if not self.url:
            self.stop()
            raise RuntimeError(f"explore did not start: {self.proc.stderr.read()}")  # type: ignore[union-attr]
        parts = urlsplit(self.url)
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.token = parse_qs(parts.query)["token"][0]
        self._wait_ready()

    def _wait_ready(self) -> None:
        for _ in range(100):
            try:
                self.request("GET", "/")
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        raise RuntimeError("explore does not answer")

    def request(self, method: str, path: str, body: object = None, *, token: bool = True,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, bytes]:
        """(status, body) of one request; the token in the header unless ``token`` is False."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if token:
            req.add_header("X-Sheepsolve-Token", self.token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def json(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        status, data = self.request(method, path, body)
        return status, json.loads(data)

    def job(self, kind: str, line: list[str], **extra: object) -> dict:
        """Start a job and wait for its end."""
        status, j = self.json("POST", "/api/jobs", {"kind": kind, "line": line, **extra})
        assert status == 200, j
        for _ in range(120):
            _, s = self.json("GET", f"/api/jobs/{j['id']}?wait=1")
            if s["status"] not in ("queued", "running"):
                return s
        raise AssertionError(f"job {kind} did not end")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdout, self.proc.stderr):
            if f:
                f.close()
        return self.proc.returncode
