"""The layers of docs/architecture.md, enforced on the package's imports.

The page's table is the rule: for each part of the package, the parts and
the third-party libraries it may import. Every import statement of every
module (lazy ones inside functions and TYPE_CHECKING ones included) is read
from the source and held to it, so the page and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from .conftest import DOCS, REPO

PACKAGE = REPO / "src" / "muggins_cli"


def _table() -> dict[str, tuple[set[str], set[str]]]:
    """part -> (parts it may import, third-party packages it may import)."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \| [^|]+ \| ([^|]+) \| ([^|]+) \|$", text, re.MULTILINE)
    parts = {name for name, _, _ in rows}
    table: dict[str, tuple[set[str], set[str]]] = {}
    for name, inner, outer in rows:
        allowed = parts - {name} if inner.strip() == "everything above" else \
            set(re.findall(r"`([a-z_]+)`", inner))
        table[name] = (allowed, set(re.findall(r"`([a-z0-9_]+)`", outer)))
    return table


TABLE = _table()


def _part(module: Path) -> str:
    rel = module.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or
                  p.parent != PACKAGE)


def _imports(module: Path) -> set[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_part_takes_the_public_names_from_the_package_itself() -> None:
    """``muggins_cli.check_file`` is for the package's users: a part of the
    package that took it from there would hide which layer it imports."""
    import muggins_cli

    public = set(muggins_cli.__all__) - {"__version__"}
    wrong = []
    for module in _modules():
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "muggins_cli":
                wrong += [f"{module.name}: {a.name}" for a in node.names if a.name in public]
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "muggins_cli" and node.attr in public):
                wrong.append(f"{module.name}: {node.attr}")
    assert wrong == []


def test_the_table_covers_every_part_of_the_package() -> None:
    parts = {_part(m) for m in _modules()}
    assert parts == set(TABLE), (sorted(parts - set(TABLE)), sorted(set(TABLE) - parts))


@pytest.mark.parametrize("module", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_imports_only_what_its_layer_may(module: Path) -> None:
    part = _part(module)
    inner, outer = TABLE[part]
    wrong = []
    for name in sorted(_imports(module)):
        top = name.split(".")[0]
        if name == "muggins_cli":
            continue  # the package itself: its __init__ holds only the version
        if top == "muggins_cli":
            other = name.split(".")[1]
            if other != part and other not in inner:
                wrong.append(name)
        elif top not in sys.stdlib_module_names and top != "__future__" and top not in outer:
            wrong.append(name)
    assert wrong == [], f"{part} may not import {wrong} (docs/architecture.md)"


#: How large a module of the engine or the replay may grow, and a function
#: in one: past these a reader can no longer hold one in mind, and the
#: replay became a 1,600-line module with a 1,100-line class that way.
MODULE_LINES = 600
FUNCTION_LINES = 60


@pytest.mark.parametrize("module", [m for m in _modules() if _part(m) in ("engine", "replay")],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_engine_and_replay_modules_and_functions_stay_small(module: Path) -> None:
    text = module.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MODULE_LINES, f"{module.name} is over {MODULE_LINES} lines"
    long = [(node.name, node.end_lineno - node.lineno + 1)
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > FUNCTION_LINES]
    assert long == [], f"functions over {FUNCTION_LINES} lines: {long}"


def _package_imports(module: Path, names: set[str]) -> set[str]:
    """The modules of the package (``names``) that ``module`` imports, as
    dotted names: ``from muggins_cli.engine import turn`` imports the module
    ``engine.turn``; a package a module lies in is not counted (Python runs
    its ``__init__`` first, whoever imports what)."""
    own = ".".join(module.relative_to(PACKAGE.parent).with_suffix("").parts)
    found = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & names
            found |= subs or {node.module}
    return {n for n in found if n in names and not own.startswith(n + ".")}


def test_no_module_of_the_package_imports_itself_back() -> None:
    """Imports are one-way: no module reaches itself through the modules it
    imports (a circle such as layout -> table -> layout)."""
    names = {".".join(m.relative_to(PACKAGE.parent).with_suffix("").parts): m
             for m in _modules()}
    names = {n.removesuffix(".__init__"): m for n, m in names.items()}
    graph = {n: _package_imports(m, set(names)) - {n} for n, m in names.items()}
    circles = []
    for start in sorted(graph):
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            n = todo.pop()
            if n == start:
                circles.append(start)
                break
            if n not in seen:
                seen.add(n)
                todo.extend(graph[n])
    assert circles == [], f"modules in an import circle: {circles}"


#: A reference to a tracker's ticket (the word, then a number, with or
#: without a hash): a reader of the code cannot see the tracker, so a
#: comment says the reason itself.
TICKET = re.compile(r"\bissue\s*#?\d", re.IGNORECASE)


@pytest.mark.parametrize("folder", ["src", "tests", "bench", "tools"])
def test_no_comment_or_docstring_names_a_ticket(folder: str) -> None:
    found = [f"{path.relative_to(REPO)}:{n}: {line.strip()}"
             for path in sorted((REPO / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if TICKET.search(line)]
    assert found == []


# --- sizes a newcomer can read in one sitting -------------------------------

#: The parts whose modules stay under :data:`MODULE_LINES` lines.
SIZED_PARTS = ("engine", "replay", "solver", "analysis", "report")
#: A function's body (its statements after the docstring) at most this many
#: lines; the compiled kernel's search loops, which Numba needs inline, at
#: most :data:`KERNEL_BODY_LINES`.
BODY_LINES = 60
KERNEL_BODY_LINES = 150

def _rel(module: Path) -> str:
    return module.relative_to(PACKAGE).as_posix()


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The lines from the first statement after the docstring to the end."""
    body = node.body
    first = body[1] if (len(body) > 1 and isinstance(body[0], ast.Expr)
                        and isinstance(body[0].value, ast.Constant)
                        and isinstance(body[0].value.value, str)) else body[0]
    assert node.end_lineno is not None
    return node.end_lineno - first.lineno + 1


def _long_bodies() -> dict[str, int]:
    found = {}
    for module in _modules():
        most = KERNEL_BODY_LINES if module.match("solver/kernel*.py") else BODY_LINES
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = _body_lines(node)
                if lines > most:
                    found[f"{_rel(module)}:{node.name}"] = lines
    return found


def _long_modules() -> dict[str, int]:
    sized = [m for m in _modules() if _part(m) in SIZED_PARTS]
    lines = {_rel(m): len(m.read_text(encoding="utf-8").splitlines()) for m in sized}
    return {name: n for name, n in lines.items() if n > MODULE_LINES}


def _class_names_twice() -> dict[str, list[str]]:
    where: dict[str, list[str]] = {}
    for module in _modules():
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(_rel(module))
    return {name: places for name, places in where.items() if len(places) > 1}


def test_no_function_body_is_too_long_to_read_in_one_sitting() -> None:
    long = _long_bodies()
    assert long == {}, (f"function bodies over {BODY_LINES} lines ({KERNEL_BODY_LINES} in "
                        f"solver/kernel*.py): {long}")


def test_no_module_of_the_core_parts_is_too_long() -> None:
    long = _long_modules()
    assert long == {}, f"modules of {SIZED_PARTS} over {MODULE_LINES} lines: {long}"


def test_no_class_name_is_defined_twice() -> None:
    """Two classes of one name (the notation's ``Draw`` and the engine's)
    make every import a guess at which one a reader is looking at."""
    twice = _class_names_twice()
    assert twice == {}, f"class names defined in more than one module: {twice}"
