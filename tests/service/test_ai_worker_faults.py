"""Faults of ``seega-bot worker`` an outside review proved (atk41a), each on real parts: a
PostgreSQL server, pgqueuer's queue, ``bot.ai_jobs`` workers as separate processes whose
search processes are killed or stopped like an OOM-killed or hung machine would have them.

Timeouts are short and configurable here (the worker's ``--time-limit``, the runner's
``timeout``); the assertions are about what answers, never about how fast beyond
generous bounds.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.ai_jobs import QueueAiRunner
from bot.ai_pool import AiUnavailableError
from engine.ai import TurnRequest
from tests.postgres import TempPostgres
from tests.service.helpers import query

ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT = 1.0


def _worker(url: str, *args: str, slow: bool = False) -> subprocess.Popen[bytes]:
    """A worker process in its own session (``slow``: its search never ends)."""
    module = ["-m", "tests.service.slow_worker", url, str(HEARTBEAT)] if slow else ["-m", "bot.ai_jobs", url]
    if not slow:
        module += ["--heartbeat", str(HEARTBEAT)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, *module, *args], cwd=ROOT, env=env, start_new_session=True)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _search_processes(worker: int) -> list[int]:
    """The worker's search processes: the children of its fork server."""
    found = []
    for child in _children(worker):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in command:
            found += _children(child)
    return found


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


@pytest.fixture
def url(postgres_server: TempPostgres) -> str:
    return postgres_server.create_database()


@pytest.fixture
def workers() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=30)


async def test_a_worker_whose_search_process_died_answers_the_next_jobs(
    url: str, workers: list[subprocess.Popen[bytes]]
) -> None:
    """F1: the search process SIGKILLed (the OOM killer): before, the worker stayed up and
    failed every later job at once with ``BrokenProcessPool`` while the asker waited its
    whole timeout. Now the pool is replaced and the job asked again in it."""
    worker = _worker(url)
    workers.append(worker)
    runner = await QueueAiRunner(url, timeout=90).start()
    try:
        assert len(await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=1))) == 2
        dead = _search_processes(worker.pid)
        assert dead
        for pid in dead:
            os.kill(pid, signal.SIGKILL)
        for seed in (2, 3):
            assert len(await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=seed))) == 2
        assert worker.poll() is None
        assert not set(dead) & set(_search_processes(worker.pid))
    finally:
        await runner.aclose()


async def test_a_job_that_fails_in_the_worker_is_reported_to_the_asker_at_once(
    url: str, workers: list[subprocess.Popen[bytes]]
) -> None:
    """F4: a job the engine refuses raised in the worker and was dropped; the asker waited
    its whole timeout (300 s in the bot) and then said no worker was up. Now the failure
    comes back like an answer, as the engine cannot answer (the bot's retry applies), and
    asking again runs the job again rather than reading the old failure for ever."""
    workers.append(_worker(url))
    runner = await QueueAiRunner(url, timeout=90).start()
    bad = TurnRequest("standard", 5, actions=("a1", "a1"), level="easy")
    try:
        for _ in range(2):  # the second ask is a new job, failed again, not a stale row
            started = time.monotonic()
            with pytest.raises(AiUnavailableError, match="could not answer"):
                await runner.choose_turn(bad)
            assert time.monotonic() - started < 60  # far below the runner's 90 s timeout
        with pytest.raises(AiUnavailableError, match="could not answer"):
            await runner.evaluate(bad)  # a call job (a position's value) the same way
        good = TurnRequest("standard", 5, level="easy", seed=4)
        assert len(await runner.choose_turn(good)) == 2  # the worker is still serving
    finally:
        await runner.aclose()


async def test_a_hung_search_process_is_replaced_and_its_job_failed_back(
    url: str, workers: list[subprocess.Popen[bytes]]
) -> None:
    """F3: a search process that stops (SIGSTOP, a loop) held its job for ever: the worker
    kept heartbeating, so no other worker took it, and every retry was folded onto it.
    Now the job fails back past its time limit, the hung process is killed with its pool,
    and the next job is answered by a fresh one."""
    worker = _worker(url, "--time-limit", "20")
    workers.append(worker)
    runner = await QueueAiRunner(url, timeout=90).start()
    try:
        assert len(await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=1))) == 2
        hung = _search_processes(worker.pid)
        assert hung
        for pid in hung:
            os.kill(pid, signal.SIGSTOP)
        with pytest.raises(AiUnavailableError, match="hung"):
            await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=2))
        assert query(url, "SELECT COUNT(*) FROM pgqueuer") == [(0,)]  # not held any more
        assert len(await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=2))) == 2
        for _ in range(100):
            if all(_state(pid) in ("gone", "Z") for pid in hung):
                break
            await asyncio.sleep(0.1)
        assert all(_state(pid) in ("gone", "Z") for pid in hung)
    finally:
        await runner.aclose()


