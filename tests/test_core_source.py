"""The compiled core's source stays a map: every file of ``src/sheepsolve/core/`` is included by ``_core.pyx``,
and every function in them has a docstring (docs/ARCHITECTURE.md lists the files)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "sheepsolve"
CORE_FILES = sorted((SRC / "core").glob("*.pxi"))
DEF = re.compile(r"\s*(?:cdef|cpdef|def)\s+(?!class\b|struct\b|enum\b|extern\b)[^=]*?(\w+)\(")


def functions(path: Path) -> list[tuple[str, int, bool]]:
    """(name, line, has a docstring) of every function defined in ``path``."""
    lines = path.read_text().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = DEF.match(lines[i])
        if m:
            stmt, j = lines[i], i
            while stmt.count("(") > stmt.count(")"):
                j += 1
                stmt += lines[j]
            if stmt.rstrip().endswith(":"):  # a definition, not a declaration with a call in its initialiser
                out.append((m.group(1), i + 1, lines[j + 1].strip().startswith('"""')))
                i = j
        i += 1
    return out


def test_the_core_files_are_all_included_in_order():
    includes = re.findall(r'^include "core/(\w+\.pxi)"', (SRC / "_core.pyx").read_text(), re.M)
    assert CORE_FILES and sorted(includes) == [p.name for p in CORE_FILES]


def test_the_function_finder_sees_definitions_and_skips_declarations(tmp_path):
    f = tmp_path / "x.pxi"
    f.write_text('cdef inline int f(int a,\n        int b) noexcept nogil:\n    """Doc."""\n    cdef int c = g(a)\n'
                 "    return c\n\n\ncdef int h(int a) noexcept nogil:\n    return a\n")
    assert functions(f) == [("f", 1, True), ("h", 8, False)]


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_every_core_function_has_a_docstring(path):
    missing = [f"{path.name}:{line} {name}" for name, line, doc in functions(path) if not doc]
    assert not missing


MEASUREMENT = re.compile(r"\d%|\b\d+ deals\b|callgrind|cachegrind")


@pytest.mark.parametrize("path", [*CORE_FILES, SRC / "_core.pyx", SRC.parent.parent / "setup.py"],
                         ids=lambda p: p.name)
def test_no_measurement_in_the_code(path):
    """Figures live in docs/TUNING.md; the code keeps a one-line why."""
    hits = [f"{path.name}:{i} {line.strip()}" for i, line in enumerate(path.read_text().split("\n"), 1)
            if MEASUREMENT.search(line)]
    assert not hits
