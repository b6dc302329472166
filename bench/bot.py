"""Benchmark: how fast a ``/move`` is answered with its board image, on the loopback Discord.

Measures the time from the fake Discord sending INTERACTION_CREATE on the gateway to the
bot's interaction callback (with the PNG attached) arriving at the fake's REST route:
everything the bot does for a move (gateway parsing, the command tree, the service's
transaction on SQLite, rendering in a thread, the multipart upload) and nothing of the
AI (games between two people). Printed, never asserted.

    .venv/bin/python -m bench.bot [--moves 200] [--games 200] [--rate 20]

Scenarios: one game alone (moves one after another); the same with 200 games in
progress in 200 channels of the guild; and 200 games with moves arriving at a steady
rate across them (``--rate`` per second), as a busy server would see.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, Python puts bench/ first on the path, where bench/engine.py would
# shadow the engine package: put the project root there instead.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from engine import Action, Position, Ruleset  # noqa: E402
from tests.discord.fake_discord import FakeDiscord  # noqa: E402
from tests.discord.harness import FULL_PLACEMENT as PLACEMENT  # noqa: E402
from tests.discord.harness import TOKEN, make_settings, start_bot, stop_bot  # noqa: E402


class _StubRenderer:
    """Returns one pre-drawn PNG: separates the bot's own cost from the renderer's."""

    def __init__(self, real: object) -> None:
        self.png = real.render_board(Position(Ruleset.make("standard", 5)))  # type: ignore[attr-defined]

    def render_board(self, *args: object, **kwargs: object) -> bytes:
        return self.png


class Table:
    """One game between two people in one channel, mirrored locally to choose legal steps."""

    def __init__(self, channel: int, black: int, white: int) -> None:
        self.channel = channel
        self.players = (black, white)
        self.pos = Position(Ruleset.make("standard", 5))

    def next_step(self, rng: random.Random) -> tuple[int, str] | None:
        """A quiet step if possible (so games last), as (user, "b2-c2")."""
        legal = self.pos.legal_actions()
        steps = [a for a in legal if a.kind == "step"]
        if not steps:
            return None
        enemy = 1 - self.pos.side
        quiet = []
        for step in steps:
            before = self.pos.bb[enemy]
            self.pos.push(step)
            if self.pos.bb[enemy] == before and not self.pos.is_over():
                quiet.append(step)
            self.pos.pop()
        choice = rng.choice(quiet or steps)
        return self.players[self.pos.side], str(choice)

    def played(self, step: str) -> None:
        """Mirror an action, then the passes the service plays by itself when a pass is
        the only legal action (issue 12: a blocked player does not have to type it)."""
        self.pos.push(Action.parse(step))
        while not self.pos.is_over() and [str(a) for a in self.pos.legal_actions()] == ["pass"]:
            self.pos.push(Action.parse("pass"))


async def setup_tables(fake: FakeDiscord, bot: object, count: int) -> list[Table]:
    """``count`` games in the movement phase, started and placed through the service."""
    service = bot.service  # type: ignore[attr-defined]
    from bot.results import Player

    tables = []
    renderer, service.renderer = service.renderer, None  # placing 200 games needs no pictures
    for i in range(count):
        channel = fake.add_channel(f"table-{i}")
        black, white = fake.add_user(f"b{i}"), fake.add_user(f"w{i}")
        made = await service.challenge(
            fake.guild_id, channel, Player(black, f"b{i}"), Player(white, f"w{i}"), 5, "standard", "black"
        )
        await service.accept_challenge(made.challenge.id, white)
        table = Table(channel, black, white)
        for j in range(0, len(PLACEMENT), 2):
            user = table.players[table.pos.side]
            await service.place(channel, user, PLACEMENT[j], PLACEMENT[j + 1])
            table.played(PLACEMENT[j])
            table.played(PLACEMENT[j + 1])
        tables.append(table)
    service.renderer = renderer
    await fake.dispatch("GUILD_CREATE", fake.guild_payload())
    return tables


async def one_move(fake: FakeDiscord, service: object, table: Table, rng: random.Random) -> float | None:
    """Play one step through Discord; the latency in ms (None if the game cannot go on)."""
    nxt = table.next_step(rng)
    while nxt is None and not table.pos.is_over():
        # Blocked (pass) or a chain to stop (end): not a /move, so played unmeasured.
        legal = [str(a) for a in table.pos.legal_actions()]
        if "pass" not in legal and "end" not in legal:
            return None
        await service.end_turn(table.channel, table.players[table.pos.side])  # type: ignore[attr-defined]
        table.played("pass" if "pass" in legal else "end")
        nxt = table.next_step(rng)
    if nxt is None:
        return None
    user, step = nxt
    frm, to = step.split("-")
    inter = await fake.slash(user, "move", {"from": frm, "to": to}, channel_id=table.channel)
    reply = inter.reply
    if reply.ephemeral:
        raise RuntimeError(f"{step} refused: {reply.text}")
    if not reply.attachments:
        raise RuntimeError("the answer has no image: is bot.render available?")
    table.played(step)
    return (inter.callback_at - inter.sent_at) * 1000


async def autocompletes(fake: FakeDiscord, tables: list[Table], count: int, rng: random.Random) -> list[float]:
    """Round trips of the /move ``from`` suggestions (they must stay far below Discord's 3 s)."""
    out = []
    for _ in range(count):
        table = rng.choice(tables)
        user = table.players[table.pos.side]
        t0 = time.perf_counter()
        await fake.autocomplete(user, "move", {"from": ""}, "from", channel_id=table.channel)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p50 = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    print(f"{name:<52} n={len(samples):4d}  p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  max {samples[-1]:6.1f} ms")


async def sequential(
    fake: FakeDiscord,
    service: object,
    tables: list[Table],
    moves: int,
    rng: random.Random,
    refill: Callable[[], Awaitable[list[Table]]] | None = None,
) -> list[float]:
    """Moves one after another on random tables; ``refill`` replaces finished games."""
    out: list[float] = []
    while len(out) < moves:
        if not tables:
            if refill is None:
                break
            tables.extend(await refill())
        table = rng.choice(tables)
        ms = await one_move(fake, service, table, rng)
        if ms is None or table.pos.is_over():
            tables.remove(table)
        if ms is not None:
            out.append(ms)
    return out


async def steady_rate(
    fake: FakeDiscord, service: object, tables: list[Table], moves: int, rate: float, rng: random.Random
) -> list[float]:
    """Moves arrive every 1/rate s on random tables (never two at once on one table)."""
    out: list[float] = []
    busy: set[int] = set()
    tasks = []

    async def run(table: Table) -> None:
        try:
            ms = await one_move(fake, service, table, rng)
            if ms is not None:
                out.append(ms)
        finally:
            busy.discard(table.channel)

    skipped = 0
    for _ in range(moves):
        free = [t for t in tables if t.channel not in busy]
        if free:
            table = rng.choice(free)
            busy.add(table.channel)
            tasks.append(asyncio.create_task(run(table)))
        else:
            skipped += 1
        await asyncio.sleep(rng.expovariate(rate))
    await asyncio.gather(*tasks)
    if skipped or len(out) < len(tasks):
        print(f"({skipped} arrivals found every table busy; {len(tasks) - len(out)} games could not move)")
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0, help="moves per second in the busy scenario")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(TOKEN)
        await fake.start()
        settings = make_settings(fake, Path(tmp) / "bench.db")
        bot, task = await start_bot(fake, settings)
        try:
            if bot.service.renderer is None:
                print("bot.render is not available: nothing to measure")
                return
            alone = await setup_tables(fake, bot, 1)
            for _ in range(5):  # warm up: imports, caches, the first render
                await one_move(fake, bot.service, alone[0], rng)

            def one_more() -> Awaitable[list[Table]]:
                return setup_tables(fake, bot, 1)

            report(
                "1 game, moves one after another",
                await sequential(fake, bot.service, alone, args.moves, rng, one_more),
            )
            real = bot.service.renderer
            bot.service.renderer = _StubRenderer(real)
            fresh = await setup_tables(fake, bot, 1)
            report(
                "  same, board drawing stubbed (bot overhead)",
                await sequential(fake, bot.service, fresh, args.moves, rng, one_more),
            )
            bot.service.renderer = real
            t0 = time.perf_counter()
            crowd = await setup_tables(fake, bot, args.games)
            print(f"(started and placed {args.games} games in {time.perf_counter() - t0:.1f} s)")
            report(
                f"{args.games} games in progress, one move at a time",
                await sequential(fake, bot.service, crowd, args.moves, rng),
            )
            report("autocomplete of /move from, 200 games in progress", await autocompletes(fake, crowd, 200, rng))
            report(
                f"{args.games} games, {args.rate:g} moves/s arriving",
                await steady_rate(fake, bot.service, crowd, args.moves, args.rate, rng),
            )
        finally:
            await stop_bot(bot, task)
            await fake.close()


if __name__ == "__main__":
    asyncio.run(main())
