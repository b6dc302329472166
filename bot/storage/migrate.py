"""``seega-bot migrate-db --to postgresql://...``: move a SQLite database to PostgreSQL.

Why it is shaped this way:

* Both databases are opened through the storage backends first, so each is at the
  latest schema (a SQLite file of an older release is migrated in place first, exactly
  as starting the new bot on it would) and the tables line up column for column.
* Everything is copied in ONE PostgreSQL transaction with ``ON CONFLICT DO NOTHING``,
  then verified in the same transaction: every source row must be in PostgreSQL with
  the same values, the counts must match, and every game that is not ``corrupt`` must
  replay with the engine to its stored position. Any difference rolls the whole copy
  back, so PostgreSQL is left as it was.
* Running it again is safe: rows already copied are skipped and then verified equal.
  A PostgreSQL database that already holds *other* data (a bot already running on it)
  fails the count check and is not touched.
* Ids are kept (challenges, rating history and the adapters' buttons refer to them);
  the identity sequences are moved past the highest copied id afterwards, so new rows
  do not collide.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from bot.storage.contract import Storage, is_postgres_url
from bot.storage.postgres import MIGRATION_TIMEOUT, PostgresStorage
from bot.storage.sqlite import SqliteStorage
from engine import Position, Ruleset

#: Tables in copy order (parents before children) with their key columns.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("games", ("id",)),
    ("challenges", ("id",)),
    ("guild_settings", ("guild_id",)),
    ("ratings", ("guild_id", "size", "user_id")),
    ("rating_history", ("id",)),
    ("user_languages", ("user_id",)),
    ("coach_reviews", ("game_id",)),
    ("coach_hints", ("id",)),
    ("coach_puzzle_ratings", ("guild_id", "user_id")),
    ("coach_puzzle_attempts", ("guild_id", "user_id", "puzzle_id")),
    ("coach_lessons", ("user_id", "lesson")),
    ("coach_settings", ("guild_id",)),
    ("coach_shown", ("guild_id", "user_id")),
    ("coach_open_lessons", ("user_id", "channel_id")),
    ("questions", ("id",)),
)
#: Tables whose ``id`` is an identity column whose sequence must follow the copied ids.
IDENTITY_TABLES = ("games", "challenges", "rating_history", "coach_hints", "questions")
#: Tables of the schema that are not copied: the migrations' own bookkeeping.
NOT_COPIED = ("schema_version",)


class MigrationError(RuntimeError):
    """The copy did not verify; nothing was changed in PostgreSQL."""


@dataclass
class MigrationReport:
    """What a run copied and checked."""

    counts: dict[str, int] = field(default_factory=dict)
    copied: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    corrupt: list[int] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report as lines for the terminal."""
        out = [
            f"{table}: {self.counts[table]} rows ({self.copied[table]} copied now, "
            f"{self.counts[table] - self.copied[table]} already there)"
            for table, _ in TABLES
        ]
        out.append(f"games replayed to their stored position: {self.replayed}")
        if self.corrupt:
            out.append(f"games set aside as corrupt (copied, not replayed): {', '.join(map(str, self.corrupt))}")
        return out


def replays(row: dict[str, Any]) -> bool:
    """Whether a game row's actions, played from its start, reach its stored position."""
    try:
        rules = Ruleset.make(row["variant"], row["size"], [o for o in str(row["options"]).split(",") if o])
        pos = Position.from_spn(row["setup"], rules) if row["setup"] else Position(rules)
        for action in str(row["actions"]).split():
            pos.play(action)
    except Exception:  # any engine refusal means the record does not replay
        return False
    return bool(pos.spn() == row["spn"])


async def unlisted_tables(source: SqliteStorage) -> list[str]:
    """The SQLite tables that are neither copied (:data:`TABLES`) nor bookkeeping (:data:`NOT_COPIED`)."""
    rows = await source._fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    known = {table for table, _ in TABLES} | set(NOT_COPIED)
    return sorted(str(r[0]) for r in rows if str(r[0]) not in known)


