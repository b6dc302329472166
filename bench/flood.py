"""What a flood of one person's costly requests costs everybody else, at the service level.

One member (Alice) sends ``--count`` requests of one kind at once, the way a script or a
stuck key would through the Discord adapter with no per-person cooldown; meanwhile another
member (Bob, in his own bot game) asks the same thing once, and plays a move that hands
the turn to a ``hard`` bot. Printed, per kind: how many searches or drawings Alice's flood
started, how long the flood took, Bob's request and Bob's bot turn alone and during the
flood, and the event loop's worst lateness (a 10 ms ticker) during the flood.

Kinds: ``hint`` (an AI search per request, in the AI workers through the coach's slot),
``board`` (a board picture in the default thread pool), ``solve`` (a puzzle answer judged
in a thread, and the solution drawn). The AI runs in ``--workers`` processes (the bot's
default pool), pictures with the bot's renderer.

Run: ``.venv/bin/python -m bench.flood [--count 50] [--workers 2] [--kinds hint,board,solve]``.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.ai_pool import ProcessPoolAiRunner
from bot.results import Player
from bot.service import GameService, coach_puzzles, default_renderer
from bot.storage import Storage

GUILD = 1
ALICE, BOB = Player(11, "Alice"), Player(12, "Bob")
A_CHANNEL, B_CHANNEL = 101, 102


class Ticker:
    """The event loop's worst lateness while it runs (a 10 ms sleep, timed)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            self.worst = max(self.worst, time.perf_counter() - start - 0.01)

    def __enter__(self) -> Ticker:
        self._task = asyncio.ensure_future(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def timed(call: Awaitable[Any]) -> float:
    start = time.perf_counter()
    await call
    return time.perf_counter() - start


def counting(obj: Any, name: str, counter: list[int]) -> None:
    """Count the calls of ``obj.name`` (a search or a drawing)."""
    real = getattr(obj, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return real(*args, **kwargs)

    setattr(obj, name, wrapper)


async def bot_turn(service: GameService) -> float:
    """Bob places a pair and waits for the bot's reply (a ``hard`` placement)."""
    cells = await service.legal_place_cells(B_CHANNEL, BOB.user_id)
    first = cells[0]
    second = next(c for c in cells if c != first)
    return await timed(service.place(B_CHANNEL, BOB.user_id, first, second))


async def flood(
    name: str,
    count: int,
    alice: Callable[[], Awaitable[Any]],
    bob: Callable[[], Awaitable[Any]],
    service: GameService,
    started: list[int],
) -> None:
    alone = await timed(bob())
    turn_alone = await bot_turn(service)
    started[0] = 0
    with Ticker() as ticker:
        t0 = time.perf_counter()
        theirs = [asyncio.ensure_future(alice()) for _ in range(count)]
        await asyncio.sleep(0.05)
        during = await timed(bob())
        turn_during = await bot_turn(service)
        results = await asyncio.gather(*theirs, return_exceptions=True)
        took = time.perf_counter() - t0
    failed = [r for r in results if isinstance(r, BaseException)]
    print(
        f"{name:6} x{count}: {started[0]} searches/drawings started, flood {took:5.1f} s, "
        f"{len(failed)} refused; Bob's {name} {alone * 1000:6.0f} ms alone, {during * 1000:6.0f} ms during; "
        f"Bob's bot turn {turn_alone * 1000:5.0f} ms alone, {turn_during * 1000:5.0f} ms during; "
        f"loop late by up to {ticker.worst * 1000:.0f} ms"
    )
    if failed:
        print("   first refusal:", repr(failed[0])[:160])


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "flood.db")
        ai = ProcessPoolAiRunner(args.workers)
        service = GameService(storage, ai, default_renderer())
        try:
            await service.play_bot(GUILD, A_CHANNEL, ALICE, "easy", color="black")
            await service.play_bot(GUILD, B_CHANNEL, BOB, "hard", color="black")
            kinds = args.kinds.split(",")
            if "hint" in kinds:
                searches = [0]
                real_run = service.coach.hints.work.run

                async def run(fn: Any, arg: Any) -> Any:
                    searches[0] += 1
                    return await real_run(fn, arg)

                service.coach.hints.work.run = run  # type: ignore[method-assign]
                hints = service.coach.hints
                await flood(
                    "hint",
                    args.count,
                    lambda: hints.hint(GUILD, A_CHANNEL, ALICE.user_id),
                    lambda: hints.hint(GUILD, B_CHANNEL, BOB.user_id),
                    service,
                    searches,
                )
            if "board" in kinds:
                drawn = [0]
                assert service.renderer is not None
                counting(service.renderer, "render_board", drawn)
                await flood(
                    "board",
                    args.count,
                    lambda: service.board(A_CHANNEL, ALICE.user_id),
                    lambda: service.board(B_CHANNEL, BOB.user_id),
                    service,
                    drawn,
                )
            if "solve" in kinds:
                coach = service.coach
                await coach.puzzles.show(GUILD, ALICE.user_id, "Alice")
                await coach.puzzles.show(GUILD, BOB.user_id, "Bob")
                answer = " ".join(coach.puzzles.daily(GUILD)[0].solution)  # solved: judged and drawn
                judged = [0]
                real_judge = coach_puzzles.judge

                def judge(*a: Any) -> Any:
                    judged[0] += 1
                    return real_judge(*a)

                coach_puzzles.judge = judge  # type: ignore[assignment]
                await flood(
                    "solve",
                    args.count,
                    lambda: coach.solve(GUILD, ALICE.user_id, "Alice", answer),
                    lambda: coach.solve(GUILD, BOB.user_id, "Bob", answer),
                    service,
                    judged,
                )
        finally:
            ai.close()
            await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kinds", default="hint,board,solve")
    asyncio.run(main(parser.parse_args()))
