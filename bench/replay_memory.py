"""Replay memory: the peak memory of drawing one ``/seega record`` GIF, 130 and 400 turns.

Run: ``.venv/bin/python -m bench.replay_memory``. Prints figures; asserts nothing (the
test ``tests/render/test_replay_memory.py`` asserts a wide bound).

Each figure comes from a fresh process (``python -m bench.replay_memory --turns N``) so
that one replay's freed memory does not hide the next one's. Two figures per game:

- ``peak RSS``: the growth of the process's peak resident size (``ru_maxrss``) while
  drawing, after a warm-up replay has loaded the fonts and caches. This is the figure
  that matters: Pillow keeps its pixels in C memory, which ``tracemalloc`` cannot see.
- ``tracemalloc``: the peak of Python's own allocations while drawing (the byte strings,
  not the pictures), for comparison.

Measured (2 shared cores), 130 / 400 turns: every frame kept as RGBA and twice more
+246 / +540 MB; paletted frames given to Pillow's ``save`` (which keeps them all) +38 /
+84 MB; each frame written as the next is drawn +3 / +8 MB.

The game is a random legal 9x9 game with a fixed seed (``standard`` rules), stopped
after ``N`` turns.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import time
import tracemalloc

from bot.render.replay import render_replay
from engine import GameRecord, Position, Ruleset


def random_game(size: int, seed: int, turns: int) -> GameRecord:
    """A legal game played at random with a fixed seed, stopped after ``turns`` whole turns."""
    rng = random.Random(seed)
    pos = Position(Ruleset.make("standard", size))
    while not pos.is_over() and pos.turn <= turns:
        turn = pos.turn
        while pos.turn == turn and not pos.is_over():
            pos.push(rng.choice(pos.legal_actions()))
    return GameRecord.from_position(pos)


def peak_rss_mb() -> float:
    """The process's peak resident size so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(turns: int) -> str:
    """One line of figures for a replay of a ``turns``-turn game, in this process."""
    record = random_game(9, seed=1, turns=turns)
    render_replay(random_game(5, seed=3, turns=6), ("Amira", "Omar"))  # warm-up
    before = peak_rss_mb()
    tracemalloc.start()
    t0 = time.process_time()
    data = render_replay(record, ("Amira", "Omar"))
    seconds = time.process_time() - t0
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    grown = peak_rss_mb() - before
    return (
        f"{len(record.turns):>5} turns  peak RSS +{grown:6.0f} MB  tracemalloc peak {traced / 1e6:6.1f} MB  "
        f"GIF {len(data) / 1e6:.2f} MB  {seconds:.1f} s CPU"
    )


def main() -> None:
    """Print one line per game length, each measured in a fresh process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, help="measure one game of this many turns in this process")
    args = parser.parse_args()
    if args.turns:
        print(measure(args.turns))
        return
    for turns in (130, 400):
        run = subprocess.run(
            [sys.executable, "-m", "bench.replay_memory", "--turns", str(turns)],
            check=True,
            capture_output=True,
            text=True,
        )
        print(run.stdout.strip())


if __name__ == "__main__":
    main()
