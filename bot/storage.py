"""SQLite storage (aiosqlite): games, challenges, ratings, settings. All SQL lives here.

Why it is shaped this way:

* One connection per process in autocommit mode; every write that needs more than one
  statement runs inside ``BEGIN IMMEDIATE`` under an asyncio lock, so concurrent
  coroutines never interleave statements inside each other's transactions, and other
  processes (shards) on the same file wait on SQLite's write lock (``busy_timeout``).
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
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.results import StorageBusyError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The packaged ``NNN_name.sql`` files (package data of ``bot``).
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: Most game updates written in one statement (12 parameters each, well under SQLite's limit).
UPDATE_BATCH = 200
#: Attempts at a statement when the database stays locked beyond ``busy_timeout``.
LOCK_RETRIES = 5


class ChannelTakenError(Exception):
    """Inserting a game failed: the channel already has an active game."""


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``."""

    id: int
    guild_id: int
    channel_id: int
    variant: str
    size: int
    options: str
    setup: str | None
    black_id: int
    black_name: str
    black_level: str | None
    white_id: int
    white_name: str
    white_level: str | None
    actions: str
    spn: str
    status: str
    result: str | None
    reason: str | None
    version: int
    created_at: float
    updated_at: float
    ended_at: float | None
    deadline: float | None
    remind_at: float | None
    end_offer: str | None

    @property
    def action_list(self) -> list[str]:
        """The actions played, in order."""
        return self.actions.split()


@dataclass(frozen=True)
class NewGame:
    """What is needed to insert a game."""

    guild_id: int
    channel_id: int
    variant: str
    size: int
    options: str
    black_id: int
    black_name: str
    black_level: str | None
    white_id: int
    white_name: str
    white_level: str | None
    spn: str
    created_at: float
    setup: str | None = None
    deadline: float | None = None
    remind_at: float | None = None


@dataclass(frozen=True)
class GameUpdate:
    """The new state of a game after a turn (or an end); written with compare-and-swap.

    The row's ``version`` becomes ``expected_version + 1``.
    """

    game_id: int
    expected_version: int
    actions: str
    spn: str
    updated_at: float
    status: str = "active"
    result: str | None = None
    reason: str | None = None
    ended_at: float | None = None
    deadline: float | None = None
    remind_at: float | None = None
    end_offer: str | None = None


@dataclass(frozen=True)
class ChallengeRow:
    """One row of ``challenges``."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    size: int
    variant: str
    color: str
    thread: int
    status: str
    created_at: float
    expires_at: float
    game_id: int | None


@dataclass(frozen=True)
class RatingRow:
    """One row of ``ratings``: a player's Glicko-2 rating on one size in one guild."""

    guild_id: int
    size: int
    user_id: int
    name: str
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    updated_at: float = 0.0


@dataclass(frozen=True)
class SettingsRow:
    """One row of ``guild_settings``."""

    guild_id: int
    turn_timeout: int = 3600
    challenge_timeout: int = 600
    default_variant: str = "standard"


@dataclass(frozen=True)
class TallyRow:
    """Counts of finished games from one player's side, grouped by opponent kind."""

    bot_level: str | None
    wins: int
    losses: int
    draws: int


#: A function that rates a finished game: (black, white, black's score 1/0.5/0) -> new rows.
Rater = Callable[[RatingRow, RatingRow, float], tuple[RatingRow, RatingRow]]


def _columns(cls: type) -> str:
    return ", ".join(f.name for f in fields(cls))


_GAME_COLS = _columns(GameRow)
_CHALLENGE_COLS = _columns(ChallengeRow)
_RATING_COLS = _columns(RatingRow)


def migrations() -> list[tuple[int, str, str]]:
    """The packaged migrations as ``(version, name, sql)``, in order."""
    out = []
    for entry in MIGRATIONS_DIR.iterdir():
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


