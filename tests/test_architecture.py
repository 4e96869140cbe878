"""The layering rules of docs/ARCHITECTURE.md, checked by reading the source with `ast`.

Every module under src/sheepsolve is parsed (nothing is imported) and four rules are asserted:

- no import circle between modules: every ``import`` and ``from ... import`` counts, at module level or inside a
  function (but those under ``if TYPE_CHECKING:``, which never run), and a failure names one circle of each
  tangle (strongly connected part of the import graph);
- no private name (``_x``, not a dunder) imported from another module;
- no domain module imports ``sheepsolve.render``: the domain is everything but ``render/``, the command line
  (``cli``), the JSON each command prints (``commands``, which has ``render`` word the text a JSON key holds, such
  as bury's ``lesson``), the batch runner of those commands (``batch``), ``explore`` and ``__main__``;
- no Python module over 600 lines, but for the entries of ``LONG_MODULES``.

Run as a script it prints what it finds and exits 1 when a rule fails::

    python tests/test_architecture.py            # this checkout's src/sheepsolve
    python tests/test_architecture.py --summary /path/to/src/sheepsolve   # figures of another checkout
"""

from __future__ import annotations

import argparse
import ast
import collections
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "sheepsolve"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE
MAX_LINES = 600

# Modules allowed over MAX_LINES, each with its line count when it was allowed: it may shrink, never grow.
# Keep this short and say why each entry cannot be split yet.
LONG_MODULES: dict[str, int] = {}

# Parts of the program allowed to import sheepsolve.render (everything else is the domain).
FRONT_ENDS = ("render", "cli", "commands", "batch", "explore", "__main__")

# The compiled core is a private extension module, wrapped by exactly one Python module.
PRIVATE_MODULE_USERS = {f"{PACKAGE}._core": {f"{PACKAGE}.solver"}}


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    lines: int
    tree: ast.Module


@dataclass
class ImportEdge:
    source: str
    target: str
    line: int


@dataclass
class Findings:
    modules: dict[str, Module]
    edges: list[ImportEdge] = field(default_factory=list)
    circles: list[list[str]] = field(default_factory=list)
    private_imports: list[str] = field(default_factory=list)
    render_imports: list[str] = field(default_factory=list)
    long_modules: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        return (
            [f"import circle: {' -> '.join(circle + circle[:1])}" for circle in self.circles]
            + self.private_imports
            + self.render_imports
            + self.long_modules
        )


