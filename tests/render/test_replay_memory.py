"""A replay's memory: frames are kept paletted, one byte a pixel, never all as RGBA.

Outside review (finding 1): each ``/seega record`` kept every frame as a full RGBA
picture, then a paletted copy, then a copy with the unchanged pixels cleared, all at
once: a 130-turn game grew the process by about 250-280 MB, a 400-turn one by about
550-590 MB, and two replays drawn at once (``REPLAYS_AT_ONCE``) twice that.

Pillow keeps pixels in C memory, which ``tracemalloc`` does not see, so the peak is the
growth of the resident size (``ru_maxrss``) of a fresh process, after a warm-up replay
has loaded fonts and caches. Each bound is under half the old figure: a wide margin.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import resource, sys
from bot.render.replay import render_replay
from tests.render.test_replay import random_game

turns = int(sys.argv[1])
record = random_game("standard", 9, seed=1, max_turns=turns)
assert len(record.turns) >= turns, len(record.turns)
render_replay(random_game("standard", 5, seed=3, max_turns=6))  # warm-up: fonts, caches
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
render_replay(record, ("Amira", "Omar"))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
"""


@pytest.mark.parametrize(
    ("turns", "most_mb"),
    [
        # 246 MB when every frame was kept as RGBA and twice more.
        (130, 120),
        # 540 MB then; 84 MB with paletted frames handed to Pillow's save(), which
        # keeps them all until it writes the file; about 8 MB written as they come.
        (400, 40),
    ],
)
def test_a_replay_grows_the_process_by_under_half_the_old_peak(turns: int, most_mb: float) -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(turns)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    grown = float(run.stdout.strip())
    assert grown < most_mb, f"drawing a {turns}-turn replay grew the process by {grown:.0f} MB"
