"""A dead AI worker process never breaks the bot: the pool is replaced and the AI asked again.

Real worker processes (a ``ProcessPoolAiRunner``), really killed with SIGKILL as the OOM
killer would, between turns and in the middle of a search. Every turn the bot plays must
be the one the AI answered: no move is ever chosen by anyone else in the AI's name. When
the AI cannot answer at all, the game waits and the scheduler tries again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest

from bot import ai_pool
from bot.ai_pool import AiUnavailableError, ProcessPoolAiRunner
from bot.clock import FakeClock
from bot.results import BotUnavailableError, TurnResult
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.storage import Storage
from engine.ai import TurnRequest, position_value, think
from tests.service.ai_workers import HANG_SEED, die, hang, hang_on_seed, nap
from tests.service.helpers import ALICE, GUILD, play_action

CHANNEL = 7
A = TypeVar("A")
R = TypeVar("R")


class RecordingRunner(ProcessPoolAiRunner):
    """The real process pool, remembering every answer the AI gave."""

    def __init__(self, workers: int, search: object = think) -> None:
        super().__init__(workers, search)  # type: ignore[arg-type]
        self.answers: list[tuple[TurnRequest, list[str]]] = []

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        texts = await super().choose_turn(request)
        self.answers.append((request, texts))
        return texts

    def kill_workers(self) -> int:
        """SIGKILL every worker process of the current pool; returns how many."""
        processes = list(self._executor._processes.values())  # type: ignore[attr-defined]
        for process in processes:
            os.kill(process.pid, signal.SIGKILL)
        for process in processes:
            process.join(10)
        return len(processes)


@pytest.fixture
async def clock() -> FakeClock:
    return FakeClock()


async def _service(path: Path, runner: ProcessPoolAiRunner, clock: FakeClock) -> GameService:
    return GameService(await Storage.open(path), runner, None, clock, random.Random(3))


@pytest.fixture
async def pool_service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[tuple[GameService, RecordingRunner]]:
    runner = RecordingRunner(workers=2)
    service = await _service(tmp_path / "pool.db", runner, clock)
    yield service, runner
    await service.storage.close()
    runner.close()


async def _stored_actions(service: GameService) -> list[str]:
    row = await service.storage.active_game(CHANNEL)
    assert row is not None
    return list(row.action_list)


async def _alice_turn(service: GameService, result: TurnResult) -> TurnResult:
    """Alice plays legal actions until the turn is the bot's again (the bot answers inside)."""
    start = result.game.turn
    while result.game_over is None and result.to_move == ALICE and result.game.turn == start:
        result = await play_action(service, CHANNEL, ALICE.user_id, result.legal[0])
    return result


async def _check_bot_played_the_ai_answer(service: GameService, runner: RecordingRunner, answers: int) -> None:
    assert len(runner.answers) == answers, "every bot turn comes from an AI answer"
    request, texts = runner.answers[-1]
    actions = await _stored_actions(service)
    assert actions[len(request.actions) :] == texts, "the stored bot turn is the AI's answer"


async def test_workers_killed_between_turns(pool_service: tuple[GameService, RecordingRunner]) -> None:
    service, runner = pool_service
    result = await service.play_bot(GUILD, CHANNEL, ALICE, "medium", color="black")
    result = await _alice_turn(service, result)
    await _check_bot_played_the_ai_answer(service, runner, 1)
    for answers in (2, 3):
        assert runner.kill_workers() >= 1
        result = await _alice_turn(service, result)
        await _check_bot_played_the_ai_answer(service, runner, answers)
        request, texts = runner.answers[-1]
        assert think(request) == texts, "medium is deterministic: the same answer as in this process"
    assert runner.restarts == 2


async def test_workers_killed_in_the_middle_of_a_search(pool_service: tuple[GameService, RecordingRunner]) -> None:
    service, runner = pool_service
    result = await service.play_bot(GUILD, CHANNEL, ALICE, "hard", color="black")
    first = result.legal[0]
    result = await play_action(service, CHANNEL, ALICE.user_id, first)
    second = next(a for a in result.legal if a != first)
    task = asyncio.ensure_future(play_action(service, CHANNEL, ALICE.user_id, second))
    pending = runner._executor._pending_work_items  # type: ignore[attr-defined]
    for _ in range(1000):
        if pending:
            break
        await asyncio.sleep(0.01)
    assert pending, "the bot's search was submitted"
    await asyncio.sleep(0.3)  # the hard level thinks for about a second
    assert runner.kill_workers() >= 1
    result = await asyncio.wait_for(task, 60)
    assert runner.restarts == 1
    assert result.to_move == ALICE
    await _check_bot_played_the_ai_answer(service, runner, 1)


