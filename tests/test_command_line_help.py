"""Every command line of the project prints its usage on ``--help``/``-h`` (exit 0) and
its usage on an unknown command or flag (issue 12), and creates nothing while doing so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__")
COMMANDS = ["engine", "bot", "bot.console", *(f"bench.{name}" for name in BENCHES)]


def run(tmp_path: Path, module: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "SEEGA_DB")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_benches_are_found() -> None:
    assert {"engine", "ai"} <= set(BENCHES)


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("module", COMMANDS)
def test_help_prints_usage_and_exits_0(tmp_path: Path, module: str, flag: str) -> None:
    done = run(tmp_path, module, flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.lower().startswith("usage:"), done.stdout[:200]
    assert list(tmp_path.iterdir()) == []  # e.g. no database file named "--help"


@pytest.mark.parametrize("module", COMMANDS)
def test_an_unknown_flag_prints_the_usage_and_exits_2(tmp_path: Path, module: str) -> None:
    done = run(tmp_path, module, "--no-such-flag")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "usage" in done.stderr.lower() or "--help" in done.stderr
    assert list(tmp_path.iterdir()) == []
