"""The PostgreSQL backend (asyncpg): one database shared by many bot processes.

Why it is shaped this way:

* A pool of connections per process: statements from different games run side by side
  instead of waiting for one connection, and asyncpg prepares each statement once per
  connection. Writes of several statements run in one transaction on one connection.
* A turn is one statement, the compare-and-swap ``UPDATE games ... WHERE id = $1 AND
  version = $2``. Under READ COMMITTED a second writer of the same row waits for the
  first one's commit, then re-checks the ``WHERE`` on the new row and changes nothing:
  exactly one of two simultaneous clicks from two processes wins. One statement per turn
  (no batching as on SQLite) also means two processes never lock rows in different
  orders, so turns cannot deadlock.
* Rating a finished game takes advisory locks on (guild, size, player) in sorted order
  inside the game's transaction, so two games of one player finishing at once are rated
  one after the other, not both from the same old rating.
* ``lock_timeout`` (the ``busy_timeout_ms`` option) bounds how long a statement waits for
  a row lock; past it, and on deadlocks or lost connections, the write is retried with
  backoff and then answered with :class:`~bot.results.StorageBusyError`, as on SQLite.
* Saving a guild's settings sends ``NOTIFY seega_settings`` in the same transaction; one
  ``LISTEN`` connection per process calls :meth:`Storage.on_settings_changed` listeners,
  so every process drops its cached copy as soon as the change commits. If that
  connection drops (a server restart), every cached copy is dropped and it reconnects
  (:mod:`bot.storage.listen`).
* Numbered migrations in ``bot/migrations/postgresql/NNN_name.sql`` (same numbers and
  meaning as SQLite's) run each in its own transaction under an advisory lock, so
  processes starting together do not race to migrate.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg

from bot.results import StorageBusyError
from bot.settings import redact_url
from bot.storage import pgconn
from bot.storage.contract import BACKENDS, Storage, Transaction
from bot.storage.listen import Listener
from bot.storage.rows import ConstraintError, GameUpdate
from bot.storage.sqlite import MIGRATIONS_DIR, migrations

log = logging.getLogger(__name__)

T = TypeVar("T")

PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgresql"
#: The advisory lock held while migrating (any constant both versions of the bot agree on).
MIGRATION_LOCK = 0x5EE6A
SETTINGS_CHANNEL = "seega_settings"
#: Seconds one migration may run (it may rewrite a large table; commands get far less).
MIGRATION_TIMEOUT = 3600.0
LOCK_RETRIES = 5
#: Errors after which the same write may simply be tried again.
RETRYABLE = (
    asyncpg.LockNotAvailableError,
    asyncpg.DeadlockDetectedError,
    asyncpg.SerializationError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    ConnectionError,
)
#: Errors after which trying again would only wait as long again: a statement the client
#: or the server timed out (a network cut, a server too slow), no free pooled connection.
#: Answered at once as "busy, try again" (outside review atk41a: without bounds, a network
#: cut left every command waiting for ever).
TIMED_OUT = (TimeoutError, asyncpg.QueryCanceledError)

#: Errors after which a write's outcome is unknown: the connection ended while the
#: statement was in flight, so the server may have committed it before its reply was lost.
IN_FLIGHT = (asyncpg.ConnectionDoesNotExistError, ConnectionError)


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders (the contract's SQL) -> ``$1, $2, ...`` (PostgreSQL's)."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _count(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def pg_migrations() -> list[tuple[int, str, str]]:
    """The PostgreSQL migrations as ``(version, name, sql)``, in order."""
    return migrations(PG_MIGRATIONS_DIR)


class _PgTransaction:
    """:class:`~bot.storage.contract.Transaction` over one connection inside ``BEGIN``."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _count(await self.conn.execute(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintError(str(exc)) from None

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        try:
            row: Sequence[Any] | None = await self.conn.fetchrow(numbered(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintError(str(exc)) from None
        return row

    async def lock(self, keys: Sequence[int]) -> None:
        for key in sorted(set(keys)):
            await self.conn.execute("SELECT pg_advisory_xact_lock($1)", key)


class PostgresStorage(Storage):
    """The database of one process on a PostgreSQL server."""

    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str, acquire_timeout: float = pgconn.ACQUIRE_TIMEOUT) -> None:
        super().__init__()
        self._pool = pool
        self.acquire_timeout = acquire_timeout
        self.url = url
        #: What logs and messages may show (the password hidden).
        self.path = redact_url(url)
        self._listener: Listener | None = None

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        migrate: bool = True,
        target_version: int | None = None,
        busy_timeout_ms: int = 10_000,
        pool_size: int = 10,
        listen: bool = True,
        command_timeout: float = pgconn.COMMAND_TIMEOUT,
        statement_timeout_ms: int = pgconn.STATEMENT_TIMEOUT_MS,
        acquire_timeout: float = pgconn.ACQUIRE_TIMEOUT,
        **_sqlite_only: Any,
    ) -> PostgresStorage:
        """Connect a pool to ``target`` (``postgresql://user@host:port/db``) and migrate.

        Args:
            migrate: apply pending migrations (tests turn it off to build old schemas).
            target_version: stop migrating at this version (tests of old schemas).
            busy_timeout_ms: ``lock_timeout``: how long a statement waits for a row lock.
            pool_size: the most connections this process opens.
            listen: open the ``LISTEN`` connection for settings changes.
            command_timeout: seconds to wait for a statement's answer (:mod:`bot.storage.pgconn`).
            statement_timeout_ms: the server's ``statement_timeout`` (0: none).
            acquire_timeout: seconds to wait for a free pooled connection.
        """
        url = str(target)
        pool = await pgconn.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            command_timeout=command_timeout,
            statement_timeout_ms=statement_timeout_ms,
            lock_timeout=f"{int(busy_timeout_ms)}ms",
            application_name="seega-bot",
        )
        store = cls(pool, url, acquire_timeout)
        try:
            if migrate:
                await store.migrate(target_version)
            if listen:
                store._listener = await Listener(url, SETTINGS_CHANNEL, store._on_payload, store._gap).start()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self._pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool (the AI job queue shares it)."""
        return self._pool

    def _on_payload(self, payload: str) -> None:
        if payload.isdigit():
            self._settings_changed(int(payload))

    def _gap(self) -> None:
        """Settings notifications may have been missed: every cached guild is stale."""
        self._settings_changed(None)

    async def _settings_saved(self, tx: Transaction, guild_id: int) -> None:
        await tx.execute(f"SELECT pg_notify('{SETTINGS_CHANNEL}', ?)", (str(guild_id),))

    # ----------------------------------------------------------------- statements
    async def _retry(self, op: Callable[[], Awaitable[T]]) -> T:
        delay = 0.05
        for attempt in range(LOCK_RETRIES):
            try:
                return await op()
            except TIMED_OUT as exc:
                log.warning("the database did not answer in time (%s)", type(exc).__name__)
                raise StorageBusyError(
                    "The game database is busy right now; nothing was changed. Please try again in a moment.",
                    "storage_busy",
                ) from None
            except RETRYABLE as exc:
                log.warning("database busy (attempt %d/%d): %s", attempt + 1, LOCK_RETRIES, exc)
                await asyncio.sleep(delay * (1 + random.random()))
                delay *= 2
        raise StorageBusyError(
            "The game database is busy right now; nothing was changed. Please try again in a moment.",
            "storage_busy",
        )

    def _acquire(self) -> Any:
        """A pooled connection, waiting at most :attr:`acquire_timeout` for a free one
        (``TimeoutError``): a pool whose connections all hang must not hold every later
        command of the process with them."""
        return self._pool.acquire(timeout=self.acquire_timeout)

    async def _write(self, body: Callable[[Transaction], Awaitable[T]]) -> T:
        async def attempt() -> T:
            async with self._acquire() as conn, conn.transaction():
                return await body(_PgTransaction(conn))

        return await self._retry(attempt)

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        async def op() -> Sequence[Any] | None:
            async with self._acquire() as conn:
                row: Sequence[Any] | None = await conn.fetchrow(numbered(sql), *params)
                return row

        return await self._retry(op)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        async def op() -> list[Sequence[Any]]:
            async with self._acquire() as conn:
                return list(await conn.fetch(numbered(sql), *params))

        return await self._retry(op)

    async def _update_one(self, sql: str, params: Sequence[Any]) -> bool:
        async def op() -> bool:
            async with self._acquire() as conn:
                return _count(await conn.execute(numbered(sql), *params)) == 1

        return await self._retry(op)

    async def update_game(self, update: GameUpdate) -> bool:
        """The compare-and-swap of one game, safe to retry after a lost reply.

        A connection that ends while the UPDATE is in flight (a failover, a network blip)
        leaves its outcome unknown: the server may have committed it. Run again, it
        found its own version and reported a lost race, so a stored move was answered
        "It is not your turn", nobody was told of it, and a stored bot reply was never
        posted (review atk41a, finding 5). After such an error, a failed swap reads the
        row back and counts as done when it holds exactly what this update wrote. A
        client-side timeout is the same doubt: before it is answered "busy", the row is
        read back once.
        """
        lost = False

        async def op() -> bool:
            nonlocal lost
            try:
                async with self._acquire() as conn:
                    if _count(await conn.execute(numbered(GameUpdate.SQL), *update.params())) == 1:
                        return True
            except (*IN_FLIGHT, TimeoutError):
                lost = True
                raise
            return lost and await self._holds(update)

        try:
            return await self._retry(op)
        except StorageBusyError:
            if lost and await self._holds(update):
                return True
            raise

    async def _holds(self, update: GameUpdate) -> bool:
        """Whether the game's row is the one ``update`` writes (its version one up)."""
        row = await self._fetchone(
            "SELECT version, actions, spn, status, result FROM games WHERE id = ?", (update.game_id,)
        )
        return row is not None and tuple(row) == (
            update.expected_version + 1,
            update.actions,
            update.spn,
            update.status,
            update.result,
        )

    # ----------------------------------------------------------------- migrations
    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
                return 0
            return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def migrate(self, target_version: int | None = None) -> int:
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
            for version, name, sql in pg_migrations():
                if target_version is not None and version > target_version:
                    break
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    if await conn.fetchval("SELECT 1 FROM schema_version WHERE version = $1", version):
                        continue
                    # A migration may rewrite a large table: not bounded like a command.
                    await conn.execute("SET LOCAL statement_timeout = 0")
                    await conn.execute(sql, timeout=MIGRATION_TIMEOUT)
                    await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, $2)", version, name)
                log.info("database %s: applied migration %s", self.path, name)
        return await self.schema_version()


BACKENDS["postgresql"] = PostgresStorage
