"""Benchmark: 50 games in play over the loopback Discord while one member attacks with hostile text.

The attacker (a member of the guild, not a moderator, not a player) sends autocomplete
requests and slash commands whose text options hold the strings of
``tests/hostile_text.py`` (long runs of separators, digits and near-miss cells, up to
Discord's 6,000 characters per option), each as soon as the previous answer arrived, on
``--attackers`` parallel streams. Meanwhile the normal players' ``/move`` commands arrive
at ``--rate`` per second across ``--games`` games. Printed, never asserted:

* the normal players' turn latency (gateway INTERACTION_CREATE to the answer with its
  board image), p50 / p95, with and without the attacker;
* the event loop's longest stall: a watchdog sleeps 5 ms in a loop and records how late
  it wakes (the loop is shared by the bot and the fake Discord, as in every Discord test);
* how many hostile requests the bot answered, and how fast.

    .venv/bin/python -m bench.hostile [--games 50] [--seconds 20] [--rate 10] [--attackers 2]

Targets (issue 9): turn p95 under 100 ms, longest stall under 50 ms, attacker running.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, Python puts bench/ first on the path, where bench/engine.py would
# shadow the engine package: put the project root there instead.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench.bot import Table, setup_tables  # noqa: E402
from engine import Position, Ruleset  # noqa: E402
from tests.discord.fake_discord import OPTION_LIMIT, FakeDiscord  # noqa: E402
from tests.discord.harness import TOKEN, make_settings, start_bot, stop_bot  # noqa: E402
from tests.hostile_text import hostile_strings  # noqa: E402


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """(p50, p95, max) of ``samples``."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


class StallWatch:
    """Sleeps ``interval`` s in a loop on the event loop; the worst lateness is the longest stall.

    It also times the garbage collector's passes (``gc.callbacks``): a full (generation 2)
    collection stops the event loop like any other long step, and is the usual cause of
    the longest stalls here.
    """

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.worst = 0.0
        self.lates: list[float] = []
        self.gc_worst = 0.0
        self._gc_started = 0.0
        self._task: asyncio.Task[None] | None = None

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_worst = max(self.gc_worst, time.perf_counter() - self._gc_started)

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(self.interval)
            late = time.perf_counter() - t0 - self.interval
            self.lates.append(late)
            self.worst = max(self.worst, late)

    def start(self) -> None:
        self.worst, self.lates, self.gc_worst = 0.0, [], 0.0
        gc.callbacks.append(self._gc)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        gc.callbacks.remove(self._gc)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


async def normal_move(fake: FakeDiscord, service: Any, channel: int, rng: random.Random) -> float | None:
    """One ``/move`` by whoever is to move in ``channel``'s game, chosen from the stored
    position (a quiet step if possible, so games last); its latency in ms, or ``None``."""
    game = await service.game(channel)
    if game is None or game.to_move is None or game.to_move.is_bot:
        return None
    pos = Position.from_spn(game.spn, Ruleset.make(game.variant, game.size))
    steps = [a for a in pos.legal_actions() if a.kind == "step"]
    if not steps:
        return None
    enemy = 1 - pos.side
    quiet = []
    for step in steps:
        before = pos.bb[enemy]
        pos.push(step)
        if pos.bb[enemy] == before and not pos.is_over():
            quiet.append(step)
        pos.pop()
    frm, to = str(rng.choice(quiet or steps)).split("-")
    inter = await fake.slash(game.to_move.user_id, "move", {"from": frm, "to": to}, channel_id=channel)
    if inter.reply.ephemeral:  # refused (a shuttle rule the SPN alone does not show): not a turn
        return None
    return (inter.callback_at - inter.sent_at) * 1000


async def steady_rate(
    fake: FakeDiscord, service: Any, tables: list[Table], moves: int, rate: float, rng: random.Random
) -> list[float]:
    """Moves arrive every 1/rate s on random tables (never two at once on one table)."""
    out: list[float] = []
    busy: set[int] = set()
    tasks = []

    async def run(channel: int) -> None:
        try:
            ms = await normal_move(fake, service, channel, rng)
            if ms is not None:
                out.append(ms)
        finally:
            busy.discard(channel)

    for _ in range(moves):
        free = [t.channel for t in tables if t.channel not in busy]
        if free:
            channel = rng.choice(free)
            busy.add(channel)
            tasks.append(asyncio.create_task(run(channel)))
        await asyncio.sleep(rng.expovariate(rate))
    await asyncio.gather(*tasks)
    return out


