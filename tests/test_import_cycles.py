"""No import loops in ``engine/`` or ``bot/``: not at module level, not inside functions,
not under ``TYPE_CHECKING``.

A loop hidden behind an import inside a function still ties the modules together (neither
can be understood, tested or moved without the other) and breaks as soon as someone
moves the import to the top. Every ``import`` statement anywhere in a file counts; an
import naming a submodule (``from bot.service import commands``) is an edge to that
submodule, anything else to the module named.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an import of ``name`` loads (its longest known prefix)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every project module ``module`` imports, wherever the statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name, modules)
                if target is not None:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            for alias in node.names:
                target = _resolve(f"{origin}.{alias.name}", modules) or _resolve(origin, modules)
                if target is not None:
                    found.add(target)
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_walk_sees_every_kind_of_import() -> None:
    graph = import_graph()
    assert {"engine", "engine.position", "bot.service.game_service", "bot.cogs.game"} <= set(graph)
    assert "bot.service.commands" in graph["bot.service.games"] or "bot.service.commands" in graph["bot.service.turns"]
    assert "bot.service.games" in graph["bot.service.turns"]  # module-level ``from x import y``


def test_the_cycle_finder_finds_loops_however_they_are_hidden(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from pkg import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import X\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    (pkg / "d.py").write_text("import pkg.c\n")
    modules: dict[str, Path] = {}
    for p in sorted(pkg.rglob("*.py")):
        parts = list(p.relative_to(tmp_path).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = p
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_loops(package: str) -> None:
    graph = import_graph()
    loops = [c for c in cycles(graph) if any(m == package or m.startswith(f"{package}.") for m in c)]
    described = [
        " <-> ".join(c) + "  (" + "; ".join(f"{m} -> {sorted(graph[m] & set(c))}" for m in c) + ")" for c in loops
    ]
    assert not loops, "import loops:\n" + "\n".join(described)
