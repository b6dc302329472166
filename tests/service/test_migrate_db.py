"""``seega-bot migrate-db``: a SQLite database with games in every state moves to PostgreSQL.

The SQLite side is made by the current release's own service (real turns, a rated game
with rating history, a cancelled one, a corrupt one set aside, a bot game, challenges in
every state, settings); the copy must hold every row, continue every game, be safe to
run twice, and leave PostgreSQL untouched when a check fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.results import CorruptGameError
from bot.storage import Storage
from bot.storage.migrate import NOT_COPIED, TABLES, MigrationError, migrate_database
from tests.postgres import TempPostgres
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    MOD,
    close_service,
    execute,
    insert_from,
    make_service,
    query,
    start_people,
)

ROOT = Path(__file__).resolve().parents[2]
CHAIN_SPN = "bbwwb/wwbbw/bw1bb/bwbbb/wwwww w m 0/0 - 0 13"


async def _sqlite_with_every_state(path: Path) -> None:
    clock = FakeClock()
    service = await make_service(path, clock)
    try:
        await service.set_settings(GUILD, "45s", "10m", "lane", moderator=MOD)
        await start_people(service, 1)  # active, placement
        await service.place(1, ALICE.user_id, "a1 b1")
        await insert_from(service, 2, CHAIN_SPN)  # active, movement, mid-chain next
        await service.move(2, BOB.user_id, "b3-c3")
        await start_people(service, 3)  # finished and rated: ratings and their history
        await service.resign(3, BOB.user_id)
        await start_people(service, 4)  # cancelled, unrated
        await service.cancel(4, MOD)
        await start_people(service, 5)  # corrupt: set aside by the service
        execute(path, "UPDATE games SET actions = 'c3', version = version + 1 WHERE channel_id = 5")
        with pytest.raises(CorruptGameError):
            await service.board(5)
        await service.play_bot(GUILD, 6, CAROL, "easy", 5, None, "white")  # a bot game, bot turn played
        await insert_from(service, 7, "bbb2/5/5/5/ww3 b m 0/0 - 0 30", CAROL, ALICE)  # an offer to end pending
        await service.offer_end(7, CAROL.user_id)
        await service.challenge(GUILD, 8, ALICE, CAROL)  # pending
        declined = await service.challenge(GUILD, 9, BOB, CAROL)
        await service.decline_challenge(declined.challenge.id, CAROL.user_id)
        await service.challenge(GUILD, 10, CAROL, BOB)
        clock.advance(3600)
        assert await service.expire_challenges()  # expired (and the pending one at 8 too)
        await service.challenge(GUILD, 8, ALICE, CAROL)  # pending again
        # the coach's rows: a hint limit, a hint in the bot game, a puzzle tried, a lesson, a review
        await service.coach.hints.set_limit(GUILD, 5, moderator=MOD)
        await service.coach.hints.hint(GUILD, 6, CAROL.user_id)
        shown = await service.coach.puzzles.show(GUILD, ALICE.user_id, "Alice")
        solution = service.coach.puzzles.by_id(shown.puzzle_id).solution  # type: ignore[union-attr]
        await service.coach.puzzles.answer(GUILD, ALICE.user_id, "Alice", " ".join(solution))
        await service.storage.mark_lesson_done(ALICE.user_id, "placement", clock.now())
        await service.coach.lessons.show(BOB.user_id, 5, 11)  # an open exercise, a chain begun
        await service.coach.lessons.answer(BOB.user_id, 5, "c1 c2", 11)
        await service.storage.save_coach_review(3, 2000, '{"turns": []}', clock.now())
    finally:
        await close_service(service)


def _rows(db: Path | str) -> dict[str, list[tuple[object, ...]]]:
    out = {}
    for table, key in TABLES:
        out[table] = query(db, f"SELECT * FROM {table} ORDER BY {', '.join(key)}")
    return out


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Path:
    return tmp_path / "old.db"


async def test_every_state_copies_replays_and_continues(
    sqlite_db: Path, postgres_server: TempPostgres, caplog: pytest.LogCaptureFixture
) -> None:
    await _sqlite_with_every_state(sqlite_db)
    url = postgres_server.create_database()
    statuses = {r[0] for r in query(sqlite_db, "SELECT status FROM games")}
    assert statuses == {"active", "finished", "cancelled", "corrupt"}
    assert {r[0] for r in query(sqlite_db, "SELECT status FROM challenges")} == {
        "pending",
        "accepted",
        "declined",
        "expired",
    }

    report = await migrate_database(sqlite_db, url)
    assert report.counts == {t: len(query(sqlite_db, f"SELECT * FROM {t}")) for t, _ in TABLES}
    assert all(
        report.counts[t] > 0
        for t in ("coach_hints", "coach_settings", "coach_lessons", "coach_reviews", "coach_open_lessons")
    )
    assert report.counts["coach_puzzle_attempts"] == 1
    assert report.copied == report.counts and report.counts["rating_history"] == 2
    assert report.replayed == report.counts["games"] - 1 and len(report.corrupt) == 1
    assert _rows(url) == _rows(sqlite_db)

    again = await migrate_database(sqlite_db, url)  # safe to run twice: nothing new, all verified
    assert again.counts == report.counts and set(again.copied.values()) == {0}
    assert _rows(url) == _rows(sqlite_db)

    # the bot goes on on PostgreSQL: the same games, ratings and settings; new ids follow
    service = await make_service(url)
    try:
        assert service.storage.backend == "postgresql"
        board = await service.board(1)
        assert board.to_move == BOB
        placed = await service.place(1, BOB.user_id, "a2 b2")
        assert placed.game.turn == 3
        stats = await service.stats(GUILD, ALICE.user_id)
        assert stats.ratings and stats.ratings[0].games == 1
        assert (await service.get_settings(GUILD)).default_variant == "lane"
        new = await start_people(service, 20)
        assert new.game.id > max(r[0] for r in query(sqlite_db, "SELECT id FROM games"))
    finally:
        await close_service(service)


async def test_a_failed_check_leaves_postgresql_unchanged(sqlite_db: Path, postgres_server: TempPostgres) -> None:
    await _sqlite_with_every_state(sqlite_db)
    url = postgres_server.create_database()
    await migrate_database(sqlite_db, url)
    before = _rows(url)
    # someone played on in PostgreSQL: the rerun must see the difference and change nothing
    execute(url, "UPDATE games SET version = version + 5 WHERE channel_id = 1")
    changed = _rows(url)
    with pytest.raises(MigrationError, match="differs"):
        await migrate_database(sqlite_db, url)
    assert _rows(url) == changed != before

    # a game whose record does not replay is refused (and nothing of that run is kept)
    other = postgres_server.create_database()
    execute(sqlite_db, "UPDATE games SET actions = 'a1 b1 a2 b2 a3' WHERE channel_id = 1")
    with pytest.raises(MigrationError, match="does not replay"):
        await migrate_database(sqlite_db, other)
    store = await Storage.open(other)
    try:
        assert await store.all_games() == []
    finally:
        await store.close()


def test_the_command_line(sqlite_db: Path, postgres_server: TempPostgres) -> None:
    import asyncio

    asyncio.run(_sqlite_with_every_state(sqlite_db))
    url = postgres_server.create_database()
    env = dict(os.environ, SEEGA_DB=str(sqlite_db), DISCORD_TOKEN="", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "bot", "migrate-db", "--to", url]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, cwd=sqlite_db.parent)
    assert first.returncode == 0, first.stderr
    assert "games: 7 rows (7 copied now, 0 already there)" in first.stdout
    assert "games replayed to their stored position: 6" in first.stdout
    second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, cwd=sqlite_db.parent)
    assert second.returncode == 0 and "(0 copied now, 7 already there)" in second.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--to", "mysql://x"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1 and "postgresql://" in bad.stderr


def test_every_table_of_the_schema_is_copied(tmp_path: Path) -> None:
    """A table added by a migration but forgotten here would be silently lost in the move."""
    import asyncio

    from bot.storage.migrate import unlisted_tables
    from bot.storage.sqlite import SqliteStorage

    async def tables() -> list[str]:
        storage = await Storage.open(tmp_path / "fresh.db", checkpoint_interval=None)
        assert isinstance(storage, SqliteStorage)
        try:
            return await unlisted_tables(storage)
        finally:
            await storage.close()

    assert asyncio.run(tables()) == []
    assert set(NOT_COPIED).isdisjoint(t for t, _ in TABLES)


async def test_an_unknown_table_is_refused_not_dropped(sqlite_db: Path, postgres_server: TempPostgres) -> None:
    service = await make_service(sqlite_db)
    await close_service(service)
    execute(sqlite_db, "CREATE TABLE plugin_notes (id INTEGER PRIMARY KEY, body TEXT)")
    with pytest.raises(MigrationError, match="plugin_notes"):
        await migrate_database(sqlite_db, postgres_server.create_database())
