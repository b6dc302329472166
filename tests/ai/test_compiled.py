"""The optional compiled build (``engine.compiled``, ``bench/compile.py``) is the same
engine: it finds its data, it is whole, and it searches the very tree the sources do.

CI runs these (with the engine's other tests) twice: on the sources, and on a fresh
compiled build with ``SEEGA_EXPECT_COMPILED=1`` so that a build that silently fell back
to the sources fails here instead of passing as "compiled".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from engine.ai.endgame import DATA_DIR
from engine.ai.evaluate import WEIGHTS_PATH
from engine.ai.placement_model import MODEL_FILE
from engine.compiled import MODULES, build_name, compiled_modules, module_files, stale_modules

#: Positions from ``bench.search_speed`` at a smaller depth: a movement middle game, the
#: ludii preset (endgame tables reachable), 7x7, placement (the learned model), and the
#: end of a ludii placement (the filled-board table at the leaves).
CASES = (
    ("standard", 5, "bbbwb/ww1ww/ww2b/b1b1w/bwwbb w m 0/0 - 1 17", 8),
    ("ludii", 5, "bw1ww/bb1bb/3bb/1bb2/1b2b w m 0/0 - 0 40", 8),
    ("standard", 7, "w1ww1wb/bw1w1wb/bww1wwb/3bw1w/1bbw1ww/2bwwbb/bb1bb1b b m 0/0 - 3 56", 5),
    ("standard", 5, "2w1w/w1b2/bb1bb/2w2/4b w p 6/8 - 0 6", 6),
    ("ludii", 5, "2wb1/1bwb1/ww1ww/bbbww/b1bbb w p 2/4 - 0 10", 8),
)

SEARCH = """
import json, sys
from engine import Position, Ruleset
from engine.ai.levels import get_level
from engine.ai.player import make_searcher
from engine.ai.search import Limits
import engine
from engine.compiled import build_name
out = []
for variant, size, spn, depth in json.loads(sys.argv[1]):
    rules = Ruleset.make(variant, size)
    r = make_searcher(rules, get_level("hard")).search(Position.from_spn(spn, rules), Limits(max_depth=depth))
    out.append([r.best, r.score, r.nodes])
print(json.dumps({"build": build_name(), "package": engine.__file__, "results": out}))
"""


def _search_in(folder: Path) -> dict[str, object]:
    """``SEARCH`` run in another process on the ``engine`` package inside ``folder``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [sys.executable, "-c", SEARCH, json.dumps(CASES)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result: dict[str, object] = json.loads(proc.stdout)
    assert Path(str(result["package"])).parent == folder / "engine"
    return result


def test_the_build_is_whole_and_what_ci_asked_for() -> None:
    assert build_name() in ("compiled", "pure Python"), compiled_modules()
    if os.environ.get("SEEGA_EXPECT_COMPILED") == "1":
        assert compiled_modules() == list(MODULES)


def test_a_source_changed_after_the_build_is_reported() -> None:
    """After ``git pull`` without a rebuild the compiled file still runs: say so."""
    assert stale_modules() == []
    if not compiled_modules():
        return  # the sources run: nothing can be stale (the line above checked it)
    path, built = module_files("engine.ai.search")
    source = Path(path)
    assert source.name == "search.py" and source.parent.name == "ai" and built
    before = source.stat()
    try:
        edited = max(os.stat(f).st_mtime for f in built) + 60  # as if edited after the build
        os.utime(source, (before.st_atime, edited))
        assert stale_modules() == ["engine.ai.search"]
        assert build_name().startswith("compiled, but older than its sources")
    finally:
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert build_name() == "compiled"


def test_the_data_files_are_found_in_either_build() -> None:
    """A compiled module's ``__file__`` is not beside its source: the weights, the model
    and the endgame tables were looked for in a folder that does not exist."""
    assert WEIGHTS_PATH.is_file() and json.loads(WEIGHTS_PATH.read_text())["movement"]
    assert MODEL_FILE.is_file() and "standard/5" in json.loads(MODEL_FILE.read_text())
    assert any(DATA_DIR.glob("seega5-ludii-*.xz"))


def test_the_search_tree_is_the_sources_tree(tmp_path: Path) -> None:
    """The same best action, score and node count as the interpreted sources (a copy of
    the package without any compiled file), each searched in a process of its own."""
    package = Path(__import__("engine").__file__).parent
    shutil.copytree(package, tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    sources = _search_in(tmp_path)
    assert sources["build"] == "pure Python"
    this_build = _search_in(package.parent)
    assert this_build["build"] == build_name()
    assert this_build["results"] == sources["results"]


def test_a_failed_build_leaves_the_sources_running(tmp_path: Path) -> None:
    """No C compiler (here: one that does not exist): a clear message, a failure status,
    and no half-built engine left to import ("partly compiled")."""
    root = Path(__import__("engine").__file__).parents[1]
    skip = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    for folder in ("engine", "bench"):
        shutil.copytree(root / folder, tmp_path / folder, ignore=skip)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"CC": str(tmp_path / "no-such-cc")}
    proc = subprocess.run(
        [sys.executable, "-m", "bench.compile"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 1
    assert "the compiled build failed, the engine stays pure Python" in proc.stderr
    assert "no-such-cc" in proc.stderr
    assert not list((tmp_path / "engine").rglob("*.so"))
