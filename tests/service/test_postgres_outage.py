"""PostgreSQL restarts under a running bot and its AI worker (an upgrade, a failover, a
crash): nothing is lost, the next command works, and no process keeps stale settings."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg

from bot.ai_jobs import QueueAiRunner
from bot.clock import FakeClock
from bot.service import GameService
from bot.storage import Storage
from tests.postgres import TempPostgres
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, MOD, NO_CAPS, close_service, make_service, start_people

ROOT = Path(__file__).resolve().parents[2]


async def test_a_restart_of_the_server_loses_nothing() -> None:
    with TempPostgres() as server:  # its own server: the others' tests keep theirs
        url = server.create_database()
        one, two = await make_service(url, limits=NO_CAPS), await make_service(url, limits=NO_CAPS)
        storage = await Storage.open(url)
        runner = await QueueAiRunner(url, timeout=120).start()
        bots = GameService(storage, runner, None, FakeClock())
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        worker = subprocess.Popen(
            [sys.executable, "-m", "bot.ai_jobs", url, "--heartbeat", "1"], cwd=ROOT, env=env, start_new_session=True
        )
        try:
            await start_people(one, 1)
            await one.place(1, ALICE.user_id, "a1 b1")
            assert (await two.challenge(GUILD, 2, ALICE, BOB)).challenge.variant == "standard"  # cached

            server.restart()

            # the next command works (the broken pooled connection is replaced)
            placed = await one.place(1, BOB.user_id, "a2 b2")
            assert placed.game.turn == 3
            # a settings change after the restart reaches the other process at once: its
            # settings listener reconnected, and dropped what it had cached meanwhile
            await one.set_settings(GUILD, None, None, "lane", moderator=MOD)
            for attempt in range(200):
                ch = await two.challenge(GUILD, 10 + attempt, ALICE, BOB)
                if ch.challenge.variant == "lane":
                    break
                await asyncio.sleep(0.05)
            assert ch.challenge.variant == "lane"
            # the worker connected again and still takes the bot's turns
            started = await asyncio.wait_for(bots.play_bot(GUILD, 3, CAROL, "easy", 5, None, "white"), 120)
            assert started.events and started.events[0].player.is_bot
            os.killpg(worker.pid, signal.SIGTERM)
            assert worker.wait(timeout=30) == 0  # a clean stop after the reconnection
        finally:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=30)
            await runner.aclose()
            await storage.close()
            await close_service(one)
            await close_service(two)


class _LosesOneReply:
    """The storage's pool, but the next game UPDATE is committed by the server and its
    reply lost: the connection ends while the statement is in flight (a failover, a
    network blip, review atk41a finding 5)."""

    def __init__(self, pool: Any) -> None:
        self._real = pool
        self.armed = False
        self.skip = 0  # game UPDATEs to let through first
        self.lost = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def acquire(self, *args: Any, **kwargs: Any) -> _Acquired:
        return _Acquired(self, self._real.acquire(*args, **kwargs))

    def lose(self, sql: str) -> bool:
        """Whether the reply to ``sql`` (just run) is to be lost."""
        if not (self.armed and sql.startswith("UPDATE games")):
            return False
        if self.skip:
            self.skip -= 1
            return False
        self.armed = False
        self.lost += 1
        return True


class _Acquired:
    """A pooled connection whose ``execute`` may lose its reply (:class:`_LosesOneReply`)."""

    def __init__(self, pool: _LosesOneReply, acquiring: Any) -> None:
        self.pool = pool
        self.acquiring = acquiring

    async def __aenter__(self) -> _Conn:
        return _Conn(self.pool, await self.acquiring.__aenter__())

    async def __aexit__(self, *exc: object) -> Any:
        return await self.acquiring.__aexit__(*exc)


class _Conn:
    def __init__(self, pool: _LosesOneReply, conn: Any) -> None:
        self._pool = pool
        self._conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    async def execute(self, sql: str, *args: Any) -> Any:
        done = await self._conn.execute(sql, *args)
        if self._pool.lose(sql):
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return done


async def test_a_turn_whose_commit_reply_is_lost_is_answered_as_played(postgres_server: TempPostgres) -> None:
    """The move was stored, yet its retry found the new version and the player was told
    "It is not your turn", and nobody was told of the move; a stored bot reply was
    never shown. Both now come back as played, once."""
    service = await make_service(postgres_server.create_database(), limits=NO_CAPS)
    pool = _LosesOneReply(service.storage._pool)  # type: ignore[attr-defined]
    service.storage._pool = pool  # type: ignore[attr-defined]
    try:
        await start_people(service, 1)
        pool.armed = True
        placed = await service.place(1, ALICE.user_id, "a1 b1")
        assert pool.lost == 1, "the reply to the UPDATE was lost"
        assert placed.game.turn == 2 and placed.game.to_move is not None
        assert placed.game.to_move.user_id == BOB.user_id, "Bob is told it is his turn"
        game = await service.game(1)
        assert game is not None and game.turn == 2, "stored once"

        await service.play_bot(GUILD, 2, CAROL, "easy", 5, None, "black")
        pool.armed, pool.skip = True, 1  # Carol's move goes through; the bot's reply is lost
        moved = await service.place(2, CAROL.user_id, "a1 b1")
        assert pool.lost == 1 + 1
        assert [e.player.is_bot for e in moved.events] == [False, True], "the bot's stored reply is shown"
        assert moved.game.turn == 3 and moved.game.to_move is not None
        assert moved.game.to_move.user_id == CAROL.user_id
    finally:
        await close_service(service)
