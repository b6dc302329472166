"""Storage on real SQLite files: pragmas, migrations from every version, compare-and-swap."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from bot.storage import ChannelTakenError, GameUpdate, NewGame, Storage, migrations
from tests.service.helpers import snapshot

LATEST = len(migrations())


def _new_game(channel: int = 1) -> NewGame:
    return NewGame(1, channel, "standard", 5, "", 1, "A", None, 2, "B", None, "5/5/5/5/5 b p 12/12 - 0 1", 100.0)


async def test_open_sets_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "a.db")
    try:
        conn = store._conn
        assert (await (await conn.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
        assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
        assert (await (await conn.execute("PRAGMA busy_timeout")).fetchone())[0] == 10_000
        assert await store.schema_version() == LATEST
    finally:
        await store.close()


async def test_migrations_are_numbered_and_reopen_is_a_no_op(tmp_path: Path) -> None:
    assert [v for v, _, _ in migrations()] == list(range(1, LATEST + 1))
    assert LATEST >= 3
    path = tmp_path / "b.db"
    store = await Storage.open(path)
    await store.close()
    before = snapshot(path)
    store = await Storage.open(path)
    await store.close()
    assert snapshot(path) == before


async def test_active_games_from_before_timers_get_a_deadline_and_time_out(tmp_path: Path) -> None:
    """Migration 003 added ``deadline`` without filling it: such games never timed out."""
    path = tmp_path / "old.db"
    store = await Storage.open(path, target_version=2)
    await store.close()
    conn = sqlite3.connect(path)
    cols = "id, guild_id, channel_id, variant, size, black_id, black_name, black_level, white_id, white_name,"
    cols += " white_level, spn, status, created_at, updated_at"
    rows = [
        (1, 1, 11, "standard", 5, 1, "A", None, 2, "B", None, "5/5/5/5/5 w p 12/12 - 0 1", "active", 1, 1),
        (2, 2, 12, "standard", 5, 1, "A", None, 0, "bot", "hard", "5/5/5/5/5 w p 12/12 - 0 1", "active", 1, 1),
        (3, 2, 13, "standard", 5, 1, "A", None, 0, "bot", "hard", "5/5/5/5/5 b p 12/12 - 0 1", "active", 1, 1),
        (4, 1, 14, "standard", 5, 1, "A", None, 2, "B", None, "5/5/5/5/5 b p 12/12 - 0 1", "finished", 1, 1),
    ]
    conn.executemany(f"INSERT INTO games ({cols}) VALUES ({', '.join('?' * 15)})", rows)
    conn.execute("INSERT INTO guild_settings (guild_id, turn_timeout) VALUES (1, 600)")
    conn.commit()
    conn.close()
    before = time.time()
    store = await Storage.open(path)
    after = time.time()
    try:
        people, bot_to_move, person_vs_bot, finished = [await store.game(i) for i in (1, 2, 3, 4)]
        assert people is not None and people.deadline is not None and people.remind_at is not None
        assert before + 600 - 1 <= people.deadline <= after + 600 + 1, "the guild's turn timeout, from now"
        assert abs(people.remind_at - (people.deadline - 300)) < 1
        assert bot_to_move is not None and bot_to_move.deadline is None, "the bot never times out"
        assert person_vs_bot is not None and person_vs_bot.deadline is not None
        assert person_vs_bot.deadline - before == pytest.approx(3600, abs=2), "the default timeout"
        assert finished is not None and finished.deadline is None
        due = await store.due_timeouts(people.deadline + 1)
        assert {r.id for r in due} == {1}
    finally:
        await store.close()


async def test_migrate_from_every_earlier_version_keeps_data(tmp_path: Path) -> None:
    for start in range(0, LATEST):
        path = tmp_path / f"from{start}.db"
        store = await Storage.open(path, target_version=start)
        assert await store.schema_version() == start
        await store.close()
        if start >= 1:  # data written by the code of that version: only its columns
            conn = sqlite3.connect(path)
            conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, variant, size, black_id, black_name, white_id,"
                " white_name, spn, created_at, updated_at) VALUES (7, 1, 1, 'standard', 5, 1, 'A', 2, 'B',"
                " '5/5/5/5/5 b p 12/12 - 0 1', 100, 100)"
            )
            conn.execute(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, opponent_id,"
                " opponent_name, size, variant, color, created_at, expires_at)"
                " VALUES (1, 2, 1, 'A', 2, 'B', 5, 'standard', 'random', 100, 700)"
            )
            conn.commit()
            conn.close()
        store = await Storage.open(path)
        try:
            assert await store.schema_version() == LATEST
            if start >= 1:
                row = await store.game(7)
                assert row is not None and row.black_name == "A"
                assert row.deadline is not None, "an active game without a deadline gets one (004)"
                assert (await store.challenge(1)) is not None
            # the latest schema works in full
            await store.insert_game(_new_game(channel=2))
            assert await store.leaderboard(1, 5) == []
            assert await store.next_due() is not None or start == 0
        finally:
            await store.close()


async def test_one_active_game_per_channel_and_compare_and_swap(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "c.db")
    try:
        row = await store.insert_game(_new_game())
        with pytest.raises(ChannelTakenError):
            await store.insert_game(_new_game())
        update = GameUpdate(row.id, 0, "a1 b1", "5/5/5/5/bb3 w p 10/12 - 0 2", 101.0)
        assert await store.update_game(update)
        assert not await store.update_game(update)  # version 0 is gone
        again = await store.game(row.id)
        assert again is not None and again.version == 1 and again.actions == "a1 b1"
        finished = GameUpdate(row.id, 1, "a1 b1", again.spn, 102.0, "finished", "1-0", "resignation", 102.0)
        applied, ratings = await store.finish_game(finished)
        assert applied and ratings is None
        await store.insert_game(_new_game())  # the channel is free again
    finally:
        await store.close()


async def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "d.db")
    await store.close()
    conn = sqlite3.connect(tmp_path / "d.db")
    conn.execute("PRAGMA foreign_keys = ON")
    try:
        conn.execute(
            "INSERT INTO rating_history (guild_id, size, user_id, game_id, before, after, rd_before, rd_after,"
            " created_at) VALUES (1, 5, 1, 999, 1500, 1500, 350, 350, 0)"
        )
        raise AssertionError("a rating change for a missing game was accepted")
    except sqlite3.IntegrityError:
        pass
    finally:
        conn.close()


async def test_background_checkpoints(tmp_path: Path) -> None:
    import asyncio

    store = await Storage.open(tmp_path / "e.db", checkpoint_interval=0.02)
    try:
        auto = await store._conn.execute_fetchall("PRAGMA wal_autocheckpoint")
        assert next(iter(auto))[0] == 0  # no checkpoint inside a turn's commit
        row = await store.insert_game(_new_game())
        for v in range(20):
            assert await store.update_game(GameUpdate(row.id, v, "a1", row.spn, 100.0 + v))
        for _ in range(100):
            await asyncio.sleep(0.02)
            if store._checkpointed == store._writes:
                break
        assert store._checkpointed == store._writes > 20
    finally:
        await store.close()
    conn = sqlite3.connect(tmp_path / "e.db")
    assert conn.execute("SELECT version FROM games").fetchone()[0] == 20
    conn.close()
