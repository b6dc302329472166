"""Build (or remove) the optional compiled engine: mypyc, in place.

Usage (from the repository root; needs a C compiler and the Python headers)::

    .venv/bin/python -m bench.compile          # build: engine/**/*.so beside the sources
    .venv/bin/python -m bench.compile --clean  # back to pure Python

The modules are ``engine.compiled.MODULES``, compiled as one group whose shared library
is ``engine/_native__mypyc*.so``. Python then imports the compiled modules instead of
the ``.py`` files, so **rebuild after every change to those sources, or clean**: a
stale build runs the old code. ``python -m bench.search_speed`` prints which build ran.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compiled import GROUP, MODULES  # noqa: E402


def built_files() -> list[Path]:
    """The extension modules a build leaves in the package."""
    return sorted(p for p in (ROOT / "engine").rglob("*.so"))


def clean() -> int:
    """Remove every extension module from the package; return how many."""
    files = built_files()
    for path in files:
        path.unlink()
    return len(files)


def build() -> None:
    """Compile :data:`MODULES` in place (a fresh build: an old one is removed first)."""
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    sources = [str(ROOT / (name.replace(".", "/") + ".py")) for name in MODULES]
    with tempfile.TemporaryDirectory(prefix="seega-mypyc-") as tmp:
        os.chdir(ROOT)  # --inplace writes beside the sources, relative to here
        # setuptools reads the project's pyproject.toml here and warns that its
        # [tool.setuptools] table is "beta"; this build takes nothing from it.
        warnings.filterwarnings("ignore", message=".*tool.setuptools.*")
        setup(
            name="seega-compiled",
            ext_modules=mypycify(sources, group_name=GROUP, target_dir=str(Path(tmp) / "c"), opt_level="3"),
            script_args=["-q", "build_ext", "--inplace", "--build-temp", str(Path(tmp) / "o")],
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    if args.clean:
        print(f"removed {clean()} compiled files; the engine is pure Python")
        return
    start = time.perf_counter()
    try:
        build()
    except ImportError as exc:
        sys.exit(f"bench.compile needs mypy (with mypyc) and setuptools: pip install mypy setuptools ({exc})")
    except (Exception, SystemExit) as exc:  # a compiler error ends setup() with SystemExit
        # A half-built engine would be "partly compiled": leave the sources alone instead.
        clean()
        sys.exit(f"the compiled build failed, the engine stays pure Python: {exc}")
    print(f"compiled {len(MODULES)} modules in {time.perf_counter() - start:.0f} s: {len(built_files())} files")


if __name__ == "__main__":
    main()
