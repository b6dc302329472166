"""Crash safety: a process playing games is SIGKILLed at random moments, over and over.

After every kill each stored game must load and replay to its stored SPN, the database
must pass SQLite's integrity check (on SQLite), and no finished game may be lost or changed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import time
from multiprocessing.synchronize import Event as EventType
from pathlib import Path

from engine import Position, Ruleset
from tests.service.child import play
from tests.service.helpers import Db, close_service, make_service, query

KILLS = 50


def _check(db: Db) -> dict[int, tuple[str, str | None]]:
    """Replay every game with the engine alone; returns finished games (id -> (actions, result))."""
    if isinstance(db, Path):
        assert query(db, "PRAGMA integrity_check")[0][0] == "ok"
    rows = query(db, "SELECT id, channel_id, variant, size, options, setup, actions, spn, status, result FROM games")
    active_channels = [r[1] for r in rows if r[8] == "active"]
    assert len(active_channels) == len(set(active_channels))
    finished = {}
    for game_id, _, variant, size, options, setup, actions, spn, status, result in rows:
        rules = Ruleset.make(variant, size, [o for o in options.split(",") if o])
        pos = Position.from_spn(setup, rules) if setup else Position(rules)
        for action in actions.split():
            pos.play(action)
        assert pos.spn() == spn, (game_id, status)
        assert status in ("active", "finished")
        if status == "finished":
            assert result is not None
            finished[game_id] = (actions, result)
    return finished


def _child(db: str, seed: int, ready: EventType) -> None:
    """The forked child: play games until killed (signals ``ready`` once the database is open)."""
    asyncio.run(play(db, seed, ready.set))


def test_sigkill_at_random_moments(db_path: Db) -> None:
    # Children are forked from this (already imported) process so that each of the many
    # runs starts in milliseconds; the test is synchronous so no event loop is forked.
    ctx = multiprocessing.get_context("fork")
    db = db_path
    rng = random.Random(2026)
    finished: dict[int, tuple[str, str | None]] = {}
    moves_seen = 0
    for i in range(KILLS):
        ready = ctx.Event()
        child = ctx.Process(target=_child, args=(str(db), i, ready), daemon=True)
        child.start()
        try:
            assert ready.wait(30), "the child did not start"
            time.sleep(rng.uniform(0.0, 0.2))
        finally:
            assert child.pid is not None
            os.kill(child.pid, signal.SIGKILL)
            child.join()
        assert child.exitcode == -signal.SIGKILL, "the child stopped before it was killed"
        now = _check(db)
        for game_id, record in finished.items():
            assert now.get(game_id) == record, f"finished game {game_id} lost or changed after kill {i}"
        finished = now
        moves_seen = (
            query(
                db, "SELECT SUM(LENGTH(actions) - LENGTH(REPLACE(actions, ' ', '')) + 1) FROM games WHERE actions != ''"
            )[0][0]
            or 0
        )
    assert finished, "no game finished during the test: the kills came too early"
    assert moves_seen > 500
    asyncio.run(_service_loads_everything(db))


async def _service_loads_everything(db: Db) -> None:
    """The service itself loads every active game after the last kill."""
    service = await make_service(db)
    try:
        for row in await service.storage.all_games("active"):
            assert (await service.board(row.channel_id)).game.spn == row.spn
    finally:
        await close_service(service)
