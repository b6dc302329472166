"""Guild settings changed by one bot process reach the others' caches at once (PostgreSQL
``NOTIFY``), and the settings read from the database are the new ones."""

from __future__ import annotations

import asyncio

from bot.storage import SettingsRow, Storage
from tests.postgres import TempPostgres


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
