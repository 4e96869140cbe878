"""What many test files share: the project's folders, an example found by name, a command run in process (click's
runner) or as ``python -m sheepsolve`` in a child process, the check of an input error, and JSON without its
timings. ``conftest.py`` hands these to tests as fixtures; module-level code (parametrize lists) imports them."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

from click.testing import CliRunner, Result

from sheepsolve.cli import base as cli_base, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TIMINGS = frozenset({"seconds", "bury_seconds"})


def example(name: str) -> Path:
    """The bundled example called ``name`` (its stem, or a path under ``examples/``, with or without ``.toml``)."""
    path = EXAMPLES / name
    if path.exists():
        return path
    found = sorted(EXAMPLES.rglob(f"{Path(name).stem}.toml")) + sorted(EXAMPLES.rglob(f"{Path(name).stem}.json"))
    if len(found) != 1:
        raise LookupError(f"{len(found)} examples called {name!r}: {[str(p) for p in found]}")
    return found[0]


def run(*args: object, input: str | bytes | None = None) -> Result:
    """``sheepsolve ARGS`` in this process (click's runner); every argument is turned into a string. The estimate of
    the time left (standard error, a long run's) is not printed here: it comes only when the machine is slow, and
    click's ``output`` mixes it into what the tests read (the JSON of ``--json``). The tests of the estimate run
    ``Progress`` or a child process."""
    with mock.patch.object(cli_base, "ESTIMATE_AFTER_SECONDS", math.inf):
        return CliRunner().invoke(main, [str(a) for a in args], input=input)


def module_argv(*args: object) -> list[str]:
    """The command line of ``python -m sheepsolve ARGS`` with this interpreter."""
    return [sys.executable, "-m", "sheepsolve", *(str(a) for a in args)]


def run_module(*args: object, input: str | None = None, timeout: float = 120,
               env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m sheepsolve ARGS`` in a child process, where a test needs a real process (signals, exit codes,
    the interpreter's own start): its output as text."""
    return subprocess.run(module_argv(*args), input=input, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, cwd=cwd)


def assert_input_error(r: Result | subprocess.CompletedProcess, *words: str) -> None:
    """Bad input: exit status 2, one ``error:`` line holding every one of ``words``, no traceback."""
    if isinstance(r, subprocess.CompletedProcess):
        code, output, exception = r.returncode, r.stdout + r.stderr, None
    else:
        code, output, exception = r.exit_code, r.output, r.exception
    assert code == 2, (code, output, exception)
    assert output.startswith("error: "), output
    assert output.count("\n") == 1, output
    assert "Traceback" not in output, output
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    for w in words:
        assert w in output, (w, output)


def timeless(x: Any) -> Any:
    """``x`` (parsed JSON) without its timing fields, at any depth: the only fields that differ between runs."""
    if isinstance(x, dict):
        return {k: timeless(v) for k, v in x.items() if k not in TIMINGS}
    if isinstance(x, list):
        return [timeless(v) for v in x]
    return x


def with_lines(tmp_path: Path, src: Path, *lines: str, name: str = "rec.toml") -> Path:
    """A copy of the record ``src`` in ``tmp_path`` with top-level ``lines`` put first (before any table)."""
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n" + src.read_text(encoding="utf-8"), encoding="utf-8")
    return p


# A child process that runs the command line with only ROOM MiB of address space above what it holds after
# importing sheepsolve (argv: ROOM, then the command's arguments): the low-memory fault tests.
LOW_MEMORY = """
import resource, sys
import sheepsolve.cli
with open("/proc/self/status") as f:
    size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
room = int(sys.argv[1]) * 2**20
resource.setrlimit(resource.RLIMIT_AS, (size + room, size + room))
sys.argv = ["sheepsolve"] + sys.argv[2:]
sheepsolve.cli.main()
"""
