"""The source stays a map: every file of ``src/sheepsolve/core/`` is included by ``_core.pyx``, every function in
them has a docstring (docs/ARCHITECTURE.md lists the files), and no comment or docstring of the core or of the
Python layer (``src/**/*.py``) carries a measured figure: those live in docs/TUNING.md."""

from __future__ import annotations

import ast
import io
import re
import tokenize
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
# In the Python layer's prose a percentage may be a level (a 99.9% interval): a figure is a measured effect
MEASURED_EFFECT = re.compile(r"\d(?:\.\d+)?% (?:fewer|more|less|faster|slower)\b|\d(?:\.\d+)?x (?:faster|slower)\b"
                             r"|\d (?:ms|µs)\b|callgrind|cachegrind")
PYTHON_FILES = sorted(SRC.rglob("*.py"))
LITERAL = re.compile(r"``.*?``", re.S)


def python_prose(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring line of the Python file ``path``: what a person wrote about the
    code, not the code. Inline literals (````...````) and doctest examples (``>>>`` and their output) are left out:
    they show what the program prints."""
    source = path.read_text(encoding="utf-8")
    out = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
           if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                in_example = False
                for i, line in enumerate(first.value.value.split("\n")):
                    stripped = line.strip()
                    in_example = stripped.startswith(">>>") or (in_example and stripped != "")
                    if not in_example:
                        out.append((first.lineno + i, LITERAL.sub("", line)))
    return sorted(out)


def test_the_prose_finder_reads_comments_and_docstrings_only(tmp_path):
    f = tmp_path / "x.py"
    f.write_text('"""Module: 12% fewer nodes.\n\n>>> f()\n\'5% faster\'\n"""\n\nX = "3% more in a string"  # 4% less here\n\n\n'
                 'def f():\n    """Prints ``50% more``, 2x faster than g; a 99.9% interval."""\n    return "5% more"\n')
    hits = [(line, text) for line, text in python_prose(f) if MEASURED_EFFECT.search(text)]
    assert [line for line, _ in hits] == [1, 7, 11]  # not the example's output, the string or the literal


@pytest.mark.parametrize("path", [*CORE_FILES, SRC / "_core.pyx", SRC.parent.parent / "setup.py", *PYTHON_FILES],
                         ids=lambda p: str(p.relative_to(SRC)) if p.is_relative_to(SRC) and p.suffix == ".py"
                         and p.parent != SRC else p.name)
def test_no_measurement_in_the_code(path):
    """Figures live in docs/TUNING.md and commit messages; the code keeps a one-line why. The core's files are read
    whole; a Python file's comments and docstrings."""
    if path.suffix == ".py" and path.name != "setup.py":
        lines, pattern = python_prose(path), MEASURED_EFFECT
    else:
        lines, pattern = list(enumerate(path.read_text().split("\n"), 1)), MEASUREMENT
    hits = [f"{path.name}:{i} {line.strip()}" for i, line in lines if pattern.search(line)]
    assert not hits
