"""The coach's figures: review time, puzzle verification time, hint latency.

* **review**: a 60-turn 5x5 game and a 150-turn 7x7 game (seeded self-play of the
  depth-limited levels, so the same games every run), each reviewed through the service
  (:class:`bot.service.coach_reviews.Reviews` on a real SQLite file) with one and with two
  AI worker processes (``parallel`` = workers), pictures included. Target: a 5x5 review
  within 20 s on a 2-core machine.
* **puzzles**: the cheap re-verification of every shipped puzzle
  (:func:`engine.coach.puzzles.check`), per puzzle: mean and worst, by board size.
* **hint**: the latency of a hint (one analysis in a worker process, submitted and
  awaited as the service does) on positions of seeded games: p50 and p95 (target p95
  under 1.5 s). Pictures are left out here (about 20 ms, see bench/render.py).

Run: ``nice -n 10 .venv/bin/python -m bench.coach [--skip-review] [--hints 40]``. Prints
figures; asserts nothing. The machine's other load shows in every number.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.clock import SystemClock
from bot.render import coach_pictures
from bot.service.coach_reviews import REVIEW_NODES, Reviews
from bot.service.coach_work import ExecutorWork
from bot.storage import GameUpdate, NewGame, Storage
from engine.ai import best_turn
from engine.coach.hints import advise
from engine.coach.puzzles import check, load_bank
from engine.position import Position
from engine.rules import Ruleset


def self_play(size: int, turns: int, seed: int) -> Position:
    """A seeded game of ``turns`` turns (medium vs easy), or shorter if it ends first."""
    pos = Position(Ruleset.make("standard", size))
    levels = ("medium", "easy")
    for i in range(turns):
        if pos.result is not None:
            break
        for action in best_turn(pos, levels[pos.side], None, seed * 1000 + i):
            pos.push(action)
    return pos


async def review_time(pos: Position, workers: int) -> tuple[float, int]:
    """Seconds to review ``pos``'s game through the service, and the turns reviewed."""
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "bench.db")
        try:
            spn = pos.spn()
            actions = " ".join(str(a) for a in pos.move_stack)
            row = await storage.insert_game(
                NewGame(1, 1, "standard", pos.size, "", 1, "Amira", None, 2, "Omar", None, spn, 0.0)
            )
            await storage.finish_game(GameUpdate(row.id, 0, actions, spn, 1.0, "finished", "1/2-1/2", "agreement", 1.0))
            with ProcessPoolExecutor(max_workers=workers) as pool:
                list(pool.map(abs, range(workers)))  # start the workers before timing
                reviews = Reviews(storage, SystemClock(), ExecutorWork(pool, workers), coach_pictures)
                start = time.perf_counter()
                result = await reviews.review(1, 1, row.id)
                return time.perf_counter() - start, len(result.review.turns)
        finally:
            await storage.close()


def puzzle_times() -> dict[int, list[float]]:
    """Seconds of the cheap check of every shipped puzzle, by board size."""
    times: dict[int, list[float]] = defaultdict(list)
    for puzzle in load_bank():
        start = time.perf_counter()
        check(puzzle)
        times[puzzle.size].append(time.perf_counter() - start)
    return times


def _timed_advise(spn_and_size: tuple[str, int]) -> float:
    spn, size = spn_and_size
    start = time.perf_counter()
    advise(Position.from_spn(spn, Ruleset.make("standard", size)))
    return time.perf_counter() - start


async def hint_latencies(count: int) -> list[float]:
    """Submit-to-answer seconds of ``count`` hints in a one-worker pool (5x5 and 7x7)."""
    positions: list[tuple[str, int]] = []
    for seed in range(count):
        size = 5 if seed % 2 == 0 else 7
        pos = self_play(size, 8 + (seed * 7) % (40 if size == 5 else 90), seed)
        if pos.result is None:
            positions.append((pos.spn(), size))
    loop = asyncio.get_running_loop()
    out = []
    with ProcessPoolExecutor(max_workers=1) as pool:
        await loop.run_in_executor(pool, abs, 1)
        for item in positions:
            start = time.perf_counter()
            await loop.run_in_executor(pool, _timed_advise, item)
            out.append(time.perf_counter() - start)
    return out


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-review", action="store_true")
    parser.add_argument("--hints", type=int, default=40)
    args = parser.parse_args()
    if not args.skip_review:
        for size, turns in ((5, 60), (7, 150)):
            pos = self_play(size, turns, seed=size)
            for workers in (1, 2):
                seconds, reviewed = await review_time(pos, workers)
                print(
                    f"review {size}x{size}, {reviewed} turns, {REVIEW_NODES} nodes/position, "
                    f"{workers} worker(s): {seconds:.1f} s",
                    flush=True,
                )
    times = puzzle_times()
    for size, values in sorted(times.items()):
        print(
            f"puzzle check {size}x{size}: {len(values)} puzzles, mean {statistics.mean(values) * 1000:.0f} ms, "
            f"worst {max(values) * 1000:.0f} ms, total {sum(values):.1f} s",
            flush=True,
        )
    lat = await hint_latencies(args.hints)
    print(
        f"hint latency ({len(lat)} positions, 5x5 and 7x7, one worker): p50 {_pct(lat, 0.5):.2f} s, "
        f"p95 {_pct(lat, 0.95):.2f} s, max {max(lat):.2f} s"
    )


if __name__ == "__main__":
    asyncio.run(main())