async def test_an_ai_that_cannot_answer_makes_the_game_wait(tmp_path: Path, clock: FakeClock) -> None:
    runner = RecordingRunner(workers=1, search=die)
    service = await _service(tmp_path / "dead.db", runner, clock)
    try:
        result = await service.play_bot(GUILD, CHANNEL, ALICE, "medium", color="black")
        result = await _alice_turn(service, result)
        assert result.to_move is not None and result.to_move.is_bot, "the bot's turn waits"
        alice_only = await _stored_actions(service)
        assert len(alice_only) == 2, "nothing was played in the bot's name"
        with pytest.raises(BotUnavailableError, match="try again"):
            await service.bot_turn(CHANNEL)
        assert await _stored_actions(service) == alice_only
        assert runner.restarts == 2 * ProcessPoolAiRunner.ATTEMPTS

        runner.search = think  # the machine recovers (memory is free again)
        scheduler = Scheduler(service)
        assert await scheduler.tick() == [], "not before the retry is due"
        retry_at = service.next_bot_retry()
        assert retry_at is not None
        clock.set(retry_at)
        events = await scheduler.tick()
        assert [e.kind for e in events] == ["bot_turn"]
        await _check_bot_played_the_ai_answer(service, runner, 1)
        assert service.next_bot_retry() is None
    finally:
        await service.storage.close()
        runner.close()


AHEAD = "bbbbb/bb3/2b2/5/w4 {side} m 0/0 - 0 20"  # Black has 8 pieces, White 1


async def test_the_pool_evaluates_a_position_for_the_side_to_act() -> None:
    runner = ProcessPoolAiRunner(workers=1)
    try:
        for side, sign in (("b", 1), ("w", -1)):
            request = TurnRequest("standard", 5, (), (), AHEAD.format(side=side), "medium")
            value = await runner.evaluate(request)
            assert sign * value > 500, f"{side} to act: {value}"
            assert value == position_value(request), "medium is deterministic: the same value in this process"
    finally:
        runner.close()


async def _until_broken(runner: RecordingRunner) -> None:
    """Wait (at most 10 s) until the current pool knows one of its workers died."""
    for _ in range(1000):
        if runner._executor._broken:  # type: ignore[attr-defined]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the pool never noticed its dead worker")


async def test_a_broken_pool_leaves_no_worker_behind() -> None:
    """A survivor of a broken pool could wait for ever on a lock the dead worker held, and
    the interpreter joins it at exit: the test run itself hung after its last test.

    Which idle worker holds the task queue's lock is chance, so the kill is repeated,
    each time on one of the two workers in turn."""
    runner = RecordingRunner(workers=2)
    try:
        request = TurnRequest("standard", 5, (), (), None, "easy", 50, 1)
        for round_ in range(6):
            await asyncio.gather(*(runner.choose_turn(request) for _ in range(4)))  # both workers started
            old = list(runner._executor._processes.values())  # type: ignore[attr-defined]
            assert len(old) == 2
            os.kill(old[round_ % 2].pid, signal.SIGKILL)
            old[round_ % 2].join(10)
            # The executor's own thread notices the death a moment later; a request sent
            # before that may still be answered by the surviving worker, with no restart.
            await _until_broken(runner)
            assert await runner.choose_turn(request), "a new pool answers"
            assert runner.restarts == round_ + 1
            for process in old:
                process.join(5)
            assert not any(p.is_alive() for p in old), "every worker of the broken pool is gone"
    finally:
        runner.close()


class QuickToGiveUp(ProcessPoolAiRunner):
    """The real process pool, waiting at most a second for any answer."""

    def time_limit(self, request: TurnRequest) -> float:
        return 1.0


