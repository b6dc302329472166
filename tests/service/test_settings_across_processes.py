"""Guild settings changed by one bot process reach the others' caches at once (PostgreSQL
``NOTIFY``), and the settings read from the database are the new ones."""

from __future__ import annotations

import asyncio

from bot.results import Player
from bot.storage import SettingsRow, Storage
from tests.postgres import TempPostgres
from tests.service.helpers import ALICE, BOB, GUILD, MOD, close_service, make_service


async def test_a_settings_change_notifies_every_other_process(postgres_server: TempPostgres) -> None:
    url = postgres_server.create_database()
    one, two = await Storage.open(url), await Storage.open(url)
    heard: list[int] = []
    changed = asyncio.Event()

    def listener(guild_id: int) -> None:
        heard.append(guild_id)
        changed.set()

    two.on_settings_changed(listener)
    try:
        await one.save_settings(SettingsRow(42, turn_timeout=45))
        await asyncio.wait_for(changed.wait(), 10)
        assert heard == [42]
        assert (await two.settings(42)).turn_timeout == 45
    finally:
        await one.close()
        await two.close()


async def test_a_bot_process_uses_settings_changed_by_another_at_once(postgres_server: TempPostgres) -> None:
    """Two services (two bot processes): a moderator's change through one is what the
    other's next challenge uses, without waiting for its cache to age."""
    url = postgres_server.create_database()
    one, two = await make_service(url), await make_service(url)
    try:
        first = await two.challenge(GUILD, 1, ALICE, BOB)  # caches the default settings
        assert first.challenge.variant == "standard"
        await one.set_settings(GUILD, None, None, "lane", moderator=MOD)
        for attempt in range(200):
            challenger = Player(1000 + attempt, f"P{attempt}")  # one pending challenge each (docs/limits.md)
            second = await two.challenge(GUILD, 2 + attempt, challenger, BOB)
            if second.challenge.variant == "lane":
                break
            await asyncio.sleep(0.02)
        assert second.challenge.variant == "lane"
    finally:
        await close_service(one)
        await close_service(two)
