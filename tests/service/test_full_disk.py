"""A full disk is a service error with a message, and nothing is half written (issue 9 item 7).

SQLite's ``max_page_count`` makes the database file unable to grow: the same "database or
disk is full" (SQLITE_FULL) a full disk gives, without filling one.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from bot.results import StorageFullError
from bot.service.failures import disk_is_full
from tests.service.helpers import ALICE, BOB, GUILD, NO_CAPS, close_service, make_service, snapshot, start_people


async def test_a_database_that_cannot_grow_is_answered_and_left_whole(tmp_path: Path) -> None:
    path = tmp_path / "full.db"
    service = await make_service(path, limits=NO_CAPS)
    try:
        await start_people(service, 1, ALICE, BOB)
        conn = service.storage._conn  # type: ignore[attr-defined]
        pages = (await (await conn.execute("PRAGMA page_count")).fetchone())[0]
        await conn.execute(f"PRAGMA max_page_count = {pages}")
        refused = None
        for channel in range(2, 200):
            try:
                before = snapshot(path)
                made = await service.challenge(GUILD, channel, ALICE, BOB)
                before = snapshot(path)
                await service.accept_challenge(made.challenge.id, BOB.user_id)
            except StorageFullError as exc:
                refused = exc
                break
        assert refused is not None, "the database never filled up"
        assert refused.key == "storage_full" and "disk is full" in refused.message
        assert snapshot(path) == before, "nothing of the refused request was written"
        assert (await service.board(1)).game.id == 1, "reading still works"
        await conn.execute(f"PRAGMA max_page_count = {pages * 100}")
        await start_people(service, 500, ALICE, BOB)
        assert await service.game(500) is not None, "once there is room again, games start"
        assert len(await service.history(GUILD, None, 50)) >= 1
    finally:
        await close_service(service)


def test_what_counts_as_a_full_disk() -> None:
    import sqlite3

    assert disk_is_full(sqlite3.OperationalError("database or disk is full"))
    assert disk_is_full(OSError(errno.ENOSPC, "No space left on device"))
    assert not disk_is_full(sqlite3.OperationalError("database is locked"))
    assert not disk_is_full(OSError(errno.EACCES, "Permission denied"))
    with pytest.raises(AssertionError):
        assert disk_is_full(ValueError("full"))


async def test_a_read_only_database_is_answered_and_left_whole(tmp_path: Path) -> None:
    """Outside review (stop 36): a database that refuses writes (a file made read-only,
    a standby server) answered "unexpected error (id)". It is a service error saying what
    the host must fix; nothing is written and reading goes on. SQLite's ``query_only``
    gives the same "attempt to write a readonly database" a read-only file gives."""
    from bot.results import StorageReadOnlyError

    path = tmp_path / "ro.db"
    service = await make_service(path, limits=NO_CAPS)
    try:
        await start_people(service, 1, ALICE, BOB)
        await service.storage._conn.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        before = snapshot(path)
        with pytest.raises(StorageReadOnlyError) as refused:
            await service.challenge(GUILD, 2, ALICE, BOB)
        assert refused.value.key == "storage_read_only" and "read-only" in refused.value.message
        assert snapshot(path) == before
        assert (await service.board(1)).game.id == 1, "reading still works"
    finally:
        await close_service(service)
