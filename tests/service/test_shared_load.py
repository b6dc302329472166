"""What one member's request costs everybody else: a request about one server reads that
server's rows only, and one member's pictures do not queue in front of every board.

Costs are counted, not timed: SQLite's virtual-machine steps (a progress handler on the
bot's own connection) for the database's share of a request.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai_pool import ThreadAiRunner
from bot.clock import FakeClock
from bot.results import Player
from bot.service import GameService
from bot.storage import Storage
from bot.storage.sqlite import SqliteStorage
from tests.service.helpers import ALICE, BOB, GUILD, NO_CAPS, insert_from

#: A position in the movement phase (any will do: the games are only listed).
CHAIN = "wbbbw/wwbwb/bb1ww/wbbbb/wbwww w m 0/0 - 0 25"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = await Storage.open(tmp_path / "shared.db")
    svc = GameService(storage, ThreadAiRunner(), None, FakeClock(), random.Random(1), limits=NO_CAPS)
    yield svc
    await svc.storage.close()
    svc.ai.close()


async def _vm_steps(service: GameService, guild_id: int) -> tuple[int, list[int]]:
    """(SQLite steps, in hundreds, of listing ``guild_id``'s games in progress; their ids)."""
    storage = service.storage
    assert isinstance(storage, SqliteStorage)
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # go on

    await storage._conn.set_progress_handler(count, 100)
    try:
        listed = await service.games_in_progress(guild_id)
    finally:
        await storage._conn.set_progress_handler(None, 100)
    return steps[0], [g.id for g in listed]


async def test_listing_a_servers_games_reads_no_other_servers_games(service: GameService) -> None:
    """``/seega games`` read every active game of every server the bot is in, built a row
    for each on the event loop and kept that server's: one member's request cost as much
    as the whole bot's games, and anyone could repeat it. Now it reads its own server's
    games in progress, at most the ones it lists."""
    ours = [await insert_from(service, channel, CHAIN) for channel in (1, 2, 3)]
    alone, listed = await _vm_steps(service, GUILD)
    assert listed == ours[::-1]
    for i in range(400):  # the rest of the bot: other servers' games in progress
        player = Player(1000 + i, f"P{i}")
        await insert_from(service, 100 + i, CHAIN, player, BOB, guild_id=20 + i % 7)
    crowded, listed = await _vm_steps(service, GUILD)
    assert listed == ours[::-1]
    assert crowded <= alone + 2, f"{alone}00 steps alone, {crowded}00 beside 400 games of other servers"
    many = [await insert_from(service, 1000 + i, CHAIN, ALICE, Player(5000 + i, "X")) for i in range(40)]
    _, listed = await _vm_steps(service, GUILD)
    assert listed == many[::-1][:20], "the newest twenty of the server"
