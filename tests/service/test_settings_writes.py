"""Changing a guild's settings: one write, and only the values given (the attacker review of
stop 37: the timeouts and the hint limit were two transactions, and every change rewrote
the whole row read before it)."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService
from tests.service.conftest import Db
from tests.service.helpers import GUILD, MOD, execute


async def test_two_moderators_changing_different_settings_at_once_keep_both(service: GameService) -> None:
    """Each change read the row, then wrote all of it back: sent together, the second
    write put back the value the first had just changed."""
    await asyncio.gather(
        service.set_settings(GUILD, turn_timeout="10m", moderator=MOD),
        service.set_settings(GUILD, challenge_timeout="2m", moderator=MOD),
        service.set_settings(GUILD, default_variant="lane", moderator=MOD),
        service.set_settings(GUILD, hints=1, moderator=MOD),
    )
    row = await service.storage.settings(GUILD)
    assert (row.turn_timeout, row.challenge_timeout, row.default_variant) == (600, 120, "lane")
    assert await service.storage.hint_limit(GUILD, 3) == 1


async def test_a_change_that_fails_changes_nothing(service: GameService, db_path: Db) -> None:
    """The hint limit was written after the timeouts, in its own transaction: when it
    failed (here its table is gone; a full or read-only disk does the same) the moderator
    was told of an error while the new timeout was already in force."""
    execute(db_path, "DROP TABLE coach_settings")
    with pytest.raises(Exception):  # noqa: B017 - whatever the backend raises
        await service.set_settings(GUILD, turn_timeout="10m", hints=1, moderator=MOD)
    assert (await service.storage.settings(GUILD)).turn_timeout == 3600


async def test_a_huge_hint_limit_is_refused_and_changes_nothing(service: GameService) -> None:
    """Hostile numbers: 60,000 digits typed, or 10**40 given, are refused with the range
    before anything is written (the digits are counted before they are read as a number)."""
    from bot.results import BadInputError

    before = await service.storage.settings(GUILD)
    for value in ("9" * 60_000, "-" + "9" * 60_000, 10**40, -(10**40)):
        with pytest.raises(BadInputError) as info:
            await service.set_settings(GUILD, turn_timeout="10m", hints=value, moderator=MOD)
        assert info.value.key == "coach_hint_limit_range" and len(str(info.value)) < 200
    assert await service.storage.settings(GUILD) == before
    assert await service.storage.hint_limit(GUILD, 3) == 3