async def test_a_hung_worker_is_replaced_and_the_ai_said_unavailable() -> None:
    """Outside review (atk40 F5): a worker that hangs (SIGSTOP: alive, never answering)
    was never noticed, and the game waited for the bot for ever. Past the job's time
    limit the pool is replaced and the AI is unavailable: the service's retry path takes
    over, and the next request is answered by a fresh worker."""
    runner = QuickToGiveUp(1, hang_on_seed)
    request = TurnRequest("standard", 5, level="easy", seed=1)
    try:
        assert await runner.choose_turn(request), "a healthy worker answers"
        hung = list(runner._executor._processes.values())  # type: ignore[attr-defined]
        with pytest.raises(AiUnavailableError):
            await asyncio.wait_for(runner.choose_turn(replace(request, seed=HANG_SEED)), 30)
        assert runner.restarts == 1
        for process in hung:
            process.join(10)
            assert not process.is_alive(), "the hung worker was killed"
        assert await runner.choose_turn(request), "a new pool answers"
    finally:
        for process in list(runner._executor._processes.values()):  # type: ignore[attr-defined]
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGCONT)  # a hung worker left (the test failed) must not hang close()
        runner.close()


def test_the_ai_time_limits_leave_room_for_every_level() -> None:
    """The limit is derived from the job's own budget: never under a minute, more for
    slower levels and for a longer budget asked for."""
    easy, expert = (ai_pool.ai_time_limit(TurnRequest("standard", 9, level=level)) for level in ("easy", "expert"))
    assert 60 <= easy < expert
    assert ai_pool.ai_time_limit(TurnRequest("standard", 9, level="hard", movetime_ms=20_000)) > 200


async def test_a_coach_job_on_a_hung_worker_is_given_up() -> None:
    """The coach's analyses run in the same workers: a hung one no longer holds a review
    (and every later one, behind it) for ever."""
    from bot.service.coach_work import work_for

    class QuickJobs(ProcessPoolAiRunner):
        async def run(self, fn: Callable[[A], R], arg: A) -> R:
            return await self._in_worker(fn, arg, 1.0)

    runner = QuickJobs(1)
    request = TurnRequest("standard", 5, level="easy", seed=HANG_SEED)
    try:
        work = work_for(runner)
        with pytest.raises(AiUnavailableError):
            await asyncio.wait_for(work.run(hang_on_seed, request), 30)
        assert runner.restarts == 1
        assert await work.run(hang_on_seed, replace(request, seed=1)), "a new pool answers"
    finally:
        for process in list(runner._executor._processes.values()):  # type: ignore[attr-defined]
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGCONT)
        runner.close()


def _wake_and_close(runner: ProcessPoolAiRunner) -> None:
    for process in list(runner._executor._processes.values()):  # type: ignore[attr-defined]
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)  # a hung worker left (the test failed) must not hang close()
    runner.close()


async def test_jobs_queued_behind_a_hung_one_are_answered_by_the_new_pool() -> None:
    """Outside review (atk40b, high): the hung job's pool was shut down with its queue
    cancelled, and the other callers' jobs waiting there raised ``CancelledError`` into
    tasks nobody had cancelled (the scheduler's loop ended for good). They are asked
    again in the new pool, as when a worker dies."""
    runner = ProcessPoolAiRunner(1)
    try:
        assert await runner.run(nap, 0) == 0, "a warm worker"
        hung = asyncio.ensure_future(runner._in_worker(hang, 0, 1.0))
        queued = [asyncio.ensure_future(runner._in_worker(nap, 0.1 * n, 30.0)) for n in (1, 2, 3)]
        results = await asyncio.wait_for(asyncio.gather(hung, *queued, return_exceptions=True), 60)
        assert [type(r).__name__ for r in results] == ["AiUnavailableError", "float", "float", "float"], results
        assert results[1:] == [0.1, 0.2, pytest.approx(0.3)]
        assert runner.restarts == 1
    finally:
        _wake_and_close(runner)


async def test_a_job_queued_behind_a_long_healthy_one_is_not_taken_as_hung() -> None:
    """Outside review (atk40b, low): a job's clock started once it was in the executor's
    call queue (one job more than there are workers), so a short job waiting behind a
    long healthy one was taken as hung and the healthy search killed with the pool. The
    clock starts when a worker takes the job."""
    runner = ProcessPoolAiRunner(1)
    try:
        assert await runner.run(nap, 0) == 0, "a warm worker"
        long = asyncio.ensure_future(runner._in_worker(nap, 4.0, 60.0))
        await asyncio.sleep(0.2)
        short = asyncio.ensure_future(runner._in_worker(nap, 0.1, 2.0))
        results = await asyncio.wait_for(asyncio.gather(long, short, return_exceptions=True), 60)
        assert results == [4.0, 0.1]
        assert runner.restarts == 0, "no healthy worker was killed"
    finally:
        _wake_and_close(runner)
