"""Service throughput: many games in many channels played at once through the game service.

1,000 games between people in 1,000 channels share one SQLite file (WAL); every command
(a placement pair, a step, a chain's end) goes through :class:`bot.service.GameService`
exactly as an adapter would call it: load (cached), check, compare-and-swap write. The AI
and the renderer are left out, so the figures are the service and storage alone.

Two runs, on fresh databases:

* **saturation**: every game sends its next command as soon as the last one is answered
  (1,000 commands always in flight): the most commands per second the service can do.
  Latency here is mostly waiting in line behind the other 999 games.
* **paced**: the same 1,000 games, but players think (exponential pauses) so that the
  whole server receives ``--rate`` commands per second (default 500): the latency a
  player sees on a busy server.

Run: ``.venv/bin/python -m bench.service [--games 1000] [--commands 40] [--rate 500]``.
Prints commands per second and latency percentiles; asserts nothing. Every database call
hops to aiosqlite's thread and back; ``--switch-interval 0.0005`` shows how much of the
tail is the thread waiting for the GIL (Python's default interval is 5 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.ai_pool import ThreadAiRunner
from bot.results import Player, TurnResult
from bot.service import GameService
from bot.storage import Storage


async def _start(service: GameService, channel: int) -> TurnResult:
    a, b = Player(2 * channel, f"P{2 * channel}"), Player(2 * channel + 1, f"P{2 * channel + 1}")
    ch = await service.challenge(1, channel, a, b, 5, "standard", "black")
    return await service.accept_challenge(ch.challenge.id, b.user_id)


async def _game(
    service: GameService,
    channel: int,
    result: TurnResult,
    commands: int,
    rng: random.Random,
    latencies: list[float],
    think: float,
    finished_at: list[float],
) -> int:
    if think:
        await asyncio.sleep(rng.uniform(0, think))  # players do not all start at the same instant
    done = 0
    while done < commands and result.game_over is None and result.to_move is not None:
        user = result.to_move.user_id
        legal = list(result.legal)
        action = rng.choice(legal)
        t0 = time.perf_counter()
        if result.game.phase == "p" and "-" not in action and not action.startswith("x"):
            others = [c for c in legal if c != action]
            second = rng.choice(others) if others and result.game.hand[0 if result.game.turn % 2 else 1] > 1 else None
            result = await service.place(channel, user, action, second)
        elif action in ("end", "pass"):
            result = await service.end_turn(channel, user)
        elif action.startswith("x"):
            result = await service.remove(channel, user, action[1:])
        else:
            result = await service.move(channel, user, action)
        now = time.perf_counter()
        latencies.append(now - t0)
        finished_at.append(now)
        done += 1
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think if think else 0)
    return done


async def run(
    label: str,
    games: int,
    commands: int,
    db: Path,
    synchronous: str,
    seed: int,
    rate: float | None,
    checkpoint_interval: float | None = 1.0,
) -> None:
    """Play the games on a fresh database and print the figures."""
    storage = await Storage.open(db, synchronous=synchronous, checkpoint_interval=checkpoint_interval)
    service = GameService(storage, ThreadAiRunner(), None)
    rng = random.Random(seed)
    latencies: list[float] = []
    finished_at: list[float] = []
    think = games / rate if rate else 0.0
    t0 = time.perf_counter()
    started = await asyncio.gather(*(_start(service, c) for c in range(1, games + 1)))
    start_wall = time.perf_counter() - t0
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    counts = await asyncio.gather(
        *(
            _game(service, c, started[c - 1], commands, random.Random(rng.random()), latencies, think, finished_at)
            for c in range(1, games + 1)
        )
    )
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    total = sum(counts)
    finished = len(await storage.all_games("finished"))
    await storage.close()
    service.ai.close()
    lat = sorted(latencies)
    q = statistics.quantiles(lat, n=100)
    print(
        f"[{label}] {games} games in {games} channels, one SQLite file (synchronous={synchronous}), "
        f"{finished} finished; starting them (challenge + accept) took {start_wall:.2f} s"
    )
    ends = sorted(finished_at)
    lo, hi = ends[len(ends) // 10], ends[len(ends) * 9 // 10]
    steady = (len(ends) * 8 // 10) / (hi - lo) if hi > lo else float("nan")
    print(
        f"  {total} commands in {wall:.2f} s = {total / wall:.0f} commands/s overall, {steady:.0f} commands/s"
        " in the middle 80% of the run" + (f" (offered: {rate:.0f}/s)" if rate else " (as fast as possible)")
    )
    print(
        f"  CPU: {cpu:.2f} s of this process = {cpu / total * 1000:.2f} ms per command "
        f"(at most {total / cpu:.0f} commands per CPU-second, whatever else the machine is doing)"
    )
    print(
        f"  latency per command: p50 {q[49] * 1000:.2f} ms, p90 {q[89] * 1000:.2f} ms, "
        f"p99 {q[98] * 1000:.2f} ms, max {lat[-1] * 1000:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=40, help="commands per game at most")
    parser.add_argument("--db", type=Path, default=None, help="database file (default: a temporary one)")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="NORMAL")
    parser.add_argument("--rate", type=float, default=500.0, help="commands per second offered in the paced run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--checkpoint-interval",
        type=float,
        default=1.0,
        help="seconds between background WAL checkpoints; 0 for SQLite's automatic ones",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval(S) first: how soon the database thread gets the GIL back",
    )
    args = parser.parse_args()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
        print(f"GIL switch interval: {args.switch_interval * 1000:g} ms")
    print("A command is what one slash command does: a placement pair, a step, or ending a chain.")
    for label, rate in (("saturation", None), ("paced", args.rate)):
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or Path(tmp) / "bench.db"
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{db}{suffix}").exists():
                    os.remove(f"{db}{suffix}")
            asyncio.run(
                run(
                    label,
                    args.games,
                    args.commands,
                    db,
                    args.synchronous,
                    args.seed,
                    rate,
                    args.checkpoint_interval or None,
                )
            )


if __name__ == "__main__":
    main()