def _is_locked(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


class Storage:
    """The database of one process. Open with ``await Storage.open(path)``; ``await close()``.

    Every method is a coroutine returning dataclasses; none returns raw rows.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
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
        path: str | os.PathLike[str],
        *,
        migrate: bool = True,
        target_version: int | None = None,
        busy_timeout_ms: int = 10_000,
        synchronous: str = "NORMAL",
        checkpoint_interval: float | None = 1.0,
    ) -> Storage:
        """Open (creating if needed) the database file and bring its schema up to date.

        Args:
            path: the SQLite file (``SEEGA_DB``), or ``:memory:``.
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
        if self._ckpt_conn is not None:
            with contextlib.suppress(sqlite3.Error):
                await self._ckpt_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            await self._ckpt_conn.close()
            self._ckpt_conn = None
        await self._conn.close()

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

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction, serialised in-process, retried if locked."""

        async def attempt() -> T:
            async with self._lock, self._transaction() as conn:
                result = await body(conn)
            self._writes += 1
            return result

        return await self._retry(attempt)

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        async def op() -> aiosqlite.Row | None:
            async with self._lock:
                rows = list(await self._conn.execute_fetchall(sql, params))
            return rows[0] if rows else None

        return await self._retry(op)

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

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async def op() -> list[aiosqlite.Row]:
            async with self._lock:
                return list(await self._conn.execute_fetchall(sql, params))

        return await self._retry(op)

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
            lambda c: c.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
            )
        )
        for version, name, sql in migrations():
            if target_version is not None and version > target_version:
                break

            async def apply(
                conn: aiosqlite.Connection, version: int = version, name: str = name, sql: str = sql
            ) -> bool:
                async with conn.execute("SELECT 1 FROM schema_version WHERE version = ?", (version,)) as cur:
                    if await cur.fetchone():
                        return False
                for statement in _statements(sql):
                    await conn.execute(statement)
                await conn.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (version, name))
                return True

            if await self._write(apply):
                log.info("database %s: applied migration %s", self.path, name)
        return await self.schema_version()

    # ----------------------------------------------------------------- games
    async def insert_game(self, game: NewGame, challenge_id: int | None = None) -> GameRow:
        """Insert an active game (and settle its challenge in the same transaction).

        Raises:
            ChannelTakenError: the channel already has an active game.
            LookupError: the challenge is no longer pending.
        """

        async def body(conn: aiosqlite.Connection) -> GameRow:
            try:
                cur = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, variant, size, options, setup, black_id, black_name,"
                    " black_level, white_id, white_name, white_level, actions, spn, status, version, created_at,"
                    " updated_at, deadline, remind_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, 'active', 0,"
                    " ?, ?, ?, ?)",
                    (
                        game.guild_id, game.channel_id, game.variant, game.size, game.options, game.setup,
                        game.black_id, game.black_name, game.black_level, game.white_id, game.white_name,
                        game.white_level, game.spn, game.created_at, game.created_at, game.deadline, game.remind_at,
                    ),
                )  # fmt: skip
            except sqlite3.IntegrityError as exc:
                raise ChannelTakenError(str(exc)) from None
            game_id = cur.lastrowid
            if challenge_id is not None:
                cur = await conn.execute(
                    "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ? AND status = 'pending'",
                    (game_id, challenge_id),
                )
                if cur.rowcount != 1:
                    raise LookupError(f"challenge {challenge_id} is no longer pending")
            async with conn.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)) as c:
                row = await c.fetchone()
            assert row is not None
            return GameRow(*row)

        return await self._write(body)

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's active game, if any."""
        row = await self._fetchone(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        )
        return GameRow(*row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        row = await self._fetchone(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return GameRow(*row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game (active or not)."""
        row = await self._fetchone(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return GameRow(*row) if row else None

    async def all_games(self, status: str | None = None) -> list[GameRow]:
        """Every game (of ``status``), oldest first: for checks and maintenance."""
        if status is None:
            rows = await self._fetchall(f"SELECT {_GAME_COLS} FROM games ORDER BY id")
        else:
            rows = await self._fetchall(f"SELECT {_GAME_COLS} FROM games WHERE status = ? ORDER BY id", (status,))
        return [GameRow(*r) for r in rows]

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
            " remind_at = v.remind_at, end_offer = v.end_offer, version = games.version + 1"
            " FROM v WHERE games.id = v.id AND games.version = v.version RETURNING games.id"
        )
        async with self._lock:
            rows = await self._conn.execute_fetchall(sql, params)
        self._writes += 1
        return {int(r[0]) for r in rows}

    async def finish_game(
        self, update: GameUpdate, rater: Rater | None = None, black_score: float | None = None
    ) -> tuple[bool, tuple[tuple[RatingRow, RatingRow], tuple[RatingRow, RatingRow]] | None]:
        """End a game and, if ``rater`` is given, rate it, all in one transaction.

        Returns:
            ``(applied, ratings)``: ``applied`` is ``False`` when the version check failed
            (nothing written); ``ratings`` is ``((black_before, white_before),
            (black_after, white_after))`` for a rated game.
        """
        u = update

        async def body(
            conn: aiosqlite.Connection,
        ) -> tuple[bool, tuple[tuple[RatingRow, RatingRow], tuple[RatingRow, RatingRow]] | None]:
            cur = await conn.execute(
                "UPDATE games SET actions = ?, spn = ?, status = ?, result = ?, reason = ?, updated_at = ?,"
                " ended_at = ?, deadline = NULL, remind_at = NULL, end_offer = NULL, version = version + 1"
                " WHERE id = ? AND version = ?",
                (
                    u.actions,
                    u.spn,
                    u.status,
                    u.result,
                    u.reason,
                    u.updated_at,
                    u.ended_at,
                    u.game_id,
                    u.expected_version,
                ),
            )
            if cur.rowcount != 1:
                return False, None
            if rater is None or black_score is None:
                return True, None
            async with conn.execute(
                "SELECT guild_id, size, black_id, black_name, white_id, white_name FROM games WHERE id = ?",
                (u.game_id,),
            ) as c:
                g = await c.fetchone()
            assert g is not None
            guild_id, size = g[0], g[1]
            before = []
            for user_id, name in ((g[2], g[3]), (g[4], g[5])):
                async with conn.execute(
                    f"SELECT {_RATING_COLS} FROM ratings WHERE guild_id = ? AND size = ? AND user_id = ?",
                    (guild_id, size, user_id),
                ) as c:
                    r = await c.fetchone()
                before.append(RatingRow(*r) if r else RatingRow(guild_id, size, user_id, name))
            black_after, white_after = rater(before[0], before[1], black_score)
            for old, new in ((before[0], black_after), (before[1], white_after)):
                await conn.execute(
                    f"INSERT OR REPLACE INTO ratings ({_RATING_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    tuple(getattr(new, f.name) for f in fields(RatingRow)),
                )
                await conn.execute(
                    "INSERT INTO rating_history (guild_id, size, user_id, game_id, before, after, rd_before, rd_after,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, size, new.user_id, u.game_id, old.rating, new.rating, old.rd, new.rd, u.updated_at),
                )
            return True, ((before[0], before[1]), (black_after, white_after))

        return await self._write(body)

    async def set_aside(self, game_id: int, reason: str, now: float) -> None:
        """Mark a game ``corrupt`` (it frees its channel and is never used again)."""

        async def body(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE games SET status = 'corrupt', reason = ?, updated_at = ?, ended_at = ?, deadline = NULL,"
                " remind_at = NULL, version = version + 1 WHERE id = ?",
                (reason[:500], now, now, game_id),
            )

        await self._write(body)

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Clear a game's reminder time if the game has not changed since it was read."""
        return await self._update_one(
            "UPDATE games SET remind_at = NULL WHERE id = ? AND version = ? AND remind_at IS NOT NULL",
            (game_id, version),
        )

    # ----------------------------------------------------------------- timers
    async def due_reminders(self, now: float) -> list[GameRow]:
        """Active games whose half-time reminder is due."""
        rows = await self._fetchall(
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' AND remind_at IS NOT NULL AND remind_at <= ?"
            " ORDER BY remind_at",
            (now,),
        )
        return [GameRow(*r) for r in rows]

    async def due_timeouts(self, now: float) -> list[GameRow]:
        """Active games whose turn deadline has passed."""
        rows = await self._fetchall(
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?"
            " ORDER BY deadline",
            (now,),
        )
        return [GameRow(*r) for r in rows]

    async def bot_games_waiting(self) -> list[GameRow]:
        """Active games against the bot (the service checks whose turn it is)."""
        rows = await self._fetchall(
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' AND (black_level IS NOT NULL"
            " OR white_level IS NOT NULL) ORDER BY id"
        )
        return [GameRow(*r) for r in rows]

    async def next_due(self) -> float | None:
        """The earliest pending reminder, deadline or challenge expiry, or ``None``."""
        row = await self._fetchone(
            "SELECT MIN(t) FROM ("
            " SELECT MIN(remind_at) AS t FROM games WHERE status = 'active' AND remind_at IS NOT NULL"
            " UNION ALL SELECT MIN(deadline) FROM games WHERE status = 'active' AND deadline IS NOT NULL"
            " UNION ALL SELECT MIN(expires_at) FROM challenges WHERE status = 'pending')"
        )
        return float(row[0]) if row and row[0] is not None else None

    # ----------------------------------------------------------------- challenges
    async def insert_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: tuple[int, str],
        opponent: tuple[int, str],
        size: int,
        variant: str,
        color: str,
        thread: bool,
        created_at: float,
        expires_at: float,
    ) -> ChallengeRow:
        """Store a pending challenge."""

        async def body(conn: aiosqlite.Connection) -> ChallengeRow:
            cur = await conn.execute(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, opponent_id,"
                " opponent_name, size, variant, color, thread, status, created_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
                (guild_id, channel_id, challenger[0], challenger[1], opponent[0], opponent[1], size, variant, color,
                 int(thread), created_at, expires_at),
            )  # fmt: skip
            async with conn.execute(f"SELECT {_CHALLENGE_COLS} FROM challenges WHERE id = ?", (cur.lastrowid,)) as c:
                row = await c.fetchone()
            assert row is not None
            return ChallengeRow(*row)

        return await self._write(body)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        row = await self._fetchone(f"SELECT {_CHALLENGE_COLS} FROM challenges WHERE id = ?", (challenge_id,))
        return ChallengeRow(*row) if row else None

    async def settle_challenge(self, challenge_id: int, status: str) -> bool:
        """Move a pending challenge to ``status`` (declined, expired, withdrawn); ``False``
        if it was no longer pending."""
        return await self._update_one(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'pending'", (status, challenge_id)
        )

    async def due_challenges(self, now: float) -> list[ChallengeRow]:
        """Pending challenges past their expiry."""
        rows = await self._fetchall(
            f"SELECT {_CHALLENGE_COLS} FROM challenges WHERE status = 'pending' AND expires_at <= ?"
            " ORDER BY expires_at",
            (now,),
        )
        return [ChallengeRow(*r) for r in rows]

    # ----------------------------------------------------------------- ratings and history
    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings on every size, smallest board first."""
        rows = await self._fetchall(
            f"SELECT {_RATING_COLS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY size", (guild_id, user_id)
        )
        return [RatingRow(*r) for r in rows]

    async def leaderboard(self, guild_id: int, size: int, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Rated players on ``size`` by rating, highest first (ties: more games, then earlier id)."""
        rows = await self._fetchall(
            f"SELECT {_RATING_COLS} FROM ratings WHERE guild_id = ? AND size = ? AND games > 0"
            " ORDER BY rating DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, size, limit, offset),
        )
        return [RatingRow(*r) for r in rows]

    async def tallies(self, guild_id: int, user_id: int) -> list[TallyRow]:
        """A player's finished-game record, grouped by the opponent's bot level
        (``None``: against people)."""
        rows = await self._fetchall(
            "SELECT opp_level,"
            " SUM(CASE WHEN (color = 'b' AND result = '1-0') OR (color = 'w' AND result = '0-1') THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN (color = 'b' AND result = '0-1') OR (color = 'w' AND result = '1-0') THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END)"
            " FROM ("
            "  SELECT 'b' AS color, white_level AS opp_level, result FROM games"
            "   WHERE guild_id = ? AND black_id = ? AND black_level IS NULL AND status = 'finished'"
            "  UNION ALL"
            "  SELECT 'w', black_level, result FROM games"
            "   WHERE guild_id = ? AND white_id = ? AND white_level IS NULL AND status = 'finished'"
            " ) GROUP BY opp_level",
            (guild_id, user_id, guild_id, user_id),
        )
        return [TallyRow(r[0], int(r[1] or 0), int(r[2] or 0), int(r[3] or 0)) for r in rows]

    async def active_count(self, guild_id: int, user_id: int) -> int:
        """Active games the player is in."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'active' AND"
            " ((black_id = ? AND black_level IS NULL) OR (white_id = ? AND white_level IS NULL))",
            (guild_id, user_id, user_id),
        )
        return int(row[0]) if row else 0

    async def history(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameRow]:
        """Recent games (not corrupt) of the guild or of one player, newest first."""
        if user_id is None:
            rows = await self._fetchall(
                f"SELECT {_GAME_COLS} FROM games WHERE guild_id = ? AND status != 'corrupt' ORDER BY id DESC LIMIT ?",
                (guild_id, limit),
            )
        else:
            rows = await self._fetchall(
                f"SELECT {_GAME_COLS} FROM games WHERE guild_id = ? AND status != 'corrupt' AND"
                " ((black_id = ? AND black_level IS NULL) OR (white_id = ? AND white_level IS NULL))"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, user_id, limit),
            )
        return [GameRow(*r) for r in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, size: int | None = None
    ) -> list[tuple[int, float, float]]:
        """A player's rating changes as ``(game_id, before, after)``, oldest first."""
        if size is None:
            rows = await self._fetchall(
                "SELECT game_id, before, after FROM rating_history WHERE guild_id = ? AND user_id = ? ORDER BY id",
                (guild_id, user_id),
            )
        else:
            rows = await self._fetchall(
                "SELECT game_id, before, after FROM rating_history WHERE guild_id = ? AND user_id = ? AND size = ?"
                " ORDER BY id",
                (guild_id, user_id, size),
            )
        return [(int(r[0]), float(r[1]), float(r[2])) for r in rows]

    # ----------------------------------------------------------------- settings
    async def settings(self, guild_id: int) -> SettingsRow:
        """The guild's settings (defaults if never set)."""
        row = await self._fetchone(
            "SELECT guild_id, turn_timeout, challenge_timeout, default_variant FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return SettingsRow(*row) if row else SettingsRow(guild_id)

    async def save_settings(self, settings: SettingsRow) -> None:
        """Store the guild's settings."""

        async def body(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_timeout, challenge_timeout, default_variant)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout,"
                " challenge_timeout = excluded.challenge_timeout, default_variant = excluded.default_variant",
                (settings.guild_id, settings.turn_timeout, settings.challenge_timeout, settings.default_variant),
            )

        await self._write(body)
