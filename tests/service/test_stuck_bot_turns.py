"""A bot turn is never lost for good (outside review, atk40 F1 and F2).

A storage error while the bot's turn is saved (a full disk, a locked or read-only
database) is retried as an AI failure is; and a game left waiting for the bot with no
bot turn under way (the adapter's turn lost, a crash between the move and the reply)
is found by the scheduler's periodic sweep, which never starts a second bot turn for a
game that has one running.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import scheduler as scheduler_module
from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import BotUnavailableError, StorageBusyError, TimerEvent
from bot.scheduler import BOT_SWEEP_SECONDS, Scheduler
from bot.service import GameService
from bot.service.bot_turns import BOT_RETRY_FIRST
from bot.storage import Storage
from engine.ai import TurnRequest
from tests.service.helpers import ALICE, BOB, GUILD

CHANNEL = 5


class GatedAi:
    """The real AI in a thread, answering only once ``gate`` is open; counts its calls."""

    def __init__(self) -> None:
        self.inner = ThreadAiRunner()
        self.gate = asyncio.Event()
        self.gate.set()
        self.thinking = asyncio.Event()
        self.calls = 0
        #: Raised (once) instead of answering, when set.
        self.error: BaseException | None = None

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        self.calls += 1
        self.thinking.set()
        await self.gate.wait()
        error, self.error = self.error, None
        if error is not None:
            raise error
        return await self.inner.choose_turn(request)

    async def evaluate(self, request: TurnRequest) -> int:
        return await self.inner.evaluate(request)

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
async def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def ai() -> AsyncIterator[GatedAi]:
    runner = GatedAi()
    yield runner
    runner.close()


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock, ai: GatedAi) -> AsyncIterator[GameService]:
    svc = GameService(await Storage.open(tmp_path / "bot.db"), ai, None, clock, random.Random(1))
    yield svc
    await svc.storage.close()


async def _bot_to_move(service: GameService) -> None:
    """Alice (Black) places; the bot (White) is to move, its turn not started (the adapter's job)."""
    await service.play_bot(GUILD, CHANNEL, ALICE, "easy", 5, None, "black")
    result = await service.place(CHANNEL, ALICE.user_id, "a1", "b1", bot_reply=False)
    assert result.bot_to_move


async def _to_move(service: GameService) -> int | None:
    game = await service.game(CHANNEL)
    assert game is not None and game.to_move is not None
    return None if game.to_move.is_bot else game.to_move.user_id


@pytest.mark.parametrize(
    "error",
    [
        sqlite3.OperationalError("database or disk is full"),
        StorageBusyError("storage_busy"),
        sqlite3.OperationalError("attempt to write a readonly database"),
    ],
    ids=["full", "locked", "read-only"],
)
async def test_a_storage_error_saving_the_bots_turn_is_retried(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    await _bot_to_move(service)
    real = service.storage.update_game
    failures = [error]

    async def update_game(update: object) -> bool:
        if failures:
            raise failures.pop()
        return await real(update)  # type: ignore[arg-type]

    monkeypatch.setattr(service.storage, "update_game", update_game)
    with pytest.raises(BotUnavailableError) as waiting:
        await service.bot_turn(CHANNEL)
    assert waiting.value.key == "bot_not_saved", waiting.value
    assert f"try again by itself in {round(BOT_RETRY_FIRST)} s" in waiting.value.message, "worded for the bot's turn"
    assert await _to_move(service) is None, "nothing was saved: still the bot's turn"
    assert service.next_bot_retry() == clock.now() + BOT_RETRY_FIRST
    clock.advance(BOT_RETRY_FIRST)
    events = await Scheduler(service).tick()
    assert [e.kind for e in events] == ["bot_turn"] and events[0].ping == ALICE.user_id
    assert await _to_move(service) == ALICE.user_id, "the retry saved the bot's turn"


async def test_a_bot_turn_nobody_started_is_played_by_the_sweep(service: GameService, clock: FakeClock) -> None:
    await _bot_to_move(service)  # ...and the adapter's bot turn is lost (its answer failed, say)
    scheduler = Scheduler(service)
    assert await scheduler.tick() == [], "a turn just stored is not stuck"
    clock.advance(BOT_SWEEP_SECONDS)
    events = await scheduler.tick()
    assert [e.kind for e in events] == ["bot_turn"] and events[0].ping == ALICE.user_id
    assert await _to_move(service) == ALICE.user_id


async def test_the_sweep_never_starts_a_second_bot_turn(service: GameService, clock: FakeClock, ai: GatedAi) -> None:
    await _bot_to_move(service)
    ai.gate.clear()
    running = asyncio.ensure_future(service.bot_turn(CHANNEL))
    await asyncio.wait_for(ai.thinking.wait(), 10)
    scheduler = Scheduler(service)
    clock.advance(3 * BOT_SWEEP_SECONDS)  # a long think (or a slow worker)
    assert await scheduler.tick() == []
    assert ai.calls == 1, "the sweep left the running bot turn alone"
    ai.gate.set()
    result = await asyncio.wait_for(running, 30)
    assert result.events and await _to_move(service) == ALICE.user_id
    clock.advance(BOT_SWEEP_SECONDS)
    assert await scheduler.tick() == [] and ai.calls == 1, "nothing left to sweep"


async def test_the_scheduler_loop_sweeps_on_its_own(service: GameService, clock: FakeClock) -> None:
    """Not only a tick called by hand: the running loop wakes up for the sweep."""
    seen: list[str] = []

    async def on_event(event: TimerEvent) -> None:
        seen.append(event.kind)

    scheduler = Scheduler(service, on_event, max_sleep=3600)  # only the sweep wakes it in time
    await scheduler.start()
    try:
        await asyncio.wait_for(scheduler.resumed.wait(), 10)
        await _bot_to_move(service)  # after the sweep at start: only a later one finds it
        for _ in range(1000):
            if seen:
                break
            clock.advance(BOT_SWEEP_SECONDS / 4)
            await asyncio.sleep(0.01)
        assert seen == ["bot_turn"]
        assert await _to_move(service) == ALICE.user_id
    finally:
        await scheduler.stop()


async def test_a_stray_cancelled_error_from_the_ai_makes_the_bot_retry(
    service: GameService, clock: FakeClock, ai: GatedAi
) -> None:
    """Outside review (atk40b): a job cancelled inside the AI pool (its pool replaced)
    raised ``CancelledError`` though nobody cancelled the bot's turn; only ``Exception``
    was retried, so the game waited for the bot with no retry. Now it is retried."""
    await _bot_to_move(service)
    ai.error = asyncio.CancelledError()
    with pytest.raises(BotUnavailableError):
        await service.bot_turn(CHANNEL)
    assert await _to_move(service) is None, "still the bot's turn"
    assert service.next_bot_retry() == clock.now() + BOT_RETRY_FIRST
    clock.advance(BOT_RETRY_FIRST)
    events = await Scheduler(service).tick()
    assert [e.kind for e in events] == ["bot_turn"]
    assert await _to_move(service) == ALICE.user_id


async def test_a_bot_turn_really_cancelled_stays_cancelled(service: GameService, ai: GatedAi) -> None:
    await _bot_to_move(service)
    ai.gate.clear()
    task = asyncio.ensure_future(service.bot_turn(CHANNEL))
    await asyncio.wait_for(ai.thinking.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert service.next_bot_retry() is None, "a cancelled turn is not retried by this process"


async def test_a_stray_cancelled_error_does_not_end_the_scheduler(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside review (atk40b, high): a ``CancelledError`` nobody meant for the scheduler
    (a job the AI pool cancelled) ended its loop for good: no turn timeout, reminder,
    retry or sweep ever again. Only cancelling the scheduler's own task stops it."""
    monkeypatch.setattr(scheduler_module, "LOOP_RETRY_SECONDS", 0.01, raising=False)
    strays = {"waiting_bot_channels": asyncio.CancelledError(), "next_due": asyncio.CancelledError()}
    for name in list(strays):
        real = getattr(service.storage if name == "next_due" else service, name)

        async def stray(*args: object, _name: str = name, _real: object = real) -> object:
            error = strays.pop(_name, None)
            if error is not None:
                raise error
            return await _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(service.storage if name == "next_due" else service, name, stray)
    seen: list[str] = []

    async def on_event(event: TimerEvent) -> None:
        seen.append(event.kind)

    scheduler = Scheduler(service, on_event, max_sleep=3600)
    await scheduler.start()
    try:
        await asyncio.wait_for(scheduler.resumed.wait(), 10)
        await _bot_to_move(service)
        for _ in range(1000):
            if seen:
                break
            clock.advance(BOT_SWEEP_SECONDS / 4)
            await asyncio.sleep(0.01)
        assert not strays, "both stray errors were raised"
        assert seen == ["bot_turn"], "the loop went on and swept"
        assert await _to_move(service) == ALICE.user_id
    finally:
        await scheduler.stop()
    assert scheduler._task is None


async def test_one_bot_turn_failing_does_not_stop_the_others(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot turns of a resume or a sweep run side by side: one that raised something
    unexpected ended the whole resume, its siblings left running unwatched (the pool
    helper's note, stop 40). Each game's failure is its own now."""
    await _bot_to_move(service)
    await service.play_bot(GUILD, CHANNEL + 1, BOB, "easy", 5, None, "black")
    assert (await service.place(CHANNEL + 1, BOB.user_id, "a1", "b1", bot_reply=False)).bot_to_move
    real = service.bot_turn

    async def failing(channel_id: int) -> object:
        if channel_id == CHANNEL:
            raise RuntimeError("a bug in one game")
        return await real(channel_id)

    monkeypatch.setattr(service, "bot_turn", failing)
    events = await Scheduler(service).resume()
    assert [e.kind for e in events] == ["bot_turn"] and events[0].ping == BOB.user_id
