"""AI turns as jobs on PostgreSQL: the runner the bot uses with ``SEEGA_DB=postgresql://``,
and the ``seega-bot worker`` processes that run them on any machine.

Why it is shaped this way:

* The queue is pgqueuer's (a maintained library on PostgreSQL, asyncpg-native like our
  storage; docs/scaling.md says why it and not procrastinate). We write no queue: a job
  is enqueued with a ``dedupe_key``, picked with ``FOR UPDATE SKIP LOCKED`` by one
  worker, kept alive by the worker's heartbeat, and picked again by another worker when
  the heartbeat stops (a worker killed mid-search): the job is retried, not lost.
* A job's key is a digest of the request (the game's actions, level, ruleset...). The
  same request asked twice (the bot process restarted and resumed the bot turn) is one
  job, and its stored answer is handed to whoever asks.
* The answer goes into ``seega_ai_results`` and a ``NOTIFY seega_ai_results`` wakes the
  asking process, which ``LISTEN``\\ s (and polls now and then, should a notification be
  missed while reconnecting). The process that asked is the one that owns the game's
  shard, and the service applies the turn with its compare-and-swap, so the move is
  posted once even when a retried job answers twice.
* :class:`QueueAiRunner` has the :class:`bot.ai_pool.AiRunner` interface: the service
  does not know whether its AI is a local pool or a queue.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import multiprocessing
import signal
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta

import asyncpg
from pgqueuer import PgQueuer, Queries
from pgqueuer.models import Job

from engine.ai import TurnRequest, think

log = logging.getLogger(__name__)

ENTRYPOINT = "seega_ai_turn"
RESULTS_CHANNEL = "seega_ai_results"
#: Advisory lock held while one process installs the queue's tables.
INSTALL_LOCK = 0x5EE6B
#: Results older than this are deleted (a bot turn is applied within seconds).
RESULT_TTL = "1 hour"
RESULTS_DDL = (
    "CREATE TABLE IF NOT EXISTS seega_ai_results (key TEXT PRIMARY KEY, actions TEXT NOT NULL,"
    " created_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)


def encode(request: TurnRequest) -> tuple[str, bytes]:
    """The job key and payload of a request."""
    fields = dataclasses.asdict(request)
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:40], text.encode()


def decode(payload: bytes) -> TurnRequest:
    """The request of a job's payload."""
    fields = json.loads(payload)
    for name in ("options", "actions"):
        fields[name] = tuple(fields[name])
    return TurnRequest(**fields)


async def install(url: str) -> None:
    """Create pgqueuer's tables and ours once (processes starting together wait for one)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", INSTALL_LOCK)
        try:
            queries = Queries.from_asyncpg_connection(conn)
            if not await queries.schema_is_installed():
                await queries.install()
                log.info("installed the AI job queue's tables")
            await conn.execute(RESULTS_DDL)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", INSTALL_LOCK)
    finally:
        await conn.close()


class QueueAiRunner:
    """The bot's AI runner on PostgreSQL: enqueue, then wait for the answer.

    Args:
        url: the database (``SEEGA_DB``).
        timeout: seconds to wait for an answer before giving up (the service then
            plays a legal turn of its own and logs it: no worker is running).
        poll: seconds between checks for an answer whose notification was missed.
    """

    def __init__(self, url: str, timeout: float = 300.0, poll: float = 2.0) -> None:
        self.url = url
        self.timeout = timeout
        self.poll = poll
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncpg.Connection | None = None
        self._queries: Queries | None = None
        self._waiting: dict[str, asyncio.Event] = {}

    async def start(self) -> QueueAiRunner:
        """Connect, install the queue if needed, and listen for answers."""
        await install(self.url)
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=4)
        self._queries = Queries.from_asyncpg_pool(self._pool)
        self._listener = await asyncpg.connect(self.url)
        await self._listener.add_listener(RESULTS_CHANNEL, self._on_result)
        return self

    def _on_result(self, _conn: object, _pid: int, _channel: str, key: str) -> None:
        event = self._waiting.get(key)
        if event is not None:
            event.set()

    async def _answer(self, key: str) -> list[str] | None:
        assert self._pool is not None
        text = await self._pool.fetchval("SELECT actions FROM seega_ai_results WHERE key = $1", key)
        return None if text is None else str(text).split()

    async def choose_turn(self, request: TurnRequest) -> list[str]:
        """Enqueue the request (once, whoever asks) and wait for a worker's answer."""
        assert self._queries is not None, "call start() first"
        key, payload = encode(request)
        event = self._waiting.setdefault(key, asyncio.Event())
        try:
            answer = await self._answer(key)
            if answer is not None:
                return answer
            await self._queries.enqueue(ENTRYPOINT, payload, dedupe_key=key, on_conflict="skip")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.timeout
            while True:
                event.clear()
                answer = await self._answer(key)
                if answer is not None:
                    return answer
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeoutError(f"no AI worker answered within {self.timeout:.0f}s (is `seega-bot worker` up?)")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(event.wait(), min(self.poll, left))
        finally:
            self._waiting.pop(key, None)

    async def aclose(self) -> None:
        """Stop listening and close the connections."""
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
            self._listener = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    def close(self) -> None:
        """Nothing left to release synchronously (see :meth:`aclose`)."""


