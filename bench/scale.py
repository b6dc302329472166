"""Figures of issue 10: SQLite vs PostgreSQL, one vs two bot processes, one vs two AI workers.

Everything runs on this machine against a throw-away PostgreSQL server (tests/postgres.py,
durability off like the tests: fsync off, so the PostgreSQL figures leave out disk
flushes; SQLite runs with its defaults, synchronous=NORMAL) and temporary SQLite files.

* **storage**: ``--games`` games in progress in as many channels, played through the
  real service (load, check, compare-and-swap write); AI and renderer left out.
  Saturation (every game sends its next command as soon as the last is answered), then
  paced at ``--rate`` commands/s offered (players think): p50/p99 per command.
* **processes**: the saturation run on PostgreSQL with the games split over one, then
  two bot processes (each its own service and connection pool): total commands/s.
* **ai**: ``--jobs`` bot turns at a fixed time budget per action (``--movetime`` ms)
  enqueued at once (after the workers are up), drained by one, then two ``bot.ai_jobs``
  worker processes (one search process each): bot turns per second.

Run: ``.venv/bin/python -m bench.scale [--games 2000] [--commands 5] [--rate 500]
[--jobs 16] [--movetime 150] [--only storage,processes,ai]``. Prints figures; asserts
nothing. Keep it short on a shared machine: it runs for a minute or two at the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.service import _game, _start
from bot.ai_jobs import QueueAiRunner
from bot.ai_pool import ThreadAiRunner
from bot.service import GameService
from bot.storage import Storage
from engine.ai import TurnRequest
from tests.postgres import TempPostgres

ROOT = Path(__file__).resolve().parents[1]


async def play(
    db: str, games: int, commands: int, rate: float | None, first_channel: int = 1, seed: int = 1
) -> tuple[int, float, list[float]]:
    """Start ``games`` games and play them; (commands, seconds, latencies)."""
    storage = await Storage.open(db, checkpoint_interval=1.0, pool_size=20)
    service = GameService(storage, ThreadAiRunner(), None)
    try:
        channels = range(first_channel, first_channel + games)
        started = []
        for start in range(0, games, 500):  # start in slices: not 10,000 transactions at once
            started += await asyncio.gather(*(_start(service, c) for c in channels[start : start + 500]))
        rng = random.Random(seed)
        latencies: list[float] = []
        ends: list[float] = []
        think = games / rate if rate else 0.0
        t0 = time.perf_counter()
        counts = await asyncio.gather(
            *(
                _game(service, c, r, commands, random.Random(rng.random()), latencies, think, ends)
                for c, r in zip(channels, started, strict=True)
            )
        )
        return sum(counts), time.perf_counter() - t0, latencies
    finally:
        await storage.close()
        service.ai.close()


def _pcts(latencies: list[float]) -> str:
    q = statistics.quantiles(sorted(latencies), n=100)
    return f"p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms"


def bench_storage(pg: TempPostgres, games: int, commands: int, rate: float) -> None:
    print(f"== storage: {games} games in progress, {commands} commands each")
    for backend in ("sqlite", "postgresql"):
        for label, offered in (("saturation", None), ("paced", rate)):
            with tempfile.TemporaryDirectory() as tmp:
                db = str(Path(tmp) / "bench.db") if backend == "sqlite" else pg.create_database("bench")
                total, wall, lat = asyncio.run(play(db, games, commands, offered))
            extra = f" at {offered:.0f}/s offered" if offered else ""
            print(f"  {backend:10s} {label:10s} {total / wall:7.0f} commands/s{extra}; {_pcts(lat)}", flush=True)


def _process_part(url: str, games: int, commands: int, first: int, out: multiprocessing.Queue[object]) -> None:
    total, wall, _ = asyncio.run(play(url, games, commands, None, first_channel=first, seed=first))
    out.put((total, wall))


def bench_processes(pg: TempPostgres, games: int, commands: int) -> None:
    print(f"== bot processes on PostgreSQL: {games} games split over the processes, saturation")
    ctx = multiprocessing.get_context("spawn")
    for n in (1, 2):
        url = pg.create_database("procs")
        out: multiprocessing.Queue[object] = ctx.Queue()
        share = games // n
        procs = [ctx.Process(target=_process_part, args=(url, share, commands, 1 + i * share, out)) for i in range(n)]
        for p in procs:
            p.start()
        results = [out.get(timeout=600) for _ in procs]
        for p in procs:
            p.join()
        total = sum(int(r[0]) for r in results)  # type: ignore[index]
        wall = max(float(r[1]) for r in results)  # type: ignore[index]
        print(f"  {n} process(es): {total / wall:7.0f} commands/s", flush=True)


async def _drain(url: str, jobs: int, movetime: int, workers: int) -> float:
    runner = await QueueAiRunner(url, timeout=600).start()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = []
    try:
        procs = [
            subprocess.Popen([sys.executable, "-m", "bot.ai_jobs", url], env=env, cwd=ROOT, start_new_session=True)
            for _ in range(workers)
        ]
        warm = [TurnRequest("standard", 5, level="easy", seed=-1 - i) for i in range(workers * 2)]
        await asyncio.gather(*(runner.choose_turn(r) for r in warm))  # workers up and their pools started
        requests = [TurnRequest("standard", 7, level="hard", movetime_ms=movetime, seed=s) for s in range(jobs)]
        t0 = time.perf_counter()
        await asyncio.gather(*(runner.choose_turn(r) for r in requests))
        return time.perf_counter() - t0
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=30)
        await runner.aclose()


def bench_ai(pg: TempPostgres, jobs: int, movetime: int) -> None:
    print(f"== AI workers: {jobs} bot turns (7x7 opening, hard, {movetime} ms per action)")
    for workers in (1, 2):
        wall = asyncio.run(_drain(pg.create_database("ai"), jobs, movetime, workers))
        print(f"  {workers} worker(s): {jobs / wall:.2f} bot turns/s ({wall:.1f} s)", flush=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--commands", type=int, default=5, help="commands per game")
    parser.add_argument("--rate", type=float, default=500.0, help="commands/s offered in the paced run")
    parser.add_argument("--jobs", type=int, default=16)
    parser.add_argument("--movetime", type=int, default=150, help="AI milliseconds per action")
    parser.add_argument("--only", default="storage,processes,ai")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    # SIGTERM (a timeout, a kill) unwinds like Ctrl-C, so the PostgreSQL server is stopped.
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"machine: {os.cpu_count()} cores (shared), python {sys.version.split()[0]}")
    with TempPostgres() as pg:
        if "storage" in parts:
            bench_storage(pg, args.games, args.commands, args.rate)
        if "processes" in parts:
            bench_processes(pg, args.games, args.commands)
        if "ai" in parts:
            bench_ai(pg, args.jobs, args.movetime)


if __name__ == "__main__":
    main()
