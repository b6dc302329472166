"""The optional compiled build: which modules it compiles and whether it is in use.

The engine is pure Python and stays so: the README's commands never need a C compiler.
Where one is present, ``bench/compile.py`` compiles the modules below with mypyc (the
engine is ``mypy --strict``, which is what mypyc needs) into extension modules beside
their sources. Python imports an extension module before a source file of the same name,
so the same code then runs about 2.4 times as fast (docs/ai.md, "Compiled build"), with
the same search tree: the node counts of ``bench.search_speed`` do not change.

Only the hot path is compiled: the position and its moves, the search and what it calls.
``rules.py``, ``actions.py`` and ``levels.py`` stay interpreted because their frozen
dataclasses must stay copyable and picklable (positions and levels cross to the AI
worker processes), and what runs once per command gains nothing.
"""

from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

#: The modules the compiled build compiles, in one mypyc group (so calls between them
#: are native calls).
MODULES: Final = (
    "engine.board",
    "engine.position",
    "engine.ai.endgame",
    "engine.ai.evaluate",
    "engine.ai.leaves",
    "engine.ai.ordering",
    "engine.ai.placement",
    "engine.ai.placement_model",
    "engine.ai.progress",
    "engine.ai.repetition",
    "engine.ai.search",
    "engine.ai.tactics",
    "engine.ai.timecontrol",
    "engine.ai.zobrist",
)

#: The name of the shared library that holds the group's code (inside the package, so
#: an installed engine needs nothing at the top level).
GROUP: Final = "engine._native"


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` that this process runs compiled (imports them)."""
    out = []
    for name in MODULES:
        path = getattr(importlib.import_module(name), "__file__", "") or ""
        if not path.endswith(".py"):
            out.append(name)
    return out


def module_files(name: str) -> tuple[str, list[str]]:
    """A module's source path and the compiled files beside it (none for the sources).

    Found from the package's folder: a compiled module's own ``__file__`` and spec name
    a folder that does not exist (``engine/engine/...``).
    """
    base = os.path.dirname(os.path.abspath(importlib.import_module("engine").__file__ or ""))
    stem = os.path.join(base, *name.split(".")[1:])
    return stem + ".py", [stem + suffix for suffix in EXTENSION_SUFFIXES if os.path.exists(stem + suffix)]


def stale_modules() -> list[str]:
    """The modules whose compiled file is older than their source.

    Python imports the compiled file whatever the source says, so after an upgrade
    (``git pull``) without a rebuild the old code would run. Checked by the files'
    modification times.
    """
    out = []
    for name in MODULES:
        source, built = module_files(name)
        if built and os.path.exists(source) and os.stat(source).st_mtime > min(os.stat(f).st_mtime for f in built):
            out.append(name)
    return out


def build_name() -> str:
    """``"compiled"``, ``"pure Python"``, or a warning: ``"partly compiled"`` (a broken
    build) or ``"compiled, but older than its sources"`` (rebuild or clean)."""
    done = len(compiled_modules())
    if done == 0:
        return "pure Python"
    if done != len(MODULES):
        return "partly compiled: rebuild (python -m bench.compile) or remove it (--clean)"
    if stale_modules():
        return "compiled, but older than its sources: rebuild (python -m bench.compile) or remove it (--clean)"
    return "compiled"
