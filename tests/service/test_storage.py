"""Storage on real databases (a SQLite file, a PostgreSQL server): connection settings,
migrations from every version, compare-and-swap, constraints, durability of writes."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import ChallengeCaps, ChannelTakenError, GameUpdate, NewGame, Storage, migrations
from bot.storage.postgres import pg_migrations
from bot.texts import NAME_LIMIT
from tests.service.helpers import Db, execute, query, snapshot, write_lock_held

LATEST = len(migrations())
EMPTY_5 = "5/5/5/5/5 b p 12/12 - 0 1"


def _new_game(channel: int = 1) -> NewGame:
    return NewGame(1, channel, "standard", 5, "", 1, "A", None, 2, "B", None, "5/5/5/5/5 b p 12/12 - 0 1", 100.0)


async def test_open_sets_wal_foreign_keys_and_busy_timeout(db_path: Db) -> None:
    store = await Storage.open(db_path)
    try:
        assert await store.schema_version() == LATEST
        if store.backend == "sqlite":
            conn = store._conn  # type: ignore[attr-defined]
            assert (await (await conn.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
            assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
            assert (await (await conn.execute("PRAGMA busy_timeout")).fetchone())[0] == 10_000
        else:  # the same wait for a locked row, as lock_timeout on every pooled connection
            assert store.backend == "postgresql"
            assert await store._fetchone("SHOW lock_timeout") == ("10s",)
    finally:
        await store.close()


def test_both_backends_have_the_same_migrations() -> None:
    """Every schema change is written for both backends, under the same number and name."""
    assert [(v, n) for v, n, _ in pg_migrations()] == [(v, n) for v, n, _ in migrations()]


async def test_migrations_are_numbered_and_reopen_is_a_no_op(db_path: Db) -> None:
    assert [v for v, _, _ in migrations()] == list(range(1, LATEST + 1))
    assert LATEST >= 3
    path = db_path
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


async def test_migrate_from_every_earlier_version_keeps_data(new_db: Callable[[], Db]) -> None:
    for start in range(0, LATEST):
        path = new_db()
        store = await Storage.open(path, target_version=start)
        assert await store.schema_version() == start
        await store.close()
        if start >= 1:  # data written by the code of that version: only its columns
            execute(
                path,
                "INSERT INTO games (id, guild_id, channel_id, variant, size, black_id, black_name, white_id,"
                " white_name, spn, created_at, updated_at) VALUES (7, 1, 1, 'standard', 5, 1, 'A', 2, 'B',"
                " '5/5/5/5/5 b p 12/12 - 0 1', 100, 100)",
            )
            execute(
                path,
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, opponent_id,"
                " opponent_name, size, variant, color, created_at, expires_at)"
                " VALUES (1, 2, 1, 'A', 2, 'B', 5, 'standard', 'random', 100, 700)",
            )
        store = await Storage.open(path)
        try:
            assert await store.schema_version() == LATEST
            if start >= 1:
                row = await store.game(7)
                assert row is not None and row.black_name == "A"
                assert (row.deadline is not None) == (start < 4), "an active game from before 004 gets a deadline"
                assert row.turn_timeout is None, "a game from before 016 follows the server's setting"
                assert (await store.challenge(1)) is not None
            # the latest schema works in full (a game in the challenge's channel 2 would close it)
            inserted = await store.insert_game(replace(_new_game(channel=3), turn_timeout=45))
            assert inserted.turn_timeout == 45 and (await store.game(inserted.id)) == inserted, "016: its own time"
            assert await store.leaderboard(1, 5) == []
            assert await store.next_due() is not None or start == 0
            if start >= 1:  # 012: a challenge may be closed by a game started in its channel
                assert await store.settle_challenge(1, "closed")
                assert await store.refused_challenge(1, 1, 2, 0.0) is None, "017: only declined ones"
        finally:
            await store.close()


async def test_the_latest_refused_challenge_between_two_people(db_path: Db) -> None:
    """017: when a challenge was declined, found per challenger and opponent."""
    store = await Storage.open(db_path)
    try:
        caps = ChallengeCaps(5, 3, 1)
        ids = []
        for at, opponent, status in ((100.0, 2, "declined"), (200.0, 2, "withdrawn"), (300.0, 3, "declined")):
            row = await store.insert_challenge(1, 9, (1, "A"), (opponent, "B"), 5, "standard", "random", False, at,
                                               at + 600, caps)  # fmt: skip
            assert row.settled_at is None
            assert await store.settle_challenge(row.id, status, at + 10)
            ids.append(row.id)
        found = await store.refused_challenge(1, 1, 2, 0.0)
        # the latest declined one: a withdrawn one holds nothing (play-test pt41)
        assert found is not None and (found.id, found.status, found.settled_at) == (ids[0], "declined", 110.0)
        assert await store.refused_challenge(1, 1, 2, 110.0) is None, "only after since"
        assert await store.refused_challenge(2, 1, 3, 0.0) is None, "another server"
        assert await store.refused_challenge(1, 2, 1, 0.0) is None, "the other way round"
        expired = await store.insert_challenge(1, 8, (1, "A"), (4, "D"), 5, "standard", "random", False, 1.0, 2.0, caps)
        assert await store.settle_challenge(expired.id, "expired", 3.0)
        assert await store.refused_challenge(1, 1, 4, 0.0) is None, "an expired challenge was not refused"
    finally:
        await store.close()


async def test_one_active_game_per_channel_and_compare_and_swap(db_path: Db) -> None:
    store = await Storage.open(db_path)
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


async def test_foreign_keys_are_enforced(db_path: Db) -> None:
    from bot.storage.rows import ConstraintError

    store = await Storage.open(db_path)
    try:

        async def orphan(tx: object) -> None:
            await tx.execute(  # type: ignore[attr-defined]
                "INSERT INTO rating_history (guild_id, size, user_id, game_id, before, after, rd_before, rd_after,"
                " created_at) VALUES (1, 5, 1, 999, 1500, 1500, 350, 350, 0)"
            )

        with pytest.raises(ConstraintError):
            await store._write(orphan)
        assert query(db_path, "SELECT COUNT(*) FROM rating_history") == [(0,)]
    finally:
        await store.close()


async def test_background_checkpoints(db_path: Db) -> None:
    """SQLite: WAL checkpoints run beside the turns, never inside one's commit. PostgreSQL
    has no such duty (the server checkpoints); there every committed turn must be visible
    to another connection at once."""
    store = await Storage.open(db_path, checkpoint_interval=0.02)
    if store.backend == "postgresql":
        try:
            row = await store.insert_game(_new_game())
            for v in range(20):
                assert await store.update_game(GameUpdate(row.id, v, "a1", row.spn, 100.0 + v))
                assert query(db_path, "SELECT version FROM games") == [(v + 1,)]
        finally:
            await store.close()
        return
    assert isinstance(db_path, Path)
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
    assert query(db_path, "SELECT version FROM games") == [(20,)]


async def test_timers_of_other_shards_are_left_to_their_process(db_path: Db) -> None:
    """A process running shards 0 and 2 of 4 sees only the timers of guilds on them."""
    from bot.storage import Shards, shard_of

    store = await Storage.open(db_path)
    try:
        for shard in range(4):
            guild = (shard << 22) + 12345 + (7 << 22) * 4  # a guild on that shard
            assert shard_of(guild, 4) == shard
            game = NewGame(guild, 100 + shard, "standard", 5, "", 1, "A", None, 2, "B", None, EMPTY_5, 100.0,
                           deadline=200.0 + shard, remind_at=150.0 + shard)  # fmt: skip
            await store.insert_game(game)
            await store.insert_challenge(guild, 200 + shard, (1, "A"), (2, "B"), 5, "standard", "random", False, 100.0,
                                         300.0 + shard)  # fmt: skip
        assert len(await store.due_timeouts(1000.0)) == 4
        store.shards = Shards(4, [0, 2])
        assert sorted(shard_of(r.guild_id, 4) for r in await store.due_timeouts(1000.0)) == [0, 2]
        assert sorted(shard_of(r.guild_id, 4) for r in await store.due_reminders(1000.0)) == [0, 2]
        assert sorted(shard_of(c.guild_id, 4) for c in await store.due_challenges(1000.0)) == [0, 2]
        assert await store.next_due() == 150.0
        store.shards = Shards(4, [1, 3])
        assert await store.next_due() == 151.0
        assert [shard_of(r.guild_id, 4) for r in await store.due_timeouts(201.5)] == [1]
    finally:
        await store.close()


async def test_a_paused_clock_is_not_due_and_resumes_moved(db_path: Db) -> None:
    """The console table stops a game's clock while it is closed: its deadline and
    reminder are not due, and resuming moves both by the time given; a turn played
    while paused (never at the console) starts the clock again."""
    store = await Storage.open(db_path)
    try:
        game = replace(_new_game(), deadline=200.0, remind_at=150.0)
        row = await store.insert_game(game)
        assert await store.pause_clock(row.id, row.version, 120.0)
        assert not await store.pause_clock(row.id, row.version + 1, 121.0), "paused already"
        assert await store.due_timeouts(1000.0) == [] and await store.due_reminders(1000.0) == []
        assert await store.next_due() is None
        paused = await store.game(row.id)
        assert paused is not None and paused.paused_at == 120.0 and paused.version == row.version + 1
        assert not await store.resume_clock(row.id, row.version, 500.0, 380.0), "the version is checked"
        assert await store.resume_clock(row.id, paused.version, 500.0, 380.0)
        resumed = await store.game(row.id)
        assert resumed is not None and (resumed.deadline, resumed.remind_at, resumed.paused_at) == (580.0, 530.0, None)
        assert resumed.updated_at == 500.0 and await store.next_due() == 530.0
        assert await store.pause_clock(row.id, resumed.version, 510.0)
        update = GameUpdate(row.id, resumed.version + 1, "a1,b1", EMPTY_5, 520.0, deadline=900.0, remind_at=700.0)
        assert await store.update_game(update)
        played = await store.game(row.id)
        assert played is not None and played.paused_at is None and await store.next_due() == 700.0
    finally:
        await store.close()


async def test_concurrent_finishes_of_one_player_lose_no_rating(new_db: Callable[[], Db]) -> None:
    """Two games of Alice end at the same instant through two connections (two processes):
    both results count in her rating (the rating rows are read and written under a lock)."""
    from bot.ratings import rate_game  # the bot's own Glicko-2 rater

    db = new_db()
    stores = [await Storage.open(db), await Storage.open(db)]
    try:
        rows = []
        for channel, opponent in ((1, 2), (2, 3)):
            game = NewGame(1, channel, "standard", 5, "", 1, "Alice", None, opponent, f"P{opponent}", None,
                           "5/5/5/5/5 b p 12/12 - 0 1", 100.0)  # fmt: skip
            rows.append(await stores[0].insert_game(game))
        for _ in range(5):  # repeat: the race must never be lost, not just usually
            results = await asyncio.gather(
                *(
                    s.finish_game(
                        GameUpdate(r.id, r.version, "", r.spn, 101.0, "finished", "1-0", "resignation", 101.0),
                        rate_game,
                        1.0,
                    )
                    for s, r in zip(stores, rows, strict=True)
                )
            )
            assert all(applied for applied, _ in results)
            rows = [
                await stores[0].insert_game(
                    NewGame(1, r.channel_id, "standard", 5, "", 1, "Alice", None, r.white_id, r.white_name, None,
                            "5/5/5/5/5 b p 12/12 - 0 1", 100.0))
                for r in rows
            ]  # fmt: skip
        (alice,) = await stores[0].ratings_of(1, 1)
        assert alice.size == 5 and alice.games == 10 and alice.wins == 10
        assert len(await stores[0].rating_history(1, 1)) == 10
    finally:
        for s in stores:
            await s.close()


async def test_hostile_names_are_stored_alike_on_both_backends(db_path: Db) -> None:
    """Display names come from outside: NUL (which PostgreSQL's text refuses), quotes,
    right-to-left overrides and SQL all store and read back the same on both backends, as
    one line of at most ``NAME_LIMIT`` characters."""
    hostile = "Ro\x00bert'); DROP TABLE games;--\u202e\u2028😀"
    stored = "Ro bert'); DROP TABLE games;-- 😀"  # NUL and U+2028 drawn as spaces, the override dropped
    store = await Storage.open(db_path)
    try:
        row = await store.insert_game(
            NewGame(1, 1, "standard", 5, "", 1, hostile, None, 2, hostile * 3, None, EMPTY_5, 100.0)
        )
        assert row.black_name == stored and row.white_name == (stored * 3)[: NAME_LIMIT - 1] + "\u2026"
        ch = await store.insert_challenge(1, 2, (1, hostile), (2, "B"), 5, "standard", "random", False, 1.0, 2.0)
        assert ch.challenger_name == stored
        assert (await store.game(row.id)).black_name == stored  # type: ignore[union-attr]
        assert len(await store.all_games()) == 1
    finally:
        await store.close()


async def test_a_name_written_behind_the_bots_back_reads_as_one_short_line(db_path: Db) -> None:
    """A row can hold a name the bot never wrote (an import, an older version, a hand
    edit): it reads back as one line of at most ``NAME_LIMIT`` characters, so no message
    about the game breaks its layout or runs to thousands of characters."""
    store = await Storage.open(db_path)
    try:
        row = await store.insert_game(NewGame(1, 1, "standard", 5, "", 1, "A", None, 2, "B", None, EMPTY_5, 100.0))
        execute(db_path, "UPDATE games SET black_name = ?, white_name = ? WHERE id = ?",
                ("Nour\r\nAmira\u2029", "x\n" * 10_000, row.id))  # fmt: skip
        again = await store.game(row.id)
        assert again is not None and again.black_name == "Nour  Amira "
        assert again.white_name == "x " * 31 + "x\u2026" and len(again.white_name) == NAME_LIMIT
        assert [g.white_name for g in await store.all_games()] == [again.white_name]
    finally:
        await store.close()


async def test_concurrent_hints_and_puzzle_answers_keep_their_limits(new_db: Callable[[], Db]) -> None:
    """Two processes: hints asked at once never pass the guild's limit, and puzzle answers
    given at once each move the rating (no lost update)."""
    db = new_db()
    stores = [await Storage.open(db), await Storage.open(db)]
    try:
        game = await stores[0].insert_game(_new_game())
        taken = await asyncio.gather(
            *(stores[i % 2].take_hint(game.id, 1, 3, 3, 100.0 + i) for i in range(12))  # type: ignore[attr-defined]
        )
        assert sorted(t for t in taken if t is not None) == [1, 2, 3]

        def rater(row, solved):  # type: ignore[no-untyped-def]
            return replace(row, solved=row.solved + int(solved), failed=row.failed + int(not solved))

        answers = await asyncio.gather(
            *(
                stores[i % 2].record_puzzle_attempt(1, 7, "P", f"puzzle-{i}", True, rater, 100.0)  # type: ignore[attr-defined]
                for i in range(10)
            )
        )
        assert all(first for first, _, _ in answers)
        final = await stores[0].puzzle_rating(1, 7)  # type: ignore[attr-defined]
        assert final is not None and final.solved == 10
    finally:
        for s in stores:
            await s.close()


async def test_the_challenges_a_game_closed_are_found_by_index(tmp_path: Path) -> None:
    """Outside review (stop 38): every game start reads the challenges it closed by the
    game's id, and with no index SQLite scanned the whole (never pruned) table: 53 ms a
    start with a million settled challenges."""
    path = tmp_path / "plan.db"
    storage = await Storage.open(str(path))
    await storage.close()
    with sqlite3.connect(path) as con:
        plan = con.execute(
            "EXPLAIN QUERY PLAN SELECT id FROM challenges WHERE game_id = ? AND status = 'closed' ORDER BY id", (1,)
        ).fetchall()
    assert any("USING INDEX challenges_game" in str(step) for step in plan), plan


async def test_a_players_games_with_hints_are_found_from_their_hints(tmp_path: Path) -> None:
    """Outside review (stop 39): /seega stats counted a player's games with hints by walking
    every game of the guild (83-90 ms a call with 100,000 games, holding the one SQLite
    connection); the query must start from the player's own hints."""
    path = tmp_path / "plan.db"
    storage = await Storage.open(str(path))
    await storage.close()
    with sqlite3.connect(path) as con:
        plan = con.execute(
            "EXPLAIN QUERY PLAN SELECT COUNT(DISTINCT h.game_id) FROM coach_hints h JOIN games g ON g.id = h.game_id"
            " WHERE g.guild_id = ? AND h.user_id = ?",
            (1, 2),
        ).fetchall()
    steps = [str(step[-1]) for step in plan]
    assert "coach_hints_user" in steps[0], steps


async def test_reads_answer_while_a_write_waits_for_another_process(db_path: Db) -> None:
    """Another process holding the write lock made every command of this process wait:
    reads took the same in-process lock and connection as the write waiting (up to
    5 x 10 s) for the other process. Now a read answers while the write still waits, and
    the write goes through once the other process lets go."""
    store = await Storage.open(db_path, busy_timeout_ms=120_000)
    try:
        first = await store.insert_game(_new_game(channel=1))
        await store.save_user_language(7, "ar")
        async with write_lock_held(db_path):
            write = asyncio.ensure_future(store.insert_game(_new_game(channel=2)))
            await asyncio.sleep(0.3)
            assert not write.done(), "the write waits for the other process"
            # generous: the reads take milliseconds; before, they waited for the write
            read_game = await asyncio.wait_for(store.game(first.id), 30)
            language = await asyncio.wait_for(store.user_language(7), 30)
            listed = await asyncio.wait_for(store.all_games(), 30)
            assert read_game == first and language == "ar" and [g.id for g in listed] == [first.id]
            assert not write.done(), "the reads answered while the write was still waiting"
        second = await asyncio.wait_for(write, 60)
        assert second.channel_id == 2
        assert await store.active_game(2) == second, "a read after the write sees it"
    finally:
        await store.close()


@pytest.mark.parametrize("target", [":memory:", ""])
async def test_a_private_sqlite_database_reads_on_its_one_connection(target: str) -> None:
    """An in-memory or temporary database is private to its connection: a second, reading
    connection would open another, empty database, so its reads share the write one."""
    store = await Storage.open(target)
    try:
        row = await store.insert_game(_new_game())
        await store.save_user_language(7, "ar")
        assert await store.game(row.id) == row and await store.user_language(7) == "ar"
        assert store._reader is store._conn  # type: ignore[attr-defined]
    finally:
        await store.close()