def read_modules(source: Path) -> dict[str, Module]:
    """Every .py file under ``source`` (the package's folder) by its dotted module name."""
    modules = {}
    for path in sorted(source.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = [source.name, *path.relative_to(source).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        text = path.read_text(encoding="utf-8")
        name = ".".join(parts)
        modules[name] = Module(name, path, is_package, len(text.splitlines()), ast.parse(text, str(path)))
    for path in source.rglob("*.pyx"):  # compiled modules: import targets without Python source to read
        name = ".".join([source.name, *path.relative_to(source).with_suffix("").parts])
        modules.setdefault(name, Module(name, path, False, 0, ast.Module(body=[], type_ignores=[])))
    return modules


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _owner(name: str, modules: dict[str, Module]) -> str | None:
    """The innermost module of ours that ``name`` (a dotted module name) is, or lies in."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_type_checking(node: ast.AST) -> bool:
    """An ``if TYPE_CHECKING:`` block (its imports are for type checkers only)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _is_front_end(name: str) -> bool:
    rest = name.split(".")[1:]
    return bool(rest) and rest[0] in FRONT_ENDS


def check(source: Path = SOURCE, *, type_only_imports: bool = False) -> Findings:
    """Read every module under ``source`` and collect what breaks the rules; with ``type_only_imports`` the
    imports under ``if TYPE_CHECKING:`` count too (a circle through them is one a type checker walks)."""
    modules = read_modules(source)
    found = Findings(modules)
    for module in modules.values():
        type_only = set() if type_only_imports else {
            id(n) for block in ast.walk(module.tree) if _is_type_checking(block) for n in ast.walk(block)}
        for node in ast.walk(module.tree):
            if id(node) in type_only:
                continue
            targets: list[tuple[str, str | None]] = []  # (module imported, private name imported from it)
            if isinstance(node, ast.Import):
                targets = [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, node)
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    if submodule in modules:
                        targets.append((submodule, None))
                    else:
                        targets.append((base, alias.name if _is_private(alias.name) else None))
            for target, private in targets:
                owner = _owner(target, modules)
                if owner is None or owner == module.name:
                    continue
                found.edges.append(ImportEdge(module.name, owner, node.lineno))
                where = f"{module.path.relative_to(source.parent)}:{node.lineno}"
                hidden = private or next((p for p in owner.split(".") if _is_private(p)), None)
                if hidden and module.name not in PRIVATE_MODULE_USERS.get(owner, ()):
                    found.private_imports.append(f"private name: {where} imports {hidden} from {owner}")
                if owner.split(".")[1:2] == ["render"] and not _is_front_end(module.name):
                    found.render_imports.append(f"domain imports render: {where} {module.name} imports {owner}")
    found.circles = circles(found.edges)
    for module in modules.values():
        allowed = LONG_MODULES.get(module.name, MAX_LINES)
        if module.lines > allowed:
            found.long_modules.append(
                f"too long: {module.path.relative_to(source.parent)} has {module.lines} lines (at most {allowed})"
            )
    return found


def circles(edges: list[ImportEdge]) -> list[list[str]]:
    """One circle through each tangle of the import graph (Tarjan's strongly connected components)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    tangles: list[set[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            part = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.add(member)
                if member == node:
                    break
            if len(part) > 1:
                tangles.append(part)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for node in sorted(graph):
            if node not in index:
                connect(node)
    finally:
        sys.setrecursionlimit(limit)
    return [_circle_in(sorted(part)[0], part, graph) for part in sorted(tangles, key=sorted)]


def _circle_in(start: str, part: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest circle from ``start`` back to itself inside one tangle (breadth first)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & part):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return path[::-1]
                if succ not in came_from:
                    came_from[succ] = node
                    following.append(succ)
        frontier = following
    raise AssertionError(f"no circle through {start}")


def summary(found: Findings) -> str:
    """Lines, modules, circles and the largest modules, as the issue's figures."""
    modules = [m for m in found.modules.values() if m.path.suffix == ".py"]
    largest = sorted(modules, key=lambda m: -m.lines)[:8]
    return "\n".join(
        [
            f"python modules: {len(modules)}, lines: {sum(m.lines for m in modules)}",
            f"modules over {MAX_LINES} lines: {sum(m.lines > MAX_LINES for m in modules)}",
            f"import circles: {len(found.circles)}",
            *[f"  {' -> '.join(c + c[:1])}" for c in found.circles],
            "largest modules: " + ", ".join(f"{m.name.removeprefix(PACKAGE + '.')} {m.lines}" for m in largest),
            f"private names imported: {len(found.private_imports)}",
            f"domain modules importing render: {len(found.render_imports)}",
        ]
    )


# --- the tests -------------------------------------------------------------------------------------------------

FOUND = check()


def test_the_source_is_read():
    assert f"{PACKAGE}.cli" in FOUND.modules or f"{PACKAGE}.cli.main" in FOUND.modules
    assert len(FOUND.modules) > 40
    assert any(edge.target == f"{PACKAGE}.render.text" for edge in FOUND.edges)


def test_no_import_circle():
    assert not FOUND.circles, "\n".join(" -> ".join(c + c[:1]) for c in FOUND.circles)


def test_no_import_circle_even_through_type_only_imports():
    """contracts <-> games was one (games.make_game words titles with contracts.contract_name; game_title took a
    Game under TYPE_CHECKING): game_title now reads a TitledGame protocol."""
    circles = check(type_only_imports=True).circles
    assert not circles, "\n".join(" -> ".join(c + c[:1]) for c in circles)


def test_no_private_name_imported_across_modules():
    assert not FOUND.private_imports, "\n".join(FOUND.private_imports)


def test_domain_modules_never_import_render():
    assert not FOUND.render_imports, "\n".join(FOUND.render_imports)


def test_no_module_over_the_limit():
    assert not FOUND.long_modules, "\n".join(FOUND.long_modules)


def test_long_modules_allowed_still_exist_and_are_long():
    for name, lines in LONG_MODULES.items():
        assert name in FOUND.modules, f"{name} is allowed to be long but no longer exists: drop it from the list"
        assert FOUND.modules[name].lines > MAX_LINES, f"{name} is short now: drop it from LONG_MODULES"


def _write(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / PACKAGE
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_check_finds_what_it_should(tmp_path):
    root = _write(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from .b import thing\n",
            "b.py": "def f():\n    from sheepsolve import c\n",
            "e.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .f import F\n",
            "f.py": "from . import e\n",
            "c.py": "import sheepsolve.a\nfrom .render.text import _fmt\n",
            "d.py": "from . import render\n" + "x = 1\n" * MAX_LINES,
            "cli.py": "from .render import text\nfrom .a import _hidden\n",
            "render/__init__.py": "",
            "render/text.py": "from ..b import f\n",
        },
    )
    found = check(root)
    assert found.circles == [[f"{PACKAGE}.a", f"{PACKAGE}.b", f"{PACKAGE}.c"]]
    assert len(found.private_imports) == 2 and all("private name" in line for line in found.private_imports)
    assert [line.split()[-3] for line in found.render_imports] == [f"{PACKAGE}.c", f"{PACKAGE}.d"]
    assert found.long_modules == [f"too long: {PACKAGE}/d.py has {MAX_LINES + 1} lines (at most {MAX_LINES})"]
    typed = check(root, type_only_imports=True)  # e and f import each other, e only for the type checker
    assert typed.circles == [[f"{PACKAGE}.a", f"{PACKAGE}.b", f"{PACKAGE}.c"], [f"{PACKAGE}.e", f"{PACKAGE}.f"]]


def test_the_check_passes_a_clean_tree(tmp_path):
    root = _write(
        tmp_path,
        {"__init__.py": "from .a import f\n", "a.py": "def f():\n    from . import b\n", "b.py": "import os\n"},
    )
    found = check(root)
    assert not found.failures and not found.circles
    assert {(e.source, e.target) for e in found.edges} == {(PACKAGE, f"{PACKAGE}.a"), (f"{PACKAGE}.a", f"{PACKAGE}.b")}


MAP = SOURCE.parents[1] / "docs" / "ARCHITECTURE.md"


def section(text: str, heading: str) -> str:
    """The body of the map's section ``## heading``."""
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def modules_in_map(text: str) -> collections.Counter[str]:
    """The modules the map's "Every module in one line" names, as paths under ``src/sheepsolve``, each with the
    times it is named: a bullet that opens with a package (``- `record/`: ...``) names the modules inside it, any
    other bullet top-level ones; the prose between the bullets names none."""
    bullets: list[str] = []
    for line in section(text, "Every module in one line").splitlines():
        if line.startswith("- "):
            bullets.append(line[2:])
        elif line.startswith("  ") and bullets:
            bullets[-1] += " " + line.strip()
        else:
            bullets.append("")
    named: collections.Counter[str] = collections.Counter()
    for bullet in bullets:
        package = re.match(r"`(\w+)/`", bullet)
        prefix = package.group(1) + "/" if package else ""
        named.update(prefix + name for name in re.findall(r"`(\w+\.pyx?)`", bullet))
    return named


def core_files_in_map(text: str) -> collections.Counter[str]:
    """The files of ``core/`` that the table of "The compiled core" has a row for."""
    rows = re.findall(r"^\| `(\w+\.pxi)` \|", section(text, "The compiled core"), flags=re.M)
    return collections.Counter("core/" + name for name in rows)


def source_files(suffixes: tuple[str, ...]) -> set[str]:
    return {path.relative_to(SOURCE).as_posix() for suffix in suffixes for path in SOURCE.rglob(f"*{suffix}")
            if path.name != "__init__.py" and "__pycache__" not in path.parts}


def test_the_map_names_every_module_once():
    """docs/ARCHITECTURE.md's "Every module in one line" against the tree: no module missing, none stale (named
    but gone), none named twice."""
    named = modules_in_map(MAP.read_text(encoding="utf-8"))
    files = source_files((".py", ".pyx"))
    assert sorted(files - set(named)) == [], "modules the map does not name"
    assert sorted(set(named) - files) == [], "modules the map names that do not exist"
    assert [name for name, times in named.items() if times > 1] == [], "modules the map names twice"


def test_the_map_has_a_row_for_every_core_file():
    named = core_files_in_map(MAP.read_text(encoding="utf-8"))
    files = {name for name in source_files((".pxi",)) if name.startswith("core/")}
    assert set(named) == files and max(named.values()) == 1


def test_the_map_reader_finds_what_it_should():
    text = ("\n## Every module in one line\n\nProse naming `a.py` counts for nothing.\n\n"
            "- Top: `a.py` this; `b.pyx` that, and `record/` itself;\n  `c.py` continued.\n"
            "- `record/`: `model.py` the Record; `read.py`\n  reads; `model.py` again.\n"
            "- `d.py` (`pkg/` mentioned later is no package of the bullet).\n\n## Next\n- `e.py`\n")
    assert modules_in_map(text) == collections.Counter(
        {"a.py": 1, "b.pyx": 1, "c.py": 1, "record/model.py": 2, "record/read.py": 1, "d.py": 1})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, default=SOURCE, help="the package's folder (src/sheepsolve)")
    parser.add_argument("--summary", action="store_true", help="print the figures too")
    args = parser.parse_args(argv)
    found = check(args.source)
    if args.summary:
        print(summary(found))
    for line in found.failures:
        print(line)
    return 1 if found.failures else 0


if __name__ == "__main__":
    sys.exit(main())
