"""Exactly-once turns: 100 simultaneous identical moves, several connections, two processes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from bot.clock import FakeClock
from bot.results import ServiceError
from bot.service import GameService
from tests.service.helpers import ALICE, BOB, Db, close_service, insert_from, make_service

CHAIN_SPN = "bbwwb/wwbbw/bw1bb/bwbbb/wwwww w m 0/0 - 0 13"
ROOT = Path(__file__).resolve().parents[2]


async def _attempts(service: GameService, n: int) -> int:
    async def attempt() -> bool:
        try:
            await service.move(3, BOB.user_id, "b3-c3")
        except ServiceError:
            return False
        return True

    return sum(await asyncio.gather(*(attempt() for _ in range(n))))


async def _check_applied_once(service: GameService) -> None:
    rows = await service.storage.all_games()
    assert len(rows) == 1
    assert rows[0].actions == "b3-c3" and rows[0].version == 1


async def test_hundred_identical_moves_apply_once(service: GameService) -> None:
    await insert_from(service, 3, CHAIN_SPN, ALICE, BOB)
    assert await _attempts(service, 100) == 1
    await _check_applied_once(service)


async def test_identical_moves_through_separate_connections_apply_once(db_path: Db) -> None:
    clock = FakeClock()
    services = [await make_service(db_path, clock) for _ in range(4)]
    try:
        await insert_from(services[0], 3, CHAIN_SPN, ALICE, BOB)
        for s in services[1:]:
            await s.board(3)  # every service has the game cached: all caches go stale together
        applied = sum(await asyncio.gather(*(_attempts(s, 25) for s in services)))
        assert applied == 1
        await _check_applied_once(services[0])
    finally:
        for s in services:
            await close_service(s)


async def test_two_processes_apply_once(db_path: Db, tmp_path: Path) -> None:
    service = await make_service(db_path)
    await insert_from(service, 3, CHAIN_SPN, ALICE, BOB)
    gofile = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.service.child",
                "move",
                str(db_path),
                "3",
                str(BOB.user_id),
                "b3 c3",
                str(gofile),
                "50",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        gofile.touch()
        counts = [int(p.communicate(timeout=60)[0].strip()) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert sum(counts) == 1, counts
    await _check_applied_once(service)
    await close_service(service)
