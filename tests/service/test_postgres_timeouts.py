"""Every wait on PostgreSQL is bounded (outside review atk41a, F2).

A network cut without a reset left statements waiting for ever; once the pool's
connections were all stuck, every later command of the process (and its timers) waited
too, even after the network came back, and a ``LISTEN`` never noticed. Real parts: a
PostgreSQL server, the real storage, and a TCP proxy (:mod:`tests.pgproxy`) that cuts
the network the way a partition does: no reset, nothing delivered. Timeouts are
shortened through the storage's own options; the bounds asserted are generous.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.results import StorageBusyError
from bot.storage import Storage
from bot.storage.listen import Listener
from bot.storage.postgres import PostgresStorage
from tests.pgproxy import Proxy
from tests.postgres import TempPostgres

#: Far above every shortened timeout below; only a wait that never ends reaches it.
BOUND = 60.0


@pytest.fixture
def url(postgres_server: TempPostgres) -> str:
    return postgres_server.create_database()


@pytest.fixture
async def proxy(postgres_server: TempPostgres) -> AsyncIterator[Proxy]:
    cut = Proxy(postgres_server.port)
    await cut.start()
    yield cut
    await cut.close()


async def _open(url: str, **options: float) -> PostgresStorage:
    store = await Storage.open(url, **options)
    assert isinstance(store, PostgresStorage)
    return store


async def test_a_statement_past_the_statement_timeout_is_answered_busy(url: str) -> None:
    """The server's ``statement_timeout`` ends a statement that runs too long, and the
    command is answered "busy, try again" (not retried for as long again)."""
    store = await _open(url, statement_timeout_ms=300, listen=False)
    try:
        started = time.monotonic()
        with pytest.raises(StorageBusyError):
            await asyncio.wait_for(store._fetchall("SELECT pg_sleep(5)"), BOUND)
        assert time.monotonic() - started < 4.5  # stopped by the server, not slept out
    finally:
        await store.close()


async def test_a_full_pool_answers_busy_within_the_acquire_timeout(url: str) -> None:
    """Commands waiting for a pooled connection that never comes free are answered
    "busy" after the acquire timeout, instead of waiting for ever."""
    store = await _open(url, pool_size=2, acquire_timeout=1.0, listen=False)
    held = [await store.pool.acquire() for _ in range(2)]
    try:
        with pytest.raises(StorageBusyError, match="busy"):
            await asyncio.wait_for(store.next_due(), BOUND)
    finally:
        for conn in held:
            await store.pool.release(conn)
        await store.close()


async def test_a_network_cut_without_reset_ends_in_busy_answers_and_the_process_recovers(
    url: str, proxy: Proxy
) -> None:
    """The review's partition: a busy process's whole pool in flight when the network goes
    silent. Each command is answered "busy" within its timeout, the timers' read too, and
    once the network is back a new command is answered (the dead connections are dropped,
    not handed out again)."""
    await (await _open(url, listen=False)).close()  # migrated directly
    store = await _open(proxy.url(url), command_timeout=2.0, acquire_timeout=2.0, pool_size=4, listen=False)
    try:
        await asyncio.gather(*(store.pool.fetch("SELECT pg_sleep(0.2)") for _ in range(4)))
        assert store.pool.get_size() == 4
        proxy.partition()
        inflight = [asyncio.ensure_future(store.due_timeouts(time.time())) for _ in range(6)]
        timers = asyncio.ensure_future(store.next_due())
        # asyncio.wait, not wait_for: cancelling a statement stuck on a dead connection
        # would itself wait for ever (asyncpg's cancel request goes through the cut too).
        _, pending = await asyncio.wait([*inflight, timers], timeout=BOUND)
        assert not pending, f"{len(pending)} commands still waiting after {BOUND:.0f} s"
        done = [task.exception() for task in (*inflight, timers)]
        assert all(isinstance(result, StorageBusyError) for result in done), done
        proxy.heal()
        for _ in range(10):  # a few commands may still meet a connection being dropped
            try:
                await asyncio.wait_for(store.next_due(), BOUND)
                break
            except StorageBusyError:
                await asyncio.sleep(0.5)
        else:
            raise AssertionError("no command was answered after the network came back")
    finally:
        proxy.heal()
        store.pool.terminate()  # a polite close would wait on the dead connections


async def test_a_listen_connection_cut_without_reset_is_noticed_and_opened_again(url: str, proxy: Proxy) -> None:
    """A ``LISTEN`` whose network went silent is checked, dropped and opened again (the
    owner told that notifications may have been missed), and hears the next one."""
    heard: list[str] = []
    gaps: list[int] = []
    listener = await Listener(
        proxy.url(url), "seega_test", heard.append, lambda: gaps.append(1), check_every=0.3, check_timeout=1.0
    ).start()
    try:
        proxy.partition()
        await asyncio.sleep(0.5)
        proxy.heal()
        deadline = time.monotonic() + BOUND
        while listener.connects < 2:
            assert time.monotonic() < deadline, "the silent LISTEN connection was never replaced"
            await asyncio.sleep(0.1)
        assert gaps
        store = await _open(url, listen=False)
        try:
            await store.pool.execute("SELECT pg_notify('seega_test', 'after')")
        finally:
            await store.close()
        while "after" not in heard:
            assert time.monotonic() < deadline, "the LISTEN opened again heard nothing"
            await asyncio.sleep(0.1)
    finally:
        await asyncio.wait_for(listener.close(), BOUND)


async def test_a_worker_cut_off_without_reset_takes_jobs_again_once_the_network_is_back(url: str, proxy: Proxy) -> None:
    """The review's worker partition: its queue connection went silent and the worker,
    alive, never took a job again. Now its statements time out (30 s, the default), it
    connects again and answers the next job."""
    from bot.ai_jobs import QueueAiRunner
    from engine.ai import TurnRequest

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    worker = subprocess.Popen(
        [sys.executable, "-m", "bot.ai_jobs", proxy.url(url), "--heartbeat", "2"],
        cwd=root,
        env=env,
        start_new_session=True,
    )
    runner = await QueueAiRunner(url, timeout=150).start()
    try:
        assert len(await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=1))) == 2
        proxy.partition()
        await asyncio.sleep(5)
        proxy.heal()
        assert len(await runner.choose_turn(TurnRequest("standard", 5, level="easy", seed=2))) == 2
        assert worker.poll() is None
    finally:
        await runner.aclose()
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
