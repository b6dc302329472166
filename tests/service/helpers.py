"""Shared helpers of the service tests: databases, players, scripted games, snapshots."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import Moderator, Player, TurnResult
from bot.service import GameService
from bot.service.limits import Limits
from bot.storage import NewGame, Storage, is_postgres_url
from bot.storage.postgres import numbered
from engine import Position, Ruleset

GUILD = 10
ALICE = Player(101, "Alice")
BOB = Player(102, "Bob")
CAROL = Player(103, "Carol")
#: The moderator capability of GUILD (the service refuses moderation without it).
MOD = Moderator(GUILD, 199)

TABLES = ("games", "challenges", "ratings", "rating_history", "guild_settings", "schema_version")


#: A test database: a SQLite file's path, or a PostgreSQL URL (the ``db_path`` fixture).
Db = Path | str


def _in_thread(coro: Any) -> Any:
    """Run a coroutine to the end on its own loop in a thread (usable inside a running loop)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")


async def _pg(url: str, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple[Any, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        out = []
        async with conn.transaction():
            for sql, params in statements:
                out.append([tuple(r) for r in await conn.fetch(numbered(sql), *params)])
        return out
    finally:
        await conn.close()


def query(db: Db, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (``?`` placeholders), read straight from the database, bypassing the bot."""
    if isinstance(db, str) and is_postgres_url(db):
        return list(_in_thread(_pg(db, [(sql, params)]))[0])
    conn = sqlite3.connect(db)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def execute(db: Db, sql: str, params: Sequence[Any] = ()) -> None:
    """Change the database behind the bot's back (another process, a corrupting hand)."""
    if isinstance(db, str) and is_postgres_url(db):
        _in_thread(_pg(db, [(sql, params)]))
        return
    conn = sqlite3.connect(db)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


@contextlib.asynccontextmanager
async def write_lock_held(db: Db) -> AsyncIterator[None]:
    """Another process holds the database's write lock (SQLite) / the games table (PostgreSQL)."""
    if isinstance(db, str) and is_postgres_url(db):
        conn = await asyncpg.connect(db)
        tx = conn.transaction()
        await tx.start()
        await conn.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # reads go on, writes wait
        try:
            yield
        finally:
            await tx.rollback()
            await conn.close()
        return
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def snapshot(db: Db) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, for "the database did not change" checks."""
    out = {}
    for table in TABLES:
        columns = "version, name" if table == "schema_version" else "*"  # applied_at differs in type only
        out[table] = sorted(query(db, f"SELECT {columns} FROM {table}"), key=repr)
    return out


#: Caps out of the way, for tests that open many games or challenges between the same two
#: people on purpose (the caps themselves are tested in test_limits.py).
NO_CAPS = Limits(pending_challenges=10_000, pending_to_one_opponent=10_000, active_games=10_000)


async def make_service(
    db: Db, clock: FakeClock | None = None, seed: int = 1, limits: Limits | None = None
) -> GameService:
    """A service over a real database (SQLite file or PostgreSQL), a fake clock and the real AI in a thread."""
    storage = await Storage.open(db)
    return GameService(storage, ThreadAiRunner(), None, clock or FakeClock(), random.Random(seed), limits=limits)


async def close_service(service: GameService) -> None:
    """Close the database and the AI thread."""
    await service.storage.close()
    service.ai.close()


async def start_people(
    service: GameService,
    channel: int,
    black: Player = ALICE,
    white: Player = BOB,
    size: int = 5,
    variant: str = "standard",
) -> TurnResult:
    """A game between two people, ``black`` as Black, through challenge and accept."""
    ch = await service.challenge(GUILD, channel, black, white, size, variant, "black")
    return await service.accept_challenge(ch.challenge.id, white.user_id)


async def insert_from(
    service: GameService,
    channel: int,
    spn: str,
    black: Player = ALICE,
    white: Player = BOB,
    variant: str = "standard",
    size: int = 5,
    options: tuple[str, ...] = (),
    guild_id: int = GUILD,
) -> int:
    """Insert an active game that starts from the position ``spn`` (for chains, blocks...)."""
    rules = Ruleset.make(variant, size, list(options))
    pos = Position.from_spn(spn, rules)
    row = await service.storage.insert_game(
        NewGame(
            guild_id=guild_id,
            channel_id=channel,
            variant=variant,
            size=size,
            options=rules.options_text(),
            black_id=black.user_id,
            black_name=black.name,
            black_level=black.bot_level,
            white_id=white.user_id,
            white_name=white.name,
            white_level=white.bot_level,
            spn=pos.spn(),
            created_at=service.clock.now(),
            setup=pos.spn(),
        )
    )
    return row.id


async def play_action(service: GameService, channel: int, user_id: int, action: str) -> TurnResult:
    """Play one action text through the matching service command."""
    if action in ("end", "pass"):
        return await service.end_turn(channel, user_id)
    if action.startswith("x"):
        return await service.remove(channel, user_id, action[1:])
    if "-" in action:
        return await service.move(channel, user_id, action)
    return await service.place(channel, user_id, action)


async def place_all(service: GameService, channel: int, result: TurnResult, rng: random.Random) -> TurnResult:
    """Play random legal placements for whoever is to move until the movement phase (an
    offer to end by count is refused before it)."""
    while result.game_over is None and result.game.phase == "p":
        assert result.to_move is not None
        if result.to_move.is_bot:
            result = await service.bot_turn(channel)
            continue
        result = await play_action(service, channel, result.to_move.user_id, rng.choice(result.legal))
    return result


async def play_out(
    service: GameService, channel: int, result: TurnResult, rng: random.Random, max_commands: int = 2000
) -> TurnResult:
    """Play random legal commands for whoever is to move until the game ends."""
    for _ in range(max_commands):
        if result.game_over is not None or result.to_move is None:
            return result
        if result.to_move.is_bot:  # a long run of forced passes: the adapter asks the bot again
            result = await service.bot_turn(channel)
            continue
        action = rng.choice(result.legal)
        result = await play_action(service, channel, result.to_move.user_id, action)
    raise AssertionError("the game did not end")