# --------------------------------------------------------------------------- workers


async def serve(url: str, processes: int, heartbeat: float = 30.0, batch: int = 1) -> None:
    """Run one worker: take AI jobs from the queue, think in ``processes`` processes."""
    await install(url)
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    executor = ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context(method))
    conn = await asyncpg.connect(url)
    db = await asyncpg.create_pool(url, min_size=1, max_size=2)
    pgq = PgQueuer.from_asyncpg_connection(conn)
    done = 0

    @pgq.entrypoint(ENTRYPOINT)
    async def ai_turn(job: Job) -> None:
        nonlocal done
        assert job.payload is not None
        key = encode(decode(job.payload))[0]
        if await db.fetchval("SELECT 1 FROM seega_ai_results WHERE key = $1", key) is None:
            actions = await asyncio.get_running_loop().run_in_executor(executor, think, decode(job.payload))
            async with db.acquire() as c, c.transaction():
                await c.execute(
                    "INSERT INTO seega_ai_results (key, actions) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                    key,
                    " ".join(actions),
                )
                await c.execute("SELECT pg_notify($1, $2)", RESULTS_CHANNEL, key)
        else:  # answered by a worker that died before marking the job done: tell again
            await db.execute("SELECT pg_notify($1, $2)", RESULTS_CHANNEL, key)
        done += 1
        if done % 200 == 0:
            await db.execute(f"DELETE FROM seega_ai_results WHERE created_at < now() - interval '{RESULT_TTL}'")

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, pgq.shutdown.set)
    log.info("AI worker: %d processes, heartbeat %.0fs", processes, heartbeat)
    try:
        await pgq.run(
            batch_size=batch,
            max_concurrent_tasks=max(2 * batch, processes),
            heartbeat_timeout=timedelta(seconds=heartbeat),
            dequeue_timeout=timedelta(seconds=5),
        )
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        await db.close()
        await conn.close()


def run_workers(url: str, processes: int, heartbeat: float = 30.0) -> int:
    """``seega-bot worker``: serve until SIGTERM/Ctrl-C; returns the exit status."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(url, processes, heartbeat))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.ai_jobs URL [--processes N] [--heartbeat S]`` (tests, benchmarks)."""
    parser = argparse.ArgumentParser(prog="python -m bot.ai_jobs")
    parser.add_argument("url")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--heartbeat", type=float, default=30.0, help="seconds before a silent worker's job is retried")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return run_workers(args.url, args.processes, args.heartbeat)


if __name__ == "__main__":
    sys.exit(main())
