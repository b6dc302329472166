"""``engine/`` is pure: it imports nothing outside the standard library and itself, and in
particular no event loop, Discord, image or database module (ARCHITECTURE/STYLE rule 1)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
BANNED = {"asyncio", "discord", "PIL", "aiosqlite", "sqlite3"}
SOURCES = sorted(ENGINE.rglob("*.py"))


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_the_engine_sources_are_found() -> None:
    names = {p.relative_to(ENGINE).as_posix() for p in SOURCES}
    assert {"__init__.py", "position.py", "rules.py", "ai/__init__.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    for line, module in imported_modules(path):
        where = f"{path.relative_to(ROOT)}:{line} imports {module}"
        assert module not in BANNED, where
        assert module == "engine" or module in sys.stdlib_module_names, where


def test_importing_the_engine_loads_no_banned_module() -> None:
    code = (
        "import sys, engine, engine.ai, engine.cli, engine.summary\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(BANNED)!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