async def test_a_one_process_worker_takes_one_job_at_a_time(url: str, workers: list[subprocess.Popen[bytes]]) -> None:
    """F10: a worker with one search process took two jobs (pgqueuer's cap was
    ``max(2 * batch, processes)``); the second waited behind the first while an idle
    worker could not take it. Now the second stays on the queue."""
    workers.append(_worker(url, slow=True))
    runner = await QueueAiRunner(url, timeout=90).start()
    asks = [
        asyncio.ensure_future(runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=seed)))
        for seed in (1, 2)
    ]
    try:
        deadline = time.monotonic() + 60
        while query(url, "SELECT COUNT(*) FROM pgqueuer WHERE status = 'picked'") == [(0,)]:
            assert time.monotonic() < deadline, "the worker picked no job"
            await asyncio.sleep(0.05)
        await asyncio.sleep(3)  # several dequeues of the worker (it polls; a notify wakes it at once)
        rows = query(url, "SELECT status::text, COUNT(*) FROM pgqueuer GROUP BY status ORDER BY 1")
        assert rows == [("picked", 1), ("queued", 1)]
    finally:
        for ask in asks:
            ask.cancel()
        await asyncio.gather(*asks, return_exceptions=True)
        await runner.aclose()


async def test_an_illegal_answer_is_an_ai_failure_and_is_not_kept(
    url: str, workers: list[subprocess.Popen[bytes]]
) -> None:
    """F7: a worker's illegal answer was played as random moves ("the bot never plays a
    move the AI did not choose") and stored for an hour for every identical request. Now
    it is an AI failure: nothing is played, the bot's retry is scheduled, and the stored
    answer is deleted so the next ask searches again."""
    from bot.ai_jobs import encode
    from bot.clock import FakeClock
    from bot.service import GameService
    from bot.storage import Storage
    from tests.service.helpers import CAROL, GUILD

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    workers.append(
        subprocess.Popen(
            [sys.executable, "-m", "tests.service.garbage_worker", url], cwd=ROOT, env=env, start_new_session=True
        )
    )
    storage = await Storage.open(url)
    runner = await QueueAiRunner(url, timeout=90).start()
    try:
        request = TurnRequest("standard", 5, level="easy", seed=5)
        with pytest.raises(AiUnavailableError, match="illegal turn"):
            await runner.choose_turn(request)
        assert query(url, "SELECT COUNT(*) FROM seega_ai_results WHERE key = ?", (encode(request)[0],)) == [(0,)]
        service = GameService(storage, runner, None, FakeClock())
        result = await service.play_bot(GUILD, 1, CAROL, "easy", 5, None, "white")  # the bot (black) opens
        assert not result.events  # no move in the AI's name
        row = (await storage.all_games())[0]
        assert row.version == 0 and row.action_list == []
        assert service.bots.next_retry() is not None  # its turn is tried again later
        assert query(url, "SELECT COUNT(*) FROM seega_ai_results") == [(0,)]
    finally:
        await runner.aclose()
        await storage.close()


async def test_the_clean_up_deletes_old_rows_of_the_queue_s_log(url: str) -> None:
    """F6: pgqueuer writes three ``pgqueuer_log`` rows per job and never deletes them. The
    worker's periodic clean-up deletes those older than a day, and keeps the rest."""
    from pgqueuer import Queries

    from bot.ai_jobs import clean_up, install
    from bot.storage import pgconn

    await install(url)
    pool = await pgconn.create_pool(url, min_size=1, max_size=2)
    try:
        queries = Queries.from_asyncpg_pool(pool)
        for n in range(3):
            await queries.enqueue("seega_ai_turn", f"job {n}".encode())
        assert query(url, "SELECT COUNT(*) FROM pgqueuer_log") == [(3,)]
        await pool.execute(
            "UPDATE pgqueuer_log SET created = now() - interval '2 days'"
            " WHERE id IN (SELECT id FROM pgqueuer_log ORDER BY id LIMIT 2)"
        )
        await clean_up(pool)
        assert query(url, "SELECT COUNT(*) FROM pgqueuer_log") == [(1,)]
    finally:
        await pool.close()