async def _columns(source: SqliteStorage, table: str) -> list[str]:
    rows = await source._fetchall(f"PRAGMA table_info({table})")
    return [str(r[1]) for r in rows]


async def migrate_database(source_path: str | os.PathLike[str], target_url: str) -> MigrationReport:
    """Copy the SQLite database at ``source_path`` into PostgreSQL at ``target_url``.

    Raises:
        MigrationError: a check failed (PostgreSQL is unchanged); the message says which.
    """
    if is_postgres_url(source_path):
        raise MigrationError("the source must be a SQLite database (a path or sqlite:///path)")
    if not is_postgres_url(target_url):
        raise MigrationError("--to must be a postgresql://user@host:port/db URL")
    if not os.path.exists(str(source_path).removeprefix("sqlite:///")):
        raise MigrationError(f"no SQLite database at {source_path}")
    source = await Storage.open(source_path, checkpoint_interval=None)
    assert isinstance(source, SqliteStorage)
    try:
        # One long transaction over every row: not bounded like a command (bot.storage.pgconn).
        target = await Storage.open(target_url, listen=False, command_timeout=MIGRATION_TIMEOUT, statement_timeout_ms=0)
        assert isinstance(target, PostgresStorage)
        try:
            if await source.schema_version() != await target.schema_version():
                raise MigrationError("the two databases are at different schema versions; update the bot first")
            return await _copy(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: SqliteStorage, target: PostgresStorage) -> MigrationReport:
    report = MigrationReport()
    unknown = await unlisted_tables(source)
    if unknown:  # a table this release does not know would be lost: refuse rather than drop it
        raise MigrationError(f"tables this migration does not know how to copy: {', '.join(unknown)}")
    async with target.pool.acquire() as conn, conn.transaction():
        await conn.execute("SET LOCAL idle_in_transaction_session_timeout = 0")  # checks run between statements
        for table, key in TABLES:
            columns = await _columns(source, table)
            pg_columns = [
                r[0]
                for r in await conn.fetch(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = $1"
                    " ORDER BY ordinal_position",
                    table,
                )
            ]
            if sorted(columns) != sorted(pg_columns):
                raise MigrationError(f"table {table}: columns differ ({columns} vs {pg_columns})")
            listed = ", ".join(columns)
            order = ", ".join(key)
            rows = [tuple(r) for r in await source._fetchall(f"SELECT {listed} FROM {table} ORDER BY {order}")]
            placeholders = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
            before = int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
            if rows:
                await conn.executemany(
                    f"INSERT INTO {table} ({listed}) VALUES ({placeholders}) ON CONFLICT DO NOTHING",
                    rows,
                )
            after = int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
            if after != len(rows):
                raise MigrationError(
                    f"table {table}: {len(rows)} rows in SQLite but {after} in PostgreSQL"
                    " (does the PostgreSQL database already hold other data?)"
                )
            await _verify_rows(conn, table, key, columns, rows)
            report.counts[table] = after
            report.copied[table] = after - before
        for table in IDENTITY_TABLES:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
            )
        for record in await conn.fetch("SELECT id, variant, size, options, setup, actions, spn, status FROM games"):
            row = dict(record)
            if row["status"] == "corrupt":
                report.corrupt.append(int(row["id"]))
            elif replays(row):
                report.replayed += 1
            else:
                raise MigrationError(f"game {row['id']} does not replay to its stored position")
    report.corrupt.sort()
    return report


async def _verify_rows(
    conn: Any, table: str, key: tuple[str, ...], columns: list[str], rows: list[tuple[Any, ...]]
) -> None:
    """Every SQLite row is in PostgreSQL with equal values (read back in key order)."""
    listed = ", ".join(columns)
    copied = [tuple(r) for r in await conn.fetch(f"SELECT {listed} FROM {table} ORDER BY {', '.join(key)}")]
    for ours, theirs in zip(rows, copied, strict=True):
        if ours != theirs:
            raise MigrationError(f"table {table}: row {ours[: len(key)]} differs in PostgreSQL: {theirs} vs {ours}")