def attack_requests(fake: FakeDiscord, attacker: int, channels: list[int]) -> list[Callable[[], Awaitable[Any]]]:
    """Every hostile request the attacker cycles through (each a call that waits for the answer)."""
    texts = [t for t in hostile_strings(OPTION_LIMIT - 10) if len(t) <= OPTION_LIMIT]
    calls: list[Callable[[], Awaitable[Any]]] = []
    for text, channel in zip(texts, itertools.cycle(channels), strict=False):

        def requests(text: str = text, channel: int = channel) -> list[Callable[[], Awaitable[Any]]]:
            return [
                lambda: fake.autocomplete(attacker, "move", {"from": text}, "from", channel_id=channel),
                lambda: fake.autocomplete(attacker, "move", {"from": text, "to": ""}, "to", channel_id=channel),
                lambda: fake.autocomplete(attacker, "place", {"first": text}, "first", channel_id=channel),
                lambda: fake.slash(attacker, "move", {"from": text}, channel_id=channel),
                lambda: fake.slash(attacker, "place", {"first": text}, channel_id=channel),
                lambda: fake.slash(attacker, "seega settings", {"turn_timeout": text}, channel_id=channel),
                lambda: fake.slash(attacker, "seega stats", {}, channel_id=channel),
            ]

        calls.extend(requests())
    return calls


async def attack(calls: list[Callable[[], Awaitable[Any]]], stop: asyncio.Event, answered: list[float]) -> None:
    """Send the hostile requests one after another, each as soon as the last was answered."""
    for call in itertools.cycle(calls):
        if stop.is_set():
            return
        t0 = time.perf_counter()
        await call()
        answered.append((time.perf_counter() - t0) * 1000)


async def phase(
    fake: FakeDiscord,
    bot: Any,
    tables: list[Table],
    args: argparse.Namespace,
    calls: list[Callable[[], Awaitable[Any]]] | None,
    rng: random.Random,
) -> None:
    """One measured run: normal moves at ``args.rate``/s for ``args.seconds`` s, maybe under attack."""
    watch = StallWatch()
    stop = asyncio.Event()
    answered: list[float] = []
    attackers = [asyncio.create_task(attack(calls, stop, answered)) for _ in range(args.attackers)] if calls else []
    watch.start()
    t0 = time.perf_counter()
    moves = await steady_rate(fake, bot.service, tables, int(args.rate * args.seconds), args.rate, rng)
    elapsed = time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*attackers)
    await watch.stop()
    name = f"under attack ({args.attackers} streams)" if calls else "no attacker"
    p50, p95, worst = percentiles(moves)
    print(f"{name:<28} turns n={len(moves):4d}  p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  max {worst:6.1f} ms")
    stall_p99 = percentiles([x * 1000 for x in watch.lates])[1] if watch.lates else 0.0
    print(
        f"{'':<28} event loop: longest stall {watch.worst * 1000:6.1f} ms (p95 lateness {stall_p99:.1f} ms),"
        f" longest GC pass {watch.gc_worst * 1000:.1f} ms"
    )
    if calls:
        a50, a95, amax = percentiles(answered)
        print(
            f"{'':<28} hostile requests answered: {len(answered)} ({len(answered) / elapsed:.0f}/s),"
            f" answer p50 {a50:.1f} ms  p95 {a95:.1f} ms  max {amax:.1f} ms"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each measured run")
    parser.add_argument("--rate", type=float, default=10.0, help="normal /move commands per second")
    parser.add_argument("--attackers", type=int, default=2, help="parallel streams of hostile requests")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(TOKEN)
        await fake.start()
        bot, task = await start_bot(fake, make_settings(fake, Path(tmp) / "hostile.db", log_level="ERROR"))
        try:
            if bot.service.renderer is None:
                print("bot.render is not available: nothing to measure")
                return
            t0 = time.perf_counter()
            tables = await setup_tables(fake, bot, args.games)
            print(f"({args.games} games started and placed in {time.perf_counter() - t0:.1f} s)")
            attacker = fake.add_user("mallory")
            await fake.dispatch("GUILD_CREATE", fake.guild_payload())
            calls = attack_requests(fake, attacker, [t.channel for t in tables] + [fake.channel_id])
            print(f"({len(calls)} distinct hostile requests, options up to {OPTION_LIMIT} characters)")
            await steady_rate(fake, bot.service, tables, 20, args.rate, rng)  # warm up
            await phase(fake, bot, tables, args, None, rng)
            await phase(fake, bot, tables, args, calls, rng)
        finally:
            await stop_bot(bot, task)
            await fake.close()


if __name__ == "__main__":
    asyncio.run(main())
