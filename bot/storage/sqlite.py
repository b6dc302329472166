"""The SQLite backend (aiosqlite): the default, one file, no server.

Why it is shaped this way:

* One write connection per process in autocommit mode; every write that needs more than
  one statement runs inside ``BEGIN IMMEDIATE`` under an asyncio lock, so concurrent
  coroutines never interleave statements inside each other's transactions, and other
  processes (shards) on the same file wait on SQLite's write lock (``busy_timeout``).
* Reads run on a second, read-only connection (``query_only``) without that lock: in WAL
  mode a reader never waits for a writer, so while a write of this process waits for
  another process's lock (up to ``LOCK_RETRIES`` x ``busy_timeout``), ``/seega history``
  or a board still answers. Each read is its own autocommit statement and sees every
  write this process has committed (a write returns only after its ``COMMIT``); reads
  inside a write transaction use the write connection (:class:`_SqliteTransaction`). An
  in-memory (``:memory:``) or temporary (``""``) database is private to its connection,
  so there reads share the write connection and its lock, as before (no other process
  can hold its lock anyway).
* A game is its ruleset, players and action list; ``spn`` is stored too so that loading
  can check the replay. Every change to a game is a compare-and-swap on ``version``
  (``UPDATE ... WHERE id = ? AND version = ?``): two processes cannot both apply a turn.
  Turns of different games arriving together are written by one statement (each row
  keeping its own version check), one trip to the database thread for all of them.
* WAL journal: readers never block the writer; ``synchronous=NORMAL`` keeps every
  committed transaction across a process crash (a power cut may lose the last few, never
  tear one). Pass ``synchronous="FULL"`` to trade speed for power-cut durability too.
  A second connection copies the WAL back into the database in the background, so no
  turn's commit has to run a checkpoint.
* Numbered migrations in ``bot/migrations/NNN_name.sql`` are applied in order, each in
  its own transaction with the ``schema_version`` row, so a crash mid-migration leaves
  the previous version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.results import StorageBusyError
from bot.storage.contract import BACKENDS, Storage, Transaction, sqlite_path
from bot.storage.rows import ConstraintError, GameUpdate

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The packaged ``NNN_name.sql`` files (package data of ``bot``).
MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
#: Most game updates written in one statement (12 parameters each, well under SQLite's limit).
UPDATE_BATCH = 200
#: Attempts at a statement when the database stays locked beyond ``busy_timeout``.
LOCK_RETRIES = 5


def migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, str, str]]:
    """The packaged migrations of a backend as ``(version, name, sql)``, in order."""
    out = []
    for entry in directory.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            out.append((int(name[:3]), name, entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps; found {versions}")
    return out


def _statements(sql: str) -> list[str]:
    """Split a script into complete statements (``sqlite3.complete_statement`` decides)."""
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()):
        raise RuntimeError(f"incomplete SQL statement in a migration: {buf.strip()[:80]!r}")
    return out


def _shared_file(path: str) -> bool:
    """Whether a second connection to ``path`` opens the same database (not ``:memory:``,
    not a temporary ``""`` database, not an in-memory URI)."""
    return path not in ("", ":memory:") and not path.startswith("file:") and "mode=memory" not in path


def _is_locked(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


class _SqliteTransaction:
    """:class:`~bot.storage.contract.Transaction` over the connection inside ``BEGIN IMMEDIATE``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cur = await self.conn.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise ConstraintError(str(exc)) from None
        return int(cur.rowcount)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        try:
            rows = list(await self.conn.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:
            raise ConstraintError(str(exc)) from None
        return rows[0] if rows else None

    async def lock(self, keys: Sequence[int]) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the database's one write lock."""


class SqliteStorage(Storage):
    """The database of one process on a SQLite file."""

    backend = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__()
        self._conn = conn
        #: The connection of reads outside transactions: ``_conn`` until :meth:`open`
        #: opens a read-only one (a file database only).
        self._reader = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._pending: list[tuple[GameUpdate, asyncio.Future[bool]]] = []
        self._flusher: asyncio.Future[None] | None = None
        self._ckpt_conn: aiosqlite.Connection | None = None
        self._checkpointer: asyncio.Future[None] | None = None
        #: Writes done and writes covered by the last checkpoint (to skip idle checkpoints).
        self._writes = 0
        self._checkpointed = 0

    # ----------------------------------------------------------------- lifecycle
    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        migrate: bool = True,
        target_version: int | None = None,
        busy_timeout_ms: int = 10_000,
        synchronous: str = "NORMAL",
        checkpoint_interval: float | None = 1.0,
        **_other_backends: Any,
    ) -> SqliteStorage:
        """Open (creating if needed) the database file and bring its schema up to date.

        Args:
            target: the SQLite file (``SEEGA_DB``: a path or ``sqlite:///path``), or ``:memory:``.
            migrate: apply pending migrations (tests turn it off to build old schemas).
            target_version: stop migrating at this version (tests of old schemas).
            busy_timeout_ms: how long a statement waits for another process's write lock.
            synchronous: ``NORMAL`` (crash-safe, fast) or ``FULL`` (also power-cut safe).
            checkpoint_interval: seconds between WAL checkpoints run on a second
                connection in the background, so that no turn waits behind one (SQLite's
                automatic checkpoint would run inside some unlucky turn's commit); ``None``
                keeps SQLite's automatic checkpoints.
        """
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        path = sqlite_path(target)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        store = cls(conn, str(path))
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await store._retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if migrate:
                await store.migrate(target_version)
            if _shared_file(str(path)):
                await store._open_reader(busy_timeout_ms)
            if checkpoint_interval is not None and str(path) != ":memory:":
                await store._start_checkpoints(busy_timeout_ms, checkpoint_interval)
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection after the queued game updates are written."""
        if self._flusher is not None and not self._flusher.done():
            await self._flusher
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._reader is not self._conn:
            await self._reader.close()
            self._reader = self._conn
        if self._ckpt_conn is not None:
            with contextlib.suppress(sqlite3.Error):
                await self._ckpt_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            await self._ckpt_conn.close()
            self._ckpt_conn = None
        await self._conn.close()

    async def _open_reader(self, busy_timeout_ms: int) -> None:
        """The read-only connection of reads, so that they never queue behind a write."""
        reader = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            reader.row_factory = aiosqlite.Row
            # a reader waits only in SQLite's rare exclusive moments (WAL recovery)
            await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            raise
        self._reader = reader

    async def _start_checkpoints(self, busy_timeout_ms: int, interval: float) -> None:
        """Turn off checkpoints inside commits and run them from a second connection."""
        self._ckpt_conn = await aiosqlite.connect(self.path, isolation_level=None)
        await self._ckpt_conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await self._conn.execute("PRAGMA wal_autocheckpoint = 0")
        self._checkpointer = asyncio.ensure_future(self._checkpoint_loop(interval))

    async def _checkpoint_loop(self, interval: float) -> None:
        """Copy the WAL back into the database every ``interval`` seconds (PASSIVE: it
        never waits for writers or readers, and writers never wait for it)."""
        assert self._ckpt_conn is not None
        while True:
            await asyncio.sleep(interval)
            if self._writes == self._checkpointed:
                continue
            writes = self._writes
            try:
                await self._ckpt_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                self._checkpointed = writes
            except sqlite3.Error as exc:
                log.warning("WAL checkpoint failed (will retry): %s", exc)

    async def _retry(self, op: Callable[[], Awaitable[T]]) -> T:
        """Run ``op``, retrying with backoff while the database stays locked."""
        delay = 0.05
        for attempt in range(LOCK_RETRIES):
            try:
                return await op()
            except sqlite3.OperationalError as exc:
                if not _is_locked(exc):
                    raise
                log.warning("database locked (attempt %d/%d): %s", attempt + 1, LOCK_RETRIES, exc)
                await asyncio.sleep(delay * (1 + random.random()))
                delay *= 2
        raise StorageBusyError(
            "The game database is busy right now; nothing was changed. Please try again in a moment.",
            "storage_busy",
        )

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on error."""
        await self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            await self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:  # also when COMMIT itself failed (a lock, a full disk)
                await self._conn.execute("ROLLBACK")
            raise

    async def _write(self, body: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction, serialised in-process, retried if locked."""

        async def attempt() -> T:
            async with self._lock, self._transaction() as conn:
                result = await body(_SqliteTransaction(conn))
            self._writes += 1
            return result

        return await self._retry(attempt)

    async def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """A read outside any transaction: on the read-only connection, without waiting
        for this process's writes (or on the one connection of an in-memory database)."""

        async def op() -> list[Any]:
            if self._reader is not self._conn:
                return list(await self._reader.execute_fetchall(sql, params))
            async with self._lock:
                return list(await self._conn.execute_fetchall(sql, params))

        return await self._retry(op)

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._read(sql, params)
        return rows[0] if rows else None

    async def _update_one(self, sql: str, params: Sequence[Any]) -> bool:
        """One conditional ``UPDATE`` on its own (autocommit); whether it changed a row.

        The ``WHERE`` clause carries the compare-and-swap condition, so a row that
        changed since it was read is left alone and ``False`` is returned.
        """

        async def op() -> bool:
            async with self._lock:
                cur = await self._conn.execute(sql, params)
                self._writes += 1
                return cur.rowcount == 1

        return await self._retry(op)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return await self._read(sql, params)

    # ----------------------------------------------------------------- migrations
    async def schema_version(self) -> int:
        """The applied schema version (0 for an empty database)."""
        row = await self._fetchone("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
        if row is None:
            return 0
        row = await self._fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0) if row else 0

    async def migrate(self, target_version: int | None = None) -> int:
        """Apply every pending migration (up to ``target_version``); returns the version."""
        await self._write(
            lambda tx: tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
            )
        )
        for version, name, sql in migrations():
            if target_version is not None and version > target_version:
                break

            async def apply(tx: Transaction, version: int = version, name: str = name, sql: str = sql) -> bool:
                if await tx.fetchone("SELECT 1 FROM schema_version WHERE version = ?", (version,)):
                    return False
                for statement in _statements(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (version, name))
                return True

            if await self._write(apply):
                log.info("database %s: applied migration %s", self.path, name)
        return await self.schema_version()

    async def update_game(self, update: GameUpdate) -> bool:
        """Write a game's new state if its version is still ``expected_version``.

        Returns ``False`` (and changes nothing) when somebody else changed the game first.

        Updates from concurrent games are grouped: while one batch is being written, new
        updates queue up and go together in the next single ``UPDATE ... FROM (VALUES
        ...) RETURNING`` statement. One statement is one transaction, and each row keeps
        its own version check, so grouping changes nothing but the cost: one round trip
        to the database thread per batch instead of per turn.
        """
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((update, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush_updates())
        return await future

    async def _flush_updates(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:UPDATE_BATCH], self._pending[UPDATE_BATCH:]
            updates = [u for u, _ in batch]

            async def write(updates: list[GameUpdate] = updates) -> set[int]:
                return await self._write_batch(updates)

            try:
                applied = await self._retry(write)
            except BaseException as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for u, future in batch:
                if not future.done():
                    future.set_result(u.game_id in applied)

    async def _write_batch(self, updates: list[GameUpdate]) -> set[int]:
        """One compare-and-swap statement for many games; returns the ids written."""
        row = "(" + ", ".join("?" * 12) + ")"
        params: list[Any] = []
        for u in updates:
            params.extend(
                (
                    u.game_id,
                    u.expected_version,
                    u.actions,
                    u.spn,
                    u.status,
                    u.result,
                    u.reason,
                    u.updated_at,
                    u.ended_at,
                    u.deadline,
                    u.remind_at,
                    u.end_offer,
                )
            )
        sql = (
            "WITH v (id, version, actions, spn, status, result, reason, updated_at, ended_at, deadline, remind_at,"
            " end_offer) AS (VALUES " + ", ".join([row] * len(updates)) + ")"
            " UPDATE games SET actions = v.actions, spn = v.spn, status = v.status, result = v.result,"
            " reason = v.reason, updated_at = v.updated_at, ended_at = v.ended_at, deadline = v.deadline,"
            " remind_at = v.remind_at, end_offer = v.end_offer, paused_at = NULL, version = games.version + 1"
            " FROM v WHERE games.id = v.id AND games.version = v.version RETURNING games.id"
        )
        async with self._lock:
            rows = await self._conn.execute_fetchall(sql, params)
        self._writes += 1
        return {int(r[0]) for r in rows}


BACKENDS["sqlite"] = SqliteStorage
